//! The engine-protocol faults found from outside (issue 19), each as the transcript that showed
//! it, against the real binary. Every wait is for an event (a line, `readyok`), with a timeout
//! that only means "hung"; nothing depends on the machine's speed.

mod common;

use common::EngineProcess;
use skald::engine::new_session;
use skald::variant::Variant;
use std::time::Duration;

/// Long enough to mean "the engine hangs", never "the engine is slow".
const HUNG: Duration = Duration::from_secs(60);

fn uai() -> EngineProcess {
    let mut e = EngineProcess::start(&[]);
    e.send("uai");
    e.expect_prefix("uaiok");
    e
}

/// Reads lines up to and including the next `bestmove`; returns the lines before it and it.
fn until_bestmove(e: &mut EngineProcess) -> (Vec<String>, String) {
    let mut before = Vec::new();
    loop {
        let line = e.expect(HUNG, |_| true);
        if line.starts_with("bestmove") {
            return (before, line);
        }
        before.push(line);
    }
}

/// `go infinite`, then `position` of a finished game and `go`: the command loop waited inside
/// the second `go` for the first search, which only the `stop` it never read could end. Now
/// `stop` ends the first search, and the second answers `bestmove (none)` in turn.
#[test]
fn a_go_on_a_finished_game_behind_go_infinite_does_not_deadlock() {
    let mut e = uai();
    e.send("position startpos");
    e.send("go infinite");
    e.send("position fen x6/7/7/7/7/7/7 o 0 1");
    e.send("go");
    e.send("stop");
    let (info, first) = until_bestmove(&mut e);
    assert!(info.iter().any(|l| l.starts_with("info depth")), "{info:?}");
    let mv = first.split_whitespace().nth(1).unwrap();
    assert!(
        new_session(Variant::Ataxx)
            .legal_moves()
            .contains(&mv.to_string())
    );
    let (info, second) = until_bestmove(&mut e);
    assert_eq!(second, "bestmove (none)");
    assert!(info.iter().any(|l| l.contains("game over")), "{info:?}");
    assert!(e.sync().is_empty());
    e.send("quit");
    assert!(e.wait_exit(HUNG).success());
}

/// `go ponder` on a finished game waits for `ponderhit` (or `stop`), `go infinite` and a `go`
/// with no limit of its own (a ponder search without one too) for `stop`, as on any other
/// position, before their `bestmove (none)` (protocol.md).
#[test]
fn go_ponder_on_a_finished_game_waits_for_ponderhit() {
    let mut e = uai();
    e.send("position fen x6/7/7/7/7/7/7 o 0 1");
    for (go, release) in [
        ("go ponder btime 1000 wtime 1000", "ponderhit"),
        ("go ponder", "stop"),
        ("go infinite", "stop"),
        ("go", "stop"),
    ] {
        e.send(go);
        // Nothing may be answered before the release: `isready` comes back first.
        let before = e.sync();
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {before:?}"
        );
        e.send(release);
        let (_, best) = until_bestmove(&mut e);
        assert_eq!(best, "bestmove (none)", "{go}");
    }
}

/// Every `go` answers with a searched move: at least depth 1 and its `info` line, whatever the
/// node limit, and also for a `go` queued behind a running search and stopped before it began.
#[test]
fn every_bestmove_has_a_completed_depth_behind_it() {
    for (variant, start) in [("ataxx", None), ("brandubh", None), ("copenhagen", None)] {
        let mut e = EngineProcess::start(&[]);
        e.send("uci");
        e.expect_prefix("uciok");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(start.unwrap_or("position startpos"));
        let legal = new_session(variant.parse::<Variant>().unwrap()).legal_moves();
        for go in ["go nodes 1", "go nodes 10", "go depth 1"] {
            e.send(go);
            let (info, best) = until_bestmove(&mut e);
            assert!(
                info.iter().any(|l| l.starts_with("info depth 1 ")),
                "{variant} {go}: {info:?}"
            );
            let mv = best.split_whitespace().nth(1).unwrap();
            assert!(legal.contains(&mv.to_string()), "{variant} {go}: {best}");
        }
        // A go queued behind an infinite search, both stopped at once.
        e.send("go infinite");
        e.send("go depth 30");
        e.send("stop");
        for _ in 0..2 {
            let (info, best) = until_bestmove(&mut e);
            assert!(
                info.iter().any(|l| l.starts_with("info depth")),
                "{variant}: {info:?}"
            );
            let mv = best.split_whitespace().nth(1).unwrap();
            assert!(legal.contains(&mv.to_string()), "{variant}: {best}");
        }
        e.send("quit");
        assert!(e.wait_exit(HUNG).success());
    }
}

/// `perft` and `bench` are read past: `isready` is answered while they run, `stop` ends them
/// (they say so), `quit` ends the process.
#[test]
fn perft_and_bench_can_be_stopped() {
    let mut e = EngineProcess::start(&[]);
    e.send("uci");
    e.expect_prefix("uciok");
    e.send("setoption name UCI_Variant value tablut");
    // perft 9 of tablut is about 10^16 leaves: it cannot end by itself.
    e.send("perft 9");
    e.send("go depth 1");
    e.expect_prefix("info string error: go ignored: perft is running");
    e.send("stop");
    e.expect_prefix("info string perft stopped");
    e.send("bench 30");
    e.send("stop");
    e.expect_prefix("info string bench stopped");
    assert!(e.sync().is_empty());
    e.send("perft 9");
    e.send("quit");
    assert!(e.wait_exit(HUNG).success());
}

/// A command sent right after a `perft`'s or `bench`'s last line is never refused as "perft
/// is running": the task counts as finished once it has answered, even while its thread is
/// still ending (a client reads the answer and sends `go` at once).
#[test]
fn a_go_right_after_perft_answers_is_not_refused() {
    let mut e = EngineProcess::start(&[]);
    for _ in 0..30 {
        e.send("perft 1");
        e.expect_prefix("info string perft time");
        e.send("go depth 1");
        let (info, best) = until_bestmove(&mut e);
        assert!(!info.iter().any(|l| l.contains("error")), "{info:?}");
        assert!(best.len() > "bestmove ".len(), "{best}");
    }
    e.send("bench 1");
    e.expect(HUNG, |l| l.ends_with(" nps") && !l.starts_with("info"));
    e.send("go depth 1");
    let (info, _) = until_bestmove(&mut e);
    assert!(!info.iter().any(|l| l.contains("error")), "{info:?}");
}

/// Clock fields at the top of their range (every one that parses) neither wrap nor panic:
/// the engine answers with a move (debug builds check overflow in the time manager's test).
#[test]
fn huge_clock_values_are_answered_with_a_move() {
    let mut e = uai();
    e.send("position startpos");
    let max = i64::MAX;
    for go in [
        format!("go wtime {max} btime {max} winc {max} binc {max} movestogo {max}"),
        format!("go btime {max} binc {max}"),
        format!("go btime 1 binc {max} movestogo 1"),
        format!("go movetime 1 btime {max}"),
    ] {
        e.send(&go);
        e.send("stop");
        let (info, best) = until_bestmove(&mut e);
        assert!(best.len() > "bestmove ".len(), "{go}: {best}");
        assert!(!info.iter().any(|l| l.contains("error")), "{go}: {info:?}");
    }
}

/// `setoption name Tune lmr_min_depth value 1` is inside its listed range: a tuning build's
/// engine searches with it (the LMR clamp panicked, and the engine played an unsearched move).
#[cfg(feature = "tune")]
#[test]
fn a_listed_tune_value_searches() {
    let mut e = uai();
    e.send("setoption name Tune lmr_min_depth value 1");
    e.send("position startpos");
    e.send("go depth 6");
    let (info, best) = until_bestmove(&mut e);
    assert!(!info.iter().any(|l| l.contains("error")), "{info:?}");
    assert!(
        info.iter().any(|l| l.starts_with("info depth 6 ")),
        "{info:?}"
    );
    assert!(best.len() > "bestmove ".len());
}

/// A tuning build's `uci` lists each `Tune <name>` option with the value the variant in play
/// uses as its default (brandubh and Ataxx have their own sets; it used to print the tafl
/// family's values whatever the variant).
#[cfg(feature = "tune")]
#[test]
fn a_listed_tune_default_is_the_variants_value() {
    let mut e = EngineProcess::start(&[]);
    for variant in Variant::ALL {
        let params = new_session(variant).search_params();
        e.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.name()
        ));
        e.send("uci");
        let mut listed = 0;
        loop {
            let line = e.expect(HUNG, |_| true);
            if line == "uciok" {
                break;
            }
            let Some(rest) = line.strip_prefix("option name Tune ") else {
                continue;
            };
            let name = rest.split(' ').next().unwrap();
            let default = params.get(name).unwrap_or_else(|| panic!("{line}"));
            assert!(
                rest.contains(&format!(" type spin default {default} min ")),
                "{variant:?}: {line}"
            );
            listed += 1;
        }
        assert_eq!(listed, skald::tuning::SearchParams::TUNABLE.len());
    }
}

/// OpenTafl's engine protocol reads lines through the same length cap as UCI and HTP: a line of
/// megabytes without a newline is read to its end, refused with an error, and the engine goes
/// on (it used to be held whole in memory).
#[test]
fn opentafl_refuses_an_overlong_line_and_goes_on() {
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect_prefix("hello");
    let long = vec![b'x'; skald::protocol::MAX_LINE_BYTES + 10];
    e.send_bytes(&long);
    e.send("");
    let error = e.expect(HUNG, |l| l.starts_with("error"));
    assert!(error.contains("ignored"), "{error}");
    e.send("goodbye");
    assert!(e.wait_exit(HUNG).success());
}

/// A depth cut short by a limit answers with the best move it found so far when that move beat
/// the last complete depth's (as Stockfish does), and reports it: the `bestmove` is always the
/// first move of the last `info` line. Brandubh from the start on one thread (deterministic): at
/// these node limits depth 4 is cut after b4-b3 beat depth 3's d2-c2, and the old engine
/// answered with d2-c2. A search change may move the limits where this happens, so one witness
/// among them is enough.
#[test]
fn a_cut_depth_keeps_the_better_move_it_found() {
    let mut witnesses = 0;
    for nodes in [3000, 3700, 4400, 5100, 5800] {
        let mut e = EngineProcess::start(&[]);
        e.send("uci");
        e.expect_prefix("uciok");
        e.send("position startpos");
        e.send(&format!("go nodes {nodes}"));
        let (info, best) = until_bestmove(&mut e);
        let infos: Vec<&String> = info
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let field = |line: &str, key: &str| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = words.iter().position(|w| *w == key).unwrap();
            words[at + 1].to_string()
        };
        let last = infos.last().unwrap();
        let best = best.split_whitespace().nth(1).unwrap().to_string();
        assert_eq!(best, field(last, "pv"), "{nodes}: {info:?}");
        let cut = field(last, "nodes").parse::<u64>().unwrap() >= nodes;
        if cut && infos.len() >= 2 && field(infos[infos.len() - 2], "pv") != best {
            witnesses += 1;
        }
    }
    assert!(witnesses > 0, "no cut depth changed the move");
}

/// `go depth` outside 1-1000 and `go nodes 0` are errors that start nothing (protocol.md), not
/// searches of depth 1 or 1000.
#[test]
fn go_limits_out_of_range_are_errors() {
    let mut e = common::EngineProcess::start(&[]);
    for (go, error) in [
        ("go depth 0", "'depth' must be 1 to 1000, got 0"),
        ("go depth -1", "'depth' must be 1 to 1000, got -1"),
        ("go depth 2000", "'depth' must be 1 to 1000, got 2000"),
        ("go nodes 0", "'nodes' must be at least 1, got 0"),
    ] {
        e.send(go);
        let lines = e.sync();
        assert_eq!(lines, [format!("info string error: go: {error}")], "{go}");
    }
    e.send("quit");
}

/// Moves are read in any case in every game, as Ataxx's `G1F1` and `play`'s `D2-F2` always
/// were: tablut's `E2-H2` in `position … moves` (before: "'E2' is not a square of this board"),
/// and in the OpenTafl protocol's `opponent-move`.
#[test]
fn tafl_moves_are_read_in_any_case() {
    let mut e = EngineProcess::start(&["uci", "--variant", "tablut"]);
    let errors = |e: &mut EngineProcess| -> Vec<String> {
        e.sync()
            .into_iter()
            .filter(|l| l.contains("error"))
            .collect()
    };
    e.send("position startpos moves E2-H2");
    assert_eq!(errors(&mut e), Vec::<String>::new());
    let mut s = new_session(Variant::Tablut);
    s.play("e2-h2").unwrap();
    assert_eq!(e.fen(), s.fen());
    e.send("position startpos moves E2H2 E3-h3");
    assert_eq!(errors(&mut e), Vec::<String>::new());
    s.play("e3-h3").unwrap();
    assert_eq!(e.fen(), s.fen());
    e.send("quit");

    assert_eq!(
        skald::tafl::opentafl::parse_move("E7-E8xE9").as_deref(),
        Ok("e7-e8")
    );
}

/// A UTF-8 byte order mark before the first command (commands piped from a file an editor
/// saved with one) is not part of it: `uci` is answered (before: an unknown command).
#[test]
fn a_byte_order_mark_before_the_first_command_is_ignored() {
    let mut e = EngineProcess::start(&[]);
    e.send("\u{feff}uci");
    e.expect_prefix("uciok");
    e.send("quit");
    let mut h = EngineProcess::start(&["htp"]);
    h.send("\u{feff}protocol_version");
    h.expect_prefix("= 1-beta");
    h.send("quit");
}
