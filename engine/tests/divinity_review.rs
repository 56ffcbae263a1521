//! Issue 11: readings of the rulebook the engine did not follow. Each test
//! quotes the lines it relies on; where the text reads two ways, the test
//! pins the choice written in `content/divinity/ASSUMPTIONS.md` and quotes
//! both sides.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use athlas_engine::divinity::cooldown::{CardRef, TrackCard};
use athlas_engine::divinity::damage::DamageType;
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{EnemyKind, Phase, Purpose, Revealed, Who};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::DivinityState;
use athlas_engine::Seat;

use crate::divinity_support;
use divinity_support::*;

fn attack_type(s: &DivinityState) -> DamageType {
    match &s.pending_roll().expect("a roll is pending").purpose {
        Purpose::Attack { attack, .. } => attack.damage_type().expect("a damaging attack"),
        Purpose::Challenge => unreachable!("an attack roll"),
    }
}

// ---- 1. Source rerolls of an ally's roll ----

/// R61, D42 (L511): "After any dice roll (made at any time by any Origin,
/// Boss, or minion), you may spend 1 Source to reroll any number of dice that
/// were rolled"; L2168: "Spend to reroll any attack or challenge roll". An
/// ally spends its own Source on another Origin's attack roll. The card's
/// own reroll stays the roller's, and so does the choice to let it stand.
#[test]
fn l511_an_ally_spends_source_on_an_origins_attack_roll() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(id)));
    let (mine, hers) = (s.origins[0].source, s.origins[1].source);
    assert!(hers >= 1, "Sebille has Source to spend");
    let n = s.pending_roll().unwrap().roll.dice.len();
    let ev = ok(&mut s, 1, A::Reroll { dice: (0..n).collect(), source: true });
    assert!(ev.iter().any(|e| matches!(e, Ev::Rerolled { seat: 1, source: true, .. })));
    assert_eq!((s.origins[0].source, s.origins[1].source), (mine, hers - 1), "the ally pays");
    assert_eq!(s.pending_roll().unwrap().seat, 0, "still Ifan's roll");
    rejected(&mut s, 1, A::Reroll { dice: vec![0], source: false }, "not_your_roll");
    rejected(&mut s, 1, A::Accept, "not_your_roll");
    rejected(&mut s, 1, A::Reroll { dice: vec![0], source: true }, "not_enough_source");
    ok(&mut s, 0, A::Accept);
    assert!(s.pending_roll().is_none());
}

/// R160, R166 (L1180): "Each Origin who makes the roll does so
/// independently, and may not receive assistance from other Origins in their
/// space" — so the exception to L511 stays: only the roller spends Source on
/// a challenge roll.
#[test]
fn l1180_no_ally_rerolls_a_challenge_roll() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 1, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    let seat = waiting(&s)[0];
    ok(&mut s, seat, A::Challenge { auto: None, keywords: vec![] });
    let other = 1 - seat;
    rejected(&mut s, other, A::Reroll { dice: vec![0], source: true }, "not_your_roll");
    ok(&mut s, seat, A::Reroll { dice: vec![0], source: true });
}

// ---- 2. Downed at the start of one's own turn ----

/// R122, D39 (L390): "Start of Turn: Resolve any “start of turn” effects on
/// your cooldown track, then gain action points"; L757: "downed Origins still
/// take a turn as normal, but they only gain ● (up to their max) and slide
/// cooldowns". Downed by its own BURNING, Ifan still gains his AP.
#[test]
fn l757_downed_by_its_own_start_of_turn_still_gains_ap() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    s.origins[0].hp = 1;
    s.origins[0].ap = 1;
    s.origins[0].track.apply_status(St::Burning, 3);
    let ev = ok(&mut s, 0, A::StartTurn);
    assert!(ev.contains(&Ev::Downed { seat: 0 }));
    assert!(s.origins[0].downed);
    assert_eq!(s.origins[0].ap, 1 + 4, "the card's 4 AP are gained all the same");
    assert!(matches!(&s.phase, Phase::Combat { done, active: None } if done[0]), "and the turn is over");
    assert_eq!(s.origins[0].track.find(&CardRef::Status(St::Burning)), Some(2), "slid");
}

// ---- 3. The AP maximum when HASTE leaves mid-turn ----

/// R216, D03 (L1564): "You can have a max of 8 ● at a time (unless you have
/// the HASTE status …). Any ● gained in excess of your max is lost"; L1574:
/// "While you have HASTE, you have a maximum of 10 ● instead of 8". The cap
/// holds at every moment: Fane cleansing his HASTE mid-turn keeps 8 of 10.
#[test]
fn l1574_haste_cleansed_mid_turn_caps_ap_at_once() {
    let mut s = duel(&["fane", "sebille"], "darkhans_lackey", 28);
    s.origins[0].track.apply_status(St::Haste, 3);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 10;
    ok(&mut s, 0, A::UseAbility { aim: None });
    assert!(!s.origins[0].track.has(St::Haste), "cleansed");
    assert_eq!(s.origins[0].ap, 8);
}

// ---- 4. Revived before its Rest turn ----

/// R122, R123 (L757): "If an Origin is revived before they take their turn,
/// they may take a normal turn"; L352: "Each Origin takes 1 turn, in the
/// order of their choice"; L767: the Rest round revive. Sebille, downed as
/// the Rest round starts and revived by Ifan, takes her own Rest turn.
#[test]
fn l757_revived_in_a_rest_round_takes_a_normal_turn() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    ok(&mut s, 0, A::ChooseRound { explore: false });
    assert_eq!(waiting(&s), vec![0]);
    ok(&mut s, 0, A::Revive { to: 1, hp: 3 });
    assert_eq!(waiting(&s), vec![0, 1], "her turn is still to come");
    ok(&mut s, 1, A::Recover { status: None });
    assert_eq!(s.origins[1].hp, 5);
    ok(&mut s, 1, A::EndTurn);
    let round = s.round;
    ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.round, round + 1, "the Rest round is over");
}

/// L757: "During Rest and Explore rounds, they again take turns, but only
/// slide cooldowns": one left downed has its turn (a slide) once the others
/// are done, and the round ends.
#[test]
fn l757_a_downed_origin_left_downed_only_slides() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    s.origins[1].track.apply_status(St::Poisoned, 2);
    ok(&mut s, 0, A::ChooseRound { explore: false });
    assert_eq!(s.origins[1].track.find(&CardRef::Status(St::Poisoned)), Some(2), "not yet");
    let round = s.round;
    ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.origins[1].track.find(&CardRef::Status(St::Poisoned)), Some(1), "slid once");
    assert!(s.origins[1].downed);
    assert_eq!(s.round, round + 1);
}

// ---- 5. The Rest turn's steps in order ----

/// R36 (L353-361): a Rest turn is "a. Start of Turn … b. Recover … c. Revive
/// … d. Equip & Trade … e. Use 1 Skill or Item … f. Slide Cooldowns", in that
/// order: a step once passed can't be gone back to.
#[test]
fn l353_rest_steps_come_in_the_books_order() {
    let rest = || {
        let mut s = start("tutorial", &["ifan", "sebille"]);
        s.origins[1].downed = true;
        s.origins[1].hp = 0;
        s.origins[0].hp = 10;
        ok(&mut s, 0, A::ChooseRound { explore: false });
        s
    };
    // Revive (c) then Recover (b): refused.
    let mut s = rest();
    ok(&mut s, 0, A::Revive { to: 1, hp: 3 });
    rejected(&mut s, 0, A::Recover { status: None }, "rest_step_passed");
    // Equip & Trade (d) then Revive (c): refused.
    let mut s = rest();
    ok(&mut s, 0, A::Store { item: "short_bow".into() });
    rejected(&mut s, 0, A::Revive { to: 1, hp: 3 }, "rest_step_passed");
    // A skill (e) then Equip & Trade (d): refused.
    let mut s = rest();
    ok(&mut s, 0, use_card(CardUse::Skill("searing_daggers".into()), Aim::Origin(0)));
    ok(&mut s, 0, A::Accept);
    rejected(&mut s, 0, A::Store { item: "short_bow".into() }, "rest_step_passed");
    rejected(&mut s, 0, A::Revive { to: 1, hp: 1 }, "rest_step_passed");
    // In the book's order, each step is open, and revives and trades repeat.
    let mut s = rest();
    ok(&mut s, 0, A::Recover { status: None });
    assert_eq!(s.origins[0].hp, 12);
    ok(&mut s, 0, A::Revive { to: 1, hp: 1 });
    ok(&mut s, 1, A::Recover { status: None });
    ok(&mut s, 0, A::Store { item: "short_bow".into() });
    ok(&mut s, 0, A::Equip { item: "short_bow".into() });
    ok(&mut s, 0, use_card(CardUse::Skill("searing_daggers".into()), Aim::Origin(1)));
    ok(&mut s, 0, A::Accept);
    ok(&mut s, 0, A::EndTurn);
}

// ---- 6. A downed Origin's face-up cards stay active ----

/// R118, R48, R87 (L743): a downed Origin keeps "all cards on their cooldown
/// track (including statuses, skills, and ongoing consumables)"; L416: "Cards
/// that are face up … have ongoing effects that remain active until they
/// are flipped face down or cleared"; L887: Sebille's Frost Aura converts the
/// physical attack of an Origin in her space. Downed, her aura still does.
#[test]
fn l416_a_downed_origins_aura_stays_active() {
    let mut s = duel(&["ifan", "sebille"], "fire_slug", 20);
    let aura = TrackCard { card: CardRef::Skill("frost_aura".into()), face_up: true, flip_at: Some(1) };
    s.origins[1].track.place(aura, 3);
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(id)));
    assert_eq!(attack_type(&s), DamageType::Water);
}

// ---- 7. Downed Origins and location cards ----

/// R119 (L750): downed Origins "can't interact with location special rules,
/// location cards, or challenge rolls in any way". Fort Joy's alarm (event
/// A) sends the party back to the Gate unless a SOLDIER is in it: Ifan's
/// SOLDIER does not count while he is downed (he is moved with the party,
/// L750's exception for forced moves).
#[test]
fn l750_a_downed_origins_keyword_does_not_serve_a_location_card() {
    for (downed, to) in [(false, "2"), (true, "1")] {
        let mut s = start("fort_joy", &["sebille", "ifan"]);
        let gate = ix(&s, "2");
        for o in &mut s.origins {
            o.space = gate;
        }
        if downed {
            s.origins[1].downed = true;
            s.origins[1].hp = 0;
        }
        s.time = Some(6);
        ok(&mut s, 0, A::ChooseRound { explore: false });
        ok(&mut s, 0, A::EndTurn);
        if !downed {
            ok(&mut s, 1, A::EndTurn);
        }
        assert_eq!(s.combat_stack, vec!["A".to_string()], "event A resolved");
        assert_eq!(s.origins[0].space, ix(&s, to), "downed: {downed}");
        assert_eq!(s.origins[1].space, ix(&s, to), "the whole party moves, downed or not");
    }
}

// ---- 8. Minion routes and INVISIBLE Origins ----

/// R227, R224 (L1689): "If there are multiple routes to their destination,
/// they will prefer the route that ends their movement furthest from all
/// Origins other than the target"; L1627 ignores INVISIBLE Origins only
/// "when choosing targets". A Fire Slug (move 1, range 1) in t1 goes for
/// Ifan on the Beach (1) by space 2 or 3; Sebille, INVISIBLE in 2, still
/// counts, so it ends in 3.
#[test]
fn l1689_an_invisible_origin_still_shapes_a_minions_route() {
    let mut s = duel(&["ifan", "sebille"], "fire_slug", 20);
    s.location = "shipwreck".into();
    s.map = Default::default();
    s.origins[0].space = ix(&s, "1");
    s.origins[1].space = ix(&s, "2");
    s.origins[1].track.apply_status(St::Invisible, 5);
    s.enemies[0].space = ix(&s, "t1");
    let id = s.enemies[0].id;
    let mut ev = Vec::new();
    for seat in 0..2 as Seat {
        ok(&mut s, seat, A::StartTurn);
        ev.extend(ok(&mut s, seat, A::EndTurn));
    }
    assert_eq!(targeted(&ev, id), Some(Who::Origin(0)), "INVISIBLE Sebille is no target");
    assert!(ev.contains(&Ev::Moved { who: Who::Enemy(id), to: "3".into() }), "{ev:?}");
    assert_eq!(s.enemies[0].space, ix(&s, "3"));
    assert!(matches!(s.enemies[0].kind, EnemyKind::Minion { .. }));
}

// ---- 9. Keywords played for a condition, and who takes a found item ----

/// R84, R165 (L796): "When you encounter an event or challenge roll with a
/// keyword condition, you may play a skill with that keyword from your hand
/// to fulfill the condition (at no ● cost)"; L1182: "The challenge may grant
/// extra dice for meeting certain conditions, such as having a specific
/// keyword"; L1206: a temporary keyword "only lasts until the end of the
/// current challenge roll". Ifan plays Tracking (SCOUT) for the Shipwreck's
/// first challenge: 3 white, +1 for MERCENARY, +1 for SCOUT; Tracking goes
/// face down on slot 3 (L798).
#[test]
fn l796_a_skill_keyword_earns_a_challenge_bonus_die() {
    let challenge = || {
        let mut s = start("shipwreck", &["ifan"]);
        ok(&mut s, 0, A::ChooseRound { explore: true });
        ok(&mut s, 0, A::Travel { to: None });
        ok(&mut s, 0, A::Reveal);
        ok(&mut s, 0, A::Resolve { card: "1".into() });
        s
    };
    let dice = |s: &DivinityState| s.pending_roll().expect("rolled").roll.dice.len();
    let mut s = challenge();
    ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    assert_eq!(dice(&s), 4, "3 white + MERCENARY");
    let mut s = challenge();
    let scout = ("SCOUT".to_string(), KeywordFrom::Skill("tracking".into()));
    ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![scout.clone()] });
    assert_eq!(dice(&s), 5, "+ SCOUT from Tracking");
    assert!(!s.origins[0].hand.contains(&"tracking".to_string()));
    assert_eq!(s.origins[0].track.find(&CardRef::Skill("tracking".into())), Some(3));
    assert!(s.origins[0].track.active().next().is_none(), "face down: no other effect");
    let mut s = challenge();
    let refused = [
        (vec![("MERCENARY".to_string(), KeywordFrom::Skill("tracking".into()))], "condition_met"),
        (vec![("TELEPORTATION".to_string(), KeywordFrom::Skill("phoenix_dive".into()))], "no_condition"),
        (vec![("SCOUT".to_string(), KeywordFrom::Skill("phoenix_dive".into()))], "no_keyword"),
        (vec![("SCOUT".to_string(), KeywordFrom::Permanent)], "bad_keyword"),
        (vec![scout.clone(), scout.clone()], "condition_met"),
    ];
    for (keywords, code) in refused {
        rejected(&mut s, 0, A::Challenge { auto: None, keywords }, code);
    }
    let auto = Some(("LUCKY".to_string(), KeywordFrom::Permanent));
    rejected(&mut s, 0, A::Challenge { auto, keywords: vec![scout] }, "bad_keyword");
}

/// R84 (L796) says "an event or challenge roll with a keyword condition";
/// a location card's `if keyword` condition is checked as the card resolves,
/// with no pause to ask for a card to play (a timed event resolves at the end
/// of a round), so the catalogue may not name there a keyword a skill or
/// consumable gives (ASSUMPTIONS, "Keyword conditions"). Fort Joy's alarm
/// asks for SOLDIER, which no skill or consumable gives; asking for
/// TELEPORTATION (Phoenix Dive, the Teleport Scroll) is refused at load.
#[test]
fn l796_card_conditions_name_no_keyword_a_card_could_give() {
    use athlas_engine::divinity::content::{CardEffect, Condition};
    assert!(cat().validate().is_ok());
    assert!(cat().skills.values().all(|s| s.keyword.as_deref() != Some("SOLDIER")));
    let mut c = cat().clone();
    let alarm = c.locations.get_mut("fort_joy").unwrap().cards.iter_mut().find(|x| x.id == "A").unwrap();
    let CardEffect::If { condition: Condition::Keyword { keyword, .. }, .. } = &mut alarm.effects[0] else {
        panic!("the alarm checks a keyword")
    };
    *keyword = "TELEPORTATION".into();
    refused(c.validate(), "condition on TELEPORTATION, which a skill or consumable gives", "asking for TELEPORTATION");
}

/// R143, D55 (L1039): "If you find an item while exploring a space …, any
/// Origin in your space may immediately equip or store it at no ● cost."
/// The engine hands it to the finder when it has room (then to another in
/// the space); the party may move it freely in the next Rest turn: "give or
/// take any number of items from Origins anywhere on the map" (L359). Its
/// own choice comes only when the finder has no room (L1056). ASSUMPTIONS,
/// "Found items", argues this narrowing.
#[test]
fn l1039_a_found_item_goes_to_the_finder_then_is_traded_at_rest() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    let brig = ix(&s, "4");
    for o in &mut s.origins {
        o.space = brig;
        o.backpack.clear();
    }
    s.phase = Phase::Resolve;
    s.revealed = vec![Revealed { card: "4".into(), seats: vec![1], space: brig, placed: true }];
    let ev = ok(&mut s, 0, A::Resolve { card: "4".into() });
    assert!(ev.contains(&Ev::ItemGained { seat: Some(1), item: "collar_key".into() }), "the finder, seat 1");
    assert!(s.overflow.is_empty(), "no party choice");
    assert_eq!(s.phase, Phase::ChooseRound, "the round is over");
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Take { item: "collar_key".into(), from: 1, equip: false });
    assert!(s.origins[0].backpack.contains(&"collar_key".to_string()));
}
