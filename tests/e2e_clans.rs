//! End-to-end, the clan battle: a real `athlas-server` process, clan
//! battles one against one and two against two played to their end by the
//! terminal client's bots (`athlas_client`: its `Link`, `Player` and clan
//! bot, as `athlas join --bot` plays them) over real WebSockets. Mid-game
//! the server is killed with SIGKILL and a new one started on the same
//! store: every acknowledged action is still there, the seats come back
//! with their `last_seq` and play on, `athlas-server audit --all` replays
//! every match clean, and each finished match passes the check `athlas
//! verify` runs (`athlas_client::games::verify` on its published log).
//! On SQLite and on Postgres (the local server at 127.0.0.1:5432).
//!
//! Registered as a test of the `athlas-server` package (see
//! server/Cargo.toml) so that Cargo builds the server binary.

#[path = "support/mod.rs"]
mod support;

use std::sync::{
    atomic::{AtomicU64, Ordering},
    Arc,
};
use std::time::Duration;

use athlas_client::{
    bot::Bot,
    net::{Backoff, Identity, Link, LinkEvent, Lobby, ServerAddr},
    player::{Observed, Player},
};
use serde_json::json;
use support::*;
use tokio::sync::watch;

/// A seat's bot gives up (resigns) after this many actions, so every game ends.
const MAX_ACTIONS: u64 = 2_000;
/// Actions every match has had acknowledged before the kill.
const BEFORE_KILL: u64 = 25;

/// What a seat's task hands back when stopped or finished.
struct SeatEnd {
    bot: Bot,
    last_seq: Option<u64>,
    finished: bool,
    refusals: Vec<String>,
}

/// One match: its id, its seats' tokens, the highest seq acknowledged to
/// any of its seats.
struct Game {
    id: String,
    tokens: Vec<String>,
    acked: Arc<AtomicU64>,
}

/// Play one seat until the match ends or `stop` turns true. It acts only
/// once it has seen update `current` (a resume replays the updates after
/// its `last_seq`: a view among them is not the match as it stands).
async fn play_seat(
    mut link: Link,
    mut bot: Bot,
    acked: Arc<AtomicU64>,
    current: u64,
    mut stop: watch::Receiver<bool>,
) -> SeatEnd {
    let mut p = Player::new();
    let mut refusals = Vec::new();
    let mut reconnected = false;
    let mut since_welcome = 0;
    loop {
        let ev = tokio::select! {
            ev = link.next() => ev,
            _ = stop.changed() => None,
        };
        let Some(ev) = ev else {
            return SeatEnd { bot, last_seq: link.last_seq(), finished: false, refusals };
        };
        match ev {
            LinkEvent::Frame(text) => {
                since_welcome += 1;
                if text.contains("\"type\":\"welcome\"") {
                    since_welcome = 0;
                }
                bot.observe(&text);
                match p.observe(&text) {
                    Observed::Acked { seq, .. } => {
                        bot.accepted();
                        acked.fetch_max(seq, Ordering::SeqCst);
                    }
                    Observed::Rejected { code, message, .. } => {
                        bot.refused(&code);
                        refusals.push(format!("{code}: {message} ({since_welcome} frames after a welcome)"));
                    }
                    _ => {}
                }
            }
            LinkEvent::Connected { attempt } => reconnected |= attempt > 1,
            LinkEvent::Disconnected { .. } => {}
            LinkEvent::GaveUp { reason } => panic!("a seat gave up: {reason}"),
        }
        if p.finished {
            return SeatEnd { bot, last_seq: link.last_seq(), finished: true, refusals };
        }
        if reconnected && p.welcomed {
            reconnected = false;
            if p.in_flight.is_some() && !p.settle_after_reconnect() {
                p.in_flight = None;
            }
        }
        if p.seq.unwrap_or(0) < current {
            continue;
        }
        if let Some(frame) = bot.act(&mut p) {
            link.send(frame);
        }
    }
}

fn backoff() -> Backoff {
    Backoff { first: Duration::from_millis(50), max: Duration::from_millis(500), attempts: Some(40) }
}

/// Start every seat of every game; the tasks in game order, seat order.
fn spawn_seats(
    addr: &ServerAddr,
    games: &[Game],
    bots: Vec<(Bot, Option<u64>)>,
    current: &[u64],
    stop: &watch::Receiver<bool>,
) -> Vec<tokio::task::JoinHandle<SeatEnd>> {
    let mut bots = bots.into_iter();
    let mut out = Vec::new();
    for (g, current) in games.iter().zip(current) {
        for t in &g.tokens {
            let (bot, last_seq) = bots.next().expect("a bot per seat");
            let link = Link::spawn(addr.ws_for(&g.id), Identity::Seat { token: t.clone() }, last_seq, backoff());
            out.push(tokio::spawn(play_seat(link, bot, g.acked.clone(), *current, stop.clone())));
        }
    }
    out
}

async fn create(lobby: &Lobby, options: serde_json::Value, seats: usize) -> Game {
    let c = lobby.create("clans", options, false).await.expect("create a clan battle");
    let mut tokens = vec![c.token];
    for _ in 1..seats {
        tokens.push(lobby.join(&c.join_code).await.expect("join").token);
    }
    let full = lobby.join(&c.join_code).await;
    assert!(full.is_err(), "every seat is taken");
    Game { id: c.match_id, tokens, acked: Arc::new(AtomicU64::new(0)) }
}

async fn clans_survive_kill_9(db: Db) {
    let mut server = db.start();
    let addr = ServerAddr::parse(&server.addr).unwrap();
    let lobby = Lobby::new(addr.clone());
    let games = vec![
        create(&lobby, json!({"clans": ["sacred_cross", "crimson_nobles"]}), 2).await,
        create(
            &lobby,
            json!({"clans": ["crimson_nobles", "sacred_cross", "sacred_cross", "crimson_nobles"], "battlefield": "highland_pass"}),
            4,
        )
        .await,
    ];
    let mut seed = 0;
    let bots: Vec<(Bot, Option<u64>)> = games
        .iter()
        .flat_map(|g| g.tokens.iter())
        .map(|_| {
            seed += 1;
            let mut b = Bot::clans(seed);
            b.max_actions = MAX_ACTIONS;
            (b, None)
        })
        .collect();
    let (stop_tx, stop) = watch::channel(false);
    let seats = spawn_seats(&addr, &games, bots, &[0, 0], &stop);

    // Mid-game: every match has actions acknowledged, none is over.
    let started = std::time::Instant::now();
    while games.iter().any(|g| g.acked.load(Ordering::SeqCst) < BEFORE_KILL) {
        assert!(started.elapsed() < WAIT, "the bots play");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // kill -9 while the bots are acting: no chance to flush anything.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    stop_tx.send(true).unwrap();
    let mut ends = Vec::new();
    for s in seats {
        ends.push(s.await.unwrap());
    }
    assert!(ends.iter().all(|e| !e.finished), "the kill came mid-game");
    let acked: Vec<u64> = games.iter().map(|g| g.acked.load(Ordering::SeqCst)).collect();

    // A new server on the same store: each match is at least at its last
    // acknowledged action, for every seat.
    let server = db.start();
    let addr = ServerAddr::parse(&server.addr).unwrap();
    let mut current = Vec::new();
    for (g, acked) in games.iter().zip(&acked) {
        let mut seqs = Vec::new();
        for t in &g.tokens {
            let c = Client::player(&server.addr, t, None).await;
            assert!(c.seq >= *acked, "no acknowledged action lost in {}: {} < {acked}", g.id, c.seq);
            assert_eq!(c.view["phase"]["phase"], "playing", "{}", c.view["phase"]);
            seqs.push(c.seq);
        }
        // Every seat of a match sees it at the same seq.
        seqs.dedup();
        assert_eq!(seqs.len(), 1, "{seqs:?}");
        current.push(seqs[0]);
    }

    // The seats come back from the last seq they saw and play to the end.
    let (stop_tx, stop) = watch::channel(false);
    let bots = ends.iter_mut().map(|e| (std::mem::replace(&mut e.bot, Bot::clans(0)), e.last_seq)).collect();
    let seats = spawn_seats(&addr, &games, bots, &current, &stop);
    let mut refusals: Vec<String> = ends.into_iter().flat_map(|e| e.refusals).collect();
    for s in seats {
        let end = tokio::time::timeout(Duration::from_secs(600), s).await.expect("the game ends").unwrap();
        assert!(end.finished, "each seat sees its game end");
        refusals.extend(end.refusals);
    }
    drop(stop_tx);
    // Every action sent was one the server listed: none refused.
    assert!(refusals.is_empty(), "refused: {refusals:?}");

    let lobby = Lobby::new(addr.clone());
    for g in &games {
        let (_, summary) = http(&server.addr, "GET", &format!("/api/matches/{}", g.id), None).await;
        assert_eq!(summary["status"], "finished", "{summary}");
        // What `athlas verify <match>` checks: the published log replayed
        // by this build's engine, state hashes, commitments, outcome.
        let log = lobby.match_log(&g.id).await.expect("the published log");
        assert_eq!(log.game, "clans");
        let checked = athlas_client::games::verify(&log).unwrap_or_else(|e| panic!("NOT verified: {e}"));
        eprintln!("athlas verify {}: {checked}", g.id);
    }
    let report = db.audit_all();
    for g in &games {
        assert!(report.contains(&g.id), "{report}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clan_battles_survive_kill_9_on_sqlite() {
    clans_survive_kill_9(Db::sqlite("clans-kill")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clan_battles_survive_kill_9_on_postgres() {
    if let Some(db) = Db::postgres("clans_kill").await {
        clans_survive_kill_9(db).await;
    }
}
