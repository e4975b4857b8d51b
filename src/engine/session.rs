//! A game in progress behind a trait object, so front-ends can hold "the current game" without
//! knowing its type: the position, the history of earlier positions (for repetition), and the
//! operations the protocols and the CLI need, with moves as text, the board as rows of pieces,
//! and typed errors ([`PositionError`], [`MoveError`]). No front-end edits FEN text: the side to
//! move ([`Session::set_side_to_move`]) and the board ([`Session::set_board`]) are set here.

use super::skill::Skill;
use crate::eval::{EvalChoice, Evaluator};
use crate::game::GameVisitor;
use crate::game::{
    Capture, Game, Outcome, ParseError, Reason, Side, forbidden_by_history, outcome_with_history,
};
use crate::search::{
    self, Control, Limits, Score, SearchOptions, ThreadData, ThreadPool, TranspositionTable,
};
use crate::tafl::RuleOptions;
use crate::tuning::SearchParams;
use crate::variant::Variant;
use std::sync::Arc;

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is already over.
    #[error("the game is over ({0})")]
    GameOver(Reason),
    /// The text is not a legal move here (the reason says why: notation, blocked way, …).
    #[error("{0}")]
    Illegal(ParseError),
    /// The move is one the rules forbid because it recreates an earlier board
    /// ([`crate::game::RepetitionRule::Forbidden`]: Copenhagen's defenders); the text is the move.
    #[error("illegal move {0}: it recreates an earlier board, which the defenders may not do")]
    RepeatsBoard(String),
}

/// Why a position cannot be set; the session is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The FEN is malformed or not a valid set-up of this game.
    #[error("bad FEN '{fen}': {error}")]
    BadFen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        error: ParseError,
    },
    /// The board given to [`Session::set_board`] is not a valid board of this game.
    #[error("bad board '{board}': {error}")]
    BadBoard {
        /// The board as given (FEN placement, top rank first).
        board: String,
        /// What is wrong with it.
        error: ParseError,
    },
    /// A move of the list cannot be played (`number` counts from 1).
    #[error("move {number} '{text}': {error}")]
    BadMove {
        /// 1-based index in the move list.
        number: usize,
        /// The move text as given.
        text: String,
        /// Why it cannot be played.
        error: MoveError,
    },
}

/// One square's content as [`Session::board_rows`] gives it: the FEN letter of the piece
/// (tafl `t` attacker, `T` defender, `K` king; Ataxx `x`, `o`, `-` blocked), `None` if empty.
pub type SquareContent = Option<char>;

/// A search progress report with the principal variation as move text.
#[derive(Clone, Debug)]
pub struct TextReport {
    /// Completed depth, plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: u32,
    /// The score from the side to move's view.
    pub score: Score,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table use, permill.
    pub hashfull: u32,
    /// Time since the search started, ms.
    pub time_ms: u64,
    /// The principal variation as move text.
    pub pv: Vec<String>,
}

/// The answer of a search, as move text.
#[derive(Clone, Debug)]
pub struct TextResult {
    /// The move to play; `None` if there is none (the game is over).
    pub best_move: Option<String>,
    /// The expected reply.
    pub ponder: Option<String>,
    /// The score of the best line.
    pub score: Score,
    /// Deepest completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The MultiPV lines of the last completed depth: score and moves, best first.
    pub lines: Vec<(Score, Vec<String>)>,
}

impl TextResult {
    /// The answer in a decided game: no move, depth 0.
    pub fn game_over() -> TextResult {
        TextResult {
            best_move: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        }
    }
}

/// A game in progress, whatever the game.
pub trait Session: Send {
    /// The variant's protocol name.
    fn variant_name(&self) -> &'static str;
    /// A copy of this session (for a search thread).
    fn boxed_clone(&self) -> Box<dyn Session>;
    /// Sets the position: the start position (`fen` `None`) or a FEN, then the moves in order.
    /// On any error (bad FEN, an illegal move, a move after the game ended) the session is left
    /// unchanged and the error says what and where.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), PositionError>;
    /// Sets up a new game from a board (`placement`: the FEN placement field, top rank first)
    /// with `side` to move and the clocks of a start position. Unchanged on error.
    fn set_board(&mut self, placement: &str, side: Side) -> Result<(), PositionError>;
    /// Sets the side to move, keeping the board; the game's history is dropped (as after
    /// `position fen`). Nothing changes if `side` is already to move.
    fn set_side_to_move(&mut self, side: Side);
    /// The board as rows of squares, top rank first, each row from the a-file.
    fn board_rows(&self) -> Vec<Vec<SquareContent>>;
    /// Plays one move given as text; returns the move in canonical notation. Unchanged on error.
    fn play(&mut self, mv: &str) -> Result<String, MoveError>;
    /// What the last move played took from the opponent ([`Game::captures`]: captured tafl
    /// pieces, turned-over Ataxx stones), top rank first; empty before the first move.
    fn last_captures(&self) -> Vec<Capture>;
    /// Takes back the last move played, if any. Returns `false` when there is none.
    fn undo(&mut self) -> bool;
    /// The current position as FEN.
    fn fen(&self) -> String;
    /// The position the game was set up from (before [`Session::moves_played`]) as FEN.
    fn setup_fen(&self) -> String;
    /// The board diagram.
    fn board(&self) -> String;
    /// The current position's Zobrist hash.
    fn hash(&self) -> u64;
    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// The outcome, repetition included.
    fn outcome(&self) -> Outcome;
    /// The static evaluation that `eval` selects, by named terms (centipawns, side to move's
    /// view), and what evaluates in a few words ([`crate::eval::Evaluator::describe`]). A
    /// decided game (repetition included) is worth its result, for every family: the one term
    /// `decided` ([`Outcome::value_for`]), evaluated by `the rules`.
    fn eval_terms(&self, eval: &EvalChoice) -> (Vec<(&'static str, i32)>, String);
    /// Why the network `eval` names does not evaluate this game (another board or family;
    /// [`crate::eval::Evaluator::unfit`]), `None` when it does or none is named. `None` by
    /// default.
    fn eval_unfit(&self, _eval: &EvalChoice) -> Option<String> {
        None
    }
    /// The search's tuning values for this game: its variant's ([`crate::variant::Descriptor`]),
    /// the tafl family's for OpenTafl rules strings.
    fn search_params(&self) -> SearchParams;
    /// The legal moves as text.
    fn legal_moves(&self) -> Vec<String>;
    /// The moves played since the set-up position, as text.
    fn moves_played(&self) -> Vec<String>;
    /// perft divide: each legal move with its perft(`depth` − 1).
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// perft divide that `stop` can end early ([`crate::perft::divide_until`]): `each(move,
    /// count)` per root move; `false` if stopped.
    fn divide_until(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        each: &mut dyn FnMut(&str, u64),
    ) -> bool;
    /// perft divide split over `threads` threads at the root ([`crate::perft::divide_parallel`]):
    /// `done` is called as each root move's count is done. Errors if the threads cannot start.
    fn divide_parallel(
        &self,
        depth: u32,
        threads: usize,
        done: &(dyn Fn() + Sync),
    ) -> Result<Vec<(String, u64)>, rayon::ThreadPoolBuildError>;
    /// Searches the current position, which the engine has checked is not decided, with the
    /// engine's machinery (`context`; see [`crate::search::search`]). Only the engine calls it:
    /// front-ends search through [`crate::engine::Engine`].
    fn search(&self, context: SearchContext<'_>, report: &mut dyn FnMut(&TextReport))
    -> TextResult;
}

/// What a search runs with besides the position: the engine's table, threads and settings.
/// Only the engine makes one (its fields are the engine's own), so front-ends never reach the
/// table or the threads.
pub struct SearchContext<'a> {
    pub(crate) limits: &'a Limits,
    pub(crate) options: &'a SearchOptions,
    pub(crate) tt: &'a Arc<TranspositionTable>,
    pub(crate) control: &'a Arc<Control>,
    /// Thread 0's tables (the calling thread's).
    pub(crate) data: &'a mut ThreadData,
    /// The helpers of Lazy SMP: `options.threads` threads of it are used.
    pub(crate) pool: Option<&'a ThreadPool>,
    /// Weakened play below full strength (`Skill Level`), if any.
    pub(crate) skill: Option<Skill>,
    /// Seed of the weakened play's random choice.
    pub(crate) seed: u64,
}

/// A new session at the start position of `variant`.
pub fn new_session(variant: Variant) -> Box<dyn Session> {
    variant.visit(MakeSession)
}

/// A new tafl game under `options` (an OpenTafl rules string's, [`crate::tafl::opentafl`], or
/// a preset's), at its start position; or why the rules cannot be played (the message of
/// [`crate::tafl::Rules`]' check). The board size picks the bitboard: up to 8×8 in 64 bits, 11×11
/// in 128, 13×13 and 19×19 in wider sets.
pub fn new_tafl_session(options: RuleOptions) -> Result<Box<dyn Session>, String> {
    crate::tafl::visit_rules(options, MakeSession).map_err(|e| e.to_string())
}

/// Makes the [`Session`] of a start position.
struct MakeSession;

impl GameVisitor for MakeSession {
    type Output = Box<dyn Session>;
    fn visit<G: Game>(self, start: G) -> Box<dyn Session> {
        Box::new(GameSession::new(start))
    }
}

/// The [`Session`] of a game of type `G`.
#[derive(Clone)]
pub struct GameSession<G: Game> {
    setup: G,
    pos: G,
    /// Hashes of the positions before `pos`, oldest first.
    history: Vec<u64>,
    /// Positions and moves played since `setup`, for undo and the record.
    played: Vec<(G, G::Move)>,
}

impl<G: Game> GameSession<G> {
    /// A session at `start`.
    pub fn new(start: G) -> Self {
        GameSession {
            setup: start.clone(),
            pos: start,
            history: Vec::new(),
            played: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.pos
    }

    fn pv_text(&self, pv: &[G::Move]) -> Vec<String> {
        let mut pos = self.pos.clone();
        pv.iter()
            .map(|&mv| {
                let s = pos.move_to_string(mv);
                pos.make_move(mv);
                s
            })
            .collect()
    }

    fn play_parsed(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if let Outcome::Decided { reason, .. } = outcome_with_history(&self.pos, &self.history) {
            return Err(MoveError::GameOver(reason));
        }
        let mv = self.pos.parse_move(text).map_err(MoveError::Illegal)?;
        if forbidden_by_history(&self.pos, &self.history, mv) {
            return Err(MoveError::RepeatsBoard(self.pos.move_to_string(mv)));
        }
        self.history.push(self.pos.hash());
        self.played.push((self.pos.clone(), mv));
        self.pos.make_move(mv);
        Ok(mv)
    }
}

impl<G: Game> Session for GameSession<G> {
    fn variant_name(&self) -> &'static str {
        self.pos.variant_name()
    }

    fn boxed_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), PositionError> {
        let start = match fen {
            None => self.pos.start_position(),
            Some(f) => self
                .pos
                .with_fen(f)
                .map_err(|error| PositionError::BadFen {
                    fen: f.to_string(),
                    error,
                })?,
        };
        let mut next = GameSession::new(start);
        for (i, text) in moves.iter().enumerate() {
            next.play_parsed(text)
                .map_err(|error| PositionError::BadMove {
                    number: i + 1,
                    text: text.to_string(),
                    error,
                })?;
        }
        *self = next;
        Ok(())
    }

    fn set_board(&mut self, placement: &str, side: Side) -> Result<(), PositionError> {
        // The other FEN fields (side, clocks) of the game's start position, then `side`.
        let start = self.pos.start_position().fen();
        let rest = start.split_once(' ').map_or("", |(_, r)| r);
        let mut pos = self
            .pos
            .with_fen(&format!("{placement} {rest}"))
            .map_err(|error| PositionError::BadBoard {
                board: placement.to_string(),
                error,
            })?;
        pos.set_side_to_move(side);
        *self = GameSession::new(pos);
        Ok(())
    }

    fn set_side_to_move(&mut self, side: Side) {
        if self.pos.side_to_move() != side {
            let mut pos = self.pos.clone();
            pos.set_side_to_move(side);
            *self = GameSession::new(pos);
        }
    }

    fn board_rows(&self) -> Vec<Vec<SquareContent>> {
        self.pos.board_rows()
    }

    fn play(&mut self, mv: &str) -> Result<String, MoveError> {
        let before = self.pos.clone();
        self.play_parsed(mv).map(|m| before.move_to_string(m))
    }

    fn last_captures(&self) -> Vec<Capture> {
        self.played
            .last()
            .map_or_else(Vec::new, |(before, mv)| before.captures(*mv))
    }

    fn undo(&mut self) -> bool {
        match self.played.pop() {
            Some((pos, _)) => {
                self.pos = pos;
                self.history.pop();
                true
            }
            None => false,
        }
    }

    fn fen(&self) -> String {
        self.pos.fen()
    }

    fn setup_fen(&self) -> String {
        self.setup.fen()
    }

    fn board(&self) -> String {
        self.pos.board_string()
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    fn outcome(&self) -> Outcome {
        outcome_with_history(&self.pos, &self.history)
    }

    fn eval_terms(&self, eval: &EvalChoice) -> (Vec<(&'static str, i32)>, String) {
        if let Some(v) = self.outcome().value_for(self.pos.side_to_move()) {
            return (vec![("decided", v)], "the rules".to_string());
        }
        let evaluator = self.pos.evaluator(eval);
        (evaluator.terms(&self.pos), evaluator.describe())
    }

    fn eval_unfit(&self, eval: &EvalChoice) -> Option<String> {
        self.pos.evaluator(eval).unfit()
    }

    fn search_params(&self) -> SearchParams {
        crate::variant::search_params_for(self.pos.variant_name())
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_decided() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        moves
            .iter()
            .filter(|&&m| !forbidden_by_history(&self.pos, &self.history, m))
            .map(|&m| self.pos.move_to_string(m))
            .collect()
    }

    fn moves_played(&self) -> Vec<String> {
        self.played
            .iter()
            .map(|(p, m)| p.move_to_string(*m))
            .collect()
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        crate::perft::divide(&self.pos, depth)
    }

    fn divide_until(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        each: &mut dyn FnMut(&str, u64),
    ) -> bool {
        crate::perft::divide_until(&self.pos, depth, stop, each)
    }

    fn divide_parallel(
        &self,
        depth: u32,
        threads: usize,
        done: &(dyn Fn() + Sync),
    ) -> Result<Vec<(String, u64)>, rayon::ThreadPoolBuildError> {
        crate::perft::divide_parallel(&self.pos, depth, threads, done)
    }

    fn search(
        &self,
        context: SearchContext<'_>,
        report: &mut dyn FnMut(&TextReport),
    ) -> TextResult {
        let (skill, seed) = (context.skill, context.seed);
        let weakened = skill.map(|s| s.weaken(context.limits, context.options));
        let (limits, options) = weakened
            .as_ref()
            .map_or((context.limits, context.options), |(l, o)| (l, o));
        let mut result = search::search(
            &self.pos,
            &self.history,
            limits,
            options,
            context.tt,
            context.control,
            context.data,
            context.pool,
            &mut |r| {
                report(&TextReport {
                    depth: r.depth,
                    seldepth: r.seldepth,
                    multipv: r.multipv,
                    score: r.score,
                    nodes: r.nodes,
                    nps: r.nps,
                    hashfull: r.hashfull,
                    time_ms: r.time_ms,
                    pv: self.pv_text(&r.pv),
                })
            },
        );
        // Below full strength: one of the lines found, at random, better lines more often.
        if let Some(skill) = skill {
            let firsts: Vec<(i32, G::Move)> = result
                .lines
                .iter()
                .filter_map(|(s, pv)| Some((*s, *pv.first()?)))
                .collect();
            if let Some(mv) = skill.pick(&firsts, seed ^ self.pos.hash()) {
                if result.best_move != Some(mv) {
                    result.ponder = None;
                }
                result.best_move = Some(mv);
            }
        }
        TextResult {
            best_move: result.best_move.map(|m| self.pos.move_to_string(m)),
            ponder: result.ponder.and_then(|p| {
                let best = result.best_move?;
                let mut after = self.pos.clone();
                after.make_move(best);
                Some(after.move_to_string(p))
            }),
            score: Score::from_internal(result.score),
            depth: result.depth,
            nodes: result.nodes,
            lines: result
                .lines
                .iter()
                .map(|(s, pv)| (Score::from_internal(*s), self.pv_text(pv)))
                .collect(),
        }
    }
}
