//! The game as the page sees it: its whole state in JSON (docs/serve.md, "The game state"),
//! written from the engine's typed values: the board's pieces and marked squares, the legal
//! targets of each piece, the last move's squares, the captures, the result; and scores.

use super::ids::{GameId, id_text};
use super::state::{Game, Mode, Rules};
use serde_json::{Value, json};
use skald::engine::{Mark, MoveView, Outcome, Score, Side, Square};
use std::collections::BTreeMap;

/// `first` or `second`.
pub fn side_key(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// A score as JSON: `{"cp": 35}` or `{"mate": -3}` (the side to move's view).
pub fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// A score from the first side's view in centipawns, mates as ±10000 (for the evaluation bar).
pub fn first_view(score: Score, to_move: Side) -> i32 {
    let v = match score {
        Score::Cp(cp) => cp.clamp(-9999, 9999),
        Score::Mate(n) if n > 0 => 10000,
        Score::Mate(_) => -10000,
    };
    if to_move == Side::First { v } else { -v }
}

/// A move's squares by name, the one left first (`["d1", "d3"]`; a clone's one, a pass's
/// none): what the page highlights and draws arrows between.
pub fn squares_json(mv: MoveView) -> Vec<String> {
    mv.squares().iter().map(Square::to_string).collect()
}

/// The marked squares the page draws (a cross under the piece): the throne and the squares no
/// soldier may stop on, each with what it is (`throne`, `corner`, `camp`, `restricted`).
fn marks_json(board: &skald::engine::Board) -> Vec<Value> {
    board
        .drawn_marks()
        .into_iter()
        .map(|(sq, kind)| json!({ "square": sq.to_string(), "kind": kind }))
        .collect()
}

/// A board's rows, top rank first: a piece's FEN letter, `-` a blocked square, `null` an
/// empty one (the state's `board`, and each of `GET /api/games/{id}/positions`' boards).
pub fn rows_json(board: &skald::engine::Board) -> Vec<Vec<Option<String>>> {
    let size = board.size();
    (0..size)
        .rev()
        .map(|rank| {
            (0..size)
                .map(|file| {
                    let sq = Square::new(file, rank);
                    match board.piece(sq) {
                        Some(p) => Some(p.letter().to_string()),
                        None if board.has_mark(sq, Mark::Blocked) => Some("-".to_string()),
                        None => None,
                    }
                })
                .collect()
        })
        .collect()
}

/// The whole state of game `id` as the page draws it (docs/serve.md, "The game state").
pub fn state_json(id: GameId, game: &Game) -> Value {
    let s = game.session.as_ref();
    let family = game.rules.family();
    let board = s.board();
    let size = board.size();
    let rows = rows_json(&board);
    let to_move = s.side_to_move();
    let outcome = s.outcome();
    let legal = s.legal_moves();
    // The legal targets of each piece of the side to move (an Ataxx clone is a target of
    // every stone next to its square).
    let mut targets: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (sq, piece) in board.pieces() {
        if piece.side() != to_move {
            continue;
        }
        let moves: Vec<Value> = legal
            .iter()
            .filter(|mv| mv.made_from(sq))
            .filter_map(|mv| {
                let to = mv.to()?;
                Some(json!({ "to": to.to_string(), "move": mv.to_string(), "kind": mv.kind().name() }))
            })
            .collect();
        if !moves.is_empty() {
            targets.insert(sq.to_string(), moves);
        }
    }
    let pass = legal
        .iter()
        .find(|mv| **mv == MoveView::Pass)
        .map(MoveView::to_string);
    let moves: Vec<String> = s.moves_played().iter().map(MoveView::to_string).collect();
    let last = s.last_move().map(
        |m| json!({ "move": m.to_string(), "kind": m.kind().name(), "squares": squares_json(m) }),
    );
    let count = |board: &skald::engine::Board| json!({ "first": board.count(Side::First), "second": board.count(Side::Second) });
    let captures: Vec<Value> = s
        .last_captures()
        .into_iter()
        .map(|c| json!({ "square": c.square.to_string(), "piece": c.piece.to_string() }))
        .collect();
    let result = match outcome {
        Outcome::Ongoing => Value::Null,
        Outcome::Decided { winner, reason } => json!({
            "winner": winner.map(side_key),
            "reason": reason.to_string(),
            "text": family.result_text(winner, &reason.to_string()),
        }),
    };
    let (mode, human, level) = match game.mode {
        Mode::Hotseat => ("hotseat", Value::Null, Value::Null),
        Mode::Computer { human, level } => (
            "computer",
            json!(side_key(human)),
            json!({ "name": level.name(), "time_ms": level.time_ms() }),
        ),
    };
    let (variant, rules, title) = match &game.rules {
        Rules::Variant(v) => (
            json!(v.name()),
            Value::Null,
            v.descriptor().title.to_string(),
        ),
        Rules::OpenTafl(r) => (
            Value::Null,
            json!(r),
            format!("OpenTafl rules {size}×{size}"),
        ),
    };
    json!({
        "id": id_text(id),
        "version": game.version,
        "variant": variant,
        "rules": rules,
        "title": title,
        "family": if family.is_tafl() { "tafl" } else { "ataxx" },
        "size": size,
        "board": rows,
        "pieces": count(&board),
        "setup_pieces": count(&s.setup_board()),
        "marks": marks_json(&board),
        "side_names": { "first": family.side_name(Side::First), "second": family.side_name(Side::Second) },
        "to_move": side_key(to_move),
        "mode": mode,
        "human": human,
        "level": level,
        "engine_to_move": game.engine_to_move(),
        "thinking": game.thinking,
        "legal": legal.iter().map(MoveView::to_string).collect::<Vec<_>>(),
        "targets": targets,
        "pass": pass,
        "moves": moves,
        "last": last,
        "captures": captures,
        "result": result,
        "fen": s.fen(),
        "setup_fen": s.setup_fen(),
        "can_undo": game.can_undo(),
    })
}
