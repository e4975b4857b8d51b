//! The JSON endpoints (docs/serve.md): games created, read, moved in, undone, loaded from and
//! saved as records, and the engine's moves. Every answer about a game is its whole state
//! ([`state_json`]); every error is a 4xx (or 5xx) status with `{"error": "…"}`, and a request
//! that fails changes nothing.

use super::App;
use super::state::{
    Game, GameId, Level, Mode, Rules, id_text, lock, move_squares, parse_id, square_coords,
};
use crate::cli::records::{GameRecord, load_records_hinted};
use axum::body::Bytes;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use skald::engine::{Limits, Outcome, Score, SearchRequest, Side};
use skald::variant::Variant;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// An error answer: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status (4xx for the client's mistakes).
    pub status: StatusCode,
    /// What is wrong, in one line.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed or names something that does not exist (a variant, a
    /// move).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 404: no such game (or it was dropped to make room).
    pub fn no_game(id: &str) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!(
                "no game '{}' (games unused for long are dropped; start a new one)",
                clip(id)
            ),
        }
    }

    /// 409: the request does not fit the game's state (game over, not your turn, the
    /// computer is thinking).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: message.into(),
        }
    }

    /// 500: something failed inside.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = short_message(&self.message);
        let mut response = (self.status, axum::Json(json!({ "error": message }))).into_response();
        if self.status == StatusCode::REQUEST_TIMEOUT {
            // The rest of the body is not waited for: the connection ends.
            response.headers_mut().insert(
                header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        response
    }
}

/// Longest echo of a client's value in an error message, characters.
const ECHO_CHARS: usize = 80;
/// Longest run of characters without a space in an error message (a clipped echo in quotes
/// fits).
const RUN_CHARS: usize = ECHO_CHARS + 20;
/// Longest error message, characters.
const MESSAGE_CHARS: usize = 600;

/// A client's value for an error message: at most [`ECHO_CHARS`] characters, `…` ending a
/// longer one.
pub fn clip(value: &str) -> String {
    match value.char_indices().nth(ECHO_CHARS) {
        Some((end, _)) => format!("{}…", &value[..end]),
        None => value.to_string(),
    }
}

/// An error message as sent: every run of more than [`RUN_CHARS`] characters without a space
/// (an echoed value from a lower layer) clipped with `…`, and the whole at most
/// [`MESSAGE_CHARS`] characters (a 1.5 MB rules string gives a short error, not its echo).
fn short_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * MESSAGE_CHARS));
    let (mut run, mut chars) = (0, 0);
    for c in message.chars() {
        run = if c.is_whitespace() { 0 } else { run + 1 };
        if run > RUN_CHARS {
            if run == RUN_CHARS + 1 {
                out.push('…');
                chars += 1;
            }
            continue;
        }
        if chars == MESSAGE_CHARS {
            out.push('…');
            break;
        }
        out.push(c);
        chars += 1;
    }
    out
}

type Answer = Result<axum::Json<Value>, ApiError>;

/// A request body as the handlers take it: its bytes, or why it could not be read: too large
/// (over 2 MB: 413), or not all there within the server's read time-out (`--read-timeout`,
/// counted from the end of the headers: 408, and the connection ends).
pub struct Body(Result<Bytes, ApiError>);

impl FromRequest<Arc<App>> for Body {
    type Rejection = std::convert::Infallible;

    async fn from_request(request: Request, app: &Arc<App>) -> Result<Body, Self::Rejection> {
        let limit = app.config.read_timeout;
        let read = tokio::time::timeout(limit, Bytes::from_request(request, app)).await;
        Ok(Body(match read {
            Ok(Ok(bytes)) => Ok(bytes),
            Ok(Err(e)) => Err(ApiError {
                status: e.status(),
                message: e.body_text(),
            }),
            Err(_) => Err(ApiError {
                status: StatusCode::REQUEST_TIMEOUT,
                message: format!(
                    "the request's body did not arrive within {} s",
                    limit.as_secs_f64()
                ),
            }),
        }))
    }
}

/// The body of the endpoints that take no fields: empty, or `{}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoFields {}

/// Parses a JSON object body into `T`; an empty body is `{}`. Anything but an object (an
/// array, which serde would read as the fields in order) is refused.
pub fn body<T: serde::de::DeserializeOwned>(bytes: &Body) -> Result<T, ApiError> {
    let bytes = bytes.0.as_ref().map_err(|e| ApiError {
        status: e.status,
        message: e.message.clone(),
    })?;
    let text = match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => &b"{}"[..],
        Some(b'{') => &bytes[..],
        Some(_) => {
            return Err(ApiError::bad(
                "bad JSON body: expected a JSON object ({\"field\": value, …})",
            ));
        }
    };
    serde_json::from_slice(text).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))
}

/// The id and the game of a path's id.
pub fn game_of(app: &App, id: &str) -> Result<(GameId, Arc<Mutex<Game>>), ApiError> {
    parse_id(id)
        .and_then(|n| Some((n, app.store.get(n)?)))
        .ok_or_else(|| ApiError::no_game(id))
}

/// `first` or `second`.
fn side_key(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// A side from `first`/`second` or the game's names (`attackers`, `defenders`, `x`, `o`).
fn parse_side(variant: Variant, s: &str) -> Result<Side, ApiError> {
    let s = s.trim().to_ascii_lowercase();
    let names = [Side::First, Side::Second].map(|side| variant.side_name(side));
    if s == "first" || s == names[0] || (variant.is_tafl() && s == "attacker") {
        Ok(Side::First)
    } else if s == "second" || s == names[1] || (variant.is_tafl() && s == "defender") {
        Ok(Side::Second)
    } else {
        Err(ApiError::bad(format!(
            "unknown side '{}': expected first, second, {} or {}",
            clip(&s),
            names[0],
            names[1]
        )))
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

/// The whole state of game `id` as the page draws it (docs/serve.md, "The game state").
pub fn state_json(id: GameId, game: &Game) -> Value {
    let s = game.session.as_ref();
    let naming = game.rules.naming();
    let rows = s.board_rows();
    let size = rows.len();
    let board: Vec<Vec<Option<String>>> = rows
        .iter()
        .map(|r| r.iter().map(|c| c.map(|c| c.to_string())).collect())
        .collect();
    let to_move = s.side_to_move();
    let outcome = s.outcome();
    // Legal moves by the square they start from: tafl and Ataxx jumps name it; an Ataxx clone
    // (`f2`) may start from any own stone next to its square.
    let own = if naming.is_tafl() {
        None
    } else if to_move == Side::First {
        Some('x')
    } else {
        Some('o')
    };
    let mut targets: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut pass = None;
    let legal = s.legal_moves();
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
                        if *c == own
                            && own.is_some()
                            && tf.abs_diff(file) <= 1
                            && tr.abs_diff(rank) <= 1
                        {
                            targets
                                .entry(super::state::square_name(file, rank))
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
    let last = moves.last().map(|m| {
        let sq = move_squares(m);
        json!({ "move": m, "squares": sq })
    });
    let captures: Vec<Value> = s
        .last_captures()
        .into_iter()
        .map(|c| json!({ "square": c.square, "piece": c.piece.to_string() }))
        .collect();
    let result = match outcome {
        Outcome::Ongoing => Value::Null,
        Outcome::Decided { winner, reason } => json!({
            "winner": winner.map(side_key),
            "reason": reason.to_string(),
            "text": naming.result_text(winner, &reason.to_string()),
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
        "family": if naming.is_tafl() { "tafl" } else { "ataxx" },
        "size": size,
        "board": board,
        "marks": game.marks_now().iter().map(|(sq, kind)| json!({ "square": sq, "kind": kind })).collect::<Vec<_>>(),
        "side_names": { "first": naming.side_name(Side::First), "second": naming.side_name(Side::Second) },
        "to_move": side_key(to_move),
        "mode": mode,
        "human": human,
        "level": level,
        "engine_to_move": game.engine_to_move(),
        "thinking": game.thinking,
        "legal": legal,
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

/// `GET /api/variants`: the games, the levels and the server's bounds.
pub async fn variants(State(app): State<Arc<App>>) -> axum::Json<Value> {
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
    let levels: Vec<Value> = Level::ALL
        .iter()
        .map(|l| json!({ "name": l.name(), "time_ms": l.time_ms() }))
        .collect();
    axum::Json(json!({
        "variants": variants,
        "levels": levels,
        "analysis_ms": app.config.analysis_ms,
        "max_games": app.config.max_games,
        "rule_sets": {
            "built": skald::tafl::leaked_rule_sets(),
            "max": skald::tafl::rule_set_limit(),
        },
    }))
}

/// The body of `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// A variant name (default brandubh); not with `rules`.
    variant: Option<String>,
    /// An OpenTafl rules string; not with `variant`.
    rules: Option<String>,
    /// `computer` (default) or `hotseat`.
    mode: Option<String>,
    /// The person's side against the computer (default: the side that moves first).
    side: Option<String>,
    /// `easy`, `medium` (default) or `hard`.
    level: Option<String>,
    /// A set-up position (FEN) instead of the start position.
    fen: Option<String>,
}

/// `POST /api/games`: a new game; answers 201 with its state.
pub async fn create(State(app): State<Arc<App>>, bytes: Body) -> Result<Response, ApiError> {
    let req: NewGame = body(&bytes)?;
    let rules = match (&req.variant, &req.rules) {
        (Some(_), Some(_)) => return Err(ApiError::bad("give a variant or rules, not both")),
        (_, Some(r)) => Rules::OpenTafl(r.trim().to_string()),
        (Some(v), None) => Rules::Variant(v.parse::<Variant>().map_err(|e| ApiError::bad(e.0))?),
        (None, None) => Rules::Variant(Variant::Brandubh),
    };
    if let Rules::OpenTafl(text) = &rules {
        skald::tafl::opentafl::parse_rules(text)
            .map_err(|e| ApiError::bad(format!("rules: {e}")))?;
    }
    let mut session = rules.new_session().map_err(|e| {
        // Refused for the bound on rule sets (each stays in memory): not the request's fault.
        let full = skald::tafl::leaked_rule_sets() >= skald::tafl::rule_set_limit();
        ApiError {
            status: if full {
                StatusCode::SERVICE_UNAVAILABLE
            } else {
                StatusCode::BAD_REQUEST
            },
            message: format!("rules: {e}"),
        }
    })?;
    if let Some(fen) = &req.fen {
        session
            .set_position(Some(fen), &[])
            .map_err(|e| ApiError::bad(e.to_string()))?;
    }
    let naming = rules.naming();
    let mode = match req.mode.as_deref().map(str::trim) {
        None | Some("computer") => {
            let human = match &req.side {
                Some(s) => parse_side(naming, s)?,
                None => Side::First,
            };
            let level = match &req.level {
                Some(l) => Level::parse(l).ok_or_else(|| {
                    ApiError::bad(format!(
                        "unknown level '{}': expected easy, medium or hard",
                        clip(l)
                    ))
                })?,
                None => Level::Medium,
            };
            Mode::Computer { human, level }
        }
        Some("hotseat") => {
            if req.side.is_some() || req.level.is_some() {
                return Err(ApiError::bad("a hot-seat game has no side or level"));
            }
            Mode::Hotseat
        }
        Some(m) => {
            return Err(ApiError::bad(format!(
                "unknown mode '{}': expected computer or hotseat",
                clip(m)
            )));
        }
    };
    let game = Game::new(rules, session, mode);
    let state = {
        let id = app.store.insert(game);
        let game = app
            .store
            .get(id)
            .ok_or_else(|| ApiError::internal("game lost"))?;
        let g = lock(&game);
        state_json(id, &g)
    };
    Ok((StatusCode::CREATED, axum::Json(state)).into_response())
}

/// `GET /api/games/{id}`: the game's state.
pub async fn get(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let (n, game) = game_of(&app, &id)?;
    let g = lock(&game);
    Ok(axum::Json(state_json(n, &g)))
}

/// `DELETE /api/games/{id}`: drops the game; its searches are cancelled (an engine move under
/// way answers 404).
pub async fn delete(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Body,
) -> Result<StatusCode, ApiError> {
    let _: NoFields = body(&bytes)?;
    match parse_id(&id) {
        Some(n) if app.store.remove(n) => Ok(StatusCode::NO_CONTENT),
        _ => Err(ApiError::no_game(&id)),
    }
}

/// The body of `POST /api/games/{id}/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    /// The move in the game's notation (`d1-b1`, `f2`, `a7a5`, `0000`).
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/games/{id}/move`: the person to move plays a move.
pub async fn play(State(app): State<Arc<App>>, Path(id): Path<String>, bytes: Body) -> Answer {
    let req: PlayMove = body(&bytes)?;
    let (n, game) = game_of(&app, &id)?;
    let mut g = lock(&game);
    if let Outcome::Decided { winner, reason } = g.session.outcome() {
        return Err(ApiError::conflict(format!(
            "the game is over: {}",
            g.rules.naming().result_text(winner, &reason.to_string())
        )));
    }
    if g.thinking || g.engine_to_move() {
        return Err(ApiError::conflict("it is the computer's turn"));
    }
    let text = req.mv.trim().to_ascii_lowercase();
    g.session
        .play(&text)
        .map_err(|e| ApiError::bad(format!("'{}': {e}", clip(req.mv.trim()))))?;
    g.changed();
    Ok(axum::Json(state_json(n, &g)))
}

/// `POST /api/games/{id}/engine-move`: the engine plays the side to move (against the computer
/// on its turn; in a hot-seat game for whoever is to move), at the game's level (medium in a
/// hot-seat game). The answer is the state with `engine`: the move, its depth and score; 404 if
/// the game was deleted (or dropped) while the engine searched or waited for an engine (the
/// search is cancelled and the move not played). Easy and medium moves are searched on engines
/// of their own, so that they never wait behind hard ones; a game has one search at a time.
pub async fn engine_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Body,
) -> Answer {
    let _: NoFields = body(&bytes)?;
    let (n, game) = game_of(&app, &id)?;
    let (session, version, level, seed, handle) = {
        let mut g = lock(&game);
        if g.session.outcome().is_decided() {
            return Err(ApiError::conflict("the game is over"));
        }
        if g.thinking {
            return Err(ApiError::conflict("the computer is already thinking"));
        }
        let level = match g.mode {
            Mode::Computer { human, level } => {
                if human == g.session.side_to_move() {
                    return Err(ApiError::conflict("it is your turn, not the computer's"));
                }
                level
            }
            Mode::Hotseat => Level::Medium,
        };
        let handle = lane(&app, level).0.handle();
        g.thinking = true;
        g.search = Some(handle.clone());
        let seed = g.seed ^ g.session.moves_played().len() as u64;
        (g.session.boxed_clone(), g.version, level, seed, handle)
    };
    // `thinking` is cleared however this ends, and a client that went away cancels the search.
    let thinking = Thinking(Arc::clone(&game));
    let max_nodes = app.config.max_nodes;
    let (engines, time_ms) = lane(&app, level);
    let found = engines
        .run(&handle, time_ms, n, session, move |engine, stopper| {
            engine.set_seed(seed);
            let request = SearchRequest {
                limits: Limits {
                    movetime: Some(time_ms),
                    nodes: max_nodes,
                    ..Limits::default()
                },
                skill_level: Some(level.skill()),
                move_overhead_ms: Some(0),
                stopper: Some(stopper.clone()),
                ..SearchRequest::default()
            };
            engine.search(request, &mut |_| {})
        })
        .await;
    drop(thinking);
    // A game deleted (or dropped to make room) meanwhile stays gone.
    if !app.store.holds(n, &game) {
        return Err(ApiError::no_game(&id));
    }
    let mut g = lock(&game);
    let result = match found {
        Some(Ok(r)) => r,
        Some(Err(failed)) => match failed.fallback {
            Some(mv) => skald::engine::session::TextResult {
                best_move: Some(mv),
                ..skald::engine::session::TextResult::game_over()
            },
            None => return Err(ApiError::internal("the search failed")),
        },
        None => return Err(ApiError::internal("the search failed")),
    };
    if g.version != version {
        return Err(ApiError::conflict(
            "the game changed while the computer was thinking",
        ));
    }
    let mv = result
        .best_move
        .ok_or_else(|| ApiError::internal("the engine found no move"))?;
    let played = g
        .session
        .play(&mv)
        .map_err(|e| ApiError::internal(format!("engine move {mv}: {e}")))?;
    g.changed();
    let mut state = state_json(n, &g);
    state["engine"] = json!({
        "move": played,
        "depth": result.depth,
        "nodes": result.nodes,
        "score": score_json(result.score),
    });
    Ok(axum::Json(state))
}

/// The engines that search a move at `level` and its time, ms: hard moves on engines of their
/// own, so that easy and medium ones never wait behind them.
fn lane(app: &App, level: Level) -> (&super::state::Engines, u64) {
    match level {
        Level::Hard => (&app.deep, app.config.hard_ms.unwrap_or(level.time_ms())),
        Level::Easy | Level::Medium => (&app.quick, level.time_ms()),
    }
}

/// Clears a game's `thinking` flag when dropped, and cancels its search (which is over, or
/// whose client went away).
struct Thinking(Arc<Mutex<Game>>);

impl Drop for Thinking {
    fn drop(&mut self) {
        let mut g = lock(&self.0);
        g.thinking = false;
        if let Some(search) = g.search.take() {
            search.cancel();
        }
    }
}

/// `POST /api/games/{id}/undo`: takes back the last move; against the computer, the person's
/// last move and the computer's reply (so that it is the person's turn again). Against the
/// computer a move of the person's is needed (409 when only the computer has moved).
pub async fn undo(State(app): State<Arc<App>>, Path(id): Path<String>, bytes: Body) -> Answer {
    let _: NoFields = body(&bytes)?;
    let (n, game) = game_of(&app, &id)?;
    let mut g = lock(&game);
    if g.thinking {
        return Err(ApiError::conflict(
            "the computer is thinking; undo after its move",
        ));
    }
    if !g.can_undo() || !g.session.undo() {
        return Err(ApiError::conflict(if g.session.moves_played().is_empty() {
            "there is no move to take back"
        } else {
            "there is no move of yours to take back"
        }));
    }
    if let Mode::Computer { human, .. } = g.mode
        && g.session.side_to_move() != human
    {
        g.session.undo();
    }
    g.changed();
    Ok(axum::Json(state_json(n, &g)))
}

/// The body of `POST /api/games/{id}/load`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Load {
    /// The record's text: PGN or an OpenTafl game record.
    record: String,
    /// Which game of the record, from 1 (default 1).
    game: Option<usize>,
    /// The variant of a PGN game without a `Variant` tag (default: the game's variant; ataxx
    /// in a game of an OpenTafl rules string, as the Ataxx tools write no such tag).
    variant: Option<String>,
}

/// `POST /api/games/{id}/load`: the game goes on from a record (its rules, set-up position and
/// moves); the mode stays.
pub async fn load(State(app): State<Arc<App>>, Path(id): Path<String>, bytes: Body) -> Answer {
    let req: Load = body(&bytes)?;
    let (n, game) = game_of(&app, &id)?;
    let (untagged, hint) = match &req.variant {
        Some(v) => (
            v.parse::<Variant>().map_err(|e| ApiError::bad(e.0))?,
            "give the record's variant as \"variant\"",
        ),
        None => match lock(&game).rules {
            Rules::Variant(v) => (v, "load it into a game of its variant"),
            Rules::OpenTafl(_) => (Variant::Ataxx, "load it into a game of its variant"),
        },
    };
    let mut games = load_records_hinted(&req.record, untagged, hint)
        .map_err(|e| ApiError::bad(format!("record: {e}")))?;
    let count = games.len();
    let index = req.game.unwrap_or(1);
    if index == 0 || index > count {
        return Err(ApiError::bad(format!(
            "no game {index} in the record (it has {count})"
        )));
    }
    let loaded = games.swap_remove(index - 1);
    let rules = match loaded.variant {
        Some(v) => Rules::Variant(v),
        None => Rules::OpenTafl(
            loaded
                .tag("rules")
                .ok_or_else(|| ApiError::bad("record: rules other than skald's, but no rules tag"))?
                .to_string(),
        ),
    };
    let mut g = lock(&game);
    if g.thinking {
        return Err(ApiError::conflict(
            "the computer is thinking; load after its move",
        ));
    }
    let mode = g.mode;
    let mut next = Game::new(rules, loaded.session, mode);
    next.version = g.version;
    next.seed = g.seed;
    g.stop_analysis();
    *g = next;
    g.changed();
    Ok(axum::Json(state_json(n, &g)))
}

/// `GET /api/games/{id}/record?format=pgn|otg`: the game as a record file (PGN by default;
/// `.otg` for tafl games).
pub async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let (n, game) = game_of(&app, &id)?;
    let format = query.get("format").map_or("pgn", String::as_str);
    let g = lock(&game);
    let s = g.session.as_ref();
    let naming = g.rules.naming();
    let name = |side: Side| match g.mode {
        Mode::Hotseat => format!("player {}", side.index() + 1),
        Mode::Computer { human, .. } if human == side => "you".to_string(),
        Mode::Computer { level, .. } => format!("skald ({})", level.name()),
    };
    let (result, termination) = match s.outcome() {
        Outcome::Decided { winner, reason } => (Some(winner), Some(reason.to_string())),
        Outcome::Ongoing => (None, None),
    };
    let (rules, start_fen) = match &g.rules {
        Rules::Variant(v) => (None, v.start_fen().to_string()),
        Rules::OpenTafl(r) => (Some(r.clone()), s.setup_fen()),
    };
    let record = GameRecord {
        variant: naming,
        event: "skald serve".into(),
        round: None,
        first: name(Side::First),
        second: name(Side::Second),
        setup_fen: s.setup_fen(),
        start_fen,
        moves: s.moves_played(),
        result,
        termination,
        rules,
    };
    let (text, ext) = match format {
        "pgn" => (record.to_pgn(), "pgn"),
        "otg" => (record.to_otg().map_err(ApiError::bad)?, "otg"),
        f => {
            return Err(ApiError::bad(format!(
                "unknown record format '{}': expected pgn or otg",
                clip(f)
            )));
        }
    };
    let file = format!(
        "skald-{}-{}.{ext}",
        match &g.rules {
            Rules::Variant(v) => v.name(),
            Rules::OpenTafl(_) => "opentafl",
        },
        &id_text(n)[..8]
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        text,
    )
        .into_response())
}
