//! The inner loops of the Ataxx NNUE over the hidden layer's [`HIDDEN`] values: plain loops
//! over fixed-size arrays written so that the compiler vectorises them (SIMD where the target
//! has it, scalar otherwise), all wrapping `i16`/`i32` arithmetic.

use super::{HIDDEN, QA};

/// `Σ clamp(a_i, 0, QA) × w_i` in `i32` (wrapping).
#[inline(always)]
pub(super) fn crelu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let c = a.clamp(0, QA as i16) as i32;
        sum = sum.wrapping_add(c.wrapping_mul(w as i32));
    }
    sum
}

/// `out = base + add − sub ± Σ flips` (wrapping; `+` when `flips_add`), in chunks that stay in
/// vector registers.
#[inline(always)]
pub(super) fn fused(
    out: &mut [i16; HIDDEN],
    base: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: Option<&[i16; HIDDEN]>,
    flips: &[&[i16; HIDDEN]],
    flips_add: bool,
) {
    const CHUNK: usize = 32;
    for c in (0..HIDDEN).step_by(CHUNK) {
        let mut r = [0i16; CHUNK];
        for i in 0..CHUNK {
            r[i] = base[c + i].wrapping_add(add[c + i]);
        }
        if let Some(sub) = sub {
            for i in 0..CHUNK {
                r[i] = r[i].wrapping_sub(sub[c + i]);
            }
        }
        for row in flips {
            if flips_add {
                for i in 0..CHUNK {
                    r[i] = r[i].wrapping_add(row[c + i]);
                }
            } else {
                for i in 0..CHUNK {
                    r[i] = r[i].wrapping_sub(row[c + i]);
                }
            }
        }
        out[c..c + CHUNK].copy_from_slice(&r);
    }
}

#[inline(always)]
pub(super) fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
pub(super) fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_sub(w);
    }
}
