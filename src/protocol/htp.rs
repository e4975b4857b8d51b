//! The Hnefatafl Text Protocol (HTP), spoken by `skald htp`: the protocol of hnefatafl.org's
//! engine `hnefatafl-text-protocol` (the hnefatafl-copenhagen project, 6.4.1, protocol version
//! `1-beta`), for Copenhagen Hnefatafl on its 7×7, 11×11 and 13×13 boards (`board_size`; the
//! 7×7 rules are [`crate::tafl::copenhagen7_rules`]).
//!
//! GTP-style: one command a line (text after `#` is a comment; empty lines get no answer), each
//! answered by `= <result>` or `? <error>` and a blank line. Roles are `attacker`/`defender`
//! (`a`/`d`, any case); squares are a file letter and a rank number from the bottom-left corner
//! (`a1`), written lower case on 7×7 and 11×11 and upper case on 13×13, as the reference writes
//! them (read in either case, as the reference reads them). The exact form of every command is
//! in protocol.md ("HTP").
//!
//! As the reference: `play ROLE resigns` ends the game (the other side wins); under
//! `time_settings fischer` a side whose clock has run out when its `play` (or skald's
//! `generate_move` move) arrives loses on time, the move not played;
//! `show_board_open_tafl` writes the board as the reference does (`/`-separated ranks, top
//! first, `A` attacker, `D` defender, `K` king, digits for empty runs).
//!
//! This module only parses and formats: the game, the rules and the search are
//! [`crate::engine::Engine`]'s. `generate_move` searches under the limits given on the command
//! line ([`Settings`]) or budgets a move from the `time_settings` clocks.

use super::Output;
use crate::engine::session::{GameSession, MoveError, Session};
use crate::engine::{Clock, Engine, Limits, Outcome, Side};
use crate::tafl::RuleOptions;
use crate::variant::Variant;
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

/// The protocol version `protocol_version` answers (hnefatafl-copenhagen's `1-beta`).
pub const PROTOCOL_VERSION: &str = "1-beta";

/// The commands skald's HTP knows, in the order `list_commands` gives them (the reference's).
pub const COMMANDS: [&str; 17] = [
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
    "show_board_open_tafl",
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
    /// 7, 11 or 13.
    size: u8,
    time: TimeControl,
    /// Time left per side (ms, may run below zero) under a Fischer control.
    clocks: [i64; 2],
    /// When the side to move's turn began (the last move, or the start of the game).
    turn_started: Instant,
    /// A side that resigned (`play ROLE resigns`) or lost on time: the game is over, the other
    /// side won.
    lost: Option<Side>,
}

/// The side an HTP role names: `attacker`/`a` or `defender`/`d`, any case. Errors: any other
/// text.
pub fn parse_role(text: &str) -> Result<Side, String> {
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

/// skald's square name (`a1`) as HTP (and hnefatafl.org's server) writes it on a `size`×`size`
/// board: upper-case files on 13×13 (`A1`), lower case otherwise.
pub fn htp_square(size: u8, name: &str) -> String {
    if size == 13 {
        name.to_ascii_uppercase()
    } else {
        name.to_string()
    }
}

/// skald's name (`a1`) of an HTP square on a `size`×`size` board (`a1`..`k11`, `A1`..`M13`,
/// read in any case). Errors: not a square of that board.
pub fn parse_square(size: u8, text: &str) -> Result<String, String> {
    let lower = text.to_ascii_lowercase();
    let bad = || {
        format!(
            "'{}' is not a square of the {size}×{size} board",
            crate::engine::options::truncate(text, 20).escape_debug(),
        )
    };
    let mut chars = lower.chars();
    let file = chars.next().ok_or_else(bad)?;
    let rank: u32 = chars.as_str().parse().map_err(|_| bad())?;
    if !file.is_ascii_lowercase()
        || (file as u32 - 'a' as u32) >= size as u32
        || rank == 0
        || rank > size as u32
    {
        return Err(bad());
    }
    Ok(lower)
}

/// skald's `from-to` move text as HTP squares `FROM TO` on a `size`×`size` board.
pub fn move_text(size: u8, mv: &str) -> String {
    mv.split('-')
        .map(|sq| htp_square(size, sq))
        .collect::<Vec<_>>()
        .join(" ")
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
            lost: None,
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
            "show_board_open_tafl" => Ok(self.open_tafl_board()),
            "quit" => return (Ok(String::new()), Flow::Quit),
            other => Err(format!(
                "unrecognized command: {}",
                crate::engine::options::truncate(other, 40).escape_debug()
            )),
        };
        (answer, Flow::Continue)
    }

    /// A new game on the current board size and time control, `first` moving first (`None`:
    /// the board's own first side, the defenders on 7×7, the attackers on 11×11 and 13×13, as
    /// the reference's `Game::make`).
    fn new_game(&mut self, first: Option<Side>) -> Result<(), String> {
        let (variant, options) = match self.size {
            7 => (Variant::Copenhagen, RuleOptions::copenhagen7()),
            13 => (Variant::Copenhagen13, RuleOptions::copenhagen13()),
            _ => (Variant::Copenhagen, RuleOptions::copenhagen()),
        };
        // A game that starts with the other side to move is played under a copy of the rules
        // whose start position says so (interned by `Rules::leak`: built once per process), so
        // that the 140-ply count starts at its first move as the reference's does.
        let flipped = match first {
            Some(side) => {
                let mut fields: Vec<&str> = options.start_fen.split_whitespace().collect();
                let letter = if side == Side::First { "a" } else { "d" };
                (fields.get(1) != Some(&letter)).then(|| {
                    fields[1] = letter;
                    fields.join(" ")
                })
            }
            None => None,
        };
        let session: Option<Box<dyn Session>> = match flipped {
            Some(fen) => Some(crate::engine::new_tafl_session(RuleOptions {
                start_fen: fen,
                ..options
            })?),
            None if self.size == 7 => Some(Box::new(GameSession::new(crate::tafl::copenhagen7()))),
            None => None,
        };
        self.engine.set_variant(variant);
        if let Some(session) = session {
            self.engine.set_session(session);
        }
        self.lost = None;
        let start = match self.time {
            TimeControl::Untimed => 0,
            TimeControl::Fischer { start_ms, .. } => start_ms.min(i64::MAX as u64) as i64,
        };
        self.clocks = [start; 2];
        self.turn_started = Instant::now();
        Ok(())
    }

    fn board_size(&mut self, args: &[&str]) -> Result<String, String> {
        let arg = args
            .first()
            .ok_or("expected: board_size 7, board_size 11 or board_size 13")?;
        let size = match *arg {
            "7" => 7,
            "11" => 11,
            "13" => 13,
            other => {
                return Err(format!(
                    "board_size: expected 7, 11 or 13, got {}",
                    crate::engine::options::truncate(other, 20).escape_debug()
                ));
            }
        };
        let old = self.size;
        self.size = size;
        self.new_game(None).inspect_err(|_| self.size = old)?;
        Ok(String::new())
    }

    fn first_move(&mut self, args: &[&str]) -> Result<String, String> {
        let side = parse_role(args.first().ok_or("expected: first_move ROLE")?)?;
        self.new_game(Some(side))?;
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
        self.new_game(None)?;
        Ok(String::new())
    }

    /// skald's square name (`a1`) as HTP writes it: upper-case files on 13×13 (`A1`).
    fn htp_square(&self, name: &str) -> String {
        htp_square(self.size, name)
    }

    /// skald's name of an HTP square (`a1`..`k11`, `A1`..`M13`, any case).
    fn parse_square(&self, text: &str) -> Result<String, String> {
        parse_square(self.size, text).map_err(|e| format!("play: {e}"))
    }

    /// skald's `from-to` move text as HTP squares `FROM TO`.
    fn move_text(&self, mv: &str) -> String {
        move_text(self.size, mv)
    }

    fn game_over(&self) -> bool {
        self.lost.is_some() || self.engine.session().outcome().is_decided()
    }

    /// The time since the side to move's turn began, ms.
    fn time_spent(&self) -> i64 {
        self.turn_started
            .elapsed()
            .as_millis()
            .min(i64::MAX as u128) as i64
    }

    /// Under a Fischer control, whether the side to move's clock has run out now, as the
    /// reference judges it when a move arrives (hnefatafl-copenhagen 6.4.1, `Game::play`: the
    /// time since the last move taken off, then lost at zero or below). If so the game is over,
    /// lost on time. Always `false` un-timed.
    fn flagged(&mut self) -> bool {
        if self.time == TimeControl::Untimed {
            return false;
        }
        let side = self.engine.session().side_to_move();
        let out = self.clocks[side.index()].saturating_sub(self.time_spent()) <= 0;
        if out {
            self.lost = Some(side);
        }
        out
    }

    /// Charges the time since the turn began to the mover's clock and adds the increment.
    fn charge_clock(&mut self, mover: Side) {
        if let TimeControl::Fischer { inc_ms, .. } = self.time {
            let spent = self.time_spent();
            let c = &mut self.clocks[mover.index()];
            *c = c.saturating_sub(spent).saturating_add(inc_ms as i64);
        }
        self.turn_started = Instant::now();
    }

    /// Plays skald's move text `mv` for the side to move and returns the captured squares, in
    /// board order, each followed by a space (hnefatafl-copenhagen's form). A side to move out
    /// of time loses instead ([`Htp::flagged`]): nothing is played and there are no captures.
    fn play_move(&mut self, mv: &str) -> Result<String, String> {
        let mover = self.engine.session().side_to_move();
        if self.flagged() {
            return Ok(String::new());
        }
        self.engine.session_mut().play(mv).map_err(|e| match e {
            MoveError::GameOver(_) => "play: the game is already over".to_string(),
            MoveError::Illegal(e) => format!("play: {e}"),
            // The reference's words (6.4.1, `InvalidMove::RepeatMove`).
            MoveError::RepeatsBoard(_) => "play: you already reached that position".to_string(),
        })?;
        self.charge_clock(mover);
        let mut captures = String::new();
        for c in self.engine.session().last_captures() {
            captures.push_str(&self.htp_square(&c.square));
            captures.push(' ');
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
        let resigns =
            second.eq_ignore_ascii_case("resign") || second.eq_ignore_ascii_case("resigns");
        let squares = if resigns {
            None
        } else {
            let to = args.get(2).ok_or(USAGE)?;
            Some((self.parse_square(second)?, self.parse_square(to)?))
        };
        // The reference judges the clock first, whatever the move (`Game::play`).
        if self.flagged() {
            return Ok(String::new());
        }
        let Some((from, to)) = squares else {
            if role != to_move {
                return Err("play: you can't resign for the other player".to_string());
            }
            self.lost = Some(role);
            return Ok(String::new());
        };
        if role != to_move {
            return Err(format!(
                "play: it isn't your turn ({} to move)",
                role_name(to_move)
            ));
        }
        self.play_move(&format!("{from}-{to}"))
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
                let spent = self.time_spent();
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
        // Out of time by now, skald loses and the move is not played; the move is answered all
        // the same, as by the reference (its `generate_move` answers the move its `Game::play`
        // then refused on time).
        self.play_move(&mv)?;
        Ok(format!("play {} {}", role_name(side), self.move_text(&mv)))
    }

    /// `play_undo`: takes back a resignation or a loss on time, or else the last move and,
    /// under a Fischer control, the increment its mover was given for it (as the reference,
    /// hnefatafl-copenhagen at e0d90c15 "Fix PlayUndo": the time spent on it is not given back).
    fn play_undo(&mut self) -> Result<String, String> {
        if self.lost.take().is_some() {
            self.turn_started = Instant::now();
            return Ok(String::new());
        }
        if self.engine.session_mut().undo() {
            if let TimeControl::Fischer { inc_ms, .. } = self.time {
                let mover = self.engine.session().side_to_move();
                let c = &mut self.clocks[mover.index()];
                *c = c.saturating_sub(inc_ms.min(i64::MAX as u64) as i64);
            }
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

    /// The board as the reference's `show_board_open_tafl` writes it (hnefatafl-copenhagen
    /// 6.4.1, `Board::open_tafl_serialize`): each rank, top first, after a `/`, then a final `/`;
    /// `A` an attacker, `D` a defender, `K` the king, a number a run of empty squares.
    fn open_tafl_board(&self) -> String {
        let mut text = String::new();
        for row in self.engine.session().board_rows() {
            text.push('/');
            let mut empty = 0;
            for square in row {
                let letter = match square {
                    None => {
                        empty += 1;
                        continue;
                    }
                    Some('t') => 'A',
                    Some('T') => 'D',
                    Some(_) => 'K',
                };
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(letter);
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
        }
        text.push('/');
        text
    }

    /// `attacker_wins`, `defender_wins`, `draw` or `ongoing`.
    fn final_status(&self) -> &'static str {
        if let Some(side) = self.lost {
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

    /// `play_undo` takes the undone move's Fischer increment off its mover's clock, as the
    /// reference does since hnefatafl-copenhagen e0d90c15 ("Fix PlayUndo"): playing and taking
    /// back a move over and over adds nothing (before, each pair added the 60 s increment).
    #[test]
    fn play_undo_takes_the_increment_back() {
        let (out, _buf) = Output::captured();
        let mut htp = Htp::new(out, Engine::new().unwrap(), Settings::default());
        htp.handle_line("time_settings fischer 1 60");
        assert_eq!(htp.clocks, [60_000, 60_000]);
        for _ in 0..5 {
            htp.handle_line("play a a4 c4");
            htp.handle_line("play_undo");
        }
        // The attackers' clock: 60 s less the few ms spent, never an increment more.
        assert!(htp.clocks[0] <= 60_000, "{:?}", htp.clocks);
        assert!(htp.clocks[0] > 0, "{:?}", htp.clocks);
        assert_eq!(htp.clocks[1], 60_000);
        // A defenders' move taken back: the same on their clock.
        htp.handle_line("play a a4 c4");
        htp.handle_line("play d e7 e9");
        htp.handle_line("play_undo");
        assert!(htp.clocks[1] <= 60_000, "{:?}", htp.clocks);
        // The attackers' move stands, with its increment.
        assert!(htp.clocks[0] > 60_000, "{:?}", htp.clocks);
    }
}
