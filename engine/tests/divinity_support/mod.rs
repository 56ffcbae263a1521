//! Helpers shared by the Divinity tests: a match at a location, actions
//! that must be accepted or refused (a refusal leaves the state unchanged),
//! dice set by hand, and the usual combat set-ups.
#![allow(dead_code)]

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{Track, MINION_TRACK};
use athlas_engine::divinity::dice::{Colour, Die, Roll};
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{EnemyKind, RoundKind, Who};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{RuleError, Ruleset, Seat, Status};

pub fn cat() -> &'static Catalogue {
    Catalogue::standard()
}

pub fn options(loc: &str, party: &[&str]) -> DivinityOptions {
    DivinityOptions {
        party: party.iter().map(|p| p.to_string()).collect(),
        location: Some(loc.into()),
        ..DivinityOptions::default()
    }
}

pub fn start(loc: &str, party: &[&str]) -> DivinityState {
    Divinity::start(&options(loc, party), 7).expect("setup")
}

#[track_caller]
pub fn ok_with(c: &Catalogue, s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    match Divinity::apply_with(c, s, seat, a.clone()) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} by seat {seat} was rejected: {} ({})", e.message, e.code),
    }
}

#[track_caller]
pub fn ok(s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    ok_with(cat(), s, seat, a)
}

/// The action is refused with `code`, and the refusal leaves the state
/// byte-for-byte unchanged: a test that names the rule it means cannot pass
/// on a refusal for some other reason.
#[track_caller]
pub fn rejected_with(c: &Catalogue, s: &mut DivinityState, seat: Seat, a: A, code: &str) -> RuleError {
    let before = serde_json::to_string(s).unwrap();
    let e = match Divinity::apply_with(c, s, seat, a.clone()) {
        Ok(ev) => panic!("{a:?} by seat {seat} should be refused with {code}, but was accepted: {ev:?}"),
        Err(e) => e,
    };
    assert_eq!(e.code, code, "{a:?} by seat {seat} was refused with {} ({}), not {code}", e.code, e.message);
    assert_eq!(before, serde_json::to_string(s).unwrap(), "a refused action changed the state");
    e
}

/// [`rejected_with`] on the standard catalogue.
#[track_caller]
pub fn rejected(s: &mut DivinityState, seat: Seat, a: A, code: &str) -> RuleError {
    rejected_with(cat(), s, seat, a, code)
}

/// `r` is refused, and its error names the rule the test means: the
/// message contains `phrase`. For refusals with no code (set-up, content
/// and dice checks, parsing), so that a test cannot pass on a refusal for
/// some other reason; `why` says which refusal is meant.
#[track_caller]
pub fn refused<T, E: std::fmt::Display>(r: Result<T, E>, phrase: &str, why: &str) {
    let Err(e) = r else { panic!("{why}: accepted, not refused with {phrase:?}") };
    let m = e.to_string();
    assert!(m.contains(phrase), "{why}: refused with {m:?}, which does not say {phrase:?}");
}

pub fn ix(s: &DivinityState, id: &str) -> usize {
    ix_in(cat(), s, id)
}

/// A space's index on the location map of a given catalogue.
pub fn ix_in(c: &Catalogue, s: &DivinityState, id: &str) -> usize {
    c.locations[&s.location].map.ix(id).unwrap()
}

#[track_caller]
pub fn die(c: Colour, hits: u8, special: bool) -> Die {
    Die { colour: c, face: cat().dice.find(c, hits, special).unwrap() }
}

/// Set the pending roll's faces (L1531).
pub fn set_dice(s: &mut DivinityState, dice: Vec<Die>) {
    s.pending_roll_mut().expect("a roll is pending").roll = Roll::set(dice);
}

pub fn waiting(s: &DivinityState) -> Vec<Seat> {
    match Divinity::status(s) {
        Status::Waiting { seats } => seats,
        Status::Finished(_) => vec![],
    }
}

/// Enemy rolls land at once and the lowest seat (or first route) is taken
/// among equals, so enemy turns run through without the party's say.
pub fn quiet(s: &mut DivinityState) {
    s.options.reroll_enemy_rolls = false;
    s.options.party_breaks_ties = false;
}

pub fn use_card(card: CardUse, aim: Aim) -> A {
    A::Use { first_aura: None, include_self: None, card, aim }
}

/// Tutorial: every Origin travels to the Galley (#2) and reveals card 2,
/// which spawns Darkhan's Lackeys; the next round is a Combat round.
pub fn tutorial_combat_with(c: &Catalogue, party: &[&str]) -> DivinityState {
    let mut s = Divinity::start_with(c, &options("tutorial", party), 7).expect("setup");
    quiet(&mut s);
    ok_with(c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok_with(c, &mut s, seat, A::Travel { to: Some("2".into()) });
    }
    ok_with(c, &mut s, 0, A::Reveal);
    ok_with(c, &mut s, 0, A::Resolve { card: "2".into() });
    assert_eq!(s.round_kind, RoundKind::Combat);
    s
}

/// A combat in the tutorial against one SLOW minion of our choosing in the
/// Origins' space (the Galley), everyone standing with 30 HP.
pub fn duel_with(c: &Catalogue, party: &[&str], minion: &str, hp: u32) -> DivinityState {
    let mut s = tutorial_combat_with(c, party);
    let galley = ix_in(c, &s, "2");
    for o in &mut s.origins {
        o.hp = 30;
        o.downed = false;
        o.space = galley;
    }
    s.enemies.truncate(1);
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Minion { card: minion.into(), veteran: false };
    e.hp = hp;
    e.max_hp = c.minions[minion].standard.hp;
    e.fast = false;
    e.space = galley;
    e.track = Track::new(MINION_TRACK);
    s
}

pub fn duel(party: &[&str], minion: &str, hp: u32) -> DivinityState {
    duel_with(cat(), party, minion, hp)
}

pub fn targeted(ev: &[Ev], enemy: u32) -> Option<Who> {
    ev.iter().find_map(|e| match e {
        Ev::Targeted { enemy: x, target, .. } if *x == enemy => Some(*target),
        _ => None,
    })
}

/// The Temple with the Warden spawned by card 3 in space 3, where the party
/// revealed it, everyone on 60 HP, the first Combat round waiting for the Origins.
pub fn temple_boss_with(c: &Catalogue, party: &[&str]) -> (DivinityState, u32) {
    let mut s = Divinity::start_with(c, &options("temple", party), 7).expect("setup");
    quiet(&mut s);
    ok_with(c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok_with(c, &mut s, seat, A::Travel { to: Some("3".into()) });
    }
    ok_with(c, &mut s, 0, A::Reveal);
    ok_with(c, &mut s, 0, A::Resolve { card: "3".into() });
    let id = s.enemies.iter().find(|e| matches!(e.kind, EnemyKind::Boss { .. })).expect("the Warden").id;
    for o in &mut s.origins {
        o.hp = 60;
        o.downed = false;
    }
    (s, id)
}

pub fn temple_boss(party: &[&str]) -> (DivinityState, u32) {
    temple_boss_with(cat(), party)
}
