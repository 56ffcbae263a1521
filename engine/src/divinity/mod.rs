//! Divinity: Original Sin – The Board Game. One match is one party playing
//! one location; what persists between locations and sessions is a
//! [`CampaignState`] value the engine produces at the end and accepts at the
//! start.
//!
//! Modules by domain noun: [`dice`], [`damage`], [`status`], [`cooldown`],
//! [`attack`], [`map`], [`minion`], [`content`] (the catalogue and its
//! vocabulary); the match itself: [`state`], [`action`], [`event`],
//! `figure` (damage, healing, statuses on figures), `setup`, `location`
//! (exploring, location cards), `challenge`, `round` (the round loop, Rest
//! turns, the time track), `combat` (the Combat round, Origin turns, moving,
//! ending a combat), `recovery` (Recover, reviving), `talent` (talents and
//! special abilities), `inventory` (equipping, runes, trading), `play`
//! (using a card), `roll` (an Origin's attack roll), `enemy_roll`,
//! `enemy_turn` (what minion and Boss turns share), [`minion`] (the minion
//! AI and turns), `boss`, `reaction` (reactions outside your turn),
//! [`pending`] (what the match waits for, decided in one place),
//! [`position`] (a position set up directly, as data),
//! [`interlude`] (levelling up, the Merchant), [`used`] (the keys of
//! once-per-round limits), [`view`], [`ruleset`] and [`bot`] (a party bot that
//! plays from a seat's view and legal actions).
//!
//! Content choices the rulebook leaves open are in
//! `content/divinity/ASSUMPTIONS.md`.

pub mod action;
mod apply;
pub mod attack;
mod boss;
pub mod bot;
pub mod campaign;
mod challenge;
mod combat;
pub mod content;
pub mod cooldown;
pub mod damage;
pub mod dice;
mod enemy_roll;
mod enemy_turn;
pub mod event;
mod figure;
mod hashed;
pub mod interlude;
mod inventory;
mod json;
pub mod legal;
mod location;
pub mod map;
pub mod minion;
pub mod pending;
mod play;
pub mod position;
mod reaction;
mod recovery;
pub mod refusal;
mod roll;
mod round;
pub mod ruleset;
mod setup;
pub mod state;
pub mod status;
mod talent;
pub mod used;
pub mod view;
mod view_json;
pub mod words;

pub use action::{Aim, CardUse, DivinityAction, KeywordFrom};
pub use event::DivinityEvent;
pub use position::Position;
pub use refusal::DivinityRefusal;
pub use state::{CampaignState, DivinityOptions, DivinityState};
pub use view::DivinityView;

use crate::RuleError;

/// The Divinity ruleset on the standard catalogue: its [`crate::Ruleset`]
/// is `ruleset.rs`'s, how it applies an action `apply.rs`'s, its campaign
/// `campaign.rs`'s.
pub struct Divinity;

/// A refusal: its stable code and the rule it breaks, in words.
fn err(code: DivinityRefusal, m: impl Into<String>) -> RuleError {
    RuleError::of(code, m)
}
