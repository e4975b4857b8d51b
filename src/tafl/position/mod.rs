//! A tafl position: the [`Position`] type (bitboards, side to move, clocks, hash), the start
//! positions, square names, and making a move. FEN, move generation, captures, game ends and
//! the [`Game`] implementation are in the submodules.

mod capture;
mod endings;
mod fen;
mod game_impl;
mod movegen;

use std::fmt;

use super::bitboard::{Bitboard, Square};
use super::rules::{Piece, Rules, Shieldwall};
use super::zobrist::{PIECE_KEYS, SIDE_KEY};
use crate::game::{Game, Side};

/// A tafl move: a piece slides from `from` to `to` along a rank or file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece stops on.
    pub to: Square,
}

/// Value of a captured attacker soldier in [`Game::move_gain`] and material, centipawns.
pub const ATTACKER_VALUE: i32 = 100;
/// Value of a captured defender soldier, centipawns.
pub const DEFENDER_VALUE: i32 = 180;
/// Value of capturing the king (the game is won), centipawns.
pub const KING_VALUE: i32 = 20_000;

/// A tafl position. `Copy`: the search copies and makes moves on the copy.
#[derive(Clone, Copy)]
pub struct Position<B: Bitboard> {
    pub(crate) rules: &'static Rules<B>,
    pub(crate) attackers: B,
    pub(crate) defenders: B,
    pub(crate) king: B,
    pub(crate) side: Side,
    pub(crate) clock: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

/// Brandubh positions (7×7, `u64` bitboards).
pub type BrandubhPosition = Position<u64>;
/// Tablut and tawlbwrdd positions (9×9 and 11×11, `u128` bitboards).
pub type LargePosition = Position<u128>;

/// The brandubh start position.
pub fn brandubh() -> Position<u64> {
    Position::start(super::brandubh_rules())
}

/// The tablut start position.
pub fn tablut() -> Position<u128> {
    Position::start(super::tablut_rules())
}

/// The Ashton tablut start position ([`super::ashton_rules`]).
pub fn ashton() -> Position<u128> {
    Position::start(super::ashton_rules())
}

/// The tawlbwrdd start position.
pub fn tawlbwrdd() -> Position<u128> {
    Position::start(super::tawlbwrdd_rules())
}

/// The Copenhagen Hnefatafl 11×11 start position.
pub fn copenhagen() -> Position<u128> {
    Position::start(super::copenhagen_rules())
}

/// The start position of hnefatafl.org's 7×7 Copenhagen board ([`super::copenhagen7_rules`]).
pub fn copenhagen7() -> Position<u64> {
    Position::start(super::copenhagen7_rules())
}

/// The Copenhagen Hnefatafl 13×13 start position.
pub fn copenhagen13() -> Position<super::Wide<3>> {
    Position::start(super::copenhagen13_rules())
}

/// Square name such as `d1` on a board of side `size`.
pub fn square_name(sq: Square, size: u8) -> String {
    let size = size as Square;
    format!("{}{}", (b'a' + (sq % size) as u8) as char, sq / size + 1)
}

/// Parses a square name such as `d1` or `k11` (the file letter in either case: `D1`); `None`
/// if off a `size` board.
pub fn parse_square(text: &str, size: u8) -> Option<Square> {
    let mut chars = text.chars();
    let f = chars.next()?.to_ascii_lowercase();
    if !f.is_ascii_lowercase() {
        return None;
    }
    let file = f as u32 - 'a' as u32;
    let rank_text = chars.as_str();
    if rank_text.is_empty() || rank_text.len() > 2 || !rank_text.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rank: u32 = rank_text.parse().ok()?;
    if file >= size as u32 || rank == 0 || rank > size as u32 {
        return None;
    }
    Some(((rank - 1) * size as u32 + file) as Square)
}

impl<B: Bitboard> Position<B> {
    /// The start position of `rules`.
    pub fn start(rules: &'static Rules<B>) -> Self {
        Self::from_fen(rules, &rules.options.start_fen).expect("rules with a valid start FEN")
    }

    /// The rules of this position.
    pub fn rules(&self) -> &'static Rules<B> {
        self.rules
    }

    /// Attacker soldiers.
    pub fn attackers(&self) -> B {
        self.attackers
    }

    /// Defender soldiers (without the king).
    pub fn defenders(&self) -> B {
        self.defenders
    }

    /// The king (empty once captured).
    pub fn king(&self) -> B {
        self.king
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.attackers | self.defenders | self.king
    }

    /// The fullmove number (starts at 1, grows after the defenders move).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// `true` once the king has escaped or been captured (no moves remain).
    #[inline(always)]
    pub fn king_gone(&self) -> bool {
        self.king.is_empty() || !(self.king & self.rules.escape).is_empty()
    }

    /// Plies played since the start, from the move number and the side to move: the first move
    /// of the side that moves first in the rules' start position ([`Rules::first_side`]) is
    /// ply 0. The move number grows after the defenders move, so when the attackers move first
    /// (`a` 1) move *n* holds plies 2*n* − 2 and 2*n* − 1; when the defenders do (`d` 1, as on
    /// hnefatafl.org's 7×7 board) their move 1 is ply 0 and the attackers' reply, move 2, ply 1.
    pub fn plies_played(&self) -> u32 {
        let plies = (self.fullmove - 1).saturating_mul(2) + (self.side == Side::Second) as u32;
        plies.saturating_sub((self.rules.first_side == Side::Second) as u32)
    }

    /// The kind of the piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.attackers.has(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.has(sq) {
            Some(Piece::Defender)
        } else if self.king.has(sq) {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// Makes the move `from`-`to` of a piece of `kind`; returns the number of pieces captured
    /// (the king counts as one).
    #[inline(always)]
    pub(super) fn make(&mut self, from: Square, to: Square, kind: Piece) -> u32 {
        let m = B::bit(from) | B::bit(to);
        match kind {
            Piece::Attacker => self.attackers ^= m,
            Piece::Defender => self.defenders ^= m,
            Piece::King => self.king ^= m,
        }
        let keys = &PIECE_KEYS[kind.index()];
        self.hash ^= keys[from as usize] ^ keys[to as usize];
        let mut captured = self.captures(to, kind);
        if self.rules.shieldwall != Shieldwall::Off && self.rules.edge_mask.has(to) {
            captured += self.shieldwalls(to, kind);
        }
        self.clock = if captured > 0 {
            0
        } else {
            self.clock.saturating_add(1)
        };
        if self.side == Side::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opponent();
        self.hash ^= SIDE_KEY;
        captured
    }
}

impl<B: Bitboard> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.rules.name, self.fen())
    }
}

impl<B: Bitboard> PartialEq for Position<B> {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.rules, o.rules)
            && self.attackers == o.attackers
            && self.defenders == o.defenders
            && self.king == o.king
            && self.side == o.side
            && self.clock == o.clock
            && self.fullmove == o.fullmove
    }
}
