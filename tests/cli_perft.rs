//! `skald perft` from its binary: counts, divide, and bad input as a one-line error with a
//! non-zero exit (never a backtrace, even with RUST_BACKTRACE set).

use std::process::Command;

fn perft(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skald"))
        .arg("perft")
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("run skald");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn counts_and_divide() {
    let (ok, out, _) = perft(&["--variant", "brandubh", "--depth", "2", "--divide"]);
    assert!(ok);
    assert!(out.contains("Nodes searched: 960"), "{out}");
    let moves = out.lines().filter(|l| l.contains("-") && l.contains(": "));
    assert_eq!(moves.count(), 40, "{out}");
    let (ok, out, _) = perft(&[
        "--variant",
        "ataxx",
        "--depth",
        "2",
        "--fen",
        "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
    ]);
    assert!(ok);
    assert!(out.contains("Nodes searched: 75"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_non_zero() {
    for args in [
        &["--variant", "chess", "--depth", "2"][..],
        &[
            "--variant",
            "ataxx",
            "--depth",
            "2",
            "--fen",
            "x5o/7/7/7/7/7/o5 x",
        ][..],
        &["--variant", "tablut"][..],
        &["--variant", "tablut", "--depth", "zero"][..],
    ] {
        let (ok, _, err) = perft(args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("backtrace"), "{args:?}: {err}");
    }
}

#[test]
fn threads_split_the_root_and_count_the_same() {
    for threads in ["1", "3"] {
        let (ok, out, err) = perft(&[
            "--variant",
            "ataxx",
            "--depth",
            "4",
            "--threads",
            threads,
            "--divide",
        ]);
        assert!(ok, "{err}");
        assert!(out.contains("Nodes searched: 155888"), "{out}");
        assert!(
            out.starts_with("f1: 9138\nf2: 10562\n"),
            "divide keeps move order: {out}"
        );
    }
}
