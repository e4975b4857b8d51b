//! `stop` and `quit` in the middle of deep searches, over all four variants with one and two
//! threads. protocol.md promises the `bestmove` before the engine reads the next command, and
//! the exit right after it. The assertions are on the order of events only, never on how long
//! they took (test machines are shared and may be loaded): after `stop`, the `bestmove` comes
//! before the `readyok` of an `isready` sent behind it; after `quit`, the `bestmove` comes, then
//! the end of the output and exit status 0. How long each took is printed for information
//! (`cargo test --release --test protocol_stop -- --nocapture`; protocol.md's 50 ms).

mod common;

use common::{EngineProcess, HUNG};
use std::time::{Duration, Instant};

const VARIANTS: [&str; 4] = ["brandubh", "tablut", "tawlbwrdd", "ataxx"];

/// An infinite search that has completed depth 6: many plies deep, still running.
fn deep_search(variant: &str, threads: u32) -> EngineProcess {
    let mut e = EngineProcess::start(&[]);
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("position startpos");
    e.send("go infinite");
    e.expect_depth(6);
    e
}

#[test]
fn stop_and_quit_answer_before_anything_else_in_deep_searches() {
    let mut rows = Vec::new();
    for variant in VARIANTS {
        for threads in [1, 2] {
            // stop: exactly one bestmove, before the engine reads the next command.
            let mut e = deep_search(variant, threads);
            let sent = Instant::now();
            e.send("stop");
            let replies = e.sync();
            let stop = sent.elapsed();
            let answers: Vec<&String> = replies
                .iter()
                .filter(|l| l.starts_with("bestmove"))
                .collect();
            assert_eq!(
                answers.len(),
                1,
                "{variant} threads {threads}: not one bestmove before readyok: {replies:?}"
            );
            assert!(!answers[0].contains("(none)"), "{variant}: {}", answers[0]);
            let after = e.sync();
            assert!(
                !after.iter().any(|l| l.starts_with("bestmove")),
                "{variant}: a second bestmove: {after:?}"
            );
            assert_eq!(
                e.transcript
                    .iter()
                    .filter(|l| l.starts_with("bestmove"))
                    .count(),
                1
            );
            // quit: the search's bestmove, then the end of the output and exit status 0.
            let mut e = deep_search(variant, threads);
            let sent = Instant::now();
            e.send("quit");
            let rest = e.read_to_end();
            let quit = sent.elapsed();
            assert!(e.wait_exit(HUNG).success(), "{variant} threads {threads}");
            assert_eq!(
                rest.iter().filter(|l| l.starts_with("bestmove")).count(),
                1,
                "{variant} threads {threads}: {rest:?}"
            );
            rows.push(format!(
                "{variant:>9} threads {threads}: stop {:>6.1} ms, quit {:>6.1} ms",
                ms(stop),
                ms(quit)
            ));
        }
    }
    println!("{}", rows.join("\n"));
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
