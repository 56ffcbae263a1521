//! The party bot (`divinity::bot`) reads only what a seat is sent. Its
//! whole-campaign play is proven in `divinity_campaign.rs`; here: the view
//! it reads comes back from JSON as the engine wrote it, it picks from the
//! legal list it is given, and it never acts in another Origin's turn.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::state::Phase;
use athlas_engine::divinity::{bot, legal, Divinity, DivinityOptions, DivinityView};
use athlas_engine::{Ruleset, Viewer};

use crate::divinity_support;
use divinity_support::*;

#[test]
fn a_view_comes_back_from_json_unchanged() {
    let mut c = tutorial_combat_with(cat(), &["ifan", "sebille"]);
    ok(&mut c, 0, A::StartTurn);
    let enemy = c.enemies[0].id;
    ok(&mut c, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(enemy)));
    let json = serde_json::to_value(Divinity::view(&c, Viewer::Seat(1))).unwrap();
    assert!(json["pending"].is_object(), "a roll waits: {json}");
    let back: DivinityView = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), json);
}

#[test]
fn the_view_counts_the_cards_left_for_each_numbered_space() {
    let options = DivinityOptions { party: vec!["ifan".into(), "sebille".into()], ..Default::default() };
    let mut s = Divinity::start(&options, 7).unwrap();
    let v = Divinity::view(&s, Viewer::Spectator);
    assert_eq!(v.cards_left.values().sum::<usize>(), 9, "{:?}", v.cards_left);
    assert_eq!(v.cards_left[&1], 3);
    // Exploring space 1 takes one of its cards.
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("1".into()) });
    ok(&mut s, 1, A::Travel { to: Some("1".into()) });
    ok(&mut s, 0, A::Reveal);
    assert_eq!(Divinity::view(&s, Viewer::Spectator).cards_left[&1], 2);
}

#[test]
fn the_bot_picks_from_the_legal_list_it_is_given() {
    let options = DivinityOptions { party: vec!["ifan".into(), "sebille".into()], ..Default::default() };
    let s = Divinity::start(&options, 7).unwrap();
    let view = Divinity::view(&s, Viewer::Seat(0));
    let legal = legal::legal_standard(&s, 0);
    // Unhurt, with a time limit: Explore.
    assert_eq!(bot::choose(cat(), &view, 0, &legal), Some(A::ChooseRound { explore: true }));
    // Only what is listed: with explore ruled out, Rest.
    let rest = vec![A::ChooseRound { explore: false }];
    assert_eq!(bot::choose(cat(), &view, 0, &rest), Some(rest[0].clone()));
    // Nothing listed, nothing sent.
    assert_eq!(bot::choose(cat(), &view, 0, &[]), None);
}

#[test]
fn the_bot_acts_only_in_its_own_combat_turn() {
    let mut c = tutorial_combat_with(cat(), &["ifan", "sebille"]);
    ok(&mut c, 0, A::StartTurn);
    assert!(matches!(c.phase, Phase::Combat { active: Some(0), .. }));
    let theirs = bot::preferences(cat(), &Divinity::view(&c, Viewer::Seat(1)), 1);
    assert!(
        !theirs.iter().any(|a| matches!(a, A::Use { .. } | A::Move { .. } | A::EndTurn)),
        "seat 1 plays no part of seat 0's turn: {theirs:?}"
    );
    let mine = bot::preferences(cat(), &Divinity::view(&c, Viewer::Seat(0)), 0);
    assert!(mine.contains(&A::EndTurn), "{mine:?}");
}
