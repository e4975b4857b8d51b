//! An NNUE-style network evaluation for the tafl boards from 7×7 to 13×13 ([`TaflNetwork`]):
//! its features, output heads and file (format 3 of [`crate::nnue`], which names the family and
//! the board), the search's tafl evaluation ([`TaflEval`], `eval.rs`: a network or the
//! hand-written evaluation), and the board's symmetries (`symmetry.rs`, for training). The
//! quantised layers, accumulator and kernels are the shared ones ([`crate::nnue`]).
//!
//! # In the search
//! Copenhagen 11×11 evaluates by default with the network built into the binary for it
//! (`nets/copenhagen-r128-g3-ft.nnue`, [`embedded`]; one is built in for a variant only when it
//! wins its SPRT against the hand evaluation, and a later generation only when it wins its
//! SPRT against the one built in, docs/training.md); the other tafl variants
//! evaluate by hand (`crate::tafl::eval`, Texel-tuned weights per variant) unless the engine
//! option `EvalFile` names a tafl network for the board in play, and `EvalFile hand` is the
//! hand evaluation in every variant. A network of another
//! board is not used: the game evaluates by hand, `eval` says why, and the command-line tools
//! refuse it ([`TaflEval::unfit`]). 19×19 boards always evaluate by hand.
//!
//! Each search thread keeps one [`Accumulator`] per ply: a refresh at the root, then per move
//! the rows of the features that changed, found by comparing the parent's and the child's
//! bitboards (the moved piece's square off and on, and every captured piece off: custodial
//! captures, shieldwalls and the king; with feature set 2 also the king's reach, computed for
//! both), [`TaflNetwork::update`].
//!
//! # Architecture
//! `(3 × N² or 4 × N² → H) → heads`, one accumulator (tafl is not the same game for both sides, so there
//! is no pair of mirrored perspectives as in chess or Ataxx):
//!
//! - **Features** ([`features`], [`FeatureSet`]): for a board of side `N`, input `k × N² + sq`
//!   for a piece of kind `k` on square `sq` (`k`: 0 attacker, 1 defender, 2 king; `sq = rank × N
//!   + file`, `a1` = 0), as many active as pieces on the board (feature set 1,
//!   [`FeatureSet::Pieces`]); feature set 2 ([`FeatureSet::KingReach`]) adds `3 × N² + sq` for
//!   every square `sq` the king can move to in one move ([`king_reach`]): what a board of single
//!   squares cannot see, the king's open lines (an escape square among them is a win next move,
//!   a square that opens two is a fork), at most `2 × (N − 1)` more.
//! - **Accumulator**: `b1 + Σ W1[f]` over the active features, `H` values (a multiple of 32 up
//!   to 1024).
//! - **Output heads** ([`TaflNetwork::head`]): the side to move enters through the output layer,
//!   not as an input, so that the accumulator depends on the placement only (a null move keeps
//!   it): with **2 side-to-move heads** one output layer for each side to move, giving the side
//!   to move's view; with **1** one output layer, giving the defenders' view, negated when the
//!   attackers are to move (a network that does not know who moves; kept for comparison). Each
//!   may be split into `B` **output buckets** by the number of pieces on the board `n`:
//!   `min(B − 1, n × B / D)` with the header's divisor `D` (the start position's count), so the
//!   opening, middle and end have their own output layers. Head `s × B + b` for side `s`
//!   (attackers 0) and bucket `b`.
//! - **Output**: CReLU or SCReLU on the accumulator, then the head's
//!   `y = W2 · act(a) + b2`, centipawns `y × scale` (the trainer's `K`).
//!
//! # Quantisation
//! As [`crate::nnue`]. The accumulator sums `b1` and one row per piece: the trainer keeps `W1`,
//! `b1` within `32 767 / (255 × (P + 1))` for a start position of `P` pieces (at most 1.98),
//! so that it fits `i16`.
//!
//! # File
//! File format 3 ([`crate::nnue`] gives the header): family [`crate::nnue::FAMILY_TAFL`] (2),
//! the board size (7 to 13), feature set 1, inputs `3 × N²`, one perspective, the side-to-move
//! heads, buckets and divisor, the variant trained on (shown by `eval`, not checked: a network
//! of one 11×11 variant evaluates another 11×11 variant if asked to). A file for another family
//! or board, or with inputs that do not match its board, is refused with a message naming both
//! ([`crate::nnue::FormatError`]).

mod eval;
mod symmetry;

pub use eval::TaflEval;
pub use symmetry::{rules_symmetries, symmetries};

use std::path::Path;
use std::sync::Arc;

use super::bitboard::{Bitboard, Square};
use super::position::Position;
use crate::game::Side;
use crate::nnue::{
    Accumulator, FAMILY_TAFL, FormatError, HEADER_LEN, Header, Layers, NAME_LEN, file_family,
};

/// Feature-set id of the piece-per-square inputs ([`FeatureSet::Pieces`]).
pub const FEATURE_SET_PIECES: u16 = 1;
/// Feature-set id of the piece-per-square inputs and the king's reach ([`FeatureSet::KingReach`]).
pub const FEATURE_SET_KING_REACH: u16 = 2;

/// The inputs of a tafl network (the header's feature-set id).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum FeatureSet {
    /// Attackers, defenders and the king on each square: `3 × N²` inputs (id 1).
    Pieces,
    /// The same and the squares the king can move to: `4 × N²` inputs (id 2).
    KingReach,
}

impl FeatureSet {
    /// The header's id.
    pub fn id(self) -> u16 {
        match self {
            FeatureSet::Pieces => FEATURE_SET_PIECES,
            FeatureSet::KingReach => FEATURE_SET_KING_REACH,
        }
    }

    /// The feature set of a header id, `None` for an unknown one.
    pub fn from_id(id: u16) -> Option<FeatureSet> {
        match id {
            FEATURE_SET_PIECES => Some(FeatureSet::Pieces),
            FEATURE_SET_KING_REACH => Some(FeatureSet::KingReach),
            _ => None,
        }
    }

    /// Inputs on a board of side `size`.
    pub const fn inputs(self, size: u8) -> usize {
        match self {
            FeatureSet::Pieces => num_features(size),
            FeatureSet::KingReach => num_features(size) + size as usize * size as usize,
        }
    }

    /// The most features active at once on a board of side `size` with at most `pieces`
    /// pieces (the trainer's bound for the accumulator).
    pub const fn most_active(self, size: u8, pieces: u32) -> usize {
        match self {
            FeatureSet::Pieces => pieces as usize,
            FeatureSet::KingReach => pieces as usize + 2 * (size as usize - 1),
        }
    }
}

/// The squares the king of `pos` can move to in one move (its legal destinations, escape
/// squares included; empty once he is gone): feature set 2's extra inputs.
#[inline]
pub fn king_reach<B: Bitboard>(pos: &Position<B>) -> B {
    let king = pos.king();
    if king.is_empty() {
        return B::ZERO;
    }
    pos.targets(king.lsb(), crate::tafl::rules::Piece::King)
}
/// The smallest board a tafl network may have.
pub const MIN_BOARD: u8 = 7;
/// The largest board a tafl network may have (19×19 evaluates by hand).
pub const MAX_BOARD: u8 = 13;
/// The most output buckets per side to move.
pub const MAX_BUCKETS: usize = 8;
/// The most rows a move may change (the moved piece twice, its captures, the king's reach):
/// more and the update refreshes instead.
const MAX_CHANGES: usize = 48;

/// Inputs of the piece features on a board of side `size`: `3 × size²`.
pub const fn num_features(size: u8) -> usize {
    3 * size as usize * size as usize
}

/// The input of a piece of kind `kind` (0 attacker, 1 defender, 2 king; 3 for a square of the
/// king's reach, feature set 2) on `sq`, board side `size`.
#[inline(always)]
pub const fn feature(kind: usize, sq: Square, size: u8) -> usize {
    kind * size as usize * size as usize + sq as usize
}

/// The active features of `pos` in feature set `set` (module docs): attackers, then defenders,
/// then the king, then (feature set 2) the king's reach, each lowest square first.
pub fn features<B: Bitboard>(pos: &Position<B>, set: FeatureSet) -> impl Iterator<Item = usize> {
    let size = pos.rules().size;
    let reach = match set {
        FeatureSet::Pieces => B::ZERO,
        FeatureSet::KingReach => king_reach(pos),
    };
    [pos.attackers(), pos.defenders(), pos.king(), reach]
        .into_iter()
        .enumerate()
        .flat_map(move |(k, b)| b.squares().map(move |sq| feature(k, sq, size)))
}

/// The output bucket of a position with `pieces` pieces in a network of `buckets` buckets and
/// divisor `divisor`: `min(buckets − 1, pieces × buckets / divisor)`.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize, divisor: u16) -> usize {
    (pieces as usize * buckets / divisor as usize).min(buckets - 1)
}

/// A quantised tafl network (module docs).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TaflNetwork {
    board: u8,
    features: FeatureSet,
    variant: String,
    side_heads: usize,
    buckets: usize,
    divisor: u16,
    layers: Layers,
}

impl TaflNetwork {
    /// A network for boards of side `board` (7 to 13) with the inputs `features`, trained on
    /// `variant` (at most 16 ASCII bytes), with `side_heads` (1 or 2) × `buckets` (1 to 8)
    /// output heads, bucket divisor `divisor` (≥ 1), and `layers` of
    /// [`FeatureSet::inputs`]`(board)` inputs, one perspective and as many heads. `None` if
    /// anything does not fit.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        board: u8,
        features: FeatureSet,
        variant: &str,
        side_heads: usize,
        buckets: usize,
        divisor: u16,
        layers: Layers,
    ) -> Option<TaflNetwork> {
        let fits = (MIN_BOARD..=MAX_BOARD).contains(&board)
            && variant.len() <= NAME_LEN
            && variant.bytes().all(|b| b.is_ascii_graphic())
            && (1..=2).contains(&side_heads)
            && (1..=MAX_BUCKETS).contains(&buckets)
            && divisor >= 1
            && layers.inputs() == features.inputs(board)
            && layers.perspectives() == 1
            && layers.heads() == side_heads * buckets;
        fits.then(|| TaflNetwork {
            board,
            features,
            variant: variant.to_string(),
            side_heads,
            buckets,
            divisor,
            layers,
        })
    }

    /// Squares along a side of its board.
    pub fn board(&self) -> u8 {
        self.board
    }

    /// Its inputs.
    pub fn feature_set(&self) -> FeatureSet {
        self.features
    }

    /// The variant it was trained on (its protocol name).
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// Side-to-move heads: 2 (one output layer per side to move) or 1 (the defenders' view).
    pub fn side_heads(&self) -> usize {
        self.side_heads
    }

    /// Output buckets per side-to-move head.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The bucket divisor (pieces that make the last bucket).
    pub fn bucket_divisor(&self) -> u16 {
        self.divisor
    }

    /// The quantised layers.
    pub fn layers(&self) -> &Layers {
        &self.layers
    }

    /// The output head of a position with `side` to move and `pieces` pieces on the board.
    #[inline(always)]
    pub fn head(&self, side: Side, pieces: u32) -> usize {
        let bucket = match self.buckets {
            1 => 0,
            n => output_bucket(pieces, n, self.divisor),
        };
        if self.side_heads == 2 {
            side.index() * self.buckets + bucket
        } else {
            bucket
        }
    }

    /// Sets `acc` to the accumulator of `pos` computed from scratch.
    pub fn refresh<B: Bitboard>(&self, acc: &mut Accumulator, pos: &Position<B>) {
        let h = self.layers.hidden();
        self.layers
            .refresh(acc.side_mut(0, h), features(pos, self.features));
    }

    /// Sets `child_acc` to the accumulator of `child` from `parent_acc`, that of `parent`,
    /// where `child` follows `parent` by one move: the rows of the pieces that appeared are
    /// added and of those that vanished subtracted (a moved piece, its captures), in one pass.
    #[inline]
    pub fn update<B: Bitboard>(
        &self,
        child_acc: &mut Accumulator,
        parent_acc: &Accumulator,
        parent: &Position<B>,
        child: &Position<B>,
    ) {
        let size = self.board;
        let mut adds: [&[i16]; MAX_CHANGES] = [&[]; MAX_CHANGES];
        let mut subs: [&[i16]; MAX_CHANGES] = [&[]; MAX_CHANGES];
        let (mut na, mut ns) = (0, 0);
        let reach = match self.features {
            FeatureSet::Pieces => (B::ZERO, B::ZERO),
            FeatureSet::KingReach => (king_reach(parent), king_reach(child)),
        };
        let kinds = [
            (parent.attackers(), child.attackers()),
            (parent.defenders(), child.defenders()),
            (parent.king(), child.king()),
            reach,
        ];
        for (k, (before, after)) in kinds.into_iter().enumerate() {
            if before == after {
                continue;
            }
            for sq in (after & !before).squares() {
                if na == MAX_CHANGES {
                    return self.refresh(child_acc, child);
                }
                adds[na] = self.layers.row(feature(k, sq, size));
                na += 1;
            }
            for sq in (before & !after).squares() {
                if ns == MAX_CHANGES {
                    return self.refresh(child_acc, child);
                }
                subs[ns] = self.layers.row(feature(k, sq, size));
                ns += 1;
            }
        }
        let h = self.layers.hidden();
        self.layers.update(
            child_acc.side_mut(0, h),
            parent_acc.side(0, h),
            &adds[..na],
            &subs[..ns],
        );
    }

    /// The evaluation of the position whose accumulator is `acc`, with `side` to move and
    /// `pieces` pieces on the board, in centipawns from the side to move's view.
    #[inline]
    pub fn evaluate_acc(&self, acc: &Accumulator, side: Side, pieces: u32) -> i32 {
        let h = self.layers.hidden();
        let y = self
            .layers
            .output(&[acc.side(0, h)], self.head(side, pieces));
        if self.side_heads == 1 && side == Side::First {
            -y
        } else {
            y
        }
    }

    /// The evaluation of `pos`, whose accumulator is `acc`, centipawns from the side to move's
    /// view.
    #[inline]
    pub fn evaluate<B: Bitboard>(&self, acc: &Accumulator, pos: &Position<B>) -> i32 {
        self.evaluate_acc(acc, pos.side, pos.occupied().popcount())
    }

    /// The evaluation of `pos` from scratch, centipawns from the side to move's view.
    pub fn evaluate_position<B: Bitboard>(&self, pos: &Position<B>) -> i32 {
        let mut acc = Accumulator::default();
        self.refresh(&mut acc, pos);
        self.evaluate(&acc, pos)
    }

    /// The evaluation of a board given by its active `features` (module docs; they must be
    /// this network's inputs), `side` to move, `pieces` pieces, centipawns from the side to
    /// move's view: for a trainer, whose positions are not [`Position`]s.
    pub fn evaluate_features(
        &self,
        features: impl IntoIterator<Item = usize>,
        side: Side,
        pieces: u32,
    ) -> i32 {
        let mut acc = Accumulator::default();
        let h = self.layers.hidden();
        self.layers.refresh(acc.side_mut(0, h), features);
        self.evaluate_acc(&acc, side, pieces)
    }

    /// The header of its file.
    fn header(&self) -> Header {
        Header {
            family: FAMILY_TAFL,
            board: self.board as u16,
            feature_set: self.features.id(),
            inputs: self.layers.inputs() as u16,
            hidden: self.layers.hidden() as u16,
            activation: self.layers.activation(),
            perspectives: 1,
            side_heads: self.side_heads as u16,
            buckets: self.buckets as u16,
            bucket_divisor: self.divisor,
            scale: self.layers.scale(),
            variant: self.variant.clone(),
        }
    }

    /// The network as the bytes of its file (format 3, module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = self.header();
        let mut out = header.to_bytes();
        out.reserve(header.file_len() - HEADER_LEN);
        self.layers.write_weights(&mut out);
        out
    }

    /// Reads a network from the bytes of a format-3 file.
    ///
    /// # Errors
    /// A [`FormatError`]: those of [`Header::read`], a file of another family, a board outside
    /// 7 to 13, an unknown feature set, inputs that do not match the board, more than one
    /// perspective. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<TaflNetwork, FormatError> {
        let header = Header::read(bytes)?;
        if header.family != FAMILY_TAFL {
            return Err(FormatError::Family {
                found: header.family,
                expected: FAMILY_TAFL,
            });
        }
        if !(MIN_BOARD as u16..=MAX_BOARD as u16).contains(&header.board) {
            return Err(FormatError::BoardSize(
                header.board,
                "tafl networks for 7x7 to 13x13",
            ));
        }
        let features = FeatureSet::from_id(header.feature_set).ok_or(FormatError::FeatureSet(
            header.feature_set,
            "1 (pieces per square) and 2 (pieces and the king's reach)",
        ))?;
        let board = header.board as u8;
        if header.inputs as usize != features.inputs(board) {
            return Err(FormatError::Inputs {
                found: header.inputs,
                expected: features.inputs(board),
            });
        }
        if header.perspectives != 1 {
            return Err(FormatError::Perspectives(header.perspectives, 1));
        }
        let layers = header.read_layers(bytes)?;
        Ok(TaflNetwork {
            board,
            features,
            variant: header.variant,
            side_heads: header.side_heads as usize,
            buckets: header.buckets as usize,
            divisor: header.bucket_divisor,
            layers,
        })
    }

    /// Reads a network file (at most the longest tafl file's length + 1 bytes are read).
    ///
    /// # Errors
    /// [`FormatError::Io`] if the file cannot be read or is not a regular file, else as
    /// [`TaflNetwork::from_bytes`].
    pub fn load(path: &Path) -> Result<TaflNetwork, FormatError> {
        let bytes = crate::nnue::read_capped(path, max_file_len() + 1).map_err(|source| {
            FormatError::Io {
                path: path.display().to_string(),
                source,
            }
        })?;
        TaflNetwork::from_bytes(&bytes)
    }

    /// Checks that the network evaluates boards of side `size`.
    ///
    /// # Errors
    /// [`FormatError::Board`] naming both sizes and the network's variant.
    pub fn check_board(&self, size: u8) -> Result<(), FormatError> {
        if size == self.board {
            Ok(())
        } else {
            Err(FormatError::Board {
                found: self.board as u16,
                expected: size as u16,
                variant: self.variant.clone(),
            })
        }
    }
}

/// The networks built into the binary: per variant (its protocol name), the file under `nets/`
/// and its bytes. A variant gets one only when it has won its SPRT against the hand evaluation,
/// and a new generation only when it has won its SPRT against the one built in
/// (docs/training.md); building another in is a line here, the preset's
/// [`crate::tafl::RuleOptions::network`] (`COPENHAGEN_NETWORK`) and the bench signature.
static EMBEDDED_FILES: &[(&str, &str, &[u8])] = &[(
    "copenhagen",
    crate::tafl::rules::COPENHAGEN_NETWORK,
    include_bytes!("../../../nets/copenhagen-r128-g3-ft.nnue"),
)];

/// [`EMBEDDED_FILES`] read, once.
static EMBEDDED: std::sync::LazyLock<Vec<(&'static str, &'static str, Arc<TaflNetwork>)>> =
    std::sync::LazyLock::new(|| {
        EMBEDDED_FILES
            .iter()
            .map(|&(variant, file, bytes)| {
                let net = TaflNetwork::from_bytes(bytes)
                    .expect("a built-in network is a valid file (a test checks)");
                (variant, file, Arc::new(net))
            })
            .collect()
    });

/// The network built in for the variant named `variant` (a protocol name) and its file name
/// under `nets/`, if there is one: Copenhagen 11×11's `copenhagen-r128-g3-ft.nnue`. For listing
/// and tests; the evaluation picks a network by the rules' data ([`embedded_file`]).
pub fn embedded(variant: &str) -> Option<(&'static str, Arc<TaflNetwork>)> {
    EMBEDDED
        .iter()
        .find(|(v, _, _)| *v == variant)
        .map(|(_, file, net)| (*file, Arc::clone(net)))
}

/// The built-in network whose file under `nets/` is `file` ([`crate::tafl::RuleOptions::network`]).
pub fn embedded_file(file: &str) -> Option<Arc<TaflNetwork>> {
    EMBEDDED
        .iter()
        .find(|(_, f, _)| *f == file)
        .map(|(_, _, net)| Arc::clone(net))
}

/// The longest tafl network file: 13×13, 1024 hidden, 16 heads.
const fn max_file_len() -> usize {
    HEADER_LEN + Layers::weights_len(FeatureSet::KingReach.inputs(MAX_BOARD), 1024, 1, 16)
}

/// Tafl's network reader for the engine option `EvalFile` ([`crate::eval::NetworkLoader`]): a
/// format-3 tafl network, held opaque for [`crate::eval::EvalChoice`].
///
/// # Errors
/// As [`TaflNetwork::load`] (the message is the [`FormatError`]'s).
pub fn load_network(path: &Path) -> Result<crate::eval::AnyNetwork, crate::eval::NetworkLoadError> {
    Ok(Arc::new(TaflNetwork::load(path)?))
}

/// Whether `bytes` (the start of a file) are a tafl network's.
pub fn is_tafl_file(bytes: &[u8]) -> bool {
    file_family(bytes) == Some(FAMILY_TAFL)
}

#[cfg(test)]
pub(crate) mod tests;
