//! What the threads of a Lazy SMP search share, what each of them finds, and the vote that
//! chooses whose answer the search plays.

use super::threads::Control;
use super::timeman::TimeBudget;
use super::tt::TranspositionTable;
use super::types::{INF, MATE_BOUND, SearchResult};
use crate::eval::EvalChoice;
use crate::tuning::SearchParams;
use crossbeam_utils::CachePadded;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
// (std's Instant panics on wasm32-unknown-unknown: the browser's clock there.)
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// State shared by all threads of one search. Every thread reads it at every node, so it is
/// kept in cache lines of its own (`CachePadded` around it in [`super::search`]): a neighbour on
/// the heap written by one thread would otherwise evict it from the others' caches (false
/// sharing).
pub(super) struct Shared {
    pub(super) tt: Arc<TranspositionTable>,
    /// `stop` from outside (UCI `stop`) and the ponder state.
    pub(super) control: Arc<Control>,
    /// Set by the main thread when it has finished, so helpers end too.
    pub(super) done: AtomicBool,
    /// Nodes of each thread, refreshed every 1024 nodes; one counter per cache line, so that
    /// one thread's refresh does not evict another's counter.
    pub(super) nodes: Vec<CachePadded<AtomicU64>>,
    pub(super) start: Instant,
    pub(super) budget: TimeBudget,
    pub(super) node_limit: Option<u64>,
    pub(super) basic: bool,
    pub(super) params: SearchParams,
    pub(super) eval: EvalChoice,
    /// A fault to inject ([`super::SearchOptions::fault`]; tests only).
    pub(super) fault: Option<super::Fault>,
}

impl Shared {
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// `true` once the search must end: stopped from outside or finished by the main thread.
    pub(super) fn stopped(&self) -> bool {
        self.control.is_stopped() || self.done.load(Ordering::Relaxed)
    }

    /// The time budget applies (it does not while the search ponders).
    pub(super) fn timed(&self) -> bool {
        !self.control.is_pondering()
    }
}

/// What one thread of a search found: its answer, the last depth it completed and the deepest
/// ply its last reported iteration reached.
#[derive(Clone, Debug)]
pub(super) struct ThreadResult<M> {
    pub(super) result: SearchResult<M>,
    pub(super) completed_depth: u32,
    pub(super) seldepth: u32,
}

/// Added to each thread's score above the lowest before weighting by depth in the vote, in
/// centipawns: Stockfish adds 14 of its internal units (about 7 cp; skald's scores are
/// centipawns).
pub(super) const VOTE_OFFSET: i64 = 10;

/// The index of the thread whose answer a Lazy SMP search plays: the rule of Stockfish's
/// `ThreadPool::get_best_thread` (thread.cpp), which also weights each thread's vote by the
/// depth it completed.
///
/// Each thread votes for its best move with the weight (its score − the lowest score of all
/// threads + [`VOTE_OFFSET`]) × its completed depth, so a deeper thread and a better score count
/// more. The threads are then taken in order, thread 0 first (it keeps ties): a thread replaces
/// the one chosen so far
/// - when that one has a proven win, only by a faster win (a higher score);
/// - when that one has a proven loss, only by a faster proven loss (a lower score: the deeper
///   refutation);
/// - otherwise when it has a proven win or a proven loss of its own (a proven loss is believed
///   over an unproven score), or when its move has more votes, or as many votes and the thread
///   itself weighs more (a thread whose line has fewer than three moves weighs nothing in this
///   comparison, so that the line shown is not a truncated one).
///
/// A thread without a move has no vote and is never chosen, unless no thread has a move.
pub(super) fn best_thread<M: Copy + Eq>(threads: &[ThreadResult<M>]) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::types::MATE;

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
}
