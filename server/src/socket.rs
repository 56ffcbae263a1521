//! `GET /ws`: who may open a socket (origin, per-address and server-wide
//! caps, shutdown), and whether its match is played here
//! ([`crate::connection::run`]) or on another node of a cluster
//! ([`crate::relay`]).

use std::sync::{
    atomic::{AtomicU64, Ordering},
    Arc,
};

use axum::{
    extract::{RawQuery, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use tracing::Instrument;

use crate::{
    connection::run,
    hub::Hub,
    limits::PeerIp,
    refusal::{Code, Refusal},
    upgrade::{Socket, Upgrade},
};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Bytes read from a socket at a time; larger frames are read in pieces.
/// tungstenite zeroes the whole buffer before each read, and every
/// connection keeps it: a client's frames (an action, a hello, a duel's
/// creation) are a few hundred bytes.
const READ_BUFFER: usize = 2 * 1024;

/// Connection ids for log spans (never the token: it is a password).
static NEXT_CONNECTION: AtomicU64 = AtomicU64::new(1);

/// `GET /ws`. Refused before the upgrade, with an error body, when the
/// browser's origin is not allowed, when shutting down, or at the
/// connection limit.
pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    ws: Upgrade,
) -> Response {
    // The status is named here: `too_many_connections` is 503 for the
    // server's limit but 429 for an address's.
    let refuse = |status: StatusCode, code: Code, message: String| {
        (status, Json(Refusal::new(code, message).body())).into_response()
    };
    // Only browsers send an Origin; native clients (the `athlas` CLI) do not.
    if let Some(origin) = headers.get(header::ORIGIN) {
        let allowed = &hub.config.allowed_origins;
        let origin = origin.to_str().unwrap_or("");
        if !allowed.is_empty() && !allowed.iter().any(|a| a == "*" || a == origin) {
            return refuse(StatusCode::FORBIDDEN, Code::OriginNotAllowed, format!("origin {origin:?} is not allowed"));
        }
    }
    let peer_guard = match peer.0 {
        Some(ip) => match hub.peers.connect(ip) {
            Some(g) => Some(g),
            None => {
                return refuse(
                    StatusCode::TOO_MANY_REQUESTS,
                    Code::TooManyConnections,
                    format!(
                        "your address holds its maximum of {} connections; close one first",
                        hub.config.max_connections_per_ip
                    ),
                )
            }
        },
        None => None,
    };
    let Some(guard) = hub.connection_guard() else {
        return if hub.is_shutting_down() {
            refuse(StatusCode::SERVICE_UNAVAILABLE, Code::ShuttingDown, "the server is shutting down".into())
        } else {
            refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                Code::TooManyConnections,
                format!("this server holds its maximum of {} connections; try later", hub.config.max_connections),
            )
        };
    };
    // Frames a little over the limit get a polite error frame; frames far
    // over it are cut off by the WebSocket layer itself.
    let hard_limit = (hub.config.max_frame_bytes * 16).max(1 << 20);
    // Cluster mode: a match another live node plays is relayed there.
    let relay_to = match crate::relay::match_of(query.as_deref()) {
        Some(id) if hub.node().is_some() => crate::relay::holder(&hub, id).await.map(|url| (id, url)),
        _ => None,
    };
    // A root span: nothing a connection logs belongs to the request that
    // upgraded it, and no room it loads logs under it (rooms have their own).
    let span = tracing::info_span!(
        parent: None,
        "conn",
        id = NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed),
        match_id = tracing::field::Empty,
        seat = tracing::field::Empty
    );
    // Clients send small frames: the default 128 KiB read buffer is zeroed
    // on every read (a tenth of the server's CPU under load) and held by
    // every idle connection.
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(hard_limit))
        .max_frame_size(Some(hard_limit));
    ws.on_upgrade(config, move |socket: Socket| {
        async move {
            let _guards = (guard, peer_guard);
            match relay_to {
                Some((id, url)) => Box::pin(crate::relay::relay(socket, id, url, peer, hub)).await,
                None => run(socket, hub.clone(), peer).await,
            }
        }
        .instrument(span)
    })
}
