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
    /// Start from this network (`--arch patterns` or `pieces`; its hidden size and activation
    /// are used, its scale must equal `--k`) instead of random weights: the next generation
    /// fine-tuned on new data, usually with a smaller `--lr` and fewer `--epochs`.
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
    if spec.tafl.is_some() {
        let samples = data::read_tafl(&args.data, targets, &spec)?;
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
        Some(path) => Model::from_network(&spec, path, dev)?,
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
mod tests {
    use super::*;
    use data::TaflPos;
    use net::{ATAXX_SYMS, Quantised, permute};
    use skald::ataxx::{Bitboard, Position};
    use skald::game::{Game, Side, Wdl};
    use skald::tafl::packed::{TaflHeader, TaflRecord, TaflWriter};

    fn args(extra: &[&str]) -> Args {
        let mut argv = vec!["skald-trainer", "--data", "d.txt", "--output", "n.nnue"];
        argv.extend_from_slice(extra);
        Args::parse_from(argv)
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("skald-trainer-{}-{name}", std::process::id()))
    }

    #[test]
    fn arguments_the_files_cannot_hold_are_refused() {
        assert!(check_args(&args(&[])).is_ok());
        assert!(check_args(&args(&["--arch", "patterns", "--hidden", "512"])).is_ok());
        assert!(check_args(&args(&["--variant", "copenhagen", "--hidden", "1024"])).is_ok());
        assert!(check_args(&args(&["--variant", "brandubh", "--side-heads", "1"])).is_ok());
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
            &["--arch", "pieces"],
            &["--variant", "copenhagen", "--arch", "patterns"],
            &["--variant", "copenhagen", "--hidden", "1056"],
            &["--variant", "copenhagen", "--side-heads", "3"],
            &["--side-heads", "1"],
            &["--loaders", "0"],
        ] {
            assert!(check_args(&args(bad)).is_err(), "{bad:?}");
        }
    }

    /// The float model's output for `samples` (in the side to move's view) against the
    /// quantised network's evaluation.
    fn assert_quantised_matches<P: TrainPos>(model: &Model, samples: &[Sample<P>], what: &str) {
        let spec = &model.spec;
        let net = model.quantise().unwrap();
        let order: Vec<u32> = (0..samples.len() as u32).collect();
        let b = make_batch(spec, samples, &order, None);
        let t = Tensors::new(&b, spec.perspectives(), &Device::Cpu).unwrap();
        let float: Vec<f32> = model
            .forward(&t)
            .unwrap()
            .flatten_all()
            .unwrap()
            .to_vec1()
            .unwrap();
        for ((s, y), sign) in samples.iter().zip(float).zip(&b.signs) {
            let q = s.pos.quantised_eval(&net);
            let f = sign * y * spec.k as f32;
            assert!(
                (q as f32 - f).abs() < 10.0,
                "{what} {}: {q} vs {f}",
                s.pos.describe()
            );
        }
    }

    /// The quantised network evaluates as the float one, within a few centipawns, for every
    /// architecture, activation, heads and buckets (so the file's arithmetic is the trainer's).
    #[test]
    fn quantised_networks_match_the_float_ones() {
        let samples: Vec<Sample<Position>> = [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1",
            "xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5",
            "ooo4/oxxo3/1xx4/7/3-3/5xx/o4xx o 3 9",
        ]
        .iter()
        .map(|f| Sample {
            pos: Position::start().with_fen(f).unwrap(),
            target: 0.5,
        })
        .collect();
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
            let spec = spec_of(&a).unwrap();
            let mut rng = rand::rngs::StdRng::seed_from_u64(3);
            let model = Model::new(&spec, &mut rng, &Device::Cpu).unwrap();
            model.clip().unwrap();
            assert_quantised_matches(&model, &samples, &format!("{extra:?}"));
        }
        let tafl = tafl_samples();
        for extra in [
            &["--hidden", "64"][..],
            &["--hidden", "64", "--side-heads", "1"],
            &["--hidden", "96", "--activation", "screlu", "--buckets", "4"],
            &["--hidden", "32", "--side-heads", "1", "--buckets", "2"],
            &["--hidden", "64", "--king-reach"],
            &[
                "--hidden",
                "32",
                "--king-reach",
                "--activation",
                "screlu",
                "--side-heads",
                "1",
            ],
        ] {
            let mut argv = vec!["--variant", "copenhagen"];
            argv.extend_from_slice(extra);
            let a = args(&argv);
            let spec = spec_of(&a).unwrap();
            let mut rng = rand::rngs::StdRng::seed_from_u64(4);
            let model = Model::new(&spec, &mut rng, &Device::Cpu).unwrap();
            model.clip().unwrap();
            assert_quantised_matches(&model, &tafl, &format!("{extra:?}"));
        }
    }

    /// A few Copenhagen positions, either side to move.
    fn tafl_samples() -> Vec<Sample<TaflPos>> {
        [
            "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
            "4ttt2t1/1t9/1t9/t2t1T1t2t/t3T1T1T1t/t2TTKTT2t/tT3T4t/t5T3t/11/4t1T4/3ttttt3 a 14 8",
            "3ttttt3/1t8t/6T4/t5T4/t3TT1T2t/tt1TTK1T1tt/t3TTT1T1t/5t4t/5tt4/11/3ttt1t3 d 14 8",
            "3tt6/1t9/6T4/t9t/t4T4t/t1K3T3t/t7t2/5t4t/5tt4/11/3ttt1t3 d 3 30",
        ]
        .iter()
        .map(|fen| {
            let (board, side, reach) =
                skald::tafl::packed::reach_of_fen("copenhagen", fen).unwrap();
            Sample {
                pos: TaflPos { board, side, reach },
                target: 0.5,
            }
        })
        .collect()
    }

    /// `--init` reads a written network back as the same weights: quantising the model built
    /// from the file gives the file's bytes again (Ataxx patterns with one and four buckets,
    /// tafl with one and two side-to-move heads). A mismatched activation or head count is
    /// refused; a one-bucket network starts a bucketed model, and a one-head tafl network a
    /// two-head one, that evaluate as it does.
    #[test]
    fn a_network_read_back_quantises_to_the_same_file() {
        let dev = Device::Cpu;
        let path = temp("init.nnue");
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
            let spec = spec_of(&with("screlu", buckets)).unwrap();
            let mut rng = rand::rngs::StdRng::seed_from_u64(5);
            let model = Model::new(&spec, &mut rng, &dev).unwrap();
            model.clip().unwrap();
            let bytes = model.quantise().unwrap().to_bytes();
            std::fs::write(&path, &bytes).unwrap();
            let back = Model::from_network(&spec, &path, &dev).unwrap();
            assert_eq!(back.quantise().unwrap().to_bytes(), bytes);
            let crelu = spec_of(&with("crelu", buckets)).unwrap();
            assert!(Model::from_network(&crelu, &path, &dev).is_err());
            if buckets == "1" {
                let eight = spec_of(&with("screlu", "8")).unwrap();
                let wide = Model::from_network(&eight, &path, &dev).unwrap();
                let (one, eight) = (back.quantise().unwrap(), wide.quantise().unwrap());
                for fen in [
                    "x5o/7/7/7/7/7/o5x x 0 1",
                    "xxxxxxx/ooooooo/xxxxxxx/7/7/7/o5x o 0 9",
                ] {
                    let pos = Position::start().with_fen(fen).unwrap();
                    assert_eq!(pos.quantised_eval(&one), pos.quantised_eval(&eight));
                }
            } else {
                let two = spec_of(&with("screlu", "2")).unwrap();
                assert!(Model::from_network(&two, &path, &dev).is_err());
            }
        }
        let tafl = |heads: &str, buckets: &str| {
            spec_of(&args(&[
                "--variant",
                "copenhagen",
                "--hidden",
                "32",
                "--side-heads",
                heads,
                "--buckets",
                buckets,
            ]))
            .unwrap()
        };
        for heads in ["1", "2"] {
            let spec = tafl(heads, "1");
            let mut rng = rand::rngs::StdRng::seed_from_u64(6);
            let model = Model::new(&spec, &mut rng, &dev).unwrap();
            model.clip().unwrap();
            let bytes = model.quantise().unwrap().to_bytes();
            std::fs::write(&path, &bytes).unwrap();
            let back = Model::from_network(&spec, &path, &dev).unwrap();
            assert_eq!(back.quantise().unwrap().to_bytes(), bytes);
            // More heads and buckets from fewer evaluate as the file.
            let wider = Model::from_network(&tafl("2", "4"), &path, &dev).unwrap();
            let (a, b) = (back.quantise().unwrap(), wider.quantise().unwrap());
            for s in tafl_samples() {
                assert_eq!(s.pos.quantised_eval(&a), s.pos.quantised_eval(&b));
            }
            // Another board.
            let brandubh = spec_of(&args(&["--variant", "brandubh", "--hidden", "32"])).unwrap();
            let err = Model::from_network(&brandubh, &path, &dev).err().unwrap();
            assert!(format!("{err:#}").contains("not 7x7"), "{err:#}");
        }
        let two_heads_file = tafl("2", "1");
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let model = Model::new(&two_heads_file, &mut rng, &dev).unwrap();
        std::fs::write(&path, model.quantise().unwrap().to_bytes()).unwrap();
        assert!(Model::from_network(&tafl("1", "1"), &path, &dev).is_err());
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
        for perm in ATAXX_SYMS.iter() {
            let image = |bb: Bitboard| permute(bb, perm);
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

    fn targets() -> Targets {
        Targets {
            lambda: 0.3,
            k: 1000,
        }
    }

    /// A binary datagen file and a text one with the same positions read to the same samples;
    /// a damaged binary file is an error naming the record.
    #[test]
    fn binary_and_text_data_read_alike() {
        use skald::ataxx::packed::{PackedPosition, PackedWriter};
        let rows = [
            ("x5o/7/7/7/7/7/o5x x 0 1", 12, Wdl::Draw),
            ("x5o/7/2-1-2/7/2-1-2/7/o5x o 3 7", -250, Wdl::Loss),
            ("xx4o/xxo4/2-1-2/3x3/2-1-2/7/o4ox x 0 5", 400, Wdl::Win),
        ];
        let (bin, txt) = (temp("a.bin"), temp("a.txt"));
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
        let from_bin = data::read_ataxx(std::slice::from_ref(&bin), targets()).unwrap();
        let from_txt = data::read_ataxx(std::slice::from_ref(&txt), targets()).unwrap();
        assert_eq!(from_bin.len(), 3);
        for ((b, t), (fen, _, _)) in from_bin.iter().zip(&from_txt).zip(rows) {
            assert_eq!(b.pos.fen(), fen);
            assert_eq!(b.pos, t.pos);
            assert_eq!(b.target, t.target);
        }
        std::fs::write(&bin, &bytes[..bytes.len() - 3]).unwrap();
        let err = format!(
            "{:#}",
            data::read_ataxx(std::slice::from_ref(&bin), targets())
                .err()
                .unwrap()
        );
        let _ = std::fs::remove_file(&bin);
        let _ = std::fs::remove_file(&txt);
        assert!(err.contains("record 3"), "{err}");
    }

    /// Tafl data: a binary file and a text file of the same positions read alike; a file of
    /// another variant, and Ataxx data, are refused; with one side-to-move head the targets are
    /// the defenders' view.
    #[test]
    fn tafl_binary_and_text_data_read_alike() {
        let rows = [
            (
                "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
                -40,
                Wdl::Draw,
            ),
            (
                "3ttttt3/1t8t/6T4/t5T4/t3TT1T2t/tt1TTK1T1tt/t3TTT1T1t/5t4t/5tt4/11/3ttt1t3 d 14 8",
                250,
                Wdl::Win,
            ),
        ];
        let (bin, txt) = (temp("t.bin"), temp("t.txt"));
        let header = TaflHeader {
            size: 11,
            variant: "copenhagen".into(),
        };
        let mut w = TaflWriter::new(Vec::new(), &header).unwrap();
        let mut text = String::new();
        for (fen, score, result) in rows {
            let rec = skald::tafl::packed::record_of_fen("copenhagen", fen, score, result).unwrap();
            w.write(&rec).unwrap();
            text += &format!("{fen} | {score} | {:.1}\n", result.value());
        }
        std::fs::write(&bin, w.into_inner().unwrap()).unwrap();
        std::fs::write(&txt, text).unwrap();
        for heads in ["2", "1"] {
            let spec = spec_of(&args(&["--variant", "copenhagen", "--side-heads", heads])).unwrap();
            // With the king's reach, both files give it, and it is the library's.
            let reach_spec = spec_of(&args(&["--variant", "copenhagen", "--king-reach"])).unwrap();
            let rb = data::read_tafl(std::slice::from_ref(&bin), targets(), &reach_spec).unwrap();
            let rt = data::read_tafl(std::slice::from_ref(&txt), targets(), &reach_spec).unwrap();
            for ((b, t), (fen, _, _)) in rb.iter().zip(&rt).zip(rows) {
                assert_eq!(b.pos, t.pos);
                let (_, _, reach) = skald::tafl::packed::reach_of_fen("copenhagen", fen).unwrap();
                assert_eq!(b.pos.reach, reach);
            }
            // The king of the start position cannot move; the other one can.
            assert_eq!(rb[0].pos.reach, [0; 3]);
            assert_ne!(rb[1].pos.reach, [0; 3]);
            let from_bin = data::read_tafl(std::slice::from_ref(&bin), targets(), &spec).unwrap();
            let from_txt = data::read_tafl(std::slice::from_ref(&txt), targets(), &spec).unwrap();
            assert_eq!(from_bin.len(), 2);
            for (b, t) in from_bin.iter().zip(&from_txt) {
                assert_eq!(b.pos, t.pos);
                assert_eq!(b.target, t.target);
            }
            let stm = targets().target(-40, 0.5, false);
            let first = if heads == "1" { 1.0 - stm } else { stm };
            assert!((from_bin[0].target - first).abs() < 1e-6);
            assert_eq!(from_bin[1].pos.side, Side::Second);
            assert_eq!(from_bin[1].target, targets().target(250, 1.0, false));
        }
        let tablut = spec_of(&args(&["--variant", "tablut"])).unwrap();
        let err = data::read_tafl(std::slice::from_ref(&bin), targets(), &tablut)
            .err()
            .unwrap();
        assert!(
            format!("{err:#}").contains("positions of copenhagen"),
            "{err:#}"
        );
        let err = data::read_tafl(std::slice::from_ref(&txt), targets(), &tablut)
            .err()
            .unwrap();
        assert!(format!("{err:#}").contains(":1:"), "{err:#}");
        let err = data::read_ataxx(std::slice::from_ref(&bin), targets())
            .err()
            .unwrap();
        assert!(format!("{err:#}").contains("tafl data file"), "{err:#}");
        let _ = std::fs::remove_file(&bin);
        let _ = std::fs::remove_file(&txt);
    }

    /// Duplicates, also under a symmetry or with the colours swapped, merge into the first with
    /// the mean target; other positions stay in order.
    #[test]
    fn duplicates_merge_with_the_mean_target() {
        let spec = spec_of(&args(&[])).unwrap();
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
        let (out, merged) = data::dedup(samples, |p| p.key(&spec));
        assert_eq!(merged, 3);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].pos.fen(), "x5o/7/7/7/7/7/o5x x 0 1");
        assert!((out[0].target - 0.4).abs() < 1e-6, "{}", out[0].target);
        assert_eq!(out[1].pos.fen(), "xx4o/7/7/7/7/7/o5x o 1 3");
        assert!((out[1].target - 0.6).abs() < 1e-6, "{}", out[1].target);
        assert_eq!(out[2].target, 0.9);
    }

    /// Tafl duplicates up to the board's symmetries (a position and its mirror image), with
    /// the same side to move, merge; the other side to move does not.
    #[test]
    fn tafl_duplicates_merge_up_to_symmetry() {
        let spec = spec_of(&args(&["--variant", "copenhagen"])).unwrap();
        let base = tafl_samples()[1];
        let perms = &spec.tafl.as_ref().unwrap().perms;
        assert_eq!(perms.len(), 8);
        let mirrored = Sample {
            pos: TaflPos {
                board: base.pos.board.permuted(&perms[5]),
                ..base.pos
            },
            target: 0.9,
        };
        let other_side = Sample {
            pos: TaflPos {
                side: Side::Second,
                ..base.pos
            },
            target: 0.1,
        };
        let start = Sample {
            target: 0.2,
            ..tafl_samples()[0]
        };
        let (out, merged) = data::dedup(vec![start, base, mirrored, other_side], |p| p.key(&spec));
        assert_eq!(merged, 1);
        assert_eq!(out.len(), 3);
        assert!((out[1].target - 0.7).abs() < 1e-6);
        assert_eq!(out[2].target, 0.1);
    }

    /// Each Ataxx symmetry is a permutation that keeps Chebyshev distances (so clones stay
    /// clones and jumps stay jumps), and the 8 are distinct.
    #[test]
    fn symmetries_are_distinct_isometries() {
        let syms = net::ataxx_symmetries();
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

    /// The loader hands over the same batches, in the same order, for any number of threads.
    #[test]
    fn batches_do_not_depend_on_the_loader_threads() {
        let spec = Arc::new(spec_of(&args(&["--variant", "copenhagen"])).unwrap());
        let samples: Vec<Sample<TaflPos>> = (0..10).flat_map(|_| tafl_samples()).collect();
        let samples = Arc::new(samples);
        let order = Arc::new((0..samples.len() as u32).rev().collect::<Vec<_>>());
        let collect = |threads| {
            Loader::start(&spec, &samples, order.clone(), 7, true, 9, 2, threads)
                .map(|b| (b.n, b.slots, b.idx[0].clone(), b.heads, b.targets))
                .collect::<Vec<_>>()
        };
        let one = collect(1);
        assert_eq!(one.len(), 6);
        assert_eq!(one, collect(3));
        // Augmented batches differ from the plain ones somewhere.
        let plain = make_batch(&spec, &samples, &order[..7], None);
        assert_ne!(plain.idx[0], one[0].2);
    }

    /// A whole run on a few hundred tafl positions of a binary file: it trains and writes a
    /// network the engine reads for Copenhagen 11×11.
    #[test]
    fn a_small_tafl_run_writes_a_network_the_engine_reads() {
        let (data, out) = (temp("run.bin"), temp("run.nnue"));
        let header = TaflHeader {
            size: 11,
            variant: "copenhagen".into(),
        };
        let mut w = TaflWriter::new(Vec::new(), &header).unwrap();
        // Random games from the start: the defenders "win" the games where they have more
        // pieces left, so that there is something to learn.
        let mut rng = skald::rng::SeededRng::new(3);
        let mut moves = Vec::new();
        let mut count = 0;
        for _ in 0..12 {
            let mut pos = skald::tafl::copenhagen();
            let mut seen = Vec::new();
            for _ in 0..40 {
                if pos.outcome().is_decided() {
                    break;
                }
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len() as u64) as usize]);
                if !pos.outcome().is_decided() {
                    seen.push(pos);
                }
            }
            for p in seen {
                let defenders =
                    p.defenders().count_ones() as i32 * 2 - p.attackers().count_ones() as i32;
                let score = if p.side_to_move() == Side::Second {
                    defenders * 30
                } else {
                    -defenders * 30
                };
                let result = if score > 0 { Wdl::Win } else { Wdl::Loss };
                w.write(&TaflRecord::from_position(&p, score as i16, result).unwrap())
                    .unwrap();
                count += 1;
            }
        }
        assert!(count > 300, "{count}");
        std::fs::write(&data, w.into_inner().unwrap()).unwrap();
        let a = Args::parse_from([
            "t",
            "--variant",
            "copenhagen",
            "--data",
            data.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "--hidden",
            "32",
            "--epochs",
            "3",
            "--batch",
            "64",
            "--lr",
            "0.01",
            "--validation",
            "0.2",
            "--loaders",
            "2",
        ]);
        run(a).unwrap();
        let net = skald::tafl::nnue::TaflNetwork::load(&out).unwrap();
        assert_eq!((net.board(), net.variant()), (11, "copenhagen"));
        let choice = skald::eval::EvalChoice::from_eval_file(
            out.to_str().unwrap(),
            skald::variant::network_loader(),
        )
        .unwrap();
        let start = skald::tafl::copenhagen();
        let eval = start.evaluator(&choice);
        assert!(eval.unfit().is_none());
        let _ = Quantised::Tafl(net);
        let _ = std::fs::remove_file(&data);
        let _ = std::fs::remove_file(&out);
    }
}
