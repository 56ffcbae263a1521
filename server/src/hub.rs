//! The hub: what every handler shares (config, store, games, rooms,
//! metrics), how a connection finds its room, the connection count, and
//! graceful shutdown.

use std::{sync::Arc, time::Duration};

use athlas_engine::Viewer;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use uuid::Uuid;

use crate::{
    config::Config,
    games::Registry,
    limits::Peers,
    metrics,
    push::{Push, PushSettings},
    refusal::{Code, Refusal},
    room::{Joining, Outbound, RoomCmd, RoomCtx, RoomHandle, Rooms},
    store::{self, Store},
    writer,
};

/// Everything the handlers share.
pub struct Hub {
    pub config: Config,
    pub store: Store,
    pub games: Registry,
    pub rooms: Arc<Rooms>,
    pub metrics: Arc<metrics::Metrics>,
    /// Per-address connections, lobby requests and failed guesses.
    pub peers: Arc<Peers>,
    /// Finished matches folded for the replay viewer, the latest kept.
    pub replays: crate::replay::Replays,
    /// Web Push: "your turn" to a closed page.
    pub push: Arc<Push>,
    ctx: RoomCtx,
    /// Flips to true when the server shuts down; connections watch it.
    shutdown: watch::Sender<bool>,
    /// A permit per open WebSocket connection, [`Hub::capacity`] in all:
    /// the connection cap, and what shutdown waits for.
    connections: Arc<Semaphore>,
    capacity: u32,
}

/// An open connection's place under the cap, given back when dropped.
pub struct ConnectionGuard {
    _permit: OwnedSemaphorePermit,
}

impl Hub {
    /// Open the store the config names, run migrations, start the writer.
    ///
    /// # Errors
    /// When the store cannot be opened or migrated.
    pub async fn open(config: Config, games: Registry) -> Result<Arc<Hub>, store::StoreError> {
        let store = Store::open(config.database_url.as_deref(), &config.data_dir).await?;
        Ok(Hub::with_store(config, games, store))
    }

    /// A hub over an already opened store.
    pub fn with_store(config: Config, games: Registry, store: Store) -> Arc<Hub> {
        let rooms = Arc::new(Rooms::default());
        let metrics = Arc::new(metrics::Metrics::default());
        let settings = PushSettings { subject: config.push_subject.clone(), allow_http: config.push_allow_http };
        let push = Push::new(store.clone(), settings);
        let ctx = RoomCtx {
            store: store.clone(),
            writer: writer::Writer::spawn(
                store.clone(),
                metrics.clone(),
                std::time::Duration::from_millis(config.commit_delay_ms),
            ),
            rooms: rooms.clone(),
            config: config.room(),
            metrics: metrics.clone(),
            push: push.clone(),
        };
        // A semaphore holds at most `MAX_PERMITS`, and shutdown takes every
        // permit at once (a u32): a larger cap means "as many as that".
        let capacity = config.max_connections.min(Semaphore::MAX_PERMITS).min(u32::MAX as usize) as u32;
        Arc::new(Hub {
            peers: Peers::new(config.peer_limits()),
            replays: Default::default(),
            push,
            config,
            store,
            games,
            rooms,
            metrics,
            ctx,
            shutdown: watch::channel(false).0,
            connections: Arc::new(Semaphore::new(capacity as usize)),
            capacity,
        })
    }

    fn room(&self, match_id: Uuid, game: &str) -> Option<RoomHandle> {
        let game = self.games.get(game)?.clone();
        let ctx = self.ctx.clone();
        Some(self.rooms.get_or_spawn(match_id, |generation| game.spawn_room(match_id, generation, ctx)))
    }

    /// Subscribe a connection to a match's room, loading the room if needed.
    ///
    /// # Errors
    /// The room's refusal (unknown match, a store failure).
    pub async fn subscribe(
        &self,
        match_id: Uuid,
        game: &str,
        viewer: Viewer,
        last_seq: Option<u64>,
        out: Outbound,
    ) -> Result<(RoomHandle, u64), Joining> {
        for _ in 0..5 {
            let room = self.room(match_id, game).ok_or_else(|| {
                Joining::Refused(Refusal::new(Code::UnknownGame, format!("this server does not host {game}")))
            })?;
            let (reply, rx) = tokio::sync::oneshot::channel();
            let cmd = RoomCmd::Join { viewer, last_seq, out: out.clone(), reply };
            if room.tx.send(cmd).await.is_err() {
                continue;
            }
            match rx.await {
                Ok(Ok(sub)) => return Ok((room, sub)),
                Ok(Err(Joining::Retry)) | Err(_) => continue,
                Ok(Err(e)) => return Err(e),
            }
        }
        Err(Joining::Refused(Refusal::new(Code::Internal, "the match could not be loaded")))
    }

    /// A place for a new connection; `None` once shutting down or when the
    /// server already holds `max_connections`.
    pub fn connection_guard(&self) -> Option<ConnectionGuard> {
        if self.is_shutting_down() {
            return None;
        }
        self.connections.clone().try_acquire_owned().ok().map(|permit| ConnectionGuard { _permit: permit })
    }

    /// This node's id in cluster mode; `None` outside it.
    pub fn node(&self) -> Option<&str> {
        self.ctx.config.cluster.as_ref().map(|c| &*c.node)
    }

    /// Open WebSocket connections.
    pub fn open_connections(&self) -> usize {
        self.capacity as usize - self.connections.available_permits()
    }

    /// Whether shutdown has begun.
    pub fn is_shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Watch for shutdown.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Begin shutdown: refuse new connections and tell open ones to close.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Tell every connection to close and wait for them, let every room
    /// finish the actions already in its mailbox (each is stored before
    /// its ack), then close the store. Each wait lasts at most `grace`.
    pub async fn shutdown(&self, grace: Duration) {
        self.begin_shutdown();
        // Every permit back means every connection is gone.
        if tokio::time::timeout(grace, self.connections.acquire_many(self.capacity)).await.is_err() {
            tracing::warn!(open = self.open_connections(), "connections still open after the grace period");
        }
        let left = self.rooms.close_all(grace).await;
        if left > 0 {
            tracing::warn!(rooms = left, "rooms still busy after the grace period");
        }
        self.store.close().await;
        tracing::info!("store closed");
    }
}
