//! Fuzzing the *order* of protocol commands against the real binary: random sequences of `go`
//! (infinite, ponder, depth, nodes, movetime, clocks, bare), `position` (start, FENs including
//! finished games, random legal moves), `stop`, `ponderhit`, `isready`, `ucinewgame`,
//! `setoption`, `uci`/`uai`, in brandubh and in Ataxx, with no `stop` forced between them
//! (tests/fuzz_protocol.rs stops after every line, so it cannot reach a command loop that waits
//! inside `go` for a search that only `stop` could end).
//!
//! Every line the engine writes is checked as it arrives, against a model of what was sent:
//!
//! - the engine never hangs: every `isready` gets its `readyok` (within [`HUNG`], a bound that
//!   only means "hung", never "too slow"), and after the closing `stop`/`isready`/`quit` the
//!   process exits with status 0;
//! - every `go` gets exactly one `bestmove`, in order; `stop` ends every search running or
//!   queued, so when the `readyok` after the closing `stop` arrives all have answered;
//! - every `bestmove` is legal in the position its `go` was given (its `ponder` move legal after
//!   it), `bestmove (none)` only for a finished game, which is announced by
//!   `info string game over`;
//! - at least one `info depth` line (whose first PV move is legal) comes before the `bestmove`
//!   of an unfinished position: depth 1 is always completed;
//! - a `go` with no limit of its own (`go infinite`, `go`, `go wtime N` with the first player to
//!   move) answers only after a `stop` sent after it, however early its search ends; a
//!   `go ponder` only after a `stop` or `ponderhit` sent after it; on a finished game
//!   `go ponder` and `go infinite` too wait for one of them before `bestmove (none)`;
//! - no `info string error` except `setoption`/`ucinewgame` refused while a search runs (every
//!   generated command is valid; the harness syncs after those two to know what happened).
//!
//! Reads go through a reader thread and a channel with a timeout per read: no sleeps, no timing
//! assumptions. 64 cases per variant by default; `PROPTEST_CASES` sets another number:
//!   PROPTEST_CASES=2000 cargo test --release --test fuzz_sequences

use proptest::prelude::*;
use proptest::sample::Index;
use skald::engine::{Session, new_session};
use skald::game::Outcome;
use skald::variant::Variant;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
use std::time::{Duration, Instant};

/// How long a read may wait before the engine counts as hung. Only a hang reaches it.
const HUNG: Duration = Duration::from_secs(60);

/// Positions given by FEN: ongoing ones (a forced Ataxx pass, one ply before a move-count draw)
/// and finished ones. `fen_table_is_right` checks which are which.
const BRANDUBH_FENS: &[(&str, bool)] = &[
    ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1", false),
    ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 1", false),
    // One quiet ply from a draw by the 100-ply rule.
    ("3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 99 50", false),
    ("7/6K/2t4/7/tT1Tt2/2T4/2t4 a 17 9", false),
    // The king stands on a corner: the defenders have won.
    ("K6/7/7/7/7/3t3/7 a 0 1", true),
    ("6K/7/7/7/7/3t3/7 d 0 1", true),
];

const ATAXX_FENS: &[(&str, bool)] = &[
    ("x5o/7/7/7/7/7/o5x x 0 1", false),
    ("x5o/7/7/7/7/7/o5x o 0 1", false),
    ("x5o/7/7/3-3/7/7/o5x x 0 1", false),
    ("6o/7/7/2o4/1oo4/7/x6 x 5 1", false),
    // x has no move: the forced pass 0000.
    ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", false),
    ("x5o/7/7/7/7/7/o5x x 99 1", false),
    // o has no stones / x has none / the 100-ply rule / a full board.
    ("x6/7/7/7/7/7/7 o 0 1", true),
    ("6o/7/7/7/7/7/7 x 0 1", true),
    ("x5o/7/7/7/7/7/o5x x 100 1", true),
    (
        "xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo o 0 1",
        true,
    ),
];

fn fens(variant: Variant) -> &'static [(&'static str, bool)] {
    match variant {
        Variant::Ataxx => ATAXX_FENS,
        _ => BRANDUBH_FENS,
    }
}

fn finished(session: &dyn Session) -> bool {
    matches!(session.outcome(), Outcome::Decided { .. })
}

/// `position startpos|fen <fen> [moves …]`, the moves picked among the legal ones by `picks`
/// (stopping when the game ends).
fn position_line(
    variant: Variant,
    fen: Option<usize>,
    picks: &[Index],
    moves_word: bool,
) -> String {
    let mut session = new_session(variant);
    let fen = fen.map(|i| fens(variant)[i % fens(variant).len()].0);
    session.set_position(fen, &[]).expect("a FEN of the table");
    let mut moves = Vec::new();
    for pick in picks {
        if finished(session.as_ref()) {
            break;
        }
        let legal = session.legal_moves();
        let mv = legal[pick.index(legal.len())];
        session.play(mv).expect("a legal move");
        moves.push(mv.to_string());
    }
    let mut line = match fen {
        None => "position startpos".to_string(),
        Some(fen) => format!("position fen {fen}"),
    };
    if moves_word || !moves.is_empty() {
        line.push_str(" moves");
        for mv in moves {
            line.push(' ');
            line.push_str(&mv);
        }
    }
    line
}

/// One command line of a sequence.
fn command(variant: Variant) -> impl Strategy<Value = String> {
    let max_depth: u32 = if variant == Variant::Ataxx { 4 } else { 5 };
    let nodes = prop_oneof![1u64..=16, 1u64..=20_000];
    let go = prop_oneof![
        3 => Just("go infinite".to_string()),
        3 => Just("go ponder".to_string()),
        2 => Just("go".to_string()),
        3 => (1..=max_depth).prop_map(|d| format!("go depth {d}")),
        3 => nodes.clone().prop_map(|n| format!("go nodes {n}")),
        1 => (1..=max_depth).prop_map(|d| format!("go ponder depth {d}")),
        1 => nodes.prop_map(|n| format!("go ponder nodes {n}")),
        1 => (1u64..=30).prop_map(|t| format!("go movetime {t}")),
        1 => (0u64..=300).prop_map(|t| format!("go btime {t} wtime {t}")),
        // Only the second player's clock: a limit only when the second player is to move.
        1 => (0u64..=300).prop_map(|t| format!("go wtime {t}")),
    ];
    let n = fens(variant).len();
    let position = (
        proptest::option::weighted(0.6, 0..n),
        proptest::collection::vec(any::<Index>(), 0..8),
        any::<bool>(),
    )
        .prop_map(move |(fen, picks, word)| position_line(variant, fen, &picks, word));
    let setoption = prop_oneof![
        (1u32..=8).prop_map(|v| format!("setoption name Hash value {v}")),
        (1u32..=2).prop_map(|v| format!("setoption name Threads value {v}")),
        (1u32..=3).prop_map(|v| format!("setoption name MultiPV value {v}")),
        (0u32..=20).prop_map(|v| format!("setoption name Skill Level value {v}")),
        (0u32..=50).prop_map(|v| format!("setoption name Move Overhead value {v}")),
        any::<bool>().prop_map(|v| format!("setoption name Ponder value {v}")),
        any::<bool>().prop_map(|v| format!("setoption name Basic Search value {v}")),
        Just("setoption name Clear Hash".to_string()),
        Just(format!("setoption name UCI_Variant value {variant}")),
    ];
    let identify = if variant == Variant::Ataxx {
        "uai"
    } else {
        "uci"
    };
    prop_oneof![
        12 => go,
        8 => position,
        5 => Just("stop".to_string()),
        3 => Just("ponderhit".to_string()),
        4 => Just("isready".to_string()),
        2 => Just("ucinewgame".to_string()),
        3 => setoption,
        1 => Just(identify.to_string()),
    ]
}

fn sequence(variant: Variant) -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(command(variant), 1..24)
}

/// A `go` sent and not yet answered.
struct Pending {
    line: String,
    session: Box<dyn Session>,
    finished: bool,
    /// A search with no limit of its own (`go infinite`, `go`, …): answers only after a later
    /// `stop`.
    needs_stop: bool,
    /// `go ponder`, or `go infinite` on a finished game: answers only after a later `stop` or
    /// `ponderhit`.
    needs_release: bool,
    stopped: bool,
    released: bool,
}

/// The engine process, a model of what it was sent, and the transcript.
struct Harness {
    variant: Variant,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// `> sent` and `< received` lines, for failure messages.
    transcript: Vec<String>,
    /// The position the next `go` searches.
    session: Box<dyn Session>,
    pending: std::collections::VecDeque<Pending>,
    /// `info depth` lines since the last `bestmove`.
    infos: usize,
    /// `isready` sent and not yet answered.
    ready_owed: usize,
    /// Set while the harness syncs after a `setoption`/`ucinewgame`: whether it was refused.
    refused: Option<bool>,
}

type Check = Result<(), String>;

impl Harness {
    fn start(variant: Variant) -> Harness {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skald"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start skald");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Harness {
            variant,
            stdin: child.stdin.take(),
            child,
            lines: rx,
            transcript: Vec::new(),
            session: new_session(variant),
            pending: Default::default(),
            infos: 0,
            ready_owed: 0,
            refused: None,
        }
    }

    fn fail<T>(&self, why: impl AsRef<str>) -> Result<T, String> {
        Err(format!(
            "{}\ntranscript (> sent, < received):\n{}",
            why.as_ref(),
            self.transcript.join("\n")
        ))
    }

    fn send(&mut self, line: &str) -> Check {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        if let Err(e) = stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush())
        {
            return self.fail(format!("writing {line:?}: {e} (the engine has died?)"));
        }
        Ok(())
    }

    /// Checks the lines that have arrived, without waiting.
    fn drain(&mut self) -> Check {
        loop {
            match self.lines.try_recv() {
                Ok(line) => self.check(line)?,
                Err(TryRecvError::Empty) => return Ok(()),
                Err(TryRecvError::Disconnected) => {
                    return self.fail("the engine closed its output");
                }
            }
        }
    }

    /// Checks lines until every `isready` sent has its `readyok`; fails if a read waits
    /// [`HUNG`].
    fn await_ready(&mut self) -> Check {
        while self.ready_owed > 0 {
            match self.lines.recv_timeout(HUNG) {
                Ok(line) => self.check(line)?,
                Err(RecvTimeoutError::Timeout) => {
                    return self.fail(format!(
                        "hung: no readyok within {HUNG:?} ({} go unanswered)",
                        self.pending.len()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return self.fail("the engine closed its output");
                }
            }
        }
        Ok(())
    }

    fn sync(&mut self) -> Check {
        self.send("isready")?;
        self.ready_owed += 1;
        self.await_ready()
    }

    /// Sends one command of the sequence and updates the model.
    fn command(&mut self, line: &str) -> Check {
        self.drain()?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "go" => {
                let session = self.session.boxed_clone();
                let finished = finished(session.as_ref());
                let has = |w: &str| words.contains(&w);
                let ponder = has("ponder");
                let infinite = has("infinite");
                // A clock counts only for the side to move (`btime`: the first player's).
                let own_clock = if session.side_to_move().index() == 0 {
                    "btime"
                } else {
                    "wtime"
                };
                let limited = has("depth") || has("nodes") || has("movetime") || has(own_clock);
                // A search with no limit of its own (`go infinite`, `go`, a clock of the other
                // side only) answers only after `stop`, however early it ends; a pondering one
                // after `stop` or `ponderhit` (at once on `ponderhit` if it has finished, as
                // protocol.md has it). On a finished game, where there is no search,
                // `go infinite` and `go ponder` wait for either, and other `go`s answer at once.
                let (needs_stop, needs_release) = if finished {
                    (false, ponder || infinite)
                } else {
                    (infinite || (!limited && !ponder), ponder)
                };
                self.pending.push_back(Pending {
                    line: line.to_string(),
                    session,
                    finished,
                    needs_stop,
                    needs_release,
                    stopped: false,
                    released: false,
                });
                self.send(line)
            }
            "position" => {
                let moves_at = words.iter().position(|w| *w == "moves");
                let (spec, moves) = match moves_at {
                    Some(i) => (&words[1..i], &words[i + 1..]),
                    None => (&words[1..], &words[words.len()..]),
                };
                let fen = (spec[0] == "fen").then(|| spec[1..].join(" "));
                self.session
                    .set_position(fen.as_deref(), moves)
                    .expect("the generator makes valid positions");
                self.send(line)
            }
            "stop" => {
                for p in &mut self.pending {
                    p.stopped = true;
                }
                self.send(line)
            }
            "ponderhit" => {
                for p in &mut self.pending {
                    p.released = true;
                }
                self.send(line)
            }
            "isready" => self.sync(),
            "ucinewgame" | "setoption" => {
                self.send(line)?;
                self.refused = Some(false);
                self.sync()?;
                let refused = self.refused.take() == Some(true);
                if words[0] == "ucinewgame" && !refused {
                    self.session = new_session(self.variant);
                }
                Ok(())
            }
            _ => self.send(line),
        }
    }

    /// Checks one line from the engine against the model.
    fn check(&mut self, line: String) -> Check {
        self.transcript.push(format!("< {line}"));
        if line == "readyok" {
            if self.ready_owed == 0 {
                return self.fail("readyok without isready");
            }
            self.ready_owed -= 1;
        } else if let Some(rest) = line.strip_prefix("bestmove ") {
            let Some(p) = self.pending.pop_front() else {
                return self.fail("a bestmove with no go unanswered");
            };
            let infos = std::mem::take(&mut self.infos);
            let mut words = rest.split_whitespace();
            let best = words.next().unwrap_or("");
            let go = &p.line;
            if p.needs_stop && !p.stopped {
                return self.fail(format!("'{go}' answered before any stop was sent"));
            }
            if p.needs_release && !(p.stopped || p.released) {
                return self.fail(format!(
                    "'{go}' answered before any stop or ponderhit was sent"
                ));
            }
            if p.finished {
                if best != "(none)" {
                    return self.fail(format!("'{go}' on a finished game answered {best}"));
                }
            } else {
                let legal = p.session.legal_moves();
                if !legal.iter().any(|m| m.to_string() == best) {
                    return self.fail(format!(
                        "'{go}': bestmove {best} is not legal in {} ({legal:?})",
                        p.session.fen()
                    ));
                }
                if infos == 0 {
                    return self.fail(format!("'{go}': no info depth line before bestmove"));
                }
                if let (Some("ponder"), Some(reply)) = (words.next(), words.next()) {
                    let mut after = p.session.boxed_clone();
                    after.play_text(best).unwrap();
                    if !after.legal_moves().iter().any(|m| m.to_string() == reply) {
                        return self.fail(format!(
                            "'{go}': ponder move {reply} is not legal after {best}"
                        ));
                    }
                }
            }
        } else if line.starts_with("info depth ") {
            let Some(p) = self.pending.front() else {
                return self.fail("an info line with no search");
            };
            if p.finished {
                return self.fail(format!("'{}' searched a finished game", p.line));
            }
            if let Some(first) = line
                .split(" pv ")
                .nth(1)
                .and_then(|pv| pv.split(' ').next())
                && !p
                    .session
                    .legal_moves()
                    .iter()
                    .any(|m| m.to_string() == first)
            {
                return self.fail(format!("'{}': PV move {first} not legal", p.line));
            }
            self.infos += 1;
        } else if line.starts_with("info string game over") {
            if !self.pending.front().is_some_and(|p| p.finished) {
                return self.fail("game over announced for an unfinished game");
            }
        } else if line.starts_with("info string error") {
            if self.refused.is_some() && line.contains("a search is running") {
                self.refused = Some(true);
            } else {
                return self.fail("an error for a valid command");
            }
        } else if !(line.starts_with("info string ")
            || line.starts_with("id ")
            || line.starts_with("option name ")
            || line == "uciok"
            || line == "uaiok")
        {
            return self.fail("an unexpected line");
        }
        Ok(())
    }

    /// Checks lines until every `go` sent has answered (for searches that end by themselves).
    fn await_answers(&mut self) -> Check {
        while !self.pending.is_empty() {
            match self.lines.recv_timeout(HUNG) {
                Ok(line) => self.check(line)?,
                Err(RecvTimeoutError::Timeout) => {
                    return self.fail(format!("hung: no bestmove within {HUNG:?}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return self.fail("the engine closed its output");
                }
            }
        }
        Ok(())
    }

    /// Checks lines until one satisfies `pred` (an event to wait for).
    fn await_line(&mut self, pred: impl Fn(&str) -> bool) -> Check {
        loop {
            match self.lines.recv_timeout(HUNG) {
                Ok(line) => {
                    let hit = pred(&line);
                    self.check(line)?;
                    if hit {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return self.fail(format!("hung: no awaited line within {HUNG:?}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return self.fail("the engine closed its output");
                }
            }
        }
    }

    /// Selects the variant (`uai` for Ataxx).
    fn setup(&mut self) -> Check {
        let first = if self.variant == Variant::Ataxx {
            "uai".to_string()
        } else {
            format!("setoption name UCI_Variant value {}", self.variant)
        };
        self.command(&first)?;
        self.sync()
    }

    /// Runs the sequence, then [`Harness::finish`].
    fn run(&mut self, commands: &[String]) -> Check {
        self.setup()?;
        for line in commands {
            self.command(line)?;
        }
        self.finish()
    }

    /// `stop`, `isready`, `quit`: everything answered, then exit 0.
    fn finish(&mut self) -> Check {
        self.command("stop")?;
        self.sync()?;
        if let Some(p) = self.pending.front() {
            return self.fail(format!(
                "'{}' (and {} more) not answered after stop and readyok",
                p.line,
                self.pending.len() - 1
            ));
        }
        self.send("quit")?;
        self.stdin = None;
        // The rest of the output, up to its end when the process exits: nothing may answer
        // any more.
        loop {
            match self.lines.recv_timeout(HUNG) {
                Ok(line) => self.check(line)?,
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    return self.fail(format!("no exit within {HUNG:?} of quit"));
                }
            }
        }
        let deadline = Instant::now() + HUNG;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                return self.fail(format!("output closed but no exit within {HUNG:?}"));
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if !status.success() {
            return self.fail(format!("exit status {status}"));
        }
        Ok(())
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run(variant: Variant, commands: &[String]) -> Check {
    Harness::start(variant).run(commands)
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        cases,
        // A hang costs HUNG per try: shrink for a few minutes at most.
        max_shrink_time: 240_000,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn brandubh_command_sequences(commands in sequence(Variant::Brandubh)) {
        run(Variant::Brandubh, &commands).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn ataxx_command_sequences(commands in sequence(Variant::Ataxx)) {
        run(Variant::Ataxx, &commands).map_err(TestCaseError::fail)?;
    }
}

fn lines(commands: &[&str]) -> Vec<String> {
    commands.iter().map(|c| c.to_string()).collect()
}

/// The deadlock of the "faults" issue: `go` on a finished game while `go infinite` ran waited
/// inside the command loop for that search to end, which only `stop` could do, and `stop` was
/// never read: nothing came after `uaiok`.
#[test]
fn go_on_a_finished_game_behind_go_infinite_does_not_deadlock() {
    run(
        Variant::Ataxx,
        &lines(&[
            "uai",
            "position startpos",
            "go infinite",
            "position fen x6/7/7/7/7/7/7 o 0 1",
            "go",
            "stop",
            "isready",
        ]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

/// `go ponder` and `go infinite` on a finished game wait for `stop` (or `ponderhit`) before
/// `bestmove (none)`, as a search would; a bounded `go` answers at once.
#[test]
fn ponder_and_infinite_on_a_finished_game_wait_for_stop() {
    for variant in [Variant::Brandubh, Variant::Ataxx] {
        let fen = fens(variant).iter().find(|f| f.1).unwrap().0;
        let position = format!("position fen {fen}");
        for go in ["go ponder", "go infinite", "go depth 3"] {
            run(
                variant,
                &lines(&[&position, go, "isready", "ponderhit", "isready"]),
            )
            .unwrap_or_else(|e| panic!("{variant} {go}: {e}"));
        }
    }
}

/// Tiny node limits still complete depth 1 (an `info` line, then a searched move); each search
/// ends by itself.
#[test]
fn tiny_node_limits_answer_a_searched_move() {
    for variant in [Variant::Brandubh, Variant::Ataxx] {
        let mut h = Harness::start(variant);
        let check = (|| {
            h.setup()?;
            for n in 1..=8 {
                h.command(&format!("go nodes {n}"))?;
                h.await_answers()?;
            }
            h.finish()
        })();
        check.unwrap_or_else(|e| panic!("{variant}: {e}"));
    }
}

/// A `go` with no limit of its own searches until `stop`, like `go infinite` (protocol.md), also
/// when the search ends early: x mates in 2 and the iterations stop at depth 7; `Skill Level 0`
/// caps the search at depth 1. (Found by the fuzzer: the answer came at once, without `stop`.)
/// Each case waits for the event after which the search has nothing left to do, syncs twice
/// and fails if the answer came before `stop`.
#[test]
fn a_go_with_no_limit_answers_only_after_stop_even_when_the_search_ends_early() {
    let cases: [(Variant, &[&str], &str); 3] = [
        (
            Variant::Ataxx,
            &[
                "position fen 6o/7/7/2o4/1oo4/7/x6 x 5 1 moves a1a3 c3e4",
                "go",
            ],
            " score mate ",
        ),
        (
            Variant::Brandubh,
            &["setoption name Skill Level value 0", "go"],
            "info depth 1 ",
        ),
        // Only the defenders' clock, the attackers to move: no limit either.
        (
            Variant::Brandubh,
            &["setoption name Skill Level value 0", "go wtime 1000"],
            "info depth 1 ",
        ),
    ];
    let mut failures = Vec::new();
    for (variant, commands, event) in cases {
        let mut h = Harness::start(variant);
        let check = (|| {
            h.setup()?;
            for c in commands {
                h.command(c)?;
            }
            h.await_line(|l| l.contains(event))?;
            h.command("isready")?;
            h.command("isready")?;
            h.finish()
        })();
        if let Err(e) = check {
            failures.push(format!("{variant} {commands:?}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The FEN table says rightly which positions are finished.
#[test]
fn fen_table_is_right() {
    for variant in [Variant::Brandubh, Variant::Ataxx] {
        for (fen, done) in fens(variant) {
            let mut s = new_session(variant);
            s.set_position(Some(fen), &[]).unwrap();
            assert_eq!(finished(s.as_ref()), *done, "{variant} {fen}");
        }
    }
}
