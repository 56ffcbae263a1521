//! Web Push subscriptions over HTTP: a seat's page subscribes with its
//! seat token (`POST /api/matches/{id}/push`), unsubscribes, and reads the
//! server's public VAPID key. The pushes themselves are [`crate::push`]'s,
//! which the room calls and which imports neither the hub nor these routes.

use std::sync::Arc;

use athlas_engine::Seat;
use axum::{
    extract::{rejection::JsonRejection, Path, State},
    http::{header::AUTHORIZATION, HeaderMap, StatusCode},
    routing::{get, post},
    Json, Router,
};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::{
    hub::Hub,
    limits::PeerIp,
    refusal::{Code, Refusal},
    request::{body, parse_id},
    secret,
    store::{PushSubscription, StoreError},
};

pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/push/key", get(public_key))
        .route("/api/matches/{match_id}/push", post(subscribe).delete(unsubscribe))
}

/// `GET /api/push/key`: the server's public VAPID key.
async fn public_key(State(hub): State<Arc<Hub>>) -> Result<Json<Value>, Refusal> {
    Ok(Json(json!({ "key": hub.push.public_key().await? })))
}

/// A subscription as a page sends it: `PushSubscription.toJSON()`.
#[derive(Deserialize)]
struct SubscriptionBody {
    endpoint: String,
    #[serde(default)]
    keys: Option<SubscriptionKeys>,
}

#[derive(Deserialize)]
struct SubscriptionKeys {
    p256dh: String,
    auth: String,
}

/// The seat of `match_id` the request's bearer token holds: a match's own
/// seat token or a campaign seat's (for its current match). A token that
/// holds no seat at all counts as a wrong guess.
async fn seat_of(hub: &Hub, peer: PeerIp, headers: &HeaderMap, match_id: Uuid) -> Result<Seat, Refusal> {
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| Refusal::new(Code::NoToken, "send the seat token as Authorization: Bearer <token>"))?;
    hub.peers.check_guess(peer)?;
    match hub.store.seat_by_token(&secret::token_hash(token)).await {
        Ok(Some((id, seat))) if id == match_id => Ok(seat),
        Ok(found) => {
            if found.is_none() {
                hub.peers.wrong(peer);
            }
            Err(Refusal::new(Code::BadToken, "not a seat token of this match"))
        }
        Err(StoreError::NotStarted) => Err(Refusal::new(Code::BadToken, "not a seat token of this match")),
        Err(e) => Err(e.into()),
    }
}

/// `POST /api/matches/{id}/push`: keep the bearer's browser subscription
/// for its seat (201; again: its keys are replaced).
async fn subscribe(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(match_id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<SubscriptionBody>, JsonRejection>,
) -> Result<StatusCode, Refusal> {
    let match_id = parse_id(&match_id, "match")?;
    let seat = seat_of(&hub, peer, &headers, match_id).await?;
    let req = body(req)?;
    let keys =
        req.keys.ok_or_else(|| Refusal::new(Code::BadSubscription, "the subscription has no keys (p256dh, auth)"))?;
    let sub = PushSubscription { endpoint: req.endpoint, p256dh: keys.p256dh, auth: keys.auth };
    hub.push.check(&sub).map_err(|m| Refusal::new(Code::BadSubscription, m))?;
    hub.store.add_push_subscription(match_id, seat, &sub, crate::push::now_ms()).await?;
    tracing::info!(%match_id, seat, "push subscription kept");
    Ok(StatusCode::CREATED)
}

#[derive(Deserialize)]
struct EndpointBody {
    endpoint: String,
}

/// `DELETE /api/matches/{id}/push`: forget the bearer's subscription at
/// `endpoint` (204, also when there was none: the page's wish holds).
async fn unsubscribe(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(match_id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<EndpointBody>, JsonRejection>,
) -> Result<StatusCode, Refusal> {
    let match_id = parse_id(&match_id, "match")?;
    let seat = seat_of(&hub, peer, &headers, match_id).await?;
    let req = body(req)?;
    if hub.store.remove_push_subscription(match_id, seat, &req.endpoint).await? {
        tracing::info!(%match_id, seat, "push subscription removed");
    }
    Ok(StatusCode::NO_CONTENT)
}
