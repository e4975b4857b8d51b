//! The engine clients of `skald match`: an engine run as a child process ([`process`]) and
//! spoken to over its protocol, one [`Client`] implementation a protocol: UCI and UAI
//! ([`uci`]), hnefatafl.org's Hnefatafl Text Protocol ([`htp`]), the OpenTafl engine protocol
//! ([`otep`]). The trait and what it takes and answers are in [`api`], the `--engine` text and
//! the protocols' names in [`spec`]. Adding a protocol is a file implementing [`Client`], a
//! [`Proto`] variant, and its line in [`start`] (and in [`Proto::refuses`] when it cannot play
//! every match).

mod api;
mod htp;
mod otep;
mod process;
mod spec;
mod uci;

pub use api::{Client, MoveLimits, MoveReply, MoveRequest, NewGame, WaitError};
pub use otep::otep_rules;
pub use spec::{EngineSpec, Proto};

use anyhow::Result;
use process::EngineProcess;
use skald::variant::Variant;

impl Proto {
    /// Why an engine of this protocol cannot play a match of `variant` (`set_up`: an opening
    /// starts from a position other than the variant's start), or `None` when it can.
    pub fn refuses(self, variant: Variant, set_up: bool) -> Option<&'static str> {
        match self {
            Proto::Uci | Proto::Uai => None,
            Proto::Htp => htp::refuses(variant, set_up),
            Proto::Otep => otep::refuses(variant),
        }
    }
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
