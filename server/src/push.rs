//! Web Push: "it is your turn" for a correspondence match whose page is
//! closed. A seat's browser subscribes (`POST /api/matches/{id}/push` with
//! its seat token, see [`crate::subscription`]); when an acknowledged action makes a
//! correspondence match wait for a seat that has no socket open, the room
//! calls [`Push::your_turn`], which sends each of that seat's subscriptions
//! a push in its own task: the room never waits for a push service.
//!
//! The message is encrypted for the browser (RFC 8291, `aes128gcm`, by
//! `web-push-native`) and signed by the server (VAPID, RFC 8292: an ES256
//! token over the push service's origin). The VAPID key pair is made on
//! first need and kept in the store, so every node of a cluster signs with
//! the same key (docs/OPERATIONS.md, Web Push).
//!
//! **Architecture Invariant:** a push says only that it is a seat's turn in
//! a match (its id and link); never a card, an action, a view or a token.

use std::{
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use athlas_engine::{Seat, Status};
use axum::http::{header::AUTHORIZATION, StatusCode};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD as B64, Engine as _};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper_util::{
    client::legacy::{connect::HttpConnector, Client},
    rt::TokioExecutor,
};
use p256::ecdsa::{signature::Signer as _, Signature, SigningKey};
use serde_json::json;
use tokio::sync::OnceCell;
use uuid::Uuid;

use crate::store::{PushSubscription, Store, StoreError};

/// How long a push service keeps an undelivered push (its `TTL`): a
/// correspondence turn waits for days, but a day-old "your turn" is stale
/// news once the player looked anyway.
const TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// How long a VAPID token is valid; RFC 8292 allows at most 24 hours.
const TOKEN_LIFE: Duration = Duration::from_secs(12 * 60 * 60);

/// How long one push may take before it is given up.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest endpoint URL accepted (push services use a few hundred bytes).
const MAX_ENDPOINT: usize = 2048;

/// How the server pushes, from its config.
#[derive(Debug, Clone)]
pub struct PushSettings {
    /// The VAPID `sub` claim: how a push service reaches the operator
    /// (`mailto:` or `https:` URL).
    pub subject: String,
    /// Accept `http:` endpoints (a local receiver in tests); push services
    /// are HTTPS, and refusing anything else keeps a subscriber from
    /// aiming the server's requests at plain-HTTP hosts inside its network.
    pub allow_http: bool,
}

/// The server's VAPID key, read (or made) once.
struct Vapid {
    signing: SigningKey,
    /// The uncompressed public point, base64url: the `applicationServerKey`
    /// a page subscribes with, and the `k` of each push's Authorization.
    public: String,
}

type HttpsClient = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// Sends pushes; shared by the rooms and the HTTP routes.
pub struct Push {
    store: Store,
    settings: PushSettings,
    client: HttpsClient,
    vapid: OnceCell<Arc<Vapid>>,
}

/// Why one push was not delivered.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("bad subscription: {0}")]
    BadSubscription(String),
    #[error("encryption failed: {0}")]
    Encrypt(String),
    #[error("the push service could not be reached: {0}")]
    Unreachable(String),
    #[error("the push service did not answer within {0:?}")]
    Timeout(Duration),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a push service answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Accepted (2xx).
    Accepted,
    /// 404 or 410: the subscription is gone; it was removed.
    Gone,
    /// Any other status (rate limited, too large, down): nothing to retry
    /// for a turn signal.
    Refused(u16),
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

impl Push {
    /// A sender over `store`. Builds the HTTPS client (rustls with ring and
    /// Mozilla's roots); the key is read from the store on first need.
    pub fn new(store: Store, settings: PushSettings) -> Arc<Push> {
        let provider = rustls::crypto::ring::default_provider();
        let builder = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(provider)
            .expect("ring supports rustls' default protocol versions");
        let connector = if settings.allow_http {
            builder.https_or_http().enable_http1().build()
        } else {
            builder.https_only().enable_http1().build()
        };
        let client = Client::builder(TokioExecutor::new()).build(connector);
        Arc::new(Push { store, settings, client, vapid: OnceCell::new() })
    }

    /// The VAPID key pair: the store's, or a new one stored now.
    async fn vapid(&self) -> Result<Arc<Vapid>, StoreError> {
        self.vapid
            .get_or_try_init(|| async {
                let candidate = p256::SecretKey::random(&mut rand::rngs::OsRng);
                let stored = self.store.vapid_key(&B64.encode(candidate.to_bytes()), now_ms()).await?;
                let scalar = B64
                    .decode(stored.as_bytes())
                    .map_err(|e| StoreError::Corrupt(format!("the stored VAPID key is not base64url: {e}")))?;
                let signing = SigningKey::from_slice(&scalar)
                    .map_err(|e| StoreError::Corrupt(format!("the stored VAPID key is not a P-256 key: {e}")))?;
                let public = B64.encode(signing.verifying_key().to_encoded_point(false).as_bytes());
                Ok(Arc::new(Vapid { signing, public }))
            })
            .await
            .cloned()
    }

    /// The public VAPID key, base64url (`GET /api/push/key`).
    ///
    /// # Errors
    /// When the store does not answer.
    pub async fn public_key(&self) -> Result<String, StoreError> {
        Ok(self.vapid().await?.public.clone())
    }

    /// Whether `sub` is one the server will push to: an `https:` endpoint
    /// (or `http:` when allowed) with a host and no user info, a P-256
    /// public key and a 16-byte auth secret.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn check(&self, sub: &PushSubscription) -> Result<(), String> {
        let uri = endpoint_uri(&sub.endpoint)?;
        let http_ok = self.settings.allow_http && uri.scheme_str() == Some("http");
        if uri.scheme_str() != Some("https") && !http_ok {
            return Err("the endpoint must be an https: URL".into());
        }
        ua_keys(sub).map(|_| ())
    }

    /// Tell each of `seats` of `match_id` that it is its turn, each
    /// subscription in a task of its own (nothing here waits).
    pub fn your_turn(self: &Arc<Self>, match_id: Uuid, seats: Vec<Seat>) {
        for seat in seats {
            let push = self.clone();
            tokio::spawn(async move {
                if let Err(e) = push.notify(match_id, seat).await {
                    tracing::warn!(%match_id, seat, error = %e, "turn push not sent");
                }
            });
        }
    }

    /// Push "your turn" to every subscription of `seat` of `match_id`.
    ///
    /// # Errors
    /// When the store does not answer; each subscription's own failure is
    /// logged and the others are still tried.
    pub async fn notify(&self, match_id: Uuid, seat: Seat) -> Result<(), PushError> {
        let subs = self.store.push_subscriptions(match_id, seat).await?;
        if subs.is_empty() {
            return Ok(());
        }
        let payload = turn_payload(match_id);
        for sub in &subs {
            match self.send(match_id, sub, &payload).await {
                Ok(Delivery::Accepted) => tracing::debug!(%match_id, seat, "turn push sent"),
                Ok(Delivery::Gone) => tracing::info!(%match_id, seat, "push subscription gone; removed"),
                Ok(Delivery::Refused(status)) => tracing::warn!(%match_id, seat, status, "turn push refused"),
                Err(e) => tracing::warn!(%match_id, seat, error = %e, "turn push not sent"),
            }
        }
        Ok(())
    }

    /// Encrypt `payload` for `sub`, sign, and POST it to its endpoint. A
    /// 404 or 410 removes the endpoint from the store.
    async fn send(&self, match_id: Uuid, sub: &PushSubscription, payload: &[u8]) -> Result<Delivery, PushError> {
        let vapid = self.vapid().await?;
        let uri = endpoint_uri(&sub.endpoint).map_err(PushError::BadSubscription)?;
        let (ua_public, ua_auth) = ua_keys(sub).map_err(PushError::BadSubscription)?;
        let token = vapid_token(&vapid.signing, &origin(&uri), &self.settings.subject, now_ms() / 1000);
        let request = web_push_native::WebPushBuilder::new(uri, ua_public, ua_auth)
            .with_valid_duration(TTL)
            .build(payload.to_vec())
            .map_err(|e| PushError::Encrypt(e.to_string()))?;
        let (mut parts, body) = request.into_parts();
        let headers = &mut parts.headers;
        let authorization = format!("vapid t={token}, k={}", vapid.public);
        headers.insert(AUTHORIZATION, authorization.parse().expect("base64url and ASCII"));
        // One pending "your turn" per match on the push service: a newer
        // one replaces it (RFC 8030 §5.4; a simple UUID is 32 characters
        // of the base64url alphabet, the most a topic may have).
        headers.insert("topic", match_id.simple().to_string().parse().expect("hex digits"));
        headers.insert("urgency", "normal".parse().expect("a token"));
        let request = http::Request::from_parts(parts, Full::new(Bytes::from(body)));
        let response = match tokio::time::timeout(SEND_TIMEOUT, self.client.request(request)).await {
            Err(_) => return Err(PushError::Timeout(SEND_TIMEOUT)),
            Ok(Err(e)) => return Err(PushError::Unreachable(e.to_string())),
            Ok(Ok(r)) => r,
        };
        let status = response.status();
        // The body is a short explanation at most; read it so the
        // connection can be reused, and give up on one that goes on.
        let _ = tokio::time::timeout(SEND_TIMEOUT, response.into_body().collect()).await;
        if status.is_success() {
            Ok(Delivery::Accepted)
        } else if status == StatusCode::NOT_FOUND || status == StatusCode::GONE {
            self.store.drop_push_endpoint(&sub.endpoint).await?;
            Ok(Delivery::Gone)
        } else {
            Ok(Delivery::Refused(status.as_u16()))
        }
    }
}

/// The seats a game waits for (none once it is over).
pub fn waiting(status: &Status) -> Vec<Seat> {
    match status {
        Status::Waiting { seats } => seats.clone(),
        Status::Finished(_) => Vec::new(),
    }
}

/// The seats to tell after a record: waited for `now` and not `before`
/// (a seat already told is not told again while it thinks), and with no
/// socket open (an open page signals the turn itself).
pub fn newly_waiting(before: &[Seat], now: &[Seat], connected: &[Seat]) -> Vec<Seat> {
    now.iter().copied().filter(|s| !before.contains(s) && !connected.contains(s)).collect()
}

/// The whole of what a push says: whose turn it is not even named, only
/// the match (the subscription is the seat's own).
fn turn_payload(match_id: Uuid) -> Vec<u8> {
    json!({ "type": "your_turn", "match_id": match_id.to_string(), "url": format!("/match/{match_id}") })
        .to_string()
        .into_bytes()
}

fn endpoint_uri(endpoint: &str) -> Result<http::Uri, String> {
    if endpoint.len() > MAX_ENDPOINT {
        return Err(format!("the endpoint is longer than {MAX_ENDPOINT} bytes"));
    }
    let uri: http::Uri = endpoint.parse().map_err(|e| format!("the endpoint is not a URL: {e}"))?;
    let authority = uri.authority().ok_or("the endpoint has no host")?;
    if authority.as_str().contains('@') || authority.host().is_empty() {
        return Err("the endpoint must name a host, without user info".into());
    }
    if !matches!(uri.scheme_str(), Some("https" | "http")) {
        return Err("the endpoint must be an https: URL".into());
    }
    Ok(uri)
}

/// The browser's public key and auth secret, decoded.
fn ua_keys(sub: &PushSubscription) -> Result<(p256::PublicKey, web_push_native::Auth), String> {
    let point = B64.decode(sub.p256dh.trim_end_matches('=')).map_err(|_| "p256dh is not base64url")?;
    let public = p256::PublicKey::from_sec1_bytes(&point).map_err(|_| "p256dh is not a P-256 public key")?;
    let auth = B64.decode(sub.auth.trim_end_matches('=')).map_err(|_| "auth is not base64url")?;
    if auth.len() != 16 {
        return Err("auth must be 16 bytes".into());
    }
    Ok((public, web_push_native::Auth::clone_from_slice(&auth)))
}

/// The origin of a push resource (RFC 8292 §2: the token's `aud`): its
/// scheme, host and a port other than the scheme's default.
fn origin(uri: &http::Uri) -> String {
    let scheme = uri.scheme_str().unwrap_or("https");
    let host = uri.host().unwrap_or_default();
    match uri.port_u16() {
        Some(port) if !matches!((scheme, port), ("https", 443) | ("http", 80)) => format!("{scheme}://{host}:{port}"),
        _ => format!("{scheme}://{host}"),
    }
}

/// An ES256 JSON Web Token for the push service at `aud` (RFC 8292 §2):
/// expiring [`TOKEN_LIFE`] after `now_secs`, naming the operator's contact.
/// The signature is ECDSA P-256 over SHA-256, as r ‖ s (RFC 7518 §3.4).
fn vapid_token(key: &SigningKey, aud: &str, subject: &str, now_secs: u64) -> String {
    let header = B64.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
    let claims = B64.encode(json!({ "aud": aud, "exp": now_secs + TOKEN_LIFE.as_secs(), "sub": subject }).to_string());
    let signed = format!("{header}.{claims}");
    let signature: Signature = key.sign(signed.as_bytes());
    format!("{signed}.{}", B64.encode(signature.to_bytes()))
}

#[cfg(test)]
mod tests {
    use p256::ecdsa::{signature::Verifier as _, VerifyingKey};

    use serde_json::Value;

    use super::*;

    #[test]
    fn the_audience_is_the_origin_with_a_port_only_when_not_the_default() {
        let o = |s: &str| origin(&s.parse().unwrap());
        assert_eq!(o("https://push.example.net/send/abc"), "https://push.example.net");
        assert_eq!(o("https://push.example.net:443/x"), "https://push.example.net");
        assert_eq!(o("https://push.example.net:8443/x"), "https://push.example.net:8443");
        assert_eq!(o("http://127.0.0.1:4000/push/1"), "http://127.0.0.1:4000");
    }

    #[test]
    fn a_vapid_token_verifies_with_the_public_key_and_names_aud_exp_sub() {
        let key = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let token = vapid_token(&key, "https://push.example.net", "mailto:ops@example.net", 1_000);
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(parts.len(), 3);
        let header: Value = serde_json::from_slice(&B64.decode(parts[0]).unwrap()).unwrap();
        assert_eq!(header, json!({"typ": "JWT", "alg": "ES256"}));
        let claims: Value = serde_json::from_slice(&B64.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(
            claims,
            json!({"aud": "https://push.example.net", "exp": 1_000 + 12 * 3600, "sub": "mailto:ops@example.net"})
        );
        let signature = Signature::from_slice(&B64.decode(parts[2]).unwrap()).unwrap();
        let signed = format!("{}.{}", parts[0], parts[1]);
        VerifyingKey::from(&key).verify(signed.as_bytes(), &signature).unwrap();
    }

    #[test]
    fn the_payload_names_the_match_and_nothing_else() {
        let id = Uuid::new_v4();
        let v: Value = serde_json::from_slice(&turn_payload(id)).unwrap();
        assert_eq!(v, json!({"type": "your_turn", "match_id": id.to_string(), "url": format!("/match/{id}")}));
    }

    #[test]
    fn only_seats_newly_waited_for_and_away_are_told() {
        assert_eq!(newly_waiting(&[0], &[1], &[]), vec![1]);
        assert_eq!(newly_waiting(&[1], &[1], &[]), Vec::<Seat>::new(), "still its turn: told already");
        assert_eq!(newly_waiting(&[0], &[1], &[1]), Vec::<Seat>::new(), "its page is open");
        assert_eq!(newly_waiting(&[], &[0, 1], &[0]), vec![1]);
    }

    #[test]
    fn endpoints_must_name_a_host_without_user_info() {
        assert!(endpoint_uri("https://push.example.net/x").is_ok());
        assert!(endpoint_uri("https://user:pw@push.example.net/x").is_err());
        assert!(endpoint_uri("/relative").is_err());
        assert!(endpoint_uri("ftp://push.example.net/x").is_err());
        assert!(endpoint_uri(&format!("https://push.example.net/{}", "a".repeat(MAX_ENDPOINT))).is_err());
    }
}
