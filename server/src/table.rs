//! A match's table: the engine state plus what the server keeps beside it
//! from the log — the actions that may still be taken back, and who controls
//! each seat. Rebuilt by folding the log's records, so a restart comes back
//! to exactly the table the players left.
//!
//! **Architecture Invariant:** the log is append-only. A take-back is a
//! record of its own (`take_back`, `{"seq": N}`); it restores the state kept
//! from before action N, which the same fold kept when it applied N.

use athlas_engine::{RuleError, Ruleset, Seat, SeatNames};
use serde::Deserialize;

use crate::{
    refusal::{Code, Refusal},
    store::{ActionRecord, RecordKind},
};

/// How many of a seat's latest actions may be taken back in a row.
pub const MAX_TAKE_BACKS: usize = 16;

/// An action that may still be taken back, with the state before it.
struct Undo<S> {
    seq: u64,
    seat: Seat,
    before: S,
}

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
    undo: Vec<Undo<R::State>>,
    last: Option<Last>,
    /// For a game with take-back, a state no longer needed (an undo dropped
    /// or taken back), kept for its allocations: the next copy before an
    /// action is written into it with `clone_from` instead of allocated
    /// afresh. One at most; games without take-back keep none, so an idle
    /// duel holds one state, not two.
    spare: Option<R::State>,
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
            last: None,
            spare: None,
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
        // The state before serves a take-back and names what the change
        // removed in its words.
        let before = (R::TAKE_BACK || R::WORDS).then(|| self.copy_state());
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
        let refusal = match before {
            Some(before) => match R::take_back(&before, &self.state, &events) {
                Ok(()) => {
                    if self.undo.len() == MAX_TAKE_BACKS {
                        let oldest = self.undo.remove(0);
                        self.recycle(oldest.before);
                    }
                    self.undo.push(Undo { seq, seat, before });
                    None
                }
                Err(e) => {
                    self.clear_undo();
                    self.recycle(before);
                    Some(e)
                }
            },
            None => {
                self.clear_undo();
                Some(R::take_back(&self.state, &self.state, &events).err().unwrap_or_else(|| {
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

    /// Take back `seat`'s latest action: the state goes back to before it.
    ///
    /// # Errors
    /// As [`Table::may_take_back`].
    pub fn take_back(&mut self, seat: Seat) -> Result<u64, Refusal> {
        let seq = self.may_take_back(seat)?;
        let undo = self.undo.pop().expect("may_take_back found it");
        let after = std::mem::replace(&mut self.state, undo.before);
        self.recycle(after);
        // The action before it, if still on the stack, is the next to go;
        // else nothing is known about it and nothing more goes back.
        self.last = self.undo.last().map(|u| Last { seq: u.seq, seat: u.seat, refusal: None });
        Ok(seq)
    }

    /// A copy of the state, written into the spare when there is one.
    fn copy_state(&mut self) -> R::State {
        match self.spare.take() {
            Some(mut s) => {
                s.clone_from(&self.state);
                s
            }
            None => self.state.clone(),
        }
    }

    /// Keep `s` as the spare (see [`Table::spare`]), or drop it.
    fn recycle(&mut self, s: R::State) {
        if R::TAKE_BACK && self.spare.is_none() {
            self.spare = Some(s);
        }
    }

    /// Every action's window closes; one of their states is kept as the
    /// spare.
    fn clear_undo(&mut self) {
        if let Some(u) = self.undo.pop() {
            self.recycle(u.before);
        }
        self.undo.clear();
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
        assert!(t.spare.is_some(), "a dropped state is kept");
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
