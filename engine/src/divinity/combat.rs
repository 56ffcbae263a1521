//! Combat (L1400-1837): the Combat round's steps, Origin turns with AP and
//! the combat actions, attack rolls open to rerolls, minion and Boss turns,
//! and ending a combat.

use super::action::{Aim, CardUse};
use super::attack::{self, Attack, Outcome, Targets};
use super::content::{AbilityEffect, AbilityTarget, BossTactic, Catalogue, CombatEnd, ItemKind, Mover, Per, SkillMove};
use super::cooldown::{CardRef, TrackCard};
use super::damage::DamageType;
use super::dice::{Colour, Pool, TargetingFace};
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::minion::{plan_moves, tied_targets, Candidate};
use super::state::*;
use crate::{RuleError, Seat};

fn err(code: &'static str, m: impl Into<String>) -> RuleError {
    RuleError::new(code, m)
}

/// What using a card costs and leaves behind.
struct Play {
    attack: Option<Attack>,
    /// Rolls of the attack: more than one for a weapon skill.
    rolls: u32,
    /// A weapon skill also spends the weapon's once-per-round use.
    weapon: Option<String>,
    ap: u32,
    source: u32,
    label: String,
    revives: Option<u32>,
}

impl DivinityState {
    // ----- The round -----

    /// A Combat round (L373-396): FAST enemies, then the Origins, then SLOW
    /// enemies; the round ends when every Origin has had its turn.
    pub(super) fn combat_round(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        let n = self.origins.len();
        self.phase = Phase::Combat { done: vec![false; n], active: None };
        self.check_combat_end(cat, ev);
        if !matches!(self.phase, Phase::Combat { .. }) {
            return;
        }
        self.enemy_step(cat, true, ev);
        if matches!(self.phase, Phase::Combat { .. }) {
            self.after_origin_turn(cat, ev);
        }
    }

    /// Start an initiative step: its enemies act left to right (L1598).
    fn enemy_step(&mut self, cat: &Catalogue, fast: bool, ev: &mut Vec<Ev>) {
        self.enemy_queue = self.enemies.iter().filter(|e| e.fast == fast).map(|e| e.id).collect();
        self.queue_fast = fast;
        self.run_queue(cat, ev);
    }

    /// Run enemy turns until the step is over or an enemy roll waits for
    /// rerolls; then the Origins' step (after FAST) or the round's end (after SLOW).
    pub(super) fn run_queue(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        loop {
            if !matches!(self.phase, Phase::Combat { .. }) {
                self.enemy_queue.clear();
                return;
            }
            if self.enemy_roll.is_some() || self.enemy_choice_pending() || self.reaction.is_some() {
                return;
            }
            if self.enemy_queue.is_empty() {
                break;
            }
            let id = self.enemy_queue.remove(0);
            let Some(e) = self.enemy(id) else { continue };
            match e.kind.clone() {
                EnemyKind::Minion { .. } => self.minion_turn(cat, id, ev),
                EnemyKind::Boss { boss } => self.boss_turn(cat, id, &boss, ev),
            }
            self.check_combat_end(cat, ev);
        }
        if self.queue_fast {
            self.queue_fast = false;
            self.after_origin_turn(cat, ev);
        } else if matches!(&self.phase, Phase::Combat { done, .. } if done.iter().all(|d| *d)) {
            // The Combat round is over: every card of the active stack has
            // survived one more, which may meet a special end (L1745).
            for card in &self.combat_stack {
                *self.stack_rounds.entry(card.clone()).or_default() += 1;
            }
            if self.special_end_met(cat) {
                self.end_combat(cat, true, ev);
            } else {
                self.end_of_round(cat, ev);
            }
        }
    }

    /// When every standing Origin has had its turn: downed Origins gain AP and
    /// slide (L757), the SLOW enemies act, and the round ends.
    pub(super) fn after_origin_turn(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if self.enemy_roll.is_some()
            || self.reaction.is_some()
            || self.dominated_turn.is_some()
            || self.turn_start.is_some()
            || !self.enemy_queue.is_empty()
            || self.queue_fast
        {
            return;
        }
        let Phase::Combat { done, active: None } = &self.phase else { return };
        let n = self.origins.len();
        if (0..n).any(|s| !done[s] && !self.origins[s].downed) {
            return;
        }
        let waiting: Vec<Seat> = (0..n as Seat).filter(|s| !done[*s as usize]).collect();
        for s in waiting {
            self.gain_ap(cat, s);
            self.slide_origin(cat, s, ev);
        }
        if let Phase::Combat { done, .. } = &mut self.phase {
            done.iter_mut().for_each(|d| *d = true);
        }
        self.enemy_step(cat, false, ev);
    }

    fn gain_ap(&mut self, cat: &Catalogue, seat: Seat) {
        let o = &self.origins[seat as usize];
        let card = cat.origins[&o.origin].at(o.level).map_or(0, |l| l.ap) as i64;
        let rules = self.rules_of(cat, Who::Origin(seat));
        let gain = if rules.iter().any(|r| r.skips_turn) {
            0
        } else {
            (card + rules.iter().map(|r| r.ap_gain as i64).sum::<i64>()).max(0) as u32
        };
        let max = self.max_ap(cat, seat);
        let o = &mut self.origins[seat as usize];
        o.ap = (o.ap + gain).min(max);
    }

    /// Combat ends at once when every enemy is defeated, every Origin is
    /// downed, or a special condition on an active combat card is met
    /// (L1743-1745): checked after every action, turn and enemy turn.
    pub(super) fn check_combat_end(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if !matches!(self.phase, Phase::Combat { .. })
            || self.pending.is_some()
            || self.roll_reduction.is_some()
            || self.enemy_roll.is_some()
            || self.enemy_choice_pending()
        {
            return;
        }
        if self.enemies.is_empty() {
            self.end_combat(cat, true, ev);
        } else if self.standing().next().is_none() {
            self.end_combat(cat, false, ev);
        } else if self.special_end_met(cat) {
            self.end_combat(cat, true, ev);
        }
    }

    /// A special end condition (`ends_when`) of a card in the active combat
    /// stack holds (L1745).
    fn special_end_met(&self, cat: &Catalogue) -> bool {
        let loc = self.loc(cat);
        self.combat_stack.iter().filter_map(|id| loc.card(id)).any(|card| {
            card.ends_when.iter().any(|end| match end {
                CombatEnd::Rounds { rounds } => self.stack_rounds.get(&card.id).is_some_and(|n| n >= rounds),
                CombatEnd::Defeated { enemy } => !self.enemies.iter().any(|e| match &e.kind {
                    EnemyKind::Minion { card, .. } => card == enemy,
                    EnemyKind::Boss { boss } => boss == enemy,
                }),
                CombatEnd::Reach { space } => {
                    let ix = loc.map.ix(space);
                    self.origins.iter().any(|o| !o.downed && Some(o.space) == ix)
                }
            })
        })
    }

    /// Ending a combat (L1751-1756).
    fn end_combat(&mut self, cat: &Catalogue, victory: bool, ev: &mut Vec<Ev>) {
        let Phase::Combat { done, active } = self.phase.clone() else { return };
        ev.push(Ev::CombatEnded { victory });
        // (1) Flip the active combat stack and resolve victory or defeat effects.
        let stack = std::mem::take(&mut self.combat_stack);
        self.stack_rounds.clear();
        let party: Vec<Seat> = (0..self.origins.len() as Seat).collect();
        for card in &stack {
            let Some(c) = self.loc(cat).card(card).cloned() else { continue };
            let effects = if victory { c.victory } else { c.defeat };
            let space = self.origins[0].space;
            self.apply_card_effects(cat, card, &effects, &party, space, ev);
            if self.over() {
                return;
            }
        }
        // (2) Discard the stack and return every enemy.
        self.discard.extend(stack);
        self.enemies.clear();
        self.enemy_queue.clear();
        self.queue_fast = false;
        self.dominated_turn = None;
        self.tie = None;
        self.route = None;
        self.reduction = None;
        self.turn_start = None;
        self.reaction = None;
        // (3) Origins that had no turn resolve start-of-turn effects and slide (L1758);
        // the one whose turn was under way slides too (G33).
        for s in 0..self.origins.len() as Seat {
            if !done[s as usize] && active != Some(s) {
                self.start_of_turn(cat, Who::Origin(s), ev);
                self.slide_origin(cat, s, ev);
            }
        }
        if let Some(s) = active {
            self.slide_origin(cat, s, ev);
        }
        // (4) Revive the downed with 1 HP; (5) AP to 0.
        for s in 0..self.origins.len() {
            let o = &mut self.origins[s];
            if o.downed {
                o.downed = false;
                o.hp = 1;
                ev.push(Ev::Revived { seat: s as Seat, hp: 1 });
            }
            o.ap = 0;
        }
        // (6) End of round.
        self.phase = Phase::ChooseRound;
        self.end_of_round(cat, ev);
    }

    // ----- Origin turns (L1558-1594) -----

    /// Start this Origin's Combat turn (L390): start-of-turn effects, then
    /// AP. An Origin downed by them gains its AP and its turn ends at once.
    /// `order`: the player's order for its start-of-turn effects (L684);
    /// None keeps the track order.
    pub(super) fn start_turn(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        order: Option<&[super::status::Status]>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let Phase::Combat { done, active } = &self.phase else {
            return Err(err("not_combat", "Origins take turns like this only in a Combat round"));
        };
        if active.is_some() {
            return Err(err("turn_under_way", "another turn is under way"));
        }
        if done[seat as usize] {
            return Err(err("turn_taken", "this Origin has had its turn this round"));
        }
        if self.origins[seat as usize].downed {
            return Err(err("downed", "a downed Origin only gains AP and slides its track (L757)"));
        }
        let me = Who::Origin(seat);
        let order = match order {
            Some(o) => {
                self.check_turn_start_order(cat, me, o)?;
                o.to_vec()
            }
            None => self.turn_start_effects(cat, me),
        };
        if let Phase::Combat { active, .. } = &mut self.phase {
            *active = Some(seat);
        }
        self.start_of_turn_in(cat, me, &order, ev);
        // Then AP (L390), even for an Origin just downed: a downed Origin's
        // turn still gains AP and slides (L757).
        self.gain_ap(cat, seat);
        if self.origins[seat as usize].downed {
            self.finish_turn(cat, seat, ev);
            return Ok(());
        }
        ev.push(Ev::TurnStarted { seat, ap: self.origins[seat as usize].ap });
        Ok(())
    }

    /// The seat's Combat turn must be under way.
    pub(super) fn ensure_turn(&mut self, _cat: &Catalogue, seat: Seat, _ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let Phase::Combat { active, .. } = &self.phase else {
            return Err(err("not_combat", "not an Origin's Combat turn"));
        };
        if self.pending.is_some() {
            return Err(err("roll_pending", "accept or reroll the pending roll first"));
        }
        match active {
            Some(a) if *a == seat => Ok(()),
            Some(_) => Err(err("not_your_turn", "another Origin's turn is under way")),
            None => Err(err("turn_not_started", "start your turn first")),
        }
    }

    /// After any action: an Origin downed during its own turn ends it.
    pub(super) fn settle_combat(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if let (Phase::Combat { active: Some(a), .. }, None) = (&self.phase, &self.pending) {
            let a = *a;
            if self.origins[a as usize].downed {
                self.finish_turn(cat, a, ev);
            }
        }
    }

    fn finish_turn(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) {
        self.slide_origin(cat, seat, ev);
        ev.push(Ev::TurnEnded { who: Who::Origin(seat) });
        if let Phase::Combat { done, active } = &mut self.phase {
            done[seat as usize] = true;
            *active = None;
        }
        self.check_combat_end(cat, ev);
        self.after_origin_turn(cat, ev);
    }

    /// End the turn. An Origin can't end it in a tactical space with another
    /// Origin, downed ones included, unless a status pins it there (L753, L1438).
    pub(super) fn end_turn(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.ensure_turn(cat, seat, ev)?;
        let here = self.origins[seat as usize].space;
        let tactical = self.loc(cat).map.spaces[here].tactical();
        let shared = (0..self.origins.len()).any(|s| s != seat as usize && self.origins[s].space == here);
        let pinned = self.has_status(cat, Who::Origin(seat), |r| r.blocks_moving || r.skips_turn);
        // The book is silent on an Origin that stopped there "temporarily"
        // and then spent the AP it needed to leave: it stays (ASSUMPTIONS),
        // rather than the match locking up.
        let ap = self.origins[seat as usize].ap;
        let stranded = self.with_graph(cat, |g| g.neighbours(here).into_iter().all(|n| g.enter_cost(n, false) > ap));
        if tactical && shared && !pinned && !stranded {
            return Err(err(
                "tactical_space_taken",
                "an Origin can't end its turn in a tactical space with another Origin (L1438)",
            ));
        }
        self.finish_turn(cat, seat, ev);
        Ok(())
    }

    fn spend_ap(&mut self, seat: Seat, ap: u32) -> Result<(), RuleError> {
        let o = &mut self.origins[seat as usize];
        if o.ap < ap {
            return Err(err("not_enough_ap", format!("this costs {ap} AP and you have {}", o.ap)));
        }
        o.ap -= ap;
        Ok(())
    }

    /// Move into an adjacent space: 1 AP, +1 into DIFFICULT TERRAIN (L1430).
    pub(super) fn move_origin(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        to: &str,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.ensure_turn(cat, seat, ev)?;
        let here = self.origins[seat as usize].space;
        let ix = self.space_ix(cat, to).ok_or_else(|| err("no_such_space", format!("no space {to}")))?;
        if !self.with_graph(cat, |g| g.adjacent(here, ix)) {
            return Err(err("not_adjacent", "move one space at a time along an unlocked path"));
        }
        if self.has_status(cat, Who::Origin(seat), |r| r.blocks_moving) {
            return Err(err("cannot_move", "a status stops this Origin moving"));
        }
        let cost = self.with_graph(cat, |g| g.enter_cost(ix, false));
        self.spend_ap(seat, cost)?;
        self.origins[seat as usize].space = ix;
        ev.push(Ev::Moved { who: Who::Origin(seat), to: to.to_string() });
        self.bleed_on_move(cat, Who::Origin(seat), ev);
        self.check_combat_end(cat, ev);
        Ok(())
    }

    /// Taunt (L1587): 1 AP, an adjacent enemy comes into your space; never a
    /// Boss or an immovable enemy (L708, L1829).
    pub(super) fn taunt(&mut self, cat: &Catalogue, seat: Seat, enemy: u32, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.ensure_turn(cat, seat, ev)?;
        let here = self.origins[seat as usize].space;
        let e = self.enemy(enemy).ok_or_else(|| err("no_such_enemy", "no such enemy on the map"))?;
        if !self.with_graph(cat, |g| g.adjacent(here, e.space)) {
            return Err(err("not_adjacent", "Taunt pulls an enemy from an adjacent space"));
        }
        if self.immovable(cat, Who::Enemy(enemy)) {
            return Err(err("immovable", "an immovable enemy can't be taunted"));
        }
        self.spend_ap(seat, 1)?;
        let to = self.space_id(cat, here);
        self.enemy_mut(enemy).unwrap().space = here;
        ev.push(Ev::Moved { who: Who::Enemy(enemy), to });
        Ok(())
    }

    /// A once-per-location talent (L559): 0 AP, flipped face down until the
    /// next location's setup (interlude step 4, L1346).
    pub(super) fn use_talent(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        talent: &str,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.ensure_turn(cat, seat, ev)?;
        let o = &self.origins[seat as usize];
        if !o.talents.iter().any(|t| t == talent) {
            return Err(err("no_such_talent", "this Origin doesn't have that talent"));
        }
        let d = &cat.talents[talent];
        if !d.once_per_location {
            return Err(err("ongoing_talent", "an ongoing talent is always on; nothing to flip"));
        }
        if o.talents_used.iter().any(|t| t == talent) {
            return Err(err("talent_used", "once per location: it is face down until the next location"));
        }
        if d.gain_ap == 0 && d.recover_from.is_none() && d.clears.is_empty() {
            return Err(err("not_modelled", "this talent's effect is printed text the engine does not play"));
        }
        if let Some(deck) = d.recover_from {
            let name = super::state::consumable_deck(deck);
            let card = self
                .item_decks
                .get(name)
                .and_then(|c| c.last())
                .cloned()
                .ok_or_else(|| err("nothing_to_recover", format!("no card lies under the {name} deck")))?;
            if o.backpack.len() >= BACKPACK {
                return Err(err("backpack_full", "the backpack holds 3 items (L919)"));
            }
            self.item_decks.get_mut(name).expect("checked").pop();
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

    /// An Origin's special ability (L501-503): 0 AP, once per round or per
    /// location as its data says, on the Origin's Combat turn.
    pub(super) fn use_ability(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        aim: Option<&Aim>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.ensure_turn(cat, seat, ev)?;
        let o = &self.origins[seat as usize];
        let ab = cat.origins[&o.origin]
            .ability
            .clone()
            .ok_or_else(|| err("no_ability", "this Origin's special ability has no effect the engine plays"))?;
        let key = format!("{seat}:ability");
        let used = match ab.per {
            Per::Round => self.used.get(&key) == Some(&self.round),
            Per::Location => self.used.contains_key(&key),
        };
        if used {
            return Err(err("ability_used", format!("the special ability is once per {:?}", ab.per)));
        }
        if self.has_status(cat, Who::Origin(seat), |r| r.blocks_attacks) {
            return Err(err("cannot_act", "a status stops this Origin acting"));
        }
        let here = o.space;
        let aimed = |ok: &dyn Fn(Who) -> bool| -> Result<Who, RuleError> {
            let who = aim.and_then(Aim::who).ok_or_else(|| err("aim_needed", "aim at a figure in your space"))?;
            if self.space_of(who) != Some(here) || !ok(who) {
                return Err(err("bad_target", "the ability needs a fitting target in your space"));
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

    /// A once-per-location talent that flips by itself when the Origin's
    /// attack defeats an enemy gives its AP (up to the maximum).
    fn kill_talents(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) {
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
    fn talent_hits(&self, cat: &Catalogue, seat: Seat, a: &Attack) -> u32 {
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

    /// Recover in combat (L1592): 2 AP with no enemy in your space; heal 2,
    /// or slide one status one slot (clearing it from slot 1).
    pub(super) fn combat_recover(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        status: Option<super::status::Status>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.ensure_turn(cat, seat, ev)?;
        let here = self.origins[seat as usize].space;
        if self.enemies.iter().any(|e| e.space == here) {
            return Err(err("enemy_here", "Recover needs a space without enemies (L1592)"));
        }
        if let Some(s) = status {
            if !self.origins[seat as usize].track.has(s) {
                return Err(err("no_such_status", "this Origin doesn't have that status"));
            }
        }
        self.spend_ap(seat, 2)?;
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
        let rest = matches!(self.phase, Phase::Rest { .. });
        if rest {
            self.rest_step(seat, RestStep::Revive)?;
        } else {
            self.ensure_turn(cat, seat, ev)?;
        }
        let target = self.origins.get(to as usize).ok_or_else(|| err("no_such_origin", "no such Origin"))?;
        if !target.downed {
            return Err(err("not_downed", "only a downed Origin can be revived"));
        }
        if hp == 0 || hp > self.origins[seat as usize].hp {
            return Err(err("bad_transfer", "transfer at least 1 HP and no more than you have"));
        }
        if hp > self.max_hp(cat, Who::Origin(to)) {
            return Err(err("bad_transfer", "no more than the downed Origin's max HP (G35)"));
        }
        if !rest {
            let (a, b) = (self.origins[seat as usize].space, target.space);
            if a != b && !self.with_graph(cat, |g| g.adjacent(a, b)) {
                return Err(err("too_far", "Revive reaches your space or an adjacent one"));
            }
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
        } else if matches!(&self.phase, Phase::Rest { done, .. } if !done[to as usize]) {
            // Revived before its Rest turn, it takes a normal one (L757),
            // which starts with its start-of-turn effects (L353).
            self.start_of_turn(cat, Who::Origin(to), ev);
        }
        Ok(())
    }

    /// Whether item management costs AP now: 1 in combat, free in a Rest round (L941-944).
    fn item_turn(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<u32, RuleError> {
        if matches!(self.phase, Phase::Interlude(_)) {
            // Interlude step 5: equip, store and trade freely (L1347).
            Ok(0)
        } else if self.phase == Phase::ChooseRound && self.round == 1 {
            // At the start of a session or location, before the first
            // round, the same freedom (L939, L1045).
            Ok(0)
        } else if matches!(self.phase, Phase::Rest { .. }) {
            self.rest_step(seat, RestStep::EquipAndTrade)?;
            Ok(0)
        } else {
            self.ensure_turn(cat, seat, ev)?;
            Ok(1)
        }
    }

    /// Equip from the backpack; items it displaces go to the backpack (L943).
    pub(super) fn equip(&mut self, cat: &Catalogue, seat: Seat, item: &str, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let cost = self.item_turn(cat, seat, ev)?;
        let o = &self.origins[seat as usize];
        let (equipped, backpack) = equip_plan(cat, &o.equipped, &o.backpack, item)?;
        self.spend_ap(seat, cost)?;
        self.wear(cat, seat, item, equipped, backpack, ev);
        Ok(())
    }

    /// Put on what [`equip_plan`] worked out; a replaced item's rune moves
    /// onto the new item when a side fits, for free (L1078).
    fn wear(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        item: &str,
        equipped: Vec<String>,
        backpack: Vec<String>,
        ev: &mut Vec<Ev>,
    ) {
        let Some(ItemKind::Equipment(slot)) = cat.items.get(item).map(|d| d.kind) else { return };
        let o = &mut self.origins[seat as usize];
        o.equipped = equipped;
        o.backpack = backpack;
        let gone: Vec<String> =
            o.runes.iter().filter(|a| !o.equipped.contains(&a.item)).map(|a| a.item.clone()).collect();
        for old in gone {
            let o = &mut self.origins[seat as usize];
            let p = o.runes.iter().position(|a| a.item == old).unwrap();
            let side = cat.runes[&o.runes[p].rune].sides.iter().position(|s| s.slot == slot);
            match side {
                Some(side) if !o.runes.iter().any(|a| a.item == item) => {
                    o.runes[p].item = item.to_string();
                    o.runes[p].side = side;
                }
                _ => self.unrune(seat, &old, ev),
            }
        }
    }

    /// Attach a rune from the backpack (or move one) to an equipped item, the
    /// side that fits the item's slot up; done instead of an equip (L1066-1074).
    pub(super) fn attach_rune(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        rune: &str,
        item: &str,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let cost = self.item_turn(cat, seat, ev)?;
        let r = cat.runes.get(rune).ok_or_else(|| err("not_a_rune", format!("{rune} is not a rune")))?;
        let o = &self.origins[seat as usize];
        if !o.equipped.iter().any(|x| x == item) {
            return Err(err("not_equipped", "a rune goes on an equipped item"));
        }
        let Some(ItemKind::Equipment(slot)) = cat.items.get(item).map(|d| d.kind) else {
            return Err(err("not_equipment", "a rune goes on equipment"));
        };
        let side =
            r.sides.iter().position(|s| s.slot == slot).ok_or_else(|| {
                err("rune_does_not_fit", format!("neither side of {rune} fits a {slot:?} item (L1066)"))
            })?;
        if o.runes.iter().any(|a| a.item == item) {
            return Err(err("item_has_rune", "one rune per item"));
        }
        let in_pack = o.backpack.iter().position(|x| x == rune);
        let attached = o.runes.iter().position(|a| a.rune == rune);
        if in_pack.is_none() && attached.is_none() {
            return Err(err("not_carried", "you don't carry that rune"));
        }
        self.spend_ap(seat, cost)?;
        let o = &mut self.origins[seat as usize];
        match attached {
            Some(p) => {
                o.runes.remove(p);
            }
            None => {
                o.backpack.remove(in_pack.unwrap());
            }
        }
        o.runes.push(AttachedRune { rune: rune.to_string(), item: item.to_string(), side });
        Ok(())
    }

    /// An item leaving the equipment slots takes its rune off: into the
    /// backpack if there is room, otherwise discarded (L1078).
    fn unrune(&mut self, seat: Seat, item: &str, ev: &mut Vec<Ev>) {
        let o = &mut self.origins[seat as usize];
        if let Some(p) = o.runes.iter().position(|a| a.item == item) {
            let r = o.runes.remove(p);
            if o.backpack.len() < BACKPACK {
                o.backpack.push(r.rune);
            } else {
                // To the bottom of the rune deck (L1056).
                self.item_decks.entry("runes".into()).or_default().push(r.rune.clone());
                ev.push(Ev::ItemDiscarded { seat, item: r.rune });
            }
        }
    }

    pub(super) fn store(&mut self, cat: &Catalogue, seat: Seat, item: &str, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let cost = self.item_turn(cat, seat, ev)?;
        let o = &self.origins[seat as usize];
        let i =
            o.equipped.iter().position(|x| x == item).ok_or_else(|| err("not_equipped", "the item is not equipped"))?;
        if o.backpack.len() >= BACKPACK {
            return Err(err("backpack_full", "the backpack holds 3 items (L919)"));
        }
        self.spend_ap(seat, cost)?;
        let o = &mut self.origins[seat as usize];
        let it = o.equipped.remove(i);
        o.backpack.push(it);
        self.unrune(seat, item, ev);
        Ok(())
    }

    /// Trade an item (L1043-1052): give one of yours to, or take one from,
    /// another Origin. In combat 1 AP per item and only in your space
    /// (L1049, L1590); free with anyone anywhere in a Rest round (L1050) and
    /// in the interlude (L1347); never in an Explore round (L1047). The
    /// receiver stores it, or equips it when its backpack is full and it
    /// fits (L1052); with neither it cannot receive it (L1056).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn trade(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        from: Seat,
        to: Seat,
        item: &str,
        equip: bool,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let cost = self.item_turn(cat, seat, ev)?;
        let other = if from == seat { to } else { from };
        let r = self.origins.get(other as usize).ok_or_else(|| err("no_such_origin", "no such Origin"))?;
        if other == seat || r.downed {
            return Err(err("bad_partner", "trade with another Origin that is not downed (L747)"));
        }
        if cost > 0 && r.space != self.origins[seat as usize].space {
            return Err(err("too_far", "in combat you trade only with an Origin in your space (L1049)"));
        }
        let o = &self.origins[from as usize];
        let from_pack = o.backpack.iter().position(|x| x == item);
        let from_eq = o.equipped.iter().position(|x| x == item);
        if from_pack.is_none() && from_eq.is_none() {
            return Err(err("not_carried", format!("Origin {from} does not carry {item}")));
        }
        if !self.has_room(cat, to, item) {
            return Err(err("no_room", "the receiver can neither store nor equip it (L1056)"));
        }
        // Equipping at once is part of the trade (L1052): planned before
        // anything moves, so a refusal leaves the state as it was.
        let wear = if equip {
            let r = &self.origins[to as usize];
            let mut pack = r.backpack.clone();
            pack.push(item.to_string());
            Some(equip_plan(cat, &r.equipped, &pack, item)?)
        } else {
            None
        };
        self.spend_ap(seat, cost)?;
        let o = &mut self.origins[from as usize];
        match from_pack {
            Some(i) => o.backpack.remove(i),
            None => o.equipped.remove(from_eq.unwrap()),
        };
        self.unrune(from, item, ev);
        let r = &mut self.origins[to as usize];
        if let Some((equipped, backpack)) = wear {
            self.wear(cat, to, item, equipped, backpack, ev);
        } else if r.backpack.len() < BACKPACK {
            r.backpack.push(item.to_string());
        } else {
            r.equipped.push(item.to_string());
        }
        ev.push(Ev::ItemTraded { from, to, item: item.to_string() });
        Ok(())
    }

    /// The party's answer to an item nobody had room for (L1056): `to`
    /// takes it, dropping `drop` first if it has no room; the dropped item
    /// is discarded to its deck, or given to `pass_to` where trading is free
    /// (a Rest round, the interlude: L1050, L1347). `to: None` discards the
    /// new item.
    pub(super) fn place_overflow(
        &mut self,
        cat: &Catalogue,
        to: Option<Seat>,
        drop: Option<&str>,
        pass_to: Option<Seat>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let Some(o) = self.overflow.first().cloned() else {
            return Err(err("no_item_waiting", "no item is waiting for room"));
        };
        let Some(to) = to else {
            if drop.is_some() || pass_to.is_some() {
                return Err(err("bad_choice", "discarding the new item drops nothing else"));
            }
            self.overflow.remove(0);
            self.to_deck_bottom(cat, &o.item);
            ev.push(Ev::RewardDiscarded { item: o.item });
            return Ok(());
        };
        if !o.takers.contains(&to) {
            return Err(err("not_a_taker", format!("Origin {to} may not take {} (L1039)", o.item)));
        }
        match drop {
            None if !self.has_room(cat, to, &o.item) => {
                return Err(err("no_room", "drop another item to make room (L1056)"));
            }
            None if pass_to.is_some() => return Err(err("bad_choice", "nothing dropped to pass on")),
            None => {}
            Some(d) => {
                let c = &self.origins[to as usize];
                let in_pack = c.backpack.iter().position(|x| x == d);
                let in_eq = c.equipped.iter().position(|x| x == d);
                let rune = c.runes.iter().position(|a| a.rune == d);
                if in_pack.is_none() && in_eq.is_none() && rune.is_none() {
                    return Err(err("not_carried", format!("Origin {to} does not carry {d}")));
                }
                let mut next = self.clone();
                let c = &mut next.origins[to as usize];
                if let Some(i) = in_pack {
                    c.backpack.remove(i);
                } else if let Some(i) = in_eq {
                    c.equipped.remove(i);
                } else {
                    c.runes.remove(rune.unwrap());
                }
                next.unrune(to, d, ev);
                if !next.has_room(cat, to, &o.item) {
                    return Err(err("still_no_room", format!("dropping {d} makes no room for {}", o.item)));
                }
                match pass_to {
                    None => next.discard_item(cat, to, d, ev),
                    Some(p) => {
                        if !matches!(self.phase, Phase::Rest { .. } | Phase::Interlude(_)) {
                            return Err(err(
                                "no_trading_now",
                                "only a Rest round or the interlude lets the party trade freely (L1047-1050)",
                            ));
                        }
                        let r = next.origins.get(p as usize).ok_or_else(|| err("no_such_origin", "no such Origin"))?;
                        if p == to || r.downed || !next.has_room(cat, p, d) {
                            return Err(err("bad_receiver", format!("Origin {p} cannot receive {d} (L747, L1056)")));
                        }
                        next.place_item(cat, p, d);
                        ev.push(Ev::ItemTraded { from: to, to: p, item: d.to_string() });
                    }
                }
                *self = next;
            }
        }
        self.overflow.remove(0);
        self.place_item(cat, to, &o.item);
        ev.push(Ev::ItemGained { seat: Some(to), item: o.item });
        Ok(())
    }

    pub(super) fn discard_carried(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        item: &str,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let _ = self.item_turn(cat, seat, ev)?;
        let o = &mut self.origins[seat as usize];
        if let Some(i) = o.backpack.iter().position(|x| x == item) {
            o.backpack.remove(i);
        } else if let Some(i) = o.equipped.iter().position(|x| x == item) {
            o.equipped.remove(i);
        } else if let Some(i) = o.runes.iter().position(|a| a.rune == item) {
            o.runes.remove(i);
        } else {
            return Err(err("not_carried", "you don't carry that item"));
        }
        self.unrune(seat, item, ev);
        self.discard_item(cat, seat, item, ev);
        Ok(())
    }

    // ----- Using cards and attack rolls -----

    /// Use a skill, item, consumable or summon (L1584): pay, roll, and wait
    /// for rerolls. In a Rest round one card is free (L360).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn use_card(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        card: &CardUse,
        aim: &Aim,
        first_aura: Option<&str>,
        include_self: Option<bool>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let rest = matches!(self.phase, Phase::Rest { .. });
        if rest {
            self.rest_turn_of(seat)?;
        } else {
            self.ensure_turn(cat, seat, ev)?;
        }
        if self.has_status(cat, Who::Origin(seat), |r| r.blocks_attacks) {
            return Err(err("cannot_act", "a status stops this Origin using cards"));
        }
        let keywords = self.keywords(cat, seat);
        let o = &self.origins[seat as usize];
        let play = match card {
            CardUse::Skill(id) => {
                if !o.hand.contains(id) {
                    return Err(err("not_in_hand", format!("{id} is not in hand")));
                }
                let s = &cat.skills[id];
                if let Some(k) = &s.requires {
                    if !keywords.contains(k) {
                        return Err(err("needs_keyword", format!("{id} needs an equipped {k} (L790)")));
                    }
                }
                if s.source > 0 && !o.collar_broken {
                    return Err(err("collar_intact", "Source skills need a broken collar (L518)"));
                }
                match s.weapon {
                    None => Play {
                        attack: s.attack.clone(),
                        rolls: 1,
                        weapon: None,
                        ap: s.ap,
                        source: s.source,
                        label: id.clone(),
                        revives: None,
                    },
                    Some(w) => {
                        let weapon = o
                            .equipped
                            .iter()
                            .find(|i| {
                                let d = &cat.items[*i];
                                d.kind == ItemKind::Equipment(w.slot)
                                    && d.action.as_ref().is_some_and(|a| !w.melee || a.attack.range == 0)
                            })
                            .ok_or_else(|| {
                                err("needs_weapon", format!("{id} needs an equipped {:?} weapon (L864)", w.slot))
                            })?;
                        let a = cat.items[weapon].action.as_ref().expect("weapon action");
                        self.check_action_limits(seat, weapon, a.per_round, a.requires.as_deref(), &keywords)?;
                        let mut attack = self.item_attack(cat, seat, weapon);
                        attack.level_bonus = true;
                        let rolls = if a.per_round.is_some() { 1 } else { w.attacks };
                        Play {
                            attack: Some(attack),
                            rolls,
                            weapon: Some(weapon.clone()),
                            ap: s.ap,
                            source: s.source,
                            label: id.clone(),
                            revives: None,
                        }
                    }
                }
            }
            CardUse::Item(id) => {
                if !o.equipped.contains(id) {
                    return Err(err("not_equipped", format!("{id} is not equipped")));
                }
                let a = cat.items[id].action.as_ref().ok_or_else(|| err("no_action", "this item has no action"))?;
                self.check_action_limits(seat, id, a.per_round, a.requires.as_deref(), &keywords)?;
                let attack = self.item_attack(cat, seat, id);
                Play {
                    attack: Some(attack),
                    rolls: 1,
                    weapon: None,
                    ap: a.ap,
                    source: 0,
                    label: id.clone(),
                    revives: None,
                }
            }
            CardUse::Consumable(id) => {
                if !o.backpack.contains(id) {
                    return Err(err("not_carried", format!("{id} is not in the backpack")));
                }
                let d = cat
                    .items
                    .get(id)
                    .filter(|d| matches!(d.kind, ItemKind::Consumable(_)))
                    .ok_or_else(|| err("not_consumable", format!("{id} is not a consumable")))?;
                let a = d.action.as_ref().ok_or_else(|| err("no_action", "this consumable has no action"))?;
                self.check_action_limits(seat, id, a.per_round, a.requires.as_deref(), &keywords)?;
                Play {
                    attack: Some(a.attack.clone()),
                    rolls: 1,
                    weapon: None,
                    ap: a.ap,
                    source: 0,
                    label: id.clone(),
                    revives: d.revives,
                }
            }
            CardUse::Summon => {
                let s = o.summon.clone().ok_or_else(|| err("no_summon", "no active summon"))?;
                let a = &cat.summons[&s].action;
                self.check_action_limits(seat, &s, a.per_round, a.requires.as_deref(), &keywords)?;
                Play {
                    attack: Some(a.attack.clone()),
                    rolls: 1,
                    weapon: None,
                    ap: a.ap,
                    source: 0,
                    label: s,
                    revives: None,
                }
            }
        };
        let movement = match card {
            CardUse::Skill(id) => cat.skills[id].movement,
            _ => None,
        };
        let moving = match movement {
            Some(m) => Some(self.skill_move(cat, seat, m, aim, rest)?),
            None => None,
        };
        let targets = match &play.attack {
            Some(a) => self.aim(cat, seat, a, aim, play.revives.is_some(), include_self)?,
            None => (Vec::new(), self.origins[seat as usize].space),
        };
        // Pay.
        if play.source > 0 {
            if self.origins[seat as usize].source < play.source {
                return Err(err("not_enough_source", "not enough Source"));
            }
            self.origins[seat as usize].source -= play.source;
        } else if rest {
            self.rest_step(seat, RestStep::UseCard)?;
        } else {
            self.spend_ap(seat, play.ap)?;
        }
        self.used.insert(format!("{seat}:{}", play.label), self.round);
        if let Some(w) = &play.weapon {
            self.used.insert(format!("{seat}:{w}"), self.round);
        }
        self.after_use(cat, seat, card, ev);
        if let Some((who, to)) = moving {
            match who {
                Who::Origin(s) => self.origins[s as usize].space = to,
                Who::Enemy(e) => self.enemy_mut(e).expect("checked enemy").space = to,
            }
            ev.push(Ev::Moved { who, to: self.space_id(cat, to) });
        }
        if let Some(n) = play.revives {
            if let Some(Who::Origin(t)) = targets.0.first() {
                let max = self.max_hp(cat, Who::Origin(*t));
                let o = &mut self.origins[*t as usize];
                o.downed = false;
                o.hp = n.min(max);
                ev.push(Ev::Revived { seat: *t, hp: self.origins[*t as usize].hp });
            }
            return Ok(());
        }
        if let Some(mut a) = play.attack {
            if let Some(ty) = self.aura_for(cat, seat, &a, first_aura)? {
                a.outcome = Outcome::Damage { damage_type: ty };
            }
            self.roll_attack(cat, seat, a, targets.0, targets.1, play.label, play.rolls - 1, ev);
        }
        Ok(())
    }

    /// Who a movement skill moves and where (L905-907): the user to an aimed
    /// space within range, or an aimed ally or enemy within range into the
    /// user's space. Spaces cost no AP and DIFFICULT TERRAIN is ignored
    /// (L907); locked paths and spaces can't be crossed (L1092, L1100);
    /// immovable targets can't be moved (L708, L1829); a status that stops
    /// moving stops the user (G32); a downed Origin can't be moved by a skill.
    fn skill_move(
        &self,
        cat: &Catalogue,
        seat: Seat,
        m: SkillMove,
        aim: &Aim,
        rest: bool,
    ) -> Result<(Who, SpaceIx), RuleError> {
        let here = self.origins[seat as usize].space;
        let (who, from, to) = match (m.mover, aim) {
            (Mover::User, Aim::Space(id)) => {
                let to = self.space_ix(cat, id).ok_or_else(|| err("no_such_space", format!("no space {id}")))?;
                if self.has_status(cat, Who::Origin(seat), |r| r.blocks_moving) {
                    return Err(err("cannot_move", "a status stops this Origin moving (G32)"));
                }
                (Who::Origin(seat), here, to)
            }
            (Mover::User, _) => return Err(err("aim_a_space", "this skill moves you: aim at a space")),
            (Mover::Target, Aim::Space(_)) => {
                return Err(err("aim_a_figure", "this skill moves an ally or an enemy: aim at one"))
            }
            (Mover::Target, a) => {
                let who = a.who().expect("a figure");
                let from = self.space_of(who).ok_or_else(|| err("no_such_target", "no such figure"))?;
                if let Who::Origin(s) = who {
                    if s == seat || self.origins[s as usize].downed {
                        return Err(err("bad_target", "the skill moves another Origin who is not downed (L747)"));
                    }
                }
                if self.immovable(cat, who) {
                    return Err(err("immovable", "an immovable target can't be moved (L708, L1829)"));
                }
                (who, from, here)
            }
        };
        if from == to {
            return Err(err("no_move", "the figure is already there"));
        }
        if rest && self.loc(cat).map.spaces[to].tactical() {
            return Err(err("tactical_space", "only combat lets a figure stop in a tactical space (L1116)"));
        }
        match self.with_graph(cat, |g| g.distance(from, to)) {
            Some(d) if d <= m.range => Ok((who, to)),
            Some(_) => Err(err("out_of_range", format!("the skill moves up to {} spaces", m.range))),
            None => Err(err("unreachable", "no unlocked path leads there (L1092, L1100)")),
        }
    }

    /// An equipped item's attack, with the damage type its rune gives (L1070).
    fn item_attack(&self, cat: &Catalogue, seat: Seat, id: &str) -> Attack {
        let o = &self.origins[seat as usize];
        let mut attack = cat.items[id].action.as_ref().expect("item action").attack.clone();
        for r in o.runes.iter().filter(|r| r.item == id) {
            if let (Some(ty), Outcome::Damage { .. }) = (cat.runes[&r.rune].sides[r.side].damage_type, attack.outcome) {
                attack.outcome = Outcome::Damage { damage_type: ty };
            }
        }
        attack
    }

    /// Auras of Origins in the attacker's space turn a physical attack into
    /// their type. With several, the attacker picks the one that resolves
    /// first, and the attack is then no longer physical (L883-887); by
    /// default its own aura, then the lowest seat's.
    fn aura_for(
        &self,
        cat: &Catalogue,
        seat: Seat,
        a: &Attack,
        first: Option<&str>,
    ) -> Result<Option<DamageType>, RuleError> {
        if a.damage_type() != Some(DamageType::Physical) {
            return Ok(None);
        }
        let here = self.origins[seat as usize].space;
        let mut auras: Vec<(Seat, String, DamageType)> = Vec::new();
        // A downed Origin's face-up cards stay active (L743, L416).
        for (s, o) in self.origins.iter().enumerate() {
            if o.space != here {
                continue;
            }
            for c in o.track.active() {
                if let CardRef::Skill(id) = c {
                    if let Some(ty) = cat.skills[id].aura {
                        auras.push((s as Seat, id.clone(), ty));
                    }
                }
            }
        }
        auras.sort_by_key(|(s, _, _)| (*s != seat, *s));
        match first {
            Some(f) => auras
                .iter()
                .find(|(_, id, _)| id == f)
                .map(|(_, _, ty)| Some(*ty))
                .ok_or_else(|| err("no_such_aura", format!("no active {f} in your space"))),
            None => Ok(auras.first().map(|(_, _, ty)| *ty)),
        }
    }

    fn check_action_limits(
        &self,
        seat: Seat,
        id: &str,
        per_round: Option<u32>,
        requires: Option<&str>,
        keywords: &std::collections::BTreeSet<String>,
    ) -> Result<(), RuleError> {
        if per_round.is_some() && self.used.get(&format!("{seat}:{id}")) == Some(&self.round) {
            return Err(err("once_per_round", "this can be used once per round (L968)"));
        }
        if let Some(k) = requires {
            if !keywords.contains(k) {
                return Err(err("needs_keyword", format!("this needs {k}")));
            }
        }
        Ok(())
    }

    /// Who a card's roll lands on (L1543-1548): a single target in range, or
    /// everyone in a space in range except the user unless the user opts in
    /// (a healing area includes the user by default, as the Healing Grenade
    /// example does).
    fn aim(
        &self,
        cat: &Catalogue,
        seat: Seat,
        a: &Attack,
        aim: &Aim,
        revive: bool,
        include_self: Option<bool>,
    ) -> Result<(Vec<Who>, SpaceIx), RuleError> {
        let here = self.origins[seat as usize].space;
        let (space, single) = match (a.targets, aim) {
            (Targets::Single, Aim::Origin(s)) => {
                let o = self.origins.get(*s as usize).ok_or_else(|| err("no_such_origin", "no such Origin"))?;
                if revive && !o.downed {
                    return Err(err("not_downed", "this revives a downed Origin"));
                }
                (o.space, Some(Who::Origin(*s)))
            }
            (Targets::Single, Aim::Enemy(e)) if !revive => {
                let e = self.enemy(*e).ok_or_else(|| err("no_such_enemy", "no such enemy"))?;
                (e.space, Some(Who::Enemy(e.id)))
            }
            (Targets::Area, Aim::Space(id)) => {
                (self.space_ix(cat, id).ok_or_else(|| err("no_such_space", format!("no space {id}")))?, None)
            }
            _ => return Err(err("bad_aim", "aim a single-target card at someone and an area card at a space")),
        };
        let further: u32 = match a.targets {
            Targets::Area => self.origins[seat as usize]
                .talents
                .iter()
                .filter_map(|t| cat.talents.get(t))
                .map(|t| t.area_range)
                .sum(),
            Targets::Single => 0,
        };
        let range = a.range + further;
        let d = self.with_graph(cat, |g| g.distance(here, space));
        if d.is_none_or(|d| d > range) {
            return Err(err("out_of_range", format!("the target is beyond range {range}")));
        }
        let targets = match single {
            Some(w) => vec![w],
            None => {
                let me_too = include_self.unwrap_or(matches!(a.outcome, Outcome::Heal { .. }));
                let mut v: Vec<Who> = (0..self.origins.len() as Seat)
                    .filter(|s| self.origins[*s as usize].space == space && (*s != seat || me_too))
                    .map(Who::Origin)
                    .collect();
                v.extend(self.enemies.iter().filter(|e| e.space == space).map(|e| Who::Enemy(e.id)));
                v
            }
        };
        Ok((targets, space))
    }

    /// After paying: skills go on cooldown (face up if ongoing), a summon
    /// takes the slot, consumables are spent or go on the track (L784, L992).
    fn after_use(&mut self, cat: &Catalogue, seat: Seat, card: &CardUse, ev: &mut Vec<Ev>) {
        let o = &mut self.origins[seat as usize];
        match card {
            CardUse::Skill(id) => {
                let s = &cat.skills[id];
                o.hand.retain(|x| x != id);
                let ongoing = s.flip_at.is_some() || s.ongoing != Default::default() || s.summon.is_some();
                let tc = TrackCard { card: CardRef::Skill(id.clone()), face_up: ongoing, flip_at: s.flip_at };
                if let Some(back) = o.track.place(tc, s.cooldown) {
                    if let CardRef::Skill(id) = back.card {
                        o.hand.push(id);
                    }
                }
                if let Some(m) = &s.summon {
                    o.summon = Some(m.clone());
                }
            }
            CardUse::Consumable(id) => {
                let i = o.backpack.iter().position(|x| x == id).expect("checked");
                o.backpack.remove(i);
                match cat.items[id].ongoing_slot {
                    Some(slot) => {
                        o.track.place(
                            TrackCard { card: CardRef::Consumable(id.clone()), face_up: true, flip_at: None },
                            slot,
                        );
                    }
                    None => self.discard_item(cat, seat, id, ev),
                }
            }
            CardUse::Item(_) | CardUse::Summon => {}
        }
    }

    /// A roll's dice after reductions (L1515) when nobody picks: white dice
    /// go first, then blue, then red (only one way to lose them when the
    /// dice are of one colour or all go).
    fn pool_for(&self, cat: &Catalogue, who: Who, a: &Attack) -> Pool {
        let mut p = a.dice;
        let n: u32 = self.rules_of(cat, who).iter().map(|r| r.dice_reduction).sum();
        p.reduce_by(n, &[Colour::White, Colour::Blue, Colour::Red]);
        p
    }

    #[allow(clippy::too_many_arguments)]
    fn roll_attack(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        a: Attack,
        targets: Vec<Who>,
        space: SpaceIx,
        label: String,
        repeat: u32,
        ev: &mut Vec<Ev>,
    ) {
        let who = Who::Origin(seat);
        // Some but not all dice of several colours to lose: the roller picks
        // which (L1515); the roll waits.
        let n: u32 = self.rules_of(cat, who).iter().map(|r| r.dice_reduction).sum();
        let d = a.dice;
        let colours = [d.white, d.blue, d.red].iter().filter(|&&c| c > 0).count();
        if n > 0 && n < d.total() && colours > 1 {
            ev.push(Ev::OwnDiceToReduce { seat, remove: n });
            self.roll_reduction = Some(RollReduction { seat, remove: n, attack: a, targets, space, label, repeat });
            return;
        }
        let pool = self.pool_for(cat, who, &a);
        self.roll_attack_with(cat, seat, a, targets, space, label, repeat, pool, ev);
    }

    /// The rolling Origin picks the dice its roll loses (L1515); it rolls.
    pub(super) fn reduce_own_dice(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        remove: &[Colour],
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let r = self.roll_reduction.clone().ok_or_else(|| err("no_reduction", "no roll waits for a dice reduction"))?;
        if seat != r.seat {
            return Err(err("not_your_roll", "only the rolling Origin picks the dice its roll loses (L1515)"));
        }
        let pool = reduced(r.attack.dice, r.remove, remove)?;
        self.roll_reduction = None;
        self.roll_attack_with(cat, seat, r.attack, r.targets, r.space, r.label, r.repeat, pool, ev);
        Ok(())
    }

    /// An Origin's roll with its dice after reductions.
    #[allow(clippy::too_many_arguments)]
    fn roll_attack_with(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        a: Attack,
        targets: Vec<Who>,
        space: SpaceIx,
        label: String,
        repeat: u32,
        pool: Pool,
        ev: &mut Vec<Ev>,
    ) {
        let who = Who::Origin(seat);
        let roll = pool.roll(&mut self.rng);
        ev.push(Ev::Rolled {
            who,
            dice: roll.dice.clone(),
            hits: roll.hits(&cat.dice),
            specials: roll.specials(&cat.dice),
        });
        let o = &self.origins[seat as usize];
        let level_bonus = cat.origins[&o.origin].at(o.level).map_or(0, |l| l.level_bonus);
        let mut extra: u32 = self.rules_of(cat, who).iter().map(|r| r.extra_hits).sum();
        extra += self.talent_hits(cat, seat, &a);
        let o = &self.origins[seat as usize];
        let card_rerolls = if space == o.space { a.reroll_in_space } else { 0 };
        let purpose = Purpose::Attack { attack: a, targets, space, level_bonus, extra, label, repeat };
        self.pending = Some(PendingRoll { seat, roll, purpose, card_rerolls });
        if self.pending.as_ref().is_some_and(|p| p.roll.dice.is_empty()) {
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
        if self.enemy_roll.is_some() {
            return self.reroll_enemy(cat, seat, dice, source, ev);
        }
        let p = self.pending.clone().ok_or_else(|| err("no_roll", "no roll is waiting"))?;
        // Any Origin may spend its Source on any roll (L511), except on
        // another's challenge roll, made without assistance (L1180); the
        // card's own reroll and the Copper Band are the roller's.
        let ally_source = source && !matches!(p.purpose, Purpose::Challenge);
        if p.seat != seat && !ally_source {
            return Err(err(
                "not_your_roll",
                "only the roller rerolls this roll, but with Source on an attack (L511, L1180)",
            ));
        }
        if p.seat != seat && self.origins[seat as usize].downed {
            return Err(err("downed", "a downed Origin takes no actions (L747)"));
        }
        if dice.is_empty() {
            return Err(err("no_dice", "choose the dice to reroll"));
        }
        let mut roll = p.roll.clone();
        if source {
            let o = &mut self.origins[seat as usize];
            if o.source == 0 {
                return Err(err("not_enough_source", "a Source reroll costs 1 Source"));
            }
            o.source -= 1;
        } else if p.card_rerolls as usize >= dice.len() {
            self.pending.as_mut().unwrap().card_rerolls = 0;
        } else {
            let physical = matches!(&p.purpose, Purpose::Attack { attack, .. } if attack.damage_type() == Some(DamageType::Physical));
            let band = self.origins[seat as usize]
                .equipped
                .iter()
                .find(|i| cat.items[*i].reroll_after == Some(DamageType::Physical))
                .cloned();
            let key = band.as_ref().map(|b| format!("{seat}:{b}:reroll"));
            let fresh = key.as_ref().is_some_and(|k| self.used.get(k) != Some(&self.round));
            if !(physical && fresh && dice.len() == 1 && self.round_kind == RoundKind::Combat) {
                return Err(err("no_reroll", "no reroll available for these dice"));
            }
            self.used.insert(key.unwrap(), self.round);
        }
        roll.reroll(dice, &mut self.rng).map_err(|m| err("bad_dice", m))?;
        ev.push(Ev::Rerolled { seat, dice: roll.dice.clone(), source });
        self.pending.as_mut().unwrap().roll = roll;
        Ok(())
    }

    /// Keep the roll and resolve it in the book's order (L1479-1483).
    pub(super) fn accept(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        if self.enemy_roll.is_some() {
            return self.pass_enemy_roll(cat, seat, ev);
        }
        let p = self.pending.clone().ok_or_else(|| err("no_roll", "no roll is waiting"))?;
        if p.seat != seat {
            return Err(err("not_your_roll", "only the roller accepts this roll"));
        }
        self.pending = None;
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
                self.land(cat, &a, c, &targets, space, longer, ev);
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
                    self.roll_attack(cat, seat, a, alive, space, label, repeat - 1, ev);
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
    #[allow(clippy::too_many_arguments)]
    fn land(
        &mut self,
        cat: &Catalogue,
        a: &Attack,
        c: attack::Count,
        targets: &[Who],
        space: SpaceIx,
        longer: u8,
        ev: &mut Vec<Ev>,
    ) {
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

    // ----- Enemy turns (L1596-1837) -----

    /// Origins (and DOMINATED minions) an enemy may target (L1627).
    fn candidates(&self, cat: &Catalogue, except: u32) -> (Vec<Who>, Vec<Candidate>) {
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
    fn route_others(&self, target: Who) -> Vec<SpaceIx> {
        (0..self.origins.len() as Seat)
            .filter(|s| Who::Origin(*s) != target)
            .map(|s| self.origins[s as usize].space)
            .collect()
    }

    fn slide_enemy(&mut self, id: u32, ev: &mut Vec<Ev>) {
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
    fn walk(&mut self, cat: &Catalogue, id: u32, walk: &[SpaceIx], ev: &mut Vec<Ev>) {
        for &s in walk {
            let Some(e) = self.enemy_mut(id) else { return };
            e.space = s;
            let to = self.space_id(cat, s);
            ev.push(Ev::Moved { who: Who::Enemy(id), to });
            self.bleed_on_move(cat, Who::Enemy(id), ev);
        }
    }

    /// An enemy's attack roll. When some Origin could spend Source on it,
    /// it waits for their rerolls (`true`); otherwise it lands at once.
    fn enemy_attack(
        &mut self,
        cat: &Catalogue,
        id: u32,
        a: &Attack,
        target: Who,
        boss: bool,
        ev: &mut Vec<Ev>,
    ) -> bool {
        let who = Who::Enemy(id);
        // Dice of several colours to lose: the party picks which (L1515).
        let n: u32 = self.rules_of(cat, who).iter().map(|r| r.dice_reduction).sum();
        let d = a.dice;
        let colours = [d.white, d.blue, d.red].iter().filter(|&&c| c > 0).count();
        let total = (d.white + d.blue + d.red) as u32;
        if n > 0 && n < total && colours > 1 && self.options.party_breaks_ties && self.space_of(target).is_some() {
            ev.push(Ev::DiceToReduce { enemy: id, remove: n });
            self.reduction = Some(ReductionChoice { enemy: id, attack: a.clone(), target, remove: n, boss });
            return true;
        }
        let pool = self.pool_for(cat, who, a);
        self.enemy_roll_with(cat, id, a, target, boss, pool, ev)
    }

    /// An enemy's attack roll with its dice after reductions.
    #[allow(clippy::too_many_arguments)]
    fn enemy_roll_with(
        &mut self,
        cat: &Catalogue,
        id: u32,
        a: &Attack,
        target: Who,
        boss: bool,
        pool: Pool,
        ev: &mut Vec<Ev>,
    ) -> bool {
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
        let roll = pool.roll(&mut self.rng);
        ev.push(Ev::Rolled {
            who,
            dice: roll.dice.clone(),
            hits: roll.hits(&cat.dice),
            specials: roll.specials(&cat.dice),
        });
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
            self.enemy_roll = Some(r);
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
        self.land(cat, &r.attack, c, &r.targets, r.space, 0, ev);
    }

    /// Reroll an enemy's dice with 1 Source (L511): the others may answer again.
    fn reroll_enemy(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        dice: &[usize],
        source: bool,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let r = self.enemy_roll.clone().expect("enemy roll");
        if !self.enemy_roll_waiting_for(&r).contains(&seat) {
            return Err(err("not_your_roll", "this Origin can't reroll this roll now"));
        }
        if !source {
            return Err(err("no_reroll", "only Source rerolls an enemy's roll"));
        }
        if dice.is_empty() {
            return Err(err("no_dice", "choose the dice to reroll"));
        }
        let mut roll = r.roll.clone();
        roll.reroll(dice, &mut self.rng).map_err(|m| err("bad_dice", m))?;
        self.origins[seat as usize].source -= 1;
        ev.push(Ev::Rerolled { seat, dice: roll.dice.clone(), source: true });
        let e = self.enemy_roll.as_mut().unwrap();
        e.roll = roll;
        e.passed = vec![false; e.passed.len()];
        self.settle_enemy_roll(cat, ev);
        Ok(())
    }

    /// Let an enemy's roll stand; once everyone has, it lands and the enemy
    /// goes on (a minion ends its turn, a Boss plays on).
    fn pass_enemy_roll(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let r = self.enemy_roll.clone().expect("enemy roll");
        if !self.enemy_roll_waiting_for(&r).contains(&seat) {
            return Err(err("not_your_roll", "this Origin has no say on this roll now"));
        }
        self.enemy_roll.as_mut().unwrap().passed[seat as usize] = true;
        self.settle_enemy_roll(cat, ev);
        Ok(())
    }

    /// Once nobody may reroll any more, the enemy roll lands and the enemy goes on.
    fn settle_enemy_roll(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        let Some(r) = self.enemy_roll.clone() else { return };
        if !self.enemy_roll_waiting_for(&r).is_empty() {
            return;
        }
        self.enemy_roll = None;
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

    /// A minion's turn (L381-387, L1614-1699).
    fn minion_turn(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) {
        if self.ask_turn_start_order(cat, id, ev) {
            return;
        }
        self.start_of_turn(cat, Who::Enemy(id), ev);
        self.minion_turn_on(cat, id, ev);
    }

    /// A minion's turn after its start-of-turn effects.
    fn minion_turn_on(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let Some(e) = self.enemy(id) else { return };
        let EnemyKind::Minion { card, veteran } = e.kind.clone() else { return };
        let stats = cat.minions[&card].side(veteran).clone();
        if self.has_status(cat, me, |r| r.skips_turn) {
            self.slide_enemy(id, ev);
            return;
        }
        let from = e.space;
        // A DOMINATED minion rolls no targeting die: the party picks its target (L1735).
        if self.has_status(cat, me, |r| r.dominated) {
            self.dominated_turn = Some(id);
            return;
        }
        let (n, face) = cat.dice.roll_targeting(&mut self.rng);
        let (who, cands) = self.candidates(cat, id);
        let tied = self.with_graph(cat, |g| tied_targets(g, from, face, stats.targeting, &cands));
        if tied.len() > 1 && self.options.party_breaks_ties {
            let options: Vec<Who> = tied.iter().map(|i| who[*i]).collect();
            ev.push(Ev::TieToBreak { enemy: id, options: options.clone() });
            self.tie = Some(TieChoice { enemy: id, options, tactic: None, face: n });
            return;
        }
        let target = tied.first().map(|i| who[*i]);
        if let Some(t) = target {
            ev.push(Ev::Targeted { enemy: id, target: t, face: n });
        }
        let others = target.map(|t| self.route_others(t)).unwrap_or_default();
        self.minion_act(cat, id, target, &others, ev);
    }

    /// The rest of a minion's turn once it has a target (L385-387): move to
    /// max range, attack if in range or heal its level, slide.
    fn minion_act(&mut self, cat: &Catalogue, id: u32, target: Option<Who>, others: &[SpaceIx], ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let Some(EnemyKind::Minion { card, veteran }) = self.enemy(id).map(|e| e.kind.clone()) else { return };
        let stats = cat.minions[&card].side(veteran).clone();
        let from = self.enemy(id).unwrap().space;
        let level = stats.level;
        let Some(target) = target else {
            // No one to target: no move, no attack, heal its level (G22).
            self.heal(cat, me, level, ev);
            self.slide_enemy(id, ev);
            return;
        };
        let tspace = self.space_of(target).unwrap();
        // An immovable minion can't be prevented from moving (L708).
        let pinned = self.has_status(cat, me, |r| r.blocks_moving) && !self.immovable(cat, me);
        let movement = if pinned { 0 } else { stats.movement };
        let walks = self.with_graph(cat, |g| plan_moves(g, from, tspace, stats.attack.range, movement, false, others));
        if walks.len() > 1 && self.options.party_breaks_ties {
            let routes: Vec<Vec<String>> =
                walks.iter().map(|w| w.iter().map(|&s| self.space_id(cat, s)).collect()).collect();
            ev.push(Ev::RouteToChoose { enemy: id, routes: routes.clone() });
            self.route = Some(RouteChoice { enemy: id, target, routes, tactic: None });
            return;
        }
        let walk = walks.into_iter().next().unwrap_or_default();
        self.minion_move_and_attack(cat, id, target, &walk, ev);
    }

    /// A minion on its chosen route, then its attack if in range or a heal
    /// of its level (L385-387), then its slide.
    fn minion_move_and_attack(&mut self, cat: &Catalogue, id: u32, target: Who, walk: &[SpaceIx], ev: &mut Vec<Ev>) {
        if self.space_of(target).is_none() {
            return;
        }
        self.walk(cat, id, walk, ev);
        if !walk.is_empty() && self.react(cat, id, 0, target, None, ev) {
            return; // the turn goes on once the reaction's roll is accepted
        }
        self.minion_after_move(cat, id, target, ev);
    }

    /// The rest of a minion's turn after its move: attack if in range or
    /// heal its level (L385-387), then slide.
    fn minion_after_move(&mut self, cat: &Catalogue, id: u32, target: Who, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let Some(EnemyKind::Minion { card, veteran }) = self.enemy(id).map(|e| e.kind.clone()) else { return };
        let stats = cat.minions[&card].side(veteran).clone();
        let level = stats.level;
        let Some(tspace) = self.space_of(target) else {
            self.slide_enemy(id, ev);
            return;
        };
        let Some(now) = self.enemy(id).map(|e| e.space) else { return };
        let in_range = self.with_graph(cat, |g| g.distance(now, tspace)).is_some_and(|d| d <= stats.attack.range);
        let blocked = self.has_status(cat, me, |r| r.blocks_attacks);
        if in_range && !blocked {
            if self.enemy_attack(cat, id, &stats.attack, target, false, ev) {
                return; // the turn ends once the roll has landed
            }
        } else {
            // Out of range: heal HP equal to its level (L386, L1697).
            self.heal(cat, me, level, ev);
        }
        self.slide_enemy(id, ev);
    }

    /// The party (its leader) picks a DOMINATED minion's target: another
    /// enemy or an Origin; it moves toward it and attacks if it can (L1735).
    pub(super) fn command(&mut self, cat: &Catalogue, target: &Aim, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let id =
            self.dominated_turn.ok_or_else(|| err("no_dominated_turn", "no DOMINATED minion is waiting for orders"))?;
        let t = match target {
            Aim::Enemy(e) if *e != id && self.enemy(*e).is_some() => Who::Enemy(*e),
            Aim::Origin(s) if self.origins.get(*s as usize).is_some_and(|o| !o.downed) => Who::Origin(*s),
            _ => return Err(err("bad_target", "choose another enemy on the map or a standing Origin")),
        };
        self.dominated_turn = None;
        ev.push(Ev::Targeted { enemy: id, target: t, face: 0 });
        self.minion_act(cat, id, Some(t), &[], ev);
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
        Ok(())
    }

    /// A Boss' turn (L1785-1825): start-of-turn effects, AP, then tactics.
    fn boss_turn(&mut self, cat: &Catalogue, id: u32, boss: &str, ev: &mut Vec<Ev>) {
        if self.ask_turn_start_order(cat, id, ev) {
            return;
        }
        self.start_of_turn(cat, Who::Enemy(id), ev);
        self.boss_turn_on(cat, id, boss, ev);
    }

    /// A Boss' turn after its start-of-turn effects: AP, then tactics.
    fn boss_turn_on(&mut self, cat: &Catalogue, id: u32, boss: &str, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let b = &cat.bosses[boss];
        let Some(e) = self.enemy_mut(id) else { return };
        e.ap = (e.ap + b.ap).min(MAX_AP);
        if self.has_status(cat, me, |r| r.skips_turn) {
            self.slide_enemy(id, ev);
            return;
        }
        self.boss_tactics(cat, id, ev);
    }

    /// When the party breaks ties and the order of the enemy's start-of-turn
    /// effects changes the outcome, its turn waits for the party's order
    /// (L684). True when it waits.
    fn ask_turn_start_order(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) -> bool {
        let me = Who::Enemy(id);
        if !self.options.party_breaks_ties || !self.turn_start_order_matters(cat, me) {
            return false;
        }
        let statuses = self.turn_start_effects(cat, me);
        ev.push(Ev::TurnStartToOrder { enemy: id, statuses: statuses.clone() });
        self.turn_start = Some(TurnStartChoice { enemy: id, statuses });
        true
    }

    /// The party orders the waiting enemy's start-of-turn effects (L684);
    /// its turn goes on.
    pub(super) fn order_enemy_turn_start(
        &mut self,
        cat: &Catalogue,
        order: &[super::status::Status],
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let c = self
            .turn_start
            .clone()
            .ok_or_else(|| err("no_turn_start_choice", "no enemy waits for the order of its start-of-turn effects"))?;
        let me = Who::Enemy(c.enemy);
        self.check_turn_start_order(cat, me, order)?;
        self.turn_start = None;
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

    /// An attack tactic on its target (L1811-1813): move to max range ignoring
    /// DIFFICULT TERRAIN, attack if in range and the space holds an Origin,
    /// else take the AP back. True when the roll waits for rerolls.
    fn boss_strike(&mut self, cat: &Catalogue, id: u32, t: &BossTactic, target: Who, ev: &mut Vec<Ev>) -> bool {
        let Some(a) = &t.attack else { return false };
        let Some(from) = self.enemy(id).map(|e| e.space) else { return false };
        let Some(tspace) = self.space_of(target) else { return false };
        let others = self.route_others(target);
        let walks = self.with_graph(cat, |g| plan_moves(g, from, tspace, a.range, t.movement, true, &others));
        if walks.len() > 1 && self.options.party_breaks_ties {
            // The party picks the route among equals (L1689); the Boss waits.
            let routes: Vec<Vec<String>> =
                walks.iter().map(|w| w.iter().map(|&s| self.space_id(cat, s)).collect()).collect();
            ev.push(Ev::RouteToChoose { enemy: id, routes: routes.clone() });
            self.route = Some(RouteChoice { enemy: id, target, routes, tactic: Some(t.id.clone()) });
            return true;
        }
        let walk = walks.into_iter().next().unwrap_or_default();
        self.boss_strike_along(cat, id, t, target, &walk, ev)
    }

    /// An attack tactic along its route: attack if in range and the space
    /// holds an Origin, else take the AP back (L1811-1813). True when the
    /// roll waits.
    fn boss_strike_along(
        &mut self,
        cat: &Catalogue,
        id: u32,
        t: &BossTactic,
        target: Who,
        walk: &[SpaceIx],
        ev: &mut Vec<Ev>,
    ) -> bool {
        if t.attack.is_none() || self.space_of(target).is_none() {
            return false;
        }
        self.walk(cat, id, walk, ev);
        if !walk.is_empty() && self.react(cat, id, 0, target, Some(t.id.clone()), ev) {
            return true; // the Boss plays on once the reaction's roll is accepted
        }
        self.boss_after_move(cat, id, t, target, ev)
    }

    /// An attack tactic after the Boss' move: attack if in range and the
    /// space holds an Origin, else take the AP back (L1811-1813). True when
    /// the roll waits.
    fn boss_after_move(&mut self, cat: &Catalogue, id: u32, t: &BossTactic, target: Who, ev: &mut Vec<Ev>) -> bool {
        let Some(a) = &t.attack else { return false };
        let Some(tspace) = self.space_of(target) else { return false };
        let Some(now) = self.enemy(id).map(|e| e.space) else { return false };
        let in_range = self.with_graph(cat, |g| g.distance(now, tspace)).is_some_and(|d| d <= a.range);
        let origins_there = self.origins.iter().any(|o| o.space == tspace && !o.downed);
        if in_range && origins_there {
            ev.push(Ev::Targeted { enemy: id, target, face: 0 });
            return self.enemy_attack(cat, id, a, target, true, ev);
        }
        if let Some(e) = self.enemy_mut(id) {
            // No attack: the AP comes back, no heal (L1813).
            e.ap += t.ap;
        }
        false
    }

    /// The party picks the dice an enemy loses (L1515); its attack rolls and
    /// the enemy goes on.
    pub(super) fn reduce_enemy_dice(
        &mut self,
        cat: &Catalogue,
        remove: &[Colour],
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let r =
            self.reduction.clone().ok_or_else(|| err("no_reduction", "no enemy roll waits for a dice reduction"))?;
        let pool = reduced(r.attack.dice, r.remove, remove)?;
        self.reduction = None;
        if !self.enemy_roll_with(cat, r.enemy, &r.attack, r.target, r.boss, pool, ev)
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

    /// The party picks a minion's route among equals (L1689); it goes on.
    pub(super) fn choose_route(&mut self, cat: &Catalogue, route: usize, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let r = self.route.clone().ok_or_else(|| err("no_route_choice", "no minion is waiting for a route"))?;
        let chosen = r
            .routes
            .get(route)
            .ok_or_else(|| err("no_such_route", format!("choose a route from 0 to {}", r.routes.len() - 1)))?;
        let walk: Vec<SpaceIx> = chosen.iter().map(|s| self.space_ix(cat, s).expect("a space of the map")).collect();
        self.route = None;
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

    /// The party picks an enemy's target among equals (L1623); the enemy goes on.
    pub(super) fn break_tie(&mut self, cat: &Catalogue, target: &Aim, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let tie = self.tie.clone().ok_or_else(|| err("no_tie", "no enemy is waiting for the party's choice"))?;
        let t = target
            .who()
            .filter(|w| tie.options.contains(w))
            .ok_or_else(|| err("not_tied", "choose one of the Origins that qualify equally"))?;
        self.tie = None;
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

    // ----- Reactions (L864) -----

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
                            && self.check_action_limits(seat, i, a.per_round, a.requires.as_deref(), &keywords).is_ok()
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
    fn react(
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
            self.used.insert(format!("{seat}:{weapon}"), self.round);
            ev.push(Ev::Reacted { seat, skill: skill.clone(), enemy: id });
            self.roll_attack(cat, seat, a, targets, space, skill, rolls - 1, ev);
            if self.pending.is_some() || self.roll_reduction.is_some() {
                self.reaction = Some(ReactionWait { enemy: id, next: seat + 1, target, tactic });
                return true;
            }
        }
        false
    }

    /// A reaction's roll was accepted: the other reactions to the same move,
    /// then the rest of the enemy's turn if it still stands (a defeated
    /// enemy's turn is over), then the next enemy.
    fn resume_after_reaction(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
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

    /// The tactic `tactic` of the Boss `id`, whose turn waited on the party
    /// (None when `id` is no Boss).
    fn tactic_of(&self, cat: &Catalogue, id: u32, tactic: &str) -> Option<BossTactic> {
        let Some(EnemyKind::Boss { boss }) = self.enemy(id).map(|e| &e.kind) else { return None };
        Some(cat.bosses[boss].tactics.iter().find(|x| x.id == tactic).expect("tactic").clone())
    }

    /// After a tactic that waited on the party: unless its strike is on hold
    /// again (`held`), the Boss plays its next tactics.
    fn boss_plays_on(&mut self, cat: &Catalogue, id: u32, held: bool, ev: &mut Vec<Ev>) {
        if !held {
            self.check_combat_end(cat, ev);
            self.boss_tactics(cat, id, ev);
        }
    }

    /// Play tactics while the Boss can pay for the top card (L1795-1799).
    /// Each goes on cooldown as it is played (L1803).
    fn boss_tactics(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let Some(EnemyKind::Boss { boss }) = self.enemy(id).map(|e| e.kind.clone()) else { return };
        let b = &cat.bosses[&boss];
        while matches!(self.phase, Phase::Combat { .. }) {
            let Some(e) = self.enemy(id) else { return };
            let Some(top) = e.tactics.first().cloned() else { break };
            let t = b.tactics.iter().find(|t| t.id == top).expect("tactic of this boss").clone();
            if e.ap < t.ap {
                break; // the rest is saved (L1799)
            }
            {
                let e = self.enemy_mut(id).unwrap();
                e.ap -= t.ap;
                e.tactics.remove(0);
                let ongoing = t.ongoing.is_some();
                let card = TrackCard { card: CardRef::Tactic(t.id.clone()), face_up: ongoing, flip_at: t.flip_at };
                if let Some(back) = e.track.place(card, t.cooldown) {
                    if let CardRef::Tactic(tid) = back.card {
                        e.tactics.push(tid);
                    }
                }
            }
            if let (Some(rule), Some(_)) = (t.targeting, &t.attack) {
                let (who, cands) = self.candidates(cat, id);
                let from = self.enemy(id).unwrap().space;
                let tied = self.with_graph(cat, |g| tied_targets(g, from, TargetingFace::Special, rule, &cands));
                if tied.is_empty() {
                    // No Origin can be targeted: refund, cooldown, end the turn (L1815).
                    self.enemy_mut(id).unwrap().ap += t.ap;
                    break;
                }
                if tied.len() > 1 && self.options.party_breaks_ties {
                    let options: Vec<Who> = tied.iter().map(|i| who[*i]).collect();
                    ev.push(Ev::TieToBreak { enemy: id, options: options.clone() });
                    self.tie = Some(TieChoice { enemy: id, options, tactic: Some(t.id.clone()), face: 0 });
                    return;
                }
                if self.boss_strike(cat, id, &t, who[tied[0]], ev) {
                    return; // the Boss plays on once the roll has landed
                }
            } else {
                // Special tactics do exactly what they say (L1825).
                if t.removes_statuses {
                    let cleared = self.enemy_mut(id).map(|e| e.track.clear_statuses()).unwrap_or_default();
                    for s in cleared {
                        ev.push(Ev::StatusCleared { who: me, status: s });
                    }
                }
                if t.heal > 0 {
                    self.heal(cat, me, t.heal, ev);
                }
                for row in &t.spawn {
                    let c = row.counts[self.players() - 1];
                    let sp = self.space_ix(cat, &row.space).expect("validated space");
                    let sides =
                        std::iter::repeat_n(true, c.fast as usize).chain(std::iter::repeat_n(false, c.slow as usize));
                    for fast in sides {
                        self.spawn_minion(cat, &row.minion, row.veteran, sp, fast, ev);
                    }
                }
            }
            self.check_combat_end(cat, ev);
        }
        if matches!(self.phase, Phase::Combat { .. }) && self.enemy(id).is_some() {
            self.slide_enemy(id, ev);
        }
    }
}

/// What equipping `item` (in `backpack`) leaves: the new equipment and
/// backpack, the items it displaces stored, oldest first (L943).
fn equip_plan(
    cat: &Catalogue,
    equipped: &[String],
    backpack: &[String],
    item: &str,
) -> Result<(Vec<String>, Vec<String>), RuleError> {
    let i =
        backpack.iter().position(|x| x == item).ok_or_else(|| err("not_carried", "the item is not in the backpack"))?;
    let Some(ItemKind::Equipment(slot)) = cat.items.get(item).map(|d| d.kind) else {
        return Err(err("not_equipment", "only equipment can be equipped (L239)"));
    };
    let mut equipped = equipped.to_vec();
    let mut backpack = backpack.to_vec();
    backpack.remove(i);
    equipped.push(item.to_string());
    // Displace what blocks the new item, oldest first.
    while !fits(cat, &equipped) {
        let pos = equipped.iter().position(|x| {
            let k = cat.items[x].kind;
            x != item
                && match slot {
                    super::content::Slot::OneHand | super::content::Slot::TwoHands => {
                        matches!(k, ItemKind::Equipment(super::content::Slot::OneHand | super::content::Slot::TwoHands))
                    }
                    s => k == ItemKind::Equipment(s),
                }
        });
        let Some(p) = pos else { return Err(err("does_not_fit", "the item does not fit")) };
        backpack.push(equipped.remove(p));
    }
    if backpack.len() > BACKPACK {
        return Err(err("backpack_full", "no room for the displaced item: discard something first (L1056)"));
    }
    Ok((equipped, backpack))
}

/// A pool after the dice a reduction's chooser picked (L1515): exactly
/// `count` dice, each of a colour the pool still holds.
fn reduced(mut pool: Pool, count: u32, remove: &[Colour]) -> Result<Pool, RuleError> {
    if remove.len() != count as usize {
        return Err(err("reduction_count", format!("remove exactly {count} dice (L1515)")));
    }
    for &c in remove {
        if !pool.reduce(c) {
            return Err(err("no_such_die", format!("the roll has no {c:?} die left to remove")));
        }
    }
    Ok(pool)
}
