//! The audit of the facts checklist, kept honest by a test.
//!
//! `divinity_coverage/*.md` maps every rule R1…R245 and every derived edge
//! case D01…D60 of `../shared/facts/divinity-facts.md` to the tests that fail
//! when that rule breaks, or says why no engine test can (a rule about the
//! physical table, say). The worked examples E01…E39 are named in their tests. This test checks the map is whole and that every test it names
//! exists, so a renamed or deleted test cannot leave a rule silently uncovered.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The number of rules in the facts checklist (section 1, R1…R245).
const RULES: u32 = 245;
/// The number of derived edge cases (section 3, D01…D60).
const DERIVED: u32 = 60;

/// A row of the map: `| R12 | file::test, file::test | note |`, or
/// `| R4 | — | why no engine test applies |`.
#[derive(Debug)]
struct Row {
    file: PathBuf,
    /// 'R' for a rule, 'D' for a derived edge case.
    kind: char,
    rule: u32,
    tests: Vec<(String, String)>,
    note: String,
}

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn rows() -> Vec<Row> {
    let dir = tests_dir().join("divinity_coverage");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read map");
        for line in text.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // "| R12 | … | … |" splits into ["", "R12", tests, note, ""].
            let Some(cell) = cells.get(1) else { continue };
            let Some(kind) = cell.chars().next().filter(|k| *k == 'R' || *k == 'D') else { continue };
            let num = &cell[1..];
            let Ok(rule) = num.parse::<u32>() else { continue };
            assert!(cells.len() >= 5, "{}: a row needs a tests and a note cell: {line}", file.display());
            let tests = if cells[2] == "—" {
                Vec::new()
            } else {
                cells[2]
                    .split(',')
                    .map(|t| {
                        let t = t.trim().trim_matches('`');
                        let (f, name) = t
                            .split_once("::")
                            .unwrap_or_else(|| panic!("{}: {kind}{rule}: `{t}` is not file::test", file.display()));
                        (f.to_string(), name.to_string())
                    })
                    .collect()
            };
            out.push(Row { file: file.clone(), kind, rule, tests, note: cells[3].to_string() });
        }
    }
    out
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
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    let mut problems = Vec::new();
    for row in rows() {
        for (file, name) in &row.tests {
            let src = sources
                .entry(file.clone())
                .or_insert_with(|| std::fs::read_to_string(tests_dir().join(format!("{file}.rs"))).unwrap_or_default());
            if !src.contains(&format!("fn {name}(")) {
                problems.push(format!("{}{}: no test `{name}` in tests/{file}.rs", row.kind, row.rule));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_rule_without_a_test_says_why() {
    for row in rows() {
        if row.tests.is_empty() {
            assert!(
                row.note.len() >= 20,
                "{}: {}{} names no test, so its note must say why (got `{}`)",
                row.file.display(),
                row.kind,
                row.rule,
                row.note
            );
        }
    }
}
