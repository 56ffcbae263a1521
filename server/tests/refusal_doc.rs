//! The server's refusal codes and protocol/PROTOCOL.md's table of them
//! (section "Errors") are one list: every code the table documents is a
//! [`Code`], and every [`Code`] is documented there. The clients' constants
//! (`athlas_protocol::code`, protocol/src/code.rs) are each a [`Code`] too,
//! so a client cannot switch on a code the server never sends. A game's own
//! codes are checked against its document by a test of their own (one file
//! per document).

use std::collections::BTreeSet;

use athlas_engine::refusal::Refusal as _;
use athlas_server::refusal::Code;

/// The codes of the table rows (`| \`code\` | where | meaning |`) in the
/// `## Errors` section.
fn documented() -> BTreeSet<String> {
    let doc = include_str!("../../protocol/PROTOCOL.md");
    let start = doc.find("\n## Errors").expect("PROTOCOL.md has an Errors section");
    let section = &doc[start + 1..];
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |i| i + 1)];
    section.lines().filter_map(|l| l.strip_prefix("| `")?.split_once("` |").map(|(code, _)| code.to_owned())).collect()
}

fn declared() -> BTreeSet<String> {
    Code::all().iter().map(|c| c.code().to_owned()).collect()
}

#[test]
fn every_documented_code_is_the_servers_and_every_server_code_is_documented() {
    let (documented, declared) = (documented(), declared());
    assert!(documented.len() > 40, "the table was found: {documented:?}");
    let undeclared: Vec<_> = documented.difference(&declared).collect();
    let undocumented: Vec<_> = declared.difference(&documented).collect();
    assert!(undeclared.is_empty(), "in PROTOCOL.md but not in refusal::Code: {undeclared:?}");
    assert!(undocumented.is_empty(), "in refusal::Code but not in PROTOCOL.md: {undocumented:?}");
}

#[test]
fn every_client_constant_is_a_server_code() {
    let source = include_str!("../../protocol/src/code.rs");
    let constants: Vec<&str> = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const ")?.split_once("= \"")?.1.strip_suffix("\";"))
        .collect();
    assert!(constants.len() > 40, "the constants were found: {constants:?}");
    for c in constants {
        assert!(Code::parse(c).is_some(), "athlas_protocol::code has {c:?}, which refusal::Code does not");
    }
}

#[test]
fn every_code_has_a_meaning() {
    for c in Code::all() {
        assert!(!c.meaning().is_empty(), "{} has no meaning", c.code());
    }
}
