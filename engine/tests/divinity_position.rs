//! The Divinity position builder: a position as JSON or built in code, the
//! refusals of positions no game could reach (each naming its fault), a
//! built position is playable and the same on the same seed, and it gives
//! the states the usual test set-ups give.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{Track, MINION_TRACK};
use athlas_engine::divinity::position::{Position, PositionEnemy, PositionOrigin, PositionRound};
use athlas_engine::divinity::state::{EnemyKind, Phase, RoundKind, Who, MAX_AP};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityState};
use athlas_engine::Seat;

use crate::divinity_support;
use divinity_support::*;

/// A position using every field.
fn full() -> Position {
    Position::combat("tutorial", &["ifan", "sebille"])
        .reveal("2")
        .table_options()
        .gold(3)
        .origin(0, |o| o.hp(5).ap(3).source(0).hand(&["ricochet"]).status(St::Burning, 2).space("1"))
        .origin(1, |o| o.downed().backpack(&["iron_helmet"]))
        .minion("darkhans_lackey", |e| e.hp(4).space("2").fast().status(St::Frozen, 3))
        .minion("bandit_archer", |e| e.veteran())
}

#[test]
fn json_round_trips_and_builds_the_same_state() {
    let p = full();
    let json = serde_json::to_string_pretty(&p).unwrap();
    let back: Position = serde_json::from_str(&json).unwrap();
    assert_eq!(back, p);
    assert_eq!(back.build(3).unwrap(), p.build(3).unwrap());
    // Written by hand, absent fields take their defaults.
    let text = r#"{
        "location": "tutorial", "party": ["ifan"], "round": "combat", "reveal": "2",
        "origins": [{"hp": 7, "statuses": {"poisoned": 2}}],
        "enemies": [{"minion": "darkhans_lackey", "hp": 3}]
    }"#;
    let p: Position = serde_json::from_str(text).unwrap();
    let built = Position::combat("tutorial", &["ifan"])
        .reveal("2")
        .origin(0, |o| o.hp(7).status(St::Poisoned, 2))
        .minion("darkhans_lackey", |e| e.hp(3));
    assert_eq!(p, built);
    assert_eq!(p.round, PositionRound::Combat);
    assert!(!p.reroll_enemy_rolls && !p.party_breaks_ties, "a quiet table by default");
}

#[test]
fn json_refuses_unknown_fields() {
    refused(serde_json::from_str::<Position>(r#"{"party": ["ifan"], "turn": 3}"#), "unknown field", "position");
    refused(serde_json::from_str::<PositionOrigin>(r#"{"life": 3}"#), "unknown field", "origin");
    refused(serde_json::from_str::<PositionEnemy>(r#"{"minion": "x", "tray": "A"}"#), "unknown field", "enemy");
    refused(serde_json::from_str::<PositionOrigin>(r#"{"statuses": {"sleepy": 1}}"#), "unknown variant", "status");
}

#[test]
fn the_built_state_is_what_the_position_says() {
    let s = full().build(3).unwrap();
    let (o, d) = (&s.origins[0], &s.origins[1]);
    assert_eq!((o.hp, o.ap, o.source, o.space, o.downed), (5, 3, 0, ix(&s, "1"), false));
    assert_eq!(o.hand, vec!["ricochet".to_string()]);
    assert_eq!(o.track.statuses(), vec![St::Burning]);
    assert_eq!(o.track.status_slot(St::Burning), Some(2));
    assert_eq!((d.hp, d.downed), (0, true));
    assert_eq!(d.backpack, vec!["iron_helmet".to_string()]);
    assert!(!s.item_decks.values().flatten().any(|c| c == "iron_helmet"), "the helmet left its deck");
    for item in &cat().origins["sebille"].items {
        if !d.equipped.contains(item) && cat().items.contains_key(item) {
            assert!(s.item_decks.values().flatten().any(|c| c == item), "{item} went back to its deck");
        }
    }
    assert_eq!(s.enemies.len(), 2);
    let (a, b) = (&s.enemies[0], &s.enemies[1]);
    assert_eq!((a.id, a.letter, a.hp, a.space, a.fast), (1, Some('A'), 4, ix(&s, "2"), true));
    assert_eq!(a.track.status_slot(St::Frozen), Some(3));
    assert_eq!(b.kind, EnemyKind::Minion { card: "bandit_archer".into(), veteran: true });
    let vet = cat().minions["bandit_archer"].veteran.hp;
    assert_eq!((b.id, b.letter, b.hp, b.max_hp, b.space, b.fast), (2, Some('B'), vet, vet, o.space, false));
    assert!(s.next_enemy > 2);
    assert_eq!(s.round_kind, RoundKind::Combat);
    assert_eq!(s.phase, Phase::Combat { done: vec![false, false], active: None });
    assert!(s.options.reroll_enemy_rolls && s.options.party_breaks_ties);
    assert_eq!(s.gold, 3);
    assert_eq!(s.combat_stack, vec!["2".to_string()], "the revealed card's combat is under way");
}

#[test]
fn same_seed_same_state() {
    let p = full();
    assert_eq!(p.build(11).unwrap(), p.build(11).unwrap());
    let boss = Position::combat("temple", &["ifan", "sebille"]).boss("the_warden", |e| e);
    let (a, b) = (boss.build(5).unwrap(), boss.build(5).unwrap());
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
}

#[test]
fn a_combat_position_is_playable() {
    let mut s = full().build(3).unwrap();
    assert_eq!(waiting(&s), vec![0], "the downed Origin has no turn");
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    // Without a reveal: the combat is set up directly, in the start space.
    let mut s =
        Position::combat("tutorial", &["ifan", "sebille"]).minion("darkhans_lackey", |e| e.hp(2)).build(1).unwrap();
    assert_eq!(s.round_kind, RoundKind::Combat);
    assert_eq!(s.enemies[0].space, s.origins[0].space, "seat 0's space by default");
    assert_eq!(waiting(&s), vec![0, 1]);
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, use_card(CardUse::Skill("searing_daggers".into()), Aim::Enemy(id)));
    let dice = s.pending_roll().expect("a roll").roll.dice.clone();
    set_dice(&mut s, dice.iter().map(|d| die(d.colour, 2, false)).collect());
    ok(&mut s, 0, A::Accept);
    assert!(s.enemies.is_empty(), "the minion fell");
    assert_eq!(s.round_kind, RoundKind::Combat, "the combat ended in this round");
    assert!(!s.in_combat());
}

#[test]
fn an_explore_position_is_playable() {
    let mut s =
        Position::explore("tutorial", &["ifan"]).origin(0, |o| o.hp(3).backpack(&["healing_potion"])).build(7).unwrap();
    assert_eq!(s.phase, Phase::ChooseRound);
    assert_eq!(s.origins[0].hp, 3);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("2".into()) });
}

#[test]
fn a_boss_is_set_up_as_the_game_sets_it_up() {
    let s = Position::combat("temple", &["ifan", "sebille"]).boss("the_warden", |e| e.hp(10)).build(5).unwrap();
    let w = &s.enemies[0];
    let def = &cat().bosses["the_warden"];
    assert_eq!(w.kind, EnemyKind::Boss { boss: "the_warden".into() });
    assert_eq!((w.letter, w.hp, w.max_hp, w.fast), (None, 10, def.hp[1], def.fast));
    assert_eq!(w.space, ix(&s, &def.space));
    assert_eq!(w.tactics.len(), def.tactics.len());
    assert_eq!(w.track.len(), 5);
}

#[track_caller]
fn refused_position(p: Position, phrase: &str) {
    refused(p.build(7), phrase, &format!("{p:?}"));
}

#[test]
fn impossible_positions_are_refused() {
    let duel = || Position::combat("tutorial", &["ifan", "sebille"]).reveal("2");
    refused_position(Position::explore("nowhere", &["ifan"]), "unknown location nowhere");
    refused_position(Position::explore("tutorial", &["ifan", "nobody"]), "unknown Origin nobody");
    refused_position(Position::explore("tutorial", &["ifan"]).origin(1, |o| o), "2 Origins described for a party of 1");
    refused_position(duel().origin(0, |o| o.space("99")), "ifan: unknown space 99");
    refused_position(duel().origin(0, |o| o.hp(25)), "ifan: HP 25 above the maximum 24");
    refused_position(duel().origin(0, |o| o.hp(0).standing()), "ifan: an Origin on 0 HP is downed");
    refused_position(duel().origin(0, |o| o.downed().hp(3)), "ifan: a downed Origin has 0 HP, not 3");
    refused_position(duel().origin(0, |o| o.ap(MAX_AP + 1)), "ifan: AP 9 above the maximum 8");
    refused_position(duel().origin(0, |o| o.source(9)), "ifan: Source 9 above the card's 1");
    refused_position(duel().origin(0, |o| o.hand(&["fireball_of_doom"])), "ifan: unknown skill fireball_of_doom");
    refused_position(duel().origin(0, |o| o.hand(&["frost_aura"])), "ifan has not learned skill frost_aura");
    refused_position(duel().origin(0, |o| o.backpack(&["golden_spoon"])), "ifan: unknown item golden_spoon");
    refused_position(
        duel().origin(0, |o| o.backpack(&["iron_helmet", "mage_hood", "flame_rune", "leather_cap"])),
        "ifan: 4 items in a backpack of 3",
    );
    refused_position(duel().origin(0, |o| o.equipped(&["healing_potion"])), "ifan: healing_potion is not equipment");
    refused_position(duel().origin(0, |o| o.equipped(&["iron_helmet", "leather_cap"])), "do not fit");
    refused_position(
        duel().origin(0, |o| o.backpack(&["iron_helmet"])).origin(1, |o| o.backpack(&["iron_helmet"])),
        "sebille: no copy of iron_helmet is left in its deck",
    );
    refused_position(
        duel().origin(0, |o| o.status(St::Burning, 6)),
        "ifan: Burning in slot 6, outside the track's 1..=5",
    );
    refused_position(duel().minion("gremlin", |e| e), "unknown minion gremlin");
    refused_position(duel().boss("dragon", |e| e), "unknown Boss dragon");
    refused_position(duel().minion("darkhans_lackey", |e| e.space("99")), "enemy 0: unknown space 99");
    refused_position(duel().minion("darkhans_lackey", |e| e.hp(99)), "darkhans_lackey: HP 99 outside 1..=");
    refused_position(duel().minion("darkhans_lackey", |e| e.hp(0)), "darkhans_lackey: HP 0 outside 1..=");
    refused_position(duel().minion("fire_slug", |e| e.status(St::Burning, 2)), "fire_slug is immune to Burning");
    refused_position(
        duel().minion("darkhans_lackey", |e| e.status(St::Frozen, 4)),
        "Frozen in slot 4, outside the track's 1..=3",
    );
    refused_position(duel().boss("the_warden", |e| e.veteran()), "only minions have a veteran side");
    refused_position(
        duel().enemy(PositionEnemy {
            minion: Some("darkhans_lackey".into()),
            boss: Some("the_warden".into()),
            ..Default::default()
        }),
        "enemy 0: name a minion or a Boss, not both or neither",
    );
    let mut seven = duel();
    for _ in 0..7 {
        seven = seven.minion("darkhans_lackey", |e| e);
    }
    refused_position(seven, "7 minions: at most 6");
    refused_position(Position::combat("tutorial", &["ifan"]), "a Combat position needs an enemy on the map");
    refused_position(duel().each_origin(|o| o.downed()), "a Combat position needs a standing Origin");
    refused_position(
        Position::explore("tutorial", &["ifan"]).reveal("2"),
        "an Explore position has no enemy on the map",
    );
    refused_position(
        Position::explore("tutorial", &["ifan"]).minion("darkhans_lackey", |e| e),
        "an Explore position has no enemy",
    );
    refused_position(Position::combat("tutorial", &["ifan"]).reveal("zz"), "reveal: tutorial has no card zz");
    refused_position(Position::combat("tutorial", &["ifan"]).reveal("2b"), "reveal 2b: space 2 gave [\"2\"]");
    refused_position(
        Position::explore("tutorial", &["ifan"]).reveal("1"),
        "reveal 1: the card did not resolve at once",
    );
}

#[test]
fn items_move_between_origins_and_decks() {
    let s = Position::explore("tutorial", &["ifan", "sebille"])
        .origin(0, |o| o.equipped(&[]).backpack(&["healing_potion"]))
        .origin(1, |o| o.backpack(&["short_bow"]))
        .build(7)
        .unwrap();
    let in_decks = |item: &str| s.item_decks.values().flatten().filter(|c| *c == item).count();
    assert!(s.origins[0].equipped.is_empty());
    assert_eq!(in_decks("healing_potion"), 0, "taken from its deck");
    assert_eq!(in_decks("short_bow"), 0, "passed from Ifan to Sebille");
    assert_eq!(in_decks("leather_armor"), 1, "Ifan's armor went to the bottom of its deck");
    assert_eq!(s.item_decks["equipment_1"].last().map(String::as_str), Some("leather_armor"));
}

#[test]
fn out_of_combat_no_origin_is_on_a_tactical_space() {
    refused_position(
        Position::explore("temple", &["ifan"]).origin(0, |o| o.space("t1")),
        "ifan: out of combat an Origin is never on tactical space t1",
    );
    let s = Position::combat("temple", &["ifan"]).origin(0, |o| o.space("t1")).boss("the_warden", |e| e).build(7);
    assert!(s.is_ok(), "in combat it may be");
}

/// How `duel_with` set up its duel before positions: play to card 2 on a
/// quiet table, then poke the state.
fn duel_played(c: &Catalogue, party: &[&str], minion: &str, hp: u32) -> DivinityState {
    let mut s = Divinity::start_with(c, &options("tutorial", party), 7).expect("setup");
    quiet(&mut s);
    ok_with(c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok_with(c, &mut s, seat, A::Travel { to: Some("2".into()) });
    }
    ok_with(c, &mut s, 0, A::Reveal);
    ok_with(c, &mut s, 0, A::Resolve { card: "2".into() });
    s.enemies.truncate(1);
    poke_duel(c, &mut s, 30, minion, hp);
    s
}

/// How `temple_boss_with` set up its combat before positions.
fn temple_played(party: &[&str]) -> DivinityState {
    let mut s = start("temple", party);
    quiet(&mut s);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok(&mut s, seat, A::Travel { to: Some("3".into()) });
    }
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    for o in &mut s.origins {
        o.hp = 60;
        o.downed = false;
    }
    s
}

#[test]
fn duel_with_is_the_position_but_for_its_hp() {
    for party in [&["ifan"][..], &["ifan", "sebille"], &["ifan", "sebille", "fane"]] {
        let s = duel_position(party, "bandit_archer", 5).build(7).unwrap();
        assert!(s.origins.iter().all(|o| o.hp <= 24));
        let mut played = duel_played(cat(), party, "bandit_archer", 5);
        // duel_with puts everyone on 30 HP, above the 24 a level-1 Origin may have.
        assert_eq!(played, duel(party, "bandit_archer", 5), "{party:?}");
        for (o, p) in played.origins.iter_mut().zip(&s.origins) {
            o.hp = p.hp;
        }
        assert_eq!(s, played, "{party:?}");
    }
}

#[test]
fn temple_boss_with_is_the_position_but_for_its_hp() {
    for party in [&["ifan"][..], &["ifan", "sebille"]] {
        let s = Position::combat("temple", party).reveal("3").each_origin(|o| o.standing()).build(7).unwrap();
        let mut played = temple_played(party);
        let (t, id) = temple_boss(party);
        // temple_boss_with puts everyone on 60 HP, above any level-4 maximum.
        assert_eq!(played, t, "{party:?}");
        assert!(matches!(s.enemy(id).unwrap().kind, EnemyKind::Boss { .. }));
        for (o, p) in played.origins.iter_mut().zip(&s.origins) {
            o.hp = p.hp;
        }
        assert_eq!(s, played, "{party:?}");
    }
}

#[test]
fn tutorial_combat_is_the_position() {
    let mut played = start("tutorial", &["ifan", "sebille"]);
    quiet(&mut played);
    ok(&mut played, 0, A::ChooseRound { explore: true });
    ok(&mut played, 0, A::Travel { to: Some("2".into()) });
    ok(&mut played, 1, A::Travel { to: Some("2".into()) });
    ok(&mut played, 0, A::Reveal);
    ok(&mut played, 0, A::Resolve { card: "2".into() });
    assert_eq!(tutorial_combat_with(cat(), &["ifan", "sebille"]), played);
}

/// What the tray audit's set-up did by hand: play to card 2 with the
/// table's options, let the enemy rolls stand, then poke the state.
fn duel_by_hand(c: &Catalogue, party: &[&str], minion: &str, hp: u32) -> DivinityState {
    let mut s = Divinity::start_with(c, &options("tutorial", party), 7).expect("setup");
    ok_with(c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok_with(c, &mut s, seat, A::Travel { to: Some("2".into()) });
    }
    ok_with(c, &mut s, 0, A::Reveal);
    ok_with(c, &mut s, 0, A::Resolve { card: "2".into() });
    while s.enemy_roll().is_some() || s.tie().is_some() {
        if let Some(t) = s.tie().cloned() {
            let Who::Origin(o) = t.options[0] else { unreachable!() };
            ok_with(c, &mut s, 0, A::BreakTie { target: Aim::Origin(o) });
        } else {
            let seat = waiting(&s)[0];
            ok_with(c, &mut s, seat, A::Accept);
        }
    }
    poke_duel(c, &mut s, 20, minion, hp);
    s
}

/// The pokes both set-ups made: every Origin standing in the Galley on
/// `origin_hp`, the first enemy made a SLOW `minion` there on `hp`.
fn poke_duel(c: &Catalogue, s: &mut DivinityState, origin_hp: u32, minion: &str, hp: u32) {
    let galley = ix_in(c, s, "2");
    for o in &mut s.origins {
        o.hp = origin_hp;
        o.downed = false;
        o.space = galley;
    }
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Minion { card: minion.into(), veteran: false };
    e.hp = hp;
    e.max_hp = c.minions[minion].standard.hp;
    e.fast = false;
    e.space = galley;
    e.track = Track::new(MINION_TRACK);
}

#[test]
fn the_position_is_the_state_played_and_poked_by_hand() {
    for party in [&["ifan"][..], &["ifan", "sebille"], &["vali"], &["farzanah", "red_prince"]] {
        let p = Position::combat("tutorial", party)
            .reveal("2")
            .table_options()
            .each_origin(|o| o.hp(20).space("2"))
            .minion("darkhans_lackey", |e| e.hp(28).space("2"));
        assert_eq!(p.build(7).unwrap(), duel_by_hand(cat(), party, "darkhans_lackey", 28), "{party:?}");
    }
}
