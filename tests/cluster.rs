//! Room ownership by lease with fencing, between real server processes on
//! the local Postgres (docs/CLUSTER.md). Node A plays a duel; it is paused
//! (SIGSTOP) with an action of seat 0 waiting in its socket, past its
//! lease; node B takes the room over when seat 1 comes back through it;
//! A is resumed (SIGCONT): its write is refused, it tells seat 0
//! `room_elsewhere` and drops the room, and the log keeps one history;
//! the same when the pause lands inside A's write and Postgres ends A's
//! connection.
//! And a node that does not play a match sends its players to the one that
//! does.

mod support;

use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};
use support::{new_match, spawn, started, Client, Db, Match, Server, Ws};

fn node(db: &Db, name: &str) -> Server {
    let mut cmd = db.command();
    cmd.args(["--cluster", "--node-id", name, "--lease-ms", "1500", "--lease-renew-ms", "300"]);
    spawn(cmd)
}

fn signal(server: &Server, sig: &str) {
    let ok = Command::new("kill").args([sig, &server.child.id().to_string()]).status().unwrap().success();
    assert!(ok, "kill {sig}");
}

/// Two nodes on one fresh database and a duel played on A: both seats
/// connected there, seat 0's first summon stored at `s`.
struct DuelOnA {
    db: Db,
    a: Server,
    b: Server,
    m: Match,
    p0: Client,
    p1: Client,
    s: u64,
}

impl DuelOnA {
    async fn start(name: &str) -> Option<DuelOnA> {
        let db = Db::postgres(name).await?;
        let a = node(&db, "node-a");
        let b = node(&db, "node-b");
        let m = new_match(&a.addr, json!({"first_player": 0})).await;
        let (mut p0, p1) = started(&a.addr, &m).await;
        let s = p0.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
        Some(DuelOnA { db, a, b, m, p0, p1, s })
    }
}

/// Seat 0's next action, sent to A while A is paused.
fn held() -> Value {
    json!({"type": "act", "id": 99, "action": {"type": "summon", "alpha": 1, "hex": [-4, 5]}})
}

/// What a fenced A answers seat 0 once it wakes: an error, never an ack,
/// with the code that sends the client to the node that took over.
async fn answered_elsewhere(p0: &mut Client) -> Value {
    let answer = p0.until(|v| v["type"] == "error" || v["type"] == "ack").await;
    assert_eq!(answer["type"], "error", "a fenced node acknowledges nothing: {answer}");
    assert_eq!(answer["code"], "room_elsewhere", "{answer}");
    answer
}

#[tokio::test]
async fn a_paused_owner_is_fenced_when_it_wakes_and_the_log_keeps_one_history() {
    let Some(DuelOnA { db, a, b, m, mut p0, p1, s }) = DuelOnA::start("fence").await else { return };

    // A stops (a long GC pause, a frozen VM) with seat 0's next action
    // waiting in its socket, and stays stopped past its lease.
    signal(&a, "-STOP");
    p0.send(held()).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;

    // Seat 1 comes back through B: B takes the room over at the same seq.
    drop(p1);
    let q1 = Client::player(&b.addr, &m.tokens[1], Some(s)).await;
    assert_eq!(q1.seq, s, "B resumes where A stored");

    // A wakes: the action it was holding is not stored, seat 0 is told.
    signal(&a, "-CONT");
    answered_elsewhere(&mut p0).await;

    // Seat 0 goes on through B; the game has one history.
    let mut q0 = Client::player(&b.addr, &m.tokens[0], Some(s)).await;
    assert_eq!(q0.seq, s);
    let s2 = q0.ok(json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    assert_eq!(s2, s + 1, "the action A held was never written");
    let (_, metrics_a) = support::http_text(&a.addr, "GET", "/metrics", None).await;
    let (_, metrics_b) = support::http_text(&b.addr, "GET", "/metrics", None).await;
    assert!(metrics_a.contains("athlas_leases_lost_total 1"), "{metrics_a}");
    assert!(metrics_b.contains("athlas_leases_claimed_total 1"), "{metrics_b}");
    let report = db.audit_all();
    assert!(report.contains(&format!("{} duel      ok        {} records", m.id, s2)), "{report}");
}

/// The same pause landing inside a write: A's group commit holds the lease
/// row when A stops, Postgres ends that idle transaction (and its
/// connection) so B can take over, and A wakes to a write that fails for
/// a dead connection before its fence is checked. Seat 0 must still hear
/// `room_elsewhere`, not `internal`: A asks who holds the lease now.
#[tokio::test]
async fn an_owner_paused_inside_its_write_still_says_room_elsewhere() {
    let Some(DuelOnA { db, a, b, m, mut p0, p1, s }) = DuelOnA::start("fence_mid_write").await else { return };

    // Hold the match's row for 2 s: A's next write takes the lease row,
    // then waits here, inside its transaction.
    let Db::Postgres(url) = &db else { unreachable!() };
    let mut lock = Command::new("psql")
        .args([url.as_str(), "-q", "-c"])
        .arg(format!("BEGIN; SELECT 1 FROM matches WHERE id = '{}' FOR UPDATE; SELECT pg_sleep(2); COMMIT;", m.id))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    p0.send(held()).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    signal(&a, "-STOP");

    // The lock goes; A's transaction sits idle until Postgres ends it
    // (5 s), and B's takeover waits for that.
    drop(p1);
    let q1 = Client::player(&b.addr, &m.tokens[1], Some(s)).await;
    assert_eq!(q1.seq, s, "B resumes where A stored");
    assert!(lock.wait().unwrap().success());

    signal(&a, "-CONT");
    let answer = answered_elsewhere(&mut p0).await;
    assert_eq!(answer["id"], 99, "{answer}");

    let mut q0 = Client::player(&b.addr, &m.tokens[0], Some(s)).await;
    let s2 = q0.ok(json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    assert_eq!(s2, s + 1, "the action A held was never written");
    db.audit_all();
}

/// Any node accepts any client: one that does not play the match says
/// which node does (`at`), and the player's hello there is welcomed.
#[tokio::test]
async fn a_node_that_does_not_play_the_match_says_which_node_does() {
    let Some(DuelOnA { a, b, m, s, p0: _p0, p1: _p1, .. }) = DuelOnA::start("redirect").await else { return };

    for first in
        [json!({"type": "hello", "token": m.tokens[1], "last_seq": s}), json!({"type": "watch", "match_id": m.id})]
    {
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

/// A socket that names its match (`/ws?match=ID`, as the web client and
/// `athlas` open theirs) and reaches a node that does not play it is
/// relayed to the node that does, one hop: a browser that a front sent to
/// the wrong node (one that came back after a crash, say) still plays.
#[tokio::test]
async fn a_socket_naming_its_match_is_relayed_to_the_node_that_plays_it() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let Some(DuelOnA { a, b, m, s, mut p0, p1, .. }) = DuelOnA::start("relay").await else { return };
    drop(p1);
    async fn next(ws: &mut Ws) -> Value {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap().unwrap().unwrap();
            if let Message::Text(t) = frame {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }
    let url = format!("ws://{}/ws?match={}", b.addr, m.id);
    let (mut seat1, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    seat1.send(Message::text(json!({"type": "hello", "token": m.tokens[1], "last_seq": s}).to_string())).await.unwrap();
    let welcome = next(&mut seat1).await;
    assert_eq!((welcome["type"].as_str(), welcome["seq"].as_u64()), (Some("welcome"), Some(s)), "{welcome}");
    let (mut watcher, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    watcher.send(Message::text(json!({"type": "watch", "match_id": m.id}).to_string())).await.unwrap();
    assert_eq!(next(&mut watcher).await["type"], "welcome");
    // A plays on; what it sends reaches the relayed sockets.
    let s2 = p0.ok(json!({"type": "summon", "alpha": 1, "hex": [-4, 5]})).await;
    for ws in [&mut seat1, &mut watcher] {
        let update = loop {
            let v = next(ws).await;
            if v["type"] == "update" {
                break v;
            }
        };
        assert_eq!(update["seq"].as_u64(), Some(s2), "{update}");
    }
    let metrics = support::http_text(&b.addr, "GET", "/metrics", None).await.1;
    assert!(metrics.contains("athlas_relays_total 2"), "{metrics}");
    // B never loaded the room: A still plays it.
    let rooms = support::http_text(&a.addr, "GET", "/metrics", None).await.1;
    assert!(rooms.contains("athlas_rooms 1"), "{rooms}");
}

/// When the node holding the lease cannot be reached at its
/// `--public-url` (an address only players can reach), the socket is
/// served where it arrived, as before the relay: its `hello` is answered
/// `room_elsewhere` with that address.
#[tokio::test]
async fn a_socket_whose_holder_cannot_be_reached_is_told_where_it_is() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let Some(db) = Db::postgres("relay_unreachable").await else { return };
    let elsewhere = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let public = format!("ws://{elsewhere}/ws");
    let mut cmd = db.command();
    cmd.args(["--cluster", "--node-id", "node-a", "--lease-ms", "1500", "--lease-renew-ms", "300"]);
    cmd.args(["--public-url", &public]);
    let a = spawn(cmd);
    let b = node(&db, "node-b");
    let m = new_match(&a.addr, json!({"first_player": 0})).await;
    let (_p0, _p1) = started(&a.addr, &m).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws?match={}", b.addr, m.id)).await.unwrap();
    ws.send(Message::text(json!({"type": "hello", "token": m.tokens[1]}).to_string())).await.unwrap();
    let frame = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap().unwrap().unwrap();
    let e: Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
    assert_eq!((e["code"].as_str(), e["at"].as_str()), (Some("room_elsewhere"), Some(public.as_str())), "{e}");
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

/// A seat that keeps itself connected to the cluster: it says hello to its
/// node, follows `room_elsewhere`'s `at`, and when its node is gone tries
/// the next one (as a front would) until a node welcomes it, resuming
/// after the last seq it saw. Every connection's updates must follow its
/// welcome without a gap.
struct Seat {
    token: String,
    /// Named in the socket's URL (`/ws?match=ID`) as the clients do, for a front.
    match_id: Option<String>,
    /// The nodes' addresses (shared: a restarted node comes back on a new port).
    nodes: Nodes,
    node: usize,
    ws: Option<Ws>,
    last: Option<u64>,
    next_id: u64,
    reconnects: u32,
}

type Nodes = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

enum Next {
    Go(String),
    Retry,
}

impl Seat {
    fn new(token: &str, nodes: &Nodes, node: usize) -> Seat {
        Seat {
            token: token.to_owned(),
            match_id: None,
            nodes: nodes.clone(),
            node,
            ws: None,
            last: None,
            next_id: 1,
            reconnects: 0,
        }
    }

    async fn hello(&self) -> Result<(Ws, u64), Next> {
        use futures_util::{SinkExt, StreamExt};
        let mut url = format!("ws://{}/ws", self.nodes.lock().unwrap()[self.node]);
        if let Some(id) = &self.match_id {
            url = format!("{url}?match={id}");
        }
        let Ok(Ok((mut ws, _))) =
            tokio::time::timeout(Duration::from_secs(3), tokio_tungstenite::connect_async(&url)).await
        else {
            return Err(Next::Retry);
        };
        let mut hello = json!({"type": "hello", "token": self.token});
        if let Some(s) = self.last {
            hello["last_seq"] = json!(s);
        }
        if ws.send(tokio_tungstenite::tungstenite::Message::text(hello.to_string())).await.is_err() {
            return Err(Next::Retry);
        }
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(m))) => {
                let v: serde_json::Value = serde_json::from_str(m.to_text().unwrap_or("{}")).unwrap_or_default();
                match v["type"].as_str() {
                    Some("welcome") => Ok((ws, v["seq"].as_u64().unwrap())),
                    Some("error") if v["code"] == "room_elsewhere" => match v["at"].as_str() {
                        Some(at) => Err(Next::Go(at.trim_start_matches("ws://").trim_end_matches("/ws").to_owned())),
                        None => Err(Next::Retry),
                    },
                    _ => Err(Next::Retry),
                }
            }
            _ => Err(Next::Retry),
        }
    }

    async fn connect(&mut self) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
        while self.ws.is_none() {
            assert!(tokio::time::Instant::now() < deadline, "no node welcomed the seat");
            match self.hello().await {
                Ok((ws, seq)) => {
                    if let Some(last) = self.last {
                        assert_eq!(seq, last, "the welcome resumes where the seat was");
                    }
                    self.last = Some(seq);
                    self.ws = Some(ws);
                }
                Err(Next::Go(addr)) => {
                    // A node that just stopped may still be named: then try the next.
                    let nodes = self.nodes.lock().unwrap();
                    self.node = nodes.iter().position(|n| *n == addr).unwrap_or((self.node + 1) % nodes.len());
                }
                Err(Next::Retry) => {
                    self.node = (self.node + 1) % self.nodes.lock().unwrap().len();
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
            self.reconnects += 1;
        }
    }

    /// Read frames until `want` answers (an ack or error with that id);
    /// `None` when the connection went away first.
    async fn read_until(&mut self, want: u64) -> Option<serde_json::Value> {
        use futures_util::StreamExt;
        loop {
            let ws = self.ws.as_mut()?;
            let frame = match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
                Ok(Some(Ok(m))) if m.is_text() => m,
                Ok(Some(Ok(m))) if !m.is_close() => continue,
                _ => {
                    self.ws = None;
                    return None;
                }
            };
            let v: serde_json::Value = serde_json::from_str(frame.to_text().unwrap()).unwrap();
            match v["type"].as_str() {
                Some("update") => {
                    let seq = v["seq"].as_u64().unwrap();
                    assert_eq!(Some(seq), self.last.map(|l| l + 1), "updates follow without a gap");
                    self.last = Some(seq);
                }
                Some("ack") | Some("error") if v["id"] == json!(want) => return Some(v),
                Some("error") => {
                    // room_elsewhere, lagged: this connection ends here.
                    self.ws = None;
                    return None;
                }
                _ => {}
            }
        }
    }

    /// Send `action`, the match's record `seq` when stored, until it is
    /// stored exactly once: after a lost connection the stored seq (any
    /// node reads the store) says whether it was applied before.
    async fn act(&mut self, match_id: &str, seq: u64, action: serde_json::Value) {
        use futures_util::SinkExt;
        loop {
            self.connect().await;
            if stored_seq(&self.nodes, match_id).await >= seq {
                return; // stored before the connection was lost; not sent again
            }
            let id = self.next_id;
            self.next_id += 1;
            let frame = json!({"type": "act", "id": id, "action": action}).to_string();
            let sent = self.ws.as_mut().unwrap().send(tokio_tungstenite::tungstenite::Message::text(frame)).await;
            if sent.is_err() {
                self.ws = None;
                continue;
            }
            match self.read_until(id).await {
                Some(v) if v["type"] == "ack" => {
                    assert_eq!(v["seq"], json!(seq), "{action}");
                    return;
                }
                Some(v) if v["code"] == "room_elsewhere" => self.ws = None,
                Some(v) => panic!("{action} refused: {v}"),
                None => {}
            }
        }
    }
}

/// A duel's first five records: both creations, seat 0 summons and ends
/// its turn, seat 1 summons.
async fn opening(s0: &mut Seat, s1: &mut Seat, match_id: &str) {
    s0.act(match_id, 1, support::seat0_creation()).await;
    s1.act(match_id, 2, support::seat1_creation()).await;
    s0.act(match_id, 3, json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    s0.act(match_id, 4, json!({"type": "end_turn"})).await;
    s1.act(match_id, 5, json!({"type": "summon", "alpha": 0, "hex": [0, -5]})).await;
}

/// The match's stored seq, from the first node that answers (nodes stop
/// and start under these tests; any of them reads the shared store).
async fn stored_seq(nodes: &Nodes, match_id: &str) -> u64 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    for _ in 0..100 {
        let all = nodes.lock().unwrap().clone();
        for addr in all {
            let Ok(mut s) = tokio::net::TcpStream::connect(&addr).await else { continue };
            let req = format!("GET /api/matches/{match_id} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            if s.write_all(req.as_bytes()).await.is_err() {
                continue;
            }
            let mut raw = String::new();
            if s.read_to_string(&mut raw).await.is_err() || !raw.starts_with("HTTP/1.1 200") {
                continue;
            }
            let body = raw.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(body) {
                return v["seq"].as_u64().unwrap();
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no node answered");
}

/// Three nodes, 30 duels whose two seats say hello to different nodes
/// (each match is played by the node its first seat reached); the node
/// playing the most rooms is killed (SIGKILL) mid-game; every game
/// finishes on the other two, with no acknowledged action lost or applied
/// twice, every connection's updates gap-free, and one history per match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_duels_finish_when_the_busiest_node_is_killed() {
    let Some(db) = Db::postgres("nodeloss").await else { return };
    let mut servers: Vec<Option<Server>> = ["node-a", "node-b", "node-c"].iter().map(|n| Some(node(&db, n))).collect();
    let nodes: Vec<String> = servers.iter().map(|s| s.as_ref().unwrap().addr.clone()).collect();
    const DUELS: usize = 30;
    let half = std::sync::Arc::new(tokio::sync::Barrier::new(DUELS + 1));
    let resume = std::sync::Arc::new(tokio::sync::Barrier::new(DUELS + 1));
    let alive = std::sync::Arc::new(std::sync::Mutex::new(nodes.clone()));
    let mut games = Vec::new();
    for i in 0..DUELS {
        let (nodes, half, resume) = (nodes.clone(), half.clone(), resume.clone());
        games.push(tokio::spawn(async move {
            let m = new_match(&nodes[i % 3], json!({"first_player": 0})).await;
            let nodes: Nodes = std::sync::Arc::new(std::sync::Mutex::new(nodes));
            let (mut s0, mut s1) =
                (Seat::new(&m.tokens[0], &nodes, i % 3), Seat::new(&m.tokens[1], &nodes, (i + 1) % 3));
            opening(&mut s0, &mut s1, &m.id).await;
            half.wait().await;
            resume.wait().await;
            s1.act(&m.id, 6, json!({"type": "end_turn"})).await;
            s0.act(&m.id, 7, json!({"type": "resign"})).await;
            (m.id, s0.reconnects + s1.reconnects)
        }));
    }
    half.wait().await;
    // Every room is played by the node its first seat reached: a third each.
    let lease_holders = {
        let out = Command::new("psql")
            .args([
                &db_url(&db),
                "-Atc",
                "SELECT node_id, count(*) FROM leases WHERE expires_at > now() GROUP BY node_id ORDER BY 2 DESC, 1",
            ])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let busiest = lease_holders.lines().next().expect("live leases").split('|').next().unwrap().to_owned();
    let victim = ["node-a", "node-b", "node-c"].iter().position(|n| *n == busiest).unwrap();
    let mut dead = servers[victim].take().unwrap();
    dead.child.kill().unwrap();
    dead.child.wait().unwrap();
    alive.lock().unwrap().retain(|n| *n != nodes[victim]);
    resume.wait().await;
    let (mut ids, mut attempts) = (Vec::new(), 0);
    for g in games {
        let (id, n) = g.await.unwrap();
        ids.push(id);
        attempts += n;
    }
    // Seats that followed a redirect or lost their node said hello again.
    assert!(attempts > 2 * DUELS as u32 + 10, "the killed node's seats found another: {attempts} hellos");
    let any = alive.lock().unwrap()[0].clone();
    for id in &ids {
        let (_, m) = support::http(&any, "GET", &format!("/api/matches/{id}"), None).await;
        assert_eq!(m["status"], "finished", "{m}");
        assert_eq!(m["seq"], 7, "every action stored exactly once: {m}");
    }
    let report = db.audit_all();
    assert!(report.contains(&format!("{DUELS} matches audited: {DUELS} ok ({} records)", DUELS * 7)), "{report}");
    eprintln!(
        "killed {busiest} (leases: {}); {attempts} hellos for {} seats",
        lease_holders.replace('\n', ", "),
        2 * DUELS
    );
}

fn db_url(db: &Db) -> String {
    match db {
        Db::Postgres(url) => url.clone(),
        Db::Sqlite(_) => unreachable!("a cluster runs on Postgres"),
    }
}

/// A rolling restart under load: 30 duels play turn after turn over three
/// nodes while each node in turn is stopped gracefully (SIGTERM: its rooms
/// give their leases back) and started again on a new port. No client sees
/// an error beyond its connection ending; every game finishes with every
/// action stored exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_every_node_under_load_loses_nothing() {
    let Some(db) = Db::postgres("rolling").await else { return };
    let names = ["node-a", "node-b", "node-c"];
    let mut servers: Vec<Server> = names.iter().map(|n| node(&db, n)).collect();
    let nodes: Nodes = std::sync::Arc::new(std::sync::Mutex::new(servers.iter().map(|s| s.addr.clone()).collect()));
    const DUELS: usize = 30;
    const TURNS: u64 = 40;
    let mut games = Vec::new();
    for i in 0..DUELS {
        let nodes = nodes.clone();
        games.push(tokio::spawn(async move {
            let first = nodes.lock().unwrap()[i % 3].clone();
            let m = new_match(&first, json!({"first_player": 0})).await;
            let (mut s0, mut s1) =
                (Seat::new(&m.tokens[0], &nodes, i % 3), Seat::new(&m.tokens[1], &nodes, (i + 1) % 3));
            opening(&mut s0, &mut s1, &m.id).await;
            s1.act(&m.id, 6, json!({"type": "end_turn"})).await;
            for t in 0..TURNS {
                let seat = if t % 2 == 0 { &mut s0 } else { &mut s1 };
                seat.act(&m.id, 7 + t, json!({"type": "end_turn"})).await;
            }
            s0.act(&m.id, 7 + TURNS, json!({"type": "resign"})).await;
            (m.id, s0.reconnects + s1.reconnects)
        }));
    }
    // While they play: each node in turn stops gracefully and comes back.
    for (k, name) in names.iter().enumerate() {
        tokio::time::sleep(Duration::from_millis(700)).await;
        signal(&servers[k], "-TERM");
        let status = servers[k].child.wait().unwrap();
        assert!(status.success(), "{name} stops cleanly: {status}");
        servers[k] = node(&db, name);
        nodes.lock().unwrap()[k] = servers[k].addr.clone();
    }
    let mut attempts = 0;
    let mut ids = Vec::new();
    for g in games {
        let (id, n) = g.await.unwrap();
        ids.push(id);
        attempts += n;
    }
    let any = nodes.lock().unwrap()[0].clone();
    for id in &ids {
        let (_, m) = support::http(&any, "GET", &format!("/api/matches/{id}"), None).await;
        assert_eq!(m["status"], "finished", "{m}");
        assert_eq!(m["seq"], json!(7 + TURNS), "every action stored exactly once: {m}");
    }
    let report = db.audit_all();
    assert!(report.contains(&format!("{DUELS} matches audited: {DUELS} ok")), "{report}");
    eprintln!("rolling restart: {attempts} hellos for {} seats, {} actions", 2 * DUELS, DUELS as u64 * (7 + TURNS));
}

/// A process the test started, stopped when dropped.
struct Proc(std::process::Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// nginx and dnsmasq from Debian (`nginx-light`, `dnsmasq-base`), or
/// `None` when this machine lacks them: outside CI the front test then says
/// so and passes; in CI (`CI` set, as `.ci/run` does, which installs them)
/// it fails.
fn front_tools() -> Option<(String, String)> {
    let find = |name: &str| {
        ["/usr/sbin/", "/usr/bin/", ""]
            .iter()
            .map(|dir| format!("{dir}{name}"))
            .find(|bin| Command::new(bin).arg("-v").output().is_ok_and(|o| o.status.success()))
    };
    match (find("nginx"), find("dnsmasq")) {
        (Some(nginx), Some(dnsmasq)) => Some((nginx, dnsmasq)),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "the front test needs nginx and dnsmasq (apt-get install nginx-light dnsmasq-base)"
            );
            eprintln!("no nginx or dnsmasq here: the front test did not run");
            None
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `name`'s addresses for dnsmasq, one line each (several: the name
/// stands for all of them, as a compose network alias does).
fn write_hosts(path: &std::path::Path, name: &str, addrs: &[String]) {
    let lines: String = addrs.iter().map(|a| format!("{a} {name}\n")).collect();
    std::fs::write(path, lines).unwrap();
}

/// The production front, deploy/front.nginx.conf, before three nodes found
/// by name at request time (dnsmasq stands in for the compose network's
/// DNS, the nodes listen on 127.0.0.11-13 with one port, as containers
/// would). A dozen duels are played through the front; the busiest node is
/// killed (SIGKILL) and its address left in the DNS: every match is
/// playable again through the front within the lease plus a few seconds
/// (docs/CLUSTER.md gives the measured stall). The node then comes back on
/// a new address: once the DNS says so, sockets reach it again, and those
/// for matches the other nodes took over are relayed there (a returning
/// node never shuts players out); every match finishes with every action
/// stored once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_the_front_every_match_plays_on_when_a_node_dies_and_comes_back_elsewhere() {
    let Some(db) = Db::postgres("front").await else { return };
    let Some((nginx, dnsmasq)) = front_tools() else { return };
    const LEASE_MS: u64 = 3000;
    const DUELS: usize = 12;
    let dir = std::env::temp_dir().join(format!("athlas-front-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    // The DNS: `athlas-node` is every node's address.
    let (node_port, dns_port, front_port) = (free_port(), free_port(), free_port());
    let hosts = dir.join("hosts");
    let mut addrs: Vec<String> = (11..=13).map(|i| format!("127.0.0.{i}")).collect();
    write_hosts(&hosts, "athlas-node", &addrs);
    let dns = Proc(
        Command::new(&dnsmasq)
            .args(["--keep-in-foreground", "--conf-file=/dev/null", "--no-resolv", "--no-hosts", "--bind-interfaces"])
            .args(["--listen-address=127.0.0.1", "--user=root", "--pid-file", "--log-facility=-"])
            .arg(format!("--port={dns_port}"))
            .arg(format!("--addn-hosts={}", hosts.display()))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start dnsmasq"),
    );

    // The front: the repository's file, with this machine's addresses.
    let mut conf = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/front.nginx.conf")).unwrap();
    for (from, to) in [
        ("resolver 127.0.0.11 ", format!("resolver 127.0.0.1:{dns_port} ")),
        ("listen 8080;", format!("listen 127.0.0.1:{front_port};")),
        ("athlas-node:8080;", format!("athlas-node:{node_port};")),
        ("http {\n", format!("http {{\n  access_log {}/access.log;\n", dir.display())),
        // Every seat of the test comes from one address.
        ("rate=60r/m;", "rate=60000r/m;".into()),
        ("burst=60 ", "burst=60000 ".into()),
    ] {
        assert_eq!(conf.matches(from).count(), 1, "deploy/front.nginx.conf has `{from}` once");
        conf = conf.replace(from, &to);
    }
    std::fs::write(dir.join("nginx.conf"), conf).unwrap();
    let _front = Proc(
        Command::new(&nginx)
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .arg("-g")
            // One process, so that stopping it leaves no worker behind.
            .arg(format!(
                "daemon off; master_process off; pid {0}/nginx.pid; error_log {0}/error.log info;",
                dir.display()
            ))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start nginx"),
    );
    let front = format!("127.0.0.1:{front_port}");
    for _ in 0..100 {
        if std::net::TcpStream::connect(&front).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }

    let names = ["node-a", "node-b", "node-c"];
    let start = |name: &str, addr: &str| {
        let mut cmd = db.command_on(&format!("{addr}:{node_port}"));
        cmd.args(["--cluster", "--node-id", name, "--lease-ms", &LEASE_MS.to_string(), "--lease-renew-ms", "1000"])
            .args(["--public-url", &format!("ws://{front}/ws"), "--peer-url", &format!("ws://{addr}:{node_port}/ws")])
            .env("ATHLAS_MAX_CONNECTIONS_PER_IP", "0");
        spawn(cmd)
    };
    let mut servers: Vec<Server> = names.iter().zip(&addrs).map(|(n, a)| start(n, a)).collect();

    // A dozen duels, every socket and request through the front.
    let through: Nodes = std::sync::Arc::new(std::sync::Mutex::new(vec![front.clone()]));
    let mut games = Vec::new();
    for _ in 0..DUELS {
        let (front, through) = (front.clone(), through.clone());
        games.push(tokio::spawn(async move {
            let m = new_match(&front, json!({"first_player": 0})).await;
            let (mut s0, mut s1) = (Seat::new(&m.tokens[0], &through, 0), Seat::new(&m.tokens[1], &through, 0));
            s0.match_id = Some(m.id.clone());
            s1.match_id = Some(m.id.clone());
            opening(&mut s0, &mut s1, &m.id).await;
            (m.id, s0, s1)
        }));
    }
    let mut duels = Vec::new();
    for g in games {
        duels.push(g.await.unwrap());
    }

    // The busiest node dies; its address stays in the DNS.
    let leases = |node: &str| -> Vec<String> {
        let out = Command::new("psql")
            .args([
                &db_url(&db),
                "-Atc",
                &format!("SELECT match_id FROM leases WHERE node_id = '{node}' AND expires_at > now()"),
            ])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).lines().map(str::to_owned).collect()
    };
    let held: Vec<Vec<String>> = names.iter().map(|n| leases(n)).collect();
    let victim = (0..3).max_by_key(|&k| held[k].len()).unwrap();
    assert!(held.iter().filter(|h| !h.is_empty()).count() >= 2, "the front spread the rooms: {held:?}");
    servers[victim].child.kill().unwrap();
    servers[victim].child.wait().unwrap();
    let killed = std::time::Instant::now();

    // Every match plays on: seat 1 ends its turn, through the front.
    let mut after = Vec::new();
    for (id, s0, mut s1) in duels {
        after.push(tokio::spawn(async move {
            s1.act(&id, 6, json!({"type": "end_turn"})).await;
            (id, s0, s1, killed.elapsed())
        }));
    }
    let mut duels = Vec::new();
    let mut stalls = Vec::new();
    for a in after {
        let (id, s0, s1, stall) = a.await.unwrap();
        if held[victim].contains(&id) {
            stalls.push(stall);
        }
        duels.push((id, s0, s1));
    }
    let worst = stalls.iter().max().copied().unwrap_or_default();
    assert!(
        worst < Duration::from_millis(LEASE_MS + 5000),
        "a match of the dead node came back within the lease and a few seconds: {stalls:?}"
    );

    // It comes back on a new address; the DNS gives that one instead.
    addrs[victim] = format!("127.0.0.{}", 21 + victim);
    write_hosts(&hosts, "athlas-node", &addrs);
    assert!(Command::new("kill").args(["-HUP", &dns.0.id().to_string()]).status().unwrap().success());
    servers[victim] = start(names[victim], &addrs[victim]);
    // nginx keeps an answer `valid=2s`.
    tokio::time::sleep(Duration::from_millis(2500)).await;

    // Every match to its end, a new socket for every action: sockets the
    // front gives the returned node are relayed to the matches' holders.
    let returned = std::time::Instant::now();
    let mut ends = Vec::new();
    for (id, mut s0, mut s1) in duels {
        ends.push(tokio::spawn(async move {
            for (k, seq) in (7..=10).enumerate() {
                let seat = if k % 2 == 0 { &mut s0 } else { &mut s1 };
                seat.ws = None;
                let action = if seq == 10 { json!({"type": "resign"}) } else { json!({"type": "end_turn"}) };
                seat.act(&id, seq, action).await;
            }
            id
        }));
    }
    let mut ids = Vec::new();
    for e in ends {
        ids.push(e.await.unwrap());
    }
    let since_return = returned.elapsed();
    let relays = |addr: String| async move {
        let (_, metrics) = support::http_text(&addr, "GET", "/metrics", None).await;
        let relayed: u64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix("athlas_relays_total "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        (relayed, metrics)
    };
    let (mut relayed, mut metrics) = relays(servers[victim].addr.clone()).await;
    // On a busy machine nginx may give the returned node no socket of the
    // forty above (it re-resolves the name and takes a node back on its
    // own clock): more sockets naming a match, until one lands there.
    let patience = std::time::Instant::now() + Duration::from_secs(20);
    while relayed == 0 && std::time::Instant::now() < patience {
        let url = format!("ws://{front}/ws?match={}", ids[0]);
        if let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&url).await {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let _ = ws.close(None).await;
        }
        (relayed, metrics) = relays(servers[victim].addr.clone()).await;
    }
    assert!(relayed > 0, "the returned node took sockets and relayed them to the matches' holders:\n{metrics}");
    for id in &ids {
        let (_, m) = support::http(&front, "GET", &format!("/api/matches/{id}"), None).await;
        assert_eq!(m["status"], "finished", "{m}");
        assert_eq!(m["seq"], 10, "every action stored exactly once: {m}");
    }
    let report = db.audit_all();
    assert!(report.contains(&format!("{DUELS} matches audited: {DUELS} ok")), "{report}");
    eprintln!(
        "front: killed {} holding {} of {DUELS} rooms (lease {LEASE_MS} ms); their stalls {:?}, worst {worst:?}; \
         after its return on a new address: {} sockets relayed by it, the last {} actions in {since_return:?}",
        names[victim],
        stalls.len(),
        stalls.iter().map(|d| d.as_millis()).collect::<Vec<_>>(),
        relayed,
        DUELS * 4
    );
    drop(dns);
    let _ = std::fs::remove_dir_all(&dir);
}
