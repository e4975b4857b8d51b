//! `skald analyze` in both output forms, and its errors.

use std::process::{Command, Output};

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skald"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("run skald")
}

#[test]
fn readable_lines_per_depth() {
    let out = analyze(&[
        "--variant",
        "brandubh",
        "--moves",
        "d2-f2",
        "--depth",
        "4",
        "--multipv",
        "2",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for d in 1..=4 {
        assert!(
            text.contains(&format!("depth  {d} #1 ")),
            "depth {d}: {text}"
        );
        assert!(
            text.contains(&format!("depth  {d} #2 ")),
            "depth {d}: {text}"
        );
    }
    assert!(text.contains("defenders to move"), "{text}");
    assert!(text.contains("best move "), "{text}");
    assert!(text.contains("after "), "{text}");
    assert!(text.contains(" pv "), "{text}");
}

#[test]
fn json_objects() {
    let out = analyze(&["--variant", "ataxx", "--depth", "3", "--json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, l) in lines[..3].iter().enumerate() {
        assert!(l.starts_with('{') && l.ends_with('}'), "{l}");
        assert!(l.contains(&format!("\"depth\":{}", i + 1)), "{l}");
        assert!(
            l.contains("\"score\":{\"cp\":") || l.contains("\"mate\""),
            "{l}"
        );
        assert!(l.contains("\"pv\":[\""), "{l}");
    }
    assert!(lines[3].contains("\"bestmove\":\""), "{}", lines[3]);
}

#[test]
fn bad_input_is_an_error() {
    for args in [
        &["--variant", "tablut", "--moves", "e1-e9"][..],
        &["--variant", "brandubh", "--fen", "x"],
        &["--variant", "brandubh", "--time", "-1"],
        &["--variant", "brandubh", "--fen", "7/7/7/7/7/7/3t3 d 0 1"],
    ] {
        let out = analyze(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// `--record`: the header counts plies; in `--json` each position's `score` is from the side
/// to move's view (as UCI) and `score_first` from the first side's (as the text table), so the
/// two agree when the first side is to move and are opposite when the second side is.
#[test]
fn record_scores_in_both_views() {
    let record = std::env::temp_dir().join(format!("skald-analyze-{}.pgn", std::process::id()));
    std::fs::write(&record, "[Variant \"brandubh\"]\n\n1. d2-f2 d3-e3 *\n").unwrap();
    let path = record.to_str().unwrap();
    let text_out = analyze(&["--record", path, "--depth", "2"]);
    let json_out = analyze(&["--record", path, "--depth", "2", "--json"]);
    let _ = std::fs::remove_file(&record);
    let text = String::from_utf8_lossy(&text_out.stdout);
    assert!(text_out.status.success(), "{text}");
    assert!(text.contains(": 2 plies; searching"), "{text}");
    let json = String::from_utf8_lossy(&json_out.stdout);
    assert!(json_out.status.success(), "{json}");
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{json}");
    for (ply, side_sign) in [(0, 1), (1, -1)] {
        let l = &lines[ply];
        let cp = |k: &str| l[k]["cp"].as_i64().unwrap_or_else(|| panic!("{l}"));
        assert_eq!(cp("score_first"), side_sign * cp("score"), "{l}");
    }
}

#[test]
fn speeds_are_in_nps() {
    let out = analyze(&["--variant", "ataxx", "--depth", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(" nps  pv "), "{text}");
    assert!(!text.contains("kn/s"), "{text}");
}
