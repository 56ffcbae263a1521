//! The duel's engine tests, and the wire fuzzing of both games, in one test binary: each file below is a module of it.
//! One binary per file compiled the engine's generic code (serde, the
//! views, proptest) again for each, at the engine's opt-level: the larger
//! part of a cold `cargo test` (engine/Cargo.toml, `autotests`). Run one
//! file's tests with a filter: `cargo test -p athlas-engine --test duel action_fuzz::`.

mod common;
mod coverage_map;

mod action_fuzz;
mod duel_content;
mod duel_coverage;
mod duel_ending;
mod duel_examples;
mod duel_golden;
mod duel_legal_oracle;
mod duel_play_by_play;
mod duel_properties;
mod duel_protocol_doc;
mod duel_review;
mod duel_rules;
mod duel_views_before;
mod duel_words;
