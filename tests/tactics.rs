//! Tactics suite: forced wins in one to three moves that the search must find at modest depth,
//! for every game. Each case gives the position, the depth, the expected `score mate N` and the
//! moves that achieve it.

use skald::engine::Engine;
use skald::engine::{Limits, Score};
use skald::variant::Variant;

struct Case {
    name: &'static str,
    variant: Variant,
    fen: &'static str,
    depth: u32,
    mate: i32,
    /// Any of these first moves is right (empty: any move with the right score).
    best: &'static [&'static str],
}

const CASES: &[Case] = &[
    // 7 . . . t . . .
    // 6 . . . . . . .
    // 5 . . . . . . .
    // 4 . . . + . . .
    // 3 K . . . . . .      the king runs to a corner: a3-a1 or a3-a7
    // 2 . . . . . . .
    // 1 . . . . t . .
    Case {
        name: "brandubh king escapes to a corner",
        variant: Variant::Brandubh,
        fen: "3t3/7/7/7/K6/7/4t2 d 0 1",
        depth: 3,
        mate: 1,
        best: &["a3-a1", "a3-a7"],
    },
    // 7 . . . t . . .
    // 6 . . . . . . .
    // 5 . t K . . . .      d7-d5 closes the sandwich b5-c5-d5
    // 4 . . . + . . .
    Case {
        name: "brandubh attackers capture the king between two",
        variant: Variant::Brandubh,
        fen: "3t3/7/1tK4/7/7/7/7 a 0 1",
        depth: 3,
        mate: 1,
        best: &["d7-d5"],
    },
    // 7 + . . . . . +
    // 6 . . . . . . .
    // 5 . . . . . . t
    // 4 . . . + . . .
    // 3 . . K . . . .      c3-c1 opens a1 and g1 at once; one attacker cannot block both
    // 2 . . . . . . .
    // 1 + . . . . . +
    Case {
        name: "brandubh king forks two corners",
        variant: Variant::Brandubh,
        fen: "7/7/6t/7/2K4/7/7 d 0 1",
        depth: 5,
        mate: 2,
        best: &["c3-c1", "c3-c7", "c3-a3", "c3-g3"],
    },
    // 9 . . . . . . . . .
    // 8 . . . . t . . . .
    // 7 . . . . . . . . .
    // 6 . . . t K t . . .     e8-e7 walls the king against the castle (three attackers + castle)
    // 5 . . . . + . . . .
    Case {
        name: "tablut king beside the castle taken by three",
        variant: Variant::Tablut,
        fen: "9/4t4/9/3tKt3/9/9/9/9/t8 a 0 1",
        depth: 3,
        mate: 1,
        best: &["e8-e7"],
    },
    Case {
        name: "tablut king reaches the edge",
        variant: Variant::Tablut,
        fen: "9/t8/9/9/3K5/9/9/9/t8 d 0 1",
        depth: 3,
        mate: 1,
        best: &["d5-d9", "d5-d1", "d5-i5", "d5-a5"],
    },
    Case {
        name: "tablut king in the open taken by two",
        variant: Variant::Tablut,
        fen: "9/9/2t6/2K6/9/9/2t6/9/t8 a 0 1",
        depth: 3,
        mate: 1,
        best: &["c3-c5"],
    },
    Case {
        name: "tawlbwrdd king forks two edges",
        variant: Variant::Tawlbwrdd,
        fen: "t10/11/11/11/11/11/11/11/3K7/11/10t d 0 1",
        depth: 3,
        mate: 1,
        best: &[],
    },
    // 8 . . . . . T . . . . .
    // 6 . . . T . K . T . . .    own men block every straight line; one step opens two edges
    // 4 . . . . . T . . . . .
    Case {
        name: "tawlbwrdd king needs two moves to reach the edge",
        variant: Variant::Tawlbwrdd,
        fen: "11/11/11/5T5/11/3T1K1T3/11/5T5/11/11/t10 d 0 1",
        depth: 5,
        mate: 2,
        best: &[],
    },
    // 11 + . . . t . t t . . +
    // 10 . . t . . t . . . . t
    //  9 . . . . t . . t t . .
    //  8 . . t . . t . . . . .
    //  7 t . . . . . K . . . t      g7-b7, then b7-b11 and a corner (Copenhagen 11×11,
    //  6 t . . t . + . . . . t      the position after the attackers' k4-k2 in the stall
    //  5 t . . . . . . . . . t      position of `copenhagen_stall_position_is_read_at_depth_4`)
    //  4 . . . . . t . . . . .
    //  3 . . . . . . . t . . .
    //  2 t . . . . . . . . . t
    //  1 + . . . t . t . . . +
    Case {
        name: "copenhagen lone king runs for the corners",
        variant: Variant::Copenhagen,
        fen: "4t1tt3/2t2t4t/4t2tt2/2t2t5/t5K3t/t2t6t/t9t/5t5/7t3/t9t/4t1t4 d 2 27",
        depth: 5,
        mate: 3,
        best: &[],
    },
    // 4 . x . o . . .    any x move next to d4 flips the last o stone
    Case {
        name: "ataxx wipe-out in one",
        variant: Variant::Ataxx,
        fen: "7/7/7/1x1o3/7/7/7 x 0 1",
        depth: 3,
        mate: 1,
        best: &["c5", "c4", "c3"],
    },
    // 4 . . . . x . .    x closes in on the lone o stone; every o reply is flipped next move
    // 1 o . . . . . .
    Case {
        name: "ataxx wipe-out in two",
        variant: Variant::Ataxx,
        fen: "7/7/7/4x2/7/7/o6 x 0 1",
        depth: 5,
        mate: 2,
        best: &[],
    },
    Case {
        name: "ataxx wipe-out in three",
        variant: Variant::Ataxx,
        fen: "7/7/4x2/7/7/7/o6 x 0 1",
        depth: 7,
        mate: 3,
        best: &[],
    },
];

#[test]
fn tactics_suite() {
    let mut engine = Engine::new().unwrap();
    let mut failures = Vec::new();
    for case in CASES {
        // A new game each: empty tables.
        engine.set_variant(case.variant);
        engine
            .session_mut()
            .set_position(Some(case.fen), &[])
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let limits = Limits {
            depth: Some(case.depth),
            ..Limits::default()
        };
        let result = engine.search(&limits, &mut |_| {}).unwrap();
        let best = result.best_move.map(|m| m.to_string()).unwrap_or_default();
        let ok_move = case.best.is_empty() || case.best.contains(&best.as_str());
        if result.score != Score::Mate(case.mate) || !ok_move {
            failures.push(format!(
                "{}: got {best} {:?}, want mate {} with one of {:?}",
                case.name, result.score, case.mate, case.best
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Copenhagen 11×11, attackers to move against a lone king (the board of the case "copenhagen
/// lone king runs for the corners" before k4-k2). skald did not finish depth 4 here in 3 M
/// nodes and 30 s, then played k4-k2 at +22.85 and lost to g7-b7. Two faults: a defender null
/// move counted as recreating the board (Copenhagen forbids it), so null-move pruning never
/// cut off for the defenders; and with the king one move from a corner, every attacker move
/// that did not block him was searched on into quiescence, each with a full evaluation. The
/// search now reads a position whose side to move can win at once as a win in one
/// (`Game::can_win_at_once`). Depth 4 proved the attackers lost, but in 10.1 M nodes, for
/// every attacker move at the threatened nodes was searched although only a move that blocks
/// the king's one open line, or lands next to him, can stop his escape: the search now searches
/// those (`Game::split_threat_answers`), and depth 6 takes about 0.45 M nodes. The bound, 3 M
/// (issue 50), is one a regression would break (one thread: the count is the same on every
/// machine). The search is what this test checks, so it runs on the hand evaluation (depth 4
/// proves the loss in about 0.44 M nodes): how soon the defenders' win shows depends on the
/// evaluation's pruning margins, and Copenhagen's built-in generation 3 network reads it only
/// at depth 8 (6.5 M nodes; generation 2: depth 4, docs/training.md "generation 3").
#[test]
fn copenhagen_stall_position_is_read_at_depth_6() {
    let mut engine = Engine::new().unwrap();
    engine.set_variant(Variant::Copenhagen);
    engine.set_option("EvalFile", "hand").unwrap();
    engine
        .session_mut()
        .set_position(
            Some("4t1tt3/2t2t4t/4t2tt2/2t2t5/t5K3t/t2t6t/t9t/5t4t/7t3/t10/4t1t4 a 1 27"),
            &[],
        )
        .unwrap();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let result = engine.search(&limits, &mut |_| {}).unwrap();
    assert_eq!(result.depth, 6);
    assert!(
        matches!(result.score, Score::Mate(n) if n < 0),
        "{:?}",
        result.score
    );
    assert!(result.nodes < 3_000_000, "{} nodes", result.nodes);
}
