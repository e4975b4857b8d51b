//! `skald analyze`: the best lines of a position, depth by depth, readable or as JSON.

use super::{Whole, outcome_text, score_text, score_words, side_name};
use anyhow::{Result, anyhow, bail};
use clap::builder::TypedValueParser;
use serde::Serialize;
use skald::engine::Engine;
use skald::engine::{Limits, Report, Score, Side};
use skald::variant::Variant;

/// Arguments of `skald analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx; also accepted: hnefatafl
    /// (= copenhagen), brandub (= brandubh). With --record: the variant of a PGN game without a
    /// Variant tag (ataxx if not given, as the Ataxx tools write no such tag).
    #[arg(long, value_parser = super::parse_variant, required_unless_present = "record")]
    pub variant: Option<Variant>,
    /// The position (default: the start position).
    #[arg(long, conflicts_with = "record", allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Moves played from the position first, separated by spaces: "d2-f2 c4-c2".
    #[arg(long, conflicts_with = "record")]
    pub moves: Option<String>,
    /// Analyse every position of a game from a record file (PGN or OpenTafl .otg; see
    /// `skald records`): the best move and score before each move played. Each position gets
    /// --depth or --time (default 1 s).
    #[arg(long)]
    pub record: Option<std::path::PathBuf>,
    /// Which game of the --record file (1 or more).
    #[arg(long, default_value_t = 1, requires = "record", allow_negative_numbers = true,
          value_parser = Whole::new(1, u32::MAX as u64, "").map(|v| v as u32))]
    pub game: u32,
    /// Search to this depth (plies), 1 to 64 (a depth, not a time: deep searches of big boards
    /// take hours; --time bounds the time instead).
    #[arg(long, conflicts_with = "time", allow_negative_numbers = true,
          value_parser = super::depth_parser())]
    pub depth: Option<u32>,
    /// Search for this many seconds: more than 0, at most 3600, fractions allowed (default 3
    /// when no --depth is given, 1 a position with --record).
    #[arg(long, allow_negative_numbers = true, value_parser = super::Seconds::POSITIVE)]
    pub time: Option<f64>,
    /// Number of best lines (the engine option MultiPV): 1 to 64.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::multipv_parser())]
    pub multipv: u32,
    /// `--threads`, `--hash`, `--eval-file`.
    #[command(flatten)]
    pub engine: crate::flags::EngineFlags,
    /// One JSON object a line: one per depth and line, then one with the best move. Scores
    /// (`score`) are from the side to move's view, as in UCI; with --record each position also
    /// has `score_first`, from the first side's view (attackers, x) as the text table shows.
    #[arg(long)]
    pub json: bool,
}

/// A score in the JSON output: `{"cp":35}` or `{"mate":3}`.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum JsonScore {
    Cp(i32),
    Mate(i32),
}

fn score_json(s: Score) -> JsonScore {
    match s {
        Score::Cp(cp) => JsonScore::Cp(cp),
        Score::Mate(n) => JsonScore::Mate(n),
    }
}

/// One completed depth and line (`--json`), fields in this order.
#[derive(Serialize)]
struct JsonDepth {
    depth: u32,
    seldepth: u32,
    multipv: u32,
    score: JsonScore,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    hashfull: u32,
    pv: Vec<String>,
}

/// One line of the final object.
#[derive(Serialize)]
struct JsonLine {
    score: JsonScore,
    pv: Vec<String>,
}

/// The final object of `--json`: the answer and the last complete depth's lines.
#[derive(Serialize)]
struct JsonResult {
    bestmove: Option<String>,
    ponder: Option<String>,
    score: JsonScore,
    depth: u32,
    nodes: u64,
    lines: Vec<JsonLine>,
}

/// One analysed move of a record (`--record --json`).
#[derive(Serialize)]
struct JsonPly<'a> {
    ply: usize,
    to_move: &'a str,
    fen: String,
    played: String,
    bestmove: Option<String>,
    /// From the side to move's view.
    score: JsonScore,
    /// From the first side's view (attackers, x).
    score_first: JsonScore,
    depth: u32,
    nodes: u64,
    pv: Vec<String>,
}

/// The last object of `--record --json`.
#[derive(Serialize)]
struct JsonRecordEnd {
    plies: usize,
    final_fen: String,
    outcome: String,
}

/// Prints `value` as one line of JSON.
fn print_json(value: &impl Serialize) {
    match serde_json::to_string(value) {
        Ok(line) => println!("{line}"),
        Err(e) => eprintln!("error: cannot write JSON: {e}"),
    }
}

/// The search limits of `--depth`/`--time`, `default_ms` when neither is given.
fn limits(args: &Args, default_ms: u64) -> Result<Limits> {
    let movetime = match (args.depth, args.time) {
        (_, Some(t)) if !(t > 0.0 && t <= 3600.0) => {
            bail!(
                "--time {}",
                super::Seconds::POSITIVE.check(&t.to_string()).unwrap_err()
            )
        }
        (_, Some(t)) => Some((t * 1000.0).round().max(1.0) as u64),
        (None, None) => Some(default_ms),
        (Some(_), None) => None,
    };
    Ok(Limits {
        depth: args.depth,
        movetime,
        ..Limits::default()
    })
}

/// Sets the engine options of `--threads`, `--multipv`, `--hash`, `--eval-file`.
fn configure(engine: &mut Engine, args: &Args) -> Result<()> {
    let mut flags = args.engine.flags();
    flags.insert(1, ("--multipv", "MultiPV", args.multipv.to_string()));
    super::set_engine_flags(engine, &flags)?;
    engine
        .set_option("Move Overhead", "0")
        .map_err(|e| anyhow!("{e}"))
}

/// `skald analyze --record`: searches the position before each move of the game and prints
/// the move played beside the engine's best move and score (`*` where they differ), then the
/// final position's state (the record's result when the moves do not end the game: a
/// resignation, a result tag). With `--json`, one object a position
/// (`{"ply":1,"to_move":…,"fen":…,"played":…,"bestmove":…,"score":…,"depth":…,"nodes":…,"pv":[…]}`)
/// and a last `{"plies":…,"final_fen":…,"outcome":…}`.
fn run_record(args: &Args) -> Result<()> {
    let path = args.record.as_deref().expect("--record given");
    let game = super::records::load_game(path, args.game as usize, args.variant)?;
    // Side names: the record's variant, or any tafl one for other OpenTafl rules.
    let names = game.variant.unwrap_or(Variant::Brandubh);
    let mut engine = Engine::new()?;
    if let Some(v) = game.variant {
        engine.set_variant(v);
    }
    configure(&mut engine, args)?;
    engine.set_session(game.session.boxed_clone());
    super::check_eval_fits(&engine)?;
    let limits = limits(args, 1000)?;
    let per_position = match (limits.depth, limits.movetime) {
        (Some(d), _) => format!("to depth {d}"),
        (None, Some(ms)) => format!("for {:.1} s", ms as f64 / 1000.0),
        _ => String::new(),
    };
    if !args.json {
        println!(
            "{}, game {} of {}: {}; searching each position {per_position}",
            game.variant.map_or_else(
                || game.session.rules_name().to_string(),
                |v| v.name().to_string()
            ),
            args.game,
            path.display(),
            super::plies(game.moves.len())
        );
        println!();
        println!(
            "  ply  to move     played      best        score ({} view)",
            side_name(names, Side::First)
        );
    }
    let mut session = game.session.boxed_clone();
    session
        .set_position(Some(&game.setup_fen), &[])
        .map_err(|e| anyhow!("{e}"))?;
    for (ply, &played) in game.moves.iter().enumerate() {
        let to_move = session.side_to_move();
        engine.set_session(session.boxed_clone());
        let r = engine.search(&limits, &mut |_| {})?;
        let best = r.best_move.map_or_else(|| "-".into(), |m| m.to_string());
        // The first side's view (the search's is the side to move's).
        let first_view = match (to_move, r.score) {
            (Side::First, s) => s,
            (Side::Second, Score::Cp(cp)) => Score::Cp(-cp),
            (Side::Second, Score::Mate(n)) => Score::Mate(-n),
        };
        if args.json {
            print_json(&JsonPly {
                ply: ply + 1,
                to_move: side_name(names, to_move),
                fen: session.fen(),
                played: played.to_string(),
                bestmove: r.best_move.map(|m| m.to_string()),
                score: score_json(r.score),
                score_first: score_json(first_view),
                depth: r.depth,
                nodes: r.nodes,
                pv: super::move_texts(r.pv()),
            });
        } else {
            // One view down the whole column: the first side's.
            let score = first_view;
            println!(
                "{:>5}  {:<10}  {:<10}{} {:<10}  {:>7}  {} (depth {})",
                ply + 1,
                side_name(names, to_move),
                played.to_string(),
                if Some(played) == r.best_move {
                    ' '
                } else {
                    '*'
                },
                best,
                score_text(score),
                score_words(names, Side::First, score),
                r.depth
            );
        }
        session.play(played).map_err(|e| anyhow!("{e}"))?;
    }
    // The rules' result, or the record's (a resignation, a result tag) when the moves do not
    // end the game.
    let state = match &game.result {
        Some(r) => super::result_text(names, r.winner, &r.reason),
        None => outcome_text(names, session.outcome()),
    };
    if args.json {
        print_json(&JsonRecordEnd {
            plies: game.moves.len(),
            final_fen: session.fen(),
            outcome: state,
        });
    } else {
        println!();
        println!("final position: {state}");
    }
    Ok(())
}

/// Runs `skald analyze`.
pub fn run(args: Args) -> Result<()> {
    if args.record.is_some() {
        return run_record(&args);
    }
    let variant = args.variant.ok_or_else(|| anyhow!("--variant is needed"))?;
    let mut engine = Engine::new()?;
    engine.set_variant(variant);
    let moves: Vec<&str> = args
        .moves
        .as_deref()
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    engine
        .session_mut()
        .set_position(args.fen.as_deref(), &moves)
        .map_err(|e| super::fen_error(e, variant))?;
    let outcome = engine.outcome();
    if outcome.is_decided() {
        bail!(
            "the game is over in this position: {}",
            outcome_text(variant, outcome)
        );
    }
    let limits = limits(&args, 3000)?;
    let movetime = limits.movetime;
    configure(&mut engine, &args)?;
    super::check_eval_fits(&engine)?;
    let to_move = engine.session().side_to_move();
    let json = args.json;
    if !json {
        // The board as `play` draws it (Unicode pieces, marked squares, a legend).
        println!(
            "{}",
            super::play::render(engine.session(), variant, None, false)
        );
        println!(
            "{} to move; {}",
            side_name(variant, to_move),
            if args.depth.is_some() {
                format!("searching to depth {}", args.depth.unwrap_or(0))
            } else {
                format!(
                    "searching for {:.1} s",
                    movetime.unwrap_or(0) as f64 / 1000.0
                )
            }
        );
        println!();
    }
    let multi = args.multipv > 1;
    let mut report = |r: &Report| {
        if json {
            print_json(&JsonDepth {
                depth: r.depth,
                seldepth: r.seldepth,
                multipv: r.multipv,
                score: score_json(r.score),
                nodes: r.nodes,
                nps: r.nps,
                time_ms: r.time_ms,
                hashfull: r.hashfull,
                pv: super::move_texts(&r.pv),
            });
        } else {
            let line = if multi {
                format!(" #{}", r.multipv)
            } else {
                String::new()
            };
            println!(
                "depth {:>2}{line}  {:>7} ({})  nodes {:>10}  {:>9} nps  pv {}",
                r.depth,
                score_text(r.score),
                score_words(variant, to_move, r.score),
                r.nodes,
                r.nps,
                super::moves_line(&r.pv)
            );
        }
    };
    let result = engine.search(&limits, &mut report)?;
    if json {
        let lines = result
            .lines
            .iter()
            .map(|(s, pv)| JsonLine {
                score: score_json(*s),
                pv: super::move_texts(pv),
            })
            .collect();
        print_json(&JsonResult {
            bestmove: result.best_move.map(|m| m.to_string()),
            ponder: result.ponder.map(|m| m.to_string()),
            score: score_json(result.score),
            depth: result.depth,
            nodes: result.nodes,
            lines,
        });
        return Ok(());
    }
    println!();
    let Some(best) = result.best_move else {
        println!("no move");
        return Ok(());
    };
    println!(
        "best move {best}  score {} ({})  depth {}  nodes {}",
        score_text(result.score),
        score_words(variant, to_move, result.score),
        result.depth,
        result.nodes
    );
    for (i, (s, pv)) in result.lines.iter().enumerate() {
        println!(
            "  {}. {:>7}  {}",
            i + 1,
            score_text(*s),
            super::moves_line(pv)
        );
    }
    let session = engine.session_mut();
    session.play(best).map_err(|e| anyhow!("{e}"))?;
    println!();
    println!("after {best}:");
    print!(
        "{}",
        super::play::render(&*session, variant, Some(best), false)
    );
    let after = session.outcome();
    if after.is_decided() {
        println!("{}", outcome_text(variant, after));
    }
    Ok(())
}
