//! The engine's own tests: options and tuning values, the fault path, and searches run
//! through [`Engine::start`] and its handle.

use super::*;

/// `ucinewgame` between games must not undo `setoption name Tune …` (SPSA sets the values once
/// per engine process); a new variant drops them (another family, other values).
#[test]
fn tune_values_survive_a_new_game_and_not_a_new_variant() {
    let mut engine = Engine::new().unwrap();
    engine.apply(Setting::Variant(Variant::Brandubh)).unwrap();
    engine.apply(Setting::Tune("lmr_base", 120)).unwrap();
    engine.new_game();
    let params = engine.tuned.expect("kept");
    assert_eq!(params.get("lmr_base"), Some(120));
    engine.apply(Setting::Variant(Variant::Ataxx)).unwrap();
    assert_eq!(engine.tuned, None);
}

/// Every tuning value at each end of its documented range (`Tune <name>`, the ranges of
/// [`crate::tuning::SearchParams::TUNABLE`]), and every switch on, searches without a fault
/// in every variant. `Tune lmr_min_depth 1` used to panic in the LMR clamp.
#[test]
fn every_tune_value_at_its_bounds_searches_in_every_variant() {
    let mut engine = Engine::new().unwrap();
    engine.set_option("Hash", "1").unwrap();
    let limits = Limits {
        depth: Some(8),
        nodes: Some(2_000),
        ..Limits::default()
    };
    for variant in Variant::ALL {
        for t in crate::tuning::SearchParams::TUNABLE {
            let name = t.name;
            for value in [t.min, t.max] {
                engine.set_variant(variant);
                engine.apply(Setting::Tune(name, value)).unwrap();
                let found = engine.search(&limits, &mut |_| {});
                let result = found.unwrap_or_else(|e| panic!("{variant:?} {name} {value}: {e}"));
                assert!(result.best_move.is_some(), "{variant:?} {name} {value}");
            }
        }
        for s in crate::tuning::SearchParams::SWITCHES {
            engine.set_variant(variant);
            engine.apply(Setting::TuneSwitch(s.name, true)).unwrap();
            let found = engine.search(&limits, &mut |_| {});
            let result = found.unwrap_or_else(|e| panic!("{variant:?} {}: {e}", s.name));
            assert!(result.best_move.is_some(), "{variant:?} {}", s.name);
        }
    }
}

/// A search fault is caught by both ways of searching, with a legal move to play instead,
/// and the engine goes on: here the main thread panics ([`Engine::set_fault`]).
#[test]
fn a_fault_in_the_search_is_reported_with_a_legal_fallback() {
    let mut engine = Engine::new().unwrap();
    let legal = engine.session().legal_moves();
    engine.set_fault(Some(crate::search::Fault::MainThread));
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let _quiet = QuietPanics::new();
    let failed = engine.search(&limits, &mut |_| {}).unwrap_err();
    assert!(legal.contains(failed.fallback.as_ref().unwrap()));
    let (tx, rx) = std::sync::mpsc::channel();
    engine
        .start(limits.clone(), |_| {}, move |f| tx.send(f).unwrap())
        .unwrap();
    match rx.recv().unwrap() {
        Finished::Failed { fallback } => assert!(legal.contains(&fallback.unwrap())),
        other => panic!("{other:?}"),
    }
    engine.set_fault(None);
    engine.new_game();
    assert!(
        engine
            .search(&limits, &mut |_| {})
            .unwrap()
            .best_move
            .is_some()
    );
}

/// A panic in a helper thread of a Lazy SMP search is reported like one in the main
/// thread, not lost.
#[test]
fn a_fault_in_a_helper_thread_is_reported() {
    let mut engine = Engine::new().unwrap();
    engine.set_option("Threads", "2").unwrap();
    engine.set_fault(Some(crate::search::Fault::Helpers));
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let _quiet = QuietPanics::new();
    assert!(engine.search(&limits, &mut |_| {}).is_err());
    engine.set_fault(None);
    assert!(engine.search(&limits, &mut |_| {}).is_ok());
}

/// Settings for one search (OpenTafl's `analyze` asks for its own MultiPV) apply to that
/// search only: the engine's options are as they were after it.
#[test]
fn overrides_apply_to_one_search_only() {
    let mut engine = Engine::new().unwrap();
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let request = SearchRequest {
        limits: limits.clone(),
        multipv: Some(3),
        move_overhead_ms: Some(0),
        ..SearchRequest::default()
    };
    let r = engine.search(request, &mut |_| {}).unwrap();
    assert_eq!(r.lines.len(), 3);
    assert_eq!(engine.search_options().multipv, 1);
    assert_eq!(engine.search_options().move_overhead_ms, 10);
    assert_eq!(engine.search(&limits, &mut |_| {}).unwrap().lines.len(), 1);
}

/// Silences the panic messages of a test that panics on purpose; restores the hook on drop.
struct QuietPanics;

impl QuietPanics {
    fn new() -> QuietPanics {
        std::panic::set_hook(Box::new(|_| {}));
        QuietPanics
    }
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        let _ = std::panic::take_hook();
    }
}

/// A search queued behind another keeps the time it waited: its clock runs from when it was
/// started, not from when the one before it ended (UCI: a `go` sent while a search runs). The
/// second search's reports count the wait (a lower bound: no speed is measured).
#[test]
fn a_queued_search_keeps_the_time_it_waited() {
    let mut engine = Engine::new().unwrap();
    let first = engine
        .start(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            |_| {},
            |_| {},
        )
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reports = tx.clone();
    let second = engine
        .start(
            Limits {
                movetime: Some(100),
                ..Limits::default()
            },
            move |r| reports.send(Some(r.time_ms)).unwrap(),
            move |f| {
                assert!(matches!(f, Finished::Done(_)), "{f:?}");
                tx.send(None).unwrap();
            },
        )
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    assert!(second.is_running() && !second.is_done());
    first.stop();
    second.wait();
    let times: Vec<u64> = rx.iter().map_while(|t| t).collect();
    assert!(!times.is_empty());
    assert!(
        times[0] >= 400,
        "its first depth counts the wait: {times:?}"
    );
    assert!(first.is_done() && second.is_done());
}

/// Without search threads (WebAssembly's engine) a search runs when it is waited for, on the
/// waiting thread, with its reports and answer; `Threads` stays 1; a callback may stop it.
#[test]
fn an_engine_without_threads_searches_when_waited_for() {
    let mut engine = Engine::without_threads().unwrap();
    assert!(engine.set_option("Threads", "2").is_err());
    let answered = Arc::new(std::sync::Mutex::new(None));
    let a = Arc::clone(&answered);
    let handle = engine
        .start(
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
            |_| {},
            move |f| *a.lock().unwrap() = Some(f),
        )
        .unwrap();
    assert!(handle.runs_when_waited_for() && engine.is_searching());
    assert!(answered.lock().unwrap().is_none(), "nothing ran yet");
    handle.wait();
    assert!(matches!(
        answered.lock().unwrap().take(),
        Some(Finished::Done(a)) if a.depth == 3 && a.best_move.is_some()
    ));
    assert!(!engine.is_searching());
    // The sync form, and a search its report stops (an infinite one ends at depth 1).
    let mut depths = Vec::new();
    let answer = engine
        .search(
            Limits {
                depth: Some(2),
                ..Limits::default()
            },
            &mut |r| depths.push(r.depth),
        )
        .unwrap();
    assert_eq!((answer.depth, depths.last()), (2, Some(&2)));
    let slot: Arc<std::sync::Mutex<Option<SearchHandle>>> = Arc::default();
    let inner = Arc::clone(&slot);
    let handle = engine
        .start(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            move |_| {
                if let Some(h) = inner.lock().unwrap().as_ref() {
                    h.stop();
                }
            },
            |_| {},
        )
        .unwrap();
    *slot.lock().unwrap() = Some(handle.clone());
    handle.wait();
    assert!(handle.is_done());
}

/// A cancelled search answers `Cancelled`, running or queued; a task is steered alike.
#[test]
fn cancelled_searches_and_stopped_tasks() {
    let mut engine = Engine::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let forever = Limits {
        infinite: true,
        ..Limits::default()
    };
    let tx2 = tx.clone();
    let running = engine
        .start(forever.clone(), |_| {}, move |f| tx.send(f).unwrap())
        .unwrap();
    let queued = engine
        .start(forever, |_| {}, move |f| tx2.send(f).unwrap())
        .unwrap();
    queued.cancel();
    running.cancel();
    assert_eq!(rx.recv().unwrap(), Finished::Cancelled);
    assert_eq!(rx.recv().unwrap(), Finished::Cancelled);
    let (tx, rx) = std::sync::mpsc::channel();
    let task = engine
        .start_task(move |stop| {
            while !stop.is_stopped() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            stop.answering();
            tx.send(()).unwrap();
        })
        .unwrap();
    assert!(engine.is_searching());
    engine.stop();
    rx.recv().unwrap();
    task.wait();
    assert!(!engine.is_searching() && task.is_done());
}
