//! The server's state: the games in progress (each its own engine session under a random id,
//! bounded in number, the least recently used dropped first) and the engines that search for
//! them (bounded in number: a search waits for a free engine, the shortest first, and a
//! search whose game is deleted or dropped is cancelled, waiting or running).

use skald::engine::session::Session;
use skald::engine::{Engine, Side, Stopper, named_skill, new_session, new_tafl_session};
use skald::variant::Variant;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

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

    /// The variant whose names the game uses (sides, results): an OpenTafl game is tafl.
    pub fn naming(&self) -> Variant {
        match self {
            Rules::Variant(v) => *v,
            Rules::OpenTafl(_) => Variant::Brandubh,
        }
    }
}

/// A game's id: 128 random bits from the operating system (unguessable: a page of another site
/// cannot name a game), written as 32 lowercase hex digits.
pub type GameId = u128;

/// A new random game id.
pub fn new_id() -> GameId {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random numbers");
    u128::from_le_bytes(bytes)
}

/// An id as the API writes it: 32 lowercase hex digits.
pub fn id_text(id: GameId) -> String {
    format!("{id:032x}")
}

/// The id of its text (32 hex digits), if it is one.
pub fn parse_id(text: &str) -> Option<GameId> {
    if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u128::from_str_radix(text, 16).ok()
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
    /// The engine is searching this game's move (or waits for an engine to do so).
    pub thinking: bool,
    /// Cancels the search of the engine's move, if any (waiting or running).
    pub search: Option<SearchHandle>,
    /// Cancels the analysis of this game, if any (waiting or running).
    pub analysis: Option<SearchHandle>,
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
            search: None,
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

/// A set of engines for one kind of search (the quick engine moves, the long ones, analyses):
/// at most as many searches run at once as there are engines. More wait in a queue that hands
/// a free engine to the search with the shortest time budget first (first come first among
/// equals); a search leaves the queue, or stops, when it is cancelled ([`SearchHandle`]).
/// Searches run on tokio's blocking threads.
pub struct Engines {
    pool: Arc<Mutex<Pool>>,
}

/// The engines of an [`Engines`] and the searches waiting for one.
struct Pool {
    /// The idle engines.
    idle: Vec<IdleEngine>,
    /// The searches waiting for an engine (never while one is idle).
    waiting: Vec<Waiter>,
    /// The number of the next [`SearchHandle`].
    next: u64,
}

/// An idle engine and the id of the game it searched last (its tables are kept for the same
/// game and emptied for another).
type IdleEngine = (Engine, Option<GameId>);

/// A search waiting for an engine.
struct Waiter {
    /// Its time budget, ms: the shortest is served first.
    budget_ms: u64,
    /// Its [`SearchHandle`]'s number (first come first among equal budgets).
    seq: u64,
    /// Where its engine goes.
    tx: tokio::sync::oneshot::Sender<Lease>,
}

/// An engine lent to one search; back to the pool (to the next waiting search) when dropped.
struct Lease {
    engine: Option<IdleEngine>,
    pool: Arc<Mutex<Pool>>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            release(&self.pool, engine);
        }
    }
}

/// Gives `engine` to the waiting search with the shortest budget (the first of those), or
/// keeps it idle when none waits.
fn release(pool: &Arc<Mutex<Pool>>, mut engine: IdleEngine) {
    loop {
        let next = {
            let mut p = lock(pool);
            let best = p
                .waiting
                .iter()
                .enumerate()
                .min_by_key(|(_, w)| (w.budget_ms, w.seq))
                .map(|(i, _)| i);
            match best {
                Some(i) => p.waiting.remove(i),
                None => {
                    p.idle.push(engine);
                    return;
                }
            }
        };
        let lease = Lease {
            engine: Some(engine),
            pool: Arc::clone(pool),
        };
        match next.tx.send(lease) {
            Ok(()) => return,
            // Its request went away meanwhile: the next one.
            Err(mut lease) => engine = lease.engine.take().expect("the lease just made"),
        }
    }
}

/// Cancels one search: stops it if it runs, takes it out of the queue if it waits (its request
/// then answers at once), and keeps it from starting. Cloned into the game it searches for.
#[derive(Clone)]
pub struct SearchHandle {
    stopper: Stopper,
    seq: u64,
    pool: Arc<Mutex<Pool>>,
}

impl SearchHandle {
    /// Cancels the search (waiting, running, or not yet started); nothing if it is over.
    pub fn cancel(&self) {
        self.stopper.stop();
        lock(&self.pool).waiting.retain(|w| w.seq != self.seq);
    }

    /// Whether [`SearchHandle::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.stopper.is_stopped()
    }
}

/// Takes a waiting search out of the queue when its request goes away.
struct Queued<'a> {
    pool: &'a Mutex<Pool>,
    seq: u64,
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        lock(self.pool).waiting.retain(|w| w.seq != self.seq);
    }
}

impl Engines {
    /// `count` engines (at least one), each with the default hash table (16 MiB) and one
    /// thread.
    pub fn new(count: usize) -> anyhow::Result<Engines> {
        let count = count.max(1);
        let engines = (0..count)
            .map(|_| Engine::new().map(|e| (e, None)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Engines {
            pool: Arc::new(Mutex::new(Pool {
                idle: engines,
                waiting: Vec::new(),
                next: 0,
            })),
        })
    }

    /// `true` when every engine is busy (a search would wait).
    pub fn all_busy(&self) -> bool {
        lock(&self.pool).idle.is_empty()
    }

    /// The searches waiting for an engine.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        lock(&self.pool).waiting.len()
    }

    /// The handle of a new search, to be [`Engines::run`] once (and kept by its game, to
    /// cancel it).
    pub fn handle(&self) -> SearchHandle {
        let mut p = lock(&self.pool);
        p.next += 1;
        SearchHandle {
            stopper: Stopper::new(),
            seq: p.next,
            pool: Arc::clone(&self.pool),
        }
    }

    /// Runs `f` with a free engine set to play `session` (of game `game`), once one is free
    /// (searches with a shorter `budget_ms` first); `f` is given the search's stopper, which
    /// [`SearchHandle::cancel`] stops. `None` if the search was cancelled before it started, or
    /// if `f` panicked (a bug, caught: the engine is still put back).
    pub async fn run<T: Send + 'static>(
        &self,
        handle: &SearchHandle,
        budget_ms: u64,
        game: GameId,
        session: Box<dyn Session>,
        f: impl FnOnce(&mut Engine, &Stopper) -> T + Send + 'static,
    ) -> Option<T> {
        let waiting = {
            let mut p = lock(&self.pool);
            if handle.is_cancelled() {
                return None;
            }
            match p.idle.pop() {
                Some(engine) => Err(Lease {
                    engine: Some(engine),
                    pool: Arc::clone(&self.pool),
                }),
                None => {
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    p.waiting.push(Waiter {
                        budget_ms,
                        seq: handle.seq,
                        tx,
                    });
                    Ok(rx)
                }
            }
        };
        let lease = match waiting {
            Err(lease) => lease,
            Ok(rx) => {
                let _queued = Queued {
                    pool: &self.pool,
                    seq: handle.seq,
                };
                // An error: cancelled (taken out of the queue).
                rx.await.ok()?
            }
        };
        let stopper = handle.stopper.clone();
        tokio::task::spawn_blocking(move || {
            let mut lease = lease;
            let (engine, last) = lease.engine.as_mut().expect("a lease holds its engine");
            if stopper.is_stopped() {
                return None;
            }
            if *last != Some(game) {
                engine.clear_tables();
                *last = Some(game);
            }
            engine.set_session(session);
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(engine, &stopper))).ok();
            drop(lease);
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

    #[test]
    fn ids_are_random_128_bit_hex() {
        let a = new_id();
        let b = new_id();
        assert_ne!(a, b);
        let text = id_text(a);
        assert_eq!(text.len(), 32);
        assert_eq!(parse_id(&text), Some(a));
        assert_eq!(parse_id(&id_text(7)), Some(7));
        for bad in [
            "",
            "7",
            "+0000000000000000000000000000007",
            &format!("{text}0"),
            "zz",
        ] {
            assert_eq!(parse_id(bad), None, "{bad}");
        }
    }

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
        let first = g.session.legal_moves()[0].clone();
        g.session.play(&first).unwrap();
        assert!(!g.can_undo(), "only the computer's first move");
        let reply = g.session.legal_moves()[0].clone();
        g.session.play(&reply).unwrap();
        assert!(g.can_undo());
        let mut g = Game::new(
            Rules::Variant(Variant::Brandubh),
            new_session(Variant::Brandubh),
            computer(Side::First),
        );
        assert!(!g.can_undo());
        let first = g.session.legal_moves()[0].clone();
        g.session.play(&first).unwrap();
        assert!(g.can_undo());
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    /// Waits (yielding) until `done` holds.
    async fn until(what: &str, done: impl Fn() -> bool) {
        for _ in 0..60_000 {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        panic!("never: {what}");
    }

    /// One engine, held by a search; more wait: the shortest budget goes first, then first come
    /// first; a cancelled one leaves the queue at once (while the engine is still held), and so
    /// does one whose request went away.
    #[test]
    fn the_shortest_search_goes_first_and_cancelled_ones_leave_the_queue() {
        runtime().block_on(async {
            let engines = Arc::new(Engines::new(1).unwrap());
            let order = Arc::new(Mutex::new(Vec::new()));
            let (hold, held) = std::sync::mpsc::channel::<()>();
            let search =
                |name: &'static str, budget: u64, hold: Option<std::sync::mpsc::Receiver<()>>| {
                    let (engines, order) = (Arc::clone(&engines), Arc::clone(&order));
                    let handle = engines.handle();
                    let h = handle.clone();
                    let task = tokio::spawn(async move {
                        let session = new_session(Variant::Brandubh);
                        engines
                            .run(&h, budget, 1, session, move |_, _| {
                                if let Some(held) = hold {
                                    held.recv().unwrap();
                                }
                                lock(&order).push(name);
                            })
                            .await
                    });
                    (handle, task)
                };
            let (_, first) = search("hard 1", 2000, Some(held));
            until("the first search runs", || engines.all_busy()).await;
            let (_, hard) = search("hard 2", 2000, None);
            until("queued", || engines.waiting() == 1).await;
            let (_, easy) = search("easy", 500, None);
            until("queued", || engines.waiting() == 2).await;
            let (_, medium) = search("medium", 1000, None);
            let (cancelled, gone) = search("cancelled", 500, None);
            let (_, abandoned) = search("abandoned", 100, None);
            until("queued", || engines.waiting() == 5).await;
            cancelled.cancel();
            assert_eq!(gone.await.unwrap(), None, "cancelled: answered at once");
            abandoned.abort();
            until("the abandoned search leaves", || engines.waiting() == 3).await;
            assert!(lock(&order).is_empty(), "the engine is still held");
            hold.send(()).unwrap();
            for task in [first, easy, medium, hard] {
                assert_eq!(task.await.unwrap(), Some(()));
            }
            assert_eq!(*lock(&order), ["hard 1", "easy", "medium", "hard 2"]);
            assert!(!engines.all_busy());
        });
    }

    /// A running search is stopped by its cancellation (the stopper the search reads).
    #[test]
    fn a_running_search_is_stopped_when_cancelled() {
        runtime().block_on(async {
            let engines = Arc::new(Engines::new(1).unwrap());
            let handle = engines.handle();
            let started = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let task = tokio::spawn({
                let (engines, handle) = (Arc::clone(&engines), handle.clone());
                let started = Arc::clone(&started);
                async move {
                    let session = new_session(Variant::Brandubh);
                    engines
                        .run(&handle, 2000, 1, session, move |_, stop| {
                            started.store(true, std::sync::atomic::Ordering::SeqCst);
                            // At most a minute: a hang fails the test, not the suite.
                            for _ in 0..60_000 {
                                if stop.is_stopped() {
                                    return true;
                                }
                                std::thread::sleep(Duration::from_millis(1));
                            }
                            false
                        })
                        .await
                }
            });
            until("the search runs", || {
                started.load(std::sync::atomic::Ordering::SeqCst)
            })
            .await;
            handle.cancel();
            assert_eq!(task.await.unwrap(), Some(true));
            // Cancelled before it starts: it never runs.
            let late = engines.handle();
            late.cancel();
            let ran = engines
                .run(&late, 500, 1, new_session(Variant::Brandubh), |_, _| ())
                .await;
            assert_eq!(ran, None);
        });
    }
}
