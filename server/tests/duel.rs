//! The duel is hosted: a match is created, seats and spectators are welcomed
//! with their own views, and a bad action gets the engine's error code.

use crate::common::{config, temp_dir, Server};
use serde_json::json;

#[tokio::test]
async fn a_duel_match_is_created_joined_and_watched() {
    let dir = temp_dir("duel");
    let server = Server::start(config(&dir)).await;
    let created = server.create("duel", json!({"summoning_points": 250, "live": true})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let (_, summary) =
        server.http("GET", &format!("/api/matches/{}", created["match_id"].as_str().unwrap()), None).await;
    assert_eq!((summary["game"].as_str(), summary["live"].as_bool()), (Some("duel"), Some(true)));

    let mut a = server.ws().await;
    let w = a.hello(&created["token"], None).await;
    assert_eq!((w["game"].as_str(), w["seat"].as_u64(), w["seq"].as_u64()), (Some("duel"), Some(0), Some(0)));
    assert_eq!(w["status"], json!({"status": "waiting", "seats": [0, 1]}));
    assert!(w["view"].is_object());
    let mut b = server.ws().await;
    assert_eq!(b.hello(&joined["token"], None).await["seat"], 1);
    let mut s = server.ws().await;
    s.send(json!({"type": "watch", "match_id": created["match_id"]})).await;
    assert_eq!(s.recv().await["seat"], serde_json::Value::Null);

    // An action the rules refuse: an error with a code, nothing changes.
    let e = a.act(1, json!({"type": "end_turn"})).await;
    assert_eq!(e["type"], "error", "{e}");
    assert!(!e["code"].as_str().unwrap().is_empty());
    let e = a.act(2, json!({"type": "summon"})).await;
    assert_eq!(e["code"], "bad_action");
    let (_, summary) =
        server.http("GET", &format!("/api/matches/{}", created["match_id"].as_str().unwrap()), None).await;
    assert_eq!(summary["seq"], 0);

    let (status, body) =
        server.http("POST", "/api/matches", Some(r#"{"game":"duel","options":{"summoning_points":9999}}"#)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_options")));
    server.stop().await;
}
