//! The Ataxx NNUE's use of the shared [`Accumulator`] (the hidden layer's sums, `x`'s
//! perspective then `o`'s) and its incremental update for a move, and [`AtaxxEval`], the search's Ataxx evaluation
//! ([`crate::eval::Evaluator`]): a network with an [`Accumulator`] per ply, or the hand-written
//! evaluation.

use std::sync::Arc;

use super::super::bitboard::{Bitboard, SINGLE, Squares};
use super::super::eval::decided_by_block;
use super::super::mv::Move;
use super::super::position::Position;
use super::{
    EMBEDDED_NAME, EmbeddedNetwork, HIDDEN, Network, PatternNetwork, THEIR, embedded, features,
};
use crate::game::Side;
pub use crate::nnue::Accumulator;
use crate::nnue::kernels::{add_row, fused, sub_row};

/// Ataxx's evaluation for the search ([`crate::eval::Evaluator`]): a network (square inputs,
/// file format 1, or pattern inputs, format 2) with an [`Accumulator`] per ply, or the
/// hand-written evaluation (whose accumulator is left alone). The search does not know which.
#[derive(Clone, Debug)]
pub enum AtaxxEval {
    /// The hand-written evaluation ([`crate::game::Game::evaluate`]).
    Hand,
    /// A square-input network (file format 1); `name` says which for people (the embedded
    /// one's file name or a path).
    Network {
        /// The network.
        net: Arc<Network>,
        /// Its file name or path.
        name: String,
    },
    /// A pattern-input network (file format 2).
    Patterns {
        /// The network.
        net: Arc<PatternNetwork>,
        /// Its file name or path.
        name: String,
    },
}

impl AtaxxEval {
    /// The network built into the binary.
    pub fn embedded() -> AtaxxEval {
        let name = format!("{EMBEDDED_NAME} (built in)");
        match embedded() {
            EmbeddedNetwork::Squares(net) => AtaxxEval::Network {
                net: Arc::clone(net),
                name,
            },
            EmbeddedNetwork::Patterns(net) => AtaxxEval::Patterns {
                net: Arc::clone(net),
                name,
            },
        }
    }

    /// The evaluator an [`crate::eval::EvalChoice`] selects: the embedded network by default
    /// (and for a network of another game family, which is not this game's), a network of
    /// either format read by [`super::load_network`], or the hand-written evaluation.
    pub fn for_choice(choice: &crate::eval::EvalChoice) -> AtaxxEval {
        use crate::eval::EvalChoice;
        match choice {
            EvalChoice::Hand => AtaxxEval::Hand,
            EvalChoice::Network { name, .. } => {
                if let Some(net) = choice.network::<Network>() {
                    AtaxxEval::Network {
                        net,
                        name: name.clone(),
                    }
                } else if let Some(net) = choice.network::<PatternNetwork>() {
                    AtaxxEval::Patterns {
                        net,
                        name: name.clone(),
                    }
                } else {
                    AtaxxEval::embedded()
                }
            }
            EvalChoice::Default => AtaxxEval::embedded(),
        }
    }
}

impl crate::eval::Evaluator<Position, Move> for AtaxxEval {
    type Accumulator = Accumulator;

    #[inline]
    fn refresh(&self, pos: &Position, acc: &mut Accumulator) {
        match self {
            AtaxxEval::Network { net, .. } => acc.refresh(net, pos),
            AtaxxEval::Patterns { net, .. } => net.refresh(acc, pos),
            AtaxxEval::Hand => {}
        }
    }

    #[inline]
    fn update(
        &self,
        parent: &Position,
        mv: Move,
        _child: &Position,
        parent_acc: &Accumulator,
        child_acc: &mut Accumulator,
    ) {
        match self {
            AtaxxEval::Network { net, .. } => {
                child_acc.apply_move_from(parent_acc, net, parent, mv)
            }
            AtaxxEval::Patterns { net, .. } => net.apply_move(child_acc, parent_acc, parent, mv),
            AtaxxEval::Hand => {}
        }
    }

    #[inline]
    fn copy_for_null_move(&self, parent_acc: &Accumulator, child_acc: &mut Accumulator) {
        match self {
            AtaxxEval::Network { .. } => child_acc.copy_used(parent_acc, 2 * HIDDEN),
            AtaxxEval::Patterns { net, .. } => child_acc.copy_used(parent_acc, 2 * net.hidden()),
            AtaxxEval::Hand => {}
        }
    }

    #[inline]
    fn evaluate(&self, pos: &Position, acc: &Accumulator) -> i32 {
        if let Some(decided) = decided_by_block(pos) {
            return decided;
        }
        match self {
            AtaxxEval::Hand => super::super::eval::evaluate(pos),
            AtaxxEval::Network { net, .. } => net.evaluate(acc, pos.side),
            AtaxxEval::Patterns { net, .. } => net.evaluate(acc, pos),
        }
    }

    fn terms(&self, pos: &Position) -> Vec<(&'static str, i32)> {
        if let Some(decided) = decided_by_block(pos) {
            return vec![("blocked", decided)];
        }
        match self {
            AtaxxEval::Hand => super::super::eval::terms(pos).to_vec(),
            AtaxxEval::Network { net, .. } => vec![("network", net.evaluate_position(pos))],
            AtaxxEval::Patterns { net, .. } => vec![("network", net.evaluate_position(pos))],
        }
    }

    fn describe(&self) -> String {
        match self {
            AtaxxEval::Hand => "hand-written".to_string(),
            AtaxxEval::Network { name, .. } | AtaxxEval::Patterns { name, .. } => {
                format!("network {name}")
            }
        }
    }
}

/// The format-1 network's use of the accumulator: perspective `i` (`x` 0, `o` 1) in
/// `v[i * HIDDEN..(i + 1) * HIDDEN]`.
impl Accumulator {
    /// The [`HIDDEN`] values of perspective `i` of a format-1 network.
    #[inline(always)]
    pub(super) fn half(&self, i: usize) -> &[i16; HIDDEN] {
        self.v[i * HIDDEN..]
            .first_chunk()
            .expect("2 * HIDDEN <= 2 * MAX_HIDDEN")
    }

    #[inline(always)]
    fn half_mut(&mut self, i: usize) -> &mut [i16; HIDDEN] {
        self.v[i * HIDDEN..]
            .first_chunk_mut()
            .expect("2 * HIDDEN <= 2 * MAX_HIDDEN")
    }

    /// The accumulators of `pos` computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, pos);
        acc
    }

    /// Recomputes both accumulators from scratch: `b1` plus the rows of every active feature.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        for side in [Side::First, Side::Second] {
            let v = self.half_mut(side.index());
            *v = net.b1;
            for f in features(pos, side) {
                add_row(v, &net.w1[f]);
            }
        }
    }

    /// Updates both accumulators for stones of `colour` that appeared on `added` and vanished
    /// from `removed` (blocked squares never change).
    #[inline]
    fn change(&mut self, net: &Network, colour: Side, added: Bitboard, removed: Bitboard) {
        let c = colour.index();
        for sq in Squares(added) {
            add_row(self.half_mut(c), &net.w1[sq.index()]);
            add_row(self.half_mut(c ^ 1), &net.w1[THEIR + sq.index()]);
        }
        for sq in Squares(removed) {
            sub_row(self.half_mut(c), &net.w1[sq.index()]);
            sub_row(self.half_mut(c ^ 1), &net.w1[THEIR + sq.index()]);
        }
    }

    /// Updates the accumulators of `before` to those of `after` from the stones that differ
    /// (any two positions with the same blocked squares; for a move that is 1 to 18 rows of
    /// `W1` per perspective).
    pub fn update(&mut self, net: &Network, before: &Position, after: &Position) {
        debug_assert_eq!(before.blocked(), after.blocked());
        for colour in [Side::First, Side::Second] {
            let (b, a) = (before.stones(colour), after.stones(colour));
            self.change(net, colour, a & !b, b & !a);
        }
    }

    /// Sets `self` to the accumulators after the legal move `mv` of `pos`'s side to move, given
    /// `parent`, the accumulators of `pos`: the same as copying `parent` and
    /// [`Accumulator::apply_move`], in one pass over each perspective's values (the parent read
    /// once, the child written once, the changed rows added in registers), and a flipped stone
    /// is one row (`W1[own] − W1[their]`) instead of two.
    #[inline]
    pub fn apply_move_from(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        pos: &Position,
        mv: Move,
    ) {
        let us = pos.side;
        let (to, from) = match mv {
            Move::Pass => {
                self.copy_used(parent, 2 * HIDDEN);
                return;
            }
            Move::Clone { to } => (to.index(), None),
            Move::Jump { from, to } => (to.index(), Some(from.index())),
        };
        let flips = SINGLE[to] & pos.stones(us.opponent());
        // The mover's perspective gains an own stone on `to` (and loses one on `from`), the
        // other's a "their" stone; each flip adds `flip[sq]` to the mover's, subtracts it from
        // the other's.
        let mut flip_rows: [&[i16; HIDDEN]; 8] = [&net.b1; 8];
        let mut n = 0;
        for sq in Squares(flips) {
            flip_rows[n] = &net.flip[sq.index()];
            n += 1;
        }
        let flip_rows = &flip_rows[..n];
        let u = us.index();
        fused(
            self.half_mut(u),
            parent.half(u),
            &net.w1[to],
            from.map(|f| &net.w1[f]),
            flip_rows,
            true,
        );
        fused(
            self.half_mut(u ^ 1),
            parent.half(u ^ 1),
            &net.w1[THEIR + to],
            from.map(|f| &net.w1[THEIR + f]),
            flip_rows,
            false,
        );
    }

    /// Updates the accumulators of `pos` for the legal move `mv` of its side to move, without
    /// making the move: the mover gains `to` and the flipped stones (and loses `from` for a
    /// jump), the opponent loses the flipped stones; a pass changes nothing.
    pub fn apply_move(&mut self, net: &Network, pos: &Position, mv: Move) {
        let us = pos.side;
        let (to, from) = match mv {
            Move::Pass => return,
            Move::Clone { to } => (to, 0),
            Move::Jump { from, to } => (to, from.bit()),
        };
        let flips = SINGLE[to.index()] & pos.stones(us.opponent());
        self.change(net, us, to.bit() | flips, from);
        self.change(net, us.opponent(), 0, flips);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{random_games, random_network, reference_eval};
    use super::*;

    #[test]
    fn incremental_updates_equal_refresh() {
        let net = random_network(1);
        let mut count = 0;
        let mut acc_move = None::<(Position, Accumulator, Accumulator)>;
        random_games(2, |before, mv, after| {
            // Carry two accumulators along the game: one by apply_move, one by update.
            let (a, b) = match acc_move.take() {
                Some((p, a, b)) if p == *before => (a, b),
                _ => {
                    let a = Accumulator::new(&net, before);
                    (a, a)
                }
            };
            let (mut a, mut b) = (a, b);
            let mut c = Accumulator::default();
            c.apply_move_from(&a, &net, before, mv);
            a.apply_move(&net, before, mv);
            assert_eq!(c, a, "apply_move_from after {mv} from {}", before.to_fen());
            b.update(&net, before, after);
            let fresh = Accumulator::new(&net, after);
            assert_eq!(a, fresh, "apply_move after {mv} from {}", before.to_fen());
            assert_eq!(b, fresh, "update after {mv} from {}", before.to_fen());
            assert_eq!(net.evaluate(&a, after.side), reference_eval(&net, after));
            acc_move = Some((*after, a, b));
            count += 1;
        });
        assert!(count > 1000, "only {count} moves checked");
    }

    #[test]
    fn the_search_evaluator_updates_equal_refreshes() {
        use crate::eval::{EvalChoice, Evaluator};
        let random = EvalChoice::Network {
            net: Arc::new(random_network(9)),
            name: "random".into(),
        };
        let patterns = EvalChoice::Network {
            net: Arc::new(super::super::patterns::tests::random_pattern_network(
                11,
                96,
                super::super::Activation::SCReLU,
            )),
            name: "patterns".into(),
        };
        for choice in [EvalChoice::Default, random, patterns, EvalChoice::Hand] {
            let eval = AtaxxEval::for_choice(&choice);
            let mut carried = None::<(Position, Accumulator)>;
            random_games(10, |before, mv, after| {
                let parent = match carried.take() {
                    Some((p, acc)) if p == *before => acc,
                    _ => {
                        let mut acc = Accumulator::default();
                        eval.refresh(before, &mut acc);
                        acc
                    }
                };
                let mut child = Accumulator::default();
                eval.update(before, mv, after, &parent, &mut child);
                let mut fresh = Accumulator::default();
                eval.refresh(after, &mut fresh);
                assert_eq!(
                    child,
                    fresh,
                    "{} after {mv} from {}",
                    eval.describe(),
                    before.to_fen()
                );
                let v = eval.evaluate(after, &child);
                assert_eq!(v, eval.evaluate_fresh(after));
                assert_eq!(v, eval.terms(after).iter().map(|t| t.1).sum::<i32>());
                carried = Some((*after, child));
            });
        }
    }

    /// Speed of refresh, incremental update and evaluation (run with `--ignored --nocapture`).
    #[test]
    #[ignore]
    fn speed() {
        use std::hint::black_box;
        use std::time::Instant;
        let net = random_network(7);
        let mut samples = Vec::new();
        random_games(8, |before, mv, after| samples.push((*before, mv, *after)));
        let rounds = 50;
        // Nanoseconds a sample of `f` over `rounds` passes of the samples.
        let per_sample = |f: &mut dyn FnMut(&(Position, Move, Position))| {
            let t = Instant::now();
            for _ in 0..rounds {
                samples.iter().for_each(&mut *f);
            }
            t.elapsed().as_nanos() as f64 / (samples.len() * rounds) as f64
        };
        let mut acc = Accumulator::new(&net, &samples[0].0);
        let refresh = per_sample(&mut |(_, _, after)| {
            acc.refresh(&net, black_box(after));
            black_box(&acc);
        });
        let update = per_sample(&mut |(before, mv, _)| {
            let mut a = black_box(acc);
            a.apply_move(&net, before, *mv);
            black_box(&a);
        });
        let mut child = acc;
        let fused = per_sample(&mut |(before, mv, _)| {
            child.apply_move_from(black_box(&acc), &net, before, *mv);
            black_box(&child);
        });
        let mut s = 0;
        let eval = per_sample(&mut |(_, _, after)| s += net.evaluate(black_box(&acc), after.side));
        black_box(s);
        println!(
            "{} positions: refresh {refresh:.1} ns, copy + apply_move {update:.1} ns, \
             apply_move_from {fused:.1} ns, evaluate {eval:.1} ns",
            samples.len()
        );
        for (hidden, act, buckets) in [
            (128, super::super::Activation::CReLU, 1),
            (128, super::super::Activation::SCReLU, 1),
            (128, super::super::Activation::SCReLU, 8),
            (256, super::super::Activation::SCReLU, 1),
            (512, super::super::Activation::SCReLU, 1),
        ] {
            let net =
                super::super::patterns::tests::random_bucketed_network(7, hidden, act, buckets);
            let acc = net.accumulator(&samples[0].0);
            let mut child = acc;
            let update = per_sample(&mut |(before, mv, _)| {
                net.apply_move(&mut child, black_box(&acc), before, *mv);
                black_box(&child);
            });
            let mut s = 0;
            let eval = per_sample(&mut |(_, _, after)| s += net.evaluate(black_box(&acc), after));
            black_box(s);
            println!(
                "patterns {hidden} {act:?} {buckets} bucket(s): apply_move {update:.1} ns, \
                 evaluate {eval:.1} ns"
            );
        }
    }
}
