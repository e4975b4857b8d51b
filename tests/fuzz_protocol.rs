//! Fuzzing the protocol in-process with proptest: random command lines (real keywords, option
//! names, moves, FEN pieces and junk, in random case and spacing) fed to `Engine::handle_line`,
//! and random FENs and moves fed to the parsers behind `position`. Nothing may panic (the
//! engine's own panic guard would print `internal error`, which also fails), and a `position`
//! that answers an error must leave the position as it was.
//!
//! The suite runs the default number of cases; a long run:
//!   PROPTEST_CASES=100000 cargo test --release --test fuzz_protocol

use proptest::prelude::*;
use skald::engine::{Engine, new_session};
use skald::protocol::uci::{Flow, Uci};
use skald::protocol::{Capture, Output};
use skald::variant::Variant;

const WORDS: &[&str] = &[
    "uci",
    "uai",
    "isready",
    "ucinewgame",
    "uainewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "quit",
    "ponderhit",
    "d",
    "eval",
    "flip",
    "perft",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "simulations",
    "mate",
    "searchmoves",
    "UCI_Variant",
    "Hash",
    "Threads",
    "MultiPV",
    "Move",
    "Overhead",
    "Skill",
    "Level",
    "Clear",
    "easy",
    "medium",
    "hard",
    "brandubh",
    "tablut",
    "tawlbwrdd",
    "ataxx",
    "chess",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-99999",
    "64",
    "99999999999999999999999",
    "d2-f2",
    "d1-b1",
    "e2-h2",
    "d2f2",
    "f2",
    "a7a5",
    "g1f1",
    "0000",
    "a1",
    "zz",
    "x5o/7/7/7/7/7/o5x",
    "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3",
    "x",
    "o",
    "a",
    "d",
    "K",
    "t",
    "T",
    "/",
    "-",
    "�",
    "\u{0}",
    "(none)",
];

/// A command line: words from the list and junk, joined by random runs of spaces and tabs, in
/// random case.
fn command_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_string),
        1 => "[ -~]{0,12}",
        1 => any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ];
    let sep = prop_oneof![Just(" "), Just("  "), Just("\t"), Just(""), Just(" \t ")];
    (
        proptest::collection::vec((word, sep, any::<bool>()), 0..10),
        any::<bool>(),
    )
        .prop_map(|(parts, crlf)| {
            let mut line = String::new();
            for (w, s, upper) in parts {
                line.push_str(&if upper { w.to_ascii_uppercase() } else { w });
                line.push_str(s);
            }
            if crlf {
                line.push('\r');
            }
            line
        })
}

/// Commands that would only be slow (deep perft, full bench, huge hash tables, many threads),
/// not wrong, are replaced by quick ones: the fuzz is about parsing.
fn tame(line: &str) -> String {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let slow = match words.as_slice() {
        ["perft", ..] | ["bench", ..] | ["go", "perft", ..] => true,
        ["setoption", ..] => lower.contains("hash") || lower.contains("thread"),
        _ => false,
    };
    if slow {
        "perft 1".to_string()
    } else {
        line.to_string()
    }
}

struct Harness {
    engine: Uci,
    out: Capture,
}

impl Harness {
    fn new() -> Harness {
        let (output, out) = Output::captured();
        Harness {
            engine: Uci::new(output, Engine::new().expect("an engine")),
            out,
        }
    }

    /// Sends `line`, then `stop` so that no search outlives the command; returns the output.
    fn send(&mut self, line: &str) -> (Flow, String) {
        let flow = self.engine.handle_line(line);
        self.engine.handle_line("stop");
        (flow, self.out.take())
    }

    fn fen(&mut self) -> String {
        let (_, out) = self.send("d");
        out.lines()
            .find_map(|l| l.strip_prefix("Fen: "))
            .map(str::to_string)
            .and_then(|fen| {
                out.lines()
                    .find_map(|l| l.strip_prefix("Variant: "))
                    .map(|v| format!("{v} {fen}"))
            })
            .expect("d prints the variant and the FEN")
    }
}

proptest! {
    // 256 cases by default; PROPTEST_CASES sets another number.
    #[test]
    fn random_command_lines_never_panic_and_bad_positions_change_nothing(
        lines in proptest::collection::vec(command_line(), 1..12)
    ) {
        let mut h = Harness::new();
        for line in lines {
            let line = tame(&line);
            let before = h.fen();
            let (flow, out) = h.send(&line);
            prop_assert!(!out.contains("internal error"), "{line:?}: {out}");
            if flow == Flow::Quit {
                break;
            }
            let is_position = line
                .split_whitespace()
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("position"));
            if is_position && out.contains("info string error") {
                prop_assert_eq!(h.fen(), before, "{:?}: {}", line, out);
            }
        }
    }

    #[test]
    fn random_fens_and_moves_never_panic_and_errors_change_nothing(
        variant in proptest::sample::select(Variant::ALL.to_vec()),
        fen in fen_like(),
        moves in proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(WORDS).prop_map(str::to_string),
                "[a-m][0-9]{1,2}-?[a-m][0-9]{1,2}",
                "[a-g][1-7]",
            ],
            0..6,
        ),
    ) {
        let mut session = new_session(variant);
        session.set_position(None, &["d2-f2"]).ok();
        let before = session.fen();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        if session.set_position(Some(&fen), &moves).is_err() {
            prop_assert_eq!(session.fen(), before);
        } else {
            // A position that was accepted can be printed, searched and read back.
            let again = session.fen();
            let mut copy = new_session(variant);
            prop_assert!(copy.set_position(Some(&again), &[]).is_ok(), "{again}");
            let _ = session.legal_moves();
            let _ = session.eval_terms(&skald::eval::EvalChoice::Default);
            let _ = session.board();
        }
        for mv in &moves {
            let before = session.fen();
            if session.play_text(mv).is_err() {
                prop_assert_eq!(session.fen(), before);
            }
        }
    }
}

/// FEN-like text: a real start FEN mutated, or ranks of random pieces and digits, a side letter
/// and clocks, or junk.
fn fen_like() -> impl Strategy<Value = String> {
    let starts = [
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1",
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1",
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
        "x5o/7/7/7/7/7/o5x x 0 1",
    ];
    let mutated = (
        proptest::sample::select(starts.to_vec()),
        proptest::collection::vec(
            (any::<prop::sample::Index>(), "[tTKxo\\-0-9/ ad]{0,2}"),
            0..4,
        ),
    )
        .prop_map(|(fen, edits)| {
            let mut s: Vec<char> = fen.chars().collect();
            for (at, text) in edits {
                let i = at.index(s.len() + 1);
                let end = (i + 1).min(s.len());
                s.splice(i..end, text.chars());
            }
            s.into_iter().collect::<String>()
        });
    let rank = "[tTKxo\\-1-9]{1,8}";
    let random = (
        proptest::collection::vec(rank, 1..12),
        "[adxoADXO?]",
        "(-?[0-9]{1,4})?",
        "( [0-9]{1,22})?",
    )
        .prop_map(|(ranks, side, clock, number)| {
            format!("{} {side} {clock}{number}", ranks.join("/"))
        });
    prop_oneof![3 => mutated, 2 => random, 1 => "[ -~]{0,40}"]
}
