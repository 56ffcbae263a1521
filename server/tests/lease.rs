//! Room leases on a real Postgres (the store of a cluster): a lease is
//! claimed by one node at a time, taken over only once it expired (with a
//! new epoch), renewed only by its holder, released at once; and an append
//! carrying a lease that was taken over writes nothing.

use std::time::Duration;

use athlas_server::store::{ActionRecord, Append, Fence, NewMatch, Store, StoreError};
use serde_json::json;
use uuid::Uuid;

fn new_match() -> NewMatch {
    NewMatch {
        id: Uuid::new_v4(),
        game: "nim".into(),
        options: json!({"pile": 7}),
        seed: 1,
        rules_version: 1,
        join_code: format!("L{}", &Uuid::new_v4().simple().to_string()[..7]),
        live: false,
        private: false,
        seats: 2,
        campaign_id: None,
        creator: Some((0, "hash".into())),
        turn_timer_ms: None,
        standing: None,
    }
}

fn append(m: Uuid, seq: u64, fence: &Fence) -> Append {
    Append {
        fence: Some(fence.clone()),
        ..Append::new(m, ActionRecord::action(seq, 0, json!({"type": "take", "n": 1})))
    }
}

#[tokio::test]
async fn a_lease_has_one_holder_and_a_lost_lease_writes_nothing() {
    let Some(db) = crate::common::PgDb::create().await else { return };
    let store = Store::open(Some(&db.url), std::path::Path::new(".")).await.unwrap();
    let m = new_match();
    store.create_match(&m).await.unwrap();
    let short = Duration::from_millis(400);

    let a = store
        .claim_lease(m.id, "a", "ws://a/ws", "ws://a.peer/ws", short)
        .await
        .unwrap()
        .expect("a free room is granted");
    assert_eq!(a.epoch, 1);
    assert_eq!(
        store.claim_lease(m.id, "b", "ws://b/ws", "ws://b.peer/ws", short).await.unwrap(),
        None,
        "held: not granted"
    );
    let held = store.lease(m.id).await.unwrap().unwrap();
    assert_eq!(
        (held.node.as_str(), held.url.as_str(), held.peer_url.as_str(), held.epoch),
        ("a", "ws://a/ws", "ws://a.peer/ws", 1)
    );
    assert!(held.expires_in_ms > 0);
    assert!(store.renew_lease(m.id, &a, short).await.unwrap(), "the holder renews");
    store.append(&[append(m.id, 1, &a)]).await.unwrap();

    // `a` stops renewing (paused, partitioned): `b` takes over at epoch 2.
    tokio::time::sleep(short + Duration::from_millis(200)).await;
    let b = store
        .claim_lease(m.id, "b", "ws://b/ws", "ws://b.peer/ws", short)
        .await
        .unwrap()
        .expect("an expired lease is taken over");
    assert_eq!(b.epoch, 2);
    assert!(!store.renew_lease(m.id, &a, short).await.unwrap(), "the old holder renews no more");

    // `a` wakes with a write in hand: the seq would follow, the fence does not.
    match store.append(&[append(m.id, 2, &a)]).await {
        Err(StoreError::Fenced(why)) => assert!(why.contains("epoch 1"), "{why}"),
        other => panic!("a lost lease writes nothing: {other:?}"),
    }
    assert_eq!(store.get_match(m.id).await.unwrap().unwrap().seq, 1, "nothing was written");
    store.append(&[append(m.id, 2, &b)]).await.unwrap();
    assert_eq!(store.actions_after(m.id, 0).await.unwrap().len(), 2, "one history");
    assert_eq!(StoreError::Fenced(String::new()).code(), "room_elsewhere");

    // Released: the next node takes it at once, with a new epoch.
    store.release_lease(m.id, &b).await.unwrap();
    let a2 = store
        .claim_lease(m.id, "a", "ws://a/ws", "ws://a.peer/ws", short)
        .await
        .unwrap()
        .expect("a released room is free");
    assert_eq!(a2.epoch, 3);
    // A node that claims again (restarted) fences its former self too.
    let a3 = store.claim_lease(m.id, "a", "ws://a/ws", "ws://a.peer/ws", short).await.unwrap().unwrap();
    assert_eq!(a3.epoch, 4);
    assert!(matches!(store.append(&[append(m.id, 3, &a2)]).await, Err(StoreError::Fenced(_))));

    store.close().await;
    db.drop().await;
}

#[tokio::test]
async fn leases_need_postgres() {
    let dir = crate::common::temp_dir("lease-sqlite");
    let store = Store::open(None, &dir).await.unwrap();
    assert!(matches!(
        store.claim_lease(Uuid::new_v4(), "a", "ws://a/ws", "ws://a.peer/ws", Duration::from_secs(1)).await,
        Err(StoreError::NoLeases)
    ));
}
