//! Combat (L1400-1837): the Combat round's steps, Origin turns with AP,
//! moving and taunting, and ending a combat. Card use, rolls, items and the
//! enemies' turns have modules of their own.

use super::content::{Catalogue, CombatEnd};
use super::err;
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::state::*;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

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
            if self.enemy_roll().is_some() || self.enemy_choice_pending() || self.reaction.is_some() {
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
        if self.enemy_roll().is_some()
            || self.reaction.is_some()
            || self.dominated_turn().is_some()
            || self.turn_start().is_some()
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
        if !matches!(self.phase, Phase::Combat { .. }) || self.choice.is_some() {
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
        // The party's decisions for the enemies go with them; no roll can
        // be waiting here (combat ends only once none is).
        if self.enemy_choice_pending() {
            self.choice = None;
        }
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
        self.check_start_turn(cat, seat, order)?;
        let me = Who::Origin(seat);
        let order = match order {
            Some(o) => o.to_vec(),
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

    /// Whether the rules accept [`Self::start_turn`] (with the player's
    /// `order`, if any), judged from the state without changing it (every
    /// refusal of it comes from here).
    pub(super) fn check_start_turn(
        &self,
        cat: &Catalogue,
        seat: Seat,
        order: Option<&[super::status::Status]>,
    ) -> Result<(), RuleError> {
        let Phase::Combat { done, active } = &self.phase else {
            return Err(err(DivinityRefusal::NotCombat, "Origins take turns like this only in a Combat round"));
        };
        if active.is_some() {
            return Err(err(DivinityRefusal::TurnUnderWay, "another turn is under way"));
        }
        if done[seat as usize] {
            return Err(err(DivinityRefusal::TurnTaken, "this Origin has had its turn this round"));
        }
        if self.origins[seat as usize].downed {
            return Err(err(DivinityRefusal::Downed, "a downed Origin only gains AP and slides its track (L757)"));
        }
        match order {
            Some(o) => self.check_turn_start_order(cat, Who::Origin(seat), o),
            None => Ok(()),
        }
    }

    /// The seat's Combat turn must be under way.
    pub(super) fn ensure_turn(&self, seat: Seat) -> Result<(), RuleError> {
        let Phase::Combat { active, .. } = &self.phase else {
            return Err(err(DivinityRefusal::NotCombat, "not an Origin's Combat turn"));
        };
        if self.pending_roll().is_some() {
            return Err(err(DivinityRefusal::RollPending, "accept or reroll the pending roll first"));
        }
        match active {
            Some(a) if *a == seat => Ok(()),
            Some(_) => Err(err(DivinityRefusal::NotYourTurn, "another Origin's turn is under way")),
            None => Err(err(DivinityRefusal::TurnNotStarted, "start your turn first")),
        }
    }

    /// After any action: an Origin downed during its own turn ends it.
    pub(super) fn settle_combat(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if let (Phase::Combat { active: Some(a), .. }, None) = (&self.phase, self.pending_roll()) {
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
        self.check_end_turn(cat, seat)?;
        self.finish_turn(cat, seat, ev);
        Ok(())
    }

    /// Whether the rules accept [`Self::end_turn`], judged from the state
    /// without changing it (every refusal of it comes from here).
    pub(super) fn check_end_turn(&self, cat: &Catalogue, seat: Seat) -> Result<(), RuleError> {
        self.ensure_turn(seat)?;
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
                DivinityRefusal::TacticalSpaceTaken,
                "an Origin can't end its turn in a tactical space with another Origin (L1438)",
            ));
        }
        Ok(())
    }

    pub(super) fn spend_ap(&mut self, seat: Seat, ap: u32) -> Result<(), RuleError> {
        self.ap_allowed(seat, ap)?;
        self.origins[seat as usize].ap -= ap;
        Ok(())
    }

    /// Whether the seat's Origin has `ap` AP to spend.
    pub(super) fn ap_allowed(&self, seat: Seat, ap: u32) -> Result<(), RuleError> {
        let have = self.origins[seat as usize].ap;
        if have < ap {
            return Err(err(DivinityRefusal::NotEnoughAp, format!("this costs {ap} AP and you have {have}")));
        }
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
        let (ix, cost) = self.check_move(cat, seat, to)?;
        self.origins[seat as usize].ap -= cost;
        self.origins[seat as usize].space = ix;
        ev.push(Ev::Moved { who: Who::Origin(seat), to: to.to_string() });
        self.bleed_on_move(cat, Who::Origin(seat), ev);
        self.check_combat_end(cat, ev);
        Ok(())
    }

    /// The checks of a move, changing nothing (the legal list asks them
    /// too): the space it enters and what that costs.
    pub(super) fn check_move(&self, cat: &Catalogue, seat: Seat, to: &str) -> Result<(SpaceIx, u32), RuleError> {
        self.ensure_turn(seat)?;
        let ix = self.space_ix(cat, to).ok_or_else(|| err(DivinityRefusal::NoSuchSpace, format!("no space {to}")))?;
        let cost = self.step_cost(cat, seat, ix).map_err(|stop| stop.error(self, seat))?;
        Ok((ix, cost))
    }

    /// [`Self::check_move`]'s checks once the turn and the space are
    /// known, a refusal's message left unwritten (the legal list asks
    /// them of every neighbour): what entering `ix` costs.
    pub(super) fn step_cost(&self, cat: &Catalogue, seat: Seat, ix: SpaceIx) -> Result<u32, Stop> {
        let here = self.origins[seat as usize].space;
        // One look at the map for both (the cost is refused only later).
        let (adjacent, cost) = self.with_graph(cat, |g| (g.adjacent(here, ix), g.enter_cost(ix, false)));
        if !adjacent {
            return Err(Stop::Says(DivinityRefusal::NotAdjacent, "move one space at a time along an unlocked path"));
        }
        if self.has_status(cat, Who::Origin(seat), |r| r.blocks_moving) {
            return Err(Stop::Says(DivinityRefusal::CannotMove, "a status stops this Origin moving"));
        }
        if self.origins[seat as usize].ap < cost {
            return Err(Stop::Ap(cost));
        }
        Ok(cost)
    }

    /// Taunt (L1587): 1 AP, an adjacent enemy comes into your space; never a
    /// Boss or an immovable enemy (L708, L1829).
    pub(super) fn taunt(&mut self, cat: &Catalogue, seat: Seat, enemy: u32, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.check_taunt(cat, seat, enemy)?;
        let here = self.origins[seat as usize].space;
        self.origins[seat as usize].ap -= 1;
        let to = self.space_id(cat, here);
        self.enemy_mut(enemy).unwrap().space = here;
        ev.push(Ev::Moved { who: Who::Enemy(enemy), to });
        Ok(())
    }

    /// The checks of a Taunt, changing nothing.
    pub(super) fn check_taunt(&self, cat: &Catalogue, seat: Seat, enemy: u32) -> Result<(), RuleError> {
        self.ensure_turn(seat)?;
        self.taunt_ok(cat, seat, enemy).map_err(|stop| stop.error(self, seat))
    }

    /// [`Self::check_taunt`]'s checks once the turn is known to be under
    /// way, a refusal's message left unwritten (the legal list asks them
    /// of every enemy).
    pub(super) fn taunt_ok(&self, cat: &Catalogue, seat: Seat, enemy: u32) -> Result<(), Stop> {
        let here = self.origins[seat as usize].space;
        let e = self.enemy(enemy).ok_or(Stop::Says(DivinityRefusal::NoSuchEnemy, "no such enemy on the map"))?;
        if !self.with_graph(cat, |g| g.adjacent(here, e.space)) {
            return Err(Stop::Says(DivinityRefusal::NotAdjacent, "Taunt pulls an enemy from an adjacent space"));
        }
        if self.immovable(cat, Who::Enemy(enemy)) {
            return Err(Stop::Says(DivinityRefusal::Immovable, "an immovable enemy can't be taunted"));
        }
        if self.origins[seat as usize].ap < 1 {
            return Err(Stop::Ap(1));
        }
        Ok(())
    }
}

/// Why a move or a Taunt is refused, as [`DivinityState::step_cost`] and
/// [`DivinityState::taunt_ok`] find it: the message is written only when
/// the refusal is returned.
pub(super) enum Stop {
    Says(DivinityRefusal, &'static str),
    /// It costs this many AP, more than the Origin has.
    Ap(u32),
}

impl Stop {
    fn error(self, s: &DivinityState, seat: Seat) -> RuleError {
        match self {
            Stop::Says(code, m) => err(code, m),
            Stop::Ap(cost) => s.ap_allowed(seat, cost).expect_err("too few AP"),
        }
    }
}
