//! The search's basic types: its score scale (centipawns and mate scores), its depth limit, the
//! score as the protocols show it, and what a search reports and answers.

/// The score of a win at the root, in centipawns; a win in `p` plies scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are wins or losses (mate scores).
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score: the open window of a search is `-INF..INF`.
pub(super) const INF: i32 = MATE + 1;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE + 4), Score::Mate(-2));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
    }
}
