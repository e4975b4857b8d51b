//! `skald rules` and the rules pages for players (`docs/rules/<variant>.md`): every page
//! prints, an unknown variant is an error, and each page agrees with the program. Its start
//! diagram is the variant's start position, its example move is legal there, and the results
//! it names (`attackers win (king captured)`, `draw (move limit)`, …) are exactly the results
//! the program gives: those that random games played through the library end with, and those
//! that positions reach which random play seldom does (edge forts, stuck sides, Ataxx's
//! blocked squares).

use skald::engine::{Session, new_session};
use skald::rng::SeededRng;
use skald::variant::Variant;
use std::collections::BTreeSet;
use std::process::Output;

mod common;

/// Runs `skald rules` with `args`.
fn rules(args: &[&str]) -> Output {
    common::run_skald(&[&["rules"], args].concat())
}

/// The page of `variant` in the sources.
fn page(variant: Variant) -> String {
    let path = format!(
        "{}/docs/rules/{}.md",
        env!("CARGO_MANIFEST_DIR"),
        variant.name()
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_page_prints_in_any_case() {
    for v in Variant::ALL {
        for name in [v.name().to_string(), v.name().to_ascii_uppercase()] {
            let out = rules(&[&name]);
            assert!(out.status.success(), "skald rules {name}: {out:?}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), page(v), "{name}");
        }
    }
}

#[test]
fn the_index_lists_every_variant() {
    let out = rules(&[]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules/README.md"))
            .unwrap();
    for v in Variant::ALL {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(v.name())),
            "no line for {v}: {text}"
        );
        assert!(
            readme.contains(&format!("]({}.md)", v.name())),
            "docs/rules/README.md does not link {v}'s page"
        );
    }
    assert!(text.contains("skald rules <variant>"), "{text}");
    let top = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        top.contains("](docs/rules/"),
        "README.md does not link the rules pages"
    );
}

#[test]
fn an_unknown_variant_is_an_error() {
    for args in [&["chess"][..], &["brandubh", "tablut"][..]] {
        let out = rules(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let err = String::from_utf8_lossy(&rules(&["chess"]).stderr).into_owned();
    assert!(err.contains("unknown variant 'chess'"), "{err}");
}

/// The text of a page outside its fenced blocks (the diagram), and the fenced blocks' lines.
fn split_fences(page: &str) -> (String, Vec<Vec<String>>) {
    let (mut prose, mut blocks, mut inside) = (String::new(), Vec::new(), false);
    for line in page.lines() {
        if line.starts_with("```") {
            inside = !inside;
            if inside {
                blocks.push(Vec::new());
            }
        } else if inside {
            blocks.last_mut().unwrap().push(line.to_string());
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    (prose, blocks)
}

/// The code spans (`…`) of Markdown prose, their spaces and line breaks as one space.
fn code_spans(prose: &str) -> Vec<String> {
    prose
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The game results a page names: its code spans that read like the program's results,
/// `<side> win(s) (<reason>)` or `draw (<reason>)`.
fn page_results(page: &str) -> BTreeSet<String> {
    let heads = [
        "attackers win (",
        "defenders win (",
        "x wins (",
        "o wins (",
        "draw (",
    ];
    code_spans(&split_fences(page).0)
        .into_iter()
        .filter(|s| heads.iter().any(|h| s.starts_with(h)) && s.ends_with(')'))
        .collect()
}

#[test]
fn start_diagrams_are_the_start_positions() {
    for v in Variant::ALL {
        let session = new_session(v);
        let rows = session.board_rows();
        // The marked squares (corners, an empty throne) of the library's diagram: `+`.
        let marked: Vec<Vec<bool>> = session
            .board()
            .lines()
            .take(rows.len())
            .map(|l| l.split_whitespace().skip(1).map(|w| w == "+").collect())
            .collect();
        let expected: Vec<String> = rows
            .iter()
            .zip(&marked)
            .map(|(row, marks)| {
                row.iter()
                    .zip(marks)
                    .map(|(square, &mark)| match square {
                        Some('t' | 'x') => '●',
                        Some('T' | 'o') => '○',
                        Some('K') => '♔',
                        Some('-') => '■',
                        Some(c) => panic!("{v}: piece {c}"),
                        None if mark => '×',
                        None => '·',
                    })
                    .collect()
            })
            .collect();
        let text = page(v);
        let diagram = &split_fences(&text).1[0];
        let drawn: Vec<(usize, String)> = diagram
            .iter()
            .filter_map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let rank: usize = words.first()?.parse().ok()?;
                assert_eq!(words.last(), words.first(), "{v}: {line}");
                assert_eq!(words.len(), rows.len() + 2, "{v}: {line}");
                Some((rank, words[1..words.len() - 1].concat()))
            })
            .collect();
        let ranks: Vec<usize> = drawn.iter().map(|(rank, _)| *rank).collect();
        assert_eq!(ranks, (1..=rows.len()).rev().collect::<Vec<_>>(), "{v}");
        let squares: Vec<String> = drawn.into_iter().map(|(_, row)| row).collect();
        assert_eq!(squares, expected, "{v}: the page's start diagram");
    }
}

#[test]
fn example_moves_are_legal_at_the_start() {
    for v in Variant::ALL {
        let text = page(v);
        let prose = split_fences(&text).0;
        let paragraph = prose
            .split("\n\n")
            .find(|p| p.starts_with("Type a"))
            .unwrap_or_else(|| panic!("{v}: no 'Type a move' paragraph"));
        let example = &code_spans(paragraph)[0];
        let mut session = new_session(v);
        assert!(session.play(example).is_ok(), "{v}: {example}");
    }
}

/// The results random games of `variant` end with: `games` games of uniformly random legal
/// moves from the start position, at most `max_plies` plies each (games still going then
/// count for nothing).
fn random_results(variant: Variant, seed: u64, games: u32, max_plies: u32) -> BTreeSet<String> {
    let mut rng = SeededRng::new(seed);
    let mut seen = BTreeSet::new();
    for _ in 0..games {
        let mut session = new_session(variant);
        for _ in 0..max_plies {
            if let Some(result) = variant.outcome_text(session.outcome()) {
                seen.insert(result);
                break;
            }
            let moves = session.legal_moves();
            let mv = &moves[rng.below(moves.len() as u64) as usize];
            session.play(mv).expect("a legal move");
        }
    }
    seen
}

/// Results that random play seldom or never reaches, each with a position that reaches it (a
/// FEN and the moves from it; the FEN alone where it is decided already).
const WITNESSES: &[(Variant, &str, &str, &[&str])] = &[
    (
        Variant::Brandubh,
        "attackers win (no legal move)",
        "2tKt2/3t3/7/7/7/7/7 d",
        &[],
    ),
    (
        Variant::Brandubh,
        "defenders win (no legal move)",
        "7/7/7/3K3/7/1T5/1tT4 a",
        &[],
    ),
    (
        Variant::Brandubh,
        "draw (move limit)",
        "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 99 50",
        &["c4-c5"],
    ),
    (
        Variant::Tablut,
        "draw (no legal move)",
        "9/9/9/9/4K4/9/9/T8/tT7 a",
        &[],
    ),
    (
        Variant::Tablut,
        "draw (repetition)",
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a",
        &["e2-h2", "e3-h3", "h2-e2", "h3-e3"],
    ),
    (
        Variant::Tawlbwrdd,
        "draw (no legal move)",
        "11/11/11/11/11/5K5/11/11/11/T10/tT9 a",
        &[],
    ),
    (
        Variant::Tawlbwrdd,
        "draw (repetition)",
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a",
        &["f2-c2", "f4-c4", "c2-f2", "c4-f4"],
    ),
    (
        Variant::Copenhagen,
        "defenders win (king escaped)",
        "11/11/11/11/11/11/11/11/11/11/1K7t1 d",
        &["b1-a1"],
    ),
    (
        Variant::Copenhagen,
        "attackers win (king captured)",
        "11/5t5/11/11/4tKt4/11/11/11/2T8/11/11 a",
        &["f10-f8"],
    ),
    (
        Variant::Copenhagen,
        "defenders win (edge fort)",
        "11/11/1t7t1/11/11/11/11/6T4/11/4TT5/3TK6 d",
        &["g4-g1"],
    ),
    (
        Variant::Copenhagen,
        "attackers win (defenders surrounded)",
        "11/11/11/5t5/4t1t4/3t1KTt3/4t1t4/11/11/5t5/11 a",
        &["f2-f4"],
    ),
    (
        Variant::Copenhagen,
        "defenders win (no pieces left)",
        "11/11/11/2K8/11/11/11/T10/5t5/5T5/11 d",
        &["a4-f4"],
    ),
    (
        Variant::Copenhagen,
        "attackers win (defenders cannot escape)",
        "1tKtt6/1tt8/1tt8/11/11/t9T/10T/11/11/11/11 d",
        &[],
    ),
    (
        Variant::Copenhagen,
        "attackers win (no legal move)",
        "11/11/11/11/11/11/11/t10/Tt9/t4t5/4tKt4 d",
        &[],
    ),
    (
        Variant::Copenhagen,
        "defenders win (no legal move)",
        "11/11/11/11/11/5K5/11/11/11/1T9/1tT8 a",
        &[],
    ),
    (
        Variant::Copenhagen13,
        "defenders win (king escaped)",
        "13/13/13/13/13/13/13/13/13/13/13/13/1K9t1 d",
        &["b1-a1"],
    ),
    (
        Variant::Copenhagen13,
        "attackers win (king captured)",
        "13/6t6/13/13/13/5tKt5/13/13/13/13/13/13/13 a",
        &["g12-g9"],
    ),
    (
        Variant::Copenhagen13,
        "defenders win (edge fort)",
        "13/13/1t9t1/13/13/13/13/13/13/6T6/13/4TT7/3TK8 d",
        &["g4-g1"],
    ),
    (
        Variant::Copenhagen13,
        "attackers win (defenders surrounded)",
        "13/13/13/13/6t6/5t1t5/4t1KTt4/5t1t5/13/13/13/6t6/13 a",
        &["g2-g6"],
    ),
    (
        Variant::Copenhagen13,
        "defenders win (no pieces left)",
        "13/13/13/2K10/13/13/13/13/13/T12/5t7/5T7/13 d",
        &["a4-f4"],
    ),
    (
        Variant::Copenhagen13,
        "attackers win (defenders cannot escape)",
        "1tKtt8/1tt10/1tt10/13/13/13/t11T/12T/13/13/13/13/13 d",
        &[],
    ),
    (
        Variant::Copenhagen13,
        "attackers win (no legal move)",
        "13/13/13/13/13/13/13/13/13/t12/Tt11/t4t7/4tKt6 d",
        &[],
    ),
    (
        Variant::Copenhagen13,
        "defenders win (no legal move)",
        "13/13/13/13/13/13/6K6/13/13/13/13/1T11/1tT10 a",
        &[],
    ),
    (
        Variant::Ashton,
        "defenders win (king escaped)",
        "9/9/9/9/9/9/9/1K7/t8 d",
        &["b2-b1"],
    ),
    (
        Variant::Ashton,
        "attackers win (king captured)",
        "9/9/9/9/9/9/1tK6/9/3t5 a",
        &["d1-d3"],
    ),
    (
        Variant::Ashton,
        "attackers win (no legal move)",
        "9/9/9/4t4/3tKt3/4t4/9/9/9 d",
        &[],
    ),
    (
        Variant::Ashton,
        "defenders win (no legal move)",
        "9/9/9/9/4K4/9/9/T8/tT7 a",
        &[],
    ),
    (
        Variant::Ashton,
        "draw (repetition)",
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 d",
        &["e3-h3", "d1-d2", "h3-e3", "d2-d3", "e3-h3", "d3-d2"],
    ),
    (
        Variant::Ataxx,
        "x wins (no pieces left)",
        "7/7/7/7/7/7/x6 o 0 1",
        &[],
    ),
    (
        Variant::Ataxx,
        "o wins (no pieces left)",
        "7/7/7/7/7/7/o6 x 0 1",
        &[],
    ),
    (
        Variant::Ataxx,
        "draw (board full)",
        "xxxxxxx/xxxxxxx/xxxxxxx/xxx-ooo/ooooooo/ooooooo/ooooooo x 0 1",
        &[],
    ),
    (
        Variant::Ataxx,
        "x wins (neither side can move)",
        "7/7/7/-------/-------/-------/xxxxooo x 0 1",
        &[],
    ),
    (
        Variant::Ataxx,
        "o wins (neither side can move)",
        "7/7/7/-------/-------/-------/xxxoooo x 0 1",
        &[],
    ),
    (
        Variant::Ataxx,
        "draw (neither side can move)",
        "7/7/7/-------/-------/-------/xxx-ooo x 0 1",
        &[],
    ),
    (
        Variant::Ataxx,
        "draw (move limit)",
        "x5o/7/7/7/7/7/o5x x 99 1",
        &["a7a5"],
    ),
];

/// The result `session` reaches from `fen` after `moves`, in the program's words.
fn result_after(variant: Variant, fen: &str, moves: &[&str]) -> String {
    let mut session: Box<dyn Session> = new_session(variant);
    session
        .set_position(Some(fen), moves)
        .unwrap_or_else(|e| panic!("{variant} {fen} {moves:?}: {e}"));
    variant
        .outcome_text(session.outcome())
        .unwrap_or_else(|| panic!("{variant} {fen} {moves:?}: the game goes on"))
}

/// Each page names every result its variant can end with, in the program's words, and no
/// other: the results of 200 random games (at most 300 plies each), and those of
/// [`WITNESSES`], each reached through the library from its position.
#[test]
fn pages_name_every_result_in_the_programs_words() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let mut results = random_results(v, 7 + i as u64, 200, 300);
        for &(variant, result, fen, moves) in WITNESSES.iter().filter(|w| w.0 == v) {
            assert_eq!(result_after(variant, fen, moves), result, "{v}: {fen}");
            results.insert(result.to_string());
        }
        let named = page_results(&page(v));
        let missing: Vec<_> = results.difference(&named).collect();
        assert!(
            missing.is_empty(),
            "docs/rules/{v}.md does not name {missing:?}"
        );
        let unknown: Vec<_> = named.difference(&results).collect();
        assert!(
            unknown.is_empty(),
            "docs/rules/{v}.md names {unknown:?}, which no game reached here ends with"
        );
    }
}

/// Piped, a page is its Markdown (above); `--format text` and `--format terminal` show it as
/// text, as on a terminal (before, the raw Markdown went to the terminal): no `#`, `**`,
/// backticks or fences, the headings and diagrams kept.
#[test]
fn pages_are_text_for_a_terminal() {
    for v in Variant::ALL {
        for format in ["text", "terminal"] {
            let out = rules(&[v.name(), "--format", format]);
            assert!(out.status.success(), "{out:?}");
            let text = String::from_utf8_lossy(&out.stdout);
            for mark in ["**", "```", "`", "# "] {
                assert!(!text.contains(mark), "{v} {format}: '{mark}' in\n{text}");
            }
            assert!(
                text.contains(" a  b  c "),
                "{v} {format}: no diagram\n{text}"
            );
            assert_eq!(text.contains('\x1b'), format == "terminal", "{v} {format}");
        }
    }
}
