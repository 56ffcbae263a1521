//! The names view the words are named from (`ruleset::names_view`) is
//! taken from a per-thread memo of the last two built when the state's
//! names are equal: the memo's view is always the one built anew
//! (`ruleset::names_view_built`), over party-bot games played in turns on
//! one thread (each record's lists, its events' states before and after),
//! and after changing, one at a time, each thing of a state the view reads.

use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::ruleset::{names_view, names_view_built};
use athlas_engine::divinity::state::{ChallengeState, EnemyKind, Revealed, RoundKind as Kind};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, SeatNames};

use crate::divinity_support::{bot_step, waiting};

fn game(location: &str, size: usize, seed: u64) -> DivinityState {
    let party = ["ifan", "sebille", "red_prince", "fane"];
    let options = DivinityOptions {
        party: party[..size].iter().map(|p| p.to_string()).collect(),
        location: Some(location.into()),
        ..DivinityOptions::default()
    };
    Divinity::start(&options, seed).expect("setup")
}

/// A change of a state, named.
type Change = Box<dyn Fn(&mut DivinityState)>;

#[track_caller]
fn fresh(s: &DivinityState, what: &str) {
    assert!(names_view(s) == names_view_built(s), "the memo's names view is stale after {what}");
}

/// Three party-bot games (one through its interlude) played a step each
/// in turn: every names view asked for, as the server asks (the events'
/// states before and after, then each waiting seat's list), is the one
/// built anew, and the words written through the memo are those of a
/// view built anew.
#[test]
fn the_memo_gives_the_view_built_anew_over_games_played_in_turn() {
    let cat = Catalogue::standard();
    let mut games = [game("fort_joy", 4, 0), game("shipwreck", 3, 1), game("temple", 4, 0)];
    let mut live = vec![true; games.len()];
    let (mut asked, mut listed) = (0, 0);
    for i in 0..1_500 {
        for (g, s) in games.iter_mut().enumerate() {
            if !live[g] {
                continue;
            }
            let before = s.clone();
            if !bot_step(cat, s, i) {
                live[g] = false;
                continue;
            }
            fresh(&before, "a step");
            fresh(s, "a step");
            for seat in waiting(s) {
                let list = Divinity::legal(s, seat);
                fresh(s, "a list");
                let mut memo = Vec::new();
                Divinity::write_named_action_words(s, seat, &list, SeatNames::none(), &mut memo);
                let built = names_view_built(s);
                let mut anew = Vec::new();
                athlas_engine::divinity::words::write_json(
                    athlas_engine::divinity::words::Names::new(Some(&built)),
                    seat,
                    &list,
                    &mut anew,
                );
                assert_eq!(String::from_utf8(memo).unwrap(), String::from_utf8(anew).unwrap());
                listed += list.len();
                asked += 1;
            }
        }
        if !live.iter().any(|l| *l) {
            break;
        }
    }
    assert!(asked > 1_000 && listed > 20_000, "only {asked} lists of {listed} actions");
}

/// At party-bot positions, each thing of the state that the names view
/// reads changed alone, just after the memo took the view of the state
/// unchanged: the memo gives the changed state's view, not the one it
/// holds.
#[test]
fn the_memo_sees_every_change_of_what_the_view_reads() {
    let cat = Catalogue::standard();
    let mut checked = 0;
    for (location, size, seed) in [("shipwreck", 3, 1), ("fort_joy", 4, 0), ("temple", 4, 0)] {
        let mut s = game(location, size, seed);
        for i in 0..1_500 {
            if i % 7 == 0 {
                let changes: Vec<(&str, Change)> = vec![
                    (
                        "the location",
                        Box::new(|t| t.location = if t.location == "temple" { "shipwreck" } else { "temple" }.into()),
                    ),
                    ("the level", Box::new(|t| t.level += 1)),
                    ("the round", Box::new(|t| t.round += 1)),
                    (
                        "the round kind",
                        Box::new(|t| {
                            t.round_kind = if t.round_kind == Kind::Combat { Kind::Rest } else { Kind::Combat }
                        }),
                    ),
                    (
                        "an Origin",
                        Box::new(|t| {
                            t.origins[0].origin = if t.origins[0].origin == "fane" { "ifan" } else { "fane" }.into()
                        }),
                    ),
                    ("an Origin's space", Box::new(|t| t.origins[0].space += 1)),
                    ("an Origin downed", Box::new(|t| t.origins[0].downed = !t.origins[0].downed)),
                    ("an Origin more", Box::new(|t| t.origins.push(t.origins[0].clone()))),
                    ("an enemy's id", Box::new(|t| t.enemies.iter_mut().for_each(|e| e.id += 100))),
                    ("an enemy's letter", Box::new(|t| t.enemies.iter_mut().for_each(|e| e.letter = Some('Z')))),
                    (
                        "an enemy's kind",
                        Box::new(|t| {
                            for e in &mut t.enemies {
                                if let EnemyKind::Minion { veteran, .. } = &mut e.kind {
                                    *veteran = !*veteran;
                                }
                            }
                        }),
                    ),
                    ("an enemy fewer", Box::new(|t| drop(t.enemies.pop()))),
                    ("a held card", Box::new(|t| t.holding.push("1".into()))),
                    ("a held card's id", Box::new(|t| t.holding.iter_mut().for_each(|c| c.push('x')))),
                    (
                        "a revealed card",
                        Box::new(|t| {
                            t.revealed.push(Revealed { card: "2".into(), seats: vec![0], space: 0, placed: false })
                        }),
                    ),
                    ("a revealed card's id", Box::new(|t| t.revealed.iter_mut().for_each(|r| r.card.push('x')))),
                    ("the choice", Box::new(|t| t.choice = None)),
                    (
                        "a pending roll's dice",
                        Box::new(|t| {
                            if let Some(p) = t.pending_roll_mut() {
                                p.roll.dice.pop();
                            }
                            if let Some(r) = t.enemy_roll_mut() {
                                r.roll.dice.pop();
                            }
                        }),
                    ),
                    (
                        "a challenge flipped",
                        Box::new(|t| {
                            let c = t.challenge.get_or_insert_with(|| ChallengeState {
                                card: "1".into(),
                                group: vec![0],
                                space: 0,
                                results: Default::default(),
                                flipped: None,
                            });
                            c.flipped = if c.flipped.is_some() { None } else { Some(0) };
                        }),
                    ),
                    (
                        "a flipped challenge's card",
                        Box::new(|t| {
                            if let Some(c) = &mut t.challenge {
                                c.card.push('x');
                            }
                        }),
                    ),
                ];
                for (what, change) in &changes {
                    let mut t = s.clone();
                    change(&mut t);
                    // The memo holds the view of `s` (and of `t` after the first round).
                    fresh(&s, what);
                    fresh(&t, what);
                    fresh(&s, what);
                    checked += 1;
                }
            }
            if waiting(&s).is_empty() || !bot_step(cat, &mut s, i) {
                break;
            }
        }
    }
    assert!(checked > 2_000, "only {checked} changes checked");
}
