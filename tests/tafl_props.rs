//! Property tests: incremental hash and FEN round-trip along random legal games; no panics on
//! arbitrary FEN and move text.

use proptest::prelude::*;
use skald::game::{Game, Outcome, Side};
use skald::tafl::{
    Bitboard, Position, ashton, brandubh, copenhagen, copenhagen13, tablut, tawlbwrdd,
};

/// Plays the moves chosen by `picks` (index modulo the legal move count) and checks the hash and
/// the FEN round-trip after each one.
fn walk<B: Bitboard>(start: Position<B>, picks: &[usize]) {
    let mut p = start;
    let mut moves = Vec::new();
    for &i in picks {
        p.generate_moves(&mut moves);
        if moves.is_empty() {
            assert!(p.outcome().is_decided());
            break;
        }
        let mv = moves[i % moves.len()];
        assert_eq!(p.parse_move(&p.move_to_string(mv)), Ok(mv));
        p.make_move(mv);
        assert_eq!(p.hash(), p.compute_hash());
        if p.king().is_empty() {
            // A FEN without a king is an error: the end position of a king capture has no FEN.
            assert!(p.with_fen(&p.fen()).is_err());
        } else {
            let again = p.with_fen(&p.fen()).expect("own FEN parses");
            assert_eq!(again, p);
            assert_eq!(again.hash(), p.hash());
        }
        assert_eq!(p.perft(1), {
            let mut m = Vec::new();
            p.generate_moves(&mut m);
            m.len() as u64
        });
        let terms = p.eval_terms();
        assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), p.evaluate());
        threat_answers_hold(&p);
    }
}

/// [`Game::split_threat_answers`] drops only moves that lose at once: after each, the game is
/// won by the defenders already, or goes on with the defenders able to win at once; and it
/// keeps every other move, in order.
fn threat_answers_hold<B: Bitboard>(p: &Position<B>) {
    let mut all = Vec::new();
    p.generate_moves(&mut all);
    let mut kept = all.clone();
    // Something in `dropped` beforehand: it is cleared.
    let mut dropped = all.clone();
    p.split_threat_answers(&mut kept, &mut dropped);
    if !p.must_answer() {
        assert_eq!(kept, all);
        assert!(dropped.is_empty());
        return;
    }
    assert_eq!(kept.len() + dropped.len(), all.len());
    assert!(kept.iter().all(|m| all.contains(m)));
    for &mv in &dropped {
        let mut c = *p;
        c.make_move(mv);
        let lost = match c.outcome() {
            Outcome::Ongoing => c.can_win_at_once(),
            o => o == Outcome::win(Side::Second, o_reason(o)),
        };
        assert!(
            lost,
            "{}: {} is dropped but does not lose",
            p.fen(),
            p.move_to_string(mv)
        );
    }
}

/// The reason of a decided outcome.
fn o_reason(o: Outcome) -> skald::game::Reason {
    match o {
        Outcome::Decided { reason, .. } => reason,
        Outcome::Ongoing => unreachable!(),
    }
}

proptest! {
    #[test]
    fn brandubh_random_games(picks in prop::collection::vec(any::<usize>(), 0..120)) {
        walk(brandubh(), &picks);
    }

    #[test]
    fn tablut_random_games(picks in prop::collection::vec(any::<usize>(), 0..120)) {
        walk(tablut(), &picks);
    }

    #[test]
    fn ashton_random_games(picks in prop::collection::vec(any::<usize>(), 0..120)) {
        walk(ashton(), &picks);
    }

    #[test]
    fn tawlbwrdd_random_games(picks in prop::collection::vec(any::<usize>(), 0..120)) {
        walk(tawlbwrdd(), &picks);
    }

    #[test]
    fn copenhagen_random_games(picks in prop::collection::vec(any::<usize>(), 0..160)) {
        walk(copenhagen(), &picks);
    }

    #[test]
    fn copenhagen13_random_games(picks in prop::collection::vec(any::<usize>(), 0..160)) {
        walk(copenhagen13(), &picks);
    }

    #[test]
    fn fen_and_move_text_never_panic(s in ".{0,80}", t in "[a-lK0-9tT/ -]{0,60}") {
        let b = brandubh();
        let _ = b.with_fen(&s);
        let _ = b.with_fen(&t);
        let _ = b.parse_move(&s);
        let _ = b.parse_move(&t);
        let w = tawlbwrdd();
        let _ = w.with_fen(&s);
        let _ = w.with_fen(&t);
        let _ = w.parse_move(&s);
        let _ = w.parse_move(&t);
        if let Ok(p) = w.with_fen(&t) {
            prop_assert_eq!(p.with_fen(&p.fen()).unwrap(), p);
        }
    }

    #[test]
    fn decode_move_never_panics(bits in any::<u16>()) {
        for p in [tawlbwrdd(), skald::tafl::copenhagen()] {
            if let Some(m) = p.decode_move(bits) {
                prop_assert_eq!(p.encode_move(m), bits);
            }
        }
    }
}
