//! A match's table: the engine state plus what the server keeps beside it
//! from the log — the actions that may still be taken back, and who controls
//! each seat. Rebuilt by folding the log's records, so a restart comes back
//! to exactly the table the players left.
//!
//! **Architecture Invariant:** the log is append-only. A take-back is a
//! record of its own (`take_back`, `{"seq": N}`); it restores the state
//! before action N, which the same fold can rebuild: it keeps the state
//! before the window of actions that may be taken back and those actions,
//! and the engine is deterministic.

use athlas_engine::{RuleError, Ruleset, Seat, SeatNames};
use serde::Deserialize;

use crate::{
    refusal::{Code, Refusal},
    store::{ActionRecord, RecordKind},
};

/// How many of a seat's latest actions may be taken back in a row.
pub const MAX_TAKE_BACKS: usize = 16;

/// An action that may still be taken back.
struct Undo<A> {
    seq: u64,
    seat: Seat,
    action: A,
}

/// How many states no longer needed a table keeps for their allocations
/// (see [`Table::spares`]).
const SPARES: usize = 2;

/// The latest action not taken back, and whether the game lets it be.
struct Last {
    seq: u64,
    seat: Seat,
    refusal: Option<RuleError>,
}

/// What a record did to the table.
#[derive(Debug)]
pub enum Applied<E> {
    /// An engine action, with its events (and their words, for a game
    /// with [`Ruleset::WORDS`]).
    Action(Acted<E>),
    /// The action of this seq was taken back.
    TakenBack(u64),
    /// Control of a seat changed.
    Handed,
}

/// An applied engine action: its events and, for a game that describes
/// itself ([`Ruleset::WORDS`]), a line of words per event.
#[derive(Debug)]
pub struct Acted<E> {
    pub events: Vec<E>,
    pub words: Vec<String>,
}

/// A `hand` record's body.
#[derive(Debug, Clone, Copy, serde::Serialize, Deserialize)]
pub struct Hand {
    pub seat: Seat,
    pub to: Option<Seat>,
}

impl Hand {
    /// Who controls each seat after this hand-over (a seat handed to itself
    /// is its own again): the one fold of `hand` records, for a table and
    /// for a campaign's status read from the log.
    pub fn apply(self, control: &mut [Option<Seat>]) {
        if let Some(c) = control.get_mut(self.seat as usize) {
            *c = self.to.filter(|t| *t != self.seat);
        }
    }
}

/// A `take_back` record's body.
#[derive(Debug, Clone, Copy, serde::Serialize, Deserialize)]
pub struct TakeBack {
    pub seq: u64,
}

pub struct Table<R: Ruleset> {
    pub state: R::State,
    /// Who acts for each seat when not its owner.
    pub control: Vec<Option<Seat>>,
    /// The latest actions that may be taken back, newest last: all of one
    /// seat, none revealing anything (another seat's action clears it).
    undo: Vec<Undo<R::Action>>,
    /// The state before `undo`'s first action, while there is one: a
    /// take-back replays the window's other actions on a copy of it. One
    /// state and a few actions, not a state an action (a Divinity state is
    /// some kilobytes, and copying each afresh was a third of `act`).
    base: Option<R::State>,
    last: Option<Last>,
    /// For a game with take-back, states no longer needed (a window's base
    /// closed, the state before an action not kept, a take-back's state
    /// after), kept for their allocations: the next copy is written into
    /// one with `clone_from` instead of allocated afresh. Two at most, so
    /// that a window's base and the next action's copy both find one;
    /// games without take-back keep none, so an idle duel holds one state.
    spares: Vec<R::State>,
    /// The players' names, for the game's words (kept by the store beside
    /// the match, never in the state).
    pub names: SeatNames,
}

impl<R: Ruleset> Table<R> {
    pub fn new(state: R::State, seats: usize) -> Self {
        Table {
            state,
            control: vec![None; seats],
            undo: Vec::new(),
            base: None,
            last: None,
            spares: Vec::new(),
            names: SeatNames::default(),
        }
    }

    /// Whether any seat is handed.
    pub fn handed(&self) -> bool {
        self.control.iter().any(Option::is_some)
    }

    /// Apply `seat`'s engine action of sequence number `seq`; on refusal
    /// nothing changes.
    ///
    /// # Errors
    /// The engine's refusal.
    pub fn act(&mut self, seq: u64, seat: Seat, action: R::Action) -> Result<Acted<R::Event>, RuleError> {
        // The state before serves a take-back (as the window's base) and
        // names what the change removed in its words.
        let before = (R::TAKE_BACK || R::WORDS).then(|| self.copy_of_state());
        // Kept for a replay should the action be taken back later.
        let kept = R::TAKE_BACK.then(|| action.clone());
        let applied = match &before {
            Some(b) => R::apply_after_copy(&mut self.state, b, seat, action),
            None => R::apply(&mut self.state, seat, action),
        };
        let events = match applied {
            Ok(events) => events,
            Err(e) => {
                if let Some(b) = before {
                    self.recycle(b);
                }
                return Err(e);
            }
        };
        let words = match &before {
            Some(b) if R::WORDS => R::named_event_words(b, &self.state, &events, &self.names),
            _ => Vec::new(),
        };
        // Another seat's action closes every earlier window.
        if self.undo.last().is_some_and(|u| u.seat != seat) {
            self.clear_undo();
        }
        let refusal = match (before, kept) {
            (Some(before), Some(action)) => match R::take_back(&before, &self.state, &events) {
                Ok(()) => {
                    if self.undo.len() == MAX_TAKE_BACKS {
                        self.drop_oldest_undo();
                    }
                    if self.base.is_none() {
                        self.base = Some(before);
                    } else {
                        self.recycle(before);
                    }
                    self.undo.push(Undo { seq, seat, action });
                    None
                }
                Err(e) => {
                    self.clear_undo();
                    self.recycle(before);
                    Some(e)
                }
            },
            (before, _) => {
                self.clear_undo();
                // A game with words and no take-back still says why.
                let e = R::take_back(before.as_ref().unwrap_or(&self.state), &self.state, &events).err();
                Some(e.unwrap_or_else(|| {
                    RuleError::new("no_take_back", format!("{} keeps no state to take back", R::GAME))
                }))
            }
        };
        self.last = Some(Last { seq, seat, refusal });
        Ok(Acted { events, words })
    }

    /// The seq of the action `seat` would take back now.
    ///
    /// # Errors
    /// Why it may not.
    pub fn may_take_back(&self, seat: Seat) -> Result<u64, Refusal> {
        match (&self.last, self.undo.last()) {
            (_, Some(u)) if u.seat == seat => Ok(u.seq),
            (Some(l), _) if l.seat != seat => {
                Err(Refusal::new(Code::OthersActed, format!("seat {} has acted since (action {})", l.seat, l.seq)))
            }
            (Some(Last { refusal: Some(e), .. }), _) => Err(Refusal::Rule(e.clone())),
            _ => Err(Refusal::new(Code::NothingToTakeBack, "there is no action of yours to take back")),
        }
    }

    /// Take back `seat`'s latest action: the state goes back to before it,
    /// rebuilt from the window's base and the window's actions before it.
    ///
    /// # Errors
    /// As [`Table::may_take_back`]; `internal` should the window's actions
    /// not replay (the engine is deterministic: a bug), nothing changed.
    pub fn take_back(&mut self, seat: Seat) -> Result<u64, Refusal> {
        let seq = self.may_take_back(seat)?;
        let taken = self.undo.pop().expect("may_take_back found it");
        let Some(base) = self.base.as_ref() else {
            self.undo.push(taken);
            return Err(Refusal::new(Code::Internal, "the state before the take-back's window is missing"));
        };
        let mut rebuilt = copy_reusing(self.spares.pop(), base);
        let replayed = self.undo.iter().try_for_each(|u| {
            R::apply(&mut rebuilt, u.seat, u.action.clone())
                .map(|_| ())
                .map_err(|e| format!("action {} of the take-back's window does not replay: {e}", u.seq))
        });
        if let Err(why) = replayed {
            self.recycle(rebuilt);
            self.undo.push(taken);
            return Err(Refusal::new(Code::Internal, why));
        }
        let after = std::mem::replace(&mut self.state, rebuilt);
        self.recycle(after);
        if self.undo.is_empty() {
            if let Some(b) = self.base.take() {
                self.recycle(b);
            }
        }
        // The action before it, if still on the stack, is the next to go;
        // else nothing is known about it and nothing more goes back.
        self.last = self.undo.last().map(|u| Last { seq: u.seq, seat: u.seat, refusal: None });
        Ok(seq)
    }

    /// A copy of the state, written into a spare when there is one.
    fn copy_of_state(&mut self) -> R::State {
        copy_reusing(self.spares.pop(), &self.state)
    }

    /// Keep `s` as a spare (see [`Table::spares`]), or drop it.
    fn recycle(&mut self, s: R::State) {
        if R::TAKE_BACK && self.spares.len() < SPARES {
            self.spares.push(s);
        }
    }

    /// The window's oldest action leaves it: the base moves past it.
    fn drop_oldest_undo(&mut self) {
        let oldest = self.undo.remove(0);
        let moved = self.base.as_mut().is_some_and(|b| R::apply(b, oldest.seat, oldest.action).is_ok());
        if !moved {
            // Cannot happen (the action applied to this very state once);
            // should it, the window closes rather than keep a wrong base.
            self.clear_undo();
        }
    }

    /// Every action's window closes; its base is kept as a spare.
    fn clear_undo(&mut self) {
        self.undo.clear();
        if let Some(b) = self.base.take() {
            self.recycle(b);
        }
    }

    /// Control of `hand.seat` passes to `hand.to` (its owner when `None`).
    pub fn hand(&mut self, hand: Hand) {
        hand.apply(&mut self.control);
    }

    /// Whether the player of seat `player` may act for `seat`.
    pub fn acts_for(&self, player: Seat, seat: Seat) -> bool {
        player == seat || self.control.get(seat as usize).copied().flatten() == Some(player)
    }

    /// The seats the player of `player` acts for: its own, then the ones
    /// handed to it.
    pub fn seats_of(&self, player: Seat) -> Vec<Seat> {
        let mut seats = vec![player];
        seats.extend(
            (0..self.control.len() as Seat).filter(|s| *s != player && self.control[*s as usize] == Some(player)),
        );
        seats
    }

    /// Fold one stored record in.
    ///
    /// # Errors
    /// A record that does not replay (corrupt log, rules change, or a
    /// take-back of an action this fold no longer holds: see [`Replay`]).
    pub fn replay(&mut self, a: &ActionRecord) -> Result<Applied<R::Event>, ReplayError> {
        match a.kind {
            RecordKind::Action => {
                let action: R::Action = serde_json::from_value(a.action.clone())
                    .map_err(|e| ReplayError::Corrupt(format!("stored action {}: {e}", a.seq)))?;
                self.act(a.seq, a.seat, action)
                    .map(Applied::Action)
                    .map_err(|e| ReplayError::Corrupt(format!("stored action {} rejected on replay: {e}", a.seq)))
            }
            RecordKind::TakeBack => {
                let t: TakeBack = serde_json::from_value(a.action.clone())
                    .map_err(|e| ReplayError::Corrupt(format!("stored take-back {}: {e}", a.seq)))?;
                if self.undo.last().is_none_or(|u| u.seq != t.seq) {
                    return Err(ReplayError::NeedsFullLog);
                }
                match self.take_back(a.seat) {
                    Ok(seq) if seq == t.seq => Ok(Applied::TakenBack(seq)),
                    _ => Err(ReplayError::Corrupt(format!("take-back {} does not replay", a.seq))),
                }
            }
            RecordKind::Hand => {
                let h: Hand = serde_json::from_value(a.action.clone())
                    .map_err(|e| ReplayError::Corrupt(format!("stored hand-over {}: {e}", a.seq)))?;
                self.hand(h);
                Ok(Applied::Handed)
            }
        }
    }
}

/// A copy of `from`, written into `spare` (reusing its allocations) when
/// there is one.
fn copy_reusing<S: Clone>(spare: Option<S>, from: &S) -> S {
    match spare {
        Some(mut s) => {
            s.clone_from(from);
            s
        }
        None => from.clone(),
    }
}

/// Why a record did not fold in.
#[derive(Debug)]
pub enum ReplayError {
    Corrupt(String),
    /// A take-back of an action before the snapshot the fold started from:
    /// fold the whole log from the start instead.
    NeedsFullLog,
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_engine::{
        divinity::{Divinity, DivinityAction, DivinityOptions},
        duel::{Duel, DuelAction, DuelOptions},
    };
    use athlas_protocol::code;
    use serde_json::json;

    fn rec(seq: u64, seat: Seat, kind: RecordKind, action: serde_json::Value) -> ActionRecord {
        ActionRecord { seq, seat, action, kind, sender: None }
    }

    /// The first legal action of `seat` that the game lets be taken back.
    fn reversible(t: &Table<Divinity>, seat: Seat) -> Option<DivinityAction> {
        Divinity::legal(&t.state, seat).into_iter().find(|a| {
            let mut s = t.state.clone();
            let before = s.clone();
            let ev = Divinity::apply(&mut s, seat, a.clone()).unwrap();
            Divinity::take_back(&before, &s, &ev).is_ok()
        })
    }

    #[test]
    fn a_seat_takes_back_its_own_reversible_actions_and_a_replay_agrees() {
        let start = Divinity::start(&DivinityOptions::default(), 5).unwrap();
        let mut t = Table::<Divinity>::new(start.clone(), 2);
        assert_eq!(t.may_take_back(0).unwrap_err().code(), code::NOTHING_TO_TAKE_BACK);
        // Travel is the first step of the first location: it reveals nothing.
        let a = reversible(&t, 0).expect("a reversible first action");
        t.act(1, 0, a.clone()).unwrap();
        let after = serde_json::to_value(&t.state).unwrap();
        // Whatever seat 1 did came before seat 0's action.
        assert_eq!(t.may_take_back(1).unwrap_err().code(), code::OTHERS_ACTED);
        assert_eq!(t.take_back(0).unwrap(), 1);
        assert_eq!(serde_json::to_value(&t.state).unwrap(), serde_json::to_value(&start).unwrap());
        assert_eq!(t.may_take_back(0).unwrap_err().code(), code::NOTHING_TO_TAKE_BACK);

        // The same log folded from the start comes to the same table.
        let log = [
            rec(1, 0, RecordKind::Action, serde_json::to_value(&a).unwrap()),
            rec(2, 0, RecordKind::TakeBack, json!({"seq": 1})),
            rec(3, 0, RecordKind::Action, serde_json::to_value(&a).unwrap()),
        ];
        let mut r = Table::<Divinity>::new(start, 2);
        for x in &log {
            r.replay(x).unwrap();
        }
        assert_eq!(serde_json::to_value(&r.state).unwrap(), after);
        assert_eq!(r.may_take_back(0).unwrap(), 3);
    }

    /// The copies written into a recycled state (the spare) restore exactly
    /// what a fresh copy would: over a seeded party, each seat's reversible
    /// action is taken back and made again, windows closing in between.
    #[test]
    fn take_backs_through_the_spare_restore_the_state_before() {
        let mut t = Table::<Divinity>::new(Divinity::start(&DivinityOptions::default(), 7).unwrap(), 2);
        let mut seq = 0;
        let mut undone = 0;
        for step in 0..60 {
            let Some(seat) = (0..2).find(|s| !Divinity::legal(&t.state, *s).is_empty()) else { break };
            let before = serde_json::to_value(&t.state).unwrap();
            let Some(a) = reversible(&t, seat).or_else(|| Divinity::legal(&t.state, seat).into_iter().next()) else {
                break;
            };
            seq += 1;
            t.act(seq, seat, a.clone()).unwrap();
            if step % 3 == 0 && t.may_take_back(seat).is_ok() {
                assert_eq!(t.take_back(seat).unwrap(), seq);
                assert_eq!(serde_json::to_value(&t.state).unwrap(), before, "step {step}");
                undone += 1;
                seq += 1;
                t.act(seq, seat, a).unwrap();
            }
        }
        assert!(undone >= 3, "{undone} take-backs");
        assert!(!t.spares.is_empty(), "a dropped state is kept");
    }

    /// A game made to take back: each seat appends numbers to a list, or
    /// draws from a seeded counter (which reveals, so it closes the window).
    struct Tally;

    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct TallyState {
        list: Vec<(Seat, u32)>,
        drawn: u64,
    }

    #[derive(Clone, serde::Serialize, serde::Deserialize)]
    enum TallyAction {
        Push(u32),
        Draw,
        /// Refused, after changing the list (the table must put it back).
        Spoil,
    }

    #[derive(Clone, Debug, serde::Serialize)]
    struct Drew;

    impl athlas_engine::Visible for Drew {
        fn visible_to(&self, _viewer: athlas_engine::Viewer) -> bool {
            true
        }
    }

    impl Ruleset for Tally {
        const GAME: &'static str = "tally";
        const RULES_VERSION: u32 = 1;
        const TAKE_BACK: bool = true;
        type Options = ();
        type State = TallyState;
        type Action = TallyAction;
        type Event = Drew;
        type View = ();
        type Hashed<'a> = &'a TallyState;
        fn seats(_: &()) -> usize {
            2
        }
        fn start(_: &(), seed: u64) -> Result<TallyState, athlas_engine::SetupError> {
            Ok(TallyState { list: Vec::new(), drawn: seed })
        }
        fn apply(state: &mut TallyState, seat: Seat, action: TallyAction) -> Result<Vec<Drew>, RuleError> {
            match action {
                TallyAction::Push(n) => {
                    state.list.push((seat, n));
                    Ok(Vec::new())
                }
                TallyAction::Draw => {
                    state.drawn = state.drawn.wrapping_mul(6364136223846793005).wrapping_add(1);
                    Ok(vec![Drew])
                }
                TallyAction::Spoil => {
                    state.list.clear();
                    Err(RuleError::new("spoilt", "refused after a change"))
                }
            }
        }
        fn apply_after_copy(
            state: &mut TallyState,
            before: &TallyState,
            seat: Seat,
            action: TallyAction,
        ) -> Result<Vec<Drew>, RuleError> {
            let r = Self::apply(state, seat, action);
            if r.is_err() {
                state.clone_from(before);
            }
            r
        }
        fn view(_: &TallyState, _: athlas_engine::Viewer) {}
        fn status(_: &TallyState) -> athlas_engine::Status {
            athlas_engine::Status::Waiting { seats: vec![0, 1] }
        }
        fn hashed(state: &TallyState) -> &TallyState {
            state
        }
        fn legal(_: &TallyState, _: Seat) -> Vec<TallyAction> {
            vec![TallyAction::Push(0), TallyAction::Draw]
        }
        fn take_back(_: &TallyState, _: &TallyState, events: &[Drew]) -> Result<(), RuleError> {
            match events {
                [] => Ok(()),
                _ => Err(RuleError::new("revealed", "that action drew")),
            }
        }
    }

    /// A window longer than the take-backs allowed: the last
    /// `MAX_TAKE_BACKS` go back one by one, each to exactly the state
    /// before it (rebuilt from the window's base, moved past the actions
    /// that left the window); a draw closes the window; a refused action
    /// changes nothing, window included; and folding the same log agrees.
    #[test]
    fn take_backs_replay_the_window_from_its_base() {
        let mut t = Table::<Tally>::new(Tally::start(&(), 3).unwrap(), 2);
        let mut log = Vec::new();
        // Each record's seq follows the log's length (take-backs included).
        let act = |t: &mut Table<Tally>, log: &mut Vec<ActionRecord>, seat: Seat, a: TallyAction| {
            let seq = log.len() as u64 + 1;
            t.act(seq, seat, a.clone()).unwrap();
            log.push(rec(seq, seat, RecordKind::Action, serde_json::to_value(&a).unwrap()));
            seq
        };
        act(&mut t, &mut log, 1, TallyAction::Push(100));
        act(&mut t, &mut log, 0, TallyAction::Draw);
        let mut states = vec![t.state.clone()];
        for n in 0..(MAX_TAKE_BACKS as u32 + 5) {
            act(&mut t, &mut log, 0, TallyAction::Push(n));
            states.push(t.state.clone());
        }
        let spoilt = t.act(log.len() as u64 + 1, 0, TallyAction::Spoil).unwrap_err();
        assert_eq!(spoilt.code, "spoilt");
        assert_eq!(&t.state, states.last().unwrap(), "a refusal changes nothing");
        states.pop();
        for _ in 0..MAX_TAKE_BACKS {
            let taken = t.take_back(0).unwrap();
            assert_eq!(&t.state, states.last().unwrap(), "back to before {taken}");
            states.pop();
            log.push(rec(log.len() as u64 + 1, 0, RecordKind::TakeBack, json!({ "seq": taken })));
        }
        assert_eq!(t.may_take_back(0).unwrap_err().code(), code::NOTHING_TO_TAKE_BACK);
        assert!(t.spares.len() <= SPARES && t.base.is_none());

        let mut folded = Table::<Tally>::new(Tally::start(&(), 3).unwrap(), 2);
        for r in &log {
            folded.replay(r).unwrap();
        }
        assert_eq!(folded.state, t.state);

        // A draw reveals: the window before it closes.
        act(&mut t, &mut log, 0, TallyAction::Push(7));
        act(&mut t, &mut log, 0, TallyAction::Draw);
        assert_eq!(t.may_take_back(0).unwrap_err().code(), "revealed");
        let before = t.state.clone();
        let pushed = act(&mut t, &mut log, 0, TallyAction::Push(8));
        assert_eq!(t.take_back(0).unwrap(), pushed);
        assert_eq!(t.state, before);
    }

    #[test]
    fn another_seats_action_closes_the_window() {
        let mut t = Table::<Divinity>::new(Divinity::start(&DivinityOptions::default(), 5).unwrap(), 2);
        let a = reversible(&t, 0).unwrap();
        t.act(1, 0, a).unwrap();
        let b = Divinity::legal(&t.state, 1).into_iter().next().expect("seat 1 acts next");
        t.act(2, 1, b).unwrap();
        assert_eq!(t.may_take_back(0).unwrap_err().code(), code::OTHERS_ACTED);
    }

    #[test]
    fn a_game_without_take_back_says_so() {
        let mut t = Table::<Duel>::new(Duel::start(&DuelOptions::default(), 1).unwrap(), 2);
        t.act(1, 0, DuelAction::UsePreset { preset: "aquatic".into() }).unwrap();
        assert_eq!(t.may_take_back(0).unwrap_err().code(), "no_take_back");
    }

    #[test]
    fn a_take_back_from_before_a_snapshot_asks_for_the_whole_log() {
        let mut t = Table::<Divinity>::new(Divinity::start(&DivinityOptions::default(), 5).unwrap(), 2);
        let e = t.replay(&rec(9, 0, RecordKind::TakeBack, json!({"seq": 8}))).unwrap_err();
        assert!(matches!(e, ReplayError::NeedsFullLog));
    }

    #[test]
    fn hand_overs_fold_in() {
        let mut t = Table::<Duel>::new(Duel::start(&DuelOptions::default(), 1).unwrap(), 2);
        assert!(!t.acts_for(0, 1));
        t.replay(&rec(1, 1, RecordKind::Hand, json!({"seat": 1, "to": 0}))).unwrap();
        assert!(t.acts_for(0, 1) && t.acts_for(1, 1) && t.handed());
        assert_eq!(t.seats_of(0), [0, 1]);
        t.replay(&rec(2, 1, RecordKind::Hand, json!({"seat": 1, "to": null}))).unwrap();
        assert!(!t.acts_for(0, 1) && !t.handed());
    }
}
