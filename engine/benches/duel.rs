//! `duel_apply`: validate and apply one typical action (an attack) in the
//! middle of a game. `duel_replay`: rebuild a 300-action game from its log.
//! Targets (DESIGN.md): ≤ 20 µs median and ≤ 10 ms. `duel_view_json`: the
//! acting seat's view with its legal actions, serialized, as sent per update.
//! `duel_views_json`: both seats' views of one record built together (the
//! units built and written once for both), each serialized.
//! `duel_legal`: the legal actions of both seats (each seat's view lists its
//! own) at every 10th position of the recorded golden games; one iteration
//! is all of those calls (their number is printed, to read a per-call time).
//! `duel_legal_by_trial`: the same lists by trying every candidate on a copy
//! (the oracle; how `duel_legal` was computed before it judged candidates).
//! `duel_record`: what a room's engine does per record of a 300-action
//! game, for every record: the views of both seats and a spectator built
//! together (from the record before's), each seat's legal actions in words
//! and the record's events in words, and the three views as JSON; one
//! iteration is the whole game.

use athlas_engine::duel::bot::RandomBot;
use athlas_engine::duel::card::Catalogue;
use athlas_engine::duel::legal::legal_by_trial;
use athlas_engine::duel::{Duel, DuelAction, DuelOptions, DuelState};
use athlas_engine::{replay, Ruleset, Seat};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use serde::Deserialize;

/// A recorded game of `tests/duel_golden` (its hashes are not needed here).
#[derive(Deserialize)]
struct Golden {
    options: DuelOptions,
    seed: u64,
    log: Vec<(Seat, DuelAction)>,
}

/// Every `step`-th position of the golden games, replayed.
fn golden_positions(step: usize) -> Vec<DuelState> {
    let games: Vec<Golden> =
        serde_json::from_str(include_str!("../tests/duel_golden/games.json")).expect("the golden games parse");
    let mut out = Vec::new();
    for g in games {
        let mut s = Duel::start(&g.options, g.seed).unwrap();
        for (i, (seat, a)) in g.log.into_iter().enumerate() {
            if i % step == 0 {
                out.push(s.clone());
            }
            Duel::apply(&mut s, seat, a).unwrap();
        }
    }
    out
}

/// A random but reproducible game of exactly `n` accepted actions.
fn game(n: usize) -> (DuelOptions, u64, Vec<(Seat, DuelAction)>, Vec<DuelState>) {
    let cat = Catalogue::standard();
    let options = DuelOptions::default();
    for seed in 0.. {
        let mut s = Duel::start(&options, seed).unwrap();
        let mut bot = RandomBot::new(seed);
        let mut log = Vec::new();
        let mut states = Vec::new();
        while log.len() < n {
            let Some(seat) = bot.seat_to_act(&s) else { break };
            let Some(a) = bot.pick(&s, cat, seat) else { break };
            if matches!(a, DuelAction::OfferDraw | DuelAction::AcceptDraw) {
                continue;
            }
            states.push(s.clone());
            Duel::apply(&mut s, seat, a.clone()).unwrap();
            log.push((seat, a));
        }
        if log.len() == n {
            return (options, seed, log, states);
        }
    }
    unreachable!()
}

fn benches(c: &mut Criterion) {
    let (options, seed, log, states) = game(300);
    // A typical action: the first attack with a unit power found in the game.
    let (i, (seat, action)) = log
        .iter()
        .enumerate()
        .find(|(_, (_, a))| matches!(a, DuelAction::UsePower { .. }))
        .expect("the game has a power use");
    let before = states[i].clone();
    c.bench_function("duel_apply", |b| {
        b.iter_batched(
            || before.clone(),
            |mut s| Duel::apply(&mut s, *seat, action.clone()).unwrap(),
            BatchSize::SmallInput,
        )
    });
    c.bench_function("duel_replay", |b| b.iter(|| replay::<Duel>(&options, seed, log.clone()).unwrap()));
    // What the server does per seat per update: the acting seat's view, with
    // its legal actions, as JSON.
    let mid = &states[150];
    let acting = RandomBot::new(0).seat_to_act(mid).expect("someone acts mid-game");
    c.bench_function("duel_view_json", |b| {
        b.iter(|| serde_json::to_string(&Duel::view(mid, athlas_engine::Viewer::Seat(acting))).unwrap())
    });
    // What the room does per record with both seats connected: both
    // seats' views built together (the units shared), each as JSON.
    let seats = [athlas_engine::Viewer::Seat(0), athlas_engine::Viewer::Seat(1)];
    c.bench_function("duel_views_json", |b| {
        b.iter(|| {
            Duel::views(mid, &seats, true, None).iter().map(|v| serde_json::to_string(v).unwrap().len()).sum::<usize>()
        })
    });
    // What the room asks of the engine per record (the server's
    // `publish` and `Table::act`), for every record of the game.
    let viewers = [athlas_engine::Viewer::Seat(0), athlas_engine::Viewer::Seat(1), athlas_engine::Viewer::Spectator];
    let records: Vec<(&DuelState, DuelState, Vec<athlas_engine::duel::DuelEvent>)> = states
        .iter()
        .zip(&log)
        .map(|(s, (seat, a))| {
            let mut after = s.clone();
            let events = Duel::apply(&mut after, *seat, a.clone()).unwrap();
            (s, after, events)
        })
        .collect();
    let names = athlas_engine::SeatNames::none();
    c.bench_function("duel_record", |b| {
        b.iter(|| {
            let mut n = 0;
            let mut last: Option<athlas_engine::duel::DuelView> = None;
            for (before, after, events) in &records {
                let views = Duel::views(after, &viewers, false, last.as_ref());
                for seat in 0..2u8 {
                    n += Duel::named_action_words(after, seat, &views[seat as usize].legal, names).len();
                }
                n += Duel::named_event_words(before, after, events, names).len();
                n += views.iter().map(|v| serde_json::to_vec(v).unwrap().len()).sum::<usize>();
                last = views.into_iter().next();
            }
            n
        })
    });
    let positions = golden_positions(10);
    eprintln!("duel_legal: {} calls per iteration", positions.len() * 2);
    c.bench_function("duel_legal", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &positions {
                for seat in 0..2 {
                    n += Duel::legal(s, seat).len();
                }
            }
            n
        })
    });
    // The same lists the slow way, every candidate tried on a copy: the
    // generator before it judged candidates from the state, kept as the
    // property tests' oracle.
    c.bench_function("duel_legal_by_trial", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &positions {
                for seat in 0..2 {
                    n += legal_by_trial(s, Catalogue::standard(), seat).len();
                }
            }
            n
        })
    });
}

criterion_group!(duel, benches);
criterion_main!(duel);
