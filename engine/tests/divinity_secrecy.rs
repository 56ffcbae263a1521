//! Secrecy of the Divinity views (issue 5, "Views for each seat"): after
//! every accepted action of random matches, no seat's view (nor any event
//! the seat is shown) contains
//! - the id or the front text of a location card still face down in the
//!   location deck (`DivinityState::deck`),
//! - the flip side of a card not flipped yet: the challenge results of a
//!   card in the deck, revealed or held, the victory and defeat sides of a
//!   combat card in the deck, revealed, held or on the active combat stack,
//! - the order of a shuffled deck: a Boss' tactics draw deck
//!   (`Enemy::tactics`), the item decks (`DivinityState::item_decks`: only
//!   their sizes show) and the RNG that will shuffle the Merchant's decks
//!   and pick multicard draws (`DivinityState::rng`).
//!
//! Two checks: the serialized view is searched for every hidden thing, and
//! the view must not change when only hidden things change (the deck, the
//! item decks and the tactics re-ordered, the RNG replaced).

use std::collections::BTreeSet;

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::content::{CardEffect, LocationCard};
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::Phase;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::rng::GameRng;
use athlas_engine::{Ruleset, Seat, Status, Viewer, Visible};
use proptest::prelude::*;
use serde_json::Value;

use crate::divinity_support;
use crate::divinity_support::same;
use divinity_support::*;

fn card<'c>(s: &DivinityState, id: &str) -> Option<&'c LocationCard> {
    cat().locations[&s.location].card(id)
}

/// A string as it appears inside JSON (escaped, without the quotes).
fn json_str(text: &str) -> String {
    let q = serde_json::to_string(text).unwrap();
    q[1..q.len() - 1].to_string()
}

fn effects_value(e: &[CardEffect]) -> Option<Value> {
    (!e.is_empty()).then(|| serde_json::to_value(e).unwrap())
}

/// The back of a card: its challenge results and its combat sides.
fn backs(c: &LocationCard, combat_sides: bool) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(ch) = &c.challenge {
        out.push(serde_json::to_value(&ch.results).unwrap());
        for r in &ch.results {
            out.extend(effects_value(&r.effects));
        }
    }
    if combat_sides {
        out.extend(effects_value(&c.victory));
        out.extend(effects_value(&c.defeat));
    }
    out
}

/// `needle` is somewhere inside `hay` (objects compare whatever their key order).
fn contains(hay: &Value, needle: &Value) -> bool {
    hay == needle
        || match hay {
            Value::Array(a) => a.iter().any(|x| contains(x, needle)),
            Value::Object(o) => o.values().any(|x| contains(x, needle)),
            _ => false,
        }
}

/// Every string leaf of a JSON value with the key it sits under.
fn leaves<'v>(v: &'v Value, key: &str, out: &mut Vec<(String, &'v str)>) {
    match v {
        Value::String(s) => out.push((key.to_string(), s)),
        Value::Array(a) => a.iter().for_each(|x| leaves(x, key, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| leaves(x, k, out)),
        _ => {}
    }
}

/// Keys whose strings name spaces or standee letters, which share their
/// spelling with card ids ("1", "A") without naming a card: a key token's
/// path ends ("a", "b"), a move's destination ("to"), a minion's routes
/// the party chooses among ("routes").
fn names_no_card(key: &str) -> bool {
    key.contains("space") || matches!(key, "letter" | "start" | "a" | "b" | "to" | "from" | "routes")
}

/// What a seat must not see in `json` (a serialized view or event) of
/// state `s`. `except` are cards an event may name because the same
/// action revealed them (a card revealed and returned to the deck).
fn leaks(s: &DivinityState, json: &str, except: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    let value: Value = serde_json::from_str(json).expect("valid JSON");
    let mut strings = Vec::new();
    leaves(&value, "", &mut strings);
    let hidden: BTreeSet<&String> = s.deck.iter().filter(|c| !except.contains(*c)).collect();
    for id in &hidden {
        let Some(c) = card(s, id) else { continue };
        if json.contains(&json_str(&c.text)) {
            out.push(format!("the front text of card {id}, still in the deck"));
        }
        for (key, v) in &strings {
            if *v == id.as_str() && !names_no_card(key) {
                out.push(format!("the id of card {id}, still in the deck, under \"{key}\""));
            }
        }
    }
    // Flip sides: of every card not flipped yet.
    let mut unflipped: Vec<(&String, bool)> = hidden.iter().map(|c| (*c, true)).collect();
    unflipped.extend(s.revealed.iter().map(|r| (&r.card, true)));
    unflipped.extend(s.holding.iter().map(|c| (c, true)));
    unflipped.extend(s.combat_stack.iter().map(|c| (c, true)));
    for (id, combat) in unflipped {
        let Some(c) = card(s, id) else { continue };
        for b in backs(c, combat) {
            if contains(&value, &b) {
                out.push(format!("the flip side of card {id}: {b}"));
            }
        }
    }
    // A Boss' tactics draw deck: neither its cards nor their order.
    for e in &s.enemies {
        for t in &e.tactics {
            if strings.iter().any(|(_, v)| v == t) {
                out.push(format!("tactic {t}, face down in enemy {}'s draw deck", e.id));
            }
        }
        if e.tactics.len() >= 2 && contains(&value, &serde_json::to_value(&e.tactics).unwrap()) {
            out.push(format!("the order of enemy {}'s tactics deck", e.id));
        }
    }
    // The item decks' order (L1031: generic rewards are drawn from the top).
    for (name, cards) in &s.item_decks {
        if cards.len() >= 2 && contains(&value, &serde_json::to_value(cards).unwrap()) {
            out.push(format!("the order of item deck {name}"));
        }
    }
    // The RNG decides every future shuffle and draw.
    let rng = serde_json::to_value(&s.rng).unwrap();
    let mut rng_parts = vec![rng.clone()];
    collect_arrays(&rng, &mut rng_parts);
    for part in rng_parts {
        if contains(&value, &part) {
            out.push(format!("the RNG state {part}"));
        }
    }
    out
}

/// Arrays of at least 8 numbers inside a value (the RNG's seed words).
fn collect_arrays(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Array(a) if a.len() >= 8 && a.iter().all(Value::is_number) => out.push(v.clone()),
        Value::Array(a) => a.iter().for_each(|x| collect_arrays(x, out)),
        Value::Object(o) => o.values().for_each(|x| collect_arrays(x, out)),
        _ => {}
    }
}

fn view_json(s: &DivinityState, seat: Seat) -> String {
    viewer_json(s, Viewer::Seat(seat))
}

fn viewer_json(s: &DivinityState, viewer: Viewer) -> String {
    serde_json::to_string(&Divinity::view(s, viewer)).unwrap()
}

/// The same table with every hidden thing changed: the deck re-ordered,
/// each Boss' draw deck re-ordered below its top card (whose back shows its
/// AP, L1795), and another RNG.
fn scrambled(s: &DivinityState, salt: u64) -> DivinityState {
    let mut t = s.clone();
    t.deck.reverse();
    if t.deck.len() >= 2 && t.deck == s.deck {
        t.deck.swap(0, 1);
    }
    for e in &mut t.enemies {
        if e.tactics.len() > 2 {
            e.tactics[1..].rotate_left(1);
        }
    }
    for cards in t.item_decks.values_mut() {
        cards.reverse();
    }
    t.rng = GameRng::from_seed(salt ^ 0xdead_beef);
    t
}

/// Every check on the state after an accepted action, with its events.
fn check(s: &DivinityState, events: &[Ev]) -> Result<(), String> {
    let mut named = BTreeSet::new();
    for e in events {
        if let Ev::CardRevealed { card, .. } | Ev::CardPlaced { card, .. } | Ev::CardResolved { card } = e {
            named.insert(card.clone());
        }
    }
    let other = scrambled(s, s.round as u64);
    // A challenge card's back shows only once an automatic success flipped
    // it (L1198): before, no row in any view, legal list or its words.
    if let Some(ch) = s.challenge.as_ref().filter(|c| c.flipped.is_none()) {
        let spectator = Divinity::view(s, Viewer::Spectator);
        let names = athlas_engine::divinity::words::Names::new(Some(&spectator));
        let rows: Vec<String> = card(s, &ch.card)
            .and_then(|c| c.challenge.as_ref())
            .map(|c| c.results.iter().map(|r| athlas_engine::divinity::words::effects(names, &r.effects)).collect())
            .unwrap_or_default();
        for seat in 0..s.origins.len() as Seat {
            let legal = Divinity::legal(s, seat);
            if legal.iter().any(|a| matches!(a, A::ChooseResult { .. })) {
                return Err(format!("seat {seat} may choose a row of an unflipped card"));
            }
            let words = serde_json::to_string(&Divinity::action_words(s, seat, &legal)).unwrap();
            let v = viewer_json(s, Viewer::Seat(seat));
            for row in rows.iter().filter(|r| r.len() > 12) {
                if words.contains(row.as_str()) || v.contains(row.as_str()) {
                    return Err(format!("seat {seat} reads the unflipped row {row:?}"));
                }
            }
            if v.contains("challenge_rows") {
                return Err(format!("seat {seat}'s view has the rows of an unflipped card"));
            }
        }
    }
    let viewers = (0..s.origins.len() as Seat).map(Viewer::Seat).chain([Viewer::Spectator]);
    for viewer in viewers {
        let v = viewer_json(s, viewer);
        let found = leaks(s, &v, &BTreeSet::new());
        if !found.is_empty() {
            return Err(format!("{viewer:?}'s view shows {found:?} (phase {:?})", s.phase));
        }
        if v != viewer_json(&other, viewer) {
            return Err(format!(
                "{viewer:?}'s view changes when only the deck order, item deck order, tactics order or RNG change (phase {:?})",
                s.phase
            ));
        }
        for e in events.iter().filter(|e| e.visible_to(viewer)) {
            let found = leaks(s, &serde_json::to_string(e).unwrap(), &named);
            if !found.is_empty() {
                return Err(format!("{viewer:?} is shown event {e:?}, which shows {found:?}"));
            }
        }
    }
    Ok(())
}

/// Party decisions built from their JSON form, so that a decision this
/// version of the engine does not know is simply not offered.
fn party_choices(s: &DivinityState) -> Vec<A> {
    let mut out = Vec::new();
    for route in 0..3 {
        if let Ok(a) = serde_json::from_value::<A>(serde_json::json!({ "type": "choose_route", "route": route })) {
            out.push(a);
        }
    }
    for colour in ["white", "blue", "red"] {
        if let Ok(a) = serde_json::from_value::<A>(serde_json::json!({ "type": "reduce_dice", "remove": [colour] })) {
            out.push(a);
        }
    }
    // An enemy's start-of-turn effects (L684): as offered, and reversed.
    let offered = serde_json::to_value(s).ok().and_then(|v| v.get("turn_start")?.get("statuses").cloned());
    if let Some(Value::Array(mut order)) = offered {
        for _ in 0..2 {
            let json = serde_json::json!({ "type": "order_turn_start", "order": order.clone() });
            if let Ok(a) = serde_json::from_value::<A>(json) {
                out.push(a);
            }
            order.reverse();
        }
    }
    let aims = (0..s.origins.len())
        .map(|t| serde_json::json!({ "kind": "origin", "id": t }))
        .chain(s.enemies.iter().map(|e| serde_json::json!({ "kind": "enemy", "id": e.id })));
    for aim in aims {
        let json = serde_json::json!({ "type": "break_tie", "target": aim });
        if let Ok(a) = serde_json::from_value::<A>(json) {
            out.push(a);
        }
    }
    out
}

/// Plausible actions (and some nonsense) for a seat.
fn candidates(s: &DivinityState, seat: Seat, rng: &mut GameRng) -> Vec<A> {
    let loc = &cat().locations[&s.location];
    let mut out = vec![
        A::ChooseRound { explore: rng.below(4) > 0 },
        A::Reveal,
        A::Reveal,
        A::Pass,
        A::Accept,
        A::Accept,
        A::StartTurn,
        A::EndTurn,
        A::Challenge { auto: None, keywords: vec![] },
        A::Recover { status: None },
        A::Travel { to: None },
    ];
    // Automatic successes and the rows of a flipped card, as listed.
    out.extend(
        Divinity::legal(s, seat)
            .into_iter()
            .filter(|a| matches!(a, A::Challenge { auto: Some(_), .. } | A::ChooseResult { .. })),
    );
    let sp = loc.map.spaces[rng.below(loc.map.spaces.len() as u32) as usize].id.clone();
    out.push(A::Travel { to: Some(sp.clone()) });
    out.push(A::Move { to: sp.clone() });
    out.push(A::Reroll { dice: vec![0], source: rng.below(2) == 0 });
    for r in &s.revealed {
        out.push(A::Resolve { card: r.card.clone() });
        out.push(A::Resolve { card: r.card.clone() });
        out.push(A::Hold { card: r.card.clone() });
    }
    for h in &s.holding {
        out.push(A::TakeHolding { card: h.clone() });
    }
    let o = &s.origins[seat as usize];
    let aims: Vec<Aim> = s
        .enemies
        .iter()
        .map(|e| Aim::Enemy(e.id))
        .chain((0..s.origins.len() as Seat).map(Aim::Origin))
        .chain([Aim::Space(sp)])
        .collect();
    let aim = aims[rng.below(aims.len() as u32) as usize].clone();
    for i in &o.equipped {
        out.push(A::Use { first_aura: None, include_self: None, card: CardUse::Item(i.clone()), aim: aim.clone() });
    }
    for i in &o.backpack {
        out.push(A::Use {
            first_aura: None,
            include_self: None,
            card: CardUse::Consumable(i.clone()),
            aim: aim.clone(),
        });
        out.push(A::Equip { item: i.clone() });
    }
    for k in &o.hand {
        out.push(A::Use { first_aura: None, include_self: None, card: CardUse::Skill(k.clone()), aim: aim.clone() });
    }
    for e in &s.enemies {
        out.push(A::Taunt { enemy: e.id });
        out.push(A::Command { target: Aim::Enemy(e.id) });
    }
    out.push(A::Command { target: Aim::Origin(seat) });
    out.extend(party_choices(s));
    for (t, other) in s.origins.iter().enumerate() {
        if other.downed {
            out.push(A::Revive { to: t as Seat, hp: 1 + rng.below(3) });
        }
    }
    // Interlude: level up with a random skill and talent, the Merchant.
    out.push(A::FinishInterlude);
    out.push(A::VisitMerchant { level: 1 + rng.below(2), consumables: None });
    let learnable: Vec<&String> = cat().skills.keys().collect();
    let talents: Vec<&String> = cat().talents.keys().collect();
    for _ in 0..4 {
        out.push(A::LevelUp {
            talent: Some(talents[rng.below(talents.len() as u32) as usize].clone()),
            learn: learnable[rng.below(learnable.len() as u32) as usize].clone(),
            respec: vec![],
        });
    }
    if let Phase::Interlude(i) = &s.phase {
        for item in &i.offer {
            out.push(A::Buy { item: item.clone(), to: seat });
        }
    }
    out
}

/// What a random match went through, to show the property is not vacuous.
#[derive(Default, Debug)]
struct Seen {
    checked: usize,
    deck_cards: usize,
    challenges: usize,
    /// States with a challenge card flipped by an automatic success.
    flips: usize,
    combat_stack: usize,
    boss_decks: usize,
    interludes: usize,
    finished: usize,
}

fn play(options: &DivinityOptions, seed: u64, steps: usize) -> Result<Seen, String> {
    let mut s = Divinity::start(options, seed).map_err(|e| e.message)?;
    let mut rng = GameRng::from_seed(seed ^ 0x5ec2e7);
    let mut seen = Seen::default();
    check(&s, &[])?;
    let n = s.origins.len() as u32;
    for _ in 0..steps {
        let waiting = match Divinity::status(&s) {
            Status::Finished(_) => break,
            Status::Waiting { seats } => seats,
        };
        let seat = if waiting.is_empty() || rng.below(10) == 0 {
            rng.below(n) as Seat
        } else {
            waiting[rng.below(waiting.len() as u32) as usize]
        };
        // A few random candidates, the first one accepted (a rejected
        // action leaves the state as it was).
        let cands = candidates(&s, seat, &mut rng);
        let mut accepted = None;
        for _ in 0..6 {
            let a = cands[rng.below(cands.len() as u32) as usize].clone();
            if let Ok(events) = Divinity::apply(&mut s, seat, a.clone()) {
                accepted = Some((a, events));
                break;
            }
        }
        let Some((a, events)) = accepted else { continue };
        check(&s, &events).map_err(|m| format!("after {a:?} by seat {seat}: {m}"))?;
        seen.checked += 1;
        seen.deck_cards += s.deck.len();
        seen.challenges += s.challenge.is_some() as usize;
        seen.flips += s.challenge.as_ref().is_some_and(|c| c.flipped.is_some()) as usize;
        seen.combat_stack += !s.combat_stack.is_empty() as usize;
        seen.boss_decks += s.enemies.iter().any(|e| e.tactics.len() >= 2) as usize;
        seen.interludes += matches!(s.phase, Phase::Interlude(_)) as usize;
    }
    seen.finished += Divinity::status(&s).is_finished() as usize;
    Ok(seen)
}

const LOCATIONS: [&str; 5] = ["tutorial", "shipwreck", "fort_joy", "hollow_marshes", "temple"];
const PARTY: [&str; 4] = ["ifan", "sebille", "red_prince", "fane"];

/// A party of `size` at location `loc`; `led`: seat 0 is the party's leader,
/// else any seat takes the party's decisions.
fn options(loc: usize, size: usize, solo: bool, led: bool) -> DivinityOptions {
    DivinityOptions {
        party: PARTY[..size].iter().map(|p| p.to_string()).collect(),
        location: Some(LOCATIONS[loc].to_string()),
        solo: solo && size == 2,
        leader: led.then_some(0),
        ..DivinityOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_view_shows_an_unrevealed_card_a_flip_side_or_a_deck_order(
        seed in any::<u64>(),
        loc in 0usize..5,
        size in 1usize..=4,
        solo in any::<bool>(),
        led in any::<bool>(),
    ) {
        let result = play(&options(loc, size, solo, led), seed, 800);
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

/// The random matches of the property reach the places where secrets are
/// kept: a full deck, challenges, an active combat stack, a Boss' tactics
/// deck, an interlude.
#[test]
fn random_matches_reach_every_kind_of_secret() {
    let mut total = Seen::default();
    // With a leader and without: who may answer the party's decisions
    // changes which seat's random action is taken.
    for (seed, led) in (0..40u64).flat_map(|seed| [(seed, true), (seed, false)]) {
        let loc = (seed % 5) as usize;
        let size = 1 + (seed % 4) as usize;
        let seen = play(&options(loc, size, seed % 3 == 0, led), seed, 800).unwrap();
        total.checked += seen.checked;
        total.deck_cards += seen.deck_cards;
        total.challenges += seen.challenges;
        total.flips += seen.flips;
        total.combat_stack += seen.combat_stack;
        total.boss_decks += seen.boss_decks;
        total.interludes += seen.interludes;
        total.finished += seen.finished;
    }
    eprintln!("{total:?}");
    assert!(total.checked > 1000, "{total:?}");
    assert!(total.deck_cards > 0 && total.challenges > 0 && total.combat_stack > 0, "{total:?}");
    assert!(total.boss_decks > 0, "no random match met the Boss: {total:?}");
    assert!(total.interludes > 0, "no random match reached an interlude: {total:?}");
    assert!(total.flips > 0, "no random match flipped a challenge card: {total:?}");
}

/// The checks find each kind of leak when one is planted in a view, so the
/// property above can fail.
#[test]
fn the_checks_find_planted_leaks() {
    // A Shipwreck party on the Beach with card 3 (a challenge-less combat
    // card) and card 1 (a challenge) still in the deck.
    let s = Divinity::start(&options(1, 2, false, false), 3).unwrap();
    assert!(s.deck.contains(&"1".to_string()) && s.deck.contains(&"3".to_string()));
    let clean = view_json(&s, 0);
    assert_eq!(leaks(&s, &clean, &BTreeSet::new()), Vec::<String>::new());
    let plant = |f: &dyn Fn(&mut Value)| {
        let mut v: Value = serde_json::from_str(&clean).unwrap();
        f(&mut v);
        leaks(&s, &v.to_string(), &BTreeSet::new())
    };
    let c3 = card(&s, "3").unwrap().clone();
    let c1 = card(&s, "1").unwrap().clone();
    // The front of a face-down card.
    assert!(!plant(&|v| v["holding"] = serde_json::json!([{ "id": "x", "text": c3.text }])).is_empty());
    // Its id in a card list.
    assert!(!plant(&|v| v["discard"] = serde_json::json!(["3"])).is_empty());
    // But a space id spelled like a card id is no card.
    assert!(plant(&|v| v["enemies"] = serde_json::json!([{ "space": "3", "letter": "A" }])).is_empty());
    // The results on the back of a challenge card, and a combat card's victory side.
    let results = serde_json::to_value(&c1.challenge.as_ref().unwrap().results).unwrap();
    assert!(!plant(&|v| v["extra"] = results.clone()).is_empty());
    let victory = serde_json::to_value(&c3.victory).unwrap();
    assert!(!plant(&|v| v["extra"] = victory.clone()).is_empty());
    // The RNG.
    let rng = serde_json::to_value(&s.rng).unwrap();
    assert!(!plant(&|v| v["extra"] = rng.clone()).is_empty());
    // An item deck's order, and the differential check on it.
    let potions = s.item_decks["potions"].clone();
    assert!(potions.len() >= 2);
    assert!(!plant(&|v| v["extra"] = serde_json::json!(potions)).is_empty());
    let mut t = s.clone();
    t.item_decks.get_mut("potions").unwrap().reverse();
    assert_eq!(clean, view_json(&t, 0), "the view shows item deck sizes, not their order");
    assert_eq!(Divinity::view(&s, Viewer::Seat(0)).item_deck_sizes["potions"], potions.len());
    // A Boss' draw deck: the party wakes the Warden in the Temple's Sanctum.
    let mut s = Divinity::start(&options(4, 2, false, false), 5).unwrap();
    let steps = [
        (0, A::ChooseRound { explore: true }),
        (0, A::Travel { to: Some("3".into()) }),
        (1, A::Travel { to: Some("3".into()) }),
        (0, A::Reveal),
        (0, A::Resolve { card: "3".into() }),
    ];
    for (seat, a) in steps {
        Divinity::apply(&mut s, seat, a.clone()).unwrap_or_else(|e| panic!("{a:?}: {}", e.message));
    }
    let boss = s.enemies.iter().find(|e| e.tactics.len() >= 3).expect("the Warden with her tactics deck");
    let top = boss.tactics[0].clone();
    let clean = view_json(&s, 0);
    assert_eq!(leaks(&s, &clean, &BTreeSet::new()), Vec::<String>::new());
    let mut v: Value = serde_json::from_str(&clean).unwrap();
    v["enemies"][0]["next"] = serde_json::json!(top);
    assert!(!leaks(&s, &v.to_string(), &BTreeSet::new()).is_empty());
    // The differential check: a view that showed the top tactic or the
    // deck's order would differ on the scrambled table.
    let t = scrambled(&s, 1);
    assert_ne!(t.deck, s.deck);
    assert_ne!(t.enemies[0].tactics, s.enemies[0].tactics);
    assert_eq!(t.enemies[0].tactics[0], s.enemies[0].tactics[0]);
    assert_ne!(serde_json::to_string(&t.rng).unwrap(), serde_json::to_string(&s.rng).unwrap());
    assert_eq!(clean, view_json(&t, 0));
}

/// The views of one record are built together (`Divinity::views`): once,
/// copied for each viewer, their shared parts written to JSON once and
/// taken from the record before's views while unchanged. Over a party-bot
/// game, at every record each view so built equals the view built alone,
/// its JSON byte for byte; the viewers' shared parts are one value, and
/// the board, which never changes within a location, is the first
/// record's all game long.
#[test]
fn views_built_together_equal_views_built_alone() {
    use athlas_engine::divinity::bot;
    use athlas_engine::divinity::content::Catalogue;
    use athlas_engine::divinity::legal::legal;
    let cat = Catalogue::standard();
    let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator];
    let options = DivinityOptions {
        party: ["ifan", "sebille", "red_prince"].iter().map(|p| p.to_string()).collect(),
        location: Some("shipwreck".into()),
        ..DivinityOptions::default()
    };
    let mut s = Divinity::start(&options, 1).expect("setup");
    let mut before: Option<athlas_engine::divinity::DivinityView> = None;
    let (mut records, mut origins_kept) = (0, 0);
    for i in 0..400 {
        let together = Divinity::views(&s, &viewers, true, before.as_ref());
        for (v, view) in viewers.iter().zip(&together) {
            let alone = Divinity::view(&s, *v);
            assert_eq!(view, &alone, "{v:?}");
            assert_eq!(serde_json::to_string(view).unwrap(), serde_json::to_string(&alone).unwrap(), "{v:?}");
        }
        assert!(together.windows(2).all(|w| w[0].origins.same(&w[1].origins) && same(&w[0].board, &w[1].board)));
        if let Some(b) = &before {
            assert!(same(&together[0].board, &b.board), "the board is written once a location");
            origins_kept += usize::from(together[0].origins.same(&b.origins));
        }
        before = together.into_iter().next();
        records += 1;
        let Status::Waiting { seats } = Divinity::status(&s) else { break };
        let Some((seat, a)) = (0..seats.len()).map(|k| seats[(i + k) % seats.len()]).find_map(|seat| {
            bot::choose(cat, &Divinity::view(&s, Viewer::Seat(seat)), seat, &legal(cat, &s, seat)).map(|a| (seat, a))
        }) else {
            break;
        };
        Divinity::apply(&mut s, seat, a).expect("a listed action is accepted");
    }
    assert!(records > 100 && origins_kept > 0, "{records} records, Origins kept {origins_kept} times");
}
