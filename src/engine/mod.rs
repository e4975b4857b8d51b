//! The engine every front-end drives: the game in progress, the transposition table, the
//! options, and the search threads with their per-thread tables. UCI/UAI, the OpenTafl protocol
//! and the command-line tools parse their input, call an [`Engine`] and format its answers; none
//! of them builds search machinery of its own.
//!
//! - [`session`]: the game in progress ([`Session`]) with typed errors and structured access.
//! - [`options`]: the one registry of options (UCI `option` lines, `setoption`, CLI flags).
//! - [`Engine`]: owns a [`Session`], a [`TranspositionTable`] (`Hash`), a [`ThreadPool`]
//!   (`Threads`, threads and tables living from one search to the next) and the other option
//!   values. [`Engine::go`] starts a search on the pool and returns at once; it reports through
//!   callbacks. [`Engine::stop`], [`Engine::ponderhit`] and [`Engine::wait`] steer it.
//!   [`Engine::search`] is the same search, waited for, for tools that need nothing else.
//!
//! A `go` while a search runs is queued: the running search ends (by its limits or `stop`), then
//! the new one runs, as in Stockfish. `stop` ends every search started or queued.

pub mod options;
pub mod session;
mod skill;

pub use crate::eval::{EVAL_FILE_DEFAULT, EVAL_FILE_HAND};
pub use crate::game::{Capture, Outcome, Reason, Side};
pub use crate::search::tt::DEFAULT_HASH_MIB;
pub use crate::search::{Clock, Limits, MATE, MATE_BOUND, Score};
use crate::search::{Control, SearchOptions, ThreadPool, TranspositionTable, tt::TableError};
pub use crate::tuning::SearchParams;
use crate::variant::Variant;
use options::{OptionError, Setting};
use session::{SearchContext, TextReport, TextResult};
pub use session::{Session, new_session, new_tafl_session};
pub use skill::{MAX_SKILL, Skill, named_skill};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Why the engine cannot be made or changed.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The transposition table cannot be allocated.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The operating system refused a search thread.
    #[error("cannot start the search threads: {0}")]
    Threads(#[from] std::io::Error),
    /// An option value was refused (e.g. a bad `EvalFile`).
    #[error(transparent)]
    Option(#[from] OptionError),
    /// A search failed inside (a bug, caught).
    #[error(transparent)]
    Search(#[from] SearchFailed),
}

/// How a search started by [`Engine::go`] ended.
#[derive(Clone, Debug)]
pub enum Finished {
    /// The search's answer.
    Done(TextResult),
    /// The game was already over when the search was to start: there is no move to play.
    GameOver(Outcome),
    /// The search failed inside (a bug): `fallback` is a legal move to play instead, if any.
    InternalError {
        /// The first legal move, if the game goes on.
        fallback: Option<String>,
    },
}

/// A search failed inside (a bug, caught): the engine is still usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error in the search")]
pub struct SearchFailed {
    /// A legal move to play instead (the first generated), if the game goes on.
    pub fallback: Option<String>,
}

/// Ends searches of [`Engine::search`] ([`SearchRequest::stopper`]) from another thread. Once stopped it
/// stays stopped: every later search with it ends after depth 1.
#[derive(Clone, Debug)]
pub struct Stopper(Arc<Control>);

impl Stopper {
    /// A stopper that has not stopped.
    pub fn new() -> Stopper {
        Stopper(Control::new(false))
    }

    /// Stops the searches run with this stopper, now and later.
    pub fn stop(&self) {
        self.0.stop();
    }

    /// `true` once [`Stopper::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.is_stopped()
    }
}

impl Default for Stopper {
    fn default() -> Self {
        Stopper::new()
    }
}

/// One search as a front-end asks for it: its limits, and settings for this search only over
/// the engine's options (`None`: the option's value), leaving the options as they are (OpenTafl's
/// `analyze` asks for its own MultiPV, `play` for a skill level). A [`Limits`] converts to a
/// request with no overrides.
#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    /// Depth, nodes, time or clocks, infinite or ponder.
    pub limits: Limits,
    /// Principal variations to find (UCI `MultiPV`), 1 ..= [`options::MAX_MULTIPV`].
    pub multipv: Option<usize>,
    /// Milliseconds kept per move for communication (UCI `Move Overhead`).
    pub move_overhead_ms: Option<u64>,
    /// Playing strength, 0 ..= [`MAX_SKILL`] (UCI `Skill Level`).
    pub skill_level: Option<u8>,
    /// Ends the search early from another thread (UCI `bench` stopped by `stop`); a search of
    /// [`Engine::search`] without one runs to its limits.
    pub stopper: Option<Stopper>,
}

impl SearchRequest {
    fn applied_to(&self, options: &SearchOptions) -> SearchOptions {
        let mut options = options.clone();
        if let Some(n) = self.multipv {
            options.multipv = n.clamp(1, options::MAX_MULTIPV as usize);
        }
        if let Some(ms) = self.move_overhead_ms {
            options.move_overhead_ms = ms;
        }
        options
    }
}

impl From<Limits> for SearchRequest {
    fn from(limits: Limits) -> SearchRequest {
        SearchRequest {
            limits,
            ..SearchRequest::default()
        }
    }
}

impl From<&Limits> for SearchRequest {
    fn from(limits: &Limits) -> SearchRequest {
        SearchRequest::from(limits.clone())
    }
}

/// One search started by `go` and not yet fully ended.
struct Running {
    id: u64,
    control: Arc<Control>,
    /// Set before the search writes its answer: from then on it no longer counts as running,
    /// so a client answering at once is never told a search runs.
    answering: bool,
    /// The search has no limit of its own (infinite, ponder, or no depth/nodes/time for the
    /// side to move): at end of input it is stopped rather than waited for.
    unbounded: bool,
}

#[derive(Default)]
struct Searches {
    list: Mutex<Vec<Running>>,
    changed: Condvar,
    next_id: Mutex<u64>,
}

impl Searches {
    fn lock(&self) -> MutexGuard<'_, Vec<Running>> {
        self.list.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set_answering(&self, id: u64) {
        if let Some(r) = self.lock().iter_mut().find(|r| r.id == id) {
            r.answering = true;
        }
    }

    fn remove(&self, id: u64) {
        self.lock().retain(|r| r.id != id);
        self.changed.notify_all();
    }
}

/// The engine: a game in progress, its options, the hash table and the search threads.
pub struct Engine {
    variant: Variant,
    session: Box<dyn Session>,
    search_options: SearchOptions,
    /// Playing strength, 0 ..= [`MAX_SKILL`] (UCI `Skill Level`).
    skill_level: u8,
    /// Seed of the random choice among near-best moves below full strength.
    seed: u64,
    /// The search values that `Tune …` options set (a tuning build), over the variant's own
    /// ([`Session::search_params`]); `None` until one is set.
    tuned: Option<SearchParams>,
    hash_mib: usize,
    ponder: bool,
    tt: Arc<TranspositionTable>,
    pool: Arc<ThreadPool>,
    searches: Arc<Searches>,
}

impl Engine {
    /// An engine playing brandubh from its start position, every option at its default
    /// (`Hash` 16 MiB, one thread). Errors if the table or the thread cannot be had.
    pub fn new() -> Result<Engine, EngineError> {
        let hash_mib = crate::search::tt::DEFAULT_HASH_MIB;
        Ok(Engine {
            variant: Variant::Brandubh,
            session: new_session(Variant::Brandubh),
            search_options: SearchOptions::default(),
            skill_level: MAX_SKILL,
            seed: 0,
            tuned: None,
            hash_mib,
            ponder: false,
            tt: Arc::new(TranspositionTable::new(hash_mib)?),
            pool: Arc::new(ThreadPool::new(1)?),
            searches: Arc::default(),
        })
    }

    /// The variant in play (its preset; a session set by [`Engine::set_session`] keeps the
    /// variant it was set with).
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The game in progress.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// The game in progress, to change. A running search is not affected: it searches the
    /// position it was started on.
    pub fn session_mut(&mut self) -> &mut dyn Session {
        self.session.as_mut()
    }

    /// Plays `session` from now on (e.g. a game under OpenTafl rules, or an earlier state of
    /// the same game put back). The tables are kept: call [`Engine::clear_tables`] for a new
    /// game.
    pub fn set_session(&mut self, session: Box<dyn Session>) {
        self.session = session;
    }

    /// Starts a new game of `variant` from its start position; the tables are emptied.
    ///
    /// Tuning values set by `Tune …` options are dropped: the new game's family has its own.
    pub fn set_variant(&mut self, variant: Variant) {
        self.variant = variant;
        self.tuned = None;
        self.set_session(new_session(variant));
        self.clear_tables();
    }

    /// A new game of the same variant (UCI `ucinewgame`): the start position, empty tables.
    /// Tuning values set by `Tune …` options are kept (same variant, same family): SPSA sets
    /// them once per engine process and the match runner starts every game with `ucinewgame`.
    pub fn new_game(&mut self) {
        let tuned = self.tuned;
        self.set_variant(self.variant);
        self.tuned = tuned;
    }

    /// Empties the transposition table and every thread's history tables. Waits for the
    /// running searches to end first.
    pub fn clear_tables(&mut self) {
        self.wait();
        self.tt.clear();
        self.pool.clear();
    }

    /// The search settings that the options give (threads, MultiPV, overhead, skill, …), with
    /// the search values of the game in progress ([`Session::search_params`], or those that
    /// `Tune …` options set).
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            params: self.search_params(),
            ..self.search_options.clone()
        }
    }

    /// The search's tuning values for the game in progress: those that `Tune …` options set,
    /// else the variant's own ([`Session::search_params`]).
    pub fn search_params(&self) -> SearchParams {
        self.tuned.unwrap_or_else(|| self.session.search_params())
    }

    /// The transposition table's size, MiB.
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// Whether the GUI said it may ask for pondering (UCI option `Ponder`).
    pub fn ponder_enabled(&self) -> bool {
        self.ponder
    }

    /// Sets the seed of the random choice at reduced skill levels (the CLI's `--seed`).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Sets an option of the registry ([`options::registry`]) by name; the value as text
    /// (ignored for buttons). Refused while a search runs; on any error nothing changes.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let setting = options::parse(name, value)?;
        if self.is_searching() {
            let spec = options::find(name).ok_or_else(|| OptionError::Unknown(name.into()))?;
            return Err(OptionError::Busy(spec.name));
        }
        self.apply(setting)
    }

    /// Applies a checked setting.
    pub fn apply(&mut self, setting: Setting) -> Result<(), OptionError> {
        match setting {
            Setting::Variant(v) => {
                if v != self.variant {
                    self.set_variant(v);
                }
            }
            Setting::Hash(mib) => self.resize_hash(mib)?,
            Setting::Threads(n) => {
                if n != self.pool.len() {
                    self.wait();
                    // The old pool's threads end (dropping it joins them) before the new ones
                    // start; a one-thread pool stands in meanwhile.
                    let interim = ThreadPool::new(1).map_err(|e| OptionError::BadValue {
                        name: "Threads",
                        value: n.to_string(),
                        expected: format!("a thread count the system allows ({e})"),
                    })?;
                    self.pool = Arc::new(interim);
                    self.search_options.threads = 1;
                    let pool = ThreadPool::new(n).map_err(|e| OptionError::BadValue {
                        name: "Threads",
                        value: n.to_string(),
                        expected: format!("a thread count the system allows ({e})"),
                    })?;
                    self.pool = Arc::new(pool);
                }
                self.search_options.threads = n;
            }
            Setting::MultiPv(n) => self.search_options.multipv = n,
            Setting::MoveOverhead(ms) => self.search_options.move_overhead_ms = ms,
            Setting::SkillLevel(l) => self.skill_level = l,
            Setting::BasicSearch(b) => self.search_options.basic = b,
            Setting::Ponder(b) => self.ponder = b,
            Setting::ClearHash => self.clear_tables(),
            Setting::EvalFile(value) => {
                // The reader of the family that has a network (the variant registry's).
                let load = crate::variant::network_loader();
                let choice =
                    crate::eval::EvalChoice::from_eval_file(&value, load).map_err(|e| {
                        OptionError::EvalFile {
                            error: e.to_string(),
                            current: self.search_options.eval.eval_file().to_string(),
                        }
                    })?;
                self.wait();
                self.search_options.eval = choice;
                // The table's static evaluations are the old evaluation's.
                self.clear_tables();
            }
            Setting::Tune(name, value) => {
                let mut params = self.search_params();
                params.set(name, value);
                self.tuned = Some(params);
            }
        }
        Ok(())
    }

    fn resize_hash(&mut self, mib: usize) -> Result<(), OptionError> {
        if mib == self.hash_mib {
            return Ok(());
        }
        self.wait();
        // Free the old table first so that both never need to fit at once.
        let small = TranspositionTable::new(1).map_err(|e| OptionError::Table(e.to_string()))?;
        self.tt = Arc::new(small);
        match TranspositionTable::new(mib) {
            Ok(t) => {
                self.tt = Arc::new(t);
                self.hash_mib = mib;
                Ok(())
            }
            Err(e) => {
                let (keep, mib) = match TranspositionTable::new(self.hash_mib) {
                    Ok(t) => (t, self.hash_mib),
                    Err(_) => {
                        let mib = crate::search::tt::DEFAULT_HASH_MIB;
                        let t = TranspositionTable::new(mib)
                            .map_err(|e| OptionError::Table(e.to_string()))?;
                        (t, mib)
                    }
                };
                self.tt = Arc::new(keep);
                self.hash_mib = mib;
                Err(OptionError::Table(format!("{e}; keeping {mib} MiB")))
            }
        }
    }

    /// How full the transposition table is, permill.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// `true` while a search started by [`Engine::go`] runs (or waits its turn) and has not
    /// begun to answer.
    pub fn is_searching(&self) -> bool {
        self.searches.lock().iter().any(|r| !r.answering)
    }

    /// Starts a search of the current position with `limits` on the search threads and returns
    /// at once. `report` is called after each completed depth (and MultiPV line), `done` once
    /// with the answer, both on the search thread. A search already running is let finish
    /// first; the position is the one set now. Errors only if the search thread is gone.
    pub fn go(
        &mut self,
        limits: Limits,
        mut report: impl FnMut(&TextReport) + Send + 'static,
        done: impl FnOnce(Finished) + Send + 'static,
    ) -> Result<(), EngineError> {
        let control = Control::new(limits.ponder);
        // No limit of its own (no depth, nodes or movetime, no clock for the side to move): it
        // searches until `stop`, as `go infinite` does (protocol.md).
        let no_limit = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.time[self.session.side_to_move().index()].is_none();
        let until_stop = limits.infinite || no_limit;
        let unbounded = until_stop || limits.ponder;
        let id = {
            let mut next = self
                .searches
                .next_id
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            *next += 1;
            *next
        };
        self.searches.lock().push(Running {
            id,
            control: Arc::clone(&control),
            answering: false,
            unbounded,
        });
        let session = self.session.boxed_clone();
        let options = self.search_options();
        let (skill, seed) = (Skill::at(self.skill_level), self.seed);
        let tt = Arc::clone(&self.tt);
        let pool = Arc::clone(&self.pool);
        let searches = Arc::clone(&self.searches);

        let sent = self.pool.spawn_main(move |data| {
            // The game is decided here, on the search thread, in the queue's order: the command
            // loop never waits for a search to learn that it has nothing to search.
            let outcome = session.outcome();
            let found = if outcome.is_decided() {
                Ok(None)
            } else {
                catch_unwind(AssertUnwindSafe(|| {
                    let context = SearchContext {
                        limits: &limits,
                        options: &options,
                        tt: &tt,
                        control: &control,
                        data,
                        pool: Some(&pool),
                        skill,
                        seed,
                    };
                    session.search(context, &mut report)
                }))
                .map(Some)
            };
            // This job must not hold the last reference to the pool (its drop joins this
            // thread): the engine waits for `searches` to empty before it lets the pool go.
            drop(pool);
            // The answer of `go infinite` (or of a `go` with no limit) waits for `stop`, that of
            // `go ponder` for `stop` or `ponderhit`, however early the search ended.
            control.wait_released(until_stop);
            searches.set_answering(id);
            let finished = match found {
                Ok(Some(result)) => Finished::Done(result),
                Ok(None) => Finished::GameOver(outcome),
                Err(_) => Finished::InternalError {
                    fallback: session.legal_moves().into_iter().next(),
                },
            };
            let _ = catch_unwind(AssertUnwindSafe(|| done(finished)));
            searches.remove(id);
        });
        if sent {
            Ok(())
        } else {
            self.searches.remove(id);
            Err(EngineError::Threads(std::io::Error::other(
                "the search thread has ended",
            )))
        }
    }

    /// Searches the current position on the calling thread (helpers on the pool) and returns
    /// the answer; waits for any search started by [`Engine::go`] to end first. For tools that
    /// need nothing but the answer (CLI, OpenTafl, HTP, bench). `request` is a [`Limits`] or a
    /// [`SearchRequest`] with settings of its own. A decided game answers at once with no move.
    /// A fault inside the search (a panic, on this thread or a helper) is caught: the error
    /// carries a legal move to play instead, and the engine stays usable.
    pub fn search(
        &mut self,
        request: impl Into<SearchRequest>,
        report: &mut dyn FnMut(&TextReport),
    ) -> Result<TextResult, SearchFailed> {
        let request = request.into();
        self.wait();
        if self.session.outcome().is_decided() {
            return Ok(TextResult::game_over());
        }
        let control = request
            .stopper
            .as_ref()
            .map_or_else(|| Control::new(false), |s| Arc::clone(&s.0));
        let pool = Arc::clone(&self.pool);
        let options = request.applied_to(&self.search_options());
        let session = &self.session;
        let tt = &self.tt;
        catch_unwind(AssertUnwindSafe(|| {
            pool.with_main_data(|data| {
                let context = SearchContext {
                    limits: &request.limits,
                    options: &options,
                    tt,
                    control: &control,
                    data,
                    pool: Some(&pool),
                    skill: Skill::at(request.skill_level.unwrap_or(self.skill_level)),
                    seed: self.seed,
                };
                session.search(context, report)
            })
        }))
        .map_err(|_| SearchFailed {
            fallback: self.session.legal_moves().into_iter().next(),
        })
    }

    /// Ends every running and queued search now; each still answers (`done` is called).
    /// Returns at once; [`Engine::wait`] waits for the answers.
    pub fn stop(&self) {
        for r in self.searches.lock().iter() {
            r.control.stop();
        }
    }

    /// Stops the searches that would run until stopped (infinite, pondering, or with no limit
    /// for the side to move); the others go on to their limits.
    pub fn stop_unbounded(&self) {
        for r in self.searches.lock().iter().filter(|r| r.unbounded) {
            r.control.stop();
        }
    }

    /// The opponent played the expected move: the pondering search now counts its time.
    pub fn ponderhit(&self) {
        for r in self.searches.lock().iter() {
            r.control.ponderhit();
        }
    }

    /// Waits until every search started by [`Engine::go`] has ended and answered.
    pub fn wait(&self) {
        let mut list = self.searches.lock();
        while !list.is_empty() {
            list = self
                .searches
                .changed
                .wait(list)
                .unwrap_or_else(|p| p.into_inner());
        }
    }

    /// The outcome of the game in progress (repetition included).
    pub fn outcome(&self) -> Outcome {
        self.session.outcome()
    }

    /// The static evaluation of the current position as the search sees it (the `EvalFile`
    /// option's evaluation), by named terms (centipawns, side to move's view), and what
    /// evaluates (`hand-written`, `network …`).
    pub fn eval_terms(&self) -> (Vec<(&'static str, i32)>, String) {
        self.session.eval_terms(&self.search_options.eval)
    }

    /// Why the network the `EvalFile` option names does not evaluate the game in play (a tafl
    /// network for another board, a network of another game family): the game evaluates by
    /// hand (or with its built-in network) instead, and the command-line tools refuse it. `None`
    /// when it does, or when no network is named. The option itself takes any valid network
    /// file whatever the game in play, since a GUI may set it before the variant.
    pub fn eval_unfit(&self) -> Option<String> {
        self.session.eval_unfit(&self.search_options.eval)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;

    /// `ucinewgame` between games must not undo `setoption name Tune …` (SPSA sets the values once
    /// per engine process); a new variant drops them (another family, other values).
    #[test]
    fn tune_values_survive_a_new_game_and_not_a_new_variant() {
        let mut engine = Engine::new().unwrap();
        engine.apply(Setting::Variant(Variant::Brandubh)).unwrap();
        engine.apply(Setting::Tune("lmr_base", 120)).unwrap();
        engine.new_game();
        let params = engine.tuned.expect("kept");
        assert_eq!(params.get("lmr_base"), Some(120));
        engine.apply(Setting::Variant(Variant::Ataxx)).unwrap();
        assert_eq!(engine.tuned, None);
    }

    /// Every tuning value at each end of its documented range (`Tune <name>`, the ranges of
    /// [`crate::tuning::SearchParams::TUNABLE`]) searches without a fault in every variant.
    /// `Tune lmr_min_depth 1` used to panic in the LMR clamp.
    #[test]
    fn every_tune_value_at_its_bounds_searches_in_every_variant() {
        let mut engine = Engine::new().unwrap();
        engine.set_option("Hash", "1").unwrap();
        let limits = Limits {
            depth: Some(8),
            nodes: Some(2_000),
            ..Limits::default()
        };
        for variant in Variant::ALL {
            for t in crate::tuning::SearchParams::TUNABLE {
                let name = t.name;
                for value in [t.min, t.max] {
                    engine.set_variant(variant);
                    engine.apply(Setting::Tune(name, value)).unwrap();
                    let found = engine.search(&limits, &mut |_| {});
                    let result =
                        found.unwrap_or_else(|e| panic!("{variant:?} {name} {value}: {e}"));
                    assert!(result.best_move.is_some(), "{variant:?} {name} {value}");
                }
            }
        }
    }

    /// A search fault is caught by both ways of searching, with a legal move to play instead,
    /// and the engine goes on: here the session's search panics.
    #[test]
    fn a_fault_in_the_search_is_reported_with_a_legal_fallback() {
        let mut engine = Engine::new().unwrap();
        let legal = engine.session().legal_moves();
        engine.set_session(Box::new(Faulty(engine.session().boxed_clone())));
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let _quiet = QuietPanics::new();
        let failed = engine.search(&limits, &mut |_| {}).unwrap_err();
        assert!(legal.contains(failed.fallback.as_ref().unwrap()));
        let (tx, rx) = std::sync::mpsc::channel();
        engine
            .go(limits.clone(), |_| {}, move |f| tx.send(f).unwrap())
            .unwrap();
        match rx.recv().unwrap() {
            Finished::InternalError { fallback } => assert!(legal.contains(&fallback.unwrap())),
            other => panic!("{other:?}"),
        }
        engine.new_game();
        assert!(
            engine
                .search(&limits, &mut |_| {})
                .unwrap()
                .best_move
                .is_some()
        );
    }

    /// A panic in a helper thread of a Lazy SMP search is reported like one in the main
    /// thread, not lost (the search's test-only fault marker makes helpers panic).
    #[test]
    fn a_fault_in_a_helper_thread_is_reported() {
        let mut engine = Engine::new().unwrap();
        engine.set_option("Threads", "2").unwrap();
        let mut params = engine.session().search_params();
        params.expected_moves = crate::search::HELPER_FAULT_MARKER;
        engine.tuned = Some(params);
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let _quiet = QuietPanics::new();
        assert!(engine.search(&limits, &mut |_| {}).is_err());
        engine.tuned = None;
        assert!(engine.search(&limits, &mut |_| {}).is_ok());
    }

    /// A session whose search panics; everything else is the inner session's.
    struct Faulty(Box<dyn Session>);

    impl Session for Faulty {
        fn variant_name(&self) -> &'static str {
            self.0.variant_name()
        }
        fn boxed_clone(&self) -> Box<dyn Session> {
            Box::new(Faulty(self.0.boxed_clone()))
        }
        fn set_position(
            &mut self,
            fen: Option<&str>,
            moves: &[&str],
        ) -> Result<(), session::PositionError> {
            self.0.set_position(fen, moves)
        }
        fn set_board(&mut self, placement: &str, side: Side) -> Result<(), session::PositionError> {
            self.0.set_board(placement, side)
        }
        fn set_side_to_move(&mut self, side: Side) {
            self.0.set_side_to_move(side)
        }
        fn board_rows(&self) -> Vec<Vec<session::SquareContent>> {
            self.0.board_rows()
        }
        fn play(&mut self, mv: &str) -> Result<String, session::MoveError> {
            self.0.play(mv)
        }
        fn last_captures(&self) -> Vec<crate::game::Capture> {
            self.0.last_captures()
        }
        fn undo(&mut self) -> bool {
            self.0.undo()
        }
        fn fen(&self) -> String {
            self.0.fen()
        }
        fn setup_fen(&self) -> String {
            self.0.setup_fen()
        }
        fn board(&self) -> String {
            self.0.board()
        }
        fn hash(&self) -> u64 {
            self.0.hash()
        }
        fn side_to_move(&self) -> Side {
            self.0.side_to_move()
        }
        fn outcome(&self) -> Outcome {
            self.0.outcome()
        }
        fn eval_terms(&self, eval: &crate::eval::EvalChoice) -> (Vec<(&'static str, i32)>, String) {
            self.0.eval_terms(eval)
        }
        fn search_params(&self) -> crate::tuning::SearchParams {
            self.0.search_params()
        }
        fn legal_moves(&self) -> Vec<String> {
            self.0.legal_moves()
        }
        fn moves_played(&self) -> Vec<String> {
            self.0.moves_played()
        }
        fn divide(&self, depth: u32) -> Vec<(String, u64)> {
            self.0.divide(depth)
        }
        fn divide_until(
            &self,
            depth: u32,
            stop: &std::sync::atomic::AtomicBool,
            each: &mut dyn FnMut(&str, u64),
        ) -> bool {
            self.0.divide_until(depth, stop, each)
        }
        fn divide_parallel(
            &self,
            depth: u32,
            threads: usize,
            done: &(dyn Fn() + Sync),
        ) -> Result<Vec<(String, u64)>, rayon::ThreadPoolBuildError> {
            self.0.divide_parallel(depth, threads, done)
        }
        fn search(&self, _: SearchContext<'_>, _: &mut dyn FnMut(&TextReport)) -> TextResult {
            panic!("a fault in the search, on purpose")
        }
    }

    /// Settings for one search (OpenTafl's `analyze` asks for its own MultiPV) apply to that
    /// search only: the engine's options are as they were after it.
    #[test]
    fn overrides_apply_to_one_search_only() {
        let mut engine = Engine::new().unwrap();
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let request = SearchRequest {
            limits: limits.clone(),
            multipv: Some(3),
            move_overhead_ms: Some(0),
            ..SearchRequest::default()
        };
        let r = engine.search(request, &mut |_| {}).unwrap();
        assert_eq!(r.lines.len(), 3);
        assert_eq!(engine.search_options().multipv, 1);
        assert_eq!(engine.search_options().move_overhead_ms, 10);
        assert_eq!(engine.search(&limits, &mut |_| {}).unwrap().lines.len(), 1);
    }

    /// Silences the panic messages of a test that panics on purpose; restores the hook on drop.
    struct QuietPanics;

    impl QuietPanics {
        fn new() -> QuietPanics {
            std::panic::set_hook(Box::new(|_| {}));
            QuietPanics
        }
    }

    impl Drop for QuietPanics {
        fn drop(&mut self) {
            let _ = std::panic::take_hook();
        }
    }
}
