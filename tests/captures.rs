//! `Game::captures` (through `Session::last_captures`) against the board: in random games of
//! every variant, the squares a move reports are exactly the opponent's pieces that changed,
//! each with the letter of the piece that stood there, top rank first.

use skald::engine::new_session;
use skald::rng::SeededRng;
use skald::variant::Variant;

/// The opponent's pieces that the board shows gone or turned over after a move, as
/// (square, letter), top rank first: what records and HTP once found by comparing boards.
fn board_difference(
    before: &[Vec<Option<char>>],
    after: &[Vec<Option<char>>],
    theirs: &[char],
) -> Vec<(String, char)> {
    let size = before.len();
    let mut gone = Vec::new();
    for (r, (rb, ra)) in before.iter().zip(after).enumerate() {
        for (f, (b, a)) in rb.iter().zip(ra).enumerate() {
            if let Some(p) = *b
                && theirs.contains(&p)
                && *a != Some(p)
            {
                gone.push((format!("{}{}", (b'a' + f as u8) as char, size - r), p));
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
                let theirs: &[char] = match (variant.is_tafl(), s.side_to_move().index()) {
                    (true, 0) => &['T', 'K'],
                    (true, _) => &['t'],
                    (false, 0) => &['o'],
                    (false, _) => &['x'],
                };
                let before = s.board_rows();
                let mv = &moves[rng.below(moves.len() as u64) as usize];
                s.play(mv).unwrap();
                let found: Vec<(String, char)> = s
                    .last_captures()
                    .into_iter()
                    .map(|c| (c.square, c.piece))
                    .collect();
                assert_eq!(
                    found,
                    board_difference(&before, &s.board_rows(), theirs),
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
