//! Room ownership by lease with fencing, between real server processes on
//! the local Postgres (docs/CLUSTER.md). Node A plays a duel; it is paused
//! (SIGSTOP) with an action of seat 0 waiting in its socket, past its
//! lease; node B takes the room over when seat 1 comes back through it;
//! A is resumed (SIGCONT): its write is refused, it tells seat 0
//! `room_elsewhere` and drops the room, and the log keeps one history.
//! And a node that does not play a match sends its players to the one that
//! does.

mod support;

use std::process::Command;
use std::time::Duration;

use serde_json::json;
use support::{new_match, spawn, started, Client, Db, Server};

fn node(db: &Db, name: &str) -> Server {
    let mut cmd = db.command();
    cmd.args(["--cluster", "--node-id", name, "--lease-ms", "1500", "--lease-renew-ms", "300"]);
    spawn(cmd)
}

fn signal(server: &Server, sig: &str) {
    let ok = Command::new("kill").args([sig, &server.child.id().to_string()]).status().unwrap().success();
    assert!(ok, "kill {sig}");
}

#[tokio::test]
async fn a_paused_owner_is_fenced_when_it_wakes_and_the_log_keeps_one_history() {
    let Some(db) = Db::postgres("fence").await else { return };
    let a = node(&db, "node-a");
    let b = node(&db, "node-b");
    let m = new_match(&a.addr, json!({"first_player": 0})).await;
    let (mut p0, p1) = started(&a.addr, &m).await;
    let s = p0.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;

    // A stops (a long GC pause, a frozen VM) with seat 0's next action
    // waiting in its socket, and stays stopped past its lease.
    signal(&a, "-STOP");
    p0.send(json!({"type": "act", "id": 99, "action": {"type": "summon", "alpha": 1, "hex": [-4, 5]}})).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;

    // Seat 1 comes back through B: B takes the room over at the same seq.
    drop(p1);
    let q1 = Client::player(&b.addr, &m.tokens[1], Some(s)).await;
    assert_eq!(q1.seq, s, "B resumes where A stored");

    // A wakes: the action it was holding is not stored, seat 0 is told.
    signal(&a, "-CONT");
    let answer = p0.until(|v| v["type"] == "error" || v["type"] == "ack").await;
    assert_eq!(answer["type"], "error", "a fenced node acknowledges nothing: {answer}");
    assert_eq!(answer["code"], "room_elsewhere", "{answer}");

    // Seat 0 goes on through B; the game has one history.
    let mut q0 = Client::player(&b.addr, &m.tokens[0], Some(s)).await;
    assert_eq!(q0.seq, s);
    let s2 = q0.ok(json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    assert_eq!(s2, s + 1, "the action A held was never written");
    let metrics = |addr: &str| {
        let out = Command::new("curl").args(["-s", &format!("http://{addr}/metrics")]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert!(metrics(&a.addr).contains("athlas_leases_lost_total 1"), "{}", metrics(&a.addr));
    assert!(metrics(&b.addr).contains("athlas_leases_claimed_total 1"));
    let report = db.audit_all();
    assert!(report.contains(&format!("{} duel      ok        {} records", m.id, s2)), "{report}");
}

/// Any node accepts any client: one that does not play the match says
/// which node does (`at`), and the player's hello there is welcomed.
#[tokio::test]
async fn a_node_that_does_not_play_the_match_says_which_node_does() {
    let Some(db) = Db::postgres("redirect").await else { return };
    let a = node(&db, "node-a");
    let b = node(&db, "node-b");
    let m = new_match(&a.addr, json!({"first_player": 0})).await;
    let (mut p0, _p1) = started(&a.addr, &m).await;
    let s = p0.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;

    for first in [
        json!({"type": "hello", "token": m.tokens[1], "last_seq": s}),
        json!({"type": "watch", "match_id": m.id}),
    ] {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", b.addr)).await.unwrap();
        use futures_util::{SinkExt, StreamExt};
        ws.send(tokio_tungstenite::tungstenite::Message::text(first.to_string())).await.unwrap();
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap().unwrap().unwrap();
        let e: serde_json::Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
        assert_eq!(e["code"], "room_elsewhere", "{e}");
        assert_eq!(e["at"], format!("ws://{}/ws", a.addr), "{e}");
    }
    // There, the seat is welcomed at the same seq; the game goes on.
    let mut q1 = Client::player(&a.addr, &m.tokens[1], Some(s)).await;
    assert_eq!(q1.seq, s);
    q1.catch_up(s).await;
}

#[test]
fn cluster_mode_needs_postgres() {
    let out = Command::new(support::server_bin())
        .args(["--cluster", "--listen", "127.0.0.1:0", "--data-dir", "/tmp/athlas-cluster-sqlite"])
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cluster needs a Postgres"));
}
