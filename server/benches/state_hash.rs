//! `record_hash_duel`, `record_hash_divinity`: the hash every stored record
//! carries (`athlas_server::audit::record_hash`, form 4: BLAKE3 of what the
//! ruleset hashes in the compact encoding), on the middle position of each
//! game's first recorded golden game, which is what a room pays per action
//! on top of the rules; `sha256_record_hash_*`: the same bytes under
//! SHA-256 (form 3, what records were stored with before);
//! `json_record_hash_*`: the same part as JSON (form 2, before that);
//! `state_hash_*`: the whole state's JSON (the bare form, before that).

use athlas_engine::{divinity::Divinity, duel::Duel, Ruleset, Seat};
use athlas_server::audit::{compact_hash, part_hash, record_hash, state_hash};
use criterion::{criterion_group, criterion_main, Criterion};
use serde::Deserialize;

/// A recorded game of the engine's golden tests.
#[derive(Deserialize)]
#[serde(bound = "")]
struct Golden<R: Ruleset> {
    options: R::Options,
    seed: u64,
    log: Vec<(Seat, R::Action)>,
}

/// The state halfway through the first golden game of `json`.
fn middle<R: Ruleset>(json: &str) -> R::State {
    let games: Vec<Golden<R>> = serde_json::from_str(json).expect("the golden games parse");
    let g = games.into_iter().next().expect("a golden game");
    let mut s = R::start(&g.options, g.seed).unwrap();
    let half = g.log.len() / 2;
    for (seat, a) in g.log.into_iter().take(half) {
        R::apply(&mut s, seat, a).unwrap();
    }
    s
}

/// How many bytes the record hash hashes.
fn compact_len<H: serde::Serialize>(hashed: &H) -> usize {
    let mut buf = Vec::new();
    athlas_protocol::hash::compact::write(&mut buf, hashed);
    buf.len()
}

fn bench(c: &mut Criterion) {
    let duel = middle::<Duel>(include_str!("../../engine/tests/duel_golden/games.json"));
    let divinity = middle::<Divinity>(include_str!("../../engine/tests/divinity_golden/games.json"));
    eprintln!(
        "state JSON: duel {} bytes, divinity {} bytes; hashed, compact: duel {} bytes, divinity {} bytes",
        serde_json::to_string(&duel).unwrap().len(),
        serde_json::to_string(&divinity).unwrap().len(),
        compact_len(&Duel::hashed(&duel)),
        compact_len(&Divinity::hashed(&divinity)),
    );
    c.bench_function("record_hash_duel", |b| b.iter(|| record_hash::<Duel>(&duel)));
    c.bench_function("record_hash_divinity", |b| b.iter(|| record_hash::<Divinity>(&divinity)));
    c.bench_function("sha256_record_hash_duel", |b| b.iter(|| compact_hash(&Duel::hashed(&duel))));
    c.bench_function("sha256_record_hash_divinity", |b| b.iter(|| compact_hash(&Divinity::hashed(&divinity))));
    c.bench_function("json_record_hash_duel", |b| b.iter(|| part_hash(&Duel::hashed(&duel))));
    c.bench_function("json_record_hash_divinity", |b| b.iter(|| part_hash(&Divinity::hashed(&divinity))));
    c.bench_function("state_hash_duel", |b| b.iter(|| state_hash(&duel)));
    c.bench_function("state_hash_divinity", |b| b.iter(|| state_hash(&divinity)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
