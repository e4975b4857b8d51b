//! The text protocols the engine speaks on stdin/stdout: the UCI-style protocol (with its UAI
//! dialect for Ataxx) in [`uci`], the OpenTafl engine protocol in [`opentafl`] and hnefatafl.org's
//! Hnefatafl Text Protocol in [`htp`]; [`tablut`] is the Tablut competition server's client
//! protocol (messages and states; `skald tablut-client` plays it). Each is a
//! parser and a formatter over [`crate::engine::Engine`]. See `protocol.md` at the repository
//! root.

pub mod hnefatafl_server;
pub mod htp;
pub mod opentafl;
pub mod tablut;
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

    /// An output kept in memory, and the handle that reads it (tests, in-process drivers).
    pub fn captured() -> (Output, Capture) {
        let capture = Capture::default();
        (Output::new(Box::new(capture.clone())), capture)
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

/// What an [`Output::captured`] output has written, shared with it.
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

impl Capture {
    /// Everything written since the last `take`, decoded lossily; the buffer is emptied.
    pub fn take(&self) -> String {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap_or_else(|p| p.into_inner()));
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The longest command line the engine accepts, in bytes (1 MiB, line end excluded). Longer lines
/// are read to their end and discarded whole (see [`read_line_capped`]).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// `text` without the UTF-8 byte order mark (U+FEFF) that some editors put at the start of a
/// file: every reader of text input (records, openings, command files) takes it off first.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The engine modes' command loop: reads lines of at most [`MAX_LINE_BYTES`] from `input` and
/// hands each to `command` as `Ok(line)`, or, for a longer line (consumed and discarded), the
/// error message to report as `Err(message)`. `command` returns `true` to quit. Returns `true`
/// when `command` quit, `false` at the end of input. A byte order mark at the start of the
/// input (commands piped from a file) is dropped ([`without_bom`]).
pub fn read_commands(
    input: &mut dyn BufRead,
    mut command: impl FnMut(Result<&str, String>) -> bool,
) -> bool {
    let mut buf = Vec::new();
    let mut first = true;
    while let Some(line) = read_line_capped(input, &mut buf, MAX_LINE_BYTES) {
        let quit = match line {
            Line::Text(line) if std::mem::take(&mut first) => command(Ok(without_bom(&line))),
            Line::Text(line) => command(Ok(&line)),
            Line::TooLong(n) => command(Err(format!(
                "line of {n} bytes ignored: longer than the limit of {MAX_LINE_BYTES} bytes"
            ))),
        };
        if quit {
            return true;
        }
    }
    false
}

/// One line as [`read_line_capped`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line, decoded lossily, without its line end.
    Text(String),
    /// The line was longer than the cap; it was read to its end (and discarded), holding at most
    /// the cap in memory. The value is its length in bytes.
    TooLong(usize),
}

/// Reads one line of raw bytes from `input` into a `String`, decoding invalid UTF-8 lossily and
/// dropping the line end (`\n` or `\r\n`); `None` at end of input or on a read error. A line
/// longer than `cap` bytes (line end excluded) is consumed up to its `\n` without being stored,
/// and reported as [`Line::TooLong`]: a client that sends gigabytes without a newline cannot
/// exhaust memory. The last line may lack its `\n`.
pub fn read_line_capped(input: &mut dyn BufRead, buf: &mut Vec<u8>, cap: usize) -> Option<Line> {
    buf.clear();
    let mut len = 0usize;
    let mut read_any = false;
    let mut last_cr = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if let Some(&b) = part.last() {
            last_cr = b == b'\r';
        }
        len = len.saturating_add(part.len());
        if len <= cap.saturating_add(1) {
            // One byte over the cap is kept: it may be the `\r` of a `\r\n`.
            buf.extend_from_slice(part);
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !read_any {
        return None;
    }
    if last_cr {
        if buf.len() == len {
            buf.pop();
        }
        len -= 1;
    }
    if len > cap {
        buf.clear();
        return Some(Line::TooLong(len));
    }
    Some(Line::Text(String::from_utf8_lossy(buf).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_in_lf_or_crlf_and_long_lines_are_reported() {
        let mut input: &[u8] = b"go\r\n\nisready\nxxxxxxxxxx\r\nabc\r\nlast";
        let mut buf = Vec::new();
        let mut next = || read_line_capped(&mut input, &mut buf, 5);
        assert_eq!(next(), Some(Line::Text("go".into())));
        assert_eq!(next(), Some(Line::Text(String::new())));
        assert_eq!(next(), Some(Line::TooLong(7)));
        assert_eq!(next(), Some(Line::TooLong(10)));
        assert_eq!(next(), Some(Line::Text("abc".into())));
        assert_eq!(next(), Some(Line::Text("last".into())));
        assert_eq!(next(), None);
    }

    /// A byte order mark before the first command is not part of it; elsewhere it is kept.
    #[test]
    fn a_byte_order_mark_before_the_first_command_is_dropped() {
        let mut input: &[u8] = "\u{feff}uci\n\u{feff}isready\n".as_bytes();
        let mut seen = Vec::new();
        read_commands(&mut input, |line| {
            seen.push(line.unwrap().to_string());
            false
        });
        assert_eq!(seen, ["uci", "\u{feff}isready"]);
    }
}
