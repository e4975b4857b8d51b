//! `skald bot`: its flags, and the password read from SKALD_BOT_PASSWORD or `--password-file`
//! (never from the command line); the bot itself is [`skald::servers::hnefatafl`]'s.

use anyhow::{Result, anyhow};
use clap::builder::TypedValueParser;
use skald::engine::{Engine, named_skill};
use skald::servers::hnefatafl::{self, BotConfig, DEFAULT_SERVER, Seat, TimeControl};
use std::path::PathBuf;

use super::Whole;

/// Arguments of `skald bot`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["create", "accept"])))]
pub struct Args {
    /// The server, HOST:PORT (hnefatafl.org's is hnefatafl.org:49152).
    #[arg(long, default_value = DEFAULT_SERVER)]
    server: String,
    /// The bot's account name (default: the environment variable SKALD_BOT_USER). Its password
    /// is read from SKALD_BOT_PASSWORD or --password-file, never from the command line.
    #[arg(long)]
    user: Option<String>,
    /// Read the password from this file (its first line; an empty file for an account without
    /// one) instead of SKALD_BOT_PASSWORD.
    #[arg(long)]
    password_file: Option<PathBuf>,
    /// Make the account if the server has none of that name (a local server; hnefatafl.org's
    /// accounts are made in its client).
    #[arg(long)]
    create_account: bool,
    /// Open games and play the first player who asks to join each.
    #[arg(long, conflicts_with = "opponent")]
    create: bool,
    /// Join games that other players open (those of --board's size), one at a time.
    #[arg(long, conflicts_with_all = ["clock", "rated"])]
    accept: bool,
    /// skald's side: attackers, defenders, or alternate (attackers first), as play's --side
    /// (attacker and defender also accepted). With --accept, only games with that seat free are
    /// joined (default, and alternate: either seat).
    #[arg(long = "side", alias = "role", value_parser = parse_side)]
    role: Option<Seat>,
    /// Board size: 11 or 13. With --accept: only games of this size (default: both).
    #[arg(long, value_parser = ["11", "13"])]
    board: Option<String>,
    /// The clocks of the games --create opens: MINUTES+SECONDS (Fischer: 1 to 10000 minutes
    /// each, 0 to 3600 seconds added after each move) or untimed.
    #[arg(long, default_value = "15+10", allow_hyphen_values = true, value_parser = parse_clock_arg)]
    clock: TimeControl,
    /// With --accept, join only games this account opened.
    #[arg(long, value_name = "NAME")]
    opponent: Option<String>,
    /// --create opens rated games.
    #[arg(long)]
    rated: bool,
    /// Play this many games, then log out and exit (0: until stopped).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = Whole::new(0, 1_000_000, "").map(|v| v as u32))]
    games: u32,
    /// Search at most this many plies per move, 1 to 64 (with or without clocks).
    #[arg(long, allow_negative_numbers = true, value_parser = super::depth_parser())]
    depth: Option<u32>,
    /// Search at most this many nodes per move, 1 to 1000000000 (with or without clocks).
    #[arg(long, allow_negative_numbers = true,
          value_parser = Whole::new(1, 1_000_000_000, ""))]
    nodes: Option<u64>,
    /// Seconds per move in an untimed game: more than 0, at most 3600, fractions allowed
    /// (default 2 without --depth/--nodes). A timed game budgets each move from skald's clock
    /// instead.
    #[arg(long, allow_negative_numbers = true, value_parser = super::Seconds::POSITIVE)]
    time: Option<f64>,
    /// Seconds kept back from each move's budget for the network (timed games; the engine's
    /// move overhead): 0 to 3600.
    #[arg(long, default_value = "1", allow_negative_numbers = true,
          value_parser = super::Seconds::ZERO_OR_MORE)]
    overhead: f64,
    /// Playing strength: easy, medium or hard (full strength).
    #[arg(long, default_value = "hard", value_parser = parse_level)]
    level: u8,
    /// `--threads`, `--hash`, `--eval-file`.
    #[command(flatten)]
    engine: crate::flags::EngineFlags,
    /// When the connection drops after a login, reconnect (and resume the game in progress)
    /// up to this many times in a row, 0 to 1000, waiting 1, 2, 4 … (at most 60) seconds
    /// before each try; 0: exit (status 1) at once. A login refused at the start is never
    /// retried.
    #[arg(long, default_value_t = 10, allow_negative_numbers = true,
          value_parser = Whole::new(0, 1000, "").map(|v| v as u32))]
    reconnect: u32,
    /// Seconds without a line from the server before skald sends it `ping`, 1 to 3600; when
    /// as many more pass without an answer, the connection counts as lost (half-open) and
    /// --reconnect applies.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, allow_negative_numbers = true,
          value_parser = Whole::new(1, 3600, ""))]
    keepalive: u64,
    /// Log every line sent and received on standard error (the password redacted).
    #[arg(long, short)]
    verbose: bool,
}

/// `--level`: easy, medium or hard (any case), as the engine's skill level.
fn parse_level(text: &str) -> Result<u8, String> {
    named_skill(text)
        .ok_or_else(|| format!("'{}' is not easy, medium or hard", text.escape_debug()))
}

/// `--clock` for clap: [`parse_clock`] with the message alone.
fn parse_clock_arg(text: &str) -> Result<TimeControl, String> {
    parse_clock(text).map_err(|e| {
        format!("{e}")
            .trim_start_matches("--clock: ")
            .trim_end_matches("; see 'skald bot --help'")
            .to_string()
    })
}

/// `--side`: `attackers`/`attacker`, `defenders`/`defender` or `alternate` (any case).
fn parse_side(text: &str) -> Result<Seat, String> {
    match text.to_ascii_lowercase().as_str() {
        "attackers" | "attacker" => Ok(Seat::Attackers),
        "defenders" | "defender" => Ok(Seat::Defenders),
        "alternate" => Ok(Seat::Alternate),
        _ => Err(format!("'{text}' is not attackers, defenders or alternate")),
    }
}

/// `skald bot`: checks the flags (clap has), reads the password, sets the engine's options and
/// runs the bot.
pub fn run(args: Args) -> Result<()> {
    let user = match &args.user {
        Some(u) => u.clone(),
        None => std::env::var("SKALD_BOT_USER")
            .map_err(|_| anyhow!("no account name: give --user or set SKALD_BOT_USER"))?,
    };
    // Every flag is checked (by clap) before the password is looked for.
    let password = read_password(args.password_file.as_deref())?;
    hnefatafl::protocol::check_credentials(&user, &password).map_err(|e| anyhow!("{e}"))?;
    let mut engine = Engine::new()?;
    args.engine.apply(&mut engine)?;
    let config = BotConfig {
        server: args.server,
        user,
        create_account: args.create_account,
        create: args.create,
        seat: args.role,
        board: args.board.map(|b| if b == "13" { 13 } else { 11 }),
        clock: args.clock,
        opponent: args.opponent,
        rated: args.rated,
        games: args.games,
        depth: args.depth,
        nodes: args.nodes,
        time: args.time,
        overhead: args.overhead,
        skill: args.level,
        reconnect: args.reconnect,
        keepalive: args.keepalive,
        verbose: args.verbose,
    };
    hnefatafl::run(config, engine, password)
}

/// The password from `--password-file` (its first line) or SKALD_BOT_PASSWORD.
fn read_password(file: Option<&std::path::Path>) -> Result<String> {
    if let Some(path) = file {
        let text = super::read_text(path).map_err(|e| anyhow!("--password-file: {e}"))?;
        return Ok(text.lines().next().unwrap_or("").to_string());
    }
    std::env::var("SKALD_BOT_PASSWORD").map_err(|_| {
        anyhow!(
            "no password: set SKALD_BOT_PASSWORD or give --password-file (an empty file for an \
             account without a password)"
        )
    })
}

/// `--clock`: `MINUTES+SECONDS` or `untimed`.
fn parse_clock(text: &str) -> Result<TimeControl> {
    if text.eq_ignore_ascii_case("untimed") {
        return Ok(TimeControl::Untimed);
    }
    let parsed = text.split_once('+').and_then(|(m, s)| {
        let m: u64 = m.trim().parse().ok()?;
        let s: u64 = s.trim().parse().ok()?;
        ((1..=10_000).contains(&m) && s <= 3600).then_some(TimeControl::Fischer {
            start_ms: m * 60_000,
            add_seconds: s,
        })
    });
    parsed.ok_or_else(|| {
        anyhow!(
            "--clock: '{}' is not MINUTES+SECONDS (1 to 10000 minutes, 0 to 3600 seconds, as \
             15+10) or untimed; see 'skald bot --help'",
            text.escape_debug()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A password file saved with a byte order mark: the mark is no part of the password.
    #[test]
    fn a_password_file_with_a_byte_order_mark() {
        let path = std::env::temp_dir().join(format!("skald-bom-pw-{}", std::process::id()));
        std::fs::write(&path, "\u{feff}secret\n").unwrap();
        let read = read_password(Some(&path));
        let _ = std::fs::remove_file(&path);
        assert_eq!(read.unwrap(), "secret");
    }

    #[test]
    fn clocks_are_read() {
        assert_eq!(
            parse_clock("15+10").unwrap(),
            TimeControl::Fischer {
                start_ms: 900_000,
                add_seconds: 10
            }
        );
        assert_eq!(parse_clock("untimed").unwrap(), TimeControl::Untimed);
        for bad in ["15", "0+10", "a+b", "15+3601", ""] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
    }
}
