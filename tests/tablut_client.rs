//! `skald tablut-client` against a test server on 127.0.0.1 that speaks the Tablut competition
//! server's protocol (length-prefixed JSON strings: the name, states, actions) and judges the
//! game by skald's own `ashton` rules: whole games as white and as black against a random
//! player, every move the client sends checked legal; a server that closes the connection
//! early; a server that goes silent; a server that sends something that is no state. The client searches to depth 2
//! (its hidden `--depth`), so no test depends on the machine's speed.

use skald::engine::{Session, new_session};
use skald::protocol::tablut::{
    Role, State, Turn, parse_action, read_message, state_of, write_message,
};
use skald::rng::SeededRng;
use skald::variant::Variant;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A bound on waits that only a hang reaches (never a measure of speed).
const HUNG: Duration = Duration::from_secs(120);

/// Starts the client as `role` against the test server on `port`.
fn client(role: &str, port: u16) -> Child {
    client_timed(role, port, "10")
}

/// [`client`] with the server's time per move `timeout` (seconds).
fn client_timed(role: &str, port: u16, timeout: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_skald"))
        .args([
            "tablut-client",
            role,
            timeout,
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--depth",
            "2",
            "--hash",
            "8",
            "--name",
            "skaldtest",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start skald tablut-client")
}

/// Accepts the client's connection and reads its name.
fn accept(listener: &TcpListener) -> TcpStream {
    listener.set_nonblocking(false).unwrap();
    let (stream, _) = listener.accept().expect("the client connects");
    stream.set_read_timeout(Some(HUNG)).unwrap();
    let name = read_message(&mut &stream).unwrap().expect("a name");
    assert_eq!(name, "\"skaldtest\"");
    stream
}

/// Waits for the client to end; returns (success, stdout, stderr).
fn finish(mut child: Child) -> (bool, String, String) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            let mut err = String::new();
            child
                .stdout
                .take()
                .unwrap()
                .read_to_string(&mut out)
                .unwrap();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.success(), out, err);
        }
        if start.elapsed() > HUNG {
            let _ = child.kill();
            panic!("the client did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The server's state of `session`: the side to move, or the result.
fn state(session: &dyn Session) -> State {
    use skald::engine::{Outcome, Side};
    let turn = match session.outcome() {
        Outcome::Ongoing => match session.side_to_move() {
            Side::Second => Turn::White,
            Side::First => Turn::Black,
        },
        Outcome::Decided {
            winner: Some(Side::Second),
            ..
        } => Turn::WhiteWin,
        Outcome::Decided {
            winner: Some(Side::First),
            ..
        } => Turn::BlackWin,
        Outcome::Decided { winner: None, .. } => Turn::Draw,
    };
    state_of(&session.board_rows(), turn)
}

/// Plays one game against the client as `role`, a random player on the other side, at most
/// `max_plies` plies (then the server calls it a draw, as its own limits do). Returns the
/// plies played and the client's output.
fn play_game(role: Role, seed: u64, max_plies: usize) -> (usize, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let child = client(role.name(), port);
    let stream = accept(&listener);
    let mut session = new_session(Variant::Ashton);
    let mut rng = SeededRng::new(seed);
    let mut plies = 0;
    loop {
        let mut s = state(&*session);
        if plies >= max_plies && s.turn.to_move().is_some() {
            s.turn = Turn::Draw;
        }
        write_message(&mut &stream, &s.to_json()).unwrap();
        let Some(to_move) = s.turn.to_move() else {
            break;
        };
        if to_move == role {
            let text = read_message(&mut &stream)
                .unwrap()
                .expect("the client answers");
            let (from, to, turn) = parse_action(&text).unwrap();
            assert_eq!(turn, Turn::of(role), "{text}");
            let mv = format!("{from}-{to}");
            assert!(
                session.legal_moves().contains(&mv),
                "illegal move {mv} in {}",
                session.fen()
            );
            session.play(&mv).unwrap();
        } else {
            let moves = session.legal_moves();
            let mv = &moves[rng.below(moves.len() as u64) as usize];
            session.play(mv).unwrap();
        }
        plies += 1;
    }
    let (ok, out, err) = finish(child);
    assert!(ok, "the client failed: {out}\n{err}");
    assert!(out.contains("game over after"), "{out}");
    (plies, out)
}

#[test]
fn plays_whole_games_as_white_and_as_black() {
    let mut total = 0;
    for (role, seed) in [(Role::White, 1), (Role::Black, 2), (Role::White, 3)] {
        let (plies, out) = play_game(role, seed, 120);
        assert!(plies > 0, "{out}");
        total += plies;
    }
    assert!(total >= 3);
}

#[test]
fn a_server_that_closes_early_ends_the_client_cleanly() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let child = client("WHITE", port);
    let stream = accept(&listener);
    let session = new_session(Variant::Ashton);
    write_message(&mut &stream, &state(&*session).to_json()).unwrap();
    let answer = read_message(&mut &stream).unwrap().expect("a move");
    parse_action(&answer).unwrap();
    drop(stream);
    let (ok, out, err) = finish(child);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("closed the connection"), "{out}");
}

/// A server that goes silent once the game has begun, without closing the connection (a
/// half-open connection): the client gives up after twice the time per move and 10 s (here
/// 12 s), with an error (before, it waited for ever). The wait for the first state has no
/// limit (the server waits for the other player).
#[test]
fn a_silent_server_ends_the_client_with_an_error() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let child = client_timed("black", port, "1");
    let stream = accept(&listener);
    // White (the defenders) to move: the client, black, waits for white's move, which never
    // comes.
    let session = new_session(Variant::Ashton);
    write_message(&mut &stream, &state(&*session).to_json()).unwrap();
    let (ok, out, err) = finish(child);
    drop(stream);
    assert!(!ok, "{out}");
    assert!(
        err.starts_with(
            "error: no state from the server for 12 s after 0 plies: the connection is lost"
        ),
        "{err}"
    );
}

#[test]
fn a_state_that_is_no_state_is_an_error() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let child = client("black", port);
    let stream = accept(&listener);
    write_message(&mut &stream, "{\"board\":\"hello\"}").unwrap();
    let (ok, out, err) = finish(child);
    assert!(!ok, "{out}");
    assert!(
        err.starts_with("error: cannot read the server's state: not a state"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_bad_role_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_skald"))
        .args(["tablut-client", "grey"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'grey' is not a role"), "{err}");
}
