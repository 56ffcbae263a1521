//! A crowd at human pace, for the figure "how many players one server
//! holds": `--crowd` plays M duels whose seats each think a time drawn
//! from `--think MIN-MAX` before every action (a person, not a bot at
//! full speed), a match that ends is replaced at once, and `--spectators
//! N` watch them (each follows its slot's current match, and reads frames
//! without parsing them). The sockets are opened from `--source-addrs`
//! round-robin, since one local address has only `ip_local_port_range`'s
//! ephemeral ports (about 28,000 by default) toward one server port.
//!
//! The run has three phases: the seats come in at `--ramp` connections a
//! second, then the spectators at the same rate (the server's resident
//! memory is read before, between and after, for what a live seat and a
//! spectator cost), then the window: `--duration` seconds from the
//! moment the server counts every connection (or the ramp's time and a
//! margin are up). Only actions acknowledged in the window count toward
//! actions/s and the ack latencies; errors count over the whole run.

use std::{
    net::IpAddr,
    sync::{
        atomic::{AtomicU64, AtomicUsize, Ordering},
        Arc, OnceLock,
    },
    time::{Duration, Instant},
};

use athlas_client::{
    bot::Bot,
    net::{self, Backoff, Identity, Link, Lobby, ServerAddr},
};
use athlas_engine::duel::card::Catalogue;
use athlas_protocol::process;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::{watch, Semaphore};
use tokio_tungstenite::tungstenite::Message;

use super::{idle, mix, play_seat, LoadConfig, LoadGame, Reading, Report, SeatOpts};

/// Connections one crowd may hold (seats and spectators).
pub const MAX_CONNECTIONS: usize = 250_000;
/// Matches being set up at once (a create and a join each): the lobby
/// is not the thing measured, and a burst of them would open as many
/// HTTP connections from one address.
const SETUPS_AT_ONCE: usize = 32;
/// Time the ramp may take beyond its planned rate (this, and half the
/// plan), before the window starts anyway (and says how many
/// connections it has).
const RAMP_MARGIN: Duration = Duration::from_secs(30);
/// The window ends this long before the deadline, so that the last
/// reading sees every connection still open.
const WINDOW_TAIL: Duration = Duration::from_secs(2);
/// A spectator's wait for its welcome, and between two attempts.
const WELCOME_WAIT: Duration = Duration::from_secs(30);
const RETRY: Duration = Duration::from_secs(1);

/// What makes a load a crowd.
#[derive(Debug, Clone, PartialEq)]
pub struct Crowd {
    /// Each seat thinks a time drawn uniformly from this range before each action.
    pub think: (Duration, Duration),
    /// Spectators over the live matches.
    pub spectators: usize,
    /// Local addresses the sockets are opened from, in turn (empty: the
    /// kernel's choice).
    pub sources: Vec<IpAddr>,
    /// Connections opened per second during the ramp.
    pub ramp: u32,
}

/// How a crowd's seat thinks, and which of its acks count: a think time
/// drawn per action, acks counted inside the window only.
#[derive(Debug, Clone)]
pub(super) struct Pace {
    min: Duration,
    max: Duration,
    rng: u64,
    window: Arc<OnceLock<(Instant, Instant)>>,
}

impl Pace {
    /// The next think time, uniform in `min..=max`.
    pub(super) fn think(&mut self) -> Duration {
        self.rng = mix(self.rng);
        let span = self.max.saturating_sub(self.min).as_micros() as u64;
        self.min + Duration::from_micros(if span == 0 { 0 } else { self.rng % (span + 1) })
    }

    /// Whether an ack now falls inside the measured window.
    pub(super) fn counts(&self) -> bool {
        self.window.get().is_some_and(|(from, to)| (*from..*to).contains(&Instant::now()))
    }
}

/// What a crowd held and what it cost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CrowdReport {
    /// Seats (two per match) and spectators asked for.
    pub seats: usize,
    pub spectators: usize,
    /// The server's `athlas_connections` before the crowd, with the
    /// seats, when the window opened (spectators in) and at its end.
    pub connections: [Option<f64>; 4],
    /// Server RSS before the crowd, with the seats, with the spectators
    /// too, and at the window's end (bytes).
    pub rss: [Option<f64>; 4],
    /// Seconds the seats' and the spectators' ramps took.
    pub ramp_secs: [f64; 2],
    /// Spectators welcomed at the window's end, and the frames they read.
    pub watching: usize,
    pub spectator_frames: u64,
    /// Bytes of the updates they read, and the largest frame (a welcome included).
    pub spectator_bytes: u64,
    pub largest_frame: usize,
    /// This generator's resident memory at the window's end (bytes).
    pub own_rss: Option<f64>,
    /// Source addresses used.
    pub sources: usize,
}

impl CrowdReport {
    /// Server memory between two readings over the connections added
    /// between them (the server's own count).
    fn per_added(&self, from: usize, to: usize) -> Option<f64> {
        let n = self.connections[to]? - self.connections[from]?;
        (n > 0.0).then(|| Some((self.rss[to]? - self.rss[from]?) / n)).flatten()
    }

    /// Server memory per live seat (its share of the match, its socket),
    /// as the seats came in (their matches playing meanwhile).
    pub fn per_seat(&self) -> Option<f64> {
        self.per_added(0, 1)
    }

    /// Server memory per spectator connection.
    pub fn per_spectator(&self) -> Option<f64> {
        self.per_added(1, 2)
    }

    /// The server's whole resident memory at the end over the connections
    /// it then held: everything included (the process's base, the rooms,
    /// the store's caches).
    pub fn per_connection(&self) -> Option<f64> {
        let n = self.connections[3]?;
        (n > 0.0).then(|| Some(self.rss[3]? / n)).flatten()
    }
}

impl std::fmt::Display for CrowdReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = |c: Option<f64>| c.map_or("-".to_owned(), |c| format!("{c:.0}"));
        let kib = |b: Option<f64>| b.map_or("-".to_owned(), |b| format!("{:.1} KiB", b / 1024.0));
        let mb = |b: Option<f64>| b.map_or("-".to_owned(), |b| format!("{:.1} MB", b / 1e6));
        writeln!(
            f,
            "crowd:          {} seats + {} spectators asked, from {} source addresses; ramp {:.0} s + {:.0} s",
            self.seats,
            self.spectators,
            self.sources.max(1),
            self.ramp_secs[0],
            self.ramp_secs[1]
        )?;
        writeln!(
            f,
            "connections:    {} at the window's start, {} at its end (the server's count); {} spectators watching, {} updates read ({:.1} KB each), the largest frame {:.1} KB",
            n(self.connections[2]),
            n(self.connections[3]),
            self.watching,
            self.spectator_frames,
            self.spectator_bytes as f64 / self.spectator_frames.max(1) as f64 / 1e3,
            self.largest_frame as f64 / 1e3
        )?;
        writeln!(
            f,
            "server RSS:     {} before, {} with the seats, {} with the spectators, {} at the end",
            mb(self.rss[0]),
            mb(self.rss[1]),
            mb(self.rss[2]),
            mb(self.rss[3])
        )?;
        writeln!(
            f,
            "memory:         {} per live seat, {} per spectator, {} per connection all in",
            kib(self.per_seat()),
            kib(self.per_spectator()),
            kib(self.per_connection())
        )?;
        write!(f, "load RSS:       {} (this generator)", mb(self.own_rss))
    }
}

/// What all tasks of a crowd share.
struct Shared {
    addr: ServerAddr,
    sources: Vec<IpAddr>,
    next_source: AtomicUsize,
    setups: Semaphore,
    window: Arc<OnceLock<(Instant, Instant)>>,
    watching: AtomicUsize,
    frames: AtomicU64,
    bytes: AtomicU64,
    largest: AtomicUsize,
    /// Failures of spectators (refused, dropped), by code; seats' are in their reports.
    failures: std::sync::Mutex<std::collections::BTreeMap<String, u64>>,
}

impl Shared {
    /// The next source address, round-robin (`None`: the kernel's choice).
    fn source(&self) -> Option<IpAddr> {
        (!self.sources.is_empty())
            .then(|| self.sources[self.next_source.fetch_add(1, Ordering::Relaxed) % self.sources.len()])
    }

    fn fail(&self, code: &str) {
        *self.failures.lock().expect("failures").entry(code.to_owned()).or_default() += 1;
    }
}

/// The ephemeral ports one source address has toward one server port.
fn ephemeral_ports() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range").ok()?;
    let mut it = text.split_whitespace().map(|s| s.parse::<usize>().ok());
    let (lo, hi) = (it.next()??, it.next()??);
    Some(hi.saturating_sub(lo) + 1)
}

/// This process's resident memory, from `/proc/self/statm` (pages of 4 KiB).
fn own_rss() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096.0)
}

async fn server_gauges(lobby: &Lobby) -> (Option<f64>, Option<f64>) {
    let text = lobby.metrics().await.unwrap_or_default();
    (process::scrape(&text, "athlas_connections"), process::scrape(&text, process::RESIDENT_BYTES))
}

/// Wait until the server counts `target` connections or `until` passes;
/// the server's count and RSS then.
async fn settle(lobby: &Lobby, target: usize, until: tokio::time::Instant) -> (Option<f64>, Option<f64>) {
    loop {
        let (conns, rss) = server_gauges(lobby).await;
        if conns.is_some_and(|c| c >= target as f64) || tokio::time::Instant::now() >= until {
            return (conns, rss);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Run a crowd (duels only).
///
/// # Errors
/// A remote server, unbounded settings, too few ports or files for the
/// connections asked, or a lobby that does not answer.
pub async fn run(cfg: LoadConfig, crowd: Crowd) -> anyhow::Result<(Report, CrowdReport)> {
    anyhow::ensure!(cfg.addr.is_loopback(), "the load generator runs against a server on this machine only (loopback)");
    anyhow::ensure!(cfg.game == LoadGame::Duel, "a crowd plays duels");
    anyhow::ensure!(cfg.soak.is_none(), "a crowd is not a soak");
    let total = 2 * cfg.matches + crowd.spectators;
    anyhow::ensure!(
        cfg.matches >= 1 && total <= MAX_CONNECTIONS,
        "a crowd is 1 match or more, at most {MAX_CONNECTIONS} connections"
    );
    anyhow::ensure!(!cfg.duration.is_zero() && cfg.duration <= super::MAX_DURATION, "--duration must be 1 s to 1 h");
    anyhow::ensure!(
        crowd.think.0 <= crowd.think.1 && crowd.think.1 <= Duration::from_secs(60),
        "--think must be MIN-MAX with MAX at most 60 s"
    );
    anyhow::ensure!(crowd.ramp >= 1, "--ramp must be at least 1 connection a second");
    if let Some(ports) = ephemeral_ports() {
        // Each address keeps some ports for whatever else runs, and
        // replaced matches leave closed sockets in TIME_WAIT a minute.
        let per_source = total.div_ceil(crowd.sources.len().max(1));
        anyhow::ensure!(
            per_source + 2_000 <= ports,
            "{total} connections from {} address(es) need {per_source} ephemeral ports each, {ports} exist (net.ipv4.ip_local_port_range): add --source-addrs",
            crowd.sources.len().max(1)
        );
    }
    let limit = idle::raise_file_limit();
    let needed = (total + 256) as u64;
    anyhow::ensure!(
        limit.is_none_or(|l| l >= needed),
        "this process may open {} files, the crowd needs about {needed}: raise the hard limit (prlimit --nofile={needed}:{needed} or ulimit -Hn)",
        limit.unwrap_or(0)
    );
    let lobby = Lobby::new(cfg.addr.clone());
    lobby.open_matches().await.map_err(|e| anyhow::anyhow!("the lobby does not answer: {e}"))?;

    let mut out = CrowdReport {
        seats: 2 * cfg.matches,
        spectators: crowd.spectators,
        sources: crowd.sources.len(),
        ..CrowdReport::default()
    };
    (out.connections[0], out.rss[0]) = server_gauges(&lobby).await;
    // Connections the server held before (another run's, a person's).
    let base = out.connections[0].unwrap_or(0.0) as usize;
    let shared = Arc::new(Shared {
        addr: cfg.addr.clone(),
        sources: crowd.sources.clone(),
        next_source: AtomicUsize::new(0),
        setups: Semaphore::new(SETUPS_AT_ONCE),
        window: Arc::new(OnceLock::new()),
        watching: AtomicUsize::new(0),
        frames: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
        largest: AtomicUsize::new(0),
        failures: Default::default(),
    });
    let start = tokio::time::Instant::now();
    let every = Duration::from_secs_f64(1.0 / f64::from(crowd.ramp));
    let ramp_plan = every * total as u32;
    let slack = RAMP_MARGIN + ramp_plan / 2;
    // Planned now, as every seat is given it when its match starts; the
    // window is `duration` long from when all are in, so the run may end
    // with up to `slack` unmeasured.
    let deadline = start + ramp_plan + slack + cfg.duration + WINDOW_TAIL;

    // The seats: slot i starts when its two connections' turn comes.
    let mut slots = tokio::task::JoinSet::new();
    let mut currents = Vec::with_capacity(cfg.matches);
    for slot in 0..cfg.matches {
        let (tx, rx) = watch::channel(None);
        currents.push(rx);
        let at = start + every * (2 * slot) as u32;
        slots.spawn(run_slot(lobby.clone(), cfg.clone(), crowd.clone(), shared.clone(), slot as u64, at, deadline, tx));
    }
    let seats_until = start + every * (2 * cfg.matches) as u32 + slack;
    (out.connections[1], out.rss[1]) = settle(&lobby, base + 2 * cfg.matches, seats_until).await;
    out.ramp_secs[0] = start.elapsed().as_secs_f64();
    eprintln!("athlas-load: crowd: seats in after {:.0} s", out.ramp_secs[0]);

    // The spectators, spread over the slots.
    let spectators_from = tokio::time::Instant::now();
    let mut watchers = tokio::task::JoinSet::new();
    for i in 0..crowd.spectators {
        let current = currents[i % currents.len()].clone();
        let at = spectators_from + every * i as u32;
        watchers.spawn(spectate(shared.clone(), current, at, deadline));
    }
    drop(currents);
    let until = spectators_from + every * crowd.spectators as u32 + slack;
    let (conns, rss) = settle(&lobby, base + total, until.min(deadline - cfg.duration - WINDOW_TAIL)).await;
    (out.connections[2], out.rss[2]) = (conns, rss);
    out.ramp_secs[1] = spectators_from.elapsed().as_secs_f64();
    eprintln!(
        "athlas-load: crowd: {} connections after {:.0} s; the window opens",
        conns.unwrap_or(0.0),
        start.elapsed().as_secs_f64()
    );

    // The window.
    let window = cfg.duration;
    let window_end = tokio::time::Instant::now() + window;
    let from = Instant::now();
    shared.window.set((from, from + window)).expect("the window opens once");
    let before = Reading::take(&lobby).await;
    tokio::time::sleep_until(window_end).await;
    let after = Reading::take(&lobby).await;
    (out.connections[3], out.rss[3]) = server_gauges(&lobby).await;
    out.watching = shared.watching.load(Ordering::Relaxed);
    out.own_rss = own_rss();

    let mut report = Report::default();
    while let Some(r) = slots.join_next().await {
        match r {
            Ok(r) => {
                report.matches_started += r.matches_started;
                report.matches_finished += r.matches_finished;
                report.acked += r.acked;
                report.latencies_us.extend(r.latencies_us);
                for (k, v) in r.errors {
                    *report.errors.entry(k).or_default() += v;
                }
            }
            Err(_) => report.error("task_panicked"),
        }
    }
    while watchers.join_next().await.is_some() {}
    for (k, v) in std::mem::take(&mut *shared.failures.lock().expect("failures")) {
        *report.errors.entry(k).or_default() += v;
    }
    out.spectator_frames = shared.frames.load(Ordering::Relaxed);
    out.spectator_bytes = shared.bytes.load(Ordering::Relaxed);
    out.largest_frame = shared.largest.load(Ordering::Relaxed);
    report.elapsed = window;
    report.cost = after.since(before);
    report.latencies_us.sort_unstable();
    Ok((report, out))
}

/// One duel after another in one slot, from `at` until the deadline; the
/// slot's current match is published for its spectators. Every slot
/// shares `lobby`, whose pool keeps a few HTTP connections, not one per
/// slot (each an open file of the server's too).
#[allow(clippy::too_many_arguments)]
async fn run_slot(
    lobby: Lobby,
    cfg: LoadConfig,
    crowd: Crowd,
    shared: Arc<Shared>,
    slot: u64,
    at: tokio::time::Instant,
    deadline: tokio::time::Instant,
    current: watch::Sender<Option<String>>,
) -> Report {
    tokio::time::sleep_until(at).await;
    let mut report = Report::default();
    let mut round = 0u64;
    while tokio::time::Instant::now() < deadline {
        let permit = shared.setups.acquire().await.expect("never closed");
        let created = match lobby.create("duel", json!({"summoning_points": cfg.points}), false).await {
            Ok(c) => c,
            Err(e) => {
                report.error(e.code().unwrap_or("create_failed"));
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        let joined = match lobby.join(&created.join_code).await {
            Ok(j) => j,
            Err(e) => {
                report.error(e.code().unwrap_or("join_failed"));
                continue;
            }
        };
        drop(permit);
        report.matches_started += 1;
        let backoff = Backoff { first: Duration::from_millis(100), max: Duration::from_secs(2), attempts: Some(5) };
        let url = shared.addr.ws_for(&created.match_id);
        let mut seats = Vec::new();
        for (i, token) in [created.token, joined.token].into_iter().enumerate() {
            let seed = mix(cfg.seed ^ mix(slot << 32 | round << 1 | i as u64));
            let pace =
                Pace { min: crowd.think.0, max: crowd.think.1, rng: mix(seed ^ 7), window: shared.window.clone() };
            let opts = SeatOpts { pace: Some(pace), ..SeatOpts::default() };
            let link =
                Link::spawn_from(shared.source(), Duration::ZERO, url.clone(), Identity::Seat { token }, None, backoff);
            let mut bot = Bot::new(seed, Catalogue::standard());
            bot.max_actions = cfg.max_actions;
            seats.push(tokio::spawn(play_seat(link, bot, deadline, opts)));
        }
        current.send_replace(Some(created.match_id));
        round += 1;
        let (mut finished, mut stuck) = (false, false);
        for s in seats {
            match s.await {
                Ok((s, _)) => {
                    finished |= s.finished;
                    stuck |= s.stuck;
                    report.merge(s);
                }
                Err(_) => report.error("task_panicked"),
            }
        }
        if finished {
            report.matches_finished += 1;
        }
        if stuck {
            break;
        }
    }
    report
}

/// One spectator: watches its slot's current match from `at` until the
/// deadline, moving to the next match when the slot starts one. Frames
/// are read and dropped.
async fn spectate(
    shared: Arc<Shared>,
    mut current: watch::Receiver<Option<String>>,
    at: tokio::time::Instant,
    deadline: tokio::time::Instant,
) {
    tokio::time::sleep_until(at).await;
    loop {
        let id = tokio::select! {
            id = current.wait_for(Option::is_some) => match id {
                Ok(id) => id.clone().expect("some"),
                Err(_) => return, // the slot is gone: the run is over
            },
            () = tokio::time::sleep_until(deadline) => return,
        };
        let url = shared.addr.ws_for(&id);
        let opened = tokio::time::timeout(WELCOME_WAIT, async {
            let mut ws = net::connect(&url, shared.source()).await.map_err(|_| "spectator_connect_failed")?;
            let hello = Identity::Spectator { match_id: id.clone() }.greeting(None);
            ws.send(Message::text(hello)).await.map_err(|_| "spectator_connect_failed")?;
            while let Some(m) = ws.next().await {
                match m {
                    Ok(Message::Text(t)) if t.starts_with(r#"{"type":"welcome""#) => {
                        shared.largest.fetch_max(t.len(), Ordering::Relaxed);
                        return Ok(ws);
                    }
                    Ok(Message::Text(_)) => return Err("spectator_refused"),
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
            Err("spectator_connect_failed")
        })
        .await
        .unwrap_or(Err("spectator_welcome_timeout"));
        let mut ws = match opened {
            Ok(ws) => ws,
            Err(code) => {
                shared.fail(code);
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        shared.watching.fetch_add(1, Ordering::Relaxed);
        // Read until the slot moves on, the server closes, or the run ends.
        let closed = loop {
            tokio::select! {
                m = ws.next() => match m {
                    Some(Ok(Message::Text(t))) => {
                        shared.frames.fetch_add(1, Ordering::Relaxed);
                        shared.bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
                        shared.largest.fetch_max(t.len(), Ordering::Relaxed);
                    }
                    Some(Ok(_)) => {}
                    None | Some(Err(_)) => break true,
                },
                _ = current.changed() => break false,
                () = tokio::time::sleep_until(deadline) => break false,
            }
        };
        shared.watching.fetch_sub(1, Ordering::Relaxed);
        drop(ws);
        if tokio::time::Instant::now() >= deadline {
            return;
        }
        if closed {
            // Closed under a match that is still the slot's: a failure,
            // unless the slot moves on at once (its match ended).
            if tokio::time::timeout(RETRY * 5, current.changed()).await.is_err() {
                shared.fail("spectator_dropped");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_times_stay_in_their_range_and_vary() {
        let window = Arc::new(OnceLock::new());
        let mut p = Pace { min: Duration::from_secs(2), max: Duration::from_secs(5), rng: 1, window };
        let draws: Vec<Duration> = (0..1000).map(|_| p.think()).collect();
        assert!(draws.iter().all(|d| (Duration::from_secs(2)..=Duration::from_secs(5)).contains(d)));
        assert!(draws.iter().any(|d| *d < Duration::from_millis(2500)));
        assert!(draws.iter().any(|d| *d > Duration::from_millis(4500)));
        let mean = draws.iter().sum::<Duration>() / 1000;
        assert!((Duration::from_millis(3300)..Duration::from_millis(3700)).contains(&mean), "{mean:?}");
        let mut fixed = Pace { min: Duration::from_secs(3), max: Duration::from_secs(3), ..p };
        assert_eq!(fixed.think(), Duration::from_secs(3));
    }

    #[test]
    fn acks_count_inside_the_window_only() {
        let p = Pace { min: Duration::ZERO, max: Duration::ZERO, rng: 0, window: Arc::new(OnceLock::new()) };
        assert!(!p.counts(), "no window yet");
        let now = Instant::now();
        p.window.set((now, now + Duration::from_secs(60))).unwrap();
        assert!(p.counts());
        let past = Pace { window: Arc::new(OnceLock::from((now, now))), ..p };
        assert!(!past.counts());
    }

    /// A socket opened from a source address comes from it, and the
    /// WebSocket over it works.
    #[tokio::test]
    async fn sockets_come_from_the_source_address_asked() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = tokio::spawn(async move {
            let (tcp, peer) = listener.accept().await.unwrap();
            let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            let got = ws.next().await.unwrap().unwrap();
            (peer.ip(), got)
        });
        let source: IpAddr = "127.0.0.3".parse().unwrap();
        let mut ws = net::connect(&format!("ws://127.0.0.1:{port}/ws"), Some(source)).await.unwrap();
        ws.send(Message::text("hi")).await.unwrap();
        let (peer, got) = server.await.unwrap();
        assert_eq!(peer, source);
        assert_eq!(got, Message::text("hi"));
    }

    #[test]
    fn memory_per_seat_spectator_and_connection() {
        let r = CrowdReport {
            seats: 1000,
            spectators: 500,
            connections: [Some(0.0), Some(1000.0), Some(1500.0), Some(1500.0)],
            rss: [Some(40e6), Some(80.96e6), Some(87.104e6), Some(92.16e6)],
            ..CrowdReport::default()
        };
        assert_eq!(r.per_seat(), Some(40_960.0));
        assert_eq!(r.per_spectator(), Some(12_288.0));
        assert_eq!(r.per_connection(), Some(61_440.0));
        let text = r.to_string();
        assert!(
            text.contains("40.0 KiB per live seat, 12.0 KiB per spectator, 60.0 KiB per connection all in"),
            "{text}"
        );
        assert!(text.contains("1500 at the window's start, 1500 at its end"), "{text}");
        assert_eq!(CrowdReport::default().per_connection(), None);
    }
}
