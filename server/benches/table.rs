//! `table_act_divinity`: a Divinity party's actions applied through the
//! server's table (`Table::act`: the copy of the state before, the rules,
//! the events' words, the take-back window), as a room applies them. The
//! actions are the party bot's, a party of three in each location played
//! to its end (762 actions), chosen once before timing; each iteration
//! plays them all on fresh tables. Divide by the action count printed for
//! the cost of one.

use athlas_engine::{
    divinity::{self, content::Catalogue, Divinity, DivinityAction, DivinityOptions},
    Ruleset, Seat, Status, Viewer,
};
use athlas_server::table::Table;
use criterion::{criterion_group, criterion_main, Criterion};

/// A party's start and the actions its bots took, in order.
struct Party {
    start: <Divinity as Ruleset>::State,
    actions: Vec<(Seat, DivinityAction)>,
}

fn party(location: &str, seed: u64, steps: usize) -> Party {
    let cat = Catalogue::standard();
    let options = DivinityOptions {
        party: ["ifan", "sebille", "red_prince"].iter().map(|p| p.to_string()).collect(),
        location: Some(location.into()),
        ..DivinityOptions::default()
    };
    let start = Divinity::start(&options, seed).expect("a party starts");
    let mut state = start.clone();
    let mut actions = Vec::new();
    for _ in 0..steps {
        let Status::Waiting { seats } = Divinity::status(&state) else { break };
        let Some((seat, a)) = seats.iter().find_map(|seat| {
            let view = Divinity::view(&state, Viewer::Seat(*seat));
            divinity::bot::choose(cat, &view, *seat, &Divinity::legal(&state, *seat)).map(|a| (*seat, a))
        }) else {
            break;
        };
        Divinity::apply(&mut state, seat, a.clone()).expect("the bot's choice is legal");
        actions.push((seat, a));
    }
    Party { start, actions }
}

fn bench(c: &mut Criterion) {
    let parties: Vec<Party> = ["tutorial", "shipwreck", "fort_joy", "hollow_marshes", "temple"]
        .iter()
        .enumerate()
        .map(|(seed, location)| party(location, seed as u64 + 1, 400))
        .collect();
    let n: usize = parties.iter().map(|p| p.actions.len()).sum();
    eprintln!("table_act_divinity: {n} actions a iteration");
    c.bench_function("table_act_divinity", |b| {
        b.iter(|| {
            for p in &parties {
                let mut t = Table::<Divinity>::new(p.start.clone(), 3);
                for (i, (seat, a)) in p.actions.iter().enumerate() {
                    t.act(i as u64 + 1, *seat, a.clone()).expect("replays");
                }
            }
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
