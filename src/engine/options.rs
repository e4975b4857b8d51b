//! The engine's options: one registry that gives each option's name, type, default, range and
//! meaning. UCI's `option` lines, `setoption` and the command line's flags all come from it, so
//! they cannot disagree.
//!
//! [`registry`] lists them; [`parse`] checks a value against its option and gives a typed
//! [`Setting`] for [`crate::engine::Engine::set_option`] to apply.

use super::skill::{MAX_SKILL, named_skill};
use crate::search::tt;
use crate::text::truncate;
use crate::tuning::SearchParams;
use crate::variant::Variant;

/// The largest `MultiPV` value accepted.
pub const MAX_MULTIPV: i64 = 64;
/// The largest `Move Overhead` value accepted, ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;

/// The maximum number of search threads accepted: four per core.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * 4
}

/// Which option a registry entry is (what a change does is decided by the engine).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum OptionId {
    /// `UCI_Variant`: the game; a change starts a new game of it.
    Variant,
    /// `Hash`: transposition table size, MiB; a change reallocates (and empties) the table.
    Hash,
    /// `Threads`: search threads; a change restarts the thread pool.
    Threads,
    /// `MultiPV`: principal variations searched and reported.
    MultiPv,
    /// `Move Overhead`: ms kept in reserve per move for communication.
    MoveOverhead,
    /// `Skill Level`: 0 (weakest) ..= 20 (full strength); also `easy`/`medium`/`hard`.
    SkillLevel,
    /// `Basic Search`: plain alpha-beta, for measuring what the rest of the search is worth.
    BasicSearch,
    /// `Ponder`: the GUI may let the engine think on the opponent's time (`go ponder`).
    Ponder,
    /// `Clear Hash`: empties the transposition table and the search threads' tables.
    ClearHash,
    /// `EvalFile`: the evaluation: `<default>` (the variant's built-in network: Ataxx and
    /// Copenhagen 11×11; the hand-written evaluation for the other tafl games), `hand` (the hand-written evaluation) or the path of a network file (an
    /// Ataxx network, or a tafl network for one board size).
    EvalFile,
    /// `Tune <name>` (tuning builds only, cargo feature `tune`): a search parameter of
    /// [`SearchParams::TUNABLE`], by index.
    Tune(usize),
    /// `Tune <name>` of an on/off switch (tuning builds only): a switch of
    /// [`SearchParams::SWITCHES`], by index.
    TuneSwitch(usize),
}

/// An option's type, default and range, as UCI describes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number in `min..=max`.
    Spin {
        /// The value at start-up.
        default: i64,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The value at start-up.
        default: bool,
    },
    /// One of a list of words.
    Combo {
        /// The value at start-up.
        default: &'static str,
        /// The words accepted.
        vars: Vec<&'static str>,
    },
    /// Free text (UCI `type string`).
    String {
        /// The value at start-up.
        default: &'static str,
    },
    /// An action with no value.
    Button,
}

/// One entry of the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option.
    pub id: OptionId,
    /// The name as UCI spells it (matched without regard to case).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// What it does, in one line (for `--help` and protocol.md).
    pub doc: &'static str,
}

/// Every option the engine has, in the order `uci` lists them.
pub fn registry() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            id: OptionId::Variant,
            name: "UCI_Variant",
            kind: OptionKind::Combo {
                default: Variant::Brandubh.name(),
                vars: Variant::ALL.iter().map(|v| v.name()).collect(),
            },
            doc: "the game; a change starts a new game of it",
        },
        OptionSpec {
            id: OptionId::Hash,
            name: "Hash",
            kind: OptionKind::Spin {
                default: tt::DEFAULT_HASH_MIB as i64,
                min: 1,
                max: tt::MAX_HASH_MIB as i64,
            },
            doc: "transposition table size in MiB",
        },
        OptionSpec {
            id: OptionId::Threads,
            name: "Threads",
            kind: OptionKind::Spin {
                default: 1,
                min: 1,
                max: max_threads() as i64,
            },
            doc: "search threads (Lazy SMP)",
        },
        OptionSpec {
            id: OptionId::MultiPv,
            name: "MultiPV",
            kind: OptionKind::Spin {
                default: 1,
                min: 1,
                max: MAX_MULTIPV,
            },
            doc: "principal variations searched and reported, best first",
        },
        OptionSpec {
            id: OptionId::MoveOverhead,
            name: "Move Overhead",
            kind: OptionKind::Spin {
                default: 10,
                min: 0,
                max: MAX_MOVE_OVERHEAD_MS,
            },
            doc: "milliseconds kept in reserve per move for communication",
        },
        OptionSpec {
            id: OptionId::SkillLevel,
            name: "Skill Level",
            kind: OptionKind::Spin {
                default: MAX_SKILL as i64,
                min: 0,
                max: MAX_SKILL as i64,
            },
            doc: "playing strength, 0 (weakest) to 20 (full); also easy, medium, hard",
        },
        OptionSpec {
            id: OptionId::BasicSearch,
            name: "Basic Search",
            kind: OptionKind::Check { default: false },
            doc: "plain alpha-beta without pruning, reductions or quiescence (for measurements)",
        },
        OptionSpec {
            id: OptionId::Ponder,
            name: "Ponder",
            kind: OptionKind::Check { default: false },
            doc: "the GUI may send go ponder (skald ponders whenever asked; this only informs)",
        },
        OptionSpec {
            id: OptionId::ClearHash,
            name: "Clear Hash",
            kind: OptionKind::Button,
            doc: "empties the transposition table and the threads' history tables",
        },
        OptionSpec {
            id: OptionId::EvalFile,
            name: "EvalFile",
            kind: OptionKind::String {
                default: crate::eval::EVAL_FILE_DEFAULT,
            },
            doc: "evaluation: <default> (Ataxx's built-in network, tafl's hand-written \
                  evaluation), hand (the hand-written evaluation) or a network file's path \
                  (Ataxx, or tafl for its board size)",
        },
    ]
    .into_iter()
    .chain(tune_options())
    .collect()
}

/// The `Tune <name>` options of a tuning build (none otherwise): a spin option per
/// [`SearchParams::TUNABLE`] value, then a check option per [`SearchParams::SWITCHES`] switch,
/// each in its table's order. Their defaults here are the tafl family's values
/// ([`SearchParams::DEFAULT`]); the protocols print the values the variant in play uses
/// ([`crate::engine::Engine::search_params`]).
fn tune_options() -> Vec<OptionSpec> {
    if !cfg!(feature = "tune") {
        return Vec::new();
    }
    let numbers = SearchParams::TUNABLE
        .iter()
        .enumerate()
        .map(|(i, t)| OptionSpec {
            id: OptionId::Tune(i),
            name: t.option,
            kind: OptionKind::Spin {
                default: SearchParams::DEFAULT.get(t.name).unwrap_or(t.min) as i64,
                min: t.min as i64,
                max: t.max as i64,
            },
            doc: "a search parameter (tuning build)",
        });
    let switches = SearchParams::SWITCHES
        .iter()
        .enumerate()
        .map(|(i, s)| OptionSpec {
            id: OptionId::TuneSwitch(i),
            name: s.option,
            kind: OptionKind::Check {
                default: SearchParams::DEFAULT.get_switch(s.name).unwrap_or(false),
            },
            doc: "a search feature on or off (tuning build)",
        });
    numbers.chain(switches).collect()
}

/// The registry entry named `name` (case ignored), if any.
pub fn find(name: &str) -> Option<OptionSpec> {
    registry()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

/// A checked option value, ready to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// A new game of this variant.
    Variant(Variant),
    /// Table size, MiB.
    Hash(usize),
    /// Thread count.
    Threads(usize),
    /// MultiPV lines.
    MultiPv(usize),
    /// Move overhead, ms.
    MoveOverhead(u64),
    /// Skill level 0..=20.
    SkillLevel(u8),
    /// Basic search on or off.
    BasicSearch(bool),
    /// Ponder on or off.
    Ponder(bool),
    /// Clear the tables.
    ClearHash,
    /// The evaluation, as the `EvalFile` value given (read by the engine when it applies it).
    EvalFile(String),
    /// Set a search parameter (name of [`SearchParams::TUNABLE`], value in its range).
    Tune(&'static str, i32),
    /// Turn a search switch on or off (name of [`SearchParams::SWITCHES`]).
    TuneSwitch(&'static str, bool),
}

/// Why `setoption` (or a command-line flag) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The option needs a value and none was given.
    #[error("option {0}: the value is missing ('setoption name {0} value <value>')")]
    MissingValue(&'static str),
    /// The value is not one the option takes.
    #[error("option {name}: value '{value}' is not {expected}")]
    BadValue {
        /// The option's name.
        name: &'static str,
        /// The value as given (shortened).
        value: String,
        /// What the option takes, e.g. `a whole number in 1..=64`.
        expected: String,
    },
    /// Options cannot change while a search runs.
    #[error("setoption {0} ignored: a search is running (send stop first)")]
    Busy(&'static str),
    /// The transposition table could not be given the size.
    #[error("option Hash: {0}")]
    Table(String),
    /// The network file cannot be used; the evaluation is unchanged (`current` names it).
    #[error("option EvalFile: {error}; keeping {current}")]
    EvalFile {
        /// Why the file cannot be used.
        error: String,
        /// The `EvalFile` value still in force.
        current: String,
    },
}

/// Checks `value` for the option named `name` and gives the setting to apply.
pub fn parse(name: &str, value: &str) -> Result<Setting, OptionError> {
    let spec = find(name).ok_or_else(|| OptionError::Unknown(truncate(name, 60)))?;
    let value = value.trim();
    let bad = |expected: String| OptionError::BadValue {
        name: spec.name,
        value: truncate(value, 40),
        expected,
    };
    if value.is_empty() && !matches!(spec.kind, OptionKind::Button | OptionKind::String { .. }) {
        return Err(OptionError::MissingValue(spec.name));
    }
    let number = || -> Result<i64, OptionError> {
        let OptionKind::Spin { min, max, .. } = spec.kind else {
            unreachable!("only spin options are numbers")
        };
        match value.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(bad(format!("a whole number in {min}..={max}"))),
        }
    };
    let check = || -> Result<bool, OptionError> {
        match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(bad("true or false".into())),
        }
    };
    Ok(match spec.id {
        OptionId::Variant => Setting::Variant(value.parse::<Variant>().map_err(|_| {
            bad(format!(
                "one of {}",
                Variant::ALL.map(|v| v.name()).join(", ")
            ))
        })?),
        OptionId::Hash => Setting::Hash(number()? as usize),
        OptionId::Threads => Setting::Threads(number()? as usize),
        OptionId::MultiPv => Setting::MultiPv(number()? as usize),
        OptionId::MoveOverhead => Setting::MoveOverhead(number()? as u64),
        OptionId::SkillLevel => match named_skill(value) {
            Some(level) => Setting::SkillLevel(level),
            None => Setting::SkillLevel(number().map_err(|_| {
                bad(format!(
                    "a whole number in 0..={MAX_SKILL} or easy, medium, hard"
                ))
            })? as u8),
        },
        OptionId::BasicSearch => Setting::BasicSearch(check()?),
        OptionId::Ponder => Setting::Ponder(check()?),
        OptionId::ClearHash => Setting::ClearHash,
        OptionId::EvalFile => Setting::EvalFile(value.to_string()),
        OptionId::Tune(i) => Setting::Tune(SearchParams::TUNABLE[i].name, number()? as i32),
        OptionId::TuneSwitch(i) => Setting::TuneSwitch(SearchParams::SWITCHES[i].name, check()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_the_registry() {
        assert_eq!(parse("hash", "32"), Ok(Setting::Hash(32)));
        assert_eq!(parse("MULTIPV", "3"), Ok(Setting::MultiPv(3)));
        assert_eq!(parse("Skill Level", "easy"), Ok(Setting::SkillLevel(2)));
        assert!(matches!(
            parse("Skill Level", "eazy"),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            parse("Hash", "abc"),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            parse("Hash", "0"),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(parse("Hash", ""), Err(OptionError::MissingValue("Hash")));
        assert!(matches!(
            parse("Skill Levle", "2"),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(parse("clear hash", ""), Ok(Setting::ClearHash));
        assert_eq!(
            parse("uci_variant", "Ataxx"),
            Ok(Setting::Variant(Variant::Ataxx))
        );
    }

    #[test]
    fn every_spin_default_is_in_its_range() {
        for o in registry() {
            if let OptionKind::Spin { default, min, max } = o.kind {
                assert!((min..=max).contains(&default), "{}", o.name);
            }
        }
    }
}
