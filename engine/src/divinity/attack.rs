//! Attack and effect rolls, resolved in the book's order (L1479-1483, L1535):
//! roll (with rerolls), count hits (rolled + bonus + ★ + extra), apply damage
//! or healing through armor, apply statuses, then environment effects.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::damage::{harm, healing, DamageType, Defence, Environment, Harm};
use super::dice::{DiceTable, Pool, Roll};
use super::status::Status;

/// "Apply STATUS on slot n".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatusGrant {
    pub status: Status,
    pub cooldown: u8,
}

/// Effects triggered by rolling specials (L1501).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OnSpecial {
    /// Extra hits: once if any special was rolled, or per special.
    pub extra_hits: u32,
    pub per_special: bool,
    pub statuses: Vec<StatusGrant>,
    pub environment: Option<Environment>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Targets {
    #[default]
    Single,
    /// Everyone in a space within range, except the attacker (L1544).
    Area,
}

/// What a roll does to its targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Outcome {
    Damage {
        damage_type: DamageType,
    },
    /// Healing; `damages_undead` when the card says it harms UNDEAD (L720).
    Heal {
        damages_undead: bool,
    },
}

/// The stats of an attack or effect roll (L1458-1473).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    /// Spaces along paths; 0 is melee (L1462).
    pub range: u32,
    #[serde(default)]
    pub targets: Targets,
    pub dice: Pool,
    #[serde(default)]
    pub bonus: u32,
    /// Adds the roller's level bonus ★ (L535).
    #[serde(default)]
    pub level_bonus: bool,
    pub outcome: Outcome,
    /// Statuses applied whatever is rolled.
    #[serde(default)]
    pub statuses: Vec<StatusGrant>,
    /// Statuses removed from each target.
    #[serde(default)]
    pub removes: Vec<Status>,
    #[serde(default)]
    pub environment: Option<Environment>,
    #[serde(default)]
    pub on_special: Option<OnSpecial>,
    /// Dice the roller may reroll once when the target is in their space (Poison Dart, L1519).
    #[serde(default)]
    pub reroll_in_space: u8,
}

impl Attack {
    pub fn damage_type(&self) -> Option<DamageType> {
        match self.outcome {
            Outcome::Damage { damage_type } => Some(damage_type),
            Outcome::Heal { .. } => None,
        }
    }
}

/// The counted result of a roll (step 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub hits: u32,
    pub specials: u32,
}

/// Step 2: rolled hits + bonus hits + ★ (when the attack shows it) + extra
/// hits from the attack's specials and other sources (`extra`).
pub fn count(a: &Attack, roll: &Roll, table: &DiceTable, level_bonus: u32, extra: u32) -> Count {
    let specials = roll.specials(table);
    let mut hits = roll.hits(table) + a.bonus + extra;
    if a.level_bonus {
        hits += level_bonus;
    }
    if let Some(s) = &a.on_special {
        if specials > 0 {
            hits += if s.per_special { s.extra_hits * specials } else { s.extra_hits };
        }
    }
    Count { hits, specials }
}

/// One target as the resolution sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Target {
    pub defence: Defence,
    /// The environment of the target's space.
    pub environment: Option<Environment>,
    pub immune_statuses: BTreeSet<Status>,
    /// Immune to KNOCKED DOWN (L708).
    pub immovable: bool,
    /// Downed Origins take no damage and can't be healed, but gain statuses (L747-752).
    pub downed: bool,
    /// A status that blocks healing is on the target (POISONED, L770).
    pub healing_blocked: bool,
}

/// Steps 3 and 4 for one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    pub harm: Harm,
    pub statuses: Vec<StatusGrant>,
    pub removes: Vec<Status>,
}

pub fn resolve(a: &Attack, c: Count, t: &Target) -> Effect {
    let h = match a.outcome {
        Outcome::Damage { damage_type } => harm(c.hits, damage_type, &t.defence, t.environment),
        Outcome::Heal { damages_undead } => healing(c.hits, &t.defence, damages_undead),
    };
    let h = match h {
        _ if t.downed => Harm::Nothing,
        Harm::Heal(_) if t.healing_blocked => Harm::Nothing,
        other => other,
    };
    let mut statuses: Vec<StatusGrant> = a.statuses.clone();
    if let Some(s) = &a.on_special {
        if c.specials > 0 {
            statuses.extend(s.statuses.iter().copied());
        }
    }
    statuses.retain(|g| !t.immune_statuses.contains(&g.status) && (!t.immovable || g.status != Status::KnockedDown));
    Effect { harm: h, statuses, removes: a.removes.clone() }
}

/// Step 5: the environment effect placed on the target space, if any.
pub fn environment(a: &Attack, c: Count) -> Option<Environment> {
    let special = a.on_special.as_ref().filter(|_| c.specials > 0).and_then(|s| s.environment);
    special.or(a.environment)
}
