//! An engine as a child process: started by its [`EngineSpec`] (command, working directory,
//! standard error), spoken to a line at a time; its lines are read on a thread of their own so
//! that every wait has a deadline.

use super::api::WaitError;
use super::spec::EngineSpec;
use anyhow::{Context, Result, anyhow, bail};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts the program of `spec` in its directory, its standard error to its file.
    ///
    /// # Errors
    /// The directory does not exist, the standard error file cannot be opened, the program
    /// cannot be started.
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess> {
        let what = spec.label();
        let mut command = Command::new(spec.program());
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        if let Some(dir) = &spec.dir {
            if !dir.is_dir() {
                bail!(
                    "engine '{what}': the working directory '{}' does not exist",
                    dir.display()
                );
            }
            command.current_dir(dir);
        }
        match &spec.stderr {
            None => {
                command.stderr(Stdio::null());
            }
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| {
                        format!(
                            "engine '{what}': cannot open stderr file {}",
                            path.display()
                        )
                    })?;
                command.stderr(Stdio::from(file));
            }
        }
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot start engine '{what}'"))?;
        let stdout = child.stdout.take().expect("piped stdout");
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
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| anyhow!("engine input closed"))?;
        stdin.write_all(format!("{line}\n").as_bytes())?;
        stdin.flush()?;
        Ok(())
    }

    /// Sends one line while a move is awaited: an engine that cannot be written to has gone
    /// away ([`WaitError::Disconnected`]).
    pub fn tell(&mut self, line: &str) -> Result<(), WaitError> {
        self.send(line).map_err(|_| WaitError::Disconnected)
    }

    /// Reads lines until `pred` accepts one (returned), the deadline passes (never when
    /// `deadline` is `None`), the engine goes away, or `abort` is set.
    pub fn wait_for(
        &mut self,
        deadline: Option<Instant>,
        abort: Option<&std::sync::atomic::AtomicBool>,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Result<String, WaitError> {
        loop {
            if abort.is_some_and(|a| a.load(std::sync::atomic::Ordering::Relaxed)) {
                return Err(WaitError::Aborted);
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) {
                return Err(WaitError::Timeout);
            }
            let step = deadline.map_or(Duration::from_millis(50), |d| {
                (d - now).min(Duration::from_millis(50))
            });
            match self.lines.recv_timeout(step) {
                Ok(line) => {
                    if pred(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(WaitError::Disconnected),
            }
        }
    }

    /// Takes the lines the engine has sent and nobody has read yet (none of them awaited:
    /// they came after the answer to the last request, or with no request outstanding), and
    /// reports on standard error each one `is_answer` accepts, as ignored: `who` names the
    /// engine. An answer sent twice (a second `bestmove`) is thus never taken for the answer
    /// to the next request.
    pub fn discard_unasked(&mut self, who: &str, is_answer: impl Fn(&str) -> bool) {
        while let Ok(line) = self.lines.try_recv() {
            if is_answer(&line) {
                ignored_answer(who, &line);
            }
        }
    }

    /// Asks the engine to quit with the protocol's `bye` line, and kills it if it has not
    /// within a short while.
    pub fn quit(mut self, bye: &str) {
        let _ = self.send(bye);
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

/// Reports an answer of engine `who` that came with no request outstanding, and is ignored.
pub fn ignored_answer(who: &str, line: &str) {
    eprintln!(
        "skald match: engine '{who}' sent '{}' with no request outstanding; ignored",
        line.trim()
    );
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
