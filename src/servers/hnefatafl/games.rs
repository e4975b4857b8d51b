//! The games of hnefatafl.org's server as [`super::protocol`] reads and writes them: a game's
//! settings and clocks, the game lists (`games_updated` in JSON, `initialize_display` in RON,
//! read as far as a bot needs) and a game resent after a reconnection (`resume_game_json`,
//! the server's `OpenTaflGame` in JSON).

use crate::engine::Side;
use serde_json::Value;

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
    /// them (read them with [`crate::tafl::hnefatafl::parse_square`]).
    pub moves: Vec<(String, String)>,
}

/// `line` cut to 120 characters for an error message.
pub(super) fn shorten(line: &str) -> String {
    crate::text::truncate(line, 120).escape_debug().to_string()
}

pub(super) fn parse_board_size(text: &str, line: &str) -> Result<u8, String> {
    match text.trim_start_matches('_') {
        "7" => Ok(7),
        "11" => Ok(11),
        "13" => Ok(13),
        _ => Err(format!("no board size in '{}'", shorten(line))),
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
pub(super) fn parse_games_updated(
    json: &str,
    line: &str,
) -> Result<(Vec<ServerGame>, Vec<GameId>), String> {
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
    Ok((games, removed))
}

/// Reads a `resume_game_json` object (the server's `OpenTaflGame`): `moves` is one string of
/// `FROM-TO` moves, each followed by `xSQUARE` for each capture, `---` for a resignation.
pub(super) fn parse_resumed_game(json: &str) -> Option<ResumedGame> {
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
pub(super) fn parse_initialize_display(line: &str) -> Vec<ServerGame> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_updated_lists_open_games() {
        let json = r#"{"created":[[4,null,{"id":4,"attacker":"bob","defender":null,"challenger":null,"rated":"No","timed":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"spectators":{},"challenge_accepted":false,"game_over":false,"board_size":"_13","turn":"Roleless"}]],"removed":[1],"updated":{"2":{"id":2,"attacker":"a","defender":"b","challenger":"b","rated":"Yes","timed":"UnTimed","spectators":{},"challenge_accepted":true,"game_over":false,"board_size":"_11","turn":"Attacker"}}}"#;
        let (games, removed) = parse_games_updated(json, json).unwrap();
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
        let games = parse_initialize_display(line);
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
        let empty = "= initialize_display ([],Users(({})),false,false)";
        assert_eq!(parse_initialize_display(empty), vec![]);
    }

    #[test]
    fn a_resumed_game_is_read() {
        let json = r#"{"id":3,"attackers":"bob","defenders":"skald","dim":11,"start":"/…/","time_control":{"main_time_seconds":900,"increment_length":10},"time_remaining_ms":{"attackers":880000,"defenders":890500,"last_move":"2026-12-01T12:00:00Z"},"moves":"d1-d2 f4-e4xe5 d2-d1","rated":false,"messages":[]}"#;
        assert_eq!(
            parse_resumed_game(json).unwrap(),
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
        let untimed = r#"{"id":0,"attackers":"a","defenders":"b","dim":13,"start":"","time_control":null,"time_remaining_ms":null,"moves":"","rated":true,"messages":[]}"#;
        let game = parse_resumed_game(untimed).unwrap();
        assert_eq!(
            (game.time, game.clocks, game.moves.len(), game.board_size),
            (TimeControl::Untimed, None, 0, 13)
        );
    }
}
