//! Audit of the facts checklist R1–R77 (components, session and location
//! setup, round types, Explore, Rest and Combat rounds, cooldown tracks,
//! the time track, Origin cards, Source, levelling up and talents): the
//! rules no other test pinned down. Each test names its rule (R…) and the
//! rulebook line (L…) of `shared/rules/divinity-original-sin-board-game.txt`.
//! The map from every rule to its tests is `divinity_coverage/r001-r077.md`.
//!
//! The fixtures avoid the tutorial and build what they need on the
//! Shipwreck, Fort Joy, the Hollow Marshes and the Temple, or on a copy of
//! the catalogue changed for the test.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use athlas_engine::divinity::content::{CardEffect, Catalogue};
use athlas_engine::divinity::cooldown::{CardRef, Track, TrackCard, MINION_TRACK, ORIGIN_TRACK};
use athlas_engine::divinity::dice::{Colour, MAX_PER_COLOUR};
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{
    Enemy, EnemyKind, OriginSave, Phase, Purpose, RoundKind, Who, BACKPACK, MAX_MINIONS,
};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{CampaignState, Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, Viewer};

use crate::divinity_support;
use divinity_support::*;

fn start(loc: &str, party: &[&str]) -> DivinityState {
    Divinity::start(&options(loc, party), 7).expect("setup")
}

#[track_caller]
fn ok(s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    ok_with(cat(), s, seat, a)
}

fn options(loc: &str, party: &[&str]) -> DivinityOptions {
    DivinityOptions {
        party: party.iter().map(|p| p.to_string()).collect(),
        location: Some(loc.into()),
        reroll_enemy_rolls: false,
        party_breaks_ties: false,
        ..DivinityOptions::default()
    }
}

#[track_caller]
fn ok_with(c: &Catalogue, s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    match Divinity::apply_with(c, s, seat, a.clone()) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} by seat {seat} was rejected: {}", e.message),
    }
}

fn skill_card(id: &str) -> TrackCard {
    TrackCard { card: CardRef::Skill(id.into()), face_up: false, flip_at: None }
}

/// A minion of `card` in a tray, on `space`.
fn minion(s: &DivinityState, id: u32, letter: char, card: &str, space: &str, fast: bool) -> Enemy {
    let hp = cat().minions[card].standard.hp;
    Enemy {
        id,
        letter: Some(letter),
        kind: EnemyKind::Minion { card: card.into(), veteran: false },
        hp,
        max_hp: hp,
        space: ix(s, space),
        fast,
        track: Track::new(MINION_TRACK),
        ap: 0,
        tactics: vec![],
    }
}

/// Enemies appear during a Rest round (as if a card had spawned them); when
/// the last Origin ends its Rest turn the next round is a Combat round.
/// Returns the events of the Combat round's start (the FAST step).
fn into_combat(s: &mut DivinityState, enemies: Vec<Enemy>) -> Vec<Ev> {
    ok(s, 0, A::ChooseRound { explore: false });
    s.enemies = enemies;
    s.next_enemy = 100;
    let mut ev = Vec::new();
    for seat in waiting(s) {
        ev = ok(s, seat, A::EndTurn);
    }
    assert_eq!(s.round_kind, RoundKind::Combat);
    ev
}

fn pos(ev: &[Ev], f: impl Fn(&Ev) -> bool) -> usize {
    ev.iter().position(f).unwrap_or_else(|| panic!("no such event in {ev:?}"))
}

// ---- 1.1 Components (R1-R3) ----

/// R1 (L53-209): the component counts the engine models: 36 talent tiles,
/// 30 Origin cards (2 levels each), 6 minion trays, 16 dice (5 of each of
/// the 3 colours, and the targeting die), 4 player trays and HP dials (a
/// party of 1-4), a backpack of 3 (L919).
#[test]
fn r1_component_counts_the_engine_models() {
    let c = cat();
    assert_eq!(c.talents.len(), 36, "36 talent tiles");
    let cards: usize = c.origins.values().map(|o| o.levels.len()).sum::<usize>() / 2;
    assert_eq!(cards, 30, "30 Origin cards, each covering 2 levels (L526)");
    assert_eq!(MAX_MINIONS, 6, "6 minion trays");
    assert_eq!(Colour::ALL.len() * MAX_PER_COLOUR as usize + 1, 16, "16 dice: 5 white, 5 blue, 5 red, 1 targeting");
    assert_eq!(BACKPACK, 3);
    let five = ["ifan", "sebille", "red_prince", "fane", "lohse"];
    refused(
        Divinity::start(&options("shipwreck", &five), 1),
        "a party is 1 to 4 Origins",
        "4 player trays, 4 HP dials",
    );
    assert!(Divinity::start(&options("shipwreck", &five[..4]), 1).is_ok());
}

/// R2 (L73, L222): 6 trays lettered A-F: a card spawning 8 minions fills
/// trays A to F in order and the rest do not come (L1245).
#[test]
fn r2_six_trays_lettered_a_to_f() {
    let mut c = cat().clone();
    let l = c.locations.get_mut("shipwreck").unwrap();
    let card = l.cards.iter_mut().find(|k| k.id == "3").unwrap();
    let CardEffect::Spawn { rows } = &mut card.effects[0] else { panic!("card 3 spawns") };
    rows[0].counts[0].fast = 4;
    rows[0].counts[0].slow = 4;
    c.validate().unwrap();
    let mut s = Divinity::start_with(&c, &options("shipwreck", &["ifan"]), 1).unwrap();
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: true });
    ok_with(&c, &mut s, 0, A::Travel { to: Some("3".into()) });
    ok_with(&c, &mut s, 0, A::Reveal);
    ok_with(&c, &mut s, 0, A::Resolve { card: "3".into() });
    let letters: Vec<char> = s.enemies.iter().map(|e| e.letter.unwrap()).collect();
    assert_eq!(letters, vec!['A', 'B', 'C', 'D', 'E', 'F']);
}

/// R3 (L224-225): the supply holds the item decks, and the party's gold
/// stash is not the supply's gold: a new party starts with none, and the
/// stash can grow past the 24 gold tokens (unlimited, G26).
#[test]
fn r3_supply_decks_and_the_gold_stash() {
    let s = start("shipwreck", &["ifan"]);
    assert_eq!(s.gold, 0, "a new party's stash is empty");
    for deck in ["potions", "scrolls", "grenades", "arrows", "runes"] {
        assert!(s.item_decks.get(deck).is_some_and(|d| !d.is_empty()), "the supply holds the {deck} deck");
    }
    let mut c = cat().clone();
    let l = c.locations.get_mut("shipwreck").unwrap();
    let card = l.cards.iter_mut().find(|k| k.id == "2").unwrap();
    card.effects = vec![CardEffect::Gold { amount: 2 }];
    card.victory.clear();
    card.defeat.clear();
    let mut s = Divinity::start_with(&c, &options("shipwreck", &["ifan"]), 1).unwrap();
    s.gold = 24;
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: true });
    ok_with(&c, &mut s, 0, A::Travel { to: Some("2".into()) });
    ok_with(&c, &mut s, 0, A::Reveal);
    ok_with(&c, &mut s, 0, A::Resolve { card: "2".into() });
    assert_eq!(s.gold, 26);
}

// ---- 1.2 Session setup (R5-R10) ----

/// R5 (L222), R7 (L224): at setup everything is in the supply: no minion
/// or Boss on the map, no environment token, no key, no gold in the stash,
/// nothing held or on the combat stack.
#[test]
fn r5_r7_everything_starts_in_the_supply() {
    for loc in ["shipwreck", "fort_joy", "temple"] {
        let s = start(loc, &["ifan", "sebille"]);
        assert!(s.enemies.is_empty(), "{loc}: no minion or Boss out of the box");
        assert!(s.map.tokens.is_empty() && s.map.keys.is_empty() && s.map.placed.is_empty(), "{loc}");
        assert!(s.holding.is_empty() && s.combat_stack.is_empty() && s.discard.is_empty());
        assert_eq!(s.gold, 0);
    }
}

/// R9 (L233-242): the personal play area: talents from the Origin (A), HP
/// at max (B), AP 0 (C), Source at max (D), equipment equipped and
/// consumables in a backpack of at most 3 (E), an intact collar (F), every
/// skill in hand (G).
#[test]
fn r9_personal_play_area() {
    let party = ["ifan", "sebille", "red_prince", "fane"];
    let s = start("shipwreck", &party);
    for o in &s.origins {
        let d = &cat().origins[&o.origin];
        let card = d.at(1).unwrap();
        assert_eq!(o.talents, d.talents, "(A) talent tiles");
        assert_eq!((o.hp, o.ap, o.source), (card.hp, 0, card.source), "(B)-(D)");
        assert!(!o.collar_broken, "(F) the first game: intact");
        assert_eq!(o.hand, d.skills, "(G)");
        assert!(o.backpack.len() <= BACKPACK);
        for i in &o.equipped {
            assert!(
                matches!(cat().items[i].kind, athlas_engine::divinity::content::ItemKind::Equipment(_)),
                "(E) only equipment is equipped"
            );
        }
    }
    // A carried-over Origin: its consumables go to the backpack, never a slot (E).
    let save = |items: &[&str]| CampaignState {
        rules_version: 1,
        location: "shipwreck".into(),
        level: 1,
        gold: 0,
        journal: vec![],
        origins: vec![OriginSave {
            origin: "ifan".into(),
            talents: vec!["pet_pal".into()],
            skills: cat().origins["ifan"].skills.clone(),
            items: items.iter().map(|i| i.to_string()).collect(),
            collar_broken: false,
            runes: vec![],
        }],
        found: vec![],
        finished: false,
        unrestricted_talents: false,
        honor_mode: false,
    };
    let opts = |c| DivinityOptions { campaign: Some(c), party: vec![], ..DivinityOptions::default() };
    let s = Divinity::start(&opts(save(&["healing_potion", "short_bow", "fire_arrows", "leather_armor"])), 1).unwrap();
    let o = &s.origins[0];
    assert_eq!(o.backpack, vec!["healing_potion".to_string(), "fire_arrows".into()]);
    assert!(o.equipped.contains(&"short_bow".to_string()) && o.equipped.contains(&"leather_armor".to_string()));
    let four = ["healing_potion", "fire_arrows", "teleport_scroll", "fire_grenade"];
    refused(Divinity::start(&opts(save(&four)), 1), "ifan carries more than fits", "up to 3 items in the backpack");
    // A consumable can never be equipped.
    let mut s = Divinity::start(&opts(save(&["healing_potion"])), 1).unwrap();
    ok(&mut s, 0, A::ChooseRound { explore: false });
    rejected(&mut s, 0, A::Equip { item: "healing_potion".into() }, "not_equipment");
}

/// R10 (L939, L1045): at the start of a session, before the first round,
/// the Origins equip, store and trade freely; once play has begun, outside
/// Rest and Combat turns they can't.
#[test]
fn r10_free_equip_and_trade_at_the_start() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    assert_eq!(s.phase, Phase::ChooseRound);
    let armor = s.origins[0].equipped.iter().find(|i| *i == "leather_armor").cloned().expect("Ifan's armor");
    ok(&mut s, 0, A::Store { item: armor.clone() });
    assert!(s.origins[0].backpack.contains(&armor));
    ok(&mut s, 0, A::Equip { item: armor.clone() });
    assert!(s.origins[0].equipped.contains(&armor));
    ok(&mut s, 0, A::Give { item: armor.clone(), to: 1, equip: false });
    assert!(s.origins[1].backpack.contains(&armor));
    ok(&mut s, 0, A::Take { item: armor.clone(), from: 1, equip: false });
    assert!(s.origins[0].backpack.contains(&armor));
    assert!(s.origins.iter().all(|o| o.ap == 0), "free");
    // After the first round, only a Rest or Combat turn (or the interlude) allows it.
    ok(&mut s, 0, A::ChooseRound { explore: false });
    for seat in 0..2 {
        ok(&mut s, seat, A::EndTurn);
    }
    assert_eq!(s.phase, Phase::ChooseRound);
    rejected(&mut s, 0, A::Equip { item: armor.clone() }, "not_combat");
    rejected(&mut s, 0, A::Give { item: armor, to: 1, equip: false }, "not_combat");
}

// ---- 1.3 Location setup (R11-R17) ----

/// R16 (L256): every location has its intro text to read, and play begins
/// with the party choosing its first round.
#[test]
fn r16_intro_then_begin() {
    for l in cat().locations.values() {
        assert!(!l.intro.trim().is_empty(), "{}: intro text", l.id);
        let s = start(&l.id, &["ifan"]);
        assert_eq!((s.phase.clone(), s.round), (Phase::ChooseRound, 1), "{}", l.id);
        assert_eq!(waiting(&s), vec![0]);
    }
}

/// R11 (L250), R17 (L507, L768, L782, L1343): travelling to a new location
/// sets it up again: a downed Origin is revived at max HP, Source is full,
/// every learned skill is back in hand and the track is empty.
#[test]
fn r17_new_location_restores_the_party() {
    let mut c = cat().clone();
    let l = c.locations.get_mut("shipwreck").unwrap();
    let card = l.cards.iter_mut().find(|k| k.id == "2").unwrap();
    card.effects = vec![CardEffect::Exit { to: "shipwreck".into(), level_up: false, optional: false }];
    card.victory.clear();
    card.defeat.clear();
    c.validate().unwrap();
    let mut s = Divinity::start_with(&c, &options("shipwreck", &["ifan", "sebille"]), 1).unwrap();
    s.origins[1].downed = true;
    s.origins[1].hp = 0;
    let o = &mut s.origins[0];
    o.source = 0;
    o.hp = 3;
    o.hand.retain(|h| h != "ricochet");
    o.track.place(skill_card("ricochet"), 4);
    o.track.apply_status(St::Burning, 5);
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: true });
    ok_with(&c, &mut s, 0, A::Travel { to: Some("2".into()) });
    ok_with(&c, &mut s, 0, A::Reveal);
    ok_with(&c, &mut s, 0, A::Resolve { card: "2".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)));
    ok_with(&c, &mut s, 0, A::FinishInterlude);
    let camp = Divinity::campaign(&s, &c).unwrap();
    assert_eq!(camp.location, "shipwreck");
    let n =
        Divinity::start_with(&c, &DivinityOptions { campaign: Some(camp), ..DivinityOptions::default() }, 2).unwrap();
    let start = c.locations["shipwreck"].map.ix(&c.locations["shipwreck"].start).unwrap();
    for o in &n.origins {
        let d = &c.origins[&o.origin];
        let card = d.at(o.level).unwrap();
        assert!(!o.downed);
        assert_eq!((o.hp, o.source, o.ap), (card.hp, card.source, 0));
        assert_eq!(o.hand, o.skills, "every learned skill in hand");
        assert!(o.track.is_empty());
        assert_eq!(o.space, start, "R15 at the new location too");
    }
    // R10: on arriving, before the first round, items move freely.
    let mut n = n;
    let item = n.origins[0].equipped[0].clone();
    ok_with(&c, &mut n, 0, A::Store { item: item.clone() });
    ok_with(&c, &mut n, 0, A::Give { item: item.clone(), to: 1, equip: false });
    assert!(n.origins[1].backpack.contains(&item));
    assert!(n.origins.iter().all(|o| o.ap == 0));
}

// ---- 1.4 Round types (R20-R23) ----

/// R21 (L277, L373): one enemy anywhere on the map, even far from every
/// Origin, makes the round a Combat round: Explore and Rest are refused,
/// and every Origin has a Combat turn.
#[test]
fn r21_any_enemy_anywhere_means_combat() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    let far = minion(&s, 50, 'A', "darkhans_lackey", "5", false);
    s.enemies.push(far.clone());
    rejected(&mut s, 0, A::ChooseRound { explore: true }, "enemies_present");
    rejected(&mut s, 0, A::ChooseRound { explore: false }, "enemies_present");
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    into_combat(&mut s, vec![far]);
    assert!(matches!(s.phase, Phase::Combat { .. }));
    assert_eq!(waiting(&s), vec![0, 1], "both Origins, though no enemy shares their space");
    assert!(s.origins.iter().all(|o| o.space == ix(&s, "1")));
}

/// R22 (L279, L426), R33 (L330), R37 (L363), R42 (L396): the time tracker
/// advances 1 at the end of a Rest, an Explore and a Combat round alike
/// (here a Combat round that does not end the combat).
#[test]
fn r22_time_advances_after_every_kind_of_round() {
    let mut s = start("shipwreck", &["ifan"]);
    let t0 = s.time.unwrap();
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.time, Some(t0 + 1), "Rest");
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Pass);
    assert_eq!(s.time, Some(t0 + 2), "Explore");
    let far = minion(&s, 50, 'A', "darkhans_lackey", "5", false);
    into_combat(&mut s, vec![far]);
    assert_eq!(s.time, Some(t0 + 3), "the Rest round before the combat");
    s.enemies[0].track.apply_status(St::Frozen, 3);
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(s.in_combat(), "the combat goes on");
    assert!(ev.contains(&Ev::TimeAdvanced { space: t0 + 4 }));
    assert_eq!(s.time, Some(t0 + 4), "Combat");
    assert_eq!(s.round_kind, RoundKind::Combat, "R43: enemies remain, another Combat round");
}

// ---- 1.5 Explore round (R24-R33) ----

/// R24 (L315-320): an Explore turn is start-of-turn effects, then travel,
/// then the slide, in the order the players choose (seat 1 first here).
#[test]
fn r24_explore_turn_start_effects_travel_slide() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    let o = &mut s.origins[1];
    o.track.apply_status(St::Burning, 1);
    let skill = o.hand.remove(0);
    o.track.place(skill_card(&skill), 1);
    let hp = o.hp;
    let ev = ok(&mut s, 1, A::Travel { to: Some("2".into()) });
    let o = &s.origins[1];
    assert!(o.hp < hp, "BURNING on slot 1 still burns at the start of the turn");
    assert!(!o.track.has(St::Burning), "then it slides off");
    assert!(o.hand.contains(&skill), "a skill sliding off returns to hand");
    assert_eq!(o.space, ix(&s, "2"));
    let burn = pos(&ev, |e| matches!(e, Ev::Damaged { who: Who::Origin(1), .. }));
    let went = pos(&ev, |e| matches!(e, Ev::Travelled { seat: 1, .. }));
    let slid = pos(&ev, |e| matches!(e, Ev::StatusCleared { who: Who::Origin(1), .. }));
    assert!(burn < went && went < slid, "{ev:?}");
    rejected(&mut s, 1, A::Travel { to: None }, "turn_taken"); // one Explore turn
    ok(&mut s, 0, A::Travel { to: None });
    assert!(matches!(s.phase, Phase::Groups { .. }));
}

/// R30 (L301): in a fully explored space a group may take a holding-area
/// card or explore nothing, but there is no card to reveal.
#[test]
fn r30_fully_explored_space() {
    let mut s = start("shipwreck", &["ifan"]);
    // The Shallows' only card has been resolved; the exit waits in the holding area.
    s.deck.retain(|c| c != "1" && c != "5b");
    s.discard.push("1".into());
    s.holding.push("5b".into());
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    rejected(&mut s, 0, A::Reveal, "fully_explored");
    let t = s.time;
    ok(&mut s, 0, A::Pass);
    assert_eq!(s.time, t.map(|t| t + 1), "no card this round: the round ends");
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::TakeHolding { card: "5b".into() });
    ok(&mut s, 0, A::Resolve { card: "5b".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)), "the held exit resolved");
}

/// The Shipwreck with `party` on the Cliff Path, 5b (a holdable exit) revealed.
fn exit_revealed(party: &[&str]) -> DivinityState {
    let o = options("shipwreck", party);
    (0..200u64)
        .find_map(|seed| {
            let mut s = Divinity::start(&o, seed).unwrap();
            ok(&mut s, 0, A::ChooseRound { explore: true });
            for seat in 0..party.len() as Seat {
                ok(&mut s, seat, A::Travel { to: Some("5".into()) });
            }
            ok(&mut s, 0, A::Reveal);
            (s.revealed[0].card == "5b").then_some(s)
        })
        .expect("a seed reveals 5b")
}

/// R31 (L307-309): held cards are face up for everyone to read; a group
/// anywhere may take one instead of exploring, but not after revealing.
#[test]
fn r31_holding_area() {
    let mut s = exit_revealed(&["ifan", "sebille"]);
    ok(&mut s, 0, A::Hold { card: "5b".into() });
    let text = &cat().locations["shipwreck"].card("5b").unwrap().text;
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let v = Divinity::view(&s, viewer);
        assert_eq!(v.holding.len(), 1);
        assert_eq!((&v.holding[0].id, &v.holding[0].text), (&"5b".to_string(), text), "face up");
    }
    // Next round: Sebille goes back to the Beach and reveals; she can't switch now.
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 1, A::Travel { to: Some("1".into()) });
    ok(&mut s, 1, A::Reveal);
    rejected(&mut s, 1, A::TakeHolding { card: "5b".into() }, "group_chose");
    // Ifan's group, on the space where it was revealed or not, may take it.
    ok(&mut s, 0, A::TakeHolding { card: "5b".into() });
    assert!(s.holding.is_empty());
    assert!(s.revealed.iter().any(|r| r.card == "5b"));
}

// ---- 1.6 Rest round (R34-R37) ----

/// R34 (L346): in a Rest round everybody rests: nobody travels or explores.
#[test]
fn r34_nobody_explores_in_a_rest_round() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    ok(&mut s, 0, A::ChooseRound { explore: false });
    assert_eq!(s.round_kind, RoundKind::Rest);
    rejected(&mut s, 0, A::Travel { to: Some("2".into()) }, "not_travelling");
    rejected(&mut s, 1, A::Reveal, "not_exploring");
    assert!(matches!(s.phase, Phase::Rest { .. }));
}

/// R35 (L348): Rest turns are simultaneous: every Origin may act at once,
/// in any order.
#[test]
fn r35_rest_turns_are_simultaneous() {
    let mut s = start("shipwreck", &["ifan", "sebille", "red_prince"]);
    ok(&mut s, 0, A::ChooseRound { explore: false });
    assert_eq!(waiting(&s), vec![0, 1, 2]);
    ok(&mut s, 2, A::EndTurn);
    ok(&mut s, 1, A::Recover { status: None });
    assert_eq!(waiting(&s), vec![0, 1]);
    ok(&mut s, 0, A::EndTurn);
    ok(&mut s, 1, A::EndTurn);
    assert_eq!(s.phase, Phase::ChooseRound);
}

// ---- 1.7 Combat round (R38-R44) ----

/// R38 (L373): each Origin and each enemy has one turn per Combat round.
#[test]
fn r38_one_turn_each_per_combat_round() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    let a = minion(&s, 50, 'A', "darkhans_lackey", "5", true);
    let mut ev = into_combat(&mut s, vec![a]);
    ev.remove(pos(&ev, |e| matches!(e, Ev::TimeAdvanced { .. })));
    ok(&mut s, 1, A::StartTurn);
    ev.extend(ok(&mut s, 1, A::EndTurn));
    rejected(&mut s, 1, A::StartTurn, "turn_taken");
    ok(&mut s, 0, A::StartTurn);
    ev.extend(ok(&mut s, 0, A::EndTurn));
    // The round ends at the time track; what follows is the next round.
    ev.truncate(pos(&ev, |e| matches!(e, Ev::TimeAdvanced { .. })));
    let enemy_turns = ev.iter().filter(|e| matches!(e, Ev::TurnEnded { who: Who::Enemy(50) })).count();
    let origin_turns = ev.iter().filter(|e| matches!(e, Ev::TurnEnded { who: Who::Origin(_) })).count();
    assert_eq!((enemy_turns, origin_turns), (1, 2), "{ev:?}");
}

/// R39 (L381-387), R41 (L394), R46 (L408): FAST enemies act left to right
/// before the Origins, SLOW ones after them; a minion's track slides down
/// one slot when its turn ends.
#[test]
fn r39_r41_initiative_fast_origins_slow() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    for o in &mut s.origins {
        o.hp = 60;
    }
    let mut a = minion(&s, 50, 'A', "darkhans_lackey", "5", true);
    a.track.apply_status(St::Blessed, 2);
    let b = minion(&s, 51, 'B', "crocodile", "4", true);
    let c = minion(&s, 52, 'C', "darkhans_lackey", "5", false);
    let ev = into_combat(&mut s, vec![a, b, c]);
    let ta = pos(&ev, |e| *e == Ev::TurnEnded { who: Who::Enemy(50) });
    let tb = pos(&ev, |e| *e == Ev::TurnEnded { who: Who::Enemy(51) });
    assert!(ta < tb, "left to right");
    assert!(!ev.contains(&Ev::TurnEnded { who: Who::Enemy(52) }), "SLOW waits for the Origins");
    assert_eq!(s.enemies[0].track.status_slot(St::Blessed), Some(1), "slid down 1");
    assert_eq!(waiting(&s), vec![0, 1]);
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(!ev.contains(&Ev::TurnEnded { who: Who::Enemy(52) }));
    ok(&mut s, 1, A::StartTurn);
    let ev = ok(&mut s, 1, A::EndTurn);
    let tc = pos(&ev, |e| *e == Ev::TurnEnded { who: Who::Enemy(52) });
    let time = pos(&ev, |e| matches!(e, Ev::TimeAdvanced { .. }));
    assert!(tc < time, "SLOW, then the round's end");
}

/// R40 (L389-392, L1560): an Origin's Combat turn: start-of-turn effects,
/// then the AP of its card; any actions; then the slide. The party picks
/// the order of the Origins' turns (seat 1 first here).
#[test]
fn r40_origin_turn_effects_then_ap_then_slide() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    let a = minion(&s, 50, 'A', "darkhans_lackey", "5", false);
    into_combat(&mut s, vec![a]);
    s.enemies[0].track.apply_status(St::Frozen, 3);
    let o = &mut s.origins[1];
    o.track.apply_status(St::Burning, 1);
    let skill = o.hand.remove(0);
    o.track.place(skill_card(&skill), 1);
    let ev = ok(&mut s, 1, A::StartTurn);
    let burn = pos(&ev, |e| matches!(e, Ev::Damaged { who: Who::Origin(1), .. }));
    let ap = pos(&ev, |e| matches!(e, Ev::TurnStarted { seat: 1, .. }));
    assert!(burn < ap, "start-of-turn effects first, then AP: {ev:?}");
    assert_eq!(s.origins[1].ap, cat().origins["sebille"].at(1).unwrap().ap);
    assert!(s.origins[1].track.has(St::Burning), "no slide yet");
    // Two moves in a row: actions repeat while AP lasts.
    ok(&mut s, 1, A::Move { to: "2".into() });
    ok(&mut s, 1, A::Move { to: "1".into() });
    ok(&mut s, 1, A::EndTurn);
    let o = &s.origins[1];
    assert!(!o.track.has(St::Burning) && o.hand.contains(&skill), "the slide at the end of the turn");
    assert_eq!(waiting(&s), vec![0]);
    // Start-of-turn effects come before the AP: one that downs the Origin
    // ends its turn, though a downed Origin's turn still gains AP (L757,
    // issue 11: this test said no AP before).
    s.origins[0].hp = 1;
    s.origins[0].track.apply_status(St::Bleeding, 2);
    let ev = ok(&mut s, 0, A::StartTurn);
    assert!(ev.contains(&Ev::Downed { seat: 0 }), "{ev:?}");
    assert_eq!(s.origins[0].ap, cat().origins["ifan"].at(1).unwrap().ap, "downed, it gains its AP all the same");
    assert!(!ev.iter().any(|e| matches!(e, Ev::TurnStarted { seat: 0, .. })));
}

/// R44 (L381, L1785): a Boss takes its turn in initiative order with the
/// minions (the Warden is SLOW: after a FAST minion and the Origins).
/// R47 (L414, L1805): a Boss tactic sliding off the track goes to the
/// bottom of its tactics deck.
#[test]
fn r44_r47_boss_in_initiative_order_tactics_to_the_bottom() {
    let mut s = start("temple", &["ifan"]);
    s.origins[0].hp = 200;
    let b = &cat().bosses["the_warden"];
    assert!(!b.fast, "the Warden is SLOW");
    let mut tactics: Vec<String> = b.tactics.iter().map(|t| t.id.clone()).collect();
    let under = tactics.remove(0);
    let mut track = Track::new(ORIGIN_TRACK);
    track.place(TrackCard { card: CardRef::Tactic(under.clone()), face_up: false, flip_at: None }, 1);
    let boss = Enemy {
        id: 60,
        letter: None,
        kind: EnemyKind::Boss { boss: "the_warden".into() },
        hp: b.hp[0],
        max_hp: b.hp[0],
        space: ix(&s, "3"),
        fast: false,
        track,
        ap: 0,
        tactics,
    };
    let fast = minion(&s, 50, 'A', "darkhans_lackey", "3", true);
    let ev = into_combat(&mut s, vec![fast, boss]);
    assert!(ev.contains(&Ev::TurnEnded { who: Who::Enemy(50) }));
    assert!(!ev.contains(&Ev::TurnEnded { who: Who::Enemy(60) }));
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    let o = pos(&ev, |e| *e == Ev::TurnEnded { who: Who::Origin(0) });
    let bt = pos(&ev, |e| *e == Ev::TurnEnded { who: Who::Enemy(60) });
    assert!(o < bt, "{ev:?}");
    let boss = s.enemy(60).expect("the Warden stands");
    assert_eq!(boss.tactics.last(), Some(&under), "cleared: to the bottom of the tactics deck");
    assert!(boss.track.find(&CardRef::Tactic(under)).is_none());
}

// ---- 1.8 Cooldown tracks (R45-R49) ----

/// R47 (L414, L786): what slides off an Origin's track goes where it
/// belongs: a skill to its owner's hand, a status and a consumable to the
/// supply (the consumable to the bottom of its deck).
#[test]
fn r47_cleared_cards_go_where_they_belong() {
    let mut s = start("shipwreck", &["ifan"]);
    s.item_decks.get_mut("potions").unwrap().retain(|i| i != "healing_potion");
    ok(&mut s, 0, A::ChooseRound { explore: false });
    let o = &mut s.origins[0];
    let skill = o.hand.remove(0);
    o.track.place(skill_card(&skill), 1);
    o.track.apply_status(St::Haste, 1);
    o.track.place(TrackCard { card: CardRef::Consumable("healing_potion".into()), face_up: false, flip_at: None }, 1);
    let ev = ok(&mut s, 0, A::EndTurn);
    let o = &s.origins[0];
    assert!(o.track.is_empty());
    assert!(o.hand.contains(&skill), "the skill is back in hand");
    assert!(ev.contains(&Ev::StatusCleared { who: Who::Origin(0), status: St::Haste }));
    assert!(ev.contains(&Ev::ItemDiscarded { seat: 0, item: "healing_potion".into() }));
    assert_eq!(s.item_decks["potions"].last(), Some(&"healing_potion".to_string()), "bottom of its deck");
}

// ---- 1.9 Time track (R50-R55) ----

/// R52 (L1300): reaching the bottom of the track reveals the end-of-scenario
/// event, which need not end anything: here it pays gold and play goes on;
/// it does not trigger twice.
#[test]
fn r52_end_event_need_not_end_the_scenario() {
    let mut c = cat().clone();
    let l = c.locations.get_mut("shipwreck").unwrap();
    let end = l.time.end.clone();
    let length = l.time.length;
    l.cards.iter_mut().find(|k| k.id == end).unwrap().effects = vec![CardEffect::Gold { amount: 2 }];
    c.validate().unwrap();
    let mut s = Divinity::start_with(&c, &options("shipwreck", &["ifan"]), 1).unwrap();
    s.time = Some(length - 1);
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: false });
    ok_with(&c, &mut s, 0, A::EndTurn);
    assert_eq!((s.time, s.gold), (Some(length), 2));
    assert!(s.discard.contains(&end) && !s.deck.contains(&end));
    assert_eq!(s.phase, Phase::ChooseRound, "play goes on");
    ok_with(&c, &mut s, 0, A::ChooseRound { explore: false });
    ok_with(&c, &mut s, 0, A::EndTurn);
    assert_eq!((s.time, s.gold), (Some(length), 2), "once only");
}

// ---- 1.10 Origin cards (R56-R59) ----

/// R56 (L475-489): every Origin card shows max HP, AP, ★, max Source,
/// talents, keywords and a special ability; the table uses the card of the
/// Origin's level (R71, L531: a location's level is the party's level).
#[test]
fn r56_r71_origin_cards_and_the_location_level() {
    for o in cat().origins.values() {
        assert_eq!(o.levels.len(), 6, "{}", o.id);
        for (i, l) in o.levels.iter().enumerate() {
            assert!(l.hp > 0 && l.ap > 0 && l.level_bonus > 0 && l.source > 0 && l.talents > 0, "{} {i}", o.id);
        }
        assert!(!o.keywords.is_empty() && !o.special_ability.is_empty() && o.ability.is_some(), "{}", o.id);
    }
    for loc in ["shipwreck", "fort_joy", "hollow_marshes", "temple"] {
        let level = cat().locations[loc].level;
        let s = start(loc, &["ifan", "lohse"]);
        assert_eq!(s.level, level, "{loc}");
        for o in &s.origins {
            let card = cat().origins[&o.origin].at(level).unwrap();
            assert_eq!((o.level, o.hp, o.source), (level, card.hp, card.source), "{loc}");
        }
    }
    assert_ne!(cat().locations["shipwreck"].level, cat().locations["hollow_marshes"].level);
}

/// R57 (L497), R75 (L575-579): keywords come permanently from the Origin
/// card, talents (a training talent's keyword), equipped items, runes'
/// sides and an active summon; a stored item gives none.
#[test]
fn r57_r75_permanent_keywords() {
    let mut s = start("shipwreck", &["ifan"]);
    let k = s.keywords(cat(), 0);
    assert!(k.contains("MERCENARY"), "the Origin card");
    assert!(k.contains("BOW"), "the equipped short bow");
    assert!(!k.contains("FIRE"));
    s.origins[0].talents.push("pyrokinetic_training".into());
    assert!(s.keywords(cat(), 0).contains("FIRE"), "a training talent gives its keyword");
    s.origins[0].talents.pop();
    s.origins[0].backpack.push("lucky_charm".into());
    assert!(!s.keywords(cat(), 0).contains("LUCKY"), "stored, not equipped");
    s.origins[0].backpack.pop();
    s.origins[0].equipped.push("lucky_charm".into());
    assert!(s.keywords(cat(), 0).contains("LUCKY"), "equipped");
    s.origins[0].summon = Some("incarnate".into());
    assert!(s.keywords(cat(), 0).contains("SPIRITS"), "an active summon");
    // A rune's side gives its keyword once attached (the Rock Rune's trinket side: EARTH).
    s.origins[0].backpack.push("rock_rune".into());
    assert!(!s.keywords(cat(), 0).contains("EARTH"), "a rune in the backpack gives nothing");
    ok(&mut s, 0, A::AttachRune { rune: "rock_rune".into(), item: "lucky_charm".into() });
    assert!(s.keywords(cat(), 0).contains("EARTH"), "an attached rune's side");
    // A permanent keyword serves an automatic success: the Shipwreck's card 1 (LUCKY).
    let mut s = start("shipwreck", &["ifan"]);
    s.origins[0].backpack.push("lucky_charm".into());
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    let auto = || A::Challenge { auto: Some(("LUCKY".into(), KeywordFrom::Permanent)), keywords: vec![] };
    rejected(&mut s, 0, auto(), "no_keyword");
    s.origins[0].backpack.pop();
    s.origins[0].equipped.push("lucky_charm".into());
    ok(&mut s, 0, auto());
    ok(&mut s, 0, A::ChooseResult { row: 1 });
    assert!(s.challenge.is_none());
}

/// R59 (L535-539): ★ on a card is the level bonus of the Origin's current
/// card: the same skill gives +1 at level 1 and +3 at level 3.
#[test]
fn r59_star_is_the_current_level_bonus() {
    let star = |loc: &str| {
        let mut s = start(loc, &["ifan"]);
        let skill = s.origins[0]
            .hand
            .iter()
            .find(|k| cat().skills[*k].attack.as_ref().is_some_and(|a| a.level_bonus) && cat().skills[*k].source == 0)
            .cloned()
            .expect("a ★ skill in hand");
        let a = minion(&s, 50, 'A', "darkhans_lackey", "1", false);
        into_combat(&mut s, vec![a]);
        ok(&mut s, 0, A::StartTurn);
        s.origins[0].ap = 8;
        ok(
            &mut s,
            0,
            A::Use { card: CardUse::Skill(skill), aim: Aim::Enemy(50), first_aura: None, include_self: None },
        );
        match &s.pending_roll().expect("a roll").purpose {
            Purpose::Attack { level_bonus, .. } => (*level_bonus, s.level),
            p => panic!("{p:?}"),
        }
    };
    for loc in ["shipwreck", "hollow_marshes"] {
        let (bonus, level) = star(loc);
        let card = cat().origins["ifan"].at(level).unwrap();
        assert_eq!(bonus, card.level_bonus, "{loc}");
    }
    assert_ne!(star("shipwreck").0, star("hollow_marshes").0);
}

/// R58 (L501-503): the special ability costs 0 AP and does not change with
/// the level: Ifan's wolf bites for 1 direct damage at level 1 and level 3.
#[test]
fn r58_special_ability_is_free_and_the_same_at_every_level() {
    for loc in ["shipwreck", "hollow_marshes"] {
        let mut s = start(loc, &["ifan"]);
        let a = minion(&s, 50, 'A', "darkhans_lackey", &cat().locations[loc].start, false);
        into_combat(&mut s, vec![a]);
        ok(&mut s, 0, A::StartTurn);
        let ap = s.origins[0].ap;
        let hp = s.enemies[0].hp;
        ok(&mut s, 0, A::UseAbility { aim: Some(Aim::Enemy(50)) });
        assert_eq!((s.origins[0].ap, s.enemies[0].hp), (ap, hp - 1), "{loc}: level {}", s.level);
    }
}

// ---- 1.11 Source (R60-R65) ----

/// R60 (L507, L1345): Source never goes above the card's max Source: a
/// Source reroll spends it, and a new location refills it to max, no more.
#[test]
fn r60_source_refills_to_max_only() {
    let mut s = start("shipwreck", &["ifan"]);
    let max = cat().origins["ifan"].at(1).unwrap().source;
    assert_eq!(s.origins[0].source, max);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    ok(&mut s, 0, A::Challenge { auto: None, keywords: vec![] });
    ok(&mut s, 0, A::Reroll { dice: vec![0], source: true });
    assert_eq!(s.origins[0].source, max - 1);
    rejected(&mut s, 0, A::Reroll { dice: vec![0], source: true }, "not_enough_source");
}

/// R62 (L512, L913, L1568): a Source skill may be played on a Rest turn
/// (here Fane's Time Warp, at 0 AP), paying its Source; never on an
/// Explore turn.
#[test]
fn r62_source_skills_on_rest_turns() {
    let mut s = start("shipwreck", &["fane"]);
    let o = &mut s.origins[0];
    o.collar_broken = true;
    o.hand.push("fane_source".into());
    o.skills.push("fane_source".into());
    let cost = cat().skills["fane_source"].source;
    assert!(cost >= 1);
    let warp = || A::Use {
        card: CardUse::Skill("fane_source".into()),
        aim: Aim::Origin(0),
        first_aura: None,
        include_self: None,
    };
    ok(&mut s, 0, A::ChooseRound { explore: true });
    rejected(&mut s, 0, warp(), "not_combat");
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Pass);
    ok(&mut s, 0, A::ChooseRound { explore: false });
    let source = s.origins[0].source;
    assert_eq!(s.origins[0].ap, 0);
    ok(&mut s, 0, warp());
    if s.pending_roll().is_some() {
        ok(&mut s, 0, A::Accept);
    }
    assert_eq!(s.origins[0].source, source - cost, "Source paid");
    assert!(s.origins[0].track.has(St::Haste));
    assert!(!s.origins[0].hand.contains(&"fane_source".to_string()), "on cooldown");
}

// ---- 1.12 Levelling up (R66-R71) ----

/// The Shipwreck's level-up exit (5b) resolved: the interlude at level 2.
fn level_up_interlude(party: &[&str]) -> DivinityState {
    let mut s = exit_revealed(party);
    ok(&mut s, 0, A::Resolve { card: "5b".into() });
    assert!(matches!(&s.phase, Phase::Interlude(i) if i.level_up));
    s
}

fn up(talent: Option<&str>, learn: &str, respec: &[(&str, &str)]) -> A {
    A::LevelUp {
        talent: talent.map(String::from),
        learn: learn.into(),
        respec: respec.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(),
    }
}

/// R66 (L522, L1342): all Origins level up together, on the exit that says so.
#[test]
fn r66_the_party_levels_up_together() {
    let s = level_up_interlude(&["ifan", "sebille", "lohse"]);
    assert_eq!(s.level, 2);
    assert!(s.origins.iter().all(|o| o.level == 2));
    let mut w = waiting(&s);
    w.sort();
    assert_eq!(w, vec![0, 1, 2], "each Origin makes its level-up");
}

/// R70 (L529): respec may swap talents too, but only for talents the
/// Origin could learn by its new level (R73, L561).
#[test]
fn r70_respec_talents() {
    let mut s = level_up_interlude(&["sebille"]);
    let bad = up(Some("arrow_recovery"), "pin_down", &[("leech", "opportunist")]);
    rejected(&mut s, 0, bad, "talent_level"); // opportunist is level 3
    let bad = up(Some("arrow_recovery"), "pin_down", &[("pet_pal", "thick_skin")]);
    rejected(&mut s, 0, bad, "respec"); // not hers to replace
    ok(&mut s, 0, up(Some("arrow_recovery"), "pin_down", &[("leech", "thick_skin")]));
    let mut t = s.origins[0].talents.clone();
    t.sort();
    assert_eq!(t, vec!["arrow_recovery".to_string(), "thick_skin".into()]);
}

/// R64 (L569, L911): a Source skill can't be learned by levelling up, even
/// with a broken collar.
#[test]
fn r64_no_source_skill_by_levelling_up() {
    let mut s = level_up_interlude(&["sebille"]);
    s.origins[0].collar_broken = true;
    rejected(&mut s, 0, up(Some("arrow_recovery"), "sebille_source", &[]), "skill_set");
    rejected(&mut s, 0, up(Some("arrow_recovery"), "pin_down", &[("tentacle_lash", "sebille_source")]), "skill_set");
    ok(&mut s, 0, up(Some("arrow_recovery"), "pin_down", &[]));
}

// ---- 1.13 Talents (R72-R77) ----

/// R74 (L561): one tile of each talent: no Origin may take a talent another
/// holds, neither at setup nor when levelling up.
#[test]
fn r74_one_tile_of_each_talent() {
    let mut s = level_up_interlude(&["ifan", "sebille"]);
    assert!(s.origins[0].talents.contains(&"pet_pal".to_string()));
    rejected(&mut s, 1, up(Some("pet_pal"), "pin_down", &[]), "talent_taken");
    let respec = up(Some("arrow_recovery"), "pin_down", &[("leech", "pet_pal")]);
    rejected(&mut s, 1, respec, "talent_taken");
    ok(&mut s, 1, up(Some("arrow_recovery"), "pin_down", &[]));
    // Ifan can't take the tile Sebille now holds.
    let learn =
        cat().skills.values().find(|k| k.level == 2 && k.source == 0 && !s.origins[0].skills.contains(&k.id)).unwrap();
    rejected(&mut s, 0, up(Some("arrow_recovery"), &learn.id, &[]), "talent_taken");
    // A saved party whose two Origins hold one tile is refused.
    let save = |origin: &str| OriginSave {
        origin: origin.into(),
        talents: vec!["thick_skin".into()],
        skills: cat().origins[origin].skills.clone(),
        items: vec![],
        collar_broken: false,
        runes: vec![],
    };
    let c = CampaignState {
        rules_version: 1,
        location: "fort_joy".into(),
        level: 2,
        gold: 0,
        journal: vec![],
        origins: vec![save("ifan"), save("sebille")],
        found: vec![],
        finished: false,
        unrestricted_talents: false,
        honor_mode: false,
    };
    refused(
        Divinity::start(&DivinityOptions { campaign: Some(c), ..DivinityOptions::default() }, 1),
        "only one tile of talent thick_skin exists",
        "two saved Origins hold one tile",
    );
}
