//! The duel is hosted: a match is created, seats and spectators are welcomed
//! with their own views, and a bad action gets the engine's error code.

use crate::common::{config, temp_dir, Server};
use athlas_server::Config;
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

    // The rules allow any summoning points the players agree on (L259-271);
    // this server hosts at most its --max-summoning-points (500 by default),
    // and says so with its own code. None at all is the game's refusal.
    let create = |points: u32| format!(r#"{{"game":"duel","options":{{"summoning_points":{points}}}}}"#);
    let (status, body) = server.http("POST", "/api/matches", Some(&create(600))).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("summoning_points_over_cap")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("at most 500"), "{body}");
    let (status, body) = server.http("POST", "/api/matches", Some(&create(0))).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_options")), "{body}");
    server.stop().await;
    let server = Server::start(Config { max_summoning_points: 1000, ..config(&dir) }).await;
    let (status, body) = server.http("POST", "/api/matches", Some(&create(600))).await;
    assert_eq!(status, 201, "{body}");
    server.stop().await;
}

/// The duel tells itself in words: each update carries its events' lines
/// (`log`), the waiting seat's buttons their words (`legal[].words`, for
/// the view's own `legal` list), and every welcome the whole match so far
/// (`log`, numbered by record), from its first line, after a restart too and
/// once the match is over. Only the timer may say a seat's time ran out. A
/// game without words (Nim) sends no log.
#[tokio::test]
async fn a_duel_tells_its_whole_log_in_words() {
    let dir = temp_dir("duel-words");
    let server = Server::start(config(&dir)).await;
    let created = server.create("duel", json!({"first_player": 0})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let (mut a, mut b) = (server.ws().await, server.ws().await);
    a.hello(&created["token"], None).await;
    b.hello(&joined["token"], None).await;
    assert_eq!(a.act(1, json!({"type": "use_preset", "preset": "aquatic"})).await["type"], "ack");
    let u = b.recv_type("update").await;
    assert_eq!(u["log"], json!(["Seat 0 locked in its Alphas and Divine Interventions, sealed until the end"]), "{u}");
    assert_eq!(b.act(1, json!({"type": "use_preset", "preset": "rush"})).await["type"], "ack");
    let u = loop {
        let u = a.recv_type("update").await;
        if u["seq"] == 2 {
            break u;
        }
    };
    let log: Vec<&str> = u["log"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert_eq!(
        log[1..],
        ["The Command Phase begins: Seat 0 plays first", "Turn 1: Seat 0's first turn (summoning only)"]
    );
    // Seat 0's buttons: the view lists the actions, `legal` their words.
    let listed = u["view"]["legal"].as_array().unwrap();
    assert_eq!(u["legal"][0]["seat"], 0, "{}", u["legal"]);
    assert!(u["legal"][0].get("actions").is_none(), "the view has them: {}", u["legal"]);
    let words = u["legal"][0]["words"].as_array().unwrap();
    assert_eq!(words.len(), listed.len());
    for (a, w) in listed.iter().zip(words) {
        if a["type"] == "summon" {
            assert!(w["text"].as_str().unwrap().starts_with("Summon Alpha "), "{a} reads {w}");
            assert_eq!(w["group"], "summon");
        }
    }
    let summon = listed.iter().find(|a| a["type"] == "summon").unwrap().clone();
    assert_eq!(a.act(2, summon).await["type"], "ack");
    assert_eq!(a.act(3, json!({"type": "end_turn"})).await["type"], "ack");
    // The timer's own action is refused from a player.
    let e = b.act(2, json!({"type": "timed_out"})).await;
    assert_eq!(e["code"], "bad_action", "{e}");

    // A spectator arriving now reads the match from its start.
    let mut s = server.ws().await;
    s.send(json!({"type": "watch", "match_id": created["match_id"]})).await;
    let w = s.recv_type("welcome").await;
    let lines = w["log"].as_array().unwrap();
    assert_eq!(
        lines[0],
        json!({"seq": 1, "text": "Seat 0 locked in its Alphas and Divine Interventions, sealed until the end"})
    );
    assert!(lines.iter().any(|l| l["seq"] == 3 && l["text"].as_str().unwrap().starts_with("Seat 0 summoned ")), "{w}");
    assert_eq!(lines.last().unwrap()["text"], "Turn 2: Seat 1's first turn (summoning only)");
    let seqs: Vec<u64> = lines.iter().map(|l| l["seq"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|p| p[0] <= p[1]) && *seqs.last().unwrap() == w["seq"].as_u64().unwrap());

    // Over, stopped, started again: the finished match's welcome tells it all.
    assert_eq!(b.act(3, json!({"type": "resign"})).await["type"], "ack");
    server.stop().await;
    let server = Server::start(config(&dir)).await;
    let mut s = server.ws().await;
    s.send(json!({"type": "watch", "match_id": created["match_id"]})).await;
    let again = s.recv_type("welcome").await;
    let again = again["log"].as_array().unwrap();
    assert_eq!(again[..lines.len()], lines[..], "the same lines, rebuilt from the stored log");
    assert_eq!(again.last().unwrap()["text"], "Seat 1 resigned: Seat 0 won");

    // Nim has no words: no log, no words beside its legal actions.
    let (nim, _, _) = server.nim_pair(json!({"pile": 9})).await;
    let w = server.ws().await.hello(&nim["tokens"][0], None).await;
    assert!(w.get("log").is_none(), "{w}");
    assert!(w["legal"].as_array().is_none_or(|l| l.iter().all(|l| l.get("words").is_none())), "{w}");
    server.stop().await;
}
