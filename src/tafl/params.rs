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
static VARIANT_PARAMS: &[(&str, SearchParams)] = &[("brandubh", SearchParams::DEFAULT)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_without_a_tuned_set_use_the_family_default() {
        assert_eq!(search_params_for_variant("tablut"), SearchParams::DEFAULT);
        assert_eq!(
            search_params_for_variant("no such rules"),
            SearchParams::DEFAULT
        );
    }
}
