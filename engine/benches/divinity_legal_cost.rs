//! `divinity_legal_cost_golden` and `divinity_legal_cost_bot`: the legal
//! lists of `divinity_legal` and `divinity_legal_bot` (benches/divinity.rs:
//! every waiting seat at every 5th position of the golden games, every 3rd
//! of the party bot's), each pass through one function that is never
//! inlined, to count instructions per list with callgrind:
//!
//! ```text
//! LEGAL_COST=bot valgrind --tool=callgrind --toggle-collect='divinity_legal_cost::lists' <this bench binary>
//! ```
//!
//! With `LEGAL_COST` set (`golden` or `bot`) one pass runs and the number of
//! lists is printed; without it, criterion times a pass of each.

use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::{bot, legal, Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use criterion::Criterion;
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    options: DivinityOptions,
    seed: u64,
    log: Vec<(Seat, A)>,
}

fn waiting(s: &DivinityState) -> Vec<Seat> {
    match Divinity::status(s) {
        Status::Waiting { seats } => seats,
        Status::Finished(_) => Vec::new(),
    }
}

/// As `golden_positions` of benches/divinity.rs.
fn golden_positions(step: usize) -> Vec<(DivinityState, Vec<Seat>)> {
    let games: Vec<Golden> =
        serde_json::from_str(include_str!("../tests/divinity_golden/games.json")).expect("the golden games parse");
    let mut out = Vec::new();
    for g in games {
        let mut s = Divinity::start(&g.options, g.seed).unwrap();
        for (i, (seat, a)) in g.log.into_iter().enumerate() {
            if i % step == 0 {
                out.push((s.clone(), waiting(&s)));
            }
            Divinity::apply(&mut s, seat, a).unwrap();
        }
    }
    out
}

/// As `bot_positions` of benches/divinity.rs.
fn bot_positions(step: usize) -> Vec<(DivinityState, Vec<Seat>)> {
    let cat = Catalogue::standard();
    let party = ["ifan", "sebille", "red_prince", "fane"];
    let mut out = Vec::new();
    for (location, size, seed) in [("shipwreck", 3, 1), ("fort_joy", 3, 0), ("hollow_marshes", 4, 0), ("temple", 4, 0)]
    {
        let options = DivinityOptions {
            party: party[..size].iter().map(|p| p.to_string()).collect(),
            location: Some(location.into()),
            ..DivinityOptions::default()
        };
        let mut s = Divinity::start(&options, seed).expect("setup");
        for i in 0.. {
            let seats = waiting(&s);
            if seats.is_empty() || i == 2_000 {
                break;
            }
            if i % step == 0 {
                out.push((s.clone(), seats.clone()));
            }
            let Some((seat, a)) = (0..seats.len()).map(|k| seats[(i + k) % seats.len()]).find_map(|seat| {
                let view = Divinity::view(&s, Viewer::Seat(seat));
                bot::choose(cat, &view, seat, &legal::legal(cat, &s, seat)).map(|a| (seat, a))
            }) else {
                break;
            };
            Divinity::apply_with(cat, &mut s, seat, a).expect("a listed action is accepted");
        }
    }
    out
}

/// Every waiting seat's legal list at every position: the number of listed actions.
#[inline(never)]
fn lists(positions: &[(DivinityState, Vec<Seat>)]) -> usize {
    let mut n = 0;
    for (s, seats) in positions {
        for seat in seats {
            n += Divinity::legal(s, *seat).len();
        }
    }
    n
}

fn main() {
    let golden = golden_positions(5);
    let bot = bot_positions(3);
    let calls = |p: &[(DivinityState, Vec<Seat>)]| p.iter().map(|(_, s)| s.len()).sum::<usize>();
    if let Ok(which) = std::env::var("LEGAL_COST") {
        let p = if which == "golden" { &golden } else { &bot };
        let listed = lists(std::hint::black_box(p));
        eprintln!("{which}: {} lists, {listed} listed actions", calls(p));
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    c.bench_function("divinity_legal_cost_golden", |b| b.iter(|| lists(&golden)));
    c.bench_function("divinity_legal_cost_bot", |b| b.iter(|| lists(&bot)));
    c.final_summary();
}
