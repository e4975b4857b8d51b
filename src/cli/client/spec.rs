//! The `--engine` text of `skald match`: how an engine is started and set up ([`EngineSpec`]),
//! and the protocol it speaks ([`Proto`]).

use anyhow::{Result, anyhow, bail};
use skald::variant::Variant;
use std::path::{Path, PathBuf};

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

/// The field keys of an engine spec (`option.` is a prefix of its own).
const KEYS: [&str; 6] = ["cmd=", "args=", "dir=", "stderr=", "name=", "proto="];

fn is_field(word: &str) -> bool {
    word.starts_with("option.") || KEYS.iter().any(|k| word.starts_with(k))
}

/// The key of a word that looks like a field, `key=value` with a key of letters, digits, `_`,
/// `-` and `.` starting with a letter (`foo` of `foo=bar`); `None` otherwise.
fn field_like(word: &str) -> Option<&str> {
    let (key, _) = word.split_once('=')?;
    let ok = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    ok.then_some(key)
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
            // `key=value` first: a mistyped or unknown field, not a program named `foo=bar`.
            if let Some(key) = field_like(&words[0]) {
                bail!(
                    "--engine '{text}': unknown field '{key}=' (the fields: cmd=, args=, dir=, \
                     stderr=, name=, proto=, option.<Name>=)"
                );
            }
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

    /// The protocol the engine speaks: `proto=`, or else UCI for tafl and UAI for Ataxx.
    pub fn protocol(&self, variant: Variant) -> Proto {
        self.proto.unwrap_or(if variant.is_tafl() {
            Proto::Uci
        } else {
            Proto::Uai
        })
    }

    /// Refuses options for `proto`, a protocol that has none (HTP, OTEP).
    pub fn no_options(&self, proto: Proto) -> Result<()> {
        if let Some((name, _)) = self.options.first() {
            bail!(
                "engine '{}': {} engines take no options ('{name}')",
                self.label(),
                proto.name()
            );
        }
        Ok(())
    }
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

    /// Engines of this protocol are told an OpenTafl rules string
    /// ([`otep_rules`](super::otep_rules)), not skald's variant: the referee judges their games
    /// by it.
    pub fn tells_opentafl_rules(self) -> bool {
        self == Proto::Otep
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
    }
}
