//! Reactions outside your turn (L864): an ongoing skill that attacks an
//! enemy ending its move in your space, and the enemy's turn resumed after.

use super::action::Aim;
use super::attack::{Outcome, Targets};
use super::content::{Catalogue, ItemKind};
use super::cooldown::CardRef;
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::state::*;
use super::used::Used;
use crate::Seat;

impl DivinityState {
    /// The reaction `seat` would make now in `space`: a face-up ongoing
    /// skill with a reaction and the equipped weapon it attacks with (its
    /// per-round limit and keyword kept, L867). None for a downed Origin, one
    /// elsewhere, or one a status stops attacking or acting.
    fn reaction_of(&self, cat: &Catalogue, seat: Seat, space: SpaceIx) -> Option<(String, String)> {
        let o = &self.origins[seat as usize];
        if o.downed || o.space != space {
            return None;
        }
        if self.has_status(cat, Who::Origin(seat), |r| r.blocks_attacks || r.skips_turn) {
            return None;
        }
        let keywords = self.keywords(cat, seat);
        o.track.active().find_map(|c| {
            let CardRef::Skill(id) = c else { return None };
            let r = cat.skills.get(id)?.reaction?;
            let w = r.weapon;
            let weapon = o.equipped.iter().find(|i| {
                let d = &cat.items[*i];
                d.kind == ItemKind::Equipment(w.slot)
                    && d.action.as_ref().is_some_and(|a| {
                        (!w.melee || a.attack.range == 0)
                            && self
                                .check_action_limits(seat, i, a.per_round, a.requires.as_deref(), |k| {
                                    keywords.contains(k)
                                })
                                .is_ok()
                    })
            })?;
            Some((id.clone(), weapon.clone()))
        })
    }

    /// An enemy ended its move, on its turn, in a space: every Origin there
    /// with a face-up reaction attacks it, seat by seat from `from`, with
    /// its weapon's stats and special effects, through the usual pipeline,
    /// at no AP (L864). A roll waits for its Origin's rerolls like any other;
    /// the enemy's turn is then on hold (`true`) until it is accepted.
    pub(super) fn react(
        &mut self,
        cat: &Catalogue,
        id: u32,
        from: Seat,
        target: Who,
        tactic: Option<String>,
        ev: &mut Vec<Ev>,
    ) -> bool {
        for seat in from..self.origins.len() as Seat {
            if !matches!(self.phase, Phase::Combat { .. }) {
                return false;
            }
            let Some(space) = self.enemy(id).map(|e| e.space) else { return false };
            let Some((skill, weapon)) = self.reaction_of(cat, seat, space) else { continue };
            let r = cat.skills[&skill].reaction.expect("a reaction skill");
            let mut a = self.item_attack(cat, seat, &weapon);
            a.level_bonus |= r.level_bonus;
            let aim = match a.targets {
                Targets::Single => Aim::Enemy(id),
                Targets::Area => Aim::Space(self.space_id(cat, space)),
            };
            let Ok((targets, space)) = self.aim(cat, seat, &a, &aim, false, None) else { continue };
            if let Ok(Some(ty)) = self.aura_for(cat, seat, &a, None) {
                a.outcome = Outcome::Damage { damage_type: ty };
            }
            let limited = cat.items[&weapon].action.as_ref().is_some_and(|x| x.per_round.is_some());
            let rolls = if limited { 1 } else { r.weapon.attacks };
            self.used.insert(Used::card(seat, &weapon), self.round);
            ev.push(Ev::Reacted { seat, skill: skill.clone(), enemy: id });
            self.roll_attack(cat, seat, Shot { attack: a, targets, space, label: skill, repeat: rolls - 1 }, ev);
            if self.pending_roll().is_some() || self.roll_reduction().is_some() {
                self.reaction = Some(ReactionWait { enemy: id, next: seat + 1, target, tactic });
                return true;
            }
        }
        false
    }

    /// A reaction's roll was accepted: the other reactions to the same move,
    /// then the rest of the enemy's turn if it still stands (a defeated
    /// enemy's turn is over), then the next enemy.
    pub(super) fn resume_after_reaction(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        let Some(r) = self.reaction.take() else { return };
        if self.react(cat, r.enemy, r.next, r.target, r.tactic.clone(), ev) {
            return;
        }
        if self.enemy(r.enemy).is_some() && matches!(self.phase, Phase::Combat { .. }) {
            match &r.tactic {
                None => self.minion_after_move(cat, r.enemy, r.target, ev),
                Some(tactic) => {
                    if let Some(tac) = self.tactic_of(cat, r.enemy, tactic) {
                        let held = self.boss_after_move(cat, r.enemy, &tac, r.target, ev);
                        self.boss_plays_on(cat, r.enemy, held, ev);
                    }
                }
            }
        }
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
    }
}
