//! Store faults under live games, against a real server process: the
//! database goes away and comes back, and no action is acknowledged unless
//! stored, none is lost, none is applied twice.
//!
//! Postgres here is a private cluster the test starts on a free port
//! (initdb + pg_ctl, as the `postgres` user), so stopping it does not
//! disturb the other tests that use the machine's Postgres.

mod support;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::*;

/// A throw-away Postgres cluster; stopped and removed when dropped.
struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
}

impl Cluster {
    /// `None` when this machine has no Postgres server binaries (outside CI
    /// only; `.ci/run` sets `CI`, and there a missing Postgres fails).
    fn start(name: &str) -> Option<Cluster> {
        let bin = std::fs::read_dir("/usr/lib/postgresql")
            .ok()
            .and_then(|d| d.filter_map(Result::ok).map(|e| e.path().join("bin")).find(|b| b.join("initdb").exists()));
        let Some(bin) = bin else {
            assert!(std::env::var_os("CI").is_none(), "no Postgres server binaries under /usr/lib/postgresql");
            eprintln!("no Postgres server binaries: skipped");
            return None;
        };
        let dir = std::env::temp_dir().join(format!("athlas-pg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let c = Cluster { bin, dir, port };
        // initdb refuses to run as root: the cluster belongs to `postgres`.
        assert!(Command::new("chown").args(["postgres:postgres"]).arg(&c.dir).status().unwrap().success());
        c.as_postgres(&[
            c.bin.join("initdb").to_str().unwrap(),
            "-D",
            c.data().to_str().unwrap(),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
        ]);
        c.pg_ctl("start");
        Some(c)
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    fn as_postgres(&self, args: &[&str]) {
        let out = Command::new("runuser").args(["-u", "postgres", "--"]).args(args).output().expect("runuser");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// `pg_ctl start` or `pg_ctl stop -m fast`, waiting until done.
    fn pg_ctl(&self, what: &str) {
        let opts = format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=on", self.port, self.dir.display());
        let log = self.dir.join("log");
        let (data, log) = (self.data(), log);
        let mut args = vec![
            self.bin.join("pg_ctl").to_str().unwrap().to_owned(),
            "-D".into(),
            data.to_str().unwrap().into(),
            "-w".into(),
        ];
        match what {
            "start" => args.extend(["-o".into(), opts, "-l".into(), log.to_str().unwrap().into(), "start".into()]),
            _ => args.extend(["-m".into(), "fast".into(), "stop".into()]),
        }
        self.as_postgres(&args.iter().map(String::as_str).collect::<Vec<_>>());
    }

    /// How many actions of `match_id` the store holds.
    fn stored_actions(&self, match_id: &str) -> u64 {
        let out = Command::new("psql")
            .args([&self.url(), "-At", "-c", &format!("SELECT count(*) FROM actions WHERE match_id = '{match_id}'")])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn ready(addr: &str) -> u16 {
    http(addr, "GET", "/readyz", None).await.0
}

async fn until_ready(addr: &str, want: u16) {
    let started = Instant::now();
    while ready(addr).await != want {
        assert!(started.elapsed() < WAIT, "/readyz did not turn {want}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Send `action` until it is acknowledged, as a client does while the store
/// is down: each refusal must be the documented retryable error.
async fn act_until_stored(addr: &str, token: &str, client: &mut Option<Client>, action: Value) -> u64 {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(60), "{action} never stored");
        let c = match client {
            Some(c) => c,
            None => match tokio::time::timeout(WAIT, try_player(addr, token)).await {
                Ok(Some(c)) => client.insert(c),
                _ => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            },
        };
        match try_act(c, action.clone()).await {
            Some(r) if r["type"] == "ack" => return r["seq"].as_u64().unwrap(),
            Some(r) => {
                assert_eq!(r["code"], "store_unavailable", "a refusal while the store is down: {r}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            // The room dropped its connections to reload from the store.
            None => *client = None,
        }
    }
}

/// A seat's connection, or `None` while the server cannot load its room.
async fn try_player(addr: &str, token: &str) -> Option<Client> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.ok()?;
    ws.send(Message::Text(json!({"type": "hello", "token": token}).to_string().into())).await.ok()?;
    while let Some(Ok(m)) = ws.next().await {
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(&t).unwrap();
        match v["type"].as_str() {
            Some("welcome") => {
                let seq = v["seq"].as_u64().unwrap();
                return Some(Client { ws, raw: vec![t.to_string()], next_id: 1_000, seq, view: v["view"].clone() });
            }
            Some("error") => {
                assert_eq!(v["code"], "store_unavailable", "hello while the store is down: {v}");
                return None;
            }
            _ => {}
        }
    }
    None
}

/// The answer to one act, or `None` when the connection closed first.
async fn try_act(c: &mut Client, action: Value) -> Option<Value> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let id = c.next_id;
    c.next_id += 1;
    c.ws.send(Message::Text(json!({"type": "act", "id": id, "action": action}).to_string().into())).await.ok()?;
    loop {
        let m = tokio::time::timeout(WAIT, c.ws.next()).await.ok()??.ok()?;
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(&t).unwrap();
        if (v["type"] == "ack" || v["type"] == "error") && v["id"] == json!(id) {
            return Some(v);
        }
    }
}

/// While the store is down, the lobby answers with the same retryable code.
async fn lobby_says_unavailable(addr: &str) {
    let (status, body) = http(addr, "POST", "/api/matches", Some(json!({"game": "duel", "options": {}}))).await;
    assert_eq!((status, body["code"].as_str()), (503, Some("store_unavailable")), "{body}");
}

/// Postgres stops under a live duel for `down`, then starts again: acts
/// meanwhile get `store_unavailable`, `/readyz` is 503, and once the store
/// is back the same server plays on from exactly the acknowledged actions.
async fn postgres_goes_away(name: &str, down: Duration) {
    let Some(pg) = Cluster::start(name) else { return };
    let server = Db::Postgres(pg.url()).start();
    let addr = server.addr.clone();
    let m = new_match(&addr, json!({"first_player": 0})).await;
    let (mut a, mut b) = started(&addr, &m).await;
    let acked = a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    assert_eq!(pg.stored_actions(&m.id), acked, "every acknowledged action is stored");

    pg.pg_ctl("stop");
    until_ready(&addr, 503).await;
    let r = try_act(&mut a, json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await.expect("an answer");
    assert_eq!(r["type"], "error", "nothing is acknowledged while the store is down: {r}");
    assert_eq!(r["code"], "store_unavailable", "{r}");
    assert!(r["message"].as_str().unwrap().contains("unavailable"), "{r}");
    // The other seat is told too, before its connection is dropped for the reload.
    let told = b.until(|m| m["type"] == "error").await;
    assert_eq!(told["code"], "store_unavailable", "{told}");
    let mut a = None;
    drop(b);
    lobby_says_unavailable(&addr).await;
    tokio::time::sleep(down).await;
    assert_eq!(ready(&addr).await, 503);

    pg.pg_ctl("start");
    until_ready(&addr, 200).await;
    // The same act again, as a client retries: stored once.
    let s = act_until_stored(&addr, &m.tokens[0], &mut a, json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    assert_eq!(s, acked + 1, "the refused act was not applied; the retry is the next action");
    let s = act_until_stored(&addr, &m.tokens[0], &mut a, json!({"type": "end_turn"})).await;
    assert_eq!(pg.stored_actions(&m.id), s, "stored = acknowledged, nothing twice");
    // Seat 1 comes back with the seq it had seen and gets every update since, in order.
    let mut b = Client::player(&addr, &m.tokens[1], Some(acked)).await;
    b.catch_up(s).await;
    let seqs: Vec<u64> = b
        .raw
        .iter()
        .filter_map(|t| serde_json::from_str::<Value>(t).ok())
        .filter(|v| v["type"] == "update")
        .filter_map(|v| v["seq"].as_u64())
        .collect();
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "gap-free: {seqs:?}");
    assert_eq!(b.view["units"].as_array().unwrap().len(), 2, "{}", b.view["units"]);
    b.ok(json!({"type": "summon", "alpha": 0, "hex": [0, -5]})).await;
    assert_eq!(pg.stored_actions(&m.id), s + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_under_a_live_duel_loses_nothing() {
    postgres_goes_away("restart", Duration::ZERO).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_for_20_seconds_under_a_live_duel_loses_nothing() {
    postgres_goes_away("stopped", Duration::from_secs(20)).await;
}

/// A small filesystem of its own for the SQLite store (tmpfs), unmounted
/// when dropped; `None` where this machine cannot mount (outside CI only).
struct SmallDisk {
    dir: PathBuf,
}

impl SmallDisk {
    fn mount(name: &str, size: &str) -> Option<SmallDisk> {
        let dir = std::env::temp_dir().join(format!("athlas-disk-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = Command::new("mount").args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"]).arg(&dir).status();
        if !ok.is_ok_and(|s| s.success()) {
            assert!(std::env::var_os("CI").is_none(), "cannot mount a tmpfs for the disk-full test (needs root)");
            eprintln!("cannot mount a tmpfs: skipped");
            return None;
        }
        Some(SmallDisk { dir })
    }

    /// Fill every free byte with a file; returns it, to remove later.
    fn fill(&self) -> PathBuf {
        let filler = self.dir.join("filler");
        let _ = Command::new("dd").arg("if=/dev/zero").arg(format!("of={}", filler.display())).args(["bs=4k"]).output();
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").args(["-l"]).arg(&self.dir).status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The SQLite store's disk fills under a live duel: `/readyz` turns 503,
/// acts get `store_unavailable`, nothing unstored is acknowledged, and once
/// space is freed `/readyz` is 200 again and the same server plays on from
/// exactly the acknowledged actions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_under_a_live_duel_loses_nothing() {
    let Some(disk) = SmallDisk::mount("full", "16m") else { return };
    let server = Db::Sqlite(disk.dir.clone()).start();
    let addr = server.addr.clone();
    let m = new_match(&addr, json!({"first_player": 0})).await;
    let (mut a, mut b) = started(&addr, &m).await;
    let acked = a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;

    assert_eq!(ready(&addr).await, 200);
    let filler = disk.fill();
    // The balancer's probe sees it before any player does.
    until_ready(&addr, 503).await;
    let r = try_act(&mut a, json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await.expect("an answer");
    assert_eq!((r["type"].as_str(), r["code"].as_str()), (Some("error"), Some("store_unavailable")), "{r}");
    let told = b.until(|m| m["type"] == "error").await;
    assert_eq!(told["code"], "store_unavailable", "{told}");
    drop(b);

    std::fs::remove_file(filler).unwrap();
    until_ready(&addr, 200).await;
    let mut a = None;
    let s = act_until_stored(&addr, &m.tokens[0], &mut a, json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    assert_eq!(s, acked + 1, "the refused act was not applied; the retry is the next action");
    let mut b = Client::player(&addr, &m.tokens[1], Some(acked)).await;
    b.catch_up(s).await;
    assert_eq!(b.view["units"].as_array().unwrap().len(), 2, "{}", b.view["units"]);
    let s = act_until_stored(&addr, &m.tokens[0], &mut a, json!({"type": "end_turn"})).await;
    b.catch_up(s).await;
    drop((a, b, server));
    // Restarted on the same file: exactly the acknowledged actions.
    let server = Db::Sqlite(disk.dir.clone()).start();
    let c = Client::player(&server.addr, &m.tokens[1], None).await;
    assert_eq!(c.seq, s, "stored = acknowledged after a restart");
}
