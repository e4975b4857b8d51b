//! The engine clients of `skald match`: an engine run as a child process ([`process`]) and
//! spoken to over its protocol, one [`Client`] implementation a protocol: UCI and UAI
//! ([`uci`]), hnefatafl.org's Hnefatafl Text Protocol ([`htp`]), the OpenTafl engine protocol
//! ([`otep`]). Adding a protocol is a file implementing [`Client`], a [`Proto`] variant, and
//! its line in [`start`] (and in [`Proto::refuses`] when it cannot play every match).

mod htp;
mod otep;
mod process;
mod spec;
mod uci;

pub use otep::otep_rules;
pub use spec::EngineSpec;

use anyhow::{Result, bail};
use process::EngineProcess;
use skald::engine::session::Session;
use skald::game::Side;
use skald::variant::Variant;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The protocol an engine of `skald match` speaks.
///
/// - `Uci` / `Uai`: protocol.md; each move `position fen … moves …` and `go`, answered by
///   `bestmove`.
/// - `Htp`: hnefatafl.org's Hnefatafl Text Protocol (protocol.md, "HTP"): `board_size 11|13` and
///   `time_settings` per game, the other side's moves as `play ROLE FROM TO`, then
///   `generate_move ROLE`, answered by `= play ROLE FROM TO` (`= play ROLE resigns …` resigns).
///   Copenhagen only, from the start position; no options.
/// - `Otep`: the OpenTafl engine protocol (OpenTafl's opentafl-engine-protocol.txt): the engine
///   says `hello`; per game `rules <OpenTafl rules string>`; per move `opponent-move <move>
///   <position record>`, `clock …`, `play attackers|defenders`, answered by `move <move>` and
///   confirmed with `move <position record>`; `finish <code>` at the end, `goodbye` to quit.
///   Tafl only; no options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCI (tafl).
    Uci,
    /// UAI (Ataxx).
    Uai,
    /// hnefatafl.org's Hnefatafl Text Protocol.
    Htp,
    /// The OpenTafl engine protocol.
    Otep,
}

impl Proto {
    /// The protocol's name as people write it: `UCI`, `UAI`, `HTP`, `OTEP`.
    pub const fn name(self) -> &'static str {
        match self {
            Proto::Uci => "UCI",
            Proto::Uai => "UAI",
            Proto::Htp => "HTP",
            Proto::Otep => "OTEP",
        }
    }

    /// Parses `uci`, `uai`, `htp` or `otep` (any case).
    pub fn parse(text: &str) -> Result<Proto> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Ok(Proto::Uci),
            "uai" => Ok(Proto::Uai),
            "htp" => Ok(Proto::Htp),
            "otep" => Ok(Proto::Otep),
            _ => bail!("proto='{text}': expected uci, uai, htp or otep"),
        }
    }

    /// Why an engine of this protocol cannot play a match of `variant` (`set_up`: an opening
    /// starts from a position other than the variant's start), or `None` when it can.
    pub fn refuses(self, variant: Variant, set_up: bool) -> Option<&'static str> {
        match self {
            Proto::Uci | Proto::Uai => None,
            Proto::Htp => htp::refuses(variant, set_up),
            Proto::Otep => otep::refuses(variant),
        }
    }

    /// Engines of this protocol are told an OpenTafl rules string ([`otep_rules`]), not skald's
    /// variant: the referee judges their games by it.
    pub fn tells_opentafl_rules(self) -> bool {
        self == Proto::Otep
    }
}

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

/// Starts the engine of `spec` for a match of `variant` and does its protocol's handshake
/// (and, for UCI and UAI, sets the options): a client of the protocol [`EngineSpec::protocol`]
/// says.
///
/// # Errors
/// The engine cannot be started, does not answer the handshake within 10 s, or rejects an
/// option (or is given options its protocol has none of). The message names the engine.
pub fn start(spec: &EngineSpec, variant: Variant) -> Result<Box<dyn Client>> {
    let process = EngineProcess::spawn(spec)?;
    Ok(match spec.protocol(variant) {
        Proto::Uci => Box::new(uci::UciClient::start(process, spec, false, variant)?),
        Proto::Uai => Box::new(uci::UciClient::start(process, spec, true, variant)?),
        Proto::Htp => Box::new(htp::HtpClient::start(process, spec)?),
        Proto::Otep => Box::new(otep::OtepClient::start(process, spec)?),
    })
}

/// Refuses options for `proto`, a protocol that has none (HTP, OTEP).
fn no_options(spec: &EngineSpec, proto: Proto) -> Result<()> {
    if let Some((name, _)) = spec.options.first() {
        bail!(
            "engine '{}': {:?} engines take no options ('{name}')",
            spec.label(),
            proto
        );
    }
    Ok(())
}
