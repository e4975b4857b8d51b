//! Whole games of `skald opentafl` against a scripted host that sends what OpenTafl 0.4.8's
//! host sends: `rules`, then each turn `opponent-move`, `clock`, `play`; `move <record>` after
//! each engine move; once per game the error sequence (`error 2`, `opponent-move` with the
//! previous move and the board, `clock`, `play`); `finish`; `goodbye`. The host keeps the true
//! game with the library and checks every engine move.

mod common;

use common::{EngineProcess, HUNG};
use skald::engine::new_tafl_session as new_session;
use skald::engine::session::Session;
use skald::game::Side;
use skald::tafl::opentafl::{fen_to_record, parse_rules};
use std::time::Duration;

const BRANDUB: &str =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const TABLUT: &str = "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
const TAWLBWRDD: &str = "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";
const COPENHAGEN: &str = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
/// OpenTafl's Berserk-like rules skald refuses (king jumps).
const REFUSED: &str = "dim:11 name:Jumpy atkf:y kj:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
const SKALD_BRANDUBH: &str =
    "dim:7 name:brandubh surf:n tfr:i ks:c cenp:K cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const SKALD_TABLUT: &str = "dim:9 name:tablut esc:e surf:n ks:c cor: cens: cenh: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
const SKALD_TAWLBWRDD: &str = "dim:11 name:tawlbwrdd esc:e surf:n ks:c cor: cens: cenh: start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

fn side_name(s: Side) -> &'static str {
    if s == Side::First {
        "attackers"
    } else {
        "defenders"
    }
}

fn record(g: &dyn Session) -> String {
    fen_to_record(&g.fen())
}

/// The engine's move from its next `move` line.
fn engine_move(e: &mut EngineProcess) -> String {
    let line = e.expect(Duration::from_secs(20), |l| {
        l.starts_with("move ") || l.starts_with("error")
    });
    assert!(line.starts_with("move "), "engine said {line}");
    line["move ".len()..].to_string()
}

/// Writes the host's move in full OpenTafl notation now and then (piece letter, marks).
fn ot_notation(mv: &str, ply: usize) -> String {
    match ply % 3 {
        0 => mv.to_string(),
        1 => format!("t{mv}"),
        _ => format!("{mv}+"),
    }
}

/// Plays one game: skald plays `engine_side`, the host plays pseudo-random legal moves.
fn play_game(e: &mut EngineProcess, rules: &str, engine_side: Side, seed: u64, max_plies: usize) {
    let mut host = new_session(parse_rules(rules).unwrap()).unwrap();
    e.send(&format!("rules {rules}"));
    let mut rng = seed | 1;
    let mut last_host_move: Option<String> = None;
    let mut error_sent = false;
    let mut plies = 0;
    while !host.outcome().is_decided() && plies < max_plies {
        let side = host.side_to_move();
        if side == engine_side {
            // Some clocks are in overtime ('*'); some lines carry a trailing space.
            let clock = if plies % 4 == 1 {
                "clock 600* 600* 1 2 2"
            } else {
                "clock 1500 1500 0 0 0 "
            };
            e.send(clock);
            e.send(&format!("play {}", side_name(side)));
            let mv = engine_move(e);
            if !error_sent && plies >= 2 {
                // Pretend the move was illegal: the engine must play another one.
                error_sent = true;
                e.send("error 2");
                let prev = last_host_move.clone().unwrap();
                e.send(&format!("opponent-move {prev} {}", record(host.as_ref())));
                e.send("clock 1500 1500 0 0 0 ");
                e.send(&format!("play {}", side_name(side)));
                let again = engine_move(e);
                assert_ne!(again, mv, "the engine replayed a rejected move");
                host.play_text(&again)
                    .unwrap_or_else(|err| panic!("illegal engine move {again}: {err}"));
            } else {
                host.play_text(&mv)
                    .unwrap_or_else(|err| panic!("illegal engine move {mv}: {err}"));
            }
            e.send(&format!("move {}", record(host.as_ref())));
        } else {
            let moves = host.legal_moves();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize];
            host.play(mv).unwrap();
            let text = ot_notation(&mv.to_string(), plies);
            last_host_move = Some(text.clone());
            e.send(&format!("opponent-move {text} {}", record(host.as_ref())));
        }
        plies += 1;
    }
    e.send("finish 1");
    // The engine is still in step: it answers status with the final board.
    e.send("status");
    let status = e.expect(Duration::from_secs(10), |l| l.starts_with("status"));
    assert!(status.contains(&record(host.as_ref())), "{status}");
    assert!(
        !e.transcript.iter().any(|l| l.starts_with("error")),
        "{:?}",
        e.transcript
    );
}

fn play_variant(rules: &str, max_plies: usize) {
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect(Duration::from_secs(5), |l| l == "hello");
    play_game(&mut e, rules, Side::First, 7, max_plies);
    play_game(&mut e, rules, Side::Second, 11, max_plies);
    e.send("goodbye");
    assert!(e.wait_exit(Duration::from_secs(10)).success());
}

#[test]
fn opentafl_brandub() {
    play_variant(BRANDUB, 80);
}

#[test]
fn opentafl_tablut() {
    play_variant(TABLUT, 60);
}

#[test]
fn opentafl_tawlbwrdd() {
    play_variant(TAWLBWRDD, 60);
}

/// OpenTafl's built-in Copenhagen (sw:s, efe:y, tfr:w) plays through the scripted host.
#[test]
fn opentafl_copenhagen() {
    play_variant(COPENHAGEN, 40);
}

#[test]
fn skald_variants_as_rules_strings() {
    for r in [SKALD_BRANDUBH, SKALD_TABLUT, SKALD_TAWLBWRDD] {
        play_variant(r, 30);
    }
}

#[test]
fn bad_input_gets_error_lines() {
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect(Duration::from_secs(5), |l| l == "hello");
    e.send("play attackers");
    e.expect(Duration::from_secs(5), |l| l.starts_with("error 0"));
    e.send(&format!("rules {REFUSED}"));
    e.send("play attackers");
    let l = e.expect(Duration::from_secs(5), |l| l.starts_with("error"));
    assert!(l.starts_with("error -1") && l.contains("kj"), "{l}");
    e.send(&format!("rules {BRANDUB}"));
    e.send("frobnicate");
    e.expect(Duration::from_secs(5), |l| {
        l.starts_with("error 0") && l.contains("frobnicate")
    });
    e.send("position /3t3/");
    e.expect(Duration::from_secs(5), |l| l.starts_with("error 0"));
    e.send("clock 1 2");
    e.expect(Duration::from_secs(5), |l| l.starts_with("error 0"));
    // An illegal opponent move with a record: reported, and the record is trusted.
    e.send("opponent-move d1-d4 /4t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    e.expect(Duration::from_secs(5), |l| l.starts_with("error 0"));
    e.send("side attackers");
    e.send("position /4t2/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    e.send("analyze 3 0.2");
    let a = e.expect(Duration::from_secs(10), |l| l.starts_with("analysis"));
    let parts: Vec<&str> = a.split_whitespace().collect();
    assert_eq!(parts[1], "3", "{a}");
    assert_eq!(parts.len(), 2 + 2 * 3, "{a}");
    assert!(parts[3].parse::<i32>().is_ok(), "{a}");
    e.send("clock 1000 1000 0 0 0");
    e.send("play attackers");
    let mv = engine_move(&mut e);
    assert!(mv.contains('-'), "{mv}");
    e.send("goodbye");
    assert!(e.wait_exit(Duration::from_secs(10)).success());
}

/// `goodbye` during an `analyze` is read at once: the analysis (here an hour long) is
/// cancelled, no `analysis` line follows, and the engine exits; `status` is answered while the
/// analysis runs. (Before, the command loop sat in the search until it ended: an `analyze 1 4`
/// kept `goodbye` waiting 4 s.)
#[test]
fn goodbye_during_analyze_ends_at_once() {
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect(Duration::from_secs(5), |l| l == "hello");
    e.send(&format!("rules {BRANDUB}"));
    e.send("analyze 1 3600");
    e.send("status");
    e.expect(HUNG, |l| l.starts_with("status skald: "));
    e.send("goodbye");
    let rest = e.read_to_end();
    assert!(!rest.iter().any(|l| l.starts_with("analysis")), "{rest:?}");
    assert!(e.wait_exit(HUNG).success());
}

/// Issue 9, fault 5: OpenTafl 0.4.8 sends `rules` while it builds its game screen, and any
/// `status` or `error` line that arrives before the screen exists crashes it (a
/// NullPointerException in its host; its uncaught-exception handler exits). Refused rules are
/// therefore answered with nothing at `rules`, and the reason comes at the first `play`
/// (`status` + `error -1`: OpenTafl shows it in a dialog and ends the game) or `analyze`
/// (`status` + `error 0`: the dialog only, the player's game goes on).
#[test]
fn refused_rules_are_reported_when_the_game_screen_exists() {
    // A player engine, second to move: OpenTafl sends rules, then (game screen up) the
    // opponent's move, the clock and play.
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect(Duration::from_secs(5), |l| l == "hello");
    e.send(&format!("rules {REFUSED}"));
    e.send("opponent-move d1-d3 /3tttt4/5t5/3t7/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/");
    e.send("clock 60000 60000 0 0 0 ");
    e.send("play defenders");
    let status = e.expect(Duration::from_secs(5), |l| l.starts_with("status"));
    let error = e.expect(Duration::from_secs(5), |l| l.starts_with("error"));
    // Nothing came before the status line but hello: no error for the rules or the move.
    assert_eq!(e.transcript.len(), 3, "{:?}", e.transcript);
    assert!(
        status.contains("skald cannot play these rules") && status.contains("kj"),
        "{status}"
    );
    assert!(
        error.starts_with("error -1 skald cannot play these rules"),
        "{error}"
    );
    assert!(error.contains("kj"), "{error}");
    e.send("finish 2");
    // Playable rules afterwards are played.
    e.send(&format!("rules {BRANDUB}"));
    e.send("clock 1000 1000 0 0 0");
    e.send("play attackers");
    let mv = engine_move(&mut e);
    assert!(mv.contains('-'), "{mv}");
    e.send("goodbye");
    assert!(e.wait_exit(Duration::from_secs(10)).success());

    // The analysis engine: rules, then position, side, clock and analyze from the game screen.
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect(Duration::from_secs(5), |l| l == "hello");
    e.send(&format!("rules {}", COPENHAGEN.replace("dim:11", "dim:13")));
    e.send("position /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/");
    e.send("side attackers");
    e.send("clock 60000 60000 0 0 0");
    e.send("analyze 3 1");
    e.expect(Duration::from_secs(5), |l| {
        l.starts_with("status skald cannot")
    });
    let error = e.expect(Duration::from_secs(5), |l| l.starts_with("error"));
    assert!(
        error.starts_with("error 0 skald cannot play these rules"),
        "{error}"
    );
    assert_eq!(e.transcript.len(), 3, "{:?}", e.transcript);
    e.send("goodbye");
    assert!(e.wait_exit(Duration::from_secs(10)).success());
}

/// Issue 9, fault 3: while skald thinks, OpenTafl shows its `status` lines (depth, score,
/// principal variation); at least the final one comes with every move, before it.
#[test]
fn status_lines_while_thinking() {
    let mut e = EngineProcess::start(&["opentafl"]);
    e.expect(Duration::from_secs(5), |l| l == "hello");
    e.send(&format!("rules {BRANDUB}"));
    e.send("clock 300 300 0 0 0");
    e.send("play attackers");
    let mv = engine_move(&mut e);
    let statuses: Vec<&String> = e
        .transcript
        .iter()
        .filter(|l| l.starts_with("status skald depth "))
        .collect();
    let last = statuses.last().expect("a status line before the move");
    assert!(
        last.contains(" score ") && last.contains(" nodes "),
        "{last}"
    );
    assert!(last.contains(&format!(" pv {mv}")), "{last} / move {mv}");
    // A few a second at most: no more lines than quarter seconds of thinking, plus the last.
    assert!(statuses.len() <= 3, "{statuses:?}");
    e.send("move /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
    e.send("side attackers");
    e.send("analyze 2 0.3");
    e.expect(Duration::from_secs(10), |l| l.starts_with("analysis"));
    e.send("goodbye");
    assert!(e.wait_exit(Duration::from_secs(10)).success());
}
