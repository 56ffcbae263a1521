//! What the end-to-end and operations tests share: a real `athlas-server`
//! process, a minimal HTTP client, a WebSocket client that keeps every raw
//! frame, and a quick duel set-up.
#![allow(dead_code)] // each test file uses its own part

pub mod party;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

pub const WAIT: Duration = Duration::from_secs(20);

/// A running server process; killed when dropped.
pub struct Server {
    pub child: Child,
    pub addr: String,
    /// Every line the server wrote to stdout, colour codes removed.
    pub logs: Arc<Mutex<Vec<String>>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        // A failing test shows what the server said last.
        if std::thread::panicking() {
            if let Ok(logs) = self.logs.lock() {
                eprintln!("last lines of the server at {}:", self.addr);
                logs.iter().rev().take(30).rev().for_each(|l| eprintln!("  {l}"));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the store lives: an SQLite file in a fresh directory, or a fresh
/// Postgres database.
#[derive(Clone)]
pub enum Db {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Db {
    pub fn sqlite(name: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("athlas-e2e-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Db::Sqlite(dir)
    }

    /// A fresh database on the local Postgres, or `None` when none runs.
    pub async fn postgres(name: &str) -> Option<Db> {
        let db = format!("athlas_e2e_{name}_{}", std::process::id());
        if !psql(&[&format!("DROP DATABASE IF EXISTS {db}"), &format!("CREATE DATABASE {db}")]) {
            return None;
        }
        let admin = admin_url();
        let base = admin.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap();
        Some(Db::Postgres(format!("{base}/{db}")))
    }

    /// The server command for this store: `ATHLAS_SERVER_BIN` or the
    /// binary Cargo built, listening on a free port.
    pub fn command(&self) -> Command {
        self.command_on("127.0.0.1:0")
    }

    /// [`Db::command`] listening at `listen`.
    pub fn command_on(&self, listen: &str) -> Command {
        let mut cmd = Command::new(server_bin());
        cmd.args(["--listen", listen]).env("ATHLAS_LOG_LEVEL", "info").env_remove("DATABASE_URL");
        // The scripted seats act as fast as the machine goes, far above a
        // person's 20 frames a second (the limit has its own test).
        cmd.env("ATHLAS_RATE_PER_SEC", "1000000").env("ATHLAS_RATE_BURST", "1000000");
        // And every client comes from 127.0.0.1 (hostile.rs tests the per-address limits).
        cmd.env("ATHLAS_LOBBY_PER_MIN", "0").env("ATHLAS_AUTH_FAILURES_PER_MIN", "0");
        match self {
            Db::Sqlite(dir) => {
                cmd.arg("--data-dir").arg(dir);
            }
            Db::Postgres(url) => {
                cmd.env("DATABASE_URL", url);
            }
        }
        cmd
    }

    pub fn start(&self) -> Server {
        spawn(self.command())
    }

    /// `athlas-server audit --all` over this store: every match's log
    /// replays from its seed to the state hashes stored with it. Returns
    /// the report; panics on any divergence.
    pub fn audit_all(&self) -> String {
        let mut cmd = Command::new(server_bin());
        cmd.env_remove("DATABASE_URL").env("ATHLAS_LOG_LEVEL", "warn");
        match self {
            Db::Sqlite(dir) => cmd.arg("--data-dir").arg(dir),
            Db::Postgres(url) => cmd.env("DATABASE_URL", url),
        };
        let out = cmd.args(["audit", "--all"]).output().expect("run athlas-server audit");
        let report = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success() && report.contains(" 0 divergences"),
            "the audit found divergences:\n{report}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!report.contains(" 0 ok "), "the audit read no match:\n{report}");
        eprintln!("athlas-server audit --all: {}", report.lines().last().unwrap_or_default());
        report
    }
}

/// The local Postgres as its superuser: `ATHLAS_TEST_POSTGRES` or the default.
pub fn admin_url() -> String {
    std::env::var("ATHLAS_TEST_POSTGRES").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// Run SQL statements on the local Postgres; false when there is none
/// (outside CI only: `.ci/run` makes sure it runs, so there it fails).
pub fn psql(sql: &[&str]) -> bool {
    let admin = admin_url();
    let mut cmd = Command::new("psql");
    cmd.args([admin.as_str(), "-q", "-v", "ON_ERROR_STOP=1"]);
    for s in sql {
        cmd.args(["-c", s]);
    }
    match cmd.output() {
        Ok(out) if out.status.success() => true,
        other => {
            assert!(std::env::var("CI").is_err(), "no Postgres for these tests: {other:?}");
            eprintln!("no Postgres, skipped: {other:?}");
            false
        }
    }
}

/// The server binary: `ATHLAS_SERVER_BIN` when set (a release build, say),
/// else the one Cargo built for these tests.
pub fn server_bin() -> String {
    std::env::var("ATHLAS_SERVER_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_athlas-server").to_owned())
}

/// Start `cmd`, keep its stdout, and wait until it says where it listens.
pub fn spawn(mut cmd: Command) -> Server {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("start athlas-server");
    let out = child.stdout.take().unwrap();
    let logs = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    let kept = logs.clone();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let line = strip_ansi(&line);
            if let Some(t) = tx.as_ref() {
                if line.contains("listening") {
                    let addr = line
                        .split("addr=")
                        .nth(1)
                        .or_else(|| line.split("\"addr\":\"").nth(1))
                        .and_then(|s| s.split(|c: char| c.is_whitespace() || c == '"').next())
                        .map(str::to_string);
                    if let Some(a) = addr {
                        let _ = t.send(a);
                        tx = None;
                    }
                }
            }
            kept.lock().unwrap().push(line);
        }
    });
    let addr = rx.recv_timeout(WAIT).expect("the server says where it listens");
    Server { child, addr, logs }
}

/// The first JSON log line matching `pred`, waiting for the server to
/// write it (at most [`WAIT`]); panics with the logs when none comes.
pub fn wait_for_log(server: &Server, pred: impl Fn(&Value) -> bool) -> Value {
    let started = std::time::Instant::now();
    loop {
        let found =
            server.logs.lock().unwrap().iter().filter_map(|l| serde_json::from_str::<Value>(l).ok()).find(&pred);
        if let Some(line) = found {
            return line;
        }
        assert!(started.elapsed() < WAIT, "no such log line in {:?}", server.logs.lock().unwrap());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Log lines may carry colour codes.
pub fn strip_ansi(s: &str) -> String {
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

/// Minimal HTTP/1.1 client: one request per connection; status and body.
pub async fn http_text(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, String) {
    http_text_as(addr, method, path, None, body).await
}

/// [`http_text`] with a seat token as `Authorization: Bearer`.
pub async fn http_text_as(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf);
    let status: u16 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, body)
}

/// A `GET` with extra request header lines; the status, the response's
/// header block (names lower-cased) and its body.
pub async fn http_get_raw(addr: &str, path: &str, headers: &str) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf);
    let status: u16 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// [`http_text`] with a JSON body.
pub async fn http(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    http_as(addr, method, path, None, body).await
}

/// [`http`] with a seat token as `Authorization: Bearer`.
pub async fn http_as(addr: &str, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let (status, text) = http_text_as(addr, method, path, token, body).await;
    // Tolerate chunked encoding: take the outermost JSON object.
    let json = match (text.find('{'), text.rfind('}')) {
        (Some(a), Some(b)) => &text[a..=b],
        _ => "null",
    };
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket client that keeps every raw frame it received.
pub struct Client {
    pub ws: Ws,
    pub raw: Vec<String>,
    pub next_id: u64,
    pub seq: u64,
    pub view: Value,
}

impl Client {
    pub async fn open(addr: &str, first: Value) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await.unwrap();
        let mut c = Client { ws, raw: Vec::new(), next_id: 1, seq: 0, view: Value::Null };
        c.send(first).await;
        let w = c.until(|m| m["type"] == "welcome").await;
        c.seq = w["seq"].as_u64().unwrap();
        c.view = w["view"].clone();
        c
    }

    pub async fn player(addr: &str, token: &str, last_seq: Option<u64>) -> Client {
        let mut hello = json!({"type": "hello", "token": token});
        if let Some(s) = last_seq {
            hello["last_seq"] = json!(s);
        }
        Client::open(addr, hello).await
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    /// The next frame (recorded), waiting at most WAIT.
    pub async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a frame in time").expect("open").unwrap();
            if let Message::Text(t) = m {
                self.raw.push(t.to_string());
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["type"] == "update" {
                    self.seq = v["seq"].as_u64().unwrap();
                    // An update leaves an unchanged board out: keep ours.
                    let board = self.view.get("hexes").cloned();
                    self.view = v["view"].clone();
                    if let (None, Some(board)) = (self.view.get("hexes"), board) {
                        self.view["hexes"] = board;
                    }
                }
                return v;
            }
        }
    }

    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.next().await;
            if pred(&v) {
                return v;
            }
        }
    }

    /// Send an action; the ack or error that answers it.
    pub async fn act(&mut self, action: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"type": "act", "id": id, "action": action})).await;
        self.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id)).await
    }

    pub async fn ok(&mut self, action: Value) -> u64 {
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
    pub async fn catch_up(&mut self, seq: u64) {
        while self.seq < seq {
            self.next().await;
        }
    }

    pub fn unit_at(&self, hex: [i32; 2]) -> Option<u64> {
        self.view["units"].as_array().unwrap().iter().find(|u| u["hex"] == json!(hex)).and_then(|u| u["id"].as_u64())
    }
}

/// A small board: two relics next to seat 0's summoning row, so a game can be
/// won in three turns.
pub fn quick_board() -> Value {
    json!({
        "id": "e2e",
        "radius": 5,
        "terrain": [],
        "summoning": [[[-5,5],[-4,5],[-3,5],[-2,5],[-1,5],[0,5]], [[0,-5],[1,-5],[2,-5],[3,-5],[4,-5],[5,-5]]],
        "relics": [[-5,5],[-4,4],[3,0]]
    })
}

pub struct Match {
    pub id: String,
    pub tokens: [String; 2],
}

pub async fn new_match(addr: &str, options: Value) -> Match {
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
pub fn seat0_creation() -> Value {
    json!({"type": "create", "alphas": [
        {"cards": ["spell_binder", "pathfinding", "magic_bolt"]},
        {"cards": ["shadow_ranger", "etynian_crossbow", "marksmanship"]},
        {"cards": ["watch_tower", "obsidian_sword"]}
    ], "di_stack": ["teleport", "time_warp"]})
}

pub fn seat1_creation() -> Value {
    json!({"type": "create", "alphas": [
        {"cards": ["savage_warrior", "karoos_blade"]},
        {"cards": ["forsaken_drake", "rakios_battle_suit"]},
        {"cards": ["raider_of_the_deep", "full_plate_armor"]}
    ], "di_stack": ["lightning_bolt"]})
}

/// Create, join, lock both creations. Returns both clients.
pub async fn started(addr: &str, m: &Match) -> (Client, Client) {
    let mut a = Client::player(addr, &m.tokens[0], None).await;
    let mut b = Client::player(addr, &m.tokens[1], None).await;
    a.ok(seat0_creation()).await;
    let s = b.ok(seat1_creation()).await;
    a.catch_up(s).await;
    (a, b)
}

/// After a restart: both seats come back with their last seq, every
/// acknowledged action is there (at least the `units` seat 0 summoned with
/// an ack), and the game goes on: seat 0 ends its turn, seat 1 summons.
pub async fn resume_and_play_on(addr: &str, m: &Match, acked: u64, b_seen: u64, units: usize) {
    let mut a = Client::player(addr, &m.tokens[0], Some(acked)).await;
    assert!(a.seq >= acked, "no acknowledged action lost: {} < {acked}", a.seq);
    assert!(a.view["units"].as_array().unwrap().len() >= units, "{}", a.view["units"]);
    let mut b = Client::player(addr, &m.tokens[1], Some(b_seen)).await;
    b.catch_up(a.seq).await;
    assert_eq!(b.view["units"], a.view["units"], "both seats see the same board");
    let s = a.ok(json!({"type": "end_turn"})).await;
    b.catch_up(s).await;
    b.ok(json!({"type": "summon", "alpha": 0, "hex": [0, -5]})).await;
}
