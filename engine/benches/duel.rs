//! `duel_apply`: validate and apply one typical action (an attack) in the
//! middle of a game. `duel_replay`: rebuild a 300-action game from its log.
//! Targets (DESIGN.md): ≤ 20 µs median and ≤ 10 ms. `duel_view_json`: the
//! acting seat's view with its legal actions, serialized, as sent per update.

use athlas_engine::duel::bot::RandomBot;
use athlas_engine::duel::card::Catalogue;
use athlas_engine::duel::{Duel, DuelAction, DuelOptions, DuelState};
use athlas_engine::{replay, Ruleset, Seat};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

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
}

criterion_group!(duel, benches);
criterion_main!(duel);
