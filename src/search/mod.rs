//! Iterative-deepening alpha-beta search over any [`Game`], run by one or more threads on a
//! shared [`TranspositionTable`] (Lazy SMP; the answer is the move the threads vote for, see
//! `best_thread`).
//!
//! The search knows nothing of the game it plays: it sees positions only through the [`Game`]
//! trait. It reports progress through a callback, never by printing.
//!
//! Per node: principal variation search with aspiration windows at the root, transposition-table
//! cutoffs, mate-distance pruning, reverse futility pruning, null-move pruning (where the game
//! allows it), singular extensions of the TT move (with multi-cut), internal iterative
//! reductions, late-move reductions (from a table, adjusted by
//! history and the "improving" flag), late-move pruning of moves that gain nothing, and
//! quiescence search on the game's tactical moves; each per the game family's
//! [`SearchParams`]. Moves are ordered TT move first, then by immediate gain (captures), killers,
//! the counter-move, and history (butterfly, plus continuation history indexed by the moves one
//! and two plies earlier where the family's parameters use it).
//!
//! Positions are evaluated through the game's [`Evaluator`](crate::eval::Evaluator)
//! ([`crate::eval`]), chosen by [`SearchOptions::eval`]: each thread keeps one accumulator per
//! ply, computed at the root and updated from the parent's as each child is made (copied for a
//! null move).
//!
//! The files: this one holds the options and the entry, [`search`], which starts the threads
//! and picks the answer; `types` the score scale, [`Score`], [`Report`] and [`SearchResult`];
//! `worker` one thread's state and iterative deepening; `negamax` the node search (negamax in
//! its steps, quiescence); `stack` the per-ply search stack; `ordering` move ordering and the
//! history tables' rules; `draws` repetitions and other ends of the game on the search path;
//! `smp` what the Lazy SMP threads share and the vote among them;
//! [`threads`] the thread pool and each thread's tables; [`timeman`] the time budget; [`tt`] the
//! transposition table.

mod draws;
mod negamax;
mod ordering;
mod smp;
mod stack;
pub mod threads;
pub mod timeman;
pub mod tt;
mod types;
mod worker;

pub use threads::{Control, ThreadData, ThreadPool};
pub use timeman::{Clock, Limits, TimeBudget, TimeKind};
pub use tt::{Bound, TranspositionTable};
pub use types::{MATE, MATE_BOUND, MAX_PLY, Report, Score, SearchResult};

use crate::eval::EvalChoice;
use crate::game::Game;
use crate::tuning::SearchParams;
use crossbeam_utils::CachePadded;
use smp::{Shared, ThreadResult, best_thread};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
// (std's Instant panics on wasm32-unknown-unknown: the browser's clock there.)
#[cfg(target_arch = "wasm32")]
use web_time::Instant;
use worker::Worker;

/// Settings of one search besides the limits.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// Number of principal variations to report (UCI `MultiPV`), at least 1.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication (UCI `Move Overhead`).
    pub move_overhead_ms: u64,
    /// Plain alpha-beta, for measuring what the rest is worth: iterative deepening, the
    /// transposition table and TT-move/gain ordering only — no aspiration windows, pruning,
    /// reductions, killers, history or quiescence (UCI option `Basic Search`).
    pub basic: bool,
    /// The search's tuning values: the variant's own set, given by the engine
    /// ([`crate::variant::GameKind::search_params`]), or those of the `Tune …` options of a tuning
    /// build. The default is [`SearchParams::DEFAULT`] (the tafl family's set).
    pub params: SearchParams,
    /// The evaluation (engine option `EvalFile`): each game's default, the hand-written one, or
    /// a network read from a file.
    pub eval: EvalChoice,
    /// The test seam of the fault path: a fault to raise in every search, so that tests can
    /// check that a panic inside a search is caught and reported ([`Fault`]). `None` (the
    /// default) everywhere else.
    pub fault: Option<Fault>,
}

/// A fault a search raises on purpose, for the tests of the fault path
/// ([`SearchOptions::fault`]): the thread panics as its search starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The main thread (thread 0) panics.
    MainThread,
    /// Every helper thread of a Lazy SMP search panics (the main thread does not).
    Helpers,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            basic: false,
            params: SearchParams::DEFAULT,
            eval: EvalChoice::Default,
            fault: None,
        }
    }
}

/// Searches `root` and returns the best move.
///
/// - `history`: Zobrist hashes of the game's positions before `root`, oldest first (for
///   repetition).
/// - `control`: [`Control::stop`] it from another thread to end the search; the best move found
///   so far is returned (after depth 1 at least: an answer is always searched). While it
///   ponders no time limit applies. The search returns when it is done even if `limits.infinite`
///   is set or it still ponders: holding the answer until `stop` or `ponderhit` is the caller's
///   policy ([`Control::wait_released`]).
/// - `main_data`: the calling thread's tables (thread 0 of `pool`); `pool` runs the other
///   `options.threads - 1` workers (Lazy SMP; threads beyond the pool's size are not used).
/// - `report`: called on the calling thread after each completed iteration.
///
/// The calling thread is the main one and owns the clock.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Game>(
    root: &G,
    history: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    tt: &Arc<TranspositionTable>,
    control: &Arc<Control>,
    main_data: &mut ThreadData,
    pool: Option<&ThreadPool>,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let threads = options.threads.max(1).min(pool.map_or(1, |p| p.len()));
    tt.new_search();
    let max_depth = limits
        .depth
        .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
    let multipv = options.multipv.max(1);
    let node_limit = limits.nodes;
    let params = options.params;
    let shared = Arc::new(CachePadded::new(Shared {
        tt: Arc::clone(tt),
        control: Arc::clone(control),
        done: AtomicBool::new(false),
        nodes: (0..threads)
            .map(|_| CachePadded::new(AtomicU64::new(0)))
            .collect(),
        start: limits.start.unwrap_or_else(Instant::now),
        budget: TimeBudget::new(
            limits,
            root.side_to_move(),
            options.move_overhead_ms,
            &params,
            root.moves_left_estimate(),
        ),
        node_limit,
        basic: options.basic,
        params,
        eval: options.eval.clone(),
        fault: options.fault,
    }));

    let mut found = run_threads(
        root, history, &shared, threads, max_depth, multipv, main_data, pool, report,
    );
    // Lazy SMP: with one line wanted and no depth limit, the threads vote for the move by
    // score and completed depth (Stockfish's rule, `smp::best_thread`); the chosen thread's
    // line is reported last.
    let best = if multipv == 1 && limits.depth.is_none() {
        best_thread(&found)
    } else {
        0
    };
    if best != 0 {
        let chosen = &found[best];
        if let Some((score, pv)) = chosen.result.lines.first() {
            let nodes = shared.total_nodes();
            let time_ms = shared.start.elapsed().as_millis() as u64;
            report(&Report {
                depth: chosen.result.depth,
                seldepth: chosen.seldepth,
                multipv: 1,
                score: Score::from_internal(*score),
                raw_score: *score,
                nodes,
                time_ms,
                nps: nodes * 1000 / time_ms.max(1),
                hashfull: shared.tt.hashfull(),
                pv: pv.clone(),
            });
        }
    }
    let result = found.swap_remove(best).result;

    SearchResult {
        nodes: shared.total_nodes(),
        ..result
    }
}

/// Runs one search on `threads` threads (Lazy SMP): the helpers as jobs on `pool`'s threads
/// 1.. (one line each, no report), the main worker on the calling thread with `main_data`,
/// `multipv` lines and `report`. Returns what each thread found, the main thread's first. Every
/// helper has ended when it returns; a panic that ended any thread is raised again here, so that
/// a fault in a helper is reported like one in the main thread instead of vanishing.
#[allow(clippy::too_many_arguments)]
fn run_threads<G: Game>(
    root: &G,
    history: &[u64],
    shared: &Arc<CachePadded<Shared>>,
    threads: usize,
    max_depth: u32,
    multipv: usize,
    main_data: &mut ThreadData,
    pool: Option<&ThreadPool>,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> Vec<ThreadResult<G::Move>> {
    // Helpers on the pool's threads 1..; each sends what it found when it has finished, or the
    // panic that ended it.
    type Found<M> = std::thread::Result<ThreadResult<M>>;
    let (finished_tx, finished_rx) = std::sync::mpsc::channel::<Found<G::Move>>();
    let mut helpers = 0;
    if let Some(pool) = pool {
        for id in 1..threads {
            let shared = Arc::clone(shared);
            let root = root.clone();
            let history = history.to_vec();
            let finished = finished_tx.clone();
            let sent = pool.send(
                id,
                Box::new(move |data: &mut ThreadData| {
                    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let mut worker = Worker::new(id, &shared, data, &history, &root);
                        worker.run(&root, max_depth, 1, &mut |_| {})
                    }));
                    if found.is_err() {
                        // The main thread must not search on alone until its own limits.
                        shared.done.store(true, Ordering::Relaxed);
                    }
                    let _ = finished.send(found);
                }),
            );
            if sent {
                helpers += 1;
            }
        }
    }
    drop(finished_tx);
    let main = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut worker = Worker::new(0, shared, main_data, history, root);
        worker.run(root, max_depth, multipv, report)
    }));
    // Whatever happened, the helpers end now and are waited for before this returns or
    // unwinds (they share the table and the tables of the pool).
    shared.done.store(true, Ordering::Relaxed);
    let mut found = Vec::with_capacity(helpers + 1);
    let mut fault = None;
    match main {
        Ok(r) => found.push(r),
        Err(panic) => fault = Some(panic),
    }
    for _ in 0..helpers {
        match finished_rx.recv() {
            Ok(Ok(r)) => found.push(r),
            Ok(Err(panic)) => fault = fault.or(Some(panic)),
            Err(_) => break,
        }
    }
    if let Some(panic) = fault {
        std::panic::resume_unwind(panic);
    }
    found
}

#[cfg(test)]
mod tests;
