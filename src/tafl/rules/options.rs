//! The plain description of tafl rules ([`RuleOptions`]: square lists, piece kinds, capture
//! and end-rule choices) with the board geometry it is written in (square numbering, corners,
//! edges, centre) and the presets of the variants (rules.md, copenhagen.md).

use super::super::bitboard::Square;
use crate::game::{RepetitionRule, Side};

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

/// A description of tafl rules as plain data (square lists), from which [`super::Rules`] is built.
/// Per-kind arrays are indexed by [`Piece::index`]: attacker, defender, king. Equal options are
/// the same rules: [`super::Rules::leak`] builds each distinct value once.
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
    /// from the start position's side (see [`super::Rules::first_side`] and [`crate::tafl`]'s docs).
    pub ply_limit: Option<u32>,
    /// Per piece kind: the most squares it may move in one move (OpenTafl `spd`, e.g. Magpie's
    /// king moves one square); `None` for no limit (all presets).
    pub speed_limit: [Option<u8>; 3],
    /// Camps (Ashton tablut's citadels): groups of squares, each square in at most one group.
    /// A piece standing on a square of a camp may pass over and stop on the squares of that camp
    /// even where [`RuleOptions::no_stop`] and [`RuleOptions::no_pass`] forbid them (the presets
    /// list every camp square there), and may leave it; other camps stay closed to it. A FEN may
    /// put soldiers on camp squares. Empty in every preset but [`RuleOptions::ashton`].
    pub camps: Vec<Vec<Square>>,
    /// The evaluation's weights for games under these rules (no rule: the presets carry their
    /// variant's tuned set, the others and rules strings the hand-set weights), so that the
    /// evaluation's configuration goes with the rules' data and never by their name.
    pub eval_weights: WeightSet,
    /// The network built into the binary that evaluates games under these rules by default
    /// (its file name under `nets/`, [`crate::tafl::nnue::embedded`]; no rule: the presets
    /// that won their SPRT carry it, docs/training.md), `None` for the hand-written evaluation:
    /// keyed on the rules' data, never on their name.
    pub network: Option<&'static str>,
}

/// Copenhagen 11×11's built-in network, its file under `nets/` ([`RuleOptions::copenhagen`]'s
/// [`RuleOptions::network`]; its bytes are built in by [`crate::tafl::nnue`]). Data of the
/// preset, so that the rules never import the evaluation.
pub const COPENHAGEN_NETWORK: &str = "copenhagen-r128-g3-ft.nnue";

/// Which set of the tafl evaluation's weights a game uses ([`RuleOptions::eval_weights`]; the
/// weights themselves are [`crate::tafl::EvalWeights::of`] it).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum WeightSet {
    /// The hand-set weights ([`crate::tafl::EvalWeights::DEFAULT`]).
    Hand,
    /// Brandubh's tuned set.
    Brandubh,
    /// Tablut's tuned set.
    Tablut,
    /// Ashton Tablut's tuned set.
    Ashton,
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
    /// These rules with `side` to move in the start position (the side field of
    /// [`RuleOptions::start_fen`]: `a` attackers, `d` defenders), or `None` when `side` moves
    /// first already. HTP's `first_move defender` plays under such a copy, so that the move
    /// limit counts from its first move (as hnefatafl.org's reference does).
    pub fn with_first_mover(&self, side: Side) -> Option<RuleOptions> {
        let mut fields: Vec<&str> = self.start_fen.split_whitespace().collect();
        let letter = if side == Side::First { "a" } else { "d" };
        if fields.get(1) == Some(&letter) {
            return None;
        }
        if fields.len() < 2 {
            fields.push(letter);
        } else {
            fields[1] = letter;
        }
        Some(RuleOptions {
            start_fen: fields.join(" "),
            ..self.clone()
        })
    }

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
            camps: vec![],
            eval_weights: WeightSet::Brandubh,
            network: None,
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
            camps: vec![],
            eval_weights: WeightSet::Hand,
            network: None,
        }
    }

    /// Tablut 9×9 (Linnaeus, rules.md).
    pub fn tablut() -> Self {
        RuleOptions {
            eval_weights: WeightSet::Tablut,
            network: None,
            ..Self::edge_escape(
                "tablut",
                9,
                "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 a 0 1",
            )
        }
    }

    /// Ashton tablut 9×9, the rules of the University of Bologna's Tablut competition server
    /// (`GameAshtonTablut.java`; docs/rules/ashton.md says each choice): the defenders (white)
    /// move first; four camps (citadels) of four squares in a T on the middle of each edge, where
    /// the attackers (black) start; no piece stops on or passes over the throne (the king, once
    /// off it, never goes back) or a camp, except that an attacker still in its own camp may move
    /// within it and leave it ([`RuleOptions::camps`]); the throne and the camps are hostile to
    /// every soldier, whether empty or not, except the middle square of each camp's edge side
    /// (`a5`, `e1`, `i5`, `e9`), which is not hostile to the attackers; the king is armed,
    /// captured by four attackers on the throne, by three and the throne next to it, and
    /// elsewhere by two attackers or an attacker and a camp square; he escapes on any edge
    /// square that is not a camp; a side with no legal move loses; a position that occurs a
    /// second time draws.
    pub fn ashton() -> Self {
        let size = 9;
        let sq = |f: u8, r: u8| square(f, r, size);
        let camps = vec![
            vec![sq(0, 3), sq(0, 4), sq(0, 5), sq(1, 4)],
            vec![sq(3, 0), sq(4, 0), sq(5, 0), sq(4, 1)],
            vec![sq(8, 3), sq(8, 4), sq(8, 5), sq(7, 4)],
            vec![sq(3, 8), sq(4, 8), sq(5, 8), sq(4, 7)],
        ];
        let camp_squares: Vec<Square> = camps.iter().flatten().copied().collect();
        let throne = centre(size);
        let mut closed = camp_squares.clone();
        closed.push(throne);
        let outer_middles = [sq(0, 4), sq(4, 0), sq(8, 4), sq(4, 8)];
        let mut hostile_to_attackers: Vec<Square> = camp_squares
            .iter()
            .copied()
            .filter(|s| !outer_middles.contains(s))
            .collect();
        hostile_to_attackers.push(throne);
        let mut hostile_to_defenders = camp_squares.clone();
        hostile_to_defenders.push(throne);
        // Tablut's edge-escape rules (the king's capture among them), then what Ashton changes.
        RuleOptions {
            escape: edge(size)
                .into_iter()
                .filter(|s| !camp_squares.contains(s))
                .collect(),
            no_stop: [closed.clone(), closed.clone(), closed.clone()],
            no_pass: [closed.clone(), closed.clone(), closed],
            hostile: [
                hostile_to_attackers,
                hostile_to_defenders,
                camp_squares.clone(),
            ],
            hostile_empty: [vec![], vec![], vec![throne]],
            no_legal_move: NoMoveRule::Loses,
            camps,
            eval_weights: WeightSet::Ashton,
            network: None,
            ..Self::edge_escape(
                "ashton",
                size,
                "3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3 d 0 1",
            )
        }
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
            camps: vec![],
            eval_weights: WeightSet::Hand,
            network: None,
        }
    }

    /// Copenhagen Hnefatafl 11×11 (copenhagen.md).
    pub fn copenhagen() -> Self {
        RuleOptions {
            network: Some(COPENHAGEN_NETWORK),
            ..Self::copenhagen_on(
                "copenhagen",
                11,
                "3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3 a 0 1",
            )
        }
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
