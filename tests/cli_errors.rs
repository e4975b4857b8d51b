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
            "--depth must be a whole number from 1 to 64, got -3",
        ),
        (
            &["bench", "--depth", "-1"],
            "--depth must be a whole number from 1 to 10, got -1",
        ),
        (
            &["bench", "--threads", "0"],
            "--threads must be a whole number from 1 to 256, got 0",
        ),
        (
            &["openings", "--variant", "ataxx", "--count", "-5"],
            "--count must be a whole number from 1 to 2000, got -5",
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
            "--played must be a whole number from 1 to 10000000, got 0",
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

/// One vocabulary (issue 24): a flag error names the flag, not the engine option behind it;
/// a renamed flag still works and says what to use; `--time 0` says "more than 0".
#[test]
fn flag_errors_name_the_flag_and_old_names_say_what_to_use() {
    one_line_error(
        &[
            "analyze",
            "--variant",
            "brandubh",
            "--depth",
            "1",
            "--threads",
            "100000",
        ],
        "--threads: '100000' is not a whole number in 1..=",
    );
    one_line_error(
        &["play", "--variant", "brandubh", "--time", "0"],
        "more than 0 and at most 3600 seconds",
    );
    // The old spelling: the same error, after a note naming the new one.
    let (code, _, err) = skald(&["play", "--variant", "brandubh", "--movetime", "0"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with("note: --movetime is now --time (seconds)"),
        "{err}"
    );
    assert!(err.contains("error: --time must be more than 0"), "{err}");
    // `play --load` still reads a record, with the note.
    let record = std::env::temp_dir().join(format!("skald-vocab-{}.pgn", std::process::id()));
    std::fs::write(&record, "[Variant \"brandubh\"]\n\n1. d2-c2 *\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skald"))
        .args(["play", "--hotseat", "--load"])
        .arg(&record)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run skald");
    let _ = std::fs::remove_file(&record);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("note: --load is now --record"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 plies"));
}

/// `skald uci --variant` starts the engine in that variant; `hnefatafl` names Copenhagen.
#[test]
fn uci_subcommand_starts_in_a_variant() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skald"))
        .args(["uci", "--variant", "hnefatafl"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run skald");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"d\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Variant: copenhagen"), "{text}");
    one_line_error(&["uci", "--variant", "chess"], "unknown variant 'chess'");
}

/// `records --variant` reads a PGN game without a `Variant` tag as that variant (Ataxx by
/// default, as the Ataxx tools write none).
#[test]
fn records_take_the_variant_of_untagged_games() {
    let record = std::env::temp_dir().join(format!("skald-untagged-{}.pgn", std::process::id()));
    std::fs::write(&record, "[Event \"x\"]\n\n1. d2-c2 *\n").unwrap();
    let path = record.to_str().unwrap();
    let (code, out, err) = skald(&["records", path, "--variant", "brandubh"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("game 1: brandubh, 1 plies"), "{out}");
    // As Ataxx, `d2-c2` is no move.
    let (code, _, err) = skald(&["records", path]);
    let _ = std::fs::remove_file(&record);
    assert_eq!(code, Some(1), "{err}");
}
