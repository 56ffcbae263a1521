//! Recorded Divinity games replay to the same states, views and events:
//! the fixture `divinity_golden/games.json` holds, per game, its options,
//! seed and accepted action log, and hashes of what the engine made of it.
//! A restructuring that changes no behaviour keeps every hash.
//!
//! The state hash leaves out the fields a restructuring of the engine's
//! "waiting for a choice" state and of its once-per-round keys may
//! reshape (`pending`, `enemy_roll`, `dominated_turn`, `tie`, `route`,
//! `reduction`, `roll_reduction`, `turn_start`, `reaction`, `challenge`,
//! `overflow`, `used`, and `choice`, which now holds the first eight); every seat's view shows all of them but `used`, and
//! the events and statuses are hashed whole.
//!
//! `DIVINITY_GOLDEN_WRITE=1 cargo test -p athlas-engine --test divinity divinity_golden::` records the
//! games again (random legal-ish play from each seed) and rewrites the
//! fixture; without it the test only compares.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::dice::Colour;
use athlas_engine::divinity::state::{Phase, Who};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::rng::GameRng;
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Game {
    options: DivinityOptions,
    seed: u64,
    log: Vec<(Seat, A)>,
    /// FNV-1a of the state's JSON without the fields a refactor may reshape.
    state: String,
    /// FNV-1a of each seat's view (then the spectator's).
    views: Vec<String>,
    /// FNV-1a of every accepted action's events, in order.
    events: String,
    /// The final status, as JSON.
    status: String,
}

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/divinity_golden/games.json")
}

fn fnv(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

const RESHAPED: [&str; 13] = [
    "choice",
    "pending",
    "enemy_roll",
    "dominated_turn",
    "tie",
    "route",
    "reduction",
    "roll_reduction",
    "turn_start",
    "reaction",
    "challenge",
    "overflow",
    "used",
];

fn state_hash(s: &DivinityState) -> String {
    let mut v = serde_json::to_value(s).unwrap();
    let m = v.as_object_mut().unwrap();
    for k in RESHAPED {
        m.remove(k);
    }
    fnv(serde_json::to_string(&v).unwrap().as_bytes())
}

fn views(s: &DivinityState) -> Vec<String> {
    let mut out: Vec<String> = (0..s.origins.len() as Seat)
        .map(|v| fnv(serde_json::to_string(&Divinity::view(s, Viewer::Seat(v))).unwrap().as_bytes()))
        .collect();
    out.push(fnv(serde_json::to_string(&Divinity::view(s, Viewer::Spectator)).unwrap().as_bytes()));
    out
}

fn status(s: &DivinityState) -> String {
    match Divinity::status(s) {
        Status::Finished(o) => format!("finished {o:?}"),
        Status::Waiting { seats } => format!("waiting {seats:?}"),
    }
}

/// Replay a log, hashing every accepted action's events.
fn replay(g: &Game) -> (DivinityState, String) {
    let mut s = Divinity::start(&g.options, g.seed).expect("setup");
    let mut events = Vec::new();
    for (i, (seat, a)) in g.log.iter().enumerate() {
        let ev = Divinity::apply(&mut s, *seat, a.clone()).unwrap_or_else(|e| panic!("action {i} {a:?}: {e:?}"));
        events.push(serde_json::to_string(&ev).unwrap());
    }
    (s, fnv(events.join("\n").as_bytes()))
}

/// Actions for a seat built from the stable parts of the state only, so the
/// recorder works across a restructuring of the waiting choices.
fn candidates(s: &DivinityState, seat: Seat, rng: &mut GameRng) -> Vec<A> {
    let cat = Catalogue::standard();
    let loc = &cat.locations[&s.location];
    let spaces: Vec<&String> = loc.map.spaces.iter().map(|sp| &sp.id).collect();
    let sp = spaces[rng.below(spaces.len() as u32) as usize].clone();
    let mut out = vec![
        A::ChooseRound { explore: rng.below(3) > 0 },
        A::Reveal,
        A::Pass,
        A::Accept,
        A::Accept,
        A::StartTurn,
        A::EndTurn,
        A::Challenge { auto: None, keywords: vec![] },
        A::Recover { status: None },
        A::Travel { to: Some(sp.clone()) },
        A::Move { to: sp.clone() },
        A::Reroll { dice: vec![0], source: true },
        A::PlaceItem { to: None, drop: None, pass_to: None },
        A::FinishInterlude,
        A::ChooseRoute { route: rng.below(2) as usize },
        A::ReduceDice { remove: vec![[Colour::White, Colour::Blue, Colour::Red][rng.below(3) as usize]] },
        A::OrderTurnStart { order: s.turn_start_effects(cat, Who::Origin(seat)) },
    ];
    for r in &s.revealed {
        out.push(A::Resolve { card: r.card.clone() });
    }
    for h in &s.holding {
        out.push(A::TakeHolding { card: h.clone() });
    }
    let aims: Vec<Aim> =
        s.enemies.iter().map(|e| Aim::Enemy(e.id)).chain((0..s.origins.len() as Seat).map(Aim::Origin)).collect();
    let aim = aims[rng.below(aims.len() as u32) as usize].clone();
    let o = &s.origins[seat as usize];
    for i in &o.equipped {
        out.push(A::Use { first_aura: None, include_self: None, card: CardUse::Item(i.clone()), aim: aim.clone() });
    }
    for k in &o.hand {
        out.push(A::Use { first_aura: None, include_self: None, card: CardUse::Skill(k.clone()), aim: aim.clone() });
    }
    if let Aim::Enemy(e) = aim {
        out.push(A::Taunt { enemy: e });
        out.push(A::Command { target: Aim::Enemy(e) });
    }
    for t in 0..s.origins.len() as Seat {
        out.push(A::BreakTie { target: Aim::Origin(t) });
        if s.origins[t as usize].downed {
            out.push(A::Revive { to: t, hp: 1 + rng.below(3) });
        }
    }
    let talents: Vec<&String> = cat.talents.keys().collect();
    let skills: Vec<&String> = cat.skills.keys().collect();
    out.push(A::LevelUp {
        talent: Some(talents[rng.below(talents.len() as u32) as usize].clone()),
        learn: skills[rng.below(skills.len() as u32) as usize].clone(),
        respec: vec![],
    });
    if let Phase::Interlude(_) = &s.phase {
        out.push(A::VisitMerchant { level: 1, consumables: None });
    }
    out
}

fn record(options: DivinityOptions, seed: u64, steps: usize) -> Game {
    let mut s = Divinity::start(&options, seed).expect("setup");
    let mut rng = GameRng::from_seed(seed ^ 0x901d);
    let mut log = Vec::new();
    for _ in 0..steps {
        let Status::Waiting { seats } = Divinity::status(&s) else { break };
        let seat = seats[rng.below(seats.len() as u32) as usize];
        let cands = candidates(&s, seat, &mut rng);
        let a = cands[rng.below(cands.len() as u32) as usize].clone();
        if Divinity::apply(&mut s, seat, a.clone()).is_ok() {
            log.push((seat, a));
        }
    }
    let mut g =
        Game { options, seed, log, state: String::new(), views: vec![], events: String::new(), status: String::new() };
    let (end, events) = replay(&g);
    g.state = state_hash(&end);
    g.views = views(&end);
    g.events = events;
    g.status = status(&end);
    g
}

fn games_to_record() -> Vec<(DivinityOptions, u64)> {
    let locs = ["tutorial", "shipwreck", "fort_joy", "hollow_marshes", "temple"];
    let party = ["ifan", "sebille", "red_prince", "fane"];
    let mut out = Vec::new();
    for (i, loc) in locs.iter().enumerate() {
        for size in [1, 2, 4] {
            let options = DivinityOptions {
                party: party[..size].iter().map(|p| p.to_string()).collect(),
                location: Some(loc.to_string()),
                ..DivinityOptions::default()
            };
            out.push((options, 11 * i as u64 + size as u64));
        }
    }
    out
}

#[test]
fn recorded_games_replay_to_the_same_states_views_and_events() {
    if std::env::var_os("DIVINITY_GOLDEN_WRITE").is_some() {
        let games: Vec<Game> = games_to_record().into_iter().map(|(o, seed)| record(o, seed, 1200)).collect();
        std::fs::create_dir_all(fixture().parent().unwrap()).unwrap();
        std::fs::write(fixture(), serde_json::to_string_pretty(&games).unwrap()).unwrap();
    }
    let text = std::fs::read_to_string(fixture()).expect("the recorded games");
    let games: Vec<Game> = serde_json::from_str(&text).expect("the fixture parses");
    assert_eq!(games.len(), games_to_record().len());
    let mut actions = 0;
    for g in &games {
        let (end, events) = replay(g);
        let what = format!("{:?} seed {}", g.options.location, g.seed);
        assert_eq!(state_hash(&end), g.state, "{what}: state");
        assert_eq!(views(&end), g.views, "{what}: views");
        assert_eq!(events, g.events, "{what}: events");
        assert_eq!(status(&end), g.status, "{what}: status");
        actions += g.log.len();
    }
    assert!(actions > 1000, "the recorded games are long enough to mean something ({actions} actions)");
}
