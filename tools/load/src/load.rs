//! The load generator: N matches at once, both seats of each played by
//! in-process bots over real WebSockets, for a bounded time, on loopback.
//! A match that ends before the time is up is replaced by a new one.
//!
//! `--game divinity`: N parties at once instead, each a campaign of three
//! bot seats (created, joined twice, an Origin chosen by each seat) playing
//! location after location (the host starts each next one) until the time
//! is up. Each bot picks among the `legal` lists of its frames.
//!
//! `--game clans`: N clan battles at once, one against one (`clans`) or
//! two against two (`clans-2v2`, four seats joined through the one join
//! code), the clans alternating from match to match, each seat a bot
//! picking from its view's `legal` list.
//!
//! Per action a bot parses only `type`, `seq`, `id`, the status and
//! `view.legal` of each frame (see [`athlas_client::player`]) and picks by weight:
//! the load measured is the server's, not the client's.

use std::{
    collections::BTreeMap,
    fmt,
    time::{Duration, Instant},
};

use athlas_engine::duel::card::Catalogue;
use athlas_protocol::{process, CreateCampaign};

pub mod crowd;
pub mod idle;
pub mod soak;
use idle::IdleReport;
use serde_json::json;
use soak::{Break, Churn, LiveMatches, SoakReport};
use tokio::time::sleep_until;

use athlas_client::{
    bot::Bot,
    net::{Backoff, Identity, Link, LinkEvent, Lobby, ServerAddr},
    player::{Observed, Player},
};

/// At most this many matches at once and this long: a load test is bounded.
pub const MAX_MATCHES: usize = 20_000;
pub const MAX_DURATION: Duration = Duration::from_secs(3600);
/// Idle connections one run may hold.
pub const MAX_IDLE: usize = 100_000;
/// A seat that hears nothing for this long gives its match up as stalled.
const STALL: Duration = Duration::from_secs(15);

/// Seats of a Divinity load party, and the Origins they choose (rotated by
/// party so every Origin is played).
const PARTY_SEATS: usize = 3;
const ORIGINS: [&str; 10] =
    ["ifan", "sebille", "red_prince", "fane", "lohse", "beast", "vali", "tanguistal", "farzanah", "cassian"];

/// CPU seconds (user + system) this generator has used so far: `utime +
/// stime` of `/proc/self/stat` at Linux's 100 ticks a second. The command
/// name (field 2) may hold spaces, so fields are counted after its `)`.
fn own_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let (utime, stime): (u64, u64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
    Some((utime + stime) as f64 / 100.0)
}

/// The game a load plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadGame {
    /// Two-seat duels, `matches` at once.
    Duel,
    /// Three-seat Divinity campaigns, `matches` parties at once.
    Divinity,
    /// Clan battles of 2 seats (1v1) or 4 (2v2), `matches` at once.
    Clans { seats: usize },
}

impl LoadGame {
    /// The game's name, its options for one match (`round` varies them)
    /// and its seats; `None` for campaigns.
    fn match_of(self, cfg: &LoadConfig, round: u64) -> Option<(&'static str, serde_json::Value, usize)> {
        const CLANS: [&str; 2] = ["sacred_cross", "crimson_nobles"];
        match self {
            LoadGame::Duel => Some(("duel", json!({"summoning_points": cfg.points}), 2)),
            LoadGame::Divinity => None,
            LoadGame::Clans { seats } => {
                // Each clan on each side in turn; 2v2 teams are seats 0+2 and 1+3.
                let first = (round % 2) as usize;
                let clans: Vec<&str> = (0..seats).map(|s| CLANS[(first + s % 2 + s / 2) % 2]).collect();
                Some(("clans", json!({"clans": clans}), seats))
            }
        }
    }

    /// A bot for one seat of this game.
    fn bot(self, seed: u64) -> Bot {
        match self {
            LoadGame::Duel => Bot::new(seed, Catalogue::standard()),
            LoadGame::Divinity => Bot::divinity(seed),
            LoadGame::Clans { .. } => Bot::clans(seed),
        }
    }
}

#[derive(Debug, Clone)]
pub struct LoadConfig {
    pub addr: ServerAddr,
    pub game: LoadGame,
    /// Matches (duel) or parties (Divinity) played at once.
    pub matches: usize,
    pub duration: Duration,
    pub seed: u64,
    /// Each player's summoning points.
    pub points: u32,
    /// A bot resigns after this many of its own actions.
    pub max_actions: u64,
    /// Idle duels (both seats connected, never acting) held during the run.
    pub idle_matches: usize,
    /// Idle spectator connections held during the run, over the idle duels.
    pub idle: usize,
    /// A bot waits this long before each action (a person thinks; 0: none).
    pub think: Duration,
    /// Soak: churn and misbehaving clients around the bots, `/metrics`
    /// sampled this often (see [`soak`]).
    pub soak: Option<Duration>,
}

/// What a load run measured.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub matches_started: u64,
    pub matches_finished: u64,
    pub acked: u64,
    pub elapsed: Duration,
    /// Ack latencies in microseconds, sorted once the run is over.
    pub latencies_us: Vec<u32>,
    /// Error frames and local failures, by code.
    pub errors: BTreeMap<String, u64>,
    /// What the run cost, where the server's `/metrics` and this machine
    /// say it (see [`Cost`]).
    pub cost: Cost,
    /// The idle tables held, when asked for.
    pub idle: Option<IdleReport>,
    /// Seat reconnects and leaves of a soak (the rest is in `soak`).
    pub churn: BTreeMap<&'static str, u64>,
    /// What a soak run saw, when asked for.
    pub soak: Option<SoakReport>,
}

/// CPU time and memory over a run: the server's from its `/metrics`
/// (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
/// `athlas_rooms`), the load generator's own from `/proc`. CPU per
/// acknowledged action does not depend on what else the machine runs, as
/// actions per second does.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cost {
    /// Server CPU seconds used during the run.
    pub server_cpu: Option<f64>,
    /// Server resident memory at the end, in bytes.
    pub server_rss: Option<f64>,
    /// Rooms loaded at the end.
    pub rooms: Option<f64>,
    /// This process's CPU seconds during the run.
    pub own_cpu: Option<f64>,
}

/// The series of a `/metrics` text a run compares before and after.
#[derive(Debug, Clone, Copy, Default)]
struct Reading {
    server_cpu: Option<f64>,
    server_rss: Option<f64>,
    rooms: Option<f64>,
    own_cpu: Option<f64>,
}

impl Reading {
    async fn take(lobby: &Lobby) -> Reading {
        let text = lobby.metrics().await.unwrap_or_default();
        Reading {
            server_cpu: process::scrape(&text, process::CPU_SECONDS),
            server_rss: process::scrape(&text, process::RESIDENT_BYTES),
            rooms: process::scrape(&text, "athlas_rooms"),
            own_cpu: own_cpu_seconds(),
        }
    }

    fn since(self, before: Reading) -> Cost {
        let delta = |a: Option<f64>, b: Option<f64>| Some(a? - b?);
        Cost {
            server_cpu: delta(self.server_cpu, before.server_cpu),
            server_rss: self.server_rss,
            rooms: self.rooms,
            own_cpu: delta(self.own_cpu, before.own_cpu),
        }
    }
}

/// The nearest-rank percentile (`p` in 0..=100) of sorted samples.
pub fn percentile(sorted: &[u32], p: f64) -> Option<u32> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

impl Report {
    fn merge(&mut self, s: SeatStats) {
        self.acked += s.acked;
        self.latencies_us.extend(s.latencies_us);
        for (k, v) in s.errors {
            *self.errors.entry(k).or_default() += v;
        }
        for (k, v) in s.churn {
            *self.churn.entry(k).or_default() += v;
        }
    }

    fn error(&mut self, code: &str) {
        *self.errors.entry(code.to_owned()).or_default() += 1;
    }

    pub fn actions_per_sec(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.acked as f64 / s
        } else {
            0.0
        }
    }

    pub fn total_errors(&self) -> u64 {
        self.errors.values().sum()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms =
            |p| percentile(&self.latencies_us, p).map_or("-".to_owned(), |us| format!("{:.2}", f64::from(us) / 1000.0));
        writeln!(f, "matches:        {} started, {} finished", self.matches_started, self.matches_finished)?;
        writeln!(f, "actions acked:  {}", self.acked)?;
        writeln!(f, "actions/s:      {:.1}", self.actions_per_sec())?;
        writeln!(f, "ack latency ms: p50 {}  p99 {}", ms(50.0), ms(99.0))?;
        let per_action = |cpu: Option<f64>| match cpu {
            Some(c) if self.acked > 0 => format!("{:.0} µs per acked action ({c:.2} s)", c * 1e6 / self.acked as f64),
            Some(c) => format!("{c:.2} s, no action acked"),
            None => "not measured".to_owned(),
        };
        writeln!(f, "server CPU:     {}", per_action(self.cost.server_cpu))?;
        writeln!(f, "load CPU:       {} (this generator)", per_action(self.cost.own_cpu))?;
        match (self.cost.server_rss, self.cost.rooms) {
            (Some(rss), Some(rooms)) if rooms > 0.0 => writeln!(
                f,
                "server RSS:     {:.1} MB at the end, {rooms} rooms loaded ({:.0} KiB per room, base included)",
                rss / 1e6,
                rss / rooms / 1024.0
            )?,
            (Some(rss), _) => writeln!(f, "server RSS:     {:.1} MB at the end", rss / 1e6)?,
            (None, _) => writeln!(f, "server RSS:     not measured")?,
        }
        if let Some(idle) = &self.idle {
            writeln!(f, "{idle}")?;
        }
        if let Some(soak) = &self.soak {
            writeln!(f, "{soak}")?;
        }
        write!(f, "errors:         {}", self.total_errors())?;
        if !self.errors.is_empty() {
            let parts: Vec<String> = self.errors.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, " ({})", parts.join(", "))?;
        }
        Ok(())
    }
}

/// SplitMix64: independent bot seeds from one run seed.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[derive(Debug, Default)]
struct SeatStats {
    acked: u64,
    latencies_us: Vec<u32>,
    errors: BTreeMap<String, u64>,
    finished: bool,
    /// The bot had nothing to play (the match cannot go on).
    stuck: bool,
    /// Soak breaks taken: `reconnects`, `leaves`.
    churn: BTreeMap<&'static str, u64>,
}

/// How a seat plays besides its bot: its thinking time, and in a soak when
/// it drops its connection.
#[derive(Debug, Clone, Default)]
struct SeatOpts {
    think: Duration,
    churn: Option<Churn>,
    /// A crowd's seat: a think time drawn per action, acks counted in the window only.
    pace: Option<crowd::Pace>,
}

impl SeatOpts {
    fn new(cfg: &LoadConfig, seed: u64, token: &str) -> SeatOpts {
        let churn = cfg.soak.map(|_| Churn::new(seed, cfg.addr.ws(), Identity::Seat { token: token.to_owned() }));
        SeatOpts { think: cfg.think, churn, pace: None }
    }
}

/// Run the load. Refuses servers that are not on this machine.
///
/// # Errors
/// A remote server, unbounded settings, or a lobby that does not answer.
pub async fn run(cfg: LoadConfig) -> anyhow::Result<Report> {
    anyhow::ensure!(cfg.addr.is_loopback(), "the load generator runs against a server on this machine only (loopback)");
    let idle_only = cfg.idle + cfg.idle_matches > 0;
    anyhow::ensure!(
        (usize::from(!idle_only)..=MAX_MATCHES).contains(&cfg.matches),
        "--matches must be 1 to {MAX_MATCHES} (0 only with --idle or --idle-matches)"
    );
    anyhow::ensure!(cfg.idle + 2 * cfg.idle_matches <= MAX_IDLE, "at most {MAX_IDLE} idle connections");
    anyhow::ensure!(!cfg.duration.is_zero() && cfg.duration <= MAX_DURATION, "--duration must be 1 s to 1 h");
    anyhow::ensure!(cfg.soak.is_none_or(|s| !s.is_zero()), "--sample-secs must be at least 1");
    anyhow::ensure!(cfg.think <= Duration::from_secs(60), "--think-ms must be at most 60000");
    let lobby = Lobby::new(cfg.addr.clone());
    // Fail early and clearly when the server is not there.
    lobby.open_matches().await.map_err(|e| anyhow::anyhow!("the lobby does not answer: {e}"))?;
    let mut held = None;
    let mut idle_report = None;
    if idle_only {
        let limit = idle::raise_file_limit();
        let needed = (cfg.idle + 2 * cfg.idle_matches + 3 * cfg.matches + 64) as u64;
        anyhow::ensure!(
            limit.is_none_or(|l| l >= needed),
            "this process may open {} files, the idle connections need about {needed}: raise the hard limit (ulimit -Hn)",
            limit.unwrap_or(0)
        );
        let (r, h) = idle::open(&lobby, &cfg.addr, cfg.idle_matches, cfg.idle).await?;
        eprintln!("athlas load: {} idle connections held over {} idle matches", r.connections, r.matches);
        idle_report = Some(r);
        held = Some(h);
    }
    let before = Reading::take(&lobby).await;
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + cfg.duration;
    let live: LiveMatches = LiveMatches::default();
    let soaking = cfg.soak.map(|every| {
        let sampler = tokio::spawn(soak::sample(lobby.clone(), every, start, deadline));
        let misbehaving = tokio::spawn(soak::misbehave(cfg.addr.clone(), live.clone(), deadline));
        (sampler, misbehaving)
    });
    let mut slots = tokio::task::JoinSet::new();
    for slot in 0..cfg.matches {
        match cfg.game {
            LoadGame::Duel | LoadGame::Clans { .. } => {
                slots.spawn(run_slot(lobby.clone(), cfg.clone(), slot as u64, deadline, live.clone()))
            }
            LoadGame::Divinity => slots.spawn(run_party(lobby.clone(), cfg.clone(), slot as u64, deadline)),
        };
    }
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
                for (k, v) in r.churn {
                    *report.churn.entry(k).or_default() += v;
                }
            }
            Err(_) => report.error("task_panicked"),
        }
    }
    if cfg.matches == 0 {
        // Only idle tables: hold them for the run's duration.
        sleep_until(deadline).await;
    }
    report.elapsed = start.elapsed().min(cfg.duration);
    report.cost = Reading::take(&lobby).await.since(before);
    if let Some((sampler, misbehaving)) = soaking {
        let mut s = SoakReport {
            duration: cfg.duration.as_secs_f64(),
            samples: sampler.await.unwrap_or_default(),
            churn: std::mem::take(&mut report.churn),
            misbehaved: misbehaving.await.unwrap_or_default(),
        };
        for problem in s.problems() {
            report.error(&problem);
        }
        s.churn.retain(|k, _| *k != "spectator_gaps");
        report.soak = Some(s);
    }
    report.idle = idle_report;
    drop(held);
    report.latencies_us.sort_unstable();
    Ok(report)
}

/// One match after another in one slot until the deadline. In a soak, a
/// spectator watches part of each match and the match is offered to the
/// misbehaving clients (`live`).
async fn run_slot(
    lobby: Lobby,
    cfg: LoadConfig,
    slot: u64,
    deadline: tokio::time::Instant,
    live: LiveMatches,
) -> Report {
    let mut report = Report::default();
    let mut round = 0u64;
    while tokio::time::Instant::now() < deadline {
        let (game, options, seats) = cfg.game.match_of(&cfg, slot + round).expect("a game of matches");
        let created = match lobby.create(game, options, false).await {
            Ok(c) => c,
            Err(e) => {
                report.error(e.code().unwrap_or("create_failed"));
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let mut tokens = vec![created.token];
        for _ in 1..seats {
            match lobby.join(&created.join_code).await {
                Ok(j) => tokens.push(j.token),
                Err(e) => {
                    report.error(e.code().unwrap_or("join_failed"));
                    break;
                }
            }
        }
        if tokens.len() < seats {
            continue;
        }
        report.matches_started += 1;
        let backoff = Backoff { first: Duration::from_millis(100), max: Duration::from_secs(2), attempts: Some(5) };
        let n = seats;
        let mut seats = Vec::new();
        let url = cfg.addr.ws_for(&created.match_id);
        for (i, token) in tokens.into_iter().enumerate() {
            let seed = mix(cfg.seed ^ mix(slot << 32 | (round * n as u64 + i as u64)));
            let opts = SeatOpts::new(&cfg, mix(seed), &token);
            let link = Link::spawn(url.clone(), Identity::Seat { token }, None, backoff);
            let mut bot = cfg.game.bot(seed);
            bot.max_actions = cfg.max_actions;
            seats.push(tokio::spawn(play_seat(link, bot, deadline, opts)));
        }
        let spectator = cfg.soak.map(|_| {
            {
                let mut live = live.lock().expect("live matches");
                live.push(created.match_id.clone());
                if live.len() > 64 {
                    live.remove(0);
                }
            }
            let hold = Duration::from_millis(2000 + mix(cfg.seed ^ slot << 32 ^ round) % 18_000);
            tokio::spawn(soak::spectate(cfg.addr.ws(), created.match_id.clone(), hold))
        });
        round += 1;
        let mut finished = false;
        let mut stuck = false;
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
        if let Some(s) = spectator {
            let (frames, gap) = s.await.unwrap_or((0, false));
            *report.churn.entry("spectators").or_default() += 1;
            *report.churn.entry("spectator_frames").or_default() += frames;
            *report.churn.entry("spectator_gaps").or_default() += u64::from(gap);
        }
        if finished {
            report.matches_finished += 1;
        }
        if stuck {
            break; // a new match would be stuck the same way
        }
    }
    report
}

/// One Divinity party in one slot: a campaign of three bot seats, playing
/// location after location until the deadline (a campaign that ends is
/// replaced by a new one). `matches_started` counts locations.
async fn run_party(lobby: Lobby, cfg: LoadConfig, slot: u64, deadline: tokio::time::Instant) -> Report {
    let mut report = Report::default();
    let mut round = 0u64;
    'campaigns: while tokio::time::Instant::now() < deadline {
        round += 1;
        let Some((campaign, tokens)) = form_party(&lobby, slot, &mut report).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let mut played: Option<String> = None;
        let mut bots: Vec<Option<Bot>> = (0..PARTY_SEATS as u64)
            .map(|i| Some(Bot::divinity(mix(cfg.seed ^ mix(slot << 32 | round << 8 | i)))))
            .collect();
        while tokio::time::Instant::now() < deadline {
            let status = match lobby.campaign(&campaign, Some(&tokens[0])).await {
                Ok(s) => s,
                Err(e) => {
                    report.error(e.code().unwrap_or("status_failed"));
                    continue 'campaigns;
                }
            };
            let current = status.current.as_ref().map(|m| m.match_id.clone());
            match status.stage.as_str() {
                "over" => continue 'campaigns,
                "between" => {
                    // No leader: the host starts the next location.
                    if let Err(e) = lobby.next_match(&campaign, &tokens[0]).await {
                        report.error(e.code().unwrap_or("next_failed"));
                        continue 'campaigns;
                    }
                    continue;
                }
                "playing" if current.is_some() && current != played => {}
                _ => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            }
            played = current;
            report.matches_started += 1;
            let backoff = Backoff { first: Duration::from_millis(100), max: Duration::from_secs(2), attempts: Some(5) };
            let mut seats = Vec::new();
            for (i, (token, bot)) in tokens.iter().zip(bots.iter_mut()).enumerate() {
                let opts = SeatOpts::new(&cfg, mix(cfg.seed ^ mix(slot << 32 | round << 8 | i as u64) ^ 1), token);
                let url = cfg.addr.ws_for(played.as_deref().unwrap_or_default());
                let link = Link::spawn(url, Identity::Seat { token: token.clone() }, None, backoff);
                let bot = bot.take().expect("each seat's bot is back after each location");
                seats.push(tokio::spawn(play_seat(link, bot, deadline, opts)));
            }
            let (mut finished, mut stuck) = (false, false);
            for (i, s) in seats.into_iter().enumerate() {
                match s.await {
                    Ok((s, bot)) => {
                        finished |= s.finished;
                        stuck |= s.stuck;
                        report.merge(s);
                        bots[i] = Some(bot);
                    }
                    Err(_) => {
                        report.error("task_panicked");
                        stuck = true;
                    }
                }
            }
            if finished {
                report.matches_finished += 1;
            }
            if stuck || !finished {
                break 'campaigns;
            }
        }
    }
    report
}

/// Create a campaign of three, join it twice and choose each seat's Origin:
/// the campaign id and the three tokens, or `None` (the error counted).
async fn form_party(lobby: &Lobby, slot: u64, report: &mut Report) -> Option<(String, Vec<String>)> {
    let body = CreateCampaign { game: "divinity".into(), seats: Some(PARTY_SEATS as u32), options: json!({}) };
    let host = match lobby.create_campaign(&body).await {
        Ok(c) => c,
        Err(e) => {
            report.error(e.code().unwrap_or("create_failed"));
            return None;
        }
    };
    let code = host.join_code.clone().unwrap_or_default();
    let mut tokens = vec![host.token];
    for _ in 1..PARTY_SEATS {
        match lobby.join_campaign(&code).await {
            Ok(j) => tokens.push(j.token),
            Err(e) => {
                report.error(e.code().unwrap_or("join_failed"));
                return None;
            }
        }
    }
    for (i, token) in tokens.iter().enumerate() {
        let origin = ORIGINS[(slot as usize + i) % ORIGINS.len()];
        if let Err(e) = lobby.choose(&host.campaign_id, token, json!({ "origin": origin })).await {
            report.error(e.code().unwrap_or("choose_failed"));
            return None;
        }
    }
    Some((host.campaign_id, tokens))
}

/// How long a Divinity seat leaves a shared decision to the seat that
/// answers it before acting itself (that seat may have nothing listed).
const SHARED_WAIT: Duration = Duration::from_secs(1);

/// Divinity's phases in which each waiting seat has a choice of its own
/// that no other seat's choice can undo (each Origin travels, each Origin
/// takes its Rest turn): all of them act at once there. Not `groups` (the
/// party bot travels together, so one group of several seats decides one
/// card: its seats raced, `not_exploring`) nor `interlude` (the Merchant,
/// its wares and the gold are the party's, a talent tile is taken once,
/// and the interlude's end ends the match under the others: `merchant_open`,
/// `not_offered`, `talent_taken`, `item_waiting`, `finished`): there the
/// lowest waiting seat acts and the others wait for the next frame, as for
/// any shared decision.
const OWN_CHOICES: [&str; 2] = ["travel", "rest"];

/// The seat that answers a decision several seats wait on (the party's
/// choice of round, the order of resolution, whose combat turn comes
/// next, a roll to accept, a group's card, the interlude): the lowest of
/// them. `None` when one seat or none is waited for, or each waits on a
/// choice of its own.
fn answering_seat(p: &Player) -> Option<athlas_protocol::Seat> {
    if p.waiting.len() < 2 || OWN_CHOICES.contains(&p.phase.as_str()) {
        return None;
    }
    p.waiting.iter().min().copied()
}

/// Play one seat until the match ends, the deadline passes, or it stalls.
/// The bot is handed back, to play the seat's next match.
async fn play_seat(link: Link, mut bot: Bot, deadline: tokio::time::Instant, opts: SeatOpts) -> (SeatStats, Bot) {
    let st = play_seat_with(link, &mut bot, deadline, opts).await;
    (st, bot)
}

async fn play_seat_with(
    mut link: Link,
    bot: &mut Bot,
    deadline: tokio::time::Instant,
    mut opts: SeatOpts,
) -> SeatStats {
    let mut st = SeatStats::default();
    let mut p = Player::new();
    let mut reconnected = false;
    let mut resend_at: Option<tokio::time::Instant> = None;
    // When the bot, having thought, acts.
    let mut act_at: Option<tokio::time::Instant> = None;
    let mut heard = tokio::time::Instant::now();
    // Divinity: until when this seat leaves a shared decision to the seat
    // that answers it ([`answering_seat`]).
    let mut shared_wait: Option<tokio::time::Instant> = None;
    let err = |st: &mut SeatStats, code: &str| *st.errors.entry(code.to_owned()).or_default() += 1;
    loop {
        let wake = resend_at.or(act_at).or(shared_wait).unwrap_or(deadline).min(deadline).min(heard + STALL);
        let first = tokio::select! {
            ev = link.next() => ev,
            () = sleep_until(wake) => {
                let now = tokio::time::Instant::now();
                if now >= deadline {
                    return st;
                }
                if now >= heard + STALL {
                    err(&mut st, "stalled");
                    return st;
                }
                None
            }
        };
        let mut batch: Vec<LinkEvent> = first.into_iter().collect();
        while let Ok(ev) = link.events.try_recv() {
            batch.push(ev);
        }
        for ev in batch {
            match ev {
                LinkEvent::Frame(text) => {
                    heard = tokio::time::Instant::now();
                    shared_wait = None;
                    let observed = p.observe(&text);
                    bot.observe_owned(text);
                    match observed {
                        Observed::Acked { latency, .. } => {
                            bot.accepted();
                            if opts.pace.as_ref().is_none_or(crowd::Pace::counts) {
                                st.acked += 1;
                                st.latencies_us.push(latency.as_micros().min(u128::from(u32::MAX)) as u32);
                            }
                        }
                        Observed::RateLimited => {
                            err(&mut st, "rate_limited");
                            resend_at = Some(tokio::time::Instant::now() + Duration::from_millis(50));
                        }
                        Observed::Rejected { code, .. } => {
                            bot.refused(&code);
                            err(&mut st, &code);
                            // Refused before the welcome: give up, unless the
                            // link tries again by itself (not here, not now).
                            if !p.welcomed && !athlas_client::net::greeting_retried(&code) {
                                return st;
                            }
                            if bot.stuck() {
                                err(&mut st, "bot_stuck");
                                st.stuck = true;
                                return st;
                            }
                        }
                        _ => {}
                    }
                }
                LinkEvent::Connected { attempt } => reconnected |= attempt > 1,
                LinkEvent::Disconnected { .. } => err(&mut st, "disconnected"),
                LinkEvent::GaveUp { .. } => {
                    err(&mut st, "gave_up");
                    return st;
                }
            }
        }
        if p.finished {
            st.finished = true;
            return st;
        }
        if reconnected && p.welcomed {
            reconnected = false;
            if p.in_flight.is_some() && !p.settle_after_reconnect() {
                p.in_flight = None; // pick again from the fresh view
            }
        }
        if let Some(at) = resend_at {
            if tokio::time::Instant::now() < at {
                continue;
            }
            resend_at = None;
            if let Some(i) = p.in_flight.as_mut() {
                i.sent_at = Instant::now();
                link.send(i.frame.clone());
            }
            continue;
        }
        if !bot.acts_whenever_waited_for() && p.no_legal_lists() {
            err(&mut st, "no_legal_lists");
            st.stuck = true;
            return st;
        }
        if !p.actionable().is_empty() || p.my_turn() {
            if !opts.think.is_zero() || opts.pace.is_some() {
                let now = tokio::time::Instant::now();
                match act_at {
                    None => {
                        act_at = Some(now + opts.pace.as_mut().map_or(opts.think, crowd::Pace::think));
                        continue;
                    }
                    Some(at) if now < at => continue,
                    Some(_) => act_at = None,
                }
            }
            // A soak's break: the connection dropped (and the seat maybe
            // away a while) before the action; back with `last_seq`.
            if let Some(b) = opts.churn.as_mut().and_then(Churn::roll) {
                let churn = opts.churn.as_ref().expect("rolled");
                let away = match b {
                    Break::Leave(away) => away,
                    Break::Reconnect => Duration::ZERO,
                };
                *st.churn.entry(if away.is_zero() { "reconnects" } else { "leaves" }).or_default() += 1;
                // The old socket closes as its link is dropped.
                let again = churn.relink(away, link.last_seq());
                drop(std::mem::replace(&mut link, again));
                heard = tokio::time::Instant::now() + away;
                p.welcomed = false;
                reconnected = true;
                continue;
            }
        } else {
            // Nothing to answer any more (another seat answered, a frame
            // moved the match on): the next question is thought about
            // afresh, and a past `act_at` must not wake this loop at once.
            act_at = None;
        }
        // A decision several seats may answer: only the lowest waiting seat
        // answers it (its bot, or the one it is handed to); the others wait
        // for the next frame, so the party does not race itself into
        // refusals. Should that seat have nothing listed, they act after
        // SHARED_WAIT as before.
        let mut only = None;
        if let Some(s) = answering_seat(&p).filter(|_| !bot.acts_whenever_waited_for()) {
            let actionable = p.actionable();
            if actionable.iter().any(|(seat, _)| *seat == s) {
                only = Some(s);
            } else if !actionable.is_empty() {
                let now = tokio::time::Instant::now();
                if now < *shared_wait.get_or_insert(now + SHARED_WAIT) {
                    continue;
                }
            }
        }
        let my_turn = p.my_turn();
        match bot.act_as(&mut p, only) {
            Some(frame) => link.send(frame),
            None if my_turn && bot.acts_whenever_waited_for() => {
                err(&mut st, "bot_has_no_action");
                st.stuck = true;
                return st;
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[7], 99.0), Some(7));
        let v: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&v, 99.0), Some(99));
        assert_eq!(percentile(&v, 100.0), Some(100));
        assert_eq!(percentile(&v, 0.0), Some(1));
        let w = [1, 2, 3, 1000];
        assert_eq!(percentile(&w, 50.0), Some(2));
        assert_eq!(percentile(&w, 99.0), Some(1000));
    }

    #[test]
    fn the_report_says_everything_asked_for() {
        let mut r = Report {
            matches_started: 3,
            matches_finished: 1,
            acked: 500,
            elapsed: Duration::from_secs(2),
            latencies_us: vec![1000, 2000, 3000],
            errors: BTreeMap::new(),
            cost: Cost { server_cpu: Some(0.25), server_rss: Some(41e6), rooms: Some(200.0), own_cpu: None },
            idle: None,
            churn: BTreeMap::new(),
            soak: None,
        };
        r.error("rate_limited");
        let text = r.to_string();
        assert!(text.contains("3 started, 1 finished"));
        assert!(text.contains("actions/s:      250.0"));
        assert!(text.contains("p50 2.00  p99 3.00"));
        assert!(text.contains("errors:         1 (rate_limited=1)"));
        assert!(text.contains("server CPU:     500 µs per acked action (0.25 s)"), "{text}");
        assert!(text.contains("load CPU:       not measured"), "{text}");
        assert!(text.contains("server RSS:     41.0 MB at the end, 200 rooms loaded (200 KiB per room"), "{text}");
    }

    #[test]
    fn the_generator_reads_its_own_cpu() {
        assert!(own_cpu_seconds().is_some_and(|s| s >= 0.0));
    }

    #[test]
    fn seeds_mix_apart() {
        assert_ne!(mix(1), mix(2));
        assert_eq!(mix(42), mix(42));
    }

    #[tokio::test]
    async fn remote_servers_and_unbounded_runs_are_refused() {
        let cfg = |host: &str, matches, secs| LoadConfig {
            addr: ServerAddr::parse(host).unwrap(),
            game: LoadGame::Duel,
            matches,
            duration: Duration::from_secs(secs),
            seed: 0,
            points: 250,
            max_actions: 100,
            idle_matches: 0,
            idle: 0,
            think: Duration::ZERO,
            soak: None,
        };
        assert!(run(cfg("example.org:80", 1, 1)).await.unwrap_err().to_string().contains("loopback"));
        assert!(run(cfg("127.0.0.1:9", 0, 1)).await.is_err());
        assert!(run(cfg("127.0.0.1:9", 1, 0)).await.is_err());
        assert!(run(cfg("127.0.0.1:9", 1, 7200)).await.is_err());
    }
}
