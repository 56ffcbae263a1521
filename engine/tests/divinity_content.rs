//! The shipped Divinity content: it loads, every cross-reference resolves,
//! and it has what issue #5 asks for. Breaking any reference makes the
//! catalogue refuse to load.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::content::{CardEffect, Catalogue, ItemKind, LocationDef};
use athlas_engine::divinity::damage::Environment;
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::Who;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, Status};

use crate::divinity_support;
use divinity_support::*;

fn effects(l: &LocationDef) -> Vec<(&str, &CardEffect)> {
    let mut out = Vec::new();
    for c in &l.cards {
        let mut all: Vec<&CardEffect> =
            c.effects.iter().chain(&c.when_explored).chain(&c.victory).chain(&c.defeat).collect();
        if let Some(ch) = &c.challenge {
            all.extend(ch.results.iter().flat_map(|r| &r.effects));
        }
        out.extend(all.into_iter().map(|e| (c.id.as_str(), e)));
    }
    out
}

#[test]
fn catalogue_loads_and_validates() {
    let c = Catalogue::load().expect("content loads");
    c.validate().unwrap();
    assert_eq!(&c, cat());
}

#[test]
fn location_cards_reference_known_things() {
    let c = cat();
    let mut journal_seen = BTreeSet::new();
    for l in c.locations.values() {
        let ids: BTreeSet<&str> = l.cards.iter().map(|k| k.id.as_str()).collect();
        for (card, e) in effects(l) {
            let ok = match e {
                CardEffect::Spawn { rows } => {
                    rows.iter().all(|r| c.minions.contains_key(&r.minion) && l.map.ix(&r.space).is_some())
                }
                CardEffect::SpawnBoss { boss } => c.bosses.get(boss).is_some_and(|b| l.map.ix(&b.space).is_some()),
                CardEffect::Item { item } => c.items.contains_key(item),
                CardEffect::Rune { rune } => c.runes.contains_key(rune),
                CardEffect::Journal { card } => {
                    journal_seen.insert(*card);
                    c.journal.contains_key(card)
                }
                CardEffect::PlaceCard { card, space } => ids.contains(card.as_str()) && l.map.ix(space).is_some(),
                CardEffect::Resolve { card } => ids.contains(card.as_str()),
                CardEffect::Exit { to, .. } => c.locations.contains_key(to) || to == &c.campaign.finale,
                CardEffect::Environment { space, .. } | CardEffect::PlaceSelf { space } => l.map.ix(space).is_some(),
                _ => true,
            };
            assert!(ok, "location {} card {card}: dangling reference in {e:?}", l.id);
        }
    }
    assert_eq!(journal_seen, c.journal.keys().copied().collect(), "every journal card is reachable");
}

#[test]
fn origins_reference_known_skills_talents_and_items() {
    let c = cat();
    assert!(c.origins.len() >= 10, "10 playable Origins (G5)");
    for o in c.origins.values() {
        assert_eq!(o.skills.len(), 4, "{}: 4 level-1 skills at creation (G6)", o.id);
        for s in o.skills.iter().chain(&o.source_skills) {
            assert!(c.skills.contains_key(s), "{}: {s}", o.id);
        }
        assert!(!o.source_skills.is_empty(), "{}: has a Source skill", o.id);
        for t in &o.talents {
            assert!(c.talents.contains_key(t), "{}: {t}", o.id);
        }
        // The starting kit fits the equipment slots (R126-R128).
        let mut hands = 0;
        let mut slots = BTreeMap::new();
        for i in &o.items {
            match c.items[i].kind {
                ItemKind::Equipment(s) => {
                    use athlas_engine::divinity::content::Slot::*;
                    match s {
                        OneHand => hands += 1,
                        TwoHands => hands += 2,
                        other => *slots.entry(other).or_insert(0) += 1,
                    }
                }
                ItemKind::Consumable(_) => {}
            }
        }
        assert!(hands <= 2 && slots.values().all(|&n| n <= 1), "{}: starting items fit", o.id);
    }
    assert!(c.origins["ifan"].keywords.iter().any(|k| k == "MERCENARY"), "L1192");
    let rp = &c.origins["red_prince"];
    assert!(rp.immune.contains(&athlas_engine::divinity::damage::DamageType::Fire), "L702");
    assert!(rp.immune_statuses.contains(&athlas_engine::divinity::status::Status::Burning), "L702");
    // E06 needs these at their printed levels.
    assert_eq!(c.talents["arrow_recovery"].level, 1);
    assert_eq!(c.skills["pin_down"].level, 2);
    assert_eq!(c.skills["ricochet"].level, 1);
    assert_eq!(c.skills["fireball"].level, 3);
    assert!(c.origins["sebille"].skills.iter().any(|s| s == "tentacle_lash"));
}

/// Every location reachable from the first, with the party's level there.
fn reachable() -> BTreeMap<String, u32> {
    let c = cat();
    let first = &c.locations[&c.campaign.first];
    let mut seen = BTreeMap::from([(first.id.clone(), first.level)]);
    let mut q = VecDeque::from([first.id.clone()]);
    while let Some(id) = q.pop_front() {
        let level = seen[&id];
        for (to, up) in c.locations[&id].exits() {
            if c.locations.contains_key(to) && !seen.contains_key(to) {
                seen.insert(to.to_string(), level + u32::from(up));
                q.push_back(to.to_string());
            }
        }
    }
    seen
}

#[test]
fn issue_counts() {
    let c = cat();
    // A tutorial location, first in the campaign.
    assert_eq!(c.campaign.first, "tutorial");
    assert!(c.locations.contains_key("tutorial"));
    // At least three more with full decks, timed events and exits.
    let mut full = 0;
    for l in c.locations.values() {
        let numbered: Vec<u32> = l.map.spaces.iter().filter_map(|s| s.number).collect();
        let placed: BTreeSet<&str> = effects(l)
            .into_iter()
            .filter_map(|(_, e)| match e {
                CardEffect::PlaceCard { space, .. } => Some(space.as_str()),
                _ => None,
            })
            .collect();
        let deck_full = l.map.spaces.iter().filter(|s| s.number.is_some()).all(|s| {
            if s.locked {
                placed.contains(s.id.as_str())
            } else {
                l.cards.iter().any(|k| k.space == s.number)
            }
        });
        assert!(deck_full, "{}: every numbered space has its card ({numbered:?})", l.id);
        assert!(l.card(&l.time.end).is_some(), "{}: end-of-scenario event", l.id);
        if l.id != "tutorial" && !l.time.events.is_empty() && !l.exits().is_empty() {
            full += 1;
        }
    }
    assert!(full >= 3, "three locations besides the tutorial with events and exits, got {full}");
    // Every location is reachable and the campaign can end.
    let reach = reachable();
    assert_eq!(reach.keys().cloned().collect::<BTreeSet<_>>(), c.locations.keys().cloned().collect());
    assert!(c.locations.values().any(|l| l.exits().iter().any(|(to, _)| *to == c.campaign.finale)));
    // Location levels follow the level-ups along the exits (L531).
    for (id, level) in &reach {
        assert_eq!(c.locations[id].level, *level, "{id}");
    }
    // Origins have a card for every level the campaign reaches.
    let top = *reach.values().max().unwrap();
    for o in c.origins.values() {
        assert!(o.at(top).is_some(), "{} at level {top}", o.id);
    }
    // At least one boss with a tactics deck, spawned somewhere.
    let spawned: BTreeSet<&str> = c
        .locations
        .values()
        .flat_map(effects)
        .filter_map(|(_, e)| match e {
            CardEffect::SpawnBoss { boss } => Some(boss.as_str()),
            _ => None,
        })
        .collect();
    assert!(c.bosses.values().any(|b| b.tactics.len() >= 3 && spawned.contains(b.id.as_str())));
    // Minions: standard and veteran sides, the veteran the harder one.
    assert!(c.minions.len() >= 4);
    for m in c.minions.values() {
        assert!(m.veteran.hp > m.standard.hp, "{}", m.id);
    }
    for id in ["darkhans_lackey", "undead_ranger", "crocodile", "bandit_hydrosophist"] {
        assert!(c.minions.contains_key(id), "{id} is named in the book");
    }
    assert_eq!(c.minions["darkhans_lackey"].standard.hp, 28, "L1233");
    // Items named in the book, with the costs its examples need (E30).
    assert_eq!(c.items["long_sword"].cost, Some(2));
    assert_eq!(c.items["fire_staff"].cost, Some(4));
    assert_eq!(c.items["fire_staff"].level, 2);
    assert_eq!(c.items["blessed_arrows"].cost, Some(3));
}

/// The book's tutorial has 14 location cards (L53-209, L82). Ours are
/// original texts (ASSUMPTIONS.md, "Locations") that still teach what the
/// tutorial is for: timed events, a challenge, a spawn with victory and
/// defeat, item rewards and an exit; every one of them can come into play.
#[test]
fn the_tutorial_deck_has_14_cards() {
    let l = &cat().locations["tutorial"];
    assert_eq!(l.cards.len(), 14, "{:?}", l.cards.iter().map(|c| &c.id).collect::<Vec<_>>());
    assert!(l.cards.iter().any(|c| c.challenge.is_some()), "a challenge");
    assert!(l.cards.iter().any(|c| !c.victory.is_empty() && !c.defeat.is_empty()), "a combat card");
    let all = effects(l);
    assert!(all.iter().any(|(_, e)| matches!(e, CardEffect::Spawn { .. })), "a spawn");
    assert!(all.iter().any(|(_, e)| matches!(e, CardEffect::Exit { .. })), "an exit");
    let items = |e: &CardEffect| {
        matches!(e, CardEffect::Item { .. } | CardEffect::RandomItem { .. } | CardEffect::RandomConsumable { .. })
    };
    assert!(all.iter().any(|(_, e)| e.walk().into_iter().any(items)), "item rewards");
    assert!(l.time.events.len() >= 2, "timed events: {:?}", l.time.events);
    // Every card is dealt somewhere: a numbered space, the time track, or placed by another card.
    let placed: BTreeSet<&str> = all
        .iter()
        .filter_map(|(_, e)| match e {
            CardEffect::PlaceCard { card, .. } => Some(card.as_str()),
            _ => None,
        })
        .collect();
    for c in &l.cards {
        let timed = l.time.events.values().any(|e| *e == c.id) || l.time.end == c.id;
        assert!(c.space.is_some() || timed || placed.contains(c.id.as_str()), "card {} never comes into play", c.id);
    }
}

/// Reveal and resolve one tutorial card at its space, as the first of the
/// cards of that space left in the deck, with the party of Cassian (NOBLE)
/// and Lohse standing there; challenges are rolled and accepted.
fn play_tutorial_card(card: &str) -> (DivinityState, Vec<Ev>) {
    let options = DivinityOptions {
        party: vec!["cassian".into(), "lohse".into()],
        location: Some("tutorial".into()),
        ..DivinityOptions::default()
    };
    let mut s = Divinity::start(&options, 3).unwrap();
    let l = &cat().locations["tutorial"];
    let space = l.card(card).and_then(|c| c.space).unwrap();
    let before: Vec<String> = l.cards.iter().take_while(|c| c.id != card).map(|c| c.id.clone()).collect();
    s.deck.retain(|c| !(before.contains(c) && l.card(c).unwrap().space == Some(space)));
    let mut ev = Vec::new();
    let mut act = |s: &mut DivinityState, seat: Seat, a: A| match Divinity::apply(s, seat, a.clone()) {
        Ok(e) => ev.extend(e),
        Err(e) => panic!("{a:?} by {seat}: {}", e.message),
    };
    act(&mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..2 {
        act(&mut s, seat, A::Travel { to: Some(space.to_string()) });
    }
    act(&mut s, 0, A::Reveal);
    act(&mut s, 0, A::Resolve { card: card.into() });
    while s.challenge.is_some() {
        let seat = match Divinity::status(&s) {
            Status::Waiting { seats } => seats[0],
            Status::Finished(_) => break,
        };
        let a = if s.pending_roll().is_some() { A::Accept } else { A::Challenge { auto: None, keywords: vec![] } };
        act(&mut s, seat, a);
    }
    assert!(ev.iter().any(|e| matches!(e, Ev::CardResolved { card: c } if c == card)), "{card}: {ev:?}");
    (s, ev)
}

/// The cards added to the tutorial do what their texts say.
#[test]
fn the_new_tutorial_cards_play() {
    let gained = |ev: &[Ev]| ev.iter().any(|e| matches!(e, Ev::ItemGained { .. } | Ev::NoRoom { .. }));
    let (_, ev) = play_tutorial_card("1b");
    assert!(gained(&ev), "1b: a potion {ev:?}");
    let (s, _) = play_tutorial_card("1c");
    assert_eq!(s.gold, 2, "1c: Cassian is a NOBLE");
    let (_, ev) = play_tutorial_card("2b");
    assert!(ev.iter().filter(|e| matches!(e, Ev::Rolled { .. })).count() == 1, "2b: one roller {ev:?}");
    let (s, ev) = play_tutorial_card("2c");
    let hold = cat().locations["tutorial"].map.ix("3").unwrap();
    assert!(s.origins.iter().all(|o| o.space == hold), "2c: into the hold");
    assert!(ev.iter().any(|e| matches!(e, Ev::Damaged { .. })), "2c: the fall hurts");
    // The timed events B (space 8) and C (space 10).
    let options = DivinityOptions {
        party: vec!["cassian".into(), "lohse".into()],
        location: Some("tutorial".into()),
        ..DivinityOptions::default()
    };
    let mut s = Divinity::start(&options, 3).unwrap();
    let rest = |s: &mut DivinityState| {
        let mut ev = Divinity::apply(s, 0, A::ChooseRound { explore: false }).unwrap();
        for seat in 0..2 {
            ev.extend(Divinity::apply(s, seat, A::EndTurn).unwrap());
        }
        ev
    };
    s.time = Some(7);
    rest(&mut s);
    assert!(s.discard.contains(&"B".to_string()));
    assert_eq!(s.map.tokens.get(&hold), Some(&Environment::Wet), "B floods the hold");
    s.time = Some(9);
    let ev = rest(&mut s);
    assert!(s.discard.contains(&"C".to_string()));
    for seat in 0..2 {
        let hurt = ev.iter().any(|e| matches!(e, Ev::Damaged { who: Who::Origin(w), amount: 1, .. } if *w == seat));
        assert!(hurt, "C hurts everyone: {ev:?}");
    }
}

#[test]
fn broken_references_are_refused() {
    let base = cat().clone();
    type Break = Box<dyn Fn(&mut Catalogue)>;
    let mut breaks: Vec<(&str, &str, Break)> = vec![
        (
            "unknown minion",
            "unknown minion nobody",
            Box::new(|c| {
                let l = c.locations.get_mut("tutorial").unwrap();
                for k in &mut l.cards {
                    if let Some(CardEffect::Spawn { rows }) = k.effects.first_mut() {
                        rows[0].minion = "nobody".into();
                    }
                }
            }),
        ),
        (
            "unknown item",
            "unknown item nothing",
            Box::new(|c| {
                let l = c.locations.get_mut("temple").unwrap();
                l.cards[1].effects.push(CardEffect::Item { item: "nothing".into() });
            }),
        ),
        (
            "unknown journal card",
            "unknown journal card 1",
            Box::new(|c| {
                c.journal.remove(&1);
            }),
        ),
        (
            "unknown exit",
            "unknown exit atlantis",
            Box::new(|c| {
                let l = c.locations.get_mut("tutorial").unwrap();
                l.cards[0].effects.push(CardEffect::Exit { to: "atlantis".into(), level_up: false, optional: false });
            }),
        ),
        (
            "boss without tactics",
            "has no tactics",
            Box::new(|c| {
                c.bosses.values_mut().next().unwrap().tactics.clear();
            }),
        ),
        (
            "unknown boss",
            "unknown boss the_warden",
            Box::new(|c| {
                c.bosses.clear();
            }),
        ),
        (
            "origin's unknown skill",
            "origin ifan: unknown skill juggling",
            Box::new(|c| {
                c.origins.get_mut("ifan").unwrap().skills[0] = "juggling".into();
            }),
        ),
        (
            "origin's unknown talent",
            "origin ifan: unknown talent juggling",
            Box::new(|c| {
                c.origins.get_mut("ifan").unwrap().talents[0] = "juggling".into();
            }),
        ),
        (
            "two Origins start with one talent tile",
            "starts with two Origins",
            Box::new(|c| {
                let t = c.origins["ifan"].talents[0].clone();
                c.origins.get_mut("sebille").unwrap().talents[0] = t;
            }),
        ),
        (
            "origin missing a level",
            "origin fane has no card for level 4",
            Box::new(|c| {
                c.origins.get_mut("fane").unwrap().levels.truncate(2);
            }),
        ),
        (
            "advanced skill without training",
            "advanced, but its school has no training talent",
            // No talent trains any school. Removing the training talents
            // instead is refused first for Cassian's unknown starting talent.
            Box::new(|c| {
                for t in c.talents.values_mut() {
                    t.training = None;
                }
            }),
        ),
        (
            "timed event without its card",
            "event card Q missing",
            Box::new(|c| {
                c.locations.get_mut("shipwreck").unwrap().time.events.insert(3, "Q".into());
            }),
        ),
        (
            "an event card with a challenge",
            "event card A has a challenge or a space",
            Box::new(|c| {
                let l = c.locations.get_mut("tutorial").unwrap();
                let ch = l.cards[0].challenge.clone();
                l.cards.iter_mut().find(|k| k.id == "A").unwrap().challenge = ch;
            }),
        ),
        (
            "level does not follow the exits",
            "level 3 does not follow",
            Box::new(|c| {
                c.locations.get_mut("fort_joy").unwrap().level = 5;
            }),
        ),
        (
            "a talent flipped for its effect that is not once per location",
            "an effect used by flipping needs once_per_location",
            Box::new(|c| {
                c.talents.get_mut("comeback_kid").unwrap().once_per_location = false;
            }),
        ),
        (
            "skill needing a keyword no starting item gives",
            "needs BOW and no starting item gives it",
            Box::new(|c| {
                c.origins.get_mut("ifan").unwrap().items.retain(|i| i != "short_bow");
            }),
        ),
    ];
    for (what, phrase, f) in breaks.iter_mut() {
        let mut c = base.clone();
        f(&mut c);
        refused(c.validate(), phrase, what);
    }
}
