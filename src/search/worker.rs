//! One search thread (Stockfish's `Search::Worker`): its state, the evaluation's accumulators,
//! the stop checks, and iterative deepening with aspiration windows at the root. The node search
//! itself (negamax and quiescence) is in [`super::negamax`]; the per-ply state is the search
//! stack ([`super::stack`]).

use super::draws::GamePath;
use super::ordering::NO_ROW;
use super::smp::{Shared, ThreadResult};
use super::stack::{self, Acc, StackEntry};
use super::threads::ThreadData;
use super::timeman::{TimeKind, node_share_scale, time_scale};
use super::types::{INF, MATE, MATE_BOUND, MAX_PLY, Report, Score, SearchResult};
use crate::eval::Evaluator;
use crate::game::Game;
use std::sync::atomic::Ordering;

/// One search thread's private state.
pub(super) struct Worker<'a, G: Game> {
    pub(super) id: usize,
    pub(super) shared: &'a Shared,
    /// History tables, kept by the thread from one search to the next.
    pub(super) data: &'a mut ThreadData,
    pub(super) nodes: u64,
    /// The other threads' nodes when last looked at (every 1024 nodes; for the node limit).
    pub(super) others_nodes: u64,
    pub(super) seldepth: usize,
    /// The last depth whose iteration finished (0 before the first).
    pub(super) completed_depth: u32,
    /// The selective depth of the iteration the current answer comes from.
    pub(super) result_seldepth: u32,
    pub(super) aborted: bool,
    /// The positions of the game and of the current search path, for repetitions.
    pub(super) path: GamePath,
    /// The search stack: one entry per ply of the current path, the root's first.
    pub(super) stack: Vec<StackEntry<G>>,
    /// The evaluation's accumulator of the position at each ply of the current path (beside
    /// the stack, whose entries stay small).
    pub(super) accs: Vec<Acc<G>>,
    /// The game's [`Game::history_index_count`], `n`, when the continuation history is on (0
    /// when it is off): the continuation history has `n × n` entries.
    pub(super) cont_n: usize,
    /// Root moves not to search (the better lines of a MultiPV search).
    pub(super) excluded: Vec<G::Move>,
    /// The best root line the current iteration has found so far (first line of a MultiPV
    /// search only): a move that raised alpha at the root, with its score (a lower bound after
    /// an aspiration fail-high). An iteration cut short answers with it, as Stockfish does.
    pub(super) root_found: Option<(i32, Vec<G::Move>)>,
    /// The depth of the current iteration, plies.
    pub(super) root_depth: i32,
    /// Late-move reduction table, indexed by depth and move number.
    pub(super) lmr: Vec<[u8; 64]>,
    /// The evaluation ([`super::SearchOptions::eval`] for this game).
    pub(super) eval: G::Eval,
    /// How many times a repetition rule has decided a node of this search (a win or loss that
    /// depends on the path to the node, not on the position alone). A node whose subtree
    /// raised it and whose score is a mate score does not store that score in the
    /// transposition table, where another path could find it.
    pub(super) path_verdicts: u64,
    /// Nodes searched below each root move in this search, by move code (for the time
    /// manager's best-move node share, [`crate::tuning::SearchParams::tm_node_share`]).
    pub(super) root_nodes: Vec<(u16, u64)>,
}

impl<'a, G: Game> Worker<'a, G> {
    /// A worker for one search. The thread's history (butterfly and counter-moves) is reset,
    /// and the stack's killers start empty: each search starts with fresh tables (as every
    /// search did when they were allocated per search), so results do not depend on what the
    /// thread searched before.
    pub(super) fn new(
        id: usize,
        shared: &'a Shared,
        data: &'a mut ThreadData,
        history: &[u64],
        root: &G,
    ) -> Self {
        #[cfg(test)]
        assert!(
            id == 0 || shared.params.expected_moves != super::smp::HELPER_FAULT_MARKER,
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
        let stack = stack::new_stack::<G>();
        let mut accs = stack::new_accumulators::<G>();
        eval.refresh(root, &mut accs[0]);
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
            path: GamePath::new(history, root),
            stack,
            accs,
            cont_n,
            excluded: Vec::new(),
            root_found: None,
            root_depth: 0,
            lmr,
            eval,
            path_verdicts: 0,
            root_nodes: Vec::new(),
        }
    }

    /// The static evaluation of `pos`, the position at `ply` of the current path, clamped
    /// below the mate scores.
    #[inline]
    pub(super) fn evaluate(&self, pos: &G, ply: usize) -> i32 {
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
    pub(super) const NO_ACC: bool = std::mem::size_of::<Acc<G>>() == 0;

    /// Sets the accumulator of `child` (at `ply + 1`), made from `pos` (at `ply`) by `mv`.
    #[inline]
    pub(super) fn update_acc(&mut self, pos: &G, mv: G::Move, child: &G, ply: usize) {
        if Self::NO_ACC {
            return;
        }
        let (head, tail) = self.accs.split_at_mut(ply + 1);
        self.eval.update(pos, mv, child, &head[ply], &mut tail[0]);
    }

    /// Makes `mv` in `pos` (at `ply`) as the search goes down: the child, its accumulator, its
    /// stack entry and its place on the path (taken back by `self.path.pop()`).
    pub(super) fn make_move(&mut self, pos: &G, mv: G::Move, ply: usize) -> G {
        let mut child = pos.clone();
        child.make_move(mv);
        self.shared.tt.prefetch(child.hash());
        self.update_acc(pos, mv, &child, ply);
        self.stack[ply + 1].came_by = pos.encode_move(mv);
        self.stack[ply + 1].cont_row = if self.cont_n > 0 {
            pos.history_index(mv) * self.cont_n
        } else {
            NO_ROW
        };
        self.path.push_move(pos, mv, &child);
        self.stack[ply + 1].plies_from_null = self.stack[ply].plies_from_null.saturating_add(1);
        child
    }

    /// Makes a null move in `pos` (at `ply`), as [`Worker::make_move`] makes a move.
    pub(super) fn make_null_move(&mut self, pos: &G, ply: usize) -> G {
        let mut child = pos.clone();
        child.make_null_move();
        // The placement is unchanged: so is the accumulator.
        if !Self::NO_ACC {
            let (head, tail) = self.accs.split_at_mut(ply + 1);
            self.eval.copy_for_null_move(&head[ply], &mut tail[0]);
        }
        self.stack[ply + 1].came_by = 0;
        self.stack[ply + 1].cont_row = NO_ROW;
        self.stack[ply + 1].plies_from_null = 0;
        self.path.push_null(child.hash());
        child
    }

    /// The principal variation at `ply`: `mv`, then the child's.
    pub(super) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Iterative deepening ([`Worker::iterate`]), with what the best-thread vote needs.
    pub(super) fn run(
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
                let line = self.stack[0].pv.clone();
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
            let mut scale = time_scale(stable_iterations, last_score, result.score);
            if self.shared.params.tm_node_share != 0
                && depth >= 5
                && let Some(best) = result.best_move
            {
                scale *= node_share_scale(self.best_move_node_share(root, best));
            }
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
        // A fixed time (`movetime`) is used whole: only a clock's budget scales.
        let scale = match self.shared.budget.kind {
            TimeKind::Clock => scale,
            TimeKind::Fixed | TimeKind::Untimed => 1.0,
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

    /// Adds `nodes` to the root move `code`'s count in [`Worker::root_nodes`].
    pub(super) fn count_root_nodes(&mut self, code: u16, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((code, nodes)),
        }
    }

    /// The share of the root's nodes (this thread's, this search) spent below `best`, 0 to 1.
    fn best_move_node_share(&self, root: &G, best: G::Move) -> f64 {
        let code = root.encode_move(best);
        let total: u64 = self.root_nodes.iter().map(|(_, n)| n).sum();
        let best = self
            .root_nodes
            .iter()
            .find(|(c, _)| *c == code)
            .map_or(0, |(_, n)| *n);
        best as f64 / total.max(1) as f64
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
    pub(super) fn check_stop(&mut self) -> bool {
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

    /// `v` clamped below the mate scores.
    pub(super) fn clamp_eval(v: i32) -> i32 {
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }
}
