//! R234–R235: the third way a combat ends. "A combat ends immediately when
//! either all enemies are defeated; or all Origins are downed; or a special
//! condition on an active combat card is met" (L1743–1745), and then the
//! steps of L1751–1756 run: flip the stack and resolve its **victory**
//! effects ("or fulfilled a special condition", L1751), discard it and
//! return every minion and Boss, let the Origins that had no turn resolve
//! their start-of-turn effects and slide, revive, reset AP, end the round.
//!
//! The book gives the rule but no card texts; a combat card's `ends_when`
//! holds our conditions (ASSUMPTIONS.md, "Special end of combat"): survive
//! N Combat rounds, the named enemy the card spawns is defeated, a standing
//! Origin reaches a space. The shipped example is the Hollow Marshes' Troll
//! Bridge (card 4): when the last marsh troll falls, the fire slugs scatter.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::{CardEffect, Catalogue, CombatEnd, LocationCard};
use athlas_engine::divinity::cooldown::{Track, MINION_TRACK};
use athlas_engine::divinity::dice::{Colour, Roll};
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{EnemyKind, Phase, RoundKind};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityState};
use athlas_engine::Seat;

use crate::divinity_support;
use divinity_support::*;

fn enemy_of(s: &DivinityState, minion: &str) -> u32 {
    s.enemies
        .iter()
        .find(|e| matches!(&e.kind, EnemyKind::Minion { card, .. } if card == minion))
        .unwrap_or_else(|| panic!("no {minion} on the map: {:?}", s.enemies))
        .id
}

/// The Hollow Marshes for the Red Prince and Ifan: the party stands in the
/// Hollow (#3), travels onto the Troll Bridge (#4) and resolves card 4 — a
/// SLOW marsh troll on the bridge and a FAST fire slug; the first Combat
/// round then waits for the Origins. Everyone has 30 HP, both enemies
/// stand on the bridge with the Origins, SLOW, on fresh tracks.
fn troll_bridge_with(c: &Catalogue) -> DivinityState {
    let party = ["red_prince", "ifan"];
    let mut s = Divinity::start_with(c, &options("hollow_marshes", &party), 7).expect("setup");
    quiet(&mut s);
    let hollow = ix(&s, "3");
    for o in &mut s.origins {
        o.space = hollow;
    }
    ok_with(c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok_with(c, &mut s, seat, A::Travel { to: Some("4".into()) });
    }
    ok_with(c, &mut s, 0, A::Reveal);
    ok_with(c, &mut s, 0, A::Resolve { card: "4".into() });
    assert_eq!(s.round_kind, RoundKind::Combat);
    assert_eq!(s.combat_stack, vec!["4".to_string()]);
    let bridge = ix(&s, "4");
    for o in &mut s.origins {
        o.hp = 30;
        o.downed = false;
        o.space = bridge;
    }
    for e in &mut s.enemies {
        e.space = bridge;
        e.fast = false;
        e.track = Track::new(MINION_TRACK);
    }
    assert_eq!(s.enemies.len(), 2, "a troll and a slug for two players: {:?}", s.enemies);
    s
}

/// The Red Prince's turn: his long sword hits the enemy for 4 (two red
/// dice showing 2 hits each).
fn sword(c: &Catalogue, s: &mut DivinityState, enemy: u32) -> Vec<Ev> {
    s.origins[0].ap = s.origins[0].ap.max(2);
    ok_with(c, s, 0, use_card(CardUse::Item("long_sword".into()), Aim::Enemy(enemy)));
    s.pending_roll_mut().expect("a roll is pending").roll =
        Roll::set(vec![die(Colour::Red, 2, false), die(Colour::Red, 2, false)]);
    ok_with(c, s, 0, A::Accept)
}

fn ended(ev: &[Ev]) -> Option<bool> {
    ev.iter().find_map(|e| match e {
        Ev::CombatEnded { victory } => Some(*victory),
        _ => None,
    })
}

/// L1745, L1751–1756 (R234, R235): on the Troll Bridge, the Red Prince fells
/// the troll in his turn with the fire slug still standing. The combat ends
/// at once as a victory: card 4's victory effects resolve (the key on the
/// path 4–5, the Windego blade), the slug is returned though alive, the
/// card is discarded; Ifan, who had no turn yet, bleeds and slides his
/// track but takes no action; every AP tracker is 0 and the round ends.
#[test]
fn the_troll_falling_ends_the_bridge_combat_with_its_victory() {
    let c = cat();
    let mut s = troll_bridge_with(c);
    let troll = enemy_of(&s, "marsh_troll");
    enemy_of(&s, "fire_slug");
    s.origins[1].track.apply_status(St::Bleeding, 2);
    let time = s.time;
    ok_with(c, &mut s, 0, A::StartTurn);
    s.enemies.iter_mut().find(|e| e.id == troll).unwrap().hp = 1;
    let ev = sword(c, &mut s, troll);
    assert_eq!(ended(&ev), Some(true), "the special condition is a victory: {ev:?}");
    assert!(ev.contains(&Ev::KeyPlaced { a: "4".into(), b: "5".into() }), "victory effect 1: {ev:?}");
    let blade = ev.iter().any(|e| matches!(e, Ev::ItemGained { item, .. } if item == "windego_blade"));
    assert!(blade, "victory effect 2: {ev:?}");
    assert!(s.enemies.is_empty(), "the slug goes back to the supply: {:?}", s.enemies);
    assert!(!s.in_combat());
    assert!(s.combat_stack.is_empty() && s.discard.contains(&"4".to_string()));
    assert_eq!(s.origins[1].hp, 29, "Ifan's start-of-turn BLEEDING");
    assert_eq!(s.origins[1].track.status_slot(St::Bleeding), Some(1), "Ifan slid his track");
    assert!(s.origins.iter().all(|o| o.ap == 0), "AP to 0");
    assert_eq!(s.time, time.map(|t| t + 1), "the round ended");
    assert_eq!(s.phase, Phase::ChooseRound, "no enemy left: the party chooses the next round");
}

/// L1743–1745 (R234): the combat does not end before the condition is met —
/// not when the troll is only hurt, not when the slug (not named by the
/// card) falls — and ends when the troll does.
#[test]
fn the_bridge_combat_goes_on_until_the_troll_falls() {
    let c = cat();
    let mut s = troll_bridge_with(c);
    let troll = enemy_of(&s, "marsh_troll");
    let slug = enemy_of(&s, "fire_slug");
    ok_with(c, &mut s, 0, A::StartTurn);
    s.enemies.iter_mut().find(|e| e.id == troll).unwrap().hp = 20;
    let ev = sword(c, &mut s, troll);
    assert_eq!(ended(&ev), None, "a hurt troll ends nothing: {ev:?}");
    assert!(s.enemy(troll).is_some_and(|e| e.hp < 20));
    s.enemies.iter_mut().find(|e| e.id == slug).unwrap().hp = 1;
    let ev = sword(c, &mut s, slug);
    assert_eq!(ended(&ev), None, "the slug is not the condition: {ev:?}");
    assert!(s.enemy(slug).is_none(), "the slug is defeated");
    assert!(matches!(s.phase, Phase::Combat { .. }) && s.in_combat());
    assert_eq!(s.combat_stack, vec!["4".to_string()]);
    s.enemies.iter_mut().find(|e| e.id == troll).unwrap().hp = 1;
    let ev = sword(c, &mut s, troll);
    assert_eq!(ended(&ev), Some(true), "{ev:?}");
}

/// L1743 (R234): a combat card without `ends_when` behaves as before — on a
/// Troll Bridge card stripped of its condition, the troll falls and the
/// combat goes on against the slug, with no victory effect yet.
#[test]
fn without_the_condition_the_troll_falling_ends_nothing() {
    let mut c = cat().clone();
    let l = c.locations.get_mut("hollow_marshes").unwrap();
    l.cards.iter_mut().find(|k| k.id == "4").unwrap().ends_when.clear();
    let mut s = troll_bridge_with(&c);
    let troll = enemy_of(&s, "marsh_troll");
    let slug = enemy_of(&s, "fire_slug");
    ok_with(&c, &mut s, 0, A::StartTurn);
    s.enemies.iter_mut().find(|e| e.id == troll).unwrap().hp = 1;
    let ev = sword(&c, &mut s, troll);
    assert_eq!(ended(&ev), None, "{ev:?}");
    assert!(!ev.iter().any(|e| matches!(e, Ev::KeyPlaced { .. })), "no victory effect: {ev:?}");
    assert!(s.enemy(troll).is_none() && s.enemy(slug).is_some());
    assert!(matches!(s.phase, Phase::Combat { .. }));
    // All enemies defeated still ends it (L1743).
    s.enemies.iter_mut().find(|e| e.id == slug).unwrap().hp = 1;
    let ev = sword(&c, &mut s, slug);
    assert_eq!(ended(&ev), Some(true), "{ev:?}");
    assert!(ev.contains(&Ev::KeyPlaced { a: "4".into(), b: "5".into() }));
}

/// Tutorial card 2 (a Lackey in the Galley) given a special condition, for
/// two Origins with 30 HP; the first Combat round waits for the Origins.
fn galley_with(end: CombatEnd) -> (Catalogue, DivinityState) {
    let mut c = cat().clone();
    let l = c.locations.get_mut("tutorial").unwrap();
    l.cards.iter_mut().find(|k| k.id == "2").unwrap().ends_when = vec![end];
    c.validate().expect("a valid condition");
    let party = ["red_prince", "ifan"];
    let mut s = Divinity::start_with(&c, &options("tutorial", &party), 7).expect("setup");
    quiet(&mut s);
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok_with(&c, &mut s, seat, A::Travel { to: Some("2".into()) });
    }
    ok_with(&c, &mut s, 0, A::Reveal);
    ok_with(&c, &mut s, 0, A::Resolve { card: "2".into() });
    assert_eq!(s.round_kind, RoundKind::Combat);
    for o in &mut s.origins {
        o.hp = 30;
    }
    (c, s)
}

/// Both Origins start and end their turns; the round's SLOW enemies act.
fn pass_round(c: &Catalogue, s: &mut DivinityState) -> Vec<Ev> {
    let mut ev = Vec::new();
    for seat in 0..2 {
        ev.extend(ok_with(c, s, seat, A::StartTurn));
        ev.extend(ok_with(c, s, seat, A::EndTurn));
    }
    ev
}

/// L1745, L1751 (R234, R235): "survive 2 Combat rounds" — the combat is
/// still on after the first round, and ends as a victory (2 gold, a healing
/// potion) at the end of the second, the Lackey returned; the round's end
/// advances time once.
#[test]
fn surviving_the_rounds_ends_the_combat_at_the_end_of_the_last() {
    let (c, mut s) = galley_with(CombatEnd::Rounds { rounds: 2 });
    let gold = s.gold;
    let ev = pass_round(&c, &mut s);
    assert_eq!(ended(&ev), None, "one round survived of two: {ev:?}");
    assert!(matches!(s.phase, Phase::Combat { .. }) && s.in_combat());
    assert_eq!(s.stack_rounds.get("2"), Some(&1));
    let time = s.time;
    let ev = pass_round(&c, &mut s);
    assert_eq!(ended(&ev), Some(true), "{ev:?}");
    assert_eq!(s.gold, gold + 2, "the victory effects resolve");
    assert!(ev.iter().any(|e| matches!(e, Ev::ItemGained { item, .. } if item == "healing_potion")));
    assert!(s.enemies.is_empty() && s.combat_stack.is_empty() && s.stack_rounds.is_empty());
    assert_eq!(s.time, time.map(|t| t + 1), "time advances once for the round");
    assert_eq!(s.phase, Phase::ChooseRound);
}

/// L1745, L1756–1758 (R234, R235): "reach the Deck (#1)" — the Red Prince
/// walks out of the Galley onto the Deck: the combat ends at once, in his
/// turn; he slides his track (G33), Ifan — who had no turn — resolves his
/// start-of-turn BLEEDING and slides, and the Lackey is returned.
#[test]
fn reaching_the_space_ends_the_combat_at_once() {
    let (c, mut s) = galley_with(CombatEnd::Reach { space: "1".into() });
    s.origins[1].track.apply_status(St::Bleeding, 2);
    ok_with(&c, &mut s, 0, A::StartTurn);
    let ev = ok_with(&c, &mut s, 0, A::Move { to: "1".into() });
    assert_eq!(ended(&ev), Some(true), "{ev:?}");
    assert!(s.enemies.is_empty() && s.combat_stack.is_empty());
    assert_eq!(s.origins[1].hp, 29);
    assert_eq!(s.origins[1].track.status_slot(St::Bleeding), Some(1));
    assert!(s.origins.iter().all(|o| o.ap == 0));
}

/// L1745 (R234): only a standing Origin reaches a space — a downed one lying
/// on the Deck does not end the combat, while the Red Prince walking into the
/// t1 swamp instead goes on fighting.
#[test]
fn a_downed_origin_on_the_space_does_not_end_the_combat() {
    let (c, mut s) = galley_with(CombatEnd::Reach { space: "1".into() });
    ok_with(&c, &mut s, 0, A::StartTurn);
    let deck = ix(&s, "1");
    s.origins[1].space = deck;
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    s.origins[0].ap = 3;
    let ev = ok_with(&c, &mut s, 0, A::Move { to: "t1".into() });
    assert_eq!(ended(&ev), None, "{ev:?}");
    assert!(matches!(s.phase, Phase::Combat { .. }) && s.in_combat());
    assert_eq!(s.origins[0].space, ix(&s, "t1"));
}

/// The new field is checked when content loads, like every reference
/// (`divinity_content.rs`): each planted mistake is refused, in words.
#[test]
fn bad_ends_when_conditions_are_refused() {
    assert!(cat().validate().is_ok());
    type Break = Box<dyn Fn(&mut LocationCard)>;
    let breaks: Vec<(&str, &str, &str, Break)> = vec![
        (
            "hollow_marshes",
            "4",
            "unknown space",
            Box::new(|k| k.ends_when = vec![CombatEnd::Reach { space: "atlantis".into() }]),
        ),
        (
            "hollow_marshes",
            "4",
            "unknown enemy",
            Box::new(|k| k.ends_when = vec![CombatEnd::Defeated { enemy: "nobody".into() }]),
        ),
        (
            "hollow_marshes",
            "4",
            "an enemy another card spawns",
            Box::new(|k| k.ends_when = vec![CombatEnd::Defeated { enemy: "shambling_skeleton".into() }]),
        ),
        (
            "hollow_marshes",
            "4",
            "an enemy the card does not spawn for one player (the slug)",
            Box::new(|k| k.ends_when = vec![CombatEnd::Defeated { enemy: "fire_slug".into() }]),
        ),
        ("hollow_marshes", "4", "survive 0 rounds", Box::new(|k| k.ends_when = vec![CombatEnd::Rounds { rounds: 0 }])),
        (
            "hollow_marshes",
            "5",
            "a card that spawns no enemy",
            Box::new(|k| k.ends_when = vec![CombatEnd::Rounds { rounds: 2 }]),
        ),
        (
            "temple",
            "3",
            "a Boss the card does not spawn",
            Box::new(|k| {
                k.effects.retain(|e| !matches!(e, CardEffect::SpawnBoss { .. }));
                k.effects.push(CardEffect::SpawnBoss { boss: "the_warden".into() });
                k.ends_when = vec![CombatEnd::Defeated { enemy: "the_wardens_twin".into() }];
            }),
        ),
    ];
    for (loc, card, what, plant) in breaks {
        let mut c = cat().clone();
        let l = c.locations.get_mut(loc).unwrap();
        plant(l.cards.iter_mut().find(|k| k.id == card).unwrap());
        let e = c.validate().expect_err(what);
        assert!(e.0.contains("ends_when"), "{what}: {e}");
    }
    // The Warden, spawned by the Temple's card 3, is a valid leader.
    let mut c = cat().clone();
    let l = c.locations.get_mut("temple").unwrap();
    l.cards.iter_mut().find(|k| k.id == "3").unwrap().ends_when =
        vec![CombatEnd::Defeated { enemy: "the_warden".into() }];
    c.validate().expect("the Warden is the card's Boss");
    // An unknown condition does not parse.
    let bad = r#"{"id": "9", "text": "", "ends_when": [{"when": "sunset"}]}"#;
    refused(serde_json::from_str::<LocationCard>(bad), "unknown variant `sunset`", "an unknown condition");
    let good = r#"{"id": "9", "text": "", "ends_when": [{"when": "rounds", "rounds": 3}]}"#;
    let k: LocationCard = serde_json::from_str(good).unwrap();
    assert_eq!(k.ends_when, vec![CombatEnd::Rounds { rounds: 3 }]);
}

/// The shipped example: the Troll Bridge names its troll.
#[test]
fn the_troll_bridge_ships_with_its_condition() {
    let k = cat().locations["hollow_marshes"].card("4").unwrap();
    assert_eq!(k.ends_when, vec![CombatEnd::Defeated { enemy: "marsh_troll".into() }]);
}
