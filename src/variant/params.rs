//! The search's tuning values per variant ([`SearchParams`]), held by each variant's
//! [`super::Descriptor`]: the tafl family's set is [`SearchParams::DEFAULT`] (also used for
//! OpenTafl rules strings); Brandubh and Ataxx have their own, where SPSA tuning and SPRTs showed
//! that their boards want other values. Ashton Tablut keeps the family's set: SPSA from it (120
//! iterations, docs/tuning.md) moved four values a little, and those lost nothing and gained
//! nothing measurable (+7.8 ± 20.9 Elo in 400 games at 2+0.02). The rules of a game carry none of this: the engine
//! gives the search its values ([`super::search_params_for`]).

use crate::tuning::SearchParams;

/// Brandubh's set.
///
/// Brandubh: SPSA (`scripts/spsa.py`, 250 iterations of 8 game pairs at 1 s + 10 ms, the
/// `--played` book, from the family's values) on the reverse futility margin (90 → 74), the
/// null-move reduction (3 + depth / 4 → 2 + depth / 5), the late-move reductions' table (base
/// 50 → 54, divisor 220 → 185: larger reductions) and the aspiration window (30 → 25); it left
/// `rfp_max_depth` (6) and `lmr_min_moves` (2) as they were. Against the same engine with the
/// family's values, 400 games at 2 s + 20 ms: 226-153-21, +64.1 ± 26.3 Elo (pentanomial; SPRT
/// [0, 10] llr 2.48, inconclusive). A second run (150 iterations from those values, on
/// `rfp_margin`, `rfp_max_depth`, `nmp_min_depth`, `lmr_min_depth`, `lmr_min_moves_pv`,
/// `lmr_min_moves`, `expected_moves` and `lmr_divisor`) moved only `rfp_margin` 74 → 54 and
/// `lmr_divisor` 185 → 196: against the first run's values, 400 games, 201-171-28,
/// +26.1 ± 21.2 (llr 1.21, inconclusive).
pub const BRANDUBH: SearchParams = SearchParams {
    rfp_margin: 54,
    nmp_base: 2,
    nmp_divisor: 5,
    lmr_base: 54,
    lmr_divisor: 196,
    aspiration_delta: 25,
    ..SearchParams::DEFAULT
};

/// Ataxx's set.
///
/// Selective: late-move reductions from the table (adjusted by history: ± 1 ply per 8192),
/// reverse futility pruning (up to depth 6; 80 cp per ply when measured, SPSA's values
/// below), the "improving" flag and internal iterative reductions from depth 4. Measured together against the same engine without
/// them (both with the eval's tempo term), 2+0.02: +334 Elo, 153-22-1; completed depth at
/// 8 s + 80 ms on mid-game positions went from 6-8 to 10-14. (Before the tempo term,
/// LMR and RFP had lost: the score's sign swing with depth parity made margins and
/// reduced re-searches meaningless.) Late-move pruning: after 4 moves (then), jumps that flip
/// nothing are skipped (Zataxx prunes them so): +34 ± 27 Elo over 600 games (LOS 99.4 %).
/// Futility pruning up to depth 6 (margin 160 + 80 cp per ply then): +36 ± 30 over 469 games
/// without the late-move pruning, +22 ± 34 over 391 with it. Continuation history (two
/// plies, in the order of quiet moves, kept through a game): +26.7 ± 40.4 over 300 games
/// (159-136-5); added to the reductions' history adjustment it was −25.5 ± 38.0.
/// Singular extensions from depth 7 (margin 2 cp per ply): +27.9 ± 37.0 over 300 games
/// (160-136-4) on top of that. SPSA (`scripts/spsa.py`, 56 iterations × 8 game pairs at
/// 1 s + 10 ms, stopped early for time): reverse futility margin 80 → 112, LMR base 50 → 62
/// and divisor 220 → 229, late-move pruning after 3 moves (was 4), futility margin 160 + 80
/// → 108 + 59 cp per ply, aspiration window 30 → 31: against the values before, 600 games at
/// 2+0.02, 326-259-15, +39.0 ± 27.0 Elo (pentanomial, two runs of 300: +27.9 ± 37.8 and
/// +50.1 ± 38.6).
///
/// With the pattern network `ataxx-p128-g1` (issue 21), each against the same tune build
/// without it, 200 games at 2+0.02, SPRT [0, 10], none accepted, so all stay as they were:
/// the time manager's best-move node share (`tm_node_share` 1) −15.6 ± 50.8 (94-103-3);
/// TT cutoffs at PV nodes (`tt_cutoff_pv` 1) +3.5 ± 50.2 (100-98-2); futility pruning that
/// ends the move loop (`fp_ends_loop` 1) +3.5 ± 44.4 (99-97-4).
///
/// Internal iterative reductions from depth 3 (`iir_min_depth` 3, was 4; Zataxx's value), in
/// three runs at 2+0.02, SPRT [0, 10]: on `ataxx-p128-g1` +49.0 ± 48.5 (200 games, 112-84-4,
/// llr 0.72) and +24.4 ± 48.3 on another book (200, 106-92-2); on `ataxx-p128-g2` +23.2 ± 39.4
/// (300, 159-139-2, llr 0.45). No run reached the bound; all three lean the same way, and
/// together they are 377-315-8 in 700 games, about +31 ± 26 Elo (LOS about 99 %): adopted.
///
/// With `ataxx-p128-g7` (issue 21), each against the same tune build without it, 200 games
/// at 2+0.02, SPRT [0, 10]: singular extensions from depth 6 with negative extensions
/// (`se_min_depth` 6, `se_negative` 1; Zataxx's depth) +40.1 ± 48.2 (109-86-5, llr 0.58) and
/// +26.1 ± 48.0 on another book (`--seed 8`; 105-90-5), together 214-176-10 in 400 games,
/// about +33 ± 34 (LOS about 97 %): adopted. Not adopted: the time manager's node share
/// −45.4 ± 48.4 (85-111-4); futility margins at Zataxx's scale (400 + 200 cp per ply, its
/// 160 + 80 at 400 cp a logit unit) ending the loop −12.2 ± 47.6 (93-100-7); clones ordered one
/// stone above jumps (`order_bonus` 1, Zataxx's order) +3.5 ± 48.2 (100-98-2); TT cutoffs at
/// PV nodes +22.6 ± 47.7 (103-90-7) and, on top of the singular extensions, −10.4 ± 48.0
/// (95-101-4).
///
/// SPSA again on `ataxx-p128-g7` with singular extensions (`scripts/spsa.py`, 140 iterations
/// × 8 game pairs at 1 s + 10 ms, `--seed 31`, a 500-position book `skald openings --plies 6
/// --max-score 150 --seed 21`; 8 values): reverse futility margin 112 → 105, LMR base 62 → 73
/// and divisor 229 → 209, history divisor 8192 → 6562, futility margin 108 + 59 → 78 + 77 cp
/// per ply, singular margin 2 → 8 cp per ply (aspiration window stayed at 31). Against the
/// values before, 200 games at 2+0.02, SPRT [0, 10]: 105-90-5, +26.1 ± 48.0
/// (llr 0.35) on one book and 112-86-2, +45.4 ± 48.6 (llr 0.66) on another; together 217-176-7
/// in 400 games, about +36 ± 34 (LOS about 98 %).
///
/// The clock (issue 52): skald ended its games against Zataxx at 8 s + 80 ms with a median
/// 1.7–2.1 s unused (Zataxx 0.5–0.7 s). The time manager now plans for the game's estimate
/// of the moves left where that is fewer than 30 (`tm_game_horizon` 1: 1.3 moves per empty
/// square + 2, [`crate::game::Game::moves_left_estimate`]), keeps a reserve of 2 % of the
/// time left (was 5 %) and spends ¾ of the increment whole down to 10 increments of usable
/// time (was 40). Against the same tune build without them, 2+0.02, SPRT [0, 10]:
/// 800 games 422-366-12,
/// pentanomial [81, 7, 197, 5, 110], +24.4 ± 23.7 Elo, LOS 97.8 %, llr 1.31: not passed,
/// adopted as clearly positive (docs/tuning.md, issue 52). Under load 4-16 it lost 27 games
/// on time to the old rules' 10 (`skald match`'s 50 ms margin): set `Move Overhead` on a
/// loaded machine.
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
    // Continuation history (+26.7 ± 40.4 over 300 games) and singular extensions on top
    // of it (+27.9 ± 37.0 over 300) each looked good, but both together against the
    // build without them scored -27.9 ± 40.2 (300 games, 2+0.02, hand-evaluation era):
    // continuation history stays off (`Tune cont_history_plies` 2 turns it on). Singular
    // extensions, with negative ones, measured again on `ataxx-p128-g7`: on (above).
    cont_history_plies: 0,
    se_min_depth: 6,
    se_negative: 1,
    // The clock (issue 52): plan for the game's estimate of the moves left, keep a 2 %
    // reserve and spend the increment whole above 10 increments (see the comment above).
    tm_game_horizon: 1,
    tm_reserve_percent: 2,
    tm_increments_kept: 10,
    ..SearchParams::DEFAULT
};
