//! Move generation: the targets of a piece, move counts, the moves themselves (with and
//! without speed limits), the legality of one slide, and perft.

use super::{Position, square_name};
use crate::game::{Game, Side};
use crate::tafl::bitboard::{Bitboard, Square};
use crate::tafl::rules::Piece;

impl<B: Bitboard> Position<B> {
    /// Squares a piece of `kind` on `sq` may move to.
    #[inline(always)]
    pub fn targets(&self, sq: Square, kind: Piece) -> B {
        let occ = self.occupied();
        let k = kind.index();
        let camp = self.rules.camp(sq);
        self.rules
            .moves(sq, k, occ | (self.rules.no_pass[k] & !camp))
            & !(occ | (self.rules.no_stop[k] & !camp))
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
        if self.rules.special_moves() {
            return self.count_moves_limited();
        }
        self.count_moves_with::<false>()
    }

    /// [`Position::count_moves_unchecked`] under speed limits or camps: out of line, so that
    /// the common path stays as small as without them.
    #[cold]
    #[inline(never)]
    fn count_moves_limited(&self) -> u64 {
        self.count_moves_with::<true>()
    }

    /// [`Position::count_moves_unchecked`] with the special move rules (speed limits, camps)
    /// applied or not (decided once, outside the loops, so that rules without them pay nothing
    /// for them).
    #[inline(always)]
    fn count_moves_with<const SPECIAL: bool>(&self) -> u64 {
        let r = self.rules;
        let occ = self.occupied();
        let mut n = 0u64;
        let count = |pieces: B, k: usize| {
            let blockers = occ | r.no_pass[k];
            let free = !(occ | r.no_stop[k]);
            pieces
                .squares()
                .map(|s| {
                    let (blockers, free) = if SPECIAL && r.has_camps {
                        r.camp_ways(s, k, occ)
                    } else {
                        (blockers, free)
                    };
                    let m = r.slides(s, blockers);
                    let m = if SPECIAL && r.speed_limited {
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
            if pieces.squares().any(|s| {
                let (blockers, free) = if r.has_camps {
                    r.camp_ways(s, k, occ)
                } else {
                    (blockers, free)
                };
                !(r.moves(s, k, blockers) & free).is_empty()
            }) {
                return true;
            }
        }
        false
    }

    /// Calls `f(from, to, kind)` for every legal move.
    #[inline(always)]
    pub(super) fn for_each_move(&self, f: impl FnMut(Square, Square, Piece)) {
        if self.no_moves() {
            return;
        }
        self.for_each_move_unchecked(f);
    }

    /// [`Position::for_each_move`] for a position known not to be decided.
    #[inline(always)]
    fn for_each_move_unchecked(&self, f: impl FnMut(Square, Square, Piece)) {
        if self.rules.special_moves() {
            return self.for_each_move_limited(f);
        }
        self.for_each_move_with::<false>(f)
    }

    /// [`Position::for_each_move_unchecked`] under speed limits or camps, out of line.
    #[cold]
    #[inline(never)]
    fn for_each_move_limited(&self, f: impl FnMut(Square, Square, Piece)) {
        self.for_each_move_with::<true>(f)
    }

    /// [`Position::for_each_move_unchecked`] with the special move rules (speed limits, camps)
    /// applied or not.
    #[inline(always)]
    fn for_each_move_with<const SPECIAL: bool>(&self, mut f: impl FnMut(Square, Square, Piece)) {
        let r = self.rules;
        let occ = self.occupied();
        let mut each = |pieces: B, kind: Piece| {
            let k = kind.index();
            let blockers = occ | r.no_pass[k];
            let free = !(occ | r.no_stop[k]);
            for s in pieces.squares() {
                let (blockers, free) = if SPECIAL && r.has_camps {
                    r.camp_ways(s, k, occ)
                } else {
                    (blockers, free)
                };
                let m = r.slides(s, blockers);
                let m = if SPECIAL && r.speed_limited {
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

    /// perft with bulk counting at depth 1 and copy-make above.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        if depth == 0 {
            1
        } else if self.no_moves() {
            0
        } else if self.rules.special_moves() {
            self.perft_open::<true>(depth)
        } else {
            self.perft_open::<false>(depth)
        }
    }

    /// perft (depth ≥ 1) of a position known not to be decided; children are tested with the
    /// cheaper [`Position::decided_after`].
    /// `SPECIAL`: the rules have speed limits or camps (decided once at the root, so that the
    /// loops of rules without them carry no test).
    fn perft_open<const SPECIAL: bool>(&self, depth: u32) -> u64 {
        if depth == 1 {
            return self.count_moves_with::<SPECIAL>();
        }
        let mut n = 0;
        self.for_each_move_with::<SPECIAL>(|from, to, kind| {
            let mut child = *self;
            child.make(from, to, kind);
            if !child.decided_after(from, to, kind) {
                n += child.perft_open::<SPECIAL>(depth - 1);
            }
        });
        n
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
    pub(super) fn check_move(&self, from: Square, to: Square) -> Result<Piece, String> {
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
        let camp = r.camp(from);
        while s != to {
            if occ.has(s) {
                return Err(format!("the way is blocked by the piece on {}", n(s)));
            }
            if (r.no_pass[kind.index()] & !camp).has(s) {
                return Err(format!("this piece may not pass over {}", n(s)));
            }
            s = r.step[s as usize][d];
        }
        if occ.has(to) {
            return Err(format!("{} is occupied", n(to)));
        }
        if (r.no_stop[kind.index()] & !camp).has(to) {
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
