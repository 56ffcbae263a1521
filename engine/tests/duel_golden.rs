//! Recorded duels replay to the same states, views and events: the fixture
//! `duel_golden/games.json` holds, per game, its options, seed and accepted
//! action log, and hashes of what the engine made of it (the state, each
//! seat's and the spectator's view, every action's events, the status). A
//! restructuring that changes no behaviour keeps every hash; so does a
//! stored duel's log, which is what makes a restart replay byte-identical.
//!
//! `DUEL_GOLDEN_WRITE=1 cargo test -p athlas-engine --test duel duel_golden::`
//! records the games again (each seat picks at random among the engine's
//! legal actions) and rewrites the fixture; without it the test only
//! compares. Re-record only for a deliberate change, in a commit of its own.

use athlas_engine::duel::{Duel, DuelAction, DuelOptions, DuelState};
use athlas_engine::rng::GameRng;
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Game {
    options: DuelOptions,
    seed: u64,
    log: Vec<(Seat, DuelAction)>,
    /// FNV-1a of the state's JSON.
    state: String,
    /// FNV-1a of each seat's view, then the spectator's.
    views: Vec<String>,
    /// FNV-1a of every accepted action's events, in order.
    events: String,
    status: String,
}

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/duel_golden/games.json")
}

fn fnv(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn json_hash(v: &impl Serialize) -> String {
    fnv(serde_json::to_string(v).unwrap().as_bytes())
}

fn views(s: &DuelState) -> Vec<String> {
    [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator].into_iter().map(|v| json_hash(&Duel::view(s, v))).collect()
}

fn status(s: &DuelState) -> String {
    match Duel::status(s) {
        Status::Finished(o) => format!("finished {o:?}"),
        Status::Waiting { seats } => format!("waiting {seats:?}"),
    }
}

fn replay(g: &Game) -> (DuelState, String) {
    let mut s = Duel::start(&g.options, g.seed).expect("setup");
    let mut events = Vec::new();
    for (i, (seat, a)) in g.log.iter().enumerate() {
        let ev = Duel::apply(&mut s, *seat, a.clone()).unwrap_or_else(|e| panic!("action {i} {a:?}: {e:?}"));
        events.push(serde_json::to_string(&ev).unwrap());
    }
    (s, fnv(events.join("\n").as_bytes()))
}

fn record(options: DuelOptions, seed: u64, steps: usize) -> Game {
    let mut s = Duel::start(&options, seed).expect("setup");
    let mut rng = GameRng::from_seed(seed ^ 0xd0e1);
    let mut log = Vec::new();
    for _ in 0..steps {
        let Status::Waiting { seats } = Duel::status(&s) else { break };
        let seat = seats[rng.below(seats.len() as u32) as usize];
        let legal = Duel::legal(&s, seat);
        // Ending the turn or offering a draw at random would cut games short.
        let keep: Vec<&DuelAction> =
            legal.iter().filter(|a| !matches!(a, DuelAction::OfferDraw | DuelAction::Resign)).collect();
        let pool = if keep.is_empty() { legal.iter().collect() } else { keep };
        let mut a = pool[rng.below(pool.len() as u32) as usize].clone();
        if let Some(c) = a.hex_choice() {
            let hexes = c.pick(|n| rng.below(n as u32) as usize);
            a = a.with_hexes(hexes).expect("a choice the entry allows");
        }
        Duel::apply(&mut s, seat, a.clone()).expect("a legal action is accepted");
        log.push((seat, a));
    }
    let mut g =
        Game { options, seed, log, state: String::new(), views: vec![], events: String::new(), status: String::new() };
    let (end, events) = replay(&g);
    g.state = json_hash(&end);
    g.views = views(&end);
    g.events = events;
    g.status = status(&end);
    g
}

fn games_to_record() -> Vec<(DuelOptions, u64)> {
    (1..=6u64)
        .map(|seed| {
            let options =
                DuelOptions { summoning_points: [150, 250, 400][seed as usize % 3], ..DuelOptions::default() };
            (options, seed)
        })
        .collect()
}

#[test]
fn recorded_duels_replay_to_the_same_states_views_and_events() {
    if std::env::var_os("DUEL_GOLDEN_WRITE").is_some() {
        let games: Vec<Game> = games_to_record().into_iter().map(|(o, seed)| record(o, seed, 250)).collect();
        std::fs::create_dir_all(fixture().parent().unwrap()).unwrap();
        std::fs::write(fixture(), serde_json::to_string_pretty(&games).unwrap()).unwrap();
    }
    let text = std::fs::read_to_string(fixture()).expect("the recorded games");
    let games: Vec<Game> = serde_json::from_str(&text).expect("the fixture parses");
    assert_eq!(games.len(), games_to_record().len());
    let mut actions = 0;
    for g in &games {
        let (end, events) = replay(g);
        let what = format!("seed {}", g.seed);
        assert_eq!(json_hash(&end), g.state, "{what}: state");
        assert_eq!(views(&end), g.views, "{what}: views");
        assert_eq!(events, g.events, "{what}: events");
        assert_eq!(status(&end), g.status, "{what}: status");
        actions += g.log.len();
    }
    assert!(actions > 1000, "the recorded games are long enough to mean something ({actions} actions)");
}
