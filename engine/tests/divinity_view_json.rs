//! A view's JSON, written by hand (`view_json.rs`: the view's own fields,
//! the Origins, enemies, front and board), is byte for byte serde's derive
//! writing of the same view: over party-bot games at several locations,
//! every viewer's view at each position as the server builds them (all the
//! views of a record at once, from the record before's), and over views
//! with awkward strings and every kind of phase, card and token; with and
//! without the board and the front.

use std::collections::BTreeMap;

use athlas_engine::divinity::attack::{Attack, OnSpecial, Outcome, StatusGrant, Targets};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{CardRef, TrackCard};
use athlas_engine::divinity::damage::{DamageType, Environment};
use athlas_engine::divinity::dice::{Colour, Die, Pool, Roll};
use athlas_engine::divinity::state::{
    AttachedRune, ChallengeResultKind, ChallengeState, EnemyKind, EnemyRoll, Finish, Overflow, PendingRoll, Phase,
    Purpose, ReactionWait, ReductionChoice, RestStep, RollReduction, RoundKind, RouteChoice, Shot, TieChoice,
    TurnStartChoice, Who,
};
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
    let mut waits = BTreeMap::new();
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
            // Without the board and the front, as an update whose
            // location and ending did not change sends them.
            for view in Divinity::views(&s, &viewers, false, before.as_ref()) {
                same_as_serde(&view);
            }
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
            for (kind, shown) in [
                ("pending", first.pending.is_some()),
                ("enemy_roll", first.enemy_roll.is_some()),
                ("tie", first.tie.is_some()),
                ("route", first.route.is_some()),
                ("reduction", first.reduction.is_some()),
                ("turn_start", first.turn_start.is_some()),
                ("roll_reduction", first.roll_reduction.is_some()),
                ("reaction", first.reaction.is_some()),
                ("challenge", first.challenge.is_some()),
                ("challenge_rows", first.challenge_rows.is_some()),
                ("merchant", first.merchant.is_some()),
                ("campaign", first.campaign.is_some()),
            ] {
                *waits.entry(kind).or_insert(0) += shown as usize;
            }
            before = record.into_iter().next().map(Divinity::keep_as_before);
            if waiting(&s).is_empty() || !bot_step(cat, &mut s, i) {
                break;
            }
        }
    }
    assert!(views > 8_000, "only {views} views");
    assert!(enemies > 1_000, "only {enemies} enemies shown");
    for kind in ["pending", "enemy_roll", "tie", "challenge", "merchant", "campaign"] {
        assert!(waits[kind] > 0, "no {kind} shown: {waits:?}");
    }
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
    let front = v.front.as_mut().expect("a whole view's front");
    front.name = awkward(1);
    front.intro = awkward(2);
    front.goal = awkward(3);
    same_as_serde(&v);
    v.front.as_mut().unwrap().outcome = Some(awkward(4));
    same_as_serde(&v);
    v.front.as_mut().unwrap().next = Some(awkward(5));
    v.time = None;
    v.dominated_turn = Some(7);
    same_as_serde(&v);
    for (k, o) in v.origins.iter_mut().enumerate() {
        let o = std::sync::Arc::make_mut(o);
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
        o.track.slots[0].extend(STATUSES.iter().enumerate().map(|(i, s)| TrackCard {
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
    for (k, sp) in v.board.as_mut().expect("a whole view's board").spaces.iter_mut().enumerate() {
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
    for (k, p) in v.board.as_mut().unwrap().paths.iter_mut().enumerate() {
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
    waiting_for_the_party(&mut v);
    // Empty lists and no enemies.
    v.enemies.clear();
    v.origins.clear();
    let board = v.board.as_mut().unwrap();
    board.spaces.clear();
    board.paths.clear();
    v.armor.clear();
    v.waiting.clear();
    same_as_serde(&v);
    // An update's view whose board and front are as they were.
    v.board = None;
    same_as_serde(&v);
    v.front = None;
    same_as_serde(&v);
}

const STATUSES: [St; 15] = [
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

/// Attacks of every outcome, with and without their options.
fn attacks() -> Vec<Attack> {
    let plain = |outcome| Attack {
        range: 0,
        targets: Targets::Single,
        dice: Pool::new(1, 0, 2),
        bonus: 0,
        level_bonus: false,
        outcome,
        statuses: Vec::new(),
        removes: Vec::new(),
        environment: None,
        on_special: None,
        reroll_in_space: 0,
    };
    let mut out: Vec<Attack> = [
        DamageType::Physical,
        DamageType::Air,
        DamageType::Water,
        DamageType::Fire,
        DamageType::Earth,
        DamageType::Poison,
        DamageType::Direct,
    ]
    .into_iter()
    .map(|damage_type| plain(Outcome::Damage { damage_type }))
    .collect();
    out.push(plain(Outcome::Heal { damages_undead: true }));
    out.push(Attack {
        range: 3,
        targets: Targets::Area,
        dice: Pool::new(0, 4, 1),
        bonus: 2,
        level_bonus: true,
        outcome: Outcome::Heal { damages_undead: false },
        statuses: STATUSES.iter().enumerate().map(|(i, s)| StatusGrant { status: *s, cooldown: i as u8 }).collect(),
        removes: STATUSES.to_vec(),
        environment: Some(Environment::Oily),
        on_special: Some(OnSpecial { extra_hits: 1, per_special: true, statuses: Vec::new(), environment: None }),
        reroll_in_space: 2,
    });
    out.push(Attack {
        on_special: Some(OnSpecial {
            extra_hits: 0,
            per_special: false,
            statuses: vec![StatusGrant { status: St::Burning, cooldown: 3 }],
            environment: Some(Environment::Warm),
        }),
        ..plain(Outcome::Damage { damage_type: DamageType::Fire })
    });
    out
}

/// Every decision the party may be waiting for, with awkward strings,
/// each alone and all at once.
fn waiting_for_the_party(v: &mut DivinityView) {
    let roll = Roll::set(vec![
        Die { colour: Colour::White, face: 0 },
        Die { colour: Colour::Blue, face: 5 },
        Die { colour: Colour::Red, face: 3 },
    ]);
    let targets = vec![Who::Origin(0), Who::Enemy(7), Who::Origin(2)];
    for (k, attack) in attacks().into_iter().enumerate() {
        v.pending = Some(PendingRoll {
            seat: 1,
            roll: if k % 2 == 0 { roll.clone() } else { Roll::default() },
            purpose: Purpose::Attack {
                attack: attack.clone(),
                targets: targets[..k % 4].to_vec(),
                space: k,
                level_bonus: 1,
                extra: 2,
                label: awkward(k),
                repeat: k as u32,
            },
            card_rerolls: 1,
        });
        same_as_serde(v);
        v.enemy_roll = Some(EnemyRoll {
            enemy: 4,
            attack: attack.clone(),
            targets: targets.clone(),
            space: 3,
            roll: roll.clone(),
            passed: vec![true, false],
            boss: k % 2 == 0,
        });
        same_as_serde(v);
        v.reduction =
            Some(ReductionChoice { enemy: 2, attack: attack.clone(), target: Who::Origin(1), remove: 2, boss: true });
        same_as_serde(v);
        v.roll_reduction = Some(RollReduction {
            seat: 2,
            remove: 1,
            shot: Shot { attack, targets: targets.clone(), space: 4, label: awkward(k + 1), repeat: 0 },
        });
        same_as_serde(v);
        v.pending = None;
        v.enemy_roll = None;
        v.reduction = None;
        v.roll_reduction = None;
    }
    v.pending = Some(PendingRoll { seat: 0, roll: roll.clone(), purpose: Purpose::Challenge, card_rerolls: 0 });
    same_as_serde(v);
    for (k, tactic) in [None, Some(awkward(0)), Some(awkward(2))].into_iter().enumerate() {
        v.tie = Some(TieChoice { enemy: 3, options: targets.clone(), tactic: tactic.clone(), face: k as u8 });
        same_as_serde(v);
        v.route = Some(RouteChoice {
            enemy: 3,
            target: Who::Enemy(1),
            routes: vec![vec![awkward(k), awkward(k + 1)], vec![]],
            tactic: tactic.clone(),
        });
        same_as_serde(v);
        v.reaction = Some(ReactionWait { enemy: 5, next: 2, target: Who::Origin(0), tactic });
        same_as_serde(v);
    }
    v.turn_start = Some(TurnStartChoice { enemy: 1, statuses: STATUSES.to_vec() });
    same_as_serde(v);
    v.turn_start = Some(TurnStartChoice { enemy: 1, statuses: Vec::new() });
    for flipped in [None, Some(2)] {
        v.challenge = Some(ChallengeState {
            card: awkward(1),
            group: vec![0, 2],
            space: 6,
            results: BTreeMap::from([(0, ChallengeResultKind::Hits(3)), (2, ChallengeResultKind::Row(1))]),
            flipped,
        });
        same_as_serde(v);
    }
    v.challenge = Some(ChallengeState {
        card: String::new(),
        group: Vec::new(),
        space: 0,
        results: BTreeMap::new(),
        flipped: None,
    });
    same_as_serde(v);
}
