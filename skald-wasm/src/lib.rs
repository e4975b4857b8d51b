//! skald compiled to WebAssembly (`wasm32-unknown-unknown`, wasm-bindgen): a game of any
//! variant (or an OpenTafl rules string) with its legal moves, moves played and taken back, and
//! the engine's search with limits and a progress callback, single-threaded, with the built-in
//! evaluations (Ataxx's embedded network). `web/skald.js` runs it in a Web Worker and is the
//! JavaScript API for other pages; `web/local.js` answers the browser page's requests with it
//! when there is no server (docs/web.md, `scripts/build-web`).
//!
//! [`WebGame`] is the API in Rust (JSON values in and out, tested natively by `cargo test -p
//! skald-wasm`); [`Game`] and the free functions are its wasm-bindgen face, JSON as text.
#![deny(missing_docs)]

use serde_json::{Value, json};
use skald::engine::session::{Session, TextReport, TextResult};
use skald::engine::{Engine, SearchRequest, Side, named_skill, new_tafl_session};
use skald::game::Outcome;
use skald::search::{Limits, Score};
use skald::variant::Variant;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// A game in progress with its own engine (16 MiB hash table, one thread).
pub struct WebGame {
    engine: Engine,
    /// The variant, or `None` for an OpenTafl rules string's game.
    variant: Option<Variant>,
    /// The OpenTafl rules string, if the game is played by one.
    rules: Option<String>,
    /// The marked squares of the board (throne, corners), from the start position.
    marks: Vec<(String, &'static str)>,
}

/// `first` or `second`.
fn side_key(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// A score as JSON: `{"cp": 35}` or `{"mate": -3}` (the side to move's view).
fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// The name of a square: file letter and rank from 1 (`d4`).
fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// (file, rank) of a square name, from 0.
fn square_coords(name: &str) -> Option<(usize, usize)> {
    let mut chars = name.chars();
    let file = chars.next().filter(char::is_ascii_lowercase)? as usize - 'a' as usize;
    let rank: usize = chars.as_str().parse().ok()?;
    Some((file, rank.checked_sub(1)?))
}

/// The squares named in a move text (`d1-b1` → d1, b1; `f2` → f2; `0000` → none).
fn move_squares(mv: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = mv.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 1 {
                out.push(mv[i..j].to_string());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The marked squares of a tafl board at its start position (as `skald serve`'s: the throne
/// and the empty marked squares of the game's diagram, the corners).
fn marks_of(start: &dyn Session, tafl: bool) -> Vec<(String, &'static str)> {
    if !tafl {
        return Vec::new();
    }
    let size = start.board_rows().len();
    let centre = square_name(size / 2, size / 2);
    let mut out = vec![(centre.clone(), "throne")];
    for line in start.board().lines() {
        let mut words = line.split_whitespace();
        let Some(Ok(rank)) = words.next().map(str::parse::<usize>) else {
            continue;
        };
        for (file, w) in words.enumerate() {
            if w == "+" && rank >= 1 {
                let name = square_name(file, rank - 1);
                if name != centre {
                    out.push((name, "corner"));
                }
            }
        }
    }
    out
}

/// Every variant: `name`, `title`, `family`, `size`, `side_names`, `opentafl_rules` (as `skald
/// serve`'s `GET /api/variants`).
pub fn variants_json() -> Value {
    let variants: Vec<Value> = Variant::ALL
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
        .collect();
    json!({ "variants": variants })
}

/// The search limits of a JSON object: `depth` (plies), `nodes`, `movetime` (ms), `skill`
/// (0–20) or `level` (`easy`, `medium`, `hard`), `multipv` (1–8), `seed`. With no depth, nodes
/// or time the search is bounded by depth 12 (a browser tab has no `stop` inside a search).
fn request_of(limits: &Value) -> Result<(SearchRequest, u64), String> {
    let num = |key: &str| -> Result<Option<u64>, String> {
        match limits.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .filter(|n| *n >= 0.0 && n.is_finite())
                .map(|n| Some(n as u64))
                .ok_or_else(|| format!("limit '{key}': expected a number at least 0, got {v}")),
        }
    };
    if !limits.is_object() && !limits.is_null() {
        return Err("limits: expected a JSON object".into());
    }
    let depth = num("depth")?.map(|d| d.clamp(1, 100) as u32);
    let nodes = num("nodes")?;
    let movetime = num("movetime")?;
    let unbounded = depth.is_none() && nodes.is_none() && movetime.is_none();
    let skill = match (num("skill")?, limits.get("level").and_then(Value::as_str)) {
        (Some(s), _) => Some(s.min(20) as u8),
        (None, Some(name)) => Some(
            named_skill(name)
                .ok_or_else(|| format!("unknown level '{name}': easy, medium or hard"))?,
        ),
        (None, None) => None,
    };
    let multipv = num("multipv")?.map(|n| n.clamp(1, 8) as usize);
    let seed = num("seed")?.unwrap_or(0);
    Ok((
        SearchRequest {
            limits: Limits {
                depth: if unbounded { Some(12) } else { depth },
                nodes,
                movetime,
                ..Limits::default()
            },
            multipv,
            move_overhead_ms: Some(0),
            skill_level: skill,
            stopper: None,
        },
        seed,
    ))
}

/// A progress report as JSON: `depth`, `seldepth`, `multipv`, `score`, `nodes`, `nps`,
/// `time_ms`, `pv`.
fn report_json(r: &TextReport) -> Value {
    json!({
        "depth": r.depth,
        "seldepth": r.seldepth,
        "multipv": r.multipv,
        "score": score_json(r.score),
        "nodes": r.nodes,
        "nps": r.nps,
        "time_ms": r.time_ms,
        "pv": r.pv,
    })
}

/// A search's answer as JSON: `move` (null in a decided game), `ponder`, `score`, `depth`,
/// `nodes`, `lines` (`{score, pv}`).
fn result_json(r: &TextResult) -> Value {
    json!({
        "move": r.best_move,
        "ponder": r.ponder,
        "score": score_json(r.score),
        "depth": r.depth,
        "nodes": r.nodes,
        "lines": r.lines.iter().map(|(s, pv)| json!({ "score": score_json(*s), "pv": pv })).collect::<Vec<_>>(),
    })
}

impl WebGame {
    /// A new game: of `variant` (a name as the protocols take it: `brandubh`, `ataxx`, …) or
    /// of an OpenTafl `rules` string (one of the two), at `fen` or the start position. Errors
    /// say what is wrong (an unknown variant, a bad rules string or FEN).
    pub fn new(
        variant: Option<&str>,
        rules: Option<&str>,
        fen: Option<&str>,
    ) -> Result<WebGame, String> {
        let mut engine = Engine::new().map_err(|e| format!("no engine: {e}"))?;
        let (variant, rules) = match (variant, rules) {
            (Some(_), Some(_)) => return Err("a variant or rules, not both".into()),
            (_, Some(text)) => {
                let options = skald::tafl::opentafl::parse_rules(text)?;
                engine.set_session(new_tafl_session(options)?);
                (None, Some(text.to_string()))
            }
            (v, None) => {
                let v: Variant = v
                    .unwrap_or("brandubh")
                    .parse()
                    .map_err(|e| format!("unknown variant: {e}"))?;
                engine.set_variant(v);
                (Some(v), None)
            }
        };
        let tafl = variant.is_none_or(Variant::is_tafl);
        let marks = marks_of(engine.session(), tafl);
        if let Some(fen) = fen.map(str::trim).filter(|f| !f.is_empty()) {
            engine
                .session_mut()
                .set_position(Some(fen), &[])
                .map_err(|e| e.to_string())?;
        }
        Ok(WebGame {
            engine,
            variant,
            rules,
            marks,
        })
    }

    /// The variant whose names the game uses (an OpenTafl game is tafl: Brandubh's names).
    fn naming(&self) -> Variant {
        self.variant.unwrap_or(Variant::Brandubh)
    }

    /// The game's session (position, moves played).
    pub fn session(&self) -> &dyn Session {
        self.engine.session()
    }

    /// The legal moves in the game's notation (none once the game is over).
    pub fn legal_moves(&self) -> Vec<String> {
        if self.session().outcome().is_decided() {
            return Vec::new();
        }
        self.session().legal_moves()
    }

    /// Plays `mv` (the game's notation; Ataxx `0000` passes); answers the move as the game
    /// writes it, or why it cannot be played (the position is then unchanged).
    pub fn play(&mut self, mv: &str) -> Result<String, String> {
        self.engine
            .session_mut()
            .play(mv.trim())
            .map_err(|e| e.to_string())
    }

    /// Takes back the last move; `false` if none was played.
    pub fn undo(&mut self) -> bool {
        self.engine.session_mut().undo()
    }

    /// The position now, as the page draws it: the fields of `skald serve`'s game state that
    /// are the game's (docs/serve.md, "The game state"): `variant`, `rules`, `title`, `family`,
    /// `size`, `board`, `marks`, `side_names`, `to_move`, `legal`, `targets`, `pass`, `moves`,
    /// `last`, `captures`, `result`, `fen`, `setup_fen`.
    pub fn state(&self) -> Value {
        let s = self.session();
        let naming = self.naming();
        let rows = s.board_rows();
        let size = rows.len();
        let board: Vec<Vec<Option<String>>> = rows
            .iter()
            .map(|r| r.iter().map(|c| c.map(|c| c.to_string())).collect())
            .collect();
        let to_move = s.side_to_move();
        let own = if naming.is_tafl() {
            None
        } else if to_move == Side::First {
            Some('x')
        } else {
            Some('o')
        };
        let mut targets: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut pass = None;
        let legal = self.legal_moves();
        for mv in &legal {
            let squares = move_squares(mv);
            match squares.as_slice() {
                [from, to] => targets
                    .entry(from.clone())
                    .or_default()
                    .push(json!({ "to": to, "move": mv })),
                [to] => {
                    let Some((tf, tr)) = square_coords(to) else {
                        continue;
                    };
                    for (i, row) in rows.iter().enumerate() {
                        let rank = size - 1 - i;
                        for (file, c) in row.iter().enumerate() {
                            if own.is_some()
                                && *c == own
                                && tf.abs_diff(file) <= 1
                                && tr.abs_diff(rank) <= 1
                            {
                                targets
                                    .entry(square_name(file, rank))
                                    .or_default()
                                    .push(json!({ "to": to, "move": mv }));
                            }
                        }
                    }
                }
                _ => pass = Some(mv.clone()),
            }
        }
        let moves = s.moves_played();
        let last = moves
            .last()
            .map(|m| json!({ "move": m, "squares": move_squares(m) }));
        let captures: Vec<Value> = s
            .last_captures()
            .into_iter()
            .map(|c| json!({ "square": c.square, "piece": c.piece.to_string() }))
            .collect();
        let result = match s.outcome() {
            Outcome::Ongoing => Value::Null,
            Outcome::Decided { winner, reason } => json!({
                "winner": winner.map(side_key),
                "reason": reason.to_string(),
                "text": naming.result_text(winner, &reason.to_string()),
            }),
        };
        let title = match self.variant {
            Some(v) => v.descriptor().title.to_string(),
            None => format!("OpenTafl rules {size}×{size}"),
        };
        json!({
            "variant": self.variant.map(Variant::name),
            "rules": self.rules,
            "title": title,
            "family": if naming.is_tafl() { "tafl" } else { "ataxx" },
            "size": size,
            "board": board,
            "marks": self.marks.iter().map(|(sq, kind)| json!({ "square": sq, "kind": kind })).collect::<Vec<_>>(),
            "side_names": { "first": naming.side_name(Side::First), "second": naming.side_name(Side::Second) },
            "to_move": side_key(to_move),
            "legal": legal,
            "targets": targets,
            "pass": pass,
            "moves": moves,
            "last": last,
            "captures": captures,
            "result": result,
            "fen": s.fen(),
            "setup_fen": s.setup_fen(),
        })
    }

    /// Every position of the game from its set-up: `{"boards": [rows…], "fens": […]}`, index
    /// `k` after the first `k` moves (as `skald serve`'s `GET /api/games/{id}/positions`).
    pub fn positions(&self) -> Result<Value, String> {
        let s = self.session();
        let mut replay = s.boxed_clone();
        replay
            .set_position(Some(&s.setup_fen()), &[])
            .map_err(|e| e.to_string())?;
        let rows = |s: &dyn Session| -> Vec<Vec<Option<String>>> {
            s.board_rows()
                .iter()
                .map(|r| r.iter().map(|c| c.map(|c| c.to_string())).collect())
                .collect()
        };
        let mut boards = vec![rows(replay.as_ref())];
        let mut fens = vec![replay.fen()];
        for mv in s.moves_played() {
            replay.play(&mv).map_err(|e| e.to_string())?;
            boards.push(rows(replay.as_ref()));
            fens.push(replay.fen());
        }
        Ok(json!({ "boards": boards, "fens": fens }))
    }

    /// Searches the position now within `limits` ([`request_of`]'s keys), calling `progress`
    /// with each completed iteration's report; answers the best move and its line (the game is
    /// not changed). A fault inside the search answers a legal move with `"failed": true`.
    pub fn search(
        &mut self,
        limits: &Value,
        progress: &mut dyn FnMut(Value),
    ) -> Result<Value, String> {
        let (request, seed) = request_of(limits)?;
        self.engine.set_seed(seed);
        match self
            .engine
            .search(request, &mut |r: &TextReport| progress(report_json(r)))
        {
            Ok(r) => Ok(result_json(&r)),
            Err(failed) => Ok(json!({ "move": failed.fallback, "failed": true })),
        }
    }
}

/// skald's `bench` (the same positions and depth as `skald bench`, one thread): `nodes` (the
/// signature), `time_ms`, `nps`.
pub fn bench_json(depth: u32) -> Result<Value, String> {
    let r = skald::bench::run(depth, 1, |_, _, _| {}).map_err(|e| e.to_string())?;
    Ok(json!({ "depth": depth, "nodes": r.nodes, "time_ms": r.time_ms, "nps": r.nps() }))
}

// ------------------------------------------------------------------ the wasm-bindgen face

fn js_error(e: String) -> JsError {
    JsError::new(&e)
}

/// A game for JavaScript: every value in or out is JSON text (`WebGame`'s values).
#[wasm_bindgen]
pub struct Game {
    inner: WebGame,
}

#[wasm_bindgen]
impl Game {
    /// `new Game('{"variant": "brandubh", "fen": null}')` or `'{"rules": "dim:7 …"}'`: throws
    /// an Error saying what is wrong.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str) -> Result<Game, JsError> {
        let spec: Value = serde_json::from_str(if spec.trim().is_empty() { "{}" } else { spec })
            .map_err(|e| JsError::new(&format!("game spec: {e}")))?;
        let text = |key: &str| spec.get(key).and_then(Value::as_str);
        WebGame::new(text("variant"), text("rules"), text("fen"))
            .map(|inner| Game { inner })
            .map_err(js_error)
    }

    /// The state as JSON text ([`WebGame::state`]).
    pub fn state(&self) -> String {
        self.inner.state().to_string()
    }

    /// The legal moves as a JSON array.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> String {
        json!(self.inner.legal_moves()).to_string()
    }

    /// Plays a move; answers it as written, or throws why it is illegal.
    pub fn play(&mut self, mv: &str) -> Result<String, JsError> {
        self.inner.play(mv).map_err(js_error)
    }

    /// Takes back the last move; `false` if there was none.
    pub fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    /// The FEN of the position now.
    pub fn fen(&self) -> String {
        self.inner.session().fen()
    }

    /// The game's positions as JSON ([`WebGame::positions`]).
    pub fn positions(&self) -> Result<String, JsError> {
        self.inner
            .positions()
            .map(|v| v.to_string())
            .map_err(js_error)
    }

    /// Searches within `limits` (JSON text), calling `progress(report_json_text)` after each
    /// iteration; answers the result as JSON text.
    pub fn search(&mut self, limits: &str, progress: &js_sys::Function) -> Result<String, JsError> {
        let limits: Value = serde_json::from_str(if limits.trim().is_empty() {
            "{}"
        } else {
            limits
        })
        .map_err(|e| JsError::new(&format!("limits: {e}")))?;
        let this = JsValue::NULL;
        let mut report = |v: Value| {
            let _ = progress.call1(&this, &JsValue::from_str(&v.to_string()));
        };
        self.inner
            .search(&limits, &mut report)
            .map(|v| v.to_string())
            .map_err(js_error)
    }
}

/// The variants as JSON text ([`variants_json`]).
#[wasm_bindgen]
pub fn variants() -> String {
    variants_json().to_string()
}

/// skald's bench at `depth` as JSON text ([`bench_json`]).
#[wasm_bindgen]
pub fn bench(depth: u32) -> Result<String, JsError> {
    bench_json(depth).map(|v| v.to_string()).map_err(js_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brandubh_game_is_played_and_searched() {
        let mut g = WebGame::new(Some("brandubh"), None, None).unwrap();
        let s = g.state();
        assert_eq!(s["size"], 7);
        assert_eq!(s["to_move"], "first");
        assert!(s["marks"].as_array().unwrap().len() == 5, "{}", s["marks"]);
        let first = g.legal_moves()[0].clone();
        g.play(&first).unwrap();
        assert_eq!(g.state()["moves"], json!([first]));
        assert!(g.play("a1-a9").is_err());
        let mut reports = 0;
        let r = g
            .search(&json!({ "depth": 3 }), &mut |_| reports += 1)
            .unwrap();
        assert!(reports >= 3, "{reports}");
        assert!(
            g.legal_moves()
                .contains(&r["move"].as_str().unwrap().to_string())
        );
        assert_eq!(
            g.positions().unwrap()["boards"].as_array().unwrap().len(),
            2
        );
        assert!(g.undo());
        assert_eq!(g.state()["moves"], json!([]));
    }

    #[test]
    fn ataxx_from_a_fen_with_a_level() {
        let mut g = WebGame::new(Some("ataxx"), None, Some("x5o/7/7/7/7/7/o5x x 0 1")).unwrap();
        assert_eq!(g.state()["family"], "ataxx");
        let r = g
            .search(&json!({ "nodes": 2000, "level": "easy" }), &mut |_| {})
            .unwrap();
        assert!(r["move"].is_string(), "{r}");
        assert!(WebGame::new(Some("chess"), None, None).is_err());
        assert!(WebGame::new(Some("ataxx"), None, Some("garbage")).is_err());
        assert!(g.search(&json!({ "depth": "deep" }), &mut |_| {}).is_err());
    }

    #[test]
    fn an_opentafl_rules_game() {
        let g = WebGame::new(
            None,
            Some("dim:7 name:brandubh ks:c cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"),
            None,
        )
        .unwrap();
        let s = g.state();
        assert_eq!(s["variant"], Value::Null);
        assert_eq!(s["family"], "tafl");
        assert!(!g.legal_moves().is_empty());
    }
}
