//! The Ataxx position: bitboards, FEN, move generation, making moves, game-over rules.

use std::fmt::Write as _;

use super::bitboard::{
    Bitboard, FULL, NUM_SQUARES, RING, SINGLE, Square, Squares, doubles, singles,
};
use super::mv::Move;
use super::zobrist::ZOBRIST;
use crate::game::{Outcome, ParseError, Reason, Side};

/// The FEN of the start position (rules.md): `x` on a7 and g1, `o` on g7 and a1, `x` to move.
pub const START_FEN: &str = "x5o/7/7/7/7/7/o5x x 0 1";

/// The halfmove clock value at which the game is drawn (ataxx.md, libataxx convention).
pub const HALFMOVE_LIMIT: u32 = 100;

/// An Ataxx 7×7 position: stones of both sides and blocked squares as [`Bitboard`]s, side to
/// move, halfmove clock, fullmove number and an incrementally updated Zobrist hash.
///
/// 48 bytes and `Copy`: the search and perft copy a position and make a move on the copy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Stones of `x` (index 0, [`Side::First`]) and `o` (index 1, [`Side::Second`]).
    pub(crate) stones: [Bitboard; 2],
    /// Blocked squares (`-` in FEN): nobody may stand on them; jumps pass over them.
    pub(crate) blocked: Bitboard,
    /// Zobrist hash of stones, blocked squares and side to move.
    pub(crate) hash: u64,
    /// Moves since the last clone: a jump or a pass adds one, a clone resets it (ataxx.md).
    pub(crate) halfmove: u32,
    /// Starts at 1, grows after `o` moves (or passes).
    pub(crate) fullmove: u32,
    /// The side to move.
    pub(crate) side: Side,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start position `x5o/7/7/7/7/7/o5x x 0 1`.
    pub fn start() -> Position {
        let sq = |i| Square::new_unchecked(i).bit();
        let mut pos = Position {
            stones: [sq(42) | sq(6), sq(48) | sq(0)],
            blocked: 0,
            hash: 0,
            halfmove: 0,
            fullmove: 1,
            side: Side::First,
        };
        pos.hash = pos.compute_hash_inner();
        pos
    }

    /// Parses a FEN (rules.md "Position strings", ataxx.md): `<board> <side> [<clock>
    /// [<move number>]]`, board rank 7 first, `x`, `o`, `-` (blocked) and digit runs for empty
    /// squares; side `x` or `o`; missing trailing fields default to `x 0 1`.
    ///
    /// # Errors
    /// A one-line [`ParseError`] naming the field and what is wrong: number of ranks, squares in a
    /// rank, an unknown letter, a side other than `x`/`o`, a clock or move number that is not a
    /// number (or a move number of 0), extra fields. Never panics.
    pub fn from_fen(fen: &str) -> Result<Position, ParseError> {
        let mut fields = fen.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| ParseError::new("FEN is empty"))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 7 {
            return Err(ParseError::new(format!(
                "FEN board has {} rank{}, expected 7",
                ranks.len(),
                if ranks.len() == 1 { "" } else { "s" }
            )));
        }
        let mut stones = [0u64; 2];
        let mut blocked = 0u64;
        for (i, text) in ranks.iter().enumerate() {
            let rank = 6 - i as u32;
            let mut file: u32 = 0;
            let mut run: Option<u32> = None;
            let too_many = |n: u32| {
                ParseError::new(format!(
                    "FEN rank {} has {n} or more squares, expected 7",
                    rank + 1
                ))
            };
            let zero = || {
                ParseError::new(format!(
                    "FEN rank {} has an empty-square count of 0",
                    rank + 1
                ))
            };
            for c in text.chars().chain(std::iter::once('/')) {
                if let Some(d) = c.to_digit(10) {
                    if run == Some(0) {
                        return Err(zero());
                    }
                    let n = run.unwrap_or(0) * 10 + d;
                    if file + n > 7 {
                        return Err(too_many(file + n));
                    }
                    run = Some(n);
                    continue;
                }
                if let Some(n) = run.take() {
                    if n == 0 {
                        return Err(zero());
                    }
                    file += n;
                }
                if c == '/' {
                    break;
                }
                let target = match c {
                    'x' | 'X' => &mut stones[0],
                    'o' | 'O' => &mut stones[1],
                    '-' => &mut blocked,
                    _ => {
                        return Err(ParseError::new(format!(
                            "FEN rank {} has unknown character '{c}' (expected x, o, - or a digit)",
                            rank + 1
                        )));
                    }
                };
                if file >= 7 {
                    return Err(too_many(file + 1));
                }
                *target |= 1 << (rank * 7 + file);
                file += 1;
            }
            if file != 7 {
                return Err(ParseError::new(format!(
                    "FEN rank {} has {file} squares, expected 7",
                    rank + 1
                )));
            }
        }
        let side = match fields.next() {
            None | Some("x") | Some("X") => Side::First,
            Some("o") | Some("O") => Side::Second,
            Some(other) => {
                return Err(ParseError::new(format!(
                    "FEN side to move is '{other}', expected x or o"
                )));
            }
        };
        let halfmove = match fields.next() {
            None => 0,
            Some(t) => t.parse::<u32>().map_err(|_| {
                ParseError::new(format!("FEN halfmove clock '{t}' is not a number"))
            })?,
        };
        let fullmove = match fields.next() {
            None => 1,
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(ParseError::new(format!(
                        "FEN move number '{t}' is not a number of at least 1"
                    )));
                }
            },
        };
        if let Some(extra) = fields.next() {
            return Err(ParseError::new(format!(
                "FEN has an extra field '{extra}' after the move number"
            )));
        }
        let mut pos = Position {
            stones,
            blocked,
            hash: 0,
            halfmove,
            fullmove,
            side,
        };
        pos.hash = pos.compute_hash_inner();
        Ok(pos)
    }

    /// The FEN letter of what stands on square `index` (rank × 7 + file): `x`, `o`, `-`
    /// (blocked), or `None` when it is empty.
    fn square_char(&self, index: u8) -> Option<char> {
        let bit = 1u64 << index;
        if self.stones[0] & bit != 0 {
            Some('x')
        } else if self.stones[1] & bit != 0 {
            Some('o')
        } else if self.blocked & bit != 0 {
            Some('-')
        } else {
            None
        }
    }

    /// The position as FEN, e.g. `x5o/7/7/7/7/7/o5x x 0 1`.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(40);
        for rank in (0..7).rev() {
            let mut empty = 0;
            for file in 0..7 {
                let Some(c) = self.square_char(rank * 7 + file) else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    let _ = write!(s, "{empty}");
                    empty = 0;
                }
                s.push(c);
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Side::First { 'x' } else { 'o' };
        let _ = write!(s, " {side} {} {}", self.halfmove, self.fullmove);
        s
    }

    /// The stones of `side`.
    #[inline]
    pub fn stones(&self, side: Side) -> Bitboard {
        self.stones[side.index()]
    }

    /// The blocked squares.
    #[inline]
    pub fn blocked(&self) -> Bitboard {
        self.blocked
    }

    /// The empty squares (neither stone nor blocked).
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        FULL & !(self.stones[0] | self.stones[1] | self.blocked)
    }

    /// The fullmove number: 1 at the start, +1 after each move (or pass) of `o`.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// `true` when the game is over (libataxx rules, ataxx.md): a side has no stones, the
    /// halfmove clock is ≥ 100, or no empty square is within distance 2 of any stone (this
    /// includes a full board).
    #[inline]
    pub fn is_game_over(&self) -> bool {
        let [x, o] = self.stones;
        x == 0 || o == 0 || self.halfmove >= HALFMOVE_LIMIT || doubles(x | o) & self.empty() == 0
    }

    /// The game outcome by the position alone. Reasons in priority order: `BoardFull` (no empty
    /// square), `NoPieces` (a side has no stones), `NoMoves` (empty squares but none in reach),
    /// `MoveLimit` (halfmove clock ≥ 100, a draw). Except for `MoveLimit` the side with more
    /// stones wins and equal counts draw.
    pub fn outcome(&self) -> Outcome {
        let [x, o] = self.stones;
        let empty = self.empty();
        let reason = if empty == 0 {
            Reason::BoardFull
        } else if x == 0 || o == 0 {
            Reason::NoPieces
        } else if doubles(x | o) & empty == 0 {
            Reason::NoMoves
        } else if self.halfmove >= HALFMOVE_LIMIT {
            return Outcome::draw(Reason::MoveLimit);
        } else {
            return Outcome::Ongoing;
        };
        let (nx, no) = (x.count_ones(), o.count_ones());
        match nx.cmp(&no) {
            std::cmp::Ordering::Greater => Outcome::win(Side::First, reason),
            std::cmp::Ordering::Less => Outcome::win(Side::Second, reason),
            std::cmp::Ordering::Equal => Outcome::draw(reason),
        }
    }

    /// The legal moves (clones first, by destination, then jumps), none when the game is over,
    /// `[Pass]` when the side to move is stuck but the game goes on. `moves` is cleared first.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.is_game_over() {
            return;
        }
        let own = self.stones[self.side.index()];
        let empty = self.empty();
        moves.extend(Squares(singles(own) & empty).map(|to| Move::Clone { to }));
        for from in Squares(own) {
            moves.extend(Squares(RING[from.index()] & empty).map(|to| Move::Jump { from, to }));
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
    }

    /// Puts a stone of the side to move on `to` and flips the opponent's neighbours of `to`.
    #[inline(always)]
    fn land(&mut self, to: Square) {
        let us = self.side.index();
        let them = us ^ 1;
        let flips = SINGLE[to.index()] & self.stones[them];
        self.stones[us] |= to.bit() | flips;
        self.stones[them] ^= flips;
        let mut h = self.hash ^ ZOBRIST.stone[us][to.index()];
        for sq in Squares(flips) {
            h ^= ZOBRIST.flip[sq.index()];
        }
        self.hash = h;
    }

    #[inline(always)]
    fn finish_move(&mut self) {
        if self.side == Side::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opponent();
        self.hash ^= ZOBRIST.side;
    }

    /// Makes a clone to `to` (unchecked).
    #[inline(always)]
    pub(crate) fn make_clone(&mut self, to: Square) {
        self.land(to);
        self.halfmove = 0;
        self.finish_move();
    }

    /// Makes a jump `from` → `to` (unchecked).
    #[inline(always)]
    pub(crate) fn make_jump(&mut self, from: Square, to: Square) {
        let us = self.side.index();
        self.stones[us] ^= from.bit();
        self.hash ^= ZOBRIST.stone[us][from.index()];
        self.land(to);
        self.halfmove = self.halfmove.saturating_add(1);
        self.finish_move();
    }

    /// Makes a pass (unchecked).
    #[inline(always)]
    pub(crate) fn make_pass(&mut self) {
        self.halfmove = self.halfmove.saturating_add(1);
        self.finish_move();
    }

    /// Makes a move that [`Position::legal_moves`] gives; unchecked (an illegal move gives an
    /// unspecified but memory-safe position). Halfmove clock: clone → 0, jump/pass → +1.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        match mv {
            Move::Clone { to } => self.make_clone(to),
            Move::Jump { from, to } => self.make_jump(from, to),
            Move::Pass => self.make_pass(),
        }
    }

    /// The Zobrist hash from scratch: stones, blocked squares, side to move.
    pub(crate) fn compute_hash_inner(&self) -> u64 {
        let mut h = 0;
        for (side, &bb) in self.stones.iter().enumerate() {
            for sq in Squares(bb) {
                h ^= ZOBRIST.stone[side][sq.index()];
            }
        }
        for sq in Squares(self.blocked) {
            h ^= ZOBRIST.blocked[sq.index()];
        }
        if self.side == Side::Second {
            h ^= ZOBRIST.side;
        }
        h
    }

    /// Parses move text and checks it is legal here. Accepts a clone as destination (`f2`) or as
    /// source+destination at distance 1 (`b2b3`), a jump as source+destination (`a7a5`), a pass
    /// `0000`; any case, surrounding spaces ignored.
    ///
    /// # Errors
    /// Why the move is not legal: malformed text (`move '…' is not a clone …`), or, as
    /// `illegal move <move>: <reason>` (the tafl wording): game over, source not a stone of the mover,
    /// destination occupied or blocked, distance 0 or more than 2, no own stone next to a clone
    /// destination, pass while moves exist.
    pub fn parse(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim().to_ascii_lowercase();
        let b = t.as_bytes();
        let shape = || {
            ParseError::new(format!(
                "move '{}' is not a clone (f2), a jump (a7a5) or a pass (0000)",
                text.trim()
            ))
        };
        let mv = match b.len() {
            4 if b == b"0000" => Move::Pass,
            2 => Move::Clone {
                to: Square::from_bytes(b).ok_or_else(shape)?,
            },
            4 => {
                let from = Square::from_bytes(&b[..2]).ok_or_else(shape)?;
                let to = Square::from_bytes(&b[2..]).ok_or_else(shape)?;
                match from.distance(to) {
                    0 => {
                        return Err(ParseError::new(format!(
                            "illegal move {t}: source and destination are the same square"
                        )));
                    }
                    1 | 2 => {}
                    d => {
                        return Err(ParseError::new(format!(
                            "illegal move {t}: too far (distance {d}, at most 2)"
                        )));
                    }
                }
                let own = self.stones[self.side.index()];
                if own & from.bit() == 0 {
                    let what = if self.stones[self.side.opponent().index()] & from.bit() != 0 {
                        "an opponent's stone"
                    } else if self.blocked & from.bit() != 0 {
                        "blocked"
                    } else {
                        "empty"
                    };
                    return Err(ParseError::new(format!(
                        "illegal move {t}: {from} is not your stone ({what})"
                    )));
                }
                if from.distance(to) == 1 {
                    Move::Clone { to }
                } else {
                    Move::Jump { from, to }
                }
            }
            _ => return Err(shape()),
        };
        if let Outcome::Decided { reason, .. } = self.outcome() {
            return Err(ParseError::new(format!(
                "illegal move {t}: the game is over ({reason})"
            )));
        }
        match mv {
            Move::Pass => {
                let mut moves = Vec::new();
                self.legal_moves(&mut moves);
                if moves != [Move::Pass] {
                    return Err(ParseError::new(format!(
                        "illegal move 0000: pass is illegal while {} has {} legal moves",
                        self.side_char(),
                        moves.len()
                    )));
                }
            }
            Move::Clone { to } | Move::Jump { to, .. } => {
                if self.blocked & to.bit() != 0 {
                    return Err(ParseError::new(format!(
                        "illegal move {t}: {to} is blocked"
                    )));
                }
                if (self.stones[0] | self.stones[1]) & to.bit() != 0 {
                    return Err(ParseError::new(format!(
                        "illegal move {t}: {to} is occupied"
                    )));
                }
                if let Move::Clone { .. } = mv {
                    let own = self.stones[self.side.index()];
                    if SINGLE[to.index()] & own == 0 {
                        return Err(ParseError::new(format!(
                            "illegal move {t}: no {} stone next to {to} to clone from",
                            self.side_char()
                        )));
                    }
                }
            }
        }
        Ok(mv)
    }

    /// `'x'` or `'o'`, the side to move.
    fn side_char(&self) -> char {
        if self.side == Side::First { 'x' } else { 'o' }
    }

    /// Stones gained by `mv` in stones (flipped stones, +1 for a clone's new stone).
    #[inline]
    pub fn stones_gained(&self, mv: Move) -> u32 {
        let opp = self.stones[self.side.opponent().index()];
        match mv {
            Move::Clone { to } => 1 + (SINGLE[to.index()] & opp).count_ones(),
            Move::Jump { to, .. } => (SINGLE[to.index()] & opp).count_ones(),
            Move::Pass => 0,
        }
    }
}

const _: () = assert!(NUM_SQUARES == 49);
