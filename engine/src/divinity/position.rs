//! A position at a location, set up directly as data: rulebook examples,
//! puzzles and tests start from one instead of playing up to it and then
//! poking the state's fields.
//!
//! A [`Position`] names a location and a party, and says where the match
//! stands: between rounds with no enemy on the map (`explore`: the party is
//! about to choose Explore or Rest, as when a location starts), or in a
//! Combat round (`combat`: the Origins' step, every standing Origin still to
//! take its turn; the round's FAST step is over). It may name a location
//! card the party `reveal`s on its way there: every Origin travels to the
//! card's space, the group reveals the card and resolves it, as at the
//! table, so the card's spawns, its place on the combat stack and the dice
//! spent on the way are those of a real game. What the position says about
//! each Origin and enemy is then put in place; whatever it leaves out is
//! what the start (and the reveal) gave.
//!
//! [`Position::build`] checks the position the way a game would: unknown
//! Origins, minions, Bosses, spaces, items, skills; HP above a figure's
//! maximum; AP above [`MAX_AP`]; a backpack over [`BACKPACK`]; more than
//! [`MAX_MINIONS`] minions; equipment that does not fit; an item no deck has
//! a copy of. A refusal is a [`SetupError`] whose message names the part of
//! the position at fault.
//!
//! Enemy rolls and ties: a position plays like a "quiet" table by default
//! (`reroll_enemy_rolls` and `party_breaks_ties` both false): enemy rolls
//! land at once and the lowest seat is taken among equals, so enemy turns
//! run through without asking the party. The reveal on the way is always
//! played that way; the options are set afterwards.
//!
//! Positions serialise to JSON (absent fields take their defaults) and
//! have a small builder for tests:
//!
//! ```
//! use athlas_engine::divinity::position::Position;
//! let s = Position::combat("tutorial", &["ifan", "sebille"])
//!     .reveal("2")
//!     .origin(0, |o| o.hp(5).ap(3))
//!     .minion("darkhans_lackey", |e| e.hp(4).space("1"))
//!     .build(7)
//!     .unwrap();
//! assert_eq!(s.origins[0].hp, 5);
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::attack::StatusGrant;
use super::content::{Catalogue, ItemKind};
use super::cooldown::Track;
use super::event::DivinityEvent;
use super::state::*;
use super::status::Status;
use super::{Divinity, DivinityAction as A};
use crate::{Seat, SetupError};

/// Where a match stands: see the [module documentation](self).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Position {
    /// The location's id ("tutorial", "temple", ...); empty: the campaign's first.
    pub location: String,
    /// One Origin per seat, in seat order.
    pub party: Vec<String>,
    pub round: PositionRound,
    /// A location card the party reveals on its way to the position: every
    /// Origin travels to the card's space, then the group reveals it and
    /// resolves it. It must resolve at once (no challenge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reveal: Option<String>,
    /// Enemy rolls wait for the Origins' Source rerolls (L511). Off by default.
    pub reroll_enemy_rolls: bool,
    /// The party picks among equally qualified targets (L1623). Off by
    /// default: the lowest seat is taken.
    pub party_breaks_ties: bool,
    /// The party's gold; absent: what the start gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gold: Option<u32>,
    /// What differs for each seat; seats past the end are as the start left them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<PositionOrigin>,
    /// The enemies on the map, when given: they replace those the reveal
    /// spawned, numbered 1, 2, ... in this order, minions in trays A-F.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enemies: Vec<PositionEnemy>,
}

/// The kind of position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionRound {
    /// No enemy on the map: the party chooses the next round (L276).
    #[default]
    Explore,
    /// A Combat round, at the Origins' step: each standing Origin may start its turn.
    Combat,
}

/// One Origin: every field absent is what the start gave.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PositionOrigin {
    /// The space's id as in the location's map ("2", "t1").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space: Option<String>,
    /// At most the Origin's maximum HP; 0 only for a downed Origin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
    /// At most [`MAX_AP`] (10 with HASTE, L1574).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ap: Option<u32>,
    /// At most the Source the Origin's card gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<u32>,
    /// Downed, on 0 HP (L744). A downed Origin's HP is 0 unless said otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub downed: Option<bool>,
    /// Skills in hand, each one the Origin has learned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// Equipped items: equipment that fits the slots (two hands, one head,
    /// chest and trinket). Runes on items no longer equipped go too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equipped: Option<Vec<String>>,
    /// Stored items and runes, at most [`BACKPACK`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backpack: Option<Vec<String>>,
    /// The statuses on the Origin's track, each in the slot given, in
    /// place of those it had; put there as the game gives a status
    /// (refused if the Origin is immune).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<BTreeMap<Status, u8>>,
}

/// One enemy on the map.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PositionEnemy {
    /// A minion card's id; exactly one of `minion` and `boss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minion: Option<String>,
    /// A Boss' id: set up as the game sets a Boss up (HP for the party
    /// size, a shuffled tactics deck, its printed space).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boss: Option<String>,
    /// The minion's veteran side (L1253).
    pub veteran: bool,
    /// 1 to its maximum; full when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
    /// The space's id; absent: a Boss' printed space, else seat 0's space.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space: Option<String>,
    /// Acts in the FAST step; a minion is SLOW when absent, a Boss as printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fast: Option<bool>,
    /// Statuses on its track, each in the slot given.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub statuses: BTreeMap<Status, u8>,
}

fn fail<T>(m: impl Into<String>) -> Result<T, SetupError> {
    Err(SetupError::new(m))
}

impl Position {
    /// A position between rounds at `location` (no enemy on the map).
    pub fn explore(location: &str, party: &[&str]) -> Position {
        Position {
            location: location.into(),
            party: party.iter().map(|p| p.to_string()).collect(),
            ..Position::default()
        }
    }

    /// A Combat round at `location`, at the Origins' step.
    pub fn combat(location: &str, party: &[&str]) -> Position {
        Position { round: PositionRound::Combat, ..Position::explore(location, party) }
    }

    /// The party reveals `card` on its way (see [`Position::reveal`]).
    #[must_use]
    pub fn reveal(mut self, card: &str) -> Position {
        self.reveal = Some(card.into());
        self
    }

    /// Enemy rolls wait for rerolls, and the party breaks ties: the table's
    /// default options rather than a quiet table's.
    #[must_use]
    pub fn table_options(mut self) -> Position {
        self.reroll_enemy_rolls = true;
        self.party_breaks_ties = true;
        self
    }

    /// Whether enemy rolls wait for the Origins' Source rerolls (L511).
    #[must_use]
    pub fn rerolls(mut self, on: bool) -> Position {
        self.reroll_enemy_rolls = on;
        self
    }

    /// The party's gold.
    #[must_use]
    pub fn gold(mut self, gold: u32) -> Position {
        self.gold = Some(gold);
        self
    }

    /// Describe the Origin in `seat`.
    #[must_use]
    pub fn origin(mut self, seat: usize, f: impl FnOnce(PositionOrigin) -> PositionOrigin) -> Position {
        if self.origins.len() <= seat {
            self.origins.resize(seat + 1, PositionOrigin::default());
        }
        let o = std::mem::take(&mut self.origins[seat]);
        self.origins[seat] = f(o);
        self
    }

    /// Describe every Origin of the party alike.
    #[must_use]
    pub fn each_origin(mut self, f: impl Fn(PositionOrigin) -> PositionOrigin) -> Position {
        for seat in 0..self.party.len() {
            self = self.origin(seat, &f);
        }
        self
    }

    /// Add a minion (standard side, SLOW, full HP, in seat 0's space unless `f` says otherwise).
    #[must_use]
    pub fn minion(mut self, card: &str, f: impl FnOnce(PositionEnemy) -> PositionEnemy) -> Position {
        self.enemies.push(f(PositionEnemy { minion: Some(card.into()), ..PositionEnemy::default() }));
        self
    }

    /// Add an enemy described in full.
    #[must_use]
    pub fn enemy(mut self, e: PositionEnemy) -> Position {
        self.enemies.push(e);
        self
    }

    /// Change the `i`th enemy described so far.
    ///
    /// # Panics
    /// When fewer enemies were described.
    #[must_use]
    pub fn enemy_at(mut self, i: usize, f: impl FnOnce(PositionEnemy) -> PositionEnemy) -> Position {
        let e = std::mem::take(&mut self.enemies[i]);
        self.enemies[i] = f(e);
        self
    }

    /// Add a Boss (set up as the game does, unless `f` says otherwise).
    #[must_use]
    pub fn boss(mut self, boss: &str, f: impl FnOnce(PositionEnemy) -> PositionEnemy) -> Position {
        self.enemies.push(f(PositionEnemy { boss: Some(boss.into()), ..PositionEnemy::default() }));
        self
    }

    /// The state this position describes, on the standard catalogue.
    ///
    /// # Errors
    /// See [`Position::build_with`].
    pub fn build(&self, seed: u64) -> Result<DivinityState, SetupError> {
        self.build_with(Catalogue::standard(), seed)
    }

    /// The state this position describes: the location started with `seed`,
    /// the reveal played, then each Origin and enemy put in place.
    ///
    /// # Errors
    /// What the start refuses (unknown location or Origin, a bad party);
    /// a reveal that can't be played or does not resolve at once; an
    /// unknown space, item, skill, minion or Boss; HP above a maximum or 0
    /// for a standing figure; AP above the maximum; Source above the card's;
    /// a full backpack or equipment that does not fit; an item no deck has a
    /// copy of; more than [`MAX_MINIONS`] minions; a Combat position with no
    /// enemy or no standing Origin; enemies in an Explore position.
    pub fn build_with(&self, cat: &Catalogue, seed: u64) -> Result<DivinityState, SetupError> {
        let options = DivinityOptions {
            party: self.party.clone(),
            location: (!self.location.is_empty()).then(|| self.location.clone()),
            reroll_enemy_rolls: false,
            party_breaks_ties: false,
            ..DivinityOptions::default()
        };
        let mut s = Divinity::start_with(cat, &options, seed)?;
        if self.origins.len() > s.origins.len() {
            return fail(format!("{} Origins described for a party of {}", self.origins.len(), s.origins.len()));
        }
        if let Some(card) = &self.reveal {
            reveal(cat, &mut s, card)?;
        }
        self.place_origins(cat, &mut s)?;
        if !self.enemies.is_empty() {
            self.place_enemies(cat, &mut s)?;
        }
        match self.round {
            PositionRound::Explore => {
                if s.in_combat() {
                    return fail("an Explore position has no enemy on the map (L277)");
                }
                if s.phase != Phase::ChooseRound {
                    return fail("the reveal did not leave the party choosing its next round");
                }
                let map = &s.loc(cat).map;
                if let Some(o) = s.origins.iter().find(|o| map.spaces[o.space].tactical()) {
                    let id = &map.spaces[o.space].id;
                    return fail(format!(
                        "{}: out of combat an Origin is never on tactical space {id} (L1116)",
                        o.origin
                    ));
                }
            }
            PositionRound::Combat => {
                if !s.in_combat() {
                    return fail("a Combat position needs an enemy on the map");
                }
                if s.standing().next().is_none() {
                    return fail("a Combat position needs a standing Origin");
                }
                if !matches!(s.phase, Phase::Combat { .. }) {
                    s.round_kind = RoundKind::Combat;
                    s.explored.clear();
                }
                s.phase = Phase::Combat { done: vec![false; s.origins.len()], active: None };
                s.enemy_queue.clear();
                s.queue_fast = false;
            }
        }
        if let Some(gold) = self.gold {
            s.gold = gold;
        }
        s.options.reroll_enemy_rolls = self.reroll_enemy_rolls;
        s.options.party_breaks_ties = self.party_breaks_ties;
        Ok(s)
    }

    fn place_origins(&self, cat: &Catalogue, s: &mut DivinityState) -> Result<(), SetupError> {
        // Items leave their Origins first (to the bottom of their decks, as
        // a discard), so that one may pass to another.
        let mut taken = Vec::new();
        for (seat, p) in self.origins.iter().enumerate() {
            let o = &s.origins[seat];
            let mut left: Vec<String> = o.equipped.iter().chain(&o.backpack).cloned().collect();
            let kept: Vec<String> = p
                .equipped
                .as_ref()
                .unwrap_or(&o.equipped)
                .iter()
                .chain(p.backpack.as_ref().unwrap_or(&o.backpack))
                .cloned()
                .collect();
            for item in kept {
                match left.iter().position(|i| *i == item) {
                    Some(i) => {
                        left.remove(i);
                    }
                    None => taken.push((seat, item)),
                }
            }
            for item in left {
                s.to_deck_bottom(cat, &item);
            }
        }
        for (seat, item) in taken {
            let who = &s.origins[seat].origin;
            if !cat.items.contains_key(&item) && !cat.runes.contains_key(&item) {
                return fail(format!("{who}: unknown item {item}"));
            }
            let deck = item_deck(cat, &item).and_then(|d| s.item_decks.get_mut(&d));
            match deck.as_ref().and_then(|d| d.iter().position(|c| *c == item)) {
                Some(i) => {
                    deck.expect("found in it").remove(i);
                }
                None => return fail(format!("{who}: no copy of {item} is left in its deck")),
            }
        }
        for (seat, p) in self.origins.iter().enumerate() {
            place_origin(cat, s, seat as Seat, p)?;
        }
        Ok(())
    }

    fn place_enemies(&self, cat: &Catalogue, s: &mut DivinityState) -> Result<(), SetupError> {
        let minions = self.enemies.iter().filter(|e| e.boss.is_none()).count();
        if minions > MAX_MINIONS {
            return fail(format!("{minions} minions: at most {MAX_MINIONS}, one per tray (L1245)"));
        }
        let next = s.next_enemy;
        s.enemies.clear();
        s.next_enemy = 1;
        let mut ev: Vec<DivinityEvent> = Vec::new();
        for (i, p) in self.enemies.iter().enumerate() {
            let here = |s: &DivinityState, id: &str| {
                s.space_ix(cat, id).ok_or_else(|| SetupError::new(format!("enemy {i}: unknown space {id}")))
            };
            let (id, max) = match (&p.minion, &p.boss) {
                (Some(m), None) => {
                    let card = cat.minions.get(m).ok_or_else(|| SetupError::new(format!("unknown minion {m}")))?;
                    let space = match &p.space {
                        Some(id) => here(s, id)?,
                        None => s.origins[0].space,
                    };
                    s.spawn_minion(cat, m, p.veteran, space, p.fast.unwrap_or(false), &mut ev);
                    (s.next_enemy - 1, card.side(p.veteran).hp)
                }
                (None, Some(b)) => {
                    if !cat.bosses.contains_key(b) {
                        return fail(format!("unknown Boss {b}"));
                    }
                    if p.veteran {
                        return fail(format!("Boss {b}: only minions have a veteran side"));
                    }
                    s.spawn_boss(cat, b, &mut ev);
                    let id = s.next_enemy - 1;
                    if let Some(space) = &p.space {
                        let ix = here(s, space)?;
                        s.enemy_mut(id).expect("spawned").space = ix;
                    }
                    if let Some(f) = p.fast {
                        s.enemy_mut(id).expect("spawned").fast = f;
                    }
                    (id, s.enemy(id).expect("spawned").max_hp)
                }
                _ => return fail(format!("enemy {i}: name a minion or a Boss, not both or neither")),
            };
            let name = p.minion.as_ref().or(p.boss.as_ref()).expect("one of them");
            let hp = p.hp.unwrap_or(max);
            if hp == 0 || hp > max {
                return fail(format!("{name}: HP {hp} outside 1..={max}"));
            }
            s.enemy_mut(id).expect("spawned").hp = hp;
            put_statuses(cat, s, Who::Enemy(id), &p.statuses, name)?;
        }
        s.next_enemy = s.next_enemy.max(next);
        Ok(())
    }
}

/// Play the way to a card: everyone travels to its space, the group reveals
/// it, the party resolves it.
fn reveal(cat: &Catalogue, s: &mut DivinityState, card: &str) -> Result<(), SetupError> {
    let loc = s.loc(cat);
    let def = loc.card(card).ok_or_else(|| SetupError::new(format!("reveal: {} has no card {card}", loc.id)))?;
    let number = def.space.ok_or_else(|| SetupError::new(format!("reveal: card {card} has no space")))?;
    let space = loc.map.by_number(number).expect("validated card space");
    let to = loc.map.spaces[space].id.clone();
    let play = |s: &mut DivinityState, seat: Seat, a: A| {
        Divinity::apply_with(cat, s, seat, a.clone())
            .map_err(|e| SetupError::new(format!("reveal {card}: {a:?} refused: {}", e.message)))
    };
    play(s, 0, A::ChooseRound { explore: true })?;
    for seat in 0..s.origins.len() as Seat {
        play(s, seat, A::Travel { to: Some(to.clone()) })?;
    }
    play(s, 0, A::Reveal)?;
    if !s.revealed.iter().any(|r| r.card == card) {
        let got: Vec<&str> = s.revealed.iter().map(|r| r.card.as_str()).collect();
        return fail(format!("reveal {card}: space {to} gave {got:?}"));
    }
    play(s, 0, A::Resolve { card: card.into() })?;
    if s.challenge.is_some() || s.pending_choice().is_some() || !s.revealed.is_empty() {
        return fail(format!("reveal {card}: the card did not resolve at once"));
    }
    Ok(())
}

fn place_origin(cat: &Catalogue, s: &mut DivinityState, seat: Seat, p: &PositionOrigin) -> Result<(), SetupError> {
    let who = s.origins[seat as usize].origin.clone();
    if let Some(id) = &p.space {
        let ix = s.space_ix(cat, id).ok_or_else(|| SetupError::new(format!("{who}: unknown space {id}")))?;
        s.origins[seat as usize].space = ix;
    }
    if let Some(hand) = &p.hand {
        for skill in hand {
            if !cat.skills.contains_key(skill) {
                return fail(format!("{who}: unknown skill {skill}"));
            }
            if !s.origins[seat as usize].skills.contains(skill) {
                return fail(format!("{who} has not learned skill {skill}"));
            }
        }
        s.origins[seat as usize].hand = hand.clone();
    }
    if let Some(equipped) = &p.equipped {
        for item in equipped {
            if !cat.items.get(item).is_some_and(|d| matches!(d.kind, ItemKind::Equipment(_))) {
                return fail(format!("{who}: {item} is not equipment"));
            }
        }
        if !fits(cat, equipped) {
            return fail(format!("{who}: {equipped:?} do not fit two hands, one head, chest and trinket"));
        }
        let o = &mut s.origins[seat as usize];
        o.equipped = equipped.clone();
        o.runes.retain(|r| equipped.contains(&r.item));
    }
    if let Some(backpack) = &p.backpack {
        if backpack.len() > BACKPACK {
            return fail(format!("{who}: {} items in a backpack of {BACKPACK} (L919)", backpack.len()));
        }
        s.origins[seat as usize].backpack = backpack.clone();
    }
    if let Some(statuses) = &p.statuses {
        s.origins[seat as usize].track.clear_statuses();
        put_statuses(cat, s, Who::Origin(seat), statuses, &who)?;
    }
    let downed = p.downed.unwrap_or(p.hp == Some(0) || (p.hp.is_none() && s.origins[seat as usize].downed));
    let max = s.max_hp(cat, Who::Origin(seat));
    let hp = p.hp.unwrap_or(if downed { 0 } else { s.origins[seat as usize].hp });
    if hp > max {
        return fail(format!("{who}: HP {hp} above the maximum {max}"));
    }
    if downed && hp > 0 {
        return fail(format!("{who}: a downed Origin has 0 HP, not {hp} (L744)"));
    }
    if !downed && hp == 0 {
        return fail(format!("{who}: an Origin on 0 HP is downed (L744)"));
    }
    let o = &mut s.origins[seat as usize];
    o.hp = hp;
    o.downed = downed;
    if let Some(source) = p.source {
        let max = cat.origins[&who].at(o.level).map_or(0, |l| l.source);
        if source > max {
            return fail(format!("{who}: Source {source} above the card's {max}"));
        }
        s.origins[seat as usize].source = source;
    }
    if let Some(ap) = p.ap {
        let max = s.max_ap(cat, seat);
        if ap > max {
            return fail(format!("{who}: AP {ap} above the maximum {max} (L1564)"));
        }
        s.origins[seat as usize].ap = ap;
    }
    Ok(())
}

/// Give each status in its slot; refused for a slot past the track's end or
/// a figure immune to it.
fn put_statuses(
    cat: &Catalogue,
    s: &mut DivinityState,
    who: Who,
    statuses: &BTreeMap<Status, u8>,
    name: &str,
) -> Result<(), SetupError> {
    let len = match who {
        Who::Origin(seat) => s.origins[seat as usize].track.len(),
        Who::Enemy(id) => s.enemy(id).map_or(0, |e| e.track.len()),
    };
    let mut ev = Vec::new();
    for (&status, &slot) in statuses {
        if slot == 0 || slot > len {
            return fail(format!("{name}: {status:?} in slot {slot}, outside the track's 1..={len}"));
        }
        s.give_status(cat, who, StatusGrant { status, cooldown: slot }, &mut ev);
        if track_of(s, who).status_slot(status) != Some(slot) {
            return fail(format!("{name} is immune to {status:?}"));
        }
    }
    Ok(())
}

fn track_of(s: &DivinityState, who: Who) -> &Track {
    match who {
        Who::Origin(seat) => &s.origins[seat as usize].track,
        Who::Enemy(id) => &s.enemy(id).expect("placed").track,
    }
}

impl PositionOrigin {
    #[must_use]
    pub fn space(mut self, id: &str) -> Self {
        self.space = Some(id.into());
        self
    }
    #[must_use]
    pub fn hp(mut self, hp: u32) -> Self {
        self.hp = Some(hp);
        self
    }
    #[must_use]
    pub fn ap(mut self, ap: u32) -> Self {
        self.ap = Some(ap);
        self
    }
    #[must_use]
    pub fn source(mut self, source: u32) -> Self {
        self.source = Some(source);
        self
    }
    /// Downed, on 0 HP (whatever HP was said before).
    #[must_use]
    pub fn downed(mut self) -> Self {
        self.downed = Some(true);
        self.hp = Some(0);
        self
    }
    /// Standing (with the HP given, or those it had).
    #[must_use]
    pub fn standing(mut self) -> Self {
        self.downed = Some(false);
        self
    }
    #[must_use]
    pub fn hand(mut self, skills: &[&str]) -> Self {
        self.hand = Some(skills.iter().map(|x| x.to_string()).collect());
        self
    }
    #[must_use]
    pub fn equipped(mut self, items: &[&str]) -> Self {
        self.equipped = Some(items.iter().map(|x| x.to_string()).collect());
        self
    }
    #[must_use]
    pub fn backpack(mut self, items: &[&str]) -> Self {
        self.backpack = Some(items.iter().map(|x| x.to_string()).collect());
        self
    }
    /// Put `status` in `slot` of the track (the other statuses it had go).
    #[must_use]
    pub fn status(mut self, status: Status, slot: u8) -> Self {
        self.statuses.get_or_insert_with(BTreeMap::new).insert(status, slot);
        self
    }
}

impl PositionEnemy {
    #[must_use]
    pub fn hp(mut self, hp: u32) -> Self {
        self.hp = Some(hp);
        self
    }
    #[must_use]
    pub fn space(mut self, id: &str) -> Self {
        self.space = Some(id.into());
        self
    }
    #[must_use]
    pub fn fast(mut self) -> Self {
        self.fast = Some(true);
        self
    }
    #[must_use]
    pub fn veteran(mut self) -> Self {
        self.veteran = true;
        self
    }
    #[must_use]
    pub fn status(mut self, status: Status, slot: u8) -> Self {
        self.statuses.insert(status, slot);
        self
    }
}
