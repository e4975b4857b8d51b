//! Command-line errors from the binary: every mistake in the arguments is one line
//! `error: …` on standard error, exit status 1 (README "Command line"), with its own message for
//! negative numbers and for numbers above their documented bound; `--help` and `--version` still
//! print and exit 0.

use std::process::Command;

/// Runs `skald args…`: exit status, stdout, stderr.
fn skald(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skald"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("run skald");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts `args` fails with exactly one line `error: …` containing `expect`, status 1.
fn one_line_error(args: &[&str], expect: &str) {
    let (code, out, err) = skald(args);
    assert_eq!(code, Some(1), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: stdout {out}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {err}");
    assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
    assert!(lines[0].contains(expect), "{args:?}: {err}");
}

#[test]
fn parse_errors_are_one_line() {
    one_line_error(&["bogus"], "unrecognized subcommand 'bogus'");
    one_line_error(&["perft", "--variant", "tablut"], "--depth");
    one_line_error(
        &["perft", "--variant", "tablut", "--dept", "3"],
        "a similar argument exists: '--depth'",
    );
    one_line_error(
        &["perft", "--variant", "brandubh", "--depth", "2", "extra"],
        "unexpected argument 'extra'",
    );
    one_line_error(
        &["perft", "--variant", "brandubh", "--depth", "two"],
        "--depth must be a whole number from 1 to 64, got 'two'",
    );
    one_line_error(
        &[
            "analyze",
            "--variant",
            "tablut",
            "--depth",
            "3",
            "--time",
            "2",
        ],
        "cannot be used with",
    );
    one_line_error(&["play", "--variant", "chess"], "chess");
}

#[test]
fn negative_numbers_have_their_own_message() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "--variant", "tablut", "--depth", "-3"],
            "--depth must be a positive whole number, got -3",
        ),
        (
            &["bench", "--depth", "-1"],
            "--depth must be a positive whole number, got -1",
        ),
        (
            &["bench", "--threads", "0"],
            "--threads must be a positive whole number, got 0",
        ),
        (
            &["openings", "--variant", "ataxx", "--count", "-5"],
            "--count must be a positive whole number, got -5",
        ),
        (
            &["openings", "--variant", "ataxx", "--seed", "-1"],
            "--seed must be a whole number 0 or more, got -1",
        ),
        (
            &["analyze", "--variant", "tablut", "--depth", "-3"],
            "--depth must be a positive whole number, got -3",
        ),
        (
            &["analyze", "--variant", "tablut", "--time", "-2.5"],
            "--time must be a positive number, got -2.5",
        ),
        (
            &["match", "--variant", "tablut", "--games", "-2"],
            "--games must be a positive whole number, got -2",
        ),
    ];
    for (args, expect) in cases {
        one_line_error(args, expect);
    }
}

#[test]
fn numbers_above_their_bound_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "--variant", "ataxx", "--depth", "9"],
            "--depth must be at most 8 for ataxx",
        ),
        (
            &["perft", "--variant", "brandubh", "--depth", "8"],
            "--depth must be at most 7 for brandubh",
        ),
        (
            &["perft", "--variant", "tablut", "--depth", "7"],
            "--depth must be at most 6 for tablut",
        ),
        (
            &["perft", "--variant", "tawlbwrdd", "--depth", "6"],
            "--depth must be at most 5 for tawlbwrdd",
        ),
        (
            &["perft", "--variant", "ataxx", "--depth", "20"],
            "--depth must be at most 8",
        ),
        (
            &[
                "perft",
                "--variant",
                "ataxx",
                "--depth",
                "2",
                "--threads",
                "257",
            ],
            "--threads must be at most 256",
        ),
        (&["bench", "--depth", "30"], "--depth must be at most 10"),
        (
            &["openings", "--variant", "ataxx", "--count", "100000"],
            "--count must be at most 2000",
        ),
        (
            &["openings", "--variant", "ataxx", "--depth", "9"],
            "--depth must be at most 8",
        ),
        (
            &["openings", "--variant", "ataxx", "--plies", "41"],
            "--plies must be at most 40",
        ),
        (
            &["openings", "--variant", "brandubh", "--played", "0"],
            "--played must be a positive whole number",
        ),
    ];
    for (args, expect) in cases {
        one_line_error(args, expect);
    }
}

#[test]
fn help_and_version_still_work() {
    let (code, out, _) = skald(&["--version"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("skald "), "{out}");
    let (code, out, _) = skald(&["perft", "--help"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Usage:") && out.contains("--threads"), "{out}");
    // The bounds are in the help.
    assert!(out.contains("at most 8 for ataxx"), "{out}");
    let (code, out, _) = skald(&["help"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("perft"), "{out}");
}
