//! Squares and 7×7 bitboards: the geometry of the Ataxx board.
//!
//! A [`Bitboard`] is a `u64` whose bit `rank * 7 + file` stands for a square (`a1` = bit 0,
//! `g1` = bit 6, `a7` = bit 42, `g7` = bit 48); bits 49..64 are always 0.

use std::fmt;

/// A set of squares: bit `rank * 7 + file` (`a1` = 0, `g7` = 48). Bits 49 and above are 0.
pub type Bitboard = u64;

/// Number of files (and of ranks) of the board.
pub const SIZE: u8 = 7;

/// Number of squares of the board (49).
pub const NUM_SQUARES: usize = 49;

/// Every square of the board.
pub const FULL: Bitboard = (1 << NUM_SQUARES) - 1;

/// The squares of file `a` (the left edge).
pub const FILE_A: Bitboard = file_mask(0);
/// The squares of file `b`.
pub const FILE_B: Bitboard = file_mask(1);
/// The squares of file `f`.
pub const FILE_F: Bitboard = file_mask(5);
/// The squares of file `g` (the right edge).
pub const FILE_G: Bitboard = file_mask(6);

const fn file_mask(file: u32) -> Bitboard {
    let mut mask = 0;
    let mut rank = 0;
    while rank < 7 {
        mask |= 1 << (rank * 7 + file);
        rank += 1;
    }
    mask
}

/// A square of the 7×7 board, `0..49`, index `rank * 7 + file` (`a1` = 0, `g1` = 6, `g7` = 48).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square with index `index` (`rank * 7 + file`), or `None` if `index >= 49`.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = `a`) and `rank` (0 = rank 1), or `None` off the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < SIZE && rank < SIZE {
            Some(Square(rank * SIZE + file))
        } else {
            None
        }
    }

    /// The square with index `index`; the caller guarantees `index < 49`.
    #[inline(always)]
    pub(crate) const fn new_unchecked(index: u32) -> Square {
        Square(index as u8)
    }

    /// The lowest square of a non-empty bitboard.
    #[inline(always)]
    pub(crate) const fn lowest(bb: Bitboard) -> Square {
        Square(bb.trailing_zeros() as u8)
    }

    /// The index `rank * 7 + file`, `0..49`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) to 6 (`g`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % SIZE
    }

    /// The rank, 0 (rank 1) to 6 (rank 7).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / SIZE
    }

    /// The bitboard holding only this square.
    #[inline(always)]
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// The king-move (Chebyshev) distance to `other`: 1 for a clone, 2 for a jump.
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr { df } else { dr }
    }

    /// Parses algebraic coordinates such as `f2` (either case); `None` if not a square.
    pub fn parse(text: &str) -> Option<Square> {
        Square::from_bytes(text.to_ascii_lowercase().as_bytes())
    }

    /// Parses two bytes such as `b"f2"` (lower case) into a square.
    pub(crate) fn from_bytes(b: &[u8]) -> Option<Square> {
        match b {
            [f @ b'a'..=b'g', r @ b'1'..=b'7'] => Square::from_coords(f - b'a', r - b'1'),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    /// Algebraic coordinates, e.g. `f2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Iterates over the squares of a bitboard, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::lowest(self.0);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// The bitboard `bb` grown by one step in all 8 directions (it keeps `bb` itself): every square
/// at distance ≤ 1 from a square of `bb`.
#[inline(always)]
pub const fn singles(bb: Bitboard) -> Bitboard {
    let h = bb | ((bb & !FILE_G) << 1) | ((bb & !FILE_A) >> 1);
    (h | (h << 7) | (h >> 7)) & FULL
}

/// Every square at distance ≤ 2 from a square of `bb` (clone or jump reach).
#[inline(always)]
pub const fn doubles(bb: Bitboard) -> Bitboard {
    let h = bb
        | ((bb & !FILE_G) << 1)
        | ((bb & !FILE_A) >> 1)
        | ((bb & !(FILE_F | FILE_G)) << 2)
        | ((bb & !(FILE_A | FILE_B)) >> 2);
    (h | (h << 7) | (h >> 7) | (h << 14) | (h >> 14)) & FULL
}

/// `bb` moved by `df` files and `dr` ranks (each in `-2..=2`); stones leaving the board vanish.
#[inline(always)]
pub(crate) const fn shift(bb: Bitboard, df: i32, dr: i32) -> Bitboard {
    let bb = match df {
        2 => bb & !(FILE_F | FILE_G),
        1 => bb & !FILE_G,
        -1 => bb & !FILE_A,
        -2 => bb & !(FILE_A | FILE_B),
        _ => bb,
    };
    let s = dr * 7 + df;
    (if s >= 0 { bb << s } else { bb >> -s }) & FULL
}

/// The 16 `(file, rank)` offsets at distance exactly 2: the jump directions.
pub(crate) const RING_OFFSETS: [(i32, i32); 16] = [
    (-2, -2),
    (-1, -2),
    (0, -2),
    (1, -2),
    (2, -2),
    (-2, -1),
    (2, -1),
    (-2, 0),
    (2, 0),
    (-2, 1),
    (2, 1),
    (-2, 2),
    (-1, 2),
    (0, 2),
    (1, 2),
    (2, 2),
];

const fn masks(dist: i32) -> [Bitboard; NUM_SQUARES] {
    let mut table = [0; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES as i32 {
        let (f, r) = (sq % 7, sq / 7);
        let mut df: i32 = -2;
        while df <= 2 {
            let mut dr: i32 = -2;
            while dr <= 2 {
                let d = if df.abs() > dr.abs() {
                    df.abs()
                } else {
                    dr.abs()
                };
                let (nf, nr) = (f + df, r + dr);
                if d == dist && nf >= 0 && nf < 7 && nr >= 0 && nr < 7 {
                    table[sq as usize] |= 1 << (nr * 7 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    table
}

/// `SINGLE[sq]`: the up to 8 squares at distance 1 from `sq` (clone targets, flipped squares).
pub const SINGLE: [Bitboard; NUM_SQUARES] = masks(1);

/// `RING[sq]`: the up to 16 squares at distance exactly 2 from `sq` (jump targets).
pub const RING: [Bitboard; NUM_SQUARES] = masks(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_dilation() {
        for i in 0..49u8 {
            let sq = Square::from_index(i).unwrap();
            assert_eq!(singles(sq.bit()), SINGLE[sq.index()] | sq.bit());
            assert_eq!(
                doubles(sq.bit()),
                RING[sq.index()] | SINGLE[sq.index()] | sq.bit()
            );
            let ring: Bitboard = RING_OFFSETS
                .iter()
                .fold(0, |acc, &(df, dr)| acc | shift(sq.bit(), df, dr));
            assert_eq!(ring, RING[sq.index()]);
        }
        assert_eq!(SINGLE[0].count_ones(), 3);
        assert_eq!(RING[24].count_ones(), 16);
    }
}
