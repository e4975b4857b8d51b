//! The client of hnefatafl.org's Hnefatafl Text Protocol (protocol.md, "HTP"): `name` at the
//! start; `board_size 11|13` and `time_settings` per game; the other side's moves as
//! `play ROLE FROM TO`, then `generate_move ROLE`, answered by `= play ROLE FROM TO`
//! (`= play ROLE resigns …` resigns). Copenhagen only, from the start position; no options.

use super::api::{Client, MoveReply, MoveRequest, NewGame, WaitError};
use super::process::EngineProcess;
use super::spec::{EngineSpec, Proto};
use anyhow::{Context, Result, anyhow};
use skald::engine::Side;
use skald::variant::Variant;
use std::time::{Duration, Instant};

/// An engine spoken to over HTP.
pub struct HtpClient {
    process: EngineProcess,
    /// The engine's answer to `name`, once known.
    id_name: Option<String>,
    /// How many moves of the current game the engine has been told (or made itself).
    told: usize,
    /// The engine's name in messages (its command).
    who: String,
}

/// Why an HTP engine cannot play a match of `variant` (`set_up`: from a position other than
/// the start), or `None`.
pub(super) fn refuses(variant: Variant, set_up: bool) -> Option<&'static str> {
    if !matches!(variant, Variant::Copenhagen | Variant::Copenhagen13) {
        return Some(
            "HTP engines play Copenhagen only (--variant copenhagen or \
             copenhagen13)",
        );
    }
    set_up.then_some(
        "HTP engines play from the start position only: give the \
         openings as the start position and moves ('<fen> moves …', skald \
         openings --moves)",
    )
}

impl HtpClient {
    /// The handshake: `name` answered by `= <name>` (within 10 s).
    ///
    /// # Errors
    /// Options in the spec (HTP has none), or no answer.
    pub fn start(process: EngineProcess, spec: &EngineSpec) -> Result<HtpClient> {
        let what = spec.label();
        spec.no_options(Proto::Htp)?;
        let mut e = HtpClient {
            process,
            id_name: None,
            told: 0,
            who: what.clone(),
        };
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        e.process
            .send("name")
            .with_context(|| format!("engine '{what}' does not read its input"))?;
        let line = e
            .process
            .wait_for(deadline, None, is_htp_answer)
            .map_err(|err| anyhow!("engine '{what}' did not answer 'name' ({err})"))?;
        if let Some(n) = line.strip_prefix("= ") {
            e.id_name = Some(n.trim().to_string()).filter(|n| !n.is_empty());
        }
        e.who = spec.name.clone().or(e.id_name.clone()).unwrap_or(what);
        Ok(e)
    }
}

impl Client for HtpClient {
    fn name(&self) -> Option<String> {
        self.id_name.clone()
    }

    /// `board_size` and `time_settings` (Fischer when `limits` are whole minutes and seconds,
    /// else `un-timed`).
    fn new_game(&mut self, game: &NewGame<'_>) -> Result<(), String> {
        let &NewGame {
            variant,
            setup_fen,
            start_fen,
            limits,
        } = game;
        self.told = 0;
        let sent = |r: Result<()>| r.map_err(|e| format!("does not read its input ({e})"));
        let size = match variant {
            Variant::Copenhagen => 11,
            Variant::Copenhagen13 => 13,
            v => return Err(format!("HTP engines play Copenhagen only, not {v}")),
        };
        if setup_fen != start_fen {
            return Err("HTP engines play from the start position only".into());
        }
        let base = limits.clock[0].max(0) as u64;
        let time = if limits.depth.is_none()
            && base.is_multiple_of(60_000)
            && base > 0
            && limits.inc_ms.is_multiple_of(1000)
        {
            format!(
                "time_settings fischer {} {}",
                base / 60_000,
                limits.inc_ms / 1000
            )
        } else {
            "time_settings un-timed".to_string()
        };
        let who = self.who.clone();
        self.process.discard_unasked(&who, is_htp_answer);
        for cmd in [format!("board_size {size}"), time] {
            sent(self.process.send(&cmd))?;
            let line = self
                .process
                .wait_for(Some(Instant::now() + Duration::from_secs(10)), None, |l| {
                    answers_other_than_generate_move(&who, l)
                })
                .map_err(|e| format!("did not answer '{cmd}' ({e})"))?;
            if !line.starts_with('=') {
                return Err(format!("answered '{cmd}' with '{line}'"));
            }
        }
        Ok(())
    }

    /// The moves the engine has not seen as `play`, then `generate_move`.
    fn request_move(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, WaitError> {
        let session = request.session;
        let side = session.side_to_move();
        let moves = session.moves_played();
        let upper = session.board_rows().len() > 11;
        let squares = |m: &str| {
            let m = m.replace('-', " ");
            if upper { m.to_ascii_uppercase() } else { m }
        };
        // An answer not asked for (one sent twice) must not be taken for the answer to the
        // next command: the lines sent since the last answer are dropped first.
        let who = self.who.clone();
        self.process.discard_unasked(&who, is_htp_answer);
        // The moves since the engine's last: who made each, from the side to move now.
        let unseen = moves.len().saturating_sub(self.told);
        for (k, m) in moves[moves.len() - unseen..].iter().enumerate() {
            let mover = if (unseen - k) % 2 == 1 {
                side.opponent()
            } else {
                side
            };
            let cmd = format!("play {} {}", htp_role(mover), squares(m));
            self.process.tell(&cmd)?;
            let line = self
                .process
                .wait_for(request.deadline, request.abort, |l| {
                    answers_other_than_generate_move(&who, l)
                })?;
            if !line.starts_with('=') {
                return Ok(MoveReply::Refused(format!("'{cmd}': {line}")));
            }
        }
        self.told = moves.len();
        self.process
            .tell(&format!("generate_move {}", htp_role(side)))?;
        let line = self
            .process
            .wait_for(request.deadline, request.abort, is_htp_answer)?;
        // `= play ROLE FROM TO` (the reference appends `, score: …`).
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        self.told = moves.len() + 1;
        match words.as_slice() {
            ["=", "play", _, "resign" | "resigns", ..] => Ok(MoveReply::Resign),
            ["=", "play", _, from, to, ..] => Ok(MoveReply::Move(format!(
                "{}-{}",
                from.to_ascii_lowercase(),
                to.to_ascii_lowercase()
            ))),
            _ => Ok(MoveReply::Move(String::new())),
        }
    }

    fn quit(self: Box<Self>) {
        self.process.quit("quit");
    }
}

/// The HTP role of `side`.
fn htp_role(side: Side) -> &'static str {
    match side {
        Side::First => "attacker",
        Side::Second => "defender",
    }
}

/// Whether `line` is the answer to a command other than `generate_move` that engine `who` was
/// sent: an HTP answer, but not `= play …`, the form of `generate_move`'s answer only, which
/// here is one sent twice (reported, and ignored).
fn answers_other_than_generate_move(who: &str, line: &str) -> bool {
    if line.starts_with("= play") {
        super::process::ignored_answer(who, line);
        return false;
    }
    is_htp_answer(line)
}

/// An HTP answer line (`= …` or `? …`, possibly `=` alone).
fn is_htp_answer(line: &str) -> bool {
    line.starts_with("= ") || line.starts_with("? ") || line == "=" || line == "?"
}
