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
        "--depth must be a whole number 1 or more, got 'two'",
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
            "--depth must be a whole number 1 or more, got -3",
        ),
        (
            &["bench", "--depth", "-1"],
            "--depth must be a whole number from 1 to 10, got -1",
        ),
        (
            &["bench", "--threads", "0"],
            "--threads must be a whole number from 1 to ",
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
            "--depth must be a whole number from 1 to 64, got -3; see 'skald analyze --help'",
        ),
        (
            &["analyze", "--variant", "tablut", "--time", "-2.5"],
            "--time must be a number of seconds more than 0 and at most 3600, got -2.5",
        ),
        (
            &["match", "--variant", "tablut", "--games", "-2"],
            "--games must be a whole number from 1 to 1000000, got -2",
        ),
        (
            &["play", "--seed", "-1"],
            "--seed must be a whole number 0 or more, got -1",
        ),
        (
            &["datagen", "--max-score", "-1"],
            "--max-score must be a whole number from 0 to 10000, got -1",
        ),
        (
            &["htp", "--threads", "-1"],
            "--threads must be a whole number from 1 to ",
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
            &["perft", "--variant", "copenhagen", "--depth", "6"],
            "--depth must be at most 5 for copenhagen",
        ),
        (&["datagen", "--plies", "41"], "--plies must be at most 40"),
        (
            &["datagen", "--plies", "14-41"],
            "--plies must be at most 40, got 41",
        ),
        (
            &["datagen", "--plies", "17-14"],
            "--plies: the range 17-14 runs backwards; write 14-17",
        ),
        (
            &["datagen", "--plies", "-3"],
            "--plies must be a whole number from 0 to 40",
        ),
        (
            &["datagen", "--plies", "4-x"],
            "--plies must be a whole number from 0 to 40",
        ),
        (
            &["datagen", "--max-score", "10001"],
            "--max-score must be at most 10000",
        ),
        (
            &["analyze", "--variant", "tablut", "--hash", "65537"],
            "--hash must be at most 65536",
        ),
        (&["htp", "--time", "3601"], "at most 3600, got 3601"),
        (
            &["bench", "--threads", "100000"],
            "--threads must be at most",
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
    assert!(out.contains("at most: ataxx 8,"), "{out}");
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
        "--threads must be at most",
    );
    one_line_error(
        &["play", "--variant", "brandubh", "--time", "0"],
        "--time must be a number of seconds more than 0 and at most 3600, got 0",
    );
    // The old spelling: the same error, after a note naming the new one.
    let (code, _, err) = skald(&["play", "--variant", "brandubh", "--movetime", "0"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with("note: --movetime is now --time (seconds)"),
        "{err}"
    );
    assert!(
        err.contains("error: --time must be a number of seconds more than 0"),
        "{err}"
    );
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
    assert!(String::from_utf8_lossy(&out.stdout).contains(", 1 ply"));
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
    assert!(out.contains("game 1: brandubh, 1 ply,"), "{out}");
    // `--record FILE`, as in play and analyze, is the same.
    let (code, out2, err) = skald(&["records", "--record", path, "--variant", "brandubh"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, out2);
    // As Ataxx, `d2-c2` is no move; the error says how the game was read, in all three
    // subcommands.
    let hint = "(the game has no Variant tag and was read as ataxx: give --variant)";
    one_line_error(&["records", path], hint);
    one_line_error(&["analyze", "--record", path, "--depth", "1"], hint);
    one_line_error(&["play", "--record", path, "--hotseat"], hint);
    // play reads it as --variant too.
    let (code, out, err) = skald(&[
        "play",
        "--record",
        path,
        "--hotseat",
        "--variant",
        "brandubh",
    ]);
    let _ = std::fs::remove_file(&record);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("brandubh, 1 ply"), "{out}");
}

/// The same bad number gets the same message everywhere, in words (no Rust parse errors, no
/// `1..=64`), and errors from the engine behind a flag name the flag and keep nothing.
#[test]
fn one_message_for_bad_numbers_and_flag_values() {
    for bad in ["1.5", "", "x"] {
        one_line_error(
            &["analyze", "--variant", "tablut", "--depth", bad],
            &format!("--depth must be a whole number from 1 to 64, got '{bad}'"),
        );
    }
    for args in [
        &["analyze", "--variant", "tablut", "--multipv", "0"][..],
        &["analyze", "--variant", "tablut", "--multipv", "-1"],
    ] {
        one_line_error(args, "--multipv must be a whole number from 1 to 64, got ");
    }
    one_line_error(
        &["htp", "--depth", "0"],
        "--depth must be a whole number from 1 to 64, got 0; see 'skald htp --help'",
    );
    one_line_error(
        &[
            "match",
            "--variant",
            "tablut",
            "--depth",
            "65",
            "--engine",
            "a",
            "--engine",
            "b",
        ],
        "--depth must be at most 64, got 65",
    );
    one_line_error(
        &["bench", "--eval-file", "/nonexistent/net.bin"],
        "--eval-file: cannot read network file /nonexistent/net.bin",
    );
    let (_, _, err) = skald(&["bench", "--eval-file", "/nonexistent/net.bin"]);
    assert!(
        !err.contains("keeping") && !err.contains("EvalFile"),
        "{err}"
    );
    one_line_error(
        &[
            "match",
            "--variant",
            "tablut",
            "--tc",
            "1+-1",
            "--engine",
            "a",
            "--engine",
            "b",
        ],
        "each a number from 0 to 1000000",
    );
    one_line_error(
        &["perft", "--variant", "tablut", "--depth", "1", "--fen", "x"],
        "bad FEN 'x': FEN has 1 field, expected 2 to 4",
    );
    one_line_error(
        &["perft", "--variant", "tablut", "--depth", "1", "--fen", "x"],
        "(a FEN of tablut: is --variant right?)",
    );
    one_line_error(
        &[
            "analyze",
            "--variant",
            "tablut",
            "--depth",
            "1",
            "--fen",
            "x",
        ],
        "bad FEN 'x': FEN has 1 field, expected 2 to 4 (<board> <side> [<clock> [<move number>]]) (a FEN of tablut: is --variant right?)",
    );
    // A file that is no network: words, not its first bytes.
    let net = std::env::temp_dir().join(format!("skald-notnet-{}.bin", std::process::id()));
    let mut bytes = b"#!sk not a network".to_vec();
    bytes.resize(40_000, b' ');
    std::fs::write(&net, bytes).unwrap();
    let (code, _, err) = skald(&[
        "analyze",
        "--variant",
        "ataxx",
        "--depth",
        "1",
        "--eval-file",
        net.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&net);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--eval-file: ") && err.contains("not a skald network file"),
        "{err}"
    );
    assert!(!err.contains("magic") && !err.contains("keeping"), "{err}");
}

/// Every bound is in `--help`, and the evaluation's default is said in words.
#[test]
fn bounds_and_defaults_are_in_help() {
    let help = |sub: &str| {
        let (code, out, err) = skald(&[sub, "--help"]);
        assert_eq!(code, Some(0), "{err}");
        out
    };
    let analyze = help("analyze");
    for want in [
        "1 to 64",
        "1 to four per core",
        "1 to 65536",
        "at most 3600",
        "[default: 1]",
    ] {
        assert!(
            analyze.contains(want),
            "analyze --help lacks '{want}':\n{analyze}"
        );
    }
    let htp = help("htp");
    for want in [
        "1 to 64",
        "at most 3600",
        "1 to four per core",
        "1 to 65536",
    ] {
        assert!(htp.contains(want), "htp --help lacks '{want}':\n{htp}");
    }
    let datagen = help("datagen");
    for want in [
        "1 to 65536",
        "0 to 40",
        "1 to 100000000",
        "0 to 10000",
        "[default: 150]",
        "copenhagen13",
        "hnefatafl",
    ] {
        assert!(
            datagen.contains(want),
            "datagen --help lacks '{want}':\n{datagen}"
        );
    }
    let matches = help("match");
    for want in ["1 to 64", "1 to 1000000", "at most 1000000"] {
        assert!(
            matches.contains(want),
            "match --help lacks '{want}':\n{matches}"
        );
    }
    let tablut = help("tablut-client");
    for want in ["1 to 3600 (the competition's default: 60)", "0 to 3600"] {
        assert!(
            tablut.contains(want),
            "tablut-client --help lacks '{want}':\n{tablut}"
        );
    }
    let bot = help("bot");
    for want in [
        "1 to 10000 minutes",
        "0 to 3600 seconds",
        "1 to 3600",
        "0 to 1000",
    ] {
        assert!(bot.contains(want), "bot --help lacks '{want}':\n{bot}");
    }
    for sub in ["analyze", "bench", "datagen", "openings"] {
        let text = help(sub);
        assert!(!text.contains("[default: <default>]"), "{sub}:\n{text}");
        assert!(
            text.contains("the built-in network of the variant (Ataxx, Copenhagen 11×11)"),
            "{sub}:\n{text}"
        );
    }
    for sub in [
        "play", "analyze", "match", "records", "openings", "datagen", "perft", "uci",
    ] {
        assert!(help(sub).contains("hnefatafl (= copenhagen)"), "{sub}");
    }
}

/// `match --output` errors name `--output` (not its old name `--records`).
#[test]
fn match_output_errors_name_the_flag() {
    let skald_bin = env!("CARGO_BIN_EXE_skald");
    let out = std::env::temp_dir().join(format!("skald-out-{}.otg", std::process::id()));
    let out = out.to_str().unwrap();
    let (code, _, err) = skald(&[
        "match",
        "--variant",
        "ataxx",
        "--depth",
        "1",
        "--games",
        "2",
        "--engine",
        skald_bin,
        "--engine",
        skald_bin,
        "--output",
        out,
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "--output {out}: OpenTafl records (.otg) are for tafl games"
        )),
        "{err}"
    );
}

/// `skald bot` checks every flag before it looks for the password (a bad `--clock` is reported
/// with no password set), and refuses the flags of the other mode (`--accept --clock`,
/// `--accept --rated`, `--create --opponent`) instead of ignoring them.
#[test]
fn bot_checks_its_flags_before_the_password() {
    let bot = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_skald"))
            .arg("bot")
            .args(args)
            .env_remove("SKALD_BOT_PASSWORD")
            .env("SKALD_BOT_USER", "tester")
            .output()
            .expect("run skald");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        err
    };
    for (args, want) in [
        (
            &["--create", "--clock", "15"][..],
            "'15' is not MINUTES+SECONDS (1 to 10000 minutes, 0 to 3600 seconds, as 15+10) or untimed",
        ),
        (
            &["--create", "--clock", "-1+0"],
            "'-1+0' is not MINUTES+SECONDS",
        ),
        (
            &["--create", "--level", "expert"],
            "'expert' is not easy, medium or hard",
        ),
        (
            &["--accept", "--clock", "5+5"],
            "the argument '--accept' cannot be used with '--clock <CLOCK>'",
        ),
        (
            &["--accept", "--rated"],
            "the argument '--accept' cannot be used with '--rated'",
        ),
        (
            &["--create", "--opponent", "bob"],
            "the argument '--create' cannot be used with '--opponent <NAME>'",
        ),
        (
            &["--create", "--keepalive", "0"],
            "--keepalive must be a whole number from 1 to 3600, got 0",
        ),
        // Good flags: only then the missing password.
        (&["--create", "--clock", "5+5"], "no password"),
    ] {
        let err = bot(args);
        assert!(err.contains(want), "{args:?}: {err}");
        if want != "no password" {
            assert!(!err.contains("password"), "{args:?}: {err}");
        }
    }
}

/// `match --engine` with an unknown field names the field (before: "cannot start engine
/// 'foo=bar …'"); `match --tc` with a negative time says what is wrong with the time control
/// (before: "unexpected argument '-1'").
#[test]
fn match_names_an_unknown_engine_field_and_a_bad_time_control() {
    one_line_error(
        &[
            "match",
            "--variant",
            "brandubh",
            "--engine",
            "foo=bar cmd=./skald",
            "--engine",
            "./skald",
        ],
        "--engine 'foo=bar cmd=./skald': unknown field 'foo=' (the fields: cmd=, args=, dir=, \
         stderr=, name=, proto=, option.<Name>=)",
    );
    one_line_error(
        &[
            "match",
            "--variant",
            "brandubh",
            "--tc",
            "-1+0",
            "--engine",
            "a",
            "--engine",
            "b",
        ],
        "--tc must be <seconds>+<increment seconds>, each a number from 0 to 1000000 (e.g. \
         10+0.1); the time is '-1' in '-1+0'",
    );
}

/// `perft --depth` has one bound per variant, the same in the help and in every error (before:
/// "at most 8 (for ataxx; …)" from the argument parser, "at most 6 for tablut" after it, and
/// "from 1 to 8" for a word).
#[test]
fn perft_depth_has_one_bound_per_variant() {
    let (_, help, _) = skald(&["perft", "--help"]);
    for (variant, max) in [
        ("ataxx", 8),
        ("brandubh", 7),
        ("tablut", 6),
        ("ashton", 6),
        ("tawlbwrdd", 5),
        ("copenhagen", 5),
        ("copenhagen13", 5),
    ] {
        for depth in [max + 1, 20] {
            one_line_error(
                &["perft", "--variant", variant, "--depth", &depth.to_string()],
                &format!(
                    "--depth must be at most {max} for {variant} (each ply more multiplies the \
                     time by 30 to 120), got {depth}"
                ),
            );
        }
        assert!(
            help.contains(&format!("{variant} {max}")),
            "perft --help does not say {max} for {variant}:\n{help}"
        );
    }
    one_line_error(
        &["perft", "--variant", "tablut", "--depth", "two"],
        "--depth must be a whole number 1 or more, got 'two'",
    );
}

/// `datagen --plies 0`: every game starts from the start position, so an unbalanced start
/// cannot be helped by more tries or by fewer plies (before: 1000 tries of the same position,
/// then "use fewer --plies", for "game 0"): one line that says so and what to change.
#[test]
fn datagen_with_no_random_plies_says_what_to_change() {
    let (code, out, err) = skald(&[
        "datagen",
        "--variant",
        "tablut",
        "--plies",
        "0",
        "--max-score",
        "0",
        "--games",
        "3",
        "--nodes",
        "100",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "error: with --plies 0 every game starts from the start position, which scores "
        ) && err.contains(", outside --max-score 0; give --plies above 0 or a --max-score of "),
        "{err}"
    );
    assert!(!err.contains("fewer") && !err.contains("game 0"), "{err}");
}
