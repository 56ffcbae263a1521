//! The Divinity ruleset played through its public API: location setup, the
//! round loop, exploring, challenges, combat, enemies, ending a combat,
//! exits and the campaign value. Each test cites the rule (R…), worked
//! example (E…) or derived case (D…) of the facts file. Dice are set by
//! editing the pending roll, as "setting dice" does (L1531).

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::content::ConsumableDeck;
use athlas_engine::divinity::cooldown::{CardRef, Track, MINION_TRACK};
use athlas_engine::divinity::damage::{DamageType, Environment};
use athlas_engine::divinity::dice::Colour;
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::interlude::{valid_skills, MerchantDeck};
use athlas_engine::divinity::state::{EnemyKind, Finish, Overflow, Phase, Revealed, RoundKind, Who};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState, Position};
use athlas_engine::{Outcome, Ruleset, Seat, Status, Viewer};

use crate::divinity_support;
use divinity_support::*;

#[track_caller]
fn ok(s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    match Divinity::apply(s, seat, a.clone()) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} by seat {seat} was rejected: {}", e.message),
    }
}

/// Let every enemy roll stand (each Origin with Source passes its reroll,
/// L511) and break target ties for the lowest seat (L1623).
fn pass(s: &mut DivinityState) -> Vec<Ev> {
    let mut ev = Vec::new();
    loop {
        if let Some(t) = s.tie().cloned() {
            let Who::Origin(o) = t.options[0] else { unreachable!("ties are between Origins here") };
            ev.extend(ok(s, 0, A::BreakTie { target: Aim::Origin(o) }));
        } else if s.route().is_some() {
            ev.extend(ok(s, 0, A::ChooseRoute { route: 0 }));
        } else if s.enemy_roll().is_some() {
            let seat = waiting(s)[0];
            ev.extend(ok(s, seat, A::Accept));
        } else {
            return ev;
        }
    }
}

/// End a turn and let the enemy rolls that follow stand.
#[track_caller]
fn end_turn(s: &mut DivinityState, seat: Seat) -> Vec<Ev> {
    let mut ev = ok(s, seat, A::EndTurn);
    ev.extend(pass(s));
    ev
}

/// One Rest round in which every standing Origin just ends its turn.
fn rest_round(s: &mut DivinityState) {
    ok(s, 0, A::ChooseRound { explore: false });
    for seat in waiting(s) {
        ok(s, seat, A::EndTurn);
    }
}

/// Tutorial: every Origin travels to the Galley (#2) and reveals card 2,
/// which spawns a Darkhan's Lackey; the next round is a Combat round, on the
/// table's options.
fn tutorial_combat_at(party: &[&str]) -> Position {
    Position::combat("tutorial", party).reveal("2").table_options()
}

fn tutorial_combat(party: &[&str]) -> DivinityState {
    built(tutorial_combat_at(party))
}

// ---- Setup (R11-R19) ----

#[test]
fn r14_r17_location_setup() {
    let loc = &cat().locations["tutorial"];
    let party = ["ifan", "sebille", "red_prince", "fane"];
    for n in 1..=4 {
        let s = start("tutorial", &party[..n]);
        assert_eq!(s.time, Some(loc.time.start[n - 1]), "R14: tracker by party size");
        let ids: Vec<String> = loc.cards.iter().map(|c| c.id.clone()).collect();
        assert_eq!(s.deck, ids, "R13: the deck in order, not shuffled");
        for o in &s.origins {
            let d = &cat().origins[&o.origin];
            let card = d.at(1).unwrap();
            assert_eq!(o.space, ix(&s, &loc.start), "R15: on the starting space");
            assert_eq!((o.hp, o.ap, o.source), (card.hp, 0, card.source), "R9, R17");
            assert_eq!(o.hand, d.skills, "R17: every skill in hand");
        }
        assert_eq!(Divinity::seats(&options("tutorial", &party[..n])), n);
    }
    refused(Divinity::start(&options("tutorial", &[]), 1), "a party is 1 to 4 Origins", "no party");
    refused(Divinity::start(&options("tutorial", &["ifan", "ifan"]), 1), "ifan is in the party twice", "Ifan twice");
    refused(Divinity::start(&options("atlantis", &["ifan"]), 1), "unknown location atlantis", "no such location");
    let solo = DivinityOptions { solo: true, ..options("tutorial", &["ifan"]) };
    refused(Divinity::start(&solo, 1), "Solo Mode is a 2-Origin setup", "a solo party of 1");
}

#[test]
fn r18_r19_unset_tracker_until_a_card_sets_it() {
    let mut s = start("fort_joy", &["ifan"]);
    assert_eq!(s.time, None);
    rest_round(&mut s);
    assert_eq!(s.time, None, "R18: no time limit, the tracker does not advance");
    // Card 2 (the courtyard) sets the tracker on 3 and spawns guards.
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("2".into()) });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "2".into() });
    assert!(s.time.unwrap() >= 4, "R19: set on 3, then it advances at the round's end");
}

// ---- Rounds (R20-R23, R50) ----

#[test]
fn r20_r21_round_choice() {
    let s = start("tutorial", &["ifan", "sebille"]);
    assert_eq!(waiting(&s), vec![0, 1], "the party chooses: any seat may answer");
    let mut any = s.clone();
    ok(&mut any, 1, A::ChooseRound { explore: true });
    // A party that set a leader: only the leader decides.
    let mut s = Divinity::start(&DivinityOptions { leader: Some(1), ..options("tutorial", &["ifan", "sebille"]) }, 7)
        .expect("setup");
    assert_eq!(waiting(&s), vec![1]);
    rejected(&mut s, 0, A::ChooseRound { explore: true }, "not_leader");
    ok(&mut s, 1, A::ChooseRound { explore: true });
    let bad = DivinityOptions { leader: Some(2), ..options("tutorial", &["ifan", "sebille"]) };
    refused(
        Divinity::start(&bad, 7),
        "the leader must be one of the party's seats",
        "the leader is one of the party's seats",
    );
    let mut c = tutorial_combat(&["ifan"]);
    assert!(c.in_combat());
    rejected(&mut c, 0, A::ChooseRound { explore: false }, "not_between_rounds");
}

// E04, R22, R50: the tracker advances at the end of every round; event A triggers on 6.
#[test]
fn e04_timed_event() {
    let mut s = start("tutorial", &["ifan"]);
    assert_eq!(s.time, Some(1));
    for t in 2..=5 {
        rest_round(&mut s);
        assert_eq!(s.time, Some(t));
    }
    assert!(s.deck.contains(&"A".to_string()));
    rest_round(&mut s);
    assert_eq!(s.time, Some(6));
    assert!(!s.deck.contains(&"A".to_string()) && s.discard.contains(&"A".to_string()));
    assert_eq!(s.map.tokens.get(&ix(&s, "1")), Some(&Environment::Wet), "card A floods the deck");
}

// R52, R185: the end-of-scenario event here forces a restart: gold is lost, items kept.
#[test]
fn end_of_scenario_restart() {
    let mut s = built(table("tutorial", &["ifan"]).gold(5));
    let items = s.origins[0].equipped.clone();
    while !matches!(s.phase, Phase::Finished { .. }) {
        rest_round(&mut s);
    }
    assert_eq!(s.phase, Phase::Finished { result: Finish::Restart });
    assert_eq!(Divinity::status(&s), Status::Finished(Outcome::PartyLost));
    let c = Divinity::campaign(&s, cat()).unwrap();
    assert_eq!((c.location.as_str(), c.gold, c.level), ("tutorial", 0, 1));
    assert!(items.iter().all(|i| c.origins[0].items.contains(i)));
    rejected(&mut s, 0, A::ChooseRound { explore: true }, "finished");
}

// ---- Exploring (R24-R33, E01, E26, E28) ----

// E01 + E28 + E26: Shipwreck with 3 players; the Red Prince goes to the Tide Pools.
#[test]
fn e01_e26_e28_explore_split_party() {
    let mut s = start("shipwreck", &["ifan", "sebille", "red_prince"]);
    let t0 = s.time.unwrap();
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 1, A::Travel { to: None });
    ok(&mut s, 2, A::Travel { to: Some("3".into()) });
    assert!(matches!(&s.phase, Phase::Groups { groups, .. } if groups == &vec![vec![0, 1], vec![2]]));
    assert_eq!(waiting(&s), vec![0, 1, 2]);
    ok(&mut s, 1, A::Reveal);
    ok(&mut s, 2, A::Reveal);
    // Both revealed, nothing resolved yet (R29).
    let revealed: Vec<&str> = s.revealed.iter().map(|r| r.card.as_str()).collect();
    assert_eq!(revealed, vec!["1", "3"]);
    assert!(s.enemies.is_empty());
    assert_eq!(waiting(&s), vec![0, 1, 2], "the party picks the order: any seat");
    // The party resolves #3 first: E28's Lackeys.
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    assert_eq!(s.enemies.len(), 3);
    let letters: Vec<char> = s.enemies.iter().map(|e| e.letter.unwrap()).collect();
    assert_eq!(letters, vec!['A', 'B', 'C']);
    assert!(s.enemies.iter().all(|e| e.hp == 28 && e.space == ix(&s, "3")));
    assert_eq!(s.enemies.iter().filter(|e| e.fast).count(), 1);
    assert_eq!(s.combat_stack, vec!["3".to_string()]);
    assert_eq!(s.round_kind, RoundKind::Explore, "R23: spawning does not interrupt the round");
    // Then the supply challenge (E26): Ifan has MERCENARY, +1 die; Sebille rolls 3.
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    assert!(s.challenge.is_some());
    ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    assert_eq!(s.pending_roll().unwrap().roll.dice.len(), 4);
    rejected(&mut s, 1, A::Challenge { auto: None, keywords: vec![] }, "roll_pending");
    ok(&mut s, 0, A::Accept);
    ok(&mut s, 1, A::Challenge { auto: None, keywords: vec![] });
    assert_eq!(s.pending_roll().unwrap().roll.dice.len(), 3);
    set_dice(&mut s, vec![die(Colour::White, 1, false), die(Colour::White, 1, true), die(Colour::White, 1, false)]);
    let gold = s.gold;
    ok(&mut s, 1, A::Accept);
    assert!(s.gold >= gold + 2, "3 hits: the best row, +2 gold");
    assert!(s.discard.contains(&"1".to_string()));
    // The round ended: time +1 and the next round is Combat (R23).
    assert_eq!(s.time, Some(t0 + 1));
    assert_eq!(s.round_kind, RoundKind::Combat);
}

// D29, D30, E25: no ending in a tactical space, no locked path or space; a placed card opens it.
#[test]
fn d29_d30_travel_limits() {
    let mut s = start("tutorial", &["ifan"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    rejected(&mut s, 0, A::Travel { to: Some("t1".into()) }, "tactical_space");
    rejected(&mut s, 0, A::Travel { to: Some("5".into()) }, "unreachable");
    rejected(&mut s, 0, A::Travel { to: Some("4".into()) }, "unreachable");
    ok(&mut s, 0, A::Travel { to: Some("3".into()) });
    assert_eq!(s.origins[0].space, ix(&s, "3"), "passing through the tactical space is fine");
}

// D31 + E25: the Hold is multicard: one random card a round; 3b places card 4 on the locked Brig.
#[test]
fn d31_e25_multicard_and_placed_card() {
    for seed in 0..20 {
        let mut s = Divinity::start(&options("tutorial", &["ifan"]), seed).unwrap();
        ok(&mut s, 0, A::ChooseRound { explore: true });
        ok(&mut s, 0, A::Travel { to: Some("3".into()) });
        ok(&mut s, 0, A::Reveal);
        let card = s.revealed[0].card.clone();
        assert!(card == "3a" || card == "3b");
        let other = if card == "3a" { "3b" } else { "3a" };
        assert!(s.deck.contains(&other.to_string()), "the other card stays in the deck");
        if card != "3b" {
            continue;
        }
        ok(&mut s, 0, A::Resolve { card });
        assert_eq!(s.map.placed.get(&ix(&s, "4")), Some(&"4".to_string()));
        // Next round: the Brig can be entered, and exploring it resolves "when explored".
        ok(&mut s, 0, A::ChooseRound { explore: true });
        ok(&mut s, 0, A::Travel { to: Some("4".into()) });
        let deck = s.deck.clone();
        ok(&mut s, 0, A::Reveal);
        assert_eq!(s.deck, deck, "no new card is drawn");
        ok(&mut s, 0, A::Resolve { card: "4".into() });
        assert_eq!(s.journal, vec![1]);
        assert!(s.origins[0].equipped.iter().chain(&s.origins[0].backpack).any(|i| i == "collar_key"));
        return;
    }
    panic!("no seed drew 3b");
}

// E27, E39: Phoenix Dive for TELEPORTATION: 0 AP, face down on slot 3, the chosen result.
#[test]
fn e27_automatic_success_with_a_skill_keyword() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 1, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    // Sebille rolls first; Ifan succeeds automatically before rolling.
    ok(&mut s, 1, A::Challenge { auto: None, keywords: vec![] });
    ok(&mut s, 1, A::Accept);
    let auto = ("TELEPORTATION".to_string(), KeywordFrom::Skill("phoenix_dive".into()));
    let bad = ("TELEPORTATION".to_string(), KeywordFrom::Permanent);
    rejected(&mut s, 0, A::Challenge { auto: Some(bad), keywords: vec![] }, "no_keyword");
    // Before the flip nothing of the card's back shows: no row in the
    // view, and the legal list offers the success once, not once a row.
    let view = Divinity::view(&s, Viewer::Spectator);
    assert!(view.challenge_rows.is_none());
    let offered = Divinity::legal(&s, 0);
    assert_eq!(offered.iter().filter(|a| matches!(a, A::Challenge { auto: Some(_), .. })).count(), 1, "{offered:?}");
    assert!(!offered.iter().any(|a| matches!(a, A::ChooseResult { .. })));
    ok(&mut s, 0, A::Challenge { auto: Some(auto), keywords: vec![] });
    // The book's order (L1198): the card is flipped, then its result is
    // chosen from the rows now showing, and only that.
    let view = Divinity::view(&s, Viewer::Spectator);
    let rows = view.challenge_rows.as_ref().expect("the flipped card's rows show");
    assert_eq!(rows.len(), 3);
    assert!(rows[2].text.contains("gold") && rows[2].text.contains("opens"), "{rows:?}");
    assert_eq!(Divinity::legal(&s, 0), (0..3).map(|row| A::ChooseResult { row }).collect::<Vec<_>>());
    rejected(&mut s, 0, A::Challenge { auto: None, keywords: vec![] }, "result_pending");
    rejected(&mut s, 1, A::ChooseResult { row: 2 }, "not_your_roll");
    rejected(&mut s, 0, A::ChooseResult { row: 3 }, "no_such_result");
    ok(&mut s, 0, A::ChooseResult { row: 2 });
    let o = &s.origins[0];
    assert!(!o.hand.contains(&"phoenix_dive".to_string()));
    assert_eq!(o.track.find(&CardRef::Skill("phoenix_dive".into())), Some(3));
    assert_eq!(o.track.active().count(), 0, "face down");
    assert_eq!(o.ap, 0);
    assert!(s.map.keys.contains(&4), "row 2 puts the key on the cabin path");
    assert!(s.challenge.is_none() && s.discard.contains(&"1".to_string()));

    // Once your dice are rolled, it is too late for an automatic success.
    let mut s = start("tutorial", &["ifan"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    let auto = ("TELEPORTATION".to_string(), KeywordFrom::Skill("phoenix_dive".into()));
    rejected(&mut s, 0, A::Challenge { auto: Some(auto), keywords: vec![] }, "roll_pending");
}

// R61, R166, E33: a Source reroll on a challenge roll costs 1 Source and rerolls the dice together.
#[test]
fn r61_source_reroll_on_a_challenge() {
    let mut s = start("tutorial", &["ifan"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    assert_eq!(s.origins[0].source, 1);
    assert!(!s.origins[0].collar_broken, "allowed with an intact collar (L518)");
    let before = s.pending_roll().unwrap().roll.clone();
    ok(&mut s, 0, A::Reroll { dice: vec![0, 1], source: true });
    assert_eq!(s.origins[0].source, 0);
    assert_eq!(s.pending_roll().unwrap().roll.dice[2..], before.dice[2..]);
    rejected(&mut s, 0, A::Reroll { dice: vec![0], source: true }, "not_enough_source");
    rejected(&mut s, 0, A::Reroll { dice: vec![0], source: false }, "no_reroll");
    ok(&mut s, 0, A::Accept);
}

// ---- Combat (R38-R44, R200-R218, R216) ----

// D03, R216: AP: card value added to leftovers, capped at 8, 10 with HASTE; kept between rounds.
#[test]
fn d03_ap_gain_and_cap() {
    let mut s = tutorial_combat(&["ifan"]);
    assert_eq!(waiting(&s), vec![0]);
    rejected(&mut s, 0, A::Move { to: "1".into() }, "turn_not_started");
    ok(&mut s, 0, A::StartTurn);
    assert_eq!(s.origins[0].ap, 4);
    end_turn(&mut s, 0);
    assert!(s.in_combat(), "the Lackey (28 HP) is still standing");
    s.origins[0].ap = 6;
    ok(&mut s, 0, A::StartTurn);
    assert_eq!(s.origins[0].ap, 8, "6 + 4 capped at 8");
    end_turn(&mut s, 0);
    assert!(s.in_combat(), "the Lackey (28 HP) is still standing");
    s.origins[0].ap = 6;
    s.origins[0].track.apply_status(St::Haste, 3);
    ok(&mut s, 0, A::StartTurn);
    assert_eq!(s.origins[0].ap, 10, "HASTE: max 10 (and +2 gained)");
}

// E31, R200-R202: moving costs 1 AP, +1 into DIFFICULT TERRAIN; no ending a turn in a tactical
// space another Origin holds.
#[test]
fn e31_moving_in_combat() {
    let mut s = tutorial_combat(&["ifan", "sebille"]);
    // Keep the fight going whatever the fast Lackey did.
    for o in &mut s.origins {
        o.hp = 20;
        o.downed = false;
    }
    let seat = waiting(&s)[0];
    let other = 1 - seat;
    s.origins[other as usize].space = ix(&s, "t1");
    ok(&mut s, seat, A::StartTurn);
    s.origins[seat as usize].ap = 5;
    ok(&mut s, seat, A::Move { to: "t1".into() });
    assert_eq!(s.origins[seat as usize].ap, 3, "2 AP into difficult terrain");
    rejected(&mut s, seat, A::EndTurn, "tactical_space_taken");
    s.origins[other as usize].downed = true;
    rejected(&mut s, seat, A::EndTurn, "tactical_space_taken"); // downed Origins block too (L753)
    s.origins[other as usize].downed = false;
    ok(&mut s, seat, A::Move { to: "2".into() });
    assert_eq!(s.origins[seat as usize].ap, 2, "1 AP back out");
    rejected(&mut s, seat, A::Move { to: "3".into() }, "not_adjacent");
    end_turn(&mut s, seat);
}

/// A combat in the tutorial against one minion of our choosing in the Origins' space.
fn duel(party: &[&str], minion: &str, hp: u32) -> DivinityState {
    let mut s = tutorial_combat(party);
    let galley = ix(&s, "2");
    for o in &mut s.origins {
        o.hp = 20;
        o.downed = false;
        o.space = galley;
    }
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Minion { card: minion.into(), veteran: false };
    e.hp = hp;
    e.max_hp = cat().minions[minion].standard.hp;
    e.fast = false;
    e.track = Track::new(MINION_TRACK);
    s
}

// E32 through the ruleset: the Fire Staff against a Bandit Hydrosophist in a WARM space.
#[test]
fn e32_fire_staff_in_play() {
    let mut s = duel(&["red_prince"], "bandit_hydrosophist", 16);
    let here = ix(&s, "2");
    s.map.tokens.insert(here, Environment::Warm);
    s.origins[0].equipped = vec!["fire_staff".into()];
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(
        &mut s,
        0,
        A::Use { first_aura: None, include_self: None, card: CardUse::Item("fire_staff".into()), aim: Aim::Enemy(id) },
    );
    assert_eq!(s.origins[0].ap, 2, "2 AP paid");
    rejected(&mut s, 0, A::EndTurn, "roll_pending");
    set_dice(&mut s, vec![die(Colour::White, 1, false), die(Colour::White, 1, false), die(Colour::White, 1, true)]);
    ok(&mut s, 0, A::Accept);
    let e = s.enemy(id).unwrap();
    assert_eq!(e.hp, 11, "5 + 2 WARM - 2 magical armor = 5");
    assert_eq!(e.track.status_slot(St::Burning), Some(2));
}

// E21: equipment has no cooldown: the dagger attacks twice for 2 AP; out of range is refused.
#[test]
fn e21_dagger_twice_and_range() {
    let mut s = duel(&["sebille"], "crocodile", 20);
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    for _ in 0..2 {
        ok(
            &mut s,
            0,
            A::Use {
                first_aura: None,
                include_self: None,
                card: CardUse::Item("rusty_dagger".into()),
                aim: Aim::Enemy(id),
            },
        );
        set_dice(&mut s, vec![die(Colour::White, 0, false), die(Colour::White, 0, false)]);
        ok(&mut s, 0, A::Accept);
    }
    assert_eq!(s.origins[0].ap, 2);
    s.enemy_mut(id).unwrap().space = ix(&s, "1");
    rejected(
        &mut s,
        0,
        A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Item("rusty_dagger".into()),
            aim: Aim::Enemy(id),
        },
        "out_of_range",
    );
}

// R117, R235, D04, D59: the last enemy falls mid-turn: combat ends at once; victory effects;
// AP to 0; the round ends and the party chooses again.
#[test]
fn d59_victory_ends_combat_at_once() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 1);
    let seat = waiting(&s)[0];
    ok(&mut s, seat, A::StartTurn);
    let t = s.time;
    let id = s.enemies[0].id;
    let weapon = if seat == 0 { "short_bow" } else { "rusty_dagger" };
    ok(
        &mut s,
        seat,
        A::Use { first_aura: None, include_self: None, card: CardUse::Item(weapon.into()), aim: Aim::Enemy(id) },
    );
    let n = s.pending_roll().unwrap().roll.dice.len();
    let c = s.pending_roll().unwrap().roll.dice[0].colour;
    set_dice(&mut s, vec![die(c, if c == Colour::Red { 2 } else { 1 }, false); n]);
    let gold = s.gold;
    let ev = ok(&mut s, seat, A::Accept);
    assert!(ev.contains(&Ev::CombatEnded { victory: true }));
    assert!(s.enemies.is_empty() && s.combat_stack.is_empty());
    assert_eq!(s.gold, gold + 2, "card 2's victory: 2 gold");
    assert!(s.origins.iter().any(|o| o.backpack.contains(&"healing_potion".to_string())));
    assert!(s.origins.iter().all(|o| o.ap == 0));
    assert_eq!(s.time, t.map(|t| t + 1), "the end of combat ends the round");
    assert_eq!(s.phase, Phase::ChooseRound);
    assert!(s.discard.contains(&"2".to_string()));
}

// D10, D14, R123: Revive transfers HP; giving all of it downs the giver; a fully downed party
// loses the combat and everyone comes back with 1 HP.
#[test]
fn d10_d14_revive_and_defeat() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&s)[0];
    let other = 1 - seat;
    s.origins[other as usize].hp = 0;
    s.origins[other as usize].downed = true;
    ok(&mut s, seat, A::StartTurn);
    s.origins[seat as usize].hp = 5;
    rejected(&mut s, seat, A::Revive { to: other, hp: 0 }, "bad_transfer");
    rejected(&mut s, seat, A::Revive { to: other, hp: 6 }, "bad_transfer");
    let ap = s.origins[seat as usize].ap;
    let ev = ok(&mut s, seat, A::Revive { to: other, hp: 5 });
    assert!(ev.contains(&Ev::Revived { seat: other, hp: 5 }));
    assert!(ev.contains(&Ev::Downed { seat }));
    // The reviver's turn is over; the other is up with 5 HP and 1 AP was spent.
    assert_eq!(s.origins[seat as usize].ap, ap - 1);
    assert_eq!(s.origins[other as usize].hp, 5);
    // Now down the last one: the combat is lost and both come back with 1 HP.
    ok(&mut s, other, A::StartTurn);
    s.origins[other as usize].hp = 1;
    // The giver is down; the SLOW Lackey then downs the last one (2 bonus hits - 1 armor at least).
    let mut ev = ok(&mut s, other, A::Revive { to: seat, hp: 1 });
    ev.extend(pass(&mut s));
    assert!(ev.contains(&Ev::CombatEnded { victory: false }));
    assert!(s.origins.iter().all(|o| !o.downed && o.hp == 1 && o.ap == 0));
    assert!(s.enemies.is_empty());
}

// D09: Recover: refused with an enemy in the space; otherwise 2 AP to heal 2 or slide a status.
#[test]
fn d09_recover() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    rejected(&mut s, 0, A::Recover { status: None }, "enemy_here");
    s.enemies[0].space = ix(&s, "1");
    s.origins[0].hp = 10;
    ok(&mut s, 0, A::Recover { status: None });
    assert_eq!((s.origins[0].hp, s.origins[0].ap), (12, 2));
    s.origins[0].track.apply_status(St::Burning, 1);
    ok(&mut s, 0, A::Recover { status: Some(St::Burning) });
    assert!(!s.origins[0].track.has(St::Burning), "slid off from slot 1");
    rejected(&mut s, 0, A::Recover { status: None }, "not_enough_ap");
}

// D08: Taunt pulls an adjacent enemy for 1 AP; never an immovable one.
#[test]
fn d08_taunt() {
    let mut s = duel_then(&["ifan"], "darkhans_lackey", 28, |p| p.enemy_at(0, |e| e.space("t1")));
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, A::Taunt { enemy: id });
    assert_eq!((s.enemies[0].space, s.origins[0].ap), (ix(&s, "2"), 3), "1 AP, difficult terrain ignored");
    let mut s = duel_then(&["ifan"], "marsh_troll", 34, |p| p.enemy_at(0, |e| e.space("1")));
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    rejected(&mut s, 0, A::Taunt { enemy: id }, "immovable");
}

// D05, R229: a minion that can't get in range attacks no one and heals its level.
#[test]
fn d05_minion_out_of_range_heals() {
    let mut s = duel_then(&["ifan"], "undead_ranger", 20, |p| p.enemy_at(0, |e| e.space("3").status(St::Frozen, 2)));
    ok(&mut s, 0, A::StartTurn);
    let hp = s.origins[0].hp;
    end_turn(&mut s, 0);
    assert_eq!(s.enemies[0].hp, 22, "level 2: heals 2");
    assert_eq!(s.origins[0].hp, hp, "and attacks no one");
}

// R39, R221-R229: a minion's turn through the ruleset: targeting die, move, attack, slide.
#[test]
fn minion_turn_in_play() {
    let mut s = duel_then(&["ifan", "sebille"], "darkhans_lackey", 28, |p| p.enemy_at(0, |e| e.space("1")));
    let seat = waiting(&s)[0];
    ok(&mut s, seat, A::StartTurn);
    end_turn(&mut s, seat);
    let seat = waiting(&s)[0];
    ok(&mut s, seat, A::StartTurn);
    let ev = end_turn(&mut s, seat);
    let targeted = ev.iter().find_map(|e| match e {
        Ev::Targeted { enemy, target, face } => Some((*enemy, *target, *face)),
        _ => None,
    });
    let (_, target, face) = targeted.expect("the Lackey rolled the targeting die");
    assert!((1..=6).contains(&face));
    assert!(matches!(target, Who::Origin(_)));
    // Range 0, movement 2: from #1 to #2 is one step, so it reached its target and attacked.
    assert_eq!(s.enemies[0].space, ix(&s, "2"));
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(_), .. })));
    assert!(ev.iter().any(|e| matches!(e, Ev::TurnEnded { who: Who::Enemy(_) })));
}

// R224: downed and INVISIBLE Origins are never targeted.
#[test]
fn r224_invisible_and_downed_are_ignored() {
    let mut s = duel_then(&["ifan", "sebille"], "darkhans_lackey", 28, |p| {
        p.origin(1, |o| o.downed()).origin(0, |o| o.status(St::Invisible, 5))
    });
    ok(&mut s, 0, A::StartTurn);
    let ev = end_turn(&mut s, 0);
    assert!(!ev.iter().any(|e| matches!(e, Ev::Targeted { .. })));
    assert_eq!(s.enemies[0].hp, 28, "no target: heals its level, already at max");
}

// ---- Rest (R34-R37, D40) ----

#[test]
fn d40_rest_round() {
    let mut s = built(
        table("tutorial", &["ifan", "sebille"])
            .origin(1, |o| o.downed())
            .origin(0, |o| o.hp(10).status(St::Poisoned, 3).status(St::Haste, 3).space("3")),
    );
    ok(&mut s, 0, A::ChooseRound { explore: false });
    assert_eq!(waiting(&s), vec![0]);
    ok(&mut s, 0, A::Recover { status: None });
    assert!(s.origins[0].track.statuses().is_empty(), "every status, positive ones too");
    assert_eq!(s.origins[0].hp, 10 - 2 + 2, "POISONED's start-of-turn 2, then Recover heals 2");
    rejected(&mut s, 0, A::Recover { status: None }, "already_recovered");
    ok(&mut s, 0, A::Revive { to: 1, hp: 3 });
    assert_eq!((s.origins[1].hp, s.origins[1].downed, s.origins[0].ap), (3, false, 0), "anywhere, free");
    ok(
        &mut s,
        0,
        A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Skill("searing_daggers".into()),
            aim: Aim::Origin(0),
        },
    );
    ok(&mut s, 0, A::Accept);
    rejected(
        &mut s,
        0,
        A::Use { first_aura: None, include_self: None, card: CardUse::Skill("ricochet".into()), aim: Aim::Origin(0) },
        "card_used",
    );
    end_turn(&mut s, 0);
    assert_eq!(
        s.origins[0].track.find(&CardRef::Skill("searing_daggers".into())),
        Some(1),
        "slid at the end of the turn"
    );
}

// ---- Exits and the campaign (R177, R184, R194-R195, R60) ----

#[test]
fn r177_exit_and_campaign_carry_over() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    s.map.keys.insert(4); // the key on the cabin path (card 1's reward)
    s.gold = 3;
    s.origins[1].backpack.push("healing_potion".into());
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("5".into()) });
    ok(&mut s, 1, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 1, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "5".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)), "an exit opens the interlude");
    assert_eq!(waiting(&s), vec![0, 1], "no level-up here: the party closes it");
    let mut led = s.clone();
    led.options.leader = Some(0);
    assert_eq!(waiting(&led), vec![0], "with a leader set, only the leader");
    rejected(&mut led, 1, A::FinishInterlude, "not_leader");
    ok(&mut s, 0, A::FinishInterlude);
    assert_eq!(Divinity::status(&s), Status::Finished(Outcome::PartyWon));
    assert!(s.revealed.iter().any(|r| r.card == "1"), "E29: an exit resolved first ends it; the rest stay unresolved");
    let c = Divinity::campaign(&s, cat()).unwrap();
    assert_eq!((c.location.as_str(), c.level, c.gold, c.finished), ("shipwreck", 1, 3, false));
    assert!(c.origins[1].items.contains(&"healing_potion".to_string()));
    let v = Divinity::view(&s, Viewer::Seat(1));
    assert_eq!(v.campaign, Some(c.clone()));
    // The next match starts from it: same Origins and items, HP and Source refilled.
    let next = DivinityOptions { campaign: Some(c), party: vec![], ..DivinityOptions::default() };
    assert_eq!(Divinity::seats(&next), 2);
    let n = Divinity::start(&next, 3).unwrap();
    assert_eq!(n.location, "shipwreck");
    assert_eq!(n.gold, 3);
    assert!(n.origins[1].backpack.contains(&"healing_potion".to_string()));
    assert!(n.origins.iter().all(|o| o.hp == 24 && o.source == 1));
}

// ---- Bosses (R236-R242) ----

#[test]
fn r236_boss_setup_and_turns() {
    let mut s = start("temple", &["ifan", "sebille", "red_prince"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..3 {
        ok(&mut s, seat, A::Travel { to: Some("3".into()) });
    }
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    let b = &cat().bosses["the_warden"];
    let e = s.enemies.iter().find(|e| matches!(e.kind, EnemyKind::Boss { .. })).unwrap().clone();
    assert_eq!((e.hp, e.letter, e.fast), (b.hp[2], None, b.fast));
    let mut ids: Vec<String> = e.tactics.clone();
    ids.sort();
    let mut all: Vec<String> = b.tactics.iter().map(|t| t.id.clone()).collect();
    all.sort();
    assert_eq!(ids, all, "the whole tactics deck, shuffled");
    // Play a few rounds: the Boss never holds more than 8 AP and no tactic is lost.
    for _ in 0..4 {
        for seat in waiting(&s) {
            if s.in_combat() && waiting(&s).contains(&seat) {
                ok(&mut s, seat, A::StartTurn);
                end_turn(&mut s, seat);
            }
        }
        if let Some(e) = s.enemies.iter().find(|e| matches!(e.kind, EnemyKind::Boss { .. })) {
            assert!(e.ap <= 8);
            let on_track = e.track.slots.iter().flatten().count();
            assert_eq!(e.tactics.len() + on_track, b.tactics.len());
        }
    }
    // The view shows how many tactics are left, never their order.
    let v = serde_json::to_value(Divinity::view(&s, Viewer::Spectator)).unwrap();
    assert!(v.get("deck").is_none());
    assert!(!v.to_string().contains("\"tactics\":"));
}

// The view never shows the location deck's cards, only its size.
#[test]
fn view_hides_the_location_deck() {
    let s = start("shipwreck", &["ifan"]);
    let v = serde_json::to_string(&Divinity::view(&s, Viewer::Seat(0))).unwrap();
    for c in &cat().locations["shipwreck"].cards {
        assert!(!v.contains(&c.text), "card {} leaked", c.id);
    }
    assert!(v.contains("\"deck_size\":8"));
}

// ---- Interlude: levelling up and the Merchant (R66-R70, R187-R192) ----

/// Shipwreck until the optional exit 5b (level up) is found and taken.
fn to_interlude(party: &[&str], gold: u32, opts: impl Fn(&mut DivinityOptions)) -> impl Iterator<Item = DivinityState> {
    let mut o = options("shipwreck", party);
    opts(&mut o);
    let n = party.len() as Seat;
    (0..200u64).filter_map(move |seed| {
        let mut s = Divinity::start(&o, seed).unwrap();
        ok(&mut s, 0, A::ChooseRound { explore: true });
        for seat in 0..n {
            ok(&mut s, seat, A::Travel { to: Some("5".into()) });
        }
        ok(&mut s, 0, A::Reveal);
        if s.revealed[0].card != "5b" {
            return None;
        }
        s.gold = gold;
        ok(&mut s, 0, A::Resolve { card: "5b".into() });
        Some(s)
    })
}

// E06: Sebille levels from 1 to 2: card flipped, a talent, Pin Down, Tentacle Lash swapped for Ricochet.
#[test]
fn e06_sebille_levels_up() {
    let mut s = to_interlude(&["sebille"], 0, |_| {}).next().unwrap();
    assert!(matches!(&s.phase, Phase::Interlude(i) if i.level_up));
    assert_eq!((s.level, s.origins[0].level), (2, 2), "all Origins level up together");
    assert_eq!(waiting(&s), vec![0]);
    let up = |talent: Option<&str>, learn: &str, respec: Vec<(&str, &str)>| A::LevelUp {
        talent: talent.map(String::from),
        learn: learn.into(),
        respec: respec.into_iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(),
    };
    rejected(&mut s, 0, up(None, "pin_down", vec![]), "talent_needed");
    rejected(&mut s, 0, up(Some("opportunist"), "pin_down", vec![]), "talent_level");
    rejected(&mut s, 0, up(Some("arrow_recovery"), "fireball", vec![]), "skill_set");
    rejected(&mut s, 0, up(Some("arrow_recovery"), "poison_dart", vec![]), "known_skill");
    rejected(&mut s, 0, A::FinishInterlude, "level_up_pending");
    ok(&mut s, 0, up(Some("arrow_recovery"), "pin_down", vec![("tentacle_lash", "ricochet")]));
    let o = &s.origins[0];
    assert_eq!(o.talents, vec!["leech".to_string(), "arrow_recovery".into()]);
    assert!(o.skills.contains(&"pin_down".to_string()) && o.skills.contains(&"ricochet".to_string()));
    assert!(!o.skills.contains(&"tentacle_lash".to_string()));
    assert_eq!(o.skills.len(), 5, "one skill more, none twice");
    assert_eq!(cat().origins["sebille"].at(2).unwrap().hp, 28, "her level-2 card");
    ok(&mut s, 0, A::FinishInterlude);
    let c = Divinity::campaign(&s, cat()).unwrap();
    assert_eq!((c.level, c.location.as_str()), (2, "fort_joy"));
    let next = Divinity::start(&DivinityOptions { campaign: Some(c), ..DivinityOptions::default() }, 1).unwrap();
    assert_eq!((next.origins[0].level, next.origins[0].hp), (2, 28));
}

// D48: Unrestricted Talents lifts the level limit of talents, not of skills.
#[test]
fn d48_unrestricted_talents() {
    let mut s = to_interlude(&["sebille"], 0, |o| o.unrestricted_talents = true).next().unwrap();
    let bad_skill = A::LevelUp { talent: Some("opportunist".into()), learn: "fireball".into(), respec: vec![] };
    rejected(&mut s, 0, bad_skill, "skill_set");
    ok(&mut s, 0, A::LevelUp { talent: Some("opportunist".into()), learn: "pin_down".into(), respec: vec![] });
}

// E07, E08: which skill sets an Origin may hold (L529, L575-583).
#[test]
fn e07_e08_skill_sets() {
    let l1 = ["ricochet", "tracking", "searing_daggers", "phoenix_dive"].map(String::from).to_vec();
    let with = |extra: &[&str]| [l1.clone(), extra.iter().map(|s| s.to_string()).collect()].concat();
    let training = vec!["pyrokinetic_training".to_string()];
    assert!(valid_skills(cat(), 3, &with(&["pin_down", "fireball"]), &training).is_ok());
    refused(
        valid_skills(cat(), 3, &with(&["pin_down", "fireball"]), &[]),
        "needs the Pyrokinetic training",
        "no training",
    );
    let three_l1 = l1[..3].to_vec();
    let bad = [three_l1, ["pin_down", "hail_strike", "fireball"].map(String::from).to_vec()].concat();
    refused(valid_skills(cat(), 3, &bad, &training), "3 skills of level 2 or more", "too many of level 2 or more");
    let seven = with(&["pin_down", "fireball", "rain"]);
    refused(valid_skills(cat(), 3, &seven, &training), "holds 6 skills, not 7", "7 skills");
    // E08: Fireball needs level 3 and the training.
    refused(
        valid_skills(cat(), 2, &with(&["fireball"]), &training),
        "fireball is level 3, above level 2",
        "at level 2",
    );
    let untrained = valid_skills(cat(), 3, &with(&["fireball", "pin_down"]), &[]);
    refused(untrained, "fireball is advanced: it needs the Pyrokinetic training", "without the training");
    assert!(valid_skills(cat(), 1, &l1, &[]).is_ok());
    let mut source = l1[..3].to_vec();
    source.push("ifan_source".into());
    refused(valid_skills(cat(), 1, &source, &[]), "Source skills are not learned", "no Source skill in the set (L569)");
}

// E30: the Merchant example: 9 gold, level 2, three Origins, ending with 0 gold.
#[test]
fn e30_merchant() {
    let party = ["ifan", "sebille", "red_prince"];
    let mut s = to_interlude(&party, 9, |_| {})
        .find_map(|mut s| {
            // Sell before paying is refused (L1357); a level-3 deck too (L1354).
            rejected(&mut s, 2, A::Sell { item: "long_sword".into() }, "merchant_closed");
            rejected(&mut s, 0, A::VisitMerchant { level: 3, consumables: None }, "deck_level");
            ok(&mut s, 0, A::VisitMerchant { level: 2, consumables: Some(ConsumableDeck::Potions) });
            let Phase::Interlude(i) = &s.phase else { unreachable!() };
            (i.offer.contains(&"fire_staff".to_string())).then_some(s)
        })
        .expect("some seed shows the Fire Staff");
    assert_eq!(s.gold, 7);
    let Phase::Interlude(i) = &s.phase else { unreachable!() };
    let equipment = i.offer.iter().filter(|x| cat().items[*x].level == 2).count();
    let potions = i
        .offer
        .iter()
        .filter(|x| {
            cat().items[*x].kind == athlas_engine::divinity::content::ItemKind::Consumable(ConsumableDeck::Potions)
        })
        .count();
    assert_eq!((equipment, potions), (4, 4), "1 per player + 1 of each");
    assert!(i.offer.iter().all(|x| !cat().items[x].unique));
    ok(&mut s, 2, A::Sell { item: "long_sword".into() });
    assert_eq!(s.gold, 8, "half of 2");
    ok(&mut s, 0, A::Buy { item: "fire_staff".into(), to: 2 });
    assert_eq!(s.gold, 4, "the Staff costs 4: '3 more gold' after the sale");
    ok(&mut s, 2, A::Equip { item: "fire_staff".into() });
    assert!(s.origins[2].equipped.contains(&"fire_staff".to_string()));
    assert!(s.origins[2].backpack.contains(&"wooden_shield".to_string()), "the shield makes room for two hands");
    ok(&mut s, 0, A::Restock { deck: MerchantDeck::Consumables(ConsumableDeck::Arrows) });
    assert_eq!(s.gold, 3);
    ok(&mut s, 0, A::Buy { item: "blessed_arrows".into(), to: 1 });
    assert_eq!(s.gold, 0, "no gold left");
    assert!(s.origins[1].backpack.contains(&"blessed_arrows".to_string()));
    rejected(&mut s, 0, A::Restock { deck: MerchantDeck::Equipment(1) }, "not_enough_gold");
    // The Merchant never buys runes.
    s.origins[0].backpack.push("flame_rune".into());
    rejected(&mut s, 0, A::Sell { item: "flame_rune".into() }, "unsellable");
    // Sale prices round up: the Assassin's Dagger (3) sells for 2.
    s.origins[0].backpack.push("assassins_dagger".into());
    ok(&mut s, 0, A::Sell { item: "assassins_dagger".into() });
    assert_eq!(s.gold, 2);
}

// D49: Honor Mode: a forced restart restarts the whole campaign with new Origins.
#[test]
fn d49_honor_mode() {
    let mut o = options("shipwreck", &["ifan"]);
    o.honor_mode = true;
    let mut s = Divinity::start(&o, 2).unwrap();
    s.gold = 4;
    s.origins[0].backpack.push("healing_potion".into());
    while !matches!(s.phase, Phase::Finished { .. }) {
        rest_round(&mut s);
    }
    let c = Divinity::campaign(&s, cat()).unwrap();
    assert_eq!((c.location.as_str(), c.level, c.gold), ("tutorial", 1, 0));
    assert_eq!(c.origins[0].items, cat().origins["ifan"].items);
    assert!(c.honor_mode);
}

// ---- More cards in play (E15, E19, E22, E23, E33, D15-D17, D25, D26, R179) ----

// E15: a 2-AP skill can't be played with 1 AP; used, it sits face down on slot 2 and is
// back in hand at the end of the next turn.
#[test]
fn e15_skill_cooldown_in_play() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 1;
    let id = s.enemies[0].id;
    let use_it = A::Use {
        first_aura: None,
        include_self: None,
        card: CardUse::Skill("searing_daggers".into()),
        aim: Aim::Enemy(id),
    };
    rejected(&mut s, 0, use_it.clone(), "not_enough_ap");
    s.origins[0].ap = 2;
    ok(&mut s, 0, use_it.clone());
    ok(&mut s, 0, A::Accept);
    let card = CardRef::Skill("searing_daggers".into());
    assert_eq!(s.origins[0].track.find(&card), Some(2));
    assert_eq!(s.origins[0].track.active().count(), 0, "face down");
    rejected(&mut s, 0, use_it, "not_in_hand");
    end_turn(&mut s, 0);
    assert_eq!(s.origins[0].track.find(&card), Some(1));
    s.enemies[0].hp = 28;
    ok(&mut s, 0, A::StartTurn);
    end_turn(&mut s, 0);
    assert!(s.origins[0].hand.contains(&"searing_daggers".to_string()));
}

// E19: Conjure Incarnate: the summon comes with the skill, its action is once per round,
// and it goes when the card flips face down on slot 2.
#[test]
fn e19_conjure_incarnate_in_play() {
    let mut s = duel(&["farzanah"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 8;
    let id = s.enemies[0].id;
    ok(
        &mut s,
        0,
        A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Skill("conjure_incarnate".into()),
            aim: Aim::Origin(0),
        },
    );
    assert_eq!(s.origins[0].summon.as_deref(), Some("incarnate"));
    assert!(s.keywords(cat(), 0).contains("SPIRITS"), "the summon's keywords count");
    let card = CardRef::Skill("conjure_incarnate".into());
    assert_eq!(s.origins[0].track.find(&card), Some(5));
    ok(&mut s, 0, A::Use { first_aura: None, include_self: None, card: CardUse::Summon, aim: Aim::Enemy(id) });
    ok(&mut s, 0, A::Accept);
    let again = A::Use { first_aura: None, include_self: None, card: CardUse::Summon, aim: Aim::Enemy(id) };
    rejected(&mut s, 0, again, "once_per_round");
    for slot in [4, 3, 2] {
        end_turn(&mut s, 0);
        assert_eq!(s.origins[0].track.find(&card), Some(slot));
        s.enemies[0].hp = 28;
        s.origins[0].hp = 20;
        ok(&mut s, 0, A::StartTurn);
    }
    assert_eq!(s.origins[0].summon, None, "discarded when the card flipped on slot 2");
}

// E23: the Physical Armor Potion: 1 AP, face up on slot 3, +2 physical armor while there.
#[test]
fn e23_potion_in_play() {
    let mut s =
        duel_then(&["ifan"], "darkhans_lackey", 28, |p| p.origin(0, |o| o.backpack(&["physical_armor_potion"])));
    let before = s.defence(cat(), Who::Origin(0)).physical_armor;
    ok(&mut s, 0, A::StartTurn);
    ok(
        &mut s,
        0,
        A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Consumable("physical_armor_potion".into()),
            aim: Aim::Origin(0),
        },
    );
    assert_eq!(s.origins[0].ap, 3);
    assert!(s.origins[0].backpack.is_empty());
    assert_eq!(s.origins[0].track.find(&CardRef::Consumable("physical_armor_potion".into())), Some(3));
    assert_eq!(s.defence(cat(), Who::Origin(0)).physical_armor, before + 2);
}

// E22: the Copper Band rerolls 1 die after a physical attack, once per Combat round.
#[test]
fn e22_copper_band() {
    let mut s = duel(&["red_prince"], "darkhans_lackey", 28);
    s.origins[0].equipped.push("copper_band".into());
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    let sword =
        A::Use { first_aura: None, include_self: None, card: CardUse::Item("long_sword".into()), aim: Aim::Enemy(id) };
    ok(&mut s, 0, sword.clone());
    rejected(&mut s, 0, A::Reroll { dice: vec![0, 1], source: false }, "no_reroll");
    ok(&mut s, 0, A::Reroll { dice: vec![0], source: false });
    rejected(&mut s, 0, A::Reroll { dice: vec![1], source: false }, "no_reroll");
    ok(&mut s, 0, A::Accept);
    s.origins[0].ap = 2;
    ok(&mut s, 0, sword);
    rejected(&mut s, 0, A::Reroll { dice: vec![0], source: false }, "no_reroll");
    // same round
}

// E33: Poison Dart's own reroll needs the target in her space; a Source reroll is allowed
// with an intact collar and costs 1 Source.
#[test]
fn e33_poison_dart_in_play() {
    let mut s = duel(&["sebille"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(
        &mut s,
        0,
        A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Skill("poison_dart".into()),
            aim: Aim::Enemy(id),
        },
    );
    set_dice(&mut s, vec![die(Colour::White, 0, false); 3].into_iter().chain([die(Colour::White, 1, false)]).collect());
    ok(&mut s, 0, A::Reroll { dice: vec![0], source: false });
    rejected(&mut s, 0, A::Reroll { dice: vec![1], source: false }, "no_reroll"); // once
    ok(&mut s, 0, A::Reroll { dice: vec![0, 1, 2], source: true });
    assert_eq!(s.origins[0].source, 0);
    ok(&mut s, 0, A::Accept);
    // Not in her space: no card reroll.
    s.origins[0].ap = 2;
    s.origins[0].hand.push("poison_dart".into());
    s.origins[0].track = Track::new(5);
    s.enemies[0].space = ix(&s, "1");
    ok(
        &mut s,
        0,
        A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Skill("poison_dart".into()),
            aim: Aim::Enemy(id),
        },
    );
    rejected(&mut s, 0, A::Reroll { dice: vec![0], source: false }, "no_reroll");
}

// D26: a Source skill needs a broken collar; then it costs Source and no AP.
#[test]
fn d26_source_skills() {
    let mut s = duel(&["sebille"], "darkhans_lackey", 28);
    s.origins[0].hand.push("sebille_source".into());
    s.origins[0].skills.push("sebille_source".into());
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    let src = A::Use {
        first_aura: None,
        include_self: None,
        card: CardUse::Skill("sebille_source".into()),
        aim: Aim::Enemy(id),
    };
    rejected(&mut s, 0, src.clone(), "collar_intact");
    s.origins[0].collar_broken = true;
    s.origins[0].ap = 0;
    ok(&mut s, 0, src);
    assert_eq!((s.origins[0].source, s.origins[0].ap), (0, 0));
}

// D25: a consumable played for its keyword is discarded at once, nothing else happens.
#[test]
fn d25_consumable_keyword() {
    let mut s = built(table("tutorial", &["sebille"]).origin(0, |o| o.backpack(&["teleport_scroll"])));
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    let auto = ("TELEPORTATION".to_string(), KeywordFrom::Consumable("teleport_scroll".into()));
    ok(&mut s, 0, A::Challenge { auto: Some(auto), keywords: vec![] });
    ok(&mut s, 0, A::ChooseResult { row: 1 });
    assert!(s.origins[0].backpack.is_empty());
    assert!(s.origins[0].track.is_empty());
    assert!(s.map.keys.contains(&4));
}

// D15 + E28 variant: with 5 trays in use only the first Lackey of the row fits.
#[test]
fn d15_minion_limit() {
    let mut s = start("shipwreck", &["ifan", "sebille", "red_prince"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..3 {
        ok(&mut s, seat, A::Travel { to: Some("3".into()) });
    }
    // Five trays in use when the card is revealed.
    let far = ix(&s, "5");
    for (i, l) in ['A', 'B', 'C', 'D', 'E'].into_iter().enumerate() {
        s.enemies.push(athlas_engine::divinity::state::Enemy {
            id: 100 + i as u32,
            letter: Some(l),
            kind: EnemyKind::Minion { card: "crocodile".into(), veteran: false },
            hp: 20,
            max_hp: 20,
            space: far,
            fast: false,
            track: Track::new(MINION_TRACK),
            ap: 0,
            tactics: vec![],
        });
    }
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    let lackeys: Vec<_> = s
        .enemies
        .iter()
        .filter(|e| matches!(&e.kind, EnemyKind::Minion { card, .. } if card == "darkhans_lackey"))
        .collect();
    assert_eq!(lackeys.len(), 1);
    assert_eq!(lackeys[0].letter, Some('F'));
    assert!(lackeys[0].fast, "the row's first minion (FAST) spawned");
}

// D16 + D17: two spawning cards make one combat; both victories resolve; an Origin that had
// no turn resolves its start-of-turn effects and slides.
#[test]
fn d16_d17_combined_combat() {
    let mut s = start("shipwreck", &["ifan", "red_prince"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("3".into()) });
    ok(&mut s, 1, A::Travel { to: Some("2".into()) });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 1, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    ok(&mut s, 0, A::Resolve { card: "2".into() });
    pass(&mut s);
    assert_eq!(s.combat_stack, vec!["3".to_string(), "2".to_string()]);
    // Everyone into the Beach, every enemy at 1 HP, the Red Prince stomps them all.
    let beach = ix(&s, "2");
    for e in &mut s.enemies {
        e.space = beach;
        e.hp = 1;
    }
    for o in &mut s.origins {
        o.space = beach;
        o.hp = 20;
        o.downed = false;
    }
    s.origins[0].track.apply_status(St::Bleeding, 1);
    if let Phase::Combat { done, .. } = &mut s.phase {
        done.iter_mut().for_each(|d| *d = false);
    }
    let gold = s.gold;
    ok(&mut s, 1, A::StartTurn);
    ok(
        &mut s,
        1,
        A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Skill("battle_stomp".into()),
            aim: Aim::Space("2".into()),
        },
    );
    set_dice(&mut s, vec![die(Colour::Blue, 1, false), die(Colour::Blue, 1, false)]);
    let ev = ok(&mut s, 1, A::Accept);
    assert!(ev.contains(&Ev::CombatEnded { victory: true }));
    assert_eq!(s.gold, gold + 3 + 2, "both cards' victory gold");
    assert!(s.map.keys.contains(&4), "card 3's victory key");
    assert!(s.discard.contains(&"3".to_string()) && s.discard.contains(&"2".to_string()));
    // Ifan stood in the stomped space (2 + 1 hits - 1 armor = 2), then, having had no
    // turn, BLEEDING hurt him once (1) before sliding off.
    assert_eq!(s.origins[0].hp, 20 - 2 - 1);
    assert!(!s.origins[0].track.has(St::Bleeding), "and slid off");
}

// R179, D54: an optional exit may wait in the holding area and be taken later.
#[test]
fn r179_optional_exit_from_the_holding_area() {
    let o = options("shipwreck", &["ifan"]);
    let mut s = (0..200u64)
        .find_map(|seed| {
            let mut s = Divinity::start(&o, seed).unwrap();
            ok(&mut s, 0, A::ChooseRound { explore: true });
            ok(&mut s, 0, A::Travel { to: Some("5".into()) });
            ok(&mut s, 0, A::Reveal);
            (s.revealed[0].card == "5b").then_some(s)
        })
        .unwrap();
    ok(&mut s, 0, A::Hold { card: "5b".into() });
    assert_eq!(s.holding, vec!["5b".to_string()]);
    assert!(!matches!(s.phase, Phase::Interlude(_)));
    // Later, from anywhere, a group takes it instead of exploring.
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("1".into()) });
    ok(&mut s, 0, A::TakeHolding { card: "5b".into() });
    ok(&mut s, 0, A::Resolve { card: "5b".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)));
}

// E24: a rune: the trinket side adds 1 to every heal; the hand side changes the weapon's
// damage type; it never goes on a chest item; it follows a replaced weapon, and comes off
// into the backpack when the weapon is stored.
#[test]
fn e24_runes() {
    let mut s = start("tutorial", &["ifan"]);
    s.origins[0].equipped.push("copper_band".into());
    s.origins[0].backpack.push("flame_rune".into());
    s.origins[0].hp = 10;
    // Attached before the first round (free, L939): in a Rest turn the
    // rune (step d) would come after Recover (step b, L355-359).
    let chest = A::AttachRune { rune: "flame_rune".into(), item: "leather_armor".into() };
    rejected(&mut s, 0, chest, "rune_does_not_fit");
    ok(&mut s, 0, A::AttachRune { rune: "flame_rune".into(), item: "copper_band".into() });
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Recover { status: None });
    assert_eq!(s.origins[0].hp, 13, "Recover's 2, +1 from the rune");

    // The hand side: the Long Sword deals fire, which a Fire Slug ignores.
    let hit = |with_rune: bool| {
        let mut s = duel(&["red_prince"], "fire_slug", 20);
        if with_rune {
            s.origins[0].backpack.push("flame_rune".into());
        }
        ok(&mut s, 0, A::StartTurn);
        if with_rune {
            ok(&mut s, 0, A::AttachRune { rune: "flame_rune".into(), item: "long_sword".into() });
            s.origins[0].ap = 4;
        }
        let id = s.enemies[0].id;
        ok(
            &mut s,
            0,
            A::Use {
                first_aura: None,
                include_self: None,
                card: CardUse::Item("long_sword".into()),
                aim: Aim::Enemy(id),
            },
        );
        set_dice(&mut s, vec![die(Colour::Red, 2, false), die(Colour::Red, 2, false)]);
        ok(&mut s, 0, A::Accept);
        (s.enemy(id).unwrap().hp, s)
    };
    assert_eq!(hit(false).0, 20 - 4, "physical: 4 hits, no physical armor");
    let (hp, mut s) = hit(true);
    assert_eq!(hp, 20, "fire: the slug is immune");
    // Replacing the sword moves the rune onto the new one-hand weapon for free.
    s.origins[0].backpack.push("rusty_dagger".into());
    s.origins[0].ap = 2;
    ok(&mut s, 0, A::Equip { item: "rusty_dagger".into() });
    assert_eq!(s.origins[0].runes[0].item, "rusty_dagger");
    assert_eq!(s.origins[0].ap, 1, "one equip, the rune rides along");
    ok(&mut s, 0, A::Store { item: "rusty_dagger".into() });
    assert!(s.origins[0].runes.is_empty());
    assert!(s.origins[0].backpack.contains(&"flame_rune".to_string()));
}

// E16: a skill that attacks twice with the equipped one-hand melee weapon: the weapon's
// dice, ★ on each roll, the skill's 2 AP and not the weapon's.
#[test]
fn e16_weapon_skill() {
    let mut s = duel(&["sebille"], "fire_slug", 20);
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(
        &mut s,
        0,
        A::Use { first_aura: None, include_self: None, card: CardUse::Skill("flurry".into()), aim: Aim::Enemy(id) },
    );
    assert_eq!(s.origins[0].ap, 2, "2 AP for the skill, nothing for the dagger");
    assert_eq!(s.pending_roll().unwrap().roll.dice.len(), 2, "the dagger's 2 white dice");
    for _ in 0..2 {
        set_dice(&mut s, vec![die(Colour::White, 0, false); 2]);
        ok(&mut s, 0, A::Accept);
    }
    assert!(s.pending_roll().is_none(), "exactly two rolls");
    assert_eq!(s.enemies[0].hp, 18, "each miss still adds ★ 1");
    // No one-hand melee weapon, no Flurry.
    let mut s = duel(&["ifan"], "fire_slug", 20);
    s.origins[0].hand.push("flurry".into());
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    rejected(
        &mut s,
        0,
        A::Use { first_aura: None, include_self: None, card: CardUse::Skill("flurry".into()), aim: Aim::Enemy(id) },
        "needs_weapon",
    );
}

// E18: two auras in the attacker's space: the attacker picks which resolves first, and the
// physical attack takes that aura's type.
#[test]
fn e18_stacking_auras() {
    use athlas_engine::divinity::cooldown::TrackCard;
    use athlas_engine::divinity::damage::DamageType;
    use athlas_engine::divinity::state::Purpose;
    let attack_type = |first: Option<&str>| {
        let mut s = duel(&["ifan", "sebille"], "fire_slug", 20);
        for (seat, aura) in [(0usize, "lightning_aura"), (1, "frost_aura")] {
            let c = TrackCard { card: CardRef::Skill(aura.into()), face_up: true, flip_at: Some(1) };
            s.origins[seat].track.place(c, 3);
        }
        let seat = waiting(&s)[0];
        if seat != 0 {
            ok(&mut s, seat, A::StartTurn);
            end_turn(&mut s, seat);
        }
        ok(&mut s, 0, A::StartTurn);
        let id = s.enemies[0].id;
        let first_aura = first.map(String::from);
        ok(
            &mut s,
            0,
            A::Use { first_aura, include_self: None, card: CardUse::Item("short_bow".into()), aim: Aim::Enemy(id) },
        );
        match &s.pending_roll().unwrap().purpose {
            Purpose::Attack { attack, .. } => attack.damage_type().unwrap(),
            Purpose::Challenge => unreachable!(),
        }
    };
    assert_eq!(attack_type(Some("lightning_aura")), DamageType::Air);
    assert_eq!(attack_type(Some("frost_aura")), DamageType::Water);
    assert_eq!(attack_type(None), DamageType::Air, "by default his own aura first");
}

// D42, R61: any Origin may spend 1 Source to reroll an enemy's dice; the roll waits until
// every Origin with Source lets it stand, and a reroll reopens the others' say.
#[test]
fn d42_source_reroll_of_an_enemy_roll() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&s)[0];
    ok(&mut s, seat, A::StartTurn);
    ok(&mut s, seat, A::EndTurn);
    let other = 1 - seat;
    ok(&mut s, other, A::StartTurn);
    ok(&mut s, other, A::EndTurn);
    // Both stand in the Galley with equal armor: the party picks the target first.
    if s.tie().is_some() {
        ok(&mut s, 0, A::BreakTie { target: Aim::Origin(0) });
    }
    // The SLOW Lackey has rolled; both Origins have 1 Source.
    let r = s.enemy_roll().cloned().expect("the Lackey's roll waits");
    assert_eq!(waiting(&s), vec![0, 1]);
    let hp: Vec<u32> = s.origins.iter().map(|o| o.hp).collect();
    ok(&mut s, 0, A::Accept);
    assert_eq!(waiting(&s), vec![1]);
    rejected(&mut s, 1, A::Reroll { dice: vec![0], source: false }, "no_reroll");
    ok(&mut s, 1, A::Reroll { dice: vec![0, 1, 2], source: true });
    assert_eq!(s.origins[1].source, 0);
    assert_ne!(s.enemy_roll().unwrap().roll, r.roll, "rerolled (or the same faces by chance)");
    assert_eq!(waiting(&s), vec![0], "seat 0 may answer the new roll; seat 1 has no Source left");
    rejected(&mut s, 0, A::StartTurn, "roll_pending");
    assert_eq!(Divinity::timeout_action(&s), Some((0, A::Accept)), "a timer lets it stand");
    let ev = ok(&mut s, 0, A::Accept);
    assert!(s.enemy_roll().is_none());
    assert!(ev.iter().any(|e| matches!(e, Ev::Damaged { who: Who::Origin(_), .. })));
    assert!(s.origins.iter().zip(&hp).any(|(o, h)| o.hp < *h), "the roll landed");

    // With the window off, enemy rolls land at once.
    let mut s = built(tutorial_combat_at(&["ifan"]).rerolls(false));
    ok(&mut s, 0, A::StartTurn);
    let hp = s.origins[0].hp;
    ok(&mut s, 0, A::EndTurn);
    assert!(s.enemy_roll().is_none());
    assert!(s.origins[0].hp < hp);
}

// D37, R232: a DOMINATED minion rolls no targeting die; the party picks its target, here
// another enemy, and it goes for it.
#[test]
fn d37_dominated_minion() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    let lackey = s.enemies[0].id;
    // A Fire Slug (no physical armor) next to it, and the Lackey dominated.
    let mut croc = s.enemies[0].clone();
    croc.id = 99;
    croc.letter = Some('B');
    croc.kind = EnemyKind::Minion { card: "fire_slug".into(), veteran: false };
    croc.hp = 20;
    croc.max_hp = 20;
    croc.space = ix(&s, "1");
    croc.fast = true;
    s.enemies.push(croc);
    s.enemies[0].track.apply_status(St::Dominated, 3);
    s.origins[0].source = 0; // no reroll windows in this test
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.dominated_turn(), Some(lackey));
    assert!(!ev.iter().any(|e| matches!(e, Ev::Targeted { enemy, .. } if *enemy == lackey)), "no targeting die");
    assert_eq!(waiting(&s), vec![0]);
    rejected(&mut s, 0, A::Command { target: Aim::Enemy(lackey) }, "bad_target");
    let ev = ok(&mut s, 0, A::Command { target: Aim::Enemy(99) });
    assert!(ev.contains(&Ev::Targeted { enemy: lackey, target: Who::Enemy(99), face: 0 }));
    assert_eq!(s.enemies.iter().find(|e| e.id == lackey).unwrap().space, ix(&s, "1"), "it went for the Slug");
    assert!(
        ev.iter().any(|e| matches!(e, Ev::Damaged { who: Who::Enemy(99), .. })),
        "and attacked it: 2 bonus hits at least, no armor"
    );
    assert!(s.dominated_turn().is_none());
}

// R238, R241: special tactics do what they say (heal and clear statuses, spawn minions);
// an ongoing tactic goes face up and works until it flips.
#[test]
fn r241_special_and_ongoing_tactics() {
    let mut s = built(Position::combat("temple", &["ifan"]).reveal("3").table_options().rerolls(false));
    let id = s.enemies[0].id;
    let armor = s.defence(cat(), Who::Enemy(id));
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_ward".into(), "w_mend".into(), "w_summon".into(), "w_strike".into()];
        e.ap = 1; // + 4 this turn = 5: ward (1), mend (2), summon (2)
        e.hp = 30;
        e.track.apply_status(St::Burning, 2);
    }
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    let e = s.enemy(id).unwrap();
    let d = s.defence(cat(), Who::Enemy(id));
    assert_eq!(
        (d.physical_armor, d.magical_armor),
        (armor.physical_armor + 2, armor.magical_armor + 2),
        "ward face up"
    );
    assert!(!e.track.has(St::Burning), "mend cleared its statuses");
    assert_eq!(e.hp, 35, "and healed 5");
    assert!(s
        .enemies
        .iter()
        .any(|m| matches!(&m.kind, EnemyKind::Minion { card, .. } if card == "shambling_skeleton")));
    assert_eq!(e.ap, 0);
    assert_eq!(e.tactics, vec!["w_strike".to_string()], "strike waits for next turn");
}

// R72, R76: a once-per-location talent costs 0 AP, flips face down, and is face up again at
// the next location; an ongoing talent's armor counts (R95).
#[test]
fn r72_r76_talents() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.origins[0].talents.push("all_skilled_up".into());
    s.origins[0].talents.push("thick_skin".into());
    let pa = s.defence(cat(), Who::Origin(0)).physical_armor;
    s.origins[0].talents.pop();
    assert_eq!(s.defence(cat(), Who::Origin(0)).physical_armor + 1, pa, "Thick Skin: +1 physical armor");
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 0;
    ok(&mut s, 0, A::UseTalent { talent: "all_skilled_up".into() });
    assert_eq!(s.origins[0].ap, 2, "usable at 0 AP");
    rejected(&mut s, 0, A::UseTalent { talent: "all_skilled_up".into() }, "talent_used");
    rejected(&mut s, 0, A::UseTalent { talent: "pet_pal".into() }, "ongoing_talent");
    // A new location: face up again.
    let mut t = start("tutorial", &["ifan"]);
    t.origins[0].talents.push("all_skilled_up".into());
    t.map.keys.insert(4);
    ok(&mut t, 0, A::ChooseRound { explore: true });
    ok(&mut t, 0, A::Travel { to: Some("5".into()) });
    ok(&mut t, 0, A::Reveal);
    ok(&mut t, 0, A::Resolve { card: "5".into() });
    t.origins[0].talents_used.push("all_skilled_up".into());
    ok(&mut t, 0, A::FinishInterlude);
    let c = Divinity::campaign(&t, cat()).unwrap();
    let next = Divinity::start(&DivinityOptions { campaign: Some(c), ..DivinityOptions::default() }, 1).unwrap();
    assert!(next.origins[0].talents_used.is_empty());
    assert!(next.origins[0].talents.contains(&"all_skilled_up".to_string()));
}

// E35 in play: an area attack on your own space hits everyone else; you are hit only if you opt in.
#[test]
fn e35_area_attack_and_yourself() {
    let stomp = |include_self: Option<bool>| {
        let mut s = duel_then(&["red_prince", "ifan"], "fire_slug", 20, |p| p.rerolls(false));
        let seat = waiting(&s)[0];
        if seat != 0 {
            end_turn(&mut s, seat);
            ok(&mut s, 1, A::StartTurn);
            end_turn(&mut s, 1);
        }
        for o in &mut s.origins {
            o.hp = 20;
        }
        ok(&mut s, 0, A::StartTurn);
        let card = CardUse::Skill("battle_stomp".into());
        ok(&mut s, 0, A::Use { first_aura: None, include_self, card, aim: Aim::Space("2".into()) });
        set_dice(&mut s, vec![die(Colour::Blue, 1, false), die(Colour::Blue, 1, false)]);
        ok(&mut s, 0, A::Accept);
        (s.origins[0].hp, s.origins[1].hp, s.enemies[0].hp)
    };
    // 2 hits + 1 bonus = 3: the slug (no physical armor) loses 3, Ifan (1 armor) 2.
    assert_eq!(stomp(None), (20, 18, 17));
    assert_eq!(stomp(Some(true)), (18, 18, 17), "the Red Prince opted in (1 armor)");
}

// R125, D18: the whole party downed by a location card while exploring restarts the
// location: gold is lost, items kept.
#[test]
fn d18_party_downed_while_exploring() {
    let mut s = built(table("tutorial", &["ifan"]).origin(0, |o| o.hp(2)).gold(4));
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    let n = s.pending_roll().unwrap().roll.dice.len();
    set_dice(&mut s, vec![die(Colour::White, 0, false); n]);
    ok(&mut s, 0, A::Accept);
    assert_eq!(s.phase, Phase::Finished { result: Finish::Restart }, "0 hits: 2 direct damage downs him");
    let c = Divinity::campaign(&s, cat()).unwrap();
    assert_eq!((c.location.as_str(), c.gold), ("tutorial", 0));
    assert_eq!(c.origins[0].items, cat().origins["ifan"].items);
}

// R36 (d): in a Rest round items change hands for free, across the map.
#[test]
fn r36_rest_trading_anywhere() {
    let mut s = built(table("tutorial", &["ifan", "sebille"]).origin(1, |o| o.space("3")));
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Give { item: "leather_armor".into(), to: 1, equip: false });
    assert!(s.origins[1].backpack.contains(&"leather_armor".to_string()));
    ok(&mut s, 1, A::Store { item: "leather_armor".into() });
    assert_eq!(s.origins[1].backpack.len(), 2);
    assert_eq!((s.origins[0].ap, s.origins[1].ap), (0, 0));
    // In combat it costs 1 AP and needs the same space (D23).
    let mut c = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&c)[0];
    let other = 1 - seat;
    c.origins[other as usize].space = ix(&c, "1");
    ok(&mut c, seat, A::StartTurn);
    let item = c.origins[seat as usize].equipped[0].clone();
    rejected(&mut c, seat, A::Give { item: item.clone(), to: other, equip: false }, "too_far");
    c.origins[other as usize].space = c.origins[seat as usize].space;
    let ap = c.origins[seat as usize].ap;
    ok(&mut c, seat, A::Give { item, to: other, equip: false });
    assert_eq!(c.origins[seat as usize].ap, ap - 1);
}

// R63-R65, R90: a broken collar unlocks the Origin's Source skills, and the side is kept
// with the campaign.
#[test]
fn r65_collar_breaks_and_is_kept() {
    let mut s = start("hollow_marshes", &["fane"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("3".into()) });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    assert!(s.origins[0].collar_broken);
    assert!(s.origins[0].hand.contains(&"fane_source".to_string()));
    assert_eq!(s.journal, vec![3]);
    // A saved campaign with a broken collar starts with the Source skills in hand.
    let c = athlas_engine::divinity::CampaignState {
        rules_version: 1,
        location: "temple".into(),
        level: 4,
        gold: 0,
        journal: vec![],
        origins: vec![athlas_engine::divinity::state::OriginSave {
            origin: "fane".into(),
            talents: vec!["necromancer_training".into()],
            skills: cat().origins["fane"].skills.clone(),
            items: vec![],
            collar_broken: true,
            runes: vec![],
        }],
        found: vec![],
        finished: false,
        unrestricted_talents: false,
        honor_mode: false,
    };
    let n = Divinity::start(&DivinityOptions { campaign: Some(c), ..DivinityOptions::default() }, 1).unwrap();
    assert!(n.origins[0].collar_broken && n.origins[0].hand.contains(&"fane_source".to_string()));
    assert_eq!(n.origins[0].source, 2, "level-4 card: max Source 2, refilled");
}

// D36, R53: a paused tracker does not advance and no event triggers, until resumed.
#[test]
fn d36_paused_time() {
    use athlas_engine::divinity::content::CardEffect;
    let mut c = cat().clone();
    let l = c.locations.get_mut("tutorial").unwrap();
    let card = l.cards.iter_mut().find(|k| k.id == "1").unwrap();
    card.challenge = None;
    card.effects = vec![CardEffect::PauseTime];
    let card = l.cards.iter_mut().find(|k| k.id == "3a").unwrap();
    card.effects = vec![CardEffect::ResumeTime];
    let l = c.locations.get_mut("tutorial").unwrap();
    l.map.spaces.iter_mut().find(|sp| sp.id == "3").unwrap().multicard = false;
    c.validate().unwrap();
    let act = |s: &mut DivinityState, seat: Seat, a: A| Divinity::apply_with(&c, s, seat, a).unwrap();
    let mut s = Divinity::start_with(&c, &options("tutorial", &["ifan"]), 1).unwrap();
    act(&mut s, 0, A::ChooseRound { explore: true });
    act(&mut s, 0, A::Travel { to: None });
    act(&mut s, 0, A::Reveal);
    act(&mut s, 0, A::Resolve { card: "1".into() });
    assert!(s.time_paused);
    assert_eq!(s.time, Some(1), "the round that paused it did not advance it");
    for _ in 0..6 {
        act(&mut s, 0, A::ChooseRound { explore: false });
        act(&mut s, 0, A::EndTurn);
    }
    assert_eq!(s.time, Some(1));
    assert!(s.deck.contains(&"A".to_string()), "no event while paused");
    act(&mut s, 0, A::ChooseRound { explore: true });
    act(&mut s, 0, A::Travel { to: Some("3".into()) });
    act(&mut s, 0, A::Reveal);
    act(&mut s, 0, A::Resolve { card: "3a".into() });
    assert!(!s.time_paused);
    assert_eq!(s.time, Some(2), "resumed: it advances again");
}

// D34, R240: with every Origin INVISIBLE the Boss' attack tactic does nothing: its AP comes
// back, the tactic goes on cooldown, and the turn ends with the AP saved.
#[test]
fn d34_boss_with_no_target() {
    let mut s = built(Position::combat("temple", &["ifan"]).reveal("3").table_options().rerolls(false));
    let id = s.enemies[0].id;
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_strike".into(), "w_mend".into(), "w_sweep".into()];
        e.ap = 0;
    }
    s.origins[0].track.apply_status(St::Invisible, 5);
    let hp = s.origins[0].hp;
    ok(&mut s, 0, A::StartTurn);
    end_turn(&mut s, 0);
    let e = s.enemy(id).unwrap();
    assert_eq!(e.ap, 4, "the strike's 2 AP came back and the turn ended: 4 saved");
    assert_eq!(e.tactics, vec!["w_mend".to_string(), "w_sweep".to_string()], "mend was not played");
    assert_eq!(e.track.find(&CardRef::Tactic("w_strike".into())), Some(1), "strike on cooldown (2, slid to 1)");
    assert_eq!(s.origins[0].hp, hp);
}

// R242, R184: defeating the Boss wins the combat; its card's victory exits to the finale and
// the campaign is over.
#[test]
fn r242_boss_defeat_ends_the_campaign() {
    let mut s = built(Position::combat("temple", &["red_prince"]).reveal("3").table_options().rerolls(false));
    let id = s.enemies[0].id;
    s.enemy_mut(id).unwrap().hp = 1;
    s.origins[0].hp = 30;
    ok(&mut s, 0, A::StartTurn);
    ok(
        &mut s,
        0,
        A::Use { first_aura: None, include_self: None, card: CardUse::Item("long_sword".into()), aim: Aim::Enemy(id) },
    );
    set_dice(&mut s, vec![die(Colour::Red, 2, false), die(Colour::Red, 2, false)]);
    let ev = ok(&mut s, 0, A::Accept);
    assert!(ev.contains(&Ev::Defeated { enemy: id }));
    assert!(ev.contains(&Ev::CombatEnded { victory: true }));
    assert!(s.journal.contains(&4));
    assert!(matches!(&s.phase, Phase::Interlude(i) if i.to == "epilogue" && !i.level_up));
    ok(&mut s, 0, A::FinishInterlude);
    let c = Divinity::campaign(&s, cat()).unwrap();
    assert!(c.finished);
    let e = Divinity::start(&DivinityOptions { campaign: Some(c), ..DivinityOptions::default() }, 1).unwrap_err();
    assert!(e.message.contains("over"));
}

// R222 (L1623): when several Origins qualify equally the party picks the target.
#[test]
fn r222_party_breaks_ties() {
    // Ifan and Sebille share the Galley with 1 physical armor each: a tie under either face.
    let in_galley = |p: Position| p.each_origin(|o| o.hp(20).space("2").standing());
    let p = in_galley(tutorial_combat_at(&["ifan", "sebille"]).rerolls(false));
    let mut s = built(p.minion("darkhans_lackey", |e| e.space("1")));
    let lackey = s.enemies[0].id;
    let seat = waiting(&s)[0];
    ok(&mut s, seat, A::StartTurn);
    end_turn(&mut s, seat);
    ok(&mut s, 1 - seat, A::StartTurn);
    let ev = ok(&mut s, 1 - seat, A::EndTurn);
    assert!(ev.contains(&Ev::TieToBreak { enemy: lackey, options: vec![Who::Origin(0), Who::Origin(1)] }));
    assert_eq!(waiting(&s), vec![0, 1], "the party breaks the tie: any seat");
    rejected(&mut s, 0, A::StartTurn, "tie_pending");
    rejected(&mut s, 0, A::BreakTie { target: Aim::Enemy(lackey) }, "not_tied");
    let hp = s.origins[1].hp;
    let ev = ok(&mut s, 0, A::BreakTie { target: Aim::Origin(1) });
    assert!(ev.iter().any(|e| matches!(e, Ev::Targeted { target: Who::Origin(1), .. })));
    assert!(s.origins[1].hp < hp, "Sebille was attacked (2 bonus hits - 1 armor at least)");
    // With the option off, the lowest seat is taken at once.
    let mut s = built(in_galley(Position::combat("tutorial", &["ifan", "sebille"]).reveal("2")));
    let seat = waiting(&s)[0];
    ok(&mut s, seat, A::StartTurn);
    end_turn(&mut s, seat);
    ok(&mut s, 1 - seat, A::StartTurn);
    let ev = ok(&mut s, 1 - seat, A::EndTurn);
    assert!(s.tie().is_none());
    assert!(!ev.iter().any(|e| matches!(e, Ev::TieToBreak { .. })));
}

/// Two Origins in the brig (tutorial space 4) with full backpacks and a
/// trinket each, about to explore the placed brig card: it gives the unique
/// Magister's Collar Key (a trinket).
fn brig_with_full_packs() -> DivinityState {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    let brig = ix(&s, "4");
    for (o, trinket) in s.origins.iter_mut().zip(["lucky_charm", "copper_band"]) {
        o.space = brig;
        o.equipped.push(trinket.into());
        o.backpack = vec!["healing_potion".into(), "fire_grenade".into(), "blessed_arrows".into()];
    }
    s.phase = Phase::Resolve;
    s.revealed = vec![Revealed { card: "4".into(), seats: vec![0], space: brig, placed: true }];
    s
}

// R146 (L1056): an item nobody in the space has room for waits for the party's choice; the
// leader answers; nothing else happens first; dropping another item makes room.
#[test]
fn r146_no_room_party_drops_another_item() {
    let mut s = brig_with_full_packs();
    let ev = ok(&mut s, 0, A::Resolve { card: "4".into() });
    assert!(ev.contains(&Ev::NoRoom { item: "collar_key".into(), takers: vec![0, 1] }), "{ev:?}");
    assert!(s.origins.iter().all(|o| !o.equipped.iter().chain(&o.backpack).any(|i| i == "collar_key")));
    assert_eq!(waiting(&s), vec![0, 1], "any seat answers for the party");
    let mut led = s.clone();
    led.options.leader = Some(0);
    assert_eq!(waiting(&led), vec![0], "with a leader set, only the leader");
    rejected(&mut led, 1, A::PlaceItem { to: Some(1), drop: None, pass_to: None }, "not_leader");
    rejected(&mut s, 0, A::ChooseRound { explore: true }, "item_waiting");
    rejected(&mut s, 0, A::PlaceItem { to: Some(0), drop: None, pass_to: None }, "no_room");
    let keep = |d: &str| A::PlaceItem { to: Some(1), drop: Some(d.into()), pass_to: None };
    rejected(&mut s, 0, keep("long_sword"), "not_carried");
    // Trading is not allowed in an Explore round (L1047): the dropped item can't be passed on.
    let pass = A::PlaceItem { to: Some(1), drop: Some("copper_band".into()), pass_to: Some(0) };
    rejected(&mut s, 0, pass, "no_trading_now");
    // Sebille drops her Copper Band: the key takes its trinket slot.
    let ev = ok(&mut s, 0, keep("copper_band"));
    assert!(ev.contains(&Ev::ItemDiscarded { seat: 1, item: "copper_band".into() }));
    assert!(ev.contains(&Ev::ItemGained { seat: Some(1), item: "collar_key".into() }));
    assert!(s.origins[1].equipped.contains(&"collar_key".to_string()));
    assert!(!s.origins[1].equipped.contains(&"copper_band".to_string()));
    assert!(s.overflow.is_empty());
    assert_ne!(waiting(&s), Vec::<Seat>::new());
}

// R146 (L1056): or the new item itself is discarded; a specific reward is still found (L1336).
#[test]
fn r146_no_room_party_discards_the_new_item() {
    let mut s = brig_with_full_packs();
    ok(&mut s, 0, A::Resolve { card: "4".into() });
    let before: Vec<_> = s.origins.iter().map(|o| (o.equipped.clone(), o.backpack.clone())).collect();
    rejected(&mut s, 0, A::PlaceItem { to: None, drop: Some("healing_potion".into()), pass_to: None }, "bad_choice");
    let ev = ok(&mut s, 0, A::PlaceItem { to: None, drop: None, pass_to: None });
    assert!(ev.contains(&Ev::RewardDiscarded { item: "collar_key".into() }));
    let after: Vec<_> = s.origins.iter().map(|o| (o.equipped.clone(), o.backpack.clone())).collect();
    assert_eq!(before, after);
    assert!(s.found.iter().any(|f| f.ends_with(":collar_key")));
}

// R143 + R146 (L1039): only Origins in the finder's space may take an item found exploring:
// one elsewhere with room gets nothing and can't be named; one in the space with room takes it.
#[test]
fn r143_found_item_goes_to_someone_in_the_space() {
    let mut s = brig_with_full_packs();
    s.origins[1].backpack.clear();
    s.origins[1].space = ix(&s, "1");
    ok(&mut s, 0, A::Resolve { card: "4".into() });
    assert_eq!(s.overflow, vec![Overflow { item: "collar_key".into(), takers: vec![0] }]);
    let to_far = A::PlaceItem { to: Some(1), drop: None, pass_to: None };
    rejected(&mut s, 0, to_far, "not_a_taker");
    // Dropping a backpack item makes room in the backpack (the trinket slot is taken).
    ok(&mut s, 0, A::PlaceItem { to: Some(0), drop: Some("fire_grenade".into()), pass_to: None });
    assert!(s.origins[0].backpack.contains(&"collar_key".to_string()));
    assert!(!s.origins[0].backpack.contains(&"fire_grenade".to_string()));

    let mut s = brig_with_full_packs();
    s.origins[1].backpack.clear();
    let ev = ok(&mut s, 0, A::Resolve { card: "4".into() });
    assert!(ev.contains(&Ev::ItemGained { seat: Some(1), item: "collar_key".into() }));
    assert!(s.overflow.is_empty());
}

// R146 + R144 (L1050, L1056): where trading is free (a Rest round), the dropped item may go
// to another Origin who has room for it instead of the deck.
#[test]
fn r146_dropped_item_passed_on_in_a_rest_round() {
    let mut s = built(
        table("tutorial", &["ifan", "sebille"])
            .origin(0, |o| o.backpack(&["iron_helmet", "fire_grenade", "blessed_arrows"]))
            .origin(1, |o| o.space("3").backpack(&["healing_potion", "fire_arrows", "teleport_scroll"])),
    );
    ok(&mut s, 0, A::ChooseRound { explore: false });
    s.overflow = vec![Overflow { item: "curative_elixir".into(), takers: vec![0, 1] }];
    // Sebille has no room for a potion, but her head slot is free for the helmet.
    let no = A::PlaceItem { to: Some(0), drop: Some("fire_grenade".into()), pass_to: Some(1) };
    rejected(&mut s, 0, no, "bad_receiver");
    let ev = ok(&mut s, 0, A::PlaceItem { to: Some(0), drop: Some("iron_helmet".into()), pass_to: Some(1) });
    assert!(ev.contains(&Ev::ItemTraded { from: 0, to: 1, item: "iron_helmet".into() }));
    assert!(s.origins[1].equipped.contains(&"iron_helmet".to_string()));
    assert!(s.origins[0].backpack.contains(&"curative_elixir".to_string()));
    assert!(!ev.iter().any(|e| matches!(e, Ev::ItemDiscarded { .. })));
}

// R144 (L1047-1052, L1590): items may be taken as well as given; free anywhere in a Rest
// round, 1 AP and the same space in combat, never in an Explore round; a receiver with a
// full backpack may equip the item at once if it fits.
#[test]
fn r144_take_by_round_type() {
    let mut s = built(table("tutorial", &["ifan", "sebille"]).origin(1, |o| o.space("3")));
    ok(&mut s, 0, A::ChooseRound { explore: true });
    rejected(&mut s, 1, A::Take { item: "leather_armor".into(), from: 0, equip: false }, "not_combat");
    rejected(&mut s, 0, A::Give { item: "leather_armor".into(), to: 1, equip: false }, "not_combat");

    let mut s = built(
        table("tutorial", &["ifan", "sebille"])
            .origin(1, |o| o.space("3").backpack(&["healing_potion", "fire_arrows", "teleport_scroll"]))
            .origin(0, |o| o.backpack(&["iron_helmet", "fire_grenade"])),
    );
    ok(&mut s, 0, A::ChooseRound { explore: false });
    // A full backpack: a consumable can't be received, a helmet for the free head slot can.
    rejected(&mut s, 1, A::Take { item: "fire_grenade".into(), from: 0, equip: false }, "no_room");
    let ev = ok(&mut s, 1, A::Take { item: "iron_helmet".into(), from: 0, equip: false });
    assert!(ev.contains(&Ev::ItemTraded { from: 0, to: 1, item: "iron_helmet".into() }));
    assert!(s.origins[1].equipped.contains(&"iron_helmet".to_string()));
    rejected(&mut s, 1, A::Take { item: "iron_helmet".into(), from: 0, equip: false }, "not_carried");
    assert_eq!(s.origins[1].ap, 0);

    let mut c = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&c)[0];
    let other = 1 - seat;
    c.origins[other as usize].space = ix(&c, "1");
    ok(&mut c, seat, A::StartTurn);
    let item = c.origins[other as usize].equipped[0].clone();
    rejected(&mut c, seat, A::Take { item: item.clone(), from: other, equip: false }, "too_far");
    c.origins[other as usize].space = c.origins[seat as usize].space;
    let ap = c.origins[seat as usize].ap;
    ok(&mut c, seat, A::Take { item: item.clone(), from: other, equip: false });
    assert_eq!(c.origins[seat as usize].ap, ap - 1);
    assert!(c.origins[seat as usize].backpack.contains(&item));
}

// R142 (L1031) and the supply's decks: one copy of each card no Origin carries, shuffled
// from the table seed (the same seed, the same order), never a unique item twice.
#[test]
fn r142_item_decks_are_shuffled_decks_without_carried_cards() {
    let party = ["ifan", "sebille", "red_prince"];
    let s = Divinity::start(&options("fort_joy", &party), 3).unwrap();
    let carried: Vec<&String> = s.origins.iter().flat_map(|o| o.equipped.iter().chain(&o.backpack)).collect();
    let mut seen = std::collections::BTreeSet::new();
    for (name, cards) in &s.item_decks {
        for c in cards {
            assert!(seen.insert(c.clone()), "{c} twice in the decks");
            assert!(!carried.contains(&c), "{c} is carried and in deck {name}");
        }
    }
    for (id, item) in &cat().items {
        assert!(seen.contains(id) || carried.contains(&id), "{id} is neither carried nor in a deck");
        if item.unique {
            assert!(s.item_decks["unique"].contains(id));
        }
    }
    assert!(s.item_decks["runes"].contains(&"flame_rune".to_string()));
    let again = Divinity::start(&options("fort_joy", &party), 3).unwrap();
    assert_eq!(again.item_decks, s.item_decks, "deterministic from the seed");
    let orders: std::collections::BTreeSet<Vec<String>> = (1..6)
        .map(|seed| Divinity::start(&options("fort_joy", &party), seed).unwrap().item_decks["potions"].clone())
        .collect();
    assert!(orders.len() > 1, "the seed shuffles the decks");
}

// R142 (L1031): a generic reward is the top card of its deck; an empty deck gives nothing.
#[test]
fn r142_generic_reward_is_drawn_from_the_top() {
    let mut s = start("fort_joy", &["ifan"]);
    let barracks = ix(&s, "3");
    s.origins[0].space = barracks;
    let explore = |s: &mut DivinityState| {
        s.phase = Phase::Resolve;
        s.revealed = vec![Revealed { card: "3".into(), seats: vec![0], space: barracks, placed: false }];
        ok(s, 0, A::Resolve { card: "3".into() })
    };
    let deck = s.item_decks["equipment_2"].clone();
    let ev = explore(&mut s);
    assert!(ev.contains(&Ev::ItemGained { seat: Some(0), item: deck[0].clone() }), "{ev:?}");
    assert_eq!(s.item_decks["equipment_2"], deck[1..].to_vec());
    s.item_decks.insert("equipment_2".into(), Vec::new());
    let held = (s.origins[0].equipped.clone(), s.origins[0].backpack.clone());
    let ev = explore(&mut s);
    assert!(ev.contains(&Ev::DeckEmpty { deck: "equipment_2".into() }));
    assert!(!ev.iter().any(|e| matches!(e, Ev::ItemGained { .. })));
    assert_eq!(held, (s.origins[0].equipped.clone(), s.origins[0].backpack.clone()));
}

// R146 (L1056), L1358: discarded, sold and unbought cards go to the bottom of their decks; a
// specific reward is searched out of its deck (L1030); the Merchant reveals from the top of
// the shuffled deck (L1355).
#[test]
fn r146_discards_go_to_the_bottom_of_their_decks() {
    let mut s = start("tutorial", &["ifan", "sebille"]);
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Discard { item: "leather_armor".into() });
    assert_eq!(s.item_decks["equipment_1"].last().map(String::as_str), Some("leather_armor"));

    let mut s = brig_with_full_packs();
    ok(&mut s, 0, A::Resolve { card: "4".into() });
    assert!(!s.item_decks["unique"].contains(&"collar_key".to_string()), "searched out of its deck");
    ok(&mut s, 0, A::PlaceItem { to: None, drop: None, pass_to: None });
    assert_eq!(s.item_decks["unique"].last().map(String::as_str), Some("collar_key"));

    let party = ["ifan", "sebille", "red_prince"];
    let mut s = to_interlude(&party, 9, |_| {}).next().expect("an interlude");
    let before = s.item_decks["equipment_2"].len();
    ok(&mut s, 0, A::VisitMerchant { level: 2, consumables: None });
    let Phase::Interlude(i) = &s.phase else { unreachable!() };
    assert_eq!(i.offer.len(), 4);
    assert_eq!(s.item_decks["equipment_2"].len(), before - 4);
    assert!(i.offer.iter().all(|x| !s.item_decks["equipment_2"].contains(x)), "revealed cards left the deck");
    ok(&mut s, 2, A::Sell { item: "long_sword".into() });
    assert_eq!(s.item_decks["equipment_1"].last().map(String::as_str), Some("long_sword"));
}

/// Ifan on the Shipwreck's Beach (space 1) and a Lackey (movement 2) in the
/// tactical space t1, from where two routes of equal cost lead to him: by
/// space 2 and by space 3. No other Origin to be furthest from.
fn lackey_between_two_routes(party_breaks_ties: bool) -> DivinityState {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.enemies.truncate(1);
    s.location = "shipwreck".into();
    s.map = Default::default();
    s.options.party_breaks_ties = party_breaks_ties;
    s.origins[0].space = ix(&s, "1");
    s.enemies[0].space = ix(&s, "t1");
    s
}

// D (L1689): a minion moves by the shortest route; when several end equally far from the
// other Origins, the party (its leader) picks the route, and the minion goes on along it.
#[test]
fn l1689_the_party_picks_a_minions_route_among_equals() {
    for pick in [0, 1] {
        let mut s = lackey_between_two_routes(true);
        let id = s.enemies[0].id;
        ok(&mut s, 0, A::StartTurn);
        let ev = ok(&mut s, 0, A::EndTurn);
        let r = s.route().cloned().expect("a route to choose");
        assert!(ev.contains(&Ev::RouteToChoose { enemy: id, routes: r.routes.clone() }));
        let mut routes = r.routes.clone();
        routes.sort();
        assert_eq!(routes, vec![vec!["2".to_string(), "1".into()], vec!["3".into(), "1".into()]]);
        assert_eq!(waiting(&s), vec![0]);
        assert_eq!(s.enemies[0].space, ix(&s, "t1"), "it has not moved yet");
        rejected(&mut s, 0, A::EndTurn, "route_pending");
        rejected(&mut s, 0, A::ChooseRoute { route: 2 }, "no_such_route");
        let ev = ok(&mut s, 0, A::ChooseRoute { route: pick });
        let moved: Vec<String> = ev
            .iter()
            .filter_map(|e| match e {
                Ev::Moved { who: Who::Enemy(e), to } if *e == id => Some(to.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(moved, r.routes[pick], "it walks the chosen route");
        assert!(s.route().is_none());
        assert_eq!(s.enemies[0].space, ix(&s, "1"));
    }
    // Without the party's say, the first route is taken at once.
    let mut s = lackey_between_two_routes(false);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    assert!(s.route().is_none());
}

/// A catalogue whose Lackey rolls 2 white and 2 red dice, and Ifan with a
/// BLINDED Lackey in the Galley, his turn under way.
fn blinded_mixed_lackey(party_breaks_ties: bool) -> (Catalogue, DivinityState) {
    use athlas_engine::divinity::dice::Pool;
    let mut c = cat().clone();
    c.minions.get_mut("darkhans_lackey").unwrap().standard.attack.dice = Pool::new(2, 0, 2);
    let opts = DivinityOptions { party_breaks_ties, ..options("tutorial", &["ifan"]) };
    let mut s = Divinity::start_with(&c, &opts, 7).unwrap();
    for (seat, a) in [
        (0, A::ChooseRound { explore: true }),
        (0, A::Travel { to: Some("2".into()) }),
        (0, A::Reveal),
        (0, A::Resolve { card: "2".into() }),
    ] {
        Divinity::apply_with(&c, &mut s, seat, a).unwrap();
    }
    assert_eq!(s.enemies.len(), 1);
    s.enemies[0].track.apply_status(St::Blinded, 2);
    s.origins[0].hp = 30;
    Divinity::apply_with(&c, &mut s, 0, A::StartTurn).unwrap();
    (c, s)
}

// L1515: an enemy that must roll fewer dice of several colours waits for the party (its
// leader) to pick the dice it loses; the roll then has exactly the dice left.
#[test]
fn l1515_the_party_picks_the_dice_an_enemy_loses() {
    use athlas_engine::divinity::dice::Colour;
    let (c, mut s) = blinded_mixed_lackey(true);
    let id = s.enemies[0].id;
    let ev = Divinity::apply_with(&c, &mut s, 0, A::EndTurn).unwrap();
    assert!(ev.contains(&Ev::DiceToReduce { enemy: id, remove: 1 }), "{ev:?}");
    assert!(!ev.iter().any(|e| matches!(e, Ev::Rolled { .. })), "no roll before the choice");
    assert_eq!(waiting(&s), vec![0]);
    for (a, code) in [
        (A::Recover { status: None }, "reduction_pending"),
        (A::ReduceDice { remove: vec![] }, "reduction_count"),
        (A::ReduceDice { remove: vec![Colour::Red, Colour::Red] }, "reduction_count"),
        (A::ReduceDice { remove: vec![Colour::Blue] }, "no_such_die"),
    ] {
        rejected_with(&c, &mut s, 0, a, code);
    }
    // The party takes a red die (the fixed rule would have taken a white one).
    let mut ev = Divinity::apply_with(&c, &mut s, 0, A::ReduceDice { remove: vec![Colour::Red] }).unwrap();
    while s.enemy_roll().is_some() {
        ev.extend(Divinity::apply_with(&c, &mut s, 0, A::Accept).unwrap());
    }
    let dice = ev
        .iter()
        .find_map(|e| match e {
            Ev::Rolled { who: Who::Enemy(e), dice, .. } if *e == id => Some(dice.clone()),
            _ => None,
        })
        .expect("the Lackey rolled");
    let colours: Vec<Colour> = dice.iter().map(|d| d.colour).collect();
    assert_eq!(colours.iter().filter(|c| **c == Colour::White).count(), 2);
    assert_eq!(colours.iter().filter(|c| **c == Colour::Red).count(), 1);
    assert!(s.reduction().is_none());

    // Without the party's say, white dice go first.
    let (c, mut s) = blinded_mixed_lackey(false);
    let ev = Divinity::apply_with(&c, &mut s, 0, A::EndTurn).unwrap();
    let dice = ev
        .iter()
        .find_map(|e| match e {
            Ev::Rolled { who: Who::Enemy(_), dice, .. } => Some(dice.clone()),
            _ => None,
        })
        .expect("the Lackey rolled at once");
    assert_eq!(dice.iter().filter(|d| d.colour == Colour::White).count(), 1);
}

/// The extra hits of the pending attack roll of `seat` with `weapon` (equipped only).
fn extra_hits(party: &[&str], weapon: &str, talent: Option<&str>, hurt: bool) -> u32 {
    use athlas_engine::divinity::state::Purpose;
    let mut s = duel(party, "darkhans_lackey", 28);
    s.enemies.truncate(1);
    let o = &mut s.origins[0];
    o.hp = cat().origins[&o.origin].at(o.level).unwrap().hp - u32::from(hurt);
    o.equipped = vec![weapon.into()];
    o.talents.extend(talent.map(String::from));
    let seat = waiting(&s)[0];
    if seat != 0 {
        ok(&mut s, seat, A::StartTurn);
        end_turn(&mut s, seat);
    }
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    let card = CardUse::Item(weapon.into());
    ok(&mut s, 0, A::Use { first_aura: None, include_self: None, card, aim: Aim::Enemy(id) });
    match &s.pending_roll().expect("a roll").purpose {
        Purpose::Attack { extra, .. } => *extra,
        p => panic!("{p:?}"),
    }
}

// Talents as data (content/divinity/talents.json): Hothead adds a hit at full HP only;
// Savage Sortilege adds a hit to attacks of any type but physical.
#[test]
fn talents_add_hits_by_their_conditions() {
    let base = extra_hits(&["ifan"], "short_bow", None, false);
    assert_eq!(extra_hits(&["ifan"], "short_bow", Some("hothead"), false), base + 1);
    assert_eq!(extra_hits(&["ifan"], "short_bow", Some("hothead"), true), base, "not at full HP");
    assert_eq!(extra_hits(&["ifan"], "short_bow", Some("savage_sortilege"), false), base, "physical");
    let fire = extra_hits(&["red_prince"], "fire_staff", None, false);
    assert_eq!(extra_hits(&["red_prince"], "fire_staff", Some("savage_sortilege"), false), fire + 1);
}

// Comeback Kid (once per location, content): the blow that would down Ifan leaves him on
// 1 HP and flips the talent; without it the same blow downs him (D18).
#[test]
fn comeback_kid_survives_one_killing_blow() {
    let run = |talent: bool| {
        let mut s = built(table("tutorial", &["ifan"]).origin(0, |o| o.hp(2)));
        if talent {
            s.origins[0].talents.push("comeback_kid".into());
        }
        ok(&mut s, 0, A::ChooseRound { explore: true });
        ok(&mut s, 0, A::Travel { to: None });
        ok(&mut s, 0, A::Reveal);
        ok(&mut s, 0, A::Resolve { card: "1".into() });
        ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![] });
        let n = s.pending_roll().unwrap().roll.dice.len();
        set_dice(&mut s, vec![die(Colour::White, 0, false); n]);
        let ev = ok(&mut s, 0, A::Accept);
        (s, ev)
    };
    let (s, ev) = run(true);
    assert!(ev.contains(&Ev::TalentUsed { seat: 0, talent: "comeback_kid".into() }));
    assert_eq!((s.origins[0].hp, s.origins[0].downed), (1, false));
    assert_eq!(s.origins[0].talents_used, vec!["comeback_kid".to_string()]);
    assert_ne!(s.phase, Phase::Finished { result: Finish::Restart });
    let (s, _) = run(false);
    assert!(s.origins[0].downed);
}

// Arrow Recovery (once per location, content): takes the bottom card of the arrows deck (the
// last arrow used or discarded) into the backpack; nothing under the deck, nothing to take.
#[test]
fn arrow_recovery_takes_the_last_arrow_back() {
    let mut s = duel(&["sebille"], "darkhans_lackey", 28);
    s.enemies.truncate(1);
    s.origins[0].talents = vec!["arrow_recovery".into()];
    let seat = waiting(&s)[0];
    assert_eq!(seat, 0);
    ok(&mut s, 0, A::StartTurn);
    let arrows = s.item_decks["arrows"].clone();
    s.item_decks.insert("arrows".into(), Vec::new());
    let t = A::UseTalent { talent: "arrow_recovery".into() };
    rejected(&mut s, 0, t.clone(), "nothing_to_recover");
    s.item_decks.insert("arrows".into(), arrows.clone());
    let last = arrows.last().unwrap().clone();
    let ev = ok(&mut s, 0, t.clone());
    assert!(ev.contains(&Ev::ItemGained { seat: Some(0), item: last.clone() }));
    assert!(s.origins[0].backpack.contains(&last));
    assert_eq!(s.item_decks["arrows"], arrows[..arrows.len() - 1].to_vec());
    rejected(&mut s, 0, t, "talent_used");
}

// L1689 for a Boss' attack tactic: the Warden's Strike (move 2, melee) from t1 to Ifan and
// Sebille on the Beach has two equal routes; the party picks one, she walks it and strikes.
#[test]
fn l1689_the_party_picks_a_bosses_route_among_equals() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    s.enemies.truncate(1);
    s.location = "shipwreck".into();
    s.map = Default::default();
    let beach = ix(&s, "1");
    for o in &mut s.origins {
        o.space = beach;
    }
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Boss { boss: "the_warden".into() };
    e.hp = 40;
    e.max_hp = 40;
    e.tactics = vec!["w_strike".into(), "w_mend".into()];
    e.track = Track::new(5);
    e.ap = 0;
    let id = e.id;
    s.enemies[0].space = ix(&s, "t1");
    for seat in 0..2 {
        ok(&mut s, seat, A::StartTurn);
        ok(&mut s, seat, A::EndTurn);
    }
    while let Some(t) = s.tie().cloned() {
        let Who::Origin(o) = t.options[0] else { unreachable!() };
        ok(&mut s, 0, A::BreakTie { target: Aim::Origin(o) });
    }
    let r = s.route().cloned().expect("the Warden waits for her route");
    assert_eq!(r.tactic.as_deref(), Some("w_strike"));
    let mut routes = r.routes.clone();
    routes.sort();
    assert_eq!(routes, vec![vec!["2".to_string(), "1".into()], vec!["3".into(), "1".into()]]);
    assert_eq!(s.enemies[0].space, ix(&s, "t1"));
    let ev = ok(&mut s, 0, A::ChooseRoute { route: 1 });
    let moved: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Ev::Moved { who: Who::Enemy(e), to } if *e == id => Some(to.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(moved, r.routes[1]);
    assert!(ev.iter().any(|e| matches!(e, Ev::Targeted { enemy, .. } if *enemy == id)), "she strikes: {ev:?}");
}

// Torturer (content): a status the Origin's attack gives goes 1 slot further (E32's BURNING
// 2 lands on 3); without the talent it lands on 2.
#[test]
fn torturer_statuses_last_longer() {
    let burning_slot = |talent: bool| {
        let mut s = duel(&["red_prince"], "bandit_hydrosophist", 16);
        s.origins[0].equipped = vec!["fire_staff".into()];
        if talent {
            s.origins[0].talents.push("torturer".into());
        }
        ok(&mut s, 0, A::StartTurn);
        let id = s.enemies[0].id;
        let card = CardUse::Item("fire_staff".into());
        ok(&mut s, 0, A::Use { first_aura: None, include_self: None, card, aim: Aim::Enemy(id) });
        set_dice(&mut s, vec![die(Colour::White, 1, false), die(Colour::White, 1, false), die(Colour::White, 1, true)]);
        ok(&mut s, 0, A::Accept);
        s.enemy(id).unwrap().track.status_slot(St::Burning)
    };
    assert_eq!(burning_slot(false), Some(2));
    assert_eq!(burning_slot(true), Some(3));
}

// Executioner (content, once per location): the attack that defeats an enemy gives 2 AP back
// and flips the talent; an attack that leaves it standing gives nothing.
#[test]
fn executioner_gains_ap_after_a_kill() {
    let after = |talent: bool, hp: u32| {
        let mut s = duel(&["red_prince"], "bandit_hydrosophist", hp);
        s.enemies.truncate(1);
        // A second enemy, so that the combat goes on after the kill.
        let mut other = s.enemies[0].clone();
        other.id = s.next_enemy;
        other.letter = Some('B');
        other.hp = 16;
        s.next_enemy += 1;
        s.enemies.push(other);
        s.origins[0].equipped = vec!["fire_staff".into()];
        if talent {
            s.origins[0].talents.push("executioner".into());
        }
        ok(&mut s, 0, A::StartTurn);
        let ap = s.origins[0].ap;
        let id = s.enemies[0].id;
        let card = CardUse::Item("fire_staff".into());
        ok(&mut s, 0, A::Use { first_aura: None, include_self: None, card, aim: Aim::Enemy(id) });
        set_dice(
            &mut s,
            vec![die(Colour::White, 1, false), die(Colour::White, 1, false), die(Colour::White, 1, false)],
        );
        let ev = ok(&mut s, 0, A::Accept);
        (ap, s, ev)
    };
    let (ap, s, ev) = after(true, 2);
    assert!(ev.contains(&Ev::TalentUsed { seat: 0, talent: "executioner".into() }), "{ev:?}");
    assert!(s.origins[0].talents_used.contains(&"executioner".to_string()));
    assert_eq!(s.origins[0].ap, ap, "2 AP paid, 2 AP gained");
    let (_, s, ev) = after(false, 2);
    assert!(!ev.iter().any(|e| matches!(e, Ev::TalentUsed { .. })));
    assert!(s.origins[0].talents_used.is_empty());
    let (ap, s, _) = after(true, 16);
    assert_eq!(s.enemies.len(), 2, "it stands");
    assert_eq!(s.origins[0].ap, ap - 2);
    assert!(s.origins[0].talents_used.is_empty());
}

// ---- Conditional location cards (L1150-1158, L1312-1318, L750) ----

/// Explore one space with the whole party and resolve what it reveals.
fn explore_space(s: &mut DivinityState, space: &str) -> Vec<Ev> {
    ok(s, 0, A::ChooseRound { explore: true });
    for seat in 0..s.origins.len() as Seat {
        ok(s, seat, A::Travel { to: Some(space.into()) });
    }
    ok(s, 0, A::Reveal);
    let card = s.revealed[0].card.clone();
    ok(s, 0, A::Resolve { card })
}

// L1316-1318: a card checks the journal envelope; Fort Joy #3 pays out only
// to a party holding journal card 1.
#[test]
fn l1318_card_checks_the_journal() {
    let mut without = start("fort_joy", &["ifan"]);
    explore_space(&mut without, "3");
    let mut with = start("fort_joy", &["ifan"]);
    with.journal = vec![1];
    explore_space(&mut with, "3");
    assert_eq!(without.gold, 1);
    assert_eq!(with.gold, 3, "journal card 1 adds 2 gold");
}

// L1318: a symbol count, checked against the cards held, with a catalogue of our own.
#[test]
fn l1318_card_checks_journal_symbols() {
    use athlas_engine::divinity::content::{CardEffect, Condition};
    let mut c = cat().clone();
    let card = c.locations.get_mut("fort_joy").unwrap().cards.iter_mut().find(|k| k.id == "3").unwrap();
    card.effects = vec![CardEffect::If {
        condition: Condition::Symbol { symbol: "eye".into(), count: 2 },
        then: vec![CardEffect::Gold { amount: 5 }],
        otherwise: vec![CardEffect::Gold { amount: 1 }],
    }];
    c.validate().unwrap();
    let mut gold = Vec::new();
    for journal in [vec![3], vec![3, 4], vec![1, 2]] {
        let mut s = Divinity::start_with(&c, &options("fort_joy", &["ifan"]), 7).unwrap();
        s.journal = journal;
        Divinity::apply_with(&c, &mut s, 0, A::ChooseRound { explore: true }).unwrap();
        Divinity::apply_with(&c, &mut s, 0, A::Travel { to: Some("3".into()) }).unwrap();
        Divinity::apply_with(&c, &mut s, 0, A::Reveal).unwrap();
        Divinity::apply_with(&c, &mut s, 0, A::Resolve { card: "3".into() }).unwrap();
        gold.push(s.gold);
    }
    assert_eq!(gold, vec![1, 5, 1], "two eye cards are needed");
}

// L750 + L1438: Fort Joy's alarm (event A) forces the party back to the Gate
// unless a SOLDIER is in it (a keyword check).
#[test]
fn l750_forced_move_unless_keyword() {
    for (party, to) in [(&["sebille"][..], "1"), (&["ifan"][..], "2")] {
        let mut s = start("fort_joy", party);
        s.origins[0].space = ix(&s, "2");
        s.time = Some(6);
        rest_round(&mut s);
        assert_eq!(s.combat_stack, vec!["A".to_string()], "event A resolved and spawned");
        assert_eq!(s.origins[0].space, ix(&s, to), "{party:?}");
    }
}

// Paying gold: the Hollow Marshes shrine takes 1 gold if the stash has it, and heals.
#[test]
fn card_pays_gold_when_the_stash_holds_it() {
    for gold in [0, 3] {
        let mut s = built(table("hollow_marshes", &["ifan"]).gold(gold));
        s.origins[0].hp -= 4;
        let hp = s.origins[0].hp;
        let ev = explore_space(&mut s, "3");
        if gold == 0 {
            assert_eq!((s.gold, s.origins[0].hp), (0, hp));
            assert!(!ev.iter().any(|e| matches!(e, Ev::GoldSpent { .. })));
        } else {
            assert_eq!((s.gold, s.origins[0].hp), (2, hp + 2));
            assert!(ev.iter().any(|e| matches!(e, Ev::GoldSpent { amount: 1, total: 2 })));
        }
    }
}

// Conditions are checked at load: unknown journal cards, symbols, keywords,
// tactical forced moves and nested dangling references are refused.
#[test]
fn conditional_cards_are_validated() {
    use athlas_engine::divinity::content::{CardEffect, Condition, Who as CW};
    let bad = [
        (
            CardEffect::If {
                condition: Condition::Journal { card: 99 },
                then: vec![CardEffect::Gold { amount: 1 }],
                otherwise: vec![],
            },
            "condition on unknown journal card 99",
        ),
        (
            CardEffect::If {
                condition: Condition::Symbol { symbol: "eye".into(), count: 9 },
                then: vec![CardEffect::Gold { amount: 1 }],
                otherwise: vec![],
            },
            "condition on 9 eye journal cards",
        ),
        (
            CardEffect::If {
                condition: Condition::Keyword { keyword: "NO_SUCH".into(), who: CW::Party },
                then: vec![CardEffect::Gold { amount: 1 }],
                otherwise: vec![],
            },
            "condition on unknown keyword NO_SUCH",
        ),
        (
            CardEffect::If {
                condition: Condition::Pay { amount: 0 },
                then: vec![CardEffect::Gold { amount: 1 }],
                otherwise: vec![],
            },
            "a gold condition of 0",
        ),
        (
            CardEffect::If { condition: Condition::Gold { amount: 2 }, then: vec![], otherwise: vec![] },
            "a condition with no effect",
        ),
        (
            CardEffect::If {
                condition: Condition::Gold { amount: 2 },
                then: vec![CardEffect::Move { space: "nowhere".into(), who: CW::Group }],
                otherwise: vec![],
            },
            "unknown space nowhere",
        ),
        (CardEffect::Move { space: "t1".into(), who: CW::Party }, "forced move into tactical space t1"),
    ];
    for (e, phrase) in bad {
        let mut c = cat().clone();
        c.locations.get_mut("fort_joy").unwrap().cards[0].effects.push(e.clone());
        refused(c.validate(), phrase, &format!("{e:?}"));
    }
}

// ---- Buying with no room (L1356, L1056) ----

/// The interlude with the Merchant open on potions, and Ifan's backpack full.
fn merchant_with_full_pack() -> (DivinityState, String) {
    let mut s = to_interlude(&["ifan", "sebille"], 9, |_| {}).next().unwrap();
    ok(&mut s, 0, A::VisitMerchant { level: 1, consumables: Some(ConsumableDeck::Potions) });
    s.origins[0].backpack = vec!["healing_potion".into(), "fire_grenade".into(), "healing_potion".into()];
    let Phase::Interlude(i) = &s.phase else { unreachable!() };
    let potion = i
        .offer
        .iter()
        .find(|x| {
            cat().items[*x].kind == athlas_engine::divinity::content::ItemKind::Consumable(ConsumableDeck::Potions)
        })
        .cloned()
        .expect("potions on offer");
    (s, potion)
}

// R146 (L1056) at the Merchant (L1356): a purchase with no room waits for the
// party's choice; the buyer drops another item for it.
#[test]
fn r146_buying_with_no_room_drops_another_item() {
    let (mut s, potion) = merchant_with_full_pack();
    let gold = s.gold;
    let cost = cat().items[&potion].cost.unwrap();
    let offered = |s: &DivinityState| match &s.phase {
        Phase::Interlude(i) => i.offer.iter().filter(|x| **x == potion).count(),
        _ => unreachable!(),
    };
    let before = offered(&s);
    let ev = ok(&mut s, 0, A::Buy { item: potion.clone(), to: 0 });
    assert!(ev.contains(&Ev::NoRoom { item: potion.clone(), takers: vec![0] }), "{ev:?}");
    assert_eq!(s.gold, gold - cost, "the item is paid for");
    assert_eq!(s.overflow, vec![Overflow { item: potion.clone(), takers: vec![0] }]);
    assert_eq!(offered(&s), before - 1, "it left the Merchant's offer");
    assert_eq!(waiting(&s), vec![0, 1]);
    rejected(&mut s, 0, A::FinishInterlude, "item_waiting");
    rejected(&mut s, 0, A::PlaceItem { to: Some(0), drop: None, pass_to: None }, "no_room");
    rejected(&mut s, 0, A::PlaceItem { to: Some(1), drop: None, pass_to: None }, "not_a_taker");
    // Trading is free in the interlude: the grenade goes to Sebille (L1347).
    let pass = A::PlaceItem { to: Some(0), drop: Some("fire_grenade".into()), pass_to: Some(1) };
    ok(&mut s, 0, pass);
    assert!(s.overflow.is_empty());
    assert!(s.origins[0].backpack.contains(&potion));
    assert!(!s.origins[0].backpack.contains(&"fire_grenade".to_string()));
    assert!(s.origins[1].backpack.contains(&"fire_grenade".to_string()));
}

// R146 (L1056): or the party lets the new purchase go; the gold stays spent.
#[test]
fn r146_buying_with_no_room_may_discard_the_purchase() {
    let (mut s, potion) = merchant_with_full_pack();
    ok(&mut s, 0, A::Buy { item: potion.clone(), to: 0 });
    let gold = s.gold;
    let pack = s.origins[0].backpack.clone();
    let ev = ok(&mut s, 0, A::PlaceItem { to: None, drop: None, pass_to: None });
    assert!(ev.contains(&Ev::RewardDiscarded { item: potion }));
    assert_eq!((s.gold, &s.origins[0].backpack), (gold, &pack));
    assert!(s.overflow.is_empty());
    rejected(&mut s, 0, A::FinishInterlude, "level_up_pending"); // nothing waits any more
}

// ---- Movement and teleport skills (L905-907, L708, L1829, L1092, L1100) ----

fn use_skill(skill: &str, aim: Aim) -> A {
    A::Use { card: CardUse::Skill(skill.into()), aim, first_aura: None, include_self: None }
}

// L907: a skill that moves you ignores the AP cost of every space on the path,
// DIFFICULT TERRAIN included; locked paths and spaces stay closed (L1092, L1100).
#[test]
fn l907_movement_skill_moves_the_user_without_ap_per_space() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.origins[0].hand.extend(["phoenix_dive".to_string(), "daring_leap".to_string()]);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 5;
    rejected(&mut s, 0, use_skill("phoenix_dive", Aim::Origin(0)), "aim_a_space");
    rejected(&mut s, 0, use_skill("phoenix_dive", Aim::Space("4".into())), "unreachable");
    rejected(&mut s, 0, use_skill("phoenix_dive", Aim::Space("5".into())), "unreachable");
    rejected(&mut s, 0, use_skill("phoenix_dive", Aim::Space("2".into())), "no_move");
    let ev = ok(&mut s, 0, use_skill("phoenix_dive", Aim::Space("3".into())));
    assert!(ev.contains(&Ev::Moved { who: Who::Origin(0), to: "3".into() }), "{ev:?}");
    assert_eq!(s.origins[0].space, ix(&s, "3"));
    assert_eq!(s.origins[0].ap, 4, "only the skill's 1 AP: walking would cost 3 through DIFFICULT TERRAIN");
    assert!(!s.origins[0].hand.contains(&"phoenix_dive".to_string()), "the skill went on cooldown");
    // Daring Leap reaches 2 spaces: the Deck is 3 away.
    rejected(&mut s, 0, use_skill("daring_leap", Aim::Space("1".into())), "out_of_range");
    ok(&mut s, 0, use_skill("daring_leap", Aim::Space("2".into())));
    assert_eq!((s.origins[0].space, s.origins[0].ap), (ix(&s, "2"), 3));
}

// L708 + L1829: Teleportation pulls an ally or an enemy within 2 into your
// space, but never an immovable one (a Boss, the Marsh Troll).
#[test]
fn l708_teleportation_moves_a_target_unless_immovable() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&s)[0];
    let other = 1 - seat;
    s.origins[seat as usize].hand.push("teleportation".into());
    s.origins[other as usize].space = ix(&s, "1");
    let enemy = s.enemies[0].id;
    s.enemies[0].space = ix(&s, "3");
    ok(&mut s, seat, A::StartTurn);
    s.origins[seat as usize].ap = 5;
    rejected(&mut s, seat, use_skill("teleportation", Aim::Space("3".into())), "aim_a_figure");
    let mut troll = s.clone();
    troll.enemies[0].kind = EnemyKind::Minion { card: "marsh_troll".into(), veteran: false };
    rejected(&mut troll, seat, use_skill("teleportation", Aim::Enemy(enemy)), "immovable");
    let mut ally = s.clone();
    ok(&mut ally, seat, use_skill("teleportation", Aim::Origin(other)));
    assert_eq!(ally.origins[other as usize].space, ix(&s, "2"));
    let ev = ok(&mut s, seat, use_skill("teleportation", Aim::Enemy(enemy)));
    assert!(ev.contains(&Ev::Moved { who: Who::Enemy(enemy), to: "2".into() }));
    assert_eq!(s.enemies[0].space, ix(&s, "2"));
    assert_eq!(s.origins[seat as usize].ap, 4);
}

// The skill data is checked at load: a movement skill moves at least 1 space.
#[test]
fn movement_skills_are_validated() {
    let mut c = cat().clone();
    c.skills.get_mut("phoenix_dive").unwrap().movement.as_mut().unwrap().range = 0;
    refused(c.validate(), "skill phoenix_dive: a movement skill moves 1+ spaces", "Phoenix Dive of range 0");
}

// ---- Origins' special abilities (L501-503; effects ours, ASSUMPTIONS.md) ----

/// The seat whose Combat turn it is, with its turn started and 3 AP.
fn ability_turn(s: &mut DivinityState) -> Seat {
    let seat = waiting(s)[0];
    ok(s, seat, A::StartTurn);
    s.origins[seat as usize].ap = 3;
    seat
}

// L503: 0 AP; Ifan's wolf bites an enemy in his space, once per round.
#[test]
fn l503_ifan_wolf_once_per_round() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    let seat = ability_turn(&mut s);
    let enemy = s.enemies[0].id;
    rejected(&mut s, seat, A::UseAbility { aim: None }, "aim_needed");
    rejected(&mut s, seat, A::UseAbility { aim: Some(Aim::Origin(seat)) }, "bad_target");
    let ev = ok(&mut s, seat, A::UseAbility { aim: Some(Aim::Enemy(enemy)) });
    assert!(ev.contains(&Ev::AbilityUsed { seat }));
    assert!(ev.iter().any(|e| matches!(e, Ev::Damaged { who: Who::Enemy(_), .. })), "{ev:?}");
    assert_eq!(s.enemies[0].hp, 27, "1 direct damage");
    assert_eq!(s.origins[seat as usize].ap, 3, "0 AP (L503)");
    rejected(&mut s, seat, A::UseAbility { aim: Some(Aim::Enemy(enemy)) }, "ability_used");
    // An enemy elsewhere can't be bitten; next round the wolf bites again.
    end_turn(&mut s, seat);
    for o in &mut s.origins {
        o.hp = 20;
        o.downed = false;
    }
    let seat = ability_turn(&mut s);
    let here = s.origins[seat as usize].space;
    s.enemies[0].space = ix(&s, "1");
    rejected(&mut s, seat, A::UseAbility { aim: Some(Aim::Enemy(enemy)) }, "bad_target");
    s.enemies[0].space = here;
    ok(&mut s, seat, A::UseAbility { aim: Some(Aim::Enemy(enemy)) });
}

// Once per location: Farzanah's bargain gives 2 AP for 2 direct damage, and only once.
#[test]
fn l503_farzanah_bargain_once_per_location() {
    let mut s = duel(&["farzanah"], "darkhans_lackey", 28);
    let seat = ability_turn(&mut s);
    let hp = s.origins[seat as usize].hp;
    ok(&mut s, seat, A::UseAbility { aim: None });
    assert_eq!((s.origins[seat as usize].ap, s.origins[seat as usize].hp), (5, hp - 2));
    end_turn(&mut s, seat);
    s.origins[0].hp = 20;
    s.origins[0].downed = false;
    let seat = ability_turn(&mut s);
    rejected(&mut s, seat, A::UseAbility { aim: None }, "ability_used");
}

// The Red Prince commands a minion (never a Boss) in his space: KNOCKED DOWN,
// which an immovable minion is immune to (L708).
#[test]
fn l708_red_prince_commands_a_minion() {
    let mut s = duel(&["red_prince"], "darkhans_lackey", 28);
    let seat = ability_turn(&mut s);
    let enemy = s.enemies[0].id;
    let mut troll = s.clone();
    ok(&mut s, seat, A::UseAbility { aim: Some(Aim::Enemy(enemy)) });
    assert!(s.enemies[0].track.statuses().contains(&St::KnockedDown));
    troll.enemies[0].kind = EnemyKind::Minion { card: "marsh_troll".into(), veteran: false };
    ok(&mut troll, seat, A::UseAbility { aim: Some(Aim::Enemy(enemy)) });
    assert!(!troll.enemies[0].track.statuses().contains(&St::KnockedDown));
}

// The Beast rallies every standing Origin in his space: +1 AP each, not those elsewhere.
#[test]
fn l503_beast_rallies_his_space() {
    let mut s = duel(&["beast", "ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&s).into_iter().find(|&w| s.origins[w as usize].origin == "beast").expect("the Beast may act");
    ok(&mut s, seat, A::StartTurn);
    let far = (0..3).find(|&w| w != seat).unwrap();
    s.origins[far as usize].space = ix(&s, "1");
    let before: Vec<u32> = s.origins.iter().map(|o| o.ap).collect();
    ok(&mut s, seat, A::UseAbility { aim: None });
    for (w, o) in s.origins.iter().enumerate() {
        let gain = u32::from(w as Seat != far);
        assert_eq!(o.ap, before[w] + gain, "seat {w}");
    }
}

// Abilities are data checked at load; an Origin with none can't use one.
#[test]
fn abilities_are_validated() {
    use athlas_engine::divinity::content::AbilityEffect;
    let mut c = cat().clone();
    c.origins.get_mut("lohse").unwrap().ability.as_mut().unwrap().effects = vec![AbilityEffect::Heal { amount: 0 }];
    refused(c.validate(), "origin lohse: a special ability effect of 0", "healing 0");
    let mut c = cat().clone();
    c.origins.get_mut("lohse").unwrap().ability.as_mut().unwrap().effects.clear();
    refused(c.validate(), "origin lohse: a special ability with no effect", "an ability with no effect");
    let mut c = cat().clone();
    c.origins.get_mut("ifan").unwrap().ability = None;
    let mut s = Divinity::start_with(&c, &options("tutorial", &["ifan"]), 7).unwrap();
    s.phase = Phase::Combat { done: vec![false], active: Some(0) };
    rejected_with(&c, &mut s, 0, A::UseAbility { aim: None }, "no_ability");
}

// ---- The remaining talents as data (ours: the book gives no effects; ASSUMPTIONS.md) ----

// Glass Cannon: +1 hit on every damaging attack, physical too.
#[test]
fn glass_cannon_adds_a_hit() {
    let base = extra_hits(&["ifan"], "short_bow", None, false);
    assert_eq!(extra_hits(&["ifan"], "short_bow", Some("glass_cannon"), true), base + 1);
}

// Picture of Health +3 max HP; Living Armor +1 magical armor; Parry Master +1 physical armor.
#[test]
fn ongoing_talents_hp_and_armor() {
    let mut s = start("tutorial", &["ifan"]);
    let max = s.max_hp(cat(), Who::Origin(0));
    let hit = |talent: Option<&str>, ty: DamageType| {
        let mut t = s.clone();
        t.origins[0].talents.extend(talent.map(String::from));
        t.origins[0].hp = 20;
        t.damage(cat(), Who::Origin(0), 4, ty, &mut Vec::new());
        20 - t.origins[0].hp
    };
    assert_eq!(hit(Some("parry_master"), DamageType::Physical), hit(None, DamageType::Physical) - 1);
    assert_eq!(hit(Some("parry_master"), DamageType::Fire), hit(None, DamageType::Fire));
    assert_eq!(hit(Some("living_armor"), DamageType::Fire), hit(None, DamageType::Fire) - 1);
    s.origins[0].talents.push("picture_of_health".into());
    assert_eq!(s.max_hp(cat(), Who::Origin(0)), max + 3);
    s.origins[0].hp = 1;
    s.heal(cat(), Who::Origin(0), 99, &mut Vec::new());
    assert_eq!(s.origins[0].hp, max + 3);
}

// Far Out Man: area cards reach 1 space further (L1462 range, along paths).
#[test]
fn far_out_man_reaches_further_with_area_cards() {
    let run = |talent: bool| {
        let mut s = duel(&["red_prince"], "darkhans_lackey", 28);
        s.enemies.truncate(1);
        s.origins[0].collar_broken = true;
        s.origins[0].source = 3;
        s.origins[0].hand.push("red_prince_source".into());
        if talent {
            s.origins[0].talents.push("far_out_man".into());
        }
        ok(&mut s, 0, A::StartTurn);
        s.origins[0].ap = 5;
        // The Source skill has range 1; the Hold (#3) is 2 away from the Galley.
        Divinity::apply(&mut s, 0, use_skill("red_prince_source", Aim::Space("3".into())))
            .map(|_| ())
            .map_err(|e| e.code)
    };
    assert_eq!(run(false), Err("out_of_range"));
    assert_eq!(run(true), Ok(()));
}

// Unstable: downed, the Origin explodes: 3 fire to each enemy in its space, none elsewhere.
#[test]
fn unstable_explodes_when_downed() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.enemies.truncate(1);
    let mut far = s.enemies[0].clone();
    far.id = s.next_enemy;
    far.space = ix(&s, "1");
    s.next_enemy += 1;
    s.enemies.push(far);
    let before: Vec<u32> = s.enemies.iter().map(|e| e.hp).collect();
    let mut plain = s.clone();
    s.origins[0].talents.push("unstable".into());
    s.origins[0].hp = 1;
    plain.origins[0].hp = 1;
    let mut ev = Vec::new();
    s.damage(cat(), Who::Origin(0), 5, DamageType::Direct, &mut ev);
    plain.damage(cat(), Who::Origin(0), 5, DamageType::Direct, &mut Vec::new());
    assert!(s.origins[0].downed);
    assert!(s.enemies[0].hp < before[0], "{ev:?}");
    assert_eq!(s.enemies[1].hp, before[1], "only its own space");
    assert_eq!(plain.enemies[0].hp, before[0]);
}

// Leech: heals 2 when its attack defeats an enemy, nothing otherwise.
#[test]
fn leech_heals_on_a_kill() {
    let after = |talent: bool, hp: u32| {
        let mut s = duel(&["red_prince"], "bandit_hydrosophist", hp);
        s.enemies.truncate(1);
        let mut other = s.enemies[0].clone();
        other.id = s.next_enemy;
        other.hp = 16;
        s.next_enemy += 1;
        s.enemies.push(other);
        s.origins[0].equipped = vec!["fire_staff".into()];
        s.origins[0].hp = 10;
        if talent {
            s.origins[0].talents.push("leech".into());
        }
        ok(&mut s, 0, A::StartTurn);
        let id = s.enemies[0].id;
        let card = CardUse::Item("fire_staff".into());
        ok(&mut s, 0, A::Use { first_aura: None, include_self: None, card, aim: Aim::Enemy(id) });
        set_dice(
            &mut s,
            vec![die(Colour::White, 1, false), die(Colour::White, 1, false), die(Colour::White, 1, false)],
        );
        ok(&mut s, 0, A::Accept);
        s.origins[0].hp
    };
    assert_eq!(after(true, 2), 12);
    assert_eq!(after(false, 2), 10);
    assert_eq!(after(true, 16), 10, "no kill, no heal");
}

// Escapist (once per location): clears KNOCKED DOWN and the like; Opportunist: +1 AP once.
#[test]
fn escapist_and_opportunist_flip_once() {
    use athlas_engine::divinity::attack::StatusGrant;
    let mut s = duel(&["sebille"], "darkhans_lackey", 28);
    s.origins[0].talents.extend(["escapist".to_string(), "opportunist".to_string()]);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 2;
    s.give_status(cat(), Who::Origin(0), StatusGrant { status: St::Frozen, cooldown: 2 }, &mut Vec::new());
    assert!(s.origins[0].track.statuses().contains(&St::Frozen));
    ok(&mut s, 0, A::UseTalent { talent: "escapist".into() });
    assert!(!s.origins[0].track.statuses().contains(&St::Frozen));
    rejected(&mut s, 0, A::UseTalent { talent: "escapist".into() }, "talent_used");
    ok(&mut s, 0, A::UseTalent { talent: "opportunist".into() });
    assert_eq!(s.origins[0].ap, 3);
    rejected(&mut s, 0, A::UseTalent { talent: "opportunist".into() }, "talent_used");
}
