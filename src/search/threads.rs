//! The search threads and what each keeps from one search to the next.
//!
//! A [`ThreadPool`] holds `n` operating-system threads that live as long as the pool, each with
//! its own [`ThreadData`] (history tables, allocated once). A search runs its
//! main worker on the calling thread with the data of thread 0 and hands the helpers of Lazy SMP
//! to threads 1..n as jobs; [`ThreadPool::spawn_main`] runs a whole search on thread 0, so a
//! front-end's command loop stays free while it runs. Jobs sent to one thread run in order: a
//! second search sent while one runs starts when the first has ended.
//!
//! A search is steered from outside through its [`Control`]: `stop`, and `ponderhit` for a
//! search started in ponder mode.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// Stack size of a search thread, bytes: the recursion keeps a position per ply.
#[cfg(not(target_arch = "wasm32"))]
const STACK_BYTES: usize = 16 << 20;

/// Entries of a history table: one per side and 16-bit move code.
pub(crate) const HISTORY_LEN: usize = 2 * 65536;

/// Per-thread search tables that live from one search to the next (they are allocated once,
/// with the thread, and reset where a search needs them fresh). Aligned to 128 bytes (a pair of
/// cache lines, which x86 processors prefetch together) so that no other thread's data shares
/// a cache line with it.
#[repr(align(128))]
pub struct ThreadData {
    /// The butterfly history: a score per side and move code ([`HISTORY_LEN`] entries).
    pub(crate) history: Vec<i32>,
    /// Counter-moves: per side and code of the opponent's last move, the quiet move that last
    /// refuted it ([`HISTORY_LEN`] entries, 0 for none).
    pub(crate) counters: Vec<u16>,
    /// Continuation history: a score per pair (history index of the move one or two plies
    /// earlier, history index of the move), `n × n` entries for the game's
    /// `n` = [`crate::game::Game::history_index_count`]; resized when a search's game needs
    /// another size.
    pub(crate) cont_history: Vec<i16>,
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData {
            history: vec![0; HISTORY_LEN],
            counters: vec![0; HISTORY_LEN],
            cont_history: Vec::new(),
        }
    }
}

impl ThreadData {
    /// Forgets everything learnt (a new game): history to zero, in place.
    pub fn clear(&mut self) {
        self.clear_for_search();
        self.cont_history.fill(0);
    }

    /// Butterfly history and counter-moves to zero (the continuation history is kept; the
    /// killers are the search stack's, fresh for each search).
    pub(crate) fn clear_for_search(&mut self) {
        self.history.fill(0);
        self.counters.fill(0);
    }

    /// What a search starts with, by [`crate::tuning::SearchParams::history_keep`] (`keep`, in
    /// 1024ths): 0 clears the butterfly history and the counter-moves
    /// ([`ThreadData::clear_for_search`]); otherwise the previous searches of the game are kept,
    /// aged (Stockfish and Viridithas keep their histories from one move to the next and
    /// clear them only for a new game): each butterfly entry is scaled by `keep / 1024`, so
    /// what this search learns weighs more than what earlier ones did, and the counter-moves
    /// stay. The continuation history is kept whole either way.
    pub(crate) fn start_search(&mut self, keep: i32) {
        if keep <= 0 {
            self.clear_for_search();
            return;
        }
        let keep = keep.min(1024);
        if keep < 1024 {
            for h in &mut self.history {
                *h = *h * keep / 1024;
            }
        }
    }

    /// Makes the continuation history `n × n` entries (zeroed if its size changes).
    pub(crate) fn size_cont_history(&mut self, n: usize) {
        if self.cont_history.len() != n * n {
            self.cont_history = vec![0; n * n];
        }
    }
}

/// How a running search is steered from outside; shared between the front-end and the search.
/// Every search thread reads it every 1024 nodes; it is aligned to 128 bytes so that it has its
/// cache lines to itself. A front-end that must hold its answer until `stop` or `ponderhit`
/// (an infinite or pondering search that has finished early) blocks in
/// [`Control::wait_released`], which those two calls wake.
#[derive(Debug, Default)]
#[repr(align(128))]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Held while the flags change and while [`Control::wait_released`] checks them, so that a
    /// wake-up between the check and the wait is never lost.
    lock: Mutex<()>,
    changed: Condvar,
}

impl Control {
    /// A control for a search that starts thinking on its own clock (`pondering` false) or in
    /// ponder mode (`true`: no time limit applies until [`Control::ponderhit`]).
    pub fn new(pondering: bool) -> Arc<Control> {
        Arc::new(Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            lock: Mutex::new(()),
            changed: Condvar::new(),
        })
    }

    fn guard(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Asks the search to end now; it still answers with the best move found so far.
    pub fn stop(&self) {
        let _held = self.guard();
        self.stop.store(true, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// `true` once [`Control::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The stop flag itself, for work that reads a plain flag (a perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The opponent played the expected move: from now on the time limits apply (UCI
    /// `ponderhit`).
    pub fn ponderhit(&self) {
        let _held = self.guard();
        self.pondering.store(false, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// `true` while the search ponders (no time limit applies, `bestmove` waits).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Blocks until the answer may be given: at once if [`Control::stop`] was called; else, for
    /// an `infinite` search, until it is; else while pondering, until [`Control::ponderhit`] or
    /// `stop`. (UCI: `bestmove` of `go infinite` waits for `stop`, of `go ponder` for `stop` or
    /// `ponderhit`, even when the search has nothing left to do, e.g. the game is over.)
    pub fn wait_released(&self, infinite: bool) {
        let mut held = self.guard();
        while !self.is_stopped() && (infinite || self.is_pondering()) {
            held = self.changed.wait(held).unwrap_or_else(|p| p.into_inner());
        }
    }
}

type Job = Box<dyn FnOnce(&mut ThreadData) + Send>;

struct PoolThread {
    jobs: Option<mpsc::Sender<Job>>,
    handle: Option<JoinHandle<()>>,
}

impl PoolThread {
    /// Thread `id`, running the jobs sent to it with `data`.
    #[cfg(not(target_arch = "wasm32"))]
    fn spawn(id: usize, data: Arc<Mutex<ThreadData>>) -> std::io::Result<PoolThread> {
        let (tx, rx) = mpsc::channel::<Job>();
        let handle = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(STACK_BYTES)
            .spawn(move || {
                while let Ok(job) = rx.recv() {
                    let mut data = lock(&data);
                    // A job catches its own panics; this keeps the thread alive regardless.
                    let _ =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut data)));
                }
            })?;
        Ok(PoolThread {
            jobs: Some(tx),
            handle: Some(handle),
        })
    }

    /// WebAssembly (skald-wasm) has no threads: the pool keeps the tables, and
    /// `Engine::search` runs on the calling thread with thread 0's; jobs sent to the pool are
    /// refused (`send` answers `false`), so a search there is single-threaded.
    #[cfg(target_arch = "wasm32")]
    fn spawn(_id: usize, _data: Arc<Mutex<ThreadData>>) -> std::io::Result<PoolThread> {
        Ok(PoolThread {
            jobs: None,
            handle: None,
        })
    }
}

/// A fixed set of search threads, each with its [`ThreadData`]. Dropping the pool lets each
/// thread finish its queued jobs and joins it.
pub struct ThreadPool {
    data: Vec<Arc<Mutex<ThreadData>>>,
    threads: Vec<PoolThread>,
}

fn lock(data: &Mutex<ThreadData>) -> MutexGuard<'_, ThreadData> {
    // A panic inside a search leaves the tables in a valid (if odd) state: go on with them.
    data.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ThreadPool {
    /// A pool without threads: thread 0's tables only, for a search run on the calling thread
    /// (a target without threads, WebAssembly; `Threads` 1). [`ThreadPool::spawn_main`] refuses
    /// its jobs, so the engine runs them itself ([`ThreadPool::with_main_data`]).
    pub fn inline() -> ThreadPool {
        ThreadPool {
            data: vec![Arc::new(Mutex::new(ThreadData::default()))],
            threads: Vec::new(),
        }
    }

    /// Whether the pool has threads of its own (not [`ThreadPool::inline`]).
    pub fn has_threads(&self) -> bool {
        !self.threads.is_empty()
    }

    /// A pool of `n` threads (at least 1). Errors if the operating system refuses a thread.
    pub fn new(n: usize) -> std::io::Result<ThreadPool> {
        let mut pool = ThreadPool {
            data: Vec::new(),
            threads: Vec::new(),
        };
        for id in 0..n.max(1) {
            let data = Arc::new(Mutex::new(ThreadData::default()));
            let thread = PoolThread::spawn(id, Arc::clone(&data))?;
            pool.data.push(data);
            pool.threads.push(thread);
        }
        Ok(pool)
    }

    /// The number of threads a search may use: the pool's threads (1 for an inline pool, the
    /// calling thread).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Always `false`: a pool has thread 0 at least.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Resets every thread's tables (a new game). Waits for running jobs to end.
    pub fn clear(&self) {
        for d in &self.data {
            lock(d).clear();
        }
    }

    /// Runs `job` on thread `id` (after the jobs already sent to it). Returns `false` if that
    /// thread is gone.
    pub(crate) fn send(&self, id: usize, job: Job) -> bool {
        self.threads
            .get(id)
            .and_then(|t| t.jobs.as_ref())
            .is_some_and(|tx| tx.send(job).is_ok())
    }

    /// Runs `job` on the calling thread with thread 0's data (locked for the duration).
    pub fn with_main_data<R>(&self, job: impl FnOnce(&mut ThreadData) -> R) -> R {
        job(&mut lock(&self.data[0]))
    }

    /// Runs a whole search (`job`) on thread 0, after any search already sent there; returns at
    /// once. The job must not send more work to thread 0.
    pub fn spawn_main(&self, job: impl FnOnce(&mut ThreadData) + Send + 'static) -> bool {
        self.send(0, Box::new(job))
    }
}

impl Drop for ThreadPool {
    /// Closes every thread's queue and joins the threads, all but the calling one: the last
    /// owner of a pool may be one of its own jobs (a search's job holds the engine's pool until
    /// its closure is dropped, after the waiter has gone on), and a thread cannot join itself
    /// (std panics: "failed to join thread: Resource deadlock avoided"). That thread is left
    /// to end on its own: its queue is closed, so it ends when the job returns.
    fn drop(&mut self) {
        for t in &mut self.threads {
            t.jobs.take();
        }
        let me = std::thread::current().id();
        for t in &mut self.threads {
            if let Some(h) = t.handle.take()
                && h.thread().id() != me
            {
                let _ = h.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pool's last owner may be a job on one of its threads (an engine dropped while its
    /// search's job still holds the pool, as `skald datagen` did at the end of a file): the
    /// drop there closes the pool without the thread joining itself (which panicked).
    #[test]
    fn a_pool_dropped_by_its_own_thread_does_not_panic() {
        let pool = Arc::new(ThreadPool::new(2).unwrap());
        let inside = Arc::clone(&pool);
        let (go, wait) = mpsc::channel::<()>();
        let (report, outcome) = mpsc::channel::<bool>();
        assert!(pool.send(
            0,
            Box::new(move |_| {
                wait.recv().unwrap();
                let dropped =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(inside)));
                report.send(dropped.is_ok()).unwrap();
            })
        ));
        drop(pool);
        go.send(()).unwrap();
        assert!(
            outcome.recv().unwrap(),
            "the pool's drop on its own thread panicked"
        );
    }

    /// `start_search`: 0 clears the butterfly history and the counter-moves; 512 halves the
    /// history (rounding towards 0) and keeps the counter-moves; 1024 keeps both whole. The
    /// continuation history is kept in every case.
    #[test]
    fn a_search_starts_with_the_history_cleared_or_aged() {
        for (keep, want, counter) in [
            (0, [0, 0, 0], 0),
            (512, [500, -250, 1], 7),
            (1024, [1000, -500, 3], 7),
        ] {
            let mut data = ThreadData::default();
            data.size_cont_history(3);
            data.cont_history[4] = 99;
            data.history[..3].copy_from_slice(&[1000, -500, 3]);
            data.counters[5] = 7;
            data.start_search(keep);
            assert_eq!(data.history[..3], want, "keep {keep}");
            assert_eq!(data.counters[5], counter, "keep {keep}");
            assert_eq!(data.cont_history[4], 99, "keep {keep}");
        }
    }
}
