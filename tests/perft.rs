//! perft of every reference position of the four games (`tests/data/perft/<variant>.txt`, one
//! `game;fen;perft(1) perft(2) …` line each, copied from the rule book's data).
//!
//! Cases whose expected count exceeds [`FAST_LIMIT`] nodes run only in the `#[ignore]`d test:
//! `cargo test --release --test perft -- --ignored`.

use skald::game::Game;
use skald::variant::{GameVisitor, Variant};

/// Largest expected count the normal (fast) test runs.
const FAST_LIMIT: u64 = 2_000_000;
/// Largest expected count the move-list perft cross-check runs.
const SLOW_LIMIT: u64 = 200_000;

/// `(fen, [perft(1), perft(2), …])` for every line of the variant in the data files (one file
/// may hold several variants: `copenhagen.txt` has `copenhagen` and `copenhagen13`).
fn cases(variant: Variant) -> Vec<(String, Vec<u64>)> {
    let dir = format!("{}/tests/data/perft", env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("perft data directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("perft data file");
        for l in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let parts: Vec<&str> = l.split(';').collect();
            assert_eq!(parts.len(), 3, "bad line {l}");
            assert!(
                Variant::ALL.iter().any(|v| v.name() == parts[0]),
                "line of an unknown game: {l}"
            );
            if parts[0] != variant.name() {
                continue;
            }
            let counts = parts[2]
                .split_whitespace()
                .map(|n| n.parse().expect("count"))
                .collect();
            out.push((parts[1].to_string(), counts));
        }
    }
    out
}

/// perft through the trait's move list and make_move (no bulk counting), checking at every node
/// that the incremental hash equals the hash computed from scratch.
fn slow_perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.make_move(mv);
            assert_eq!(child.hash(), child.compute_hash());
            slow_perft(&child, depth - 1)
        })
        .sum()
}

/// Checks the variant's reference counts selected by `select(expected)`; with `slow`, also the
/// move-list perft on the small ones. Returns how many counts were checked.
struct Check {
    variant: Variant,
    select: fn(u64) -> bool,
    slow: bool,
}

impl GameVisitor for Check {
    type Output = usize;
    fn visit<G: Game>(self, start: G) -> usize {
        let mut checked = 0;
        for (fen, counts) in cases(self.variant) {
            let pos = start
                .with_fen(&fen)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.fen(), fen, "FEN round trip");
            for (i, &expected) in counts.iter().enumerate() {
                let depth = i as u32 + 1;
                if (self.select)(expected) {
                    assert_eq!(pos.perft(depth), expected, "{fen} depth {depth}");
                    checked += 1;
                }
                if self.slow && expected <= SLOW_LIMIT {
                    assert_eq!(
                        slow_perft(&pos, depth),
                        expected,
                        "slow perft {fen} {depth}"
                    );
                }
            }
        }
        checked
    }
}

fn check(variant: Variant) {
    let checked = variant.visit(Check {
        variant,
        select: |n| n <= FAST_LIMIT,
        slow: true,
    });
    assert!(checked > 0, "{variant}: no case checked");
}

#[test]
fn brandubh_perft() {
    check(Variant::Brandubh);
}

#[test]
fn tablut_perft() {
    check(Variant::Tablut);
}

#[test]
fn tawlbwrdd_perft() {
    check(Variant::Tawlbwrdd);
}

#[test]
fn copenhagen_perft() {
    check(Variant::Copenhagen);
}

#[test]
fn copenhagen13_perft() {
    check(Variant::Copenhagen13);
}

#[test]
fn ashton_perft() {
    check(Variant::Ashton);
}

#[test]
fn ataxx_perft() {
    check(Variant::Ataxx);
}

#[test]
#[ignore = "slow: counts above 2,000,000 nodes"]
fn perft_deep() {
    let checked: usize = Variant::ALL
        .into_iter()
        .map(|variant| {
            variant.visit(Check {
                variant,
                select: |n| n > FAST_LIMIT,
                slow: false,
            })
        })
        .sum();
    assert!(checked > 0);
}

/// Times Ataxx start-position perft(6) in this (release) test binary and prints leaves per
/// second: `cargo test --release --test perft -- --ignored --nocapture perft6_speed`.
#[test]
#[ignore = "timing run, prints leaves/s"]
fn perft6_speed() {
    let pos = skald::ataxx::Position::start();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = std::time::Instant::now();
        assert_eq!(pos.perft(6), 141_865_520);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "ataxx start perft(6) = 141865520 in {:.3} s (best of 5): {:.3e} leaves/s",
        best,
        141_865_520.0 / best
    );
}
