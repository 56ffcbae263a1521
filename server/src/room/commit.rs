//! `commit` = `persist` then `publish`: an applied record made durable
//! through the writer (with new commitments, a snapshot now and then, the
//! outcome and a campaign's result), then acked and broadcast.

use athlas_engine::{refusal::Refusal as _, Seat, Status};

use super::{frames::Published, to_value, Actor, Hosted, Room, Stored};
use crate::{
    refusal::{Code, Refusal},
    secret,
    store::{ActionRecord, Append, CampaignUpdate, Commitment, MatchStatus},
};

impl<R> Room<R>
where
    R: Hosted,
{
    /// Store an applied record, then ack and broadcast. False when the store
    /// failed: the in-memory table is then ahead of the log, so the room must
    /// stop and be rebuilt from the store.
    pub(super) async fn commit(
        &mut self,
        record: ActionRecord,
        published: Published<R::Event>,
        actor: Option<Actor>,
    ) -> bool {
        match self.persist(record.clone(), actor.as_ref()).await {
            Some(stored) => {
                self.publish(&record, &published, stored, actor);
                self.push_turns();
                true
            }
            None => false,
        }
    }

    /// Web Push: tell the seats a correspondence match starts waiting for,
    /// whose players have no socket open, that it is their turn (sent in
    /// tasks of their own: the room goes on at once).
    pub(super) fn push_turns(&mut self) {
        let before = std::mem::replace(&mut self.waiting, crate::push::waiting(&R::status(&self.table.state)));
        if !self.record.live {
            let away = crate::push::newly_waiting(&before, &self.waiting, &self.connected.borrow());
            if !away.is_empty() {
                self.ctx.push.your_turn(self.id, away);
            }
        }
    }

    /// Everything up to durable: commit to newly locked secrets, snapshot
    /// now and then, and hand the record (with the outcome and a campaign's
    /// result when it ends the game) to the writer, one transaction. On
    /// failure, tell the actor and drop every connection; `None`.
    pub(super) async fn persist(&mut self, record: ActionRecord, actor: Option<&Actor>) -> Option<Stored> {
        let seq = record.seq;
        debug_assert_eq!(seq, self.seq + 1);
        let mut commitments = Vec::new();
        for s in 0..self.record.seats as Seat {
            if self.commitments.iter().any(|c| c.seat == s) {
                continue;
            }
            if let Some(secret_value) = R::locked_secret(&self.table.state, s) {
                let salt = secret::new_salt();
                commitments.push(Commitment {
                    seat: s,
                    hash: secret::commitment(&salt, &secret_value),
                    salt: hex::encode(salt),
                    seq,
                });
            }
        }
        let outcome = match R::status(&self.table.state) {
            Status::Finished(o) => Some(to_value(&o)),
            Status::Waiting { .. } => None,
        };
        // Before the ack, in the same transaction as the final action: the
        // campaign's new state (whoever sees the end can start the next match).
        let campaign = match self.campaign.as_ref().filter(|_| outcome.is_some()) {
            None => Ok(None),
            Some(c) => (c.after)(&c.saved, &self.table.state)
                .map(|saved| Some(CampaignUpdate { id: c.id, version: c.version, saved: Some(saved), start: None })),
        };
        let every = self.ctx.config.snapshot_every;
        #[allow(clippy::manual_is_multiple_of)] // is_multiple_of is newer than our rust-version
        let snapshot = (every > 0 && seq % every == 0)
            .then(|| serde_json::to_string(&self.table.state).expect("engine states serialize"));
        let stored = match campaign {
            Ok(campaign) => {
                let append = Append {
                    match_id: self.id,
                    action: record,
                    commitments: commitments.clone(),
                    outcome: outcome.clone(),
                    standing: Some(R::standing(&self.table.state)),
                    snapshot,
                    campaign,
                    state_hash: Some(crate::audit::record_hash::<R>(&self.table.state)),
                    fence: self.lease.clone(),
                };
                self.ctx.writer.append(append).await
            }
            Err(e) => Err(Refusal::new(Code::Internal, format!("the campaign's next state: {e}"))),
        };
        if let Err(failed) = stored {
            tracing::error!(match_id = %self.id, error = %failed, "action not stored; reloading the room");
            // A paused node can wake to a dead database connection (the
            // server ended its idle transaction) before its fence is even
            // checked: the write then fails for that reason, yet the
            // truth the client needs is that another node holds the room.
            let mut why = failed.server_code().unwrap_or(Code::Internal);
            if why != Code::RoomElsewhere {
                if let Some(fence) = &self.lease {
                    if let Ok(Some(now)) = self.ctx.store.lease(self.id).await {
                        if now.node != *fence.node || now.epoch != fence.epoch {
                            why = Code::RoomElsewhere;
                        }
                    }
                }
            }
            if let Some(actor) = actor {
                self.ctx.metrics.action_rejected(why.code());
                let message = match why {
                    Code::StoreUnavailable => {
                        "the database is unavailable; the action was not stored and nothing changed; send it again shortly"
                    }
                    Code::RoomElsewhere => {
                        "another node took this match over; the action was not stored: reconnect with last_seq"
                    }
                    _ => "the action could not be stored; nothing changed",
                };
                actor.out.send(&Refusal::new(why, message).frame(Some(actor.id)));
            }
            // The table in memory is now ahead of the log: every connection
            // is told why, then dropped; they reconnect with last_seq and the
            // room is rebuilt from what was stored.
            if why == Code::RoomElsewhere {
                self.ctx.metrics.lease_lost();
                self.lease = None;
            }
            let told = match why {
                Code::StoreUnavailable => {
                    Some("the database is unavailable; this game reloads once it is back: reconnect with last_seq")
                }
                Code::RoomElsewhere => Some("another node took this match over: reconnect with last_seq"),
                _ => None,
            };
            for s in &self.subs {
                if let Some(message) = told {
                    s.out.send(&Refusal::new(why, message).frame(None));
                }
                s.out.kick.notify_one();
            }
            return None;
        }
        self.seq = seq;
        if outcome.is_some() {
            self.record.status = MatchStatus::Finished;
        }
        Some(Stored { seq, commitments, finished: outcome.is_some() })
    }
}
