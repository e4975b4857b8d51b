//! What `skald bot` does when its connection drops: it logs in again after 1, 2, 4 … (at most
//! 60) seconds, at most `reconnect` tries in a row, then asks the server which of its games are
//! still in progress and takes its own up again from the moves the server resends ([`super`]'s
//! docs, and [`super::protocol`]'s "A dropped connection").

use super::bot::{Bot, Game, Resume, State, server_move};
use super::connection::{Connection, ConnectionLost, lost};
use super::protocol::{self as server, GameId, ResumedGame, ServerLine, TimeControl};
use crate::engine::Side;
use crate::tafl::hnefatafl::role_name;
use crate::variant::Variant;
use anyhow::{Result, anyhow, bail};
use std::time::Duration;

/// The longest wait between two reconnection tries, seconds.
const MAX_BACKOFF_S: u64 = 60;

/// The seconds to wait before reconnection try `attempt` (from 1): 1, 2, 4 … at most
/// [`MAX_BACKOFF_S`].
fn backoff_seconds(attempt: u32) -> u64 {
    1u64.checked_shl(attempt.saturating_sub(1))
        .unwrap_or(u64::MAX)
        .min(MAX_BACKOFF_S)
}

impl Bot {
    /// Logs in (making the account first with --create-account when it does not exist). A
    /// connection that fails, and a refusal for the moment (`logged_in_already`,
    /// `retried_too_soon`), are [`ConnectionLost`].
    pub(super) fn login(&mut self) -> Result<()> {
        let mut create = self.config.create_account;
        loop {
            let line = server::login_line(&self.config.user, &self.password, create);
            let shown = server::redacted_login_line(&self.config.user, create);
            self.conn.send_as(&line, &shown)?;
            let answer = loop {
                let line = self
                    .conn
                    .read()?
                    .ok_or_else(|| lost("the server closed the connection at the login".into()))?;
                match server::parse_line(&line).map_err(|e| anyhow!("{e}"))? {
                    ServerLine::LoggedIn => break Ok(()),
                    ServerLine::LoginRefused(reason) => break Err(reason),
                    _ => {}
                }
            };
            match answer {
                Ok(()) => {
                    eprintln!(
                        "skald bot: logged in to {} as {}",
                        self.config.server, self.config.user
                    );
                    return Ok(());
                }
                Err(reason) if create && reason.starts_with("already_exists") => create = false,
                Err(reason)
                    if reason.contains("logged_in_already")
                        || reason.contains("retried_too_soon") =>
                {
                    return Err(lost(format!(
                        "the server refused the login for now: {}",
                        self.conn.redact(&reason)
                    )));
                }
                Err(reason) if reason.contains("wrong_version") => bail!(
                    "the server refused the login: it speaks another protocol version than \
                     hnefatafl-copenhagen 6.4.1's ({})",
                    server::VERSION_ID
                ),
                Err(reason) => bail!(
                    "the server refused the login as {}: {}{}",
                    self.config.user,
                    self.conn.redact(&reason),
                    if reason.contains("account_not_in_database") && !create {
                        " (--create-account makes the account on a server that allows it)"
                    } else {
                        ""
                    }
                ),
            }
        }
    }

    /// After the connection was lost: waits 1, 2, 4 … s and tries to connect and log in
    /// again, at most `--reconnect` times, printing one line a try. Logged in, asks which
    /// games are in progress (see [`Resume`]). `reason` is why the connection was lost.
    pub(super) fn reconnect(&mut self, mut reason: String) -> Result<()> {
        let max = self.config.reconnect;
        for attempt in 1..=max {
            let wait = backoff_seconds(attempt);
            eprintln!(
                "skald bot: connection lost: {}; reconnecting in {wait} s (attempt {attempt} of {max})",
                self.conn.redact(&reason)
            );
            std::thread::sleep(Duration::from_secs(wait));
            match Connection::open(
                &self.config.server,
                self.password.clone(),
                self.config.verbose,
                self.config.keepalive,
            ) {
                Ok(conn) => self.conn = conn,
                Err(e) => {
                    reason = format!("{e:#}");
                    continue;
                }
            }
            match self.login() {
                Ok(()) => {
                    // The server answers `ping` after its `generate_move` line for each game
                    // in progress.
                    if let Err(e) = self.conn.send("ping") {
                        reason = format!("{e:#}");
                        continue;
                    }
                    self.resume = Resume::Listing(Vec::new());
                    return Ok(());
                }
                Err(e) if e.downcast_ref::<ConnectionLost>().is_some() => {
                    reason = format!("{e:#}");
                }
                Err(e) => return Err(e.context("logging in again")),
            }
        }
        bail!(
            "the connection to {} is lost and {max} tries to reconnect failed (the last: {})",
            self.config.server,
            self.conn.redact(&reason)
        )
    }

    /// `= ping` after a reconnection: the server has listed the games in progress.
    pub(super) fn resumed_listing(&mut self, in_progress: Vec<GameId>) -> Result<()> {
        let id = match &self.state {
            State::Playing(g) => g.id,
            State::Open(Some(id)) | State::Pending(id, _) => *id,
            State::Open(None) | State::Idle => {
                self.state = State::Idle;
                self.resume = Resume::No;
                return Ok(());
            }
        };
        if in_progress.contains(&id) {
            // skald's game (also one that started while skald was away): ask for it.
            self.conn.send(&server::resume_line(id))?;
            self.conn.send("ping")?;
            self.resume = Resume::Fetching(id);
            return Ok(());
        }
        self.resume = Resume::No;
        self.game_gone(id)
    }

    /// Game `id` of skald's is not in progress on the server after a reconnection.
    pub(super) fn game_gone(&mut self, id: GameId) -> Result<()> {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Playing(g) => {
                eprintln!(
                    "skald bot: game {id} (against {}) is lost to the disconnect: the server no \
                     longer has it in progress (it ended while skald was away, or the server \
                     restarted)",
                    g.opponent
                );
                self.tally.cut += 1;
            }
            State::Open(_) | State::Pending(..) => {
                // Withdraw it if the server still lists it (an untimed game stays open).
                self.conn.send(&format!("leave_game {id}"))?;
                eprintln!(
                    "skald bot: game {id} did not start before the disconnect; looking again"
                );
            }
            State::Idle => {}
        }
        Ok(())
    }

    /// The server resent skald's game after a reconnection: rebuilds the position and plays on.
    pub(super) fn resume_game(&mut self, game: ResumedGame) -> Result<()> {
        let id = game.id;
        let side = if game.attacker == self.config.user {
            Side::First
        } else if game.defender == self.config.user {
            Side::Second
        } else {
            bail!(
                "game {id}: the server resent a game of {} and {}, not skald's",
                game.attacker,
                game.defender
            );
        };
        let variant = match game.board_size {
            11 => Variant::Copenhagen,
            13 => Variant::Copenhagen13,
            n => bail!("game {id} is on a {n}×{n} board: skald bot plays 11×11 and 13×13"),
        };
        self.open.remove(&id);
        self.engine.set_variant(variant);
        for (from, to) in &game.moves {
            let mv =
                server_move(game.board_size, from, to).map_err(|e| anyhow!("game {id}: {e}"))?;
            self.engine.session_mut().play(mv).map_err(|e| {
                anyhow!("game {id}: the resent move {from} {to} is not legal by skald's rules: {e}")
            })?;
        }
        let start = match game.time {
            TimeControl::Fischer { start_ms, .. } => start_ms.min(i64::MAX as u64) as i64,
            TimeControl::Untimed => 0,
        };
        let opponent = if side == Side::First {
            game.defender
        } else {
            game.attacker
        };
        let to_move = self.engine.session().side_to_move();
        eprintln!(
            "skald bot: game {id} resumed after the reconnection: skald {} against {opponent}, {} {} played, the {} to move",
            role_name(side),
            game.moves.len(),
            if game.moves.len() == 1 {
                "ply"
            } else {
                "plies"
            },
            if to_move == Side::First {
                "attackers"
            } else {
                "defenders"
            }
        );
        self.state = State::Playing(Game {
            id,
            side,
            size: game.board_size,
            opponent,
            time: game.time,
            clocks: game.clocks.map_or([start; 2], |(a, d)| [a, d]),
        });
        self.resume = Resume::No;
        if to_move == side {
            self.generate_move()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reconnection_waits_double_up_to_a_minute() {
        let waits: Vec<u64> = (1..=9).map(backoff_seconds).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(backoff_seconds(1000), 60);
    }
}
