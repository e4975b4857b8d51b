//! Ashton tablut (docs/rules/ashton.md; the Tablut competition server's
//! `GameAshtonTablut.java`): rule edges, each with its board diagram (rank 9 at the top, `t`
//! black (attackers), `T` white (defenders), `K` the king, `+` an empty camp square or the empty
//! throne e5, `.` an empty square), and the whole rule set in lockstep with the server's own
//! code.
//!
//! ## Lockstep
//!
//! The server's own rules code (`GameAshtonTablut.checkMove` of AGalassi/TablutCompetition)
//! played random games through its classes, recorded ply by ply (the number of legal moves,
//! the move played, the server's turn after it); they are replayed through skald's `ashton`
//! rules, which must find the same number of legal moves (the same moves, where the record
//! lists them) and end each game the same way.
//!
//! `tests/data/ashton_lockstep.txt` is a small record kept with the tests. A larger one, with
//! the legal-move lists, is checked when `SKALD_ASHTON_LOCKSTEP` names it (the server's
//! classes and the program that records games live outside this repository).
//!
//! Record format: `game <n>` starts a game (white, skald's defenders, to move in the start
//! position); each line after it is one ply: `<legal move count> <move played> <turn after>`
//! and optionally the comma-separated sorted legal moves; the turn is the server's short
//! forms `W`, `B`, `WW` (white won), `BW` (black won) or `D` (draw). `0 - NOMOVE` ends a game
//! whose side to move has no legal move. The server never remembers the start position for
//! its repetition rule (only positions reached by a move), so after the first move the replay
//! starts its history anew from that position.

use skald::engine::{Session, new_session};
use skald::game::{Game, Outcome, Reason, Side};
use skald::tafl::{Position, ashton_rules, parse_square};
use skald::variant::Variant;

fn pos(fen: &str) -> Position<u128> {
    Position::from_fen(ashton_rules(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(p: &Position<u128>, mv: &str) -> bool {
    p.parse_move(mv).is_ok()
}

fn play(p: &Position<u128>, mv: &str) -> Position<u128> {
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let mut c = *p;
    c.make_move(m);
    assert_eq!(c.hash(), c.compute_hash());
    c
}

fn occupied(p: &Position<u128>, sq: &str) -> bool {
    p.piece_at(parse_square(sq, 9).unwrap()).is_some()
}

#[test]
fn white_moves_first_from_the_tablut_start() {
    let start = skald::tafl::ashton();
    assert_eq!(start.side_to_move(), Side::Second);
    assert_eq!(start.count_moves(), 56);
    assert_eq!(
        Variant::Ashton.start_fen(),
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 d 0 1"
    );
    assert_eq!("ashton-tablut".parse::<Variant>().unwrap(), Variant::Ashton);
}

// 6 + . . . . . . . +
// 5 + + . . K . . + +
// 4 t . . . . . . . +      a4, in its own camp, moves within it (over a5) and out of it.
// 3 . . . . . . . . .
//   a b c d e f g h i
#[test]
fn a_black_piece_moves_within_its_camp_and_out() {
    let p = pos("9/9/9/9/4K4/t8/9/9/9 a");
    for mv in ["a4-a5", "a4-a6", "a4-b4", "a4-d4", "a4-a1"] {
        assert!(legal(&p, mv), "{mv}");
    }
    // b5 is in the camp but not in line with a4.
    assert!(!legal(&p, "a4-b5"));
}

// 6 + . T . . . . . +
// 5 + + . . K . . + +
// 4 + t . . . . . . +      b4 has left the camp: it may not go back (a4, b5); white c6 may
// 3 . . . . . . . . .      not enter a camp either (a6).
//   a b c d e f g h i
#[test]
fn nobody_enters_a_camp_from_outside() {
    let p = pos("9/9/9/2T6/4K4/1t7/9/9/9 a");
    assert!(!legal(&p, "b4-a4"));
    assert!(!legal(&p, "b4-b5"));
    assert!(legal(&p, "b4-b3"));
    let p = pos("9/9/9/2T6/4K4/1t7/9/9/9 d");
    assert!(!legal(&p, "c6-a6"));
    assert!(legal(&p, "c6-b6"));
}

// 9 . . . + + + . . .
// 8 . . t . + . . . .      c8-g8 and c2-g2 would pass over the empty camp squares e8 and e2:
// 7 . . . . . . K . .      illegal for pieces outside a camp. d1, in its camp, passes over its
// 2 . . T . + . . . .      own empty e1 and f1 (d1-g1).
// 1 . . . t + + . . .
//   a b c d e f g h i
#[test]
fn only_a_piece_in_its_camp_passes_over_camp_squares() {
    let p = pos("9/2t6/6K2/9/9/9/9/2T6/3t5 d");
    assert!(!legal(&p, "c2-g2"));
    assert!(legal(&p, "c2-d2"));
    let p = pos("9/2t6/6K2/9/9/9/9/2T6/3t5 a");
    assert!(!legal(&p, "c8-g8"));
    assert!(legal(&p, "c8-d8"));
    assert!(legal(&p, "d1-g1"));
    assert!(legal(&p, "d1-e1"));
}

// 9 . . . + + + . . .      d1 may run up the d-file to d8, but not into the other camp's d9.
// 1 . . . t + + . . .
//   a b c d e f g h i
#[test]
fn a_piece_leaving_its_camp_cannot_enter_another() {
    let p = pos("9/9/6K2/9/9/9/9/9/3t5 a");
    assert!(legal(&p, "d1-d8"));
    assert!(!legal(&p, "d1-d9"));
}

// 7 . . K . . . . . .
// 5 + + . . + . . + +      Nobody passes over or stops on the empty throne e5 (e4-e6, e4-e5),
// 4 + . . . T . . . +      the king included once he has left it.
//   a b c d e f g h i
#[test]
fn nobody_passes_over_or_stops_on_the_throne() {
    let p = pos("9/9/2K6/9/9/4T4/9/9/9 d");
    assert!(!legal(&p, "e4-e6"));
    assert!(!legal(&p, "e4-e5"));
    assert!(legal(&p, "e4-e3"));
    let p = pos("9/9/9/9/9/4K4/9/9/t8 d");
    assert!(!legal(&p, "e4-e5"));
    assert!(!legal(&p, "e4-e7"));
}

// 5 + + . . + . . + +
// 4 + t . T . . . . +      d4-c4: b4 is caught against the empty camp square a4.
//   a b c d e f g h i
#[test]
fn a_camp_captures_black_pieces() {
    let p = play(&pos("9/9/6K2/9/9/1t1T5/9/9/9 d"), "d4-c4");
    assert!(!occupied(&p, "b4"));
}

// 4 + . . . T . . . +
// 3 . . . . . . . . .      e4-e3: e2, in its camp, is not caught against e1, the middle square
// 2 . . . . t . . . .      of its camp's edge side (neither are a5, i5, e9).
// 1 . . . + + + . . .
//   a b c d e f g h i
#[test]
fn the_middle_of_a_camps_edge_does_not_capture_its_own_pieces() {
    let p = play(&pos("9/9/6K2/9/9/4T4/9/4t4/9 d"), "e4-e3");
    assert!(occupied(&p, "e2"));
}

// 4 + . . . . . T . +
// 3 . . . . t . . . .      g4-e4: e3 is caught against the camp square e2, empty or held by
// 2 . . . . + . . . .      a black piece.
//   a b c d e f g h i
#[test]
fn a_camp_captures_whether_empty_or_not() {
    let p = play(&pos("9/9/6K2/9/9/6T2/4t4/9/9 d"), "g4-e4");
    assert!(!occupied(&p, "e3"));
    let p = play(&pos("9/9/6K2/9/9/6T2/4t4/4t4/9 d"), "g4-e4");
    assert!(!occupied(&p, "e3"));
    assert!(occupied(&p, "e2"));
}

// 3 . t . . . . . . .
// 2 . . . . + . . . .      b3-b1: white c1 is caught against the camp square d1.
// 1 . . T + + + . . .
//   a b c d e f g h i
#[test]
fn a_camp_captures_white_pieces() {
    let p = play(&pos("9/9/6K2/9/9/9/1t7/9/2T6 a"), "b3-b1");
    assert!(!occupied(&p, "c1"));
}

// 8 . . t . + . . . .
// 5 + + . T K . . + +      c8-c5: white d5 is caught against the throne even with the king on
//   a b c d e f g h i      it (the throne is always hostile to white).
#[test]
fn the_throne_captures_white_pieces_with_the_king_on_it() {
    let p = play(&pos("9/2t6/9/9/3TK4/9/9/9/9 a"), "c8-c5");
    assert!(!occupied(&p, "d5"));
    assert!(occupied(&p, "e5"));
}

// 7 . K . . . . . . .
// 5 + + . . + . . + +      g3-e3: black e4 is caught against the empty throne.
// 4 + . . . t . . . +
// 3 . . . . . . T . .
//   a b c d e f g h i
#[test]
fn the_empty_throne_captures_black_pieces() {
    let p = play(&pos("9/9/1K7/9/9/4t4/6T2/9/9 d"), "g3-e3");
    assert!(!occupied(&p, "e4"));
}

// 6 + . . . . . t . +
// 5 + + . t K t . + +      g6-e6: the king on the throne, held on all four sides, is captured;
// 4 + . . . t . . . +      with f5 empty he is not.
//   a b c d e f g h i
#[test]
fn the_king_on_the_throne_needs_four() {
    let p = play(&pos("9/9/9/6t2/3tKt3/4t4/9/9/9 a"), "g6-e6");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
    let p = play(&pos("9/9/9/6t2/3tK4/4t4/9/9/9 a"), "g6-e6");
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// 7 . . . . . t . . .
// 5 + + . . + . . + +      f7-f4: the king on e4, next to the throne, held on his three other
// 4 + . . t K . . . +      sides, is captured; with e3 empty (two attackers in line) he is not.
// 3 . . . . t . . . .
//   a b c d e f g h i
#[test]
fn the_king_next_to_the_throne_needs_three() {
    let p = play(&pos("9/9/5t3/9/9/3tK4/4t4/9/9 a"), "f7-f4");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
    let p = play(&pos("9/9/5t3/9/9/3tK4/9/9/9 a"), "f7-f4");
    assert_eq!(p.outcome(), Outcome::Ongoing);
}

// 7 . . t . . . . . .
// 5 + + . . + . . + +
// 4 + K . . . . . . +      c7-c4: the king on b4 is caught against the camp square a4.
//   a b c d e f g h i
//
// 3 . t K . . . . . .
// 2 . . . . + . . . .      d1-d3: in the open, two attackers in line capture him.
// 1 . . . t + + . . .
//   a b c d e f g h i
#[test]
fn the_king_elsewhere_is_captured_by_two_or_against_a_camp() {
    let p = play(&pos("9/9/2t6/9/9/1K7/9/9/9 a"), "c7-c4");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
    let p = play(&pos("9/9/9/9/9/9/1tK6/9/3t5 a"), "d1-d3");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::KingCaptured));
}

// 9 t . . + + + . . .
// 5 + + K . + . . + +      The king escapes on any edge square but a camp's: b2-b1 and c5-c9
// 2 . K . . + . . . .      win; c5-b5 and c5-a5 are no moves (camps).
//   a b c d e f g h i
#[test]
fn the_king_escapes_on_edge_squares_outside_the_camps() {
    let p = play(&pos("t8/9/9/9/9/2T6/9/1K7/9 d"), "b2-b1");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::KingEscaped));
    let p = pos("t8/9/9/9/2K6/9/9/9/9 d");
    assert!(!legal(&p, "c5-b5"));
    assert!(!legal(&p, "c5-a5"));
    let p = play(&p, "c5-c9");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::KingEscaped));
}

// 5 + + . . K . . + +
// 2 T . . . + . . . .      Black (a1) cannot move: black loses.
// 1 t T . + + + . . .
#[test]
fn a_side_without_a_legal_move_loses() {
    let p = pos("9/9/9/9/4K4/9/9/T8/tT7 a");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::NoLegalMove));
    let p = pos("9/9/9/4t4/3tKt3/4t4/9/9/9 d");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::NoLegalMove));
}

#[test]
fn a_repeated_position_draws() {
    let mut s = new_session(Variant::Ashton);
    for mv in ["e3-h3", "d1-d2", "h3-e3", "d2-d3", "e3-h3"] {
        s.play(mv).unwrap();
        assert_eq!(s.outcome(), Outcome::Ongoing, "{mv}");
    }
    s.play("d3-d2").unwrap();
    assert_eq!(s.outcome(), Outcome::draw(Reason::Repetition));
}

// ---- Lockstep with the server ----

/// Replays the record `text`; returns (games, plies) checked. Panics on the first difference.
fn replay(name: &str, text: &str) -> (usize, usize) {
    let v = Variant::Ashton;
    let (mut games, mut plies) = (0, 0);
    let mut session: Option<Box<dyn Session>> = None;
    let mut ply = 0;
    for (i, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        if line.starts_with("game ") {
            session = Some(new_session(v));
            games += 1;
            ply = 0;
            continue;
        }
        let s = session
            .as_mut()
            .unwrap_or_else(|| panic!("{at}: ply before a game"));
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words.len() >= 3, "{at}: bad line {line}");
        let mut legal = s.legal_moves();
        legal.sort();
        let count: usize = words[0].parse().expect("count");
        assert!(
            v.outcome_text(s.outcome()).is_none(),
            "{at}: skald ended the game before the server ({:?})",
            v.outcome_text(s.outcome())
        );
        if let Some(list) = words.get(3) {
            let server: Vec<&str> = list.split(',').collect();
            let missing: Vec<_> = server
                .iter()
                .filter(|m| !legal.contains(&m.to_string()))
                .collect();
            let extra: Vec<_> = legal
                .iter()
                .filter(|m| !server.contains(&m.as_str()))
                .collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{at}: {}: skald lacks {missing:?}, has more {extra:?}",
                s.fen()
            );
        }
        assert_eq!(legal.len(), count, "{at}: legal moves of {}", s.fen());
        if words[2] == "NOMOVE" {
            let side = s.side_to_move();
            let expected = v.result_text(Some(side.opponent()), "no legal move");
            assert_eq!(v.outcome_text(s.outcome()), Some(expected), "{at}");
            continue;
        }
        s.play(words[1])
            .unwrap_or_else(|e| panic!("{at}: {}: {e}", words[1]));
        plies += 1;
        ply += 1;
        if ply == 1 {
            let fen = s.fen();
            s.set_position(Some(&fen), &[])
                .expect("the position after the first move");
        }
        let got = v.outcome_text(s.outcome());
        let expected = match words[2] {
            "W" | "B" => None,
            "WW" => Some("defenders win (king escaped)".to_string()),
            "BW" => Some("attackers win (king captured)".to_string()),
            "D" => Some("draw (repetition)".to_string()),
            t => panic!("{at}: unknown turn {t}"),
        };
        assert_eq!(got, expected, "{at}: after {} in {}", words[1], s.fen());
    }
    (games, plies)
}

#[test]
fn random_games_agree_with_the_server() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/ashton_lockstep.txt"
    );
    let text = std::fs::read_to_string(path).expect("lockstep record");
    let (games, plies) = replay("ashton_lockstep.txt", &text);
    assert!(games >= 20 && plies >= 2000, "{games} games, {plies} plies");
}

#[test]
#[ignore = "a larger lockstep record: SKALD_ASHTON_LOCKSTEP=<file> cargo test --test ashton_rules -- --ignored"]
fn a_larger_record_agrees_with_the_server() {
    let path = std::env::var("SKALD_ASHTON_LOCKSTEP")
        .expect("SKALD_ASHTON_LOCKSTEP names the lockstep record to replay");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (games, plies) = replay(&path, &text);
    eprintln!("{path}: {games} games, {plies} plies agree");
}
