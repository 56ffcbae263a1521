//! A view's JSON, written by hand (`view_json.rs`: the view's own fields,
//! the Origins, enemies, front and board), is byte for byte serde's derive
//! writing of the same view: over party-bot games at several locations,
//! every viewer's view at each position as the server builds them (all the
//! views of a record at once, from the record before's), and over views
//! with awkward strings and every kind of phase, card and token.

use std::collections::BTreeMap;

use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{CardRef, TrackCard};
use athlas_engine::divinity::damage::Environment;
use athlas_engine::divinity::state::{AttachedRune, EnemyKind, Finish, Overflow, Phase, RestStep, RoundKind};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::view::{CardView, ChallengeRow, MerchantPrices};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityView};
use athlas_engine::{Ruleset, Viewer};

use crate::divinity_support::{bot_step, waiting};

/// Every view of `view`'s kind written three ways are one text: serde's
/// derive, the hand writing whole, and the view's own `Serialize` (copies
/// of the shared parts' text, the text after `you` shared by a record's
/// views).
#[track_caller]
fn same_as_serde(view: &DivinityView) {
    let serde = view.json_by_serde();
    assert_eq!(view.json_by_hand(), serde, "written by hand");
    assert_eq!(serde_json::to_string(view).unwrap(), serde, "its own writing");
}

#[test]
fn the_views_of_bot_games_are_written_as_serde_writes_them() {
    let cat = Catalogue::standard();
    let party = ["ifan", "sebille", "red_prince", "fane"];
    let mut games = vec![("tutorial", 2, 3)];
    for seed in 0..3 {
        games.extend([("shipwreck", 3, seed), ("fort_joy", 3, seed), ("hollow_marshes", 4, seed), ("temple", 4, seed)]);
    }
    let (mut views, mut phases, mut enemies) = (0, std::collections::BTreeSet::new(), 0);
    for (location, size, seed) in games {
        let options = DivinityOptions {
            party: party[..size].iter().map(|p| p.to_string()).collect(),
            location: Some(location.into()),
            ..DivinityOptions::default()
        };
        let mut s = Divinity::start(&options, seed).expect("setup");
        let mut viewers: Vec<Viewer> = (0..size as u8).map(Viewer::Seat).collect();
        viewers.push(Viewer::Spectator);
        let mut before: Option<DivinityView> = None;
        for i in 0..1_000 {
            let record = Divinity::views(&s, &viewers, true, before.as_ref());
            for (view, viewer) in record.iter().zip(&viewers) {
                same_as_serde(view);
                // Written again, copied: the same.
                assert_eq!(serde_json::to_string(view).unwrap(), view.json_by_serde());
                // And a view built alone (its parts written lazily, whole).
                same_as_serde(&Divinity::view(&s, *viewer));
                views += 1;
            }
            let first = &record[0];
            phases.insert(serde_json::to_value(&first.phase).unwrap()["phase"].as_str().unwrap().to_owned());
            enemies += first.enemies.len();
            before = record.into_iter().next().map(Divinity::keep_as_before);
            if waiting(&s).is_empty() || !bot_step(cat, &mut s, i) {
                break;
            }
        }
    }
    assert!(views > 8_000, "only {views} views");
    assert!(enemies > 1_000, "only {enemies} enemies shown");
    for phase in ["choose_round", "travel", "groups", "resolve", "rest", "combat", "interlude", "finished"] {
        assert!(phases.contains(phase), "no {phase} phase: {phases:?}");
    }
}

const AWKWARD: [&str; 6] =
    ["say \"hi\"", "back\\slash", "tab\tnew\nline\u{1}\u{1f}", "é“”…\u{2028}", "", "\u{7f}\u{10ffff}"];

fn awkward(i: usize) -> String {
    AWKWARD[i % AWKWARD.len()].to_owned()
}

/// A view in a Combat round of a party-bot game, with enemies.
fn combat_view() -> DivinityView {
    let cat = Catalogue::standard();
    for (location, seed) in [("shipwreck", 0), ("shipwreck", 1), ("fort_joy", 0), ("hollow_marshes", 0)] {
        let options = DivinityOptions {
            party: ["ifan", "sebille", "red_prince"].iter().map(|p| p.to_string()).collect(),
            location: Some(location.into()),
            ..DivinityOptions::default()
        };
        let mut s = Divinity::start(&options, seed).expect("setup");
        for i in 0..1_000 {
            if s.round_kind == RoundKind::Combat && !s.enemies.is_empty() {
                return Divinity::view(&s, Viewer::Seat(1));
            }
            if !bot_step(cat, &mut s, i) {
                break;
            }
        }
    }
    panic!("no party-bot game reaches a combat")
}

#[test]
fn awkward_strings_and_every_kind_of_part_are_written_as_serde_writes_them() {
    let mut v = combat_view();
    same_as_serde(&v);
    v.location = awkward(0);
    v.front.name = awkward(1);
    v.front.intro = awkward(2);
    v.front.goal = awkward(3);
    same_as_serde(&v);
    v.front.outcome = Some(awkward(4));
    same_as_serde(&v);
    v.front.next = Some(awkward(5));
    v.time = None;
    v.dominated_turn = Some(7);
    same_as_serde(&v);
    let statuses = [
        St::Bleeding,
        St::Blessed,
        St::Blinded,
        St::Burning,
        St::Chicken,
        St::Dominated,
        St::Exposed,
        St::Frozen,
        St::Haste,
        St::Invisible,
        St::KnockedDown,
        St::Poisoned,
        St::Shocked,
        St::Stunned,
        St::Sundered,
    ];
    for (k, o) in v.origins.iter_mut().enumerate() {
        o.origin = awkward(k);
        o.hand.push(awkward(k + 1));
        o.skills.push(awkward(k + 2));
        o.talents.push(awkward(k + 3));
        o.talents_used.push(awkward(k + 4));
        o.equipped.push(awkward(k + 5));
        o.backpack.push(awkward(k));
        o.summon = Some(awkward(k + 1));
        o.collar_broken = k % 2 == 0;
        o.runes.push(AttachedRune { rune: awkward(k + 2), item: awkward(k + 3), side: k });
        o.track.slots[0].extend(statuses.iter().enumerate().map(|(i, s)| TrackCard {
            card: CardRef::Status(*s),
            face_up: i % 2 == 0,
            flip_at: (i % 3 == 0).then_some(i as u8),
        }));
        o.track.slots[1].extend([
            TrackCard { card: CardRef::Skill(awkward(k)), face_up: true, flip_at: None },
            TrackCard { card: CardRef::Consumable(awkward(k + 1)), face_up: false, flip_at: Some(2) },
            TrackCard { card: CardRef::Tactic(awkward(k + 2)), face_up: true, flip_at: None },
        ]);
    }
    same_as_serde(&v);
    let letters = ['"', '\\', '\u{1}', 'é', '\u{10ffff}', 'A'];
    let boss = v.enemies[0].clone();
    v.enemies.push(boss);
    for (k, e) in v.enemies.iter_mut().enumerate() {
        e.name = awkward(k);
        e.letter = if k == 1 { None } else { Some(letters[k % letters.len()]) };
        e.kind = if k % 2 == 0 {
            EnemyKind::Minion { card: awkward(k + 1), veteran: k % 4 == 0 }
        } else {
            EnemyKind::Boss { boss: awkward(k + 1) }
        };
        e.space = awkward(k + 2);
        e.special_rules = (k % 2 == 1).then(|| awkward(k + 3));
        e.track.slots[0].push(TrackCard { card: CardRef::Tactic(awkward(k)), face_up: false, flip_at: Some(1) });
    }
    same_as_serde(&v);
    for (k, sp) in v.board.spaces.iter_mut().enumerate() {
        sp.name = awkward(k);
        sp.space = awkward(k + 1);
        sp.number = (k % 2 == 0).then_some(k as u32);
        sp.environment = [
            None,
            Some(Environment::Charged),
            Some(Environment::Wet),
            Some(Environment::Warm),
            Some(Environment::Oily),
            Some(Environment::DifficultTerrain),
        ][k % 6];
    }
    for (k, p) in v.board.paths.iter_mut().enumerate() {
        p.a = awkward(k);
        p.b = awkward(k + 1);
        p.locked = k % 2 == 0;
    }
    same_as_serde(&v);
    v.map.keys.extend([0, 3, 12]);
    v.map.placed.extend([(0, awkward(0)), (11, awkward(2)), (3, awkward(3))]);
    v.map.tokens.extend([
        (0, Environment::Charged),
        (1, Environment::Wet),
        (2, Environment::Warm),
        (10, Environment::Oily),
        (4, Environment::DifficultTerrain),
    ]);
    v.cards_left = BTreeMap::from([(1, 2), (10, 3), (2, 0)]);
    v.item_deck_sizes = (0..AWKWARD.len()).map(|k| (awkward(k), k)).collect();
    v.holding = (0..3).map(|k| CardView { id: awkward(k), text: awkward(k + 1) }).collect();
    v.revealed = (0..4).map(|k| CardView { id: awkward(k + 2), text: awkward(k + 3) }).collect();
    v.combat_stack = (0..3).map(awkward).collect();
    v.discard = (0..7).map(awkward).collect();
    v.journal = vec![0, 1, 4_000_000_000];
    v.challenge_rows = Some((0..3).map(|k| ChallengeRow { min_hits: k, text: awkward(k as usize) }).collect());
    v.overflow = (0..3).map(|k| Overflow { item: awkward(k), takers: (0..k as u8).collect() }).collect();
    v.merchant = Some(MerchantPrices {
        buy: (0..AWKWARD.len()).map(|k| (awkward(k), k as u32)).collect(),
        sell: (1..3).map(|k| (awkward(k), 2 * k as u32)).collect(),
    });
    same_as_serde(&v);
    v.challenge_rows = Some(Vec::new());
    v.merchant = Some(MerchantPrices::default());
    same_as_serde(&v);
    for round_kind in [RoundKind::Explore, RoundKind::Rest, RoundKind::Combat] {
        v.round_kind = round_kind;
        same_as_serde(&v);
    }
    let phases = [
        Phase::ChooseRound,
        Phase::Travel { done: vec![true, false] },
        Phase::Groups { groups: vec![vec![0, 2], vec![], vec![1]], chosen: vec![false, true] },
        Phase::Resolve,
        Phase::Rest {
            done: vec![false, true, false],
            steps: vec![
                RestStep::NotBegun,
                RestStep::StartOfTurn,
                RestStep::Recover,
                RestStep::Revive,
                RestStep::EquipAndTrade,
                RestStep::UseCard,
            ],
        },
        Phase::Combat { done: vec![], active: None },
        Phase::Combat { done: vec![true], active: Some(2) },
        Phase::Finished { result: Finish::Restart },
        Phase::Finished { result: Finish::Exit { to: awkward(0), level_up: true } },
    ];
    for phase in phases {
        v.phase = phase;
        same_as_serde(&v);
    }
    // Empty lists and no enemies.
    v.enemies.clear();
    v.origins.clear();
    v.board.spaces.clear();
    v.board.paths.clear();
    v.armor.clear();
    v.waiting.clear();
    same_as_serde(&v);
}
