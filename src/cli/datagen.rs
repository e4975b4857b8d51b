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
//! `--format binary` writes the same positions, scores and results as fixed-length records after
//! a header instead: for Ataxx 18-byte records ([`skald::ataxx::packed`] documents the bytes),
//! for tafl records of the board's size (38 bytes on 11×11) after a header that names the board
//! and the variant ([`skald::tafl::packed`]). Without `--format`, the format follows `--output`:
//! binary when its name ends in `.bin`, text otherwise (and for standard output); `--format`
//! always wins over the name. Binary output to standard output is refused when that is a
//! terminal.
//!
//! # Jobs that can be continued elsewhere
//! A file is written as `<output>.part` and renamed to `<output>` when its last game is in, so
//! a finished file is never a partial one. `--seed N-M` runs one job per seed, one after the
//! other, each to its own file: `--output` must then hold `{seed}`, which is replaced by the
//! seed (`--output data/cph-{seed}.bin`). With `--resume`, a seed whose file is already there is
//! skipped (an unfinished `.part` is played again from its start: the games depend only on the
//! seed, so the file comes out the same). A generation is thus a seed range: machines given
//! disjoint ranges, or the same command again after an interruption, add up to the same files.
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
use skald::tafl::packed::{TaflHeader, TaflRecord, TaflWriter};
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
    /// Seed of the random openings, 0 or more; give each job of a sharded run its own. A range
    /// N-M runs one job per seed, each to its own --output file (which must hold `{seed}`).
    #[arg(long, default_value = "1", allow_negative_numbers = true,
          value_parser = WholeRange(Whole::new(0, u64::MAX, "")))]
    pub seed: (u64, u64),
    /// Skip each seed whose --output file is already there (finished files are renamed from
    /// `<output>.part` when their last game is written).
    #[arg(long, requires = "output")]
    pub resume: bool,
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
    /// Output format: text (`FEN | score | result` lines) or binary (fixed-length records after
    /// a header: 18 bytes for Ataxx, 38 for an 11×11 tafl board). Default: binary when
    /// --output ends in `.bin`, else text.
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
    /// Fixed-length records after a header (the bytes: docs/training.md).
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

    /// The packed tafl record of the preset `variant`.
    fn tafl_record(&self, variant: Variant) -> Result<TaflRecord> {
        let score = i16::try_from(self.score)
            .with_context(|| format!("score {} does not fit 16 bits", self.score))?;
        skald::tafl::packed::record_of_fen(variant.name(), &self.fen, score, self.result)
            .map_err(|e| anyhow::anyhow!("datagen wrote a FEN it cannot pack '{}': {e}", self.fen))
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

/// Plays game number `game` of the job of `seed` and returns its lines (see the module docs).
fn play_game(engine: &mut Engine, args: &Args, seed: u64, game: u64) -> Result<Vec<Line>> {
    let mut rng = SeededRng::new(game_seed(seed, game));
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
        .map(|s| Line {
            fen: s.fen,
            score: s.score,
            result: Wdl::for_side(winner, s.side),
        })
        .collect())
}

/// Runs `skald datagen`: one job, or one per seed of a `--seed` range (module docs).
pub fn run(mut args: Args) -> Result<()> {
    // The old spelling's note once, here, not in every game.
    // (A default does not conflict with the old spelling, so the old one wins when given.)
    if let Some(old) = args.max_opening_score.take() {
        args.max_score =
            super::renamed(None, Some(old), "--max-opening-score", "--max-score").unwrap_or(old);
    }
    if let Some(old) = args.threads.take() {
        args.concurrency =
            super::renamed(None, Some(old), "--threads", "--concurrency").unwrap_or(old);
    }
    let format = output_format(&args);
    if format == Format::Binary
        && args.variant.is_tafl()
        && args.variant.descriptor().size > skald::tafl::packed::MAX_BOARD
    {
        bail!(
            "the binary format holds boards up to 13x13; use --format text for {}",
            args.variant
        );
    }
    if format == Format::Binary && args.output.is_none() && std::io::stdout().is_terminal() {
        bail!("binary output to a terminal; give --output <file> or redirect standard output");
    }
    let (first, last) = args.seed;
    let template = args
        .output
        .as_ref()
        .map(|p| p.to_string_lossy().into_owned());
    let per_seed = template.as_ref().is_some_and(|t| t.contains("{seed}"));
    if first != last && !per_seed {
        bail!(
            "--seed {first}-{last} runs a job per seed, each to its own file: give --output \
             with {{seed}} in the name (e.g. --output data-{{seed}}.bin)"
        );
    }
    // The same checks as each job's engines make, once, before any file is written.
    let mut engine = Engine::new()?;
    engine.set_variant(args.variant);
    super::set_engine_flags(
        &mut engine,
        &[
            ("--hash", "Hash", args.hash.hash.to_string()),
            args.eval.flag(),
        ],
    )?;
    super::check_eval_fits(&engine)?;
    drop(engine);
    for seed in first..=last {
        let output = template
            .as_ref()
            .map(|t| std::path::PathBuf::from(t.replace("{seed}", &seed.to_string())));
        if args.resume
            && let Some(path) = &output
            && path.exists()
        {
            if !args.quiet {
                eprintln!("datagen: {} is there, seed {seed} skipped", path.display());
            }
            continue;
        }
        run_job(&args, format, seed, output.as_deref())?;
    }
    Ok(())
}

/// One job: the games of `seed`, written to `output` (through `<output>.part`, renamed at the
/// end) or standard output.
fn run_job(args: &Args, format: Format, seed: u64, output: Option<&std::path::Path>) -> Result<()> {
    let part = output.map(|p| {
        let mut name = p.as_os_str().to_owned();
        name.push(".part");
        std::path::PathBuf::from(name)
    });
    let out: Box<dyn Write> = match &part {
        None => Box::new(std::io::stdout().lock()),
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
    };
    let mut out = match (format, args.variant.is_tafl()) {
        (Format::Text, _) => Output::Text(out),
        (Format::Binary, false) => Output::Binary(PackedWriter::new(out)?),
        (Format::Binary, true) => Output::Tafl(TaflWriter::new(
            out,
            &TaflHeader {
                size: args.variant.descriptor().size,
                variant: args.variant.name().to_string(),
            },
        )?),
    };
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<(u64, Result<Vec<Line>>)>();
    let threads = args.concurrency.min(args.games) as usize;
    let mut positions = 0u64;
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut engine = match Engine::new() {
                    Ok(e) => e,
                    Err(e) => {
                        let _ = tx.send((0, Err(e.into())));
                        return;
                    }
                };
                engine.set_variant(args.variant);
                let flags = [
                    ("--hash", "Hash", args.hash.hash.to_string()),
                    args.eval.flag(),
                ];
                if let Err(e) = super::set_engine_flags(&mut engine, &flags) {
                    let _ = tx.send((0, Err(e)));
                    return;
                }
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= args.games {
                        return;
                    }
                    let lines = play_game(&mut engine, args, seed, game);
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
                        Output::Tafl(w) => w.write(&l.tafl_record(args.variant)?)?,
                    }
                }
                positions += lines.len() as u64;
                written += 1;
                if !args.quiet && (written.is_multiple_of(10) || written == args.games) {
                    eprintln!(
                        "datagen: seed {seed}: {written}/{} games, {positions} positions, {:.1} s",
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
        Output::Tafl(w) => {
            w.into_inner()?;
        }
    }
    if let (Some(part), Some(output)) = (&part, output) {
        std::fs::rename(part, output)
            .with_context(|| format!("cannot rename {} to {}", part.display(), output.display()))?;
    }
    Ok(())
}

/// Where the positions go, in the chosen format.
enum Output {
    Text(Box<dyn Write>),
    Binary(PackedWriter<Box<dyn Write>>),
    Tafl(TaflWriter<Box<dyn Write>>),
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
