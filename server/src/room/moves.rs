//! A seat's requests to its room: act, take back, hand a seat. Each is
//! checked against the table, then committed ([`super::commit`]).

use athlas_engine::{Seat, Viewer};
use serde::Deserialize;
use serde_json::Value;
use tokio::time::Instant;

use super::{action_type, frames::Published, to_value, Actor, Hosted, Outbound, Room};
use crate::refusal::{Code, Refusal};
use crate::{
    store::{ActionRecord, RecordKind},
    table::{Hand, TakeBack},
};

impl<R> Room<R>
where
    R: Hosted,
{
    /// The actor of a request from subscriber `sub`, with a function that
    /// refuses it (counted); `None` when the subscriber is gone.
    pub(super) fn actor(&self, sub: u64, id: u64) -> Option<(Outbound, impl Fn(Refusal))> {
        let out = self.subs.iter().find(|s| s.id == sub)?.out.clone();
        let metrics = self.ctx.metrics.clone();
        let reply = out.clone();
        Some((out, move |refusal: Refusal| {
            metrics.action_rejected(refusal.code());
            reply.send(&refusal.frame(Some(id)));
        }))
    }

    /// Handle an `act`; false when the room must stop (the store failed).
    pub(super) async fn act(&mut self, sub: u64, player: Seat, seat: Seat, id: u64, action: Value) -> bool {
        let received = Instant::now();
        let Some((out, reply_err)) = self.actor(sub, id) else {
            return true;
        };
        if self.is_finished() {
            reply_err(Refusal::new(Code::Finished, "the match is over"));
            return true;
        }
        if !self.table.acts_for(player, seat) {
            reply_err(Refusal::new(Code::NotYourSeat, format!("seat {seat} is not handed to you (seat {player})")));
            return true;
        }
        // The action's only typed parse; the connection parsed the envelope.
        let parsed = match R::Action::deserialize(&action) {
            Ok(a) => a,
            Err(e) => {
                reply_err(Refusal::new(Code::BadAction, format!("not a {} action: {e}", R::GAME)));
                return true;
            }
        };
        // Only the timer says a seat's time ran out.
        if R::timer_only(&parsed) {
            reply_err(Refusal::new(
                Code::BadAction,
                format!("{} is the server's when a timer runs out", action_type(&action)),
            ));
            return true;
        }
        match self.table.act(self.seq + 1, seat, parsed) {
            Ok(acted) => {
                // DEBUG: one line per action is too much for production logs.
                tracing::debug!(seat, player, action = action_type(&action), "action accepted");
                let record = ActionRecord {
                    seq: self.seq + 1,
                    seat,
                    action,
                    kind: RecordKind::Action,
                    sender: (player != seat).then_some(player),
                };
                self.commit(record, Published::Events(acted), Some(Actor { out, id, received })).await
            }
            Err(e) => {
                tracing::debug!(seat, code = e.code, "action rejected");
                reply_err(Refusal::Rule(e));
                true
            }
        }
    }

    /// Handle a `take_back` of `player`'s own last action.
    pub(super) async fn take_back(&mut self, sub: u64, player: Seat, id: u64) -> bool {
        let received = Instant::now();
        let Some((out, reply_err)) = self.actor(sub, id) else {
            return true;
        };
        if self.is_finished() {
            reply_err(Refusal::new(Code::Finished, "the match is over"));
            return true;
        }
        match self.table.take_back(player) {
            Ok(undone) => {
                tracing::debug!(seat = player, undone, "action taken back");
                let body = to_value(&TakeBack { seq: undone });
                let record = ActionRecord {
                    seq: self.seq + 1,
                    seat: player,
                    action: body,
                    kind: RecordKind::TakeBack,
                    sender: None,
                };
                self.commit(record, Published::TakenBack(undone), Some(Actor { out, id, received })).await
            }
            Err(refusal) => {
                reply_err(refusal);
                true
            }
        }
    }

    /// Handle a `hand`: a seat hands itself, its controller gives it back,
    /// or the host (seat 0) or the party's leader hands an absent player's
    /// seat to a present one.
    pub(super) async fn hand(&mut self, sub: u64, player: Seat, id: u64, hand: Hand) -> bool {
        let received = Instant::now();
        let Some((out, reply_err)) = self.actor(sub, id) else {
            return true;
        };
        let seats = self.table.control.len() as Seat;
        if hand.seat >= seats || hand.to.is_some_and(|t| t >= seats) {
            reply_err(Refusal::new(Code::CannotHand, format!("seats are 0 to {}", seats - 1)));
            return true;
        }
        if self.is_finished() {
            reply_err(Refusal::new(Code::Finished, "the match is over"));
            return true;
        }
        self.prune(None);
        let controller = self.table.control[hand.seat as usize];
        let own = hand.seat == player;
        let returning = hand.to.is_none() && controller == Some(player);
        let party = player == 0 || R::party_leader(&self.table.state) == Some(player);
        let absent_for = self.absent_since[hand.seat as usize].map(|t| t.elapsed());
        let to_present = hand.to.is_none_or(|t| self.subs.iter().any(|s| s.viewer == Viewer::Seat(t)));
        let allowed = if own || returning {
            Ok(())
        } else if !party {
            Err(format!("only seat {} itself, the host (seat 0) or the party's leader may hand it", hand.seat))
        } else if absent_for.is_none_or(|a| a < self.ctx.config.hand_absent) {
            Err(format!(
                "seat {}'s player is connected or was away less than {} s",
                hand.seat,
                self.ctx.config.hand_absent.as_secs()
            ))
        } else if !to_present {
            Err("hand a seat to a player who is here".into())
        } else {
            Ok(())
        };
        if let Err(message) = allowed {
            reply_err(Refusal::new(Code::CannotHand, message));
            return true;
        }
        let hand = Hand { seat: hand.seat, to: hand.to.filter(|t| *t != hand.seat) };
        self.table.hand(hand);
        tracing::info!(seat = hand.seat, to = ?hand.to, by = player, "seat handed");
        let record = ActionRecord {
            seq: self.seq + 1,
            seat: hand.seat,
            action: to_value(&hand),
            kind: RecordKind::Hand,
            sender: (player != hand.seat).then_some(player),
        };
        self.commit(record, Published::Handed, Some(Actor { out, id, received })).await
    }
}
