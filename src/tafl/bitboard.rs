//! Bitboards: one bit per square, square index = rank * width + file, a1 = 0.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A square index: `rank * width + file`, `a1` = 0 (ranks and files counted from 0).
pub type Square = u8;

/// A set of squares as the bits of an unsigned integer. Implemented for `u64` (boards up to 8×8)
/// and `u128` (boards up to 11×11).
pub trait Bitboard:
    Copy
    + Eq
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// Number of bits (the largest board has at most this many squares).
    const BITS: u32;

    /// The set holding only `sq`.
    fn bit(sq: Square) -> Self;
    /// `true` when `sq` is in the set.
    fn has(self, sq: Square) -> bool;
    /// `true` for the empty set.
    fn is_empty(self) -> bool;
    /// The lowest square of a non-empty set.
    fn lsb(self) -> Square;
    /// The highest square of a non-empty set.
    fn msb(self) -> Square;
    /// The set without its lowest square.
    fn clear_lsb(self) -> Self;
    /// Number of squares in the set.
    fn popcount(self) -> u32;

    /// The squares of the set, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the squares of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            let s = self.0.lsb();
            self.0 = self.0.clear_lsb();
            Some(s)
        }
    }
}

macro_rules! impl_bitboard {
    ($t:ty) => {
        impl Bitboard for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(sq: Square) -> Self {
                1 << sq
            }
            #[inline(always)]
            fn has(self, sq: Square) -> bool {
                (self >> sq) & 1 != 0
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn lsb(self) -> Square {
                self.trailing_zeros() as Square
            }
            #[inline(always)]
            fn msb(self) -> Square {
                (<$t>::BITS - 1 - self.leading_zeros()) as Square
            }
            #[inline(always)]
            fn clear_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn popcount(self) -> u32 {
                self.count_ones()
            }
        }
    };
}

impl_bitboard!(u64);
impl_bitboard!(u128);
