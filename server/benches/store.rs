//! `store_append_sqlite`: the group commit on the embedded SQLite store,
//! one batch of 64 actions of 64 different matches (out of 200 being
//! played) per iteration, written as the room writes them: the action, its
//! record hash, the match's standing, and every 50th record of a match a
//! 17 KB snapshot (a mid-game duel state's size). `store_append_sqlite_2`:
//! batches of 2, as a commit carries at human pace, where the hand-overs
//! to SQLite's thread weigh most.
//!
//! The time reported is **CPU time** of the whole process (the SQLite
//! worker thread included), not wall time: a durable commit waits for
//! fsync, which costs the disk's latency, not the server's CPU. Divide by 64
//! for the store's CPU per action.

use std::time::Duration;

use athlas_server::store::{ActionRecord, Append, NewMatch, Store};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use uuid::Uuid;

const MATCHES: usize = 200;
const BATCH: usize = 64;

/// User plus system CPU time of this process so far.
fn cpu_time() -> Duration {
    // SAFETY: getrusage writes into the zeroed struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(u.ru_utime) + tv(u.ru_stime)
}

struct Played {
    store: Store,
    matches: Vec<(Uuid, u64)>,
    next: usize,
    snapshot: String,
}

impl Played {
    async fn open(dir: &std::path::Path) -> Played {
        let store = Store::open(None, dir).await.expect("the store opens");
        let mut matches = Vec::new();
        for i in 0..MATCHES {
            let id = Uuid::new_v4();
            store
                .create_match(&NewMatch {
                    id,
                    game: "duel".into(),
                    options: json!({"summoning_points": 250}),
                    seed: i as u64,
                    rules_version: 1,
                    join_code: format!("B{i:07}"),
                    live: false,
                    private: false,
                    seats: 2,
                    campaign_id: None,
                    creator: Some((0, format!("{:064x}", i))),
                    turn_timer_ms: None,
                    standing: Some(json!({"status": "waiting", "seats": [0]})),
                })
                .await
                .expect("a match is created");
            matches.push((id, 0));
        }
        // A duel state's JSON is mostly numbers and short names.
        let snapshot =
            serde_json::to_string(&json!({ "units": vec![json!({"id": 1, "hex": [0, -5], "life": 7}); 400] }))
                .expect("json");
        Played { store, matches, next: 0, snapshot }
    }

    /// The next batch: one action of each of the next `size` matches.
    fn batch(&mut self, size: usize) -> Vec<Append> {
        (0..size)
            .map(|_| {
                let (id, seq) = &mut self.matches[self.next];
                self.next = (self.next + 1) % MATCHES;
                *seq += 1;
                Append {
                    match_id: *id,
                    action: ActionRecord::action(
                        *seq,
                        (*seq % 2) as u8,
                        json!({"type": "move", "unit": 4, "to": [1, -2]}),
                    ),
                    commitments: Vec::new(),
                    outcome: None,
                    standing: Some(json!({"status": "waiting", "seats": [(*seq % 2)]})),
                    snapshot: (*seq % 50 == 0).then(|| self.snapshot.clone()),
                    campaign: None,
                    state_hash: Some(format!("3:{:064x}", *seq)),
                    fence: None,
                }
            })
            .collect()
    }
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().expect("a runtime");
    let dir = std::env::temp_dir().join(format!("athlas-store-bench-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut played = rt.block_on(Played::open(&dir));
    for (name, size) in [("store_append_sqlite", BATCH), ("store_append_sqlite_2", 2)] {
        eprintln!("{name}: {size} actions per iteration (CPU time, not wall time)");
        c.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let batches: Vec<Vec<Append>> = (0..iters).map(|_| played.batch(size)).collect();
                let before = cpu_time();
                rt.block_on(async {
                    for batch in &batches {
                        played.store.append(batch).await.expect("the batch is written");
                    }
                });
                cpu_time() - before
            })
        });
    }
    rt.block_on(played.store.close());
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    // Each iteration waits for an fsync: fewer samples keep the run short.
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(10));
    targets = bench
}
criterion_main!(benches);
