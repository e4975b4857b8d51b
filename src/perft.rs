//! perft with per-move counts ("divide"), on any [`Game`].

use crate::game::Game;

/// For each legal move of `pos`, the move's text and perft(`depth` − 1) of the position after it,
/// in move-generation order. `depth` must be at least 1. The counts add up to perft(`depth`).
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.make_move(mv);
            (pos.move_to_string(mv), child.perft(depth.saturating_sub(1)))
        })
        .collect()
}
