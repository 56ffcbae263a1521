//! The writer task: group commit. Rooms hand it their accepted actions and
//! wait; it writes everything that queued up meanwhile, from any number of
//! rooms, in one transaction, then answers each room.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use crate::{
    metrics::Metrics,
    refusal::{Code, Refusal},
    store::{Append, Store, StoreError},
};

/// Most actions written in one transaction.
const MAX_BATCH: usize = 256;

type Reply = oneshot::Sender<Result<(), Refusal>>;

/// Why an action was not stored: the store's code for it
/// (`store_unavailable` when the database is away, `room_elsewhere` when
/// fenced, else `internal`) and the store's words, for the log.
fn store_refusal(e: &StoreError) -> Refusal {
    Refusal::new(e.code(), e.to_string())
}

fn stopped() -> Refusal {
    Refusal::new(Code::Internal, "writer stopped")
}

/// A handle to the writer task; cheap to clone.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<(Append, Reply)>,
}

impl Writer {
    /// Start the writer task. It ends when every handle is dropped, after
    /// writing what it was given.
    pub fn spawn(store: Store, metrics: Arc<Metrics>) -> Writer {
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(store, rx, metrics));
        Writer { tx }
    }

    /// Write one accepted action durably; returns once it is committed.
    ///
    /// # Errors
    /// The store's failure (the room then reloads from the store).
    pub async fn append(&self, append: Append) -> Result<(), Refusal> {
        let (reply, rx) = oneshot::channel();
        self.tx.send((append, reply)).await.map_err(|_| stopped())?;
        rx.await.map_err(|_| stopped())?
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<(Append, Reply)>, metrics: Arc<Metrics>) {
    while let Some(first) = rx.recv().await {
        let mut appends = vec![first.0];
        let mut replies = vec![first.1];
        while appends.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok((a, r)) => {
                    appends.push(a);
                    replies.push(r);
                }
                Err(_) => break,
            }
        }
        let started = std::time::Instant::now();
        let written = store.append(&appends).await;
        metrics.store_write.observe(started.elapsed());
        match written {
            Ok(()) => replies.into_iter().for_each(|r| drop(r.send(Ok(())))),
            Err(e) if appends.len() == 1 => {
                failed(&metrics, &e, appends[0].match_id);
                drop(replies.pop().map(|r| r.send(Err(store_refusal(&e)))));
            }
            Err(_) => {
                // One bad entry must not sink the others: write them one by one.
                for (a, r) in appends.into_iter().zip(replies) {
                    let result = store.append(std::slice::from_ref(&a)).await.map_err(|e: StoreError| {
                        failed(&metrics, &e, a.match_id);
                        store_refusal(&e)
                    });
                    drop(r.send(result));
                }
            }
        }
    }
}

/// Log a failed append at the level it deserves: a fenced one (the room's
/// lease is another node's now: the design working, docs/CLUSTER.md) at
/// INFO with a metric, anything else at ERROR.
fn failed(metrics: &Metrics, e: &StoreError, match_id: uuid::Uuid) {
    if matches!(e, StoreError::Fenced(_)) {
        metrics.append_fenced();
        tracing::info!(error = %e, %match_id, "append fenced: another node holds this room now");
    } else {
        tracing::error!(error = %e, %match_id, "append failed");
    }
}
