//! `skald-trainer`: trains skald's Ataxx network ([`skald::ataxx::nnue`], architecture and file
//! format in its docs) from `skald datagen` output, on the CPU with candle.
//!
//! Each line `FEN | score | result` (score in centipawns and result 1.0/0.5/0.0, both from the
//! side to move's view) gives the target
//! `t = λ × result + (1 − λ) × sigmoid(score / K)`; the network's output `y` is a logit and the
//! loss is the mean squared error between `sigmoid(y)` and `t`. Adam, cosine learning-rate decay
//! from `--lr` to `--lr / 10`, weights clipped to ±1.98 after every step (so the quantised
//! accumulator fits `i16`). A seeded `--val-fraction` of the positions is held out; the loss on
//! it is printed before training and after each epoch. The network is written quantised, with
//! `scale = K`, so `skald::ataxx::nnue::Network::evaluate` gives centipawns on the data's scale.
//!
//! ```sh
//! cargo run --release -p skald-trainer -- --data data.txt --output net.nnue --epochs 10
//! ```

use anyhow::{Context, Result, bail};
use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use clap::Parser;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use skald::ataxx::Position;
use skald::ataxx::nnue::{self, HIDDEN, NUM_FEATURES, QA, QB};
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
    #[arg(long, default_value_t = 0.05)]
    val_fraction: f64,
    /// Seed of the initial weights, the shuffle and the validation split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not show each training position in one of the board's 8 symmetries at random.
    #[arg(long)]
    no_augment: bool,
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

/// Reads datagen lines; errors name the file and line.
fn read_data(args: &Args) -> Result<Vec<Sample>> {
    let mut out = Vec::new();
    let start = Position::start();
    for path in &args.data {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
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
            let from_score = sigmoid(score as f64 / args.k as f64) as f32;
            out.push(Sample {
                pos,
                target: args.lambda * result + (1.0 - args.lambda) * from_score,
            });
        }
    }
    Ok(out)
}

/// The network's parameters as candle variables (float, unquantised).
struct Model {
    w1: Var,
    b1: Var,
    w2: Var,
    b2: Var,
}

/// Inputs of a batch: dense 0/1 features of the side to move's and the other perspective,
/// and the targets.
/// With `symmetry`, each position is shown as its image under a symmetry picked by `symmetry`.
fn batch_tensors(
    samples: &[Sample],
    dev: &Device,
    mut symmetry: Option<&mut dyn FnMut() -> &'static [usize; 49]>,
) -> Result<(Tensor, Tensor, Tensor)> {
    let n = samples.len();
    let mut us = vec![0f32; n * NUM_FEATURES];
    let mut them = vec![0f32; n * NUM_FEATURES];
    const IDENTITY: [usize; 49] = {
        let mut id = [0; 49];
        let mut i = 0;
        while i < 49 {
            id[i] = i;
            i += 1;
        }
        id
    };
    for (i, s) in samples.iter().enumerate() {
        let side = s.pos.side_to_move();
        let perm = match symmetry.as_mut() {
            Some(pick) => pick(),
            None => &IDENTITY,
        };
        let image = |f: usize| (f / 49) * 49 + perm[f % 49];
        for f in nnue::features(&s.pos, side) {
            us[i * NUM_FEATURES + image(f)] = 1.0;
        }
        for f in nnue::features(&s.pos, side.opponent()) {
            them[i * NUM_FEATURES + image(f)] = 1.0;
        }
    }
    let targets: Vec<f32> = samples.iter().map(|s| s.target).collect();
    Ok((
        Tensor::from_vec(us, (n, NUM_FEATURES), dev)?,
        Tensor::from_vec(them, (n, NUM_FEATURES), dev)?,
        Tensor::from_vec(targets, (n, 1), dev)?,
    ))
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

impl Model {
    /// Random first-layer weights (σ 0.15: about 20–49 active features give hidden values of
    /// σ ≈ 1), random output weights (σ 1/√(2·HIDDEN)), zero biases.
    fn new(rng: &mut rand::rngs::StdRng, dev: &Device) -> Result<Model> {
        let w1 = Tensor::from_vec(
            normal(rng, NUM_FEATURES * HIDDEN, 0.15),
            (NUM_FEATURES, HIDDEN),
            dev,
        )?;
        let w2 = Tensor::from_vec(
            normal(rng, 2 * HIDDEN, 1.0 / (2.0 * HIDDEN as f32).sqrt()),
            (2 * HIDDEN, 1),
            dev,
        )?;
        Ok(Model {
            w1: Var::from_tensor(&w1)?,
            b1: Var::zeros(HIDDEN, DType::F32, dev)?,
            w2: Var::from_tensor(&w2)?,
            b2: Var::zeros(1, DType::F32, dev)?,
        })
    }

    /// The output logits `(n, 1)`.
    fn forward(&self, us: &Tensor, them: &Tensor) -> Result<Tensor> {
        let hidden = |x: &Tensor| -> Result<Tensor> {
            Ok(x.matmul(self.w1.as_tensor())?
                .broadcast_add(self.b1.as_tensor())?
                .clamp(0f32, 1f32)?)
        };
        let h = Tensor::cat(&[hidden(us)?, hidden(them)?], 1)?;
        Ok(h.matmul(self.w2.as_tensor())?
            .broadcast_add(self.b2.as_tensor())?)
    }

    fn loss(&self, us: &Tensor, them: &Tensor, targets: &Tensor) -> Result<Tensor> {
        let pred = candle_nn::ops::sigmoid(&self.forward(us, them)?)?;
        Ok(pred.sub(targets)?.sqr()?.mean_all()?)
    }

    /// Mean loss over `samples` (no gradient), in batches.
    fn eval_loss(&self, samples: &[Sample], batch: usize, dev: &Device) -> Result<f64> {
        let mut total = 0.0;
        for chunk in samples.chunks(batch) {
            let (us, them, t) = batch_tensors(chunk, dev, None)?;
            total += self.loss(&us, &them, &t)?.to_scalar::<f32>()? as f64 * chunk.len() as f64;
        }
        Ok(total / samples.len().max(1) as f64)
    }

    /// Clips the weights to ±1.98 (the quantised range, see the nnue module docs).
    fn clip(&self) -> Result<()> {
        for v in [&self.w1, &self.b1, &self.w2] {
            v.set(&v.as_tensor().clamp(-1.98f32, 1.98f32)?)?;
        }
        Ok(())
    }

    fn values(v: &Var) -> Result<Vec<f32>> {
        Ok(v.as_tensor().flatten_all()?.to_vec1::<f32>()?)
    }

    /// The quantised network, scale `k`.
    fn quantise(&self, k: i32) -> Result<nnue::Network> {
        let q16 = |v: &Var, q: i32| -> Result<Vec<i16>> {
            Ok(Model::values(v)?
                .iter()
                .map(|&w| {
                    (w * q as f32)
                        .round()
                        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect())
        };
        let w1 = q16(&self.w1, QA)?;
        let b1 = q16(&self.b1, QA)?;
        let w2 = q16(&self.w2, QB)?;
        let b2 = (Model::values(&self.b2)?[0] * (QA * QB) as f32).round() as i32;
        nnue::Network::from_parts(&w1, &b1, &w2, b2, k)
            .context("the network's sizes do not match the nnue module")
    }
}

fn main() {
    if let Err(e) = run(Args::parse()) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(args: Args) -> Result<()> {
    if args.k < 1 || !(0.0..=1.0).contains(&args.lambda) || args.batch == 0 {
        bail!("--k must be ≥ 1, --lambda within 0..1 and --batch ≥ 1");
    }
    let dev = Device::Cpu;
    static SYMS: std::sync::LazyLock<[[usize; 49]; 8]> = std::sync::LazyLock::new(symmetries);
    let t0 = Instant::now();
    let mut samples = read_data(&args)?;
    if samples.len() < 2 {
        bail!("only {} positions in the data", samples.len());
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    samples.shuffle(&mut rng);
    let n_val = ((samples.len() as f64 * args.val_fraction) as usize).clamp(1, samples.len() - 1);
    let mut train = samples.split_off(n_val);
    let val = samples;
    eprintln!(
        "{} training positions, {} validation positions, read in {:.1} s",
        train.len(),
        val.len(),
        t0.elapsed().as_secs_f64()
    );
    let model = Model::new(&mut rng, &dev)?;
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
    eprintln!(
        "epoch 0: val loss {:.6} (predicting the mean target: {constant:.6})",
        model.eval_loss(&val, args.batch, &dev)?
    );
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
            let (us, them, t) = batch_tensors(
                chunk,
                &dev,
                (!args.no_augment).then_some(&mut pick as &mut dyn FnMut() -> _),
            )?;
            let loss = model.loss(&us, &them, &t)?;
            opt.backward_step(&loss)?;
            model.clip()?;
            sum += loss.to_scalar::<f32>()? as f64 * chunk.len() as f64;
            step += 1;
        }
        eprintln!(
            "epoch {epoch}: train loss {:.6}, val loss {:.6}, {:.1} s",
            sum / train.len() as f64,
            model.eval_loss(&val, args.batch, &dev)?,
            t_train.elapsed().as_secs_f64()
        );
    }
    let net = model.quantise(args.k)?;
    std::fs::write(&args.output, net.to_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    // The quantised network against the float one on the validation positions.
    let (us, them, _) = batch_tensors(&val[..val.len().min(1000)], &dev, None)?;
    let float: Vec<f32> = model.forward(&us, &them)?.flatten_all()?.to_vec1()?;
    let diff: f64 = val
        .iter()
        .zip(&float)
        .map(|(s, &y)| (net.evaluate_position(&s.pos) as f64 - y as f64 * args.k as f64).abs())
        .sum::<f64>()
        / float.len() as f64;
    eprintln!(
        "wrote {} ({} bytes); quantised minus float evaluation: {diff:.2} cp mean absolute, \
         {:.1} s in all",
        args.output.display(),
        nnue::FILE_LEN,
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::symmetries;

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
