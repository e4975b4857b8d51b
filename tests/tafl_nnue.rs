//! The tafl network from outside the library: a property test that the accumulator carried
//! through random games by the search's update (parent, move, child; captures included) equals
//! a refresh on every board from 7×7 to 13×13, and that the command-line tools refuse a network
//! of another board with a clear error.

use proptest::prelude::*;
use skald::eval::{EvalChoice, Evaluator};
use skald::game::Game;
use skald::nnue::{Accumulator, Activation, Layers};
use skald::tafl::nnue::{FeatureSet, TaflEval, TaflNetwork};
use skald::tafl::{Bitboard, Position, ashton, brandubh, copenhagen, copenhagen13, tablut};
use std::sync::Arc;

/// A network for boards of `size` with weights from a simple generator seeded by `seed`, within
/// the trainer's bounds; the king's reach among its inputs for odd seeds.
fn network(seed: u64, size: u8, hidden: usize, side_heads: usize, buckets: usize) -> TaflNetwork {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |m: i64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ((x % (2 * m as u64 + 1)) as i64 - m) as i16
    };
    let set = if seed.is_multiple_of(2) {
        FeatureSet::Pieces
    } else {
        FeatureSet::KingReach
    };
    let inputs = set.inputs(size);
    let heads = side_heads * buckets;
    let w1: Vec<i16> = (0..inputs * hidden).map(|_| next(300)).collect();
    let b1: Vec<i16> = (0..hidden).map(|_| next(300)).collect();
    let w2: Vec<i16> = (0..hidden * heads).map(|_| next(4000)).collect();
    let b2: Vec<i32> = (0..heads as i32).map(|h| 1000 * h - 3000).collect();
    let activation = if (seed / 2).is_multiple_of(2) {
        Activation::CReLU
    } else {
        Activation::SCReLU
    };
    let layers =
        Layers::from_parts(inputs, hidden, 1, activation, &w1, &b1, &w2, &b2, 500).unwrap();
    TaflNetwork::new(size, set, "props", side_heads, buckets, 30, layers).unwrap()
}

/// Plays the moves `picks` chooses (index modulo the legal move count) from `start`, carrying
/// the accumulator by [`Evaluator::update`] and checking it against a refresh after every move;
/// returns the number of captures seen.
fn walk<B: Bitboard>(start: Position<B>, net: TaflNetwork, picks: &[usize]) -> usize {
    let choice = EvalChoice::Network {
        net: Arc::new(net),
        name: "props".into(),
    };
    let eval = start.evaluator(&choice);
    assert!(matches!(eval, TaflEval::Network { .. }));
    let mut pos = start;
    let mut acc = Accumulator::default();
    eval.refresh(&pos, &mut acc);
    let mut moves = Vec::new();
    let mut captures = 0;
    for &i in picks {
        if pos.outcome().is_decided() {
            break;
        }
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[i % moves.len()];
        let mut child = pos;
        child.make_move(mv);
        let mut next = Accumulator::default();
        eval.update(&pos, mv, &child, &acc, &mut next);
        let mut fresh = Accumulator::default();
        eval.refresh(&child, &mut fresh);
        assert_eq!(
            next,
            fresh,
            "{} after {}",
            pos.fen(),
            pos.move_to_string(mv)
        );
        if !child.king().is_empty() {
            assert_eq!(eval.evaluate(&child, &next), eval.evaluate_fresh(&child));
        }
        captures += (child.occupied().popcount() < pos.occupied().popcount()) as usize;
        pos = child;
        acc = next;
    }
    captures
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn accumulators_follow_random_games(
        seed in 0u64..1000,
        picks in proptest::collection::vec(0usize..10_000, 1..250),
    ) {
        walk(brandubh(), network(seed, 7, 32, 2, 1), &picks);
        walk(tablut(), network(seed + 1, 9, 64, 1, 2), &picks);
        walk(ashton(), network(seed + 2, 9, 32, 2, 4), &picks);
        walk(copenhagen(), network(seed + 3, 11, 64, 2, 1), &picks);
        walk(copenhagen13(), network(seed + 4, 13, 32, 1, 1), &picks);
    }
}

/// The walks above see captures: long random games on a small board capture often.
#[test]
fn the_walks_capture() {
    let picks: Vec<usize> = (0..300).map(|i| i * 7919 % 10_007).collect();
    let captures = walk(brandubh(), network(5, 7, 32, 2, 1), &picks)
        + walk(copenhagen(), network(6, 11, 32, 2, 1), &picks)
        + walk(tablut(), network(7, 9, 32, 1, 1), &picks);
    assert!(captures >= 5, "{captures}");
}

/// The network built in for Copenhagen 11×11 (`nets/copenhagen-r128-g3-ft.nnue`, the king's
/// reach among its inputs) is the file under `nets/`, and it is the default evaluation of
/// Copenhagen 11×11 only: `EvalFile hand` there, and by default Copenhagen 13×13 and Tablut,
/// evaluate by hand.
#[test]
fn copenhagen_evaluates_with_its_built_in_network_by_default() {
    let (file, net) = skald::tafl::nnue::embedded("copenhagen").expect("a built-in network");
    assert_eq!(file, "copenhagen-r128-g3-ft.nnue");
    let bytes = std::fs::read(format!("{}/nets/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert_eq!(*net, TaflNetwork::from_bytes(&bytes).unwrap());
    assert_eq!((net.board(), net.variant()), (11, "copenhagen"));
    assert_eq!(net.feature_set(), FeatureSet::KingReach);

    match copenhagen().evaluator(&EvalChoice::Default) {
        TaflEval::Network { name, .. } => assert_eq!(name, "copenhagen-r128-g3-ft.nnue (built in)"),
        _ => panic!("Copenhagen evaluates by hand by default"),
    }
    assert!(matches!(
        copenhagen().evaluator(&EvalChoice::Hand),
        TaflEval::Hand
    ));
    assert!(matches!(
        copenhagen13().evaluator(&EvalChoice::Default),
        TaflEval::Hand
    ));
    assert!(matches!(
        tablut().evaluator(&EvalChoice::Default),
        TaflEval::Hand
    ));
    assert!(skald::tafl::nnue::embedded("tablut").is_none());
}

/// `skald datagen` and `skald analyze` refuse a network for another board, naming both sizes;
/// the same network on its board is taken.
#[test]
fn the_tools_refuse_a_network_of_another_board() {
    let path = std::env::temp_dir().join(format!("skald-tafl-nnue-{}.nnue", std::process::id()));
    std::fs::write(&path, network(7, 11, 32, 2, 1).to_bytes()).unwrap();
    let skald = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skald"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let file = path.to_str().unwrap();
    for tool in [
        &["datagen", "--variant", "tablut", "--games", "1", "--quiet"][..],
        &["analyze", "--variant", "brandubh", "--depth", "1"][..],
    ] {
        let mut args = tool.to_vec();
        args.extend_from_slice(&["--eval-file", file]);
        let (ok, _, err) = skald(&args);
        assert!(!ok, "{tool:?}");
        assert!(
            err.contains("--eval-file") && err.contains("for 11x11 boards"),
            "{tool:?}: {err}"
        );
        assert!(err.trim().lines().count() <= 2, "{err}");
    }
    let (ok, out, err) = skald(&[
        "analyze",
        "--variant",
        "copenhagen",
        "--depth",
        "2",
        "--eval-file",
        file,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("bestmove") || out.contains("best"), "{out}");
    let _ = std::fs::remove_file(&path);
}

/// Through the engine protocol: `EvalFile` takes a tafl network whatever the game in play,
/// `eval` names it on its board and says why another board evaluates by hand, and a search
/// with it answers.
#[test]
fn the_engine_evaluates_with_a_tafl_network_on_its_board() {
    use std::io::{BufRead, BufReader, Write};
    let path = std::env::temp_dir().join(format!("skald-tafl-uci-{}.nnue", std::process::id()));
    std::fs::write(&path, network(8, 11, 64, 2, 2).to_bytes()).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skald"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut transcript = Vec::new();
    // Sends `commands`, then reads up to the line that starts with `until`.
    let mut talk = |commands: &str, until: &str| -> Vec<String> {
        stdin.write_all(commands.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut got = Vec::new();
        for line in lines.by_ref() {
            let line = line.unwrap();
            let done = line.starts_with(until);
            got.push(line);
            if done {
                break;
            }
        }
        transcript.extend(got.clone());
        got
    };
    talk("uci\n", "uciok");
    let copenhagen = talk(
        &format!(
            "setoption name EvalFile value {}\nsetoption name UCI_Variant value copenhagen\n\
             eval\nisready\n",
            path.display()
        ),
        "readyok",
    );
    let searched = talk("go depth 3\n", "bestmove ");
    let tablut = talk(
        "setoption name UCI_Variant value tablut\neval\nisready\n",
        "readyok",
    );
    talk("quit\n", "never");
    child.wait().unwrap();
    let _ = std::fs::remove_file(&path);
    let by = |lines: &[String]| -> String {
        lines
            .iter()
            .find(|l| l.starts_with("info string eval by "))
            .cloned()
            .unwrap_or_default()
    };
    let text = transcript.join("\n");
    assert!(
        by(&copenhagen).contains("network")
            && by(&copenhagen).contains("(11x11, trained on props)"),
        "{text}"
    );
    assert!(
        by(&tablut).starts_with("info string eval by hand-written (")
            && by(&tablut).contains("for 11x11 boards (props), not 9x9"),
        "{text}"
    );
    assert!(searched.last().unwrap().starts_with("bestmove "), "{text}");
    assert!(!text.contains("error"), "{text}");
}
