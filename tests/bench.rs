//! The bench node count is the search's signature: the same binary gives the same count on
//! every run and machine. A change to search behaviour changes it; update `SIGNATURE` in the same
//! commit and say the new count in the commit message.

use skald::bench;

/// `skald bench` at the default depth, one thread.
const SIGNATURE: u64 = 9_155_862;

#[test]
fn bench_node_count_is_the_signature() {
    let first = bench::run(bench::DEFAULT_DEPTH, 1, |_, _, _| {});
    assert_eq!(
        first.nodes, SIGNATURE,
        "bench signature changed: update SIGNATURE if the search change is intended"
    );
}

#[test]
fn fixed_node_searches_are_deterministic() {
    use skald::protocol::session::new_session;
    use skald::search::{Limits, SearchOptions, TranspositionTable};
    use skald::variant::Variant;
    use std::sync::atomic::AtomicBool;
    for variant in Variant::ALL {
        let run = || {
            let session = new_session(variant);
            let tt = TranspositionTable::new(4).unwrap();
            let limits = Limits {
                nodes: Some(20_000),
                ..Limits::default()
            };
            let stop = AtomicBool::new(false);
            let r = session.search(&limits, &SearchOptions::default(), &tt, &stop, &mut |_| {});
            (r.best_move, r.nodes, r.depth)
        };
        assert_eq!(run(), run(), "{variant}");
    }
}
