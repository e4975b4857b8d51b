//! Texel tuning of the tafl evaluation's weights ([`skald::tafl::EvalWeights`]) from game
//! results: fits the weights that minimise the mean squared error between each position's game
//! result and `sigmoid(K × eval + bias)`, `K` fitted first with the current weights.
//!
//! Two additions to the textbook method: `bias` (fitted, not part of the evaluation) absorbs the
//! side that wins more often overall (brandubh's defenders win most games), which the evaluation
//! must not learn from the features (its start position is 0 by the `balance` term, and a draw
//! is worth the start); and `K` is fitted again with the weights, the attacker soldier's weight
//! held at 100, so that the tuned weights stay in centipawns (one attacker = 100) and keep their
//! scale against the fixed tactical weights and the search's margins.
//!
//! ```sh
//! skald datagen --variant brandubh --games 3000 --nodes 3000 --plies 6 --threads 2 \
//!     --output brandubh.txt
//! cargo run --release --example texel -- brandubh brandubh.txt [iterations]
//! ```
//!
//! The data are `skald datagen` lines (`FEN | score | result`, side to move's view). The
//! evaluation is linear in the weights (each feature's count minus its count in the start
//! position, the `balance` term), so the loss is smooth and the fit is a full-batch gradient
//! descent (Adam) on the features, computed once. The large tactical weights (`decided`,
//! `open_line_win`, `open_lines_double`) stay fixed, and positions the search scored beyond
//! ±1500 cp (tactics the static evaluation does not see) are left out; with `--quiet`, positions
//! where the side to move has a tactical move (a capture, a king move to an escape: what
//! quiescence search resolves before it trusts the evaluation) are left out instead, at any
//! score below 5000 cp, so that threats the side to move must answer stay in the data. The last
//! tenth of the file (whole games at its end) is held out and its error printed for the current
//! and the tuned weights. Prints the tuned set as a Rust `EvalWeights` literal. Errors (missing file, a
//! bad line) are one line on standard error and exit status 1.

use skald::game::Game;
use skald::tafl::{
    Bitboard, EvalWeights, FEATURE_COUNT, FEATURE_NAMES, Position, Rules, ashton_rules,
    brandubh_rules, copenhagen_rules, tablut_rules, tawlbwrdd_rules,
};

/// Weights that stay as they are: a decided game and immediate escapes (tactics, not judgement).
/// `attacker` anchors the scale (100 cp).
const FIXED: [&str; 4] = ["decided", "open_line_win", "open_lines_double", "attacker"];

/// Positions whose search score is beyond this are left out (centipawns).
const MAX_SCORE: i32 = 1500;

/// With `--quiet`: positions are kept at any score below this (centipawns; `open_line_win` is
/// 5000), and left out instead when the side to move has a tactical move.
const QUIET_MAX_SCORE: i32 = 5000;

/// With `--quiet`, these stay as they are too: threats of the side to move, which quiet
/// positions do not have.
const QUIET_FIXED: [&str; 2] = ["fork_to_move", "threat_to_move"];

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// One position: features minus the start's (defenders' view) and the defenders' result.
struct Sample {
    features: [f64; FEATURE_COUNT],
    result: f64,
}

fn load<B: Bitboard>(
    rules: &'static Rules<B>,
    text: &str,
    quiet: bool,
) -> Result<Vec<Sample>, String> {
    let start = Position::start(rules).eval_features().to_array();
    let mut samples = Vec::new();
    let mut tactical = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("line {}: {what}: {line}", n + 1);
        let mut parts = line.split('|').map(str::trim);
        let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("not FEN | score | result"));
        };
        let score: i32 = score.parse().map_err(|_| bad("bad score"))?;
        let result: f64 = result.parse().map_err(|_| bad("bad result"))?;
        if score.abs() > if quiet { QUIET_MAX_SCORE } else { MAX_SCORE } {
            continue;
        }
        let pos = Position::from_fen(rules, fen).map_err(|e| bad(&e.to_string()))?;
        if quiet {
            tactical.clear();
            pos.generate_tactical(&mut tactical);
            if !tactical.is_empty() {
                continue;
            }
        }
        let attackers_to_move = fen.split_whitespace().nth(1) == Some("a");
        let f = pos.eval_features().to_array();
        let mut features = [0.0; FEATURE_COUNT];
        for i in 0..FEATURE_COUNT {
            features[i] = (f[i] - start[i]) as f64;
        }
        samples.push(Sample {
            features,
            result: if attackers_to_move {
                1.0 - result
            } else {
                result
            },
        });
    }
    Ok(samples)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn eval(w: &[f64; FEATURE_COUNT], s: &Sample) -> f64 {
    w.iter().zip(&s.features).map(|(w, f)| w * f).sum()
}

fn mse(w: &[f64; FEATURE_COUNT], k: f64, bias: f64, samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k * eval(w, s) + bias)).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The `K` minimising the error with weights `w` (a golden-section search on a log scale).
fn fit_k(w: &[f64; FEATURE_COUNT], bias: f64, samples: &[Sample]) -> f64 {
    let (mut lo, mut hi) = ((1e-5f64).ln(), (1e-1f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if mse(w, a.exp(), bias, samples) < mse(w, b.exp(), bias, samples) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let quiet = args.iter().any(|a| a == "--quiet");
    args.retain(|a| a != "--quiet");
    let [variant, file, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: texel [--quiet] <brandubh|tablut|tawlbwrdd|copenhagen|ashton> <datagen file> \
                    [iterations]"
                .into(),
        );
    };
    let iterations: usize = match rest.first() {
        Some(s) => s.parse().map_err(|_| format!("bad iteration count {s}"))?,
        None => 3000,
    };
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let (samples, current) = match variant.as_str() {
        "brandubh" => (
            load(brandubh_rules(), &text, quiet)?,
            *EvalWeights::of(brandubh_rules().options.eval_weights),
        ),
        "tablut" => (
            load(tablut_rules(), &text, quiet)?,
            *EvalWeights::of(tablut_rules().options.eval_weights),
        ),
        "tawlbwrdd" => (
            load(tawlbwrdd_rules(), &text, quiet)?,
            *EvalWeights::of(tawlbwrdd_rules().options.eval_weights),
        ),
        "copenhagen" => (
            load(copenhagen_rules(), &text, quiet)?,
            *EvalWeights::of(copenhagen_rules().options.eval_weights),
        ),
        "ashton" => (
            load(ashton_rules(), &text, quiet)?,
            *EvalWeights::of(ashton_rules().options.eval_weights),
        ),
        v => return Err(format!("unknown tafl variant {v}")),
    };
    if samples.len() < 100 {
        return Err(format!("only {} usable positions in {file}", samples.len()));
    }
    let split = samples.len() * 9 / 10;
    let (train, test) = samples.split_at(split);
    let mut w = current.to_array().map(f64::from);
    // The bias alone: the log-odds of the defenders' mean result.
    let mean = train.iter().map(|s| s.result).sum::<f64>() / train.len() as f64;
    let mut bias = (mean / (1.0 - mean)).ln();
    let mut k = fit_k(&w, bias, train);
    let (train0, test0) = (mse(&w, k, bias, train), mse(&w, k, bias, test));
    eprintln!(
        "{} positions ({} training, {} held out), bias {bias:.3}, K = {k:.6}; current weights: \
         error {train0:.6}, held out {test0:.6}",
        samples.len(),
        train.len(),
        test.len()
    );
    // Quiet positions give the side to move no capture and no escape: the weights of those
    // threats are not seen there and stay as they are.
    let free: Vec<bool> = FEATURE_NAMES
        .iter()
        .map(|n| !(FIXED.contains(n) || quiet && QUIET_FIXED.contains(n)))
        .collect();
    // Adam on the mean squared error, step in centipawns.
    let (lr, b1, b2, eps) = (2.0, 0.9, 0.999, 1e-12);
    let (mut m, mut v) = ([0.0; FEATURE_COUNT], [0.0; FEATURE_COUNT]);
    // Adam state of ln K and the bias.
    let (mut mk, mut vk, mut mb, mut vb) = (0.0, 0.0, 0.0, 0.0);
    let adam = |m: &mut f64, v: &mut f64, g: f64, it: usize, lr: f64| {
        *m = b1 * *m + (1.0 - b1) * g;
        *v = b2 * *v + (1.0 - b2) * g * g;
        let mh = *m / (1.0 - b1.powi(it as i32));
        let vh = *v / (1.0 - b2.powi(it as i32));
        lr * mh / (vh.sqrt() + eps)
    };
    for it in 1..=iterations {
        let mut grad = [0.0; FEATURE_COUNT];
        let (mut grad_lnk, mut grad_bias) = (0.0, 0.0);
        for s in train {
            let e = eval(&w, s);
            let p = sigmoid(k * e + bias);
            let d = -2.0 * (s.result - p) * p * (1.0 - p);
            grad_bias += d;
            grad_lnk += d * k * e;
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += d * k * f;
            }
        }
        let n = train.len() as f64;
        bias -= adam(&mut mb, &mut vb, grad_bias / n, it, 0.01);
        k *= (-adam(&mut mk, &mut vk, grad_lnk / n, it, 0.01)).exp();
        for i in 0..FEATURE_COUNT {
            if !free[i] {
                continue;
            }
            w[i] -= adam(&mut m[i], &mut v[i], grad[i] / n, it, lr);
        }
        if it % 500 == 0 || it == iterations {
            eprintln!(
                "iteration {it}: K = {k:.6}, bias {bias:.3}, error {:.6}, held out {:.6}",
                mse(&w, k, bias, train),
                mse(&w, k, bias, test)
            );
        }
    }
    let rounded = w.map(|x| x.round());
    eprintln!(
        "rounded: error {:.6} (was {train0:.6}), held out {:.6} (was {test0:.6})",
        mse(&rounded, k, bias, train),
        mse(&rounded, k, bias, test)
    );
    println!("EvalWeights {{");
    for i in 0..FEATURE_COUNT {
        println!(
            "    {}: {}, // was {}",
            FEATURE_NAMES[i],
            rounded[i] as i64,
            current.to_array()[i]
        );
    }
    println!("}}");
    Ok(())
}
