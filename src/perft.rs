//! perft with per-move counts ("divide"), on any [`Game`], on one thread or split at the root
//! over several (rayon).

use crate::game::Game;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// [`divide`] that can be ended early: `each(move, count)` is called for each root move as its
/// count is done, and `stop` is read before every subtree of more than [`STOP_CHECK_PLIES`]
/// plies, so a stop takes effect within one perft of that depth (well under a second). Returns
/// `false` if it was stopped (the counts given so far are right, the rest missing).
pub fn divide_until<G: Game>(
    pos: &G,
    depth: u32,
    stop: &AtomicBool,
    each: &mut dyn FnMut(&str, u64),
) -> bool {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    for mv in moves {
        let mut child = pos.clone();
        child.make_move(mv);
        let Some(count) = perft_until(&child, depth.saturating_sub(1), stop) else {
            return false;
        };
        each(&pos.move_to_string(mv), count);
    }
    true
}

/// Subtrees at most this deep are counted by the game's own [`Game::perft`] without a look at
/// the stop flag in [`divide_until`].
pub const STOP_CHECK_PLIES: u32 = 4;

/// perft(`depth`) of `pos`, or `None` once `stop` is set (read before each subtree deeper than
/// [`STOP_CHECK_PLIES`]).
fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= STOP_CHECK_PLIES {
        return Some(pos.perft(depth));
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut sum = 0;
    for mv in moves {
        let mut child = pos.clone();
        child.make_move(mv);
        sum += perft_until(&child, depth - 1, stop)?;
    }
    Some(sum)
}

/// [`divide`] with the root moves shared out among `threads` threads (a rayon pool of that
/// size; 1 = the calling thread only). `done` is called once per root move as its count is
/// finished, from whichever thread counted it (for progress). Same result, same order, as
/// [`divide`].
///
/// Errors: the thread pool cannot be made (the operating system refuses threads).
pub fn divide_parallel<G: Game>(
    pos: &G,
    depth: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<(String, u64)>, rayon::ThreadPoolBuildError> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let count = |mv: G::Move| {
        let mut child = pos.clone();
        child.make_move(mv);
        let n = child.perft(depth.saturating_sub(1));
        done();
        (pos.move_to_string(mv), n)
    };
    if threads <= 1 {
        return Ok(moves.into_iter().map(count).collect());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    // One root move per task: the subtrees differ a lot in size, so let idle threads steal.
    Ok(pool.install(|| moves.into_par_iter().with_max_len(1).map(count).collect()))
}

/// The deepest `skald perft --depth` allowed for each variant, in plies. From the start
/// position on one thread these take (CPU time of the release build, measured with
/// `/usr/bin/time` on a 2-core x86-64 machine): ataxx 8 48 s, brandubh 7 39 s, tablut 6 97 s,
/// ashton 6 123 s, tawlbwrdd 5 7 s, copenhagen 5 6 s, copenhagen13 5 102 s; one ply more
/// multiplies the time by the branching factor, 30 to 120 (Ataxx 9 about 25 minutes,
/// copenhagen 6 about 12, tablut 7 about 2 hours).
pub fn max_cli_depth(variant: crate::variant::Variant) -> u32 {
    use crate::variant::Variant;
    match variant {
        Variant::Ataxx => 8,
        Variant::Brandubh => 7,
        Variant::Tablut | Variant::Ashton => 6,
        // Copenhagen 11×11 perft(5) is 6.1e9 leaves, near tawlbwrdd's; 13×13 as much.
        Variant::Tawlbwrdd | Variant::Copenhagen | Variant::Copenhagen13 => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unstopped, [`divide_until`] gives [`divide`]'s counts (a depth past
    /// [`STOP_CHECK_PLIES`], so its own recursion is used); stopped, it gives up at once.
    #[test]
    fn divide_until_counts_as_divide_and_stops() {
        let pos = crate::tafl::brandubh();
        let depth = STOP_CHECK_PLIES + 1;
        let mut counts = Vec::new();
        let go_on = AtomicBool::new(false);
        assert!(divide_until(&pos, depth, &go_on, &mut |m, n| counts
            .push((m.to_string(), n))));
        assert_eq!(counts, divide(&pos, depth));
        let stopped = AtomicBool::new(true);
        let mut calls = 0;
        assert!(!divide_until(&pos, depth, &stopped, &mut |_, _| calls += 1));
        assert_eq!(calls, 0);
    }
}
