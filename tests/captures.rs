//! `Game::captures` (through `Session::last_captures`) against the board: in random games of
//! every variant, the squares a move reports are exactly the opponent's pieces that changed,
//! each with the piece that stood there, top rank first.

use skald::engine::{Board, Piece, Square, new_session};
use skald::rng::SeededRng;
use skald::variant::Variant;

/// The opponent's pieces that the board shows gone or turned over after a move, as
/// (square, piece), top rank first: what records and HTP once found by comparing boards.
fn board_difference(before: &Board, after: &Board, theirs: &[Piece]) -> Vec<(Square, Piece)> {
    let mut gone = Vec::new();
    for rank in (0..before.size()).rev() {
        for file in 0..before.size() {
            let sq = Square::new(file, rank);
            if let Some(p) = before.piece(sq)
                && theirs.contains(&p)
                && after.piece(sq) != Some(p)
            {
                gone.push((sq, p));
            }
        }
    }
    gone
}

#[test]
fn captures_are_the_opponents_pieces_the_move_takes() {
    let mut rng = SeededRng::new(20);
    let mut captured = 0;
    for variant in Variant::ALL {
        for _game in 0..20 {
            let mut s = new_session(variant);
            for _ply in 0..200 {
                let moves = s.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let theirs: &[Piece] = match (variant.is_tafl(), s.side_to_move().index()) {
                    (true, 0) => &[Piece::Defender, Piece::King],
                    (true, _) => &[Piece::Attacker],
                    (false, 0) => &[Piece::O],
                    (false, _) => &[Piece::X],
                };
                let before = s.board();
                let mv = moves[rng.below(moves.len() as u64) as usize];
                s.play(mv).unwrap();
                let found: Vec<(Square, Piece)> = s
                    .last_captures()
                    .into_iter()
                    .map(|c| (c.square, c.piece))
                    .collect();
                assert_eq!(
                    found,
                    board_difference(&before, &s.board(), theirs),
                    "{variant} {mv} in {}",
                    s.fen()
                );
                captured += found.len();
            }
        }
    }
    assert!(
        captured > 100,
        "the games captured too little to test: {captured}"
    );
}
