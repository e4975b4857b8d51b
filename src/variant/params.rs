//! The search's tuning values per variant ([`SearchParams`]), held by each variant's
//! [`super::Descriptor`]: the tafl family's set is [`SearchParams::DEFAULT`] (also the set of
//! OpenTafl rules strings, which are tafl games of no variant); Brandubh and Ataxx have their
//! own, where SPSA tuning and SPRTs showed that their boards want other values. The rules of a
//! game carry none of this: the engine gives the search the values of the game's variant
//! ([`super::GameKind::search_params`]). How each set was tuned and measured:
//! docs/tuning.md ("The sets in the code").

use crate::tuning::SearchParams;

/// Brandubh's set: SPSA-tuned from the family's values (null-move, late-move reduction,
/// reverse futility and aspiration values).
pub const BRANDUBH: SearchParams = SearchParams {
    rfp_margin: 54,
    nmp_base: 2,
    nmp_divisor: 5,
    lmr_base: 54,
    lmr_divisor: 196,
    aspiration_delta: 25,
    ..SearchParams::DEFAULT
};

/// Ataxx's set: a selective search (late-move reductions adjusted by history, reverse
/// futility pruning with the "improving" flag, internal iterative reductions from depth 3,
/// late-move pruning of jumps that flip nothing, futility pruning, singular extensions from
/// depth 6 with negative ones), its margins SPSA-tuned on the network `ataxx-p128-g7`. The
/// continuation history stays off: with singular extensions it lost. The butterfly history and
/// counter-moves are kept whole from one move of a game to the next, and a cutoff moves the
/// history by 300 per ply of depth up to 1500 (Zataxx's linear bonus). The clock plans for the
/// game's estimate of the moves left, keeps a 2 % reserve and spends the increment whole down
/// to 10 increments (issue 52; docs/tuning.md has each set's measurements).
pub const ATAXX: SearchParams = SearchParams {
    rfp_max_depth: 6,
    rfp_margin: 105,
    lmr_min_depth: 3,
    lmr_base: 73,
    lmr_divisor: 209,
    lmr_history_divisor: 6562,
    improving: true,
    iir_min_depth: 3,
    lmp_no_gain_moves: 3,
    fp_max_depth: 6,
    fp_margin_base: 78,
    fp_margin: 77,
    aspiration_delta: 31,
    se_margin: 8,
    cont_history_plies: 0,
    se_min_depth: 6,
    se_negative: true,
    tm_game_horizon: true,
    tm_reserve_percent: 2,
    tm_increments_kept: 10,
    history_keep: 1024,
    history_bonus_per_ply: 300,
    history_bonus_max: 1500,
    ..SearchParams::DEFAULT
};
