//! An engine as a child process spoken to over the engine protocol (protocol.md): used by
//! `skald match`. Lines are read on a thread of their own so that every wait has a deadline.

use anyhow::{Context, Result, anyhow, bail};
use skald::engine::new_session;
use skald::engine::session::Session;
use skald::game::Side;
use skald::tafl::opentafl as notation;
use skald::variant::Variant;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How an engine is started and set up: `--engine` of `skald match`.
///
/// The text is split into words by POSIX shell rules (quotes and backslashes, by the
/// `shell-words` crate). It is either a plain command line (`./target/release/skald`,
/// `'/opt/my engine/run' --fast`), or `key=value` fields:
/// - `cmd=<command line>`: the program and its arguments;
/// - `args=<arguments>`: more arguments, appended to those of `cmd=`;
/// - `dir=<directory>`: the engine's working directory (a relative program path with a `/` in
///   it, such as `./engine`, is then taken from that directory);
/// - `stderr=<file>`: the engine's standard error is appended to this file (otherwise it is
///   thrown away);
/// - `name=<display name>`;
/// - `proto=uci|uai|htp|otep`: the protocol the engine speaks (default: UCI for tafl, UAI for
///   Ataxx). `htp` is hnefatafl.org's Hnefatafl Text Protocol (Copenhagen only, from the start
///   position), `otep` the OpenTafl engine protocol (tafl); see [`Proto`];
/// - any number of `option.<Name>=<value>` (sent as `setoption name <Name> value <value>`).
///
/// A field's value runs to the next word that starts a field, so names and values may contain
/// spaces: `name=easy cmd=./skald option.Skill Level=2 option.Hash=32`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Program and arguments (those of `args=` included).
    pub command: Vec<String>,
    /// The name to show; `None` to use the engine's `id name`.
    pub name: Option<String>,
    /// `(name, value)` options, in order.
    pub options: Vec<(String, String)>,
    /// Working directory of the engine; `None` for the runner's.
    pub dir: Option<PathBuf>,
    /// File the engine's standard error is appended to; `None` to discard it.
    pub stderr: Option<PathBuf>,
    /// The protocol (`proto=`); `None`: UCI for tafl, UAI for Ataxx.
    pub proto: Option<Proto>,
}

/// The protocol an engine of `skald match` speaks.
///
/// - `Uci` / `Uai`: protocol.md; each move `position fen … moves …` and `go`, answered by
///   `bestmove`.
/// - `Htp`: hnefatafl.org's Hnefatafl Text Protocol (protocol.md, "HTP"): `board_size 11|13` and
///   `time_settings` per game, the other side's moves as `play ROLE FROM TO`, then
///   `generate_move ROLE`, answered by `= play ROLE FROM TO` (`= play ROLE resigns …` resigns).
///   Copenhagen only, from the start position; no options.
/// - `Otep`: the OpenTafl engine protocol (OpenTafl's opentafl-engine-protocol.txt): the engine
///   says `hello`; per game `rules <OpenTafl rules string>`; per move `opponent-move <move>
///   <position record>`, `clock …`, `play attackers|defenders`, answered by `move <move>` and
///   confirmed with `move <position record>`; `finish <code>` at the end, `goodbye` to quit.
///   Tafl only; no options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI (tafl).
    Uci,
    /// UAI (Ataxx).
    Uai,
    /// hnefatafl.org's Hnefatafl Text Protocol.
    Htp,
    /// The OpenTafl engine protocol.
    Otep,
}

impl Proto {
    /// The protocol's name as people write it: `UCI`, `UAI`, `HTP`, `OTEP`.
    pub const fn name(self) -> &'static str {
        match self {
            Proto::Uci => "UCI",
            Proto::Uai => "UAI",
            Proto::Htp => "HTP",
            Proto::Otep => "OTEP",
        }
    }

    /// Parses `uci`, `uai`, `htp` or `otep` (any case).
    pub fn parse(text: &str) -> Result<Proto> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Ok(Proto::Uci),
            "uai" => Ok(Proto::Uai),
            "htp" => Ok(Proto::Htp),
            "otep" => Ok(Proto::Otep),
            _ => bail!("proto='{text}': expected uci, uai, htp or otep"),
        }
    }
}

/// The field keys of an engine spec (`option.` is a prefix of its own).
const KEYS: [&str; 6] = ["cmd=", "args=", "dir=", "stderr=", "name=", "proto="];

fn is_field(word: &str) -> bool {
    word.starts_with("option.") || KEYS.iter().any(|k| word.starts_with(k))
}

impl EngineSpec {
    /// Parses the `--engine` text (see the type's documentation).
    pub fn parse(text: &str) -> Result<EngineSpec> {
        let words = shell_words::split(text)
            .map_err(|e| anyhow!("--engine '{text}': {e} (quote as in a shell)"))?;
        if words.is_empty() {
            bail!("empty --engine");
        }
        let mut spec = EngineSpec {
            command: Vec::new(),
            name: None,
            options: Vec::new(),
            dir: None,
            stderr: None,
            proto: None,
        };
        if !is_field(&words[0]) {
            spec.command = words;
            return Ok(spec);
        }
        // Group the words into fields: a field starts at a word that looks like one.
        let mut fields: Vec<Vec<String>> = Vec::new();
        for w in words {
            match fields.last_mut() {
                Some(f) if !is_field(&w) => f.push(w),
                _ => fields.push(vec![w]),
            }
        }
        let mut args = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for mut f in fields {
            let first = f.remove(0);
            if let Some(opt) = first.strip_prefix("option.") {
                let joined = std::iter::once(opt.to_string())
                    .chain(f)
                    .collect::<Vec<_>>()
                    .join(" ");
                let (n, v) = joined.split_once('=').ok_or_else(|| {
                    anyhow!("--engine option '{joined}': expected option.<Name>=<value>")
                })?;
                if n.trim().is_empty() {
                    bail!("--engine option '{joined}': the name is empty");
                }
                spec.options
                    .push((n.trim().to_string(), v.trim().to_string()));
                continue;
            }
            let (key, value) = first.split_once('=').expect("a field has '='");
            let key = KEYS
                .iter()
                .map(|k| k.trim_end_matches('='))
                .find(|k| *k == key)
                .expect("a known key");
            if seen.contains(&key) {
                bail!("--engine '{text}': {key}= given twice");
            }
            seen.push(key);
            // The words of the value: the rest of the first word (if any), then the others.
            let words: Vec<String> = std::iter::once(value.to_string())
                .filter(|v| !v.is_empty())
                .chain(f)
                .collect();
            let joined = || words.join(" ");
            match key {
                "cmd" => spec.command = words.clone(),
                "args" => args = words.clone(),
                "name" => spec.name = Some(joined()).filter(|n| !n.is_empty()),
                "dir" => spec.dir = Some(PathBuf::from(joined())),
                "stderr" => spec.stderr = Some(PathBuf::from(joined())),
                "proto" => spec.proto = Some(Proto::parse(&joined())?),
                _ => unreachable!("all keys handled"),
            }
        }
        if spec.command.is_empty() {
            bail!("--engine '{text}': no command (cmd=<command>)");
        }
        spec.command.extend(args);
        if spec.dir.as_ref().is_some_and(|d| d.as_os_str().is_empty()) {
            bail!("--engine '{text}': dir= is empty");
        }
        if spec
            .stderr
            .as_ref()
            .is_some_and(|d| d.as_os_str().is_empty())
        {
            bail!("--engine '{text}': stderr= is empty");
        }
        Ok(spec)
    }

    /// The program to run: with `dir=`, a relative path containing `/` is taken from that
    /// directory; otherwise as given (a bare name is looked up in `PATH`).
    pub fn program(&self) -> PathBuf {
        let p = Path::new(&self.command[0]);
        match &self.dir {
            Some(d) if p.is_relative() && self.command[0].contains('/') => d.join(p),
            _ => p.to_path_buf(),
        }
    }

    /// The name to show before the engine has told its own: `name=` or the command line.
    pub fn label(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| shell_words::join(&self.command))
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
    /// The option names the engine declared (`option name <Name> type …`), in order.
    pub declared: Vec<String>,
    /// The protocol it speaks.
    pub proto: Proto,
    /// HTP/OTEP: how many moves of the current game the engine has been told (or made itself).
    told: usize,
}

/// An engine's answer to a request for a move ([`EngineProcess::request_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveReply {
    /// A move in skald's notation (tafl `d1-d3`), still to be judged by the runner.
    Move(String),
    /// The engine resigned (HTP `play ROLE resigns`).
    Resign,
    /// The engine refused an earlier move of the game, one skald's rules allow (HTP `? …`, or
    /// an OTEP `error`): the message says which and why.
    Refused(String),
}

/// What the engine is asked to move under: the clocks (ms left per side, increment) or a depth.
#[derive(Clone, Copy, Debug)]
pub struct MoveLimits {
    /// Time left per side, ms, by [`Side::index`].
    pub clock: [i64; 2],
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Search depth instead of the clock (UCI/UAI `go depth`; HTP and OTEP engines have no
    /// depth command and get the clocks).
    pub depth: Option<u32>,
}

/// The OpenTafl rules string an OTEP engine is told for a game of `variant` from `setup_fen`
/// (`rules <string>`); `skald match` judges games between OTEP engines by exactly this string
/// (read as [`skald::tafl::opentafl::parse_rules`] reads it), see [`super::matches`].
///
/// - `copenhagen`: OpenTafl's own Copenhagen ([`COPENHAGEN_OTN`]: `tfr:w sw:s efe:y`);
/// - `brandubh`, `tablut`, `tawlbwrdd`: skald's rules as close as a rules string says them
///   ([`super::records::otn_rules`]), with the repetition rule written out as `tfr:d` (a draw at
///   the third occurrence of a position). OpenTafl's strings have no other repetition rule:
///   skald's tablut and tawlbwrdd draw at the second occurrence, and skald's brandubh has none
///   (OpenTafl itself reads brandubh's `tfr:i` as `tfr:d`, so an engine built on its code would
///   expect threefold draws anyway);
/// - `copenhagen13` and Ataxx: an error (no OpenTafl rules string says them).
///
/// A set-up position other than the variant's start replaces the string's `start:` (with
/// `atkf:n` when the defenders move first there).
pub fn otep_rules(variant: Variant, setup_fen: &str) -> Result<String, String> {
    let mut rules = match variant {
        Variant::Copenhagen => COPENHAGEN_OTN.to_string(),
        Variant::Copenhagen13 => {
            return Err(
                "OTEP engines cannot play copenhagen13: OpenTafl has no 13x13 \
                        Copenhagen rules string (skald's copenhagen13 follows hnefatafl.org)"
                    .into(),
            );
        }
        v => {
            let base = super::records::otn_rules(v).ok_or_else(|| {
                format!("OTEP engines play tafl, and no OpenTafl rules string says {v}")
            })?;
            let words: Vec<&str> = base
                .split_whitespace()
                .filter(|w| !w.starts_with("tfr:"))
                .collect();
            let start = words.len() - 1;
            format!("{} tfr:d {}", words[..start].join(" "), words[start])
        }
    };
    let start = new_session(variant).fen();
    if setup_fen != start {
        let i = rules.find(" start:").ok_or("rules without start")?;
        rules.truncate(i);
        let atkf = if setup_fen.split_whitespace().nth(1) == Some("d") {
            " atkf:n"
        } else {
            ""
        };
        rules += &format!("{atkf} start:{}", notation::fen_to_record(setup_fen));
    }
    Ok(rules)
}

/// OpenTafl's own Copenhagen rules string (its built-in variant), what OTEP engines playing
/// `copenhagen` are told: OpenTafl's shieldwall, edge fort and threefold repetition (`tfr:w`),
/// not hnefatafl.org's rules that skald's `copenhagen` follows.
pub const COPENHAGEN_OTN: &str = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y \
     start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

/// The HTP role of `side`.
fn htp_role(side: Side) -> &'static str {
    match side {
        Side::First => "attacker",
        Side::Second => "defender",
    }
}

/// An HTP answer line (`= …` or `? …`, possibly `=` alone).
fn is_htp_answer(line: &str) -> bool {
    line.starts_with("= ") || line.starts_with("? ") || line == "=" || line == "?"
}

/// An engine's answer that rejects a command: `info string error: …` (protocol.md), or
/// Stockfish-style `No such option: …` / `Unknown option …`.
fn error_text(line: &str) -> Option<&str> {
    let l = line.trim();
    if let Some(rest) = l.strip_prefix("info string ") {
        let lower = rest.to_ascii_lowercase();
        if lower.starts_with("error") {
            return Some(
                rest.trim_start_matches(|c: char| c.is_alphabetic())
                    .trim_start_matches(':')
                    .trim(),
            );
        }
        return None;
    }
    (l.starts_with("No such option") || l.starts_with("Unknown option")).then_some(l)
}

/// The option name in an `option name <Name> type …` line.
fn declared_option(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let name = match rest.find(" type ") {
        Some(i) => &rest[..i],
        None => rest,
    };
    Some(name.trim().to_string())
}

impl EngineProcess {
    /// Starts the engine and does the handshake: `uci`/`uciok` (or `uai`/`uaiok` when `uai`),
    /// then each option of `setup` and of the spec, each followed by `isready`/`readyok`.
    ///
    /// # Errors
    /// The engine cannot be started or does not answer within 10 s; or it rejects an option of
    /// the spec: it declared options and this one is not among them (names compared ignoring
    /// case), or it answered the `setoption` with `info string error: …` (or `No such option`)
    /// before `readyok`. The message names the engine and the option.
    pub fn start(
        spec: &EngineSpec,
        uai: bool,
        setup: &[(String, String)],
    ) -> Result<EngineProcess> {
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
        let mut e = EngineProcess {
            child,
            stdin,
            lines: rx,
            id_name: None,
            declared: Vec::new(),
            proto: spec
                .proto
                .unwrap_or(if uai { Proto::Uai } else { Proto::Uci }),
            told: 0,
        };
        if matches!(e.proto, Proto::Htp | Proto::Otep) {
            if let Some((name, _)) = spec.options.first() {
                bail!(
                    "engine '{what}': {:?} engines take no options ('{name}')",
                    e.proto
                );
            }
            e.handshake(&what)?;
            return Ok(e);
        }
        let (hello, ok) = if e.proto == Proto::Uai {
            ("uai", "uaiok")
        } else {
            ("uci", "uciok")
        };
        e.send(hello)
            .with_context(|| format!("engine '{what}' does not read its input"))?;
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        let mut id_name = None;
        let mut declared = Vec::new();
        e.wait_for(deadline, None, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                id_name = Some(n.trim().to_string());
            }
            if let Some(n) = declared_option(l) {
                declared.push(n);
            }
            l.trim() == ok
        })
        .map_err(|err| anyhow!("engine '{what}' did not answer '{hello}' with '{ok}' ({err:?})"))?;
        e.id_name = id_name;
        e.declared = declared;
        let who = spec.name.clone().or(e.id_name.clone()).unwrap_or(what);
        for (name, value) in setup {
            e.set_option(&who, name, value)?;
        }
        for (name, value) in &spec.options {
            if !e.declared.is_empty() && !e.declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
                bail!(
                    "engine '{who}' has no option '{name}' (its options: {})",
                    e.declared.join(", ")
                );
            }
            e.set_option(&who, name, value)?;
        }
        Ok(e)
    }

    /// HTP: `name` answered by `= <name>`; OTEP: the engine's `hello` (within 10 s).
    fn handshake(&mut self, what: &str) -> Result<()> {
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        match self.proto {
            Proto::Htp => {
                self.send("name")
                    .with_context(|| format!("engine '{what}' does not read its input"))?;
                let line = self
                    .wait_for(deadline, None, is_htp_answer)
                    .map_err(|err| anyhow!("engine '{what}' did not answer 'name' ({err:?})"))?;
                if let Some(n) = line.strip_prefix("= ") {
                    self.id_name = Some(n.trim().to_string()).filter(|n| !n.is_empty());
                }
            }
            _ => {
                self.wait_for(deadline, None, |l| l.trim() == "hello")
                    .map_err(|err| anyhow!("engine '{what}' did not say 'hello' ({err:?})"))?;
            }
        }
        Ok(())
    }

    /// Starts a new game of `variant` from `setup_fen` (`start_fen` is the variant's start
    /// position): UCI `ucinewgame`/`isready`, UAI `uainewgame`/`isready`, HTP `board_size` and
    /// `time_settings` (Fischer when `limits` are whole minutes and seconds, else `un-timed`),
    /// OTEP `rules`. Errors say why the engine cannot play this game.
    pub fn new_game(
        &mut self,
        variant: Variant,
        setup_fen: &str,
        start_fen: &str,
        limits: &MoveLimits,
    ) -> Result<(), String> {
        self.told = 0;
        let sent = |r: Result<()>| r.map_err(|e| format!("does not read its input ({e})"));
        match self.proto {
            Proto::Uci | Proto::Uai => {
                let cmd = if self.proto == Proto::Uci {
                    "ucinewgame"
                } else {
                    "uainewgame"
                };
                sent(self.send(cmd))?;
                self.sync(Duration::from_secs(10))
                    .map_err(|e| format!("did not answer isready ({e:?})"))
            }
            Proto::Htp => {
                let size = match variant {
                    Variant::Copenhagen => 11,
                    Variant::Copenhagen13 => 13,
                    v => return Err(format!("HTP engines play Copenhagen only, not {v}")),
                };
                if setup_fen != start_fen {
                    return Err("HTP engines play from the start position only".into());
                }
                let base = limits.clock[0].max(0) as u64;
                let time = if limits.depth.is_none()
                    && base.is_multiple_of(60_000)
                    && base > 0
                    && limits.inc_ms.is_multiple_of(1000)
                {
                    format!(
                        "time_settings fischer {} {}",
                        base / 60_000,
                        limits.inc_ms / 1000
                    )
                } else {
                    "time_settings un-timed".to_string()
                };
                for cmd in [format!("board_size {size}"), time] {
                    sent(self.send(&cmd))?;
                    let line = self
                        .wait_for(
                            Some(Instant::now() + Duration::from_secs(10)),
                            None,
                            is_htp_answer,
                        )
                        .map_err(|e| format!("did not answer '{cmd}' ({e:?})"))?;
                    if !line.starts_with('=') {
                        return Err(format!("answered '{cmd}' with '{line}'"));
                    }
                }
                Ok(())
            }
            Proto::Otep => {
                let rules = otep_rules(variant, setup_fen)?;
                sent(self.send(&format!("rules {rules}")))
            }
        }
    }

    /// Asks for a move in the game `session` (the moves so far are in it), `side` to move:
    /// UCI/UAI `position fen <setup> moves …` and `go`; HTP the moves the engine has not seen as
    /// `play`, then `generate_move`; OTEP `opponent-move`, `clock`, `play` (as OpenTafl 0.4.8
    /// sends them; `position <record>` instead of `opponent-move` when more than one move is
    /// unseen, after an opening's moves). Waits until `deadline` (without end when `None`) or
    /// `abort`.
    pub fn request_move(
        &mut self,
        session: &dyn Session,
        limits: &MoveLimits,
        deadline: Option<Instant>,
        abort: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<MoveReply, WaitError> {
        let side = session.side_to_move();
        let moves = session.moves_played();
        let send = |e: &mut Self, line: &str| e.send(line).map_err(|_| WaitError::Disconnected);
        match self.proto {
            Proto::Uci | Proto::Uai => {
                let mut position = format!("position fen {}", session.setup_fen());
                if !moves.is_empty() {
                    position += " moves ";
                    position += &moves.join(" ");
                }
                let go = match limits.depth {
                    Some(d) => format!("go depth {d}"),
                    None => format!(
                        "go btime {} wtime {} binc {} winc {}",
                        limits.clock[0].max(1),
                        limits.clock[1].max(1),
                        limits.inc_ms,
                        limits.inc_ms
                    ),
                };
                send(self, &position)?;
                send(self, &go)?;
                let line = self.wait_for(deadline, abort, |l| l.starts_with("bestmove"))?;
                Ok(MoveReply::Move(
                    line.split_whitespace().nth(1).unwrap_or("").to_string(),
                ))
            }
            Proto::Htp => {
                let upper = session.board_rows().len() > 11;
                let squares = |m: &str| {
                    let m = m.replace('-', " ");
                    if upper { m.to_ascii_uppercase() } else { m }
                };
                // The moves since the engine's last: who made each, from the side to move now.
                let unseen = moves.len().saturating_sub(self.told);
                for (k, m) in moves[moves.len() - unseen..].iter().enumerate() {
                    let mover = if (unseen - k) % 2 == 1 {
                        side.opponent()
                    } else {
                        side
                    };
                    let cmd = format!("play {} {}", htp_role(mover), squares(m));
                    send(self, &cmd)?;
                    let line = self.wait_for(deadline, abort, is_htp_answer)?;
                    if !line.starts_with('=') {
                        return Ok(MoveReply::Refused(format!("'{cmd}': {line}")));
                    }
                }
                self.told = moves.len();
                send(self, &format!("generate_move {}", htp_role(side)))?;
                let line = self.wait_for(deadline, abort, is_htp_answer)?;
                // `= play ROLE FROM TO` (the reference appends `, score: …`).
                let words: Vec<&str> = line
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|w| !w.is_empty())
                    .collect();
                self.told = moves.len() + 1;
                match words.as_slice() {
                    ["=", "play", _, "resign" | "resigns", ..] => Ok(MoveReply::Resign),
                    ["=", "play", _, from, to, ..] => Ok(MoveReply::Move(format!(
                        "{}-{}",
                        from.to_ascii_lowercase(),
                        to.to_ascii_lowercase()
                    ))),
                    _ => Ok(MoveReply::Move(String::new())),
                }
            }
            Proto::Otep => {
                let record = notation::fen_to_record(&session.fen());
                if moves.len() > self.told + 1 {
                    // Several moves unseen (an opening's, played by the runner): the board.
                    send(self, &format!("position {record}"))?;
                } else if let Some(last) = moves.last()
                    && moves.len() > self.told
                {
                    send(self, &format!("opponent-move {last} {record}"))?;
                }
                self.told = moves.len();
                let clock = format!(
                    "clock {} {} 0 0 0",
                    limits.clock[0].max(0),
                    limits.clock[1].max(0)
                );
                let who = match side {
                    Side::First => "attackers",
                    Side::Second => "defenders",
                };
                // The order OpenTafl 0.4.8 sends them in (the clock before `play`).
                send(self, &clock)?;
                send(self, &format!("play {who}"))?;
                let line = self.wait_for(deadline, abort, |l| {
                    l.starts_with("move ") || l.starts_with("error")
                })?;
                if let Some(m) = line.strip_prefix("move ") {
                    self.told = moves.len() + 1;
                    let mv = notation::parse_move(m).unwrap_or_else(|_| m.trim().to_string());
                    return Ok(MoveReply::Move(mv));
                }
                Ok(MoveReply::Refused(line))
            }
        }
    }

    /// After the runner accepted the engine's move: OTEP confirms it with `move <position
    /// record>` (`session` has the move played).
    pub fn move_accepted(&mut self, session: &dyn Session) {
        if self.proto == Proto::Otep {
            let record = notation::fen_to_record(&session.fen());
            let _ = self.send(&format!("move {record}"));
        }
    }

    /// The game is over (`winner` `None` for a draw): OTEP `finish <code>`.
    pub fn game_over(&mut self, winner: Option<Option<Side>>) {
        if self.proto == Proto::Otep {
            let code = match winner {
                None => 0,
                Some(None) => 1,
                Some(Some(Side::First)) => 2,
                Some(Some(Side::Second)) => 3,
            };
            let _ = self.send(&format!("finish {code}"));
        }
    }

    /// Sends `setoption name <name> [value <value>]`, then `isready`, and fails if the engine
    /// answers with an error before `readyok` (or gives no `readyok` within 10 s).
    fn set_option(&mut self, who: &str, name: &str, value: &str) -> Result<()> {
        let line = if value.is_empty() {
            format!("setoption name {name}")
        } else {
            format!("setoption name {name} value {value}")
        };
        self.send(&line)
            .with_context(|| format!("engine '{who}' does not read its input"))?;
        self.send("isready")
            .with_context(|| format!("engine '{who}' does not read its input"))?;
        let mut errors: Vec<String> = Vec::new();
        self.wait_for(Some(Instant::now() + Duration::from_secs(10)), None, |l| {
            if let Some(e) = error_text(l) {
                errors.push(e.to_string());
            }
            l.trim() == "readyok"
        })
        .map_err(|err| {
            anyhow!("engine '{who}' did not answer 'isready' after option '{name}' ({err:?})")
        })?;
        if !errors.is_empty() {
            bail!(
                "engine '{who}' rejected option '{name}' = '{value}': {}",
                errors.join("; ")
            );
        }
        Ok(())
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
        self.wait_for(Some(Instant::now() + timeout), None, |l| {
            l.trim() == "readyok"
        })
        .map(|_| ())
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

    /// Asks the engine to quit, and kills it if it has not within a short while.
    pub fn quit(mut self) {
        let bye = if self.proto == Proto::Otep {
            "goodbye"
        } else {
            "quit"
        };
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
        assert!(s.name.is_none() && s.options.is_empty() && s.dir.is_none());
        let s = EngineSpec::parse("'/opt/my engine/run' --level \"very hard\"").unwrap();
        assert_eq!(
            s.command,
            vec!["/opt/my engine/run", "--level", "very hard"]
        );
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
        assert!(EngineSpec::parse("cmd=x cmd=y").is_err());
        assert!(EngineSpec::parse("cmd='x").is_err());
    }

    #[test]
    fn args_dir_stderr_and_quoting() {
        let s = EngineSpec::parse(
            "cmd='./my engine' --uci args=--threads 2 'a b' dir=\"/tmp/engines dir\" \
             stderr=err.log name='The One' option.Book File=\"my book.bin\"",
        )
        .unwrap();
        assert_eq!(
            s.command,
            vec!["./my engine", "--uci", "--threads", "2", "a b"]
        );
        assert_eq!(s.dir, Some(PathBuf::from("/tmp/engines dir")));
        assert_eq!(s.stderr, Some(PathBuf::from("err.log")));
        assert_eq!(s.name.as_deref(), Some("The One"));
        assert_eq!(
            s.options,
            vec![("Book File".to_string(), "my book.bin".to_string())]
        );
        assert_eq!(s.program(), PathBuf::from("/tmp/engines dir/./my engine"));
        let bare = EngineSpec::parse("cmd=skald dir=/tmp").unwrap();
        assert_eq!(bare.program(), PathBuf::from("skald"));
    }

    #[test]
    fn protocols() {
        let s = EngineSpec::parse("proto=htp cmd=./hnefatafl-text-protocol --ai basic").unwrap();
        assert_eq!(s.proto, Some(Proto::Htp));
        assert_eq!(
            s.command,
            vec!["./hnefatafl-text-protocol", "--ai", "basic"]
        );
        assert_eq!(
            EngineSpec::parse("cmd=x proto=OTEP").unwrap().proto,
            Some(Proto::Otep)
        );
        assert_eq!(EngineSpec::parse("./skald").unwrap().proto, None);
        assert!(EngineSpec::parse("cmd=x proto=gtp").is_err());
        assert!(EngineSpec::parse("cmd=x proto=uci proto=uai").is_err());
        assert_eq!(
            otep_rules(Variant::Copenhagen, &new_session(Variant::Copenhagen).fen()).unwrap(),
            COPENHAGEN_OTN
        );
        assert!(otep_rules(Variant::Ataxx, "x5o/7/7/7/7/7/o5x x 0 1").is_err());
    }

    /// The repetition rule OTEP engines are told is written out (`tfr:d`, never brandubh's
    /// `tfr:i`, which OpenTafl reads as `d`); copenhagen13 has no OpenTafl string.
    #[test]
    fn otep_rules_say_their_repetition_rule() {
        let start = |v: Variant| new_session(v).fen();
        let tablut = otep_rules(Variant::Tablut, &start(Variant::Tablut)).unwrap();
        assert!(
            tablut
                .starts_with("dim:9 name:tablut esc:e surf:n ks:c cor: cens: cenh: tfr:d start:/"),
            "{tablut}"
        );
        let brandubh = otep_rules(Variant::Brandubh, &start(Variant::Brandubh)).unwrap();
        assert!(
            brandubh.contains(" tfr:d ") && !brandubh.contains("tfr:i"),
            "{brandubh}"
        );
        assert_eq!(brandubh.matches("tfr:").count(), 1, "{brandubh}");
        let e = otep_rules(Variant::Copenhagen13, &start(Variant::Copenhagen13)).unwrap_err();
        assert!(e.contains("cannot play copenhagen13"), "{e}");
        // From a position with the defenders to move: that position, and atkf:n.
        let mut s = new_session(Variant::Tablut);
        s.play("d1-d2").unwrap();
        let r = otep_rules(Variant::Tablut, &s.fen()).unwrap();
        assert!(r.contains(" tfr:d atkf:n start:/4tt3/3tt4/"), "{r}");
    }

    #[test]
    fn engine_errors_are_recognised() {
        assert_eq!(
            error_text("info string error: unknown option 'X'"),
            Some("unknown option 'X'")
        );
        assert_eq!(error_text("No such option: X"), Some("No such option: X"));
        assert_eq!(error_text("info string eval total 3"), None);
        assert_eq!(
            declared_option("option name Skill Level type spin default 20 min 0 max 20"),
            Some("Skill Level".to_string())
        );
    }
}
