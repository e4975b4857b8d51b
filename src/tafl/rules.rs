//! The rules of a tafl game as data: board size, escape squares, movement restrictions,
//! hostile squares, the king's arms and capture mode, end-of-game rules, start position.
//!
//! [`RuleOptions`] is the plain description (square lists); [`Rules`] adds the precomputed
//! bitboard masks and ray tables that move generation and capture read. The three variants of
//! rules.md are presets ([`brandubh_rules`], [`tablut_rules`], [`tawlbwrdd_rules`]).

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::sync::{LazyLock, Mutex, OnceLock, PoisonError};

use super::bitboard::{Bitboard, MAX_SQUARES, Square, Wide};
use crate::game::{ParseError, RepetitionRule, Side};

/// Marks "no square" in the neighbour table.
pub(crate) const NO_SQUARE: Square = Square::MAX;

/// Largest board side supported (19×19, in a [`super::Wide`] bitboard of 6 words).
pub const MAX_SIZE: u8 = 19;
/// Smallest board side supported.
pub const MIN_SIZE: u8 = 5;

/// The three kinds of tafl pieces; also the index into per-kind rule tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Piece {
    /// An attacker soldier (`t` in FEN).
    Attacker = 0,
    /// A defender soldier (`T` in FEN).
    Defender = 1,
    /// The king (`K` in FEN), on the defenders' side.
    King = 2,
}

impl Piece {
    /// 0, 1, 2 for indexing per-kind tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Whether the king takes part in captures (OpenTafl `ka`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum KingArmed {
    /// He captures as the moving piece and as the stationary partner (rules.md: all variants).
    Both,
    /// Only as the stationary partner (anvil).
    Anvil,
    /// Only as the moving piece (hammer).
    Hammer,
    /// Not at all.
    No,
}

impl KingArmed {
    /// The king may be the stationary partner of a capture.
    #[inline(always)]
    pub const fn anvil(self) -> bool {
        matches!(self, KingArmed::Both | KingArmed::Anvil)
    }
    /// The king captures when he moves.
    #[inline(always)]
    pub const fn hammer(self) -> bool {
        matches!(self, KingArmed::Both | KingArmed::Hammer)
    }
}

/// What happens when the side to move has no legal move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum NoMoveRule {
    /// The side to move loses (brandubh).
    Loses,
    /// The game is drawn (tablut, tawlbwrdd).
    Draw,
}

/// Shieldwall captures on the board edge (an enemy row along an edge captured at once).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Shieldwall {
    /// No shieldwall rule.
    Off,
    /// copenhagen.md (hnefatafl.org): a row of two or more enemy pieces on an edge, each with a
    /// piece of the mover directly inward of it, closed at both ends by the mover's pieces (the
    /// king closes for the defenders) or a corner, the moved piece being one of the two closers.
    /// The king counts toward the row but is never removed. Resolved after custodial captures.
    Copenhagen,
    /// OpenTafl `sw:w` (with its default `swf:y`): as [`Shieldwall::Copenhagen`], but a corner
    /// never closes a row ("weak shieldwalls"). OpenTafl `sw:s` is [`Shieldwall::Copenhagen`].
    NoCorners,
}

/// Edge forts: the defenders win when the king sits on an edge in a fort the attackers cannot
/// break.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum EdgeFort {
    /// No edge fort rule.
    Off,
    /// copenhagen.md (hnefatafl.org): the king on an edge with an empty neighbour, the region he
    /// reaches through empty squares touching no attacker, and (with two or more attackers on the
    /// board) every defender on the region's boundary backed across the line it touches the region
    /// along (see the module docs of [`crate::tafl`] for the exact test).
    Copenhagen,
    /// OpenTafl `efe:y` (`GameState.checkEdgeFortEscape`): the king on an edge with a move, or off
    /// the edge but able to reach one; the squares he reaches (his own included) touch no
    /// attacker; and no defender next to them has three or more neighbours that are neither
    /// those squares nor defenders (the king included).
    OpenTafl,
}

/// A description of tafl rules as plain data (square lists), from which [`Rules`] is built.
/// Per-kind arrays are indexed by [`Piece::index`]: attacker, defender, king. Equal options are
/// the same rules: [`Rules::leak`] builds each distinct value once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    /// Variant name as the protocol spells it (e.g. `brandubh`).
    pub name: String,
    /// Board side length (square boards, [`MIN_SIZE`]..=[`MAX_SIZE`]).
    pub size: u8,
    /// Start position FEN (rules.md format).
    pub start_fen: String,
    /// Squares the king escapes to (the defenders win when he stops on one).
    pub escape: Vec<Square>,
    /// Per piece kind: squares it may not stop on.
    pub no_stop: [Vec<Square>; 3],
    /// Per piece kind: empty squares it may not pass over.
    pub no_pass: [Vec<Square>; 3],
    /// Per victim kind: squares always hostile to it.
    pub hostile: [Vec<Square>; 3],
    /// Per victim kind: squares hostile to it while empty.
    pub hostile_empty: [Vec<Square>; 3],
    /// Per victim kind: squares hostile to it while occupied (by any piece).
    pub hostile_occupied: [Vec<Square>; 3],
    /// Whether the king captures.
    pub king_armed: KingArmed,
    /// Squares on which the king is captured only when all four neighbours hold attackers or
    /// squares hostile to the king; elsewhere two attackers (or an attacker and a square hostile
    /// to the king) on opposite sides capture him.
    pub king_strong: Vec<Square>,
    /// On a strong square, the board edge counts as a hostile side (OpenTafl `ks:m`).
    pub king_edge_hostile: bool,
    /// What "no legal move" means.
    pub no_legal_move: NoMoveRule,
    /// How repeated positions are treated.
    pub repetition: RepetitionRule,
    /// Draw after this many plies without capture (brandubh: 100), if any.
    pub move_limit: Option<u32>,
    /// Linnaean capture (OpenTafl `linc`): with the king on one of these squares and attackers
    /// on three of his sides, a defender on the fourth is captured against the king. Empty in
    /// the presets.
    pub linnaean: Vec<Square>,
    /// The attackers win when no defender (king included) can reach the board edge through
    /// squares free of attackers (OpenTafl `surf`). `false` in the presets.
    pub surround: bool,
    /// Shieldwall captures (copenhagen.md). [`Shieldwall::Off`] in rules.md's presets.
    pub shieldwall: Shieldwall,
    /// Edge forts win for the defenders (copenhagen.md). [`EdgeFort::Off`] in rules.md's presets.
    pub edge_fort: EdgeFort,
    /// Encirclement (copenhagen.md): the attackers win when the region the king reaches through
    /// empty and defender squares touches no edge square and holds every defender.
    pub encirclement: bool,
    /// The defenders win when no attacker is left (copenhagen.md).
    pub no_attackers_loses: bool,
    /// "The defenders cannot escape" (copenhagen.md, hnefatafl.org's rules section 10): the
    /// attackers win when the king is pinned on an edge or all corners are sealed with too few
    /// defenders or too short open stretches of edge left. Thresholds in [`crate::tafl`]'s docs.
    pub cannot_escape: bool,
    /// Draw on a move made after more than this many plies had been played (copenhagen.md: 140,
    /// as hnefatafl.org's `MAX_TURNS`), unless that move wins: with 140, the 142nd ply draws and
    /// a win on it still counts. Plies are counted from the FEN's move number and side to move,
    /// from the start position's side (see [`Rules::first_side`] and [`crate::tafl`]'s docs).
    pub ply_limit: Option<u32>,
    /// Per piece kind: the most squares it may move in one move (OpenTafl `spd`, e.g. Magpie's
    /// king moves one square); `None` for no limit (all presets).
    pub speed_limit: [Option<u8>; 3],
}

/// Square index of (`file`, `rank`) counted from 0 on a `size`×`size` board.
pub const fn square(file: u8, rank: u8, size: u8) -> Square {
    rank as Square * size as Square + file as Square
}

/// Number of squares of a `size`×`size` board.
pub const fn square_count(size: u8) -> Square {
    size as Square * size as Square
}

/// The four corner squares of a `size`×`size` board.
pub fn corners(size: u8) -> Vec<Square> {
    let m = size - 1;
    vec![
        square(0, 0, size),
        square(m, 0, size),
        square(0, m, size),
        square(m, m, size),
    ]
}

/// All edge squares of a `size`×`size` board.
pub fn edge(size: u8) -> Vec<Square> {
    let (size, m) = (size as Square, size as Square - 1);
    (0..size * size)
        .filter(|&s| s % size == 0 || s % size == m || s / size == 0 || s / size == m)
        .collect()
}

/// The centre square (the throne/castle) of an odd `size`×`size` board.
pub fn centre(size: u8) -> Square {
    square(size / 2, size / 2, size)
}

/// Orthogonal neighbours of `sq` on a `size`×`size` board.
pub fn neighbours(sq: Square, size: u8) -> Vec<Square> {
    let size = size as Square;
    let (f, r) = (sq % size, sq / size);
    let mut v = Vec::new();
    if r + 1 < size {
        v.push(sq + size);
    }
    if f + 1 < size {
        v.push(sq + 1);
    }
    if r > 0 {
        v.push(sq - size);
    }
    if f > 0 {
        v.push(sq - 1);
    }
    v
}

impl RuleOptions {
    /// Brandubh 7×7 (rules.md): corner escape, corners and throne restricted and hostile (throne
    /// while empty), king captured by two except on the throne (four), no legal move loses,
    /// 100-ply draw, no repetition rule.
    pub fn brandubh() -> Self {
        let size = 7;
        let mut restricted = corners(size);
        restricted.push(centre(size));
        let c = corners(size);
        let t = vec![centre(size)];
        RuleOptions {
            name: "brandubh".into(),
            size,
            start_fen: "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 a 0 1".into(),
            escape: corners(size),
            no_stop: [restricted.clone(), restricted.clone(), vec![]],
            no_pass: [restricted.clone(), restricted, vec![]],
            hostile: [c.clone(), c.clone(), c],
            hostile_empty: [t.clone(), t.clone(), t.clone()],
            hostile_occupied: [vec![], vec![], vec![]],
            king_armed: KingArmed::Both,
            king_strong: t,
            king_edge_hostile: false,
            no_legal_move: NoMoveRule::Loses,
            repetition: RepetitionRule::Ignored,
            move_limit: Some(100),
            linnaean: vec![],
            surround: false,
            shieldwall: Shieldwall::Off,
            edge_fort: EdgeFort::Off,
            encirclement: false,
            no_attackers_loses: false,
            cannot_escape: false,
            ply_limit: None,
            speed_limit: [None; 3],
        }
    }

    /// The shared rules of tablut and tawlbwrdd (rules.md): edge escape, castle nobody stops on,
    /// passable and hostile while empty, king captured by 2 in the open, by 3 beside the castle,
    /// by 4 on it; no legal move draws; repetition draws at the second occurrence.
    fn edge_escape(name: &str, size: u8, start_fen: &str) -> Self {
        let castle = centre(size);
        let t = vec![castle];
        let mut strong = neighbours(castle, size);
        strong.push(castle);
        RuleOptions {
            name: name.into(),
            size,
            start_fen: start_fen.into(),
            escape: edge(size),
            no_stop: [t.clone(), t.clone(), t.clone()],
            no_pass: [vec![], vec![], vec![]],
            hostile: [vec![], vec![], vec![]],
            hostile_empty: [t.clone(), t.clone(), t],
            hostile_occupied: [vec![], vec![], vec![]],
            king_armed: KingArmed::Both,
            king_strong: strong,
            king_edge_hostile: false,
            no_legal_move: NoMoveRule::Draw,
            repetition: RepetitionRule::Draw(2),
            move_limit: None,
            linnaean: vec![],
            surround: false,
            shieldwall: Shieldwall::Off,
            edge_fort: EdgeFort::Off,
            encirclement: false,
            no_attackers_loses: false,
            cannot_escape: false,
            ply_limit: None,
            speed_limit: [None; 3],
        }
    }

    /// Tablut 9×9 (Linnaeus, rules.md).
    pub fn tablut() -> Self {
        Self::edge_escape(
            "tablut",
            9,
            "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1",
        )
    }

    /// Copenhagen Hnefatafl (copenhagen.md) on an 11×11 or 13×13 board with the given start:
    /// corner escape; throne and corners restricted (the king may stop on them, anyone passes the
    /// empty throne); corners and the empty throne hostile to all, the occupied throne hostile to
    /// attackers through the armed king; the king captured on four sides, or three and the empty
    /// throne, never on the edge; shieldwalls, edge forts, encirclement, "cannot escape", no
    /// attacker left, no legal move loses, the 140-ply draw ([`RuleOptions::ply_limit`]: the
    /// 142nd ply draws unless it wins); defenders may not repeat a board.
    pub fn copenhagen_on(name: &str, size: u8, start_fen: &str) -> Self {
        let restricted = {
            let mut v = corners(size);
            v.push(centre(size));
            v
        };
        let c = corners(size);
        let t = vec![centre(size)];
        RuleOptions {
            name: name.into(),
            size,
            start_fen: start_fen.into(),
            escape: corners(size),
            no_stop: [restricted.clone(), restricted, vec![]],
            no_pass: [vec![], vec![], vec![]],
            hostile: [c.clone(), c, vec![]],
            hostile_empty: [t.clone(), t.clone(), t],
            hostile_occupied: [vec![], vec![], vec![]],
            king_armed: KingArmed::Both,
            king_strong: (0..square_count(size)).collect(),
            king_edge_hostile: false,
            no_legal_move: NoMoveRule::Loses,
            repetition: RepetitionRule::Forbidden(Side::Second),
            move_limit: None,
            linnaean: vec![],
            surround: false,
            shieldwall: Shieldwall::Copenhagen,
            edge_fort: EdgeFort::Copenhagen,
            encirclement: true,
            no_attackers_loses: true,
            cannot_escape: true,
            ply_limit: Some(140),
            speed_limit: [None; 3],
        }
    }

    /// Copenhagen Hnefatafl 11×11 (copenhagen.md).
    pub fn copenhagen() -> Self {
        Self::copenhagen_on(
            "copenhagen",
            11,
            "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
        )
    }

    /// Copenhagen Hnefatafl 13×13 (copenhagen.md).
    pub fn copenhagen13() -> Self {
        Self::copenhagen_on(
            "copenhagen13",
            13,
            "3ttttttt3/6t6/13/t5T5t/t5T5t/t4TTT4t/tt1TTTKTTT1tt/t4TTT4t/t5T5t/t5T5t/13/6t6/3ttttttt3 a 0 1",
        )
    }

    /// hnefatafl.org's 7×7 board (its HTP `board_size 7`; hnefatafl-copenhagen 6.4.1, `board.rs`
    /// `capture_the_king` and `play_internal`, `game.rs` `Game::make` and `all_legal_moves`):
    /// Copenhagen's rules on brandubh's board and start position, with these differences, all
    /// from that implementation: **the defenders move first**; the king is captured on the
    /// throne by four attackers, and anywhere else (the edge included) like a soldier, by two
    /// attackers in line with the moving one, or by one attacker and a corner (the empty throne
    /// is not hostile to him); there are **no edge forts**; **soldiers may not pass the empty
    /// throne** (its move lists stop them there: `all_legal_moves`, which its `play_from`,
    /// `play_to` and players use; its `play` would accept such a move, as `Board::legal_move`
    /// does not check it: skald follows the move lists). As on 11×11: the corners escape;
    /// throne and corners are restricted; corners and the empty throne are hostile to
    /// soldiers; shieldwalls, encirclement, "cannot escape", no attacker left, no legal move
    /// loses, the 140-ply draw; the defenders may not repeat a board. Not one of
    /// [`crate::variant::Variant`]'s variants: `skald htp` plays it.
    pub fn copenhagen7() -> Self {
        let size = 7;
        let mut o =
            Self::copenhagen_on("copenhagen7", size, "3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3 d 0 1");
        let c = corners(size);
        let t = vec![centre(size)];
        o.hostile = [c.clone(), c.clone(), c];
        o.hostile_empty = [t.clone(), t.clone(), vec![]];
        o.no_pass = [t.clone(), t.clone(), vec![]];
        o.king_strong = t;
        o.edge_fort = EdgeFort::Off;
        o
    }

    /// Tawlbwrdd 11×11 (rules.md; the tablut rules on a larger board).
    pub fn tawlbwrdd() -> Self {
        Self::edge_escape(
            "tawlbwrdd",
            11,
            "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
        )
    }
}

/// Tafl rules with precomputed masks, read by move generation, capture and evaluation.
/// Built once and shared as `&'static` (presets are statics; [`Rules::leak`] for runtime rules).
pub struct Rules<B> {
    /// The plain description these rules were built from.
    pub options: RuleOptions,
    /// Variant name.
    pub name: &'static str,
    /// Board side length.
    pub size: u8,
    /// All squares of the board.
    pub board: B,
    /// Escape squares of the king.
    pub escape: B,
    /// Per piece kind: squares it may not stop on.
    pub no_stop: [B; 3],
    /// Per piece kind: squares it may not pass over while empty.
    pub no_pass: [B; 3],
    /// Per victim kind: always hostile squares.
    pub hostile: [B; 3],
    /// Per victim kind: squares hostile while empty.
    pub hostile_empty: [B; 3],
    /// Per victim kind: squares hostile while occupied.
    pub hostile_occupied: [B; 3],
    /// Whether the king captures.
    pub king_armed: KingArmed,
    /// Squares where the king needs four hostile sides.
    pub king_strong: B,
    /// The edge counts as a hostile side of a strong king.
    pub king_edge_hostile: bool,
    /// What "no legal move" means.
    pub no_legal_move: NoMoveRule,
    /// Repetition rule.
    pub repetition: RepetitionRule,
    /// Plies without capture that draw, if any.
    pub move_limit: Option<u32>,
    /// Squares where the king is the anvil of a Linnaean capture (empty: no such rule).
    pub linnaean: B,
    /// The surrounding rule (OpenTafl `surf`).
    pub surround: bool,
    /// Shieldwall captures.
    pub shieldwall: Shieldwall,
    /// Edge forts.
    pub edge_fort: EdgeFort,
    /// Encirclement.
    pub encirclement: bool,
    /// No attacker left: the defenders win.
    pub no_attackers_loses: bool,
    /// "The defenders cannot escape".
    pub cannot_escape: bool,
    /// A move made after more than this many plies draws unless it wins
    /// ([`RuleOptions::ply_limit`]).
    pub ply_limit: Option<u32>,
    /// The side to move in the start position ([`RuleOptions::start_fen`]; the attackers when
    /// it does not say): plies are counted from its first move ([`super::Position::plies_played`]).
    pub first_side: Side,
    /// Any of the position-decided end rules (edge fort, encirclement, no attacker, cannot
    /// escape) is on: move generation must ask [`super::Position::decided_by_rules`].
    pub(crate) end_rules: bool,
    /// The four corners.
    pub(crate) corners: B,
    /// The squares next to a corner.
    pub(crate) corner_adjacent: B,
    /// The first and last ranks.
    pub(crate) rank_edges: B,
    /// The four edge lines as (first square, step to the next square).
    pub(crate) edge_lines: [(Square, Square); 4],
    /// Some piece kind has a speed limit ([`RuleOptions::speed_limit`]).
    pub(crate) speed_limited: bool,
    /// Per square and piece kind: the squares within its speed limit along the four lines (empty
    /// when no kind is limited).
    pub(crate) speed: Vec<[B; 3]>,
    /// Moves pack as from × 128 + to (boards of at most 128 squares).
    pub(crate) small_moves: bool,
    /// Per square: its file and rank (counted from 0).
    pub(crate) file_rank: [(u8, u8); MAX_SQUARES],
    /// Squares shown specially (`+`) when empty: those no soldier may stop on.
    pub marked: B,
    /// Squares orthogonally next to an escape square, not escape squares themselves.
    pub approach: B,
    /// For the evaluation: squares diagonally next to an escape square that are neither escape
    /// squares nor [`Rules::approach`] and on which an attacker may stop (the corner guards'
    /// posts of the corner-escape variants; none with edge escape).
    pub guard_diagonal: B,
    /// For the evaluation: squares two steps (Manhattan) from the nearest escape square, not
    /// [`Rules::guard_diagonal`], on which an attacker may stop (the outer guard ring).
    pub guard_ring: B,
    /// The squares on the board's edge.
    pub(crate) edge_mask: B,
    /// Board without the first file (for shifting west).
    pub(crate) not_file_first: B,
    /// Board without the last file (for shifting east).
    pub(crate) not_file_last: B,
    /// Per square and direction (north, east, south, west): the squares beyond it to the edge.
    pub(crate) rays: [[B; 4]; MAX_SQUARES],
    /// Per square and direction: the neighbour, or [`NO_SQUARE`].
    pub(crate) step: [[Square; 4]; MAX_SQUARES],
    /// Per square: its orthogonal neighbours.
    pub(crate) adjacent: [B; MAX_SQUARES],
    /// Per square: Manhattan distance to the nearest escape square.
    pub(crate) escape_distance: [u8; MAX_SQUARES],
    /// The raw evaluation of the start position from the defenders' view, computed on first use
    /// and subtracted by the evaluation (see `eval.rs`).
    pub(crate) balance: std::sync::OnceLock<i32>,
    /// The evaluation's weights for these rules ([`super::EvalWeights::for_variant`] of the
    /// rules' name).
    pub eval_weights: &'static super::EvalWeights,
}

impl<B: Bitboard> std::fmt::Debug for Rules<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({} {}x{})", self.name, self.size, self.size)
    }
}

fn mask<B: Bitboard>(squares: &[Square]) -> B {
    squares.iter().fold(B::ZERO, |m, &s| m | B::bit(s))
}

impl<B: Bitboard> Rules<B> {
    /// Builds rules from `options`. The variant name becomes a `&'static str` leaked once per
    /// distinct name (building the same rules again leaks nothing). Errors: board size out of
    /// range or too large for `B`, a square off the board.
    pub fn new(options: RuleOptions) -> Result<Self, ParseError> {
        let size = options.size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) || (size as u32) * (size as u32) > B::BITS {
            return Err(ParseError::new(format!(
                "board size {size} is not supported by this bitboard"
            )));
        }
        let n = square_count(size);
        let sz = size as Square;
        let lists = [&options.escape, &options.king_strong, &options.linnaean]
            .into_iter()
            .chain(options.no_stop.iter())
            .chain(options.no_pass.iter())
            .chain(options.hostile.iter())
            .chain(options.hostile_empty.iter())
            .chain(options.hostile_occupied.iter());
        for l in lists {
            if let Some(&s) = l.iter().find(|&&s| s >= n) {
                return Err(ParseError::new(format!(
                    "square index {s} is off the {size}x{size} board"
                )));
            }
        }
        let m3 = |l: &[Vec<Square>; 3]| [mask::<B>(&l[0]), mask::<B>(&l[1]), mask::<B>(&l[2])];
        let board = mask::<B>(&(0..n).collect::<Vec<_>>());
        let first: Vec<Square> = (0..n).filter(|s| s % sz != 0).collect();
        let last: Vec<Square> = (0..n).filter(|s| s % sz != sz - 1).collect();
        let mut rays = [[B::ZERO; 4]; MAX_SQUARES];
        let mut step = [[NO_SQUARE; 4]; MAX_SQUARES];
        let mut adjacent = [B::ZERO; MAX_SQUARES];
        let deltas: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        for sq in 0..n {
            let (f, r) = ((sq % sz) as i32, (sq / sz) as i32);
            for (d, &(df, dr)) in deltas.iter().enumerate() {
                let (mut x, mut y) = (f + df, r + dr);
                let inside =
                    |x: i32, y: i32| x >= 0 && y >= 0 && x < size as i32 && y < size as i32;
                if inside(x, y) {
                    let s = (y * size as i32 + x) as Square;
                    step[sq as usize][d] = s;
                    adjacent[sq as usize] |= B::bit(s);
                }
                while inside(x, y) {
                    rays[sq as usize][d] |= B::bit((y * size as i32 + x) as Square);
                    x += df;
                    y += dr;
                }
            }
        }
        let escape = mask::<B>(&options.escape);
        let mut escape_distance = [0u8; MAX_SQUARES];
        for sq in 0..n {
            let (f, r) = ((sq % sz) as i32, (sq / sz) as i32);
            escape_distance[sq as usize] = options
                .escape
                .iter()
                .map(|&e| ((e % sz) as i32 - f).abs() + ((e / sz) as i32 - r).abs())
                .min()
                .unwrap_or(2 * size as i32) as u8;
        }
        let no_stop = m3(&options.no_stop);
        let mut file_rank = [(0u8, 0u8); MAX_SQUARES];
        for sq in 0..n {
            file_rank[sq as usize] = ((sq % sz) as u8, (sq / sz) as u8);
        }
        let mut approach = B::ZERO;
        for e in escape.squares() {
            approach |= adjacent[e as usize];
        }
        approach = approach & !escape & !no_stop[0];
        let mut guard_diagonal = B::ZERO;
        let mut guard_ring = B::ZERO;
        for sq in 0..n {
            let (f, r) = ((sq % sz) as i32, (sq / sz) as i32);
            let diagonal = options
                .escape
                .iter()
                .any(|&e| ((e % sz) as i32 - f).abs() == 1 && ((e / sz) as i32 - r).abs() == 1);
            if diagonal {
                guard_diagonal |= B::bit(sq);
            } else if escape_distance[sq as usize] == 2 {
                guard_ring |= B::bit(sq);
            }
        }
        guard_diagonal = guard_diagonal & !escape & !approach & !no_stop[0];
        guard_ring = guard_ring & !escape & !approach & !no_stop[0];
        let name = intern_name(&options.name);
        let first_side = match options.start_fen.split_whitespace().nth(1) {
            Some("d") => Side::Second,
            _ => Side::First,
        };
        Ok(Rules {
            name,
            size,
            board,
            escape,
            no_stop,
            no_pass: m3(&options.no_pass),
            hostile: m3(&options.hostile),
            hostile_empty: m3(&options.hostile_empty),
            hostile_occupied: m3(&options.hostile_occupied),
            king_armed: options.king_armed,
            king_strong: mask::<B>(&options.king_strong),
            king_edge_hostile: options.king_edge_hostile,
            no_legal_move: options.no_legal_move,
            repetition: options.repetition,
            move_limit: options.move_limit,
            linnaean: mask::<B>(&options.linnaean),
            surround: options.surround,
            shieldwall: options.shieldwall,
            edge_fort: options.edge_fort,
            encirclement: options.encirclement,
            no_attackers_loses: options.no_attackers_loses,
            cannot_escape: options.cannot_escape,
            ply_limit: options.ply_limit,
            first_side,
            end_rules: options.edge_fort != EdgeFort::Off
                || options.encirclement
                || options.no_attackers_loses
                || options.cannot_escape,
            corners: mask::<B>(&corners(size)),
            corner_adjacent: corners(size)
                .iter()
                .fold(B::ZERO, |m, &c| m | adjacent[c as usize]),
            rank_edges: mask::<B>(
                &(0..n)
                    .filter(|s| s / sz == 0 || s / sz == sz - 1)
                    .collect::<Vec<_>>(),
            ),
            edge_lines: [(0, 1), (sz * (sz - 1), 1), (0, sz), (sz - 1, sz)],
            file_rank,
            small_moves: n <= 128,
            speed_limited: options.speed_limit.iter().any(|l| l.is_some()),
            speed: if options.speed_limit.iter().any(|l| l.is_some()) {
                (0..n)
                    .map(|sq| {
                        options.speed_limit.map(|limit| {
                            let mut m = B::ZERO;
                            for (d, &first) in step[sq as usize].iter().enumerate() {
                                let mut s = first;
                                let mut k = 0;
                                while s != NO_SQUARE && limit.is_none_or(|l| k < l) {
                                    m |= B::bit(s);
                                    s = step[s as usize][d];
                                    k += 1;
                                }
                            }
                            m
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            },
            marked: no_stop[0] & no_stop[1],
            approach,
            guard_diagonal,
            guard_ring,
            edge_mask: mask::<B>(&edge(size)),
            not_file_first: mask::<B>(&first),
            not_file_last: mask::<B>(&last),
            rays,
            step,
            adjacent,
            escape_distance,
            balance: std::sync::OnceLock::new(),
            eval_weights: super::EvalWeights::for_variant(&options.name),
            options,
        })
    }

    /// Rules built from `options` as `&'static Rules`, so that positions (which are `Copy` and
    /// hold a plain reference) can use them. Interned: each distinct value of `options` is built
    /// and leaked once per bitboard type (a few kilobytes), and later calls with equal options
    /// return the same rules, so a record or a protocol game may call this once per game.
    /// Errors (no rule set is leaked then): those of [`Rules::new`], or a start FEN that does
    /// not parse.
    pub fn leak(options: RuleOptions) -> Result<&'static Self, ParseError> {
        let mut interned = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (TypeId::of::<B>(), options);
        if let Some(rules) = interned.get(&key).and_then(|r| r.downcast_ref::<Self>()) {
            return Ok(rules);
        }
        let rules = Self::new(key.1.clone())?;
        super::Position::check_fen(&rules, &rules.options.start_fen)
            .map_err(|e| ParseError::new(format!("start position: {e}")))?;
        let rules: &'static Self = Box::leak(Box::new(rules));
        interned.insert(key, rules);
        Ok(rules)
    }

    /// Squares a rook on `sq` reaches before and including the first square of `blockers` in each
    /// direction (nearest blocker by lsb/msb of the ray).
    #[inline(always)]
    pub fn slides(&self, sq: Square, blockers: B) -> B {
        let r = &self.rays[sq as usize];
        let up = |d: usize| {
            let b = r[d] & blockers;
            if b.is_empty() {
                r[d]
            } else {
                r[d] ^ self.rays[b.lsb() as usize][d]
            }
        };
        let down = |d: usize| {
            let b = r[d] & blockers;
            if b.is_empty() {
                r[d]
            } else {
                r[d] ^ self.rays[b.msb() as usize][d]
            }
        };
        up(0) | up(1) | down(2) | down(3)
    }

    /// [`Rules::slides`] of a piece of kind index `k` within its speed limit, if any.
    #[inline(always)]
    pub fn moves(&self, sq: Square, k: usize, blockers: B) -> B {
        let m = self.slides(sq, blockers);
        if self.speed_limited {
            m & self.speed[sq as usize][k]
        } else {
            m
        }
    }

    /// The squares of `b` shifted one step in each orthogonal direction (staying on the board).
    #[inline]
    pub fn neighbours(&self, b: B) -> B {
        let w = self.size as u32;
        ((b << w) | (b >> w) | ((b & self.not_file_last) << 1) | ((b & self.not_file_first) >> 1))
            & self.board
    }

    /// Squares hostile to a piece of kind `victim` when the board's occupied squares are `occ`.
    #[inline(always)]
    pub fn hostile_to(&self, victim: Piece, occ: B) -> B {
        let v = victim.index();
        self.hostile[v] | (self.hostile_empty[v] & !occ) | (self.hostile_occupied[v] & occ)
    }

    /// Manhattan distance from `sq` to the nearest escape square.
    pub fn escape_distance(&self, sq: Square) -> u32 {
        self.escape_distance[sq as usize] as u32
    }
}

/// The rule sets built by [`Rules::leak`], by bitboard type and options.
type Interned = HashMap<(TypeId, RuleOptions), &'static (dyn Any + Send + Sync)>;

/// [`Rules::leak`]'s rule sets: each distinct one is leaked once.
static INTERNED: LazyLock<Mutex<Interned>> = LazyLock::new(Mutex::default);

/// How many rule sets [`Rules::leak`] has built (and leaked) so far in this process, over all
/// bitboard types: at most one per distinct [`RuleOptions`] value and bitboard type.
pub fn leaked_rule_sets() -> usize {
    INTERNED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len()
}

/// `name` as a `&'static str`, leaked once per distinct name.
fn intern_name(name: &str) -> &'static str {
    static NAMES: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Mutex::default);
    let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.into());
    names.insert(n);
    n
}

/// The brandubh rules (preset, built once).
pub fn brandubh_rules() -> &'static Rules<u64> {
    static R: OnceLock<Rules<u64>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::brandubh()).expect("brandubh rules"))
}

/// The tablut rules (preset, built once).
pub fn tablut_rules() -> &'static Rules<u128> {
    static R: OnceLock<Rules<u128>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::tablut()).expect("tablut rules"))
}

/// The tawlbwrdd rules (preset, built once).
pub fn tawlbwrdd_rules() -> &'static Rules<u128> {
    static R: OnceLock<Rules<u128>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::tawlbwrdd()).expect("tawlbwrdd rules"))
}

/// The Copenhagen Hnefatafl 11×11 rules (preset, built once).
pub fn copenhagen_rules() -> &'static Rules<u128> {
    static R: OnceLock<Rules<u128>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::copenhagen()).expect("copenhagen rules"))
}

/// hnefatafl.org's 7×7 Copenhagen rules ([`RuleOptions::copenhagen7`]; preset, built once).
pub fn copenhagen7_rules() -> &'static Rules<u64> {
    static R: OnceLock<Rules<u64>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::copenhagen7()).expect("copenhagen7 rules"))
}

/// The Copenhagen Hnefatafl 13×13 rules (preset, built once).
pub fn copenhagen13_rules() -> &'static Rules<Wide<3>> {
    static R: OnceLock<Rules<Wide<3>>> = OnceLock::new();
    R.get_or_init(|| Rules::new(RuleOptions::copenhagen13()).expect("copenhagen13 rules"))
}
