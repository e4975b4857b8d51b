//! The clients that play on game servers, each a front-end over [`crate::engine::Engine`]:
//! [`hnefatafl`] for hnefatafl.org's server (Copenhagen 11×11 and 13×13, `skald bot`) and
//! [`tablut`] for the Tablut competition's (Ashton Tablut, `skald tablut-client`). Each has the
//! server's protocol (its lines or messages, read and written) and the player that drives the
//! connection and the engine; docs/servers.md has both exchanges.

pub mod hnefatafl;
pub mod tablut;
