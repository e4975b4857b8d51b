//! The evaluation interface the search uses, game-blind: an [`Evaluator`] made once per search
//! thread from the engine's [`EvalChoice`], and one accumulator per ply that the evaluator keeps
//! up to date as moves are made (Stockfish's and Viridithas's NNUE accumulator stack).
//!
//! - [`Evaluator::refresh`] computes the root's accumulator from scratch;
//! - [`Evaluator::update`] gives a child's accumulator from its parent's and the move
//!   (incremental: for a network, the rows of the features that changed);
//! - [`Evaluator::evaluate`] scores a position from its accumulator.
//!
//! A null move keeps the placement, so the search copies the parent's accumulator for it (the
//! side to move, which the evaluation reads from the position, is what changes).
//!
//! Games without a network use [`HandEval`]: its accumulator is `()`, its updates do nothing and
//! it evaluates with [`Game::evaluate`], so the hand-written evaluations cost the search nothing
//! more than before. Ataxx's evaluator ([`crate::ataxx::nnue::AtaxxEval`]) uses the network by
//! default and the hand-written evaluation when [`EvalChoice::Hand`] says so.

use crate::game::Game;
use std::sync::Arc;

/// A game's evaluation as the search uses it (see the module docs). Made once per search thread
/// by [`Game::evaluator`]; read-only during the search.
pub trait Evaluator<G: Game>: Send + Sync + 'static {
    /// What is kept per ply: a network's hidden-layer sums; `()` for a hand-written evaluation.
    type Accumulator: Clone + Send + Default + PartialEq + std::fmt::Debug + 'static;

    /// Sets `acc` to the accumulator of `pos` computed from scratch.
    fn refresh(&self, pos: &G, acc: &mut Self::Accumulator);

    /// Sets `child_acc` to the accumulator of `child`, the position after the legal move `mv` of
    /// `parent`, from `parent_acc` (the accumulator of `parent`). Equals a
    /// [`Evaluator::refresh`] of `child` (tests check this).
    fn update(
        &self,
        parent: &G,
        mv: G::Move,
        child: &G,
        parent_acc: &Self::Accumulator,
        child_acc: &mut Self::Accumulator,
    );

    /// The static evaluation of `pos`, whose accumulator is `acc`, in centipawns from the side
    /// to move's view.
    fn evaluate(&self, pos: &G, acc: &Self::Accumulator) -> i32;

    /// The evaluation of `pos` broken into named terms `(name, centipawns)` from the side to
    /// move's view, summing to its evaluation (for the protocols' `eval` display).
    fn terms(&self, pos: &G) -> Vec<(&'static str, i32)>;

    /// What evaluates, in a few words for people (`hand-written`, `network ataxx-v2.nnue`).
    fn describe(&self) -> String;

    /// The evaluation of `pos` from scratch: a fresh accumulator, then [`Evaluator::evaluate`].
    fn evaluate_fresh(&self, pos: &G) -> i32 {
        let mut acc = Self::Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate(pos, &acc)
    }
}

/// The hand-written evaluation of a game ([`Game::evaluate`], [`Game::eval_terms`]) behind the
/// [`Evaluator`] interface: no accumulator, nothing to update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandEval;

impl<G: Game> Evaluator<G> for HandEval {
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

/// Which evaluation the searches use: the engine option `EvalFile` (protocol.md). Games without
/// a network evaluate by hand whatever this says.
///
/// A network file belongs to one game family (its features are that game's board), so a loaded
/// network is held as that family's type; today only Ataxx has one.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// Each game's default: Ataxx's embedded network ([`crate::ataxx::nnue::embedded`]), the
    /// hand-written evaluation for the others (`EvalFile` `<default>`).
    #[default]
    Default,
    /// The hand-written evaluation for every game (`EvalFile` `hand`).
    Hand,
    /// An Ataxx network read from a file (`EvalFile <path>`); `name` is the path as given.
    Ataxx {
        /// The network.
        net: Arc<crate::ataxx::nnue::Network>,
        /// Where it was read from, as given.
        name: String,
    },
}

/// The value of `EvalFile` that means the embedded network (an empty value means it too).
pub const EVAL_FILE_DEFAULT: &str = "<default>";
/// The value of `EvalFile` that means the hand-written evaluation.
pub const EVAL_FILE_HAND: &str = "hand";

impl EvalChoice {
    /// The choice an `EvalFile` value names: empty or `<default>` the default, `hand` (case
    /// ignored) the hand-written evaluation, anything else the path of an Ataxx network file,
    /// which is read now.
    ///
    /// # Errors
    /// The file cannot be read or is not a network this build reads (the message says why, e.g.
    /// `network file is truncated: 100 bytes, expected 38424`).
    pub fn from_eval_file(value: &str) -> Result<EvalChoice, crate::ataxx::nnue::NetworkError> {
        let value = value.trim();
        if value.is_empty() || value == EVAL_FILE_DEFAULT {
            Ok(EvalChoice::Default)
        } else if value.eq_ignore_ascii_case(EVAL_FILE_HAND) {
            Ok(EvalChoice::Hand)
        } else {
            let net = crate::ataxx::nnue::Network::load(std::path::Path::new(value))?;
            Ok(EvalChoice::Ataxx {
                net: Arc::new(net),
                name: value.to_string(),
            })
        }
    }

    /// The `EvalFile` value that gives this choice.
    pub fn eval_file(&self) -> &str {
        match self {
            EvalChoice::Default => EVAL_FILE_DEFAULT,
            EvalChoice::Hand => EVAL_FILE_HAND,
            EvalChoice::Ataxx { name, .. } => name,
        }
    }
}
