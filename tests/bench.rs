//! The bench node count is the search's signature: the same binary gives the same count on
//! every run and machine. A change to search behaviour changes it; update `SIGNATURE` in the same
//! commit and say the new count in the commit message.

use skald::bench;

/// `skald bench` at the default depth, one thread (Ataxx and Copenhagen 11×11 with their
/// built-in networks).
const SIGNATURE: u64 = 8_305_723;

/// `skald bench --eval-file hand`: the hand-written evaluations everywhere.
const HAND_SIGNATURE: u64 = 5_404_893;

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
fn the_embedded_networks_read_from_their_files_search_alike() {
    use skald::variant::Variant;
    let nets = format!("{}/nets", env!("CARGO_MANIFEST_DIR"));
    let ataxx_file = format!("{nets}/{}", skald::ataxx::nnue::EMBEDDED_NAME);
    let (name, _) = skald::tafl::nnue::embedded("copenhagen").unwrap();
    let copenhagen_file = format!("{nets}/{name}");
    let per_position = |eval_file: &str| {
        let mut nodes = Vec::new();
        bench::run_with_eval(5, 1, eval_file, |_, _, n| nodes.push(n)).unwrap();
        nodes
    };
    let default = per_position("<default>");
    let hand = per_position("hand");
    let ataxx = per_position(&ataxx_file);
    let copenhagen = per_position(&copenhagen_file);
    // Ataxx and Copenhagen 11×11 evaluate with their built-in networks by default, the same as
    // with those files, so `hand` searches them differently; the other tafl games evaluate by
    // hand by default and with the Ataxx file (Copenhagen's file would evaluate Tawlbwrdd's
    // 11×11 board too, if asked).
    let (mut ataxx_differs, mut copenhagen_differs) = (false, false);
    for (i, (variant, _)) in bench::POSITIONS.iter().enumerate() {
        let (d, h) = (default[i], hand[i]);
        match variant {
            Variant::Ataxx => {
                assert_eq!(ataxx[i], d, "position {i}");
                ataxx_differs |= d != h;
            }
            Variant::Copenhagen => {
                assert_eq!(copenhagen[i], d, "position {i}");
                copenhagen_differs |= d != h;
            }
            _ => assert_eq!((d, ataxx[i]), (h, h), "position {i}"),
        }
    }
    assert!(ataxx_differs && copenhagen_differs);
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
