//! Rules of the checklist not already shown by a worked example.

use crate::clans_support::*;
use athlas_engine::clans::content::{validate_deck, Catalogue, Kind};
use athlas_engine::clans::{Clans, ClansAction as A};
use athlas_engine::Ruleset;

/// The shipped content parses and keeps the page's rules (L61, L74-77).
#[test]
fn shipped_content_is_valid() {
    let cat = Catalogue::standard();
    cat.validate().unwrap();
    assert_eq!(cat.clans.len(), 2);
    assert!(cat.battlefields.len() >= 2);
}

/// L74-77: at most 30 cards, no copies, exactly 1 God, at most 1 Divine Spirit.
#[test]
fn deck_rules_are_enforced() {
    let base = cat().clan("sacred_cross").unwrap().clone();
    validate_deck(&base).unwrap();
    let mut copy = base.clone();
    let dup = copy.cards[3].clone();
    copy.cards.push(dup);
    assert!(validate_deck(&copy).unwrap_err().contains("L75"));
    let mut big = base.clone();
    for i in 0..10 {
        let mut c = big.cards[3].clone();
        c.name = format!("extra {i}");
        big.cards.push(c);
    }
    assert!(validate_deck(&big).unwrap_err().contains("L74"));
    let mut gods = base.clone();
    if let Kind::Ally(a) = &mut gods.cards[3].kind {
        a.god = true;
    }
    assert!(validate_deck(&gods).unwrap_err().contains("L76"));
    let mut spirits = base.clone();
    if let Kind::Ally(a) = &mut spirits.cards[3].kind {
        a.spirit = true;
    }
    assert!(validate_deck(&spirits).unwrap_err().contains("L77"));
}

/// Resignation puts the player out; the opponent wins (C12).
#[test]
fn resigning_loses() {
    let mut s = game();
    ok(&mut s, 1, A::Resign);
    assert_eq!(Clans::status(&s), athlas_engine::Status::Finished(athlas_engine::Outcome::Win { seat: 0 }));
}
