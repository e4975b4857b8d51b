//! Per-game speed of the parts the search leans on: move generation, copy-make, perft(3) and a
//! fixed-depth search of the start position. Run with `cargo bench --bench search`.

use criterion::{Criterion, criterion_group, criterion_main};
use skald::game::Game;
use skald::search::{self, Control, Limits, SearchOptions, ThreadData, TranspositionTable};
use skald::variant::{GameVisitor, Variant};
use std::hint::black_box;
use std::sync::Arc;

struct BenchGame<'a> {
    c: &'a mut Criterion,
    name: &'static str,
}

impl GameVisitor for BenchGame<'_> {
    type Output = ();
    fn visit<G: Game>(self, start: G) {
        let mut group = self.c.benchmark_group(self.name);
        group.sample_size(20);
        let mut moves = Vec::new();
        group.bench_function("generate_moves", |b| {
            b.iter(|| {
                black_box(&start).generate_moves(&mut moves);
                moves.len()
            })
        });
        start.generate_moves(&mut moves);
        let list = moves.clone();
        group.bench_function("make_move_all", |b| {
            b.iter(|| {
                let mut h = 0u64;
                for &mv in &list {
                    let mut child = black_box(&start).clone();
                    child.make_move(mv);
                    h ^= child.hash();
                }
                h
            })
        });
        group.bench_function("perft_3", |b| b.iter(|| black_box(&start).perft(3)));
        let tt = Arc::new(TranspositionTable::new(16).unwrap());
        let mut data = ThreadData::default();
        group.bench_function("search_depth_5", |b| {
            b.iter(|| {
                tt.clear();
                let limits = Limits {
                    depth: Some(5),
                    ..Limits::default()
                };
                search::search(
                    &start,
                    &[],
                    &limits,
                    &SearchOptions::default(),
                    &tt,
                    &Control::new(false),
                    &mut data,
                    None,
                    &mut |_| {},
                )
                .nodes
            })
        });
        group.finish();
    }
}

fn games(c: &mut Criterion) {
    for variant in Variant::ALL {
        variant.visit(BenchGame {
            c,
            name: variant.name(),
        });
    }
}

criterion_group!(benches, games);
criterion_main!(benches);
