//! Ataxx perft speed: start position perft(5) (4,752,668 leaves) and perft(6) (141,865,520).
//! Run with `cargo bench --bench ataxx_perft`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skald::ataxx::Position;

fn perft(c: &mut Criterion) {
    let pos = Position::start();
    let mut group = c.benchmark_group("ataxx_perft");
    group.sample_size(10);
    for (depth, leaves) in [(5u32, 4_752_668u64), (6, 141_865_520)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("start_perft_{depth}"), |b| {
            b.iter(|| {
                let n = black_box(&pos).perft(black_box(depth));
                assert_eq!(n, leaves);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
