//! `skald openings`: balanced opening positions for matches, one FEN a line (with `--moves`, the
//! start position and the moves that reach it, `<fen> moves <move> …`).
//!
//! Each candidate is the start position followed by `--plies` uniformly random legal moves
//! (seeded by `--seed`); it is kept when the game is still on, it is new, and searches to
//! `--depth` and `--depth` + 1 plies (both parities: Ataxx scores swing between odd and even
//! depths) find no forced result and their mean score is within `--max-score` centipawns of
//! the start position's (the same searches from the start position, both scores from the same
//! side's point of view; `--centre zero`: of 0). Centring on the start position matters in tafl,
//! whose start is not level: Copenhagen's network scores it −314 cp for the attackers, so no
//! short opening is within 60 cp of 0 and those that are favour the attackers. With
//! `--played NODES` a candidate must also be open at that strength: it is played out twice by
//! the engine against itself, every move at NODES nodes in one game and at 2 × NODES in the
//! other, and kept only when the two games are won by different sides. In
//! tafl most positions a shallow search calls level are won by the same side whoever plays
//! it (brandubh's defenders win about 85 % of skald's self-play games at 2 s + 20 ms), so a
//! pair of games from them, colours swapped, carries no information about which engine is the
//! stronger; in a position whose result turns on a little more search it does.

use super::Whole;
use anyhow::{Context, Result, bail};
use clap::builder::TypedValueParser;
use skald::engine::{Engine, Session, new_session};
use skald::engine::{Limits, Score};
use skald::engine::{Outcome, Side};
use skald::rng::SeededRng;
use skald::variant::Variant;
use std::collections::HashSet;
use std::io::{IsTerminal, Write};

/// Arguments of `skald openings`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx; also accepted:
    /// hnefatafl (= copenhagen), brandub (= brandubh).
    #[arg(long, value_parser = super::parse_variant)]
    pub variant: Variant,
    /// Random plies from the start position (at most 40).
    #[arg(long, default_value_t = 4, allow_negative_numbers = true,
          value_parser = Whole::new(1, 40, "").map(|v| v as u32))]
    pub plies: u32,
    /// Number of positions, at most 2000 (up to 10 minutes at the default depth, for tawlbwrdd;
    /// a progress bar on a terminal).
    #[arg(long, default_value_t = 50, allow_negative_numbers = true,
          value_parser = Whole::new(1, 2000, "a larger file takes hours").map(|v| v as u32))]
    pub count: u32,
    /// Seed of the random moves (the same seed gives the same file, on every machine).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = Whole::new(0, u64::MAX, ""))]
    pub seed: u64,
    /// Depth of the balance check: searches to this depth and one more, at most 8.
    #[arg(long, default_value_t = 4, allow_negative_numbers = true,
          value_parser = Whole::new(1, 8, "deeper checks take hours").map(|v| v as u32))]
    pub depth: u32,
    /// Keep positions whose mean score at the two depths is within this many centipawns of the
    /// centre (`--centre`), 0 to 10000.
    #[arg(long, default_value_t = 60, allow_negative_numbers = true,
          value_parser = Whole::new(0, 10_000, "").map(|v| v as i32))]
    pub max_score: i32,
    /// What `--max-score` is measured from: `start`, the start position's mean score at the same
    /// two depths (from the same side's point of view), or `zero`, a level score (the only
    /// choice before this option; books made then are reproduced with `--centre zero`).
    #[arg(long, value_enum, default_value_t = Centre::Start)]
    pub centre: Centre,
    /// Write each opening as the start position and the moves that reach it (`<fen> moves
    /// <move> …`), for `skald match` with engines that cannot be set up from a FEN (HTP).
    #[arg(long)]
    pub moves: bool,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
    /// `--eval-file` (of the balance checks).
    #[command(flatten)]
    pub eval: crate::flags::EvalFileFlag,
    /// Keep only positions whose result turns on the strength of play: the position is played
    /// out twice by the engine against itself, every move at this many nodes in one game and at
    /// twice as many in the other, and kept only when the two games are won by different sides.
    #[arg(long, allow_negative_numbers = true,
          value_parser = Whole::new(1, 10_000_000, "games that long take hours"))]
    pub played: Option<u64>,
}

/// What `skald openings --max-score` is measured from.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Centre {
    /// The start position's mean score at the balance check's two depths.
    Start,
    /// A level score, 0 centipawns.
    Zero,
}

/// Runs `skald openings`.
pub fn run(args: Args) -> Result<()> {
    let mut engine = Engine::new()?;
    engine.set_variant(args.variant);
    super::set_engine_flags(&mut engine, &[args.eval.flag()])?;
    super::check_eval_fits(&engine)?;
    let mut out: Box<dyn Write> = match &args.output {
        None => Box::new(std::io::stdout().lock()),
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        )),
    };
    // The centre (as a sum of two scores), from the side to move at the start's point of view.
    let start = new_session(args.variant);
    let centre = match args.centre {
        Centre::Zero => 0,
        Centre::Start => {
            engine.set_session(start.boxed_clone());
            score_sum(&mut engine, args.depth).context(
                "the start position's balance check found no score (a forced result or a failed \
                 search); give --centre zero",
            )?
        }
    };
    // Whether a sum of two scores from the side to move's point of view is within --max-score
    // of the centre (compared as sums, twice the mean, so that no rounding moves the bound).
    let balanced = |sum: i32, side| {
        let centre = if side == start.side_to_move() {
            centre
        } else {
            -centre
        };
        (sum - centre).abs() <= 2 * args.max_score
    };
    let mut rng = SeededRng::new(args.seed);
    let mut seen = HashSet::new();
    let mut found = 0;
    let attempts = args.count as u64 * 200 + 1000;
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(args.count as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
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
            let mv = moves[rng.below(moves.len() as u64) as usize];
            s.play(mv).expect("a legal move");
        }
        if !alive || s.outcome().is_decided() || !seen.insert(s.fen()) {
            continue;
        }
        engine.set_session(s.boxed_clone());
        if score_sum(&mut engine, args.depth).is_some_and(|sum| balanced(sum, s.side_to_move()))
            && args
                .played
                .is_none_or(|nodes| open_at(&mut engine, s.as_ref(), nodes))
        {
            if args.moves {
                writeln!(
                    out,
                    "{} moves {}",
                    s.setup_fen(),
                    super::moves_line(&s.moves_played())
                )?;
            } else {
                writeln!(out, "{}", s.fen())?;
            }
            found += 1;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
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

/// The balance check's score of the engine's position, centipawns from the side to move's point
/// of view: the sum of the scores of searches (cleared tables) to `depth` and `depth` + 1 plies,
/// twice their mean (kept whole, so that no rounding moves a bound); `None` when a depth finds a
/// forced result (a mate score) or the search fails. Both parities count because the side that
/// moves last in the tree gains (in Ataxx by hundreds of centipawns): their mean is the fair
/// figure.
fn score_sum(engine: &mut Engine, depth: u32) -> Option<i32> {
    let limits = Limits {
        depth: Some(depth + 1),
        ..Limits::default()
    };
    engine.clear_tables();
    let mut forced = false;
    let mut scores = Vec::new();
    let searched = engine.search(&limits, &mut |r| {
        if r.multipv != 1 {
            return;
        }
        match r.score {
            Score::Mate(_) => forced = true,
            Score::Cp(cp) if r.depth >= depth => scores.push(cp),
            Score::Cp(_) => {}
        }
    });
    // A search that stops early (a proven result) reports fewer depths.
    // A failed search (a caught fault) keeps the opening out.
    (searched.is_ok() && !forced && scores.len() == 2).then(|| scores[0] + scores[1])
}

/// Longest game played out by `--played`, plies; a longer one counts as a draw.
const MAX_GAME_PLIES: usize = 1000;

/// Whether `start` is open at `nodes` nodes a move: the engine against itself (fresh tables
/// each game) at `nodes` and at `2 × nodes` nodes a move wins with different sides.
fn open_at(engine: &mut Engine, start: &dyn Session, nodes: u64) -> bool {
    let first = self_play_winner(engine, start, nodes);
    first.is_some() && self_play_winner(engine, start, 2 * nodes).is_some_and(|w| Some(w) != first)
}

/// The winner of the engine's game against itself from `start` at `nodes` nodes a move; `None`
/// for a draw, a game longer than [`MAX_GAME_PLIES`] or a search without a move.
fn self_play_winner(engine: &mut Engine, start: &dyn Session, nodes: u64) -> Option<Side> {
    engine.clear_tables();
    let end =
        super::selfplay::play_out(engine, start, nodes, MAX_GAME_PLIES, &mut |_, _| {}).ok()?;
    match end.outcome() {
        Outcome::Decided { winner, .. } => winner,
        Outcome::Ongoing => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, depth: u32) -> Option<i32> {
        let mut engine = Engine::new().unwrap();
        engine.set_variant(Variant::Ataxx);
        // The scores below are the hand-written evaluation's.
        engine.set_option("EvalFile", "hand").unwrap();
        engine.session_mut().set_position(Some(fen), &[]).unwrap();
        score_sum(&mut engine, depth)
    }

    #[test]
    fn a_forced_win_is_not_an_opening() {
        // x wins in 3 (5 plies); the old check at depth 4 alone scored it +0.02.
        assert_eq!(check("7/x6/7/3o3/7/7/o5x x 4 3", 4), None);
    }

    #[test]
    fn the_start_position_is_balanced() {
        // The mean of depths 5 and 6 is +0.52 with the hand evaluation: within the default
        // 60 cp of equal (a sum within 120).
        let sum = check("x5o/7/7/7/7/7/o5x x 0 1", 5);
        assert!(sum.is_some_and(|cp| cp.abs() <= 2 * 60), "{sum:?}");
    }
}
