//! Soak: a long load run with the churn of real players around the bots.
//! Seats drop their connection and come back with `last_seq`, or leave for
//! a few seconds mid-game; spectators come and go and check that what they
//! are sent has no gap; misbehaving clients send garbage, oversized frames,
//! wrong tokens, never say `hello`, stop reading, or leave a request half
//! sent. Meanwhile the server's `/metrics` is sampled: its resident memory
//! and open file descriptors must stay flat once it has warmed up, the
//! promise a server that runs for weeks has to keep.

use std::{
    collections::BTreeMap,
    fmt,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use athlas_protocol::{code, process};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
    time::timeout,
};
use tokio_tungstenite::tungstenite::Message;

use super::mix;
use athlas_client::net::{Backoff, FrameHead, Identity, Link, LinkEvent, Lobby, ServerAddr};

/// Of every thousand actions a seat is about to send, it first drops its
/// connection and reconnects in this many, and leaves for a few seconds in
/// [`LEAVE_PER_MILLE`] more.
const RECONNECT_PER_MILLE: u64 = 8;
const LEAVE_PER_MILLE: u64 = 2;
/// A misbehaving client starts this often.
const MISBEHAVE_EVERY: Duration = Duration::from_millis(1000);
/// Wrong tokens stay under the server's default guess limit (10 a minute),
/// so the soak's honest reconnects from the same address are never refused.
const WRONG_TOKEN_EVERY: Duration = Duration::from_secs(10);
/// How long a misbehaving client waits for the server's answer, and holds
/// a socket that does not read or a request left half sent.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);
const HOLD: Duration = Duration::from_secs(30);
/// The first part of a run the trends ignore: rooms, pools and caches fill.
const WARM_UP: f64 = 0.2;

/// A seat's churn: when to drop its connection, and how to come back.
#[derive(Debug, Clone)]
pub struct Churn {
    rng: u64,
    pub url: String,
    pub identity: Identity,
}

/// What a seat does before its next action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    /// Drop the connection and reconnect at once with `last_seq`.
    Reconnect,
    /// Close the tab: gone for this long, then back with the token.
    Leave(Duration),
}

impl Churn {
    pub fn new(seed: u64, url: String, identity: Identity) -> Churn {
        Churn { rng: seed, url, identity }
    }

    fn next(&mut self) -> u64 {
        self.rng = mix(self.rng);
        self.rng
    }

    /// Roll for a break before an action.
    pub fn roll(&mut self) -> Option<Break> {
        match self.next() % 1000 {
            r if r < RECONNECT_PER_MILLE => Some(Break::Reconnect),
            r if r < RECONNECT_PER_MILLE + LEAVE_PER_MILLE => {
                Some(Break::Leave(Duration::from_millis(2000 + self.next() % 4000)))
            }
            _ => None,
        }
    }

    /// A new link for the same seat, connecting after `away` and resuming
    /// after `last_seq`.
    pub fn relink(&self, away: Duration, last_seq: Option<u64>) -> Link {
        let backoff = Backoff { first: Duration::from_millis(100), max: Duration::from_secs(2), attempts: Some(5) };
        Link::spawn_after(away, self.url.clone(), self.identity.clone(), last_seq, backoff)
    }
}

/// One reading of the server's `/metrics`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sample {
    /// Seconds since the run started.
    pub at: f64,
    pub rss: Option<f64>,
    pub fds: Option<f64>,
    pub connections: Option<f64>,
    pub rooms: Option<f64>,
    pub acked: Option<f64>,
}

impl Sample {
    pub async fn take(lobby: &Lobby, at: f64) -> Sample {
        let text = lobby.metrics().await.unwrap_or_default();
        Sample {
            at,
            rss: process::scrape(&text, process::RESIDENT_BYTES),
            fds: process::scrape(&text, process::OPEN_FDS),
            connections: process::scrape(&text, "athlas_connections"),
            rooms: process::scrape(&text, "athlas_rooms"),
            acked: process::scrape(&text, "athlas_actions_accepted_total"),
        }
    }
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.0}"));
        write!(
            f,
            "soak {:>6.0} s  RSS {:>7} MB  fds {:>5}  connections {:>5}  rooms {:>5}  acked {:>9}",
            self.at,
            self.rss.map_or("-".to_owned(), |b| format!("{:.1}", b / 1e6)),
            n(self.fds),
            n(self.connections),
            n(self.rooms),
            n(self.acked)
        )
    }
}

/// How a series moved after the warm-up: the highest value of its first
/// third against the highest of its last third.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trend {
    pub first: f64,
    pub last: f64,
    pub flat: bool,
}

/// The trend of `values` (in time order, warm-up already cut), flat when
/// the last third's peak is within `ratio` and `slack` of the first's.
/// `None` with fewer than three values: too short to say.
pub fn trend(values: &[f64], ratio: f64, slack: f64) -> Option<Trend> {
    if values.len() < 3 {
        return None;
    }
    let third = values.len() / 3;
    let peak = |s: &[f64]| s.iter().copied().fold(f64::MIN, f64::max);
    let first = peak(&values[..third]);
    let last = peak(&values[values.len() - third..]);
    Some(Trend { first, last, flat: last <= first * ratio + slack })
}

/// Memory may grow by 10 % and 4 MB (allocator noise, a larger history in
/// the live rooms); descriptors by 10 % and 32 (connections come and go).
pub fn rss_trend(samples: &[Sample], duration: f64) -> Option<Trend> {
    trend(&after_warm_up(samples, duration, |s| s.rss), 1.10, 4e6)
}

pub fn fds_trend(samples: &[Sample], duration: f64) -> Option<Trend> {
    trend(&after_warm_up(samples, duration, |s| s.fds), 1.10, 32.0)
}

fn after_warm_up(samples: &[Sample], duration: f64, f: impl Fn(&Sample) -> Option<f64>) -> Vec<f64> {
    samples.iter().filter(|s| s.at >= duration * WARM_UP).filter_map(f).collect()
}

/// What one kind of misbehaving client met.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub tried: u64,
    /// The documented answer came: a coded error, or the server closed it.
    pub answered: u64,
    /// Held until the client let go, the server said nothing (allowed for
    /// a slow reader or a half-sent request: the client gave up first).
    pub held: u64,
    /// The documented answer did not come.
    pub failed: u64,
}

/// Everything a soak run adds to the load report.
#[derive(Debug, Clone, Default)]
pub struct SoakReport {
    pub duration: f64,
    pub samples: Vec<Sample>,
    /// Seat reconnects, leaves, spectators, and the frames spectators saw.
    pub churn: BTreeMap<&'static str, u64>,
    pub misbehaved: BTreeMap<&'static str, Tally>,
}

impl SoakReport {
    /// What went wrong: series that grew, misbehaving clients unanswered,
    /// spectators that saw a gap. Each is an error of the run.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if rss_trend(&self.samples, self.duration).is_some_and(|t| !t.flat) {
            out.push("soak_rss_growing".to_owned());
        }
        if fds_trend(&self.samples, self.duration).is_some_and(|t| !t.flat) {
            out.push("soak_fds_growing".to_owned());
        }
        for (kind, t) in &self.misbehaved {
            for _ in 0..t.failed {
                out.push(format!("unanswered_{kind}"));
            }
        }
        for _ in 0..self.churn.get("spectator_gaps").copied().unwrap_or(0) {
            out.push("spectator_gap".to_owned());
        }
        out
    }
}

impl fmt::Display for SoakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "soak:           {} samples over {:.0} s (trends after the first {:.0} %)",
            self.samples.len(),
            self.duration,
            WARM_UP * 100.0
        )?;
        let say = |t: Option<Trend>, unit: &str, scale: f64| match t {
            None => "too few samples".to_owned(),
            Some(t) => format!(
                "{:.1} → {:.1} {unit} (peak of the first third → of the last third): {}",
                t.first / scale,
                t.last / scale,
                if t.flat { "flat" } else { "GROWING" }
            ),
        };
        writeln!(f, "server RSS:     {}", say(rss_trend(&self.samples, self.duration), "MB", 1e6))?;
        writeln!(f, "open fds:       {}", say(fds_trend(&self.samples, self.duration), "fds", 1.0))?;
        let churn: Vec<String> = self.churn.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(f, "churn:          {}", churn.join(", "))?;
        let bad: Vec<String> = self
            .misbehaved
            .iter()
            .map(|(k, t)| format!("{k} {}/{} answered{}", t.answered, t.tried, held_or_failed(t)))
            .collect();
        write!(f, "misbehaving:    {}", bad.join(", "))
    }
}

fn held_or_failed(t: &Tally) -> String {
    let mut s = String::new();
    if t.held > 0 {
        s += &format!(" ({} held until let go)", t.held);
    }
    if t.failed > 0 {
        s += &format!(" ({} UNANSWERED)", t.failed);
    }
    s
}

/// Sample `/metrics` every `every` until `deadline`, printing each line.
pub async fn sample(lobby: Lobby, every: Duration, start: Instant, deadline: tokio::time::Instant) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if tokio::time::Instant::now() >= deadline {
            break;
        }
        let s = Sample::take(&lobby, start.elapsed().as_secs_f64()).await;
        eprintln!("{s}");
        out.push(s);
    }
    out.push(Sample::take(&lobby, start.elapsed().as_secs_f64()).await);
    out
}

/// Live matches a misbehaving client may watch, kept by the load's slots.
pub type LiveMatches = Arc<Mutex<Vec<String>>>;

/// Watch `match_id` for `hold` (or until it ends) as a spectator and check
/// that the updates it is sent have no gap: each `seq` one more than the
/// last. The frames seen, and whether there was a gap.
pub async fn spectate(url: String, match_id: String, hold: Duration) -> (u64, bool) {
    let backoff = Backoff { first: Duration::from_millis(100), max: Duration::from_secs(2), attempts: Some(5) };
    let mut link = Link::spawn(url, Identity::Spectator { match_id }, None, backoff);
    let until = tokio::time::Instant::now() + hold;
    let (mut frames, mut gap, mut last) = (0u64, false, None::<u64>);
    while let Ok(Some(ev)) = tokio::time::timeout_at(until, link.next()).await {
        match ev {
            LinkEvent::Frame(text) => {
                frames += 1;
                let Some(head) = FrameHead::read(&text) else { continue };
                match (head.kind.as_str(), head.seq) {
                    ("welcome", Some(s)) => last = Some(s),
                    ("update", Some(s)) => {
                        if last.is_some_and(|l| s != l + 1) {
                            gap = true;
                        }
                        last = Some(s);
                    }
                    _ => {}
                }
                let finished = text.contains("\"finished\"")
                    && serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|v| v.pointer("/status/status").and_then(Value::as_str).map(|s| s == "finished"))
                        == Some(true);
                if finished {
                    break;
                }
            }
            LinkEvent::GaveUp { .. } => break,
            LinkEvent::Connected { .. } | LinkEvent::Disconnected { .. } => {}
        }
    }
    (frames, gap)
}

/// The kinds of misbehaving client, started in turn.
const KINDS: [&str; 6] = ["garbage", "oversized", "silent", "wrong_token", "stops_reading", "half_open"];

/// Start one misbehaving client every [`MISBEHAVE_EVERY`] until `deadline`;
/// each runs on its own and reports what it met.
pub async fn misbehave(
    addr: ServerAddr,
    live: LiveMatches,
    deadline: tokio::time::Instant,
) -> BTreeMap<&'static str, Tally> {
    let mut tally: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut started: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut running = tokio::task::JoinSet::new();
    let mut last_wrong_token: Option<tokio::time::Instant> = None;
    let mut turn = 0usize;
    let mut tick = tokio::time::interval(MISBEHAVE_EVERY);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            Some(Ok((kind, outcome))) = running.join_next(), if !running.is_empty() => {
                record(&mut tally, kind, outcome);
                continue;
            }
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            break;
        }
        let mut kind = KINDS[turn % KINDS.len()];
        turn += 1;
        if kind == "wrong_token" {
            if last_wrong_token.is_some_and(|t| now < t + WRONG_TOKEN_EVERY) {
                kind = "garbage";
            } else {
                last_wrong_token = Some(now);
            }
        }
        let watch = live.lock().expect("live matches").last().cloned();
        let addr = addr.clone();
        *started.entry(kind).or_default() += 1;
        running.spawn(async move { (kind, misbehave_once(kind, &addr, watch).await) });
    }
    // Those still holding a socket are let go (closed as they are dropped);
    // those still waiting for an answer get a last moment.
    let grace = tokio::time::Instant::now() + ANSWER_WITHIN;
    while let Ok(Some(Ok((kind, outcome)))) = tokio::time::timeout_at(grace, running.join_next()).await {
        record(&mut tally, kind, outcome);
    }
    running.abort_all();
    for (kind, n) in started {
        let t = tally.entry(kind).or_default();
        t.held += n - t.tried;
        t.tried = n;
    }
    tally
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Answered,
    Held,
    Failed,
    /// Could not even connect (counted as failed: the server refused a
    /// client it should have served).
    NoConnection,
}

fn record(tally: &mut BTreeMap<&'static str, Tally>, kind: &'static str, outcome: Outcome) {
    let t = tally.entry(kind).or_default();
    t.tried += 1;
    match outcome {
        Outcome::Answered => t.answered += 1,
        Outcome::Held => t.held += 1,
        Outcome::Failed | Outcome::NoConnection => t.failed += 1,
    }
}

async fn misbehave_once(kind: &str, addr: &ServerAddr, watch: Option<String>) -> Outcome {
    match kind {
        "garbage" => garbage(addr).await,
        "oversized" => oversized(addr).await,
        "silent" => silent(addr).await,
        "wrong_token" => wrong_token(addr).await,
        "stops_reading" => stops_reading(addr, watch).await,
        _ => half_open(addr).await,
    }
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

async fn connect(addr: &ServerAddr) -> Option<Ws> {
    let (ws, _) = tokio_tungstenite::connect_async(addr.ws()).await.ok()?;
    Some(ws)
}

/// The codes of the error frames received within `within`, until `n` came.
async fn error_codes(ws: &mut Ws, n: usize, within: Duration) -> Vec<String> {
    let mut codes = Vec::new();
    let until = tokio::time::Instant::now() + within;
    while codes.len() < n {
        match tokio::time::timeout_at(until, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                if let Ok(v) = serde_json::from_str::<Value>(t.as_str()) {
                    if v["type"] == "error" {
                        codes.push(v["code"].as_str().unwrap_or_default().to_owned());
                    }
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => break,
        }
    }
    codes
}

/// Frames that are not JSON, of no known type, an act before `hello`, a
/// hello of the wrong shape: each gets a coded error and the connection
/// stays open.
async fn garbage(addr: &ServerAddr) -> Outcome {
    let Some(mut ws) = connect(addr).await else { return Outcome::NoConnection };
    let frames = [
        "{not json",
        r#"{"type":"shout","volume":11}"#,
        r#"{"type":"act","id":1,"action":{"type":"end_turn"}}"#,
        r#"{"type":"hello","token":12345678901234567890123}"#,
        "[]",
    ];
    for f in frames {
        if ws.send(Message::text(f)).await.is_err() {
            return Outcome::Failed;
        }
    }
    let codes = error_codes(&mut ws, frames.len(), ANSWER_WITHIN).await;
    let ok = codes.len() == frames.len() && codes.iter().all(|c| !c.is_empty());
    let _ = ws.close(None).await;
    if ok {
        Outcome::Answered
    } else {
        Outcome::Failed
    }
}

/// A frame over the 64 KiB limit: `frame_too_large`, the frame ignored.
async fn oversized(addr: &ServerAddr) -> Outcome {
    let Some(mut ws) = connect(addr).await else { return Outcome::NoConnection };
    let big = format!(r#"{{"type":"hello","token":"{}"}}"#, "x".repeat(athlas_protocol::MAX_FRAME_BYTES + 4096));
    if ws.send(Message::text(big)).await.is_err() {
        return Outcome::Failed;
    }
    let codes = error_codes(&mut ws, 1, ANSWER_WITHIN).await;
    let _ = ws.close(None).await;
    if codes.first().map(String::as_str) == Some(code::FRAME_TOO_LARGE) {
        Outcome::Answered
    } else {
        Outcome::Failed
    }
}

/// Never says `hello`: closed with `hello_timeout` (10 s by default).
async fn silent(addr: &ServerAddr) -> Outcome {
    let Some(mut ws) = connect(addr).await else { return Outcome::NoConnection };
    let codes = error_codes(&mut ws, 1, HOLD).await;
    if codes.first().map(String::as_str) == Some(code::HELLO_TIMEOUT) {
        Outcome::Answered
    } else {
        Outcome::Failed
    }
}

/// A `hello` with a token nobody holds: `bad_token` (or `rate_limited` if
/// this address guessed too often), and nothing opened.
async fn wrong_token(addr: &ServerAddr) -> Outcome {
    let Some(mut ws) = connect(addr).await else { return Outcome::NoConnection };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let token = format!("{:016x}{:016x}", mix(nanos), mix(nanos ^ 0x50a4));
    let hello = format!(r#"{{"type":"hello","token":"{token}"}}"#);
    if ws.send(Message::text(hello)).await.is_err() {
        return Outcome::Failed;
    }
    let codes = error_codes(&mut ws, 1, ANSWER_WITHIN).await;
    let _ = ws.close(None).await;
    match codes.first().map(String::as_str) {
        Some(code::BAD_TOKEN | code::RATE_LIMITED) => Outcome::Answered,
        _ => Outcome::Failed,
    }
}

/// Watch a live match with a tiny receive buffer and never read: the
/// server cuts it off (`lagged` or its write timeout) without slowing the
/// room, or the client lets go after [`HOLD`].
async fn stops_reading(addr: &ServerAddr, watch: Option<String>) -> Outcome {
    let Some(match_id) = watch else { return Outcome::Held };
    let Ok(target) = tokio::net::lookup_host(addr.authority.as_str()).await.map(|mut a| a.next()) else {
        return Outcome::NoConnection;
    };
    let Some(target) = target else { return Outcome::NoConnection };
    let Ok(socket) = (if target.is_ipv4() { TcpSocket::new_v4() } else { TcpSocket::new_v6() }) else {
        return Outcome::NoConnection;
    };
    let _ = socket.set_recv_buffer_size(4096);
    let Ok(stream) = socket.connect(target).await else { return Outcome::NoConnection };
    let Ok((mut ws, _)) = tokio_tungstenite::client_async(addr.ws(), stream).await else {
        return Outcome::NoConnection;
    };
    let watch = Identity::Spectator { match_id }.greeting(None);
    if ws.send(Message::text(watch)).await.is_err() {
        return Outcome::Failed;
    }
    tokio::time::sleep(HOLD).await;
    // Now read what piled up: a close at its end means the server cut it.
    let closed = timeout(ANSWER_WITHIN, async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .unwrap_or(false);
    if closed {
        Outcome::Answered
    } else {
        Outcome::Held
    }
}

/// Half a WebSocket upgrade request, then nothing: the client lets go
/// after [`HOLD`] unless the server closed it first.
async fn half_open(addr: &ServerAddr) -> Outcome {
    let Ok(mut stream) = TcpStream::connect(addr.authority.as_str()).await else { return Outcome::NoConnection };
    let partial = format!("GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\n", addr.authority);
    if stream.write_all(partial.as_bytes()).await.is_err() {
        return Outcome::Failed;
    }
    let mut buf = [0u8; 512];
    match timeout(HOLD, stream.read(&mut buf)).await {
        Ok(Ok(_)) | Ok(Err(_)) => Outcome::Answered,
        Err(_) => Outcome::Held,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_is_flat_unless_its_last_third_outgrows_its_first() {
        let flat = [40.0, 42.0, 41.0, 43.0, 42.0, 42.5];
        assert!(trend(&flat, 1.10, 0.0).unwrap().flat);
        let growing = [40.0, 41.0, 45.0, 50.0, 55.0, 60.0];
        let t = trend(&growing, 1.10, 0.0).unwrap();
        assert!(!t.flat);
        assert_eq!((t.first, t.last), (41.0, 60.0));
        assert!(trend(&growing, 1.10, 20.0).unwrap().flat, "slack absorbs a small rise");
        assert_eq!(trend(&[1.0, 2.0], 1.1, 0.0), None);
    }

    #[test]
    fn the_warm_up_is_left_out_of_the_trend() {
        let s = |at: f64, mb: f64| Sample { at, rss: Some(mb * 1e6), fds: Some(50.0), ..Sample::default() };
        // Memory climbs while rooms fill (first 20 % of 100 s), then holds.
        let samples =
            [s(0.0, 10.0), s(10.0, 30.0), s(20.0, 40.0), s(40.0, 41.0), s(60.0, 40.5), s(80.0, 41.0), s(100.0, 41.0)];
        assert!(rss_trend(&samples, 100.0).unwrap().flat);
        assert!(fds_trend(&samples, 100.0).unwrap().flat);
        let leaking = [s(20.0, 40.0), s(40.0, 50.0), s(60.0, 60.0), s(80.0, 70.0), s(100.0, 80.0), s(100.0, 90.0)];
        let report = SoakReport { duration: 100.0, samples: leaking.to_vec(), ..SoakReport::default() };
        assert_eq!(report.problems(), vec!["soak_rss_growing".to_owned()]);
        assert!(report.to_string().contains("GROWING"), "{report}");
    }

    #[test]
    fn unanswered_misbehaviour_and_gaps_are_problems() {
        let mut report = SoakReport::default();
        report.misbehaved.insert("garbage", Tally { tried: 3, answered: 2, held: 0, failed: 1 });
        report.misbehaved.insert("half_open", Tally { tried: 2, answered: 0, held: 2, failed: 0 });
        report.churn.insert("spectator_gaps", 1);
        assert_eq!(report.problems(), vec!["unanswered_garbage".to_owned(), "spectator_gap".to_owned()]);
        let text = report.to_string();
        assert!(text.contains("garbage 2/3 answered (1 UNANSWERED)"), "{text}");
        assert!(text.contains("half_open 0/2 answered (2 held until let go)"), "{text}");
    }

    #[test]
    fn churn_breaks_about_one_action_in_a_hundred() {
        let mut c = Churn::new(7, "ws://127.0.0.1:1/ws".into(), Identity::Spectator { match_id: "m".into() });
        let rolls: Vec<Option<Break>> = (0..100_000).map(|_| c.roll()).collect();
        let reconnects = rolls.iter().filter(|r| **r == Some(Break::Reconnect)).count();
        let leaves = rolls.iter().filter(|r| matches!(r, Some(Break::Leave(_)))).count();
        assert!((600..1000).contains(&reconnects), "{reconnects}");
        assert!((120..280).contains(&leaves), "{leaves}");
        assert!(rolls.iter().all(|r| match r {
            Some(Break::Leave(d)) => (2000..6000).contains(&(d.as_millis() as u64)),
            _ => true,
        }));
    }
}
