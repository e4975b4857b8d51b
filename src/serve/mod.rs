//! `skald serve`: play and analyse in the browser. A local HTTP server (axum on tokio) serving
//! one page (`assets/`, embedded in the binary) and a JSON API over the engine layer
//! (docs/serve.md). Like the protocols it is a thin front-end: every game is an engine
//! [`skald::engine::session::Session`] on the server, and legality, captures, game end and
//! records come from the engine and `cli::records`; the page only draws and sends clicks.
//!
//! - [`state`]: the games (bounded, least recently used dropped, under random ids) and the
//!   engines that search (bounded: quick engine moves, long ones and analyses each on their own
//!   few engines; a search of a game that goes away is cancelled);
//! - [`api`]: the JSON endpoints;
//! - [`analysis`]: live analysis by server-sent events;
//! - [`guard`]: what keeps other web pages and slow clients out (the `Host` and `Origin`
//!   checks, the security headers, the time-outs and the connection cap).

mod analysis;
mod api;
mod guard;
mod state;

use anyhow::{Context, Result};
use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use clap::builder::TypedValueParser as _;
use state::{Config, Engines, Store};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The port `skald serve` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8080;

/// Arguments of `skald serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT, allow_negative_numbers = true,
          value_parser = crate::cli::Whole::new(0, 65_535, "").map(|v| v as u16))]
    pub port: u16,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// The address to listen on. The default, 127.0.0.1, lets only this computer in; another
    /// address (0.0.0.0: every network) lets in anyone who can reach it, with no password:
    /// a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Also answer requests for this host name (the `Host` header; `name` or `name:port`;
    /// repeatable). By default only 127.0.0.1, localhost, [::1] and the --bind address are
    /// answered (with --bind 0.0.0.0 or ::, any IP address), so that a web page cannot reach
    /// the server under a name of its own (DNS rebinding); others get 421.
    #[arg(long, value_name = "HOST", value_parser = guard::parse_allowed_host)]
    pub allow_host: Vec<String>,
    /// Games kept at once (the least recently used is dropped for a new one; at most 10000).
    #[arg(long, default_value_t = 64, allow_negative_numbers = true,
          value_parser = crate::cli::Whole::new(1, 10_000, ""))]
    pub max_games: u64,
    /// Searches run at once of each kind: easy and medium engine moves, hard ones, analyses
    /// (each its own engines, so that quick moves never wait behind long searches; more wait
    /// their turn, the shortest first; 1 to 64; default: the number of cores, at most 4).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::cli::Whole::new(1, 64, ""))]
    pub searches: Option<u64>,
    /// Longest analysis search, seconds (more than 0, at most 3600); a move starts the next.
    #[arg(long, default_value_t = 30.0, allow_negative_numbers = true,
          value_parser = crate::cli::Seconds::POSITIVE)]
    pub analysis_time: f64,
    /// Connections served at once (1 to 10000); more wait until one ends. Slow clients cannot
    /// hold them: see --read-timeout.
    #[arg(long, default_value_t = 256, allow_negative_numbers = true,
          value_parser = crate::cli::Whole::new(1, 10_000, ""))]
    pub max_connections: u64,
    /// Longest wait, seconds, for a request's headers (from the connection's start, or from the
    /// end of the previous answer on a kept-alive connection) and, again, for its body: a client
    /// that sends neither in time is cut off (408 for a body). More than 0, at most 3600.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true,
          value_parser = crate::cli::Seconds::POSITIVE)]
    pub read_timeout: f64,
    /// Different OpenTafl rule sets built at most (1 to 100000), for games and loaded records:
    /// each stays in memory until the server ends (20 to 100 KB, by board size), so a new one
    /// beyond this is refused (503); those built stay playable.
    #[arg(long, default_value_t = 256, allow_negative_numbers = true,
          value_parser = crate::cli::Whole::new(1, 100_000, ""))]
    pub max_rule_sets: u64,
    /// A node cap on every search (tests: engine moves that do not depend on the machine's
    /// speed).
    #[arg(long, hide = true, allow_negative_numbers = true,
          value_parser = crate::cli::Whole::new(1, u64::MAX, ""))]
    pub max_nodes: Option<u64>,
    /// The hard level's time per move, seconds (tests: searches that only their cancellation
    /// ends).
    #[arg(long, hide = true, allow_negative_numbers = true,
          value_parser = crate::cli::Seconds::POSITIVE)]
    pub hard_time: Option<f64>,
}

/// What every request handler shares.
pub struct App {
    /// The games in progress.
    store: Store,
    /// The engines for the quick engine moves (easy, medium), so that they never wait behind
    /// the long ones.
    quick: Engines,
    /// The engines for the long engine moves (hard).
    deep: Engines,
    /// The engines for analyses.
    analysts: Engines,
    /// The bounds.
    config: Config,
    /// The host names answered.
    hosts: guard::Hosts,
}

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// The router: the page, its assets and the API, behind the checks of [`guard`].
fn router(app: Arc<App>) -> Router {
    let routes = Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/variants", get(api::variants))
        .route("/api/games", post(api::create))
        .route("/api/games/{id}", get(api::get).delete(api::delete))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/engine-move", post(api::engine_move))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/load", post(api::load))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/analysis", get(analysis::analysis))
        .route("/api/games/{id}/analysis/stop", post(analysis::stop))
        .method_not_allowed_fallback(|| async {
            api::ApiError {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: "this endpoint does not take that method (see docs/serve.md)".into(),
            }
        })
        .fallback(|| async {
            api::ApiError {
                status: StatusCode::NOT_FOUND,
                message: "no such page or endpoint (see docs/serve.md)".into(),
            }
        })
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            guard::check_request,
        ))
        .with_state(app)
        .layer(axum::middleware::map_response(json_errors));
    guard::with_security_headers(routes)
}

/// Errors that axum answers itself in plain text (a path that is not UTF-8 once
/// percent-decoded) as the API's JSON errors, `{"error": "…"}`.
async fn json_errors(response: axum::response::Response) -> axum::response::Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let text = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_string(),
        t => t.to_string(),
    };
    api::ApiError { status, message }.into_response()
}

/// Runs `skald serve`: listens, prints `skald serve: http://ADDR:PORT/` on standard output,
/// opens the page with `--open`, and serves until the process is ended.
pub fn run(args: Args) -> Result<()> {
    let searches = args.searches.map_or_else(
        || {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
                .min(4)
        },
        |n| n as usize,
    );
    let read_timeout = Duration::from_secs_f64(args.read_timeout);
    let config = Config {
        max_games: args.max_games as usize,
        max_searches: searches,
        analysis_ms: (args.analysis_time * 1000.0).round().max(1.0) as u64,
        max_nodes: args.max_nodes,
        hard_ms: args.hard_time.map(|s| (s * 1000.0).round().max(1.0) as u64),
        read_timeout,
    };
    skald::tafl::set_rule_set_limit(args.max_rule_sets as usize);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(3 * searches + 8)
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async move {
        let hosts = guard::Hosts::new(args.bind, &args.allow_host);
        let app = Arc::new(App {
            store: Store::new(config.max_games),
            quick: Engines::new(config.max_searches)?,
            deep: Engines::new(config.max_searches)?,
            analysts: Engines::new(config.max_searches)?,
            config,
            hosts,
        });
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| {
            format!("cannot listen on {addr} (is another server on that port? --port 0 picks a free one)")
        })?;
        let local = listener.local_addr().context("the address listened on")?;
        if !args.bind.is_loopback() {
            eprintln!(
                "warning: skald serve listens on {local}: anyone who can reach this address can \
                 use it (there is no password); the default --bind 127.0.0.1 lets in this \
                 computer only"
            );
        }
        let host = match local.ip() {
            ip if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            ip => ip,
        };
        let url = format!("http://{}/", SocketAddr::new(host, local.port()));
        println!("skald serve: {url}");
        println!("(Ctrl-C ends the server)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        if args.open
            && let Err(e) = open::that_detached(&url)
        {
            eprintln!("skald serve: cannot open a browser ({e}); open {url} yourself");
        }
        guard::serve(
            listener,
            router(app),
            args.max_connections as usize,
            read_timeout,
        )
        .await;
        Ok(())
    })
}
