//! `skald tablut-client`: its arguments; the player itself is
//! [`skald::servers::tablut`]'s.

use anyhow::Result;
use clap::builder::TypedValueParser as _;
use skald::engine::Engine;
use skald::servers::tablut::{ClientConfig, Role};

/// Arguments of `skald tablut-client`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// white or black (any case).
    #[arg(value_parser = parse_role)]
    pub role: Role,
    /// The server's time per move, seconds: 1 to 3600 (the competition's default: 60).
    #[arg(default_value_t = 60, allow_negative_numbers = true,
          value_parser = super::Whole::new(1, 3600, "").map(|v| v as u32))]
    pub timeout: u32,
    /// The server's host name or address.
    #[arg(default_value = "localhost")]
    pub host: String,
    /// The name sent to the server (it keeps at most 10 letters and digits).
    #[arg(long, default_value = "skald")]
    pub name: String,
    /// Seconds kept free of each move's time for the answer to reach the server, 0 to 3600
    /// (the engine's move overhead; default: the larger of 2 s and 10 % of TIMEOUT; the search
    /// never takes less than half of TIMEOUT unless this asks for it).
    #[arg(long, allow_negative_numbers = true, value_parser = super::Seconds::ZERO_OR_MORE)]
    pub overhead: Option<f64>,
    /// `--threads`, `--hash`, `--eval-file`.
    #[command(flatten)]
    pub engine: crate::flags::EngineFlags,
    /// The server's port instead of the role's (5800/5801), for test servers.
    #[arg(long, hide = true)]
    pub port: Option<u16>,
    /// Search at most this many plies a move (tests: a deterministic, quick player).
    #[arg(long, hide = true, allow_negative_numbers = true, value_parser = super::depth_parser())]
    pub depth: Option<u32>,
}

fn parse_role(s: &str) -> Result<Role, String> {
    s.parse()
}

/// Runs `skald tablut-client`: sets the engine's options and plays.
pub fn run(args: Args) -> Result<()> {
    let mut engine = Engine::new()?;
    args.engine.apply(&mut engine)?;
    let config = ClientConfig {
        role: args.role,
        timeout: args.timeout,
        host: args.host,
        name: args.name,
        overhead: args.overhead,
        port: args.port,
        depth: args.depth,
    };
    skald::servers::tablut::run(config, engine)
}
