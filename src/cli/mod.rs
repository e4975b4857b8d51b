//! The subcommands for people: `play`, `analyze`, `match`, `openings`. They use the engine
//! library (rules, search, sessions) and re-implement none of it.

pub mod analyze;
pub mod engine;
pub mod matches;
pub mod openings;
pub mod play;
pub mod record;
pub mod stats;
