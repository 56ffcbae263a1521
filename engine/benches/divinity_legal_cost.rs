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

use athlas_engine::divinity::{Divinity, DivinityState};
use athlas_engine::{Ruleset, Seat};
use criterion::Criterion;

mod divinity_positions;
use divinity_positions::{bot_positions, golden_positions};

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
