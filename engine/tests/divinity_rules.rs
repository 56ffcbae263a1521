//! The Divinity rules the building blocks implement, one test (or more) per
//! rule of the facts file (R1...), each failing if its rule broke.

use athlas_engine::divinity::attack::{self, Attack, Count, OnSpecial, Outcome, StatusGrant, Target, Targets};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{CardRef, Track, TrackCard, MINION_TRACK, ORIGIN_TRACK};
use athlas_engine::divinity::damage::{harm, healing, DamageType, Defence, Environment, Harm};
use athlas_engine::divinity::dice::{Colour, DiceTable, Die, Pool, Roll, TargetingFace};
use athlas_engine::divinity::map::{path_ixs, Graph, MapDef, MapState, PathDef, SpaceDef};
use athlas_engine::divinity::minion::{choose_target, plan_move, Candidate, TargetRule};
use athlas_engine::divinity::status::Status;
use athlas_engine::rng::GameRng;

use crate::divinity_support;
use divinity_support::refused;

fn table() -> &'static DiceTable {
    &Catalogue::standard().dice
}

#[track_caller]
fn die(c: Colour, hits: u8, special: bool) -> Die {
    Die { colour: c, face: table().find(c, hits, special).expect("face exists") }
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

fn tactical(id: &str, env: Option<Environment>) -> SpaceDef {
    SpaceDef { number: None, environment: env, ..space(id) }
}

fn path(a: &str, b: &str) -> PathDef {
    PathDef { a: a.into(), b: b.into(), locked: false }
}

fn basic(range: u32, targets: Targets, dice: Pool, bonus: u32, outcome: Outcome) -> Attack {
    Attack {
        range,
        targets,
        dice,
        bonus,
        level_bonus: false,
        outcome,
        statuses: vec![],
        removes: vec![],
        environment: None,
        on_special: None,
        reroll_in_space: 0,
    }
}

fn physical() -> Outcome {
    Outcome::Damage { damage_type: DamageType::Physical }
}

// ---- Tracks (R45-R49, R86, R104, R106, R107) ----

// R45/R46/R47: any number of cards per slot; all slide one at the end of a turn; off the end is cleared.
#[test]
fn r45_r47_tracks_slide_and_clear() {
    let mut t = Track::new(ORIGIN_TRACK);
    assert_eq!(t.len(), 5);
    assert_eq!(Track::new(MINION_TRACK).len(), 3);
    t.apply_status(Status::Bleeding, 1);
    t.apply_status(Status::Burning, 1);
    t.place(TrackCard { card: CardRef::Skill("x".into()), face_up: false, flip_at: None }, 1);
    t.apply_status(Status::Haste, 2);
    assert_eq!(t.slots[0].len(), 3, "a slot holds any number of cards");
    let slid = t.slide();
    assert_eq!(slid.cleared.len(), 3);
    assert_eq!(t.status_slot(Status::Haste), Some(1));
}

// R48/R60-style: face-down cards have no effect but still occupy the track (D60).
#[test]
fn r48_face_down_cards_still_occupy_the_track() {
    let mut t = Track::new(ORIGIN_TRACK);
    let card = CardRef::Skill("aura".into());
    t.place(TrackCard { card: card.clone(), face_up: true, flip_at: Some(3) }, 3);
    assert_eq!(t.active().count(), 0, "placed on its flip slot: face down at once");
    assert_eq!(t.find(&card), Some(3));
}

// R49/R106: status durations are capped at 5 (Origins, Bosses) and 3 (minions).
#[test]
fn r49_status_caps() {
    let mut o = Track::new(ORIGIN_TRACK);
    o.apply_status(Status::Haste, 9);
    assert_eq!(o.status_slot(Status::Haste), Some(5));
    let mut m = Track::new(MINION_TRACK);
    m.apply_status(Status::Burning, 4);
    assert_eq!(m.status_slot(Status::Burning), Some(3));
}

// R82: a card with no cooldown comes back at once.
#[test]
fn r82_no_cooldown_returns_at_once() {
    let mut t = Track::new(ORIGIN_TRACK);
    let c = TrackCard { card: CardRef::Skill("x".into()), face_up: false, flip_at: None };
    assert_eq!(t.place(c.clone(), 0), Some(c));
    assert!(t.is_empty());
}

// R104: a status removed by an effect is cleared at once; R107: Rest's Recover clears every status.
#[test]
fn r104_r107_removing_statuses() {
    let mut t = Track::new(ORIGIN_TRACK);
    t.apply_status(Status::Poisoned, 3);
    t.apply_status(Status::Haste, 2);
    t.place(TrackCard { card: CardRef::Skill("s".into()), face_up: false, flip_at: None }, 2);
    assert!(t.take(&CardRef::Status(Status::Poisoned)).is_some());
    assert!(!t.has(Status::Poisoned));
    t.apply_status(Status::Poisoned, 3);
    let mut cleared = t.clear_statuses();
    cleared.sort();
    assert_eq!(cleared, vec![Status::Haste, Status::Poisoned], "positive ones too");
    assert_eq!(t.find(&CardRef::Skill("s".into())), Some(2), "skills stay");
}

// R218 (Recover): slide 1 status 1 slot left; from slot 1 it is cleared (D09).
#[test]
fn r218_recover_slides_one_status() {
    let mut t = Track::new(ORIGIN_TRACK);
    t.apply_status(Status::Burning, 2);
    t.apply_status(Status::Bleeding, 2);
    assert!(t.slide_one(&CardRef::Status(Status::Burning)).is_none());
    assert_eq!(t.status_slot(Status::Burning), Some(1));
    assert_eq!(t.status_slot(Status::Bleeding), Some(2), "only the chosen one");
    assert!(t.slide_one(&CardRef::Status(Status::Burning)).is_some());
    assert!(!t.has(Status::Burning));
}

// R186 (interlude step 2): clear every card from the track.
#[test]
fn r186_interlude_clears_tracks() {
    let mut t = Track::new(ORIGIN_TRACK);
    t.apply_status(Status::Poisoned, 3);
    t.place(TrackCard { card: CardRef::Skill("s".into()), face_up: false, flip_at: None }, 4);
    assert_eq!(t.clear().len(), 2);
    assert!(t.is_empty());
}

// ---- Damage (R91-R97, R108-R115, R155, G16) ----

// R93/R94: physical vs physical armor, elemental/poison vs magical armor, direct ignores armor;
// armor taking everything means no damage.
#[test]
fn r93_r94_damage_types_and_armor() {
    let d = Defence { physical_armor: 2, magical_armor: 3, ..Defence::default() };
    assert_eq!(harm(5, DamageType::Physical, &d, None), Harm::Damage(3));
    for ty in [DamageType::Air, DamageType::Water, DamageType::Fire, DamageType::Earth, DamageType::Poison] {
        assert!(ty.is_magical());
        assert_eq!(harm(5, ty, &d, None), Harm::Damage(2), "{ty:?}");
    }
    assert_eq!(harm(5, DamageType::Direct, &d, None), Harm::Damage(5));
    assert_eq!(harm(2, DamageType::Physical, &d, None), Harm::Nothing);
}

// R96: type reduction stacks with armor.
#[test]
fn r96_reduction_stacks_with_armor() {
    let mut d = Defence { magical_armor: 1, ..Defence::default() };
    d.reduction.insert(DamageType::Water, 2);
    assert_eq!(harm(6, DamageType::Water, &d, None), Harm::Damage(3));
    assert_eq!(harm(6, DamageType::Fire, &d, None), Harm::Damage(5));
}

// R155: CHARGED/WET/WARM/OILY add +2 to air/water/fire/earth, before armor; not to other types.
#[test]
fn r155_environment_bonus() {
    let d = Defence { magical_armor: 1, ..Defence::default() };
    let pairs = [
        (Environment::Charged, DamageType::Air),
        (Environment::Wet, DamageType::Water),
        (Environment::Warm, DamageType::Fire),
        (Environment::Oily, DamageType::Earth),
    ];
    for (env, ty) in pairs {
        assert_eq!(env.boosts(), Some(ty));
        assert_eq!(harm(3, ty, &d, Some(env)), Harm::Damage(4), "{env:?}");
        assert_eq!(harm(3, DamageType::Physical, &d, Some(env)), Harm::Damage(3));
    }
    assert_eq!(Environment::DifficultTerrain.boosts(), None);
    assert_eq!(
        harm(0, DamageType::Fire, &Defence::default(), Some(Environment::Warm)),
        Harm::Nothing,
        "G16: no +2 on 0"
    );
    assert_eq!(harm(1, DamageType::Fire, &d, Some(Environment::Warm)), Harm::Damage(2), "+2 before armor");
}

// R108: immunity to a damage type means no damage, environment or not.
#[test]
fn r108_damage_immunity() {
    let mut d = Defence::default();
    d.immune.insert(DamageType::Fire);
    assert_eq!(harm(9, DamageType::Fire, &d, Some(Environment::Warm)), Harm::Nothing);
    assert_eq!(harm(9, DamageType::Air, &d, None), Harm::Damage(9));
}

// R109/R110: status immunity and immovable (no KNOCKED DOWN) filter statuses (D38).
#[test]
fn r109_r110_status_immunity_and_immovable() {
    let mut a = basic(0, Targets::Single, Pool::default(), 1, physical());
    a.statuses = vec![
        StatusGrant { status: Status::KnockedDown, cooldown: 1 },
        StatusGrant { status: Status::Burning, cooldown: 2 },
    ];
    let c = Count { hits: 1, specials: 0 };
    let mut t = Target::default();
    assert_eq!(attack::resolve(&a, c, &t).statuses.len(), 2);
    t.immovable = true;
    assert_eq!(attack::resolve(&a, c, &t).statuses, vec![StatusGrant { status: Status::Burning, cooldown: 2 }]);
    t.immune_statuses.insert(Status::Burning);
    assert!(attack::resolve(&a, c, &t).statuses.is_empty());
}

// R112: healing that says it hurts UNDEAD deals direct damage to them; otherwise it heals them (D13).
#[test]
fn r112_undead_and_healing() {
    let u = Defence { physical_armor: 4, magical_armor: 4, undead: true, ..Defence::default() };
    assert_eq!(healing(5, &u, true), Harm::Damage(5));
    assert_eq!(healing(5, &u, false), Harm::Heal(5));
    assert_eq!(healing(5, &Defence::default(), true), Harm::Heal(5));
}

// R113/R114: poison heals UNDEAD the full amount, ignoring armor, also from area attacks.
#[test]
fn r113_poison_heals_undead() {
    let u = Defence { magical_armor: 9, undead: true, ..Defence::default() };
    assert_eq!(harm(4, DamageType::Poison, &u, None), Harm::Heal(4));
    let area = basic(0, Targets::Area, Pool::default(), 4, Outcome::Damage { damage_type: DamageType::Poison });
    let e = attack::resolve(&area, Count { hits: 4, specials: 0 }, &Target { defence: u, ..Target::default() });
    assert_eq!(e.harm, Harm::Heal(4));
}

// R119/R120: downed Origins take no damage and can't be healed, but gain statuses.
#[test]
fn r119_downed_takes_nothing_but_statuses() {
    let mut a = basic(0, Targets::Area, Pool::default(), 5, physical());
    a.statuses = vec![StatusGrant { status: Status::Bleeding, cooldown: 2 }];
    let t = Target { downed: true, ..Target::default() };
    let e = attack::resolve(&a, Count { hits: 5, specials: 0 }, &t);
    assert_eq!(e.harm, Harm::Nothing);
    assert_eq!(e.statuses.len(), 1);
    let heal = basic(0, Targets::Single, Pool::default(), 5, Outcome::Heal { damages_undead: false });
    assert_eq!(attack::resolve(&heal, Count { hits: 5, specials: 0 }, &t).harm, Harm::Nothing);
}

// R124 (L770): POISONED blocks healing (and G37: the UNDEAD poison heal too).
#[test]
fn r124_poisoned_blocks_healing() {
    let heal = basic(0, Targets::Single, Pool::default(), 5, Outcome::Heal { damages_undead: false });
    let t = Target { healing_blocked: true, ..Target::default() };
    assert_eq!(attack::resolve(&heal, Count { hits: 5, specials: 0 }, &t).harm, Harm::Nothing);
    let poison = basic(0, Targets::Single, Pool::default(), 5, Outcome::Damage { damage_type: DamageType::Poison });
    let u =
        Target { defence: Defence { undead: true, ..Defence::default() }, healing_blocked: true, ..Target::default() };
    assert_eq!(attack::resolve(&poison, Count { hits: 5, specials: 0 }, &u).harm, Harm::Nothing);
    assert!(Catalogue::standard().statuses.get(Status::Poisoned).blocks_healing);
}

// ---- Attack rolls (R205-R213) ----

// R206/R207: hits = rolled + bonus + extra (+ special extras); specials without a listed effect do nothing.
#[test]
fn r206_r207_counting_hits() {
    let a = basic(0, Targets::Single, Pool::of(Colour::White, 2), 2, physical());
    let r = Roll::set(vec![die(Colour::White, 1, true), die(Colour::White, 1, false)]);
    assert_eq!(attack::count(&a, &r, table(), 5, 0), Count { hits: 4, specials: 1 }, "a special alone adds nothing");
    assert_eq!(attack::count(&a, &r, table(), 5, 3).hits, 7, "extra hits from other sources");
    let mut b = a.clone();
    b.on_special = Some(OnSpecial { extra_hits: 2, per_special: true, ..OnSpecial::default() });
    let two = Roll::set(vec![die(Colour::White, 1, true), die(Colour::White, 1, true)]);
    assert_eq!(attack::count(&b, &two, table(), 0, 0).hits, 2 + 2 + 4);
    assert_eq!(attack::count(&b, &Roll::set(vec![die(Colour::White, 1, false)]), table(), 0, 0).hits, 3);
}

// R206 step 4 (D43): a status is applied even when armor absorbs all damage.
#[test]
fn r206_status_without_hp_loss() {
    let mut a = basic(0, Targets::Single, Pool::default(), 1, physical());
    a.statuses = vec![StatusGrant { status: Status::Sundered, cooldown: 2 }];
    let t = Target { defence: Defence { physical_armor: 5, ..Defence::default() }, ..Target::default() };
    let e = attack::resolve(&a, Count { hits: 1, specials: 0 }, &t);
    assert_eq!(e.harm, Harm::Nothing);
    assert_eq!(e.statuses.len(), 1);
}

// R206 step 5 / R154 (D28): the environment goes on after damage; the special's overrides the attack's.
#[test]
fn r206_environment_after_damage() {
    let mut a = basic(1, Targets::Single, Pool::default(), 3, Outcome::Damage { damage_type: DamageType::Water });
    a.environment = Some(Environment::Wet);
    let c = Count { hits: 3, specials: 0 };
    let t = Target { environment: Some(Environment::Warm), ..Target::default() };
    assert_eq!(attack::resolve(&a, c, &t).harm, Harm::Damage(3), "the WET it lays does not boost its own damage");
    assert_eq!(attack::environment(&a, c), Some(Environment::Wet));
    a.on_special = Some(OnSpecial { environment: Some(Environment::Charged), ..OnSpecial::default() });
    assert_eq!(attack::environment(&a, c), Some(Environment::Wet));
    assert_eq!(attack::environment(&a, Count { hits: 3, specials: 1 }), Some(Environment::Charged));
}

// R213 (D44): a healing roll heals, removes statuses, then sets the environment.
#[test]
fn r213_healing_roll_order() {
    let mut a = basic(0, Targets::Single, Pool::default(), 2, Outcome::Heal { damages_undead: false });
    a.removes = vec![Status::Poisoned];
    a.environment = Some(Environment::Wet);
    let c = Count { hits: 2, specials: 0 };
    let e = attack::resolve(&a, c, &Target::default());
    assert_eq!(e.harm, Harm::Heal(2));
    assert_eq!(e.removes, vec![Status::Poisoned]);
    assert_eq!(attack::environment(&a, c), Some(Environment::Wet));
}

// ---- Dice (R161, R208-R212, R221) ----

// R208: white fewest hits and specials, blue most specials, red most hits; the table is validated.
#[test]
fn r208_dice_colours() {
    let t = table();
    t.validate().unwrap();
    assert!(t.total_hits(Colour::White) < t.total_hits(Colour::Blue));
    assert!(t.total_hits(Colour::Red) > t.total_hits(Colour::Blue));
    assert!(t.total_specials(Colour::Blue) > t.total_specials(Colour::Red));
    assert!(t.total_specials(Colour::White) < t.total_specials(Colour::Red));
    let mut bad = t.clone();
    bad.white = bad.red;
    refused(bad.validate(), "white dice must have the fewest hits and specials", "white rolls as red");
    let mut bad = t.clone();
    std::mem::swap(&mut bad.blue, &mut bad.red);
    refused(bad.validate(), "blue dice must have the most specials", "blue and red swapped");
}

// R209/R161 (D01, D02): no more than 5 dice of a colour in one roll.
#[test]
fn r209_five_dice_per_colour() {
    let mut rng = GameRng::from_seed(1);
    let r = Pool::new(8, 3, 7).roll(&mut rng);
    let n = |c| r.dice.iter().filter(|d| d.colour == c).count();
    assert_eq!((n(Colour::White), n(Colour::Blue), n(Colour::Red)), (5, 3, 5));
    let mut challenge = Pool::of(Colour::White, 3);
    challenge.add(Colour::White, 3);
    assert_eq!(challenge.capped().white, 5);
}

// R210: a reduction removes a die of the chosen colour; nothing to remove is refused.
#[test]
fn r210_reductions() {
    let mut p = Pool::new(0, 1, 0);
    assert!(!p.reduce(Colour::Red));
    assert!(p.reduce(Colour::Blue));
    assert_eq!(p.total(), 0);
}

// R211: one effect rerolls its dice at once, only those dice, from the seeded RNG.
#[test]
fn r211_rerolls_are_deterministic_and_local() {
    let start = Roll::set(vec![die(Colour::Red, 0, false); 5]);
    let mut a = start.clone();
    let mut b = start.clone();
    a.reroll(&[1, 3], &mut GameRng::from_seed(9)).unwrap();
    b.reroll(&[1, 3], &mut GameRng::from_seed(9)).unwrap();
    assert_eq!(a, b);
    for i in [0, 2, 4] {
        assert_eq!(a.dice[i], start.dice[i]);
    }
    refused(a.clone().reroll(&[5], &mut GameRng::from_seed(1)), "die 5 is not a distinct die", "no die 5 to reroll");
}

// R212: a set die counts as rolled with that face.
#[test]
fn r212_set_dice() {
    let r = Roll::set(vec![die(Colour::Red, 2, false), die(Colour::Blue, 0, true)]);
    assert_eq!((r.hits(table()), r.specials(table())), (2, 1));
    assert_eq!(r.misses(table()), vec![1]);
}

// R221 (L383, L1620): a 1 on the targeting die is "closest", a 6 the special rule.
#[test]
fn r221_targeting_die() {
    let t = table();
    assert_eq!(t.targeting[0], TargetingFace::Closest);
    assert_eq!(t.targeting[5], TargetingFace::Special);
    let mut rng = GameRng::from_seed(4);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let (n, f) = t.roll_targeting(&mut rng);
        assert_eq!(f, t.targeting[n as usize - 1]);
        seen.insert(n);
    }
    assert_eq!(seen.len(), 6);
}

// ---- Map (R25, R150-R156, R200, G19) ----

fn line_map() -> MapDef {
    // 1 - t - 2 - 3, 3 -locked- 4
    let mut p = path("3", "4");
    p.locked = true;
    MapDef {
        spaces: vec![space("1"), tactical("t", None), space("2"), space("3"), space("4")],
        paths: vec![path("1", "t"), path("t", "2"), path("2", "3"), p],
    }
}

// R150: nobody crosses a locked path until a key token is placed on it (D30).
#[test]
fn r150_locked_paths_and_keys() {
    let def = line_map();
    def.validate().unwrap();
    let ixs = path_ixs(&def);
    let mut st = MapState::default();
    assert_eq!(Graph::new(&def, &st, &ixs).distance(3, 4), None);
    st.keys.insert(3);
    assert_eq!(Graph::new(&def, &st, &ixs).distance(3, 4), Some(1));
    assert_eq!(Graph::new(&def, &st, &ixs).distance(0, 4), Some(4), "tactical spaces count for distance (R152)");
}

// R154: an environment token covers the printed effect.
#[test]
fn r154_environment_token_covers_printed() {
    let mut def = line_map();
    def.spaces[1].environment = Some(Environment::Warm);
    let ixs = path_ixs(&def);
    let mut st = MapState::default();
    assert_eq!(Graph::new(&def, &st, &ixs).environment(1), Some(Environment::Warm));
    st.tokens.insert(1, Environment::Wet);
    assert_eq!(Graph::new(&def, &st, &ixs).environment(1), Some(Environment::Wet));
}

// R156/R200: DIFFICULT TERRAIN costs +1 to enter, unless ignored (Bosses, Taunt).
#[test]
fn r156_difficult_terrain() {
    let mut def = line_map();
    def.spaces[1].environment = Some(Environment::DifficultTerrain);
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    assert_eq!(g.costs(0, false)[2], Some(3));
    assert_eq!(g.costs(0, true)[2], Some(2));
    assert_eq!(g.enter_cost(1, false), 2);
    assert_eq!(g.enter_cost(2, false), 1);
}

// Map validation: duplicate ids, bad paths, locked tactical spaces are refused.
#[test]
fn map_validation() {
    let mut def = line_map();
    def.paths.push(path("1", "nowhere"));
    refused(def.validate(), "bad path 1-nowhere", "a path to no space");
    let mut def = line_map();
    def.spaces.push(space("1"));
    refused(def.validate(), "duplicate space id 1", "two spaces 1");
    let mut def = line_map();
    def.spaces[1].locked = true;
    refused(def.validate(), "can't be multicard or locked", "a locked tactical space");
}

// ---- Minion AI (R221-R229, G21, D06, D07, D51) ----

fn c(space: usize, hp: u32, pa: u32, ma: u32, source: u32) -> Candidate {
    Candidate { space, hp, physical_armor: pa, magical_armor: ma, source }
}

// R225: each rule of the special targeting table; R222 ties go to the party (first in order).
#[test]
fn r225_special_targeting_table() {
    let def = MapDef { spaces: vec![space("0"), space("1"), space("2")], paths: vec![path("0", "1"), path("1", "2")] };
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    let cands = [c(2, 10, 1, 4, 0), c(1, 20, 3, 1, 2), c(2, 15, 2, 2, 1)];
    let pick = |rule| choose_target(&g, 0, TargetingFace::Special, rule, &cands);
    assert_eq!(pick(TargetRule::Closest), Some(1));
    assert_eq!(pick(TargetRule::MostHp), Some(1));
    assert_eq!(pick(TargetRule::LeastHp), Some(0));
    assert_eq!(pick(TargetRule::MostPhysicalArmor), Some(1));
    assert_eq!(pick(TargetRule::LeastPhysicalArmor), Some(0));
    assert_eq!(pick(TargetRule::MostMagicalArmor), Some(0));
    assert_eq!(pick(TargetRule::LeastMagicalArmor), Some(1));
    assert_eq!(pick(TargetRule::MostSource), Some(1));
    assert_eq!(pick(TargetRule::LeastSource), Some(0));
    assert_eq!(pick(TargetRule::MostOriginsSpace), Some(0));
    assert_eq!(pick(TargetRule::FewestOriginsSpace), Some(1));
    // The "closest" face overrides the card's rule.
    assert_eq!(choose_target(&g, 0, TargetingFace::Closest, TargetRule::LeastHp, &cands), Some(1));
    // D51: a tie goes to the first candidate in party order.
    let tie = [c(2, 10, 0, 0, 0), c(0, 10, 0, 0, 0)];
    assert_eq!(choose_target(&g, 1, TargetingFace::Closest, TargetRule::Closest, &tie), Some(0));
    assert_eq!(choose_target(&g, 1, TargetingFace::Closest, TargetRule::Closest, &[]), None);
}

fn corridor(n: usize) -> MapDef {
    let ids: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    MapDef {
        spaces: ids.iter().map(|i| space(i)).collect(),
        paths: (1..n).map(|i| path(&ids[i - 1], &ids[i])).collect(),
    }
}

// R226: at range, no move; too far, move towards up to the move value; too close, move away.
#[test]
fn r226_move_to_max_range() {
    let def = corridor(6);
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    assert!(plan_move(&g, 3, 5, 2, 3, false, &[]).is_empty(), "distance == range");
    assert_eq!(plan_move(&g, 0, 5, 0, 2, false, &[]), vec![1, 2], "stops when movement runs out");
    assert_eq!(plan_move(&g, 0, 5, 1, 9, false, &[]), vec![1, 2, 3, 4], "stops at max range");
    assert_eq!(plan_move(&g, 4, 5, 2, 2, false, &[]), vec![3], "moves away to max range");
    assert!(plan_move(&g, 0, 5, 0, 0, false, &[]).is_empty());
}

// R226 (L1697): a minion too close at a dead end can't get further and stays.
#[test]
fn r226_dead_end_stays() {
    let def = corridor(2);
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    assert!(plan_move(&g, 0, 1, 3, 2, false, &[]).is_empty());
}

// R227: among shortest routes, the one ending furthest from the other Origins.
#[test]
fn r227_route_far_from_other_origins() {
    // 0 - a(1) - 3 and 0 - b(2) - 3; another Origin stands next to a, at 4.
    let def = MapDef {
        spaces: vec![space("0"), space("1"), space("2"), space("3"), space("4")],
        paths: vec![path("0", "1"), path("1", "3"), path("0", "2"), path("2", "3"), path("1", "4")],
    };
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    assert_eq!(plan_move(&g, 0, 3, 1, 1, false, &[4]), vec![2]);
    assert_eq!(plan_move(&g, 0, 3, 1, 1, false, &[]), vec![1], "otherwise the lowest space (party choice)");
}

// R228 (D06): without enough movement for DIFFICULT TERRAIN the minion stops before it;
// D07: a Boss ignores it.
#[test]
fn r228_difficult_terrain_stops_minions() {
    let mut def = corridor(4);
    def.spaces[2].environment = Some(Environment::DifficultTerrain);
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    assert_eq!(plan_move(&g, 0, 3, 0, 2, false, &[]), vec![1]);
    assert_eq!(plan_move(&g, 0, 3, 0, 3, false, &[]), vec![1, 2]);
    assert_eq!(plan_move(&g, 0, 3, 0, 2, true, &[]), vec![1, 2]);
}

// R228: minions can't cross locked paths.
#[test]
fn r228_minions_respect_locks() {
    let def = line_map();
    let ixs = path_ixs(&def);
    let st = MapState::default();
    let g = Graph::new(&def, &st, &ixs);
    assert!(plan_move(&g, 4, 0, 0, 5, false, &[]).is_empty());
}

// ---- Statuses as data (R98, G3) ----

// Every status of the book has a rule; HASTE raises the AP maximum to 10 (L1574).
#[test]
fn statuses_cover_the_book() {
    let rules = &Catalogue::standard().statuses;
    rules.validate().unwrap();
    assert_eq!(rules.get(Status::Haste).max_ap, Some(10));
    assert!(rules.get(Status::Haste).positive && rules.get(Status::Invisible).positive);
    assert!(rules.get(Status::Invisible).untargetable);
    assert!(rules.get(Status::Dominated).dominated);
    assert!(!rules.get(Status::Poisoned).positive);
    let mut missing = rules.clone();
    missing.0.remove(&Status::Chicken);
    refused(missing.validate(), "status Chicken has no rule", "CHICKEN without a rule");
}
