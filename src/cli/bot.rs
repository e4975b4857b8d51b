//! `skald bot`: a bot account on hnefatafl.org's game server (or a local one from the
//! hnefatafl-copenhagen crate). It logs in over TCP, creates games and accepts the first
//! challenger (`--create`) or joins games others open (`--accept`), and plays Copenhagen 11×11
//! and 13×13 with the engine as `skald htp` does. The protocol's lines are read and written by
//! [`skald::protocol::hnefatafl_server`]; docs/servers.md has the whole exchange.
//!
//! When the connection drops after a successful login (the server restarts, the network fails),
//! the bot logs in again, waiting 1, 2, 4 … (at most 60) seconds before each of at most
//! `--reconnect` tries in a row. The server (6.4.1) keeps a game in progress while a player is
//! away (see [`skald::protocol::hnefatafl_server`]'s "A dropped connection"): after the new
//! login the bot asks it for the game (`resume_game_json`), rebuilds the position from its moves
//! and plays on. A game the server no longer has in progress (it ended while the bot was away,
//! its result not resent, or the server restarted and lost it) counts toward `--games` as lost
//! to the disconnect. A game the bot had opened and nobody had joined is withdrawn and opened
//! anew.
//!
//! A connection that goes silent is tested: after `--keepalive` seconds without a line from the
//! server the bot sends `ping` (the server answers every `ping` with `= ping`), and when that
//! many seconds more pass without any line it counts the connection as lost (half-open: the
//! server or the network went away without closing it) and reconnects as above. The socket's
//! TCP keepalive is on as well.
//!
//! The password comes only from the environment (`SKALD_BOT_PASSWORD`) or a file
//! (`--password-file`), and is never printed: the login line is logged as `<password>` and any
//! other text that holds the password is redacted before it is shown.

use anyhow::{Context, Result, anyhow, bail};
use skald::engine::session::Session;
use skald::engine::{Clock, Engine, Limits, SearchRequest, Side, named_skill};
use skald::protocol::hnefatafl_server::{
    self as server, GameId, GameSettings, ResumedGame, ServerGame, ServerLine, ServerPlay,
    TimeControl,
};
use skald::protocol::htp;
use skald::variant::Variant;
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::Whole;
use clap::builder::TypedValueParser;

/// The server `skald bot` connects to without `--server`.
pub const DEFAULT_SERVER: &str = "127.0.0.1:49152";

/// The longest line read from the server, bytes (its user lists grow with the accounts).
const MAX_LINE: u64 = 64 << 20;

/// The longest wait between two reconnection tries, seconds.
const MAX_BACKOFF_S: u64 = 60;

/// The seconds to wait before reconnection try `attempt` (from 1): 1, 2, 4 … at most
/// [`MAX_BACKOFF_S`].
fn backoff_seconds(attempt: u32) -> u64 {
    1u64.checked_shl(attempt.saturating_sub(1))
        .unwrap_or(u64::MAX)
        .min(MAX_BACKOFF_S)
}

/// The connection to the server is gone (closed by the server, or a read or write failed), or
/// the server refused a login for the moment (`logged_in_already`, `retried_too_soon`): the
/// errors after which `skald bot` reconnects. Every other error ends it.
#[derive(Debug)]
struct ConnectionLost(String);

impl std::fmt::Display for ConnectionLost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConnectionLost {}

fn lost(message: String) -> anyhow::Error {
    anyhow::Error::new(ConnectionLost(message))
}

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
    role: Option<String>,
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
    /// Search threads (the engine option Threads): 1 to four per core.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::threads_parser())]
    threads: u32,
    /// Hash table size, MiB (the engine option Hash): 1 to 65536.
    #[arg(long, default_value_t = skald::engine::DEFAULT_HASH_MIB as u32,
          allow_negative_numbers = true, value_parser = super::hash_parser())]
    hash: u32,
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

/// `--side`: `attackers`/`attacker`, `defenders`/`defender` or `alternate` (any case), as
/// `"attacker"`, `"defender"` or `"alternate"`.
fn parse_side(text: &str) -> Result<String, String> {
    match text.to_ascii_lowercase().as_str() {
        "attackers" | "attacker" => Ok("attacker".into()),
        "defenders" | "defender" => Ok("defender".into()),
        "alternate" => Ok("alternate".into()),
        _ => Err(format!("'{text}' is not attackers, defenders or alternate")),
    }
}

/// The line-based TCP connection to the server, logging with the password redacted, and
/// testing a silent server with `ping` (see the module docs).
struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    password: String,
    verbose: bool,
    /// Seconds of silence before a `ping`, and as many more before the connection counts as
    /// lost (`--keepalive`).
    keepalive: u64,
    /// The `ping`s sent and not yet answered, in order: `true` for the keepalive's own (whose
    /// `= ping` is taken here), `false` for the bot's (whose answer goes to the bot).
    pings: VecDeque<bool>,
    /// Logging out: a silent server ends the reading at once.
    closing: bool,
}

impl Connection {
    fn open(address: &str, password: String, verbose: bool, keepalive: u64) -> Result<Connection> {
        let addrs: Vec<_> = address
            .to_socket_addrs()
            .with_context(|| format!("--server {address}: not a HOST:PORT that resolves"))?
            .collect();
        let mut last = None;
        for addr in &addrs {
            match TcpStream::connect_timeout(addr, Duration::from_secs(10)) {
                Ok(stream) => {
                    stream.set_nodelay(true).ok();
                    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
                    stream.set_read_timeout(Some(Duration::from_secs(keepalive)))?;
                    // The operating system's probes as well: they find a dead peer while the
                    // bot is not reading (a long search), and tell the network it is alive.
                    let probes = socket2::TcpKeepalive::new()
                        .with_time(Duration::from_secs(keepalive))
                        .with_interval(Duration::from_secs(keepalive.clamp(1, 10)));
                    socket2::SockRef::from(&stream)
                        .set_tcp_keepalive(&probes)
                        .ok();
                    return Ok(Connection {
                        reader: BufReader::new(stream.try_clone()?),
                        writer: stream,
                        password,
                        verbose,
                        keepalive,
                        pings: VecDeque::new(),
                        closing: false,
                    });
                }
                Err(e) => last = Some(e),
            }
        }
        match last {
            Some(e) => Err(anyhow!("cannot connect to {address}: {e}")),
            None => Err(anyhow!("--server {address}: no address")),
        }
    }

    /// `text` with the password (if any) replaced by `<password>`.
    fn redact(&self, text: &str) -> String {
        if self.password.is_empty() {
            text.to_string()
        } else {
            text.replace(&self.password, "<password>")
        }
    }

    /// Sends `line`; `shown` is what the log shows instead (the login line).
    fn send_as(&mut self, line: &str, shown: &str) -> Result<()> {
        if self.verbose {
            eprintln!("-> {}", self.redact(shown));
        }
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .map_err(|e| lost(format!("cannot write to the server: {e}")))?;
        if line == "ping" {
            self.pings.push_back(false);
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<()> {
        self.send_as(line, line)
    }

    /// Logs out and waits (at most 5 s) for the server to close the connection, so that
    /// neither side resets it with lines unread.
    fn logout(&mut self) {
        if self.send("logout").is_err() {
            return;
        }
        let _ = self.writer.set_read_timeout(Some(Duration::from_secs(5)));
        self.closing = true;
        let verbose = std::mem::replace(&mut self.verbose, false);
        while let Ok(Some(_)) = self.read() {}
        self.verbose = verbose;
    }

    /// After `--keepalive` seconds without a line: sends a `ping`, or, if the last one is
    /// still unanswered after as long again, gives the connection up as lost.
    fn silence(&mut self) -> Result<()> {
        if self.closing {
            bail!("the server did not close the connection after the logout");
        }
        if self.pings.contains(&true) {
            return Err(lost(format!(
                "no answer from the server for {} s, a ping included (a half-open connection)",
                2 * self.keepalive
            )));
        }
        if self.verbose {
            eprintln!("-> ping (nothing from the server for {} s)", self.keepalive);
        }
        self.writer
            .write_all(b"ping\n")
            .map_err(|e| lost(format!("cannot write to the server: {e}")))?;
        self.pings.push_back(true);
        Ok(())
    }

    /// The next line (without its newline), or `None` when the server has closed the connection.
    /// The answers to the keepalive's own `ping`s are not returned.
    fn read(&mut self) -> Result<Option<String>> {
        loop {
            let line = self.read_raw()?;
            if line.as_deref() == Some("= ping") && self.pings.pop_front() == Some(true) {
                continue;
            }
            if let Some(line) = &line
                && self.verbose
            {
                eprintln!("<- {}", self.redact(&shorten(line, 300)));
            }
            return Ok(line);
        }
    }

    /// The next line as it came, or `None` at the end of the connection.
    fn read_raw(&mut self) -> Result<Option<String>> {
        let mut bytes = Vec::new();
        loop {
            let room = MAX_LINE - bytes.len() as u64;
            match (&mut self.reader).take(room).read_until(b'\n', &mut bytes) {
                Ok(_) => break,
                // A read time-out (the bytes read so far are kept in `bytes`).
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    self.silence()?
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(lost(format!("cannot read from the server: {e}"))),
            }
        }
        if bytes.is_empty() {
            return Ok(None);
        }
        if bytes.last() != Some(&b'\n') && bytes.len() as u64 >= MAX_LINE {
            bail!("the server sent a line longer than {} MiB", MAX_LINE >> 20);
        }
        let line = String::from_utf8(bytes)
            .map_err(|_| anyhow!("the server sent a line that is not UTF-8"))?;
        Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
    }
}

fn shorten(line: &str, n: usize) -> String {
    if line.chars().count() > n {
        format!("{}…", line.chars().take(n).collect::<String>())
    } else {
        line.to_string()
    }
}

/// A game skald is playing.
struct Game {
    id: GameId,
    side: Side,
    size: u8,
    opponent: String,
    time: TimeControl,
    /// Time left per side, ms (the server's `game_time`, or the start time).
    clocks: [i64; 2],
}

/// What the bot is doing between games.
enum State {
    /// Looking for a game to join (--accept) or about to open one (--create).
    Idle,
    /// Opened game `0` (or waiting for its id): waiting for a challenger.
    Open(Option<GameId>),
    /// Asked to join game `0`: waiting for its creator to accept (`1`: the server's list has
    /// shown skald in one of its seats).
    Pending(GameId, bool),
    /// Playing.
    Playing(Game),
}

/// Games played and their results, skald's view.
#[derive(Default)]
struct Tally {
    won: u32,
    drawn: u32,
    lost: u32,
    /// Games cut by a lost connection that the server no longer had in progress on the bot's
    /// return (result unknown).
    cut: u32,
}

impl Tally {
    fn games(&self) -> u32 {
        self.won + self.drawn + self.lost + self.cut
    }
}

/// Where the bot is in taking up its games again after a reconnection.
enum Resume {
    /// Not resuming.
    No,
    /// Logged in again and sent `ping`: the games the server says are in progress (its
    /// `generate_move` lines) until `= ping`.
    Listing(Vec<GameId>),
    /// Asked for game `0` (`resume_game_json`) and sent `ping`: `= ping` before the game means
    /// the server no longer has it.
    Fetching(GameId),
}

struct Bot {
    conn: Connection,
    engine: Engine,
    user: String,
    args: Args,
    skill: u8,
    state: State,
    tally: Tally,
    /// Open games others created (--accept), from `games_updated`.
    open: BTreeMap<GameId, ServerGame>,
    password: String,
    resume: Resume,
}

/// `skald bot`.
pub fn run(args: Args) -> Result<()> {
    let user = match &args.user {
        Some(u) => u.clone(),
        None => std::env::var("SKALD_BOT_USER")
            .map_err(|_| anyhow!("no account name: give --user or set SKALD_BOT_USER"))?,
    };
    // Every flag is checked (by clap) before the password is looked for.
    let password = read_password(args.password_file.as_deref())?;
    server::check_credentials(&user, &password).map_err(|e| anyhow!("{e}"))?;
    let skill = args.level;
    let mut engine = Engine::new()?;
    super::set_engine_flags(
        &mut engine,
        &[
            ("--threads", "Threads", args.threads.to_string()),
            ("--hash", "Hash", args.hash.to_string()),
        ],
    )?;
    let conn = Connection::open(&args.server, password.clone(), args.verbose, args.keepalive)?;
    let mut bot = Bot {
        conn,
        engine,
        user,
        args,
        skill,
        state: State::Idle,
        tally: Tally::default(),
        open: BTreeMap::new(),
        password,
        resume: Resume::No,
    };
    // A first login that fails is not retried (a wrong password stays wrong).
    bot.login()
        .map_err(|e| anyhow!("{}", bot.conn.redact(&format!("{e:#}"))))?;
    let result = loop {
        let error = match bot.play() {
            Ok(()) => break Ok(()),
            Err(e) => e,
        };
        let Some(ConnectionLost(reason)) = error.downcast_ref::<ConnectionLost>() else {
            break Err(error);
        };
        if bot.args.reconnect == 0 {
            break Err(error);
        }
        if let Err(e) = bot.reconnect(reason.clone()) {
            break Err(e);
        }
    };
    let t = &bot.tally;
    eprintln!(
        "skald bot: {} game{}: {} won, {} drawn, {} lost{}",
        t.games(),
        if t.games() == 1 { "" } else { "s" },
        t.won,
        t.drawn,
        t.lost,
        if t.cut > 0 {
            format!(", {} lost to a disconnect", t.cut)
        } else {
            String::new()
        }
    );
    result.map_err(|e| anyhow!("{}", bot.conn.redact(&format!("{e:#}"))))
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

fn clock_text(time: TimeControl) -> String {
    match time {
        TimeControl::Untimed => "untimed".to_string(),
        TimeControl::Fischer {
            start_ms,
            add_seconds,
        } => format!("{} min + {add_seconds} s", start_ms as f64 / 60_000.0),
    }
}

impl Bot {
    /// Logs in (making the account first with --create-account when it does not exist). A
    /// connection that fails, and a refusal for the moment (`logged_in_already`,
    /// `retried_too_soon`), are [`ConnectionLost`].
    fn login(&mut self) -> Result<()> {
        let mut create = self.args.create_account;
        loop {
            let line = server::login_line(&self.user, &self.password, create);
            let shown = server::redacted_login_line(&self.user, create);
            self.conn.send_as(&line, &shown)?;
            let answer = loop {
                let line = self
                    .conn
                    .read()?
                    .ok_or_else(|| lost("the server closed the connection at the login".into()))?;
                match server::parse_line(&line).map_err(|e| anyhow!("{e}"))? {
                    ServerLine::LoggedIn => break Ok(()),
                    ServerLine::LoginRefused(reason) => break Err(reason),
                    _ => {}
                }
            };
            match answer {
                Ok(()) => {
                    eprintln!(
                        "skald bot: logged in to {} as {}",
                        self.args.server, self.user
                    );
                    return Ok(());
                }
                Err(reason) if create && reason.starts_with("already_exists") => create = false,
                Err(reason)
                    if reason.contains("logged_in_already")
                        || reason.contains("retried_too_soon") =>
                {
                    return Err(lost(format!(
                        "the server refused the login for now: {}",
                        self.conn.redact(&reason)
                    )));
                }
                Err(reason) if reason.contains("wrong_version") => bail!(
                    "the server refused the login: it speaks another protocol version than \
                     hnefatafl-copenhagen 6.4.1's ({})",
                    server::VERSION_ID
                ),
                Err(reason) => bail!(
                    "the server refused the login as {}: {}{}",
                    self.user,
                    self.conn.redact(&reason),
                    if reason.contains("account_not_in_database") && !create {
                        " (--create-account makes the account on a server that allows it)"
                    } else {
                        ""
                    }
                ),
            }
        }
    }

    /// After the connection was lost: waits 1, 2, 4 … s and tries to connect and log in
    /// again, at most `--reconnect` times, printing one line a try. Logged in, asks which
    /// games are in progress (see [`Resume`]). `reason` is why the connection was lost.
    fn reconnect(&mut self, mut reason: String) -> Result<()> {
        let max = self.args.reconnect;
        for attempt in 1..=max {
            let wait = backoff_seconds(attempt);
            eprintln!(
                "skald bot: connection lost: {}; reconnecting in {wait} s (attempt {attempt} of {max})",
                self.conn.redact(&reason)
            );
            std::thread::sleep(Duration::from_secs(wait));
            match Connection::open(
                &self.args.server,
                self.password.clone(),
                self.args.verbose,
                self.args.keepalive,
            ) {
                Ok(conn) => self.conn = conn,
                Err(e) => {
                    reason = format!("{e:#}");
                    continue;
                }
            }
            match self.login() {
                Ok(()) => {
                    // The server answers `ping` after its `generate_move` line for each game
                    // in progress.
                    if let Err(e) = self.conn.send("ping") {
                        reason = format!("{e:#}");
                        continue;
                    }
                    self.resume = Resume::Listing(Vec::new());
                    return Ok(());
                }
                Err(e) if e.downcast_ref::<ConnectionLost>().is_some() => {
                    reason = format!("{e:#}");
                }
                Err(e) => return Err(e.context("logging in again")),
            }
        }
        bail!(
            "the connection to {} is lost and {max} tries to reconnect failed (the last: {})",
            self.args.server,
            self.conn.redact(&reason)
        )
    }

    /// `= ping` after a reconnection: the server has listed the games in progress.
    fn resumed_listing(&mut self, in_progress: Vec<GameId>) -> Result<()> {
        let id = match &self.state {
            State::Playing(g) => g.id,
            State::Open(Some(id)) | State::Pending(id, _) => *id,
            State::Open(None) | State::Idle => {
                self.state = State::Idle;
                self.resume = Resume::No;
                return Ok(());
            }
        };
        if in_progress.contains(&id) {
            // skald's game (also one that started while skald was away): ask for it.
            self.conn.send(&server::resume_line(id))?;
            self.conn.send("ping")?;
            self.resume = Resume::Fetching(id);
            return Ok(());
        }
        self.resume = Resume::No;
        self.game_gone(id)
    }

    /// Game `id` of skald's is not in progress on the server after a reconnection.
    fn game_gone(&mut self, id: GameId) -> Result<()> {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Playing(g) => {
                eprintln!(
                    "skald bot: game {id} (against {}) is lost to the disconnect: the server no \
                     longer has it in progress (it ended while skald was away, or the server \
                     restarted)",
                    g.opponent
                );
                self.tally.cut += 1;
            }
            State::Open(_) | State::Pending(..) => {
                // Withdraw it if the server still lists it (an untimed game stays open).
                self.conn.send(&format!("leave_game {id}"))?;
                eprintln!(
                    "skald bot: game {id} did not start before the disconnect; looking again"
                );
            }
            State::Idle => {}
        }
        Ok(())
    }

    /// The server resent skald's game after a reconnection: rebuilds the position and plays on.
    fn resume_game(&mut self, game: ResumedGame) -> Result<()> {
        let id = game.id;
        let side = if game.attacker == self.user {
            Side::First
        } else if game.defender == self.user {
            Side::Second
        } else {
            bail!(
                "game {id}: the server resent a game of {} and {}, not skald's",
                game.attacker,
                game.defender
            );
        };
        let variant = match game.board_size {
            11 => Variant::Copenhagen,
            13 => Variant::Copenhagen13,
            n => bail!("game {id} is on a {n}×{n} board: skald bot plays 11×11 and 13×13"),
        };
        self.open.remove(&id);
        self.engine.set_variant(variant);
        for (from, to) in &game.moves {
            let size = game.board_size;
            let mv = format!(
                "{}-{}",
                htp::parse_square(size, from).map_err(|e| anyhow!("game {id}: {e}"))?,
                htp::parse_square(size, to).map_err(|e| anyhow!("game {id}: {e}"))?
            );
            self.engine.session_mut().play(&mv).map_err(|e| {
                anyhow!("game {id}: the resent move {from} {to} is not legal by skald's rules: {e}")
            })?;
        }
        let start = match game.time {
            TimeControl::Fischer { start_ms, .. } => start_ms.min(i64::MAX as u64) as i64,
            TimeControl::Untimed => 0,
        };
        let opponent = if side == Side::First {
            game.defender
        } else {
            game.attacker
        };
        let to_move = self.engine.session().side_to_move();
        eprintln!(
            "skald bot: game {id} resumed after the reconnection: skald {} against {opponent}, {} {} played, the {} to move",
            htp::role_name(side),
            game.moves.len(),
            if game.moves.len() == 1 {
                "ply"
            } else {
                "plies"
            },
            if to_move == Side::First {
                "attackers"
            } else {
                "defenders"
            }
        );
        self.state = State::Playing(Game {
            id,
            side,
            size: game.board_size,
            opponent,
            time: game.time,
            clocks: game.clocks.map_or([start; 2], |(a, d)| [a, d]),
        });
        self.resume = Resume::No;
        if to_move == side {
            self.generate_move()?;
        }
        Ok(())
    }

    /// skald's side in game number `n` (from 0).
    fn role_for(&self, n: u32) -> Side {
        match self.args.role.as_deref().unwrap_or("attacker") {
            "defender" => Side::Second,
            "alternate" if n % 2 == 1 => Side::Second,
            _ => Side::First,
        }
    }

    fn done(&self) -> bool {
        self.args.games != 0 && self.tally.games() >= self.args.games
    }

    /// The main loop: opens or joins games and plays them until --games are done.
    fn play(&mut self) -> Result<()> {
        while !self.done() {
            if matches!(self.state, State::Idle) && matches!(self.resume, Resume::No) {
                if self.args.create {
                    let settings = GameSettings {
                        role: self.role_for(self.tally.games()),
                        rated: self.args.rated,
                        time: self.args.clock,
                        board_size: self.board_sizes()[0],
                    };
                    self.conn.send(&settings.new_game_line())?;
                    self.state = State::Open(None);
                } else {
                    self.try_join()?;
                }
            }
            let Some(line) = self.conn.read()? else {
                return Err(lost(match &self.state {
                    State::Playing(g) => format!(
                        "the server closed the connection during game {} (against {})",
                        g.id, g.opponent
                    ),
                    _ => "the server closed the connection".to_string(),
                }));
            };
            let parsed = server::parse_line(&line)
                .map_err(|e| anyhow!("unreadable line from the server: {e}"))?;
            self.handle(parsed)?;
        }
        self.conn.logout();
        Ok(())
    }

    fn board_sizes(&self) -> Vec<u8> {
        match self.args.board.as_deref() {
            Some("13") => vec![13],
            Some(_) => vec![11],
            None if self.args.create => vec![11],
            None => vec![11, 13],
        }
    }

    /// --accept: asks to join the first open game that fits, if any.
    fn try_join(&mut self) -> Result<()> {
        let sizes = self.board_sizes();
        let want = match self.args.role.as_deref().unwrap_or("alternate") {
            "attacker" => Some(Side::First),
            "defender" => Some(Side::Second),
            _ => None,
        };
        let user = self.user.clone();
        let opponent = self.args.opponent.clone();
        let fits = |g: &ServerGame| {
            let (free, creator) = match (&g.attacker, &g.defender) {
                (Some(a), None) if *a != user => (Side::Second, a),
                (None, Some(d)) if *d != user => (Side::First, d),
                _ => return false,
            };
            if opponent.as_ref().is_some_and(|o| o != creator) {
                return false;
            }
            !g.challenge_accepted
                && !g.game_over
                && sizes.contains(&g.board_size)
                && want.is_none_or(|w| w == free)
        };
        if let Some(id) = self.open.values().find(|g| fits(g)).map(|g| g.id) {
            self.conn.send(&format!("join_game_pending {id}"))?;
            self.state = State::Pending(id, false);
        }
        Ok(())
    }

    fn handle(&mut self, line: ServerLine) -> Result<()> {
        match line {
            // After a reconnection the server sends `generate_move` for each game in progress,
            // whoever's turn it is: the list, not a turn.
            ServerLine::GenerateMove { id, .. } if !matches!(self.resume, Resume::No) => {
                if let Resume::Listing(ids) = &mut self.resume {
                    ids.push(id);
                }
            }
            ServerLine::Pong => match std::mem::replace(&mut self.resume, Resume::No) {
                Resume::Listing(ids) => self.resumed_listing(ids)?,
                Resume::Fetching(id) => self.game_gone(id)?,
                Resume::No => {}
            },
            ServerLine::ResumedGame(game) => {
                if let Resume::Fetching(id) = self.resume
                    && id == game.id
                {
                    self.resume_game(game)?;
                }
            }
            ServerLine::OpenGames(games) => {
                for g in games {
                    if !g.game_over && !g.challenge_accepted {
                        self.open.insert(g.id, g);
                    }
                }
            }
            ServerLine::GamesUpdated { games, removed } => {
                for id in removed {
                    self.open.remove(&id);
                }
                for g in games {
                    if g.game_over || g.challenge_accepted {
                        self.open.remove(&g.id);
                    } else {
                        self.open.insert(g.id, g);
                    }
                }
                // A join request the creator declined, or a game withdrawn: look again.
                if let State::Pending(id, seen) = self.state {
                    let seated = self.open.get(&id).map(|g| {
                        g.attacker.as_deref() == Some(&self.user)
                            || g.defender.as_deref() == Some(&self.user)
                    });
                    match seated {
                        Some(true) => self.state = State::Pending(id, true),
                        Some(false) if !seen => {}
                        _ => {
                            eprintln!("skald bot: game {id} is no longer open to skald");
                            self.state = State::Idle;
                        }
                    }
                }
            }
            ServerLine::GameCreated(id) => {
                if let State::Open(None) = self.state {
                    eprintln!("skald bot: opened game {id}, waiting for a challenger");
                    self.state = State::Open(Some(id));
                }
            }
            ServerLine::ChallengeRequested(id) => {
                if let State::Open(Some(open)) = self.state
                    && open == id
                {
                    self.conn.send(&format!("join_game {id}"))?;
                }
            }
            ServerLine::GameStarted {
                attacker,
                defender,
                rated,
                time,
                board_size,
            } => {
                let id = match self.state {
                    State::Open(Some(id)) | State::Pending(id, _) => id,
                    _ => return Ok(()),
                };
                let side = if attacker == self.user {
                    Side::First
                } else if defender == self.user {
                    Side::Second
                } else {
                    return Ok(());
                };
                let variant = match board_size {
                    11 => Variant::Copenhagen,
                    13 => Variant::Copenhagen13,
                    n => bail!("game {id} is on a {n}×{n} board: skald bot plays 11×11 and 13×13"),
                };
                self.open.remove(&id);
                self.engine.set_variant(variant);
                let start = match time {
                    TimeControl::Fischer { start_ms, .. } => start_ms.min(i64::MAX as u64) as i64,
                    TimeControl::Untimed => 0,
                };
                let opponent = if side == Side::First {
                    defender
                } else {
                    attacker
                };
                eprintln!(
                    "skald bot: game {id} started: skald {} against {opponent}, {board_size}×{board_size}, {}, {}",
                    htp::role_name(side),
                    if rated { "rated" } else { "unrated" },
                    clock_text(time)
                );
                self.state = State::Playing(Game {
                    id,
                    side,
                    size: board_size,
                    opponent,
                    time,
                    clocks: [start; 2],
                });
            }
            ServerLine::GenerateMove { id, side } => {
                let State::Playing(game) = &self.state else {
                    eprintln!(
                        "skald bot: ignored the server's turn in game {id}: skald is not playing it"
                    );
                    return Ok(());
                };
                if game.id != id {
                    eprintln!(
                        "skald bot: ignored the server's turn in game {id}: skald plays game {}",
                        game.id
                    );
                    return Ok(());
                }
                if side != game.side {
                    bail!(
                        "the server asks skald to move for the {} in game {id}, but skald plays the {}",
                        htp::role_name(side),
                        htp::role_name(game.side)
                    );
                }
                if self.engine.session().side_to_move() != side {
                    bail!(
                        "game {id}: the server says it is the {}'s turn, skald's board says the {}'s (moves: {})",
                        htp::role_name(side),
                        htp::role_name(self.engine.session().side_to_move()),
                        self.engine.session().moves_played().join(" ")
                    );
                }
                self.generate_move()?;
            }
            ServerLine::Played { id, side, play } => {
                let State::Playing(game) = &self.state else {
                    return Ok(());
                };
                if game.id != id {
                    return Ok(());
                }
                if let ServerPlay::Move { from, to } = play {
                    if side == game.side {
                        return Ok(());
                    }
                    let size = game.size;
                    let mv = format!(
                        "{}-{}",
                        htp::parse_square(size, &from).map_err(|e| anyhow!("game {id}: {e}"))?,
                        htp::parse_square(size, &to).map_err(|e| anyhow!("game {id}: {e}"))?
                    );
                    // The same line again for the move just played (the side that made it is
                    // not to move): a repeat, not a second move.
                    let session = self.engine.session();
                    if session.side_to_move() != side && session.moves_played().last() == Some(&mv)
                    {
                        eprintln!(
                            "skald bot: game {id}: the server sent the {}' move {from} {to} again; \
                             skipped (it is played already)",
                            if side == Side::First {
                                "attackers"
                            } else {
                                "defenders"
                            }
                        );
                        return Ok(());
                    }
                    self.engine.session_mut().play(&mv).map_err(|e| {
                        anyhow!("game {id}: the server's move {from} {to} is not legal by skald's rules: {e}")
                    })?;
                }
            }
            ServerLine::GameTime {
                id,
                attacker_ms,
                defender_ms,
            } => {
                if let State::Playing(game) = &mut self.state
                    && game.id == id
                {
                    game.clocks = [attacker_ms, defender_ms];
                }
            }
            ServerLine::GameOver { id, winner } => {
                if let State::Playing(game) = &self.state
                    && game.id == id
                {
                    let won = winner == game.side;
                    eprintln!(
                        "skald bot: game {id} over: the {} won, skald {} (after {} plies)",
                        if winner == Side::First {
                            "attackers"
                        } else {
                            "defenders"
                        },
                        if won { "won" } else { "lost" },
                        self.engine.session().moves_played().len()
                    );
                    if won {
                        self.tally.won += 1;
                    } else {
                        self.tally.lost += 1;
                    }
                    self.state = State::Idle;
                }
            }
            ServerLine::DrawAccepted => {
                if let State::Playing(game) = &self.state {
                    eprintln!(
                        "skald bot: game {} over: drawn (after {} plies)",
                        game.id,
                        self.engine.session().moves_played().len()
                    );
                    self.tally.drawn += 1;
                    self.state = State::Idle;
                }
            }
            ServerLine::Refused { command, reason } => match (command.as_str(), &self.state) {
                ("game", State::Playing(game)) => bail!(
                    "game {}: the server refused skald's move: {}",
                    game.id,
                    reason
                ),
                ("join_game_pending", State::Pending(id, _)) => {
                    eprintln!("skald bot: could not join game {id}: {reason}");
                    let id = *id;
                    self.open.remove(&id);
                    self.state = State::Idle;
                }
                ("new_game" | "join_game", _) => {
                    bail!("the server refused '{command}': {reason}")
                }
                _ => {}
            },
            ServerLine::JoinPending(_)
            | ServerLine::MoveAccepted
            | ServerLine::DrawOffered { .. }
            | ServerLine::LoggedIn
            | ServerLine::LoginRefused(_)
            | ServerLine::Other => {}
        }
        Ok(())
    }

    /// The limits of skald's search for its move now.
    fn request(&self, game: &Game) -> SearchRequest {
        let a = &self.args;
        let mut limits = Limits {
            depth: a.depth,
            nodes: a.nodes,
            ..Limits::default()
        };
        match game.time {
            TimeControl::Untimed => {
                limits.movetime = match (a.time, a.depth, a.nodes) {
                    (Some(s), _, _) => Some(((s * 1000.0).round() as u64).max(1)),
                    (None, None, None) => Some(htp::DEFAULT_MOVETIME_MS),
                    _ => None,
                };
            }
            TimeControl::Fischer { add_seconds, .. } => {
                let left = |s: Side| game.clocks[s.index()].max(1) as u64;
                limits.clock = Clock {
                    time: [Some(left(Side::First)), Some(left(Side::Second))],
                    inc: [add_seconds.saturating_mul(1000); 2],
                    moves_to_go: None,
                };
            }
        }
        SearchRequest {
            limits,
            skill_level: Some(self.skill),
            move_overhead_ms: Some((a.overhead * 1000.0).round() as u64),
            ..SearchRequest::default()
        }
    }

    /// Searches, checks the move against the rules (legal, not a repetition the server
    /// refuses), sends it and plays it on skald's board. With no move to send, resigns.
    fn generate_move(&mut self) -> Result<()> {
        let State::Playing(game) = &self.state else {
            return Ok(());
        };
        let (id, side, size) = (game.id, game.side, game.size);
        let started = Instant::now();
        let request = self.request(game);
        self.engine
            .set_seed(self.engine.session().moves_played().len() as u64);
        let best = match self.engine.search(request, &mut |_| {}) {
            Ok(result) => result.best_move,
            Err(e) => {
                eprintln!("skald bot: {e}; playing {:?}", e.fallback);
                e.fallback
            }
        };
        let session: &dyn Session = self.engine.session();
        let legal = session.legal_moves();
        // The session's legal moves leave out what the rules forbid by the game's history
        // (a Copenhagen defender move that recreates a board).
        let allowed = |mv: &String| legal.contains(mv);
        let choice = best
            .filter(allowed)
            .or_else(|| legal.iter().find(|m| allowed(m)).cloned());
        let Some(mv) = choice else {
            eprintln!("skald bot: game {id}: no move to play; skald resigns");
            return self.conn.send(&server::resign_line(id, side));
        };
        let (from, to) = mv
            .split_once('-')
            .ok_or_else(|| anyhow!("game {id}: the engine's move '{mv}' is not FROM-TO"))?;
        let line = server::move_line(
            id,
            side,
            &htp::htp_square(size, from),
            &htp::htp_square(size, to),
        );
        self.conn.send(&line)?;
        self.engine
            .session_mut()
            .play(&mv)
            .map_err(|e| anyhow!("game {id}: skald's own move {mv}: {e}"))?;
        if self.args.verbose {
            eprintln!(
                "skald bot: game {id}: skald played {} in {:.2} s",
                htp::move_text(size, &mv),
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reconnection_waits_double_up_to_a_minute() {
        let waits: Vec<u64> = (1..=9).map(backoff_seconds).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(backoff_seconds(1000), 60);
    }

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
