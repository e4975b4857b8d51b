//! Tafl rule edge cases (rules.md), each with its board diagram (top rank first; `+` marks an
//! empty restricted square).

use skald::game::{Game, Outcome, Reason, Side};
use skald::tafl::{
    Bitboard, Position, Rules, brandubh_rules, copenhagen_rules, parse_square, tablut_rules,
};

fn pos<B: Bitboard>(rules: &'static Rules<B>, fen: &str) -> Position<B> {
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play<B: Bitboard>(p: &Position<B>, mv: &str) -> Position<B> {
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let mut c = *p;
    c.make_move(m);
    assert_eq!(c.hash(), c.compute_hash());
    c
}

fn occupied<B: Bitboard>(p: &Position<B>, sq: &str) -> bool {
    let s = parse_square(sq, p.rules().size).unwrap();
    p.piece_at(s).is_some()
}

// 7 + . . . . . +
// 6 . . . . . . .
// 5 . . . . . . .
// 4 . . . K . . .
// 3 . . . . . . .
// 2 . . t . . . .
// 1 + T . . . . +      c2-c1: the defender on b1 is caught against the corner a1.
//   a b c d e f g
#[test]
fn capture_against_hostile_corner() {
    let p = play(&pos(brandubh_rules(), "7/7/7/3K3/7/2t4/1T5 a"), "c2-c1");
    assert!(!occupied(&p, "b1"));
    assert_eq!(p.halfmove_clock(), 0);
}

// 7 + . . . . . +
// 6 . . . . t . .
// 5 . . . T . . .
// 4 . . . + . . K
// 3 . . . . . . .
// 2 . . . . . . .
// 1 + . . . . . +      e6-d6: the defender on d5 is caught against the empty throne d4.
//   a b c d e f g
#[test]
fn capture_against_empty_throne() {
    let p = play(&pos(brandubh_rules(), "7/4t2/3T3/6K/7/7/7 a"), "e6-d6");
    assert!(!occupied(&p, "d5"));
}

// Tablut, the empty castle e5 is hostile to defenders too:
// 7 . . . . . t . . .
// 6 . . . . T . . . .
// 5 . . . . + . . . .   f7-e7 captures e6.
#[test]
fn capture_against_empty_castle_tablut() {
    let p = play(&pos(tablut_rules(), "9/9/5t3/4T4/9/9/2K6/9/9 a"), "f7-e7");
    assert!(!occupied(&p, "e6"));
}

// 7 + . . . . . +
// 6 . . . . . . .
// 5 . . . . . . .
// 4 . . . K . . .
// 3 T . . . . . .
// 2 . . . . . . .
// 1 + t . . . . +      b1-b3: a3 stands against the edge and is not captured.
//   a b c d e f g
#[test]
fn no_capture_against_edge() {
    let p = play(&pos(brandubh_rules(), "7/7/7/3K3/T6/7/1t5 a"), "b1-b3");
    assert!(occupied(&p, "a3"));
}

// 7 + . . . . . +
// 6 . . . T . . .
// 5 . . t . t . .
// 4 . . . + . . .
// 3 . . . . . . .
// 2 . . . . . . .
// 1 + . . K . . +      d6-d5 moves between two attackers: safe.
//   a b c d e f g
#[test]
fn moving_between_two_enemies_is_safe() {
    let p = play(&pos(brandubh_rules(), "7/3T3/2t1t2/7/7/7/3K3 d"), "d6-d5");
    assert!(occupied(&p, "d5"));
    assert_eq!(p.halfmove_clock(), 1);
}

// 7 + . . . . . +
// 6 . . . . . . K
// 5 . . t . . . .
// 4 . . . + . . .
// 3 t T . T t . .
// 2 . . T . . . .
// 1 + . t . . . +      c5-c3 captures b3, d3 and c2 at once.
//   a b c d e f g
#[test]
fn multiple_capture() {
    let before = pos(brandubh_rules(), "7/6K/2t4/7/tT1Tt2/2T4/2t4 a 17 9");
    let mv = before.parse_move("c5-c3").unwrap();
    assert_eq!(before.move_gain(mv), 3 * skald::tafl::DEFENDER_VALUE);
    assert!(before.is_tactical(mv));
    let p = play(&before, "c5-c3");
    assert!(!occupied(&p, "b3") && !occupied(&p, "d3") && !occupied(&p, "c2"));
    assert_eq!(p.defenders(), 0);
    assert_eq!(p.halfmove_clock(), 0);
}

// 5 . . . t . . .
// 4 . . t K t . .
// 3 . . . . . . .
// 2 . . . t . . .      d2-d3: the king on the throne is surrounded on all four sides.
#[test]
fn king_on_throne_needs_four_brandubh() {
    let p = play(&pos(brandubh_rules(), "7/7/3t3/2tKt2/7/3t3/7 a"), "d2-d3");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert!(moves.is_empty());
    // With only three sides held, the king survives.
    let p = play(&pos(brandubh_rules(), "7/7/7/2tKt2/7/3t3/7 a"), "d2-d3");
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// 7 . . . t . . .
// 6 . . . . . . .
// 5 . . . K . . .
// 4 . . . + . . .      d7-d6: the king beside the brandubh throne is captured like any piece,
//                      the empty throne being hostile (rule choice, see src/tafl/mod.rs).
#[test]
fn king_beside_brandubh_throne_captured_against_it() {
    let p = play(&pos(brandubh_rules(), "3t3/7/3K3/7/7/7/7 a"), "d7-d6");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
}

// 5 . . . . + . . . .
// 4 . . . t K t . . .
// 3 . . . . . . . . .
// 2 . . . . t . . . .   e2-e3: king on e4 beside the castle, three attackers + the castle.
#[test]
fn king_beside_castle_needs_three_tablut() {
    let p = play(&pos(tablut_rules(), "9/9/9/9/9/3tKt3/9/4t4/9 a"), "e2-e3");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
    // Two attackers on opposite sides are not enough beside the castle.
    let p = play(&pos(tablut_rules(), "9/9/9/9/9/3tK4/9/9/5t3 a"), "f1-f4");
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// 3 . t K . . . . . .
// 2 . . . . . . . . .
// 1 . . . t . . . . .   d1-d3: two attackers capture the king in the open.
#[test]
fn king_in_open_captured_by_two_tablut() {
    let p = play(&pos(tablut_rules(), "9/9/9/9/9/9/1tK6/9/3t5 a"), "d1-d3");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
}

// 5 . K . . . . .
// 4 . . . . . . .
// 3 . t . . . . .
// 2 . T . . . . .      Kb5-b4 captures b3 (the king as hammer).
#[test]
fn armed_king_captures_as_hammer() {
    let p = play(&pos(brandubh_rules(), "7/7/1K5/7/1t5/1T5/7 d"), "b5-b4");
    assert!(!occupied(&p, "b3"));
}

// 4 . K . . . . .
// 3 . t . . . . .
// 2 . . . . . . .
// 1 + T . . . . +      b1-b2 captures b3 against the king (the king as anvil).
#[test]
fn armed_king_captures_as_anvil() {
    let p = play(&pos(brandubh_rules(), "7/7/7/1K5/1t5/7/1T5 d"), "b1-b2");
    assert!(!occupied(&p, "b3"));
}

// 4 K . . . . . .
// 1 + . . . . . +      a4-a1: the king reaches a corner.
#[test]
fn king_escapes_to_corner_brandubh() {
    let p = pos(brandubh_rules(), "7/7/7/K6/7/7/1t5 d");
    let mv = p.parse_move("a4a1").unwrap();
    assert!(p.is_tactical(mv));
    let p = play(&p, "a4-a1");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::KingEscaped));
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert!(moves.is_empty());
}

// 3 . . K . . . . . .   c3-a3: the king reaches the edge.
#[test]
fn king_escapes_to_edge_tablut() {
    let p = play(&pos(tablut_rules(), "9/9/9/9/9/9/2K6/9/4t4 d"), "c3-a3");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::KingEscaped));
    assert_eq!(p.perft(1), 0);
}

// 4 . . . K . . .
// 3 . . . . . . .
// 2 . T . . . . .
// 1 + t T . . . +      the attacker on b1 cannot move: attackers to move lose.
#[test]
fn brandubh_no_legal_move_loses() {
    let p = pos(brandubh_rules(), "7/7/7/3K3/7/1T5/1tT4 a");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::NoLegalMove));
}

// 5 . . . . K . . . .
// 2 T . . . . . . . .
// 1 t T . . . . . . .   the attacker on a1 cannot move: a draw in tablut.
#[test]
fn tablut_no_legal_move_draws() {
    let p = pos(tablut_rules(), "9/9/9/9/4K4/9/9/T8/tT7 a");
    assert_eq!(p.outcome(), Outcome::draw(Reason::NoLegalMove));
}

// 6 . . . t . . .
// 5 . . . . . . .
// 4 . . . + . . .      d6-d3 would pass over the empty throne: illegal for soldiers.
// 1 + K . . . . +
#[test]
fn soldiers_may_not_pass_brandubh_throne() {
    let p = pos(brandubh_rules(), "7/3t3/7/7/7/7/1K5 a");
    let err = p.parse_move("d6-d3").unwrap_err().to_string();
    assert!(err.contains("pass"), "{err}");
    assert!(p.parse_move("d6-d4").is_err());
    assert!(p.parse_move("d6-d5").is_ok());
    // The king may pass over the throne and stop on it.
    let k = pos(brandubh_rules(), "1t5/3K3/7/7/7/7/7 d");
    assert!(k.parse_move("d6-d2").is_ok());
    assert!(k.parse_move("d6-d4").is_ok());
}

// 7 . . . . t . . . .
// 5 . K . . + . . . .   e7-e3 passes the empty castle; e7-e5 may not stop on it.
#[test]
fn pieces_may_pass_empty_tablut_castle_but_not_stop() {
    let p = pos(tablut_rules(), "9/9/4t4/9/1K7/9/9/9/9 a");
    assert!(p.parse_move("e7-e3").is_ok());
    let err = p.parse_move("e7-e5").unwrap_err().to_string();
    assert!(err.contains("stop"), "{err}");
}

// 5 . . . . + . . . .
// 4 . . . . K . . . .   the king left the castle: e4-e5 is illegal, e4-e6 passes over it.
#[test]
fn king_may_not_return_to_tablut_castle() {
    let p = pos(tablut_rules(), "9/9/9/9/9/4K4/9/9/t8 d");
    assert!(p.parse_move("e4-e5").is_err());
    assert!(p.parse_move("e4-e6").is_ok());
}

#[test]
fn brandubh_draw_after_100_plies_without_capture() {
    let p = pos(brandubh_rules(), "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 99 50");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let p = play(&p, "c4-c5");
    assert_eq!(p.halfmove_clock(), 100);
    assert_eq!(p.outcome(), Outcome::draw(Reason::MoveLimit));
    // Tablut has no such rule.
    let t = pos(
        tablut_rules(),
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 300 1",
    );
    assert_eq!(t.outcome(), Outcome::Ongoing);
}

#[test]
fn fen_errors() {
    let b = brandubh_rules();
    let t = tablut_rules();
    fn err<B: Bitboard>(r: &'static Rules<B>, f: &str) -> String {
        Position::from_fen(r, f).unwrap_err().to_string()
    }
    assert!(err(b, "3t3/3t3/3T3/ttTKTtt/3T3/3t3 a").contains("ranks"));
    assert!(err(b, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t4 a").contains("rank 1"));
    assert!(err(b, "3t3/3t3/3T3/ttTKTtx/3T3/3t3/3t3 a").contains("unknown"));
    assert!(err(b, "3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3 a").contains("no king"));
    assert!(err(b, "3t3/3t3/3T3/ttTKTtt/3K3/3t3/3t3 a").contains("2 kings"));
    assert!(err(b, "t2t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a").contains("a7"));
    assert!(err(b, "3t3/3t3/3T3/ttTTKtt/3T3/3t3/3t3 a").contains("d4"));
    assert!(err(b, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 x").contains("side"));
    assert!(err(b, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a -1").contains("clock"));
    assert!(err(b, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 0").contains("move number"));
    assert!(err(t, "9/9/9/9/4T4/9/9/9/K8 a").contains("e5"));
    // The king on the tablut castle and multi-digit counts are fine.
    assert!(Position::from_fen(t, "9/9/9/9/4K4/9/9/9/9 a").is_ok());
    let w = skald::tafl::tawlbwrdd();
    assert_eq!(w.with_fen(&w.fen()).unwrap(), w);
    assert!(
        w.with_fen("11/11/11/11/11/5K5/11/11/11/11/11 d 3 7")
            .is_ok()
    );
}

#[test]
fn move_text() {
    let p = skald::tafl::brandubh();
    assert_eq!(p.move_to_string(p.parse_move("d1b1").unwrap()), "d1-b1");
    let e = |m: &str| p.parse_move(m).unwrap_err().to_string();
    assert!(e("c1-c2").contains("no piece"));
    assert!(e("d3-d2").contains("not yours"));
    assert!(e("d1-e2").contains("straight"));
    assert!(e("d6-d5").contains("blocked") || e("d6-d5").contains("occupied"));
    assert!(e("d1-a1").contains("stop"));
    assert!(e("z9-a1").contains("square"));
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    for &m in &moves {
        let bits = p.encode_move(m);
        assert_ne!(bits, 0);
        assert_eq!(p.decode_move(bits), Some(m));
        assert_eq!(p.parse_move(&p.move_to_string(m)), Ok(m));
    }
}

#[test]
fn board_string_and_eval() {
    let p = skald::tafl::brandubh();
    let s = p.board_string();
    assert!(s.starts_with("7 + . . t . . +\n"), "{s}");
    assert!(s.ends_with("  a b c d e f g\n"));
    let t = skald::tafl::tawlbwrdd().board_string();
    assert!(t.starts_with("11 . . . t t t t t . . .\n"), "{t}");
    let terms = p.eval_terms();
    assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), p.evaluate());
    // A king with an open line to a corner, defenders to move: nearly winning.
    let open = pos(brandubh_rules(), "7/7/7/K6/7/7/3t3 d");
    assert!(open.evaluate() > 2000);
}

#[test]
fn runtime_rules_from_options() {
    use skald::tafl::{KingArmed, RuleOptions};
    // The brandubh options built at run time give the preset's perft.
    let r: &'static Rules<u64> = Rules::leak(RuleOptions::brandubh()).unwrap();
    assert_eq!(Position::start(r).perft(3), 39_512);
    // An unarmed king (OpenTafl `ka:n`) does not capture as hammer.
    let mut o = RuleOptions::brandubh();
    o.name = "brandubh-unarmed".into();
    o.king_armed = KingArmed::No;
    let r: &'static Rules<u64> = Rules::leak(o).unwrap();
    let p = play(&pos(r, "7/7/1K5/7/1t5/1T5/7 d"), "b5-b4");
    assert!(occupied(&p, "b3"));
    assert_eq!(p.variant_name(), "brandubh-unarmed");
    // Board sizes that do not fit the bitboard are refused.
    assert!(Rules::<u64>::new(RuleOptions::tablut()).is_err());
    // A bad start FEN is refused.
    let mut o = RuleOptions::tablut();
    o.start_fen = "9/9 a".into();
    assert!(Rules::<u128>::leak(o).is_err());
}

// ---- Copenhagen Hnefatafl (copenhagen.md) ----

fn cph(fen: &str) -> Position<u128> {
    pos(copenhagen_rules(), fen)
}

// 3 . . T . . . . . . . .
// 2 . . . T T T . . . . .
// 1 + . . t t t T . . . +   c3-c1: the row d1-f1, each with a defender inward, is closed by c1
//   a b c d e f g h i j k   and g1: all three are captured (a shieldwall).
#[test]
fn copenhagen_shieldwall() {
    let p = cph("11/11/1t9/11/11/5K5/11/11/2T8/3TTT5/3tttT4 d");
    let c = play(&p, "c3-c1");
    for sq in ["d1", "e1", "f1"] {
        assert!(!occupied(&c, sq), "{sq}");
    }
    assert!(occupied(&c, "g1"));
}

// 2 . . . . . . . . t t .
// 1 + . . . t . . . K T +   e1-h1: the row i1-j1 (king and defender, attackers inward) is closed
//   a b c d e f g h i j k   by h1 and the corner: j1 is captured, the king stays.
#[test]
fn copenhagen_shieldwall_spares_the_king() {
    let p = cph("11/11/11/11/11/4T6/11/11/11/8tt1/4t3KT1 a");
    let c = play(&p, "e1-h1");
    assert!(!occupied(&c, "j1"));
    assert!(occupied(&c, "i1"));
    assert_eq!(c.outcome(), Outcome::Ongoing);
}

// A shieldwall needs a row of two or more:
// 2 . . . . . . . . . t .
// 1 + . . . t . . . . K +   e1-i1: the king alone between i1 and the corner is no row; he stays
//   a b c d e f g h i j k   (and is never captured on the edge).
#[test]
fn copenhagen_no_shieldwall_of_one() {
    let p = cph("11/11/11/11/11/4T6/11/11/11/9t1/4t4K1 a");
    let c = play(&p, "e1-i1");
    assert!(occupied(&c, "j1"));
}

// 4 . . . . . t . . . . .
// 2 . . . . t . . . . . .
// 1 + . . t K . . . . . +   f4-f1: attackers on three sides, the fourth is the edge: the king is
//   a b c d e f g h i j k   never captured on the edge.
#[test]
fn copenhagen_king_safe_on_edge() {
    let p = cph("11/11/11/7T3/11/4T6/11/5t5/11/4t6/3tK6 a");
    let c = play(&p, "f4-f1");
    assert!(occupied(&c, "e1"));
    assert_eq!(c.outcome(), Outcome::Ongoing);
}

// 10 . . . . . t . . . . .
//  8 . . . . . . . . . . .
//  7 . . . . t K t . . . .
//  6 . . . . . + . . . . .   f10-f8: three attackers and the empty throne capture the king.
#[test]
fn copenhagen_king_captured_against_throne() {
    let p = cph("11/5t5/11/11/4tKt4/11/11/11/2T8/11/11 a");
    let c = play(&p, "f10-f8");
    assert_eq!(c.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
}

// 4 . . . . . . T . . . .
// 2 . . . . T T . . . . .
// 1 + . . T K . . . . . +   g4-g1 closes the fort d1 e1 f1 g1 / e2 f2 around the king on the
//   a b c d e f g h i j k   edge: no attacker can get in, the defenders win.
#[test]
fn copenhagen_edge_fort() {
    let p = cph("11/11/1t7t1/11/11/11/11/6T4/11/4TT5/3TK6 d");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let c = play(&p, "g4-g1");
    assert_eq!(c.outcome(), Outcome::win(Side::Second, Reason::EdgeFort));
    assert_eq!(c.perft(1), 0);
}

// 11 + . . . . . . . . . +
// 10 . . . . . . . . . . t     The king on a7 sees the corner a11 (a1 is shut by a5). The
//  9 . . . t . . . . . . .     attackers can stop him only by standing on a8, a9 or a10, or
//  7 K . . . . . . . . . .     next to him (a6, b7, a8: a capture may take him): every other
//  5 t . . . . . . . . . .     move loses (`Game::split_threat_answers`).
//  3 . t . . . . . . . . .
//  2 . . . . . T . . . . .
//  1 + . . . . . . . . . +
//    a b c d e f g h i j k
#[test]
fn copenhagen_threat_answers_block_or_touch_the_king() {
    let p = cph("11/10t/3t7/11/K10/11/t10/11/1t9/5T5/11 a");
    assert!(p.must_answer());
    let mut kept = Vec::new();
    p.generate_moves(&mut kept);
    let all = kept.len();
    let mut dropped = Vec::new();
    p.split_threat_answers(&mut kept, &mut dropped);
    let answers = ["a8", "a9", "a10", "a6", "b7"];
    let to = |m: &skald::tafl::Move| skald::tafl::square_name(m.to, 11);
    assert!(kept.iter().all(|m| answers.contains(&to(m).as_str())));
    assert!(dropped.iter().all(|m| !answers.contains(&to(m).as_str())));
    assert_eq!(kept.len() + dropped.len(), all);
    // d9-a9, k10-a10, a5-a6, b3-b7: four ways to answer.
    assert_eq!(kept.len(), 4, "{kept:?}");
    assert!(dropped.len() > 20, "{}", dropped.len());
}

// Game 222 of tests/data/copenhagen (aagenielsen.dk), after its last recorded move:
//
// 3 t . . t T T . t . . .
// 2 . t t T . T t . . t .    The king's region is d1 and e2, walled by c1 d2 f1 f2 e3 and
// 1 . . T . K T t t . . .    touched by no attacker. hnefatafl.org (6.4.1,
//   a b c d e f g h i j k    `flood_fill_defender_wins`) tests each wall piece once, across the
// line its flood fill first meets it along: it meets d2 first from d1, below it, and d2 has
// no friend to its left or right (c2 is an attacker, e2 part of the region), so it calls the
// fort breakable and the game goes on. (skald took a piece met both ways as safe and ended the
// game here; tests/copenhagen_replay.rs has the game and four more like it.)
#[test]
fn copenhagen_edge_fort_is_judged_as_hnefatafl_org_judges_it() {
    let p = cph("3tttt4/1t7t1/11/2t2T4t/t3T1T3t/t2T6t/8TTt/5t5/t2tTT1t3/1ttT1Tt2t1/2T1KTtt3 a");
    assert!(!p.edge_fort());
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// 8 . . . . . t . . . . .
// 7 . . . . t . t . . . .
// 6 . . . t . K T t . . .
// 5 . . . . t . t . . . .
// 4 . . . . . . . . . . .
// 2 . . . . . t . . . . .   f2-f4 closes the ring around the king and the last defender.
#[test]
fn copenhagen_encirclement() {
    let p = cph("11/11/11/5t5/4t1t4/3t1KTt3/4t1t4/11/11/5t5/11 a");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let c = play(&p, "f2-f4");
    assert_eq!(c.outcome(), Outcome::win(Side::First, Reason::Surrounded));
}

// hnefatafl.org's rules, section 10, "when the king is trapped":
// 11 + t K t t . . . . . +
// 10 . t t . . . . . . . .
//  9 . t t . . . . . . . .
//  6 t . . . . + . . . . T
//  5 . . . . . . . . . . T    the attackers win: the king cannot get off the edge.
#[test]
fn copenhagen_king_trapped_on_edge() {
    let p = cph("1tKtt6/1tt8/1tt8/11/11/t9T/10T/11/11/11/11 d");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::CannotEscape));
    assert_eq!(p.perft(1), 0);
    // Without the attacker on c9 the king can still be freed.
    let p = cph("1tKtt6/1tt8/1t9/11/11/t9T/10T/11/11/11/11 d");
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// hnefatafl.org's rules, section 10: all corners sealed, five defenders and at most three open
// squares on any edge.
// 11 + . t t t . . . t . +
// 10 . t . . . . . . . t .
//  9 t . . . . . . . . . t
//  8 . . . . . . . . . T T
//  7 . . . . . . . . T . K
//  6 . . . . . + . . . T T
//  5 t . . . . . . . . . t
//  4 t . . . . . . . . . t
//  3 t . . . . . . . . . t
//  2 . t . . . . . . . t .
//  1 + . t t t . . . t . +
#[test]
fn copenhagen_defenders_cannot_escape() {
    let fen = "2ttt3t2/1t7t1/t9t/9TT/8T1K/9TT/t9t/t9t/t9t/1t7t1/2ttt3t2 d";
    let p = cph(fen);
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::CannotEscape));
    // A sixth defender (e6) is enough to go on.
    let p = cph("2ttt3t2/1t7t1/t9t/9TT/8T1K/4T4TT/t9t/t9t/t9t/1t7t1/2ttt3t2 d");
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// ---- Boards up to 19×19 (wide bitboards) ----

/// An OpenTafl rules string with a 19×19 board: the king on the throne j10, one attacker on a2
/// next to the corner a1. Attackers first: a2 moves up the a-file (a3-a18, not onto the corner
/// a19) or along rank 2 (b2-s2): 34 moves.
#[test]
fn board_19x19_from_opentafl_rules() {
    use skald::tafl::{Wide, opentafl::parse_rules};
    let mut rows = vec!["19".to_string(); 19];
    rows[1] = "t18".into(); // rank 2 (records list rank 1 first)
    rows[9] = "9K9".into();
    let rules = format!("dim:19 name:Big esc:c surf:n start:/{}/", rows.join("/"));
    let options = parse_rules(&rules).unwrap();
    let rules = Rules::<Wide<6>>::leak(options).unwrap();
    let p = Position::start(rules);
    assert_eq!(p.perft(1), 34);
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut codes = std::collections::HashSet::new();
    for &m in &moves {
        let bits = p.encode_move(m);
        assert!(bits != 0 && codes.insert(bits));
        assert_eq!(p.decode_move(bits), Some(m));
        let c = play(&p, &p.move_to_string(m));
        let mut replies = Vec::new();
        c.generate_moves(&mut replies);
        assert_eq!(c.perft(1), replies.len() as u64);
        for &r in &replies {
            assert_eq!(c.decode_move(c.encode_move(r)), Some(r));
        }
    }
    assert!(p.parse_move("s19-s1").is_err());
    assert!(p.parse_move("a2-s2").is_ok());
    assert_eq!(p.with_fen(&p.fen()).unwrap(), p);
    // 20×20 is refused.
    let big = format!("dim:20 start:/{}/", vec!["20"; 20].join("/"));
    assert!(parse_rules(&big).is_err());
}

/// copenhagen13 moves pack into 16 bits (from, direction, distance) and back.
#[test]
fn copenhagen13_move_codes() {
    let p = skald::tafl::copenhagen13();
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert_eq!(moves.len(), 180);
    for &m in &moves {
        let bits = p.encode_move(m);
        assert_ne!(bits, 0);
        assert_eq!(p.decode_move(bits), Some(m));
    }
}

/// Copenhagen: a defender move that recreates an earlier board is illegal
/// (hnefatafl-copenhagen 6.4.1, `Board::legal_move`: "you already reached that position"); the
/// attackers may repeat.
#[test]
fn copenhagen_defenders_may_not_repeat() {
    use skald::game::{RepetitionRule, forbidden_by_history, outcome_with_history};
    let p = skald::tafl::copenhagen();
    assert_eq!(p.repetition_rule(), RepetitionRule::Forbidden(Side::Second));
    let mut history = vec![p.hash()];
    let mut c = p;
    // b8-b7 recreates the position after b6-b7 (defenders to move): allowed for the attackers.
    for mv in ["b6-b7", "d6-d7", "b7-b8", "d7-d6", "b8-b7"] {
        assert!(!forbidden_by_history(
            &c,
            &history[..history.len() - 1],
            c.parse_move(mv).unwrap()
        ));
        c = play(&c, mv);
        assert_eq!(outcome_with_history(&c, &history), Outcome::Ongoing, "{mv}");
        history.push(c.hash());
    }
    assert_eq!(c.hash(), history[1]);
    history.pop();
    // d6-d7 recreates the board after the defenders' first move: refused.
    let d6d7 = c.parse_move("d6-d7").unwrap();
    assert!(forbidden_by_history(&c, &history, d6d7));
    assert_eq!(outcome_with_history(&c, &history), Outcome::Ongoing);
    // Through a session (as every front-end plays): refused, and not among the legal moves.
    let mut s = skald::engine::new_session(skald::variant::Variant::Copenhagen);
    for mv in ["b6-b7", "d6-d7", "b7-b8", "d7-d6", "b8-b7"] {
        s.play(mv).unwrap();
    }
    assert!(!s.legal_moves().contains(&"d6-d7".to_string()));
    assert_eq!(
        s.play("d6-d7"),
        Err(skald::engine::session::MoveError::RepeatsBoard(
            "d6-d7".into()
        ))
    );
    assert_eq!(
        s.moves_played().len(),
        5,
        "the refused move changed nothing"
    );
}

/// Copenhagen forbids the defenders to recreate an earlier *board*, whichever side was to move
/// then (copenhagen.md: "recreates any earlier board of the game"). The defender moves along
/// file d in three steps (d6-d8, d8-d7, d7-d6) while the attackers shuttle b6-b7-b6-b7: d7-d6
/// would make the board after the attackers' first move b6-b7, seen then with the defenders to
/// move (an odd cycle, which a comparison of whole positions misses).
///
/// ```text
///    after b6-b7 (defenders to move)      after ... d7-d6 (attackers to move): the same board
///  7  t  t  .  .  T  T  T  .  .  .  t      7  t  t  .  .  T  T  T  .  .  .  t
///  6  t  .  .  T  T  K  T  T  .  t  t      6  t  .  .  T  T  K  T  T  .  t  t
/// ```
#[test]
fn copenhagen_forbids_a_board_seen_with_the_other_side_to_move() {
    let mut s = skald::engine::new_session(skald::variant::Variant::Copenhagen);
    for mv in ["b6-b7", "d6-d8", "b7-b6", "d8-d7", "b6-b7"] {
        s.play(mv).unwrap();
    }
    assert!(!s.legal_moves().contains(&"d7-d6".to_string()));
    assert!(matches!(
        s.play("d7-d6"),
        Err(skald::engine::session::MoveError::RepeatsBoard(_))
    ));
}

// The board is compared *before* the move's captures (hnefatafl-copenhagen 6.4.1; game 873 of
// tests/data/copenhagen, ply 72, is such a move). The attacker g3 steps between the defenders
// f2 and f4 (safe: a piece may move between two enemies), the defender f2 steps aside to e2,
// then the attacker b10 walks b9, b8 and back to b10 while the defender j10 goes to j9 and back.
// e2-f2 would capture f3, but the board it makes before that capture is the board after g3-f3:
// refused. (skald compared the board after the capture, which had never been seen.)
//
// 11 . . . . . . . . . . .
// 10 . t . . . . . . . T .      ply 1 g3-f3, 2 f2-e2, 3 b10-b9, 4 j10-j9, 5 b9-b8,
//  9 . . . . . . . . . . .      6 j9-j10, 7 b8-b10; then 8 e2-f2 (x f3) is refused
//  6 . . . . . K . . . . .
//  4 . . . . . T . . . . .
//  3 . . . . . . t . . . .
//  2 . . . . . T . . . . .
//  1 . . . . . . . . . . .
//    a b c d e f g h i j k
#[test]
fn copenhagen_repetition_is_judged_before_captures() {
    use skald::engine::session::MoveError;
    let mut s = skald::engine::new_session(skald::variant::Variant::Copenhagen);
    s.set_position(
        Some("11/1t7T1/11/11/11/5K5/11/5T5/6t4/5T5/11 a 0 1"),
        &[
            "g3-f3", "f2-e2", "b10-b9", "j10-j9", "b9-b8", "j9-j10", "b8-b10",
        ],
    )
    .unwrap();
    assert_eq!(s.outcome(), Outcome::Ongoing);
    // The move itself is a legal capture by the board alone.
    let mut alone = skald::engine::new_session(skald::variant::Variant::Copenhagen);
    alone.set_position(Some(&s.fen()), &[]).unwrap();
    alone.play("e2-f2").unwrap();
    assert_eq!(alone.last_captures()[0].square, "f3");
    // With the game's history it recreates the board after g3-f3.
    assert!(!s.legal_moves().contains(&"e2-f2".to_string()));
    assert_eq!(
        s.play("e2-f2"),
        Err(MoveError::RepeatsBoard("e2-f2".into()))
    );
}

/// Copenhagen: the defenders lose when each of their moves would recreate an earlier board:
/// they have no legal move (6.4.1 `Game::play`: `a_legal_move_exists` with the earlier boards;
/// shared/copenhagen.md: "A defender whose only moves repeat has no legal move and loses").
/// The history here holds the board after every defender move of the position (its halfmove
/// clock, 100, lets them all count); with one of them left out the game goes on.
#[test]
fn copenhagen_defenders_whose_every_move_repeats_lose() {
    use skald::game::outcome_with_history;
    let p = pos(
        copenhagen_rules(),
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 d 100 16",
    );
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    assert!(moves.len() > 1 && moves.len() < 100);
    let history: Vec<u64> = moves
        .iter()
        .map(|&m| play(&p, &p.move_to_string(m)).hash())
        .collect();
    assert_eq!(
        outcome_with_history(&p, &history),
        Outcome::win(Side::First, Reason::NoLegalMove)
    );
    assert_eq!(outcome_with_history(&p, &history[1..]), Outcome::Ongoing);
}

/// OpenTafl's Copenhagen (`efe:y`) judges the fort of `copenhagen_edge_fort` a defender win too.
#[test]
fn opentafl_edge_fort() {
    let options = skald::tafl::opentafl::parse_rules(
        "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    )
    .unwrap();
    let rules = Rules::<u128>::leak(options).unwrap();
    let p = pos(rules, "11/11/1t7t1/11/11/11/11/6T4/11/4TT5/3TK6 d");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let c = play(&p, "g4-g1");
    assert_eq!(c.outcome(), Outcome::win(Side::Second, Reason::EdgeFort));
}

/// OpenTafl's larger external rules (its `external-rules.conf`): Tablut 15×15, Sea Battle 13×13
/// and Alea Evangelii 19×19 now load; the fast perft agrees with the move list at depth 2.
#[test]
fn opentafl_large_boards_load() {
    use skald::tafl::{Wide, opentafl::parse_rules};
    fn check<B: Bitboard>(options: skald::tafl::RuleOptions) {
        let rules = Rules::<B>::leak(options).unwrap();
        let p = Position::start(rules);
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        let mut total = 0;
        for &m in &moves {
            let mut c = p;
            c.make_move(m);
            assert_eq!(c.hash(), c.compute_hash());
            total += c.perft(1);
        }
        assert!(!moves.is_empty());
        assert_eq!(p.perft(2), total);
    }
    let tablut15 = "dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/";
    let sea13 = "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/";
    let alea19 = "dim:19 name:Alea_Evangelii esc:c atkf:y cor:a1,a2,b1,b2,a18,b18,a19,b19,r1,r2,s1,s2,r18,r19,s18,s19, cens: cenp:tcnkTCNK cenh: cenhe:tcnkTCNK tfr:w start:/2t2t7t2t2/19/t4t7t4t/7t1t1t7/6t1T1T1t6/t1t2t7t2t1t/4t4T4t4/3t4T1T4t3/4T2T1T1T2T4/3t2T1TKT1T2t3/4T2T1T1T2T4/3t4T1T4t3/4t4T4t4/t1t2t7t2t1t/6t1T1T1t6/7t1t1t7/t4t7t4t/19/2t2t7t2t2/";
    check::<Wide<6>>(parse_rules(tablut15).unwrap());
    check::<Wide<3>>(parse_rules(sea13).unwrap());
    check::<Wide<6>>(parse_rules(alea19).unwrap());
}

// ---- The 140-ply draw (copenhagen.md rule 6, as hnefatafl.org 6.4.1 plays it) ----
//
// hnefatafl.org draws a move made when more than 140 plies had been played (`turn_number >
// MAX_TURNS`, checked after its win checks): the 142nd ply draws unless it wins, the 141st does
// not draw. The positions below are Copenhagen 11×11 on move 71:
// 11 + . . . . . . . . . +
// 10 . . . . . t . . . . .
//  9 . . . . . . . . . . .
//  8 . . . . . . . . . . .
//  7 . . . . . . . . . . .
//  6 . . . . . + . . . T .
//  5 K . . . . . . . . . .
//  4 . . . . . . . . . . .
//  3 . . . . . . . . . . .
//  2 . . . . . t . . . . .
//  1 + . . . . . . . . . +
//    a b c d e f g h i j k
// "a 0 71": 140 plies played, the attackers to make the 141st; "d 0 71": 141 played, the
// defenders to make the 142nd.
const PLY_LIMIT_BOARD: &str = "11/5t5/11/11/11/9T1/K10/11/11/5t5/11";

// f10-g10 is ply 141: no draw yet. j6-j7 is ply 142: drawn.
#[test]
fn copenhagen_draw_comes_on_ply_142() {
    let p = cph(&format!("{PLY_LIMIT_BOARD} a 0 71"));
    assert_eq!(p.plies_played(), 140);
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let p = play(&p, "f10-g10");
    assert_eq!(p.plies_played(), 141);
    assert_eq!(p.outcome(), Outcome::Ongoing);
    assert!(p.perft(1) > 0);
    let p = play(&p, "j6-j7");
    assert_eq!(p.plies_played(), 142);
    assert_eq!(p.outcome(), Outcome::draw(Reason::MoveLimit));
}

// a5-a1 on ply 142: the king reaches the corner; the win stands.
#[test]
fn copenhagen_king_escape_on_ply_142_wins() {
    let p = cph(&format!("{PLY_LIMIT_BOARD} d 0 71"));
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let won = play(&p, "a5-a1");
    assert_eq!(
        won.outcome(),
        Outcome::win(Side::Second, Reason::KingEscaped)
    );
    let drawn = play(&p, "a5-a4");
    assert_eq!(drawn.outcome(), Outcome::draw(Reason::MoveLimit));
}

// ---- hnefatafl.org's 7×7 board (`skald htp`'s `board_size 7`) ----

use skald::tafl::{EdgeFort, RuleOptions, copenhagen7_rules, leaked_rule_sets};

fn cph7(fen: &str) -> Position<u64> {
    pos(copenhagen7_rules(), fen)
}

// 7 + . . t . . +
// 6 . . . t . . .
// 5 . . . T . . .
// 4 t t T K T t t
// 3 . . . T . . .
// 2 . . . t . . .
// 1 + . . t . . +    brandubh's board, but the defenders move first (24 moves).
//   a b c d e f g
#[test]
fn copenhagen7_defenders_move_first() {
    let p = Position::start(copenhagen7_rules());
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.plies_played(), 0);
    assert_eq!(p.perft(1), 24);
}

// 7 + K . . . . +
// 4 . . . + . . .
// 3 . . . . . . t
// 2 . . . T . . .    the defender on d2 may not pass the empty throne d4 (nor stop on it): d2-d3
// 1 + . . . . . +    only, upwards; hnefatafl.org's move lists stop soldiers at the 7×7 throne.
//   a b c d e f g    The king may cross it.
#[test]
fn copenhagen7_soldiers_may_not_pass_the_throne() {
    let p = cph7("1K5/7/7/7/6t/3T3/7 d");
    let legal = |p: &Position<u64>, mv: &str| p.parse_move(mv).is_ok();
    assert!(legal(&p, "d2-d3"));
    for mv in ["d2-d4", "d2-d5", "d2-d6", "d2-d7"] {
        assert!(!legal(&p, mv), "{mv}");
    }
    let p = cph7("7/7/3K3/7/7/6t/7 d");
    assert!(legal(&p, "d5-d1"));
}

// 4 . . . . t . .
// 3 . T . . . . .
// 2 . . . . . . .
// 1 + . t K . . +    e4-e1: two attackers in line capture the king, on the edge too.
//   a b c d e f g
#[test]
fn copenhagen7_king_captured_by_two_on_the_edge() {
    let p = play(&cph7("7/7/7/4t2/1T5/7/2tK3 a"), "e4-e1");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
}

// 2 . . t . . . .
// 1 + K . . . . +    c2-c1: the corner is hostile to the king.
//   a b c d e f g
#[test]
fn copenhagen7_king_captured_against_a_corner() {
    let p = play(&cph7("7/7/7/7/7/2t4/1K5 a"), "c2-c1");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
}

// 7 + . . t . . +
// 6 . . . . . . .
// 5 . . . K . . .
// 4 . . . + . . .    d7-d6: the empty throne is not hostile to the king on 7×7 (it is in
//   a b c d e f g    brandubh): he stays.
#[test]
fn copenhagen7_empty_throne_is_not_hostile_to_the_king() {
    let p = play(&cph7("3t3/7/3K3/7/7/7/7 a"), "d7-d6");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    assert_ne!(p.king(), 0);
}

// 5 . . . t . . .
// 4 . . t K t . .
// 3 . . . . . . .
// 2 . . . t . . .    d2-d3: on the throne the king needs four attackers; three are not enough.
#[test]
fn copenhagen7_king_on_throne_needs_four() {
    let p = play(&cph7("7/7/3t3/2tKt2/7/3t3/7 a"), "d2-d3");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
    let p = play(&cph7("7/7/7/2tKt2/7/3t3/7 a"), "d2-d3");
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// 6 . t . . . t .
// 3 . . . . T . .
// 2 . . T T . . .
// 1 + T K . . . +    e3-e1 closes what would be an edge fort on 11×11 (around c1 d1): the 7×7
//   a b c d e f g    board has no edge forts (hnefatafl.org's `play_internal`).
#[test]
fn copenhagen7_has_no_edge_forts() {
    let fen = "7/1t3t1/7/7/4T2/2TT3/1TK4 d";
    let p = play(&cph7(fen), "e3-e1");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let mut o = RuleOptions::copenhagen7();
    o.name = "copenhagen7 with edge forts".into();
    o.edge_fort = EdgeFort::Copenhagen;
    let with_forts = Rules::<u64>::leak(o).unwrap();
    let p = play(&pos(with_forts, fen), "e3-e1");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::EdgeFort));
}

// The 140-ply draw on 7×7 counts from the defenders' first move (the reference counts plays):
// "d 0 71" is 140 plies played. Board:
// 7 + . . . . . +
// 6 . t . . . . .
// 5 . . . . . . .
// 4 . . . + . . .
// 3 . . . . . T .
// 2 . . . . . . .
// 1 + . . . K . +    e1-e2 is ply 141 (no draw), b6-b7 ply 142 (drawn).
#[test]
fn copenhagen7_plies_count_from_the_defenders_first_move() {
    let p = cph7("7/1t5/7/7/5T1/7/4K2 d 0 71");
    assert_eq!(p.plies_played(), 140);
    let p = play(&p, "e1-e2");
    assert_eq!(p.plies_played(), 141);
    assert_eq!(p.outcome(), Outcome::Ongoing);
    let p = play(&p, "b6-b7");
    assert_eq!(p.outcome(), Outcome::draw(Reason::MoveLimit));
    // Copenhagen 11×11 started by the defenders (HTP `first_move defender`) counts alike.
    let mut o = RuleOptions::copenhagen();
    o.start_fen = o.start_fen.replacen(" a ", " d ", 1);
    let r = Rules::<u128>::leak(o).unwrap();
    assert_eq!(r.first_side, Side::Second);
    assert_eq!(
        pos(r, &format!("{PLY_LIMIT_BOARD} d 0 71")).plies_played(),
        140
    );
}

// ---- Rule sets built at run time ----

/// `Rules::leak` interns: equal options give the same `&'static Rules` (one leak per distinct
/// rule set and bitboard type), and `Rules::new` reuses a name it has leaked before.
#[test]
fn leaking_the_same_rules_again_reuses_them() {
    let mut o = RuleOptions::brandubh();
    o.name = "brandubh, interned".into();
    let first = Rules::<u64>::leak(o.clone()).unwrap();
    let before = leaked_rule_sets();
    for _ in 0..1000 {
        assert!(std::ptr::eq(first, Rules::<u64>::leak(o.clone()).unwrap()));
    }
    // Other tests of this binary may leak their own rule sets meanwhile, but not hundreds.
    assert!(leaked_rule_sets() - before < 100);
    // Positions of equal rules are equal.
    assert_eq!(
        Position::start(first),
        Position::start(Rules::<u64>::leak(o.clone()).unwrap())
    );
    // Another bitboard type or other options make another rule set.
    let wide = Rules::<u128>::leak(o.clone()).unwrap();
    assert_eq!(wide.size, 7);
    o.move_limit = Some(50);
    let other = Rules::<u64>::leak(o.clone()).unwrap();
    assert!(!std::ptr::eq(first, other));
    assert_eq!(other.move_limit, Some(50));
    // `Rules::new` leaks a name once.
    let a = Rules::<u64>::new(o.clone()).unwrap();
    let b = Rules::<u64>::new(o).unwrap();
    assert!(std::ptr::eq(a.name, b.name));
    assert!(std::ptr::eq(a.name, first.name));
}
