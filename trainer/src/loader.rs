//! Batches: a batch's positions as padded feature lists, heads and targets ([`Batch`], made by
//! [`make_batch`]), and a loader that makes an epoch's batches on other threads and hands them
//! over in order through bounded channels ([`Loader`]), so that the training step never waits
//! for the encoding (each thread keeps at most two batches ready).

use rand::{RngExt, SeedableRng};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, sync_channel};

use crate::data::Sample;
use crate::net::{Spec, TrainPos};
use crate::sparse::pad;

/// A batch on the host: per perspective the `n × slots` feature indices (padded with
/// [`pad`]), each position's output head and its target.
pub struct Batch {
    /// Positions.
    pub n: usize,
    /// Feature slots per position (the batch's most active features).
    pub slots: usize,
    /// Per perspective, `n × slots` indices (the second is empty for one perspective).
    pub idx: [Vec<u32>; 2],
    /// Per position, its output head.
    pub heads: Vec<u32>,
    /// Per position, its target.
    pub targets: Vec<f32>,
    /// Per position, the sign that turns the network's output into the side to move's view.
    pub signs: Vec<f32>,
}

/// The batch of `samples[order[i]]` for the `i` in `range`: each shown in a symmetry drawn from
/// a generator seeded by `augment` (`None`: as it is).
pub fn make_batch<P: TrainPos>(
    spec: &Spec,
    samples: &[Sample<P>],
    order: &[u32],
    augment: Option<u64>,
) -> Batch {
    let n = order.len();
    let mut rng = augment.map(rand::rngs::StdRng::seed_from_u64);
    let symmetries = spec.symmetries();
    let perspectives = spec.perspectives();
    let mut lists: [Vec<u32>; 2] = [Vec::with_capacity(64), Vec::with_capacity(64)];
    let mut flat: [Vec<u32>; 2] = [Vec::with_capacity(n * 48), Vec::with_capacity(n * 48)];
    let mut starts: Vec<[usize; 2]> = Vec::with_capacity(n + 1);
    let mut heads = Vec::with_capacity(n);
    let mut targets = Vec::with_capacity(n);
    let mut signs = Vec::with_capacity(n);
    let mut slots = 1;
    for &i in order {
        let s = &samples[i as usize];
        let sym = match rng.as_mut() {
            Some(r) => r.random_range(0..symmetries),
            None => 0,
        };
        lists[0].clear();
        lists[1].clear();
        heads.push(s.pos.encode(spec, sym, &mut lists));
        starts.push([flat[0].len(), flat[1].len()]);
        for p in 0..perspectives {
            slots = slots.max(lists[p].len());
            flat[p].extend_from_slice(&lists[p]);
        }
        targets.push(s.target);
        signs.push(s.pos.view_sign(spec));
    }
    starts.push([flat[0].len(), flat[1].len()]);
    let padding = pad(spec.inputs());
    let idx = std::array::from_fn(|p| {
        if p >= perspectives {
            return Vec::new();
        }
        let mut out = vec![padding; n * slots];
        for i in 0..n {
            let (a, b) = (starts[i][p], starts[i + 1][p]);
            out[i * slots..i * slots + (b - a)].copy_from_slice(&flat[p][a..b]);
        }
        out
    });
    Batch {
        n,
        slots,
        idx,
        heads,
        targets,
        signs,
    }
}

/// The seed of batch `batch` of epoch `epoch`'s symmetries: the same for every thread count.
fn batch_seed(seed: u64, epoch: usize, batch: usize) -> u64 {
    let mut z = seed
        ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (batch as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An epoch's batches, made on `threads` threads (batch `b` by thread `b % threads`) and
/// received in order. Dropping it stops the threads (their next send fails).
pub struct Loader {
    channels: Vec<Receiver<Batch>>,
    next: usize,
    total: usize,
}

impl Loader {
    /// Starts the threads for the batches of `order` (`batch` positions each, the last one
    /// shorter), shown in random symmetries seeded by `(seed, epoch)` when `augment`.
    #[allow(clippy::too_many_arguments)]
    pub fn start<P: TrainPos>(
        spec: &Arc<Spec>,
        samples: &Arc<Vec<Sample<P>>>,
        order: Arc<Vec<u32>>,
        batch: usize,
        augment: bool,
        seed: u64,
        epoch: usize,
        threads: usize,
    ) -> Loader {
        let total = order.len().div_ceil(batch);
        let threads = threads.clamp(1, total.max(1));
        let channels = (0..threads)
            .map(|t| {
                let (tx, rx) = sync_channel(2);
                let (spec, samples, order) = (Arc::clone(spec), Arc::clone(samples), order.clone());
                std::thread::spawn(move || {
                    for b in (t..total).step_by(threads) {
                        let chunk = &order[b * batch..((b + 1) * batch).min(order.len())];
                        let aug = augment.then(|| batch_seed(seed, epoch, b));
                        if tx.send(make_batch(&spec, &samples, chunk, aug)).is_err() {
                            return;
                        }
                    }
                });
                rx
            })
            .collect();
        Loader {
            channels,
            next: 0,
            total,
        }
    }
}

impl Iterator for Loader {
    type Item = Batch;

    fn next(&mut self) -> Option<Batch> {
        if self.next == self.total {
            return None;
        }
        let rx = &self.channels[self.next % self.channels.len()];
        self.next += 1;
        Some(rx.recv().expect("a loader thread ended early"))
    }
}
