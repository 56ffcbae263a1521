//! The clan-of-gods card battle's engine tests in one binary (see
//! engine/Cargo.toml's `autotests`): run one file's tests with a filter,
//! `cargo test -p athlas-engine --test clans clans_rules::`.

mod clans_support;
mod coverage_map;

mod clans_balance;
mod clans_checklist;
mod clans_coverage;
mod clans_examples;
mod clans_golden;
mod clans_properties;
mod clans_protocol_doc;
mod clans_rules;
mod clans_secrets;
mod clans_words;
