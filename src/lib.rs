//! skald: a game engine for the tafl family (Brandubh 7×7, Tablut 9×9, Tawlbwrdd 11×11) and for
//! Ataxx 7×7.
//!
//! Layers, each depending only on the ones above it:
//! - [`game`]: the [`game::Game`] trait the search is written against, and [`eval`]: the
//!   evaluation interface (hand-written or a network with an accumulator per ply);
//! - [`tafl`] and [`ataxx`]: board, rules, move generation, Zobrist hashing, evaluation;
//! - [`search`]: iterative-deepening alpha-beta over any [`game::Game`], with a shared
//!   transposition table;
//! - [`variant`]: the variant registry;
//! - [`engine`]: the engine every front-end drives (the game in progress, options, hash table,
//!   search threads);
//! - [`protocol`]: the text protocols the binary speaks, each a parser and a formatter over
//!   [`engine`] (the command-line tools in the binary's `cli` module are the same).
#![deny(missing_docs)]

pub mod ataxx;
pub mod bench;
pub mod engine;
pub mod eval;
pub mod game;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod tafl;
pub mod tuning;
pub mod variant;
