//! What the two rule-coverage checkers share (`duel_coverage.rs`,
//! `divinity_coverage.rs`): reading a map's rows, and finding the named
//! tests. Each checker keeps its own idea of which rules must have a row.
#![allow(dead_code)] // each checker uses its own part

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A row of a map: `| R12 | file::test, file::test | note |`, or
/// `| R4 | — | why no engine test applies |`.
#[derive(Debug)]
pub struct Row {
    pub file: PathBuf,
    /// The id's letter: 'R' for a rule, 'D' for a derived edge case.
    pub kind: char,
    pub rule: u32,
    /// `(file, function)` for `engine/tests/file.rs`.
    pub tests: Vec<(String, String)>,
    pub note: String,
}

pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Every row of the `.md` files (README aside) in `tests/<map>/` whose id
/// starts with one of `kinds`, in file order.
pub fn rows(map: &str, kinds: &[char]) -> Vec<Row> {
    let dir = tests_dir().join(map);
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
            let Some(kind) = cell.chars().next().filter(|k| kinds.contains(k)) else { continue };
            let Ok(rule) = cell[1..].parse::<u32>() else { continue };
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

/// The named tests that do not exist, one line each.
pub fn missing_tests(rows: &[Row]) -> Vec<String> {
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    let mut problems = Vec::new();
    for row in rows {
        for (file, name) in &row.tests {
            let src = sources
                .entry(file.clone())
                .or_insert_with(|| std::fs::read_to_string(tests_dir().join(format!("{file}.rs"))).unwrap_or_default());
            if !src.contains(&format!("fn {name}(")) {
                problems.push(format!("{}{}: no test `{name}` in tests/{file}.rs", row.kind, row.rule));
            }
        }
    }
    problems
}

/// A row that names no test must say why.
pub fn assert_untested_rows_say_why(rows: &[Row]) {
    for row in rows {
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
