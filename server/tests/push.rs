//! Web Push: a seat of a correspondence duel subscribes with a key pair of
//! its own; when the opponent's move makes it that seat's turn while its
//! page is closed, a local receiver standing in for the push service gets
//! a POST signed with the server's VAPID key (RFC 8292) whose payload
//! (RFC 8291, decrypted here with the subscriber's private key) names the
//! match and "your turn" and nothing else. A 410 from the receiver removes
//! the subscription: the next turn is pushed to the seat's other
//! subscription only.

use std::{
    sync::{
        atomic::{AtomicU16, Ordering},
        Arc,
    },
    time::Duration,
};

use axum::{
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::post,
    Router,
};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD as B64, Engine as _};
use p256::{
    ecdsa::{signature::Verifier as _, Signature, VerifyingKey},
    elliptic_curve::sec1::ToEncodedPoint as _,
};
use rand::RngCore as _;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::common::{config, temp_dir, Client, Server};

/// One request the stand-in push service received.
struct Received {
    name: String,
    headers: HeaderMap,
    body: Bytes,
}

/// A push service on 127.0.0.1: it passes each POST /push/{name} on and
/// answers with the status set in `answer` (201 at first).
struct Receiver {
    origin: String,
    got: mpsc::UnboundedReceiver<Received>,
    answer: Arc<AtomicU16>,
}

impl Receiver {
    async fn start() -> Receiver {
        let (tx, got) = mpsc::unbounded_channel();
        let answer = Arc::new(AtomicU16::new(201));
        type St = (mpsc::UnboundedSender<Received>, Arc<AtomicU16>);
        async fn push(
            State((tx, answer)): State<St>,
            Path(name): Path<String>,
            headers: HeaderMap,
            body: Bytes,
        ) -> StatusCode {
            let _ = tx.send(Received { name, headers, body });
            StatusCode::from_u16(answer.load(Ordering::SeqCst)).unwrap()
        }
        let app = Router::new().route("/push/{name}", post(push)).with_state((tx, answer.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Receiver { origin, got, answer }
    }

    /// The next request; a generous bound only turns a hang into a failure.
    async fn next(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(30), self.got.recv())
            .await
            .expect("no push within 30 s")
            .expect("the receiver stopped")
    }
}

/// A browser's subscription: its key pair and auth secret, and what it
/// sends the server.
struct Subscriber {
    secret: p256::SecretKey,
    auth: [u8; 16],
    endpoint: String,
}

impl Subscriber {
    fn new(endpoint: String) -> Subscriber {
        let mut auth = [0u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut auth);
        Subscriber { secret: p256::SecretKey::random(&mut rand::rngs::OsRng), auth, endpoint }
    }

    fn json(&self) -> Value {
        let public = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": self.endpoint,
            "expirationTime": null,
            "keys": { "p256dh": B64.encode(public.as_bytes()), "auth": B64.encode(self.auth) },
        })
    }

    fn decrypt(&self, body: &[u8]) -> Value {
        let auth = web_push_native::Auth::clone_from_slice(&self.auth);
        let plain = web_push_native::decrypt(body.to_vec(), &self.secret, &auth).expect("the payload decrypts");
        serde_json::from_slice(&plain).expect("the payload is JSON")
    }
}

/// The seats the latest frame says the game waits for.
fn waiting(frame: &Value) -> Vec<u64> {
    frame["status"]["seats"].as_array().map(|s| s.iter().filter_map(Value::as_u64).collect()).unwrap_or_default()
}

/// An action for `seat` that moves the game on without ending it: a
/// preset in the Creation Phase, else ending (the turn, the activations,
/// the activation) or passing, else the first listed that is not a
/// resignation or a draw.
fn next_action(frame: &Value, seat: u64) -> Value {
    // The duel lists a seat's actions in its view (`view.legal`).
    let actions: Vec<Value> = frame["view"]["legal"].as_array().cloned().unwrap_or_default();
    for ty in ["use_preset", "end_turn", "end_activations", "end_activation", "pass"] {
        if let Some(a) = actions.iter().find(|a| a["type"] == ty) {
            return a.clone();
        }
    }
    let quiet = |a: &&Value| {
        !["resign", "offer_draw", "accept_draw", "decline_draw"].contains(&a["type"].as_str().unwrap_or(""))
    };
    actions.iter().find(quiet).cloned().unwrap_or_else(|| panic!("seat {seat} has nothing to do in {frame}"))
}

/// Act for `seat` on `c` (whose latest frame is `frame`) until the game
/// waits for `until`; the latest frame then.
async fn play_until(c: &mut Client, mut frame: Value, seat: u64, until: u64) -> Value {
    let mut id = 1000 + 100 * seat;
    for _ in 0..50 {
        if waiting(&frame).contains(&until) && !waiting(&frame).contains(&seat) {
            return frame;
        }
        if frame["status"]["status"] == "finished" {
            panic!("the duel ended: {frame}");
        }
        id += 1;
        let action = next_action(&frame, seat);
        let ack = c.act(id, action.clone()).await;
        assert_eq!(ack["type"], "ack", "{action} → {ack}");
        frame = loop {
            let f = c.recv_type("update").await;
            if f["seq"] == ack["seq"] {
                break f;
            }
        };
    }
    panic!("seat {until} never came to move");
}

/// Open the page of `seat` (hello as `token`), play until it is `until`'s
/// turn, then close the page and wait until the room knows it is closed;
/// the seq the match is at then.
async fn take_turn(server: &Server, match_id: Uuid, token: &Value, seat: u64, until: u64) -> u64 {
    let mut c = server.ws().await;
    let w = c.hello(token, None).await;
    let seq = play_until(&mut c, w, seat, until).await["seq"].as_u64().unwrap();
    c.ws.close(None).await.unwrap();
    for _ in 0..1000 {
        if !server.hub.rooms.connected(match_id).contains(&(seat as u8)) {
            return seq;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the room still counts seat {seat} as connected");
}

/// The update of `seq` on `c`, skipping those before it.
async fn update_at(c: &mut Client, seq: u64) -> Value {
    loop {
        let f = c.recv_type("update").await;
        if f["seq"] == seq {
            return f;
        }
    }
}

/// Check a push's VAPID Authorization against the server's public key and
/// the receiver's origin; decrypt its payload for `sub`.
fn open(got: &Received, key: &str, origin: &str, sub: &Subscriber) -> Value {
    assert_eq!(got.headers["content-encoding"], "aes128gcm");
    assert!(got.headers["ttl"].to_str().unwrap().parse::<u64>().unwrap() > 0);
    let auth = got.headers["authorization"].to_str().unwrap();
    let rest = auth.strip_prefix("vapid t=").unwrap_or_else(|| panic!("not a VAPID header: {auth}"));
    let (token, k) = rest.split_once(", k=").unwrap();
    assert_eq!(k, key, "the header names the server's public key");
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(parts.len(), 3, "a JWT: {token}");
    let header: Value = serde_json::from_slice(&B64.decode(parts[0]).unwrap()).unwrap();
    assert_eq!(header["alg"], "ES256");
    let claims: Value = serde_json::from_slice(&B64.decode(parts[1]).unwrap()).unwrap();
    assert_eq!(claims["aud"], origin, "aud is the push service's origin");
    assert!(claims["sub"].as_str().unwrap().starts_with("mailto:"));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let exp = claims["exp"].as_u64().unwrap();
    assert!(exp > now && exp <= now + 24 * 3600, "exp within a day: {exp} vs {now}");
    let verifying = VerifyingKey::from_sec1_bytes(&B64.decode(key).unwrap()).unwrap();
    let signature = Signature::from_slice(&B64.decode(parts[2]).unwrap()).unwrap();
    verifying.verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature).expect("the JWT verifies");
    sub.decrypt(&got.body)
}

#[tokio::test]
async fn a_correspondence_turn_is_pushed_to_a_closed_page_and_a_gone_subscription_is_dropped() {
    let dir = temp_dir("push");
    let server = Server::start(athlas_server::Config { push_allow_http: true, ..config(&dir) }).await;
    let mut receiver = Receiver::start().await;
    let (status, key) = server.http("GET", "/api/push/key", None).await;
    assert_eq!(status, 200, "{key}");
    let key = key["key"].as_str().unwrap().to_owned();
    assert_eq!(B64.decode(&key).unwrap().len(), 65, "an uncompressed P-256 point");

    let created = server.create("duel", json!({"summoning_points": 250})).await;
    let joined = server.join(created["join_code"].as_str().unwrap()).await;
    let match_id: Uuid = created["match_id"].as_str().unwrap().parse().unwrap();
    let (tokens, path) = ([created["token"].clone(), joined["token"].clone()], format!("/api/matches/{match_id}/push"));

    // Seat 1 subscribes (only with its own token: not seat 0's, not none).
    let first = Subscriber::new(format!("{}/push/first", receiver.origin));
    let body = first.json().to_string();
    let (status, _) = server.http("POST", &path, Some(&body)).await;
    assert_eq!(status, 401);
    let (status, e) =
        server.http_as("POST", &format!("/api/matches/{}/push", Uuid::new_v4()), Some(&body), tokens[1].as_str()).await;
    assert_eq!((status, e["code"].as_str()), (403, Some("bad_token")));
    let (status, e) =
        server.http_as("POST", &path, Some(r#"{"endpoint":"https://x.example/1"}"#), tokens[1].as_str()).await;
    assert_eq!((status, e["code"].as_str()), (400, Some("bad_subscription")));
    let (status, _) = server.http_as("POST", &path, Some(&body), tokens[1].as_str()).await;
    assert_eq!(status, 201);
    assert_eq!(server.hub.store.push_subscriptions(match_id, 1).await.unwrap().len(), 1);

    // Both lock their creations; seat 1 then closes its page. Seat 0 plays
    // until it is seat 1's turn: one push, to seat 1's subscription.
    let mut a = server.ws().await;
    a.hello(&tokens[0], None).await;
    let seq = take_turn(&server, match_id, &tokens[1], 1, 0).await;
    let now = update_at(&mut a, seq).await;
    play_until(&mut a, now, 0, 1).await;
    let got = receiver.next().await;
    assert_eq!(got.name, "first");
    let payload = open(&got, &key, &receiver.origin, &first);
    assert_eq!(
        payload,
        json!({"type": "your_turn", "match_id": match_id.to_string(), "url": format!("/match/{match_id}")}),
        "only the match and that it is the seat's turn"
    );
    // Not a card's name, nor anything else of the game, in the message.
    let cards: Value =
        serde_json::from_str(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../content/duel/cards.json"))).unwrap();
    let text = payload.to_string().to_lowercase();
    let mut names = 0;
    for card in cards.as_object().unwrap().values().filter_map(Value::as_array).flatten() {
        for name in [&card["name"], &card["id"]].into_iter().filter_map(Value::as_str) {
            assert!(!text.contains(&name.to_lowercase()), "{name} in {text}");
            names += 1;
        }
    }
    assert!(names > 40, "the card list was read ({names} names)");

    // The push service says the subscription is gone: the server drops it.
    receiver.answer.store(410, Ordering::SeqCst);
    let seq = take_turn(&server, match_id, &tokens[1], 1, 0).await;
    let now = update_at(&mut a, seq).await;
    play_until(&mut a, now, 0, 1).await;
    assert_eq!(receiver.next().await.name, "first");
    for _ in 0..1000 {
        if server.hub.store.push_subscriptions(match_id, 1).await.unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(server.hub.store.push_subscriptions(match_id, 1).await.unwrap().is_empty(), "the 410 removed it");

    // The seat subscribes another browser: the next turn goes there only
    // (the gone one, older, would have been sent first).
    receiver.answer.store(201, Ordering::SeqCst);
    let second = Subscriber::new(format!("{}/push/second", receiver.origin));
    let (status, _) = server.http_as("POST", &path, Some(&second.json().to_string()), tokens[1].as_str()).await;
    assert_eq!(status, 201);
    let seq = take_turn(&server, match_id, &tokens[1], 1, 0).await;
    let now = update_at(&mut a, seq).await;
    play_until(&mut a, now, 0, 1).await;
    let got = receiver.next().await;
    assert_eq!(got.name, "second", "nothing went to the removed subscription");
    assert_eq!(open(&got, &key, &receiver.origin, &second)["type"], "your_turn");

    // Unsubscribing removes it.
    let (status, _) = server
        .http_as("DELETE", &path, Some(&json!({"endpoint": second.endpoint}).to_string()), tokens[1].as_str())
        .await;
    assert_eq!(status, 204);
    assert!(server.hub.store.push_subscriptions(match_id, 1).await.unwrap().is_empty());
    server.stop().await;
}
