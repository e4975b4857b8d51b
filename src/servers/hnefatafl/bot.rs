//! `skald bot`'s state machine: between games it opens one (`create`) or asks to join one that
//! fits (`accept`), follows a game from its start to its end (the other side's moves, the
//! clocks, the result) and searches on its turns ([`super::policy`]); the lines come from and
//! go to the server through [`super::connection`], and a lost connection is taken up again by
//! [`super::reconnect`].

use super::connection::{Connection, ConnectionLost, lost};
use super::protocol::{
    self as server, GameId, GameSettings, ServerGame, ServerLine, ServerPlay, TimeControl,
};
use super::{BotConfig, Seat};
use crate::engine::{Engine, MoveView, Side};
use crate::tafl::hnefatafl::{parse_square, role_name};
use crate::variant::Variant;
use anyhow::{Result, anyhow, bail};
use std::collections::BTreeMap;

/// A game skald is playing.
pub(super) struct Game {
    pub(super) id: GameId,
    pub(super) side: Side,
    pub(super) size: u8,
    pub(super) opponent: String,
    pub(super) time: TimeControl,
    /// Time left per side, ms (the server's `game_time`, or the start time).
    pub(super) clocks: [i64; 2],
}

/// What the bot is doing between games.
pub(super) enum State {
    /// Looking for a game to join (--accept) or about to open one (--create).
    Idle,
    /// Opened game `0` (or waiting for its id): waiting for a challenger.
    Open(Option<GameId>),
    /// Asked to join game `0`: waiting for its creator to accept (`1`: the server's list has
    /// shown skald in one of its seats).
    Pending(GameId, bool),
    /// Playing.
    Playing(Game),
}

/// Games played and their results, skald's view.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) won: u32,
    pub(super) drawn: u32,
    pub(super) lost: u32,
    /// Games cut by a lost connection that the server no longer had in progress on the bot's
    /// return (result unknown).
    pub(super) cut: u32,
}

impl Tally {
    pub(super) fn games(&self) -> u32 {
        self.won + self.drawn + self.lost + self.cut
    }
}

/// Where the bot is in taking up its games again after a reconnection.
pub(super) enum Resume {
    /// Not resuming.
    No,
    /// Logged in again and sent `ping`: the games the server says are in progress (its
    /// `generate_move` lines) until `= ping`.
    Listing(Vec<GameId>),
    /// Asked for game `0` (`resume_game_json`) and sent `ping`: `= ping` before the game means
    /// the server no longer has it.
    Fetching(GameId),
}

/// The bot: its connection, its engine and where it is in its games.
pub(super) struct Bot {
    pub(super) conn: Connection,
    pub(super) engine: Engine,
    pub(super) config: BotConfig,
    pub(super) state: State,
    pub(super) tally: Tally,
    /// Open games others created (--accept), from `games_updated`.
    pub(super) open: BTreeMap<GameId, ServerGame>,
    pub(super) password: String,
    pub(super) resume: Resume,
}

/// Plays on the server as `config` says, with `engine` (its options set) and the account's
/// `password` (checked with [`server::check_credentials`] first; never printed): logs in,
/// plays `config.games` games (reconnecting when the connection drops), logs out, and prints a
/// line of results on standard error. Errors: the login is refused, the server breaks the
/// protocol or refuses a move, the connection is lost beyond `config.reconnect` tries; every
/// message has the password redacted.
pub fn run(config: BotConfig, engine: Engine, password: String) -> Result<()> {
    server::check_credentials(&config.user, &password).map_err(|e| anyhow!("{e}"))?;
    let conn = Connection::open(
        &config.server,
        password.clone(),
        config.verbose,
        config.keepalive,
    )?;
    let mut bot = Bot {
        conn,
        engine,
        config,
        state: State::Idle,
        tally: Tally::default(),
        open: BTreeMap::new(),
        password,
        resume: Resume::No,
    };
    // A first login that fails is not retried (a wrong password stays wrong).
    bot.login()
        .map_err(|e| anyhow!("{}", bot.conn.redact(&format!("{e:#}"))))?;
    let result = loop {
        let error = match bot.play() {
            Ok(()) => break Ok(()),
            Err(e) => e,
        };
        let Some(ConnectionLost(reason)) = error.downcast_ref::<ConnectionLost>() else {
            break Err(error);
        };
        if bot.config.reconnect == 0 {
            break Err(error);
        }
        if let Err(e) = bot.reconnect(reason.clone()) {
            break Err(e);
        }
    };
    let t = &bot.tally;
    eprintln!(
        "skald bot: {} game{}: {} won, {} drawn, {} lost{}",
        t.games(),
        if t.games() == 1 { "" } else { "s" },
        t.won,
        t.drawn,
        t.lost,
        if t.cut > 0 {
            format!(", {} lost to a disconnect", t.cut)
        } else {
            String::new()
        }
    );
    result.map_err(|e| anyhow!("{}", bot.conn.redact(&format!("{e:#}"))))
}

/// The move a server line names (`FROM TO`, squares as the server writes them on a
/// `size`×`size` board). Errors: a square not of that board.
pub(super) fn server_move(size: u8, from: &str, to: &str) -> Result<MoveView, String> {
    Ok(MoveView::Slide {
        from: parse_square(size, from)?,
        to: parse_square(size, to)?,
    })
}

/// Moves for the log: `d1-d3 h6-h3 …`.
pub(super) fn moves_text(moves: &[MoveView]) -> String {
    moves
        .iter()
        .map(MoveView::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A game's clocks in words, for the log: `untimed` or `15 min + 10 s`.
pub(super) fn clock_text(time: TimeControl) -> String {
    match time {
        TimeControl::Untimed => "untimed".to_string(),
        TimeControl::Fischer {
            start_ms,
            add_seconds,
        } => format!("{} min + {add_seconds} s", start_ms as f64 / 60_000.0),
    }
}

impl Bot {
    /// skald's side in game number `n` (from 0).
    fn role_for(&self, n: u32) -> Side {
        match self.config.seat.unwrap_or(Seat::Attackers) {
            Seat::Defenders => Side::Second,
            Seat::Alternate if n % 2 == 1 => Side::Second,
            _ => Side::First,
        }
    }

    fn done(&self) -> bool {
        self.config.games != 0 && self.tally.games() >= self.config.games
    }

    /// The main loop: opens or joins games and plays them until --games are done.
    fn play(&mut self) -> Result<()> {
        while !self.done() {
            if matches!(self.state, State::Idle) && matches!(self.resume, Resume::No) {
                if self.config.create {
                    let settings = GameSettings {
                        role: self.role_for(self.tally.games()),
                        rated: self.config.rated,
                        time: self.config.clock,
                        board_size: self.board_sizes()[0],
                    };
                    self.conn.send(&settings.new_game_line())?;
                    self.state = State::Open(None);
                } else {
                    self.try_join()?;
                }
            }
            let Some(line) = self.conn.read()? else {
                return Err(lost(match &self.state {
                    State::Playing(g) => format!(
                        "the server closed the connection during game {} (against {})",
                        g.id, g.opponent
                    ),
                    _ => "the server closed the connection".to_string(),
                }));
            };
            let parsed = server::parse_line(&line)
                .map_err(|e| anyhow!("unreadable line from the server: {e}"))?;
            self.handle(parsed)?;
        }
        self.conn.logout();
        Ok(())
    }

    fn board_sizes(&self) -> Vec<u8> {
        match self.config.board {
            Some(size) => vec![size],
            None if self.config.create => vec![11],
            None => vec![11, 13],
        }
    }

    /// --accept: asks to join the first open game that fits, if any.
    fn try_join(&mut self) -> Result<()> {
        let sizes = self.board_sizes();
        let want = match self.config.seat.unwrap_or(Seat::Alternate) {
            Seat::Attackers => Some(Side::First),
            Seat::Defenders => Some(Side::Second),
            Seat::Alternate => None,
        };
        let user = self.config.user.clone();
        let opponent = self.config.opponent.clone();
        let fits = |g: &ServerGame| {
            let (free, creator) = match (&g.attacker, &g.defender) {
                (Some(a), None) if *a != user => (Side::Second, a),
                (None, Some(d)) if *d != user => (Side::First, d),
                _ => return false,
            };
            if opponent.as_ref().is_some_and(|o| o != creator) {
                return false;
            }
            !g.challenge_accepted
                && !g.game_over
                && sizes.contains(&g.board_size)
                && want.is_none_or(|w| w == free)
        };
        if let Some(id) = self.open.values().find(|g| fits(g)).map(|g| g.id) {
            self.conn.send(&format!("join_game_pending {id}"))?;
            self.state = State::Pending(id, false);
        }
        Ok(())
    }

    fn handle(&mut self, line: ServerLine) -> Result<()> {
        match line {
            // After a reconnection the server sends `generate_move` for each game in progress,
            // whoever's turn it is: the list, not a turn.
            ServerLine::GenerateMove { id, .. } if !matches!(self.resume, Resume::No) => {
                if let Resume::Listing(ids) = &mut self.resume {
                    ids.push(id);
                }
            }
            ServerLine::Pong => match std::mem::replace(&mut self.resume, Resume::No) {
                Resume::Listing(ids) => self.resumed_listing(ids)?,
                Resume::Fetching(id) => self.game_gone(id)?,
                Resume::No => {}
            },
            ServerLine::ResumedGame(game) => {
                if let Resume::Fetching(id) = self.resume
                    && id == game.id
                {
                    self.resume_game(game)?;
                }
            }
            ServerLine::OpenGames(games) => {
                for g in games {
                    if !g.game_over && !g.challenge_accepted {
                        self.open.insert(g.id, g);
                    }
                }
            }
            ServerLine::GamesUpdated { games, removed } => {
                for id in removed {
                    self.open.remove(&id);
                }
                for g in games {
                    if g.game_over || g.challenge_accepted {
                        self.open.remove(&g.id);
                    } else {
                        self.open.insert(g.id, g);
                    }
                }
                // A join request the creator declined, or a game withdrawn: look again.
                if let State::Pending(id, seen) = self.state {
                    let seated = self.open.get(&id).map(|g| {
                        g.attacker.as_deref() == Some(&self.config.user)
                            || g.defender.as_deref() == Some(&self.config.user)
                    });
                    match seated {
                        Some(true) => self.state = State::Pending(id, true),
                        Some(false) if !seen => {}
                        _ => {
                            eprintln!("skald bot: game {id} is no longer open to skald");
                            self.state = State::Idle;
                        }
                    }
                }
            }
            ServerLine::GameCreated(id) => {
                if let State::Open(None) = self.state {
                    eprintln!("skald bot: opened game {id}, waiting for a challenger");
                    self.state = State::Open(Some(id));
                }
            }
            ServerLine::ChallengeRequested(id) => {
                if let State::Open(Some(open)) = self.state
                    && open == id
                {
                    self.conn.send(&format!("join_game {id}"))?;
                }
            }
            ServerLine::GameStarted {
                attacker,
                defender,
                rated,
                time,
                board_size,
            } => {
                let id = match self.state {
                    State::Open(Some(id)) | State::Pending(id, _) => id,
                    _ => return Ok(()),
                };
                let side = if attacker == self.config.user {
                    Side::First
                } else if defender == self.config.user {
                    Side::Second
                } else {
                    return Ok(());
                };
                let variant = match board_size {
                    11 => Variant::Copenhagen,
                    13 => Variant::Copenhagen13,
                    n => bail!("game {id} is on a {n}×{n} board: skald bot plays 11×11 and 13×13"),
                };
                self.open.remove(&id);
                self.engine.set_variant(variant);
                let start = match time {
                    TimeControl::Fischer { start_ms, .. } => start_ms.min(i64::MAX as u64) as i64,
                    TimeControl::Untimed => 0,
                };
                let opponent = if side == Side::First {
                    defender
                } else {
                    attacker
                };
                eprintln!(
                    "skald bot: game {id} started: skald {} against {opponent}, {board_size}×{board_size}, {}, {}",
                    role_name(side),
                    if rated { "rated" } else { "unrated" },
                    clock_text(time)
                );
                self.state = State::Playing(Game {
                    id,
                    side,
                    size: board_size,
                    opponent,
                    time,
                    clocks: [start; 2],
                });
            }
            ServerLine::GenerateMove { id, side } => {
                let State::Playing(game) = &self.state else {
                    eprintln!(
                        "skald bot: ignored the server's turn in game {id}: skald is not playing it"
                    );
                    return Ok(());
                };
                if game.id != id {
                    eprintln!(
                        "skald bot: ignored the server's turn in game {id}: skald plays game {}",
                        game.id
                    );
                    return Ok(());
                }
                if side != game.side {
                    bail!(
                        "the server asks skald to move for the {} in game {id}, but skald plays the {}",
                        role_name(side),
                        role_name(game.side)
                    );
                }
                if self.engine.session().side_to_move() != side {
                    bail!(
                        "game {id}: the server says it is the {}'s turn, skald's board says the {}'s (moves: {})",
                        role_name(side),
                        role_name(self.engine.session().side_to_move()),
                        moves_text(&self.engine.session().moves_played())
                    );
                }
                self.generate_move()?;
            }
            ServerLine::Played { id, side, play } => {
                let State::Playing(game) = &self.state else {
                    return Ok(());
                };
                if game.id != id {
                    return Ok(());
                }
                if let ServerPlay::Move { from, to } = play {
                    if side == game.side {
                        return Ok(());
                    }
                    let mv = server_move(game.size, &from, &to)
                        .map_err(|e| anyhow!("game {id}: {e}"))?;
                    // The same line again for the move just played (the side that made it is
                    // not to move): a repeat, not a second move.
                    let session = self.engine.session();
                    if session.side_to_move() != side && session.last_move() == Some(mv) {
                        eprintln!(
                            "skald bot: game {id}: the server sent the {}' move {from} {to} again; \
                             skipped (it is played already)",
                            if side == Side::First {
                                "attackers"
                            } else {
                                "defenders"
                            }
                        );
                        return Ok(());
                    }
                    self.engine.session_mut().play(mv).map_err(|e| {
                        anyhow!("game {id}: the server's move {from} {to} is not legal by skald's rules: {e}")
                    })?;
                }
            }
            ServerLine::GameTime {
                id,
                attacker_ms,
                defender_ms,
            } => {
                if let State::Playing(game) = &mut self.state
                    && game.id == id
                {
                    game.clocks = [attacker_ms, defender_ms];
                }
            }
            ServerLine::GameOver { id, winner } => {
                if let State::Playing(game) = &self.state
                    && game.id == id
                {
                    let won = winner == game.side;
                    eprintln!(
                        "skald bot: game {id} over: the {} won, skald {} (after {} plies)",
                        if winner == Side::First {
                            "attackers"
                        } else {
                            "defenders"
                        },
                        if won { "won" } else { "lost" },
                        self.engine.session().moves_played().len()
                    );
                    if won {
                        self.tally.won += 1;
                    } else {
                        self.tally.lost += 1;
                    }
                    self.state = State::Idle;
                }
            }
            ServerLine::DrawAccepted => {
                if let State::Playing(game) = &self.state {
                    eprintln!(
                        "skald bot: game {} over: drawn (after {} plies)",
                        game.id,
                        self.engine.session().moves_played().len()
                    );
                    self.tally.drawn += 1;
                    self.state = State::Idle;
                }
            }
            ServerLine::Refused { command, reason } => match (command.as_str(), &self.state) {
                ("game", State::Playing(game)) => bail!(
                    "game {}: the server refused skald's move: {}",
                    game.id,
                    reason
                ),
                ("join_game_pending", State::Pending(id, _)) => {
                    eprintln!("skald bot: could not join game {id}: {reason}");
                    let id = *id;
                    self.open.remove(&id);
                    self.state = State::Idle;
                }
                ("new_game" | "join_game", _) => {
                    bail!("the server refused '{command}': {reason}")
                }
                _ => {}
            },
            ServerLine::JoinPending(_)
            | ServerLine::MoveAccepted
            | ServerLine::DrawOffered { .. }
            | ServerLine::LoggedIn
            | ServerLine::LoginRefused(_)
            | ServerLine::Other => {}
        }
        Ok(())
    }
}
