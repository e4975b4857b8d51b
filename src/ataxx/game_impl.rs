//! [`Game`] for [`Position`].

use super::eval;
use super::mv::Move;
use super::position::Position;
use crate::board::{self, Board, Capture, Mark, MoveView, Piece};
use crate::game::{Game, Outcome, ParseError, RepetitionRule, Side};

/// The square as a front-end names it.
fn view(sq: super::bitboard::Square) -> board::Square {
    board::Square::new(sq.file(), sq.rank())
}

impl Game for Position {
    type Move = Move;
    type Eval = super::nnue::AtaxxEval;

    /// The embedded network by default, another network or the hand-written evaluation as
    /// `choice` says.
    fn evaluator(&self, choice: &crate::eval::EvalChoice) -> super::nnue::AtaxxEval {
        super::nnue::AtaxxEval::for_choice(choice)
    }

    fn variant_name(&self) -> &'static str {
        "ataxx"
    }

    fn start_position(&self) -> Self {
        Position::start()
    }

    fn with_fen(&self, fen: &str) -> Result<Self, ParseError> {
        Position::from_fen(fen)
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        self.compute_hash_inner()
    }

    #[inline]
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    fn plies_to_move_limit(&self) -> Option<u32> {
        Some(super::HALFMOVE_LIMIT.saturating_sub(self.halfmove))
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.legal_moves(moves);
    }

    #[inline]
    fn make_move(&mut self, mv: Move) {
        self.play(mv);
    }

    /// The opponent's stones the move turns over (those next to its destination).
    fn captures(&self, mv: Move) -> Vec<Capture> {
        let mut after = *self;
        after.play(mv);
        let them = self.side.opponent().index();
        let piece = if them == 0 { Piece::X } else { Piece::O };
        let mut turned: Vec<_> =
            super::bitboard::Squares(self.stones[them] & !after.stones[them]).collect();
        turned.sort_by_key(|sq| (std::cmp::Reverse(sq.rank()), sq.file()));
        turned
            .into_iter()
            .map(|sq| Capture {
                square: view(sq),
                piece,
            })
            .collect()
    }

    fn make_null_move(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= super::zobrist::ZOBRIST.side;
    }

    /// Always `false`: Ataxx is zugzwang-prone (every move may open holes next to one's stones,
    /// and passing is only legal when forced), so null-move pruning is unsound here.
    fn null_move_allowed(&self) -> bool {
        false
    }

    fn outcome(&self) -> Outcome {
        Position::outcome(self)
    }

    fn repetition_rule(&self) -> RepetitionRule {
        RepetitionRule::Ignored
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    /// 100 cp per stone gained: flipped stones, +1 for a clone.
    fn move_gain(&self, mv: Move) -> i32 {
        eval::MATERIAL * self.stones_gained(mv) as i32
    }

    /// 100 cp for a clone (it leaves no hole behind), 0 for a jump or the pass.
    fn order_bonus(&self, mv: Move) -> i32 {
        match mv {
            Move::Clone { .. } => eval::MATERIAL,
            _ => 0,
        }
    }

    /// Always `false`: Ataxx has no quiescence moves.
    fn is_tactical(&self, _mv: Move) -> bool {
        false
    }

    /// Ataxx moves are never tactical: the gain alone.
    fn gain_and_tactical(&self, mv: Move) -> (i32, bool) {
        (self.move_gain(mv), false)
    }

    /// Ataxx has no quiescence moves: every move changes material, so none is singled out.
    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        moves.clear();
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        self.parse(text)
    }

    fn move_view(&self, mv: Move) -> MoveView {
        match mv {
            Move::Clone { to } => MoveView::Clone { to: view(to) },
            Move::Jump { from, to } => MoveView::Jump {
                from: view(from),
                to: view(to),
            },
            Move::Pass => MoveView::Pass,
        }
    }

    /// Per side, clones and jumps to each of the 49 squares, and the pass: 197.
    fn history_index_count(&self) -> usize {
        2 * 2 * 49 + 1
    }

    /// `(side × 2 + jump) × 49 + to`; the pass is 196.
    fn history_index(&self, mv: Move) -> usize {
        let side = self.side.index();
        match mv {
            Move::Clone { to } => side * 98 + to.index(),
            Move::Jump { to, .. } => side * 98 + 49 + to.index(),
            Move::Pass => 196,
        }
    }

    fn encode_move(&self, mv: Move) -> u16 {
        mv.encode()
    }

    fn decode_move(&self, bits: u16) -> Option<Move> {
        Move::decode(bits)
    }

    /// The stones, and the blocked squares as marks.
    fn board(&self) -> Board {
        let mut board = Board::empty(7);
        for sq in super::bitboard::Squares(self.stones[0]) {
            board.set(view(sq), Some(Piece::X));
        }
        for sq in super::bitboard::Squares(self.stones[1]) {
            board.set(view(sq), Some(Piece::O));
        }
        for sq in super::bitboard::Squares(self.blocked) {
            board.mark(view(sq), Mark::Blocked);
        }
        board
    }

    fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    fn eval_terms(&self) -> Vec<(&'static str, i32)> {
        eval::terms(self).to_vec()
    }

    fn perft(&self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
}
