//! The engine protocol, driven through the real binary (protocol.md).

mod common;

use common::{EngineProcess, HUNG};

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
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Basic Search type check default false",
        "option name Clear Hash type button",
    ] {
        assert!(t.contains(opt), "missing {opt}: {t}");
    }
}

#[test]
fn uai_switches_to_ataxx_and_ends_with_uaiok() {
    let mut e = EngineProcess::start(&[]);
    e.send("uai");
    e.expect(HUNG, |l| l == "uaiok");
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
        let mut session = skald::engine::new_session(variant.parse().unwrap());
        session
            .play_text(&mv)
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
    e.expect(HUNG, |l| l == "readyok");
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
    e.expect(HUNG, |l| l == "uaiok");
    e.send("position fen 7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(e.go("go depth 2"), "0000");
}

/// `stop` ends an infinite search with one `bestmove`, sent before the engine reads the next
/// command (so before the `readyok` of an `isready` sent after it), and no second one later.
#[test]
fn stop_ends_an_infinite_search_with_one_bestmove() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value tawlbwrdd");
    e.send("position startpos");
    e.send("go infinite");
    // The search is running and has completed a few depths; it has not answered.
    e.expect_depth(3);
    let replies = e.sync();
    assert!(
        !e.transcript.iter().any(|l| l.starts_with("bestmove")),
        "{replies:?}"
    );
    e.send("stop");
    let replies = e.sync();
    assert_eq!(
        replies.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "bestmove not before the readyok after stop: {replies:?}"
    );
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
    e.expect_depth(1);
    e.send("quit");
    assert!(e.wait_exit(HUNG).success());
}

#[test]
fn end_of_input_lets_a_finite_search_finish() {
    let mut e = EngineProcess::start(&[]);
    e.send("position startpos");
    e.send("go depth 4");
    e.close_stdin();
    e.expect(HUNG, |l| l.starts_with("bestmove"));
    assert!(e.wait_exit(HUNG).success());
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

/// The FEN from `d`, with the rest of `d`'s answer read too.
fn fen(e: &mut EngineProcess) -> String {
    let f = e.fen();
    e.sync();
    f
}

/// Every bad-input case of protocol.md's table that is a single command: an `info string error`
/// and the position (and, with `d`, the variant) unchanged.
#[test]
fn each_bad_command_is_an_error_and_changes_nothing() {
    let mut e = EngineProcess::start(&[]);
    e.send("position startpos moves d2-f2");
    let before = fen(&mut e);
    for bad in [
        "position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3K3 a 0 1", // two kings
        "position fen 3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3 a 0 1", // no king
        "position fen t2t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1", // attacker on a corner
        "position fen 3t3/3t3/3T3/ttTtTtt/3T3/3t3/3t3 a 0 1", // attacker on the throne
        "position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t4 a 0 1", // 8 squares in rank 1
        "position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/7 a 0 1", // 8 ranks
        "position fen x5o/7/7/7/7/7/o5x x 0 1",               // an Ataxx FEN in brandubh
        "position fen 3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 o 0 1", // Ataxx side letter
        "position startpos moves d2-f2 d2-f2",                // the second is not the side's piece
        "position startpos moves d1-d9",                      // off the board
        "position startpos moves a7a5",                       // an Ataxx move
        "position startpos moves 0000",                       // a pass in tafl
        "position startpos moves",                            // empty list: fine, see below
        "positionstartpos",                                   // missing space
        "setoption name Hash",                                // missing value
        "setoption name Threads value",                       // missing value
        "setoption name",                                     // missing name
        "setoption Hash value 8",                             // missing 'name'
        "setoption name Threads value 0",                     // out of range
        "setoption name Skill Level value expert",            // not a level
        "go depth5",                                          // missing space
        "go mate 3",                                          // not supported
        "go searchmoves d2-f2",                               // not supported
        "go depth 99999999999999999999999",                   // not a number that fits
        "perft 0",
        "perft 13",
        "bench x",
    ] {
        e.send(bad);
        let replies = e.sync();
        if bad == "position startpos moves" {
            // Not an error: the start position with no moves.
            assert!(replies.is_empty(), "{bad:?}: {replies:?}");
            e.send("position startpos moves d2-f2");
            continue;
        }
        assert!(
            replies.iter().any(|l| l.starts_with("info string error: ")),
            "no error for {bad:?}: {replies:?}"
        );
        assert!(
            !replies.iter().any(|l| l.starts_with("bestmove")),
            "{bad:?} started a search: {replies:?}"
        );
        assert_eq!(fen(&mut e), before, "position changed by {bad:?}");
    }
    e.send("d");
    assert_eq!(e.expect_prefix("Variant:"), "Variant: brandubh");
}

#[test]
fn spaces_tabs_crlf_and_upper_case_are_understood() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value tablut");
    e.send("position startpos moves e2-h2");
    let expected = fen(&mut e);
    e.send("setoption name UCI_Variant value brandubh");
    e.send_bytes(b"\t SETOPTION   NAME\tuci_VARIANT  VALUE  TABLUT \r\n");
    e.send_bytes(b"  Position\tSTARTPOS  MOVES   e2-h2\t\r\n");
    assert_eq!(fen(&mut e), expected, "{:?}", e.transcript);
    let fen_dash = fen(&mut e);
    e.send("position startpos moves e2h2"); // the dash may be left out
    assert_eq!(fen(&mut e), fen_dash);
    e.send_bytes(b"GO   DEPTH\t2\r\n");
    e.expect_prefix("bestmove ");
    e.send_bytes(b"\r\n\t\n   \n");
    assert!(
        e.sync().is_empty(),
        "empty lines answered: {:?}",
        e.transcript
    );
}

#[test]
fn unknown_commands_and_non_utf8_bytes_are_errors() {
    let mut e = EngineProcess::start(&[]);
    e.send("frobnicate");
    assert_eq!(
        e.sync(),
        ["info string error: unknown command 'frobnicate'"]
    );
    e.send_bytes(b"\xff\xfe\x00go\n");
    let replies = e.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(
        replies[0].starts_with("info string error: unknown command"),
        "{replies:?}"
    );
    e.send_bytes(b"position startpos moves d2-f2\xff\n");
    let replies = e.sync();
    assert!(
        replies[0].starts_with("info string error: position not changed"),
        "{replies:?}"
    );
}

#[test]
fn megabyte_lines_are_read_whole_and_ignored_above_the_limit() {
    let mut e = EngineProcess::start(&[]);
    // Under the 1 MiB limit: a command padded with spaces works.
    e.send(&format!("isready{}", " ".repeat(1_000_000)));
    e.expect(HUNG, |l| l == "readyok");
    // Over it: the whole line is dropped with one error, whatever it says.
    e.send(&format!(
        "position startpos moves {}",
        "d2-f2 f2-d2 ".repeat(200_000)
    ));
    let replies = e.sync();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(
        replies[0].starts_with("info string error: line of 2400024 bytes ignored"),
        "{replies:?}"
    );
    assert_eq!(fen(&mut e), START[0].1);
}

#[test]
fn setoption_and_perft_during_a_search_are_refused() {
    let mut e = EngineProcess::start(&[]);
    e.send("position startpos moves d2-f2");
    let before = fen(&mut e);
    e.send("go infinite");
    for bad in [
        "setoption name UCI_Variant value ataxx",
        "setoption name Hash value 1",
        "ucinewgame",
        "perft 2",
        "bench 1",
    ] {
        e.send(bad);
        let replies = e.sync();
        assert!(
            replies
                .iter()
                .any(|l| l.starts_with("info string error: ") && l.contains("search")),
            "no error for {bad:?}: {replies:?}"
        );
    }
    e.send("stop");
    e.expect_prefix("bestmove ");
    let replies = e.sync();
    assert!(
        !replies.iter().any(|l| l.starts_with("bestmove")),
        "{replies:?}"
    );
    assert_eq!(fen(&mut e), before);
    assert_eq!(
        e.transcript
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        1
    );
}

#[test]
fn stop_without_a_search_does_nothing() {
    let mut e = EngineProcess::start(&[]);
    e.send("stop");
    e.send("stop");
    assert!(e.sync().is_empty(), "{:?}", e.transcript);
    // Also after a search that has ended by itself: no second bestmove.
    assert!(!e.go("go depth 2").is_empty());
    e.send("stop");
    assert!(e.sync().is_empty(), "{:?}", e.transcript);
}

#[test]
fn a_variant_switch_sets_the_new_start_position() {
    let mut e = EngineProcess::start(&[]);
    e.send("position startpos moves d2-f2 d3-b3");
    e.send("setoption name UCI_Variant value tablut");
    assert_eq!(fen(&mut e), START[1].1);
    e.send("position startpos moves e2-h2");
    let tablut_game = fen(&mut e);
    // Setting the same variant again changes nothing.
    e.send("setoption name UCI_Variant value TABLUT");
    assert_eq!(fen(&mut e), tablut_game);
    // Back to brandubh: its start position, not the old game.
    e.send("setoption name UCI_Variant value brandubh");
    assert_eq!(fen(&mut e), START[0].1);
    // A move of the old variant is now an error.
    e.send("position startpos moves e2-h2");
    assert!(e.sync()[0].starts_with("info string error"));
}

/// A negative or zero clock is a clock with no time left, not a missing one (which would mean
/// "search until stop") nor a huge one: the engine answers by itself, with a move. (`go` waits
/// only for the answer; a search without a limit would never send one.)
#[test]
fn negative_and_zero_clocks_still_give_a_move_at_once() {
    for (variant, fen) in START {
        let mut e = EngineProcess::start(&[]);
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!("position fen {fen}"));
        for go in [
            "go btime -500 wtime -500",
            "go btime 0 wtime 0 binc 0 winc 0",
        ] {
            let mv = e.go(go);
            assert!(mv != "(none)" && !mv.is_empty(), "{variant} {go}: {mv}");
        }
    }
}

/// `btime` is the clock of the side that moves first (attackers, x), `wtime` the other's: with
/// 50 ms on its own clock and 100,000 s on the other the engine answers by itself. Read the
/// other way round it would budget about an hour for the move, far beyond the hang bound `go`
/// waits: no wall-clock measure is needed to tell the two apart.
#[test]
fn btime_is_the_first_players_clock() {
    for (variant, first_move) in [("brandubh", "d2-f2"), ("tablut", "e2-h2"), ("ataxx", "f2")] {
        let mut e = EngineProcess::start(&[]);
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        for (moves, go) in [
            ("", "go btime 50 wtime 100000000"),
            (first_move, "go btime 100000000 wtime 50"),
        ] {
            e.send(&format!("position startpos moves {moves}"));
            let mv = e.go(go);
            assert!(mv != "(none)" && !mv.is_empty(), "{variant} {go}: {mv}");
        }
    }
}

/// End of input and `quit` both end an infinite search: its `bestmove` comes, then the exit.
#[test]
fn quit_and_eof_end_an_infinite_search_with_its_bestmove() {
    let mut e = EngineProcess::start(&[]);
    e.send("go infinite");
    e.expect_depth(1);
    e.close_stdin();
    e.expect_prefix("bestmove ");
    assert!(e.wait_exit(HUNG).success());
    let mut e = EngineProcess::start(&[]);
    e.send("go infinite");
    e.expect_depth(1);
    e.send("quit");
    e.expect_prefix("bestmove ");
    assert!(e.wait_exit(HUNG).success());
}

#[test]
fn extensions_d_eval_flip_bench_and_perft() {
    let mut e = EngineProcess::start(&[]);
    e.send("d");
    for prefix in [
        "Variant: brandubh",
        "Fen: ",
        "Key: ",
        "Side to move: attackers",
        "Outcome: ongoing",
    ] {
        e.expect_prefix(prefix);
    }
    e.send("eval");
    let total = e.expect_prefix("info string eval total ");
    assert!(
        total.ends_with("(centipawns, attackers to move)"),
        "{total}"
    );
    e.send("flip");
    assert_eq!(fen(&mut e), "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 1");
    e.send("flip");
    assert_eq!(fen(&mut e), START[0].1);
    e.send("perft 2");
    let mut divide = Vec::new();
    loop {
        let l = e.expect(HUNG, |_| true);
        if l.starts_with("Nodes searched") {
            let total: u64 = divide
                .iter()
                .filter_map(|l: &String| l.split(": ").nth(1)?.parse::<u64>().ok())
                .sum();
            assert_eq!(l, format!("Nodes searched: {total}"));
            break;
        }
        divide.push(l);
    }
    assert!(
        divide.iter().filter(|l| l.contains(": ")).count() > 10,
        "{divide:?}"
    );
    e.send("bench 2");
    let last = e.expect(HUNG, |l| !l.starts_with("info") && l.ends_with(" nps"));
    assert!(last.contains(" nodes "), "{last}");
    // Ataxx: flip swaps x and o.
    e.send("uai");
    e.expect_prefix("uaiok");
    e.send("flip");
    assert_eq!(fen(&mut e), "x5o/7/7/7/7/7/o5x o 0 1");
}

#[test]
fn setoption_accepts_every_listed_option() {
    let mut e = EngineProcess::start(&[]);
    for ok in [
        "setoption name hash value 8",
        "setoption name THREADS value 2",
        "setoption name MultiPV value 3",
        "setoption name move overhead value 0",
        "setoption name Skill Level value 5",
        "setoption name skill level value easy",
        "setoption name Skill Level value Medium",
        "setoption name Skill Level value hard",
        "setoption name Clear Hash",
        "setoption name clear hash value anything",
        "setoption name UCI_Variant value Tawlbwrdd",
    ] {
        e.send(ok);
        let replies = e.sync();
        assert!(replies.is_empty(), "{ok}: {replies:?}");
    }
}

/// `position` (and `flip`) during a search set the position for the next `go`; the running
/// search goes on with its own copy and its `bestmove` is for the position it was given.
#[test]
fn position_during_a_search_is_for_the_next_go() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value ataxx");
    // x must pass here: the only legal move is 0000.
    e.send("position fen 7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    e.send("go infinite");
    e.send("position startpos moves f2");
    let replies = e.sync();
    assert!(!replies.iter().any(|l| l.contains("error")), "{replies:?}");
    assert_eq!(fen(&mut e), "x5o/7/7/7/7/5x1/o5x o 0 1");
    e.send("flip");
    assert_eq!(fen(&mut e), "x5o/7/7/7/7/5x1/o5x x 0 1");
    e.send("stop");
    assert_eq!(e.expect_prefix("bestmove ").split(' ').nth(1), Some("0000"));
    // A bad position during a search: an error, the (new) position kept.
    e.send("go infinite");
    e.send("position startpos moves b2b3");
    // The search's own `info` lines may come first.
    let replies = e.sync();
    assert!(
        replies
            .iter()
            .any(|l| l.starts_with("info string error: position not changed")),
        "{replies:?}"
    );
    e.send("stop");
    e.expect_prefix("bestmove ");
    assert_eq!(fen(&mut e), "x5o/7/7/7/7/5x1/o5x x 0 1");
}

/// The `info` lines carry exactly the fields protocol.md lists, in its order.
#[test]
fn info_lines_have_the_documented_fields_in_order() {
    let order = [
        "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ];
    for (variant, _) in START {
        let mut e = EngineProcess::start(&[]);
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("setoption name MultiPV value 3");
        e.send("position startpos");
        e.go("go depth 3");
        let infos: Vec<&String> = e
            .transcript
            .iter()
            .filter(|l| l.starts_with("info "))
            .collect();
        assert!(infos.len() >= 9, "{variant}: {infos:?}");
        for line in infos {
            let words: Vec<&str> = line.split(' ').collect();
            let mut keys = Vec::new();
            let mut i = 1;
            while i < words.len() {
                let key = words[i];
                keys.push(key);
                i += match key {
                    "score" => {
                        assert!(matches!(words[i + 1], "cp" | "mate"), "{line}");
                        words[i + 2].parse::<i32>().unwrap();
                        3
                    }
                    "pv" => words.len() - i,
                    _ => {
                        words[i + 1].parse::<u64>().unwrap();
                        2
                    }
                };
            }
            assert_eq!(keys, order, "{line}");
            let multipv: u32 = words[6].parse().unwrap();
            assert!((1..=3).contains(&multipv), "{line}");
        }
    }
}

/// UAI move notation: clone `f2`, jump `a7a5`, pass `0000`, in `position … moves` as in
/// `bestmove`.
#[test]
fn uai_moves_are_clone_jump_and_pass() {
    let mut e = EngineProcess::start(&[]);
    e.send("uai");
    e.expect(HUNG, |l| l == "uaiok");
    e.send("uainewgame");
    e.send("position startpos moves a7a5 g7e7 f2");
    assert_eq!(fen(&mut e), "4o2/7/x6/7/7/5x1/o5x o 0 2");
}

#[test]
fn eval_file_chooses_the_ataxx_evaluation_and_a_bad_file_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("skald-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short.nnue");
    std::fs::write(&short, b"SKNN\x01\x00").unwrap();
    let net = format!(
        "{}/nets/{}",
        env!("CARGO_MANIFEST_DIR"),
        skald::ataxx::nnue::EMBEDDED_NAME
    );

    let mut e = EngineProcess::start(&[]);
    e.send("uai");
    e.expect_prefix("uaiok");
    assert!(
        e.transcript
            .iter()
            .any(|l| l == "option name EvalFile type string default <default>"),
        "{:?}",
        e.transcript
    );
    e.send("position fen x5o/7/7/7/7/7/o5x o 0 1");
    let eval_total = |e: &mut EngineProcess| {
        e.send("eval");
        e.expect_prefix("info string eval total ")
    };
    e.send("eval");
    let by = e.expect_prefix("info string eval by ");
    assert!(by.contains("network") && by.contains("built in"), "{by}");
    let default = eval_total(&mut e);

    // Bad files: an error naming the file's fault, the evaluation in force unchanged.
    for (value, error) in [
        (
            "/nonexistent/dir/x.nnue".to_string(),
            "info string error: option EvalFile: cannot read network file /nonexistent/dir/x.nnue",
        ),
        (
            short.display().to_string(),
            "info string error: option EvalFile: network file is truncated: 6 bytes, expected",
        ),
    ] {
        e.send(&format!("setoption name EvalFile value {value}"));
        let replies = e.sync();
        assert!(
            replies
                .iter()
                .any(|l| l.starts_with(error) && l.ends_with("; keeping <default>")),
            "{value}: {replies:?}"
        );
        assert_eq!(eval_total(&mut e), default);
        let best = e.go("go depth 3");
        assert!(matches!(best.len(), 2 | 4), "{best}");
    }

    // hand: the hand-written terms; the file of the embedded network: the same as the default.
    e.send("setoption name EvalFile value hand");
    e.send("eval");
    e.expect_prefix("info string eval by hand-written");
    e.expect_prefix("info string eval material 0");
    // (the start position's total is the side to move's tempo term, not 0)
    assert!(eval_total(&mut e).starts_with("info string eval total "));
    e.send(&format!("setoption name EvalFile value {net}"));
    e.send("eval");
    e.expect_prefix(&format!("info string eval by network {net}"));
    assert_eq!(eval_total(&mut e), default);
    e.send("setoption name EvalFile value /nonexistent.nnue");
    let replies = e.sync();
    assert!(
        replies
            .iter()
            .any(|l| l.ends_with(&format!("; keeping {net}"))),
        "{replies:?}"
    );
    e.send("setoption name EvalFile value <default>");
    e.send("eval");
    e.expect_prefix("info string eval by network ");
    assert_eq!(eval_total(&mut e), default);
    let best = e.go("go depth 3");
    assert!(matches!(best.len(), 2 | 4), "{best}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Faults issue, item 5: `eval` of a decided game reports its result, the one term `decided`
/// (± `DECIDED_VALUE`, 0 for a draw) by the rules, for tafl and Ataxx alike (Ataxx reported the
/// network's guess: −984 on a full board x had won); `d` and `go` say a win in one wording,
/// `attackers win`, `x wins`.
#[test]
fn eval_of_a_decided_game_is_its_result() {
    use skald::game::DECIDED_VALUE;
    assert_eq!(DECIDED_VALUE, skald::tafl::KING_VALUE);
    let mut e = EngineProcess::start(&[]);
    let decided = |e: &mut EngineProcess, fen: &str| {
        e.send(&format!("position fen {fen}"));
        e.send("eval");
        let by = e.expect_prefix("info string eval by ");
        let term = e.expect_prefix("info string eval ");
        let total = e.expect_prefix("info string eval total ");
        (by, term, total)
    };
    // brandubh, the king escaped, the attackers to move: they lost.
    let (by, term, total) = decided(&mut e, "3t3/3t3/3T3/ttT1Ttt/3T3/3t3/K2t3 a 0 1");
    assert_eq!(by, "info string eval by the rules");
    assert_eq!(term, format!("info string eval decided {}", -DECIDED_VALUE));
    assert_eq!(
        total,
        format!(
            "info string eval total {} (centipawns, attackers to move)",
            -DECIDED_VALUE
        )
    );
    e.send("d");
    e.expect_prefix("Outcome: defenders win (king escaped)");
    e.send("uai");
    e.expect_prefix("uaiok");
    // A full board, 32 x against 17 o: x won, whoever is to move.
    for (side, want) in [("o", -DECIDED_VALUE), ("x", DECIDED_VALUE)] {
        let fen = format!("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo {side} 0 1");
        let (by, term, total) = decided(&mut e, &fen);
        assert_eq!(by, "info string eval by the rules");
        assert_eq!(term, format!("info string eval decided {want}"));
        assert_eq!(
            total,
            format!("info string eval total {want} (centipawns, {side} to move)")
        );
    }
    e.send("d");
    e.expect_prefix("Outcome: x wins (board full)");
    e.send("go depth 1");
    e.expect_prefix("info string game over: x wins (board full)");
    e.expect_prefix("bestmove (none)");
    // A drawn board (blocked squares, 24 each): 0.
    let (_, term, _) = decided(
        &mut e,
        "xxxxxxx/xxxxxxx/xxxxxxx/xxx-ooo/ooooooo/ooooooo/ooooooo x 0 1",
    );
    assert_eq!(term, "info string eval decided 0");
    // An ongoing game: the evaluation as before.
    e.send("position fen x5o/7/7/7/7/7/o5x x 0 1");
    e.send("eval");
    let by = e.expect_prefix("info string eval by ");
    assert!(by.contains("network"), "{by}");
}
