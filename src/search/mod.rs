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
//! Positions are evaluated through the game's [`Evaluator`] ([`crate::eval`]), chosen by
//! [`SearchOptions::eval`]: each thread keeps one accumulator per ply, computed at the root and
//! updated from the parent's as each child is made (copied for a null move).

pub mod threads;
pub mod timeman;
pub mod tt;

pub use threads::{Control, ThreadData, ThreadPool};
use timeman::time_scale;
pub use timeman::{Clock, Limits, TimeBudget};
pub use tt::{Bound, TranspositionTable};

use crate::eval::{EvalChoice, Evaluator};
use crate::game::{Game, Outcome, RepetitionRule, Side};
use crate::tuning::SearchParams;
use crossbeam_utils::CachePadded;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The score of a win at the root, in centipawns; a win in `p` plies scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are wins or losses (mate scores).
pub const MATE_BOUND: i32 = MATE - 1_000;
const INF: i32 = MATE + 1;
/// Tests only: a [`SearchParams::expected_moves`] of this value makes every helper thread of a
/// Lazy SMP search panic as it starts (the fault path's test).
#[cfg(test)]
pub(crate) const HELPER_FAULT_MARKER: i32 = -77;
/// The deepest ply the search reaches (the stack size).
pub const MAX_PLY: usize = 128;

/// A score as the protocols show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Cp(i32),
    /// A forced win in `n` moves (`n` > 0) or a forced loss in `-n` moves, counting the side to
    /// move's own moves (UCI `score mate`).
    Mate(i32),
}

impl Score {
    /// Converts an internal score (centipawns or `±(MATE - plies)`).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// One progress report: sent by the main thread after each completed iteration (and each
/// principal variation of a MultiPV search).
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The depth completed, in plies.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// 1-based index of this line in a MultiPV search.
    pub multipv: u32,
    /// The score of this line.
    pub score: Score,
    /// The score's internal value (centipawns or mate score).
    pub raw_score: i32,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started, ms.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition-table use, permill.
    pub hashfull: u32,
    /// The principal variation, from the root position.
    pub pv: Vec<M>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best_move: Option<M>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<M>,
    /// The best line's internal score.
    pub score: i32,
    /// The deepest completed depth.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// The principal variations of the last completed depth, best first (one per MultiPV line).
    pub lines: Vec<(i32, Vec<M>)>,
}

/// Settings of one search besides the limits.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// Number of principal variations to report (UCI `MultiPV`), at least 1.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication (UCI `Move Overhead`).
    pub move_overhead_ms: u64,
    /// Playing strength from 0 (weakest) to [`MAX_SKILL`] (full strength, the default); see
    /// [`Skill`].
    pub skill_level: u8,
    /// Seed of the random choice among near-best moves at reduced skill.
    pub seed: u64,
    /// Plain alpha-beta, for measuring what the rest is worth: iterative deepening, the
    /// transposition table and TT-move/gain ordering only — no aspiration windows, pruning,
    /// reductions, killers, history or quiescence (UCI option `Basic Search`).
    pub basic: bool,
    /// The search's tuning values: the variant's own set, given by the engine
    /// ([`crate::variant::search_params_for`]), or those of the `Tune …` options of a tuning
    /// build. The default is [`SearchParams::DEFAULT`] (the tafl family's set).
    pub params: SearchParams,
    /// The evaluation (engine option `EvalFile`): each game's default, the hand-written one, or
    /// a network read from a file.
    pub eval: EvalChoice,
}

/// Full strength for [`SearchOptions::skill_level`].
pub const MAX_SKILL: u8 = 20;

/// The named strength levels of `play` and the protocol, as skill values: `easy` = 2,
/// `medium` = 8, `hard` = 20 (full strength).
pub fn named_skill(name: &str) -> Option<u8> {
    match name.to_ascii_lowercase().as_str() {
        "easy" => Some(2),
        "medium" => Some(8),
        "hard" => Some(MAX_SKILL),
        _ => None,
    }
}

/// How a skill level below [`MAX_SKILL`] weakens play, in the manner of Stockfish's
/// `Skill Level`: the search is capped in depth and nodes and looks at four lines (MultiPV), then
/// picks among them at random, favouring better lines more as the level rises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 ..= [`MAX_SKILL`].
    pub level: u8,
}

impl Skill {
    /// Deepest depth searched at this level, plies: 1 at level 0, 10 at level 19.
    pub fn max_depth(self) -> u32 {
        1 + self.level as u32 / 2
    }

    /// Node cap at this level: 400 × 1.5^level (about 0.9 million at level 19).
    pub fn max_nodes(self) -> u64 {
        (400.0 * 1.5f64.powi(self.level as i32)) as u64
    }

    /// Picks one of `lines` (score, first move; best first) with the seeded generator: each
    /// line's score is pushed up by a random amount that shrinks as the level rises, and the
    /// highest pushed score wins.
    pub fn pick<M: Copy>(self, lines: &[(i32, M)], seed: u64) -> Option<M> {
        let (top, _) = *lines.first()?;
        let mut rng = crate::rng::SeededRng::new(seed);
        let weakness = 120 - 6 * self.level.min(MAX_SKILL - 1) as i32;
        let spread = lines
            .iter()
            .map(|l| top - l.0)
            .max()
            .unwrap_or(0)
            .clamp(0, 100);
        lines
            .iter()
            .map(|&(score, mv)| {
                let push = (weakness * (top - score)
                    + (spread + 20) * rng.below(weakness.max(1) as u64) as i32)
                    / 128;
                // Ignore mate scores' size so that a forced win is still usually played.
                (score.clamp(-MATE_BOUND, MATE_BOUND) + push, mv)
            })
            .max_by_key(|&(v, _)| v)
            .map(|(_, mv)| mv)
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            skill_level: MAX_SKILL,
            seed: 0,
            basic: false,
            params: SearchParams::DEFAULT,
            eval: EvalChoice::Default,
        }
    }
}

/// State shared by all threads of one search. Every thread reads it at every node, so it is
/// kept in cache lines of its own (`CachePadded` around it in [`search`]): a neighbour on the
/// heap written by one thread would otherwise evict it from the others' caches (false sharing).
struct Shared {
    tt: Arc<TranspositionTable>,
    /// `stop` from outside (UCI `stop`) and the ponder state.
    control: Arc<Control>,
    /// Set by the main thread when it has finished, so helpers end too.
    done: AtomicBool,
    /// Nodes of each thread, refreshed every 1024 nodes; one counter per cache line, so that
    /// one thread's refresh does not evict another's counter.
    nodes: Vec<CachePadded<AtomicU64>>,
    start: Instant,
    budget: TimeBudget,
    node_limit: Option<u64>,
    basic: bool,
    params: SearchParams,
    eval: EvalChoice,
}

impl Shared {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// `true` once the search must end: stopped from outside or finished by the main thread.
    fn stopped(&self) -> bool {
        self.control.is_stopped() || self.done.load(Ordering::Relaxed)
    }

    /// The time budget applies (it does not while the search ponders).
    fn timed(&self) -> bool {
        !self.control.is_pondering()
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
    let mut max_depth = limits
        .depth
        .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
    let mut multipv = options.multipv.max(1);
    let mut node_limit = limits.nodes;
    let skill = (options.skill_level < MAX_SKILL).then_some(Skill {
        level: options.skill_level,
    });
    if let Some(skill) = skill {
        max_depth = max_depth.min(skill.max_depth());
        node_limit = Some(node_limit.map_or(skill.max_nodes(), |n| n.min(skill.max_nodes())));
        multipv = multipv.max(4);
    }
    let params = options.params;
    let shared = Arc::new(CachePadded::new(Shared {
        tt: Arc::clone(tt),
        control: Arc::clone(control),
        done: AtomicBool::new(false),
        nodes: (0..threads)
            .map(|_| CachePadded::new(AtomicU64::new(0)))
            .collect(),
        start: Instant::now(),
        budget: TimeBudget::new(
            limits,
            root.side_to_move(),
            options.move_overhead_ms,
            params.expected_moves.max(1) as u32,
        ),
        node_limit,
        basic: options.basic,
        params,
        eval: options.eval.clone(),
    }));

    // Helpers on the pool's threads 1..; each sends what it found when it has finished, or the
    // panic that ended it (raised again on this thread below, so that a fault in a helper is
    // reported like one in the main thread instead of vanishing).
    type Found<M> = std::thread::Result<ThreadResult<M>>;
    let (finished_tx, finished_rx) = std::sync::mpsc::channel::<Found<G::Move>>();
    let mut helpers = 0;
    if let Some(pool) = pool {
        for id in 1..threads {
            let shared = Arc::clone(&shared);
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
        let mut worker = Worker::new(0, &shared, main_data, history, root);
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
    // Lazy SMP: with one line wanted and no depth limit, the threads vote for the move
    // (Stockfish's `get_best_thread`); the chosen thread's line is reported last.
    let best = if multipv == 1 && limits.depth.is_none() && skill.is_none() {
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
    let mut result = found.swap_remove(best).result;

    if let Some(skill) = skill {
        let firsts: Vec<(i32, G::Move)> = result
            .lines
            .iter()
            .filter_map(|(s, pv)| Some((*s, *pv.first()?)))
            .collect();
        if let Some(mv) = skill.pick(&firsts, options.seed ^ root.hash()) {
            if result.best_move != Some(mv) {
                result.ponder = None;
            }
            result.best_move = Some(mv);
        }
    }
    SearchResult {
        nodes: shared.total_nodes(),
        ..result
    }
}

/// What one thread of a search found: its answer, the last depth it completed and the deepest
/// ply its last reported iteration reached.
#[derive(Clone, Debug)]
struct ThreadResult<M> {
    result: SearchResult<M>,
    completed_depth: u32,
    seldepth: u32,
}

/// Added to each thread's score above the lowest before weighting by depth in the vote, in
/// centipawns (Stockfish uses 14 of its internal units, about 7 cp; skald's scores are
/// centipawns).
const VOTE_OFFSET: i64 = 10;

/// The index of the thread whose answer a Lazy SMP search plays (Stockfish's
/// `ThreadPool::get_best_thread`). Each thread votes for its best move with weight
/// (score − lowest score of all threads + [`VOTE_OFFSET`]) × completed depth; the move with
/// most votes wins, and among the threads that chose it the one with the highest weight (a
/// thread whose line has fewer than three moves weighs nothing there). A proven win beats
/// everything (the fastest one among several), a proven loss beats an unproven score (the
/// fastest loss among several: the deeper refutation), and a thread on a lost line never
/// replaces one that is not. Thread 0 is the starting choice and keeps ties; a thread without
/// a move has no say.
fn best_thread<M: Copy + Eq>(threads: &[ThreadResult<M>]) -> usize {
    let first_move = |t: &ThreadResult<M>| {
        t.result
            .lines
            .first()
            .and_then(|(_, pv)| pv.first().copied())
    };
    let score = |t: &ThreadResult<M>| t.result.lines.first().map_or(-INF, |(s, _)| *s);
    let Some(min_score) = threads
        .iter()
        .filter(|t| first_move(t).is_some())
        .map(score)
        .min()
    else {
        return 0;
    };
    let weight = |t: &ThreadResult<M>| {
        (score(t) as i64 - min_score as i64 + VOTE_OFFSET) * t.completed_depth as i64
    };
    let mut votes: Vec<(M, i64)> = Vec::new();
    for t in threads {
        if let Some(mv) = first_move(t) {
            match votes.iter_mut().find(|(m, _)| *m == mv) {
                Some((_, v)) => *v += weight(t),
                None => votes.push((mv, weight(t))),
            }
        }
    }
    let votes_for = |mv: Option<M>| {
        votes
            .iter()
            .find(|(m, _)| Some(*m) == mv)
            .map_or(i64::MIN, |(_, v)| *v)
    };
    let is_win = |s: i32| s >= MATE_BOUND;
    let is_loss = |s: i32| s <= -MATE_BOUND;
    let mut best = 0;
    for (i, t) in threads.iter().enumerate() {
        let Some(mv) = first_move(t) else { continue };
        let b = &threads[best];
        if first_move(b).is_none() {
            best = i;
            continue;
        }
        let (best_score, new_score) = (score(b), score(t));
        let long_line =
            |t: &ThreadResult<M>| t.result.lines.first().is_some_and(|(_, pv)| pv.len() > 2) as i64;
        let better_weight = weight(t) * long_line(t) > weight(b) * long_line(b);
        let (best_votes, new_votes) = (votes_for(first_move(b)), votes_for(Some(mv)));
        let replace = if is_win(best_score) {
            new_score > best_score
        } else if is_loss(best_score) {
            is_loss(new_score) && new_score < best_score
        } else {
            is_win(new_score)
                || is_loss(new_score)
                || (new_votes > best_votes || (new_votes == best_votes && better_weight))
        };
        if replace {
            best = i;
        }
    }
    best
}

/// One search thread's private state.
struct Worker<'a, G: Game> {
    id: usize,
    shared: &'a Shared,
    /// Killers and history, kept by the thread from one search to the next.
    data: &'a mut ThreadData,
    nodes: u64,
    /// The other threads' nodes when last looked at (every 1024 nodes; for the node limit).
    others_nodes: u64,
    seldepth: usize,
    /// The last depth whose iteration finished (0 before the first).
    completed_depth: u32,
    /// The selective depth of the iteration the current answer comes from.
    result_seldepth: u32,
    aborted: bool,
    /// Game history, then the root, then the current search path.
    hashes: Vec<u64>,
    /// Index of the root in `hashes` (the length of the game history).
    root_index: usize,
    repetition: RepetitionRule,
    /// The Zobrist key of the side to move ([`crate::game::side_key`]), for board-only
    /// repetition rules.
    side_key: u64,
    move_lists: Vec<Vec<G::Move>>,
    /// Ordering score and kind per move, per ply.
    score_lists: Vec<Vec<(i64, MoveKind)>>,
    /// Quiet moves searched at each ply without a cutoff, as (move code, history index), for
    /// the history malus.
    quiets_tried: Vec<Vec<(u16, usize)>>,
    /// Code of the move that led to each ply's position (0 at the root and after a null move).
    came_by: [u16; MAX_PLY + 1],
    /// The game's [`Game::history_index_count`], `n`: the continuation history has `n × n`
    /// entries.
    cont_n: usize,
    /// Where the continuation-history row of the move that led to each ply's position starts
    /// (its history index × `cont_n`); [`NO_ROW`] at the root, after a null move, or when the
    /// continuation history is off.
    cont_row: [usize; MAX_PLY + 1],
    pv: Vec<Vec<G::Move>>,
    /// Root moves not to search (the better lines of a MultiPV search).
    excluded: Vec<G::Move>,
    /// The best root line the current iteration has found so far (first line of a MultiPV
    /// search only): a move that raised alpha at the root, with its score (a lower bound after
    /// an aspiration fail-high). An iteration cut short answers with it, as Stockfish does.
    root_found: Option<(i32, Vec<G::Move>)>,
    /// Per ply, the code of the move a singular-extension test leaves out of the node's search
    /// (0 for none).
    singular_excluded: [u16; MAX_PLY + 1],
    /// The depth of the current iteration, plies.
    root_depth: i32,
    /// Late-move reduction table, indexed by depth and move number.
    lmr: Vec<[u8; 64]>,
    /// The evaluation ([`SearchOptions::eval`] for this game).
    eval: G::Eval,
    /// The evaluation's accumulator of the position at each ply of the current path.
    accs: Vec<Acc<G>>,
    /// Static evaluation of the position at each ply of the current path (for "improving").
    evals: [i32; MAX_PLY + 1],
    /// Plies since the last null move on the current path, at each ply (`u32::MAX` when there
    /// was none): the repetition window ([`Worker::repetition_window`]).
    plies_from_null: [u32; MAX_PLY + 1],
    /// How many times a repetition rule has decided a node of this search (a win or loss that
    /// depends on the path to the node, not on the position alone). A node whose subtree
    /// raised it and whose score is a mate score does not store that score in the
    /// transposition table, where another path could find it.
    path_verdicts: u64,
}

/// The per-ply accumulator of `G`'s evaluation.
type Acc<G> = <<G as Game>::Eval as Evaluator<G, <G as Game>::Move>>::Accumulator;

impl<'a, G: Game> Worker<'a, G> {
    /// A worker for one search. The thread's killers and history are reset: each search starts
    /// with fresh tables (as every search did when they were allocated per search), so results
    /// do not depend on what the thread searched before.
    fn new(
        id: usize,
        shared: &'a Shared,
        data: &'a mut ThreadData,
        history: &[u64],
        root: &G,
    ) -> Self {
        #[cfg(test)]
        assert!(
            id == 0 || shared.params.expected_moves != HELPER_FAULT_MARKER,
            "a fault in a helper thread, on purpose"
        );
        data.clear_for_search();
        let cont_n = if shared.params.cont_history_plies > 0 {
            root.history_index_count()
        } else {
            0
        };
        data.size_cont_history(cont_n);
        let eval = root.evaluator(&shared.eval);
        let mut accs: Vec<Acc<G>> = vec![Default::default(); MAX_PLY + 1];
        eval.refresh(root, &mut accs[0]);
        let mut hashes = Vec::with_capacity(history.len() + MAX_PLY + 2);
        hashes.extend_from_slice(history);
        hashes.push(root.hash());
        let lmr = (0..MAX_PLY)
            .map(|d| {
                let mut row = [0u8; 64];
                for (i, r) in row.iter_mut().enumerate() {
                    *r = shared.params.lmr_reduction(d, i);
                }
                row
            })
            .collect();
        Worker {
            id,
            shared,
            data,
            nodes: 0,
            others_nodes: 0,
            seldepth: 0,
            completed_depth: 0,
            result_seldepth: 0,
            aborted: false,
            hashes,
            root_index: history.len(),
            repetition: root.repetition_rule(),
            side_key: crate::game::side_key(root),
            move_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            score_lists: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            quiets_tried: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            came_by: [0; MAX_PLY + 1],
            cont_n,
            cont_row: [NO_ROW; MAX_PLY + 1],
            pv: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            excluded: Vec::new(),
            root_found: None,
            singular_excluded: [0; MAX_PLY + 1],
            root_depth: 0,
            lmr,
            eval,
            accs,
            evals: [0; MAX_PLY + 1],
            plies_from_null: [u32::MAX; MAX_PLY + 1],
            path_verdicts: 0,
        }
    }

    /// The static evaluation of `pos`, the position at `ply` of the current path, clamped
    /// below the mate scores.
    #[inline]
    fn evaluate(&self, pos: &G, ply: usize) -> i32 {
        // The library's own tests check every incremental accumulator against a refresh.
        #[cfg(test)]
        {
            let mut fresh = Acc::<G>::default();
            self.eval.refresh(pos, &mut fresh);
            assert_eq!(self.accs[ply], fresh, "accumulator at ply {ply} of {pos:?}");
        }
        if Self::NO_ACC {
            return Self::clamp_eval(self.eval.evaluate(pos, &Acc::<G>::default()));
        }
        Self::clamp_eval(self.eval.evaluate(pos, &self.accs[ply]))
    }

    /// The evaluation keeps no accumulator (a hand-written one): the search skips the
    /// accumulator's bookkeeping altogether.
    const NO_ACC: bool = std::mem::size_of::<Acc<G>>() == 0;

    /// Sets the accumulator of `child` (at `ply + 1`), made from `pos` (at `ply`) by `mv`.
    #[inline]
    fn update_acc(&mut self, pos: &G, mv: G::Move, child: &G, ply: usize) {
        if Self::NO_ACC {
            return;
        }
        let (head, tail) = self.accs.split_at_mut(ply + 1);
        self.eval.update(pos, mv, child, &head[ply], &mut tail[0]);
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Iterative deepening ([`Worker::iterate`]), with what the best-thread vote needs.
    fn run(
        &mut self,
        root: &G,
        max_depth: u32,
        multipv: usize,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> ThreadResult<G::Move> {
        let result = self.iterate(root, max_depth, multipv, report);
        ThreadResult {
            result,
            completed_depth: self.completed_depth,
            seldepth: self.result_seldepth,
        }
    }

    /// Iterative deepening. Returns the best move of the last completed iteration.
    fn iterate(
        &mut self,
        root: &G,
        max_depth: u32,
        multipv: usize,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut root_moves = Vec::new();
        root.generate_moves(&mut root_moves);
        let multipv = multipv.min(root_moves.len()).max(1);
        let mut result = SearchResult {
            best_move: root_moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        };
        if root_moves.is_empty() {
            return result;
        }
        // A single legal move needs no search when a clock governs the move.
        let forced = root_moves.len() == 1 && self.shared.budget.soft.is_some();
        let mut prev_score = 0;
        // Helper threads start one ply deeper on odd ids so the threads do not all search the
        // same tree at the same time.
        let first_depth = 1 + (self.id % 2) as u32;
        // For the time manager: completed iterations in a row with the same best move, and the
        // score of the iteration before.
        let mut stable_iterations = 0usize;
        let mut last_score: Option<i32> = None;
        for depth in first_depth..=max_depth {
            let mut lines: Vec<(i32, Vec<G::Move>)> = Vec::new();
            self.excluded.clear();
            self.root_found = None;
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let score = self.aspiration(root, depth as i32, prev_score, pv_index);
                if self.aborted {
                    break;
                }
                let line = self.pv[0].clone();
                let Some(&best) = line.first() else { break };
                self.excluded.push(best);
                if pv_index == 0 {
                    prev_score = score;
                }
                lines.push((score, line));
            }
            // An iteration cut short before its first line was complete still answers with the
            // best root move it found, if any (a move that beat the first one searched, or
            // failed high).
            if self.aborted
                && lines.is_empty()
                && multipv == 1
                && let Some(found) = self.root_found.take()
            {
                lines.push(found);
            }
            // A depth cut short counts only when nothing is known yet: with several lines, the
            // last complete depth's lines (and best move) stand.
            if self.aborted && (lines.is_empty() || (lines.len() < multipv && result.depth > 0)) {
                break;
            }
            // Best first: a later line, searched without the better moves, can come back with a
            // higher score than an earlier one. The sort is stable, so ties keep search order.
            lines.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            if let Some((score, line)) = lines.first() {
                if result.depth > 0 && line.first().copied() == result.best_move {
                    stable_iterations += 1;
                } else {
                    stable_iterations = 0;
                }
                if result.depth > 0 {
                    last_score = Some(result.score);
                }
                result.best_move = line.first().copied();
                result.ponder = line.get(1).copied();
                result.score = *score;
                result.depth = depth;
                self.result_seldepth = self.seldepth.max(depth as usize) as u32;
            }
            if !self.aborted {
                self.completed_depth = depth;
            }
            if self.is_main() {
                self.flush_nodes();
                let nodes = self.shared.total_nodes();
                let elapsed = self.shared.start.elapsed();
                let time_ms = elapsed.as_millis() as u64;
                for (i, (score, line)) in lines.iter().enumerate() {
                    report(&Report {
                        depth,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        multipv: i as u32 + 1,
                        score: Score::from_internal(*score),
                        raw_score: *score,
                        nodes,
                        time_ms,
                        nps: nodes * 1000 / time_ms.max(1),
                        hashfull: self.shared.tt.hashfull(),
                        pv: line.clone(),
                    });
                }
            }
            result.lines = lines;
            let scale = time_scale(stable_iterations, last_score, result.score);
            if self.aborted || self.should_stop_between_iterations(scale) || forced {
                break;
            }
            // A proven win or loss does not change with more depth: once the search is a few
            // plies deeper than the mate, stop deepening (an infinite search then waits for
            // `stop`).
            let mate_plies = MATE - result.score.abs();
            if result.score.abs() >= MATE_BOUND && depth as i32 >= mate_plies + 4 && multipv == 1 {
                break;
            }
        }
        self.flush_nodes();
        result
    }

    /// `true` when no further iteration should start: stopped, the node limit reached, or (main
    /// thread, timed search) the soft limit × `scale` ([`time_scale`]; 1 for a fixed `movetime`)
    /// has passed.
    fn should_stop_between_iterations(&self, scale: f64) -> bool {
        if self.shared.stopped() {
            return true;
        }
        if !self.is_main() {
            return false;
        }
        // A fixed time (`movetime`: soft = hard) is used whole: only a clock's budget scales.
        let scale = if self.shared.budget.soft == self.shared.budget.hard {
            1.0
        } else {
            scale
        };
        if self.shared.timed()
            && let Some(soft) = self.shared.budget.soft
            && self.shared.start.elapsed() >= soft.mul_f64(scale)
        {
            return true;
        }
        if let Some(limit) = self.shared.node_limit
            && self.shared.total_nodes() >= limit
        {
            return true;
        }
        false
    }

    fn flush_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Root search with an aspiration window around the previous iteration's score.
    fn aspiration(&mut self, root: &G, depth: i32, prev: i32, pv_index: usize) -> i32 {
        self.root_depth = depth;
        let params = &self.shared.params;
        if depth < params.aspiration_min_depth
            || pv_index > 0
            || prev.abs() >= MATE_BOUND
            || self.shared.basic
        {
            return self.negamax(root, depth, -INF, INF, 0, false);
        }
        let mut delta = params.aspiration_delta;
        let mut alpha = (prev - delta).max(-INF);
        let mut beta = (prev + delta).min(INF);
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0, false);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta {
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Checks the stop flags, the hard time limit and the node limit. The main thread's first
    /// iteration (depth 1) is never cut short, so the answer is always a searched move with a
    /// report behind it, whatever the limits (`go nodes 1`, a `stop` sent before the search
    /// began).
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let may_stop = self.completed_depth > 0 || !self.is_main();
        if may_stop
            && let Some(limit) = self.shared.node_limit
            && self.nodes + self.others_nodes >= limit
        {
            self.aborted = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            self.flush_nodes();
            if self.shared.nodes.len() > 1 {
                // The other threads' counts, read here rather than at every node: they change
                // only every 1024 nodes, and reading them is a cache miss once they have.
                self.others_nodes =
                    self.shared.total_nodes() - self.shared.nodes[self.id].load(Ordering::Relaxed);
            }
            if !may_stop {
                // Depth 1 of the main thread: nothing may stop it.
            } else if self.shared.stopped() {
                self.aborted = true;
            } else if self.is_main()
                && self.shared.timed()
                && let Some(hard) = self.shared.budget.hard
                && self.shared.start.elapsed() >= hard
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// How many positions before the one on top of the hash stack (`pos`, at `ply`) may equal
    /// it: none before the last irreversible move (the halfmove clock, which is also the
    /// move-limit clock where a game has one), and none before the last null move of the
    /// search path (Stockfish's `pliesFromNull`): a null move is no move of the game, and the
    /// board before it is the board after it, so comparing across it would find a "repetition"
    /// that no real line contains (the Copenhagen rule that a defender may not recreate a board
    /// then scored every defender null move as a loss).
    fn repetition_window(&self, pos: &G, ply: usize) -> usize {
        (pos.halfmove_clock() as usize)
            .min(self.plies_from_null[ply] as usize)
            .min(self.hashes.len() - 1)
    }

    /// `true` if the position on top of the hash stack occurred before and the game draws
    /// repetitions. Only positions since the last irreversible move can repeat.
    fn is_repetition(&self, pos: &G, ply: usize) -> bool {
        if self.repetition == RepetitionRule::Ignored {
            return false;
        }
        let n = self.hashes.len();
        let window = self.repetition_window(pos, ply);
        let hash = self.hashes[n - 1];
        self.hashes[n - 1 - window..n - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&h| h == hash)
    }

    /// The score of the position on top of the hash stack by the repetition rule, from the side
    /// to move's view, or `None` when the rule does not end the game here.
    ///
    /// Draw rules: any earlier occurrence scores 0 (the cycle can be repeated until it draws).
    /// Rules that decide for one side (OpenTafl `tfr:w`/`tfr:l`), as Fairy-Stockfish scores its
    /// n-fold rules: the game is decided when the position has occurred `n` times with the game
    /// history, or once before within the search (after the root), since the side that closed
    /// the cycle can close it again; the score is a win or loss at this ply, so the search
    /// steers away from a losing repetition and into a winning one.
    fn repetition_score(&self, pos: &G, ply: usize) -> Option<i32> {
        if !self.repetition.is_decisive() {
            return self.is_repetition(pos, ply).then_some(0);
        }
        let nth = self.repetition.nth()? as usize;
        let n = self.hashes.len();
        let window = self.repetition_window(pos, ply);
        let hash = self.hashes[n - 1];
        // Earlier positions with the same side to move: every second one back; for a forbidden
        // board, every earlier position with the same placement, whichever side was to move.
        let (other, step) = match self.repetition {
            RepetitionRule::Forbidden(_) => (hash ^ self.side_key, 1),
            _ => (hash, 2),
        };
        let mut seen = 0;
        let mut in_tree = false;
        let mut i = n - 1;
        while i >= step && i - step >= n - 1 - window {
            i -= step;
            if self.hashes[i] == hash || self.hashes[i] == other {
                seen += 1;
                in_tree |= i > self.root_index;
            }
        }
        if seen + 1 >= nth || (seen > 0 && in_tree) {
            let outcome = self.repetition.verdict(pos.side_to_move());
            // RepetitionRule::Forbidden binds one side only: the other side's repetitions go on.
            if !outcome.is_decided() {
                return None;
            }
            return Some(Self::terminal_score(outcome, pos.side_to_move(), ply));
        }
        None
    }

    fn terminal_score(outcome: Outcome, stm: Side, ply: usize) -> i32 {
        match outcome {
            Outcome::Decided {
                winner: Some(w), ..
            } => {
                if w == stm {
                    MATE - ply as i32
                } else {
                    -MATE + ply as i32
                }
            }
            _ => 0,
        }
    }

    fn clamp_eval(v: i32) -> i32 {
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        was_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv[ply].clear();
        if self.check_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if !root {
            let outcome = pos.outcome();
            if outcome.is_decided() {
                return Self::terminal_score(outcome, pos.side_to_move(), ply);
            }
            if let Some(score) = self.repetition_score(pos, ply) {
                if score != 0 {
                    self.path_verdicts += 1;
                }
                return score;
            }
            // A win on this move (tafl: the king sees an escape square): nothing beats it.
            if !self.shared.basic && pos.can_win_at_once() {
                return MATE - ply as i32 - 1;
            }
            // Mate-distance pruning: no line from here beats a faster mate already found.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(pos, ply);
        }
        // A threat to lose at once is answered one ply deeper and never pruned.
        let threatened = pos.must_answer();
        let depth = if threatened && !self.shared.basic && ply < MAX_PLY / 2 {
            depth.max(0) + 1
        } else {
            depth
        };
        if depth <= 0 {
            if self.shared.basic {
                return self.evaluate(pos, ply);
            }
            return self.quiescence(pos, alpha, beta, ply, 0);
        }

        let path_verdicts_before = self.path_verdicts;
        // A singular-extension test of the TT move: this node is searched without it.
        let singular_excluded = self.singular_excluded[ply];
        let hash = pos.hash();
        let entry = self.shared.tt.probe(hash);
        let mut tt_move = 0u16;
        let mut static_eval = None;
        if let Some(e) = entry {
            tt_move = e.mv;
            static_eval = Some(e.eval as i32);
            let s = score_from_tt(e.score as i32, ply);
            // A stored mate beyond this position's move-limit clock gives no cutoff.
            if !pv_node
                && singular_excluded == 0
                && e.depth as i32 >= depth
                && mate_within_move_limit(pos, s, ply)
            {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let static_eval = static_eval.unwrap_or_else(|| self.evaluate(pos, ply));
        self.evals[ply] = static_eval;
        // Improving: the side to move stands better than two plies ago.
        let improving = self.shared.params.improving
            && !threatened
            && ply >= 2
            && static_eval > self.evals[ply - 2];

        if !pv_node
            && !root
            && !threatened
            && singular_excluded == 0
            && beta.abs() < MATE_BOUND
            && !self.shared.basic
        {
            // Reverse futility pruning: far above beta at low depth, assume it holds.
            let params = &self.shared.params;
            let rfp_depth = if params.improving && !improving {
                depth + 1
            } else {
                depth
            };
            if params.rfp
                && depth <= params.rfp_max_depth
                && static_eval - params.rfp_margin * rfp_depth >= beta
            {
                return static_eval;
            }
            // Null-move pruning: if passing still fails high, a real move will too.
            if !was_null
                && depth >= params.nmp_min_depth
                && static_eval >= beta
                && pos.null_move_allowed()
            {
                let r = params.nmp_base + depth / params.nmp_divisor.max(1);
                let mut child = pos.clone();
                child.make_null_move();
                // The placement is unchanged: so is the accumulator.
                if !Self::NO_ACC {
                    self.accs[ply + 1] = self.accs[ply].clone();
                }
                self.came_by[ply + 1] = 0;
                self.cont_row[ply + 1] = NO_ROW;
                self.plies_from_null[ply + 1] = 0;
                self.hashes.push(child.hash());
                let v = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, true);
                self.hashes.pop();
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Internal iterative reduction: without a TT move this node's ordering is poor and it was
        // likely not searched before; search it one ply shallower.
        let params = self.shared.params;
        let depth = if params.iir_min_depth > 0
            && tt_move == 0
            && depth >= params.iir_min_depth
            && !self.shared.basic
        {
            depth - 1
        } else {
            depth
        };

        // Singular extension: when the TT move's lower bound is deep enough and every other move
        // fails low against a margin below it at a reduced depth, the TT move is the only good
        // one and is searched one ply deeper; when the others reach beta too (multi-cut), the
        // node fails high at once.
        let mut tt_extension = 0;
        if params.se_min_depth > 0
            && !root
            && singular_excluded == 0
            && !self.shared.basic
            && depth >= params.se_min_depth
            && tt_move != 0
            && (ply as i32) < 2 * self.root_depth
            && let Some(e) = entry
            && e.bound != Bound::Upper
            && e.depth as i32 >= depth - params.se_tt_depth_margin
        {
            let tt_score = score_from_tt(e.score as i32, ply);
            if tt_score.abs() < MATE_BOUND {
                let singular_beta = tt_score - params.se_margin * depth;
                self.singular_excluded[ply] = tt_move;
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    was_null,
                );
                self.singular_excluded[ply] = 0;
                if self.aborted {
                    return 0;
                }
                self.pv[ply].clear();
                if v < singular_beta {
                    tt_extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        pos.generate_moves(&mut moves);
        if root && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(m));
        }
        if singular_excluded != 0 {
            moves.retain(|&m| pos.encode_move(m) != singular_excluded);
            if moves.is_empty() {
                self.move_lists[ply] = moves;
                return alpha;
            }
        }
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return Self::terminal_score(pos.outcome(), pos.side_to_move(), ply);
        }
        let side = pos.side_to_move().index();
        let mut scores = std::mem::take(&mut self.score_lists[ply]);
        scores.clear();
        // Stage 1: the TT move, searched before any other move is scored (a cutoff then costs
        // no ordering work). Stage 2: the rest, scored once (with the history as it is then),
        // picked best first.
        let tt_first = tt_move != 0
            && match moves.iter().position(|&m| pos.encode_move(m) == tt_move) {
                Some(t) => {
                    moves.swap(0, t);
                    let (gain, tactical) = pos.gain_and_tactical(moves[0]);
                    scores.push((
                        TT_MOVE_SCORE,
                        MoveKind {
                            quiet: !tactical,
                            reducible: false,
                            gain,
                        },
                    ));
                    true
                }
                None => false,
            };
        let counter = if ply > 0 {
            self.data.counters[side * 65536 + self.came_by[ply] as usize]
        } else {
            0
        };
        self.quiets_tried[ply].clear();

        let reductions = params.lmr && !self.shared.basic;
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            if scores.len() < moves.len() && !(tt_first && i == 0) {
                let start = scores.len();
                for &m in &moves[start..] {
                    scores.push(self.order_score(pos, m, ply, side, counter));
                }
            }
            if scores.len() == moves.len() {
                // Selection sort: bring the best-ordered remaining move to position i.
                let mut top = i;
                for j in i + 1..moves.len() {
                    if scores[j].0 > scores[top].0 {
                        top = j;
                    }
                }
                moves.swap(i, top);
                scores.swap(i, top);
            }
            let mv = moves[i];
            let kind = scores[i].1;
            // Late-move pruning of moves that gain nothing: once `lmp_no_gain_moves` moves are
            // searched and one of them does not lose, the rest that gain nothing are skipped
            // (they come last in the order, so the loop ends).
            if params.lmp_no_gain_moves > 0
                && !root
                && !self.shared.basic
                && !threatened
                && i as i32 >= params.lmp_no_gain_moves
                && best > -MATE_BOUND
                && kind.gain <= 0
                && kind.reducible
            {
                if scores.len() == moves.len() {
                    break;
                }
                continue;
            }
            // Futility pruning: at low depth, when even a margin above the static evaluation
            // cannot reach alpha, the late moves are not searched.
            if params.fp_max_depth > 0
                && !root
                && !pv_node
                && !self.shared.basic
                && !threatened
                && depth <= params.fp_max_depth
                && i as i32 >= params.fp_min_moves
                && best > -MATE_BOUND
                && alpha.abs() < MATE_BOUND
                && kind.reducible
                && static_eval + params.fp_margin_base + params.fp_margin * depth <= alpha
            {
                continue;
            }

            let mut child = pos.clone();
            child.make_move(mv);
            self.update_acc(pos, mv, &child, ply);
            self.came_by[ply + 1] = pos.encode_move(mv);
            self.cont_row[ply + 1] = if self.cont_n > 0 {
                pos.history_index(mv) * self.cont_n
            } else {
                NO_ROW
            };
            self.hashes.push(child.hash());
            self.plies_from_null[ply + 1] = self.plies_from_null[ply].saturating_add(1);
            let new_depth = if tt_first && i == 0 {
                depth - 1 + tt_extension
            } else {
                depth - 1
            };
            let mut v;
            let searched = i;
            if searched == 0 {
                v = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
            } else {
                let mut r = 0;
                let min_moves = if pv_node {
                    params.lmr_min_moves_pv
                } else {
                    params.lmr_min_moves
                };
                if reductions
                    && depth >= params.lmr_min_depth
                    && kind.reducible
                    && searched as i32 >= min_moves
                {
                    r = self.lmr[depth.min(MAX_PLY as i32 - 1) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if params.improving && !improving {
                        r += 1;
                    }
                    if params.lmr_history_divisor > 0 {
                        let code = pos.encode_move(mv) as usize;
                        let mut h = self.data.history[side * 65536 + code];
                        if self.cont_n > 0 && params.lmr_cont_history > 0 {
                            h += self.cont_score(ply, pos.history_index(mv));
                        }
                        r -= h / params.lmr_history_divisor;
                    }
                    // Never below depth 0 of the reduced search, never an extension; `new_depth`
                    // may be 0 here when `lmr_min_depth` is 1.
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                v = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if v > alpha && r > 0 {
                    v = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.hashes.pop();
            if self.aborted {
                self.move_lists[ply] = moves;
                self.score_lists[ply] = scores;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if root && self.excluded.is_empty() {
                        self.root_found = Some((v, head[ply].clone()));
                    }
                    if v >= beta {
                        if kind.quiet && !self.shared.basic {
                            self.reward_quiet(pos, mv, ply, side, depth);
                        }
                        break;
                    }
                }
            }
            if kind.quiet {
                let index = if self.cont_n > 0 {
                    pos.history_index(mv)
                } else {
                    0
                };
                self.quiets_tried[ply].push((pos.encode_move(mv), index));
            }
        }
        self.move_lists[ply] = moves;
        self.score_lists[ply] = scores;

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A mate that a repetition verdict below decided holds on this path only.
        let path_mate = best.abs() >= MATE_BOUND && self.path_verdicts != path_verdicts_before;
        if (!root || self.excluded.is_empty()) && singular_excluded == 0 && !path_mate {
            self.shared.tt.store(
                hash,
                tt::Entry {
                    mv: best_move.map_or(0, |m| pos.encode_move(m)),
                    score: score_to_tt(best, ply) as i16,
                    eval: static_eval as i16,
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }

    /// The ordering score of a move other than the TT move and whether it may be reduced
    /// (neither tactical nor a killer). Order: tactical moves by gain; then the rest by immediate
    /// gain (Ataxx flips; 0 for a quiet tafl move), killers first among equal gains, then
    /// history.
    fn order_score(
        &self,
        pos: &G,
        mv: G::Move,
        ply: usize,
        side: usize,
        counter: u16,
    ) -> (i64, MoveKind) {
        let code = pos.encode_move(mv);
        let (gain, tactical) = pos.gain_and_tactical(mv);
        if tactical {
            let kind = MoveKind {
                quiet: false,
                reducible: false,
                gain,
            };
            return (GAIN_SCORE + gain as i64, kind);
        }
        if self.shared.basic {
            let kind = MoveKind {
                quiet: true,
                reducible: true,
                gain,
            };
            return (gain as i64, kind);
        }
        // Killers, then the counter-move, above any history score.
        let special = if self.data.killers[ply][0] == code {
            3
        } else if self.data.killers[ply][1] == code {
            2
        } else if counter == code {
            1
        } else {
            0
        };
        let mut history = self.data.history[side * 65536 + code as usize] as i64;
        if self.cont_n > 0 && special == 0 {
            history += self.cont_score(ply, pos.history_index(mv)) as i64;
        }
        let score = ((gain.max(0) as i64) << 32)
            + if special > 0 {
                (HISTORY_MAX as i64) * 4 + special
            } else {
                history
            };
        let kind = MoveKind {
            quiet: true,
            reducible: special == 0,
            gain,
        };
        (score, kind)
    }

    /// The rows of the continuation history that apply at `ply`: those of the moves one and
    /// two plies earlier (as many as [`SearchParams::cont_history_plies`]), [`NO_ROW`] where
    /// there is none.
    #[inline]
    fn cont_rows(&self, ply: usize) -> [usize; 2] {
        let plies = self.shared.params.cont_history_plies;
        [
            if plies >= 1 {
                self.cont_row[ply]
            } else {
                NO_ROW
            },
            if plies >= 2 && ply >= 1 {
                self.cont_row[ply - 1]
            } else {
                NO_ROW
            },
        ]
    }

    /// The continuation-history score of a move with history index `index` at `ply`: the sum
    /// over [`Worker::cont_rows`], within ±2 × [`HISTORY_MAX`].
    #[inline]
    fn cont_score(&self, ply: usize, index: usize) -> i32 {
        self.cont_rows(ply)
            .iter()
            .filter(|&&row| row != NO_ROW)
            .map(|&row| self.data.cont_history[row + index] as i32)
            .sum()
    }

    /// A quiet move caused a cutoff: it becomes a killer and the counter-move of the move
    /// before, earns history (butterfly and continuation), and the quiet moves tried before it
    /// lose as much (malus). History moves by "gravity" (`h += bonus - h × |bonus| /
    /// HISTORY_MAX`), so it stays within ±[`HISTORY_MAX`] and recent results weigh more.
    fn reward_quiet(&mut self, pos: &G, mv: G::Move, ply: usize, side: usize, depth: i32) {
        let code = pos.encode_move(mv);
        if self.data.killers[ply][0] != code {
            self.data.killers[ply][1] = self.data.killers[ply][0];
            self.data.killers[ply][0] = code;
        }
        if ply > 0 && self.came_by[ply] != 0 {
            self.data.counters[side * 65536 + self.came_by[ply] as usize] = code;
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        let gravity = |h: &mut i32, delta: i32| {
            *h += delta - (*h as i64 * delta.abs() as i64 / HISTORY_MAX as i64) as i32;
        };
        gravity(&mut self.data.history[side * 65536 + code as usize], bonus);
        for &(tried, _) in &self.quiets_tried[ply] {
            if tried != code {
                gravity(
                    &mut self.data.history[side * 65536 + tried as usize],
                    -bonus,
                );
            }
        }
        if self.cont_n > 0 {
            let cont = |h: &mut i16, delta: i32| {
                let mut v = *h as i32;
                gravity(&mut v, delta);
                *h = v as i16;
            };
            let index = pos.history_index(mv);
            for row in self.cont_rows(ply) {
                if row == NO_ROW {
                    continue;
                }
                cont(&mut self.data.cont_history[row + index], bonus);
                for &(tried, tried_index) in &self.quiets_tried[ply] {
                    if tried != code {
                        cont(&mut self.data.cont_history[row + tried_index], -bonus);
                    }
                }
            }
        }
    }

    fn quiescence(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        if self.check_stop() {
            return 0;
        }
        self.pv[ply].clear();
        if qdepth > 0 {
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply);
            let outcome = pos.outcome();
            if outcome.is_decided() {
                return Self::terminal_score(outcome, pos.side_to_move(), ply);
            }
            if pos.can_win_at_once() {
                return MATE - ply as i32 - 1;
            }
        }
        let stand_pat = self.evaluate(pos, ply);
        if stand_pat >= beta || ply >= MAX_PLY - 2 || qdepth >= MAX_QDEPTH {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        pos.generate_tactical(&mut moves);
        moves.sort_by_cached_key(|&m| -pos.move_gain(m));
        let mut best = stand_pat;
        for &mv in &moves {
            let mut child = pos.clone();
            child.make_move(mv);
            self.update_acc(pos, mv, &child, ply);
            let v = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        if self.aborted { 0 } else { best }
    }
}

/// How a move is treated besides its order: `quiet` moves (no capture, no escape) earn and
/// lose history; `reducible` ones (quiet, and neither the TT move, a killer nor the
/// counter-move) may be reduced.
#[derive(Clone, Copy, Debug)]
struct MoveKind {
    quiet: bool,
    reducible: bool,
    /// [`Game::move_gain`] of the move.
    gain: i32,
}

const TT_MOVE_SCORE: i64 = 1 << 60;
/// The largest history bonus for one cutoff (depth² up to this).
const HISTORY_BONUS_MAX: i32 = 1600;
const GAIN_SCORE: i64 = 1 << 50;
const HISTORY_MAX: i32 = 16384;
/// No continuation-history row ([`Worker::cont_row`]).
const NO_ROW: usize = usize::MAX;
const MAX_QDEPTH: u32 = 12;

/// `false` for a mate score (`score`, relative to the root, at `ply`) farther from `pos` than
/// its move-limit clock lets the game run ([`Game::plies_to_move_limit`]): found where the
/// clock was lower, it is no forced result here (Stockfish downgrades such TT mates by its
/// 50-move counter the same way). Other scores are `true`.
fn mate_within_move_limit<G: Game>(pos: &G, score: i32, ply: usize) -> bool {
    if score.abs() < MATE_BOUND {
        return true;
    }
    let distance = (MATE - score.abs()) as i64 - ply as i64;
    pos.plies_to_move_limit()
        .is_none_or(|left| distance <= left as i64)
}

/// Mate scores are stored relative to the node, so that a stored mate found at one ply can be
/// reused at another.
fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn score_from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Searches through [`crate::engine::Engine`] with each evaluation: every evaluation in
    /// the search checks its incremental accumulator against a refresh (`Worker::evaluate`
    /// under `cfg(test)`).
    #[test]
    fn incremental_accumulators_equal_refreshes_in_the_search() {
        use crate::engine::Engine;
        use crate::variant::Variant;
        let fens = [
            None,
            Some("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
            Some("x1x3o/3o1oo/4o1o/6o/3oxo1/1o1x3/o2xx2 o 2 15"),
            Some("xxxxooo/xxxxooo/xxxoooo/xxxoooo/xxxxooo/xxxoooo/xxx3o x 0 30"),
        ];
        for eval_file in ["<default>", "hand"] {
            let mut engine = Engine::new().unwrap();
            engine.set_variant(Variant::Ataxx);
            engine.set_option("EvalFile", eval_file).unwrap();
            for fen in fens {
                engine.session_mut().set_position(fen, &[]).unwrap();
                let limits = Limits {
                    nodes: Some(30_000),
                    ..Limits::default()
                };
                let r = engine.search(&limits, &mut |_| {});
                assert!(r.unwrap().best_move.is_some(), "{fen:?}");
            }
        }
        // A tafl game too (its accumulator is `()`), with null moves.
        let mut engine = Engine::new().unwrap();
        engine.set_variant(Variant::Tablut);
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        assert!(
            engine
                .search(&limits, &mut |_| {})
                .unwrap()
                .best_move
                .is_some()
        );
    }

    /// A thread's result for the vote: best move `mv` (a line of `pv_len` moves starting with
    /// it), `score`, completed `depth`.
    fn voter(mv: u8, score: i32, depth: u32, pv_len: usize) -> ThreadResult<u8> {
        let pv: Vec<u8> = std::iter::once(mv)
            .chain(std::iter::repeat_n(0, pv_len - 1))
            .collect();
        ThreadResult {
            result: SearchResult {
                best_move: Some(mv),
                ponder: pv.get(1).copied(),
                score,
                depth,
                nodes: 0,
                lines: vec![(score, pv)],
            },
            completed_depth: depth,
            seldepth: depth,
        }
    }

    #[test]
    fn the_threads_vote_by_score_and_depth() {
        // Move 2 has two voters against the main thread's move 1; of its voters, the one with
        // the higher score × depth weight answers.
        let threads = [
            voter(1, 20, 10, 4),
            voter(2, 30, 12, 4),
            voter(2, 25, 11, 4),
        ];
        assert_eq!(best_thread(&threads), 1);
        // A deep main thread outvotes a shallow helper: (40 + 10) × 14 against (0 + 10) × 3.
        let threads = [voter(1, 60, 14, 4), voter(2, 20, 3, 4)];
        assert_eq!(best_thread(&threads), 0);
        // Equal votes (one move) and a heavier helper, but its line is truncated: the main
        // thread's stands; with a full line the helper answers.
        assert_eq!(best_thread(&[voter(1, 10, 10, 3), voter(1, 40, 10, 1)]), 0);
        assert_eq!(best_thread(&[voter(1, 10, 10, 3), voter(1, 40, 10, 3)]), 1);
        // One thread alone.
        assert_eq!(best_thread(&[voter(3, -5, 2, 1)]), 0);
    }

    #[test]
    fn a_proven_result_beats_the_vote() {
        // A proven win beats any vote; the fastest of several wins.
        let threads = [
            voter(1, 50, 20, 4),
            voter(1, 50, 20, 4),
            voter(2, MATE - 7, 8, 7),
        ];
        assert_eq!(best_thread(&threads), 2);
        let threads = [
            voter(2, MATE - 7, 8, 7),
            voter(3, MATE - 5, 6, 5),
            voter(1, 50, 9, 4),
        ];
        assert_eq!(best_thread(&threads), 1);
        // A proven loss is believed over an unproven score, and is not given up for one...
        assert_eq!(
            best_thread(&[voter(1, 0, 9, 4), voter(2, -MATE + 10, 9, 9)]),
            1
        );
        assert_eq!(
            best_thread(&[voter(2, -MATE + 10, 9, 9), voter(1, 0, 12, 4)]),
            0
        );
        // ...and of two losses the faster one, the deeper refutation, answers.
        assert_eq!(
            best_thread(&[voter(2, -MATE + 10, 9, 9), voter(1, -MATE + 6, 9, 5)]),
            1
        );
    }

    #[test]
    fn a_thread_without_a_move_has_no_say() {
        let mut empty = voter(9, 500, 30, 4);
        empty.result.lines.clear();
        assert_eq!(best_thread(&[empty.clone(), voter(2, 10, 5, 4)]), 1);
        assert_eq!(best_thread(&[voter(2, 10, 5, 4), empty.clone()]), 0);
        assert_eq!(best_thread(&[empty.clone(), empty]), 0);
    }

    /// Searches `root` to `depth` with `params` on one thread; returns (best move, nodes).
    fn fixed_depth<G: Game>(root: &G, depth: u32, params: SearchParams) -> (Option<G::Move>, u64) {
        let tt = Arc::new(TranspositionTable::new(4).unwrap());
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let options = SearchOptions {
            params,
            ..SearchOptions::default()
        };
        let mut data = ThreadData::default();
        let r = search(
            root,
            &[],
            &limits,
            &options,
            &tt,
            &Control::new(false),
            &mut data,
            None,
            &mut |_| {},
        );
        (r.best_move, r.nodes)
    }

    /// Singular extensions and the continuation history, switched on at a depth the search
    /// reaches, change the tree and still give a move, in both game families.
    #[test]
    fn singular_extensions_and_continuation_history_run_in_both_families() {
        fn check<G: Game>(root: &G, depth: u32) {
            let base = SearchParams {
                cont_history_plies: 0,
                se_min_depth: 0,
                ..SearchParams::DEFAULT
            };
            let (mv, plain) = fixed_depth(root, depth, base);
            assert!(mv.is_some());
            for params in [
                SearchParams {
                    se_min_depth: 3,
                    ..base
                },
                SearchParams {
                    cont_history_plies: 2,
                    lmr_cont_history: 1,
                    ..base
                },
            ] {
                let (mv, nodes) = fixed_depth(root, depth, params);
                assert!(mv.is_some());
                assert_ne!(nodes, plain, "{params:?}");
            }
        }
        check(&crate::tafl::brandubh(), 7);
        check(&crate::ataxx::Position::start(), 6);
    }

    /// Runs `f` with a one-thread worker for `root` (game history `history`, oldest first),
    /// on a fresh 1 MiB table, with no limits.
    fn with_worker<G: Game, R>(
        root: &G,
        history: &[u64],
        f: impl FnOnce(&mut Worker<'_, G>) -> R,
    ) -> R {
        let shared = Shared {
            tt: Arc::new(TranspositionTable::new(1).unwrap()),
            control: Control::new(false),
            done: AtomicBool::new(false),
            nodes: vec![CachePadded::new(AtomicU64::new(0))],
            start: Instant::now(),
            budget: TimeBudget {
                soft: None,
                hard: None,
            },
            node_limit: None,
            basic: false,
            params: SearchParams::DEFAULT,
            eval: EvalChoice::Default,
        };
        let mut data = ThreadData::default();
        let mut worker = Worker::new(0, &shared, &mut data, history, root);
        f(&mut worker)
    }

    /// Makes `text` in `pos` as the search does at `ply` (a real move: one ply further from the
    /// last null move), returning the child.
    fn push_move<G: Game>(w: &mut Worker<'_, G>, pos: &G, text: &str, ply: usize) -> G {
        let mut child = pos.clone();
        child.make_move(pos.parse_move(text).unwrap());
        w.hashes.push(child.hash());
        w.plies_from_null[ply + 1] = w.plies_from_null[ply].saturating_add(1);
        child
    }

    /// The move from `mv`'s destination back to its origin (tafl `d4-d6` → `d6-d4`).
    fn reverse(mv: &str) -> String {
        let (from, to) = mv.split_once('-').unwrap();
        format!("{to}-{from}")
    }

    /// Copenhagen 11×11: a defender move may not recreate an earlier board (copenhagen.md). A
    /// defender *null move* leaves the board as it was, but it is no move of the game: the
    /// search must not judge the board after it as recreated (it did, so every defender null
    /// move scored as a loss and never cut off). A real recreation, five plies on, still is one:
    ///
    /// ```text
    /// P0 (defenders to move) -d-> P1 -a-> P2 -d back-> P3 -a back-> P4 (= P0) -d-> P5 (= P1)
    /// ```
    #[test]
    fn a_null_move_is_no_repetition_for_the_copenhagen_defenders() {
        let mut p0 = crate::tafl::copenhagen();
        let mut moves = Vec::new();
        p0.generate_moves(&mut moves);
        p0.make_move(moves[0]);
        assert_eq!(p0.side_to_move(), Side::Second);
        with_worker(&p0, &[], |w| {
            let mut null = p0;
            null.make_null_move();
            w.hashes.push(null.hash());
            w.plies_from_null[1] = 0;
            assert_eq!(w.repetition_score(&null, 1), None);
            w.hashes.pop();
        });
        let pick = |pos: &crate::tafl::LargePosition| {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            pos.move_to_string(moves[0])
        };
        with_worker(&p0, &[], |w| {
            let d = pick(&p0);
            let p1 = push_move(w, &p0, &d, 0);
            let a = pick(&p1);
            let p2 = push_move(w, &p1, &a, 1);
            let p3 = push_move(w, &p2, &reverse(&d), 2);
            assert_eq!(w.repetition_score(&p3, 3), None);
            let p4 = push_move(w, &p3, &reverse(&a), 3);
            // The attackers recreated P0's board: their moves may.
            assert_eq!(w.repetition_score(&p4, 4), None);
            let p5 = push_move(w, &p4, &d, 4);
            // The defenders recreated P1's board: the attackers (to move) win.
            assert_eq!(w.repetition_score(&p5, 5), Some(MATE - 5));
        });
    }

    /// A win that a repetition rule gives is a property of the path, not of the position: it
    /// must not reach the transposition table as a mate score, where another path to the same
    /// position would take it for a forced win. Brandubh under OpenTafl's `tfr:l` (the side
    /// whose move makes a position occur a third time wins): the attackers' first move recreates
    /// a position the game history already has twice.
    #[test]
    fn a_repetition_verdict_is_not_stored_as_a_mate_score() {
        let mut options = crate::tafl::RuleOptions::brandubh();
        options.repetition = RepetitionRule::MoverWins(3);
        let rules = crate::tafl::Rules::<u64>::leak(options).unwrap();
        let fen = crate::tafl::brandubh().fen().replacen(" 0 ", " 20 ", 1);
        let root = crate::tafl::Position::from_fen(rules, &fen).unwrap();
        assert_eq!(root.halfmove_clock(), 20, "{fen}");
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        let mut child = root;
        child.make_move(moves[0]);
        let history = [1, child.hash(), 2, child.hash()];
        with_worker(&root, &history, |w| {
            let score = w.negamax(&root, 2, -INF, INF, 0, false);
            assert_eq!(score, MATE - 1);
            let stored = w.shared.tt.probe(root.hash());
            assert!(
                stored.is_none_or(|e| (e.score as i32).abs() < MATE_BOUND),
                "{stored:?}"
            );
        });
    }

    /// A mate score in the table, found where a move-limit clock was low, is no cutoff where the
    /// clock leaves fewer plies than the mate needs (Ataxx, halfmove clock 99 of 100: the same
    /// board, the same key).
    #[test]
    fn a_stored_mate_does_not_outlive_the_move_limit_clock() {
        let pos = crate::ataxx::Position::start()
            .with_fen("x5o/7/7/7/7/7/o5x x 99 50")
            .unwrap();
        with_worker(&pos, &[], |w| {
            w.shared.tt.store(
                pos.hash(),
                tt::Entry {
                    mv: 0,
                    score: score_to_tt(MATE - 10, 0) as i16,
                    eval: 0,
                    depth: 60,
                    bound: Bound::Exact,
                },
            );
            let score = w.negamax(&pos, 2, 0, 1, 0, false);
            assert!(score.abs() < MATE_BOUND, "{score}");
        });
        assert!(!mate_within_move_limit(&pos, MATE - 10, 0));
        assert!(mate_within_move_limit(&pos, MATE - 1, 0));
        assert!(mate_within_move_limit(&pos, 250, 0));
    }

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
    }
}
