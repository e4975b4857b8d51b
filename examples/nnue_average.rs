//! Averages Ataxx pattern networks (file format 2, `skald::ataxx::nnue::PatternNetwork`) of
//! one shape into one network: each quantised weight the mean of the networks' values, rounded
//! (`PatternNetwork::average`). Networks fine-tuned one from another (a generation and the
//! next ones of `docs/training.md`) average into a network of the same size and speed.
//!
//! ```sh
//! cargo run --release --example nnue_average -- <out.nnue> <a.nnue> <b.nnue> [<c.nnue> …]
//! ```
//!
//! Errors (fewer than two inputs, a missing or bad file, networks of different shapes, an
//! unwritable output) are one line on standard error and exit status 1.

use std::path::Path;

use skald::ataxx::nnue::PatternNetwork;

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [output, inputs @ ..] = args.as_slice() else {
        return Err(usage());
    };
    if inputs.len() < 2 {
        return Err(usage());
    }
    let nets = inputs
        .iter()
        .map(|path| PatternNetwork::load(Path::new(path)).map_err(|e| format!("{path}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let mean = PatternNetwork::average(&nets)
        .ok_or("the networks differ in shape (hidden size, output buckets, activation or scale)")?;
    std::fs::write(output, mean.to_bytes()).map_err(|e| format!("{output}: {e}"))?;
    println!(
        "wrote {output}: the mean of {} networks ({} hidden, {} output buckets)",
        nets.len(),
        mean.hidden(),
        mean.buckets()
    );
    Ok(())
}

fn usage() -> String {
    "usage: nnue_average <out.nnue> <a.nnue> <b.nnue> [<c.nnue> …]".to_string()
}
