//! The duel's facts checklist mapped to its tests, kept whole by a test.
//!
//! `duel_coverage/*.md` maps the numbered rules of section 3 ("Rules
//! checklist") of `../shared/facts/duel-facts.md` to the tests that fail when
//! the rule breaks, or says why no engine test can. A rule's id is `R` and
//! the number the facts file gives it (3.1 starts at 1, the numbering runs on
//! through the subsections). Which subsections are mapped so far is `MAPPED`
//! (see the README); where the facts file is found, their numbers are checked
//! against it, so a rule added there cannot be forgotten.

use crate::coverage_map;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use coverage_map::Row;

/// The subsections of section 3 mapped so far, with their rule numbers as
/// the facts file gives them (checked against it when it is found).
const MAPPED: &[(&str, u32, u32)] = &[
    ("3.1", 1, 9),
    ("3.2", 10, 20),
    ("3.3", 21, 27),
    ("3.4", 28, 30),
    ("3.5", 31, 40),
    ("3.6", 41, 50),
    ("3.7", 51, 59),
    ("3.8", 60, 62),
    ("3.9", 63, 69),
    ("3.10", 70, 79),
    ("3.11", 80, 83),
    ("3.12", 84, 85),
    ("3.13", 86, 90),
    ("3.14", 91, 94),
    ("3.15", 95, 97),
    ("3.16", 98, 100),
    ("3.17", 101, 101),
    ("3.18", 102, 105),
    ("3.19", 106, 114),
    ("3.20", 115, 122),
    ("3.21", 123, 129),
    ("3.22", 130, 130),
    ("3.23", 131, 133),
    ("3.24", 134, 136),
    ("3.25", 137, 150),
    ("3.26", 151, 157),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// `shared/facts/duel-facts.md` beside the repository or one of its parents
/// (it lives outside the repository: ../shared/facts from the main checkout).
fn facts_file() -> Option<PathBuf> {
    root().ancestors().map(|a| a.join("shared/facts/duel-facts.md")).find(|p| p.exists())
}

/// The rules of section 3 by subsection: ("3.19", [106, 107, ...]).
fn facts(text: &str) -> Vec<(String, Vec<u32>)> {
    let mut out: Vec<(String, Vec<u32>)> = Vec::new();
    let mut in_rules = false;
    for line in text.lines() {
        if line.starts_with("## ") {
            in_rules = line.starts_with("## 3.");
            continue;
        }
        if !in_rules {
            continue;
        }
        if let Some(rest) = line.strip_prefix("### ") {
            out.push((rest.split_whitespace().next().unwrap_or_default().to_string(), Vec::new()));
        } else if let Some((num, _)) = line.split_once(". ") {
            if let (Ok(n), Some(last)) = (num.parse::<u32>(), out.last_mut()) {
                last.1.push(n);
            }
        }
    }
    out
}

fn rows() -> Vec<Row> {
    coverage_map::rows("duel_coverage", &['R'])
}

/// The mapped subsections hold the rule numbers the facts file gives them.
/// Where the facts file is not on this machine (it lives outside the
/// repository) there is nothing to compare with.
#[test]
fn mapped_subsections_match_the_facts_file() {
    let Some(path) = facts_file() else { return };
    let text = std::fs::read_to_string(&path).expect("read facts");
    let found = facts(&text);
    for (id, first, last) in MAPPED {
        let (_, rules) = found.iter().find(|(s, _)| s == id).unwrap_or_else(|| panic!("no subsection {id}"));
        assert_eq!(*rules, (*first..=*last).collect::<Vec<_>>(), "subsection {id} of {}", path.display());
    }
}

#[test]
fn every_rule_of_the_mapped_subsections_has_one_row() {
    let mut seen: BTreeMap<u32, PathBuf> = BTreeMap::new();
    for row in rows() {
        let mapped = MAPPED.iter().any(|(_, a, b)| (*a..=*b).contains(&row.rule));
        assert!(mapped, "{}: R{} is not in a mapped subsection", row.file.display(), row.rule);
        if let Some(first) = seen.insert(row.rule, row.file.clone()) {
            panic!("R{} is mapped twice: {} and {}", row.rule, first.display(), row.file.display());
        }
    }
    let missing: Vec<String> = MAPPED
        .iter()
        .flat_map(|(_, a, b)| *a..=*b)
        .filter(|r| !seen.contains_key(r))
        .map(|r| format!("R{r}"))
        .collect();
    assert!(missing.is_empty(), "rules with no row in duel_coverage/: {}", missing.join(" "));
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
