//! Drives the real `skald` binary over stdin/stdout, as GUIs and harnesses do.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a test waits for a line or an exit before it calls the engine hung. No test
/// measures speed: a wait only ends early, by the event it waits for; this bound is only for
/// hangs, and generous enough for a machine under heavy load.
pub const HUNG: Duration = Duration::from_secs(60);

/// Runs `skald` with `args` (a subcommand and its arguments) to its end, with no input.
pub fn run_skald(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skald"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run skald")
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl EngineProcess {
    /// Starts `skald` with `args`.
    pub fn start(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skald"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start skald");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to skald");
        stdin.flush().unwrap();
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until one satisfies `pred`; returns it. Panics after `timeout`.
    pub fn expect(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no expected line within {timeout:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "skald closed its output; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Reads lines until one starts with `prefix`.
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        let p = prefix.to_string();
        self.expect(HUNG, move |l| l.starts_with(&p))
    }

    /// Reads lines until the search reports `depth` completed (`info depth <depth> …`): an event
    /// that says a search is running and how far it got, where tests used to sleep.
    pub fn expect_depth(&mut self, depth: u32) -> String {
        let p = format!("info depth {depth} ");
        self.expect(HUNG, move |l| l.starts_with(&p))
    }

    /// Reads lines until the engine closes its output (it exits); returns them. Panics after
    /// [`HUNG`].
    pub fn read_to_end(&mut self) -> Vec<String> {
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(HUNG) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    rest.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => return rest,
                Err(RecvTimeoutError::Timeout) => panic!(
                    "skald did not close its output within {HUNG:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Sends `isready` and collects every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut before = Vec::new();
        loop {
            let line = self.expect(HUNG, |_| true);
            if line == "readyok" {
                return before;
            }
            before.push(line);
        }
    }

    /// The FEN the engine reports with `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let line = self.expect_prefix("Fen: ");
        line["Fen: ".len()..].to_string()
    }

    /// Sends `go …` and returns the move of the `bestmove` line.
    pub fn go(&mut self, go: &str) -> String {
        self.send(go);
        let line = self.expect(2 * HUNG, |l| l.starts_with("bestmove"));
        line.split_whitespace().nth(1).unwrap_or("").to_string()
    }

    /// Waits for the process to exit; panics after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("skald did not exit within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
