//! The server's state: the games in progress (each its own engine session under a random id,
//! bounded in number, the least recently used dropped first), who plays them, and the tickets
//! of their searches (cancelled when the game goes away; the engines are [`super::engines`]').

use super::engines::Ticket;
use super::ids::{GameId, lock, new_id};
use skald::engine::session::Session;
use skald::engine::{Side, named_skill, new_session, new_tafl_session};
use skald::variant::{Family, Variant};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The server's bounds and test settings (`skald serve`'s flags).
#[derive(Clone, Debug)]
pub struct Config {
    /// Games kept at once; a new game beyond it drops the least recently used.
    pub max_games: usize,
    /// Engine moves searched at once (and, separately, analyses run at once); more wait.
    pub max_searches: usize,
    /// Longest analysis search, ms (a move starts the next).
    pub analysis_ms: u64,
    /// A node cap on every search (tests: results that do not depend on the machine's speed).
    pub max_nodes: Option<u64>,
    /// The hard level's time per move, ms, if not [`Level::time_ms`] (tests: a search that only
    /// its cancellation ends).
    pub hard_ms: Option<u64>,
    /// The longest wait for a request's body once its headers are read.
    pub read_timeout: Duration,
}

/// The computer's strength in a game against it: a named skill level and a time per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Skill 2, at most 0.5 s a move.
    Easy,
    /// Skill 8, at most 1 s a move.
    Medium,
    /// Full strength, 2 s a move.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];

    /// `easy`, `medium` or `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The level of a name (any case).
    pub fn parse(s: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
    }

    /// The engine's skill level (`named_skill`).
    pub fn skill(self) -> u8 {
        named_skill(self.name()).expect("the levels are named skills")
    }

    /// The longest think per move, ms.
    pub fn time_ms(self) -> u64 {
        match self {
            Level::Easy => 500,
            Level::Medium => 1000,
            Level::Hard => 2000,
        }
    }
}

/// Who plays: the computer one side, or two people at one device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two people take turns on the page.
    Hotseat,
    /// A person plays `human`, the engine the other side at `level`.
    Computer {
        /// The person's side.
        human: Side,
        /// The engine's strength.
        level: Level,
    },
}

/// The rules a game is played by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    /// One of skald's variants.
    Variant(Variant),
    /// An OpenTafl rules string.
    OpenTafl(String),
}

impl Rules {
    /// A new session at the start position of these rules; or why the rules string cannot be
    /// played.
    pub fn new_session(&self) -> Result<Box<dyn Session>, String> {
        match self {
            Rules::Variant(v) => Ok(new_session(*v)),
            Rules::OpenTafl(text) => {
                let options = skald::tafl::opentafl::parse_rules(text)?;
                new_tafl_session(options)
            }
        }
    }

    /// The game family, whose names the game uses (sides, results): an OpenTafl game is tafl.
    pub fn family(&self) -> Family {
        match self {
            Rules::Variant(v) => v.family(),
            Rules::OpenTafl(_) => Family::Tafl,
        }
    }

    /// The variant a record of the game names (its tags' side names): an OpenTafl game's record
    /// carries its rules string and names the tafl sides.
    pub fn record_variant(&self) -> Variant {
        match self {
            Rules::Variant(v) => *v,
            Rules::OpenTafl(_) => Variant::Brandubh,
        }
    }
}

/// One game in progress.
pub struct Game {
    /// Its rules.
    pub rules: Rules,
    /// The position and the moves played (the engine's session).
    pub session: Box<dyn Session>,
    /// Who plays.
    pub mode: Mode,
    /// Counts changes of the position (moves, undo, loads): a search's answer for an older
    /// version is not played.
    pub version: u64,
    /// The engine is searching this game's move (or waits for an engine to do so).
    pub thinking: bool,
    /// Cancels the search of the engine's move, if any (waiting or running).
    pub search: Option<Ticket>,
    /// Cancels the analysis of this game, if any (waiting or running).
    pub analysis: Option<Ticket>,
    /// Last request for this game.
    pub last_used: Instant,
    /// Seed of the engine's choices below full strength.
    pub seed: u64,
}

impl Game {
    /// A new game at the start position of `rules` (`session` is at it, or at a position of
    /// the same rules).
    pub fn new(rules: Rules, session: Box<dyn Session>, mode: Mode) -> Game {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        Game {
            rules,
            session,
            mode,
            version: 0,
            thinking: false,
            search: None,
            analysis: None,
            last_used: Instant::now(),
            seed,
        }
    }

    /// The position changed: a running analysis (of the old position) is stopped.
    pub fn changed(&mut self) {
        self.version += 1;
        self.stop_analysis();
    }

    /// Stops the analysis, if any (or takes it out of the queue).
    pub fn stop_analysis(&mut self) {
        if let Some(s) = self.analysis.take() {
            s.cancel();
        }
    }

    /// The game is gone (deleted, dropped to make room): its analysis and the search of the
    /// engine's move are cancelled, waiting or running.
    pub fn cancel_searches(&mut self) {
        self.stop_analysis();
        if let Some(s) = self.search.take() {
            s.cancel();
        }
    }

    /// Whether the person has a move of their own to take back: in a hot-seat game any move;
    /// against the computer a move of the person's side (not only the computer's first).
    pub fn can_undo(&self) -> bool {
        let plies = self.session.moves_played().len();
        match self.mode {
            Mode::Hotseat => plies > 0,
            Mode::Computer { human, .. } => {
                // The sides take turns (a pass is a move): the side that moved first is the
                // side to move now after an even number of plies.
                let now = self.session.side_to_move();
                let first = if plies.is_multiple_of(2) {
                    now
                } else {
                    now.opponent()
                };
                plies >= 2 || (plies == 1 && first == human)
            }
        }
    }

    /// It is the engine's turn in a game against the computer that goes on.
    pub fn engine_to_move(&self) -> bool {
        match self.mode {
            Mode::Computer { human, .. } => {
                human != self.session.side_to_move() && !self.session.outcome().is_decided()
            }
            Mode::Hotseat => false,
        }
    }
}

/// The games in progress, by id.
pub struct Store {
    games: Mutex<HashMap<GameId, Arc<Mutex<Game>>>>,
    max_games: usize,
}

impl Store {
    /// An empty store keeping at most `max_games` games.
    pub fn new(max_games: usize) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            max_games: max_games.max(1),
        }
    }

    /// Adds a game under a new random id and returns the id; beyond the bound, the game used
    /// least recently is dropped (its searches cancelled).
    pub fn insert(&self, game: Game) -> GameId {
        let mut games = lock(&self.games);
        while games.len() >= self.max_games {
            let oldest = games
                .iter()
                .min_by_key(|(_, g)| lock(g).last_used)
                .map(|(&id, _)| id);
            match oldest.and_then(|id| games.remove(&id)) {
                Some(g) => lock(&g).cancel_searches(),
                None => break,
            }
        }
        let id = loop {
            let id = new_id();
            if !games.contains_key(&id) {
                break id;
            }
        };
        games.insert(id, Arc::new(Mutex::new(game)));
        id
    }

    /// The game `id`, if kept; marks it used now.
    pub fn get(&self, id: GameId) -> Option<Arc<Mutex<Game>>> {
        let game = lock(&self.games).get(&id).cloned()?;
        lock(&game).last_used = Instant::now();
        Some(game)
    }

    /// Whether `game` is still kept as game `id` (not deleted, not dropped to make room).
    pub fn holds(&self, id: GameId, game: &Arc<Mutex<Game>>) -> bool {
        lock(&self.games)
            .get(&id)
            .is_some_and(|g| Arc::ptr_eq(g, game))
    }

    /// Drops game `id` (its searches cancelled); `false` if there was none.
    pub fn remove(&self, id: GameId) -> bool {
        match lock(&self.games).remove(&id) {
            Some(g) => {
                lock(&g).cancel_searches();
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the computer, undo needs a move of the person's: not when only the computer has
    /// moved (the person plays second).
    #[test]
    fn undo_needs_a_move_of_the_person() {
        let computer = |human| Mode::Computer {
            human,
            level: Level::Easy,
        };
        let mut g = Game::new(
            Rules::Variant(Variant::Brandubh),
            new_session(Variant::Brandubh),
            computer(Side::Second),
        );
        assert!(!g.can_undo());
        let first = g.session.legal_moves()[0];
        g.session.play(first).unwrap();
        assert!(!g.can_undo(), "only the computer's first move");
        let reply = g.session.legal_moves()[0];
        g.session.play(reply).unwrap();
        assert!(g.can_undo());
        let mut g = Game::new(
            Rules::Variant(Variant::Brandubh),
            new_session(Variant::Brandubh),
            computer(Side::First),
        );
        assert!(!g.can_undo());
        let first = g.session.legal_moves()[0];
        g.session.play(first).unwrap();
        assert!(g.can_undo());
    }
}
