//! Static evaluation of tafl positions, in centipawns, as named terms.
//!
//! The evaluation is linear: each *feature* is a count measured on the board from the defenders'
//! point of view (positive when it favours the defenders), each has a weight in centipawns per
//! unit ([`EvalWeights`]), and each belongs to one named *term* (several features may share a
//! term, e.g. the two armies' sizes make `material`). The sum is negated when the attackers are
//! to move, so it is the side to move's view ([`crate::game::Game::evaluate`]). Being linear, the
//! weights can be fitted to game results (Texel tuning, `examples/texel.rs`).
//!
//! The weights are data: [`EvalWeights::DEFAULT`], and the tuned sets of the variants where
//! tuning showed that a board wants other values ([`EvalWeights::BRANDUBH`],
//! [`EvalWeights::TABLUT`], [`EvalWeights::ASHTON`]). The rules say which set they use
//! ([`super::RuleOptions::eval_weights`]: the presets theirs, rules strings the hand-set
//! weights; [`EvalWeights::of`]), so no name picks it.

use super::bitboard::Bitboard;
use super::position::{ATTACKER_VALUE, DEFENDER_VALUE, KING_VALUE, Position};
use super::rules::{Piece, WeightSet};
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
    "corner_guards",
    "cordon",
    "king_freedom",
    "king_company",
    "en_prise",
    "balance",
];

/// Number of evaluation terms.
pub const TERM_COUNT: usize = 14;

const MATERIAL: usize = 0;
const KING_DISTANCE: usize = 1;
const KING_OPEN_LINES: usize = 2;
const KING_ROUTES: usize = 3;
const KING_SURROUNDED: usize = 4;
const ESCAPE_GUARDS: usize = 5;
const MOBILITY: usize = 6;
const DECIDED: usize = 7;
const CORNER_GUARDS: usize = 8;
const CORDON: usize = 9;
const KING_FREEDOM: usize = 10;
const KING_COMPANY: usize = 11;
const EN_PRISE: usize = 12;
const BALANCE: usize = 13;

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
    /// Per attacker diagonally next to an escape square (`b2` next to the corner `a1`; the
    /// corner-escape variants), counted against the defenders (`corner_guards`).
    guard_diagonal [CORNER_GUARDS] = 0,
    /// Per attacker two steps (Manhattan) from the nearest escape square, not diagonally next to
    /// one (`a3`, `c1` for `a1`; the second ring with edge escape), counted against the defenders
    /// (`corner_guards`).
    guard_ring [CORNER_GUARDS] = 0,
    /// Per pair of diagonally adjacent attackers (a link of a cordon no piece passes), counted
    /// against the defenders (`cordon`).
    cordon_diagonal [CORDON] = 0,
    /// Per pair of orthogonally adjacent attackers (a wall), counted against the defenders
    /// (`cordon`).
    cordon_orthogonal [CORDON] = 0,
    /// Per square the king can move to, escape squares aside (`king_freedom`).
    king_freedom [KING_FREEDOM] = 0,
    /// Per defender soldier orthogonally next to the king (`king_company`).
    king_company [KING_COMPANY] = 0,
    /// Per enemy soldier the side to move can capture with one move (an enemy on one side of it,
    /// its other side empty and reached by one of the side to move's pieces), counted for the
    /// side to move (`en_prise`).
    threat_to_move [EN_PRISE] = 0,
    /// Per soldier of the side to move that the other side could capture so, counted against the
    /// side to move (`en_prise`).
    threat_waiting [EN_PRISE] = 0,
}

/// The tuned weight sets: Texel-tuned (`examples/texel.rs`) on positions of skald's own games,
/// with `decided`, `open_line_win` and `open_lines_double` kept and `attacker` anchoring the
/// scale (100). How each was fitted and measured: docs/tuning.md ("Tuning the tafl
/// evaluation", "Ashton Tablut").
impl EvalWeights {
    /// The weights of `set`.
    pub const fn of(set: WeightSet) -> &'static EvalWeights {
        match set {
            WeightSet::Hand => &EvalWeights::DEFAULT,
            WeightSet::Brandubh => &EvalWeights::BRANDUBH,
            WeightSet::Tablut => &EvalWeights::TABLUT,
            WeightSet::Ashton => &EvalWeights::ASHTON,
        }
    }

    /// Brandubh's set (three rounds of Texel tuning).
    pub const BRANDUBH: EvalWeights = EvalWeights {
        defender: 72,
        attacker: 100,
        king_distance: -16,
        open_line_win: 5000,
        open_lines_double: 2500,
        open_line_single: 39,
        route: 11,
        fork_to_move: 10,
        fork_waiting: 25,
        king_surrounded: -3,
        escape_guard: -31,
        mobility: 5,
        decided: KING_VALUE,
        guard_diagonal: -17,
        guard_ring: -19,
        cordon_diagonal: 2,
        cordon_orthogonal: -9,
        king_freedom: 2,
        king_company: 0,
        threat_to_move: 40,
        threat_waiting: 16,
    };

    /// Tablut's set.
    pub const TABLUT: EvalWeights = EvalWeights {
        defender: 131,
        attacker: 100,
        king_distance: -72,
        open_line_win: 5000,
        open_lines_double: 2500,
        open_line_single: 22,
        route: 18,
        fork_to_move: 125,
        fork_waiting: 20,
        king_surrounded: 0,
        escape_guard: -1,
        mobility: 14,
        decided: KING_VALUE,
        guard_diagonal: 0,
        guard_ring: 12,
        cordon_diagonal: 37,
        cordon_orthogonal: 16,
        king_freedom: -10,
        king_company: -22,
        threat_to_move: 54,
        threat_waiting: 31,
    };

    /// Ashton Tablut's set.
    pub const ASHTON: EvalWeights = EvalWeights {
        defender: 145,
        attacker: 100,
        king_distance: -2,
        open_line_win: 5000,
        open_lines_double: 2500,
        open_line_single: 83,
        route: 21,
        fork_to_move: -7,
        fork_waiting: -6,
        king_surrounded: 17,
        escape_guard: 9,
        mobility: 4,
        decided: KING_VALUE,
        guard_diagonal: -1,
        guard_ring: 20,
        cordon_diagonal: 0,
        cordon_orthogonal: 1,
        king_freedom: -10,
        king_company: -22,
        threat_to_move: 46,
        threat_waiting: 17,
    };
}

impl<B: Bitboard> Position<B> {
    /// The evaluation terms ([`TERM_NAMES`]), side to move's view, centipawns: each term the sum
    /// of its features' weight × count ([`EvalWeights`], the rules' set), and
    /// - `balance`: minus the sum of the other terms in the start position of these rules, so that
    ///   the start position scores 0. The raw terms favour one side by a constant (the attackers
    ///   by 1–4 pawns at the starts of rules.md's variants), and a draw would then look like a loss
    ///   to one side and a gift to the other; with the balance a draw is worth what the start is.
    pub fn terms(&self) -> [(&'static str, i32); TERM_COUNT] {
        let w = EvalWeights::of(self.rules.options.eval_weights).to_array();
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
            f.king_freedom = k_targets.popcount() as i32;
            f.king_company = (r.adjacent[k as usize] & self.defenders).popcount() as i32;
            let walls = self.attackers | r.hostile_to(Piece::King, occ);
            f.king_surrounded = -((r.adjacent[k as usize] & walls).popcount() as i32);
        }
        f.escape_guard = -((self.attackers & r.approach).popcount() as i32);
        f.guard_diagonal = -((self.attackers & r.guard_diagonal).popcount() as i32);
        f.guard_ring = -((self.attackers & r.guard_ring).popcount() as i32);
        let w = r.size as u32;
        let a = self.attackers;
        let east = a & r.not_file_last;
        let west = a & r.not_file_first;
        f.cordon_diagonal = -(((east << (w + 1)) & a).popcount() as i32
            + ((west << (w - 1)) & a).popcount() as i32);
        f.cordon_orthogonal =
            -(((east << 1) & a).popcount() as i32 + ((a << w) & a).popcount() as i32);
        let (attacker_prey, defender_prey) = self.en_prise(occ, empty);
        if self.side == Side::Second {
            f.threat_to_move = attacker_prey;
            f.threat_waiting = -defender_prey;
        } else {
            f.threat_to_move = -defender_prey;
            f.threat_waiting = attacker_prey;
        }
        f.mobility = (r.neighbours(self.defenders | self.king) & empty).popcount() as i32
            - (r.neighbours(self.attackers) & empty).popcount() as i32;
        f
    }

    /// The soldiers each side could capture with one move: (attackers the defenders can take,
    /// defenders the attackers can take). A soldier counts when one neighbour is an enemy piece
    /// (or a square hostile to it) and the opposite neighbour is empty and reached by an enemy
    /// piece in one move; approximate (a capture by the anvil's own piece moving away, special
    /// capture rules and the king are not considered).
    fn en_prise(&self, occ: B, empty: B) -> (i32, i32) {
        let r = self.rules;
        let reach = |pieces: B, kind: Piece| {
            let k = kind.index();
            let blockers = occ | r.no_pass[k];
            let mut m = B::ZERO;
            for s in pieces.squares() {
                m |= r.moves(s, k, blockers);
            }
            m & !r.no_stop[k]
        };
        let w = r.size as u32;
        let prey = |victims: B, anvils: B, landing: B| {
            // Victims with an anvil on one side and a landing square on the other, per axis.
            let north = |b: B| (b << w) & r.board;
            let south = |b: B| b >> w;
            let east = |b: B| (b & r.not_file_last) << 1;
            let west = |b: B| (b & r.not_file_first) >> 1;
            let hit = (south(anvils) & north(landing))
                | (north(anvils) & south(landing))
                | (west(anvils) & east(landing))
                | (east(anvils) & west(landing));
            (victims & hit).popcount() as i32
        };
        let mut defender_hammers = reach(self.defenders, Piece::Defender);
        let mut defender_anvils = self.defenders | r.hostile_to(Piece::Attacker, occ);
        if r.king_armed.hammer() {
            defender_hammers |= reach(self.king, Piece::King);
        }
        if r.king_armed.anvil() {
            defender_anvils |= self.king;
        }
        let attacker_anvils = self.attackers | r.hostile_to(Piece::Defender, occ);
        let attackers = prey(self.attackers, defender_anvils, defender_hammers & empty);
        let defenders = prey(
            self.defenders,
            attacker_anvils,
            reach(self.attackers, Piece::Attacker) & empty,
        );
        (attackers, defenders)
    }

    /// The sum of [`Position::terms`].
    pub fn eval_total(&self) -> i32 {
        self.terms().iter().map(|t| t.1).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tafl::brandubh_rules;

    /// The features of a brandubh FEN.
    fn features(fen: &str) -> EvalFeatures {
        Position::from_fen(brandubh_rules(), fen)
            .expect("a valid FEN")
            .eval_features()
    }

    #[test]
    fn corner_guards_diagonal_and_ring() {
        // 7 . . . . . . .
        // 6 . . . . . . .
        // 5 . . . . . . .
        // 4 . . . K . . .
        // 3 t . . . . . .    a3: two steps from the corner a1 (guard_ring)
        // 2 . t . . . . .    b2: diagonally next to a1 (guard_diagonal)
        // 1 . . . . . . .
        //   a b c d e f g
        let f = features("7/7/7/3K3/t6/1t5/7 a 0 1");
        assert_eq!(
            (f.guard_diagonal, f.guard_ring, f.escape_guard),
            (-1, -1, 0)
        );
        // An attacker on a2 guards the approach, not the posts.
        let f = features("7/7/7/3K3/7/t6/7 a 0 1");
        assert_eq!((f.guard_diagonal, f.guard_ring, f.escape_guard), (0, 0, -1));
    }

    #[test]
    fn cordon_links() {
        // 7 . . . . . . .
        // 6 . . . t . . .    c5–d6: a diagonal link
        // 5 . . t . . . .
        // 4 . . . K . . .
        // 3 . . . . . . .
        // 2 . . . . t t .    e2–f2: an orthogonal link
        // 1 . . . . . . .
        //   a b c d e f g
        let f = features("7/3t3/2t4/3K3/7/4tt1/7 a 0 1");
        assert_eq!((f.cordon_diagonal, f.cordon_orthogonal), (-1, -1));
        // Pieces on opposite edges of the board are not neighbours (no wrap-around).
        // g5 and a6, g4 and a6: one square apart in bit order.
        for fen in ["7/t6/6t/3K3/7/7/7 a 0 1", "7/t6/7/3K2t/7/7/7 a 0 1"] {
            let f = features(fen);
            assert_eq!((f.cordon_diagonal, f.cordon_orthogonal), (0, 0), "{fen}");
        }
    }

    #[test]
    fn king_freedom_and_company() {
        // 7 . . . . . . .
        // 6 . . . . . . .
        // 5 . . . . . . .
        // 4 . . T K . . .    the king reaches d5–d7, d3–d1, e4–g4 (9 squares);
        // 3 . . . . . . .    one defender beside him
        // 2 . . . . . . .
        // 1 . . . . . . .
        //   a b c d e f g
        let f = features("7/7/7/2TK3/7/7/7 d 0 1");
        assert_eq!((f.king_freedom, f.king_company), (9, 1));
    }

    #[test]
    fn a_soldier_en_prise() {
        // 7 . . . . . . .
        // 6 t T . . . . .    the defender b6 has an attacker on a6 and c6 empty, which the
        // 5 . . . . . . .    attacker c2 reaches: the attackers can capture it next move
        // 4 . . . . . . .
        // 3 . . . . K . .
        // 2 . . t . . . .
        // 1 . . . . . . .
        //   a b c d e f g
        let f = features("7/tT5/7/7/4K2/2t4/7 a 0 1");
        assert_eq!((f.threat_to_move, f.threat_waiting), (-1, 0));
        // With the defenders to move it is their soldier under threat.
        let f = features("7/tT5/7/7/4K2/2t4/7 d 0 1");
        assert_eq!((f.threat_to_move, f.threat_waiting), (0, -1));
        // Block the attacker's way (a defender on c4): no threat.
        let f = features("7/tT5/7/2T4/4K2/2t4/7 a 0 1");
        assert_eq!((f.threat_to_move, f.threat_waiting), (0, 0));
    }

    /// The presets carry their variant's set, whatever the rules are named; untuned variants
    /// and rules strings keep the hand weights.
    #[test]
    fn weights_come_with_the_rules_and_the_start_scores_zero() {
        use crate::tafl::RuleOptions;
        assert_eq!(RuleOptions::tawlbwrdd().eval_weights, WeightSet::Hand);
        assert_eq!(RuleOptions::brandubh().eval_weights, WeightSet::Brandubh);
        assert_eq!(EvalWeights::of(WeightSet::Hand), &EvalWeights::DEFAULT);
        assert_ne!(EvalWeights::BRANDUBH, EvalWeights::DEFAULT);
        let mut renamed = RuleOptions::tawlbwrdd();
        renamed.name = "brandubh".into();
        assert_eq!(renamed.eval_weights, WeightSet::Hand, "no name picks a set");
        let w = EvalWeights::DEFAULT;
        assert_eq!(EvalWeights::from_array(w.to_array()), w);
        assert_eq!(Position::start(brandubh_rules()).eval_total(), 0);
    }
}
