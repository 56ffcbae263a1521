//! [`Divinity`]: the board game as a [`Ruleset`]. One match is one party
//! playing one location; the campaign goes in through the options and comes
//! out through [`Divinity::campaign`].

use super::action::DivinityAction as A;
use super::content::{Catalogue, School};
use super::err;
use super::event::DivinityEvent;
use super::inventory::Handover;
use super::location::GroupChoice;
use super::pending::Pending;
use super::play::Aiming;
use super::setup::setup;
use super::state::*;
use super::view::DivinityView;
use crate::divinity::DivinityRefusal;
use crate::{Outcome, RuleError, Ruleset, Seat, SetupError, Status, Viewer};

/// The Divinity ruleset on the standard catalogue.
pub struct Divinity;

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
        let mut next = state.clone();
        let mut ev = Vec::new();
        act(cat, &mut next, seat, action, &mut ev)?;
        settle(cat, &mut next, &mut ev);
        *state = next;
        Ok(ev)
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

    /// The campaign after the location, once it is over (L1326-1398): the
    /// next location and level, gold (lost on a restart, L1334), journal,
    /// and what each Origin keeps. HP and Source are not kept.
    pub fn campaign(state: &DivinityState, cat: &Catalogue) -> Option<CampaignState> {
        let Phase::Finished { result } = &state.phase else { return None };
        if *result == Finish::Restart && state.options.honor_mode {
            return Some(Divinity::new_campaign(state, cat));
        }
        // The level went up when the interlude opened.
        let (location, level, gold) = match result {
            Finish::Exit { to, .. } => (to.clone(), state.level, state.gold),
            Finish::Restart => (state.location.clone(), state.level, 0),
        };
        let finished = location == cat.campaign.finale;
        let origins = state
            .origins
            .iter()
            .map(|o| OriginSave {
                origin: o.origin.clone(),
                talents: o.talents.clone(),
                skills: o.skills.iter().filter(|s| cat.skills[*s].school != School::Source).cloned().collect(),
                items: o.equipped.iter().chain(&o.backpack).cloned().collect(),
                collar_broken: o.collar_broken,
                runes: o.runes.clone(),
            })
            .collect();
        Some(CampaignState {
            rules_version: Divinity::RULES_VERSION,
            location,
            level,
            gold,
            journal: state.journal.clone(),
            origins,
            found: state.found.clone(),
            finished,
            unrestricted_talents: state.options.unrestricted_talents,
            honor_mode: state.options.honor_mode,
        })
    }

    /// Honor Mode's forced restart (L1851): the whole campaign again, with
    /// newly created Origins of the same names.
    fn new_campaign(state: &DivinityState, cat: &Catalogue) -> CampaignState {
        let first = &cat.locations[&cat.campaign.first];
        CampaignState {
            rules_version: Divinity::RULES_VERSION,
            location: first.id.clone(),
            level: first.level,
            gold: 0,
            journal: Vec::new(),
            origins: state
                .origins
                .iter()
                .map(|o| {
                    let d = &cat.origins[&o.origin];
                    OriginSave {
                        origin: d.id.clone(),
                        talents: d.talents.clone(),
                        skills: d.skills.clone(),
                        items: d.items.clone(),
                        collar_broken: false,
                        runes: Vec::new(),
                    }
                })
                .collect(),
            found: Vec::new(),
            finished: false,
            unrestricted_talents: state.options.unrestricted_talents,
            honor_mode: true,
        }
    }
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
fn leader(s: &DivinityState, seat: Seat) -> Result<(), RuleError> {
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

impl Ruleset for Divinity {
    const GAME: &'static str = "divinity";
    type Hashed<'a> = &'a DivinityState;
    /// 2 (issue 11): allies' Source rerolls, a downed Origin's AP and Rest
    /// turn, the AP cap mid-turn, Rest steps in order, downed Origins' auras
    /// and keywords, minion routes and bonus-die keywords changed what a
    /// log of version 1 replays to.
    /// 3 (issue 42): an automatic success flips the challenge card first
    /// and chooses its row after (`choose_result`), where version 2 chose
    /// the row in the same action.
    /// 4 (issue 45): an Origin downed in its own Rest turn has taken it (a
    /// revive starts no second one); a sold item's rune goes to the rune
    /// deck when the backpack is full; the interlude revives, heals and
    /// restores the party as it opens (steps 2-4), before its trading;
    /// BLEEDING hurts on a skill's move, once per space.
    const RULES_VERSION: u32 = 4;
    type Options = DivinityOptions;
    type State = DivinityState;
    type Action = A;
    type Event = DivinityEvent;
    type View = DivinityView;
    const TAKE_BACK: bool = true;
    const CATALOGUE: &'static [(&'static str, &'static str)] = crate::divinity::content::CATALOGUE;

    fn seats(options: &DivinityOptions) -> usize {
        options.campaign.as_ref().map_or(options.party.len(), |c| c.origins.len())
    }

    fn start(options: &DivinityOptions, seed: u64) -> Result<DivinityState, SetupError> {
        setup(Catalogue::standard(), options, seed)
    }

    fn apply(state: &mut DivinityState, seat: Seat, action: A) -> Result<Vec<DivinityEvent>, RuleError> {
        Divinity::apply_with(Catalogue::standard(), state, seat, action)
    }

    fn hashed(state: &DivinityState) -> &DivinityState {
        state
    }

    fn view(state: &DivinityState, viewer: Viewer) -> DivinityView {
        super::view::view(state, Catalogue::standard(), viewer)
    }

    fn status(state: &DivinityState) -> Status {
        Divinity::status_of(state, Catalogue::standard())
    }

    /// Timed decisions: an enemy roll's reroll window (a seat that lets the
    /// timer run out lets the roll stand), and an Origin's combat turn once
    /// under way (the timer ends it), when ending it now is allowed; a turn
    /// that may not end yet (a roll to answer, a tactical space shared) is
    /// not timed rather than ended against the rules.
    fn timeout_action(state: &DivinityState) -> Option<(Seat, A)> {
        if let Some(r) = state.enemy_roll() {
            return state.enemy_roll_waiting_for(r).first().map(|s| (*s, A::Accept));
        }
        let Phase::Combat { active: Some(seat), .. } = state.phase else { return None };
        let mut trial = state.clone();
        Divinity::apply(&mut trial, seat, A::EndTurn).ok().map(|_| (seat, A::EndTurn))
    }

    /// Public only: the location, its round and kind, the phase, the seats
    /// the match waits for (and whose combat turn is under way), the level
    /// and, once over, the outcome.
    fn standing(state: &DivinityState) -> serde_json::Value {
        let phase = match &state.phase {
            Phase::ChooseRound => "choose_round",
            Phase::Travel { .. } => "travel",
            Phase::Groups { .. } => "groups",
            Phase::Resolve => "resolve",
            Phase::Rest { .. } => "rest",
            Phase::Combat { .. } => "combat",
            Phase::Interlude(_) => "interlude",
            Phase::Finished { .. } => "finished",
        };
        let active = match state.phase {
            Phase::Combat { active, .. } => active,
            _ => None,
        };
        let (waiting, outcome) = match Divinity::status(state) {
            Status::Waiting { seats } => (seats, None),
            Status::Finished(o) => (Vec::new(), Some(o)),
        };
        serde_json::json!({
            "location": state.location,
            "location_name": state.loc(Catalogue::standard()).name,
            "level": state.level,
            "round": state.round,
            "round_kind": state.round_kind,
            "phase": phase,
            "active": active,
            "waiting": waiting,
            "outcome": outcome,
        })
    }

    fn legal(state: &DivinityState, seat: Seat) -> Vec<A> {
        super::legal::legal_standard(state, seat)
    }

    fn party_leader(state: &DivinityState) -> Option<Seat> {
        state.options.leader
    }

    const WORDS: bool = true;

    /// The decisions the book has the party take together (DIVINITY.md,
    /// "Party decisions"), while the party has no leader and more than one
    /// player.
    fn party_decision(state: &DivinityState, action: &A) -> bool {
        let together = matches!(
            action,
            A::ChooseRound { .. }
                | A::Resolve { .. }
                | A::Hold { .. }
                | A::BreakTie { .. }
                | A::ChooseRoute { .. }
                | A::OrderTurnStart { .. }
                | A::Command { .. }
                | A::PlaceItem { .. }
                | A::VisitMerchant { .. }
                | A::Restock { .. }
                | A::Buy { .. }
                | A::FinishInterlude
        ) || (matches!(action, A::ReduceDice { .. }) && state.reduction().is_some());
        together && state.options.leader.is_none() && state.origins.len() > 1 && !state.options.solo
    }

    fn action_words(state: &DivinityState, seat: Seat, actions: &[A]) -> Vec<serde_json::Value> {
        let view = Divinity::view(state, Viewer::Spectator);
        let names = super::words::Names::new(Some(&view));
        actions
            .iter()
            .map(|a| serde_json::to_value(super::words::action(names, seat, a)).expect("words serialize"))
            .collect()
    }

    /// Named from the spectator's views before and after: the party plays
    /// in the open, and every name a line uses is on the table.
    fn event_words(before: &DivinityState, after: &DivinityState, events: &[DivinityEvent]) -> Vec<String> {
        if events.is_empty() {
            return Vec::new();
        }
        let (b, a) = (Divinity::view(before, Viewer::Spectator), Divinity::view(after, Viewer::Spectator));
        let names = super::words::Names { before: Some(&b), ..super::words::Names::new(Some(&a)) };
        events.iter().map(|e| super::words::event(names, e)).collect()
    }

    fn take_back(before: &DivinityState, after: &DivinityState, events: &[DivinityEvent]) -> Result<(), RuleError> {
        super::campaign::take_back(before, after, events)
    }
}
