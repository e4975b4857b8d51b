//! `bench`: a fixed search over positions of every game (brandubh, tablut, tawlbwrdd, Copenhagen
//! 11×11 and 13×13, Ashton Tablut, Ataxx), one thread, fixed depth. The total node count is the search's signature: any
//! change to search behaviour changes it, and the same binary gives the same count on every run
//! and machine (a test pins it).

use crate::engine::{Engine, EngineError, Limits, SearchRequest, Stopper};
use crate::variant::Variant;
use std::time::Instant;

/// The bench positions: variant and FEN. Start positions and middlegames of each game.
pub const POSITIONS: &[(Variant, &str)] = &[
    (Variant::Brandubh, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1"),
    (
        Variant::Brandubh,
        "1T1t1t1/3t3/6t/t1TK1tT/1t5/3T3/3t3 a 12 7",
    ),
    (Variant::Brandubh, "3t3/1t5/tT5/1tTKTt1/3T3/3t2t/3t3 d 5 3"),
    (
        Variant::Tablut,
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1",
    ),
    (
        Variant::Tablut,
        "3ttt3/5t3/2T3T2/t2TT2t1/ttT1K2tt/t3T3t/3T1T3/8t/1t2tt3 a 12 7",
    ),
    (
        Variant::Tablut,
        "1t7/5tt2/T4t3/6t2/ttT3ttt/T1K3t2/3t2t2/3T5/2Tttt3 d 10 25",
    ),
    (
        Variant::Tawlbwrdd,
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
    ),
    (
        Variant::Tawlbwrdd,
        "4tttt3/1t3t5/11/t2T2T3t/t3TT4t/tt1TTKTT1tt/t4TT3t/t3TT5/11/5t4t/3ttttt3 a 6 4",
    ),
    (
        Variant::Copenhagen,
        "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
    ),
    (
        Variant::Copenhagen,
        "4ttt2t1/1t9/1t9/t2t1T1t2t/t3T1T1T1t/t2TTKTT2t/tT3T4t/t5T3t/11/4t1T4/3ttttt3 a 14 8",
    ),
    (
        Variant::Copenhagen,
        "3ttttt3/1t8t/6T4/t5T4/t3TT1T2t/tt1TTK1T1tt/t3TTT1T1t/5t4t/5tt4/11/3ttt1t3 a 14 8",
    ),
    (
        Variant::Copenhagen13,
        "3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/3ttttttt3 a 0 1",
    ),
    (
        Variant::Ashton,
        "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 d 0 1",
    ),
    (Variant::Ataxx, "x5o/7/7/7/7/7/o5x x 0 1"),
    (Variant::Ataxx, "1o2x2/o4x1/7/2o4/3o2x/7/7 x 1 7"),
    (
        Variant::Ataxx,
        "x1x3o/3o1oo/4o1o/6o/3oxo1/1o1x3/o2xx2 o 2 15",
    ),
];

/// The depth each bench position is searched to, in plies.
pub const DEFAULT_DEPTH: u32 = 7;

/// The result of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions (the signature).
    pub nodes: u64,
    /// Wall time, ms.
    pub time_ms: u64,
    /// The run was stopped before its end ([`run_until`]): `nodes` is no signature then.
    pub stopped: bool,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Searches every bench position to `depth` with `threads` threads (a new game, so empty 16 MiB
/// tables, for each) and calls `each(variant, fen, nodes)` after each position. With one thread
/// the node count is deterministic. The evaluation is the default one (Ataxx's embedded
/// network); [`run_with_eval`] chooses another.
///
/// # Errors
/// The engine cannot be made or `threads` is not accepted.
pub fn run(
    depth: u32,
    threads: usize,
    each: impl FnMut(Variant, &str, u64),
) -> Result<BenchResult, EngineError> {
    run_with_eval(depth, threads, crate::eval::EVAL_FILE_DEFAULT, each)
}

/// [`run`] with the evaluation that the engine option `EvalFile` value `eval_file` selects
/// (`<default>`, `hand` or a network file's path).
///
/// # Errors
/// As [`run`], and [`EngineError::Option`] if `eval_file` is refused (a bad network file).
pub fn run_with_eval(
    depth: u32,
    threads: usize,
    eval_file: &str,
    each: impl FnMut(Variant, &str, u64),
) -> Result<BenchResult, EngineError> {
    run_until(depth, threads, eval_file, &Stopper::new(), each)
}

/// [`run_with_eval`] that another thread can end early with `stopper` (UCI `bench` and
/// `stop`): the position being searched ends after its depth 1, the rest are skipped, and the
/// result says `stopped`.
///
/// # Errors
/// As [`run_with_eval`].
pub fn run_until(
    depth: u32,
    threads: usize,
    eval_file: &str,
    stopper: &Stopper,
    mut each: impl FnMut(Variant, &str, u64),
) -> Result<BenchResult, EngineError> {
    let mut engine = Engine::new()?;
    engine
        .set_option("Threads", &threads.to_string())
        .map_err(|e| EngineError::Threads(std::io::Error::other(e.to_string())))?;
    engine.set_option("EvalFile", eval_file)?;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    for &(variant, fen) in POSITIONS {
        if stopper.is_stopped() {
            break;
        }
        engine.set_variant(variant);
        engine
            .session_mut()
            .set_position(Some(fen), &[])
            .expect("bench positions are valid FENs");
        let n = engine
            .search(
                SearchRequest {
                    limits: limits.clone(),
                    stopper: Some(stopper.clone()),
                    ..SearchRequest::default()
                },
                &mut |_| {},
            )?
            .nodes;
        each(variant, fen, n);
        nodes += n;
    }
    Ok(BenchResult {
        nodes,
        time_ms: start.elapsed().as_millis() as u64,
        stopped: stopper.is_stopped(),
    })
}
