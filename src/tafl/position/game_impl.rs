//! [`Game`] for a tafl [`Position`].

use super::{ATTACKER_VALUE, DEFENDER_VALUE, KING_VALUE, Move, Position, parse_square};
use crate::board::{self, Board, Capture, Mark, MoveView};
use crate::game::{Game, Outcome, ParseError, RepetitionRule, Side};
use crate::tafl::bitboard::{Bitboard, Square};
use crate::tafl::rules::{NO_SQUARE, Piece};
use crate::tafl::zobrist::{PIECE_KEYS, SIDE_KEY};

impl<B: Bitboard> Position<B> {
    /// The square `sq` as a front-end names it.
    fn view(&self, sq: Square) -> board::Square {
        let (file, rank) = self.rules.file_rank[sq as usize];
        board::Square::new(file, rank)
    }
}

impl<B: Bitboard> Game for Position<B> {
    type Move = Move;
    type Eval = crate::tafl::nnue::TaflEval;

    /// The hand-written evaluation by default; a network of this board if `choice` names one
    /// ([`crate::tafl::nnue`]).
    fn evaluator(&self, choice: &crate::eval::EvalChoice) -> crate::tafl::nnue::TaflEval {
        crate::tafl::nnue::TaflEval::for_choice(choice, self.rules)
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
        self.format_fen()
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
        self.plies_to_limit()
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

    /// The board after the move before its captures are taken off (hnefatafl.org 6.4.1,
    /// `Board::legal_move`, compares that board with the earlier ones): this position's hash
    /// with the piece moved and the side flipped, and the halfmove clock plus one.
    fn repetition_board(&self, mv: Move) -> (u64, u32) {
        let Some(kind) = self.piece_at(mv.from) else {
            return (self.hash, 0);
        };
        let keys = &PIECE_KEYS[kind.index()];
        (
            self.hash ^ keys[mv.from as usize] ^ keys[mv.to as usize] ^ SIDE_KEY,
            self.clock.saturating_add(1),
        )
    }

    /// The opponent's pieces that are gone after the move: soldiers by custodial capture or
    /// shieldwall, the king when he is captured (he leaves the board then).
    fn captures(&self, mv: Move) -> Vec<Capture> {
        let mut after = *self;
        after.make_move(mv);
        let size = self.rules.size;
        let taken = |before: B, after: B, piece: board::Piece| {
            (before & !after)
                .squares()
                .map(move |sq| (sq, piece))
                .collect::<Vec<_>>()
        };
        let mut gone = match self.side {
            Side::First => {
                let mut g = taken(self.defenders, after.defenders, board::Piece::Defender);
                g.extend(taken(self.king, after.king, board::Piece::King));
                g
            }
            Side::Second => taken(self.attackers, after.attackers, board::Piece::Attacker),
        };
        let width = Square::from(size);
        gone.sort_by_key(|&(sq, _)| (std::cmp::Reverse(sq / width), sq % width));
        gone.into_iter()
            .map(|(sq, piece)| Capture {
                square: self.view(sq),
                piece,
            })
            .collect()
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
        self.ending()
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

    /// Attackers against a king who sees an escape square: a move can stop his escape only by
    /// blocking his one open line (with two or more open lines no single move blocks them) or
    /// by landing next to him (it may capture him; a shieldwall never takes the king, see
    /// `capture.rs`); every other move leaves him his escape (no end rule can decide the game
    /// for the attackers while he sees an escape square: he reaches the edge, so he is neither
    /// encircled nor surrounded, nor pinned on it, and a corner he sees is not sealed). When a
    /// move or ply limit would draw the game on this move, nothing is dropped.
    fn split_threat_answers(&self, moves: &mut Vec<Move>, dropped: &mut Vec<Move>) {
        dropped.clear();
        if !self.must_answer() || self.plies_to_limit().is_some_and(|l| l <= 1) {
            return;
        }
        let r = self.rules;
        let k = self.king.lsb();
        let escapes = self.targets(k, Piece::King) & r.escape;
        let mut keep = r.adjacent[k as usize];
        // The open lines, each from the king to its nearest escape square.
        let mut open = 0;
        let mut block = B::ZERO;
        for (d, &ray) in r.rays[k as usize].iter().enumerate() {
            let on_ray = escapes & ray;
            if on_ray.is_empty() {
                continue;
            }
            open += 1;
            // North and east run up the square numbers, south and west down.
            let nearest = if d < 2 { on_ray.lsb() } else { on_ray.msb() };
            block = ray & !r.rays[nearest as usize][d];
        }
        if open == 1 {
            keep |= block;
        }
        let mut kept = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            if keep.has(m.to) {
                moves[kept] = m;
                kept += 1;
            } else {
                dropped.push(m);
            }
        }
        moves.truncate(kept);
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
            // d1b1, k11a11 (any case): split before the second letter.
            let i = t
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
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

    fn move_view(&self, mv: Move) -> MoveView {
        MoveView::Slide {
            from: self.view(mv.from),
            to: self.view(mv.to),
        }
    }

    /// Boards up to 128 squares: from-square × 128 + to-square. Larger boards (up to 19×19):
    /// from-square (9 bits), direction (2 bits: north, east, south, west), distance (5 bits).
    /// Three piece kinds (attacker, defender, king) times the squares.
    fn history_index_count(&self) -> usize {
        3 * crate::tafl::rules::square_count(self.rules.size) as usize
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
        kind * crate::tafl::rules::square_count(self.rules.size) as usize + mv.to as usize
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
        let n = crate::tafl::rules::square_count(r.size);
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
            if to == NO_SQUARE {
                return None;
            }
        }
        Some(Move { from, to })
    }

    /// The pieces, and the squares the rules mark: the throne (the centre, where any rule
    /// concerns it), the king's escape squares, the squares no soldier may stop on
    /// (restricted: the `+` of the diagram) and the camps.
    fn board(&self) -> Board {
        let r = self.rules;
        let size = r.size;
        let mut board = Board::empty(size);
        let centre = crate::tafl::rules::centre(size);
        let lists = |l: &[B; 3]| l.iter().any(|b| b.has(centre));
        let throne = size % 2 == 1
            && (lists(&r.no_stop)
                || lists(&r.no_pass)
                || lists(&r.hostile)
                || lists(&r.hostile_empty)
                || lists(&r.hostile_occupied));
        for sq in 0..crate::tafl::rules::square_count(size) {
            let at = self.view(sq);
            board.set(
                at,
                self.piece_at(sq).map(|p| match p {
                    Piece::Attacker => board::Piece::Attacker,
                    Piece::Defender => board::Piece::Defender,
                    Piece::King => board::Piece::King,
                }),
            );
            if throne && sq == centre {
                board.mark(at, Mark::Throne);
            }
            if r.escape.has(sq) {
                board.mark(at, Mark::Escape);
            }
            if r.marked.has(sq) {
                board.mark(at, Mark::Restricted);
            }
            if r.has_camps && !r.camp_of[sq as usize].is_empty() {
                board.mark(at, Mark::Camp);
            }
        }
        board
    }

    fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }
}
