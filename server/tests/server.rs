//! End-to-end tests over real sockets: the lobby, the WebSocket protocol,
//! secrets, reconnects, restarts and timers.

use crate::common::{config, temp_dir, Server};
use serde_json::{json, Value};

#[tokio::test]
async fn lobby_creates_joins_and_refuses_a_full_match() {
    let dir = temp_dir("lobby");
    let server = Server::start(config(&dir)).await;

    let created = server.create("nim", json!({"pile": 7})).await;
    assert_eq!(created["seat"], 0);
    assert_eq!(created["token"].as_str().unwrap().len(), 64);
    let id = created["match_id"].as_str().unwrap().to_owned();
    let code = created["join_code"].as_str().unwrap().to_owned();

    let (status, summary) = server.http("GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(summary["game"], "nim");
    assert_eq!(summary["status"], "open");
    assert_eq!(summary["seats_taken"], json!([0]));
    assert_eq!(summary["seq"], 0);
    assert!(summary.get("token").is_none() && !summary.to_string().contains(created["token"].as_str().unwrap()));

    let (_, open) = server.http("GET", "/api/matches?status=open", None).await;
    assert!(open["matches"].as_array().unwrap().iter().any(|m| m["match_id"] == id.as_str()));

    let joined = server.join(&code.to_lowercase()).await;
    assert_eq!(joined["seat"], 1);
    assert_eq!(joined["match_id"], id.as_str());
    assert_ne!(joined["token"], created["token"]);

    let (status, body) = server.http("POST", &format!("/api/join/{code}"), None).await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "match_full");
    assert!(body["message"].is_string());

    let (_, summary) = server.http("GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(summary["status"], "active");
    assert_eq!(summary["seats_taken"], json!([0, 1]));
    assert!(summary.get("join_code").is_none());
    let (_, open) = server.http("GET", "/api/matches?status=open", None).await;
    assert!(!open["matches"].as_array().unwrap().iter().any(|m| m["match_id"] == id.as_str()));

    let cases = [
        ("POST", "/api/matches", Some("{not json"), 400, "bad_json"),
        ("POST", "/api/matches", Some(r#"{"game":"chess"}"#), 400, "unknown_game"),
        ("POST", "/api/matches", Some(r#"{"game":"nim","options":{"pile":0}}"#), 400, "bad_options"),
        ("POST", "/api/matches", Some(r#"{"game":"nim","options":{"live":"yes"}}"#), 400, "bad_options"),
        ("POST", "/api/matches", Some(r#"{"game":"nim","options":{"private":1}}"#), 400, "bad_options"),
        ("POST", "/api/join/NOSUCHCODE", None, 404, "not_found"),
        ("GET", "/api/matches/not-a-uuid", None, 404, "not_found"),
        ("GET", "/api/matches/00000000-0000-0000-0000-000000000000", None, 404, "not_found"),
        ("GET", "/api/matches?status=weird", None, 400, "bad_request"),
    ];
    for (method, path, body, status, code) in cases {
        let (s, b) = server.http(method, path, body).await;
        assert_eq!((s, b["code"].as_str()), (status, Some(code)), "{method} {path}: {b}");
    }
    let (s, b) = server.http("GET", "/healthz", None).await;
    assert_eq!((s, b), (200, json!("ok")));
    let (s, _) = server.http("GET", "/readyz", None).await;
    assert_eq!(s, 200);
    server.stop().await;
}

#[tokio::test]
async fn a_private_match_is_never_listed_but_joins_by_code_and_is_watched_by_id() {
    let dir = temp_dir("private");
    let server = Server::start(config(&dir)).await;
    let public = server.create("nim", json!({"pile": 7})).await;
    let private = server.create("nim", json!({"pile": 7, "private": true})).await;
    let id = private["match_id"].as_str().unwrap().to_owned();
    let code = private["join_code"].as_str().unwrap().to_owned();
    let listed = |list: &Value, id: &str| list["matches"].as_array().unwrap().iter().any(|m| m["match_id"] == id);

    let (_, open) = server.http("GET", "/api/matches?status=open", None).await;
    assert!(listed(&open, public["match_id"].as_str().unwrap()), "{open}");
    assert!(!listed(&open, &id), "{open}");
    assert!(!open.to_string().contains(&code), "{open}");
    // Its id is what spectators get: the summary has no join code.
    let (status, summary) = server.http("GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(
        (status, summary["status"].as_str(), &summary["private"]),
        (200, Some("open"), &json!(true)),
        "{summary}"
    );
    assert!(summary.get("join_code").is_none(), "{summary}");
    let (_, summary) =
        server.http("GET", &format!("/api/matches/{}", public["match_id"].as_str().unwrap()), None).await;
    assert_eq!(summary["private"], false);
    assert!(summary["join_code"].is_string());

    // The option is the server's, not the game's: nim (deny_unknown_fields)
    // would refuse it. The code joins; the id is watched.
    let joined = server.join(&code).await;
    assert_eq!((joined["match_id"].as_str(), joined["seat"].as_u64()), (Some(id.as_str()), Some(1)));
    let mut b = server.ws().await;
    b.hello(&joined["token"], None).await;
    let mut spectator = server.ws().await;
    spectator.send(json!({"type": "watch", "match_id": id})).await;
    let w = spectator.recv().await;
    assert_eq!((w["type"].as_str(), w["view"]["pile"].as_u64()), (Some("welcome"), Some(7)), "{w}");
    for status in ["open", "active", "finished"] {
        let (_, list) = server.http("GET", &format!("/api/matches?status={status}"), None).await;
        assert!(!listed(&list, &id), "{status}: {list}");
    }
    server.stop().await;
}

#[tokio::test]
async fn bad_frames_get_error_frames_and_the_connection_stays_open() {
    let dir = temp_dir("frames");
    let server = Server::start(config(&dir)).await;
    let mut c = server.ws().await;

    let expect = |m: &Value, code: &str| {
        assert_eq!((m["type"].as_str(), m["code"].as_str()), (Some("error"), Some(code)), "{m}")
    };
    c.send_text("{not json".into()).await;
    expect(&c.recv().await, "bad_json");
    c.send(json!({"type": "dance"})).await;
    expect(&c.recv().await, "unknown_type");
    c.send(json!({"no": "type"})).await;
    expect(&c.recv().await, "bad_json");
    c.send(json!({"type": "hello"})).await;
    expect(&c.recv().await, "bad_json");
    c.send(json!({"type": "hello", "token": "0".repeat(64)})).await;
    expect(&c.recv().await, "bad_token");
    c.send(json!({"type": "watch", "match_id": "nope"})).await;
    expect(&c.recv().await, "not_found");
    // A well-formed id of no match: answered at once, not left waiting.
    c.send(json!({"type": "watch", "match_id": uuid::Uuid::new_v4().to_string()})).await;
    expect(&c.recv().await, "not_found");
    c.send(json!({"type": "act", "id": 9, "action": {"type": "take", "n": 1}})).await;
    let m = c.recv().await;
    expect(&m, "not_seated");
    assert_eq!(m["id"], 9);
    c.send_text(format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(70 * 1024))).await;
    expect(&c.recv().await, "frame_too_large");
    c.send(json!({"type": "hello", "token": "t", "protocol": 99})).await;
    expect(&c.recv().await, "unsupported_protocol");
    c.ping_pong().await;
    // A repeated key is no error (the last one counts), as it never was.
    c.send_text(r#"{"type":"act","type":"ping"}"#.into()).await;
    assert_eq!(c.recv().await["type"], "pong");

    // After all that, the same connection still takes a seat.
    let created = server.create("nim", json!({})).await;
    let w = c.hello(&created["token"], None).await;
    assert_eq!(w["seat"], 0);
    assert_eq!(w["seq"], 0);
    assert_eq!(w["protocol"], 1);
    c.send(json!({"type": "hello", "token": created["token"]})).await;
    expect(&c.recv().await, "already_joined");
    server.stop().await;
}

/// The connection decides who may act (the room trusts the seat it is
/// given): a spectator's act never reaches the game.
#[tokio::test]
async fn a_spectator_cannot_act() {
    let dir = temp_dir("spectator");
    let server = Server::start(config(&dir)).await;
    let (m, mut a, _b) = server.nim_pair(json!({})).await;
    let mut spectator = server.ws().await;
    spectator.send(json!({"type": "watch", "match_id": m["match_id"]})).await;
    assert_eq!(spectator.recv().await["type"], "welcome");
    let e = spectator.act(5, json!({"type": "secret", "value": 3})).await;
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str(), e["id"].as_u64()),
        (Some("error"), Some("not_seated"), Some(5))
    );
    // Nothing was applied: seat 0 locks its secret as the first action.
    let ack = a.act(1, json!({"type": "secret", "value": 3})).await;
    assert_eq!((ack["type"].as_str(), ack["seq"].as_u64()), (Some("ack"), Some(1)), "{ack}");
    server.stop().await;
}

#[tokio::test]
async fn a_rejected_action_changes_nothing_and_secrets_stay_with_their_seat() {
    let dir = temp_dir("play");
    let server = Server::start(config(&dir)).await;
    let (m, mut a, mut b) = server.nim_pair(json!({"pile": 5})).await;
    let mut spectator = server.ws().await;
    spectator.send(json!({"type": "watch", "match_id": m["match_id"]})).await;
    let w = spectator.recv().await;
    assert_eq!((w["type"].as_str(), &w["seat"]), (Some("welcome"), &Value::Null));

    // Taking before both secrets are locked breaks a rule.
    let e = a.act(1, json!({"type": "take", "n": 1})).await;
    assert_eq!((e["type"].as_str(), e["code"].as_str()), (Some("error"), Some("setup")));
    let e = a.act(2, json!({"type": "fly"})).await;
    assert_eq!(e["code"], "bad_action");

    assert_eq!(a.act(3, json!({"type": "secret", "value": 4242})).await, json!({"type": "ack", "id": 3, "seq": 1}));
    let ua = a.recv_type("update").await;
    assert_eq!(ua["view"]["my_secret"], 4242);
    assert!(ua["events"].as_array().unwrap().iter().any(|e| e["type"] == "secret_chosen"));
    let ub = b.recv_type("update").await;
    assert_eq!(ub["seq"], 1);
    assert_eq!(ub["view"]["my_secret"], Value::Null);
    assert!(!ub.to_string().contains("4242"), "{ub}");
    let us = spectator.recv_type("update").await;
    assert!(!us.to_string().contains("4242"), "{us}");
    assert_eq!(us["view"]["locked"], json!([true, false]));

    // Commitments go to everyone, without the secret.
    let ca = a.recv_type("commitment").await;
    let cb = b.recv_type("commitment").await;
    let cs = spectator.recv_type("commitment").await;
    assert_eq!(ca, cb);
    assert_eq!(ca, cs);
    assert_eq!((ca["seat"].as_u64(), ca["hash"].as_str().unwrap().len()), (Some(0), 64));

    assert_eq!(b.act(1, json!({"type": "secret", "value": 77})).await["seq"], 2);
    let hash_b = b.recv_type("commitment").await["hash"].clone();

    // Out of turn: an error with the rule's code; seq does not move.
    let e = b.act(2, json!({"type": "take", "n": 1})).await;
    assert_eq!((e["code"].as_str(), e["id"].as_u64()), (Some("not_your_turn"), Some(2)));
    let (_, summary) = server.http("GET", &format!("/api/matches/{}", m["match_id"].as_str().unwrap()), None).await;
    assert_eq!(summary["seq"], 2);
    assert_eq!(a.act(4, json!({"type": "take", "n": 3})).await["seq"], 3);
    let u = b.recv_type("update").await;
    assert_eq!((u["seq"].as_u64(), u["view"]["pile"].as_u64()), (Some(3), Some(2)));
    assert_eq!(u["events"], json!([{"type": "took", "seat": 0, "n": 3, "left": 2}]));

    // The end: winner, then each seat's salt and secret so anyone can verify.
    assert_eq!(b.act(3, json!({"type": "take", "n": 2})).await["seq"], 4);
    let u = loop {
        let u = spectator.recv_type("update").await;
        if u["seq"] == 4 {
            break u;
        }
    };
    assert_eq!(u["status"], json!({"status": "finished", "result": "win", "seat": 1}));
    let mut reveals = Vec::new();
    while reveals.len() < 2 {
        let r = spectator.recv().await;
        if r["type"] == "reveal" {
            reveals.push(r);
        }
    }
    for r in &reveals {
        let salt = hex::decode(r["salt"].as_str().unwrap()).unwrap();
        assert_eq!(athlas_server::secret::commitment(&salt, &r["secret"]), r["hash"].as_str().unwrap());
    }
    assert_eq!(reveals[1]["secret"], json!({"value": 77}));
    assert_eq!(reveals[1]["hash"], hash_b);
    assert!(spectator.recv_type("seed").await["seed"].is_string());
    let e = a.act(9, json!({"type": "take", "n": 1})).await;
    assert_eq!(e["code"], "finished");
    let (_, summary) = server.http("GET", &format!("/api/matches/{}", m["match_id"].as_str().unwrap()), None).await;
    assert_eq!((summary["status"].as_str(), summary["seq"].as_u64()), (Some("finished"), Some(4)));
    server.stop().await;
}

#[tokio::test]
async fn a_reconnect_with_last_seq_receives_every_missed_update() {
    let dir = temp_dir("reconnect");
    let server = Server::start(config(&dir)).await;
    let (m, mut a, mut b) = server.nim_pair(json!({"pile": 30})).await;
    // Seat 1 also watches from a second device, which drops after seq 3.
    let mut phone = server.ws().await;
    phone.hello(&m["tokens"][1], None).await;
    a.act(1, json!({"type": "secret", "value": 1})).await;
    b.act(1, json!({"type": "secret", "value": 2})).await;
    a.act(2, json!({"type": "take", "n": 1})).await;
    while phone.recv_type("update").await["seq"] != 3 {}
    drop(phone);
    assert_eq!(b.act(2, json!({"type": "take", "n": 2})).await["seq"], 4);
    assert_eq!(a.act(3, json!({"type": "take", "n": 3})).await["seq"], 5);
    assert_eq!(b.act(3, json!({"type": "take", "n": 1})).await["seq"], 6);

    let mut phone = server.ws().await;
    let w = phone.hello(&m["tokens"][1], Some(3)).await;
    assert_eq!(w["seq"], 3);
    assert_eq!(w["view"]["pile"], 29);
    assert_eq!(w["view"]["my_secret"], 2);
    let mut piles = Vec::new();
    for seq in 4..=6 {
        let u = phone.recv_type("update").await;
        assert_eq!(u["seq"], seq, "{u}");
        assert_eq!(u["view"]["my_secret"], 2);
        piles.push(u["view"]["pile"].as_u64().unwrap());
    }
    assert_eq!(piles, [27, 24, 23]);
    // ...and the game goes on from there.
    assert_eq!(a.act(4, json!({"type": "take", "n": 1})).await["seq"], 7);
    assert_eq!(phone.recv_type("update").await["seq"], 7);

    // A connection without last_seq gets the current state.
    let mut other = server.ws().await;
    let w = other.hello(&m["tokens"][1], None).await;
    assert_eq!((w["seq"].as_u64(), w["view"]["pile"].as_u64()), (Some(7), Some(22)));
    server.stop().await;
}

#[tokio::test]
async fn after_a_restart_on_the_same_database_the_game_goes_on() {
    let dir = temp_dir("restart");
    let server = Server::start(config(&dir)).await;
    let (m, mut a, mut b) = server.nim_pair(json!({"pile": 9})).await;
    a.act(1, json!({"type": "secret", "value": 5})).await;
    b.act(1, json!({"type": "secret", "value": 6})).await;
    a.act(2, json!({"type": "take", "n": 2})).await;
    server.stop().await;
    // The old connections are told and closed.
    assert_eq!(a.recv_type("error").await["code"], "shutting_down");

    // Snapshot every 2 actions, so the rebuild uses a snapshot and a replay.
    let server = Server::start(athlas_server::Config { snapshot_every: 2, ..config(&dir) }).await;
    let mut b = server.ws().await;
    let w = b.hello(&m["tokens"][1], None).await;
    assert_eq!(
        (w["seq"].as_u64(), w["view"]["pile"].as_u64(), w["view"]["my_secret"].as_u64()),
        (Some(3), Some(7), Some(6))
    );
    // Commitments made before the restart are sent again.
    assert_eq!(b.recv_type("commitment").await["seat"], 0);
    assert_eq!(b.act(1, json!({"type": "take", "n": 3})).await["seq"], 4);
    let mut a = server.ws().await;
    let w = a.hello(&m["tokens"][0], Some(2)).await;
    assert_eq!(w["seq"], 2);
    assert_eq!(a.recv_type("update").await["seq"], 3);
    assert_eq!(a.recv_type("update").await["view"]["pile"], 4);
    assert_eq!(a.act(5, json!({"type": "take", "n": 1})).await["seq"], 5);
    server.stop().await;

    let server = Server::start(config(&dir)).await;
    let mut s = server.ws().await;
    s.send(json!({"type": "watch", "match_id": m["match_id"], "last_seq": 0})).await;
    let w = s.recv().await;
    assert_eq!((w["seq"].as_u64(), w["view"]["pile"].as_u64()), (Some(0), Some(9)));
    for seq in 1..=5 {
        assert_eq!(s.recv_type("update").await["seq"], seq);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_snapshot_that_no_longer_parses_is_rebuilt_by_replay() {
    let dir = temp_dir("stale-snapshot");
    let server = Server::start(athlas_server::Config { snapshot_every: 1, ..config(&dir) }).await;
    let (m, mut a, mut b) = server.nim_pair(json!({"pile": 9})).await;
    a.act(1, json!({"type": "secret", "value": 5})).await;
    b.act(1, json!({"type": "secret", "value": 6})).await;
    a.act(2, json!({"type": "take", "n": 2})).await;
    server.stop().await;

    // Snapshots written by an engine whose state had another shape.
    let db = sqlx::sqlite::SqliteConnectOptions::new().filename(dir.join("athlas.db"));
    let pool = sqlx::SqlitePool::connect_with(db).await.unwrap();
    let stale = sqlx::query("UPDATE snapshots SET state = '{\"stale\": true}'").execute(&pool).await.unwrap();
    assert_eq!(stale.rows_affected(), 3);
    pool.close().await;

    let server = Server::start(config(&dir)).await;
    let mut b = server.ws().await;
    let w = b.hello(&m["tokens"][1], None).await;
    assert_eq!(
        (w["seq"].as_u64(), w["view"]["pile"].as_u64(), w["view"]["my_secret"].as_u64()),
        (Some(3), Some(7), Some(6))
    );
    assert_eq!(b.act(1, json!({"type": "take", "n": 3})).await["seq"], 4);
    server.stop().await;
}

#[tokio::test]
async fn each_connection_has_a_rate_limit() {
    let dir = temp_dir("rate");
    // No refill: exactly `burst` frames get through.
    let server = Server::start(athlas_server::Config { rate_per_sec: 0.0, rate_burst: 3.0, ..config(&dir) }).await;
    let mut c = server.ws().await;
    for _ in 0..5 {
        c.send(json!({"type": "ping"})).await;
    }
    let mut answers = Vec::new();
    for _ in 0..5 {
        let m = c.recv().await;
        answers.push(m["code"].as_str().unwrap_or(m["type"].as_str().unwrap()).to_owned());
    }
    assert_eq!(answers, ["pong", "pong", "pong", "rate_limited", "rate_limited"]);
    // A dropped act is answered with its own id, to be sent again.
    c.send(json!({"type": "act", "id": 42, "action": {"type": "pass"}})).await;
    let m = c.recv().await;
    assert_eq!((m["code"].as_str(), m["id"].as_u64()), (Some("rate_limited"), Some(42)), "{m}");
    server.stop().await;
}

#[tokio::test]
async fn a_live_match_acts_when_the_window_times_out_and_correspondence_waits() {
    let dir = temp_dir("timer");
    let server = Server::start(config(&dir)).await;
    let (_, mut a, mut b) = server.nim_pair(json!({"pile": 9, "live": true})).await;
    let (_, mut c, mut d) = server.nim_pair(json!({"pile": 9})).await;
    a.act(1, json!({"type": "secret", "value": 1})).await;
    b.act(1, json!({"type": "secret", "value": 2})).await;
    c.act(1, json!({"type": "secret", "value": 1})).await;
    d.act(1, json!({"type": "secret", "value": 2})).await;
    let opened = loop {
        let u = b.recv_type("update").await;
        if u["seq"] == 2 {
            break u;
        }
    };
    let untimed = loop {
        let u = d.recv_type("update").await;
        if u["seq"] == 2 {
            break u;
        }
    };
    // The update that opens a live window carries its clock, for the
    // players' countdown; a correspondence match has none.
    let window = server.hub.config.response_timer_secs * 1000;
    let left = opened["timer_ms"].as_u64().expect("a live window's update says how long it has");
    assert!(left > 0 && left <= window, "{left} of {window}");
    assert!(untimed.get("timer_ms").is_none(), "{untimed}");

    // From here on the clock only moves when every task waits.
    tokio::time::pause();
    let u = loop {
        let u = b.recv_unbounded().await;
        if u["type"] == "update" {
            break u;
        }
    };
    assert_eq!((u["seq"].as_u64(), u["seat"].as_u64()), (Some(3), Some(0)));
    assert_eq!(u["events"], json!([{"type": "took", "seat": 0, "n": 1, "left": 8}]));

    // An hour later the correspondence match has not moved.
    tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
    c.send(json!({"type": "act", "id": 2, "action": {"type": "take", "n": 2}})).await;
    let ack = loop {
        let m = c.recv_unbounded().await;
        if m["type"] == "ack" || m["type"] == "error" {
            break m;
        }
    };
    assert_eq!(ack, json!({"type": "ack", "id": 2, "seq": 3}));
    tokio::time::resume();
    server.stop().await;
}

#[tokio::test]
async fn a_match_on_postgres_survives_a_restart() {
    let Some(db) = crate::common::PgDb::create().await else { return };
    let dir = temp_dir("pg");
    let cfg = athlas_server::Config { database_url: Some(db.url.clone()), snapshot_every: 3, ..config(&dir) };
    let server = Server::start(cfg.clone()).await;
    assert_eq!(server.hub.store.backend_name(), "postgres");
    let (m, mut a, mut b) = server.nim_pair(json!({"pile": 12})).await;
    a.act(1, json!({"type": "secret", "value": 1})).await;
    b.act(1, json!({"type": "secret", "value": 2})).await;
    assert_eq!(a.act(2, json!({"type": "take", "n": 3})).await["seq"], 3);
    assert_eq!(b.act(2, json!({"type": "take", "n": 3})).await["seq"], 4);
    server.stop().await;

    let server = Server::start(cfg).await;
    let mut a = server.ws().await;
    let w = a.hello(&m["tokens"][0], Some(2)).await;
    assert_eq!((w["seq"].as_u64(), w["view"]["pile"].as_u64()), (Some(2), Some(12)));
    assert_eq!(a.recv_type("update").await["view"]["pile"], 9);
    assert_eq!(a.recv_type("update").await["view"]["pile"], 6);
    assert_eq!(a.act(3, json!({"type": "take", "n": 1})).await["seq"], 5);
    server.stop().await;
    db.drop().await;
}

#[tokio::test]
async fn an_idle_room_unloads_and_reloads_on_the_next_connection() {
    let dir = temp_dir("idle");
    let server = Server::start(athlas_server::Config { idle_unload_secs: 60, ..config(&dir) }).await;
    let (m, mut a, b) = server.nim_pair(json!({"pile": 12})).await;
    a.act(1, json!({"type": "secret", "value": 1})).await;
    assert_eq!(server.hub.rooms.len(), 1);
    drop((a, b));

    // Paused clock: each sleep lets the room's idle timer run out at once.
    tokio::time::pause();
    let mut waited = 0;
    while !server.hub.rooms.is_empty() {
        tokio::time::sleep(std::time::Duration::from_secs(61)).await;
        waited += 1;
        assert!(waited < 10_000, "the room never unloaded");
    }
    tokio::time::resume();

    let mut a = server.ws().await;
    let w = a.hello(&m["tokens"][0], None).await;
    assert_eq!((w["seq"].as_u64(), w["view"]["my_secret"].as_u64()), (Some(1), Some(1)));
    assert_eq!(server.hub.rooms.len(), 1);
    server.stop().await;
}

/// A WebSocket upgrade request with an optional `Origin`: the HTTP status
/// line and body the server answers with.
async fn upgrade(addr: std::net::SocketAddr, origin: Option<&str>) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(std::time::Duration::from_secs(5), s.read(&mut buf)).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&buf[..n]).to_string();
    (text[9..12].parse().unwrap(), text)
}

#[tokio::test]
async fn browser_origins_outside_the_allowed_list_are_refused() {
    let dir = temp_dir("origins");
    let cfg = athlas_server::Config { allowed_origins: vec!["https://play.example".into()], ..config(&dir) };
    let server = Server::start(cfg).await;
    assert_eq!(upgrade(server.addr, Some("https://play.example")).await.0, 101);
    let (status, body) = upgrade(server.addr, Some("https://evil.example")).await;
    assert_eq!(status, 403);
    assert!(body.contains("origin_not_allowed"), "{body}");
    // Native clients send no Origin and are let in.
    assert_eq!(upgrade(server.addr, None).await.0, 101);
}

#[tokio::test]
async fn connections_past_the_maximum_get_503() {
    let dir = temp_dir("maxconn");
    let server = Server::start(athlas_server::Config { max_connections: 2, ..config(&dir) }).await;
    let _a = server.ws().await;
    let _b = server.ws().await;
    let (status, body) = upgrade(server.addr, None).await;
    assert_eq!(status, 503);
    assert!(body.contains("too_many_connections"), "{body}");
    drop(_a);
    // The slot frees once the first connection is gone.
    let mut freed = false;
    for _ in 0..50 {
        if upgrade(server.addr, None).await.0 == 101 {
            freed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(freed, "a closed connection frees its slot");
}

/// A match's own `turn_timer_ms` times it, live or not: the clock in the
/// frames is that timer's, and when it runs out the game's timeout action
/// is taken and logged with no sender. Out of range is refused.
#[tokio::test]
async fn a_match_with_its_own_turn_timer_is_timed_by_it() {
    let dir = temp_dir("turn-timer");
    let server = Server::start(config(&dir)).await;
    let (created, mut a, mut b) = server.nim_pair(json!({"pile": 9, "turn_timer_ms": 250})).await;
    a.act(1, json!({"type": "secret", "value": 1})).await;
    b.act(1, json!({"type": "secret", "value": 2})).await;
    let opened = loop {
        let u = b.recv_type("update").await;
        if u["seq"] == 2 {
            break u;
        }
    };
    let left = opened["timer_ms"].as_u64().expect("the match's own timer is in the frame");
    assert!(left <= 250, "{opened}");
    // Nobody takes: the timer does (eventually; `recv` waits up to 60 s).
    let u = loop {
        let u = b.recv_type("update").await;
        if u["seq"] == 3 {
            break u;
        }
    };
    assert_eq!((u["seat"].as_u64(), u.get("sender")), (Some(0), None), "{u}");
    let id = created["match_id"].as_str().unwrap().parse().unwrap();
    let log = server.hub.store.actions_after(id, 2).await.unwrap();
    assert_eq!((log[0].seat, &log[0].action), (0, &json!({"type": "take", "n": 1})));

    let (status, body) = server
        .http("POST", "/api/matches", Some(&json!({"game": "nim", "options": {"turn_timer_ms": 0}}).to_string()))
        .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_options")), "{body}");
    server.stop().await;
}
