//! The Divinity engine tests, in one test binary: each file below is a module of it.
//! One binary per file compiled the engine's generic code (serde, the
//! views, proptest) again for each, at the engine's opt-level: the larger
//! part of a cold `cargo test` (engine/Cargo.toml, `autotests`). Run one
//! file's tests with a filter: `cargo test -p athlas-engine --test divinity divinity_audit_combat::`.

mod coverage_map;
mod divinity_support;

mod divinity_audit_combat;
mod divinity_audit_derived;
mod divinity_audit_location;
mod divinity_audit_setup;
mod divinity_audit_tray;
mod divinity_board;
mod divinity_bot;
mod divinity_campaign;
mod divinity_clone;
mod divinity_combat_end;
mod divinity_content;
mod divinity_coverage;
mod divinity_examples;
mod divinity_golden;
mod divinity_hashed;
mod divinity_json;
mod divinity_legal;
mod divinity_names_memo;
mod divinity_play;
mod divinity_position;
mod divinity_properties;
mod divinity_protocol_doc;
mod divinity_reactions;
mod divinity_review;
mod divinity_rules;
mod divinity_secrecy;
mod divinity_third_review;
mod divinity_turn_start;
mod divinity_view_json;
mod divinity_views_shared;
mod divinity_words;
