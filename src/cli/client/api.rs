//! What the match runner and every protocol's client share: the [`Client`] trait, the new
//! game and move requests it takes, and the answers.

use skald::engine::Side;
use skald::engine::session::Session;
use skald::variant::Variant;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What went wrong while waiting for an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (exited or crashed).
    Disconnected,
    /// The caller asked to stop waiting.
    Aborted,
}

impl std::fmt::Display for WaitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WaitError::Timeout => "no answer in time",
            WaitError::Disconnected => "the engine exited or closed its output",
            WaitError::Aborted => "the match stopped waiting",
        })
    }
}

/// An engine's answer to a request for a move ([`Client::request_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveReply {
    /// A move in skald's notation (tafl `d1-d3`), still to be judged by the runner.
    Move(String),
    /// The engine resigned (HTP `play ROLE resigns`).
    Resign,
    /// The engine refused an earlier move of the game, one skald's rules allow (HTP `? …`, or
    /// an OTEP `error`): the message says which and why.
    Refused(String),
}

/// What the engine is asked to move under: the clocks (ms left per side, increment) or a depth.
#[derive(Clone, Copy, Debug)]
pub struct MoveLimits {
    /// Time left per side, ms, by [`Side::index`].
    pub clock: [i64; 2],
    /// Increment per move, ms.
    pub inc_ms: u64,
    /// Search depth instead of the clock (UCI/UAI `go depth`; HTP and OTEP engines have no
    /// depth command and get the clocks).
    pub depth: Option<u32>,
}

/// A new game, as an engine is told it ([`Client::new_game`]).
pub struct NewGame<'a> {
    /// The game.
    pub variant: Variant,
    /// The set-up position (FEN).
    pub setup_fen: &'a str,
    /// The variant's start position (FEN).
    pub start_fen: &'a str,
    /// The clocks at the start, or the depth.
    pub limits: &'a MoveLimits,
}

/// How a move is asked for ([`Client::request_move`]).
pub struct MoveRequest<'a> {
    /// The game (the moves so far are in it).
    pub session: &'a dyn Session,
    /// The clocks now, or the depth.
    pub limits: &'a MoveLimits,
    /// When the runner stops waiting for the move; without end when `None`.
    pub deadline: Option<Instant>,
    /// Set when the runner stops waiting for the move at once.
    pub abort: Option<&'a AtomicBool>,
}

/// An engine of `skald match`, spoken to over its protocol.
pub trait Client {
    /// The name the engine gave itself (UCI `id name`, HTP `name`), if it gave one.
    fn name(&self) -> Option<String>;

    /// Starts a new game. Errors say why the engine cannot play this game.
    fn new_game(&mut self, game: &NewGame<'_>) -> Result<(), String>;

    /// Asks for a move, as `request` says.
    fn request_move(&mut self, request: &MoveRequest<'_>) -> Result<MoveReply, WaitError>;

    /// After the runner accepted the engine's move (`session` has it played).
    fn move_accepted(&mut self, _session: &dyn Session) {}

    /// The game is over (`winner` `None` for a draw).
    fn game_over(&mut self, _winner: Option<Option<Side>>) {}

    /// Asks the engine to quit, and kills it if it has not within a short while.
    fn quit(self: Box<Self>);
}
