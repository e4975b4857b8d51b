//! The search's tuning values for tafl ([`SearchParams`]), per variant: the family's set is
//! [`SearchParams::DEFAULT`]; a variant has its own where SPSA tuning showed that its board wants
//! other values ([`search_params_for_variant`], by the rules' name, as the evaluation's weights
//! are chosen by [`super::EvalWeights::for_variant`]).

use crate::tuning::SearchParams;

/// The search values for the rules named `name` (a variant's protocol name): a tuned set where
/// there is one, else [`SearchParams::DEFAULT`].
pub fn search_params_for_variant(name: &str) -> SearchParams {
    VARIANT_PARAMS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(SearchParams::DEFAULT, |(_, p)| *p)
}

/// The tuned sets, by the rules' name.
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
static VARIANT_PARAMS: &[(&str, SearchParams)] = &[(
    "brandubh",
    SearchParams {
        rfp_margin: 54,
        nmp_base: 2,
        nmp_divisor: 5,
        lmr_base: 54,
        lmr_divisor: 196,
        aspiration_delta: 25,
        ..SearchParams::DEFAULT
    },
)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brandubh_has_its_own_set_and_the_others_the_family_default() {
        assert_eq!(search_params_for_variant("tablut"), SearchParams::DEFAULT);
        assert_eq!(
            search_params_for_variant("no such rules"),
            SearchParams::DEFAULT
        );
        assert_ne!(search_params_for_variant("brandubh"), SearchParams::DEFAULT);
    }
}
