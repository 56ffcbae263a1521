//! The hub: what every handler shares (config, store, games, rooms,
//! metrics), how a connection finds its room, the connection count, and
//! graceful shutdown.

use std::{sync::Arc, time::Duration};

use athlas_engine::Viewer;
use tokio::sync::watch;
use uuid::Uuid;

use crate::{
    config::Config,
    games::Registry,
    metrics,
    room::{Outbound, Refusal, RoomCmd, RoomCtx, RoomHandle, Rooms},
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
    ctx: RoomCtx,
    /// Flips to true when the server shuts down; connections watch it.
    shutdown: watch::Sender<bool>,
    /// Number of open WebSocket connections, so shutdown can wait for them.
    connections: watch::Sender<usize>,
}

/// Counts an open connection while it lives.
pub struct ConnectionGuard(Arc<Hub>);

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        self.0.connections.send_modify(|n| *n -= 1);
    }
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
        let ctx = RoomCtx {
            store: store.clone(),
            writer: writer::Writer::spawn(store.clone(), metrics.clone()),
            rooms: rooms.clone(),
            config: config.room(),
            metrics: metrics.clone(),
        };
        Arc::new(Hub {
            config,
            store,
            games,
            rooms,
            metrics,
            ctx,
            shutdown: watch::channel(false).0,
            connections: watch::channel(0).0,
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
    ) -> Result<(RoomHandle, u64), Refusal> {
        for _ in 0..5 {
            let room = self.room(match_id, game).ok_or_else(|| Refusal::Error {
                code: athlas_protocol::code::UNKNOWN_GAME,
                message: format!("this server does not host {game}"),
            })?;
            let (reply, rx) = tokio::sync::oneshot::channel();
            let cmd = RoomCmd::Join { viewer, last_seq, out: out.clone(), reply };
            if room.tx.send(cmd).await.is_err() {
                continue;
            }
            match rx.await {
                Ok(Ok(sub)) => return Ok((room, sub)),
                Ok(Err(Refusal::Retry)) | Err(_) => continue,
                Ok(Err(e)) => return Err(e),
            }
        }
        Err(Refusal::Error { code: athlas_protocol::code::INTERNAL, message: "the match could not be loaded".into() })
    }

    /// Count a new connection; `None` once shutting down or when the
    /// server already holds `max_connections`.
    pub fn connection_guard(self: &Arc<Hub>) -> Option<ConnectionGuard> {
        if self.is_shutting_down() {
            return None;
        }
        let mut admitted = false;
        self.connections.send_if_modified(|n| {
            admitted = *n < self.config.max_connections;
            if admitted {
                *n += 1;
            }
            admitted
        });
        admitted.then(|| ConnectionGuard(self.clone()))
    }

    /// Open WebSocket connections.
    pub fn open_connections(&self) -> usize {
        *self.connections.borrow()
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
        let mut rx = self.connections.subscribe();
        if tokio::time::timeout(grace, rx.wait_for(|n| *n == 0)).await.is_err() {
            tracing::warn!(open = *rx.borrow(), "connections still open after the grace period");
        }
        let left = self.rooms.close_all(grace).await;
        if left > 0 {
            tracing::warn!(rooms = left, "rooms still busy after the grace period");
        }
        self.store.close().await;
        tracing::info!("store closed");
    }
}
