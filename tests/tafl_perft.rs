//! perft of the tafl reference positions (tests/data/perft/{brandubh,tablut,tawlbwrdd}.txt).
//! Cases whose expected count exceeds [`FAST_LIMIT`] nodes run only in the `#[ignore]`d test.

use skald::game::Game;
use skald::tafl::{Bitboard, Position, Rules, brandubh_rules, tablut_rules, tawlbwrdd_rules};

/// Largest expected count the normal (fast) test runs.
const FAST_LIMIT: u64 = 2_000_000;

fn cases(file: &str) -> Vec<(String, String, Vec<u64>)> {
    let path = format!("{}/tests/data/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("perft data file");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split(';').collect();
            assert_eq!(parts.len(), 3, "bad line {l}");
            let counts = parts[2]
                .split_whitespace()
                .map(|n| n.parse().expect("count"))
                .collect();
            (parts[0].to_string(), parts[1].to_string(), counts)
        })
        .collect()
}

fn run<B: Bitboard>(rules: &'static Rules<B>, file: &str, slow: bool) -> usize {
    let mut checked = 0;
    for (game, fen, counts) in cases(file) {
        assert_eq!(game, rules.name);
        let pos = Position::from_fen(rules, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, &expected) in counts.iter().enumerate() {
            if (expected > FAST_LIMIT) != slow {
                continue;
            }
            let depth = i as u32 + 1;
            assert_eq!(pos.perft(depth), expected, "{game} {fen} depth {depth}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn brandubh_perft() {
    assert!(run(brandubh_rules(), "brandubh.txt", false) > 0);
}

#[test]
fn tablut_perft() {
    assert!(run(tablut_rules(), "tablut.txt", false) > 0);
}

#[test]
fn tawlbwrdd_perft() {
    assert!(run(tawlbwrdd_rules(), "tawlbwrdd.txt", false) > 0);
}

#[test]
#[ignore = "slow: counts above 2,000,000 nodes"]
fn tafl_perft_deep() {
    run(brandubh_rules(), "brandubh.txt", true);
    run(tablut_rules(), "tablut.txt", true);
    run(tawlbwrdd_rules(), "tawlbwrdd.txt", true);
}

#[test]
fn generic_perft_matches_fast_perft() {
    // The trait's default perft (generate_moves + make_move) against the bulk-counting override.
    fn slow<G: Game>(g: &G, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut c = g.clone();
                c.make_move(m);
                slow(&c, depth - 1)
            })
            .sum()
    }
    for (_, fen, _) in cases("tablut.txt").into_iter().take(4) {
        let p = Position::from_fen(tablut_rules(), &fen).unwrap();
        assert_eq!(slow(&p, 2), p.perft(2), "{fen}");
    }
}
