//! The one way to run a search (Stockfish's `Engine::go` and its thread pool): every front-end
//! calls [`Engine::start`], which hands the search to the engine's search thread and returns a
//! [`SearchHandle`] at once; the search reports each completed depth through a callback and
//! ends with another ([`Finished`]). The handle (and the engine, for all its searches) steers
//! it: [`SearchHandle::stop`] (it still answers), [`SearchHandle::cancel`] (it answers
//! [`Finished::Cancelled`]), [`SearchHandle::ponderhit`], [`SearchHandle::wait`].
//! [`Engine::search`] is the same search waited for, with its reports on the calling thread,
//! for front-ends that need nothing else; [`Engine::start_task`] runs other work (UCI's `perft`
//! and `bench`) where the same `stop` and `wait` reach it.
//!
//! A search started while another runs is queued: it starts when the one before it has
//! answered (as in Stockfish), on the position and options of the moment it was started, and its
//! clock runs from that moment ([`crate::search::Limits::start`]), so the wait is not time lost
//! to it.
//!
//! Without search threads (an engine made by [`Engine::without_threads`], or on WebAssembly) a
//! search runs on the calling thread when it is waited for ([`SearchHandle::wait`],
//! [`Engine::wait`], [`Engine::search`]); its callbacks may call [`SearchHandle::stop`].

use super::report::{Answer, Finished, Report, SearchFailed};
use super::session::SearchContext;
use super::skill::Skill;
use super::{Engine, EngineError, options};
use crate::search::{Control, Limits, SearchOptions, ThreadData, ThreadPool};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
// (std's Instant panics on wasm32-unknown-unknown: the browser's clock there.)
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// One search as a front-end asks for it: its limits, and settings for this search only over
/// the engine's options (`None`: the option's value), leaving the options as they are (OpenTafl's
/// `analyze` asks for its own MultiPV, `play` for a skill level). A [`Limits`] converts to a
/// request with no overrides.
#[derive(Clone, Debug, Default)]
pub struct SearchRequest {
    /// Depth, nodes, time or clocks, infinite or ponder, and when it was asked for
    /// ([`Limits::start`]; `None`: when [`Engine::start`] is called).
    pub limits: Limits,
    /// Principal variations to find (UCI `MultiPV`), 1 ..= [`options::MAX_MULTIPV`].
    pub multipv: Option<usize>,
    /// Milliseconds kept per move for communication (UCI `Move Overhead`).
    pub move_overhead_ms: Option<u64>,
    /// Playing strength, 0 ..= [`super::MAX_SKILL`] (UCI `Skill Level`).
    pub skill_level: Option<u8>,
    /// The seed of the random choice below full strength ([`Engine::set_seed`]'s, for this
    /// search).
    pub seed: Option<u64>,
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

/// Where a search (or task) is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    /// Queued or searching.
    Running,
    /// Writing its answer: from then on it no longer counts as running, so a client answering
    /// at once is never told a search runs.
    Answering,
    /// Answered.
    Done,
}

/// The work of a search or task, as it is handed to thread 0 (or kept to be run by a waiter,
/// without threads).
type Work = Box<dyn FnOnce(&mut ThreadData) + Send>;

/// One search or task started and not yet fully ended.
struct Job {
    id: u64,
    control: Arc<Control>,
    /// It has no limit of its own (infinite, ponder, or no depth/nodes/time for the side to
    /// move): at end of input it is stopped rather than waited for.
    unbounded: bool,
    /// Cancelled: its answer is [`Finished::Cancelled`].
    cancelled: std::sync::atomic::AtomicBool,
    stage: Mutex<Stage>,
    changed: Condvar,
    /// The work not yet run, without threads: run by the first waiter.
    pending: Mutex<Option<Work>>,
    /// The pool whose thread 0's tables an inline job runs with.
    pool: Arc<ThreadPool>,
}

impl Job {
    fn stage(&self) -> MutexGuard<'_, Stage> {
        self.stage.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set(&self, stage: Stage) {
        *self.stage() = stage;
        self.changed.notify_all();
    }

    fn is_cancelled(&self) -> bool {
        self.cancelled.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Runs the work here if it is still pending (without threads), then waits until it has
    /// answered.
    fn wait(&self) {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(work) = pending {
            self.pool.with_main_data(work);
        }
        let mut stage = self.stage();
        while *stage != Stage::Done {
            stage = self.changed.wait(stage).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// A search (or task) started by [`Engine::start`] ([`Engine::start_task`]): what steers it
/// from outside. Cloning it gives another handle on the same search.
#[derive(Clone)]
pub struct SearchHandle {
    job: Arc<Job>,
}

impl std::fmt::Debug for SearchHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchHandle({}, {:?})", self.job.id, *self.job.stage())
    }
}

impl SearchHandle {
    /// Ends the search now (a queued one as soon as it starts): it still answers, with the best
    /// move found so far (after depth 1 at least). Returns at once.
    pub fn stop(&self) {
        self.job.control.stop();
    }

    /// Ends the search now, or keeps a queued one from starting, and drops its answer: it
    /// answers [`Finished::Cancelled`] (a game that went away: its search is no use).
    pub fn cancel(&self) {
        self.job
            .cancelled
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.job.control.stop();
    }

    /// The opponent played the expected move: a pondering search now counts its time.
    pub fn ponderhit(&self) {
        self.job.control.ponderhit();
    }

    /// Waits until the search has answered (its `done` callback has returned); without search
    /// threads, runs it here first.
    pub fn wait(&self) {
        self.job.wait();
    }

    /// Whether the search has answered.
    pub fn is_done(&self) -> bool {
        *self.job.stage() == Stage::Done
    }

    /// Whether the search is queued or searching, and has not begun to answer.
    pub fn is_running(&self) -> bool {
        *self.job.stage() == Stage::Running
    }

    /// Whether the search runs when it is waited for (an engine without search threads).
    pub fn runs_when_waited_for(&self) -> bool {
        self.job
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }
}

/// What a task sees of its handle ([`Engine::start_task`]): whether it was told to stop, and a
/// way to say that it is answering.
pub struct StopSignal(Arc<Job>);

impl StopSignal {
    /// `true` once the task was stopped (or cancelled).
    pub fn is_stopped(&self) -> bool {
        self.0.control.is_stopped()
    }

    /// The task is about to give its last answer: from now on it no longer counts as running
    /// ([`Engine::is_searching`], [`SearchHandle::is_running`]), so that a client that reads the
    /// answer and sends a command at once is not told that the task runs.
    pub fn answering(&self) {
        self.0.set(Stage::Answering);
    }

    /// The signal as a search's stop ([`SearchRequest`]'s): searches under it end when the
    /// task is stopped.
    pub(crate) fn control(&self) -> Arc<Control> {
        Arc::clone(&self.0.control)
    }

    /// The flag a perft reads ([`crate::perft::divide_until`]).
    pub fn flag(&self) -> &std::sync::atomic::AtomicBool {
        self.0.control.stop_flag()
    }
}

/// The searches and tasks started and not yet answered, oldest first.
#[derive(Default)]
pub(super) struct Jobs {
    list: Mutex<Vec<Arc<Job>>>,
    next_id: Mutex<u64>,
}

impl Jobs {
    fn lock(&self) -> MutexGuard<'_, Vec<Arc<Job>>> {
        self.list.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn remove(&self, id: u64) {
        self.lock().retain(|j| j.id != id);
    }

    fn next_id(&self) -> u64 {
        let mut next = self.next_id.lock().unwrap_or_else(|p| p.into_inner());
        *next += 1;
        *next
    }
}

impl Engine {
    /// Starts a search of the current position and returns its handle at once. `report` is
    /// called after each completed depth (and MultiPV line), `done` once with how it ended, both
    /// on the search thread. A search already running is let finish first; the position and
    /// options are those of now, and the search's clock runs from now (or from its
    /// [`Limits::start`]). `go infinite`, `go ponder` and a search with no limit of its own hold
    /// their answer until stopped (or, pondering, a `ponderhit`), however early they end, as UCI
    /// asks. A fault inside the search is caught: it answers [`Finished::Failed`] with a legal
    /// move to play instead. Errors only if the search thread is gone.
    pub fn start(
        &mut self,
        request: impl Into<SearchRequest>,
        report: impl FnMut(&Report) + Send + 'static,
        done: impl FnOnce(Finished) + Send + 'static,
    ) -> Result<SearchHandle, EngineError> {
        self.start_under(request.into(), None, report, done)
    }

    /// [`Engine::start`] under the stop signal `control` when given (a task's searches:
    /// `bench`'s end when the task is stopped), else a new one.
    fn start_under(
        &mut self,
        mut request: SearchRequest,
        control: Option<Arc<Control>>,
        mut report: impl FnMut(&Report) + Send + 'static,
        done: impl FnOnce(Finished) + Send + 'static,
    ) -> Result<SearchHandle, EngineError> {
        request.limits.start.get_or_insert_with(Instant::now);
        let limits = request.limits.clone();
        // No limit of its own (no depth, nodes or movetime, no clock for the side to move): it
        // searches until `stop`, as `go infinite` does (protocol.md).
        let no_limit = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.time[self.session.side_to_move().index()].is_none();
        let until_stop = limits.infinite || no_limit;
        let control = control.unwrap_or_else(|| Control::new(limits.ponder));
        let session = self.session.boxed_clone();
        let options = request.applied_to(&self.search_options());
        let skill = Skill::at(request.skill_level.unwrap_or(self.skill_level));
        let seed = request.seed.unwrap_or(self.seed);
        let tt = Arc::clone(&self.tt);
        let pool = Arc::clone(&self.pool);
        let job = self.new_job(Arc::clone(&control), until_stop || limits.ponder);
        let work_job = Arc::clone(&job);
        let jobs = Arc::clone(&self.jobs);
        let work = move |data: &mut ThreadData| {
            let job = work_job;
            // The game is decided here, on the search thread, in the queue's order: the command
            // loop never waits for a search to learn that it has nothing to search.
            let outcome = session.outcome();
            let found = if job.is_cancelled() {
                Ok(None)
            } else if outcome.is_decided() {
                Ok(Some(None))
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
                .map(|answer| Some(Some(answer)))
            };
            // This work must not hold the last reference to the pool (its drop joins this
            // thread): the engine waits for its jobs to end before it lets the pool go.
            drop(pool);
            // The answer of `go infinite` (or of a `go` with no limit) waits for `stop`, that of
            // `go ponder` for `stop` or `ponderhit`, however early the search ended.
            control.wait_released(until_stop);
            job.set(Stage::Answering);
            let finished = match found {
                _ if job.is_cancelled() => Finished::Cancelled,
                Ok(Some(Some(answer))) => Finished::Done(answer),
                Ok(Some(None)) => Finished::GameOver(outcome),
                Ok(None) => Finished::Cancelled,
                Err(_) => Finished::Failed {
                    fallback: session.legal_moves().into_iter().next(),
                },
            };
            let _ = catch_unwind(AssertUnwindSafe(|| done(finished)));
            jobs.remove(job.id);
            job.set(Stage::Done);
        };
        self.send(job, Box::new(work))
    }

    /// Runs `task` where searches run (on the search thread, after the searches started before
    /// it; without threads, when waited for), steered by the same [`SearchHandle`] and by
    /// [`Engine::stop`] and [`Engine::wait`]: UCI's `perft` and `bench`. `task` reads its
    /// [`StopSignal`] to end early. A panic inside it is caught (the engine goes on). Errors only
    /// if the search thread is gone.
    pub fn start_task(
        &mut self,
        task: impl FnOnce(&StopSignal) + Send + 'static,
    ) -> Result<SearchHandle, EngineError> {
        let job = self.new_job(Control::new(false), false);
        let work_job = Arc::clone(&job);
        let jobs = Arc::clone(&self.jobs);
        let work = move |_: &mut ThreadData| {
            let signal = StopSignal(Arc::clone(&work_job));
            let _ = catch_unwind(AssertUnwindSafe(|| task(&signal)));
            work_job.set(Stage::Answering);
            jobs.remove(work_job.id);
            work_job.set(Stage::Done);
        };
        self.send(job, Box::new(work))
    }

    fn new_job(&self, control: Arc<Control>, unbounded: bool) -> Arc<Job> {
        let job = Arc::new(Job {
            id: self.jobs.next_id(),
            control,
            unbounded,
            cancelled: std::sync::atomic::AtomicBool::new(false),
            stage: Mutex::new(Stage::Running),
            changed: Condvar::new(),
            pending: Mutex::new(None),
            pool: Arc::clone(&self.pool),
        });
        self.jobs.lock().push(Arc::clone(&job));
        job
    }

    /// Hands `work` to thread 0, or keeps it for a waiter when the pool has no threads.
    fn send(&self, job: Arc<Job>, work: Work) -> Result<SearchHandle, EngineError> {
        if !self.pool.has_threads() {
            *job.pending.lock().unwrap_or_else(|p| p.into_inner()) = Some(work);
            return Ok(SearchHandle { job });
        }
        if self.pool.spawn_main(work) {
            Ok(SearchHandle { job })
        } else {
            self.jobs.remove(job.id);
            Err(EngineError::Threads(std::io::Error::other(
                "the search thread has ended",
            )))
        }
    }

    /// Searches the current position and returns the answer, with `report` called on the
    /// calling thread after each completed depth ([`Engine::start`], waited for). A decided game
    /// answers at once with no move. For front-ends that need nothing but the answer (the
    /// command-line tools, OpenTafl's `play`, HTP, the game-server clients, `bench`). A fault
    /// inside the search (a panic, on any of its threads) is caught: the error carries a legal
    /// move to play instead, and the engine stays usable.
    pub fn search(
        &mut self,
        request: impl Into<SearchRequest>,
        report: &mut dyn FnMut(&Report),
    ) -> Result<Answer, SearchFailed> {
        self.search_under(request.into(), None, report)
    }

    /// [`Engine::search`] ended by `stop` too when given (a task's: `bench` under UCI).
    pub(crate) fn search_under(
        &mut self,
        request: SearchRequest,
        stop: Option<&StopSignal>,
        report: &mut dyn FnMut(&Report),
    ) -> Result<Answer, SearchFailed> {
        enum Event {
            Report(Report),
            Done(Finished),
        }
        let (tx, rx) = mpsc::channel();
        let reports = tx.clone();
        let started = self.start_under(
            request,
            stop.map(StopSignal::control),
            move |r| {
                let _ = reports.send(Event::Report(r.clone()));
            },
            move |f| {
                let _ = tx.send(Event::Done(f));
            },
        );
        let handle = started.map_err(|_| SearchFailed {
            fallback: self.session.legal_moves().into_iter().next(),
        })?;
        if handle.runs_when_waited_for() {
            handle.wait();
        }
        loop {
            match rx.recv() {
                Ok(Event::Report(r)) => report(&r),
                Ok(Event::Done(Finished::Done(answer))) => return Ok(answer),
                Ok(Event::Done(Finished::GameOver(_) | Finished::Cancelled)) => {
                    return Ok(Answer::game_over());
                }
                Ok(Event::Done(Finished::Failed { fallback })) => {
                    return Err(SearchFailed { fallback });
                }
                Err(_) => {
                    return Err(SearchFailed {
                        fallback: self.session.legal_moves().into_iter().next(),
                    });
                }
            }
        }
    }

    /// `true` while a search or task started by [`Engine::start`] ([`Engine::start_task`]) runs
    /// (or waits its turn) and has not begun to answer.
    pub fn is_searching(&self) -> bool {
        self.jobs
            .lock()
            .iter()
            .any(|j| *j.stage() == Stage::Running)
    }

    /// Ends every running and queued search and task now; each still answers. Returns at once;
    /// [`Engine::wait`] waits for the answers.
    pub fn stop(&self) {
        for j in self.jobs.lock().iter() {
            j.control.stop();
        }
    }

    /// Stops the searches that would run until stopped (infinite, pondering, or with no limit
    /// for the side to move); the others go on to their limits.
    pub fn stop_unbounded(&self) {
        for j in self.jobs.lock().iter().filter(|j| j.unbounded) {
            j.control.stop();
        }
    }

    /// The opponent played the expected move: the pondering searches now count their time.
    pub fn ponderhit(&self) {
        for j in self.jobs.lock().iter() {
            j.control.ponderhit();
        }
    }

    /// Waits until every search and task started has answered (without threads, runs them
    /// here, in order).
    pub fn wait(&self) {
        loop {
            let first = self.jobs.lock().first().cloned();
            match first {
                Some(job) => job.wait(),
                None => return,
            }
        }
    }
}
