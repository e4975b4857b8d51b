//! Bitboards: one bit per square, square index = rank * width + file, a1 = 0.
//!
//! The type is chosen per board size at compile time: `u64` up to 8×8, `u128` up to 11×11,
//! [`Wide<N>`] (`N` 64-bit words) above: `Wide<3>` for 12×12 and 13×13 (`copenhagen13`), `Wide<6>`
//! for 14×14 to 19×19 (OpenTafl rules strings; one type for them all keeps the build small).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A square index: `rank * width + file`, `a1` = 0 (ranks and files counted from 0); below
/// [`MAX_SQUARES`].
pub type Square = u16;

/// Squares of the largest board (19×19): the length of the per-square tables.
pub const MAX_SQUARES: usize = 361;

/// A set of squares as the bits of an unsigned integer. Implemented for `u64` (boards up to 8×8),
/// `u128` (boards up to 11×11) and [`Wide`] (arrays of words, boards up to 19×19).
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

/// A bitboard of `N` 64-bit words (word 0 holds squares 0–63), for boards over 11×11.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wide(")?;
        for w in self.0.iter().rev() {
            write!(f, "{w:016x}")?;
        }
        write!(f, ")")
    }
}

macro_rules! wide_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<const N: usize> $tr for Wide<N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut r = self.0;
                for i in 0..N {
                    r[i] $op o.0[i];
                }
                Wide(r)
            }
        }
        impl<const N: usize> $atr for Wide<N> {
            #[inline(always)]
            fn $af(&mut self, o: Self) {
                for i in 0..N {
                    self.0[i] $op o.0[i];
                }
            }
        }
    };
}

wide_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
wide_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
wide_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

impl<const N: usize> Shl<u32> for Wide<N> {
    type Output = Self;
    /// Shift towards higher squares; bits beyond the last word are dropped.
    #[inline(always)]
    fn shl(self, s: u32) -> Self {
        let (q, r) = ((s / 64) as usize, s % 64);
        let mut out = [0u64; N];
        for i in (q..N).rev() {
            let lo = self.0[i - q];
            out[i] = lo << r;
            if r != 0 && i > q {
                out[i] |= self.0[i - q - 1] >> (64 - r);
            }
        }
        Wide(out)
    }
}

impl<const N: usize> Shr<u32> for Wide<N> {
    type Output = Self;
    /// Shift towards lower squares.
    #[inline(always)]
    fn shr(self, s: u32) -> Self {
        let (q, r) = ((s / 64) as usize, s % 64);
        let mut out = [0u64; N];
        for (i, o) in out.iter_mut().enumerate().take(N.saturating_sub(q)) {
            *o = self.0[i + q] >> r;
            if r != 0 && i + q + 1 < N {
                *o |= self.0[i + q + 1] << (64 - r);
            }
        }
        Wide(out)
    }
}

impl<const N: usize> Bitboard for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    const BITS: u32 = 64 * N as u32;
    #[inline(always)]
    fn bit(sq: Square) -> Self {
        let mut w = [0u64; N];
        w[sq as usize / 64] = 1 << (sq % 64);
        Wide(w)
    }
    #[inline(always)]
    fn has(self, sq: Square) -> bool {
        (self.0[sq as usize / 64] >> (sq % 64)) & 1 != 0
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline(always)]
    fn lsb(self) -> Square {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return (i as u32 * 64 + w.trailing_zeros()) as Square;
            }
        }
        (N * 64) as Square
    }
    #[inline(always)]
    fn msb(self) -> Square {
        for (i, &w) in self.0.iter().enumerate().rev() {
            if w != 0 {
                return (i as u32 * 64 + 63 - w.leading_zeros()) as Square;
            }
        }
        0
    }
    #[inline(always)]
    fn clear_lsb(self) -> Self {
        let mut w = self.0;
        for x in w.iter_mut() {
            if *x != 0 {
                *x &= *x - 1;
                break;
            }
        }
        Wide(w)
    }
    #[inline(always)]
    fn popcount(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_matches_u128() {
        let samples: [u128; 4] = [
            1,
            0x8000_0000_0000_0001_0000_0000_0000_0001,
            !0 >> 7,
            0xdead_beef << 60,
        ];
        for &v in &samples {
            let w = Wide::<2>([v as u64, (v >> 64) as u64]);
            let back = |w: Wide<2>| w.0[0] as u128 | (w.0[1] as u128) << 64;
            for s in [0, 1, 11, 13, 19, 63, 64, 65, 100] {
                assert_eq!(back(w << s), v << s, "{v:x} << {s}");
                assert_eq!(back(w >> s), v >> s, "{v:x} >> {s}");
            }
            assert_eq!(w.popcount(), v.count_ones());
            assert_eq!(w.lsb(), v.lsb());
            assert_eq!(w.msb(), v.msb());
            assert_eq!(back(w.clear_lsb()), v.clear_lsb());
            assert_eq!(back(!w), !v);
        }
        let b = Wide::<6>::bit(360);
        assert!(b.has(360) && !b.has(359));
        assert_eq!(b.lsb(), 360);
        assert_eq!((b >> 300).lsb(), 60);
        assert_eq!((Wide::<6>::bit(5) << 355).lsb(), 360);
    }
}
