//! The OpenTafl Engine Protocol (OTEP), spoken by `skald opentafl`.
//!
//! The host (OpenTafl) sends `rules <rules string>` first; skald parses it into a
//! [`crate::tafl::RuleOptions`] ([`crate::tafl::opentafl`]) and plays the game the
//! engine makes of them ([`crate::engine::new_tafl_session`], on the bitboard the board size
//! needs, up to 19×19).
//! Each turn OpenTafl 0.4.8 sends `opponent-move …`, `clock …`, `play <side>`; skald answers
//! `move <from>-<to>`, and the host confirms with `move <position record>`. While it searches
//! skald sends `status` lines (depth, score, principal variation; see [`Progress`]). Every bad
//! input gets `error 0 <message>` (skald goes on); logs go to stderr. `analyze` runs on the
//! engine's search thread ([`crate::engine::Engine::start`]) beside the command loop, which
//! answers `status` meanwhile; `goodbye` cancels it at once (no `analysis` line follows).
//!
//! Rules skald cannot play are refused late: OpenTafl 0.4.8 sends `rules` while it builds the game
//! screen, and any `status` or `error` line that arrives before the screen exists kills it (its
//! host shows them through the game's UI callback, still null then: a NullPointerException, and
//! its uncaught-exception handler exits). So skald answers such `rules` with nothing and gives the
//! reason when the game needs it: at `play` as `status` and `error -1 <reason>` (OpenTafl shows the
//! message in an "Engine error!" dialog and ends the game by resignation), at `analyze` as `status`
//! and `error 0 <reason>` (the dialog only: an analysis engine's resignation would end the
//! player's game).

use super::Output;
use crate::engine::session::Session;
use crate::engine::{
    Answer, Engine, Finished, Limits, MoveView, Score, SearchHandle, SearchRequest, Side,
    new_tafl_session, options,
};
use crate::tafl::{RuleOptions, opentafl as notation};
use std::io::BufRead;

/// The `clock` line: milliseconds left per side (attackers, defenders), whether each side is in
/// overtime, the overtime period length, and the periods left per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OtClock {
    /// Time left, ms (in overtime: what is left of the current period).
    pub ms: [u64; 2],
    /// The side is in overtime (`*`).
    pub overtime_now: [bool; 2],
    /// Length of one overtime period, ms.
    pub overtime_ms: u64,
    /// Overtime periods left.
    pub overtimes: [u32; 2],
}

impl OtClock {
    /// Parses the arguments of `clock` (`<att-ms>[*] <def-ms>[*] <ot-s> <att-ot> <def-ot>`).
    pub fn parse(args: &[&str]) -> Result<OtClock, String> {
        if args.len() != 5 {
            return Err(format!(
                "clock needs 5 fields (<att-ms>[*] <def-ms>[*] <overtime-s> <att-overtimes> \
                 <def-overtimes>), got {}",
                args.len()
            ));
        }
        let num = |s: &str| -> Result<u64, String> {
            s.parse::<u64>()
                .map_err(|_| format!("clock field '{}' is not a number", s.escape_default()))
        };
        let timed = |s: &str| -> Result<(u64, bool), String> {
            match s.strip_suffix('*') {
                Some(t) => Ok((num(t)?, true)),
                None => Ok((num(s)?, false)),
            }
        };
        let (a, a_ot) = timed(args[0])?;
        let (d, d_ot) = timed(args[1])?;
        Ok(OtClock {
            ms: [a, d],
            overtime_now: [a_ot, d_ot],
            overtime_ms: num(args[2])?.saturating_mul(1000),
            overtimes: [
                num(args[3])?.min(u32::MAX as u64) as u32,
                num(args[4])?.min(u32::MAX as u64) as u32,
            ],
        })
    }

    /// Milliseconds to spend on this move for `side`. Any clock values are safe (the arithmetic
    /// saturates).
    pub fn budget_ms(&self, side: Side) -> u64 {
        let i = side.index();
        let left = self.ms[i];
        let spare_periods = self.overtimes[i] > 0 && self.overtime_ms > 0;
        let six_tenths = |ms: u64| ms / 10 * 6 + ms % 10 * 6 / 10;
        let raw = if self.overtime_now[i] || left == 0 {
            // In overtime: spend part of what is left of this period.
            let period = if left > 0 { left } else { self.overtime_ms };
            six_tenths(period)
        } else {
            let ot = if spare_periods {
                six_tenths(self.overtime_ms)
            } else {
                0
            };
            (left / 30)
                .saturating_add(ot)
                .min((left / 2).saturating_add(ot))
        };
        raw.saturating_sub(50).max(10)
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "attackers",
        Side::Second => "defenders",
    }
}

fn parse_side(text: Option<&str>) -> Result<Side, String> {
    match text {
        Some("attackers") => Ok(Side::First),
        Some("defenders") => Ok(Side::Second),
        Some(t) => Err(format!(
            "'{}' is not a side (attackers or defenders)",
            t.escape_default()
        )),
        None => Err("a side (attackers or defenders) is missing".into()),
    }
}

/// At most one progress `status` line per this many milliseconds of a search.
pub const STATUS_INTERVAL_MS: u64 = 250;

/// The `status` lines of one search, as OpenTafl's own engine reports each completed depth
/// (`Depth N explored …`): a line for a completed depth of the best line when at least
/// [`STATUS_INTERVAL_MS`] have passed since the search started and since the previous line (so a
/// few a second at most, none for the first quick depths), and a final line for the result.
#[derive(Debug, Default)]
pub struct Progress {
    last_ms: u64,
}

impl Progress {
    /// `true` when a line for a depth completed at `time_ms` (since the search started) is due;
    /// if so, it counts as sent.
    pub fn due(&mut self, time_ms: u64) -> bool {
        if time_ms >= self.last_ms + STATUS_INTERVAL_MS {
            self.last_ms = time_ms;
            true
        } else {
            false
        }
    }

    /// The text of a `status` line: `status skald depth 9 score +35 nodes 81234 time 0.50s pv
    /// d1-d3 e5-e3 …` (score in centipawns for the side to move, or `win in N` / `loss in N`
    /// moves; the principal variation cut to 10 moves).
    pub fn line(depth: u32, score: Score, nodes: u64, time_ms: u64, pv: &[MoveView]) -> String {
        let score = match score {
            Score::Cp(cp) => format!("{cp:+}"),
            Score::Mate(n) if n > 0 => format!("win in {n}"),
            Score::Mate(n) => format!("loss in {}", -n),
        };
        let mut pv_text = pv
            .iter()
            .take(10)
            .map(MoveView::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        if pv.len() > 10 {
            pv_text.push_str(" ...");
        }
        format!(
            "status skald depth {depth} score {score} nodes {nodes} time {}.{:02}s pv {pv_text}",
            time_ms / 1000,
            time_ms % 1000 / 10
        )
        .trim_end()
        .to_string()
    }

    /// The final line of a search, for its result.
    pub fn result_line(result: &Answer, time_ms: u64) -> String {
        Progress::line(
            result.depth,
            result.score,
            result.nodes,
            time_ms,
            result.pv(),
        )
    }
}

/// The front-end's state between commands.
struct Otep {
    out: Output,
    /// The engine; its session is the game once `rules` has arrived (`has_game`).
    engine: Engine,
    has_game: bool,
    /// The last rules string and the options it gave (rules are built once per string).
    rules_text: String,
    options: Option<RuleOptions>,
    clock: Option<OtClock>,
    /// The side skald played its last move for, while the host has not confirmed it.
    pending: Option<Side>,
    /// Moves the host rejected (`error`), as (position hash, move).
    rejected: Vec<(u64, MoveView)>,
    /// The analysis running (`analyze`), if any: `goodbye` cancels it at once.
    analysis: Option<SearchHandle>,
    errors_in_a_row: u32,
    /// Why the last rules string cannot be played, told the host at `play` or `analyze`.
    refused: Option<String>,
}

impl Otep {
    fn error(&self, critical: bool, msg: &str) {
        let code = if critical { -1 } else { 0 };
        let msg = msg.replace(['\n', '\r'], " ");
        eprintln!("skald opentafl: error {code} {msg}");
        self.out.line(format!("error {code} {msg}"));
    }

    fn game(&mut self) -> Result<&mut dyn Session, String> {
        if !self.has_game {
            return Err("no rules yet: send rules <rules string> first".to_string());
        }
        Ok(self.engine.session_mut())
    }

    /// The game, if the rules have arrived.
    fn current(&self) -> Option<&dyn Session> {
        self.has_game.then(|| self.engine.session())
    }

    fn size(&self) -> u8 {
        self.options.as_ref().map_or(0, |o| o.size)
    }

    /// The current board as a position record.
    fn record(&self) -> Option<String> {
        self.current().map(|g| notation::fen_to_record(&g.fen()))
    }

    /// Sets the board from a position record with `side` to move (history is lost).
    fn set_record(&mut self, record: &str, side: Side) -> Result<(), String> {
        let board = notation::record_to_board(record, self.size(), false)?;
        self.game()?
            .set_board(&board, side)
            .map_err(|e| e.to_string())
    }

    /// Sets the side to move, keeping the board.
    fn set_side(&mut self, side: Side) -> Result<(), String> {
        self.game()?.set_side_to_move(side);
        Ok(())
    }

    /// Runs one command; `Ok(false)` on `goodbye`.
    fn command(&mut self, line: &str) -> Result<bool, (bool, String)> {
        let soft = |e: String| (false, e);
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let args: Vec<&str> = rest.split_whitespace().collect();
        if let Some(reason) = self.refused.clone() {
            match cmd {
                "rules" | "goodbye" => {}
                "play" | "analyze" => {
                    self.out.line(format!("status {reason}"));
                    return Err((cmd == "play", reason));
                }
                "status" => {
                    self.out.line(format!("status {reason}"));
                    return Ok(true);
                }
                _ => {
                    eprintln!("skald opentafl: rules refused; ignoring {cmd}");
                    return Ok(true);
                }
            }
        }
        match cmd {
            "" => {}
            "rules" => {
                if rest.is_empty() {
                    return Err(soft("rules needs a rules string".into()));
                }
                self.has_game = false;
                self.pending = None;
                self.rejected.clear();
                self.refused = None;
                let loaded = match self.options.clone() {
                    Some(o) if rest == self.rules_text => {
                        new_tafl_session(o.clone()).map(|g| (o, g))
                    }
                    _ => {
                        self.options = None;
                        self.rules_text = rest.to_string();
                        notation::parse_rules(rest).and_then(|options| {
                            let game = new_tafl_session(options.clone())
                                .map_err(|e| format!("rules cannot be played: {e}"))?;
                            Ok((options, game))
                        })
                    }
                };
                match loaded {
                    Ok((options, game)) => {
                        self.options = Some(options);
                        self.engine.set_session(game);
                    }
                    Err(e) => {
                        // Nothing to the host yet: it may not have a game screen (module doc).
                        let e = e.trim_end_matches("; skald cannot play these");
                        let reason = format!("skald cannot play these rules: {e}");
                        eprintln!("skald opentafl: {reason}");
                        self.refused = Some(reason.replace(['\n', '\r'], " "));
                        return Ok(true);
                    }
                }
                self.has_game = true;
                self.engine.clear_tables();
                let name = self.engine.session().rules_name();
                eprintln!("skald opentafl: rules {name}");
            }
            "position" => {
                if args.is_empty() {
                    let r = self.record().ok_or_else(|| soft("no rules yet".into()))?;
                    self.out.line(format!("position {r}"));
                    return Ok(true);
                }
                let side = self.game().map_err(soft)?.side_to_move();
                self.set_record(args[0], side)
                    .map_err(|e| soft(format!("position: {e}")))?;
                self.pending = None;
            }
            "side" => {
                if args.is_empty() {
                    let side = self.game().map_err(soft)?.side_to_move();
                    self.out.line(format!("side {}", side_name(side)));
                    return Ok(true);
                }
                let side = parse_side(args.first().copied()).map_err(soft)?;
                self.set_side(side).map_err(soft)?;
            }
            "clock" => {
                self.clock = Some(OtClock::parse(&args).map_err(soft)?);
            }
            "opponent-move" => self.opponent_move(&args).map_err(soft)?,
            "move" => self.move_confirmed(&args).map_err(soft)?,
            "play" => {
                let side = parse_side(args.first().copied()).map_err(soft)?;
                self.play(side).map_err(soft)?;
            }
            "error" => {
                // The host rejected our move: take it back and do not play it again here.
                let code = args.first().copied().unwrap_or("?");
                eprintln!("skald opentafl: host reports error {code}");
                if self.pending.take().is_some()
                    && let Ok(g) = self.game()
                    && let Some(last) = g.last_move()
                    && g.undo()
                {
                    let hash = g.hash();
                    self.rejected.push((hash, last));
                }
                self.errors_in_a_row += 1;
                if self.errors_in_a_row >= 5 {
                    return Err((
                        true,
                        "the host rejected five moves in a row; the rules differ".into(),
                    ));
                }
            }
            "analyze" => self.analyze(&args).map_err(soft)?,
            "finish" => {
                self.pending = None;
                self.rejected.clear();
                eprintln!("skald opentafl: game over ({rest})");
            }
            "status" => {
                let text = match self.current() {
                    Some(g) => format!(
                        "skald: {} {} to move, {}",
                        g.rules_name(),
                        side_name(g.side_to_move()),
                        notation::fen_to_record(&g.fen())
                    ),
                    None => "skald: waiting for rules".into(),
                };
                self.out.line(format!("status {text}"));
            }
            "simple-moves" | "hello" => {}
            "goodbye" => {
                // An analysis under way ends now, without its answer: the host has gone.
                if let Some(analysis) = self.analysis.take() {
                    analysis.cancel();
                }
                return Ok(false);
            }
            _ => {
                return Err(soft(format!(
                    "unknown command '{}'",
                    crate::text::truncate(cmd, 40).escape_default()
                )));
            }
        }
        Ok(true)
    }

    fn opponent_move(&mut self, args: &[&str]) -> Result<(), String> {
        let moves = *args
            .first()
            .ok_or("opponent-move needs a move and a position record")?;
        let record = args.get(1).copied();
        self.game()?;
        self.pending = None;
        // The error sequence repeats the previous move: nothing to do when the board already
        // is the record.
        if let Some(r) = record
            && self.record().as_deref() == Some(r)
        {
            return Ok(());
        }
        let before = self.current().map(|g| g.boxed_clone());
        let mut problem = None;
        if moves != "---" {
            for mv in moves.split('|') {
                let applied = notation::parse_move(mv).and_then(|m| {
                    self.game()?
                        .play_text(&m)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                });
                if let Err(e) = applied {
                    problem = Some(format!("opponent move '{mv}': {e}"));
                    break;
                }
            }
        }
        match record {
            Some(r) => {
                if problem.is_some() || self.record().as_deref() != Some(r) {
                    // Trust the record. The side to move is the one not owning the piece that
                    // arrived on the last move's destination, else the other side than before.
                    let mover = self.mover_from_record(moves, r);
                    let prev = before.as_ref().map(|g| g.side_to_move());
                    let side = match (mover, prev) {
                        (Some(m), _) => m.opponent(),
                        (None, Some(p)) => p.opponent(),
                        (None, None) => Side::First,
                    };
                    if let Some(b) = before {
                        self.engine.set_session(b);
                    }
                    self.set_record(r, side)
                        .map_err(|e| format!("opponent-move record: {e}"))?;
                    if let Some(p) = problem {
                        return Err(format!("{p}; using the position record"));
                    }
                    eprintln!("skald opentafl: board differs from the record; using the record");
                }
                Ok(())
            }
            None => match problem {
                Some(p) => {
                    if let Some(b) = before {
                        self.engine.set_session(b);
                    }
                    self.out.line("position");
                    Err(p)
                }
                None => Ok(()),
            },
        }
    }

    /// The side that owns the piece on the destination of the last of `moves` in `record`.
    fn mover_from_record(&self, moves: &str, record: &str) -> Option<Side> {
        let (_, to) = notation::move_squares(moves.split('|').next_back()?).ok()?;
        let board = notation::record_to_board(record, self.size(), true).ok()?;
        let mut probe = self.current()?.boxed_clone();
        probe.set_board(&board, Side::First).ok()?;
        probe.board().piece(to).map(|p| p.side())
    }

    fn move_confirmed(&mut self, args: &[&str]) -> Result<(), String> {
        let Some(record) = args.first().copied() else {
            return Err("move needs a position record".into());
        };
        let ours = self.pending.take();
        self.errors_in_a_row = 0;
        self.rejected.clear();
        if self.record().as_deref() != Some(record) {
            let side = match ours {
                Some(s) => s.opponent(),
                None => self.game()?.side_to_move(),
            };
            self.set_record(record, side)
                .map_err(|e| format!("move record: {e}"))?;
            eprintln!("skald opentafl: board differs from the host's record; using the record");
        }
        Ok(())
    }

    fn play(&mut self, side: Side) -> Result<(), String> {
        self.set_side(side)?;
        let budget = match &self.clock {
            Some(c) => c.budget_ms(side),
            None => 2000,
        };
        let g = self.game()?;
        if let crate::engine::Outcome::Decided { reason, .. } = g.outcome() {
            return Err(format!("the game is over ({reason})"));
        }
        let hash = g.hash();
        let rejected: Vec<MoveView> = self
            .rejected
            .iter()
            .filter(|(h, _)| *h == hash)
            .map(|&(_, m)| m)
            .collect();
        let limits = Limits {
            movetime: Some(budget),
            ..Limits::default()
        };
        // One line more than the moves the host refused here, so that one is left to play; the
        // engine's own options are not changed (this search's settings only).
        let request = SearchRequest {
            limits,
            multipv: Some((rejected.len() + 1).min(options::MAX_MULTIPV as usize)),
            move_overhead_ms: Some(0),
            ..SearchRequest::default()
        };
        let out = &self.out;
        let started = std::time::Instant::now();
        let mut progress = Progress::default();
        let found = self.engine.search(request, &mut |r| {
            if r.multipv == 1 && progress.due(r.time_ms) {
                out.line(Progress::line(r.depth, r.score, r.nodes, r.time_ms, &r.pv));
            }
        });
        let mut candidates: Vec<MoveView> = Vec::new();
        match found {
            Ok(result) => {
                out.line(Progress::result_line(
                    &result,
                    started.elapsed().as_millis() as u64,
                ));
                candidates.extend(
                    result
                        .lines
                        .iter()
                        .filter_map(|(_, pv)| pv.first().copied()),
                );
                candidates.extend(result.best_move);
            }
            // A fault in the search: said on standard error, and a legal move still played.
            Err(e) => eprintln!("skald opentafl: {e}; playing a legal move instead"),
        }
        let g = self.engine.session();
        let best = candidates
            .into_iter()
            .find(|m| !rejected.contains(m))
            .or_else(|| g.legal_moves().into_iter().find(|m| !rejected.contains(m)))
            .ok_or("no legal move left to play")?;
        self.game()?.play(best).map_err(|e| e.to_string())?;
        self.pending = Some(side);
        self.out.line(format!("move {best}"));
        Ok(())
    }

    fn analyze(&mut self, args: &[&str]) -> Result<(), String> {
        let count: usize = args
            .first()
            .and_then(|a| a.parse().ok())
            .filter(|&n| n >= 1)
            .ok_or("analyze needs <count> (1 or more) and <seconds>")?;
        let secs: f64 = args
            .get(1)
            .and_then(|a| a.parse().ok())
            .filter(|&s: &f64| s >= 0.0 && s.is_finite())
            .ok_or("analyze needs <count> and <seconds> (a number)")?;
        if !self.has_game {
            return Err("no rules yet".into());
        }
        let limits = Limits {
            movetime: Some(((secs * 1000.0) as u64).clamp(10, 3_600_000)),
            ..Limits::default()
        };
        let request = SearchRequest {
            limits,
            multipv: Some(count.min(options::MAX_MULTIPV as usize)),
            move_overhead_ms: Some(10),
            ..SearchRequest::default()
        };
        // The search runs beside the command loop, so that `goodbye` (or `status`) is read
        // while it runs; its answer is the lines of the last complete depth, best first.
        let report_out = self.out.clone();
        let out = self.out.clone();
        let mut progress = Progress::default();
        let started = std::time::Instant::now();
        let handle = self
            .engine
            .start(
                request,
                move |r| {
                    if r.multipv == 1 && progress.due(r.time_ms) {
                        report_out
                            .line(Progress::line(r.depth, r.score, r.nodes, r.time_ms, &r.pv));
                    }
                },
                move |finished| {
                    let answer = match finished {
                        Finished::Done(answer) => answer,
                        Finished::GameOver(_) => Answer::game_over(),
                        Finished::Failed { .. } => {
                            eprintln!("skald opentafl: error 0 internal error in the search");
                            out.line("error 0 internal error in the search");
                            return;
                        }
                        Finished::Cancelled => return,
                    };
                    let ms = started.elapsed().as_millis() as u64;
                    out.line(Progress::result_line(&answer, ms));
                    out.line(analysis_line(&answer, count));
                },
            )
            .map_err(|e| e.to_string())?;
        self.analysis = Some(handle);
        Ok(())
    }
}

/// The `analysis` line of an answer: `analysis <n>` and, per line (at most `count`), its moves
/// joined by `|` and its evaluation (centipawns, or ±100 000 less the moves to mate).
fn analysis_line(answer: &Answer, count: usize) -> String {
    let mut parts = Vec::new();
    for (score, pv) in answer.lines.iter().take(count) {
        if pv.is_empty() {
            continue;
        }
        let eval = match *score {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        };
        let moves: Vec<String> = pv.iter().map(MoveView::to_string).collect();
        parts.push(format!("{} {eval}", moves.join("|")));
    }
    format!("analysis {} {}", parts.len(), parts.join(" "))
        .trim_end()
        .to_string()
}

/// Runs the OTEP loop on `input` until `goodbye` or end of input.
pub fn run(input: &mut dyn BufRead, out: Output) {
    out.line("hello");
    let engine = match Engine::new().and_then(|mut e| {
        e.set_option("Hash", "64")
            .map_err(|err| std::io::Error::other(err.to_string()))?;
        Ok(e)
    }) {
        Ok(e) => e,
        Err(e) => {
            out.line(format!("error -1 cannot start the engine: {e}"));
            return;
        }
    };
    let mut engine = Otep {
        out,
        engine,
        has_game: false,
        rules_text: String::new(),
        options: None,
        clock: None,
        pending: None,
        rejected: Vec::new(),
        analysis: None,
        errors_in_a_row: 0,
        refused: None,
    };
    // Lines of at most MAX_LINE_BYTES, as in the other engine modes: a longer one is read to its
    // end, dropped, and answered with an error.
    super::read_commands(input, |line| match line {
        // A fault inside a command (a bug) is reported, not the end of the process.
        Ok(line) => {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.command(line))) {
                Ok(Ok(true)) => false,
                Ok(Ok(false)) => true,
                Ok(Err((critical, msg))) => {
                    engine.error(critical, &msg);
                    false
                }
                Err(_) => {
                    engine.error(false, "internal error while handling the command");
                    false
                }
            }
        }
        Err(message) => {
            engine.error(false, &message);
            false
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_lines() {
        let c = OtClock::parse(&["60000", "59000*", "10", "3", "2"]).unwrap();
        assert_eq!(c.ms, [60000, 59000]);
        assert_eq!(c.overtime_now, [false, true]);
        assert_eq!(c.overtime_ms, 10_000);
        assert_eq!(c.overtimes, [3, 2]);
        assert!(c.budget_ms(Side::First) < 60000 / 2 + 6000);
        assert!(c.budget_ms(Side::Second) <= 59000 * 6 / 10);
        assert!(OtClock::parse(&["1", "2", "3"]).is_err());
        // The largest values that parse budget without overflow (debug builds check).
        let max = u64::MAX.to_string();
        for fields in [
            [
                max.as_str(),
                max.as_str(),
                max.as_str(),
                max.as_str(),
                max.as_str(),
            ],
            ["0*", "0", max.as_str(), max.as_str(), "0"],
            [&format!("{max}*"), "1", "0", "0", "0"],
        ] {
            let c = OtClock::parse(&fields).unwrap();
            for side in [Side::First, Side::Second] {
                assert!(c.budget_ms(side) >= 10);
            }
        }
        assert!(OtClock::parse(&["x", "2", "3", "4", "5"]).is_err());
    }

    #[test]
    fn status_lines_are_rationed() {
        let mut p = Progress::default();
        let sent: Vec<u64> = [3, 40, 180, 260, 300, 520, 900, 910, 2000]
            .into_iter()
            .filter(|&t| p.due(t))
            .collect();
        assert_eq!(sent, vec![260, 520, 900, 2000]);
        let pv: Vec<MoveView> = (0..12)
            .map(|i| MoveView::Slide {
                from: crate::engine::Square::new(0, i % 7),
                to: crate::engine::Square::new(1, i % 7),
            })
            .collect();
        let line = Progress::line(9, Score::Cp(35), 81234, 1504, &pv);
        assert!(
            line.starts_with("status skald depth 9 score +35 nodes 81234 time 1.50s pv a1-b1 ")
        );
        assert!(line.ends_with(" ..."), "{line}");
        assert!(Progress::line(3, Score::Mate(-2), 1, 0, &[]).contains("score loss in 2"));
    }
}
