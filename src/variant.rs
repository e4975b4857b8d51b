//! The variants skald plays, their names, and a way to run generic code on the right game type.

use crate::game::{Game, ParseError, Side};
use std::fmt;
use std::str::FromStr;

/// A variant the engine plays, by its protocol name (rules.md).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    /// Hnefatafl 7×7, corner escape.
    Brandubh,
    /// Tablut 9×9 (Linnaeus), edge escape.
    Tablut,
    /// Tawlbwrdd 11×11 (Welsh), edge escape.
    Tawlbwrdd,
    /// Copenhagen Hnefatafl 11×11 (copenhagen.md), corner escape.
    Copenhagen,
    /// Copenhagen Hnefatafl 13×13 (copenhagen.md), corner escape.
    Copenhagen13,
    /// Ataxx 7×7.
    Ataxx,
}

/// Code that is generic over the game, run by [`Variant::visit`] with the variant's start
/// position (a visitor, so that callers stay generic without trait objects).
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the start position of the variant.
    fn visit<G: Game>(self, start: G) -> Self::Output;
}

impl Variant {
    /// All variants, in the order the protocol lists them.
    pub const ALL: [Variant; 6] = [
        Variant::Brandubh,
        Variant::Tablut,
        Variant::Tawlbwrdd,
        Variant::Copenhagen,
        Variant::Copenhagen13,
        Variant::Ataxx,
    ];

    /// The protocol name: `brandubh`, `tablut`, `tawlbwrdd`, `ataxx`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Brandubh => "brandubh",
            Variant::Tablut => "tablut",
            Variant::Tawlbwrdd => "tawlbwrdd",
            Variant::Copenhagen => "copenhagen",
            Variant::Copenhagen13 => "copenhagen13",
            Variant::Ataxx => "ataxx",
        }
    }

    /// `true` for the tafl games (attackers/defenders, moves `d1-d3`).
    pub const fn is_tafl(self) -> bool {
        !matches!(self, Variant::Ataxx)
    }

    /// The name of `side` in this variant: `attackers`/`defenders` (tafl) or `x`/`o` (Ataxx).
    pub const fn side_name(self, side: Side) -> &'static str {
        match (self.is_tafl(), side) {
            (true, Side::First) => "attackers",
            (true, Side::Second) => "defenders",
            (false, Side::First) => "x",
            (false, Side::Second) => "o",
        }
    }

    /// The verb of a side's win, agreeing with [`Variant::side_name`]: `win` for the tafl sides
    /// (plural: `attackers win`), `wins` for `x` and `o`.
    pub const fn win_verb(self) -> &'static str {
        if self.is_tafl() { "win" } else { "wins" }
    }

    /// A win of `side` in words, the one wording of every front-end and protocol text:
    /// `attackers win`, `defenders win`, `x wins`, `o wins`.
    pub const fn side_wins(self, side: Side) -> &'static str {
        match (self.is_tafl(), side) {
            (true, Side::First) => "attackers win",
            (true, Side::Second) => "defenders win",
            (false, Side::First) => "x wins",
            (false, Side::Second) => "o wins",
        }
    }

    /// A result in words: `attackers win (<reason>)`, `o wins (<reason>)`
    /// ([`Variant::side_wins`]), or `draw (<reason>)` when `winner` is `None`. The one wording
    /// of a game's end in the protocols and the command line.
    pub fn result_text(self, winner: Option<Side>, reason: &str) -> String {
        match winner {
            Some(w) => format!("{} ({reason})", self.side_wins(w)),
            None => format!("draw ({reason})"),
        }
    }

    /// A decided game in words ([`Variant::result_text`]); `None` while the game goes on.
    pub fn outcome_text(self, outcome: crate::game::Outcome) -> Option<String> {
        match outcome {
            crate::game::Outcome::Ongoing => None,
            crate::game::Outcome::Decided { winner, reason } => {
                Some(self.result_text(winner, &reason.to_string()))
            }
        }
    }

    /// Runs `visitor` with this variant's start position.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            Variant::Brandubh => visitor.visit(crate::tafl::brandubh()),
            Variant::Tablut => visitor.visit(crate::tafl::tablut()),
            Variant::Tawlbwrdd => visitor.visit(crate::tafl::tawlbwrdd()),
            Variant::Copenhagen => visitor.visit(crate::tafl::copenhagen()),
            Variant::Copenhagen13 => visitor.visit(crate::tafl::copenhagen13()),
            Variant::Ataxx => visitor.visit(crate::ataxx::Position::start()),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = ParseError;

    /// Parses a variant name, ignoring case and surrounding space.
    fn from_str(s: &str) -> Result<Variant, ParseError> {
        let s = s.trim();
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                ParseError::new(format!(
                    "unknown variant '{s}' (expected one of: {})",
                    Variant::ALL.map(|v| v.name()).join(", ")
                ))
            })
    }
}
