//! A party bot that plays from what a seat is sent: its [`DivinityView`]
//! and, online, its legal actions. It never reads the state, so it knows
//! no more than a player at the table; clients (`athlas --bot`), the load
//! generator and the end-to-end tests play with it, and the engine's
//! whole-campaign test proves it reaches the campaign's end.
//!
//! The policy, best choice first:
//! - Between rounds: Rest when hurt or downed (or, with no time limit, not
//!   at full HP), otherwise Explore.
//! - Exploring: the party travels together to the next space of its route
//!   ([`route`]) that still has cards (the view's `cards_left`), or to a
//!   placed card whose "when explored" text still gives something;
//!   reveals and resolves every revealed card; a challenge succeeds with a
//!   keyword when the party has one, else is rolled.
//! - Combat: better gear first; the Origin's special ability (0 AP) when
//!   it helps; heal a hurt friend; pull a badly hurt friend out of a fight;
//!   attack the nearest enemy, weakest first, strongest card first (a
//!   melee-only fighter jumps or pulls to it first); spend Source to
//!   reroll the blanks of an attack; close in with a movement skill; walk
//!   towards the enemies; end the turn. Rest turns revive the downed.
//! - Interlude: level up with the strongest damaging skill (and the first
//!   talent) the rules accept, equip better gear, visit the Merchant for
//!   potions when the stash allows and buy what it can.
//! - A party decision (an item nobody has room for, a minion's route, an
//!   enemy's dice, the order of effects, a target among equals): the
//!   first sensible answer.
//!
//! [`preferences`] lists the candidates in that order; [`choose`] takes the
//! first that is in the legal list the server sent. A candidate the rules
//! refuse is skipped, so the policy stays simple: it may propose what the
//! engine then rules out.

use std::cmp::Reverse;

use super::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use super::attack::{Attack, Outcome, Targets};
use super::content::{
    AbilityEffect, AbilityTarget, CardEffect, Catalogue, ConsumableDeck, ItemKind, LocationDef, Mover, School, Slot,
};
use super::dice::Colour;
use super::map::{path_ixs, Graph, SpaceIx};
use super::state::{EnemyKind, Phase, Purpose};
use super::view::DivinityView;
use crate::Seat;

/// The first of `seat`'s [`preferences`] found in `legal`; else the first
/// legal action that ends or passes something, else the first legal one.
/// `None` only when `legal` is empty.
pub fn choose(cat: &Catalogue, view: &DivinityView, seat: Seat, legal: &[A]) -> Option<A> {
    if legal.is_empty() {
        return None;
    }
    if let Some(a) = preferences(cat, view, seat).into_iter().find(|a| legal.contains(a)) {
        return Some(a);
    }
    let calm = |a: &&A| matches!(a, A::EndTurn | A::Pass | A::Accept | A::FinishInterlude | A::Travel { to: None });
    Some(legal.iter().find(calm).unwrap_or(&legal[0]).clone())
}

/// What `seat` would do now, best first (it may include actions the rules
/// refuse; see the module comment).
pub fn preferences(cat: &Catalogue, view: &DivinityView, seat: Seat) -> Vec<A> {
    let Some(loc) = cat.locations.get(&view.location) else { return Vec::new() };
    let t = Table { cat, v: view, loc };
    t.choices(seat)
}

/// The view with the catalogue and location it is read against.
struct Table<'a> {
    cat: &'a Catalogue,
    v: &'a DivinityView,
    loc: &'a LocationDef,
}

/// The party's route through each location, as players plan it from the
/// Divine Atlas: the spaces it means to explore, in order. Spaces off the
/// route are explored (lowest number first) only once the route is done.
fn route(location: &str) -> &'static [&'static str] {
    match location {
        // The magister's key opens the stairs to the cabin, the exit.
        "tutorial" => &["1", "5"],
        // Search the wreckage, then climb the cliff path to the fort.
        "shipwreck" => &["1", "5"],
        // The armoury while no alarm is raised, the courtyard (whose
        // victory places the warden's stair), then the stair.
        "fort_joy" => &["3", "2", "5"],
        // The Source shrine, the troll's bridge (the key), the far bank.
        "hollow_marshes" => &["3", "4", "5"],
        // The offerings, then the Warden.
        "temple" => &["2", "3"],
        _ => &[],
    }
}

/// How hard an attack hits, roughly: its dice (red best), its bonus, the
/// roller's level bonus.
fn strength(a: &Attack) -> u32 {
    let d = &a.dice;
    2 * d.white as u32 + 3 * d.blue as u32 + 4 * d.red as u32 + 3 * a.bonus + if a.level_bonus { 6 } else { 0 }
}

fn use_card(card: CardUse, aim: Aim) -> A {
    A::Use { card, aim, first_aura: None, include_self: None }
}

/// Dice to drop when a roll must lose some (L1515): white first, then
/// blue, then red.
fn cheapest_dice(mut left: super::dice::Pool, count: u32) -> Vec<Colour> {
    let mut remove = Vec::new();
    for c in [Colour::White, Colour::Blue, Colour::Red] {
        while remove.len() < count as usize && left.reduce(c) {
            remove.push(c);
        }
    }
    remove
}

impl Table<'_> {
    fn space_id(&self, ix: SpaceIx) -> String {
        self.loc.map.spaces[ix].id.clone()
    }

    fn space_ix(&self, id: &str) -> Option<SpaceIx> {
        self.loc.map.spaces.iter().position(|s| s.id == id)
    }

    /// Distances along open paths from a space.
    fn distances(&self, from: SpaceIx) -> Vec<Option<u32>> {
        let ixs = path_ixs(&self.loc.map);
        Graph::new(&self.loc.map, &self.v.map, &ixs).distances(from)
    }

    fn neighbours(&self, from: SpaceIx) -> Vec<SpaceIx> {
        let ixs = path_ixs(&self.loc.map);
        Graph::new(&self.loc.map, &self.v.map, &ixs).neighbours(from)
    }

    fn max_hp(&self, seat: usize) -> u32 {
        let o = &self.v.origins[seat];
        self.cat.origins.get(&o.origin).and_then(|c| c.at(o.level)).map_or(o.hp, |c| c.hp)
    }

    /// Standing, and below half HP.
    fn hurt(&self, seat: usize) -> bool {
        let o = &self.v.origins[seat];
        !o.downed && o.hp * 2 < self.max_hp(seat)
    }

    /// The enemies as (id, hp, space index).
    fn enemies(&self) -> Vec<(u32, u32, SpaceIx, &EnemyKind)> {
        self.v.enemies.iter().filter_map(|e| Some((e.id, e.hp, self.space_ix(&e.space)?, &e.kind))).collect()
    }

    /// A tactical space holding another Origin.
    fn tactical_taken(&self, seat: Seat, space: SpaceIx) -> bool {
        let tactical = self.loc.map.spaces[space].number.is_none();
        tactical && self.v.origins.iter().enumerate().any(|(t, o)| t != seat as usize && o.space == space)
    }

    /// Equipment in the backpack better than what the Origin wears: a
    /// weapon hitting harder than its best one, armor better than the
    /// piece in its slot.
    fn upgrades(&self, seat: Seat) -> Vec<A> {
        let cat = self.cat;
        let o = &self.v.origins[seat as usize];
        let weapon = |id: &String| cat.items.get(id).and_then(|d| d.action.as_ref()).map(|a| strength(&a.attack));
        let armor = |id: &String| cat.items.get(id).map_or(0, |d| d.bonus.physical_armor + d.bonus.magical_armor);
        let best = o.equipped.iter().filter_map(weapon).max().unwrap_or(0);
        let mut out = Vec::new();
        for i in &o.backpack {
            let Some(ItemKind::Equipment(slot)) = cat.items.get(i).map(|d| d.kind) else { continue };
            let better = match weapon(i) {
                Some(w) => w > best,
                None => {
                    let worn = o
                        .equipped
                        .iter()
                        .filter(|e| cat.items.get(*e).is_some_and(|d| d.kind == ItemKind::Equipment(slot)))
                        .map(armor)
                        .max();
                    matches!(slot, Slot::Head | Slot::Chest | Slot::Trinket) && worn.is_none_or(|w| armor(i) > w)
                }
            };
            if better {
                out.push(A::Equip { item: i.clone() });
            }
        }
        out
    }

    /// A placed card still worth exploring: its "when explored" text takes
    /// the party out, or gives a journal card the party does not have yet.
    fn worth_exploring(&self, card: &str) -> bool {
        let Some(c) = self.loc.card(card) else { return false };
        c.when_explored.iter().any(|e| match e {
            CardEffect::Exit { .. } => true,
            CardEffect::Journal { card } => !self.v.journal.contains(card),
            _ => false,
        })
    }

    /// Spaces worth exploring, the route first: a numbered space with cards
    /// left, or a placed card worth exploring.
    fn targets(&self) -> Vec<SpaceIx> {
        let mut out: Vec<(u32, SpaceIx)> = Vec::new();
        for (ix, sp) in self.loc.map.spaces.iter().enumerate() {
            if let Some(card) = self.v.map.placed.get(&ix) {
                if self.worth_exploring(card) {
                    out.push((sp.number.unwrap_or(99), ix));
                }
                continue;
            }
            let Some(n) = sp.number else { continue };
            if self.v.cards_left.get(&n).is_some_and(|&k| k > 0) {
                out.push((n, ix));
            }
        }
        let plan = route(&self.v.location);
        let rank = |ix: SpaceIx| plan.iter().position(|id| *id == self.loc.map.spaces[ix].id).unwrap_or(plan.len());
        out.sort_by_key(|&(n, ix)| (rank(ix), n));
        out.into_iter().map(|(_, ix)| ix).collect()
    }

    /// Automatic successes for a seat's challenge roll: every keyword the
    /// card allows, from every source, best result row first; then a
    /// plain roll.
    fn challenge_choices(&self, seat: Seat) -> Vec<A> {
        let mut out = Vec::new();
        let Some(ch) = &self.v.challenge else { return out };
        let Some(card) = self.loc.card(&ch.card).and_then(|c| c.challenge.as_ref()) else { return out };
        let o = &self.v.origins[seat as usize];
        if ch.flipped.is_some() {
            out.extend((0..card.results.len()).rev().map(|row| A::ChooseResult { row }));
            return out;
        }
        for kw in &card.auto {
            let mut from = vec![KeywordFrom::Permanent];
            from.extend(o.hand.iter().map(|k| KeywordFrom::Skill(k.clone())));
            from.extend(o.backpack.iter().map(|i| KeywordFrom::Consumable(i.clone())));
            for f in from {
                out.push(A::Challenge { auto: Some((kw.clone(), f.clone())), keywords: vec![] });
            }
        }
        out.push(A::Challenge { auto: None, keywords: vec![] });
        out
    }

    /// The party's answers to a decision it is waiting for.
    fn party_choices(&self) -> Vec<A> {
        let (v, cat) = (self.v, self.cat);
        let mut out = Vec::new();
        // An item nobody has room for (L1056): a taker drops a consumable
        // for new equipment; otherwise the new item goes back to its deck.
        if let Some(o) = v.overflow.first() {
            if matches!(cat.items.get(&o.item).map(|i| i.kind), Some(ItemKind::Equipment(_))) {
                for &t in &o.takers {
                    for d in &v.origins[t as usize].backpack {
                        if matches!(cat.items.get(d).map(|i| i.kind), Some(ItemKind::Consumable(_))) {
                            out.push(A::PlaceItem { to: Some(t), drop: Some(d.clone()), pass_to: None });
                        }
                    }
                }
            }
            out.push(A::PlaceItem { to: None, drop: None, pass_to: None });
        }
        // A minion's route among equals (L1689): the first offered.
        if v.route.is_some() {
            out.push(A::ChooseRoute { route: 0 });
        }
        if let Some(r) = &v.reduction {
            out.push(A::ReduceDice { remove: cheapest_dice(r.attack.dice, r.remove) });
        }
        // An enemy's start-of-turn effects (L684): in the order offered.
        if let Some(t) = &v.turn_start {
            out.push(A::OrderTurnStart { order: t.statuses.clone() });
        }
        if v.tie.is_some() {
            for s in 0..v.origins.len() as Seat {
                out.push(A::BreakTie { target: Aim::Origin(s) });
            }
            for e in v.enemies.iter() {
                out.push(A::BreakTie { target: Aim::Enemy(e.id) });
            }
        }
        // A DOMINATED minion attacks the other enemies.
        for e in v.enemies.iter() {
            out.push(A::Command { target: Aim::Enemy(e.id) });
        }
        out
    }

    /// The Origin's 0-AP special ability (L501-503), aimed where it helps
    /// now: a heal at a wounded Origin, a cleanse on a track with statuses,
    /// damage or a status at an enemy in its space, a boon for the user or
    /// an ally in the fight; never a cost in HP that leaves the user at
    /// half HP or less.
    fn ability_choices(&self, seat: Seat) -> Vec<A> {
        let v = self.v;
        let o = &v.origins[seat as usize];
        let Some(ab) = self.cat.origins.get(&o.origin).and_then(|c| c.ability.as_ref()) else { return Vec::new() };
        let here = o.space;
        let enemies = self.enemies();
        let origin_ok = |t: usize| {
            let x = &v.origins[t];
            ab.effects.iter().all(|e| match e {
                AbilityEffect::Heal { .. } => x.hp < self.max_hp(t),
                AbilityEffect::Cleanse => !x.track.statuses().is_empty(),
                AbilityEffect::Damage { amount, .. } => 2 * x.hp.saturating_sub(*amount) > self.max_hp(t),
                AbilityEffect::Environment { .. } => enemies.iter().any(|e| e.2 == here),
                AbilityEffect::Status { .. } | AbilityEffect::GainAp { .. } => !enemies.is_empty(),
            })
        };
        let here_standing =
            |t: usize| t != seat as usize && !v.origins[t].downed && v.origins[t].space == here && origin_ok(t);
        let enemies_here = enemies.iter().filter(|e| e.2 == here);
        match ab.target {
            AbilityTarget::User | AbilityTarget::AlliesHere if origin_ok(seat as usize) => {
                vec![A::UseAbility { aim: None }]
            }
            AbilityTarget::User | AbilityTarget::AlliesHere => Vec::new(),
            AbilityTarget::Ally => (0..v.origins.len())
                .filter(|&t| here_standing(t))
                .map(|t| A::UseAbility { aim: Some(Aim::Origin(t as Seat)) })
                .collect(),
            AbilityTarget::Enemy => enemies_here.map(|e| A::UseAbility { aim: Some(Aim::Enemy(e.0)) }).collect(),
            AbilityTarget::Minion => enemies_here
                .filter(|e| matches!(e.3, EnemyKind::Minion { .. }))
                .map(|e| A::UseAbility { aim: Some(Aim::Enemy(e.0)) })
                .collect(),
        }
    }

    /// Movement and teleport skills (L905-907) that close the distance to
    /// the nearest enemy at `at` (`d` spaces away): the user jumps into its
    /// space or as close as the skill reaches; or, when an Origin with a
    /// melee weapon stands with the user, the enemy is pulled into the
    /// user's space.
    fn movement_choices(&self, seat: Seat, (d, at): (u32, SpaceIx)) -> Vec<A> {
        let (v, cat) = (self.v, self.cat);
        let o = &v.origins[seat as usize];
        let here = o.space;
        let mut out = Vec::new();
        if d == 0 {
            return out;
        }
        let to_enemy = self.distances(at);
        let melee_here = v.origins.iter().any(|f| {
            !f.downed
                && f.space == here
                && f.equipped
                    .iter()
                    .any(|i| cat.items.get(i).and_then(|d| d.action.as_ref()).is_some_and(|a| a.attack.range == 0))
        });
        for k in &o.hand {
            let Some(m) = cat.skills.get(k).and_then(|s| s.movement) else { continue };
            match m.mover {
                Mover::User => {
                    // The enemy's space first, then the spaces nearest to it.
                    let mut spaces: Vec<(u32, SpaceIx)> = (0..to_enemy.len())
                        .filter_map(|ix| to_enemy[ix].map(|x| (x, ix)))
                        .filter(|&(x, ix)| x < d && !self.tactical_taken(seat, ix))
                        .collect();
                    spaces.sort_unstable();
                    for (_, ix) in spaces {
                        out.push(use_card(CardUse::Skill(k.clone()), Aim::Space(self.space_id(ix))));
                    }
                }
                Mover::Target if melee_here => {
                    for e in self.enemies().iter().filter(|e| e.2 == at) {
                        out.push(use_card(CardUse::Skill(k.clone()), Aim::Enemy(e.0)));
                    }
                }
                Mover::Target => {}
            }
        }
        out
    }

    /// A skill that pulls a figure into the user's space (L905-907) rescues
    /// a badly hurt friend who shares a space with enemies, when no enemy
    /// stands in the user's space.
    fn rescue_choices(&self, seat: Seat) -> Vec<A> {
        let v = self.v;
        let o = &v.origins[seat as usize];
        let here = o.space;
        let enemies = self.enemies();
        if enemies.iter().any(|e| e.2 == here) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for k in &o.hand {
            if self.cat.skills.get(k).and_then(|s| s.movement).is_none_or(|m| m.mover != Mover::Target) {
                continue;
            }
            for (t, f) in v.origins.iter().enumerate() {
                if t != seat as usize && self.hurt(t) && f.space != here && enemies.iter().any(|e| e.2 == f.space) {
                    out.push(use_card(CardUse::Skill(k.clone()), Aim::Origin(t as Seat)));
                }
            }
        }
        out
    }

    /// The active Origin's options in a Combat turn, best first.
    fn combat_choices(&self, seat: Seat) -> Vec<A> {
        let (v, cat) = (self.v, self.cat);
        let o = &v.origins[seat as usize];
        let here = o.space;
        let dist = self.distances(here);
        let mut out = self.upgrades(seat);
        // The special ability costs no AP: use it first when it helps.
        out.extend(self.ability_choices(seat));
        // Heal a hurt friend (or yourself) with a healing card.
        let heals = |a: Option<&Attack>| a.is_some_and(|a| matches!(a.outcome, Outcome::Heal { .. }));
        let healing: Vec<CardUse> = o
            .hand
            .iter()
            .filter(|k| heals(cat.skills.get(*k).and_then(|s| s.attack.as_ref())))
            .map(|k| CardUse::Skill(k.clone()))
            .chain(
                o.backpack
                    .iter()
                    .filter(|i| heals(cat.items.get(*i).and_then(|d| d.action.as_ref()).map(|a| &a.attack)))
                    .map(|i| CardUse::Consumable(i.clone())),
            )
            .collect();
        for t in 0..v.origins.len() {
            if self.hurt(t) {
                for c in &healing {
                    out.push(use_card(c.clone(), Aim::Origin(t as Seat)));
                    out.push(use_card(c.clone(), Aim::Space(self.space_id(v.origins[t].space))));
                }
            }
        }
        // Pull a badly hurt friend out of a fight into a space with no enemy.
        out.extend(self.rescue_choices(seat));
        // Attack the nearest enemies, weakest first among equals, with the
        // strongest card first.
        let mut enemies: Vec<(u32, u32, u32, SpaceIx)> =
            self.enemies().into_iter().map(|(id, hp, space, _)| (dist[space].unwrap_or(99), hp, id, space)).collect();
        enemies.sort_unstable();
        let friends_at = |space: SpaceIx| v.origins.iter().any(|f| !f.downed && f.space == space);
        let mut attacks: Vec<(u32, CardUse, Option<&Attack>)> = Vec::new();
        for i in &o.equipped {
            let Some(a) = cat.items.get(i).and_then(|d| d.action.as_ref()) else { continue };
            if matches!(a.attack.outcome, Outcome::Damage { .. }) {
                attacks.push((strength(&a.attack), CardUse::Item(i.clone()), Some(&a.attack)));
            }
        }
        for k in &o.hand {
            let Some(d) = cat.skills.get(k) else { continue };
            match (&d.attack, d.weapon) {
                (Some(a), _) if matches!(a.outcome, Outcome::Damage { .. }) => {
                    attacks.push((strength(a), CardUse::Skill(k.clone()), Some(a)))
                }
                (None, Some(w)) => attacks.push((4 * w.attacks, CardUse::Skill(k.clone()), None)),
                _ => {}
            }
        }
        if o.summon.is_some() {
            attacks.push((0, CardUse::Summon, None));
        }
        attacks.sort_by_key(|(score, _, _)| Reverse(*score));
        // A fighter with only melee weapons jumps (or pulls) to the nearest
        // enemy before attacking; the others only when no attack reaches.
        let weapons: Vec<u32> = o
            .equipped
            .iter()
            .filter_map(|i| cat.items.get(i).and_then(|d| d.action.as_ref()))
            .filter(|a| matches!(a.attack.outcome, Outcome::Damage { .. }))
            .map(|a| a.attack.range)
            .collect();
        let melee_only = !weapons.is_empty() && weapons.iter().all(|r| *r == 0);
        if let Some(&(d, _, _, space)) = enemies.first().filter(|_| melee_only) {
            out.extend(self.movement_choices(seat, (d, space)));
        }
        for &(_, _, id, space) in &enemies {
            for (_, card, attack) in &attacks {
                if attack.is_some_and(|a| a.targets == Targets::Area) {
                    if !friends_at(space) {
                        out.push(use_card(card.clone(), Aim::Space(self.space_id(space))));
                    }
                } else {
                    out.push(use_card(card.clone(), Aim::Enemy(id)));
                }
            }
        }
        // No attack reaches: a movement skill closes the distance, then walk.
        if let Some(&(d, _, _, space)) = enemies.first().filter(|_| !melee_only) {
            out.extend(self.movement_choices(seat, (d, space)));
        }
        // Walk towards the nearest enemy.
        if let Some(&(d, _, _, space)) = enemies.first() {
            if d > 0 {
                let to_enemy = self.distances(space);
                for n in self.neighbours(here) {
                    // Never into a tactical space another Origin holds: with
                    // no AP left there, the turn could not end (L1438).
                    if to_enemy[n].is_some_and(|x| x < d) && !self.tactical_taken(seat, n) {
                        out.push(A::Move { to: self.space_id(n) });
                    }
                }
            }
        }
        out.push(A::EndTurn);
        // Ending on a tactical space may need a step off it first.
        for n in self.neighbours(here) {
            out.push(A::Move { to: self.space_id(n) });
        }
        out
    }

    /// Level up with the strongest damaging skill (and the first talent)
    /// the rules accept.
    fn level_up_choices(&self) -> Vec<A> {
        let cat = self.cat;
        let mut out = Vec::new();
        let mut talents: Vec<Option<String>> = vec![None];
        talents.extend(cat.talents.keys().map(|t| Some(t.clone())));
        let mut skills: Vec<(u32, &String)> = cat
            .skills
            .iter()
            .filter(|(_, d)| d.school != School::Source)
            .map(|(id, d)| {
                let damaging = d.attack.as_ref().filter(|a| matches!(a.outcome, Outcome::Damage { .. }));
                (damaging.map_or(0, strength) + d.level, id)
            })
            .collect();
        skills.sort_by_key(|(score, id)| (Reverse(*score), *id));
        for (_, id) in skills {
            for t in &talents {
                out.push(A::LevelUp { talent: t.clone(), learn: id.clone(), respec: vec![] });
            }
        }
        out
    }

    /// Everything `seat` would do now, best first.
    fn choices(&self, seat: Seat) -> Vec<A> {
        let (v, cat) = (self.v, self.cat);
        let mine = seat as usize;
        if mine >= v.origins.len() {
            return Vec::new();
        }
        let mut out = self.party_choices();
        // An Origin's own dice reduction (L1515).
        if let Some(r) = v.roll_reduction.as_ref().filter(|r| r.seat == seat) {
            out.push(A::ReduceDice { remove: cheapest_dice(r.shot.attack.dice, r.remove) });
        }
        if let Some(p) = v.pending.as_ref().filter(|p| p.seat == seat) {
            // Spend Source on the blank dice of an attack (not of a heal).
            let attack = matches!(&p.purpose, Purpose::Attack { attack, .. }
                if matches!(attack.outcome, Outcome::Damage { .. }));
            let blanks: Vec<usize> =
                p.roll.dice.iter().enumerate().filter(|(_, d)| cat.dice.face(**d).hits == 0).map(|(i, _)| i).collect();
            if attack && !blanks.is_empty() && v.origins[mine].source > 0 {
                out.push(A::Reroll { dice: blanks, source: true });
            }
        }
        if v.enemy_roll.is_some() || v.pending.is_some() {
            out.push(A::Accept);
            return out;
        }
        if v.challenge.is_some() {
            out.extend(self.challenge_choices(seat));
            return out;
        }
        match &v.phase {
            Phase::ChooseRound => {
                // Rest when hurt; with no time limit running, rest to full health.
                let rest = (0..v.origins.len()).any(|t| {
                    let o = &v.origins[t];
                    self.hurt(t) || o.downed || (v.time.is_none() && o.hp < self.max_hp(t))
                });
                out.push(A::ChooseRound { explore: !rest });
                out.push(A::ChooseRound { explore: rest });
            }
            Phase::Travel { .. } => {
                // All together (one group, to fight together), to the first
                // target the paths reach.
                let here = v.origins[mine].space;
                for t in self.targets() {
                    // Already there: staying is `null`.
                    out.push(A::Travel { to: (t != here).then(|| self.space_id(t)) });
                }
                out.push(A::Travel { to: None });
            }
            Phase::Groups { .. } => {
                out.push(A::Reveal);
                out.push(A::Pass);
            }
            Phase::Resolve => {
                out.extend(v.revealed.iter().map(|r| A::Resolve { card: r.id.clone() }));
            }
            Phase::Rest { .. } => {
                let o = &v.origins[mine];
                for (t, other) in v.origins.iter().enumerate() {
                    if other.downed && o.hp > 6 {
                        out.push(A::Revive { to: t as Seat, hp: 3 });
                    }
                }
                out.extend(self.upgrades(seat));
                out.push(A::Recover { status: None });
                out.push(A::EndTurn);
            }
            Phase::Combat { active: None, .. } => out.push(A::StartTurn),
            Phase::Combat { active: Some(a), .. } if *a == seat => out.extend(self.combat_choices(seat)),
            Phase::Combat { .. } => {}
            Phase::Interlude(i) => {
                if !i.leveled.get(mine).copied().unwrap_or(true) {
                    out.extend(self.level_up_choices());
                }
                out.extend(self.upgrades(seat));
                if !i.merchant_open && v.gold >= 2 {
                    out.push(A::VisitMerchant { level: 1, consumables: Some(ConsumableDeck::Potions) });
                }
                for item in &i.offer {
                    for t in 0..v.origins.len() as Seat {
                        out.push(A::Buy { item: item.clone(), to: t });
                    }
                }
                out.push(A::FinishInterlude);
            }
            Phase::Finished { .. } => {}
        }
        out
    }
}
