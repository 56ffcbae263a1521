//! Divinity hosted by the server, one location as one match, as it is
//! without a campaign (`campaign.rs` and `tests/e2e_campaign.rs` chain
//! locations into a stored campaign): a party of
//! three creates and joins over the lobby, plays over real sockets (every
//! refusal a coded error that changes nothing), every seat and a spectator
//! get gap-free frames with their own view, and after a restart each seat
//! resumes from its last seq at the same place.

use crate::common::{config, temp_dir, Client, Server};
use serde_json::{json, Value};

/// Actions worth trying from a view: the server's answer says which are
/// legal (a rejected one changes nothing). Enough to get a tutorial going:
/// the round choice, travel, exploring and resolving cards, rolls and turns.
fn candidates(view: &Value) -> Vec<Value> {
    let mut v = vec![
        json!({"type": "choose_round", "explore": true}),
        json!({"type": "travel", "to": null}),
        json!({"type": "reveal"}),
        json!({"type": "accept"}),
        json!({"type": "start_turn"}),
        json!({"type": "challenge"}),
    ];
    for card in view["revealed"].as_array().into_iter().flatten() {
        v.push(json!({"type": "resolve", "card": card["id"]}));
    }
    v.extend([json!({"type": "end_turn"}), json!({"type": "pass"}), json!({"type": "finish_interlude"})]);
    v
}

/// The spectator's frames up to the update of `seq`, each update the one
/// after the last (`seen`): (status, view). Each update's events come in
/// words too, a line each, gathered in `lines`.
async fn until_seq(spectator: &mut Client, seen: &mut u64, seq: u64, lines: &mut Vec<String>) -> (Value, Value) {
    loop {
        let m = spectator.recv().await;
        if m["type"] == "update" {
            *seen += 1;
            assert_eq!(m["seq"], *seen, "the spectator's updates are gap-free");
            let events = m["events"].as_array().map_or(0, Vec::len);
            let log: Vec<String> =
                m["log"].as_array().into_iter().flatten().map(|l| l.as_str().expect("a line").to_owned()).collect();
            assert_eq!(log.len(), events, "a line per event: {m}");
            lines.extend(log);
            if *seen == seq {
                return (m["status"].clone(), m["view"].clone());
            }
        }
    }
}

#[tokio::test]
async fn a_party_of_three_plays_a_location_over_sockets_and_resumes_after_a_restart() {
    let dir = temp_dir("divinity");
    let server = Server::start(config(&dir)).await;

    // The lobby: the host creates for a party of three, two friends join.
    let (status, body) = server
        .http("POST", "/api/matches", Some(&json!({"game": "divinity", "options": {"party": ["ifan"]}}).to_string()))
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = server
        .http(
            "POST",
            "/api/matches",
            Some(&json!({"game": "divinity", "options": {"party": ["ifan", "ifan"]}}).to_string()),
        )
        .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_options")), "two seats, one Origin: {body}");
    let created = server.create("divinity", json!({"party": ["ifan", "sebille", "red_prince"]})).await;
    let code = created["join_code"].as_str().unwrap();
    let tokens =
        [created["token"].clone(), server.join(code).await["token"].clone(), server.join(code).await["token"].clone()];
    let match_id = created["match_id"].as_str().unwrap().to_owned();

    let mut seats = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let mut c = server.ws().await;
        let w = c.hello(token, None).await;
        assert_eq!((w["seat"].as_u64(), w["game"].as_str()), (Some(i as u64), Some("divinity")));
        assert_eq!(w["view"]["you"], i, "each seat sees itself");
        seats.push(c);
    }
    let mut spectator = server.ws().await;
    spectator.send(json!({"type": "watch", "match_id": match_id})).await;
    let w = spectator.recv_type("welcome").await;
    assert!(w["view"]["you"].is_null());
    let (mut status, mut view) = (w["status"].clone(), w["view"].clone());

    // Play: each waiting seat tries actions; refusals are coded and change nothing.
    let (mut seq, mut id, mut refusals, mut seen) = (0u64, 0u64, 0u32, 0u64);
    let mut lines = Vec::new();
    'play: while seq < 24 {
        let waiting: Vec<usize> =
            status["seats"].as_array().expect("waiting").iter().map(|s| s.as_u64().unwrap() as usize).collect();
        for seat in waiting {
            for action in candidates(&view) {
                id += 1;
                let answer = seats[seat].act(id, action.clone()).await;
                if answer["type"] == "ack" {
                    seq = answer["seq"].as_u64().unwrap();
                    (status, view) = until_seq(&mut spectator, &mut seen, seq, &mut lines).await;
                    continue 'play;
                }
                refusals += 1;
                assert!(
                    answer["code"].as_str().is_some_and(|c| !c.is_empty()) && answer["message"].is_string(),
                    "a refusal has a code and words: {answer}"
                );
            }
        }
        panic!("no candidate was accepted at seq {seq}: status {status}");
    }
    assert!(refusals > 0, "the candidates included refused actions");

    assert!(lines.len() > 10, "the log tells the location: {lines:?}");

    // Every seat ends at the same view as the spectator's but for `you`,
    // with its legal actions in words, one each.
    let mut last_views = Vec::new();
    for (i, c) in seats.iter_mut().enumerate() {
        let last = loop {
            let m = c.recv().await;
            for l in m["legal"].as_array().into_iter().flatten() {
                let (actions, words) = (l["actions"].as_array().unwrap(), l["words"].as_array().expect("words"));
                assert_eq!(actions.len(), words.len(), "a line per action: {l}");
                assert!(words.iter().all(|w| w["text"].as_str().is_some_and(|t| !t.contains('{'))), "{l}");
            }
            if m["type"] == "update" && m["seq"] == seq {
                break m["view"].clone();
            }
        };
        let mut theirs = last.clone();
        theirs["you"] = Value::Null;
        assert_eq!(theirs, view, "seat {i} and a spectator see the same but `you`");
        last_views.push(last);
    }

    // A restart: each seat comes back from a few updates ago, gets the
    // missed ones and stands where it was.
    server.stop().await;
    let server = Server::start(config(&dir)).await;
    // A spectator arriving now reads the whole location's log in words,
    // as it was told, from the room's fold of the stored log.
    let mut late = server.ws().await;
    late.send(json!({"type": "watch", "match_id": match_id})).await;
    let w = late.recv_type("welcome").await;
    let told: Vec<&str> = w["log"].as_array().expect("a log").iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert_eq!(told, lines, "the late spectator's log");
    assert!(w["log"].as_array().unwrap().iter().all(|l| l["seq"].as_u64().is_some_and(|s| s >= 1 && s <= seq)));
    assert_eq!(w["view"]["front"]["name"], "The Merryweather");
    for (i, token) in tokens.iter().enumerate() {
        let mut c = server.ws().await;
        let from = seq - 3;
        let w = c.hello(token, Some(from)).await;
        assert_eq!(w["seq"], from);
        let mut got = from;
        let mut last = w["view"].clone();
        while got < seq {
            let u = c.recv_type("update").await;
            got += 1;
            assert_eq!(u["seq"], got, "seat {i}: gap-free after the restart");
            last = u["view"].clone();
        }
        assert_eq!(last, last_views[i], "seat {i} resumes where it was");
    }
    server.stop().await;
}

/// The next frame of `c` that answers request `id` (an ack, an error, or
/// a chat line echoing it), or of type `ty`.
async fn answer(c: &mut Client, id: u64, ty: &str) -> Value {
    loop {
        let m = c.recv().await;
        if m["id"] == id || m["type"] == ty {
            return m;
        }
    }
}

/// Table talk: a party decision proposed by one seat is taken only when
/// every seat at the table agreed, any seat may object, and what is not a
/// party decision is refused; seats chat with the party and spectators
/// with the spectators, lines kept with the match for newcomers, plain
/// text only and not too fast.
#[tokio::test]
async fn a_party_proposes_agrees_objects_and_chats() {
    let dir = temp_dir("divinity-talk");
    let server = Server::start(config(&dir)).await;
    let created = server.create("divinity", json!({"party": ["ifan", "sebille", "lohse"]})).await;
    let code = created["join_code"].as_str().unwrap();
    let tokens =
        [created["token"].clone(), server.join(code).await["token"].clone(), server.join(code).await["token"].clone()];
    let match_id = created["match_id"].as_str().unwrap().to_owned();
    let mut seats = Vec::new();
    for t in &tokens {
        let mut c = server.ws().await;
        c.hello(t, None).await;
        seats.push(c);
    }
    let explore = json!({"type": "choose_round", "explore": true});
    let rest = json!({"type": "choose_round", "explore": false});

    // Not a party decision, and not legal now: refused with their codes.
    seats[0].send(json!({"type": "propose", "id": 1, "action": {"type": "end_turn"}})).await;
    assert_eq!(answer(&mut seats[0], 1, "-").await["code"], "not_a_party_decision");
    seats[1].send(json!({"type": "agree", "id": 2})).await;
    assert_eq!(answer(&mut seats[1], 2, "-").await["code"], "no_proposal");

    // Seat 0 proposes Explore: everyone hears who agreed and who may object.
    seats[0].send(json!({"type": "propose", "id": 3, "action": explore})).await;
    for c in seats.iter_mut() {
        let p = c.recv_type("proposal").await;
        assert_eq!(
            (p["by"].as_u64(), p["agreed"].clone(), p["waiting"].clone()),
            (Some(0), json!([0]), json!([1, 2])),
            "{p}"
        );
        assert_eq!(p["words"]["text"], "Explore this round");
    }
    // Seat 2 objects: withdrawn for all, nothing taken.
    seats[2].send(json!({"type": "object", "id": 4})).await;
    for c in seats.iter_mut() {
        assert_eq!(c.recv_type("proposal").await["withdrawn"], 2);
    }
    // Seat 1 proposes Rest; seat 0 agrees; seat 2's agreement takes it.
    seats[1].send(json!({"type": "propose", "id": 5, "action": rest})).await;
    seats[0].send(json!({"type": "agree", "id": 6})).await;
    let p = loop {
        let p = seats[2].recv_type("proposal").await;
        if p["agreed"].as_array().unwrap().len() == 2 {
            break p;
        }
    };
    assert_eq!(p["waiting"], json!([2]));
    seats[2].send(json!({"type": "agree", "id": 7})).await;
    let ack = answer(&mut seats[2], 7, "-").await;
    assert_eq!((ack["type"].as_str(), ack["seq"].as_u64()), (Some("ack"), Some(1)), "{ack}");
    let u = seats[0].recv_type("update").await;
    assert_eq!(u["view"]["round_kind"], "rest", "the party rests, as agreed");

    // Chat: the party's lines reach the seats, not the spectators.
    let mut spectator = server.ws().await;
    spectator.send(json!({"type": "watch", "match_id": match_id})).await;
    spectator.recv_type("welcome").await;
    seats[0].send(json!({"type": "chat", "id": 8, "text": "I'll heal <b>you</b> next turn"})).await;
    let mine = answer(&mut seats[0], 8, "-").await;
    assert_eq!(
        (mine["type"].as_str(), mine["channel"].as_str(), mine["seat"].as_u64()),
        (Some("chat"), Some("party"), Some(0))
    );
    let theirs = seats[1].recv_type("chat").await;
    assert_eq!(theirs["text"], "I'll heal <b>you</b> next turn");
    assert!(theirs["id"].is_null(), "only the sender's copy answers its id");
    spectator.send(json!({"type": "chat", "id": 1, "text": "go left!"})).await;
    let echo = answer(&mut spectator, 1, "-").await;
    assert_eq!((echo["channel"].as_str(), echo["seat"].clone()), (Some("spectators"), Value::Null));
    // Refused: not text, too long, too fast.
    seats[1].send(json!({"type": "chat", "id": 9, "text": "two\nlines"})).await;
    assert_eq!(answer(&mut seats[1], 9, "-").await["code"], "bad_chat");
    seats[1].send(json!({"type": "chat", "id": 10, "text": "x".repeat(301)})).await;
    assert_eq!(answer(&mut seats[1], 10, "-").await["code"], "bad_chat");
    let mut codes = Vec::new();
    for i in 0..6 {
        seats[2].send(json!({"type": "chat", "id": 20 + i, "text": format!("line {i}")})).await;
        let a = answer(&mut seats[2], 20 + i, "-").await;
        codes.push(a["code"].as_str().unwrap_or("said").to_owned());
    }
    assert_eq!(codes, ["said", "said", "said", "said", "said", "chat_too_fast"]);

    // Kept with the match: after a restart a newcomer reads its channel's lines.
    server.stop().await;
    let server = Server::start(config(&dir)).await;
    let mut back = server.ws().await;
    back.hello(&tokens[1], None).await;
    let mut lines = Vec::new();
    while lines.len() < 6 {
        lines.push(back.recv_type("chat").await["text"].as_str().unwrap().to_owned());
    }
    assert_eq!(lines[0], "I'll heal <b>you</b> next turn");
    assert!(!lines.contains(&"go left!".to_owned()), "the spectators' line stays theirs");
    let mut late = server.ws().await;
    late.send(json!({"type": "watch", "match_id": match_id})).await;
    late.recv_type("welcome").await;
    assert_eq!(late.recv_type("chat").await["text"], "go left!");
    server.stop().await;
}
