//! Time management: turns `go` limits into a soft limit (checked between iterations, scaled by
//! how settled the best move and the score are: do not start another) and a hard limit
//! (checked inside the search: stop now).

use crate::game::Side;
use crate::tuning::SearchParams;
use std::time::Duration;

/// The clock fields of a `go` command, in milliseconds. `first` is the clock of the side that
/// moves first (tafl attackers, Ataxx `x`; UCI's `btime`/`binc`), `second` the other
/// (`wtime`/`winc`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left per side, ms, indexed by [`Side::index`].
    pub time: [Option<u64>; 2],
    /// Increment per move per side, ms.
    pub inc: [u64; 2],
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. All fields are optional; none set means "until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (summed over threads); on one thread the search is then deterministic.
    pub nodes: Option<u64>,
    /// Exact time to spend, ms.
    pub movetime: Option<u64>,
    /// The game clocks, from which the time manager budgets this move.
    pub clock: Clock,
    /// Search until `stop`, whatever else is set (UCI `go infinite`).
    pub infinite: bool,
    /// Start in ponder mode (UCI `go ponder`): no time limit applies until `ponderhit`, and the
    /// answer waits for `ponderhit` or `stop`.
    pub ponder: bool,
    /// When the search was asked for (UCI: when `go` arrived): its time runs from then, so a
    /// search that waited for the one before it to end does not lose the time it waited.
    /// `None`: from when it starts.
    /// (The browser's clock on wasm32: `web_time::Instant`.)
    pub start: Option<super::Instant>,
}

/// What a search's time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeKind {
    /// No time limit (depth, nodes, infinite, or no clock for the side to move).
    Untimed,
    /// A fixed time for this move (`movetime`): used whole, never scaled.
    Fixed,
    /// Planned from the game clocks: the soft limit scales with how settled the best move is.
    Clock,
}

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop the search once this much time has passed.
    pub hard: Option<Duration>,
    /// Where the limits come from.
    pub kind: TimeKind,
}

/// The part of the clock a search never plans to use: the larger of `overhead_ms` (UCI
/// `Move Overhead`), [`MIN_RESERVE_MS`] and `percent` % of the time left
/// ([`SearchParams::tm_reserve_percent`]), but never more than half of it.
pub fn reserve_ms(left_ms: u64, overhead_ms: u64, percent: u64) -> u64 {
    overhead_ms
        .max(MIN_RESERVE_MS)
        .max(share(left_ms, percent, 100))
        .min(left_ms / 2)
}

/// `value × num / den` without overflow (in 128 bits), saturating at `u64::MAX`; 0 if `den` is 0.
fn share(value: u64, num: u64, den: u64) -> u64 {
    if den == 0 {
        return 0;
    }
    u64::try_from(value as u128 * num as u128 / den as u128).unwrap_or(u64::MAX)
}

/// The smallest reserve kept, ms: a process that waits this long for a CPU still moves in time.
pub const MIN_RESERVE_MS: u64 = 30;

impl TimeBudget {
    /// No time limit.
    pub const UNTIMED: TimeBudget = TimeBudget {
        soft: None,
        hard: None,
        kind: TimeKind::Untimed,
    };

    /// Budgets a move for `side` from `limits`, keeping [`reserve_ms`] of the clock in reserve
    /// (`overhead_ms` is the UCI `Move Overhead` option: communication and GUI lag; the share
    /// of the time left is `params`' [`SearchParams::tm_reserve_percent`]).
    ///
    /// With a clock, of the usable time (time left − reserve): soft = usable / moves-to-go
    /// ([`SearchParams::expected_moves`] if unknown, so the remainder shrinks smoothly; fewer
    /// when [`SearchParams::tm_game_horizon`] is set and the game's estimate `moves_left`,
    /// [`crate::game::Game::moves_left_estimate`], is smaller) + ¾ of
    /// the increment, the increment part scaled down while usable is under
    /// [`SearchParams::tm_increments_kept`] increments (the clock then settles near half that
    /// many increments, as engines that keep a reserve do: Stockfish's and Viridithas's time
    /// managers); soft ≤ usable / 5. Hard = 3 × soft, but never more than a third of usable
    /// (¾ with one move to go); both at least 1 ms. Between iterations the search compares the
    /// time spent with soft × [`time_scale`].
    ///
    /// Any values are safe, up to `u64::MAX` ms and moves to go: the arithmetic saturates
    /// (a client's clock fields are not trusted).
    pub fn new(
        limits: &Limits,
        side: Side,
        overhead_ms: u64,
        params: &SearchParams,
        moves_left: Option<u32>,
    ) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::UNTIMED;
        }
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeBudget {
                soft: Some(t),
                hard: Some(t),
                kind: TimeKind::Fixed,
            };
        }
        let Some(left) = limits.clock.time[side.index()] else {
            return TimeBudget::UNTIMED;
        };
        let inc = limits.clock.inc[side.index()];
        let reserve = reserve_ms(left, overhead_ms, params.tm_reserve_percent.max(0) as u64);
        let usable = left.saturating_sub(reserve).max(1);
        let expected = params.expected_moves.max(1) as u32;
        let planned = match moves_left {
            Some(left) if params.tm_game_horizon => left.clamp(1, expected),
            _ => expected,
        };
        let mtg = limits.clock.moves_to_go.unwrap_or(planned).clamp(1, 50) as u64;
        let kept = (params.tm_increments_kept.max(0) as u64).saturating_mul(inc);
        let inc_part = if usable >= kept {
            share(inc, 3, 4)
        } else {
            share(share(inc, 3, 4), usable, kept.max(1))
        };
        let soft_cap = if mtg == 1 { usable / 2 } else { usable / 5 };
        let soft = (usable / mtg).saturating_add(inc_part).min(soft_cap).max(1);
        let hard_cap = if mtg == 1 {
            share(usable, 3, 4)
        } else {
            usable / 3
        };
        let hard = soft.saturating_mul(3).min(hard_cap).max(soft).max(1);
        TimeBudget {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            kind: TimeKind::Clock,
        }
    }
}

/// Soft-limit multipliers by the number of completed iterations in a row that kept the best
/// move (0: it changed in the last one): a new best move earns more time, a settled one less
/// (the shape of Stockfish's and Viridithas's best-move-stability factors).
pub const STABILITY_SCALE: [f64; 5] = [1.6, 1.2, 1.0, 0.85, 0.75];

/// Extra soft time per centipawn the score fell since the previous iteration (a fall of 100 cp
/// gives ×1.5, the most).
pub const SCORE_DROP_SCALE_PER_CP: f64 = 0.005;

/// No iteration starts after this share of the scaled soft limit: the iteration running then
/// usually ends between one and two times as late (each takes about as long as all before it),
/// about 1.4 times on average, so a move takes about the scaled soft limit on average and the
/// clock settles where [`TimeBudget::new`] plans it. (Without it, moves took about twice the
/// soft limit and the Ataxx clock fell to 150 ms by move 20 at 2 s + 20 ms; with the earlier
/// rule that predicted the next iteration's time, brandubh moves took under half of it.)
pub const START_SHARE: f64 = 0.7;

/// The factor by which the search scales the soft limit before deciding whether to start another
/// iteration: [`START_SHARE`] × [`STABILITY_SCALE`] by `stable_iterations`, times 1 +
/// [`SCORE_DROP_SCALE_PER_CP`] per centipawn `score` fell from `last_score` (at most ×1.5; a
/// rising score changes nothing). The hard limit still bounds the search whatever the factor.
pub fn time_scale(stable_iterations: usize, last_score: Option<i32>, score: i32) -> f64 {
    let stability = STABILITY_SCALE[stable_iterations.min(STABILITY_SCALE.len() - 1)];
    let drop = last_score.map_or(0, |last| (last - score).clamp(0, 100));
    START_SHARE * stability * (1.0 + drop as f64 * SCORE_DROP_SCALE_PER_CP)
}

/// The soft limit's factor for the best move's share of the root's nodes (0 to 1),
/// [`crate::tuning::SearchParams::tm_node_share`]: `(1.5 − share) × 1.35`, from 2.03 (the best
/// move took none of the effort) down to 0.68 (all of it); Viridithas's formula.
pub fn node_share_scale(share: f64) -> f64 {
    (1.5 - share.clamp(0.0, 1.0)) * 1.35
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsettled_searches_get_more_time() {
        assert!(time_scale(0, Some(0), 0) > time_scale(4, Some(0), 0));
        assert!(time_scale(2, Some(50), -50) > time_scale(2, Some(50), 50));
        assert_eq!(time_scale(9, None, 0), START_SHARE * STABILITY_SCALE[4]);
        assert!(time_scale(0, Some(1000), -1000) <= START_SHARE * 1.6 * 1.5 + 1e-9);
    }

    #[test]
    fn a_best_move_with_little_of_the_effort_earns_more_time() {
        assert!(node_share_scale(0.2) > node_share_scale(0.9));
        assert!((node_share_scale(1.0) - 0.675).abs() < 1e-9);
        assert_eq!(node_share_scale(7.0), node_share_scale(1.0));
    }

    #[test]
    fn movetime_is_exact_less_overhead() {
        let limits = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = TimeBudget::new(&limits, Side::First, 10, &SearchParams::DEFAULT, None);
        assert_eq!(b.hard, Some(Duration::from_millis(990)));
    }

    /// The time manager's parameters of issue 52, at 8 s + 80 ms with 8 000 ms left: reserve
    /// 5 % (400 ms) → usable 7 600, soft 7 600 / 30 + 60 = 313; reserve 2 % → 7 840 / 30 + 60
    /// = 321; the game's estimate of 10 moves left, with `tm_game_horizon` on, → 7 600 / 10 +
    /// 60 = 820 (ignored with 0, and by a `movestogo`); with 2 000 ms left (usable 1 900)
    /// and 40 increments kept (3 200) the increment part is 60 × 1 900 / 3 200 = 35, with 10
    /// kept (800) the whole 60.
    #[test]
    fn reserve_increments_and_the_games_horizon_shape_the_budget() {
        let soft = |left: u64, params: &SearchParams, moves_left: Option<u32>, mtg: Option<u32>| {
            let limits = Limits {
                clock: Clock {
                    time: [Some(left), Some(left)],
                    inc: [80, 80],
                    moves_to_go: mtg,
                },
                ..Limits::default()
            };
            TimeBudget::new(&limits, Side::First, 10, params, moves_left)
                .soft
                .unwrap()
                .as_millis() as u64
        };
        let d = SearchParams::DEFAULT;
        assert_eq!(soft(8000, &d, None, None), 313);
        assert_eq!(soft(8000, &d, Some(10), None), 313);
        let p = SearchParams {
            tm_reserve_percent: 2,
            ..d
        };
        assert_eq!(soft(8000, &p, None, None), 321);
        let p = SearchParams {
            tm_game_horizon: true,
            ..d
        };
        assert_eq!(soft(8000, &p, Some(10), None), 820);
        assert_eq!(soft(8000, &p, Some(100), None), 313);
        assert_eq!(soft(8000, &p, Some(10), Some(30)), 313);
        assert_eq!(soft(2000, &d, None, None), 1900 / 30 + 35);
        let p = SearchParams {
            tm_increments_kept: 10,
            ..d
        };
        assert_eq!(soft(2000, &p, None, None), 1900 / 30 + 60);
    }

    #[test]
    fn clock_budget_stays_well_inside_the_time_left() {
        for left in [1u64, 10, 100, 1000, 60_000] {
            let limits = Limits {
                clock: Clock {
                    time: [Some(left), Some(left)],
                    inc: [10, 10],
                    moves_to_go: None,
                },
                ..Limits::default()
            };
            let b = TimeBudget::new(&limits, Side::Second, 10, &SearchParams::DEFAULT, None);
            let hard = b.hard.unwrap().as_millis() as u64;
            assert!(hard <= left.max(1), "left {left} hard {hard}");
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
    }

    /// Plays out the clock of one side that always uses its whole soft budget: the clock must
    /// settle well above the reserve (near 20 increments), not near 7.5 increments as it did.
    #[test]
    fn the_clock_settles_near_twenty_increments() {
        for (base, inc) in [(2000u64, 50u64), (8000, 80), (1000, 10), (60_000, 600)] {
            let mut left = base;
            let mut lowest = u64::MAX;
            for ply in 0..400 {
                let limits = Limits {
                    clock: Clock {
                        time: [Some(left), Some(left)],
                        inc: [inc, inc],
                        moves_to_go: None,
                    },
                    ..Limits::default()
                };
                let b = TimeBudget::new(&limits, Side::First, 10, &SearchParams::DEFAULT, None);
                let used = b.soft.unwrap().as_millis() as u64;
                assert!(used < left, "{base}+{inc}: used {used} of {left}");
                left = left - used + inc;
                if ply > 100 {
                    lowest = lowest.min(left);
                }
            }
            assert!(
                lowest >= 15 * inc,
                "{base}+{inc}: the clock fell to {lowest} ms"
            );
        }
    }

    /// Clock fields at the ends of their range (a client may send anything that parses) budget
    /// without overflow: this test runs in the debug build too, where overflow panics.
    #[test]
    fn extreme_clock_values_do_not_overflow() {
        let big = [0, 1, 1 << 32, u64::MAX / 3, u64::MAX - 1, u64::MAX];
        for &left in &big {
            for &inc in &big {
                for moves_to_go in [None, Some(1), Some(u32::MAX)] {
                    let limits = Limits {
                        clock: Clock {
                            time: [Some(left), Some(left)],
                            inc: [inc, inc],
                            moves_to_go,
                        },
                        ..Limits::default()
                    };
                    for overhead in [0, u64::MAX] {
                        let b = TimeBudget::new(
                            &limits,
                            Side::First,
                            overhead,
                            &SearchParams::DEFAULT,
                            None,
                        );
                        let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                        assert!(soft <= hard, "{left} {inc} {moves_to_go:?}");
                        assert!(hard.as_millis() <= left.max(1) as u128, "{left} {inc}");
                        // The search scales the soft limit by at most this much.
                        let _ = soft.mul_f64(time_scale(0, Some(1000), -1000));
                    }
                }
            }
        }
        let limits = Limits {
            movetime: Some(u64::MAX),
            ..Limits::default()
        };
        assert!(
            TimeBudget::new(
                &limits,
                Side::Second,
                u64::MAX,
                &SearchParams::DEFAULT,
                None
            )
            .hard
            .is_some()
        );
        assert_eq!(share(u64::MAX, 3, 4), u64::MAX / 4 * 3 + 2);
    }

    #[test]
    fn the_reserve_is_never_planned() {
        for left in [1u64, 50, 100, 300, 1000, 10_000, 100_000] {
            let limits = Limits {
                clock: Clock {
                    time: [Some(left), Some(left)],
                    inc: [100, 100],
                    moves_to_go: Some(1),
                },
                ..Limits::default()
            };
            let b = TimeBudget::new(&limits, Side::First, 10, &SearchParams::DEFAULT, None);
            let hard = b.hard.unwrap().as_millis() as u64;
            assert!(
                hard <= left.saturating_sub(reserve_ms(left, 10, 5)).max(1),
                "left {left} hard {hard}"
            );
        }
    }
}
