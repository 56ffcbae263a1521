//! The round loop (L272-435): choosing Explore or Rest when no enemy is on
//! the map, a Combat round whenever one is; Rest turns; the end of every
//! round, when the time tracker advances and timed events resolve.

use super::content::Catalogue;
use super::cooldown::CardRef;
use super::err;
use super::event::DivinityEvent as Ev;
use super::state::*;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

impl DivinityState {
    /// A new round: Combat if any enemy is on the map (L277), otherwise the
    /// party chooses (L276).
    pub(super) fn start_round(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if self.over() {
            return;
        }
        self.explored.clear();
        if self.in_combat() {
            self.round_kind = RoundKind::Combat;
            ev.push(Ev::RoundStarted { round: self.round, kind: RoundKind::Combat });
            self.combat_round(cat, ev);
        } else {
            self.phase = Phase::ChooseRound;
        }
    }

    /// Whether the rules accept [`Self::choose_round`], judged from the
    /// state without changing it (every refusal of it comes from here; the
    /// leader's say is the caller's).
    pub(super) fn check_choose_round(&self) -> Result<(), RuleError> {
        if self.phase != Phase::ChooseRound {
            return Err(err(
                DivinityRefusal::NotBetweenRounds,
                "the round type is chosen only at the start of a round",
            ));
        }
        if self.in_combat() {
            return Err(err(
                DivinityRefusal::EnemiesPresent,
                "with an enemy on the map the round must be a Combat round (L277)",
            ));
        }
        Ok(())
    }

    /// The party leader picks Explore or Rest (L276, L346).
    pub(super) fn choose_round(&mut self, cat: &Catalogue, explore: bool, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.check_choose_round()?;
        let n = self.origins.len();
        let kind = if explore { RoundKind::Explore } else { RoundKind::Rest };
        self.round_kind = kind;
        ev.push(Ev::RoundStarted { round: self.round, kind });
        let mut done = vec![false; n];
        if explore {
            // A downed Origin's Explore turn only slides its track (L757).
            for (s, d) in done.iter_mut().enumerate() {
                if self.origins[s].downed {
                    self.slide_origin(cat, s as Seat, ev);
                    *d = true;
                }
            }
            self.phase = Phase::Travel { done };
            self.after_travel(cat, ev);
        } else {
            // Rest turns are simultaneous: start-of-turn effects now (L353).
            // A downed Origin's turn waits: revived before it, it takes a
            // normal turn (L757).
            let mut steps = vec![RestStep::StartOfTurn; n];
            for s in 0..n as Seat {
                if self.origins[s as usize].downed {
                    steps[s as usize] = RestStep::NotBegun;
                } else {
                    self.start_of_turn(cat, Who::Origin(s), ev);
                }
            }
            self.phase = Phase::Rest { done, steps };
            self.after_rest_turn(cat, ev);
        }
        Ok(())
    }

    pub(super) fn rest_turn_of(&self, seat: Seat) -> Result<(), RuleError> {
        match &self.phase {
            Phase::Rest { done, .. } if !done[seat as usize] && !self.origins[seat as usize].downed => Ok(()),
            Phase::Rest { .. } => Err(err(DivinityRefusal::TurnTaken, "this Origin's Rest turn is over")),
            _ => Err(err(DivinityRefusal::NotResting, "not a Rest round")),
        }
    }

    /// Take step `step` of the seat's Rest turn (L353-361): refused once a
    /// later step was taken, and Recover and the one skill or item action
    /// (steps b and e) happen once.
    pub(super) fn rest_step(&mut self, seat: Seat, step: RestStep) -> Result<(), RuleError> {
        self.rest_step_allowed(seat, step)?;
        let Phase::Rest { steps, .. } = &mut self.phase else { unreachable!("a Rest turn") };
        steps[seat as usize] = step;
        Ok(())
    }

    /// Whether the seat may take step `step` of its Rest turn now.
    pub(super) fn rest_step_allowed(&self, seat: Seat, step: RestStep) -> Result<(), RuleError> {
        self.rest_turn_of(seat)?;
        let Phase::Rest { steps, .. } = &self.phase else { unreachable!("a Rest turn") };
        let at = steps[seat as usize];
        if at > step {
            return Err(err(
                DivinityRefusal::RestStepPassed,
                format!("a Rest turn's steps come in order (L353-361): {step:?} comes before {at:?}"),
            ));
        }
        if at == step {
            match step {
                RestStep::Recover => {
                    return Err(err(DivinityRefusal::AlreadyRecovered, "Recover happens once in a Rest turn"))
                }
                RestStep::UseCard => {
                    return Err(err(DivinityRefusal::CardUsed, "a Rest turn allows one skill or item action (L360)"));
                }
                _ => {}
            }
        }
        Ok(())
    }

    pub(super) fn end_rest_turn(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.rest_turn_of(seat)?;
        self.slide_origin(cat, seat, ev);
        if let Phase::Rest { done, .. } = &mut self.phase {
            done[seat as usize] = true;
        }
        self.after_rest_turn(cat, ev);
        Ok(())
    }

    /// Once every standing Origin has rested, the downed ones take their
    /// turns, which only slide (L757); then the round ends. Until then one
    /// revived may take a normal turn. An Origin downed in its own turn (by
    /// its start-of-turn effects, or giving its last HP in a Revive) has
    /// taken it: the turn ends with its slide, and a revive later in the
    /// round begins no second one (L352, each Origin "takes 1 turn").
    pub(super) fn after_rest_turn(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        let mut finished = false;
        if let Phase::Rest { done, steps } = &self.phase {
            let mut done = done.clone();
            let begun: Vec<bool> = steps.iter().map(|s| *s != RestStep::NotBegun).collect();
            for (s, d) in done.iter_mut().enumerate() {
                if self.origins[s].downed && !*d && begun[s] {
                    *d = true;
                    self.slide_origin(cat, s as Seat, ev);
                }
            }
            let resting = (0..done.len()).any(|s| !done[s] && !self.origins[s].downed);
            for (s, d) in done.iter_mut().enumerate() {
                if self.origins[s].downed && !*d && !resting {
                    *d = true;
                    self.slide_origin(cat, s as Seat, ev);
                }
            }
            finished = done.iter().all(|d| *d);
            if let Phase::Rest { done: d, .. } = &mut self.phase {
                *d = done;
            }
        }
        if self.standing().next().is_none() {
            self.finish(Finish::Restart, ev);
            return;
        }
        if finished {
            self.end_of_round(cat, ev);
        }
    }

    /// The end of a turn: every card slides one slot (L408). Cleared skills
    /// return to hand, statuses and consumables to the supply; a summon goes
    /// when the card that keeps it flips face down or leaves (L895).
    pub(super) fn slide_origin(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<Ev>) {
        let o = &mut self.origins[seat as usize];
        let slid = o.track.slide();
        let mut gone = slid.flipped;
        let mut used_up = Vec::new();
        for c in slid.cleared {
            match &c.card {
                CardRef::Skill(id) => {
                    if o.skills.contains(id) && !o.hand.contains(id) {
                        o.hand.push(id.clone());
                    }
                }
                CardRef::Status(s) => ev.push(Ev::StatusCleared { who: Who::Origin(seat), status: *s }),
                CardRef::Consumable(id) => {
                    used_up.push(id.clone());
                    ev.push(Ev::ItemDiscarded { seat, item: id.clone() });
                }
                CardRef::Tactic(_) => {}
            }
            if c.face_up {
                gone.push(c.card.clone());
            }
        }
        for c in gone {
            if let CardRef::Skill(id) = c {
                let s = cat.skills[&id].summon.clone();
                if s.is_some() && o.summon == s {
                    o.summon = None;
                }
            }
        }
        // Used-up consumables go to the bottom of their decks (L1584).
        for id in used_up {
            self.to_deck_bottom(cat, &id);
        }
        self.cap_ap(cat, seat);
    }

    /// AP above the maximum is lost (L1564): the maximum holds at every
    /// moment, so when HASTE leaves, by a slide or cleansed mid-turn, AP
    /// above 8 goes at once (L1574, G34).
    pub(super) fn cap_ap(&mut self, cat: &Catalogue, seat: Seat) {
        let max = self.max_ap(cat, seat);
        let o = &mut self.origins[seat as usize];
        o.ap = o.ap.min(max);
    }

    /// End of round (L424-435): advance the tracker unless it is unset or
    /// paused; resolve a timed event or the end-of-scenario event reached.
    pub(super) fn end_of_round(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if self.over() {
            return;
        }
        if let (Some(t), false) = (self.time, self.time_paused) {
            let loc = self.loc(cat);
            let next = (t + 1).min(loc.time.length);
            self.time = Some(next);
            ev.push(Ev::TimeAdvanced { space: next });
            let event =
                if next >= loc.time.length { Some(loc.time.end.clone()) } else { loc.time.events.get(&next).cloned() };
            if let Some(card) = event {
                if let Some(i) = self.deck.iter().position(|c| *c == card) {
                    self.deck.remove(i);
                    let text = self.loc(cat).card(&card).map(|c| c.text.clone()).unwrap_or_default();
                    ev.push(Ev::CardRevealed { card: card.clone(), text });
                    let seats: Vec<Seat> = (0..self.origins.len() as Seat).collect();
                    let space = self.origins[0].space;
                    self.resolve_card(cat, Revealed { card, seats, space, placed: false }, ev);
                }
            }
        }
        if self.over() {
            return;
        }
        if self.round_kind != RoundKind::Combat && self.standing().next().is_none() {
            self.finish(Finish::Restart, ev);
            return;
        }
        self.round += 1;
        self.start_round(cat, ev);
    }
}
