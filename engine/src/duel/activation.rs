//! A unit's activation: activating it, its basic move, passing a relic,
//! its powers, and its end (which opens the opponent's response window).
//! Each action is checked by a function that changes nothing (`check_…`,
//! `plan_…`) before it is applied, so the legal list can ask the same
//! question without trying the action on a copy of the state.

use super::action::Target;
use super::card::{AcCard, CardId, Catalogue, Cost, Power, Terrain};
use super::event::{EventKind, LifeCause};
use super::mechanics::{err, other, Cx, Relics, Water};
use super::power::{Resolved, Source};
use super::state::*;
use crate::duel::DuelRefusal;
use crate::hex::Hex;
use crate::{RuleError, Seat};

/// How a basic move goes, decided before anything changes: it always
/// spends the unit's m, and its a too when it climbs without being a climber.
pub(super) struct MovePlan {
    a: bool,
    path: MovePath,
}

enum MovePath {
    /// One hex on foot, with the unit's relics unless it leaves them.
    Step,
    /// Two hexes by a swift unit, through this free hex of the same level.
    Via(Hex),
    /// Up to two hexes in the air.
    Fly,
}

/// A power use that passed its checks: what paying and resolving it needs.
pub(super) struct PowerUse<'c> {
    /// The acting unit, and the owner and Alpha whose cubes it spends.
    unit: UnitId,
    owner: Seat,
    alpha: usize,
    power: &'c Power,
    src: Source,
    resolved: Resolved,
    exposes: bool,
}

impl DuelState {
    pub(super) fn no_activation_running(&self) -> Result<(), RuleError> {
        if self.game.activation.is_some() {
            return Err(err(DuelRefusal::ActivationRunning, "end the current unit's activation first"));
        }
        Ok(())
    }

    /// Whether `seat` may activate unit `id` now; changes nothing (the legal
    /// list asks it without trying the action on a copy).
    pub(super) fn check_activate(&self, seat: Seat, id: UnitId) -> Result<(), RuleError> {
        self.no_activation_running()?;
        let g = &self.game;
        if !matches!(g.step, Step::Activation) {
            let why = match g.step {
                Step::FirstTurn { .. } => "your first turn is for summoning only",
                _ => "the activation step is over",
            };
            return Err(err(DuelRefusal::WrongStep, why));
        }
        let u = g.unit(id).ok_or_else(|| err(DuelRefusal::NoSuchUnit, format!("no unit {id} on the board")))?;
        if u.controller != seat {
            return Err(err(DuelRefusal::NotYourUnit, format!("unit {id} is not under your control")));
        }
        if u.activated_turn == Some(g.turn) {
            return Err(err(DuelRefusal::AlreadyActivated, format!("unit {id} has already been activated this turn")));
        }
        if u.summoned_turn == g.turn {
            return Err(err(DuelRefusal::JustSummoned, "a unit summoned this turn activates from the next turn"));
        }
        Ok(())
    }

    pub(super) fn activate(&mut self, cx: &mut Cx, seat: Seat, id: UnitId) -> Result<(), RuleError> {
        self.check_activate(seat, id)?;
        let g = &mut self.game;
        let turn = g.turn;
        let u = g.unit(id).expect("checked");
        let in_water = g.grid.terrain(u.hex) == Some(Terrain::Water) && !g.is_flying(cx.cat, u);
        let u = g.unit_mut(id).expect("exists");
        u.activated_turn = Some(turn);
        u.exposed = false;
        let m = 1 + std::mem::take(&mut u.extra_m);
        g.activation = Some(Activation { unit: id, m, a: 1, spent_a: false, started_in_water: in_water, ended: false });
        cx.emit(EventKind::Activated { unit: id });
        self.checkpoints = vec![std::sync::Arc::new(self.game.clone())];
        Ok(())
    }

    /// The activation in progress and its unit, for the seat controlling it.
    pub(super) fn current(&self, seat: Seat) -> Result<(Activation, &Unit), RuleError> {
        let a = self
            .game
            .activation
            .clone()
            .filter(|a| !a.ended)
            .ok_or_else(|| err(DuelRefusal::NoActivation, "activate a unit first"))?;
        let u = self
            .game
            .unit(a.unit)
            .ok_or_else(|| err(DuelRefusal::UnitDead, "the activated unit is no longer on the board"))?;
        if u.controller != seat {
            return Err(err(DuelRefusal::NotYourUnit, "the activated unit is not under your control"));
        }
        Ok((a, u))
    }

    /// Take the activation's m and a that `cost` names (its cubes and life
    /// are paid by the power).
    pub(super) fn spend(&mut self, cost: Cost) {
        let act = self.game.activation.as_mut().expect("activation running");
        if cost.m {
            act.m -= 1;
        }
        if cost.a {
            act.a -= 1;
            act.spent_a = true;
        }
    }

    pub(super) fn basic_move(&mut self, cx: &mut Cx, seat: Seat, to: Hex, relics: Relics) -> Result<(), RuleError> {
        let (id, plan) = self.plan_move(cx.cat, seat, to)?;
        self.spend(Cost { m: true, a: plan.a, ..Cost::default() });
        match plan.path {
            // A flying unit or a two-hex move: a relic never moves more
            // than one hex, so it stays.
            MovePath::Fly => self.game.relocate(cx, id, to, Relics::Left, Water::Drowns),
            MovePath::Via(via) => {
                self.game.relocate(cx, id, via, Relics::Left, Water::Drowns);
                if self.game.unit(id).is_some() {
                    self.game.relocate(cx, id, to, Relics::Left, Water::Drowns);
                }
            }
            MovePath::Step => self.game.relocate(cx, id, to, relics, Water::Drowns),
        }
        Ok(())
    }

    /// Whether the activated unit may move to `to`, and how; changes nothing.
    pub(super) fn plan_move(&self, cat: &Catalogue, seat: Seat, to: Hex) -> Result<(UnitId, MovePlan), RuleError> {
        let (act, u) = self.current(seat)?;
        let g = &self.game;
        if g.is_rooted(cat, u) {
            return Err(err(DuelRefusal::Rooted, "this unit can never move"));
        }
        if Battle::is_paralyzed(u) || Battle::is_immobile(u) {
            return Err(err(DuelRefusal::CannotMove, "this unit may not spend its m"));
        }
        if act.m == 0 {
            return Err(err(DuelRefusal::NoM, "the unit has already spent its m"));
        }
        if !g.grid.contains(to) {
            return Err(err(DuelRefusal::OffBoard, format!("{to} is not on the board")));
        }
        if g.unit_at(to).is_some() {
            return Err(err(DuelRefusal::Occupied, format!("{to} already holds a unit (one unit per hex)")));
        }
        let d = u.hex.distance(to);
        if g.is_flying(cat, u) {
            if act.spent_a {
                return Err(err(DuelRefusal::FlewAfterA, "a flying unit cannot move after spending its a"));
            }
            if !(1..=2).contains(&d) {
                return Err(err(DuelRefusal::TooFar, "a flying unit moves up to 2 hexes"));
            }
            return Ok((u.id, MovePlan { a: false, path: MovePath::Fly }));
        }
        let (from_l, to_l) = (g.level(u.hex), g.level(to));
        let climb = (from_l - to_l).abs();
        let plan = match (d, climb) {
            (1, 0) => MovePlan { a: false, path: MovePath::Step },
            (1, 1) => {
                if g.is_climber(cat, u) {
                    MovePlan { a: false, path: MovePath::Step }
                } else if act.a == 0 {
                    return Err(err(DuelRefusal::NoA, "changing level needs both m and a"));
                } else {
                    MovePlan { a: true, path: MovePath::Step }
                }
            }
            (1, _) => return Err(err(DuelRefusal::Cliff, "a cliff between a crater and a hill cannot be crossed")),
            (2, 0) if g.is_swift(cat, u) => {
                let via = u.hex.neighbors().find(|n| {
                    n.is_adjacent(to) && g.grid.contains(*n) && g.unit_at(*n).is_none() && g.level(*n) == from_l
                });
                let Some(via) = via else {
                    return Err(err(DuelRefusal::NoPath, "no free hex of the same level leads there"));
                };
                MovePlan { a: false, path: MovePath::Via(via) }
            }
            _ => return Err(err(DuelRefusal::TooFar, "a unit moves to an adjacent hex")),
        };
        Ok((u.id, plan))
    }

    pub(super) fn pass_relic(&mut self, cx: &mut Cx, seat: Seat, to: UnitId) -> Result<(), RuleError> {
        let (act, u) = self.current(seat)?;
        let g = &self.game;
        if act.a == 0 || Battle::is_paralyzed(u) {
            return Err(err(DuelRefusal::NoA, "passing a relic needs the unit's a"));
        }
        if !g.holds_relics(cx.cat, u) {
            return Err(err(DuelRefusal::NoRelic, "the activated unit holds no relic"));
        }
        let r = g.unit(to).ok_or_else(|| err(DuelRefusal::NoSuchUnit, format!("no unit {to}")))?;
        if !r.hex.is_adjacent(u.hex) || r.controller != seat || g.is_flying(cx.cat, r) || g.is_rooted(cx.cat, r) {
            return Err(err(
                DuelRefusal::BadReceiver,
                "a relic goes to an adjacent friendly non-flying unit that can hold relics",
            ));
        }
        let (from, dest) = (u.hex, r.hex);
        self.game.move_relic(cx, from, dest)?;
        self.spend(Cost { a: true, ..Cost::default() });
        Ok(())
    }

    pub(super) fn use_power(
        &mut self,
        cx: &mut Cx,
        seat: Seat,
        card_id: CardId,
        idx: usize,
        target: Target,
    ) -> Result<(), RuleError> {
        let PowerUse { unit, owner, alpha, power, src, resolved: r, exposes } =
            self.check_power(cx, seat, &card_id, idx, &target)?;
        let c = power.cost;
        // Pay, then the effect.
        self.spend(c);
        let g = &mut self.game;
        if c.c {
            *g.player_mut(owner).alphas[alpha].cubes.get_mut(&card_id).expect("checked") -= 1;
        }
        if exposes {
            g.unit_mut(unit).expect("alive").exposed = true;
        }
        cx.emit(EventKind::PowerUsed { unit, card: card_id, power: power.name.clone() });
        if c.life > 0 {
            g.lose_life(cx, unit, c.life, LifeCause::Sacrifice);
        }
        g.apply_effects(cx, src, &power.effects, r, &target)
    }

    /// Whether the activated unit may use this power on `target`: its costs
    /// and its targeting, everything but the effects; changes nothing.
    pub(super) fn check_power<'c>(
        &self,
        cx: &Cx<'c>,
        seat: Seat,
        card_id: &CardId,
        idx: usize,
        target: &Target,
    ) -> Result<PowerUse<'c>, RuleError> {
        let (u, card, power) = self.check_power_cost(cx.cat, seat, card_id, idx)?;
        let g = &self.game;
        let src = Source { seat, actor: Some(u.id), range: card.range, di: None };
        let resolved = g.resolve_target(cx, src, &power.target, power.special, target)?;
        let exposes = g.exposes(cx, &power.target, resolved);
        Ok(PowerUse { unit: u.id, owner: u.owner, alpha: u.alpha, power, src, resolved, exposes })
    }

    /// The part of a power's check that does not depend on its target: the
    /// card is the unit's, and the unit can pay the cost.
    pub(super) fn check_power_cost<'c>(
        &self,
        cat: &'c Catalogue,
        seat: Seat,
        card_id: &CardId,
        idx: usize,
    ) -> Result<(&Unit, &'c AcCard, &'c Power), RuleError> {
        let (act, u) = self.current(seat)?;
        let alpha = self.game.alpha_of(u);
        if !alpha.design.cards.contains(card_id) {
            return Err(err(DuelRefusal::NotYourCard, format!("{card_id:?} is not a card of this unit's Alpha")));
        }
        let card = cat.card(card_id).ok_or_else(|| err(DuelRefusal::UnknownCard, format!("no card {card_id:?}")))?;
        let power = card
            .powers
            .get(idx)
            .ok_or_else(|| err(DuelRefusal::NoSuchPower, format!("{} has no power {idx}", card.name)))?;
        let c = power.cost;
        if (c.m || c.a) && Battle::is_paralyzed(u) {
            return Err(err(DuelRefusal::Paralyzed, "a paralyzed unit may spend neither m nor a"));
        }
        if c.m && Battle::is_immobile(u) {
            return Err(err(DuelRefusal::CannotMove, "this unit may not spend its m"));
        }
        if c.m && act.m == 0 {
            return Err(err(DuelRefusal::NoM, "the unit has already spent its m"));
        }
        if c.a && act.a == 0 {
            return Err(err(DuelRefusal::NoA, "the unit has already spent its a"));
        }
        if c.c && alpha.cubes.get(card_id).copied().unwrap_or(0) == 0 {
            return Err(err(DuelRefusal::NoCube, format!("{} has no single-use cube left", card.name)));
        }
        Ok((u, card, power))
    }

    pub(super) fn end_activation(&mut self, cx: &mut Cx, seat: Seat) -> Result<(), RuleError> {
        let act = self
            .game
            .activation
            .clone()
            .filter(|a| !a.ended)
            .ok_or_else(|| err(DuelRefusal::NoActivation, "no unit is activating"))?;
        let g = &mut self.game;
        if let Some(u) = g.unit(act.unit) {
            if u.controller != seat {
                return Err(err(DuelRefusal::NotYourUnit, "the activated unit is not under your control"));
            }
            // Drowning case 3: starts and ends its activation in water.
            let drowns = act.started_in_water
                && g.grid.terrain(u.hex) == Some(Terrain::Water)
                && !g.is_flying(cx.cat, u)
                && !g.is_water_walker(cx.cat, u);
            if drowns {
                g.lose_life(cx, act.unit, DROWN_LOSS, LifeCause::Drowning);
            }
        }
        self.game.activation.as_mut().expect("running").ended = true;
        cx.emit(EventKind::ActivationEnded { unit: act.unit });
        let opp = other(seat);
        if self.can_respond(opp) && matches!(self.game.phase, Phase::Command) {
            self.window = Some(opp);
            cx.emit(EventKind::WindowOpened { seat: opp });
        } else {
            self.finish_activation();
        }
        Ok(())
    }

    pub(super) fn finish_activation(&mut self) {
        self.game.activation = None;
        self.checkpoints.clear();
        self.window = None;
    }

    /// After a move or a power: a moment the opponent may time a DI at.
    /// Taken after an action is done, so a trial copy needs none.
    pub(super) fn checkpoint(&mut self, cx: &Cx) {
        if self.game.activation.is_some() && !cx.trial {
            self.checkpoints.push(std::sync::Arc::new(self.game.clone()));
        }
    }
}
