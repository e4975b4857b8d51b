//! Static evaluation of tafl positions, in centipawns, as named terms.
//!
//! Every term is computed from the defenders' point of view and then negated when the attackers
//! are to move, so the sum is the side to move's view ([`crate::game::Game::evaluate`]).

use super::bitboard::Bitboard;
use super::position::{ATTACKER_VALUE, DEFENDER_VALUE, KING_VALUE, Position};
use super::rules::Piece;
use crate::game::Side;

/// Per step of Manhattan distance from the king to the nearest escape square (defenders lose).
const KING_DISTANCE: i32 = 12;
/// The king reaches an escape square in one move and the defenders are to move: he wins next.
const OPEN_LINE_WIN: i32 = 5_000;
/// Two or more escape squares reachable with attackers to move: they can block only one line.
const OPEN_LINES_DOUBLE: i32 = 2_500;
/// One escape square reachable with attackers to move: they must spend their move blocking.
const OPEN_LINE_SINGLE: i32 = 150;
/// Per side of the king held by an attacker or a square hostile to him.
const KING_SURROUNDED: i32 = 45;
/// Per attacker on a square next to an escape square (guarding the approach).
const GUARD: i32 = 15;
/// Per square the king reaches in one move from which an escape square is open (a threat to
/// make an escape threat).
const ROUTE: i32 = 30;
/// Per square the king reaches in one move from which two or more escape squares are open (a
/// fork: one attacker move cannot block both), with the defenders to move.
const FORK_TO_MOVE: i32 = 400;
/// The same with the attackers to move: they can still pre-empt it.
const FORK_WAITING: i32 = 120;
/// Per empty square next to one's own pieces (a cheap mobility measure).
const MOBILITY: i32 = 2;

/// Number of evaluation terms.
pub const TERM_COUNT: usize = 9;

impl<B: Bitboard> Position<B> {
    /// The evaluation terms, side to move's view, centipawns:
    /// - `material`: defender soldiers × 180 − attacker soldiers × 100;
    /// - `king_distance`: −12 per step (Manhattan) from the king to the nearest escape square;
    /// - `king_open_lines`: escape squares the king reaches in one move: +5000 if the defenders
    ///   are to move (he escapes next), +2500 for two or more with attackers to move, +150 for one;
    /// - `king_routes`: for the squares the king reaches in one move: +30 for each with an open line
    ///   to an escape square, and for each with two or more (a fork) +400 with the defenders to
    ///   move, +120 with the attackers to move;
    /// - `king_surrounded`: −45 per side of the king held by an attacker or hostile square;
    /// - `escape_guards`: −15 per attacker next to an escape square;
    /// - `mobility`: +2 per empty square next to a defender/king, −2 per one next to an attacker;
    /// - `decided`: ±20000 when the king has been captured or has escaped;
    /// - `balance`: minus the sum of the other terms in the start position of these rules, so that
    ///   the start position scores 0. The raw terms favour one side by a constant (the attackers
    ///   by 1–4 pawns at the starts of rules.md's variants), and a draw would then look like a loss
    ///   to one side and a gift to the other; with the balance a draw is worth what the start is.
    pub fn terms(&self) -> [(&'static str, i32); TERM_COUNT] {
        let raw = self.raw_terms();
        let balance = *self.rules.balance.get_or_init(|| {
            let start = Position::start(self.rules);
            let sign = if start.side == Side::Second { 1 } else { -1 };
            sign * start.raw_terms().iter().map(|t| t.1).sum::<i32>()
        });
        let sign = if self.side == Side::Second { 1 } else { -1 };
        let mut terms = [("balance", -sign * balance); TERM_COUNT];
        terms[..TERM_COUNT - 1].copy_from_slice(&raw);
        terms
    }

    /// The terms without `balance`, side to move's view.
    fn raw_terms(&self) -> [(&'static str, i32); TERM_COUNT - 1] {
        let r = self.rules;
        let occ = self.occupied();
        let empty = r.board & !occ;
        let material = self.defenders.popcount() as i32 * DEFENDER_VALUE
            - self.attackers.popcount() as i32 * ATTACKER_VALUE;
        let (mut distance, mut open, mut surrounded, mut decided, mut routes) = (0, 0, 0, 0, 0);
        if self.king.is_empty() {
            decided = -KING_VALUE;
        } else if !(self.king & r.escape).is_empty() {
            decided = KING_VALUE;
        } else {
            let k = self.king.lsb();
            distance = -KING_DISTANCE * r.escape_distance(k) as i32;
            let lines = (self.targets(k, Piece::King) & r.escape).popcount() as i32;
            open = match (lines, self.side) {
                (0, _) => 0,
                (_, Side::Second) => OPEN_LINE_WIN,
                (1, Side::First) => OPEN_LINE_SINGLE,
                (_, Side::First) => OPEN_LINES_DOUBLE,
            };
            let k_targets = self.targets(k, Piece::King) & !r.escape;
            if !k_targets.is_empty() {
                let without_king = occ & !self.king;
                let blockers = without_king | r.no_pass[Piece::King.index()];
                let free = r.escape & !(without_king | r.no_stop[Piece::King.index()]);
                let fork = if self.side == Side::Second {
                    FORK_TO_MOVE
                } else {
                    FORK_WAITING
                };
                for s in k_targets.squares() {
                    routes += match (r.slides(s, blockers) & free).popcount() {
                        0 => 0,
                        1 => ROUTE,
                        _ => ROUTE + fork,
                    };
                }
            }
            let walls = self.attackers | r.hostile_to(Piece::King, occ);
            surrounded = -KING_SURROUNDED * (r.adjacent[k as usize] & walls).popcount() as i32;
        }
        let guards = -GUARD * (self.attackers & r.approach).popcount() as i32;
        let mobility = MOBILITY
            * ((r.neighbours(self.defenders | self.king) & empty).popcount() as i32
                - (r.neighbours(self.attackers) & empty).popcount() as i32);
        let sign = if self.side == Side::Second { 1 } else { -1 };
        [
            ("material", sign * material),
            ("king_distance", sign * distance),
            ("king_open_lines", sign * open),
            ("king_routes", sign * routes),
            ("king_surrounded", sign * surrounded),
            ("escape_guards", sign * guards),
            ("mobility", sign * mobility),
            ("decided", sign * decided),
        ]
    }

    /// The sum of [`Position::terms`].
    pub fn eval_total(&self) -> i32 {
        self.terms().iter().map(|t| t.1).sum()
    }
}
