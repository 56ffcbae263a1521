//! Nim, the toy game: a pile of counters, two seats take 1 to 3 in turn,
//! and whoever takes the last one wins. It is here to show how little a
//! game needs to be hosted (ARCHITECTURE.md, "How to add a game"): this
//! folder, `protocol/NIM.md`, `web/games/nim/`, `client-cli/src/games/nim/`
//! and one registration line on each side.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::{Outcome, RuleError, Ruleset, Seat, SeatNames, SetupError, Status, Viewer, Visible};

crate::refusals! {
    /// Why Nim refuses a take.
    pub enum NimRefusal {
        /// The game is over.
        Finished = "finished",
        /// It is the other seat's turn.
        NotYourTurn = "not_your_turn",
        /// A take is 1 to 3 counters, and at most what the pile holds.
        BadTake = "bad_take",
        /// Nim has seats 0 and 1.
        NoSuchSeat = "no_such_seat",
    }
}

/// The Nim ruleset.
pub struct Nim;

/// Agreed before play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimOptions {
    /// Counters on the pile at the start (1 to 100).
    pub pile: u32,
}

impl Default for NimOptions {
    fn default() -> Self {
        NimOptions { pile: 15 }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NimState {
    pub pile: u32,
    pub turn: Seat,
    pub winner: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum NimAction {
    /// Take `n` counters (1 to 3) from the pile.
    Take { n: u32 },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum NimEvent {
    Took { seat: Seat, n: u32, left: u32 },
    Won { seat: Seat },
}

impl Visible for NimEvent {
    fn visible_to(&self, _viewer: Viewer) -> bool {
        true // nothing in Nim is secret
    }
}

/// What every viewer sees: the whole game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NimView {
    pub you: Option<Seat>,
    pub pile: u32,
    pub turn: Seat,
    pub winner: Option<Seat>,
}

impl Ruleset for Nim {
    const GAME: &'static str = "nim";
    const RULES_VERSION: u32 = 1;
    type Options = NimOptions;
    type State = NimState;
    type Action = NimAction;
    type Event = NimEvent;
    type View = NimView;
    type Hashed<'a> = &'a NimState;

    fn hashed(state: &NimState) -> &NimState {
        state
    }

    fn seats(_: &NimOptions) -> usize {
        2
    }

    fn start(options: &NimOptions, seed: u64) -> Result<NimState, SetupError> {
        if !(1..=100).contains(&options.pile) {
            return Err(SetupError::new("the pile holds 1 to 100 counters"));
        }
        // Who starts is drawn from the seed, as a coin toss would.
        Ok(NimState { pile: options.pile, turn: (seed % 2) as Seat, winner: None })
    }

    fn apply(state: &mut NimState, seat: Seat, action: NimAction) -> Result<Vec<NimEvent>, RuleError> {
        if seat > 1 {
            return Err(RuleError::of(NimRefusal::NoSuchSeat, "Nim has seats 0 and 1"));
        }
        if state.winner.is_some() {
            return Err(RuleError::of(NimRefusal::Finished, "the game is over"));
        }
        if seat != state.turn {
            return Err(RuleError::of(NimRefusal::NotYourTurn, "it is the other seat's turn"));
        }
        let NimAction::Take { n } = action;
        if !(1..=3).contains(&n) || n > state.pile {
            return Err(RuleError::of(NimRefusal::BadTake, format!("take 1 to {} counters", state.pile.min(3))));
        }
        state.pile -= n;
        state.turn = 1 - seat;
        let mut events = vec![NimEvent::Took { seat, n, left: state.pile }];
        if state.pile == 0 {
            state.winner = Some(seat);
            events.push(NimEvent::Won { seat });
        }
        Ok(events)
    }

    fn legal(state: &NimState, seat: Seat) -> Vec<NimAction> {
        if state.winner.is_some() || seat != state.turn {
            return Vec::new();
        }
        (1..=state.pile.min(3)).map(|n| NimAction::Take { n }).collect()
    }

    fn view(state: &NimState, viewer: Viewer) -> NimView {
        NimView { you: viewer.seat(), pile: state.pile, turn: state.turn, winner: state.winner }
    }

    fn status(state: &NimState) -> Status {
        match state.winner {
            Some(seat) => Status::Finished(Outcome::Win { seat }),
            None => Status::Waiting { seats: vec![state.turn] },
        }
    }

    const WORDS: bool = true;

    fn action_words(state: &NimState, seat: Seat, actions: &[NimAction]) -> Vec<Value> {
        Self::named_action_words(state, seat, actions, SeatNames::none())
    }

    fn event_words(before: &NimState, after: &NimState, events: &[NimEvent]) -> Vec<String> {
        Self::named_event_words(before, after, events, SeatNames::none())
    }

    fn named_action_words(_: &NimState, _: Seat, actions: &[NimAction], _: &SeatNames) -> Vec<Value> {
        actions.iter().map(|a| json!({ "text": action_words(a), "group": "take" })).collect()
    }

    fn named_event_words(_: &NimState, _: &NimState, events: &[NimEvent], names: &SeatNames) -> Vec<String> {
        events.iter().map(|e| event_words(e, names)).collect()
    }
}

/// A take in words: "Take 2".
pub fn action_words(a: &NimAction) -> String {
    let NimAction::Take { n } = a;
    format!("Take {n}")
}

/// An event in words, for the log.
pub fn event_words(e: &NimEvent, names: &SeatNames) -> String {
    match e {
        NimEvent::Took { seat, n, left } => {
            let counters = if *n == 1 { "counter" } else { "counters" };
            format!("{} took {n} {counters}; {left} left", names.seat(*seat))
        }
        NimEvent::Won { seat } => format!("{} took the last counter and won", names.seat(*seat)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn started(pile: u32) -> NimState {
        Nim::start(&NimOptions { pile }, 0).unwrap()
    }

    #[test]
    fn seats_take_in_turn_and_the_last_take_wins() {
        let mut s = started(4);
        assert_eq!(Nim::legal(&s, 0), (1..=3).map(|n| NimAction::Take { n }).collect::<Vec<_>>());
        assert!(Nim::legal(&s, 1).is_empty());
        Nim::apply(&mut s, 0, NimAction::Take { n: 3 }).unwrap();
        assert_eq!(Nim::status(&s), Status::Waiting { seats: vec![1] });
        let events = Nim::apply(&mut s, 1, NimAction::Take { n: 1 }).unwrap();
        assert_eq!(events.last(), Some(&NimEvent::Won { seat: 1 }));
        assert_eq!(Nim::status(&s), Status::Finished(Outcome::Win { seat: 1 }));
        assert_eq!(
            Nim::event_words(&s, &s, &events),
            ["Seat 1 took 1 counter; 0 left", "Seat 1 took the last counter and won"]
        );
    }

    #[test]
    fn a_refused_take_changes_nothing_and_says_why() {
        let mut s = started(2);
        for (seat, n, code) in [(1, 1, "not_your_turn"), (0, 3, "bad_take"), (0, 0, "bad_take"), (2, 1, "no_such_seat")]
        {
            let before = s.clone();
            assert_eq!(Nim::apply(&mut s, seat, NimAction::Take { n }).unwrap_err().code, code);
            assert_eq!(s, before);
        }
        assert!(Nim::start(&NimOptions { pile: 0 }, 0).is_err());
    }

    /// The legal list is exactly what apply accepts, on every pile.
    #[test]
    fn the_legal_list_is_what_apply_accepts() {
        for pile in 1..=6 {
            let s = started(pile);
            for seat in 0..2 {
                let accepted: Vec<NimAction> = (0..=4)
                    .map(|n| NimAction::Take { n })
                    .filter(|a| Nim::apply(&mut s.clone(), seat, a.clone()).is_ok())
                    .collect();
                assert_eq!(Nim::legal(&s, seat), accepted);
            }
        }
    }

    /// protocol/NIM.md: every JSON example reads as an option, action,
    /// event or view, one of each is there, and the refusal table lists
    /// exactly the engine's codes.
    #[test]
    fn the_protocol_document_matches_the_engine() {
        use crate::refusal::{CommonRefusal, Refusal};
        use std::collections::BTreeSet;
        let doc = include_str!("../../../protocol/NIM.md");
        let mut kinds = BTreeSet::new();
        for block in doc.split("```json\n").skip(1) {
            let json = block.split("```").next().unwrap();
            let kind = if serde_json::from_str::<NimOptions>(json).is_ok() {
                "options"
            } else if serde_json::from_str::<NimAction>(json).is_ok() {
                "action"
            } else if let Ok(e) = serde_json::from_str::<NimEvent>(json) {
                if matches!(e, NimEvent::Won { .. }) {
                    "won"
                } else {
                    "took"
                }
            } else if serde_json::from_str::<NimView>(json).is_ok() {
                "view"
            } else {
                panic!("protocol/NIM.md: {json} is no Nim value")
            };
            kinds.insert(kind);
        }
        assert_eq!(kinds, ["action", "options", "took", "view", "won"].into_iter().collect());
        let table: BTreeSet<&str> = doc.lines().filter_map(|l| l.strip_prefix("| `")?.split('`').next()).collect();
        let codes: BTreeSet<&str> =
            NimRefusal::all().iter().map(|r| r.code()).chain(CommonRefusal::all().iter().map(|r| r.code())).collect();
        assert_eq!(table, codes);
    }
}
