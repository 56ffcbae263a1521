//! What minions' and Bosses' turns share (L1614-1699): the Origins they may
//! target, walking and sliding, start-of-turn order, and the party's choice
//! of route or target among equals.

use super::action::Aim;
use super::content::Catalogue;
use super::cooldown::CardRef;
use super::err;
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::minion::Candidate;
use super::state::*;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

impl DivinityState {
    /// Origins (and DOMINATED minions) an enemy may target (L1627).
    pub(super) fn candidates(&self, cat: &Catalogue, except: u32) -> (Vec<Who>, Vec<Candidate>) {
        let mut who = Vec::new();
        let mut cands = Vec::new();
        for s in self.standing() {
            let w = Who::Origin(s);
            if self.has_status(cat, w, |r| r.untargetable) {
                continue;
            }
            let d = self.defence(cat, w);
            let o = &self.origins[s as usize];
            who.push(w);
            cands.push(Candidate {
                space: o.space,
                hp: o.hp,
                physical_armor: d.physical_armor,
                magical_armor: d.magical_armor,
                source: o.source,
            });
        }
        for e in &self.enemies {
            let w = Who::Enemy(e.id);
            if e.id != except && self.has_status(cat, w, |r| r.dominated) {
                let d = self.defence(cat, w);
                who.push(w);
                cands.push(Candidate {
                    space: e.space,
                    hp: e.hp,
                    physical_armor: d.physical_armor,
                    magical_armor: d.magical_armor,
                    source: 0,
                });
            }
        }
        (who, cands)
    }

    /// The spaces a moving enemy keeps furthest from (L1689): every Origin
    /// "other than the target", INVISIBLE and downed ones too, whom L1627
    /// and L747 leave out only "when choosing targets". A DOMINATED minion
    /// counts as an Origin only then (L1627), so not here.
    pub(super) fn route_others(&self, target: Who) -> Vec<SpaceIx> {
        (0..self.origins.len() as Seat)
            .filter(|s| Who::Origin(*s) != target)
            .map(|s| self.origins[s as usize].space)
            .collect()
    }

    pub(super) fn slide_enemy(&mut self, id: u32, ev: &mut Vec<Ev>) {
        let Some(e) = self.enemy_mut(id) else { return };
        let slid = e.track.slide();
        for c in slid.cleared {
            match c.card {
                CardRef::Tactic(t) => e.tactics.push(t),
                CardRef::Status(s) => ev.push(Ev::StatusCleared { who: Who::Enemy(id), status: s }),
                _ => {}
            }
        }
        ev.push(Ev::TurnEnded { who: Who::Enemy(id) });
    }

    /// Move an enemy along a planned walk; BLEEDING hurts on every space.
    pub(super) fn walk(&mut self, cat: &Catalogue, id: u32, walk: &[SpaceIx], ev: &mut Vec<Ev>) {
        for &s in walk {
            let Some(e) = self.enemy_mut(id) else { return };
            e.space = s;
            let to = self.space_id(cat, s);
            ev.push(Ev::Moved { who: Who::Enemy(id), to });
            self.bleed_on_move(cat, Who::Enemy(id), ev);
        }
    }

    /// When the party breaks ties and the order of the enemy's start-of-turn
    /// effects changes the outcome, its turn waits for the party's order
    /// (L684). True when it waits.
    pub(super) fn ask_turn_start_order(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) -> bool {
        let me = Who::Enemy(id);
        if !self.options.party_breaks_ties || !self.turn_start_order_matters(cat, me) {
            return false;
        }
        let statuses = self.turn_start_effects(cat, me);
        ev.push(Ev::TurnStartToOrder { enemy: id, statuses: statuses.clone() });
        self.wait_for(Choice::TurnStartOrder(TurnStartChoice { enemy: id, statuses }));
        true
    }

    /// Whether the rules accept [`Self::order_enemy_turn_start`], judged
    /// from the state without changing it (every refusal of it comes from
    /// here; the leader's say is the caller's).
    pub(super) fn check_order_enemy_turn_start(
        &self,
        cat: &Catalogue,
        order: &[super::status::Status],
    ) -> Result<(), RuleError> {
        let c = self.turn_start().ok_or_else(|| {
            err(DivinityRefusal::NoTurnStartChoice, "no enemy waits for the order of its start-of-turn effects")
        })?;
        self.check_turn_start_order(cat, Who::Enemy(c.enemy), order)
    }

    /// The party orders the waiting enemy's start-of-turn effects (L684);
    /// its turn goes on.
    pub(super) fn order_enemy_turn_start(
        &mut self,
        cat: &Catalogue,
        order: &[super::status::Status],
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_order_enemy_turn_start(cat, order)?;
        let c = self.turn_start().cloned().expect("checked");
        let me = Who::Enemy(c.enemy);
        self.choice = None;
        self.start_of_turn_in(cat, me, order, ev);
        match self.enemy(c.enemy).map(|e| e.kind.clone()) {
            Some(EnemyKind::Minion { .. }) => self.minion_turn_on(cat, c.enemy, ev),
            Some(EnemyKind::Boss { boss }) => self.boss_turn_on(cat, c.enemy, &boss, ev),
            None => {}
        }
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
        Ok(())
    }

    /// Whether the rules accept [`Self::choose_route`], judged from the
    /// state without changing it (every refusal of it comes from here; the
    /// leader's say is the caller's).
    pub(super) fn check_choose_route(&self, route: usize) -> Result<(), RuleError> {
        let r = self.route().ok_or_else(|| err(DivinityRefusal::NoRouteChoice, "no minion is waiting for a route"))?;
        if route >= r.routes.len() {
            return Err(err(DivinityRefusal::NoSuchRoute, format!("choose a route from 0 to {}", r.routes.len() - 1)));
        }
        Ok(())
    }

    /// The party picks a minion's route among equals (L1689); it goes on.
    pub(super) fn choose_route(&mut self, cat: &Catalogue, route: usize, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.check_choose_route(route)?;
        let r = self.route().cloned().expect("checked");
        let chosen = &r.routes[route];
        let walk: Vec<SpaceIx> = chosen.iter().map(|s| self.space_ix(cat, s).expect("a space of the map")).collect();
        self.choice = None;
        match &r.tactic {
            None => self.minion_move_and_attack(cat, r.enemy, r.target, &walk, ev),
            Some(tactic) => {
                let Some(tac) = self.tactic_of(cat, r.enemy, tactic) else { return Ok(()) };
                let held = self.boss_strike_along(cat, r.enemy, &tac, r.target, &walk, ev);
                self.boss_plays_on(cat, r.enemy, held, ev);
            }
        }
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
        Ok(())
    }

    /// The figure the party picks among an enemy's equal targets, or why
    /// not, judged from the state without changing it (every refusal of
    /// [`Self::break_tie`] comes from here; the leader's say is the caller's).
    pub(super) fn check_break_tie(&self, target: &Aim) -> Result<Who, RuleError> {
        let tie =
            self.tie().ok_or_else(|| err(DivinityRefusal::NoTie, "no enemy is waiting for the party's choice"))?;
        target
            .who()
            .filter(|w| tie.options.contains(w))
            .ok_or_else(|| err(DivinityRefusal::NotTied, "choose one of the Origins that qualify equally"))
    }

    /// The party picks an enemy's target among equals (L1623); the enemy goes on.
    pub(super) fn break_tie(&mut self, cat: &Catalogue, target: &Aim, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let t = self.check_break_tie(target)?;
        let tie = self.tie().cloned().expect("checked");
        self.choice = None;
        match &tie.tactic {
            None => {
                ev.push(Ev::Targeted { enemy: tie.enemy, target: t, face: tie.face });
                let others = self.route_others(t);
                self.minion_act(cat, tie.enemy, Some(t), &others, ev);
            }
            Some(tactic) => {
                let Some(tac) = self.tactic_of(cat, tie.enemy, tactic) else { return Ok(()) };
                let held = self.boss_strike(cat, tie.enemy, &tac, t, ev);
                self.boss_plays_on(cat, tie.enemy, held, ev);
            }
        }
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
        Ok(())
    }
}
