//! Static evaluation of tafl positions, in centipawns, as named terms.
//!
//! The evaluation is linear: each *feature* is a count measured on the board from the defenders'
//! point of view (positive when it favours the defenders), each has a weight in centipawns per
//! unit ([`EvalWeights`]), and each belongs to one named *term* (several features may share a
//! term, e.g. the two armies' sizes make `material`). The sum is negated when the attackers are
//! to move, so it is the side to move's view ([`crate::game::Game::evaluate`]). Being linear, the
//! weights can be fitted to game results (Texel tuning, `examples/texel.rs`).
//!
//! The weights are data: [`EvalWeights::DEFAULT`], and per-variant sets chosen by the rules'
//! name ([`EvalWeights::for_variant`]) when tuning showed that a board wants other values.

use super::bitboard::Bitboard;
use super::position::{ATTACKER_VALUE, DEFENDER_VALUE, KING_VALUE, Position};
use super::rules::Piece;
use crate::game::Side;

/// The named terms, in the order [`Position::terms`] reports them; `balance` is last.
pub const TERM_NAMES: [&str; TERM_COUNT] = [
    "material",
    "king_distance",
    "king_open_lines",
    "king_routes",
    "king_surrounded",
    "escape_guards",
    "mobility",
    "decided",
    "balance",
];

/// Number of evaluation terms.
pub const TERM_COUNT: usize = 9;

const MATERIAL: usize = 0;
const KING_DISTANCE: usize = 1;
const KING_OPEN_LINES: usize = 2;
const KING_ROUTES: usize = 3;
const KING_SURROUNDED: usize = 4;
const ESCAPE_GUARDS: usize = 5;
const MOBILITY: usize = 6;
const DECIDED: usize = 7;
const BALANCE: usize = 8;

/// Declares the features: [`EvalWeights`] (one named weight each), [`EvalFeatures`] (one count
/// each), their order, names and terms, from one list so that they cannot disagree.
macro_rules! features {
    ($( $(#[$doc:meta])* $field:ident [$term:ident] = $default:expr, )*) => {
        /// The weights of the tafl evaluation's features, in centipawns per unit of the feature
        /// (the unit is said on each field). A positive weight favours the defenders for a
        /// feature counted for them and the attackers for one counted against the defenders.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct EvalWeights {
            $( $(#[$doc])* pub $field: i32, )*
        }

        /// The feature counts of one position, from the defenders' view, field by field the
        /// units of [`EvalWeights`] (the value of a feature is its weight × its count).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct EvalFeatures {
            $( #[allow(missing_docs)] pub $field: i32, )*
        }

        /// Number of features (fields of [`EvalWeights`]).
        pub const FEATURE_COUNT: usize = [$(stringify!($field)),*].len();

        /// The features' names (the fields of [`EvalWeights`]), in order.
        pub const FEATURE_NAMES: [&str; FEATURE_COUNT] = [$(stringify!($field)),*];

        /// Per feature, the index in [`TERM_NAMES`] of the term it belongs to.
        pub const FEATURE_TERMS: [usize; FEATURE_COUNT] = [$($term),*];

        impl EvalWeights {
            /// The hand-set weights (the evaluation before any tuning); the variants without a
            /// set of their own use them.
            pub const DEFAULT: EvalWeights = EvalWeights { $( $field: $default, )* };

            /// The weights in [`FEATURE_NAMES`] order.
            pub const fn to_array(&self) -> [i32; FEATURE_COUNT] {
                [$(self.$field),*]
            }

            /// Weights from an array in [`FEATURE_NAMES`] order.
            pub const fn from_array(a: [i32; FEATURE_COUNT]) -> Self {
                let [$($field),*] = a;
                EvalWeights { $($field),* }
            }
        }

        impl EvalFeatures {
            /// The counts in [`FEATURE_NAMES`] order.
            pub const fn to_array(&self) -> [i32; FEATURE_COUNT] {
                [$(self.$field),*]
            }
        }
    };
}

features! {
    /// Per defender soldier on the board (`material`).
    defender [MATERIAL] = DEFENDER_VALUE,
    /// Per attacker soldier on the board, counted against the defenders (`material`).
    attacker [MATERIAL] = ATTACKER_VALUE,
    /// Per step of Manhattan distance from the king to the nearest escape square, counted
    /// against the defenders (`king_distance`).
    king_distance [KING_DISTANCE] = 12,
    /// The king reaches an escape square in one move and the defenders are to move: he wins next
    /// (`king_open_lines`; 0 or 1).
    open_line_win [KING_OPEN_LINES] = 5_000,
    /// Two or more escape squares reachable with the attackers to move: they can block only one
    /// line (`king_open_lines`; 0 or 1).
    open_lines_double [KING_OPEN_LINES] = 2_500,
    /// One escape square reachable with the attackers to move: they must spend their move
    /// blocking (`king_open_lines`; 0 or 1).
    open_line_single [KING_OPEN_LINES] = 150,
    /// Per square the king reaches in one move from which an escape square is open (a threat to
    /// make an escape threat; `king_routes`).
    route [KING_ROUTES] = 30,
    /// Per square the king reaches in one move from which two or more escape squares are open (a
    /// fork: one attacker move cannot block both), with the defenders to move (`king_routes`).
    fork_to_move [KING_ROUTES] = 400,
    /// The same with the attackers to move: they can still pre-empt it (`king_routes`).
    fork_waiting [KING_ROUTES] = 120,
    /// Per side of the king held by an attacker or a square hostile to him, counted against the
    /// defenders (`king_surrounded`).
    king_surrounded [KING_SURROUNDED] = 45,
    /// Per attacker on a square orthogonally next to an escape square (guarding the approach),
    /// counted against the defenders (`escape_guards`).
    escape_guard [ESCAPE_GUARDS] = 15,
    /// Per empty square next to a defender or the king, minus those next to an attacker (a cheap
    /// mobility measure; `mobility`).
    mobility [MOBILITY] = 2,
    /// The king has escaped (+1) or has been captured (−1): the game is over (`decided`; not
    /// tuned).
    decided [DECIDED] = KING_VALUE,
}

impl EvalWeights {
    /// The weights for the rules named `name` (a variant's protocol name): a tuned set where
    /// there is one, else [`EvalWeights::DEFAULT`].
    pub fn for_variant(name: &str) -> &'static EvalWeights {
        VARIANT_WEIGHTS
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&EvalWeights::DEFAULT, |(_, w)| w)
    }
}

/// The tuned weight sets, by the rules' name.
static VARIANT_WEIGHTS: &[(&str, EvalWeights)] = &[];

impl<B: Bitboard> Position<B> {
    /// The evaluation terms ([`TERM_NAMES`]), side to move's view, centipawns: each term the sum
    /// of its features' weight × count ([`EvalWeights`], the rules' set), and
    /// - `balance`: minus the sum of the other terms in the start position of these rules, so that
    ///   the start position scores 0. The raw terms favour one side by a constant (the attackers
    ///   by 1–4 pawns at the starts of rules.md's variants), and a draw would then look like a loss
    ///   to one side and a gift to the other; with the balance a draw is worth what the start is.
    pub fn terms(&self) -> [(&'static str, i32); TERM_COUNT] {
        let w = self.rules.eval_weights.to_array();
        let balance = *self.rules.balance.get_or_init(|| {
            let f = Position::start(self.rules).eval_features().to_array();
            (0..FEATURE_COUNT).map(|i| w[i] * f[i]).sum::<i32>()
        });
        let f = self.eval_features().to_array();
        let mut values = [0; TERM_COUNT];
        for i in 0..FEATURE_COUNT {
            values[FEATURE_TERMS[i]] += w[i] * f[i];
        }
        values[BALANCE] = -balance;
        let sign = if self.side == Side::Second { 1 } else { -1 };
        let mut terms = [("", 0); TERM_COUNT];
        for t in 0..TERM_COUNT {
            terms[t] = (TERM_NAMES[t], sign * values[t]);
        }
        terms
    }

    /// The feature counts of this position from the defenders' view (see [`EvalWeights`]),
    /// without the start position's balance.
    pub fn eval_features(&self) -> EvalFeatures {
        let r = self.rules;
        let occ = self.occupied();
        let empty = r.board & !occ;
        let mut f = EvalFeatures {
            defender: self.defenders.popcount() as i32,
            attacker: -(self.attackers.popcount() as i32),
            ..EvalFeatures::default()
        };
        if self.king.is_empty() {
            f.decided = -1;
        } else if !(self.king & r.escape).is_empty() {
            f.decided = 1;
        } else {
            let k = self.king.lsb();
            f.king_distance = -(r.escape_distance(k) as i32);
            let lines = (self.targets(k, Piece::King) & r.escape).popcount();
            match (lines, self.side) {
                (0, _) => {}
                (_, Side::Second) => f.open_line_win = 1,
                (1, Side::First) => f.open_line_single = 1,
                (_, Side::First) => f.open_lines_double = 1,
            }
            let k_targets = self.targets(k, Piece::King) & !r.escape;
            if !k_targets.is_empty() {
                let without_king = occ & !self.king;
                let blockers = without_king | r.no_pass[Piece::King.index()];
                let free = r.escape & !(without_king | r.no_stop[Piece::King.index()]);
                let mut forks = 0;
                for s in k_targets.squares() {
                    match (r.slides(s, blockers) & free).popcount() {
                        0 => {}
                        1 => f.route += 1,
                        _ => {
                            f.route += 1;
                            forks += 1;
                        }
                    }
                }
                if self.side == Side::Second {
                    f.fork_to_move = forks;
                } else {
                    f.fork_waiting = forks;
                }
            }
            let walls = self.attackers | r.hostile_to(Piece::King, occ);
            f.king_surrounded = -((r.adjacent[k as usize] & walls).popcount() as i32);
        }
        f.escape_guard = -((self.attackers & r.approach).popcount() as i32);
        f.mobility = (r.neighbours(self.defenders | self.king) & empty).popcount() as i32
            - (r.neighbours(self.attackers) & empty).popcount() as i32;
        f
    }

    /// The sum of [`Position::terms`].
    pub fn eval_total(&self) -> i32 {
        self.terms().iter().map(|t| t.1).sum()
    }
}
