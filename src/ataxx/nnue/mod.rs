//! An NNUE-style network evaluation for Ataxx, in two kinds: the square-input network
//! ([`Network`], file format 1, the built-in one: its features, weights and integer forward pass
//! here) and the pattern-input network ([`PatternNetwork`], file format 2, `patterns.rs`; see
//! [Pattern inputs](#pattern-inputs-file-format-2)); and, in their own files, the network files
//! (`format.rs`: headers, reading and writing, [`NetworkError`], the [`embedded`] network,
//! [`load_network`] for either format), and the accumulator's incremental update and
//! [`AtaxxEval`], the search's Ataxx evaluation (`accumulator.rs`, [`crate::eval::Evaluator`]).
//! The search does not know which kind it evaluates with: [`AtaxxEval`] holds one or the other
//! and both fill the same [`Accumulator`]. What is not Ataxx's own (the quantisation, the
//! activations, the accumulator's storage, the pattern network's layers and the inner loops over
//! the hidden values) is shared with the other families' networks in [`crate::nnue`].
//!
//! # In the search
//! The search evaluates Ataxx with a network unless the engine option `EvalFile` says `hand`:
//! by default the network built into the binary ([`embedded`], the file `nets/`
//! [`EMBEDDED_NAME`]), or one read from the file `EvalFile` names. Each search thread keeps one
//! [`Accumulator`] per ply: computed from scratch at the root ([`Accumulator::refresh`]), then
//! copied from the parent and updated for the move at each child ([`Accumulator::apply_move`]).
//! Every Ataxx node is evaluated (there is no quiescence move, and the static evaluation goes
//! to the transposition table), so the update is made eagerly when the child is made.
//!
//! # Architecture
//! `(147 → HIDDEN)×2 → 1`, the usual "perspective" NNUE:
//!
//! - **Features** ([`features`]): 147 binary inputs seen from one side, the *perspective* `p`:
//!   index `sq` for a stone of `p` on square `sq` ("own"), `49 + sq` for a stone of the other
//!   side ("their"), `98 + sq` for a blocked square (square index `rank * 7 + file`, `a1` = 0).
//!   No mirroring: Ataxx is the same game for both colours.
//! - **Accumulators** ([`Accumulator`]): one hidden vector of [`HIDDEN`] values per perspective
//!   (`x`'s and `o`'s), each `b1 + Σ W1[f]` over that perspective's active features. Both use the
//!   same weights `W1`, `b1`. A move changes a few features (a clone adds a stone and flips up to
//!   8; a jump also removes one), so the accumulators are updated by adding and subtracting rows
//!   of `W1` instead of recomputed ([`Accumulator::apply_move`]).
//! - **Output** ([`Network::evaluate`]): clipped ReLU `clamp(a, 0, 1)` on both accumulators,
//!   the side to move's first, then one linear neuron:
//!   `y = W2 · [crelu(a_stm), crelu(a_other)] + b2`. `y` is a logit: the trainer fits `sigmoid(y)` to the expected game result, so
//!   centipawns are `y × scale` with the file's `scale` (the trainer's `K`, centipawns per unit
//!   of logit, which matches the search scores it was trained on).
//!
//! # Quantisation
//! `W1`, `b1` are stored as `round(w × QA)` in `i16` ([`QA`] = 255), so the accumulator is in
//! units of `1/QA` and the clipped ReLU is `clamp(a, 0, QA)`. `W2` is stored as `round(w × QB)`
//! in `i16` ([`QB`] = 2048), `b2` as `round(b × QA × QB)` in `i32`. Then
//! `y = (Σ crelu(a_i) × W2_i + b2) / (QA × QB)`. `QB` is large because `y` is multiplied by a
//! scale of about 1000 centipawns: with `QB` = 64 the rounding of `W2` alone moved evaluations
//! by about 26 cp; with 2048 it is below 1 cp (the rounding of `W1` leaves a few cp). The
//! trainer keeps every float weight within ±1.98 so that an accumulator of at most 49 active
//! features and the bias cannot leave `i16` (50 × 505 < 32767) and the output sum cannot leave
//! `i32` (256 × 255 × 4055 < 2³¹); the arithmetic wraps rather than panics on files that break
//! this.
//!
//! # File format (version 1), all little-endian
//! | offset | type | field |
//! |---|---|---|
//! | 0 | 4 bytes | magic `SKNN` |
//! | 4 | `u16` | format version, 1 |
//! | 6 | `u16` | inputs, 147 ([`NUM_FEATURES`]) |
//! | 8 | `u16` | hidden size per perspective, [`HIDDEN`] |
//! | 10 | `u16` | `QA`, 255 |
//! | 12 | `u16` | `QB`, 2048 |
//! | 14 | `u16` | reserved, 0 |
//! | 16 | `i32` | `scale`: centipawns per unit of output logit, ≥ 1 |
//! | 20 | `i16` × inputs × hidden | `W1`, feature-major (the `hidden` weights of feature 0 first) |
//! | … | `i16` × hidden | `b1` |
//! | … | `i16` × 2 × hidden | `W2`: the weights of the side to move's accumulator, then the other's |
//! | … | `i32` | `b2` |
//!
//! Nothing follows; a file of any other length is refused. With `HIDDEN` = 128 a file is
//! 38 424 bytes.
//!
//! Read and written in `format.rs`.
//!
//! # Pattern inputs (file format 2)
//! `(2965 → H)×2 → 1`, the same perspective network with other inputs, a hidden size `H` read
//! from the file (a multiple of 32 from 32 to [`MAX_HIDDEN`] = 512: 128, 256 and 512 are
//! compiled for their size) and a choice of activation ([`Activation`]):
//!
//! - **Features** ([`patterns_of`], [`pattern_features`]): the 36 overlapping 2×2 windows of
//!   the board (window `w = 6 × rank + file` covers `(file, rank)` to `(file + 1, rank + 1)`),
//!   each in one of [`WINDOW_STATES`] = 81 states seen from the perspective `p`: the base-3
//!   number of its 4 squares (lower left digit 0, lower right 1, upper left 2, upper right 3),
//!   each digit 0 for an empty or blocked square, 1 for a stone of `p`, 2 for one of the other
//!   side. Feature `81 × w + state` (exactly 36 active), then [`PATTERN_BLOCKED`]` + sq` = 2916
//!   `+ sq` for each blocked square. **Why 3 states and separate blocked squares, not 4⁴ = 256
//!   states:** blocked squares never change during a game, so their 49 inputs cost nothing in
//!   the incremental update; most positions have no or few blocked squares, so with 256 states
//!   per window the states with a blocked square (175 of the 256) would each be seen rarely and
//!   stay under-trained, while all 81 stone states are common; and the first layer is 3× smaller
//!   (2965 rows against 9216, 760 KB at `H` = 128). The cost: a window does not tell a blocked
//!   square from an empty one, only the blocked square's own input (added to every hidden unit)
//!   does. This is also Zataxx's choice of 81 states. The header's feature-set id
//!   ([`FEATURE_SET_WINDOWS_2X2`] = 1) names this set, so that others (4×2 tuples, 256 states)
//!   can be added as new ids.
//! - **Accumulator**: the same [`Accumulator`] (room for 512 values per perspective; a
//!   network of `H` hidden neurons uses the first `2 × H`, each perspective's `H` in a row, so
//!   that a small network's values stay together), `b1 + Σ W1[f]` per perspective. A move changes the
//!   squares `to`, the flipped stones (all within one step of `to`) and, for a jump, `from`;
//!   exactly the windows holding one of them change state, at most 16 around `to` and 4 around
//!   `from`. [`PatternNetwork::apply_move`] updates each such window once per perspective
//!   (its old state's row subtracted, its new state's added) in one pass over each
//!   perspective's values. Since both perspectives see the same window with digits 1 and 2
//!   swapped, both states come from the same two 4-bit masks.
//! - **Output** ([`PatternNetwork::evaluate`]): CReLU as format 1, or SCReLU:
//!   `y = W2 · [clamp(a_stm, 0, 1)², clamp(a_other, 0, 1)²] + b2`; centipawns `y × scale`.
//!   A network may have up to [`MAX_BUCKETS`] = 8 **output buckets**: one `W2` and `b2` per
//!   bucket, and a position is read by the bucket of its number of stones `n` (both sides'),
//!   [`output_bucket`] = `min(B − 1, n × B / 49)`, so that the opening, the middle game and
//!   the full board each have their own output layer (chess NNUE's output buckets by piece
//!   count). The accumulators and their update are the same; the evaluation counts the stones
//!   (one `popcnt`) and reads its bucket's row.
//!
//! **Quantisation** (`QA` = 255, `QB` = 2048 as format 1). The accumulator sums `b1` and at most
//! 36 window rows and 49 blocked-square rows: 86 terms, so the trainer keeps `W1` and `b1`
//! within ±1.49 (`round(1.49 × 255)` = 380, and 86 × 380 = 32 680 < 32 767 fits `i16`) and
//! `W2` within ±1.98 (4055). CReLU's output sum has at most 2 × 512 terms of
//! 255 × 4055: 1.06 × 10⁹ < 2³¹, in `i32`. SCReLU's terms are `clamp(a, 0, QA)² × W2` in
//! units of `1/(QA² × QB)`: one term is at most 255² × 32 768 < 2³¹ for any `i16` weight, so it
//! is formed in `i32`, but 1024 of them may reach 2.7 × 10¹¹, so they are summed in `i64`; the
//! sum is divided by `QA` (to `1/(QA × QB)`, the unit of `b2`) before `b2` is added. Then
//! `cp = (sum + b2) × scale / (QA × QB)` as format 1. The update arithmetic wraps, so a file
//! that breaks the bounds gives wrong values but no panic.
//!
//! **File format version 2**, all little-endian:
//!
//! | offset | type | field |
//! |---|---|---|
//! | 0 | 4 bytes | magic `SKNN` |
//! | 4 | `u16` | format version, 2 |
//! | 6 | `u16` | inputs, 2965 ([`NUM_PATTERN_FEATURES`]) |
//! | 8 | `u16` | hidden size per perspective `H`: a multiple of 32, 32 to 512 |
//! | 10 | `u16` | `QA`, 255 |
//! | 12 | `u16` | `QB`, 2048 |
//! | 14 | `u16` | feature set, 1 (2×2 windows of 3 states, then blocked squares) |
//! | 16 | `i32` | `scale`: centipawns per unit of output logit, ≥ 1 |
//! | 20 | `u16` | activation: 0 CReLU, 1 SCReLU |
//! | 22 | `u16` | output buckets `B`, 1 to 8; 0 (the files from before buckets) is 1, and one bucket is written as 0 |
//! | 24 | `i16` × inputs × `H` | `W1`, feature-major |
//! | … | `i16` × `H` | `b1` |
//! | … | `i16` × 2 × `H` × `B` | `W2`, per bucket (bucket 0 first): the side to move's accumulator's weights, then the other's |
//! | … | `i32` × `B` | `b2`, per bucket |
//!
//! Nothing follows ([`pattern_file_len`]: 759 836 bytes at `H` = 128 with one bucket, 1 519 644
//! at 256, 3 039 260 at 512; 8 buckets add 3612 bytes at `H` = 128). [`load_network`] (the engine option `EvalFile`) reads either format by the
//! version field; the built-in network stays a format-1 file.

mod accumulator;
mod format;
mod patterns;

pub use crate::nnue::{Activation, HIDDEN_MULTIPLE, QA, QB};
pub use accumulator::{Accumulator, AtaxxEval};
pub use format::{
    EMBEDDED_NAME, EmbeddedNetwork, FILE_LEN, HEADER_LEN, MAGIC, NetworkError, PATTERN_HEADER_LEN,
    PATTERN_VERSION, VERSION, embedded, load_network, pattern_file_len,
};
/// A pattern network with random weights, for the search's tests.
#[cfg(test)]
pub(crate) use patterns::tests::random_pattern_network;
pub use patterns::{
    FEATURE_SET_WINDOWS_2X2, MAX_BUCKETS, MAX_HIDDEN, NUM_PATTERN_FEATURES, PATTERN_BLOCKED,
    PatternNetwork, WINDOW_STATES, WINDOWS, output_bucket, pattern_features, patterns_of,
    window_base, window_squares, window_state,
};

use super::bitboard::{NUM_SQUARES, Squares};
use super::position::Position;
use crate::game::Side;
use crate::nnue::kernels::crelu_dot;

/// Number of input features per perspective: own stones, their stones, blocked squares.
pub const NUM_FEATURES: usize = 3 * NUM_SQUARES;
/// Hidden neurons per perspective (the accumulator's length).
pub const HIDDEN: usize = 128;

/// Offset of "their" stones in the feature index.
const THEIR: usize = NUM_SQUARES;
/// Offset of blocked squares in the feature index.
const BLOCKED: usize = 2 * NUM_SQUARES;

/// The active features of `pos` seen from `perspective` (indices `0..NUM_FEATURES`, see the
/// module docs): own stones, then their stones, then blocked squares, each lowest square first.
pub fn features(pos: &Position, perspective: Side) -> impl Iterator<Item = usize> {
    let own = pos.stones(perspective);
    let their = pos.stones(perspective.opponent());
    Squares(own)
        .map(|s| s.index())
        .chain(Squares(their).map(|s| THEIR + s.index()))
        .chain(Squares(pos.blocked()).map(|s| BLOCKED + s.index()))
}

/// A quantised network (see the module docs): `W1` and `b1` in units of `1/QA`, `W2` in units
/// of `1/QB`, `b2` in units of `1/(QA × QB)`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    w1: Box<[[i16; HIDDEN]; NUM_FEATURES]>,
    b1: [i16; HIDDEN],
    w2: [[i16; HIDDEN]; 2],
    b2: i32,
    scale: i32,
    /// Per square, `W1[own sq] − W1[their sq]` (wrapping): what a stone on `sq` changing colour
    /// adds to its new owner's accumulator and takes from the other's. Derived from `w1`.
    flip: Box<[[i16; HIDDEN]; NUM_SQUARES]>,
}

impl Network {
    /// A network from its quantised parts: `w1` feature-major (`NUM_FEATURES × HIDDEN`), `b1`
    /// (`HIDDEN`), `w2` (`2 × HIDDEN`, the side to move's half first), `b2`, and `scale`
    /// (centipawns per logit unit). `None` if a length is wrong or `scale < 1`.
    pub fn from_parts(w1: &[i16], b1: &[i16], w2: &[i16], b2: i32, scale: i32) -> Option<Network> {
        if w1.len() != NUM_FEATURES * HIDDEN
            || b1.len() != HIDDEN
            || w2.len() != 2 * HIDDEN
            || scale < 1
        {
            return None;
        }
        let mut net = Network::zeroed(scale);
        for (row, chunk) in net.w1.iter_mut().zip(w1.chunks_exact(HIDDEN)) {
            row.copy_from_slice(chunk);
        }
        net.b1.copy_from_slice(b1);
        net.w2[0].copy_from_slice(&w2[..HIDDEN]);
        net.w2[1].copy_from_slice(&w2[HIDDEN..]);
        net.b2 = b2;
        net.derive_flip_rows();
        Some(net)
    }

    fn zeroed(scale: i32) -> Network {
        Network {
            w1: Box::new([[0; HIDDEN]; NUM_FEATURES]),
            b1: [0; HIDDEN],
            w2: [[0; HIDDEN]; 2],
            b2: 0,
            scale,
            flip: Box::new([[0; HIDDEN]; NUM_SQUARES]),
        }
    }

    /// Fills `flip` from `w1`.
    fn derive_flip_rows(&mut self) {
        for (sq, row) in self.flip.iter_mut().enumerate() {
            for (i, d) in row.iter_mut().enumerate() {
                *d = self.w1[sq][i].wrapping_sub(self.w1[THEIR + sq][i]);
            }
        }
    }

    /// Centipawns per unit of the output logit.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The evaluation of the position whose accumulators are `acc`, in centipawns from the view
    /// of `side_to_move`. Integer arithmetic only; the two loops over `HIDDEN` vectorise.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Side) -> i32 {
        let us = acc.half(side_to_move.index());
        let them = acc.half(side_to_move.index() ^ 1);
        let sum = crelu_dot(us, &self.w2[0]).wrapping_add(crelu_dot(them, &self.w2[1]));
        let out = sum.wrapping_add(self.b2) as i64;
        (out * self.scale as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of `pos` from scratch (a fresh accumulator), centipawns from the side to
    /// move's view.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::new(self, pos), pos.side)
    }
}

#[cfg(test)]
mod tests {
    use super::super::mv::Move;
    use super::*;
    use crate::rng::SeededRng;

    /// A network with random weights in ±505 (the trainer's bound), random scale.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = SeededRng::new(seed);
        let mut w = |n: usize, m: i16| -> Vec<i16> {
            (0..n)
                .map(|_| (rng.below(2 * m as u64 + 1) as i64 - m as i64) as i16)
                .collect()
        };
        let w1 = w(NUM_FEATURES * HIDDEN, 505);
        let b1 = w(HIDDEN, 505);
        let w2 = w(2 * HIDDEN, 127);
        Network::from_parts(&w1, &b1, &w2, 12345, 300).unwrap()
    }

    /// The forward pass written out plainly, from the feature lists.
    pub(super) fn reference_eval(net: &Network, pos: &Position) -> i32 {
        let hidden = |p: Side| -> Vec<i32> {
            let mut h: Vec<i32> = net.b1.iter().map(|&b| b as i32).collect();
            for f in features(pos, p) {
                for (x, &w) in h.iter_mut().zip(net.w1[f].iter()) {
                    *x += w as i32;
                }
            }
            h
        };
        let (us, them) = (hidden(pos.side), hidden(pos.side.opponent()));
        let mut sum = net.b2 as i64;
        for i in 0..HIDDEN {
            sum += us[i].clamp(0, QA) as i64 * net.w2[0][i] as i64;
            sum += them[i].clamp(0, QA) as i64 * net.w2[1][i] as i64;
        }
        (sum * net.scale as i64 / (QA * QB) as i64) as i32
    }

    pub(super) fn random_games(seed: u64, mut visit: impl FnMut(&Position, Move, &Position)) {
        let mut rng = SeededRng::new(seed);
        let starts = [
            Position::start(),
            Position::from_fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap(),
            Position::from_fen("x5o/1-3-1/7/3-3/7/1-3-1/o5x o 0 1").unwrap(),
        ];
        let mut moves = Vec::new();
        for game in 0..30 {
            let mut pos = starts[game % starts.len()];
            while !pos.is_game_over() {
                moves.clear();
                pos.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len() as u64) as usize];
                let mut next = pos;
                next.play(mv);
                visit(&pos, mv, &next);
                pos = next;
            }
        }
    }

    #[test]
    fn colour_swap_keeps_the_evaluation() {
        // Features are relative to the side to move, so swapping the colours and the side to
        // move changes nothing.
        let net = random_network(3);
        random_games(4, |_, _, pos| {
            let mut swapped = *pos;
            swapped.stones.swap(0, 1);
            swapped.side = pos.side.opponent();
            assert_eq!(net.evaluate_position(pos), net.evaluate_position(&swapped));
        });
    }
}
