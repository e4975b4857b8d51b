//! The text protocols the engine speaks on stdin/stdout: the UCI-style protocol (with its UAI
//! dialect for Ataxx) in [`uci`]. See `protocol.md` at the repository root.

pub mod opentafl;
pub mod session;
pub mod uci;

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// A line-oriented, thread-safe output: every line is written whole and flushed at once, so the
/// search thread and the command loop never interleave within a line.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Output to the process's standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Output to any writer (tests use a buffer).
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(writer)),
        }
    }

    /// Writes `line` and a newline, then flushes. Write errors (a closed pipe) are ignored: the
    /// engine keeps running until it reads `quit` or end of input.
    pub fn line(&self, line: impl AsRef<str>) {
        let mut w = match self.inner.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = w.write_all(line.as_ref().as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }
}

/// Reads one line of raw bytes from `input` into a `String`, decoding invalid UTF-8 lossily and
/// dropping the line end (`\n` or `\r\n`). Returns `None` at end of input or on a read error.
pub fn read_line(input: &mut dyn BufRead, buf: &mut Vec<u8>) -> Option<String> {
    buf.clear();
    match input.read_until(b'\n', buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            Some(String::from_utf8_lossy(buf).into_owned())
        }
    }
}
