//! Helpers shared by the Divinity tests: a match at a location, actions
//! that must be accepted or refused (a refusal leaves the state unchanged),
//! dice set by hand, and the usual combat set-ups.
#![allow(dead_code)]

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::dice::{Colour, Die, Roll};
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{EnemyKind, RoundKind, Who};
use athlas_engine::divinity::{bot, legal, Divinity, DivinityOptions, DivinityState, Position};
use athlas_engine::{RuleError, Ruleset, Seat, Status, Viewer};

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

/// One party-bot action at step `i` of a game: the first waiting seat, in
/// turn from the `i`-th, whose bot picks from its own list and view plays
/// it. `false` when the game is over or no waiting seat's bot picks.
pub fn bot_step(c: &Catalogue, s: &mut DivinityState, i: usize) -> bool {
    let seats = waiting(s);
    let Some((seat, a)) = (0..seats.len()).map(|k| seats[(i + k) % seats.len()]).find_map(|seat| {
        let view = Divinity::view(s, Viewer::Seat(seat));
        bot::choose(c, &view, seat, &legal::legal(c, s, seat)).map(|a| (seat, a))
    }) else {
        return false;
    };
    Divinity::apply_with(c, s, seat, a).expect("a listed action is accepted");
    true
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

/// A position between rounds at `loc`, on the table's default options
/// (what [`start`] gives).
pub fn table(loc: &str, party: &[&str]) -> Position {
    Position::explore(loc, party).table_options()
}

/// The position's state on seed 7.
#[track_caller]
pub fn built(p: Position) -> DivinityState {
    p.build(7).expect("position")
}

/// Tutorial: every Origin travels to the Galley (#2) and reveals card 2,
/// which spawns Darkhan's Lackeys; the next round is a Combat round.
pub fn tutorial_combat_with(c: &Catalogue, party: &[&str]) -> DivinityState {
    let s = Position::combat("tutorial", party).reveal("2").build_with(c, 7).expect("position");
    assert_eq!(s.round_kind, RoundKind::Combat);
    s
}

/// The tutorial combat of [`tutorial_combat_with`] against one SLOW minion
/// of our choosing in the Origins' space (the Galley), everyone standing.
pub fn duel_position(party: &[&str], minion: &str, hp: u32) -> Position {
    Position::combat("tutorial", party)
        .reveal("2")
        .each_origin(|o| o.space("2").standing())
        .minion(minion, |e| e.hp(hp).space("2"))
}

/// [`duel_position`] with everyone on 30 HP: more than the 24 a level-1
/// Origin may have, which no position allows, so set on the state.
pub fn duel_with(c: &Catalogue, party: &[&str], minion: &str, hp: u32) -> DivinityState {
    let mut s = duel_position(party, minion, hp).build_with(c, 7).expect("position");
    for o in &mut s.origins {
        o.hp = 30;
    }
    s
}

/// [`duel_with`] with more said about the position by `f`: each standing
/// Origin whose HP it does not state gets duel_with's 30.
pub fn duel_then(party: &[&str], minion: &str, hp: u32, f: impl FnOnce(Position) -> Position) -> DivinityState {
    let p = f(duel_position(party, minion, hp));
    let mut s = p.build(7).expect("position");
    for (o, po) in s.origins.iter_mut().zip(&p.origins) {
        if po.hp.is_none() && !o.downed {
            o.hp = 30;
        }
    }
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
/// revealed it, everyone on 60 HP (above any level-4 maximum, so set on the
/// state), the first Combat round waiting for the Origins.
pub fn temple_boss_with(c: &Catalogue, party: &[&str]) -> (DivinityState, u32) {
    let mut s =
        Position::combat("temple", party).reveal("3").each_origin(|o| o.standing()).build_with(c, 7).expect("position");
    let id = s.enemies.iter().find(|e| matches!(e.kind, EnemyKind::Boss { .. })).expect("the Warden").id;
    for o in &mut s.origins {
        o.hp = 60;
    }
    (s, id)
}

pub fn temple_boss(party: &[&str]) -> (DivinityState, u32) {
    temple_boss_with(cat(), party)
}

/// Whether two views' board or front are the one value (both shown, and
/// built once), not only equal ones.
pub fn same<T>(a: &Option<athlas_engine::shared::Shared<T>>, b: &Option<athlas_engine::shared::Shared<T>>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a.same(b))
}
