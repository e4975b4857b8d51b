//! `skald openings`: balanced opening positions for matches, one FEN a line.
//!
//! Each candidate is the start position followed by `--plies` uniformly random legal moves
//! (seeded by `--seed`); it is kept when the game is still on, it is new, and a shallow search
//! (`--depth`) scores it within `--max-score` centipawns of equal.

use anyhow::{Context, Result, bail};
use rand::{RngExt, SeedableRng};
use skald::engine::{Engine, new_session};
use skald::search::{Limits, Score};
use skald::variant::Variant;
use std::collections::HashSet;
use std::io::Write;

/// Arguments of `skald openings`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// brandubh, tablut, tawlbwrdd or ataxx.
    #[arg(long, value_parser = super::parse_variant)]
    pub variant: Variant,
    /// Random plies from the start position.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub plies: u32,
    /// Number of positions.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub count: u32,
    /// Seed of the random moves (the same seed gives the same file).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth of the balance check search.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Keep positions whose score is within this many centipawns of 0.
    #[arg(long, default_value_t = 60)]
    pub max_score: i32,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
}

/// Runs `skald openings`.
pub fn run(args: Args) -> Result<()> {
    let mut out: Box<dyn Write> = match &args.output {
        None => Box::new(std::io::stdout().lock()),
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let mut engine = Engine::new()?;
    engine.set_variant(args.variant);
    let limits = Limits {
        depth: Some(args.depth),
        ..Limits::default()
    };
    let mut seen = HashSet::new();
    let mut found = 0;
    let attempts = args.count as u64 * 200 + 1000;
    for _ in 0..attempts {
        if found >= args.count {
            break;
        }
        let mut s = new_session(args.variant);
        let mut alive = true;
        for _ in 0..args.plies {
            let moves = s.legal_moves();
            if moves.is_empty() {
                alive = false;
                break;
            }
            let mv = &moves[rng.random_range(0..moves.len())];
            s.play(mv).expect("a legal move");
        }
        if !alive || s.outcome().is_decided() || !seen.insert(s.fen()) {
            continue;
        }
        engine.set_session(s.boxed_clone());
        engine.clear_tables();
        let r = engine.search(&limits, &mut |_| {});
        if let Score::Cp(cp) = r.score
            && cp.abs() <= args.max_score
        {
            writeln!(out, "{}", s.fen())?;
            found += 1;
        }
    }
    out.flush()?;
    if found < args.count {
        bail!(
            "found only {found} of {} balanced positions; try more --plies, a larger --max-score \
             or another --seed",
            args.count
        );
    }
    Ok(())
}
