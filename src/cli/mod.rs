//! The subcommands for people: `play`, `analyze`, `match`, `openings`. Like the protocols, they
//! are front-ends over [`skald::engine::Engine`] (rules, search, options) and re-implement none
//! of it.

pub mod analyze;
pub mod engine;
pub mod matches;
pub mod openings;
pub mod play;
pub mod record;
pub mod stats;

use skald::game::{Outcome, Side};
use skald::search::Score;
use skald::variant::Variant;

/// Parses a variant name for clap.
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse::<Variant>().map_err(|e| e.to_string())
}

/// The side's name in `variant`: `attackers`/`defenders` or `x`/`o`.
pub fn side_name(variant: Variant, side: Side) -> &'static str {
    variant.side_name(side)
}

/// `win` for the tafl sides (plural), `wins` for x and o.
pub fn win_verb(variant: Variant) -> &'static str {
    if variant.is_tafl() { "win" } else { "wins" }
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

/// The result in words: `attackers win (king captured)`, `draw (repetition)`.
pub fn outcome_text(variant: Variant, outcome: Outcome) -> String {
    match outcome {
        Outcome::Ongoing => "the game goes on".to_string(),
        Outcome::Decided {
            winner: Some(w),
            reason,
        } => format!("{} {} ({reason})", side_name(variant, w), win_verb(variant)),
        Outcome::Decided {
            winner: None,
            reason,
        } => format!("draw ({reason})"),
    }
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
