//! Setting up a location for a party (L248-256): the Origins from the
//! options or the carried-over campaign, the map, the decks, and the
//! location's starting enemies.

use std::collections::BTreeSet;

use super::content::{Catalogue, ItemKind};
use super::cooldown::{Track, ORIGIN_TRACK};
use super::map::MapState;
use super::state::*;
use crate::rng::GameRng;
use crate::SetupError;

/// Mixed into the table seed for the item decks' shuffle.
const ITEM_DECK_STREAM: u64 = 0x1DEC_0F17_E55E_ED00;

/// Set up a location for a party (L248-256).
///
/// # Errors
/// Unknown location or Origin, a party of 0 or more than 4, two Origins
/// sharing a talent tile, or a level the Origins' cards don't have.
pub fn setup(cat: &Catalogue, options: &DivinityOptions, seed: u64) -> Result<DivinityState, SetupError> {
    let saved = options.campaign.clone();
    if saved.as_ref().is_some_and(|c| c.finished) {
        return Err(SetupError::new("this campaign is over"));
    }
    let location = options
        .location
        .clone()
        .or_else(|| saved.as_ref().map(|c| c.location.clone()))
        .unwrap_or_else(|| cat.campaign.first.clone());
    let loc = cat.locations.get(&location).ok_or_else(|| SetupError::new(format!("unknown location {location}")))?;
    let level = saved.as_ref().map_or(loc.level, |c| c.level);
    let party: Vec<OriginSave> = match &saved {
        Some(c) => c.origins.clone(),
        None => options
            .party
            .iter()
            .map(|id| {
                let d = cat.origins.get(id).ok_or_else(|| SetupError::new(format!("unknown Origin {id}")))?;
                Ok(OriginSave {
                    origin: id.clone(),
                    talents: d.talents.clone(),
                    skills: d.skills.clone(),
                    items: d.items.clone(),
                    collar_broken: false,
                    runes: Vec::new(),
                })
            })
            .collect::<Result<_, SetupError>>()?,
    };
    if party.is_empty() || party.len() > 4 {
        return Err(SetupError::new("a party is 1 to 4 Origins"));
    }
    if options.solo && party.len() != 2 {
        return Err(SetupError::new("Solo Mode is a 2-Origin setup (L1855)"));
    }
    if options.leader.is_some_and(|l| l as usize >= party.len()) {
        return Err(SetupError::new("the leader must be one of the party's seats"));
    }
    let mut names = BTreeSet::new();
    let mut tiles = BTreeSet::new();
    for p in &party {
        if !names.insert(p.origin.clone()) {
            return Err(SetupError::new(format!("{} is in the party twice", p.origin)));
        }
        for t in &p.talents {
            if !cat.talents.contains_key(t) {
                return Err(SetupError::new(format!("unknown talent {t}")));
            }
            if !tiles.insert(t.clone()) {
                return Err(SetupError::new(format!("only one tile of talent {t} exists (L561)")));
            }
        }
        for s in &p.skills {
            if !cat.skills.contains_key(s) {
                return Err(SetupError::new(format!("unknown skill {s}")));
            }
        }
        for i in &p.items {
            if !cat.items.contains_key(i) && !cat.runes.contains_key(i) {
                return Err(SetupError::new(format!("unknown item {i}")));
            }
        }
    }
    let start = loc.map.ix(&loc.start).expect("validated start space");
    let mut origins = Vec::new();
    for p in &party {
        let def = cat.origins.get(&p.origin).ok_or_else(|| SetupError::new(format!("unknown Origin {}", p.origin)))?;
        let card = def.at(level).ok_or_else(|| SetupError::new(format!("{} has no level-{level} card", p.origin)))?;
        let mut skills = p.skills.clone();
        if p.collar_broken {
            for s in &def.source_skills {
                if !skills.contains(s) {
                    skills.push(s.clone());
                }
            }
        }
        // Equip what fits, store the rest (L239, L1045: free at a new location).
        let mut equipped = Vec::new();
        let mut backpack = Vec::new();
        for i in &p.items {
            let mut with = equipped.clone();
            with.push(i.clone());
            if cat.items.get(i).is_some_and(|d| matches!(d.kind, ItemKind::Equipment(_))) && fits(cat, &with) {
                equipped = with;
            } else {
                backpack.push(i.clone());
            }
        }
        // Runes go back on their items if these are equipped again.
        let mut runes = Vec::new();
        for r in &p.runes {
            if !cat.runes.contains_key(&r.rune) {
                return Err(SetupError::new(format!("unknown rune {}", r.rune)));
            }
            if equipped.contains(&r.item) && !runes.iter().any(|a: &AttachedRune| a.item == r.item) {
                runes.push(r.clone());
            } else {
                backpack.push(r.rune.clone());
            }
        }
        if backpack.len() > BACKPACK {
            return Err(SetupError::new(format!("{} carries more than fits", p.origin)));
        }
        origins.push(OriginState {
            origin: p.origin.clone(),
            level,
            hp: card.hp,
            ap: 0,
            source: card.source,
            space: start,
            downed: false,
            track: Track::new(ORIGIN_TRACK),
            hand: skills.clone(),
            skills,
            talents: p.talents.clone(),
            talents_used: Vec::new(),
            equipped,
            backpack,
            summon: None,
            collar_broken: p.collar_broken,
            runes,
        });
    }
    let players = if options.solo { 2 } else { origins.len() };
    let time = if loc.time.unset { None } else { Some(loc.time.start[players - 1]) };
    let mut options = options.clone();
    if let Some(c) = &saved {
        options.unrestricted_talents = c.unrestricted_talents;
        options.honor_mode = c.honor_mode;
    }
    // The item decks are shuffled with their own stream of the table seed,
    // so that the rest of the match's dice do not depend on the catalogue.
    let carried: Vec<&String> = origins
        .iter()
        .flat_map(|o| o.equipped.iter().chain(&o.backpack).chain(o.runes.iter().map(|r| &r.rune)))
        .collect();
    let item_decks = item_decks(cat, &carried, &mut GameRng::from_seed(seed ^ ITEM_DECK_STREAM));
    Ok(DivinityState {
        options,
        rng: GameRng::from_seed(seed),
        location,
        level,
        origins,
        enemies: Vec::new(),
        next_enemy: 1,
        map: MapState::default(),
        deck: loc.cards.iter().map(|c| c.id.clone()).collect(),
        holding: Vec::new(),
        discard: Vec::new(),
        combat_stack: Vec::new(),
        stack_rounds: Default::default(),
        revealed: Vec::new(),
        time,
        time_paused: false,
        round: 1,
        round_kind: RoundKind::Explore,
        explored: BTreeSet::new(),
        phase: Phase::ChooseRound,
        choice: None,
        enemy_queue: Vec::new(),
        queue_fast: false,
        reaction: None,
        challenge: None,
        overflow: Vec::new(),
        item_decks,
        gold: saved.as_ref().map_or(0, |c| c.gold),
        journal: saved.as_ref().map_or(Vec::new(), |c| c.journal.clone()),
        found: saved.as_ref().map_or(Vec::new(), |c| c.found.clone()),
        used: Default::default(),
    })
}
