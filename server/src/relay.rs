//! Cluster mode: a socket that names a match another live node plays
//! (`/ws?match=ID`, the lease row says so) is relayed to that node, one
//! hop, frame for frame, instead of being told `room_elsewhere`: a browser,
//! which may only open sockets to its page's origin, reaches its match
//! through whichever node the front sent it to. The holder applies every
//! rule and limit as for any socket; the relay only copies frames (and
//! tells the holder, in `X-Forwarded-For`, whom it relays).
//!
//! A socket that names no match, or one whose lease is free, expired or
//! this node's, is this node's as before (it claims the room on `hello`).

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest};
use uuid::Uuid;

use crate::{hub::Hub, limits::PeerIp};

/// The match a socket's query names (`match=ID`), if any.
pub fn match_of(query: Option<&str>) -> Option<Uuid> {
    query?.split('&').find_map(|pair| pair.strip_prefix("match=")).and_then(|id| Uuid::parse_str(id).ok())
}

/// Where to relay a socket for `match_id`: the WebSocket URL of the live
/// node holding its lease, when that is another node. `None` outside
/// cluster mode, when the lease is free or expired, or this node's.
pub async fn holder(hub: &Hub, match_id: Uuid) -> Option<String> {
    let me = hub.node()?;
    let lease = hub.store.lease(match_id).await.ok()??;
    (lease.expires_in_ms > 0 && lease.node != me).then(|| format!("{}?match={match_id}", lease.url))
}

/// Copy frames both ways between `client` and the node at `url` until
/// either side closes or this node shuts down. When the holder cannot be
/// reached (nodes whose `--public-url` only players can reach, a holder
/// that just died) the socket is served here as any other: a `hello` is
/// answered `room_elsewhere` with the holder's address, or the room is
/// claimed once the lease expired.
pub async fn relay(client: WebSocket, url: String, peer: PeerIp, hub: Arc<Hub>) {
    let upstream = async {
        let mut req = url.as_str().into_client_request()?;
        if let Some(ip) = peer.0 {
            if let Ok(v) = ip.to_string().parse() {
                req.headers_mut().insert("x-forwarded-for", v);
            }
        }
        tokio_tungstenite::connect_async(req).await
    };
    let upstream = match tokio::time::timeout(std::time::Duration::from_secs(5), upstream).await {
        Ok(Ok((ws, _))) => ws,
        other => {
            let why = match other {
                Ok(Err(e)) => e.to_string(),
                _ => "no answer in 5 s".into(),
            };
            tracing::info!(%url, error = %why, "the match's node cannot be reached; serving the socket here");
            crate::connection::run(client, hub, peer).await;
            return;
        }
    };
    let (mut to_client, mut from_client) = client.split();
    tracing::debug!(%url, "relaying");
    hub.metrics.relayed();
    let (mut to_holder, mut from_holder) = upstream.split();
    let up = async {
        while let Some(Ok(m)) = from_client.next().await {
            let m = match m {
                Message::Text(t) => tungstenite::Message::text(t.as_str()),
                Message::Binary(b) => tungstenite::Message::binary(b),
                Message::Ping(p) => tungstenite::Message::Ping(p),
                Message::Pong(p) => tungstenite::Message::Pong(p),
                Message::Close(_) => break,
            };
            if to_holder.send(m).await.is_err() {
                break;
            }
        }
        let _ = to_holder.close().await;
    };
    let down = async {
        while let Some(Ok(m)) = from_holder.next().await {
            let m = match m {
                tungstenite::Message::Text(t) => Message::Text(t.as_str().into()),
                tungstenite::Message::Binary(b) => Message::Binary(b),
                tungstenite::Message::Ping(p) => Message::Ping(p),
                tungstenite::Message::Pong(p) => Message::Pong(p),
                tungstenite::Message::Close(c) => {
                    let frame = c.map(|c| CloseFrame { code: c.code.into(), reason: c.reason.as_str().into() });
                    let _ = to_client.send(Message::Close(frame)).await;
                    return;
                }
                tungstenite::Message::Frame(_) => continue,
            };
            if to_client.send(m).await.is_err() {
                return;
            }
        }
        let _ = to_client.send(Message::Close(None)).await;
    };
    let mut shutdown = hub.shutdown_signal();
    tokio::select! {
        () = up => {}
        () = down => {}
        _ = shutdown.wait_for(|s| *s) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_is_read_from_the_query() {
        let id = Uuid::new_v4();
        assert_eq!(match_of(Some(&format!("match={id}"))), Some(id));
        assert_eq!(match_of(Some(&format!("x=1&match={id}"))), Some(id));
        assert_eq!(match_of(Some("match=nope")), None);
        assert_eq!(match_of(None), None);
    }
}
