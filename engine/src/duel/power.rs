//! Targeting and the effect vocabulary: the interpreter that turns a card's
//! data into changes of the game. Alpha powers and Divine Interventions share it.

use crate::duel::DuelRefusal;
use std::collections::BTreeSet;

use super::action::Target;
use super::card::{Effect, Range, Side, SpecialRule, Targeting, Terrain};
use super::event::{EventKind, LifeCause};
use super::mechanics::{err, Cx, Relics, Water};
use super::state::*;
use crate::hex::Hex;
use crate::{RuleError, Seat};

/// Who uses the effect: a unit's power (with its card's range) or a DI.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source {
    pub seat: Seat,
    pub actor: Option<UnitId>,
    pub range: Option<Range>,
    /// The lasting DI whose markers these are.
    pub di: Option<u32>,
}

/// The target a power resolved to.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Resolved {
    pub unit: Option<UnitId>,
    pub hex: Option<Hex>,
}

impl Battle {
    fn side_ok(&self, side: Side, seat: Seat, u: &Unit) -> bool {
        match side {
            Side::Any => true,
            Side::Enemy => u.controller != seat,
            Side::Friendly => u.controller == seat,
        }
    }

    /// Range, cliffs, cover and the flying exceptions for a unit's power
    /// aimed at `hex` (and at `target_unit` when it targets a unit).
    fn check_reach(
        &self,
        cx: &Cx,
        actor: &Unit,
        range: Range,
        hex: Hex,
        target_unit: Option<&Unit>,
    ) -> Result<(), RuleError> {
        let d = actor.hex.distance(hex);
        if !range.contains(d) {
            let want = if range.min == range.max {
                format!("exactly {}", range.min)
            } else {
                format!("{}-{}", range.min, range.max)
            };
            return Err(err(
                DuelRefusal::OutOfRange,
                format!("the target is {d} hexes away; this power's range is {want}"),
            ));
        }
        let actor_flies = self.is_flying(cx.cat, actor);
        let target_flies = target_unit.is_some_and(|t| self.is_flying(cx.cat, t));
        if let Some(t) = target_unit {
            if target_flies && range.max <= 1 && !actor_flies && !t.exposed {
                return Err(err(
                    DuelRefusal::FlyingTarget,
                    "a flying unit can be targeted only by a power of range more than 1, by a flying unit, \
                     or after it used a power on a hex or a non-flying unit in its last activation",
                ));
            }
        }
        if actor_flies || target_flies {
            return Ok(()); // flying ignores terrain: no cliffs, no cover
        }
        if range.max <= 1 && self.grid.cliff_between(actor.hex, hex) {
            return Err(err(DuelRefusal::Cliff, "only powers with a range of more than 1 can be used across a cliff"));
        }
        let top = self.level(actor.hex).max(self.level(hex));
        for (a, b) in actor.hex.between(hex) {
            if self.level(a) > top && self.level(b) > top {
                return Err(err(
                    DuelRefusal::Cover,
                    format!("the target has cover: hex {a} between is higher than both"),
                ));
            }
        }
        Ok(())
    }

    /// Earthquake: the target stands on a non-plains hex, the caster next to
    /// a hex of that terrain, and a connected path of that terrain joins them.
    fn check_earthquake(&self, actor: &Unit, target: &Unit) -> Result<(), RuleError> {
        let t = self.grid.terrain(target.hex).unwrap_or_default();
        if t == Terrain::Plains {
            return Err(err(DuelRefusal::Earthquake, "Earthquake needs a target on a non-plains hex"));
        }
        let mut seen = BTreeSet::from([target.hex]);
        let mut todo = vec![target.hex];
        while let Some(h) = todo.pop() {
            if h.is_adjacent(actor.hex) {
                return Ok(());
            }
            for n in h.neighbors() {
                if self.grid.terrain(n) == Some(t) && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        Err(err(
            DuelRefusal::Earthquake,
            "Earthquake needs a connected path of the target's terrain reaching a hex next to the caster",
        ))
    }

    /// Check a target choice against a power's or DI's targeting.
    pub(crate) fn resolve_target(
        &self,
        cx: &Cx,
        src: Source,
        targeting: &Targeting,
        special: Option<SpecialRule>,
        t: &Target,
    ) -> Result<Resolved, RuleError> {
        if t.choose.is_some() {
            return Err(err(
                DuelRefusal::ListedChoice,
                "`choose` is a legal list's offer: send the chosen hexes in `hexes`",
            ));
        }
        let actor = src.actor.and_then(|id| self.unit(id));
        match targeting {
            Targeting::Itself => Ok(Resolved { unit: src.actor, hex: actor.map(|a| a.hex) }),
            Targeting::Unit { side, owned } => {
                let id = t.unit.ok_or_else(|| err(DuelRefusal::MissingTarget, "this power needs a target unit"))?;
                let u =
                    self.unit(id).ok_or_else(|| err(DuelRefusal::NoSuchUnit, format!("no unit {id} on the board")))?;
                if !self.side_ok(*side, src.seat, u) {
                    let want = if *side == Side::Enemy { "an enemy" } else { "a friendly" };
                    return Err(err(DuelRefusal::WrongSide, format!("the target must be {want} unit")));
                }
                if *owned && u.owner != src.seat {
                    return Err(err(
                        DuelRefusal::NotOwned,
                        "this can target only a unit you own, even if you control another",
                    ));
                }
                if let (Some(a), Some(r)) = (actor, src.range) {
                    self.check_reach(cx, a, r, u.hex, Some(u))?;
                    if special == Some(SpecialRule::Earthquake) {
                        self.check_earthquake(a, u)?;
                    }
                }
                Ok(Resolved { unit: Some(id), hex: Some(u.hex) })
            }
            Targeting::Hex { empty } => {
                let h = t.hex.ok_or_else(|| err(DuelRefusal::MissingTarget, "this power needs a target hex"))?;
                if !self.grid.contains(h) {
                    return Err(err(DuelRefusal::OffBoard, format!("hex {h} is not on the board")));
                }
                if *empty && self.unit_at(h).is_some() {
                    return Err(err(DuelRefusal::Occupied, format!("hex {h} must be empty")));
                }
                if let (Some(a), Some(r)) = (actor, src.range) {
                    self.check_reach(cx, a, r, h, None)?;
                }
                Ok(Resolved { unit: self.unit_at(h).map(|u| u.id), hex: Some(h) })
            }
            Targeting::Hexes { count } => {
                let set: BTreeSet<Hex> = t.hexes.iter().copied().collect();
                if set.is_empty() || set.len() != t.hexes.len() || set.len() > *count as usize {
                    return Err(err(DuelRefusal::BadHexes, format!("choose 1 to {count} distinct hexes")));
                }
                if let Some(h) = set.iter().find(|h| !self.grid.contains(**h)) {
                    return Err(err(DuelRefusal::OffBoard, format!("hex {h} is not on the board")));
                }
                Ok(Resolved::default())
            }
            Targeting::WaterBody => {
                let h =
                    t.hex.ok_or_else(|| err(DuelRefusal::MissingTarget, "name a water hex of the body of water"))?;
                if self.grid.terrain(h) != Some(Terrain::Water) {
                    return Err(err(DuelRefusal::NotWater, format!("hex {h} is not water")));
                }
                Ok(Resolved { unit: None, hex: Some(h) })
            }
            Targeting::Relic => {
                let h = t.hex.ok_or_else(|| err(DuelRefusal::MissingTarget, "name the hex of a relic"))?;
                if self.relics_at(h) == 0 {
                    return Err(err(DuelRefusal::NoRelic, format!("there is no relic on {h}")));
                }
                Ok(Resolved { unit: None, hex: Some(h) })
            }
        }
    }

    /// Did this use aim at a hex or at a non-flying unit (flying exception 3)?
    pub(crate) fn exposes(&self, cx: &Cx, targeting: &Targeting, r: Resolved) -> bool {
        match targeting {
            Targeting::Itself => false,
            Targeting::Unit { .. } => r.unit.and_then(|id| self.unit(id)).is_some_and(|u| !self.is_flying(cx.cat, u)),
            _ => true,
        }
    }

    /// Apply the effects in order. Effects whose target died on the way are skipped.
    pub(crate) fn apply_effects(
        &mut self,
        cx: &mut Cx,
        src: Source,
        effects: &[Effect],
        r: Resolved,
        t: &Target,
    ) -> Result<(), RuleError> {
        for e in effects {
            self.apply_effect(cx, src, e, r, t)?;
            if !matches!(self.phase, Phase::Command) {
                break;
            }
        }
        Ok(())
    }

    fn apply_effect(&mut self, cx: &mut Cx, src: Source, e: &Effect, r: Resolved, t: &Target) -> Result<(), RuleError> {
        let alive = |g: &Battle| r.unit.filter(|id| g.unit(*id).is_some());
        match *e {
            Effect::Attack { kind, value, radius, no_height } => {
                let Some(main) = alive(self) else { return Ok(()) };
                let center = self.unit(main).expect("alive").hex;
                let mut targets = vec![main];
                if radius > 0 {
                    targets.extend(
                        self.units
                            .iter()
                            .filter(|u| u.id != main && Some(u.id) != src.actor && u.hex.distance(center) <= radius)
                            .map(|u| u.id),
                    );
                }
                self.attack_all(cx, src.actor, kind, value, &targets, no_height);
            }
            Effect::LoseLife { amount } => {
                if let Some(u) = alive(self) {
                    self.lose_life(cx, u, amount, LifeCause::Power);
                }
            }
            Effect::Heal { amount, target } => {
                let who = if target { alive(self) } else { src.actor.or(alive(self)) };
                if let Some(u) = who.and_then(|id| self.unit(id)) {
                    let (s, a) = (u.owner, u.alpha);
                    self.heal(cx, s, a, amount);
                }
            }
            Effect::SetTerrain { to, occupant_loses } => {
                let hex = r.hex.ok_or_else(|| err(DuelRefusal::MissingTarget, "this effect needs a hex"))?;
                let to = Battle::resolve_terrain(to, t.terrain)?;
                let falls = to.level() < self.level(hex);
                let occupant = self.unit_at(hex).map(|u| (u.id, self.is_flying(cx.cat, u)));
                self.set_terrain(cx, hex, to);
                if let Some((id, false)) = occupant {
                    if falls && occupant_loses > 0 {
                        self.lose_life(cx, id, occupant_loses, LifeCause::Falling);
                    }
                }
            }
            Effect::SetTerrainAround { to } => {
                let hex = r.hex.ok_or_else(|| err(DuelRefusal::MissingTarget, "this effect needs a hex"))?;
                let to = Battle::resolve_terrain(to, t.terrain)?;
                for n in hex.neighbors().collect::<Vec<_>>() {
                    self.set_terrain(cx, n, to);
                }
            }
            Effect::Flood => {
                for h in t.hexes.clone() {
                    self.set_terrain(cx, h, Terrain::Water);
                }
            }
            Effect::GrowWater => {
                let hex = r.hex.ok_or_else(|| err(DuelRefusal::MissingTarget, "name the body of water"))?;
                self.check_growth(hex, &t.hexes)?;
                for h in t.hexes.clone() {
                    self.set_terrain(cx, h, Terrain::Water);
                }
            }
            Effect::ForceMove { distance } => {
                let Some(u) = alive(self) else { return Ok(()) };
                let dir = t.direction.ok_or_else(|| {
                    err(DuelRefusal::MissingDirection, "choose a direction 0-5 for the forced movement")
                })?;
                if dir > 5 {
                    return Err(err(DuelRefusal::BadDirection, "directions are 0 to 5"));
                }
                // "Up to N hexes": the pushing player chooses how far.
                let far = t.distance.unwrap_or(distance);
                if far == 0 || far > distance {
                    return Err(err(
                        DuelRefusal::BadDistance,
                        format!("this forced movement goes 1 to {distance} hexes"),
                    ));
                }
                // The relic goes along "as decided by its controller" (L1195-1197):
                // the pusher decides in the action only for a unit it controls.
                let controller = self.unit(u).expect("alive").controller;
                if t.carry_relic.is_some() && controller != src.seat {
                    return Err(err(
                        DuelRefusal::NotYourRelic,
                        format!(
                            "a forced unit's controller decides whether it carries its relic; unit {u} is not yours"
                        ),
                    ));
                }
                if controller != src.seat && self.push_moves_a_relic(cx.cat, u, dir as usize) {
                    // The other seat decides: the push waits for its answer
                    // (`carry_relic`), then goes on as it would have.
                    let by_power = src.actor.is_some();
                    self.relic_choice =
                        Some(RelicChoice { seat: controller, unit: u, direction: dir, distance: far, by_power });
                    cx.emit(EventKind::RelicChoiceAwaited { seat: controller, unit: u });
                    return Ok(());
                }
                self.force_move(cx, u, dir as usize, far, Relics::carried_if(t.carry_relic.unwrap_or(true)));
            }
            Effect::Teleport { distance } => {
                let Some(id) = alive(self) else { return Ok(()) };
                let dest = t.dest.ok_or_else(|| err(DuelRefusal::MissingDest, "choose the hex to teleport to"))?;
                let u = self.unit(id).expect("alive");
                if self.is_rooted(cx.cat, u) {
                    return Err(err(
                        DuelRefusal::Rooted,
                        "this unit can never move, not even by a Divine Intervention",
                    ));
                }
                if !self.grid.contains(dest) || self.unit_at(dest).is_some() {
                    return Err(err(DuelRefusal::Occupied, format!("hex {dest} must be an empty hex of the board")));
                }
                if u.hex.distance(dest) > distance || dest == u.hex {
                    return Err(err(DuelRefusal::OutOfRange, format!("teleport reaches at most {distance} hexes")));
                }
                self.relocate(cx, id, dest, Relics::Carried, Water::Spared);
            }
            Effect::Mark { condition, until, radius, side } => {
                let marker = Marker { condition, until, by: src.seat, di: src.di };
                let who: Vec<UnitId> = match radius {
                    Some(rad) => {
                        let Some(center) = src.actor.and_then(|a| self.unit(a)).map(|a| a.hex) else { return Ok(()) };
                        self.units
                            .iter()
                            .filter(|u| u.hex.distance(center) <= rad && self.side_ok(side, src.seat, u))
                            .map(|u| u.id)
                            .collect()
                    }
                    None => alive(self).into_iter().collect(),
                };
                for id in who {
                    let was_flying = self.is_flying(cx.cat, self.unit(id).expect("listed"));
                    self.unit_mut(id).expect("listed").markers.push(marker.clone());
                    cx.emit(EventKind::Marked { unit: id });
                    // A flier brought down over water drowns (Rain Burst).
                    let u = self.unit(id).expect("listed");
                    if was_flying
                        && !self.is_flying(cx.cat, u)
                        && self.grid.terrain(u.hex) == Some(Terrain::Water)
                        && !self.is_water_walker(cx.cat, u)
                    {
                        self.lose_life(cx, id, DROWN_LOSS, LifeCause::Drowning);
                    }
                }
            }
            Effect::Control => {
                let Some(id) = alive(self) else { return Ok(()) };
                self.unit_mut(id).expect("alive").controller = src.seat;
                cx.emit(EventKind::Controlled { unit: id, by: src.seat });
            }
            Effect::ExtraAction => {
                if let Some(a) = self.activation.as_mut() {
                    a.a += 1;
                }
            }
            Effect::ExtraMove => {
                let Some(id) = alive(self) else { return Ok(()) };
                match self.activation.as_mut() {
                    Some(a) if a.unit == id && !a.ended => a.m += 1,
                    _ => self.unit_mut(id).expect("alive").extra_m += 1,
                }
            }
            Effect::SummonCopy => {
                let actor = src
                    .actor
                    .and_then(|a| self.unit(a))
                    .ok_or_else(|| err(DuelRefusal::NoActor, "only a unit can summon a copy"))?;
                let dest =
                    t.dest.ok_or_else(|| err(DuelRefusal::MissingDest, "choose an empty hex next to the unit"))?;
                if !dest.is_adjacent(actor.hex) || !self.grid.contains(dest) || self.unit_at(dest).is_some() {
                    return Err(err(
                        DuelRefusal::Occupied,
                        format!("hex {dest} must be an empty hex next to the unit"),
                    ));
                }
                let (owner, alpha) = (actor.owner, actor.alpha);
                self.place_unit(cx, src.seat, owner, alpha, dest)?;
            }
            Effect::ShiftRelic => {
                let from = r.hex.ok_or_else(|| err(DuelRefusal::MissingTarget, "name the relic's hex"))?;
                let dest = t.dest.ok_or_else(|| err(DuelRefusal::MissingDest, "choose the hex the relic moves to"))?;
                if !dest.is_adjacent(from) || !self.grid.contains(dest) {
                    return Err(err(DuelRefusal::BadDest, "a relic moves to an adjacent hex of the board"));
                }
                self.move_relic(cx, from, dest)?;
            }
            Effect::Dispel => {
                let Some(id) = alive(self) else { return Ok(()) };
                self.unit_mut(id).expect("alive").markers.clear();
                let ended: Vec<ActiveDi> = self.active_dis.iter().filter(|d| d.unit == Some(id)).cloned().collect();
                self.active_dis.retain(|d| d.unit != Some(id));
                for d in ended {
                    cx.emit(EventKind::DiExpired { seat: d.owner, card: d.card });
                }
                cx.emit(EventKind::MarkerExpired { unit: id });
            }
        }
        Ok(())
    }

    /// One attack on several units. Per Alpha: if its pool empties, one of its
    /// hit units dies (the defender's choice when several were hit), the pool
    /// refills, and the rest of this attack's damage to that Alpha is ignored.
    fn attack_all(
        &mut self,
        cx: &mut Cx,
        actor: Option<UnitId>,
        kind: super::card::AttackKind,
        value: i32,
        targets: &[UnitId],
        no_height: bool,
    ) {
        let mut done: Vec<(Seat, usize)> = Vec::new();
        for &id in targets {
            let Some(u) = self.unit(id) else { continue };
            let key = (u.owner, u.alpha);
            if done.contains(&key) {
                continue;
            }
            let (_, emptied) = self.strike(cx, actor, kind, value, id, no_height);
            if emptied {
                done.push(key);
                let hit: Vec<UnitId> = targets
                    .iter()
                    .copied()
                    .filter(|t| self.unit(*t).is_some_and(|u| (u.owner, u.alpha) == key))
                    .collect();
                if hit.len() == 1 {
                    self.kill(cx, hit[0]);
                } else {
                    let a = &mut self.player_mut(key.0).alphas[key.1];
                    a.life = a.max_life;
                    self.casualties.push(Casualty { seat: key.0, candidates: hit });
                }
            }
        }
    }

    /// Tsunami: every added hex must touch the body, and each body hex may
    /// feed at most one added hex (a matching), so inner hexes don't multiply.
    fn check_growth(&self, seed: Hex, added: &[Hex]) -> Result<(), RuleError> {
        let mut body = BTreeSet::from([seed]);
        let mut todo = vec![seed];
        while let Some(h) = todo.pop() {
            for n in h.neighbors() {
                if self.grid.terrain(n) == Some(Terrain::Water) && body.insert(n) {
                    todo.push(n);
                }
            }
        }
        let set: BTreeSet<Hex> = added.iter().copied().collect();
        if set.len() != added.len() {
            return Err(err(DuelRefusal::BadHexes, "each hex once"));
        }
        for h in added {
            if !self.grid.contains(*h) || self.grid.terrain(*h) == Some(Terrain::Water) {
                return Err(err(DuelRefusal::BadHexes, format!("{h} must be a non-water hex of the board")));
            }
        }
        let body: Vec<Hex> = body.into_iter().collect();
        let mut owner: Vec<Option<usize>> = vec![None; body.len()];
        fn augment(i: usize, added: &[Hex], body: &[Hex], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
            for (j, b) in body.iter().enumerate() {
                if added[i].is_adjacent(*b) && !seen[j] {
                    seen[j] = true;
                    if owner[j].is_none_or(|k| augment(k, added, body, owner, seen)) {
                        owner[j] = Some(i);
                        return true;
                    }
                }
            }
            false
        }
        for i in 0..added.len() {
            let mut seen = vec![false; body.len()];
            if !augment(i, added, &body, &mut owner, &mut seen) {
                return Err(err(
                    DuelRefusal::BadGrowth,
                    format!("{} cannot be added: each water hex of the body adds at most one hex next to it", added[i]),
                ));
            }
        }
        Ok(())
    }

    /// Summoning steps 6-8 for a unit placed by a power: pay, place, cubes.
    pub(crate) fn place_unit(
        &mut self,
        cx: &mut Cx,
        payer: Seat,
        owner: Seat,
        alpha: usize,
        hex: Hex,
    ) -> Result<UnitId, RuleError> {
        let cost = self.players[owner as usize].alphas[alpha].cost;
        let max = self.max_points;
        if !self.can_pay(payer, cost, max) {
            return Err(err(
                DuelRefusal::NoPoints,
                format!(
                    "paying {cost} would exceed the maximum of {max} summoning points (spent {})",
                    self.players[payer as usize].spent
                ),
            ));
        }
        self.player_mut(payer).spent += cost;
        let id = self.next_unit;
        self.next_unit += 1;
        self.units.push(Unit {
            id,
            owner,
            controller: owner,
            alpha,
            hex,
            summoned_turn: self.turn,
            activated_turn: None,
            used_physical: 0,
            used_magical: 0,
            exposed: false,
            markers: Vec::new(),
            extra_m: 0,
            hit_by_non_lore: false,
            lore_bonus_taken: false,
        });
        let spent = self.players[payer as usize].spent;
        cx.emit(EventKind::Summoned { seat: owner, alpha, unit: id, hex, spent });
        let cards = self.players[owner as usize].alphas[alpha].design.cards.clone();
        for c in cards {
            let n = cx.cat.card(&c).map_or(0, |c| c.cubes_per_summon);
            if n > 0 {
                *self.player_mut(owner).alphas[alpha].cubes.entry(c).or_insert(0) += n;
            }
        }
        if self.grid.terrain(hex) == Some(Terrain::Water) {
            let u = self.unit(id).expect("placed");
            if !self.is_flying(cx.cat, u) && !self.is_water_walker(cx.cat, u) {
                self.lose_life(cx, id, DROWN_LOSS, LifeCause::Drowning);
            }
        }
        Ok(id)
    }
}
