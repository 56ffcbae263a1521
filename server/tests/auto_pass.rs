//! Passing automatically (protocol/DUEL.md, "Passing automatically"): a
//! seat that can cast nothing in a response window is passed for by the
//! server, with no frame from it, a moment later; a seat that can cast
//! something, or said `set_pass_when_unable` false, is waited for. A
//! correspondence match (no timer) shows it is not the window's clock.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::{config, temp_dir, Client, Server};

/// Seat 1 holds one DI, Athilian Strength (a friendly unit): castable once
/// it has a unit on the board, not before.
async fn window_for_seat_1(server: &Server, seat_1_summons: bool, hold: bool) -> (Client, Client) {
    let created = server.create("duel", json!({"first_player": 0})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let (mut a, mut b) = (server.ws().await, server.ws().await);
    a.hello(&created["token"], None).await;
    let w = b.hello(&joined["token"], None).await;
    let players = &w["view"]["players"];
    assert!(players.as_array().unwrap().iter().all(|p| p.get("pass_when_unable").is_none()), "on by default: {w}");
    assert_eq!(a.act(1, json!({"type": "use_preset", "preset": "aquatic"})).await["type"], "ack");
    let create = json!({"type": "create", "alphas": [
        {"cards": ["shadow_ranger", "ballista", "weapon_lore"]},
        {"cards": ["watch_tower", "healing_hands", "obsidian_sword"]},
        {"cards": ["savage_warrior", "karoos_blade"]}], "di_stack": ["athilian_strength"]});
    assert_eq!(b.act(1, create).await["type"], "ack", "seat 1 creates");
    if hold {
        assert_eq!(b.act(2, json!({"type": "set_pass_when_unable", "on": false})).await["type"], "ack");
        let u = b.recv_type("update").await;
        assert_eq!(u["view"]["players"][1]["pass_when_unable"], false, "the seat's own setting: {u}");
    }
    let summon = first_legal(&mut a, "summon").await;
    assert_eq!(a.act(2, summon).await["type"], "ack");
    assert_eq!(a.act(3, json!({"type": "end_turn"})).await["type"], "ack");
    if seat_1_summons {
        let summon = first_legal(&mut b, "summon").await;
        assert_eq!(b.act(3, summon).await["type"], "ack");
    }
    assert_eq!(b.act(4, json!({"type": "end_turn"})).await["type"], "ack");
    let activate = first_legal(&mut a, "activate").await;
    assert_eq!(a.act(4, activate).await["type"], "ack");
    assert_eq!(a.act(5, json!({"type": "end_activation"})).await["type"], "ack");
    (a, b)
}

/// The first action of this `type` in the receiver's latest view's list.
async fn first_legal(c: &mut Client, ty: &str) -> Value {
    loop {
        let u = c.recv().await;
        let listed = u["view"]["legal"].as_array().cloned().unwrap_or_default();
        if let Some(a) = listed.into_iter().find(|a| a["type"] == ty) {
            return a;
        }
    }
}

/// The next update, if one comes within `wait`.
async fn update_within(c: &mut Client, wait: Duration) -> Option<Value> {
    tokio::time::timeout(wait, c.recv_type("update")).await.ok()
}

/// Reads updates until the view's window is `window` for this seat.
async fn until_window(c: &mut Client, open: bool) -> Value {
    loop {
        let u = c.recv_type("update").await;
        if u["view"]["window"].is_null() != open {
            return u;
        }
    }
}

#[tokio::test]
async fn a_window_the_seat_can_cast_nothing_in_closes_without_a_frame() {
    let dir = temp_dir("auto-pass");
    let server = Server::start(config(&dir)).await;

    // Nothing to cast at: the window opens, then closes on its own.
    let (mut a, mut b) = window_for_seat_1(&server, false, false).await;
    let opened = until_window(&mut b, true).await;
    assert_eq!(opened["view"]["window"], 1, "{opened}");
    let listed = opened["view"]["legal"].as_array().unwrap();
    assert!(listed.iter().all(|l| l["type"] != "cast_di"), "{listed:?}");
    let closed = until_window(&mut b, false).await;
    assert_eq!(closed["log"], json!(["Seat 1 passed"]), "told as a pass, like any: {closed}");
    let seen = until_window(&mut a, false).await;
    assert_eq!(seen["log"], json!(["Seat 1 passed"]), "{seen}");
    // The other seat never learns the setting.
    assert!(seen["view"]["players"].as_array().is_none_or(|p| p[1].get("pass_when_unable").is_none()), "{seen}");

    // Something to cast: the window waits for the seat's own answer.
    let (_a, mut b) = window_for_seat_1(&server, true, false).await;
    let opened = until_window(&mut b, true).await;
    let listed = opened["view"]["legal"].as_array().unwrap();
    assert!(listed.iter().any(|l| l["type"] == "cast_di"), "{listed:?}");
    assert!(update_within(&mut b, Duration::from_secs(4)).await.is_none(), "nothing happens without the seat");
    assert_eq!(b.act(9, json!({"type": "pass"})).await["type"], "ack");

    // Turned off: nothing to cast, and still the seat is waited for.
    let (_a, mut b) = window_for_seat_1(&server, false, true).await;
    until_window(&mut b, true).await;
    assert!(update_within(&mut b, Duration::from_secs(4)).await.is_none(), "held open for the seat");
    assert_eq!(b.act(9, json!({"type": "pass"})).await["type"], "ack");
    server.stop().await;
}
