//! hnefatafl.org's game server, as `skald bot` plays on it: a bot account on hnefatafl.org's
//! server (or a local one from the hnefatafl-copenhagen crate). It logs in over TCP, creates
//! games and accepts the first challenger (`create`) or joins games others open (`accept`), and
//! plays Copenhagen 11×11 and 13×13 with the engine as `skald htp` does. The protocol's lines
//! are read and written by [`protocol`]; docs/servers.md has the whole exchange.
//!
//! The rooms: [`protocol`] the server's lines (`games` its game lists); `connection` the socket (lines, logging,
//! keepalive); `bot` the state machine between and within games; `reconnect` logging in again
//! and taking a game up again; `policy` the search's limits and the move sent.
//!
//! When the connection drops after a successful login (the server restarts, the network fails),
//! the bot logs in again, waiting 1, 2, 4 … (at most 60) seconds before each of at most
//! `reconnect` tries in a row. The server (6.4.1) keeps a game in progress while a player is
//! away (see [`protocol`]'s "A dropped connection"): after the new login the bot asks it for
//! the game (`resume_game_json`), rebuilds the position from its moves and plays on. A game the
//! server no longer has in progress (it ended while the bot was away, its result not resent, or
//! the server restarted and lost it) counts toward `games` as lost to the disconnect. A game the
//! bot had opened and nobody had joined is withdrawn and opened anew.
//!
//! A connection that goes silent is tested: after `keepalive` seconds without a line from the
//! server the bot sends `ping` (the server answers every `ping` with `= ping`), and when that
//! many seconds more pass without any line it counts the connection as lost (half-open: the
//! server or the network went away without closing it) and reconnects as above. The socket's
//! TCP keepalive is on as well.
//!
//! The password is never printed: the login line is logged as `<password>` and any other text
//! that holds the password is redacted before it is shown.

mod bot;
mod connection;
mod games;
mod policy;
pub mod protocol;
mod reconnect;

pub use bot::run;
pub use protocol::TimeControl;

/// The server `skald bot` connects to when none is given.
pub const DEFAULT_SERVER: &str = "127.0.0.1:49152";

/// The seat the bot takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The attackers.
    Attackers,
    /// The defenders.
    Defenders,
    /// The attackers in the first game, then the defenders, and so on (`create`); either seat
    /// (`accept`).
    Alternate,
}

/// How the bot plays: `skald bot`'s flags, checked.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The server, `HOST:PORT`.
    pub server: String,
    /// The bot's account name (1 to 16 letters, digits, `-` or `_`).
    pub user: String,
    /// Make the account if the server has none of that name (`create_account`).
    pub create_account: bool,
    /// Open games and play the first challenger of each (`--create`); else join games that
    /// others open (`--accept`).
    pub create: bool,
    /// The bot's seat; `None`: the attackers when it opens games, either when it joins.
    pub seat: Option<Seat>,
    /// The board size of the games, 11 or 13; `None`: 11 when it opens games, either when it
    /// joins.
    pub board: Option<u8>,
    /// The clocks of the games it opens.
    pub clock: TimeControl,
    /// When it joins: only games this account opened.
    pub opponent: Option<String>,
    /// The games it opens are rated.
    pub rated: bool,
    /// Games to play before it logs out (0: until stopped).
    pub games: u32,
    /// Search at most this many plies a move.
    pub depth: Option<u32>,
    /// Search at most this many nodes a move.
    pub nodes: Option<u64>,
    /// Seconds a move in an untimed game (2 when neither this, `depth` nor `nodes` is set).
    pub time: Option<f64>,
    /// Seconds kept back from each move's budget for the network (timed games).
    pub overhead: f64,
    /// Playing strength, 0 to 20 (the engine's skill level).
    pub skill: u8,
    /// Reconnection tries in a row after the connection drops (0: end at once).
    pub reconnect: u32,
    /// Seconds of silence before a `ping`, and as many more before the connection counts as
    /// lost.
    pub keepalive: u64,
    /// Log every line sent and received on standard error (the password redacted).
    pub verbose: bool,
}
