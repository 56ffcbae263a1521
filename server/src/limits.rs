//! Per-connection and per-address limits: a token bucket, and the table of
//! client addresses with their open connections, lobby requests and failed
//! guesses (join codes, tokens).
//!
//! Hand-rolled on one mutex over a map: each entry is touched once per
//! connection or lobby request (never per frame), and the open-connection
//! count per address is not a rate a limiter crate would keep.

use std::{
    collections::HashMap,
    net::{IpAddr, Ipv6Addr},
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio::time::Instant;

/// The address a request is counted under, set by the door on every
/// request: the TCP peer's, or the client a trusted proxy names.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

/// A token bucket: `burst` at once, `rate` per second on average.
#[derive(Debug, Clone)]
pub struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Bucket {
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket { tokens: burst, rate, burst, last: Instant::now() }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
    }

    /// Take one token; false when there is none.
    pub fn take(&mut self) -> bool {
        self.refill();
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether a token is there, without taking it.
    fn has(&mut self) -> bool {
        self.refill();
        self.tokens >= 1.0
    }

    fn is_full(&mut self) -> bool {
        self.refill();
        self.tokens >= self.burst
    }
}

/// The per-address limits; 0 turns one off.
#[derive(Debug, Clone, Copy)]
pub struct PeerLimits {
    /// Open WebSocket connections per address.
    pub connections: usize,
    /// Connections per address not yet upgraded to a WebSocket (HTTP
    /// requests under way, kept-alive connections between two).
    pub pending: usize,
    /// Lobby requests that create or take something (create, join) per minute, and in a burst.
    pub lobby_per_min: u32,
    /// Failed join codes and tokens per minute, and in a burst.
    pub failures_per_min: u32,
}

/// Where a request comes from, as far as limits go: an IPv4 address, or an
/// IPv6 /64 (one subscriber usually holds a whole /64, so counting single
/// IPv6 addresses would limit nobody).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PeerKey(IpAddr);

impl From<IpAddr> for PeerKey {
    fn from(ip: IpAddr) -> PeerKey {
        match ip {
            IpAddr::V4(_) => PeerKey(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => PeerKey(IpAddr::V4(v4)),
                None => {
                    let s = v6.segments();
                    PeerKey(IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0)))
                }
            },
        }
    }
}

struct Peer {
    connections: usize,
    pending: usize,
    lobby: Bucket,
    failures: Bucket,
}

/// Every address seen lately, with what it holds and has spent.
pub struct Peers {
    limits: PeerLimits,
    map: Mutex<HashMap<PeerKey, Peer>>,
}

/// Entries kept before idle ones (no connection, buckets full again) are
/// swept out; the sweep runs when the map doubles past this.
const SWEEP_ABOVE: usize = 4096;

/// One connection of an address not yet upgraded, counted until dropped.
pub struct PeerPending {
    peers: Arc<Peers>,
    key: PeerKey,
}

impl Drop for PeerPending {
    fn drop(&mut self) {
        let mut map = self.peers.map.lock().expect("peers lock");
        if let Some(p) = map.get_mut(&self.key) {
            p.pending = p.pending.saturating_sub(1);
        }
    }
}

/// One open connection of an address, counted until dropped.
pub struct PeerConnection {
    peers: Arc<Peers>,
    key: PeerKey,
}

impl Drop for PeerConnection {
    fn drop(&mut self) {
        let mut map = self.peers.map.lock().expect("peers lock");
        if let Some(p) = map.get_mut(&self.key) {
            p.connections = p.connections.saturating_sub(1);
        }
    }
}

impl Peers {
    pub fn new(limits: PeerLimits) -> Arc<Peers> {
        Arc::new(Peers { limits, map: Mutex::new(HashMap::new()) })
    }

    pub fn limits(&self) -> PeerLimits {
        self.limits
    }

    fn with<T>(&self, ip: IpAddr, f: impl FnOnce(&mut Peer) -> T) -> T {
        let per_min = |n: u32| Bucket::new(f64::from(n) / 60.0, f64::from(n.max(1)));
        let mut map = self.map.lock().expect("peers lock");
        if map.len() >= SWEEP_ABOVE * 2 {
            map.retain(|_, p| p.connections > 0 || p.pending > 0 || !p.lobby.is_full() || !p.failures.is_full());
        }
        let peer = map.entry(PeerKey::from(ip)).or_insert_with(|| Peer {
            connections: 0,
            pending: 0,
            lobby: per_min(self.limits.lobby_per_min),
            failures: per_min(self.limits.failures_per_min),
        });
        f(peer)
    }

    /// A place for one more connection from `ip`; `None` when it holds its maximum.
    pub fn connect(self: &Arc<Self>, ip: IpAddr) -> Option<PeerConnection> {
        let max = self.limits.connections;
        let ok = self.with(ip, |p| {
            let ok = max == 0 || p.connections < max;
            if ok {
                p.connections += 1;
            }
            ok
        });
        ok.then(|| PeerConnection { peers: self.clone(), key: PeerKey::from(ip) })
    }

    /// A place for one more connection from `ip` not yet upgraded; `None`
    /// when it holds its maximum of those.
    pub fn arrive(self: &Arc<Self>, ip: IpAddr) -> Option<PeerPending> {
        let max = self.limits.pending;
        let ok = self.with(ip, |p| {
            let ok = max == 0 || p.pending < max;
            if ok {
                p.pending += 1;
            }
            ok
        });
        ok.then(|| PeerPending { peers: self.clone(), key: PeerKey::from(ip) })
    }

    /// Connections from `ip` not yet upgraded.
    pub fn pending(&self, ip: IpAddr) -> usize {
        self.map.lock().expect("peers lock").get(&PeerKey::from(ip)).map_or(0, |p| p.pending)
    }

    /// Spend one lobby request of `ip`; false when it has none left.
    pub fn lobby(&self, ip: IpAddr) -> bool {
        self.limits.lobby_per_min == 0 || self.with(ip, |p| p.lobby.take())
    }

    /// Whether `ip` may try a join code or a token now: it has not used up
    /// its failures.
    pub fn may_guess(&self, ip: IpAddr) -> bool {
        self.limits.failures_per_min == 0 || self.with(ip, |p| p.failures.has())
    }

    /// `ip` named a join code or token that holds nothing.
    pub fn guessed_wrong(&self, ip: IpAddr) {
        if self.limits.failures_per_min > 0 {
            self.with(ip, |p| p.failures.take());
        }
    }

    /// Addresses in the table (for tests of the sweep).
    pub fn tracked(&self) -> usize {
        self.map.lock().expect("peers lock").len()
    }
}

/// The client's address, when the server runs behind its door (as
/// [`crate::serve`] does): the TCP peer's, or the client a trusted proxy
/// names ([`ClientIp`]); `None` for a router driven without
/// it, which then skips the per-address limits.
#[derive(Debug, Clone, Copy)]
pub struct PeerIp(pub Option<IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for PeerIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, _: &S) -> Result<Self, Self::Rejection> {
        if let Some(client) = parts.extensions.get::<ClientIp>() {
            return Ok(PeerIp(Some(client.0)));
        }
        let info = parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>();
        Ok(PeerIp(info.map(|c| c.0.ip())))
    }
}

/// What the lobby says to an address past a limit.
pub fn lobby_refusal(per_min: u32, what: &str) -> crate::refusal::Refusal {
    crate::refusal::Refusal::new(
        crate::refusal::Code::RateLimited,
        format!(
            "too many {what} from your address: at most {per_min} a minute; try again in {} s",
            retry_after(per_min).as_secs()
        ),
    )
}

impl Peers {
    /// Spend a lobby request of `peer`, or the refusal to answer with.
    pub fn check_lobby(&self, peer: PeerIp) -> Result<(), crate::refusal::Refusal> {
        match peer.0 {
            Some(ip) if !self.lobby(ip) => Err(lobby_refusal(self.limits.lobby_per_min, "requests")),
            _ => Ok(()),
        }
    }

    /// Refuse `peer` a guess (join code, token) when it has used up its failures.
    pub fn check_guess(&self, peer: PeerIp) -> Result<(), crate::refusal::Refusal> {
        match peer.0 {
            Some(ip) if !self.may_guess(ip) => {
                Err(lobby_refusal(self.limits.failures_per_min, "wrong join codes or tokens"))
            }
            _ => Ok(()),
        }
    }

    /// Count a wrong guess of `peer`.
    pub fn wrong(&self, peer: PeerIp) {
        if let Some(ip) = peer.0 {
            self.guessed_wrong(ip);
        }
    }
}

/// How long until a bucket of `per_min` per minute has a token again, for
/// a `Retry-After` the client can use.
pub fn retry_after(per_min: u32) -> Duration {
    Duration::from_secs_f64(60.0 / f64::from(per_min.max(1))).max(Duration::from_secs(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[tokio::test(start_paused = true)]
    async fn connections_are_counted_per_address_and_given_back() {
        let peers = Peers::new(PeerLimits { connections: 2, pending: 0, lobby_per_min: 0, failures_per_min: 0 });
        let a = peers.connect(ip("10.0.0.1")).unwrap();
        let _b = peers.connect(ip("10.0.0.1")).unwrap();
        assert!(peers.connect(ip("10.0.0.1")).is_none());
        // Another address has its own count; an IPv4-mapped address is the IPv4 one.
        assert!(peers.connect(ip("10.0.0.2")).is_some());
        assert!(peers.connect(ip("::ffff:10.0.0.1")).is_none());
        drop(a);
        assert!(peers.connect(ip("10.0.0.1")).is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn an_ipv6_slash_64_is_one_peer() {
        let peers = Peers::new(PeerLimits { connections: 1, pending: 0, lobby_per_min: 0, failures_per_min: 0 });
        let _a = peers.connect(ip("2001:db8:1:2::1")).unwrap();
        assert!(peers.connect(ip("2001:db8:1:2:ffff::9")).is_none());
        assert!(peers.connect(ip("2001:db8:1:3::1")).is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn lobby_requests_and_failures_refill_by_the_minute() {
        let peers = Peers::new(PeerLimits { connections: 0, pending: 0, lobby_per_min: 3, failures_per_min: 2 });
        let me = ip("10.0.0.1");
        assert!((0..3).all(|_| peers.lobby(me)));
        assert!(!peers.lobby(me));
        assert!(peers.lobby(ip("10.0.0.2")));
        peers.guessed_wrong(me);
        assert!(peers.may_guess(me));
        peers.guessed_wrong(me);
        assert!(!peers.may_guess(me));
        // A minute gives back what a minute allows.
        tokio::time::advance(Duration::from_secs(30)).await;
        assert!(peers.may_guess(me));
        assert!(peers.lobby(me));
        assert!(!peers.lobby(me));
    }

    #[tokio::test(start_paused = true)]
    async fn zero_turns_a_limit_off() {
        let peers = Peers::new(PeerLimits { connections: 0, pending: 0, lobby_per_min: 0, failures_per_min: 0 });
        let me = ip("10.0.0.1");
        let held: Vec<_> = (0..1000).map(|_| peers.connect(me).unwrap()).collect();
        assert!((0..1000).all(|_| peers.lobby(me)));
        (0..1000).for_each(|_| peers.guessed_wrong(me));
        assert!(peers.may_guess(me));
        drop(held);
    }

    #[tokio::test(start_paused = true)]
    async fn idle_addresses_are_swept() {
        let peers = Peers::new(PeerLimits { connections: 10, pending: 0, lobby_per_min: 10, failures_per_min: 10 });
        let held = peers.connect(ip("10.9.9.9")).unwrap();
        for i in 0..(SWEEP_ABOVE * 2) as u32 {
            assert!(peers.lobby(IpAddr::from(i.to_be_bytes())));
        }
        // Their buckets refill; the next new address sweeps them out, but
        // not the one with an open connection.
        tokio::time::advance(Duration::from_secs(60)).await;
        assert!(peers.lobby(ip("10.8.8.8")));
        assert_eq!(peers.tracked(), 2);
        drop(held);
    }
}
