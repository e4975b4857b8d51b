//! The bench node count is the search's signature: the same binary gives the same count on
//! every run and machine. A change to search behaviour changes it; update `SIGNATURE` in the same
//! commit and say the new count in the commit message.

use skald::bench;

/// `skald bench` at the default depth, one thread (Ataxx with the embedded network).
const SIGNATURE: u64 = 5_401_884;

/// `skald bench --eval-file hand`: the hand-written evaluations everywhere.
const HAND_SIGNATURE: u64 = 5_398_702;

#[test]
fn bench_node_count_is_the_signature() {
    let first = bench::run(bench::DEFAULT_DEPTH, 1, |_, _, _| {}).unwrap();
    assert_eq!(
        first.nodes, SIGNATURE,
        "bench signature changed: update SIGNATURE if the search change is intended"
    );
}

#[test]
fn the_hand_evaluation_keeps_its_signature() {
    let hand = bench::run_with_eval(bench::DEFAULT_DEPTH, 1, "hand", |_, _, _| {}).unwrap();
    assert_eq!(
        hand.nodes, HAND_SIGNATURE,
        "bench signature with EvalFile hand changed: update HAND_SIGNATURE if intended"
    );
}

#[test]
fn the_embedded_network_read_from_its_file_searches_alike() {
    use skald::variant::Variant;
    let file = format!(
        "{}/nets/{}",
        env!("CARGO_MANIFEST_DIR"),
        skald::ataxx::nnue::EMBEDDED_NAME
    );
    let per_position = |eval_file: &str| {
        let mut nodes = Vec::new();
        bench::run_with_eval(5, 1, eval_file, |_, _, n| nodes.push(n)).unwrap();
        nodes
    };
    let default = per_position("<default>");
    assert_eq!(per_position(&file), default);
    // The tafl games evaluate by hand whatever EvalFile says; Ataxx does not.
    let hand = per_position("hand");
    let mut ataxx_differs = false;
    for (i, ((variant, _), (d, h))) in bench::POSITIONS
        .iter()
        .zip(default.iter().zip(&hand))
        .enumerate()
    {
        if *variant == Variant::Ataxx {
            ataxx_differs |= d != h;
        } else {
            assert_eq!(d, h, "position {i}");
        }
    }
    assert!(ataxx_differs);
}

#[test]
fn a_bad_eval_file_is_an_error() {
    let err = bench::run_with_eval(1, 1, "/nonexistent/net.nnue", |_, _, _| {}).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("option EvalFile: cannot read network file /nonexistent/net.nnue: ")
            && msg.ends_with("; keeping <default>"),
        "{msg}"
    );
}
