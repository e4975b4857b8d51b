//! Tests of the whole search and of a worker's nodes: the accumulators against refreshes,
//! singular extensions and continuation history, repetitions along the search path, and what
//! reaches the transposition table.

use super::draws::mate_within_move_limit;
use super::smp::Shared;
use super::tt::{self, score_to_tt};
use super::types::INF;
use super::worker::Worker;
use super::*;
use crate::game::{RepetitionRule, Side};

/// Searches through [`crate::engine::Engine`] with each evaluation (Ataxx: the embedded
/// network, the hand-written evaluation, two pattern networks): every evaluation in
/// the search checks its incremental accumulator against a refresh (`Worker::evaluate` in a
/// debug build: the debug unit tests of scripts/test run it).
#[test]
fn incremental_accumulators_equal_refreshes_in_the_search() {
    use crate::engine::Engine;
    use crate::variant::Variant;
    let fens = [
        None,
        Some("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
        Some("x1x3o/3o1oo/4o1o/6o/3oxo1/1o1x3/o2xx2 o 2 15"),
        Some("xxxxooo/xxxxooo/xxxoooo/xxxoooo/xxxxooo/xxxoooo/xxx3o x 0 30"),
    ];
    // Pattern networks (file format 2): one of a size that is no power of two, and one of the
    // largest size, whose accumulators fill all of their room.
    use crate::ataxx::nnue::{Activation, random_pattern_network};
    let dir = std::env::temp_dir().join(format!("skald-search-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (hidden, activation) in [(96, Activation::SCReLU), (512, Activation::CReLU)] {
        let path = dir.join(format!("patterns-{hidden}.nnue"));
        let net = random_pattern_network(hidden as u64, hidden, activation);
        std::fs::write(&path, net.to_bytes()).unwrap();
        files.push(path.to_str().unwrap().to_string());
    }
    // The pattern networks get fewer nodes: each node's refresh reads every window, which is
    // slow in a debug build (CI runs these tests there too).
    let eval_files = [
        ("<default>", 30_000),
        ("hand", 30_000),
        (files[0].as_str(), 3_000),
        (files[1].as_str(), 3_000),
    ];
    for (eval_file, nodes) in eval_files {
        let mut engine = Engine::new().unwrap();
        engine.set_variant(Variant::Ataxx);
        engine.set_option("EvalFile", eval_file).unwrap();
        for fen in fens {
            engine.session_mut().set_position(fen, &[]).unwrap();
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let r = engine.search(&limits, &mut |_| {});
            assert!(r.unwrap().best_move.is_some(), "{eval_file} {fen:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // A tafl game too (its accumulator is `()`), with null moves.
    let mut engine = Engine::new().unwrap();
    engine.set_variant(Variant::Tablut);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    assert!(
        engine
            .search(&limits, &mut |_| {})
            .unwrap()
            .best_move
            .is_some()
    );
}

/// Searches `root` to `depth` with `params` on one thread; returns (best move, nodes).
fn fixed_depth<G: Game>(root: &G, depth: u32, params: SearchParams) -> (Option<G::Move>, u64) {
    let tt = Arc::new(TranspositionTable::new(4).unwrap());
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let options = SearchOptions {
        params,
        ..SearchOptions::default()
    };
    let mut data = ThreadData::default();
    let r = search(
        root,
        &[],
        &limits,
        &options,
        &tt,
        &Control::new(false),
        &mut data,
        None,
        &mut |_| {},
    );
    (r.best_move, r.nodes)
}

/// Searches `root` to `depth` with `base`, then with each of `variants`: every search gives a
/// move, and each variant's tree differs from `base`'s (its node count).
fn each_changes_the_tree<G: Game>(
    root: &G,
    depth: u32,
    base: SearchParams,
    variants: &[SearchParams],
) {
    let (mv, plain) = fixed_depth(root, depth, base);
    assert!(mv.is_some());
    for &params in variants {
        let (mv, nodes) = fixed_depth(root, depth, params);
        assert!(mv.is_some());
        assert_ne!(nodes, plain, "{params:?}");
    }
}

/// Singular extensions and the continuation history, switched on at a depth the search
/// reaches, change the tree and still give a move, in both game families.
#[test]
fn singular_extensions_and_continuation_history_run_in_both_families() {
    fn check<G: Game>(root: &G, depth: u32) {
        let base = SearchParams {
            cont_history_plies: 0,
            se_min_depth: 0,
            ..SearchParams::DEFAULT
        };
        let variants = [
            SearchParams {
                se_min_depth: 3,
                ..base
            },
            SearchParams {
                cont_history_plies: 2,
                lmr_cont_history: true,
                ..base
            },
        ];
        each_changes_the_tree(root, depth, base, &variants);
    }
    check(&crate::tafl::brandubh(), 7);
    check(&crate::ataxx::Position::start(), 6);
}

/// The search values of issue 52, each switched on where the search uses it, change the tree
/// and still give a move, in both game families: singular extensions at non-PV nodes only,
/// aspiration windows that fail high searched one ply shallower, the linear history bonus,
/// history pruning (a margin of 1: any negative history prunes) and futility pruning at PV
/// nodes (small margins, so that it prunes at this depth).
#[test]
fn the_depth_values_of_issue_52_run_in_both_families() {
    fn check<G: Game>(root: &G, depth: u32) {
        let base = SearchParams {
            se_min_depth: 3,
            aspiration_min_depth: 2,
            aspiration_delta: 5,
            fp_max_depth: 3,
            fp_margin_base: 0,
            fp_margin: 10,
            ..SearchParams::DEFAULT
        };
        let variants = [
            SearchParams {
                se_pv_nodes: false,
                ..base
            },
            SearchParams {
                aspiration_fail_high_reduce: true,
                ..base
            },
            SearchParams {
                history_bonus_per_ply: 300,
                history_bonus_max: 1500,
                ..base
            },
            SearchParams {
                hp_max_depth: 3,
                hp_margin: 1,
                ..base
            },
            SearchParams {
                fp_pv_nodes: true,
                ..base
            },
        ];
        each_changes_the_tree(root, depth, base, &variants);
    }
    check(&crate::tafl::brandubh(), 7);
    // A middle game (one of the bench's positions): from the start position futility at PV
    // nodes has nothing to prune at these depths with generation 26's network.
    let middle = crate::ataxx::Position::from_fen("x1x3o/3o1oo/4o1o/6o/3oxo1/1o1x3/o2xx2 o 2 15");
    check(&middle.unwrap(), 6);
}

/// Histories kept from one search of a game to the next (`history_keep` above 0): the second
/// search of a thread differs from the same search on fresh tables; with `history_keep` 0 it
/// is the same, and [`ThreadData::clear`] (a new game) makes it the same again.
#[test]
fn histories_kept_across_searches_change_the_next_search_until_a_new_game() {
    fn run(pos: &crate::ataxx::Position, params: SearchParams, data: &mut ThreadData) -> u64 {
        let tt = Arc::new(TranspositionTable::new(4).unwrap());
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let options = SearchOptions {
            params,
            ..SearchOptions::default()
        };
        let control = Control::new(false);
        search(
            pos,
            &[],
            &limits,
            &options,
            &tt,
            &control,
            data,
            None,
            &mut |_| {},
        )
        .nodes
    }
    let first = crate::ataxx::Position::start();
    let second = first.with_fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
    for (keep, kept) in [(0, false), (512, true), (1024, true)] {
        let params = SearchParams {
            history_keep: keep,
            ..crate::variant::params::ATAXX
        };
        let fresh = run(&second, params, &mut ThreadData::default());
        let mut data = ThreadData::default();
        run(&first, params, &mut data);
        assert_eq!(
            run(&second, params, &mut data) != fresh,
            kept,
            "keep {keep}"
        );
        run(&first, params, &mut data);
        data.clear();
        assert_eq!(run(&second, params, &mut data), fresh, "keep {keep}");
    }
}

/// Runs `f` with a one-thread worker for `root` (game history `history`, oldest first),
/// on a fresh 1 MiB table, with no limits.
fn with_worker<G: Game, R>(
    root: &G,
    history: &[u64],
    f: impl FnOnce(&mut Worker<'_, G>) -> R,
) -> R {
    let shared = Shared {
        tt: Arc::new(TranspositionTable::new(1).unwrap()),
        control: Control::new(false),
        done: AtomicBool::new(false),
        nodes: vec![CachePadded::new(AtomicU64::new(0))],
        start: Instant::now(),
        budget: TimeBudget::UNTIMED,
        node_limit: None,
        basic: false,
        params: SearchParams::DEFAULT,
        eval: EvalChoice::Default,
        fault: None,
    };
    let mut data = ThreadData::default();
    let mut worker = Worker::new(0, &shared, &mut data, history, root);
    f(&mut worker)
}

/// Makes `text` in `pos` as the search does at `ply` ([`Worker::make_move`]: a real move, one
/// ply further from the last null move), returning the child.
fn push_move<G: Game>(w: &mut Worker<'_, G>, pos: &G, text: &str, ply: usize) -> G {
    w.make_move(pos, pos.parse_move(text).unwrap(), ply)
}

/// The score of the position on top of `w`'s path (`pos`, at `ply`) by the repetition rule.
fn repetition_score<G: Game>(w: &Worker<'_, G>, pos: &G, ply: usize) -> Option<i32> {
    w.path
        .repetition_score(pos, ply, w.stack[ply].plies_from_null)
}

/// The move from `mv`'s destination back to its origin (tafl `d4-d6` → `d6-d4`).
fn reverse(mv: &str) -> String {
    let (from, to) = mv.split_once('-').unwrap();
    format!("{to}-{from}")
}

/// Copenhagen 11×11: a defender move may not recreate an earlier board (copenhagen.md). A
/// defender *null move* leaves the board as it was, but it is no move of the game: the
/// search must not judge the board after it as recreated (it did, so every defender null
/// move scored as a loss and never cut off). A real recreation, five plies on, still is one:
///
/// ```text
/// P0 (defenders to move) -d-> P1 -a-> P2 -d back-> P3 -a back-> P4 (= P0) -d-> P5 (= P1)
/// ```
#[test]
fn a_null_move_is_no_repetition_for_the_copenhagen_defenders() {
    let mut p0 = crate::tafl::copenhagen();
    let mut moves = Vec::new();
    p0.generate_moves(&mut moves);
    p0.make_move(moves[0]);
    assert_eq!(p0.side_to_move(), Side::Second);
    with_worker(&p0, &[], |w| {
        let null = w.make_null_move(&p0, 0);
        assert_eq!(repetition_score(w, &null, 1), None);
        w.path.pop();
    });
    let pick = |pos: &crate::tafl::LargePosition| {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        pos.move_to_string(moves[0])
    };
    with_worker(&p0, &[], |w| {
        let d = pick(&p0);
        let p1 = push_move(w, &p0, &d, 0);
        let a = pick(&p1);
        let p2 = push_move(w, &p1, &a, 1);
        let p3 = push_move(w, &p2, &reverse(&d), 2);
        assert_eq!(repetition_score(w, &p3, 3), None);
        let p4 = push_move(w, &p3, &reverse(&a), 3);
        // The attackers recreated P0's board: their moves may.
        assert_eq!(repetition_score(w, &p4, 4), None);
        let p5 = push_move(w, &p4, &d, 4);
        // The defenders recreated P1's board: the attackers (to move) win.
        assert_eq!(repetition_score(w, &p5, 5), Some(MATE - 5));
    });
}

/// Copenhagen judges a defender move by the board it makes *before* its captures
/// ([`Game::repetition_board`]; hnefatafl.org 6.4.1): in the search too. The line of
/// `tests/tafl_rules.rs` `copenhagen_repetition_is_judged_before_captures`: the eighth ply,
/// e2-f2, captures f3, and the board before that capture is the board after the first ply.
#[test]
fn the_search_judges_a_copenhagen_repetition_before_captures() {
    let root = crate::tafl::copenhagen()
        .with_fen("11/1t7T1/11/11/11/5K5/11/5T5/6t4/5T5/11 a 0 1")
        .unwrap();
    let line = [
        "g3-f3", "f2-e2", "b10-b9", "j10-j9", "b9-b8", "j9-j10", "b8-b10", "e2-f2",
    ];
    with_worker(&root, &[], |w| {
        let mut pos = root;
        for (ply, mv) in line.iter().enumerate() {
            pos = push_move(w, &pos, mv, ply);
            let want = (ply == 7).then_some(MATE - 8);
            assert_eq!(repetition_score(w, &pos, ply + 1), want, "{mv}");
        }
        assert_eq!(pos.halfmove_clock(), 0, "e2-f2 captured");
    });
}

/// A win that a repetition rule gives is a property of the path, not of the position: it
/// must not reach the transposition table as a mate score, where another path to the same
/// position would take it for a forced win. Brandubh under OpenTafl's `tfr:l` (the side
/// whose move makes a position occur a third time wins): the attackers' first move recreates
/// a position the game history already has twice.
#[test]
fn a_repetition_verdict_is_not_stored_as_a_mate_score() {
    let mut options = crate::tafl::RuleOptions::brandubh();
    options.repetition = RepetitionRule::MoverWins(3);
    let rules = crate::tafl::Rules::<u64>::leak(options).unwrap();
    let fen = crate::tafl::brandubh().fen().replacen(" 0 ", " 20 ", 1);
    let root = crate::tafl::Position::from_fen(rules, &fen).unwrap();
    assert_eq!(root.halfmove_clock(), 20, "{fen}");
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    let mut child = root;
    child.make_move(moves[0]);
    let history = [1, child.hash(), 2, child.hash()];
    with_worker(&root, &history, |w| {
        let score = w.negamax(&root, 2, -INF, INF, 0, false);
        assert_eq!(score, MATE - 1);
        let stored = w.shared.tt.probe(root.hash());
        assert!(
            stored.is_none_or(|e| (e.score as i32).abs() < MATE_BOUND),
            "{stored:?}"
        );
    });
}

/// A mate score in the table, found where a move-limit clock was low, is no cutoff where the
/// clock leaves fewer plies than the mate needs (Ataxx, halfmove clock 99 of 100: the same
/// board, the same key).
#[test]
fn a_stored_mate_does_not_outlive_the_move_limit_clock() {
    let pos = crate::ataxx::Position::start()
        .with_fen("x5o/7/7/7/7/7/o5x x 99 50")
        .unwrap();
    with_worker(&pos, &[], |w| {
        w.shared.tt.store(
            pos.hash(),
            tt::Entry {
                mv: 0,
                score: score_to_tt(MATE - 10, 0) as i16,
                eval: 0,
                depth: 60,
                bound: Bound::Exact,
            },
        );
        let score = w.negamax(&pos, 2, 0, 1, 0, false);
        assert!(score.abs() < MATE_BOUND, "{score}");
    });
    assert!(!mate_within_move_limit(&pos, MATE - 10, 0));
    assert!(mate_within_move_limit(&pos, MATE - 1, 0));
    assert!(mate_within_move_limit(&pos, 250, 0));
}

/// Quiescence orders its moves by gain, highest first, and keeps the generator's order among
/// equal gains (as the stable `sort_by_cached_key` it replaces did: the same tree, the same
/// bench signature), without allocating.
#[test]
fn quiescence_orders_by_gain_keeping_the_generators_order() {
    // 7 . . . . . . .
    // 6 . . . . . . .
    // 5 . T t . t T .    the king's d4-d5 takes c5 and e5 (200), e1-e3 takes f3 against g3
    // 4 . . . K . . .    (100); the other 38 moves take nothing. The generator lists the
    // 3 . . . . . t T    king's moves last.
    // 2 . . . T . . .
    // 1 . . . . T . .
    //   a b c d e f g
    let pos = crate::tafl::brandubh()
        .with_fen("7/7/1Tt1tT1/3K3/5tT/3T3/4T2 d 0 1")
        .unwrap();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut expected = moves.clone();
    expected.sort_by_cached_key(|&m| -pos.move_gain(m));
    let mut gains = Vec::with_capacity(moves.len());
    let capacity = gains.capacity();
    super::ordering::sort_by_gain(&pos, &mut moves, &mut gains);
    assert_eq!(moves, expected);
    assert_eq!(gains.capacity(), capacity, "no new allocation");
    let text: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
    assert_eq!(&text[..3], ["d4-d5", "e1-e3", "e1-b1"]);
    assert_eq!((gains[0], gains[1], gains[2]), (200, 100, 0));
    assert_eq!(gains.len(), 40);
}
