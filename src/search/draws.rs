//! How the search scores the ends of a game that are not on the board alone: repetitions
//! (drawn, or decided for one side by the game's rule) along the game and search path, the score
//! of a decided outcome, and the move-limit clock that a mate score must fit in.

use super::types::{MATE, MATE_BOUND, MAX_PLY};
use crate::game::{Game, Outcome, RepetitionRule, Side};

/// The positions of the game and of the current search path, by Zobrist key, with the game's
/// repetition rule: what finds a repetition.
pub(super) struct GamePath {
    /// Game history, then the root, then the current search path.
    hashes: Vec<u64>,
    /// Beside each entry of `hashes` made by a move of the search, under a
    /// [`RepetitionRule::Forbidden`] rule: the board that rule judges for that move and how many
    /// positions before it the board may equal ([`Game::repetition_board`]); `(hash, 0)`
    /// elsewhere.
    boards: Vec<(u64, u32)>,
    /// Index of the root in `hashes` (the length of the game history).
    root_index: usize,
    repetition: RepetitionRule,
    /// The Zobrist key of the side to move ([`crate::game::side_key`]), for board-only
    /// repetition rules.
    side_key: u64,
}

impl GamePath {
    /// The path of a search of `root`, after the game's positions `history` (Zobrist hashes,
    /// oldest first).
    pub(super) fn new<G: Game>(history: &[u64], root: &G) -> Self {
        let mut hashes = Vec::with_capacity(history.len() + MAX_PLY + 2);
        hashes.extend_from_slice(history);
        hashes.push(root.hash());
        let mut boards = Vec::with_capacity(hashes.capacity());
        boards.extend(hashes.iter().map(|&h| (h, 0)));
        GamePath {
            hashes,
            boards,
            root_index: history.len(),
            repetition: root.repetition_rule(),
            side_key: crate::game::side_key(root),
        }
    }

    /// The move `mv` was made in `pos`, giving `child`.
    #[inline]
    pub(super) fn push_move<G: Game>(&mut self, pos: &G, mv: G::Move, child: &G) {
        let hash = child.hash();
        self.hashes.push(hash);
        self.boards.push(match self.repetition {
            RepetitionRule::Forbidden(_) => pos.repetition_board(mv),
            _ => (hash, 0),
        });
    }

    /// A null move was made: `hash` is the new position's.
    #[inline]
    pub(super) fn push_null(&mut self, hash: u64) {
        self.hashes.push(hash);
        self.boards.push((hash, 0));
    }

    /// The game's positions before the root (Zobrist hashes, oldest first).
    pub(super) fn game_history(&self) -> &[u64] {
        &self.hashes[..self.root_index]
    }

    /// `true` under a rule that forbids one side's repetitions ([`RepetitionRule::Forbidden`]):
    /// there the move that made a position may be no move at all, whatever the board says.
    #[inline]
    pub(super) fn forbids_moves(&self) -> bool {
        matches!(self.repetition, RepetitionRule::Forbidden(_))
    }

    /// `true` when no repetition can end the game for the side that makes it: only then is a
    /// move that leaves the opponent a win at once certain to lose ([`Game::split_threat_answers`]).
    #[inline]
    pub(super) fn threat_answers_exact(&self) -> bool {
        matches!(
            self.repetition,
            RepetitionRule::Ignored | RepetitionRule::Forbidden(_)
        )
    }

    /// The last move pushed was taken back.
    #[inline]
    pub(super) fn pop(&mut self) {
        self.hashes.pop();
        self.boards.pop();
    }

    /// How many positions before the one on top of the hash stack (`pos`, `plies_from_null`
    /// plies after the last null move of the search path) may equal it: none before the last
    /// irreversible move (the halfmove clock, which is also the move-limit clock where a game
    /// has one), and none before the last null move of the search path (Stockfish's
    /// `pliesFromNull`): a null move is no move of the game, and the board before it is the
    /// board after it, so comparing across it would find a "repetition" that no real line
    /// contains (the Copenhagen rule that a defender may not recreate a board then scored every
    /// defender null move as a loss).
    fn repetition_window<G: Game>(&self, pos: &G, plies_from_null: u32) -> usize {
        (pos.halfmove_clock() as usize)
            .min(plies_from_null as usize)
            .min(self.hashes.len() - 1)
    }

    /// `true` if the position on top of the hash stack occurred before and the game draws
    /// repetitions. Only positions since the last irreversible move can repeat.
    fn is_repetition<G: Game>(&self, pos: &G, plies_from_null: u32) -> bool {
        if self.repetition == RepetitionRule::Ignored {
            return false;
        }
        let n = self.hashes.len();
        let window = self.repetition_window(pos, plies_from_null);
        let hash = self.hashes[n - 1];
        self.hashes[n - 1 - window..n - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&h| h == hash)
    }

    /// The score of the position on top of the hash stack (`pos`, at `ply`, `plies_from_null`
    /// plies after the last null move of the search path: `u32::MAX` for none) by the
    /// repetition rule, from the side to move's view, or `None` when the rule does not end the
    /// game here.
    ///
    /// Draw rules: any earlier occurrence scores 0 (the cycle can be repeated until it draws).
    /// Rules that decide for one side (OpenTafl `tfr:w`/`tfr:l`), as Fairy-Stockfish scores its
    /// n-fold rules: the game is decided when the position has occurred `n` times with the game
    /// history, or once before within the search (after the root), since the side that closed
    /// the cycle can close it again; the score is a win or loss at this ply, so the search
    /// steers away from a losing repetition and into a winning one.
    pub(super) fn repetition_score<G: Game>(
        &self,
        pos: &G,
        ply: usize,
        plies_from_null: u32,
    ) -> Option<i32> {
        if !self.repetition.is_decisive() {
            return self.is_repetition(pos, plies_from_null).then_some(0);
        }
        let nth = self.repetition.nth()? as usize;
        let n = self.hashes.len();
        // Earlier positions with the same side to move: every second one back; for a forbidden
        // board, the board the move made before its captures ([`Game::repetition_board`])
        // against every earlier position with the same placement, whichever side was to move.
        let (hash, window, other, step) = match self.repetition {
            RepetitionRule::Forbidden(_) => {
                let (board, window) = self.boards[n - 1];
                let window = (window as usize).min(plies_from_null as usize).min(n - 1);
                (board, window, board ^ self.side_key, 1)
            }
            _ => {
                let hash = self.hashes[n - 1];
                (hash, self.repetition_window(pos, plies_from_null), hash, 2)
            }
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
            return Some(terminal_score(outcome, pos.side_to_move(), ply));
        }
        None
    }
}

/// The score of a decided `outcome` for the side to move `stm` at `ply`: a win or loss at this
/// ply, 0 for a draw or an undecided game.
pub(super) fn terminal_score(outcome: Outcome, stm: Side, ply: usize) -> i32 {
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

/// `false` for a mate score (`score`, relative to the root, at `ply`) farther from `pos` than
/// its move-limit clock lets the game run ([`Game::plies_to_move_limit`]): found where the
/// clock was lower, it is no forced result here (Stockfish downgrades such TT mates by its
/// 50-move counter the same way). Other scores are `true`.
pub(super) fn mate_within_move_limit<G: Game>(pos: &G, score: i32, ply: usize) -> bool {
    if score.abs() < MATE_BOUND {
        return true;
    }
    let distance = (MATE - score.abs()) as i64 - ply as i64;
    pos.plies_to_move_limit()
        .is_none_or(|left| distance <= left as i64)
}
