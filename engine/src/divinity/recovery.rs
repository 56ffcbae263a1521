//! Recovering and reviving: Recover in a Combat turn (2 AP) and in a Rest
//! turn (L355), giving HP to a downed Origin (L757-767).

use super::content::Catalogue;
use super::cooldown::CardRef;
use super::err;
use super::event::DivinityEvent as Ev;
use super::state::*;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

impl DivinityState {
    /// Recover in combat (L1592): 2 AP with no enemy in your space; heal 2,
    /// or slide one status one slot (clearing it from slot 1).
    pub(super) fn combat_recover(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        status: Option<super::status::Status>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_combat_recover(seat, status)?;
        self.origins[seat as usize].ap -= 2;
        match status {
            Some(s) => {
                if self.origins[seat as usize].track.slide_one(&CardRef::Status(s)).is_some() {
                    ev.push(Ev::StatusCleared { who: Who::Origin(seat), status: s });
                }
            }
            None => self.heal(cat, Who::Origin(seat), 2, ev),
        }
        Ok(())
    }

    /// The checks of Recover in combat, changing nothing (the legal list
    /// asks them too).
    pub(super) fn check_combat_recover(
        &self,
        seat: Seat,
        status: Option<super::status::Status>,
    ) -> Result<(), RuleError> {
        self.ensure_turn(seat)?;
        let here = self.origins[seat as usize].space;
        if self.enemies.iter().any(|e| e.space == here) {
            return Err(err(DivinityRefusal::EnemyHere, "Recover needs a space without enemies (L1592)"));
        }
        if let Some(s) = status {
            if !self.origins[seat as usize].track.has(s) {
                return Err(err(DivinityRefusal::NoSuchStatus, "this Origin doesn't have that status"));
            }
        }
        self.ap_allowed(seat, 2)
    }

    /// Revive (L765, L1594): 1 AP in combat to a downed Origin in your space
    /// or an adjacent one; free and anywhere in a Rest round (L767).
    pub(super) fn revive(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        to: Seat,
        hp: u32,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_revive(cat, seat, to, hp)?;
        let rest = matches!(self.phase, Phase::Rest { .. });
        if rest {
            self.rest_step(seat, RestStep::Revive)?;
        } else {
            self.spend_ap(seat, 1)?;
        }
        let me = &mut self.origins[seat as usize];
        me.hp -= hp;
        if me.hp == 0 {
            me.downed = true;
            ev.push(Ev::Downed { seat });
        }
        let t = &mut self.origins[to as usize];
        t.downed = false;
        t.hp = hp;
        ev.push(Ev::Revived { seat: to, hp });
        if !rest {
            self.check_combat_end(cat, ev);
        } else if let Phase::Rest { steps, .. } = &mut self.phase {
            // Revived before its Rest turn, it takes a normal one (L757),
            // which starts with its start-of-turn effects (L353); one whose
            // turn had begun has had it.
            if steps[to as usize] == RestStep::NotBegun {
                steps[to as usize] = RestStep::StartOfTurn;
                self.start_of_turn(cat, Who::Origin(to), ev);
            }
        }
        Ok(())
    }

    /// Whether the rules accept [`Self::revive`], judged from the state
    /// without changing it (every refusal of it comes from here).
    pub(super) fn check_revive(&self, cat: &Catalogue, seat: Seat, to: Seat, hp: u32) -> Result<(), RuleError> {
        let rest = matches!(self.phase, Phase::Rest { .. });
        if rest {
            self.rest_step_allowed(seat, RestStep::Revive)?;
        } else {
            self.ensure_turn(seat)?;
        }
        let target =
            self.origins.get(to as usize).ok_or_else(|| err(DivinityRefusal::NoSuchOrigin, "no such Origin"))?;
        if !target.downed {
            return Err(err(DivinityRefusal::NotDowned, "only a downed Origin can be revived"));
        }
        if hp == 0 || hp > self.origins[seat as usize].hp {
            return Err(err(DivinityRefusal::BadTransfer, "transfer at least 1 HP and no more than you have"));
        }
        if hp > self.max_hp(cat, Who::Origin(to)) {
            return Err(err(DivinityRefusal::BadTransfer, "no more than the downed Origin's max HP (G35)"));
        }
        if !rest {
            let (a, b) = (self.origins[seat as usize].space, target.space);
            if a != b && !self.with_graph(cat, |g| g.adjacent(a, b)) {
                return Err(err(DivinityRefusal::TooFar, "Revive reaches your space or an adjacent one"));
            }
            self.ap_allowed(seat, 1)?;
        }
        Ok(())
    }

    /// Rest step (b): heal 2 and discard every status (L355), once.
    pub(super) fn rest_recover(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.rest_step(seat, RestStep::Recover)?;
        // Statuses go first so POISONED does not block the heal it is cleared with.
        let cleared = self.origins[seat as usize].track.clear_statuses();
        for s in cleared {
            ev.push(Ev::StatusCleared { who: Who::Origin(seat), status: s });
        }
        self.heal(cat, Who::Origin(seat), 2, ev);
        Ok(())
    }
}
