//! The process-wide bound on the tafl rule sets built at run time (`skald::tafl::
//! set_rule_set_limit`, which `skald serve --max-rule-sets` sets): each rule set stays in memory
//! for the process's life, so the bound is what keeps rules strings from outside (the browser
//! server's `rules` and records) from growing memory without end. Its own test binary: the limit
//! is process-wide.

use skald::tafl::opentafl::{MAX_RULES_LEN, parse_rules};
use skald::tafl::{RuleOptions, Rules, leaked_rule_sets, rule_set_limit, set_rule_set_limit};

fn named(name: &str) -> RuleOptions {
    let mut o = RuleOptions::brandubh();
    o.name = name.into();
    o
}

#[test]
fn rule_sets_beyond_the_limit_are_refused_and_those_built_stay() {
    assert_eq!(rule_set_limit(), usize::MAX, "no limit unless set");
    let limit = leaked_rule_sets() + 3;
    set_rule_set_limit(limit);
    let first = Rules::<u64>::leak(named("limit 1")).unwrap();
    Rules::<u64>::leak(named("limit 2")).unwrap();
    Rules::<u128>::leak(RuleOptions::tablut()).unwrap();
    assert_eq!(leaked_rule_sets(), limit);
    // A fourth, whatever its bitboard: refused, and nothing more is kept.
    for _ in 0..100 {
        let e = Rules::<u64>::leak(named("limit 4"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("the {limit} different rule sets")),
            "{e}"
        );
    }
    assert!(Rules::<u128>::leak(named("limit 5")).is_err());
    assert_eq!(leaked_rule_sets(), limit);
    // Those built before are still there, the same.
    assert!(std::ptr::eq(
        first,
        Rules::<u64>::leak(named("limit 1")).unwrap()
    ));
    assert!(Rules::<u128>::leak(RuleOptions::tablut()).is_ok());
    // The engine's sessions of new rules strings meet the same bound.
    let e = skald::engine::new_tafl_session(
        parse_rules("dim:7 name:another ks:c cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
            .unwrap(),
    )
    .err()
    .expect("refused");
    assert!(e.contains("rule sets"), "{e}");
    // A higher limit lets more in.
    set_rule_set_limit(limit + 1);
    assert!(Rules::<u64>::leak(named("limit 4")).is_ok());
}

/// A rules string is at most `MAX_RULES_LEN` bytes: a longer name (or list) would be kept for
/// the process's life.
#[test]
fn an_overlong_rules_string_is_refused() {
    let start = "dim:7 ks:c cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let name = "n".repeat(MAX_RULES_LEN);
    let e = parse_rules(&format!("{start} name:{name}")).unwrap_err();
    assert!(e.contains(&format!("at most {MAX_RULES_LEN}")), "{e}");
    let fits = "n".repeat(MAX_RULES_LEN - start.len() - 6);
    let o = parse_rules(&format!("{start} name:{fits}")).unwrap();
    assert_eq!(o.name, fits);
}
