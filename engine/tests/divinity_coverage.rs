//! The audit of the facts checklist, kept honest by a test.
//!
//! `divinity_coverage/*.md` maps every rule R1…R245 and every derived edge
//! case D01…D60 of `../shared/facts/divinity-facts.md` to the tests that fail
//! when that rule breaks, or says why no engine test can (a rule about the
//! physical table, say). The worked examples E01…E39 are named in their tests. This test checks the map is whole and that every test it names
//! exists, so a renamed or deleted test cannot leave a rule silently uncovered.

use crate::coverage_map;

use std::collections::BTreeMap;
use std::path::PathBuf;

/// The number of rules in the facts checklist (section 1, R1…R245).
const RULES: u32 = 245;
/// The number of derived edge cases (section 3, D01…D60).
const DERIVED: u32 = 60;

fn rows() -> Vec<coverage_map::Row> {
    coverage_map::rows("divinity_coverage", &['R', 'D'])
}

#[test]
fn every_rule_is_mapped_once() {
    let mut seen: BTreeMap<(char, u32), PathBuf> = BTreeMap::new();
    for row in rows() {
        let last = if row.kind == 'R' { RULES } else { DERIVED };
        assert!((1..=last).contains(&row.rule), "{}: {}{} is not in the facts", row.file.display(), row.kind, row.rule);
        if let Some(first) = seen.insert((row.kind, row.rule), row.file.clone()) {
            panic!("{}{} is mapped twice: {} and {}", row.kind, row.rule, first.display(), row.file.display());
        }
    }
    let missing: Vec<String> = (1..=RULES)
        .map(|r| ('R', r))
        .chain((1..=DERIVED).map(|d| ('D', d)))
        .filter(|k| !seen.contains_key(k))
        .map(|(kind, n)| format!("{kind}{n}"))
        .collect();
    assert!(missing.is_empty(), "rules with no row in divinity_coverage/: {}", missing.join(" "));
}

#[test]
fn every_named_test_exists() {
    let problems = coverage_map::missing_tests(&rows());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_rule_without_a_test_says_why() {
    coverage_map::assert_untested_rows_say_why(&rows());
}
