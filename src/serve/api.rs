//! The JSON endpoints (docs/serve.md): games created, read, moved in, undone, loaded from and
//! saved as records, and the engine's moves. Every answer about a game is its whole state
//! ([`state_json`]); every error is a 4xx (or 5xx) status with `{"error": "…"}`, and a request
//! that fails changes nothing.

use super::App;
use super::ids::{GameId, id_text, lock, parse_id};
use super::state::{Game, Level, Mode, Rules};
use super::view::state_json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use skald::engine::{Finished, Limits, Outcome, SearchRequest, Side};
use skald::records::{GameRecord, load_records_hinted};
use skald::variant::{Family, Variant};
use skald::view::score_json;
use std::collections::HashMap;
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

/// A side from `first`/`second` or the game's names (`attackers`, `defenders`, `x`, `o`).
fn parse_side(family: Family, s: &str) -> Result<Side, ApiError> {
    let s = s.trim().to_ascii_lowercase();
    let names = [Side::First, Side::Second].map(|side| family.side_name(side));
    if s == "first" || s == names[0] || (family.is_tafl() && s == "attacker") {
        Ok(Side::First)
    } else if s == "second" || s == names[1] || (family.is_tafl() && s == "defender") {
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

/// `GET /api/variants`: the games, the levels and the server's bounds.
pub async fn variants(State(app): State<Arc<App>>) -> axum::Json<Value> {
    let levels: Vec<Value> = Level::ALL
        .iter()
        .map(|l| json!({ "name": l.name(), "time_ms": l.time_ms() }))
        .collect();
    axum::Json(json!({
        "variants": skald::view::variants_json(),
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
    let mode = match req.mode.as_deref().map(str::trim) {
        None | Some("computer") => {
            let human = match &req.side {
                Some(s) => parse_side(rules.family(), s)?,
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

/// `GET /api/games/{id}/positions`: every position of the game from its set-up, for stepping
/// through the moves: `{"boards": [rows…], "fens": […]}`, index 0 the set-up position, index
/// `k` the position after the first `k` moves (rows as in the state's `board`).
pub async fn positions(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let (_, game) = game_of(&app, &id)?;
    let replay = lock(&game).session.boxed_clone();
    skald::view::positions_json(replay)
        .map(axum::Json)
        .map_err(ApiError::internal)
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
            g.rules.family().result_text(winner, &reason.to_string())
        )));
    }
    if g.thinking || g.engine_to_move() {
        return Err(ApiError::conflict("it is the computer's turn"));
    }
    let text = req.mv.trim().to_ascii_lowercase();
    g.session
        .play_text(&text)
        .map_err(|e| ApiError::bad(format!("'{}': {e}", clip(req.mv.trim()))))?;
    g.changed();
    Ok(axum::Json(state_json(n, &g)))
}

/// The body of `POST /api/games/{id}/engine-move`: optionally `{"time_ms": N}`, a shorter
/// think than the level's (a page's clock).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineMove {
    /// The longest think, ms (at most the level's time).
    time_ms: Option<u64>,
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
    let asked: EngineMove = body(&bytes)?;
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
        let ticket = lane(&app, level).0.ticket();
        g.thinking = true;
        g.search = Some(ticket.clone());
        let seed = g.seed ^ g.session.moves_played().len() as u64;
        (g.session.boxed_clone(), g.version, level, seed, ticket)
    };
    // `thinking` is cleared however this ends, and a client that went away cancels the search.
    let thinking = Thinking(Arc::clone(&game));
    let max_nodes = app.config.max_nodes;
    let (engines, level_ms) = lane(&app, level);
    let time_ms = asked.time_ms.map_or(level_ms, |t| t.clamp(1, level_ms));
    let request = SearchRequest {
        limits: Limits {
            movetime: Some(time_ms),
            nodes: max_nodes,
            ..Limits::default()
        },
        skill_level: Some(level.skill()),
        seed: Some(seed),
        move_overhead_ms: Some(0),
        ..SearchRequest::default()
    };
    let found = engines
        .run(&handle, time_ms, n, session, request, |_| {})
        .await;
    drop(thinking);
    // A game deleted (or dropped to make room) meanwhile stays gone.
    if !app.store.holds(n, &game) {
        return Err(ApiError::no_game(&id));
    }
    let mut g = lock(&game);
    let result = match found {
        Some(Finished::Done(r)) => r,
        Some(Finished::Failed { fallback: Some(mv) }) => skald::engine::Answer {
            best_move: Some(mv),
            ..skald::engine::Answer::game_over()
        },
        _ => return Err(ApiError::internal("the search failed")),
    };
    if g.version != version {
        return Err(ApiError::conflict(
            "the game changed while the computer was thinking",
        ));
    }
    let mv = result
        .best_move
        .ok_or_else(|| ApiError::internal("the engine found no move"))?;
    g.session
        .play(mv)
        .map_err(|e| ApiError::internal(format!("engine move {mv}: {e}")))?;
    g.changed();
    let mut state = state_json(n, &g);
    state["engine"] = json!({
        "move": mv.to_string(),
        "depth": result.depth,
        "nodes": result.nodes,
        "score": score_json(result.score),
    });
    Ok(axum::Json(state))
}

/// The engines that search a move at `level` and its time, ms: hard moves on engines of their
/// own, so that easy and medium ones never wait behind them.
fn lane(app: &App, level: Level) -> (&super::engines::Engines, u64) {
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
    let naming = g.rules.record_variant();
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
