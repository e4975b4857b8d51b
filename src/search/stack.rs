//! The search stack: one entry per ply of the current path (Stockfish's `Stack`, Viridithas's
//! `StackEntry`), with what a node keeps for itself (its moves, their ordering, its principal
//! variation, its killers) and what it leaves for the plies below (its static evaluation, the
//! move that led to the child), and the evaluation's accumulators, one per ply, kept apart in
//! their own array ([`new_accumulators`]) so that the entries stay small.

use super::ordering::{MoveKind, NO_ROW};
use super::types::MAX_PLY;
use crate::eval::Evaluator;
use crate::game::Game;

/// The per-ply accumulator of `G`'s evaluation.
pub(super) type Acc<G> = <<G as Game>::Eval as Evaluator<G, <G as Game>::Move>>::Accumulator;

/// What the search keeps for one ply of the current path.
pub(super) struct StackEntry<G: Game> {
    /// Static evaluation of the position at this ply (for "improving").
    pub(super) static_eval: i32,
    /// Code of the move that led to this ply's position (0 at the root and after a null move).
    pub(super) came_by: u16,
    /// Where the continuation-history row of the move that led to this ply's position starts
    /// (its history index × the game's [`Game::history_index_count`]); [`NO_ROW`] at the root,
    /// after a null move, or when the continuation history is off.
    pub(super) cont_row: usize,
    /// Plies since the last null move on the current path (`u32::MAX` when there was none): the
    /// repetition window ([`super::draws::GamePath::repetition_score`]).
    pub(super) plies_from_null: u32,
    /// The code of the move a singular-extension test leaves out of this node's search (0 for
    /// none).
    pub(super) singular_excluded: u16,
    /// Two killer moves (move codes of [`Game::encode_move`], 0 for none): quiet moves that
    /// last caused a cutoff at this ply.
    pub(super) killers: [u16; 2],
    /// The moves of this node.
    pub(super) moves: Vec<G::Move>,
    /// The moves left out of `moves` because they cannot stop the opponent's win at once
    /// ([`Game::split_threat_answers`]); searched only as far as their score is needed.
    pub(super) dropped: Vec<G::Move>,
    /// Ordering score and kind of each move of `moves`.
    pub(super) scores: Vec<(i64, MoveKind)>,
    /// Quiet moves searched at this node without a cutoff, as (move code, history index), for
    /// the history malus.
    pub(super) quiets_tried: Vec<(u16, usize)>,
    /// The principal variation from this ply.
    pub(super) pv: Vec<G::Move>,
}

impl<G: Game> Default for StackEntry<G> {
    fn default() -> Self {
        StackEntry {
            static_eval: 0,
            came_by: 0,
            cont_row: NO_ROW,
            plies_from_null: u32::MAX,
            singular_excluded: 0,
            killers: [0; 2],
            moves: Vec::with_capacity(256),
            dropped: Vec::with_capacity(256),
            scores: Vec::with_capacity(256),
            quiets_tried: Vec::with_capacity(64),
            pv: Vec::with_capacity(MAX_PLY),
        }
    }
}

/// A fresh stack for one search: an entry for each ply from the root (0) to [`MAX_PLY`].
pub(super) fn new_stack<G: Game>() -> Vec<StackEntry<G>> {
    (0..MAX_PLY + 1).map(|_| StackEntry::default()).collect()
}

/// Fresh accumulators for one search, one for each ply from the root (0) to [`MAX_PLY`]: the
/// accumulator of the position at that ply of the current path.
pub(super) fn new_accumulators<G: Game>() -> Vec<Acc<G>> {
    (0..MAX_PLY + 1).map(|_| Acc::<G>::default()).collect()
}
