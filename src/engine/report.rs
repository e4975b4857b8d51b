//! What a search tells a front-end, in typed values: a [`Report`] after each completed depth
//! (and MultiPV line), and at its end how it [`Finished`]: its [`Answer`], the game already
//! over, a fault, or cancelled. A front-end prints them in its own notation.

use crate::board::MoveView;
use crate::game::Outcome;
use crate::search::Score;

/// A search's progress: one completed depth of one principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Completed depth, plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: u32,
    /// The score from the side to move's view.
    pub score: Score,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, permill.
    pub hashfull: u32,
    /// Time since the search was asked for, ms.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<MoveView>,
}

/// A search's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move to play; `None` if there is none (the game is over).
    pub best_move: Option<MoveView>,
    /// The expected reply.
    pub ponder: Option<MoveView>,
    /// The score of the best line, from the side to move's view.
    pub score: Score,
    /// Deepest completed depth, plies.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The MultiPV lines of the last completed depth: score and moves, best first.
    pub lines: Vec<(Score, Vec<MoveView>)>,
}

impl Answer {
    /// The answer in a decided game: no move, depth 0.
    pub fn game_over() -> Answer {
        Answer {
            best_move: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        }
    }

    /// The best line's moves (empty if there is none).
    pub fn pv(&self) -> &[MoveView] {
        self.lines.first().map_or(&[], |(_, pv)| pv.as_slice())
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finished {
    /// The search's answer (a stopped search answers too, with the best move found so far).
    Done(Answer),
    /// The game was already over when the search was to start: there is no move to play.
    GameOver(Outcome),
    /// The search failed inside (a bug, caught): `fallback` is a legal move to play instead,
    /// if any. The engine is still usable.
    Failed {
        /// The first legal move, if the game goes on.
        fallback: Option<MoveView>,
    },
    /// The search was cancelled ([`super::SearchHandle::cancel`]): it has no answer.
    Cancelled,
}

/// A search failed inside (a bug, caught): the engine is still usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error in the search")]
pub struct SearchFailed {
    /// A legal move to play instead (the first generated), if the game goes on.
    pub fallback: Option<MoveView>,
}
