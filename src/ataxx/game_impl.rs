//! [`Game`] for [`Position`].

use super::eval;
use super::mv::Move;
use super::position::Position;
use crate::game::{Game, Outcome, ParseError, RepetitionRule, SearchParams, Side};

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

    /// Always `false`: Ataxx has no quiescence moves.
    fn is_tactical(&self, _mv: Move) -> bool {
        false
    }

    /// Selective: late-move reductions from the table (adjusted by history: ± 1 ply per 8192),
    /// reverse futility pruning (up to depth 6; 80 cp per ply when measured, SPSA's values
    /// below), the "improving" flag and internal iterative reductions from depth 4. Measured together against the same engine without
    /// them (both with the eval's tempo term), 2+0.02: +334 Elo, 153-22-1; completed depth at
    /// 8 s + 80 ms on mid-game positions went from 6-8 to 10-14. (Before the tempo term,
    /// LMR and RFP had lost: the score's sign swing with depth parity made margins and
    /// reduced re-searches meaningless.) Late-move pruning: after 4 moves (then), jumps that flip
    /// nothing are skipped (Zataxx prunes them so): +34 ± 27 Elo over 600 games (LOS 99.4 %).
    /// Futility pruning up to depth 6 (margin 160 + 80 cp per ply then): +36 ± 30 over 469 games
    /// without the late-move pruning, +22 ± 34 over 391 with it. Continuation history (two
    /// plies, in the order of quiet moves, kept through a game): +26.7 ± 40.4 over 300 games
    /// (159-136-5); added to the reductions' history adjustment it was −25.5 ± 38.0.
    /// Singular extensions from depth 7 (margin 2 cp per ply): +27.9 ± 37.0 over 300 games
    /// (160-136-4) on top of that. SPSA (`scripts/spsa.py`, 56 iterations × 8 game pairs at
    /// 1 s + 10 ms, stopped early for time): reverse futility margin 80 → 112, LMR base 50 → 62
    /// and divisor 220 → 229, late-move pruning after 3 moves (was 4), futility margin 160 + 80
    /// → 108 + 59 cp per ply, aspiration window 30 → 31: against the values before, 600 games at
    /// 2+0.02, 326-259-15, +39.0 ± 27.0 Elo (pentanomial, two runs of 300: +27.9 ± 37.8 and
    /// +50.1 ± 38.6).
    fn search_params(&self) -> SearchParams {
        SearchParams {
            rfp: true,
            rfp_max_depth: 6,
            rfp_margin: 112,
            lmr: true,
            lmr_min_depth: 3,
            lmr_base: 62,
            lmr_divisor: 229,
            lmr_history_divisor: 8192,
            improving: true,
            iir_min_depth: 4,
            lmp_no_gain_moves: 3,
            fp_max_depth: 6,
            fp_margin_base: 108,
            fp_margin: 59,
            aspiration_delta: 31,
            // Continuation history (+26.7 ± 40.4 over 300 games) and singular extensions on top
            // of it (+27.9 ± 37.0 over 300) each looked good, but both together against the
            // build without them scored -27.9 ± 40.2 (300 games, 2+0.02): not shown to help,
            // so they stay off (`Tune cont_history_plies` 2 and `Tune se_min_depth` 7 turn
            // them on for a longer test).
            cont_history_plies: 0,
            se_min_depth: 0,
            ..SearchParams::DEFAULT
        }
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

    fn move_to_string(&self, mv: Move) -> String {
        mv.to_string()
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

    fn board_string(&self) -> String {
        self.diagram()
    }

    fn eval_terms(&self) -> Vec<(&'static str, i32)> {
        eval::terms(self).to_vec()
    }

    fn perft(&self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
}
