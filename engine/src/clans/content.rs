//! The clans' cards, battlemaps and battlefields: data files under
//! `content/clans/`, compiled in and validated when first used.
//!
//! The rules page prints no card (facts §0.2 gap 1), so every card is ours,
//! built from a small effect vocabulary (facts C6): the engine implements the
//! vocabulary, the data combines it. Deck rules (L74-77) are checked here.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::grid::{Field, Terrain};

pub const CARDS_JSON: &str = include_str!("../../../content/clans/cards.json");
pub const MAPS_JSON: &str = include_str!("../../../content/clans/battlemaps.json");

/// A card's stable id (`"sc_god"`): unique within the whole catalogue.
pub type CardId = String;

/// An ally class, printed above its abilities (L115). Stealth and defense are
/// named by the page (L43), Ranged is defined by Range 2+ (L109); warrior and
/// mystic are ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Stealth,
    Defense,
    Ranged,
    Warrior,
    Mystic,
}

/// The two statuses of the core set (L107).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatusKind {
    /// Sacred Cross: SPD at most 1, 1 damage at the start of every turn (L107).
    Break,
    /// Crimson Nobles: +2 on the hit, 2 damage at the start of every turn (L107).
    Poison,
}

impl StatusKind {
    /// The damage a status adds to the hit that applies it and deals at the
    /// start of every player's turn (L107, C11).
    pub fn damage(self) -> i32 {
        match self {
            StatusKind::Break => 1,
            StatusKind::Poison => 2,
        }
    }
}

/// A stat that items, equipment and auras raise (L37: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Atk,
    Spd,
    Range,
}

/// When an ability may be used (L91, L105).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// (PT): only in its owner's turn, as the ally's action.
    Pt,
    /// (OT): only in an opponent's turn, in a response window (C10).
    Ot,
    /// Always in effect, costs 0 SP (L105).
    Permanent,
}

/// The effect vocabulary of ally abilities (C6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    /// Strikes first in combat (L101). Permanent.
    Initiative,
    /// Hits back from any range when attacked (L103). Permanent.
    CounterAnyRange,
    /// ATK + `bonus` to an enemy within Range, plus the status' damage and
    /// the status itself (L9, L107). No counter-attack (C9).
    Strike {
        #[serde(default)]
        bonus: i32,
        #[serde(default)]
        status: Option<StatusKind>,
    },
    /// Fixed damage to an enemy within `range` steps.
    Bolt {
        damage: i32,
        range: i32,
        #[serde(default)]
        status: Option<StatusKind>,
    },
    /// Heals a figure of the user's team within `range` (never above max).
    Heal { amount: i32, range: i32 },
    /// Removes both statuses from a figure of the user's team within `range` (L107).
    Cure { range: i32 },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ability {
    pub name: String,
    pub timing: Timing,
    #[serde(default)]
    pub sp: i32,
    pub effect: Effect,
}

/// A Divine Spirit's rare ability (L105): the owner's other allies within
/// `radius` get `+amount` to `stat` while the Spirit is on the field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Aura {
    pub stat: Stat,
    pub amount: i32,
    pub radius: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ally {
    /// The star (L5): no rule effect.
    pub rank: u8,
    pub class: Class,
    pub hp: i32,
    pub atk: i32,
    pub spd: i32,
    pub range: i32,
    /// Summoning cost (L5, L93); 0 for the God, which starts on the field.
    pub sp: i32,
    /// EXP its defeat earns the opponent (L7, L89).
    pub exp: i32,
    #[serde(default)]
    pub god: bool,
    #[serde(default)]
    pub spirit: bool,
    /// Exactly 2 (L5, L99).
    pub abilities: Vec<Ability>,
    #[serde(default)]
    pub aura: Option<Aura>,
}

impl Ally {
    pub fn has(&self, f: impl Fn(&Effect) -> bool) -> bool {
        self.abilities.iter().any(|a| a.timing == Timing::Permanent && f(&a.effect))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Equipment {
    pub sp: i32,
    pub exp: i32,
    /// SP gained when assimilated instead (L27).
    pub assimilate: i32,
    /// Healed once when first equipped, never above max (L23).
    #[serde(default)]
    pub hp: i32,
    #[serde(default)]
    pub atk: i32,
    #[serde(default)]
    pub spd: i32,
    #[serde(default)]
    pub range: i32,
}

/// How long an item's boost lasts (L39, L111).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Lasts {
    /// Until the ally has taken its turn (the default, L39).
    #[default]
    Activation,
    /// Until the end of the player's turn.
    Turn,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemEffect {
    /// On one of the user's figures, never above max (L35).
    Heal { amount: i32 },
    /// On one of the user's figures; no limit (L37).
    Boost {
        stat: Stat,
        amount: i32,
        #[serde(default)]
        lasts: Lasts,
    },
    /// On any enemy on the field.
    Damage {
        amount: i32,
        #[serde(default)]
        status: Option<StatusKind>,
    },
    /// On one of the user's figures that has a status (L107).
    Cure,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub sp: i32,
    pub exp: i32,
    pub effect: ItemEffect,
}

/// A runic art (L41-49): one ally of each listed class, each within its own
/// Range of the target, none having acted; one of them casts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunicArt {
    pub sp: i32,
    pub exp: i32,
    pub classes: [Class; 2],
    pub damage: i32,
    #[serde(default)]
    pub status: Option<StatusKind>,
}

/// The terrain effects of the vocabulary (L53, L67, L117, L135).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainEffect {
    /// Mountains passable; entering one ends the move; +1 ATK in combat on one (L53).
    ClimbMountains,
    /// Water passable, with the forest's -1 SPD after landing (L67, L69).
    WalkOnWater,
    /// No forest penalty; every step still costs 1 (L135-136).
    ForestStride,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TerrainCard {
    pub sp: i32,
    pub exp: i32,
    pub effect: TerrainEffect,
}

/// The 6 card types (L73).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Kind {
    Ally(Ally),
    Homebase,
    Equipment(Equipment),
    Item(Item),
    RunicArt(RunicArt),
    Terrain(TerrainCard),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub id: CardId,
    pub name: String,
    #[serde(flatten)]
    pub kind: Kind,
}

impl Card {
    pub fn ally(&self) -> Option<&Ally> {
        match &self.kind {
            Kind::Ally(a) => Some(a),
            _ => None,
        }
    }
}

/// A pre-built deck (L79).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clan {
    pub id: String,
    pub name: String,
    /// The status this clan introduces (L107).
    pub status: StatusKind,
    pub cards: Vec<Card>,
}

/// A 4×4 battlemap design with its two faces, rows top to bottom, one
/// letter per tile: G ground, F forest, W water, M mountain (C2, C3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battlemap {
    pub id: String,
    pub faces: [Vec<String>; 2],
}

/// One battlemap on a side: its design and which face is up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    pub map: String,
    pub face: usize,
}

/// A fixed battlefield: the first seat's side as 2 rows of 3 battlemaps
/// (front row first); the other side is its point reflection (C3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battlefield {
    pub id: String,
    pub name: String,
    pub side: [[Slot; 3]; 2],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Maps {
    battlemap_size: usize,
    battlemaps: Vec<Battlemap>,
    battlefields: Vec<Battlefield>,
}

/// Everything in the box.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    pub clans: Vec<Clan>,
    pub battlemap_size: usize,
    pub battlemaps: Vec<Battlemap>,
    pub battlefields: Vec<Battlefield>,
}

impl Catalogue {
    /// The shipped content, parsed and validated once.
    ///
    /// # Panics
    /// If the shipped content is invalid (a test checks it is not).
    pub fn standard() -> &'static Catalogue {
        static CAT: OnceLock<Catalogue> = OnceLock::new();
        CAT.get_or_init(|| {
            let cat = Catalogue::parse(CARDS_JSON, MAPS_JSON).expect("content/clans parses");
            cat.validate().expect("content/clans is valid");
            cat
        })
    }

    /// # Errors
    /// When a file does not parse.
    pub fn parse(cards: &str, maps: &str) -> Result<Catalogue, String> {
        #[derive(Deserialize)]
        struct Cards {
            clans: Vec<Clan>,
        }
        let c: Cards = serde_json::from_str(cards).map_err(|e| format!("cards.json: {e}"))?;
        let m: Maps = serde_json::from_str(maps).map_err(|e| format!("battlemaps.json: {e}"))?;
        Ok(Catalogue {
            clans: c.clans,
            battlemap_size: m.battlemap_size,
            battlemaps: m.battlemaps,
            battlefields: m.battlefields,
        })
    }

    pub fn clan(&self, id: &str) -> Option<&Clan> {
        self.clans.iter().find(|c| c.id == id)
    }

    pub fn card(&self, id: &str) -> Option<&Card> {
        self.clans.iter().flat_map(|c| &c.cards).find(|c| c.id == id)
    }

    pub fn battlefield(&self, id: &str) -> Option<&Battlefield> {
        self.battlefields.iter().find(|b| b.id == id)
    }

    /// # Errors
    /// The first deck rule (L74-77, L5) or map rule (L61, C2) broken.
    pub fn validate(&self) -> Result<(), String> {
        let mut ids = BTreeSet::new();
        for clan in &self.clans {
            validate_deck(clan)?;
            for card in &clan.cards {
                if !ids.insert(card.id.as_str()) {
                    return Err(format!("card id {} used twice", card.id));
                }
            }
        }
        for m in &self.battlemaps {
            for face in &m.faces {
                if face.len() != self.battlemap_size
                    || face
                        .iter()
                        .any(|r| r.len() != self.battlemap_size || r.chars().any(|c| Terrain::from_letter(c).is_none()))
                {
                    return Err(format!("battlemap {} is not {n}×{n} of G/F/W/M", m.id, n = self.battlemap_size));
                }
            }
        }
        for b in &self.battlefields {
            for four in [false, true] {
                let field = self.field(b, four)?;
                if !field.connected(&[]) {
                    // L61: "make sure nothing is blocked off".
                    return Err(format!("battlefield {}: not every passable tile can be reached (L61)", b.id));
                }
            }
        }
        Ok(())
    }
}

/// The page's deck rules, each with its line.
///
/// # Errors
/// The rule broken, in words.
pub fn validate_deck(clan: &Clan) -> Result<(), String> {
    let n = &clan.name;
    if clan.cards.len() > 30 {
        return Err(format!("{n}: a deck cannot have more than 30 cards (L74)"));
    }
    let names: BTreeSet<&str> = clan.cards.iter().map(|c| c.name.as_str()).collect();
    if names.len() != clan.cards.len() {
        return Err(format!("{n}: card copies are not allowed (L75)"));
    }
    let allies = || clan.cards.iter().filter_map(Card::ally);
    if allies().filter(|a| a.god).count() != 1 {
        // L76 says at most 1; L5 and L87 put a God on the field: exactly 1.
        return Err(format!("{n}: a deck has exactly 1 God card (L76, L5)"));
    }
    if allies().filter(|a| a.spirit).count() > 1 {
        return Err(format!("{n}: only 1 Divine Spirit card (L77)"));
    }
    if clan.cards.iter().filter(|c| c.kind == Kind::Homebase).count() != 1 {
        return Err(format!("{n}: a deck has its one homebase card (L15, L73)"));
    }
    for a in allies() {
        if a.abilities.len() != 2 {
            return Err(format!("{n}: every ally has 2 special abilities (L5, L99)"));
        }
        for ab in &a.abilities {
            let permanent = matches!(ab.effect, Effect::Initiative | Effect::CounterAnyRange);
            if permanent != (ab.timing == Timing::Permanent) || (permanent && ab.sp != 0) {
                return Err(format!("{n}: {}: initiative and any-range counters are permanent, 0 SP (L105)", ab.name));
            }
        }
        if a.hp <= 0 || a.spd < 0 || a.range < 1 {
            return Err(format!("{n}: every ally has HP, SPD and Range (L5)"));
        }
    }
    Ok(())
}

impl Catalogue {
    /// Build a battlefield from its data: the first seat's side of 2×3
    /// battlemaps, the other side its point reflection (C2, C3). With `four`,
    /// two such fields side by side, one team on each long half (L81, C2).
    ///
    /// # Errors
    /// When a battlemap is unknown or a face missing.
    pub fn field(&self, bf: &Battlefield, four: bool) -> Result<Field, String> {
        let cat = self;
        let n = cat.battlemap_size as i32;
        let (w, h) = (3 * n, 4 * n);
        let mut half = vec![Terrain::Ground; (w * h) as usize];
        for (row, slots) in bf.side.iter().enumerate() {
            for (col, slot) in slots.iter().enumerate() {
                let map = cat
                    .battlemaps
                    .iter()
                    .find(|m| m.id == slot.map)
                    .ok_or_else(|| format!("battlefield {}: no battlemap {}", bf.id, slot.map))?;
                let face = map.faces.get(slot.face).ok_or_else(|| format!("battlemap {} has 2 faces", map.id))?;
                for (ty, line) in face.iter().enumerate() {
                    for (tx, c) in line.chars().enumerate() {
                        let t = Terrain::from_letter(c).ok_or_else(|| format!("battlemap {}: bad tile {c}", map.id))?;
                        // The first seat's side is the bottom half; its front
                        // row of battlemaps touches the middle line.
                        let x = col as i32 * n + tx as i32;
                        let y = 2 * n + row as i32 * n + ty as i32;
                        half[(y * w + x) as usize] = t;
                        // Point reflection for the other side.
                        half[((h - 1 - y) * w + (w - 1 - x)) as usize] = t;
                    }
                }
            }
        }
        if !four {
            return Ok(Field { width: w, height: h, tiles: half, four });
        }
        let mut tiles = Vec::with_capacity((2 * w * h) as usize);
        for y in 0..h {
            for _ in 0..2 {
                tiles.extend_from_slice(&half[(y * w) as usize..((y + 1) * w) as usize]);
            }
        }
        Ok(Field { width: 2 * w, height: h, tiles, four })
    }
}
