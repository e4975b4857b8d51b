//! The 1,752 Copenhagen 11×11 games of aagenielsen.dk replayed through skald's rules, against
//! hnefatafl.org's own verdict on each (hnefatafl-copenhagen 6.4.1, the rules of the server
//! skald plays on as a bot and that `skald htp` stands in for). Data and its source:
//! `tests/data/copenhagen/README.md`.
//!
//! For every game skald must play exactly the moves 6.4.1 played, capture what the record says
//! each move captured, refuse the next move where 6.4.1 refused it (a defender move that
//! recreates an earlier board) or call the game over where 6.4.1 did, and end in the same state
//! (ongoing, attackers win, defenders win, draw).

use skald::engine::session::{MoveError, Session, new_session};
use skald::engine::{Outcome, Side};
use skald::variant::Variant;

const GAMES: &str = include_str!("data/copenhagen/aagenielsen.csv");
const REFERENCE: &str = include_str!("data/copenhagen/reference-6.4.1.csv");

/// One game of the record: each move in skald's notation with the squares the record says it
/// captured. A game lost on time ends in the word `timeout`, which is no move (6.4.1's reader
/// skips it too).
fn moves_of(line: &str) -> Vec<(String, Vec<String>)> {
    let moves = line.split(',').next().unwrap_or("");
    moves
        .split_ascii_whitespace()
        .filter(|m| m.contains('-'))
        .map(|m| {
            let mut parts = m.split('x');
            let mv = parts.next().unwrap().to_string();
            let mut caps: Vec<String> = parts.map(str::to_string).collect();
            caps.sort();
            caps.dedup();
            (mv, caps)
        })
        .collect()
}

/// 6.4.1's verdict on one game.
struct Verdict {
    plies: usize,
    status: String,
    stop: String,
}

fn verdicts() -> Vec<Verdict> {
    REFERENCE
        .lines()
        .filter(|l| !l.starts_with('#'))
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 4, "reference line {l}");
            assert_eq!(f[0].parse::<usize>().unwrap(), i + 1, "reference line {l}");
            Verdict {
                plies: f[1].parse().unwrap(),
                status: f[2].to_string(),
                stop: f[3].to_string(),
            }
        })
        .collect()
}

/// The state of a game in 6.4.1's words.
fn status_of(session: &dyn Session) -> &'static str {
    match session.outcome() {
        Outcome::Ongoing => "ongoing",
        Outcome::Decided {
            winner: Some(Side::First),
            ..
        } => "attackers",
        Outcome::Decided {
            winner: Some(Side::Second),
            ..
        } => "defenders",
        Outcome::Decided { winner: None, .. } => "draw",
    }
}

/// Replays game `number` (its line in the file); `Err` says where skald and 6.4.1 part.
fn replay(number: usize, line: &str, want: &Verdict) -> Result<(), String> {
    let moves = moves_of(line);
    let mut session = new_session(Variant::Copenhagen);
    for (i, (mv, caps)) in moves.iter().take(want.plies).enumerate() {
        session
            .play(mv)
            .map_err(|e| format!("ply {}: {mv} refused ({e}); 6.4.1 played it", i + 1))?;
        // The record does not mark the capture of the king, which ends a game.
        let mut got: Vec<String> = session
            .last_captures()
            .into_iter()
            .filter(|c| c.piece != 'K')
            .map(|c| c.square)
            .collect();
        got.sort();
        if &got != caps {
            return Err(format!(
                "ply {}: {mv} captured {got:?}, the record says {caps:?}",
                i + 1
            ));
        }
    }
    let status = status_of(session.as_ref());
    if status != want.status {
        return Err(format!(
            "after {} plies skald says {status} ({:?}), 6.4.1 {}",
            want.plies,
            session.outcome(),
            want.status
        ));
    }
    let next = moves.get(want.plies).map(|(mv, _)| mv);
    match (want.stop.as_str(), next) {
        ("none", None) => Ok(()),
        ("repetition", Some(mv)) if session.legal_moves().contains(mv) => Err(format!(
            "ply {}: {mv} is among the legal moves; 6.4.1 refuses it as a repetition",
            want.plies + 1
        )),
        ("repetition", Some(mv)) => match session.play(mv) {
            Err(MoveError::RepeatsBoard(_)) => Ok(()),
            other => Err(format!(
                "ply {}: {mv} should be refused as a repetition, skald: {other:?}",
                want.plies + 1
            )),
        },
        ("game-over", Some(_)) if !session.legal_moves().is_empty() => Err(format!(
            "after {} plies the game is over, yet skald lists legal moves",
            want.plies
        )),
        ("game-over", Some(mv)) => match session.play(mv) {
            Err(MoveError::GameOver(_)) => Ok(()),
            other => Err(format!(
                "ply {}: {mv} should find the game over, skald: {other:?}",
                want.plies + 1
            )),
        },
        (stop, next) => Err(format!(
            "game {number}: reference stop {stop} with next move {next:?}"
        )),
    }
}

#[test]
fn aagenielsen_games_agree_with_hnefatafl_copenhagen_6_4_1() {
    let verdicts = verdicts();
    let games: Vec<&str> = GAMES.lines().collect();
    assert_eq!(games.len(), 1752);
    assert_eq!(verdicts.len(), games.len());
    let failures: Vec<String> = games
        .iter()
        .zip(&verdicts)
        .enumerate()
        .filter_map(|(i, (line, want))| {
            replay(i + 1, line, want)
                .err()
                .map(|e| format!("game {}: {e}", i + 1))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} games differ from 6.4.1:\n{}",
        failures.len(),
        games.len(),
        failures.join("\n")
    );
}

/// The table's own totals, so that a truncated or edited copy is noticed.
#[test]
fn the_reference_table_is_whole() {
    let v = verdicts();
    let count = |status: &str, stop: &str| {
        v.iter()
            .filter(|x| x.status == status && x.stop == stop)
            .count()
    };
    assert_eq!(count("ongoing", "none"), 1292);
    assert_eq!(count("ongoing", "repetition"), 34);
    assert_eq!(count("attackers", "none"), 65);
    assert_eq!(count("attackers", "game-over"), 66);
    assert_eq!(count("defenders", "none"), 274);
    assert_eq!(count("draw", "game-over"), 21);
}

/// Random games that 6.4.1 played by its own move lists (11×11 and 13×13), as
/// `size;moves;legal move counts;status` lines (`tests/data/copenhagen/README.md`): before each
/// ply and after the last, skald must have as many legal moves as 6.4.1 (repetitions the
/// defenders may not make left out), capture the same pieces, and end in the same state.
fn replay_random(line: &str) -> Result<(), String> {
    let f: Vec<&str> = line.split(';').collect();
    let variant = match f[0] {
        "11" => Variant::Copenhagen,
        "13" => Variant::Copenhagen13,
        other => return Err(format!("size {other}")),
    };
    let moves = moves_of(f[1]);
    let counts: Vec<usize> = f[2].split(' ').map(|c| c.parse().unwrap()).collect();
    let mut session = new_session(variant);
    for (i, (mv, caps)) in moves.iter().enumerate() {
        let legal = session.legal_moves().len();
        if legal != counts[i] {
            return Err(format!(
                "ply {}: {legal} legal moves, 6.4.1 {}",
                i + 1,
                counts[i]
            ));
        }
        session
            .play(mv)
            .map_err(|e| format!("ply {}: {mv} refused: {e}", i + 1))?;
        let mut got: Vec<String> = session
            .last_captures()
            .into_iter()
            .map(|c| c.square)
            .collect();
        got.sort();
        if &got != caps {
            return Err(format!(
                "ply {}: {mv} captured {got:?}, 6.4.1 {caps:?}",
                i + 1
            ));
        }
    }
    let legal = session.legal_moves().len();
    let status = status_of(session.as_ref());
    if legal != counts[moves.len()] || status != f[3] {
        return Err(format!(
            "at the end: {legal} legal moves and {status}, 6.4.1 {} and {}",
            counts[moves.len()],
            f[3]
        ));
    }
    Ok(())
}

#[test]
fn random_games_agree_with_hnefatafl_copenhagen_6_4_1() {
    let data = include_str!("data/copenhagen/random-6.4.1.txt");
    let failures: Vec<String> = data
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            replay_random(l)
                .err()
                .map(|e| format!("line {}: {e}", i + 1))
        })
        .collect();
    assert_eq!(data.lines().count(), 240);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Positions near edge forts (the king on an edge, defenders around him, attackers anywhere),
/// each with one legal move and 6.4.1's judgement of the position after it
/// (`fen;move;status;legal moves in the position`; `tests/data/copenhagen/README.md`). The
/// move is made on the position whatever skald thinks of the position before it (6.4.1 judges
/// only the result), and the result must agree; where skald's session can play it (the
/// position is not over yet), the number of legal moves must agree too.
#[test]
fn positions_near_edge_forts_agree_with_hnefatafl_copenhagen_6_4_1() {
    use skald::game::Game;
    use skald::tafl::{Move, Position, copenhagen_rules, parse_square};
    let data = include_str!("data/copenhagen/forts-6.4.1.txt");
    let mut failures = Vec::new();
    let mut forts = 0;
    for line in data.lines() {
        let f: Vec<&str> = line.split(';').collect();
        let (fen, text, want) = (f[0], f[1], f[2]);
        let pos = Position::from_fen(copenhagen_rules(), fen).unwrap();
        let (a, b) = text.split_once('-').unwrap();
        let mv = Move {
            from: parse_square(a, 11).unwrap(),
            to: parse_square(b, 11).unwrap(),
        };
        let mut after = pos;
        after.make_move(mv);
        let mut session = new_session(Variant::Copenhagen);
        session.set_position(Some(fen), &[]).unwrap();
        if !session.outcome().is_decided() {
            let legal = session.legal_moves();
            if legal.len() != f[3].parse::<usize>().unwrap() || !legal.iter().any(|m| m == text) {
                failures.push(format!(
                    "{fen}: {} legal moves, 6.4.1 {}",
                    legal.len(),
                    f[3]
                ));
            }
            session.play(text).unwrap();
            assert_eq!(session.outcome(), after.outcome(), "{line}");
        }
        let got = match after.outcome() {
            Outcome::Ongoing => "ongoing",
            Outcome::Decided {
                winner: Some(Side::First),
                ..
            } => "attackers",
            Outcome::Decided {
                winner: Some(Side::Second),
                reason,
            } => {
                forts += usize::from(reason == skald::engine::Reason::EdgeFort);
                "defenders"
            }
            Outcome::Decided { winner: None, .. } => "draw",
        };
        if got != want {
            failures.push(format!(
                "{fen} {text}: skald {:?}, 6.4.1 {want}",
                after.outcome()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(forts > 50, "only {forts} forts");
}
