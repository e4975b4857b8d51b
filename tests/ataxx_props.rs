//! Property tests for Ataxx: no panics on arbitrary text; random legal games keep the
//! incremental hash equal to the recomputed one, FEN round-trips, move text and 16-bit codes
//! round-trip, and the evaluation is antisymmetric apart from the side to move's tempo.

use proptest::prelude::*;
use skald::ataxx::Position;
use skald::game::{Game, Outcome};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn from_fen_never_panics(s in any::<String>()) {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn from_fen_fen_like_never_panics(s in "[xXoO0-9/ a-]{0,60}") {
        if let Ok(p) = Position::from_fen(&s) {
            prop_assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);
        }
    }

    #[test]
    fn parse_move_never_panics(s in any::<String>(), t in "[a-iA-I0-9]{0,5}") {
        let p = Position::start();
        let _ = p.parse_move(&s);
        let _ = p.parse_move(&t);
    }

    #[test]
    fn decode_never_panics(bits in any::<u16>()) {
        let p = Position::start();
        if let Some(mv) = p.decode_move(bits) {
            prop_assert_eq!(p.encode_move(mv), bits);
        }
    }

    #[test]
    fn random_games_keep_invariants(choices in proptest::collection::vec(any::<u32>(), 0..200),
                                    start in 0usize..3) {
        let fens = [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 90 1",
        ];
        let mut p = Position::from_fen(fens[start]).unwrap();
        let mut moves = Vec::new();
        for c in choices {
            prop_assert_eq!(p.hash(), p.compute_hash());
            prop_assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);
            let mut n = p;
            n.make_null_move();
            // Antisymmetric apart from the side to move's tempo.
            let without_tempo = |q: &Position| -> i32 {
                q.eval_terms().iter().filter(|t| t.0 != "tempo").map(|t| t.1).sum()
            };
            prop_assert_eq!(without_tempo(&n), -without_tempo(&p));
            prop_assert_eq!(p.eval_terms().iter().map(|t| t.1).sum::<i32>(), p.evaluate());
            p.generate_moves(&mut moves);
            prop_assert_eq!(moves.is_empty(), p.outcome() != Outcome::Ongoing);
            if moves.is_empty() {
                break;
            }
            prop_assert_eq!(p.perft(1), moves.len() as u64);
            let mv = moves[c as usize % moves.len()];
            prop_assert_eq!(p.parse_move(&p.move_to_string(mv)), Ok(mv));
            prop_assert_eq!(p.decode_move(p.encode_move(mv)), Some(mv));
            p.make_move(mv);
        }
    }
}
