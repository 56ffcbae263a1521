//! The cards an Origin plays and carries: Origin cards, talents, skills,
//! items, runes and summons, as the content files spell them.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::divinity::attack::Attack;
use crate::divinity::damage::{DamageType, Defence, Environment};
use crate::divinity::status::Status;

/// Stats printed on one level of an Origin card (L475-489).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OriginLevel {
    pub hp: u32,
    pub ap: u32,
    pub level_bonus: u32,
    pub source: u32,
    pub talents: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OriginDef {
    pub id: String,
    pub name: String,
    /// Index 0 is level 1.
    pub levels: Vec<OriginLevel>,
    pub keywords: Vec<String>,
    /// The 0-AP special ability, as printed (L501-503).
    pub special_ability: String,
    /// What the special ability does (ours: the book gives none).
    #[serde(default)]
    pub ability: Option<SpecialAbility>,
    #[serde(default)]
    pub immune: BTreeSet<DamageType>,
    #[serde(default)]
    pub immune_statuses: BTreeSet<Status>,
    #[serde(default)]
    pub undead: bool,
    /// The starting kit of a new Origin (ASSUMPTIONS.md, "Origins").
    pub skills: Vec<String>,
    pub items: Vec<String>,
    pub talents: Vec<String>,
    /// The Origin's own Source skills, unlocked once its collar breaks (L909-915).
    #[serde(default)]
    pub source_skills: Vec<String>,
}

impl OriginDef {
    /// The stats printed for a level (1-based), if the Origin has it.
    pub fn at(&self, level: u32) -> Option<&OriginLevel> {
        self.levels.get((level as usize).checked_sub(1)?)
    }

    /// What the Origin's own immunities and UNDEAD keyword do to damage.
    pub fn defence(&self) -> Defence {
        Defence { immune: self.immune.clone(), undead: self.undead, ..Defence::default() }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum School {
    Aerotheurge,
    Hydrosophist,
    Pyrokinetic,
    Geomancer,
    Necromancer,
    Polymorph,
    Summoning,
    Scoundrel,
    Warfare,
    Duelist,
    Huntsman,
    TwoHanded,
    /// An Origin's own Source skills (L909).
    Source,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TalentDef {
    pub id: String,
    pub name: String,
    pub level: u32,
    /// Training talents unlock a school's advanced skills (L575).
    #[serde(default)]
    pub training: Option<School>,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub once_per_location: bool,
    /// Ongoing armor or damage reduction (most talents are text only).
    #[serde(default)]
    pub bonus: Bonus,
    /// A once-per-location talent that gives AP when flipped (up to the maximum).
    #[serde(default)]
    pub gain_ap: u32,
    /// Ongoing extra hits on this Origin's attacks, under a condition.
    #[serde(default)]
    pub extra_hits: Option<TalentHits>,
    /// Ongoing: statuses this Origin's attacks give go this many slots
    /// further right on the track (capped by the track, L688-692).
    #[serde(default)]
    pub status_extension: u8,
    /// Once per location, flipped by itself when the Origin's attack
    /// defeats an enemy: gain this much AP (up to the maximum).
    #[serde(default)]
    pub ap_on_kill: u32,
    /// Once per location, flipped by itself: a blow that would down the
    /// Origin leaves it on 1 HP instead.
    #[serde(default)]
    pub survive_downing: bool,
    /// A once-per-location talent that, when flipped, takes the card at the
    /// bottom of this deck (the last one used or discarded) into the backpack.
    #[serde(default)]
    pub recover_from: Option<ConsumableDeck>,
    /// Ongoing: the Origin's area cards reach this many spaces further.
    #[serde(default)]
    pub area_range: u32,
    /// Ongoing: this much more max HP.
    #[serde(default)]
    pub hp_bonus: u32,
    /// Ongoing: heal this much when the Origin's attack defeats an enemy.
    #[serde(default)]
    pub heal_on_kill: u32,
    /// Ongoing: when the Origin is downed, each enemy in its space takes
    /// this much fire damage.
    #[serde(default)]
    pub explode_on_downed: u32,
    /// A once-per-location talent that, when flipped, clears these statuses
    /// from the Origin's track.
    #[serde(default)]
    pub clears: Vec<Status>,
    pub text: String,
}

/// Extra hits a talent adds to its Origin's attacks (damaging ones only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TalentHits {
    pub hits: u32,
    /// Only while the Origin's HP is at its maximum.
    #[serde(default)]
    pub at_full_hp: bool,
    /// Only with damage of another type than physical.
    #[serde(default)]
    pub magical: bool,
}

/// Ongoing bonuses while a card is face up (skills, ongoing consumables) or
/// while an item is equipped.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bonus {
    pub physical_armor: u32,
    pub magical_armor: u32,
    pub reduction: BTreeMap<DamageType, u32>,
    pub keywords: Vec<String>,
}

impl Bonus {
    /// Add this bonus to a defence: armor and reductions from every source
    /// stack (L638, L642).
    pub fn add_to(&self, d: &mut Defence) {
        d.physical_armor += self.physical_armor;
        d.magical_armor += self.magical_armor;
        for (ty, n) in &self.reduction {
            *d.reduction.entry(*ty).or_insert(0) += n;
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillDef {
    pub id: String,
    pub name: String,
    pub school: School,
    pub level: u32,
    #[serde(default)]
    pub ap: u32,
    /// Source cost of a Source skill (L913).
    #[serde(default)]
    pub source: u32,
    /// Slot it goes to after use; 0 returns to hand at once (L786).
    pub cooldown: u8,
    /// Ongoing skills go face up and flip face down at this slot (L875).
    #[serde(default)]
    pub flip_at: Option<u8>,
    #[serde(default)]
    pub attack: Option<Attack>,
    /// Keyword it can lend to a challenge, going face down on 3 (L796-798).
    #[serde(default)]
    pub keyword: Option<String>,
    /// Needs an equipped item or summon with this keyword (L790).
    #[serde(default)]
    pub requires: Option<String>,
    #[serde(default)]
    pub summon: Option<String>,
    #[serde(default)]
    pub ongoing: Bonus,
    /// Attacks made with an equipped weapon's stats (L864).
    #[serde(default)]
    pub weapon: Option<WeaponAttacks>,
    /// While face up, physical attacks by Origins in the owner's space deal
    /// this type instead (auras, L883-887).
    #[serde(default)]
    pub aura: Option<DamageType>,
    /// Movement and teleport skills (L905-907).
    #[serde(default)]
    pub movement: Option<SkillMove>,
    /// While face up, an attack made outside the owner's turn when the
    /// trigger happens (L864).
    #[serde(default)]
    pub reaction: Option<Reaction>,
    pub text: String,
}

/// What sets a reaction off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactionTrigger {
    /// An enemy ends its move, on its own turn, in the owner's space.
    EnemyEndsMoveHere,
}

/// An ongoing skill's reaction (L864): when the trigger happens, attacks on
/// the enemy that set it off with an equipped weapon's stats and special
/// effects, at no AP, its per-round limit kept (L867).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    pub trigger: ReactionTrigger,
    pub weapon: WeaponAttacks,
    /// ★ is added to each roll.
    #[serde(default)]
    pub level_bonus: bool,
}

/// How often a special ability may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Per {
    Round,
    Location,
}

/// Who a special ability affects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityTarget {
    /// The Origin using it.
    User,
    /// An aimed Origin (the user too) in the user's space, not downed.
    Ally,
    /// Every standing Origin in the user's space.
    AlliesHere,
    /// An aimed enemy in the user's space.
    Enemy,
    /// An aimed minion (never a Boss) in the user's space.
    Minion,
}

/// One effect of a special ability, applied to each target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "do", deny_unknown_fields)]
pub enum AbilityEffect {
    Damage {
        amount: u32,
        #[serde(rename = "type")]
        ty: DamageType,
    },
    Heal {
        amount: u32,
    },
    Status {
        status: Status,
        cooldown: u8,
    },
    /// Clear every status from the target's track.
    Cleanse,
    /// AP up to the maximum (L1576).
    GainAp {
        amount: u32,
    },
    /// Put an environment effect on the user's space (L1140).
    Environment {
        environment: Environment,
    },
}

/// An Origin's 0-AP special ability (L501-503), used on its Combat turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialAbility {
    pub per: Per,
    pub target: AbilityTarget,
    pub effects: Vec<AbilityEffect>,
}

/// Who a movement skill moves (L905-907).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mover {
    /// The user moves to the aimed space (`Aim::Space`).
    User,
    /// The aimed figure (an ally or an enemy) is moved into the user's space;
    /// immovable ones can't be (L708, L1829).
    Target,
}

/// A skill that moves a figure up to `range` spaces along unlocked paths,
/// paying no AP for the spaces and ignoring DIFFICULT TERRAIN (L907, L1092, L1100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillMove {
    pub mover: Mover,
    pub range: u32,
}

/// "Make n attacks with an equipped weapon": its dice, type and specials,
/// ★ added to each roll, its AP not paid, its per-round limit kept (L864-867).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponAttacks {
    pub attacks: u32,
    pub slot: Slot,
    /// Only a melee (range 0) weapon will do.
    #[serde(default)]
    pub melee: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    Head,
    Chest,
    OneHand,
    TwoHands,
    Trinket,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsumableDeck {
    Scrolls,
    Potions,
    Grenades,
    Arrows,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum ItemKind {
    Equipment(Slot),
    Consumable(ConsumableDeck),
}

/// An item's action: an attack or effect roll for AP.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemAction {
    pub ap: u32,
    pub attack: Attack,
    /// "Once per round" style limits (L968).
    #[serde(default)]
    pub per_round: Option<u32>,
    /// Needs this keyword from equipment (arrows need BOW, ASSUMPTIONS.md).
    #[serde(default)]
    pub requires: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    pub id: String,
    pub name: String,
    pub kind: ItemKind,
    /// Equipment deck level; 0 for unique items.
    #[serde(default)]
    pub level: u32,
    /// Printed gold cost; unique items may have none.
    #[serde(default)]
    pub cost: Option<u32>,
    #[serde(default)]
    pub unique: bool,
    /// While equipped.
    #[serde(default)]
    pub bonus: Bonus,
    #[serde(default)]
    pub action: Option<ItemAction>,
    /// Ongoing consumables: face up on this slot, active while on the track (L999).
    #[serde(default)]
    pub ongoing_slot: Option<u8>,
    #[serde(default)]
    pub ongoing: Bonus,
    /// Revives a downed Origin with this much HP (Resurrection Scroll).
    #[serde(default)]
    pub revives: Option<u32>,
    /// Once per Combat round: reroll dice after an attack of this type (Copper Band).
    #[serde(default)]
    pub reroll_after: Option<DamageType>,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuneSide {
    /// The equipment slots this side fits.
    pub slot: Slot,
    #[serde(default)]
    pub bonus: Bonus,
    /// +n to every heal the owner receives.
    #[serde(default)]
    pub heal_bonus: u32,
    /// Attacks with the item deal this damage type.
    #[serde(default)]
    pub damage_type: Option<DamageType>,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuneDef {
    pub id: String,
    pub name: String,
    pub sides: [RuneSide; 2],
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummonDef {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub keywords: Vec<String>,
    pub action: ItemAction,
    pub text: String,
}
