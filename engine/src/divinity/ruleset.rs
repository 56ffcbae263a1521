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
use super::view::{Board, DivinityView};
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
        view_after(state, viewer, None, Board::Shown)
    }

    /// The location and how it ended: what the board (the location's
    /// printed map) and the front (its words, with the outcome once over)
    /// are made of. Both are the same in every view and change once or
    /// twice a match, yet were some 1 to 1.3 KB of each seat's update.
    fn board_key(state: &DivinityState) -> Option<Vec<u8>> {
        Some(super::view::board_key(state, Catalogue::standard()))
    }

    /// Without `board` and `front` (neither built).
    fn view_without_board(state: &DivinityState, viewer: Viewer) -> DivinityView {
        view_after(state, viewer, None, Board::Left)
    }

    /// Every seat sees the same table (only `you` differs): the view is
    /// built once and copied for each viewer, its shared parts (front,
    /// Origins, enemies, board) then written to JSON once for all of them,
    /// and those that did not change since `before` taken from it, JSON
    /// and all. The same views as each built alone.
    fn views(
        state: &DivinityState,
        viewers: &[Viewer],
        board: bool,
        before: Option<&DivinityView>,
    ) -> Vec<DivinityView> {
        let Some(first) = viewers.first() else { return Vec::new() };
        let mut view = view_after(state, *first, before, Board::shown_if(board));
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
    ///
    /// Room is made first for them and their words, which the server
    /// writes next into the same text: 180 bytes an action, more than the
    /// two take in nearly every list of party-bot games (140 to 160 on
    /// average, a thousand level-ups some 160 kB), rather than the text
    /// copied each time it doubles.
    fn write_actions(actions: &[A], out: &mut Vec<u8>) {
        out.reserve(actions.len() * 180 + 16);
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
/// `before` while unchanged (`view::view_after`, `words::tell`); without
/// the board and the front when `board` leaves them out.
fn view_after(state: &DivinityState, viewer: Viewer, before: Option<&DivinityView>, board: Board) -> DivinityView {
    let cat = Catalogue::standard();
    let mut view = super::view::view_after(state, cat, viewer, before, board);
    match board {
        Board::Shown => super::words::tell(&mut view, state, cat, before),
        Board::Left => super::words::tell_rows(&mut view, state, cat),
    }
    view
}

/// The spectator's view as far as the words of actions and events read it
/// (`view::names_only`, with the rows of a flipped challenge card): no
/// front, armor, board or anything else no word reads (tests hold the
/// words those of the whole view).
///
/// Taken from a memo of this thread's last two when one was built from
/// the same names ([`NamesMemo`]): a record's lists (one a waiting seat)
/// and the words of its events (the states before and after) name from
/// the same state, and building one is some 5,000 instructions and 120
/// allocations. The same view as one built anew: debug builds build it
/// anew and compare, and tests hold the two equal over party-bot games
/// (public for them).
#[doc(hidden)]
pub fn names_view(state: &DivinityState) -> DivinityView {
    let view = NAMES.with(|memo| memo.borrow_mut().get(state));
    debug_assert!(view == names_view_built(state), "a memo's names view is not the state's");
    view
}

/// [`names_view`] built anew.
#[doc(hidden)]
pub fn names_view_built(state: &DivinityState) -> DivinityView {
    let cat = Catalogue::standard();
    let mut view = super::view::names_only(state, cat);
    super::words::tell_rows(&mut view, state, cat);
    view
}

thread_local! {
    static NAMES: std::cell::RefCell<NamesMemo> = const { std::cell::RefCell::new(NamesMemo(Vec::new())) };
}

/// The names views a thread built last, the latest first, each with the
/// card of the flipped challenge it was built with. Keyed by everything
/// [`names_view_built`] reads of the state ([`NamesMemo::built_from`]): a
/// view is taken again only for a state equal in all of it, so the memo
/// changes no word, only what they cost. Keep the two in step: a field
/// `view::names_only` or `words::tell_rows` comes to read is a field
/// `built_from` compares.
struct NamesMemo(Vec<(Option<String>, DivinityView)>);

impl NamesMemo {
    /// Two: the states before and after a record's events.
    const KEPT: usize = 2;

    fn get(&mut self, state: &DivinityState) -> DivinityView {
        if let Some(k) = self.0.iter().position(|(flipped, v)| Self::built_from(v, flipped.as_deref(), state)) {
            self.0[..=k].rotate_right(1);
            return self.0[0].1.clone();
        }
        let view = names_view_built(state);
        if self.0.len() == Self::KEPT {
            self.0.pop();
        }
        self.0.insert(0, (flipped_card(state).map(str::to_owned), view.clone()));
        view
    }

    /// Whether `view` is what [`names_view_built`] builds of `state`, it
    /// having been built of a state whose flipped challenge card was
    /// `flipped`: all that `view::names_only` and `words::tell_rows` read
    /// of a state is equal (the catalogue is the standard one always).
    fn built_from(view: &DivinityView, flipped: Option<&str>, state: &DivinityState) -> bool {
        let t: &super::view::TableView = view;
        t.location == state.location
            && t.level == state.level
            && t.round == state.round
            && t.round_kind == state.round_kind
            && t.origins.len() == state.origins.len()
            && t.origins
                .iter()
                .zip(&state.origins)
                .all(|(v, o)| v.origin == o.origin && v.space == o.space && v.downed == o.downed)
            && t.enemies.len() == state.enemies.len()
            && t.enemies
                .iter()
                .zip(&state.enemies)
                .all(|(v, e)| v.id == e.id && v.letter == e.letter && v.kind == e.kind)
            && t.holding.len() == state.holding.len()
            && t.holding.iter().zip(&state.holding).all(|(c, id)| c.id == *id)
            && t.revealed.len() == state.revealed.len()
            && t.revealed.iter().zip(&state.revealed).all(|(c, r)| c.id == r.card)
            && t.pending.as_ref() == state.pending_roll()
            && t.enemy_roll.as_ref() == state.enemy_roll()
            && t.route.as_ref() == state.route()
            && t.roll_reduction.as_ref() == state.roll_reduction()
            && flipped == flipped_card(state)
    }
}

/// The card of a flipped challenge, whose rows the names view shows.
fn flipped_card(state: &DivinityState) -> Option<&str> {
    state.challenge.as_ref().filter(|c| c.flipped.is_some()).map(|c| c.card.as_str())
}
