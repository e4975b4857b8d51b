//! skald: a game engine for the tafl family (Brandubh 7×7, Tablut 9×9, Tawlbwrdd 11×11,
//! Copenhagen Hnefatafl 11×11 and 13×13, and any board an OpenTafl rules string describes) and
//! for Ataxx 7×7.
//!
//! Layers, each importing only the ones below it:
//! - [`game`]: the [`game::Game`] trait the search is written against; [`eval`]: the
//!   evaluation interface (hand-written or a network with an accumulator per ply), which names
//!   no game; [`nnue`]: what every family's network shares (quantised layers, accumulator,
//!   vectorised kernels, the file header that names a network's family and board), which names
//!   no game either; [`tuning`]: the search's tuning values as data; [`rng`]: the seeded
//!   generator;
//! - [`tafl`] and [`ataxx`], the game families: board, rules, move generation, Zobrist hashing,
//!   evaluation;
//! - [`search`]: iterative-deepening alpha-beta over any [`game::Game`], with a shared
//!   transposition table and Lazy SMP threads; it knows no game and no variant;
//! - [`variant`]: a descriptor per variant (names, family, start position, search values,
//!   OpenTafl rules string), registered in one place; [`perft`]: move-path counts;
//! - [`engine`]: the engine every front-end drives and the only API they use (the game in
//!   progress, options, hash table, search threads, [`engine::SearchRequest`]); [`bench`](mod@bench): the fixed search whose node count is the signature;
//! - [`protocol`]: the text protocols the binary speaks, each a parser and a formatter over
//!   [`engine`] (the command-line tools in the binary's `cli` module, and its browser
//!   front-end `serve`, an HTTP server behind the Cargo feature `serve`, are the same);
//!   [`view`]: the game state and the variants as the browser page reads them, in JSON, for
//!   both of its back-ends (`serve` and the WebAssembly build, `skald-wasm/`).
#![deny(missing_docs)]

pub mod ataxx;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod game;
pub mod nnue;
pub mod perft;
pub mod protocol;
pub mod records;
pub mod rng;
pub mod search;
#[cfg(not(target_family = "wasm"))]
pub mod servers;
pub mod tafl;
pub mod text;
pub mod tuning;
pub mod variant;
pub mod view;
