//! Tests of the tafl network: incremental updates against refreshes, the forward pass against
//! a plain one, the file round trip and refusals, the boards' symmetries.

use super::*;
use crate::eval::{EvalChoice, Evaluator};
use crate::game::Game;
use crate::nnue::{Activation, QA, QB};
use crate::rng::SeededRng;
use crate::tafl::position::{self as p, Move};

/// A tafl network for boards of `size` with random weights within the trainer's bounds (`W1`,
/// `b1` ±380, `W2` ±4055).
pub(crate) fn random_tafl_network(
    seed: u64,
    size: u8,
    hidden: usize,
    activation: Activation,
    side_heads: usize,
    buckets: usize,
) -> TaflNetwork {
    let mut rng = SeededRng::new(seed);
    let mut w = |n: usize, m: i64| -> Vec<i16> {
        (0..n)
            .map(|_| (rng.below(2 * m as u64 + 1) as i64 - m) as i16)
            .collect()
    };
    let inputs = num_features(size);
    let heads = side_heads * buckets;
    let w1 = w(inputs * hidden, 380);
    let b1 = w(hidden, 380);
    let w2 = w(hidden * heads, 4055);
    let b2: Vec<i32> = (0..heads).map(|h| -4321 + 977 * h as i32).collect();
    let layers =
        Layers::from_parts(inputs, hidden, 1, activation, &w1, &b1, &w2, &b2, 400).unwrap();
    TaflNetwork::new(
        size,
        FeatureSet::Pieces,
        "test",
        side_heads,
        buckets,
        37,
        layers,
    )
    .unwrap()
}

/// [`random_tafl_network`] with the king's reach as inputs too (feature set 2).
pub(crate) fn random_reach_network(seed: u64, size: u8, hidden: usize) -> TaflNetwork {
    let mut rng = SeededRng::new(seed);
    let mut w = |n: usize, m: i64| -> Vec<i16> {
        (0..n)
            .map(|_| (rng.below(2 * m as u64 + 1) as i64 - m) as i16)
            .collect()
    };
    let inputs = FeatureSet::KingReach.inputs(size);
    let (w1, b1, w2) = (w(inputs * hidden, 300), w(hidden, 300), w(2 * hidden, 4055));
    let layers = Layers::from_parts(
        inputs,
        hidden,
        1,
        Activation::SCReLU,
        &w1,
        &b1,
        &w2,
        &[100, -200],
        400,
    )
    .unwrap();
    TaflNetwork::new(size, FeatureSet::KingReach, "reach", 2, 1, 37, layers).unwrap()
}

/// The forward pass written out plainly from the feature list, in `i64`.
fn reference_eval<B: Bitboard>(net: &TaflNetwork, pos: &Position<B>) -> i32 {
    let l = net.layers();
    let h = l.hidden();
    let (_, b1, w2, b2) = l.parts();
    let mut v: Vec<i64> = b1.iter().map(|&b| b as i64).collect();
    for f in features(pos, net.feature_set()) {
        for (x, &w) in v.iter_mut().zip(l.row(f)) {
            *x += w as i64;
        }
    }
    let head = net.head(pos.side, pos.occupied().popcount());
    let mut sum = 0i64;
    for i in 0..h {
        let c = v[i].clamp(0, QA as i64);
        let a = match l.activation() {
            Activation::CReLU => c,
            Activation::SCReLU => c * c,
        };
        sum += a * w2[head * h + i] as i64;
    }
    if l.activation() == Activation::SCReLU {
        sum /= QA as i64;
    }
    let y = ((sum + b2[head] as i64) * l.scale() as i64 / (QA * QB) as i64) as i32;
    if net.side_heads() == 1 && pos.side == crate::game::Side::First {
        -y
    } else {
        y
    }
}

/// Random games from `start` (uniform legal moves, to the end or 300 plies), `games` of them:
/// `visit(before, move, after)` for each move.
pub(crate) fn random_games<B: Bitboard>(
    start: Position<B>,
    seed: u64,
    games: usize,
    mut visit: impl FnMut(&Position<B>, Move, &Position<B>),
) {
    let mut rng = SeededRng::new(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = start;
        for _ in 0..300 {
            if pos.outcome().is_decided() {
                break;
            }
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let mut next = pos;
            next.make_move(mv);
            visit(&pos, mv, &next);
            pos = next;
        }
    }
}

/// Carries an accumulator through random games by [`Evaluator::update`], checking it against a
/// refresh and the evaluation against the plain forward pass at every move; returns the moves
/// checked and those that captured.
fn check_games<B: Bitboard>(start: Position<B>, net: &TaflNetwork, seed: u64) -> (usize, usize) {
    let eval = TaflEval::for_choice(
        &EvalChoice::Network {
            net: Arc::new(net.clone()),
            name: "random".into(),
        },
        start.rules(),
    );
    assert!(matches!(eval, TaflEval::Network { .. }), "{eval:?}");
    let (mut moves, mut captures) = (0, 0);
    let mut carried = None::<(Position<B>, Accumulator)>;
    random_games(start, seed, 12, |before, mv, after| {
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
        assert_eq!(child, fresh, "after {mv:?} from {}", before.fen());
        if !after.king_gone() {
            let v = eval.evaluate(after, &child);
            assert_eq!(v, reference_eval(net, after), "{}", after.fen());
            assert_eq!(v, eval.terms(after)[0].1);
        }
        if after.occupied().popcount() < before.occupied().popcount() {
            captures += 1;
        }
        moves += 1;
        carried = Some((*after, child));
    });
    (moves, captures)
}

#[test]
fn incremental_updates_equal_refresh_on_every_board() {
    let act = [Activation::CReLU, Activation::SCReLU];
    let mut total = (0, 0);
    let mut add = |r: (usize, usize)| {
        total.0 += r.0;
        total.1 += r.1;
    };
    add(check_games(
        p::brandubh(),
        &random_tafl_network(1, 7, 32, act[0], 2, 1),
        11,
    ));
    add(check_games(
        p::tablut(),
        &random_tafl_network(2, 9, 64, act[1], 2, 4),
        12,
    ));
    add(check_games(
        p::ashton(),
        &random_tafl_network(3, 9, 128, act[0], 1, 1),
        13,
    ));
    add(check_games(
        p::tawlbwrdd(),
        &random_tafl_network(4, 11, 96, act[1], 1, 8),
        14,
    ));
    add(check_games(
        p::copenhagen(),
        &random_tafl_network(5, 11, 256, act[1], 2, 2),
        15,
    ));
    add(check_games(
        p::copenhagen13(),
        &random_tafl_network(6, 13, 64, act[0], 2, 1),
        16,
    ));
    // The king's reach: every move near his lines changes it.
    add(check_games(
        p::brandubh(),
        &random_reach_network(31, 7, 32),
        17,
    ));
    add(check_games(
        p::copenhagen(),
        &random_reach_network(32, 11, 64),
        18,
    ));
    add(check_games(
        p::ashton(),
        &random_reach_network(33, 9, 32),
        19,
    ));
    assert!(total.0 > 2000 && total.1 > 100, "{total:?}");
}

/// A null move keeps the accumulator; with two side-to-move heads the evaluation reads the
/// other head, with one it is the same value seen from the other side.
#[test]
fn the_side_to_move_enters_through_the_heads() {
    let pos = p::copenhagen();
    for side_heads in [1, 2] {
        let net = random_tafl_network(7, 11, 64, Activation::SCReLU, side_heads, 1);
        let mut flipped = pos;
        flipped.make_null_move();
        let (a, d) = (net.evaluate_position(&pos), net.evaluate_position(&flipped));
        if side_heads == 1 {
            assert_eq!(a, -d);
        } else {
            assert_ne!(a, -d);
        }
        let mut acc = Accumulator::default();
        net.refresh(&mut acc, &pos);
        let mut copy = Accumulator::default();
        let eval = TaflEval::Network {
            net: Arc::new(net.clone()),
            name: "n".into(),
        };
        Evaluator::<crate::tafl::LargePosition, Move>::copy_for_null_move(&eval, &acc, &mut copy);
        assert_eq!(eval.evaluate(&flipped, &copy), d);
    }
}

#[test]
fn output_buckets_split_by_pieces() {
    assert!((0..=37).all(|n| output_bucket(n, 1, 37) == 0));
    let four: Vec<usize> = [1, 9, 10, 18, 19, 27, 28, 36, 37]
        .iter()
        .map(|&n| output_bucket(n, 4, 37))
        .collect();
    assert_eq!(four, [0, 0, 1, 1, 2, 2, 3, 3, 3]);
    let net = random_tafl_network(8, 11, 32, Activation::CReLU, 2, 4);
    assert_eq!(net.head(crate::game::Side::First, 37), 3);
    assert_eq!(net.head(crate::game::Side::Second, 1), 4);
}

#[test]
fn file_round_trip_and_bad_files() {
    let net = random_tafl_network(9, 11, 64, Activation::SCReLU, 2, 4);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), HEADER_LEN + Layers::weights_len(363, 64, 1, 8));
    assert_eq!(TaflNetwork::from_bytes(&bytes).unwrap(), net);
    assert!(is_tafl_file(&bytes));
    let reach = random_reach_network(3, 9, 32);
    let reach_bytes = reach.to_bytes();
    assert_eq!(&reach_bytes[10..14], &[2, 0, 68, 1]);
    assert_eq!(TaflNetwork::from_bytes(&reach_bytes).unwrap(), reach);
    for cut in [0, 3, 6, HEADER_LEN - 1, HEADER_LEN, bytes.len() - 1] {
        assert!(
            matches!(
                TaflNetwork::from_bytes(&bytes[..cut]),
                Err(FormatError::Truncated { .. } | FormatError::BadMagic)
            ),
            "a file cut at {cut} bytes"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        TaflNetwork::from_bytes(&long),
        Err(FormatError::TrailingBytes { extra: 1 })
    ));
    let patched = |at: usize, v: &[u8]| {
        let mut b = bytes.clone();
        b[at..at + v.len()].copy_from_slice(v);
        TaflNetwork::from_bytes(&b)
    };
    let err = |at, v: &[u8]| patched(at, v).unwrap_err().to_string();
    assert!(matches!(patched(0, b"NNUE"), Err(FormatError::BadMagic)));
    assert!(matches!(patched(4, &[2, 0]), Err(FormatError::Version(2))));
    assert_eq!(err(6, &[1, 0]), "network file is for Ataxx, not tafl");
    assert!(matches!(
        patched(8, &[19, 0]),
        Err(FormatError::BoardSize(19, _))
    ));
    // A 9×9 header over 11×11 weights: the inputs do not match the board.
    assert!(matches!(
        patched(8, &[9, 0]),
        Err(FormatError::Inputs {
            found: 363,
            expected: 243
        })
    ));
    assert!(matches!(
        patched(10, &[3, 0]),
        Err(FormatError::FeatureSet(3, _))
    ));
    // Feature set 2 (the king's reach) over set 1's weights: the inputs do not match.
    assert!(matches!(
        patched(10, &[2, 0]),
        Err(FormatError::Inputs {
            found: 363,
            expected: 484
        })
    ));
    assert!(matches!(
        patched(14, &[48, 0]),
        Err(FormatError::Shape { .. })
    ));
    assert!(matches!(
        patched(16, &[0, 1]),
        Err(FormatError::Quantisation { .. })
    ));
    assert!(matches!(
        patched(20, &[7, 0]),
        Err(FormatError::Activation(7))
    ));
    assert!(matches!(
        patched(22, &[2, 0]),
        Err(FormatError::Perspectives(2, 1))
    ));
    assert!(matches!(
        patched(24, &[3, 0]),
        Err(FormatError::Heads { .. })
    ));
    assert!(matches!(
        patched(26, &[9, 0]),
        Err(FormatError::Heads { .. })
    ));
    assert!(matches!(
        patched(28, &[0, 0]),
        Err(FormatError::Heads { .. })
    ));
    assert!(matches!(patched(30, &[1, 0]), Err(FormatError::Header(_))));
    assert!(matches!(
        patched(32, &[0, 0, 0, 0]),
        Err(FormatError::Scale(0))
    ));
    assert!(matches!(patched(36, &[0xff]), Err(FormatError::Header(_))));
    assert!(matches!(patched(60, &[1]), Err(FormatError::Header(_))));
    // Fewer heads in the header than in the file: trailing bytes.
    assert!(matches!(
        patched(26, &[2, 0]),
        Err(FormatError::TrailingBytes { .. })
    ));
    // An Ataxx file is not a tafl network, and a tafl file is not an Ataxx network.
    let ataxx = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/nets/ataxx-p128-g0.nnue"
    ))
    .unwrap();
    assert!(matches!(
        TaflNetwork::from_bytes(&ataxx),
        Err(FormatError::Version(1 | 2))
    ));
    assert!(!is_tafl_file(&ataxx));
}

/// A network for one board is refused for another: the game evaluates by hand and says why.
#[test]
fn a_network_for_another_board_is_not_used() {
    let net = random_tafl_network(10, 11, 32, Activation::CReLU, 2, 1);
    let choice = EvalChoice::Network {
        net: Arc::new(net.clone()),
        name: "cph.nnue".into(),
    };
    let on_11 = TaflEval::for_choice(&choice, p::copenhagen().rules());
    assert!(on_11.unfit().is_none());
    // The same board size under other rules uses it.
    assert!(
        TaflEval::for_choice(&choice, p::tawlbwrdd().rules())
            .unfit()
            .is_none()
    );
    let on_9 = TaflEval::for_choice(&choice, p::tablut().rules());
    assert_eq!(
        on_9.unfit(),
        Some("cph.nnue: network file is for 11x11 boards (test), not 9x9")
    );
    let tablut = p::tablut();
    assert_eq!(on_9.evaluate_fresh(&tablut), tablut.evaluate());
    assert!(
        Evaluator::<crate::tafl::LargePosition, Move>::describe(&on_9)
            .starts_with("hand-written (cph.nnue: network file is for 11x11")
    );
    let on_13 = TaflEval::for_choice(&choice, p::copenhagen13().rules());
    assert!(on_13.unfit().is_some());
    // Another family's network (any other type) in a tafl game.
    let ataxx = EvalChoice::Network {
        net: Arc::new(0u8),
        name: "a.nnue".into(),
    };
    assert_eq!(
        TaflEval::for_choice(&ataxx, p::brandubh().rules()).unfit(),
        Some("network a.nnue is not a tafl network")
    );
    assert!(
        TaflEval::for_choice(&EvalChoice::Hand, p::brandubh().rules())
            .unfit()
            .is_none()
    );
    assert!(matches!(
        net.check_board(9),
        Err(FormatError::Board {
            found: 11,
            expected: 9,
            ..
        })
    ));
}

/// Every preset's rules are the same under all 8 symmetries of its board (Ashton's camps
/// and citadels too); rules with an asymmetric square are not.
#[test]
fn the_presets_are_symmetric() {
    let all: Vec<usize> = (0..8).collect();
    assert_eq!(rules_symmetries(p::brandubh().rules()), all);
    assert_eq!(rules_symmetries(p::tablut().rules()), all);
    assert_eq!(rules_symmetries(p::tawlbwrdd().rules()), all);
    assert_eq!(rules_symmetries(p::copenhagen().rules()), all);
    assert_eq!(rules_symmetries(p::copenhagen13().rules()), all);
    assert_eq!(rules_symmetries(p::ashton().rules()), all);
    // Escape at one corner only (an OpenTafl-like rule set): only the symmetries that keep
    // that corner (the identity and the diagonal flip through it).
    let mut options = crate::tafl::brandubh_rules().options.clone();
    options.escape = vec![0];
    options.name = "one-corner".into();
    let rules = crate::tafl::Rules::<u64>::leak(options).unwrap();
    assert_eq!(rules_symmetries(rules), vec![0, 4]);
    // The permutations are distinct bijections.
    let syms = symmetries(11);
    for (i, s) in syms.iter().enumerate() {
        let mut seen = [false; 121];
        for &sq in s {
            seen[sq as usize] = true;
        }
        assert!(seen.iter().all(|&x| x));
        assert!(syms[..i].iter().all(|t| t != s));
    }
}

/// The evaluation of a position and of its image under a symmetry differ only by the
/// network's weights (same features permuted): a network whose rows are permuted alike gives
/// the same value, which is what augmentation relies on.
#[test]
fn features_follow_the_symmetries() {
    use crate::tafl::packed::TaflBoard;
    let pos = p::copenhagen()
        .with_fen(
            "3ttttt3/1t8t/6T4/t5T4/t3TT1T2t/tt1TTK1T1tt/t3TTT1T1t/5t4t/5tt4/11/3ttt1t3 a 14 8",
        )
        .unwrap();
    let board = TaflBoard::from_position(&pos);
    for perm in symmetries(11) {
        let image = board.permuted(&perm);
        let mut from_perm: Vec<usize> = features(&pos, FeatureSet::Pieces)
            .map(|f| (f / 121) * 121 + perm[f % 121] as usize)
            .collect();
        let mut from_image: Vec<usize> = (0..3)
            .flat_map(|k| image.squares(k).map(move |sq| feature(k, sq, 11)))
            .collect();
        from_perm.sort();
        from_image.sort();
        assert_eq!(from_perm, from_image);
    }
}

/// Searches through the engine with tafl networks read from files (`EvalFile`): every
/// evaluation in the search checks its incremental accumulator against a refresh
/// (`Worker::evaluate` under `cfg(test)`), through captures, null moves and the quiescence
/// search; `eval` names the network, and a network of another board evaluates by hand.
#[test]
fn searches_with_a_network_keep_their_accumulators() {
    use crate::engine::{Engine, Limits};
    use crate::variant::Variant;
    let dir = std::env::temp_dir().join(format!("skald-tafl-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            Variant::Tablut,
            random_tafl_network(21, 9, 64, Activation::SCReLU, 2, 2),
            "1t7/5tt2/T4t3/6t2/ttT3ttt/T1K3t2/3t2t2/3T5/2Tttt3 d 10 25",
        ),
        (
            Variant::Brandubh,
            random_reach_network(23, 7, 64),
            "3t3/1t5/tT5/1tTKTt1/3T3/3t2t/3t3 d 5 3",
        ),
        (
            Variant::Copenhagen,
            random_tafl_network(22, 11, 128, Activation::CReLU, 2, 1),
            "4ttt2t1/1t9/1t9/t2t1T1t2t/t3T1T1T1t/t2TTKTT2t/tT3T4t/t5T3t/11/4t1T4/3ttttt3 a 14 8",
        ),
    ];
    for (variant, net, fen) in cases {
        let path = dir.join(format!("{variant}.nnue"));
        std::fs::write(&path, net.to_bytes()).unwrap();
        let mut engine = Engine::new().unwrap();
        engine.set_variant(variant);
        engine
            .set_option("EvalFile", path.to_str().unwrap())
            .unwrap();
        assert_eq!(engine.eval_unfit(), None);
        let (terms, by) = engine.eval_terms();
        assert!(by.starts_with("network "), "{by}");
        assert_eq!(terms[0].0, "network");
        for fen in [None, Some(fen)] {
            engine.session_mut().set_position(fen, &[]).unwrap();
            let limits = Limits {
                nodes: Some(4_000),
                ..Limits::default()
            };
            let r = engine.search(&limits, &mut |_| {}).unwrap();
            assert!(r.best_move.is_some(), "{variant} {fen:?}");
        }
        // Another board: by hand, and said so.
        let (other, size) = match variant {
            Variant::Brandubh => (Variant::Tablut, "not 9x9"),
            _ => (Variant::Brandubh, "not 7x7"),
        };
        engine.set_variant(other);
        let why = engine.eval_unfit().expect("another board");
        assert!(why.contains(size), "{why}");
        assert!(engine.eval_terms().1.starts_with("hand-written ("));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
