//! The `skald` binary: with no subcommand, the engine on stdin/stdout (protocol.md); with a
//! subcommand, a tool for people (perft, bench).

use anyhow::{Context, Result, bail};
use clap::builder::TypedValueParser;
use clap::{CommandFactory, Parser, Subcommand};
use cli::Whole;
use skald::engine::{Engine, new_session};
use skald::protocol::{Output, uci::Uci};
use skald::variant::Variant;
use std::io::IsTerminal;
use std::time::Instant;

mod cli;
#[cfg(feature = "serve")]
mod serve;

#[derive(Parser)]
#[command(
    name = "skald",
    version,
    about = "A game engine for tafl (brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton, \
        OpenTafl rules strings) and Ataxx.",
    long_about = "A game engine for tafl (brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton, \
        OpenTafl rules strings) and Ataxx.\n\n\
        With no subcommand, skald is an engine speaking a UCI-style protocol (and UAI) on \
        stdin/stdout; see protocol.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game against the engine, or two people at one terminal.
    ///
    /// The rules of each game: `skald rules <variant>`.
    Play(cli::play::Args),
    /// Print the rules of a game for players (`skald rules tablut`), or the list of games.
    Rules(cli::rules::Args),
    /// Analyse a position: the best lines at each depth.
    Analyze(cli::analyze::Args),
    /// Run an engine-against-engine match.
    Match(cli::matches::Args),
    /// Read game records (PGN or OpenTafl .otg), replay them by the rules, convert them.
    Records(cli::records::Args),
    /// Generate an openings file of balanced positions, one FEN a line.
    Openings(cli::openings::Args),
    /// Self-play games for training an evaluation (Ataxx by default, any variant): "FEN | score
    /// | result" lines, score and result from the side to move's view.
    Datagen(cli::datagen::Args),
    /// Play on hnefatafl.org's game server (or a local one) as a bot account: Copenhagen 11×11
    /// and 13×13. The password comes from SKALD_BOT_PASSWORD or --password-file.
    Bot(cli::bot::Args),
    /// Play and analyse in the browser: a local web server (`skald serve --open`).
    #[cfg(feature = "serve")]
    Serve(serve::Args),
    /// Speak the OpenTafl engine protocol on stdin/stdout (for OpenTafl's engine .ini).
    Opentafl,
    /// Speak hnefatafl.org's Hnefatafl Text Protocol (Copenhagen) on stdin/stdout.
    Htp(HtpArgs),
    /// Play Ashton Tablut on the Tablut competition's server (Server.jar): ROLE white or black,
    /// TIMEOUT seconds per move (default 60), HOST (default localhost).
    TablutClient(cli::tablut_client::Args),
    /// The engine on stdin/stdout in the UCI-style protocol (and UAI), as with no subcommand,
    /// optionally starting in another variant (protocol.md).
    Uci {
        /// The variant to start in (the option UCI_Variant; default brandubh): brandubh,
        /// tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx. Also accepted: hnefatafl
        /// (= copenhagen), brandub (= brandubh).
        #[arg(long, value_parser = parse_variant)]
        variant: Option<Variant>,
    },
    /// Count the leaf nodes of the legal-move tree (move generator check and speed test).
    Perft {
        /// brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx. Also accepted:
        /// hnefatafl (= copenhagen), brandub (= brandubh).
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
        /// Depth in plies, from 1, at most: ataxx 8, brandubh 7, tablut 6, ashton 6, tawlbwrdd 5,
        /// copenhagen 5, copenhagen13 5 (from the start position on one core, measured: under a
        /// minute for ataxx, brandubh, tawlbwrdd and copenhagen, about 2 minutes for tablut,
        /// ashton and copenhagen13; each ply more multiplies the time by 30 to 120).
        #[arg(long, allow_negative_numbers = true,
              value_parser = Whole::new(1, u64::MAX, "").map(|v| v.min(u32::MAX as u64) as u32))]
        depth: u32,
        /// Start from this position instead of the start position.
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// Print each legal move with its count.
        #[arg(long)]
        divide: bool,
        /// Threads counting the root moves' subtrees in parallel (1 to 256).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true,
              value_parser = Whole::new(1, 256, "").map(|v| v as usize))]
        threads: usize,
    },
    /// Search a fixed set of positions of every variant; ends with "<nodes> nodes <nps> nps".
    Bench {
        /// Depth per position in plies, 1 to 10 (measured on one core: 4 s at the default 7,
        /// 50 s at 10; each ply more doubles to triples the time). A line per position on
        /// standard error shows progress.
        #[arg(long, default_value_t = skald::bench::DEFAULT_DEPTH, allow_negative_numbers = true,
              value_parser = Whole::new(1, 10, "each ply more doubles to triples the time").map(|v| v as u32))]
        depth: u32,
        /// Search threads (the engine option Threads): 1 to four per core.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true,
              value_parser = cli::threads_parser().map(|v| v as u64))]
        threads: u64,
        /// The evaluation (the engine option EvalFile): hand (the hand-written evaluation), a
        /// network file's path, or by default (<default>) the built-in network for Ataxx and
        /// the hand-written evaluation for tafl.
        #[arg(long, default_value = skald::engine::EVAL_FILE_DEFAULT, hide_default_value = true)]
        eval_file: String,
    },
}

/// Arguments of `skald htp`: how `generate_move` bounds its search.
#[derive(clap::Args)]
struct HtpArgs {
    /// Search at most this many plies per move, 1 to 64 (with or without time_settings).
    #[arg(long, allow_negative_numbers = true, value_parser = cli::depth_parser())]
    depth: Option<u32>,
    /// Search at most this many nodes per move, 1 to 1000000000 (with or without
    /// time_settings).
    #[arg(long, allow_negative_numbers = true,
          value_parser = Whole::new(1, 1_000_000_000, ""))]
    nodes: Option<u64>,
    /// Seconds per move in an un-timed game: more than 0, at most 3600, fractions allowed
    /// (default 2 without --depth/--nodes).
    #[arg(long, allow_negative_numbers = true, value_parser = cli::Seconds::POSITIVE)]
    time: Option<f64>,
    /// The old name of --time, in milliseconds.
    #[arg(long, hide = true, conflicts_with = "time", allow_negative_numbers = true,
          value_parser = Whole::new(1, 3_600_000, ""))]
    movetime: Option<u64>,
    /// Search threads (the engine option Threads): 1 to four per core.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = cli::threads_parser())]
    threads: u32,
    /// Hash table size, MiB (the engine option Hash): 1 to 65536.
    #[arg(long, default_value_t = skald::engine::DEFAULT_HASH_MIB as u32,
          allow_negative_numbers = true, value_parser = cli::hash_parser())]
    hash: u32,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse::<Variant>().map_err(|e| e.to_string())
}

/// Errors end the program with a one-line `error: …` on stderr and exit status 1 (never a
/// backtrace, whatever `RUST_BACKTRACE` says), argument errors included; `--help` and
/// `--version` exit 0.
fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parsed = Cli::try_parse_from(&args);
    let cli = parsed.unwrap_or_else(|e| cli::argument_error(e, &Cli::command(), &args));
    // Set by tests/doc_examples.rs, which checks that every command line the documents show
    // parses: it stops here, before anything runs.
    if std::env::var_os("SKALD_ONLY_PARSE_ARGUMENTS").is_some() {
        only_parse(&args);
        return;
    }
    if cli.command.as_ref().is_some_and(Command::writes_for_people) {
        quiet_broken_pipe();
    }
    let _ = cli::finish(run(cli));
}

/// For the documents' test: says "arguments parsed", or names the old (hidden) flag spellings
/// that `args` uses and exits 2: documents show the current names only.
fn only_parse(args: &[std::ffi::OsString]) {
    let mut cmd = Cli::command();
    let Ok(mut matches) = cmd.clone().try_get_matches_from(args) else {
        return;
    };
    let mut old = Vec::new();
    loop {
        for arg in cmd.get_arguments() {
            if arg.is_hide_set()
                && matches.value_source(arg.get_id().as_str())
                    == Some(clap::parser::ValueSource::CommandLine)
            {
                old.push(format!(
                    "--{}",
                    arg.get_long().unwrap_or(arg.get_id().as_str())
                ));
            }
        }
        let Some((name, sub)) = matches.remove_subcommand() else {
            break;
        };
        let Some(next) = cmd.find_subcommand(&name).cloned() else {
            break;
        };
        cmd = next;
        matches = sub;
    }
    if old.is_empty() {
        println!("arguments parsed");
    } else {
        eprintln!("old flag names used: {}", old.join(", "));
        std::process::exit(2);
    }
}

impl Command {
    /// The tools for people, whose output may be piped into `head` and the like (the engine
    /// modes, the server clients and `serve` ignore a closed output or socket instead: a write to
    /// it is an error they handle, not a signal that ends the process).
    fn writes_for_people(&self) -> bool {
        #[cfg(feature = "serve")]
        if matches!(self, Command::Serve(_)) {
            return false;
        }
        !matches!(
            self,
            Command::Opentafl | Command::Htp(_) | Command::Bot(_) | Command::TablutClient(_)
        )
    }
}

/// Like other command-line tools: when the reader of our output goes away (`skald match … |
/// head`), end quietly with the default `SIGPIPE` action instead of a panic from `println!`.
fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        None => uci(None),
        Some(Command::Uci { variant }) => uci(variant),
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
            threads,
        }) => perft(variant, depth, fen.as_deref(), divide, threads),
        Some(Command::Play(args)) => cli::play::run(args),
        Some(Command::Rules(args)) => cli::rules::run(args),
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Match(args)) => cli::matches::run(args),
        Some(Command::Openings(args)) => cli::openings::run(args),
        Some(Command::Records(args)) => cli::records::run(args),
        Some(Command::Datagen(args)) => cli::datagen::run(args),
        Some(Command::Bot(args)) => cli::bot::run(args),
        Some(Command::TablutClient(args)) => cli::tablut_client::run(args),
        #[cfg(feature = "serve")]
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Opentafl) => {
            skald::protocol::opentafl::run(&mut std::io::stdin().lock(), Output::stdout());
            Ok(())
        }
        Some(Command::Htp(args)) => {
            let mut engine = Engine::new()?;
            cli::set_engine_flags(
                &mut engine,
                &[
                    ("--threads", "Threads", args.threads.to_string()),
                    ("--hash", "Hash", args.hash.to_string()),
                ],
            )?;
            let time_ms = args.time.map(|s| ((s * 1000.0).round() as u64).max(1));
            let settings = skald::protocol::htp::Settings {
                depth: args.depth,
                nodes: args.nodes,
                movetime: cli::renamed(
                    time_ms,
                    args.movetime,
                    "--movetime (milliseconds)",
                    "--time (seconds)",
                ),
            };
            skald::protocol::htp::run(
                &mut std::io::stdin().lock(),
                Output::stdout(),
                engine,
                settings,
            );
            Ok(())
        }
        Some(Command::Bench {
            depth,
            threads,
            eval_file,
        }) => {
            // The flags' values as the other subcommands check them (the bench itself would
            // name the engine options).
            let mut engine = Engine::new()?;
            cli::set_engine_flags(
                &mut engine,
                &[("--eval-file", "EvalFile", eval_file.clone())],
            )?;
            drop(engine);
            let mut last = std::time::Instant::now();
            let result = skald::bench::run_with_eval(
                depth,
                threads as usize,
                &eval_file,
                |variant, fen, nodes| {
                    let ms = last.elapsed().as_millis();
                    last = std::time::Instant::now();
                    let name = variant.name();
                    eprintln!("{name:<12} {nodes:>9} nodes {ms:>7} ms  {fen}")
                },
            )?;
            println!("{} nodes {} nps", result.nodes, result.nps());
            Ok(())
        }
    }
}

/// The engine loop on stdin/stdout (UCI/UAI), in `variant` from the start if given.
fn uci(variant: Option<Variant>) -> Result<()> {
    let mut engine = Engine::new()?;
    if let Some(v) = variant {
        cli::set_engine_flags(
            &mut engine,
            &[("--variant", "UCI_Variant", v.name().to_string())],
        )?;
    }
    let mut uci = Uci::new(Output::stdout(), engine);
    uci.run(&mut std::io::stdin().lock());
    Ok(())
}

/// `skald perft`: checks the per-variant depth bound, counts (on `threads` threads, with a
/// progress bar over the root moves when standard error is a terminal) and prints the counts.
fn perft(
    variant: Variant,
    depth: u32,
    fen: Option<&str>,
    divide: bool,
    threads: usize,
) -> Result<()> {
    let max = skald::perft::max_cli_depth(variant);
    if depth > max {
        bail!(
            "--depth must be at most {max} for {variant} (each ply more multiplies the time by 30 \
             to 120), got {depth}; see 'skald perft --help'"
        );
    }
    let mut session = new_session(variant);
    if let Some(fen) = fen {
        session
            .set_position(Some(fen), &[])
            .map_err(|e| cli::fen_error(e, variant))?;
    }
    let bar = if std::io::stderr().is_terminal() && depth >= 4 {
        indicatif::ProgressBar::new(session.legal_moves().len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} root moves",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let start = Instant::now();
    let counts = session
        .divide_parallel(depth, threads, &|| bar.inc(1))
        .context("cannot start the perft threads")?;
    bar.finish_and_clear();
    let elapsed = start.elapsed();
    if divide {
        for (mv, n) in &counts {
            println!("{mv}: {n}");
        }
        println!();
    }
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    println!("Nodes searched: {total}");
    let secs = elapsed.as_secs_f64();
    println!(
        "Time: {:.3} s, {:.0} nps",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}
