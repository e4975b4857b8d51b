//! How `skald bot` searches and which move it sends: the search's limits from the game's
//! clocks (or `depth`, `nodes`, `time` in an untimed game), at the configured strength, and a
//! move checked legal by skald's rules (the history included) before it is sent; with none to
//! send, it resigns.

use super::bot::{Bot, Game, State};
use super::protocol::{self as server, TimeControl};
use crate::engine::session::Session;
use crate::engine::{Clock, Limits, MoveView, SearchRequest, Side};
use crate::tafl::hnefatafl::square_text;
use anyhow::{Result, anyhow, bail};
use std::time::Instant;

/// The thinking time per move in an untimed game when no depth, node or time limit is given,
/// ms (as `skald htp`'s).
pub(super) const DEFAULT_MOVETIME_MS: u64 = 2000;

impl Bot {
    /// The limits of skald's search for its move now.
    pub(super) fn request(&self, game: &Game) -> SearchRequest {
        let a = &self.config;
        let mut limits = Limits {
            depth: a.depth,
            nodes: a.nodes,
            ..Limits::default()
        };
        match game.time {
            TimeControl::Untimed => {
                limits.movetime = match (a.time, a.depth, a.nodes) {
                    (Some(s), _, _) => Some(((s * 1000.0).round() as u64).max(1)),
                    (None, None, None) => Some(DEFAULT_MOVETIME_MS),
                    _ => None,
                };
            }
            TimeControl::Fischer { add_seconds, .. } => {
                let left = |s: Side| game.clocks[s.index()].max(1) as u64;
                limits.clock = Clock {
                    time: [Some(left(Side::First)), Some(left(Side::Second))],
                    inc: [add_seconds.saturating_mul(1000); 2],
                    moves_to_go: None,
                };
            }
        }
        SearchRequest {
            limits,
            skill_level: Some(self.config.skill),
            move_overhead_ms: Some((a.overhead * 1000.0).round() as u64),
            ..SearchRequest::default()
        }
    }

    /// Searches, checks the move against the rules (legal, not a repetition the server
    /// refuses), sends it and plays it on skald's board. With no move to send, resigns.
    pub(super) fn generate_move(&mut self) -> Result<()> {
        let State::Playing(game) = &self.state else {
            return Ok(());
        };
        let (id, side, size) = (game.id, game.side, game.size);
        let started = Instant::now();
        let request = self.request(game);
        self.engine
            .set_seed(self.engine.session().moves_played().len() as u64);
        let best = match self.engine.search(request, &mut |_| {}) {
            Ok(result) => result.best_move,
            Err(e) => {
                eprintln!("skald bot: {e}; playing {:?}", e.fallback);
                e.fallback
            }
        };
        let session: &dyn Session = self.engine.session();
        let legal = session.legal_moves();
        // The session's legal moves leave out what the rules forbid by the game's history
        // (a Copenhagen defender move that recreates a board).
        let allowed = |mv: &MoveView| legal.contains(mv);
        let choice = best.filter(allowed).or_else(|| legal.first().copied());
        let Some(mv) = choice else {
            eprintln!("skald bot: game {id}: no move to play; skald resigns");
            return self.conn.send(&server::resign_line(id, side));
        };
        let MoveView::Slide { from, to } = mv else {
            bail!("game {id}: the engine's move {mv} is no tafl move");
        };
        let (from, to) = (square_text(size, from), square_text(size, to));
        self.conn.send(&server::move_line(id, side, &from, &to))?;
        self.engine
            .session_mut()
            .play(mv)
            .map_err(|e| anyhow!("game {id}: skald's own move {mv}: {e}"))?;
        if self.config.verbose {
            eprintln!(
                "skald bot: game {id}: skald played {from} {to} in {:.2} s",
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }
}
