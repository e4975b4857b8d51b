//! `skald match` of skald against itself, and `skald openings`.

use std::process::Command;

const SKALD: &str = env!("CARGO_BIN_EXE_skald");

#[test]
fn short_self_match_with_openings_records_and_sprt() {
    let dir = std::env::temp_dir().join(format!("skald-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    let records = dir.join("games.pgn");
    let out = Command::new(SKALD)
        .args([
            "openings",
            "--variant",
            "brandubh",
            "--plies",
            "3",
            "--count",
            "2",
            "--seed",
            "5",
        ])
        .args(["--output", book.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fens = std::fs::read_to_string(&book).unwrap();
    assert_eq!(fens.lines().count(), 2, "{fens}");
    assert!(
        fens.lines()
            .all(|l| l.ends_with(" d 0 2") || l.contains(" d ")),
        "{fens}"
    );

    let out = Command::new(SKALD)
        .args([
            "match",
            "--variant",
            "brandubh",
            "--games",
            "4",
            "--tc",
            "0.5+0.01",
        ])
        .args(["--engine", SKALD])
        .args([
            "--engine",
            &format!("name=weak cmd={SKALD} option.Skill Level=easy"),
        ])
        .args(["--concurrency", "2", "--sprt", "elo0=0", "elo1=20"])
        .args([
            "--openings",
            book.to_str().unwrap(),
            "--records",
            records.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.matches("Finished game").count(), 4, "{text}");
    assert!(text.contains("Score of skald 0.1.0 vs weak: "), "{text}");
    assert!(text.contains("Elo difference: "), "{text}");
    assert!(text.contains("LOS: "), "{text}");
    assert!(text.contains("SPRT: llr "), "{text}");
    let pgn = std::fs::read_to_string(&records).unwrap();
    assert_eq!(pgn.matches("[Event \"skald match\"]").count(), 4, "{pgn}");
    assert_eq!(pgn.matches("[FEN \"").count(), 4, "{pgn}");
    assert!(pgn.contains("[Attackers \"weak\"]") && pgn.contains("[Defenders \"weak\"]"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_engines_and_arguments() {
    let cases: Vec<Vec<String>> = vec![
        vec![
            "--engine".into(),
            "/nonexistent/engine".into(),
            "--engine".into(),
            SKALD.into(),
        ],
        vec!["--engine".into(), SKALD.into()],
        vec![
            "--engine".into(),
            SKALD.into(),
            "--engine".into(),
            SKALD.into(),
            "--tc".into(),
            "abc".into(),
        ],
        vec![
            "--engine".into(),
            SKALD.into(),
            "--engine".into(),
            SKALD.into(),
            "--sprt".into(),
            "elo0=5".into(),
            "elo1=0".into(),
        ],
    ];
    for args in cases {
        let out = Command::new(SKALD)
            .args(["match", "--variant", "brandubh", "--games", "2"])
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// A fake engine as a shell script: handshakes, then answers `go` with `$answer`.
fn fake_engine(dir: &std::path::Path, name: &str, answer: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n\
         uci) echo 'id name {name}'; echo uciok;;\nisready) echo readyok;;\n\
         go*) {answer};;\nquit) exit 0;;\nesac; done\n"
    );
    std::fs::write(&path, script).unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn the_runner_adjudicates_illegal_moves_and_flag_falls() {
    let dir = std::env::temp_dir().join(format!("skald-fakes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let liar = fake_engine(&dir, "liar", "echo 'bestmove a1-a2'");
    let sleeper = fake_engine(&dir, "sleeper", ":");
    for (fake, why) in [
        (liar, "played an illegal move 'a1-a2'"),
        (sleeper, "loses on time"),
    ] {
        let out = Command::new(SKALD)
            .args([
                "match",
                "--variant",
                "brandubh",
                "--games",
                "2",
                "--tc",
                "0.2+0",
            ])
            .args(["--engine", SKALD, "--engine", &fake])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert_eq!(text.matches(why).count(), 2, "{text}");
        assert!(text.contains(": 2 - 0 - 0"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
