//! Divinity: Original Sin – The Board Game. One match is one party playing
//! one location; what persists between locations and sessions is a
//! [`CampaignState`] value the engine produces at the end and accepts at the
//! start.
//!
//! Modules by domain noun: [`dice`], [`damage`], [`status`], [`cooldown`],
//! [`attack`], [`map`], [`minion`], [`content`] (the catalogue and its
//! vocabulary); the match itself: [`state`], [`action`], [`event`],
//! `figure` (damage, healing, statuses on figures), `location` (setup,
//! exploring, location cards, challenges), `round` (the round loop, Rest,
//! the time track), `combat` (Origin turns, attacks, enemy turns),
//! [`pending`] (what the match waits for, decided in one place),
//! [`interlude`] (levelling up, the Merchant), [`view`] and [`ruleset`].
//!
//! Content choices the rulebook leaves open are in
//! `content/divinity/ASSUMPTIONS.md`.

pub mod action;
pub mod attack;
mod combat;
pub mod content;
pub mod cooldown;
pub mod damage;
pub mod dice;
pub mod event;
mod figure;
pub mod interlude;
pub mod legal;
mod location;
pub mod map;
pub mod minion;
pub mod pending;
mod round;
pub mod ruleset;
pub mod state;
pub mod status;
pub mod view;

pub use action::{Aim, CardUse, DivinityAction, KeywordFrom};
pub use event::DivinityEvent;
pub use ruleset::Divinity;
pub use state::{CampaignState, DivinityOptions, DivinityState};
pub use view::DivinityView;
