//! The score of `skald match`: each finished game counted (wins, losses, draws, pairs) with the
//! progress line and the SPRT decision after it, the records written in game order, and the
//! summary at the end.

use super::game::{Finished, Message, Plan};
use super::sink::RecordSink;
use crate::cli::stats::{Penta, Sprt, SprtModel, SprtState, Wld};
use anyhow::Result;
use indicatif::ProgressBar;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;

/// The score of a match, from the first engine's side.
pub(super) struct Tally {
    wld: Wld,
    penta: Penta,
    /// Half points of the first finished game of each pair still waiting for its partner.
    halves: std::collections::HashMap<usize, u8>,
    decision: SprtState,
    /// Games played when the SPRT decided.
    decided_at: usize,
    played: usize,
}

/// What the runner collected from the game workers ([`collect`]).
pub(super) struct Collected {
    /// The score.
    pub(super) tally: Tally,
    /// Why the match stopped (an engine could not be started), if it did.
    pub(super) fatal: Option<String>,
    /// Finished games whose records wait for an earlier game's (one that was aborted).
    pub(super) pending: Vec<Finished>,
}

/// Receives the finished games of `plan` until the workers are done, the SPRT decides (then
/// `plan.stop` is set) or an engine cannot be started: counts each, prints its line above the
/// progress `bar` with the score (and LLR) after it, and writes the records in game order.
///
/// # Errors
/// A record that cannot be written.
pub(super) fn collect(
    plan: &Plan,
    rx: Receiver<Message>,
    bar: &ProgressBar,
    sprt: Option<&Sprt>,
    mut records: Option<&mut RecordSink>,
) -> Result<Collected> {
    let names = &plan.names;
    let mut wld = Wld::default();
    let mut penta = Penta::default();
    // Half points of the first finished game of each pair still waiting for its partner.
    let mut halves: std::collections::HashMap<usize, u8> = std::collections::HashMap::new();
    let mut decision = SprtState::Continue;
    let mut decided_at = 0usize;
    let mut fatal = None;
    // Records are written in game order: hold finished games until the earlier ones are in.
    let mut pending: Vec<Finished> = Vec::new();
    let mut next_record = 0usize;
    let mut played = 0usize;
    for msg in rx {
        let g = match msg {
            Message::Fatal(e) => {
                fatal = Some(e);
                plan.stop.store(true, Ordering::Relaxed);
                break;
            }
            Message::Game(g) => *g,
        };
        if plan.stop.load(Ordering::Relaxed) {
            continue; // a game finished after the test had decided
        }
        played += 1;
        match g.half_points {
            2 => wld.wins += 1,
            0 => wld.losses += 1,
            _ => wld.draws += 1,
        }
        let pair_done = match halves.remove(&(g.index / 2)) {
            Some(other) => {
                penta.add(other, g.half_points);
                true
            }
            None => {
                halves.insert(g.index / 2, g.half_points);
                false
            }
        };
        let line = format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            g.index + 1,
            g.record.first,
            g.record.second,
            g.record.result_text(),
            g.reason
        );
        bar.suspend(|| println!("{line}"));
        bar.inc(1);
        let (elo, err) = wld.elo();
        let mut msg = format!(
            "{} vs {}: {}-{}-{} Elo {} ± {}",
            names[0],
            names[1],
            wld.wins,
            wld.losses,
            wld.draws,
            fmt_elo(elo),
            fmt_elo(err)
        );
        if let Some(s) = sprt {
            let (lo, hi) = s.bounds();
            let llr = deciding_llr(s, &wld, &penta);
            msg += &format!(" LLR {llr:.2} ({lo:.2}, {hi:.2})");
            // The pentanomial test is checked when a pair is complete (fastchess), the
            // trinomial one (bayesian model) after every game.
            if pair_done || s.model == SprtModel::Bayesian {
                decision = s.state(llr);
                decided_at = played;
            }
        }
        bar.set_message(msg);
        pending.push(g);
        if let Some(w) = records.as_deref_mut() {
            pending.sort_by_key(|g| std::cmp::Reverse(g.index));
            while pending.last().is_some_and(|g| g.index == next_record) {
                let g = pending.pop().expect("non-empty");
                w.write(&g.record)?;
                next_record += 1;
            }
        } else {
            pending.clear();
        }
        if decision != SprtState::Continue {
            plan.stop.store(true, Ordering::Relaxed);
        }
    }
    Ok(Collected {
        tally: Tally {
            wld,
            penta,
            halves,
            decision,
            decided_at,
            played,
        },
        fatal,
        pending,
    })
}

/// Prints the result of the match between `names` (of `games` games): score, Elo, pentanomial
/// counts and Elo, and the SPRT's verdict when one ran.
pub(super) fn summary(tally: &Tally, names: &[String; 2], sprt: Option<&Sprt>, games: usize) {
    let Tally {
        wld, penta, halves, ..
    } = tally;
    let (decision, decided_at, played) = (tally.decision, tally.decided_at, tally.played);
    let (elo, err) = wld.elo();
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        wld.wins,
        wld.losses,
        wld.draws,
        wld.score(),
        played
    );
    println!(
        "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        fmt_elo(elo),
        fmt_elo(err),
        100.0 * wld.los(),
        100.0 * wld.draws as f64 / played.max(1) as f64
    );
    let [ll, ld, even, wd, ww] = penta.ptnml();
    let unpaired = if halves.is_empty() {
        String::new()
    } else {
        format!(" ({} unpaired games not counted)", halves.len())
    };
    println!(
        "Ptnml(0-2): [{ll}, {ld}, {even}, {wd}, {ww}], WL/DD: {}/{}, pairs: {}{unpaired}",
        penta.wl,
        penta.dd,
        penta.pairs()
    );
    if let Some(e) = penta.estimate() {
        println!(
            "Pentanomial Elo: {} +/- {}, nElo: {} +/- {}, LOS: {:.1} %",
            fmt_elo(e.elo),
            fmt_elo(e.error),
            fmt_elo(e.nelo),
            fmt_elo(e.nelo_error),
            100.0 * e.los
        );
    }
    if let Some(s) = sprt {
        let (lo, hi) = s.bounds();
        let llr = deciding_llr(s, wld, penta);
        let early = |at: usize| {
            if at < games {
                format!("stopped early, {} of {games} games not played", games - at)
            } else {
                "at the last game".to_string()
            }
        };
        let from = match penta.llr(s) {
            Some(_) => format!("pentanomial; trinomial {:.3}", wld.llr(s)),
            None => "trinomial".to_string(),
        };
        println!(
            "SPRT: llr {llr:.3} ({from}), lbound {lo:.3}, ubound {hi:.3} (elo0 {}, elo1 {}, \
             alpha {}, beta {}, {} Elo)",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.model.name()
        );
        println!(
            "SPRT: {}",
            match decision {
                SprtState::H0 => format!(
                    "H0 accepted at game {decided_at} ({}: llr {llr:.3} <= {lo:.3})",
                    early(decided_at)
                ),
                SprtState::H1 => format!(
                    "H1 accepted at game {decided_at} ({}: llr {llr:.3} >= {hi:.3})",
                    early(decided_at)
                ),
                SprtState::Continue => format!(
                    "inconclusive: ran out of games after {played} with llr {llr:.3} between \
                     the bounds"
                ),
            }
        );
    }
}

/// The LLR that decides the SPRT: the pentanomial one (fastchess's default), or the trinomial
/// one for the bayesian model, which has no pentanomial form.
fn deciding_llr(s: &Sprt, wld: &Wld, penta: &Penta) -> f64 {
    penta.llr(s).unwrap_or_else(|| wld.llr(s))
}

/// An Elo figure with one decimal, `inf`/`-inf` when infinite (never `-0.0`).
fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        // Avoid "-0.0".
        format!("{:.1}", if x.abs() < 0.05 { 0.0 } else { x })
    }
}
