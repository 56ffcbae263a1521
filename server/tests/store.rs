//! One store test suite, run against SQLite and Postgres.
//!
//! Postgres: the server at `ATHLAS_TEST_POSTGRES` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`); the suite creates a fresh
//! database, runs, and drops it. When no Postgres answers, the Postgres half
//! is skipped with a note, unless `ATHLAS_REQUIRE_POSTGRES=1`.

use athlas_server::store::{
    ActionRecord, Append, CampaignUpdate, Commitment, MatchStatus, NewCampaign, NewMatch, Store, StoreError,
};
use serde_json::json;
use uuid::Uuid;

fn new_match(join_code: &str, token_hash: &str) -> NewMatch {
    NewMatch {
        id: Uuid::new_v4(),
        game: "nim".into(),
        options: json!({"pile": 7}),
        seed: u64::MAX - 5, // does not fit an i64: stored bit for bit
        rules_version: 3,
        join_code: join_code.into(),
        live: true,
        private: false,
        seats: 2,
        campaign_id: None,
        creator: Some((0, token_hash.into())),
        turn_timer_ms: None,
        standing: Some(json!({"status": "waiting", "seats": [0]})),
    }
}

fn append(m: Uuid, seq: u64) -> Append {
    Append::new(m, ActionRecord::action(seq, (seq % 2) as u8, json!({"type": "take", "n": seq})))
}

async fn suite(store: &Store) {
    store.ping().await.unwrap();
    let m = new_match("CODE0001", "hash-a");
    store.create_match(&m).await.unwrap();
    assert!(matches!(store.create_match(&new_match("CODE0001", "hash-x")).await, Err(StoreError::Conflict(_))));

    let got = store.get_match(m.id).await.unwrap().unwrap();
    assert_eq!(
        (got.game.as_str(), &got.options, got.seed, got.rules_version, got.status.as_str()),
        ("nim", &json!({"pile": 7}), u64::MAX - 5, 3, "open")
    );
    assert_eq!(
        (got.live, got.seats, got.seq, got.seats_taken.clone(), got.outcome.clone()),
        (true, 2, 0, vec![0], None)
    );
    assert_eq!(got.standing, m.standing, "a new match stands where the game started it");
    assert!(store.get_match(Uuid::new_v4()).await.unwrap().is_none());
    assert!(store.list_matches(MatchStatus::Open, 10).await.unwrap().iter().any(|r| r.id == m.id));

    // Joining takes the free seat; a third player finds it full.
    assert!(matches!(store.join("NOPE", "h").await, Err(StoreError::NotFound)));
    assert_eq!(store.join("CODE0001", "hash-b").await.unwrap(), (m.id, 1));
    assert!(matches!(store.join("CODE0001", "hash-c").await, Err(StoreError::Full)));
    let got = store.get_match(m.id).await.unwrap().unwrap();
    assert_eq!((got.status.as_str(), got.seats_taken), ("active", vec![0, 1]));
    assert!(!store.list_matches(MatchStatus::Open, 10).await.unwrap().iter().any(|r| r.id == m.id));
    assert_eq!(store.seat_by_token("hash-b").await.unwrap(), Some((m.id, 1)));
    assert_eq!(store.seat_by_token("hash-z").await.unwrap(), None);

    // The log: seqs follow each other; a gap or a repeat is refused whole.
    store.append(&[append(m.id, 1), append(m.id, 2)]).await.unwrap();
    assert!(matches!(store.append(&[append(m.id, 3), append(m.id, 2)]).await, Err(StoreError::Conflict(_))));
    assert!(matches!(store.append(&[append(m.id, 5)]).await, Err(StoreError::Conflict(_))));
    // A match that was never created gets no record, alone or beside one
    // that exists (Postgres's action log has no foreign key: this is the check).
    let ghost = Uuid::new_v4();
    assert!(matches!(store.append(&[append(ghost, 1)]).await, Err(StoreError::Conflict(_))));
    assert!(matches!(store.append(&[append(m.id, 3), append(ghost, 1)]).await, Err(StoreError::Conflict(_))));
    assert!(store.actions_after(ghost, 0).await.unwrap().is_empty());
    assert_eq!(store.get_match(m.id).await.unwrap().unwrap().seq, 2);
    let mut third = append(m.id, 3);
    third.commitments = vec![Commitment { seat: 1, hash: "ab".into(), salt: "cd".into(), seq: 3 }];
    third.snapshot = Some(json!({"pile": 1}).to_string());
    third.outcome = Some(json!({"result": "win", "seat": 1}));
    // Group commit: actions of two matches in one transaction.
    let other = new_match("CODE0002", "hash-o");
    store.create_match(&other).await.unwrap();
    store.append(&[third, append(other.id, 1)]).await.unwrap();

    let log = store.actions_after(m.id, 0).await.unwrap();
    assert_eq!(log.iter().map(|a| (a.seq, a.seat)).collect::<Vec<_>>(), [(1, 1), (2, 0), (3, 1)]);
    assert_eq!(log[2].action, json!({"type": "take", "n": 3}));
    assert_eq!(store.actions_after(m.id, 2).await.unwrap().len(), 1);
    assert_eq!(store.actions_after(other.id, 0).await.unwrap().len(), 1);
    assert_eq!(store.latest_snapshot(m.id, None).await.unwrap(), Some((3, json!({"pile": 1}))));
    assert_eq!(store.latest_snapshot(m.id, Some(2)).await.unwrap(), None);
    assert_eq!(
        store.commitments(m.id).await.unwrap(),
        vec![Commitment { seat: 1, hash: "ab".into(), salt: "cd".into(), seq: 3 }]
    );
    let got = store.get_match(m.id).await.unwrap().unwrap();
    assert_eq!((got.status.as_str(), got.seq, got.outcome), ("finished", 3, Some(json!({"result": "win", "seat": 1}))));
    assert!(store.list_matches(MatchStatus::Finished, 10).await.unwrap().iter().any(|r| r.id == m.id));

    campaigns(store).await;

    // Ready once migrated; matches counted by game and status.
    store.ready().await.unwrap();
    let counts = store.count_matches().await.unwrap();
    let total: u64 = counts.iter().map(|(_, _, n)| n).sum();
    assert_eq!(
        total,
        store.list_matches(MatchStatus::Open, 100).await.unwrap().len() as u64
            + counts.iter().filter(|c| c.1 != MatchStatus::Open).map(|c| c.2).sum::<u64>()
    );
    assert!(counts.iter().all(|(g, _, _)| g == "nim"));

    // A private match is never listed, but is found by id and joined by code.
    let mut private = new_match("PRIV0001", "hash-p");
    private.private = true;
    store.create_match(&private).await.unwrap();
    assert!(store.get_match(private.id).await.unwrap().unwrap().private);
    assert!(!store.get_match(m.id).await.unwrap().unwrap().private);
    assert!(!store.list_matches(MatchStatus::Open, 100).await.unwrap().iter().any(|r| r.id == private.id));
    assert_eq!(store.join("PRIV0001", "hash-q").await.unwrap(), (private.id, 1));
    assert!(!store.list_matches(MatchStatus::Active, 100).await.unwrap().iter().any(|r| r.id == private.id));

    // Lobby writes and action appends at once, from many tasks: none may
    // fail with "database is locked" (a read-then-write transaction on
    // SQLite must take the write lock up front).
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let m = new_match(&format!("CONC{i:04}"), &format!("conc-a-{i}"));
                store.create_match(&m).await.unwrap();
                store.join(&m.join_code, &format!("conc-b-{i}")).await.unwrap();
                for seq in 1..=10 {
                    store.append(&[append(m.id, seq)]).await.unwrap();
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }

    // A big batch is written a chunk of distinct matches at a time: a match's
    // second action, a standing on some rows only, and a gap anywhere
    // refusing the whole batch.
    let ms: Vec<NewMatch> = (0..5).map(|i| new_match(&format!("BTCH{i:04}"), &format!("btch-{i}"))).collect();
    for m in &ms {
        store.create_match(m).await.unwrap();
    }
    let standing = |a: Append, n: u64| Append { standing: Some(json!({"status": "waiting", "seats": [n]})), ..a };
    let gap = [append(ms[3].id, 1), append(ms[4].id, 1), append(ms[0].id, 2), append(ms[1].id, 1)];
    assert!(matches!(store.append(&gap).await, Err(StoreError::Conflict(_))));
    for m in &ms {
        assert_eq!(store.get_match(m.id).await.unwrap().unwrap().seq, 0, "nothing of a refused batch is written");
    }
    let batch = [
        append(ms[0].id, 1),
        standing(append(ms[1].id, 1), 1),
        append(ms[2].id, 1),
        append(ms[0].id, 2),
        append(ms[3].id, 1),
        standing(append(ms[4].id, 1), 0),
        append(ms[1].id, 2),
    ];
    store.append(&batch).await.unwrap();
    let standings = [
        None,
        Some(json!({"status": "waiting", "seats": [1]})),
        None,
        None,
        Some(json!({"status": "waiting", "seats": [0]})),
    ];
    for (i, (want, standing)) in [2u64, 2, 1, 1, 1].into_iter().zip(standings).enumerate() {
        let got = store.get_match(ms[i].id).await.unwrap().unwrap();
        assert_eq!(got.seq, want);
        assert_eq!(store.actions_after(ms[i].id, 0).await.unwrap().len() as u64, want);
        // No standing in the action keeps the one the match had.
        assert_eq!(got.standing, standing.or(ms[i].standing.clone()));
    }
}

/// A private campaign's match (the lobby gives it the campaign's hosting).
fn campaign_match(join_code: &str, campaign: Uuid) -> NewMatch {
    NewMatch {
        creator: None,
        campaign_id: Some(campaign),
        private: true,
        turn_timer_ms: Some(300),
        ..new_match(join_code, "unused")
    }
}

/// Campaigns: their own records with seats of their own, their matches in
/// order; every write of a campaign names the version it read.
async fn campaigns(store: &Store) {
    let c = NewCampaign {
        id: Uuid::new_v4(),
        game: "nim".into(),
        rules_version: 3,
        seats: 2,
        join_code: "CAMP0001".into(),
        saved: json!({"games": 0}),
        live: false,
        private: true,
        host: "camp-a".into(),
        turn_timer_ms: Some(300),
    };
    store.create_campaign(&c).await.unwrap();
    assert!(matches!(
        store.create_campaign(&NewCampaign { id: Uuid::new_v4(), host: "camp-x".into(), ..c.clone() }).await,
        Err(StoreError::Conflict(_))
    ));
    let got = store.campaign(c.id).await.unwrap().unwrap();
    assert_eq!(
        (got.game.as_str(), got.rules_version, got.seats, &got.saved, got.current_match, got.private, got.live),
        ("nim", 3, 2, &json!({"games": 0}), None, true, false)
    );
    assert_eq!(got.seats_taken, vec![0]);
    assert_eq!(got.turn_timer_ms, Some(300), "the turn timer is kept with the campaign");
    assert!(store.campaign(Uuid::new_v4()).await.unwrap().is_none());
    // Before a match exists a campaign token holds no seat anywhere yet.
    assert!(matches!(store.seat_by_token("camp-a").await, Err(StoreError::NotStarted)));
    assert!(matches!(store.join_campaign("NOPE", "h").await, Err(StoreError::NotFound)));
    assert_eq!(store.join_campaign("CAMP0001", "camp-b").await.unwrap(), (c.id, 1));
    assert!(matches!(store.join_campaign("CAMP0001", "camp-c").await, Err(StoreError::Full)));
    assert_eq!(store.campaign_seat("camp-b").await.unwrap(), Some((c.id, 1)));
    assert_eq!(store.campaign_seat("hash-b").await.unwrap(), None, "a match token is not a campaign's");

    // A new match and the campaign's current match: one write.
    let version = store.campaign(c.id).await.unwrap().unwrap().version;
    let first = campaign_match("CAMPM001", c.id);
    let start = |m: &NewMatch, version| CampaignUpdate { id: c.id, version, saved: None, start: Some(m.clone()) };
    store.update_campaign(&start(&first, version)).await.unwrap();
    // A second start from the same version (a concurrent `next`) writes nothing.
    let racing = campaign_match("CAMPM002", c.id);
    assert!(matches!(store.update_campaign(&start(&racing, version)).await, Err(StoreError::Stale)));
    assert!(store.get_match(racing.id).await.unwrap().is_none());
    let got = store.campaign(c.id).await.unwrap().unwrap();
    assert_eq!((got.current_match, got.version), (Some(first.id), version + 1));
    let m = store.get_match(first.id).await.unwrap().unwrap();
    // Its seats are the campaign's: taken by the campaign's tokens.
    let campaign_seats = store.campaign(c.id).await.unwrap().unwrap().seats_taken;
    assert!(!campaign_seats.is_empty());
    assert_eq!(
        (m.campaign_id, m.ordinal, m.status, m.seats_taken.clone(), m.turn_timer_ms),
        (Some(c.id), Some(1), MatchStatus::Active, campaign_seats, Some(300))
    );
    // Campaign seat tokens hold their seat in the current match; the
    // match's own join code takes no seat.
    assert_eq!(store.seat_by_token("camp-b").await.unwrap(), Some((first.id, 1)));
    assert!(matches!(store.join("CAMPM001", "intruder").await, Err(StoreError::NotFound)));

    // The final action carries the campaign's new state: both or neither.
    let mut last = append(first.id, 1);
    last.outcome = Some(json!({"result": "draw"}));
    last.standing = Some(json!({"status": "finished", "result": "draw"}));
    last.campaign =
        Some(CampaignUpdate { id: c.id, version: version + 1, saved: Some(json!({"games": 1})), start: None });
    let mut stale = last.clone();
    stale.campaign.as_mut().unwrap().version = version;
    assert!(matches!(store.append(&[stale]).await, Err(StoreError::Stale)));
    assert!(matches!(store.append(&[last.clone(), append(first.id, 3)]).await, Err(StoreError::Conflict(_))));
    let unchanged = store.campaign(c.id).await.unwrap().unwrap();
    assert_eq!((&unchanged.saved, unchanged.version), (&json!({"games": 0}), version + 1));
    assert_eq!(store.get_match(first.id).await.unwrap().unwrap().seq, 0);
    store.append(&[last]).await.unwrap();
    let got = store.campaign(c.id).await.unwrap().unwrap();
    assert_eq!((&got.saved, got.version), (&json!({"games": 1}), version + 2));
    let m = store.get_match(first.id).await.unwrap().unwrap();
    assert_eq!((m.status, m.standing), (MatchStatus::Finished, Some(json!({"status": "finished", "result": "draw"}))));

    // The next match comes second; the campaign lists both in order.
    let second = campaign_match("CAMPM003", c.id);
    store.update_campaign(&start(&second, version + 2)).await.unwrap();
    let ordered: Vec<_> = store.campaign_matches(c.id).await.unwrap().iter().map(|m| (m.id, m.ordinal)).collect();
    assert_eq!(ordered, [(first.id, Some(1)), (second.id, Some(2))]);
    assert_eq!(store.seat_by_token("camp-a").await.unwrap(), Some((second.id, 0)));
}

#[tokio::test]
async fn the_sqlite_store_keeps_its_contract() {
    let dir = crate::common::temp_dir("store");
    let store = Store::open(None, &dir).await.unwrap();
    assert_eq!(store.backend_name(), "sqlite");
    suite(&store).await;
    store.close().await;
    // Migrations run again on an existing file without harm.
    let store = Store::open(None, &dir).await.unwrap();
    assert!(store.list_matches(MatchStatus::Finished, 10).await.unwrap().len() == 1);
    store.close().await;
    // A new database is made of 1 KiB pages in a write-ahead log: a group
    // commit logs each page it changes whole (docs/PERFORMANCE.md).
    let url = format!("sqlite://{}", dir.join("athlas.db").display());
    let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url).await.unwrap();
    let page: i64 = sqlx::query_scalar("PRAGMA page_size").fetch_one(&mut conn).await.unwrap();
    let journal: String = sqlx::query_scalar("PRAGMA journal_mode").fetch_one(&mut conn).await.unwrap();
    assert_eq!((page, journal.as_str()), (1024, "wal"));
}

#[tokio::test]
async fn the_postgres_store_keeps_its_contract() {
    let Some(db) = crate::common::PgDb::create().await else { return };
    let store = Store::open(Some(&db.url), std::path::Path::new("unused")).await.unwrap();
    assert_eq!(store.backend_name(), "postgres");
    suite(&store).await;
    // Snapshots are text compressed with LZ4 (migration 0009): parsing them
    // into JSONB and pglz were a quarter of Postgres's CPU under load. A
    // snapshot as large as a duel's reads back whole.
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&db.url).await.unwrap();
    let method: String = sqlx::query_scalar(
        "SELECT attcompression::text FROM pg_attribute WHERE attrelid = 'snapshots'::regclass AND attname = 'state'",
    )
    .fetch_one(&mut conn)
    .await
    .unwrap();
    assert_eq!(method, "l", "lz4");
    let m = new_match("CODELZ4", "hash-lz4");
    store.create_match(&m).await.unwrap();
    let big = json!({"units": (0..400).map(|i| json!({"id": i, "hex": [i % 9, i / 9], "hp": 3})).collect::<Vec<_>>()});
    assert!(big.to_string().len() > 10_000);
    let mut first = append(m.id, 1);
    first.snapshot = Some(big.to_string());
    store.append(&[first]).await.unwrap();
    assert_eq!(store.latest_snapshot(m.id, None).await.unwrap(), Some((1, big)));
    let stored: i32 = sqlx::query_scalar("SELECT pg_column_size(state) FROM snapshots WHERE match_id = $1::uuid")
        .bind(m.id.to_string())
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert!(stored < 10_000, "compressed: {stored} bytes");
    drop(conn);
    store.close().await;
    db.drop().await;
}
