//! Time management: turns `go` limits into a soft limit (checked between iterations: do not
//! start another) and a hard limit (checked inside the search: stop now).

use crate::game::Side;
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
}

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop the search once this much time has passed.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// Budgets a move for `side` from `limits`, keeping `overhead_ms` (the UCI `Move Overhead`
    /// option: communication and GUI lag) in reserve.
    ///
    /// With a clock: soft = left / moves-to-go (30 if unknown, so the remainder shrinks
    /// smoothly) + ¾ of the increment; hard = 4 × soft, but never more than a third of the time
    /// left; both leave `overhead_ms` spare and at least 1 ms.
    pub fn new(limits: &Limits, side: Side, overhead_ms: u64) -> TimeBudget {
        if limits.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeBudget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(left) = limits.clock.time[side.index()] else {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        };
        let inc = limits.clock.inc[side.index()];
        let usable = left.saturating_sub(overhead_ms).max(1);
        let mtg = limits.clock.moves_to_go.unwrap_or(30).clamp(1, 50) as u64;
        let soft = (usable / mtg + inc * 3 / 4).min(usable / 2).max(1);
        let hard_cap = if mtg == 1 { usable * 3 / 4 } else { usable / 3 };
        let hard = (soft * 4).min(hard_cap).max(soft).max(1);
        TimeBudget {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_exact_less_overhead() {
        let limits = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let b = TimeBudget::new(&limits, Side::First, 10);
        assert_eq!(b.hard, Some(Duration::from_millis(990)));
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
            let b = TimeBudget::new(&limits, Side::Second, 10);
            let hard = b.hard.unwrap().as_millis() as u64;
            assert!(hard <= left.max(1), "left {left} hard {hard}");
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
    }
}
