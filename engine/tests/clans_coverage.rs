//! The clans facts checklist mapped to its tests, kept whole by a test
//! (`clans_coverage/*.md`, the duel's and Divinity's shape).

use crate::coverage_map;
use std::collections::BTreeSet;
use std::path::Path;

const RULES: u32 = 104;

#[test]
fn every_rule_has_one_row_and_every_named_test_exists() {
    let rows = coverage_map::rows("clans_coverage", &['R']);
    let ids: Vec<u32> = rows.iter().map(|r| r.rule).collect();
    let set: BTreeSet<u32> = ids.iter().copied().collect();
    assert_eq!(ids.len(), set.len(), "a rule has two rows");
    assert_eq!(set, (1..=RULES).collect(), "every rule R1..R{RULES} has a row");
    let missing = coverage_map::missing_tests(&rows);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    coverage_map::assert_untested_rows_say_why(&rows);
    let covered = rows.iter().filter(|r| !r.tests.is_empty()).count();
    eprintln!("clans coverage: {covered} of {RULES} rules mapped to tests");
}

#[test]
fn the_map_numbers_match_the_facts_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(facts) = root.ancestors().map(|a| a.join("shared/facts/clans-facts.md")).find(|p| p.exists()) else {
        return;
    };
    let text = std::fs::read_to_string(facts).unwrap();
    let section = text.split("## 2. Rules checklist").nth(1).unwrap().split("## 3.").next().unwrap();
    let numbers: Vec<u32> =
        section.lines().filter_map(|l| l.split_once(". ").and_then(|(n, _)| n.parse().ok())).collect();
    assert_eq!(numbers, (1..=RULES).collect::<Vec<_>>());
}
