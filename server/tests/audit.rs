//! The replay audit against a real server's store: every record is stored
//! with the hash of the state after it; the audit replays each log from its
//! seed and names the first record that does not come back the same. A
//! match of a rules version the server does not play is refused, not
//! replayed differently.

use crate::common::{config, registry, temp_dir, Server};
use athlas_server::audit::{self, Verdict, Which};
use serde_json::{json, Value};
use uuid::Uuid;

/// A nim match played to seq 5 (two secrets, three takes).
async fn played(server: &Server) -> Uuid {
    let (m, mut a, mut b) = server.nim_pair(json!({"pile": 10})).await;
    assert_eq!(a.act(1, json!({"type": "secret", "value": 3})).await["type"], "ack");
    assert_eq!(b.act(1, json!({"type": "secret", "value": 7})).await["type"], "ack");
    for (id, seat, n) in [(10, 0, 1), (11, 1, 2), (12, 0, 1)] {
        let c = if seat == 0 { &mut a } else { &mut b };
        let ack = c.act(id, json!({"type": "take", "n": n})).await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    Uuid::parse_str(m["match_id"].as_str().unwrap()).unwrap()
}

async fn sqlite(dir: &std::path::Path) -> sqlx::SqlitePool {
    sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.join("athlas.db").display())).await.unwrap()
}

fn verdict(report: &[audit::MatchAudit], id: Uuid) -> Verdict {
    report.iter().find(|m| m.match_id == id).expect("the match is audited").verdict.clone()
}

#[tokio::test]
async fn the_audit_replays_every_log_and_names_the_first_diverging_record() {
    let dir = temp_dir("audit");
    let server = Server::start(config(&dir)).await;
    let (clean, bad_action, bad_hash) = (played(&server).await, played(&server).await, played(&server).await);
    let store = &server.hub.store;

    let report = audit::audit(store, &registry(), Which::All).await.unwrap();
    for id in [clean, bad_action, bad_hash] {
        assert_eq!(verdict(&report, id), Verdict::Ok { records: 5, hashed: 5 }, "every record carries its hash");
    }
    assert!(!audit::summary(&report).1);

    // One stored action changed (a take of 2 instead of 1: legal, but not
    // what was played), one stored hash changed.
    let db = sqlite(&dir).await;
    sqlx::query("UPDATE actions SET action = ? WHERE match_id = ? AND seq = 5")
        .bind(json!({"type": "take", "n": 2}).to_string())
        .bind(bad_action.to_string())
        .execute(&db)
        .await
        .unwrap();
    sqlx::query("UPDATE actions SET state_hash = ? WHERE match_id = ? AND seq = 3")
        .bind("0".repeat(64))
        .bind(bad_hash.to_string())
        .execute(&db)
        .await
        .unwrap();

    let report = audit::audit(store, &registry(), Which::All).await.unwrap();
    assert_eq!(verdict(&report, clean), Verdict::Ok { records: 5, hashed: 5 });
    match verdict(&report, bad_action) {
        Verdict::Diverged { seq: 5, why } => assert!(why.contains("state hash"), "{why}"),
        other => panic!("the changed action is named: {other:?}"),
    }
    match verdict(&report, bad_hash) {
        Verdict::Diverged { seq: 3, why } => assert!(why.contains("000000000000 stored"), "{why}"),
        other => panic!("the changed hash is named: {other:?}"),
    }
    let (line, diverged) = audit::summary(&report);
    assert!(diverged);
    assert!(line.contains("2 divergences"), "{line}");

    // One match alone, and an action the rules refuse on replay.
    sqlx::query("UPDATE actions SET action = ? WHERE match_id = ? AND seq = 4")
        .bind(json!({"type": "take", "n": 9}).to_string())
        .bind(clean.to_string())
        .execute(&db)
        .await
        .unwrap();
    let one = audit::audit(store, &registry(), Which::One(clean)).await.unwrap();
    assert_eq!(one.len(), 1);
    match &one[0].verdict {
        Verdict::Diverged { seq: 4, why } => assert!(why.contains("rejected on replay"), "{why}"),
        other => panic!("the refused action is named: {other:?}"),
    }
    assert!(audit::audit(store, &registry(), Which::One(Uuid::new_v4())).await.is_err(), "an unknown id is an error");
    server.stop().await;
}

#[tokio::test]
async fn a_match_of_another_rules_version_is_refused_not_replayed() {
    let dir = temp_dir("rules-version");
    let server = Server::start(config(&dir)).await;
    let (m, a, b) = server.nim_pair(json!({"pile": 10})).await;
    drop((a, b));
    server.stop().await;
    let id = m["match_id"].as_str().unwrap();
    let db = sqlite(&dir).await;
    sqlx::query("UPDATE matches SET rules_version = 99 WHERE id = ?").bind(id).execute(&db).await.unwrap();
    db.close().await;

    let server = Server::start(config(&dir)).await;
    let mut a = server.ws().await;
    a.send(json!({"type": "hello", "token": m["tokens"][0]})).await;
    let e: Value = a.recv().await;
    assert_eq!(e["type"], "error", "{e}");
    assert_eq!(e["code"], "unsupported_rules_version", "{e}");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("version 99") && message.contains("version 1"), "{message}");
    // The connection stays usable, and the audit skips it by name.
    a.ping_pong().await;
    let report = audit::audit(&server.hub.store, &registry(), Which::All).await.unwrap();
    assert_eq!(verdict(&report, Uuid::parse_str(id).unwrap()), Verdict::UnsupportedRules { stored: 99, current: 1 });
    assert!(!audit::summary(&report).1, "skipped is not diverged");
    server.stop().await;
}
