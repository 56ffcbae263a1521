//! A – a Duel for Divinity.

pub mod alpha;
pub mod card;
