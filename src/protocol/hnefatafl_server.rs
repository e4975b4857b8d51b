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
//! starts when the creator accepts. Squares are written as HTP writes them ([`super::htp`]):
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

/// A game id (the server's are `u128`).
pub type GameId = u128;

/// A game's clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// No clocks (the server's `un-timed`).
    Untimed,
    /// Fischer: `start_ms` each, `add_seconds` added after each move.
    Fischer {
        /// Each side's time at the start, ms.
        start_ms: u64,
        /// Added to the mover's clock after each move, seconds.
        add_seconds: u64,
    },
}

/// The settings of a game to create (`new_game`), or of an open game on the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// The creator's side.
    pub role: Side,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// The clocks.
    pub time: TimeControl,
    /// 11 or 13 (the server also has 7, which skald does not play there).
    pub board_size: u8,
}

impl GameSettings {
    /// The `new_game JSON` line that creates a game with these settings.
    pub fn new_game_line(&self) -> String {
        let time = match self.time {
            TimeControl::Untimed => serde_json::json!("UnTimed"),
            TimeControl::Fischer {
                start_ms,
                add_seconds,
            } => {
                serde_json::json!({"Timed": {"add_seconds": add_seconds, "milliseconds_left": start_ms}})
            }
        };
        let json = serde_json::json!({
            "role": if self.role == Side::First { "Attacker" } else { "Defender" },
            "rated": self.rated,
            "time_settings": time,
            "board_size": self.board_size,
        });
        format!("new_game {json}")
    }
}

/// An open or running game from a `games_updated` message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerGame {
    /// Its id.
    pub id: GameId,
    /// The attackers' player, if the seat is taken.
    pub attacker: Option<String>,
    /// The defenders' player, if the seat is taken.
    pub defender: Option<String>,
    /// Whether it is rated.
    pub rated: bool,
    /// Its clocks.
    pub time: TimeControl,
    /// 7, 11 or 13.
    pub board_size: u8,
    /// Whether the creator has accepted a challenger (the game has started).
    pub challenge_accepted: bool,
    /// Whether it has ended.
    pub game_over: bool,
}

/// A game in progress as the server resends it after a reconnection (`= resume_game_json`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumedGame {
    /// Its id.
    pub id: GameId,
    /// The attackers' player.
    pub attacker: String,
    /// The defenders' player.
    pub defender: String,
    /// 7, 11 or 13.
    pub board_size: u8,
    /// Whether it is rated.
    pub rated: bool,
    /// Its clocks (the start time is the defenders' time at the first move, whole seconds).
    pub time: TimeControl,
    /// Both sides' time left, ms (attackers, defenders), in a timed game.
    pub clocks: Option<(i64, i64)>,
    /// The moves so far, attackers' first, as (from, to) squares written as the server writes
    /// them (read them with [`super::htp::parse_square`]).
    pub moves: Vec<(String, String)>,
}

/// A move as the server writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerPlay {
    /// From one square to another, as written (`d1`, `D1`): read them with
    /// [`super::htp::parse_square`] for the game's board size.
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

/// `line` cut to 120 characters for an error message.
fn shorten(line: &str) -> String {
    crate::text::truncate(line, 120).escape_debug().to_string()
}

fn parse_board_size(text: &str, line: &str) -> Result<u8, String> {
    match text.trim_start_matches('_') {
        "7" => Ok(7),
        "11" => Ok(11),
        "13" => Ok(13),
        _ => Err(format!("no board size in '{}'", shorten(line))),
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

/// The clocks of a game in JSON: `"UnTimed"` or `{"Timed":{"add_seconds":…,"milliseconds_left":…}}`.
fn parse_time_json(value: &Value) -> Option<TimeControl> {
    if value.as_str() == Some("UnTimed") {
        return Some(TimeControl::Untimed);
    }
    let timed = value.get("Timed")?;
    Some(TimeControl::Fischer {
        start_ms: timed.get("milliseconds_left")?.as_u64()?,
        add_seconds: timed.get("add_seconds")?.as_u64()?,
    })
}

fn parse_game_json(value: &Value) -> Option<ServerGame> {
    let name = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
    Some(ServerGame {
        id: value.get("id")?.as_u64()? as GameId,
        attacker: name("attacker"),
        defender: name("defender"),
        rated: value.get("rated")?.as_str()? == "Yes",
        time: parse_time_json(value.get("timed")?)?,
        board_size: parse_board_size(value.get("board_size")?.as_str()?, "").ok()?,
        challenge_accepted: value.get("challenge_accepted")?.as_bool()?,
        game_over: value.get("game_over")?.as_bool()?,
    })
}

/// Reads a `games_updated` JSON object: `created` is a list of `[id, previous, game]`, `updated`
/// a map from id to game, `removed` a list of ids.
fn parse_games_updated(json: &str, line: &str) -> Result<ServerLine, String> {
    let bad = || format!("unreadable games_updated: '{}'", shorten(line));
    let value: Value = serde_json::from_str(json).map_err(|_| bad())?;
    let mut games = Vec::new();
    for entry in value
        .get("created")
        .and_then(Value::as_array)
        .ok_or_else(bad)?
    {
        let game = entry.get(2).and_then(parse_game_json).ok_or_else(bad)?;
        games.push(game);
    }
    for game in value
        .get("updated")
        .and_then(Value::as_object)
        .ok_or_else(bad)?
        .values()
    {
        games.push(parse_game_json(game).ok_or_else(bad)?);
    }
    let mut removed = Vec::new();
    for id in value
        .get("removed")
        .and_then(Value::as_array)
        .ok_or_else(bad)?
    {
        removed.push(id.as_u64().ok_or_else(bad)? as GameId);
    }
    Ok(ServerLine::GamesUpdated { games, removed })
}

/// Reads a `resume_game_json` object (the server's `OpenTaflGame`): `moves` is one string of
/// `FROM-TO` moves, each followed by `xSQUARE` for each capture, `---` for a resignation.
fn parse_resumed_game(json: &str) -> Option<ResumedGame> {
    let value: Value = serde_json::from_str(json).ok()?;
    let text = |key: &str| value.get(key)?.as_str().map(str::to_string);
    let board_size = match value.get("dim")?.as_u64()? {
        n @ (7 | 11 | 13) => n as u8,
        _ => return None,
    };
    let time = match value.get("time_control")? {
        Value::Null => TimeControl::Untimed,
        t => TimeControl::Fischer {
            start_ms: t.get("main_time_seconds")?.as_u64()?.checked_mul(1000)?,
            add_seconds: t.get("increment_length")?.as_u64()?,
        },
    };
    let clocks = match value.get("time_remaining_ms") {
        None | Some(Value::Null) => None,
        Some(t) => Some((t.get("attackers")?.as_i64()?, t.get("defenders")?.as_i64()?)),
    };
    let mut moves = Vec::new();
    for word in value.get("moves")?.as_str()?.split_ascii_whitespace() {
        let play = word.split('x').next()?;
        let (from, to) = play.split_once('-')?;
        if from.is_empty() || to.is_empty() {
            return None;
        }
        moves.push((from.to_string(), to.to_string()));
    }
    Some(ResumedGame {
        id: value.get("id")?.as_u64()? as GameId,
        attacker: text("attackers")?,
        defender: text("defenders")?,
        board_size,
        rated: value.get("rated").and_then(Value::as_bool).unwrap_or(true),
        time,
        clocks,
        moves,
    })
}

/// The value of `key` in one game of RON text (`(id:0,attacker:Some("bob"),…)`): the text after
/// `,key:` or `(key:` up to the next `,` or `)`.
fn ron_field<'a>(game: &'a str, key: &str) -> Option<&'a str> {
    let at = [format!("({key}:"), format!(",{key}:")]
        .iter()
        .filter_map(|k| game.find(k.as_str()).map(|i| i + k.len()))
        .min()?;
    let rest = &game[at..];
    Some(&rest[..rest.find([',', ')']).unwrap_or(rest.len())])
}

fn ron_name(text: &str) -> Option<Option<String>> {
    match text {
        "None" => Some(None),
        _ => Some(Some(
            text.strip_prefix("Some(\"")?.strip_suffix('"')?.to_string(),
        )),
    }
}

/// The games of an `initialize_display` line: a RON tuple whose first item is the list of
/// games, `[(id:0,attacker:Some("bob"),defender:None,…,board_size:_11,turn:Roleless),…]`.
/// Games that cannot be read are left out.
fn parse_initialize_display(line: &str) -> Vec<ServerGame> {
    let list = line
        .split_once("initialize_display ([")
        .and_then(|(_, rest)| rest.split_once("],"))
        .map_or("", |(games, _)| games);
    let mut games = Vec::new();
    for chunk in list.split("(id:").skip(1) {
        let game = format!("(id:{chunk}");
        let read = || -> Option<ServerGame> {
            let number = |key: &str| ron_field(&game, key)?.parse::<u64>().ok();
            let time = if ron_field(&game, "timed")? == "UnTimed" {
                TimeControl::Untimed
            } else {
                TimeControl::Fischer {
                    start_ms: number("milliseconds_left")?,
                    add_seconds: number("add_seconds")?,
                }
            };
            Some(ServerGame {
                id: number("id")? as GameId,
                attacker: ron_name(ron_field(&game, "attacker")?)?,
                defender: ron_name(ron_field(&game, "defender")?)?,
                rated: ron_field(&game, "rated")? == "Yes",
                time,
                board_size: parse_board_size(ron_field(&game, "board_size")?, "").ok()?,
                challenge_accepted: ron_field(&game, "challenge_accepted")? == "true",
                game_over: ron_field(&game, "game_over")? == "true",
            })
        };
        games.extend(read());
    }
    games
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
            parse_games_updated(json.trim(), line)
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
    format!("game {id} play {} {from} {to}", super::htp::role_name(side))
}

/// The bot resigns: `game ID play ROLE resigns _`.
pub fn resign_line(id: GameId, side: Side) -> String {
    format!("game {id} play {} resigns _", super::htp::role_name(side))
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

    #[test]
    fn games_updated_lists_open_games() {
        let line = r#"= games_updated {"created":[[4,null,{"id":4,"attacker":"bob","defender":null,"challenger":null,"rated":"No","timed":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_13","turn":"Roleless"}]],"removed":[1],"updated":{"2":{"id":2,"attacker":"a","defender":"b","challenger":"b","rated":"Yes","timed":"UnTimed","spectators":{},"challenge_accepted":true,"game_over":false,"board_size":"_11","turn":"Attacker"}}}"#;
        let ServerLine::GamesUpdated { games, removed } = parse_line(line).unwrap() else {
            panic!("not games_updated");
        };
        assert_eq!(removed, vec![1]);
        assert_eq!(
            games[0],
            ServerGame {
                id: 4,
                attacker: Some("bob".into()),
                defender: None,
                rated: false,
                time: TimeControl::Fischer {
                    start_ms: 900_000,
                    add_seconds: 10
                },
                board_size: 13,
                challenge_accepted: false,
                game_over: false,
            }
        );
        assert_eq!(games[1].time, TimeControl::Untimed);
        assert!(games[1].challenge_accepted && games[1].rated);
    }

    #[test]
    fn initialize_display_lists_the_games_at_login() {
        let line = r#"= initialize_display ([(id:0,attacker:Some("mc1"),defender:None,challenger:(None),rated:No,timed:Timed((add_seconds:10,milliseconds_left:900000)),spectators:{"x":1,"id":2},challenge_accepted:false,game_over:false,board_size:_11,turn:Roleless),(id:3,attacker:None,defender:Some("b-2"),challenger:(None),rated:Yes,timed:UnTimed,spectators:{},challenge_accepted:false,game_over:false,board_size:_13,turn:Roleless)],Users(({"mc1":(username:"mc1",wins:0,losses:0,draws:0,rating:(rating:1500.0,rd:350.0),logged_in:true)})),false,false)"#;
        let ServerLine::OpenGames(games) = parse_line(line).unwrap() else {
            panic!("not initialize_display");
        };
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0],
            ServerGame {
                id: 0,
                attacker: Some("mc1".into()),
                defender: None,
                rated: false,
                time: TimeControl::Fischer {
                    start_ms: 900_000,
                    add_seconds: 10
                },
                board_size: 11,
                challenge_accepted: false,
                game_over: false,
            }
        );
        assert_eq!(games[1].defender.as_deref(), Some("b-2"));
        assert_eq!(
            (games[1].board_size, games[1].time, games[1].rated),
            (13, TimeControl::Untimed, true)
        );
        assert_eq!(
            parse_line("= initialize_display ([],Users(({})),false,false)"),
            Ok(ServerLine::OpenGames(vec![]))
        );
    }

    #[test]
    fn a_resumed_game_is_read() {
        let line = r#"= resume_game_json {"id":3,"attackers":"bob","defenders":"skald","dim":11,"start":"/…/","time_control":{"main_time_seconds":900,"increment_length":10},"time_remaining_ms":{"attackers":880000,"defenders":890500,"last_move":"2026-12-01T12:00:00Z"},"moves":"d1-d2 f4-e4xe5 d2-d1","rated":false,"messages":[]}"#;
        let ServerLine::ResumedGame(game) = parse_line(line).unwrap() else {
            panic!("not resume_game_json");
        };
        assert_eq!(
            game,
            ResumedGame {
                id: 3,
                attacker: "bob".into(),
                defender: "skald".into(),
                board_size: 11,
                rated: false,
                time: TimeControl::Fischer {
                    start_ms: 900_000,
                    add_seconds: 10
                },
                clocks: Some((880_000, 890_500)),
                moves: vec![
                    ("d1".into(), "d2".into()),
                    ("f4".into(), "e4".into()),
                    ("d2".into(), "d1".into())
                ],
            }
        );
        let untimed = r#"= resume_game_json {"id":0,"attackers":"a","defenders":"b","dim":13,"start":"","time_control":null,"time_remaining_ms":null,"moves":"","rated":true,"messages":[]}"#;
        let ServerLine::ResumedGame(game) = parse_line(untimed).unwrap() else {
            panic!("not resume_game_json");
        };
        assert_eq!(
            (game.time, game.clocks, game.moves.len(), game.board_size),
            (TimeControl::Untimed, None, 0, 13)
        );
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
