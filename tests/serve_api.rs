//! `skald serve`'s HTTP API through the real binary (`skald serve --port 0`): the page and its
//! assets, every endpoint, bad requests (a 4xx status with a JSON error, and the game
//! unchanged), records both ways, concurrent games, the bound on games kept, live analysis by
//! server-sent events, and what keeps other sites' pages and slow clients out (the `Host` and
//! `Origin` checks, `Content-Type`, random game ids, the security headers, the read time-outs
//! and the connection cap, the bound on rule sets, searches cancelled with their game and quick
//! moves that never wait behind long ones). Engine searches are capped in nodes (the hidden
//! `--max-nodes`) or ended by cancellation (the hidden `--hard-time`), so no result depends on
//! the machine's speed.
#![cfg(feature = "serve")]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `skald serve`, ended when dropped.
struct Server {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        Server::start_capped("3000", extra)
    }

    /// A server whose searches stop at `max_nodes` nodes (or their time).
    fn start_capped(max_nodes: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skald"))
            .args(["serve", "--port", "0", "--max-nodes", max_nodes])
            .args(if extra.contains(&"--searches") {
                &[][..]
            } else {
                &["--searches", "2"][..]
            })
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start skald serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let base = line
            .trim()
            .strip_prefix("skald serve: ")
            .unwrap_or_else(|| panic!("no address line: {line:?}"))
            .trim_end_matches('/')
            .to_string();
        // Keep reading the output so that the server never writes to a closed pipe.
        std::thread::spawn(move || for _ in out.lines() {});
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Server { child, base, agent }
    }

    /// A request; the status and the body as JSON (`Value::String` for text, `Null` if empty).
    fn call(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        // (Every request with effects says that it sends JSON, as the page does.)
        let json = "application/json";
        let response = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).header("Content-Type", json).call(),
            ("POST", Some(b)) => self.agent.post(&url).header("Content-Type", json).send(b),
            ("POST", None) => self
                .agent
                .post(&url)
                .header("Content-Type", json)
                .send_empty(),
            _ => unreachable!(),
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        let value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        (status, value)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        self.call("GET", path, None)
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call("POST", path, Some(&body.to_string()))
    }

    /// A new game; panics unless created.
    fn create(&self, body: Value) -> Value {
        let (status, state) = self.post("/api/games", body.clone());
        assert_eq!(status, 201, "{body}: {state}");
        state
    }

    /// The game's state (the parts that a failed request must leave as they were).
    fn snapshot(&self, id: &str) -> Value {
        let (status, s) = self.get(&format!("/api/games/{id}"));
        assert_eq!(status, 200, "{s}");
        json!([s["fen"], s["moves"], s["version"], s["result"]])
    }

    /// Server-sent events of `path` until `done` (or the stream ends): (event, data) pairs.
    fn events(&self, path: &str) -> Vec<(String, Value)> {
        read_events(self.open_events(path))
    }

    /// The stream of server-sent events of `path`, opened (its answer's headers read).
    fn open_events(&self, path: &str) -> impl std::io::Read + use<> {
        let url = format!("{}{path}", self.base);
        let response = self.agent.get(&url).call().unwrap();
        assert_eq!(response.status().as_u16(), 200);
        response.into_body().into_reader()
    }
}

/// The events of a stream until `done` (or its end): (event, data) pairs.
fn read_events(stream: impl std::io::Read) -> Vec<(String, Value)> {
    let reader = BufReader::new(stream);
    let mut events = Vec::new();
    let mut name = String::new();
    for line in reader.lines() {
        let line = line.unwrap();
        if let Some(n) = line.strip_prefix("event:") {
            name = n.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data:") {
            let data: Value = serde_json::from_str(d.trim()).unwrap();
            events.push((name.clone(), data));
            if name == "done" {
                break;
            }
        }
    }
    events
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `request` as it is to the server at `base` and reads the answer until the server
/// closes the connection.
fn raw_request(base: &str, request: &str) -> String {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn id(state: &Value) -> String {
    state["id"].as_str().unwrap().to_string()
}

fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no JSON error: {v}"))
}

#[test]
fn the_page_its_assets_and_the_variants() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    let page = page.as_str().unwrap();
    assert!(
        page.contains("<svg id=\"board\"") && page.contains("/app.js"),
        "{page}"
    );
    // No asset from the network: only the server's own.
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "{page}"
    );
    for (path, needle) in [("/app.js", "EventSource"), ("/style.css", "@media")] {
        let (status, text) = server.get(path);
        assert_eq!(status, 200, "{path}");
        assert!(text.as_str().unwrap().contains(needle), "{path}");
    }
    let (status, v) = server.get("/api/variants");
    assert_eq!(status, 200);
    let names: Vec<&str> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "brandubh",
            "tablut",
            "tawlbwrdd",
            "copenhagen",
            "copenhagen13",
            "ashton",
            "ataxx"
        ]
    );
    let levels: Vec<&str> = v["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["easy", "medium", "hard"]);
    let (status, e) = server.get("/no/such/page");
    assert_eq!(status, 404);
    error_of(&e);
}

/// Every variant's board, drawn from the state: size, pieces, the throne and corners.
#[test]
fn every_variant_starts() {
    let server = Server::start(&[]);
    for (variant, size, marks) in [
        ("brandubh", 7, 5),
        ("tablut", 9, 1),
        ("tawlbwrdd", 11, 1),
        ("copenhagen", 11, 5),
        ("copenhagen13", 13, 5),
        ("ataxx", 7, 0),
    ] {
        let s = server.create(json!({ "variant": variant, "mode": "hotseat" }));
        assert_eq!(s["size"], size, "{variant}");
        assert_eq!(s["board"].as_array().unwrap().len(), size, "{variant}");
        assert_eq!(
            s["marks"].as_array().unwrap().len(),
            marks,
            "{variant}: {}",
            s["marks"]
        );
        assert_eq!(s["to_move"], "first");
        assert!(s["result"].is_null());
        let targets = s["targets"].as_object().unwrap();
        let legal = s["legal"].as_array().unwrap();
        assert!(!legal.is_empty());
        // Every legal move can be picked by clicks: a from-square and a target.
        for mv in legal {
            assert!(
                targets
                    .values()
                    .flat_map(|t| t.as_array().unwrap())
                    .any(|t| t["move"] == *mv),
                "{variant}: {mv} has no square to click"
            );
        }
    }
    // An OpenTafl rules string.
    let rules = "dim:7 name:brandubh ks:c cenh: cenp:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let s = server.create(json!({ "rules": rules, "mode": "hotseat" }));
    assert_eq!(s["size"], 7);
    assert_eq!(s["rules"], rules);
    assert!(s["variant"].is_null());
    assert_eq!(s["family"], "tafl");
}

#[test]
fn a_game_against_the_computer() {
    let server = Server::start(&[]);
    let s = server.create(json!({ "variant": "brandubh", "side": "attackers", "level": "easy" }));
    let game = id(&s);
    assert_eq!(
        (s["mode"].as_str(), s["human"].as_str()),
        (Some("computer"), Some("first"))
    );
    assert_eq!(s["engine_to_move"], false);
    // The computer's move on your turn: refused, nothing changes.
    let before = server.snapshot(&game);
    let (status, e) = server.post(&format!("/api/games/{game}/engine-move"), json!({}));
    assert_eq!(status, 409, "{e}");
    assert!(error_of(&e).contains("your turn"));
    assert_eq!(server.snapshot(&game), before);

    let mv = s["legal"][0].as_str().unwrap().to_string();
    let (status, s) = server.post(&format!("/api/games/{game}/move"), json!({ "move": mv }));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["moves"], json!([mv]));
    assert_eq!(s["to_move"], "second");
    assert_eq!(s["engine_to_move"], true);
    assert_eq!(s["last"]["squares"].as_array().unwrap().len(), 2);
    // Your move on the computer's turn: refused.
    let before = server.snapshot(&game);
    let (status, e) = server.post(
        &format!("/api/games/{game}/move"),
        json!({ "move": s["legal"][0] }),
    );
    assert_eq!(status, 409, "{e}");
    assert_eq!(server.snapshot(&game), before);

    let (status, s) = server.post(&format!("/api/games/{game}/engine-move"), json!({}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    assert_eq!(s["to_move"], "first");
    assert_eq!(s["engine"]["move"], s["moves"][1]);
    assert!(s["engine"]["depth"].as_u64().unwrap() >= 1);

    // Undo takes back your move and the computer's reply.
    let (status, s) = server.post(&format!("/api/games/{game}/undo"), json!({}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["moves"], json!([]));
    assert_eq!(s["can_undo"], false);
    let (status, e) = server.post(&format!("/api/games/{game}/undo"), json!({}));
    assert_eq!(status, 409, "{e}");

    // The computer playing the first side moves first.
    let s = server.create(json!({ "variant": "ataxx", "side": "o", "level": "medium" }));
    assert_eq!(s["human"], "second");
    assert_eq!(s["engine_to_move"], true);
    let second = id(&s);
    let (status, s) = server.post(&format!("/api/games/{second}/engine-move"), json!({}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["to_move"], "second");
    // Only the computer has moved: nothing of yours to take back (the computer would only play
    // its move again).
    assert_eq!(s["can_undo"], false);
    let before = server.snapshot(&second);
    let (status, e) = server.post(&format!("/api/games/{second}/undo"), json!({}));
    assert_eq!(status, 409, "{e}");
    assert!(error_of(&e).contains("no move of yours"), "{e}");
    assert_eq!(server.snapshot(&second), before);
    // After your reply and its move, undo takes back those two.
    let (status, s) = server.post(
        &format!("/api/games/{second}/move"),
        json!({ "move": s["legal"][0] }),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["can_undo"], true);
    let (status, s) = server.post(&format!("/api/games/{second}/engine-move"), json!({}));
    assert_eq!(status, 200, "{s}");
    let (status, s) = server.post(&format!("/api/games/{second}/undo"), json!({}));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1, "{s}");
    assert_eq!(s["can_undo"], false);

    // GET and DELETE.
    let (status, _) = server.get(&format!("/api/games/{game}"));
    assert_eq!(status, 200);
    let (status, _) = server.call("DELETE", &format!("/api/games/{game}"), None);
    assert_eq!(status, 204);
    let (status, e) = server.get(&format!("/api/games/{game}"));
    assert_eq!(status, 404);
    error_of(&e);
}

/// The end of a game (with its reason, the captured stones), moves after it refused, undo.
#[test]
fn game_end_captures_and_undo() {
    let server = Server::start(&[]);
    let s = server
        .create(json!({ "variant": "ataxx", "mode": "hotseat", "fen": "xo5/7/7/7/7/7/7 x 0 1" }));
    let game = id(&s);
    let (status, s) = server.post(&format!("/api/games/{game}/move"), json!({ "move": "a6" }));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["captures"], json!([{ "square": "b7", "piece": "o" }]));
    assert_eq!(s["result"]["winner"], "first");
    assert_eq!(s["result"]["reason"], "no pieces left");
    assert_eq!(s["result"]["text"], "x wins (no pieces left)");
    assert_eq!(s["legal"], json!([]));
    let before = server.snapshot(&game);
    for (path, body) in [
        ("move", json!({ "move": "a5" })),
        ("engine-move", json!({})),
    ] {
        let (status, e) = server.post(&format!("/api/games/{game}/{path}"), body);
        assert_eq!(status, 409, "{path}: {e}");
        assert!(error_of(&e).contains("over"), "{e}");
    }
    assert_eq!(server.snapshot(&game), before);
    let (status, s) = server.post(&format!("/api/games/{game}/undo"), json!({}));
    assert_eq!(status, 200);
    assert!(s["result"].is_null());
    assert_eq!(s["captures"], json!([]));

    // A tafl capture: brandubh moves found by the engine's rules until one captures.
    let mut session = skald::engine::new_session(skald::variant::Variant::Brandubh);
    let mut moves = Vec::new();
    while session.last_captures().is_empty() {
        let legal = session.legal_moves();
        assert!(!legal.is_empty());
        let mv = legal[(moves.len() * 7 + 3) % legal.len()].clone();
        session.play(&mv).unwrap();
        moves.push(mv);
    }
    let s = server.create(json!({ "variant": "brandubh", "mode": "hotseat" }));
    let game = id(&s);
    let mut last = s;
    for mv in &moves {
        let (status, s) = server.post(&format!("/api/games/{game}/move"), json!({ "move": mv }));
        assert_eq!(status, 200, "{mv}: {s}");
        last = s;
    }
    let expected: Vec<Value> = session
        .last_captures()
        .iter()
        .map(|c| json!({ "square": c.square, "piece": c.piece.to_string() }))
        .collect();
    assert_eq!(last["captures"], json!(expected));
}

#[test]
fn bad_requests_change_nothing() {
    let server = Server::start(&[]);
    for (body, needle) in [
        ("{not json", "bad JSON"),
        (r#"{"variant": "chess"}"#, "unknown variant"),
        (r#"{"variant": "brandubh", "rules": "dim:7"}"#, "not both"),
        (r#"{"rules": "dim:7 kj:y"}"#, "rules"),
        (r#"{"mode": "online"}"#, "unknown mode"),
        (r#"{"level": "grandmaster"}"#, "unknown level"),
        (r#"{"side": "red"}"#, "unknown side"),
        (r#"{"mode": "hotseat", "level": "easy"}"#, "hot-seat"),
        (r#"{"variant": "ataxx", "fen": "bad fen"}"#, "FEN"),
        (r#"{"colour": "red"}"#, "unknown field"),
    ] {
        let (status, e) = server.call("POST", "/api/games", Some(body));
        assert_eq!(status, 400, "{body}: {e}");
        assert!(error_of(&e).contains(needle), "{body}: {e}");
    }
    let s = server.create(json!({ "variant": "tablut", "mode": "hotseat" }));
    let game = id(&s);
    let before = server.snapshot(&game);
    for (path, body, status_wanted) in [
        ("move", r#"{"move": "a1-a9"}"#, 400),
        ("move", r#"{"move": "zz"}"#, 400),
        ("move", r#"{"mv": "e1-e2"}"#, 400),
        ("move", "[1, 2]", 400),
        // (An array is not read as the fields in order.)
        ("move", r#"["a4-a2"]"#, 400),
        ("load", r#"{"record": "this is no record"}"#, 400),
        (
            "load",
            r#"{"record": "[Variant \"tablut\"]\n\n1. a1-a2 *\n"}"#,
            400,
        ),
        ("undo", "", 409),
    ] {
        let (status, e) = server.call("POST", &format!("/api/games/{game}/{path}"), Some(body));
        assert_eq!(status, status_wanted, "{path} {body}: {e}");
        error_of(&e);
        assert_eq!(server.snapshot(&game), before, "{path} {body}");
    }
    for path in [
        format!("/api/games/{game}/record?format=doc"),
        format!("/api/games/{game}/analysis?multipv=0"),
        format!("/api/games/{game}/analysis?multipv=99"),
    ] {
        let (status, e) = server.get(&path);
        assert_eq!(status, 400, "{path}: {e}");
        error_of(&e);
    }
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{game}/move"),
        Some(r#"["d1-b1"]"#),
    );
    assert_eq!(status, 400);
    assert!(error_of(&e).contains("expected a JSON object"), "{e}");
    // An echoed value is clipped: a 1.5 MB rules string gives a short error.
    for rules in ["x".repeat(1_500_000), "zz:1 ".repeat(300_000)] {
        let (status, e) = server.post("/api/games", json!({ "rules": rules }));
        assert_eq!(status, 400);
        assert!(
            error_of(&e).chars().count() <= 600,
            "{} chars",
            error_of(&e).len()
        );
    }
    let (status, e) = server.post(
        &format!("/api/games/{game}/move"),
        json!({ "move": "q".repeat(5000) }),
    );
    assert_eq!(status, 400);
    assert!(
        error_of(&e).contains(&format!("{}…'", "q".repeat(80))),
        "{e}"
    );
    // A path that is not UTF-8 once decoded: a JSON error too.
    let (status, e) = server.get("/api/games/%FF");
    assert_eq!(status, 400);
    assert!(error_of(&e).contains("UTF-8"), "{e}");
    // .otg records are tafl's.
    let ataxx = id(&server.create(json!({ "variant": "ataxx", "mode": "hotseat" })));
    let (status, e) = server.get(&format!("/api/games/{ataxx}/record?format=otg"));
    assert_eq!(status, 400);
    assert!(error_of(&e).contains("Ataxx"), "{e}");
    // Unknown games.
    for path in [
        "/api/games/999999",
        "/api/games/abc",
        "/api/games/-1/record",
    ] {
        let (status, e) = server.get(path);
        assert_eq!(status, 404, "{path}");
        error_of(&e);
    }
    let (status, _) = server.post("/api/games/424242/move", json!({ "move": "a1-a2" }));
    assert_eq!(status, 404);
    // A method an endpoint does not take, a body too large.
    let (status, e) = server.call("DELETE", &format!("/api/games/{game}/move"), None);
    assert_eq!(status, 405);
    error_of(&e);
    // (3 MiB announced, a little over 2 MiB sent: the server answers once it has read past its
    // bound, and the rest would never be read.)
    let answer = raw_request(
        &server.base,
        &format!(
            "POST /api/games/{game}/load HTTP/1.1\r\nHost: 127.0.0.1\r\n\
             Content-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{}",
            3 << 20,
            " ".repeat((2 << 20) + 4096)
        ),
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"error\""), "{answer}");
    assert_eq!(server.snapshot(&game), before);
}

#[test]
fn records_saved_and_loaded() {
    let server = Server::start(&[]);
    let s = server.create(json!({ "variant": "brandubh", "mode": "hotseat" }));
    let game = id(&s);
    for _ in 0..4 {
        let (status, s) = server.post(&format!("/api/games/{game}/engine-move"), json!({}));
        assert_eq!(status, 200, "{s}");
    }
    let played = server.get(&format!("/api/games/{game}")).1;
    for format in ["pgn", "otg"] {
        let (status, text) = server.get(&format!("/api/games/{game}/record?format={format}"));
        assert_eq!(status, 200, "{format}");
        let text = text.as_str().unwrap().to_string();
        if format == "pgn" {
            assert!(text.contains("[Variant \"brandubh\"]"), "{text}");
        } else {
            assert!(text.contains("[rules:"), "{text}");
        }
        // Loaded into another game (of another variant): the same position and moves.
        let other = id(&server.create(json!({ "variant": "ataxx", "mode": "hotseat" })));
        let (status, s) = server.post(
            &format!("/api/games/{other}/load"),
            json!({ "record": text }),
        );
        assert_eq!(status, 200, "{format}: {s}");
        assert_eq!(s["variant"], "brandubh");
        assert_eq!(s["moves"], played["moves"], "{format}");
        assert_eq!(s["fen"], played["fen"], "{format}");
        // And play goes on from there.
        let (status, _) = server.post(&format!("/api/games/{other}/engine-move"), json!({}));
        assert_eq!(status, 200);
    }
    // A PGN game without a Variant tag is read as the game's variant (or the request's), and
    // the error names no command-line flag.
    let untagged = "1. a1-a2 *\n";
    let tablut = id(&server.create(json!({ "variant": "tablut", "mode": "hotseat" })));
    let (status, e) = server.post(
        &format!("/api/games/{tablut}/load"),
        json!({ "record": untagged }),
    );
    assert_eq!(status, 400, "{e}");
    let message = error_of(&e);
    assert!(
        message.contains("read as tablut") && !message.contains("--"),
        "{e}"
    );
    let (status, s) = server.post(
        &format!("/api/games/{tablut}/load"),
        json!({ "record": "1. d1-d3 *\n" }),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (&s["variant"], &s["moves"]),
        (&json!("tablut"), &json!(["d1-d3"]))
    );
    let (status, s) = server.post(
        &format!("/api/games/{tablut}/load"),
        json!({ "record": "1. d1-b1 *\n", "variant": "brandubh" }),
    );
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["variant"], "brandubh");
    // A game under an OpenTafl rules string keeps its rules in its records.
    let rules = "dim:7 name:mine ks:c cenh: cenp:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let g = id(&server.create(json!({ "rules": rules, "mode": "hotseat" })));
    let (status, _) = server.post(&format!("/api/games/{g}/engine-move"), json!({}));
    assert_eq!(status, 200);
    for format in ["pgn", "otg"] {
        let (status, text) = server.get(&format!("/api/games/{g}/record?format={format}"));
        assert_eq!(status, 200, "{format}: {text}");
        let (status, s) = server.post(
            &format!("/api/games/{g}/load"),
            json!({ "record": text.as_str().unwrap() }),
        );
        assert_eq!(status, 200, "{format}: {s}");
        assert!(s["variant"].is_null(), "{format}: {s}");
        assert_eq!(s["moves"].as_array().unwrap().len(), 1, "{format}");
    }
}

/// Several games at once from several threads: each stays its own.
#[test]
fn concurrent_games() {
    let server = Server::start(&[]);
    let variants = [
        "brandubh",
        "ataxx",
        "tablut",
        "copenhagen",
        "brandubh",
        "ataxx",
    ];
    std::thread::scope(|scope| {
        for variant in variants {
            let server = &server;
            scope.spawn(move || {
                let s = server.create(json!({ "variant": variant, "mode": "hotseat" }));
                let game = id(&s);
                for ply in 1..=4 {
                    let (status, s) =
                        server.post(&format!("/api/games/{game}/engine-move"), json!({}));
                    assert_eq!(status, 200, "{variant}: {s}");
                    assert_eq!(s["moves"].as_array().unwrap().len(), ply, "{variant}");
                    assert_eq!(s["variant"], variant);
                }
            });
        }
    });
}

/// A game deleted while the engine searches its move: the move answers 404 and the game stays
/// gone. (The search is long: the hard level's 2 s, no small node cap.)
#[test]
fn a_game_deleted_while_the_engine_thinks_stays_deleted() {
    let server = Server::start_capped("100000000", &[]);
    let s = server.create(json!({ "variant": "brandubh", "side": "second", "level": "hard" }));
    let game = id(&s);
    std::thread::scope(|scope| {
        let pending =
            scope.spawn(|| server.post(&format!("/api/games/{game}/engine-move"), json!({})));
        while !server.get(&format!("/api/games/{game}")).1["thinking"]
            .as_bool()
            .unwrap()
        {
            assert!(
                !pending.is_finished(),
                "the engine moved before the game was deleted"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            server.call("DELETE", &format!("/api/games/{game}"), None).0,
            204
        );
        let (status, e) = pending.join().unwrap();
        assert_eq!(status, 404, "{e}");
        error_of(&e);
    });
    assert_eq!(server.get(&format!("/api/games/{game}")).0, 404);
}

#[test]
fn the_least_recently_used_game_is_dropped() {
    let server = Server::start(&["--max-games", "2"]);
    let a = id(&server.create(json!({ "mode": "hotseat" })));
    let b = id(&server.create(json!({ "mode": "hotseat" })));
    assert_eq!(server.get(&format!("/api/games/{a}")).0, 200);
    let c = id(&server.create(json!({ "mode": "hotseat" })));
    assert_eq!(server.get(&format!("/api/games/{b}")).0, 404);
    assert_eq!(server.get(&format!("/api/games/{a}")).0, 200);
    assert_eq!(server.get(&format!("/api/games/{c}")).0, 200);
}

#[test]
fn live_analysis_by_server_sent_events() {
    let server = Server::start(&[]);
    let s = server.create(json!({ "variant": "brandubh", "mode": "hotseat" }));
    let game = id(&s);
    let events = server.events(&format!("/api/games/{game}/analysis?multipv=2"));
    let infos: Vec<&Value> = events
        .iter()
        .filter(|(e, _)| e == "info")
        .map(|(_, d)| d)
        .collect();
    assert!(!infos.is_empty(), "{events:?}");
    for info in &infos {
        assert!(info["depth"].as_u64().unwrap() >= 1);
        assert!(info["score"].is_object());
        assert!(info["first_cp"].is_i64());
        let pv = info["pv"].as_array().unwrap();
        assert!(!pv.is_empty());
        // Squares for arrows, one pair per tafl move.
        assert_eq!(info["pv_squares"][0].as_array().unwrap().len(), 2, "{info}");
    }
    assert!(infos.iter().any(|i| i["multipv"] == 2), "{events:?}");
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done");
    assert!(done["depth"].as_u64().unwrap() >= 1, "{done}");
    assert!(done["best"].is_string());

    // Stopped by a move: the analysis of the old position ends.
    let (status, v) = server.post(&format!("/api/games/{game}/analysis/stop"), json!({}));
    assert_eq!(status, 200);
    assert!(v["stopped"].is_boolean());
    // A game that is over: done at once.
    let over = server
        .create(json!({ "variant": "ataxx", "mode": "hotseat", "fen": "x6/7/7/7/7/7/7 o 0 1" }));
    let events = server.events(&format!("/api/games/{}/analysis", id(&over)));
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].1["over"], true);
}

#[test]
fn another_address_is_an_explicit_choice_with_a_warning() {
    let mut server = Server::start(&["--bind", "0.0.0.0"]);
    assert!(
        server.base.starts_with("http://127.0.0.1:"),
        "{}",
        server.base
    );
    let mut err = BufReader::new(server.child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(
        line.starts_with("warning:") && line.contains("0.0.0.0"),
        "{line}"
    );
    assert_eq!(server.get("/api/variants").0, 200);
}

/// Sends `request` (`{base}` in it: the server's `127.0.0.1:PORT`) and reads the answer until
/// the server closes the connection: the status line and the whole answer.
fn raw(server: &Server, request: &str) -> (String, String) {
    let host = server.base.trim_start_matches("http://");
    let answer = raw_request(&server.base, &request.replace("{base}", host));
    let status = answer.lines().next().unwrap_or("").to_string();
    (status, answer)
}

/// The value of header `name` in a raw answer.
fn header_of<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    answer.split("\r\n\r\n").next()?.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

/// Cross-site request forgery: a page of another site can send a POST of its own (`no-cors`,
/// `text/plain` or a form) with the user's browser, but neither a JSON content type nor its
/// own `Origin` unnoticed; and it cannot guess a game's id.
#[test]
fn requests_from_other_sites_pages_are_refused() {
    let server = Server::start(&[]);
    let s = server.create(json!({ "variant": "brandubh", "mode": "hotseat" }));
    let game = id(&s);
    let before = server.snapshot(&game);
    let mv = s["legal"][0].as_str().unwrap();
    let body = format!("{{\"move\": \"{mv}\"}}");
    for (content_type, origin, wanted) in [
        // What a page of another site can send without asking first (no-cors).
        (Some("text/plain"), None, "415"),
        (
            Some("text/plain;charset=UTF-8"),
            Some("http://evil.example"),
            "403",
        ),
        (Some("application/x-www-form-urlencoded"), None, "415"),
        (Some("multipart/form-data; boundary=x"), None, "415"),
        (None, None, "415"),
        // And with the JSON content type, from another origin (or a sandboxed one).
        (Some("application/json"), Some("http://evil.example"), "403"),
        (Some("application/json"), Some("null"), "403"),
        (
            Some("application/json"),
            Some("http://localhost.evil.example"),
            "403",
        ),
    ] {
        let mut request = format!(
            "POST /api/games/{game}/move HTTP/1.1\r\nHost: {{base}}\r\nConnection: close\r\n\
             Content-Length: {}\r\n",
            body.len()
        );
        if let Some(t) = content_type {
            request += &format!("Content-Type: {t}\r\n");
        }
        if let Some(o) = origin {
            request += &format!("Origin: {o}\r\n");
        }
        request += &format!("\r\n{body}");
        let (status, answer) = raw(&server, &request);
        assert!(
            status.contains(wanted),
            "{content_type:?} {origin:?}: {answer}"
        );
        assert!(answer.contains("\"error\""), "{answer}");
        assert_eq!(
            server.snapshot(&game),
            before,
            "{content_type:?} {origin:?}"
        );
    }
    // Deleting too; and an analysis (a GET) opened by another site's page.
    let (status, _) = raw(
        &server,
        &format!(
            "DELETE /api/games/{game} HTTP/1.1\r\nHost: {{base}}\r\nConnection: close\r\n\
             Origin: http://evil.example\r\nContent-Type: application/json\r\n\r\n"
        ),
    );
    assert!(status.contains("403"), "{status}");
    let (status, _) = raw(
        &server,
        &format!(
            "DELETE /api/games/{game} HTTP/1.1\r\nHost: {{base}}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(status.contains("415"), "{status}");
    let (status, _) = raw(
        &server,
        &format!(
            "GET /api/games/{game}/analysis HTTP/1.1\r\nHost: {{base}}\r\nConnection: close\r\n\
             Origin: http://evil.example\r\n\r\n"
        ),
    );
    assert!(status.contains("403"), "{status}");
    assert_eq!(server.snapshot(&game), before);
    // The page's own requests: its origin (as the browser sends it on a POST) is accepted.
    let (status, answer) = raw(
        &server,
        &format!(
            "POST /api/games/{game}/move HTTP/1.1\r\nHost: {{base}}\r\nConnection: close\r\n\
             Origin: http://{{base}}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    );
    assert!(status.contains("200"), "{answer}");
    // Game ids: 128 random bits (32 hex digits), not a count.
    let ids: Vec<String> = (0..20)
        .map(|_| id(&server.create(json!({ "mode": "hotseat" }))))
        .collect();
    for i in &ids {
        assert_eq!(i.len(), 32, "{i}");
        assert!(
            i.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
            "{i}"
        );
    }
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), ids.len());
    let numbers: Vec<u128> = ids
        .iter()
        .map(|i| u128::from_str_radix(i, 16).unwrap())
        .collect();
    assert!(
        numbers.windows(2).all(|w| w[0].abs_diff(w[1]) > 1 << 64),
        "ids that follow each other: {ids:?}"
    );
    // Sequential numbers are no games.
    assert_eq!(server.get("/api/games/1").0, 404);
}

/// DNS rebinding: a page of another site whose name is made to point at 127.0.0.1 reaches the
/// server under its own name: only this computer's names and the address listened on are
/// answered (and `--allow-host` names).
#[test]
fn only_this_computers_names_are_answered() {
    let server = Server::start(&[]);
    let port = server.base.rsplit(':').next().unwrap().to_string();
    for (host, wanted) in [
        ("evil.example".to_string(), "421"),
        (format!("evil.example:{port}"), "421"),
        (format!("localhost.evil.example:{port}"), "421"),
        ("192.168.1.5".to_string(), "421"),
        (String::new(), "421"),
        (format!("127.0.0.1:{port}"), "200"),
        (format!("localhost:{port}"), "200"),
        ("LOCALHOST".to_string(), "200"),
        (format!("[::1]:{port}"), "200"),
    ] {
        for path in ["/", "/api/variants"] {
            let (status, answer) = raw(
                &server,
                &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
            );
            assert!(status.contains(wanted), "{host} {path}: {answer}");
            if wanted == "421" {
                assert!(answer.contains("--allow-host"), "{answer}");
            }
        }
    }
    // A request without a Host header is not answered either.
    let (status, _) = raw(&server, "GET /api/variants HTTP/1.0\r\n\r\n");
    assert!(status.contains("421"), "{status}");
    // --allow-host: a name (any port), a name with a port (that port only).
    let server = Server::start(&[
        "--allow-host",
        "Board.LAN",
        "--allow-host",
        "proxy.lan:9000",
    ]);
    for (host, wanted) in [
        ("board.lan", "200"),
        ("board.lan:8080", "200"),
        ("proxy.lan:9000", "200"),
        ("proxy.lan:9001", "421"),
        ("other.lan", "421"),
    ] {
        let (status, _) = raw(
            &server,
            &format!("GET /api/variants HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        );
        assert!(status.contains(wanted), "{host}: {status}");
    }
    // Listening on every address: any IP address (a page reached by an address is that
    // address's own), names still refused.
    let server = Server::start(&["--bind", "0.0.0.0"]);
    for (host, wanted) in [("10.1.2.3:8080", "200"), ("evil.example", "421")] {
        let (status, _) = raw(
            &server,
            &format!("GET /api/variants HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
        );
        assert!(status.contains(wanted), "{host}: {status}");
    }
    // A bad --allow-host is an error at the start.
    let out = Command::new(env!("CARGO_BIN_EXE_skald"))
        .args(["serve", "--port", "0", "--allow-host", "a/b"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a host name"));
}

/// The security headers on every answer, errors included; and the page needs nothing its
/// content security policy refuses (no inline script or style: the browser test runs it).
#[test]
fn every_answer_has_the_security_headers() {
    let server = Server::start(&[]);
    let game = id(&server.create(json!({ "mode": "hotseat" })));
    for request in [
        "GET / HTTP/1.1\r\nHost: {base}\r\n".to_string(),
        "GET /app.js HTTP/1.1\r\nHost: {base}\r\n".to_string(),
        "GET /style.css HTTP/1.1\r\nHost: {base}\r\n".to_string(),
        "GET /api/variants HTTP/1.1\r\nHost: {base}\r\n".to_string(),
        format!("GET /api/games/{game} HTTP/1.1\r\nHost: {{base}}\r\n"),
        format!("GET /api/games/{game}/record HTTP/1.1\r\nHost: {{base}}\r\n"),
        "GET /nothing HTTP/1.1\r\nHost: {base}\r\n".to_string(),
        "GET / HTTP/1.1\r\nHost: evil.example\r\n".to_string(),
        "POST /api/games HTTP/1.1\r\nHost: {base}\r\nContent-Length: 0\r\n".to_string(),
        "PUT /api/variants HTTP/1.1\r\nHost: {base}\r\nContent-Type: application/json\r\n\
         Content-Length: 0\r\n"
            .to_string(),
    ] {
        let (status, answer) = raw(&server, &format!("{request}Connection: close\r\n\r\n"));
        let csp = header_of(&answer, "Content-Security-Policy")
            .unwrap_or_else(|| panic!("{request}: no CSP in {answer}"));
        for part in [
            "default-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(part), "{csp}");
        }
        assert!(!csp.contains("unsafe"), "{csp}");
        for (name, value) in [
            ("X-Frame-Options", "DENY"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
        ] {
            assert_eq!(
                header_of(&answer, name),
                Some(value),
                "{request} ({status}): {name}"
            );
        }
    }
    let (_, page) = server.get("/");
    let page = page.as_str().unwrap();
    assert!(
        !page.contains("<script>") && !page.contains("style="),
        "{page}"
    );
    assert!(!page.contains("<style"), "{page}");
}

/// Slow and half-open clients: a request whose headers or body never come is cut off after the
/// read time-out (408 for a body), an idle connection too, and more such connections than the
/// cap do not keep a new client out for good.
#[test]
fn slow_and_half_open_clients_are_cut_off() {
    use std::io::{Read, Write};
    let server = Server::start(&["--read-timeout", "1", "--max-connections", "4"]);
    let game = id(&server.create(json!({ "mode": "hotseat" })));
    let before = server.snapshot(&game);
    let addr = server.base.trim_start_matches("http://").to_string();
    let connect = || {
        let s = std::net::TcpStream::connect(&addr).unwrap();
        // A guard against a hang: far beyond the one second the server waits.
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        s
    };
    // Three times the cap: a body announced, never sent (on every endpoint that takes one);
    // headers never finished; nothing at all.
    let mut clients = Vec::new();
    for i in 0..12 {
        let mut s = connect();
        let path = ["move", "engine-move", "undo", "analysis/stop", "load"][i % 5];
        let request = match i % 3 {
            0 | 1 => format!(
                "POST /api/games/{game}/{path} HTTP/1.1\r\nHost: {addr}\r\n\
                 Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
            ),
            _ => format!("GET /api/games/{game} HTTP/1.1\r\nHost: {addr}\r\n"),
        };
        s.write_all(request.as_bytes()).unwrap();
        clients.push((i, s));
    }
    clients.push((99, connect()));
    // A client that comes now is answered (once the slow ones are cut off).
    let (status, _) = server.get("/api/variants");
    assert_eq!(status, 200);
    for (i, mut s) in clients {
        let mut answer = Vec::new();
        // The server closes the connection: no read time-out here.
        s.read_to_end(&mut answer)
            .unwrap_or_else(|e| panic!("client {i}: the server held it: {e}"));
        let answer = String::from_utf8_lossy(&answer);
        if i % 3 < 2 && i != 99 {
            assert!(answer.starts_with("HTTP/1.1 408"), "client {i}: {answer}");
            assert!(answer.contains("did not arrive"), "{answer}");
        } else {
            assert!(answer.is_empty(), "client {i}: {answer}");
        }
    }
    // An idle kept-alive connection is closed too.
    let mut s = connect();
    s.write_all(format!("GET /api/variants HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)
        .expect("the idle connection closed");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    assert_eq!(server.snapshot(&game), before);
    // A GET that announces a body is refused (it would be left unread).
    let (status, _) = raw(
        &server,
        "GET /api/variants HTTP/1.1\r\nHost: {base}\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert!(status.contains("400"), "{status}");
}

/// Every endpoint reads its body: malformed JSON, other shapes and unknown fields are 400, a
/// body over 2 MB is 413, and the game is unchanged.
#[test]
fn every_endpoint_refuses_bad_bodies() {
    let server = Server::start(&[]);
    let s = server.create(json!({ "variant": "brandubh", "side": "second", "level": "easy" }));
    let game = id(&s);
    let before = server.snapshot(&game);
    for path in ["engine-move", "undo", "analysis/stop", "move", "load"] {
        for body in ["{not json", "[]", "[1, 2]", "\"text\"", "7", r#"{"x": 1}"#] {
            let (status, e) = server.call("POST", &format!("/api/games/{game}/{path}"), Some(body));
            assert_eq!(status, 400, "{path} {body}: {e}");
            assert!(error_of(&e).contains("bad JSON body"), "{path} {body}: {e}");
            assert_eq!(server.snapshot(&game), before, "{path} {body}");
        }
        let answer = raw_request(
            &server.base,
            &format!(
                "POST /api/games/{game}/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
                10 << 20,
                " ".repeat((2 << 20) + 4096)
            ),
        );
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert_eq!(server.snapshot(&game), before, "{path}");
    }
    let answer = raw_request(
        &server.base,
        &format!(
            "DELETE /api/games/{game} HTTP/1.1\r\nHost: 127.0.0.1\r\n\
             Content-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n[1]"
        ),
    );
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    let (status, e) = server.call("POST", "/api/games", Some("[]"));
    assert_eq!(status, 400, "{e}");
    assert_eq!(server.snapshot(&game), before);
    // An empty body or {} is what the endpoints without fields take.
    let (status, s) = server.call(
        "POST",
        &format!("/api/games/{game}/engine-move"),
        Some("{}"),
    );
    assert_eq!(status, 200, "{s}");
    let (status, v) = server.call("POST", &format!("/api/games/{game}/analysis/stop"), None);
    assert_eq!(status, 200, "{v}");
    let (status, _) = server.call("DELETE", &format!("/api/games/{game}"), None);
    assert_eq!(status, 204);
}

/// The memory of OpenTafl rule sets (each built once and kept for the server's life) is bounded:
/// new rules strings (a new `name:` each, the largest boards) beyond `--max-rule-sets` are
/// refused (503) and keep nothing; those built stay playable, by games and records.
#[test]
fn rule_sets_are_bounded() {
    let server = Server::start(&["--max-rule-sets", "3"]);
    let rules = |name: &str| {
        format!(
            "dim:19 name:{name} ks:c cenh: start:/19/19/19/19/19/19/19/19/9t9/8tKt8/9t9/19/19/19/19/19/19/19/19/"
        )
    };
    for n in 0..3 {
        server.create(json!({ "rules": rules(&format!("r{n}")), "mode": "hotseat" }));
    }
    let (status, v) = server.get("/api/variants");
    assert_eq!(status, 200);
    assert_eq!(v["rule_sets"], json!({ "built": 3, "max": 3 }));
    let rss = || -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let before = rss();
    for n in 3..303 {
        let (status, e) = server.post("/api/games", json!({ "rules": rules(&format!("r{n}")) }));
        assert_eq!(status, 503, "{e}");
        assert!(error_of(&e).contains("rule sets"), "{e}");
    }
    let (_, v) = server.get("/api/variants");
    assert_eq!(v["rule_sets"]["built"], 3);
    // (300 rule sets of a 19×19 board would be about 30 MB.)
    if let (Some(before), Some(after)) = (before, rss()) {
        assert!(
            after < before + 10_000,
            "resident memory grew from {before} kB to {after} kB"
        );
    }
    // Those built stay playable, and a record of one loads; a record of a new one does not.
    let g = id(&server.create(json!({ "rules": rules("r1"), "mode": "hotseat" })));
    let (status, record) = server.get(&format!("/api/games/{g}/record?format=otg"));
    assert_eq!(status, 200);
    let record = record.as_str().unwrap().to_string();
    let (status, s) = server.post(&format!("/api/games/{g}/load"), json!({ "record": record }));
    assert_eq!(status, 200, "{s}");
    let (status, e) = server.post(
        &format!("/api/games/{g}/load"),
        json!({ "record": record.replace("name:r1", "name:r9") }),
    );
    assert_eq!(status, 400, "{e}");
    assert!(error_of(&e).contains("rule sets"), "{e}");
    // An overlong rules string is refused before any of this.
    let (status, e) = server.post("/api/games", json!({ "rules": rules(&"n".repeat(5000)) }));
    assert_eq!(status, 400, "{e}");
}

/// Waits until `done` holds (polling; a guard of about a minute against a hang, which no
/// result depends on).
fn wait_for(what: &str, done: impl Fn() -> bool) {
    for _ in 0..12_000 {
        if done() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("never happened: {what}");
}

/// Fairness: a hard search (here one that only its cancellation ends: the hidden --hard-time)
/// does not delay easy and medium moves (they have engines of their own); a game has one search
/// at a time; a search waiting for an engine or running is cancelled when its game is deleted
/// or dropped to make room (its request answers 404 at once). No clock is read: the hard
/// searches would run for ten minutes.
#[test]
fn quick_moves_pass_long_ones_and_searches_end_with_their_game() {
    let server = Server::start_capped(
        "1000000000000",
        &[
            "--searches",
            "1",
            "--hard-time",
            "600",
            "--analysis-time",
            "600",
        ],
    );
    let hard: Vec<String> = (0..3)
        .map(|_| {
            id(&server.create(json!({ "variant": "tablut", "side": "second", "level": "hard" })))
        })
        .collect();
    let thinking = |g: &str| server.get(&format!("/api/games/{g}")).1["thinking"] == true;
    std::thread::scope(|scope| {
        let pending: Vec<_> = hard
            .iter()
            .map(|g| {
                let server = &server;
                scope.spawn(move || server.post(&format!("/api/games/{g}/engine-move"), json!({})))
            })
            .collect();
        for g in &hard {
            wait_for("the hard search", || thinking(g));
        }
        // Easy and medium moves of other games are answered while the hard ones search (one)
        // and wait (two).
        for level in ["easy", "medium", "easy"] {
            let g =
                id(&server
                    .create(json!({ "variant": "brandubh", "side": "second", "level": level })));
            let (status, s) = server.post(&format!("/api/games/{g}/engine-move"), json!({}));
            assert_eq!(status, 200, "{level}: {s}");
            assert_eq!(s["moves"].as_array().unwrap().len(), 1);
        }
        for g in &hard {
            assert!(thinking(g), "a hard search ended by itself");
        }
        // One search per game.
        let (status, e) = server.post(&format!("/api/games/{}/engine-move", hard[1]), json!({}));
        assert_eq!(status, 409, "{e}");
        // Deleted: the waiting ones and the running one answer 404 (none runs ten minutes).
        for g in [&hard[2], &hard[0], &hard[1]] {
            assert_eq!(
                server.call("DELETE", &format!("/api/games/{g}"), None).0,
                204
            );
        }
        for p in pending {
            let (status, e) = p.join().unwrap();
            assert_eq!(status, 404, "{e}");
        }
    });
    // The engines are free again: a new hard game searches at once (and is dropped to make room
    // while it searches: cancelled too).
    let server = Server::start_capped(
        "1000000000000",
        &["--searches", "1", "--hard-time", "600", "--max-games", "1"],
    );
    let g = id(&server.create(json!({ "variant": "tablut", "side": "second", "level": "hard" })));
    std::thread::scope(|scope| {
        let pending =
            scope.spawn(|| server.post(&format!("/api/games/{g}/engine-move"), json!({})));
        wait_for("the hard search", || {
            server.get(&format!("/api/games/{g}")).1["thinking"] == true
        });
        server.create(json!({ "mode": "hotseat" }));
        let (status, e) = pending.join().unwrap();
        assert_eq!(status, 404, "{e}");
    });
}

/// Analyses end with their game too: a running one and one waiting for the engine (one
/// analysis engine, analyses of ten minutes) end with `done` (stopped) when their games are
/// deleted.
#[test]
fn analyses_end_with_their_game() {
    let server = Server::start_capped(
        "1000000000000",
        &["--searches", "1", "--analysis-time", "600"],
    );
    let a = id(&server.create(json!({ "variant": "tablut", "mode": "hotseat" })));
    let b = id(&server.create(json!({ "variant": "tablut", "mode": "hotseat" })));
    // (Open: the analyses are registered with their games once the answers' headers come.)
    let first = server.open_events(&format!("/api/games/{a}/analysis"));
    let second = server.open_events(&format!("/api/games/{b}/analysis"));
    for g in [&b, &a] {
        assert_eq!(
            server.call("DELETE", &format!("/api/games/{g}"), None).0,
            204
        );
    }
    for events in [read_events(first), read_events(second)] {
        let (last, done) = events.last().unwrap();
        assert_eq!(last, "done", "{events:?}");
        assert_eq!(done["stopped"], true, "{done}");
    }
}
