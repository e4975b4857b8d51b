//! `skald play` driven through piped standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn play(args: &[&str], input: &str) -> Output {
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
        .write_all(input.as_bytes())
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
    assert!(text.contains("Game over: o resigned: x wins."), "{text}");
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
