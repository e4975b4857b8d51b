//! `skald-trainer`: trains skald's Ataxx network ([`skald::ataxx::nnue`], architectures and file
//! formats in its docs) from `skald datagen` output, on the CPU with candle: `--arch v1` the
//! square-input network (file format 1, 147 inputs, 128 hidden, CReLU), `--arch patterns` the
//! pattern-input network (format 2: 2×2 windows and blocked squares, `--hidden` 32–512 in
//! steps of 32, `--activation crelu` or `screlu`, `--buckets` 1–8 output buckets by the
//! number of stones on the board).
//!
//! The data: `skald datagen` files, text (lines `FEN | score | result`) or binary (the packed
//! records of [`skald::ataxx::packed`], recognised by their `SKALDATX` header), mixed freely.
//! Each position, with its score in centipawns and result 1.0/0.5/0.0 (both from the side to
//! move's view), gives the target
//! `t = λ × result + (1 − λ) × sigmoid(score / K)`; the network's output `y` is a logit and the
//! loss is the mean squared error between `sigmoid(y)` and `t`. Adam, cosine learning-rate decay
//! from `--lr` to `--lr / 10`, weights clipped after every step so that the quantised
//! accumulator fits `i16` (±1.98 for `v1`; first layer ±1.49 for `patterns`, see the nnue
//! module docs). A seeded `--validation` fraction of the positions is held out; the losses are
//! printed after each epoch, on standard output as CSV lines `epoch,train_loss,val_loss,seconds`
//! (for plotting loss curves), on standard error for people. The network is written quantised,
//! with `scale = K`, so the network's `evaluate` gives centipawns on the data's scale.
//!
//! Duplicates are merged before the split (unless `--no-dedup`): positions with the same stones
//! of the side to move, of the other side and blocked squares, up to the board's 8 symmetries
//! (which training treats as one position anyway), are one sample whose target is the mean of
//! their targets; clocks and colours are ignored. The number merged is printed.
//!
//! ```sh
//! cargo run --release -p skald-trainer -- --data data.txt --output net.nnue --epochs 10
//! cargo run --release -p skald-trainer -- --data data.txt --output p.nnue --arch patterns \
//!     --hidden 256 --activation screlu --validation 0.1 > losses.csv
//! ```

use anyhow::{Context, Result, bail};
use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use clap::{Parser, ValueEnum};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use skald::ataxx::Bitboard;
use skald::ataxx::Position;
use skald::ataxx::nnue::{
    self, Activation, NUM_FEATURES, NUM_PATTERN_FEATURES, PATTERN_BLOCKED, QA, QB, WINDOWS,
};
use skald::ataxx::packed::{self, PackedReader};
use skald::game::Game;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

/// Command-line arguments.
#[derive(Parser, Debug)]
#[command(
    name = "skald-trainer",
    about = "Trains skald's Ataxx NNUE from `skald datagen` output."
)]
struct Args {
    /// A datagen output file (repeat for several; they are read in order).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    output: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Initial learning rate (Adam); it decays to a tenth by a cosine schedule.
    #[arg(long, default_value_t = 0.001)]
    lr: f64,
    /// K: centipawns per unit of logit in sigmoid(score / K); also the file's scale.
    #[arg(long, default_value_t = 1000)]
    k: i32,
    /// λ: weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.3)]
    lambda: f32,
    /// Fraction of positions held out for the validation loss.
    #[arg(long, alias = "val-fraction", default_value_t = 0.05)]
    validation: f64,
    /// The network: `v1` square inputs (file format 1), `patterns` 2×2 windows (format 2).
    #[arg(long, value_enum, default_value_t = Arch::V1)]
    arch: Arch,
    /// Hidden neurons per perspective: 128 for `v1`; a multiple of 32 up to 512 for `patterns`.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// The hidden layer's activation (`v1`: crelu only).
    #[arg(long, value_enum, default_value_t = Act::Crelu)]
    activation: Act,
    /// Output buckets (`patterns` only, 1 to 8): one output layer per range of the number of
    /// stones on the board (`skald::ataxx::nnue::output_bucket`).
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Seed of the initial weights, the shuffle and the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this format-2 network (`--arch patterns`; its hidden size and activation
    /// are used, its scale must equal `--k`) instead of random weights: the next generation
    /// fine-tuned on new data, usually with a smaller `--lr` and fewer `--epochs`.
    #[arg(long, value_name = "NNUE")]
    init: Option<PathBuf>,
    /// Do not show each training position in one of the board's 8 symmetries at random.
    #[arg(long)]
    no_augment: bool,
    /// Keep duplicate positions (by default they are merged into one sample with the mean
    /// target; see the module docs).
    #[arg(long)]
    no_dedup: bool,
}

/// The 8 symmetries of the 7×7 board (rotations and reflections) as square permutations,
/// `SYMMETRIES[s][sq]` the image of square `sq = rank * 7 + file`. Ataxx's rules (clone to a
/// neighbour, jump to distance 2, blocked squares part of the position) are the same under all
/// of them, so a position and its images have the same value: training on a random image of each
/// position each epoch is 8 times the data for free.
fn symmetries() -> [[usize; 49]; 8] {
    let mut out = [[0; 49]; 8];
    for (s, perm) in out.iter_mut().enumerate() {
        for (sq, image) in perm.iter_mut().enumerate() {
            let (mut r, mut f) = (sq / 7, sq % 7);
            if s & 1 != 0 {
                f = 6 - f;
            }
            if s & 2 != 0 {
                r = 6 - r;
            }
            if s & 4 != 0 {
                (r, f) = (f, r);
            }
            *image = r * 7 + f;
        }
    }
    out
}

/// One training position: the position and its target in `[0, 1]`.
struct Sample {
    pos: Position,
    target: f32,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The training sample of a position with its search score (centipawns) and result (1.0, 0.5
/// or 0.0), both from the side to move's view.
fn sample(args: &Args, pos: Position, score: i32, result: f32) -> Sample {
    let from_score = sigmoid(score as f64 / args.k as f64) as f32;
    Sample {
        pos,
        target: args.lambda * result + (1.0 - args.lambda) * from_score,
    }
}

/// Reads datagen files, text or binary (by the packed header); errors name the file and the
/// line or record.
fn read_data(args: &Args) -> Result<Vec<Sample>> {
    let mut out = Vec::new();
    let start = Position::start();
    for path in &args.data {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
        let head = reader
            .fill_buf()
            .with_context(|| format!("cannot read {}", path.display()))?;
        if packed::has_magic(head) {
            let records =
                PackedReader::new(reader).with_context(|| format!("{}", path.display()))?;
            for (i, rec) in records.enumerate() {
                let rec = rec.with_context(|| format!("{}: record {}", path.display(), i + 1))?;
                out.push(sample(
                    args,
                    rec.position,
                    rec.score.into(),
                    rec.result.value(),
                ));
            }
            continue;
        }
        for (i, line) in reader.lines().enumerate() {
            let line = line.with_context(|| format!("cannot read {}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{}:{}", path.display(), i + 1);
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let [fen, score, result] = fields[..] else {
                bail!("{}: expected 'FEN | score | result', got '{line}'", at());
            };
            let pos = start
                .with_fen(fen)
                .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
            let score: i32 = score
                .parse()
                .with_context(|| format!("{}: score '{score}' is not an integer", at()))?;
            let result: f32 = match result {
                "1.0" | "1" => 1.0,
                "0.5" => 0.5,
                "0.0" | "0" => 0.0,
                _ => bail!("{}: result '{result}' is not 1.0, 0.5 or 0.0", at()),
            };
            out.push(sample(args, pos, score, result));
        }
    }
    Ok(out)
}

/// The dedup key of a position: the stones of the side to move, of the other side and the
/// blocked squares, the least such triple over the board's 8 symmetries.
fn canonical_key(pos: &Position, syms: &[[usize; 49]; 8]) -> [Bitboard; 3] {
    let side = pos.side_to_move();
    let (own, their, blocked) = (pos.stones(side), pos.stones(side.opponent()), pos.blocked());
    syms.iter()
        .map(|p| [permute(own, p), permute(their, p), permute(blocked, p)])
        .min()
        .expect("8 symmetries")
}

/// Merges duplicates (same [`canonical_key`]): the first one stays, in its place, with the mean
/// target of all of them. Returns the samples left and the number merged away.
fn dedup(samples: Vec<Sample>, syms: &[[usize; 49]; 8]) -> (Vec<Sample>, usize) {
    use std::collections::hash_map::{Entry, HashMap};
    let total = samples.len();
    let mut index: HashMap<[Bitboard; 3], usize> = HashMap::with_capacity(total);
    let mut out: Vec<Sample> = Vec::with_capacity(total);
    let mut counts: Vec<u32> = Vec::with_capacity(total);
    for s in samples {
        match index.entry(canonical_key(&s.pos, syms)) {
            Entry::Occupied(e) => {
                out[*e.get()].target += s.target;
                counts[*e.get()] += 1;
            }
            Entry::Vacant(e) => {
                e.insert(out.len());
                out.push(s);
                counts.push(1);
            }
        }
    }
    for (s, &c) in out.iter_mut().zip(&counts) {
        s.target /= c as f32;
    }
    let merged = total - out.len();
    (out, merged)
}

/// The network to train (`--arch`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum Arch {
    /// Square inputs, file format 1.
    V1,
    /// 2×2 window patterns and blocked squares, file format 2.
    Patterns,
}

/// The hidden layer's activation (`--activation`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum Act {
    /// Clipped ReLU, `clamp(a, 0, 1)`.
    Crelu,
    /// Squared clipped ReLU, `clamp(a, 0, 1)²`.
    Screlu,
}

impl Act {
    fn nnue(self) -> Activation {
        match self {
            Act::Crelu => Activation::CReLU,
            Act::Screlu => Activation::SCReLU,
        }
    }
}

/// The float bound of the first layer's weights and biases: the quantised accumulator (at most
/// 49 active features + bias for `v1`, 36 windows + 49 blocked squares + bias = 86 rows for
/// `patterns`) must fit `i16` (see the nnue module docs).
fn first_layer_clip(arch: Arch) -> f32 {
    match arch {
        // round(1.98 × 255) = 505; 50 × 505 = 25 250 < 32 767.
        Arch::V1 => 1.98,
        // round(1.49 × 255) = 380; 86 × 380 = 32 680 < 32 767.
        Arch::Patterns => 1.49,
    }
}

/// The output layer's float bound: round(1.98 × 2048) = 4055 in `i16`.
const OUTPUT_CLIP: f32 = 1.98;

/// The network's parameters as candle variables (float, unquantised).
struct Model {
    arch: Arch,
    activation: Act,
    hidden: usize,
    /// Output buckets `B` (1 for `v1`).
    buckets: usize,
    w1: Var,
    b1: Var,
    /// `(2 × hidden, B)`: bucket `b`'s output weights are column `b`.
    w2: Var,
    /// `(B)`.
    b2: Var,
}

/// A batch's inputs, per perspective (the side to move's first).
enum Inputs {
    /// Dense 0/1 features `(n, 147)`.
    Dense(Tensor, Tensor),
    /// Pattern features: per perspective the `n × 36` window feature indices (`u32`, flat),
    /// the blocked squares `(n, 49)` 0/1, the same for both perspectives, and each position's
    /// output bucket `(n, 1)` (`u32`).
    Patterns {
        us: Tensor,
        them: Tensor,
        blocked: Tensor,
        bucket: Tensor,
    },
}

/// The image of bitboard `bb` under the square permutation `perm`.
fn permute(bb: Bitboard, perm: &[usize; 49]) -> Bitboard {
    let mut out = 0;
    let mut rest = bb;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << perm[sq];
    }
    out
}

const IDENTITY: [usize; 49] = {
    let mut id = [0; 49];
    let mut i = 0;
    while i < 49 {
        id[i] = i;
        i += 1;
    }
    id
};

/// Inputs of a batch for `arch` (with `buckets` output buckets), and the targets. With
/// `symmetry`, each position is shown as its image under a symmetry picked by `symmetry` (for
/// patterns: the windows of the image).
fn batch_tensors(
    arch: Arch,
    buckets: usize,
    samples: &[Sample],
    dev: &Device,
    mut symmetry: Option<&mut dyn FnMut() -> &'static [usize; 49]>,
) -> Result<(Inputs, Tensor)> {
    let n = samples.len();
    let targets: Vec<f32> = samples.iter().map(|s| s.target).collect();
    let targets = Tensor::from_vec(targets, (n, 1), dev)?;
    let mut pick = || match symmetry.as_mut() {
        Some(pick) => pick(),
        None => &IDENTITY,
    };
    match arch {
        Arch::V1 => {
            let mut us = vec![0f32; n * NUM_FEATURES];
            let mut them = vec![0f32; n * NUM_FEATURES];
            for (i, s) in samples.iter().enumerate() {
                let side = s.pos.side_to_move();
                let perm = pick();
                let image = |f: usize| (f / 49) * 49 + perm[f % 49];
                for f in nnue::features(&s.pos, side) {
                    us[i * NUM_FEATURES + image(f)] = 1.0;
                }
                for f in nnue::features(&s.pos, side.opponent()) {
                    them[i * NUM_FEATURES + image(f)] = 1.0;
                }
            }
            Ok((
                Inputs::Dense(
                    Tensor::from_vec(us, (n, NUM_FEATURES), dev)?,
                    Tensor::from_vec(them, (n, NUM_FEATURES), dev)?,
                ),
                targets,
            ))
        }
        Arch::Patterns => {
            let mut us = Vec::with_capacity(n * WINDOWS);
            let mut them = Vec::with_capacity(n * WINDOWS);
            let mut blocked = vec![0f32; n * 49];
            let mut bucket = Vec::with_capacity(n);
            for (i, s) in samples.iter().enumerate() {
                let side = s.pos.side_to_move();
                let perm = pick();
                let own = permute(s.pos.stones(side), perm);
                let their = permute(s.pos.stones(side.opponent()), perm);
                let block = permute(s.pos.blocked(), perm);
                // The windows' features come first, one per window; blocked squares go dense.
                us.extend(
                    nnue::pattern_features(own, their, 0)
                        .take(WINDOWS)
                        .map(|f| f as u32),
                );
                them.extend(
                    nnue::pattern_features(their, own, 0)
                        .take(WINDOWS)
                        .map(|f| f as u32),
                );
                for sq in skald::ataxx::bitboard::Squares(block) {
                    blocked[i * 49 + sq.index()] = 1.0;
                }
                bucket.push(nnue::output_bucket((own | their).count_ones(), buckets) as u32);
            }
            Ok((
                Inputs::Patterns {
                    us: Tensor::from_vec(us, n * WINDOWS, dev)?,
                    them: Tensor::from_vec(them, n * WINDOWS, dev)?,
                    blocked: Tensor::from_vec(blocked, (n, 49), dev)?,
                    bucket: Tensor::from_vec(bucket, (n, 1), dev)?,
                },
                targets,
            ))
        }
    }
}

/// `n` normal deviates of standard deviation `std` (Box–Muller), from `rng`.
fn normal(rng: &mut rand::rngs::StdRng, n: usize, std: f32) -> Vec<f32> {
    (0..n)
        .map(|_| {
            let u1: f32 = rng.random::<f32>().max(1e-7);
            let u2: f32 = rng.random();
            std * (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
        })
        .collect()
}

/// The quantised network of either format.
enum Quantised {
    V1(Box<nnue::Network>),
    Patterns(nnue::PatternNetwork),
}

impl Quantised {
    fn evaluate_position(&self, pos: &Position) -> i32 {
        match self {
            Quantised::V1(n) => n.evaluate_position(pos),
            Quantised::Patterns(n) => n.evaluate_position(pos),
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        match self {
            Quantised::V1(n) => n.to_bytes(),
            Quantised::Patterns(n) => n.to_bytes(),
        }
    }
}

impl Model {
    /// Random first-layer weights (σ 0.15 for `v1`, whose 20–49 active features then give
    /// hidden values of σ ≈ 1; σ 0.15 too for `patterns`' 36 windows), random output weights
    /// (σ 1/√(2·hidden), each bucket's its own), zero biases.
    fn new(args: &Args, rng: &mut rand::rngs::StdRng, dev: &Device) -> Result<Model> {
        let (inputs, hidden) = match args.arch {
            Arch::V1 => (NUM_FEATURES, nnue::HIDDEN),
            Arch::Patterns => (NUM_PATTERN_FEATURES, args.hidden),
        };
        let w1 = Tensor::from_vec(normal(rng, inputs * hidden, 0.15), (inputs, hidden), dev)?;
        let buckets = args.buckets;
        let w2 = Tensor::from_vec(
            normal(
                rng,
                2 * hidden * buckets,
                1.0 / (2.0 * hidden as f32).sqrt(),
            ),
            (2 * hidden, buckets),
            dev,
        )?;
        Ok(Model {
            arch: args.arch,
            activation: args.activation,
            hidden,
            buckets,
            w1: Var::from_tensor(&w1)?,
            b1: Var::zeros(hidden, DType::F32, dev)?,
            w2: Var::from_tensor(&w2)?,
            b2: Var::zeros(buckets, DType::F32, dev)?,
        })
    }

    /// The weights of the format-2 network at `path`, dequantised (`w1`, `b1` divided by `QA`,
    /// `w2` by `QB`, `b2` by `QA × QB`). A network of one output bucket may start a bucketed
    /// model: every bucket begins as its output layer (the model then evaluates as the file
    /// does, and training lets the buckets part). Errors if the file is not a pattern network,
    /// or its hidden size, activation or scale differ from `args`', or it has several buckets
    /// and not `args`' number.
    fn from_network(args: &Args, path: &std::path::Path, dev: &Device) -> Result<Model> {
        let net = nnue::PatternNetwork::load(path)
            .with_context(|| format!("--init {}", path.display()))?;
        if args.arch != Arch::Patterns
            || net.hidden() != args.hidden
            || net.activation() != args.activation.nnue()
            || (net.buckets() != 1 && net.buckets() != args.buckets)
            || net.scale() != args.k
        {
            bail!(
                "--init {} has {} hidden, {:?}, {} output bucket(s) and scale {}: give --arch \
                 patterns --hidden {} --buckets {} and its --activation and --k",
                path.display(),
                net.hidden(),
                net.activation(),
                net.buckets(),
                net.scale(),
                net.hidden(),
                net.buckets()
            );
        }
        let (w1, b1, w2, b2) = net.parts();
        let (from, buckets) = (b2.len(), args.buckets);
        let deq = |v: &[i16], q: i32| v.iter().map(|&w| w as f32 / q as f32).collect::<Vec<_>>();
        let hidden = net.hidden();
        let var = |v: Vec<f32>, shape: (usize, usize)| -> Result<Var> {
            Ok(Var::from_tensor(&Tensor::from_vec(v, shape, dev)?)?)
        };
        // The file holds W2 bucket by bucket; the model's columns are the buckets (a file of
        // one bucket gives each column the same weights).
        let w2: Vec<i16> = (0..2 * hidden * buckets)
            .map(|i| w2[(i % buckets % from) * 2 * hidden + i / buckets])
            .collect();
        let b2: Vec<f32> = (0..buckets)
            .map(|b| b2[b % from] as f32 / (QA * QB) as f32)
            .collect();
        Ok(Model {
            arch: Arch::Patterns,
            activation: args.activation,
            hidden,
            buckets,
            w1: var(deq(w1, QA), (NUM_PATTERN_FEATURES, hidden))?,
            b1: Var::from_tensor(&Tensor::from_vec(deq(b1, QA), hidden, dev)?)?,
            w2: var(deq(&w2, QB), (2 * hidden, buckets))?,
            b2: Var::from_tensor(&Tensor::from_vec(b2, buckets, dev)?)?,
        })
    }

    /// The hidden layer after activation, `(n, hidden)`, from its sums.
    fn activate(&self, a: Tensor) -> Result<Tensor> {
        let c = a.clamp(0f32, 1f32)?;
        Ok(match self.activation {
            Act::Crelu => c,
            Act::Screlu => c.sqr()?,
        })
    }

    /// The output logits `(n, 1)`: each position's bucket's.
    fn forward(&self, inputs: &Inputs) -> Result<Tensor> {
        let w1 = self.w1.as_tensor();
        let b1 = self.b1.as_tensor();
        let (us, them) = match inputs {
            Inputs::Dense(us, them) => {
                let hidden = |x: &Tensor| -> Result<Tensor> {
                    self.activate(x.matmul(w1)?.broadcast_add(b1)?)
                };
                (hidden(us)?, hidden(them)?)
            }
            Inputs::Patterns {
                us, them, blocked, ..
            } => {
                let n = blocked.dim(0)?;
                let from_blocked = blocked.matmul(&w1.narrow(0, PATTERN_BLOCKED, 49)?)?;
                // The sum over each position's windows as a batched product with a row of
                // ones: candle's `sum` over a middle dimension takes a slow general path
                // (a division per element), which had been half of the training time.
                let ones = Tensor::ones((n, 1, WINDOWS), DType::F32, blocked.device())?;
                let hidden = |idx: &Tensor| -> Result<Tensor> {
                    let windows = ones
                        .matmul(
                            &w1.index_select(idx, 0)?
                                .reshape((n, WINDOWS, self.hidden))?,
                        )?
                        .reshape((n, self.hidden))?;
                    self.activate((windows + &from_blocked)?.broadcast_add(b1)?)
                };
                (hidden(us)?, hidden(them)?)
            }
        };
        let h = Tensor::cat(&[us, them], 1)?;
        let out = h
            .matmul(self.w2.as_tensor())?
            .broadcast_add(self.b2.as_tensor())?;
        Ok(match inputs {
            Inputs::Patterns { bucket, .. } if self.buckets > 1 => out.gather(bucket, 1)?,
            _ => out,
        })
    }

    fn loss(&self, inputs: &Inputs, targets: &Tensor) -> Result<Tensor> {
        let pred = candle_nn::ops::sigmoid(&self.forward(inputs)?)?;
        Ok(pred.sub(targets)?.sqr()?.mean_all()?)
    }

    /// Mean loss over `samples` (no gradient), in batches.
    fn eval_loss(&self, samples: &[Sample], batch: usize, dev: &Device) -> Result<f64> {
        let mut total = 0.0;
        for chunk in samples.chunks(batch) {
            let (inputs, t) = batch_tensors(self.arch, self.buckets, chunk, dev, None)?;
            total += self.loss(&inputs, &t)?.to_scalar::<f32>()? as f64 * chunk.len() as f64;
        }
        Ok(total / samples.len().max(1) as f64)
    }

    /// Clips the weights to the quantised range ([`first_layer_clip`], [`OUTPUT_CLIP`]).
    fn clip(&self) -> Result<()> {
        let c = first_layer_clip(self.arch);
        for v in [&self.w1, &self.b1] {
            v.set(&v.as_tensor().clamp(-c, c)?)?;
        }
        self.w2
            .set(&self.w2.as_tensor().clamp(-OUTPUT_CLIP, OUTPUT_CLIP)?)?;
        Ok(())
    }

    fn values(v: &Var) -> Result<Vec<f32>> {
        Ok(v.as_tensor().flatten_all()?.to_vec1::<f32>()?)
    }

    /// The quantised network, scale `k`.
    fn quantise(&self, k: i32) -> Result<Quantised> {
        let q16 = |v: &Tensor, q: i32| -> Result<Vec<i16>> {
            Ok(v.flatten_all()?
                .to_vec1::<f32>()?
                .iter()
                .map(|&w| {
                    (w * q as f32)
                        .round()
                        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect())
        };
        let w1 = q16(self.w1.as_tensor(), QA)?;
        let b1 = q16(self.b1.as_tensor(), QA)?;
        // The model's columns are the buckets; the file holds W2 bucket by bucket.
        let w2 = q16(&self.w2.as_tensor().t()?.contiguous()?, QB)?;
        let b2: Vec<i32> = Model::values(&self.b2)?
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        Ok(match self.arch {
            Arch::V1 => Quantised::V1(Box::new(
                nnue::Network::from_parts(&w1, &b1, &w2, b2[0], k)
                    .context("the network's sizes do not match the nnue module")?,
            )),
            Arch::Patterns => Quantised::Patterns(
                nnue::PatternNetwork::from_parts(
                    self.hidden,
                    self.activation.nnue(),
                    &w1,
                    &b1,
                    &w2,
                    &b2,
                    k,
                )
                .context("the network's sizes do not match the nnue module")?,
            ),
        })
    }
}

/// Each training step allocates and frees tensors of tens of MB (a batch of 4096 × 36 windows ×
/// 128 hidden is 75 MB). By default glibc's malloc maps such blocks from the kernel and unmaps
/// them when freed, every step, and the page faults took more time than the arithmetic: an
/// epoch ran 2.3× slower, most of it system time. Keeping freed memory in one heap (no mmap,
/// one arena for all threads, no trimming, 1 GB of padding when the heap grows) takes most
/// of the system time away; memory use stays at its peak. Other C libraries: no-op.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets glibc's malloc tuning values; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_MAX, 0);
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_TOP_PAD, 1 << 30);
    }
}

fn main() {
    keep_freed_memory();
    if let Err(e) = run(Args::parse()) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Refuses option combinations the network files cannot hold.
fn check_args(args: &Args) -> Result<()> {
    if args.k < 1 || !(0.0..=1.0).contains(&args.lambda) || args.batch == 0 {
        bail!("--k must be ≥ 1, --lambda within 0..1 and --batch ≥ 1");
    }
    if !(args.validation > 0.0 && args.validation < 1.0) {
        bail!("--validation must be a fraction between 0 and 1 (exclusive)");
    }
    if !(1..=nnue::MAX_BUCKETS).contains(&args.buckets) {
        bail!("--buckets must be from 1 to {}", nnue::MAX_BUCKETS);
    }
    match args.arch {
        Arch::V1
            if args.hidden != nnue::HIDDEN
                || args.activation != Act::Crelu
                || args.buckets != 1 =>
        {
            bail!(
                "--arch v1 has {} hidden neurons, CReLU and one output; --hidden, --activation \
                 and --buckets are for --arch patterns",
                nnue::HIDDEN
            )
        }
        Arch::Patterns
            if args.hidden == 0
                || args.hidden > nnue::MAX_HIDDEN
                || !args.hidden.is_multiple_of(nnue::HIDDEN_MULTIPLE) =>
        {
            bail!(
                "--hidden must be a multiple of {} from {} to {}",
                nnue::HIDDEN_MULTIPLE,
                nnue::HIDDEN_MULTIPLE,
                nnue::MAX_HIDDEN
            )
        }
        _ => Ok(()),
    }
}

fn run(args: Args) -> Result<()> {
    check_args(&args)?;
    let dev = Device::Cpu;
    static SYMS: std::sync::LazyLock<[[usize; 49]; 8]> = std::sync::LazyLock::new(symmetries);
    let t0 = Instant::now();
    let mut samples = read_data(&args)?;
    if !args.no_dedup {
        let read = samples.len();
        let merged;
        (samples, merged) = dedup(samples, &SYMS);
        eprintln!(
            "{read} positions read, {merged} duplicates merged ({:.1} %), {} distinct",
            100.0 * merged as f64 / read.max(1) as f64,
            samples.len()
        );
    }
    if samples.len() < 2 {
        bail!("only {} positions in the data", samples.len());
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    samples.shuffle(&mut rng);
    let n_val = ((samples.len() as f64 * args.validation) as usize).clamp(1, samples.len() - 1);
    let mut train = samples.split_off(n_val);
    let val = samples;
    eprintln!(
        "{} training positions, {} validation positions, read in {:.1} s",
        train.len(),
        val.len(),
        t0.elapsed().as_secs_f64()
    );
    let model = match &args.init {
        Some(path) => Model::from_network(&args, path, &dev)?,
        None => Model::new(&args, &mut rng, &dev)?,
    };
    let mut opt = AdamW::new(
        vec![
            model.w1.clone(),
            model.b1.clone(),
            model.w2.clone(),
            model.b2.clone(),
        ],
        ParamsAdamW {
            lr: args.lr,
            weight_decay: 0.0,
            ..ParamsAdamW::default()
        },
    )?;
    // For scale: the loss of always predicting the mean training target.
    let mean = train.iter().map(|s| s.target as f64).sum::<f64>() / train.len() as f64;
    let constant = val
        .iter()
        .map(|s| (s.target as f64 - mean).powi(2))
        .sum::<f64>()
        / val.len() as f64;
    let val0 = model.eval_loss(&val, args.batch, &dev)?;
    eprintln!("epoch 0: val loss {val0:.6} (predicting the mean target: {constant:.6})");
    println!("epoch,train_loss,val_loss,seconds");
    println!("0,,{val0:.6},0.0");
    let steps_per_epoch = train.len().div_ceil(args.batch);
    let total_steps = (steps_per_epoch * args.epochs).max(1);
    let mut step = 0;
    let t_train = Instant::now();
    for epoch in 1..=args.epochs {
        train.shuffle(&mut rng);
        let mut sum = 0.0;
        for chunk in train.chunks(args.batch) {
            let progress = step as f64 / total_steps as f64;
            let lr = args.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
            opt.set_learning_rate(lr);
            let mut pick = || &SYMS[rng.random_range(0..8)];
            let (inputs, t) = batch_tensors(
                args.arch,
                args.buckets,
                chunk,
                &dev,
                (!args.no_augment).then_some(&mut pick as &mut dyn FnMut() -> _),
            )?;
            let loss = model.loss(&inputs, &t)?;
            opt.backward_step(&loss)?;
            model.clip()?;
            sum += loss.to_scalar::<f32>()? as f64 * chunk.len() as f64;
            step += 1;
        }
        let (train_loss, val_loss) = (
            sum / train.len() as f64,
            model.eval_loss(&val, args.batch, &dev)?,
        );
        let secs = t_train.elapsed().as_secs_f64();
        eprintln!("epoch {epoch}: train loss {train_loss:.6}, val loss {val_loss:.6}, {secs:.1} s");
        println!("{epoch},{train_loss:.6},{val_loss:.6},{secs:.1}");
    }
    let net = model.quantise(args.k)?;
    let bytes = net.to_bytes();
    std::fs::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    // The quantised network against the float one on the validation positions.
    let check = &val[..val.len().min(1000)];
    let (inputs, _) = batch_tensors(args.arch, args.buckets, check, &dev, None)?;
    let float: Vec<f32> = model.forward(&inputs)?.flatten_all()?.to_vec1()?;
    let diff: f64 = check
        .iter()
        .zip(&float)
        .map(|(s, &y)| (net.evaluate_position(&s.pos) as f64 - y as f64 * args.k as f64).abs())
        .sum::<f64>()
        / float.len() as f64;
    eprintln!(
        "wrote {} ({} bytes); quantised minus float evaluation: {diff:.2} cp mean absolute, \
         {:.1} s in all",
        args.output.display(),
        bytes.len(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(extra: &[&str]) -> Args {
        let mut argv = vec!["skald-trainer", "--data", "d.txt", "--output", "n.nnue"];
        argv.extend_from_slice(extra);
        Args::parse_from(argv)
    }

    #[test]
    fn arguments_the_files_cannot_hold_are_refused() {
        assert!(check_args(&args(&[])).is_ok());
        assert!(check_args(&args(&["--arch", "patterns", "--hidden", "512"])).is_ok());
        for bad in [
            &["--hidden", "256"][..],
            &["--activation", "screlu"],
            &["--arch", "patterns", "--hidden", "100"],
            &["--arch", "patterns", "--hidden", "544"],
            &["--validation", "0"],
            &["--val-fraction", "1.5"],
            &["--buckets", "2"],
            &["--arch", "patterns", "--buckets", "0"],
            &["--arch", "patterns", "--buckets", "9"],
        ] {
            assert!(check_args(&args(bad)).is_err(), "{bad:?}");
        }
    }

    /// The quantised network evaluates as the float one, within a few centipawns, for both
    /// architectures and activations, and with output buckets (so the file's arithmetic is the
    /// trainer's).
    #[test]
    fn quantised_networks_match_the_float_ones() {
        let positions: Vec<Position> = [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1",
            "xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5",
            "ooo4/oxxo3/1xx4/7/3-3/5xx/o4xx o 3 9",
        ]
        .iter()
        .map(|f| Position::start().with_fen(f).unwrap())
        .collect();
        let samples: Vec<Sample> = positions
            .iter()
            .map(|&pos| Sample { pos, target: 0.5 })
            .collect();
        let dev = Device::Cpu;
        for extra in [
            &["--arch", "v1"][..],
            &["--arch", "patterns", "--hidden", "64"],
            &["--arch", "patterns", "--hidden", "64", "--buckets", "8"],
            &[
                "--arch",
                "patterns",
                "--hidden",
                "96",
                "--activation",
                "screlu",
            ],
        ] {
            let a = args(extra);
            let mut rng = rand::rngs::StdRng::seed_from_u64(3);
            let model = Model::new(&a, &mut rng, &dev).unwrap();
            model.clip().unwrap();
            let net = model.quantise(a.k).unwrap();
            let (inputs, _) = batch_tensors(a.arch, a.buckets, &samples, &dev, None).unwrap();
            let float: Vec<f32> = model
                .forward(&inputs)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1()
                .unwrap();
            for (s, y) in samples.iter().zip(float) {
                let q = net.evaluate_position(&s.pos);
                let f = y * a.k as f32;
                assert!(
                    (q as f32 - f).abs() < 10.0,
                    "{extra:?} {}: {q} vs {f}",
                    s.pos.fen()
                );
            }
        }
    }

    /// `--init` reads a written network back as the same weights: quantising the model built
    /// from the file gives the file's bytes again, with one output bucket and with four. A
    /// mismatched activation or bucket count is refused; a one-bucket network starts a
    /// bucketed model that evaluates as it does.
    #[test]
    fn a_network_read_back_quantises_to_the_same_file() {
        let dev = Device::Cpu;
        let path =
            std::env::temp_dir().join(format!("skald-trainer-init-{}.nnue", std::process::id()));
        for buckets in ["1", "4"] {
            let with = |activation: &str, buckets: &str| {
                args(&[
                    "--arch",
                    "patterns",
                    "--hidden",
                    "64",
                    "--activation",
                    activation,
                    "--buckets",
                    buckets,
                ])
            };
            let a = with("screlu", buckets);
            let mut rng = rand::rngs::StdRng::seed_from_u64(5);
            let model = Model::new(&a, &mut rng, &dev).unwrap();
            model.clip().unwrap();
            let bytes = model.quantise(a.k).unwrap().to_bytes();
            std::fs::write(&path, &bytes).unwrap();
            let back = Model::from_network(&a, &path, &dev).unwrap();
            assert_eq!(back.quantise(a.k).unwrap().to_bytes(), bytes);
            assert!(Model::from_network(&with("crelu", buckets), &path, &dev).is_err());
            if buckets == "1" {
                let wide = Model::from_network(&with("screlu", "8"), &path, &dev).unwrap();
                let (one, eight) = (back.quantise(a.k).unwrap(), wide.quantise(a.k).unwrap());
                for fen in [
                    "x5o/7/7/7/7/7/o5x x 0 1",
                    "xxxxxxx/ooooooo/xxxxxxx/7/7/7/o5x o 0 9",
                ] {
                    let pos = Position::start().with_fen(fen).unwrap();
                    assert_eq!(one.evaluate_position(&pos), eight.evaluate_position(&pos));
                }
            } else {
                assert!(Model::from_network(&with("screlu", "2"), &path, &dev).is_err());
            }
        }
        std::fs::remove_file(&path).unwrap();
    }

    /// A symmetry of the board maps the pattern features of a position to those of its image
    /// (computed from the image's FEN, not from permuted bitboards).
    #[test]
    fn pattern_features_follow_the_symmetries() {
        let pos = Position::start()
            .with_fen("xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5")
            .unwrap();
        let side = pos.side_to_move();
        for perm in symmetries() {
            let image = |bb: Bitboard| permute(bb, &perm);
            let mut board = [['1'; 7]; 7];
            for (bb, c) in [
                (image(pos.stones(side)), 'x'),
                (image(pos.stones(side.opponent())), 'o'),
                (image(pos.blocked()), '-'),
            ] {
                for sq in skald::ataxx::bitboard::Squares(bb) {
                    board[sq.index() / 7][sq.index() % 7] = c;
                }
            }
            let placement: Vec<String> = (0..7)
                .rev()
                .map(|r| board[r].iter().collect::<String>())
                .collect();
            let fen = format!("{} x 0 1", placement.join("/"));
            let fen = fen
                .replace("1111111", "7")
                .replace("111111", "6")
                .replace("11111", "5")
                .replace("1111", "4")
                .replace("111", "3")
                .replace("11", "2");
            let img = Position::start().with_fen(&fen).unwrap();
            let from_bits: Vec<usize> = nnue::pattern_features(
                image(pos.stones(side)),
                image(pos.stones(side.opponent())),
                image(pos.blocked()),
            )
            .collect();
            let from_fen: Vec<usize> = nnue::patterns_of(&img, img.side_to_move()).collect();
            assert_eq!(from_bits, from_fen, "{fen}");
        }
    }

    /// A binary datagen file and a text one with the same positions read to the same samples;
    /// a damaged binary file is an error naming the record.
    #[test]
    fn binary_and_text_data_read_alike() {
        use skald::ataxx::packed::{PackedPosition, PackedWriter, Wdl};
        let rows = [
            ("x5o/7/7/7/7/7/o5x x 0 1", 12, Wdl::Draw),
            ("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 7", -250, Wdl::Loss),
            ("xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5", 400, Wdl::Win),
        ];
        let dir = std::env::temp_dir();
        let id = std::process::id();
        let bin = dir.join(format!("skald-trainer-{id}.bin"));
        let txt = dir.join(format!("skald-trainer-{id}.txt"));
        let mut w = PackedWriter::new(Vec::new()).unwrap();
        let mut text = String::new();
        for (fen, score, result) in rows {
            let position = Position::start().with_fen(fen).unwrap();
            w.write(&PackedPosition {
                position,
                score,
                result,
            })
            .unwrap();
            text += &format!("{fen} | {score} | {:.1}\n", result.value());
        }
        let bytes = w.into_inner().unwrap();
        std::fs::write(&bin, &bytes).unwrap();
        std::fs::write(&txt, text).unwrap();
        let read = |path: &std::path::Path| {
            let argv = ["t", "--data", path.to_str().unwrap(), "--output", "n.nnue"];
            read_data(&Args::parse_from(argv))
        };
        let from_bin = read(&bin).unwrap();
        let from_txt = read(&txt).unwrap();
        assert_eq!(from_bin.len(), 3);
        for ((b, t), (fen, _, _)) in from_bin.iter().zip(&from_txt).zip(rows) {
            assert_eq!(b.pos.fen(), fen);
            assert_eq!(b.pos, t.pos);
            assert_eq!(b.target, t.target);
        }
        std::fs::write(&bin, &bytes[..bytes.len() - 3]).unwrap();
        let err = format!("{:#}", read(&bin).err().unwrap());
        let _ = std::fs::remove_file(&bin);
        let _ = std::fs::remove_file(&txt);
        assert!(err.contains("record 3"), "{err}");
    }

    /// Duplicates, also under a symmetry or with the colours swapped, merge into the first with
    /// the mean target; other positions stay in order.
    #[test]
    fn duplicates_merge_with_the_mean_target() {
        let syms = symmetries();
        let s = |fen: &str, target: f32| Sample {
            pos: Position::start().with_fen(fen).unwrap(),
            target,
        };
        let samples = vec![
            s("x5o/7/7/7/7/7/o5x x 0 1", 0.2),
            s("xx4o/7/7/7/7/7/o5x o 1 3", 0.5),
            // The start position with other clocks: a duplicate.
            s("x5o/7/7/7/7/7/o5x x 4 9", 0.4),
            // The second position mirrored left to right: a duplicate.
            s("o4xx/7/7/7/7/7/x5o o 0 1", 0.7),
            // The start position with the colours swapped and o to move: a duplicate.
            s("o5x/7/7/7/7/7/x5o o 0 1", 0.6),
            // x to move instead of o: the side to move's view differs, not a duplicate.
            s("xx4o/7/7/7/7/7/o5x x 1 3", 0.9),
        ];
        let (out, merged) = dedup(samples, &syms);
        assert_eq!(merged, 3);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].pos.fen(), "x5o/7/7/7/7/7/o5x x 0 1");
        assert!((out[0].target - 0.4).abs() < 1e-6, "{}", out[0].target);
        assert_eq!(out[1].pos.fen(), "xx4o/7/7/7/7/7/o5x o 1 3");
        assert!((out[1].target - 0.6).abs() < 1e-6, "{}", out[1].target);
        assert_eq!(out[2].target, 0.9);
    }

    /// Each symmetry is a permutation that keeps Chebyshev distances (so clones stay clones and
    /// jumps stay jumps), and the 8 are distinct.
    #[test]
    fn symmetries_are_distinct_isometries() {
        let syms = symmetries();
        let dist = |a: usize, b: usize| {
            let (ra, fa, rb, fb) = (a / 7, a % 7, b / 7, b % 7);
            ra.abs_diff(rb).max(fa.abs_diff(fb))
        };
        for (i, p) in syms.iter().enumerate() {
            let mut seen = [false; 49];
            for &img in p {
                seen[img] = true;
            }
            assert!(seen.iter().all(|&s| s));
            for a in 0..49 {
                for b in 0..49 {
                    assert_eq!(dist(a, b), dist(p[a], p[b]));
                }
            }
            for q in &syms[..i] {
                assert_ne!(p, q);
            }
        }
    }
}
