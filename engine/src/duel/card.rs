//! The card catalogue: Alpha Creation cards, Divine Intervention cards and the
//! effect vocabulary their powers are written in. Cards are data
//! (`content/duel/cards.json`); the engine interprets the vocabulary, so a new
//! card is usually a data change.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

/// A card's stable id (`"shadow_ranger"`).
pub type CardId = std::sync::Arc<str>;

/// The four kinds of Alpha Creation card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Genus,
    Ability,
    Equipment,
    Spell,
}

/// Terrain of a hex. Plains is a hex with no tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    #[default]
    Plains,
    Hill,
    Water,
    Crater,
}

impl Terrain {
    /// Height level: hill high (2), plains and water medium (1), crater low (0).
    pub fn level(self) -> i8 {
        match self {
            Terrain::Hill => 2,
            Terrain::Plains | Terrain::Water => 1,
            Terrain::Crater => 0,
        }
    }
}

/// Melee (e), ranged (n) or magical (g).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Melee,
    Ranged,
    Magical,
}

/// The green r: a power may target only at a distance in `min..=max`.
/// Written `2` (exactly 2) or `[1, 2]` in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RangeRepr", into = "RangeRepr")]
pub struct Range {
    pub min: u32,
    pub max: u32,
}

impl Range {
    pub fn contains(self, d: u32) -> bool {
        (self.min..=self.max).contains(&d)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum RangeRepr {
    Exactly(u32),
    Between([u32; 2]),
}

impl TryFrom<RangeRepr> for Range {
    type Error = String;
    fn try_from(r: RangeRepr) -> Result<Self, String> {
        let (min, max) = match r {
            RangeRepr::Exactly(n) => (n, n),
            RangeRepr::Between([a, b]) => (a, b),
        };
        if min == 0 || min > max {
            return Err(format!("bad range {min}-{max}"));
        }
        Ok(Range { min, max })
    }
}

impl From<Range> for RangeRepr {
    fn from(r: Range) -> Self {
        if r.min == r.max {
            RangeRepr::Exactly(r.min)
        } else {
            RangeRepr::Between([r.min, r.max])
        }
    }
}

/// Attack value modifiers ("+N" on a card), by attack type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Modifiers {
    pub melee: i32,
    pub ranged: i32,
    pub magical: i32,
}

impl Modifiers {
    pub fn get(&self, kind: AttackKind) -> i32 {
        match kind {
            AttackKind::Melee => self.melee,
            AttackKind::Ranged => self.ranged,
            AttackKind::Magical => self.magical,
        }
    }
}

/// Physical (7) and magical (6) armor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Armor {
    pub physical: u32,
    pub magical: u32,
}

/// The cost of a triggered power: any combination of m, a, c, plus a life
/// sacrifice. Written `"a+c"`, `"m"`, `"a+l2"` (sacrifice 2 life), `""` (free).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cost {
    pub m: bool,
    pub a: bool,
    pub c: bool,
    /// Life sacrificed from the acting unit's own Alpha (Necromantic Gauntlets).
    pub life: u32,
}

impl TryFrom<String> for Cost {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let mut c = Cost::default();
        for part in s.split('+').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "m" => c.m = true,
                "a" => c.a = true,
                "c" => c.c = true,
                p if p.starts_with('l') => {
                    c.life = p[1..].parse().map_err(|_| format!("bad life cost {p:?}"))?;
                }
                p => return Err(format!("unknown cost part {p:?} (use m, a, c or lN)")),
            }
        }
        Ok(c)
    }
}

impl From<Cost> for String {
    fn from(c: Cost) -> String {
        let mut v: Vec<String> = Vec::new();
        if c.m {
            v.push("m".into());
        }
        if c.a {
            v.push("a".into());
        }
        if c.c {
            v.push("c".into());
        }
        if c.life > 0 {
            v.push(format!("l{}", c.life));
        }
        v.join("+")
    }
}

/// Which units a power may pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    #[default]
    Any,
    Enemy,
    Friendly,
}

/// What a power or a Divine Intervention targets. The choices themselves are
/// given in the action that uses it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Targeting {
    /// No target: the effects concern the activated unit (or nothing).
    Itself,
    /// One unit. `owned`: only a unit its caster owns, even if controlled by
    /// someone else (Polymorph Self).
    Unit {
        #[serde(default)]
        side: Side,
        #[serde(default)]
        owned: bool,
    },
    /// One hex.
    Hex {
        #[serde(default)]
        empty: bool,
    },
    /// Up to `count` distinct hexes (DIs only).
    Hexes { count: u32 },
    /// A connected body of water, named by one of its hexes (DIs only).
    WaterBody,
    /// A relic, named by its hex (DIs only).
    Relic,
}

/// How long a condition marker stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// Removed at the caster's next upkeep step (Levitate).
    YourNextUpkeep,
    /// Removed with the DI that placed it when its duration cubes run out.
    DiDuration,
    /// Removed at the end of the current turn.
    EndOfTurn,
}

/// A condition marker on a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// The unit is a flying unit.
    Flying,
    /// The unit is not flying, whatever its powers say (Rain Burst).
    Grounded,
    /// The unit may not spend its m (Paralyzing Venom).
    Immobile,
    /// The unit may spend neither m nor a (Paralysis).
    Paralyzed,
    /// The unit loses no life, from any cause (Stasis Field).
    Stasis,
    /// Added to attacks of `kind` (every kind when absent).
    AttackBonus {
        #[serde(default)]
        kind: Option<AttackKind>,
        amount: i32,
    },
    /// Extra armor.
    ArmorBonus {
        #[serde(default)]
        physical: u32,
        #[serde(default)]
        magical: u32,
    },
}

/// A terrain-changing effect either names the terrain or lets the player choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainTo {
    Plains,
    Hill,
    Water,
    Crater,
    /// The player names any terrain in the action.
    Choose,
}

/// The effect vocabulary. Each effect is applied to the power's target (a unit
/// or a hex) unless it says otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// An attack on the target unit. `radius > 0`: every other unit within
    /// that distance of the target is attacked as well (Fire Strike).
    /// `no_height`: no height bonus (Earthquake).
    Attack {
        kind: AttackKind,
        value: i32,
        #[serde(default)]
        radius: u32,
        #[serde(default)]
        no_height: bool,
    },
    /// The target unit's Alpha loses life, armor does not count.
    LoseLife { amount: u32 },
    /// Heals the activated unit's own Alpha (`target: false`) or the target
    /// unit's Alpha (`target: true`). Never above its maximum.
    Heal {
        amount: u32,
        #[serde(default)]
        target: bool,
    },
    /// The target hex becomes `to`; a non-flying occupant loses
    /// `occupant_loses` (Mining Tools' fall). Drowning and flooding apply.
    SetTerrain {
        to: TerrainTo,
        #[serde(default)]
        occupant_loses: u32,
    },
    /// Every hex adjacent to the target hex becomes `to` (Raise Earth).
    SetTerrainAround { to: TerrainTo },
    /// Each chosen hex becomes water (Flood).
    Flood,
    /// The chosen body of water grows by at most one hex next to each of its
    /// hexes (Tsunami; the book's Flood clarification).
    GrowWater,
    /// Forced movement of the target unit, up to `distance` hexes in the chosen
    /// direction, with crush, fall and drowning.
    ForceMove { distance: u32 },
    /// The target unit moves to a chosen empty hex within `distance`, passing
    /// any terrain and cliffs, spending nothing and losing no life.
    Teleport { distance: u32 },
    /// Puts a condition marker on the target unit, or with `radius` on every
    /// unit of `side` within that distance of the activated unit.
    Mark {
        condition: Condition,
        until: Until,
        #[serde(default)]
        radius: Option<u32>,
        #[serde(default)]
        side: Side,
    },
    /// The target unit comes under the caster's control until the end of the
    /// turn: it may be activated by the controller if it has not activated yet.
    Control,
    /// The activated unit gains one more a this activation (Item).
    ExtraAction,
    /// The target unit gains one more m this turn (Time Warp).
    ExtraMove,
    /// Summon a unit of the activated unit's Alpha on an empty hex next to it,
    /// paid by the controller (Banner of Summoning, Undead Horde).
    SummonCopy,
    /// A relic moves to an adjacent hex (Shift Relic); golden rule 2 holds.
    ShiftRelic,
    /// Removes every condition marker from the target unit and ends every
    /// lasting Divine Intervention on it.
    Dispel,
}

/// Special targeting rules that do not fit the common checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialRule {
    /// Target on a non-plains hex; the caster next to a hex of that terrain; a
    /// connected path of that terrain joins them; line of sight required.
    Earthquake,
}

/// A power on an Alpha Creation card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Power {
    pub name: String,
    pub cost: Cost,
    pub target: Targeting,
    pub effects: Vec<Effect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<SpecialRule>,
}

/// A power that is always on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Passive {
    /// The unit is a flying unit.
    Flying,
    /// Moves into and through water like plains and never drowns.
    WaterWalker,
    /// The basic same-level m may move up to 2 hexes.
    Swift,
    /// A single m may also climb up or down one level.
    Climber,
    /// Never moves (not even forced or teleported) and never holds a relic; absolute.
    Rooted,
    /// May be summoned on any empty hex, not only a summoning hex.
    DeployAnywhere,
    /// The Alpha heals `amount` at its owner's upkeep, however many units it has.
    Regeneration { amount: u32 },
    /// When a unit of this Alpha dies, every unit next to it loses `amount`.
    ExplosiveGenes { amount: u32 },
    /// A unit attacked during a turn only by Weapon Lore units suffers 1 more damage.
    WeaponLore,
}

/// An Alpha Creation card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcCard {
    pub id: CardId,
    pub name: String,
    pub kind: CardKind,
    /// Creation points: the card's share of the summoning cost.
    pub cost: u32,
    /// Life points counted in the Alpha's pool.
    #[serde(default)]
    pub life: u32,
    /// A "+N" life value: shown on the card, ignored for the pool.
    #[serde(default)]
    pub life_plus: u32,
    /// Green hands: hands this card makes available.
    #[serde(default)]
    pub hands: u32,
    /// Red hands: hands this card needs.
    #[serde(default)]
    pub needs_hands: u32,
    /// Spell points (the book's "Magic Points").
    #[serde(default)]
    pub spell_points: u32,
    #[serde(default)]
    pub range: Option<Range>,
    #[serde(default)]
    pub modifiers: Modifiers,
    #[serde(default)]
    pub armor: Armor,
    /// Single-use cubes this card gets each time a unit of its Alpha is summoned.
    #[serde(default)]
    pub cubes_per_summon: u32,
    #[serde(default)]
    pub passives: Vec<Passive>,
    #[serde(default)]
    pub powers: Vec<Power>,
    pub text: String,
}

/// A Divine Intervention card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiCard {
    pub id: CardId,
    pub name: String,
    pub divine_points: u32,
    /// Turns the effect lasts (duration cubes); 0 = resolves at once.
    #[serde(default)]
    pub duration: u32,
    pub target: Targeting,
    pub effects: Vec<Effect>,
    pub text: String,
}

/// A named preset: three Alphas and a DI stack, for a first game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    pub id: String,
    pub name: String,
    pub alphas: Vec<Vec<CardId>>,
    pub di_stack: Vec<CardId>,
    /// Summoning cost of each Alpha as the book prints it, where it does.
    #[serde(default)]
    pub book_costs: Vec<Option<u32>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    ac_cards: Vec<AcCard>,
    divine_interventions: Vec<DiCard>,
    basic_powers: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetFile {
    presets: Vec<Preset>,
}

/// Every card of one player's set, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    pub ac: BTreeMap<CardId, AcCard>,
    pub di: BTreeMap<CardId, DiCard>,
    /// The four texts of the Basic Powers card.
    pub basic_powers: Vec<String>,
    pub presets: Vec<Preset>,
    /// `ac` and `di` again, hashed: the rules look a card up by id many
    /// times per unit (armor, flying, relics) and a B-tree of strings was a
    /// tenth of the server's CPU. The maps above keep their sorted order for
    /// whoever iterates them.
    fast_ac: HashMap<CardId, AcCard, BuildHasherDefault<Fnv>>,
    fast_di: HashMap<CardId, DiCard, BuildHasherDefault<Fnv>>,
}

/// FNV-1a: fast for the short ids of cards; the ids are our own content,
/// so no hash flooding is possible.
#[derive(Debug, Clone, Copy)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A content file did not load.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("content: {0}")]
pub struct ContentError(pub String);

/// The standard set, compiled in from `content/duel/`.
pub const CARDS_JSON: &str = include_str!("../../../content/duel/cards.json");
pub const PRESETS_JSON: &str = include_str!("../../../content/duel/presets.json");

impl Catalogue {
    /// The standard catalogue. Panics only if the shipped content is broken,
    /// which the content tests rule out.
    pub fn standard() -> &'static Catalogue {
        use std::sync::OnceLock;
        static CAT: OnceLock<Catalogue> = OnceLock::new();
        CAT.get_or_init(|| Catalogue::from_json(CARDS_JSON, PRESETS_JSON).expect("shipped duel content is valid"))
    }

    /// Parse and validate a catalogue.
    ///
    /// # Errors
    /// Any malformed card, duplicate id, or preset naming an unknown card.
    pub fn from_json(cards: &str, presets: &str) -> Result<Catalogue, ContentError> {
        let file: CatalogueFile = serde_json::from_str(cards).map_err(|e| ContentError(format!("cards.json: {e}")))?;
        let pf: PresetFile = serde_json::from_str(presets).map_err(|e| ContentError(format!("presets.json: {e}")))?;
        let mut ac = BTreeMap::new();
        let mut names = BTreeSet::new();
        for card in file.ac_cards {
            validate_ac(&card)?;
            if !names.insert(card.name.clone()) {
                return Err(ContentError(format!("duplicate card name {}", card.name)));
            }
            if ac.insert(card.id.clone(), card.clone()).is_some() {
                return Err(ContentError(format!("duplicate card id {}", card.id)));
            }
        }
        let mut di = BTreeMap::new();
        for card in file.divine_interventions {
            validate_di(&card)?;
            if !names.insert(card.name.clone()) {
                return Err(ContentError(format!("duplicate card name {}", card.name)));
            }
            if di.insert(card.id.clone(), card.clone()).is_some() {
                return Err(ContentError(format!("duplicate DI id {}", card.id)));
            }
        }
        if file.basic_powers.len() != 4 {
            return Err(ContentError("the Basic Powers card has 4 powers".into()));
        }
        for p in &pf.presets {
            for id in p.alphas.iter().flatten() {
                if !ac.contains_key(id) {
                    return Err(ContentError(format!("preset {}: unknown card {id}", p.id)));
                }
            }
            for id in &p.di_stack {
                if !di.contains_key(id) {
                    return Err(ContentError(format!("preset {}: unknown DI {id}", p.id)));
                }
            }
        }
        let fast_ac = ac.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let fast_di = di.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        Ok(Catalogue { ac, di, basic_powers: file.basic_powers, presets: pf.presets, fast_ac, fast_di })
    }

    pub fn card(&self, id: &str) -> Option<&AcCard> {
        self.fast_ac.get(id)
    }

    pub fn di_card(&self, id: &str) -> Option<&DiCard> {
        self.fast_di.get(id)
    }

    pub fn preset(&self, id: &str) -> Option<&Preset> {
        self.presets.iter().find(|p| p.id == id)
    }

    /// Number of AC cards of a kind.
    pub fn count(&self, kind: CardKind) -> usize {
        self.ac.values().filter(|c| c.kind == kind).count()
    }
}

fn validate_ac(card: &AcCard) -> Result<(), ContentError> {
    let err = |m: &str| Err(ContentError(format!("card {}: {m}", card.id)));
    if card.id.is_empty() || card.name.is_empty() {
        return err("empty id or name");
    }
    for p in &card.powers {
        let targets_something = !matches!(p.target, Targeting::Itself);
        if targets_something && card.range.is_none() {
            return err(&format!("power {:?} targets something but the card has no range", p.name));
        }
        if matches!(p.target, Targeting::Hexes { .. } | Targeting::WaterBody | Targeting::Relic) {
            return err("hexes / water body / relic targets are for Divine Interventions");
        }
        if p.cost.c && card.cubes_per_summon == 0 {
            return err(&format!("power {:?} costs c but the card never gets cubes", p.name));
        }
        if p.effects.is_empty() {
            return err(&format!("power {:?} has no effect", p.name));
        }
        if !push_is_last(&p.effects) {
            return err(&format!("power {:?}: a force_move must be its last effect", p.name));
        }
    }
    Ok(())
}

/// A push may halt for the other seat's relic choice and resumes only the
/// push itself, so nothing may come after it.
fn push_is_last(effects: &[Effect]) -> bool {
    effects.iter().rev().skip(1).all(|e| !matches!(e, Effect::ForceMove { .. }))
}

fn validate_di(card: &DiCard) -> Result<(), ContentError> {
    let err = |m: &str| Err(ContentError(format!("DI {}: {m}", card.id)));
    if card.divine_points == 0 || card.divine_points > 8 {
        return err("divine points must be 1..=8");
    }
    if card.effects.is_empty() {
        return err("no effect");
    }
    if !push_is_last(&card.effects) {
        return err("a force_move must be its last effect");
    }
    let marks_for_duration = card.effects.iter().any(|e| matches!(e, Effect::Mark { until: Until::DiDuration, .. }));
    if marks_for_duration && card.duration == 0 {
        return err("marks until its duration ends but has no duration");
    }
    Ok(())
}
