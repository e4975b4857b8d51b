//! The bench node count is the search's signature: the same binary gives the same count on
//! every run and machine. A change to search behaviour changes it; update `SIGNATURE` in the same
//! commit and say the new count in the commit message.

use skald::bench;

/// `skald bench` at the default depth, one thread.
const SIGNATURE: u64 = 1_896_617;

#[test]
fn bench_node_count_is_the_signature() {
    let first = bench::run(bench::DEFAULT_DEPTH, 1, |_, _, _| {}).unwrap();
    assert_eq!(
        first.nodes, SIGNATURE,
        "bench signature changed: update SIGNATURE if the search change is intended"
    );
}

#[test]
fn fixed_node_searches_are_deterministic() {
    use skald::engine::Engine;
    use skald::search::Limits;
    use skald::variant::Variant;
    for variant in Variant::ALL {
        let run = || {
            let mut engine = Engine::new().unwrap();
            engine.set_variant(variant);
            engine.set_option("Hash", "4").unwrap();
            let limits = Limits {
                nodes: Some(20_000),
                ..Limits::default()
            };
            let r = engine.search(&limits, &mut |_| {});
            (r.best_move, r.nodes, r.depth)
        };
        assert_eq!(run(), run(), "{variant}");
    }
}
