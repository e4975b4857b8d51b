//! The Tablut competition's server (University of Bologna): its messages ([`protocol`]) and the
//! player `skald tablut-client` ([`client`]).

pub mod client;
pub mod protocol;

pub use client::{ClientConfig, move_budget, run, silence_limit};
pub use protocol::Role;
