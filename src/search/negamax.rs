//! The node search of a [`Worker`]: principal variation search ([`Worker::negamax`]) in its
//! steps — the end of the path, the transposition-table cutoff, pruning before the moves
//! (reverse futility, null move), internal iterative reduction, the singular extension, the move
//! loop with late-move pruning and reductions, and the store — and quiescence search.

use super::draws::{mate_within_move_limit, terminal_score};
use super::ordering::{self, MoveKind, NO_ROW, NodeHistory};
use super::tt::{self, Bound, score_from_tt, score_to_tt};
use super::types::{INF, MATE, MATE_BOUND, MAX_PLY};
use super::worker::Worker;
use crate::game::{Game, forbidden_by_history};
use std::ops::ControlFlow;

/// The deepest quiescence search, in plies below the main search's leaf.
const MAX_QDEPTH: u32 = 12;

/// What the steps of one node of [`Worker::negamax`] share.
#[derive(Clone, Copy, Debug)]
struct Node {
    ply: usize,
    /// The window is open (`beta - alpha > 1`).
    pv_node: bool,
    root: bool,
    /// A threat to lose at once ([`Game::must_answer`]): the node is searched one ply deeper and
    /// nothing is pruned.
    threatened: bool,
    /// The node was reached by a null move.
    was_null: bool,
    /// The code of the move a singular-extension test leaves out of this node (0 for none).
    singular_excluded: u16,
    /// The position's Zobrist hash.
    hash: u64,
    /// The TT move's code (0 for none).
    tt_move: u16,
    /// The static evaluation (the stored one when the table has the position).
    static_eval: i32,
    /// The side to move stands better than two plies ago.
    improving: bool,
    /// [`Worker::path_verdicts`] when the node was entered.
    path_verdicts_before: u64,
}

impl<'a, G: Game> Worker<'a, G> {
    /// Principal variation search of `pos` (at `ply`, reached by a null move if `was_null`) to
    /// `depth` within (`alpha`, `beta`): the score from the side to move's view (0 once the
    /// search is aborted). The best line is left in the stack entry's `pv`.
    pub(super) fn negamax(
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
        self.stack[ply].pv.clear();
        if self.check_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        if !root {
            if let Some(score) = self.path_end(pos, ply) {
                return score;
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
        let singular_excluded = self.stack[ply].singular_excluded;
        let hash = pos.hash();
        let entry = self.shared.tt.probe(hash);
        if (!pv_node || (!root && self.shared.params.tt_cutoff_pv))
            && singular_excluded == 0
            && let Some(score) = tt_cutoff(pos, entry, depth, alpha, beta, ply)
        {
            return score;
        }
        let static_eval = match entry {
            Some(e) => e.eval as i32,
            None => self.evaluate(pos, ply),
        };
        self.stack[ply].static_eval = static_eval;
        // Improving: the side to move stands better than two plies ago.
        let improving = self.shared.params.improving
            && !threatened
            && ply >= 2
            && static_eval > self.stack[ply - 2].static_eval;
        let node = Node {
            ply,
            pv_node,
            root,
            threatened,
            was_null,
            singular_excluded,
            hash,
            tt_move: entry.map_or(0, |e| e.mv),
            static_eval,
            improving,
            path_verdicts_before,
        };

        if let Some(score) = self.prune_before_moves(pos, &node, depth, beta) {
            return score;
        }
        let depth = self.internal_iterative_reduction(&node, depth);
        let tt_extension = match self.singular_extension(pos, &node, entry, depth, beta) {
            ControlFlow::Continue(extension) => extension,
            ControlFlow::Break(score) => return score,
        };
        let (best, best_move) =
            match self.search_moves(pos, &node, depth, alpha, beta, tt_extension) {
                ControlFlow::Continue(found) => found,
                ControlFlow::Break(score) => return score,
            };
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(pos, &node, depth, best, best_move, bound);
        best
    }

    /// The score of `pos` (at `ply`, not the root) when the path ends there: the game is over,
    /// a repetition rule ends it, or the side to move wins on this move.
    ///
    /// Under a rule that forbids a side's repetitions (Copenhagen: a defender move may not
    /// recreate a board) the move that led here is judged before the board: a forbidden move is
    /// no move, so it loses for its side even where the board it makes would end the game
    /// otherwise (the move limit's draw on the 142nd ply scored it 0, and the engine played it:
    /// the TaflZero match of issue 55). Other rules judge a decided board first.
    fn path_end(&mut self, pos: &G, ply: usize) -> Option<i32> {
        let outcome = pos.outcome();
        if outcome.is_decided() && !self.path.forbids_moves() {
            return Some(terminal_score(outcome, pos.side_to_move(), ply));
        }
        if let Some(score) = self
            .path
            .repetition_score(pos, ply, self.stack[ply].plies_from_null)
        {
            if score != 0 {
                self.path_verdicts += 1;
            }
            return Some(score);
        }
        if outcome.is_decided() {
            return Some(terminal_score(outcome, pos.side_to_move(), ply));
        }
        // A win on this move (tafl: the king sees an escape square): nothing beats it.
        if !self.shared.basic && pos.can_win_at_once() {
            return Some(MATE - ply as i32 - 1);
        }
        None
    }

    /// Pruning before any move is searched, at a non-PV node that is not threatened: reverse
    /// futility pruning and null-move pruning. The node's score when one applies (0 when the
    /// search was aborted meanwhile).
    fn prune_before_moves(&mut self, pos: &G, node: &Node, depth: i32, beta: i32) -> Option<i32> {
        if node.pv_node
            || node.root
            || node.threatened
            || node.singular_excluded != 0
            || beta.abs() >= MATE_BOUND
            || self.shared.basic
        {
            return None;
        }
        let static_eval = node.static_eval;
        // Reverse futility pruning: far above beta at low depth, assume it holds.
        let params = &self.shared.params;
        let rfp_depth = if params.improving && !node.improving {
            depth + 1
        } else {
            depth
        };
        if depth <= params.rfp_max_depth && static_eval - params.rfp_margin * rfp_depth >= beta {
            return Some(static_eval);
        }
        // Null-move pruning: if passing still fails high, a real move will too.
        if !node.was_null
            && depth >= params.nmp_min_depth
            && static_eval >= beta
            && pos.null_move_allowed()
        {
            let r = params.nmp_base + depth / params.nmp_divisor.max(1);
            let ply = node.ply;
            let child = self.make_null_move(pos, ply);
            let v = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, true);
            self.path.pop();
            if self.aborted {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= MATE_BOUND { beta } else { v });
            }
        }
        None
    }

    /// Internal iterative reduction: without a TT move this node's ordering is poor and it was
    /// likely not searched before; search it one ply shallower. The depth to search.
    fn internal_iterative_reduction(&self, node: &Node, depth: i32) -> i32 {
        let params = &self.shared.params;
        if params.iir_min_depth > 0
            && node.tt_move == 0
            && depth >= params.iir_min_depth
            && !self.shared.basic
        {
            depth - 1
        } else {
            depth
        }
    }

    /// Singular extension: when the TT move's lower bound is deep enough and every other move
    /// fails low against a margin below it at a reduced depth, the TT move is the only good one
    /// and is searched one ply deeper (`Continue(1)`, else `Continue(0)`); when the others reach
    /// beta too (multi-cut), the node fails high at once (`Break` with its score; 0 when the
    /// search was aborted); with `se_negative`, a TT move whose score reaches beta while another
    /// move reaches the bound is searched one ply shallower (`Continue(-1)`).
    fn singular_extension(
        &mut self,
        pos: &G,
        node: &Node,
        entry: Option<tt::Entry>,
        depth: i32,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        let params = &self.shared.params;
        let ply = node.ply;
        if params.se_min_depth > 0
            && !node.root
            && node.singular_excluded == 0
            && !self.shared.basic
            && depth >= params.se_min_depth
            && (params.se_pv_nodes || !node.pv_node)
            && node.tt_move != 0
            && (ply as i32) < 2 * self.root_depth
            && let Some(e) = entry
            && e.bound != Bound::Upper
            && e.depth as i32 >= depth - params.se_tt_depth_margin
        {
            let tt_score = score_from_tt(e.score as i32, ply);
            if tt_score.abs() < MATE_BOUND {
                let singular_beta = tt_score - params.se_margin * depth;
                self.stack[ply].singular_excluded = node.tt_move;
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    node.was_null,
                );
                self.stack[ply].singular_excluded = 0;
                if self.aborted {
                    return ControlFlow::Break(0);
                }
                self.stack[ply].pv.clear();
                if v < singular_beta {
                    return ControlFlow::Continue(1);
                } else if singular_beta >= beta {
                    return ControlFlow::Break(singular_beta);
                } else if params.se_negative && tt_score >= beta {
                    return ControlFlow::Continue(-1);
                }
            }
        }
        ControlFlow::Continue(0)
    }

    /// The move loop: each move in order (TT move first, extended by `tt_extension`), late-move
    /// pruning and futility pruning, then a principal variation search of the child with
    /// late-move reductions; a quiet move that cuts off is rewarded. `Continue` with the best
    /// score and move; `Break` with the node's score when it ends otherwise (no move to search,
    /// or aborted: 0).
    fn search_moves(
        &mut self,
        pos: &G,
        node: &Node,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        tt_extension: i32,
    ) -> ControlFlow<i32, (i32, Option<G::Move>)> {
        let ply = node.ply;
        let mut moves = self.generate_moves(pos, node, alpha)?;
        let mut scores = std::mem::take(&mut self.stack[ply].scores);
        scores.clear();
        // Stage 1: the TT move, searched before any other move is scored. Stage 2: the rest,
        // scored once (with the history as it is then), picked best first.
        let tt_first = node.tt_move != 0
            && ordering::tt_move_first(pos, &mut moves, &mut scores, node.tt_move);
        let history = self.node_history(pos, ply);
        self.stack[ply].quiets_tried.clear();

        let params = self.shared.params;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            if scores.len() < moves.len() && !(tt_first && i == 0) {
                let start = scores.len();
                let killers = if params.killer_moves {
                    self.stack[ply].killers
                } else {
                    [0; 2]
                };
                for &m in &moves[start..] {
                    scores.push(self.data.order_score(
                        pos,
                        m,
                        &history,
                        killers,
                        self.shared.basic,
                        params.order_bonus,
                    ));
                }
            }
            if scores.len() == moves.len() {
                ordering::pick_best(&mut moves, &mut scores, i);
            }
            let mv = moves[i];
            let kind = scores[i].1;
            if self.late_move_pruning(node, i, best, kind) {
                // The moves that gain nothing come last in the order: the loop ends.
                if scores.len() == moves.len() {
                    break;
                }
                continue;
            }
            if self.history_pruning(node, depth, i, best, kind, || {
                self.data.butterfly(history.side, pos.encode_move(mv))
            }) {
                continue;
            }
            if self.futility_pruning(node, depth, i, best, alpha, kind) {
                if params.fp_ends_loop && scores.len() == moves.len() {
                    break;
                }
                continue;
            }

            let nodes_before = self.nodes;
            let child = self.make_move(pos, mv, ply);
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
                let min_moves = if node.pv_node {
                    params.lmr_min_moves_pv
                } else {
                    params.lmr_min_moves
                };
                let r = if !self.shared.basic
                    && depth >= params.lmr_min_depth
                    && kind.reducible
                    && searched as i32 >= min_moves
                {
                    // Never below depth 0 of the reduced search, never an extension;
                    // `new_depth` may be 0 here when `lmr_min_depth` is 1.
                    self.reduction(pos, mv, node, &history, depth, searched)
                        .clamp(0, (new_depth - 1).max(0))
                } else {
                    0
                };
                v = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if v > alpha && r > 0 {
                    v = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.path.pop();
            if node.root {
                self.count_root_nodes(pos.encode_move(mv), self.nodes - nodes_before);
            }
            if self.aborted {
                self.stack[ply].moves = moves;
                self.stack[ply].scores = scores;
                return ControlFlow::Break(0);
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, mv);
                    if node.root && self.excluded.is_empty() {
                        self.root_found = Some((v, self.stack[ply].pv.clone()));
                    }
                    if v >= beta {
                        if kind.quiet && !self.shared.basic {
                            let entry = &mut self.stack[ply];
                            self.data.reward_quiet(
                                pos,
                                mv,
                                &history,
                                &mut entry.killers,
                                &entry.quiets_tried,
                                ordering::history_bonus(depth, &params),
                            );
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
                self.stack[ply]
                    .quiets_tried
                    .push((pos.encode_move(mv), index));
            }
        }
        self.stack[ply].moves = moves;
        self.stack[ply].scores = scores;
        // The moves that cannot stop the opponent's win at once lose within two plies: search
        // them only while the node has nothing as good (one of them usually scores exactly that).
        let floor = -MATE + ply as i32 + 2;
        if best < floor && best < beta && !self.stack[ply].dropped.is_empty() {
            let dropped = std::mem::take(&mut self.stack[ply].dropped);
            for &mv in &dropped {
                let child = self.make_move(pos, mv, ply);
                let v = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, false);
                self.path.pop();
                if self.aborted {
                    self.stack[ply].dropped = dropped;
                    return ControlFlow::Break(0);
                }
                if v > best {
                    best = v;
                    best_move = Some(mv);
                    if v > alpha {
                        alpha = v;
                        self.update_pv(ply, mv);
                    }
                }
                if best >= floor || best >= beta {
                    break;
                }
            }
            self.stack[ply].dropped = dropped;
        }
        ControlFlow::Continue((best, best_move))
    }

    /// The moves of the node to search, taken from its stack entry (given back there when the
    /// node ends): all legal moves but the root's excluded ones (MultiPV) and the move a
    /// singular-extension test leaves out. `Break` with the node's score when none is left:
    /// `alpha` in a singular-extension test, else the game's end.
    fn generate_moves(
        &mut self,
        pos: &G,
        node: &Node,
        alpha: i32,
    ) -> ControlFlow<i32, Vec<G::Move>> {
        let ply = node.ply;
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        pos.generate_moves(&mut moves);
        self.stack[ply].dropped.clear();
        if node.threatened && !node.root && self.path.threat_answers_exact() {
            pos.split_threat_answers(&mut moves, &mut self.stack[ply].dropped);
        }
        if node.root && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(m));
        }
        if node.root && self.path.forbids_moves() {
            // The moves the rules forbid after this game's history are not the root's to
            // search: the engine must never answer one, nor list one in its MultiPV lines.
            let history = self.path.game_history();
            moves.retain(|&m| !forbidden_by_history(pos, history, m));
        }
        if node.singular_excluded != 0 {
            moves.retain(|&m| pos.encode_move(m) != node.singular_excluded);
            if moves.is_empty() {
                self.stack[ply].moves = moves;
                return ControlFlow::Break(alpha);
            }
        }
        if moves.is_empty() && self.stack[ply].dropped.is_empty() {
            self.stack[ply].moves = moves;
            return ControlFlow::Break(terminal_score(pos.outcome(), pos.side_to_move(), ply));
        }
        ControlFlow::Continue(moves)
    }

    /// Where the node at `ply` (`pos`) stands in the history tables.
    fn node_history(&self, pos: &G, ply: usize) -> NodeHistory {
        let side = pos.side_to_move().index();
        let came_by = if ply > 0 { self.stack[ply].came_by } else { 0 };
        let plies = self.shared.params.cont_history_plies;
        NodeHistory {
            side,
            came_by,
            counter: if ply > 0 && self.shared.params.killer_moves {
                self.data.counter_move(side, came_by)
            } else {
                0
            },
            cont_rows: (self.cont_n > 0).then(|| {
                [
                    if plies >= 1 {
                        self.stack[ply].cont_row
                    } else {
                        NO_ROW
                    },
                    if plies >= 2 && ply >= 1 {
                        self.stack[ply - 1].cont_row
                    } else {
                        NO_ROW
                    },
                ]
            }),
        }
    }

    /// Late-move pruning of moves that gain nothing: once `lmp_no_gain_moves` moves are searched
    /// and one of them does not lose, the rest that gain nothing are skipped. `i`: the move's
    /// number; `best`: the best score so far.
    fn late_move_pruning(&self, node: &Node, i: usize, best: i32, kind: MoveKind) -> bool {
        let params = &self.shared.params;
        params.lmp_no_gain_moves > 0
            && i as i32 >= params.lmp_no_gain_moves
            && kind.gain <= 0
            && self.late_move_prunable(node, best, kind)
    }

    /// What every pruning of late moves asks: not the root, not a threatened node, a move that
    /// late-move reductions may reduce (not the TT move, a killer or the counter-move), and a
    /// best score so far that does not lose.
    fn late_move_prunable(&self, node: &Node, best: i32, kind: MoveKind) -> bool {
        !node.root && !self.shared.basic && !node.threatened && best > -MATE_BOUND && kind.reducible
    }

    /// History pruning: at low depth in a non-PV node, a late move whose butterfly history
    /// (`butterfly`, asked last) is below `−hp_margin × depth` is not searched. `i`: the move's
    /// number; `best`: the best score so far.
    fn history_pruning(
        &self,
        node: &Node,
        depth: i32,
        i: usize,
        best: i32,
        kind: MoveKind,
        butterfly: impl FnOnce() -> i32,
    ) -> bool {
        let params = &self.shared.params;
        params.hp_max_depth > 0
            && depth <= params.hp_max_depth
            && i >= 1
            && !node.pv_node
            && self.late_move_prunable(node, best, kind)
            && butterfly() < -params.hp_margin * depth
    }

    /// Futility pruning: at low depth, when even a margin above the static evaluation cannot
    /// reach alpha, the late moves are not searched.
    fn futility_pruning(
        &self,
        node: &Node,
        depth: i32,
        i: usize,
        best: i32,
        alpha: i32,
        kind: MoveKind,
    ) -> bool {
        let params = &self.shared.params;
        params.fp_max_depth > 0
            && (!node.pv_node || params.fp_pv_nodes)
            && depth <= params.fp_max_depth
            && i as i32 >= params.fp_min_moves
            && alpha.abs() < MATE_BOUND
            && self.late_move_prunable(node, best, kind)
            && node.static_eval + params.fp_margin_base + params.fp_margin * depth <= alpha
    }

    /// The late-move reduction of the `searched`-th move `mv` (before the clamp): from the table,
    /// less at a PV node, more when not improving, less for a move with a good history.
    fn reduction(
        &self,
        pos: &G,
        mv: G::Move,
        node: &Node,
        history: &NodeHistory,
        depth: i32,
        searched: usize,
    ) -> i32 {
        let params = &self.shared.params;
        let mut r = self.lmr[depth.min(MAX_PLY as i32 - 1) as usize][searched.min(63)] as i32;
        if node.pv_node {
            r -= 1;
        }
        if params.improving && !node.improving {
            r += 1;
        }
        if params.lmr_history_divisor > 0 {
            let mut h = self.data.butterfly(history.side, pos.encode_move(mv));
            if let Some(rows) = history.cont_rows
                && params.lmr_cont_history
            {
                h += self.data.cont_score(rows, pos.history_index(mv));
            }
            r -= h / params.lmr_history_divisor;
        }
        r
    }

    /// Stores the node's result in the transposition table: `best` (with `best_move`) as a
    /// `bound`, unless the node is a singular-extension test or a MultiPV line after the first
    /// at the root, or its mate score was decided by a repetition below (that holds on this path
    /// only).
    fn store(
        &self,
        pos: &G,
        node: &Node,
        depth: i32,
        best: i32,
        best_move: Option<G::Move>,
        bound: Bound,
    ) {
        // A mate that a repetition verdict below decided holds on this path only.
        let path_mate = best.abs() >= MATE_BOUND && self.path_verdicts != node.path_verdicts_before;
        if (!node.root || self.excluded.is_empty()) && node.singular_excluded == 0 && !path_mate {
            self.shared.tt.store(
                node.hash,
                tt::Entry {
                    mv: best_move.map_or(0, |m| pos.encode_move(m)),
                    score: score_to_tt(best, node.ply) as i16,
                    eval: node.static_eval as i16,
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
    }

    /// Quiescence search of `pos` (at `ply`, `qdepth` plies below the main search's leaf): the
    /// static evaluation stands unless a tactical move does better.
    pub(super) fn quiescence(
        &mut self,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        if self.check_stop() {
            return 0;
        }
        self.stack[ply].pv.clear();
        if qdepth > 0 {
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply);
            let outcome = pos.outcome();
            if outcome.is_decided() {
                return terminal_score(outcome, pos.side_to_move(), ply);
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
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        pos.generate_tactical(&mut moves);
        ordering::sort_by_gain(pos, &mut moves, &mut self.stack[ply].gains);
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
        self.stack[ply].moves = moves;
        if self.aborted { 0 } else { best }
    }
}

/// A cutoff by the transposition table's `entry` for `pos` at `ply`: a stored score deep enough
/// for `depth` whose bound settles the window (`alpha`, `beta`). A stored mate beyond this
/// position's move-limit clock gives none.
fn tt_cutoff<G: Game>(
    pos: &G,
    entry: Option<tt::Entry>,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> Option<i32> {
    let e = entry?;
    let s = score_from_tt(e.score as i32, ply);
    if e.depth as i32 >= depth && mate_within_move_limit(pos, s, ply) {
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        if cut {
            return Some(s);
        }
    }
    None
}
