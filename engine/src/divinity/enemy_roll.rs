//! An enemy's attack roll (L511, L1515): open to the Origins' Source
//! rerolls, its dice reduction chosen by the party, and landing it.

use super::attack::{self, Attack, Targets};
use super::content::Catalogue;
use super::dice::{Colour, Pool};
use super::err;
use super::event::DivinityEvent as Ev;
use super::roll::{reduced, Landing, RerollMiss};
use super::state::*;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

/// An enemy's attack on its target, and what the enemy does once it lands.
#[derive(Debug, Clone, Copy)]
pub(super) struct EnemyStrike<'a> {
    pub enemy: u32,
    pub attack: &'a Attack,
    pub target: Who,
    /// A Boss goes on with its tactics afterwards; a minion ends its turn.
    pub boss: bool,
}

impl DivinityState {
    /// An enemy's attack roll. When some Origin could spend Source on it,
    /// it waits for their rerolls (`true`); otherwise it lands at once.
    pub(super) fn enemy_attack(&mut self, cat: &Catalogue, strike: EnemyStrike<'_>, ev: &mut Vec<Ev>) -> bool {
        let EnemyStrike { enemy: id, attack: a, target, boss } = strike;
        let who = Who::Enemy(id);
        // Dice of several colours to lose: the party picks which (L1515).
        let n: u32 = self.rules_of(cat, who).iter().map(|r| r.dice_reduction).sum();
        let d = a.dice;
        let colours = [d.white, d.blue, d.red].iter().filter(|&&c| c > 0).count();
        let total = (d.white + d.blue + d.red) as u32;
        if n > 0 && n < total && colours > 1 && self.options.party_breaks_ties && self.space_of(target).is_some() {
            ev.push(Ev::DiceToReduce { enemy: id, remove: n });
            self.wait_for(Choice::EnemyDice(ReductionChoice { enemy: id, attack: a.clone(), target, remove: n, boss }));
            return true;
        }
        let pool = self.pool_for(cat, who, a);
        self.enemy_roll_with(cat, strike, pool, ev)
    }

    /// An enemy's attack roll with its dice after reductions.
    fn enemy_roll_with(&mut self, cat: &Catalogue, strike: EnemyStrike<'_>, pool: Pool, ev: &mut Vec<Ev>) -> bool {
        let EnemyStrike { enemy: id, attack: a, target, boss } = strike;
        let Some(space) = self.space_of(target) else { return false };
        let targets: Vec<Who> = match a.targets {
            Targets::Single => vec![target],
            // Everyone in the target's space except the attacker (L1699).
            Targets::Area => (0..self.origins.len() as Seat)
                .filter(|s| self.origins[*s as usize].space == space)
                .map(Who::Origin)
                .chain(self.enemies.iter().filter(|e| e.space == space && e.id != id).map(|e| Who::Enemy(e.id)))
                .collect(),
        };
        let who = Who::Enemy(id);
        let roll = self.roll_pool(cat, who, pool, ev);
        let r = EnemyRoll {
            enemy: id,
            attack: a.clone(),
            targets,
            space,
            roll,
            passed: vec![false; self.origins.len()],
            boss,
        };
        if self.options.reroll_enemy_rolls && !r.roll.dice.is_empty() && !self.enemy_roll_waiting_for(&r).is_empty() {
            self.wait_for(Choice::EnemyRoll(r));
            return true;
        }
        self.land_enemy_roll(cat, r, ev);
        false
    }

    /// Seats that may still reroll an enemy roll: standing, with Source, not passed.
    pub fn enemy_roll_waiting_for(&self, r: &EnemyRoll) -> Vec<Seat> {
        (0..self.origins.len() as Seat)
            .filter(|s| {
                let o = &self.origins[*s as usize];
                !o.downed && o.source > 0 && !r.passed[*s as usize]
            })
            .collect()
    }

    fn land_enemy_roll(&mut self, cat: &Catalogue, r: EnemyRoll, ev: &mut Vec<Ev>) {
        let who = Who::Enemy(r.enemy);
        let extra: u32 = self.rules_of(cat, who).iter().map(|x| x.extra_hits).sum();
        // ★ never applies to enemies (G55).
        let c = attack::count(&r.attack, &r.roll, &cat.dice, 0, extra);
        self.land(cat, Landing { attack: &r.attack, count: c, targets: &r.targets, space: r.space, longer: 0 }, ev);
    }

    /// Whether the rules accept a reroll of the enemy roll `r`, judged from
    /// the state without changing it (every refusal of
    /// [`Self::reroll_enemy`] comes from here).
    pub(super) fn check_reroll_enemy(
        &self,
        r: &EnemyRoll,
        seat: Seat,
        dice: &[usize],
        source: bool,
    ) -> Result<(), RuleError> {
        self.reroll_enemy_ok(r, seat, dice, source).map_err(RerollMiss::error)
    }

    /// [`Self::check_reroll_enemy`]'s checks, a refusal's message left
    /// unwritten (the legal list asks them of every subset of the dice).
    pub(super) fn reroll_enemy_ok(
        &self,
        r: &EnemyRoll,
        seat: Seat,
        dice: &[usize],
        source: bool,
    ) -> Result<(), RerollMiss> {
        if !self.enemy_roll_waiting_for(r).contains(&seat) {
            return Err(RerollMiss::Says(DivinityRefusal::NotYourRoll, "this Origin can't reroll this roll now"));
        }
        if !source {
            return Err(RerollMiss::Says(DivinityRefusal::NoReroll, "only Source rerolls an enemy's roll"));
        }
        if dice.is_empty() {
            return Err(RerollMiss::Says(DivinityRefusal::NoDice, "choose the dice to reroll"));
        }
        match r.roll.bad_die(dice) {
            Some(i) => Err(RerollMiss::BadDie(i)),
            None => Ok(()),
        }
    }

    /// Whether `seat` may let the enemy roll `r` stand (every refusal of
    /// [`Self::pass_enemy_roll`] comes from here).
    pub(super) fn check_pass_enemy_roll(&self, r: &EnemyRoll, seat: Seat) -> Result<(), RuleError> {
        if !self.enemy_roll_waiting_for(r).contains(&seat) {
            return Err(err(DivinityRefusal::NotYourRoll, "this Origin has no say on this roll now"));
        }
        Ok(())
    }

    /// Reroll an enemy's dice with 1 Source (L511): the others may answer again.
    pub(super) fn reroll_enemy(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        dice: &[usize],
        source: bool,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let r = self.enemy_roll().cloned().expect("enemy roll");
        self.check_reroll_enemy(&r, seat, dice, source)?;
        let mut roll = r.roll.clone();
        roll.reroll(dice, &mut self.rng).expect("dice checked");
        self.origins[seat as usize].source -= 1;
        ev.push(Ev::Rerolled { seat, dice: roll.dice.clone(), source: true });
        let e = self.enemy_roll_mut().unwrap();
        e.roll = roll;
        e.passed = vec![false; e.passed.len()];
        self.settle_enemy_roll(cat, ev);
        Ok(())
    }

    /// Let an enemy's roll stand; once everyone has, it lands and the enemy
    /// goes on (a minion ends its turn, a Boss plays on).
    pub(super) fn pass_enemy_roll(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let r = self.enemy_roll().expect("enemy roll");
        self.check_pass_enemy_roll(r, seat)?;
        self.enemy_roll_mut().unwrap().passed[seat as usize] = true;
        self.settle_enemy_roll(cat, ev);
        Ok(())
    }

    /// Once nobody may reroll any more, the enemy roll lands and the enemy goes on.
    fn settle_enemy_roll(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        let Some(r) = self.enemy_roll().cloned() else { return };
        if !self.enemy_roll_waiting_for(&r).is_empty() {
            return;
        }
        self.choice = None;
        self.land_enemy_roll(cat, r.clone(), ev);
        if self.enemy(r.enemy).is_some() && matches!(self.phase, Phase::Combat { .. }) {
            if r.boss {
                self.boss_tactics(cat, r.enemy, ev);
            } else {
                self.slide_enemy(r.enemy, ev);
            }
        }
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
    }

    /// The dice the enemy's roll keeps, or why the rules refuse this
    /// reduction, judged from the state without changing it (every refusal
    /// of [`Self::reduce_enemy_dice`] comes from here; the leader's say is the caller's).
    pub(super) fn check_reduce_enemy_dice(&self, remove: &[Colour]) -> Result<Pool, RuleError> {
        let r = self
            .reduction()
            .ok_or_else(|| err(DivinityRefusal::NoReduction, "no enemy roll waits for a dice reduction"))?;
        reduced(r.attack.dice, r.remove, remove)
    }

    /// The party picks the dice an enemy loses (L1515); its attack rolls and
    /// the enemy goes on.
    pub(super) fn reduce_enemy_dice(
        &mut self,
        cat: &Catalogue,
        remove: &[Colour],
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let pool = self.check_reduce_enemy_dice(remove)?;
        let r = self.reduction().cloned().expect("checked");
        self.choice = None;
        let strike = EnemyStrike { enemy: r.enemy, attack: &r.attack, target: r.target, boss: r.boss };
        if !self.enemy_roll_with(cat, strike, pool, ev)
            && self.enemy(r.enemy).is_some()
            && matches!(self.phase, Phase::Combat { .. })
        {
            if r.boss {
                self.boss_tactics(cat, r.enemy, ev);
            } else {
                self.slide_enemy(r.enemy, ev);
            }
        }
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
        Ok(())
    }
}
