//! The audit of the derived edge cases D01–D60 of the facts file (section 3,
//! "Derived edge-case tests"): the cases no other Divinity test pinned down
//! exactly. Each test cites its case and the rulebook line;
//! `divinity_coverage/d01-d60.md` maps every case to the tests that fail
//! when it breaks.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::{CardEffect, Catalogue};
use athlas_engine::divinity::cooldown::{CardRef, Track, TrackCard, MINION_TRACK};
use athlas_engine::divinity::damage::Environment;
use athlas_engine::divinity::dice::{Colour, TargetingFace};
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{Enemy, EnemyKind, Phase, Who};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat};

use crate::divinity_support;
use divinity_support::*;

fn minion(id: u32, letter: char, card: &str, space: usize) -> Enemy {
    let hp = cat().minions[card].standard.hp;
    Enemy {
        id,
        letter: Some(letter),
        kind: EnemyKind::Minion { card: card.into(), veteran: false },
        hp,
        max_hp: hp,
        space,
        fast: false,
        track: Track::new(MINION_TRACK),
        ap: 0,
        tactics: vec![],
    }
}

// ---- D15: the minion limit does not stop a Boss ----

/// D15 (L1245–1247): with 6 minions on the map, a card that spawns more
/// minions and a Boss spawns no minion, but the Boss is set up. (The
/// Shipwreck's card 3, whose Lackeys would take trays, made to raise the
/// Warden too.)
#[test]
fn d15_six_minions_a_card_spawns_more_and_a_boss() {
    let mut c = cat().clone();
    let l = c.locations.get_mut("shipwreck").unwrap();
    let card = l.cards.iter_mut().find(|k| k.id == "3").unwrap();
    card.effects.push(CardEffect::SpawnBoss { boss: "the_warden".into() });
    c.validate().unwrap();
    let mut s = Divinity::start_with(&c, &options("shipwreck", &["ifan", "sebille", "red_prince"]), 1).unwrap();
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..3 {
        ok_with(&c, &mut s, seat, A::Travel { to: Some("3".into()) });
    }
    let far = ix_in(&c, &s, "5");
    for (i, l) in ['A', 'B', 'C', 'D', 'E', 'F'].into_iter().enumerate() {
        s.enemies.push(minion(100 + i as u32, l, "crocodile", far));
    }
    ok_with(&c, &mut s, 0, A::Reveal);
    let ev = ok_with(&c, &mut s, 0, A::Resolve { card: "3".into() });
    let minions = s.enemies.iter().filter(|e| matches!(e.kind, EnemyKind::Minion { .. })).count();
    assert_eq!(minions, 6, "no minion spawned: {ev:?}");
    assert!(
        !s.enemies.iter().any(|e| matches!(&e.kind, EnemyKind::Minion { card, .. } if card == "darkhans_lackey")),
        "the card's Lackeys are not spawned"
    );
    let boss = s.enemies.iter().find(|e| matches!(e.kind, EnemyKind::Boss { .. })).expect("the Boss is set up");
    assert_eq!((boss.hp, boss.letter), (c.bosses["the_warden"].hp[2], None));
}

// ---- D21, D22: equipping over an equipped item in combat ----

/// D21 (L943, L950): equipping a two-hands item while a one-hand item sits
/// in the other hand takes that item out of its hand: stored, for no more
/// than the equip's 1 AP, and then discarded for free if the Origin wishes.
#[test]
fn d21_two_hands_item_over_a_one_hand_item() {
    let mut s = duel(&["sebille"], "darkhans_lackey", 28);
    let o = &mut s.origins[0];
    let first = o.equipped.iter().position(|i| i == "rusty_dagger").unwrap();
    o.equipped.remove(first);
    assert_eq!(o.equipped.iter().filter(|i| *i == "rusty_dagger").count(), 1, "one dagger in one hand");
    o.backpack = vec!["fire_staff".into()];
    ok(&mut s, 0, A::StartTurn);
    let ap = s.origins[0].ap;
    ok(&mut s, 0, A::Equip { item: "fire_staff".into() });
    let o = &s.origins[0];
    assert!(o.equipped.contains(&"fire_staff".to_string()));
    assert!(!o.equipped.contains(&"rusty_dagger".to_string()), "the other hand is not used");
    assert_eq!(o.backpack, vec!["rusty_dagger".to_string()], "the dagger was stored");
    assert_eq!(o.ap, ap - 1, "1 AP for the equip, nothing for the dagger");
    let ev = ok(&mut s, 0, A::Discard { item: "rusty_dagger".into() });
    assert!(ev.contains(&Ev::ItemDiscarded { seat: 0, item: "rusty_dagger".into() }));
    assert!(s.origins[0].backpack.is_empty());
    assert_eq!(s.origins[0].ap, ap - 1, "discarding it is free");
}

/// D22 (L943, L1588): in combat, equipping a helmet over an equipped helmet
/// costs 1 AP in all; the old helmet is stored for free, or discarded for free.
#[test]
fn d22_helmet_over_a_helmet_costs_one_ap() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.origins[0].equipped.push("iron_helmet".into());
    s.origins[0].backpack = vec!["mage_hood".into(), "healing_potion".into()];
    ok(&mut s, 0, A::StartTurn);
    assert_eq!(s.origins[0].ap, 4);
    ok(&mut s, 0, A::Equip { item: "mage_hood".into() });
    let o = &s.origins[0];
    assert!(o.equipped.contains(&"mage_hood".to_string()) && !o.equipped.contains(&"iron_helmet".to_string()));
    assert!(o.backpack.contains(&"iron_helmet".to_string()), "the old helmet is stored");
    assert_eq!(o.ap, 3, "1 AP in all");
    ok(&mut s, 0, A::Discard { item: "iron_helmet".into() });
    assert!(!s.origins[0].backpack.contains(&"iron_helmet".to_string()));
    assert_eq!(s.origins[0].ap, 3, "or discarded, still for nothing more");
}

// ---- D33: a Boss' attack tactic out of range, then the next tactic ----

/// D33 (L1797, L1813): an attack tactic whose target is out of range after
/// moving makes no attack and heals nothing; its AP comes back, it goes on
/// cooldown, and the Boss goes on to the next tactic, which it can pay for.
/// (The Strike made to move 0, Ifan a space away; the Ward next, 1 AP.)
#[test]
fn d33_out_of_range_tactic_refunds_and_the_boss_plays_on() {
    let mut c = cat().clone();
    let b = c.bosses.get_mut("the_warden").unwrap();
    b.tactics.iter_mut().find(|t| t.id == "w_strike").unwrap().movement = 0;
    let (mut s, id) = temple_boss_with(&c, &["ifan"]);
    s.origins[0].space = ix_in(&c, &s, "2");
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_strike".into(), "w_ward".into()];
        e.ap = 0;
        e.hp = 30;
    }
    ok_with(&c, &mut s, 0, A::StartTurn);
    let ev = ok_with(&c, &mut s, 0, A::EndTurn);
    assert!(!ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(_), .. })), "no attack");
    let e = s.enemy(id).unwrap();
    assert_eq!(e.hp, 30, "no heal");
    assert!(e.tactics.is_empty(), "the Ward was played too");
    assert_eq!(e.ap, 3, "4, the Strike's 2 back, 1 for the Ward");
    assert_eq!(e.track.find(&CardRef::Tactic("w_strike".into())), Some(1), "Strike on cooldown (2, slid)");
    assert_eq!(e.track.find(&CardRef::Tactic("w_ward".into())), Some(2), "Ward on cooldown (3, slid)");
    assert_eq!(s.origins[0].hp, 60);
}

// ---- D44: the order of a healing roll ----

/// D44 (L1535): a healing roll that also removes statuses and sets an
/// environment heals first, then removes the statuses, then places the
/// environment. So a POISONED target is not healed even by a roll that
/// removes its POISONED: the healing comes before the removal. (First Aid,
/// given WET and POISONED removal for the test.)
#[test]
fn d44_healing_roll_heals_then_statuses_then_environment() {
    let mut c = cat().clone();
    let a = c.skills.get_mut("first_aid").unwrap().attack.as_mut().unwrap();
    a.environment = Some(Environment::Wet);
    a.removes = vec![St::Bleeding, St::Poisoned];
    for poisoned in [false, true] {
        let mut s = duel_with(&c, &["ifan", "sebille"], "darkhans_lackey", 28);
        let seat = waiting(&s)[0];
        let ally = 1 - seat;
        s.origins[seat as usize].hand.push("first_aid".into());
        s.origins[ally as usize].hp = 10;
        s.origins[ally as usize].track.apply_status(St::Bleeding, 3);
        if poisoned {
            s.origins[ally as usize].track.apply_status(St::Poisoned, 3);
        }
        ok_with(&c, &mut s, seat, A::StartTurn);
        ok_with(&c, &mut s, seat, use_card(CardUse::Skill("first_aid".into()), Aim::Origin(ally)));
        set_dice(&mut s, vec![die(Colour::White, 1, false), die(Colour::White, 1, false)]);
        let ev = ok_with(&c, &mut s, seat, A::Accept);
        let at = |f: &dyn Fn(&Ev) -> bool| ev.iter().position(f);
        let who = Who::Origin(ally);
        let healed = at(&|e| matches!(e, Ev::Healed { who: w, .. } if *w == who));
        let bleeding = at(&|e| *e == Ev::StatusCleared { who, status: St::Bleeding }).expect("BLEEDING removed");
        let wet = at(&|e| matches!(e, Ev::EnvironmentPlaced { environment: Environment::Wet, .. })).expect("WET");
        assert!(bleeding < wet, "statuses before the environment: {ev:?}");
        let o = &s.origins[ally as usize];
        assert!(!o.track.has(St::Bleeding) && !o.track.has(St::Poisoned));
        assert_eq!(s.map.tokens.get(&ix_in(&c, &s, "2")), Some(&Environment::Wet));
        if poisoned {
            assert_eq!(healed, None, "POISONED when the healing came: no heal");
            assert_eq!(o.hp, 10);
        } else {
            let healed = healed.expect("healed");
            assert!(healed < bleeding, "healing before statuses: {ev:?}");
            assert!(o.hp > 10);
        }
    }
}

// ---- D52: an armor potion counts toward "least armor" ----

/// D52 (L1625): "least physical armor" counts an Origin's total armor, a +2
/// armor potion on its track included: the Lackey (special targeting: least
/// physical armor) goes for whichever Origin did not drink the potion.
#[test]
fn d52_armor_potion_counts_for_least_armor() {
    let mut c = cat().clone();
    c.dice.targeting = [TargetingFace::Special; 6];
    for drinker in [0 as Seat, 1] {
        let mut s = duel_with(&c, &["ifan", "sebille"], "darkhans_lackey", 28);
        let lackey = s.enemies[0].id;
        for o in &mut s.origins {
            o.equipped.retain(|i| i != "leather_armor");
        }
        let armor = |s: &DivinityState, w: Seat| s.defence(&c, Who::Origin(w)).physical_armor;
        assert_eq!(armor(&s, 0), armor(&s, 1), "the same armor before the potion");
        s.origins[drinker as usize].backpack.push("physical_armor_potion".into());
        let mut ev = Vec::new();
        for seat in waiting(&s) {
            ok_with(&c, &mut s, seat, A::StartTurn);
            if seat == drinker {
                let potion = use_card(CardUse::Consumable("physical_armor_potion".into()), Aim::Origin(drinker));
                ok_with(&c, &mut s, seat, potion);
            }
            ev.extend(ok_with(&c, &mut s, seat, A::EndTurn));
        }
        assert_eq!(targeted(&ev, lackey), Some(Who::Origin(1 - drinker)), "drinker {drinker}: {ev:?}");
    }
}

// ---- D54: a refused optional exit goes back to the holding area ----

/// D54 (L1286): an optional exit taken from the holding area is used only if
/// the whole party agrees; when a player refuses (the leader, answering for
/// the party, holds it again) the party does not leave and the card is back
/// in the holding area, to be taken later.
#[test]
fn d54_refused_optional_exit_returns_to_the_holding_area() {
    let o = options("shipwreck", &["ifan"]);
    let mut s = (0..200u64)
        .find_map(|seed| {
            let mut s = Divinity::start(&o, seed).unwrap();
            ok(&mut s, 0, A::ChooseRound { explore: true });
            ok(&mut s, 0, A::Travel { to: Some("5".into()) });
            ok(&mut s, 0, A::Reveal);
            (s.revealed[0].card == "5b").then_some(s)
        })
        .expect("a seed reveals 5b");
    ok(&mut s, 0, A::Hold { card: "5b".into() });
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("1".into()) });
    ok(&mut s, 0, A::TakeHolding { card: "5b".into() });
    assert!(s.holding.is_empty());
    // Someone refuses: the exit goes back to the holding area.
    ok(&mut s, 0, A::Hold { card: "5b".into() });
    assert_eq!(s.holding, vec!["5b".to_string()]);
    assert!(!matches!(s.phase, Phase::Interlude(_) | Phase::Finished { .. }), "the party did not leave");
    assert_eq!(s.location, "shipwreck");
    // Later everyone agrees.
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::TakeHolding { card: "5b".into() });
    ok(&mut s, 0, A::Resolve { card: "5b".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)));
}

// ---- D57: healing is capped at max HP ----

/// D57 (L592): healing never takes HP above the max: Recover's 2 heals an
/// Origin 1 below its max by 1, in combat and in a Rest round; a minion out
/// of range heals its level only up to its max.
#[test]
fn d57_healing_is_capped_at_max_hp() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.enemies[0].space = ix(&s, "1");
    let max = s.max_hp(cat(), Who::Origin(0));
    s.origins[0].hp = max - 1;
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::Recover { status: None });
    assert_eq!(s.origins[0].hp, max);
    assert!(ev.contains(&Ev::Healed { who: Who::Origin(0), amount: 1, hp: max }), "{ev:?}");

    let mut s = Divinity::start(&options("tutorial", &["ifan"]), 7).unwrap();
    let max = s.max_hp(cat(), Who::Origin(0));
    s.origins[0].hp = max - 1;
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Recover { status: None });
    assert_eq!(s.origins[0].hp, max, "Rest: capped too");

    let mut s = duel(&["ifan"], "undead_ranger", 20);
    let max = s.enemies[0].max_hp;
    s.enemies[0].hp = max - 1;
    s.enemies[0].space = ix(&s, "3");
    s.enemies[0].track.apply_status(St::Frozen, 2);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.enemies[0].hp, max, "level 2, 1 below max: back to max, no more");
}

// ---- D16: both spawning cards' defeat effects ----

/// D16 (L1239–1241): two revealed cards that each spawn enemies make one
/// combat, both on the active combat stack; when it is lost, the defeat
/// effects of both resolve. (The Shipwreck's cards 3, BLEEDING 2 on the
/// party, and 2, given BURNING 2 on the party as its defeat.)
#[test]
fn d16_a_lost_combat_resolves_both_cards_defeats() {
    let mut c = cat().clone();
    let l = c.locations.get_mut("shipwreck").unwrap();
    let three = l.cards.iter().find(|k| k.id == "3").unwrap().defeat.clone();
    let mut burning = serde_json::to_value(&three).unwrap();
    burning[0]["status"] = "burning".into();
    l.cards.iter_mut().find(|k| k.id == "2").unwrap().defeat = serde_json::from_value(burning).unwrap();
    c.validate().unwrap();
    let mut s = Divinity::start_with(&c, &options("shipwreck", &["ifan", "sebille"]), 1).unwrap();
    quiet(&mut s);
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: true });
    ok_with(&c, &mut s, 0, A::Travel { to: Some("3".into()) });
    ok_with(&c, &mut s, 1, A::Travel { to: Some("2".into()) });
    ok_with(&c, &mut s, 0, A::Reveal);
    ok_with(&c, &mut s, 1, A::Reveal);
    ok_with(&c, &mut s, 0, A::Resolve { card: "3".into() });
    ok_with(&c, &mut s, 0, A::Resolve { card: "2".into() });
    assert_eq!(s.combat_stack, vec!["3".to_string(), "2".to_string()], "both on the active combat stack");
    assert!(s.in_combat());
    // Sebille is down; Ifan, on 1 HP, shares his space with every enemy.
    let here = s.origins[0].space;
    for e in &mut s.enemies {
        e.space = here;
    }
    s.origins[1].hp = 0;
    s.origins[1].downed = true;
    s.origins[0].hp = 1;
    assert_eq!(waiting(&s), vec![0]);
    ok_with(&c, &mut s, 0, A::StartTurn);
    let ev = ok_with(&c, &mut s, 0, A::EndTurn);
    assert!(ev.contains(&Ev::CombatEnded { victory: false }), "{ev:?}");
    for o in &s.origins {
        assert_eq!(o.track.status_slot(St::Bleeding), Some(2), "card 3's defeat: {}", o.origin);
        assert_eq!(o.track.status_slot(St::Burning), Some(2), "card 2's defeat: {}", o.origin);
    }
    assert!(s.combat_stack.is_empty());
    assert!(s.discard.contains(&"3".to_string()) && s.discard.contains(&"2".to_string()));
}

// ---- D31: a multicard space gives one card a round ----

/// D31 (L1126–1128): a multicard space reveals one random card, the others
/// going back to the deck, and the space can't be explored again that round:
/// two Origins in the Hold are one group, and the second can't reveal again.
#[test]
fn d31_multicard_space_is_explored_once_a_round() {
    let mut s = Divinity::start(&options("tutorial", &["ifan", "sebille"]), 3).unwrap();
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("3".into()) });
    ok(&mut s, 1, A::Travel { to: Some("3".into()) });
    ok(&mut s, 0, A::Reveal);
    assert_eq!(s.revealed.len(), 1, "one card");
    let card = s.revealed[0].card.clone();
    let other = if card == "3a" { "3b" } else { "3a" };
    assert!(s.deck.contains(&other.to_string()), "the other card is back in the deck");
    let deck = s.deck.clone();
    rejected(&mut s, 1, A::Reveal, "not_exploring"); // not explored again this round
    assert_eq!((s.revealed.len(), &s.deck), (1, &deck));
}

// ---- D47: the interlude ----

/// D47 (L1342–1346): after the interlude downed Origins are revived,
/// everyone is at max HP and Source, every cooldown card is cleared (the
/// skill back in hand, the status gone, the ongoing potion discarded: no one
/// carries it and it is back in its deck) and once-per-location talents are
/// face up again.
#[test]
fn d47_interlude_restores_the_party_and_clears_the_tracks() {
    let mut c = cat().clone();
    let l = c.locations.get_mut("shipwreck").unwrap();
    let card = l.cards.iter_mut().find(|k| k.id == "2").unwrap();
    card.effects = vec![CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false }];
    card.victory.clear();
    card.defeat.clear();
    c.validate().unwrap();
    let mut s = Divinity::start_with(&c, &options("shipwreck", &["ifan", "sebille"]), 1).unwrap();
    let potion = CardRef::Consumable("physical_armor_potion".into());
    {
        let down = &mut s.origins[1];
        down.hp = 0;
        down.downed = true;
        down.source = 0;
        let up = &mut s.origins[0];
        up.hp = 3;
        up.source = 0;
        up.hand.retain(|h| h != "ricochet");
        up.track.place(TrackCard { card: CardRef::Skill("ricochet".into()), face_up: false, flip_at: None }, 4);
        up.track.apply_status(St::Burning, 5);
        up.track.place(TrackCard { card: potion.clone(), face_up: true, flip_at: None }, 3);
        up.talents_used = up.talents.clone();
        assert!(!up.talents_used.is_empty(), "Ifan has a talent to restore");
    }
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: true });
    ok_with(&c, &mut s, 0, A::Travel { to: Some("2".into()) });
    ok_with(&c, &mut s, 0, A::Reveal);
    ok_with(&c, &mut s, 0, A::Resolve { card: "2".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)));
    ok_with(&c, &mut s, 0, A::FinishInterlude);
    let camp = Divinity::campaign(&s, &c).unwrap();
    let n =
        Divinity::start_with(&c, &DivinityOptions { campaign: Some(camp), ..DivinityOptions::default() }, 2).unwrap();
    for o in &n.origins {
        let card = c.origins[&o.origin].at(o.level).unwrap();
        assert!(!o.downed, "{} revived", o.origin);
        assert_eq!((o.hp, o.source), (card.hp, card.source), "{}: max HP and Source", o.origin);
        assert!(o.track.is_empty(), "{}: every cooldown card cleared", o.origin);
        assert_eq!(o.hand, o.skills, "{}: skills back in hand", o.origin);
        assert!(o.talents_used.is_empty(), "{}: talents face up", o.origin);
        assert!(!o.equipped.iter().chain(&o.backpack).any(|i| i == "physical_armor_potion"));
    }
    assert!(n.item_decks["potions"].contains(&"physical_armor_potion".to_string()), "the potion is back in its deck");
}

// ---- D39: a downed Origin's turns ----

/// D39 (L757): a downed Origin's Combat turn only gains AP, capped at 8, and
/// slides its cooldown track: it can't start a turn or act, and stays downed.
/// Its Explore turn only slides the track.
#[test]
fn d39_downed_origin_gains_capped_ap_and_slides() {
    let down = |s: &mut DivinityState| {
        let o = &mut s.origins[1];
        o.downed = true;
        o.hp = 0;
        o.ap = 6;
        o.hand.retain(|x| x != "tentacle_lash");
        o.track.place(TrackCard { card: CardRef::Skill("tentacle_lash".into()), face_up: false, flip_at: None }, 2);
    };
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    down(&mut s);
    assert_eq!(waiting(&s), vec![0], "no turn to take");
    rejected(&mut s, 1, A::StartTurn, "downed");
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    let o = &s.origins[1];
    assert_eq!(o.ap, 8, "6 + 4, capped at 8");
    assert_eq!(o.track.find(&CardRef::Skill("tentacle_lash".into())), Some(1), "slid");
    assert!(o.downed && o.hp == 0);

    let mut s = Divinity::start(&options("tutorial", &["ifan", "sebille"]), 7).unwrap();
    down(&mut s);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    assert_eq!(waiting(&s), vec![0], "no Explore turn to take");
    let o = &s.origins[1];
    assert_eq!(o.track.find(&CardRef::Skill("tentacle_lash".into())), Some(1), "slid");
    assert_eq!(o.ap, 6, "no AP outside combat");
}

// ---- D48: Unrestricted Talents frees talents, not skills ----

/// Shipwreck until the level-up exit 5b is revealed and taken: the interlude
/// of a level-1 party, levelling up.
fn to_interlude(party: &[&str], opts: impl Fn(&mut DivinityOptions)) -> DivinityState {
    let mut o = options("shipwreck", party);
    opts(&mut o);
    (0..200u64)
        .find_map(|seed| {
            let mut s = Divinity::start(&o, seed).unwrap();
            ok(&mut s, 0, A::ChooseRound { explore: true });
            for seat in 0..party.len() as Seat {
                ok(&mut s, seat, A::Travel { to: Some("5".into()) });
            }
            ok(&mut s, 0, A::Reveal);
            if s.revealed[0].card != "5b" {
                return None;
            }
            ok(&mut s, 0, A::Resolve { card: "5b".into() });
            Some(s)
        })
        .expect("some seed reveals 5b")
}

/// D48 (L1845): with Unrestricted Talents a level-1 Origin levelling up
/// takes a level-3 talent (Opportunist), but still no skill above its level:
/// Fireball (level 3) is refused for its level even with the Pyrokinetic
/// Training it would need, while a level-2 skill is fine.
#[test]
fn d48_unrestricted_talents_not_skills() {
    let mut s = to_interlude(&["sebille"], |o| o.unrestricted_talents = true);
    assert_eq!(s.origins[0].level, 2);
    let up = |learn: &str| A::LevelUp {
        talent: Some("opportunist".into()),
        learn: learn.into(),
        respec: vec![("leech".into(), "pyrokinetic_training".into())],
    };
    let e = rejected(&mut s, 0, up("fireball"), "skill_set"); // a level-3 skill at level 2
    assert!(e.message.contains("above level 2"), "refused for its level: {}", e.message);
    ok(&mut s, 0, up("pin_down"));
    let o = &s.origins[0];
    assert!(o.talents.contains(&"opportunist".to_string()), "the level-3 talent is taken");
    assert!(o.skills.contains(&"pin_down".to_string()));
}

// ---- D06, D07: DIFFICULT TERRAIN on an enemy's route, in play ----

/// D06 (L1691): a minion with 1 movement left next to a DIFFICULT TERRAIN
/// space on its route stops without entering it. The Lackey (movement 2) in
/// the tutorial's #1 goes for Ifan in #3: #2 costs 1, the DIFFICULT TERRAIN
/// t1 would cost 2, so it stops in #2.
#[test]
fn d06_minion_stops_before_difficult_terrain() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 20);
    s.enemies[0].space = ix(&s, "1");
    s.origins[0].space = ix(&s, "3");
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    let id = s.enemies[0].id;
    assert_eq!(targeted(&ev, id), Some(Who::Origin(0)));
    assert_eq!(s.enemies[0].space, ix(&s, "2"), "stopped before t1: {ev:?}");
    assert!(!ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(_), .. })), "out of range: no attack");
}

/// D07 (L1812): a Boss moving for a tactic ignores DIFFICULT TERRAIN: the
/// Warden's Strike (move 2, range 0) from #3 goes through the DIFFICULT
/// TERRAIN t1 into Ifan's #2 and strikes.
#[test]
fn d07_boss_moves_through_difficult_terrain() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Boss { boss: "the_warden".into() };
    e.hp = 40;
    e.max_hp = 40;
    e.tactics = vec!["w_strike".into()];
    e.track = Track::new(5);
    e.ap = 0;
    let id = e.id;
    s.enemies[0].space = ix(&s, "3");
    s.origins[0].space = ix(&s, "2");
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    let moved: Vec<&Ev> = ev.iter().filter(|e| matches!(e, Ev::Moved { who: Who::Enemy(x), .. } if *x == id)).collect();
    assert_eq!(s.enemy(id).unwrap().space, ix(&s, "2"), "2 spaces, t1 included: {moved:?}");
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == id)), "and it struck");
}

// ---- D11: a downed Origin in an area attack that applies POISONED ----

/// D11 (L749, L752, L1548): a downed Origin in the target space of an area
/// attack that applies POISONED takes no damage but gains POISONED. (The
/// Lackey's attack made an area attack with POISONED 2; Sebille lies downed
/// in Ifan's space.)
#[test]
fn d11_downed_origin_in_a_poisoning_area_attack() {
    use athlas_engine::divinity::attack::{StatusGrant, Targets};
    let mut c = cat().clone();
    let a = &mut c.minions.get_mut("darkhans_lackey").unwrap().standard.attack;
    a.targets = Targets::Area;
    a.statuses = vec![StatusGrant { status: St::Poisoned, cooldown: 2 }];
    let mut s = duel_with(&c, &["ifan", "sebille"], "darkhans_lackey", 28);
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    ok_with(&c, &mut s, 0, A::StartTurn);
    let ev = ok_with(&c, &mut s, 0, A::EndTurn);
    assert!(s.origins[0].hp < 30, "Ifan, the target, is hit: {ev:?}");
    assert!(s.origins[0].track.has(St::Poisoned));
    let o = &s.origins[1];
    assert_eq!((o.hp, o.downed), (0, true), "no damage to the downed Origin");
    assert!(o.track.has(St::Poisoned), "but POISONED is placed");
}

// ---- D38, D43: statuses from an attack, in play ----

/// The Long Sword made to apply `status` for 2 on a hit.
fn sword_with(status: St) -> Catalogue {
    use athlas_engine::divinity::attack::StatusGrant;
    let mut c = cat().clone();
    let a = &mut c.items.get_mut("long_sword").unwrap().action.as_mut().unwrap().attack;
    a.statuses = vec![StatusGrant { status, cooldown: 2 }];
    c
}

/// The Red Prince swings the Long Sword at `enemy` with one hit on the dice.
fn swing(c: &Catalogue, s: &mut DivinityState, enemy: u32) -> Vec<Ev> {
    ok_with(c, s, 0, A::StartTurn);
    let mut ev = ok_with(c, s, 0, use_card(CardUse::Item("long_sword".into()), Aim::Enemy(enemy)));
    set_dice(s, vec![die(Colour::Red, 1, false), die(Colour::Red, 0, false)]);
    ev.extend(ok_with(c, s, 0, A::Accept));
    ev
}

/// D43 (L1482): an attack whose damage armor absorbs entirely still applies
/// its status: one hit of the Long Sword on the Marsh Troll (3 physical
/// armor) takes no HP, and BLEEDING is placed.
#[test]
fn d43_status_applied_when_armor_absorbs_everything() {
    let c = sword_with(St::Bleeding);
    let mut s = duel_with(&c, &["red_prince"], "marsh_troll", 34);
    let id = s.enemies[0].id;
    let ev = swing(&c, &mut s, id);
    let e = s.enemy(id).unwrap();
    assert_eq!(e.hp, 34, "armor took it all: {ev:?}");
    assert!(!ev.iter().any(|x| matches!(x, Ev::Damaged { who: Who::Enemy(_), .. })));
    assert!(e.track.has(St::Bleeding), "the status is still applied");
}

/// D38 (L708, L1829): KNOCKED DOWN is not applied to an immovable enemy (the
/// Marsh Troll) or a Boss; a movable minion (the Lackey) does get it.
#[test]
fn d38_knocked_down_spares_immovable_enemies_and_bosses() {
    let c = sword_with(St::KnockedDown);
    let mut s = duel_with(&c, &["red_prince"], "darkhans_lackey", 28);
    let id = s.enemies[0].id;
    swing(&c, &mut s, id);
    assert!(s.enemy(id).unwrap().track.has(St::KnockedDown), "a movable minion is KNOCKED DOWN");

    let mut s = duel_with(&c, &["red_prince"], "marsh_troll", 34);
    let id = s.enemies[0].id;
    swing(&c, &mut s, id);
    assert!(!s.enemy(id).unwrap().track.has(St::KnockedDown), "immovable: not applied");

    let mut s = duel_with(&c, &["red_prince"], "darkhans_lackey", 28);
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Boss { boss: "the_warden".into() };
    e.hp = 40;
    e.max_hp = 40;
    e.tactics = vec!["w_strike".into()];
    e.track = Track::new(5);
    let id = e.id;
    let ev = swing(&c, &mut s, id);
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Origin(0), .. })), "the sword swung: {ev:?}");
    assert!(!s.enemy(id).unwrap().track.has(St::KnockedDown), "a Boss: not applied");
}

// ---- D01: five dice of a colour, in play ----

/// D01 (L1511): an attack whose effects add up to 7 red dice rolls only 5.
/// (The Long Sword given 7 red dice.)
#[test]
fn d01_seven_red_dice_roll_five() {
    use athlas_engine::divinity::dice::Pool;
    let mut c = cat().clone();
    c.items.get_mut("long_sword").unwrap().action.as_mut().unwrap().attack.dice = Pool::new(0, 0, 7);
    let mut s = duel_with(&c, &["red_prince"], "darkhans_lackey", 28);
    let id = s.enemies[0].id;
    ok_with(&c, &mut s, 0, A::StartTurn);
    ok_with(&c, &mut s, 0, use_card(CardUse::Item("long_sword".into()), Aim::Enemy(id)));
    let dice = &s.pending_roll().unwrap().roll.dice;
    assert_eq!(dice.len(), 5);
    assert!(dice.iter().all(|d| d.colour == Colour::Red));
}

// ---- D28: WET laid on a printed WARM space ----

/// D28 (L1138–1140, L1483): an attack that lays WET on a space printed WARM
/// covers the WARM with a WET token, and its own damage gets no WET bonus:
/// the environment goes on after the damage. (The Long Sword made a water
/// attack laying WET; the Galley printed WARM; the Lackey has no magical
/// armor: 2 hits, 2 damage.)
#[test]
fn d28_wet_covers_warm_after_the_damage() {
    let mut c = cat().clone();
    let a = &mut c.items.get_mut("long_sword").unwrap().action.as_mut().unwrap().attack;
    a.outcome = athlas_engine::divinity::attack::Outcome::Damage {
        damage_type: athlas_engine::divinity::damage::DamageType::Water,
    };
    a.environment = Some(Environment::Wet);
    let l = c.locations.get_mut("tutorial").unwrap();
    l.map.spaces.iter_mut().find(|sp| sp.id == "2").unwrap().environment = Some(Environment::Warm);
    c.validate().unwrap();
    let mut s = duel_with(&c, &["red_prince"], "darkhans_lackey", 28);
    let galley = ix_in(&c, &s, "2");
    assert!(!s.map.tokens.contains_key(&galley), "only the printed WARM");
    let id = s.enemies[0].id;
    ok_with(&c, &mut s, 0, A::StartTurn);
    ok_with(&c, &mut s, 0, use_card(CardUse::Item("long_sword".into()), Aim::Enemy(id)));
    set_dice(&mut s, vec![die(Colour::Red, 1, false), die(Colour::Red, 1, false)]);
    let ev = ok_with(&c, &mut s, 0, A::Accept);
    assert_eq!(s.enemy(id).unwrap().hp, 26, "2 hits, no +2 from its own WET: {ev:?}");
    assert_eq!(s.map.tokens.get(&galley), Some(&Environment::Wet), "a WET token covers the WARM");
}
