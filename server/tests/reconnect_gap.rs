//! A seat that missed 100 duel actions reconnects with `last_seq` and gets
//! every missed update, gap-free, in order, each exactly as it was sent live;
//! a client that keeps the board an update leaves out always has the
//! current one.
//! Speed is never asserted; the catch-up time (DESIGN.md target: 200 ms, in
//! a release build) is only printed: see it with `--nocapture`.

use crate::common::{config, temp_dir, Server};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_after_a_100_action_gap() {
    let dir = temp_dir("gap");
    let cfg = athlas_server::Config { rate_per_sec: 1e6, rate_burst: 1e6, ..config(&dir) };
    let server = Server::start(cfg).await;
    let created = server.create("duel", json!({})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let mut c = [server.ws().await, server.ws().await];
    let tokens = [created["token"].clone(), joined["token"].clone()];
    let mut views =
        [c[0].hello(&tokens[0], None).await["view"].clone(), c[1].hello(&tokens[1], None).await["view"].clone()];
    // Every update seat 1 received live, by seq, and its view with the
    // board it kept when the update left the board out.
    let mut live: Vec<Value> = vec![Value::Null];
    let mut kept: Vec<Value> = vec![views[1].clone()];
    let mut boards_left_out = 0;
    let mut seq = 0u64;
    let mut id = 1;
    let mut rng = 12345u64;
    while seq < 130 {
        let seat = views[0]["waiting_for"][0].as_u64().unwrap() as usize;
        let legal: Vec<Value> = views[seat]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| !["offer_draw", "accept_draw", "resign"].contains(&a["type"].as_str().unwrap()))
            .cloned()
            .collect();
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let a = legal[(rng >> 33) as usize % legal.len()].clone();
        let r = c[seat].act(id, a).await;
        id += 1;
        if r["type"] != "ack" {
            continue;
        }
        seq = r["seq"].as_u64().unwrap();
        for s in 0..2 {
            loop {
                let m = c[s].recv().await;
                if m["type"] == "update" && m["seq"].as_u64().unwrap() == seq {
                    let mut view = m["view"].clone();
                    if view.get("hexes").is_none() {
                        view["hexes"] = views[s]["hexes"].clone();
                        boards_left_out += 1;
                    }
                    if view.get("players").is_none() {
                        view["players"] = views[s]["players"].clone();
                    }
                    views[s] = view;
                    if s == 1 {
                        kept.push(views[s].clone());
                        live.push(m);
                    }
                    break;
                }
            }
        }
    }
    assert_eq!(live.len() as u64, seq + 1, "seat 1 saw every update live");
    eprintln!("{boards_left_out} of {} updates left the board out", 2 * seq);
    assert!(boards_left_out > 0, "most updates leave the unchanged board out");
    for s in 0..2 {
        let mut newcomer = server.ws().await;
        let welcome = newcomer.hello(&tokens[s], None).await;
        assert_eq!(welcome["view"], views[s], "seat {s} kept the current board");
    }
    let mut times = Vec::new();
    for _ in 0..3 {
        let mut r = server.ws().await;
        let t = std::time::Instant::now();
        let welcome = r.hello(&tokens[1], Some(seq - 100)).await;
        assert_eq!(welcome["seq"].as_u64(), Some(seq - 100), "the welcome is the state at last_seq");
        assert_eq!(welcome["view"], kept[(seq - 100) as usize], "the view at last_seq");
        let mut next = seq - 99;
        while next <= seq {
            let m = r.recv().await;
            if m["type"] != "update" {
                continue;
            }
            assert_eq!(m["seq"].as_u64(), Some(next), "gap-free, in order");
            // Legal actions are what one may do now: only the update that
            // brings the receiver to now lists them.
            let mut expected = live[next as usize].clone();
            if next < seq {
                expected.as_object_mut().unwrap().remove("legal");
            }
            assert_eq!(m, expected, "update {next} as it was sent live");
            next += 1;
        }
        times.push(t.elapsed());
        // Nothing after the last missed update but live traffic: the
        // connection is caught up and still serves.
        r.ping_pong().await;
    }
    times.sort();
    eprintln!("reconnect with a 100-action gap (at seq {seq}): median {:?}, all {times:?}", times[1]);
    server.stop().await;
}
