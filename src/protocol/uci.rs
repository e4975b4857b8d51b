//! The UCI-style engine protocol and its UAI dialect (protocol.md).
//!
//! The command loop runs on the calling thread; a search runs on a thread of its own, so `stop`,
//! `isready` and `quit` are answered while it runs. Every command is parsed completely before
//! anything changes: a bad command gets `info string error: …` and leaves the engine as it was.

use super::Output;
use super::session::{Session, TextReport, new_session};
use crate::game::{Outcome, Side};
use crate::search::{
    Clock, Limits, MAX_SKILL, Score, SearchOptions, TranspositionTable, named_skill, tt,
};
use crate::variant::Variant;
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
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

struct RunningSearch {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it writes `bestmove`: from then on the search counts
    /// as over, so a client that answers the `bestmove` at once is never told a search runs.
    finished: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// `go infinite`: the search only ends on `stop`.
    infinite: bool,
}

/// The maximum number of search threads accepted: four per core.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) * 4
}

/// The engine state behind the protocol.
pub struct Engine {
    out: Output,
    dialect: Dialect,
    variant: Variant,
    session: Box<dyn Session>,
    tt: Arc<TranspositionTable>,
    hash_mib: usize,
    options: SearchOptions,
    search: Option<RunningSearch>,
}

impl Engine {
    /// A new engine writing to `out`, playing brandubh until told otherwise.
    pub fn new(out: Output) -> Engine {
        Engine {
            out,
            dialect: Dialect::Uci,
            variant: Variant::Brandubh,
            session: new_session(Variant::Brandubh),
            tt: Arc::new(
                TranspositionTable::new(tt::DEFAULT_HASH_MIB).expect("the default table fits"),
            ),
            hash_mib: tt::DEFAULT_HASH_MIB,
            options: SearchOptions::default(),
            search: None,
        }
    }

    /// Reads commands from `input` until `quit` or end of input. At end of input a running
    /// finite search is allowed to finish (its `bestmove` is printed); an infinite one is stopped.
    pub fn run(&mut self, input: &mut dyn BufRead) {
        let mut buf = Vec::new();
        loop {
            let Some(line) = super::read_line_capped(input, &mut buf, super::MAX_LINE_BYTES) else {
                if let Some(s) = &self.search
                    && s.infinite
                {
                    self.stop_search();
                }
                self.wait_search();
                return;
            };
            let line = match line {
                super::Line::Text(line) => line,
                super::Line::TooLong(n) => {
                    self.error(format!(
                        "line of {n} bytes ignored: longer than the limit of {} bytes",
                        super::MAX_LINE_BYTES
                    ));
                    continue;
                }
            };
            if self.handle_line(&line) == Flow::Quit {
                return;
            }
        }
    }

    /// Handles one command line. Never panics: an internal fault is reported as an error line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.reap_search();
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(line))) {
            Ok(flow) => flow,
            Err(_) => {
                self.error("internal error while handling the command; state kept");
                Flow::Continue
            }
        }
    }

    fn error(&self, msg: impl AsRef<str>) {
        self.out
            .line(format!("info string error: {}", msg.as_ref()));
    }

    fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// Forgets a search thread that has finished by itself (joining it if it is just writing
    /// its `bestmove`).
    fn reap_search(&mut self) {
        if let Some(s) = &self.search
            && (s.finished.load(Ordering::SeqCst) || s.handle.is_finished())
        {
            self.wait_search();
        }
    }

    fn stop_search(&mut self) {
        if let Some(s) = &self.search {
            s.stop.store(true, Ordering::Relaxed);
        }
        self.wait_search();
    }

    fn wait_search(&mut self) {
        if let Some(s) = self.search.take() {
            let _ = s.handle.join();
        }
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
                if !self.searching() && self.variant != Variant::Ataxx {
                    self.set_variant(Variant::Ataxx);
                }
                self.identify(Dialect::Uai)
            }
            "isready" => self.out.line("readyok"),
            "ucinewgame" | "uainewgame" => {
                if self.searching() {
                    self.error(format!(
                        "{command} ignored: a search is running (send stop first)"
                    ));
                } else {
                    self.tt.clear();
                    self.session = new_session(self.variant);
                }
            }
            "setoption" => self.setoption(args),
            // The running search has its own copy of the game: a new position is for the next
            // `go` (as in Stockfish), so commands piped behind a `go` are not lost.
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "quit" => {
                self.stop_search();
                return Flow::Quit;
            }
            "ponderhit" => {}
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
        let variants: String = Variant::ALL
            .iter()
            .map(|v| format!(" var {}", v.name()))
            .collect();
        self.out.line(format!(
            "option name UCI_Variant type combo default {}{variants}",
            self.variant.name()
        ));
        self.out.line(format!(
            "option name Hash type spin default {} min 1 max {}",
            tt::DEFAULT_HASH_MIB,
            tt::MAX_HASH_MIB
        ));
        self.out.line(format!(
            "option name Threads type spin default 1 min 1 max {}",
            max_threads()
        ));
        self.out.line(format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        self.out
            .line("option name Move Overhead type spin default 10 min 0 max 5000");
        self.out.line(format!(
            "option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}"
        ));
        self.out
            .line("option name Basic Search type check default false");
        self.out.line("option name Clear Hash type button");
        self.out.line(match dialect {
            Dialect::Uci => "uciok",
            Dialect::Uai => "uaiok",
        });
    }

    fn set_variant(&mut self, variant: Variant) {
        self.variant = variant;
        self.session = new_session(variant);
        self.tt.clear();
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
        if self.searching() {
            return self.error(format!(
                "setoption {name} ignored: a search is running (send stop first)"
            ));
        }
        let key = name.to_ascii_lowercase();
        let needs_value = !matches!(key.as_str(), "clear hash");
        if needs_value && value.is_empty() && OPTION_NAMES.contains(&key.as_str()) {
            return self.error(format!(
                "option {name}: the value is missing ('setoption name {name} value <value>')"
            ));
        }
        let number = |lo: u64, hi: u64| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(v) if (lo..=hi).contains(&v) => Ok(v),
                _ => Err(format!(
                    "option {name}: value '{}' is not a whole number in {lo}..={hi}",
                    truncate(&value, 40)
                )),
            }
        };
        let result = match key.as_str() {
            "uci_variant" => value
                .parse::<Variant>()
                .map(|v| {
                    if v != self.variant {
                        self.set_variant(v);
                    }
                })
                .map_err(|e| e.to_string()),
            "hash" => number(1, tt::MAX_HASH_MIB as u64).and_then(|mib| {
                let mib = mib as usize;
                if mib == self.hash_mib {
                    return Ok(());
                }
                // Free the old table first so that both never need to fit at once.
                self.tt = Arc::new(TranspositionTable::new(1).map_err(|e| e.to_string())?);
                match TranspositionTable::new(mib) {
                    Ok(t) => {
                        self.tt = Arc::new(t);
                        self.hash_mib = mib;
                        Ok(())
                    }
                    Err(e) => {
                        self.tt = Arc::new(
                            TranspositionTable::new(self.hash_mib)
                                .or_else(|_| TranspositionTable::new(tt::DEFAULT_HASH_MIB))
                                .map_err(|e| e.to_string())?,
                        );
                        Err(format!("{e}; keeping {} MiB", self.hash_mib))
                    }
                }
            }),
            "threads" => number(1, max_threads() as u64).map(|n| self.options.threads = n as usize),
            "multipv" => number(1, MAX_MULTIPV).map(|n| self.options.multipv = n as usize),
            "move overhead" => number(0, 5000).map(|n| self.options.move_overhead_ms = n),
            "skill level" => match named_skill(&value) {
                Some(level) => {
                    self.options.skill_level = level;
                    Ok(())
                }
                None => number(0, MAX_SKILL as u64).map(|n| self.options.skill_level = n as u8),
            },
            "basic search" => match value.to_ascii_lowercase().as_str() {
                "true" => {
                    self.options.basic = true;
                    Ok(())
                }
                "false" => {
                    self.options.basic = false;
                    Ok(())
                }
                _ => Err(format!(
                    "option Basic Search: value '{}' is not true or false",
                    truncate(&value, 40)
                )),
            },
            "clear hash" => {
                self.tt.clear();
                Ok(())
            }
            _ => Err(format!("unknown option '{}'", truncate(&name, 60))),
        };
        if let Err(e) = result {
            self.error(&e);
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
        if let Err(e) = self.session.set_position(fen.as_deref(), moves) {
            self.error(format!("position not changed: {e}"));
        }
    }

    fn go(&mut self, args: &[&str]) {
        if self.searching() {
            return self.error("go ignored: a search is already running");
        }
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
        let out = self.out.clone();
        if let Outcome::Decided { winner, reason } = self.session.outcome() {
            let who = match winner {
                None => "draw".to_string(),
                Some(side) => format!("{} win", side_name(self.variant, side)),
            };
            out.line(format!("info string game over: {who} ({reason})"));
            out.line("bestmove (none)");
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let session = self.session.boxed_clone();
        let tt = Arc::clone(&self.tt);
        let options = self.options.clone();
        let infinite = limits.infinite;
        let thread_stop = Arc::clone(&stop);
        let finished = Arc::new(AtomicBool::new(false));
        let thread_finished = Arc::clone(&finished);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    session.search(&limits, &options, &tt, &thread_stop, &mut |r| {
                        out.line(info_line(r))
                    })
                }));
                thread_finished.store(true, Ordering::SeqCst);
                match outcome {
                    Ok(result) => {
                        let mut line = format!(
                            "bestmove {}",
                            result.best_move.as_deref().unwrap_or("(none)")
                        );
                        if let Some(p) = result.ponder {
                            line.push_str(&format!(" ponder {p}"));
                        }
                        out.line(line);
                    }
                    Err(_) => {
                        out.line("info string error: internal error in the search");
                        let fallback = session.legal_moves().into_iter().next();
                        out.line(format!(
                            "bestmove {}",
                            fallback.as_deref().unwrap_or("(none)")
                        ));
                    }
                }
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch {
                    stop,
                    finished,
                    handle,
                    infinite,
                })
            }
            Err(e) => self.error(format!("cannot start the search thread: {e}")),
        }
    }

    /// `flip`: the same board with the other side to move, set up as by `position fen` (the game
    /// history is dropped). An error if that position is not valid. Like `position`, allowed
    /// during a search: it is for the next `go`.
    fn flip(&mut self) {
        let fen = self.session.fen();
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        let (first, second) = if self.variant.is_tafl() {
            ("a", "d")
        } else {
            ("x", "o")
        };
        match fields.get_mut(1) {
            Some(side) if *side == first => *side = second,
            Some(side) if *side == second => *side = first,
            _ => return self.error("flip: cannot read the side to move"),
        }
        let flipped = fields.join(" ");
        if let Err(e) = self.session.set_position(Some(&flipped), &[]) {
            self.error(format!("flip: position not changed: {e}"));
        }
    }

    fn display(&self) {
        for line in self.session.board().lines() {
            self.out.line(line);
        }
        self.out.line(format!("Variant: {}", self.variant.name()));
        self.out.line(format!("Fen: {}", self.session.fen()));
        self.out.line(format!("Key: {:016x}", self.session.hash()));
        self.out.line(format!(
            "Side to move: {}",
            side_name(self.variant, self.session.side_to_move())
        ));
        let state = match self.session.outcome() {
            Outcome::Ongoing => "ongoing".to_string(),
            Outcome::Decided {
                winner: None,
                reason,
            } => format!("draw ({reason})"),
            Outcome::Decided {
                winner: Some(w),
                reason,
            } => format!("{} win ({reason})", side_name(self.variant, w)),
        };
        self.out.line(format!("Outcome: {state}"));
    }

    fn eval(&self) {
        let terms = self.session.eval_terms();
        for (name, v) in &terms {
            self.out.line(format!("info string eval {name} {v}"));
        }
        let total: i32 = terms.iter().map(|(_, v)| v).sum();
        self.out.line(format!(
            "info string eval total {total} (centipawns, {} to move)",
            side_name(self.variant, self.session.side_to_move())
        ));
    }

    fn perft(&self, args: &[&str]) {
        if self.searching() {
            return self.error("perft ignored: a search is running (send stop first)");
        }
        let depth = match args.first().map(|t| t.parse::<u32>()) {
            Some(Ok(d)) if (1..=MAX_PERFT_DEPTH).contains(&d) => d,
            _ => {
                return self.error(format!(
                    "perft: expected a depth in 1..={MAX_PERFT_DEPTH}, e.g. 'perft 4'"
                ));
            }
        };
        let start = Instant::now();
        let mut total = 0;
        for (mv, n) in self.session.divide(depth) {
            self.out.line(format!("{mv}: {n}"));
            total += n;
        }
        let ms = start.elapsed().as_millis() as u64;
        self.out.line("");
        self.out.line(format!("Nodes searched: {total}"));
        self.out.line(format!(
            "info string perft time {ms} ms, {} nps",
            total * 1000 / ms.max(1)
        ));
    }

    fn bench(&self, args: &[&str]) {
        if self.searching() {
            return self.error("bench ignored: a search is running (send stop first)");
        }
        let depth = match args.first().map(|t| t.parse::<u32>()) {
            None => crate::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if (1..=30).contains(&d) => d,
            Some(_) => return self.error("bench: expected a depth in 1..=30"),
        };
        let result = crate::bench::run(depth, 1, |variant, fen, nodes| {
            self.out
                .line(format!("info string bench {variant} {fen}: {nodes} nodes"))
        });
        self.out
            .line(format!("{} nodes {} nps", result.nodes, result.nps()));
    }
}

const MAX_MULTIPV: u64 = 64;
/// Every option `setoption` knows, lower case.
const OPTION_NAMES: [&str; 7] = [
    "uci_variant",
    "hash",
    "threads",
    "multipv",
    "move overhead",
    "skill level",
    "clear hash",
];
const MAX_PERFT_DEPTH: u32 = 12;

fn truncate(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max_chars).collect();
        t.push('…');
        t
    }
}

/// The side's name in `variant`: `attackers`/`defenders` or `x`/`o`.
pub fn side_name(variant: Variant, side: Side) -> &'static str {
    variant.side_name(side)
}

/// Formats a report as a UCI `info` line.
pub fn info_line(r: &TextReport) -> String {
    let score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {}",
        r.depth, r.seldepth, r.multipv, r.nodes, r.nps, r.hashfull, r.time_ms
    );
    if !r.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&r.pv.join(" "));
    }
    line
}

/// Parses the arguments of `go`. `btime`/`binc` are the first player's clock (tafl attackers,
/// Ataxx `x`), `wtime`/`winc` the second's. Unknown words and bad numbers are errors.
pub fn parse_go(args: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i].to_ascii_lowercase();
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
            "depth" => limits.depth = Some(number()?.clamp(1, 1000) as u32),
            // python-ataxx sends `go nodes N simulations N` (the second for MCTS engines).
            "nodes" | "simulations" => limits.nodes = Some(number()?.max(1)),
            "movetime" => limits.movetime = Some(number()?),
            "btime" => clock.time[0] = Some(number()?),
            "wtime" => clock.time[1] = Some(number()?),
            "binc" => clock.inc[0] = number()?,
            "winc" => clock.inc[1] = number()?,
            "movestogo" => clock.moves_to_go = Some(number()?.clamp(1, 1000) as u32),
            "infinite" => limits.infinite = true,
            "ponder" => {}
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
    fn go_reads_negative_numbers_as_zero_and_simulations_as_nodes() {
        let l = parse_go(&["wtime", "-25", "btime", "-1", "depth", "-3"]).unwrap();
        assert_eq!(l.clock.time, [Some(0), Some(0)]);
        assert_eq!(l.depth, Some(1));
        let l = parse_go(&["nodes", "500", "simulations", "500"]).unwrap();
        assert_eq!(l.nodes, Some(500));
        assert!(parse_go(&["mate", "3"]).is_err());
        assert!(parse_go(&["searchmoves", "d2-f2"]).is_err());
    }
}
