//! The flags the binary's subcommands share, declared once: the engine's flags
//! ([`EngineFlags`]: `--threads`, `--hash`, `--eval-file`, flattened into every subcommand that
//! runs the engine), the value parsers whose errors name the flag and fit on one line
//! ([`Whole`], [`WholeRange`], [`Seconds`], the parsers of the engine options' ranges), and
//! [`set_engine_flags`], which sets engine options from flags. The CLI (`cli`) and the browser
//! server (`serve`) both use them; neither imports the other for them.

use skald::engine::Engine;

/// `--threads` (the engine option Threads), declared once for every subcommand that takes it.
#[derive(clap::Args, Clone, Debug)]
pub struct ThreadsFlag {
    /// Search threads (the engine option Threads): 1 to four per core.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = threads_parser())]
    pub threads: u32,
}

/// `--hash` (the engine option Hash, MiB), declared once.
#[derive(clap::Args, Clone, Debug)]
pub struct HashFlag {
    /// Hash table size, MiB (the engine option Hash): 1 to 65536.
    #[arg(long, default_value_t = skald::engine::DEFAULT_HASH_MIB as u32,
          allow_negative_numbers = true, value_parser = hash_parser())]
    pub hash: u32,
}

/// `--eval-file` (the engine option EvalFile), declared once.
#[derive(clap::Args, Clone, Debug)]
pub struct EvalFileFlag {
    /// The evaluation (the engine option EvalFile): hand (the hand-written evaluation), a
    /// network file's path, or by default (<default>) the built-in network of the variant
    /// (Ataxx, Copenhagen 11×11) and the hand-written evaluation for the other tafl variants.
    #[arg(long, default_value = skald::engine::EVAL_FILE_DEFAULT, hide_default_value = true)]
    pub eval_file: String,
}

impl EvalFileFlag {
    /// The flag as [`set_engine_flags`] takes it.
    pub fn flag(&self) -> (&'static str, &'static str, String) {
        ("--eval-file", "EvalFile", self.eval_file.clone())
    }
}

/// The engine's flags, one set flattened into every subcommand that runs an engine of its own
/// (`analyze`, `htp`, `bot`, `tablut-client`): `--threads`, `--hash`, `--eval-file`. The
/// subcommands that run something else use the single flags they need (`bench` its threads and
/// evaluation, `datagen` the hash and evaluation of each of its engines, `openings` the
/// evaluation).
#[derive(clap::Args, Clone, Debug)]
pub struct EngineFlags {
    // `--threads`.
    #[command(flatten)]
    pub threads: ThreadsFlag,
    // `--hash`.
    #[command(flatten)]
    pub hash: HashFlag,
    // `--eval-file`.
    #[command(flatten)]
    pub eval: EvalFileFlag,
}

impl EngineFlags {
    /// The flags as [`set_engine_flags`] takes them: `--threads`, `--hash`, `--eval-file`.
    pub fn flags(&self) -> Vec<(&'static str, &'static str, String)> {
        vec![
            ("--threads", "Threads", self.threads.threads.to_string()),
            ("--hash", "Hash", self.hash.hash.to_string()),
            self.eval.flag(),
        ]
    }

    /// Sets the engine's options from the flags; an error names the flag
    /// ([`set_engine_flags`]).
    pub fn apply(&self, engine: &mut Engine) -> anyhow::Result<()> {
        set_engine_flags(engine, &self.flags())
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

/// An engine option's "a whole number in 1..=64" as the CLI says it: "a whole number from 1
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

/// to 64".
fn range_words(expected: &str) -> String {
    if let Some((head, range)) = expected.rsplit_once(" in ")
        && let Some((lo, hi)) = range.split_once("..=")
    {
        return format!("{head} from {lo} to {hi}");
    }
    expected.to_string()
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

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The engine's flags are declared once: every subcommand that runs an engine of its own
    /// takes `--threads`, `--hash` and `--eval-file` with the same help and default, and the
    /// others the ones they use, alike (before, five subcommands declared them each).
    #[test]
    fn the_engine_flags_are_one_set_in_every_subcommand() {
        let cmd = crate::Cli::command();
        let flag = |sub: &str, long: &str| {
            let sub = cmd.find_subcommand(sub).expect(sub);
            sub.get_arguments()
                .find(|a| a.get_long() == Some(long))
                .map(|a| {
                    (
                        a.get_help().map(ToString::to_string),
                        a.get_default_values().to_vec(),
                    )
                })
        };
        let uses = [
            ("analyze", &["threads", "hash", "eval-file"][..]),
            ("htp", &["threads", "hash", "eval-file"]),
            ("bot", &["threads", "hash", "eval-file"]),
            ("tablut-client", &["threads", "hash", "eval-file"]),
            ("bench", &["threads", "eval-file"]),
            ("datagen", &["hash", "eval-file"]),
            ("openings", &["eval-file"]),
        ];
        for long in ["threads", "hash", "eval-file"] {
            let first = flag("analyze", long).expect(long);
            for (sub, longs) in uses {
                if longs.contains(&long) {
                    assert_eq!(flag(sub, long).as_ref(), Some(&first), "{sub} --{long}");
                }
            }
        }
    }
}
