//! Idle tables for scale figures: `--idle-matches M` duels whose two seats
//! are connected and never act, and `--idle N` spectator connections
//! spread over them. What a server holds for a table nobody is playing at
//! this moment (a correspondence game, a party between turns) is what
//! bounds how many tables one machine keeps; the server's resident memory
//! is read before and after each step.

use std::time::Duration;

use athlas_protocol::process;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::{tungstenite::Message, MaybeTlsStream, WebSocketStream};

use athlas_client::net::{Lobby, ServerAddr};

/// Connections opened at once (the server's accept queue stays short).
const AT_ONCE: usize = 256;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The idle tables and connections a run holds, and what they cost.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct IdleReport {
    /// Idle matches with both seats connected.
    pub matches: usize,
    /// Connections that got their welcome and are held (seats + spectators).
    pub connections: usize,
    /// Connections refused or failed.
    pub failed: usize,
    /// Server RSS before any idle table, after the matches, after the
    /// spectators (bytes).
    pub rss: [Option<f64>; 3],
}

impl IdleReport {
    /// Server memory per idle match (two seats connected), in bytes.
    pub fn per_match(&self) -> Option<f64> {
        (self.matches > 0).then(|| Some((self.rss[1]? - self.rss[0]?) / self.matches as f64)).flatten()
    }

    /// Server memory per extra idle (spectator) connection, in bytes.
    pub fn per_connection(&self) -> Option<f64> {
        let spectators = self.connections.saturating_sub(2 * self.matches);
        (spectators > 0).then(|| Some((self.rss[2]? - self.rss[1]?) / spectators as f64)).flatten()
    }
}

impl std::fmt::Display for IdleReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kib = |b: Option<f64>| b.map_or("not measured".to_owned(), |b| format!("{:.1} KiB", b / 1024.0));
        writeln!(
            f,
            "idle:           {} matches, {} connections held, {} failed",
            self.matches, self.connections, self.failed
        )?;
        writeln!(f, "idle memory:    {} per idle match (two seats connected)", kib(self.per_match()))?;
        write!(f, "                {} per idle spectator connection", kib(self.per_connection()))
    }
}

/// What stays open until the run ends: dropping it closes every connection.
pub struct Held {
    sockets: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for Held {
    fn drop(&mut self) {
        for s in &self.sockets {
            s.abort();
        }
    }
}

async fn server_rss(lobby: &Lobby) -> Option<f64> {
    process::scrape(&lobby.metrics().await.ok()?, process::RESIDENT_BYTES)
}

/// Connect, send `first`, wait for the welcome, then keep the socket open
/// (answering the server's pings) until aborted.
async fn hold(addr: String, first: Value) -> Option<tokio::task::JoinHandle<()>> {
    let (mut ws, _): (Ws, _) =
        tokio_tungstenite::connect_async_with_config(addr, Some(athlas_client::net::ws_config()), true).await.ok()?;
    ws.send(Message::text(first.to_string())).await.ok()?;
    let welcome = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(Ok(m)) = ws.next().await {
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(&t).ok()?;
                return Some(v["type"] == "welcome");
            }
        }
        None
    })
    .await
    .ok()
    .flatten()?;
    if !welcome {
        return None;
    }
    Some(tokio::spawn(async move { while let Some(Ok(_)) = ws.next().await {} }))
}

/// Open every frame of `firsts`, `AT_ONCE` at a time; the sockets held and
/// how many failed.
async fn hold_all(addr: &ServerAddr, firsts: Vec<Value>) -> (Vec<tokio::task::JoinHandle<()>>, usize) {
    let mut held = Vec::new();
    let mut failed = 0;
    let mut pending = tokio::task::JoinSet::new();
    for first in firsts {
        if pending.len() >= AT_ONCE {
            match pending.join_next().await {
                Some(Ok(Some(h))) => held.push(h),
                _ => failed += 1,
            }
        }
        pending.spawn(hold(addr.ws(), first));
    }
    while let Some(r) = pending.join_next().await {
        match r {
            Ok(Some(h)) => held.push(h),
            _ => failed += 1,
        }
    }
    (held, failed)
}

/// Raise this process's open-file limit to its hard limit, so that
/// thousands of sockets fit without the user running `ulimit` by hand.
pub fn raise_file_limit() -> Option<u64> {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return None;
        }
        if lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max;
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) != 0 {
                return None;
            }
        }
        // rlim_t is u64 on Linux but not on every platform.
        #[allow(clippy::unnecessary_cast)]
        Some(lim.rlim_cur as u64)
    }
}

/// Create `matches` idle duels with both seats connected, then `spectators`
/// watchers spread over them (one match is made for them if `matches` is 0).
///
/// # Errors
/// The lobby refuses to create or join a match.
pub async fn open(
    lobby: &Lobby,
    addr: &ServerAddr,
    matches: usize,
    spectators: usize,
) -> anyhow::Result<(IdleReport, Held)> {
    let mut report = IdleReport { rss: [server_rss(lobby).await, None, None], ..IdleReport::default() };
    let tables = if matches == 0 && spectators > 0 { 1 } else { matches };
    let mut seats = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..tables {
        let created = lobby.create("duel", json!({}), false).await?;
        let joined = lobby.join(&created.join_code).await?;
        ids.push(created.match_id.clone());
        for token in [created.token, joined.token] {
            // An idle seat needs no legal lists.
            seats.push(json!({"type": "hello", "token": token, "legal": false}));
        }
    }
    let (mut sockets, failed) = hold_all(addr, seats).await;
    report.matches = tables;
    report.failed = failed;
    // Let rooms settle (snapshots, first frames) before reading memory.
    tokio::time::sleep(Duration::from_millis(500)).await;
    report.rss[1] = server_rss(lobby).await;
    let watchers =
        (0..spectators).map(|i| json!({"type": "watch", "match_id": ids[i % ids.len().max(1)]})).collect::<Vec<_>>();
    let (more, failed) = hold_all(addr, watchers).await;
    sockets.extend(more);
    report.failed += failed;
    report.connections = sockets.len();
    tokio::time::sleep(Duration::from_millis(500)).await;
    report.rss[2] = server_rss(lobby).await;
    Ok((report, Held { sockets }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_per_idle_match_and_connection() {
        let r =
            IdleReport { matches: 100, connections: 1200, failed: 0, rss: [Some(40e6), Some(46.4e6), Some(56.64e6)] };
        assert_eq!(r.per_match(), Some(64_000.0));
        assert_eq!(r.per_connection(), Some(10_240.0));
        let text = r.to_string();
        assert!(text.contains("100 matches, 1200 connections held, 0 failed"), "{text}");
        assert!(text.contains("62.5 KiB per idle match"), "{text}");
        assert!(text.contains("10.0 KiB per idle spectator connection"), "{text}");
        let none = IdleReport::default();
        assert_eq!((none.per_match(), none.per_connection()), (None, None));
    }

    #[test]
    fn the_file_limit_is_at_least_what_it_was() {
        let before = std::fs::read_to_string("/proc/self/limits").ok();
        if let (Some(_), Some(now)) = (before, raise_file_limit()) {
            assert!(now >= 1024, "{now}");
        }
    }
}
