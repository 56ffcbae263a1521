//! The catalogue: every Divinity card as data (`content/divinity/*.json`),
//! parsed and validated once. The engine interprets the vocabulary defined
//! here; a new item, skill, minion or location is a data change.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::attack::Attack;
use super::damage::{DamageType, Defence, Environment};
use super::dice::{Colour, DiceTable};
use super::map::MapDef;
use super::minion::{MinionCard, TargetRule};
use super::status::{Status, StatusRules};

/// A content file is malformed or inconsistent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("divinity content: {0}")]
pub struct ContentError(pub String);

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

/// Who an effect of a location card applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The Origins resolving the card (or the one whose challenge result it is).
    #[default]
    Group,
    Party,
}

/// How many of a minion row spawn for 1-4 players, on each track (L1216).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnCount {
    pub fast: u8,
    pub slow: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnRow {
    pub minion: String,
    #[serde(default)]
    pub veteran: bool,
    /// Space id on the map.
    pub space: String,
    /// Index 0 is 1 player.
    pub counts: [SpawnCount; 4],
}

/// The scenario vocabulary of location cards (L1150-1158, L1259-1263).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "do", deny_unknown_fields)]
pub enum CardEffect {
    /// Spawn minion rows top to bottom (L1216-1247); the card joins the active combat stack.
    Spawn {
        rows: Vec<SpawnRow>,
    },
    SpawnBoss {
        boss: String,
    },
    Gold {
        amount: u32,
    },
    /// A specific reward: a unique item, rune or named card (L1030).
    Item {
        item: String,
    },
    Rune {
        rune: String,
    },
    /// A generic reward drawn at random from a deck (L1031).
    RandomItem {
        level: u32,
    },
    RandomConsumable {
        deck: ConsumableDeck,
    },
    /// Put a key token on the path between two spaces (L1094).
    Key {
        a: String,
        b: String,
    },
    /// Place another card from the deck on a space (L1261).
    PlaceCard {
        card: String,
        space: String,
    },
    /// Place this card on a space (L1260).
    PlaceSelf {
        space: String,
    },
    /// Resolve another card if it is still in the deck (L1259).
    Resolve {
        card: String,
    },
    Journal {
        card: u32,
    },
    /// Exit to a location (L1278); optional exits may wait in the holding area.
    Exit {
        to: String,
        #[serde(default)]
        level_up: bool,
        #[serde(default)]
        optional: bool,
    },
    Damage {
        amount: u32,
        #[serde(rename = "type")]
        ty: DamageType,
        #[serde(default)]
        who: Who,
    },
    Heal {
        amount: u32,
        #[serde(default)]
        who: Who,
    },
    Status {
        status: Status,
        cooldown: u8,
        #[serde(default)]
        who: Who,
    },
    Environment {
        space: String,
        environment: Environment,
    },
    SetTime {
        space: u32,
    },
    PauseTime,
    ResumeTime,
    /// Put this card back in the deck instead of discarding it (L1263).
    ReturnToDeck,
    /// Break the Source collars of the group (story reward).
    BreakCollar {
        #[serde(default)]
        who: Who,
    },
    /// A forced restart of the location (L1332).
    Restart,
    /// A conditional effect: `then` if the condition holds, else `otherwise`
    /// (journal symbols steer the story, L1318; keywords, gold).
    If {
        condition: Condition,
        #[serde(default)]
        then: Vec<CardEffect>,
        #[serde(default)]
        otherwise: Vec<CardEffect>,
    },
    /// Force Origins to move to a space (L750, L1438); downed Origins of the
    /// group move with it.
    Move {
        space: String,
        #[serde(default)]
        who: Who,
    },
}

/// A condition of a conditional location-card effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "check", deny_unknown_fields)]
pub enum Condition {
    /// The journal envelope holds this card (L1316).
    Journal { card: u32 },
    /// The journal envelope holds at least `count` cards with this symbol (L1318).
    Symbol { symbol: String, count: u32 },
    /// Any of the Origins (group or party) has this keyword (L14).
    Keyword {
        keyword: String,
        #[serde(default)]
        who: Who,
    },
    /// The stash holds at least this much gold.
    Gold { amount: u32 },
    /// The party pays this much gold if the stash holds it (the condition
    /// holds and the gold is spent); otherwise nothing is paid.
    Pay { amount: u32 },
}

impl CardEffect {
    /// This effect and every effect nested in it.
    pub fn walk(&self) -> Vec<&CardEffect> {
        let mut out = vec![self];
        if let CardEffect::If { then, otherwise, .. } = self {
            for e in then.iter().chain(otherwise) {
                out.extend(e.walk());
            }
        }
        out
    }
}

/// A bonus die for meeting a condition (L1182).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusDie {
    #[serde(default)]
    pub keyword: Option<String>,
    /// At least this many Origins in the space.
    #[serde(default)]
    pub origins_present: Option<u32>,
    pub colour: Colour,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rollers {
    /// Each Origin in the space rolls separately.
    #[default]
    Each,
    /// The group chooses one Origin to roll.
    One,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeResult {
    /// Applies to totals of at least this many hits (the highest row that fits).
    pub min_hits: u32,
    pub effects: Vec<CardEffect>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    #[serde(default)]
    pub rollers: Rollers,
    #[serde(default)]
    pub bonus: Vec<BonusDie>,
    /// Keywords that allow an automatic success (L1198).
    #[serde(default)]
    pub auto: Vec<String>,
    /// On the back of the card.
    pub results: Vec<ChallengeResult>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationCard {
    /// `"1"`, `"3b"` or an event letter `"A"`.
    pub id: String,
    /// The numbered space it is revealed at; none for events and placed cards.
    #[serde(default)]
    pub space: Option<u32>,
    pub text: String,
    #[serde(default)]
    pub effects: Vec<CardEffect>,
    #[serde(default)]
    pub challenge: Option<Challenge>,
    /// May wait in the holding area (L307).
    #[serde(default)]
    pub holdable: bool,
    /// For cards placed on the map (L1261).
    #[serde(default)]
    pub when_explored: Vec<CardEffect>,
    /// Back of a combat card (L1751).
    #[serde(default)]
    pub victory: Vec<CardEffect>,
    #[serde(default)]
    pub defeat: Vec<CardEffect>,
    /// Special conditions that end the combat at once while the card is in
    /// the active combat stack, any one of them (L1745); its victory
    /// effects then resolve (L1751).
    #[serde(default)]
    pub ends_when: Vec<CombatEnd>,
}

/// A special condition on a combat card that ends the combat (L1745). The
/// book gives the rule but no card texts: this small set is ours
/// (ASSUMPTIONS.md, "Special end of combat").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "when", deny_unknown_fields)]
pub enum CombatEnd {
    /// The party has survived this many Combat rounds with the card in the
    /// active stack: checked at the end of each Combat round.
    Rounds { rounds: u32 },
    /// No minion of this kind (or the Boss with this id), which the card
    /// spawns, is left on the map: the leader has fallen.
    Defeated { enemy: String },
    /// A standing Origin is in this space.
    Reach { space: String },
}

/// The time track of a location (L1296-1310).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeTrackDef {
    /// Spaces 1..=length; the last holds the end-of-scenario event.
    pub length: u32,
    /// Starting space for 1, 2, 3 and 4 players (L254).
    pub start: [u32; 4],
    /// Timed events: space → card letter.
    #[serde(default)]
    pub events: BTreeMap<u32, String>,
    /// The end-of-scenario event card (L429).
    pub end: String,
    /// The setup says not to set the tracker: no time limit until a card
    /// sets it (L1308-1310).
    #[serde(default)]
    pub unset: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationDef {
    pub id: String,
    pub name: String,
    pub level: u32,
    pub intro: String,
    pub map: MapDef,
    /// Starting space id (L255).
    pub start: String,
    pub time: TimeTrackDef,
    /// The location deck, in order (L253).
    pub cards: Vec<LocationCard>,
}

impl LocationDef {
    /// Every exit any card of the deck can resolve: (destination, level up).
    pub fn exits(&self) -> Vec<(&str, bool)> {
        let mut out = Vec::new();
        for c in &self.cards {
            let mut all: Vec<&CardEffect> =
                c.effects.iter().chain(&c.when_explored).chain(&c.victory).chain(&c.defeat).collect();
            if let Some(ch) = &c.challenge {
                all.extend(ch.results.iter().flat_map(|r| &r.effects));
            }
            for e in all.into_iter().flat_map(|e| e.walk()) {
                if let CardEffect::Exit { to, level_up, .. } = e {
                    out.push((to.as_str(), *level_up));
                }
            }
        }
        out
    }

    pub fn card(&self, id: &str) -> Option<&LocationCard> {
        self.cards.iter().find(|c| c.id == id)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BossTactic {
    pub id: String,
    /// Printed on the back (L1795).
    pub ap: u32,
    pub cooldown: u8,
    /// Attack tactics choose targets by this rule, move, then attack (L1811).
    #[serde(default)]
    pub targeting: Option<TargetRule>,
    #[serde(default)]
    pub movement: u32,
    #[serde(default)]
    pub attack: Option<Attack>,
    /// Special tactic: heal the Boss.
    #[serde(default)]
    pub heal: u32,
    /// Special tactic: the Boss clears every status from its track.
    #[serde(default)]
    pub removes_statuses: bool,
    /// Special tactic: spawn minions (rows as on location cards; `space` is a map space id).
    #[serde(default)]
    pub spawn: Vec<SpawnRow>,
    /// Ongoing tactic: goes on cooldown face up and gives this while face up (L1803, L1823).
    #[serde(default)]
    pub ongoing: Option<Bonus>,
    #[serde(default)]
    pub flip_at: Option<u8>,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BossDef {
    pub id: String,
    pub name: String,
    /// Max HP for 1-4 players.
    pub hp: [u32; 4],
    pub ap: u32,
    #[serde(default)]
    pub physical_armor: u32,
    #[serde(default)]
    pub magical_armor: u32,
    #[serde(default)]
    pub immune: BTreeSet<DamageType>,
    #[serde(default)]
    pub immune_statuses: BTreeSet<Status>,
    pub fast: bool,
    pub space: String,
    pub tactics: Vec<BossTactic>,
    pub special_rules: String,
}

/// A journal card (L1312-1318): the symbols steer the story.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalCard {
    pub id: u32,
    pub symbol: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignDef {
    pub name: String,
    /// The first location of a new campaign.
    pub first: String,
    pub locations: Vec<String>,
    /// Leaving to this "location" ends the campaign.
    pub finale: String,
}

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

macro_rules! content {
    ($f:literal) => {
        include_str!(concat!("../../../content/divinity/", $f))
    };
}

const LOCATIONS: [&str; 5] = [
    content!("locations/tutorial.json"),
    content!("locations/shipwreck.json"),
    content!("locations/fort_joy.json"),
    content!("locations/hollow_marshes.json"),
    content!("locations/temple.json"),
];

fn parse<T: for<'de> Deserialize<'de>>(name: &str, text: &str) -> Result<T, ContentError> {
    serde_json::from_str(text).map_err(|e| ContentError(format!("{name}: {e}")))
}

fn by_id<T>(items: Vec<T>, id: impl Fn(&T) -> &str, what: &str) -> Result<BTreeMap<String, T>, ContentError> {
    let mut out = BTreeMap::new();
    for it in items {
        let k = id(&it).to_string();
        if out.insert(k.clone(), it).is_some() {
            return Err(ContentError(format!("duplicate {what} {k}")));
        }
    }
    Ok(out)
}

/// A combat card's special end condition must be one the card can meet:
/// rounds to survive, an enemy the card itself always spawns (at every
/// player count), a space of the map.
fn check_combat_end(l: &LocationDef, c: &LocationCard, end: &CombatEnd) -> Result<(), String> {
    match end {
        CombatEnd::Rounds { rounds: 0 } => Err("survive 0 rounds".into()),
        CombatEnd::Rounds { .. } => Ok(()),
        CombatEnd::Defeated { enemy } => {
            let spawned = c.effects.iter().chain(&c.when_explored).any(|e| match e {
                CardEffect::Spawn { rows } => {
                    rows.iter().any(|r| &r.minion == enemy && r.counts.iter().all(|n| n.fast + n.slow > 0))
                }
                CardEffect::SpawnBoss { boss } => boss == enemy,
                _ => false,
            });
            if spawned {
                Ok(())
            } else {
                Err(format!("the card does not spawn {enemy} at every player count"))
            }
        }
        CombatEnd::Reach { space } => l.map.ix(space).map(|_| ()).ok_or(format!("unknown space {space}")),
    }
}

impl Catalogue {
    /// The shipped content, parsed once.
    pub fn standard() -> &'static Catalogue {
        static CAT: OnceLock<Catalogue> = OnceLock::new();
        CAT.get_or_init(|| Catalogue::load().expect("shipped divinity content is valid"))
    }

    /// # Errors
    /// Any malformed file, duplicate id or dangling reference.
    pub fn load() -> Result<Catalogue, ContentError> {
        let dice: DiceTable = parse("dice.json", content!("dice.json"))?;
        dice.validate().map_err(ContentError)?;
        let statuses: StatusRules = parse("statuses.json", content!("statuses.json"))?;
        statuses.validate().map_err(ContentError)?;
        let cat = Catalogue {
            dice,
            statuses,
            minions: by_id(parse::<Vec<MinionCard>>("minions.json", content!("minions.json"))?, |m| &m.id, "minion")?,
            origins: by_id(parse::<Vec<OriginDef>>("origins.json", content!("origins.json"))?, |m| &m.id, "origin")?,
            talents: by_id(parse::<Vec<TalentDef>>("talents.json", content!("talents.json"))?, |m| &m.id, "talent")?,
            skills: by_id(parse::<Vec<SkillDef>>("skills.json", content!("skills.json"))?, |m| &m.id, "skill")?,
            items: by_id(parse::<Vec<ItemDef>>("items.json", content!("items.json"))?, |m| &m.id, "item")?,
            runes: by_id(parse::<Vec<RuneDef>>("runes.json", content!("runes.json"))?, |m| &m.id, "rune")?,
            summons: by_id(parse::<Vec<SummonDef>>("summons.json", content!("summons.json"))?, |m| &m.id, "summon")?,
            bosses: by_id(parse::<Vec<BossDef>>("bosses.json", content!("bosses.json"))?, |m| &m.id, "boss")?,
            locations: by_id(
                LOCATIONS.iter().map(|t| parse::<LocationDef>("location", t)).collect::<Result<Vec<_>, _>>()?,
                |m| &m.id,
                "location",
            )?,
            journal: by_id(
                parse::<Vec<JournalCard>>("journal.json", content!("journal.json"))?
                    .into_iter()
                    .map(|j| (j.id.to_string(), j))
                    .collect(),
                |(k, _)| k,
                "journal card",
            )?
            .into_values()
            .map(|(_, j)| (j.id, j))
            .collect(),
            campaign: parse("campaign.json", content!("campaign.json"))?,
        };
        cat.validate()?;
        Ok(cat)
    }

    /// Every cross-reference and every constraint the book puts on content.
    ///
    /// # Errors
    /// The first dangling reference or broken constraint, in words.
    pub fn validate(&self) -> Result<(), ContentError> {
        self.validate_people().map_err(ContentError)?;
        self.validate_locations().map_err(ContentError)?;
        self.validate_campaign().map_err(ContentError)
    }

    fn validate_people(&self) -> Result<(), String> {
        let mut starting_talents = BTreeSet::new();
        for o in self.origins.values() {
            let first = o.levels.first().ok_or(format!("origin {} has no levels", o.id))?;
            for s in &o.skills {
                let sk = self.skills.get(s).ok_or(format!("origin {}: unknown skill {s}", o.id))?;
                if sk.level != 1 || sk.school == School::Source {
                    return Err(format!("origin {}: starting skill {s} is not a level-1 school skill", o.id));
                }
                if let Some(k) = &sk.requires {
                    let has = o.items.iter().any(|i| self.items.get(i).is_some_and(|it| it.bonus.keywords.contains(k)));
                    if !has {
                        return Err(format!(
                            "origin {}: starting skill {s} needs {k} and no starting item gives it",
                            o.id
                        ));
                    }
                }
            }
            for s in &o.source_skills {
                let sk = self.skills.get(s).ok_or(format!("origin {}: unknown Source skill {s}", o.id))?;
                if sk.school != School::Source || sk.source == 0 {
                    return Err(format!("origin {}: {s} is not a Source skill", o.id));
                }
            }
            for s in &o.items {
                if !self.items.contains_key(s) {
                    return Err(format!("origin {}: unknown item {s}", o.id));
                }
            }
            if o.talents.len() != first.talents as usize {
                return Err(format!(
                    "origin {}: starts with {} talents, its card shows {}",
                    o.id,
                    o.talents.len(),
                    first.talents
                ));
            }
            for s in &o.talents {
                let t = self.talents.get(s).ok_or(format!("origin {}: unknown talent {s}", o.id))?;
                if t.level > 1 {
                    return Err(format!("origin {}: starting talent {s} is above level 1", o.id));
                }
                // One tile of each talent (L561): starting kits never collide.
                if !starting_talents.insert(s.clone()) {
                    return Err(format!("talent {s} starts with two Origins"));
                }
            }
        }
        for o in self.origins.values() {
            if let Some(a) = &o.ability {
                if a.effects.is_empty() {
                    return Err(format!("origin {}: a special ability with no effect", o.id));
                }
                for e in &a.effects {
                    let bad = match e {
                        AbilityEffect::Damage { amount, .. }
                        | AbilityEffect::Heal { amount }
                        | AbilityEffect::GainAp { amount } => *amount == 0,
                        AbilityEffect::Status { cooldown, .. } => *cooldown == 0,
                        _ => false,
                    };
                    if bad {
                        return Err(format!("origin {}: a special ability effect of 0", o.id));
                    }
                }
            }
        }
        let trained: BTreeSet<School> = self.talents.values().filter_map(|t| t.training).collect();
        for s in self.skills.values() {
            if let Some(m) = &s.summon {
                if !self.summons.contains_key(m) {
                    return Err(format!("skill {}: unknown summon {m}", s.id));
                }
            }
            if s.weapon.is_some() && s.attack.is_some() {
                return Err(format!("skill {}: attacks with a weapon or with its own stats, not both", s.id));
            }
            if let Some(r) = &s.reaction {
                let other = s.attack.is_some() || s.weapon.is_some() || s.movement.is_some() || s.summon.is_some();
                if s.flip_at.is_none() || other || r.weapon.attacks == 0 {
                    return Err(format!("skill {}: a reaction is an ongoing skill of 1+ weapon attacks only", s.id));
                }
            }
            if s.aura.is_some() && s.flip_at.is_none() {
                return Err(format!("skill {}: an aura is an ongoing skill", s.id));
            }
            if s.flip_at.is_some_and(|f| f >= s.cooldown) {
                return Err(format!("skill {}: flips at or above its cooldown slot", s.id));
            }
            if let Some(m) = &s.movement {
                if m.range == 0 || s.attack.is_some() || s.weapon.is_some() || s.summon.is_some() {
                    return Err(format!("skill {}: a movement skill moves 1+ spaces and does nothing else", s.id));
                }
            }
            if (s.school == School::Source) != (s.source > 0) {
                return Err(format!("skill {}: Source skills, and only they, cost Source", s.id));
            }
            if s.level >= 3 && s.school != School::Source && !trained.contains(&s.school) {
                return Err(format!("skill {}: advanced, but its school has no training talent", s.id));
            }
        }
        for t in self.talents.values() {
            let flipped = t.gain_ap > 0
                || t.ap_on_kill > 0
                || t.survive_downing
                || t.recover_from.is_some()
                || !t.clears.is_empty();
            if flipped && !t.once_per_location {
                return Err(format!("talent {}: an effect used by flipping needs once_per_location", t.id));
            }
        }
        for i in self.items.values() {
            match i.kind {
                ItemKind::Equipment(_) if i.ongoing_slot.is_some() => {
                    return Err(format!("item {}: only consumables go on the track", i.id))
                }
                ItemKind::Consumable(_) if i.unique => return Err(format!("item {}: unique consumable", i.id)),
                _ => {}
            }
        }
        for m in self.minions.values() {
            if m.veteran.hp < m.standard.hp || m.veteran.level != m.standard.level {
                return Err(format!("minion {}: the Veteran side must be the harder side of the same minion", m.id));
            }
        }
        for b in self.bosses.values() {
            if b.tactics.is_empty() {
                return Err(format!("boss {} has no tactics", b.id));
            }
            if b.hp.windows(2).any(|w| w[0] > w[1]) {
                return Err(format!("boss {}: HP must not fall with more players", b.id));
            }
            let ids: BTreeSet<&str> = b.tactics.iter().map(|t| t.id.as_str()).collect();
            if ids.len() != b.tactics.len() {
                return Err(format!("boss {}: duplicate tactic id", b.id));
            }
            for t in &b.tactics {
                if t.targeting.is_some() != t.attack.is_some() {
                    return Err(format!(
                        "boss {} tactic {}: an attack tactic has a targeting rule and an attack",
                        b.id, t.id
                    ));
                }
                let special = t.heal > 0 || t.removes_statuses || !t.spawn.is_empty() || t.ongoing.is_some();
                if t.attack.is_none() && !special {
                    return Err(format!("boss {} tactic {}: does nothing", b.id, t.id));
                }
                if t.flip_at.is_some() != t.ongoing.is_some() || t.flip_at.is_some_and(|f| f >= t.cooldown) {
                    return Err(format!("boss {} tactic {}: an ongoing tactic flips below its slot", b.id, t.id));
                }
                for r in &t.spawn {
                    if !self.minions.contains_key(&r.minion) {
                        return Err(format!("boss {} tactic {}: unknown minion {}", b.id, t.id, r.minion));
                    }
                }
            }
        }
        Ok(())
    }

    fn validate_locations(&self) -> Result<(), String> {
        for l in self.locations.values() {
            let at = |m: String| format!("location {}: {m}", l.id);
            l.map.validate().map_err(at)?;
            if l.map.ix(&l.start).is_none() {
                return Err(at("unknown start space".into()));
            }
            let t = &l.time;
            if t.length == 0 || t.start.iter().any(|&s| s == 0 || s >= t.length) {
                return Err(at("time track starts outside it".into()));
            }
            if t.events.keys().any(|&s| s == 0 || s >= t.length) {
                return Err(at("timed event outside the track (the last space holds the end event)".into()));
            }
            let ids: BTreeSet<&str> = l.cards.iter().map(|c| c.id.as_str()).collect();
            if ids.len() != l.cards.len() {
                return Err(at("duplicate card id".into()));
            }
            for id in t.events.values().chain(std::iter::once(&t.end)) {
                let card = l.card(id).ok_or(at(format!("event card {id} missing")))?;
                // Events resolve at the end of a round, for the whole party:
                // they carry no challenge (ASSUMPTIONS.md, "Locations").
                if card.challenge.is_some() || card.space.is_some() {
                    return Err(at(format!("event card {id} has a challenge or a space")));
                }
            }
            for c in &l.cards {
                if let Some(n) = c.space {
                    let ix = l.map.by_number(n).ok_or(at(format!("card {}: no space #{n}", c.id)))?;
                    if l.map.spaces[ix].locked {
                        return Err(at(format!("card {}: locked space #{n} is found by placing a card", c.id)));
                    }
                }
                let mut all: Vec<&CardEffect> =
                    c.effects.iter().chain(&c.when_explored).chain(&c.victory).chain(&c.defeat).collect();
                if let Some(ch) = &c.challenge {
                    if ch.results.first().map(|r| r.min_hits) != Some(0) {
                        return Err(at(format!("card {}: the challenge has no result for 0 hits", c.id)));
                    }
                    if ch.results.windows(2).any(|w| w[0].min_hits >= w[1].min_hits) {
                        return Err(at(format!("card {}: challenge results out of order", c.id)));
                    }
                    all.extend(ch.results.iter().flat_map(|r| &r.effects));
                }
                let all: Vec<&CardEffect> = all.into_iter().flat_map(|e| e.walk()).collect();
                let spawns = all.iter().any(|e| matches!(e, CardEffect::Spawn { .. } | CardEffect::SpawnBoss { .. }));
                if !spawns && (!c.victory.is_empty() || !c.defeat.is_empty() || !c.ends_when.is_empty()) {
                    return Err(at(format!("card {}: victory/defeat/ends_when on a card that spawns no enemy", c.id)));
                }
                for end in &c.ends_when {
                    check_combat_end(l, c, end).map_err(|m| at(format!("card {}: ends_when: {m}", c.id)))?;
                }
                for eff in all {
                    self.check_effect(l, &ids, eff).map_err(|m| at(format!("card {}: {m}", c.id)))?;
                }
            }
        }
        Ok(())
    }

    fn validate_campaign(&self) -> Result<(), String> {
        let c = &self.campaign;
        if self.locations.contains_key(&c.finale) {
            return Err("the finale is not a location".into());
        }
        for l in c.locations.iter().chain(std::iter::once(&c.first)) {
            if !self.locations.contains_key(l) {
                return Err(format!("campaign: unknown location {l}"));
            }
        }
        let max_level = self.locations.values().map(|l| l.level).max().unwrap_or(1);
        for o in self.origins.values() {
            if (o.levels.len() as u32) < max_level {
                return Err(format!("origin {} has no card for level {max_level}", o.id));
            }
        }
        // A location's level is the party's level there (L531): exits that
        // level up lead one level higher, the others to the same level.
        for l in self.locations.values() {
            for (to, level_up) in l.exits() {
                if let Some(next) = self.locations.get(to) {
                    if next.level != l.level + u32::from(level_up) {
                        return Err(format!("exit {} -> {to}: level {} does not follow", l.id, next.level));
                    }
                }
            }
        }
        Ok(())
    }

    /// A keyword some Origin, talent, item, rune or summon can give.
    fn known_keyword(&self, k: &str) -> bool {
        let k = k.to_string();
        self.origins.values().any(|o| o.keywords.contains(&k))
            || self.talents.values().any(|t| t.keywords.contains(&k))
            || self.items.values().any(|i| i.bonus.keywords.contains(&k))
            || self.runes.values().any(|r| r.sides.iter().any(|s| s.bonus.keywords.contains(&k)))
            || self.summons.values().any(|s| s.keywords.contains(&k))
    }

    /// A keyword a skill or consumable gives for one condition (L796).
    fn temporary_keyword(&self, k: &str) -> bool {
        self.skills.values().any(|s| s.keyword.as_deref() == Some(k))
            || self
                .items
                .values()
                .any(|i| matches!(i.kind, ItemKind::Consumable(_)) && i.bonus.keywords.iter().any(|x| x == k))
    }

    fn check_effect(&self, l: &LocationDef, ids: &BTreeSet<&str>, eff: &CardEffect) -> Result<(), String> {
        let space = |s: &str| l.map.ix(s).map(|_| ()).ok_or(format!("unknown space {s}"));
        match eff {
            CardEffect::Spawn { rows } => {
                for r in rows {
                    space(&r.space)?;
                    if !self.minions.contains_key(&r.minion) {
                        return Err(format!("unknown minion {}", r.minion));
                    }
                }
            }
            CardEffect::SpawnBoss { boss } => {
                let b = self.bosses.get(boss).ok_or(format!("unknown boss {boss}"))?;
                space(&b.space)?;
                for r in b.tactics.iter().flat_map(|t| &t.spawn) {
                    space(&r.space)?;
                }
            }
            CardEffect::Item { item } if !self.items.contains_key(item) => return Err(format!("unknown item {item}")),
            CardEffect::Rune { rune } if !self.runes.contains_key(rune) => return Err(format!("unknown rune {rune}")),
            CardEffect::Key { a, b } => {
                let found =
                    l.map.paths.iter().any(|p| p.locked && ((&p.a == a && &p.b == b) || (&p.a == b && &p.b == a)));
                if !found {
                    return Err(format!("no locked path {a}-{b}"));
                }
            }
            CardEffect::PlaceCard { card, space: s } => {
                space(s)?;
                if !ids.contains(card.as_str()) {
                    return Err(format!("unknown card {card}"));
                }
            }
            CardEffect::PlaceSelf { space: s } | CardEffect::Environment { space: s, .. } => space(s)?,
            CardEffect::Resolve { card } if !ids.contains(card.as_str()) => return Err(format!("unknown card {card}")),
            CardEffect::Exit { to, .. } if !self.locations.contains_key(to) && to != &self.campaign.finale => {
                return Err(format!("unknown exit {to}"))
            }
            CardEffect::Journal { card } if !self.journal.contains_key(card) => {
                return Err(format!("unknown journal card {card}"))
            }
            CardEffect::RandomItem { level } => {
                let any = self
                    .items
                    .values()
                    .any(|i| i.level == *level && !i.unique && matches!(i.kind, ItemKind::Equipment(_)));
                if !any {
                    return Err(format!("no level-{level} equipment deck"));
                }
            }
            CardEffect::RandomConsumable { deck }
                if !self.items.values().any(|i| i.kind == ItemKind::Consumable(*deck)) =>
            {
                return Err(format!("empty {deck:?} deck"));
            }
            CardEffect::SetTime { space: n } if *n == 0 || *n >= l.time.length => {
                return Err(format!("time space {n} is off the track"))
            }
            CardEffect::Status { cooldown: 0, .. } => return Err("a status on slot 0".into()),
            CardEffect::Move { space: s, .. } => {
                let ix = l.map.ix(s).ok_or(format!("unknown space {s}"))?;
                if l.map.spaces[ix].tactical() {
                    return Err(format!("forced move into tactical space {s}"));
                }
            }
            CardEffect::If { condition, then, otherwise } => {
                if then.is_empty() && otherwise.is_empty() {
                    return Err("a condition with no effect".into());
                }
                match condition {
                    Condition::Journal { card } if !self.journal.contains_key(card) => {
                        return Err(format!("condition on unknown journal card {card}"))
                    }
                    Condition::Symbol { symbol, count } => {
                        let held = self.journal.values().filter(|j| &j.symbol == symbol).count() as u32;
                        if *count == 0 || held < *count {
                            return Err(format!("condition on {count} {symbol} journal cards (the deck has {held})"));
                        }
                    }
                    Condition::Keyword { keyword, .. } if !self.known_keyword(keyword) => {
                        return Err(format!("condition on unknown keyword {keyword}"))
                    }
                    // L796 would let a skill or consumable with the keyword
                    // be played here; card conditions are checked with no
                    // pause for that choice, so none may name such a keyword.
                    Condition::Keyword { keyword, .. } if self.temporary_keyword(keyword) => {
                        return Err(format!("condition on {keyword}, which a skill or consumable gives (L796)"))
                    }
                    Condition::Gold { amount: 0 } | Condition::Pay { amount: 0 } => {
                        return Err("a gold condition of 0".into())
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        Ok(())
    }
}
