//! The networks the trainer makes ([`Spec`]: family, architecture, sizes), how a position
//! becomes their sparse inputs under a board symmetry ([`TrainPos`]), and their quantised files
//! ([`Quantised`]).

use clap::ValueEnum;
use skald::ataxx::Bitboard;
use skald::ataxx::Position;
use skald::ataxx::nnue::{self, Activation, NUM_FEATURES, NUM_PATTERN_FEATURES};
use skald::game::{Game, Side};
use skald::tafl::nnue::{self as tnnue, FeatureSet, TaflNetwork};
use skald::variant::Variant;

use crate::data::{TaflInputs, TaflPos};

/// The network to train (`--arch`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Arch {
    /// Ataxx: square inputs, file format 1.
    V1,
    /// Ataxx: 2×2 window patterns and blocked squares, file format 2.
    Patterns,
    /// Tafl: attackers, defenders and king per square, file format 3.
    Pieces,
}

/// The hidden layer's activation (`--activation`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Act {
    /// Clipped ReLU, `clamp(a, 0, 1)`.
    Crelu,
    /// Squared clipped ReLU, `clamp(a, 0, 1)²`.
    Screlu,
}

impl Act {
    /// The engine's activation.
    pub fn nnue(self) -> Activation {
        match self {
            Act::Crelu => Activation::CReLU,
            Act::Screlu => Activation::SCReLU,
        }
    }
}

/// What a tafl network is trained for.
#[derive(Clone, Debug)]
pub struct TaflSpec {
    /// The variant (a tafl preset).
    pub variant: Variant,
    /// Squares along a side of its board.
    pub size: u8,
    /// Pieces in its start position (the bucket divisor and the bound of active features).
    pub pieces: u32,
    /// The board symmetries its rules have, as square permutations (the identity first).
    pub perms: Vec<Vec<u16>>,
    /// The network's inputs.
    pub features: FeatureSet,
}

impl TaflSpec {
    /// The facts of a tafl preset: its board, start position and symmetries
    /// ([`tnnue::rules_symmetries`]).
    pub fn of(variant: Variant, features: FeatureSet) -> Option<TaflSpec> {
        fn facts<B: skald::tafl::Bitboard>(
            variant: Variant,
            start: skald::tafl::Position<B>,
            features: FeatureSet,
        ) -> TaflSpec {
            let size = start.rules().size;
            let all = tnnue::symmetries(size);
            TaflSpec {
                variant,
                size,
                pieces: start.occupied().popcount(),
                perms: tnnue::rules_symmetries(start.rules())
                    .into_iter()
                    .map(|s| all[s].clone())
                    .collect(),
                features,
            }
        }
        use skald::tafl as t;
        Some(match variant {
            Variant::Brandubh => facts(variant, t::brandubh(), features),
            Variant::Tablut => facts(variant, t::tablut(), features),
            Variant::Tawlbwrdd => facts(variant, t::tawlbwrdd(), features),
            Variant::Copenhagen => facts(variant, t::copenhagen(), features),
            Variant::Copenhagen13 => facts(variant, t::copenhagen13(), features),
            Variant::Ashton => facts(variant, t::ashton(), features),
            Variant::Ataxx => return None,
        })
    }
}

/// The network being trained.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The architecture.
    pub arch: Arch,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// The activation.
    pub activation: Act,
    /// Output buckets (per side-to-move head).
    pub buckets: usize,
    /// Side-to-move heads (tafl: 1 or 2; Ataxx: 1).
    pub side_heads: usize,
    /// `K`: centipawns per unit of logit, the file's scale.
    pub k: i32,
    /// For a tafl network, its variant's facts.
    pub tafl: Option<TaflSpec>,
}

/// The 8 symmetries of the 7×7 Ataxx board as square permutations, `[s][sq]` the image of
/// square `sq = rank * 7 + file`. Ataxx's rules (clone to a neighbour, jump to distance 2,
/// blocked squares part of the position) are the same under all of them.
pub fn ataxx_symmetries() -> [[usize; 49]; 8] {
    let mut out = [[0; 49]; 8];
    for (s, perm) in out.iter_mut().enumerate() {
        for (sq, image) in perm.iter_mut().enumerate() {
            let (mut r, mut f) = (sq / 7, sq % 7);
            if s & 1 != 0 {
                f = 6 - f;
            }
            if s & 2 != 0 {
                r = 6 - r;
            }
            if s & 4 != 0 {
                (r, f) = (f, r);
            }
            *image = r * 7 + f;
        }
    }
    out
}

/// [`ataxx_symmetries`], computed once.
pub static ATAXX_SYMS: std::sync::LazyLock<[[usize; 49]; 8]> =
    std::sync::LazyLock::new(ataxx_symmetries);

/// The image of Ataxx bitboard `bb` under the square permutation `perm`.
pub fn permute(bb: Bitboard, perm: &[usize; 49]) -> Bitboard {
    let mut out = 0;
    let mut rest = bb;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << perm[sq];
    }
    out
}

impl Spec {
    /// What reading tafl files needs of this network; `None` for an Ataxx network.
    pub fn tafl_inputs(&self) -> Option<TaflInputs> {
        self.tafl.as_ref().map(|t| TaflInputs {
            variant: t.variant,
            king_reach: t.features == FeatureSet::KingReach,
            defenders_view: self.side_heads == 1,
        })
    }

    /// Rows of `W1`.
    pub fn inputs(&self) -> usize {
        match self.arch {
            Arch::V1 => NUM_FEATURES,
            Arch::Patterns => NUM_PATTERN_FEATURES,
            Arch::Pieces => {
                let tafl = self.tafl.as_ref().expect("tafl");
                tafl.features.inputs(tafl.size)
            }
        }
    }

    /// Perspectives (accumulators): 2 for Ataxx (the side to move's, the other's), 1 for tafl.
    pub fn perspectives(&self) -> usize {
        match self.arch {
            Arch::Pieces => 1,
            _ => 2,
        }
    }

    /// Output heads.
    pub fn heads(&self) -> usize {
        self.side_heads * self.buckets
    }

    /// Symmetries a position may be shown in.
    pub fn symmetries(&self) -> usize {
        match &self.tafl {
            Some(t) => t.perms.len(),
            None => 8,
        }
    }

    /// The float bound of the first layer's weights and biases: the quantised accumulator (bias
    /// and every active feature's row) must fit `i16` (see the nnue module docs).
    pub fn first_layer_clip(&self) -> f32 {
        match self.arch {
            // round(1.98 × 255) = 505; 50 × 505 = 25 250 < 32 767.
            Arch::V1 => 1.98,
            // round(1.49 × 255) = 380; 86 × 380 = 32 680 < 32 767.
            Arch::Patterns => 1.49,
            // One row per active feature (a piece, a square of the king's reach) and the bias.
            Arch::Pieces => {
                let tafl = self.tafl.as_ref().expect("tafl");
                let rows = tafl.features.most_active(tafl.size, tafl.pieces) as f32 + 1.0;
                (32_767.0 / (255.0 * rows) - 0.005).min(1.98)
            }
        }
    }
}

/// What the trainer needs of a position type.
pub trait TrainPos: Copy + Send + Sync + 'static {
    /// The deduplication key: equal for positions the network cannot tell apart, up to the
    /// board's symmetries.
    type Key: std::hash::Hash + Eq + Send;

    /// The key (the least image over the spec's symmetries).
    fn key(&self, spec: &Spec) -> Self::Key;

    /// Appends the active features of the position's image under symmetry `sym` (an index
    /// below [`Spec::symmetries`]) to `out`, one list per perspective; returns its output head.
    fn encode(&self, spec: &Spec, sym: usize, out: &mut [Vec<u32>; 2]) -> u32;

    /// `−1` when the network's output is the other side's view than the side to move's (a tafl
    /// network with one side-to-move head and the attackers to move), else `1`.
    fn view_sign(&self, spec: &Spec) -> f32;

    /// The quantised network's evaluation, centipawns from the side to move's view.
    fn quantised_eval(&self, net: &Quantised) -> i32;

    /// The position for messages.
    fn describe(&self) -> String;
}

impl TrainPos for Position {
    type Key = [Bitboard; 3];

    fn key(&self, _spec: &Spec) -> [Bitboard; 3] {
        let side = self.side_to_move();
        let (own, their, blocked) = (
            self.stones(side),
            self.stones(side.opponent()),
            self.blocked(),
        );
        ATAXX_SYMS
            .iter()
            .map(|p| [permute(own, p), permute(their, p), permute(blocked, p)])
            .min()
            .expect("8 symmetries")
    }

    fn encode(&self, spec: &Spec, sym: usize, out: &mut [Vec<u32>; 2]) -> u32 {
        let perm = &ATAXX_SYMS[sym];
        let side = self.side_to_move();
        match spec.arch {
            Arch::V1 => {
                let image = |f: usize| ((f / 49) * 49 + perm[f % 49]) as u32;
                out[0].extend(nnue::features(self, side).map(image));
                out[1].extend(nnue::features(self, side.opponent()).map(image));
                0
            }
            _ => {
                let own = permute(self.stones(side), perm);
                let their = permute(self.stones(side.opponent()), perm);
                let block = permute(self.blocked(), perm);
                out[0].extend(nnue::pattern_features(own, their, block).map(|f| f as u32));
                out[1].extend(nnue::pattern_features(their, own, block).map(|f| f as u32));
                nnue::output_bucket((own | their).count_ones(), spec.buckets) as u32
            }
        }
    }

    fn view_sign(&self, _spec: &Spec) -> f32 {
        1.0
    }

    fn quantised_eval(&self, net: &Quantised) -> i32 {
        match net {
            Quantised::V1(n) => n.evaluate_position(self),
            Quantised::Patterns(n) => n.evaluate_position(self),
            Quantised::Tafl(_) => unreachable!("an Ataxx position"),
        }
    }

    fn describe(&self) -> String {
        self.fen()
    }
}

impl TrainPos for TaflPos {
    type Key = (TaflBoard, bool);

    fn key(&self, spec: &Spec) -> (TaflBoard, bool) {
        let tafl = spec.tafl.as_ref().expect("tafl");
        let board = tafl
            .perms
            .iter()
            .map(|p| self.board.permuted(p))
            .min()
            .expect("the identity");
        (board, self.side == Side::Second)
    }

    fn encode(&self, spec: &Spec, sym: usize, out: &mut [Vec<u32>; 2]) -> u32 {
        let tafl = spec.tafl.as_ref().expect("tafl");
        let perm = &tafl.perms[sym];
        let size = tafl.size;
        for k in 0..3 {
            out[0].extend(
                self.board
                    .squares(k)
                    .map(|sq| tnnue::feature(k, perm[sq as usize], size) as u32),
            );
        }
        if tafl.features == FeatureSet::KingReach {
            out[0].extend(
                self.reach_squares()
                    .map(|sq| tnnue::feature(3, perm[sq as usize], size) as u32),
            );
        }
        let bucket = match spec.buckets {
            1 => 0,
            b => tnnue::output_bucket(self.board.piece_count(), b, tafl.pieces as u16),
        };
        (if spec.side_heads == 2 {
            self.side.index() * spec.buckets + bucket
        } else {
            bucket
        }) as u32
    }

    fn view_sign(&self, spec: &Spec) -> f32 {
        if spec
            .tafl_inputs()
            .is_some_and(|inputs| inputs.flips(self.side))
        {
            -1.0
        } else {
            1.0
        }
    }

    fn quantised_eval(&self, net: &Quantised) -> i32 {
        let Quantised::Tafl(n) = net else {
            unreachable!("a tafl position")
        };
        let size = n.board();
        let reach = (n.feature_set() == FeatureSet::KingReach).then(|| {
            self.reach_squares()
                .map(move |sq| tnnue::feature(3, sq, size))
        });
        let features = (0..3)
            .flat_map(|k| {
                self.board
                    .squares(k)
                    .map(move |sq| tnnue::feature(k, sq, size))
            })
            .chain(reach.into_iter().flatten());
        n.evaluate_features(features, self.side, self.board.piece_count())
    }

    fn describe(&self) -> String {
        let side = if self.side == Side::First { 'a' } else { 'd' };
        format!("{} {side}", self.board.placement())
    }
}

use skald::tafl::packed::TaflBoard;

/// The quantised network of any architecture.
pub enum Quantised {
    /// Ataxx, file format 1.
    V1(Box<nnue::Network>),
    /// Ataxx, file format 2.
    Patterns(nnue::PatternNetwork),
    /// Tafl, file format 3.
    Tafl(TaflNetwork),
}

impl Quantised {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Quantised::V1(n) => n.to_bytes(),
            Quantised::Patterns(n) => n.to_bytes(),
            Quantised::Tafl(n) => n.to_bytes(),
        }
    }
}
