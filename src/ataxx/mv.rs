//! Ataxx moves: clone, jump, pass.

use std::fmt;

use super::bitboard::Square;

/// An Ataxx move (rules.md, "ataxx").
///
/// Text (ataxx.md): a clone is written by its destination (`f2`), a jump by source and
/// destination (`a7a5`), a pass as `0000`. [`Move`]'s `Display` writes these forms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A new stone on the empty square `to`, at distance 1 from a stone of the mover (which
    /// stays).
    Clone {
        /// The destination square.
        to: Square,
    },
    /// The stone on `from` moves to the empty square `to` at distance exactly 2; `from` becomes
    /// empty.
    Jump {
        /// The source square (a stone of the mover).
        from: Square,
        /// The destination square.
        to: Square,
    },
    /// The turn passes; only legal (and then forced) when the mover has no clone or jump.
    Pass,
}

impl Move {
    /// The destination square, `None` for a pass.
    #[inline]
    pub const fn to(self) -> Option<Square> {
        match self {
            Move::Clone { to } | Move::Jump { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// Packs the move in 16 bits, never 0: pass `0x8000`, clone `0x4000 | to`, jump
    /// `0x2000 | from << 6 | to` (square indices `0..49`).
    #[inline]
    pub const fn encode(self) -> u16 {
        match self {
            Move::Pass => 0x8000,
            Move::Clone { to } => 0x4000 | to.index() as u16,
            Move::Jump { from, to } => 0x2000 | (from.index() as u16) << 6 | to.index() as u16,
        }
    }

    /// Unpacks [`Move::encode`]'s value; `None` for bits that are no Ataxx move (bad pattern,
    /// square off the board, jump not of distance 2).
    pub const fn decode(bits: u16) -> Option<Move> {
        match bits {
            0x8000 => Some(Move::Pass),
            0x4000..=0x4030 => match Square::from_index((bits & 0x3F) as u8) {
                Some(to) => Some(Move::Clone { to }),
                None => None,
            },
            0x2000..=0x2FFF => {
                let from = Square::from_index(((bits >> 6) & 0x3F) as u8);
                let to = Square::from_index((bits & 0x3F) as u8);
                match (from, to) {
                    (Some(from), Some(to)) if from.distance(to) == 2 => {
                        Some(Move::Jump { from, to })
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    /// `f2` (clone), `a7a5` (jump), `0000` (pass).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Clone { to } => write!(f, "{to}"),
            Move::Jump { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("0000"),
        }
    }
}
