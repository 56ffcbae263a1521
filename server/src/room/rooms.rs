//! The rooms in memory: one handle per live match, found or spawned by
//! match id, counted while their tasks run so shutdown can wait for them,
//! and asked who is connected without a round trip to the room.

use std::{collections::HashMap, sync::Arc, time::Duration};

use athlas_engine::Seat;
use tokio::sync::watch;
use uuid::Uuid;

use super::RoomHandle;

/// The rooms in memory, by match id. The lock guards only this map of
/// handles, never game state, and is never held across an await.
pub struct Rooms {
    map: std::sync::Mutex<HashMap<Uuid, (u64, RoomHandle)>>,
    next_generation: std::sync::atomic::AtomicU64,
    /// Room tasks still running (a task outlives its map entry while it
    /// finishes its mailbox), so shutdown can wait for them.
    pub(super) live: watch::Sender<usize>,
}

impl Default for Rooms {
    fn default() -> Self {
        Rooms { map: Default::default(), next_generation: Default::default(), live: watch::channel(0).0 }
    }
}

/// Counts a running room task while it lives.
pub(super) struct LiveRoom(pub(super) Arc<Rooms>);

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

    /// The seats with a connection open to match `id` now: none when its
    /// room is not in memory (nobody is connected to it then).
    pub fn connected(&self, id: Uuid) -> Vec<Seat> {
        let map = self.map.lock().expect("rooms map");
        match map.get(&id) {
            Some((_, h)) if !h.tx.is_closed() => h.connected.borrow().clone(),
            _ => Vec::new(),
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
