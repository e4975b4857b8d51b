//! Fast perft: copy-make without a move list, bulk counting at the last ply.

use super::bitboard::{Bitboard, RING, RING_OFFSETS, Squares, doubles, shift, singles};
use super::position::{HALFMOVE_LIMIT, Position};

/// The number of clones and jumps of a side with stones `own` onto the `empty` squares.
///
/// Clones are counted by destination (popcount of the empty squares next to `own`); jumps as
/// Σ over the 16 ring directions of popcount(`own` shifted by that direction & `empty`), which
/// counts every (source, destination) pair once without looping over the stones.
#[inline(always)]
pub(crate) fn count_moves(own: Bitboard, empty: Bitboard) -> u64 {
    let mut n = (singles(own) & empty).count_ones();
    for &(df, dr) in RING_OFFSETS.iter() {
        n += (shift(own, df, dr) & empty).count_ones();
    }
    n as u64
}

fn perft_rec(pos: &Position, depth: u32) -> u64 {
    let us = pos.side.index();
    let own = pos.stones[us];
    let opp = pos.stones[us ^ 1];
    if own == 0 || opp == 0 || pos.halfmove >= HALFMOVE_LIMIT {
        return 0;
    }
    let empty = pos.empty();
    if depth == 1 {
        let n = count_moves(own, empty);
        if n != 0 {
            return n;
        }
        // No move: a forced pass if the opponent can still move, else the game is over.
        return (doubles(opp) & empty != 0) as u64;
    }
    let mut total = 0;
    let clones = singles(own) & empty;
    let mut any = clones != 0;
    for to in Squares(clones) {
        let mut child = *pos;
        child.make_clone(to);
        total += perft_rec(&child, depth - 1);
    }
    for from in Squares(own) {
        let targets = RING[from.index()] & empty;
        any |= targets != 0;
        for to in Squares(targets) {
            let mut child = *pos;
            child.make_jump(from, to);
            total += perft_rec(&child, depth - 1);
        }
    }
    if !any && doubles(opp) & empty != 0 {
        let mut child = *pos;
        child.make_pass();
        total = perft_rec(&child, depth - 1);
    }
    total
}

impl Position {
    /// perft(`depth`): leaf nodes of the legal-move tree (rules.md conventions: game-over
    /// positions have no moves, including the halfmove rule; a forced pass is one move).
    /// perft(0) = 1.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            1
        } else {
            perft_rec(self, depth)
        }
    }
}
