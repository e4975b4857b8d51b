//! The documents' engine sessions are real: every transcript block in README.md, protocol.md and
//! docs/ (a fenced block whose lines are `> ` sent to the engine and `< ` its answers) is played
//! through the binary, line by line as a GUI would, and its answers must be the documented ones.
//! A changed output fails here until the document changes too.
//!
//! What may differ: the `nps` and `time` numbers of `info` lines (speed), the `max` of the
//! `Threads` option (four per core of the machine), and any lines where the document writes
//! `< …`. Searches in documents use depth or node limits (one thread), so the rest is exact.
//!
//! A block is run by `skald` (UCI); an HTML comment on the line just before its fence says
//! otherwise: `<!-- example: skald htp -->` runs `skald htp`, `<!-- example: not checked (why)
//! -->` leaves the block out (a clock-based search, whose depth varies). Set
//! `SKALD_DOC_EXAMPLES=print` to print each block's real transcript (for updating a document).
//!
//! The documents' shell blocks are checked too: every `skald` command line in them must parse
//! (flags and values as the program takes them), see [`every_documented_command_line_parses`].
//!
//! A command's output shown in a document is real too: a fenced block marked
//! `<!-- example: output -->` holds `$ skald …` and the lines it prints on standard output,
//! which must be the program's (the `nps` and `time_ms` numbers of `analyze --json` may differ),
//! see [`every_documented_output_is_real`].

mod common;

use common::{EngineProcess, HUNG};
use std::path::{Path, PathBuf};

/// One transcript block of a document.
struct Block {
    /// Where it is: `README.md:82`.
    place: String,
    /// The arguments of `skald` that run it.
    args: Vec<String>,
    /// The lines, `>`/`<` prefix kept.
    lines: Vec<String>,
}

/// The markdown files whose transcripts are checked.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("protocol.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Each checked document's name (`README.md`, `docs/serve.md`) and text.
fn document_texts() -> Vec<(String, String)> {
    documents()
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&path)
                .display()
                .to_string();
            (name, text)
        })
        .collect()
}

/// A fenced block of a document: the line number (from 0) of its opening fence, the fence's
/// info string (`sh`, or empty), its lines, and the trimmed line just before the fence (where an
/// `<!-- example: … -->` note stands).
struct Fence<'a> {
    start: usize,
    info: &'a str,
    lines: &'a [&'a str],
    before: &'a str,
}

/// The fenced blocks of a document given as its lines.
fn fences<'a>(lines: &'a [&'a str]) -> Vec<Fence<'a>> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].trim_start().strip_prefix("```") else {
            i += 1;
            continue;
        };
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .unwrap_or(lines.len());
        found.push(Fence {
            start: i,
            info: info.trim(),
            lines: &lines[i + 1..end],
            before: i.checked_sub(1).map_or("", |j| lines[j].trim()),
        });
        i = end + 1;
    }
    found
}

/// The transcript blocks of `text` (the document `name`), with what runs each; `None` for a
/// block marked not checked.
fn blocks(name: &str, text: &str) -> Vec<Option<Block>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for fence in fences(&lines) {
        let body: Vec<&str> = fence
            .lines
            .iter()
            .copied()
            .filter(|l| !l.trim().is_empty())
            .collect();
        let transcript = !body.is_empty()
            && body
                .iter()
                .all(|l| l.starts_with("> ") || l.starts_with("< ") || *l == "<")
            && body.iter().any(|l| l.starts_with("> "));
        if !transcript {
            continue;
        }
        let note = Some(fence.before).filter(|l| l.starts_with("<!-- example:"));
        let args = match note {
            Some(n) if n.contains("not checked") => None,
            Some(n) => Some(
                n.trim_start_matches("<!-- example:")
                    .trim_end_matches("-->")
                    .split_whitespace()
                    .skip(1) // "skald"
                    .map(str::to_string)
                    .collect(),
            ),
            None => Some(Vec::new()),
        };
        found.push(args.map(|args| Block {
            place: format!("{name}:{}", fence.start + 1),
            args,
            lines: body.iter().map(|l| l.to_string()).collect(),
        }));
    }
    found
}

/// A line as compared: speed figures and the machine's thread bound made `*`.
fn normal(line: &str) -> String {
    let words: Vec<&str> = line.trim_end().split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let prev = if i > 0 { words[i - 1] } else { "" };
        let speed = matches!(prev, "nps" | "time") && w.parse::<u64>().is_ok();
        let threads_max = line.starts_with("option name Threads ") && prev == "max";
        out.push(if speed || threads_max { "*" } else { w });
    }
    out.join(" ")
}

/// Reads answer lines into `real` up to the one that `until` accepts (kept if `keep_last`).
fn answers(
    engine: &mut EngineProcess,
    real: &mut Vec<String>,
    until: &dyn Fn(&str) -> bool,
    keep_last: bool,
) {
    loop {
        let got = engine.expect(HUNG, |_| true);
        let end = until(&got);
        if !end || keep_last {
            real.push(format!("< {got}").trim_end().to_string());
        }
        if end {
            return;
        }
    }
}

/// Plays `block` through the binary as a GUI would (each command after the answers to the one
/// before) and returns the real session, `> ` and `< ` lines.
///
/// In the UCI protocol the answers of a command are known by their end: a search's by its
/// `bestmove`, `quit`'s by the end of output, any other's by the `readyok` of an `isready`
/// sent behind it (not shown). Other protocols answer each command with the lines the document
/// shows for it.
fn run(block: &Block) -> Vec<String> {
    let args: Vec<&str> = block.args.iter().map(String::as_str).collect();
    let uci = args.is_empty() || args == ["uci"];
    let mut engine = EngineProcess::start(&args);
    let mut real = Vec::new();
    let mut quit = false;
    for (i, line) in block.lines.iter().enumerate() {
        let Some(sent) = line.strip_prefix("> ") else {
            continue;
        };
        engine.send(sent);
        real.push(line.clone());
        let word = sent.split_whitespace().next().unwrap_or("");
        if !uci {
            // As many answer lines as the document shows for this command.
            let shown = block.lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("> "))
                .count();
            for _ in 0..shown {
                let got = engine.expect(HUNG, |_| true);
                real.push(format!("< {got}").trim_end().to_string());
            }
            quit |= word == "quit";
            continue;
        }
        match word {
            "quit" => {
                quit = true;
                for got in engine.read_to_end() {
                    real.push(format!("< {got}"));
                }
            }
            "go" if !sent.contains("infinite") && !sent.contains("ponder") => {
                answers(&mut engine, &mut real, &|l| l.starts_with("bestmove"), true)
            }
            "isready" => answers(&mut engine, &mut real, &|l| l == "readyok", true),
            _ => {
                engine.send("isready");
                answers(&mut engine, &mut real, &|l| l == "readyok", false)
            }
        }
    }
    if !quit {
        engine.send("quit");
        for got in engine.read_to_end() {
            real.push(format!("< {got}"));
        }
    }
    real
}

/// The first place where the `real` session differs from the `documented` one (`< …` in the
/// document stands for any answer lines), or `None`.
fn difference(documented: &[String], real: &[String]) -> Option<String> {
    let (mut d, mut r) = (0, 0);
    while d < documented.len() {
        let want = &documented[d];
        if want.trim() == "< …" {
            // Any lines up to the next documented one.
            d += 1;
            let next = documented.get(d)?;
            while r < real.len() && normal(&real[r]) != normal(next) {
                r += 1;
            }
            continue;
        }
        match real.get(r) {
            Some(got) if normal(got) == normal(want) => {
                d += 1;
                r += 1;
            }
            Some(got) => {
                return Some(format!(
                    "expected  {want}
     got  {got}"
                ));
            }
            None => {
                return Some(format!(
                    "expected  {want}
     got  nothing more"
                ));
            }
        }
    }
    real.get(r)
        .map(|got| format!("a line the document does not show: {got}"))
}

#[test]
fn every_documented_session_is_real_output() {
    let print = std::env::var("SKALD_DOC_EXAMPLES").is_ok_and(|v| v == "print");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, text) in document_texts() {
        for block in blocks(&name, &text).into_iter().flatten() {
            let real = run(&block);
            let diff = difference(&block.lines, &real);
            if print {
                println!("== {}\n{}\n", block.place, real.join("\n"));
            }
            if let Some(d) = diff {
                failures.push(format!(
                    "{}: the session differs from the engine's output\n{d}\nreal session:\n{}",
                    block.place,
                    real.join("\n")
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} documented sessions found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The parser finds transcripts, takes the runner from the comment before the fence and leaves
/// out blocks marked not checked.
#[test]
fn transcript_blocks_are_found() {
    let doc = "text\n\n```\n> uci\n< uciok\n```\n\n<!-- example: skald htp -->\n```\n> \
               list_commands\n```\n\n<!-- example: not checked (clock) -->\n```\n> go\n```\n\n\
               ```sh\nskald bench\n```\n";
    let found = blocks("doc", doc);
    assert_eq!(found.len(), 3);
    let first = found[0].as_ref().unwrap();
    assert_eq!((first.place.as_str(), first.args.len()), ("doc:3", 0));
    assert_eq!(found[1].as_ref().unwrap().args, ["htp"]);
    assert!(found[2].is_none());
    assert_eq!(
        normal("info depth 1 nodes 5 nps 900 time 3 pv a1"),
        "info depth 1 nodes 5 nps * time * pv a1"
    );
}

/// A command and its output shown in a document (`<!-- example: output -->`).
struct OutputBlock {
    /// Where it is: `README.md:140`.
    place: String,
    /// The arguments of `skald`.
    args: Vec<String>,
    /// The lines it prints on standard output.
    lines: Vec<String>,
}

/// The output blocks of `text` (the document `name`): fenced blocks after an
/// `<!-- example: output -->` line, whose first line is `$ skald …`.
fn output_blocks(name: &str, text: &str) -> Vec<OutputBlock> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for fence in fences(&lines) {
        if fence.before != "<!-- example: output -->" {
            continue;
        }
        let place = format!("{name}:{}", fence.start + 1);
        let command = fence
            .lines
            .first()
            .and_then(|l| l.strip_prefix("$ skald "))
            .unwrap_or_else(|| panic!("{place}: an output block starts with '$ skald …'"));
        found.push(OutputBlock {
            place,
            args: shell_words::split(command).unwrap(),
            lines: fence.lines[1..].iter().map(|l| l.to_string()).collect(),
        });
    }
    found
}

/// A line of output as compared: [`normal`], and the speed figures of JSON (`"nps":…`,
/// `"time_ms":…`) made `*`.
fn normal_output(line: &str) -> String {
    let mut out = normal(line);
    for key in ["\"nps\":", "\"time_ms\":"] {
        let mut from = 0;
        while let Some(i) = out[from..].find(key) {
            let start = from + i + key.len();
            let end = out[start..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(out.len(), |j| start + j);
            out.replace_range(start..end, "*");
            from = start + 1;
        }
    }
    out
}

/// Every command output a document shows is the program's.
#[test]
fn every_documented_output_is_real() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, text) in document_texts() {
        for block in output_blocks(&name, &text) {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_skald"))
                .args(&block.args)
                .output()
                .unwrap();
            let real: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_string)
                .collect();
            let same = real.len() == block.lines.len()
                && real
                    .iter()
                    .zip(&block.lines)
                    .all(|(r, d)| normal_output(r) == normal_output(d));
            if !out.status.success() || !same {
                failures.push(format!(
                    "{}: skald {} prints\n{}\n(the document shows\n{})",
                    block.place,
                    block.args.join(" "),
                    real.join("\n"),
                    block.lines.join("\n")
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 1, "no documented output found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Output blocks are found, and their speed figures compared as `*`.
#[test]
fn output_blocks_are_found() {
    let doc = "<!-- example: output -->\n```console\n$ skald analyze --variant brandubh \
               --depth 1 --json\n{\"depth\":1,\"nps\":45000,\"time_ms\":12}\n```\n";
    let found = output_blocks("doc", doc);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].place, "doc:2");
    assert_eq!(
        found[0].args,
        ["analyze", "--variant", "brandubh", "--depth", "1", "--json"]
    );
    assert_eq!(
        normal_output(&found[0].lines[0]),
        "{\"depth\":1,\"nps\":*,\"time_ms\":*}"
    );
}

/// The `skald` command lines of a document's shell blocks (```` ```sh ````), as argument lists
/// after `skald`, each with its place (`README.md:57`). Recognised: `skald …`, `./skald …`,
/// `./target/release/skald …`, `cargo run --release -- …` and `$S …` (the documents' short name
/// for the binary); a `\` at the end of a line continues it, `# …` comments are dropped. Left out:
/// pipelines and redirections (their input is another program's), lines with `<placeholders>`,
/// `[optional parts]` (synopses, not commands) or shell variables other than `$S`, `cargo run`
/// of an example or another package (`--example`, `-p`), and blocks marked
/// `<!-- example: not checked (why) -->`.
fn command_lines(name: &str, text: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for fence in fences(&lines) {
        if !matches!(fence.info, "sh" | "bash" | "console")
            || fence.before.contains("<!-- example: not checked")
        {
            continue;
        }
        let body = fence.lines;
        let mut j = 0;
        while j < body.len() {
            let first = fence.start + 1 + j;
            let mut line = body[j].trim().to_string();
            while line.ends_with('\\') && j + 1 < body.len() {
                line.pop();
                j += 1;
                line.push(' ');
                line.push_str(body[j].trim());
            }
            j += 1;
            let line = line.strip_prefix("$ ").unwrap_or(&line);
            let Ok(words) = shell_words::split(line) else {
                continue;
            };
            // Comments: shell_words keeps them as words; drop from the first `#…` word on.
            let words: Vec<String> = words
                .into_iter()
                .take_while(|w| !w.starts_with('#'))
                .collect();
            let rest = match words.first().map(String::as_str) {
                Some("skald" | "./skald" | "./target/release/skald" | "$S") => &words[1..],
                // `cargo run --example …` and `cargo run -p …` run another program.
                Some("cargo")
                    if words.get(1).is_some_and(|w| w == "run")
                        && let Some(dash) = words.iter().position(|w| w == "--")
                        && !words[..dash]
                            .iter()
                            .any(|w| ["--example", "-p", "--package"].contains(&w.as_str())) =>
                {
                    &words[dash + 1..]
                }
                _ => continue,
            };
            let shell = ["|", ">", "<", "&&", ";", "2>", "$("];
            let placeholder = |w: &String| {
                (w.starts_with('<') && w.ends_with('>'))
                    || w.starts_with('[')
                    || w.contains("…")
                    || w.replace("$S", "").contains('$')
            };
            if words
                .iter()
                .any(|w| shell.contains(&w.as_str()) || placeholder(w))
                || line.contains('|')
            {
                continue;
            }
            found.push((format!("{name}:{}", first + 1), rest.to_vec()));
        }
    }
    found
}

/// Every `skald` command line the documents show is one the program accepts: the arguments
/// parse (run with `SKALD_ONLY_PARSE_ARGUMENTS`, which stops after parsing). A renamed or
/// removed flag fails here until the documents change too.
#[test]
fn every_documented_command_line_parses() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, text) in document_texts() {
        for (place, args) in command_lines(&name, &text) {
            let args: Vec<String> = args
                .into_iter()
                .map(|a| a.replace("$S", env!("CARGO_BIN_EXE_skald")))
                .collect();
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_skald"))
                .args(&args)
                .env("SKALD_ONLY_PARSE_ARGUMENTS", "1")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            // `--help` and `--version` print and exit 0 before the check; that is fine too.
            let help = args
                .iter()
                .any(|a| a == "--help" || a == "--version" || a == "-h");
            if !out.status.success() || !(help || stdout.contains("arguments parsed")) {
                failures.push(format!(
                    "{place}: skald {}\n  {}",
                    args.join(" "),
                    stderr.trim()
                ));
            }
            checked += 1;
        }
    }
    eprintln!("{checked} documented command lines parse");
    assert!(
        checked >= 20,
        "only {checked} documented command lines found"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Shell blocks give command lines: continuations joined, comments and placeholders dropped.
#[test]
fn command_lines_are_found() {
    let doc = "```sh\ncargo build --release\nS=./target/release/skald\n$S perft --variant \
               ataxx \\\n    --depth 3   # a comment\nskald bench [--depth 7]\n\
               printf 'uci\\n' | cargo run --release\ncargo run --release -- rules ataxx\n```\n\n\
               <!-- example: not checked (synopsis) -->\n```sh\nskald play\n```\n";
    let found = command_lines("doc", doc);
    let args: Vec<Vec<String>> = found.iter().map(|(_, a)| a.clone()).collect();
    assert_eq!(
        args,
        [
            vec!["perft", "--variant", "ataxx", "--depth", "3"],
            vec!["rules", "ataxx"]
        ]
    );
    assert_eq!(found[0].0, "doc:4");
}
