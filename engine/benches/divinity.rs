//! `divinity_combat_round`: one whole Combat round with 4 Origins and 6
//! minions on the map, played through `Divinity::apply` from a clone of the
//! state at the round's start: every enemy roll's reroll window, each
//! Origin's turn (start, attacks, end), the minions' turns and the end of
//! the round, up to the action that starts the next round.
//!
//! The state is reached through the public API: four Origins explore the
//! Shipwreck in two groups of two, the Beach (card 2: 2 bandits + 2
//! archers for 4 players) and the Tide Pools (card 3: 4 of Darkhan's
//! Lackeys, of which only 2 fit under the 6-minion limit).
//!
//! `divinity_legal`: the legal actions of every waiting seat (the server
//! asks only for those) at every 5th position of the recorded golden games;
//! one iteration is all of those calls (their number is printed).
//!
//! `divinity_legal_bot`: the same over every 3rd position of games the
//! party bot (`divinity::bot`, what the load generator plays) plays from
//! the legal lists, as the server serves it: the legal list of every
//! waiting seat at each position, so the interlude's level-ups and the
//! Merchant weigh as they do under load.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::state::{Phase, RoundKind};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState, DivinityView};
use athlas_engine::{Ruleset, Seat, Viewer};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

mod divinity_positions;
use divinity_positions::{bot_positions, golden_positions, waiting};

fn ok(s: &mut DivinityState, seat: Seat, a: A) {
    if let Err(e) = Divinity::apply(s, seat, a.clone()) {
        panic!("{a:?} by seat {seat} rejected: {}", e.message);
    }
}

/// The state at the start of the first Combat round, with 6 minions.
fn prepared(seed: u64) -> DivinityState {
    let options = DivinityOptions {
        party: ["ifan", "sebille", "red_prince", "fane"].iter().map(|p| p.to_string()).collect(),
        location: Some("shipwreck".into()),
        ..DivinityOptions::default()
    };
    let mut s = Divinity::start(&options, seed).expect("setup");
    ok(&mut s, 0, A::ChooseRound { explore: true });
    for (seat, to) in [(0, "2"), (1, "2"), (2, "3"), (3, "3")] {
        ok(&mut s, seat, A::Travel { to: Some(to.into()) });
    }
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 2, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "2".into() });
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    assert_eq!(s.round_kind, RoundKind::Combat, "the next round is a Combat round");
    assert_eq!(s.origins.len(), 4);
    assert_eq!(s.enemies.len(), 6, "6 minions on the map");
    s
}

/// Party decisions named by their JSON form, so that a decision this
/// version of the engine does not know is simply not offered.
fn party_choices(s: &DivinityState) -> Vec<A> {
    let mut out = Vec::new();
    // A minion's route among equals (L1689): the first one offered.
    if s.route().is_some() {
        out.push(A::ChooseRoute { route: 0 });
    }
    // An item nobody has room for (L1056): discard it.
    if !s.overflow.is_empty() {
        out.push(A::PlaceItem { to: None, drop: None, pass_to: None });
    }
    for t in 0..s.origins.len() {
        for ty in ["break_tie", "command"] {
            let json = serde_json::json!({ "type": ty, "target": { "kind": "origin", "id": t } });
            if let Ok(a) = serde_json::from_value::<A>(json) {
                out.push(a);
            }
        }
    }
    out
}

/// A simple deterministic party: let enemy rolls stand, keep own rolls,
/// start the first waiting Origin's turn, attack the first enemy in range
/// with the first equipped weapon, then the first skill that is accepted,
/// and end the turn when nothing more is accepted. Returns the accepted
/// actions of one round.
fn script_round(start: &DivinityState) -> Vec<(Seat, A)> {
    let mut s = start.clone();
    let round = s.round;
    let mut log = Vec::new();
    while s.round == round {
        let seats = waiting(&s);
        assert!(!seats.is_empty(), "someone acts in a combat round: {:?}", s.phase);
        let seat = seats[0];
        let mut tries: Vec<A> = Vec::new();
        if s.enemy_roll().is_some() || s.pending_roll().is_some() {
            tries.push(A::Accept);
        } else if s.dominated_turn().is_some() {
            tries.extend(s.enemies.iter().map(|e| A::Command { target: Aim::Enemy(e.id) }));
        } else if matches!(s.phase, Phase::Combat { active: None, .. }) {
            tries.push(A::StartTurn);
        } else {
            let o = &s.origins[seat as usize];
            for e in &s.enemies {
                for i in &o.equipped {
                    tries.push(A::Use {
                        card: CardUse::Item(i.clone()),
                        aim: Aim::Enemy(e.id),
                        first_aura: None,
                        include_self: None,
                    });
                }
            }
            for e in &s.enemies {
                for k in &o.hand {
                    tries.push(A::Use {
                        card: CardUse::Skill(k.clone()),
                        aim: Aim::Enemy(e.id),
                        first_aura: None,
                        include_self: None,
                    });
                }
            }
            tries.push(A::EndTurn);
        }
        // Another decision of the party (say, an enemy's target among
        // equals): the leader picks the first Origin the engine accepts.
        tries.extend(party_choices(&s));
        let mut accepted = false;
        for a in tries {
            if Divinity::apply(&mut s, seat, a.clone()).is_ok() {
                log.push((seat, a));
                accepted = true;
                break;
            }
        }
        assert!(accepted, "nothing accepted for seat {seat} in {:?}", s.phase);
        assert!(log.len() < 500, "the round does not end");
    }
    log
}

fn benches(c: &mut Criterion) {
    let start = prepared(1);
    let round = script_round(&start);
    let uses = round.iter().filter(|(_, a)| matches!(a, A::Use { .. })).count();
    let turns = round.iter().filter(|(_, a)| matches!(a, A::StartTurn)).count();
    assert_eq!(turns, 4, "each of the 4 Origins takes a turn");
    assert!(uses >= 4, "the Origins attack ({uses} cards used)");
    eprintln!("divinity_combat_round: {} actions ({turns} turns, {uses} cards used)", round.len());
    c.bench_function("divinity_combat_round", |b| {
        b.iter_batched(
            || start.clone(),
            |mut s| {
                for (seat, a) in &round {
                    Divinity::apply(&mut s, *seat, a.clone()).unwrap();
                }
                s
            },
            BatchSize::SmallInput,
        )
    });
    let positions = golden_positions(5);
    let calls: usize = positions.iter().map(|(_, seats)| seats.len()).sum();
    eprintln!("divinity_legal: {calls} calls per iteration");
    c.bench_function("divinity_legal", |b| {
        b.iter(|| {
            let mut n = 0;
            for (s, seats) in &positions {
                for seat in seats {
                    n += Divinity::legal(s, *seat).len();
                }
            }
            n
        })
    });
}

fn bot_bench(c: &mut Criterion) {
    let positions = bot_positions(3);
    let calls: usize = positions.iter().map(|(_, seats)| seats.len()).sum();
    eprintln!("divinity_legal_bot: {calls} calls per iteration over {} positions", positions.len());
    c.bench_function("divinity_legal_bot", |b| {
        b.iter(|| {
            let mut n = 0;
            for (s, seats) in &positions {
                for seat in seats {
                    n += Divinity::legal(s, *seat).len();
                }
            }
            n
        })
    });
}

/// `divinity_views`: at every 3rd position of the party-bot games, the
/// views of every seat (`Divinity::views`, the record before's first view
/// as `before`, as the server keeps it) and each written to JSON: what the
/// server does per record.
fn views_bench(c: &mut Criterion) {
    let positions = bot_positions(3);
    eprintln!("divinity_views: {} positions per iteration", positions.len());
    c.bench_function("divinity_views", |b| {
        b.iter(|| {
            let mut before: Option<DivinityView> = None;
            let mut bytes = 0;
            for (s, _) in &positions {
                let viewers: Vec<Viewer> = (0..s.origins.len() as Seat).map(Viewer::Seat).collect();
                let views = Divinity::views(s, &viewers, true, before.as_ref());
                for v in &views {
                    bytes += serde_json::to_vec(v).unwrap().len();
                }
                before = views.into_iter().next().map(Divinity::keep_as_before);
            }
            bytes
        })
    });
}

/// Each waiting seat's legal list at each of `positions`, worked out once.
fn seat_lists(positions: &[(DivinityState, Vec<Seat>)]) -> Vec<(&DivinityState, Seat, Vec<A>)> {
    positions
        .iter()
        .flat_map(|(s, seats)| seats.iter().map(move |seat| (s, *seat, Divinity::legal(s, *seat))))
        .collect()
}

/// `divinity_words`: the words of every waiting seat's legal list, written
/// to JSON as the server sends them, at the party-bot positions of
/// `divinity_legal_bot` (the lists computed once, outside the loop; the
/// number of listed actions is printed, to read a figure per action).
fn words_bench(c: &mut Criterion) {
    let positions = bot_positions(3);
    let lists = seat_lists(&positions);
    let listed: usize = lists.iter().map(|(_, _, l)| l.len()).sum();
    eprintln!("divinity_words: {} calls, {listed} listed actions per iteration", lists.len());
    let names = athlas_engine::SeatNames::none();
    let mut out = Vec::with_capacity(1 << 16);
    c.bench_function("divinity_words", |b| {
        b.iter(|| {
            let mut n = 0;
            for (s, seat, list) in &lists {
                out.clear();
                Divinity::write_named_action_words(s, *seat, list, names, &mut out);
                n += out.len();
            }
            n
        })
    });
}

/// `divinity_hash`: the record hash of every 3rd position of the party-bot
/// games (`divinity_legal_bot`'s), as the server takes it at every action:
/// `Divinity::hashed` in the compact encoding (written by hand,
/// `divinity/hashed.rs`), hashed with BLAKE3. `divinity_hash_generic`: the
/// same bytes written by serde's generic path (the whole state, as records
/// were hashed before), to compare. The number of positions is printed.
fn hash_bench(c: &mut Criterion) {
    let positions: Vec<DivinityState> = bot_positions(3).into_iter().map(|(s, _)| s).collect();
    eprintln!("divinity_hash: {} positions per iteration", positions.len());
    c.bench_function("divinity_hash", |b| b.iter(|| hash_by_hand(&positions)));
    c.bench_function("divinity_hash_generic", |b| b.iter(|| hash_generic(&positions)));
}

// Not inlined: callgrind counts each by name.
#[inline(never)]
fn hash_by_hand(positions: &[DivinityState]) -> usize {
    positions.iter().map(|s| athlas_protocol::hash::blake3_hash(&Divinity::hashed(s)).len()).sum()
}

#[inline(never)]
fn hash_generic(positions: &[DivinityState]) -> usize {
    positions.iter().map(|s| athlas_protocol::hash::blake3_hash(s).len()).sum()
}

/// `divinity_listed`: what the server writes of every waiting seat's legal
/// list at each party-bot position of `divinity_legal_bot` (the lists
/// computed once, outside the loop): the actions' JSON
/// (`Divinity::write_actions`) and their words
/// (`Divinity::write_named_action_words`) into one buffer, as the server's
/// `listed_json` writes them. `divinity_listed_level_ups`: the same over
/// the lists of every position of the same games that list level-ups (an
/// interlude's thousand pairs a seat). The numbers of lists and listed
/// actions are printed, to read figures per list and per action.
fn listed_bench(c: &mut Criterion) {
    let positions = bot_positions(3);
    let lists = seat_lists(&positions);
    let listed: usize = lists.iter().map(|(_, _, l)| l.len()).sum();
    eprintln!("divinity_listed: {} lists, {listed} listed actions per iteration", lists.len());
    let mut out = Vec::with_capacity(256);
    c.bench_function("divinity_listed", |b| b.iter(|| write_listed(&lists, &mut out)));
    let positions = bot_positions(1);
    let mut lists = seat_lists(&positions);
    lists.retain(|(_, _, l)| l.iter().any(|a| matches!(a, A::LevelUp { .. })));
    let listed: usize = lists.iter().map(|(_, _, l)| l.len()).sum();
    eprintln!("divinity_listed_level_ups: {} lists, {listed} listed actions per iteration", lists.len());
    assert!(!lists.is_empty(), "the party-bot games list level-ups");
    c.bench_function("divinity_listed_level_ups", |b| b.iter(|| write_listed(&lists, &mut out)));
}

// Not inlined: callgrind counts it by name (`--toggle-collect=*write_listed*`).
#[inline(never)]
fn write_listed(lists: &[(&DivinityState, Seat, Vec<A>)], out: &mut Vec<u8>) -> usize {
    let names = athlas_engine::SeatNames::none();
    let mut n = 0;
    for (s, seat, list) in lists {
        // As the server's `listed_json`: a buffer of its own a list.
        *out = Vec::with_capacity(256);
        Divinity::write_actions(list, out);
        Divinity::write_named_action_words(s, *seat, list, names, out);
        n += out.len();
    }
    n
}

criterion_group!(divinity, benches, bot_bench, views_bench, words_bench, listed_bench, hash_bench);
criterion_main!(divinity);
