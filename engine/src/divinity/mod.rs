//! Divinity: Original Sin – The Board Game. One match is one party playing
//! one location; what persists between locations and sessions is a
//! [`CampaignState`] value the engine produces at the end and accepts at the
//! start.
//!
//! Modules by domain noun: [`dice`], [`damage`], [`status`], [`cooldown`],
//! [`attack`], [`map`], [`minion`], [`content`] (the catalogue and its
//! vocabulary).

pub mod attack;
pub mod content;
pub mod cooldown;
pub mod damage;
pub mod dice;
pub mod map;
pub mod minion;
pub mod status;
