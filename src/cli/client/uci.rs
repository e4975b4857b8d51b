//! The UCI (tafl) and UAI (Ataxx) client (protocol.md): `uci`/`uciok` (`uai`/`uaiok`) and the
//! options at the start; per game `ucinewgame` (`uainewgame`) and `isready`; each move
//! `position fen … moves …`, `isready` (answered `readyok`) and `go`, answered by `bestmove`. A
//! `bestmove` that comes with no `go` outstanding (before that `readyok`) is reported and
//! ignored.

use super::api::{Client, MoveReply, MoveRequest, NewGame, WaitError};
use super::process::EngineProcess;
use super::spec::EngineSpec;
use anyhow::{Context, Result, anyhow, bail};
use skald::variant::Variant;
use std::time::{Duration, Instant};

/// An engine spoken to over UCI or UAI.
pub struct UciClient {
    process: EngineProcess,
    /// UAI rather than UCI.
    uai: bool,
    /// The engine's `id name`, once known.
    id_name: Option<String>,
    /// The option names the engine declared (`option name <Name> type …`), in order.
    declared: Vec<String>,
    /// The engine's name in messages (the spec's `name=`, its `id name`, or its command).
    who: String,
}

impl UciClient {
    /// Does the handshake: `uci`/`uciok` (or `uai`/`uaiok` when `uai`), then each option that
    /// selects `variant` ([`variant_setup`]) and each of the spec, each followed by
    /// `isready`/`readyok`.
    ///
    /// # Errors
    /// The engine does not answer within 10 s; or it rejects an option of the spec: it declared
    /// options and this one is not among them (names compared ignoring case), or it answered
    /// the `setoption` with `info string error: …` (or `No such option`) before `readyok`. The
    /// message names the engine and the option.
    pub fn start(
        process: EngineProcess,
        spec: &EngineSpec,
        uai: bool,
        variant: Variant,
    ) -> Result<UciClient> {
        let what = spec.label();
        let mut e = UciClient {
            process,
            uai,
            id_name: None,
            declared: Vec::new(),
            who: what.clone(),
        };
        let (hello, ok) = if uai {
            ("uai", "uaiok")
        } else {
            ("uci", "uciok")
        };
        e.process
            .send(hello)
            .with_context(|| format!("engine '{what}' does not read its input"))?;
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        let mut id_name = None;
        let mut declared = Vec::new();
        e.process
            .wait_for(deadline, None, |l| {
                if let Some(n) = l.strip_prefix("id name ") {
                    id_name = Some(n.trim().to_string());
                }
                if let Some(n) = declared_option(l) {
                    declared.push(n);
                }
                l.trim() == ok
            })
            .map_err(|err| {
                anyhow!("engine '{what}' did not answer '{hello}' with '{ok}' ({err})")
            })?;
        e.id_name = id_name;
        e.declared = declared;
        let who = spec.name.clone().or(e.id_name.clone()).unwrap_or(what);
        e.who = who.clone();
        for (name, value) in &variant_setup(variant) {
            e.set_option(&who, name, value)?;
        }
        for (name, value) in &spec.options {
            if !e.declared.is_empty() && !e.declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                bail!(
                    "engine '{who}' has no option '{name}' (its options: {})",
                    e.declared.join(", ")
                );
            }
            e.set_option(&who, name, value)?;
        }
        Ok(e)
    }

    /// Sends `setoption name <name> [value <value>]`, then `isready`, and fails if the engine
    /// answers with an error before `readyok` (or gives no `readyok` within 10 s).
    fn set_option(&mut self, who: &str, name: &str, value: &str) -> Result<()> {
        let line = if value.is_empty() {
            format!("setoption name {name}")
        } else {
            format!("setoption name {name} value {value}")
        };
        self.process
            .send(&line)
            .with_context(|| format!("engine '{who}' does not read its input"))?;
        self.process
            .send("isready")
            .with_context(|| format!("engine '{who}' does not read its input"))?;
        let mut errors: Vec<String> = Vec::new();
        self.process
            .wait_for(Some(Instant::now() + Duration::from_secs(10)), None, |l| {
                if let Some(e) = error_text(l) {
                    errors.push(e.to_string());
                }
                l.trim() == "readyok"
            })
            .map_err(|err| {
                anyhow!("engine '{who}' did not answer 'isready' after option '{name}' ({err})")
            })?;
        if !errors.is_empty() {
            bail!(
                "engine '{who}' rejected option '{name}' = '{value}': {}",
                errors.join("; ")
            );
        }
        Ok(())
    }

    /// `isready` and wait for `readyok`.
    fn sync(&mut self, timeout: Duration) -> Result<(), WaitError> {
        self.process
            .send("isready")
            .map_err(|_| WaitError::Disconnected)?;
        self.process
            .wait_for(Some(Instant::now() + timeout), None, |l| {
                l.trim() == "readyok"
            })
            .map(|_| ())
    }
}

impl Client for UciClient {
    fn name(&self) -> Option<String> {
        self.id_name.clone()
    }

    /// `ucinewgame` (UAI `uainewgame`) and `isready`.
    fn new_game(&mut self, _game: &NewGame<'_>) -> Result<(), String> {
        let sent = |r: Result<()>| r.map_err(|e| format!("does not read its input ({e})"));
        let cmd = if self.uai { "uainewgame" } else { "ucinewgame" };
        sent(self.process.send(cmd))?;
        self.sync(Duration::from_secs(10))
            .map_err(|e| format!("did not answer isready ({e})"))
    }

    /// `position fen <setup> moves …`, `isready` and `go` (`go depth N`, or the clocks),
    /// answered by `bestmove`; a `bestmove` before the `readyok` is reported and ignored.
    fn request_move(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, WaitError> {
        let session = request.session;
        let moves = session.moves_played();
        let limits = request.limits;
        let mut position = format!("position fen {}", session.setup_fen());
        if !moves.is_empty() {
            position += " moves ";
            position += &moves.join(" ");
        }
        let go = match limits.depth {
            Some(d) => format!("go depth {d}"),
            None => format!(
                "go btime {} wtime {} binc {} winc {}",
                limits.clock[0].max(1),
                limits.clock[1].max(1),
                limits.inc_ms,
                limits.inc_ms
            ),
        };
        // A `bestmove` not asked for (an engine that answered a `go` twice) must not be taken
        // for the answer to this `go`: the lines sent since the last answer are dropped, and
        // `isready` makes sure of those still on their way (the engine answers `readyok` after
        // them), before the `go`.
        let who = self.who.clone();
        self.process
            .discard_unasked(&who, |l| l.starts_with("bestmove"));
        self.process.tell(&position)?;
        self.process.tell("isready")?;
        self.process
            .wait_for(request.deadline, request.abort, |l| {
                if l.starts_with("bestmove") {
                    super::process::ignored_answer(&who, l);
                }
                l.trim() == "readyok"
            })?;
        self.process.tell(&go)?;
        let line = self
            .process
            .wait_for(request.deadline, request.abort, |l| {
                l.starts_with("bestmove")
            })?;
        Ok(MoveReply::Move(
            line.split_whitespace().nth(1).unwrap_or("").to_string(),
        ))
    }

    fn quit(self: Box<Self>) {
        self.process.quit("quit");
    }
}

/// The options that select the variant: `UCI_Variant` for tafl (Ataxx engines are told by
/// `uai`).
fn variant_setup(variant: Variant) -> Vec<(String, String)> {
    if variant.is_tafl() {
        vec![("UCI_Variant".into(), variant.name().into())]
    } else {
        Vec::new()
    }
}

/// An engine's answer that rejects a command: `info string error: …` (protocol.md), or
/// Stockfish-style `No such option: …` / `Unknown option …`.
fn error_text(line: &str) -> Option<&str> {
    let l = line.trim();
    if let Some(rest) = l.strip_prefix("info string ") {
        let lower = rest.to_ascii_lowercase();
        if lower.starts_with("error") {
            return Some(
                rest.trim_start_matches(|c: char| c.is_alphabetic())
                    .trim_start_matches(':')
                    .trim(),
            );
        }
        return None;
    }
    (l.starts_with("No such option") || l.starts_with("Unknown option")).then_some(l)
}

/// The option name in an `option name <Name> type …` line.
fn declared_option(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let name = match rest.find(" type ") {
        Some(i) => &rest[..i],
        None => rest,
    };
    Some(name.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_errors_are_recognised() {
        assert_eq!(
            error_text("info string error: unknown option 'X'"),
            Some("unknown option 'X'")
        );
        assert_eq!(error_text("No such option: X"), Some("No such option: X"));
        assert_eq!(error_text("info string eval total 3"), None);
        assert_eq!(
            declared_option("option name Skill Level type spin default 20 min 0 max 20"),
            Some("Skill Level".to_string())
        );
    }
}
