//! End-to-end: a real `athlas-server` process, real WebSocket clients.
//! Every test runs on SQLite; the ones about durability also on Postgres
//! (the local server at 127.0.0.1:5432, as `.ci/run` makes sure).
//!
//! Registered as a test of the `athlas-server` package (see server/Cargo.toml)
//! so that Cargo builds the binary and tells us where it is.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(20);

/// A running server process; killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the store lives: an SQLite file in a fresh directory, or a fresh
/// Postgres database.
#[derive(Clone)]
enum Db {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Db {
    fn sqlite(name: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("athlas-e2e-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Db::Sqlite(dir)
    }

    /// A fresh database on the local Postgres, or `None` when none runs.
    async fn postgres(name: &str) -> Option<Db> {
        let admin = std::env::var("ATHLAS_TEST_POSTGRES")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let db = format!("athlas_e2e_{name}_{}", std::process::id());
        let out = Command::new("psql")
            .args([
                admin.as_str(),
                "-q",
                "-c",
                &format!("DROP DATABASE IF EXISTS {db}"),
                "-c",
                &format!("CREATE DATABASE {db}"),
            ])
            .output()
            .ok();
        let Some(out) = out else {
            assert!(std::env::var("CI").is_err(), "psql is missing");
            return None;
        };
        if !out.status.success() {
            // CI makes sure Postgres runs (.ci/run): there, a missing one is a failure.
            assert!(std::env::var("CI").is_err(), "no Postgres for e2e: {}", String::from_utf8_lossy(&out.stderr));
            eprintln!("no Postgres for e2e, skipped: {}", String::from_utf8_lossy(&out.stderr));
            return None;
        }
        let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap();
        Some(Db::Postgres(format!("{base}/{db}")))
    }

    fn start(&self) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_athlas-server"));
        cmd.args(["--listen", "127.0.0.1:0"]).env("RUST_LOG", "info").env_remove("DATABASE_URL");
        match self {
            Db::Sqlite(dir) => {
                cmd.arg("--data-dir").arg(dir);
            }
            Db::Postgres(url) => {
                cmd.env("DATABASE_URL", url);
            }
        }
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("start athlas-server");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let line = strip_ansi(&line);
                if let Some(t) = tx.as_ref() {
                    if line.contains("listening") {
                        let addr =
                            line.split("addr=").nth(1).and_then(|s| s.split_whitespace().next()).map(str::to_string);
                        if let Some(a) = addr {
                            let _ = t.send(a);
                            tx = None;
                        }
                    }
                }
            }
        });
        let addr = rx.recv_timeout(WAIT).expect("the server says where it listens");
        Server { child, addr }
    }
}

/// Log lines may carry colour codes.
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Minimal HTTP/1.1 client: one request per connection.
async fn http(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf);
    let status: u16 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let json = text.split("\r\n\r\n").nth(1).unwrap_or("");
    // Tolerate chunked encoding: take the outermost JSON object.
    let json = match (json.find('{'), json.rfind('}')) {
        (Some(a), Some(b)) => &json[a..=b],
        _ => "null",
    };
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket client that keeps every raw frame it received.
struct Client {
    ws: Ws,
    raw: Vec<String>,
    next_id: u64,
    seq: u64,
    view: Value,
}

impl Client {
    async fn open(addr: &str, first: Value) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
        let mut c = Client { ws, raw: Vec::new(), next_id: 1, seq: 0, view: Value::Null };
        c.send(first).await;
        let w = c.until(|m| m["type"] == "welcome").await;
        c.seq = w["seq"].as_u64().unwrap();
        c.view = w["view"].clone();
        c
    }

    async fn player(addr: &str, token: &str, last_seq: Option<u64>) -> Client {
        let mut hello = json!({"type": "hello", "token": token});
        if let Some(s) = last_seq {
            hello["last_seq"] = json!(s);
        }
        Client::open(addr, hello).await
    }

    async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    /// The next frame (recorded), waiting at most WAIT.
    async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a frame in time").expect("open").unwrap();
            if let Message::Text(t) = m {
                self.raw.push(t.to_string());
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["type"] == "update" {
                    self.seq = v["seq"].as_u64().unwrap();
                    self.view = v["view"].clone();
                }
                return v;
            }
        }
    }

    async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.next().await;
            if pred(&v) {
                return v;
            }
        }
    }

    /// Send an action; the ack or error that answers it.
    async fn act(&mut self, action: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"type": "act", "id": id, "action": action})).await;
        self.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id)).await
    }

    async fn ok(&mut self, action: Value) -> u64 {
        let r = self.act(action.clone()).await;
        assert_eq!(r["type"], "ack", "{action} → {r}");
        let seq = r["seq"].as_u64().unwrap();
        // Our own update for that seq follows.
        while self.seq < seq {
            self.next().await;
        }
        seq
    }

    /// Read frames until this client has seen update `seq`.
    async fn catch_up(&mut self, seq: u64) {
        while self.seq < seq {
            self.next().await;
        }
    }

    fn unit_at(&self, hex: [i32; 2]) -> Option<u64> {
        self.view["units"].as_array().unwrap().iter().find(|u| u["hex"] == json!(hex)).and_then(|u| u["id"].as_u64())
    }
}

/// A small board: two relics next to seat 0's summoning row, so a game can be
/// won in three turns.
fn quick_board() -> Value {
    json!({
        "id": "e2e",
        "radius": 5,
        "terrain": [],
        "summoning": [[[-5,5],[-4,5],[-3,5],[-2,5],[-1,5],[0,5]], [[0,-5],[1,-5],[2,-5],[3,-5],[4,-5],[5,-5]]],
        "relics": [[-5,5],[-4,4],[3,0]]
    })
}

struct Match {
    id: String,
    tokens: [String; 2],
}

async fn new_match(addr: &str, options: Value) -> Match {
    let (st, created) = http(addr, "POST", "/api/matches", Some(json!({"game": "duel", "options": options}))).await;
    assert_eq!(st, 201, "{created}");
    let code = created["join_code"].as_str().unwrap();
    let (st, joined) = http(addr, "POST", &format!("/api/join/{code}"), None).await;
    assert_eq!(st, 200, "{joined}");
    let (st, full) = http(addr, "POST", &format!("/api/join/{code}"), None).await;
    assert_eq!(st, 409, "a full match: {full}");
    assert!(full["code"].is_string() && full["message"].is_string());
    Match {
        id: created["match_id"].as_str().unwrap().into(),
        tokens: [created["token"].as_str().unwrap().into(), joined["token"].as_str().unwrap().into()],
    }
}

/// Seat 0's secret Alphas: cards that seat 1 does not use.
fn seat0_creation() -> Value {
    json!({"type": "create", "alphas": [
        {"cards": ["spell_binder", "pathfinding", "magic_bolt"]},
        {"cards": ["shadow_ranger", "etynian_crossbow", "marksmanship"]},
        {"cards": ["watch_tower", "obsidian_sword"]}
    ], "di_stack": ["teleport", "time_warp"]})
}

fn seat1_creation() -> Value {
    json!({"type": "create", "alphas": [
        {"cards": ["savage_warrior", "karoos_blade"]},
        {"cards": ["forsaken_drake", "rakios_battle_suit"]},
        {"cards": ["raider_of_the_deep", "full_plate_armor"]}
    ], "di_stack": ["lightning_bolt"]})
}

/// Create, join, lock both creations. Returns both clients.
async fn started(addr: &str, m: &Match) -> (Client, Client) {
    let mut a = Client::player(addr, &m.tokens[0], None).await;
    let mut b = Client::player(addr, &m.tokens[1], None).await;
    a.ok(seat0_creation()).await;
    let s = b.ok(seat1_creation()).await;
    a.catch_up(s).await;
    (a, b)
}

async fn win_quickly(db: Db) {
    let server = db.start();
    let m = new_match(&server.addr, json!({"board": quick_board(), "first_player": 0})).await;
    let mut spectator = Client::open(&server.addr, json!({"type": "watch", "match_id": m.id})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    // Turn 1 (seat 0): summon onto the relic; turn 2 (seat 1): nothing.
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    let s = a.ok(json!({"type": "end_turn"})).await;
    b.catch_up(s).await;
    let s = b.ok(json!({"type": "end_turn"})).await;
    a.catch_up(s).await;
    // Turn 3: carry the relic onto the second one: two relics, a win.
    let u = a.unit_at([-5, 5]).unwrap();
    a.ok(json!({"type": "activate", "unit": u})).await;
    let s = a.ok(json!({"type": "move", "to": [-4, 4]})).await;
    assert_eq!(a.view["phase"], json!({"phase": "finished", "outcome": {"result": "win", "seat": 0}}));
    b.catch_up(s).await;
    spectator.catch_up(s).await;
    assert_eq!(spectator.view["phase"]["outcome"]["seat"], 0);
    let (_, summary) = http(&server.addr, "GET", &format!("/api/matches/{}", m.id), None).await;
    assert_eq!(summary["status"], "finished", "{summary}");
}

#[tokio::test]
async fn a_whole_duel_to_a_win_on_sqlite() {
    win_quickly(Db::sqlite("win")).await;
}

#[tokio::test]
async fn a_whole_duel_to_a_win_on_postgres() {
    if let Some(db) = Db::postgres("win").await {
        win_quickly(db).await;
    }
}

#[tokio::test]
async fn a_draw_by_agreement() {
    let server = Db::sqlite("draw").start();
    let m = new_match(&server.addr, json!({"first_player": 1})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    let s = a.ok(json!({"type": "offer_draw"})).await;
    b.catch_up(s).await;
    let s = b.ok(json!({"type": "accept_draw"})).await;
    a.catch_up(s).await;
    assert_eq!(a.view["phase"]["outcome"], json!({"result": "draw"}));
}

#[tokio::test]
async fn an_illegal_action_is_refused_and_changes_nothing() {
    let server = Db::sqlite("illegal").start();
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    let before = (a.seq, a.view.clone());
    // Out of turn, off the summoning row, malformed: each an error, the connection stays.
    let r = b.act(json!({"type": "end_turn"})).await;
    assert_eq!((r["type"].as_str(), r["code"].as_str()), (Some("error"), Some("not_your_turn")), "{r}");
    let r = a.act(json!({"type": "summon", "alpha": 0, "hex": [0, 0]})).await;
    assert_eq!(r["code"], "not_summoning_hex", "{r}");
    assert!(r["message"].as_str().unwrap().contains("summoning"));
    a.send(json!({"type": "act", "id": 99, "action": {"type": "fly_to_the_moon"}})).await;
    let r = a.until(|m| m["type"] == "error").await;
    assert!(r["code"].is_string());
    a.ws.send(Message::Text("{not json".into())).await.unwrap();
    let r = a.until(|m| m["type"] == "error").await;
    assert_eq!(r["code"], "bad_json");
    // Nothing changed: a fresh connection sees the same seq and view.
    let fresh = Client::player(&server.addr, &m.tokens[0], None).await;
    assert_eq!((fresh.seq, fresh.view.clone()), before);
    // And the game goes on.
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
}

#[tokio::test]
async fn unrevealed_cards_never_reach_the_opponent_or_a_spectator_and_the_commitment_verifies() {
    let server = Db::sqlite("secrets").start();
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let mut spectator = Client::open(&server.addr, json!({"type": "watch", "match_id": m.id})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    // Seat 0 reveals only its first Alpha.
    let s = a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    b.catch_up(s).await;
    spectator.catch_up(s).await;
    let hidden =
        ["shadow_ranger", "etynian_crossbow", "marksmanship", "watch_tower", "obsidian_sword", "teleport", "time_warp"];
    for (who, c) in [("opponent", &b), ("spectator", &spectator)] {
        for frame in &c.raw {
            for card in hidden {
                assert!(!frame.contains(card), "the {who} received {card:?} before its reveal: {frame}");
            }
        }
        assert!(c.raw.iter().any(|f| f.contains("spell_binder")), "the revealed Alpha is public");
    }
    // Play on to the end; then both commitments verify against the revealed salts.
    let s = a.ok(json!({"type": "resign"})).await;
    b.catch_up(s).await;
    let mut commitments = std::collections::BTreeMap::new();
    for f in a.raw.iter().chain(b.raw.iter()) {
        let v: Value = serde_json::from_str(f).unwrap();
        if v["type"] == "commitment" {
            commitments.insert(v["seat"].as_u64().unwrap(), v["hash"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(commitments.len(), 2, "both seats were committed to");
    let mut reveals = 0;
    while reveals < 2 {
        let v = b.until(|m| m["type"] == "reveal").await;
        let salt = hex::decode(v["salt"].as_str().unwrap()).unwrap();
        let mut h = Sha256::new();
        h.update(&salt);
        h.update(canonical(&v["secret"]).as_bytes());
        let seat = v["seat"].as_u64().unwrap();
        assert_eq!(hex::encode(h.finalize()), commitments[&seat], "seat {seat}'s commitment verifies");
        reveals += 1;
        if seat == 0 {
            assert!(v["secret"].to_string().contains("watch_tower"), "the revealed secret is the locked stack");
        }
    }
}

/// JSON with object keys sorted at every depth, no spaces.
fn canonical(v: &Value) -> String {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            let parts: Vec<String> =
                keys.iter().map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&o[*k]))).collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

async fn survives_kill_9(db: Db) {
    let mut server = db.start();
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let (mut a, b) = started(&server.addr, &m).await;
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    let acked = a.ok(json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    let b_seen = b.seq;
    // kill -9: no chance to flush anything.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    drop(a);
    drop(b);
    let server = db.start();
    // Reconnect with token and last_seq: what was missed arrives, nothing acknowledged is lost.
    let mut a = Client::player(&server.addr, &m.tokens[0], Some(acked)).await;
    assert_eq!(a.seq, acked, "the welcome is at the last acknowledged action");
    assert_eq!(a.view["units"].as_array().unwrap().len(), 2);
    let mut b = Client::player(&server.addr, &m.tokens[1], Some(b_seen)).await;
    b.catch_up(acked).await;
    assert_eq!(b.view["units"].as_array().unwrap().len(), 2);
    // The game goes on.
    let s = a.ok(json!({"type": "end_turn"})).await;
    b.catch_up(s).await;
    b.ok(json!({"type": "summon", "alpha": 0, "hex": [0, -5]})).await;
}

#[tokio::test]
async fn kill_9_and_restart_lose_nothing_on_sqlite() {
    survives_kill_9(Db::sqlite("kill")).await;
}

#[tokio::test]
async fn kill_9_and_restart_lose_nothing_on_postgres() {
    if let Some(db) = Db::postgres("kill").await {
        survives_kill_9(db).await;
    }
}
