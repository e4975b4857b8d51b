//! An engine as a child process spoken to over the engine protocol (protocol.md): used by
//! `skald match`. Lines are read on a thread of their own so that every wait has a deadline.

use anyhow::{Context, Result, anyhow, bail};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine is started and set up: `--engine` of `skald match`.
///
/// The text is either a plain command line (`./target/release/skald`, words split at spaces),
/// or `key=value` fields: `cmd=<command line>`, `name=<display name>`, and any number of
/// `option.<Name>=<value>` (sent as `setoption name <Name> value <value>`). A field's value runs
/// to the next field, so names and values may contain spaces:
/// `name=easy cmd=./skald option.Skill Level=2 option.Hash=32`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Program and arguments.
    pub command: Vec<String>,
    /// The name to show; `None` to use the engine's `id name`.
    pub name: Option<String>,
    /// `(name, value)` options, in order.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Parses the `--engine` text (see the type's documentation).
    pub fn parse(text: &str) -> Result<EngineSpec> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            bail!("empty --engine");
        }
        let is_field =
            |w: &str| w.starts_with("cmd=") || w.starts_with("name=") || w.starts_with("option.");
        if !is_field(words[0]) {
            return Ok(EngineSpec {
                command: words.iter().map(|s| s.to_string()).collect(),
                name: None,
                options: Vec::new(),
            });
        }
        // Group the words into fields: a field starts at a word that looks like one.
        let mut fields: Vec<String> = Vec::new();
        for w in words {
            if is_field(w) || fields.is_empty() {
                fields.push(w.to_string());
            } else {
                let last = fields.last_mut().expect("non-empty");
                last.push(' ');
                last.push_str(w);
            }
        }
        let mut spec = EngineSpec {
            command: Vec::new(),
            name: None,
            options: Vec::new(),
        };
        for f in fields {
            if let Some(cmd) = f.strip_prefix("cmd=") {
                spec.command = cmd.split_whitespace().map(str::to_string).collect();
            } else if let Some(name) = f.strip_prefix("name=") {
                spec.name = Some(name.trim().to_string());
            } else if let Some(opt) = f.strip_prefix("option.") {
                let (n, v) = opt.split_once('=').ok_or_else(|| {
                    anyhow!("engine option '{opt}': expected option.<Name>=<value>")
                })?;
                if n.trim().is_empty() {
                    bail!("engine option '{opt}': the name is empty");
                }
                spec.options
                    .push((n.trim().to_string(), v.trim().to_string()));
            }
        }
        if spec.command.is_empty() {
            bail!("--engine '{text}': no command (cmd=<command>)");
        }
        Ok(spec)
    }
}

/// What went wrong while waiting for an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (exited or crashed).
    Disconnected,
    /// The caller asked to stop waiting.
    Aborted,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The engine's `id name`, once known.
    pub id_name: Option<String>,
}

impl EngineProcess {
    /// Starts the engine and does the handshake: `uci`/`uciok` (or `uai`/`uaiok` when `uai`),
    /// then the options, then `isready`/`readyok`.
    pub fn start(
        spec: &EngineSpec,
        uai: bool,
        setup: &[(String, String)],
    ) -> Result<EngineProcess> {
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine '{}'", spec.command.join(" ")))?;
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
        let mut e = EngineProcess {
            child,
            stdin,
            lines: rx,
            id_name: None,
        };
        let (hello, ok) = if uai {
            ("uai", "uaiok")
        } else {
            ("uci", "uciok")
        };
        let what = spec.command.join(" ");
        e.send(hello)
            .with_context(|| format!("engine '{what}' does not read its input"))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut id_name = None;
        e.wait_for(deadline, None, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                id_name = Some(n.trim().to_string());
            }
            l.trim() == ok
        })
        .map_err(|err| anyhow!("engine '{what}' did not answer '{hello}' with '{ok}' ({err:?})"))?;
        e.id_name = id_name;
        for (name, value) in setup.iter().chain(&spec.options) {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.sync(Duration::from_secs(10))
            .map_err(|err| anyhow!("engine '{what}' did not answer 'isready' ({err:?})"))?;
        Ok(e)
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

    /// `isready` and wait for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), WaitError> {
        self.send("isready").map_err(|_| WaitError::Disconnected)?;
        self.wait_for(Instant::now() + timeout, None, |l| l.trim() == "readyok")
            .map(|_| ())
    }

    /// Reads lines until `pred` accepts one (returned), the deadline passes, the engine goes
    /// away, or `abort` is set.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        abort: Option<&std::sync::atomic::AtomicBool>,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Result<String, WaitError> {
        loop {
            if abort.is_some_and(|a| a.load(std::sync::atomic::Ordering::Relaxed)) {
                return Err(WaitError::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(WaitError::Timeout);
            }
            let step = (deadline - now).min(Duration::from_millis(50));
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

    /// Asks the engine to quit, and kills it if it has not within a short while.
    pub fn quit(mut self) {
        let _ = self.send("quit");
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

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_command() {
        let s = EngineSpec::parse("./skald --x").unwrap();
        assert_eq!(s.command, vec!["./skald", "--x"]);
        assert!(s.name.is_none() && s.options.is_empty());
    }

    #[test]
    fn fields() {
        let s = EngineSpec::parse("name=easy one cmd=./skald option.Skill Level=2 option.Hash=8")
            .unwrap();
        assert_eq!(s.command, vec!["./skald"]);
        assert_eq!(s.name.as_deref(), Some("easy one"));
        assert_eq!(
            s.options,
            vec![
                ("Skill Level".to_string(), "2".to_string()),
                ("Hash".to_string(), "8".to_string())
            ]
        );
        assert!(EngineSpec::parse("name=x").is_err());
        assert!(EngineSpec::parse("cmd=x option.Hash").is_err());
    }
}
