//! Audit of the location rules R149–R195 of the facts file (sections
//! 1.22–1.29: the map, location cards, challenge rolls, spawning, continuing
//! events, exits, the journal, finishing a location and the interlude).
//! Each test here covers a rule no other test checked; the map of every rule
//! to its tests is `divinity_coverage/r149-r195.md`. Scenarios use the
//! Shipwreck, some with a card rewritten in a cloned catalogue, as
//! `divinity_play::d36_paused_time` does.

use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::content::{
    BonusDie, CardEffect, Catalogue, ChallengeResult, ConsumableDeck, LocationCard, LocationDef, Rollers,
    Who as CardWho,
};
use athlas_engine::divinity::cooldown::{Track, MINION_TRACK, ORIGIN_TRACK};
use athlas_engine::divinity::damage::{DamageType, Environment};
use athlas_engine::divinity::dice::Colour;
use athlas_engine::divinity::interlude::MerchantDeck;
use athlas_engine::divinity::state::{Enemy, EnemyKind, Finish, Phase};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, Viewer};

use crate::divinity_support;
use divinity_support::*;

/// The standard catalogue with the Shipwreck edited.
fn shipwreck_with(edit: impl FnOnce(&mut LocationDef)) -> Catalogue {
    let mut c = cat().clone();
    edit(c.locations.get_mut("shipwreck").unwrap());
    c.validate().expect("the edited catalogue validates");
    c
}

fn card<'a>(l: &'a mut LocationDef, id: &str) -> &'a mut LocationCard {
    l.cards.iter_mut().find(|k| k.id == id).unwrap()
}

/// Make a card a plain one: these effects, no challenge, no combat.
fn plain(l: &mut LocationDef, id: &str, effects: Vec<CardEffect>) {
    let k = card(l, id);
    k.challenge = None;
    k.effects = effects;
    k.victory.clear();
    k.defeat.clear();
}

fn options(party: &[&str]) -> DivinityOptions {
    DivinityOptions {
        party: party.iter().map(|p| p.to_string()).collect(),
        location: Some("shipwreck".into()),
        ..DivinityOptions::default()
    }
}

fn start(c: &Catalogue, party: &[&str], seed: u64) -> DivinityState {
    Divinity::start_with(c, &options(party), seed).expect("setup")
}

#[track_caller]
fn ok(c: &Catalogue, s: &mut DivinityState, seat: Seat, a: A) {
    if let Err(e) = Divinity::apply_with(c, s, seat, a.clone()) {
        panic!("{a:?} by seat {seat} was rejected: {}", e.message);
    }
}

/// An Explore round: every seat travels (None: stays), then the first group reveals.
fn explore(c: &Catalogue, s: &mut DivinityState, to: &[Option<&str>]) {
    ok(c, s, 0, A::ChooseRound { explore: true });
    for (seat, t) in to.iter().enumerate() {
        ok(c, s, seat as Seat, A::Travel { to: t.map(String::from) });
    }
}

fn ix(c: &Catalogue, id: &str) -> usize {
    c.locations["shipwreck"].map.ix(id).unwrap()
}

fn held(s: &DivinityState, seat: usize, item: &str) -> usize {
    let o = &s.origins[seat];
    o.equipped.iter().chain(&o.backpack).chain(o.runes.iter().map(|r| &r.rune)).filter(|i| *i == item).count()
}

fn minion(id: u32, letter: char, space: usize) -> Enemy {
    Enemy {
        id,
        letter: Some(letter),
        kind: EnemyKind::Minion { card: "crocodile".into(), veteran: false },
        hp: 20,
        max_hp: 20,
        space,
        fast: false,
        track: Track::new(MINION_TRACK),
        ap: 0,
        tactics: vec![],
    }
}

/// A Shipwreck whose card 1 is the challenge `ch` (results: 0, 1, 3+ hits).
fn challenge_card(rollers: Rollers, bonus: Vec<BonusDie>) -> Catalogue {
    shipwreck_with(|l| {
        let ch = card(l, "1").challenge.as_mut().unwrap();
        ch.rollers = rollers;
        ch.bonus = bonus;
        ch.results = vec![
            ChallengeResult { min_hits: 0, effects: vec![] },
            ChallengeResult { min_hits: 1, effects: vec![CardEffect::Gold { amount: 1 }] },
            ChallengeResult {
                min_hits: 2,
                effects: vec![
                    CardEffect::Gold { amount: 5 },
                    CardEffect::RandomConsumable { deck: ConsumableDeck::Potions },
                ],
            },
        ];
    })
}

// ---- The location map (R149–R156) ----

/// R149 (L1086): every shipped location's map is a graph of numbered and
/// tactical spaces joined by paths; every space is reachable from the start
/// when locks are ignored, and every card of the deck names a numbered space.
#[test]
fn r149_every_location_map_is_a_graph_of_numbered_and_tactical_spaces() {
    use athlas_engine::divinity::map::{path_ixs, Graph, MapState};
    for l in cat().locations.values() {
        l.map.validate().unwrap();
        let numbered = l.map.spaces.iter().filter(|s| s.number.is_some()).count();
        assert!(numbered >= 2, "{}: numbered spaces", l.id);
        for s in &l.map.spaces {
            assert!(l.map.paths.iter().any(|p| p.a == s.id || p.b == s.id), "{}: space {} has no path", l.id, s.id);
            if s.tactical() {
                assert!(s.name.is_empty(), "{}: a tactical space has no name (L1114)", l.id);
            }
        }
        for k in &l.cards {
            if let Some(n) = k.space {
                assert!(l.map.by_number(n).is_some(), "{}: card {} names no space", l.id, k.id);
            }
        }
        // With every lock open, the whole map hangs together.
        let mut open = l.map.clone();
        open.paths.iter_mut().for_each(|p| p.locked = false);
        open.spaces.iter_mut().for_each(|s| s.locked = false);
        let ixs = path_ixs(&open);
        let st = MapState::default();
        let g = Graph::new(&open, &st, &ixs);
        let from = open.ix(&l.start).unwrap();
        assert!(g.distances(from).iter().all(Option::is_some), "{}: the map is one graph", l.id);
    }
}

/// R150 (L1092–1094) in play: an Origin can't travel across the Shipwreck's
/// locked path #3–#4 until a card puts the key token on it.
#[test]
fn r150_key_token_from_a_card_opens_the_locked_path_in_play() {
    let c = shipwreck_with(|l| {
        plain(l, "3", vec![CardEffect::Key { a: "4".into(), b: "3".into() }]);
        // Lock the way round through the Cliff Path too.
        l.map.paths.iter_mut().filter(|p| p.a == "4" && p.b == "5").for_each(|p| p.locked = true);
    });
    let mut s = start(&c, &["ifan"], 1);
    ok(&c, &mut s, 0, A::ChooseRound { explore: true });
    rejected_with(&c, &mut s, 0, A::Travel { to: Some("4".into()) }, "unreachable");
    ok(&c, &mut s, 0, A::Travel { to: Some("3".into()) });
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "3".into() });
    assert_eq!(s.map.keys.len(), 1, "the key token lies on the path");
    explore(&c, &mut s, &[Some("4")]);
    assert_eq!(s.origins[0].space, ix(&c, "4"), "the path is open");
}

/// R153 (L1124–1128): the Cliff Path is multicard: one of its cards at
/// random, the others stay in the deck; another round explores it again.
#[test]
fn r153_multicard_space_reveals_one_random_card_a_round() {
    let c = shipwreck_with(|l| plain(l, "5a", vec![CardEffect::Gold { amount: 1 }]));
    let mut first = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut s = start(&c, &["ifan"], seed);
        explore(&c, &mut s, &[Some("5")]);
        ok(&c, &mut s, 0, A::Reveal);
        assert_eq!(s.revealed.len(), 1, "one card only");
        let got = s.revealed[0].card.clone();
        let other = if got == "5a" { "5b" } else { "5a" };
        assert!(s.deck.contains(&other.to_string()), "the unrevealed card is back in the deck");
        first.insert(got.clone());
        if got == "5a" {
            // Next round the space gives the remaining card.
            ok(&c, &mut s, 0, A::Resolve { card: "5a".into() });
            explore(&c, &mut s, &[None]);
            ok(&c, &mut s, 0, A::Reveal);
            assert_eq!(s.revealed[0].card, "5b");
        }
    }
    assert_eq!(first.len(), 2, "either card can come first: {first:?}");
}

/// R155 (L1163–1173): the +2 applies to anyone in the space taking that
/// damage from any effect, here a location card's water damage in a WET space.
#[test]
fn r155_environment_boosts_damage_from_a_location_card() {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::Damage { amount: 3, ty: DamageType::Water, who: CardWho::Group }]);
    });
    let hurt = |env: Option<Environment>| {
        let mut s = start(&c, &["ifan"], 1);
        s.origins[0].equipped.clear();
        if let Some(e) = env {
            s.map.tokens.insert(ix(&c, "1"), e);
        }
        let hp = s.origins[0].hp;
        explore(&c, &mut s, &[None]);
        ok(&c, &mut s, 0, A::Reveal);
        ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
        hp - s.origins[0].hp
    };
    assert_eq!(hurt(None), 3);
    assert_eq!(hurt(Some(Environment::Wet)), 5, "WET: +2 water damage");
    assert_eq!(hurt(Some(Environment::Warm)), 3, "WARM boosts fire only");
}

// ---- Challenge rolls (R160–R163) ----

/// R160 (L1180): a card for "1 Origin chosen" lets one Origin of the group
/// roll, and only that roll resolves; the others roll nothing.
#[test]
fn r160_one_chosen_origin_rolls_for_the_group() {
    let c = challenge_card(Rollers::One, vec![]);
    let mut s = start(&c, &["ifan", "sebille"], 1);
    explore(&c, &mut s, &[None, None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.challenge_waiting(&c), vec![0, 1], "either may be chosen");
    ok(&c, &mut s, 1, A::Challenge { auto: None, keywords: vec![] });
    set_dice(&mut s, vec![die(Colour::White, 1, false)]);
    ok(&c, &mut s, 1, A::Accept);
    assert!(s.challenge.is_none(), "nobody else rolls");
    assert_eq!(s.gold, 1, "the one result, once");
    assert!(s.discard.contains(&"1".to_string()));
}

/// R161 (L1182, L1511): 3 white dice, one bonus die of the card's colour per
/// condition met (a keyword, Origins present), never more than 5 of a colour.
#[test]
fn r161_challenge_dice_bonus_dice_and_the_cap() {
    let bonus = vec![
        BonusDie { keyword: Some("MERCENARY".into()), origins_present: None, colour: Colour::Blue },
        BonusDie { keyword: Some("SCHOLAR_NOBODY_HAS".into()), origins_present: None, colour: Colour::Red },
        BonusDie { keyword: None, origins_present: Some(2), colour: Colour::Red },
        BonusDie { keyword: None, origins_present: Some(3), colour: Colour::Red },
    ];
    let c = challenge_card(Rollers::Each, bonus);
    let mut s = start(&c, &["ifan", "sebille"], 1);
    explore(&c, &mut s, &[None, None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    let count =
        |s: &DivinityState, col: Colour| s.pending_roll().unwrap().roll.dice.iter().filter(|d| d.colour == col).count();
    ok(&c, &mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    assert_eq!((count(&s, Colour::White), count(&s, Colour::Blue), count(&s, Colour::Red)), (3, 1, 1), "Ifan");
    ok(&c, &mut s, 0, A::Accept);
    ok(&c, &mut s, 1, A::Challenge { auto: None, keywords: vec![] });
    assert_eq!((count(&s, Colour::White), count(&s, Colour::Blue), count(&s, Colour::Red)), (3, 0, 1), "Sebille");

    // Six white dice by the conditions: five are rolled.
    let bonus = vec![BonusDie { keyword: None, origins_present: Some(1), colour: Colour::White }; 3];
    let c = challenge_card(Rollers::Each, bonus);
    let mut s = start(&c, &["ifan"], 1);
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    ok(&c, &mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    assert_eq!(count(&s, Colour::White), 5, "no more than 5 dice of a colour");
}

/// R162 (L1184): only hits count toward the result; specials don't.
#[test]
fn r162_specials_do_not_count_in_a_challenge() {
    let c = challenge_card(Rollers::Each, vec![]);
    let mut s = start(&c, &["ifan"], 1);
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    ok(&c, &mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    // 1 hit and 3 specials.
    set_dice(&mut s, vec![die(Colour::White, 1, true), die(Colour::Blue, 0, true), die(Colour::Blue, 0, true)]);
    ok(&c, &mut s, 0, A::Accept);
    assert_eq!(s.gold, 1, "the 1-hit row, not the 2+ row");
}

/// R163 (L1184): the card flips only once every roller has rolled; each
/// roller then resolves the row of their own total, and the card is discarded.
#[test]
fn r163_each_roller_resolves_their_own_row_after_all_rolls() {
    let c = challenge_card(Rollers::Each, vec![]);
    let mut s = start(&c, &["ifan", "sebille"], 1);
    explore(&c, &mut s, &[None, None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    let packs = |s: &DivinityState| [s.origins[0].backpack.len(), s.origins[1].backpack.len()];
    let before = packs(&s);
    ok(&c, &mut s, 1, A::Challenge { auto: None, keywords: vec![] });
    set_dice(&mut s, vec![die(Colour::White, 1, false), die(Colour::White, 1, false)]);
    ok(&c, &mut s, 1, A::Accept);
    assert_eq!(s.gold, 0, "nothing resolves before every roll is made");
    assert!(s.challenge.is_some() && !s.discard.contains(&"1".to_string()));
    ok(&c, &mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    set_dice(&mut s, vec![die(Colour::White, 0, false)]);
    ok(&c, &mut s, 0, A::Accept);
    assert_eq!(s.gold, 5, "Sebille's 2 hits: 5 gold; Ifan's 0: nothing");
    assert_eq!(packs(&s), [before[0], before[1] + 1], "the potion goes to the roller who earned it");
    assert!(s.challenge.is_none() && s.discard.contains(&"1".to_string()));
}

// ---- Spawning (R168, R170, R171) ----

/// R168 (L1235): one card may spawn enemies in several spaces, not only the
/// one explored: the Beach card puts a Hydrosophist on #2 and an Archer on
/// the tactical space between the Beach and the Tide Pools.
#[test]
fn r168_a_card_spawns_in_several_spaces() {
    let c = cat();
    let mut s = start(c, &["ifan", "sebille"], 1);
    explore(c, &mut s, &[Some("2"), Some("2")]);
    ok(c, &mut s, 0, A::Reveal);
    ok(c, &mut s, 0, A::Resolve { card: "2".into() });
    let at = |m: &str| {
        s.enemies
            .iter()
            .filter(|e| matches!(&e.kind, EnemyKind::Minion { card, .. } if card == m))
            .map(|e| e.space)
            .collect::<Vec<_>>()
    };
    assert_eq!(at("bandit_hydrosophist"), vec![ix(c, "2")]);
    assert_eq!(at("bandit_archer"), vec![ix(c, "t1")], "spawned away from the explored space");
}

/// R170 (L1245–1247): a Boss takes no tray and does not count toward the 6;
/// with all 6 trays in use, further spawns are ignored.
#[test]
fn r170_bosses_do_not_count_and_a_seventh_minion_is_ignored() {
    let c = cat();
    let reveal_lackeys = |extra: &[char], boss: bool| {
        let mut s = start(c, &["ifan", "sebille", "red_prince"], 1);
        explore(c, &mut s, &[Some("3"), Some("3"), Some("3")]);
        for (i, l) in extra.iter().enumerate() {
            s.enemies.push(minion(100 + i as u32, *l, ix(c, "5")));
        }
        if boss {
            s.enemies.push(Enemy {
                letter: None,
                kind: EnemyKind::Boss { boss: "the_warden".into() },
                track: Track::new(ORIGIN_TRACK),
                ..minion(99, 'Z', ix(c, "5"))
            });
        }
        ok(c, &mut s, 0, A::Reveal);
        ok(c, &mut s, 0, A::Resolve { card: "3".into() });
        s.enemies
            .iter()
            .filter(|e| matches!(&e.kind, EnemyKind::Minion { card, .. } if card == "darkhans_lackey"))
            .map(|e| e.letter.unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(reveal_lackeys(&['A', 'B', 'C', 'D', 'E'], true), vec!['F'], "the Boss takes no tray");
    assert_eq!(reveal_lackeys(&['A', 'B', 'C', 'D', 'E', 'F'], false), Vec::<char>::new(), "never a seventh");
    assert_eq!(reveal_lackeys(&[], true), vec!['A', 'B', 'C'], "3 players: all 3 Lackeys");
}

/// R171 (L1253): a minion spawns on its Veteran side only when the card says so.
#[test]
fn r171_veteran_side_only_when_the_card_says() {
    let lackey = &cat().minions["darkhans_lackey"];
    assert_ne!(lackey.standard.hp, lackey.veteran.hp, "the sides differ");
    for veteran in [false, true] {
        let c = shipwreck_with(|l| {
            if let CardEffect::Spawn { rows } = &mut card(l, "3").effects[0] {
                rows[0].veteran = veteran;
            }
        });
        let mut s = start(&c, &["ifan"], 1);
        explore(&c, &mut s, &[Some("3")]);
        ok(&c, &mut s, 0, A::Reveal);
        ok(&c, &mut s, 0, A::Resolve { card: "3".into() });
        let side = if veteran { &lackey.veteran } else { &lackey.standard };
        assert!(!s.enemies.is_empty());
        for e in &s.enemies {
            assert_eq!(e.kind, EnemyKind::Minion { card: "darkhans_lackey".into(), veteran });
            assert_eq!((e.hp, e.max_hp), (side.hp, side.hp));
        }
    }
}

// ---- Continuing events (R173, R174, R176) ----

/// R173 (L1259): "resolve another card" resolves it at once from the deck;
/// once it has left the deck, a second card telling to resolve it does nothing.
#[test]
fn r173_resolve_another_card_only_while_it_is_in_the_deck() {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::Resolve { card: "4".into() }]);
        plain(l, "2", vec![CardEffect::Resolve { card: "4".into() }]);
    });
    let mut s = start(&c, &["ifan"], 1);
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.gold, 2, "card 4: 2 gold");
    assert_eq!(held(&s, 0, "flame_rune"), 1, "and the rune");
    assert!(!s.deck.contains(&"4".to_string()) && s.discard.contains(&"4".to_string()));
    explore(&c, &mut s, &[Some("2")]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "2".into() });
    assert_eq!(s.gold, 2, "card 4 is not resolved again");
    assert_eq!(s.discard.iter().filter(|k| *k == "4").count(), 1);
}

/// R174 (L1260): a card placed on the map lies on its space with the pieces
/// and environment there; it leaves the deck and is not discarded, and
/// exploring the space later resolves its "when explored" text.
#[test]
fn r174_card_placed_on_the_map_stays_with_pieces_and_effects() {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::PlaceSelf { space: "1".into() }]);
        card(l, "1").when_explored = vec![CardEffect::Gold { amount: 2 }];
    });
    let mut s = start(&c, &["ifan"], 1);
    let shallows = ix(&c, "1");
    s.map.tokens.insert(shallows, Environment::Oily);
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.map.placed.get(&shallows), Some(&"1".to_string()));
    assert!(!s.deck.contains(&"1".to_string()) && !s.discard.contains(&"1".to_string()));
    assert_eq!(s.origins[0].space, shallows, "the Origin is on the card");
    assert_eq!(s.map.tokens.get(&shallows), Some(&Environment::Oily), "so is the environment");
    assert_eq!(s.gold, 0);
    let deck = s.deck.clone();
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.gold, 2, "its 'when explored' text");
    assert_eq!(s.deck, deck, "no card drawn");
    assert_eq!(s.map.placed.get(&shallows), Some(&"1".to_string()), "it stays on the map");
}

/// R176 (L1263): a card returned to the deck goes back in numerical order;
/// its space can be explored again to resolve it again; from a multicard
/// space it joins the random draws again.
#[test]
fn r176_card_returned_to_the_deck() {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::Gold { amount: 1 }, CardEffect::ReturnToDeck]);
        plain(l, "5a", vec![CardEffect::Gold { amount: 1 }, CardEffect::ReturnToDeck]);
    });
    let mut s = start(&c, &["ifan"], 1);
    let order = s.deck.clone();
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.deck, order, "back in numerical order");
    assert!(!s.discard.contains(&"1".to_string()));
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.gold, 2, "explored and resolved again");

    // From the multicard Cliff Path: 5a keeps coming back until 5b is drawn.
    let mut seen_5a_twice = false;
    for seed in 0..30 {
        let mut s = start(&c, &["ifan"], seed);
        let mut fives = 0;
        explore(&c, &mut s, &[Some("5")]);
        loop {
            ok(&c, &mut s, 0, A::Reveal);
            let got = s.revealed[0].card.clone();
            if got == "5b" {
                break;
            }
            fives += 1;
            ok(&c, &mut s, 0, A::Resolve { card: got });
            assert!(s.deck.contains(&"5a".to_string()) && s.deck.contains(&"5b".to_string()));
            explore(&c, &mut s, &[None]);
        }
        seen_5a_twice |= fives >= 2;
    }
    assert!(seen_5a_twice, "a returned 5a is drawn again at random");
}

// ---- Exits and the journal (R181, R182) ----

/// R181 (L1292): an exit that can't go to the holding area must be used at once.
#[test]
fn r181_mandatory_exit_cannot_be_held() {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false }]);
    });
    let mut s = start(&c, &["ifan"], 1);
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    rejected_with(&c, &mut s, 0, A::Hold { card: "1".into() }, "not_holdable");
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert!(matches!(&s.phase, Phase::Interlude(i) if i.to == "shipwreck"));
}

/// R182 (L1316): a revealed journal card goes to the envelope, which every
/// player may review and which is kept between locations and sessions.
#[test]
fn r182_journal_envelope_is_visible_and_kept() {
    let c = shipwreck_with(|l| {
        plain(
            l,
            "1",
            vec![
                CardEffect::Journal { card: 2 },
                CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false },
            ],
        );
    });
    let mut s = start(&c, &["ifan", "sebille"], 1);
    explore(&c, &mut s, &[None, None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.journal, vec![2]);
    for v in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(Divinity::view(&s, v).journal, vec![2], "{v:?} may review it");
    }
    ok(&c, &mut s, 0, A::FinishInterlude);
    let camp = Divinity::campaign(&s, &c).unwrap();
    assert_eq!(camp.journal, vec![2]);
    let next =
        Divinity::start_with(&c, &DivinityOptions { campaign: Some(camp), ..DivinityOptions::default() }, 2).unwrap();
    assert_eq!(next.journal, vec![2], "kept for the next location");
}

// ---- Restarting and the interlude (R185, R186, R190–R192) ----

/// R185 (L1332–1336): after a restart, a specific reward (the rune) is not
/// found again but a generic one (gold, a random potion) is; the deck is
/// whole again and the gold is gone.
#[test]
fn r185_restart_regains_generic_rewards_only() {
    let c = shipwreck_with(|l| {
        plain(
            l,
            "1",
            vec![
                CardEffect::Rune { rune: "flame_rune".into() },
                CardEffect::Gold { amount: 2 },
                CardEffect::RandomConsumable { deck: ConsumableDeck::Potions },
            ],
        );
        plain(l, "2", vec![CardEffect::Restart]);
    });
    let mut s = start(&c, &["ifan"], 1);
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    let pack = s.origins[0].backpack.len();
    assert_eq!((s.gold, held(&s, 0, "flame_rune")), (2, 1));
    explore(&c, &mut s, &[Some("2")]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "2".into() });
    assert_eq!(s.phase, Phase::Finished { result: Finish::Restart });
    let camp = Divinity::campaign(&s, &c).unwrap();
    assert_eq!((camp.location.as_str(), camp.gold), ("shipwreck", 0), "gold discarded");
    let mut s =
        Divinity::start_with(&c, &DivinityOptions { campaign: Some(camp), ..DivinityOptions::default() }, 3).unwrap();
    assert_eq!(s.deck, c.locations["shipwreck"].cards.iter().map(|k| k.id.clone()).collect::<Vec<_>>());
    assert_eq!(held(&s, 0, "flame_rune"), 1, "items kept");
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(s.gold, 2, "gold found again");
    assert_eq!(held(&s, 0, "flame_rune"), 1, "the rune is not found again");
    assert_eq!(s.origins[0].backpack.len(), pack + 1, "a second potion, no second rune");
}

/// R186 (L1340–1348): after the interlude every Origin is revived, at max HP
/// and Source, with an empty cooldown track and once-per-location talents
/// ready again.
#[test]
fn r186_next_location_starts_revived_healed_cleared_and_refilled() {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false }]);
    });
    let mut s = start(&c, &["ifan", "sebille"], 1);
    explore(&c, &mut s, &[None, None]);
    {
        let down = &mut s.origins[1];
        down.hp = 0;
        down.downed = true;
        down.source = 0;
        down.track.apply_status(St::Poisoned, 3);
        let up = &mut s.origins[0];
        up.hp = 3;
        up.source = 0;
        up.track.apply_status(St::Bleeding, 2);
        up.talents_used = up.talents.clone();
    }
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    ok(&c, &mut s, 0, A::FinishInterlude);
    let camp = Divinity::campaign(&s, &c).unwrap();
    let n =
        Divinity::start_with(&c, &DivinityOptions { campaign: Some(camp), ..DivinityOptions::default() }, 2).unwrap();
    for o in &n.origins {
        let card = cat().origins[&o.origin].at(o.level).unwrap();
        assert!(!o.downed);
        assert_eq!((o.hp, o.source), (card.hp, card.source), "{}", o.origin);
        assert!(o.track.is_empty() && o.talents_used.is_empty(), "{}", o.origin);
    }
}

/// An interlude at the end of the Shipwreck (level 1) with this much gold.
/// A party about to resolve an exit card (card "1").
pub(crate) fn before_exit(party: &[&str]) -> (Catalogue, DivinityState) {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false }]);
    });
    let mut s = start(&c, party, 1);
    explore(&c, &mut s, &vec![None; party.len()]);
    ok(&c, &mut s, 0, A::Reveal);
    (c, s)
}

pub(crate) fn interlude(party: &[&str], gold: u32) -> (Catalogue, DivinityState) {
    let (c, mut s) = before_exit(party);
    s.gold = gold;
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)));
    (c, s)
}

fn offer(s: &DivinityState) -> Vec<String> {
    match &s.phase {
        Phase::Interlude(i) => i.offer.clone(),
        _ => panic!("not in the interlude"),
    }
}

/// R190 (L1357): a sold item goes to the bottom of its deck and its half
/// price, rounded up, to the stash.
#[test]
fn r190_sold_item_goes_to_the_bottom_of_its_deck() {
    let (c, mut s) = interlude(&["red_prince"], 5);
    ok(&c, &mut s, 0, A::VisitMerchant { level: 1, consumables: None });
    let item = "long_sword";
    let deck = format!("equipment_{}", cat().items[item].level);
    let cost = cat().items[item].cost.unwrap();
    let gold = s.gold;
    ok(&c, &mut s, 0, A::Sell { item: item.into() });
    assert_eq!(s.item_decks[&deck].last().map(String::as_str), Some(item));
    assert_eq!(s.gold, gold + cost.div_ceil(2));
    assert_eq!(held(&s, 0, item), 0);
}

/// The view gives the Merchant's prices during the interlude (L1356,
/// L1363): each ware's printed cost, and half the cost, rounded up, of
/// what the Origins carry (the Red Prince's long sword, wooden shield and
/// leather armor cost 2 each: 1 gold apiece); none outside the interlude.
#[test]
fn the_view_gives_the_merchants_prices() {
    let (c, mut s) = interlude(&["red_prince"], 5);
    let prices = |s: &DivinityState| athlas_engine::divinity::view::view(s, &c, Viewer::Seat(0)).merchant.clone();
    let before = prices(&s).expect("prices in the interlude");
    assert!(before.buy.is_empty(), "nothing on show before the fee");
    let sell: Vec<(&str, u32)> = before.sell.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(sell, vec![("leather_armor", 1), ("long_sword", 1), ("wooden_shield", 1)]);
    ok(&c, &mut s, 0, A::VisitMerchant { level: 1, consumables: None });
    let shown = prices(&s).unwrap().buy;
    assert_eq!(shown.keys().cloned().collect::<Vec<_>>(), {
        let mut o = offer(&s);
        o.sort();
        o.dedup();
        o
    });
    for (item, cost) in &shown {
        assert_eq!(Some(*cost), c.items[item].cost, "{item}");
    }
    let exploring = start(&c, &["red_prince"], 1);
    assert_eq!(prices(&exploring), None, "no prices outside the interlude");
}

/// R191 (L1361): restocking, only after the entry fee, any number of times:
/// an equipment deck of the party's level or lower for its level in gold, or
/// a consumable deck for 1 gold; each shows 1 item per player + 1 more.
#[test]
fn r191_restocking() {
    let (c, mut s) = interlude(&["ifan", "sebille"], 10);
    let potions = MerchantDeck::Consumables(ConsumableDeck::Potions);
    rejected_with(&c, &mut s, 0, A::Restock { deck: potions }, "merchant_closed");
    ok(&c, &mut s, 0, A::VisitMerchant { level: 1, consumables: None });
    assert_eq!((s.gold, offer(&s).len()), (9, 3));
    ok(&c, &mut s, 0, A::Restock { deck: MerchantDeck::Equipment(1) });
    assert_eq!((s.gold, offer(&s).len()), (8, 6), "level 1: 1 gold, 3 more items");
    rejected_with(&c, &mut s, 0, A::Restock { deck: MerchantDeck::Equipment(2) }, "deck_level");
    ok(&c, &mut s, 0, A::Restock { deck: potions });
    assert_eq!((s.gold, offer(&s).len()), (7, 9), "a consumable deck: 1 gold");
    let grenades = MerchantDeck::Consumables(ConsumableDeck::Grenades);
    ok(&c, &mut s, 0, A::Restock { deck: grenades });
    assert_eq!((s.gold, offer(&s).len()), (6, 12), "and again");
}

/// R192 (L1363): the Merchant buys a unique item that has a gold cost, at
/// half its cost, and shows no unique item, rune or summon.
#[test]
fn r192_merchant_buys_unique_items_with_a_cost() {
    let (c, mut s) = interlude(&["ifan"], 3);
    ok(&c, &mut s, 0, A::VisitMerchant { level: 1, consumables: Some(ConsumableDeck::Scrolls) });
    for i in offer(&s) {
        let d = &cat().items[&i];
        assert!(!d.unique, "{i} is unique");
    }
    let blade = &cat().items["windego_blade"];
    assert!(blade.unique);
    s.origins[0].backpack.push("windego_blade".into());
    let gold = s.gold;
    ok(&c, &mut s, 0, A::Sell { item: "windego_blade".into() });
    assert_eq!(s.gold, gold + blade.cost.unwrap().div_ceil(2));
}

/// R165 (L1206): a keyword from an equipped item works in any challenge and
/// costs nothing: the Lucky Charm's LUCKY succeeds at the Shallows' search
/// automatically, and the charm stays equipped. A talent's keyword earns a
/// bonus die.
#[test]
fn r165_equipped_item_keyword_works_in_a_challenge() {
    use athlas_engine::divinity::action::KeywordFrom;
    let c = cat();
    let lucky = || Some(("LUCKY".to_string(), KeywordFrom::Permanent));
    for charm in [false, true] {
        let mut s = start(c, &["ifan"], 1);
        if charm {
            s.origins[0].equipped.push("lucky_charm".into());
        }
        explore(c, &mut s, &[None]);
        ok(c, &mut s, 0, A::Reveal);
        ok(c, &mut s, 0, A::Resolve { card: "1".into() });
        if !charm {
            rejected_with(c, &mut s, 0, A::Challenge { auto: lucky(), keywords: vec![] }, "no_keyword");
            continue;
        }
        let gold = s.gold;
        ok(c, &mut s, 0, A::Challenge { auto: lucky(), keywords: vec![] });
        ok(c, &mut s, 0, A::ChooseResult { row: 2 });
        assert!(s.pending_roll().is_none() && s.challenge.is_none(), "no dice rolled");
        assert_eq!(s.gold, gold + 2, "the chosen best row");
        assert!(s.origins[0].equipped.contains(&"lucky_charm".to_string()), "a permanent keyword is kept");
    }
    // A talent's keyword (Ifan's Pet Pal: ANIMALS) earns its bonus die.
    let c = challenge_card(
        Rollers::Each,
        vec![BonusDie { keyword: Some("ANIMALS".into()), origins_present: None, colour: Colour::Red }],
    );
    for talent in [true, false] {
        let mut s = start(&c, &["ifan"], 1);
        if !talent {
            s.origins[0].talents.clear();
        }
        explore(&c, &mut s, &[None]);
        ok(&c, &mut s, 0, A::Reveal);
        ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
        ok(&c, &mut s, 0, A::Challenge { auto: None, keywords: vec![] });
        let red = s.pending_roll().unwrap().roll.dice.iter().filter(|d| d.colour == Colour::Red).count();
        assert_eq!(red, usize::from(talent), "talent {talent}");
    }
}

/// R178 (L441): a location may have several exits, each to its own next
/// location; here the Shallows lead back to the Shipwreck and the Cliff Path
/// (5b) on to Fort Joy. (Exits behind a Boss: `divinity_play::r242_…`.)
#[test]
fn r178_a_location_with_two_exits() {
    let c = shipwreck_with(|l| {
        plain(l, "1", vec![CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false }]);
    });
    let mut to = std::collections::BTreeSet::new();
    for space in ["1", "5"] {
        for seed in 0..40 {
            let mut s = start(&c, &["ifan"], seed);
            explore(&c, &mut s, &[Some(space)]);
            ok(&c, &mut s, 0, A::Reveal);
            let got = s.revealed[0].card.clone();
            if got == "5a" {
                continue;
            }
            ok(&c, &mut s, 0, A::Resolve { card: got });
            let Phase::Interlude(i) = &s.phase else { panic!("an exit opens the interlude") };
            to.insert(i.to.clone());
            break;
        }
    }
    assert_eq!(to, ["fort_joy".to_string(), "shipwreck".into()].into());
}

/// R193 (L1383): the session can end (the campaign value exists) only at the
/// end of the interlude or after a forced restart, not during the interlude.
#[test]
fn r193_the_session_ends_after_the_interlude_or_a_restart() {
    let (c, mut s) = interlude(&["ifan"], 0);
    assert!(Divinity::campaign(&s, &c).is_none(), "not during the interlude");
    ok(&c, &mut s, 0, A::FinishInterlude);
    assert!(Divinity::campaign(&s, &c).is_some());
    let c = shipwreck_with(|l| plain(l, "1", vec![CardEffect::Restart]));
    let mut s = start(&c, &["ifan"], 1);
    assert!(Divinity::campaign(&s, &c).is_none(), "not mid-location");
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    assert_eq!(Divinity::campaign(&s, &c).map(|k| k.location), Some("shipwreck".to_string()));
}

/// R195 (L1396–1398): HP, Source and the equipped/stored arrangement are not
/// saved: an Origin that ends the location hurt, out of Source and with its
/// weapon stored starts the next one at max HP and Source with the weapon
/// equipped again; the collar side is saved.
#[test]
fn r195_hp_source_and_the_item_arrangement_are_not_saved() {
    let (c, mut s) = {
        let c = shipwreck_with(|l| {
            plain(l, "1", vec![CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false }]);
        });
        let s = start(&c, &["ifan"], 1);
        (c, s)
    };
    let weapon = s.origins[0].equipped[0].clone();
    {
        let o = &mut s.origins[0];
        o.equipped.retain(|i| *i != weapon);
        o.backpack.push(weapon.clone());
        o.hp = 2;
        o.source = 0;
        o.collar_broken = true;
    }
    explore(&c, &mut s, &[None]);
    ok(&c, &mut s, 0, A::Reveal);
    ok(&c, &mut s, 0, A::Resolve { card: "1".into() });
    ok(&c, &mut s, 0, A::FinishInterlude);
    let camp = Divinity::campaign(&s, &c).unwrap();
    assert!(camp.origins[0].collar_broken, "the collar side is saved");
    let n =
        Divinity::start_with(&c, &DivinityOptions { campaign: Some(camp), ..DivinityOptions::default() }, 2).unwrap();
    let o = &n.origins[0];
    let card = cat().origins["ifan"].at(o.level).unwrap();
    assert_eq!((o.hp, o.source), (card.hp, card.source));
    assert!(o.equipped.contains(&weapon) && !o.backpack.contains(&weapon), "equipped again");
    assert!(o.collar_broken);
}
