//! Ataxx 7×7 (rules.md, "ataxx"; conventions of the Ataxx engine ecosystem in ataxx.md).
//!
//! - [`Position`]: `u64` bitboards (square = rank * 7 + file, `a1` = 0) for `x`, `o` and blocked
//!   squares, side to move, halfmove clock, fullmove number, incremental Zobrist hash; implements
//!   [`crate::game::Game`].
//! - [`Move`]: clone / jump / pass; text `f2`, `a7a5`, `0000`.
//! - [`nnue`]: the NNUE network evaluation (file format, accumulator, forward pass).
//! - [`packed`]: the compact binary format of training positions (18 bytes a position).
//!
//! Rule choices (libataxx): the game is over when a side has no stones, when the halfmove clock
//! (+1 per jump or pass, 0 after a clone) reaches 100 (a draw), or when no empty square is within
//! reach (distance ≤ 2) of any stone, which includes a full board; then more stones wins and equal
//! counts draw. A side that cannot move while the game goes on must pass. No repetition rule.

pub mod bitboard;
mod eval;
mod game_impl;
mod mv;
pub mod nnue;
pub mod packed;
mod perft;
mod position;
pub mod zobrist;

pub use bitboard::{Bitboard, Square};
pub use eval::{HOLE, MATERIAL, MOBILITY, STABLE};
pub use mv::Move;
pub use position::{HALFMOVE_LIMIT, Position, START_FEN};
