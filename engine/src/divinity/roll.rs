//! An Origin's attack roll (L1500-1530): the pool, rerolls with Source or
//! the card's own, the roller's dice reduction, and landing the hits.

use super::attack::{self, Attack};
use super::content::Catalogue;
use super::damage::DamageType;
use super::dice::{Colour, Pool, Roll};
use super::err;
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::state::*;
use super::used::Used;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

impl DivinityState {
    /// Roll `pool` for `who` and tell everyone what came up.
    pub(super) fn roll_pool(&mut self, cat: &Catalogue, who: Who, pool: Pool, ev: &mut Vec<Ev>) -> Roll {
        let roll = pool.roll(&mut self.rng);
        ev.push(Ev::Rolled {
            who,
            dice: roll.dice.clone(),
            hits: roll.hits(&cat.dice),
            specials: roll.specials(&cat.dice),
        });
        roll
    }

    /// A roll's dice after reductions (L1515) when nobody picks: white dice
    /// go first, then blue, then red (only one way to lose them when the
    /// dice are of one colour or all go).
    pub(super) fn pool_for(&self, cat: &Catalogue, who: Who, a: &Attack) -> Pool {
        let mut p = a.dice;
        let n: u32 = self.rules_of(cat, who).iter().map(|r| r.dice_reduction).sum();
        p.reduce_by(n, &[Colour::White, Colour::Blue, Colour::Red]);
        p
    }

    pub(super) fn roll_attack(&mut self, cat: &Catalogue, seat: Seat, shot: Shot, ev: &mut Vec<Ev>) {
        let who = Who::Origin(seat);
        // Some but not all dice of several colours to lose: the roller picks
        // which (L1515); the roll waits.
        let n: u32 = self.rules_of(cat, who).iter().map(|r| r.dice_reduction).sum();
        let d = shot.attack.dice;
        let colours = [d.white, d.blue, d.red].iter().filter(|&&c| c > 0).count();
        if n > 0 && n < d.total() && colours > 1 {
            ev.push(Ev::OwnDiceToReduce { seat, remove: n });
            self.wait_for(Choice::OwnDice(RollReduction { seat, remove: n, shot }));
            return;
        }
        let pool = self.pool_for(cat, who, &shot.attack);
        self.roll_attack_with(cat, seat, shot, pool, ev);
    }

    /// The dice the Origin's roll keeps, or why the rules refuse this
    /// reduction, judged from the state without changing it (every refusal
    /// of [`Self::reduce_own_dice`] comes from here).
    pub(super) fn check_reduce_own_dice(&self, seat: Seat, remove: &[Colour]) -> Result<Pool, RuleError> {
        let r = self
            .roll_reduction()
            .ok_or_else(|| err(DivinityRefusal::NoReduction, "no roll waits for a dice reduction"))?;
        if seat != r.seat {
            return Err(err(
                DivinityRefusal::NotYourRoll,
                "only the rolling Origin picks the dice its roll loses (L1515)",
            ));
        }
        reduced(r.shot.attack.dice, r.remove, remove)
    }

    /// The rolling Origin picks the dice its roll loses (L1515); it rolls.
    pub(super) fn reduce_own_dice(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        remove: &[Colour],
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let pool = self.check_reduce_own_dice(seat, remove)?;
        let r = self.roll_reduction().cloned().expect("checked");
        self.choice = None;
        self.roll_attack_with(cat, seat, r.shot, pool, ev);
        Ok(())
    }

    /// An Origin's roll with its dice after reductions.
    fn roll_attack_with(&mut self, cat: &Catalogue, seat: Seat, shot: Shot, pool: Pool, ev: &mut Vec<Ev>) {
        let Shot { attack: a, targets, space, label, repeat } = shot;
        let who = Who::Origin(seat);
        let roll = self.roll_pool(cat, who, pool, ev);
        let o = &self.origins[seat as usize];
        let level_bonus = cat.origins[&o.origin].at(o.level).map_or(0, |l| l.level_bonus);
        let mut extra: u32 = self.rules_of(cat, who).iter().map(|r| r.extra_hits).sum();
        extra += self.talent_hits(cat, seat, &a);
        let o = &self.origins[seat as usize];
        let card_rerolls = if space == o.space { a.reroll_in_space } else { 0 };
        let purpose = Purpose::Attack { attack: a, targets, space, level_bonus, extra, label, repeat };
        self.wait_for(Choice::Roll(PendingRoll { seat, roll, purpose, card_rerolls }));
        if self.pending_roll().is_some_and(|p| p.roll.dice.is_empty()) {
            self.accept(cat, seat, ev).expect("a 0-dice roll resolves at once");
        }
    }

    /// Reroll (L511, L1529): 1 Source for any number of dice, or the card's
    /// own reroll, or the Copper Band once a Combat round after a physical attack.
    pub(super) fn reroll(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        dice: &[usize],
        source: bool,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        if self.enemy_roll().is_some() {
            return self.reroll_enemy(cat, seat, dice, source, ev);
        }
        let paid = self.check_reroll(cat, seat, dice, source)?;
        let p = self.pending_roll().cloned().expect("checked");
        let mut roll = p.roll.clone();
        match paid {
            RerollPaid::Source => self.origins[seat as usize].source -= 1,
            RerollPaid::Card => self.pending_roll_mut().unwrap().card_rerolls = 0,
            RerollPaid::Band(key) => {
                self.used.insert(key, self.round);
            }
        }
        roll.reroll(dice, &mut self.rng).expect("dice checked");
        ev.push(Ev::Rerolled { seat, dice: roll.dice.clone(), source });
        self.pending_roll_mut().unwrap().roll = roll;
        Ok(())
    }

    /// Whether the rules accept a reroll of an Origin's pending roll (not an
    /// enemy's), judged from the state without changing it: what pays for
    /// it, or why not (every refusal of [`Self::reroll`] on such a roll
    /// comes from here).
    pub(super) fn check_reroll(
        &self,
        cat: &Catalogue,
        seat: Seat,
        dice: &[usize],
        source: bool,
    ) -> Result<RerollPaid, RuleError> {
        self.reroll_paid(cat, seat, dice, source).map_err(RerollMiss::error)
    }

    /// [`Self::check_reroll`]'s checks, a refusal's message left unwritten
    /// (the legal list asks them of every subset of the roll's dice).
    pub(super) fn reroll_paid(
        &self,
        cat: &Catalogue,
        seat: Seat,
        dice: &[usize],
        source: bool,
    ) -> Result<RerollPaid, RerollMiss> {
        let p = self.pending_roll().ok_or(RerollMiss::Says(DivinityRefusal::NoRoll, "no roll is waiting"))?;
        // Any Origin may spend its Source on any roll (L511), except on
        // another's challenge roll, made without assistance (L1180); the
        // card's own reroll and the Copper Band are the roller's.
        let ally_source = source && !matches!(p.purpose, Purpose::Challenge);
        if p.seat != seat && !ally_source {
            return Err(RerollMiss::Says(
                DivinityRefusal::NotYourRoll,
                "only the roller rerolls this roll, but with Source on an attack (L511, L1180)",
            ));
        }
        if p.seat != seat && self.origins[seat as usize].downed {
            return Err(RerollMiss::Says(DivinityRefusal::Downed, "a downed Origin takes no actions (L747)"));
        }
        if dice.is_empty() {
            return Err(RerollMiss::Says(DivinityRefusal::NoDice, "choose the dice to reroll"));
        }
        let paid = if source {
            if self.origins[seat as usize].source == 0 {
                return Err(RerollMiss::Says(DivinityRefusal::NotEnoughSource, "a Source reroll costs 1 Source"));
            }
            RerollPaid::Source
        } else if p.card_rerolls as usize >= dice.len() {
            RerollPaid::Card
        } else {
            let physical = matches!(&p.purpose, Purpose::Attack { attack, .. } if attack.damage_type() == Some(DamageType::Physical));
            let band = self.origins[seat as usize]
                .equipped
                .iter()
                .find(|i| cat.items[*i].reroll_after == Some(DamageType::Physical))
                .cloned();
            let key = band.map(|item| Used::Reroll { seat, item });
            let fresh = key.as_ref().is_some_and(|k| self.used.get(k) != Some(&self.round));
            if !(physical && fresh && dice.len() == 1 && self.round_kind == RoundKind::Combat) {
                return Err(RerollMiss::Says(DivinityRefusal::NoReroll, "no reroll available for these dice"));
            }
            RerollPaid::Band(key.expect("fresh"))
        };
        if let Some(i) = p.roll.bad_die(dice) {
            return Err(RerollMiss::BadDie(i));
        }
        Ok(paid)
    }

    /// Whether the rules accept keeping the pending roll (an Origin's or an
    /// enemy's), judged from the state without changing it (every refusal
    /// of [`Self::accept`] comes from here).
    pub(super) fn check_accept(&self, seat: Seat) -> Result<(), RuleError> {
        if let Some(r) = self.enemy_roll() {
            return self.check_pass_enemy_roll(r, seat);
        }
        let p = self.pending_roll().ok_or_else(|| err(DivinityRefusal::NoRoll, "no roll is waiting"))?;
        if p.seat != seat {
            return Err(err(DivinityRefusal::NotYourRoll, "only the roller accepts this roll"));
        }
        Ok(())
    }

    /// Keep the roll and resolve it in the book's order (L1479-1483).
    pub(super) fn accept(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        if self.enemy_roll().is_some() {
            return self.pass_enemy_roll(cat, seat, ev);
        }
        self.check_accept(seat)?;
        let p = self.pending_roll().cloned().expect("checked");
        self.choice = None;
        match p.purpose {
            Purpose::Challenge => {
                let hits = p.roll.hits(&cat.dice);
                if let Some(ch) = self.challenge.as_mut() {
                    ch.results.insert(seat, ChallengeResultKind::Hits(hits));
                }
                self.finish_challenge(cat, ev);
            }
            Purpose::Attack { attack: a, targets, space, level_bonus, extra, label, repeat } => {
                let c = attack::count(&a, &p.roll, &cat.dice, level_bonus, extra);
                let longer = self.origins[seat as usize]
                    .talents
                    .iter()
                    .filter_map(|t| cat.talents.get(t))
                    .map(|t| t.status_extension)
                    .sum();
                self.land(cat, Landing { attack: &a, count: c, targets: &targets, space, longer }, ev);
                let killed = targets.iter().any(|w| matches!(w, Who::Enemy(_)) && self.space_of(*w).is_none());
                if killed {
                    self.kill_talents(cat, seat, ev);
                    let o = &self.origins[seat as usize];
                    let heal: u32 = o.talents.iter().filter_map(|t| cat.talents.get(t)).map(|t| t.heal_on_kill).sum();
                    self.heal(cat, Who::Origin(seat), heal, ev);
                }
                // The next roll of a multi-attack skill, while its target stands (L867).
                let alive: Vec<Who> = targets.into_iter().filter(|w| self.space_of(*w).is_some()).collect();
                if repeat > 0 && !alive.is_empty() {
                    self.roll_attack(
                        cat,
                        seat,
                        Shot { attack: a, targets: alive, space, label, repeat: repeat - 1 },
                        ev,
                    );
                } else if self.reaction.is_some() {
                    // A reaction's last roll: the enemy's turn goes on (L864).
                    self.resume_after_reaction(cat, ev);
                } else {
                    self.check_combat_end(cat, ev);
                }
            }
        }
        Ok(())
    }

    /// Steps 3-5 for every target at once: damage or healing, statuses (each
    /// lasting `longer` slots more, from the attacker's talents), then the
    /// environment on the target space.
    pub(super) fn land(&mut self, cat: &Catalogue, landing: Landing<'_>, ev: &mut Vec<Ev>) {
        let Landing { attack: a, count: c, targets, space, longer } = landing;
        let effects: Vec<(Who, attack::Effect)> =
            targets.iter().map(|w| (*w, attack::resolve(a, c, &self.target(cat, *w)))).collect();
        for (w, e) in &effects {
            self.apply_harm(cat, *w, e.harm, ev);
        }
        for (w, e) in &effects {
            if self.space_of(*w).is_none() {
                continue;
            }
            for g in &e.statuses {
                let g = attack::StatusGrant { status: g.status, cooldown: g.cooldown.saturating_add(longer) };
                self.give_status(cat, *w, g, ev);
            }
            for s in &e.removes {
                self.remove_status(*w, *s, ev);
            }
        }
        if let Some(env) = attack::environment(a, c) {
            self.map.tokens.insert(space, env);
            ev.push(Ev::EnvironmentPlaced { space: self.space_id(cat, space), environment: env });
        }
    }
}

/// Why a reroll is refused, as [`DivinityState::reroll_paid`] and
/// [`DivinityState::reroll_enemy_ok`] find it: the message is written only
/// when the refusal is returned.
pub(super) enum RerollMiss {
    Says(DivinityRefusal, &'static str),
    /// This die is not a distinct die of the roll.
    BadDie(usize),
}

impl RerollMiss {
    pub(super) fn error(self) -> RuleError {
        match self {
            RerollMiss::Says(code, m) => err(code, m),
            RerollMiss::BadDie(i) => err(DivinityRefusal::BadDice, Roll::bad_die_words(i)),
        }
    }
}

/// What pays for an Origin's reroll (L511, L1529).
pub(super) enum RerollPaid {
    /// 1 Source of the seat that rerolls.
    Source,
    /// The card's own reroll, used up.
    Card,
    /// The Copper Band's once a Combat round.
    Band(Used),
}

/// A counted roll on its way to its targets (L1479-1483).
#[derive(Debug, Clone, Copy)]
pub(super) struct Landing<'a> {
    pub attack: &'a Attack,
    pub count: attack::Count,
    pub targets: &'a [Who],
    /// The space the environment effect lands on.
    pub space: SpaceIx,
    /// Cooldown slots the statuses given last longer (the attacker's talents).
    pub longer: u8,
}

/// A pool after the dice a reduction's chooser picked (L1515): exactly
/// `count` dice, each of a colour the pool still holds.
pub(super) fn reduced(mut pool: Pool, count: u32, remove: &[Colour]) -> Result<Pool, RuleError> {
    if remove.len() != count as usize {
        return Err(err(DivinityRefusal::ReductionCount, format!("remove exactly {count} dice (L1515)")));
    }
    for &c in remove {
        if !pool.reduce(c) {
            return Err(err(DivinityRefusal::NoSuchDie, format!("the roll has no {c:?} die left to remove")));
        }
    }
    Ok(pool)
}
