//! The 8 symmetries of a square tafl board (rotations and reflections) as square permutations,
//! and which of them a rule set is invariant under: where the rules are, a position and its
//! images have the same value, so a trainer may show a position in any of them (augmentation)
//! and count images as one position (deduplication).

use crate::tafl::bitboard::{Bitboard, Square};
use crate::tafl::rules::Rules;

/// The 8 symmetries of the board of side `size`: `symmetries(size)[s][sq]` is the image of
/// square `sq = rank × size + file` under symmetry `s` (bit 0: mirror the files, bit 1: mirror
/// the ranks, bit 2: then swap files and ranks). Symmetry 0 is the identity.
pub fn symmetries(size: u8) -> [Vec<Square>; 8] {
    let n = size as usize;
    std::array::from_fn(|s| {
        (0..n * n)
            .map(|sq| {
                let (mut r, mut f) = (sq / n, sq % n);
                if s & 1 != 0 {
                    f = n - 1 - f;
                }
                if s & 2 != 0 {
                    r = n - 1 - r;
                }
                if s & 4 != 0 {
                    (r, f) = (f, r);
                }
                (r * n + f) as Square
            })
            .collect()
    })
}

/// The image of `bb` under the square permutation `perm`.
fn image<B: Bitboard>(bb: B, perm: &[Square]) -> B {
    bb.squares()
        .fold(B::ZERO, |out, sq| out | B::bit(perm[sq as usize]))
}

/// The symmetries (indices into [`symmetries`]) under which `rules` are the same rules: every
/// square the rules single out (escape squares, squares a kind may not stop on or pass, hostile
/// squares of every sort, where the king is strong, Linnaean anvils, camps) maps onto a square
/// of the same sort. The start position is no rule: a position's value does not depend on how
/// the game began. The rest of skald's tafl rules
/// (custodial capture, shieldwalls and edge forts along any edge, encirclement, the move
/// limits, repetition) name no square and no direction, so they are the same under any
/// symmetry. The identity is always among them; the presets (brandubh, tablut, tawlbwrdd,
/// Copenhagen 11×11 and 13×13, Ashton with its camps) have all 8 (a test checks), while an
/// OpenTafl rules string may have fewer.
pub fn rules_symmetries<B: Bitboard>(rules: &Rules<B>) -> Vec<usize> {
    let mut masks = vec![
        rules.escape,
        rules.king_strong,
        rules.linnaean,
        rules.marked,
    ];
    for k in 0..3 {
        masks.extend([
            rules.no_stop[k],
            rules.no_pass[k],
            rules.hostile[k],
            rules.hostile_empty[k],
            rules.hostile_occupied[k],
        ]);
    }
    let squares = rules.size as usize * rules.size as usize;
    symmetries(rules.size)
        .iter()
        .enumerate()
        .filter(|(_, perm)| {
            masks.iter().all(|&m| image(m, perm) == m)
                && (0..squares).all(|sq| {
                    let camp = rules.camp(sq as Square);
                    rules.camp(perm[sq]) == image(camp, perm)
                })
        })
        .map(|(s, _)| s)
        .collect()
}
