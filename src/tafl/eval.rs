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
/// Per empty square next to one's own pieces (a cheap mobility measure).
const MOBILITY: i32 = 2;

/// Number of evaluation terms.
pub const TERM_COUNT: usize = 7;

impl<B: Bitboard> Position<B> {
    /// The evaluation terms, side to move's view, centipawns:
    /// - `material`: defender soldiers × 180 − attacker soldiers × 100;
    /// - `king_distance`: −12 per step (Manhattan) from the king to the nearest escape square;
    /// - `king_open_lines`: escape squares the king reaches in one move: +5000 if the defenders
    ///   are to move (he escapes next), +2500 for two or more with attackers to move, +150 for one;
    /// - `king_surrounded`: −45 per side of the king held by an attacker or hostile square;
    /// - `escape_guards`: −15 per attacker next to an escape square;
    /// - `mobility`: +2 per empty square next to a defender/king, −2 per one next to an attacker;
    /// - `decided`: ±20000 when the king has been captured or has escaped.
    pub fn terms(&self) -> [(&'static str, i32); TERM_COUNT] {
        let r = self.rules;
        let occ = self.occupied();
        let empty = r.board & !occ;
        let material = self.defenders.popcount() as i32 * DEFENDER_VALUE
            - self.attackers.popcount() as i32 * ATTACKER_VALUE;
        let (mut distance, mut open, mut surrounded, mut decided) = (0, 0, 0, 0);
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
