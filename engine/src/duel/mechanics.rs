//! The mechanics every power and DI builds on: flying, life and death,
//! terrain and flooding, movement with relics, attacks, and the win.

use super::card::{Armor, AttackKind, Catalogue, Condition, Passive, Terrain, TerrainTo};
use super::event::{DuelEvent, EventKind, LifeCause};
use super::state::*;
use crate::duel::DuelRefusal;
use crate::hex::Hex;
use crate::{Outcome, RuleError, Seat};

/// Whether the relics a moving unit holds go with it (golden rule 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relics {
    Carried,
    Left,
}

impl Relics {
    /// The player's or the card's choice, `true` to carry.
    pub(crate) fn carried_if(carry: bool) -> Relics {
        if carry {
            Relics::Carried
        } else {
            Relics::Left
        }
    }
}

/// Whether a unit that ends in water drowns: one set down by a teleport
/// does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Water {
    Drowns,
    Spared,
}

/// The catalogue and the events of the action being applied.
pub(crate) struct Cx<'a> {
    pub cat: &'a Catalogue,
    pub events: Vec<DuelEvent>,
    /// Only whether the action is accepted matters: it is tried on a copy
    /// that is thrown away (the legal list, a DI's aim). What cannot change
    /// that answer is skipped: public events, rewind checkpoints taken after
    /// the action, the win check after it.
    pub trial: bool,
}

impl<'a> Cx<'a> {
    pub fn new(cat: &'a Catalogue) -> Cx<'a> {
        Cx { cat, events: Vec::new(), trial: false }
    }

    pub fn trial(cat: &'a Catalogue) -> Cx<'a> {
        Cx { cat, events: Vec::new(), trial: true }
    }

    pub fn emit(&mut self, kind: EventKind) {
        if !self.trial {
            self.events.push(DuelEvent::public(kind));
        }
    }
}

/// The other seat of a duel.
pub(super) fn other(s: Seat) -> Seat {
    1 - s
}

pub(crate) fn err(code: DuelRefusal, msg: impl Into<String>) -> RuleError {
    RuleError::of(code, msg)
}

impl Battle {
    fn passive(&self, cat: &Catalogue, u: &Unit, pred: impl Fn(&Passive) -> bool) -> bool {
        self.alpha_of(u).has_passive(cat, pred)
    }

    fn has_marker(u: &Unit, pred: impl Fn(&Condition) -> bool) -> bool {
        u.markers.iter().any(|m| pred(&m.condition))
    }

    /// Flying comes only from powers: a Flying passive or marker, unless grounded.
    pub fn is_flying(&self, cat: &Catalogue, u: &Unit) -> bool {
        Self::flying_given(u, || self.passive(cat, u, |p| matches!(p, Passive::Flying)))
    }

    /// [`Battle::is_flying`], with whether the unit's Alpha has the Flying
    /// passive told by `passive` (a view works it out once per Alpha).
    pub(crate) fn flying_given(u: &Unit, passive: impl FnOnce() -> bool) -> bool {
        if Self::has_marker(u, |c| matches!(c, Condition::Grounded)) {
            return false;
        }
        Self::has_marker(u, |c| matches!(c, Condition::Flying)) || passive()
    }

    pub fn is_rooted(&self, cat: &Catalogue, u: &Unit) -> bool {
        self.passive(cat, u, |p| matches!(p, Passive::Rooted))
    }

    pub fn is_water_walker(&self, cat: &Catalogue, u: &Unit) -> bool {
        self.passive(cat, u, |p| matches!(p, Passive::WaterWalker))
    }

    pub fn has_weapon_lore(&self, cat: &Catalogue, u: &Unit) -> bool {
        self.passive(cat, u, |p| matches!(p, Passive::WeaponLore))
    }

    pub fn is_swift(&self, cat: &Catalogue, u: &Unit) -> bool {
        self.passive(cat, u, |p| matches!(p, Passive::Swift))
    }

    pub fn is_climber(&self, cat: &Catalogue, u: &Unit) -> bool {
        self.passive(cat, u, |p| matches!(p, Passive::Climber))
    }

    pub fn deploys_anywhere(&self, cat: &Catalogue, seat: Seat, alpha: usize) -> bool {
        self.players[seat as usize].alphas[alpha].has_passive(cat, |p| matches!(p, Passive::DeployAnywhere))
    }

    pub fn in_stasis(u: &Unit) -> bool {
        Self::has_marker(u, |c| matches!(c, Condition::Stasis))
    }

    pub fn is_paralyzed(u: &Unit) -> bool {
        Self::has_marker(u, |c| matches!(c, Condition::Paralyzed))
    }

    pub fn is_immobile(u: &Unit) -> bool {
        Self::has_marker(u, |c| matches!(c, Condition::Immobile))
    }

    /// Height level of a hex (hill 2, plains/water 1, crater 0).
    pub fn level(&self, h: Hex) -> i8 {
        self.grid.terrain(h).map_or(1, Terrain::level)
    }

    /// Does this unit hold the relics of its hex? Only non-flying units that
    /// may hold relics, and a unit does hold every relic in its hex.
    pub fn holds_relics(&self, cat: &Catalogue, u: &Unit) -> bool {
        self.holds_relics_given(u, || self.is_flying(cat, u), || self.is_rooted(cat, u))
    }

    /// [`Battle::holds_relics`], with whether the unit flies and is rooted
    /// told by `flying` and `rooted`.
    pub(crate) fn holds_relics_given(
        &self,
        u: &Unit,
        flying: impl FnOnce() -> bool,
        rooted: impl FnOnce() -> bool,
    ) -> bool {
        // A unit brought down from the air (Rain Burst) may not take a relic.
        let grounded = Self::has_marker(u, |c| matches!(c, Condition::Grounded));
        !grounded && !flying() && !rooted() && self.relics_at(u.hex) > 0
    }

    /// Move the relic on `from` one hex, to `to`: refused when every relic
    /// there has already moved this turn (a relic never moves more than one
    /// hex in a turn).
    pub(crate) fn move_relic(&mut self, cx: &mut Cx, from: Hex, to: Hex) -> Result<(), RuleError> {
        let turn = self.turn;
        let relic = self
            .relics
            .iter_mut()
            .find(|x| x.hex == from && x.moved_turn != Some(turn))
            .ok_or_else(|| err(DuelRefusal::RelicMoved, "a relic never moves more than one hex in a turn"))?;
        relic.hex = to;
        relic.moved_turn = Some(turn);
        cx.emit(EventKind::RelicMoved { from, to });
        Ok(())
    }

    /// Whether `seat` may still summon: a free summoning hex (or any hex for
    /// Alphas that deploy anywhere) is checked by the caller.
    pub fn can_pay(&self, seat: Seat, cost: u32, max: u32) -> bool {
        self.players[seat as usize].spent + cost <= max
    }

    // ---------------------------------------------------------------- life

    /// The unit's Alpha loses `amount` life, armor not counted. Stasis stops
    /// it (but not a sacrifice). An emptied pool kills the unit.
    pub(crate) fn lose_life(&mut self, cx: &mut Cx, unit: UnitId, amount: u32, cause: LifeCause) {
        let Some(u) = self.unit(unit) else { return };
        if amount == 0 || (Self::in_stasis(u) && cause != LifeCause::Sacrifice) {
            return;
        }
        let (seat, alpha) = (u.owner, u.alpha);
        let a = &mut self.player_mut(seat).alphas[alpha];
        a.life = a.life.saturating_sub(amount);
        let life = a.life;
        cx.emit(EventKind::LifeLost { seat, alpha, unit, amount, cause, life });
        if life == 0 {
            self.kill(cx, unit);
        }
    }

    /// Remove a unit from the board and refill its Alpha's pool.
    pub(crate) fn kill(&mut self, cx: &mut Cx, unit: UnitId) {
        let Some(pos) = self.units.iter().position(|u| u.id == unit) else { return };
        let u = self.units.remove(pos);
        let explosive: u32 = self
            .alpha_of(&u)
            .design
            .cards
            .iter()
            .filter_map(|id| cx.cat.card(id))
            .flat_map(|c| c.passives.iter())
            .map(|p| if let Passive::ExplosiveGenes { amount } = p { *amount } else { 0 })
            .sum();
        let a = &mut self.player_mut(u.owner).alphas[u.alpha];
        a.life = a.max_life;
        cx.emit(EventKind::Died { unit, seat: u.owner, alpha: u.alpha, life: a.life });
        // Lasting DIs on a dead unit have nothing left to do.
        self.active_dis.retain(|d| d.unit != Some(unit));
        self.casualties.retain_mut(|c| {
            c.candidates.retain(|&x| x != unit);
            !c.candidates.is_empty()
        });
        if explosive > 0 {
            let near: Vec<UnitId> = self.units.iter().filter(|v| v.hex.is_adjacent(u.hex)).map(|v| v.id).collect();
            for v in near {
                self.lose_life(cx, v, explosive, LifeCause::Explosion);
            }
        }
    }

    pub(crate) fn heal(&mut self, cx: &mut Cx, seat: Seat, alpha: usize, amount: u32) {
        let a = &mut self.player_mut(seat).alphas[alpha];
        let before = a.life;
        a.life = (a.life + amount).min(a.max_life);
        let healed = a.life - before;
        let life = a.life;
        cx.emit(EventKind::Healed { seat, alpha, amount: healed, life });
    }

    // ------------------------------------------------------------- terrain

    /// Change a hex's terrain. A crater next to water floods; a unit whose hex
    /// becomes water drowns (unless it flies or walks on water).
    pub(crate) fn set_terrain(&mut self, cx: &mut Cx, hex: Hex, to: Terrain) {
        if !self.grid.contains(hex) || self.grid.terrain(hex) == Some(to) {
            return;
        }
        self.grid.set(hex, to);
        cx.emit(EventKind::TerrainChanged { hex, terrain: to });
        if to == Terrain::Water {
            self.drown_at(cx, hex);
        }
        self.flood(cx);
    }

    /// Flooding: every crater next to water becomes water, repeatedly.
    fn flood(&mut self, cx: &mut Cx) {
        loop {
            let next = self.grid.iter().find(|(h, t)| {
                *t == Terrain::Crater && h.neighbors().any(|n| self.grid.terrain(n) == Some(Terrain::Water))
            });
            let Some((h, _)) = next else { break };
            self.grid.set(h, Terrain::Water);
            cx.emit(EventKind::TerrainChanged { hex: h, terrain: Terrain::Water });
            self.drown_at(cx, h);
        }
    }

    fn drown_at(&mut self, cx: &mut Cx, hex: Hex) {
        if let Some(u) = self.unit_at(hex) {
            if !self.is_flying(cx.cat, u) && !self.is_water_walker(cx.cat, u) {
                let id = u.id;
                self.lose_life(cx, id, DROWN_LOSS, LifeCause::Drowning);
            }
        }
    }

    pub fn resolve_terrain(to: TerrainTo, chosen: Option<Terrain>) -> Result<Terrain, RuleError> {
        Ok(match to {
            TerrainTo::Plains => Terrain::Plains,
            TerrainTo::Hill => Terrain::Hill,
            TerrainTo::Water => Terrain::Water,
            TerrainTo::Crater => Terrain::Crater,
            TerrainTo::Choose => {
                chosen.ok_or_else(|| err(DuelRefusal::MissingTerrain, "this power needs a terrain to create"))?
            }
        })
    }

    // ------------------------------------------------------------ movement

    /// Put a unit on a new hex. Relics it holds go along when carried and the
    /// move is one hex and the relic has not moved this turn (golden rule 2);
    /// otherwise they stay. Entering water drowns unless the unit is spared.
    pub(crate) fn relocate(&mut self, cx: &mut Cx, unit: UnitId, to: Hex, relics: Relics, water: Water) {
        let Some(u) = self.unit(unit) else { return };
        let from = u.hex;
        let holds = self.holds_relics(cx.cat, u);
        let mut carried = 0;
        if holds && relics == Relics::Carried && from.is_adjacent(to) {
            let turn = self.turn;
            for r in self.relics.iter_mut().filter(|r| r.hex == from && r.moved_turn != Some(turn)) {
                r.hex = to;
                r.moved_turn = Some(turn);
                carried += 1;
            }
        }
        self.unit_mut(unit).expect("unit exists").hex = to;
        cx.emit(EventKind::Moved { unit, from, to, relics: carried });
        let u = self.unit(unit).expect("unit exists");
        if water == Water::Drowns
            && self.grid.terrain(to) == Some(Terrain::Water)
            && !self.is_flying(cx.cat, u)
            && !self.is_water_walker(cx.cat, u)
        {
            self.lose_life(cx, unit, DROWN_LOSS, LifeCause::Drowning);
        }
    }

    /// The hex a unit forced one hex in `dir` enters, or None when it is
    /// crushed instead: an occupied hex, off the board, or (for a non-flier)
    /// a higher level.
    fn push_step(&self, cat: &Catalogue, u: &Unit, dir: usize) -> Option<Hex> {
        let to = u.hex.neighbor(dir);
        let blocked = !self.grid.contains(to)
            || self.unit_at(to).is_some()
            || (!self.is_flying(cat, u) && self.level(to) > self.level(u.hex));
        (!blocked).then_some(to)
    }

    /// Would carrying or leaving the relic make a difference to this push?
    /// Only when the unit holds a relic that has not moved this turn and
    /// actually leaves its hex on the first step.
    pub(crate) fn push_moves_a_relic(&self, cat: &Catalogue, unit: UnitId, dir: usize) -> bool {
        let Some(u) = self.unit(unit) else { return false };
        let turn = self.turn;
        self.holds_relics(cat, u)
            && self.relics.iter().any(|r| r.hex == u.hex && r.moved_turn != Some(turn))
            && self.push_step(cat, u, dir).is_some()
    }

    /// Forced movement, one hex at a time in `dir`: into an occupied hex, off
    /// the board or up a level the unit stays and is crushed (3); down a level
    /// it moves and falls (3); into water it drowns (5). Flying units ignore
    /// terrain but are still crushed by units and the board's edge. Rooted
    /// units never move. A held relic goes along on the first hex when
    /// carried (its controller's choice) and it has not moved this turn; on
    /// later hexes it has moved, so it is left behind (L1195-1200). The win
    /// is checked after every hex: a unit holds the relics of each hex it is
    /// pushed through (L174-176, L1117-1118).
    pub(crate) fn force_move(&mut self, cx: &mut Cx, unit: UnitId, dir: usize, distance: u32, relics: Relics) {
        for step in 0..distance {
            let Some(u) = self.unit(unit) else { return };
            if self.is_rooted(cx.cat, u) {
                return;
            }
            let flying = self.is_flying(cx.cat, u);
            let from = u.hex;
            let Some(to) = self.push_step(cx.cat, u, dir) else {
                self.lose_life(cx, unit, CRUSH_LOSS, LifeCause::Crushed);
                return;
            };
            let falls = !flying && self.level(to) < self.level(from);
            let relics = if step == 0 { relics } else { Relics::Left };
            self.relocate(cx, unit, to, relics, Water::Drowns);
            if falls {
                self.lose_life(cx, unit, FALL_LOSS, LifeCause::Falling);
            }
            self.check_win(cx);
            if !matches!(self.phase, Phase::Command) {
                return;
            }
        }
    }

    // -------------------------------------------------------------- attack

    /// Attack value of `attacker` with a power of `kind` and base `value`
    /// against a unit standing on `target_hex`.
    pub fn attack_value(
        &self,
        cat: &Catalogue,
        attacker: Option<&Unit>,
        kind: AttackKind,
        value: i32,
        target: &Unit,
        no_height: bool,
    ) -> i32 {
        let Some(a) = attacker else { return value };
        let mut v = value + self.alpha_of(a).design.modifier(cat, kind);
        for m in &a.markers {
            if let Condition::AttackBonus { kind: k, amount } = m.condition {
                if k.is_none() || k == Some(kind) {
                    v += amount;
                }
            }
        }
        if !no_height
            && !self.is_flying(cat, a)
            && !self.is_flying(cat, target)
            && self.level(a.hex) > self.level(target.hex)
        {
            v += HEIGHT_BONUS;
        }
        v
    }

    /// Armor a unit has left this turn against an attack of `kind`:
    /// (physical, magical).
    pub fn armor_left(&self, cat: &Catalogue, u: &Unit, kind: AttackKind) -> (u32, u32) {
        Self::armor_left_given(self.alpha_of(u).armor(cat), u, kind)
    }

    /// [`Battle::armor_left`] from the armor of the unit's Alpha's cards.
    pub(crate) fn armor_left_given(base: Armor, u: &Unit, kind: AttackKind) -> (u32, u32) {
        let (mut p, mut m) = (base.physical, base.magical);
        for mk in &u.markers {
            if let Condition::ArmorBonus { physical, magical } = mk.condition {
                p += physical;
                m += magical;
            }
        }
        let p = p.saturating_sub(u.used_physical);
        let m = if kind == AttackKind::Magical { m.saturating_sub(u.used_magical) } else { 0 };
        (p, m)
    }

    /// Resolve one attack on one unit: armor used once per turn, the rest is
    /// damage to the shared pool. Returns the damage and whether the pool
    /// emptied (the caller decides who dies); the pool is left at 0 then.
    pub(crate) fn strike(
        &mut self,
        cx: &mut Cx,
        attacker: Option<UnitId>,
        kind: AttackKind,
        value: i32,
        target: UnitId,
        no_height: bool,
    ) -> (u32, bool) {
        let Some(t) = self.unit(target) else { return (0, false) };
        let a = attacker.and_then(|id| self.unit(id));
        let value = self.attack_value(cx.cat, a, kind, value, t, no_height);
        let lore = a.is_some_and(|a| self.has_weapon_lore(cx.cat, a));
        let (phys, mag) = self.armor_left(cx.cat, t, kind);
        let v = value.max(0) as u32;
        // Magical armor first: it is only good against this kind of attack.
        let use_m = mag.min(v);
        let use_p = phys.min(v - use_m);
        let mut damage = v - use_m - use_p;
        let stasis = Self::in_stasis(t);
        let t = self.unit_mut(target).expect("target exists");
        t.used_magical += use_m;
        t.used_physical += use_p;
        // Weapon Lore (L1593-1597): the turn's total damage to a unit is 1
        // more while only Weapon Lore units attacked it. The point comes with
        // the first such attack (so it can kill at once, L1527-1529) and goes
        // again when a unit without Weapon Lore attacks it later that turn.
        let mut revoked = false;
        if attacker.is_some() {
            if lore {
                if !t.hit_by_non_lore && !t.lore_bonus_taken && !stasis {
                    t.lore_bonus_taken = true;
                    damage += 1;
                }
            } else {
                t.hit_by_non_lore = true;
                revoked = std::mem::take(&mut t.lore_bonus_taken);
            }
        }
        if stasis {
            damage = 0;
        }
        let refund = revoked && damage == 0;
        if revoked && damage > 0 {
            damage -= 1;
        }
        let (seat, alpha) = (t.owner, t.alpha);
        cx.emit(EventKind::Attacked { attacker, target, value, armor: use_m + use_p, damage });
        if refund {
            // Nothing of this attack to take the point from: it is given back.
            self.heal(cx, seat, alpha, 1);
        }
        if damage == 0 {
            return (0, false);
        }
        let pool = &mut self.player_mut(seat).alphas[alpha];
        pool.life = pool.life.saturating_sub(damage);
        let life = pool.life;
        cx.emit(EventKind::LifeLost { seat, alpha, unit: target, amount: damage, cause: LifeCause::Attack, life });
        (damage, life == 0)
    }

    // ----------------------------------------------------------------- win

    /// A unit holding two relics wins for its owner at once, unless it is
    /// controlled by the other player (then nobody wins by it).
    pub(crate) fn check_win(&mut self, cx: &mut Cx) {
        if !matches!(self.phase, Phase::Command) {
            return;
        }
        let winner = self
            .units
            .iter()
            // Cheapest test first: this runs after every action.
            .find(|u| u.controller == u.owner && self.relics_at(u.hex) >= 2 && self.holds_relics(cx.cat, u))
            .map(|u| u.owner);
        if let Some(seat) = winner {
            let outcome = Outcome::Win { seat };
            self.phase = Phase::Finished { outcome: outcome.clone() };
            cx.emit(EventKind::GameOver { outcome });
        }
    }
}
