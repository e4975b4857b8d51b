//! The line-based TCP connection of `skald bot` to the server: one message a line each way,
//! every line logged with the password redacted (`--verbose`), a silent server tested with
//! `ping` and given up as half-open when it stays silent ([`super`]'s "A connection that goes
//! silent").

use anyhow::{Context, Result, anyhow, bail};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The longest line read from the server, bytes (its user lists grow with the accounts).
const MAX_LINE: u64 = 64 << 20;

/// The connection to the server is gone (closed by the server, or a read or write failed), or
/// the server refused a login for the moment (`logged_in_already`, `retried_too_soon`): the
/// errors after which `skald bot` reconnects. Every other error ends it.
#[derive(Debug)]
pub(super) struct ConnectionLost(pub(super) String);

impl std::fmt::Display for ConnectionLost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConnectionLost {}

/// A [`ConnectionLost`] error with `message`.
pub(super) fn lost(message: String) -> anyhow::Error {
    anyhow::Error::new(ConnectionLost(message))
}

/// The line-based TCP connection to the server, logging with the password redacted, and
/// testing a silent server with `ping` (see the module docs).
pub(super) struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    password: String,
    verbose: bool,
    /// Seconds of silence before a `ping`, and as many more before the connection counts as
    /// lost (`--keepalive`).
    keepalive: u64,
    /// The `ping`s sent and not yet answered, in order: `true` for the keepalive's own (whose
    /// `= ping` is taken here), `false` for the bot's (whose answer goes to the bot).
    pings: VecDeque<bool>,
    /// Logging out: a silent server ends the reading at once.
    closing: bool,
}

impl Connection {
    pub(super) fn open(
        address: &str,
        password: String,
        verbose: bool,
        keepalive: u64,
    ) -> Result<Connection> {
        let addrs: Vec<_> = address
            .to_socket_addrs()
            .with_context(|| format!("--server {address}: not a HOST:PORT that resolves"))?
            .collect();
        let mut last = None;
        for addr in &addrs {
            match TcpStream::connect_timeout(addr, Duration::from_secs(10)) {
                Ok(stream) => {
                    stream.set_nodelay(true).ok();
                    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
                    stream.set_read_timeout(Some(Duration::from_secs(keepalive)))?;
                    // The operating system's probes as well: they find a dead peer while the
                    // bot is not reading (a long search), and tell the network it is alive.
                    let probes = socket2::TcpKeepalive::new()
                        .with_time(Duration::from_secs(keepalive))
                        .with_interval(Duration::from_secs(keepalive.clamp(1, 10)));
                    socket2::SockRef::from(&stream)
                        .set_tcp_keepalive(&probes)
                        .ok();
                    return Ok(Connection {
                        reader: BufReader::new(stream.try_clone()?),
                        writer: stream,
                        password,
                        verbose,
                        keepalive,
                        pings: VecDeque::new(),
                        closing: false,
                    });
                }
                Err(e) => last = Some(e),
            }
        }
        match last {
            Some(e) => Err(anyhow!("cannot connect to {address}: {e}")),
            None => Err(anyhow!("--server {address}: no address")),
        }
    }

    /// `text` with the password (if any) replaced by `<password>`.
    pub(super) fn redact(&self, text: &str) -> String {
        if self.password.is_empty() {
            text.to_string()
        } else {
            text.replace(&self.password, "<password>")
        }
    }

    /// Sends `line`; `shown` is what the log shows instead (the login line).
    pub(super) fn send_as(&mut self, line: &str, shown: &str) -> Result<()> {
        if self.verbose {
            eprintln!("-> {}", self.redact(shown));
        }
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .map_err(|e| lost(format!("cannot write to the server: {e}")))?;
        if line == "ping" {
            self.pings.push_back(false);
        }
        Ok(())
    }

    pub(super) fn send(&mut self, line: &str) -> Result<()> {
        self.send_as(line, line)
    }

    /// Logs out and waits (at most 5 s) for the server to close the connection, so that
    /// neither side resets it with lines unread.
    pub(super) fn logout(&mut self) {
        if self.send("logout").is_err() {
            return;
        }
        let _ = self.writer.set_read_timeout(Some(Duration::from_secs(5)));
        self.closing = true;
        let verbose = std::mem::replace(&mut self.verbose, false);
        while let Ok(Some(_)) = self.read() {}
        self.verbose = verbose;
    }

    /// After `--keepalive` seconds without a line: sends a `ping`, or, if the last one is
    /// still unanswered after as long again, gives the connection up as lost.
    fn silence(&mut self) -> Result<()> {
        if self.closing {
            bail!("the server did not close the connection after the logout");
        }
        if self.pings.contains(&true) {
            return Err(lost(format!(
                "no answer from the server for {} s, a ping included (a half-open connection)",
                2 * self.keepalive
            )));
        }
        if self.verbose {
            eprintln!("-> ping (nothing from the server for {} s)", self.keepalive);
        }
        self.writer
            .write_all(b"ping\n")
            .map_err(|e| lost(format!("cannot write to the server: {e}")))?;
        self.pings.push_back(true);
        Ok(())
    }

    /// The next line (without its newline), or `None` when the server has closed the connection.
    /// The answers to the keepalive's own `ping`s are not returned.
    pub(super) fn read(&mut self) -> Result<Option<String>> {
        loop {
            let line = self.read_raw()?;
            if line.as_deref() == Some("= ping") && self.pings.pop_front() == Some(true) {
                continue;
            }
            if let Some(line) = &line
                && self.verbose
            {
                eprintln!("<- {}", self.redact(&shorten(line, 300)));
            }
            return Ok(line);
        }
    }

    /// The next line as it came, or `None` at the end of the connection.
    fn read_raw(&mut self) -> Result<Option<String>> {
        let mut bytes = Vec::new();
        loop {
            let room = MAX_LINE - bytes.len() as u64;
            match (&mut self.reader).take(room).read_until(b'\n', &mut bytes) {
                Ok(_) => break,
                // A read time-out (the bytes read so far are kept in `bytes`).
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    self.silence()?
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(lost(format!("cannot read from the server: {e}"))),
            }
        }
        if bytes.is_empty() {
            return Ok(None);
        }
        if bytes.last() != Some(&b'\n') && bytes.len() as u64 >= MAX_LINE {
            bail!("the server sent a line longer than {} MiB", MAX_LINE >> 20);
        }
        let line = String::from_utf8(bytes)
            .map_err(|_| anyhow!("the server sent a line that is not UTF-8"))?;
        Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
    }
}

fn shorten(line: &str, n: usize) -> String {
    if line.chars().count() > n {
        format!("{}…", line.chars().take(n).collect::<String>())
    } else {
        line.to_string()
    }
}
