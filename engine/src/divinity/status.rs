//! The status effects (index L1933-2091, L658-696) and what each does. The
//! list is fixed by the book; the effects are data (`statuses.json`) written in
//! a small vocabulary the engine implements, because the book states only
//! some of them (ASSUMPTIONS.md, "Statuses").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::damage::DamageType;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Bleeding,
    Blessed,
    Blinded,
    Burning,
    Chicken,
    Dominated,
    Exposed,
    Frozen,
    Haste,
    Invisible,
    KnockedDown,
    Poisoned,
    Shocked,
    Stunned,
    Sundered,
}

impl Status {
    pub const ALL: [Status; 15] = [
        Status::Bleeding,
        Status::Blessed,
        Status::Blinded,
        Status::Burning,
        Status::Chicken,
        Status::Dominated,
        Status::Exposed,
        Status::Frozen,
        Status::Haste,
        Status::Invisible,
        Status::KnockedDown,
        Status::Poisoned,
        Status::Shocked,
        Status::Stunned,
        Status::Sundered,
    ];
}

/// Damage dealt by a status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusDamage {
    pub amount: u32,
    #[serde(rename = "type")]
    pub ty: DamageType,
}

/// What one status does while it is on a cooldown track.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StatusRule {
    pub positive: bool,
    /// Damage at the start of the bearer's turn (L682).
    pub start_of_turn: Option<StatusDamage>,
    /// Damage each time the bearer moves into a space (BLEEDING, L674).
    pub per_move: Option<StatusDamage>,
    /// The bearer can't be healed (POISONED, L770); reviving still works.
    pub blocks_healing: bool,
    /// The bearer can't move by itself.
    pub blocks_moving: bool,
    /// The bearer can't attack or use cards.
    pub blocks_attacks: bool,
    /// A minion or Boss skips its move and attack; an Origin gains no AP.
    pub skips_turn: bool,
    /// Change to AP gained at the start of a combat turn.
    pub ap_gain: i32,
    /// Raises the AP maximum to this (HASTE: 10, L1574).
    pub max_ap: Option<u32>,
    pub physical_armor: i32,
    pub magical_armor: i32,
    /// Dice removed from each roll the bearer makes (a dice reduction, L1515).
    pub dice_reduction: u32,
    /// Extra hits on each attack and healing roll the bearer makes.
    pub extra_hits: u32,
    /// Minions and Bosses ignore the bearer when choosing targets (L1627).
    pub untargetable: bool,
    /// The party chooses this minion's target; enemies treat it as an Origin (L1735).
    pub dominated: bool,
}

/// Every status' rule; the file must cover every status of the book.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StatusRules(pub BTreeMap<Status, StatusRule>);

impl StatusRules {
    pub fn get(&self, s: Status) -> &StatusRule {
        &self.0[&s]
    }

    /// # Errors
    /// When a status of the book has no rule.
    pub fn validate(&self) -> Result<(), String> {
        for s in Status::ALL {
            if !self.0.contains_key(&s) {
                return Err(format!("status {s:?} has no rule"));
            }
        }
        Ok(())
    }
}
