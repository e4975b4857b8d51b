//! The `skald` binary: with no subcommand, the engine on stdin/stdout (protocol.md); with a
//! subcommand, a tool for people (perft, bench).

use anyhow::{Result, bail};
use clap::{Parser, Subcommand};
use skald::engine::{Engine, new_session};
use skald::protocol::{Output, uci::Uci};
use skald::variant::Variant;
use std::time::Instant;

mod cli;

#[derive(Parser)]
#[command(
    name = "skald",
    version,
    about = "A game engine for tafl (brandubh, tablut, tawlbwrdd) and Ataxx.",
    long_about = "A game engine for tafl (brandubh, tablut, tawlbwrdd) and Ataxx.\n\n\
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
    Play(cli::play::Args),
    /// Analyse a position: the best lines at each depth.
    Analyze(cli::analyze::Args),
    /// Run an engine-against-engine match.
    Match(cli::matches::Args),
    /// Read game records (PGN or OpenTafl .otg), replay them by the rules, convert them.
    Records(cli::record::Args),
    /// Generate an openings file of balanced positions, one FEN a line.
    Openings(cli::openings::Args),
    /// Speak the OpenTafl engine protocol on stdin/stdout (for OpenTafl's engine .ini).
    Opentafl,
    /// Speak hnefatafl.org's Hnefatafl Text Protocol (Copenhagen) on stdin/stdout.
    Htp(HtpArgs),
    /// Count the leaf nodes of the legal-move tree (move generator check and speed test).
    Perft {
        /// brandubh, tablut, tawlbwrdd or ataxx.
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
        /// Depth in plies (1 or more).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print each legal move with its count.
        #[arg(long)]
        divide: bool,
    },
    /// Search a fixed set of positions of all four games; ends with "<nodes> nodes <nps> nps".
    Bench {
        /// Depth per position in plies.
        #[arg(long, default_value_t = skald::bench::DEFAULT_DEPTH,
              value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=512))]
        threads: u64,
    },
}

/// Arguments of `skald htp`: how `generate_move` bounds its search.
#[derive(clap::Args)]
struct HtpArgs {
    /// Search at most this many plies per move (with or without time_settings).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Search at most this many nodes per move (with or without time_settings).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Milliseconds per move in an un-timed game (default 2000 without --depth/--nodes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search threads (the engine option Threads).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Hash table size, MiB (the engine option Hash).
    #[arg(long, default_value_t = 16)]
    hash: u32,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse::<Variant>().map_err(|e| e.to_string())
}

/// Errors end the program with a one-line `error: …` on stderr and exit status 1 (never a
/// backtrace, whatever `RUST_BACKTRACE` says).
fn main() {
    let _ = cli::finish(run(Cli::parse()));
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        None => {
            let mut uci = Uci::new(Output::stdout(), Engine::new()?);
            uci.run(&mut std::io::stdin().lock());
            Ok(())
        }
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
        }) => perft(variant, depth, fen.as_deref(), divide),
        Some(Command::Play(args)) => cli::play::run(args),
        Some(Command::Analyze(args)) => cli::analyze::run(args),
        Some(Command::Match(args)) => cli::matches::run(args),
        Some(Command::Openings(args)) => cli::openings::run(args),
        Some(Command::Records(args)) => cli::record::run(args),
        Some(Command::Opentafl) => {
            skald::protocol::opentafl::run(&mut std::io::stdin().lock(), Output::stdout());
            Ok(())
        }
        Some(Command::Htp(args)) => {
            let mut engine = Engine::new()?;
            for (name, value) in [("Threads", args.threads), ("Hash", args.hash)] {
                engine
                    .set_option(name, &value.to_string())
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
            }
            let settings = skald::protocol::htp::Settings {
                depth: args.depth,
                nodes: args.nodes,
                movetime: args.movetime,
            };
            skald::protocol::htp::run(
                &mut std::io::stdin().lock(),
                Output::stdout(),
                engine,
                settings,
            );
            Ok(())
        }
        Some(Command::Bench { depth, threads }) => {
            let result = skald::bench::run(depth, threads as usize, |variant, fen, nodes| {
                eprintln!("{variant:<10} {nodes:>12} nodes  {fen}")
            })?;
            println!("{} nodes {} nps", result.nodes, result.nps());
            Ok(())
        }
    }
}

fn perft(variant: Variant, depth: u32, fen: Option<&str>, divide: bool) -> Result<()> {
    let mut session = new_session(variant);
    if let Some(fen) = fen
        && let Err(e) = session.set_position(Some(fen), &[])
    {
        bail!("{e}");
    }
    let start = Instant::now();
    let counts = session.divide(depth);
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
        "Time: {:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}
