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
//! [`skald::engine::new_tafl_session`]), and a match of an OTEP engine against one of
//! another protocol, whose two engines would be told different rules, is refused before any game
//! (`error: …`, exit 1). Likewise a pairing an engine cannot play at all (an OTEP engine and
//! `copenhagen13`, an HTP engine and another variant or a set-up position, an engine that
//! refuses the new game) is refused before the first game.

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
    /// brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx; also accepted:
    /// hnefatafl (= copenhagen), brandub (= brandubh).
    #[arg(long, value_parser = super::parse_variant)]
    pub variant: Variant,
    /// Number of games, 1 to 1000000 (rounded up to an even number: each opening is played
    /// twice).
    #[arg(long, default_value_t = 20, allow_negative_numbers = true,
          value_parser = Whole::new(1, 1_000_000, "").map(|v| v as u32))]
    pub games: u32,
    /// Time control per side: <seconds>+<increment seconds>, each from 0 to 1000000 (not both
    /// 0), e.g. 10+0.1 or 0.5+0.01.
    #[arg(long, default_value = "10+0.1", allow_hyphen_values = true)]
    pub tc: String,
    /// Search each move to this depth, 1 to 64, instead of playing on the clock (`go depth N`).
    #[arg(long, allow_negative_numbers = true, value_parser = super::depth_parser())]
    pub depth: Option<u32>,
    /// Games played at the same time, 1 to 256 (each with its own pair of engine processes).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = Whole::new(1, 256, "").map(|v| v as u32))]
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
    /// `.otg` (tafl only; one file a game, `<name>-<round>.otg`, the round zero-padded to the
    /// digits of --games). See README.
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
    /// The old name of --output.
    #[arg(long, hide = true, conflicts_with = "output")]
    pub records: Option<std::path::PathBuf>,
    /// Tolerance in seconds beyond an engine's time left before it loses on time: from 0 to
    /// 3600, fractions allowed (default 0.05).
    #[arg(long, allow_negative_numbers = true, value_parser = super::Seconds::ZERO_OR_MORE)]
    pub margin: Option<f64>,
    /// The old name of --margin, in milliseconds.
    #[arg(long, hide = true, conflicts_with = "margin", allow_negative_numbers = true,
          value_parser = Whole::new(0, 3_600_000, ""))]
    pub margin_ms: Option<u64>,
    /// Most seconds an engine may take for one move: more than 0, at most 1000000, fractions
    /// allowed (e.g. 0.5); more loses the game. Off by default: a `--depth` match then waits as
    /// long as a move takes, a clock match as long as the clock allows.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true,
          value_parser = super::Seconds { zero: false, max: game::MAX_MOVE_TIMEOUT_S }
              .map(Duration::from_secs_f64))]
    pub move_timeout: Option<Duration>,
}

mod game;
mod referee;
mod report;
mod sink;

use super::Whole;
use crate::cli::client::{self, EngineSpec, MoveLimits, NewGame};
use crate::cli::stats::Sprt;
use anyhow::{Result, anyhow, bail};
use clap::builder::TypedValueParser;
use game::{Plan, TimeControl};
use indicatif::{ProgressBar, ProgressStyle};
use referee::{load_openings, referee_starts};
use report::Collected;
use sink::RecordSink;
use skald::variant::Variant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::time::Duration;

/// Runs `skald match`: sets it up, plays the games on `--concurrency` workers, counts them as
/// they finish, and prints the result.
pub fn run(args: Args) -> Result<()> {
    let Setup {
        plan,
        sprt,
        mut records,
    } = prepare(&args)?;
    let names = &plan.names;
    let games = plan.games;
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(format!("{} vs {}", names[0], names[1]));

    let (rx, workers) = game::schedule(&plan, args.concurrency);
    let Collected {
        tally,
        fatal,
        mut pending,
    } = report::collect(&plan, rx, &bar, sprt.as_ref(), records.as_mut())?;
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

    report::summary(&tally, names, sprt.as_ref(), games);
    Ok(())
}

/// The match set up ([`prepare`]).
struct Setup {
    /// What the game workers share.
    plan: Arc<Plan>,
    /// The SPRT to run, if any.
    sprt: Option<Sprt>,
    /// Where the records go, if anywhere.
    records: Option<RecordSink>,
}

/// Sets the match up from its arguments: the engines, time control, SPRT and openings parsed,
/// each engine's protocol checked against the variant and openings, the referee's rules of each
/// opening, both engines started once to learn their names and check they take a new game of
/// this match, the records file opened.
///
/// # Errors
/// Bad arguments, an engine that cannot play the match, a records file that cannot be written.
fn prepare(args: &Args) -> Result<Setup> {
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
    let start_fen = variant.start_fen().to_string();
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
    let output = super::renamed(
        args.output.clone(),
        args.records.clone(),
        "--records",
        "--output",
    );
    let records = match &output {
        None => None,
        Some(p) => Some(RecordSink::open(p, variant, games)?),
    };
    let plan = Arc::new(Plan {
        variant,
        specs,
        names,
        tc,
        depth: args.depth,
        margin_ms: super::renamed(
            args.margin.map(|s| (s * 1000.0).round() as u64),
            args.margin_ms,
            "--margin-ms (milliseconds)",
            "--margin (seconds)",
        )
        .unwrap_or(50),
        move_timeout: args.move_timeout,
        starts,
        start_fen,
        games,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    });
    Ok(Setup {
        plan,
        sprt,
        records,
    })
}
