//! One game of `skald match` and the workers that play them: the shared [`Plan`], the time
//! control and the time a move may take, a worker's pair of engines, and the referee's
//! game from the opening to its result.

use super::referee::Start;
use crate::cli::client::{
    self, Client, EngineSpec, MoveLimits, MoveReply, MoveRequest, NewGame, WaitError,
};
use anyhow::{Result, bail};
use skald::engine::session::Session;
use skald::engine::{Outcome, Side};
use skald::records::GameRecord;
use skald::variant::Variant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A time control: base and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time per side, ms.
    pub base_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
}

impl TimeControl {
    /// Parses `<seconds>[+<increment>]`.
    pub fn parse(s: &str) -> Result<TimeControl> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |what: &str, t: &str| -> Result<u64> {
            match t.trim().parse::<f64>() {
                Ok(x) if (0.0..=1e6).contains(&x) => Ok((x * 1000.0).round() as u64),
                _ => bail!(
                    "--tc must be <seconds>+<increment seconds>, each a number from 0 to \
                     1000000 (e.g. 10+0.1); the {what} is '{t}' in '{s}'; see 'skald match --help'"
                ),
            }
        };
        let tc = TimeControl {
            base_ms: secs("time", base)?,
            inc_ms: secs("increment", inc)?,
        };
        if tc.base_ms == 0 && tc.inc_ms == 0 {
            bail!("--tc '{s}': no time at all; see 'skald match --help'");
        }
        Ok(tc)
    }
}

/// The most seconds `--move-timeout` takes.
pub(super) const MAX_MOVE_TIMEOUT_S: f64 = 1e6;

/// How long the runner waits for a move: in a clock match the time left plus `margin_ms`, in a
/// `--depth` match (`depth` given) without end; either capped by `move_timeout` when given.
/// `None` means no limit. Returns also whether the move timeout is the limit in force.
fn move_allowance(
    depth: Option<u32>,
    clock_left_ms: i64,
    margin_ms: u64,
    move_timeout: Option<Duration>,
) -> (Option<Duration>, bool) {
    let clock = match depth {
        Some(_) => None,
        None => Some(Duration::from_millis(
            clock_left_ms.max(0) as u64 + margin_ms,
        )),
    };
    match (clock, move_timeout) {
        (Some(c), Some(t)) if t < c => (Some(t), true),
        (Some(c), _) => (Some(c), false),
        (None, Some(t)) => (Some(t), true),
        (None, None) => (None, false),
    }
}

/// Everything the game workers share.
pub(super) struct Plan {
    pub(super) variant: Variant,
    pub(super) specs: [EngineSpec; 2],
    pub(super) names: [String; 2],
    pub(super) tc: TimeControl,
    pub(super) depth: Option<u32>,
    pub(super) margin_ms: u64,
    pub(super) move_timeout: Option<Duration>,
    /// One a line of the openings file (or the start position): where each game starts.
    pub(super) starts: Vec<Start>,
    /// The variant's start position (FEN).
    pub(super) start_fen: String,
    pub(super) games: usize,
    pub(super) next: AtomicUsize,
    pub(super) stop: AtomicBool,
}

/// One finished game, from the runner.
pub(super) struct Finished {
    pub(super) index: usize,
    /// Engine 0's points: 1, ½ or 0 (as 2, 1, 0).
    pub(super) half_points: u8,
    pub(super) record: GameRecord,
    pub(super) reason: String,
}

/// What a game worker sends the runner.
pub(super) enum Message {
    /// A finished game.
    Game(Box<Finished>),
    /// An engine could not be started: the match stops.
    Fatal(String),
}

/// Starts `concurrency` game workers (no more than there are games) on `plan`: the
/// finished games arrive on the receiver.
pub(super) fn schedule(
    plan: &Arc<Plan>,
    concurrency: u32,
) -> (Receiver<Message>, Vec<JoinHandle<()>>) {
    let (tx, rx) = channel::<Message>();
    let workers: Vec<_> = (0..concurrency.min(plan.games as u32))
        .map(|_| {
            let plan = Arc::clone(plan);
            let tx = tx.clone();
            std::thread::spawn(move || worker(&plan, &tx))
        })
        .collect();
    drop(tx);
    (rx, workers)
}

/// A game worker: takes the next game of `plan` until none is left or the match stops,
/// starting (and restarting) its pair of engines, and sends each finished game to `tx`.
fn worker(plan: &Plan, tx: &Sender<Message>) {
    let mut engines: [Option<Box<dyn Client>>; 2] = [None, None];
    loop {
        if plan.stop.load(Ordering::Relaxed) {
            break;
        }
        let index = plan.next.fetch_add(1, Ordering::Relaxed);
        if index >= plan.games {
            break;
        }
        for (i, slot) in engines.iter_mut().enumerate() {
            if slot.is_none() {
                match client::start(&plan.specs[i], plan.variant) {
                    Ok(e) => *slot = Some(e),
                    Err(e) => {
                        let _ = tx.send(Message::Fatal(format!("{e:#}")));
                        return;
                    }
                }
            }
        }
        match play_game(plan, index, &mut engines) {
            Some(g) => {
                if tx.send(Message::Game(Box::new(g))).is_err() {
                    break;
                }
            }
            None => break, // aborted
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// Plays game `index`; `None` when aborted by the stop flag. An engine that misbehaved is
/// removed from `engines` (killed), to be restarted for the next game.
fn play_game(
    plan: &Plan,
    index: usize,
    engines: &mut [Option<Box<dyn Client>>; 2],
) -> Option<Finished> {
    let start = &plan.starts[(index / 2) % plan.starts.len()];
    // Engine that moves first: engine 0 in even games.
    let first_engine = index % 2;
    let engine_of = |side: Side| match side {
        Side::First => first_engine,
        Side::Second => 1 - first_engine,
    };
    let mut session: Box<dyn Session> = start
        .session
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .boxed_clone();
    let start_fen = plan.start_fen.clone();
    let setup_fen = start.setup_fen.clone();

    let mut clock = [plan.tc.base_ms as i64; 2];
    let limits = |clock: [i64; 2]| MoveLimits {
        clock,
        inc_ms: plan.tc.inc_ms,
        depth: plan.depth,
    };
    let mut result: Option<(Option<Side>, String)> = None;
    for side in [Side::First, Side::Second] {
        let e = engines[engine_of(side)].as_mut().expect("started");
        let game = NewGame {
            variant: plan.variant,
            setup_fen: &setup_fen,
            start_fen: &start_fen,
            limits: &limits(clock),
        };
        if let Err(why) = e.new_game(&game) {
            engines[engine_of(side)] = None;
            result = Some((
                Some(side.opponent()),
                format!(
                    "{} did not start the game: {why}",
                    plan.names[engine_of(side)]
                ),
            ));
            break;
        }
    }

    while result.is_none() {
        if let Outcome::Decided { winner, reason } = session.outcome() {
            result = Some((winner, reason.to_string()));
            break;
        }
        let side = session.side_to_move();
        let ei = engine_of(side);
        let name = &plan.names[ei];
        let e = engines[ei].as_mut().expect("started");
        let started = Instant::now();
        let (allowed, by_timeout) = move_allowance(
            plan.depth,
            clock[side.index()],
            plan.margin_ms,
            plan.move_timeout,
        );
        let request = MoveRequest {
            session: session.as_ref(),
            limits: &limits(clock),
            deadline: allowed.map(|a| started + a),
            abort: Some(&plan.stop),
        };
        let answer = e.request_move(&request);
        let elapsed = started.elapsed().as_millis() as i64;
        let mv = match answer {
            Ok(MoveReply::Move(mv)) => mv,
            Ok(MoveReply::Resign) => {
                result = Some((Some(side.opponent()), format!("{name} resigns")));
                break;
            }
            Ok(MoveReply::Refused(why)) => {
                engines[ei] = None;
                result = Some((
                    Some(side.opponent()),
                    format!("{name} refused a move legal by skald's rules: {why}"),
                ));
                break;
            }
            Err(WaitError::Aborted) => return None,
            Err(WaitError::Timeout) => {
                engines[ei] = None;
                let why = if by_timeout {
                    format!(
                        "{name} exceeded the move timeout ({} s)",
                        allowed.unwrap_or_default().as_secs_f64()
                    )
                } else {
                    format!("{name} loses on time")
                };
                result = Some((Some(side.opponent()), why));
                break;
            }
            Err(WaitError::Disconnected) => {
                engines[ei] = None;
                result = Some((Some(side.opponent()), format!("{name} crashed")));
                break;
            }
        };
        if plan.depth.is_none() {
            if elapsed > clock[side.index()] + plan.margin_ms as i64 && !by_timeout {
                engines[ei] = None;
                result = Some((Some(side.opponent()), format!("{name} loses on time")));
                break;
            }
            clock[side.index()] = (clock[side.index()] - elapsed).max(0) + plan.tc.inc_ms as i64;
        }
        let mv = mv.as_str();
        if let Err(why) = session.play_text(mv) {
            engines[ei] = None;
            let shown = if mv.is_empty() { "(nothing)" } else { mv };
            result = Some((
                Some(side.opponent()),
                format!("{name} played an illegal move '{shown}': {why}"),
            ));
        } else {
            e.move_accepted(session.as_ref());
        }
    }
    let (winner, reason) = result.expect("the loop ends with a result");
    for e in engines.iter_mut().flatten() {
        e.game_over(Some(winner));
    }
    let half_points = match winner {
        None => 1,
        Some(w) if engine_of(w) == 0 => 2,
        Some(_) => 0,
    };
    let record = GameRecord {
        variant: plan.variant,
        event: "skald match".into(),
        round: Some(index + 1),
        first: plan.names[first_engine].clone(),
        second: plan.names[1 - first_engine].clone(),
        setup_fen,
        start_fen,
        moves: session.moves_played(),
        result: Some(winner),
        termination: Some(reason.clone()),
        rules: start.rules.clone(),
    };
    Some(Finished {
        index,
        half_points,
        record,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("0.5+0.01").unwrap(),
            TimeControl {
                base_ms: 500,
                inc_ms: 10
            }
        );
        assert_eq!(TimeControl::parse("10").unwrap().inc_ms, 0);
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("0+0").is_err());
        assert!(TimeControl::parse("-1+0").is_err());
    }

    /// Faults issue, item 3: a `--depth` match has no clock and waits for a move without end
    /// (it had a hard 600 s); `--move-timeout` limits every move, the clock's limit too when
    /// shorter.
    #[test]
    fn move_allowance_has_no_limit_without_a_clock_or_a_timeout() {
        let secs = Duration::from_secs;
        assert_eq!(move_allowance(Some(4), 0, 50, None), (None, false));
        assert_eq!(
            move_allowance(Some(4), 0, 50, Some(secs(3))),
            (Some(secs(3)), true)
        );
        assert_eq!(
            move_allowance(None, 1000, 50, None),
            (Some(Duration::from_millis(1050)), false)
        );
        assert_eq!(
            move_allowance(None, 1000, 50, Some(secs(3))),
            (Some(Duration::from_millis(1050)), false)
        );
        assert_eq!(
            move_allowance(None, 10_000, 50, Some(secs(3))),
            (Some(secs(3)), true)
        );
        assert_eq!(
            move_allowance(None, -5, 50, None).0,
            Some(Duration::from_millis(50))
        );
        let timeout = crate::cli::Seconds {
            zero: false,
            max: MAX_MOVE_TIMEOUT_S,
        };
        assert!(timeout.check("0").is_err());
        assert!(timeout.check("-2").is_err());
        assert!(timeout.check("x").is_err());
        assert_eq!(timeout.check("0.5"), Ok(0.5));
        assert!(
            TimeControl::parse("1+-1")
                .unwrap_err()
                .to_string()
                .contains("from 0 to")
        );
    }
}
