//! Property tests for Ataxx: no panics on arbitrary text; random legal games keep the
//! incremental hash equal to the recomputed one, FEN round-trips, move text and 16-bit codes
//! round-trip, and the evaluation is antisymmetric apart from the side to move's tempo; packed
//! training records (`skald::ataxx::packed`) round-trip and arbitrary bytes decode to an error
//! or to a record that encodes back to the same bytes, never a panic.

use proptest::prelude::*;
use skald::ataxx::Position;
use skald::ataxx::packed::{PackedPosition, PackedReader, RECORD_LEN, Wdl};
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

    #[test]
    fn packed_records_round_trip(choices in proptest::collection::vec(any::<u32>(), 0..200),
                                 start in 0usize..3, score in any::<i16>(), wdl in 0usize..3) {
        let fens = [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "-5o/1x5/7/3-3/7/5o1/o5x o 12 40",
        ];
        let result = [Wdl::Loss, Wdl::Draw, Wdl::Win][wdl];
        let mut p = Position::from_fen(fens[start]).unwrap();
        let mut moves = Vec::new();
        for c in choices {
            let rec = PackedPosition { position: p, score, result };
            let bytes = rec.encode().unwrap();
            let back = PackedPosition::decode(&bytes).unwrap();
            prop_assert_eq!(back.position.fen(), p.fen());
            prop_assert_eq!(back, rec);
            prop_assert_eq!(back.position.hash(), p.hash());
            p.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[c as usize % moves.len()]);
        }
    }

    #[test]
    fn packed_decode_never_panics(bytes in proptest::array::uniform18(any::<u8>())) {
        const _: () = assert!(RECORD_LEN == 18);
        if let Ok(rec) = PackedPosition::decode(&bytes) {
            prop_assert_eq!(rec.encode().unwrap(), bytes);
        }
    }

    #[test]
    fn packed_reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
        let mut file = b"SKALDATX\x01\x00\x12\x00".to_vec();
        file.extend_from_slice(&bytes);
        for input in [&bytes[..], &file[..]] {
            if let Ok(reader) = PackedReader::new(input) {
                // The reader ends after an error, so this ends.
                for r in reader.flatten() {
                    prop_assert!(r.encode().is_ok());
                }
            }
        }
    }
}
