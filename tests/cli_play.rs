//! `skald play` driven through piped standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn play(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skald"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start skald");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn hotseat_game_to_the_end() {
    let dir = std::env::temp_dir().join(format!("skald-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.pgn");
    let input = format!(
        "help\nfoo\nb7-b1\nundo\nmoves\nb6-a6\nd1-c1\nfen\na6-a7\nd1-d2\nsave {}\n",
        file.display()
    );
    // A king, an attacker; the king reaches a corner in two moves.
    let out = play(
        &[
            "--variant",
            "brandubh",
            "--hotseat",
            "--fen",
            "7/1K5/7/7/7/7/3t3 d 0 1",
        ],
        &input,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("two players"), "{text}");
    assert!(text.contains("undo "), "help text: {text}");
    assert!(text.contains("is neither a command nor a move"), "{text}");
    assert!(text.contains("legal moves:"), "{text}");
    assert!(text.contains("illegal move b7-b1"), "{text}");
    assert!(text.contains("nothing to take back"), "{text}");
    assert!(text.contains("7/K6/7/7/7/7/2t4 d"), "fen: {text}");
    assert!(
        text.contains("Game over: defenders win (king escaped)."),
        "{text}"
    );
    assert!(
        text.contains("the game is over"),
        "a move after the end: {text}"
    );
    assert!(
        text.contains('♔') && !text.contains('\x1b'),
        "plain Unicode board: {text}"
    );
    let record = std::fs::read_to_string(&file).unwrap();
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(record.contains("1... b6-a6 2. d1-c1 a6-a7 0-1"), "{record}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn against_the_engine_easy() {
    // The engine moves first (you are o), then a hint, an illegal move, undo and resign.
    let out = play(
        &[
            "--variant",
            "ataxx",
            "--side",
            "o",
            "--level",
            "easy",
            "--seed",
            "7",
        ],
        "hint\na1a1\nundo\nresign\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("skald (easy) is thinking"), "{text}");
    assert!(text.contains("skald plays "), "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains("Game over: x wins (o resigned)."), "{text}");
}

#[test]
fn bad_arguments_are_errors() {
    for args in [
        &["--level", "grandmaster"][..],
        &["--variant", "chess"],
        &["--fen", "nonsense"],
        &["--variant", "ataxx", "--side", "attackers"],
    ] {
        let out = play(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn upper_case_moves_illegal_ataxx_moves_and_the_winner_in_the_status() {
    // Upper case in both families.
    let out = play(&["--variant", "brandubh", "--hotseat"], "D2-F2\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("last move d2-f2"), "{text}");
    // An Ataxx move against the rules reads like tafl's.
    let out = play(&["--variant", "ataxx", "--hotseat"], "d4\nA7A4\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("illegal move d4: no x stone next to d4 to clone from"),
        "{text}"
    );
    assert!(text.contains("illegal move a7a4: too far"), "{text}");
    assert!(!text.contains("neither a command nor a move"), "{text}");
    // x fills the board: the status line under the board names the winner.
    let out = play(
        &[
            "--variant",
            "ataxx",
            "--hotseat",
            "--fen",
            "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxo1 x 0 1",
        ],
        "G1\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("game over: x wins (board full) · move 1 · last move g1"),
        "{text}"
    );
    assert!(!text.contains("o to move"), "{text}");
}

#[test]
fn engine_options_with_hotseat_are_one_line_errors() {
    for args in [
        &["--hotseat", "--level", "hard"][..],
        &["--hotseat", "--side", "defenders"],
        &["--hotseat", "--seed", "3"],
        &["--hotseat", "--movetime", "2"],
    ] {
        let out = play(args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
}

/// One invalid UTF-8 byte in a line is that line's error, and the game goes on (before, `play`
/// exited with "stream did not contain valid UTF-8"), as in the engine's protocols; a byte
/// order mark before the first line (input from a file an editor saved) is no part of it.
#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let out = play(
        &["--variant", "brandubh", "--hotseat"],
        b"\xef\xbb\xbfd1-c1\n\xff\nc4-c5\nfen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("error: the line is not valid UTF-8; ignored"),
        "{text}"
    );
    // Both moves played: the first line's despite its byte order mark, the second after the
    // bad line.
    assert!(text.contains("last move c4-c5"), "{text}");
    assert!(
        text.contains("3t3/3t3/2TT3/tt1KTtt/3T3/3t3/2t4 a 2 2"),
        "{text}"
    );
    assert!(!text.contains("neither a command nor a move"), "{text}");
}
