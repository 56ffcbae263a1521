//! Test support: a tiny two-seat ruleset with a secret per seat, a server on
//! 127.0.0.1:0 over a fresh SQLite file, a raw HTTP client and a WebSocket
//! client that waits for messages (never for time).
#![allow(dead_code)]

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::Arc,
    time::Duration,
};

use athlas_engine::{Outcome, RuleError, Ruleset, Seat, SetupError, Status, Viewer, Visible};
use athlas_server::{Config, Hub, Registry, RulesetGame, Store};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::oneshot,
    task::JoinHandle,
};
use tokio_tungstenite::{tungstenite::Message, MaybeTlsStream, WebSocketStream};

/// Nim with secrets: each seat first locks a secret number (simultaneously),
/// then seat 0 and seat 1 take 1 to 3 from a pile in turn; who takes the last
/// wins. A live match's timer takes 1 for the seat to move.
pub struct Nim;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NimOptions {
    pub pile: u32,
}

impl Default for NimOptions {
    fn default() -> Self {
        NimOptions { pile: 10 }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NimState {
    pile: u32,
    turn: Seat,
    secrets: [Option<u32>; 2],
    winner: Option<Seat>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum NimAction {
    Secret { value: u32 },
    Take { n: u32 },
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum NimEvent {
    SecretChosen { seat: Seat, value: u32 },
    SecretLocked { seat: Seat },
    Took { seat: Seat, n: u32, left: u32 },
}

impl Visible for NimEvent {
    fn visible_to(&self, viewer: Viewer) -> bool {
        match self {
            NimEvent::SecretChosen { seat, .. } => viewer == Viewer::Seat(*seat),
            _ => true,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct NimView {
    pile: u32,
    turn: Seat,
    locked: [bool; 2],
    my_secret: Option<u32>,
}

impl Ruleset for Nim {
    const GAME: &'static str = "nim";
    const RULES_VERSION: u32 = 1;
    type Options = NimOptions;
    type State = NimState;
    type Action = NimAction;
    type Event = NimEvent;
    type View = NimView;
    type Hashed<'a> = &'a NimState;

    fn hashed(state: &NimState) -> &NimState {
        state
    }

    fn seats(_: &NimOptions) -> usize {
        2
    }

    fn start(options: &NimOptions, _seed: u64) -> Result<NimState, SetupError> {
        if options.pile == 0 {
            return Err(SetupError::new("the pile must not be empty"));
        }
        Ok(NimState { pile: options.pile, turn: 0, secrets: [None, None], winner: None })
    }

    fn apply(state: &mut NimState, seat: Seat, action: NimAction) -> Result<Vec<NimEvent>, RuleError> {
        if state.winner.is_some() {
            return Err(RuleError::new("finished", "the game is over"));
        }
        match action {
            NimAction::Secret { value } => {
                if state.secrets[seat as usize].is_some() {
                    return Err(RuleError::new("secret_locked", "your secret is already locked"));
                }
                state.secrets[seat as usize] = Some(value);
                Ok(vec![NimEvent::SecretChosen { seat, value }, NimEvent::SecretLocked { seat }])
            }
            NimAction::Take { n } => {
                if state.secrets.iter().any(Option::is_none) {
                    return Err(RuleError::new("setup", "both seats lock a secret first"));
                }
                if seat != state.turn {
                    return Err(RuleError::new("not_your_turn", "it is the other seat's turn"));
                }
                if !(1..=3).contains(&n) || n > state.pile {
                    return Err(RuleError::new("bad_take", "take 1 to 3, at most the pile"));
                }
                state.pile -= n;
                if state.pile == 0 {
                    state.winner = Some(seat);
                }
                state.turn = 1 - seat;
                Ok(vec![NimEvent::Took { seat, n, left: state.pile }])
            }
        }
    }

    fn legal(state: &NimState, seat: Seat) -> Vec<NimAction> {
        if state.winner.is_some() {
            return Vec::new();
        }
        if state.secrets[seat as usize].is_none() {
            return vec![NimAction::Secret { value: 0 }];
        }
        if state.secrets.iter().any(Option::is_none) || seat != state.turn {
            return Vec::new();
        }
        (1..=state.pile.min(3)).map(|n| NimAction::Take { n }).collect()
    }

    fn view(state: &NimState, viewer: Viewer) -> NimView {
        NimView {
            pile: state.pile,
            turn: state.turn,
            locked: [state.secrets[0].is_some(), state.secrets[1].is_some()],
            my_secret: viewer.seat().and_then(|s| state.secrets[s as usize]),
        }
    }

    fn status(state: &NimState) -> Status {
        if let Some(seat) = state.winner {
            return Status::Finished(Outcome::Win { seat });
        }
        let unlocked: Vec<Seat> = (0..2).filter(|s| state.secrets[*s as usize].is_none()).collect();
        Status::Waiting { seats: if unlocked.is_empty() { vec![state.turn] } else { unlocked } }
    }

    fn locked_secret(state: &NimState, seat: Seat) -> Option<Value> {
        state.secrets[seat as usize].map(|v| json!({ "value": v }))
    }

    fn timeout_action(state: &NimState) -> Option<(Seat, NimAction)> {
        (state.winner.is_none() && state.secrets.iter().all(Option::is_some))
            .then_some((state.turn, NimAction::Take { n: 1 }))
    }
}

/// The standard games, and Nim (which has no campaign variant).
pub fn registry() -> Registry {
    Registry::standard().with(RulesetGame::<Nim>::default())
}

/// A fresh directory for one test's SQLite file.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("athlas-test-{name}-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn config(data_dir: &Path) -> Config {
    // Tests play as fast as the machine goes, far above a person's 20
    // frames a second; the rate limit has tests of its own (server.rs).
    Config {
        data_dir: data_dir.to_owned(),
        listen: ([127, 0, 0, 1], 0).into(),
        rate_per_sec: 1e6,
        rate_burst: 1e6,
        // Likewise the per-address limits (hostile.rs tests them): every
        // test's clients come from 127.0.0.1.
        lobby_per_min: 0,
        auth_failures_per_min: 0,
        ..Config::default()
    }
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    pub hub: Arc<Hub>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Server {
    pub async fn start(config: Config) -> Server {
        if let Ok(filter) = std::env::var("ATHLAS_TEST_LOG") {
            let _ = tracing_subscriber::fmt().with_env_filter(filter).with_test_writer().try_init();
        }
        let store = Store::open(config.database_url.as_deref(), &config.data_dir).await.unwrap();
        let hub = Hub::with_store(config, registry(), store);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(athlas_server::serve(listener, hub.clone(), async move {
            let _ = stopped.await;
        }));
        let task = tokio::spawn(async move { task.await.unwrap().unwrap() });
        Server { addr, hub, stop: Some(stop), task }
    }

    /// Graceful shutdown; returns once the store is closed.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        (&mut self.task).await.unwrap();
    }

    /// `METHOD path` with an optional JSON body: (status, JSON body).
    pub async fn http(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        self.http_as(method, path, body, None).await
    }

    /// [`Server::http`] with `Authorization: Bearer <token>` when given.
    pub async fn http_as(&self, method: &str, path: &str, body: Option<&str>, token: Option<&str>) -> (u16, Value) {
        let mut s = TcpStream::connect(self.addr).await.unwrap();
        let body = body.unwrap_or("");
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.unwrap();
        let raw = String::from_utf8(raw).unwrap();
        let status: u16 = raw[9..12].parse().unwrap();
        let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            dechunk(rest)
        } else {
            rest.to_owned()
        };
        (status, serde_json::from_str(&body).unwrap_or(Value::String(body)))
    }

    pub async fn create(&self, game: &str, options: Value) -> Value {
        let (status, body) =
            self.http("POST", "/api/matches", Some(&json!({"game": game, "options": options}).to_string())).await;
        assert_eq!(status, 201, "{body}");
        body
    }

    pub async fn join(&self, code: &str) -> Value {
        let (status, body) = self.http("POST", &format!("/api/join/{code}"), None).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    pub async fn ws(&self) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", self.addr)).await.unwrap();
        Client { ws }
    }

    /// Create a nim match, join it, and say hello on both seats.
    pub async fn nim_pair(&self, options: Value) -> (Value, Client, Client) {
        let created = self.create("nim", options).await;
        let joined = self.join(created["join_code"].as_str().unwrap()).await;
        let mut a = self.ws().await;
        let mut b = self.ws().await;
        let wa = a.hello(&created["token"], None).await;
        assert_eq!(wa["seat"], 0);
        let wb = b.hello(&joined["token"], None).await;
        assert_eq!(wb["seat"], 1);
        (json!({"match_id": created["match_id"], "tokens": [created["token"], joined["token"]]}), a, b)
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        s = &rest[size + 2..];
    }
    out
}

/// A WebSocket client.
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// The next JSON message. Waits for a message, not for time: a generous
    /// bound only turns a hang into a failure.
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(60), self.ws.next())
                .await
                .expect("no message within 60 s")
                .expect("connection closed")
                .expect("websocket error");
            match msg {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("connection closed by the server"),
                _ => continue,
            }
        }
    }

    /// The next message whose type is `ty`, skipping others.
    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let m = self.recv().await;
            if m["type"] == ty {
                return m;
            }
        }
    }

    /// The next message, without a bound (for paused-time tests, where any
    /// timer would fire at once).
    pub async fn recv_unbounded(&mut self) -> Value {
        loop {
            let next = self.ws.next().await;
            match next.expect("closed").expect("ws error") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("closed"),
                _ => continue,
            }
        }
    }

    pub async fn hello(&mut self, token: &Value, last_seq: Option<u64>) -> Value {
        let mut m = json!({"type": "hello", "token": token});
        if let Some(l) = last_seq {
            m["last_seq"] = json!(l);
        }
        self.send(m).await;
        let w = self.recv().await;
        assert_eq!(w["type"], "welcome", "{w}");
        w
    }

    /// Send an act and return the answer (`ack` or `error`) to it, skipping
    /// updates and commitments pushed meanwhile.
    pub async fn act(&mut self, id: u64, action: Value) -> Value {
        self.send(json!({"type": "act", "id": id, "action": action})).await;
        loop {
            let m = self.recv().await;
            if (m["type"] == "ack" || m["type"] == "error") && m["id"] == id {
                return m;
            }
        }
    }

    pub async fn ping_pong(&mut self) {
        self.send(json!({"type": "ping"})).await;
        self.recv_type("pong").await;
    }
}

/// A fresh Postgres database for one test, on the server named by
/// `ATHLAS_TEST_POSTGRES` (default `postgres://postgres@127.0.0.1:5432/postgres`).
pub struct PgDb {
    pub url: String,
    admin_url: String,
    name: String,
}

impl PgDb {
    /// `None` (with a note) when no Postgres answers, unless
    /// `ATHLAS_REQUIRE_POSTGRES` is set, which makes that a failure.
    pub async fn create() -> Option<PgDb> {
        use sqlx::{Connection, Executor};
        let admin_url = std::env::var("ATHLAS_TEST_POSTGRES")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let mut admin = match sqlx::PgConnection::connect(&admin_url).await {
            Ok(c) => c,
            Err(e) if std::env::var("ATHLAS_REQUIRE_POSTGRES").is_err() => {
                eprintln!("skipping the Postgres half: no Postgres at {admin_url}: {e}");
                return None;
            }
            Err(e) => panic!("no Postgres at {admin_url}: {e}"),
        };
        let name = format!("athlas_test_{}", uuid::Uuid::new_v4().simple());
        admin.execute(format!("CREATE DATABASE {name}").as_str()).await.unwrap();
        let (base, _) = admin_url.rsplit_once('/').unwrap();
        Some(PgDb { url: format!("{base}/{name}"), admin_url: admin_url.clone(), name })
    }

    pub async fn drop(self) {
        use sqlx::{Connection, Executor};
        let mut admin = sqlx::PgConnection::connect(&self.admin_url).await.unwrap();
        admin.execute(format!("DROP DATABASE {} WITH (FORCE)", self.name).as_str()).await.unwrap();
    }
}
