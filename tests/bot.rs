//! `skald bot` against the real hnefatafl.org game server, started locally on 127.0.0.1: the
//! `hnefatafl-server` binary of the hnefatafl-copenhagen crate (6.4.1), which scripts/test
//! installs under CI with
//! `cargo install --locked hnefatafl-copenhagen --version 6.4.1 --no-default-features
//! --features server --bin hnefatafl-server --root ~/.cache/skald/hnefatafl-server`.
//! The test finds it at `$SKALD_HNEFATAFL_SERVER` or there; without it the test fails under CI
//! (`CI` set) and is skipped with a message elsewhere.
//!
//! Three skald bots play two whole games through the server: one joins games (`--accept`,
//! password from the environment), the others each open one (`--create`, password from a
//! file), on 11×11 and on 13×13. Moves are searched to a small depth (no wall-clock limit: the
//! games are untimed), so the games do not depend on the machine's speed. Checked: both bots end
//! with status 0 and agree on each result, and no password appears in anything they print
//! (their protocol logs included).
//!
//! A stand-in server on a free port (no install needed) checks the errors: an unreadable line
//! (malformed, or not UTF-8) and a closed connection end the bot with a clear `error: …`, and
//! the password is sent to the server but not printed; and the faults of a live connection: a
//! dropped connection and its reconnection, a server that goes silent without closing (a
//! half-open connection: pinged, then given up), a `play` line sent twice.
//!
//! The server's port (49152) is fixed in its source: the test waits for it to be free (another
//! run of this test), and its server's data live in a temporary HOME.

mod skip;

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const PORT: u16 = 49152;

/// Held by each test that runs the real server: its port is fixed, and a test that restarts it
/// must get it back.
static REAL_SERVER: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn real_server_lock() -> std::sync::MutexGuard<'static, ()> {
    REAL_SERVER.lock().unwrap_or_else(|e| e.into_inner())
}

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The server binary, or `None` (test `test` is skipped, [`skip::skipped`]) when it is not
/// installed.
fn server_binary(test: &str) -> Option<PathBuf> {
    let path = match std::env::var_os("SKALD_HNEFATAFL_SERVER") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(std::env::var_os("HOME")?)
            .join(".cache/skald/hnefatafl-server/bin/hnefatafl-server"),
    };
    if path.is_file() {
        return Some(path);
    }
    let message = format!(
        "no hnefatafl-server at {} (scripts/test installs it under CI; or set SKALD_HNEFATAFL_SERVER)",
        path.display()
    );
    assert!(!under_ci(), "{message}");
    skip::skipped(&format!("tests/bot.rs {test}"), &message);
    None
}

/// Kills the child when dropped (a failed test leaves no server behind).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A running `skald bot`: its standard error, line by line.
struct Bot {
    child: Killed,
    lines: Receiver<String>,
    log: Vec<String>,
}

impl Bot {
    fn start(args: &[&str], password_env: Option<&str>) -> Bot {
        let mut command = Command::new(env!("CARGO_BIN_EXE_skald"));
        command
            .arg("bot")
            .args(args)
            .env_remove("SKALD_BOT_PASSWORD")
            .env_remove("SKALD_BOT_USER")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(p) = password_env {
            command.env("SKALD_BOT_PASSWORD", p);
        }
        let mut child = command.spawn().expect("start skald bot");
        let (tx, lines) = channel();
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        Bot {
            child: Killed(child),
            lines,
            log: Vec::new(),
        }
    }

    /// Reads lines until one satisfies `pred` and returns it; panics after `timeout` or at the
    /// end of output.
    fn wait_for(&mut self, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let hit = pred(&line);
                    self.log.push(line.clone());
                    if hit {
                        return line;
                    }
                }
                Err(e) => panic!(
                    "skald bot: {e:?} waiting; its output:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Waits for the exit (reading all output) and returns whether it succeeded.
    fn finish(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.0.try_wait().unwrap() {
                while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(500)) {
                    self.log.push(line);
                }
                return status.success();
            }
            while let Ok(line) = self.lines.try_recv() {
                self.log.push(line);
            }
            assert!(
                Instant::now() < end,
                "skald bot did not finish; its output:\n{}",
                self.log.join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn text(&self) -> String {
        self.log.join("\n")
    }
}

fn port_free() -> bool {
    TcpListener::bind(("0.0.0.0", PORT)).is_ok()
}

/// Starts the server with its data in `home` and waits until it accepts connections.
fn start_server(binary: &PathBuf, home: &std::path::Path) -> Killed {
    let end = Instant::now() + Duration::from_secs(300);
    while !port_free() {
        assert!(
            Instant::now() < end,
            "port {PORT} (hnefatafl-server's, fixed in its source) stays in use"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let log = std::fs::File::create(home.join("server.log")).unwrap();
    let child = Command::new(binary)
        .arg("--skip-the-data-file")
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("start hnefatafl-server");
    let server = Killed(child);
    let end = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", PORT)).is_err() {
        assert!(Instant::now() < end, "hnefatafl-server does not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    server
}

#[test]
fn bots_play_whole_games_on_the_real_server() {
    let Some(binary) = server_binary("bots_play_whole_games_on_the_real_server") else {
        return;
    };
    let _lock = real_server_lock();
    let home = std::env::temp_dir().join(format!("skald-bot-test-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let _server = start_server(&binary, &home);
    let server = format!("127.0.0.1:{PORT}");
    let secrets = ["joiner-secret-1", "opener-secret-2", "opener-secret-3"];
    let limits = ["--depth", "2", "--hash", "8"];

    // The joiner logs in first: it learns of games opened after its login.
    let mut joiner_args = vec![
        "--server",
        &server,
        "--user",
        "skald-joiner",
        "--create-account",
        "--accept",
        "--side",
        "alternate",
        "--games",
        "2",
        "--verbose",
    ];
    joiner_args.extend(limits);
    let mut joiner = Bot::start(&joiner_args, Some(secrets[0]));
    joiner.wait_for(Duration::from_secs(60), |l| l.contains("logged in"));

    let mut openers = Vec::new();
    for (i, (board, role)) in [("11", "attacker"), ("13", "defender")].iter().enumerate() {
        let file = home.join(format!("password-{i}"));
        std::fs::write(&file, format!("{}\n", secrets[i + 1])).unwrap();
        let user = format!("skald-opener{board}");
        let mut args = vec![
            "--server",
            &server,
            "--user",
            &user,
            "--create-account",
            "--create",
            "--board",
            board,
            "--side",
            role,
            "--clock",
            "untimed",
            "--verbose",
            "--password-file",
        ];
        let file = file.to_str().unwrap().to_string();
        args.push(&file);
        args.extend(limits);
        let mut opener = Bot::start(&args, None);
        assert!(
            opener.finish(Duration::from_secs(600)),
            "the opener failed:\n{}\n-- the joiner:\n{}",
            opener.text(),
            joiner.text()
        );
        openers.push(opener);
    }
    assert!(
        joiner.finish(Duration::from_secs(120)),
        "the joiner failed:\n{}",
        joiner.text()
    );

    let joiner_text = joiner.text();
    println!("-- the joiner:\n{joiner_text}");
    for (i, opener) in openers.iter().enumerate() {
        let text = opener.text();
        println!("-- opener {i}:\n{text}");
        let over = text
            .lines()
            .find(|l| l.contains("over:"))
            .unwrap_or_else(|| panic!("no game over in:\n{text}"));
        // The joiner saw the same ending of the same game.
        let id = over.split_whitespace().nth(3).unwrap();
        let ending = |t: &str| {
            t.lines()
                .find(|l| l.contains(&format!("game {id} over:")))
                .map(|l| {
                    l.split(": ")
                        .nth(2)
                        .unwrap_or("")
                        .split(',')
                        .next()
                        .unwrap()
                        .to_string()
                })
        };
        assert_eq!(ending(&text), ending(&joiner_text), "game {id}");
        assert!(text.contains(&format!("{}×{}", ["11", "13"][i], ["11", "13"][i])));
        // Both sides' moves went through the server: the protocol log shows them.
        assert!(text.contains(&format!("-> game {id} play ")), "{text}");
        assert!(text.contains(&format!("<- game {id} play ")), "{text}");
    }
    assert!(joiner_text.contains("2 games:"), "{joiner_text}");
    for text in openers.iter().map(Bot::text).chain([joiner_text]) {
        for secret in secrets {
            assert!(!text.contains(secret), "a password was printed:\n{text}");
        }
        assert!(
            text.contains(" create_account skald-") && text.contains(" <password>"),
            "the login line is logged, redacted:\n{text}"
        );
        assert!(!text.contains("? game"), "a move was refused:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&home);
}

/// A stand-in server on a free port that answers the login, then sends `lines` and closes
/// (the bot runs with `--reconnect 0`, so it does not come back);
/// returns the bot's exit status and output, and what the bot sent.
fn against_fake_server(lines: &[&[u8]]) -> (bool, String, String) {
    use std::io::Write;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let lines: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut writer = stream;
        let mut login = String::new();
        reader.read_line(&mut login).unwrap();
        writer.write_all(b"= login\n").unwrap();
        for line in lines {
            writer.write_all(&line).unwrap();
        }
        let mut rest = String::new();
        let _ = writer.shutdown(std::net::Shutdown::Write);
        let _ = std::io::Read::read_to_string(&mut reader, &mut rest);
        login + &rest
    });
    let mut bot = Bot::start(
        &[
            "--server",
            &address,
            "--user",
            "skald",
            "--create",
            "--verbose",
            "--reconnect",
            "0",
        ],
        Some("fake-secret"),
    );
    let ok = bot.finish(Duration::from_secs(60));
    let sent = server.join().unwrap();
    (ok, bot.text(), sent)
}

#[test]
fn unreadable_server_lines_and_a_closed_connection_are_clear_errors() {
    let (ok, text, sent) =
        against_fake_server(&[b"version 6.4.1\n", b"game x generate_move attacker\n"]);
    assert!(!ok);
    assert!(
        text.contains(
            "error: unreadable line from the server: no game id in 'game x generate_move attacker'"
        ),
        "{text}"
    );
    // The password went to the server, and nowhere else.
    assert!(
        sent.starts_with("32d9a140 login skald fake-secret\n"),
        "{sent}"
    );
    assert!(sent.contains("new_game {"), "{sent}");
    assert!(!text.contains("fake-secret"), "{text}");

    let (ok, text, _) = against_fake_server(&[b"= new_game 0\n", b"\xff\xfe\n"]);
    assert!(!ok);
    assert!(
        text.contains("error: the server sent a line that is not UTF-8"),
        "{text}"
    );

    let (ok, text, _) = against_fake_server(&[b"= new_game 0\n"]);
    assert!(!ok);
    assert!(
        text.contains("error: the server closed the connection"),
        "{text}"
    );
}

/// One end of a connection the stand-in server accepted.
struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// Every line the bot sent on this connection.
    got: Vec<String>,
}

impl Peer {
    /// Reads lines until one starts with `prefix` and returns it; panics if the bot closes the
    /// connection first.
    fn expect(&mut self, prefix: &str) -> String {
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).unwrap_or(0);
            assert!(
                n > 0,
                "the bot closed the connection before sending '{prefix}…'; it sent:\n{}",
                self.got.join("\n")
            );
            let line = line.trim_end().to_string();
            self.got.push(line.clone());
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    fn send(&mut self, line: &str) {
        use std::io::Write;
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }
}

type Script = Box<dyn FnOnce(&mut Peer) + Send>;

/// A stand-in server on a free port that runs one script per connection it accepts, in order
/// (closing the connection when the script returns), then stops listening. Returns its address
/// and a handle that yields the lines the bot sent on each connection.
fn scripted_server(scripts: Vec<Script>) -> (String, std::thread::JoinHandle<Vec<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let handle = std::thread::spawn(move || {
        let mut sent = Vec::new();
        let count = scripts.len();
        for (i, script) in scripts.into_iter().enumerate() {
            let (stream, _) = listener.accept().unwrap();
            let mut peer = Peer {
                reader: BufReader::new(stream.try_clone().unwrap()),
                writer: stream,
                got: Vec::new(),
            };
            script(&mut peer);
            if i + 1 == count {
                // Nobody listens any more: a reconnection is refused.
                drop(listener);
                let _ = peer.writer.shutdown(std::net::Shutdown::Both);
                sent.push(peer.got);
                break;
            }
            let _ = peer.writer.shutdown(std::net::Shutdown::Both);
            sent.push(peer.got);
        }
        sent
    });
    (address, handle)
}

/// The first connection of the reconnection tests: skald logs in, opens game 5, bob joins,
/// skald (attackers) makes its first move, and the server drops the connection. Returns the
/// move as the server's `resume_game_json` writes it (`d1-d3`).
fn game_then_drop(peer: &mut Peer) -> String {
    game_then_drop_before(peer)
}

/// [`game_then_drop`] up to skald's first move (the connection not dropped).
fn game_then_drop_before(peer: &mut Peer) -> String {
    peer.expect("32d9a140 login skald ");
    peer.send("= login");
    peer.expect("new_game ");
    peer.send("= new_game 5");
    peer.send("= challenge_requested 5");
    peer.expect("join_game 5");
    peer.send("= join_game skald bob unrated un-timed _ _ 11");
    peer.send("game 5 generate_move attacker");
    let line = peer.expect("game 5 play attacker ");
    let words: Vec<&str> = line.split_whitespace().collect();
    format!("{}-{}", words[4], words[5])
}

fn reconnecting_bot(address: &str, extra: &[&str]) -> Bot {
    let mut args = vec![
        "--server",
        address,
        "--user",
        "skald",
        "--create",
        "--side",
        "attackers",
        "--clock",
        "untimed",
        "--depth",
        "1",
        "--hash",
        "1",
        "--verbose",
    ];
    args.extend(extra);
    Bot::start(&args, Some("fake-secret"))
}

#[test]
fn a_dropped_connection_is_reconnected_and_the_game_resumed() {
    let (tx, rx) = channel();
    let scripts: Vec<Script> = vec![
        Box::new(move |peer| tx.send(game_then_drop(peer)).unwrap()),
        Box::new(move |peer| {
            let first = rx.recv().unwrap();
            peer.expect("32d9a140 login skald fake-secret");
            peer.send("= login");
            peer.expect("ping");
            // The server lists the games in progress, whoever's turn it is, before `= ping`.
            peer.send("game 5 generate_move attacker");
            peer.send("= ping");
            peer.expect("resume_game_json 5");
            peer.expect("ping");
            peer.send(&format!(
                r#"= resume_game_json {{"id":5,"attackers":"skald","defenders":"bob","dim":11,"start":"","time_control":null,"time_remaining_ms":null,"moves":"{first}","rated":false,"messages":[]}}"#
            ));
            peer.send("= ping");
            peer.send("= game_over 5 attacker_wins");
            peer.expect("logout");
        }),
    ];
    let (address, server) = scripted_server(scripts);
    let mut bot = reconnecting_bot(&address, &[]);
    let ok = bot.finish(Duration::from_secs(120));
    let text = bot.text();
    let sent = server.join().expect("the stand-in server's script failed");
    assert!(ok, "{text}");
    assert!(
        text.contains(
            "skald bot: connection lost: the server closed the connection during game 5 (against \
             bob); reconnecting in 1 s (attempt 1 of 10)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "game 5 resumed after the reconnection: skald attacker against bob, 1 ply played, the \
             defenders to move"
        ),
        "{text}"
    );
    assert!(text.contains("1 game: 1 won, 0 drawn, 0 lost"), "{text}");
    // The listing's `generate_move` is not a turn: skald waits for bob's move.
    assert!(
        !sent[1].iter().any(|l| l.starts_with("game 5 play")),
        "{:?}",
        sent[1]
    );
    assert!(!text.contains("fake-secret"), "{text}");
}

/// A half-open connection: the server stops answering without closing it (a network that
/// failed silently). After `--keepalive` seconds of silence the bot sends `ping`; unanswered
/// as long again, the connection counts as lost and the reconnection starts (before, the bot
/// waited for a line forever).
#[test]
fn a_silent_server_is_pinged_then_given_up_and_reconnected() {
    let scripts: Vec<Script> = vec![
        Box::new(|peer| {
            peer.expect("32d9a140 login skald ");
            peer.send("= login");
            peer.expect("new_game ");
            peer.send("= new_game 5");
            // Silence from here: the bot's keepalive ping goes unanswered.
            peer.expect("ping");
            // The connection stays open until the bot drops it.
            let mut rest = String::new();
            let _ = std::io::Read::read_to_string(&mut peer.reader, &mut rest);
            peer.got.extend(rest.lines().map(str::to_string));
        }),
        Box::new(|peer| {
            peer.expect("32d9a140 login skald fake-secret");
            peer.send("= login");
            // The bot asks which of its games are in progress: none.
            peer.expect("ping");
            peer.send("= ping");
            peer.expect("leave_game 5");
        }),
    ];
    let (address, server) = scripted_server(scripts);
    let mut bot = reconnecting_bot(&address, &["--keepalive", "1", "--reconnect", "1"]);
    let ok = bot.finish(Duration::from_secs(60));
    let text = bot.text();
    let sent = server.join().expect("the stand-in server's script failed");
    // The server went away for good after the second connection: one try, then status 1.
    assert!(!ok, "{text}");
    assert!(
        text.contains(
            "skald bot: connection lost: no answer from the server for 2 s, a ping included (a \
             half-open connection); reconnecting in 1 s (attempt 1 of 1)"
        ),
        "{text}"
    );
    assert!(
        text.contains("game 5 did not start before the disconnect; looking again"),
        "{text}"
    );
    // One ping on the silent connection: the second silence gives up.
    assert_eq!(
        sent[0].iter().filter(|l| *l == "ping").count(),
        1,
        "{:?}",
        sent[0]
    );
}

/// The server sends the opponent's `play` line twice: the second, for the move just applied,
/// is skipped (before, it ended the game: "not legal by skald's rules"), and the game goes on.
#[test]
fn a_repeated_play_line_is_skipped() {
    let scripts: Vec<Script> = vec![Box::new(|peer| {
        let first = game_then_drop_before(peer);
        // A defenders' move that skald's first move cannot have blocked.
        let reply = if first.ends_with("-f9") || first.starts_with("f9") {
            "f4 f3"
        } else {
            "f8 f9"
        };
        peer.send(&format!("game 5 play defender {reply}"));
        peer.send(&format!("game 5 play defender {reply}"));
        peer.send("game 5 generate_move attacker");
        peer.expect("game 5 play attacker ");
        peer.send("= game_over 5 attacker_wins");
        peer.expect("logout");
    })];
    let (address, server) = scripted_server(scripts);
    let mut bot = reconnecting_bot(&address, &["--reconnect", "0"]);
    let ok = bot.finish(Duration::from_secs(60));
    let text = bot.text();
    server.join().expect("the stand-in server's script failed");
    assert!(ok, "{text}");
    assert!(
        text.contains("skald bot: game 5: the server sent the defenders' move ")
            && text.contains(" again; skipped (it is played already)"),
        "{text}"
    );
    assert!(text.contains("1 game: 1 won, 0 drawn, 0 lost"), "{text}");
}

#[test]
fn a_game_gone_on_reconnection_is_lost_to_the_disconnect() {
    let scripts: Vec<Script> = vec![
        Box::new(|peer| {
            game_then_drop(peer);
        }),
        Box::new(|peer| {
            peer.expect("32d9a140 login skald fake-secret");
            peer.send("= login");
            peer.expect("ping");
            // No game in progress: the server restarted, or the game ended meanwhile.
            peer.send("= ping");
            peer.expect("logout");
        }),
    ];
    let (address, server) = scripted_server(scripts);
    let mut bot = reconnecting_bot(&address, &[]);
    let ok = bot.finish(Duration::from_secs(120));
    let text = bot.text();
    server.join().expect("the stand-in server's script failed");
    assert!(ok, "{text}");
    assert!(
        text.contains("game 5 (against bob) is lost to the disconnect"),
        "{text}"
    );
    assert!(
        text.contains("1 game: 0 won, 0 drawn, 0 lost, 1 lost to a disconnect"),
        "{text}"
    );
}

#[test]
fn with_reconnect_0_a_dropped_connection_ends_the_bot() {
    let scripts: Vec<Script> = vec![Box::new(|peer| {
        game_then_drop(peer);
    })];
    let (address, server) = scripted_server(scripts);
    let mut bot = reconnecting_bot(&address, &["--reconnect", "0"]);
    let ok = bot.finish(Duration::from_secs(60));
    let text = bot.text();
    server.join().expect("the stand-in server's script failed");
    assert!(!ok, "{text}");
    assert!(
        text.contains("error: the server closed the connection during game 5 (against bob)"),
        "{text}"
    );
    assert!(!text.contains("reconnecting"), "{text}");
}

#[test]
fn reconnection_tries_are_bounded_and_a_failed_first_login_is_not_retried() {
    // The server goes away for good: two tries (after 1 s and 2 s), then status 1.
    let scripts: Vec<Script> = vec![Box::new(|peer| {
        peer.expect("32d9a140 login skald ");
        peer.send("= login");
        peer.expect("new_game ");
    })];
    let (address, server) = scripted_server(scripts);
    let mut bot = reconnecting_bot(&address, &["--reconnect", "2"]);
    let ok = bot.finish(Duration::from_secs(60));
    let text = bot.text();
    server.join().expect("the stand-in server's script failed");
    assert!(!ok, "{text}");
    assert!(
        text.contains(
            "connection lost: the server closed the connection; reconnecting in 1 s (attempt 1 of 2)"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("connection lost: cannot connect to {address}: "))
            && text.contains("reconnecting in 2 s (attempt 2 of 2)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "error: the connection to {address} is lost and 2 tries to reconnect failed"
        )),
        "{text}"
    );

    // A wrong password at the start: status 1 at once, no retry.
    let scripts: Vec<Script> = vec![Box::new(|peer| {
        peer.expect("32d9a140 login skald ");
        peer.send("? login multiple_possible_errors wrong_password");
    })];
    let (address, server) = scripted_server(scripts);
    let mut bot = reconnecting_bot(&address, &[]);
    let ok = bot.finish(Duration::from_secs(60));
    let text = bot.text();
    server.join().expect("the stand-in server's script failed");
    assert!(!ok, "{text}");
    assert!(text.contains("wrong_password"), "{text}");
    assert!(!text.contains("reconnecting"), "{text}");

    // No server at all at the start: status 1 at once.
    let mut bot = reconnecting_bot(&address, &[]);
    assert!(!bot.finish(Duration::from_secs(60)));
    assert!(
        bot.text().contains("error: cannot connect to"),
        "{}",
        bot.text()
    );
    assert!(!bot.text().contains("reconnecting"), "{}", bot.text());
}

/// A TCP relay on a free port to the real server, whose connections the test can cut (a network
/// failure, the server still up).
struct Relay {
    address: String,
    live: std::sync::Arc<std::sync::Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn start() -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let live = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let streams = live.clone();
        std::thread::spawn(move || {
            for down in listener.incoming() {
                let Ok(down) = down else { break };
                // The server down: the bot sees its connection closed at once.
                let Ok(up) = TcpStream::connect(("127.0.0.1", PORT)) else {
                    continue;
                };
                let mut list = streams.lock().unwrap();
                list.push(down.try_clone().unwrap());
                list.push(up.try_clone().unwrap());
                for (mut from, mut to) in [
                    (down.try_clone().unwrap(), up.try_clone().unwrap()),
                    (up, down),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Relay { address, live }
    }

    /// Cuts every connection through the relay.
    fn cut(&self) {
        for stream in self.live.lock().unwrap().drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A player the test itself logs in directly to the real server (creating its account).
fn log_in_player(name: &str) -> Peer {
    let stream = TcpStream::connect(("127.0.0.1", PORT)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut peer = Peer {
        reader: BufReader::new(stream.try_clone().unwrap()),
        writer: stream,
        got: Vec::new(),
    };
    peer.send(&format!("32d9a140 create_account {name} player-secret"));
    peer.expect("= login");
    peer
}

/// The game id in skald's `opened game ID, …` line.
fn opened_id(line: &str) -> String {
    line.split("opened game ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no game id in '{line}'"))
        .to_string()
}

/// The test's player joins skald's game `id` as the attackers and plays d1-d2; skald answers.
fn join_and_open(player: &mut Peer, id: &str) {
    player.send(&format!("join_game_pending {id}"));
    player.expect(&format!("game {id} generate_move attacker"));
    player.send(&format!("game {id} play attacker d1 d2"));
    player.expect(&format!("game {id} play defender "));
}

/// On the real server a quiet bot pings it (`--keepalive 1`): the server answers, the bot
/// takes the answer as a sign of life (twice: the second silence pings again instead of giving
/// the connection up), and the game then goes on as usual.
#[test]
fn the_real_server_answers_the_keepalive_ping() {
    let Some(binary) = server_binary("the_real_server_answers_the_keepalive_ping") else {
        return;
    };
    let _lock = real_server_lock();
    let home = std::env::temp_dir().join(format!("skald-bot-keepalive-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let _server = start_server(&binary, &home);
    let mut player = log_in_player("tester");
    let mut bot = Bot::start(
        &[
            "--user",
            "skald-quiet",
            "--create-account",
            "--create",
            "--side",
            "defenders",
            "--clock",
            "untimed",
            "--depth",
            "1",
            "--hash",
            "1",
            "--keepalive",
            "1",
            "--verbose",
        ],
        Some("bot-secret-5"),
    );
    let wait = Duration::from_secs(120);
    let id = opened_id(&bot.wait_for(wait, |l| l.contains("opened game ")));
    for _ in 0..2 {
        bot.wait_for(wait, |l| {
            l.starts_with("-> ping (nothing from the server for 1 s)")
        });
    }
    join_and_open(&mut player, &id);
    player.send(&format!("game {id} play attacker resigns _"));
    let ok = bot.finish(Duration::from_secs(120));
    let text = bot.text();
    assert!(ok, "{text}");
    assert!(!text.contains("connection lost"), "{text}");
    assert!(text.contains("1 game: 1 won, 0 drawn, 0 lost"), "{text}");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_bot_reconnects_to_the_real_server_and_resumes_or_writes_off_its_game() {
    let Some(binary) =
        server_binary("the_bot_reconnects_to_the_real_server_and_resumes_or_writes_off_its_game")
    else {
        return;
    };
    let _lock = real_server_lock();
    let home = std::env::temp_dir().join(format!("skald-bot-reconnect-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let server = start_server(&binary, &home);
    let relay = Relay::start();
    let mut player = log_in_player("tester");
    let mut bot = Bot::start(
        &[
            "--server",
            &relay.address,
            "--user",
            "skald-back",
            "--create-account",
            "--create",
            "--side",
            "defenders",
            "--clock",
            "untimed",
            "--depth",
            "1",
            "--hash",
            "1",
            "--games",
            "2",
            "--verbose",
        ],
        Some("bot-secret-4"),
    );
    let wait = Duration::from_secs(120);

    // Game 1: the connection is cut after a move each; the server keeps the game, the bot
    // comes back, asks for it, and answers the player's next move (d2-d1, legal whatever
    // skald played).
    let id = opened_id(&bot.wait_for(wait, |l| l.contains("opened game ")));
    join_and_open(&mut player, &id);
    relay.cut();
    player.send(&format!("game {id} play attacker d2 d1"));
    bot.wait_for(wait, |l| {
        l.contains(&format!("game {id} resumed after the reconnection"))
    });
    player.expect(&format!("game {id} play defender "));
    player.send(&format!("game {id} play attacker resigns _"));
    bot.wait_for(wait, |l| l.contains(&format!("game {id} over:")));

    // Game 2: the server restarts (its games are lost; --skip-the-data-file also forgets the
    // accounts, which --create-account makes again).
    let id = opened_id(&bot.wait_for(wait, |l| l.contains("opened game ")));
    join_and_open(&mut player, &id);
    drop(player);
    drop(server);
    let _server = start_server(&binary, &home);
    let ok = bot.finish(Duration::from_secs(300));
    let text = bot.text();
    println!("-- the bot:\n{text}");
    assert!(ok, "{text}");
    assert!(
        text.contains("reconnecting in 1 s (attempt 1 of 10)"),
        "{text}"
    );
    assert!(
        text.contains("resumed after the reconnection: skald defender against tester, 3 plies played, the defenders to move")
            || text.contains("resumed after the reconnection: skald defender against tester, 2 plies played, the attackers to move"),
        "{text}"
    );
    assert!(text.contains("skald won"), "{text}");
    assert!(
        text.contains(&format!(
            "game {id} (against tester) is lost to the disconnect"
        )),
        "{text}"
    );
    assert!(
        text.contains("2 games: 1 won, 0 drawn, 0 lost, 1 lost to a disconnect"),
        "{text}"
    );
    assert!(
        !text.contains("bot-secret-4"),
        "a password was printed:\n{text}"
    );
    let _ = std::fs::remove_dir_all(&home);
}
