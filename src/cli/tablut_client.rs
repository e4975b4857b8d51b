//! `skald tablut-client ROLE [TIMEOUT] [HOST]`: a player for the Tablut competition's server
//! (AGalassi/TablutCompetition `Server.jar`, Ashton rules; the protocol in
//! [`skald::protocol::tablut`]). It connects to HOST's port 5800 (white) or 5801 (black), sends
//! its name, and on each state the server sends: rebuilds the `ashton` position from the
//! server's board and the moves seen so far (for the repetition rule), and on its turn searches
//! until TIMEOUT minus a safety margin and answers with a move it has checked is legal there.
//! It ends when the server says the game is over (exit 0) or closes the connection (exit 0 with
//! a note); a state it cannot read, or a board that cannot come from the last one, is an error
//! (exit 1), and so is a server silent for [`silence_limit`] once the game has begun (a
//! half-open connection: the server or the network gone without closing it).
//!
//! The history follows the server's repetition rule: the server remembers the states reached by
//! a move (since the last capture), never the start position, so the client's game starts anew
//! from the position after the first move.

use anyhow::{Context, Result, bail};
use clap::builder::TypedValueParser as _;
use skald::engine::{Engine, Limits, Score, SearchRequest};
use skald::protocol::tablut::{self, Role, State, Turn};
use skald::variant::Variant;
use std::io::{BufReader, BufWriter};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

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
    /// Search threads (the engine option Threads): 1 to four per core.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = super::threads_parser())]
    pub threads: u32,
    /// Hash table size, MiB (the engine option Hash): 1 to 65536.
    #[arg(long, default_value_t = skald::engine::DEFAULT_HASH_MIB as u32,
          allow_negative_numbers = true, value_parser = super::hash_parser())]
    pub hash: u32,
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

/// The time a move's search may take: TIMEOUT minus the margin (default the larger of 2 s and
/// 10 %), but at least half of TIMEOUT unless the margin was given.
pub fn move_budget(timeout_s: u32, margin_s: Option<f64>) -> Duration {
    let timeout = timeout_s as f64;
    let secs = match margin_s {
        Some(m) => (timeout - m).max(0.05),
        None => (timeout - (0.1 * timeout).max(2.0)).max(timeout / 2.0),
    };
    Duration::from_secs_f64(secs)
}

/// How long the client waits for the server's next state once the game has begun: twice
/// the time per move (the other player's move, and the server's own slack) and 10 s more.
/// Longer silence means the connection is gone without being closed.
pub fn silence_limit(timeout_s: u32) -> Duration {
    Duration::from_secs(2 * u64::from(timeout_s) + 10)
}

/// Connects to `host:port`, trying again for a few seconds (a launcher may start the players
/// just before the server listens).
fn connect(host: &str, port: u16) -> Result<TcpStream> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let addrs: Vec<_> = (host, port)
            .to_socket_addrs()
            .with_context(|| format!("cannot resolve the server's host '{host}'"))?
            .collect();
        let mut last = None;
        for a in &addrs {
            match TcpStream::connect_timeout(a, Duration::from_secs(5)) {
                Ok(s) => return Ok(s),
                Err(e) => last = Some(e),
            }
        }
        if Instant::now() >= deadline {
            let e = last.map_or("no address".to_string(), |e| e.to_string());
            bail!("cannot connect to the Tablut server at {host}:{port}: {e}");
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The game as the client follows it: the engine's session holds the position and the
/// history the server's repetition rule remembers.
struct Game {
    engine: Engine,
    role: Role,
    /// The last state the server sent.
    last: Option<State>,
    /// Plies played.
    plies: usize,
}

impl Game {
    /// Takes in the server's next `state`: the move that led to it is found and played, and the
    /// position checked against the server's board; a board no legal move leads to is an
    /// error, except that a board out of step (states missed) resets the game from it.
    fn follow(&mut self, state: &State) -> Result<()> {
        let Some(last) = self.last.replace(state.clone()) else {
            return self.reset(state, "the server's start position");
        };
        if last.board == state.board {
            return Ok(());
        }
        let mover = last
            .turn
            .to_move()
            .context("the server sent a board after the game had ended")?;
        let Some(mv) = last.move_to(state, mover) else {
            eprintln!("note: the server's board is not one move from the last one; starting anew");
            return self.reset(state, "the server's board");
        };
        let session = self.engine.session_mut();
        session
            .play(&mv)
            .map_err(|e| anyhow::anyhow!("the server's move {mv} is illegal for skald: {e}"))?;
        self.plies += 1;
        if self.plies == 1 {
            // The server never remembers its start position (see the module docs).
            let fen = session.fen();
            session
                .set_position(Some(&fen), &[])
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        // The server leaves a captured king on its board (BLACKWIN says he is taken); skald
        // removes him, so a finished game's boards are not compared.
        if state.turn.to_move().is_some() && session.board_rows() != state.rows_top_first() {
            eprintln!(
                "note: after {mv} the server's board differs from skald's (captures); following the server"
            );
            return self.reset(state, "the server's board");
        }
        println!("{} {}: {mv}", self.plies, mover.name());
        Ok(())
    }

    /// Sets the session to the server's `state` (history lost).
    fn reset(&mut self, state: &State, what: &str) -> Result<()> {
        let side = state.turn.to_move().unwrap_or(self.role).side();
        self.engine
            .session_mut()
            .set_board(&state.placement(), side)
            .map_err(|e| anyhow::anyhow!("{what} is no Ashton position: {e}"))
    }

    /// Searches for `budget` (or `depth` plies) and returns a legal move, or `None` if there
    /// is none.
    fn choose(&mut self, budget: Duration, depth: Option<u32>) -> Option<String> {
        let legal = self.engine.session().legal_moves();
        if legal.is_empty() {
            return None;
        }
        if self.engine.session().outcome().is_decided() {
            // The server says the game goes on where skald's history sees a repetition: search
            // the position on its own.
            let session = self.engine.session_mut();
            let fen = session.fen();
            if session.set_position(Some(&fen), &[]).is_err() {
                return Some(legal[0].clone());
            }
        }
        let limits = Limits {
            movetime: Some((budget.as_millis() as u64).max(1)),
            depth,
            ..Limits::default()
        };
        let request = SearchRequest {
            limits,
            move_overhead_ms: Some(0),
            ..SearchRequest::default()
        };
        let mut reported = (0u32, Score::Cp(0));
        let found = match self.engine.search(request, &mut |r| {
            reported = (r.depth, r.score);
        }) {
            Ok(r) => r.best_move,
            Err(failed) => failed.fallback,
        };
        match found {
            Some(mv) if legal.contains(&mv) => {
                println!("  depth {} score {}", reported.0, score_text(reported.1));
                Some(mv)
            }
            // A search fault: any legal move.
            _ => Some(legal[0].clone()),
        }
    }
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// Runs `skald tablut-client`.
pub fn run(args: Args) -> Result<()> {
    let mut engine = Engine::new()?;
    engine.set_variant(Variant::Ashton);
    super::set_engine_flags(
        &mut engine,
        &[
            ("--threads", "Threads", args.threads.to_string()),
            ("--hash", "Hash", args.hash.to_string()),
        ],
    )?;
    let budget = move_budget(args.timeout, args.overhead);
    let port = args.port.unwrap_or(args.role.port());
    let stream = connect(&args.host, port)?;
    let _ = stream.set_nodelay(true);
    // The operating system's keepalive probes find a peer gone while skald searches.
    let probes = socket2::TcpKeepalive::new()
        .with_time(Duration::from_secs(30))
        .with_interval(Duration::from_secs(10));
    let _ = socket2::SockRef::from(&stream).set_tcp_keepalive(&probes);
    let silence = silence_limit(args.timeout);
    let mut reader = BufReader::new(stream.try_clone().context("cannot use the connection")?);
    let mut writer = BufWriter::new(stream);
    let name = serde_json::to_string(&args.name).expect("a string serializes");
    tablut::write_message(&mut writer, &name).context("cannot send the name to the server")?;
    println!(
        "connected to {}:{port} as {} ({}), {:.1} s per move",
        args.host,
        args.role.name(),
        args.name,
        budget.as_secs_f64()
    );
    let mut game = Game {
        engine,
        role: args.role,
        last: None,
        plies: 0,
    };
    loop {
        let text = match tablut::read_message(&mut reader) {
            Ok(Some(text)) => text,
            Ok(None) => {
                println!(
                    "the server closed the connection after {} plies, before saying the game was over \
                     (a player ran out of time or sent an illegal move)",
                    game.plies
                );
                return Ok(());
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                bail!(
                    "no state from the server for {} s after {} plies: the connection is lost \
                     (the server or the network went away without closing it)",
                    silence.as_secs(),
                    game.plies
                )
            }
            Err(e) => bail!("cannot read the server's state: {e}"),
        };
        // Before the first state the server may wait for the other player without end; from
        // then on, a state comes within the silence limit.
        if game.last.is_none() {
            reader
                .get_ref()
                .set_read_timeout(Some(silence))
                .context("cannot use the connection")?;
        }
        let received = Instant::now();
        let state = State::parse(&text)
            .map_err(|e| anyhow::anyhow!("cannot read the server's state: {e}"))?;
        game.follow(&state)?;
        let to_move = match state.turn {
            Turn::White | Turn::Black => state.turn.to_move(),
            Turn::WhiteWin | Turn::BlackWin | Turn::Draw => {
                let result = match state.turn {
                    Turn::WhiteWin => "white wins",
                    Turn::BlackWin => "black wins",
                    _ => "draw",
                };
                let verdict = match (state.turn, args.role) {
                    (Turn::Draw, _) => "drawn",
                    (Turn::WhiteWin, Role::White) | (Turn::BlackWin, Role::Black) => "won",
                    _ => "lost",
                };
                println!(
                    "game over after {} plies: {result} ({}); skald played {} and {verdict}",
                    game.plies,
                    serde_json::to_string(&state.turn)
                        .unwrap_or_default()
                        .trim_matches('"'),
                    args.role.name()
                );
                return Ok(());
            }
        };
        if to_move != Some(args.role) {
            continue;
        }
        let left = budget.saturating_sub(received.elapsed());
        match game.choose(left, args.depth) {
            Some(mv) => {
                let action = tablut::action(&mv, args.role).map_err(|e| anyhow::anyhow!(e))?;
                tablut::write_message(&mut writer, &action)
                    .context("cannot send the move to the server")?;
                println!(
                    "  sent {mv} after {:.2} s",
                    received.elapsed().as_secs_f64()
                );
            }
            None => {
                println!("no legal move: skald loses this game; waiting for the server to end it");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_silence_limit_outlasts_the_other_players_move() {
        assert_eq!(silence_limit(60), Duration::from_secs(130));
        assert_eq!(silence_limit(1), Duration::from_secs(12));
    }

    #[test]
    fn the_budget_keeps_a_margin() {
        assert_eq!(move_budget(60, None), Duration::from_secs(54));
        assert_eq!(move_budget(10, None), Duration::from_secs(8));
        assert_eq!(move_budget(3, None), Duration::from_secs_f64(1.5));
        assert_eq!(move_budget(10, Some(1.0)), Duration::from_secs(9));
        assert_eq!(move_budget(1, Some(5.0)), Duration::from_secs_f64(0.05));
    }
}
