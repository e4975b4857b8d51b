//! The game as the browser page sees it, in JSON (docs/serve.md, "The game state"), written
//! once from the engine's typed values for both of the page's back-ends: `skald serve`'s HTTP
//! API and the WebAssembly build (`skald-wasm/`, `web/local.js`), so that the page reads one
//! shape from either. The board's pieces and marked squares, the legal targets of each piece,
//! the last move's squares, the captures, the result; the variants; scores.
//!
//! Each front-end adds its own fields to these objects (the server a game's id, mode and level;
//! its variants list the levels and its bounds).

use crate::engine::{Board, Mark, MoveView, Outcome, Score, Session, Side, Square};
use crate::variant::{Family, Variant};
use serde_json::{Value, json};
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

/// A move's squares by name, the one left first (`["d1", "d3"]`; a clone's one, a pass's
/// none): what the page highlights and draws arrows between.
pub fn squares_json(mv: MoveView) -> Vec<String> {
    mv.squares().iter().map(Square::to_string).collect()
}

/// A board's rows, top rank first: a piece's FEN letter, `-` a blocked square, `null` an
/// empty one (the state's `board`, and each board of a game's positions).
pub fn rows_json(board: &Board) -> Vec<Vec<Option<String>>> {
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

/// The marked squares the page draws (a cross under the piece): the throne and the squares no
/// soldier may stop on, each with what it is (`throne`, `corner`, `camp`, `restricted`).
fn marks_json(board: &Board) -> Vec<Value> {
    board
        .drawn_marks()
        .into_iter()
        .map(|(sq, kind)| json!({ "square": sq.to_string(), "kind": kind }))
        .collect()
}

/// A board's pieces of each side: `{"first": n, "second": n}`.
fn count_json(board: &Board) -> Value {
    json!({ "first": board.count(Side::First), "second": board.count(Side::Second) })
}

/// Moves as text in the game's notation.
fn texts(moves: &[MoveView]) -> Vec<String> {
    moves.iter().map(MoveView::to_string).collect()
}

/// The rules a game is played by, as its state names them.
#[derive(Clone, Copy, Debug)]
pub enum GameRules<'a> {
    /// One of skald's variants.
    Variant(Variant),
    /// An OpenTafl rules string (a tafl game of no variant).
    OpenTafl(&'a str),
}

impl GameRules<'_> {
    /// The game family: an OpenTafl rules string's is tafl.
    pub fn family(self) -> Family {
        match self {
            GameRules::Variant(v) => v.family(),
            GameRules::OpenTafl(_) => Family::Tafl,
        }
    }
}

/// The fields of a game's state that are the game's (docs/serve.md, "The game state"), from
/// its `session` played by `rules`: `variant` (its name, or `null` for a rules string),
/// `rules` (the OpenTafl rules string, or `null`), `title`, `family` (`tafl`/`ataxx`), `size`,
/// `board` ([`rows_json`]), `pieces` and `setup_pieces` (`{"first": n, "second": n}`),
/// `marks`, `side_names`, `to_move` ([`side_key`]), `legal`, `targets` (each square of a
/// piece of the side to move with legal moves: `[{to, move, kind}]`), `pass` (the pass move
/// when it is legal, else `null`), `moves` (played), `last` (`{move, kind, squares}` or
/// `null`), `captures` (`[{square, piece}]`, by the last move), `result` (`null`, or
/// `{winner, reason, text}`), `fen`, `setup_fen`. A JSON object, to which a front-end adds its
/// own fields.
pub fn game_state(session: &dyn Session, rules: GameRules) -> Value {
    let s = session;
    let family = rules.family();
    let board = s.board();
    let size = board.size();
    let to_move = s.side_to_move();
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
    let last = s.last_move().map(
        |m| json!({ "move": m.to_string(), "kind": m.kind().name(), "squares": squares_json(m) }),
    );
    let captures: Vec<Value> = s
        .last_captures()
        .into_iter()
        .map(|c| json!({ "square": c.square.to_string(), "piece": c.piece.to_string() }))
        .collect();
    let result = match s.outcome() {
        Outcome::Ongoing => Value::Null,
        Outcome::Decided { winner, reason } => json!({
            "winner": winner.map(side_key),
            "reason": reason.to_string(),
            "text": family.result_text(winner, &reason.to_string()),
        }),
    };
    let (variant, rules, title) = match rules {
        GameRules::Variant(v) => (
            json!(v.name()),
            Value::Null,
            v.descriptor().title.to_string(),
        ),
        GameRules::OpenTafl(r) => (
            Value::Null,
            json!(r),
            format!("OpenTafl rules {size}×{size}"),
        ),
    };
    json!({
        "variant": variant,
        "rules": rules,
        "title": title,
        "family": if family.is_tafl() { "tafl" } else { "ataxx" },
        "size": size,
        "board": rows_json(&board),
        "pieces": count_json(&board),
        "setup_pieces": count_json(&s.setup_board()),
        "marks": marks_json(&board),
        "side_names": { "first": family.side_name(Side::First), "second": family.side_name(Side::Second) },
        "to_move": side_key(to_move),
        "legal": texts(&legal),
        "targets": targets,
        "pass": pass,
        "moves": texts(&s.moves_played()),
        "last": last,
        "captures": captures,
        "result": result,
        "fen": s.fen(),
        "setup_fen": s.setup_fen(),
    })
}

/// Every position of a game from its set-up, for stepping through its moves: `{"boards":
/// [rows…], "fens": […]}`, index 0 the set-up position, index `k` the position after the first
/// `k` moves (boards as [`rows_json`]'s). `replay` is a copy of the game (it is replayed from
/// its set-up); an error (which a game's own moves never give) says which move failed.
pub fn positions_json(mut replay: Box<dyn Session>) -> Result<Value, String> {
    let moves = replay.moves_played();
    replay
        .set_position(Some(&replay.setup_fen()), &[])
        .map_err(|e| format!("replay: {e}"))?;
    let rows = |s: &dyn Session| rows_json(&s.board());
    let mut boards = vec![rows(replay.as_ref())];
    let mut fens = vec![replay.fen()];
    for mv in moves {
        replay.play(mv).map_err(|e| format!("replay {mv}: {e}"))?;
        boards.push(rows(replay.as_ref()));
        fens.push(replay.fen());
    }
    Ok(json!({ "boards": boards, "fens": fens }))
}

/// Every variant, in [`Variant::ALL`]'s order: `[{name, title, family, size, side_names,
/// opentafl_rules}]` (`opentafl_rules` the variant's OpenTafl rules string, or `null`).
pub fn variants_json() -> Vec<Value> {
    Variant::ALL
        .iter()
        .map(|v| {
            let d = v.descriptor();
            json!({
                "name": d.name,
                "title": d.title,
                "family": if v.is_tafl() { "tafl" } else { "ataxx" },
                "size": d.size,
                "side_names": { "first": v.side_name(Side::First), "second": v.side_name(Side::Second) },
                "opentafl_rules": d.opentafl_rules,
            })
        })
        .collect()
}
