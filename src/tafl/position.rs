//! A tafl position: bitboards, FEN, move generation, captures, the [`Game`] implementation.

use std::fmt;

use super::bitboard::{Bitboard, Square};
use super::rules::{EdgeFort, NoMoveRule, Piece, Rules, Shieldwall};
use super::zobrist::{PIECE_KEYS, SIDE_KEY};
use crate::game::{Game, Outcome, ParseError, Reason, RepetitionRule, Side};

/// A tafl move: a piece slides from `from` to `to` along a rank or file.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece stops on.
    pub to: Square,
}

/// Value of a captured attacker soldier in [`Game::move_gain`] and material, centipawns.
pub const ATTACKER_VALUE: i32 = 100;
/// Value of a captured defender soldier, centipawns.
pub const DEFENDER_VALUE: i32 = 180;
/// Value of capturing the king (the game is won), centipawns.
pub const KING_VALUE: i32 = 20_000;

/// A tafl position. `Copy`: the search copies and makes moves on the copy.
#[derive(Clone, Copy)]
pub struct Position<B: Bitboard> {
    pub(crate) rules: &'static Rules<B>,
    pub(crate) attackers: B,
    pub(crate) defenders: B,
    pub(crate) king: B,
    pub(crate) side: Side,
    pub(crate) clock: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

/// Brandubh positions (7×7, `u64` bitboards).
pub type BrandubhPosition = Position<u64>;
/// Tablut and tawlbwrdd positions (9×9 and 11×11, `u128` bitboards).
pub type LargePosition = Position<u128>;

/// The brandubh start position.
pub fn brandubh() -> Position<u64> {
    Position::start(super::brandubh_rules())
}

/// The tablut start position.
pub fn tablut() -> Position<u128> {
    Position::start(super::tablut_rules())
}

/// The tawlbwrdd start position.
pub fn tawlbwrdd() -> Position<u128> {
    Position::start(super::tawlbwrdd_rules())
}

/// The Copenhagen Hnefatafl 11×11 start position.
pub fn copenhagen() -> Position<u128> {
    Position::start(super::copenhagen_rules())
}

/// The start position of hnefatafl.org's 7×7 Copenhagen board ([`super::copenhagen7_rules`]).
pub fn copenhagen7() -> Position<u64> {
    Position::start(super::copenhagen7_rules())
}

/// The Copenhagen Hnefatafl 13×13 start position.
pub fn copenhagen13() -> Position<super::Wide<3>> {
    Position::start(super::copenhagen13_rules())
}

/// Square name such as `d1` on a board of side `size`.
pub fn square_name(sq: Square, size: u8) -> String {
    let size = size as Square;
    format!("{}{}", (b'a' + (sq % size) as u8) as char, sq / size + 1)
}

/// Parses a square name such as `d1` or `k11`; `None` if off a `size` board.
pub fn parse_square(text: &str, size: u8) -> Option<Square> {
    let mut chars = text.chars();
    let f = chars.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let file = f as u32 - 'a' as u32;
    let rank_text = chars.as_str();
    if rank_text.is_empty() || rank_text.len() > 2 || !rank_text.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rank: u32 = rank_text.parse().ok()?;
    if file >= size as u32 || rank == 0 || rank > size as u32 {
        return None;
    }
    Some(((rank - 1) * size as u32 + file) as Square)
}

impl<B: Bitboard> Position<B> {
    /// The start position of `rules`.
    pub fn start(rules: &'static Rules<B>) -> Self {
        Self::from_fen(rules, &rules.options.start_fen).expect("rules with a valid start FEN")
    }

    /// The rules of this position.
    pub fn rules(&self) -> &'static Rules<B> {
        self.rules
    }

    /// Attacker soldiers.
    pub fn attackers(&self) -> B {
        self.attackers
    }

    /// Defender soldiers (without the king).
    pub fn defenders(&self) -> B {
        self.defenders
    }

    /// The king (empty once captured).
    pub fn king(&self) -> B {
        self.king
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.attackers | self.defenders | self.king
    }

    /// The fullmove number (starts at 1, grows after the defenders move).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// `true` once the king has escaped or been captured (no moves remain).
    #[inline(always)]
    pub fn king_gone(&self) -> bool {
        self.king.is_empty() || !(self.king & self.rules.escape).is_empty()
    }

    /// `true` when the king (still on the board) can move to an escape square: he has an open
    /// line to one. Whoever is to move, a king move there ends the game.
    fn king_sees_escape(&self) -> bool {
        if self.king_gone() {
            return false;
        }
        let k = self.king.lsb();
        !(self.targets(k, Piece::King) & self.rules.escape).is_empty()
    }

    /// Plies played since the start, from the move number and the side to move: the first move
    /// of the side that moves first in the rules' start position ([`Rules::first_side`]) is
    /// ply 0. The move number grows after the defenders move, so when the attackers move first
    /// (`a` 1) move *n* holds plies 2*n* − 2 and 2*n* − 1; when the defenders do (`d` 1, as on
    /// hnefatafl.org's 7×7 board) their move 1 is ply 0 and the attackers' reply, move 2, ply 1.
    pub fn plies_played(&self) -> u32 {
        let plies = (self.fullmove - 1).saturating_mul(2) + (self.side == Side::Second) as u32;
        plies.saturating_sub((self.rules.first_side == Side::Second) as u32)
    }

    /// `true` when the side to move has no moves because the game is over by the position alone
    /// (king escaped or captured, or one of the end rules of [`Position::decided_by_rules`]).
    #[inline(always)]
    pub fn no_moves(&self) -> bool {
        self.king_gone() || (self.rules.end_rules && self.decided_by_rules().is_some())
    }

    /// Parses a FEN (rules.md, "Position strings") under `rules`. Errors say what is wrong and
    /// where: rank/square counts, unknown letters, king count, pieces on squares they may not
    /// stand on, the side letter, the numbers.
    pub fn from_fen(rules: &'static Rules<B>, fen: &str) -> Result<Self, ParseError> {
        let (attackers, defenders, king, side, clock, fullmove) = Self::parse_fen(rules, fen)?;
        let mut pos = Position {
            rules,
            attackers,
            defenders,
            king,
            side,
            clock,
            fullmove,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Checks that `fen` parses under `rules` ([`Position::from_fen`]'s errors), for rules that
    /// are not `'static` yet.
    pub(crate) fn check_fen(rules: &Rules<B>, fen: &str) -> Result<(), ParseError> {
        Self::parse_fen(rules, fen).map(|_| ())
    }

    /// [`Position::from_fen`]'s parsing: attackers, defenders, king, side to move, clock and
    /// move number.
    #[allow(clippy::type_complexity)]
    fn parse_fen(rules: &Rules<B>, fen: &str) -> Result<(B, B, B, Side, u32, u32), ParseError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 || fields.len() > 4 {
            return Err(ParseError::new(format!(
                "FEN has {} fields, expected 2 to 4 (<board> <side> [<clock> [<move number>]])",
                fields.len()
            )));
        }
        let size = rules.size as usize;
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != size {
            return Err(ParseError::new(format!(
                "FEN has {} ranks, expected {size}",
                ranks.len()
            )));
        }
        let (mut attackers, mut defenders, mut king) = (B::ZERO, B::ZERO, B::ZERO);
        let mut kings = 0;
        for (i, text) in ranks.iter().enumerate() {
            let rank = size - 1 - i;
            let mut file = 0usize;
            let mut run = 0usize;
            let bytes = text.as_bytes();
            for (j, &c) in bytes.iter().enumerate() {
                if c.is_ascii_digit() {
                    run = run * 10 + (c - b'0') as usize;
                    if run > size {
                        return Err(ParseError::new(format!(
                            "FEN rank {} has too many squares",
                            rank + 1
                        )));
                    }
                    let next_digit = bytes.get(j + 1).is_some_and(|b| b.is_ascii_digit());
                    if !next_digit {
                        if run == 0 {
                            return Err(ParseError::new(format!(
                                "FEN rank {} has an empty count of 0",
                                rank + 1
                            )));
                        }
                        file += run;
                        run = 0;
                    }
                    continue;
                }
                if file >= size {
                    return Err(ParseError::new(format!(
                        "FEN rank {} has more than {size} squares",
                        rank + 1
                    )));
                }
                let sq = (rank * size + file) as Square;
                let bit = B::bit(sq);
                match c {
                    b't' => attackers |= bit,
                    b'T' => defenders |= bit,
                    b'K' => {
                        king |= bit;
                        kings += 1;
                    }
                    _ => {
                        let ch = text[j..].chars().next().unwrap_or('?');
                        return Err(ParseError::new(format!(
                            "FEN rank {} has an unknown piece letter '{}' (expected t, T, K or a digit)",
                            rank + 1,
                            ch.escape_default()
                        )));
                    }
                }
                let kind = match c {
                    b't' => Piece::Attacker,
                    b'T' => Piece::Defender,
                    _ => Piece::King,
                };
                if kind != Piece::King && rules.no_stop[kind.index()].has(sq) {
                    return Err(ParseError::new(format!(
                        "FEN has a{} on {}, where it may not stand",
                        if kind == Piece::Attacker {
                            "n attacker"
                        } else {
                            " defender"
                        },
                        square_name(sq, rules.size)
                    )));
                }
                file += 1;
            }
            if file != size {
                return Err(ParseError::new(format!(
                    "FEN rank {} has {file} squares, expected {size}",
                    rank + 1
                )));
            }
        }
        if kings == 0 {
            return Err(ParseError::new("FEN has no king"));
        }
        if kings > 1 {
            return Err(ParseError::new(format!(
                "FEN has {kings} kings, expected 1"
            )));
        }
        let side = match fields[1] {
            "a" => Side::First,
            "d" => Side::Second,
            s => {
                return Err(ParseError::new(format!(
                    "FEN side to move is '{}', expected a (attackers) or d (defenders)",
                    s.escape_default()
                )));
            }
        };
        let clock = match fields.get(2) {
            None => 0,
            Some(t) => t.parse::<u32>().map_err(|_| {
                ParseError::new(format!(
                    "FEN clock '{}' is not a number",
                    t.escape_default()
                ))
            })?,
        };
        let fullmove = match fields.get(3) {
            None => 1,
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return Err(ParseError::new(format!(
                        "FEN move number '{}' is not a number from 1",
                        t.escape_default()
                    )));
                }
            },
        };
        Ok((attackers, defenders, king, side, clock, fullmove))
    }

    /// Squares a piece of `kind` on `sq` may move to.
    #[inline(always)]
    pub fn targets(&self, sq: Square, kind: Piece) -> B {
        let occ = self.occupied();
        let k = kind.index();
        self.rules.moves(sq, k, occ | self.rules.no_pass[k]) & !(occ | self.rules.no_stop[k])
    }

    /// Number of legal moves (bulk count by popcount, no move list); 0 once the king is gone.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.no_moves() {
            return 0;
        }
        self.count_moves_unchecked()
    }

    /// [`Position::count_moves`] for a position known not to be decided.
    #[inline(always)]
    fn count_moves_unchecked(&self) -> u64 {
        if self.rules.speed_limited {
            return self.count_moves_limited();
        }
        self.count_moves_with::<false>()
    }

    /// [`Position::count_moves_unchecked`] under speed limits: out of line, so that the common
    /// path stays as small as without them.
    #[cold]
    #[inline(never)]
    fn count_moves_limited(&self) -> u64 {
        self.count_moves_with::<true>()
    }

    /// [`Position::count_moves_unchecked`] with the speed limits applied or not (decided once,
    /// outside the loops, so that rules without limits pay nothing for them).
    #[inline(always)]
    fn count_moves_with<const LIMITED: bool>(&self) -> u64 {
        let r = self.rules;
        let occ = self.occupied();
        let mut n = 0u64;
        let count = |pieces: B, k: usize| {
            let blockers = occ | r.no_pass[k];
            let free = !(occ | r.no_stop[k]);
            pieces
                .squares()
                .map(|s| {
                    let m = r.slides(s, blockers);
                    let m = if LIMITED {
                        m & r.speed[s as usize][k]
                    } else {
                        m
                    };
                    (m & free).popcount() as u64
                })
                .sum::<u64>()
        };
        if self.side == Side::First {
            n += count(self.attackers, 0);
        } else {
            n += count(self.defenders, 1);
            n += count(self.king, 2);
        }
        n
    }

    /// `true` if the side to move has a legal move. Cheaper than [`Position::count_moves`]: a
    /// piece next to an empty square it may stop on can always step there, and only when no
    /// piece can is every slide looked at.
    #[inline]
    pub fn has_move(&self) -> bool {
        if self.no_moves() {
            return false;
        }
        let r = self.rules;
        let occ = self.occupied();
        let kinds: &[(B, usize)] = if self.side == Side::First {
            &[(self.attackers, 0)]
        } else {
            &[(self.defenders, 1), (self.king, 2)]
        };
        for &(pieces, k) in kinds {
            if !(r.neighbours(pieces) & !(occ | r.no_stop[k]) & r.board).is_empty() {
                return true;
            }
        }
        for &(pieces, k) in kinds {
            let blockers = occ | r.no_pass[k];
            let free = !(occ | r.no_stop[k]);
            if pieces
                .squares()
                .any(|s| !(r.moves(s, k, blockers) & free).is_empty())
            {
                return true;
            }
        }
        false
    }

    /// Calls `f(from, to, kind)` for every legal move.
    #[inline(always)]
    fn for_each_move(&self, f: impl FnMut(Square, Square, Piece)) {
        if self.no_moves() {
            return;
        }
        self.for_each_move_unchecked(f);
    }

    /// [`Position::for_each_move`] for a position known not to be decided.
    #[inline(always)]
    fn for_each_move_unchecked(&self, f: impl FnMut(Square, Square, Piece)) {
        if self.rules.speed_limited {
            return self.for_each_move_limited(f);
        }
        self.for_each_move_with::<false>(f)
    }

    /// [`Position::for_each_move_unchecked`] under speed limits, out of line.
    #[cold]
    #[inline(never)]
    fn for_each_move_limited(&self, f: impl FnMut(Square, Square, Piece)) {
        self.for_each_move_with::<true>(f)
    }

    /// [`Position::for_each_move_unchecked`] with the speed limits applied or not.
    #[inline(always)]
    fn for_each_move_with<const LIMITED: bool>(&self, mut f: impl FnMut(Square, Square, Piece)) {
        let r = self.rules;
        let occ = self.occupied();
        let mut each = |pieces: B, kind: Piece| {
            let k = kind.index();
            let blockers = occ | r.no_pass[k];
            let free = !(occ | r.no_stop[k]);
            for s in pieces.squares() {
                let m = r.slides(s, blockers);
                let m = if LIMITED {
                    m & r.speed[s as usize][k]
                } else {
                    m
                };
                for t in (m & free).squares() {
                    f(s, t, kind);
                }
            }
        };
        if self.side == Side::First {
            each(self.attackers, Piece::Attacker);
        } else {
            each(self.defenders, Piece::Defender);
            each(self.king, Piece::King);
        }
    }

    /// The kind of the piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if self.attackers.has(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.has(sq) {
            Some(Piece::Defender)
        } else if self.king.has(sq) {
            Some(Piece::King)
        } else {
            None
        }
    }

    /// Makes the move `from`-`to` of a piece of `kind`; returns the number of pieces captured
    /// (the king counts as one).
    #[inline(always)]
    fn make(&mut self, from: Square, to: Square, kind: Piece) -> u32 {
        let m = B::bit(from) | B::bit(to);
        match kind {
            Piece::Attacker => self.attackers ^= m,
            Piece::Defender => self.defenders ^= m,
            Piece::King => self.king ^= m,
        }
        let keys = &PIECE_KEYS[kind.index()];
        self.hash ^= keys[from as usize] ^ keys[to as usize];
        let mut captured = self.captures(to, kind);
        if self.rules.shieldwall != Shieldwall::Off && self.rules.edge_mask.has(to) {
            captured += self.shieldwalls(to, kind);
        }
        self.clock = if captured > 0 {
            0
        } else {
            self.clock.saturating_add(1)
        };
        if self.side == Side::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opponent();
        self.hash ^= SIDE_KEY;
        captured
    }

    /// Custodial captures by the piece of `kind` that just moved to `to` (rules.md).
    #[inline(always)]
    fn captures(&mut self, to: Square, kind: Piece) -> u32 {
        let r = self.rules;
        let adj = r.adjacent[to as usize];
        let mut count = 0;
        let (enemy, victim, own) = match kind {
            Piece::Attacker => (self.defenders, Piece::Defender, self.attackers),
            Piece::Defender => {
                let anvil_king = if r.king_armed.anvil() {
                    self.king
                } else {
                    B::ZERO
                };
                (self.attackers, Piece::Attacker, self.defenders | anvil_king)
            }
            Piece::King => {
                if !r.king_armed.hammer() {
                    return 0;
                }
                (self.attackers, Piece::Attacker, self.defenders)
            }
        };
        if !(adj & enemy).is_empty() {
            let mut walls = own | r.hostile_to(victim, self.occupied());
            if kind == Piece::Attacker && !(self.king & r.linnaean).is_empty() {
                // Linnaean capture: the king on the throne, hemmed in on three sides, is the
                // anvil against the defender on his fourth side.
                let k = self.king.lsb();
                if (r.adjacent[k as usize] & self.attackers).popcount() >= 3 {
                    walls |= self.king;
                }
            }
            let steps = &r.step[to as usize];
            let mut removed = B::ZERO;
            for (d, &n) in steps.iter().enumerate() {
                if n == super::rules::NO_SQUARE || !enemy.has(n) {
                    continue;
                }
                let b = r.step[n as usize][d];
                if b != super::rules::NO_SQUARE && walls.has(b) {
                    removed |= B::bit(n);
                    self.hash ^= PIECE_KEYS[victim.index()][n as usize];
                    count += 1;
                }
            }
            match victim {
                Piece::Attacker => self.attackers ^= removed,
                _ => self.defenders ^= removed,
            }
        }
        if kind == Piece::Attacker && !(adj & self.king).is_empty() && self.king_captured(to) {
            let k = self.king.lsb();
            self.hash ^= PIECE_KEYS[Piece::King.index()][k as usize];
            self.king = B::ZERO;
            count += 1;
        }
        count
    }

    /// Whether the attacker that just moved to `to` (next to the king) captures the king.
    #[inline]
    fn king_captured(&self, to: Square) -> bool {
        let r = self.rules;
        let k = self.king.lsb();
        let walls = self.attackers | r.hostile_to(Piece::King, self.occupied());
        let steps = &r.step[k as usize];
        if r.king_strong.has(k) {
            steps.iter().all(|&n| {
                if n == super::rules::NO_SQUARE {
                    r.king_edge_hostile
                } else {
                    walls.has(n)
                }
            })
        } else {
            let d = r.step[to as usize]
                .iter()
                .position(|&n| n == k)
                .unwrap_or(0);
            let b = steps[d];
            b != super::rules::NO_SQUARE && walls.has(b)
        }
    }

    /// Shieldwall captures (copenhagen.md) by the piece of `kind` that just moved to the edge
    /// square `to`: along each edge line through `to`, in both directions, a row of two or more
    /// enemy pieces each with a piece of the mover directly inward, closed beyond by a piece of the
    /// mover or a corner. The king counts toward the row but stays. Returns the number removed.
    fn shieldwalls(&mut self, to: Square, kind: Piece) -> u32 {
        let r = self.rules;
        let (enemy, own) = if kind == Piece::Attacker {
            (self.defenders | self.king, self.attackers)
        } else {
            (self.attackers, self.defenders | self.king)
        };
        let closers = if r.shieldwall == Shieldwall::NoCorners {
            own
        } else {
            own | r.corners
        };
        let (file, rank) = r.file_rank[to as usize];
        let last = r.size - 1;
        // (inward direction, the two directions along the edge); directions N, E, S, W = 0..3.
        let mut lines = [(0usize, [0usize; 2]); 2];
        let mut n = 0;
        for (on, inward, along) in [
            (rank == 0, 0, [1, 3]),
            (rank == last, 2, [1, 3]),
            (file == 0, 1, [0, 2]),
            (file == last, 3, [0, 2]),
        ] {
            if on && n < 2 {
                lines[n] = (inward, along);
                n += 1;
            }
        }
        let mut removed = B::ZERO;
        for &(inward, along) in &lines[..n] {
            for d in along {
                let mut row = B::ZERO;
                let mut count = 0;
                let mut s = r.step[to as usize][d];
                while s != super::rules::NO_SQUARE
                    && enemy.has(s)
                    && own.has(r.step[s as usize][inward])
                {
                    row |= B::bit(s);
                    count += 1;
                    s = r.step[s as usize][d];
                }
                if count >= 2 && s != super::rules::NO_SQUARE && closers.has(s) {
                    removed |= row;
                }
            }
        }
        removed &= !self.king;
        if removed.is_empty() {
            return 0;
        }
        let victim = if kind == Piece::Attacker {
            Piece::Defender
        } else {
            Piece::Attacker
        };
        for s in removed.squares() {
            self.hash ^= PIECE_KEYS[victim.index()][s as usize];
        }
        match victim {
            Piece::Attacker => self.attackers ^= removed,
            _ => self.defenders ^= removed,
        }
        removed.popcount()
    }

    /// The outcome by the position-decided end rules that are on (copenhagen.md, checked in this
    /// order): edge fort (defenders win), encirclement (attackers win), no attacker left
    /// (defenders win), the defenders cannot escape (attackers win). `None` if none applies or
    /// the king is gone (see [`Position::king_gone`]).
    pub fn decided_by_rules(&self) -> Option<Outcome> {
        let r = self.rules;
        if self.king.is_empty() {
            return None;
        }
        if r.edge_fort != EdgeFort::Off && self.edge_fort() {
            return Some(Outcome::win(Side::Second, Reason::EdgeFort));
        }
        if r.encirclement && self.encircled() {
            return Some(Outcome::win(Side::First, Reason::Surrounded));
        }
        if r.no_attackers_loses && self.attackers.is_empty() {
            return Some(Outcome::win(Side::Second, Reason::NoPieces));
        }
        if r.cannot_escape && self.cannot_escape() {
            return Some(Outcome::win(Side::First, Reason::CannotEscape));
        }
        None
    }

    /// Edge fort (copenhagen.md): the king on an edge with an empty neighbour, no attacker next
    /// to the region he reaches through empty squares, and with two or more attackers on the
    /// board, every defender soldier next to that region backed: one touching the region only
    /// vertically needs a defender, the king or the board edge to its left or right; one
    /// touching it only horizontally, above or below; one touching it both ways is safe. The
    /// king himself is not tested (hnefatafl.org tests him in an order that matters only on the
    /// a-file; skald plays the rule alike on all four edges).
    pub fn edge_fort(&self) -> bool {
        let r = self.rules;
        if r.edge_fort == EdgeFort::OpenTafl {
            return self.opentafl_edge_fort();
        }
        if (self.king & r.edge_mask).is_empty() {
            return false;
        }
        let occ = self.occupied();
        let k = self.king.lsb();
        if (r.adjacent[k as usize] & !occ).is_empty() {
            return false;
        }
        // The king's region through empty squares; no attacker may touch it.
        let empty = r.board & !occ;
        let mut region = self.king;
        let around = loop {
            let around = r.neighbours(region);
            if !(around & self.attackers).is_empty() {
                return false;
            }
            let next = region | (around & empty);
            if next == region {
                break around & !region;
            }
            region = next;
        };
        if self.attackers.popcount() < 2 {
            return true;
        }
        let w = r.size as u32;
        let boundary = around & self.defenders;
        let vertical = boundary & ((region << w) | (region >> w));
        let horizontal =
            boundary & (((region & r.not_file_last) << 1) | ((region & r.not_file_first) >> 1));
        let dk = self.defenders | self.king;
        let h_backed = ((dk & r.not_file_last) << 1)
            | ((dk & r.not_file_first) >> 1)
            | !r.not_file_first
            | !r.not_file_last;
        let v_backed = (dk << w) | (dk >> w) | r.rank_edges;
        let weak = (vertical & !horizontal & !h_backed) | (horizontal & !vertical & !v_backed);
        weak.is_empty()
    }

    /// OpenTafl's edge fort ([`EdgeFort::OpenTafl`]).
    fn opentafl_edge_fort(&self) -> bool {
        let r = self.rules;
        let occ = self.occupied();
        let empty = r.board & !occ;
        let k = self.king.lsb();
        let on_edge = !(self.king & r.edge_mask).is_empty();
        if on_edge && (r.adjacent[k as usize] & empty).is_empty() {
            return false;
        }
        let mut region = self.king;
        loop {
            let around = r.neighbours(region);
            if !(around & self.attackers).is_empty() {
                return false;
            }
            let next = region | (around & empty);
            if next == region {
                break;
            }
            region = next;
        }
        if !on_edge && (region & r.edge_mask).is_empty() {
            return false;
        }
        let friends = self.defenders | self.king;
        let fort = r.neighbours(region) & self.defenders;
        fort.squares()
            .all(|s| (r.adjacent[s as usize] & !region & !friends).popcount() < 3)
    }

    /// Encirclement (copenhagen.md): the region the king reaches through empty and defender
    /// squares touches no edge square and holds every defender.
    pub fn encircled(&self) -> bool {
        let r = self.rules;
        // Quick answers: a defender on the edge, or an open line from the king to the edge.
        if !(self.defenders & r.edge_mask).is_empty() {
            return false;
        }
        let k = self.king.lsb() as usize;
        if r.rays[k]
            .iter()
            .any(|&ray| (ray & self.attackers).is_empty())
        {
            return false;
        }
        let free = r.board & !self.attackers;
        let mut region = self.king;
        loop {
            if !(region & r.edge_mask).is_empty() {
                return false;
            }
            let next = (region | r.neighbours(region)) & free;
            if next == region {
                return (self.defenders & !region).is_empty();
            }
            region = next;
        }
    }

    /// "The defenders cannot escape" (copenhagen.md; hnefatafl.org's rules, section 10): the
    /// king trapped on an edge ([`Position::king_trapped`]), or all four corners closed off
    /// ([`Position::closed_corner`]) and then fewer than 4 defender soldiers against 13 or more
    /// attackers, or fewer than 6 defender soldiers and on every edge at most one run of at most
    /// 3 open squares, or on every edge at most one run of at most 2 open squares (open: neither
    /// an attacker nor a square the corners' regions hold).
    pub fn cannot_escape(&self) -> bool {
        let defenders = self.defenders.popcount();
        let attackers = self.attackers.popcount();
        self.king_trapped(defenders, attackers) || self.corners_sealed(defenders, attackers)
    }

    /// The corner part of [`Position::cannot_escape`] with `defenders` soldiers and `attackers`.
    fn corners_sealed(&self, defenders: u32, attackers: u32) -> bool {
        let mut closed = B::ZERO;
        for c in self.rules.corners.squares() {
            match self.closed_corner(c) {
                Some(b) => closed |= b,
                None => return false,
            }
        }
        (defenders < 4 && attackers >= 13)
            || (defenders < 6 && self.edge_runs_at_most(closed, 3))
            || self.edge_runs_at_most(closed, 2)
    }

    /// The king pinned on an edge (hnefatafl.org's rules, section 10): not next to a corner; the
    /// two edge squares on each side of him attackers (a corner counts as one and adds one to
    /// the attacker count `a`); with `a` > 5 the two squares inward of him attackers; and then
    /// fewer than 2 defender soldiers (`d`), or `a` > 7 and the two squares inward of one of his
    /// edge neighbours attackers.
    pub fn king_trapped(&self, d: u32, a: u32) -> bool {
        let r = self.rules;
        if (self.king & r.edge_mask).is_empty() {
            return false;
        }
        let k = self.king.lsb();
        let (file, rank) = r.file_rank[k as usize];
        let last = r.size - 1;
        // inward direction and the two directions along the edge (N, E, S, W = 0..3)
        let (inward, along, pos) = if file == 0 {
            (1, [2, 0], rank)
        } else if file == last {
            (3, [2, 0], rank)
        } else if rank == 0 {
            (0, [3, 1], file)
        } else {
            (2, [3, 1], file)
        };
        if pos == 1 || pos + 2 == r.size {
            return false;
        }
        let mut a = a;
        for d in along {
            let mut s = k;
            for _ in 0..2 {
                s = r.step[s as usize][d];
                if r.corners.has(s) {
                    a += 1;
                } else if !self.attackers.has(s) {
                    return false;
                }
            }
        }
        let inward_pair = |s: Square| -> bool {
            let s1 = r.step[s as usize][inward];
            let s2 = r.step[s1 as usize][inward];
            self.attackers.has(s1) && self.attackers.has(s2)
        };
        if a > 5 && !inward_pair(k) {
            return false;
        }
        d < 2
            || (a > 7
                && along
                    .iter()
                    .any(|&dir| inward_pair(r.step[k as usize][dir])))
    }

    /// A corner closed off by the attackers (hnefatafl.org's rules, section 10): the two squares
    /// along both edges from the corner are attackers (then the corner and those four squares are
    /// returned), or the region of the corner never meets a defender or the king. That region:
    /// the corner's two neighbours unless they hold defenders, then every empty square connected
    /// to them through empty squares (the corner and its neighbours are not entered again).
    /// Returns the corner with the region's edge squares, or `None` when the corner is open.
    pub fn closed_corner(&self, c: Square) -> Option<B> {
        let r = self.rules;
        let (file, rank) = r.file_rank[c as usize];
        // The two directions from the corner along its edges (N, E, S, W = 0..3).
        let dirs = [if rank == 0 { 0 } else { 2 }, if file == 0 { 1 } else { 3 }];
        let pair = |d: usize| {
            let s1 = r.step[c as usize][d];
            B::bit(s1) | B::bit(r.step[s1 as usize][d])
        };
        let walls = pair(dirs[0]) | pair(dirs[1]);
        if (walls & !self.attackers).is_empty() {
            return Some(walls | B::bit(c));
        }
        let occ = self.occupied();
        let empty = r.board & !occ;
        let near = r.adjacent[c as usize];
        let seeds = near & !(self.defenders | self.king);
        let marked = B::bit(c) | near;
        let frontier = r.neighbours(seeds) & !marked;
        let friends = (self.defenders | self.king) & !marked;
        if !(frontier & friends).is_empty() {
            return None;
        }
        let open = empty & !marked;
        let mut region = frontier & open;
        loop {
            let around = r.neighbours(region);
            if !(around & friends).is_empty() {
                return None;
            }
            let next = (region | around) & open;
            if next == region {
                break;
            }
            region = next;
        }
        Some(((region | seeds) & r.edge_mask) | B::bit(c))
    }

    /// On every edge line the squares neither attackers nor in `closed` form at most one run of
    /// at most `n` squares.
    fn edge_runs_at_most(&self, closed: B, n: u32) -> bool {
        let r = self.rules;
        let open = r.edge_mask & !closed & !self.attackers;
        r.edge_lines.iter().all(|&(first, step)| {
            let mut bits = 0u32;
            let mut s = first as u32;
            for i in 0..r.size as u32 {
                if open.has(s as Square) {
                    bits |= 1 << i;
                }
                s += step as u32;
            }
            if bits == 0 {
                return true;
            }
            let run = bits >> bits.trailing_zeros();
            run & (run + 1) == 0 && run.count_ones() <= n
        })
    }

    /// `true` when no defender (king included) can reach the board edge through squares free
    /// of attackers (the OpenTafl `surf` rule).
    pub fn surrounded(&self) -> bool {
        let r = self.rules;
        let free = r.board & !self.attackers;
        let mut reach = self.defenders | self.king;
        loop {
            if !(reach & r.edge_mask).is_empty() {
                return false;
            }
            let next = (reach | r.neighbours(reach)) & free;
            if next == reach {
                return true;
            }
            reach = next;
        }
    }

    /// perft with bulk counting at depth 1 and copy-make above.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        if depth == 0 {
            1
        } else if self.no_moves() {
            0
        } else if self.rules.speed_limited {
            self.perft_open::<true>(depth)
        } else {
            self.perft_open::<false>(depth)
        }
    }

    /// perft (depth ≥ 1) of a position known not to be decided; children are tested with the
    /// cheaper [`Position::decided_after`].
    /// `LIMITED`: the rules have speed limits (decided once at the root, so that the loops of
    /// rules without them carry no test).
    fn perft_open<const LIMITED: bool>(&self, depth: u32) -> u64 {
        if depth == 1 {
            return self.count_moves_with::<LIMITED>();
        }
        let mut n = 0;
        self.for_each_move_with::<LIMITED>(|from, to, kind| {
            let mut child = *self;
            child.make(from, to, kind);
            if !child.decided_after(from, to, kind) {
                n += child.perft_open::<LIMITED>(depth - 1);
            }
        });
        n
    }

    /// Whether this position, reached from an undecided one by the move `from`-`to` of a piece of
    /// `kind`, is decided ([`Position::no_moves`]), skipping the end rules that such a move
    /// cannot have brought about: encirclement only follows attacker moves (a defender move
    /// never splits the region of non-attacker squares), no attacker left only defender moves,
    /// and closed corners after a defender move only when it left or entered a square next to a
    /// corner (otherwise the corners' regions only grow and the moved piece still touches one).
    #[inline(always)]
    fn decided_after(&self, from: Square, to: Square, kind: Piece) -> bool {
        if self.king_gone() {
            return true;
        }
        let r = self.rules;
        if !r.end_rules {
            return false;
        }
        if r.edge_fort != EdgeFort::Off && self.edge_fort() {
            return true;
        }
        if kind == Piece::Attacker {
            (r.encirclement && self.encircled()) || (r.cannot_escape && self.cannot_escape())
        } else {
            if r.no_attackers_loses && self.attackers.is_empty() {
                return true;
            }
            if !r.cannot_escape {
                return false;
            }
            let (d, a) = (self.defenders.popcount(), self.attackers.popcount());
            if self.king_trapped(d, a) {
                return true;
            }
            let near = r.corner_adjacent;
            (near.has(from) || near.has(to)) && self.corners_sealed(d, a)
        }
    }

    /// perft split by first move: `(move text, count)` pairs in generation order.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let mut c = *self;
                c.make_move(mv);
                (
                    self.move_to_string(mv),
                    c.perft_fast(depth.saturating_sub(1)),
                )
            })
            .collect()
    }

    /// Why the slide `from`-`to` is illegal here, or `Ok(kind)` of the moving piece.
    fn check_move(&self, from: Square, to: Square) -> Result<Piece, String> {
        let r = self.rules;
        let n = |s| square_name(s, r.size);
        if self.king_gone() {
            return Err("the game is over".into());
        }
        let kind = self
            .piece_at(from)
            .ok_or_else(|| format!("no piece on {}", n(from)))?;
        let mine = match self.side {
            Side::First => kind == Piece::Attacker,
            Side::Second => kind != Piece::Attacker,
        };
        if !mine {
            let who = if self.side == Side::First {
                "attackers"
            } else {
                "defenders"
            };
            return Err(format!(
                "the piece on {} is not yours ({who} to move)",
                n(from)
            ));
        }
        if from == to {
            return Err("the move does not leave its square".into());
        }
        let d = (0..4)
            .find(|&d| r.rays[from as usize][d].has(to))
            .ok_or_else(|| {
                format!(
                    "{} to {} is not a straight line along a rank or file",
                    n(from),
                    n(to)
                )
            })?;
        let mut s = r.step[from as usize][d];
        let occ = self.occupied();
        while s != to {
            if occ.has(s) {
                return Err(format!("the way is blocked by the piece on {}", n(s)));
            }
            if r.no_pass[kind.index()].has(s) {
                return Err(format!("this piece may not pass over {}", n(s)));
            }
            s = r.step[s as usize][d];
        }
        if occ.has(to) {
            return Err(format!("{} is occupied", n(to)));
        }
        if r.no_stop[kind.index()].has(to) {
            return Err(format!("this piece may not stop on {}", n(to)));
        }
        if r.speed_limited && !r.speed[from as usize][kind.index()].has(to) {
            return Err(format!(
                "this piece may move at most {} squares",
                r.options.speed_limit[kind.index()].unwrap_or(0)
            ));
        }
        Ok(kind)
    }
}

impl<B: Bitboard> fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.rules.name, self.fen())
    }
}

impl<B: Bitboard> PartialEq for Position<B> {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.rules, o.rules)
            && self.attackers == o.attackers
            && self.defenders == o.defenders
            && self.king == o.king
            && self.side == o.side
            && self.clock == o.clock
            && self.fullmove == o.fullmove
    }
}

impl<B: Bitboard> Game for Position<B> {
    type Move = Move;
    type Eval = crate::eval::HandEval;

    fn evaluator(&self, _choice: &crate::eval::EvalChoice) -> crate::eval::HandEval {
        crate::eval::HandEval
    }

    fn variant_name(&self) -> &'static str {
        self.rules.name
    }

    fn start_position(&self) -> Self {
        Self::start(self.rules)
    }

    fn with_fen(&self, fen: &str) -> Result<Self, ParseError> {
        Self::from_fen(self.rules, fen)
    }

    fn fen(&self) -> String {
        let size = self.rules.size;
        let mut s = String::new();
        for rank in (0..size).rev() {
            let mut empty = 0;
            for file in 0..size {
                let sq = super::rules::square(file, rank, size);
                let c = match self.piece_at(sq) {
                    None => {
                        empty += 1;
                        continue;
                    }
                    Some(Piece::Attacker) => 't',
                    Some(Piece::Defender) => 'T',
                    Some(Piece::King) => 'K',
                };
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                s.push(c);
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Side::First { 'a' } else { 'd' };
        format!("{s} {side} {} {}", self.clock, self.fullmove)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::Second {
            SIDE_KEY
        } else {
            0
        };
        for (k, b) in [self.attackers, self.defenders, self.king]
            .into_iter()
            .enumerate()
        {
            for s in b.squares() {
                h ^= PIECE_KEYS[k][s as usize];
            }
        }
        h
    }

    fn halfmove_clock(&self) -> u32 {
        self.clock
    }

    fn plies_to_move_limit(&self) -> Option<u32> {
        // A win on the move that reaches a limit still counts: the win is judged before the
        // draw (`outcome`). The ply limit draws a position once more than limit + 1 plies were
        // played, so the last winning move can reach limit + 2.
        let by_clock = self.rules.move_limit.map(|l| l.saturating_sub(self.clock));
        let by_plies = self
            .rules
            .ply_limit
            .map(|l| l.saturating_add(2).saturating_sub(self.plies_played()));
        match (by_clock, by_plies) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.for_each_move(|from, to, _| moves.push(Move { from, to }));
    }

    fn make_move(&mut self, mv: Move) {
        let kind = match self.piece_at(mv.from) {
            Some(k) => k,
            None => return,
        };
        self.make(mv.from, mv.to, kind);
    }

    fn make_null_move(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= SIDE_KEY;
    }

    fn null_move_allowed(&self) -> bool {
        let mine = match self.side {
            Side::First => self.attackers.popcount(),
            Side::Second => self.defenders.popcount() + self.king.popcount(),
        };
        mine > 3 && !self.king_gone()
    }

    fn outcome(&self) -> Outcome {
        if self.king.is_empty() {
            return Outcome::win(Side::First, Reason::KingCaptured);
        }
        if !(self.king & self.rules.escape).is_empty() {
            return Outcome::win(Side::Second, Reason::KingEscaped);
        }
        if self.rules.surround && self.surrounded() {
            return Outcome::win(Side::First, Reason::Surrounded);
        }
        // hnefatafl.org (6.4.1, `Board::play_internal`) draws a move made when more than
        // `MAX_TURNS` (140) plies had been played, after its win checks: this position was
        // reached by such a move when more than limit + 1 plies have been played.
        let ply_limit_reached = self
            .rules
            .ply_limit
            .is_some_and(|limit| self.plies_played() > limit.saturating_add(1));
        if self.rules.end_rules
            && let Some(o) = self.decided_by_rules()
        {
            // copenhagen.md's order: the 140-ply draw comes before "cannot escape".
            if ply_limit_reached && o == Outcome::win(Side::First, Reason::CannotEscape) {
                return Outcome::draw(Reason::MoveLimit);
            }
            return o;
        }
        if ply_limit_reached {
            return Outcome::draw(Reason::MoveLimit);
        }
        if !self.has_move() {
            return match self.rules.no_legal_move {
                NoMoveRule::Loses => Outcome::win(self.side.opponent(), Reason::NoLegalMove),
                NoMoveRule::Draw => Outcome::draw(Reason::NoLegalMove),
            };
        }
        if self
            .rules
            .move_limit
            .is_some_and(|limit| self.clock >= limit)
        {
            return Outcome::draw(Reason::MoveLimit);
        }
        Outcome::Ongoing
    }

    fn repetition_rule(&self) -> RepetitionRule {
        self.rules.repetition
    }

    fn evaluate(&self) -> i32 {
        self.eval_total()
    }

    fn eval_terms(&self) -> Vec<(&'static str, i32)> {
        self.terms().to_vec()
    }

    fn move_gain(&self, mv: Move) -> i32 {
        // Only a move next to an enemy piece can capture: most moves are settled without making
        // them.
        let enemies = match self.side {
            Side::First => self.defenders | self.king,
            Side::Second => self.attackers,
        };
        if (self.rules.adjacent[mv.to as usize] & enemies).is_empty() {
            return 0;
        }
        let mut c = *self;
        c.make_move(mv);
        let a = (self.attackers.popcount() - c.attackers.popcount()) as i32;
        let d = (self.defenders.popcount() - c.defenders.popcount()) as i32;
        let k = (self.king.popcount() - c.king.popcount()) as i32;
        a * ATTACKER_VALUE + d * DEFENDER_VALUE + k * KING_VALUE
    }

    fn must_answer(&self) -> bool {
        self.side == Side::First && self.king_sees_escape()
    }

    fn can_win_at_once(&self) -> bool {
        self.side == Side::Second && self.king_sees_escape()
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.gain_and_tactical(mv).1
    }

    /// Captures and the king's moves to an escape square are tactical; the capture is made once.
    fn gain_and_tactical(&self, mv: Move) -> (i32, bool) {
        let gain = self.move_gain(mv);
        let escape = self.king.has(mv.from) && self.rules.escape.has(mv.to);
        (gain, escape || gain > 0)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim();
        let size = self.rules.size;
        let bad = || ParseError::new(format!("'{}' is not a move like d1-b1", t.escape_default()));
        let (a, b) = if let Some((a, b)) = t.split_once('-') {
            (a, b)
        } else {
            // d1b1, k11a11: split before the second letter.
            let i = t
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_lowercase())
                .map(|(i, _)| i)
                .ok_or_else(bad)?;
            (&t[..i], &t[i..])
        };
        let from = parse_square(a, size).ok_or_else(|| {
            ParseError::new(format!(
                "'{}' is not a square of this board",
                a.escape_default()
            ))
        })?;
        let to = parse_square(b, size).ok_or_else(|| {
            ParseError::new(format!(
                "'{}' is not a square of this board",
                b.escape_default()
            ))
        })?;
        self.check_move(from, to).map_err(|e| {
            ParseError::new(format!(
                "illegal move {}: {e}",
                self.move_to_string(Move { from, to })
            ))
        })?;
        Ok(Move { from, to })
    }

    fn move_to_string(&self, mv: Move) -> String {
        format!(
            "{}-{}",
            square_name(mv.from, self.rules.size),
            square_name(mv.to, self.rules.size)
        )
    }

    /// Boards up to 128 squares: from-square × 128 + to-square. Larger boards (up to 19×19):
    /// from-square (9 bits), direction (2 bits: north, east, south, west), distance (5 bits).
    /// Three piece kinds (attacker, defender, king) times the squares.
    fn history_index_count(&self) -> usize {
        3 * super::rules::square_count(self.rules.size) as usize
    }

    /// `kind × squares + to`, kind 0 attacker, 1 defender, 2 king.
    fn history_index(&self, mv: Move) -> usize {
        let kind = if self.side == Side::First {
            0
        } else if self.king.has(mv.from) {
            2
        } else {
            1
        };
        kind * super::rules::square_count(self.rules.size) as usize + mv.to as usize
    }

    fn encode_move(&self, mv: Move) -> u16 {
        let r = self.rules;
        if r.small_moves {
            return (mv.from << 7) | mv.to;
        }
        let (ff, fr) = r.file_rank[mv.from as usize];
        let (tf, tr) = r.file_rank[mv.to as usize];
        let (dir, dist) = if fr == tr {
            if tf > ff { (1, tf - ff) } else { (3, ff - tf) }
        } else if tr > fr {
            (0, tr - fr)
        } else {
            (2, fr - tr)
        };
        (mv.from << 7) | (dir << 5) | dist as u16
    }

    fn decode_move(&self, bits: u16) -> Option<Move> {
        let r = self.rules;
        let n = super::rules::square_count(r.size);
        if r.small_moves {
            let (from, to) = (bits >> 7, bits & 0x7f);
            if from == to || from >= n || to >= n {
                return None;
            }
            return Some(Move { from, to });
        }
        let (from, dir, dist) = (bits >> 7, ((bits >> 5) & 3) as usize, bits & 31);
        if from >= n || dist == 0 {
            return None;
        }
        let mut to = from;
        for _ in 0..dist {
            to = r.step[to as usize][dir];
            if to == super::rules::NO_SQUARE {
                return None;
            }
        }
        Some(Move { from, to })
    }

    fn board_string(&self) -> String {
        let size = self.rules.size;
        let w = if size >= 10 { 2 } else { 1 };
        let mut s = String::new();
        for rank in (0..size).rev() {
            s += &format!("{:>w$}", rank + 1);
            for file in 0..size {
                let sq = super::rules::square(file, rank, size);
                let c = match self.piece_at(sq) {
                    Some(Piece::Attacker) => 't',
                    Some(Piece::Defender) => 'T',
                    Some(Piece::King) => 'K',
                    None if self.rules.marked.has(sq) => '+',
                    None => '.',
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s += &" ".repeat(w);
        for file in 0..size {
            s.push(' ');
            s.push((b'a' + file) as char);
        }
        s.push('\n');
        s
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }
}
