//! The small trait that every game family implements and that the search, the protocol
//! front-ends and the CLI are written against. The search never asks which game it plays.

pub use crate::board::Side;
use crate::board::{Board, Capture, MoveView};
use crate::eval::{EvalChoice, Evaluator, HandEval};
use std::fmt;

/// Why a game ended. Displayed in lower case words, e.g. `king escaped`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Reason {
    /// Tafl: the king reached an escape square (a corner or an edge, by the rules).
    KingEscaped,
    /// Tafl: the attackers captured the king.
    KingCaptured,
    /// The side to move has no legal move (brandubh: that side loses; tablut/tawlbwrdd: draw).
    NoLegalMove,
    /// A position repeated (tablut/tawlbwrdd: a draw; OpenTafl `tfr:w`/`tfr:l`: a win).
    Repetition,
    /// A move-count rule: brandubh's 100 plies without capture, Ataxx's halfmove clock at 100.
    MoveLimit,
    /// Ataxx: no empty square is left.
    BoardFull,
    /// Ataxx: one side has no pieces left.
    NoPieces,
    /// Ataxx: neither side can move although squares are empty (they are out of reach or blocked).
    NoMoves,
    /// Tafl (OpenTafl `surf`, Copenhagen encirclement): the attackers enclosed the king and every
    /// defender.
    Surrounded,
    /// Tafl (Copenhagen): the king sits on an edge in a fort the attackers cannot break.
    EdgeFort,
    /// Tafl (Copenhagen, hnefatafl.org): the defenders are too few or too hemmed in to escape.
    CannotEscape,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::KingEscaped => "king escaped",
            Reason::KingCaptured => "king captured",
            Reason::NoLegalMove => "no legal move",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move limit",
            Reason::BoardFull => "board full",
            Reason::NoPieces => "no pieces left",
            Reason::NoMoves => "neither side can move",
            Reason::Surrounded => "defenders surrounded",
            Reason::EdgeFort => "edge fort",
            Reason::CannotEscape => "defenders cannot escape",
        })
    }
}

/// The value of a won game in the `eval` command's report, in centipawns ([`Outcome::value_for`]):
/// the value the tafl evaluation gives an escaped or captured king (its `decided` term,
/// `crate::tafl::KING_VALUE`), for every game family.
pub const DECIDED_VALUE: i32 = 20_000;

/// A game's result from one side's view (of a training position: the side to move's), as the
/// training data files store it (`crate::ataxx::packed`, `crate::tafl::packed`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Wdl {
    /// The side lost (code 0).
    Loss,
    /// The game was drawn (code 1).
    Draw,
    /// The side won (code 2).
    Win,
}

impl Wdl {
    /// The result as a score for the side: 0.0, 0.5 or 1.0.
    pub fn value(self) -> f32 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }

    /// The result's code in the data files: 0 loss, 1 draw, 2 win.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The result of a code, `None` for 3 and above.
    pub fn from_code(code: u8) -> Option<Wdl> {
        match code {
            0 => Some(Wdl::Loss),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }

    /// The result for the side `side` of a game won by `winner` (`None`: a draw).
    pub fn for_side(winner: Option<Side>, side: Side) -> Wdl {
        match winner {
            None => Wdl::Draw,
            Some(w) if w == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        }
    }
}

/// The state of a game by its rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The game is over: `winner` is `None` for a draw.
    Decided {
        /// The side that won, or `None` for a draw.
        winner: Option<Side>,
        /// Why the game ended.
        reason: Reason,
    },
}

impl Outcome {
    /// A win for `side` by `reason`.
    pub const fn win(side: Side, reason: Reason) -> Outcome {
        Outcome::Decided {
            winner: Some(side),
            reason,
        }
    }

    /// A draw by `reason`.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome::Decided {
            winner: None,
            reason,
        }
    }

    /// `true` when the game is over.
    pub const fn is_decided(&self) -> bool {
        matches!(self, Outcome::Decided { .. })
    }

    /// What a decided game is worth to `side`, in centipawns: [`DECIDED_VALUE`] when `side`
    /// won, −[`DECIDED_VALUE`] when it lost, 0 for a draw; `None` while the game goes on. The
    /// `eval` command reports it as the only term (`decided`) of a decided position, for every
    /// game family ([`crate::engine::session::Session::eval_terms`]).
    pub const fn value_for(&self, side: Side) -> Option<i32> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Decided { winner: None, .. } => Some(0),
            Outcome::Decided {
                winner: Some(w), ..
            } => Some(if w.index() == side.index() {
                DECIDED_VALUE
            } else {
                -DECIDED_VALUE
            }),
        }
    }
}

/// How a game treats a position that occurs again (same placement, same side to move).
///
/// The variants that decide a game name the side that made the move into the repeated
/// position (the *mover*); the side to move there is the other one. A later rule that binds one
/// side only (Copenhagen: a defender move may not recreate an earlier board) fits as a further
/// variant carrying that [`Side`]; [`RepetitionRule::verdict`] is the one place that says who
/// wins.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum RepetitionRule {
    /// Repetition is not a rule of the game (brandubh, Ataxx, OpenTafl `tfr:i`).
    Ignored,
    /// The game is drawn when a position occurs for the `n`-th time (tablut/tawlbwrdd: `n` = 2,
    /// "occurs a second time", rules.md; OpenTafl `tfr:d`: `n` = 3).
    Draw(u8),
    /// The side whose move makes a position occur for the `n`-th time loses (OpenTafl `tfr:w`,
    /// `n` = 3: "the player forcing the repetition loses"; OpenTafl's `GameState.checkVictory`
    /// gives the win to the side to move in the thrice-seen position).
    MoverLoses(u8),
    /// The side whose move makes a position occur for the `n`-th time wins (OpenTafl `tfr:l`,
    /// `n` = 3).
    MoverWins(u8),
    /// A move by this side that recreates an earlier board of the game is illegal (Copenhagen:
    /// the defenders may not repeat a board; the other side may); a side whose every move would
    /// recreate one has no legal move and loses ([`outcome_with_history`], reason
    /// [`Reason::NoLegalMove`]). As hnefatafl.org judges it (hnefatafl-copenhagen 6.4.1,
    /// `Board::legal_move`), the board compared is the one the move makes *before its
    /// captures are taken off* ([`Game::repetition_board`]), and it is compared with the board
    /// after each earlier move of the game (and the set-up board), whichever side was to move
    /// then ([`side_key`]). [`forbidden_by_history`] tells such a move; the engine's sessions
    /// refuse it, and the search scores it as a loss for the mover (which it never prefers to a
    /// legal move).
    Forbidden(Side),
}

impl RepetitionRule {
    /// The occurrence (counting the first) at which the rule ends the game; `None` when
    /// repetition is ignored.
    pub const fn nth(self) -> Option<u8> {
        match self {
            RepetitionRule::Ignored => None,
            RepetitionRule::Draw(n)
            | RepetitionRule::MoverLoses(n)
            | RepetitionRule::MoverWins(n) => Some(n),
            RepetitionRule::Forbidden(_) => Some(2),
        }
    }

    /// `true` when a repetition decides the game for one side rather than drawing it.
    pub const fn is_decisive(self) -> bool {
        matches!(
            self,
            RepetitionRule::MoverLoses(_)
                | RepetitionRule::MoverWins(_)
                | RepetitionRule::Forbidden(_)
        )
    }

    /// The outcome once the rule applies to a position with `to_move` to move (the mover is the
    /// other side); [`Outcome::Ongoing`] for [`RepetitionRule::Ignored`].
    pub const fn verdict(self, to_move: Side) -> Outcome {
        match self {
            RepetitionRule::Ignored => Outcome::Ongoing,
            RepetitionRule::Draw(_) => Outcome::draw(Reason::Repetition),
            RepetitionRule::MoverLoses(_) => Outcome::win(to_move, Reason::Repetition),
            RepetitionRule::MoverWins(_) => Outcome::win(to_move.opponent(), Reason::Repetition),
            RepetitionRule::Forbidden(side) => {
                if to_move.opponent() as usize == side as usize {
                    Outcome::win(to_move, Reason::Repetition)
                } else {
                    Outcome::Ongoing
                }
            }
        }
    }
}

/// An error in text given to the engine: a FEN, a move, a variant name. The message says what is
/// wrong and where, in one line, e.g. `FEN rank 3 has 8 squares, expected 7`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

impl ParseError {
    /// A new error with the given message.
    pub fn new(msg: impl Into<String>) -> Self {
        ParseError(msg.into())
    }
}

/// Code that is generic over the game, run with a start position by [`crate::variant::Variant::visit`]
/// (a variant) or [`crate::tafl::visit_rules`] (tafl rules given as data) (a visitor, so that callers stay generic without trait objects).
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the start position of the variant.
    fn visit<G: Game>(self, start: G) -> Self::Output;
}

/// A game position with everything the rules need to go on from it (placement, side to move,
/// clocks), except the history of earlier positions, which the caller keeps for repetition.
///
/// Positions are small and `Clone` is cheap: the search copies a position and makes a move on the
/// copy ("copy-make"); there is no unmake.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move of this game. Must fit in 16 bits through [`Game::encode_move`].
    type Move: Copy + Eq + fmt::Debug + Send + Sync + 'static;

    /// The variant name as the protocol spells it: `brandubh`, `tablut`, `tawlbwrdd`, `ataxx`.
    fn variant_name(&self) -> &'static str;

    /// The start position of this position's game and rules.
    fn start_position(&self) -> Self;

    /// A position of the same game and rules set up from a FEN (format: rules.md, "Position
    /// strings"). Errors name the field that is wrong.
    fn with_fen(&self, fen: &str) -> Result<Self, ParseError>;

    /// This position as FEN.
    fn fen(&self) -> String;

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// The Zobrist hash of placement and side to move, kept up to date incrementally.
    fn hash(&self) -> u64;

    /// The Zobrist hash computed from scratch; equals [`Game::hash`] (tests check this).
    fn compute_hash(&self) -> u64;

    /// Plies since the last irreversible move (tafl: a capture; Ataxx: a clone). Positions older
    /// than this cannot repeat. Also the FEN clock field.
    fn halfmove_clock(&self) -> u32;

    /// The most plies the game can still last from here before a move-count rule draws it
    /// (brandubh's 100 plies without capture, Copenhagen's 140-ply limit, Ataxx's halfmove
    /// clock at 100), counting the move that ends it; `None` when no such rule applies. A
    /// forced win farther away than this is not real here (a capture in the line may reset a
    /// clock, so this bound only errs on the side of caution): the search does not take such a
    /// mate score from its transposition table, whose keys do not include the clocks. The
    /// default is `None`.
    fn plies_to_move_limit(&self) -> Option<u32> {
        None
    }

    /// An estimate of the moves the side to move still has to make before the game ends, for
    /// the time manager ([`crate::tuning::SearchParams::tm_game_horizon`]); `None` when the
    /// game gives no useful estimate (the default: tafl games end when they end).
    fn moves_left_estimate(&self) -> Option<u32> {
        None
    }

    /// The legal moves of the perft tree (rules.md, "Reference move counts"): none when the game is
    /// decided by the position itself (king escaped or captured, Ataxx game over including its
    /// halfmove rule); Ataxx's forced pass as the single move when the side to move is stuck.
    /// Tafl move-count draws (brandubh's 100 plies) are not applied here; [`Game::outcome`] does.
    /// `moves` is cleared first.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// The board a [`RepetitionRule::Forbidden`] rule judges for the legal move `mv` made here,
    /// as a Zobrist hash with the other side to move, and how many of the game's positions
    /// before the move's result it may equal (counted back from this position, which is
    /// included). The default is the position after the move and its halfmove clock. Tafl
    /// gives the board after the move *before* its captures are taken off (hnefatafl.org 6.4.1,
    /// `Board::legal_move`), and this position's halfmove clock plus one: that board has as
    /// many pieces as this one, so only the positions since the last capture can match it.
    fn repetition_board(&self, mv: Self::Move) -> (u64, u32) {
        let mut after = self.clone();
        after.make_move(mv);
        (after.hash(), after.halfmove_clock())
    }

    /// Makes a legal move (one that [`Game::generate_moves`] gives). Unchecked: an illegal move
    /// leaves the position in an unspecified but memory-safe state.
    fn make_move(&mut self, mv: Self::Move);

    /// What the legal move `mv` takes from the opponent: each square whose piece it captures
    /// (tafl, the king included) or turns over (Ataxx), with the piece that stood there before
    /// the move, top rank first and the a-file first within a rank. Empty for a move that takes
    /// nothing. Records and protocols write captures from it (OpenTafl's `xd4`, hnefatafl.org's
    /// captured squares).
    fn captures(&self, mv: Self::Move) -> Vec<Capture>;

    /// Passes the turn without moving (for null-move pruning): flips the side to move and the
    /// hash, nothing else. Only called where [`Game::null_move_allowed`] is `true`.
    fn make_null_move(&mut self);

    /// `true` where a null move is a sound search heuristic in this position (there is no
    /// zugzwang to fear): the search asks before null-move pruning.
    fn null_move_allowed(&self) -> bool;

    /// The outcome by the rules that the position alone decides: everything but repetition,
    /// including "no legal move" and the move-count rules.
    fn outcome(&self) -> Outcome;

    /// How repeated positions are treated (applied by the caller, who has the history).
    fn repetition_rule(&self) -> RepetitionRule;

    /// The evaluation the search uses ([`crate::eval`]): [`HandEval`] (the hand-written
    /// [`Game::evaluate`]) for a game without a network.
    type Eval: Evaluator<Self, Self::Move>;

    /// The evaluator `choice` selects for this game (made once per search thread).
    fn evaluator(&self, choice: &EvalChoice) -> Self::Eval;

    /// The hand-written static evaluation in centipawns from the side to move's point of view.
    /// The search evaluates through [`Game::Eval`], which may use a network instead.
    fn evaluate(&self) -> i32;

    /// What a move wins at once, in centipawns, for move ordering (tafl: captured material;
    /// Ataxx: pieces flipped and the cloned piece). Never negative; 0 for a quiet move.
    fn move_gain(&self, mv: Self::Move) -> i32;

    /// What a quiet move is worth in the move order beyond its [`Game::move_gain`], in
    /// centipawns; the search adds it only when the switch `order_bonus` is on (Ataxx: a clone ranks one
    /// stone above a jump that flips as many, as Zataxx orders them: clone 2 + flips, jump
    /// flips). The default is 0.
    fn order_bonus(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// `true` for moves that quiescence search should still look at (tafl: captures and king
    /// moves to an escape square; Ataxx: none).
    fn is_tactical(&self, mv: Self::Move) -> bool;

    /// The moves quiescence search looks at: the legal moves for which [`Game::is_tactical`] is
    /// `true`. The default filters [`Game::generate_moves`]; games override it with something
    /// faster (Ataxx: nothing). `moves` is cleared first.
    fn generate_tactical(&self, moves: &mut Vec<Self::Move>) {
        self.generate_moves(moves);
        moves.retain(|&mv| self.is_tactical(mv));
    }

    /// How many distinct values [`Game::history_index`] takes in this game (the side of a
    /// continuation-history table); 0 when the game gives none (then the search keeps no
    /// continuation history). The default is 0.
    fn history_index_count(&self) -> usize {
        0
    }

    /// The move's index in the continuation history, below [`Game::history_index_count`]: what
    /// moves and where it lands, as Stockfish's (piece, to-square) pair (tafl: the moving
    /// piece's kind, which implies its side, and the destination; Ataxx: the mover, clone or
    /// jump, and the destination). Only called with a legal move of this position.
    fn history_index(&self, _mv: Self::Move) -> usize {
        0
    }

    /// The move's immediate gain ([`Game::move_gain`]) and whether it is tactical
    /// ([`Game::is_tactical`]), in one call: games override it to make the move at most once.
    fn gain_and_tactical(&self, mv: Self::Move) -> (i32, bool) {
        (self.move_gain(mv), self.is_tactical(mv))
    }

    /// `true` when the side to move faces a threat to lose at once, as a chess king in check:
    /// tafl attackers to move while the king has an open line to an escape square. The search
    /// extends such positions by a ply and neither prunes them nor stands pat in them. The
    /// default is `false`.
    fn must_answer(&self) -> bool {
        false
    }

    /// Where [`Game::must_answer`] holds: moves out of `moves` (legal moves of this position)
    /// into `dropped` (cleared first) those that cannot stop the opponent's win at once: after
    /// each of them the game is not drawn and the opponent can win at once ([`Game::can_win_at_once`]),
    /// or has already won. Only moves that certainly lose so are dropped; the order of the
    /// moves kept is unchanged. The search searches the kept moves and, of the dropped ones,
    /// only as many as it needs for their score (a loss within two plies). Repetition is the
    /// caller's to judge (a dropped move may repeat a position). The default drops nothing.
    fn split_threat_answers(&self, _moves: &mut Vec<Self::Move>, dropped: &mut Vec<Self::Move>) {
        dropped.clear();
    }

    /// `true` when the side to move has a move that wins the game at once (tafl: the
    /// defenders' king has an open line to an escape square). Exact, never a guess: the search
    /// scores such a position as a win in one without searching it. It is the threat that
    /// [`Game::must_answer`] sees from the other side. The default is `false`.
    fn can_win_at_once(&self) -> bool {
        false
    }

    /// Parses move text (rules.md, "Moves") and checks it is legal here. Errors say why.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// The move as a front-end sees it: its kind and squares ([`MoveView`]).
    fn move_view(&self, mv: Self::Move) -> MoveView;

    /// The move as text in the game's notation (tafl `d1-d3`, Ataxx `f2`, `a7a5`, `0000`):
    /// its [`MoveView`]'s.
    fn move_to_string(&self, mv: Self::Move) -> String {
        self.move_view(mv).to_string()
    }

    /// Packs a move in 16 bits (for the transposition table, killers and history). Never 0 for a
    /// real move. The packing may depend on the position's geometry (tafl boards over 11×11 pack
    /// from-square, direction and distance), so it is only meaningful within one game.
    fn encode_move(&self, mv: Self::Move) -> u16;

    /// Unpacks [`Game::encode_move`]'s value; `None` if `bits` is no move of this game. The result
    /// still has to be checked for legality in the position where it is used.
    fn decode_move(&self, bits: u16) -> Option<Self::Move>;

    /// The board: the piece on each square and the squares the rules mark (throne, escape
    /// squares, restricted squares, camps, blocked squares). Its `Display` is the diagram.
    fn board(&self) -> Board;

    /// The move number (the FEN's last field): 1 at the start, one more after each move of
    /// the side that moves second.
    fn fullmove_number(&self) -> u32;

    /// The static evaluation broken into named terms `(name, centipawns)` from the side to move's
    /// view; their sum is [`Game::evaluate`].
    fn eval_terms(&self) -> Vec<(&'static str, i32)> {
        vec![("total", self.evaluate())]
    }

    /// Sets the side to move, keeping the board and clocks (the hash follows). The default
    /// flips the side with [`Game::make_null_move`] when `side` is not already to move.
    fn set_side_to_move(&mut self, side: Side) {
        if self.side_to_move() != side {
            self.make_null_move();
        }
    }

    /// perft(depth): the number of leaf nodes of the legal-move tree (rules.md conventions).
    /// Games override this with a faster version (bulk counting at the last ply).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&mv| {
                let mut child = self.clone();
                child.make_move(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// The Zobrist key of the side to move: the hashes of one board with either side to move differ
/// by it (found with [`Game::make_null_move`], which flips the side and nothing else).
pub fn side_key<G: Game>(pos: &G) -> u64 {
    let mut flipped = pos.clone();
    flipped.make_null_move();
    pos.hash() ^ flipped.hash()
}

/// `true` when the rules forbid the legal move `mv` in `pos`, whose game's earlier positions
/// are `history` (Zobrist hashes, oldest first, not including `pos`): under
/// [`RepetitionRule::Forbidden`] a move of the bound side whose board
/// ([`Game::repetition_board`]) equals the board of `pos` or of an earlier position since the
/// last irreversible move, whichever side was to move there. Always `false` under the other
/// rules (they judge positions, in [`outcome_with_history`]).
pub fn forbidden_by_history<G: Game>(pos: &G, history: &[u64], mv: G::Move) -> bool {
    let RepetitionRule::Forbidden(side) = pos.repetition_rule() else {
        return false;
    };
    if pos.side_to_move() != side {
        return false;
    }
    let (key, window) = pos.repetition_board(mv);
    // `key` has the other side to move; the same board with the mover to move:
    let other = key ^ side_key(pos);
    let earlier = (window as usize).saturating_sub(1).min(history.len());
    std::iter::once(&pos.hash())
        .chain(history[history.len() - earlier..].iter().rev())
        .any(|&h| h == key || h == other)
}

/// The outcome of `pos` given the Zobrist hashes of the game's earlier positions (`history`,
/// oldest first, not including `pos`): [`Game::outcome`] plus the repetition rule. Under
/// [`RepetitionRule::Forbidden`] the bound side, to move, loses when each of its legal moves
/// is forbidden ([`forbidden_by_history`]): it has no legal move (hnefatafl.org 6.4.1,
/// `Game::play`: `a_legal_move_exists` with the earlier boards).
pub fn outcome_with_history<G: Game>(pos: &G, history: &[u64]) -> Outcome {
    let outcome = pos.outcome();
    if outcome.is_decided() {
        return outcome;
    }
    let rule = pos.repetition_rule();
    if let RepetitionRule::Forbidden(side) = rule {
        if pos.side_to_move() == side {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            if !moves.is_empty()
                && moves
                    .iter()
                    .all(|&mv| forbidden_by_history(pos, history, mv))
            {
                return Outcome::win(side.opponent(), Reason::NoLegalMove);
            }
        }
        return outcome;
    }
    if let Some(n) = rule.nth() {
        let window = (pos.halfmove_clock() as usize).min(history.len());
        let hash = pos.hash();
        let seen = history[history.len() - window..]
            .iter()
            .filter(|&&h| h == hash)
            .count();
        if seen + 1 >= n as usize {
            return rule.verdict(pos.side_to_move());
        }
    }
    outcome
}

/// The hand-written evaluation of a game ([`Game::evaluate`], [`Game::eval_terms`]) behind the
/// [`Evaluator`] interface: no accumulator, nothing to update, so the hand-written evaluations
/// cost the search nothing more than a direct call.
impl<G: Game> Evaluator<G, G::Move> for HandEval {
    type Accumulator = ();

    #[inline(always)]
    fn refresh(&self, _pos: &G, _acc: &mut ()) {}

    #[inline(always)]
    fn update(&self, _parent: &G, _mv: G::Move, _child: &G, _parent_acc: &(), _child_acc: &mut ()) {
    }

    #[inline(always)]
    fn evaluate(&self, pos: &G, _acc: &()) -> i32 {
        pos.evaluate()
    }

    fn terms(&self, pos: &G) -> Vec<(&'static str, i32)> {
        pos.eval_terms()
    }

    fn describe(&self) -> String {
        "hand-written".to_string()
    }
}
