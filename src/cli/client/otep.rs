//! The client of the OpenTafl engine protocol (OpenTafl's opentafl-engine-protocol.txt): the
//! engine says `hello`; per game `rules <OpenTafl rules string>` ([`otep_rules`]); per move
//! `opponent-move <move> <position record>`, `clock …`, `play attackers|defenders`, answered by
//! `move <move>` and confirmed with `move <position record>`; `finish <code>` at the end,
//! `goodbye` to quit. Tafl only; no options.

use super::api::{Client, MoveReply, MoveRequest, NewGame, WaitError};
use super::process::EngineProcess;
use super::spec::{EngineSpec, Proto};
use anyhow::{Result, anyhow};
use skald::engine::Side;
use skald::engine::session::Session;
use skald::tafl::opentafl as notation;
use skald::variant::Variant;
use std::time::{Duration, Instant};

/// An engine spoken to over the OpenTafl engine protocol.
pub struct OtepClient {
    process: EngineProcess,
    /// How many moves of the current game the engine has been told (or made itself).
    told: usize,
    /// The engine's name in messages (its command).
    who: String,
    /// The engine's last `move` answer (its text), to know it sent again.
    last_answer: Option<String>,
}

/// Why an OTEP engine cannot play a match of `variant`, or `None`.
pub(super) fn refuses(variant: Variant) -> Option<&'static str> {
    (!variant.is_tafl()).then_some("OTEP engines play tafl only")
}

/// The OpenTafl rules string an OTEP engine is told for a game of `variant` from `setup_fen`
/// (`rules <string>`); `skald match` judges games between OTEP engines by exactly this string
/// (read as [`skald::tafl::opentafl::parse_rules`] reads it), see [`crate::cli::matches`].
///
/// - `copenhagen`: OpenTafl's own Copenhagen ([`COPENHAGEN_OTN`]: `tfr:w sw:s efe:y`);
/// - `brandubh`, `tablut`, `tawlbwrdd`: skald's rules as close as a rules string says them
///   ([`skald::variant::Descriptor::opentafl_rules`]), with the repetition rule written out as `tfr:d` (a draw at
///   the third occurrence of a position). OpenTafl's strings have no other repetition rule:
///   skald's tablut and tawlbwrdd draw at the second occurrence, and skald's brandubh has none
///   (OpenTafl itself reads brandubh's `tfr:i` as `tfr:d`, so an engine built on its code would
///   expect threefold draws anyway);
/// - `copenhagen13` and Ataxx: an error (no OpenTafl rules string says them).
///
/// A set-up position other than the variant's start replaces the string's `start:` (with
/// `atkf:n` when the defenders move first there).
pub fn otep_rules(variant: Variant, setup_fen: &str) -> Result<String, String> {
    let mut rules = match variant {
        Variant::Copenhagen => COPENHAGEN_OTN.to_string(),
        Variant::Copenhagen13 => {
            return Err(
                "OTEP engines cannot play copenhagen13: OpenTafl has no 13x13 \
                        Copenhagen rules string (skald's copenhagen13 follows hnefatafl.org)"
                    .into(),
            );
        }
        v => {
            let base = v.descriptor().opentafl_rules.ok_or_else(|| {
                format!("OTEP engines play tafl, and no OpenTafl rules string says {v}")
            })?;
            let words: Vec<&str> = base
                .split_whitespace()
                .filter(|w| !w.starts_with("tfr:"))
                .collect();
            let start = words.len() - 1;
            format!("{} tfr:d {}", words[..start].join(" "), words[start])
        }
    };
    let start = variant.start_fen().to_string();
    if setup_fen != start {
        let i = rules.find(" start:").ok_or("rules without start")?;
        rules.truncate(i);
        let atkf = if setup_fen.split_whitespace().nth(1) == Some("d") {
            " atkf:n"
        } else {
            ""
        };
        rules += &format!("{atkf} start:{}", notation::fen_to_record(setup_fen));
    }
    Ok(rules)
}

/// OpenTafl's own Copenhagen rules string (its built-in variant), what OTEP engines playing
/// `copenhagen` are told: OpenTafl's shieldwall, edge fort and threefold repetition (`tfr:w`),
/// not hnefatafl.org's rules that skald's `copenhagen` follows.
pub const COPENHAGEN_OTN: &str = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y \
     start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

impl OtepClient {
    /// The handshake: the engine's `hello` (within 10 s).
    ///
    /// # Errors
    /// Options in the spec (OTEP has none), or no `hello`.
    pub fn start(process: EngineProcess, spec: &EngineSpec) -> Result<OtepClient> {
        let what = spec.label();
        spec.no_options(Proto::Otep)?;
        let mut e = OtepClient {
            process,
            told: 0,
            who: spec.name.clone().unwrap_or_else(|| what.clone()),
            last_answer: None,
        };
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        e.process
            .wait_for(deadline, None, |l| l.trim() == "hello")
            .map_err(|err| anyhow!("engine '{what}' did not say 'hello' ({err})"))?;
        Ok(e)
    }
}

impl Client for OtepClient {
    fn name(&self) -> Option<String> {
        None
    }

    /// `rules` ([`otep_rules`]).
    fn new_game(&mut self, game: &NewGame<'_>) -> Result<(), String> {
        let &NewGame {
            variant, setup_fen, ..
        } = game;
        self.told = 0;
        let sent = |r: Result<()>| r.map_err(|e| format!("does not read its input ({e})"));
        let rules = otep_rules(variant, setup_fen)?;
        sent(self.process.send(&format!("rules {rules}")))
    }

    /// `opponent-move`, `clock`, `play` (as OpenTafl 0.4.8 sends them; `position <record>`
    /// instead of `opponent-move` when more than one move is unseen, after an opening's moves).
    fn request_move(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, WaitError> {
        let session = request.session;
        let side = session.side_to_move();
        let moves = session.moves_played();
        let limits = request.limits;
        let record = notation::fen_to_record(&session.fen());
        // A `move` not asked for (one sent twice) must not be taken for the answer to this
        // `play`: the lines sent since the last answer are dropped first.
        let engine = self.who.clone();
        self.process.discard_unasked(&engine, |l| {
            l.starts_with("move ") || l.starts_with("error")
        });
        if moves.len() > self.told + 1 {
            // Several moves unseen (an opening's, played by the runner): the board.
            self.process.tell(&format!("position {record}"))?;
        } else if let Some(last) = moves.last()
            && moves.len() > self.told
        {
            self.process
                .tell(&format!("opponent-move {last} {record}"))?;
        }
        self.told = moves.len();
        let clock = format!(
            "clock {} {} 0 0 0",
            limits.clock[0].max(0),
            limits.clock[1].max(0)
        );
        let who = match side {
            Side::First => "attackers",
            Side::Second => "defenders",
        };
        // The order OpenTafl 0.4.8 sends them in (the clock before `play`).
        self.process.tell(&clock)?;
        self.process.tell(&format!("play {who}"))?;
        // OTEP has no command that the engine answers (to know that all it sent before has
        // come): an answer that repeats the engine's last and is not legal now is that one
        // sent twice, late. (After the engine's move its square of departure is empty or the
        // opponent's on its next turn, so its last move is never legal then.)
        let legal = session.legal_moves();
        let last = self.last_answer.clone();
        let line = self
            .process
            .wait_for(request.deadline, request.abort, |l| {
                if let Some(m) = l.strip_prefix("move ") {
                    let again = last.as_deref() == Some(m.trim())
                        && notation::parse_move(m).is_ok_and(|mv| !legal.contains(&mv));
                    if again {
                        super::process::ignored_answer(&engine, l);
                    }
                    return !again;
                }
                l.starts_with("error")
            })?;
        if let Some(m) = line.strip_prefix("move ") {
            self.last_answer = Some(m.trim().to_string());
            self.told = moves.len() + 1;
            let mv = notation::parse_move(m).unwrap_or_else(|_| m.trim().to_string());
            return Ok(MoveReply::Move(mv));
        }
        Ok(MoveReply::Refused(line))
    }

    /// Confirms the move with `move <position record>`.
    fn move_accepted(&mut self, session: &dyn Session) {
        let record = notation::fen_to_record(&session.fen());
        let _ = self.process.send(&format!("move {record}"));
    }

    /// `finish <code>`.
    fn game_over(&mut self, winner: Option<Option<Side>>) {
        let code = match winner {
            None => 0,
            Some(None) => 1,
            Some(Some(Side::First)) => 2,
            Some(Some(Side::Second)) => 3,
        };
        let _ = self.process.send(&format!("finish {code}"));
    }

    fn quit(self: Box<Self>) {
        self.process.quit("goodbye");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OTEP engines playing copenhagen are told OpenTafl's own Copenhagen; Ataxx has no rules
    /// string.
    #[test]
    fn copenhagen_and_ataxx_rules() {
        assert_eq!(
            otep_rules(Variant::Copenhagen, Variant::Copenhagen.start_fen()).unwrap(),
            COPENHAGEN_OTN
        );
        assert!(otep_rules(Variant::Ataxx, "x5o/7/7/7/7/7/o5x x 0 1").is_err());
    }

    /// The repetition rule OTEP engines are told is written out (`tfr:d`, never brandubh's
    /// `tfr:i`, which OpenTafl reads as `d`); copenhagen13 has no OpenTafl string.
    #[test]
    fn otep_rules_say_their_repetition_rule() {
        let start = |v: Variant| v.start_fen().to_string();
        let tablut = otep_rules(Variant::Tablut, &start(Variant::Tablut)).unwrap();
        assert!(
            tablut
                .starts_with("dim:9 name:tablut esc:e surf:n ks:c cor: cens: cenh: tfr:d start:/"),
            "{tablut}"
        );
        let brandubh = otep_rules(Variant::Brandubh, &start(Variant::Brandubh)).unwrap();
        assert!(
            brandubh.contains(" tfr:d ") && !brandubh.contains("tfr:i"),
            "{brandubh}"
        );
        assert_eq!(brandubh.matches("tfr:").count(), 1, "{brandubh}");
        let e = otep_rules(Variant::Copenhagen13, &start(Variant::Copenhagen13)).unwrap_err();
        assert!(e.contains("cannot play copenhagen13"), "{e}");
        // From a position with the defenders to move: that position, and atkf:n.
        let mut s = skald::engine::new_session(Variant::Tablut);
        s.play("d1-d2").unwrap();
        let r = otep_rules(Variant::Tablut, &s.fen()).unwrap();
        assert!(r.contains(" tfr:d atkf:n start:/4tt3/3tt4/"), "{r}");
    }
}
