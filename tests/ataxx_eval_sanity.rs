//! A fixed-depth sanity check of the built-in Ataxx network (issue 21): it must read a crushing
//! position as crushing for both sides to move, and prefer a clone to a jump from the start
//! position at depth 1. The square-input network that lost 39 of 40 games to Zataxx failed both:
//! it read 21 stones against 3 as only +850 with x to move and −1205 with o to move, and its
//! depth-1 move from the start was the jump a7c5.

use skald::engine::{Engine, Limits, Score};
use skald::variant::Variant;

/// The least the network's score of the crushing position must reach, centipawns, from the
/// winning side's view whoever is to move. The hand-written evaluation and Zataxx both read such
/// positions beyond ±2000; the built-in network reads about ±3000.
const CRUSHING_BOUND: i32 = 1500;

fn ataxx_engine() -> Engine {
    let mut engine = Engine::new().unwrap();
    engine.set_option("Hash", "1").unwrap();
    engine.set_variant(Variant::Ataxx);
    engine.new_game();
    engine
}

/// The static evaluation (the built-in network), centipawns from the side to move's view.
fn static_eval(engine: &Engine) -> i32 {
    engine.eval_terms().0.iter().map(|t| t.1).sum()
}

fn depth_1(engine: &mut Engine) -> (String, i32) {
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let result = engine.search(&limits, &mut |_| {}).unwrap();
    let Score::Cp(cp) = result.score else {
        panic!("not a centipawn score: {:?}", result.score)
    };
    (result.best_move.unwrap().to_string(), cp)
}

/// ```text
///   a b c d e f g
/// 7 x x x x x x x
/// 6 x x x x x x x
/// 5 x x x x x x x
/// 4 . . . . . . .
/// 3 . . . . . . .
/// 2 . . . . . . .
/// 1 o . . o . . o
/// ```
/// x has 21 stones, o has 3: x wins whoever is to move.
#[test]
fn a_crushing_position_reads_as_crushing_for_both_sides_to_move() {
    let mut engine = ataxx_engine();
    for (side, sign) in [("x", 1), ("o", -1)] {
        let fen = format!("xxxxxxx/xxxxxxx/xxxxxxx/7/7/7/o2o2o {side} 0 1");
        engine.session_mut().set_position(Some(&fen), &[]).unwrap();
        let by = engine.eval_terms().1;
        assert!(by.contains("built in"), "{by}");
        let eval = static_eval(&engine);
        assert!(
            sign * eval >= CRUSHING_BOUND,
            "{fen}: static evaluation {eval}, bound ±{CRUSHING_BOUND}"
        );
        let (mv, score) = depth_1(&mut engine);
        assert!(
            sign * score >= CRUSHING_BOUND,
            "{fen}: depth 1 scores {score} (move {mv}), bound ±{CRUSHING_BOUND}"
        );
    }
}

/// From the start position a clone (a one-square move, which adds a stone) is the better move
/// at depth 1; a jump leaves a hole behind and adds nothing.
#[test]
fn the_depth_1_move_from_the_start_is_a_clone() {
    let mut engine = ataxx_engine();
    engine.session_mut().set_position(None, &[]).unwrap();
    let (mv, score) = depth_1(&mut engine);
    assert_eq!(
        mv.len(),
        2,
        "depth 1 plays {mv} (score {score}): a jump, not a clone"
    );
}
