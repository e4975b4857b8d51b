//! A complete Ataxx game driven exactly the way cuteataxx drives an engine (/work/shared's notes,
//! protocol.md "UAI"): `uai` and the exact `uaiok`, `setoption`s with lower-case names, `isready`,
//! `uainewgame`, `isready`, then per move `position fen <fen>` with no move list, `isready`, and
//! `go btime … wtime … binc … winc …` with the clocks kept by the harness; `stop`, `quit` at the
//! end. Every move is checked with skald's own rules (as a harness would with libataxx).
//!
//! The outcome does not depend on the machine's speed: the harness keeps the clocks (time used
//! subtracted, increment added) but never declares a loss on time (a clock that runs out is sent
//! as 1 ms, which the engine must still answer); it only requires each `bestmove` within 120 s.
//! Losses on time are measured by `scripts/time-forfeit.sh`, not by the test suite.

mod common;

use common::EngineProcess;
use skald::engine::new_session;
use skald::game::{Outcome, Side};
use std::time::{Duration, Instant};

fn ready(e: &mut EngineProcess) {
    e.send("isready");
    e.expect(Duration::from_secs(10), |l| l == "readyok");
}

#[test]
fn a_full_game_the_cuteataxx_way() {
    let mut e = EngineProcess::start(&[]);
    e.send("uai");
    e.expect(Duration::from_secs(10), |l| l == "uaiok");
    e.send("setoption name hash value 8");
    e.send("setoption name threads value 1");
    e.send("setoption name move overhead value 30");
    ready(&mut e);
    e.send("uainewgame");
    ready(&mut e);
    assert!(
        !e.transcript.iter().any(|l| l.contains("error")),
        "{:?}",
        e.transcript
    );

    let mut game = new_session("ataxx".parse().unwrap());
    // Milliseconds: x (btime) and o (wtime), and the increment.
    let mut clock = [1500i64, 1500i64];
    let inc = 20i64;
    let mut plies = 0;
    while game.outcome() == Outcome::Ongoing {
        let fen = game.fen();
        e.send(&format!("position fen {fen}"));
        ready(&mut e);
        let side = game.side_to_move();
        let t = Instant::now();
        let mv = e.go(&format!(
            "go btime {} wtime {} binc {inc} winc {inc}",
            clock[0], clock[1]
        ));
        let used = t.elapsed().as_millis() as i64;
        let i = usize::from(side == Side::Second);
        clock[i] = (clock[i] - used).max(1) + inc;
        game.play_text(&mv)
            .unwrap_or_else(|err| panic!("{fen}: illegal bestmove {mv}: {err}"));
        plies += 1;
        assert!(plies < 1000, "the game does not end");
    }
    e.send("stop");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
    assert!(
        !e.transcript.iter().any(|l| l.contains("error")),
        "{:?}",
        e.transcript
    );
    println!(
        "cuteataxx-style game: {plies} plies, {:?}, clocks left {clock:?}",
        game.outcome()
    );
}
