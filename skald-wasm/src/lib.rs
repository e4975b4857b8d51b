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
use skald::engine::{
    Answer, Engine, Finished, Limits, MoveView, Report, SearchRequest, Session, named_skill,
    new_tafl_session,
};
use skald::variant::Variant;
use skald::view::{self, GameRules, score_json};
use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};
use wasm_bindgen::prelude::*;

/// A game in progress with its own engine (16 MiB hash table, one thread).
pub struct WebGame {
    engine: Engine,
    /// The variant, or `None` for an OpenTafl rules string's game.
    variant: Option<Variant>,
    /// The OpenTafl rules string, if the game is played by one.
    rules: Option<String>,
}

/// Moves as text in the game's notation.
fn texts(moves: &[MoveView]) -> Vec<String> {
    moves.iter().map(MoveView::to_string).collect()
}

/// Every variant: `{"variants": [{name, title, family, size, side_names, opentafl_rules}]}`
/// ([`skald::view::variants_json`], as `skald serve`'s `GET /api/variants`).
pub fn variants_json() -> Value {
    json!({ "variants": view::variants_json() })
}

/// The search limits of a JSON object: `depth` (plies), `nodes`, `movetime` (ms), `skill`
/// (0–20) or `level` (`easy`, `medium`, `hard`), `multipv` (1–8), `seed`. With no depth, nodes
/// or time the search is bounded by depth 12 (a browser tab has no `stop` inside a search).
fn request_of(limits: &Value) -> Result<SearchRequest, String> {
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
    Ok(SearchRequest {
        limits: Limits {
            depth: if unbounded { Some(12) } else { depth },
            nodes,
            movetime,
            ..Limits::default()
        },
        multipv,
        move_overhead_ms: Some(0),
        skill_level: skill,
        seed: Some(seed),
    })
}

/// A progress report as JSON: `depth`, `seldepth`, `multipv`, `score`, `nodes`, `nps`,
/// `time_ms`, `pv`.
fn report_json(r: &Report) -> Value {
    json!({
        "depth": r.depth,
        "seldepth": r.seldepth,
        "multipv": r.multipv,
        "score": score_json(r.score),
        "nodes": r.nodes,
        "nps": r.nps,
        "time_ms": r.time_ms,
        "pv": texts(&r.pv),
    })
}

/// A search's answer as JSON: `move` (null in a decided game), `ponder`, `score`, `depth`,
/// `nodes`, `lines` (`{score, pv}`).
fn result_json(r: &Answer) -> Value {
    json!({
        "move": r.best_move.map(|m| m.to_string()),
        "ponder": r.ponder.map(|m| m.to_string()),
        "score": score_json(r.score),
        "depth": r.depth,
        "nodes": r.nodes,
        "lines": r.lines.iter().map(|(s, pv)| json!({ "score": score_json(*s), "pv": texts(pv) })).collect::<Vec<_>>(),
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
        // Without threads (as on wasm32 anyway): the search runs on the caller's thread, which
        // hears its progress as it comes.
        let mut engine = Engine::without_threads().map_err(|e| format!("no engine: {e}"))?;
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
        texts(&self.session().legal_moves())
    }

    /// Plays `mv` (the game's notation; Ataxx `0000` passes); answers the move as the game
    /// writes it, or why it cannot be played (the position is then unchanged).
    pub fn play(&mut self, mv: &str) -> Result<String, String> {
        self.engine
            .session_mut()
            .play_text(mv.trim())
            .map(|m| m.to_string())
            .map_err(|e| e.to_string())
    }

    /// Takes back the last move; `false` if none was played.
    pub fn undo(&mut self) -> bool {
        self.engine.session_mut().undo()
    }

    /// The position now, as the page draws it: the fields of `skald serve`'s game state that
    /// are the game's (docs/serve.md, "The game state"): `variant`, `rules`, `title`, `family`,
    /// `size`, `board`, `pieces`, `setup_pieces`, `marks`, `side_names`, `to_move`, `legal`,
    /// `targets` (each with its `kind`), `pass`, `moves`, `last` (with its `kind`), `captures`,
    /// `result`, `fen`, `setup_fen` ([`skald::view::game_state`], which `skald serve` uses too).
    pub fn state(&self) -> Value {
        // A game has a variant or a rules string ([`WebGame::new`]).
        let rules = match &self.rules {
            Some(r) => GameRules::OpenTafl(r),
            None => GameRules::Variant(self.naming()),
        };
        view::game_state(self.session(), rules)
    }

    /// Every position of the game from its set-up: `{"boards": [rows…], "fens": […]}`, index
    /// `k` after the first `k` moves (as `skald serve`'s `GET /api/games/{id}/positions`).
    pub fn positions(&self) -> Result<Value, String> {
        view::positions_json(self.session().boxed_clone())
    }

    /// Searches the position now within `limits` (the keys `request_of` reads), calling `progress`
    /// with each completed iteration's report as it comes (the search runs on this thread: the
    /// engine has none of its own); answers the best move and its line (the game is not
    /// changed). A fault inside the search answers a legal move with `"failed": true`.
    pub fn search(
        &mut self,
        limits: &Value,
        progress: impl FnMut(Value) + 'static,
    ) -> Result<Value, String> {
        let request = request_of(limits)?;
        PROGRESS.with(|p| *p.borrow_mut() = Some(Box::new(progress)));
        let finished = Arc::new(Mutex::new(None));
        let answer = Arc::clone(&finished);
        let started = self.engine.start(
            request,
            |r: &Report| {
                PROGRESS.with(|p| {
                    if let Some(progress) = p.borrow_mut().as_mut() {
                        progress(report_json(r));
                    }
                });
            },
            move |f| *answer.lock().unwrap_or_else(PoisonError::into_inner) = Some(f),
        );
        if let Ok(handle) = &started {
            handle.wait();
        }
        PROGRESS.with(|p| *p.borrow_mut() = None);
        let finished = finished
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        let failed = |fallback: Option<MoveView>| json!({ "move": fallback.map(|m| m.to_string()), "failed": true });
        Ok(match finished {
            Some(Finished::Done(answer)) => result_json(&answer),
            Some(Finished::GameOver(_) | Finished::Cancelled) => result_json(&Answer::game_over()),
            Some(Finished::Failed { fallback }) => failed(fallback),
            None => failed(self.session().legal_moves().into_iter().next()),
        })
    }
}

/// A search's progress callback: each report as JSON ([`report_json`]).
type Progress = Box<dyn FnMut(Value)>;

thread_local! {
    /// The progress callback of the search under way ([`WebGame::search`]): the engine's report
    /// callback must be `Send + 'static`, and it runs on this thread (an engine without threads).
    static PROGRESS: RefCell<Option<Progress>> = const { RefCell::new(None) };
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
        let progress = progress.clone();
        let report = move |v: Value| {
            let _ = progress.call1(&JsValue::NULL, &JsValue::from_str(&v.to_string()));
        };
        self.inner
            .search(&limits, report)
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
    use std::cell::Cell;
    use std::rc::Rc;

    #[test]
    fn a_brandubh_game_is_played_and_searched() {
        let mut g = WebGame::new(Some("brandubh"), None, None).unwrap();
        let s = g.state();
        assert_eq!(s["size"], 7);
        assert_eq!(s["to_move"], "first");
        assert!(s["marks"].as_array().unwrap().len() == 5, "{}", s["marks"]);
        // What the page counts captures from, and draws targets by (as `skald serve`'s).
        assert_eq!(s["pieces"], json!({ "first": 8, "second": 5 }));
        assert_eq!(s["setup_pieces"], s["pieces"]);
        let targets = s["targets"].as_object().unwrap();
        assert!(
            targets
                .values()
                .flat_map(|t| t.as_array().unwrap())
                .all(|t| t["kind"] == "slide"),
            "{targets:?}"
        );
        let first = g.legal_moves()[0].clone();
        g.play(&first).unwrap();
        assert_eq!(g.state()["moves"], json!([first]));
        assert_eq!(g.state()["last"]["kind"], "slide");
        assert!(g.play("a1-a9").is_err());
        // Each depth's report comes while the search runs (the search on this thread).
        let reports = Rc::new(Cell::new(0));
        let heard = Rc::clone(&reports);
        let r = g
            .search(&json!({ "depth": 3 }), move |_| heard.set(heard.get() + 1))
            .unwrap();
        assert!(reports.get() >= 3, "{}", reports.get());
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
        let s = g.state();
        assert_eq!(s["family"], "ataxx");
        assert_eq!(s["pieces"], json!({ "first": 2, "second": 2 }));
        let kinds: Vec<&Value> = s["targets"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|t| t.as_array().unwrap())
            .map(|t| &t["kind"])
            .collect();
        assert!(
            kinds.contains(&&json!("clone")) && kinds.contains(&&json!("jump")),
            "{kinds:?}"
        );
        let r = g
            .search(&json!({ "nodes": 2000, "level": "easy" }), |_| {})
            .unwrap();
        assert!(r["move"].is_string(), "{r}");
        assert!(WebGame::new(Some("chess"), None, None).is_err());
        assert!(WebGame::new(Some("ataxx"), None, Some("garbage")).is_err());
        assert!(g.search(&json!({ "depth": "deep" }), |_| {}).is_err());
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
