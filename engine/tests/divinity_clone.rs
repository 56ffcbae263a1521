//! `DivinityState::clone_from` (written field by field to reuse the
//! destination's allocations, `state.rs`, "Copies") makes the same state as
//! a fresh clone, whatever the destination held before: over positions of
//! party-bot games at several locations and of a carried-over campaign,
//! each copied into one recycled state in a scrambled order. Its serde
//! JSON is compared too, so a field whose `PartialEq` were lenient would
//! still be caught. (A field left out of the copy does not compile: the
//! copy's patterns name every field.)
//!
//! `Ruleset::apply_after_copy` (the server's table hands Divinity the copy
//! it keeps, and a refusal puts that copy back) does what `apply` does,
//! accepted and refused actions alike.

use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::Ruleset;

use crate::divinity_support::{bot_step, waiting};

/// Every position of a party-bot game from `s` until it ends (or 1,500
/// actions).
fn play(mut s: DivinityState, out: &mut Vec<DivinityState>) -> DivinityState {
    let cat = Catalogue::standard();
    for i in 0..1_500 {
        if waiting(&s).is_empty() {
            break;
        }
        out.push(s.clone());
        if !bot_step(cat, &mut s, i) {
            break;
        }
    }
    out.push(s.clone());
    s
}

fn options(party: &[&str], location: Option<&str>) -> DivinityOptions {
    DivinityOptions {
        party: party.iter().map(|p| p.to_string()).collect(),
        location: location.map(str::to_string),
        ..DivinityOptions::default()
    }
}

/// Positions of party-bot games at several locations and of a campaign
/// carried over.
fn positions() -> Vec<DivinityState> {
    let mut states = Vec::new();
    for (location, party, seed) in [
        ("shipwreck", &["ifan", "sebille", "red_prince"][..], 1),
        ("fort_joy", &["ifan", "sebille", "red_prince"][..], 2),
        ("hollow_marshes", &["ifan", "sebille", "red_prince", "fane"][..], 3),
        ("temple", &["ifan", "sebille", "red_prince", "fane"][..], 4),
    ] {
        play(Divinity::start(&options(party, Some(location)), seed).expect("setup"), &mut states);
    }
    // A campaign carried over: the options hold it.
    let party = ["lohse", "beast"];
    let first = play(Divinity::start(&options(&party, None), 5).expect("setup"), &mut states);
    let campaign = Divinity::campaign(&first, Catalogue::standard()).expect("the tutorial ends");
    let next = DivinityOptions { campaign: Some(campaign), ..options(&party, None) };
    play(Divinity::start(&next, 6).expect("the next location"), &mut states);
    assert!(states.len() > 500, "only {} positions", states.len());
    states
}

#[test]
fn clone_from_into_a_recycled_state_is_a_fresh_clone() {
    let states = positions();
    let n = states.len();
    let mut recycled = states[n / 2].clone();
    // Scrambled: from any position to any other, other locations and
    // party sizes included.
    for i in 0..n {
        let s = &states[(i * 7919) % n];
        recycled.clone_from(s);
        let fresh = s.clone();
        assert_eq!(recycled, fresh);
        assert_eq!(serde_json::to_string(&recycled).unwrap(), serde_json::to_string(&fresh).unwrap());
    }
}

#[test]
fn apply_after_a_copy_is_apply() {
    let states = positions();
    let (mut accepted, mut refused) = (0, 0);
    for (i, s) in states.iter().enumerate().step_by(5) {
        let seats: Vec<_> = (0..s.origins.len() as athlas_engine::Seat).collect();
        for &seat in &seats {
            // A few of the seat's own legal actions, and a few of another
            // seat's sent by this one (mostly refused, some after the rules
            // changed things).
            let other = seats[(seat as usize + 1 + i) % seats.len()];
            let own = Divinity::legal(s, seat);
            let others = Divinity::legal(s, other);
            for a in own.iter().step_by(own.len() / 3 + 1).chain(others.iter().step_by(others.len() / 3 + 1)) {
                let mut by_apply = s.clone();
                let applied = Divinity::apply(&mut by_apply, seat, a.clone());
                let mut by_copy = s.clone();
                let before = s.clone();
                let after_copy = Divinity::apply_after_copy(&mut by_copy, &before, seat, a.clone());
                assert_eq!(format!("{applied:?}"), format!("{after_copy:?}"), "{a:?} by seat {seat}");
                assert_eq!(by_apply, by_copy, "{a:?} by seat {seat}");
                if applied.is_ok() {
                    accepted += 1;
                } else {
                    assert_eq!(&by_copy, s, "a refusal leaves the state as it was");
                    refused += 1;
                }
            }
        }
    }
    assert!(accepted > 300 && refused > 100, "{accepted} accepted, {refused} refused");
}
