//! hnefatafl.org's game-server protocol, as a bot account speaks it: the `hnefatafl-server` of
//! the hnefatafl-copenhagen project (6.4.1, login version [`VERSION_ID`]), TCP port
//! [`DEFAULT_PORT`]. This module only parses the server's lines and formats the bot's; `skald
//! bot` drives the connection and the engine. The exact exchange is in docs/servers.md.
//!
//! One message a line each way (UTF-8, `\n`). Answers to the bot's commands start with `= `
//! (done) or `? ` (refused); the server's own messages (`game ID generate_move ROLE`,
//! `game ID play ROLE FROM TO`) have no prefix. A session, `->` the bot, `<-` the server:
//!
//! ```text
//! -> 32d9a140 login NAME PASSWORD          (create_account instead of login makes the account)
//! <- = login
//! -> new_game {"role":"Attacker","rated":false,"time_settings":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"board_size":11}
//! <- = new_game 0
//! <- = challenge_requested 0               (someone asked to play game 0)
//! -> join_game 0                           (accepted: the game starts)
//! <- = join_game NAME OTHER unrated fischer 900000 10 11
//! <- game 0 generate_move attacker
//! -> game 0 play attacker d1 d3
//! <- = game
//! <- = game_time {"id":0,"attacker_ms_left":899000,"defender_ms_left":900000}
//! <- game 0 play defender h6 h3            (the other side's move)
//! <- = game_over 0 attacker_wins           (or `= draw accept`)
//! ```
//!
//! A bot that joins another's game instead reads the open games from `= games_updated JSON`
//! (sent to every client when the list changes) and asks with `join_game_pending ID`; the game
//! starts when the creator accepts. Squares are written as HTP writes them ([`crate::tafl::hnefatafl`]):
//! lower-case files on 11×11, upper case on 13×13; the attackers move first.
//!
//! # A dropped connection
//!
//! What the server (6.4.1) does when a player's connection ends without `logout` (read from its
//! source, `src/bin/hnefatafl-server/main.rs`, and checked against the running server by
//! tests/bot.rs):
//!
//! - The account is logged out at once (its reader sees the end of the stream). A game the
//!   player had *opened* and nobody had joined yet is withdrawn if its clock is under a day
//!   (a longer or untimed one stays open, in the player's name); a request to join is dropped.
//! - A game **in progress survives**: nothing ends it, the opponent may go on moving, and the
//!   absent player's clock keeps running (a timed game is lost on time, an untimed one after
//!   seven days without a move). The server's messages for that game (the opponent's moves,
//!   `generate_move`, `game_time`, `game_over`) go to the dead connection and are lost; they are
//!   not queued.
//! - Logging in again, the player gets `game ID generate_move ROLE` for **every** game in
//!   progress in which they sit, whoever's turn it is (the server's `resume_games`), after the
//!   other greetings (`initialize_display`, `version`, …). Nothing else about the game is
//!   resent until the player asks: `resume_game_json ID` answers
//!   `= resume_game_json {…}` ([`ResumedGame`]: the players, the board size, every move so far,
//!   both clocks) and routes the game's messages to the new connection from then on. Without it
//!   the player gets nothing more of the game. A game that ended while the player was away is no
//!   longer in progress: no `generate_move` for it, and its result is not resent (the open-game
//!   list only marks it over).
//! - A server **restart** loses every game (open or in progress: they live only in memory) and
//!   starts game ids again from where its data file left them (from 0 with
//!   `--skip-the-data-file`, which also forgets the accounts). Accounts and ratings are kept in
//!   the data file.
//! - Logging in while the server still counts the account as logged in (it has not yet noticed
//!   that the old connection died) is refused with `logged_in_already`; logging in again within
//!   a second of a failed try, with `retried_too_soon` (the wait grows with each wrong password).
//! - `ping` is answered `= ping`, in order with everything else the server sends that client:
//!   after a login, the answer comes after all the `resume_games` lines.

pub use super::games::{GameId, GameSettings, ResumedGame, ServerGame, TimeControl};
use super::games::{
    parse_board_size, parse_games_updated, parse_initialize_display, parse_resumed_game, shorten,
};
use crate::engine::Side;
use serde_json::Value;

/// The login version hnefatafl-copenhagen 6.4.1's server expects first on the login line (its
/// `VERSION_ID`); another version is refused with `? login wrong_version`.
pub const VERSION_ID: &str = "32d9a140";

/// The server's TCP port (fixed in its source).
pub const DEFAULT_PORT: u16 = 49152;

/// The longest account name the server accepts, bytes.
pub const MAX_USERNAME_LEN: usize = 16;

/// The longest password the server accepts, bytes.
pub const MAX_PASSWORD_LEN: usize = 32;

/// A move as the server writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerPlay {
    /// From one square to another, as written (`d1`, `D1`): read them with
    /// [`crate::tafl::hnefatafl::parse_square`] for the game's board size.
    Move {
        /// The square moved from.
        from: String,
        /// The square moved to.
        to: String,
    },
    /// The side resigned (also how the server ends a game lost on time).
    Resigns,
}

/// One line from the server, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerLine {
    /// `= login`: logged in (also the answer to `create_account`).
    LoggedIn,
    /// `? login …` or `? create_account …`: refused, with the server's reason.
    LoginRefused(String),
    /// `= new_game ID`: the game the bot asked for is open.
    GameCreated(GameId),
    /// `= join_game_pending ID`: the bot's request to join is waiting for the creator.
    JoinPending(GameId),
    /// `= challenge_requested ID`: someone asks to play the bot's open game.
    ChallengeRequested(GameId),
    /// `= join_game ATTACKER DEFENDER RATED TIME… SIZE`: a game of the bot's has started.
    GameStarted {
        /// The attackers' player.
        attacker: String,
        /// The defenders' player.
        defender: String,
        /// Whether it is rated.
        rated: bool,
        /// Its clocks.
        time: TimeControl,
        /// 7, 11 or 13.
        board_size: u8,
    },
    /// `game ID generate_move ROLE`: the bot's turn.
    GenerateMove {
        /// The game.
        id: GameId,
        /// The side to move.
        side: Side,
    },
    /// `game ID play ROLE FROM TO` or `game ID play ROLE resigns …`: a move of the game.
    Played {
        /// The game.
        id: GameId,
        /// The side that moved.
        side: Side,
        /// The move.
        play: ServerPlay,
    },
    /// `= game_time JSON`: both clocks after a move, ms.
    GameTime {
        /// The game.
        id: GameId,
        /// The attackers' time left, ms.
        attacker_ms: i64,
        /// The defenders' time left, ms.
        defender_ms: i64,
    },
    /// `= game_over ID attacker_wins|defender_wins`.
    GameOver {
        /// The game.
        id: GameId,
        /// The side that won.
        winner: Side,
    },
    /// `= draw accept`: the game ended drawn (the server does not say which game).
    DrawAccepted,
    /// `request_draw ID ROLE`: that side offers a draw.
    DrawOffered {
        /// The game.
        id: GameId,
        /// The side offering.
        side: Side,
    },
    /// `= games_updated JSON`: games opened or changed, and the ids of games gone.
    GamesUpdated {
        /// New games and changed ones.
        games: Vec<ServerGame>,
        /// Games removed from the list (ended or withdrawn).
        removed: Vec<GameId>,
    },
    /// `= initialize_display RON`, right after the login: the games on the server then (those
    /// that can be read; the rest of the message, the user list, is skipped).
    OpenGames(Vec<ServerGame>),
    /// `= game`: the bot's move was played.
    MoveAccepted,
    /// `= ping`: the answer to `ping` (after everything the server sent the bot before it).
    Pong,
    /// `= resume_game_json JSON`: a game in progress, resent on the bot's `resume_game_json ID`.
    ResumedGame(ResumedGame),
    /// `? COMMAND REASON`: a command of the bot's refused (other than the login).
    Refused {
        /// The command refused (`game`, `join_game_pending`, …).
        command: String,
        /// The rest of the line.
        reason: String,
    },
    /// Anything else (chat, user lists, the server's version…): nothing for a bot.
    Other,
}

fn parse_id(text: Option<&&str>, line: &str) -> Result<GameId, String> {
    text.and_then(|t| t.parse().ok())
        .ok_or_else(|| format!("no game id in '{}'", shorten(line)))
}

fn parse_side(text: Option<&&str>, line: &str) -> Result<Side, String> {
    match text.map(|t| t.to_ascii_lowercase()).as_deref() {
        Some("attacker") => Ok(Side::First),
        Some("defender") => Ok(Side::Second),
        _ => Err(format!("no role in '{}'", shorten(line))),
    }
}

/// The clocks in a `join_game` line: `fischer MS ADD` or `un-timed _ _`.
fn parse_time_words(words: &[&str], line: &str) -> Result<TimeControl, String> {
    match words {
        ["fischer", ms, add] => match (ms.parse::<u64>(), add.parse::<u64>()) {
            (Ok(start_ms), Ok(add_seconds)) => Ok(TimeControl::Fischer {
                start_ms,
                add_seconds,
            }),
            _ => Err(format!("bad clocks in '{}'", shorten(line))),
        },
        ["un-timed", ..] => Ok(TimeControl::Untimed),
        _ => Err(format!("bad clocks in '{}'", shorten(line))),
    }
}

/// Reads one line from the server (without its newline). Lines of a kind a bot needs that do
/// not have the expected shape are errors (the message quotes the line, cut short); lines of
/// other kinds are [`ServerLine::Other`].
pub fn parse_line(line: &str) -> Result<ServerLine, String> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    match words.as_slice() {
        ["=", "login", ..] => Ok(ServerLine::LoggedIn),
        ["?", "login" | "create_account", rest @ ..] => {
            Ok(ServerLine::LoginRefused(rest.join(" ")))
        }
        ["=", "new_game", id, ..] => Ok(ServerLine::GameCreated(parse_id(Some(id), line)?)),
        ["=", "join_game_pending", id, ..] => {
            Ok(ServerLine::JoinPending(parse_id(Some(id), line)?))
        }
        ["=", "challenge_requested", id, ..] => {
            Ok(ServerLine::ChallengeRequested(parse_id(Some(id), line)?))
        }
        ["=", "join_game", attacker, defender, rated, time @ .., size] if time.len() == 3 => {
            let rated = match *rated {
                "rated" => true,
                "unrated" => false,
                _ => return Err(format!("bad join_game line '{}'", shorten(line))),
            };
            Ok(ServerLine::GameStarted {
                attacker: attacker.to_string(),
                defender: defender.to_string(),
                rated,
                time: parse_time_words(time, line)?,
                board_size: parse_board_size(size, line)?,
            })
        }
        ["=", "join_game", ..] => Err(format!("bad join_game line '{}'", shorten(line))),
        ["game", id, "generate_move", rest @ ..] => Ok(ServerLine::GenerateMove {
            id: parse_id(Some(id), line)?,
            side: parse_side(rest.first(), line)?,
        }),
        ["game", id, "play", role, rest @ ..] => {
            let id = parse_id(Some(id), line)?;
            let side = parse_side(Some(role), line)?;
            let play = match rest {
                ["resigns", ..] => ServerPlay::Resigns,
                [from, to, ..] => ServerPlay::Move {
                    from: from.to_string(),
                    to: to.to_string(),
                },
                _ => return Err(format!("bad play line '{}'", shorten(line))),
            };
            Ok(ServerLine::Played { id, side, play })
        }
        ["game", ..] => Err(format!("bad game line '{}'", shorten(line))),
        ["=", "game"] => Ok(ServerLine::MoveAccepted),
        ["=", "ping", ..] => Ok(ServerLine::Pong),
        ["=", "resume_game_json", ..] => {
            let json = line.split_once("resume_game_json").map_or("", |(_, j)| j);
            parse_resumed_game(json.trim())
                .map(ServerLine::ResumedGame)
                .ok_or_else(|| format!("unreadable resume_game_json: '{}'", shorten(line)))
        }
        ["=", "game_time", ..] => {
            let json = line.split_once("game_time").map_or("", |(_, j)| j);
            let value: Value = serde_json::from_str(json.trim())
                .map_err(|_| format!("unreadable game_time: '{}'", shorten(line)))?;
            let get = |k: &str| value.get(k).and_then(Value::as_i64);
            match (
                value.get("id").and_then(Value::as_u64),
                get("attacker_ms_left"),
                get("defender_ms_left"),
            ) {
                (Some(id), Some(attacker_ms), Some(defender_ms)) => Ok(ServerLine::GameTime {
                    id: id as GameId,
                    attacker_ms,
                    defender_ms,
                }),
                _ => Err(format!("unreadable game_time: '{}'", shorten(line))),
            }
        }
        ["=", "game_over", id, result, ..] => {
            let id = parse_id(Some(id), line)?;
            let winner = match *result {
                "attacker_wins" => Side::First,
                "defender_wins" => Side::Second,
                _ => return Err(format!("bad game_over line '{}'", shorten(line))),
            };
            Ok(ServerLine::GameOver { id, winner })
        }
        ["=", "draw", "accept", ..] => Ok(ServerLine::DrawAccepted),
        ["request_draw", id, role, ..] => Ok(ServerLine::DrawOffered {
            id: parse_id(Some(id), line)?,
            side: parse_side(Some(role), line)?,
        }),
        ["=", "games_updated", ..] => {
            let json = line.split_once("games_updated").map_or("", |(_, j)| j);
            let (games, removed) = parse_games_updated(json.trim(), line)?;
            Ok(ServerLine::GamesUpdated { games, removed })
        }
        ["=", "initialize_display", ..] => {
            Ok(ServerLine::OpenGames(parse_initialize_display(line)))
        }
        ["?", command, rest @ ..] => Ok(ServerLine::Refused {
            command: command.to_string(),
            reason: rest.join(" "),
        }),
        _ => Ok(ServerLine::Other),
    }
}

/// The login line: `VERSION_ID login NAME PASSWORD`, or `create_account` to make the account
/// (on a server that allows it; the account is logged in at once).
pub fn login_line(user: &str, password: &str, create_account: bool) -> String {
    let command = if create_account {
        "create_account"
    } else {
        "login"
    };
    format!("{VERSION_ID} {command} {user} {password}")
}

/// Why an account name or password cannot be sent to the server, if it cannot. The server
/// splits the login line on white space: a name is 1 to 16 letters, digits, `-` or `_` (not
/// first, last or doubled), and a password at most 32 bytes whose words are joined by single
/// spaces (no control characters, no leading, trailing or doubled spaces).
pub fn check_credentials(user: &str, password: &str) -> Result<(), String> {
    let bad_name = user.is_empty()
        || user.len() > MAX_USERNAME_LEN
        || !user
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        || user.starts_with(['-', '_'])
        || user.ends_with(['-', '_'])
        || ["--", "-_", "_-", "__"].iter().any(|d| user.contains(d));
    if bad_name {
        return Err(format!(
            "the account name must be 1 to {MAX_USERNAME_LEN} letters, digits, '-' or '_' \
             ('-' and '_' not first, last or two in a row)"
        ));
    }
    if password.len() > MAX_PASSWORD_LEN {
        return Err(format!(
            "the password is longer than the server's {MAX_PASSWORD_LEN} bytes"
        ));
    }
    if password.chars().any(char::is_control)
        || password.split(' ').any(str::is_empty) && !password.is_empty()
        || password.chars().any(|c| c.is_whitespace() && c != ' ')
    {
        return Err(
            "the password may not hold control characters, tabs, or spaces at its ends or two in \
             a row (the server splits the login line on white space)"
                .to_string(),
        );
    }
    Ok(())
}

/// The bot's move: `game ID play ROLE FROM TO`, the squares as the server writes them.
pub fn move_line(id: GameId, side: Side, from: &str, to: &str) -> String {
    format!(
        "game {id} play {} {from} {to}",
        crate::tafl::hnefatafl::role_name(side)
    )
}

/// The bot resigns: `game ID play ROLE resigns _`.
pub fn resign_line(id: GameId, side: Side) -> String {
    format!(
        "game {id} play {} resigns _",
        crate::tafl::hnefatafl::role_name(side)
    )
}

/// Asks the server to resend game `id` (after a reconnection) and to send its messages to this
/// connection from now on: `resume_game_json ID`, answered with [`ServerLine::ResumedGame`]
/// (or nothing at all when the game is not in progress).
pub fn resume_line(id: GameId) -> String {
    format!("resume_game_json {id}")
}

/// The line that logs in, with the password replaced by `<password>` (for logs).
pub fn redacted_login_line(user: &str, create_account: bool) -> String {
    login_line(user, "<password>", create_account)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_game_line_is_the_servers_json() {
        let settings = GameSettings {
            role: Side::First,
            rated: true,
            time: TimeControl::Fischer {
                start_ms: 900_000,
                add_seconds: 10,
            },
            board_size: 11,
        };
        assert_eq!(
            settings.new_game_line(),
            r#"new_game {"board_size":11,"rated":true,"role":"Attacker","time_settings":{"Timed":{"add_seconds":10,"milliseconds_left":900000}}}"#
        );
        let untimed = GameSettings {
            role: Side::Second,
            rated: false,
            time: TimeControl::Untimed,
            board_size: 13,
        };
        assert!(
            untimed
                .new_game_line()
                .contains(r#""time_settings":"UnTimed""#)
        );
        assert!(untimed.new_game_line().contains(r#""role":"Defender""#));
    }

    #[test]
    fn the_servers_lines_are_read() {
        assert_eq!(parse_line("= login"), Ok(ServerLine::LoggedIn));
        assert_eq!(
            parse_line("? login multiple_possible_errors wrong password"),
            Ok(ServerLine::LoginRefused(
                "multiple_possible_errors wrong password".into()
            ))
        );
        assert_eq!(parse_line("= new_game 7"), Ok(ServerLine::GameCreated(7)));
        assert_eq!(
            parse_line("= challenge_requested 0"),
            Ok(ServerLine::ChallengeRequested(0))
        );
        assert_eq!(
            parse_line("= join_game player-1 player-2 rated fischer 900000 10 11"),
            Ok(ServerLine::GameStarted {
                attacker: "player-1".into(),
                defender: "player-2".into(),
                rated: true,
                time: TimeControl::Fischer {
                    start_ms: 900_000,
                    add_seconds: 10
                },
                board_size: 11
            })
        );
        assert_eq!(
            parse_line("= join_game a b unrated un-timed _ _ 13"),
            Ok(ServerLine::GameStarted {
                attacker: "a".into(),
                defender: "b".into(),
                rated: false,
                time: TimeControl::Untimed,
                board_size: 13
            })
        );
        assert_eq!(
            parse_line("game 0 generate_move attacker"),
            Ok(ServerLine::GenerateMove {
                id: 0,
                side: Side::First
            })
        );
        assert_eq!(
            parse_line("game 3 play defender H6 H3"),
            Ok(ServerLine::Played {
                id: 3,
                side: Side::Second,
                play: ServerPlay::Move {
                    from: "H6".into(),
                    to: "H3".into()
                }
            })
        );
        // The server drops the `_` of a resignation when it passes it on.
        assert_eq!(
            parse_line("game 0 play attacker resigns "),
            Ok(ServerLine::Played {
                id: 0,
                side: Side::First,
                play: ServerPlay::Resigns
            })
        );
        assert_eq!(
            parse_line("= game_over 0 defender_wins"),
            Ok(ServerLine::GameOver {
                id: 0,
                winner: Side::Second
            })
        );
        assert_eq!(
            parse_line(
                r#"= game_time {"id":2,"attacker_ms_left":898500,"defender_ms_left":900000}"#
            ),
            Ok(ServerLine::GameTime {
                id: 2,
                attacker_ms: 898_500,
                defender_ms: 900_000
            })
        );
        assert_eq!(parse_line("= draw accept"), Ok(ServerLine::DrawAccepted));
        assert_eq!(parse_line("= game"), Ok(ServerLine::MoveAccepted));
        assert_eq!(
            parse_line("? game illegal move"),
            Ok(ServerLine::Refused {
                command: "game".into(),
                reason: "illegal move".into()
            })
        );
        assert_eq!(parse_line("= texts []"), Ok(ServerLine::Other));
        assert_eq!(parse_line("version 6.4.1"), Ok(ServerLine::Other));
        assert_eq!(parse_line(""), Ok(ServerLine::Other));
    }

    /// The game lines reach [`super::super::games`]' readers; `= ping` is its own.
    #[test]
    fn game_lists_and_resent_games_are_lines() {
        let updated = r#"= games_updated {"created":[],"removed":[1],"updated":{}}"#;
        assert_eq!(
            parse_line(updated),
            Ok(ServerLine::GamesUpdated {
                games: vec![],
                removed: vec![1]
            })
        );
        let empty = "= initialize_display ([],Users(({})),false,false)";
        assert_eq!(parse_line(empty), Ok(ServerLine::OpenGames(vec![])));
        let resumed = r#"= resume_game_json {"id":0,"attackers":"a","defenders":"b","dim":13,"start":"","time_control":null,"time_remaining_ms":null,"moves":"","rated":true,"messages":[]}"#;
        assert!(matches!(
            parse_line(resumed),
            Ok(ServerLine::ResumedGame(_))
        ));
        assert_eq!(parse_line("= ping"), Ok(ServerLine::Pong));
        assert_eq!(resume_line(3), "resume_game_json 3");
    }

    #[test]
    fn malformed_lines_of_known_kinds_are_errors() {
        for line in [
            "game x generate_move attacker",
            "game 1 generate_move king",
            "game 1 play attacker",
            "= game_over 1 nobody_wins",
            "= join_game a b maybe fischer 1 2 11",
            "= join_game a b rated fischer 1 2 12",
            "= game_time {",
            "= games_updated []",
            "= new_game x",
            "= resume_game_json {}",
            r#"= resume_game_json {"id":0,"attackers":"a","defenders":"b","dim":12,"time_control":null,"moves":""}"#,
        ] {
            assert!(parse_line(line).is_err(), "{line}");
        }
    }

    #[test]
    fn lines_the_bot_sends() {
        assert_eq!(
            login_line("skald", "pw", false),
            format!("{VERSION_ID} login skald pw")
        );
        assert_eq!(
            login_line("skald", "", true),
            format!("{VERSION_ID} create_account skald ")
        );
        assert!(!redacted_login_line("skald", false).contains("pw"));
        assert_eq!(
            move_line(3, Side::Second, "H6", "H3"),
            "game 3 play defender H6 H3"
        );
        assert_eq!(
            resign_line(0, Side::First),
            "game 0 play attacker resigns _"
        );
    }

    #[test]
    fn credentials_the_server_would_mangle_are_refused() {
        assert!(check_credentials("skald-bot", "two words").is_ok());
        assert!(check_credentials("skald", "").is_ok());
        for (user, password) in [
            ("", "pw"),
            ("-skald", "pw"),
            ("a__b", "pw"),
            ("seventeen-chars-x", "pw"),
            ("sk ald", "pw"),
            ("skald", " pw"),
            ("skald", "pw "),
            ("skald", "p  w"),
            ("skald", "p\tw"),
            ("skald", &"x".repeat(33)),
        ] {
            assert!(check_credentials(user, password).is_err(), "{user:?}");
        }
    }
}
