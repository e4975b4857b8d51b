//! `skald datagen`: self-play games for training the Ataxx network evaluation
//! ([`skald::ataxx::nnue`]) or tuning the tafl evaluation's weights (`examples/texel.rs`), one
//! position a line. `--variant` picks the game (default `ataxx`).
//!
//! Each game starts from `--plies` uniformly random legal moves from the start position (or,
//! for a range `N-M`, a number of them drawn uniformly from N to M first), drawn by a generator
//! seeded from `--seed` and the game's number; the opening is kept when the game
//! is still on and a search of `--nodes` nodes scores it within `--max-score`
//! centipawns of equal, else another is drawn. Then both sides play the best move of a search
//! of `--nodes` nodes (one search thread, fresh tables each game, so a game depends only on the
//! seed, the game's number and the engine) until the game is over by the rules. The searches
//! evaluate as the engine's search does by default (the built-in network) or as `--eval-file`
//! says (`hand`, or a network file).
//!
//! # Output format
//! One line per searched position, in game order, games in the order of their numbers:
//!
//! ```text
//! <FEN> | <score> | <result>
//! x5o/7/2x4/7/7/7/o5x o 0 1 | -112 | 0.0
//! ```
//!
//! - `FEN`: the position (ataxx.md, or the tafl FEN of rules.md), before the move.
//! - `score`: the search score in centipawns, **from the side to move's view**.
//! - `result`: the final result of the game **from the side to move's view**: `1.0` it won,
//!   `0.5` draw, `0.0` it lost.
//!
//! `--format binary` (Ataxx only) writes the same positions, scores and results as 18-byte
//! records after a 12-byte header instead ([`skald::ataxx::packed`] documents the bytes). Without
//! `--format`, the format follows `--output`: binary when its name ends in `.bin`, text
//! otherwise (and for standard output); `--format` always wins over the name. Binary output to
//! standard output is refused when that is a terminal.
//!
//! Positions whose score is a forced result (a mate score: the search saw the game's end) are
//! not written, and neither is the final position (nothing to search). The output is the same
//! for every `--concurrency` (games are written in order), so jobs are reproducible by seed.

use super::{Whole, WholeRange};
use anyhow::{Context, Result, bail};
use clap::builder::TypedValueParser;
use skald::ataxx::packed::{PackedPosition, PackedWriter, Wdl};
use skald::engine::{Engine, new_session};
use skald::engine::{Limits, Score};
use skald::engine::{Outcome, Side};
use skald::rng::SeededRng;
use skald::variant::Variant;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Arguments of `skald datagen`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game to play: ataxx, brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13 or ashton; also
    /// accepted: hnefatafl (= copenhagen), brandub (= brandubh).
    #[arg(long, default_value = "ataxx", value_parser = super::parse_variant)]
    pub variant: Variant,
    /// Number of games to play, 1 to 100000000.
    #[arg(long, default_value_t = 100, allow_negative_numbers = true,
          value_parser = Whole::new(1, 100_000_000, ""))]
    pub games: u64,
    /// Nodes per search (every move, and the opening's balance check), 1 to 10000000.
    #[arg(long, default_value_t = 5000, allow_negative_numbers = true,
          value_parser = Whole::new(1, 10_000_000, ""))]
    pub nodes: u64,
    /// Seed of the random openings, 0 or more; give each job of a sharded run its own.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = Whole::new(0, u64::MAX, ""))]
    pub seed: u64,
    /// Games played at the same time, each on its own thread with its own engine, 1 to 256.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = Whole::new(1, 256, ""))]
    pub concurrency: u64,
    /// The old name of --concurrency.
    #[arg(long, hide = true, conflicts_with = "concurrency", allow_negative_numbers = true,
          value_parser = Whole::new(1, 256, ""))]
    pub threads: Option<u64>,
    /// Random plies from the start position before the game is played out, 0 to 40, or a
    /// range `N-M` (e.g. 14-17: each game draws its number uniformly from N to M).
    #[arg(long, default_value = "6", allow_negative_numbers = true,
          value_parser = WholeRange(Whole::new(0, 40, "")).map(|(a, b)| (a as u32, b as u32)))]
    pub plies: (u32, u32),
    /// Keep openings whose score is within this many centipawns of 0, 0 to 10000 (`openings`
    /// has the same flag).
    #[arg(long, default_value_t = DEFAULT_MAX_SCORE, allow_negative_numbers = true,
          value_parser = Whole::new(0, 10_000, "").map(|v| v as i32))]
    pub max_score: i32,
    /// The old name of --max-score.
    #[arg(long, hide = true, conflicts_with = "max_score", allow_negative_numbers = true,
          value_parser = Whole::new(0, 10_000, "").map(|v| v as i32))]
    pub max_opening_score: Option<i32>,
    /// `--hash` (of each engine).
    #[command(flatten)]
    pub hash: crate::flags::HashFlag,
    /// `--eval-file` (of the searches).
    #[command(flatten)]
    pub eval: crate::flags::EvalFileFlag,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
    /// Output format: text (`FEN | score | result` lines) or binary (18-byte records, Ataxx
    /// only). Default: binary when --output ends in `.bin`, else text.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// No progress lines on standard error.
    #[arg(long)]
    pub quiet: bool,
}

/// `--format`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Format {
    /// `FEN | score | result` lines.
    Text,
    /// 18-byte records after a 12-byte header (Ataxx only; the bytes: docs/training.md).
    Binary,
}

/// The format to write: `--format`, else binary for an `--output` ending in `.bin`, else text.
fn output_format(args: &Args) -> Format {
    match (args.format, &args.output) {
        (Some(f), _) => f,
        (None, Some(p)) if p.extension().is_some_and(|e| e == "bin") => Format::Binary,
        (None, _) => Format::Text,
    }
}

/// One position of a game: FEN, side to move, score (side to move's view, centipawns).
struct Sample {
    fen: String,
    side: Side,
    score: i32,
}

/// One position to write: FEN, score (side to move's view, centipawns) and the game's result
/// from the side to move's view.
struct Line {
    fen: String,
    score: i32,
    result: Wdl,
}

impl Line {
    /// The text line `FEN | score | result`.
    fn text(&self) -> String {
        let result = match self.result {
            Wdl::Win => "1.0",
            Wdl::Draw => "0.5",
            Wdl::Loss => "0.0",
        };
        format!("{} | {} | {result}", self.fen, self.score)
    }

    /// The packed record (Ataxx).
    fn packed(&self) -> Result<PackedPosition> {
        let position = skald::ataxx::Position::from_fen(&self.fen)
            .map_err(|e| anyhow::anyhow!("datagen wrote a bad Ataxx FEN '{}': {e}", self.fen))?;
        // Scores that are not mate scores are within ±29 000 centipawns.
        let score = i16::try_from(self.score)
            .with_context(|| format!("score {} does not fit 16 bits", self.score))?;
        Ok(PackedPosition {
            position,
            score,
            result: self.result,
        })
    }
}

/// A different, well-mixed seed for each game of each job (SplitMix64 of both).
fn game_seed(seed: u64, game: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(game.wrapping_add(1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `--plies` in words: `1 random ply`, `6 random plies`, `14 to 17 random plies`.
fn plies_text((least, most): (u32, u32)) -> String {
    match (least, most) {
        (1, 1) => "1 random ply".to_string(),
        (n, m) if n == m => format!("{n} random plies"),
        (n, m) => format!("{n} to {m} random plies"),
    }
}

/// `--max-score` when not given, centipawns.
const DEFAULT_MAX_SCORE: i32 = 150;

/// Plays game number `game` and returns its lines (see the module docs).
fn play_game(engine: &mut Engine, args: &Args, game: u64) -> Result<Vec<Line>> {
    let mut rng = SeededRng::new(game_seed(args.seed, game));
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Limits::default()
    };
    let mut tries = 0;
    // Games are numbered from 1 in messages.
    let number = game + 1;
    let session = loop {
        tries += 1;
        if tries > 1000 {
            bail!(
                "no balanced opening in 1000 tries for game {number}: the positions after {} \
                 scored outside --max-score {}; give other --plies or a larger \
                 --max-score",
                plies_text(args.plies),
                args.max_score
            );
        }
        let mut s = new_session(args.variant);
        // A range draws the game's number of plies; a single number draws nothing, so that
        // its games stay those of earlier versions.
        let (least, most) = args.plies;
        let plies = if most > least {
            least + rng.below(u64::from(most - least) + 1) as u32
        } else {
            least
        };
        for _ in 0..plies {
            let moves = s.legal_moves();
            if moves.is_empty() {
                break;
            }
            s.play(moves[rng.below(moves.len() as u64) as usize])
                .expect("a legal move");
        }
        if s.outcome().is_decided() {
            continue;
        }
        engine.set_session(s.boxed_clone());
        engine.clear_tables();
        let score = engine.search(&limits, &mut |_| {})?.score;
        match score {
            Score::Cp(cp) if cp.abs() <= args.max_score => break s,
            // No random plies: every try is the start position, whose score does not change.
            _ if most == 0 => {
                let (scored, advice) = match score {
                    Score::Cp(cp) => (
                        format!("{cp} centipawns"),
                        format!(
                            "give --plies above 0 or a --max-score of {} or more",
                            cp.abs()
                        ),
                    ),
                    Score::Mate(n) => (
                        format!("a forced result ({})", super::score_text(Score::Mate(n))),
                        "give --plies above 0".to_string(),
                    ),
                };
                bail!(
                    "with --plies 0 every game starts from the start position, which scores \
                     {scored}, outside --max-score {}; {advice}",
                    args.max_score
                );
            }
            _ => continue,
        }
    };
    let mut samples = Vec::new();
    let end = super::selfplay::play_out(
        engine,
        session.as_ref(),
        args.nodes,
        usize::MAX,
        &mut |s, result| {
            if let Score::Cp(score) = result.score {
                samples.push(Sample {
                    fen: s.fen(),
                    side: s.side_to_move(),
                    score,
                });
            }
        },
    )?;
    let winner = match end.outcome() {
        Outcome::Decided { winner, .. } => winner,
        Outcome::Ongoing => unreachable!("the game is played until it is decided"),
    };
    Ok(samples
        .into_iter()
        .map(|s| {
            let result = match winner {
                None => Wdl::Draw,
                Some(w) if w == s.side => Wdl::Win,
                Some(_) => Wdl::Loss,
            };
            Line {
                fen: s.fen,
                score: s.score,
                result,
            }
        })
        .collect())
}

/// Runs `skald datagen`.
pub fn run(mut args: Args) -> Result<()> {
    // The old spelling's note once, here, not in every game.
    // (A default does not conflict with the old spelling, so the old one wins when given.)
    if let Some(old) = args.max_opening_score.take() {
        args.max_score =
            super::renamed(None, Some(old), "--max-opening-score", "--max-score").unwrap_or(old);
    }
    let format = output_format(&args);
    if format == Format::Binary && args.variant != Variant::Ataxx {
        bail!(
            "the binary format holds Ataxx positions only; use --format text for {}",
            args.variant
        );
    }
    if format == Format::Binary && args.output.is_none() && std::io::stdout().is_terminal() {
        bail!("binary output to a terminal; give --output <file> or redirect standard output");
    }
    let out: Box<dyn Write> = match &args.output {
        None => Box::new(std::io::stdout().lock()),
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
    };
    let mut out = match format {
        Format::Text => Output::Text(out),
        Format::Binary => Output::Binary(PackedWriter::new(out)?),
    };
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<(u64, Result<Vec<Line>>)>();
    let concurrency = match args.threads {
        Some(old) => super::renamed(None, Some(old), "--threads", "--concurrency").unwrap_or(old),
        None => args.concurrency,
    };
    let threads = concurrency.min(args.games) as usize;
    let mut positions = 0u64;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads {
            let tx = tx.clone();
            let (args, next) = (&args, &next);
            scope.spawn(move || {
                let mut engine = match Engine::new() {
                    Ok(e) => e,
                    Err(e) => {
                        let _ = tx.send((0, Err(e.into())));
                        return;
                    }
                };
                let flags = [
                    ("--hash", "Hash", args.hash.hash.to_string()),
                    args.eval.flag(),
                ];
                if let Err(e) = super::set_engine_flags(&mut engine, &flags) {
                    let _ = tx.send((0, Err(e)));
                    return;
                }
                engine.set_variant(args.variant);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= args.games {
                        return;
                    }
                    let lines = play_game(&mut engine, args, game);
                    let failed = lines.is_err();
                    if tx.send((game, lines)).is_err() || failed {
                        // The writer has stopped (an error): no more games.
                        next.store(args.games, Ordering::Relaxed);
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Write the games in the order of their numbers, whatever order they finish in.
        let mut pending = BTreeMap::new();
        let mut written = 0u64;
        for (game, lines) in rx.iter() {
            let lines = match lines {
                Ok(l) => l,
                Err(e) => {
                    next.store(args.games, Ordering::Relaxed);
                    return Err(e);
                }
            };
            pending.insert(game, lines);
            while let Some(lines) = pending.remove(&written) {
                for l in &lines {
                    match &mut out {
                        Output::Text(w) => writeln!(w, "{}", l.text())?,
                        Output::Binary(w) => w.write(&l.packed()?)?,
                    }
                }
                positions += lines.len() as u64;
                written += 1;
                if !args.quiet && (written.is_multiple_of(10) || written == args.games) {
                    eprintln!(
                        "datagen: {written}/{} games, {positions} positions, {:.1} s",
                        args.games,
                        start.elapsed().as_secs_f64()
                    );
                }
            }
        }
        Ok(())
    })?;
    match out {
        Output::Text(mut w) => w.flush()?,
        Output::Binary(w) => {
            w.into_inner()?;
        }
    }
    Ok(())
}

/// Where the positions go, in the chosen format.
enum Output {
    Text(Box<dyn Write>),
    Binary(PackedWriter<Box<dyn Write>>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ() {
        let seeds: std::collections::HashSet<u64> = (0..4)
            .flat_map(|s| (0..100).map(move |g| game_seed(s, g)))
            .collect();
        assert_eq!(seeds.len(), 400);
    }
}
