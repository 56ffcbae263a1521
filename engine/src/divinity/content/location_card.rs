//! A location as data: its map, deck of location cards and their scenario
//! vocabulary, time track, Bosses, journal cards and the campaign.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::TargetRule;
use super::*;
use crate::divinity::attack::Attack;
use crate::divinity::damage::{DamageType, Environment};
use crate::divinity::dice::Colour;
use crate::divinity::map::{MapDef, MapIndex};
use crate::divinity::status::Status;

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
    /// What the party is here to do and what happens when time runs out,
    /// in words (the book leaves it to each location's page: ASSUMPTIONS.md).
    pub goal: String,
    pub map: MapDef,
    /// Starting space id (L255).
    pub start: String,
    pub time: TimeTrackDef,
    /// The location deck, in order (L253).
    pub cards: Vec<LocationCard>,
    /// `map` as indices, built on first use: not content, so not loaded.
    #[serde(skip)]
    index: MapIndexCell,
}

/// A location's [`MapIndex`], once built. Derived from the map, so it
/// never makes two locations unequal; a copy starts empty and builds its
/// own, so a copied catalogue whose map is then edited is read right.
#[derive(Debug, Default)]
struct MapIndexCell(OnceLock<MapIndex>);

impl Clone for MapIndexCell {
    fn clone(&self) -> Self {
        MapIndexCell::default()
    }
}

impl PartialEq for MapIndexCell {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for MapIndexCell {}

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

    /// The map's space ids and paths as indices, worked out once.
    ///
    /// # Panics
    /// A map that fails [`MapDef::validate`].
    pub fn map_index(&self) -> &MapIndex {
        let ix = self.index.0.get_or_init(|| MapIndex::new(&self.map));
        debug_assert!(ix.matches(&self.map), "location {}: map edited after its index was built", self.id);
        ix
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
