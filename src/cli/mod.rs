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

pub use crate::flags::{
    Seconds, Whole, WholeRange, check_eval_fits, depth_parser, multipv_parser, set_engine_flags,
};
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

/// The text of the file `path`, without a leading UTF-8 byte order mark
/// ([`skald::text::without_bom`]): how the CLI reads every text file it is given (records,
/// openings, a password file).
///
/// # Errors
/// The file cannot be read or is not UTF-8: `cannot read <path>: <reason>`.
pub fn read_text(path: &std::path::Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    Ok(match skald::text::without_bom(&text).len() {
        n if n == text.len() => text,
        _ => skald::text::without_bom(&text).to_string(),
    })
}

/// Moves in the game's notation, space-separated (`d1-d3 h6-h3`), for a line of output.
pub fn moves_line(moves: &[skald::engine::MoveView]) -> String {
    move_texts(moves).join(" ")
}

/// Moves in the game's notation, one text each (for JSON).
pub fn move_texts(moves: &[skald::engine::MoveView]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// `1 ply`, `30 plies`.
pub fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
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
