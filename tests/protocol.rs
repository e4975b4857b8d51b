//! The engine protocol, driven through the real binary (protocol.md).

mod common;

use common::EngineProcess;
use std::time::{Duration, Instant};

const START: [(&str, &str); 4] = [
    ("brandubh", "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1"),
    (
        "tablut",
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1",
    ),
    (
        "tawlbwrdd",
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
    ),
    ("ataxx", "x5o/7/7/7/7/7/o5x x 0 1"),
];

#[test]
fn uci_lists_options_and_ends_with_uciok() {
    let mut e = EngineProcess::start(&[]);
    e.send("uci");
    e.expect_prefix("uciok");
    let t = e.transcript.join("\n");
    assert!(t.contains("id name skald"), "{t}");
    for opt in [
        "option name UCI_Variant type combo",
        "option name Hash type spin default 16",
        "option name Threads type spin",
        "option name Move Overhead",
    ] {
        assert!(t.contains(opt), "missing {opt}: {t}");
    }
}

#[test]
fn uai_switches_to_ataxx_and_ends_with_uaiok() {
    let mut e = EngineProcess::start(&[]);
    e.send("uai");
    e.expect(Duration::from_secs(10), |l| l == "uaiok");
    assert_eq!(e.fen(), "x5o/7/7/7/7/7/o5x x 0 1");
}

#[test]
fn every_variant_answers_a_legal_bestmove_from_the_start() {
    for (variant, fen) in START {
        let mut e = EngineProcess::start(&[]);
        e.send(&format!("setoption name uci_variant value {variant}"));
        e.send("position startpos");
        assert_eq!(e.fen(), fen);
        let mv = e.go("go depth 3");
        let mut session = skald::protocol::session::new_session(variant.parse().unwrap());
        session
            .play(&mv)
            .unwrap_or_else(|err| panic!("{variant}: {mv} illegal: {err}"));
        assert!(
            e.transcript.iter().any(|l| l.starts_with("info depth 3")),
            "{:?}",
            e.transcript
        );
    }
}

#[test]
fn bad_input_is_an_error_and_keeps_the_position() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value brandubh");
    e.send("position startpos moves d2-f2");
    let before = e.fen();
    for bad in [
        "position startpos moves d2-f2 f4-f1", // illegal second move
        "position startpos moves zz",          // malformed move
        "position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3 a 0 1", // six ranks
        "position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 x 0 1", // Ataxx side letter
        "position fen",
        "position",
        "position sideways",
        "frobnicate the board",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Variant value chess",
        "go depth x",
        "go sideways",
        "perft",
    ] {
        e.send(bad);
        let replies = e.sync();
        assert!(
            replies.iter().any(|l| l.starts_with("info string error: ")),
            "no error for {bad:?}: {replies:?}"
        );
        assert_eq!(e.fen(), before, "position changed by {bad:?}");
    }
}

#[test]
fn garbage_lines_never_kill_the_engine() {
    let mut e = EngineProcess::start(&[]);
    e.send_bytes(b"\n\n   \t \r\n\xff\xfe garbage\r\nGO DEPTH\r\n");
    e.send(&"x".repeat(2_000_000));
    e.send("ISREADY");
    e.expect(Duration::from_secs(10), |l| l == "readyok");
    e.send("uci");
    e.expect_prefix("uciok");
}

#[test]
fn game_over_answers_bestmove_none() {
    let mut e = EngineProcess::start(&[]);
    // Brandubh: the king stands on a corner: the defenders have won.
    e.send("position fen K6/7/7/7/7/3t3/7 a 0 1");
    assert_eq!(e.go("go depth 3"), "(none)");
    // Ataxx: x has no stones left.
    e.send("setoption name UCI_Variant value ataxx");
    e.send("position fen 6o/7/7/7/7/7/7 x 0 1");
    assert_eq!(e.go("go depth 3"), "(none)");
}

#[test]
fn ataxx_forced_pass_is_0000() {
    let mut e = EngineProcess::start(&[]);
    e.send("uai");
    e.expect(Duration::from_secs(10), |l| l == "uaiok");
    e.send("position fen 7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(e.go("go depth 2"), "0000");
}

#[test]
fn stop_ends_an_infinite_search_with_one_bestmove() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value tawlbwrdd");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.expect(Duration::from_secs(5), |l| l == "readyok");
    let sent = Instant::now();
    e.send("stop");
    e.expect(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    let latency = sent.elapsed();
    assert!(latency < Duration::from_secs(2), "stop took {latency:?}");
    let replies = e.sync();
    assert!(
        !replies.iter().any(|l| l.starts_with("bestmove")),
        "{replies:?}"
    );
}

#[test]
fn quit_exits_during_a_search() {
    let mut e = EngineProcess::start(&[]);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn end_of_input_lets_a_finite_search_finish() {
    let mut e = EngineProcess::start(&[]);
    e.send("position startpos");
    e.send("go depth 4");
    e.close_stdin();
    e.expect(Duration::from_secs(60), |l| l.starts_with("bestmove"));
    assert!(e.wait_exit(Duration::from_secs(10)).success());
}

#[test]
fn tablut_repetition_in_the_moves_list_is_a_draw() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value tablut");
    // Both sides shuffle a piece out and back: the start position occurs a second time.
    e.send("position startpos moves a4-b4 c5-c6 b4-a4 c6-c5");
    e.send("d");
    let outcome = e.expect_prefix("Outcome:");
    assert!(outcome.contains("draw (repetition)"), "{outcome}");
    assert_eq!(e.go("go depth 2"), "(none)");
}

#[test]
fn perft_divide_over_the_protocol() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value ataxx");
    e.send("go perft 3");
    let line = e.expect_prefix("Nodes searched:");
    assert_eq!(line, "Nodes searched: 6460");
}
