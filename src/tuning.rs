//! The search's tuning values as named data ([`SearchParams`]), read by the game-blind search
//! instead of literals; each variant's set is in its descriptor ([`crate::variant::params`]).
//!
//! Every integer value has a name and a range for tuning: a build with the cargo feature `tune`
//! exposes each as a UCI option `Tune <name>` (see `scripts/spsa.py`), so SPSA can tune them
//! through `skald match`; the tuned values are then written back here (or in the game family's
//! own set) and committed.

/// Tuning values of the search, in plies, centipawns or hundredths as each says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Aspiration windows start at this depth, plies.
    pub aspiration_min_depth: i32,
    /// First half-width of the aspiration window, centipawns; it grows by half on each fail.
    pub aspiration_delta: i32,
    /// Reverse futility pruning is used at all (Ataxx: not; see its family's set).
    pub rfp: bool,
    /// Deepest remaining depth at which reverse futility pruning is tried, plies.
    pub rfp_max_depth: i32,
    /// Reverse futility margin per ply of depth, centipawns.
    pub rfp_margin: i32,
    /// Shallowest depth for null-move pruning, plies.
    pub nmp_min_depth: i32,
    /// Null-move reduction: `nmp_base + depth / nmp_divisor` plies.
    pub nmp_base: i32,
    /// See [`SearchParams::nmp_base`].
    pub nmp_divisor: i32,
    /// Late-move reductions are used at all (Ataxx: not; see its family's set).
    pub lmr: bool,
    /// Shallowest depth for late-move reductions, plies.
    pub lmr_min_depth: i32,
    /// Moves searched in full before reductions start, at PV nodes.
    pub lmr_min_moves_pv: i32,
    /// Moves searched in full before reductions start, elsewhere.
    pub lmr_min_moves: i32,
    /// LMR table: `base + ln(depth) × ln(move number) / divisor`, both in hundredths.
    pub lmr_base: i32,
    /// See [`SearchParams::lmr_base`].
    pub lmr_divisor: i32,
    /// History adjustment of late-move reductions: a move's reduction shrinks by its butterfly
    /// history divided by this (history is within ±16384), grows for negative history; 0 = none.
    pub lmr_history_divisor: i32,
    /// The "improving" flag is used: when the static evaluation is not above the one two plies
    /// earlier (same side to move), late moves are reduced one ply more and the reverse futility
    /// margin is one depth step larger.
    pub improving: bool,
    /// Internal iterative reduction: a node of at least this depth without a TT move is searched
    /// one ply shallower, plies; 0 = none.
    pub iir_min_depth: i32,
    /// Late-move pruning of moves that gain nothing ([`crate::game::Game::move_gain`] ≤ 0, not
    /// the TT move, a killer or the counter-move): skipped after this many moves once one has
    /// not lost; 0 = none. For games where such moves are rare good ones (Ataxx: jumps that
    /// flip nothing).
    pub lmp_no_gain_moves: i32,
    /// Futility pruning: deepest remaining depth at which late moves (not the TT move, a killer
    /// or the counter-move) are skipped when the static evaluation plus
    /// `fp_margin_base + fp_margin × depth` is at most alpha, plies; 0 = none.
    pub fp_max_depth: i32,
    /// Moves searched before futility pruning starts.
    pub fp_min_moves: i32,
    /// See [`SearchParams::fp_max_depth`], centipawns.
    pub fp_margin_base: i32,
    /// See [`SearchParams::fp_max_depth`], centipawns per ply.
    pub fp_margin: i32,
    /// Continuation history: how many earlier plies' moves (0, 1 or 2) index the tables that
    /// order quiet moves with the butterfly history (and adjust their reductions); 0 = none.
    pub cont_history_plies: i32,
    /// 1: the late-move reductions' history adjustment ([`SearchParams::lmr_history_divisor`])
    /// adds the continuation history to the butterfly history; 0: butterfly history alone.
    pub lmr_cont_history: i32,
    /// Singular extensions: shallowest depth at which the TT move is tested for being the only
    /// good move (and extended one ply if so), plies; 0 = none.
    pub se_min_depth: i32,
    /// The TT entry must be at most this much shallower than the node for the test, plies.
    pub se_tt_depth_margin: i32,
    /// The test's bound lies this far below the TT score per ply of depth, centipawns.
    pub se_margin: i32,
    /// Moves the time manager plans for when the clock gives no `movestogo`: the soft limit is
    /// this share of the usable time (plus most of the increment); short games want fewer.
    pub expected_moves: i32,
}

impl SearchParams {
    /// The values skald's search used as literals up to commit cd68cd5 (the tafl family's set).
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_min_depth: 4,
        aspiration_delta: 30,
        rfp: true,
        rfp_max_depth: 6,
        rfp_margin: 90,
        nmp_min_depth: 3,
        nmp_base: 3,
        nmp_divisor: 4,
        lmr: true,
        lmr_min_depth: 3,
        lmr_min_moves_pv: 3,
        lmr_min_moves: 2,
        lmr_base: 50,
        lmr_divisor: 220,
        lmr_history_divisor: 0,
        improving: false,
        iir_min_depth: 0,
        lmp_no_gain_moves: 0,
        fp_max_depth: 0,
        fp_min_moves: 3,
        fp_margin_base: 160,
        fp_margin: 80,
        cont_history_plies: 0,
        lmr_cont_history: 0,
        se_min_depth: 0,
        se_tt_depth_margin: 3,
        se_margin: 2,
        expected_moves: 30,
    };

    /// The tunable values: name, smallest and largest value (for `Tune <name>` options and SPSA).
    pub const TUNABLE: [(&'static str, i32, i32); 25] = [
        ("aspiration_min_depth", 1, 10),
        ("aspiration_delta", 5, 200),
        ("rfp_max_depth", 1, 12),
        ("rfp_margin", 20, 400),
        ("nmp_min_depth", 1, 8),
        ("nmp_base", 1, 6),
        ("nmp_divisor", 1, 12),
        ("lmr_min_depth", 1, 8),
        ("lmr_min_moves_pv", 1, 12),
        ("lmr_min_moves", 1, 12),
        ("lmr_base", -100, 200),
        ("lmr_divisor", 100, 600),
        ("lmr_history_divisor", 0, 65536),
        ("iir_min_depth", 0, 12),
        ("lmp_no_gain_moves", 0, 64),
        ("fp_max_depth", 0, 12),
        ("fp_min_moves", 1, 64),
        ("fp_margin_base", 0, 1000),
        ("fp_margin", 0, 500),
        ("cont_history_plies", 0, 2),
        ("lmr_cont_history", 0, 1),
        ("se_min_depth", 0, 20),
        ("expected_moves", 5, 60),
        ("se_tt_depth_margin", 0, 10),
        ("se_margin", 0, 100),
    ];

    fn slot(&mut self, name: &str) -> Option<&mut i32> {
        Some(match name {
            "aspiration_min_depth" => &mut self.aspiration_min_depth,
            "aspiration_delta" => &mut self.aspiration_delta,
            "rfp_max_depth" => &mut self.rfp_max_depth,
            "rfp_margin" => &mut self.rfp_margin,
            "nmp_min_depth" => &mut self.nmp_min_depth,
            "nmp_base" => &mut self.nmp_base,
            "nmp_divisor" => &mut self.nmp_divisor,
            "lmr_min_depth" => &mut self.lmr_min_depth,
            "lmr_min_moves_pv" => &mut self.lmr_min_moves_pv,
            "lmr_min_moves" => &mut self.lmr_min_moves,
            "lmr_base" => &mut self.lmr_base,
            "lmr_divisor" => &mut self.lmr_divisor,
            "lmr_history_divisor" => &mut self.lmr_history_divisor,
            "iir_min_depth" => &mut self.iir_min_depth,
            "lmp_no_gain_moves" => &mut self.lmp_no_gain_moves,
            "fp_max_depth" => &mut self.fp_max_depth,
            "fp_min_moves" => &mut self.fp_min_moves,
            "fp_margin_base" => &mut self.fp_margin_base,
            "fp_margin" => &mut self.fp_margin,
            "cont_history_plies" => &mut self.cont_history_plies,
            "lmr_cont_history" => &mut self.lmr_cont_history,
            "se_min_depth" => &mut self.se_min_depth,
            "expected_moves" => &mut self.expected_moves,
            "se_tt_depth_margin" => &mut self.se_tt_depth_margin,
            "se_margin" => &mut self.se_margin,
            _ => return None,
        })
    }

    /// The value named `name` (one of [`SearchParams::TUNABLE`]).
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        copy.slot(name).map(|v| *v)
    }

    /// Sets the value named `name`; `false` if there is no such value or `value` is outside its
    /// range (nothing changes then).
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        let in_range = Self::TUNABLE
            .iter()
            .any(|&(n, lo, hi)| n == name && (lo..=hi).contains(&value));
        match self.slot(name) {
            Some(v) if in_range => {
                *v = value;
                true
            }
            _ => false,
        }
    }

    /// The late-move reduction for the `moves`-th move at `depth`, plies (the table's formula).
    pub fn lmr_reduction(&self, depth: usize, moves: usize) -> u8 {
        if depth == 0 || moves == 0 {
            return 0;
        }
        let r = self.lmr_base as f64 / 100.0
            + (depth as f64).ln() * (moves as f64).ln() / (self.lmr_divisor as f64 / 100.0);
        r.clamp(0.0, 64.0) as u8
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_value_has_a_slot_and_its_default_is_in_range() {
        let mut p = SearchParams::DEFAULT;
        for (name, lo, hi) in SearchParams::TUNABLE {
            let v = p.get(name).unwrap_or_else(|| panic!("{name}"));
            assert!((lo..=hi).contains(&v), "{name} = {v}");
            assert!(p.set(name, lo) && p.get(name) == Some(lo));
            assert!(!p.set(name, hi + 1));
        }
        assert!(!p.set("no_such_value", 1));
    }

    #[test]
    fn the_lmr_formula_matches_the_old_table() {
        let p = SearchParams::DEFAULT;
        for d in 1..64usize {
            for i in 1..64usize {
                let old = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.2) as u8;
                assert_eq!(p.lmr_reduction(d, i), old, "{d} {i}");
            }
        }
    }
}
