//! Damage types, armor, damage reduction, immunities, environment bonuses and
//! the UNDEAD inversion: what one instance of damage or healing does to one
//! target (L587-731, L1163-1176, L1479-1491).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    Physical,
    Air,
    Water,
    Fire,
    Earth,
    Poison,
    /// Ignores armor (L622).
    Direct,
}

impl DamageType {
    /// Elemental and poison damage are reduced by magical armor (L2182).
    pub fn is_magical(self) -> bool {
        matches!(self, DamageType::Air | DamageType::Water | DamageType::Fire | DamageType::Earth | DamageType::Poison)
    }
}

/// The one environment effect a space may carry (L1136-1176).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Environment {
    Charged,
    Wet,
    Warm,
    Oily,
    DifficultTerrain,
}

/// Extra damage an environment adds to the damage type it names.
pub const ENVIRONMENT_BONUS: u32 = 2;

impl Environment {
    /// The damage type this environment makes worse (quick reference L2241-2253).
    pub fn boosts(self) -> Option<DamageType> {
        match self {
            Environment::Charged => Some(DamageType::Air),
            Environment::Wet => Some(DamageType::Water),
            Environment::Warm => Some(DamageType::Fire),
            Environment::Oily => Some(DamageType::Earth),
            Environment::DifficultTerrain => None,
        }
    }
}

/// Everything about a target that changes the damage it takes: combined
/// armor from every source, type reductions, immunities and UNDEAD.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Defence {
    pub physical_armor: u32,
    pub magical_armor: u32,
    /// "Reduces X damage by n" (L642), stacking with armor.
    pub reduction: BTreeMap<DamageType, u32>,
    pub immune: BTreeSet<DamageType>,
    pub undead: bool,
}

impl Defence {
    pub fn armor_against(&self, ty: DamageType) -> u32 {
        match ty {
            DamageType::Physical => self.physical_armor,
            DamageType::Direct => 0,
            _ => self.magical_armor,
        }
    }
}

/// What happens to a target's HP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "amount")]
pub enum Harm {
    /// Immune, or armor took it all.
    Nothing,
    Damage(u32),
    Heal(u32),
}

/// One instance of `hits` damage of a type against a target standing in an
/// environment. Order (ASSUMPTIONS.md, "Damage pipeline"): immunity; UNDEAD
/// poison heals the raw total ignoring armor; the environment's +2 on a
/// non-zero total; armor; type reduction; clamp at 0.
pub fn harm(hits: u32, ty: DamageType, def: &Defence, env: Option<Environment>) -> Harm {
    if def.immune.contains(&ty) {
        return Harm::Nothing;
    }
    if def.undead && ty == DamageType::Poison {
        return if hits == 0 { Harm::Nothing } else { Harm::Heal(hits) };
    }
    let mut total = hits;
    if total > 0 && env.and_then(Environment::boosts) == Some(ty) {
        total += ENVIRONMENT_BONUS;
    }
    let reduced =
        total.saturating_sub(def.armor_against(ty)).saturating_sub(def.reduction.get(&ty).copied().unwrap_or(0));
    if reduced == 0 {
        Harm::Nothing
    } else {
        Harm::Damage(reduced)
    }
}

/// A healing effect of `amount`: heals, unless the target is UNDEAD and the
/// effect says it hurts the UNDEAD, in which case it is direct damage (L720).
pub fn healing(amount: u32, def: &Defence, damages_undead: bool) -> Harm {
    if def.undead && damages_undead {
        harm(amount, DamageType::Direct, def, None)
    } else if amount == 0 {
        Harm::Nothing
    } else {
        Harm::Heal(amount)
    }
}
