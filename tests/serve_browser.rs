//! `skald serve`'s page in a real browser: `tests/browser/serve_page.py` drives headless
//! Chromium (Debian's `chromium` and `chromedriver`) through selenium (in the `.venv/` that
//! `./scripts/test` makes, or `$SKALD_PYTHON`): a whole Brandubh game and a whole Ataxx game
//! by clicks against the engine, every game at every level (a move and the reply, from either
//! side), a hot-seat game by mouse and by keyboard only with undo and flip, a record saved and
//! loaded, an OpenTafl rules string, analysis mode, and the page at a phone's width. Screenshots go to
//! a temporary directory (`SKALD_SCREENSHOTS=docs/img` to renew the README's, with
//! `SERVE_PAGE_NODES=400000` for a deeper analysis in them).
//!
//! Without the browser or selenium the test fails under CI (`CI` set; `./scripts/test`
//! installs them there) and is skipped with a message elsewhere.
#![cfg(feature = "serve")]

mod skip;

use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The Python with selenium, or why there is none.
fn python() -> Result<PathBuf, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var_os("SKALD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv/bin/python"));
    let ok = Command::new(&python)
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Ok(python)
    } else {
        Err(format!(
            "no Python with selenium at {} (./scripts/test makes .venv/ with it; or set \
             SKALD_PYTHON)",
            python.display()
        ))
    }
}

#[test]
fn the_page_played_in_headless_chromium() {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    let ready = if missing.is_empty() {
        python()
    } else {
        Err(format!(
            "{} missing (apt-get install chromium chromium-driver)",
            missing.join(" and ")
        ))
    };
    let python = match ready {
        Ok(p) => p,
        Err(msg) if in_ci() => panic!("{msg}"),
        Err(msg) => {
            skip::skipped(
                "tests/serve_browser.rs the_page_played_in_headless_chromium",
                &msg,
            );
            return;
        }
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shots = std::env::var_os("SKALD_SCREENSHOTS")
        .map(|d| root.join(d))
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("skald-serve-{}", std::process::id()))
        });
    let out = Command::new(&python)
        .arg(root.join("tests/browser/serve_page.py"))
        .arg(env!("CARGO_BIN_EXE_skald"))
        .arg(&shots)
        .output()
        .expect("run tests/browser/serve_page.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "the browser test failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains("all checks passed"), "{stdout}");
    for shot in [
        "serve-brandubh.png",
        "serve-ataxx.png",
        "serve-analysis.png",
        "serve-phone.png",
    ] {
        assert!(shots.join(shot).exists(), "no screenshot {shot}");
    }
}
