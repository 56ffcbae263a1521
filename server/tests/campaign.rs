//! Campaigns: a stored record linking its games and results; a player of the
//! last game starts the next one, which carries the previous game's secrets.

mod common;

use common::{config, temp_dir, Server};
use serde_json::json;

#[tokio::test]
async fn a_campaign_links_its_games_and_a_player_starts_the_next() {
    let dir = temp_dir("campaign");
    let server = Server::start(config(&dir)).await;
    let (status, created) =
        server.http("POST", "/api/campaigns", Some(r#"{"game":"nim","options":{"pile":3,"private":true}}"#)).await;
    assert_eq!(status, 201, "{created}");
    let campaign = created["campaign_id"].as_str().unwrap().to_owned();
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let mut a = server.ws().await;
    let mut b = server.ws().await;
    a.hello(&created["token"], None).await;
    b.hello(&joined["token"], None).await;
    a.act(1, json!({"type": "secret", "value": 4})).await;

    // Not before the game is over.
    let next = |token: &serde_json::Value| json!({"token": token}).to_string();
    let (status, body) =
        server.http("POST", &format!("/api/campaigns/{campaign}/next"), Some(&next(&joined["token"]))).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("campaign")));

    b.act(1, json!({"type": "secret", "value": 6})).await;
    assert_eq!(a.act(2, json!({"type": "take", "n": 3})).await["type"], "ack");

    let (status, record) = server.http("GET", &format!("/api/campaigns/{campaign}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(record["games"][0]["match_id"], created["match_id"]);
    assert_eq!(record["games"][0]["outcome"], json!({"result": "win", "seat": 0}));

    let (status, body) =
        server.http("POST", &format!("/api/campaigns/{campaign}/next"), Some(&next(&json!("nope")))).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("bad_token")));
    // Seat 1 starts the next game and keeps its seat; the other joins by code.
    let (status, second) =
        server.http("POST", &format!("/api/campaigns/{campaign}/next"), Some(&next(&joined["token"]))).await;
    assert_eq!(status, 201, "{second}");
    let (_, open) = server.http("GET", "/api/matches?status=open", None).await;
    assert_eq!(open["matches"], json!([]), "the open second game of a private campaign is not listed: {open}");
    assert_eq!((second["seat"].as_u64(), second["campaign_id"].as_str()), (Some(1), Some(campaign.as_str())));
    let other = server.join(second["join_code"].as_str().unwrap()).await;
    assert_eq!(other["seat"], 0);
    let mut c = server.ws().await;
    let w = c.hello(&second["token"], None).await;
    assert_eq!(w["view"]["pile"], 10, "the previous game's secrets carry over: {w}");

    let (_, record) = server.http("GET", &format!("/api/campaigns/{campaign}"), None).await;
    assert_eq!(record["games"].as_array().unwrap().len(), 2);
    assert_eq!(record["games"][1]["outcome"], serde_json::Value::Null);
    let (_, summary) =
        server.http("GET", &format!("/api/matches/{}", second["match_id"].as_str().unwrap()), None).await;
    assert_eq!(summary["campaign_id"], campaign.as_str());
    assert_eq!(summary["private"], true, "a private campaign's games are private: {summary}");

    let (status, body) = server.http("POST", "/api/campaigns", Some(r#"{"game":"nope"}"#)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("unknown_game")));
    server.stop().await;
}
