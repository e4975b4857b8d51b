//! Analysis by server-sent events: `GET /api/games/{id}/analysis?multipv=N` searches the
//! game's position (full strength, at most [`super::state::Config::analysis_ms`]) and sends an
//! `info` event per completed depth and line, then `done`. One analysis per game: a new one,
//! a move, an undo, `POST …/analysis/stop` or the game's end (deleted, dropped) stops the old
//! (or takes it out of the queue for an engine); a closed page stops it too.

use super::App;
use super::api::{ApiError, Body, clip, game_of};
use super::ids::lock;
use super::view::first_view;
use axum::extract::{Path, Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use serde_json::{Value, json};
use skald::engine::{Finished, Limits, MoveView, SearchRequest};
use skald::view::{score_json, squares_json};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

/// Most lines (MultiPV) an analysis shows.
pub const MAX_MULTIPV: usize = 8;

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// `GET /api/games/{id}/analysis?multipv=N` (1 ..= [`MAX_MULTIPV`], default 3): the analysis
/// as a stream of server-sent events (docs/serve.md).
pub async fn analysis(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let multipv = match query.get("multipv") {
        None => 3,
        Some(t) => match t.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_MULTIPV).contains(&n) => n,
            _ => {
                return Err(ApiError::bad(format!(
                    "multipv must be a whole number from 1 to {MAX_MULTIPV}, got '{}'",
                    clip(t)
                )));
            }
        },
    };
    let (n, game) = game_of(&app, &id)?;
    let handle = app.analysts.ticket();
    let (session, version) = {
        let mut g = lock(&game);
        g.stop_analysis();
        g.analysis = Some(handle.clone());
        (g.session.boxed_clone(), g.version)
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let to_move = session.side_to_move();
    if session.outcome().is_decided() {
        let _ = tx.send(event(
            "done",
            &json!({ "version": version, "over": true, "depth": 0, "stopped": false }),
        ));
    } else {
        let app = Arc::clone(&app);
        tokio::spawn(async move {
            if app.analysts.all_busy() {
                let _ = tx.send(event("waiting", &json!({ "version": version })));
            }
            let report_tx = tx.clone();
            let (analysis_ms, max_nodes) = (app.config.analysis_ms, app.config.max_nodes);
            let request = SearchRequest {
                limits: Limits {
                    movetime: Some(analysis_ms),
                    nodes: max_nodes,
                    ..Limits::default()
                },
                multipv: Some(multipv),
                ..SearchRequest::default()
            };
            let ticket = handle.clone();
            let mut started = false;
            let report = move |r: &skald::engine::Report| {
                if !std::mem::replace(&mut started, true) {
                    let _ = report_tx.send(event("started", &json!({ "version": version })));
                }
                // The squares of each move, for arrows: from and to (an Ataxx clone names its
                // square only).
                let squares: Vec<Vec<String>> = r.pv.iter().map(|&m| squares_json(m)).collect();
                let pv: Vec<String> = r.pv.iter().map(MoveView::to_string).collect();
                let info = json!({
                    "version": version,
                    "depth": r.depth,
                    "seldepth": r.seldepth,
                    "multipv": r.multipv,
                    "score": score_json(r.score),
                    "first_cp": first_view(r.score, to_move),
                    "nodes": r.nodes,
                    "nps": r.nps,
                    "time_ms": r.time_ms,
                    "pv": pv,
                    "pv_squares": squares,
                });
                if report_tx.send(event("info", &info)).is_err() {
                    ticket.cancel();
                }
            };
            let search = app
                .analysts
                .run(&handle, analysis_ms, n, session, request, report);
            // A page that goes away cancels the analysis, waiting or running.
            let result = tokio::select! {
                r = search => match r {
                    Some(Finished::Done(answer)) => Some(answer),
                    _ => None,
                },
                () = tx.closed() => {
                    handle.cancel();
                    return;
                }
            };
            let done = match result {
                Some(r) => json!({
                    "version": version,
                    "over": false,
                    "best": r.best_move.map(|m| m.to_string()),
                    "depth": r.depth,
                    "nodes": r.nodes,
                    "score": score_json(r.score),
                    "first_cp": first_view(r.score, to_move),
                    "stopped": handle.is_cancelled(),
                }),
                None => json!({ "version": version, "over": false, "depth": 0, "stopped": true }),
            };
            let _ = tx.send(event("done", &done));
        });
    }
    let stream = UnboundedReceiverStream::new(rx).map(Ok::<_, Infallible>);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// `POST /api/games/{id}/analysis/stop` (an empty body or `{}`): stops the game's analysis;
/// `{"stopped": true}` if one ran.
pub async fn stop(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Body,
) -> Result<axum::Json<Value>, ApiError> {
    let _: super::api::NoFields = super::api::body(&bytes)?;
    let (_, game) = game_of(&app, &id)?;
    let mut g = lock(&game);
    let running = g.analysis.is_some();
    g.stop_analysis();
    Ok(axum::Json(json!({ "stopped": running })))
}
