//! The server's state: the games in progress (each its own engine session, bounded in number,
//! the least recently used dropped first) and the engines that search for them (bounded in
//! number: a search waits for a free engine).

use skald::engine::session::Session;
use skald::engine::{Engine, Side, Stopper, named_skill, new_session, new_tafl_session};
use skald::variant::Variant;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Locks a mutex, taking the data of a poisoned one (a panicking request must not end the
/// server).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

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

    /// The variant whose names the game uses (sides, results): an OpenTafl game is tafl.
    pub fn naming(&self) -> Variant {
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
    /// The marked squares of the board and what they are: `("d4", "throne")`, `("a1",
    /// "corner")`.
    pub marks: Vec<(String, &'static str)>,
    /// Counts changes of the position (moves, undo, loads): a search's answer for an older
    /// version is not played.
    pub version: u64,
    /// The engine is searching this game's move.
    pub thinking: bool,
    /// Stops the running analysis of this game, if any.
    pub analysis: Option<Stopper>,
    /// Last request for this game.
    pub last_used: Instant,
    /// Seed of the engine's choices below full strength.
    pub seed: u64,
}

impl Game {
    /// A new game at the start position of `rules` (`session` is at it, or at a position of
    /// the same rules).
    pub fn new(rules: Rules, session: Box<dyn Session>, mode: Mode) -> Game {
        let marks = rules
            .new_session()
            .map(|start| marks_of(start.as_ref(), rules.naming().is_tafl()))
            .unwrap_or_default();
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        Game {
            rules,
            session,
            mode,
            marks,
            version: 0,
            thinking: false,
            analysis: None,
            last_used: Instant::now(),
            seed,
        }
    }

    /// The marked squares to draw now: those of the start position, and any the current
    /// position shows empty that the start position hid under a piece (an Ashton camp left by
    /// its attackers).
    pub fn marks_now(&self) -> Vec<(String, &'static str)> {
        let mut marks = self.marks.clone();
        for (square, kind) in marks_of(self.session.as_ref(), self.rules.naming().is_tafl()) {
            if !marks.iter().any(|(s, _)| *s == square) {
                marks.push((square, kind));
            }
        }
        marks
    }

    /// The position changed: a running analysis (of the old position) is stopped.
    pub fn changed(&mut self) {
        self.version += 1;
        self.stop_analysis();
    }

    /// Stops the running analysis, if any.
    pub fn stop_analysis(&mut self) {
        if let Some(s) = self.analysis.take() {
            s.stop();
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

/// The name of a square: file letter and rank from 1 (`d4`).
pub fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The squares named in a move text (`d1-b1` → d1, b1; `f2` → f2; `a7a5` → a7, a5; `0000` →
/// none).
pub fn move_squares(mv: &str) -> Vec<String> {
    let b = mv.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 {
                out.push(mv[i..j].to_string());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// (file, rank) of a square name, from 0.
pub fn square_coords(name: &str) -> Option<(usize, usize)> {
    let mut chars = name.chars();
    let file = chars.next().filter(char::is_ascii_lowercase)? as usize - 'a' as usize;
    let rank: usize = chars.as_str().parse().ok()?;
    Some((file, rank.checked_sub(1)?))
}

/// The marked squares of a tafl board at its start position (the throne, whoever stands on it,
/// and the empty marked squares of the game's diagram: the corners of corner-escape games).
fn marks_of(start: &dyn Session, tafl: bool) -> Vec<(String, &'static str)> {
    if !tafl {
        return Vec::new();
    }
    let size = start.board_rows().len();
    let centre = square_name(size / 2, size / 2);
    let mut out = vec![(centre.clone(), "throne")];
    for line in start.board().lines() {
        let mut words = line.split_whitespace();
        let Some(Ok(rank)) = words.next().map(str::parse::<usize>) else {
            continue;
        };
        for (file, w) in words.enumerate() {
            if w == "+" && rank >= 1 {
                let name = square_name(file, rank - 1);
                if name != centre {
                    out.push((name, "corner"));
                }
            }
        }
    }
    out
}

/// The games in progress, by id.
pub struct Store {
    games: Mutex<HashMap<u64, Arc<Mutex<Game>>>>,
    next_id: AtomicU64,
    max_games: usize,
}

impl Store {
    /// An empty store keeping at most `max_games` games.
    pub fn new(max_games: usize) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            max_games: max_games.max(1),
        }
    }

    /// Adds a game and returns its id; beyond the bound, the game used least recently is
    /// dropped (its analysis stopped).
    pub fn insert(&self, game: Game) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut games = lock(&self.games);
        while games.len() >= self.max_games {
            let oldest = games
                .iter()
                .min_by_key(|(_, g)| lock(g).last_used)
                .map(|(&id, _)| id);
            match oldest.and_then(|id| games.remove(&id)) {
                Some(g) => lock(&g).stop_analysis(),
                None => break,
            }
        }
        games.insert(id, Arc::new(Mutex::new(game)));
        id
    }

    /// The game `id`, if kept; marks it used now.
    pub fn get(&self, id: u64) -> Option<Arc<Mutex<Game>>> {
        let game = lock(&self.games).get(&id).cloned()?;
        lock(&game).last_used = Instant::now();
        Some(game)
    }

    /// Whether `game` is still kept as game `id` (not deleted, not dropped to make room).
    pub fn holds(&self, id: u64, game: &Arc<Mutex<Game>>) -> bool {
        lock(&self.games)
            .get(&id)
            .is_some_and(|g| Arc::ptr_eq(g, game))
    }

    /// Drops game `id`; `false` if there was none.
    pub fn remove(&self, id: u64) -> bool {
        match lock(&self.games).remove(&id) {
            Some(g) => {
                lock(&g).stop_analysis();
                true
            }
            None => false,
        }
    }
}

/// A set of engines for one kind of search (engine moves, analyses): at most as many searches
/// run at once as there are engines; more wait for one to be free. Searches run on tokio's
/// blocking threads.
pub struct Engines {
    free: Arc<tokio::sync::Semaphore>,
    /// The idle engines, each with the id of the game it searched last (its tables are kept
    /// for the same game and emptied for another).
    idle: Arc<Mutex<Vec<IdleEngine>>>,
}

/// An idle engine and the id of the game it searched last.
type IdleEngine = (Engine, Option<u64>);

impl Engines {
    /// `count` engines (at least one), each with the default hash table (16 MiB) and one
    /// thread.
    pub fn new(count: usize) -> anyhow::Result<Engines> {
        let count = count.max(1);
        let engines = (0..count)
            .map(|_| Engine::new().map(|e| (e, None)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Engines {
            free: Arc::new(tokio::sync::Semaphore::new(count)),
            idle: Arc::new(Mutex::new(engines)),
        })
    }

    /// `true` when every engine is busy (a search would wait).
    pub fn all_busy(&self) -> bool {
        self.free.available_permits() == 0
    }

    /// Runs `f` with a free engine set to play `session` (of game `game`), once one is free;
    /// `None` if `f` panicked (a bug, caught: the engine is still put back).
    pub async fn run<T: Send + 'static>(
        &self,
        game: u64,
        session: Box<dyn Session>,
        f: impl FnOnce(&mut Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let permit = Arc::clone(&self.free).acquire_owned().await.ok()?;
        let idle = Arc::clone(&self.idle);
        tokio::task::spawn_blocking(move || {
            let (mut engine, last) = lock(&idle).pop().expect("a permit means a free engine");
            if last != Some(game) {
                engine.clear_tables();
            }
            engine.set_session(session);
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut engine))).ok();
            lock(&idle).push((engine, Some(game)));
            drop(permit);
            result
        })
        .await
        .ok()
        .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_moves() {
        assert_eq!(move_squares("d1-b1"), ["d1", "b1"]);
        assert_eq!(move_squares("a7a5"), ["a7", "a5"]);
        assert_eq!(move_squares("k11-k10"), ["k11", "k10"]);
        assert_eq!(move_squares("f2"), ["f2"]);
        assert!(move_squares("0000").is_empty());
        assert_eq!(square_coords("k11"), Some((10, 10)));
        assert_eq!(square_coords("a0"), None);
    }

    #[test]
    fn marks_of_the_boards() {
        let copenhagen = Game::new(
            Rules::Variant(Variant::Copenhagen),
            new_session(Variant::Copenhagen),
            Mode::Hotseat,
        );
        let names: Vec<&str> = copenhagen.marks.iter().map(|(s, _)| s.as_str()).collect();
        for sq in ["f6", "a1", "k1", "a11", "k11"] {
            assert!(names.contains(&sq), "{names:?}");
        }
        let ataxx = Game::new(
            Rules::Variant(Variant::Ataxx),
            new_session(Variant::Ataxx),
            Mode::Hotseat,
        );
        assert!(ataxx.marks.is_empty());
    }
}
