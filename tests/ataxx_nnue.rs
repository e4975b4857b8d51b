//! The Ataxx networks through the public API: for both file formats (square inputs, version 1;
//! pattern inputs, version 2) random legal move sequences keep the incremental accumulator
//! equal to a fresh one (proptest); a format-2 file round-trips through the writer and
//! `EvalFile`'s loader; and the engine searches with a pattern network to a fixed depth.

use proptest::prelude::*;
use skald::ataxx::nnue::{
    self, Accumulator, Activation, NUM_FEATURES, NUM_PATTERN_FEATURES, Network, PatternNetwork,
};
use skald::ataxx::{Move, Position};
use skald::engine::{Engine, Limits};
use skald::eval::EvalChoice;
use skald::variant::Variant;
use std::sync::Arc;

/// `n` pseudo-random weights in `-bound..=bound` (a fixed LCG: the same on every machine).
fn weights(seed: u64, n: usize, bound: i64) -> Vec<i16> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((x >> 33) as i64 % (2 * bound + 1) - bound) as i16
        })
        .collect()
}

/// A random pattern network within the trainer's bounds (see the `nnue` module docs).
fn pattern_net(seed: u64, hidden: usize, activation: Activation) -> PatternNetwork {
    PatternNetwork::from_parts(
        hidden,
        activation,
        &weights(seed, NUM_PATTERN_FEATURES * hidden, 380),
        &weights(seed + 1, hidden, 380),
        &weights(seed + 2, 2 * hidden, 400),
        &[1234],
        400,
    )
    .unwrap()
}

fn square_net(seed: u64) -> Network {
    Network::from_parts(
        &weights(seed, NUM_FEATURES * nnue::HIDDEN, 505),
        &weights(seed + 1, nnue::HIDDEN, 505),
        &weights(seed + 2, 2 * nnue::HIDDEN, 127),
        -999,
        300,
    )
    .unwrap()
}

/// The legal moves of `pos` (a pass when there is no other).
fn moves(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn incremental_accumulators_equal_fresh_ones(
        choices in proptest::collection::vec(any::<u32>(), 1..120),
        start in 0usize..3,
        hidden_index in 0usize..3,
        screlu in any::<bool>(),
    ) {
        static SQUARE: std::sync::LazyLock<Network> = std::sync::LazyLock::new(|| square_net(1));
        static PATTERNS: std::sync::LazyLock<[PatternNetwork; 3]> =
            std::sync::LazyLock::new(|| {
                [
                    pattern_net(2, 128, Activation::CReLU),
                    pattern_net(3, 256, Activation::SCReLU),
                    pattern_net(4, 512, Activation::CReLU),
                ]
            });
        let fens = [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "x5o/1-3-1/7/3-3/7/1-3-1/o5x o 0 1",
        ];
        let mut patterns = PATTERNS[hidden_index].clone();
        if screlu != (patterns.activation() == Activation::SCReLU) {
            let activation = if screlu { Activation::SCReLU } else { Activation::CReLU };
            patterns = PatternNetwork::from_bytes(&{
                let mut b = patterns.to_bytes();
                b[20..22].copy_from_slice(&activation.id().to_le_bytes());
                b
            })
            .unwrap();
        }
        let square = &*SQUARE;
        let mut pos = Position::from_fen(fens[start]).unwrap();
        let mut acc1 = Accumulator::new(square, &pos);
        let mut acc2 = patterns.accumulator(&pos);
        for c in choices {
            if pos.is_game_over() {
                break;
            }
            let list = moves(&pos);
            let mv = list[c as usize % list.len()];
            let mut child1 = Accumulator::default();
            child1.apply_move_from(&acc1, square, &pos, mv);
            let mut child2 = Accumulator::default();
            patterns.apply_move(&mut child2, &acc2, &pos, mv);
            pos.play(mv);
            prop_assert_eq!(child1, Accumulator::new(square, &pos));
            prop_assert_eq!(child2, patterns.accumulator(&pos));
            prop_assert_eq!(
                patterns.evaluate(&child2, &pos),
                patterns.evaluate_position(&pos)
            );
            acc1 = child1;
            acc2 = child2;
        }
    }
}

#[test]
fn a_pattern_file_round_trips_and_loads_by_its_version() {
    let dir = std::env::temp_dir().join(format!("skald-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (hidden, activation) in [(128, Activation::CReLU), (256, Activation::SCReLU)] {
        let net = pattern_net(hidden as u64, hidden, activation);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), nnue::pattern_file_len(hidden, 1));
        assert_eq!(&bytes[4..6], &[2, 0]);
        let back = PatternNetwork::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        let path = dir.join(format!("p{hidden}.nnue"));
        std::fs::write(&path, &bytes).unwrap();
        let choice = EvalChoice::from_eval_file(path.to_str().unwrap(), nnue::load_network)
            .expect("a format-2 file loads");
        let loaded: Arc<PatternNetwork> = choice.network().expect("a pattern network");
        let mut pos = Position::start();
        for _ in 0..30 {
            if pos.is_game_over() {
                break;
            }
            assert_eq!(loaded.evaluate_position(&pos), net.evaluate_position(&pos));
            let list = moves(&pos);
            pos.play(list[list.len() / 3]);
        }
    }
    // A format-1 file still loads through the same loader.
    let path = dir.join("square.nnue");
    let square = square_net(9);
    std::fs::write(&path, square.to_bytes()).unwrap();
    let choice = EvalChoice::from_eval_file(path.to_str().unwrap(), nnue::load_network).unwrap();
    assert_eq!(*choice.network::<Network>().unwrap(), square);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_engine_searches_with_a_pattern_network() {
    let dir = std::env::temp_dir().join(format!("skald-patterns-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut engine = Engine::new().unwrap();
    engine.set_variant(Variant::Ataxx);
    for (hidden, activation) in [(128, Activation::SCReLU), (256, Activation::CReLU)] {
        let path = dir.join(format!("n{hidden}.nnue"));
        std::fs::write(&path, pattern_net(7, hidden, activation).to_bytes()).unwrap();
        engine
            .set_option("EvalFile", path.to_str().unwrap())
            .unwrap();
        let (_, by) = engine.eval_terms();
        assert!(
            by.contains("network") && by.contains(&format!("n{hidden}")),
            "{by}"
        );
        engine.new_game();
        engine.session_mut().set_position(None, &[]).unwrap();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let result = engine.search(&limits, &mut |_| {}).unwrap();
        assert_eq!(result.depth, 4);
        let best = result.best_move.expect("a move");
        let legal = engine.session().legal_moves();
        assert!(legal.contains(&best), "{best} not in {legal:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
