//! Move ordering (Stockfish's movepick.cpp and the history updates of its search.cpp;
//! Viridithas's movepicker.rs and history.rs): the TT move first, searched before any other move
//! is scored; then the rest, scored once and picked best first — tactical moves by gain, then
//! quiet ones by immediate gain, killers, the counter-move and history (butterfly, plus
//! continuation history indexed by the moves one and two plies earlier) — and how a cutoff
//! updates killers, counter-moves and history.
//!
//! The history tables are the thread's [`ThreadData`], kept from one search to the next; the
//! killers are the search stack's, one pair per ply.

use super::threads::ThreadData;
use crate::game::Game;

/// How a move is treated besides its order: `quiet` moves (no capture, no escape) earn and
/// lose history; `reducible` ones (quiet, and neither the TT move, a killer nor the
/// counter-move) may be reduced.
#[derive(Clone, Copy, Debug)]
pub(super) struct MoveKind {
    pub(super) quiet: bool,
    pub(super) reducible: bool,
    /// [`Game::move_gain`] of the move.
    pub(super) gain: i32,
}

const TT_MOVE_SCORE: i64 = 1 << 60;
/// The largest history bonus for one cutoff (depth² up to this).
const HISTORY_BONUS_MAX: i32 = 1600;
const GAIN_SCORE: i64 = 1 << 50;
const HISTORY_MAX: i32 = 16384;
/// No continuation-history row ([`super::stack::StackEntry::cont_row`]).
pub(super) const NO_ROW: usize = usize::MAX;

/// Where one node stands in the history tables: what the ordering of its moves reads and a
/// cutoff at it updates, besides the move itself.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeHistory {
    /// Index of the side to move ([`crate::game::Side::index`]).
    pub(super) side: usize,
    /// Code of the move that led to the node (0 at the root and after a null move).
    pub(super) came_by: u16,
    /// The counter-move of `came_by` for `side` (0 for none).
    pub(super) counter: u16,
    /// The continuation-history rows that apply: those of the moves one and two plies earlier
    /// (as many as [`crate::game::SearchParams::cont_history_plies`]), [`NO_ROW`] where there
    /// is none; `None` when the continuation history is off.
    pub(super) cont_rows: Option<[usize; 2]>,
}

/// Stage 1 of the ordering: brings the TT move (code `tt_move`, not 0) of `moves` to the front
/// and scores it, before any other move is scored (a cutoff then costs no ordering work).
/// `false` if the TT move is not among `moves`.
pub(super) fn tt_move_first<G: Game>(
    pos: &G,
    moves: &mut [G::Move],
    scores: &mut Vec<(i64, MoveKind)>,
    tt_move: u16,
) -> bool {
    match moves.iter().position(|&m| pos.encode_move(m) == tt_move) {
        Some(t) => {
            moves.swap(0, t);
            let (gain, tactical) = pos.gain_and_tactical(moves[0]);
            scores.push((
                TT_MOVE_SCORE,
                MoveKind {
                    quiet: !tactical,
                    reducible: false,
                    gain,
                },
            ));
            true
        }
        None => false,
    }
}

/// Selection sort, one step: brings the best-ordered move of `moves[i..]` (all scored) to
/// position `i`.
///
/// The scan keeps the best score in a register and picks with selects rather than branches
/// (which the processor mispredicted often: the scan was a seventh of an Ataxx search's time).
#[inline]
pub(super) fn pick_best<M>(moves: &mut [M], scores: &mut [(i64, MoveKind)], i: usize) {
    let (mut top, mut best) = (i, scores[i].0);
    for (j, s) in scores.iter().enumerate().take(moves.len()).skip(i + 1) {
        let better = s.0 > best;
        best = if better { s.0 } else { best };
        top = if better { j } else { top };
    }
    moves.swap(i, top);
    scores.swap(i, top);
}

/// Orders `moves` by their [`Game::move_gain`], highest first, keeping the generator's order
/// among equal gains (a stable insertion sort, as quiescence's move lists are short). Each gain
/// is computed once, into `gains` (the node's buffer on the search stack, cleared first): no
/// allocation at a node.
pub(super) fn sort_by_gain<G: Game>(pos: &G, moves: &mut [G::Move], gains: &mut Vec<i32>) {
    gains.clear();
    gains.extend(moves.iter().map(|&m| pos.move_gain(m)));
    for i in 1..moves.len() {
        let (mv, gain) = (moves[i], gains[i]);
        let mut j = i;
        while j > 0 && gains[j - 1] < gain {
            moves[j] = moves[j - 1];
            gains[j] = gains[j - 1];
            j -= 1;
        }
        moves[j] = mv;
        gains[j] = gain;
    }
}

impl ThreadData {
    /// The counter-move of the opponent's move `came_by` for `side` (0 for none).
    #[inline]
    pub(super) fn counter_move(&self, side: usize, came_by: u16) -> u16 {
        self.counters[side * 65536 + came_by as usize]
    }

    /// The butterfly history of the move with code `code` for `side`.
    #[inline]
    pub(super) fn butterfly(&self, side: usize, code: u16) -> i32 {
        self.history[side * 65536 + code as usize]
    }

    /// The ordering score of a move other than the TT move and whether it may be reduced
    /// (neither tactical nor a killer). Order: tactical moves by gain; then the rest by immediate
    /// gain (Ataxx flips; 0 for a quiet tafl move), killers first among equal gains, then
    /// history. `basic`: plain alpha-beta ([`super::SearchOptions::basic`]), gain only.
    /// `bonus`: the gain of a quiet move counts its [`Game::order_bonus`] too (`Tune
    /// order_bonus`).
    pub(super) fn order_score<G: Game>(
        &self,
        pos: &G,
        mv: G::Move,
        node: &NodeHistory,
        killers: [u16; 2],
        basic: bool,
        bonus: bool,
    ) -> (i64, MoveKind) {
        let code = pos.encode_move(mv);
        let (gain, tactical) = pos.gain_and_tactical(mv);
        if tactical {
            let kind = MoveKind {
                quiet: false,
                reducible: false,
                gain,
            };
            return (GAIN_SCORE + gain as i64, kind);
        }
        if basic {
            let kind = MoveKind {
                quiet: true,
                reducible: true,
                gain,
            };
            return (gain as i64, kind);
        }
        // Killers, then the counter-move, above any history score.
        let special = if killers[0] == code {
            3
        } else if killers[1] == code {
            2
        } else if node.counter == code {
            1
        } else {
            0
        };
        let mut history = self.butterfly(node.side, code) as i64;
        if let Some(rows) = node.cont_rows
            && special == 0
        {
            history += self.cont_score(rows, pos.history_index(mv)) as i64;
        }
        let order_gain = if bonus {
            gain.max(0) + pos.order_bonus(mv)
        } else {
            gain.max(0)
        };
        let score = ((order_gain as i64) << 32)
            + if special > 0 {
                (HISTORY_MAX as i64) * 4 + special
            } else {
                history
            };
        let kind = MoveKind {
            quiet: true,
            reducible: special == 0,
            gain,
        };
        (score, kind)
    }

    /// The continuation-history score of a move with history index `index`: the sum over
    /// `rows` ([`NodeHistory::cont_rows`]), within ±2 × [`HISTORY_MAX`].
    #[inline]
    pub(super) fn cont_score(&self, rows: [usize; 2], index: usize) -> i32 {
        rows.iter()
            .filter(|&&row| row != NO_ROW)
            .map(|&row| self.cont_history[row + index] as i32)
            .sum()
    }

    /// A quiet move caused a cutoff: it becomes a killer (of the node's `killers`) and the
    /// counter-move of the move before, earns history (butterfly and continuation), and the
    /// quiet moves tried before it (`quiets_tried`, as (move code, history index)) lose as much
    /// (malus). History moves by "gravity" (`h += bonus - h × |bonus| / HISTORY_MAX`), so it
    /// stays within ±[`HISTORY_MAX`] and recent results weigh more.
    pub(super) fn reward_quiet<G: Game>(
        &mut self,
        pos: &G,
        mv: G::Move,
        node: &NodeHistory,
        killers: &mut [u16; 2],
        quiets_tried: &[(u16, usize)],
        depth: i32,
    ) {
        let side = node.side;
        let code = pos.encode_move(mv);
        if killers[0] != code {
            killers[1] = killers[0];
            killers[0] = code;
        }
        if node.came_by != 0 {
            self.counters[side * 65536 + node.came_by as usize] = code;
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        let gravity = |h: &mut i32, delta: i32| {
            *h += delta - (*h as i64 * delta.abs() as i64 / HISTORY_MAX as i64) as i32;
        };
        gravity(&mut self.history[side * 65536 + code as usize], bonus);
        for &(tried, _) in quiets_tried {
            if tried != code {
                gravity(&mut self.history[side * 65536 + tried as usize], -bonus);
            }
        }
        if let Some(rows) = node.cont_rows {
            let cont = |h: &mut i16, delta: i32| {
                let mut v = *h as i32;
                gravity(&mut v, delta);
                *h = v as i16;
            };
            let index = pos.history_index(mv);
            for row in rows {
                if row == NO_ROW {
                    continue;
                }
                cont(&mut self.cont_history[row + index], bonus);
                for &(tried, tried_index) in quiets_tried {
                    if tried != code {
                        cont(&mut self.cont_history[row + tried_index], -bonus);
                    }
                }
            }
        }
    }
}
