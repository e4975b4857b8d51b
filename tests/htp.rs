//! `skald htp`, hnefatafl.org's Hnefatafl Text Protocol: whole Copenhagen games driven by a
//! scripted client over the real binary (the client keeps the true game with skald's library
//! and checks every answer), the form of each command's answer, and bad input (`? …`, never a
//! panic). Searches are bounded by depth, never by the clock.

mod common;

use common::EngineProcess;
use skald::engine::new_session;
use skald::engine::session::Session;
use skald::game::{Outcome, Side};
use skald::variant::Variant;
use std::time::Duration;

/// Reads one answer: the lines up to the blank line that ends it. The first line starts with
/// `= ` or `? `.
fn reply(e: &mut EngineProcess) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = e.expect(Duration::from_secs(60), |_| true);
        if line.is_empty() {
            assert!(!lines.is_empty(), "an answer began with a blank line");
            return lines;
        }
        lines.push(line);
    }
}

/// Sends `cmd` and returns its one-line answer.
fn ask(e: &mut EngineProcess, cmd: &str) -> String {
    e.send(cmd);
    let r = reply(e);
    assert_eq!(r.len(), 1, "{cmd}: {r:?}");
    r[0].clone()
}

fn role(side: Side) -> &'static str {
    match side {
        Side::First => "attacker",
        Side::Second => "defender",
    }
}

fn status(g: &dyn Session) -> &'static str {
    match g.outcome() {
        Outcome::Ongoing => "ongoing",
        Outcome::Decided { winner: None, .. } => "draw",
        Outcome::Decided {
            winner: Some(Side::First),
            ..
        } => "attacker_wins",
        Outcome::Decided {
            winner: Some(Side::Second),
            ..
        } => "defender_wins",
    }
}

/// The squares emptied by `mv` other than its origin, in board order, as HTP writes captures
/// (each followed by a space).
fn captures(before: &dyn Session, after: &dyn Session, mv: &str) -> String {
    let size = before.board_rows().len();
    let from = mv.split('-').next().unwrap();
    let mut s = String::new();
    for (r, (b, a)) in before
        .board_rows()
        .iter()
        .zip(after.board_rows())
        .enumerate()
    {
        for (c, (x, y)) in b.iter().zip(a).enumerate() {
            let sq = format!("{}{}", (b'a' + c as u8) as char, size - r);
            let king_taken = *x == Some('K')
                && matches!(
                    after.outcome(),
                    Outcome::Decided {
                        reason: skald::game::Reason::KingCaptured,
                        ..
                    }
                );
            if (x.is_some() && y.is_none() && sq != from) || king_taken {
                s.push_str(&sq);
                s.push(' ');
            }
        }
    }
    s
}

/// Plays one whole game: skald's `generate_move` for the roles in `engine_roles`, the client's
/// pseudo-random legal moves (`play`, captures checked) for the others, `final_status` after
/// every ply, until the game ends or `max_plies`. Returns the final status and the plies.
fn play_game(engine_roles: &[Side], seed: u64, max_plies: usize) -> (String, usize) {
    let mut e = EngineProcess::start(&["htp", "--depth", "2"]);
    assert_eq!(ask(&mut e, "board_size 11"), "= ");
    let mut game = new_session(Variant::Copenhagen);
    let mut rng = seed | 1;
    let mut plies = 0;
    while plies < max_plies {
        let side = game.side_to_move();
        if engine_roles.contains(&side) {
            let answer = ask(&mut e, &format!("generate_move {}", role(side)));
            let words: Vec<&str> = answer.split_whitespace().collect();
            assert_eq!(&words[..3], ["=", "play", role(side)], "{answer}");
            assert_eq!(words.len(), 5, "{answer}");
            let mv = format!("{}-{}", words[3], words[4]);
            game.play(&mv)
                .unwrap_or_else(|err| panic!("skald played {mv}, illegal: {err}"));
        } else {
            let moves = game.legal_moves();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = moves[(rng % moves.len() as u64) as usize].clone();
            let before = game.boxed_clone();
            game.play(&mv).unwrap();
            let (from, to) = mv.split_once('-').unwrap();
            // Roles and squares in varying case, as the protocol allows.
            let cmd = if plies % 2 == 0 {
                format!("play {} {from} {to}", role(side))
            } else {
                format!(
                    "play {} {} {}",
                    &role(side)[..1].to_ascii_uppercase(),
                    from.to_ascii_uppercase(),
                    to
                )
            };
            let answer = ask(&mut e, &cmd);
            assert_eq!(
                answer,
                format!("= {}", captures(before.as_ref(), game.as_ref(), &mv)),
                "{cmd}"
            );
        }
        plies += 1;
        let st = ask(&mut e, "final_status");
        assert_eq!(
            st,
            format!("= {}", status(game.as_ref())),
            "after ply {plies}"
        );
        if game.outcome().is_decided() {
            break;
        }
    }
    let last = ask(&mut e, "final_status");
    if game.outcome().is_decided() {
        assert!(ask(&mut e, "generate_move").starts_with("? "));
        assert!(ask(&mut e, "play attacker a4 a5").starts_with("? "));
    }
    assert_eq!(ask(&mut e, "quit"), "= ");
    assert!(e.wait_exit(Duration::from_secs(10)).success());
    (last[2..].to_string(), plies)
}

#[test]
fn skald_plays_a_whole_game_against_itself() {
    let (status, plies) = play_game(&[Side::First, Side::Second], 1, 200);
    // The 140-ply rule ends every Copenhagen game, at the latest on ply 142 (a move made after
    // more than 140 plies draws, as on hnefatafl.org).
    assert_ne!(status, "ongoing", "after {plies} plies");
    assert!(plies <= 142);
}

#[test]
fn skald_plays_whole_games_against_a_random_client() {
    for (seed, engine) in [(7, Side::First), (11, Side::Second)] {
        let (status, plies) = play_game(&[engine], seed, 200);
        assert_ne!(status, "ongoing", "after {plies} plies");
        // Against random moves skald wins.
        let won = match engine {
            Side::First => "attacker_wins",
            Side::Second => "defender_wins",
        };
        assert_eq!(status, won, "skald as {} ({plies} plies)", role(engine));
    }
}

#[test]
fn each_command_answers_in_its_form() {
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    assert_eq!(ask(&mut e, "protocol_version"), "= 1-beta");
    assert_eq!(ask(&mut e, "name"), "= skald");
    assert_eq!(
        ask(&mut e, "version"),
        format!("= {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(ask(&mut e, "known_command generate_move"), "= true");
    assert_eq!(ask(&mut e, "known_command genmove"), "= false");
    e.send("list_commands");
    let list = reply(&mut e);
    assert_eq!(list[0], "= ");
    for cmd in [
        "board_size",
        "final_status",
        "generate_move",
        "known_command",
        "list_commands",
        "name",
        "play",
        "play_undo",
        "protocol_version",
        "quit",
        "show_board",
        "show_board_open_tafl",
        "time_settings",
        "version",
    ] {
        assert!(list.iter().any(|l| l == cmd), "{cmd} missing: {list:?}");
        assert_eq!(ask(&mut e, &format!("known_command {cmd}")), "= true");
    }
    assert_eq!(ask(&mut e, "board_size 11"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= ongoing");
    // A capture: the defender on f4 between attackers on e4 and g4.
    assert_eq!(ask(&mut e, "play attacker a4 e4"), "= ");
    assert_eq!(ask(&mut e, "play defender e7 e9"), "= ");
    assert_eq!(ask(&mut e, "play a K4 G4"), "= f4 ");
    assert_eq!(ask(&mut e, "play_undo"), "= ");
    assert_eq!(ask(&mut e, "play a k4 g4"), "= f4 ");
    e.send("show_board");
    let board = reply(&mut e);
    assert_eq!(board[0], "= ");
    assert_eq!(board.len(), 13, "{board:?}");
    assert!(board[1].starts_with("11 "), "{board:?}");
    assert!(board[12].contains("a b c d e f g h i j k"), "{board:?}");
    let from = ask(&mut e, "play_from");
    assert!(from.starts_with("= defender "), "{from}");
    let to = ask(&mut e, "play_to defender e9");
    let mut to: Vec<&str> = to.split_whitespace().skip(1).collect();
    to.sort();
    assert_eq!(
        to,
        [
            "a9", "b9", "c9", "d9", "e10", "e7", "e8", "f9", "g9", "h9", "i9", "j9", "k9"
        ]
    );
    let generated = ask(&mut e, "generate_move");
    assert!(generated.starts_with("= play defender "), "{generated}");
    assert_eq!(ask(&mut e, "play_undo"), "= ");
    assert_eq!(ask(&mut e, "play defender resign"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= attacker_wins");
    assert_eq!(ask(&mut e, "play_undo"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= ongoing");
    assert_eq!(
        ask(&mut e, "play attacker resigns"),
        "? play: you can't resign for the other player"
    );
    // time_settings starts a new game.
    assert_eq!(ask(&mut e, "time_settings fischer 1 2"), "= ");
    assert_eq!(
        ask(&mut e, "play_undo"),
        "? play undo: it is the first move"
    );
    let generated = ask(&mut e, "generate_move attacker");
    assert!(generated.starts_with("= play attacker "), "{generated}");
    assert_eq!(ask(&mut e, "time_settings un-timed"), "= ");
    assert_eq!(ask(&mut e, "first_move defender"), "= ");
    assert!(ask(&mut e, "generate_move").starts_with("= play defender "));
    // Comments and empty lines get no answer.
    e.send("");
    e.send("   # nothing");
    assert_eq!(ask(&mut e, "final_status # a comment"), "= ongoing");
    assert_eq!(ask(&mut e, "quit"), "= ");
    assert!(e.wait_exit(Duration::from_secs(10)).success());
}

#[test]
fn a_defender_move_that_repeats_a_position_is_refused() {
    // Attackers a4-b4, defenders f8-f9, attackers b4-a4: f9-f8 would bring back the start
    // position; the reference answers the same.
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    for cmd in ["play a a4 b4", "play d f8 f9", "play a b4 a4"] {
        assert_eq!(ask(&mut e, cmd), "= ", "{cmd}");
    }
    let to = ask(&mut e, "play_to defender f9");
    assert!(!to.split_whitespace().any(|s| s == "f8"), "{to}");
    assert_eq!(
        ask(&mut e, "play defender f9 f8"),
        "? play: you already reached that position"
    );
    assert_eq!(ask(&mut e, "final_status"), "= ongoing");
    assert_eq!(ask(&mut e, "play defender f9 e9"), "= ");
}

/// The reference compares the board a defender move makes *before* its captures: game 873 of
/// aagenielsen.dk (tests/data/copenhagen), whose 72nd ply e2-f2 captures f3 but would bring
/// back an earlier board first, is refused at that ply, as hnefatafl-copenhagen 6.4.1 refuses
/// it.
#[test]
fn a_repetition_hidden_by_a_capture_is_refused() {
    let games = include_str!("data/copenhagen/aagenielsen.csv");
    let line = games.lines().nth(872).unwrap();
    let moves: Vec<&str> = line.split(',').next().unwrap().split_whitespace().collect();
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    for (i, m) in moves.iter().take(71).enumerate() {
        let (from, to) = m.split('x').next().unwrap().split_once('-').unwrap();
        let role = if i % 2 == 0 { "attacker" } else { "defender" };
        let answer = ask(&mut e, &format!("play {role} {from} {to}"));
        assert!(answer.starts_with('='), "ply {}: {m}: {answer}", i + 1);
    }
    assert_eq!(moves[71], "e2-f2xf3");
    assert_eq!(
        ask(&mut e, "play defender e2 f2"),
        "? play: you already reached that position"
    );
    let to = ask(&mut e, "play_to defender e2");
    assert!(!to.split_whitespace().any(|s| s == "f2"), "{to}");
}

#[test]
fn board_size_13_selects_copenhagen13_or_says_it_is_not_supported() {
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    let answer = ask(&mut e, "board_size 13");
    if "copenhagen13".parse::<Variant>().is_ok() {
        assert_eq!(answer, "= ");
        let generated = ask(&mut e, "generate_move");
        let words: Vec<&str> = generated.split_whitespace().collect();
        assert_eq!(&words[..3], ["=", "play", "attacker"], "{generated}");
        // Squares are upper case on 13×13.
        assert!(
            words[3].starts_with(|c: char| c.is_ascii_uppercase()),
            "{generated}"
        );
    } else {
        assert!(
            answer.starts_with("? board_size: 13×13 is not supported"),
            "{answer}"
        );
        assert_eq!(ask(&mut e, "final_status"), "= ongoing");
    }
}

#[test]
fn bad_input_is_answered_with_an_error_and_never_ends_the_engine() {
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    for bad in [
        "genmove",
        "board_size",
        "board_size 9",
        "board_size eleven",
        "board_size 99999999999999999999",
        "known_command",
        "play",
        "play attacker",
        "play attacker a4",
        "play king a4 a5",
        "play defender a4 a5",
        "play attacker a4 a4",
        "play attacker a4 b5",
        "play attacker a4 a12",
        "play attacker l1 l2",
        "play attacker a0 a1",
        "play attacker a-1 a1",
        "play attacker 4a a5",
        "play attacker é4 a5",
        "play attacker a44444444444444444444 a5",
        "play attacker a4 e4 extra words are ignored? no: a4-e4 is legal",
        "play_to",
        "play_to attacker",
        "play_to attacker z1",
        "play_to defender f4",
        "play_to attacker f1",
        "play_undo",
        "first_move nobody",
        "time_settings",
        "time_settings fischer",
        "time_settings fischer 5",
        "time_settings fischer -5 3",
        "time_settings fischer 5 x",
        "time_settings byoyomi 5 3",
        "generate_move nobody",
        "generate_move defender",
        "\u{0}\u{1}\u{7f}",
        "ΑΒΓ",
    ] {
        e.send(bad);
        let r = reply(&mut e);
        // One line: `?` and a message, or `=` for the few lines above that are valid.
        assert_eq!(r.len(), 1, "{bad:?}: {r:?}");
        let ok_forms = bad.starts_with("play attacker a4 e4");
        if ok_forms {
            assert_eq!(r[0], "= ", "{bad:?}");
            assert_eq!(ask(&mut e, "play_undo"), "= ");
        } else {
            assert!(r[0].starts_with("? ") && r[0].len() > 2, "{bad:?}: {r:?}");
        }
    }
    assert_eq!(ask(&mut e, "final_status"), "= ongoing");
    assert_eq!(ask(&mut e, "name"), "= skald");
    // End of input ends the engine.
    e.close_stdin();
    assert!(e.wait_exit(Duration::from_secs(10)).success());
}

mod fuzz {
    //! Random command lines (HTP words, roles, squares, numbers and junk) fed in-process to
    //! `Htp::handle_line`: every line that is not empty or a comment gets exactly one answer,
    //! `= …` or `? …` and an empty line, and nothing panics (the guard's "internal error"
    //! answer fails too).

    use proptest::prelude::*;
    use skald::engine::Engine;
    use skald::protocol::Output;
    use skald::protocol::htp::{Htp, Settings};

    const WORDS: &[&str] = &[
        "board_size",
        "final_status",
        "first_move",
        "generate_move",
        "known_command",
        "list_commands",
        "name",
        "play",
        "play_from",
        "play_to",
        "play_undo",
        "protocol_version",
        "show_board",
        "time_settings",
        "version",
        "fischer",
        "un-timed",
        "attacker",
        "defender",
        "a",
        "d",
        "A",
        "resign",
        "resigns",
        "11",
        "13",
        "7",
        "0",
        "-1",
        "99999999999999999999",
        "a4",
        "e4",
        "k4",
        "g4",
        "d1",
        "d3",
        "f6",
        "M13",
        "a0",
        "z9",
        "#",
        "é",
        "\u{0}",
    ];

    fn line() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                6 => prop::sample::select(WORDS).prop_map(str::to_string),
                1 => "[a-m][0-9]{1,2}",
                1 => "\\PC{0,6}",
            ],
            0..5,
        )
        .prop_map(|w| w.join(" "))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn every_line_gets_one_answer(lines in prop::collection::vec(line(), 1..30)) {
            let (output, buf) = Output::captured();
            let mut htp = Htp::new(
                output,
                Engine::new().unwrap(),
                Settings { depth: Some(1), ..Settings::default() },
            );
            for l in &lines {
                if l.split('#').next().unwrap().split_whitespace().next().is_none() {
                    continue;
                }
                buf.take();
                htp.handle_line(l);
                let out = buf.take();
                prop_assert!(out.starts_with("= ") || out.starts_with("? "), "{l:?}: {out:?}");
                prop_assert!(out.ends_with("\n\n"), "{l:?}: {out:?}");
                prop_assert_eq!(out.matches("\n\n").count(), 1, "{:?}: {:?}", l, out);
                prop_assert!(!out.contains("internal error"), "{l:?}: {out:?}");
            }
        }
    }
}

/// `board_size 7`: hnefatafl.org's 7×7 Copenhagen board (brandubh's start, the defenders move
/// first, squares in lower case; its rules are tested in `tests/tafl_rules.rs`).
#[test]
fn board_size_7_plays_hnefatafl_orgs_7x7_board() {
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    assert_eq!(ask(&mut e, "board_size 7"), "= ");
    assert_eq!(
        ask(&mut e, "show_board_open_tafl"),
        "= /3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/"
    );
    e.send("show_board");
    let board = reply(&mut e);
    assert_eq!(board.len(), 9, "{board:?}");
    assert!(board[1].starts_with("7 "), "{board:?}");
    let from = ask(&mut e, "play_from");
    let mut from: Vec<&str> = from.split_whitespace().collect();
    from[2..].sort();
    assert_eq!(from, ["=", "defender", "c4", "d3", "d5", "e4"]);
    assert_eq!(
        ask(&mut e, "play attacker d2 c2"),
        "? play: it isn't your turn (defender to move)"
    );
    // 7 + . . A . . +
    // 6 . . . A . . .
    // 5 . D . . . . .
    // 4 A A D K D A A
    // 3 . D . . . . .     d3-b3, d2-c2, then d5-b5 captures b4 between b3 and b5.
    // 2 . . . A . . .
    // 1 + . . A . . +
    assert_eq!(ask(&mut e, "play defender d3 b3"), "= ");
    assert_eq!(ask(&mut e, "play attacker d2 c2"), "= ");
    assert_eq!(ask(&mut e, "play d D5 B5"), "= b4 ");
    assert_eq!(
        ask(&mut e, "show_board_open_tafl"),
        "= /3A3/3A3/1D5/A1DKDAA/1D5/2A4/3A3/"
    );
    let generated = ask(&mut e, "generate_move");
    let words: Vec<&str> = generated.split_whitespace().collect();
    assert_eq!(&words[..3], ["=", "play", "attacker"], "{generated}");
    for sq in &words[3..] {
        assert!(
            sq.len() == 2 && matches!(sq.as_bytes()[0], b'a'..=b'g'),
            "{generated}"
        );
    }
    // first_move gives the attackers the first move on the same board.
    assert_eq!(ask(&mut e, "first_move attacker"), "= ");
    assert!(ask(&mut e, "play_from").starts_with("= attacker "));
    assert_eq!(ask(&mut e, "play attacker d2 c2"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= ongoing");
}

/// `show_board_open_tafl` as hnefatafl.org writes it (`Board::open_tafl_serialize`): ranks top
/// first, each after a `/`, a final `/`, `A`/`D`/`K` and runs of empty squares.
#[test]
fn show_board_open_tafl_answers_as_the_reference() {
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    assert_eq!(
        ask(&mut e, "show_board_open_tafl"),
        "= /3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/"
    );
    for cmd in ["play attacker a4 e4", "play defender e7 e9", "play a k4 g4"] {
        ask(&mut e, cmd);
    }
    assert_eq!(
        ask(&mut e, "show_board_open_tafl"),
        "= /3AAAAA3/5A5/4D6/A4D4A/A4DD3A/AA1DDKDD1AA/A3DDD3A/4A1A4/11/5A5/3AAAAA3/"
    );
    assert_eq!(ask(&mut e, "board_size 13"), "= ");
    assert_eq!(
        ask(&mut e, "show_board_open_tafl"),
        "= /3AAAAAAA3/6A6/13/A5D5A/A5D5A/A4DDD4A/AA1DDDKDDD1AA/A4DDD4A/A5D5A/A5D5A/13/6A6/3AAAAAAA3/"
    );
}

/// `play ROLE resigns`: only the side to move may resign; the game is over and the other side
/// has won, on every board (`play_undo` takes the resignation back).
#[test]
fn play_role_resigns_ends_the_game_on_every_board() {
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    for (size, first, second) in [
        (7, "defender", "attacker"),
        (11, "attacker", "defender"),
        (13, "attacker", "defender"),
    ] {
        assert_eq!(ask(&mut e, &format!("board_size {size}")), "= ");
        assert_eq!(
            ask(&mut e, &format!("play {second} resigns")),
            "? play: you can't resign for the other player"
        );
        assert_eq!(ask(&mut e, &format!("play {first} resigns")), "= ");
        assert_eq!(
            ask(&mut e, "final_status"),
            format!("= {second}_wins"),
            "{size}"
        );
        assert_eq!(ask(&mut e, "play_from"), "? play: the game is already over");
        assert!(ask(&mut e, "generate_move").starts_with("? "));
        assert_eq!(ask(&mut e, "play_undo"), "= ");
        assert_eq!(ask(&mut e, "final_status"), "= ongoing");
    }
}

/// Under `time_settings fischer`, hnefatafl.org judges the clock of the side to move when a
/// `play` arrives (`Game::play`): out of time, that side loses and the move is not played; the
/// answer is `= ` (no captures). Its `generate_move` answers the move found, which is then not
/// played. `fischer 0 0` leaves no time at all, so nothing here depends on the machine's speed.
#[test]
fn a_side_out_of_time_loses_when_its_move_arrives() {
    const START: &str = "= /3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/";
    let mut e = EngineProcess::start(&["htp", "--depth", "1"]);
    assert_eq!(ask(&mut e, "time_settings fischer 0 0"), "= ");
    assert_eq!(ask(&mut e, "play attacker a4 e4"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= defender_wins");
    assert_eq!(ask(&mut e, "show_board_open_tafl"), START);
    assert_eq!(
        ask(&mut e, "play attacker a4 e4"),
        "? play: the game is already over"
    );
    assert!(ask(&mut e, "generate_move").starts_with("? "));
    // play_undo takes the loss back (the clock stays empty).
    assert_eq!(ask(&mut e, "play_undo"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= ongoing");
    let generated = ask(&mut e, "generate_move");
    assert!(generated.starts_with("= play attacker "), "{generated}");
    assert_eq!(ask(&mut e, "final_status"), "= defender_wins");
    assert_eq!(ask(&mut e, "show_board_open_tafl"), START);
    // The defenders lose on time alike, and the clock is judged before the move is.
    assert_eq!(ask(&mut e, "first_move defender"), "= ");
    assert_eq!(ask(&mut e, "play defender a4 a5"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= attacker_wins");
    // Un-timed, nobody runs out of time.
    assert_eq!(ask(&mut e, "time_settings un-timed"), "= ");
    assert_eq!(ask(&mut e, "play attacker a4 e4"), "= ");
    assert_eq!(ask(&mut e, "final_status"), "= ongoing");
}
