//! After a duel: its replay, step by step as a spectator saw it (`GET
//! /api/matches/{id}/replay?seq=N`, refused before the end), and its
//! rematch (`POST /api/matches/{id}/rematch`): one offers, the other
//! accepts, one new match with the options kept and the seats swapped.

use crate::common::{config, temp_dir, Client, Server};
use serde_json::{json, Value};

/// A duel over sockets: both seats and a spectator connected.
struct Duel {
    id: String,
    tokens: [Value; 2],
    seats: [Client; 2],
    spectator: Client,
    /// Each seat's latest view, whole (an update may leave the board out).
    views: [Value; 2],
    /// The spectator's view after each seq, whole, from its welcome on.
    published: Vec<Value>,
    status: Value,
}

/// `view` with the board parts an update left out taken from `before`.
fn whole(mut view: Value, before: &Value) -> Value {
    for part in ["hexes", "players"] {
        if view.get(part).is_none() {
            view[part] = before[part].clone();
        }
    }
    view
}

impl Duel {
    async fn start(server: &Server, options: Value) -> Duel {
        let created = server.create("duel", options).await;
        let joined = server.join(created["join_code"].as_str().unwrap()).await;
        let (mut a, mut b) = (server.ws().await, server.ws().await);
        let wa = a.hello(&created["token"], None).await;
        let wb = b.hello(&joined["token"], None).await;
        let mut spectator = server.ws().await;
        spectator.send(json!({"type": "watch", "match_id": created["match_id"]})).await;
        let ws = spectator.recv_type("welcome").await;
        assert_eq!(ws["seq"], 0);
        Duel {
            id: created["match_id"].as_str().unwrap().to_owned(),
            tokens: [created["token"].clone(), joined["token"].clone()],
            seats: [a, b],
            spectator,
            views: [wa["view"].clone(), wb["view"].clone()],
            published: vec![ws["view"].clone()],
            status: wa["status"].clone(),
        }
    }

    /// `seat` acts; every socket's update for it is read.
    async fn act(&mut self, seat: usize, action: Value) {
        let id = self.published.len() as u64;
        let ack = self.seats[seat].act(id, action.clone()).await;
        assert_eq!(ack["type"], "ack", "{action} by seat {seat}: {ack}");
        let seq = ack["seq"].as_u64().unwrap();
        for s in 0..2 {
            let u = self.seats[s].recv_type("update").await;
            assert_eq!(u["seq"], seq);
            self.views[s] = whole(u["view"].clone(), &self.views[s]);
            self.status = u["status"].clone();
        }
        let u = self.spectator.recv_type("update").await;
        assert_eq!(u["seq"].as_u64(), Some(self.published.len() as u64), "one update a record");
        let before = self.published.last().unwrap();
        let view = whole(u["view"].clone(), before);
        self.published.push(view);
    }

    /// Both seats take a preset, then the seat the game waits for does
    /// the first thing it may that neither ends the game nor discards,
    /// `moves` times.
    async fn play(&mut self, moves: usize) {
        for _ in 0..moves {
            let seat = self.status["seats"][0].as_u64().expect("the game goes on") as usize;
            let legal = self.views[seat]["legal"].as_array().unwrap().clone();
            let quiet = ["resign", "offer_draw", "accept_draw", "decline_draw", "discard_di", "set_auto_pass"];
            let action = legal
                .iter()
                .find(|a| !quiet.contains(&a["type"].as_str().unwrap()))
                .unwrap_or_else(|| panic!("seat {seat} has nothing to do: {legal:?}"))
                .clone();
            // A listed choice (Flood's "up to 4 hexes") is sent as one choice.
            let listed: athlas_engine::duel::DuelAction = serde_json::from_value(action).unwrap();
            let sent = <athlas_engine::duel::Duel as athlas_engine::Ruleset>::as_sent(&listed, &mut |_| 0);
            self.act(seat, serde_json::to_value(sent).unwrap()).await;
        }
    }

    async fn replay(&self, server: &Server, seq: Option<u64>) -> (u16, Value) {
        let q = seq.map(|s| format!("?seq={s}")).unwrap_or_default();
        server.http("GET", &format!("/api/matches/{}/replay{q}", self.id), None).await
    }
}

#[tokio::test]
async fn replay_steps_are_the_views_the_spectator_was_sent_and_wait_for_the_end() {
    let dir = temp_dir("replay");
    let server = Server::start(config(&dir)).await;
    let mut duel = Duel::start(&server, json!({"summoning_points": 250})).await;
    duel.play(30).await;

    // Before the end: nothing, not even the start (the seed is a secret).
    for seq in [None, Some(0), Some(3)] {
        let (status, body) = duel.replay(&server, seq).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("not_finished")), "{body}");
    }

    duel.act(0, json!({"type": "resign"})).await;
    assert_eq!(duel.status, json!({"status": "finished", "result": "win", "seat": 1}));
    let last = duel.published.len() as u64 - 1;
    for seq in 0..=last {
        let (status, step) = duel.replay(&server, Some(seq)).await;
        assert_eq!(status, 200, "{step}");
        assert_eq!((step["seq"].as_u64(), step["last"].as_u64()), (Some(seq), Some(last)));
        assert_eq!(step["view"], duel.published[seq as usize], "the spectator's view at seq {seq}");
        assert_eq!(step["kind"].as_str(), (seq > 0).then_some("action"));
    }
    // Left out, the step is the last: the final view, with how it ended.
    let (_, step) = duel.replay(&server, None).await;
    assert_eq!(step["seq"].as_u64(), Some(last));
    assert_eq!(step["view"], *duel.published.last().unwrap());
    assert_eq!(step["view"]["ending"], json!({"how": "resigned", "seat": 0}));
    assert_eq!(step["seat"], 0);
    assert!(step["events"].as_array().unwrap().iter().any(|e| e["event"] == "game_over"), "{step}");
    // What the fold checked, as `athlas verify` does.
    let v = &step["verified"];
    assert_eq!(v["records"].as_u64(), Some(last));
    assert_eq!(v["hashes"].as_u64(), Some(last), "every record carries its state hash");
    assert_eq!(v["commitments"], 2, "both creations opened");
    assert_eq!(v["outcome"], json!({"result": "win", "seat": 1}));

    let (status, body) = duel.replay(&server, Some(last + 1)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_request")));
    let (status, body) = server.http("GET", "/api/matches/00000000-0000-0000-0000-000000000000/replay", None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    server.stop().await;
}

#[tokio::test]
async fn a_diverging_log_is_not_replayed() {
    let dir = temp_dir("replay-diverged");
    let server = Server::start(config(&dir)).await;
    let mut duel = Duel::start(&server, json!({})).await;
    duel.play(4).await;
    duel.act(1, json!({"type": "resign"})).await;
    let db = sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.join("athlas.db").display())).await.unwrap();
    sqlx::query("UPDATE actions SET state_hash = ? WHERE match_id = ? AND seq = 3")
        .bind(format!("4:{}", "0".repeat(64)))
        .bind(&duel.id)
        .execute(&db)
        .await
        .unwrap();
    let (status, body) = duel.replay(&server, Some(1)).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("log_diverged")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("seq 3"), "{body}");
    server.stop().await;
}

fn bearer(token: &Value) -> Option<&str> {
    token.as_str()
}

#[tokio::test]
async fn a_rematch_offered_and_accepted_is_one_match_with_the_options_kept_and_the_seats_swapped() {
    let dir = temp_dir("rematch");
    let server = Server::start(config(&dir)).await;
    let options = json!({"summoning_points": 180, "first_player": 0, "live": true});
    let mut duel = Duel::start(&server, options).await;
    let other = Duel::start(&server, json!({})).await;
    let path = format!("/api/matches/{}/rematch", duel.id);

    // Not before the end.
    let (status, body) = server.http_as("POST", &path, None, bearer(&duel.tokens[1])).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("not_finished")), "{body}");
    duel.play(2).await;
    duel.act(1, json!({"type": "resign"})).await;

    // Only its players: no token, another match's token.
    let (status, body) = server.http_as("POST", &path, None, None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("no_token")));
    let (status, body) = server.http_as("POST", &path, None, bearer(&other.tokens[0])).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("bad_token")));
    let (_, none) = server.http("GET", &path, None).await;
    assert_eq!(none, json!({"offered_by": null, "match_id": null}));

    // Seat 1 offers (twice: its page lost the first answer); its seat in the rematch is 0.
    let (status, first) = server.http_as("POST", &path, None, bearer(&duel.tokens[1])).await;
    assert_eq!((status, first["status"].as_str(), first["seat"].as_u64()), (202, Some("offered"), Some(0)), "{first}");
    let (status, offer) = server.http_as("POST", &path, None, bearer(&duel.tokens[1])).await;
    assert_eq!((status, offer["status"].as_str()), (202, Some("offered")));
    assert_ne!(offer["token"], first["token"], "a new token replaces the old");
    let (_, offered) = server.http("GET", &path, None).await;
    assert_eq!(offered, json!({"offered_by": 1, "match_id": null}));

    // Seat 0 accepts: the rematch, its seat in it 1.
    let (status, accepted) = server.http_as("POST", &path, None, bearer(&duel.tokens[0])).await;
    assert_eq!((status, accepted["status"].as_str(), accepted["seat"].as_u64()), (201, Some("accepted"), Some(1)));
    let new_id = accepted["match_id"].as_str().unwrap().to_owned();
    let (_, now) = server.http("GET", &path, None).await;
    assert_eq!(now, json!({"offered_by": 1, "match_id": new_id}));

    // One rematch: a second answer from either seat is refused.
    for token in &duel.tokens {
        let (status, body) = server.http_as("POST", &path, None, bearer(token)).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("already_rematched")), "{body}");
        assert!(body["message"].as_str().unwrap().contains(&new_id));
    }
    let all = server.hub.store.all_matches(100).await.unwrap();
    assert_eq!(all.len(), 3, "the two duels and one rematch");

    // The options kept, both seats taken, the players swapped.
    let old = all.iter().find(|m| m.id.to_string() == duel.id).unwrap();
    let new = all.iter().find(|m| m.id.to_string() == new_id).unwrap();
    assert_eq!((&new.options, new.live, new.private, new.seats), (&old.options, true, false, 2));
    assert_eq!(new.options["first_player"], 0, "the other player, now in seat 0, moves first");
    assert_eq!((new.status.as_str(), &new.seats_taken[..]), ("active", &[0u8, 1][..]));
    assert_ne!(new.seed, old.seed);
    let mut was_one = server.ws().await;
    let w = was_one.hello(&offer["token"], None).await;
    assert_eq!((w["match_id"].as_str(), w["seat"].as_u64()), (Some(new_id.as_str()), Some(0)));
    assert_eq!(w["view"]["phase"]["phase"], "creation");
    assert_eq!(w["view"]["max_points"], 180);
    let mut was_zero = server.ws().await;
    assert_eq!(was_zero.hello(&accepted["token"], None).await["seat"], 1);
    // The first token of the offer was replaced: it holds no seat.
    let mut stale = server.ws().await;
    stale.send(json!({"type": "hello", "token": first["token"]})).await;
    assert_eq!(stale.recv().await["code"], "bad_token");
    server.stop().await;
}
