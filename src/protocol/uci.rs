//! The UCI-style engine protocol and its UAI dialect (protocol.md).
//!
//! The command loop runs on the calling thread; a search runs on a thread of its own, so `stop`,
//! `isready` and `quit` are answered while it runs. Every command is parsed completely before
//! anything changes: a bad command gets `info string error: …` and leaves the engine as it was.

use super::Output;
use crate::engine::options::{self, OptionKind, OptionSpec};
use crate::engine::{
    Clock, Engine, Finished, Limits, MoveView, Outcome, Report, Score, SearchHandle,
};
use crate::text::truncate;
use crate::variant::Variant;
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// The engine's name as `id name` gives it, with the crate version.
pub const ENGINE_NAME: &str = concat!("skald ", env!("CARGO_PKG_VERSION"));
/// The `id author` line's value.
pub const ENGINE_AUTHOR: &str = "the skald developers";

/// Which dialect the client speaks: decides `uciok` or `uaiok`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// UCI (tafl GUIs, scripts).
    Uci,
    /// UAI (the Ataxx harnesses).
    Uai,
}

/// What the command loop should do after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// Exit (after `quit`).
    Quit,
}

/// The UCI/UAI front-end: reads commands, drives an [`Engine`], writes its answers.
pub struct Uci {
    out: Output,
    dialect: Dialect,
    engine: Engine,
    /// The last `perft` or `bench` started, by name: it runs where searches run
    /// ([`Engine::start_task`]), so that `stop` and `quit` are read while it runs.
    task: Option<(&'static str, SearchHandle)>,
}

/// The UCI `option` line of a registry entry.
pub fn option_line(spec: &OptionSpec) -> String {
    let kind = match &spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!("type spin default {default} min {min} max {max}")
        }
        OptionKind::Check { default } => format!("type check default {default}"),
        OptionKind::Combo { default, vars } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!("type combo default {default}{vars}")
        }
        OptionKind::String { default } => format!("type string default {default}"),
        OptionKind::Button => "type button".to_string(),
    };
    format!("option name {} {kind}", spec.name)
}

impl Uci {
    /// A new front-end writing to `out`, over an engine playing brandubh until told otherwise.
    pub fn new(out: Output, engine: Engine) -> Uci {
        Uci {
            out,
            dialect: Dialect::Uci,
            engine,
            task: None,
        }
    }

    /// Reads commands from `input` until `quit` or end of input. At end of input a search with
    /// a limit of its own (depth, nodes, movetime, a clock for the side to move) is allowed to
    /// finish and answer; one without (`go infinite`, `go ponder`, `go` alone, a clock for the
    /// other side only) is stopped and answers at once.
    pub fn run(&mut self, input: &mut dyn BufRead) {
        let quit = super::read_commands(input, |line| match line {
            Ok(line) => self.handle_line(line) == Flow::Quit,
            Err(message) => {
                self.error(message);
                false
            }
        });
        if !quit {
            // A search with a limit of its own, a perft or a bench piped in is let finish.
            self.engine.stop_unbounded();
            self.engine.wait();
        }
    }

    /// Handles one command line. Never panics: an internal fault is reported as an error line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(line))) {
            Ok(flow) => flow,
            Err(_) => {
                self.error("internal error while handling the command; state kept");
                Flow::Continue
            }
        }
    }

    /// Waits until every search, `perft` and `bench` has answered (tests use it to read whole
    /// transcripts).
    pub fn wait(&mut self) {
        self.engine.wait();
    }

    /// `true` (after an error line) while a `perft` or `bench` runs: `what` is refused.
    fn task_busy(&mut self, what: &str) -> bool {
        match &self.task {
            Some((name, handle)) if handle.is_running() => {
                let name = *name;
                self.error(format!(
                    "{what} ignored: {name} is running (send stop first)"
                ));
                true
            }
            _ => false,
        }
    }

    fn error(&self, msg: impl AsRef<str>) {
        self.out
            .line(format!("info string error: {}", msg.as_ref()));
    }

    fn busy(&self, what: &str) -> bool {
        if self.engine.is_searching() {
            self.error(format!(
                "{what} ignored: a search is running (send stop first)"
            ));
            return true;
        }
        false
    }

    fn dispatch(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = tokens.first() else {
            return Flow::Continue;
        };
        let command = first.to_ascii_lowercase();
        let args = &tokens[1..];
        match command.as_str() {
            "uci" => self.identify(Dialect::Uci),
            "uai" => {
                if !self.engine.is_searching() && self.engine.variant() != Variant::Ataxx {
                    self.engine.set_variant(Variant::Ataxx);
                }
                self.identify(Dialect::Uai)
            }
            "isready" => self.out.line("readyok"),
            "ucinewgame" | "uainewgame" => {
                if !self.busy(&command) {
                    self.engine.new_game();
                }
            }
            "setoption" => self.setoption(args),
            // A running search has its own copy of the game: a new position is for the next
            // `go` (as in Stockfish), so commands piped behind a `go` are not lost.
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" | "quit" => {
                // Every search, perft and bench ends (each says how far it got).
                self.engine.stop();
                self.engine.wait();
                if command == "quit" {
                    return Flow::Quit;
                }
            }
            "ponderhit" => self.engine.ponderhit(),
            "d" | "display" => self.display(),
            "eval" => self.eval(),
            "flip" => self.flip(),
            "perft" => self.perft(args),
            "bench" => self.bench(args),
            _ => self.error(format!(
                "unknown command '{}'",
                truncate(first, 40).escape_debug()
            )),
        }
        Flow::Continue
    }

    fn identify(&mut self, dialect: Dialect) {
        self.dialect = dialect;
        self.out.line(format!("id name {ENGINE_NAME}"));
        self.out.line(format!("id author {ENGINE_AUTHOR}"));
        let params = self.engine.search_params();
        for mut spec in options::registry() {
            match (&mut spec.kind, spec.id) {
                // The combo's default is the variant in play.
                (OptionKind::Combo { default, .. }, options::OptionId::Variant) => {
                    *default = self.engine.variant().name();
                }
                // A tuning value's default is the one the variant in play uses.
                (OptionKind::Spin { default, .. }, options::OptionId::Tune(i)) => {
                    let name = crate::engine::SearchParams::TUNABLE[i].name;
                    *default = params.get(name).map_or(*default, i64::from);
                }
                (OptionKind::Check { default }, options::OptionId::TuneSwitch(i)) => {
                    let name = crate::engine::SearchParams::SWITCHES[i].name;
                    *default = params.get_switch(name).unwrap_or(*default);
                }
                _ => {}
            }
            self.out.line(option_line(&spec));
        }
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            Dialect::Uai => "uaiok",
        });
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <name words> [value <value words>]
        if !args.first().is_some_and(|t| t.eq_ignore_ascii_case("name")) {
            return self.error("setoption: expected 'setoption name <name> [value <value>]'");
        }
        let rest = &args[1..];
        let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let (name_words, value_words) = match value_at {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let name = name_words.join(" ");
        let value = value_words.join(" ");
        if name.is_empty() {
            return self.error("setoption: the option name is missing");
        }
        if let Err(e) = self.engine.set_option(&name, &value) {
            self.error(e.to_string());
        }
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|t| t.eq_ignore_ascii_case("moves"));
        let (spec, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let fen = match spec.first().map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("startpos") if spec.len() == 1 => None,
            Some("fen") if spec.len() > 1 => Some(spec[1..].join(" ")),
            Some("fen") => return self.error("position fen: the FEN is missing"),
            _ => {
                return self
                    .error("position: expected 'position startpos|fen <fen> [moves <move>...]'");
            }
        };
        if let Err(e) = self
            .engine
            .session_mut()
            .set_position(fen.as_deref(), moves)
        {
            self.error(format!("position not changed: {e}"));
        }
    }

    fn go(&mut self, args: &[&str]) {
        if args
            .first()
            .is_some_and(|t| t.eq_ignore_ascii_case("perft"))
        {
            return self.perft(&args[1..]);
        }
        let limits = match parse_go(args) {
            Ok(l) => l,
            Err(e) => return self.error(format!("go: {e}")),
        };
        if self.task_busy("go") {
            return;
        }
        let out = self.out.clone();
        let report_out = out.clone();
        let variant = self.engine.variant();
        let started = self.engine.start(
            limits,
            move |r| report_out.line(info_line(r)),
            move |finished| {
                let (best, ponder) = match finished {
                    Finished::Done(answer) => (answer.best_move, answer.ponder),
                    Finished::GameOver(outcome) => {
                        let text = variant.outcome_text(outcome).unwrap_or_default();
                        out.line(format!("info string game over: {text}"));
                        (None, None)
                    }
                    Finished::Failed { fallback } => {
                        out.line("info string error: internal error in the search");
                        (fallback, None)
                    }
                    Finished::Cancelled => (None, None),
                };
                out.line(bestmove_line(best, ponder));
            },
        );
        if let Err(e) = started {
            self.error(format!("go: {e}"));
        }
    }

    /// `flip`: the same board with the other side to move, set up as by `position fen` (the game
    /// history is dropped). Like `position`, allowed during a search: it is for the next `go`.
    fn flip(&mut self) {
        let session = self.engine.session_mut();
        let side = session.side_to_move().opponent();
        session.set_side_to_move(side);
    }

    fn display(&self) {
        let session = self.engine.session();
        let variant = self.engine.variant();
        for line in session.board().to_string().lines() {
            self.out.line(line);
        }
        self.out.line(format!("Variant: {}", variant.name()));
        self.out.line(format!("Fen: {}", session.fen()));
        self.out.line(format!("Key: {:016x}", session.hash()));
        self.out.line(format!(
            "Side to move: {}",
            variant.side_name(session.side_to_move())
        ));
        let state = match session.outcome() {
            Outcome::Ongoing => "ongoing".to_string(),
            decided => variant.outcome_text(decided).unwrap_or_default(),
        };
        self.out.line(format!("Outcome: {state}"));
    }

    fn eval(&self) {
        let session = self.engine.session();
        let (terms, by) = self.engine.eval_terms();
        self.out.line(format!("info string eval by {by}"));
        for (name, v) in &terms {
            self.out.line(format!("info string eval {name} {v}"));
        }
        let total: i32 = terms.iter().map(|(_, v)| v).sum();
        self.out.line(format!(
            "info string eval total {total} (centipawns, {} to move)",
            self.engine.variant().side_name(session.side_to_move())
        ));
    }

    fn perft(&mut self, args: &[&str]) {
        if self.task_busy("perft") || self.busy("perft") {
            return;
        }
        let depth = match args.first().map(|t| t.parse::<u32>()) {
            Some(Ok(d)) if (1..=MAX_PERFT_DEPTH).contains(&d) => d,
            _ => {
                return self.error(format!(
                    "perft: expected a depth in 1..={MAX_PERFT_DEPTH}, e.g. 'perft 4'"
                ));
            }
        };
        let session = self.engine.session().boxed_clone();
        let out = self.out.clone();
        let started = self.engine.start_task(move |stop| {
            let start = Instant::now();
            let mut total = 0u64;
            let done = session.divide_until(depth, stop.flag(), &mut |mv, n| {
                out.line(format!("{mv}: {n}"));
                total += n;
            });
            stop.answering();
            if !done {
                out.line("info string perft stopped");
                return;
            }
            let ms = start.elapsed().as_millis() as u64;
            out.line("");
            out.line(format!("Nodes searched: {total}"));
            out.line(format!(
                "info string perft time {ms} ms, {} nps",
                total.saturating_mul(1000) / ms.max(1)
            ));
        });
        self.started_task("perft", started);
    }

    /// Keeps the handle of the `perft` or `bench` started, or says why it could not start.
    fn started_task(
        &mut self,
        name: &'static str,
        started: Result<SearchHandle, crate::engine::EngineError>,
    ) {
        match started {
            Ok(handle) => self.task = Some((name, handle)),
            Err(e) => self.error(format!("{name}: {e}")),
        }
    }

    fn bench(&mut self, args: &[&str]) {
        if self.task_busy("bench") || self.busy("bench") {
            return;
        }
        let depth = match args.first().map(|t| t.parse::<u32>()) {
            None => crate::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=30).contains(&d) => d,
            Some(_) => return self.error("bench: expected a depth in 1..=30"),
        };
        let out = self.out.clone();
        let started = self.engine.start_task(move |stop| {
            let result = crate::bench::run_until(
                depth,
                1,
                crate::engine::EVAL_FILE_DEFAULT,
                stop,
                |variant, fen, nodes| {
                    out.line(format!("info string bench {variant} {fen}: {nodes} nodes"))
                },
            );
            stop.answering();
            match result {
                Ok(result) if result.stopped => out.line("info string bench stopped"),
                Ok(result) => out.line(format!("{} nodes {} nps", result.nodes, result.nps())),
                Err(e) => out.line(format!("info string error: bench: {e}")),
            }
        });
        self.started_task("bench", started);
    }
}

const MAX_PERFT_DEPTH: u32 = 12;

/// The `bestmove` line of an answer: `bestmove <move> [ponder <move>]`, `bestmove (none)`
/// without a move.
pub fn bestmove_line(best: Option<MoveView>, ponder: Option<MoveView>) -> String {
    let mut line = match best {
        Some(mv) => format!("bestmove {mv}"),
        None => "bestmove (none)".to_string(),
    };
    if let Some(p) = ponder {
        line.push_str(&format!(" ponder {p}"));
    }
    line
}

/// Formats a report as a UCI `info` line.
pub fn info_line(r: &Report) -> String {
    let score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {}",
        r.depth, r.seldepth, r.multipv, r.nodes, r.nps, r.hashfull, r.time_ms
    );
    for (i, mv) in r.pv.iter().enumerate() {
        line.push_str(if i == 0 { " pv " } else { " " });
        line.push_str(&mv.to_string());
    }
    line
}

/// The deepest `go depth` accepted, plies (protocol.md); the search itself stops at its ply
/// limit, well below.
pub const MAX_GO_DEPTH: u64 = 1000;

/// Parses the arguments of `go`. `btime`/`binc` are the first player's clock (tafl attackers,
/// Ataxx `x`), `wtime`/`winc` the second's. Unknown words, bad numbers and out-of-range depths
/// or node counts (`depth` 1 to [`MAX_GO_DEPTH`], `nodes` at least 1) are errors.
pub fn parse_go(args: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i].to_ascii_lowercase();
        // The word after the key, as given (for range errors).
        let text = truncate(args.get(i + 1).copied().unwrap_or(""), 20);
        let mut number = || -> Result<u64, String> {
            i += 1;
            let t = args
                .get(i)
                .ok_or_else(|| format!("'{key}' needs a number"))?;
            // Clocks can go negative in some GUIs when a side is late: treat as 0.
            if let Ok(v) = t.parse::<i64>() {
                return Ok(v.max(0) as u64);
            }
            Err(format!(
                "'{key}' needs a whole number, got '{}'",
                truncate(t, 20)
            ))
        };
        match key.as_str() {
            "depth" => {
                let depth = number()?;
                if !(1..=MAX_GO_DEPTH).contains(&depth) || text.starts_with('-') {
                    return Err(format!("'depth' must be 1 to {MAX_GO_DEPTH}, got {text}"));
                }
                limits.depth = Some(depth as u32);
            }
            // python-ataxx sends `go nodes N simulations N` (the second for MCTS engines).
            "nodes" | "simulations" => {
                let nodes = number()?;
                if nodes == 0 {
                    return Err(format!("'{key}' must be at least 1, got {text}"));
                }
                limits.nodes = Some(nodes);
            }
            "movetime" => {
                let ms = number()?;
                if text.starts_with('-') {
                    return Err(format!("'movetime' must be at least 0, got {text}"));
                }
                limits.movetime = Some(ms);
            }
            "btime" => clock.time[0] = Some(number()?),
            "wtime" => clock.time[1] = Some(number()?),
            "binc" => clock.inc[0] = number()?,
            "winc" => clock.inc[1] = number()?,
            // 0 is no count at all (sudden death), as if the word were absent.
            "movestogo" => {
                clock.moves_to_go = match number()? {
                    0 => None,
                    n => Some(n.min(1000) as u32),
                }
            }
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "mate" | "searchmoves" => {
                return Err(format!("'{key}' is not supported"));
            }
            other => return Err(format!("unknown word '{}'", truncate(other, 20))),
        }
        i += 1;
    }
    limits.clock = clock;
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_maps_btime_to_the_first_player() {
        let l = parse_go(&["btime", "1000", "wtime", "2000", "binc", "5"]).unwrap();
        assert_eq!(l.clock.time, [Some(1000), Some(2000)]);
        assert_eq!(l.clock.inc, [5, 0]);
    }

    #[test]
    fn go_rejects_unknown_words_and_bad_numbers() {
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["depth", "x"]).is_err());
        assert!(parse_go(&["fast"]).is_err());
    }

    #[test]
    fn go_reads_negative_clocks_as_zero_and_simulations_as_nodes() {
        let l = parse_go(&["wtime", "-25", "btime", "-1", "depth", "3"]).unwrap();
        assert_eq!(l.clock.time, [Some(0), Some(0)]);
        assert_eq!(l.depth, Some(3));
        // A depth, node count or movetime out of range is an error, not a clamp.
        for bad in [
            &["depth", "-3"][..],
            &["depth", "0"],
            &["depth", "1001"],
            &["nodes", "0"],
            &["movetime", "-5"],
        ] {
            assert!(parse_go(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_go(&["depth", "1000"]).unwrap().depth, Some(1000));
        let l = parse_go(&["nodes", "500", "simulations", "500"]).unwrap();
        assert_eq!(l.nodes, Some(500));
        assert!(parse_go(&["mate", "3"]).is_err());
        assert!(parse_go(&["searchmoves", "d2-f2"]).is_err());
    }
}
