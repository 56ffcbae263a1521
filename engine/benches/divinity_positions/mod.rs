//! The positions the Divinity benches play at (`benches/divinity.rs` and
//! `benches/divinity_legal_cost.rs`): a module of each, not a bench of its
//! own (cargo finds only `benches/*.rs` and `benches/*/main.rs`).

use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::{bot, legal, Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, Status, Viewer};
use serde::Deserialize;

/// A recorded game of `tests/divinity_golden` (its hashes are not needed here).
#[derive(Deserialize)]
struct Golden {
    options: DivinityOptions,
    seed: u64,
    log: Vec<(Seat, A)>,
}

/// Every `step`-th position of the golden games with its waiting seats.
pub fn golden_positions(step: usize) -> Vec<(DivinityState, Vec<Seat>)> {
    let games: Vec<Golden> =
        serde_json::from_str(include_str!("../../tests/divinity_golden/games.json")).expect("the golden games parse");
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

/// Every `step`-th position of party-bot games with its waiting seats: at
/// each position the bot plays for one waiting seat (in turn) that has a
/// legal action, from that seat's list and view.
pub fn bot_positions(step: usize) -> Vec<(DivinityState, Vec<Seat>)> {
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

/// The seats `s` waits for (none once it is finished).
pub fn waiting(s: &DivinityState) -> Vec<Seat> {
    match Divinity::status(s) {
        Status::Waiting { seats } => seats,
        Status::Finished(_) => Vec::new(),
    }
}
