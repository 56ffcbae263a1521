//! A minion's card as the content files spell it (standard and Veteran
//! sides, L1614-1699); its AI is `minion.rs`'s.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::divinity::attack::Attack;
use crate::divinity::damage::{DamageType, Defence};
use crate::divinity::status::Status;

/// The special targeting table (L1635-1677).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetRule {
    Closest,
    MostHp,
    LeastHp,
    MostPhysicalArmor,
    LeastPhysicalArmor,
    MostMagicalArmor,
    LeastMagicalArmor,
    MostSource,
    LeastSource,
    MostOriginsSpace,
    FewestOriginsSpace,
}

/// One side of a minion card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinionStats {
    pub level: u32,
    pub hp: u32,
    #[serde(default)]
    pub physical_armor: u32,
    #[serde(default)]
    pub magical_armor: u32,
    pub targeting: TargetRule,
    pub movement: u32,
    pub attack: Attack,
    #[serde(default)]
    pub undead: bool,
    #[serde(default)]
    pub immune: BTreeSet<DamageType>,
    #[serde(default)]
    pub immune_statuses: BTreeSet<Status>,
    #[serde(default)]
    pub immovable: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinionCard {
    pub id: String,
    pub name: String,
    pub standard: MinionStats,
    /// The harder side, spawned only when a card says so (L1253).
    pub veteran: MinionStats,
}

impl MinionStats {
    /// What this side's printed armor, immunities and UNDEAD keyword do to
    /// incoming damage (L636, L700, L1709).
    pub fn defence(&self) -> Defence {
        Defence {
            physical_armor: self.physical_armor,
            magical_armor: self.magical_armor,
            reduction: Default::default(),
            immune: self.immune.clone(),
            undead: self.undead,
        }
    }
}

impl MinionCard {
    /// The side a spawn row asks for (L1253).
    pub fn side(&self, veteran: bool) -> &MinionStats {
        if veteran {
            &self.veteran
        } else {
            &self.standard
        }
    }
}
