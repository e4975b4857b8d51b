//! How searches start, end and answer: MultiPV order, end of input during a search with no limit
//! of its own, `go` during a search, pondering. Through the real binary, except where the
//! library is asked directly (node-limited searches, deterministic on one thread).

mod common;

use common::{EngineProcess, HUNG};
use skald::engine::Engine;
use skald::engine::{Limits, Score};
use skald::variant::Variant;

/// The `cp` score and first move of an `info` line with `multipv`.
fn info_fields(line: &str) -> Option<(u32, u32, i32, String)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let field = |name: &str| words.iter().position(|w| *w == name).map(|i| words[i + 1]);
    let depth = field("depth")?.parse().ok()?;
    let multipv = field("multipv")?.parse().ok()?;
    let cp = field("cp")?.parse().ok()?;
    let pv = field("pv")?.to_string();
    Some((depth, multipv, cp, pv))
}

/// Issue 9, fault 1: with MultiPV 3 the lines of each depth came in search order (`cp 19`
/// before `cp 28` at depth 5 here) and `bestmove` was line 1's move even when line 2 scored
/// more. Now each depth's lines are sorted best first and `bestmove` is line 1's first move.
#[test]
fn multipv_lines_are_best_first_and_bestmove_is_line_one() {
    let mut e = EngineProcess::start(&[]);
    e.send("setoption name UCI_Variant value tablut");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves d1-b1 e3-h3");
    let best = e.go("go depth 5");
    let infos: Vec<_> = e.transcript.iter().filter_map(|l| info_fields(l)).collect();
    for depth in 1..=5 {
        let lines: Vec<_> = infos.iter().filter(|i| i.0 == depth).collect();
        assert_eq!(lines.len(), 3, "depth {depth}: {:?}", e.transcript);
        for pair in lines.windows(2) {
            assert!(pair[0].1 < pair[1].1, "multipv order {:?}", e.transcript);
            assert!(
                pair[0].2 >= pair[1].2,
                "depth {depth} not best first: {lines:?}"
            );
        }
    }
    let line_one = infos.iter().rfind(|i| i.1 == 1).unwrap();
    assert_eq!(best, line_one.3, "{:?}", e.transcript);
}

/// The final lines are the last complete depth's, all of them, best first, whatever the node
/// limit cuts short; the best move is line 1's first move.
#[test]
fn a_cut_short_depth_leaves_the_last_complete_lines() {
    for variant in [Variant::Tablut, Variant::Ataxx] {
        let mut engine = Engine::new().unwrap();
        engine.set_variant(variant);
        engine.set_option("MultiPV", "3").unwrap();
        for nodes in [3_000, 10_000, 40_000, 120_000] {
            engine.clear_tables();
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let r = engine.search(&limits, &mut |_| {}).unwrap();
            assert_eq!(r.lines.len(), 3, "{variant} {nodes}: {:?}", r.lines);
            let cps: Vec<i32> = r
                .lines
                .iter()
                .map(|(s, _)| match s {
                    Score::Cp(cp) => *cp,
                    Score::Mate(n) => n.signum() * 100_000 - n,
                })
                .collect();
            assert!(cps.windows(2).all(|w| w[0] >= w[1]), "{variant}: {cps:?}");
            assert_eq!(r.best_move.as_ref(), r.lines[0].1.first());
        }
    }
}

/// `skald analyze` shows every requested line in its final summary, best first.
#[test]
fn analyze_summary_has_every_line_best_first() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skald"))
        .args([
            "analyze",
            "--variant",
            "tablut",
            "--moves",
            "d1-b1 e3-h3",
            "--depth",
            "5",
            "--multipv",
            "3",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let summary: Vec<f64> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l
                .strip_prefix(|c: char| c.is_ascii_digit())?
                .strip_prefix(". ")?;
            rest.split_whitespace().next()?.parse().ok()
        })
        .collect();
    assert_eq!(summary.len(), 3, "{text}");
    assert!(summary.windows(2).all(|w| w[0] >= w[1]), "{text}");
}

/// OpenTafl's `analyze` answers its lines best first.
#[test]
fn opentafl_analysis_is_best_first() {
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect_prefix("hello");
    e.send(
        "rules dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: \
         cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    );
    e.send("analyze 4 1");
    let line = e.expect_prefix("analysis ");
    let words: Vec<&str> = line.split_whitespace().collect();
    let n: usize = words[1].parse().unwrap();
    assert_eq!(n, 4, "{line}");
    let evals: Vec<i32> = (0..n).map(|i| words[3 + 2 * i].parse().unwrap()).collect();
    assert!(evals.windows(2).all(|w| w[0] >= w[1]), "{line}");
}

/// Issue 9, fault 2: a `go` with no limit of its own never ended at end of input. Now it answers
/// one `bestmove` and the engine exits with status 0, as after `go infinite`.
#[test]
fn end_of_input_ends_a_search_with_no_limit() {
    let cases: [&[&str]; 6] = [
        &["go"],
        &["go infinite"],
        &["go ponder"],
        &["go winc 100"],
        &["go movestogo 5"],
        &["uai", "go wtime 100"],
    ];
    for commands in cases {
        let mut e = EngineProcess::start(&[]);
        for c in commands {
            e.send(c);
        }
        e.close_stdin();
        let status = e.wait_exit(HUNG);
        // Read what is left of the output.
        let best = e.expect(HUNG, |l| l.starts_with("bestmove"));
        assert!(!best.contains("(none)"), "{commands:?}: {best}");
        assert!(status.success(), "{commands:?}: {status}");
        let n = e
            .transcript
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count();
        assert_eq!(n, 1, "{commands:?}: {:?}", e.transcript);
    }
}

/// A search with a limit of its own still finishes at end of input.
#[test]
fn end_of_input_lets_a_limited_search_finish() {
    let mut e = EngineProcess::start(&[]);
    e.send("go depth 4");
    e.close_stdin();
    e.expect_prefix("info depth 4");
    e.expect_prefix("bestmove");
    assert!(e.wait_exit(HUNG).success());
}

/// Issue 9, fault 6: `go` during a search was dropped with an error. Now, as in Stockfish, the
/// running search ends and then the new one runs: two answers, in order, no error.
#[test]
fn go_during_a_search_runs_after_it() {
    let mut e = EngineProcess::start(&[]);
    e.send("go depth 6");
    e.send("position startpos moves d2-f2");
    e.send("go depth 3");
    e.expect_prefix("bestmove");
    // The second search's lines all come after the first answer, and it searched the new
    // position (attackers moved: the defenders answer).
    let second = e.expect_prefix("bestmove");
    let mv = second.split_whitespace().nth(1).unwrap();
    let mut game = skald::engine::new_session(Variant::Brandubh);
    game.play_text("d2-f2").unwrap();
    game.play_text(mv).unwrap();
    assert!(
        !e.transcript.iter().any(|l| l.contains("error")),
        "{:?}",
        e.transcript
    );

    // After `go infinite`, a queued `go` waits for `stop`; `stop` ends both, each answers,
    // both before the engine reads the next command.
    let mut e = EngineProcess::start(&[]);
    e.send("go infinite");
    e.send("go depth 2");
    // The infinite search goes on past the queued search's depth: neither `go` has ended it.
    e.expect_depth(3);
    e.sync();
    assert!(
        !e.transcript
            .iter()
            .any(|l| l.starts_with("bestmove") || l.contains("error")),
        "{:?}",
        e.transcript
    );
    e.send("stop");
    let replies = e.sync();
    assert_eq!(
        replies.iter().filter(|l| l.starts_with("bestmove")).count(),
        2,
        "{replies:?}"
    );
    assert!(e.sync().is_empty());
}

/// Issue 51: a `go` queued behind a running search keeps the time it waited: its clock runs
/// from when its `go` arrived (as Stockfish starts its clock when it reads `go`), so the first
/// `info` line of the queued search counts the wait. Here it waits at least 500 ms behind
/// `go infinite` until `stop` (which ends both); before, its clock started when the first
/// search had answered and its depth 1 said `time 0`. A lower bound only: no speed is
/// measured.
#[test]
fn a_queued_go_keeps_the_time_it_waited() {
    let mut e = EngineProcess::start(&[]);
    e.send("go infinite");
    e.send("go movetime 100");
    e.expect_depth(2);
    std::thread::sleep(std::time::Duration::from_millis(500));
    e.send("stop");
    e.expect_prefix("bestmove");
    let info = e.expect_prefix("info depth");
    let waited = info_time(&info).expect("a time field");
    assert!(waited >= 500, "{info}");
    e.expect_prefix("bestmove");
}

/// The `time` field of an `info` line: milliseconds since `go`, by the engine's clock.
fn info_time(line: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == "time")?;
    words.next()?.parse().ok()
}

/// `go ponder` answers only after `ponderhit` (or `stop`), then within its time.
#[test]
fn pondering_waits_for_ponderhit() {
    let mut e = EngineProcess::start(&[]);
    e.send("go ponder movetime 50");
    // The engine's own clock passes the movetime (an `info` line reports more than 200 ms
    // since `go`), and still no answer: the time limit waits for `ponderhit`.
    e.expect(HUNG, |l| info_time(l).is_some_and(|t| t > 200));
    e.sync();
    assert!(
        !e.transcript.iter().any(|l| l.starts_with("bestmove")),
        "{:?}",
        e.transcript
    );
    // After `ponderhit` the time counts from `go`: it is up, the answer comes.
    e.send("ponderhit");
    e.expect_prefix("bestmove");
    // The depth limit is reached while pondering: no answer until `stop`.
    e.send("go ponder depth 2");
    e.expect_depth(2);
    let replies = e.sync();
    assert!(
        !replies.iter().any(|l| l.starts_with("bestmove")),
        "{replies:?}"
    );
    e.send("stop");
    let replies = e.sync();
    assert!(
        replies.iter().any(|l| l.starts_with("bestmove")),
        "{replies:?}"
    );
}

/// Lazy SMP answers with the thread the vote picks (issue 11): with two threads, in each game
/// family and a position after a few moves, `bestmove` is legal and is the first move of the
/// last `info` line's principal variation (the chosen thread's line is reported last).
#[test]
fn two_threads_answer_a_legal_move_with_its_line_last() {
    let cases = [
        ("tablut", "d1-b1 e3-h3"),
        ("brandubh", ""),
        ("ataxx", "f2 b2 a6"),
    ];
    for (variant, moves) in cases {
        let mut engine = Engine::new().unwrap();
        engine.set_variant(variant.parse::<Variant>().unwrap());
        let moves: Vec<&str> = moves.split_whitespace().collect();
        engine.session_mut().set_position(None, &moves).unwrap();
        let legal: Vec<String> = engine
            .session()
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();

        let mut e = EngineProcess::start(&[]);
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("setoption name Threads value 2");
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        for go in ["go nodes 50000", "go movetime 300"] {
            e.send(&position);
            let best = e.go(go);
            assert!(
                legal.contains(&best),
                "{variant} {go}: {best} not in {legal:?}"
            );
            let last_pv = e
                .transcript
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .and_then(|l| l.split(" pv ").nth(1))
                .and_then(|pv| pv.split_whitespace().next())
                .map(String::from);
            assert_eq!(last_pv.as_deref(), Some(best.as_str()), "{variant} {go}");
        }
    }
}

/// Issue 55 (skald against TaflZero, Copenhagen 11×11): on the game's last ply before the move
/// limit, skald as the defenders answered `b5-a5`, a move that recreates an earlier board,
/// which Copenhagen forbids the defenders, and lost the game by an illegal move. The search
/// judged the board first: every defender move there reaches the move limit's draw, so the
/// forbidden one scored 0 like the others, and the move order picked it. Now the root leaves
/// out the moves the game's history forbids, and inside the tree a forbidden move loses
/// whatever its board says. The game (`tests/data/copenhagen-move-limit-repetition.txt`: the
/// book FEN, then the 135 plies played) from the match's record; MultiPV 64 lists every root
/// move at depth 1.
#[test]
fn the_search_never_offers_a_copenhagen_move_that_recreates_a_board() {
    let text = include_str!("data/copenhagen-move-limit-repetition.txt");
    let mut lines = text.lines();
    let fen = lines.next().unwrap();
    let moves: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let mut engine = Engine::new().unwrap();
    engine.set_variant(Variant::Copenhagen);
    engine
        .session_mut()
        .set_position(Some(fen), &moves)
        .unwrap();
    let legal: Vec<String> = engine
        .session()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(!legal.contains(&"b5-a5".to_string()), "{legal:?}");
    engine.set_option("MultiPV", "64").unwrap();
    for depth in [1, 3] {
        engine.clear_tables();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = engine.search(&limits, &mut |_| {}).unwrap();
        let firsts: Vec<String> = r.lines.iter().map(|(_, pv)| pv[0].to_string()).collect();
        assert_eq!(firsts.len(), legal.len(), "depth {depth}: {firsts:?}");
        assert!(
            firsts.iter().all(|m| legal.contains(m)),
            "depth {depth}: {firsts:?} not all in {legal:?}"
        );
        assert!(legal.contains(&r.best_move.unwrap().to_string()));
    }
}
