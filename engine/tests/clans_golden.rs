//! Recorded clans games replay to the same states, views and events: the
//! fixture `clans_golden/games.json` holds per game its options, seed and
//! accepted action log, and hashes of what the engine made of it.
//!
//! `CLANS_GOLDEN_WRITE=1 cargo test -p athlas-engine --test clans clans_golden::`
//! records the games again (the bots play every seat) and rewrites the
//! fixture; without it the test only compares. Re-record only for a
//! deliberate change, in a commit of its own.

use crate::clans_support::cat;
use athlas_engine::clans::bot::{seat_to_act, GreedyBot, RandomBot};
use athlas_engine::clans::{Clans, ClansAction, ClansOptions, ClansState};
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Game {
    options: ClansOptions,
    seed: u64,
    log: Vec<(Seat, ClansAction)>,
    state: String,
    views: Vec<String>,
    events: String,
    /// The event lines of the whole game, in words (`clans::words`).
    words: String,
    status: String,
}

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/clans_golden/games.json")
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

fn views(s: &ClansState) -> Vec<String> {
    (0..s.players.len() as Seat)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .map(|v| json_hash(&Clans::view(s, v)))
        .collect()
}

fn status(s: &ClansState) -> String {
    match Clans::status(s) {
        Status::Finished(o) => format!("finished {o:?}"),
        Status::Waiting { seats } => format!("waiting {seats:?}"),
    }
}

/// The end state, the events' hash and the event words' hash.
fn replay(g: &Game) -> (ClansState, String, String) {
    let mut s = Clans::start(&g.options, g.seed).expect("setup");
    let mut events = Vec::new();
    let mut words = Vec::new();
    for (i, (seat, a)) in g.log.iter().enumerate() {
        let before = s.clone();
        let ev = Clans::apply(&mut s, *seat, a.clone()).unwrap_or_else(|e| panic!("action {i} {a:?}: {e:?}"));
        words.extend(Clans::event_words(&before, &s, &ev));
        events.push(serde_json::to_string(&ev).unwrap());
    }
    (s, fnv(events.join("\n").as_bytes()), fnv(words.join("\n").as_bytes()))
}

fn record(options: ClansOptions, seed: u64, greedy: bool) -> Game {
    let mut s = Clans::start(&options, seed).expect("setup");
    let mut rb = RandomBot::new(seed ^ 0xd0e1);
    let mut gb = GreedyBot::new(seed ^ 0xd0e1);
    let mut log = Vec::new();
    for _ in 0..600 {
        let Some(seat) = seat_to_act(&s) else { break };
        let a = if greedy { gb.pick(&s, cat(), seat) } else { rb.pick(&s, cat(), seat) }.expect("an action");
        Clans::apply(&mut s, seat, a.clone()).expect("a legal action is accepted");
        log.push((seat, a));
    }
    let mut g = Game {
        options,
        seed,
        log,
        state: String::new(),
        views: vec![],
        events: String::new(),
        words: String::new(),
        status: String::new(),
    };
    let (end, events, words) = replay(&g);
    g.words = words;
    g.state = json_hash(&end);
    g.views = views(&end);
    g.events = events;
    g.status = status(&end);
    g
}

fn games_to_record() -> Vec<(ClansOptions, u64, bool)> {
    let s = |v: &[&str]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    vec![
        (ClansOptions { clans: s(&["sacred_cross", "crimson_nobles"]), ..ClansOptions::default() }, 1, true),
        (
            ClansOptions {
                clans: s(&["crimson_nobles", "sacred_cross"]),
                battlefield: "highland_pass".into(),
                exp_per_turn: 1,
                sp_per_turn: 5,
                ..ClansOptions::default()
            },
            2,
            true,
        ),
        (
            ClansOptions {
                clans: s(&["sacred_cross", "crimson_nobles"]),
                max_turns: Some(12),
                ..ClansOptions::default()
            },
            3,
            false,
        ),
        (
            ClansOptions {
                clans: s(&["sacred_cross", "crimson_nobles", "crimson_nobles", "sacred_cross"]),
                ..ClansOptions::default()
            },
            4,
            true,
        ),
        (
            ClansOptions {
                clans: s(&["crimson_nobles", "sacred_cross", "sacred_cross", "crimson_nobles"]),
                battlefield: "highland_pass".into(),
                exp_per_turn: 1,
                max_turns: Some(24),
                ..ClansOptions::default()
            },
            5,
            false,
        ),
        // 2v2 to a God's fall on the winning team too (seat 3), then the win.
        (
            ClansOptions {
                clans: s(&["crimson_nobles", "sacred_cross", "sacred_cross", "crimson_nobles"]),
                battlefield: "highland_pass".into(),
                exp_per_turn: 1,
                ..ClansOptions::default()
            },
            7,
            true,
        ),
    ]
}

#[test]
fn recorded_games_replay_to_the_same_states_views_and_events() {
    if std::env::var_os("CLANS_GOLDEN_WRITE").is_some() {
        let games: Vec<Game> = games_to_record().into_iter().map(|(o, seed, g)| record(o, seed, g)).collect();
        std::fs::write(fixture(), serde_json::to_string_pretty(&games).unwrap()).unwrap();
    }
    let text = std::fs::read_to_string(fixture()).expect("the recorded games");
    let games: Vec<Game> = serde_json::from_str(&text).expect("the fixture parses");
    assert_eq!(games.len(), games_to_record().len());
    let mut actions = 0;
    for g in &games {
        let (end, events, words) = replay(g);
        let what = format!("seed {}", g.seed);
        assert_eq!(json_hash(&end), g.state, "{what}: state");
        assert_eq!(views(&end), g.views, "{what}: views");
        assert_eq!(events, g.events, "{what}: events");
        assert_eq!(words, g.words, "{what}: the events in words");
        assert_eq!(status(&end), g.status, "{what}: status");
        actions += g.log.len();
    }
    assert!(actions > 300, "the recorded games are long enough to mean something ({actions} actions)");
}
