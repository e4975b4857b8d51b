//! Static evaluation of Ataxx positions, in centipawns from the side to move's view.
//!
//! Terms (each is "own minus opponent's", so the sum is antisymmetric in the two sides):
//! - `material`: [`MATERIAL`] per stone. Stones decide the game (more stones wins).
//! - `mobility`: [`MOBILITY`] per empty square the side can clone into (growth potential, and a
//!   side with few clone squares is close to being forced into jumps that open holes).
//! - `stability`: [`STABLE`] per stone without an empty neighbour: nobody can land next to it,
//!   so it cannot be flipped on the next move.
//! - `holes`: [`HOLE`] (negative) per empty square next to the side's stones that an opponent
//!   stone can reach (distance ≤ 2): the opponent can land there and flip the neighbours.
//!
//! All terms are a few bitboard dilations and popcounts.

use super::bitboard::{doubles, singles};
use super::position::Position;

/// Centipawns per stone.
pub const MATERIAL: i32 = 100;
/// Centipawns per empty square the side can clone into.
pub const MOBILITY: i32 = 4;
/// Centipawns per stone with no empty neighbour.
pub const STABLE: i32 = 8;
/// Centipawns (a penalty) per empty square next to the side's stones within the opponent's reach.
pub const HOLE: i32 = -6;

/// The evaluation terms `[material, mobility, stability, holes]` from the side to move's view.
pub(crate) fn terms(pos: &Position) -> [(&'static str, i32); 4] {
    let us = pos.side.index();
    let own = pos.stones[us];
    let opp = pos.stones[us ^ 1];
    let empty = pos.empty();
    let count = |b: u64| b.count_ones() as i32;

    let material = MATERIAL * (count(own) - count(opp));

    let own_front = singles(own) & empty;
    let opp_front = singles(opp) & empty;
    let mobility = MOBILITY * (count(own_front) - count(opp_front));

    let near_empty = singles(empty);
    let stability = STABLE * (count(own & !near_empty) - count(opp & !near_empty));

    let own_holes = own_front & doubles(opp);
    let opp_holes = opp_front & doubles(own);
    let holes = HOLE * (count(own_holes) - count(opp_holes));

    [
        ("material", material),
        ("mobility", mobility),
        ("stability", stability),
        ("holes", holes),
    ]
}

/// The sum of [`terms`].
#[inline]
pub(crate) fn evaluate(pos: &Position) -> i32 {
    terms(pos).iter().map(|t| t.1).sum()
}
