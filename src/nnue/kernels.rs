//! The inner loops of every network over its hidden layer's values, whatever the game: plain
//! loops over fixed-size arrays or chunks written so that the compiler vectorises them (SIMD
//! where the target has it, scalar otherwise), all wrapping `i16`/`i32` arithmetic. The
//! fixed-size kernels take the hidden size `H` as a const parameter (Ataxx's format-1 network,
//! 128); the others take slices whose length is a multiple of [`CHUNK`].

use super::QA;

/// `Σ clamp(a_i, 0, QA) × w_i` in `i32` (wrapping).
#[inline(always)]
pub(crate) fn crelu_dot<const H: usize>(acc: &[i16; H], w: &[i16; H]) -> i32 {
    // Inlined, the slices keep the array length: the loop vectorises as over the arrays.
    crelu_dot_slice(acc, w)
}

/// `out = base + add − sub ± Σ flips` (wrapping; `+` when `flips_add`), in chunks that stay in
/// vector registers.
#[inline(always)]
pub(crate) fn fused<const H: usize>(
    out: &mut [i16; H],
    base: &[i16; H],
    add: &[i16; H],
    sub: Option<&[i16; H]>,
    flips: &[&[i16; H]],
    flips_add: bool,
) {
    const CHUNK: usize = 32;
    for c in (0..H).step_by(CHUNK) {
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

/// `acc += row` (wrapping).
#[inline(always)]
pub(crate) fn add_row<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_add(w);
    }
}

/// `acc −= row` (wrapping).
#[inline(always)]
pub(crate) fn sub_row<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_sub(w);
    }
}

// The kernels of networks whose hidden size is read from the file (Ataxx's pattern networks,
// the tafl networks): slices whose length is a multiple of [`CHUNK`], worked chunk by chunk in
// registers.

/// Values per chunk of the runtime-length kernels; a runtime hidden size is a multiple of it.
pub(crate) const CHUNK: usize = 32;

/// `out = base + Σ adds − Σ subs` (wrapping), chunk by chunk; every slice has `out`'s length,
/// a multiple of [`CHUNK`].
#[inline(always)]
pub(crate) fn fused_rows(out: &mut [i16], base: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    debug_assert_eq!(out.len() % CHUNK, 0);
    debug_assert_eq!(base.len(), out.len());
    for (c, (o, b)) in out
        .chunks_exact_mut(CHUNK)
        .zip(base.chunks_exact(CHUNK))
        .enumerate()
    {
        let at = c * CHUNK;
        let mut r = [0i16; CHUNK];
        r.copy_from_slice(b);
        for row in adds {
            let row: &[i16; CHUNK] = row[at..at + CHUNK].try_into().expect("row length");
            for i in 0..CHUNK {
                r[i] = r[i].wrapping_add(row[i]);
            }
        }
        for row in subs {
            let row: &[i16; CHUNK] = row[at..at + CHUNK].try_into().expect("row length");
            for i in 0..CHUNK {
                r[i] = r[i].wrapping_sub(row[i]);
            }
        }
        o.copy_from_slice(&r);
    }
}

/// [`fused_rows`] for a hidden size `H` known when compiling (the rows' lengths checked once,
/// the chunks' loops unrolled); [`super::Layers::update`] calls it for the common sizes.
#[inline(always)]
pub(crate) fn fused_rows_fixed<const H: usize>(
    out: &mut [i16],
    base: &[i16],
    adds: &[&[i16]],
    subs: &[&[i16]],
) {
    const WIDE: usize = 64;
    let out: &mut [i16; H] = out.try_into().expect("accumulator length");
    let base: &[i16; H] = base.try_into().expect("accumulator length");
    for c in (0..H).step_by(WIDE) {
        let mut r = [0i16; WIDE];
        r.copy_from_slice(&base[c..c + WIDE]);
        for row in adds {
            let row: &[i16; H] = (*row).try_into().expect("row length");
            for i in 0..WIDE {
                r[i] = r[i].wrapping_add(row[c + i]);
            }
        }
        for row in subs {
            let row: &[i16; H] = (*row).try_into().expect("row length");
            for i in 0..WIDE {
                r[i] = r[i].wrapping_sub(row[c + i]);
            }
        }
        out[c..c + WIDE].copy_from_slice(&r);
    }
}

/// `acc += row` (wrapping), any equal lengths.
#[inline(always)]
pub(crate) fn add_slice(acc: &mut [i16], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a = a.wrapping_add(w);
    }
}

/// `Σ clamp(a_i, 0, QA) × w_i` in `i32` (wrapping), any equal lengths.
#[inline(always)]
pub(crate) fn crelu_dot_slice(acc: &[i16], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let c = a.clamp(0, QA as i16) as i32;
        sum = sum.wrapping_add(c.wrapping_mul(w as i32));
    }
    sum
}

/// `Σ clamp(a_i, 0, QA)² × w_i` in `i64`, any equal lengths: each term is at most
/// `255² × 32768 = 2 130 739 200 < 2³¹` in size for any `i16` weight, so it is formed in `i32`
/// without overflow and summed in `i64` (the sum of 1024 terms would not fit `i32`).
#[inline(always)]
pub(crate) fn screlu_dot_slice(acc: &[i16], w: &[i16]) -> i64 {
    let mut sum = 0i64;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let c = a.clamp(0, QA as i16) as i32;
        sum += (c * c * w as i32) as i64;
    }
    sum
}
