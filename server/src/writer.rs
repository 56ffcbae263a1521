//! The writer task: group commit. Rooms hand it their accepted actions and
//! wait; it writes everything that queued up meanwhile, from any number of
//! rooms, in one transaction, then answers each room.
//!
//! At human pace few actions queue during a commit, so each would travel
//! alone (its own transaction, `fsync` and hand-overs to the store's
//! thread). When other rooms' actions have been arriving at least every
//! `delay`, the writer waits that long before a small batch, to gather
//! them into the same commit (docs/PERFORMANCE.md, "Commit delay").

use std::{collections::VecDeque, sync::Arc, time::Duration};

use tokio::{
    sync::{mpsc, oneshot},
    time::Instant,
};
use uuid::Uuid;

use crate::{
    metrics::Metrics,
    refusal::{Code, Refusal},
    store::{Append, Store, StoreError},
};

/// Most actions written in one transaction.
const MAX_BATCH: usize = 256;

/// A batch this large already shares its commit well: it is written
/// without waiting.
const SMALL_BATCH: usize = 8;

/// How far back the writer looks to judge how often actions arrive.
const WINDOW: Duration = Duration::from_millis(50);

/// Most arrivals remembered (the window at 80,000 actions a second).
const RECENT_CAP: usize = 4096;

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
    ///
    /// `delay`: the longest it waits to gather a small batch
    /// (`--commit-delay-ms`; zero: never).
    pub fn spawn(store: Store, metrics: Arc<Metrics>, delay: Duration) -> Writer {
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(store, rx, metrics, Pace::new(delay)));
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

/// Whether waiting before a commit would likely gather more: the rooms'
/// actions of the last [`WINDOW`], as the writer took them.
struct Pace {
    delay: Duration,
    /// When each recent action was taken, and its room; oldest first.
    recent: VecDeque<(Instant, Uuid)>,
}

impl Pace {
    fn new(delay: Duration) -> Pace {
        Pace { delay, recent: VecDeque::new() }
    }

    /// `taken` were taken from the queue at `now`.
    fn took(&mut self, now: Instant, taken: &[Append]) {
        if self.delay.is_zero() {
            return;
        }
        self.recent.extend(taken.iter().map(|a| (now, a.match_id)));
        while self.recent.front().is_some_and(|(t, _)| now.duration_since(*t) > WINDOW)
            || self.recent.len() > RECENT_CAP
        {
            self.recent.pop_front();
        }
    }

    /// Whether to wait `delay` before writing `batch`: it is small, and at
    /// the recent pace at least one action of another room would come
    /// meanwhile. A room has one action in flight at most, so a room of
    /// the batch sends nothing before this commit: one busy room alone
    /// never waits.
    fn wait(&self, batch: &[Append]) -> bool {
        if self.delay.is_zero() || batch.len() >= SMALL_BATCH {
            return false;
        }
        // Arrivals from other rooms in the window, counted until there are
        // enough for one to be expected during the delay.
        let enough = (WINDOW.as_secs_f64() / self.delay.as_secs_f64()).ceil() as usize;
        let others = self.recent.iter().filter(|(_, id)| batch.iter().all(|a| a.match_id != *id));
        others.take(enough).count() >= enough
    }
}

/// Move what is queued into the batch, up to [`MAX_BATCH`].
fn take_queued(rx: &mut mpsc::Receiver<(Append, Reply)>, appends: &mut Vec<Append>, replies: &mut Vec<Reply>) {
    while appends.len() < MAX_BATCH {
        match rx.try_recv() {
            Ok((a, r)) => {
                appends.push(a);
                replies.push(r);
            }
            Err(_) => break,
        }
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<(Append, Reply)>, metrics: Arc<Metrics>, mut pace: Pace) {
    while let Some(first) = rx.recv().await {
        let mut appends = vec![first.0];
        let mut replies = vec![first.1];
        take_queued(&mut rx, &mut appends, &mut replies);
        pace.took(Instant::now(), &appends);
        if pace.wait(&appends) {
            tokio::time::sleep(pace.delay).await;
            let before = appends.len();
            take_queued(&mut rx, &mut appends, &mut replies);
            pace.took(Instant::now(), &appends[before..]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ActionRecord;

    fn append(room: u128) -> Append {
        Append::new(Uuid::from_u128(room), ActionRecord::action(1, 0, serde_json::Value::Null))
    }

    /// `rooms` rooms take turns, one action every `every`, for `n` actions;
    /// returns the pace after them and when the last came.
    fn paced(delay: Duration, rooms: u128, every: Duration, n: u32) -> (Pace, Instant) {
        let mut pace = Pace::new(delay);
        let mut now = Instant::now();
        for i in 0..n {
            now += every;
            pace.took(now, &[append(u128::from(i) % rooms)]);
        }
        (pace, now)
    }

    const DELAY: Duration = Duration::from_millis(2);

    #[test]
    fn many_rooms_at_human_pace_wait_to_share_a_commit() {
        // 3,000 duels of seats thinking 2–5 s: about 800 actions a second.
        let (pace, _) = paced(DELAY, 3000, Duration::from_micros(1250), 200);
        assert!(pace.wait(&[append(7_000)]));
        assert!(pace.wait(&[append(7_000), append(7_001)]));
    }

    #[test]
    fn one_busy_room_alone_never_waits() {
        // Its next action comes only after this commit: nothing to gather.
        let (pace, _) = paced(DELAY, 1, Duration::from_micros(100), 500);
        assert!(!pace.wait(&[append(0)]));
    }

    #[test]
    fn a_quiet_server_does_not_wait() {
        // 100 actions a second: one in 2 ms is not to be expected.
        let (pace, _) = paced(DELAY, 50, Duration::from_millis(10), 100);
        assert!(!pace.wait(&[append(7_000)]));
    }

    #[test]
    fn the_pace_is_the_windows_not_the_past() {
        let (mut pace, now) = paced(DELAY, 3000, Duration::from_micros(1250), 200);
        // A pause longer than the window forgets the busy minute.
        pace.took(now + WINDOW * 2, &[append(7_000)]);
        assert!(!pace.wait(&[append(7_000)]));
        assert_eq!(pace.recent.len(), 1);
    }

    #[test]
    fn a_large_batch_or_no_delay_does_not_wait() {
        let (pace, _) = paced(DELAY, 3000, Duration::from_micros(100), 400);
        let batch: Vec<Append> = (0..SMALL_BATCH as u128).map(|i| append(9_000 + i)).collect();
        assert!(!pace.wait(&batch));
        assert!(pace.wait(&batch[..SMALL_BATCH - 1]));
        let (off, _) = paced(Duration::ZERO, 3000, Duration::from_micros(100), 400);
        assert!(!off.wait(&[append(7_000)]));
        assert!(off.recent.is_empty(), "nothing is remembered when it never waits");
    }

    #[test]
    fn memory_is_bounded_at_any_pace() {
        let (pace, _) = paced(DELAY, 100_000, Duration::from_nanos(100), 20_000);
        assert!(pace.recent.len() <= RECENT_CAP);
    }
}
