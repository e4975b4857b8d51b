//! Small named Ataxx rule tests. Each shows the position as a diagram (top rank first).

use skald::ataxx::{Move, Position, Square};
use skald::game::{Game, Outcome, Reason, RepetitionRule, Side};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn moves(p: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    p.generate_moves(&mut v);
    v
}

fn play(p: &Position, text: &str) -> Position {
    let mv = p.parse_move(text).unwrap();
    let mut c = *p;
    c.make_move(mv);
    assert_eq!(c.hash(), c.compute_hash());
    c
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// ```text
/// 7 . . . . . . o
/// 4 . . o . . . .
/// 3 . o o . . . .
/// 2 . . . . . . .       x clones a1 → b2: b3 and c3 (next to b2) flip, c4 (distance 2) stays
/// 1 x . . . . . .
///   a b c d e f g
/// ```
#[test]
fn clone_flips_adjacent_opponent_stones() {
    let p = pos("6o/7/7/2o4/1oo4/7/x6 x 5 1");
    assert_eq!(p.move_gain(p.parse_move("b2").unwrap()), 300);
    let c = play(&p, "b2");
    assert_eq!(c.fen(), "6o/7/7/2o4/1xx4/1x5/x6 o 0 1");
}

/// The same board: in the move order (the switch `order_bonus`) a clone ranks one stone above a jump
/// that flips as many; a jump's bonus is 0, so jumps that flip nothing still come last.
#[test]
fn order_bonus_is_one_stone_for_a_clone() {
    let p = pos("6o/7/7/2o4/1oo4/7/x6 x 5 1");
    assert_eq!(p.order_bonus(p.parse_move("b2").unwrap()), 100);
    let jump = p.parse_move("a1c2").unwrap();
    assert_eq!((p.move_gain(jump), p.order_bonus(jump)), (200, 0));
}

/// ```text
/// 7 x . . . . . o       x jumps a7 → a5: a7 becomes empty, the clock goes up by one
/// 1 o . . . . . x
///   a b c d e f g
/// ```
#[test]
fn jump_empties_source_and_counts_halfmove() {
    let c = play(&Position::start(), "a7a5");
    assert_eq!(c.fen(), "6o/7/x6/7/7/7/o5x o 1 1");
    assert_eq!(c.halfmove_clock(), 1);
    let d = play(&c, "f7"); // o clones: clock back to 0, o moved so the move number grows
    assert_eq!(d.halfmove_clock(), 0);
    assert_eq!(d.fen(), "5oo/7/x6/7/7/7/o5x x 0 2");
}

/// ```text
/// 3 . . o . . . .       x jumps a1 → c2: a1 empties, and b1, b2, d2, c3 (all next to c2)
/// 2 . o . o . . .       turn to x
/// 1 x o . . . . .
///   a b c d e f g
/// ```
#[test]
fn jump_flips_around_destination() {
    let p = pos("6o/7/7/7/2o4/1o1o3/xo5 x 0 1");
    let c = play(&p, "a1c2");
    assert_eq!(c.fen(), "6o/7/7/7/2x4/1xxx3/1x5 o 1 1");
    assert_eq!(c.stones(Side::First).count_ones(), 5);
}

/// ```text
/// 3 o o o o o o o
/// 2 o o o o o o o       x has no clone or jump (rank 3 is full): x must pass
/// 1 x x x x x x x
///   a b c d e f g
/// ```
#[test]
fn forced_pass() {
    let p = pos("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    assert_eq!(moves(&p), vec![Move::Pass]);
    let c = play(&p, "0000");
    assert_eq!(c.side_to_move(), Side::Second);
    assert_eq!(c.halfmove_clock(), 1);
    assert_eq!(c.fen(), "7/7/7/7/ooooooo/ooooooo/xxxxxxx o 1 1");
    // o has moves, so o may not pass
    assert!(c.parse_move("0000").unwrap_err().0.contains("pass"));
}

/// ```text
/// 1 x . . . . . .       o has no stones: game over, x wins
/// ```
#[test]
fn game_over_no_pieces() {
    let p = pos("7/7/7/7/7/7/x6 o 0 3");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::NoPieces));
    assert!(moves(&p).is_empty());
    assert!(p.parse_move("0000").unwrap_err().0.contains("game is over"));
    assert_eq!(p.perft(1), 0);
}

/// ```text
/// 7 x x x x x x x
/// 6 x x x x x x x
/// 5 x x x x x x x
/// 4 x x x x o o o       board full, 25 x against 24 o: x wins
/// 3 o o o o o o o
/// 2 o o o o o o o
/// 1 o o o o o o o
/// ```
#[test]
fn game_over_board_full() {
    let p = pos("xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo o 0 1");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::BoardFull));
    assert!(moves(&p).is_empty());
}

/// ```text
/// 7 - x x x x x x
/// 4 x x x x o o o       board full with one blocked square, 24 x and 24 o: a draw
/// 1 o o o o o o o
/// ```
#[test]
fn draw_on_equal_count_with_blocked_square() {
    let p = pos("-xxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo x 0 1");
    assert_eq!(p.outcome(), Outcome::draw(Reason::BoardFull));
}

/// ```text
/// 7 . . . . . . .
/// 5 . . . . . . .
/// 4 - - - - - - -       empty squares on ranks 5-7, but nobody can reach them
/// 2 - - - - - - -       (distance 4 from rank 1): o wins 4 to 3
/// 1 x x x o o o o
/// ```
#[test]
fn game_over_no_reachable_square() {
    let p = pos("7/7/7/-------/-------/-------/xxxoooo x 0 1");
    assert_eq!(p.outcome(), Outcome::win(Side::Second, Reason::NoMoves));
    assert!(moves(&p).is_empty());
}

/// ```text
/// 7 x . . . . . o       clock at 100: drawn, no moves
/// 1 o . . . . . x
/// ```
#[test]
fn game_over_halfmove_100() {
    let p = pos("x5o/7/7/7/7/7/o5x x 100 1");
    assert_eq!(p.outcome(), Outcome::draw(Reason::MoveLimit));
    assert!(moves(&p).is_empty());
    // at 99 a jump reaches 100 and ends the game; a clone resets the clock
    let p = pos("x5o/7/7/7/7/7/o5x x 99 1");
    assert_eq!(p.outcome(), Outcome::Ongoing);
    assert_eq!(play(&p, "a7a5").outcome(), Outcome::draw(Reason::MoveLimit));
    assert_eq!(play(&p, "a6").outcome(), Outcome::Ongoing);
    // a natural end beats the move limit
    let p = pos("7/7/7/7/7/7/x6 o 100 1");
    assert_eq!(p.outcome(), Outcome::win(Side::First, Reason::NoPieces));
}

#[test]
fn fullmove_number_grows_after_o() {
    let p = Position::start();
    let a = play(&p, "a6");
    assert_eq!(a.fullmove_number(), 1);
    let b = play(&a, "g6");
    assert_eq!(b.fullmove_number(), 2);
    assert_eq!(b.fen(), "x5o/x5o/7/7/7/7/o5x x 0 2");
}

#[test]
fn move_text_forms() {
    let p = Position::start();
    assert_eq!(p.parse_move("a6"), Ok(Move::Clone { to: sq("a6") }));
    assert_eq!(p.parse_move("A7A6"), Ok(Move::Clone { to: sq("a6") }));
    assert_eq!(
        p.parse_move(" g1e3 "),
        Ok(Move::Jump {
            from: sq("g1"),
            to: sq("e3")
        })
    );
    for mv in moves(&p) {
        assert_eq!(p.parse_move(&p.move_to_string(mv)), Ok(mv));
        let bits = p.encode_move(mv);
        assert_ne!(bits, 0);
        assert_eq!(p.decode_move(bits), Some(mv));
    }
    assert_eq!(p.move_to_string(Move::Pass), "0000");
    assert_eq!(sq("G7").index(), 48);
    assert_eq!(Square::parse("h1"), None);
    assert_eq!(p.decode_move(p.encode_move(Move::Pass)), Some(Move::Pass));
    assert_eq!(p.decode_move(0), None);
}

#[test]
fn illegal_move_reasons() {
    let p = Position::start();
    let err = |t: &str| p.parse_move(t).unwrap_err().0;
    assert!(err("g7").contains("occupied"), "{}", err("g7"));
    assert!(err("a7g7").contains("too far"));
    assert!(err("a7a4").contains("too far"));
    assert!(err("g7g6").contains("not your stone"));
    assert!(err("c3c4").contains("not your stone"));
    assert!(err("d4").contains("no x stone next to"));
    assert!(err("0000").contains("pass is illegal"));
    assert!(err("a7a7").contains("same square"));
    // A rule broken reads like tafl's `illegal move d2-d7: …`; a malformed text does not.
    assert!(err("d4").starts_with("illegal move d4: "), "{}", err("d4"));
    assert!(
        err("A7A4").starts_with("illegal move a7a4: "),
        "{}",
        err("A7A4")
    );
    assert!(
        err("0000").starts_with("illegal move 0000: "),
        "{}",
        err("0000")
    );
    assert!(!err("h1").starts_with("illegal move"));
    assert!(err("h1").contains("not a clone"));
    assert!(err("").contains("not a clone"));
    assert!(err("a7é5").contains("not a clone"));
    let b = pos("x5o/7/7/3-3/7/7/o5x x 0 1");
    assert!(b.parse_move("a7a5").is_ok());
    let b = pos("x5o/-6/7/7/7/7/o5x x 0 1");
    assert!(b.parse_move("a6").unwrap_err().0.contains("blocked"));
}

#[test]
fn fen_defaults_and_round_trip() {
    assert_eq!(pos("x5o/7/7/7/7/7/o5x").fen(), "x5o/7/7/7/7/7/o5x x 0 1");
    assert_eq!(pos("x5o/7/7/7/7/7/o5x o").fen(), "x5o/7/7/7/7/7/o5x o 0 1");
    assert_eq!(
        pos("x5o/7/7/7/7/7/o5x o 7").fen(),
        "x5o/7/7/7/7/7/o5x o 7 1"
    );
    let f = "x-1-1-o/-1-1-1-/1-1-1-1/-1-1-1-/1-1-1-1/-1-1-1-/o-1-1-x x 3 9";
    assert_eq!(pos(f).fen(), f);
    assert_eq!(Position::start().fen(), skald::ataxx::START_FEN);
    assert_eq!(Position::start(), pos(skald::ataxx::START_FEN));
}

#[test]
fn fen_errors() {
    let err = |f: &str| Position::from_fen(f).unwrap_err().0;
    assert!(err("").contains("empty"));
    assert!(err("x5o/7/7/7/7/o5x").contains("6 ranks"));
    assert!(err("x5o/7/7/7/7/7/7/o5x").contains("8 ranks"));
    assert!(
        err("x6o/7/7/7/7/7/o5x").contains("rank 7"),
        "{}",
        err("x6o/7/7/7/7/7/o5x")
    );
    assert!(err("x5o/7/6/7/7/7/o5x").contains("rank 5 has 6 squares"));
    assert!(err("x5o/7/7/7/7/7/o5y").contains("unknown character 'y'"));
    assert!(err("x5o/7/7/7/7/7/o5x a").contains("side to move is 'a'"));
    assert!(err("x5o/7/7/7/7/7/o5x x -1").contains("halfmove clock"));
    assert!(err("x5o/7/7/7/7/7/o5x x 0 z").contains("move number"));
    assert!(err("x5o/7/7/7/7/7/o5x x 0 0").contains("move number"));
    assert!(err("x5o/7/7/7/7/7/o5x x 0 1 5").contains("extra field"));
    assert!(err("x05o/7/7/7/7/7/o5x").contains("0"));
    assert!(err("x99999999999999o/7/7/7/7/7/o5x").contains("rank 7"));
}

#[test]
fn game_trait_basics() {
    let p = Position::start();
    assert_eq!(p.variant_name(), "ataxx");
    assert_eq!(p.repetition_rule(), RepetitionRule::Ignored);
    assert!(!p.null_move_allowed());
    // A symmetric position: only the side to move's tempo, half of a clone's one stone.
    assert_eq!(p.evaluate(), 50);
    let terms = p.eval_terms();
    assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), p.evaluate());
    assert_eq!(
        p.board().to_string(),
        "7 x . . . . . o\n6 . . . . . . .\n5 . . . . . . .\n4 . . . . . . .\n\
         3 . . . . . . .\n2 . . . . . . .\n1 o . . . . . x\n  a b c d e f g\n"
    );
    let mut n = p;
    n.make_null_move();
    assert_eq!(n.side_to_move(), Side::Second);
    assert_eq!(n.hash(), n.compute_hash());
    // after x clones, x is a stone up: o (to move) sees -100 material
    let c = play(&p, "b6");
    assert!(c.eval_terms().contains(&("material", -100)));
    assert!(!c.is_tactical(Move::Pass));
}
