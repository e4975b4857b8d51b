//! Game ends: the king escaped or captured, the end rules decided by the position alone (edge
//! fort, encirclement, no attacker left, the defenders cannot escape, OpenTafl's surrounding
//! rule), no legal move, and the move and ply limits.

use super::Position;
use crate::game::{Outcome, Reason, Side};
use crate::tafl::bitboard::{Bitboard, MAX_SQUARES, Square};
use crate::tafl::rules::NO_SQUARE;
use crate::tafl::rules::{EdgeFort, NoMoveRule, Piece};

impl<B: Bitboard> Position<B> {
    /// `true` when the king (still on the board) can move to an escape square: he has an open
    /// line to one. Whoever is to move, a king move there ends the game.
    pub(super) fn king_sees_escape(&self) -> bool {
        if self.king_gone() {
            return false;
        }
        let k = self.king.lsb();
        !(self.targets(k, Piece::King) & self.rules.escape).is_empty()
    }

    /// `true` when the side to move has no moves because the game is over by the position alone
    /// (king escaped or captured, or one of the end rules of [`Position::decided_by_rules`]).
    #[inline(always)]
    pub fn no_moves(&self) -> bool {
        self.king_gone() || (self.rules.end_rules && self.decided_by_rules().is_some())
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

    /// Edge fort (copenhagen.md), exactly as hnefatafl.org judges it (hnefatafl-copenhagen
    /// 6.4.1, `Board::exit_forts` and `Board::flood_fill_defender_wins`): the king on an edge
    /// with an empty neighbour, no attacker next to the region he reaches through empty squares
    /// (corners and the throne count as empty when nobody stands there), and, with two or more
    /// attackers on the board, every piece of his side (the king included) that the region's
    /// flood fill meets unable to be captured along the line it was met across: met from above
    /// or below, it needs a friend or the board's edge to its left or right; met from the left
    /// or right, above or below. Each piece is judged once, across the line the fill first
    /// meets it by (`Position::fort_flood_fill`), so the order of the fill matters and is
    /// kept: the reference's, north, west, south, east, taken back last-in first-out.
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
        // The king's region through empty squares; no attacker may touch it. (The flood fill
        // below meets every square next to the region, so this answers as it would, sooner.)
        let empty = r.board & !occ;
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
        // With fewer than two attackers no piece can be captured.
        self.attackers.popcount() < 2 || self.fort_flood_fill(k)
    }

    /// The flood fill of hnefatafl.org's edge fort from the king on `k` (6.4.1,
    /// `Board::flood_fill_defender_wins`, with at least two attackers on the board): `false` as
    /// soon as it meets an attacker, or a piece of the defenders' side that could be captured
    /// across the line it was met along. The fill starts with the king's four neighbours and
    /// goes on from each empty square to its neighbours not met before; a neighbour met from
    /// above or below is tested for a friend or the edge left or right of it, one met from the
    /// left or right above or below it. The king's own neighbours are not marked as met, so they
    /// may be met a second time; every other square is met once.
    fn fort_flood_fill(&self, k: Square) -> bool {
        const N: usize = 0;
        const E: usize = 1;
        const S: usize = 2;
        const W: usize = 3;
        let r = self.rules;
        let friends = self.defenders | self.king;
        let occ = self.occupied();
        // A friend, or off the board.
        let backed = |s: Square, d: usize| {
            let n = r.step[s as usize][d];
            n == NO_SQUARE || friends.has(n)
        };
        // The reference's order of neighbours, each with whether it is met across a file
        // (from above or below: tested left and right).
        const ORDER: [(usize, bool); 4] = [(N, true), (W, false), (S, true), (E, false)];
        let mut stack = [(0 as Square, false); MAX_SQUARES + 4];
        let mut len = 0;
        for (d, vertical) in ORDER {
            let n = r.step[k as usize][d];
            if n != NO_SQUARE {
                stack[len] = (n, vertical);
                len += 1;
            }
        }
        let mut met = B::ZERO;
        while len > 0 {
            len -= 1;
            let (s, vertical) = stack[len];
            if !occ.has(s) {
                for (d, v) in ORDER {
                    let n = r.step[s as usize][d];
                    if n != NO_SQUARE && !met.has(n) {
                        met |= B::bit(n);
                        stack[len] = (n, v);
                        len += 1;
                    }
                }
            } else if self.attackers.has(s) {
                return false;
            } else if vertical {
                if !backed(s, E) && !backed(s, W) {
                    return false;
                }
            } else if !backed(s, N) && !backed(s, S) {
                return false;
            }
        }
        true
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

    /// Whether this position, reached from an undecided one by the move `from`-`to` of a piece of
    /// `kind`, is decided ([`Position::no_moves`]), skipping the end rules that such a move
    /// cannot have brought about: encirclement only follows attacker moves (a defender move
    /// never splits the region of non-attacker squares), no attacker left only defender moves,
    /// and closed corners after a defender move only when it left or entered a square next to a
    /// corner (otherwise the corners' regions only grow and the moved piece still touches one).
    #[inline(always)]
    pub(super) fn decided_after(&self, from: Square, to: Square, kind: Piece) -> bool {
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

    /// The outcome of the game in this position ([`Game::outcome`](crate::game::Game::outcome)).
    pub(super) fn ending(&self) -> Outcome {
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

    /// Plies left before a move or ply limit draws the game
    /// ([`Game::plies_to_move_limit`](crate::game::Game::plies_to_move_limit)).
    pub(super) fn plies_to_limit(&self) -> Option<u32> {
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
}
