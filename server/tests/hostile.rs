//! Slow and hostile clients against a real server on a socket: a client
//! that stops reading, sockets that never say hello, per-address caps,
//! guessing join codes and tokens, a finished match's token, oversized and
//! deeply nested JSON. Every wait is for a message or a state, bounded only
//! as a guard against hangs.

use std::time::Duration;

use crate::common::{config, temp_dir, Client, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::{tungstenite::Message, MaybeTlsStream};

fn expect_error(m: &Value, code: &str) {
    assert_eq!((m["type"].as_str(), m["code"].as_str()), (Some("error"), Some(code)), "{m}");
}

/// A WebSocket client with a small receive buffer, so that when it stops
/// reading the server's sends back up after a few frames, not megabytes.
async fn small_buffer_ws(server: &Server) -> Client {
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.set_recv_buffer_size(4096).unwrap();
    let tcp = sock.connect(server.addr).await.unwrap();
    let (ws, _) =
        tokio_tungstenite::client_async(format!("ws://{}/ws", server.addr), MaybeTlsStream::Plain(tcp)).await.unwrap();
    Client { ws }
}

/// Every message until the server closes: the texts as JSON. Panics on a
/// hang (the generous bound is a guard, not a measurement).
async fn drain_until_closed(c: &mut Client) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(60), c.ws.next()).await.expect("the server never closed") {
            Some(Ok(Message::Text(t))) => seen.push(serde_json::from_str(t.as_str()).unwrap()),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return seen,
            Some(Ok(_)) => {}
        }
    }
}

/// A nim match whose seat 1 handed itself to seat 0: seat 0's player acts
/// for both, so the match goes on whatever seat 1's connection does.
/// Returns seat 0's client, seat 1's (given), and the tokens.
async fn handed_pair(server: &Server, mut b: Client) -> (Client, Client, Value) {
    let created = server.create("nim", json!({"pile": 4_000_000})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let mut a = server.ws().await;
    a.hello(&created["token"], None).await;
    b.hello(&joined["token"], None).await;
    b.send(json!({"type": "hand", "id": 1, "seat": 1, "to": 0})).await;
    assert_eq!(b.recv_type("ack").await["id"], 1);
    (a, b, json!([created["token"], joined["token"]]))
}

/// Seat 0 plays action number `n` (secrets first, then takes of 1 in
/// turn, for seat 0 and the handed seat 1); returns its ack's seq.
async fn play(a: &mut Client, n: u64) -> u64 {
    let (seat, action) = match n {
        0 => (0, json!({"type": "secret", "value": 1})),
        1 => (1, json!({"type": "secret", "value": 2})),
        n => (n % 2, json!({"type": "take", "n": 1})),
    };
    let id = 100 + n;
    a.send(json!({"type": "act", "id": id, "seat": seat, "action": action})).await;
    loop {
        let m = a.recv().await;
        if m["id"] == id {
            assert_eq!(m["type"], "ack", "{m}");
            return m["seq"].as_u64().unwrap();
        }
    }
}

/// A client that stops reading does not hold up its room: the room drops
/// it once its queue is full (the other seat's acks keep coming, each
/// awaited), and when it reads again it finds `lagged` and a close; a
/// reconnect with `last_seq` misses nothing.
#[tokio::test]
async fn a_client_that_stops_reading_is_cut_off_with_lagged_and_its_room_plays_on() {
    let dir = temp_dir("lagged");
    // A long write timeout: this test is about the room's queue, not the socket's.
    let server = Server::start(athlas_server::Config { write_timeout_secs: 600, ..config(&dir) }).await;
    let slow = small_buffer_ws(&server).await;
    let (mut a, mut b, tokens) = handed_pair(&server, slow).await;
    let before = b.recv_type("update").await["seq"].as_u64().unwrap();
    assert_eq!(before, 1, "the hand-over's update");

    // Seat 1's connection reads nothing from here on.
    let mut n = 0;
    let mut last = 0;
    while server.hub.metrics.dropped("lagged") == 0 {
        assert!(n < 200_000, "the room never dropped the connection that stopped reading");
        last = play(&mut a, n).await;
        n += 1;
    }
    // The room goes on after dropping it.
    for _ in 0..10 {
        last = play(&mut a, n).await;
        n += 1;
    }
    eprintln!("the room dropped the reader after {n} actions");

    let seen = drain_until_closed(&mut b).await;
    let lagged = seen.last().expect("frames before the close");
    expect_error(lagged, "lagged");
    let got: Vec<u64> = seen.iter().filter(|m| m["type"] == "update").map(|m| m["seq"].as_u64().unwrap()).collect();
    assert!(got.windows(2).all(|w| w[1] == w[0] + 1), "updates in order, none skipped before the drop");
    let resume_from = got.last().copied().unwrap_or(before);
    assert!(resume_from < last, "it was dropped before the end");

    // Back with last_seq: every update it missed, up to the latest.
    let mut b = server.ws().await;
    let w = b.hello(&tokens[1], Some(resume_from)).await;
    assert_eq!(w["seq"], resume_from);
    let mut seq = resume_from;
    while seq < last {
        let u = b.recv_type("update").await;
        assert_eq!(u["seq"], seq + 1);
        seq += 1;
    }
    server.stop().await;
}

/// A client that never reads again is closed once a frame has waited for
/// it for the write timeout, and gives back its place under the caps.
#[tokio::test]
async fn a_client_that_never_reads_again_is_closed_after_the_write_timeout() {
    let dir = temp_dir("stalled");
    let server = Server::start(athlas_server::Config { write_timeout_secs: 1, ..config(&dir) }).await;
    let slow = small_buffer_ws(&server).await;
    let (mut a, _b, _) = handed_pair(&server, slow).await;
    assert_eq!(server.hub.open_connections(), 2);
    let mut n = 0;
    while server.hub.metrics.dropped("write_timeout") == 0 {
        assert!(n < 200_000, "the stalled connection was never closed");
        play(&mut a, n).await;
        n += 1;
    }
    // Its connection task has ended: only seat 0's is open (the permit is
    // given back as the task ends, just after the count).
    for _ in 0..600 {
        if server.hub.open_connections() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(server.hub.open_connections(), 1);
    play(&mut a, n).await;
    server.stop().await;
}

/// A socket that never says `hello` or `watch` is told `hello_timeout` and
/// closed; pings do not keep it open; one that joined stays.
#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed_after_the_hello_timeout() {
    let dir = temp_dir("hello-timeout");
    // 3 s: the connections that do join must manage it in time on a busy machine.
    let server = Server::start(athlas_server::Config { hello_timeout_secs: 3, ..config(&dir) }).await;
    let created = server.create("nim", json!({})).await;
    let mut seated = server.ws().await;
    seated.hello(&created["token"], None).await;
    let mut watching = server.ws().await;
    watching.send(json!({"type": "watch", "match_id": created["match_id"]})).await;
    assert_eq!(watching.recv().await["type"], "welcome");
    let mut silent = server.ws().await;
    let mut pinging = server.ws().await;
    let mut wrong = server.ws().await;

    pinging.ping_pong().await;
    // A wrong token does not lift the deadline.
    wrong.send(json!({"type": "hello", "token": "f".repeat(64)})).await;
    expect_error(&wrong.recv().await, "bad_token");
    for c in [&mut silent, &mut wrong] {
        let seen = drain_until_closed(c).await;
        expect_error(seen.last().expect("a reason before the close"), "hello_timeout");
    }
    let seen = drain_until_closed(&mut pinging).await;
    expect_error(seen.last().unwrap(), "hello_timeout");
    assert!(server.hub.metrics.dropped("hello_timeout") >= 3);
    // Past the deadline, the joined connections are still served.
    seated.ping_pong().await;
    watching.ping_pong().await;
    server.stop().await;
}

/// `POST /api/matches` announcing a 100 MB body and sending none of it:
/// the answer, read before any of the body is sent.
async fn announce_huge_body(addr: std::net::SocketAddr) -> (u16, Value) {
    let req = "POST /api/matches HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{";
    let text = raw(addr, req).await;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (text[9..12].parse().unwrap(), serde_json::from_str(&body).unwrap_or(Value::String(text)))
}

/// A WebSocket upgrade by hand: the status and the body of the answer.
async fn upgrade(addr: std::net::SocketAddr) -> (u16, String) {
    let req = "GET /ws HTTP/1.1\r\nHost: test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    let text = raw(addr, req).await;
    (text[9..12].parse().unwrap(), text)
}

/// The answer to a raw HTTP request, whole.
async fn raw(addr: std::net::SocketAddr, req: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(30), s.read(&mut buf)).await.unwrap().unwrap();
    String::from_utf8_lossy(&buf[..n]).to_string()
}

/// `/ws` does its own handshake (the server writes frames on the raw
/// socket): a request that is no WebSocket upgrade is told why, in a
/// refusal body, and a good one gets RFC 6455's accept key.
#[tokio::test]
async fn the_websocket_handshake_is_checked_and_answered() {
    let dir = temp_dir("handshake");
    let server = Server::start(config(&dir)).await;
    let plain = raw(server.addr, "GET /ws HTTP/1.1\r\nHost: test\r\n\r\n").await;
    assert!(plain.starts_with("HTTP/1.1 400"), "{plain}");
    assert!(plain.contains(r#""code":"bad_request""#) && plain.contains("Connection header"), "{plain}");
    let old = raw(
        server.addr,
        "GET /ws HTTP/1.1\r\nHost: test\r\nConnection: keep-alive, Upgrade\r\nUpgrade: WebSocket\r\nSec-WebSocket-Version: 8\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    )
    .await;
    assert!(old.starts_with("HTTP/1.1 400") && old.contains("Sec-WebSocket-Version must be 13"), "{old}");
    let no_key = raw(
        server.addr,
        "GET /ws HTTP/1.1\r\nHost: test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )
    .await;
    assert!(no_key.starts_with("HTTP/1.1 400") && no_key.contains("Sec-WebSocket-Key"), "{no_key}");
    // Token lists and any case, as browsers and proxies send them.
    let good = raw(
        server.addr,
        "GET /ws HTTP/1.1\r\nHost: test\r\nConnection: keep-alive, Upgrade\r\nUpgrade: WebSocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    )
    .await;
    assert!(good.starts_with("HTTP/1.1 101"), "{good}");
    assert!(good.to_ascii_lowercase().contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="), "{good}");
    server.stop().await;
}

/// A WebSocket ping between the room's frames is answered with its pong,
/// and the frames around it arrive whole (tungstenite writes the pong, the
/// connection writes the frames on the same socket).
#[tokio::test]
async fn pings_are_answered_between_frames() {
    let dir = temp_dir("ws-ping");
    let server = Server::start(config(&dir)).await;
    let (_created, mut a, _b) = server.nim_pair(json!({})).await;
    for round in 0..20u8 {
        a.ws.send(Message::Ping(vec![round; 3].into())).await.unwrap();
        a.ws.send(Message::text(r#"{"type":"ping"}"#)).await.unwrap();
        let (mut pong, mut text) = (false, false);
        while !(pong && text) {
            match tokio::time::timeout(Duration::from_secs(10), a.ws.next()).await.unwrap().unwrap().unwrap() {
                Message::Pong(p) => {
                    assert_eq!(p.as_ref(), &[round; 3]);
                    pong = true;
                }
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("whole JSON frames");
                    text |= v["type"] == "pong";
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn connections_from_one_address_are_capped() {
    let dir = temp_dir("per-ip");
    let server = Server::start(athlas_server::Config { max_connections_per_ip: 2, ..config(&dir) }).await;
    let a = server.ws().await;
    let _b = server.ws().await;
    let (status, body) = upgrade(server.addr).await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains(r#""code":"too_many_connections""#) && body.contains("your address"), "{body}");
    drop(a);
    let mut freed = false;
    for _ in 0..300 {
        if upgrade(server.addr).await.0 == 101 {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(freed, "a closed connection gives its address's place back");
    server.stop().await;
}

#[tokio::test]
async fn lobby_requests_from_one_address_are_rate_limited() {
    let dir = temp_dir("lobby-rate");
    let server = Server::start(athlas_server::Config { lobby_per_min: 3, ..config(&dir) }).await;
    let created = server.create("nim", json!({})).await;
    server.create("nim", json!({})).await;
    server.join(created["join_code"].as_str().unwrap()).await;
    let body = json!({"game": "nim", "options": {}}).to_string();
    let (status, refused) = server.http("POST", "/api/matches", Some(&body)).await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["code"], "rate_limited");
    assert!(refused["message"].as_str().unwrap().contains("3 a minute"), "{refused}");
    for path in ["/api/join/ABCDEFGH", "/api/campaigns", "/api/campaigns/join/ABCDEFGH"] {
        let (status, refused) = server.http("POST", path, Some(&body)).await;
        assert_eq!((status, refused["code"].as_str()), (429, Some("rate_limited")), "{path}: {refused}");
    }
    // Reading is not limited, and nothing was created by the refused requests.
    let (status, list) = server.http("GET", "/api/matches?status=active", None).await;
    assert_eq!(status, 200);
    assert_eq!(list["matches"].as_array().unwrap().len(), 1);
    let (status, list) = server.http("GET", "/api/matches", None).await;
    assert_eq!((status, list["matches"].as_array().unwrap().len()), (200, 1));
    server.stop().await;
}

/// Guessing: after a few wrong join codes or tokens an address may not try
/// again for a while, even with a right one; other addresses are not
/// affected (the limit is per address: tests of the table are in
/// `limits.rs`).
#[tokio::test]
async fn wrong_join_codes_and_tokens_are_rate_limited() {
    let dir = temp_dir("guessing");
    let server = Server::start(athlas_server::Config { auth_failures_per_min: 3, ..config(&dir) }).await;
    let created = server.create("nim", json!({})).await;
    for code in ["AAAAAAAA", "BBBBBBBB"] {
        let (status, body) = server.http("POST", &format!("/api/join/{code}"), None).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    }
    let mut c = server.ws().await;
    c.send(json!({"type": "hello", "token": "0".repeat(64)})).await;
    expect_error(&c.recv().await, "bad_token");
    // Three wrong: the right join code is refused now, and so is a right token.
    let (status, body) =
        server.http("POST", &format!("/api/join/{}", created["join_code"].as_str().unwrap()), None).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
    c.send(json!({"type": "hello", "token": created["token"]})).await;
    expect_error(&c.recv().await, "rate_limited");
    let (status, body) =
        server.http_as("GET", "/api/campaigns/00000000-0000-0000-0000-000000000000", None, Some("x")).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
    let (status, body) =
        server.http("POST", "/api/campaigns/mine", Some(&json!({"tokens": [created["token"]]}).to_string())).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
    // The connection stays open; the seat is still free for its owner.
    c.ping_pong().await;
    let (_, m) = server.http("GET", &format!("/api/matches/{}", created["match_id"].as_str().unwrap()), None).await;
    assert_eq!(m["seats_taken"], json!([0]));
    server.stop().await;
}

/// `POST /api/campaigns/mine` takes 100 tokens a request: each that holds
/// nothing is a wrong guess, so it is no way around the limit.
#[tokio::test]
async fn many_tokens_in_one_request_count_as_many_guesses() {
    let dir = temp_dir("mine-guesses");
    let server = Server::start(athlas_server::Config { auth_failures_per_min: 5, ..config(&dir) }).await;
    let created = server.create("nim", json!({})).await;
    // A match token is no campaign's, but it holds a seat: not a guess.
    let tokens: Vec<Value> = (0..4).map(|i| json!(format!("{i:064}"))).chain([created["token"].clone()]).collect();
    let (status, body) = server.http("POST", "/api/campaigns/mine", Some(&json!({"tokens": tokens}).to_string())).await;
    assert_eq!((status, body["campaigns"].as_array().map(Vec::len)), (200, Some(0)), "{body}");
    let (status, _) = server.http("POST", "/api/join/ZZZZZZZZ", None).await;
    assert_eq!(status, 404, "4 wrong of 5: one try left");
    let (status, body) = server.http("POST", "/api/join/ZZZZZZZZ", None).await;
    assert_eq!((status, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
    server.stop().await;
}

/// A finished match's seat token opens nothing new: it shows the finished
/// match (which its holder saw anyway), and every request with it is
/// refused with a code and changes nothing.
#[tokio::test]
async fn a_finished_matchs_token_opens_nothing_new() {
    let dir = temp_dir("finished-token");
    let server = Server::start(config(&dir)).await;
    let (m, mut a, mut b) = server.nim_pair(json!({"pile": 2})).await;
    assert_eq!(a.act(1, json!({"type": "secret", "value": 1})).await["type"], "ack");
    assert_eq!(b.act(1, json!({"type": "secret", "value": 2})).await["type"], "ack");
    assert_eq!(a.act(2, json!({"type": "take", "n": 2})).await["type"], "ack");
    drop((a, b));
    let path = format!("/api/matches/{}", m["match_id"].as_str().unwrap());
    let before = server.http("GET", &path, None).await.1;
    assert_eq!(before["status"], "finished");

    for (seat, token) in m["tokens"].as_array().unwrap().iter().enumerate() {
        let mut c = server.ws().await;
        let w = c.hello(token, None).await;
        assert_eq!((w["seat"].as_u64(), w["status"]["status"].as_str()), (Some(seat as u64), Some("finished")));
        assert_eq!(w["match_id"], m["match_id"], "the same match, never another");
        assert_eq!(c.act(5, json!({"type": "take", "n": 1})).await["code"], "finished");
        c.send(json!({"type": "take_back", "id": 6})).await;
        assert_eq!(c.recv_type("error").await["code"], "finished");
        c.send(json!({"type": "hand", "id": 7, "seat": seat, "to": 1 - seat})).await;
        assert_eq!(c.recv_type("error").await["code"], "finished");
        // No campaign takes it.
        let (status, body) =
            server.http_as("POST", "/api/campaigns/mine", Some(&json!({"tokens": [token]}).to_string()), None).await;
        assert_eq!((status, body["campaigns"].as_array().map(Vec::len)), (200, Some(0)));
        let (status, body) =
            server.http_as("GET", "/api/campaigns/00000000-0000-0000-0000-000000000000", None, token.as_str()).await;
        assert_eq!((status, body["code"].as_str()), (403, Some("bad_token")));
    }
    assert_eq!(server.http("GET", &path, None).await.1, before, "nothing changed");
    server.stop().await;
}

/// Deeply nested JSON meets serde_json's recursion limit (128) and gets
/// `bad_json`, on the socket and over HTTP; a frame over the limit gets
/// `frame_too_large`; one far over it is cut off by the WebSocket layer
/// (which closes that connection) and the server goes on.
#[tokio::test]
async fn oversized_and_deeply_nested_json_is_refused_with_a_code() {
    let dir = temp_dir("nested");
    let server = Server::start(config(&dir)).await;
    let (_m, mut a, _b) = server.nim_pair(json!({})).await;
    let deep_array = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let deep_object = format!("{}1{}", r#"{"a":"#.repeat(10_000), "}".repeat(10_000));
    for deep in [&deep_array, &deep_object] {
        a.send_text(format!(r#"{{"type":"act","id":3,"action":{deep}}}"#)).await;
        let m = a.recv_type("error").await;
        assert_eq!(m["code"], "bad_json", "{m}");
        assert!(m["message"].as_str().unwrap().contains("recursion limit"), "{m}");
        a.send_text(deep.clone()).await;
        assert_eq!(a.recv_type("error").await["code"], "bad_json");
    }
    // Just under the limit of 128 levels: the shape is wrong, not the depth.
    let shallow = format!("{}{}", "[".repeat(100), "]".repeat(100));
    a.send_text(format!(r#"{{"type":"act","id":4,"action":{shallow}}}"#)).await;
    let m = a.recv_type("error").await;
    assert_eq!((m["code"].as_str(), m["id"].as_u64()), (Some("bad_action"), Some(4)), "{m}");
    // Nothing was applied.
    assert_eq!(a.act(5, json!({"type": "secret", "value": 1})).await["seq"], 1);

    let body = format!(r#"{{"game":"nim","options":{deep_array}}}"#);
    let (status, m) = server.http("POST", "/api/matches", Some(&body)).await;
    assert_eq!((status, m["code"].as_str()), (400, Some("bad_json")), "{m}");
    // A body over the lobby's limit (1 MiB) is refused by its length,
    // without being read.
    let (status, m) = announce_huge_body(server.addr).await;
    assert_eq!((status, m["code"].as_str()), (413, Some("too_large")), "{m}");

    let mut big = server.ws().await;
    big.send_text(format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(100 * 1024))).await;
    expect_error(&big.recv().await, "frame_too_large");
    // Over the hard limit (1 MiB here): closed by the WebSocket layer.
    let _ = big.ws.send(Message::Text("x".repeat(2 << 20).into())).await;
    drain_until_closed(&mut big).await;
    // The server and the match are fine.
    a.ping_pong().await;
    let mut c = server.ws().await;
    c.ping_pong().await;
    server.stop().await;
}

/// A TCP connection to `server` from `from` (any 127.x.y.z address is this
/// machine's loopback, so a test has as many client addresses as it needs).
async fn connect_from(server: &Server, from: &str) -> tokio::net::TcpStream {
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind(format!("{from}:0").parse().unwrap()).unwrap();
    sock.connect(server.addr).await.unwrap()
}

/// Reads until the server closes `s`; what it sent meanwhile. Panics on a
/// hang (the bound is a guard, not a measurement).
async fn read_until_closed(s: &mut tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(60), s.read(&mut buf)).await.expect("the server never closed") {
            Ok(0) | Err(_) => return String::from_utf8_lossy(&seen).into_owned(),
            Ok(n) => seen.extend_from_slice(&buf[..n]),
        }
    }
}

/// Waits until `cond` holds (the bound is a guard against a hang).
async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..6000 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("never: {what}");
}

#[tokio::test]
async fn two_thousand_silent_sockets_from_one_address_leave_the_server_serving_everyone_else() {
    let dir = temp_dir("slowloris");
    // The header timeout out of the way: here only the cap frees nothing
    // (the next test has the timeout).
    let config = athlas_server::Config { max_pending_per_ip: 32, header_timeout_secs: 3600, ..config(&dir) };
    let server = Server::start(config).await;
    let flooder: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    let mut silent = Vec::with_capacity(2000);
    for _ in 0..2000 {
        silent.push(connect_from(&server, "127.0.0.2").await);
    }
    // 32 are held, unread; every other one was closed as it arrived.
    let metrics = server.hub.metrics.clone();
    until("1,968 refused", || metrics.dropped("pending_per_address") == 1968).await;
    assert_eq!(server.hub.peers.pending(flooder), 32);
    assert_eq!(read_until_closed(&mut silent[1999]).await, "");
    // Meanwhile a client from another address plays a whole match.
    let (ids, mut a, mut b) = server.nim_pair(json!({"pile": 3})).await;
    assert_eq!(a.act(1, json!({"type": "secret", "value": 1})).await["type"], "ack");
    assert_eq!(b.act(1, json!({"type": "secret", "value": 2})).await["type"], "ack");
    assert_eq!(a.act(2, json!({"type": "take", "n": 3})).await["type"], "ack");
    let (_, played) = server.http("GET", &format!("/api/matches/{}", ids["match_id"].as_str().unwrap()), None).await;
    assert_eq!(played["status"], "finished", "{played}");
    // The flooder's own sockets gone, its address may connect again.
    drop(silent);
    let peers = server.hub.peers.clone();
    until("the flooder's places given back", || peers.pending(flooder) == 0).await;
    let mut again = connect_from(&server, "127.0.0.2").await;
    tokio::io::AsyncWriteExt::write_all(&mut again, b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    assert!(read_until_closed(&mut again).await.starts_with("HTTP/1.1 200"));
    server.stop().await;
}

#[tokio::test]
async fn a_connection_that_sends_no_whole_request_in_time_is_closed() {
    use tokio::io::AsyncWriteExt;
    let dir = temp_dir("header-timeout");
    let server = Server::start(athlas_server::Config { header_timeout_secs: 1, ..config(&dir) }).await;
    // Silent; half a request line; one request answered, then idle.
    let mut silent = connect_from(&server, "127.0.0.3").await;
    let mut half = connect_from(&server, "127.0.0.3").await;
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: t").await.unwrap();
    let mut kept = connect_from(&server, "127.0.0.3").await;
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").await.unwrap();
    assert_eq!(read_until_closed(&mut silent).await, "");
    assert_eq!(read_until_closed(&mut half).await, "");
    let answered = read_until_closed(&mut kept).await;
    assert!(answered.starts_with("HTTP/1.1 200") && answered.ends_with("ok"), "{answered}");
    assert!(server.hub.metrics.dropped("header_timeout") >= 2);
    let peers = server.hub.peers.clone();
    until("no connection left pending", || peers.pending("127.0.0.3".parse().unwrap()) == 0).await;
    server.stop().await;
}

/// `POST /api/matches` from `from` with extra header lines: the status.
async fn create_from(server: &Server, from: &str, headers: &str) -> u16 {
    use tokio::io::AsyncWriteExt;
    let mut s = connect_from(server, from).await;
    let body = r#"{"game":"nim","options":{}}"#;
    let req = format!(
        "POST /api/matches HTTP/1.1\r\nHost: t\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    read_until_closed(&mut s).await[9..12].parse().unwrap()
}

#[tokio::test]
async fn only_a_trusted_proxy_names_the_client_the_limits_count() {
    let dir = temp_dir("trusted-proxy");
    let config = athlas_server::Config {
        lobby_per_min: 2,
        trusted_proxies: vec!["127.0.0.10/32".parse().unwrap()],
        ..config(&dir)
    };
    let server = Server::start(config).await;
    // An untrusted address spoofing a new client each time is still itself.
    for (i, status) in [201, 201, 429].into_iter().enumerate() {
        let spoof = format!("X-Forwarded-For: 198.51.100.{i}\r\nForwarded: for=198.51.100.{i}\r\n");
        assert_eq!(create_from(&server, "127.0.0.4", &spoof).await, status, "spoofed request {i}");
    }
    // Through the trusted proxy, each client has its own budget, and what a
    // client wrote before the proxy's entry is not read.
    let via = |client: &str| format!("X-Forwarded-For: {client}\r\n");
    assert_eq!(create_from(&server, "127.0.0.10", &via("203.0.113.1")).await, 201);
    assert_eq!(create_from(&server, "127.0.0.10", &via("10.9.9.9, 203.0.113.1")).await, 201);
    assert_eq!(create_from(&server, "127.0.0.10", &via("203.0.113.2, 203.0.113.1")).await, 429);
    assert_eq!(create_from(&server, "127.0.0.10", &via("203.0.113.2")).await, 201);
    assert_eq!(create_from(&server, "127.0.0.10", "Forwarded: for=\"[2001:db8::7]:443\"\r\n").await, 201);
    server.stop().await;
}
