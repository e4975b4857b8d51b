//! A test that cannot run on this machine (a program it needs is not installed) is skipped
//! with a message, and counted: [`skipped`] says so on standard error and, when the
//! environment variable `SKALD_SKIPPED` names a file (scripts/test sets it), adds a line to it,
//! from which scripts/test's summary counts and lists the skipped tests. (Rust's test harness
//! has no skip at run time: cargo's own line for such a test says `ok`.) Under CI such tests
//! fail instead of skipping.

use std::io::Write;

/// Reports test `test` (its file and name, `tests/bot.rs bots_play_…`) as skipped for `reason`.
pub fn skipped(test: &str, reason: &str) {
    let line = format!("{test}: {reason}");
    eprintln!("SKIPPED {line}");
    if let Some(path) = std::env::var_os("SKALD_SKIPPED") {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path);
        if let Ok(mut file) = file {
            let _ = writeln!(file, "{line}");
        }
    }
}
