//! A room: one task that owns one live match's state.
//!
//! Connections reach it through [`RoomHandle`] (an `mpsc` channel); it answers
//! joins on a `oneshot` and writes everything else (welcome, ack, error,
//! updates) into each connection's own outbound queue, in order. An accepted
//! action goes: engine `apply` → writer (durable) → ack → per-viewer updates.
//! This file is the loop and its commands (join, act, take back, hand) and
//! `commit` = `persist` then `publish`; the frames each receiver gets are
//! built in [`frames`], the table is folded from the log in [`rebuild`], and
//! the registry of rooms in memory is [`Rooms`] (`rooms`).
//!
//! **Architecture Invariant:** no lock guards game state; only the room task
//! touches it. Views and events are filtered per viewer here, and nothing
//! secret is logged above debug level (actions are logged by type only).

use std::{collections::HashMap, sync::Arc, time::Duration};

use athlas_engine::{Ruleset, Seat, Viewer};
use serde_json::Value;
use tokio::{
    sync::{mpsc, watch},
    time::Instant,
};
use tracing::Instrument;
use uuid::Uuid;

mod auto;
mod commit;
mod frames;
mod handle;
mod log;
mod moves;
mod names;
mod rebuild;
mod rooms;
mod talk;

use frames::Published;
pub use handle::{encode, Frame, Joining, Outbound, RoomCmd, RoomHandle};
use log::WordLog;
use rebuild::{rebuild, rebuild_with_log, store_failed};
use rooms::LiveRoom;
pub use rooms::Rooms;

pub use crate::hosted::Hosted;
use crate::refusal::{Code, Refusal};
use crate::{
    metrics::Metrics,
    store::{ActionRecord, Commitment, Fence, MatchRecord, Store},
    table::Table,
    writer::Writer,
};

/// The largest gap resent update by update on reconnect; past it the
/// connection gets a fresh welcome with the full current view.
pub const MAX_RESEND: u64 = 512;

/// Timings and sizes a room needs.
#[derive(Debug, Clone)]
pub struct RoomConfig {
    /// How long a live match's timed window (a DI response window) stays open.
    pub response_timer: Duration,
    /// How long a room with no connection stays in memory.
    pub idle_unload: Duration,
    /// A snapshot is stored every this many actions (0: never).
    pub snapshot_every: u64,
    /// How long a player must be away before the host or the leader may
    /// hand that player's seat to another.
    pub hand_absent: Duration,
    /// Cluster mode: rooms are held by lease (`None`: this node alone).
    pub cluster: Option<Cluster>,
}

/// A node of a cluster, as its rooms see it.
#[derive(Debug, Clone)]
pub struct Cluster {
    pub node: Arc<str>,
    /// Where players reach this node (its WebSocket URL).
    pub url: Arc<str>,
    /// Where the other nodes reach it, to relay sockets (`--peer-url`).
    pub peer_url: Arc<str>,
    /// How long a lease lasts unrenewed.
    pub lease: Duration,
    /// How often a room renews its lease.
    pub renew: Duration,
}

/// What a room needs from the rest of the server.
#[derive(Clone)]
pub struct RoomCtx {
    pub store: Store,
    pub writer: Writer,
    pub rooms: Arc<Rooms>,
    pub config: RoomConfig,
    pub metrics: Arc<Metrics>,
    /// Web Push: a correspondence turn told to a seat whose page is closed.
    pub push: Arc<crate::push::Push>,
}

struct Sub {
    id: u64,
    viewer: Viewer,
    out: Outbound,
    /// What this connection may still say at the table now.
    chat: talk::ChatAllowance,
}

/// Who sent the action being committed (none for a timer's action).
struct Actor {
    out: Outbound,
    /// The client's own number for the action.
    id: u64,
    received: Instant,
}

/// An action made durable, ready to publish.
struct Stored {
    seq: u64,
    /// Secrets locked by this action, now committed to.
    commitments: Vec<Commitment>,
    /// This action ended the match.
    finished: bool,
}

/// How a campaign goes on after one of its matches finished in a state:
/// the game's `Campaign::after`, erased over the saved value (see
/// `games::after`).
pub type After<R> = fn(&Value, &<R as Ruleset>::State) -> Result<Value, String>;

/// The campaign a match belongs to, as its room needs it at the end.
struct CampaignLink<R: Ruleset> {
    id: Uuid,
    /// The campaign's state this match started from, read when the room
    /// loaded: it cannot change while the match is on (the lobby refuses
    /// choices and new matches meanwhile).
    saved: Value,
    /// Its version then: the final write is refused if another came first.
    version: u64,
    after: After<R>,
}

struct Room<R: Ruleset> {
    id: Uuid,
    record: MatchRecord,
    options: R::Options,
    /// The engine state, the take-back window and who controls each seat.
    table: Table<R>,
    seq: u64,
    /// Since when each seat has had no connection (`None`: connected).
    absent_since: Vec<Option<Instant>>,
    subs: Vec<Sub>,
    next_sub: u64,
    commitments: Vec<Commitment>,
    /// The board as of `seq` ([`Ruleset::board_key`]): an update whose
    /// board is the same leaves it out, as every receiver has it.
    board: Option<Vec<u8>>,
    /// A view of the last record sent, for the next record's views to copy
    /// the unchanged parts of ([`Ruleset::views`]).
    last_view: Option<R::View>,
    /// The match's events in words, for welcomes (a game with
    /// [`Ruleset::WORDS`]; empty for the others).
    log: WordLog,
    /// The party's proposal now, if any (`room/talk.rs`).
    proposal: Option<talk::Proposal>,
    /// How long a timed decision may take in this match: its own turn
    /// timer, else the server's response timer for a live match; `None`:
    /// nothing is timed.
    timer: Option<Duration>,
    /// When the timed decision runs out, and whose it is.
    deadline: Option<Instant>,
    timed_seat: Option<Seat>,
    /// When the server takes a seat's automatic action ([`auto`]).
    auto_at: Option<Instant>,
    /// Where the room tells who is connected (see [`RoomHandle::connected`]).
    connected: watch::Sender<Vec<Seat>>,
    /// The seats the game waited for after the latest record: a push goes
    /// only to a seat it starts waiting for.
    waiting: Vec<Seat>,
    last_active: Instant,
    campaign: Option<CampaignLink<R>>,
    /// Cluster mode: the lease this room holds (every append carries it),
    /// and when to renew it next.
    lease: Option<Fence>,
    renew_at: Option<Instant>,
    ctx: RoomCtx,
}

/// Spawn the task of room `id`, ruled by `R`. It loads itself from the store.
/// `after`: the game's campaign variant, for a match of a campaign.
pub fn spawn<R>(id: Uuid, generation: u64, ctx: RoomCtx, after: Option<After<R>>) -> RoomHandle
where
    R: Hosted,
{
    let (tx, rx) = mpsc::channel(256);
    let (connected, connected_rx) = watch::channel(Vec::new());
    ctx.rooms.live.send_modify(|n| *n += 1);
    let live = LiveRoom(ctx.rooms.clone());
    // A root span: the room outlives, and serves every seat besides, the
    // connection whose join happened to load it.
    let span = tracing::info_span!(parent: None, "room", match_id = %id, game = R::GAME);
    tokio::spawn(
        async move {
            let _live = live;
            run::<R>(id, generation, ctx, rx, after, connected).await;
        }
        .instrument(span),
    );
    RoomHandle { tx, connected: connected_rx }
}

async fn run<R>(
    id: Uuid,
    generation: u64,
    ctx: RoomCtx,
    mut rx: mpsc::Receiver<RoomCmd>,
    after: Option<After<R>>,
    connected: watch::Sender<Vec<Seat>>,
) where
    R: Hosted,
{
    // Boxed, as every awaited step of a room's life below: a room's task
    // otherwise holds the largest of them (the store's queries) for as long
    // as the room is loaded, some 17 KiB a room (heaptrack).
    let refusal = match Box::pin(Room::<R>::load(id, ctx.clone(), after, connected)).await {
        Ok(mut room) => {
            tracing::info!(seq = room.seq, "room loaded");
            room.run(&mut rx).await;
            Box::pin(room.release()).await;
            Joining::Retry
        }
        Err(refusal) => {
            // Another node holding the match is a cluster working as
            // designed (counted by `athlas_redirects_total`); anything
            // else is worth an operator's look.
            if let Refusal::Server(Code::RoomElsewhere, message) = &refusal {
                tracing::debug!(%message, "room held elsewhere");
            } else {
                tracing::warn!(message = %refusal, "room did not load");
            }
            Joining::Refused(refusal)
        }
    };
    ctx.rooms.remove(id, generation);
    rx.close();
    while let Ok(cmd) = rx.try_recv() {
        if let RoomCmd::Join { reply, .. } = cmd {
            drop(reply.send(Err(refusal.clone())));
        }
    }
    tracing::info!("room unloaded");
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

fn to_value(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).expect("engine values serialize")
}

/// The `type` of an action, the only part of it that is logged.
fn action_type(action: &Value) -> &str {
    action.get("type").and_then(Value::as_str).unwrap_or("?")
}

impl<R> Room<R>
where
    R: Hosted,
{
    async fn load(
        id: Uuid,
        ctx: RoomCtx,
        after: Option<After<R>>,
        connected: watch::Sender<Vec<Seat>>,
    ) -> Result<Self, Refusal> {
        let internal = |e: String| Refusal::new(Code::Internal, e);
        let record = ctx
            .store
            .get_match(id)
            .await
            .map_err(store_failed)?
            .ok_or_else(|| Refusal::new(Code::NotFound, format!("no match {id}")))?;
        // A log replays the same only under the rules it was played by:
        // an old match is refused, never replayed differently.
        if record.rules_version != R::RULES_VERSION {
            tracing::warn!(match_id = %id, stored = record.rules_version, current = R::RULES_VERSION, "rules version not supported; match not loaded");
            return Err(Refusal::new(
                Code::UnsupportedRulesVersion,
                format!(
                    "this match was played under {} rules version {}; this server plays version {} and will not replay it differently (see docs/OPERATIONS.md, upgrades)",
                    R::GAME,
                    record.rules_version,
                    R::RULES_VERSION
                ),
            ));
        }
        // In a cluster the lease comes first: whatever the last holder
        // stored before it lost the room is then in the log read below.
        let lease = match &ctx.config.cluster {
            None => None,
            Some(c) => {
                match ctx.store.claim_lease(id, &c.node, &c.url, &c.peer_url, c.lease).await.map_err(store_failed)? {
                    Some(fence) => {
                        tracing::info!(node = %fence.node, epoch = fence.epoch, "lease claimed");
                        ctx.metrics.lease_claimed();
                        Some(fence)
                    }
                    None => {
                        let holder = ctx.store.lease(id).await.ok().flatten();
                        return Err(Refusal::new(
                        Code::RoomElsewhere,
                        match holder {
                            Some(l) => format!(
                                "node {} plays this match now (its lease runs {} ms more): reconnect through the cluster's front, or retry shortly",
                                l.node,
                                l.expires_in_ms.max(0)
                            ),
                            None => "another node plays this match now: retry shortly".into(),
                        },
                    ));
                    }
                }
            }
        };
        let renew_at = ctx.config.cluster.as_ref().map(|c| Instant::now() + c.renew);
        let options: R::Options =
            serde_json::from_value(record.options.clone()).map_err(|e| internal(format!("stored options: {e}")))?;
        // A game with words folds its whole log, to tell a newcomer what
        // happened before (a snapshot skips the events); the others start
        // from the latest snapshot.
        let (seq, table, log) = if R::WORDS {
            rebuild_with_log::<R>(&ctx.store, &record, &options).await?
        } else {
            let (seq, table) = rebuild::<R>(&ctx.store, &record, &options, None).await?;
            (seq, table, WordLog::default())
        };
        let commitments = ctx.store.commitments(id).await.map_err(store_failed)?;
        let campaign = match (record.campaign_id, after) {
            (Some(campaign_id), Some(after)) => {
                let c = ctx
                    .store
                    .campaign(campaign_id)
                    .await
                    .map_err(store_failed)?
                    .ok_or_else(|| internal(format!("no campaign {campaign_id}")))?;
                Some(CampaignLink { id: campaign_id, saved: c.saved, version: c.version, after })
            }
            _ => None,
        };
        let timer =
            record.turn_timer_ms.map(Duration::from_millis).or(record.live.then_some(ctx.config.response_timer));
        let board = R::board_key(&table.state);
        let mut room = Room {
            id,
            timer,
            timed_seat: None,
            waiting: crate::push::waiting(&R::status(&table.state)),
            connected,
            record,
            options,
            absent_since: vec![Some(Instant::now()); table.control.len()],
            table,
            seq,
            subs: Vec::new(),
            next_sub: 0,
            commitments,
            board,
            last_view: None,
            log,
            proposal: None,
            deadline: None,
            auto_at: None,
            last_active: Instant::now(),
            campaign,
            lease,
            renew_at,
            ctx,
        };
        room.arm_timer();
        Ok(room)
    }

    async fn run(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) {
        loop {
            // Connections that ended without a Leave (their queue is gone).
            self.prune(None);
            let idle_at = (self.subs.is_empty() && self.deadline.is_none() && self.auto_at.is_none())
                .then(|| self.last_active + self.ctx.config.idle_unload);
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { return };
                    self.last_active = Instant::now();
                    let healthy = match cmd {
                        RoomCmd::Join { viewer, last_seq, out, reply } => {
                            let result = Box::pin(self.join(viewer, last_seq, out)).await;
                            if let Err(Ok(sub)) = reply.send(result) {
                                // The connection went away while joining.
                                self.subs.retain(|s| s.id != sub);
                            }
                            true
                        }
                        RoomCmd::Act { sub, player, seat, id, action } => {
                            Box::pin(self.act(sub, player, seat, id, action)).await
                        }
                        RoomCmd::TakeBack { sub, player, id } => Box::pin(self.take_back(sub, player, id)).await,
                        RoomCmd::Hand { sub, player, id, hand } => Box::pin(self.hand(sub, player, id, hand)).await,
                        RoomCmd::Propose { sub, player, seat, id, action } => {
                            Box::pin(self.propose(sub, player, seat, id, action)).await
                        }
                        RoomCmd::Agree { sub, player, id } => Box::pin(self.agree(sub, player, id)).await,
                        RoomCmd::Object { sub, player, id } => {
                            self.object(sub, player, id);
                            true
                        }
                        RoomCmd::Chat { sub, id, text } => {
                            Box::pin(self.chat(sub, id, text)).await;
                            true
                        }
                        RoomCmd::Leave { sub } => {
                            self.prune(Some(sub));
                            true
                        }
                    };
                    if !healthy {
                        return;
                    }
                }
                () = sleep_until(self.renew_at) => {
                    if !Box::pin(self.renew()).await {
                        return;
                    }
                }
                () = sleep_until(self.deadline) => {
                    self.deadline = None;
                    if let Some((seat, action)) = R::timeout_action(&self.table.state) {
                        let value = to_value(&action);
                        tracing::debug!(seat, action = action_type(&value), "timer ran out");
                        match self.table.act(self.seq + 1, seat, action) {
                            Ok(acted) => {
                                let record = ActionRecord::action(self.seq + 1, seat, value);
                                if !Box::pin(self.commit(record, Published::Events(acted), None)).await {
                                    return;
                                }
                            }
                            Err(e) => tracing::error!(match_id = %self.id, code = e.code, "timeout action rejected"),
                        }
                    }
                }
                () = sleep_until(self.auto_at) => {
                    if !Box::pin(self.take_auto()).await {
                        return;
                    }
                }
                () = sleep_until(idle_at) => return,
            }
        }
    }

    /// Open (or keep, or close) the clock of the decision the game times
    /// now. A match's own turn timer runs for the whole decision, so the
    /// seat's own actions inside it do not reset it; the response window of
    /// a live match opens afresh with every change, as before.
    fn arm_timer(&mut self) {
        let timed = match self.timer {
            Some(timer) if !self.is_finished() => R::timeout_action(&self.table.state).map(|(seat, _)| (seat, timer)),
            _ => None,
        };
        let whole_turn = self.record.turn_timer_ms.is_some();
        self.deadline = match (timed, self.deadline) {
            (Some((seat, _)), Some(at)) if whole_turn && self.timed_seat == Some(seat) => Some(at),
            (Some((_, timer)), _) => Some(Instant::now() + timer),
            (None, _) => None,
        };
        self.timed_seat = timed.map(|(seat, _)| seat);
        self.arm_auto();
    }

    /// What is left of the timed window, for the frames that tell players
    /// (a live match's countdown).
    fn timer_ms(&self) -> Option<u64> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()).as_millis() as u64)
    }

    fn is_finished(&self) -> bool {
        R::status(&self.table.state).is_finished()
    }

    /// Cluster mode: extend the lease. `false` when another node took the
    /// room over: every connection is told and dropped, the room unloads.
    /// A database that does not answer is tried again soon; meanwhile the
    /// lease may expire, and then the fence refuses this room's writes.
    async fn renew(&mut self) -> bool {
        let (Some(fence), Some(cluster)) = (&self.lease, &self.ctx.config.cluster) else {
            self.renew_at = None;
            return true;
        };
        match self.ctx.store.renew_lease(self.id, fence, cluster.lease).await {
            Ok(true) => {
                self.renew_at = Some(Instant::now() + cluster.renew);
                true
            }
            Ok(false) => {
                // A takeover as designed (`athlas_leases_lost_total`).
                tracing::info!(node = %fence.node, epoch = fence.epoch, "lease lost to another node; unloading");
                self.ctx.metrics.lease_lost();
                self.lease = None;
                self.drop_all(Code::RoomElsewhere, "another node took this match over: reconnect with last_seq");
                false
            }
            Err(e) => {
                tracing::warn!(error = %e, "lease not renewed; trying again");
                self.renew_at = Some(Instant::now() + cluster.renew / 2);
                true
            }
        }
    }

    /// Tell every connection `code` and drop it (they reconnect with `last_seq`).
    fn drop_all(&self, code: Code, message: &str) {
        for s in &self.subs {
            s.out.send(&Refusal::new(code, message).frame(None));
            s.out.kick.notify_one();
        }
    }

    /// Cluster mode: give the lease back as the room unloads, so the next
    /// node to be asked takes it at once.
    async fn release(&self) {
        if let Some(fence) = &self.lease {
            if let Err(e) = self.ctx.store.release_lease(self.id, fence).await {
                tracing::warn!(error = %e, "lease not released; it expires on its own");
            }
        }
    }

    /// Forget subscriber `gone` (if any) and connections whose queue is
    /// gone; note when a seat lost its last connection.
    fn prune(&mut self, gone: Option<u64>) {
        self.subs.retain(|s| Some(s.id) != gone && !s.out.tx.is_closed());
        self.tell_connected();
        for (seat, since) in self.absent_since.iter_mut().enumerate() {
            let connected = self.subs.iter().any(|s| s.viewer == Viewer::Seat(seat as Seat));
            match (connected, *since) {
                (true, _) => *since = None,
                (false, None) => *since = Some(Instant::now()),
                (false, Some(_)) => {}
            }
        }
    }

    /// Publish the seats connected now, when that changed.
    fn tell_connected(&self) {
        let mut seats: Vec<Seat> = self
            .subs
            .iter()
            .filter_map(|s| if let Viewer::Seat(seat) = s.viewer { Some(seat) } else { None })
            .collect();
        seats.sort_unstable();
        seats.dedup();
        self.connected.send_if_modified(|now| {
            let changed = *now != seats;
            *now = std::mem::take(&mut seats);
            changed
        });
    }

    /// Subscribe a connection: its welcome (or, resuming after `last_seq`,
    /// the updates it missed), the commitments and, at the end, the reveals.
    async fn join(&mut self, viewer: Viewer, last_seq: Option<u64>, out: Outbound) -> Result<u64, Joining> {
        self.learn_names(viewer).await;
        match last_seq {
            Some(last) if last < self.seq && self.seq - last <= MAX_RESEND => self.resume(viewer, last, &out).await?,
            _ => {
                let mut cache = HashMap::new();
                let legal = self.legal_for(viewer, None, out.legal, &mut cache);
                out.send(&self.welcome(viewer, self.seq, &self.table, self.timer_ms(), legal));
            }
        }
        self.send_secrets(&out);
        self.send_talk(viewer, &out).await;
        let id = self.next_sub;
        self.next_sub += 1;
        if let Viewer::Seat(seat) = viewer {
            if let Some(since) = self.absent_since.get_mut(seat as usize) {
                *since = None;
            }
        }
        self.subs.push(Sub { id, viewer, out, chat: Default::default() });
        self.tell_connected();
        Ok(id)
    }
}
