//! What a room keeps beside the engine state, over real sockets: the legal
//! actions each player is sent, take-backs (allowed and refused, each with
//! its code) and hand-overs of seats, all surviving a restart.

use crate::common::{config, temp_dir, Client, Server};
use athlas_server::config::Config;
use serde_json::{json, Value};

/// Send a request frame carrying `id`; its answer (`ack` or `error`).
async fn request(c: &mut Client, frame: Value) -> Value {
    let id = frame["id"].clone();
    c.send(frame).await;
    loop {
        let m = c.recv().await;
        if (m["type"] == "ack" || m["type"] == "error") && m["id"] == id {
            return m;
        }
    }
}

/// The next update frame.
async fn next_update(c: &mut Client) -> Value {
    c.recv_type("update").await
}

/// `update` with the board and the front of `before` (the frame before it)
/// where its view leaves them out, as a client keeps them: an update
/// leaves them out when they did not change (`Ruleset::board_key`).
fn kept(mut update: Value, before: &Value) -> Value {
    for part in ["board", "front"] {
        if update["view"].get(part).is_none() {
            update["view"][part] = before["view"][part].clone();
        }
    }
    update
}

/// The actions listed for `seat` in a welcome or update.
fn legal_of(frame: &Value, seat: u64) -> Vec<Value> {
    frame["legal"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|l| l["seat"] == seat)
        .map(|l| l["actions"].as_array().unwrap().clone())
        .unwrap_or_default()
}

fn waiting(frame: &Value) -> Vec<u64> {
    frame["status"]["seats"].as_array().into_iter().flatten().map(|s| s.as_u64().unwrap()).collect()
}

/// A Divinity party of three, every seat connected: (tokens, clients, welcomes).
async fn party(server: &Server) -> (Vec<Value>, Vec<Client>, Vec<Value>) {
    let created = server.create("divinity", json!({"party": ["ifan", "sebille", "red_prince"]})).await;
    let code = created["join_code"].as_str().unwrap();
    let tokens = vec![
        created["token"].clone(),
        server.join(code).await["token"].clone(),
        server.join(code).await["token"].clone(),
    ];
    let mut clients = Vec::new();
    let mut welcomes = Vec::new();
    for t in &tokens {
        let mut c = server.ws().await;
        welcomes.push(c.hello(t, None).await);
        clients.push(c);
    }
    (tokens, clients, welcomes)
}

/// Each waiting seat's player is sent exactly its legal actions; the others
/// none; and every listed action is accepted.
#[tokio::test]
async fn players_are_sent_the_legal_actions_of_the_seats_they_act_for() {
    let dir = temp_dir("table-legal");
    let server = Server::start(config(&dir)).await;
    let (tokens, mut clients, welcomes) = party(&server).await;
    let waited = waiting(&welcomes[0])[0] as usize;
    assert!(!legal_of(&welcomes[waited], waited as u64).is_empty());
    // A client that declines them is sent none.
    let mut quiet = server.ws().await;
    quiet.send(json!({"type": "hello", "token": tokens[waited], "legal": false})).await;
    let w = quiet.recv_type("welcome").await;
    assert!(w.get("legal").is_none(), "declined: {w}");
    let mut frames = welcomes;
    for step in 0..30u64 {
        let w = waiting(&frames[0]);
        assert!(!w.is_empty(), "the location goes on");
        for (seat, f) in frames.iter().enumerate() {
            let listed = legal_of(f, seat as u64);
            assert_eq!(
                !listed.is_empty(),
                w.contains(&(seat as u64)),
                "step {step}: seat {seat} listed iff waited for"
            );
            for l in f["legal"].as_array().into_iter().flatten() {
                assert_eq!(l["seat"], seat as u64, "only its own seat: nothing is handed");
            }
        }
        let seat = w[0] as usize;
        let action = legal_of(&frames[seat], seat as u64)
            [(step as usize * 7) % legal_of(&frames[seat], seat as u64).len()]
        .clone();
        let answer = request(&mut clients[seat], json!({"type": "act", "id": step, "action": action})).await;
        assert_eq!(answer["type"], "ack", "a listed action is accepted: {answer}");
        for (i, c) in clients.iter_mut().enumerate() {
            frames[i] = next_update(c).await;
        }
    }
    server.stop().await;
}

/// Take-back: nothing to take back at first; a seat's own action that
/// revealed nothing goes back (the log keeps both records, every receiver
/// gets an update with `taken_back`, and a restart replays to the same
/// place); another seat's action closes the window; an action that rolled
/// or revealed cannot be taken back.
#[tokio::test]
async fn take_backs_are_allowed_and_refused_with_their_codes_and_survive_a_restart() {
    let dir = temp_dir("table-take-back");
    let server = Server::start(config(&dir)).await;
    let (tokens, mut clients, welcomes) = party(&server).await;
    let mut frames = welcomes;

    let first = request(&mut clients[0], json!({"type": "take_back", "id": 1})).await;
    assert_eq!(first["code"], "nothing_to_take_back", "{first}");

    let (mut allowed, mut revealed, mut others) = (0, 0, 0);
    let mut id = 10;
    let mut before_action: Option<(usize, Value)> = None;
    for _ in 0..200 {
        if allowed > 0 && revealed > 0 && others > 0 {
            break;
        }
        let w = waiting(&frames[0]);
        if w.is_empty() {
            break;
        }
        let seat = w[0] as usize;
        // Another seat's action since `before_action`'s: its take-back is refused.
        if let Some((prev, _)) = &before_action {
            if *prev != seat && others == 0 {
                let previous = *prev;
                let a = request(
                    &mut clients[seat],
                    json!({"type": "act", "id": id, "action": legal_of(&frames[seat], seat as u64)[0]}),
                )
                .await;
                id += 1;
                assert_eq!(a["type"], "ack", "{a}");
                for (i, c) in clients.iter_mut().enumerate() {
                    frames[i] = kept(next_update(c).await, &frames[i]);
                }
                let r = request(&mut clients[previous], json!({"type": "take_back", "id": id})).await;
                id += 1;
                assert_eq!(r["code"], "others_acted", "{r}");
                others += 1;
                before_action = None;
                continue;
            }
        }
        let view_before = frames[seat]["view"].clone();
        let action = legal_of(&frames[seat], seat as u64)[0].clone();
        let a = request(&mut clients[seat], json!({"type": "act", "id": id, "action": action})).await;
        id += 1;
        assert_eq!(a["type"], "ack", "{a}");
        for (i, c) in clients.iter_mut().enumerate() {
            frames[i] = kept(next_update(c).await, &frames[i]);
        }
        let acted_seq = a["seq"].as_u64().unwrap();
        let r = request(&mut clients[seat], json!({"type": "take_back", "id": id})).await;
        id += 1;
        if r["type"] == "ack" {
            allowed += 1;
            for (i, c) in clients.iter_mut().enumerate() {
                let u = next_update(c).await;
                assert_eq!(u["taken_back"], acted_seq, "seat {i} is told what was taken back");
                assert_eq!(u["events"], json!([]));
                assert_eq!(u["seq"], acted_seq + 1, "a take-back is a record of its own");
                frames[i] = kept(u, &frames[i]);
            }
            assert_eq!(frames[seat]["view"], view_before, "the view is as before the action");
            // Played again (and kept) so the game moves on.
            let again = request(&mut clients[seat], json!({"type": "act", "id": id, "action": action})).await;
            id += 1;
            assert_eq!(again["type"], "ack", "{again}");
            for (i, c) in clients.iter_mut().enumerate() {
                frames[i] = kept(next_update(c).await, &frames[i]);
            }
            before_action = Some((seat, action));
        } else {
            let code = r["code"].as_str().unwrap();
            assert!(code == "revealed", "an own last action is refused only because it revealed something: {r}");
            assert!(r["message"].as_str().is_some_and(|m| !m.is_empty()));
            revealed += 1;
            before_action = Some((seat, action));
        }
    }
    assert!(allowed > 0 && revealed > 0 && others > 0, "allowed {allowed}, revealed {revealed}, others {others}");

    // A restart rebuilds from the log, take-backs included, to the same views.
    let seq = frames[0]["seq"].as_u64().unwrap();
    let views: Vec<Value> = frames.iter().map(|f| f["view"].clone()).collect();
    drop(clients);
    server.stop().await;
    let server = Server::start(config(&dir)).await;
    for (i, t) in tokens.iter().enumerate() {
        let mut c = server.ws().await;
        let w = c.hello(t, None).await;
        assert_eq!(w["seq"], seq);
        assert_eq!(w["view"], views[i], "seat {i}: the same table after a restart");
        // And a resume from before the take-backs replays them in order.
        let mut r = server.ws().await;
        let w = r.hello(t, Some(1)).await;
        assert_eq!(w["seq"], 1);
        let mut last = w;
        while last["seq"].as_u64().unwrap() < seq {
            last = kept(next_update(&mut r).await, &last);
        }
        assert_eq!(last["view"], views[i], "seat {i}: resumed through the take-backs");
    }
    server.stop().await;
}

/// Hand-over: a seat hands itself to a friend, who is then sent its legal
/// actions and acts for it (recorded with the sender); strangers may not act
/// for it; the host may hand an absent player's seat but not a connected
/// one's; the owner takes it back; control survives a restart.
#[tokio::test]
async fn seats_are_handed_acted_for_and_taken_back() {
    let dir = temp_dir("table-hand");
    let cfg = Config { hand_absent_secs: 0, ..config(&dir) };
    let server = Server::start(cfg.clone()).await;
    let (tokens, mut clients, _) = party(&server).await;

    // The host may not take a connected player's seat.
    let r = request(&mut clients[0], json!({"type": "hand", "id": 1, "seat": 1, "to": 0})).await;
    assert_eq!(r["code"], "cannot_hand", "{r}");
    // Seat 2 may not hand seat 1 (neither its own, nor host, nor leader).
    let r = request(&mut clients[2], json!({"type": "hand", "id": 2, "seat": 1, "to": 2})).await;
    assert_eq!(r["code"], "cannot_hand", "{r}");
    let r = request(&mut clients[1], json!({"type": "hand", "id": 3, "seat": 7, "to": 0})).await;
    assert_eq!(r["code"], "cannot_hand", "no seat 7: {r}");

    // Seat 1 hands itself to seat 0.
    let r = request(&mut clients[1], json!({"type": "hand", "id": 4, "seat": 1, "to": 0})).await;
    assert_eq!(r["type"], "ack", "{r}");
    let mut frames = Vec::new();
    for c in clients.iter_mut() {
        let u = next_update(c).await;
        assert_eq!(u["control"], json!([null, 0, null]), "everyone sees who controls seat 1");
        frames.push(u);
    }
    // Play until seat 1 is waited for; seat 0's player acts for it.
    let mut id = 10;
    let mut acted_for = false;
    for _ in 0..100 {
        let w = waiting(&frames[0]);
        if w.contains(&1) {
            assert!(!legal_of(&frames[0], 1).is_empty(), "seat 0's player is sent seat 1's legal actions");
            let action = legal_of(&frames[0], 1)[0].clone();
            let stranger =
                request(&mut clients[2], json!({"type": "act", "id": id, "seat": 1, "action": action})).await;
            id += 1;
            assert_eq!(stranger["code"], "not_your_seat", "{stranger}");
            let a = request(&mut clients[0], json!({"type": "act", "id": id, "seat": 1, "action": action})).await;
            id += 1;
            assert_eq!(a["type"], "ack", "{a}");
            for (i, c) in clients.iter_mut().enumerate() {
                frames[i] = next_update(c).await;
            }
            assert_eq!(
                (frames[2]["seat"].as_u64(), frames[2]["sender"].as_u64()),
                (Some(1), Some(0)),
                "acted for seat 1 by seat 0"
            );
            acted_for = true;
            break;
        }
        let seat = w[0] as usize;
        let a = request(
            &mut clients[seat],
            json!({"type": "act", "id": id, "action": legal_of(&frames[seat], seat as u64)[0]}),
        )
        .await;
        id += 1;
        assert_eq!(a["type"], "ack", "{a}");
        for (i, c) in clients.iter_mut().enumerate() {
            frames[i] = next_update(c).await;
        }
    }
    assert!(acted_for, "seat 1 was waited for");

    // Seat 2's player leaves; the host hands seat 2 to seat 0.
    drop(clients.pop());
    let mut handed = false;
    for _ in 0..50 {
        let r = request(&mut clients[0], json!({"type": "hand", "id": id, "seat": 2, "to": 0})).await;
        id += 1;
        if r["type"] == "ack" {
            handed = true;
            break;
        }
        assert_eq!(r["code"], "cannot_hand", "{r}");
        // The room has not noticed the close yet.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(handed, "an absent player's seat is handed by the host");
    for c in clients.iter_mut() {
        let u = next_update(c).await;
        assert_eq!(u["control"], json!([null, 0, 0]));
    }

    // A restart keeps who controls what; the owners take their seats back.
    drop(clients);
    server.stop().await;
    let server = Server::start(cfg).await;
    let mut one = server.ws().await;
    let w = one.hello(&tokens[1], None).await;
    assert_eq!(w["control"], json!([null, 0, 0]), "control survives a restart");
    let r = request(&mut one, json!({"type": "hand", "id": 1, "seat": 1, "to": null})).await;
    assert_eq!(r["type"], "ack", "the owner takes its seat back: {r}");
    let u = next_update(&mut one).await;
    assert_eq!(u["control"], json!([null, null, 0]));
    server.stop().await;
}

/// The host may hand an absent player's seat only once that player has
/// been away for the server's `--hand-absent-secs`: a friend who drops for
/// a moment keeps the seat.
#[tokio::test]
async fn an_absent_seat_is_handed_only_after_the_absence_delay() {
    let dir = temp_dir("table-hand-delay");
    let cfg = Config { hand_absent_secs: 1, ..config(&dir) };
    let server = Server::start(cfg).await;
    let (_, mut clients, _) = party(&server).await;
    drop(clients.pop());
    let left = std::time::Instant::now();
    let r = request(&mut clients[0], json!({"type": "hand", "id": 1, "seat": 2, "to": 0})).await;
    assert_eq!(r["code"], "cannot_hand", "away for less than a second: {r}");
    let mut id = 2;
    let handed_after = loop {
        let r = request(&mut clients[0], json!({"type": "hand", "id": id, "seat": 2, "to": 0})).await;
        id += 1;
        if r["type"] == "ack" {
            break left.elapsed();
        }
        assert_eq!(r["code"], "cannot_hand", "{r}");
        assert!(r["message"].as_str().unwrap().contains("less than 1 s"), "{r}");
        assert!(id < 200, "the seat is handed once its player has been away long enough");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert!(handed_after >= std::time::Duration::from_secs(1), "handed after {handed_after:?}");
    server.stop().await;
}
