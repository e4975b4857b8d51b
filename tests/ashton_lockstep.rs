//! Ashton tablut in lockstep with the Tablut competition server's own rules code
//! (`GameAshtonTablut.checkMove` of AGalassi/TablutCompetition): random games played through the
//! server's classes, recorded ply by ply (the number of legal moves, the move played, the
//! server's turn after it), are replayed through skald's `ashton` rules, which must find the
//! same number of legal moves (the same moves, where the record lists them) and end each game
//! the same way.
//!
//! `tests/data/ashton_lockstep.txt` is a small record kept with the tests. A larger one, with
//! the legal-move lists, is checked when `SKALD_ASHTON_LOCKSTEP` names it (the server's
//! classes and the program that records games live outside this repository).
//!
//! Record format: `game <n>` starts a game (white, skald's defenders, to move in the start
//! position); each line after it is one ply: `<legal move count> <move played> <turn after>`
//! and optionally the comma-separated sorted legal moves; the turn is the server's short
//! forms `W`, `B`, `WW` (white won), `BW` (black won) or `D` (draw). `0 - NOMOVE` ends a game whose side to move has no
//! legal move. The server never remembers the start position for its repetition rule (only
//! positions reached by a move), so after the first move the replay starts its history anew
//! from that position.

use skald::engine::{Session, new_session};
use skald::variant::Variant;

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
fn a_larger_record_agrees_with_the_server() {
    let Ok(path) = std::env::var("SKALD_ASHTON_LOCKSTEP") else {
        eprintln!("skipped: SKALD_ASHTON_LOCKSTEP names no record");
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (games, plies) = replay(&path, &text);
    eprintln!("{path}: {games} games, {plies} plies agree");
}
