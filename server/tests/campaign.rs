//! Campaigns over HTTP and WebSockets: a campaign is a stored record with
//! seats of its own; its seat tokens (only ever in `Authorization: Bearer`)
//! hold their seat in every match of it; the game decides choices and what
//! the next match starts from, and the end of a match writes the campaign's
//! new state with the final action.

use crate::common::{config, temp_dir, Client, Server};
use athlas_engine::{
    campaign::Campaign,
    divinity::{campaign::DivinityCampaign, Divinity},
    Ruleset, Status,
};
use serde_json::{json, Value};
use uuid::Uuid;

/// `POST path` (or GET) as the holder of `token`.
async fn call(server: &Server, method: &str, path: &str, body: Value, token: &Value) -> (u16, Value) {
    let body = (!body.is_null()).then(|| body.to_string());
    server.http_as(method, path, body.as_deref(), token.as_str()).await
}

fn code(body: &Value) -> Option<&str> {
    body["code"].as_str()
}

/// Play the current match of the campaign to its end: every step the first
/// waiting seat sends one of the engine's legal actions (a fixed
/// pseudo-random pick, so no seat can loop on the same choice), and every
/// other seat reads its update of that action. The test follows the match
/// with its own engine state, started from the stored options and seed.
async fn play_to_the_end(server: &Server, match_id: Uuid, clients: &mut [Client]) -> <Divinity as Ruleset>::State {
    let record = server.hub.store.get_match(match_id).await.unwrap().unwrap();
    let options = serde_json::from_value(record.options).unwrap();
    let mut state = Divinity::start(&options, record.seed).unwrap();
    let mut pick: u64 = 0x2545_f491_4f6c_dd1d;
    for seq in 1..=20_000u64 {
        let Status::Waiting { seats } = Divinity::status(&state) else { return state };
        let seat = seats[0];
        let legal = Divinity::legal(&state, seat);
        assert!(!legal.is_empty(), "a waiting seat has a legal action");
        pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let action = legal[(pick >> 33) as usize % legal.len()].clone();
        let answer = clients[seat as usize].act(seq, serde_json::to_value(&action).unwrap()).await;
        assert_eq!((answer["type"].as_str(), answer["seq"].as_u64()), (Some("ack"), Some(seq)), "{answer}");
        Divinity::apply(&mut state, seat, action).unwrap();
        for (other, client) in clients.iter_mut().enumerate().filter(|(s, _)| *s != seat as usize) {
            loop {
                let m = client.recv().await;
                if m["type"] == "update" && m["seq"] == seq {
                    break;
                }
                assert_ne!(m["type"], "error", "seat {other}: {m}");
            }
        }
    }
    panic!("the location did not end in 20000 actions");
}

#[tokio::test]
async fn a_party_of_three_chooses_plays_a_location_and_goes_on_to_the_next() {
    let dir = temp_dir("campaign-divinity");
    let server = Server::start(config(&dir)).await;
    let none = Value::Null;

    let (status, host) =
        call(&server, "POST", "/api/campaigns", json!({"game": "divinity", "seats": 3, "options": {}}), &none).await;
    assert_eq!(status, 201, "{host}");
    let id = host["campaign_id"].as_str().unwrap().to_owned();
    let at = |rest: &str| format!("/api/campaigns/{id}{rest}");
    let (_, look) = call(&server, "GET", &at(""), none.clone(), &none).await;
    assert_eq!(
        (look["stage"].as_str(), &look["choosing"], &look["matches"]),
        (Some("choosing"), &json!([0, 1, 2]), &json!([]))
    );
    assert_eq!(look.get("you"), None);

    // Friends join with the code; a fourth finds the party full.
    let code_ = host["join_code"].as_str().unwrap().to_lowercase();
    let (status, one) = call(&server, "POST", &format!("/api/campaigns/join/{code_}"), none.clone(), &none).await;
    assert_eq!((status, one["seat"].as_u64(), one.get("join_code")), (200, Some(1), None), "{one}");
    let (_, two) = call(&server, "POST", &format!("/api/campaigns/join/{code_}"), none.clone(), &none).await;
    assert_eq!(two["seat"], 2);
    let (status, full) = call(&server, "POST", &format!("/api/campaigns/join/{code_}"), none.clone(), &none).await;
    assert_eq!((status, code(&full)), (409, Some("match_full")));
    let tokens = [host["token"].clone(), one["token"].clone(), two["token"].clone()];

    // Choices: only with a seat token of this campaign, in the header.
    let choose = |choice: Value| json!({ "choice": choice });
    let (status, body) = call(&server, "POST", &at("/choose"), choose(json!({"origin": "ifan"})), &none).await;
    assert_eq!((status, code(&body)), (401, Some("no_token")));
    let (status, body) =
        call(&server, "POST", &at("/choose"), choose(json!({"origin": "ifan"})), &json!("not-a-token")).await;
    assert_eq!((status, code(&body)), (403, Some("bad_token")));
    let (status, body) = call(&server, "POST", &at("/choose"), choose(json!({"origin": "ifan"})), &tokens[0]).await;
    assert_eq!((status, body["you"].as_u64(), &body["choosing"]), (200, Some(0), &json!([1, 2])), "{body}");
    assert_eq!(body["seats"][0]["label"], "ifan");
    let (status, body) = call(&server, "POST", &at("/choose"), choose(json!({"origin": "ifan"})), &tokens[1]).await;
    assert_eq!((status, code(&body)), (422, Some("origin_taken")), "{body}");
    let (status, body) = call(&server, "POST", &at("/choose"), choose(json!({"origin": "nobody"})), &tokens[1]).await;
    assert_eq!((status, code(&body)), (422, Some("unknown_origin")));
    let (status, _) = call(&server, "POST", &at("/choose"), choose(json!({"origin": "lohse"})), &tokens[1]).await;
    assert_eq!(status, 200);
    // The host sets the leader; another seat may not.
    let (status, body) = call(&server, "POST", &at("/choose"), choose(json!({"leader": 1})), &tokens[1]).await;
    assert_eq!((status, code(&body)), (403, Some("not_leader")));
    let (status, _) = call(&server, "POST", &at("/choose"), choose(json!({"leader": 2})), &tokens[0]).await;
    assert_eq!(status, 200);
    // The last choice of a full party starts the first location.
    let (status, look) = call(&server, "POST", &at("/choose"), choose(json!({"origin": "sebille"})), &tokens[2]).await;
    assert_eq!((status, look["stage"].as_str()), (200, Some("playing")), "{look}");
    let first: Uuid = look["current"]["match_id"].as_str().unwrap().parse().unwrap();
    assert_eq!(look["matches"].as_array().unwrap().len(), 1);
    let labels: Vec<&Value> = look["seats"].as_array().unwrap().iter().map(|s| &s["label"]).collect();
    assert_eq!(labels, [&json!("ifan"), &json!("lohse"), &json!("sebille")]);
    assert!(look["seats"].as_array().unwrap().iter().all(|s| s["taken"] == true));

    // Nothing changes between matches while one is on.
    let (status, body) = call(&server, "POST", &at("/next"), none.clone(), &tokens[2]).await;
    assert_eq!((status, code(&body)), (409, Some("not_ready_for_next")));
    let (status, body) = call(&server, "POST", &at("/choose"), choose(json!({"leader": null})), &tokens[2]).await;
    assert_eq!((status, code(&body)), (409, Some("not_ready_for_next")));

    // Each campaign token says hello into its own seat of the current match.
    let mut clients = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let mut c = server.ws().await;
        let w = c.hello(token, None).await;
        assert_eq!((w["match_id"].as_str(), w["seat"].as_u64()), (Some(first.to_string().as_str()), Some(seat as u64)));
        clients.push(c);
    }
    let before: DivinityCampaign =
        serde_json::from_value(server.hub.store.campaign(id.parse().unwrap()).await.unwrap().unwrap().saved).unwrap();
    let end = play_to_the_end(&server, first, &mut clients).await;

    // The end of the location wrote the campaign's next state.
    let expected = serde_json::to_value(Divinity::after(&before, &end)).unwrap();
    let (status, look) = call(&server, "GET", &at(""), none.clone(), &tokens[1]).await;
    assert_eq!((status, look["stage"].as_str(), look["you"].as_u64()), (200, Some("between"), Some(1)), "{look}");
    assert_eq!(look["saved"], expected);
    assert!(look["saved"]["saved"].is_object(), "a campaign state after the first location");
    assert_eq!(look.get("current"), None);
    assert_eq!(look["matches"][0]["status"], "finished");
    let Status::Finished(outcome) = Divinity::status(&end) else { panic!("the location ended") };
    assert_eq!(look["matches"][0]["outcome"], serde_json::to_value(outcome).unwrap());

    // Only the leader starts the next location, from the stored state.
    let (status, body) = call(&server, "POST", &at("/next"), none.clone(), &tokens[0]).await;
    assert_eq!((status, code(&body)), (403, Some("not_leader")), "{body}");
    let (status, next) = call(&server, "POST", &at("/next"), none.clone(), &tokens[2]).await;
    assert_eq!(status, 201, "{next}");
    let second: Uuid = next["match_id"].as_str().unwrap().parse().unwrap();
    assert_ne!(second, first);
    let record = server.hub.store.get_match(second).await.unwrap().unwrap();
    assert_eq!((record.ordinal, record.campaign_id.map(|c| c.to_string())), (Some(2), Some(id.clone())));
    assert_eq!(record.options["campaign"], expected["saved"]);
    let (_, look) = call(&server, "GET", &at(""), none.clone(), &none).await;
    assert_eq!(
        (look["stage"].as_str(), look["current"]["match_id"].as_str()),
        (Some("playing"), next["match_id"].as_str())
    );
    assert_eq!(look["matches"].as_array().unwrap().len(), 2);

    // The same tokens hold the same seats in the next location.
    for (seat, token) in tokens.iter().enumerate() {
        let mut c = server.ws().await;
        let w = c.hello(token, None).await;
        assert_eq!((w["match_id"].as_str(), w["seat"].as_u64()), (next["match_id"].as_str(), Some(seat as u64)));
    }

    // A player finds their campaigns by the tokens they keep (in a body;
    // unknown ones are left out). A token in a URL is never read.
    let (status, mine) =
        call(&server, "POST", "/api/campaigns/mine", json!({"tokens": [tokens[1], "unknown"]}), &none).await;
    assert_eq!((status, mine["campaigns"].as_array().map(Vec::len)), (200, Some(1)));
    assert_eq!(
        (mine["campaigns"][0]["campaign_id"].as_str(), mine["campaigns"][0]["you"].as_u64()),
        (Some(id.as_str()), Some(1))
    );
    let (_, look) =
        call(&server, "GET", &format!("{}?token={}", at(""), tokens[1].as_str().unwrap()), none.clone(), &none).await;
    assert_eq!(look.get("you"), None);
    server.stop().await;
}

/// The duel's campaign variant: nothing to choose, so the first game starts
/// with the campaign; its end carries each seat's Alphas into the next.
#[tokio::test]
async fn a_duel_campaign_starts_at_once_and_any_seat_starts_the_next_game() {
    let dir = temp_dir("campaign-duel");
    let server = Server::start(config(&dir)).await;
    let none = Value::Null;
    let (status, host) = call(
        &server,
        "POST",
        "/api/campaigns",
        json!({"game": "duel", "options": {"summoning_points": 250, "private": true}}),
        &none,
    )
    .await;
    assert_eq!(status, 201, "{host}");
    let id = host["campaign_id"].as_str().unwrap().to_owned();
    let at = |rest: &str| format!("/api/campaigns/{id}{rest}");
    let (_, look) = call(&server, "GET", &at(""), none.clone(), &none).await;
    assert_eq!((look["stage"].as_str(), look["seats"].as_array().map(Vec::len)), (Some("playing"), Some(2)), "{look}");
    let first = look["current"]["match_id"].as_str().unwrap().to_owned();
    let (_, summary) = server.http("GET", &format!("/api/matches/{first}"), None).await;
    assert_eq!((summary["private"].as_bool(), summary.get("join_code")), (Some(true), None), "{summary}");

    let (_, joined) = call(
        &server,
        "POST",
        &format!("/api/campaigns/join/{}", host["join_code"].as_str().unwrap()),
        none.clone(),
        &none,
    )
    .await;
    let mut a = server.ws().await;
    let mut b = server.ws().await;
    assert_eq!(a.hello(&host["token"], None).await["match_id"], first.as_str());
    assert_eq!(b.hello(&joined["token"], None).await["seat"], 1);
    // (What a game carries into the next is the engine's: its own tests.)
    // The match's summary counts the campaign's seats: its players hold
    // the campaign's tokens, not the match's.
    let (_, summary) = server.http("GET", &format!("/api/matches/{first}"), None).await;
    assert_eq!(summary["seats_taken"], json!([0, 1]), "{summary}");
    let answer = b.act(1, json!({"type": "resign"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    a.recv_type("update").await;

    let (_, look) = call(&server, "GET", &at(""), none.clone(), &none).await;
    assert_eq!((look["stage"].as_str(), look["saved"]["games"].as_u64()), (Some("between"), Some(1)), "{look}");
    assert_eq!(look["matches"][0]["outcome"], json!({"result": "win", "seat": 0}));
    assert_eq!(look["matches"][0]["standing"]["status"], "finished");
    // No leader: the second seat starts the next game.
    let (status, next) = call(&server, "POST", &at("/next"), none.clone(), &joined["token"]).await;
    assert_eq!(status, 201, "{next}");
    let record =
        server.hub.store.get_match(next["match_id"].as_str().unwrap().parse().unwrap()).await.unwrap().unwrap();
    assert_eq!(record.options["campaign"]["previous"], look["saved"]["previous"]);
    assert_eq!(record.options["summoning_points"], 250);
    let mut c = server.ws().await;
    assert_eq!(c.hello(&joined["token"], None).await["match_id"], next["match_id"]);

    // A game without a campaign variant, an unknown game, and bad options.
    let (status, body) = call(&server, "POST", "/api/campaigns", json!({"game": "nim"}), &none).await;
    assert_eq!((status, code(&body)), (400, Some("campaign")));
    let (status, body) = call(&server, "POST", "/api/campaigns", json!({"game": "nope"}), &none).await;
    assert_eq!((status, code(&body)), (400, Some("unknown_game")));
    let (status, body) = call(&server, "POST", "/api/campaigns", json!({"game": "duel", "seats": 3}), &none).await;
    assert_eq!((status, code(&body)), (400, Some("bad_options")));
    server.stop().await;
}

/// Create a Divinity campaign whose party is named up front (so its first
/// location starts at once) with these server options; every seat joined.
/// The campaign's id, its seat tokens and its first match.
async fn party_campaign(server: &Server, party: &[&str], hosting: Value) -> (String, Vec<Value>, Uuid) {
    let none = Value::Null;
    let mut options = json!({ "party": party });
    options.as_object_mut().unwrap().extend(hosting.as_object().cloned().unwrap_or_default());
    let (status, host) =
        call(server, "POST", "/api/campaigns", json!({"game": "divinity", "options": options}), &none).await;
    assert_eq!(status, 201, "{host}");
    let id = host["campaign_id"].as_str().unwrap().to_owned();
    let mut tokens = vec![host["token"].clone()];
    for _ in 1..party.len() {
        let path = format!("/api/campaigns/join/{}", host["join_code"].as_str().unwrap());
        tokens.push(call(server, "POST", &path, none.clone(), &none).await.1["token"].clone());
    }
    let (_, look) = call(server, "GET", &format!("/api/campaigns/{id}"), none.clone(), &none).await;
    assert_eq!(look["stage"], "playing", "{look}");
    let first = look["current"]["match_id"].as_str().unwrap().parse().unwrap();
    (id, tokens, first)
}

/// Each seat's `connected` and `controlled_by` in a campaign status.
fn seats_of(look: &Value) -> Vec<(bool, Option<u64>)> {
    look["seats"].as_array().unwrap().iter().map(|s| (s["connected"] == true, s["controlled_by"].as_u64())).collect()
}

/// What a returning player reads: who is connected to the current match
/// now (from the live room, never loading one), who acts for a handed seat
/// (from the log, so after a restart too), and where the party stands.
#[tokio::test]
async fn a_campaign_status_tells_who_is_connected_who_acts_for_whom_and_where_the_party_stands() {
    let dir = temp_dir("campaign-status");
    let server = Server::start(config(&dir)).await;
    let none = Value::Null;
    let (id, tokens, first) = party_campaign(&server, &["ifan", "lohse"], json!({})).await;
    let at = format!("/api/campaigns/{id}");
    let look = call(&server, "GET", &at, none.clone(), &none).await.1;
    assert_eq!(seats_of(&look), [(false, None), (false, None)], "{look}");
    assert!(server.hub.rooms.is_empty(), "a status loads no room");
    // A new location stands at its start before anyone acts.
    let start = &look["current"]["standing"];
    assert_eq!((&start["round"], &start["phase"]), (&json!(1), &json!("choose_round")), "{look}");
    assert_eq!(start["location"], "tutorial", "{look}");

    let mut host = server.ws().await;
    host.hello(&tokens[0], None).await;
    let look = call(&server, "GET", &at, none.clone(), &none).await.1;
    assert_eq!(seats_of(&look), [(true, None), (false, None)], "{look}");
    let mut other = server.ws().await;
    other.hello(&tokens[1], None).await;
    assert_eq!(seats_of(&call(&server, "GET", &at, none.clone(), &none).await.1), [(true, None), (true, None)]);

    // Seat 1 hands itself to the host, then leaves.
    other.send(json!({"type": "hand", "id": 1, "seat": 1, "to": 0})).await;
    let answer = other.recv_type("ack").await;
    assert_eq!(answer["id"], 1, "{answer}");
    drop(other);
    let mut look = Value::Null;
    for _ in 0..100 {
        look = call(&server, "GET", &at, none.clone(), &none).await.1;
        if seats_of(&look) == [(true, None), (false, Some(0))] {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(seats_of(&look), [(true, None), (false, Some(0))], "seat 1 left, the host acts for it: {look}");

    // Where the party stands, for the current match and in the history.
    let standing = &look["current"]["standing"];
    assert_eq!(standing["location"].as_str().map(str::is_empty), Some(false), "{standing}");
    assert!(standing["round"].is_u64() && standing["round_kind"].is_string(), "{standing}");
    assert!(standing["phase"].is_string() && standing["waiting"].is_array(), "{standing}");
    assert_eq!(&look["matches"][0]["standing"], standing);
    assert_eq!(look["matches"][0]["match_id"], first.to_string());

    // After a restart: nobody is connected, the hand-over still holds.
    drop(host);
    server.stop().await;
    let server = Server::start(config(&dir)).await;
    let look = call(&server, "GET", &at, none.clone(), &none).await.1;
    assert_eq!(seats_of(&look), [(false, None), (false, Some(0))], "{look}");
    assert_eq!(look["current"]["standing"], *standing);
    server.stop().await;
}

/// Play the match's first actions straight into its log (no room is
/// loaded yet) with the engine's own legal actions, up to an Origin's
/// combat turn under way that a timer would end: the seq reached and the
/// seat whose turn it is.
async fn log_up_to_a_timed_turn(server: &Server, match_id: Uuid) -> (u64, u8) {
    use athlas_engine::divinity::action::DivinityAction;
    use athlas_server::store::{ActionRecord, Append};
    let record = server.hub.store.get_match(match_id).await.unwrap().unwrap();
    let options = serde_json::from_value(record.options).unwrap();
    let mut state = Divinity::start(&options, record.seed).unwrap();
    let mut pick: u64 = 0x2545_f491_4f6c_dd1d;
    for seq in 1..=20_000u64 {
        if let Some((seat, DivinityAction::EndTurn)) = Divinity::timeout_action(&state) {
            return (seq - 1, seat);
        }
        let Status::Waiting { seats } = Divinity::status(&state) else { panic!("the location ended before a combat") };
        let seat = seats[0];
        let legal = Divinity::legal(&state, seat);
        pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        // Towards the tutorial's first fight (its deck is in order: card 2
        // at the Galley, #2, spawns an enemy), else any legal action.
        let toward = [
            json!({"type": "start_turn"}),
            json!({"type": "choose_round", "explore": true}),
            json!({"type": "travel", "to": "2"}),
            json!({"type": "resolve", "card": "2"}),
            json!({"type": "reveal"}),
        ];
        let values: Vec<Value> = legal.iter().map(|a| serde_json::to_value(a).unwrap()).collect();
        let at = toward
            .iter()
            .find_map(|t| values.iter().position(|v| v == t))
            .unwrap_or((pick >> 33) as usize % legal.len());
        let (action, value) = (legal[at].clone(), values[at].clone());
        Divinity::apply(&mut state, seat, action).unwrap();
        let append = Append {
            state_hash: Some(athlas_server::audit::state_hash(&state)),
            ..Append::new(match_id, ActionRecord::action(seq, seat, value))
        };
        server.hub.store.append(&[append]).await.unwrap();
    }
    panic!("no combat turn in 20000 actions");
}

/// A turn timer runs for the whole turn: the seat's own actions inside it
/// do not start the clock again (else a player could keep a turn forever).
#[tokio::test]
async fn a_turn_timer_is_not_reset_by_the_seats_own_actions() {
    let dir = temp_dir("campaign-timer-kept");
    let server = Server::start(config(&dir)).await;
    let (_, tokens, first) = party_campaign(&server, &["ifan"], json!({"turn_timer_ms": 20_000})).await;
    let (_, seat) = log_up_to_a_timed_turn(&server, first).await;
    let mut c = server.ws().await;
    let welcome = c.hello(&tokens[seat as usize], None).await;
    let clock = welcome["timer_ms"].as_u64().expect("the turn's clock is in the welcome");
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    // An action that keeps the turn going: a step, else any but ending it.
    let legal = welcome["legal"].as_array().unwrap().iter().find(|l| l["seat"] == seat).unwrap()["actions"].clone();
    let legal = legal.as_array().unwrap();
    let action = legal
        .iter()
        .find(|a| a["type"] == "move")
        .or_else(|| legal.iter().find(|a| a["type"] != "end_turn"))
        .expect("something to do in the turn")
        .clone();
    c.send(json!({"type": "act", "id": 1, "action": action})).await;
    let ack = c.recv_type("ack").await;
    assert_eq!(ack["id"], 1, "{ack}");
    let update = c.recv_type("update").await;
    let left = update["timer_ms"].as_u64().expect("the turn is still timed");
    assert!(left + 500 <= clock, "the clock kept running through the seat's action: {left} ms left of {clock}");
    server.stop().await;
}

/// A campaign's turn timer goes with each of its matches: an Origin whose
/// combat turn is under way and who does nothing has it ended by the timer,
/// an action in the log like any other (no sender: the timer). A campaign
/// without one never times out.
#[tokio::test]
async fn a_campaign_turn_timer_ends_an_idle_combat_turn_and_an_untimed_campaign_waits() {
    let dir = temp_dir("campaign-timer");
    let server = Server::start(config(&dir)).await;
    let none = Value::Null;

    let (id, tokens, first) = party_campaign(&server, &["ifan"], json!({"turn_timer_ms": 300})).await;
    let look = call(&server, "GET", &format!("/api/campaigns/{id}"), none.clone(), &none).await.1;
    assert_eq!(look["turn_timer_ms"], 300);
    let record = server.hub.store.get_match(first).await.unwrap().unwrap();
    assert_eq!(record.turn_timer_ms, Some(300), "the match keeps its campaign's timer");
    let (seq, seat) = log_up_to_a_timed_turn(&server, first).await;
    let mut c = server.ws().await;
    let welcome = c.hello(&tokens[seat as usize], None).await;
    assert_eq!(welcome["seq"], seq);
    let clock = welcome["timer_ms"].as_u64().expect("the turn's clock is in the welcome");
    assert!(clock <= 300, "{welcome}");
    // Nothing sent: the timer ends the turn (eventually; `recv` waits up to 60 s).
    let update = c.recv_type("update").await;
    assert_eq!((update["seq"].as_u64(), update["seat"].as_u64()), (Some(seq + 1), Some(seat as u64)), "{update}");
    assert_eq!(update.get("sender"), None, "{update}");
    let log = server.hub.store.actions_after(first, seq).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!((log[0].seat, &log[0].action, log[0].sender), (seat, &json!({"type": "end_turn"}), None));

    // The same position in a campaign without a timer: nothing happens.
    let (id, tokens, first) = party_campaign(&server, &["ifan"], json!({})).await;
    let look = call(&server, "GET", &format!("/api/campaigns/{id}"), none.clone(), &none).await.1;
    assert_eq!(look.get("turn_timer_ms"), None, "{look}");
    let (seq, seat) = log_up_to_a_timed_turn(&server, first).await;
    let mut c = server.ws().await;
    let welcome = c.hello(&tokens[seat as usize], None).await;
    assert_eq!((welcome["seq"].as_u64(), welcome.get("timer_ms")), (Some(seq), None), "{welcome}");
    // Five times the other campaign's timer, and then some.
    assert!(tokio::time::timeout(std::time::Duration::from_millis(1500), c.recv_type("update")).await.is_err());
    assert_eq!(server.hub.store.get_match(first).await.unwrap().unwrap().seq, seq);

    // Out of range: refused.
    let (status, body) = call(
        &server,
        "POST",
        "/api/campaigns",
        json!({"game": "divinity", "options": {"party": ["ifan"], "turn_timer_ms": 5}}),
        &none,
    )
    .await;
    assert_eq!((status, code(&body)), (400, Some("bad_options")), "{body}");
    server.stop().await;
}
