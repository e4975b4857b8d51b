//! The game as the page sees it: its whole state in JSON (docs/serve.md, "The game state"):
//! the game's fields from the library's [`skald::view`] (the same as the WebAssembly build's)
//! and the server's own (the game's id, version, mode, level, whether the engine thinks); and
//! scores for the evaluation bar.

use super::ids::{GameId, id_text};
use super::state::{Game, Mode, Rules};
use serde_json::{Value, json};
use skald::engine::{Score, Side};
use skald::view::{GameRules, game_state, side_key};

/// A score from the first side's view in centipawns, mates as ±10000 (for the evaluation bar).
pub fn first_view(score: Score, to_move: Side) -> i32 {
    let v = match score {
        Score::Cp(cp) => cp.clamp(-9999, 9999),
        Score::Mate(n) if n > 0 => 10000,
        Score::Mate(_) => -10000,
    };
    if to_move == Side::First { v } else { -v }
}

/// The whole state of game `id` as the page draws it (docs/serve.md, "The game state"): the
/// game's fields ([`game_state`]) and `id`, `version`, `mode`, `human`, `level`,
/// `engine_to_move`, `thinking`, `can_undo`.
pub fn state_json(id: GameId, game: &Game) -> Value {
    let rules = match &game.rules {
        Rules::Variant(v) => GameRules::Variant(*v),
        Rules::OpenTafl(r) => GameRules::OpenTafl(r),
    };
    let mut state = game_state(game.session.as_ref(), rules);
    let (mode, human, level) = match game.mode {
        Mode::Hotseat => ("hotseat", Value::Null, Value::Null),
        Mode::Computer { human, level } => (
            "computer",
            json!(side_key(human)),
            json!({ "name": level.name(), "time_ms": level.time_ms() }),
        ),
    };
    state["id"] = json!(id_text(id));
    state["version"] = json!(game.version);
    state["mode"] = json!(mode);
    state["human"] = human;
    state["level"] = level;
    state["engine_to_move"] = json!(game.engine_to_move());
    state["thinking"] = json!(game.thinking);
    state["can_undo"] = json!(game.can_undo());
    state
}
