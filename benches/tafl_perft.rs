//! perft speed: skald's tafl move generator against the `hnefatafl` crate (0.0.2) on the Brandubh,
//! Tablut and Copenhagen start positions. Both counts are asserted equal before timing.
//!
//! `SKALD_BENCH_COPENHAGEN_ONLY=1` times only Copenhagen perft(4), once each, and skips the rest.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use hnefatafl::board::state::BoardState;
use hnefatafl::collections::PieceSet;
use hnefatafl::game::GameStatus;
use hnefatafl::game::logic::GameLogic;
use hnefatafl::game::state::GameState;
use hnefatafl::pieces::{KING, Side};
use hnefatafl::preset;
use hnefatafl::rules::Ruleset;
use skald::game::Game;

/// hnefatafl's perft: legal plays from `iter_plays`, copy-make with `do_valid_play`.
fn hn_perft<B: BoardState>(logic: &GameLogic<B>, state: GameState<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if let GameStatus::Over(_) = state.status {
        return 0;
    }
    let mut n = 0;
    for tile in state.board.occupied_by_side(state.side_to_play) {
        for vp in logic.iter_plays(tile, &state).expect("occupied tile") {
            if depth == 1 {
                n += 1;
            } else {
                n += hn_perft(logic, logic.do_valid_play(vp, state).new_state, depth - 1);
            }
        }
    }
    n
}

/// hnefatafl rules made to match rules.md's brandubh (throne hostile to all, passable by the king
/// only; no repetition, no enclosure rule).
fn hn_brandubh() -> GameLogic<hnefatafl::aliases::SmallBasicBoardState> {
    let mut r: Ruleset = preset::rules::BRANDUBH;
    r.hostile_tiles.throne = PieceSet::all();
    r.passable_tiles.throne = PieceSet::from_piece(KING);
    r.repetition_rule = None;
    r.enclosure_win = None;
    GameLogic::new(r, 7)
}

/// hnefatafl rules made to match rules.md's tablut (castle passable while empty, no repetition,
/// no Linnaean capture).
fn hn_tablut() -> GameLogic<hnefatafl::aliases::MediumBasicBoardState> {
    let mut r: Ruleset = preset::rules::TABLUT;
    r.passable_tiles.throne = PieceSet::all();
    r.repetition_rule = None;
    r.linnaean_capture = false;
    GameLogic::new(r, 9)
}

/// hnefatafl's Copenhagen preset without its repetition rule (perft ignores repetition; no
/// repetition can occur in the first five plies anyway).
fn hn_copenhagen() -> GameLogic<hnefatafl::aliases::MediumBasicBoardState> {
    let mut r: Ruleset = preset::rules::COPENHAGEN;
    r.repetition_rule = None;
    GameLogic::new(r, 11)
}

/// Times three runs of `f` (for the slow runs) and prints the fastest (the least disturbed by
/// other work on the machine).
fn report_best_of_3(name: &str, nodes: u64, f: impl Fn() -> u64) -> f64 {
    let mut secs = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        assert_eq!(f(), nodes);
        secs = secs.min(t.elapsed().as_secs_f64());
    }
    eprintln!(
        "{name}: {nodes} leaves in {secs:.3} s (best of 3) = {:.1} M leaf nodes/s",
        nodes as f64 / secs / 1e6
    );
    secs
}

/// Copenhagen start: counts agree to depth 3, then perft(4) timed for each.
fn copenhagen() {
    let c = skald::tafl::copenhagen();
    let hc = hn_copenhagen();
    let hcs = GameState::new(preset::boards::COPENHAGEN, Side::Attacker).expect("board");
    for depth in 1..=3 {
        assert_eq!(
            c.perft(depth),
            hn_perft(&hc, hcs, depth),
            "copenhagen perft({depth})"
        );
    }
    let s = report_best_of_3("skald copenhagen perft(4)", 50_456_804, || c.perft(4));
    let h = report_best_of_3("hnefatafl copenhagen perft(4)", 50_456_804, || {
        hn_perft(&hc, hcs, 4)
    });
    eprintln!("copenhagen perft(4): skald is {:.1}x faster", h / s);
}

fn report(name: &str, nodes: u64, f: impl Fn() -> u64) {
    let t = Instant::now();
    let mut runs = 0;
    while runs < 3 || t.elapsed().as_secs_f64() < 1.0 {
        assert_eq!(f(), nodes);
        runs += 1;
    }
    let secs = t.elapsed().as_secs_f64() / runs as f64;
    eprintln!(
        "{name}: {nodes} leaves in {:.4} s = {:.1} M leaf nodes/s",
        secs,
        nodes as f64 / secs / 1e6
    );
}

fn bench(c: &mut Criterion) {
    copenhagen();
    if std::env::var_os("SKALD_BENCH_COPENHAGEN_ONLY").is_some() {
        return;
    }
    let b = skald::tafl::brandubh();
    let hb = hn_brandubh();
    let hbs = GameState::new(preset::boards::BRANDUBH, Side::Attacker).expect("board");
    let t = skald::tafl::tablut();
    let ht = hn_tablut();
    let hts = GameState::new(preset::boards::TABLUT, Side::Attacker).expect("board");

    for depth in 1..=4 {
        assert_eq!(
            b.perft(depth),
            hn_perft(&hb, hbs, depth),
            "brandubh perft({depth})"
        );
    }
    for depth in 1..=3 {
        assert_eq!(
            t.perft(depth),
            hn_perft(&ht, hts, depth),
            "tablut perft({depth})"
        );
    }

    report("skald brandubh perft(4)", 1_007_392, || b.perft(4));
    report("hnefatafl brandubh perft(4)", 1_007_392, || {
        hn_perft(&hb, hbs, 4)
    });
    report("skald tablut perft(3)", 353_200, || t.perft(3));
    report("hnefatafl tablut perft(3)", 353_200, || {
        hn_perft(&ht, hts, 3)
    });
    report("skald tablut perft(4)", 19_913_864, || t.perft(4));

    let mut g = c.benchmark_group("tafl_perft");
    g.sample_size(10);
    g.bench_function("skald brandubh perft(4)", |x| {
        x.iter(|| black_box(&b).perft(4))
    });
    g.bench_function("hnefatafl brandubh perft(4)", |x| {
        x.iter(|| hn_perft(&hb, black_box(hbs), 4))
    });
    g.bench_function("skald tablut perft(3)", |x| {
        x.iter(|| black_box(&t).perft(3))
    });
    g.bench_function("hnefatafl tablut perft(3)", |x| {
        x.iter(|| hn_perft(&ht, black_box(hts), 3))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
