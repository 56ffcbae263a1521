//! Operations: the server as `docker compose up` runs it, health and
//! metrics, graceful shutdown, settings and logs. No Docker engine runs on CI
//! machines, so the compose file's environment is given to the binary here
//! directly (the binary Cargo built for the tests, or the one
//! `ATHLAS_SERVER_BIN` names).

#[path = "support/mod.rs"]
mod support;

use std::process::{Command, Stdio};

use futures_util::StreamExt;
use serde_json::{json, Value};
use support::*;
use tokio_tungstenite::tungstenite::Message;

/// The `athlas` service's environment in docker-compose.yml, with
/// `${VAR:-default}` resolved as Compose does.
fn compose_environment() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docker-compose.yml")).unwrap();
    let mut env = Vec::new();
    let (mut in_athlas, mut in_env) = (false, false);
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        match indent {
            0 => in_athlas = false,
            2 => {
                in_athlas = t == "athlas:";
                in_env = false;
            }
            4 if in_athlas => in_env = t == "environment:",
            6 if in_env => {
                let (k, v) = t.split_once(':').expect("KEY: value");
                env.push((k.trim().to_owned(), resolve(v.trim().trim_matches('"'))));
            }
            _ => {}
        }
    }
    assert!(env.iter().any(|(k, _)| k == "DATABASE_URL"), "the compose file gives athlas a DATABASE_URL");
    env
}

fn resolve(v: &str) -> String {
    let mut out = String::new();
    let mut rest = v;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('}').expect("closing brace") + i;
        let inner = &rest[i + 2..end];
        let (name, default) = inner.split_once(":-").unwrap_or((inner, ""));
        out.push_str(&std::env::var(name).unwrap_or_else(|_| default.to_owned()));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Metric value of the series `line_prefix` (name with labels), 0 if absent.
fn metric(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|v| v.strip_prefix(' ')))
        .map_or(0.0, |v| v.trim().parse().unwrap())
}

async fn scrape(addr: &str) -> String {
    let (status, body) = http_text(addr, "GET", "/metrics", None).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Play the quick win of the e2e tests; returns the last seq, which is the
/// number of acknowledged actions (seq counts them from 1).
async fn quick_win(addr: &str) -> u64 {
    let m = new_match(addr, json!({"board": quick_board(), "first_player": 0})).await;
    let (mut a, mut b) = started(addr, &m).await;
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    let s = a.ok(json!({"type": "end_turn"})).await;
    b.catch_up(s).await;
    let s = b.ok(json!({"type": "end_turn"})).await;
    a.catch_up(s).await;
    let u = a.unit_at([-5, 5]).unwrap();
    a.ok(json!({"type": "activate", "unit": u})).await;
    let last = a.ok(json!({"type": "move", "to": [-4, 4]})).await;
    assert_eq!(a.view["phase"]["outcome"], json!({"result": "win", "seat": 0}));
    last
}

#[tokio::test]
async fn the_compose_environment_serves_readyz_metrics_and_a_duel_on_postgres() {
    let db = format!("athlas_ops_compose_{}", std::process::id());
    let ok = psql(&[
        "DO $$ BEGIN CREATE ROLE athlas LOGIN PASSWORD 'athlas'; EXCEPTION WHEN duplicate_object THEN NULL; END $$",
        &format!("DROP DATABASE IF EXISTS {db}"),
        &format!("CREATE DATABASE {db} OWNER athlas"),
    ]);
    if !ok {
        return;
    }
    let mut cmd = Command::new(server_bin());
    cmd.env_clear();
    for (k, v) in compose_environment() {
        // Compose's service names and published port, as seen from this machine.
        let v = match k.as_str() {
            "DATABASE_URL" => v.replace("@postgres:5432/athlas", &format!("@127.0.0.1:5432/{db}")),
            "ATHLAS_LISTEN" => "127.0.0.1:0".to_owned(),
            _ => v,
        };
        cmd.env(k, v);
    }
    let server = spawn(cmd);
    let (status, ready) = http(&server.addr, "GET", "/readyz", None).await;
    assert_eq!((status, ready["store"].as_str()), (200, Some("postgres")), "{ready}");
    assert_eq!(http_text(&server.addr, "GET", "/healthz", None).await.0, 200);
    // The container healthcheck: the binary probes its own /readyz.
    let probe = Command::new(server_bin())
        .arg("--healthcheck")
        .env_clear()
        .env("ATHLAS_LISTEN", &server.addr)
        .status()
        .unwrap();
    assert!(probe.success());
    let acks = quick_win(&server.addr).await;
    let text = scrape(&server.addr).await;
    assert_eq!(metric(&text, "athlas_matches{game=\"duel\",status=\"finished\"}"), 1.0, "{text}");
    assert_eq!(metric(&text, "athlas_actions_accepted_total"), acks as f64, "{text}");
    // JSON logs, one object per line, with the match in the span fields.
    // At `info` (the compose level) only lifecycle events: no line per action.
    let finished = wait_for_log(&server, |l| l["fields"]["message"] == "match finished");
    assert!(finished["span"]["match_id"].is_string(), "{finished}");
    let logs = server.logs.lock().unwrap().clone();
    let lines: Vec<Value> = logs.iter().map(|l| serde_json::from_str(l).expect("JSON log lines")).collect();
    for event in ["listening", "match created", "seat taken", "room loaded", "joined"] {
        assert!(lines.iter().any(|l| l["fields"]["message"] == event), "no {event:?} in {logs:?}");
    }
    assert!(!logs.iter().any(|l| l.contains("action accepted")), "a line per action at info: {logs:?}");
    drop(server);
    psql(&[&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")]);
}

/// Each room logs under its own `room` span only: a room is loaded by
/// whichever seat connects first, and the other seat's actions must not be
/// logged under that first connection.
#[tokio::test]
async fn room_and_connection_log_lines_carry_their_own_spans_only() {
    let db = Db::sqlite("spans");
    let mut cmd = db.command();
    cmd.env("ATHLAS_LOG_FORMAT", "json").env("ATHLAS_LOG_LEVEL", "debug");
    let server = spawn(cmd);
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    // Seat 0 connects first: its connection loads the room.
    let (_a, _b) = started(&server.addr, &m).await;
    let joined = |seat: u64| {
        wait_for_log(&server, |l| l["fields"]["message"] == "joined" && l["span"]["seat"] == seat)["span"].clone()
    };
    let (conn0, conn1) = (joined(0), joined(1));
    assert_eq!((conn0["name"].as_str(), conn1["name"].as_str()), (Some("conn"), Some("conn")));
    assert_ne!(conn0["id"], conn1["id"]);
    let accepted = wait_for_log(&server, |l| l["fields"]["message"] == "action accepted" && l["fields"]["seat"] == 1);
    assert_eq!(accepted["span"]["name"], "room", "{accepted}");
    assert_eq!(accepted["span"]["match_id"].as_str(), Some(m.id.as_str()), "{accepted}");
    assert_eq!(accepted["spans"].as_array().map(Vec::len), Some(1), "the room span alone: {accepted}");
    // And a connection's lines carry its own span, not the room's.
    assert_eq!(
        wait_for_log(&server, |l| l["fields"]["message"] == "joined" && l["span"]["seat"] == 1)["spans"]
            .as_array()
            .map(|s| s.iter().map(|s| s["name"].clone()).collect::<Vec<_>>()),
        Some(vec![json!("conn")])
    );
}

/// A `DATABASE_URL` pointing at nothing: start-up gives up after
/// `--db-wait-secs` (1 s here), naming the host and port, instead of
/// waiting out the pool's 30 s time-out.
#[test]
fn an_unreachable_postgres_fails_start_up_naming_host_and_port() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let mut child = Command::new(server_bin())
        .env_clear()
        .env("DATABASE_URL", format!("postgres://athlas:secret-pw@{closed}/athlas"))
        .env("ATHLAS_LISTEN", "127.0.0.1:0")
        .env("ATHLAS_DB_WAIT_SECS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A bound on the exit only (the pool's time-out was 30 s), not a timing.
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > WAIT {
            let _ = child.kill();
            panic!("still starting after {WAIT:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("opening the store") && err.contains(&closed.to_string()), "{err}");
    assert!(err.contains("gave up after waiting 1 s (--db-wait-secs)"), "{err}");
    assert!(!err.contains("secret-pw"), "the password is not printed: {err}");
}

/// A data directory the server cannot create or write (here a path
/// through a file; in a container, a bind mount owned by another user):
/// start-up stops at once naming the path and the user it runs as.
#[test]
fn a_store_that_cannot_be_opened_names_its_path_and_the_user() {
    let file = std::env::temp_dir().join(format!("athlas-ops-not-a-dir-{}", std::process::id()));
    std::fs::write(&file, "").unwrap();
    let dir = file.join("data");
    let out = Command::new(server_bin())
        .env_clear()
        .env("ATHLAS_LISTEN", "127.0.0.1:0")
        .arg("--data-dir")
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let uid = String::from_utf8(Command::new("id").arg("-u").output().unwrap().stdout).unwrap();
    assert!(err.contains(&format!("cannot open the SQLite store {}", dir.display())), "{err}");
    assert!(err.contains(&format!("uid {}", uid.trim())), "{err}");
    let _ = std::fs::remove_file(&file);
}

/// Started before its Postgres accepts connections (as podman-compose and
/// other orchestrators that ignore `service_healthy` do): the server
/// answers at once, /readyz 503 while it waits, logs each attempt, and
/// serves once Postgres comes: here a port where nothing listens until the
/// server has tried twice, then a proxy to the local Postgres.
#[tokio::test]
async fn a_server_started_before_its_postgres_waits_for_it_then_serves() {
    use std::io::BufRead;
    let db = format!("athlas_ops_late_{}", std::process::id());
    if !psql(&[&format!("DROP DATABASE IF EXISTS {db}"), &format!("CREATE DATABASE {db}")]) {
        return;
    }
    let late = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let mut child = Command::new(server_bin())
        .env("DATABASE_URL", format!("postgres://postgres@{late}/{db}"))
        .env("ATHLAS_LISTEN", "127.0.0.1:0")
        .env("ATHLAS_LOG_FORMAT", "json")
        .env("ATHLAS_DB_WAIT_SECS", "600")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let logs = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let kept = logs.clone();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    let server = support::Server { child, addr: String::new(), logs };
    let waited = wait_for_log(&server, |l| l["fields"]["message"] == "waiting for the database");
    let addr = waited["fields"]["addr"].as_str().unwrap().to_owned();
    assert!(waited["fields"]["error"].as_str().unwrap().contains(&late.to_string()), "{waited}");
    let (status, body) = http(&addr, "GET", "/readyz", None).await;
    assert_eq!((status, body["code"].as_str()), (503, Some("not_ready")), "{body}");
    assert!(body["message"].as_str().unwrap().contains("waiting for the database"), "{body}");
    assert_eq!(http_text(&addr, "GET", "/healthz", None).await.0, 200);
    assert_eq!(http(&addr, "POST", "/api/matches", Some(json!({"game": "duel", "options": {}}))).await.0, 503);
    wait_for_log(&server, |l| l["fields"]["message"] == "waiting for the database" && l["fields"]["attempt"] == 2);
    // Postgres "comes up" at the address the server was given: a proxy on
    // a runtime of its own (this test's thread blocks in wait_for_log).
    let proxy = std::net::TcpListener::bind(late).unwrap();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            proxy.set_nonblocking(true).unwrap();
            let proxy = tokio::net::TcpListener::from_std(proxy).unwrap();
            while let Ok((mut client, _)) = proxy.accept().await {
                tokio::spawn(async move {
                    let mut pg = tokio::net::TcpStream::connect("127.0.0.1:5432").await.unwrap();
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut pg).await;
                });
            }
        });
    });
    let listening = wait_for_log(&server, |l| l["fields"]["message"] == "listening");
    assert_eq!(listening["fields"]["addr"].as_str(), Some(addr.as_str()));
    let (status, body) = http(&addr, "GET", "/readyz", None).await;
    assert_eq!((status, body["store"].as_str()), (200, Some("postgres")), "{body}");
    let (status, created) = http(&addr, "POST", "/api/matches", Some(json!({"game": "duel", "options": {}}))).await;
    assert_eq!(status, 201, "{created}");
    drop(server);
    psql(&[&format!("DROP DATABASE {db} WITH (FORCE)")]);
}

#[tokio::test]
async fn readyz_is_503_when_the_store_is_gone() {
    let db = format!("athlas_ops_gone_{}", std::process::id());
    if !psql(&[&format!("DROP DATABASE IF EXISTS {db}"), &format!("CREATE DATABASE {db}")]) {
        return;
    }
    let server = Db::Postgres(format!("postgres://postgres@127.0.0.1:5432/{db}")).start();
    assert_eq!(http_text(&server.addr, "GET", "/readyz", None).await.0, 200);
    psql(&[&format!("DROP DATABASE {db} WITH (FORCE)")]);
    let (status, body) = http(&server.addr, "GET", "/readyz", None).await;
    assert_eq!((status, body["code"].as_str()), (503, Some("not_ready")), "{body}");
    // Alive all the same.
    assert_eq!(http_text(&server.addr, "GET", "/healthz", None).await.0, 200);
}

/// SIGTERM mid-game: clients get a close with a reason, the process exits 0,
/// and after a restart the game resumes with every acknowledged action.
async fn sigterm_loses_nothing(db: Db) {
    let mut server = db.start();
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let (mut a, b) = started(&server.addr, &m).await;
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    // One more action in flight as the signal arrives.
    a.send(json!({"type": "act", "id": 900, "action": {"type": "summon", "alpha": 1, "hex": [-4, 5]}})).await;
    let kill = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    // Read a's frames to the close: an ack for the action in flight may come
    // first; then the reason; then the close frame.
    let mut acked = a.seq;
    let mut reason = None;
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(WAIT, a.ws.next()).await {
        match frame {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                match v["type"].as_str() {
                    Some("ack") => acked = acked.max(v["seq"].as_u64().unwrap()),
                    Some("error") if v["id"].is_null() => reason = v["code"].as_str().map(str::to_owned),
                    _ => {}
                }
            }
            Message::Close(_) => break,
            _ => {}
        }
    }
    assert_eq!(reason.as_deref(), Some("shutting_down"), "clients are told why");
    let status = server.child.wait().unwrap();
    assert!(status.success(), "exit 0 on SIGTERM, got {status}");
    let b_seen = b.seq;
    drop((a, b));
    let server = db.start();
    let units = if acked >= 4 { 2 } else { 1 };
    resume_and_play_on(&server.addr, &m, acked, b_seen, units).await;
}

#[tokio::test]
async fn sigterm_mid_game_loses_nothing_on_sqlite() {
    sigterm_loses_nothing(Db::sqlite("sigterm")).await;
}

#[tokio::test]
async fn sigterm_mid_game_loses_nothing_on_postgres() {
    if let Some(db) = Db::postgres("ops_term").await {
        sigterm_loses_nothing(db).await;
    }
}

#[tokio::test]
async fn metrics_count_accepted_and_rejected_actions_and_reconnects() {
    let server = Db::sqlite("metrics").start();
    let before = scrape(&server.addr).await;
    assert_eq!(metric(&before, "athlas_actions_accepted_total"), 0.0);
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    let r = b.act(json!({"type": "end_turn"})).await;
    assert_eq!(r["code"], "not_your_turn");
    let seq = a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    let text = scrape(&server.addr).await;
    assert_eq!(metric(&text, "athlas_actions_accepted_total"), 3.0, "two creations and a summon\n{text}");
    assert_eq!(metric(&text, "athlas_actions_rejected_total{code=\"not_your_turn\"}"), 1.0, "{text}");
    assert_eq!(metric(&text, "athlas_ack_latency_seconds_count"), 3.0, "{text}");
    assert!(metric(&text, "athlas_store_write_seconds_count") >= 1.0, "{text}");
    assert_eq!(metric(&text, "athlas_connections"), 2.0, "{text}");
    assert_eq!(metric(&text, "athlas_rooms"), 1.0, "{text}");
    assert_eq!(metric(&text, "athlas_matches{game=\"duel\",status=\"active\"}"), 1.0, "{text}");
    // A player who comes back with last_seq is a reconnect.
    drop(b);
    let _b = Client::player(&server.addr, &m.tokens[1], Some(seq)).await;
    let text = scrape(&server.addr).await;
    assert_eq!(metric(&text, "athlas_reconnects_total"), 1.0, "{text}");
}

#[tokio::test]
async fn tokens_salts_and_unrevealed_cards_are_never_logged() {
    let db = Db::sqlite("logs");
    let mut cmd = db.command();
    cmd.env("ATHLAS_LOG_LEVEL", "debug");
    let server = spawn(cmd);
    let m = new_match(&server.addr, json!({"first_player": 0})).await;
    let (mut a, mut b) = started(&server.addr, &m).await;
    a.ok(json!({"type": "summon", "alpha": 0, "hex": [-5, 5]})).await;
    let s = a.ok(json!({"type": "resign"})).await;
    b.catch_up(s).await;
    let mut salts = Vec::new();
    while salts.len() < 2 {
        let v = b.until(|m| m["type"] == "reveal").await;
        salts.push(v["salt"].as_str().unwrap().to_owned());
    }
    let logs = server.logs.lock().unwrap().join("\n");
    assert!(logs.contains("action accepted"), "debug logs were written");
    for secret in m.tokens.iter().chain(&salts) {
        assert!(!logs.contains(secret.as_str()), "a token or salt was logged");
    }
    for card in ["etynian_crossbow", "marksmanship", "watch_tower", "time_warp", "karoos_blade", "lightning_bolt"] {
        assert!(!logs.contains(card), "{card} was logged");
    }
}

/// Every setting `docs/OPERATIONS.md` documents, as flag and variable.
const SETTINGS: [(&str, &str); 19] = [
    ("--listen", "ATHLAS_LISTEN"),
    ("--database-url", "DATABASE_URL"),
    ("--db-wait-secs", "ATHLAS_DB_WAIT_SECS"),
    ("--max-pending-per-ip", "ATHLAS_MAX_PENDING_PER_IP"),
    ("--header-timeout-secs", "ATHLAS_HEADER_TIMEOUT_SECS"),
    ("--trusted-proxy", "ATHLAS_TRUSTED_PROXIES"),
    ("--data-dir", "ATHLAS_DATA_DIR"),
    ("--log-format", "ATHLAS_LOG_FORMAT"),
    ("--log-level", "ATHLAS_LOG_LEVEL"),
    ("--max-frame-bytes", "ATHLAS_MAX_FRAME_BYTES"),
    ("--rate-per-sec", "ATHLAS_RATE_PER_SEC"),
    ("--rate-burst", "ATHLAS_RATE_BURST"),
    ("--max-connections", "ATHLAS_MAX_CONNECTIONS"),
    ("--allowed-origins", "ATHLAS_ALLOWED_ORIGINS"),
    ("--response-timer-secs", "ATHLAS_RESPONSE_TIMER_SECS"),
    ("--idle-unload-secs", "ATHLAS_IDLE_UNLOAD_SECS"),
    ("--snapshot-every", "ATHLAS_SNAPSHOT_EVERY"),
    ("--shutdown-grace-secs", "ATHLAS_SHUTDOWN_GRACE_SECS"),
    ("--healthcheck", ""),
];

#[test]
fn help_lists_every_setting_and_the_operations_guide_documents_it() {
    let out = Command::new(server_bin()).arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/OPERATIONS.md")).unwrap();
    for (flag, var) in SETTINGS {
        assert!(help.contains(flag), "--help lacks {flag}");
        assert!(help.contains(var), "--help lacks {var}");
        assert!(guide.contains(flag) && guide.contains(var), "docs/OPERATIONS.md lacks {flag} / {var}");
    }
}

#[test]
fn a_bad_setting_stops_start_up_naming_it() {
    for (var, value, named) in [
        ("ATHLAS_MAX_CONNECTIONS", "0", "--max-connections"),
        ("ATHLAS_LISTEN", "everywhere", "--listen"),
        ("DATABASE_URL", "mysql://db/athlas", "--database-url"),
        ("ATHLAS_LOG_FORMAT", "xml", "--log-format"),
    ] {
        let out = Command::new(server_bin()).env_clear().env(var, value).stdout(Stdio::null()).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{var}={value}: {err}");
        assert!(err.contains(named) && err.contains(value), "{var}={value}: {err}");
    }
    // A store that cannot be opened: exit 1, saying so.
    let out = Command::new(server_bin())
        .env_clear()
        .env("DATABASE_URL", "sqlite:///proc/no-such-dir/athlas.db")
        .env("ATHLAS_LISTEN", "127.0.0.1:0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("opening the store"));
}

#[test]
fn the_healthcheck_fails_when_nothing_answers() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let out = Command::new(server_bin()).args(["--healthcheck", "--listen", &free.to_string()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// The web client comes from the binary itself (embedded in a release
/// build, read from `web/` in a debug one): any page path gets `index.html`,
/// never cached and under a strict Content-Security-Policy; its assets live
/// under a versioned path and are cached for good in a release build (checked
/// here when `ATHLAS_SERVER_BIN` is one, and in `web.rs` always); API paths
/// stay JSON.
#[tokio::test]
async fn the_web_client_is_served_with_its_headers() {
    let db = Db::sqlite("web");
    let server = spawn(db.command());
    let addr = &server.addr;
    for path in ["/", "/join/K7QW2MZP", "/match/4b0c2f0e-4a57-4b5e-9c57-6f1f8f3c2a11"] {
        let (status, head, body) = http_get_raw(addr, path, "").await;
        assert_eq!(status, 200, "{path}: {head}");
        assert!(head.contains("content-type: text/html"), "{head}");
        assert!(head.contains("cache-control: no-cache"), "{head}");
        assert!(head.contains("content-security-policy: default-src 'none'; script-src 'self'"), "{head}");
        assert!(head.contains("x-frame-options: deny"), "{head}");
        assert!(!body.contains("{{version}}"), "the version is filled in");
    }
    let (_, _, page) = http_get_raw(addr, "/", "").await;
    let script = page
        .split("src=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .find(|s| s.starts_with("/static/") && s.ends_with("/app.js"))
        .expect("the page loads /static/{version}/app.js")
        .to_owned();
    let (status, head, body) = http_get_raw(addr, &script, "").await;
    assert_eq!(status, 200, "{head}");
    assert!(
        head.contains("content-type: text/javascript") || head.contains("content-type: application/javascript"),
        "{head}"
    );
    assert!(!body.is_empty());
    let release = std::env::var("ATHLAS_SERVER_BIN").is_ok_and(|b| b.contains("/release/"));
    if release {
        assert!(head.contains("cache-control: public, max-age=31536000, immutable"), "{head}");
    }
    let etag = head.lines().find_map(|l| l.strip_prefix("etag: ")).expect("an etag").trim().to_owned();
    let (status, _, _) = http_get_raw(addr, &script, &format!("If-None-Match: {etag}\r\n")).await;
    assert_eq!(status, 304);
    // An older version's path still gets the file, but not for good.
    let (status, head, _) = http_get_raw(addr, "/static/000000000000/app.js", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("cache-control: no-cache"), "{head}");
    for missing in ["/static/000000000000/nope.js", "/static/x/../Cargo.toml", "/favicon.ico"] {
        assert_eq!(http_get_raw(addr, missing, "").await.0, 404, "{missing}");
    }
    // The catalogue a client shows, straight from the engine's content.
    let (status, games) = http(addr, "GET", "/api/games", None).await;
    assert_eq!(status, 200);
    let duel = games["games"].as_array().unwrap().iter().find(|g| g["game"] == "duel").expect("the duel").clone();
    assert_eq!(duel["catalogue"], json!(["cards", "presets", "board"]), "{games}");
    let (status, cards) = http(addr, "GET", "/api/games/duel/catalogue/cards", None).await;
    assert_eq!(status, 200);
    assert!(cards["ac_cards"].as_array().is_some_and(|c| c.iter().any(|c| c["id"] == "shadow_ranger")), "{cards}");
    let (status, origins) = http_text(addr, "GET", "/api/games/divinity/catalogue/origins", None).await;
    let origins: Value = serde_json::from_str(&origins).unwrap();
    assert!(status == 200 && origins.as_array().is_some_and(|o| o.iter().any(|o| o["id"] == "ifan")), "{origins}");
    assert_eq!(http(addr, "GET", "/api/games/divinity/catalogue/journal", None).await.0, 404, "not public");
    let (status, body) = http(addr, "GET", "/api/nope", None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{body}");
}
