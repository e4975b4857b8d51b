//! Ataxx perft against the reference counts in `tests/data/perft/ataxx.txt`.
//!
//! Counts up to [`LIMIT`] run in the normal test; larger ones (start position perft(6)) are in
//! an `#[ignore]`d test: `cargo test --release -- --ignored`.

use skald::ataxx::Position;
use skald::game::Game;

const DATA: &str = include_str!("data/perft/ataxx.txt");
const LIMIT: u64 = 5_000_000;

/// `(fen, [perft(1), perft(2), …])` for every data line.
fn cases() -> Vec<(String, Vec<u64>)> {
    DATA.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split(';').collect();
            assert_eq!(parts.len(), 3, "bad line {l}");
            assert_eq!(parts[0], "ataxx");
            let counts = parts[2]
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            (parts[1].to_string(), counts)
        })
        .collect()
}

/// perft by the trait's move generator and make_move (no bulk counting).
fn slow_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.make_move(mv);
            assert_eq!(child.hash(), child.compute_hash());
            slow_perft(&child, depth - 1)
        })
        .sum()
}

fn run(select: impl Fn(u64) -> bool) -> usize {
    let mut checked = 0;
    for (fen, counts) in cases() {
        let pos = Position::from_fen(&fen).unwrap();
        assert_eq!(pos.fen(), fen, "FEN round trip");
        for (i, &expected) in counts.iter().enumerate() {
            if !select(expected) {
                continue;
            }
            let depth = i as u32 + 1;
            assert_eq!(pos.perft(depth), expected, "perft({depth}) of {fen}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_reference_counts() {
    assert!(run(|n| n <= LIMIT) > 60);
}

#[test]
#[ignore = "large: start position perft(6) = 141,865,520"]
fn perft_reference_counts_large() {
    assert!(run(|n| n > LIMIT) >= 1);
}

#[test]
fn generic_perft_agrees_with_fast_perft() {
    for (fen, counts) in cases() {
        let pos = Position::from_fen(&fen).unwrap();
        for (i, &expected) in counts.iter().enumerate().take(3) {
            if expected > 200_000 {
                break;
            }
            assert_eq!(
                slow_perft(&pos, i as u32 + 1),
                expected,
                "slow perft of {fen}"
            );
        }
    }
}

/// Times start-position perft(6) in this (release) test binary and prints leaves per second:
/// `cargo test --release --test ataxx_perft -- --ignored --nocapture perft6_speed`.
#[test]
#[ignore = "timing run, prints leaves/s"]
fn perft6_speed() {
    let pos = Position::start();
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
