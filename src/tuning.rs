//! The search's tuning values as named data ([`SearchParams`]), read by the game-blind search
//! instead of literals; each variant's set is in its descriptor ([`crate::variant::params`]).
//!
//! Every value is declared once, in the table at the `search_params!` call below: its doc, type
//! and default, and for a tunable integer its range, for an on/off switch `=> switch`.
//! The table generates the struct, its [`SearchParams::DEFAULT`], the lists of tunable values
//! ([`SearchParams::TUNABLE`]) and of switches ([`SearchParams::SWITCHES`]) and get/set by
//! name. A build with the cargo feature `tune` exposes each tunable value as a UCI spin option
//! `Tune <name>` ([`Tunable::option`]) and each switch as a check option `Tune <name>`
//! ([`Switch::option`]), whose defaults are the values the variant in play uses;
//! `scripts/spsa.py` reads the numbers' names, ranges and defaults from that `uci` output, so
//! SPSA can tune them through `skald match`; the tuned values are then written back here (or in
//! the game family's own set) and committed. The switches are not tuned: each turns a search
//! feature on or off for an SPRT against the build without it.

use std::ops::RangeInclusive;

/// One tunable value of [`SearchParams`]: its name and the range a `Tune` option accepts.
///
/// SPSA's step for it is derived from the range (`scripts/spsa.py`: the perturbation starts at
/// `max(1, (max − min) / 20)`, the learning rate at `(max − min) / 10`), so it is not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The field's name, e.g. `lmr_base`.
    pub name: &'static str,
    /// The UCI option that sets it in a tuning build: `Tune <name>`.
    pub option: &'static str,
    /// The smallest value accepted.
    pub min: i32,
    /// The largest value accepted.
    pub max: i32,
}

/// One on/off switch of [`SearchParams`] (a `bool` field): its name and the `Tune` option (a
/// UCI check option) that sets it in a tuning build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    /// The field's name, e.g. `tt_cutoff_pv`.
    pub name: &'static str,
    /// The UCI option that sets it in a tuning build: `Tune <name>`.
    pub option: &'static str,
}

/// Declares the search's values once (see the module docs): each entry is its doc comment, then
/// `name: type = default;`, `name: i32 = default, tune min..=max;` for a tunable value, or
/// `name: bool = default => switch;` for an on/off switch. Generates [`SearchParams`],
/// [`SearchParams::DEFAULT`], [`SearchParams::TUNABLE`] and [`SearchParams::SWITCHES`] (in the
/// table's order) and the slots behind [`SearchParams::get`], [`SearchParams::set`],
/// [`SearchParams::get_switch`] and [`SearchParams::set_switch`].
macro_rules! search_params {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident: $ty:ty = $default:expr $(, tune $min:literal ..= $max:literal)? $(=> $switch:ident)?;
    )*) => {
        /// Tuning values of the search, in plies, centipawns or hundredths as each says, and
        /// switches that turn search features on or off.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(
                $(#[doc = $doc])*
                pub $name: $ty,
            )*
        }

        impl SearchParams {
            /// The values skald's search used as literals up to commit cd68cd5 (the tafl
            /// family's set).
            pub const DEFAULT: SearchParams = SearchParams {
                $($name: $default,)*
            };

            /// The tunable values: name, `Tune` option and range (for `Tune <name>` options and
            /// SPSA), in the table's order.
            pub const TUNABLE: &'static [Tunable] = &[
                $($(Tunable {
                    name: stringify!($name),
                    option: concat!("Tune ", stringify!($name)),
                    min: $min,
                    max: $max,
                },)?)*
            ];

            /// The on/off switches: name and `Tune` option, in the table's order.
            pub const SWITCHES: &'static [Switch] = &[
                $($(Switch {
                    name: stringify!($name),
                    option: {
                        let _ = stringify!($switch);
                        concat!("Tune ", stringify!($name))
                    },
                },)?)*
            ];

            /// The tunable value named `name` and its range.
            fn slot(&mut self, name: &str) -> Option<(&mut i32, RangeInclusive<i32>)> {
                match name {
                    $($(stringify!($name) => Some((&mut self.$name, $min..=$max)),)?)*
                    _ => None,
                }
            }

            /// The switch named `name`.
            fn switch_slot(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $($(stringify!($name) => { let _ = stringify!($switch); Some(&mut self.$name) })?)*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    /// Aspiration windows start at this depth, plies.
    aspiration_min_depth: i32 = 4, tune 1..=10;
    /// First half-width of the aspiration window, centipawns; it grows by half on each fail.
    aspiration_delta: i32 = 30, tune 5..=200;
    /// Deepest remaining depth at which reverse futility pruning is tried, plies.
    rfp_max_depth: i32 = 6, tune 1..=12;
    /// Reverse futility margin per ply of depth, centipawns.
    rfp_margin: i32 = 90, tune 20..=400;
    /// Shallowest depth for null-move pruning, plies.
    nmp_min_depth: i32 = 3, tune 1..=8;
    /// Null-move reduction: `nmp_base + depth / nmp_divisor` plies.
    nmp_base: i32 = 3, tune 1..=6;
    /// See [`SearchParams::nmp_base`].
    nmp_divisor: i32 = 4, tune 1..=12;
    /// Shallowest depth for late-move reductions, plies.
    lmr_min_depth: i32 = 3, tune 1..=8;
    /// Moves searched in full before reductions start, at PV nodes.
    lmr_min_moves_pv: i32 = 3, tune 1..=12;
    /// Moves searched in full before reductions start, elsewhere.
    lmr_min_moves: i32 = 2, tune 1..=12;
    /// LMR table: `base + ln(depth) × ln(move number) / divisor`, both in hundredths.
    lmr_base: i32 = 50, tune -100..=200;
    /// See [`SearchParams::lmr_base`].
    lmr_divisor: i32 = 220, tune 100..=600;
    /// History adjustment of late-move reductions: a move's reduction shrinks by its butterfly
    /// history divided by this (history is within ±16384), grows for negative history; 0 = none.
    lmr_history_divisor: i32 = 0, tune 0..=65536;
    /// The "improving" flag is used: when the static evaluation is not above the one two plies
    /// earlier (same side to move), late moves are reduced one ply more and the reverse futility
    /// margin is one depth step larger.
    improving: bool = false => switch;
    /// Internal iterative reduction: a node of at least this depth without a TT move is searched
    /// one ply shallower, plies; 0 = none.
    iir_min_depth: i32 = 0, tune 0..=12;
    /// Late-move pruning of moves that gain nothing ([`crate::game::Game::move_gain`] ≤ 0, not
    /// the TT move, a killer or the counter-move): skipped after this many moves once one has
    /// not lost; 0 = none. For games where such moves are rare good ones (Ataxx: jumps that
    /// flip nothing).
    lmp_no_gain_moves: i32 = 0, tune 0..=64;
    /// Futility pruning: deepest remaining depth at which late moves (not the TT move, a killer
    /// or the counter-move) are skipped when the static evaluation plus
    /// `fp_margin_base + fp_margin × depth` is at most alpha, plies; 0 = none.
    fp_max_depth: i32 = 0, tune 0..=12;
    /// Moves searched before futility pruning starts.
    fp_min_moves: i32 = 3, tune 1..=64;
    /// See [`SearchParams::fp_max_depth`], centipawns.
    fp_margin_base: i32 = 160, tune 0..=1000;
    /// See [`SearchParams::fp_max_depth`], centipawns per ply.
    fp_margin: i32 = 80, tune 0..=500;
    /// Continuation history: how many earlier plies' moves (0, 1 or 2) index the tables that
    /// order quiet moves with the butterfly history (and adjust their reductions); 0 = none.
    cont_history_plies: i32 = 0, tune 0..=2;
    /// The late-move reductions' history adjustment ([`SearchParams::lmr_history_divisor`])
    /// adds the continuation history to the butterfly history (off: butterfly history alone).
    lmr_cont_history: bool = false => switch;
    /// Singular extensions: shallowest depth at which the TT move is tested for being the only
    /// good move (and extended one ply if so), plies; 0 = none.
    se_min_depth: i32 = 0, tune 0..=20;
    /// The TT entry must be at most this much shallower than the node for the test, plies.
    se_tt_depth_margin: i32 = 3, tune 0..=10;
    /// The test's bound lies this far below the TT score per ply of depth, centipawns.
    se_margin: i32 = 2, tune 0..=100;
    /// A PV node (not the root) takes the transposition table's cutoff too, as a non-PV node
    /// does (its principal variation then ends there); off: PV nodes are always searched.
    tt_cutoff_pv: bool = false => switch;
    /// Futility pruning ends the move loop (the moves after the first pruned one come later in
    /// the order and are pruned too, once every move is scored); off: it skips one move.
    fp_ends_loop: bool = false => switch;
    /// Singular extensions also reduce: a TT move whose score reaches beta while another move
    /// reaches the singular bound is searched one ply shallower (off: no negative extension).
    se_negative: bool = false => switch;
    /// The time manager scales the soft limit by the best move's share of the root's nodes
    /// (`(1.5 − share) × 1.35`: a best move that took most of the effort is settled, one that
    /// took little earns more time; Viridithas's factor).
    tm_node_share: bool = false => switch;
    /// Quiet moves are ordered by their gain plus the game's order bonus
    /// ([`crate::game::Game::order_bonus`]); off: by their gain alone.
    order_bonus: bool = false => switch;
    /// The butterfly history a search starts with, in 1024ths of what the searches before it
    /// (since the last new game) left: 0 = none (it starts empty, with no counter-moves);
    /// otherwise the history is kept from one move of a game to the next, scaled by this, and
    /// the counter-moves stay (`ThreadData::start_search`).
    history_keep: i32 = 0, tune 0..=1024;
    /// Singular extensions are tried at PV nodes too (not the root); off: at non-PV nodes only
    /// (Zataxx's rule).
    se_pv_nodes: bool = true => switch;
    /// An aspiration window that fails high is searched again one ply shallower each time
    /// (down to 1; a fail low restores the depth), as Stockfish and Zataxx do; off: at the
    /// iteration's depth.
    aspiration_fail_high_reduce: bool = false => switch;
    /// The history bonus (and malus) of a quiet cutoff per ply of depth, up to
    /// `history_bonus_max`; 0 = depth² up to 1600 (history is within ±16384).
    history_bonus_per_ply: i32 = 0, tune 0..=1000;
    /// See [`SearchParams::history_bonus_per_ply`].
    history_bonus_max: i32 = 1600, tune 100..=4000;
    /// Moves the time manager plans for when the clock gives no `movestogo`: the soft limit is
    /// this share of the usable time (plus most of the increment); short games want fewer.
    expected_moves: i32 = 30, tune 5..=60;
    /// When the clock gives no `movestogo`, the time manager plans for the game's estimate of
    /// the moves left ([`crate::game::Game::moves_left_estimate`]) where that is fewer than
    /// `expected_moves` (Ataxx: near the end, when few empty squares are left); off: always for
    /// `expected_moves`.
    tm_game_horizon: bool = false => switch;
    /// The time manager's reserve as a share of the time left, percent: never planned (the
    /// reserve is at least `Move Overhead` and 30 ms, at most half the time left).
    tm_reserve_percent: i32 = 5, tune 0..=20;
    /// Below this many increments of usable time the time manager spends the increment in
    /// proportion (at this many, ¾ of it; at half as many, ⅜), so that the clock settles near
    /// half this many increments instead of running down; 0 = ¾ of the increment always.
    tm_increments_kept: i32 = 40, tune 0..=80;
    /// The killer moves and the counter-move order quiet moves (first among the moves of their
    /// gain) and are spared late-move reductions and pruning; off: the history alone orders
    /// them, as in Zataxx, whose killers order nothing.
    killer_moves: bool = true => switch;
    /// History pruning: deepest remaining depth at which a late move (not the first, the TT
    /// move, a killer or the counter-move) is skipped at a non-PV node when its butterfly
    /// history is below `−hp_margin × depth`, plies; 0 = none.
    hp_max_depth: i32 = 0, tune 0..=12;
    /// See [`SearchParams::hp_max_depth`]: history units per ply of depth (history is within
    /// ±16384).
    hp_margin: i32 = 2048, tune 0..=16384;
    /// Futility pruning at PV nodes too (not the root), as Zataxx prunes; off: at non-PV nodes
    /// only.
    fp_pv_nodes: bool = false => switch;
}

impl SearchParams {
    /// The value named `name` (one of [`SearchParams::TUNABLE`]).
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        copy.slot(name).map(|(v, _)| *v)
    }

    /// Sets the value named `name`; `false` if there is no such value or `value` is outside its
    /// range (nothing changes then).
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        match self.slot(name) {
            Some((v, range)) if range.contains(&value) => {
                *v = value;
                true
            }
            _ => false,
        }
    }

    /// The switch named `name` (one of [`SearchParams::SWITCHES`]).
    pub fn get_switch(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        copy.switch_slot(name).map(|v| *v)
    }

    /// Turns the switch named `name` on or off; `false` if there is no such switch.
    pub fn set_switch(&mut self, name: &str, on: bool) -> bool {
        match self.switch_slot(name) {
            Some(v) => {
                *v = on;
                true
            }
            None => false,
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
        for &Tunable {
            name,
            min: lo,
            max: hi,
            ..
        } in SearchParams::TUNABLE
        {
            let v = p.get(name).unwrap_or_else(|| panic!("{name}"));
            assert!((lo..=hi).contains(&v), "{name} = {v}");
            assert!(p.set(name, lo) && p.get(name) == Some(lo));
            assert!(!p.set(name, hi + 1));
        }
        assert!(!p.set("no_such_value", 1));
    }

    #[test]
    fn every_tunable_value_is_named_once_and_its_option_after_it() {
        for (i, t) in SearchParams::TUNABLE.iter().enumerate() {
            assert_eq!(t.option, format!("Tune {}", t.name));
            assert!(SearchParams::TUNABLE[..i].iter().all(|u| u.name != t.name));
        }
    }

    /// The on/off switches are `bool`s, set by name, and none is also a tunable number (SPSA
    /// reads only the numbers).
    #[test]
    fn switches_are_bools_set_by_name() {
        let mut p = SearchParams::DEFAULT;
        let names: Vec<&str> = SearchParams::SWITCHES.iter().map(|s| s.name).collect();
        for name in [
            "improving",
            "lmr_cont_history",
            "tt_cutoff_pv",
            "fp_ends_loop",
            "se_negative",
            "tm_node_share",
            "order_bonus",
            "se_pv_nodes",
            "aspiration_fail_high_reduce",
            "tm_game_horizon",
            "killer_moves",
            "fp_pv_nodes",
        ] {
            assert!(names.contains(&name), "{name}");
        }
        for s in SearchParams::SWITCHES {
            assert_eq!(s.option, format!("Tune {}", s.name));
            // Every switch is off by default but se_pv_nodes (singular extensions at PV nodes)
            // and killer_moves.
            let default = s.name == "se_pv_nodes" || s.name == "killer_moves";
            assert_eq!(p.get_switch(s.name), Some(default), "{}", s.name);
            assert!(p.set_switch(s.name, !default));
            assert_eq!(p.get_switch(s.name), Some(!default));
            assert_eq!(p.get(s.name), None, "{} is no number", s.name);
        }
        assert!(p.tt_cutoff_pv && p.se_negative);
        assert!(!p.set_switch("lmr_base", true));
        assert_eq!(p.get_switch("lmr_base"), None);
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
