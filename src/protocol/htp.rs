//! The Hnefatafl Text Protocol (HTP), spoken by `skald htp`: the protocol of hnefatafl.org's
//! engine `hnefatafl-text-protocol` (the hnefatafl-copenhagen project, protocol version
//! `1-beta`), for Copenhagen Hnefatafl on 11×11 and 13×13 boards.
//!
//! GTP-style: one command a line (text after `#` is a comment; empty lines get no answer), each
//! answered by `= <result>` or `? <error>` and a blank line. Roles are `attacker`/`defender`
//! (`a`/`d`, any case); squares are a file letter and a rank number from the bottom-left corner
//! (`a1`), written lower case on 11×11 and upper case on 13×13 (read in either case). The exact
//! form of every command is in protocol.md ("HTP").
//!
//! This module only parses and formats: the game, the rules and the search are
//! [`crate::engine::Engine`]'s. `generate_move` searches under the limits given on the command
//! line ([`Settings`]) or budgets a move from the `time_settings` clocks.

use super::Output;
use crate::engine::Engine;
use crate::engine::session::MoveError;
use crate::game::{Outcome, Side};
use crate::search::{Clock, Limits};
use crate::variant::Variant;
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// The protocol version `protocol_version` answers (hnefatafl-copenhagen's `1-beta`).
pub const PROTOCOL_VERSION: &str = "1-beta";

/// The commands skald's HTP knows, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 16] = [
    "board_size",
    "final_status",
    "first_move",
    "generate_move",
    "known_command",
    "list_commands",
    "name",
    "play",
    "play_from",
    "play_to",
    "play_undo",
    "protocol_version",
    "quit",
    "show_board",
    "time_settings",
    "version",
];

/// The thinking time per move when the game is un-timed and no depth, node or time limit was
/// given on the command line, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 2000;

/// How `generate_move` bounds its search (the `skald htp` command line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Search at most this many plies (with or without a clock).
    pub depth: Option<u32>,
    /// Search at most this many nodes (with or without a clock).
    pub nodes: Option<u64>,
    /// Think this long per move in an un-timed game, ms (default [`DEFAULT_MOVETIME_MS`] when
    /// neither `depth` nor `nodes` is set). A game under `time_settings fischer` budgets from
    /// its clocks instead.
    pub movetime: Option<u64>,
}

/// What the command loop should do after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// Exit (after `quit`).
    Quit,
}

/// The game's time control (`time_settings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TimeControl {
    /// No clocks (`time_settings un-timed`, the default).
    Untimed,
    /// Fischer: `start_ms` each, `inc_ms` added after each move.
    Fischer { start_ms: u64, inc_ms: u64 },
}

/// The HTP front-end: reads commands, drives an [`Engine`] playing Copenhagen, writes answers.
pub struct Htp {
    out: Output,
    engine: Engine,
    settings: Settings,
    /// 11 or 13.
    size: u8,
    time: TimeControl,
    /// Time left per side (ms, may run below zero) under a Fischer control.
    clocks: [i64; 2],
    /// When the side to move's turn began (the last move, or the start of the game).
    turn_started: Instant,
    /// A side that resigned (`play ROLE resigns`): the game is over, the other side won.
    resigned: Option<Side>,
}

/// The side an HTP role names: `attacker`/`a` or `defender`/`d`, any case.
fn parse_role(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "a" | "attacker" => Ok(Side::First),
        "d" | "defender" => Ok(Side::Second),
        _ => Err(format!(
            "'{}' is not a role (attacker, defender, a or d)",
            text.escape_default()
        )),
    }
}

/// The HTP role name of `side`.
pub fn role_name(side: Side) -> &'static str {
    match side {
        Side::First => "attacker",
        Side::Second => "defender",
    }
}

impl Htp {
    /// A new front-end writing to `out`, over `engine` (set to Copenhagen 11×11 here).
    pub fn new(out: Output, mut engine: Engine, settings: Settings) -> Htp {
        engine.set_variant(Variant::Copenhagen);
        Htp {
            out,
            engine,
            settings,
            size: 11,
            time: TimeControl::Untimed,
            clocks: [0; 2],
            turn_started: Instant::now(),
            resigned: None,
        }
    }

    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(&mut self, input: &mut dyn BufRead) {
        super::read_commands(input, |line| match line {
            Ok(line) => self.handle_line(line) == Flow::Quit,
            Err(message) => {
                self.answer(Err(message));
                false
            }
        });
    }

    /// Handles one command line and writes its answer. Never panics: an internal fault is
    /// answered as an error and the game is kept.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let text = line.split('#').next().unwrap_or("");
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.is_empty() {
            return Flow::Continue;
        }
        match catch_unwind(AssertUnwindSafe(|| self.dispatch(&tokens))) {
            Ok((answer, flow)) => {
                self.answer(answer);
                flow
            }
            Err(_) => {
                self.answer(Err(
                    "internal error while handling the command; game kept".into()
                ));
                Flow::Continue
            }
        }
    }

    /// Writes `= result` or `? error`, then a blank line, in one write.
    fn answer(&self, answer: Result<String, String>) {
        let text = match answer {
            Ok(s) => format!("= {s}\n"),
            Err(e) => format!("? {}\n", e.replace(['\n', '\r'], " ")),
        };
        self.out.line(text);
    }

    fn dispatch(&mut self, tokens: &[&str]) -> (Result<String, String>, Flow) {
        let args = &tokens[1..];
        let answer = match tokens[0] {
            "protocol_version" => Ok(PROTOCOL_VERSION.to_string()),
            "name" => Ok("skald".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => match args.first() {
                Some(c) => Ok(COMMANDS.contains(c).to_string()),
                None => Err("expected: known_command COMMAND".to_string()),
            },
            "list_commands" => Ok(format!("\n{}", COMMANDS.join("\n"))),
            "board_size" => self.board_size(args),
            "first_move" => self.first_move(args),
            "time_settings" => self.time_settings(args),
            "play" => self.play(args),
            "generate_move" => self.generate_move(args),
            "play_undo" => self.play_undo(),
            "play_from" => self.play_from(),
            "play_to" => self.play_to(args),
            "final_status" => Ok(self.final_status().to_string()),
            "show_board" => Ok(format!("\n{}", self.engine.session().board().trim_end())),
            "quit" => return (Ok(String::new()), Flow::Quit),
            other => Err(format!(
                "unrecognized command: {}",
                crate::engine::options::truncate(other, 40).escape_debug()
            )),
        };
        (answer, Flow::Continue)
    }

    /// A new game on the current board size and time control.
    fn new_game(&mut self) {
        let variant = self.variant_for(self.size).unwrap_or(Variant::Copenhagen);
        self.engine.set_variant(variant);
        self.resigned = None;
        let start = match self.time {
            TimeControl::Untimed => 0,
            TimeControl::Fischer { start_ms, .. } => start_ms.min(i64::MAX as u64) as i64,
        };
        self.clocks = [start; 2];
        self.turn_started = Instant::now();
    }

    /// The variant for a board size: `copenhagen` (11) or `copenhagen13` (13, once it exists).
    fn variant_for(&self, size: u8) -> Result<Variant, String> {
        match size {
            11 => Ok(Variant::Copenhagen),
            _ => "copenhagen13".parse::<Variant>().map_err(|_| {
                "board_size: 13×13 is not supported yet (this build plays Copenhagen on 11×11)"
                    .to_string()
            }),
        }
    }

    fn board_size(&mut self, args: &[&str]) -> Result<String, String> {
        let arg = args
            .first()
            .ok_or("expected: board_size 11 or board_size 13")?;
        let size = match *arg {
            "11" => 11,
            "13" => 13,
            other => {
                return Err(format!(
                    "board_size: expected 11 or 13, got {}",
                    crate::engine::options::truncate(other, 20).escape_debug()
                ));
            }
        };
        self.variant_for(size)?;
        self.size = size;
        self.new_game();
        Ok(String::new())
    }

    fn first_move(&mut self, args: &[&str]) -> Result<String, String> {
        let side = parse_role(args.first().ok_or("expected: first_move ROLE")?)?;
        self.new_game();
        self.engine.session_mut().set_side_to_move(side);
        Ok(String::new())
    }

    fn time_settings(&mut self, args: &[&str]) -> Result<String, String> {
        const USAGE: &str = "time_settings: expected 'time_settings un-timed' or 'time_settings fischer MINUTES ADD_SECONDS'";
        let time = match args {
            ["un-timed", ..] => TimeControl::Untimed,
            ["fischer", minutes, add_seconds, ..] => {
                let minutes: u64 = minutes
                    .parse()
                    .map_err(|_| "time_settings: MINUTES is not a whole number of 0 or more")?;
                let add: u64 = add_seconds
                    .parse()
                    .map_err(|_| "time_settings: ADD_SECONDS is not a whole number of 0 or more")?;
                TimeControl::Fischer {
                    start_ms: minutes.saturating_mul(60_000),
                    inc_ms: add.saturating_mul(1000),
                }
            }
            _ => return Err(USAGE.to_string()),
        };
        self.time = time;
        self.new_game();
        Ok(String::new())
    }

    /// The board square `row`, `col` (row 0 is the top rank) as HTP writes it.
    fn square_text(&self, row: usize, col: usize) -> String {
        let size = self.size as usize;
        let letter = (b'a' + col as u8) as char;
        let letter = if size == 13 {
            letter.to_ascii_uppercase()
        } else {
            letter
        };
        format!("{letter}{}", size - row)
    }

    /// skald's name of an HTP square (`a1`..`k11`, `A1`..`M13`, any case).
    fn parse_square(&self, text: &str) -> Result<String, String> {
        let lower = text.to_ascii_lowercase();
        let bad = || {
            format!(
                "play: '{}' is not a square of the {n}×{n} board",
                crate::engine::options::truncate(text, 20).escape_debug(),
                n = self.size
            )
        };
        let mut chars = lower.chars();
        let file = chars.next().ok_or_else(bad)?;
        let rank: u32 = chars.as_str().parse().map_err(|_| bad())?;
        if !file.is_ascii_lowercase()
            || (file as u32 - 'a' as u32) >= self.size as u32
            || rank == 0
            || rank > self.size as u32
        {
            return Err(bad());
        }
        Ok(lower)
    }

    /// skald's `from-to` move text as HTP squares `FROM TO`.
    fn move_text(&self, mv: &str) -> String {
        let size = self.size;
        mv.split('-')
            .map(|sq| {
                if size == 13 {
                    sq.to_ascii_uppercase()
                } else {
                    sq.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn game_over(&self) -> bool {
        self.resigned.is_some() || self.engine.session().outcome().is_decided()
    }

    /// Charges the time since the turn began to the mover's clock and adds the increment.
    fn charge_clock(&mut self, mover: Side) {
        if let TimeControl::Fischer { inc_ms, .. } = self.time {
            let spent = self
                .turn_started
                .elapsed()
                .as_millis()
                .min(i64::MAX as u128) as i64;
            let c = &mut self.clocks[mover.index()];
            *c = c.saturating_sub(spent).saturating_add(inc_ms as i64);
        }
        self.turn_started = Instant::now();
    }

    /// Plays skald's move text `mv` for the side to move and returns the captured squares, in
    /// board order, each followed by a space (hnefatafl-copenhagen's form).
    fn play_move(&mut self, mv: &str) -> Result<String, String> {
        let mover = self.engine.session().side_to_move();
        let before = self.engine.session().board_rows();
        let from_to: Vec<&str> = mv.split('-').collect();
        self.engine.session_mut().play(mv).map_err(|e| match e {
            MoveError::GameOver(_) => "play: the game is already over".to_string(),
            MoveError::Illegal(e) => format!("play: {e}"),
        })?;
        self.charge_clock(mover);
        let after = self.engine.session().board_rows();
        let king_captured = matches!(
            self.engine.session().outcome(),
            Outcome::Decided {
                reason: crate::game::Reason::KingCaptured,
                ..
            }
        );
        let mut captures = String::new();
        for (r, (row_b, row_a)) in before.iter().zip(&after).enumerate() {
            for (c, (b, a)) in row_b.iter().zip(row_a).enumerate() {
                let sq = self.square_text(r, c);
                let name = sq.to_ascii_lowercase();
                let vanished = b.is_some() && a.is_none() && name != from_to[0];
                // A captured king may stay on the board in skald's position: list it anyway.
                let king = king_captured && *b == Some('K');
                if vanished || king {
                    captures.push_str(&sq);
                    captures.push(' ');
                }
            }
        }
        Ok(captures)
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        const USAGE: &str = "expected: 'play ROLE FROM TO' or 'play ROLE resign'";
        let role = parse_role(args.first().ok_or(USAGE)?)?;
        let second = args.get(1).ok_or(USAGE)?;
        if self.game_over() {
            return Err("play: the game is already over".to_string());
        }
        let to_move = self.engine.session().side_to_move();
        if second.eq_ignore_ascii_case("resign") || second.eq_ignore_ascii_case("resigns") {
            if role != to_move {
                return Err("play: you can't resign for the other player".to_string());
            }
            self.resigned = Some(role);
            return Ok(String::new());
        }
        let to = args.get(2).ok_or(USAGE)?;
        let from = self.parse_square(second)?;
        let to = self.parse_square(to)?;
        if role != to_move {
            return Err(format!(
                "play: it isn't your turn ({} to move)",
                role_name(to_move)
            ));
        }
        let mv = format!("{from}-{to}");
        if self.forbidden_repetition(&mv) {
            return Err("play: you already reached that position".to_string());
        }
        self.play_move(&mv)
    }

    /// Whether `mv` (legal or not) repeats a position where the rules forbid it (Copenhagen:
    /// the defenders may not repeat a board). skald's session lets such a move through and
    /// scores it as a loss for the mover; HTP, like hnefatafl.org, refuses it as a move.
    fn forbidden_repetition(&self, mv: &str) -> bool {
        let mut after = self.engine.session().boxed_clone();
        let mover = after.side_to_move();
        after.play(mv).is_ok()
            && matches!(
                after.outcome(),
                Outcome::Decided {
                    winner: Some(w),
                    reason: crate::game::Reason::Repetition,
                } if w == mover.opponent()
            )
    }

    /// The limits of a search for `side` to move now.
    fn limits(&self, side: Side) -> Limits {
        let s = self.settings;
        let mut limits = Limits {
            depth: s.depth,
            nodes: s.nodes,
            ..Limits::default()
        };
        match self.time {
            TimeControl::Untimed => {
                limits.movetime = match (s.movetime, s.depth, s.nodes) {
                    (Some(ms), _, _) => Some(ms),
                    (None, None, None) => Some(DEFAULT_MOVETIME_MS),
                    _ => None,
                };
            }
            TimeControl::Fischer { inc_ms, .. } => {
                let spent = self
                    .turn_started
                    .elapsed()
                    .as_millis()
                    .min(i64::MAX as u128) as i64;
                let mut time = [None; 2];
                for s in [Side::First, Side::Second] {
                    let mut left = self.clocks[s.index()];
                    if s == side {
                        left = left.saturating_sub(spent);
                    }
                    time[s.index()] = Some(left.max(1) as u64);
                }
                limits.clock = Clock {
                    time,
                    inc: [inc_ms; 2],
                    moves_to_go: None,
                };
            }
        }
        limits
    }

    fn generate_move(&mut self, args: &[&str]) -> Result<String, String> {
        if self.game_over() {
            return Err("generate_move: the game is already over".to_string());
        }
        let side = self.engine.session().side_to_move();
        if let Some(role) = args.first() {
            let role = parse_role(role)?;
            if role != side {
                return Err(format!(
                    "generate_move: it is the {}'s turn, not the {}'s",
                    role_name(side),
                    role_name(role)
                ));
            }
        }
        let limits = self.limits(side);
        // A fault in the search is reported on standard error, and its fallback move played.
        let best = match self.engine.search(&limits, &mut |_| {}) {
            Ok(result) => result.best_move,
            Err(e) => {
                eprintln!("skald htp: {e}; playing {:?}", e.fallback);
                e.fallback
            }
        };
        let mv = best
            .or_else(|| self.engine.session().legal_moves().into_iter().next())
            .ok_or("generate_move: no legal move")?;
        self.play_move(&mv)?;
        Ok(format!("play {} {}", role_name(side), self.move_text(&mv)))
    }

    fn play_undo(&mut self) -> Result<String, String> {
        if self.resigned.take().is_some() {
            return Ok(String::new());
        }
        if self.engine.session_mut().undo() {
            self.turn_started = Instant::now();
            Ok(String::new())
        } else {
            Err("play undo: it is the first move".to_string())
        }
    }

    /// The legal moves of the side to move, as (from, to) in HTP squares.
    fn legal_moves(&self) -> Vec<(String, String)> {
        if self.game_over() {
            return Vec::new();
        }
        self.engine
            .session()
            .legal_moves()
            .iter()
            .filter(|m| !self.forbidden_repetition(m))
            .filter_map(|m| {
                let t = self.move_text(m);
                let (a, b) = t.split_once(' ')?;
                Some((a.to_string(), b.to_string()))
            })
            .collect()
    }

    fn play_from(&self) -> Result<String, String> {
        if self.game_over() {
            return Err("play: the game is already over".to_string());
        }
        let mut froms: Vec<String> = Vec::new();
        for (from, _) in self.legal_moves() {
            if !froms.contains(&from) {
                froms.push(from);
            }
        }
        let side = self.engine.session().side_to_move();
        Ok(format!("{} {}", role_name(side), froms.join(" ")))
    }

    fn play_to(&self, args: &[&str]) -> Result<String, String> {
        let (Some(role), Some(from)) = (args.first(), args.get(1)) else {
            return Err("play to: expected 'play_to role vertex'".to_string());
        };
        let role = parse_role(role)?;
        let from = self.parse_square(from)?;
        if self.game_over() {
            return Err("play: the game is already over".to_string());
        }
        if role != self.engine.session().side_to_move() {
            return Err("play: it isn't your turn".to_string());
        }
        let from = self.move_text(&from);
        let tos: Vec<String> = self
            .legal_moves()
            .into_iter()
            .filter(|(f, _)| *f == from)
            .map(|(_, t)| t)
            .collect();
        if tos.is_empty() {
            return Err(format!("play: no legal move from {from}"));
        }
        Ok(tos.join(" "))
    }

    /// `attacker_wins`, `defender_wins`, `draw` or `ongoing`.
    fn final_status(&self) -> &'static str {
        if let Some(side) = self.resigned {
            return match side.opponent() {
                Side::First => "attacker_wins",
                Side::Second => "defender_wins",
            };
        }
        match self.engine.session().outcome() {
            Outcome::Ongoing => "ongoing",
            Outcome::Decided { winner: None, .. } => "draw",
            Outcome::Decided {
                winner: Some(Side::First),
                ..
            } => "attacker_wins",
            Outcome::Decided {
                winner: Some(Side::Second),
                ..
            } => "defender_wins",
        }
    }
}

/// Runs `skald htp`: reads HTP commands from `input`, answers on `out`, until `quit` or end of
/// input.
pub fn run(input: &mut dyn BufRead, out: Output, engine: Engine, settings: Settings) {
    Htp::new(out, engine, settings).run(input);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(input: &str, settings: Settings) -> String {
        let (out, buf) = Output::captured();
        run(&mut input.as_bytes(), out, Engine::new().unwrap(), settings);
        buf.take()
    }

    #[test]
    fn a_capture_is_answered() {
        let t = transcript(
            "play a a4 e4\nplay d e7 e9\nplay a k4 g4\n",
            Settings::default(),
        );
        assert_eq!(t, "= \n\n= \n\n= f4 \n\n");
    }

    #[test]
    fn generate_move_answers_a_play() {
        let s = Settings {
            depth: Some(1),
            ..Settings::default()
        };
        let t = transcript("generate_move\ngenerate_move defender\n", s);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("= play attacker "), "{t}");
        assert_eq!(lines[1], "");
        assert!(lines[2].starts_with("= play defender "), "{t}");
    }
}
