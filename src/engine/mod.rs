//! The engine every front-end drives: the game in progress, the transposition table, the
//! options, and the search threads with their per-thread tables. UCI/UAI, the OpenTafl protocol,
//! HTP, the command-line tools, the browser server and the game-server clients parse their
//! input, call an [`Engine`] and format its answers; none of them builds search machinery of
//! its own.
//!
//! - [`session`]: the game in progress ([`Session`]) in typed values ([`crate::board`]: the
//!   board, moves, captures, legal targets) with typed errors.
//! - [`options`]: the one registry of options (UCI `option` lines, `setoption`, CLI flags).
//! - [`Engine`]: owns a [`Session`], a transposition table (`Hash`), a thread pool (`Threads`,
//!   threads and tables living from one search to the next) and the other option values.
//! - the one way to run a search ([`Engine::start`] and its [`SearchHandle`]: start, report
//!   through callbacks, stop, cancel, wait; [`Engine::search`] waits for it) and other work on
//!   the search thread ([`Engine::start_task`]), with what a search reports ([`Report`],
//!   [`Answer`], [`Finished`]).
//!
//! A search started while another runs is queued: the running search ends (by its limits or
//! `stop`), then the new one runs, as in Stockfish; its clock runs from when it was started.
//! `stop` ends every search started or queued.

pub mod options;
mod report;
mod search;
pub mod session;
mod skill;

pub use crate::board::{Board, Capture, Mark, MoveKind, MoveView, Piece, Square};
pub use crate::eval::{EVAL_FILE_DEFAULT, EVAL_FILE_HAND};
pub use crate::game::{Outcome, Reason, Side};
pub use crate::search::tt::DEFAULT_HASH_MIB;
pub use crate::search::{Clock, Fault, Limits, MATE, MATE_BOUND, Score};
use crate::search::{SearchOptions, ThreadPool, TranspositionTable, tt::TableError};
pub use crate::tuning::SearchParams;
use crate::variant::{GameKind, Variant};
use options::{OptionError, Setting};
pub use report::{Answer, Finished, Report, SearchFailed};
pub use search::{SearchHandle, SearchRequest, StopSignal};
pub use session::{Session, new_session, new_tafl_session};
pub use skill::{MAX_SKILL, Skill, named_skill};
use std::sync::Arc;

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
    jobs: Arc<search::Jobs>,
}

impl Engine {
    /// An engine playing brandubh from its start position, every option at its default
    /// (`Hash` 16 MiB, one thread). Errors if the table or the thread cannot be had. On
    /// WebAssembly it has no thread of its own ([`Engine::without_threads`]).
    pub fn new() -> Result<Engine, EngineError> {
        if cfg!(target_family = "wasm") {
            return Engine::without_threads();
        }
        Engine::with_pool(ThreadPool::new(1)?)
    }

    fn with_pool(pool: ThreadPool) -> Result<Engine, EngineError> {
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
            pool: Arc::new(pool),
            jobs: Arc::default(),
        })
    }

    /// An engine with no search threads of its own, as [`Engine::new`] otherwise: its searches
    /// run on the thread that waits for them ([`SearchHandle::wait`], [`Engine::search`]), and
    /// `Threads` stays 1. What a target without threads (WebAssembly) gets from
    /// [`Engine::new`].
    pub fn without_threads() -> Result<Engine, EngineError> {
        Engine::with_pool(ThreadPool::inline())
    }

    /// The variant in play (its preset; a session set by [`Engine::set_session`] keeps the
    /// variant it was set with).
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// What the game in progress is ([`Session::kind`]): its variant, or rules of no variant.
    pub fn kind(&self) -> GameKind {
        self.session.kind()
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

    /// The test seam of the fault path: every search from now on raises `fault` (a panic in its
    /// main thread or in its helpers, [`crate::search::Fault`]), so that a test sees the fault
    /// caught and reported; `None` ends it. Nothing else sets it.
    pub fn set_fault(&mut self, fault: Option<crate::search::Fault>) {
        self.search_options.fault = fault;
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
            Setting::Threads(n) if n > 1 && !self.pool.has_threads() => {
                return Err(OptionError::BadValue {
                    name: "Threads",
                    value: n.to_string(),
                    expected: "1 (this engine searches without threads of its own)".into(),
                });
            }
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
            Setting::TuneSwitch(name, on) => {
                let mut params = self.search_params();
                params.set_switch(name, on);
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
mod tests;
