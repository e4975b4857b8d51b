//! A game in progress behind a trait object, so front-ends can hold "the current game" without
//! knowing its type: the position, the history of earlier positions (for repetition), and what
//! the protocols and the tools ask of it, in typed values ([`crate::board`]: the board as pieces
//! and marked squares, moves by kind and squares, captures, the legal targets of a square) with
//! typed errors ([`PositionError`], [`MoveError`]). Text comes in only as input (a FEN, a move
//! typed or sent by a client: [`Session::play_text`]) and goes out only as FEN; a front-end
//! formats the typed values itself. No front-end edits FEN text: the side to move
//! ([`Session::set_side_to_move`]) and the board ([`Session::set_board`]) are set here.

use super::report::{Answer, Report};
use super::skill::Skill;
use crate::board::{Board, Capture, MoveView, Square};
use crate::eval::{EvalChoice, Evaluator};
use crate::game::GameVisitor;
use crate::game::{
    Game, Outcome, ParseError, Reason, Side, forbidden_by_history, outcome_with_history,
};
use crate::search::{
    self, Control, Limits, Score, SearchOptions, ThreadData, ThreadPool, TranspositionTable,
};
use crate::tafl::RuleOptions;
use crate::tuning::SearchParams;
use crate::variant::{Family, GameKind, Variant};
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
    /// ([`crate::game::RepetitionRule::Forbidden`]: Copenhagen's defenders).
    #[error("illegal move {0}: it recreates an earlier board, which the defenders may not do")]
    RepeatsBoard(MoveView),
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

/// A game in progress, whatever the game.
pub trait Session: Send {
    /// What the game is: a variant, or rules of no variant (the family and the board size).
    /// The game's configuration (search values) is keyed on it.
    fn kind(&self) -> GameKind;
    /// The rules' name, for people: a variant's protocol name (`brandubh`), an OpenTafl rules
    /// string's `name:`. Only for display: nothing is looked up by it ([`Session::kind`]).
    fn rules_name(&self) -> &'static str;
    /// A copy of this session (for a search thread).
    fn boxed_clone(&self) -> Box<dyn Session>;
    /// Sets the position: the start position (`fen` `None`) or a FEN, then the moves in order
    /// (move text, as a protocol's `position … moves` gives them). On any error (bad FEN, an
    /// illegal move, a move after the game ended) the session is left unchanged and the error
    /// says what and where.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), PositionError>;
    /// Sets up a new game from a board (`placement`: the FEN placement field, top rank first)
    /// with `side` to move and the clocks of a start position. Unchanged on error.
    fn set_board(&mut self, placement: &str, side: Side) -> Result<(), PositionError>;
    /// Sets the side to move, keeping the board; the game's history is dropped (as after
    /// `position fen`). Nothing changes if `side` is already to move.
    fn set_side_to_move(&mut self, side: Side);
    /// The board: pieces and marked squares (its `Display` is the diagram).
    fn board(&self) -> Board;
    /// The board the game was set up with (before [`Session::moves_played`]).
    fn setup_board(&self) -> Board;
    /// Reads move text (the game's notation, rules.md "Moves") as a legal move here.
    /// Errors say why (notation, a blocked way, a board the rules forbid to recreate, the game
    /// over).
    fn parse_move(&self, text: &str) -> Result<MoveView, MoveError>;
    /// Plays the legal move `mv`. Unchanged on error (the move is not legal here, the game is
    /// over).
    fn play(&mut self, mv: MoveView) -> Result<(), MoveError>;
    /// Plays one move given as text ([`Session::parse_move`]) and returns it. Unchanged on
    /// error.
    fn play_text(&mut self, text: &str) -> Result<MoveView, MoveError> {
        let mv = self.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }
    /// What the last move played took from the opponent ([`Game::captures`]: captured tafl
    /// pieces, turned-over Ataxx stones), top rank first; empty before the first move.
    fn last_captures(&self) -> Vec<Capture>;
    /// Takes back the last move played, if any. Returns `false` when there is none.
    fn undo(&mut self) -> bool;
    /// The current position as FEN.
    fn fen(&self) -> String;
    /// The position the game was set up from (before [`Session::moves_played`]) as FEN.
    fn setup_fen(&self) -> String;
    /// The move number (the FEN's last field).
    fn fullmove_number(&self) -> u32;
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
    /// The search's tuning values for this game: those of its [`Session::kind`]
    /// ([`GameKind::search_params`]: its variant's, the family's for rules of no variant).
    fn search_params(&self) -> SearchParams {
        self.kind().search_params()
    }
    /// The legal moves, in the generator's order (none once the game is over; the moves the
    /// rules forbid by the game's history left out).
    fn legal_moves(&self) -> Vec<MoveView>;
    /// The legal moves of the piece on `square` (an Ataxx clone is made from every stone of
    /// the mover's next to its square, so it is a target of each of them): none when no piece
    /// of the side to move stands there.
    fn targets(&self, square: Square) -> Vec<MoveView> {
        let mine = self.board().piece(square).map(|p| p.side()) == Some(self.side_to_move());
        if !mine {
            return Vec::new();
        }
        self.legal_moves()
            .into_iter()
            .filter(|mv| mv.made_from(square))
            .collect()
    }
    /// The moves played since the set-up position, in order.
    fn moves_played(&self) -> Vec<MoveView>;
    /// The last move played, if any.
    fn last_move(&self) -> Option<MoveView> {
        self.moves_played().pop()
    }
    /// perft divide: each legal move with its perft(`depth` − 1).
    fn divide(&self, depth: u32) -> Vec<(MoveView, u64)>;
    /// perft divide that `stop` can end early ([`crate::perft::divide_until`]): `each(move,
    /// count)` per root move; `false` if stopped.
    fn divide_until(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        each: &mut dyn FnMut(MoveView, u64),
    ) -> bool;
    /// perft divide split over `threads` threads at the root ([`crate::perft::divide_parallel`]):
    /// `done` is called as each root move's count is done. Errors if the threads cannot start.
    fn divide_parallel(
        &self,
        depth: u32,
        threads: usize,
        done: &(dyn Fn() + Sync),
    ) -> Result<Vec<(MoveView, u64)>, rayon::ThreadPoolBuildError>;
    /// Searches the current position, which the engine has checked is not decided, with the
    /// engine's machinery (`context`; see [`crate::search::search`]). Only the engine calls it:
    /// front-ends search through [`crate::engine::Engine::start`].
    fn search(&self, context: SearchContext<'_>, report: &mut dyn FnMut(&Report)) -> Answer;
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
    variant.visit(MakeSession(GameKind::Variant(variant)))
}

/// A new tafl game under `options` (an OpenTafl rules string's, [`crate::tafl::opentafl`], or
/// a preset's), at its start position; or why the rules cannot be played (the message of
/// [`crate::tafl::Rules`]' check). The board size picks the bitboard: up to 8×8 in 64 bits, 11×11
/// in 128, 13×13 and 19×19 in wider sets.
///
/// The game is of no variant ([`GameKind::Rules`]), whatever the rules' name: its search values
/// are the tafl family's, its evaluation weights those the options carry.
pub fn new_tafl_session(options: RuleOptions) -> Result<Box<dyn Session>, String> {
    let kind = GameKind::Rules {
        family: Family::Tafl,
        size: options.size,
    };
    crate::tafl::visit_rules(options, MakeSession(kind)).map_err(|e| e.to_string())
}

/// Makes the [`Session`] of a start position, of the game `0`.
struct MakeSession(GameKind);

impl GameVisitor for MakeSession {
    type Output = Box<dyn Session>;
    fn visit<G: Game>(self, start: G) -> Box<dyn Session> {
        Box::new(GameSession::new(start, self.0))
    }
}

/// The [`Session`] of a game of type `G`.
#[derive(Clone)]
pub struct GameSession<G: Game> {
    kind: GameKind,
    setup: G,
    pos: G,
    /// Hashes of the positions before `pos`, oldest first.
    history: Vec<u64>,
    /// Positions and moves played since `setup`, for undo and the record.
    played: Vec<(G, G::Move)>,
}

impl<G: Game> GameSession<G> {
    /// A session at `start`, a position of the game `kind`.
    pub fn new(start: G, kind: GameKind) -> Self {
        GameSession {
            kind,
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

    fn pv_view(&self, pv: &[G::Move]) -> Vec<MoveView> {
        let mut pos = self.pos.clone();
        pv.iter()
            .map(|&mv| {
                let view = pos.move_view(mv);
                pos.make_move(mv);
                view
            })
            .collect()
    }

    /// The legal move `text` names here, or why there is none.
    fn find(&self, text: &str) -> Result<G::Move, MoveError> {
        if let Outcome::Decided { reason, .. } = outcome_with_history(&self.pos, &self.history) {
            return Err(MoveError::GameOver(reason));
        }
        let mv = self.pos.parse_move(text).map_err(MoveError::Illegal)?;
        if forbidden_by_history(&self.pos, &self.history, mv) {
            return Err(MoveError::RepeatsBoard(self.pos.move_view(mv)));
        }
        Ok(mv)
    }

    fn make(&mut self, mv: G::Move) {
        self.history.push(self.pos.hash());
        self.played.push((self.pos.clone(), mv));
        self.pos.make_move(mv);
    }
}

impl<G: Game> Session for GameSession<G> {
    fn kind(&self) -> GameKind {
        self.kind
    }

    fn rules_name(&self) -> &'static str {
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
        let mut next = GameSession::new(start, self.kind);
        for (i, text) in moves.iter().enumerate() {
            let mv = next.find(text).map_err(|error| PositionError::BadMove {
                number: i + 1,
                text: text.to_string(),
                error,
            })?;
            next.make(mv);
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
        *self = GameSession::new(pos, self.kind);
        Ok(())
    }

    fn set_side_to_move(&mut self, side: Side) {
        if self.pos.side_to_move() != side {
            let mut pos = self.pos.clone();
            pos.set_side_to_move(side);
            *self = GameSession::new(pos, self.kind);
        }
    }

    fn board(&self) -> Board {
        self.pos.board()
    }

    fn setup_board(&self) -> Board {
        self.setup.board()
    }

    fn parse_move(&self, text: &str) -> Result<MoveView, MoveError> {
        self.find(text).map(|mv| self.pos.move_view(mv))
    }

    fn play(&mut self, mv: MoveView) -> Result<(), MoveError> {
        // The move's own notation, read by the game: its legality and the reason if not.
        let found = self.find(&mv.to_string())?;
        self.make(found);
        Ok(())
    }

    fn play_text(&mut self, text: &str) -> Result<MoveView, MoveError> {
        let mv = self.find(text)?;
        let view = self.pos.move_view(mv);
        self.make(mv);
        Ok(view)
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

    fn fullmove_number(&self) -> u32 {
        self.pos.fullmove_number()
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

    fn legal_moves(&self) -> Vec<MoveView> {
        if self.outcome().is_decided() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.pos.generate_moves(&mut moves);
        moves
            .iter()
            .filter(|&&m| !forbidden_by_history(&self.pos, &self.history, m))
            .map(|&m| self.pos.move_view(m))
            .collect()
    }

    fn moves_played(&self) -> Vec<MoveView> {
        self.played.iter().map(|(p, m)| p.move_view(*m)).collect()
    }

    fn last_move(&self) -> Option<MoveView> {
        self.played.last().map(|(p, m)| p.move_view(*m))
    }

    fn divide(&self, depth: u32) -> Vec<(MoveView, u64)> {
        crate::perft::divide(&self.pos, depth)
    }

    fn divide_until(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        each: &mut dyn FnMut(MoveView, u64),
    ) -> bool {
        crate::perft::divide_until(&self.pos, depth, stop, each)
    }

    fn divide_parallel(
        &self,
        depth: u32,
        threads: usize,
        done: &(dyn Fn() + Sync),
    ) -> Result<Vec<(MoveView, u64)>, rayon::ThreadPoolBuildError> {
        crate::perft::divide_parallel(&self.pos, depth, threads, done)
    }

    fn search(&self, context: SearchContext<'_>, report: &mut dyn FnMut(&Report)) -> Answer {
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
                report(&Report {
                    depth: r.depth,
                    seldepth: r.seldepth,
                    multipv: r.multipv,
                    score: r.score,
                    nodes: r.nodes,
                    nps: r.nps,
                    hashfull: r.hashfull,
                    time_ms: r.time_ms,
                    pv: self.pv_view(&r.pv),
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
        Answer {
            best_move: result.best_move.map(|m| self.pos.move_view(m)),
            ponder: result.ponder.and_then(|p| {
                let best = result.best_move?;
                let mut after = self.pos.clone();
                after.make_move(best);
                Some(after.move_view(p))
            }),
            score: Score::from_internal(result.score),
            depth: result.depth,
            nodes: result.nodes,
            lines: result
                .lines
                .iter()
                .map(|(s, pv)| (Score::from_internal(*s), self.pv_view(pv)))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An OpenTafl rules string's `name:` picks no configuration: skald's own brandubh string
    /// (`name:brandubh`) makes a game of no variant, with the tafl family's search values and the
    /// hand weights, not brandubh's tuned ones (they were chosen by that name).
    #[test]
    fn a_rules_strings_name_picks_no_configuration() {
        let text = Variant::Brandubh.descriptor().opentafl_rules.unwrap();
        let options = crate::tafl::opentafl::parse_rules(text).unwrap();
        assert_eq!(options.name, "brandubh");
        assert_eq!(options.eval_weights, crate::tafl::WeightSet::Hand);
        let s = new_tafl_session(options).unwrap();
        let kind = GameKind::Rules {
            family: Family::Tafl,
            size: 7,
        };
        assert_eq!((s.kind(), s.rules_name()), (kind, "brandubh"));
        assert_eq!(s.search_params(), SearchParams::DEFAULT);
        let brandubh = new_session(Variant::Brandubh);
        assert_eq!(brandubh.kind(), GameKind::Variant(Variant::Brandubh));
        assert_eq!(brandubh.search_params(), crate::variant::params::BRANDUBH);
    }

    /// The built-in Copenhagen network goes with the preset's data: an 11×11 OpenTafl rules
    /// string named `copenhagen` is evaluated by hand, the `copenhagen` variant by its network.
    #[test]
    fn a_rules_strings_name_picks_no_network() {
        // An 11×11 rules string (Tawlbwrdd's) under Copenhagen's name.
        let text = Variant::Tawlbwrdd.descriptor().opentafl_rules.unwrap();
        let text = text.replace("name:tawlbwrdd", "name:copenhagen");
        let options = crate::tafl::opentafl::parse_rules(&text).unwrap();
        assert_eq!(
            (options.name.as_ref(), options.network),
            ("copenhagen", None)
        );
        let s = new_tafl_session(options).unwrap();
        let (_, described) = s.eval_terms(&EvalChoice::Default);
        assert!(!described.contains(".nnue"), "{described}");
        let preset = new_session(Variant::Copenhagen);
        let (_, described) = preset.eval_terms(&EvalChoice::Default);
        assert!(
            described.contains("copenhagen-r128-g3-ft.nnue"),
            "{described}"
        );
    }
}
