//! The players at a duel's table: their names (checked, public, in the
//! log's words), their chat (players apart from spectators, never in the
//! published log) and a seat carried to another device by a one-time
//! transfer code.

use crate::common::{config, temp_dir, Client, Server};
use serde_json::{json, Value};

/// Messages up to the next `pong`, after a `ping`: what else was pushed.
async fn until_pong(c: &mut Client) -> Vec<Value> {
    c.send(json!({"type": "ping"})).await;
    let mut got = Vec::new();
    loop {
        let m = c.recv().await;
        if m["type"] == "pong" {
            return got;
        }
        got.push(m);
    }
}

/// A name is checked when a seat is taken (a refused one takes no seat),
/// every welcome carries the names, a seat already here learns a name
/// given later with a `names` frame, and the log's lines call each player
/// by name, after a restart too (the buttons' words go through the same
/// describer: engine test `named_seats_in_words`).
#[tokio::test]
async fn players_choose_names_that_the_log_says() {
    let dir = temp_dir("names");
    let server = Server::start(config(&dir)).await;
    let body = json!({"game": "duel", "name": "  Ada  Lovelace ", "options": {"first_player": 0}}).to_string();
    let (status, created) = server.http("POST", "/api/matches", Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().unwrap().to_owned();
    let code = created["join_code"].as_str().unwrap().to_owned();
    let mut a = server.ws().await;
    let w = a.hello(&created["token"], None).await;
    assert_eq!(w["names"], json!(["Ada Lovelace", null]), "trimmed, one space: {w}");

    for bad in ["<script>", "x".repeat(25).as_str(), "two\nlines", "--"] {
        let (status, e) =
            server.http("POST", &format!("/api/join/{code}"), Some(&json!({"name": bad}).to_string())).await;
        assert_eq!((status, e["code"].as_str()), (400, Some("bad_name")), "{bad:?}: {e}");
    }
    let (_, summary) = server.http("GET", &format!("/api/matches/{id}"), None).await;
    assert_eq!(summary["seats_taken"], json!([0]), "a refused name takes no seat");
    let (status, joined) =
        server.http("POST", &format!("/api/join/{code}"), Some(&json!({"name": "Brünhild"}).to_string())).await;
    assert_eq!(status, 200, "{joined}");

    let mut b = server.ws().await;
    assert_eq!(b.hello(&joined["token"], None).await["names"], json!(["Ada Lovelace", "Brünhild"]));
    let told = a.recv_type("names").await;
    assert_eq!(told["names"], json!(["Ada Lovelace", "Brünhild"]));

    assert_eq!(a.act(1, json!({"type": "use_preset", "preset": "aquatic"})).await["type"], "ack");
    let u = b.recv_type("update").await;
    assert_eq!(u["log"], json!(["Ada Lovelace locked in its Alphas and Divine Interventions, sealed until the end"]));
    assert_eq!(b.act(1, json!({"type": "use_preset", "preset": "rush"})).await["type"], "ack");
    let u = loop {
        let u = a.recv_type("update").await;
        if u["seq"] == 2 {
            break u;
        }
    };
    assert_eq!(u["log"][1], "The Command Phase begins: Ada Lovelace plays first", "{}", u["log"]);
    assert_eq!(u["log"][2], "Turn 1: Ada Lovelace's first turn (summoning only)");
    let summon = u["view"]["legal"].as_array().unwrap().iter().find(|a| a["type"] == "summon").unwrap().clone();
    assert_eq!(a.act(2, summon).await["type"], "ack");
    assert_eq!(a.act(3, json!({"type": "end_turn"})).await["type"], "ack");
    assert_eq!(b.act(2, json!({"type": "offer_draw"})).await["type"], "ack");
    let u = loop {
        let u = a.recv_type("update").await;
        if u["seq"] == 5 {
            break u;
        }
    };
    assert_eq!(u["log"], json!(["Brünhild offered a draw"]));

    // A spectator reads the names too; a restart tells the same lines.
    let mut s = server.ws().await;
    s.send(json!({"type": "watch", "match_id": id})).await;
    let w = s.recv_type("welcome").await;
    assert_eq!(w["names"], json!(["Ada Lovelace", "Brünhild"]));
    let lines = w["log"].clone();
    assert!(lines.as_array().unwrap().iter().all(|l| !l["text"].as_str().unwrap().contains("Seat ")), "{lines}");
    server.stop().await;
    let server = Server::start(config(&dir)).await;
    let mut s = server.ws().await;
    s.send(json!({"type": "watch", "match_id": id})).await;
    assert_eq!(s.recv_type("welcome").await["log"], lines);

    // No name, or an empty one: the seat is "Seat N".
    let created = server.create("duel", json!({})).await;
    let (status, _) = server
        .http("POST", &format!("/api/join/{}", created["join_code"].as_str().unwrap()), Some(r#"{"name":" "}"#))
        .await;
    assert_eq!(status, 200);
    let w = server.ws().await.hello(&created["token"], None).await;
    assert!(w.get("names").is_none(), "{w}");
    server.stop().await;
}

/// The duel's chat: the players' lines reach both players and no
/// spectator, the spectators' lines only spectators (PROTOCOL.md), lines
/// name no one but a seat number (pages show the names), and the
/// published log, which its hashes cover, holds no chat.
#[tokio::test]
async fn duel_chat_stays_between_the_players_and_out_of_the_log() {
    let dir = temp_dir("duel-chat");
    let server = Server::start(config(&dir)).await;
    let created = server.create("duel", json!({"first_player": 0})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let (mut a, mut b, mut s) = (server.ws().await, server.ws().await, server.ws().await);
    a.hello(&created["token"], None).await;
    b.hello(&joined["token"], None).await;
    s.send(json!({"type": "watch", "match_id": created["match_id"]})).await;
    s.recv_type("welcome").await;

    a.send(json!({"type": "chat", "id": 1, "text": "good luck <b>& have fun</b>"})).await;
    let mine = a.recv_type("chat").await;
    assert_eq!(
        (mine["id"].as_u64(), mine["channel"].as_str(), mine["seat"].as_u64()),
        (Some(1), Some("party"), Some(0))
    );
    let theirs = b.recv_type("chat").await;
    assert_eq!(theirs["text"], "good luck <b>& have fun</b>", "text as typed: pages escape it");
    assert!(until_pong(&mut s).await.iter().all(|m| m["type"] != "chat"), "no player's line to a spectator");

    s.send(json!({"type": "chat", "id": 1, "text": "nice opening"})).await;
    assert_eq!(s.recv_type("chat").await["channel"], "spectators");
    for p in [&mut a, &mut b] {
        assert!(until_pong(p).await.iter().all(|m| m["type"] != "chat"), "no spectator's line to a player");
    }

    // A newcomer gets its own channel's lines only.
    let mut late = server.ws().await;
    late.send(json!({"type": "watch", "match_id": created["match_id"]})).await;
    late.recv_type("welcome").await;
    let backlog: Vec<Value> = until_pong(&mut late).await.into_iter().filter(|m| m["type"] == "chat").collect();
    assert_eq!(backlog.len(), 1);
    assert_eq!(backlog[0]["text"], "nice opening");

    assert_eq!(a.act(1, json!({"type": "resign"})).await["type"], "ack");
    let (status, log) =
        server.http("GET", &format!("/api/matches/{}/log", created["match_id"].as_str().unwrap()), None).await;
    assert_eq!(status, 200);
    let text = log.to_string();
    assert!(!text.contains("good luck") && !text.contains("nice opening"), "chat is not in the published log");
    server.stop().await;
}

/// A seat goes to another browser with a transfer code: made with the
/// seat's token only, redeemed once for a token of the same seat (the
/// first keeps its own), refused the second time and once expired.
#[tokio::test]
async fn a_transfer_code_brings_a_seat_to_another_device_once() {
    let dir = temp_dir("transfer");
    let server = Server::start(config(&dir)).await;
    let created = server.create("duel", json!({})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let id = created["match_id"].as_str().unwrap();
    let path = format!("/api/matches/{id}/transfer");

    let (status, e) = server.http("POST", &path, None).await;
    assert_eq!((status, e["code"].as_str()), (401, Some("no_token")));
    let (status, e) = server.http_as("POST", &path, None, Some("not-a-token")).await;
    assert_eq!((status, e["code"].as_str()), (403, Some("bad_token")));

    let (status, offer) = server.http_as("POST", &path, None, joined["token"].as_str()).await;
    assert_eq!(status, 201, "{offer}");
    let code = offer["code"].as_str().unwrap();
    assert_eq!(code.len(), 8);
    assert_eq!(offer["path"], format!("/transfer/{code}"));
    assert!(!offer.to_string().contains(joined["token"].as_str().unwrap()));

    let (status, moved) = server.http("POST", &format!("/api/transfer/{}", code.to_lowercase()), None).await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(
        (moved["match_id"].as_str(), moved["seat"].as_u64(), moved["game"].as_str()),
        (Some(id), Some(1), Some("duel"))
    );
    assert_ne!(moved["token"], joined["token"]);
    let (status, again) = server.http("POST", &format!("/api/transfer/{code}"), None).await;
    assert_eq!((status, again["code"].as_str()), (409, Some("transfer_used")), "{again}");

    // Both browsers hold seat 1 now.
    assert_eq!(server.ws().await.hello(&moved["token"], None).await["seat"], 1);
    assert_eq!(server.ws().await.hello(&joined["token"], None).await["seat"], 1);
    // The new token makes codes too.
    let (status, _) = server.http_as("POST", &path, None, moved["token"].as_str()).await;
    assert_eq!(status, 201);

    // Expired: a code whose ten minutes are over.
    let hash = athlas_server::secret::token_hash("OLDCODE2");
    server.hub.store.add_transfer(&hash, id.parse().unwrap(), 0, 1).await.unwrap();
    let (status, e) = server.http("POST", "/api/transfer/OLDCODE2", None).await;
    assert_eq!((status, e["code"].as_str()), (409, Some("transfer_expired")), "{e}");
    let (status, e) = server.http("POST", "/api/transfer/NOSUCH22", None).await;
    assert_eq!((status, e["code"].as_str()), (404, Some("not_found")));
    server.stop().await;
}
