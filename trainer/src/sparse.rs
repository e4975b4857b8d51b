//! The first layer on sparse inputs: each position is the list of its active features, and its
//! hidden sums are the sum of those rows of `W1` (an "embedding bag"), so that the work and the
//! gradient are per active feature, not per input.
//!
//! Two implementations of the same function, chosen by the device:
//! - on the CPU, [`EmbeddingBag`], a candle custom operation: the forward pass adds each
//!   position's rows into its output row, the backward pass adds each position's output
//!   gradient into the gradient rows of its features (`W1`'s gradient has nonzero rows only for
//!   the features the batch used), both in parallel on all cores (rayon) without a
//!   `batch × features × hidden` intermediate;
//! - elsewhere (CUDA), candle's own operations: `W1` with a zero row appended for the padding,
//!   `index_select` of the rows (`batch × features × hidden`), and their sum per position as a
//!   batched product with a row of ones (candle's `index_select` and `matmul` run on CUDA; their
//!   backward pass is an `index_add` into the used rows).
//!
//! Indices are `u32`, a `(batch, slots)` tensor; a slot holding `rows` (one past the last row,
//! [`pad`]) is padding and adds nothing, so positions with fewer active features than the
//! batch's widest share one rectangular tensor.

use candle_core::{CpuStorage, CustomOp2, DType, Layout, Result, Shape, Tensor};
use rayon::prelude::*;

/// The padding index of a first layer of `rows` rows: `rows` itself.
pub fn pad(rows: usize) -> u32 {
    rows as u32
}

/// `out[i] = Σ_j w1[idx[i, j]]` over the slots that are not padding: `w1` `(rows, hidden)` f32,
/// `idx` `(batch, slots)` u32, the result `(batch, hidden)`. The CPU's custom operation on a
/// CPU device, candle's gather and sum elsewhere (module docs).
pub fn bag(w1: &Tensor, idx: &Tensor) -> Result<Tensor> {
    if w1.device().is_cpu() && !GATHER.load(std::sync::atomic::Ordering::Relaxed) {
        w1.apply_op2(idx, EmbeddingBag)
    } else {
        bag_gather(w1, idx)
    }
}

/// When set, [`bag`] takes candle's gather on the CPU too (`--gather`, for comparisons).
static GATHER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`bag`] use candle's gather on every device (`on`), or the custom operation on the
/// CPU.
pub fn force_gather(on: bool) {
    GATHER.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// [`bag`] by candle's own operations: a zero row appended to `w1` for the padding index,
/// `index_select`, and the per-position sum as a batched product with ones.
pub fn bag_gather(w1: &Tensor, idx: &Tensor) -> Result<Tensor> {
    let (rows, hidden) = w1.dims2()?;
    let (n, slots) = idx.dims2()?;
    let padded = Tensor::cat(
        &[w1, &Tensor::zeros((1, hidden), DType::F32, w1.device())?],
        0,
    )?;
    debug_assert_eq!(padded.dim(0)?, rows + 1);
    let picked = padded
        .index_select(&idx.flatten_all()?, 0)?
        .reshape((n, slots, hidden))?;
    let ones = Tensor::ones((n, 1, slots), DType::F32, w1.device())?;
    ones.matmul(&picked)?.reshape((n, hidden))
}

/// The CPU's embedding bag (module docs): arguments `w1` `(rows, hidden)` f32 and `idx`
/// `(batch, slots)` u32; gradient for `w1` only.
pub struct EmbeddingBag;

/// The slices of a contiguous storage.
fn slices<'a>(
    w1: &'a CpuStorage,
    l1: &Layout,
    idx: &'a CpuStorage,
    l2: &Layout,
) -> Result<(&'a [f32], &'a [u32])> {
    let (CpuStorage::F32(w), CpuStorage::U32(i)) = (w1, idx) else {
        candle_core::bail!("embedding bag: expected f32 weights and u32 indices")
    };
    let (Some((a0, a1)), Some((b0, b1))) = (l1.contiguous_offsets(), l2.contiguous_offsets())
    else {
        candle_core::bail!("embedding bag: non-contiguous arguments")
    };
    Ok((&w[a0..a1], &i[b0..b1]))
}

impl CustomOp2 for EmbeddingBag {
    fn name(&self) -> &'static str {
        "embedding-bag"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let (rows, hidden) = l1.shape().dims2()?;
        let (n, slots) = l2.shape().dims2()?;
        let (w, idx) = slices(s1, l1, s2, l2)?;
        let mut out = vec![0f32; n * hidden];
        out.par_chunks_mut(hidden)
            .zip(idx.par_chunks(slots))
            .for_each(|(o, features)| {
                for &f in features {
                    let f = f as usize;
                    if f < rows {
                        for (x, &v) in o.iter_mut().zip(&w[f * hidden..(f + 1) * hidden]) {
                            *x += v;
                        }
                    }
                }
            });
        Ok((CpuStorage::F32(out), Shape::from((n, hidden))))
    }

    fn bwd(
        &self,
        w1: &Tensor,
        idx: &Tensor,
        _res: &Tensor,
        grad: &Tensor,
    ) -> Result<(Option<Tensor>, Option<Tensor>)> {
        let rows = w1.dim(0)?;
        let g = grad
            .contiguous()?
            .apply_op2_no_bwd(idx, &ScatterRows { rows })?;
        Ok((Some(g), None))
    }
}

/// The embedding bag's backward pass: `out[idx[i, j]] += grad[i]` for every slot that is not
/// padding; `out` `(rows, hidden)`. Parallel over blocks of output rows: each block reads every
/// index and adds only into its own rows, so no two threads write the same row.
struct ScatterRows {
    rows: usize,
}

impl CustomOp2 for ScatterRows {
    fn name(&self) -> &'static str {
        "embedding-bag-backward"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> Result<(CpuStorage, Shape)> {
        let (n, hidden) = l1.shape().dims2()?;
        let (_, slots) = l2.shape().dims2()?;
        let (g, idx) = slices(s1, l1, s2, l2)?;
        let rows = self.rows;
        let mut out = vec![0f32; rows * hidden];
        let threads = rayon::current_num_threads().max(1);
        let block = rows.div_ceil(threads * 4).max(1);
        out.par_chunks_mut(block * hidden)
            .enumerate()
            .for_each(|(b, chunk)| {
                let (lo, hi) = (b * block, (b * block + chunk.len() / hidden).min(rows));
                for i in 0..n {
                    let gi = &g[i * hidden..(i + 1) * hidden];
                    for &f in &idx[i * slots..(i + 1) * slots] {
                        let f = f as usize;
                        if f >= lo && f < hi {
                            let row = &mut chunk[(f - lo) * hidden..(f - lo + 1) * hidden];
                            for (x, &v) in row.iter_mut().zip(gi) {
                                *x += v;
                            }
                        }
                    }
                }
            });
        Ok((CpuStorage::F32(out), Shape::from((rows, hidden))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Var};

    /// The custom operation and candle's gather give the same values and the same gradients,
    /// padding slots included.
    #[test]
    fn both_bags_agree_with_their_gradients() {
        let dev = Device::Cpu;
        let (rows, hidden) = (11, 64);
        let w: Vec<f32> = (0..rows * hidden)
            .map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0)
            .collect();
        let idx = Tensor::from_vec(
            vec![
                0u32,
                3,
                10,
                pad(rows),
                3,
                3,
                pad(rows),
                pad(rows),
                7,
                1,
                2,
                4,
            ],
            (3, 4),
            &dev,
        )
        .unwrap();
        let weights: Vec<f32> = (0..3 * hidden).map(|i| (i % 7) as f32 - 3.0).collect();
        let weights = Tensor::from_vec(weights, (3, hidden), &dev).unwrap();
        let mut outs = Vec::new();
        for custom in [true, false] {
            let w1 = Var::from_tensor(&Tensor::from_vec(w.clone(), (rows, hidden), &dev).unwrap())
                .unwrap();
            let y = if custom {
                bag(w1.as_tensor(), &idx).unwrap()
            } else {
                bag_gather(w1.as_tensor(), &idx).unwrap()
            };
            let loss = (y.clone() * &weights).unwrap().sum_all().unwrap();
            let grads = loss.backward().unwrap();
            let g = grads.get(w1.as_tensor()).unwrap().clone();
            outs.push((
                y.flatten_all().unwrap().to_vec1::<f32>().unwrap(),
                g.flatten_all().unwrap().to_vec1::<f32>().unwrap(),
            ));
        }
        for (a, b) in outs[0].0.iter().zip(&outs[1].0) {
            assert!((a - b).abs() < 1e-5);
        }
        for (a, b) in outs[0].1.iter().zip(&outs[1].1) {
            assert!((a - b).abs() < 1e-5);
        }
        // Row 3 appears three times (twice in position 1), row 5 never.
        let g = &outs[0].1;
        assert!(g[5 * hidden..6 * hidden].iter().all(|&x| x == 0.0));
        assert!(g[3 * hidden..4 * hidden].iter().any(|&x| x != 0.0));
    }
}
