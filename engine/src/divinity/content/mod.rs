//! The catalogue: every Divinity card as data (`content/divinity/*.json`),
//! parsed and validated once. The engine interprets the vocabulary defined
//! here; a new item, skill, minion or location is a data change.
//!
//! Submodules: `card` (Origins, talents, skills, items, runes, summons),
//! `location_card` (locations, their cards, Bosses, journal, campaign) and
//! `loading` (reading the files and checking them).

use std::collections::BTreeMap;

use crate::divinity::dice::DiceTable;
use crate::divinity::status::StatusRules;

mod card;
mod loading;
mod location_card;
mod minion_card;

pub use card::*;
pub use loading::CATALOGUE;
pub use location_card::*;
pub use minion_card::*;

/// A content file is malformed or inconsistent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("divinity content: {0}")]
pub struct ContentError(pub String);

/// Every card the Divinity ruleset knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    pub dice: DiceTable,
    pub statuses: StatusRules,
    pub minions: BTreeMap<String, MinionCard>,
    pub origins: BTreeMap<String, OriginDef>,
    pub talents: BTreeMap<String, TalentDef>,
    pub skills: BTreeMap<String, SkillDef>,
    pub items: BTreeMap<String, ItemDef>,
    pub runes: BTreeMap<String, RuneDef>,
    pub summons: BTreeMap<String, SummonDef>,
    pub bosses: BTreeMap<String, BossDef>,
    pub locations: BTreeMap<String, LocationDef>,
    pub journal: BTreeMap<u32, JournalCard>,
    pub campaign: CampaignDef,
}
