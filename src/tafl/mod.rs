//! The tafl family: Brandubh 7×7, Tablut 9×9, Tawlbwrdd 11×11 (rules.md), Copenhagen
//! Hnefatafl 11×11 and 13×13 (copenhagen.md), with hnefatafl.org's 7×7 Copenhagen board, and
//! Ashton Tablut 9×9 (the Tablut competition server's rules, docs/rules/ashton.md).
//!
//! - [`Bitboard`]: square sets as `u64` (7×7, 8×8) or `u128` (9×9 to 11×11), `a1` = bit 0,
//!   square index = rank × width + file.
//! - [`Rules`]: the rules as data ([`RuleOptions`]) plus precomputed masks and ray tables; the
//!   variants are presets ([`brandubh_rules`], [`tablut_rules`], [`tawlbwrdd_rules`],
//!   [`copenhagen_rules`], [`ashton_rules`]); capture and end rules are composable entries of the rules value
//!   (custodial capture with [`KingArmed`] and hostile squares, [`Shieldwall`], [`EdgeFort`],
//!   encirclement, surrounding, "cannot escape", no attacker left, ply and clock limits) and
//!   [`Rules::leak`] builds `&'static` rules at run time (for OpenTafl rules strings), once per
//!   distinct rule set ([`leaked_rule_sets`]). [`copenhagen7_rules`] is hnefatafl.org's 7×7
//!   Copenhagen board (`skald htp`'s `board_size 7`), a preset outside [`crate::variant::Variant`].
//! - [`Position`]: the [`crate::game::Game`] implementation (FEN, moves, captures, Zobrist hash,
//!   evaluation, fast perft).
//! - [`nnue`]: the network evaluation of the boards from 7×7 to 13×13 (features, file, the
//!   search's [`nnue::TaflEval`]); [`packed`]: the binary format of training positions
//!   (`skald datagen --format binary`).
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
//! - **Copenhagen** follows hnefatafl.org's implementation (copenhagen.md) with these choices:
//!   - *Edge fort* ([`Position::edge_fort`]): exactly hnefatafl.org 6.4.1's `exit_forts` and
//!     `flood_fill_defender_wins`, its flood fill order included: a piece of the defenders'
//!     side next to the king's region is tested once, across the line the fill first meets it
//!     along (met from above or below it needs a friend or the board edge to its left or
//!     right; from the side, above or below), so a wall the attackers could never break may
//!     still fail and the game goes on (tests/copenhagen_replay.rs, five games of aagenielsen.dk
//!     that skald used to end as forts). hnefatafl.org's 7×7 board has no edge forts.
//!   - *Repetition* ([`crate::game::RepetitionRule::Forbidden`]): as 6.4.1's
//!     `Board::legal_move`, a defender move is illegal when the board it makes before its
//!     captures are taken off equals the board after any earlier move (or the set-up board),
//!     whichever side was to move then; the engine's sessions refuse it and leave it out of
//!     their legal moves, and defenders whose every move is refused lose (no legal move).
//!     shared/copenhagen.md says "recreates any earlier board"; 6.4.1 says which board.
//!   - *Counts* for "cannot escape" ("defenders left", "attackers left") are the soldiers on the
//!     board (hnefatafl.org counts captures from the full start armies, the same in a game).
//!   - *Order of end checks*: king escaped, king captured, edge fort, encirclement, no attacker
//!     left, the 140-ply draw, "cannot escape", no legal move (copenhagen.md); they are checked on
//!     every position, the FEN's start position included, and a decided position has no moves.
//!   - *140 plies*: as hnefatafl.org 6.4.1 (`Board::play_internal`: `turn_number >
//!     MAX_TURNS`, `MAX_TURNS` = 140, `turn_number` the plies played *before* the move, checked
//!     after its win checks), a move made after more than 140 plies had been played draws
//!     unless it wins: the 142nd ply draws (`Outcome` reason "move limit") and a king escape or
//!     capture on it still wins; the 141st does not draw. copenhagen.md's "more than 140 plies
//!     have been played" is read that way. Plies are counted from the FEN's move number and side
//!     to move, the start position's side to move making ply 0 ([`Position::plies_played`]).
//!     hnefatafl.org's *server* (6.4.1, `ServerGame::new`) starts each game's list of plays
//!     with a placeholder record, so on the server `turn_number` is one more and the 141st ply
//!     draws; its library and its HTP engine (`hnefatafl-text-protocol`) draw on the 142nd.
//!     skald follows the library and HTP engine: `skald htp` stands in for that engine (and is
//!     tested in lockstep with it), records are replayed as the library replays them
//!     (tests/copenhagen_replay.rs), and on the server `skald bot` takes the server's word for
//!     the end of a game.
//!   - *Shieldwall closers*: the moved piece must be one of the two closing pieces; a corner may
//!     close the other end; custodial captures are made first.
//! - **Ashton tablut** ([`RuleOptions::ashton`], docs/rules/ashton.md) follows the Tablut
//!   competition server (AGalassi/TablutCompetition, `GameAshtonTablut.checkMove`, its default
//!   settings: no repeated state allowed, unlimited draw cache, no errors allowed), checked in
//!   lockstep against it (tests/ashton_rules.rs):
//!   - *Camps* ([`RuleOptions::camps`]): the server lets a piece that starts its move on a
//!     citadel pass over citadels and stop on one at most five squares away; on the 9×9 board
//!     that is exactly "within its own camp" (every other camp square in line is farther or
//!     behind the throne), which is how skald says it. Only black pieces are ever in a camp.
//!   - *Throne*: nobody stops on or passes over it, empty or not (the server's board marks the
//!     empty throne as a piece).
//!   - *Hostile squares*: for a black victim the server tests whether the square beyond is a
//!     white piece, the king, the empty throne or a citadel other than `a5`, `e1`, `i5` and `e9`;
//!     for a white victim a black piece, the throne square (with or without the king) or any
//!     citadel. Citadels are hostile whether occupied or not. So: throne and camps always
//!     hostile to white; throne and camps but those four squares always hostile to black.
//!   - *King*: on the throne, four black pieces; on `e4`, `d5`, `f5`, `e6`, the three sides
//!     other than the throne; elsewhere, the square beyond him holds a black piece or is a
//!     camp square (occupied or not). The king captures as hammer and anvil (the server counts
//!     `K` as a white partner and checks white captures for any white move).
//!   - *Escape*: the king stopping on any edge square (the camp squares of the edges are closed
//!     to him anyway).
//!   - *End order*: captures, then the king's escape or capture, then repetition, as the server
//!     does: a winning move that also repeats a position wins.
//!   - *Repetition*: the server draws when the state (board and turn) after a move equals one
//!     after an earlier move since the last capture (positions before a capture cannot recur,
//!     so the reset changes nothing). It never stores the start position: returning to it is
//!     no draw there, and skald's rule ([`crate::game::RepetitionRule::Draw`] at the second
//!     occurrence) does count it. `skald tablut-client` follows the server by keeping only the
//!     positions after the first move as the game's history.
//!   - *No legal move*: the server has no rule; a player without a legal move can only send an
//!     illegal one or time out, and loses either way: [`NoMoveRule::Loses`].
//!   - The server's ten-hour game limit and its unimplemented "all black pieces captured" win
//!     are not rules here.
//! - **Linnaean capture** (OpenTafl `linc`) and the **surrounding rule** (`surf`) are not part of
//!   rules.md's variants; they are rule options (off in the presets) for OpenTafl rules strings
//!   ([`opentafl`]).

mod bitboard;
mod eval;
pub mod hnefatafl;
pub mod nnue;
pub mod opentafl;
pub mod packed;
mod position;
mod rules;
mod zobrist;

pub use bitboard::{Bitboard, MAX_SQUARES, Square, Squares, Wide};
pub use eval::{
    EvalFeatures, EvalWeights, FEATURE_COUNT, FEATURE_NAMES, FEATURE_TERMS, TERM_COUNT, TERM_NAMES,
};
pub use position::{
    ATTACKER_VALUE, BrandubhPosition, DEFENDER_VALUE, KING_VALUE, LargePosition, Move, Position,
    ashton, brandubh, copenhagen, copenhagen7, copenhagen13, parse_square, square_name, tablut,
    tawlbwrdd,
};
pub use rules::{
    EdgeFort, KingArmed, MAX_SIZE, MIN_SIZE, NoMoveRule, Piece, RuleOptions, Rules, Shieldwall,
    WeightSet, ashton_rules, brandubh_rules, centre, copenhagen_rules, copenhagen7_rules,
    copenhagen13_rules, corners, edge, leaked_rule_sets, neighbours, rule_set_limit,
    set_rule_set_limit, square, square_count, tablut_rules, tawlbwrdd_rules,
};
pub use zobrist::{PIECE_KEYS, SIDE_KEY};

use crate::game::{GameVisitor, ParseError};

/// Runs `visitor` with the start position of the tafl rules `options` (an OpenTafl rules
/// string's, or a preset's), on the bitboard its board size needs: 64 bits up to 8×8, 128 up
/// to 11×11, wider sets to 13×13 and 19×19. The rules are built once per distinct options
/// ([`Rules::leak`]).
///
/// # Errors
/// Those of [`Rules::leak`]: rules that cannot be played (a bad size, a start FEN that does
/// not parse, …).
pub fn visit_rules<V: GameVisitor>(
    options: RuleOptions,
    visitor: V,
) -> Result<V::Output, ParseError> {
    Ok(match options.size {
        ..=8 => visitor.visit(Position::start(Rules::<u64>::leak(options)?)),
        9..=11 => visitor.visit(Position::start(Rules::<u128>::leak(options)?)),
        12..=13 => visitor.visit(Position::start(Rules::<Wide<3>>::leak(options)?)),
        _ => visitor.visit(Position::start(Rules::<Wide<6>>::leak(options)?)),
    })
}
