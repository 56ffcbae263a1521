//! [`Divinity`]: the board game as a [`Ruleset`]. One match is one party
//! playing one location; the campaign goes in through the options and comes
//! out through [`Divinity::campaign`] (`campaign.rs`). How an action is
//! applied is `apply.rs`'s.

use super::action::DivinityAction as A;
use super::content::Catalogue;
use super::event::DivinityEvent;
use super::hashed::Hashed;
use super::setup::setup;
use super::state::*;
use super::view::DivinityView;
use crate::{RuleError, Ruleset, Seat, SetupError, Status, Viewer};

pub use super::apply::deciders;
use super::Divinity;

impl Ruleset for Divinity {
    const GAME: &'static str = "divinity";
    /// The whole state, its compact encoding written by hand (`hashed.rs`).
    type Hashed<'a> = Hashed<'a>;
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

    /// The caller's copy is the state to put back on a refusal: no second
    /// copy per action (a state copy is some 14,000 instructions).
    fn apply_after_copy(
        state: &mut DivinityState,
        before: &DivinityState,
        seat: Seat,
        action: A,
    ) -> Result<Vec<DivinityEvent>, RuleError> {
        Divinity::apply_after(Catalogue::standard(), state, before, seat, action)
    }

    fn hashed(state: &DivinityState) -> Hashed<'_> {
        Hashed(state)
    }

    fn view(state: &DivinityState, viewer: Viewer) -> DivinityView {
        view_after(state, viewer, None)
    }

    /// Every seat sees the same table (only `you` differs): the view is
    /// built once and copied for each viewer, its shared parts (front,
    /// Origins, enemies, board) then written to JSON once for all of them,
    /// and those that did not change since `before` taken from it, JSON
    /// and all. The same views as each built alone.
    fn views(
        state: &DivinityState,
        viewers: &[Viewer],
        _board: bool,
        before: Option<&DivinityView>,
    ) -> Vec<DivinityView> {
        let Some(first) = viewers.first() else { return Vec::new() };
        let mut view = view_after(state, *first, before);
        if let Some(before) = before {
            view.share_unchanged(before);
        }
        // Each copy differs only in `you`: the rest is written once.
        view.write_once();
        viewers
            .iter()
            .map(|v| {
                let mut each = view.clone();
                each.you = v.seat();
                each
            })
            .collect()
    }

    /// `you` and the text written once for the record's views, straight
    /// into the frame ([`DivinityView::write_json`]).
    fn write_view(view: &DivinityView, out: &mut Vec<u8>) {
        view.write_json(out);
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

    /// Written by hand (`json.rs`): serde_json's bytes, without its
    /// serializer's round trips (a test holds the two equal).
    fn write_actions(actions: &[A], out: &mut Vec<u8>) {
        super::json::actions(out, actions);
    }

    /// The words of [`Ruleset::action_words`] written straight to JSON,
    /// without a JSON value per action (a test holds the bytes equal to
    /// serde_json's writing of those values).
    fn write_named_action_words(
        state: &DivinityState,
        seat: Seat,
        actions: &[A],
        _names: &crate::SeatNames,
        out: &mut Vec<u8>,
    ) {
        let view = names_view(state);
        let names = super::words::Names::new(Some(&view));
        super::words::write_json(names, seat, actions, out);
    }

    fn action_words(state: &DivinityState, seat: Seat, actions: &[A]) -> Vec<serde_json::Value> {
        let view = names_view(state);
        let names = super::words::Names::new(Some(&view));
        actions.iter().map(|a| super::words::action(names, seat, a).into_json()).collect()
    }

    /// Named from the spectator's views before and after: the party plays
    /// in the open, and every name a line uses is on the table.
    fn event_words(before: &DivinityState, after: &DivinityState, events: &[DivinityEvent]) -> Vec<String> {
        if events.is_empty() {
            return Vec::new();
        }
        let (b, a) = (names_view(before), names_view(after));
        let names = super::words::Names { before: Some(&b), ..super::words::Names::new(Some(&a)) };
        events.iter().map(|e| super::words::event(names, e)).collect()
    }

    fn take_back(before: &DivinityState, after: &DivinityState, events: &[DivinityEvent]) -> Result<(), RuleError> {
        super::campaign::take_back(before, after, events)
    }
}

/// `viewer`'s view with its words, the Origins and the front taken from
/// `before` while unchanged (`view::view_after`, `words::tell`).
fn view_after(state: &DivinityState, viewer: Viewer, before: Option<&DivinityView>) -> DivinityView {
    let cat = Catalogue::standard();
    let mut view = super::view::view_after(state, cat, viewer, before);
    super::words::tell(&mut view, state, cat, before);
    view
}

/// The spectator's view as far as the words of actions and events read it
/// (`view::names_only`, with the rows of a flipped challenge card): no
/// front, armor, board or anything else no word reads (tests hold the
/// words those of the whole view).
fn names_view(state: &DivinityState) -> DivinityView {
    let cat = Catalogue::standard();
    let mut view = super::view::names_only(state, cat);
    super::words::tell_rows(&mut view, state, cat);
    view
}
