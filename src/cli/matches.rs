//! `skald match`: engine-against-engine games over the engine protocol.
//!
//! The runner keeps the clocks and decides every result by the rules (through the library's
//! [`Session`]); the engines only propose moves. An illegal move, a crash (the engine closes its
//! output) or a flag fall (more than the time left plus `--margin-ms`, 50 ms by default) loses.
//! `--depth` matches have no clock and so no flag fall: the runner waits for a move as long as it
//! takes, unless `--move-timeout SECONDS` (off by default) limits every move, in any match.
//! Each opening is played twice with the colours swapped: games 2k and 2k+1 share opening k, the
//! first engine moving first in the even game.
//!
//! **The rules the referee judges by are exactly the rules the engines were told.** UCI, UAI and
//! HTP engines are told skald's variant (`UCI_Variant`, `uai`, HTP's Copenhagen, which skald's
//! `copenhagen` follows); OTEP engines are told an OpenTafl rules string
//! ([`otep_rules`]), which for no variant says skald's rules exactly (OpenTafl's
//! Copenhagen has its own shieldwall, edge fort and threefold repetition; its strings have no
//! second-occurrence repetition draw and no 100-ply rule). So a match between OTEP engines is
//! judged by the rules string they were sent (read by [`parse_rules`], played by
//! [`skald::protocol::opentafl::new_session`]), and a match of an OTEP engine against one of
//! another protocol, whose two engines would be told different rules, is refused before any game
//! (`error: …`, exit 1). Likewise a pairing an engine cannot play at all (an OTEP engine and
//! `copenhagen13`, an HTP engine and another variant or a set-up position, an engine that
//! refuses the new game) is refused before the first game.

use super::client::{
    self, Client, EngineSpec, MoveLimits, MoveReply, MoveRequest, NewGame, Proto, WaitError,
    otep_rules,
};
use super::records::{GameRecord, RecordFormat};
use super::stats::{Penta, Sprt, SprtModel, SprtState, Wld};
use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use skald::engine::new_session;
use skald::engine::session::Session;
use skald::game::{Outcome, Side};
use skald::tafl::RuleOptions;
use skald::tafl::opentafl::parse_rules;
use skald::variant::Variant;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Arguments of `skald match`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "ENGINE SPEC: either a plain command line ('./target/release/skald'), \
or fields 'cmd=<command> args=<arguments> dir=<working dir> stderr=<file> name=<name> \
proto=<uci|uai|htp|otep> option.<Name>=<value> …', e.g. --engine \"name=easy cmd=./target/release/skald \
option.Skill Level=2 stderr=easy.log\". Words are split by shell quoting rules; a field's value \
runs to the next field, so option names may contain spaces."
)]
pub struct Args {
    /// An engine (give exactly two): a command line, or fields 'cmd=… args=… dir=… stderr=…
    /// name=… proto=uci|uai|htp|otep option.<Name>=<value>'.
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13 or ataxx.
    #[arg(long, value_parser = super::parse_variant)]
    pub variant: Variant,
    /// Number of games (rounded up to an even number: each opening is played twice).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Time control per side: <seconds>+<increment seconds>, e.g. 10+0.1 or 0.5+0.01.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Search each move to this depth instead of playing on the clock (`go depth N`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Games played at the same time (each with its own pair of engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// A file of openings, one a line: a FEN, or a FEN and the moves played from it
    /// (`<fen> moves <move> …`, as `skald openings --moves` writes them); used in order, cycling.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Sequential probability ratio test: elo0=<a> elo1=<b> [alpha=0.05] [beta=0.05]
    /// [model=normalized|logistic|bayesian]; the match stops as soon as the test decides.
    #[arg(long, num_args = 1..=4)]
    pub sprt: Option<Vec<String>>,
    /// Write the game records to this file: PGN, or OpenTafl game records when it ends in
    /// `.otg` (tafl only; one file a game, `<name>-<round>.otg`). See README.
    #[arg(long)]
    pub records: Option<std::path::PathBuf>,
    /// Tolerance in ms beyond an engine's time left before it loses on time.
    #[arg(long, default_value_t = 50)]
    pub margin_ms: u64,
    /// Most seconds an engine may take for one move (fractions allowed, e.g. 0.5); more loses
    /// the game. Off by default: a `--depth` match then waits as long as a move takes, a clock
    /// match as long as the clock allows.
    #[arg(long, value_name = "SECONDS", value_parser = parse_move_timeout)]
    pub move_timeout: Option<Duration>,
}

/// Parses `--move-timeout`: a positive number of seconds, at most 1e6.
fn parse_move_timeout(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 1e6 => Ok(Duration::from_secs_f64(x)),
        _ => Err(format!(
            "expected a positive number of seconds (at most 1000000), got '{text}'"
        )),
    }
}

/// How long the runner waits for a move: in a clock match the time left plus `margin_ms`, in a
/// `--depth` match (`depth` given) without end; either capped by `move_timeout` when given.
/// `None` means no limit. Returns also whether the move timeout is the limit in force.
fn move_allowance(
    depth: Option<u32>,
    clock_left_ms: i64,
    margin_ms: u64,
    move_timeout: Option<Duration>,
) -> (Option<Duration>, bool) {
    let clock = match depth {
        Some(_) => None,
        None => Some(Duration::from_millis(
            clock_left_ms.max(0) as u64 + margin_ms,
        )),
    };
    match (clock, move_timeout) {
        (Some(c), Some(t)) if t < c => (Some(t), true),
        (Some(c), _) => (Some(c), false),
        (None, Some(t)) => (Some(t), true),
        (None, None) => (None, false),
    }
}

/// A time control: base and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time per side, ms.
    pub base_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
}

impl TimeControl {
    /// Parses `<seconds>[+<increment>]`.
    pub fn parse(s: &str) -> Result<TimeControl> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| -> Result<u64> {
            let x: f64 = t
                .trim()
                .parse()
                .map_err(|_| anyhow!("--tc '{s}': '{t}' is not a number of seconds"))?;
            if !(0.0..=1e6).contains(&x) {
                bail!("--tc '{s}': '{t}' is out of range");
            }
            Ok((x * 1000.0).round() as u64)
        };
        let tc = TimeControl {
            base_ms: secs(base)?,
            inc_ms: secs(inc)?,
        };
        if tc.base_ms == 0 && tc.inc_ms == 0 {
            bail!("--tc '{s}': no time at all");
        }
        Ok(tc)
    }
}

/// Everything the game workers share.
struct Plan {
    variant: Variant,
    specs: [EngineSpec; 2],
    names: [String; 2],
    tc: TimeControl,
    depth: Option<u32>,
    margin_ms: u64,
    move_timeout: Option<Duration>,
    /// One a line of the openings file (or the start position): where each game starts.
    starts: Vec<Start>,
    /// The variant's start position (FEN).
    start_fen: String,
    games: usize,
    next: AtomicUsize,
    stop: AtomicBool,
}

/// An opening of the `--openings` file: the position set up (FEN) and the moves played from it
/// before the engines take over (part of the game: sent to the engines and in the records).
#[derive(Clone, Debug)]
struct Opening {
    fen: String,
    moves: Vec<String>,
}

/// Where the games of one opening start, and by which rules they are judged.
struct Start {
    /// The set-up position (skald's FEN of the opening line, or the start position): what
    /// the engines are told to set up.
    setup_fen: String,
    /// The referee's game at the position after the opening's moves, by the rules the engines
    /// were told; each game plays on a copy.
    session: Mutex<Box<dyn Session>>,
    /// The OpenTafl rules string the games are judged by (a match of OTEP engines); `None` for
    /// skald's variant.
    rules: Option<String>,
}

/// skald's own rules of a tafl `variant` (`None` for Ataxx): what UCI and HTP engines are told.
fn skald_rules(variant: Variant) -> Option<RuleOptions> {
    match variant {
        Variant::Brandubh => Some(RuleOptions::brandubh()),
        Variant::Tablut => Some(RuleOptions::tablut()),
        Variant::Tawlbwrdd => Some(RuleOptions::tawlbwrdd()),
        Variant::Copenhagen => Some(RuleOptions::copenhagen()),
        Variant::Copenhagen13 => Some(RuleOptions::copenhagen13()),
        Variant::Ataxx => None,
    }
}

/// The rules on which `a` and `b` differ (the names of [`RuleOptions`]'s fields), the name
/// and start position aside. Square lists compare as sets.
fn rule_differences(a: &RuleOptions, b: &RuleOptions) -> Vec<&'static str> {
    let set = |v: &[skald::tafl::Square]| {
        let mut v = v.to_vec();
        v.sort_unstable();
        v.dedup();
        v
    };
    let sets = |x: &[Vec<skald::tafl::Square>; 3], y: &[Vec<skald::tafl::Square>; 3]| {
        (0..3).all(|k| set(&x[k]) == set(&y[k]))
    };
    // Every field named, so that a new rule cannot be forgotten here.
    let RuleOptions {
        name: _,
        size,
        start_fen: _,
        escape,
        no_stop,
        no_pass,
        hostile,
        hostile_empty,
        hostile_occupied,
        king_armed,
        king_strong,
        king_edge_hostile,
        no_legal_move,
        repetition,
        move_limit,
        linnaean,
        surround,
        shieldwall,
        edge_fort,
        encirclement,
        no_attackers_loses,
        cannot_escape,
        ply_limit,
        speed_limit,
    } = a;
    let mut out = Vec::new();
    let mut differ = |same: bool, what: &'static str| {
        if !same {
            out.push(what);
        }
    };
    differ(*size == b.size, "board size");
    differ(set(escape) == set(&b.escape), "escape squares");
    differ(sets(no_stop, &b.no_stop), "restricted squares");
    differ(sets(no_pass, &b.no_pass), "squares that may not be passed");
    differ(
        sets(hostile, &b.hostile)
            && sets(hostile_empty, &b.hostile_empty)
            && sets(hostile_occupied, &b.hostile_occupied),
        "hostile squares",
    );
    differ(*king_armed == b.king_armed, "armed king");
    differ(
        set(king_strong) == set(&b.king_strong) && *king_edge_hostile == b.king_edge_hostile,
        "king capture",
    );
    differ(*no_legal_move == b.no_legal_move, "no legal move");
    differ(*repetition == b.repetition, "repetition");
    differ(
        *move_limit == b.move_limit && *ply_limit == b.ply_limit,
        "move-count draw",
    );
    differ(set(linnaean) == set(&b.linnaean), "Linnaean capture");
    differ(*surround == b.surround, "surrounding");
    differ(*shieldwall == b.shieldwall, "shieldwall");
    differ(*edge_fort == b.edge_fort, "edge fort");
    differ(*encirclement == b.encirclement, "encirclement");
    differ(
        *no_attackers_loses == b.no_attackers_loses,
        "no attacker left",
    );
    differ(*cannot_escape == b.cannot_escape, "cannot escape");
    differ(*speed_limit == b.speed_limit, "speed limits");
    out
}

/// One finished game, from the runner.
struct Finished {
    index: usize,
    /// Engine 0's points: 1, ½ or 0 (as 2, 1, 0).
    half_points: u8,
    record: GameRecord,
    reason: String,
}

enum Message {
    Game(Box<Finished>),
    Fatal(String),
}

/// Runs `skald match`.
pub fn run(args: Args) -> Result<()> {
    if args.engines.len() != 2 {
        bail!(
            "give exactly two engines (--engine <cmd> --engine <cmd>); got {}",
            args.engines.len()
        );
    }
    let specs = [
        EngineSpec::parse(&args.engines[0])?,
        EngineSpec::parse(&args.engines[1])?,
    ];
    let tc = TimeControl::parse(&args.tc)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| anyhow!(e))?;
    let variant = args.variant;
    let openings = match &args.openings {
        None => vec![None],
        Some(path) => load_openings(path, variant)?,
    };
    let start_fen = new_session(variant).fen();
    let set_up = openings.iter().flatten().any(|o| o.fen != start_fen);
    let protos = specs.each_ref().map(|spec| spec.protocol(variant));
    for (spec, proto) in specs.iter().zip(protos) {
        if let Some(why) = proto.refuses(variant, set_up) {
            bail!("engine '{}': {why}", spec.label());
        }
    }
    let starts = referee_starts(variant, &specs, protos, &openings)?;
    // Check that both engines start and take a new game of this match, and learn their names.
    let mut names = [String::new(), String::new()];
    let probe_limits = MoveLimits {
        clock: [tc.base_ms as i64; 2],
        inc_ms: tc.inc_ms,
        depth: args.depth,
    };
    for (i, spec) in specs.iter().enumerate() {
        let mut e = client::start(spec, variant)?;
        names[i] = spec
            .name
            .clone()
            .or_else(|| e.name())
            .unwrap_or_else(|| spec.label());
        let game = NewGame {
            variant,
            setup_fen: &starts[0].setup_fen,
            start_fen: &start_fen,
            limits: &probe_limits,
        };
        if let Err(why) = e.new_game(&game) {
            bail!("engine '{}' cannot play this match: {why}", names[i]);
        }
        e.quit();
    }
    if names[0] == names[1] {
        names[0] += " #1";
        names[1] += " #2";
    }

    let games = (args.games as usize).div_ceil(2) * 2;
    let mut records = match &args.records {
        None => None,
        Some(p) => Some(RecordSink::open(p, variant, games)?),
    };
    let plan = Arc::new(Plan {
        variant,
        specs,
        names: names.clone(),
        tc,
        depth: args.depth,
        margin_ms: args.margin_ms,
        move_timeout: args.move_timeout,
        starts,
        start_fen,
        games,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    });

    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("{} vs {}", names[0], names[1]));

    let (tx, rx) = channel::<Message>();
    let workers: Vec<_> = (0..args.concurrency.min(games as u32))
        .map(|_| {
            let plan = Arc::clone(&plan);
            let tx = tx.clone();
            std::thread::spawn(move || worker(&plan, &tx))
        })
        .collect();
    drop(tx);

    let mut wld = Wld::default();
    let mut penta = Penta::default();
    // Half points of the first finished game of each pair still waiting for its partner.
    let mut halves: std::collections::HashMap<usize, u8> = std::collections::HashMap::new();
    let mut decision = SprtState::Continue;
    let mut decided_at = 0usize;
    let mut fatal = None;
    // Records are written in game order: hold finished games until the earlier ones are in.
    let mut pending: Vec<Finished> = Vec::new();
    let mut next_record = 0usize;
    let mut played = 0usize;
    for msg in rx {
        let g = match msg {
            Message::Fatal(e) => {
                fatal = Some(e);
                plan.stop.store(true, Ordering::Relaxed);
                break;
            }
            Message::Game(g) => *g,
        };
        if plan.stop.load(Ordering::Relaxed) {
            continue; // a game finished after the test had decided
        }
        played += 1;
        match g.half_points {
            2 => wld.wins += 1,
            0 => wld.losses += 1,
            _ => wld.draws += 1,
        }
        let pair_done = match halves.remove(&(g.index / 2)) {
            Some(other) => {
                penta.add(other, g.half_points);
                true
            }
            None => {
                halves.insert(g.index / 2, g.half_points);
                false
            }
        };
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            g.index + 1,
            g.record.first,
            g.record.second,
            g.record.result_text(),
            g.reason
        );
        bar.suspend(|| println!("{line}"));
        bar.inc(1);
        let (elo, err) = wld.elo();
        let mut msg = format!(
            "{} vs {}: {}-{}-{} Elo {} ± {}",
            names[0],
            names[1],
            wld.wins,
            wld.losses,
            wld.draws,
            fmt_elo(elo),
            fmt_elo(err)
        );
        if let Some(s) = &sprt {
            let (lo, hi) = s.bounds();
            let llr = deciding_llr(s, &wld, &penta);
            msg += &format!(" LLR {llr:.2} ({lo:.2}, {hi:.2})");
            // The pentanomial test is checked when a pair is complete (fastchess), the
            // trinomial one (bayesian model) after every game.
            if pair_done || s.model == SprtModel::Bayesian {
                decision = s.state(llr);
                decided_at = played;
            }
        }
        bar.set_message(msg);
        pending.push(g);
        if let Some(w) = records.as_mut() {
            pending.sort_by_key(|g| std::cmp::Reverse(g.index));
            while pending.last().is_some_and(|g| g.index == next_record) {
                let g = pending.pop().expect("non-empty");
                w.write(&g.record)?;
                next_record += 1;
            }
        } else {
            pending.clear();
        }
        if decision != SprtState::Continue {
            plan.stop.store(true, Ordering::Relaxed);
        }
    }
    for w in workers {
        let _ = w.join();
    }
    bar.finish_and_clear();
    if let Some(w) = records.as_mut() {
        // Games after a gap (an aborted one) are written too, in order.
        pending.sort_by_key(|g| g.index);
        for g in &pending {
            w.write(&g.record)?;
        }
    }
    if let Some(e) = fatal {
        bail!("{e}");
    }

    let (elo, err) = wld.elo();
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        wld.wins,
        wld.losses,
        wld.draws,
        wld.score(),
        played
    );
    println!(
        "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        fmt_elo(elo),
        fmt_elo(err),
        100.0 * wld.los(),
        100.0 * wld.draws as f64 / played.max(1) as f64
    );
    let [ll, ld, even, wd, ww] = penta.ptnml();
    let unpaired = if halves.is_empty() {
        String::new()
    } else {
        format!(" ({} unpaired games not counted)", halves.len())
    };
    println!(
        "Ptnml(0-2): [{ll}, {ld}, {even}, {wd}, {ww}], WL/DD: {}/{}, pairs: {}{unpaired}",
        penta.wl,
        penta.dd,
        penta.pairs()
    );
    if let Some(e) = penta.estimate() {
        println!(
            "Pentanomial Elo: {} +/- {}, nElo: {} +/- {}, LOS: {:.1} %",
            fmt_elo(e.elo),
            fmt_elo(e.error),
            fmt_elo(e.nelo),
            fmt_elo(e.nelo_error),
            100.0 * e.los
        );
    }
    if let Some(s) = &sprt {
        let (lo, hi) = s.bounds();
        let llr = deciding_llr(s, &wld, &penta);
        let early = |at: usize| {
            if at < games {
                format!("stopped early, {} of {games} games not played", games - at)
            } else {
                "at the last game".to_string()
            }
        };
        let from = match penta.llr(s) {
            Some(_) => format!("pentanomial; trinomial {:.3}", wld.llr(s)),
            None => "trinomial".to_string(),
        };
        println!(
            "SPRT: llr {llr:.3} ({from}), lbound {lo:.3}, ubound {hi:.3} (elo0 {}, elo1 {}, \
             alpha {}, beta {}, {} Elo)",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.model.name()
        );
        println!(
            "SPRT: {}",
            match decision {
                SprtState::H0 => format!(
                    "H0 accepted at game {decided_at} ({}: llr {llr:.3} <= {lo:.3})",
                    early(decided_at)
                ),
                SprtState::H1 => format!(
                    "H1 accepted at game {decided_at} ({}: llr {llr:.3} >= {hi:.3})",
                    early(decided_at)
                ),
                SprtState::Continue => format!(
                    "inconclusive: ran out of games after {played} with llr {llr:.3} between \
                     the bounds"
                ),
            }
        );
    }
    Ok(())
}

/// The LLR that decides the SPRT: the pentanomial one (fastchess's default), or the trinomial
/// one for the bayesian model, which has no pentanomial form.
fn deciding_llr(s: &Sprt, wld: &Wld, penta: &Penta) -> f64 {
    penta.llr(s).unwrap_or_else(|| wld.llr(s))
}

/// Where finished games' records go: one PGN file, or one OpenTafl record a game.
enum RecordSink {
    /// All games in one PGN file.
    Pgn(std::io::BufWriter<std::fs::File>),
    /// `<stem>-<round>.otg` beside the given path, rounds zero-padded to `width` digits.
    Otg {
        /// The path given.
        path: std::path::PathBuf,
        /// Digits of the largest round number.
        width: usize,
    },
}

impl RecordSink {
    /// Opens the sink for `path` (by extension: `.otg` for OpenTafl records, tafl only).
    fn open(path: &std::path::Path, variant: Variant, games: usize) -> Result<RecordSink> {
        match RecordFormat::of_path(path) {
            RecordFormat::Otg => {
                if !variant.is_tafl() {
                    bail!(
                        "--records {}: OpenTafl records (.otg) are for tafl games; use .pgn",
                        path.display()
                    );
                }
                let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
                if dir.is_some_and(|d| !d.is_dir()) {
                    bail!("--records {}: no such directory", path.display());
                }
                Ok(RecordSink::Otg {
                    path: path.to_path_buf(),
                    width: games.to_string().len(),
                })
            }
            RecordFormat::Pgn => Ok(RecordSink::Pgn(std::io::BufWriter::new(
                std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            ))),
        }
    }

    /// The file game `round` (1-based) goes to, for OpenTafl records.
    fn otg_path(path: &std::path::Path, width: usize, round: usize) -> std::path::PathBuf {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".into());
        path.with_file_name(format!("{stem}-{round:0width$}.otg"))
    }

    /// Writes one game.
    fn write(&mut self, record: &GameRecord) -> Result<()> {
        match self {
            RecordSink::Pgn(w) => {
                w.write_all(record.to_pgn().as_bytes())?;
                w.flush()?;
            }
            RecordSink::Otg { path, width } => {
                let file = Self::otg_path(path, *width, record.round.unwrap_or(0));
                let text = record.to_otg().map_err(|e| anyhow!("record: {e}"))?;
                std::fs::write(&file, text)
                    .with_context(|| format!("cannot write {}", file.display()))?;
            }
        }
        Ok(())
    }
}

/// The start of each opening's games with the referee's rules: skald's variant, or, in a match
/// of OTEP engines, the OpenTafl rules string they are told (the opening's moves replayed under
/// it). Refuses an OTEP engine that cannot be told the variant, and an OTEP engine against an
/// engine of another protocol when the two would be told different rules.
fn referee_starts(
    variant: Variant,
    specs: &[EngineSpec; 2],
    protos: [Proto; 2],
    openings: &[Option<Opening>],
) -> Result<Vec<Start>> {
    let otep: Vec<usize> = (0..2)
        .filter(|&i| protos[i].tells_opentafl_rules())
        .collect();
    let mut starts = Vec::new();
    for (n, opening) in openings.iter().enumerate() {
        let mut skald = new_session(variant);
        if let Some(o) = opening {
            let moves: Vec<&str> = o.moves.iter().map(String::as_str).collect();
            skald
                .set_position(Some(&o.fen), &moves)
                .expect("openings are checked when loaded");
        }
        let setup_fen = skald.setup_fen();
        let Some(&first_otep) = otep.first() else {
            starts.push(Start {
                setup_fen,
                session: Mutex::new(skald),
                rules: None,
            });
            continue;
        };
        let label = specs[first_otep].label();
        let rules =
            otep_rules(variant, &setup_fen).map_err(|e| anyhow!("engine '{label}': {e}"))?;
        let options = parse_rules(&rules)
            .map_err(|e| anyhow!("engine '{label}': the rules string '{rules}': {e}"))?;
        if otep.len() == 1 {
            let other = 1 - first_otep;
            let ours = skald_rules(variant).expect("OTEP engines are refused for Ataxx");
            let diff = rule_differences(&options, &ours);
            if !diff.is_empty() {
                bail!(
                    "engine '{label}' (OTEP) would be told OpenTafl's rules '{rules}', engine \
                     '{}' ({}) skald's {variant}; they differ ({}), and one referee cannot \
                     judge a game by both: pair OTEP engines with OTEP engines (skald itself: \
                     proto=otep cmd=<skald> opentafl)",
                    specs[other].label(),
                    protos[other].name(),
                    diff.join(", ")
                );
            }
        }
        let mut session = skald::protocol::opentafl::new_session(options)
            .map_err(|e| anyhow!("engine '{label}': the rules string '{rules}': {e}"))?;
        let line = |n: usize| {
            if opening.is_some() {
                format!("opening {}", n + 1)
            } else {
                "the start position".to_string()
            }
        };
        for mv in skald.moves_played() {
            session.play(&mv).map_err(|e| {
                anyhow!(
                    "{}: move '{mv}' under the OpenTafl rules the OTEP engines are told \
                     ('{rules}'): {e}",
                    line(n)
                )
            })?;
        }
        if session.outcome().is_decided() {
            bail!(
                "{}: the game is already over under the OpenTafl rules the OTEP engines are \
                 told ('{rules}')",
                line(n)
            );
        }
        starts.push(Start {
            setup_fen,
            session: Mutex::new(session),
            rules: Some(rules),
        });
    }
    Ok(starts)
}

fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        // Avoid "-0.0".
        format!("{:.1}", if x.abs() < 0.05 { 0.0 } else { x })
    }
}

/// Reads an openings file: one FEN a line, optionally followed by ` moves ` and moves played
/// from it; empty lines and lines starting with `#` skipped. Errors name the line.
fn load_openings(path: &std::path::Path, variant: Variant) -> Result<Vec<Option<Opening>>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read openings file {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, moves) = match line.split_once(" moves ") {
            Some((fen, moves)) => (fen.trim(), moves.split_whitespace().collect::<Vec<_>>()),
            None => (
                line.strip_suffix(" moves").unwrap_or(line).trim(),
                Vec::new(),
            ),
        };
        let mut s = new_session(variant);
        s.set_position(Some(fen), &moves)
            .map_err(|e| anyhow!("{}:{}: {e}", path.display(), i + 1))?;
        if s.outcome().is_decided() {
            bail!(
                "{}:{}: the game is already over there",
                path.display(),
                i + 1
            );
        }
        out.push(Some(Opening {
            fen: s.setup_fen(),
            moves: s.moves_played(),
        }));
    }
    if out.is_empty() {
        bail!("openings file {} has no positions", path.display());
    }
    Ok(out)
}

fn worker(plan: &Plan, tx: &Sender<Message>) {
    let mut engines: [Option<Box<dyn Client>>; 2] = [None, None];
    loop {
        if plan.stop.load(Ordering::Relaxed) {
            break;
        }
        let index = plan.next.fetch_add(1, Ordering::Relaxed);
        if index >= plan.games {
            break;
        }
        for (i, slot) in engines.iter_mut().enumerate() {
            if slot.is_none() {
                match client::start(&plan.specs[i], plan.variant) {
                    Ok(e) => *slot = Some(e),
                    Err(e) => {
                        let _ = tx.send(Message::Fatal(format!("{e:#}")));
                        return;
                    }
                }
            }
        }
        match play_game(plan, index, &mut engines) {
            Some(g) => {
                if tx.send(Message::Game(Box::new(g))).is_err() {
                    break;
                }
            }
            None => break, // aborted
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// Plays game `index`; `None` when aborted by the stop flag. An engine that misbehaved is
/// removed from `engines` (killed), to be restarted for the next game.
fn play_game(
    plan: &Plan,
    index: usize,
    engines: &mut [Option<Box<dyn Client>>; 2],
) -> Option<Finished> {
    let start = &plan.starts[(index / 2) % plan.starts.len()];
    // Engine that moves first: engine 0 in even games.
    let first_engine = index % 2;
    let engine_of = |side: Side| match side {
        Side::First => first_engine,
        Side::Second => 1 - first_engine,
    };
    let mut session: Box<dyn Session> = start
        .session
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .boxed_clone();
    let start_fen = plan.start_fen.clone();
    let setup_fen = start.setup_fen.clone();

    let mut clock = [plan.tc.base_ms as i64; 2];
    let limits = |clock: [i64; 2]| MoveLimits {
        clock,
        inc_ms: plan.tc.inc_ms,
        depth: plan.depth,
    };
    let mut result: Option<(Option<Side>, String)> = None;
    for side in [Side::First, Side::Second] {
        let e = engines[engine_of(side)].as_mut().expect("started");
        let game = NewGame {
            variant: plan.variant,
            setup_fen: &setup_fen,
            start_fen: &start_fen,
            limits: &limits(clock),
        };
        if let Err(why) = e.new_game(&game) {
            engines[engine_of(side)] = None;
            result = Some((
                Some(side.opponent()),
                format!(
                    "{} did not start the game: {why}",
                    plan.names[engine_of(side)]
                ),
            ));
            break;
        }
    }

    while result.is_none() {
        if let Outcome::Decided { winner, reason } = session.outcome() {
            result = Some((winner, reason.to_string()));
            break;
        }
        let side = session.side_to_move();
        let ei = engine_of(side);
        let name = &plan.names[ei];
        let e = engines[ei].as_mut().expect("started");
        let started = Instant::now();
        let (allowed, by_timeout) = move_allowance(
            plan.depth,
            clock[side.index()],
            plan.margin_ms,
            plan.move_timeout,
        );
        let request = MoveRequest {
            session: session.as_ref(),
            limits: &limits(clock),
            deadline: allowed.map(|a| started + a),
            abort: Some(&plan.stop),
        };
        let answer = e.request_move(&request);
        let elapsed = started.elapsed().as_millis() as i64;
        let mv = match answer {
            Ok(MoveReply::Move(mv)) => mv,
            Ok(MoveReply::Resign) => {
                result = Some((Some(side.opponent()), format!("{name} resigns")));
                break;
            }
            Ok(MoveReply::Refused(why)) => {
                engines[ei] = None;
                result = Some((
                    Some(side.opponent()),
                    format!("{name} refused a move legal by skald's rules: {why}"),
                ));
                break;
            }
            Err(WaitError::Aborted) => return None,
            Err(WaitError::Timeout) => {
                engines[ei] = None;
                let why = if by_timeout {
                    format!(
                        "{name} exceeded the move timeout ({} s)",
                        allowed.unwrap_or_default().as_secs_f64()
                    )
                } else {
                    format!("{name} loses on time")
                };
                result = Some((Some(side.opponent()), why));
                break;
            }
            Err(WaitError::Disconnected) => {
                engines[ei] = None;
                result = Some((Some(side.opponent()), format!("{name} crashed")));
                break;
            }
        };
        if plan.depth.is_none() {
            if elapsed > clock[side.index()] + plan.margin_ms as i64 && !by_timeout {
                engines[ei] = None;
                result = Some((Some(side.opponent()), format!("{name} loses on time")));
                break;
            }
            clock[side.index()] = (clock[side.index()] - elapsed).max(0) + plan.tc.inc_ms as i64;
        }
        let mv = mv.as_str();
        if let Err(why) = session.play(mv) {
            engines[ei] = None;
            let shown = if mv.is_empty() { "(nothing)" } else { mv };
            result = Some((
                Some(side.opponent()),
                format!("{name} played an illegal move '{shown}': {why}"),
            ));
        } else {
            e.move_accepted(session.as_ref());
        }
    }
    let (winner, reason) = result.expect("the loop ends with a result");
    for e in engines.iter_mut().flatten() {
        e.game_over(Some(winner));
    }
    let half_points = match winner {
        None => 1,
        Some(w) if engine_of(w) == 0 => 2,
        Some(_) => 0,
    };
    let record = GameRecord {
        variant: plan.variant,
        event: "skald match".into(),
        round: Some(index + 1),
        first: plan.names[first_engine].clone(),
        second: plan.names[1 - first_engine].clone(),
        setup_fen,
        start_fen,
        moves: session.moves_played(),
        result: Some(winner),
        termination: Some(reason.clone()),
        rules: start.rules.clone(),
    };
    Some(Finished {
        index,
        half_points,
        record,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("0.5+0.01").unwrap(),
            TimeControl {
                base_ms: 500,
                inc_ms: 10
            }
        );
        assert_eq!(TimeControl::parse("10").unwrap().inc_ms, 0);
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("0+0").is_err());
        assert!(TimeControl::parse("-1+0").is_err());
    }

    /// Faults issue, item 3: a `--depth` match has no clock and waits for a move without end
    /// (it had a hard 600 s); `--move-timeout` limits every move, the clock's limit too when
    /// shorter.
    #[test]
    fn move_allowance_has_no_limit_without_a_clock_or_a_timeout() {
        let secs = Duration::from_secs;
        assert_eq!(move_allowance(Some(4), 0, 50, None), (None, false));
        assert_eq!(
            move_allowance(Some(4), 0, 50, Some(secs(3))),
            (Some(secs(3)), true)
        );
        assert_eq!(
            move_allowance(None, 1000, 50, None),
            (Some(Duration::from_millis(1050)), false)
        );
        assert_eq!(
            move_allowance(None, 1000, 50, Some(secs(3))),
            (Some(Duration::from_millis(1050)), false)
        );
        assert_eq!(
            move_allowance(None, 10_000, 50, Some(secs(3))),
            (Some(secs(3)), true)
        );
        assert_eq!(
            move_allowance(None, -5, 50, None).0,
            Some(Duration::from_millis(50))
        );
        assert!(parse_move_timeout("0").is_err());
        assert!(parse_move_timeout("-2").is_err());
        assert!(parse_move_timeout("x").is_err());
        assert_eq!(parse_move_timeout("0.5"), Ok(Duration::from_millis(500)));
    }

    /// Faults issue, item 1: what the OpenTafl strings sent to OTEP engines say differs from
    /// skald's rules of every variant (so OTEP engines meet only OTEP engines), and in the
    /// repetition rule in particular; the strings parse back to what they say.
    #[test]
    fn opentafl_rules_sent_differ_from_skalds() {
        use skald::game::RepetitionRule;
        for v in [
            Variant::Brandubh,
            Variant::Tablut,
            Variant::Tawlbwrdd,
            Variant::Copenhagen,
        ] {
            let start = new_session(v).fen();
            let sent = otep_rules(v, &start).unwrap();
            let options = parse_rules(&sent).unwrap();
            let ours = skald_rules(v).unwrap();
            assert!(rule_differences(&ours, &ours).is_empty());
            let diff = rule_differences(&options, &ours);
            assert!(diff.contains(&"repetition"), "{v}: {diff:?}");
            let want = if v == Variant::Copenhagen {
                RepetitionRule::MoverLoses(3)
            } else {
                RepetitionRule::Draw(3)
            };
            assert_eq!(options.repetition, want, "{v}: {sent}");
        }
        let diff = rule_differences(
            &parse_rules(
                &otep_rules(Variant::Copenhagen, &new_session(Variant::Copenhagen).fen()).unwrap(),
            )
            .unwrap(),
            &RuleOptions::copenhagen(),
        );
        for d in [
            "edge fort",
            "move-count draw",
            "cannot escape",
            "encirclement",
        ] {
            assert!(diff.contains(&d), "{d}: {diff:?}");
        }
        assert!(!diff.contains(&"shieldwall"), "{diff:?}");
    }
}
