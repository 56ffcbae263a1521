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
//! The nodes reach each other at their `--peer-url` (their names on the
//! nodes' own network behind a front), players at their `--public-url`.

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::{self, client::IntoClientRequest};
use uuid::Uuid;

use crate::{hub::Hub, limits::PeerIp};

/// The match a socket's query names (`match=ID`), if any.
pub fn match_of(query: Option<&str>) -> Option<Uuid> {
    query?.split('&').find_map(|pair| pair.strip_prefix("match=")).and_then(|id| Uuid::parse_str(id).ok())
}

/// Where to relay a socket for `match_id`: the URL at which the other
/// nodes reach the live node holding its lease (`--peer-url`), when that
/// is another node. `None` outside cluster mode, when the lease is free or
/// expired, or this node's.
pub async fn holder(hub: &Hub, match_id: Uuid) -> Option<String> {
    let me = hub.node()?;
    let lease = hub.store.lease(match_id).await.ok()??;
    (lease.expires_in_ms > 0 && lease.node != me).then(|| format!("{}?match={match_id}", lease.peer_url))
}

type Upstream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Open the relay's socket to the holder at `url`, saying whom it relays.
async fn connect(url: &str, peer: PeerIp) -> Result<Upstream, String> {
    let upstream = async {
        let mut req = url.into_client_request()?;
        if let Some(ip) = peer.0 {
            if let Ok(v) = ip.to_string().parse() {
                req.headers_mut().insert("x-forwarded-for", v);
            }
        }
        tokio_tungstenite::connect_async(req).await
    };
    // A node that died with its address gone answers nothing at all.
    match tokio::time::timeout(std::time::Duration::from_secs(2), upstream).await {
        Ok(Ok((ws, _))) => Ok(ws),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("no answer in 2 s".into()),
    }
}

/// Copy frames both ways between `client` and the node holding
/// `match_id` (first tried at `url`) until either side closes or this
/// node shuts down.
///
/// When the holder cannot be reached (it just died, or it is being
/// restarted) the socket waits, its `hello` unread, until the lease expires
/// or moves: then the room is claimed here, or the socket relayed to the
/// new holder. A browser cannot follow a redirect, so this wait (at most
/// the rest of the lease, `--lease-ms`) is the whole of what its player
/// sees of a node's death. A holder alive but out of reach (nodes that
/// cannot reach each other's `--peer-url`) is served here once the wait
/// is over: the `hello` is then answered `room_elsewhere`.
pub async fn relay(client: crate::upgrade::Socket, match_id: Uuid, url: String, peer: PeerIp, hub: Arc<Hub>) {
    let give_up = tokio::time::Instant::now()
        + std::time::Duration::from_millis(hub.config.lease_ms)
        + std::time::Duration::from_secs(2);
    let mut url = url;
    let mut first_failure = true;
    let upstream = loop {
        match connect(&url, peer).await {
            Ok(ws) => break Some(ws),
            Err(why) => {
                if first_failure {
                    tracing::info!(%url, error = %why, "the match's node cannot be reached; waiting for its lease");
                    first_failure = false;
                }
                if tokio::time::Instant::now() >= give_up {
                    tracing::warn!(%url, error = %why, "the match's node stayed out of reach while holding its lease (check --peer-url); serving the socket here");
                    break None;
                }
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                match holder(&hub, match_id).await {
                    Some(next) => url = next,
                    None => break None,
                }
            }
        }
    };
    let Some(upstream) = upstream else {
        crate::connection::run(client, hub, peer).await;
        return;
    };
    let (mut to_client, mut from_client) = client.split();
    tracing::debug!(%url, "relaying");
    hub.metrics.relayed();
    let (mut to_holder, mut from_holder) = upstream.split();
    // Frames pass as they are; a close ends both ways.
    let up = async {
        while let Some(Ok(m)) = from_client.next().await {
            if m.is_close() || to_holder.send(m).await.is_err() {
                break;
            }
        }
        let _ = to_holder.close().await;
    };
    let down = async {
        while let Some(Ok(m)) = from_holder.next().await {
            if let tungstenite::Message::Close(c) = m {
                let _ = to_client.send(tungstenite::Message::Close(c)).await;
                return;
            }
            if matches!(m, tungstenite::Message::Frame(_)) {
                continue;
            }
            if to_client.send(m).await.is_err() {
                return;
            }
        }
        let _ = to_client.send(tungstenite::Message::Close(None)).await;
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
