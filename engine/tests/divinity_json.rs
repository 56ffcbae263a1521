//! The JSON the server sends of a waiting seat's legal list, written by
//! hand (`Divinity::write_actions`, `Divinity::write_named_action_words`),
//! is byte for byte serde_json's writing of the same values: over
//! party-bot games at several locations, every waiting seat at each
//! position, and over every kind of action with awkward strings.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use athlas_engine::divinity::content::{Catalogue, ConsumableDeck};
use athlas_engine::divinity::dice::Colour;
use athlas_engine::divinity::state::MerchantDeck;
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, SeatNames};

use crate::divinity_support::{bot_step, waiting};

/// Every `step`-th position of party-bot games with its waiting seats (as
/// the engine bench's `bot_positions`): at each position the bot plays for
/// one waiting seat (in turn) from that seat's list and view.
fn bot_positions(step: usize, games: &[(&str, usize, u64)]) -> Vec<(DivinityState, Vec<Seat>)> {
    let cat = Catalogue::standard();
    let party = ["ifan", "sebille", "red_prince", "fane"];
    let mut out = Vec::new();
    for &(location, size, seed) in games {
        let options = DivinityOptions {
            party: party[..size].iter().map(|p| p.to_string()).collect(),
            location: Some(location.into()),
            ..DivinityOptions::default()
        };
        let mut s = Divinity::start(&options, seed).expect("setup");
        for i in 0.. {
            let seats = waiting(&s);
            if seats.is_empty() || i == 1_500 {
                break;
            }
            if i % step == 0 {
                out.push((s.clone(), seats.clone()));
            }
            if !bot_step(cat, &mut s, i) {
                break;
            }
        }
    }
    out
}

fn written_actions(actions: &[A]) -> String {
    let mut out = Vec::new();
    Divinity::write_actions(actions, &mut out);
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn a_legal_list_and_its_words_are_written_as_serde_writes_them() {
    let mut games = vec![("tutorial", 2, 3)];
    for seed in 0..3 {
        games.extend([("shipwreck", 3, seed), ("fort_joy", 3, seed), ("hollow_marshes", 4, seed), ("temple", 4, seed)]);
    }
    let names = SeatNames::default();
    let (mut lists, mut actions) = (0, 0);
    let mut kinds = std::collections::BTreeSet::new();
    for (s, seats) in bot_positions(1, &games) {
        for seat in seats {
            let list = Divinity::legal(&s, seat);
            assert_eq!(written_actions(&list), serde_json::to_string(&list).unwrap(), "{:?}", s.phase);
            let mut words = Vec::new();
            Divinity::write_named_action_words(&s, seat, &list, &names, &mut words);
            let expected = serde_json::to_vec(&Divinity::named_action_words(&s, seat, &list, &names)).unwrap();
            assert_eq!(String::from_utf8(words).unwrap(), String::from_utf8(expected).unwrap(), "{:?}", s.phase);
            lists += 1;
            actions += list.len();
            kinds.extend(list.iter().map(|a| serde_json::to_value(a).unwrap()["type"].as_str().unwrap().to_owned()));
        }
    }
    assert!(lists > 2_000 && actions > 50_000, "only {lists} lists of {actions} actions");
    for kind in ["use", "level_up", "give", "take", "reroll", "move", "travel", "buy", "sell", "taunt", "equip"] {
        assert!(kinds.contains(kind), "no {kind} listed: {kinds:?}");
    }
}

/// Every kind of action, each optional field both ways, with strings that
/// need escaping (quotes, backslashes, control characters, non-ASCII).
#[test]
fn every_kind_of_action_is_written_as_serde_writes_it() {
    let odd = ["", "plain", "a\"quote", "back\\slash", "tab\there", "nl\n\r\u{8}\u{c}", "\u{1}\u{1f}\u{7f}", "é“”…"];
    let mut all = Vec::new();
    for s in odd.map(String::from) {
        let aims = [Aim::Origin(3), Aim::Enemy(4_000_000_000), Aim::Space(s.clone())];
        let cards =
            [CardUse::Skill(s.clone()), CardUse::Item(s.clone()), CardUse::Consumable(s.clone()), CardUse::Summon];
        let froms = [KeywordFrom::Permanent, KeywordFrom::Skill(s.clone()), KeywordFrom::Consumable(s.clone())];
        all.extend([
            A::ChooseRound { explore: true },
            A::ChooseRound { explore: false },
            A::Travel { to: None },
            A::Travel { to: Some(s.clone()) },
            A::Reveal,
            A::TakeHolding { card: s.clone() },
            A::Pass,
            A::Resolve { card: s.clone() },
            A::Hold { card: s.clone() },
            A::Challenge { auto: None, keywords: Vec::new() },
            A::ChooseResult { row: usize::MAX },
            A::Reroll { dice: Vec::new(), source: true },
            A::Reroll { dice: vec![0, 5, 12], source: false },
            A::Accept,
            A::StartTurn,
            A::Move { to: s.clone() },
            A::Taunt { enemy: 0 },
            A::Equip { item: s.clone() },
            A::AttachRune { rune: s.clone(), item: "x".into() },
            A::Store { item: s.clone() },
            A::Give { item: s.clone(), to: 1, equip: true },
            A::Take { item: s.clone(), from: 255, equip: false },
            A::PlaceItem { to: None, drop: None, pass_to: None },
            A::PlaceItem { to: Some(2), drop: Some(s.clone()), pass_to: Some(0) },
            A::Discard { item: s.clone() },
            A::Recover { status: None },
            A::Recover { status: Some(St::KnockedDown) },
            A::UseTalent { talent: s.clone() },
            A::UseAbility { aim: None },
            A::Revive { to: 0, hp: u32::MAX },
            A::EndTurn,
            A::ChooseRoute { route: 7 },
            A::ReduceDice { remove: vec![Colour::White, Colour::Red, Colour::Blue] },
            A::ReduceDice { remove: Vec::new() },
            A::OrderTurnStart { order: vec![St::Burning, St::Poisoned] },
            A::LevelUp { talent: None, learn: s.clone(), respec: Vec::new() },
            A::LevelUp {
                talent: Some(s.clone()),
                learn: "l".into(),
                respec: vec![(s.clone(), "b".into()), ("c".into(), s.clone())],
            },
            A::VisitMerchant { level: 2, consumables: None },
            A::VisitMerchant { level: 1, consumables: Some(ConsumableDeck::Grenades) },
            A::Restock { deck: MerchantDeck::Equipment(3) },
            A::Restock { deck: MerchantDeck::Consumables(ConsumableDeck::Arrows) },
            A::Buy { item: s.clone(), to: 3 },
            A::Sell { item: s.clone() },
            A::FinishInterlude,
        ]);
        for f in &froms {
            all.push(A::Challenge { auto: Some((s.clone(), f.clone())), keywords: vec![(s.clone(), f.clone())] });
            all.push(A::Challenge { auto: None, keywords: froms.iter().map(|f| (s.clone(), f.clone())).collect() });
        }
        for a in &aims {
            all.push(A::UseAbility { aim: Some(a.clone()) });
            all.push(A::BreakTie { target: a.clone() });
            all.push(A::Command { target: a.clone() });
            for c in &cards {
                for (first_aura, include_self) in [(None, None), (Some(s.clone()), Some(true)), (None, Some(false))] {
                    all.push(A::Use { card: c.clone(), aim: a.clone(), first_aura, include_self });
                }
            }
        }
    }
    for a in &all {
        assert_eq!(written_actions(std::slice::from_ref(a)), serde_json::to_string(&[a]).unwrap());
    }
    assert_eq!(written_actions(&all), serde_json::to_string(&all).unwrap());
    assert_eq!(written_actions(&[]), "[]");
}
