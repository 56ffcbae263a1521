//! How [`Divinity`] applies an action: the gate of what the match waits
//! for, the action itself, then whatever it left to the rules; and who must
//! act now.

use super::action::DivinityAction as A;
use super::content::Catalogue;
use super::err;
use super::event::DivinityEvent;
use super::inventory::Handover;
use super::location::GroupChoice;
use super::pending::Pending;
use super::play::Aiming;
use super::setup::setup;
use super::state::*;
use super::Divinity;
use crate::divinity::DivinityRefusal;
use crate::{Outcome, RuleError, Seat, SetupError, Status};

/// Who may take a decision of the whole party ("the party chooses"): the
/// leader the party set, else any seat (the first answer stands).
pub fn deciders(state: &DivinityState) -> Vec<Seat> {
    match state.options.leader {
        Some(l) => vec![l],
        None => (0..state.origins.len() as Seat).collect(),
    }
}

impl Divinity {
    /// Who must act now, or how the location ended: an exit is the party's
    /// win, a forced restart the party's loss.
    pub fn status_of(state: &DivinityState, cat: &Catalogue) -> Status {
        let n = state.origins.len() as Seat;
        let seats: Vec<Seat> = match &state.phase {
            Phase::Finished { result: Finish::Exit { .. } } => return Status::Finished(Outcome::PartyWon),
            Phase::Finished { result: Finish::Restart } => return Status::Finished(Outcome::PartyLost),
            _ if state.pending_choice().is_some() => match state.pending_choice().expect("checked") {
                Pending::OwnDice(seat) | Pending::Roll(seat) => vec![seat],
                Pending::EnemyRoll => state.enemy_roll().map(|r| state.enemy_roll_waiting_for(r)).unwrap_or_default(),
                Pending::Challenge => state.challenge_waiting(cat),
                _ => deciders(state),
            },
            Phase::ChooseRound | Phase::Resolve => deciders(state),
            Phase::Travel { done } => (0..n).filter(|s| !done[*s as usize]).collect(),
            Phase::Groups { groups, chosen } => {
                let mut v: Vec<Seat> =
                    groups.iter().zip(chosen).filter(|(_, c)| !**c).flat_map(|(g, _)| g.clone()).collect();
                v.sort_unstable();
                v
            }
            Phase::Rest { done, .. } => {
                (0..n).filter(|s| !done[*s as usize] && !state.origins[*s as usize].downed).collect()
            }
            Phase::Interlude(i) => {
                let v: Vec<Seat> = (0..n).filter(|s| !i.leveled[*s as usize]).collect();
                if v.is_empty() {
                    deciders(state)
                } else {
                    v
                }
            }
            Phase::Combat { active: Some(a), .. } => vec![*a],
            Phase::Combat { done, active: None } => {
                (0..n).filter(|s| !done[*s as usize] && !state.origins[*s as usize].downed).collect()
            }
        };
        Status::Waiting { seats }
    }

    /// Start with an explicit catalogue (custom content, tests).
    ///
    /// # Errors
    /// As [`Ruleset::start`].
    pub fn start_with(cat: &Catalogue, options: &DivinityOptions, seed: u64) -> Result<DivinityState, SetupError> {
        setup(cat, options, seed)
    }

    /// Apply with an explicit catalogue. The action runs on a copy that
    /// replaces the state only when it is accepted.
    ///
    /// # Errors
    /// The rule the action breaks; the state is then unchanged.
    pub fn apply_with(
        cat: &Catalogue,
        state: &mut DivinityState,
        seat: Seat,
        action: A,
    ) -> Result<Vec<DivinityEvent>, RuleError> {
        Self::gate(state, seat, &action)?;
        // The rules may change things before they refuse: the state as it
        // was is kept aside and put back on a refusal. Kept in a spare
        // state of this thread's, copied into with `clone_from`, which
        // reuses what the last action's copy allocated.
        let mut before = match SPARE.with(|s| s.take()) {
            Some(mut spare) => {
                DivinityState::clone_from(&mut spare, state);
                spare
            }
            None => Box::new(state.clone()),
        };
        let mut ev = Vec::new();
        let result = act(cat, state, seat, action, &mut ev);
        match result {
            Ok(()) => settle(cat, state, &mut ev),
            Err(_) => std::mem::swap(state, &mut *before),
        }
        SPARE.with(|s| s.set(Some(before)));
        result.map(|()| ev)
    }

    /// [`Divinity::apply_with`] given `before`, a copy of `state` as it is
    /// now that the caller keeps: put back on a refusal instead of a copy
    /// of this function's own.
    ///
    /// # Errors
    /// As [`Divinity::apply_with`]; the state is then unchanged (equal to
    /// `before`).
    pub fn apply_after(
        cat: &Catalogue,
        state: &mut DivinityState,
        before: &DivinityState,
        seat: Seat,
        action: A,
    ) -> Result<Vec<DivinityEvent>, RuleError> {
        debug_assert!(state == before, "apply_after is given a copy of the state");
        Self::gate(state, seat, &action)?;
        let mut ev = Vec::new();
        let result = act(cat, state, seat, action, &mut ev);
        match result {
            Ok(()) => settle(cat, state, &mut ev),
            Err(_) => state.clone_from(before),
        }
        result.map(|()| ev)
    }

    /// What is checked before any rule runs: the seat, the end, and the
    /// answers a pending decision admits.
    pub(super) fn gate(state: &DivinityState, seat: Seat, action: &A) -> Result<(), RuleError> {
        if seat as usize >= state.origins.len() {
            return Err(err(DivinityRefusal::NoSuchSeat, "no such seat"));
        }
        if matches!(state.phase, Phase::Finished { .. }) {
            return Err(err(DivinityRefusal::Finished, "the location is over"));
        }
        if let Some(p) = state.pending_choice() {
            p.admits(action)?;
        }
        Ok(())
    }

    /// Whether [`Divinity::apply_with`] accepts `action`, tried directly on
    /// `scratch`, a throw-away copy of the state: it is left as the rules
    /// left it, changed after an acceptance and possibly after a refusal
    /// (the rules may change things before they refuse; `apply_with`
    /// throws such a copy away). For the legal list, which saves a copy
    /// per candidate this way.
    pub(super) fn accepts_on(cat: &Catalogue, scratch: &mut DivinityState, seat: Seat, action: A) -> bool {
        Self::gate(scratch, seat, &action).is_ok() && act(cat, scratch, seat, action, &mut Vec::new()).is_ok()
    }
}

thread_local! {
    /// The copy [`Divinity::apply_with`] keeps of the state before an
    /// action, kept between actions so that its allocations are reused.
    static SPARE: std::cell::Cell<Option<Box<DivinityState>>> = const { std::cell::Cell::new(None) };
}

/// Whatever an action left to the rules: AP above a maximum that fell, a
/// challenge every roller has finished, a Rest round or a turn whose Origin
/// was downed.
fn settle(cat: &Catalogue, s: &mut DivinityState, ev: &mut Vec<DivinityEvent>) {
    // A cleansed HASTE takes the AP above 8 with it (L1564, L1574).
    for seat in 0..s.origins.len() as Seat {
        s.cap_ap(cat, seat);
    }
    if s.challenge.is_some() && s.pending_roll().is_none() {
        s.finish_challenge(cat, ev);
    }
    match s.phase {
        Phase::Rest { .. } => s.after_rest_turn(cat, ev),
        Phase::Combat { .. } => s.settle_combat(cat, ev),
        _ => {}
    }
}

/// A party decision from `seat`: refused only when the party set another
/// seat as its leader.
pub(super) fn leader(s: &DivinityState, seat: Seat) -> Result<(), RuleError> {
    match s.options.leader {
        Some(l) if l != seat => {
            Err(err(DivinityRefusal::NotLeader, format!("the party's leader (seat {l}) takes the party's decisions")))
        }
        _ => Ok(()),
    }
}

fn act(
    cat: &Catalogue,
    s: &mut DivinityState,
    seat: Seat,
    action: A,
    ev: &mut Vec<DivinityEvent>,
) -> Result<(), RuleError> {
    let rest = matches!(s.phase, Phase::Rest { .. });
    match action {
        A::ChooseRound { explore } => {
            leader(s, seat)?;
            s.choose_round(cat, explore, ev)
        }
        A::Travel { to } => s.travel(cat, seat, to.as_deref(), ev),
        A::Reveal => s.group_choice(cat, seat, GroupChoice::Reveal, ev),
        A::TakeHolding { card } => s.group_choice(cat, seat, GroupChoice::Holding(card), ev),
        A::Pass => s.group_choice(cat, seat, GroupChoice::Pass, ev),
        A::Resolve { card } => {
            leader(s, seat)?;
            s.resolve_revealed(cat, &card, ev)
        }
        A::Hold { card } => {
            leader(s, seat)?;
            s.hold(cat, &card, ev)
        }
        A::Challenge { auto, keywords } => s.challenge_roll(cat, seat, auto, &keywords, ev),
        A::ChooseResult { row } => s.choose_result(cat, seat, row, ev),
        A::Reroll { dice, source } => s.reroll(cat, seat, &dice, source, ev),
        A::Accept => s.accept(cat, seat, ev),
        A::StartTurn => s.start_turn(cat, seat, None, ev),
        A::OrderTurnStart { order } if s.turn_start().is_some() => {
            leader(s, seat)?;
            s.order_enemy_turn_start(cat, &order, ev)
        }
        A::OrderTurnStart { order } => s.start_turn(cat, seat, Some(&order), ev),
        A::Move { to } => s.move_origin(cat, seat, &to, ev),
        A::Use { card, aim, first_aura, include_self } => {
            let aiming = Aiming { aim: &aim, first_aura: first_aura.as_deref(), include_self };
            s.use_card(cat, seat, &card, aiming, ev)
        }
        A::Taunt { enemy } => s.taunt(cat, seat, enemy, ev),
        A::Equip { item } => s.equip(cat, seat, &item, ev),
        A::Store { item } => s.store(cat, seat, &item, ev),
        A::AttachRune { rune, item } => s.attach_rune(cat, seat, &rune, &item, ev),
        A::Give { item, to, equip } => s.trade(cat, seat, Handover { from: seat, to, item: &item, equip }, ev),
        A::Take { item, from, equip } => s.trade(cat, seat, Handover { from, to: seat, item: &item, equip }, ev),
        A::PlaceItem { to, drop, pass_to } => {
            leader(s, seat)?;
            s.place_overflow(cat, to, drop.as_deref(), pass_to, ev)
        }
        A::Discard { item } => s.discard_carried(cat, seat, &item, ev),
        A::Recover { status } if rest => {
            let _ = status;
            s.rest_recover(cat, seat, ev)
        }
        A::Recover { status } => s.combat_recover(cat, seat, status, ev),
        A::UseTalent { talent } => s.use_talent(cat, seat, &talent, ev),
        A::UseAbility { aim } => s.use_ability(cat, seat, aim.as_ref(), ev),
        A::Revive { to, hp } => s.revive(cat, seat, to, hp, ev),
        A::EndTurn if rest => s.end_rest_turn(cat, seat, ev),
        A::EndTurn => s.end_turn(cat, seat, ev),
        A::BreakTie { target } => {
            leader(s, seat)?;
            s.break_tie(cat, &target, ev)
        }
        A::ReduceDice { remove } if s.roll_reduction().is_some() => s.reduce_own_dice(cat, seat, &remove, ev),
        A::ReduceDice { remove } => {
            leader(s, seat)?;
            s.reduce_enemy_dice(cat, &remove, ev)
        }
        A::ChooseRoute { route } => {
            leader(s, seat)?;
            s.choose_route(cat, route, ev)
        }
        A::Command { target } => {
            leader(s, seat)?;
            s.command(cat, &target, ev)
        }
        A::LevelUp { talent, learn, respec } => s.level_up(cat, seat, talent, learn, respec),
        A::VisitMerchant { level, consumables } => {
            leader(s, seat)?;
            s.visit_merchant(level, consumables, ev)
        }
        A::Restock { deck } => {
            leader(s, seat)?;
            s.restock(deck, ev)
        }
        A::Buy { item, to } => {
            leader(s, seat)?;
            s.buy(cat, &item, to, ev)
        }
        A::Sell { item } => s.sell(cat, seat, &item, ev),
        A::FinishInterlude => {
            leader(s, seat)?;
            s.finish_interlude(cat, ev)
        }
    }
}
