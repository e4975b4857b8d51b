//! The subcommands for people: `play`, `analyze`, `match`, `openings`, `datagen`, and the
//! players for game servers (`tablut-client`). Like the protocols, they
//! are front-ends over [`skald::engine::Engine`] (rules, search, options) and re-implement none
//! of it.

pub mod analyze;
pub mod bot;
pub mod client;
pub mod datagen;
pub mod matches;
pub mod openings;
pub mod play;
pub mod records;
pub mod rules;
pub mod selfplay;
pub mod stats;
pub mod tablut_client;

use skald::engine::Score;
use skald::engine::{Outcome, Side};
use skald::variant::Variant;

/// The value of a flag that was renamed: `new` if given, else the old spelling's value (with a
/// note on standard error that says what to use instead: `note: --movetime is now --time
/// (seconds)`). The old spellings stay, hidden from `--help`, so that scripts keep working.
pub fn renamed<T>(new: Option<T>, old: Option<T>, old_flag: &str, use_instead: &str) -> Option<T> {
    match (new, old) {
        (Some(v), _) => Some(v),
        (None, Some(v)) => {
            eprintln!("note: {old_flag} is now {use_instead}; the old name still works");
            Some(v)
        }
        (None, None) => None,
    }
}

/// Sets engine options from command-line flags, `(flag, option name, value)` each; an error
/// names the flag, not the engine option (`--threads must be a whole number from 1 to 8, got
/// 9`, `--eval-file: cannot read network file …`, `--hash 8192: cannot allocate 8192 MiB for
/// the hash table`). The CLI exits on these errors, so they do not say what the engine keeps.
pub fn set_engine_flags(
    engine: &mut skald::engine::Engine,
    flags: &[(&str, &str, String)],
) -> anyhow::Result<()> {
    use skald::engine::options::OptionError;
    for (flag, option, value) in flags {
        engine.set_option(option, value).map_err(|e| match e {
            OptionError::BadValue {
                value, expected, ..
            } => anyhow::anyhow!("{flag} must be {}, got {value}", range_words(&expected)),
            OptionError::EvalFile { error, .. } => anyhow::anyhow!("{flag}: {error}"),
            OptionError::Table(error) => {
                let error = error.split("; keeping").next().unwrap_or(&error);
                anyhow::anyhow!("{flag} {value}: {error}")
            }
            e => anyhow::anyhow!("{flag}: {e}"),
        })?;
    }
    Ok(())
}

/// Refuses an `--eval-file` network that does not evaluate the engine's game in play (a tafl
/// network for another board, a network of another game family: [`Engine::eval_unfit`]), so
/// that a tool never silently plays by hand when a network was asked for. Call it once the
/// variant (or session) and `EvalFile` are set.
///
/// [`Engine::eval_unfit`]: skald::engine::Engine::eval_unfit
pub fn check_eval_fits(engine: &skald::engine::Engine) -> anyhow::Result<()> {
    match engine.eval_unfit() {
        Some(why) => anyhow::bail!("--eval-file: {why}"),
        None => Ok(()),
    }
}

/// An engine option's "a whole number in 1..=64" as the CLI says it: "a whole number from 1
/// to 64".
fn range_words(expected: &str) -> String {
    if let Some((head, range)) = expected.rsplit_once(" in ")
        && let Some((lo, hi)) = range.split_once("..=")
    {
        return format!("{head} from {lo} to {hi}");
    }
    expected.to_string()
}

/// The text of the file `path`, without a leading UTF-8 byte order mark
/// ([`skald::protocol::without_bom`]): how the CLI reads every text file it is given (records,
/// openings, a password file).
///
/// # Errors
/// The file cannot be read or is not UTF-8: `cannot read <path>: <reason>`.
pub fn read_text(path: &std::path::Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    Ok(match skald::protocol::without_bom(&text).len() {
        n if n == text.len() => text,
        _ => skald::protocol::without_bom(&text).to_string(),
    })
}

/// `1 ply`, `30 plies`.
pub fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// The note added to an error in a record game that has no `Variant` tag (it was read as
/// `variant`) and what the reader can do (`hint`): `(the game has no Variant tag and was read as
/// ataxx: give --variant)`.
pub fn untagged_note(variant: Variant, hint: &str) -> String {
    format!("(the game has no Variant tag and was read as {variant}: {hint})")
}

/// A clap value parser for a time in seconds, fractions allowed, whose errors name the option
/// like [`Whole`]'s: `--time must be a number of seconds more than 0 and at most 3600, got
/// -2.5`. Options using it should set `allow_negative_numbers = true`.
#[derive(Clone, Copy, Debug)]
pub struct Seconds {
    /// Whether 0 is allowed (else the value must be more than 0).
    pub zero: bool,
    /// Largest value allowed.
    pub max: f64,
}

impl Seconds {
    /// More than 0, at most 3600 seconds.
    pub const POSITIVE: Seconds = Seconds {
        zero: false,
        max: 3600.0,
    };
    /// From 0 to 3600 seconds.
    pub const ZERO_OR_MORE: Seconds = Seconds {
        zero: true,
        max: 3600.0,
    };

    /// The range in words: "more than 0 and at most 3600" or "from 0 to 3600".
    pub fn range(&self) -> String {
        if self.zero {
            format!("from 0 to {}", self.max)
        } else {
            format!("more than 0 and at most {}", self.max)
        }
    }

    /// Checks `s`; the error has no option name (`must be a number of seconds …, got 'x'`).
    pub fn check(&self, s: &str) -> Result<f64, String> {
        match s.trim().parse::<f64>() {
            Ok(v) if v <= self.max && (v > 0.0 || (self.zero && v == 0.0)) => Ok(v),
            _ => Err(format!(
                "must be a number of seconds {}, got {s}",
                self.range()
            )),
        }
    }
}

impl clap::builder::TypedValueParser for Seconds {
    type Value = f64;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<f64, clap::Error> {
        let name = arg_name(arg);
        self.check(&value.to_string_lossy()).map_err(|e| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("{name} {e}"),
            )
        })
    }
}

/// Parses a variant name for clap.
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse::<Variant>().map_err(|e| e.to_string())
}

/// The side's name in `variant`: `attackers`/`defenders` or `x`/`o`.
pub fn side_name(variant: Variant, side: Side) -> &'static str {
    variant.side_name(side)
}

/// `win` for the tafl sides (plural), `wins` for x and o ([`Variant::win_verb`]).
pub fn win_verb(variant: Variant) -> &'static str {
    variant.win_verb()
}

/// A score as a number from the side to move's view: `+0.35` (pawns) or `#3` / `#-2`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// A score in words, naming the side it favours (`to_move` is the side whose view it is).
pub fn score_words(variant: Variant, to_move: Side, score: Score) -> String {
    let (good, bad) = (
        side_name(variant, to_move),
        side_name(variant, to_move.opponent()),
    );
    match score {
        Score::Mate(n) if n > 0 => format!("{good} {} in {n}", win_verb(variant)),
        Score::Mate(n) => format!("{bad} {} in {}", win_verb(variant), -n),
        Score::Cp(cp) => {
            let who = if cp > 0 { good } else { bad };
            match cp.abs() {
                0..=24 => "about equal".to_string(),
                25..=74 => format!("{who} slightly better"),
                75..=199 => format!("{who} better"),
                _ => format!("{who} winning"),
            }
        }
    }
}

/// The result in words: `attackers win (king captured)`, `x wins (board full)`,
/// `draw (repetition)`, or `the game goes on`.
pub fn outcome_text(variant: Variant, outcome: Outcome) -> String {
    variant
        .outcome_text(outcome)
        .unwrap_or_else(|| "the game goes on".to_string())
}

/// A result in words ([`Variant::result_text`]).
pub fn result_text(variant: Variant, winner: Option<Side>, reason: &str) -> String {
    variant.result_text(winner, reason)
}

/// Ends a subcommand: on error, prints `error: <message>` (with its causes, no backtrace) to
/// standard error and exits with status 1.
pub fn finish(result: anyhow::Result<()>) -> anyhow::Result<()> {
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
    Ok(())
}

/// How an error names the argument: `--depth` for a flag, `TIMEOUT` for a positional argument.
fn arg_name(arg: Option<&clap::Arg>) -> String {
    match arg {
        Some(a) => match a.get_long() {
            Some(long) => format!("--{long}"),
            None => a
                .get_value_names()
                .and_then(|names| names.first())
                .map_or_else(|| a.get_id().as_str().to_uppercase(), |n| n.to_string()),
        },
        None => "the value".to_string(),
    }
}

/// A clap value parser for a whole number from `lo` to `hi` (inclusive), whose errors name the
/// option and fit on one line: `--depth must be a whole number from 1 to 64, got -3`,
/// `--depth must be at most 10 (each ply more doubles to triples the time), got 30`. Options
/// using it should set `allow_negative_numbers = true` so that `-3` reaches it as a value.
#[derive(Clone, Copy, Debug)]
pub struct Whole {
    /// Smallest value allowed.
    pub lo: u64,
    /// Largest value allowed.
    pub hi: u64,
    /// Why `hi` is the bound, in parentheses after "at most": e.g. "each ply more doubles to
    /// triples the time".
    pub why: &'static str,
}

impl Whole {
    /// `lo..=hi` with the reason for the upper bound.
    pub const fn new(lo: u64, hi: u64, why: &'static str) -> Whole {
        Whole { lo, hi, why }
    }
}

impl clap::builder::TypedValueParser for Whole {
    type Value = u64;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<u64, clap::Error> {
        let name = arg_name(arg);
        let text = value.to_string_lossy();
        let fail = |msg: String| clap::Error::raw(clap::error::ErrorKind::ValueValidation, msg);
        // Below the range: the whole range, so the message says what to type.
        let low = if self.hi == u64::MAX {
            format!("a whole number {} or more", self.lo)
        } else {
            format!("a whole number from {} to {}", self.lo, self.hi)
        };
        let n: u64 = match text.trim().parse::<i128>() {
            Ok(n) if n < self.lo as i128 => {
                return Err(fail(format!("{name} must be {low}, got {text}")));
            }
            Ok(n) => n.min(u64::MAX as i128) as u64,
            Err(_) => return Err(fail(format!("{name} must be {low}, got '{text}'"))),
        };
        if n > self.hi {
            let why = if self.why.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.why)
            };
            return Err(fail(format!(
                "{name} must be at most {}{why}, got {text}",
                self.hi
            )));
        }
        Ok(n)
    }
}

/// A clap value parser for a whole number or a range of them, `N` or `N-M` (each from `lo` to
/// `hi`, as [`Whole`], and `N` ≤ `M`): the pair `(N, M)`, `(N, N)` for a single number. Errors
/// name the option as [`Whole`]'s do: `--plies must be at most 40, got 41`,
/// `--plies: the range 17-14 runs backwards; write 14-17`.
#[derive(Clone, Copy, Debug)]
pub struct WholeRange(pub Whole);

impl clap::builder::TypedValueParser for WholeRange {
    type Value = (u64, u64);

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<(u64, u64), clap::Error> {
        let text = value.to_string_lossy();
        let trimmed = text.trim();
        // A '-' after the first character separates the ends (a leading one is a sign, which
        // `Whole` reports as below the range).
        let Some(dash) = trimmed.get(1..).and_then(|t| t.find('-')).map(|i| i + 1) else {
            let n = self.0.parse_ref(cmd, arg, value)?;
            return Ok((n, n));
        };
        let (a, b) = (&trimmed[..dash], &trimmed[dash + 1..]);
        let lo = self.0.parse_ref(cmd, arg, std::ffi::OsStr::new(a))?;
        let hi = self.0.parse_ref(cmd, arg, std::ffi::OsStr::new(b))?;
        if lo > hi {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!(
                    "{}: the range {text} runs backwards; write {hi}-{lo}",
                    arg_name(arg)
                ),
            ));
        }
        Ok((lo, hi))
    }
}

/// The range of the engine option `name` (a spin option of the registry, so that a flag and
/// the option cannot disagree).
fn option_range(name: &str) -> (u64, u64) {
    use skald::engine::options::{OptionKind, find};
    match find(name).map(|o| o.kind) {
        Some(OptionKind::Spin { min, max, .. }) => (min.max(0) as u64, max.max(0) as u64),
        _ => unreachable!("{name} is a spin option"),
    }
}

/// `--threads` of the searches (the engine option Threads): 1 to four per core.
pub fn threads_parser() -> impl clap::builder::TypedValueParser<Value = u32> {
    use clap::builder::TypedValueParser;
    let (lo, hi) = option_range("Threads");
    Whole::new(lo, hi, "four per core").map(|v| v as u32)
}

/// `--hash` (the engine option Hash, MiB): 1 to 65536.
pub fn hash_parser() -> impl clap::builder::TypedValueParser<Value = u32> {
    use clap::builder::TypedValueParser;
    let (lo, hi) = option_range("Hash");
    Whole::new(lo, hi, "").map(|v| v as u32)
}

/// `--multipv` (the engine option MultiPV): 1 to 64.
pub fn multipv_parser() -> impl clap::builder::TypedValueParser<Value = u32> {
    use clap::builder::TypedValueParser;
    let (lo, hi) = option_range("MultiPV");
    Whole::new(lo, hi, "").map(|v| v as u32)
}

/// The largest search depth a flag takes, plies.
pub const MAX_DEPTH: u64 = 64;

/// `--depth` of a search: 1 to [`MAX_DEPTH`].
pub fn depth_parser() -> impl clap::builder::TypedValueParser<Value = u32> {
    use clap::builder::TypedValueParser;
    Whole::new(1, MAX_DEPTH, "").map(|v| v as u32)
}

/// A position error of `--fen` in `variant`: `bad FEN '<fen>': <reason> (a FEN of <variant>: is
/// --variant right?)`; other errors (a bad move) as they are.
pub fn fen_error(e: skald::engine::session::PositionError, variant: Variant) -> anyhow::Error {
    use skald::engine::session::PositionError;
    match e {
        e @ PositionError::BadFen { .. } => {
            anyhow::anyhow!("{e} (a FEN of {variant}: is --variant right?)")
        }
        e => anyhow::anyhow!("{e}"),
    }
}

/// The exit status of every error, argument errors included (0 = success).
pub const ERROR_STATUS: i32 = 1;

/// Handles a command-line parse error: `--help` and `--version` print as usual and exit 0;
/// anything else prints one line `error: …` to standard error and exits with
/// [`ERROR_STATUS`]. `args` is the command line (for naming the option before a negative
/// number) and `cmd` the program's clap command.
pub fn argument_error(e: clap::Error, cmd: &clap::Command, args: &[std::ffi::OsString]) -> ! {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {}
    }
    eprintln!("error: {}", one_line(&e, cmd, args));
    std::process::exit(ERROR_STATUS);
}

/// One line for a clap error (see [`argument_error`]).
fn one_line(e: &clap::Error, cmd: &clap::Command, args: &[std::ffi::OsString]) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let sub = args.get(1).and_then(|s| cmd.find_subcommand(s));
    // A negative number after an option that takes a value: clap reads it as an unknown flag.
    if e.kind() == ErrorKind::UnknownArgument
        && let Some(ContextValue::String(bad)) = e.get(ContextKind::InvalidArg)
        && bad.starts_with('-')
        && bad[1..].parse::<f64>().is_ok()
        && let Some(pos) = args
            .iter()
            .position(|a| a.starts_with(bad.as_str()) && a[1..].parse::<f64>().is_ok())
        && pos > 0
        && let Some(long) = args[pos - 1].strip_prefix("--")
        && let Some(arg) = sub
            .unwrap_or(cmd)
            .get_arguments()
            .find(|a| a.get_long() == Some(long))
        && arg.get_action().takes_values()
    {
        let whole = [
            std::any::TypeId::of::<u8>(),
            std::any::TypeId::of::<u16>(),
            std::any::TypeId::of::<u32>(),
            std::any::TypeId::of::<u64>(),
            std::any::TypeId::of::<usize>(),
            std::any::TypeId::of::<i32>(),
            std::any::TypeId::of::<i64>(),
        ]
        .iter()
        .any(|t| arg.get_value_parser().type_id() == *t);
        // Numeric flags use [`Whole`] or [`Seconds`] with `allow_negative_numbers`, which
        // name the range; this is the fallback for any other.
        let kind = if whole {
            "a whole number 0 or more"
        } else {
            "a number 0 or more"
        };
        let help = match sub {
            Some(s) => format!("skald {} --help", s.get_name()),
            None => "skald --help".to_string(),
        };
        return format!("--{long} must be {kind}, got {}; see '{help}'", args[pos]);
    }
    // Otherwise clap's own message without the usage block: the lines before "Usage:", the
    // tips in parentheses.
    let rendered = e.render().to_string();
    let mut parts: Vec<String> = Vec::new();
    for line in rendered.lines() {
        let line = line.trim();
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        match line.strip_prefix("tip: ") {
            Some(tip) => parts.push(format!("({tip})")),
            None => parts.push(line.to_string()),
        }
    }
    let mut text = parts.join(" ");
    let help = match sub {
        Some(s) => format!("skald {} --help", s.get_name()),
        None => "skald --help".to_string(),
    };
    text.push_str(&format!("; see '{help}'"));
    text
}
