//! Self-play at a node limit, shared by `skald datagen` (which records each searched position)
//! and `skald openings --played` (which wants the winner).

use anyhow::{Result, anyhow, bail};
use skald::engine::{Answer, Engine, Limits, Session};

/// Plays a game out from `start` with `engine` searching `nodes` nodes a move, until the game is
/// decided or `max_plies` moves have been played; `on_search` sees each position before its move
/// is played, with the search's result. The tables are not cleared first. Returns the last
/// position (decided, or not after `max_plies`).
///
/// # Errors
/// The search gives no move in an undecided position, or a move the position refuses.
pub fn play_out(
    engine: &mut Engine,
    start: &dyn Session,
    nodes: u64,
    max_plies: usize,
    on_search: &mut dyn FnMut(&dyn Session, &Answer),
) -> Result<Box<dyn Session>> {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut session = start.boxed_clone();
    for _ in 0..max_plies {
        if session.outcome().is_decided() {
            break;
        }
        engine.set_session(session.boxed_clone());
        let result = engine.search(&limits, &mut |_| {})?;
        on_search(session.as_ref(), &result);
        let Some(mv) = result.best_move else {
            bail!("the search gave no move in {}", session.fen());
        };
        session
            .play(mv)
            .map_err(|e| anyhow!("the search's move {mv} in {}: {e}", session.fen()))?;
    }
    Ok(session)
}
