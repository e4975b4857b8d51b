//! One complete game per variant, engine against itself over the protocol at a small depth.
//! Every `bestmove` is checked for legality with the library, and the game must end with the
//! result the rules give: the engine answers `bestmove (none)` exactly when the game is over.

mod common;

use common::EngineProcess;
use skald::engine::new_session;
use skald::game::Outcome;
use skald::variant::Variant;

/// Plies after which a game is cut short (a safety net; games end long before by the rules).
const MAX_PLIES: usize = 600;

fn self_play(variant: Variant, go: &str) {
    let mut engine = EngineProcess::start(&[]);
    engine.send("uci");
    engine.expect_prefix("uciok");
    engine.send(&format!("setoption name UCI_Variant value {variant}"));
    engine.send("ucinewgame");
    let mut game = new_session(variant);
    let mut moves: Vec<String> = Vec::new();
    loop {
        let cmd = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        engine.send(&cmd);
        let best = engine.go(go);
        let outcome = game.outcome();
        if best == "(none)" {
            assert!(
                outcome.is_decided(),
                "{variant}: engine says the game is over after {moves:?}, rules say {outcome:?}"
            );
            break;
        }
        assert_eq!(
            outcome,
            Outcome::Ongoing,
            "{variant}: engine moved {best} in a finished game after {moves:?}"
        );
        let played = game
            .play_text(&best)
            .unwrap_or_else(|e| panic!("{variant}: illegal bestmove {best} after {moves:?}: {e}"));
        assert_eq!(
            played.to_string(),
            best,
            "{variant}: bestmove not in canonical notation"
        );
        moves.push(best);
        assert!(
            moves.len() < MAX_PLIES,
            "{variant}: game did not end in {MAX_PLIES} plies"
        );
    }
    let Outcome::Decided { reason, .. } = game.outcome() else {
        unreachable!()
    };
    engine.send("d");
    let state = engine.expect_prefix("Outcome: ");
    assert!(
        state.contains(&reason.to_string()),
        "{variant}: engine reports '{state}', rules say {reason}"
    );
    engine.send("quit");
}

#[test]
fn brandubh_self_play() {
    self_play(Variant::Brandubh, "go depth 3");
}

#[test]
fn tablut_self_play() {
    self_play(Variant::Tablut, "go depth 2");
}

#[test]
fn tawlbwrdd_self_play() {
    self_play(Variant::Tawlbwrdd, "go depth 2");
}

#[test]
fn ataxx_self_play() {
    self_play(Variant::Ataxx, "go depth 2");
}

/// Copenhagen 11×11 (copenhagen.md): the rules with most endings (edge forts, encirclement,
/// "cannot escape", the defenders' forbidden boards, the 140-ply draw).
#[test]
fn copenhagen_self_play() {
    self_play(Variant::Copenhagen, "go depth 2");
}

#[test]
fn copenhagen13_self_play() {
    self_play(Variant::Copenhagen13, "go depth 2");
}
