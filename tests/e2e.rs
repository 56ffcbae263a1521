//! End-to-end: a real `athlas-server` process, real WebSocket clients.
//! Every test runs on SQLite; the ones about durability also on Postgres
//! (the local server at 127.0.0.1:5432, as `.ci/run` makes sure).
//!
//! Registered as a test of the `athlas-server` package (see server/Cargo.toml)
//! so that Cargo builds the binary and tells us where it is.

#[path = "support/mod.rs"]
mod support;

use futures_util::SinkExt;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use support::*;
use tokio_tungstenite::tungstenite::Message;

async fn win_quickly(db: Db) {
    let server = db.start();
    let m = new_match(&server.addr, json!({"board": quick_board(), "first_player": 0})).await;
    let mut spectator = Client::open(&server.addr, json!({"type": "watch", "match_id": m.id})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    // Turn 1 (seat 0): summon onto the relic; turn 2 (seat 1): nothing.
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    let s = a.ok(json!({"type": "end_turn"})).await;
    b.catch_up(s).await;
    let s = b.ok(json!({"type": "end_turn"})).await;
    a.catch_up(s).await;
    // Turn 3: carry the relic onto the second one: two relics, a win.
    let u = a.unit_at([-5, 5]).unwrap();
    a.ok(json!({"type": "activate", "unit": u})).await;
    let s = a.ok(json!({"type": "move", "to": [-4, 4]})).await;
    assert_eq!(a.view["phase"], json!({"phase": "finished", "outcome": {"result": "win", "seat": 0}}));
    b.catch_up(s).await;
    spectator.catch_up(s).await;
    assert_eq!(spectator.view["phase"]["outcome"]["seat"], 0);
    let (_, summary) = http(&server.addr, "GET", &format!("/api/matches/{}", m.id), None).await;
    assert_eq!(summary["status"], "finished", "{summary}");
}

#[tokio::test]
async fn a_whole_duel_to_a_win_on_sqlite() {
    win_quickly(Db::sqlite("win")).await;
}

#[tokio::test]
async fn a_whole_duel_to_a_win_on_postgres() {
    if let Some(db) = Db::postgres("win").await {
        win_quickly(db).await;
    }
}

#[tokio::test]
async fn a_draw_by_agreement() {
    let server = Db::sqlite("draw").start();
    let m = new_match(&server.addr, json!({"first_player": 1})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    let s = a.ok(json!({"type": "offer_draw"})).await;
    b.catch_up(s).await;
    let s = b.ok(json!({"type": "accept_draw"})).await;
    a.catch_up(s).await;
    assert_eq!(a.view["phase"]["outcome"], json!({"result": "draw"}));
}

#[tokio::test]
async fn an_illegal_action_is_refused_and_changes_nothing() {
    let server = Db::sqlite("illegal").start();
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    let before = (a.seq, a.view.clone());
    // Out of turn, off the summoning row, malformed: each an error, the connection stays.
    let r = b.act(json!({"type": "end_turn"})).await;
    assert_eq!((r["type"].as_str(), r["code"].as_str()), (Some("error"), Some("not_your_turn")), "{r}");
    let r = a.act(json!({"type": "summon", "alpha": 0, "hex": [0, 0]})).await;
    assert_eq!(r["code"], "not_summoning_hex", "{r}");
    assert!(r["message"].as_str().unwrap().contains("summoning"));
    a.send(json!({"type": "act", "id": 99, "action": {"type": "fly_to_the_moon"}})).await;
    let r = a.until(|m| m["type"] == "error").await;
    assert!(r["code"].is_string());
    a.ws.send(Message::Text("{not json".into())).await.unwrap();
    let r = a.until(|m| m["type"] == "error").await;
    assert_eq!(r["code"], "bad_json");
    // Nothing changed: a fresh connection sees the same seq and view.
    let fresh = Client::player(&server.addr, &m.tokens[0], None).await;
    assert_eq!((fresh.seq, fresh.view.clone()), before);
    // And the game goes on.
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
}

#[tokio::test]
async fn unrevealed_cards_never_reach_the_opponent_or_a_spectator_and_the_commitment_verifies() {
    let server = Db::sqlite("secrets").start();
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let mut spectator = Client::open(&server.addr, json!({"type": "watch", "match_id": m.id})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    // Seat 0 reveals only its first Alpha.
    let s = a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    b.catch_up(s).await;
    spectator.catch_up(s).await;
    let hidden =
        ["shadow_ranger", "etynian_crossbow", "marksmanship", "watch_tower", "obsidian_sword", "teleport", "time_warp"];
    for (who, c) in [("opponent", &b), ("spectator", &spectator)] {
        for frame in &c.raw {
            for card in hidden {
                assert!(!frame.contains(card), "the {who} received {card:?} before its reveal: {frame}");
            }
        }
        assert!(c.raw.iter().any(|f| f.contains("spell_binder")), "the revealed Alpha is public");
    }
    // Play on to the end; then both commitments verify against the revealed salts.
    let s = a.ok(json!({"type": "resign"})).await;
    b.catch_up(s).await;
    let mut commitments = std::collections::BTreeMap::new();
    for f in a.raw.iter().chain(b.raw.iter()) {
        let v: Value = serde_json::from_str(f).unwrap();
        if v["type"] == "commitment" {
            commitments.insert(v["seat"].as_u64().unwrap(), v["hash"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(commitments.len(), 2, "both seats were committed to");
    let mut reveals = 0;
    while reveals < 2 {
        let v = b.until(|m| m["type"] == "reveal").await;
        let salt = hex::decode(v["salt"].as_str().unwrap()).unwrap();
        let mut h = Sha256::new();
        h.update(&salt);
        h.update(canonical(&v["secret"]).as_bytes());
        let seat = v["seat"].as_u64().unwrap();
        assert_eq!(hex::encode(h.finalize()), commitments[&seat], "seat {seat}'s commitment verifies");
        reveals += 1;
        if seat == 0 {
            assert!(v["secret"].to_string().contains("watch_tower"), "the revealed secret is the locked stack");
        }
    }
}

/// JSON with object keys sorted at every depth, no spaces.
fn canonical(v: &Value) -> String {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.iter().map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&o[*k]))).collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

async fn survives_kill_9(db: Db) {
    let mut server = db.start();
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let (mut a, b) = started(&server.addr, &m).await;
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    let acked = a.ok(json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    let b_seen = b.seq;
    // kill -9: no chance to flush anything.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    drop(a);
    drop(b);
    let server = db.start();
    // Reconnect with token and last_seq: what was missed arrives, nothing acknowledged is lost.
    let a = Client::player(&server.addr, &m.tokens[0], Some(acked)).await;
    assert_eq!(a.seq, acked, "the welcome is at the last acknowledged action");
    drop(a);
    resume_and_play_on(&server.addr, &m, acked, b_seen, 2).await;
    // What the killed server stored, and what its successor added, replay
    // from the seed to the very states the rooms hashed.
    let report = db.audit_all();
    assert!(report.contains(&m.id), "{report}");
}

#[tokio::test]
async fn kill_9_and_restart_lose_nothing_on_sqlite() {
    survives_kill_9(Db::sqlite("kill")).await;
}

#[tokio::test]
async fn kill_9_and_restart_lose_nothing_on_postgres() {
    if let Some(db) = Db::postgres("kill").await {
        survives_kill_9(db).await;
    }
}
