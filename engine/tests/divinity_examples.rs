//! Every worked example of the Divinity rulebook that the building blocks
//! cover, with the book's exact numbers (facts file §3, E01-E39, and the
//! derived cases D01-D60 that need no round loop). Dice are injected by face.

use athlas_engine::divinity::attack::{self, Attack, Count, Outcome, StatusGrant, Target, Targets};
use athlas_engine::divinity::cooldown::{Applied, CardRef, Track, TrackCard, KEYWORD_SLOT, MINION_TRACK, ORIGIN_TRACK};
use athlas_engine::divinity::damage::{harm, DamageType, Defence, Environment, Harm};
use athlas_engine::divinity::dice::{Colour, DiceTable, Die, Pool, Roll, TargetingFace};
use athlas_engine::divinity::map::{path_ixs, Graph, MapDef, MapState, PathDef, SpaceDef};
use athlas_engine::divinity::minion::{choose_target, plan_move, Candidate, TargetRule};
use athlas_engine::divinity::status::Status;
use athlas_engine::rng::GameRng;

use crate::divinity_support;
use divinity_support::*;

fn table() -> &'static DiceTable {
    &cat().dice
}

/// A die of a colour showing exactly these icons.
#[track_caller]
fn die(c: Colour, hits: u8, special: bool) -> Die {
    Die { colour: c, face: table().find(c, hits, special).expect("the die has such a face") }
}

fn roll(dice: &[(Colour, u8, bool)]) -> Roll {
    Roll::set(dice.iter().map(|&(c, h, s)| die(c, h, s)).collect())
}

fn item_attack(id: &str) -> Attack {
    cat().items[id].action.as_ref().expect("item has an action").attack.clone()
}

fn skill_attack(id: &str) -> Attack {
    cat().skills[id].attack.clone().expect("skill has an attack")
}

fn minion(id: &str) -> &'static athlas_engine::divinity::minion::MinionStats {
    &cat().minions[id].standard
}

fn space(id: &str) -> SpaceDef {
    SpaceDef {
        id: id.into(),
        number: id.parse().ok(),
        name: String::new(),
        locked: false,
        multicard: false,
        environment: None,
    }
}

fn path(a: &str, b: &str) -> PathDef {
    PathDef { a: a.into(), b: b.into(), locked: false }
}

fn cand(space: usize, hp: u32, pa: u32, ma: u32) -> Candidate {
    Candidate { space, hp, physical_armor: pa, magical_armor: ma, source: 1 }
}

fn target(defence: Defence) -> Target {
    Target { defence, ..Target::default() }
}

// E02 (L412): a skill on slot 1 slides off at the end of the turn and is back in hand.
#[test]
fn e02_skill_on_slot_1_returns_to_hand() {
    let mut t = Track::new(ORIGIN_TRACK);
    let card = TrackCard { card: CardRef::Skill("phoenix_dive".into()), face_up: false, flip_at: None };
    t.place(card.clone(), 1);
    let slid = t.slide();
    assert_eq!(slid.cleared, vec![card]);
    assert!(t.is_empty());
}

// E03 (L418): FROZEN on slot 3 is on slot 2 after the turn, active two more turns.
#[test]
fn e03_status_persists_two_more_rounds() {
    let mut t = Track::new(ORIGIN_TRACK);
    t.apply_status(Status::Frozen, 3);
    t.slide();
    assert_eq!(t.status_slot(Status::Frozen), Some(2));
    t.slide();
    assert_eq!(t.status_slot(Status::Frozen), Some(1), "still active on the next turn");
    let slid = t.slide();
    assert_eq!(slid.cleared.len(), 1, "cleared at the end of the second turn");
    assert!(!t.has(Status::Frozen));
}

// E05 (L535-539): 3 red dice + ★: the total is the rolled hits plus the level bonus.
#[test]
fn e05_level_bonus_is_added() {
    let a = Attack {
        range: 1,
        targets: Targets::Single,
        dice: Pool::of(Colour::Red, 3),
        bonus: 0,
        level_bonus: true,
        outcome: Outcome::Damage { damage_type: DamageType::Physical },
        statuses: vec![],
        removes: vec![],
        environment: None,
        on_special: None,
        reroll_in_space: 0,
    };
    let r = roll(&[(Colour::Red, 2, false), (Colour::Red, 1, false), (Colour::Red, 0, false)]);
    for b in 1..=3 {
        assert_eq!(attack::count(&a, &r, table(), b, 0).hits, 3 + b);
    }
    let no_star = Attack { level_bonus: false, ..a };
    assert_eq!(attack::count(&no_star, &r, table(), 3, 0).hits, 3, "no ★ on the card, no level bonus");
}

fn equipped(ids: &[&str]) -> Defence {
    let mut d = Defence::default();
    for id in ids {
        cat().items[*id].bonus.add_to(&mut d);
    }
    d
}

// E09 (L646): Leather Cap: +1 magical armor and -1 earth damage.
#[test]
fn e09_leather_cap() {
    let d = equipped(&["leather_cap"]);
    assert_eq!(harm(3, DamageType::Earth, &d, None), Harm::Damage(1));
    assert_eq!(harm(3, DamageType::Fire, &d, None), Harm::Damage(2));
    assert_eq!(harm(3, DamageType::Physical, &d, None), Harm::Damage(3));
    assert_eq!(harm(1, DamageType::Earth, &d, None), Harm::Nothing);
}

// E10 (L650-652): shield +1 and helmet +1 magical armor stack: a 3-fire trap costs 1 HP.
#[test]
fn e10_armor_stacks() {
    let d = equipped(&["wooden_shield", "iron_helmet"]);
    assert_eq!(d.magical_armor, 2);
    assert_eq!(harm(3, DamageType::Fire, &d, None), Harm::Damage(1));
}

// E11 (L672-674): the Crocodile's special adds +3 hits once and BLEEDING on slot 2,
// which hurts at the start of each of Ifan's next two turns, then leaves.
#[test]
fn e11_crocodile_bleeding() {
    let croc = minion("crocodile");
    let r = roll(&[(Colour::Red, 1, true), (Colour::Red, 2, false)]);
    let c = attack::count(&croc.attack, &r, table(), 0, 0);
    assert_eq!(c, Count { hits: 3 + 1 + 3, specials: 1 });
    let two = roll(&[(Colour::Red, 1, true), (Colour::Red, 1, true)]);
    assert_eq!(attack::count(&croc.attack, &two, table(), 0, 0).hits, 2 + 1 + 3, "+3 once, not per special");
    let e = attack::resolve(&croc.attack, c, &target(Defence::default()));
    assert_eq!(e.harm, Harm::Damage(7));
    assert_eq!(e.statuses, vec![StatusGrant { status: Status::Bleeding, cooldown: 2 }]);

    let mut ifan = Track::new(ORIGIN_TRACK);
    ifan.apply_status(Status::Bleeding, 2);
    let rule = cat().statuses.get(Status::Bleeding);
    let sot = rule.start_of_turn.expect("BLEEDING hurts at the start of a turn");
    assert_eq!(sot.amount, 1);
    assert!(rule.per_move.is_some(), "BLEEDING also hurts on each move");
    let mut turns = 0;
    while ifan.has(Status::Bleeding) {
        turns += 1;
        ifan.slide();
    }
    assert_eq!(turns, 2, "BLEEDING 2 triggers on two turns");
}

// E12 (L688-696, L710): reapplying a status moves it up, never doubles, never past the cap.
#[test]
fn e12_reapplying_frozen() {
    let mut t = Track::new(ORIGIN_TRACK);
    t.apply_status(Status::Frozen, 1);
    assert_eq!(t.apply_status(Status::Frozen, 2), Applied::Extended { from: 1, to: 2 });
    assert_eq!(t.statuses(), vec![Status::Frozen], "no second card");

    let mut t = Track::new(ORIGIN_TRACK);
    t.apply_status(Status::Frozen, 3);
    assert_eq!(t.apply_status(Status::Frozen, 2), Applied::Unchanged { slot: 3 });

    let mut t = Track::new(ORIGIN_TRACK);
    t.apply_status(Status::Frozen, 4);
    assert_eq!(t.apply_status(Status::Frozen, 7), Applied::Extended { from: 4, to: 5 });

    let mut m = Track::new(MINION_TRACK);
    m.apply_status(Status::Frozen, 2);
    assert_eq!(m.apply_status(Status::Frozen, 5), Applied::Extended { from: 2, to: 3 });
}

// E13 (L700-702): the Red Prince takes no fire damage and gains no BURNING, even when WARM.
#[test]
fn e13_red_prince_immunity() {
    let rp = &cat().origins["red_prince"];
    let a =
        Attack { statuses: vec![StatusGrant { status: Status::Burning, cooldown: 2 }], ..item_attack("fire_staff") };
    let c = Count { hits: 4, specials: 0 };
    for env in [None, Some(Environment::Warm)] {
        let t = Target {
            defence: rp.defence(),
            environment: env,
            immune_statuses: rp.immune_statuses.clone(),
            ..Target::default()
        };
        let e = attack::resolve(&a, c, &t);
        assert_eq!(e.harm, Harm::Nothing);
        assert!(e.statuses.is_empty());
    }
}

// E14 (L729-731): a Healing Grenade rolling 5 hits + ★2 heals the living 7 and deals 7
// direct damage to the Undead Ranger, ignoring its armor.
#[test]
fn e14_healing_grenade_and_undead() {
    let a = item_attack("healing_grenade");
    assert_eq!(a.targets, Targets::Area);
    let r = roll(&[(Colour::Red, 2, false), (Colour::Red, 2, false), (Colour::Red, 1, false)]);
    let c = attack::count(&a, &r, table(), 2, 0);
    assert_eq!(c.hits, 7);
    let sebille = target(Defence::default());
    let red_prince = target(cat().origins["red_prince"].defence());
    assert_eq!(attack::resolve(&a, c, &sebille).harm, Harm::Heal(7));
    assert_eq!(attack::resolve(&a, c, &red_prince).harm, Harm::Heal(7));
    let ranger = target(minion("undead_ranger").defence());
    assert!(ranger.defence.physical_armor + ranger.defence.magical_armor > 0);
    assert_eq!(attack::resolve(&a, c, &ranger).harm, Harm::Damage(7));
}

// E15 (L862): an attack skill of range 1 goes face down on slot 2 and is back
// in hand at the end of the next turn.
#[test]
fn e15_attack_skill_cooldown() {
    let s = &cat().skills["searing_daggers"];
    assert_eq!((s.ap, s.cooldown, s.attack.as_ref().unwrap().range), (2, 2, 1));
    let mut t = Track::new(ORIGIN_TRACK);
    t.place(TrackCard { card: CardRef::Skill(s.id.clone()), face_up: false, flip_at: None }, s.cooldown);
    assert!(t.slide().cleared.is_empty(), "slot 2 -> 1 at the end of this turn");
    assert_eq!(t.slide().cleared.len(), 1, "back in hand at the end of the next");
}

// E17 (L873-879): an ongoing skill face up on 4, flipping at 1: active on 4, 3 and 2.
#[test]
fn e17_ongoing_skill_flips() {
    let s = &cat().skills["lightning_aura"];
    assert_eq!((s.cooldown, s.flip_at), (4, Some(1)));
    let card = CardRef::Skill(s.id.clone());
    let mut t = Track::new(ORIGIN_TRACK);
    t.place(TrackCard { card: card.clone(), face_up: true, flip_at: s.flip_at }, s.cooldown);
    let mut active = vec![];
    for _ in 0..3 {
        active.push(t.active().any(|c| c == &card));
        t.slide();
    }
    assert_eq!(active, vec![true, true, true]);
    assert_eq!(t.find(&card), Some(1));
    assert_eq!(t.active().count(), 0, "flipped face down on reaching slot 1");
    assert_eq!(t.slide().cleared.len(), 1);
}

// E19 (L891-899): Conjure Incarnate face up on 5, flips (and the summon goes) on reaching 2.
#[test]
fn e19_conjure_incarnate() {
    let s = &cat().skills["conjure_incarnate"];
    assert_eq!((s.cooldown, s.flip_at, s.summon.as_deref()), (5, Some(2), Some("incarnate")));
    let card = CardRef::Skill(s.id.clone());
    let mut t = Track::new(ORIGIN_TRACK);
    t.place(TrackCard { card: card.clone(), face_up: true, flip_at: s.flip_at }, s.cooldown);
    assert!(t.slide().flipped.is_empty()); // 5 -> 4
    assert!(t.slide().flipped.is_empty()); // 4 -> 3
    assert_eq!(t.slide().flipped, vec![card.clone()]); // 3 -> 2: the Incarnate is discarded
    t.slide();
    assert_eq!(t.slide().cleared.len(), 1, "back in hand after leaving slot 1");
}

// E20 (L958): Thick Robes: 2 physical, 1 magical armor, 2 less air damage.
#[test]
fn e20_thick_robes() {
    let d = equipped(&["thick_robes"]);
    assert_eq!(harm(5, DamageType::Air, &d, None), Harm::Damage(2));
    assert_eq!(harm(5, DamageType::Fire, &d, None), Harm::Damage(4));
    assert_eq!(harm(5, DamageType::Physical, &d, None), Harm::Damage(3));
}

// E21 (L968-972): the Assassin's Dagger: range 0, 1 AP; a special adds damage and POISONED.
#[test]
fn e21_assassins_dagger() {
    let act = cat().items["assassins_dagger"].action.as_ref().unwrap();
    assert_eq!((act.ap, act.attack.range), (1, 0));
    let with = roll(&[(Colour::White, 1, true), (Colour::White, 0, false)]);
    let without = roll(&[(Colour::White, 1, false), (Colour::White, 0, false)]);
    let cw = attack::count(&act.attack, &with, table(), 0, 0);
    let cn = attack::count(&act.attack, &without, table(), 0, 0);
    assert!(cw.hits > cn.hits, "a special deals extra damage");
    let t = target(Defence::default());
    assert!(attack::resolve(&act.attack, cw, &t).statuses.iter().any(|g| g.status == Status::Poisoned));
    assert!(attack::resolve(&act.attack, cn, &t).statuses.is_empty());
}

// E23 (L999-1005): the Physical Armor Potion is face up on slot 3, +2 physical armor while on the track.
#[test]
fn e23_physical_armor_potion() {
    let p = &cat().items["physical_armor_potion"];
    assert_eq!(p.ongoing_slot, Some(3));
    assert_eq!(p.ongoing.physical_armor, 2);
    let card = CardRef::Consumable(p.id.clone());
    let mut t = Track::new(ORIGIN_TRACK);
    t.place(TrackCard { card: card.clone(), face_up: true, flip_at: None }, 3);
    for _ in 0..3 {
        assert!(t.active().any(|c| c == &card));
        t.slide();
    }
    assert!(t.is_empty(), "slid off after 3 turns, back to the bottom of its deck");
}

// E25 (L1100-1108): a locked space can't be entered or crossed until a card is placed on it.
#[test]
fn e25_locked_space() {
    let mut l = space("2");
    l.locked = true;
    let def = MapDef { spaces: vec![space("1"), l, space("3")], paths: vec![path("1", "2"), path("2", "3")] };
    def.validate().unwrap();
    let ixs = path_ixs(&def);
    let mut st = MapState::default();
    assert_eq!(Graph::new(&def, &st, &ixs).distance(0, 1), None);
    assert_eq!(Graph::new(&def, &st, &ixs).distance(0, 2), None, "nor through it");
    st.placed.insert(1, "4".into());
    assert_eq!(Graph::new(&def, &st, &ixs).distance(0, 2), Some(2));
}

// E31 (L1448-1452): into a DIFFICULT TERRAIN tactical space costs 2 AP, back out 1.
#[test]
fn e31_difficult_terrain_costs() {
    let mut t = space("t");
    t.number = None;
    t.environment = Some(Environment::DifficultTerrain);
    let def = MapDef { spaces: vec![space("1"), t], paths: vec![path("1", "t")] };
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    assert_eq!(g.costs(0, false)[1], Some(2));
    assert_eq!(g.costs(1, false)[0], Some(1));
    let long_sword = cat().items["long_sword"].action.as_ref().unwrap().ap;
    assert_eq!(g.costs(0, false)[1].unwrap() + long_sword + g.costs(1, false)[0].unwrap(), 5);
    assert_eq!(g.distance(0, 1), Some(1), "terrain changes cost, not distance");
}

// E32 (L1487-1493): Fire Staff 3 hits + 2 bonus, +2 WARM, -2 magical armor: 5 HP lost, then BURNING 2.
#[test]
fn e32_fire_staff_against_hydrosophist() {
    let a = item_attack("fire_staff");
    let hydro = minion("bandit_hydrosophist");
    let t = Target { defence: hydro.defence(), environment: Some(Environment::Warm), ..Target::default() };
    let r = roll(&[(Colour::White, 1, false), (Colour::White, 1, false), (Colour::White, 1, true)]);
    let c = attack::count(&a, &r, table(), 0, 0);
    assert_eq!(c, Count { hits: 5, specials: 1 });
    let e = attack::resolve(&a, c, &t);
    assert_eq!(e.harm, Harm::Damage(5));
    assert_eq!(e.statuses, vec![StatusGrant { status: Status::Burning, cooldown: 2 }]);
    let mut track = Track::new(MINION_TRACK);
    assert_eq!(track.apply_status(Status::Burning, 2), Applied::New { slot: 2 });

    let plain = roll(&[(Colour::White, 1, false), (Colour::White, 1, false), (Colour::White, 1, false)]);
    let e = attack::resolve(&a, attack::count(&a, &plain, table(), 0, 0), &t);
    assert_eq!(e.harm, Harm::Damage(5));
    assert!(e.statuses.is_empty(), "no special, no BURNING");
}

// E33 (L1519-1529): Poison Dart rolls 4 dice: 3 misses, 1 hit; its own reroll of a miss
// misses again; a Source reroll of all three misses together gives 2 more hits: 3 hits.
#[test]
fn e33_poison_dart_rerolls() {
    let a = skill_attack("poison_dart");
    assert_eq!(a.dice.total(), 4);
    assert_eq!(a.reroll_in_space, 1);
    let start = roll(&[
        (Colour::White, 0, false),
        (Colour::White, 0, false),
        (Colour::White, 0, false),
        (Colour::White, 1, false),
    ]);
    // Find a seed whose stream reproduces the book's rerolls.
    let seed = (0u64..10_000)
        .find(|&seed| {
            let mut rng = GameRng::from_seed(seed);
            let mut r = start.clone();
            r.reroll(&[0], &mut rng).unwrap();
            if r.hits(table()) != 1 {
                return false;
            }
            let misses = r.misses(table());
            r.reroll(&misses, &mut rng).unwrap();
            r.hits(table()) == 3
        })
        .expect("some seed rerolls as in the book");
    let mut rng = GameRng::from_seed(seed);
    let mut r = start.clone();
    r.reroll(&[0], &mut rng).unwrap();
    assert_eq!(r.misses(table()), vec![0, 1, 2]);
    r.reroll(&[0, 1, 2], &mut rng).unwrap();
    assert_eq!(r.dice[3], start.dice[3], "the hit was not rerolled");
    assert_eq!(attack::count(&a, &r, table(), 0, 0).hits, 3);
    refused(r.reroll(&[0, 0], &mut rng), "is not a distinct die", "one effect rerolls distinct dice at once");
}

// E34 (L1525): 3 dice + 2 reduced by 3 dice is a 0-dice roll worth 2 hits.
#[test]
fn e34_roll_reduced_to_zero_dice() {
    let mut p = Pool::new(1, 1, 1);
    p.reduce_by(3, &[Colour::Red, Colour::Blue, Colour::White]);
    assert_eq!(p.total(), 0);
    let mut rng = GameRng::from_seed(3);
    let r = p.roll(&mut rng);
    assert!(r.dice.is_empty());
    let a = Attack { dice: p, bonus: 2, ..item_attack("long_sword") };
    assert_eq!(attack::count(&a, &r, table(), 0, 0).hits, 2);
    // With mixed colours the reducer chooses: here red first.
    let mut q = Pool::new(1, 1, 2);
    q.reduce_by(2, &[Colour::Red, Colour::White]);
    assert_eq!(q, Pool::new(1, 1, 0));
}

// E35 (L1544-1554): one area roll: everyone takes hits + 1 - own armor; a downed ally
// takes nothing but gains the statuses.
#[test]
fn e35_area_melee() {
    let a = Attack {
        targets: Targets::Area,
        dice: Pool::of(Colour::Blue, 2),
        bonus: 1,
        statuses: vec![StatusGrant { status: Status::Poisoned, cooldown: 2 }],
        ..item_attack("long_sword")
    };
    let r = roll(&[(Colour::Blue, 1, true), (Colour::Blue, 1, false)]);
    let c = attack::count(&a, &r, table(), 0, 0);
    assert_eq!(c.hits, 3);
    let armored = |pa| target(Defence { physical_armor: pa, ..Defence::default() });
    assert_eq!(attack::resolve(&a, c, &armored(0)).harm, Harm::Damage(3));
    assert_eq!(attack::resolve(&a, c, &armored(1)).harm, Harm::Damage(2));
    assert_eq!(attack::resolve(&a, c, &armored(2)).harm, Harm::Damage(1));
    let downed = Target { downed: true, ..Target::default() };
    let e = attack::resolve(&a, c, &downed);
    assert_eq!(e.harm, Harm::Nothing);
    assert_eq!(e.statuses.len(), 1, "a downed Origin still gains the status (D11)");
}

// E36 (L1717-1719): the Lackey's special targeting picks Sebille (least physical armor),
// it moves 2 into her space, rolls hits + 2 per special = 8, she loses 6.
#[test]
fn e36_lackey() {
    let def = MapDef {
        spaces: vec![space("1"), space("2"), space("3"), space("4")],
        paths: vec![path("1", "2"), path("2", "3"), path("1", "4")],
    };
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    let lackey = minion("darkhans_lackey");
    assert_eq!(lackey.targeting, TargetRule::LeastPhysicalArmor);
    assert_eq!(lackey.attack.range, 0);
    // Ifan (3 physical armor) is closer, in space 4; Sebille (2) in space 3.
    let cands = [cand(3, 20, 3, 0), cand(2, 20, 2, 0)];
    assert_eq!(choose_target(&g, 0, TargetingFace::Closest, lackey.targeting, &cands), Some(0));
    let who = choose_target(&g, 0, TargetingFace::Special, lackey.targeting, &cands).unwrap();
    assert_eq!(who, 1);
    let walk = plan_move(&g, 0, 2, lackey.attack.range, lackey.movement, false, &[3]);
    assert_eq!(walk, vec![1, 2], "2 spaces into her space, and stop");
    let r = roll(&[(Colour::White, 1, true), (Colour::White, 1, true), (Colour::White, 0, false)]);
    let c = attack::count(&lackey.attack, &r, table(), 0, 0);
    assert_eq!(c.hits, 8);
    let sebille = target(Defence { physical_armor: 2, ..Defence::default() });
    assert_eq!(attack::resolve(&lackey.attack, c, &sebille).harm, Harm::Damage(6));
}

// E37 (L1723-1729): the Ranger targets the Red Prince in its space, moves away 1 into the
// space far from the other Origin, deals 10 poison - 5 = 5, POISONED on 3, no BLINDED.
#[test]
fn e37_undead_ranger() {
    // S=0, #3=1 (holds Ifan), Y=2.
    let def = MapDef { spaces: vec![space("0"), space("3"), space("9")], paths: vec![path("0", "3"), path("0", "9")] };
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    let ranger = minion("undead_ranger");
    let cands = [cand(1, 10, 0, 0), cand(0, 30, 0, 5)];
    let who = choose_target(&g, 0, TargetingFace::Closest, ranger.targeting, &cands).unwrap();
    assert_eq!(who, 1, "the Red Prince, at distance 0");
    assert_eq!(plan_move(&g, 0, 0, ranger.attack.range, ranger.movement, false, &[1]), vec![2]);
    let r = roll(&[(Colour::Red, 2, false); 4]);
    let c = attack::count(&ranger.attack, &r, table(), 0, 0);
    assert_eq!(c.hits, 10);
    let rp = target(Defence { magical_armor: 5, ..Defence::default() });
    let e = attack::resolve(&ranger.attack, c, &rp);
    assert_eq!(e.harm, Harm::Damage(5));
    assert_eq!(e.statuses, vec![StatusGrant { status: Status::Poisoned, cooldown: 3 }]);
    let mut track = Track::new(ORIGIN_TRACK);
    track.apply_status(Status::Poisoned, 3);
    assert_eq!(track.status_slot(Status::Poisoned), Some(3));

    let sp = roll(&[(Colour::Red, 2, false), (Colour::Red, 2, false), (Colour::Red, 2, false), (Colour::Red, 1, true)]);
    let e = attack::resolve(&ranger.attack, attack::count(&ranger.attack, &sp, table(), 0, 0), &rp);
    assert!(e.statuses.iter().any(|g| g.status == Status::Blinded), "a special adds BLINDED");
}

// E38 (L721-723): an UNDEAD target with 3 magical armor heals the full 6 of a poison attack.
#[test]
fn e38_poison_heals_undead() {
    let u = Defence { magical_armor: 3, undead: true, ..Defence::default() };
    assert_eq!(harm(6, DamageType::Poison, &u, None), Harm::Heal(6));
    let a = skill_attack("poison_dart");
    let e = attack::resolve(&a, Count { hits: 6, specials: 0 }, &target(u));
    assert_eq!(e.harm, Harm::Heal(6));
}

// E39 (L798, L1202): a skill played for its keyword goes face down on slot 3, not its own slot.
#[test]
fn e39_keyword_use_goes_to_slot_3() {
    let s = &cat().skills["phoenix_dive"];
    assert_eq!(s.keyword.as_deref(), Some("TELEPORTATION"));
    assert_ne!(s.cooldown, KEYWORD_SLOT);
    let mut t = Track::new(ORIGIN_TRACK);
    let card = CardRef::Skill(s.id.clone());
    t.place(TrackCard { card: card.clone(), face_up: false, flip_at: None }, KEYWORD_SLOT);
    assert_eq!(t.find(&card), Some(3));
    assert_eq!(t.active().count(), 0);
}
