//! `stop` and `quit` in the middle of deep searches: how long until `bestmove` (or exit), over
//! all four variants with one and two threads. protocol.md promises 50 ms; the assertion is
//! generous (500 ms) because test machines are shared and noisy. The measured maximum is printed
//! (`cargo test --release --test protocol_stop -- --nocapture`).

mod common;

use common::EngineProcess;
use std::time::{Duration, Instant};

const VARIANTS: [&str; 4] = ["brandubh", "tablut", "tawlbwrdd", "ataxx"];
const BOUND: Duration = Duration::from_millis(500);

fn deep_search(variant: &str, threads: u32) -> EngineProcess {
    let mut e = EngineProcess::start(&[]);
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("position startpos");
    e.send("go infinite");
    // Long enough to be many plies deep.
    std::thread::sleep(Duration::from_millis(700));
    e.sync();
    e
}

#[test]
fn stop_and_quit_answer_within_the_bound_in_deep_searches() {
    let mut worst_stop = Duration::ZERO;
    let mut worst_quit = Duration::ZERO;
    let mut rows = Vec::new();
    for variant in VARIANTS {
        for threads in [1, 2] {
            // stop: exactly one bestmove, quickly.
            let mut e = deep_search(variant, threads);
            let depth = e
                .transcript
                .iter()
                .rev()
                .find_map(|l| l.strip_prefix("info depth ")?.split(' ').next())
                .unwrap_or("0")
                .to_string();
            let sent = Instant::now();
            e.send("stop");
            let best = e.expect(Duration::from_secs(10), |l| l.starts_with("bestmove "));
            let stop = sent.elapsed();
            assert!(!best.contains("(none)"), "{variant}: {best}");
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
            // quit: the process is gone quickly.
            let mut e = deep_search(variant, threads);
            let sent = Instant::now();
            e.send("quit");
            assert!(e.wait_exit(Duration::from_secs(10)).success());
            let quit = sent.elapsed();
            rows.push(format!(
                "{variant:>9} threads {threads}: depth {depth:>2} at stop, stop {:>6.1} ms, quit {:>6.1} ms",
                stop.as_secs_f64() * 1e3,
                quit.as_secs_f64() * 1e3
            ));
            worst_stop = worst_stop.max(stop);
            worst_quit = worst_quit.max(quit);
        }
    }
    println!("{}", rows.join("\n"));
    println!(
        "longest stop latency {:.1} ms, longest quit latency {:.1} ms",
        worst_stop.as_secs_f64() * 1e3,
        worst_quit.as_secs_f64() * 1e3
    );
    assert!(
        worst_stop < BOUND,
        "stop took {worst_stop:?}:\n{}",
        rows.join("\n")
    );
    assert!(
        worst_quit < BOUND,
        "quit took {worst_quit:?}:\n{}",
        rows.join("\n")
    );
}
