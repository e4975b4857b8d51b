//! The evaluation interface the search uses, game-blind: an [`Evaluator`] made once per search
//! thread from the engine's [`EvalChoice`], and one accumulator per ply that the evaluator keeps
//! up to date as moves are made (Stockfish's and Viridithas's NNUE accumulator stack).
//!
//! - [`Evaluator::refresh`] computes the root's accumulator from scratch;
//! - [`Evaluator::update`] gives a child's accumulator from its parent's and the move
//!   (incremental: for a network, the rows of the features that changed);
//! - [`Evaluator::evaluate`] scores a position from its accumulator.
//!
//! A null move keeps the placement, so the search copies the parent's accumulator for it
//! ([`Evaluator::copy_for_null_move`]; the side to move, which the evaluation reads from the
//! position, is what changes).
//!
//! This is the bottom layer: it names no game and imports nothing of the crate. [`Evaluator`]
//! is generic over the position and move types; the game trait (`crate::game`) says which
//! evaluator a game uses and gives [`HandEval`], the hand-written evaluation behind this
//! interface (accumulator `()`, updates that do nothing), its implementation. A network read
//! from a file is held opaque ([`AnyNetwork`]): the game family that owns it reads the file
//! (its [`NetworkLoader`]) and takes it back out ([`EvalChoice::network`]).

use std::any::Any;
use std::error::Error;
use std::path::Path;
use std::sync::Arc;

/// A game's evaluation as the search uses it (see the module docs), for positions of type `P`
/// whose moves are of type `M`. Made once per search thread by the game; read-only during the
/// search.
pub trait Evaluator<P, M>: Send + Sync + 'static {
    /// What is kept per ply: a network's hidden-layer sums; `()` for a hand-written evaluation.
    type Accumulator: Clone + Send + Default + PartialEq + std::fmt::Debug + 'static;

    /// Sets `acc` to the accumulator of `pos` computed from scratch.
    fn refresh(&self, pos: &P, acc: &mut Self::Accumulator);

    /// Sets `child_acc` to the accumulator of `child`, the position after the legal move `mv` of
    /// `parent`, from `parent_acc` (the accumulator of `parent`). Equals a
    /// [`Evaluator::refresh`] of `child` (tests check this).
    fn update(
        &self,
        parent: &P,
        mv: M,
        child: &P,
        parent_acc: &Self::Accumulator,
        child_acc: &mut Self::Accumulator,
    );

    /// Sets `child_acc` to the accumulator after a null move from the position whose
    /// accumulator is `parent_acc`: the placement is unchanged, so are the values. A clone by
    /// default; an evaluator whose accumulator has more room than its network uses copies only
    /// what it uses.
    #[inline]
    fn copy_for_null_move(
        &self,
        parent_acc: &Self::Accumulator,
        child_acc: &mut Self::Accumulator,
    ) {
        child_acc.clone_from(parent_acc);
    }

    /// The static evaluation of `pos`, whose accumulator is `acc`, in centipawns from the side
    /// to move's view.
    fn evaluate(&self, pos: &P, acc: &Self::Accumulator) -> i32;

    /// The evaluation of `pos` broken into named terms `(name, centipawns)` from the side to
    /// move's view, summing to its evaluation (for the protocols' `eval` display).
    fn terms(&self, pos: &P) -> Vec<(&'static str, i32)>;

    /// What evaluates, in a few words for people (`hand-written`, `network <file name>`).
    fn describe(&self) -> String;

    /// Why the network the [`EvalChoice`] named does not evaluate this game (a network of
    /// another board or family: the game then evaluates as by default or by hand), for people;
    /// `None` when it does, or no network was named. The command-line tools refuse such a
    /// network. `None` by default.
    fn unfit(&self) -> Option<String> {
        None
    }

    /// The evaluation of `pos` from scratch: a fresh accumulator, then [`Evaluator::evaluate`].
    fn evaluate_fresh(&self, pos: &P) -> i32 {
        let mut acc = Self::Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate(pos, &acc)
    }
}

/// A game's hand-written evaluation behind the [`Evaluator`] interface: no accumulator, nothing
/// to update. Its implementation (for every game, through the game's own evaluation) is beside
/// the game trait, in `crate::game`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandEval;

/// A network read from a file, opaque here: the game family that reads the file knows its type
/// and takes it back out with [`EvalChoice::network`].
pub type AnyNetwork = Arc<dyn Any + Send + Sync>;

/// Why a network file cannot be used, as its game family's loader says (the message is shown to
/// people as it is, e.g. `network file is truncated: 100 bytes, expected 38424`).
pub type NetworkLoadError = Box<dyn Error + Send + Sync>;

/// A game family's network reader: the network in the file at the path, or why not.
pub type NetworkLoader = fn(&Path) -> Result<AnyNetwork, NetworkLoadError>;

/// Which evaluation the searches use: the engine option `EvalFile` (protocol.md).
///
/// A network file belongs to one game family and, for tafl, one board size (its features are
/// that board's): the family's [`NetworkLoader`] reads it and the family's evaluator takes it
/// back out ([`EvalChoice::network`]); a game of another family does not find its type there,
/// and a game the network does not fit evaluates as by default and says why
/// ([`Evaluator::unfit`]).
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// Each game's default: a network built into the binary where there is one (Ataxx),
    /// the hand-written evaluation for the others (`EvalFile` `<default>`).
    #[default]
    Default,
    /// The hand-written evaluation for every game (`EvalFile` `hand`).
    Hand,
    /// A network read from a file (`EvalFile <path>`); `name` is the path as given.
    Network {
        /// The network, of its family's type.
        net: AnyNetwork,
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
    /// ignored) the hand-written evaluation, anything else the path of a network file, which
    /// `load` (the game family's [`NetworkLoader`]) reads now.
    ///
    /// # Errors
    /// What `load` says: the file cannot be read or is not a network this build reads (e.g.
    /// `network file is truncated: 100 bytes, expected 38424`).
    pub fn from_eval_file(
        value: &str,
        load: NetworkLoader,
    ) -> Result<EvalChoice, NetworkLoadError> {
        let value = value.trim();
        if value.is_empty() || value == EVAL_FILE_DEFAULT {
            Ok(EvalChoice::Default)
        } else if value.eq_ignore_ascii_case(EVAL_FILE_HAND) {
            Ok(EvalChoice::Hand)
        } else {
            Ok(EvalChoice::Network {
                net: load(Path::new(value))?,
                name: value.to_string(),
            })
        }
    }

    /// The network read from a file, if there is one and it is of type `T` (the caller's
    /// family's network type); `None` for [`EvalChoice::Default`], [`EvalChoice::Hand`] and a
    /// network of another type.
    pub fn network<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        match self {
            EvalChoice::Network { net, .. } => Arc::clone(net).downcast::<T>().ok(),
            _ => None,
        }
    }

    /// The `EvalFile` value that gives this choice.
    pub fn eval_file(&self) -> &str {
        match self {
            EvalChoice::Default => EVAL_FILE_DEFAULT,
            EvalChoice::Hand => EVAL_FILE_HAND,
            EvalChoice::Network { name, .. } => name,
        }
    }
}
