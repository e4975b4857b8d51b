//! `skald-trainer`: trains skald's networks from `skald datagen` output with candle, for both
//! game families (`--variant`):
//!
//! - **Ataxx** ([`skald::ataxx::nnue`]): `--arch v1` the square-input network (file format 1,
//!   147 inputs, 128 hidden, CReLU), `--arch patterns` the pattern-input network (format 2: 2×2
//!   windows and blocked squares, `--hidden` 32–512 in steps of 32, `--activation crelu` or
//!   `screlu`, `--buckets` 1–8 output buckets by the number of stones on the board);
//! - **tafl** ([`skald::tafl::nnue`]), `--variant copenhagen` etc.: `--arch pieces` (the
//!   default for tafl; format 3: attackers, defenders and king per square of the variant's
//!   board), `--hidden` 32–1024 in steps of 32, `--activation`, `--side-heads 2` (one output
//!   layer per side to move, the default) or `1` (one layer, the defenders' view), `--buckets`
//!   1–8 per head by the number of pieces.
//!
//! The data: `skald datagen` files of the variant, text (lines `FEN | score | result`, each FEN
//! read under the variant's rules) or binary ([`skald::ataxx::packed`], [`skald::tafl::packed`],
//! recognised by their headers; a tafl file's header must name the variant), mixed freely. Each
//! position, with its score in centipawns and result 1.0/0.5/0.0 (both from the side to move's
//! view), gives the target `t = λ × result + (1 − λ) × sigmoid(score / K)`; the network's output
//! `y` is a logit and the loss is the mean squared error between `sigmoid(y)` and `t` (for a tafl
//! network with one side-to-move head, both in the defenders' view). Adam, cosine learning-rate
//! decay from `--lr` to `--lr / 10`, weights clipped after every step so that the quantised
//! accumulator fits `i16`. A seeded `--validation` fraction of the positions is held out; the
//! losses and the speed are printed after each epoch, on standard output as CSV lines
//! `epoch,train_loss,val_loss,seconds,positions_per_second` (for plotting loss curves), on
//! standard error for people. The network is written quantised, with `scale = K`.
//!
//! **Symmetries**: each training position is shown, each epoch, in one of the board's
//! symmetries at random (unless `--no-augment`): the 8 of the Ataxx board, and for tafl those
//! under which the variant's rules are the same ([`skald::tafl::nnue::rules_symmetries`]: all 8
//! for every preset, Ashton's camps included). **Duplicates** are merged before the split
//! (unless `--no-dedup`): positions with the same pieces and side to move up to those
//! symmetries are one sample whose target is the mean of their targets (clocks ignored; Ataxx
//! compares the side to move's and the other side's stones, so colours are ignored too).
//!
//! **Speed**: the first layer reads sparse inputs (a position is the list of its active
//! features; `sparse.rs`), batches are made on `--loaders` other threads and handed over
//! through bounded channels (`loader.rs`), the arithmetic runs on `--threads` cores (all by
//! default) or, built with `--features cuda`, on a GPU (`--device cuda`).
//!
//! ```sh
//! cargo run --release -p skald-trainer -- --data data.txt --output net.nnue --epochs 10
//! cargo run --release -p skald-trainer -- --data data.txt --output p.nnue --arch patterns \
//!     --hidden 256 --activation screlu --validation 0.1 > losses.csv
//! cargo run --release -p skald-trainer -- --variant copenhagen --data cph0-1.bin \
//!     --data cph0-2.txt --output cph.nnue --hidden 256 --activation screlu
//! ```

mod data;
mod loader;
mod model;
mod net;
mod sparse;

use anyhow::{Context, Result, bail};
use candle_core::Device;
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use clap::{Parser, ValueEnum};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use skald::ataxx::nnue;
use skald::variant::Variant;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use data::{Sample, Targets};
use loader::{Loader, make_batch};
use model::{Model, Tensors};
use net::{Act, Arch, Spec, TaflSpec, TrainPos};

/// Command-line arguments.
#[derive(Parser, Debug)]
#[command(
    name = "skald-trainer",
    about = "Trains skald's NNUE networks (Ataxx and tafl) from `skald datagen` output."
)]
struct Args {
    /// A datagen output file (repeat for several; they are read in order).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    output: PathBuf,
    /// The game of the data and the network: ataxx, or a tafl variant (brandubh, tablut,
    /// tawlbwrdd, copenhagen, copenhagen13, ashton).
    #[arg(long, default_value = "ataxx", value_parser = parse_variant)]
    variant: Variant,
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
    /// The network: Ataxx `v1` square inputs (file format 1, the Ataxx default) or `patterns`
    /// 2×2 windows (format 2); tafl `pieces` (format 3, the tafl default).
    #[arg(long, value_enum)]
    arch: Option<Arch>,
    /// Hidden neurons per perspective: 128 for `v1`; a multiple of 32 up to 512 for
    /// `patterns`, up to 1024 for `pieces`.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// The hidden layer's activation (`v1`: crelu only).
    #[arg(long, value_enum, default_value_t = Act::Crelu)]
    activation: Act,
    /// Output buckets (`patterns`, `pieces`; 1 to 8): one output layer per range of the number
    /// of stones or pieces on the board.
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Tafl: 2 output layers, one per side to move (the side to move's view), or 1 (the
    /// defenders' view, the side to move unknown to the network).
    #[arg(long, default_value_t = 2)]
    side_heads: usize,
    /// Tafl: the squares the king can move to are inputs too (feature set 2), beside the pieces.
    #[arg(long)]
    king_reach: bool,
    /// Seed of the initial weights, the shuffle, the validation split and the symmetries.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this network (`--arch patterns` or `pieces`; its activation is used, its
    /// scale must equal `--k`, its hidden size must be at most `--hidden`) instead of random
    /// weights: the next generation fine-tuned on new data, usually with a smaller `--lr` and
    /// fewer `--epochs`. A smaller network is widened: its neurons come first, the new ones
    /// start silent (zero output weights), so the model begins evaluating as the file does.
    #[arg(long, value_name = "NNUE")]
    init: Option<PathBuf>,
    /// Do not show each training position in one of the board's symmetries at random.
    #[arg(long)]
    no_augment: bool,
    /// Keep duplicate positions (by default they are merged into one sample with the mean
    /// target; see the module docs).
    #[arg(long)]
    no_dedup: bool,
    /// Where the arithmetic runs: cpu, or cuda (GPU 0; needs a build with `--features cuda`).
    #[arg(long, value_enum, default_value_t = DeviceArg::Cpu)]
    device: DeviceArg,
    /// CPU threads for the arithmetic (0: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Threads that prepare batches ahead of the training step.
    #[arg(long, default_value_t = 1)]
    loaders: usize,
    /// The first layer by candle's gather and batched sum (the CUDA path) on the CPU too,
    /// instead of the custom sparse operation: for comparing the two.
    #[arg(long, hide = true)]
    gather: bool,
}

/// `--device`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
enum DeviceArg {
    /// The CPU, on `--threads` cores.
    Cpu,
    /// The first CUDA GPU (a build with `--features cuda`).
    Cuda,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse::<Variant>().map_err(|e| e.to_string())
}

/// Each training step allocates and frees tensors of up to tens of MB. By default glibc's
/// malloc maps such blocks from the kernel and unmaps them when freed, every step, and the page
/// faults took more time than the arithmetic (an epoch ran 2.3× slower, most of it system time,
/// with the dense inputs of before). Keeping freed memory in one heap (no mmap, one arena for
/// all threads, no trimming, 1 GB of padding when the heap grows) takes most of the system time
/// away; memory use stays at its peak. Other C libraries: no-op.
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

/// The architecture `args` ask for: `--arch`, else the family's default.
fn arch(args: &Args) -> Arch {
    match (args.arch, args.variant.is_tafl()) {
        (Some(a), _) => a,
        (None, false) => Arch::V1,
        (None, true) => Arch::Pieces,
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
    if args.loaders == 0 {
        bail!("--loaders must be 1 or more");
    }
    let arch = arch(args);
    let tafl = args.variant.is_tafl();
    if tafl != (arch == Arch::Pieces) {
        bail!(
            "--arch {arch:?} is for {}; --variant is {}",
            if arch == Arch::Pieces {
                "tafl"
            } else {
                "ataxx"
            },
            args.variant
        );
    }
    if !(1..=2).contains(&args.side_heads) {
        bail!("--side-heads must be 1 or 2");
    }
    if !tafl && args.king_reach {
        bail!("--king-reach is for tafl");
    }
    if !tafl && args.side_heads != 2 {
        bail!("--side-heads is for tafl (Ataxx networks see the board from the side to move)");
    }
    let max_hidden = match arch {
        Arch::Pieces => 1024,
        _ => nnue::MAX_HIDDEN,
    };
    match arch {
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
        Arch::Patterns | Arch::Pieces
            if args.hidden == 0
                || args.hidden > max_hidden
                || !args.hidden.is_multiple_of(nnue::HIDDEN_MULTIPLE) =>
        {
            bail!(
                "--hidden must be a multiple of {} from {} to {max_hidden}",
                nnue::HIDDEN_MULTIPLE,
                nnue::HIDDEN_MULTIPLE,
            )
        }
        _ => Ok(()),
    }
}

/// The network `args` describe.
fn spec_of(args: &Args) -> Result<Spec> {
    let arch = arch(args);
    Ok(Spec {
        arch,
        hidden: if arch == Arch::V1 {
            nnue::HIDDEN
        } else {
            args.hidden
        },
        activation: args.activation,
        buckets: args.buckets,
        side_heads: if arch == Arch::Pieces {
            args.side_heads
        } else {
            1
        },
        k: args.k,
        tafl: if arch == Arch::Pieces {
            let features = if args.king_reach {
                skald::tafl::nnue::FeatureSet::KingReach
            } else {
                skald::tafl::nnue::FeatureSet::Pieces
            };
            Some(TaflSpec::of(args.variant, features).context("a tafl variant")?)
        } else {
            None
        },
    })
}

/// The device `--device` names.
fn device(arg: DeviceArg) -> Result<Device> {
    match arg {
        DeviceArg::Cpu => Ok(Device::Cpu),
        DeviceArg::Cuda => Device::new_cuda(0).context(
            "--device cuda: no CUDA device (a build with `--features cuda` and a GPU are needed)",
        ),
    }
}

fn run(args: Args) -> Result<()> {
    check_args(&args)?;
    if args.threads > 0 {
        // Candle's CPU kernels read RAYON_NUM_THREADS, the sparse layer rayon's global pool.
        // SAFETY: set before any other thread of this process starts.
        unsafe { std::env::set_var("RAYON_NUM_THREADS", args.threads.to_string()) };
        rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global()
            .context("--threads")?;
    }
    let spec = spec_of(&args)?;
    let dev = device(args.device)?;
    sparse::force_gather(args.gather);
    let targets = Targets {
        lambda: args.lambda,
        k: args.k,
    };
    let t0 = Instant::now();
    if let Some(inputs) = spec.tafl_inputs() {
        let samples = data::read_tafl(&args.data, targets, inputs)?;
        train(&args, spec, samples, &dev, t0)
    } else {
        let samples = data::read_ataxx(&args.data, targets)?;
        train(&args, spec, samples, &dev, t0)
    }
}

/// Mean loss over `samples` (no gradient), in batches made on the loader threads.
fn eval_loss<P: TrainPos>(
    model: &Model,
    samples: &Arc<Vec<Sample<P>>>,
    args: &Args,
    dev: &Device,
) -> Result<f64> {
    let spec = Arc::new(model.spec.clone());
    let order = Arc::new((0..samples.len() as u32).collect::<Vec<_>>());
    let mut total = 0.0;
    for b in Loader::start(&spec, samples, order, args.batch, false, 0, 0, args.loaders) {
        let t = Tensors::new(&b, spec.perspectives(), dev)?;
        total += model.loss(&t)?.to_scalar::<f32>()? as f64 * b.n as f64;
    }
    Ok(total / samples.len().max(1) as f64)
}

/// Trains on `samples` (read since `t0`) and writes the network.
fn train<P: TrainPos>(
    args: &Args,
    spec: Spec,
    mut samples: Vec<Sample<P>>,
    dev: &Device,
    t0: Instant,
) -> Result<()> {
    if !args.no_dedup {
        let read = samples.len();
        let merged;
        (samples, merged) = data::dedup(samples, |p| p.key(&spec));
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
    let train = Arc::new(samples.split_off(n_val));
    let val = Arc::new(samples);
    eprintln!(
        "{} training positions, {} validation positions, read in {:.1} s",
        train.len(),
        val.len(),
        t0.elapsed().as_secs_f64()
    );
    let model = match &args.init {
        Some(path) => Model::from_network(&spec, path, &mut rng, dev)?,
        None => Model::new(&spec, &mut rng, dev)?,
    };
    let mut opt = AdamW::new(
        model.vars(),
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
    let val0 = eval_loss(&model, &val, args, dev)?;
    eprintln!("epoch 0: val loss {val0:.6} (predicting the mean target: {constant:.6})");
    println!("epoch,train_loss,val_loss,seconds,positions_per_second");
    println!("0,,{val0:.6},0.0,");
    let steps_per_epoch = train.len().div_ceil(args.batch);
    let total_steps = (steps_per_epoch * args.epochs).max(1);
    let mut step = 0;
    let t_train = Instant::now();
    let spec_arc = Arc::new(spec.clone());
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for epoch in 1..=args.epochs {
        order.shuffle(&mut rng);
        let t_epoch = Instant::now();
        let mut sum = 0.0;
        let loader = Loader::start(
            &spec_arc,
            &train,
            Arc::new(order.clone()),
            args.batch,
            !args.no_augment,
            args.seed,
            epoch,
            args.loaders,
        );
        for b in loader {
            let progress = step as f64 / total_steps as f64;
            let lr = args.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
            opt.set_learning_rate(lr);
            let t = Tensors::new(&b, spec.perspectives(), dev)?;
            let loss = model.loss(&t)?;
            opt.backward_step(&loss)?;
            model.clip()?;
            sum += loss.to_scalar::<f32>()? as f64 * b.n as f64;
            step += 1;
        }
        let epoch_secs = t_epoch.elapsed().as_secs_f64();
        let speed = train.len() as f64 / epoch_secs.max(1e-9);
        let (train_loss, val_loss) = (
            sum / train.len() as f64,
            eval_loss(&model, &val, args, dev)?,
        );
        let secs = t_train.elapsed().as_secs_f64();
        eprintln!(
            "epoch {epoch}: train loss {train_loss:.6}, val loss {val_loss:.6}, {secs:.1} s, \
             {speed:.0} positions/s"
        );
        println!("{epoch},{train_loss:.6},{val_loss:.6},{secs:.1},{speed:.0}");
    }
    let net = model.quantise()?;
    let bytes = net.to_bytes();
    std::fs::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    // The quantised network against the float one on the validation positions.
    let check: Vec<u32> = (0..val.len().min(1000) as u32).collect();
    let b = make_batch(&spec, &val, &check, None);
    let float: Vec<f32> = model
        .forward(&Tensors::new(&b, spec.perspectives(), dev)?)?
        .flatten_all()?
        .to_vec1()?;
    let diffs: Vec<f64> = check
        .iter()
        .zip(&float)
        .zip(&b.signs)
        .map(|((&i, &y), &sign)| {
            let pos = &val[i as usize].pos;
            (pos.quantised_eval(&net) as f64 - (sign * y) as f64 * args.k as f64).abs()
        })
        .collect();
    let diff = diffs.iter().sum::<f64>() / diffs.len() as f64;
    let (worst, at) = diffs
        .iter()
        .zip(&check)
        .fold((0.0, 0), |w, (&d, &i)| if d > w.0 { (d, i) } else { w });
    eprintln!(
        "wrote {} ({} bytes); quantised minus float evaluation: {diff:.2} cp mean absolute, \
         {worst:.1} cp at most ({}); {:.1} s in all",
        args.output.display(),
        bytes.len(),
        val[at as usize].pos.describe(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests;
