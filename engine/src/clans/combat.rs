//! Figures fighting: their stats with boosts and equipment, where they may
//! go, moving, attacks and counter-attacks, damage, healing, statuses and
//! abilities.

use super::content::{Card, Catalogue, Effect, Kind, Stat, StatusKind, TerrainEffect, Timing};
use super::event::ClansEvent as E;
use super::grid::{Pos, Terrain};
use super::play::{err, R};
use super::refusal::ClansRefusal;
use super::state::{ClansState, Figure, FigureId};
use crate::Seat;

impl ClansState {
    /// A figure's stat with equipment, boosts and Divine Spirit auras
    /// (L25, L37, L105); BREAK caps SPD at 1 (L107).
    pub fn stat(&self, cat: &Catalogue, f: &Figure, stat: Stat) -> i32 {
        let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
        let mut v = match stat {
            Stat::Atk => ally.atk,
            Stat::Spd => ally.spd,
            Stat::Range => ally.range,
        };
        if let Some(Kind::Equipment(e)) = f.equipment.as_deref().and_then(|c| cat.card(c)).map(|c| &c.kind) {
            v += match stat {
                Stat::Atk => e.atk,
                Stat::Spd => e.spd,
                Stat::Range => e.range,
            };
        }
        v += f.boosts.iter().filter(|b| b.stat == stat).map(|b| b.amount).sum::<i32>();
        for s in self.figures.iter().filter(|s| s.owner == f.owner && s.id != f.id) {
            let a = cat.card(&s.card).and_then(Card::ally).expect("figure card");
            if let Some(aura) = a.aura.as_ref().filter(|au| au.stat == stat && s.pos.dist(f.pos) <= au.radius) {
                v += aura.amount;
            }
        }
        if stat == Stat::Spd && f.status(StatusKind::Break) {
            v = v.min(1);
        }
        v.max(0)
    }

    /// ATK in combat: +1 standing on a mountain with the climbing effect (L53).
    pub fn combat_atk(&self, cat: &Catalogue, f: &Figure) -> i32 {
        let climb = self.players[f.owner as usize].terrain.contains(&TerrainEffect::ClimbMountains);
        self.stat(cat, f, Stat::Atk) + i32::from(climb && self.field.at(f.pos) == Some(Terrain::Mountain))
    }

    pub fn max_hp(cat: &Catalogue, f: &Figure) -> i32 {
        cat.card(&f.card).and_then(Card::ally).expect("figure card").hp
    }

    pub fn is_god(cat: &Catalogue, f: &Figure) -> bool {
        cat.card(&f.card).and_then(Card::ally).is_some_and(|a| a.god)
    }

    pub(super) fn has_permanent(cat: &Catalogue, f: &Figure, which: fn(&Effect) -> bool) -> bool {
        cat.card(&f.card).and_then(Card::ally).is_some_and(|a| a.has(which))
    }

    // ----- movement (L69-71, L129-136) --------------------------------------

    /// Every tile `f` may end a move on, with the steps left on arrival.
    pub fn reach(&self, cat: &Catalogue, f: &Figure) -> Vec<(Pos, i32)> {
        let budget = self.stat(cat, f, Stat::Spd) - f.steps_used;
        if budget <= 0 {
            return Vec::new();
        }
        let effects = &self.players[f.owner as usize].terrain;
        let w = self.field.width;
        let mut best = vec![-1i32; self.field.tiles.len()];
        let idx = |p: Pos| (p.1 * w + p.0) as usize;
        best[idx(f.pos)] = budget;
        let mut queue = vec![f.pos];
        while let Some(p) = queue.pop() {
            let left = best[idx(p)];
            if left <= 0 {
                continue;
            }
            for q in p.neighbours() {
                let Some(t) = self.field.at(q) else { continue };
                // The gates: nobody moves through a homebase (L19, C4).
                if self.is_homebase(q) {
                    continue;
                }
                // Never through an enemy; through allies, yes (L69).
                if self.figure_at(q).is_some_and(|o| self.enemies(o.owner, f.owner)) {
                    continue;
                }
                let after = match t {
                    Terrain::Ground => left - 1,
                    // -1 SPD "after landing" (L65, L130): 2 steps, or the last one.
                    Terrain::Forest if effects.contains(&TerrainEffect::ForestStride) => left - 1,
                    Terrain::Forest => (left - 2).max(0),
                    Terrain::Water if effects.contains(&TerrainEffect::WalkOnWater) => (left - 2).max(0),
                    // Stepping onto a mountain reduces movement to 0 (L53).
                    Terrain::Mountain if effects.contains(&TerrainEffect::ClimbMountains) => 0,
                    Terrain::Water | Terrain::Mountain => continue,
                };
                if after > best[idx(q)] {
                    best[idx(q)] = after;
                    queue.push(q);
                }
            }
        }
        // A move ends on an empty tile (L69).
        self.field
            .all()
            .filter(|p| *p != f.pos && best[idx(*p)] >= 0 && self.figure_at(*p).is_none())
            .map(|p| (p, best[idx(p)]))
            .collect()
    }

    pub(super) fn move_figure(&mut self, cat: &Catalogue, id: FigureId, to: Pos, ev: &mut Vec<E>) -> R {
        let seat = self.active;
        self.open(cat, seat, id)?;
        let f = self.figure(id).expect("opened");
        // An action ends the ally's turn, so it never moves after one (L97).
        let Some((_, left)) = self.reach(cat, f).into_iter().find(|(p, _)| *p == to) else {
            return Err(err(
                ClansRefusal::Unreachable,
                "the ally cannot reach that tile with its remaining steps (L69)",
            ));
        };
        let spd = self.stat(cat, f, Stat::Spd);
        let from = f.pos;
        let f = self.figure_mut(id).expect("opened");
        f.steps_used = spd - left;
        f.pos = to;
        ev.push(E::Moved { figure: id, from, to });
        Ok(())
    }

    // ----- combat (L97-109) ---------------------------------------------------

    /// Damage a figure; at 0 HP it is destroyed and `credit` earns its EXP (L7).
    pub(super) fn hurt(
        &mut self,
        cat: &Catalogue,
        id: FigureId,
        amount: i32,
        by: Option<FigureId>,
        credit: Seat,
        ev: &mut Vec<E>,
    ) {
        let Some(f) = self.figure_mut(id) else { return };
        f.hp -= amount;
        let hp = f.hp;
        ev.push(E::Damaged { figure: id, by, amount, hp });
        if hp <= 0 {
            self.destroy(cat, id, Some(credit), ev);
        }
    }

    pub(super) fn destroy(&mut self, cat: &Catalogue, id: FigureId, credit: Option<Seat>, ev: &mut Vec<E>) {
        let Some(i) = self.figures.iter().position(|f| f.id == id) else { return };
        let f = self.figures.remove(i);
        let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
        let credit = credit.filter(|c| self.enemies(*c, f.owner));
        if let Some(c) = credit {
            self.players[c as usize].exp += ally.exp;
        }
        ev.push(E::Destroyed { figure: id, exp_to: credit, exp: if credit.is_some() { ally.exp } else { 0 } });
        if self.current == Some(id) {
            self.current = None;
        }
        if ally.god {
            // "If your God is destroyed, you will lose the game" (L7, L83).
            self.player_out(f.owner, false, ev);
        }
    }

    /// A player is out (L7, L81): in 2v2 their allies leave the field (C12).
    pub(super) fn player_out(&mut self, seat: Seat, resigned: bool, ev: &mut Vec<E>) {
        self.players[seat as usize].out = true;
        self.figures.retain(|f| f.owner != seat);
        if self.current.is_some_and(|c| self.figure(c).is_none()) {
            self.current = None;
        }
        ev.push(E::PlayerOut { seat, resigned });
    }

    pub(super) fn heal(&mut self, cat: &Catalogue, id: FigureId, amount: i32, ev: &mut Vec<E>) {
        let Some(f) = self.figure(id) else { return };
        // HP never exceeds the max Health (L23, L35).
        let max = ClansState::max_hp(cat, f);
        let healed = amount.min(max - f.hp).max(0);
        let f = self.figure_mut(id).expect("present");
        f.hp += healed;
        ev.push(E::Healed { figure: id, amount: healed, hp: f.hp });
    }

    /// Damage that carries a status: + the status' damage and the status,
    /// unless the target is a God, immune to statuses (L83, L107, C11).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hit_with_status(
        &mut self,
        cat: &Catalogue,
        target: FigureId,
        base: i32,
        status: Option<StatusKind>,
        by: Option<FigureId>,
        credit: Seat,
        ev: &mut Vec<E>,
    ) {
        let Some(t) = self.figure(target) else { return };
        let status = status.filter(|_| !ClansState::is_god(cat, t));
        self.hurt(cat, target, base + status.map_or(0, StatusKind::damage), by, credit, ev);
        if let (Some(s), Some(t)) = (status, self.figure_mut(target)) {
            // The same status does not stack (C11).
            if !t.status(s) {
                t.statuses.push((s, credit));
                ev.push(E::StatusApplied { figure: target, status: s });
            }
        }
    }

    /// Whether `f` strikes back at a figure `d` steps away (L97, L103).
    pub(super) fn can_counter(&self, cat: &Catalogue, f: &Figure, d: i32) -> bool {
        d <= self.stat(cat, f, Stat::Range) || ClansState::has_permanent(cat, f, |e| *e == Effect::CounterAnyRange)
    }

    pub(super) fn attack(&mut self, cat: &Catalogue, id: FigureId, target: FigureId, ev: &mut Vec<E>) -> R {
        let seat = self.active;
        self.open(cat, seat, id)?;
        let a = self.figure(id).expect("opened");
        let t = self.figure(target).ok_or_else(|| err(ClansRefusal::NoSuchFigure, "no such target on the field"))?;
        if !self.enemies(a.owner, t.owner) {
            return Err(err(ClansRefusal::NotAnEnemy, "a standard attack targets an enemy (L97)"));
        }
        let d = a.pos.dist(t.pos);
        if d > self.stat(cat, a, Stat::Range) {
            return Err(err(ClansRefusal::OutOfRange, "the target is beyond the ally's Range (L13, L109)"));
        }
        // C9: the attacker strikes first, unless the target has initiative,
        // the attacker has not, and the target can reach it (L101).
        let init = |f: &Figure| ClansState::has_permanent(cat, f, |e| *e == Effect::Initiative);
        let target_first = init(t) && !init(a) && self.can_counter(cat, t, d);
        let order = if target_first { [target, id] } else { [id, target] };
        for (i, striker) in order.into_iter().enumerate() {
            let other = order[1 - i];
            let (Some(s), Some(_)) = (self.figure(striker), self.figure(other)) else { break };
            // The attacker always reaches; the defender only within its Range
            // or with an any-range counter (L97, L103).
            if striker == target && !self.can_counter(cat, s, d) {
                continue;
            }
            let dmg = self.combat_atk(cat, s);
            let owner = s.owner;
            self.hurt(cat, other, dmg, Some(striker), owner, ev);
        }
        self.finish_action(cat, id);
        Ok(())
    }

    /// The figures an ability can aim at now.
    pub fn ability_targets(&self, cat: &Catalogue, f: &Figure, effect: &Effect) -> Vec<FigureId> {
        let within = |r: i32, enemy: bool, pred: &dyn Fn(&Figure) -> bool| -> Vec<FigureId> {
            self.figures
                .iter()
                .filter(|o| self.enemies(o.owner, f.owner) == enemy && o.pos.dist(f.pos) <= r && pred(o))
                .map(|o| o.id)
                .collect()
        };
        match effect {
            Effect::Initiative | Effect::CounterAnyRange => Vec::new(),
            Effect::Strike { .. } => within(self.stat(cat, f, Stat::Range), true, &|_| true),
            Effect::Bolt { range, .. } => within(*range, true, &|_| true),
            Effect::Heal { range, .. } => within(*range, false, &|o| o.hp < ClansState::max_hp(cat, o)),
            Effect::Cure { range } => within(*range, false, &|o| !o.statuses.is_empty()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn use_ability(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        id: FigureId,
        index: u8,
        target: FigureId,
        timing: Timing,
        ev: &mut Vec<E>,
    ) -> R {
        let f = self.own_figure(seat, id)?;
        let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
        let ab = ally
            .abilities
            .get(index as usize)
            .ok_or_else(|| err(ClansRefusal::NoSuchAbility, "an ally has 2 abilities (L5)"))?;
        if ab.timing != timing {
            return Err(err(
                ClansRefusal::WrongTiming,
                match ab.timing {
                    Timing::Pt => "a (PT) ability is used only in its player's turn (L91)",
                    Timing::Ot => "an (OT) ability is used only in an opponent's turn (L91)",
                    Timing::Permanent => "a permanent ability is always in effect, never used (L105)",
                },
            ));
        }
        if self.players[seat as usize].sp < ab.sp {
            return Err(err(ClansRefusal::NoSp, "not enough SP for this ability (L5, L99)"));
        }
        if !self.ability_targets(cat, f, &ab.effect).contains(&target) {
            return Err(err(ClansRefusal::BadTarget, "not a target this ability can reach"));
        }
        let atk = self.combat_atk(cat, f);
        self.players[seat as usize].sp -= ab.sp;
        ev.push(E::AbilityUsed { figure: id, ability: index, name: ab.name.clone(), target, sp: ab.sp });
        match ab.effect {
            // Ability damage draws no counter-attack (C9).
            Effect::Strike { bonus, status } => {
                self.hit_with_status(cat, target, atk + bonus, status, Some(id), seat, ev)
            }
            Effect::Bolt { damage, status, .. } => {
                self.hit_with_status(cat, target, damage, status, Some(id), seat, ev)
            }
            Effect::Heal { amount, .. } => self.heal(cat, target, amount, ev),
            Effect::Cure { .. } => self.cure(target, ev),
            Effect::Initiative | Effect::CounterAnyRange => unreachable!("permanent, refused above"),
        }
        Ok(())
    }

    pub(super) fn cure(&mut self, target: FigureId, ev: &mut Vec<E>) {
        if let Some(t) = self.figure_mut(target) {
            t.statuses.clear();
            ev.push(E::Cured { figure: target });
        }
    }

    // ----- cards --------------------------------------------------------------
}
