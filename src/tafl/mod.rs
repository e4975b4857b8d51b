//! The tafl family: Brandubh 7×7, Tablut 9×9, Tawlbwrdd 11×11 (rules.md).
//!
//! - [`Bitboard`]: square sets as `u64` (7×7, 8×8) or `u128` (9×9 to 11×11), `a1` = bit 0,
//!   square index = rank × width + file.
//! - [`Rules`]: the rules as data ([`RuleOptions`]) plus precomputed masks and ray tables; the
//!   three variants are presets ([`brandubh_rules`], [`tablut_rules`], [`tawlbwrdd_rules`]) and
//!   [`Rules::leak`] builds `&'static` rules at run time (for OpenTafl rules strings).
//! - [`Position`]: the [`crate::game::Game`] implementation (FEN, moves, captures, Zobrist hash,
//!   evaluation, fast perft).
//!
//! # Rule choices
//!
//! Where rules.md leaves room, skald decides:
//! - **King captured next to the brandubh throne**: he is "captured like any other piece", so one
//!   attacker with the empty throne on the opposite side captures him (as with a corner).
//! - **Tablut/tawlbwrdd castle as a wall**: the castle is hostile to the king only as the fourth
//!   wall of the three-attacker capture next to it; in the open only attackers capture him.
//! - **The king as anvil on the throne**: an attacker between a moving defender and the king on
//!   the throne is captured (the king is armed); the occupied throne is not hostile by itself.
//! - **Captures on the escape move**: when the king escapes with a move that also captures, the
//!   captures are made (the game is over either way).
//! - **FEN**: the king may stand anywhere, including the tablut castle and escape squares (then
//!   the game is already decided); soldiers may not stand where they may not stop. A FEN must
//!   have exactly one king, so the final position after a king capture has no FEN (`fen()` still
//!   writes it, but it does not parse back).
//! - **Outcome order**: king captured, king escaped, no legal move, then the 100-ply rule (a side
//!   without moves on the 100th ply loses in brandubh rather than draws).
//! - **Null move**: allowed unless the side to move has three pieces or fewer (king included).
//! - **Linnaean capture** (OpenTafl `linc`) and the **surrounding rule** (`surf`) are not part of
//!   rules.md's variants; they are rule options (off in the presets) for OpenTafl rules strings
//!   ([`opentafl`]).

mod bitboard;
mod eval;
pub mod opentafl;
mod position;
mod rules;
mod zobrist;

pub use bitboard::{Bitboard, Square, Squares};
pub use eval::TERM_COUNT;
pub use position::{
    ATTACKER_VALUE, BrandubhPosition, DEFENDER_VALUE, KING_VALUE, LargePosition, Move, Position,
    brandubh, parse_square, square_name, tablut, tawlbwrdd,
};
pub use rules::{
    KingArmed, MAX_SIZE, MIN_SIZE, NoMoveRule, Piece, RuleOptions, Rules, brandubh_rules, centre,
    corners, edge, neighbours, square, tablut_rules, tawlbwrdd_rules,
};
pub use zobrist::{PIECE_KEYS, SIDE_KEY};
