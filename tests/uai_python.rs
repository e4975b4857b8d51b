//! Full Ataxx games played through the PyPI `ataxx` package's UAI client (`ataxx.uai.Engine`,
//! 2.2.0), every engine move checked with the package's own `Board.is_legal`: the driver is
//! `scripts/uai_games.py`, run with the virtual environment's Python that `./scripts/test`
//! creates in `.venv/` (or `$SKALD_PYTHON`). Without that environment the test fails under CI
//! (`CI` set) and is skipped with a message elsewhere.

mod skip;

use std::path::PathBuf;
use std::process::Command;

fn python() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("SKALD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv/bin/python"));
    let ok = Command::new(&python)
        .args([
            "-c",
            "import ataxx, ataxx.uai; assert ataxx.__version__ == '2.2.0'",
        ])
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(python)
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

#[test]
fn python_ataxx_plays_full_games_with_only_legal_moves() {
    let Some(python) = python() else {
        let msg = "no Python with ataxx 2.2.0 in .venv/ (run ./scripts/test, which creates it, \
                   or set SKALD_PYTHON)";
        if in_ci() {
            panic!("{msg}");
        }
        skip::skipped(
            "tests/uai_python.rs python_ataxx_plays_full_games_with_only_legal_moves",
            msg,
        );
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/uai_games.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_skald"))
        .arg("4")
        .output()
        .expect("run scripts/uai_games.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "python-ataxx games failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains("OK: 4 games"), "{stdout}");
}
