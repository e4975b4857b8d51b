//! The pattern-input network (file format 2, [`PatternNetwork`]): its features (2×2 windows and
//! blocked squares, [`pattern_features`]), forward pass (CReLU or SCReLU, [`Activation`]) and
//! accumulator refresh and incremental update. The design is in the `nnue` module docs.

use super::super::bitboard::{Bitboard, NUM_SQUARES, SINGLE, Squares};
use super::super::mv::Move;
use super::super::position::Position;
use super::{Accumulator, Activation};
use crate::game::Side;
use crate::nnue::Layers;

/// Number of 2×2 windows on the 7×7 board (6 × 6, overlapping).
pub const WINDOWS: usize = 36;
/// States of one window: each of its 4 squares is empty (or blocked), own or theirs.
pub const WINDOW_STATES: usize = 81;
/// Index of the first blocked-square feature (after the windows' features).
pub const PATTERN_BLOCKED: usize = WINDOWS * WINDOW_STATES;
/// Number of input features per perspective of a pattern network: 36 × 81 window states and
/// 49 blocked squares (2965).
pub const NUM_PATTERN_FEATURES: usize = PATTERN_BLOCKED + NUM_SQUARES;
/// The largest hidden size per perspective a pattern network may have (the accumulator's
/// capacity).
pub const MAX_HIDDEN: usize = 512;
/// Feature-set id in the file header: overlapping 2×2 windows of 3 states plus blocked squares.
pub const FEATURE_SET_WINDOWS_2X2: u16 = 1;
/// The most output buckets a pattern network may have ([`output_bucket`]).
pub const MAX_BUCKETS: usize = 8;

/// The output bucket of a position with `stones` stones on the board (both sides') in a network
/// of `buckets` output buckets: `min(buckets − 1, stones × buckets / 49)`, so that the buckets
/// split the game by how full the board is (with 8: 0–6 stones bucket 0, 7–12 bucket 1, …,
/// 43–49 bucket 7). One bucket is the plain network. The idea is chess NNUE's output buckets
/// by piece count (Stockfish, Viridithas): one output layer per phase of the game.
#[inline(always)]
pub fn output_bucket(stones: u32, buckets: usize) -> usize {
    (stones as usize * buckets / NUM_SQUARES).min(buckets - 1)
}

/// Square index of window `w`'s lower-left square: window `w = 6 × rank + file` covers
/// `(file, rank)`, `(file + 1, rank)`, `(file, rank + 1)`, `(file + 1, rank + 1)`.
pub const fn window_base(w: usize) -> usize {
    (w / 6) * 7 + w % 6
}

/// The four squares of window `w`, in the order of their base-3 digits (lowest first).
pub const fn window_squares(w: usize) -> [usize; 4] {
    let b = window_base(w);
    [b, b + 1, b + 7, b + 8]
}

/// `TERNARY[m]` = `Σ 3^k` over the set bits `k` of the 4-bit mask `m`.
const TERNARY: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        let (mut k, mut p, mut v) = (0, 1, 0);
        while k < 4 {
            if m >> k & 1 != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// Per square, the windows that contain it, as a mask of window indices (bit `w`).
const WINDOWS_OF: [u64; NUM_SQUARES] = {
    let mut t = [0u64; NUM_SQUARES];
    let mut w = 0;
    while w < WINDOWS {
        let sq = window_squares(w);
        let mut i = 0;
        while i < 4 {
            t[sq[i]] |= 1 << w;
            i += 1;
        }
        w += 1;
    }
    t
};

/// The 4 bits of `bb` on window `w`'s squares, in digit order.
#[inline(always)]
fn nibble(bb: Bitboard, w: usize) -> usize {
    let x = bb >> window_base(w);
    ((x & 1) | (x >> 1 & 1) << 1 | (x >> 7 & 1) << 2 | (x >> 8 & 1) << 3) as usize
}

/// The state (`0..81`) of window `w` seen by the side whose stones are `own`: digit 0 for an
/// empty or blocked square, 1 for an own stone, 2 for a stone of the other side.
#[inline(always)]
pub fn window_state(own: Bitboard, their: Bitboard, w: usize) -> usize {
    TERNARY[nibble(own, w)] as usize + 2 * TERNARY[nibble(their, w)] as usize
}

/// The active features of a board with stones `own` and `their` and blocked squares `blocked`,
/// seen by the owner of `own`: `81 × w + state` for each window `w` (36 of them, in order), then
/// [`PATTERN_BLOCKED`]` + sq` for each blocked square (lowest first). The trainer calls it on
/// the boards' symmetric images.
pub fn pattern_features(
    own: Bitboard,
    their: Bitboard,
    blocked: Bitboard,
) -> impl Iterator<Item = usize> {
    (0..WINDOWS)
        .map(move |w| w * WINDOW_STATES + window_state(own, their, w))
        .chain(Squares(blocked).map(|s| PATTERN_BLOCKED + s.index()))
}

/// The active features of `pos` seen from `perspective` ([`pattern_features`]).
pub fn patterns_of(pos: &Position, perspective: Side) -> impl Iterator<Item = usize> {
    pattern_features(
        pos.stones(perspective),
        pos.stones(perspective.opponent()),
        pos.blocked(),
    )
}

/// A quantised pattern network (file format 2, see the module docs): `W1` and `b1` in units of
/// `1/QA`, `W2` in units of `1/QB`, `b2` in units of `1/(QA × QB)`, any hidden size that is a
/// multiple of 32 up to [`MAX_HIDDEN`], and 1 to [`MAX_BUCKETS`] output buckets (one `W2` and
/// `b2` per bucket, [`output_bucket`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PatternNetwork {
    /// Two perspectives (the side to move's first in `W2`), one head per output bucket.
    pub(super) layers: Layers,
}

impl PatternNetwork {
    /// A network from its quantised parts: hidden size `hidden` (a multiple of 32 from 32 to
    /// [`MAX_HIDDEN`]), `activation`, `w1` feature-major (`NUM_PATTERN_FEATURES × hidden`),
    /// `b1` (`hidden`), `w2` (`2 × hidden` per output bucket, bucket 0 first, each the side to
    /// move's half first), `b2` (one per output bucket: its length is the number of buckets, 1
    /// to [`MAX_BUCKETS`]), and `scale` (centipawns per logit unit). `None` if a size is wrong
    /// or `scale < 1`.
    pub fn from_parts(
        hidden: usize,
        activation: Activation,
        w1: &[i16],
        b1: &[i16],
        w2: &[i16],
        b2: &[i32],
        scale: i32,
    ) -> Option<PatternNetwork> {
        if !valid_hidden(hidden) || !(1..=MAX_BUCKETS).contains(&b2.len()) {
            return None;
        }
        Layers::from_parts(
            NUM_PATTERN_FEATURES,
            hidden,
            2,
            activation,
            w1,
            b1,
            w2,
            b2,
            scale,
        )
        .map(|layers| PatternNetwork { layers })
    }

    /// The element-wise mean of networks of one shape (hidden size, output buckets, activation
    /// and scale), each quantised weight rounded to the nearest integer: one network from
    /// several fine-tuned from one another ([`Layers::average`]; the example `nnue_average`
    /// writes it as a file). `None` for an empty list or networks of different shapes.
    pub fn average(nets: &[PatternNetwork]) -> Option<PatternNetwork> {
        let layers: Vec<&Layers> = nets.iter().map(|n| &n.layers).collect();
        Layers::average(&layers).map(|layers| PatternNetwork { layers })
    }

    /// Output buckets, 1 to [`MAX_BUCKETS`].
    pub fn buckets(&self) -> usize {
        self.layers.heads()
    }

    /// Hidden neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.layers.hidden()
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.layers.activation()
    }

    /// Centipawns per unit of the output logit.
    pub fn scale(&self) -> i32 {
        self.layers.scale()
    }

    /// The quantised parts, as [`PatternNetwork::from_parts`] takes them: `w1` feature-major
    /// (`NUM_PATTERN_FEATURES × hidden`, units of `1/QA`), `b1` (`hidden`, `1/QA`), `w2`
    /// (`2 × hidden` per output bucket, the side to move's half first, `1/QB`) and `b2` (one per
    /// bucket, `1/(QA × QB)`). For a trainer that starts from a network (`skald-trainer --init`).
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        self.layers.parts()
    }

    #[inline(always)]
    fn row(&self, f: usize) -> &[i16] {
        self.layers.row(f)
    }

    /// Sets `acc` to the accumulators of `pos` computed from scratch: `b1` plus the rows of
    /// the 36 windows' states and the blocked squares, per perspective.
    pub fn refresh(&self, acc: &mut Accumulator, pos: &Position) {
        let h = self.hidden();
        for side in [Side::First, Side::Second] {
            self.layers
                .refresh(acc.side_mut(side.index(), h), patterns_of(pos, side));
        }
    }

    /// The accumulators of `pos` computed from scratch.
    pub fn accumulator(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        self.refresh(&mut acc, pos);
        acc
    }

    /// Sets `child` to the accumulators after the legal move `mv` of `pos`'s side to move,
    /// given `parent`, the accumulators of `pos`. The move changes the squares `to`, the
    /// flipped stones and, for a jump, `from`; every window holding one of them changes state
    /// (at most 16 windows around `to`, 4 around `from`), and each is updated once per
    /// perspective: its old state's row subtracted, its new state's row added, all in one pass
    /// over each perspective's values. Blocked squares never change.
    ///
    /// Never inlined: the search's move loop, which calls the format-1 update inline, stays
    /// as small as it was without pattern networks (their update is long enough for a call
    /// not to count).
    #[inline(never)]
    pub fn apply_move(
        &self,
        child: &mut Accumulator,
        parent: &Accumulator,
        pos: &Position,
        mv: Move,
    ) {
        let us = pos.side;
        let (to, from) = match mv {
            Move::Pass => {
                child.copy_used(parent, self.layers.used());
                return;
            }
            Move::Clone { to } => (to.index(), 0),
            Move::Jump { from, to } => (to.index(), from.bit()),
        };
        let (own, their) = (pos.stones(us), pos.stones(us.opponent()));
        let flips = SINGLE[to] & their;
        let changed = (1u64 << to) | flips | from;
        let (own_after, their_after) = ((own | (1 << to) | flips) & !from, their & !flips);
        let mut windows = 0u64;
        for sq in Squares(changed) {
            windows |= WINDOWS_OF[sq.index()];
        }
        // The mover's perspective reads `own` as digit 1 and `their` as 2, the other's the
        // reverse; rows [mover's, other's].
        let mut adds: [[&[i16]; 20]; 2] = [[&[]; 20]; 2];
        let mut subs: [[&[i16]; 20]; 2] = [[&[]; 20]; 2];
        let mut n = 0;
        let mut rest = windows;
        while rest != 0 {
            let w = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (o0, t0) = (
                TERNARY[nibble(own, w)] as usize,
                TERNARY[nibble(their, w)] as usize,
            );
            let (o1, t1) = (
                TERNARY[nibble(own_after, w)] as usize,
                TERNARY[nibble(their_after, w)] as usize,
            );
            let base = w * WINDOW_STATES;
            subs[0][n] = self.row(base + o0 + 2 * t0);
            adds[0][n] = self.row(base + o1 + 2 * t1);
            subs[1][n] = self.row(base + t0 + 2 * o0);
            adds[1][n] = self.row(base + t1 + 2 * o1);
            n += 1;
        }
        let h = self.hidden();
        let u = us.index();
        for (p, side) in [(0, u), (1, u ^ 1)] {
            let (out, base) = (child.side_mut(side, h), parent.side(side, h));
            self.layers.update(out, base, &adds[p][..n], &subs[p][..n]);
        }
    }

    /// The evaluation of `pos`, whose accumulators are `acc`, in centipawns from the view of
    /// its side to move (the output bucket by its stones, [`output_bucket`]). Integer
    /// arithmetic only. Never inlined, as [`PatternNetwork::apply_move`].
    #[inline(never)]
    pub fn evaluate(&self, acc: &Accumulator, pos: &Position) -> i32 {
        let h = self.hidden();
        let side_to_move = pos.side;
        let us = acc.side(side_to_move.index(), h);
        let them = acc.side(side_to_move.index() ^ 1, h);
        let bucket = match self.buckets() {
            1 => 0,
            n => output_bucket(stone_count(pos), n),
        };
        self.layers.output(&[us, them], bucket)
    }

    /// The evaluation of `pos` from scratch, centipawns from the side to move's view.
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.accumulator(pos), pos)
    }
}

/// The stones on the board, both sides'.
#[inline(always)]
fn stone_count(pos: &Position) -> u32 {
    (pos.stones(Side::First) | pos.stones(Side::Second)).count_ones()
}

/// Whether `hidden` is a hidden size a pattern network may have.
pub(super) fn valid_hidden(hidden: usize) -> bool {
    hidden <= MAX_HIDDEN && Layers::valid_shape(hidden, 2)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::tests::random_games;
    use super::*;
    use crate::nnue::{QA, QB};
    use crate::rng::SeededRng;

    /// A pattern network with random weights within the trainer's bounds (`W1`, `b1` ±380,
    /// `W2` ±4055).
    pub(crate) fn random_pattern_network(
        seed: u64,
        hidden: usize,
        activation: Activation,
    ) -> PatternNetwork {
        let mut rng = SeededRng::new(seed);
        let mut w = |n: usize, m: i16| -> Vec<i16> {
            (0..n)
                .map(|_| (rng.below(2 * m as u64 + 1) as i64 - m as i64) as i16)
                .collect()
        };
        let w1 = w(NUM_PATTERN_FEATURES * hidden, 380);
        let b1 = w(hidden, 380);
        let w2 = w(2 * hidden, 300);
        PatternNetwork::from_parts(hidden, activation, &w1, &b1, &w2, &[-4321], 400).unwrap()
    }

    /// A random pattern network as [`random_pattern_network`] with `buckets` output buckets.
    pub(crate) fn random_bucketed_network(
        seed: u64,
        hidden: usize,
        activation: Activation,
        buckets: usize,
    ) -> PatternNetwork {
        let one = random_pattern_network(seed, hidden, activation);
        let mut rng = SeededRng::new(seed ^ 0xb0c4);
        let w2: Vec<i16> = (0..2 * hidden * buckets)
            .map(|_| (rng.below(601) as i64 - 300) as i16)
            .collect();
        let b2: Vec<i32> = (0..buckets).map(|b| -4321 + 1000 * b as i32).collect();
        let (w1, b1, _, _) = one.parts();
        PatternNetwork::from_parts(hidden, activation, w1, b1, &w2, &b2, 400).unwrap()
    }

    /// The forward pass written out plainly from the feature lists, in `i64`.
    pub(crate) fn reference_eval(net: &PatternNetwork, pos: &Position) -> i32 {
        let h = net.hidden();
        let (_, b1, net_w2, net_b2) = net.parts();
        let hidden = |p: Side| -> Vec<i64> {
            let mut v: Vec<i64> = b1.iter().map(|&b| b as i64).collect();
            for f in patterns_of(pos, p) {
                for (x, &w) in v.iter_mut().zip(net.row(f)) {
                    *x += w as i64;
                }
            }
            v
        };
        let (us, them) = (hidden(pos.side), hidden(pos.side.opponent()));
        let act = |a: i64| -> i64 {
            let c = a.clamp(0, QA as i64);
            match net.activation() {
                Activation::CReLU => c,
                Activation::SCReLU => c * c,
            }
        };
        let bucket = output_bucket(stone_count(pos), net.buckets());
        let w2 = &net_w2[2 * h * bucket..];
        let mut sum = 0i64;
        for i in 0..h {
            sum += act(us[i]) * w2[i] as i64 + act(them[i]) * w2[h + i] as i64;
        }
        if net.activation() == Activation::SCReLU {
            sum /= QA as i64;
        }
        ((sum + net_b2[bucket] as i64) * net.scale() as i64 / (QA * QB) as i64) as i32
    }

    #[test]
    fn windows_cover_the_board() {
        // Corner squares are in 1 window, edge squares in 2, inner squares in 4.
        for (sq, windows) in WINDOWS_OF.iter().enumerate() {
            let (r, f) = (sq / 7, sq % 7);
            let edges = [r == 0 || r == 6, f == 0 || f == 6];
            let expected = match edges {
                [true, true] => 1,
                [true, false] | [false, true] => 2,
                [false, false] => 4,
            };
            assert_eq!(windows.count_ones(), expected, "square {sq}");
        }
        // Every state is reachable and distinct.
        let mut seen = [false; WINDOW_STATES];
        for own in 0..16u64 {
            for their in 0..16u64 {
                if own & their == 0 {
                    let spread = |m: u64| (m & 3) | (m >> 2) << 7;
                    seen[window_state(spread(own), spread(their), 0)] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn incremental_updates_equal_refresh_for_every_activation_and_size() {
        for (seed, hidden, act) in [
            (1, 32, Activation::CReLU),
            (2, 128, Activation::SCReLU),
            (3, 256, Activation::CReLU),
            (4, 512, Activation::SCReLU),
        ] {
            let net = random_pattern_network(seed, hidden, act);
            let mut carried = None::<(Position, Accumulator)>;
            let mut count = 0;
            random_games(seed + 10, |before, mv, after| {
                let parent = match carried.take() {
                    Some((p, acc)) if p == *before => acc,
                    _ => net.accumulator(before),
                };
                let mut child = Accumulator::default();
                net.apply_move(&mut child, &parent, before, mv);
                // The wide networks are compared on every 4th move (the debug build's time); the
                // accumulator is carried incrementally all along, so every update is checked.
                if hidden <= 128 || count % 4 == 0 {
                    assert_eq!(
                        child,
                        net.accumulator(after),
                        "{mv} from {}",
                        before.to_fen()
                    );
                    assert_eq!(net.evaluate(&child, after), reference_eval(&net, after));
                }
                carried = Some((*after, child));
                count += 1;
            });
            assert!(count > 1000);
        }
    }

    #[test]
    fn colour_swap_keeps_the_evaluation() {
        for net in [
            random_pattern_network(6, 64, Activation::SCReLU),
            random_bucketed_network(8, 64, Activation::SCReLU, 8),
        ] {
            random_games(7, |_, _, pos| {
                let mut swapped = *pos;
                swapped.stones.swap(0, 1);
                swapped.side = pos.side.opponent();
                assert_eq!(net.evaluate_position(pos), net.evaluate_position(&swapped));
            });
        }
    }

    #[test]
    fn output_buckets_split_the_game_by_stones() {
        // One bucket is the plain network; 8 split 0..=49 stones in steps of about 6.
        assert!((0..=49).all(|n| output_bucket(n, 1) == 0));
        let eight: Vec<usize> = [0, 4, 6, 7, 12, 13, 24, 25, 42, 43, 48, 49]
            .iter()
            .map(|&n| output_bucket(n, 8))
            .collect();
        assert_eq!(eight, [0, 0, 0, 1, 1, 2, 3, 4, 6, 7, 7, 7]);
        assert!((0..=49).all(|n| output_bucket(n, 4) == (n as usize * 4 / 49).min(3)));
    }

    #[test]
    fn a_bucketed_network_evaluates_as_written_out_plainly() {
        // Every bucket is met: random games fill the board from 4 stones to the end.
        let net = random_bucketed_network(9, 128, Activation::SCReLU, 8);
        let mut seen = [false; 8];
        random_games(10, |_, _, pos| {
            seen[output_bucket(stone_count(pos), 8)] = true;
            assert_eq!(net.evaluate_position(pos), reference_eval(&net, pos));
        });
        assert!(seen.iter().all(|&s| s), "buckets met: {seen:?}");
    }

    #[test]
    fn the_average_of_networks_is_their_element_wise_mean() {
        let a = random_pattern_network(1, 64, Activation::SCReLU);
        let b = random_pattern_network(2, 64, Activation::SCReLU);
        assert_eq!(
            PatternNetwork::average(std::slice::from_ref(&a)),
            Some(a.clone())
        );
        assert_eq!(
            PatternNetwork::average(&[a.clone(), a.clone()]),
            Some(a.clone())
        );
        let mean = PatternNetwork::average(&[a.clone(), b.clone()]).unwrap();
        let (parts_a, parts_b, parts_m) = (a.parts(), b.parts(), mean.parts());
        let round = |x: i64, y: i64| ((x + y) as f64 / 2.0).round() as i64;
        for (i, (&x, &y)) in parts_a.0.iter().zip(parts_b.0).enumerate() {
            assert_eq!(parts_m.0[i] as i64, round(x as i64, y as i64), "W1[{i}]");
        }
        for (i, (&x, &y)) in parts_a.2.iter().zip(parts_b.2).enumerate() {
            assert_eq!(parts_m.2[i] as i64, round(x as i64, y as i64), "W2[{i}]");
        }
        assert_eq!((mean.hidden(), mean.scale(), mean.buckets()), (64, 400, 1));
        // Different shapes, or nothing to average: no network.
        let wider = random_pattern_network(3, 128, Activation::SCReLU);
        assert_eq!(PatternNetwork::average(&[a.clone(), wider]), None);
        let crelu = random_pattern_network(4, 64, Activation::CReLU);
        assert_eq!(PatternNetwork::average(&[a, crelu]), None);
        assert_eq!(PatternNetwork::average(&[]), None);
    }
}
