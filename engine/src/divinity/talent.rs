//! Talents (L551-565) flipped or always on, and an Origin's special ability (L501-503).

use super::action::Aim;
use super::attack::{self, Attack};
use super::content::{AbilityEffect, AbilityTarget, Catalogue, Per, SpecialAbility};
use super::damage::DamageType;
use super::err;
use super::event::DivinityEvent as Ev;
use super::state::*;
use super::used::Used;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

impl DivinityState {
    /// A once-per-location talent (L559): 0 AP, flipped face down until the
    /// next location's setup (interlude step 4, L1346).
    pub(super) fn use_talent(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        talent: &str,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_talent(cat, seat, talent)?;
        let d = &cat.talents[talent];
        if let Some(deck) = d.recover_from {
            let name = super::state::consumable_deck(deck);
            let card = self.item_decks.get_mut(name).and_then(|c| c.pop()).expect("checked");
            self.origins[seat as usize].backpack.push(card.clone());
            ev.push(Ev::ItemGained { seat: Some(seat), item: card });
        }
        for st in &d.clears {
            self.remove_status(Who::Origin(seat), *st, ev);
        }
        let max = self.max_ap(cat, seat);
        let o = &mut self.origins[seat as usize];
        o.talents_used.push(talent.to_string());
        o.ap = (o.ap + d.gain_ap).min(max);
        Ok(())
    }

    /// Whether the rules accept [`Self::use_talent`], judged from the state
    /// without changing it (every refusal of it comes from here).
    pub(super) fn check_talent(&self, cat: &Catalogue, seat: Seat, talent: &str) -> Result<(), RuleError> {
        self.ensure_turn(seat)?;
        self.talent_ok(cat, seat, talent).map_err(|miss| match miss {
            TalentMiss::Says(code, m) => err(code, m),
            TalentMiss::NothingUnder(name) => {
                err(DivinityRefusal::NothingToRecover, format!("no card lies under the {name} deck"))
            }
        })
    }

    /// [`Self::check_talent`]'s checks once the turn is known to be under
    /// way, a refusal's message left unwritten (the legal list asks them
    /// of every talent).
    pub(super) fn talent_ok(&self, cat: &Catalogue, seat: Seat, talent: &str) -> Result<(), TalentMiss> {
        let o = &self.origins[seat as usize];
        if !o.talents.iter().any(|t| t == talent) {
            return Err(TalentMiss::Says(DivinityRefusal::NoSuchTalent, "this Origin doesn't have that talent"));
        }
        let d = &cat.talents[talent];
        if !d.once_per_location {
            return Err(TalentMiss::Says(
                DivinityRefusal::OngoingTalent,
                "an ongoing talent is always on; nothing to flip",
            ));
        }
        if o.talents_used.iter().any(|t| t == talent) {
            return Err(TalentMiss::Says(
                DivinityRefusal::TalentUsed,
                "once per location: it is face down until the next location",
            ));
        }
        if d.gain_ap == 0 && d.recover_from.is_none() && d.clears.is_empty() {
            return Err(TalentMiss::Says(
                DivinityRefusal::NotModelled,
                "this talent's effect is printed text the engine does not play",
            ));
        }
        if let Some(deck) = d.recover_from {
            let name = super::state::consumable_deck(deck);
            if self.item_decks.get(name).and_then(|c| c.last()).is_none() {
                return Err(TalentMiss::NothingUnder(name));
            }
            if o.backpack.len() >= BACKPACK {
                return Err(TalentMiss::Says(DivinityRefusal::BackpackFull, "the backpack holds 3 items (L919)"));
            }
        }
        Ok(())
    }

    /// An Origin's special ability (L501-503): 0 AP, once per round or per
    /// location as its data says, on the Origin's Combat turn.
    pub(super) fn use_ability(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        aim: Option<&Aim>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let targets = self.check_ability(cat, seat, aim)?;
        let o = &self.origins[seat as usize];
        let here = o.space;
        let ab = cat.origins[&o.origin].ability.as_ref().expect("checked");
        let key = Used::Ability { seat };
        self.used.insert(key, self.round);
        ev.push(Ev::AbilityUsed { seat });
        for e in &ab.effects {
            for &w in &targets {
                if self.space_of(w).is_none() {
                    continue; // defeated by an earlier effect
                }
                match e {
                    AbilityEffect::Damage { amount, ty } => self.damage(cat, w, *amount, *ty, ev),
                    AbilityEffect::Heal { amount } => self.heal(cat, w, *amount, ev),
                    AbilityEffect::Status { status, cooldown } => {
                        let g = attack::StatusGrant { status: *status, cooldown: *cooldown };
                        self.give_status(cat, w, g, ev);
                    }
                    AbilityEffect::Cleanse => {
                        let cleared = match w {
                            Who::Origin(s) => self.origins[s as usize].track.clear_statuses(),
                            Who::Enemy(id) => self.enemy_mut(id).map(|e| e.track.clear_statuses()).unwrap_or_default(),
                        };
                        for status in cleared {
                            ev.push(Ev::StatusCleared { who: w, status });
                        }
                    }
                    AbilityEffect::GainAp { amount } => {
                        if let Who::Origin(s) = w {
                            let max = self.max_ap(cat, s);
                            let o = &mut self.origins[s as usize];
                            o.ap = (o.ap + amount).min(max);
                        }
                    }
                    AbilityEffect::Environment { environment } => {
                        self.map.tokens.insert(here, *environment);
                        ev.push(Ev::EnvironmentPlaced { space: self.space_id(cat, here), environment: *environment });
                    }
                }
            }
        }
        self.check_combat_end(cat, ev);
        Ok(())
    }

    /// The figures [`Self::use_ability`] would affect, or why the rules
    /// refuse it, judged from the state without changing it (every refusal
    /// of it comes from here).
    pub(super) fn check_ability(&self, cat: &Catalogue, seat: Seat, aim: Option<&Aim>) -> Result<Vec<Who>, RuleError> {
        let ab = self.check_ability_now(cat, seat)?;
        self.ability_targets(seat, ab, aim)
    }

    /// The checks of [`Self::check_ability`] before the aim (the legal
    /// list asks them once for every aim): the ability, if the Origin may
    /// use it now.
    pub(super) fn check_ability_now<'c>(
        &self,
        cat: &'c Catalogue,
        seat: Seat,
    ) -> Result<&'c SpecialAbility, RuleError> {
        self.ensure_turn(seat)?;
        let o = &self.origins[seat as usize];
        let ab = cat.origins[&o.origin].ability.as_ref().ok_or_else(|| {
            err(DivinityRefusal::NoAbility, "this Origin's special ability has no effect the engine plays")
        })?;
        let key = Used::Ability { seat };
        let used = match ab.per {
            Per::Round => self.used.get(&key) == Some(&self.round),
            Per::Location => self.used.contains_key(&key),
        };
        if used {
            return Err(err(DivinityRefusal::AbilityUsed, format!("the special ability is once per {:?}", ab.per)));
        }
        if self.has_status(cat, Who::Origin(seat), |r| r.blocks_attacks) {
            return Err(err(DivinityRefusal::CannotAct, "a status stops this Origin acting"));
        }
        Ok(ab)
    }

    /// The figures `ab` affects at `aim`, the last checks of
    /// [`Self::check_ability`].
    pub(super) fn ability_targets(
        &self,
        seat: Seat,
        ab: &SpecialAbility,
        aim: Option<&Aim>,
    ) -> Result<Vec<Who>, RuleError> {
        let here = self.origins[seat as usize].space;
        let aimed = |ok: &dyn Fn(Who) -> bool| -> Result<Who, RuleError> {
            let who = aim
                .and_then(Aim::who)
                .ok_or_else(|| err(DivinityRefusal::AimNeeded, "aim at a figure in your space"))?;
            if self.space_of(who) != Some(here) || !ok(who) {
                return Err(err(DivinityRefusal::BadTarget, "the ability needs a fitting target in your space"));
            }
            Ok(who)
        };
        let targets: Vec<Who> = match ab.target {
            AbilityTarget::User => vec![Who::Origin(seat)],
            // Allies are the other Origins (L1418-1420).
            AbilityTarget::Ally => {
                vec![aimed(&|w| matches!(w, Who::Origin(s) if s != seat && !self.origins[s as usize].downed))?]
            }
            AbilityTarget::AlliesHere => (0..self.origins.len() as Seat)
                .filter(|&s| self.origins[s as usize].space == here && !self.origins[s as usize].downed)
                .map(Who::Origin)
                .collect(),
            AbilityTarget::Enemy => vec![aimed(&|w| matches!(w, Who::Enemy(_)))?],
            AbilityTarget::Minion => vec![aimed(
                &|w| matches!(w, Who::Enemy(e) if matches!(self.enemy(e).map(|x| &x.kind), Some(EnemyKind::Minion { .. }))),
            )?],
        };
        Ok(targets)
    }

    /// A once-per-location talent that flips by itself when the Origin's
    /// attack defeats an enemy gives its AP (up to the maximum).
    pub(super) fn kill_talents(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) {
        let o = &self.origins[seat as usize];
        let Some((t, ap)) = o
            .talents
            .iter()
            .filter(|t| !o.talents_used.contains(t))
            .find_map(|t| cat.talents.get(t).filter(|d| d.ap_on_kill > 0).map(|d| (t.clone(), d.ap_on_kill)))
        else {
            return;
        };
        let max = self.max_ap(cat, seat);
        let o = &mut self.origins[seat as usize];
        o.talents_used.push(t.clone());
        o.ap = (o.ap + ap).min(max);
        ev.push(Ev::TalentUsed { seat, talent: t });
    }

    /// Extra hits the Origin's ongoing talents add to a damaging attack.
    pub(super) fn talent_hits(&self, cat: &Catalogue, seat: Seat, a: &Attack) -> u32 {
        let Some(ty) = a.damage_type() else { return 0 };
        let o = &self.origins[seat as usize];
        let full = cat.origins[&o.origin].at(o.level).is_some_and(|c| o.hp >= c.hp);
        o.talents
            .iter()
            .filter_map(|t| cat.talents.get(t)?.extra_hits.as_ref())
            .filter(|h| (!h.at_full_hp || full) && (!h.magical || ty != DamageType::Physical))
            .map(|h| h.hits)
            .sum()
    }
}

/// Why a talent can't be flipped, as [`DivinityState::talent_ok`] finds it.
pub(super) enum TalentMiss {
    Says(DivinityRefusal, &'static str),
    /// No card lies under this consumable deck to take back.
    NothingUnder(&'static str),
}
