//! The door: accepting TCP connections and serving HTTP on them until a
//! WebSocket upgrade takes a connection over, with nothing waiting forever.
//!
//! `axum::serve` reads headers with no deadline and takes any number of
//! connections from one address, so sockets that never send a request (or
//! send it a byte a minute: slowloris) were held forever, and the
//! per-address WebSocket cap came only after the upgrade. Here each
//! connection, until it is upgraded:
//! - holds a place under its address's cap of connections not yet upgraded
//!   (`--max-pending-per-ip`; [`crate::limits::Peers::arrive`]): past it the
//!   socket is closed at once, before a byte is read;
//! - must send a whole request's headers within `--header-timeout-secs`,
//!   the first one and every next one on a kept-alive connection alike
//!   (hyper's header read timeout runs whenever the connection waits for a
//!   request), or it is closed.
//!
//! The client's address for the per-address limits is the TCP peer's,
//! unless that peer is a trusted proxy (`--trusted-proxy`): then it is the
//! address the proxy says it served ([`client_of`]). A trusted proxy's own
//! connections are not capped here (it holds everyone's).

use std::{
    convert::Infallible,
    future::Future,
    net::{IpAddr, SocketAddr},
    sync::Arc,
    time::Duration,
};

use axum::{extract::ConnectInfo, http::HeaderMap, Router};
use hyper::{body::Incoming, server::conn::http1, Request};
use hyper_util::rt::{TokioIo, TokioTimer};
use ipnet::IpNet;
use tokio::{
    net::TcpListener,
    sync::{mpsc, watch},
};
use tower_service::Service as _;

use crate::{
    limits::{ClientIp, Peers},
    metrics::Metrics,
};

/// How the door treats connections before their upgrade.
#[derive(Clone)]
pub struct Door {
    /// Per-address counts: connections not yet upgraded, among others.
    pub peers: Arc<Peers>,
    /// How long a connection may take to send a request's headers, or wait
    /// idle between two requests.
    pub header_timeout: Duration,
    /// Proxies whose `X-Forwarded-For` / `Forwarded` is believed.
    pub trusted: Arc<[IpNet]>,
    pub metrics: Arc<Metrics>,
}

impl Door {
    fn is_trusted(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.trusted.iter().any(|net| net.contains(&ip))
    }
}

/// An IPv4-mapped IPv6 address as the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client a trusted proxy served: the rightmost address of
/// `X-Forwarded-For` (every such header, in order) that is not itself a
/// trusted proxy, or, without that header, of `Forwarded`'s `for=`. Entries
/// left of it are whatever the client claimed and are never read. `None`
/// when the proxy named no parseable address (the proxy itself is used).
pub fn client_of(headers: &HeaderMap, trusted: &[IpNet]) -> Option<IpAddr> {
    let xff: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let hops: Vec<&str> = if xff.is_empty() {
        headers
            .get_all("forwarded")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|element| {
                element.split(';').find_map(|pair| {
                    let (k, v) = pair.trim().split_once('=')?;
                    k.trim().eq_ignore_ascii_case("for").then(|| v.trim())
                })
            })
            .collect()
    } else {
        xff
    };
    for hop in hops.iter().rev() {
        let ip = canonical(parse_hop(hop)?);
        if !trusted.iter().any(|net| net.contains(&ip)) {
            return Some(ip);
        }
    }
    None
}

/// One hop: `192.0.2.1`, `2001:db8::1`, `"[2001:db8::1]:4711"`, `192.0.2.1:80`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim_matches('"');
    if let Ok(ip) = hop.parse() {
        return Some(ip);
    }
    if let Ok(sa) = hop.parse::<SocketAddr>() {
        return Some(sa.ip());
    }
    hop.strip_prefix('[')?.split(']').next()?.parse().ok()
}

/// Serve `app` on `listener` until `signal` resolves; then stop accepting,
/// ask every connection not yet upgraded to finish its request and close,
/// and wait for them at most `grace`. Upgraded connections are the hub's.
///
/// # Errors
/// Never so far: a failed accept (out of file descriptors) is logged and
/// retried after a pause.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    door: Door,
    signal: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(door.header_timeout).keep_alive(true);
    let (stop_tx, stop) = watch::channel(false);
    // Each connection task holds a sender; when all are gone, so are they.
    let (alive, mut gone) = mpsc::channel::<Infallible>(1);
    tokio::pin!(signal);
    loop {
        let (tcp, addr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // EMFILE and the like: give the open ones time to close.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut signal => break,
        };
        let peer = addr.ip();
        let trusted = door.is_trusted(peer);
        let place = if trusted {
            None
        } else {
            match door.peers.arrive(peer) {
                Some(p) => Some(p),
                None => {
                    door.metrics.connection_dropped("pending_per_address");
                    continue;
                }
            }
        };
        // Frames are small and each is awaited by a player: send them at
        // once instead of letting Nagle's algorithm hold one back for an ACK.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY not set");
        }
        let service = {
            let app = app.clone();
            let trusted_nets = door.trusted.clone();
            hyper::service::service_fn(move |mut req: Request<Incoming>| {
                let client = if trusted { client_of(req.headers(), &trusted_nets).unwrap_or(peer) } else { peer };
                req.extensions_mut().insert(ConnectInfo(addr));
                req.extensions_mut().insert(ClientIp(client));
                let mut app = app.clone();
                async move { app.call(req).await }
            })
        };
        let conn = http.serve_connection(TokioIo::new(tcp), service).with_upgrades();
        let stop = stop.clone();
        let alive = alive.clone();
        let metrics = door.metrics.clone();
        tokio::spawn(async move {
            let _alive = alive;
            // Until the upgrade (or the close), this connection counts as
            // not upgraded yet for its address.
            let _place = place;
            tokio::pin!(conn);
            let stopping = async move {
                let mut stop = stop;
                let _ = stop.wait_for(|s| *s).await;
            };
            let done = tokio::select! {
                done = conn.as_mut() => done,
                () = stopping => {
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = done {
                if e.is_timeout() {
                    metrics.connection_dropped("header_timeout");
                } else {
                    tracing::debug!(error = %e, "HTTP connection ended");
                }
            }
        });
    }
    drop(listener);
    stop_tx.send_replace(true);
    drop(alive);
    if tokio::time::timeout(grace, gone.recv()).await.is_err() {
        tracing::warn!("HTTP requests still open after the grace period");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
        }
        h
    }

    fn nets(s: &[&str]) -> Vec<IpNet> {
        s.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn the_client_is_the_rightmost_address_no_trusted_proxy_added() {
        let trusted = nets(&["10.0.0.0/8"]);
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        // What a client claimed comes first; the front appends what it saw.
        assert_eq!(client_of(&headers(&[("x-forwarded-for", "1.2.3.4, 198.51.100.7")]), &trusted), ip("198.51.100.7"));
        assert_eq!(
            client_of(
                &headers(&[("x-forwarded-for", "1.2.3.4"), ("x-forwarded-for", "198.51.100.7, 10.0.0.2")]),
                &trusted
            ),
            ip("198.51.100.7")
        );
        assert_eq!(
            client_of(&headers(&[("forwarded", r#"for="[2001:db8::1]:4711";proto=http, for=10.1.1.1"#)]), &trusted),
            ip("2001:db8::1")
        );
        // X-Forwarded-For wins over a Forwarded the front passed through.
        assert_eq!(
            client_of(&headers(&[("forwarded", "for=1.2.3.4"), ("x-forwarded-for", "198.51.100.7")]), &trusted),
            ip("198.51.100.7")
        );
        assert_eq!(client_of(&headers(&[("x-forwarded-for", "::ffff:198.51.100.7")]), &trusted), ip("198.51.100.7"));
        assert_eq!(client_of(&headers(&[("x-forwarded-for", "unknown")]), &trusted), None);
        assert_eq!(client_of(&headers(&[]), &trusted), None);
        assert_eq!(client_of(&headers(&[("x-forwarded-for", "10.0.0.3")]), &trusted), None);
    }
}
