//! A room: one task that owns one live match's state.
//!
//! Connections reach it through [`RoomHandle`] (an `mpsc` channel); it answers
//! joins on a `oneshot` and writes everything else (welcome, ack, error,
//! updates) into each connection's own outbound queue, in order. An accepted
//! action goes: engine `apply` → writer (durable) → ack → per-viewer updates.
//!
//! **Architecture Invariant:** no lock guards game state; only the room task
//! touches it. Views and events are filtered per viewer here, and nothing
//! secret is logged above debug level (actions are logged by type only).

use std::{collections::HashMap, sync::Arc, time::Duration};

use athlas_engine::{Ruleset, Seat, Status, Viewer, Visible};
use athlas_protocol::{code, ServerMsg, PROTOCOL_VERSION};
use serde::Deserialize;
use serde_json::Value;
use tokio::{
    sync::{mpsc, oneshot, watch, Notify},
    time::Instant,
};
use tracing::Instrument;
use uuid::Uuid;

use crate::{
    metrics::Metrics,
    secret,
    store::{ActionRecord, Append, CampaignResult, Commitment, MatchRecord, MatchStatus, Store},
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
}

/// What a room needs from the rest of the server.
#[derive(Clone)]
pub struct RoomCtx {
    pub store: Store,
    pub writer: Writer,
    pub rooms: Arc<Rooms>,
    pub config: RoomConfig,
    pub metrics: Arc<Metrics>,
}

/// A connection's outbound queue, as a room sees it.
#[derive(Clone, Debug)]
pub struct Outbound {
    pub tx: mpsc::Sender<String>,
    /// Notified when the room drops the connection for falling behind.
    pub kick: Arc<Notify>,
}

impl Outbound {
    fn send(&self, msg: &ServerMsg) -> bool {
        let text = serde_json::to_string(msg).expect("server messages serialize");
        self.send_text(text)
    }

    fn send_text(&self, text: String) -> bool {
        self.tx.try_send(text).is_ok()
    }
}

/// Why a room refused a join.
#[derive(Debug, Clone)]
pub enum Refusal {
    /// The room was unloading: try again (a fresh room will load).
    Retry,
    Error {
        code: &'static str,
        message: String,
    },
}

/// Commands a room receives.
#[derive(Debug)]
pub enum RoomCmd {
    /// Subscribe a connection. The room sends the welcome (and what was
    /// missed after `last_seq`) into `out`, then answers with a subscriber id.
    Join {
        viewer: Viewer,
        last_seq: Option<u64>,
        out: Outbound,
        reply: oneshot::Sender<Result<u64, Refusal>>,
    },
    /// An action from subscriber `sub`, in `seat`; answered in its outbound
    /// queue. The connection established the seat (by its token) and
    /// refused spectators: the room trusts it.
    Act {
        sub: u64,
        seat: Seat,
        id: u64,
        action: Value,
    },
    Leave {
        sub: u64,
    },
}

/// A handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<RoomCmd>,
}

/// The rooms in memory, by match id. The lock guards only this map of
/// handles, never game state, and is never held across an await.
pub struct Rooms {
    map: std::sync::Mutex<HashMap<Uuid, (u64, RoomHandle)>>,
    next_generation: std::sync::atomic::AtomicU64,
    /// Room tasks still running (a task outlives its map entry while it
    /// finishes its mailbox), so shutdown can wait for them.
    live: watch::Sender<usize>,
}

impl Default for Rooms {
    fn default() -> Self {
        Rooms { map: Default::default(), next_generation: Default::default(), live: watch::channel(0).0 }
    }
}

/// Counts a running room task while it lives.
struct LiveRoom(Arc<Rooms>);

impl Drop for LiveRoom {
    fn drop(&mut self) {
        self.0.live.send_modify(|n| *n -= 1);
    }
}

impl Rooms {
    /// The room of `id`, spawned with `spawn(generation)` if not in memory.
    pub fn get_or_spawn(&self, id: Uuid, spawn: impl FnOnce(u64) -> RoomHandle) -> RoomHandle {
        let mut map = self.map.lock().expect("rooms map");
        if let Some((_, h)) = map.get(&id) {
            if !h.tx.is_closed() {
                return h.clone();
            }
        }
        let generation = self.next_generation.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let handle = spawn(generation);
        map.insert(id, (generation, handle.clone()));
        handle
    }

    /// Forget room `id` if it is still generation `generation`.
    pub fn remove(&self, id: Uuid, generation: u64) {
        let mut map = self.map.lock().expect("rooms map");
        if map.get(&id).is_some_and(|(g, _)| *g == generation) {
            map.remove(&id);
        }
    }

    /// How many rooms are in memory.
    pub fn len(&self) -> usize {
        self.map.lock().expect("rooms map").len()
    }

    /// Whether no room is in memory.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room tasks running, including ones finishing after being forgotten.
    pub fn live(&self) -> usize {
        *self.live.borrow()
    }

    /// Shutdown: forget every room so that, once the connections holding
    /// handles are gone, each task finishes what is in its mailbox and ends;
    /// then wait for them (at most `grace`). Returns the tasks still running.
    pub async fn close_all(&self, grace: Duration) -> usize {
        self.map.lock().expect("rooms map").clear();
        let mut rx = self.live.subscribe();
        let _ = tokio::time::timeout(grace, rx.wait_for(|n| *n == 0)).await;
        let left = *rx.borrow();
        left
    }
}

struct Sub {
    id: u64,
    viewer: Viewer,
    out: Outbound,
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

struct Room<R: Ruleset> {
    id: Uuid,
    record: MatchRecord,
    options: R::Options,
    state: R::State,
    seq: u64,
    subs: Vec<Sub>,
    next_sub: u64,
    commitments: Vec<Commitment>,
    /// When a live match's timed window runs out.
    deadline: Option<Instant>,
    last_active: Instant,
    ctx: RoomCtx,
}

/// A ruleset a room task can own: its values may cross threads.
pub trait Hosted: Ruleset<State: Send + Sync, Options: Send + Sync, Action: Send, Event: Send> + 'static {}

impl<R> Hosted for R where R: Ruleset<State: Send + Sync, Options: Send + Sync, Action: Send, Event: Send> + 'static {}

/// Spawn the task of room `id`, ruled by `R`. It loads itself from the store.
pub fn spawn<R>(id: Uuid, generation: u64, ctx: RoomCtx) -> RoomHandle
where
    R: Hosted,
{
    let (tx, rx) = mpsc::channel(256);
    ctx.rooms.live.send_modify(|n| *n += 1);
    let live = LiveRoom(ctx.rooms.clone());
    // A root span: the room outlives, and serves every seat besides, the
    // connection whose join happened to load it.
    let span = tracing::info_span!(parent: None, "room", match_id = %id, game = R::GAME);
    tokio::spawn(
        async move {
            let _live = live;
            run::<R>(id, generation, ctx, rx).await;
        }
        .instrument(span),
    );
    RoomHandle { tx }
}

async fn run<R>(id: Uuid, generation: u64, ctx: RoomCtx, mut rx: mpsc::Receiver<RoomCmd>)
where
    R: Hosted,
{
    let refusal = match Room::<R>::load(id, ctx.clone()).await {
        Ok(mut room) => {
            tracing::info!(seq = room.seq, "room loaded");
            room.run(&mut rx).await;
            Refusal::Retry
        }
        Err((code, message)) => {
            tracing::warn!(%message, "room did not load");
            Refusal::Error { code, message }
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
    async fn load(id: Uuid, ctx: RoomCtx) -> Result<Self, (&'static str, String)> {
        let internal = |e: String| (code::INTERNAL, e);
        let record = ctx
            .store
            .get_match(id)
            .await
            .map_err(|e| internal(e.to_string()))?
            .ok_or((code::NOT_FOUND, format!("no match {id}")))?;
        if record.rules_version != R::RULES_VERSION {
            tracing::warn!(match_id = %id, stored = record.rules_version, current = R::RULES_VERSION, "rules version differs; replaying anyway");
        }
        let options: R::Options =
            serde_json::from_value(record.options.clone()).map_err(|e| internal(format!("stored options: {e}")))?;
        let (seq, state) = rebuild::<R>(&ctx.store, &record, &options, None).await?;
        let commitments = ctx.store.commitments(id).await.map_err(|e| internal(e.to_string()))?;
        let mut room = Room {
            id,
            record,
            options,
            state,
            seq,
            subs: Vec::new(),
            next_sub: 0,
            commitments,
            deadline: None,
            last_active: Instant::now(),
            ctx,
        };
        room.arm_timer();
        Ok(room)
    }

    async fn run(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) {
        loop {
            // Connections that ended without a Leave (their queue is gone).
            self.subs.retain(|s| !s.out.tx.is_closed());
            let idle_at = (self.subs.is_empty() && self.deadline.is_none())
                .then(|| self.last_active + self.ctx.config.idle_unload);
            tokio::select! {
                cmd = rx.recv() => {
                    let Some(cmd) = cmd else { return };
                    self.last_active = Instant::now();
                    let healthy = match cmd {
                        RoomCmd::Join { viewer, last_seq, out, reply } => {
                            let result = self.join(viewer, last_seq, out).await;
                            if let Err(Ok(sub)) = reply.send(result) {
                                // The connection went away while joining.
                                self.subs.retain(|s| s.id != sub);
                            }
                            true
                        }
                        RoomCmd::Act { sub, seat, id, action } => self.act(sub, seat, id, action).await,
                        RoomCmd::Leave { sub } => {
                            self.subs.retain(|s| s.id != sub);
                            true
                        }
                    };
                    if !healthy {
                        return;
                    }
                }
                () = sleep_until(self.deadline) => {
                    self.deadline = None;
                    if let Some((seat, action)) = R::timeout_action(&self.state) {
                        let value = to_value(&action);
                        tracing::debug!(seat, action = action_type(&value), "timer ran out");
                        match R::apply(&mut self.state, seat, action) {
                            Ok(events) => {
                                if !self.commit(seat, value, events, None).await {
                                    return;
                                }
                            }
                            Err(e) => tracing::error!(match_id = %self.id, code = e.code, "timeout action rejected"),
                        }
                    }
                }
                () = sleep_until(idle_at) => return,
            }
        }
    }

    fn arm_timer(&mut self) {
        self.deadline =
            (self.record.live && !R::status(&self.state).is_finished() && R::timeout_action(&self.state).is_some())
                .then(|| Instant::now() + self.ctx.config.response_timer);
    }

    /// What is left of the timed window, for the frames that tell players
    /// (a live match's countdown).
    fn timer_ms(&self) -> Option<u64> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()).as_millis() as u64)
    }

    fn status(&self) -> Value {
        to_value(&R::status(&self.state))
    }

    fn is_finished(&self) -> bool {
        R::status(&self.state).is_finished()
    }

    async fn join(&mut self, viewer: Viewer, last_seq: Option<u64>, out: Outbound) -> Result<u64, Refusal> {
        let match_id = self.id.to_string();
        let timer_ms = self.timer_ms();
        let welcome = |seq, status, view, timer_ms| ServerMsg::Welcome {
            protocol: PROTOCOL_VERSION,
            match_id: match_id.clone(),
            game: R::GAME.to_owned(),
            seat: viewer.seat(),
            seq,
            status,
            view,
            timer_ms,
        };
        match last_seq {
            Some(last) if last < self.seq && self.seq - last <= MAX_RESEND => {
                // Gap-free resume: rebuild the state at `last` from the log and
                // replay forward, recomputing what this viewer saw.
                let (seq, mut state) = rebuild::<R>(&self.ctx.store, &self.record, &self.options, Some(last))
                    .await
                    .map_err(|(code, message)| Refusal::Error { code, message })?;
                let log = self
                    .ctx
                    .store
                    .actions_after(self.id, seq)
                    .await
                    .map_err(|e| Refusal::Error { code: code::INTERNAL, message: e.to_string() })?;
                out.send(&welcome(seq, to_value(&R::status(&state)), to_value(&R::view(&state, viewer)), None));
                for a in log.iter().take_while(|a| a.seq <= self.seq) {
                    let events = apply_logged::<R>(&mut state, a)
                        .map_err(|message| Refusal::Error { code: code::INTERNAL, message })?;
                    // Only the update that brings the receiver to now has a clock.
                    let timer = if a.seq == self.seq { timer_ms } else { None };
                    out.send_text(update::<R>(&state, viewer, a.seq, a.seat, &events, timer));
                }
            }
            _ => {
                out.send(&welcome(self.seq, self.status(), to_value(&R::view(&self.state, viewer)), timer_ms));
            }
        }
        for c in &self.commitments {
            out.send(&ServerMsg::Commitment { seat: c.seat, hash: c.hash.clone(), seq: c.seq });
        }
        if self.is_finished() {
            for msg in self.reveals() {
                out.send(&msg);
            }
        }
        let id = self.next_sub;
        self.next_sub += 1;
        self.subs.push(Sub { id, viewer, out });
        Ok(id)
    }

    /// Handle an `act`; false when the room must stop (the store failed).
    async fn act(&mut self, sub: u64, seat: Seat, id: u64, action: Value) -> bool {
        let received = Instant::now();
        let Some(s) = self.subs.iter().find(|s| s.id == sub) else {
            return true;
        };
        let out = s.out.clone();
        let metrics = self.ctx.metrics.clone();
        let reply_err = |code: &'static str, message: String| {
            metrics.action_rejected(code);
            out.send(&ServerMsg::error(Some(id), code, message));
        };
        if self.is_finished() {
            reply_err(code::FINISHED, "the match is over".into());
            return true;
        }
        // The action's only typed parse; the connection parsed the envelope.
        let parsed = match R::Action::deserialize(&action) {
            Ok(a) => a,
            Err(e) => {
                reply_err(code::BAD_ACTION, format!("not a {} action: {e}", R::GAME));
                return true;
            }
        };
        match R::apply(&mut self.state, seat, parsed) {
            Ok(events) => {
                // DEBUG: one line per action is too much for production logs.
                tracing::debug!(seat, action = action_type(&action), "action accepted");
                self.commit(seat, action, events, Some(Actor { out, id, received })).await
            }
            Err(e) => {
                tracing::debug!(seat, code = e.code, "action rejected");
                reply_err(e.code, e.message);
                true
            }
        }
    }

    /// Store an applied action, then ack and broadcast. False when the store
    /// failed: the in-memory state is then ahead of the log, so the room must
    /// stop and be rebuilt from the store.
    async fn commit(&mut self, seat: Seat, action: Value, events: Vec<R::Event>, actor: Option<Actor>) -> bool {
        match self.persist(seat, action, actor.as_ref()).await {
            Some(stored) => {
                self.publish(seat, &events, stored, actor);
                true
            }
            None => false,
        }
    }

    /// Everything up to durable: commit to newly locked secrets, snapshot
    /// now and then, and hand the action (with the outcome and a campaign's
    /// result when it ends the game) to the writer, one transaction. On
    /// failure, tell the actor and drop every connection; `None`.
    async fn persist(&mut self, seat: Seat, action: Value, actor: Option<&Actor>) -> Option<Stored> {
        let seq = self.seq + 1;
        let mut commitments = Vec::new();
        for s in 0..self.record.seats as Seat {
            if self.commitments.iter().any(|c| c.seat == s) {
                continue;
            }
            if let Some(secret_value) = R::locked_secret(&self.state, s) {
                let salt = secret::new_salt();
                commitments.push(Commitment {
                    seat: s,
                    hash: secret::commitment(&salt, &secret_value),
                    salt: hex::encode(salt),
                    seq,
                });
            }
        }
        let outcome = match R::status(&self.state) {
            Status::Finished(o) => Some(to_value(&o)),
            Status::Waiting { .. } => None,
        };
        // Before the ack, in the same transaction: whoever sees the end can
        // start the campaign's next game.
        let campaign = self.record.campaign_id.zip(outcome.clone()).map(|(campaign_id, outcome)| CampaignResult {
            campaign_id,
            outcome,
            secrets: (0..self.record.seats as Seat)
                .map(|s| R::locked_secret(&self.state, s).unwrap_or(Value::Null))
                .collect(),
        });
        let every = self.ctx.config.snapshot_every;
        #[allow(clippy::manual_is_multiple_of)] // is_multiple_of is newer than our rust-version
        let snapshot = (every > 0 && seq % every == 0).then(|| to_value(&self.state));
        let append = Append {
            match_id: self.id,
            action: ActionRecord { seq, seat, action },
            commitments: commitments.clone(),
            outcome: outcome.clone(),
            snapshot,
            campaign,
        };
        if let Err(e) = self.ctx.writer.append(append).await {
            tracing::error!(match_id = %self.id, error = %e, "action not stored; reloading the room");
            if let Some(actor) = actor {
                self.ctx.metrics.action_rejected(code::INTERNAL);
                actor.out.send(&ServerMsg::error(
                    Some(actor.id),
                    code::INTERNAL,
                    "the action could not be stored; nothing changed",
                ));
            }
            for s in &self.subs {
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

    /// Everything after durable: the actor's ack (and its latency), each
    /// connection's own update, new commitments, the reveals at the end,
    /// dropping connections that fell behind, and the next timed window.
    fn publish(&mut self, seat: Seat, events: &[R::Event], stored: Stored, actor: Option<Actor>) {
        let Stored { seq, commitments, finished } = stored;
        if finished {
            tracing::info!(seq, "match finished");
        }
        if let Some(actor) = actor {
            self.ctx.metrics.action_accepted();
            self.ctx.metrics.ack_latency.observe(actor.received.elapsed());
            actor.out.send(&ServerMsg::Ack { id: actor.id, seq });
        }
        // The next timed window opens with this change: its clock goes out
        // in the same update.
        self.arm_timer();
        let timer_ms = self.timer_ms();
        let mut lagging = Vec::new();
        for s in &self.subs {
            if !s.out.send_text(update::<R>(&self.state, s.viewer, seq, seat, events, timer_ms)) {
                lagging.push(s.id);
            }
        }
        let mut public: Vec<ServerMsg> = commitments
            .iter()
            .map(|c| ServerMsg::Commitment { seat: c.seat, hash: c.hash.clone(), seq: c.seq })
            .collect();
        self.commitments.extend(commitments);
        if finished {
            public.extend(self.reveals());
        }
        for msg in &public {
            for s in &self.subs {
                if !s.out.send(msg) {
                    lagging.push(s.id);
                }
            }
        }
        if !lagging.is_empty() {
            self.subs.retain(|s| {
                let keep = !lagging.contains(&s.id);
                if !keep {
                    s.out.kick.notify_one();
                }
                keep
            });
        }
    }

    /// The reveal of every commitment, and the seed: only once finished.
    fn reveals(&self) -> Vec<ServerMsg> {
        let mut msgs: Vec<ServerMsg> = self
            .commitments
            .iter()
            .map(|c| ServerMsg::Reveal {
                seat: c.seat,
                salt: c.salt.clone(),
                secret: R::locked_secret(&self.state, c.seat).unwrap_or(Value::Null),
                hash: c.hash.clone(),
            })
            .collect();
        msgs.push(ServerMsg::Seed { seed: self.record.seed.to_string() });
        msgs
    }
}

/// The `update` frame of `ServerMsg::Update` for one viewer, serialized
/// straight from the engine's values: going through `serde_json::Value`
/// first cost more than the engine's own work (a map allocation per field).
fn update<R: Ruleset>(
    state: &R::State,
    viewer: Viewer,
    seq: u64,
    seat: Seat,
    events: &[R::Event],
    timer_ms: Option<u64>,
) -> String {
    #[derive(serde::Serialize)]
    #[serde(tag = "type", rename = "update")]
    struct Frame<'a, E, S, V> {
        seq: u64,
        seat: Seat,
        events: Vec<&'a E>,
        status: S,
        view: V,
        #[serde(skip_serializing_if = "Option::is_none")]
        timer_ms: Option<u64>,
    }
    let frame = Frame {
        seq,
        seat,
        events: events.iter().filter(|e| e.visible_to(viewer)).collect(),
        status: R::status(state),
        view: R::view(state, viewer),
        timer_ms,
    };
    serde_json::to_string(&frame).expect("engine values serialize")
}

fn apply_logged<R: Ruleset>(state: &mut R::State, a: &ActionRecord) -> Result<Vec<R::Event>, String> {
    let action: R::Action =
        serde_json::from_value(a.action.clone()).map_err(|e| format!("stored action {}: {e}", a.seq))?;
    R::apply(state, a.seat, action).map_err(|e| format!("stored action {} rejected on replay: {e}", a.seq))
}

/// The state after the latest snapshot at or before `at_most` (or the start,
/// when there is none or it no longer parses) and every stored action after
/// it, up to `at_most`.
async fn rebuild<R: Ruleset>(
    store: &Store,
    record: &MatchRecord,
    options: &R::Options,
    at_most: Option<u64>,
) -> Result<(u64, R::State), (&'static str, String)> {
    let internal = |e: String| (code::INTERNAL, e);
    let start = || R::start(options, record.seed).map_err(|e| internal(format!("setup: {e}")));
    let (mut seq, mut state) = match store
        .latest_snapshot(record.id, at_most)
        .await
        .map_err(|e| internal(e.to_string()))?
    {
        Some((seq, state)) => match serde_json::from_value(state) {
            Ok(state) => (seq, state),
            // A snapshot of an older state shape: snapshots only save
            // time, and the log replays to the same state from the start.
            Err(e) => {
                tracing::warn!(match_id = %record.id, seq, error = %e, "snapshot does not load; replaying from the start");
                (0, start()?)
            }
        },
        None => (0, start()?),
    };
    if at_most.is_some_and(|m| m <= seq) {
        return Ok((seq, state));
    }
    for a in store.actions_after(record.id, seq).await.map_err(|e| internal(e.to_string()))? {
        if at_most.is_some_and(|m| a.seq > m) {
            break;
        }
        apply_logged::<R>(&mut state, &a).map_err(internal)?;
        seq = a.seq;
    }
    Ok((seq, state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_engine::duel::{Duel, DuelAction, DuelOptions};

    /// The directly serialized update is exactly `ServerMsg::Update`.
    #[test]
    fn update_frames_are_server_msg_updates() {
        let mut state = Duel::start(&DuelOptions::default(), 7).unwrap();
        let events = Duel::apply(&mut state, 0, DuelAction::UsePreset { preset: "aquatic".into() }).unwrap();
        for (viewer, timer_ms) in [(Viewer::Seat(0), None), (Viewer::Seat(1), Some(1500)), (Viewer::Spectator, None)] {
            let text = update::<Duel>(&state, viewer, 3, 0, &events, timer_ms);
            let expected = ServerMsg::Update {
                seq: 3,
                seat: 0,
                events: events.iter().filter(|e| e.visible_to(viewer)).map(to_value).collect(),
                status: to_value(&Duel::status(&state)),
                view: to_value(&Duel::view(&state, viewer)),
                timer_ms,
            };
            let parsed: ServerMsg = serde_json::from_str(&text).unwrap();
            assert_eq!(to_value(&parsed), to_value(&expected), "{viewer:?}");
        }
    }
}
