//! Captures made by a move: custodial captures (with the armed king and Linnaean capture as
//! the rules have them), capturing the king, and shieldwalls.

use super::Position;
use crate::tafl::bitboard::{Bitboard, Square};
use crate::tafl::rules::{NO_SQUARE, Piece, Shieldwall};
use crate::tafl::zobrist::PIECE_KEYS;

impl<B: Bitboard> Position<B> {
    /// Custodial captures by the piece of `kind` that just moved to `to` (rules.md).
    #[inline(always)]
    pub(super) fn captures(&mut self, to: Square, kind: Piece) -> u32 {
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
                if n == NO_SQUARE || !enemy.has(n) {
                    continue;
                }
                let b = r.step[n as usize][d];
                if b != NO_SQUARE && walls.has(b) {
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
                if n == NO_SQUARE {
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
            b != NO_SQUARE && walls.has(b)
        }
    }

    /// Shieldwall captures (copenhagen.md) by the piece of `kind` that just moved to the edge
    /// square `to`: along each edge line through `to`, in both directions, a row of two or more
    /// enemy pieces each with a piece of the mover directly inward, closed beyond by a piece of the
    /// mover or a corner. The king counts toward the row but stays. Returns the number removed.
    pub(super) fn shieldwalls(&mut self, to: Square, kind: Piece) -> u32 {
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
                while s != NO_SQUARE && enemy.has(s) && own.has(r.step[s as usize][inward]) {
                    row |= B::bit(s);
                    count += 1;
                    s = r.step[s as usize][d];
                }
                if count >= 2 && s != NO_SQUARE && closers.has(s) {
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
}
