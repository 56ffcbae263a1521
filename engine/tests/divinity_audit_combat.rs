//! The audit of the combat rules R196–R245 of the facts file (sections
//! 1.30–1.38): the cases the other Divinity tests did not yet pin down. Each
//! test cites its rule and the rulebook line; `divinity_coverage/r196-r245.md`
//! maps every rule of the range to the tests that fail when it breaks.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::attack::Targets;
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{CardRef, Track, TrackCard, MINION_TRACK};
use athlas_engine::divinity::damage::Environment;
use athlas_engine::divinity::dice::{Colour, TargetingFace};
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{Enemy, EnemyKind, Phase, RoundKind, Who};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat};

use crate::divinity_support;
use divinity_support::*;

/// Another minion on the map, its tray to the right of the others.
fn add_minion(s: &mut DivinityState, id: u32, card: &str, space: &str, fast: bool) {
    let hp = cat().minions[card].standard.hp;
    let letter = ['A', 'B', 'C', 'D', 'E', 'F'][s.enemies.len()];
    let space = ix(s, space);
    s.enemies.push(Enemy {
        id,
        letter: Some(letter),
        kind: EnemyKind::Minion { card: card.into(), veteran: false },
        hp,
        max_hp: hp,
        space,
        fast,
        track: Track::new(MINION_TRACK),
        ap: 0,
        tactics: vec![],
    });
}

/// A catalogue whose targeting die always shows the special face, so that a
/// minion always follows its card's targeting rule.
fn always_special() -> Catalogue {
    let mut c = cat().clone();
    c.dice.targeting = [TargetingFace::Special; 6];
    c
}

fn pos(ev: &[Ev], want: &Ev) -> usize {
    ev.iter().position(|e| e == want).unwrap_or_else(|| panic!("no {want:?} in {ev:?}"))
}

// ---- 1.30 Combat start, active combat stack, terms, initiative ----

/// R197, R235 (L1412, L1751-1756): a lost combat flips its stack and resolves
/// the **defeat** effects only (the Shipwreck's card 3: BLEEDING 2 on the
/// party, which downed Origins still gain), discards the card, returns the
/// minions, revives with 1 HP, sets AP to 0 and ends the round.
#[test]
fn r197_r235_a_lost_combat_resolves_its_defeat_effects() {
    let mut s = start("shipwreck", &["ifan"]);
    quiet(&mut s);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: Some("3".into()) });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    assert_eq!(s.combat_stack, vec!["3".to_string()], "the spawning card sits on the active combat stack");
    assert_eq!(s.round_kind, RoundKind::Combat);
    let (gold, time, keys) = (s.gold, s.time, s.map.keys.clone());
    s.origins[0].hp = 1;
    ok(&mut s, 0, A::StartTurn);
    // The SLOW Lackey in his space hits for at least 2 - 1 armor: he is downed.
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(ev.contains(&Ev::CombatEnded { victory: false }), "{ev:?}");
    assert_eq!(s.origins[0].track.status_slot(St::Bleeding), Some(2), "the defeat effect: BLEEDING 2");
    assert_eq!((s.gold, &s.map.keys), (gold, &keys), "no victory gold and no victory key");
    assert!(s.combat_stack.is_empty() && s.discard.contains(&"3".to_string()));
    assert!(s.enemies.is_empty());
    let o = &s.origins[0];
    assert_eq!((o.downed, o.hp, o.ap), (false, 1, 0));
    assert_eq!(s.time, time.map(|t| t + 1));
    assert_eq!(s.phase, Phase::ChooseRound);
}

/// R198 (L1418-1420): "allies" means **other** Origins: Lohse's "heal an
/// ally in your space" can't be aimed at herself.
#[test]
fn r198_an_ally_is_another_origin() {
    let mut s = duel(&["lohse", "ifan"], "darkhans_lackey", 28);
    s.origins[0].hp = 10;
    s.origins[1].hp = 10;
    ok(&mut s, 0, A::StartTurn);
    rejected(&mut s, 0, A::UseAbility { aim: Some(Aim::Origin(0)) }, "bad_target");
    ok(&mut s, 0, A::UseAbility { aim: Some(Aim::Origin(1)) });
    assert_eq!((s.origins[0].hp, s.origins[1].hp), (10, 11));
}

/// R199 (L1424): FAST enemies act before the Origins, SLOW ones after them.
/// A SLOW Lackey acts once the Origin ends its turn; a FAST Crocodile acts
/// at the start of the next Combat round, before the Origin's next turn.
#[test]
fn r199_fast_enemies_act_before_the_origins_and_slow_ones_after() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.origins[0].hp = 60;
    let lackey = s.enemies[0].id;
    add_minion(&mut s, 50, "crocodile", "3", true);
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    let me = pos(&ev, &Ev::TurnEnded { who: Who::Origin(0) });
    let slow = pos(&ev, &Ev::TurnEnded { who: Who::Enemy(lackey) });
    let time = ev.iter().position(|e| matches!(e, Ev::TimeAdvanced { .. })).expect("the round ended");
    let fast = pos(&ev, &Ev::TurnEnded { who: Who::Enemy(50) });
    assert!(me < slow && slow < time && time < fast, "Origin, SLOW, end of round, FAST: {ev:?}");
    assert_eq!(ev.iter().filter(|e| **e == Ev::TurnEnded { who: Who::Enemy(lackey) }).count(), 1);
    assert_eq!(waiting(&s), vec![0], "then the Origin's turn");
}

// ---- 1.31 Movement in combat & tactical spaces ----

/// R200 (L1430-1432): an Origin moves along paths only; a locked path (the
/// tutorial's 1-5) and a locked space (#4) can't be entered, and the AP stays.
#[test]
fn r200_no_moving_along_a_locked_path_or_into_a_locked_space() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.origins[0].space = ix(&s, "1");
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 6;
    rejected(&mut s, 0, A::Move { to: "5".into() }, "not_adjacent");
    s.origins[0].space = ix(&s, "3");
    rejected(&mut s, 0, A::Move { to: "4".into() }, "not_adjacent");
    assert_eq!(s.origins[0].ap, 6);
    ok(&mut s, 0, A::Move { to: "t1".into() });
    assert_eq!(s.origins[0].ap, 4, "an open path into DIFFICULT TERRAIN: 2 AP");
}

/// R201, R204, R228 (L1436, L1440, L1691): in combat an Origin enters a
/// tactical space for 1 AP (the Shipwreck's WET t1), and a minion for 1
/// movement: a Lackey (move 2) two spaces away reaches it. Minions end their
/// turn there with the Origin and with each other.
#[test]
fn r201_r204_tactical_spaces_in_combat() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.location = "shipwreck".into();
    s.map = Default::default();
    s.origins[0].space = ix(&s, "2");
    s.origins[0].hp = 60;
    let lackey = s.enemies[0].id;
    s.enemies[0].space = ix(&s, "1");
    // A FROZEN Crocodile already waits in t1.
    add_minion(&mut s, 50, "crocodile", "t1", false);
    s.enemies[1].track.apply_status(St::Frozen, 3);
    ok(&mut s, 0, A::StartTurn);
    let ap = s.origins[0].ap;
    ok(&mut s, 0, A::Move { to: "t1".into() });
    assert_eq!(s.origins[0].ap, ap - 1, "1 AP into a tactical space");
    let ev = ok(&mut s, 0, A::EndTurn);
    let t1 = ix(&s, "t1");
    assert_eq!(s.enemy(lackey).unwrap().space, t1, "two steps, the second into t1, for its 2 movement");
    assert_eq!(s.enemy(50).unwrap().space, t1);
    assert_eq!(s.origins[0].space, t1);
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == lackey)), "it attacked");
}

/// R202 (L1438): an effect such as KNOCKED DOWN lets an Origin end its turn
/// in a tactical space another Origin holds; without it the turn can't end there.
#[test]
fn r202_knocked_down_ends_its_turn_in_a_shared_tactical_space() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&s)[0];
    let other = 1 - seat;
    s.origins[other as usize].space = ix(&s, "t1");
    ok(&mut s, seat, A::StartTurn);
    s.origins[seat as usize].ap = 5;
    ok(&mut s, seat, A::Move { to: "t1".into() });
    rejected(&mut s, seat, A::EndTurn, "tactical_space_taken");
    s.origins[seat as usize].track.apply_status(St::KnockedDown, 1);
    ok(&mut s, seat, A::EndTurn);
    assert_eq!(s.origins[seat as usize].space, ix(&s, "t1"));
}

/// R203 (L1438): during another Origin's turn an Origin may be moved into a
/// tactical space an Origin holds: Lohse, in the tutorial's t1, pulls Ifan in
/// with Teleportation.
#[test]
fn r203_moved_into_a_tactical_space_another_origin_holds() {
    let mut s = duel(&["lohse", "ifan"], "darkhans_lackey", 28);
    let t1 = ix(&s, "t1");
    s.origins[0].space = t1;
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 5;
    ok(&mut s, 0, use_card(CardUse::Skill("teleportation".into()), Aim::Origin(1)));
    assert_eq!((s.origins[0].space, s.origins[1].space), (t1, t1));
}

// ---- 1.32 Attacks ----

/// R205 (L1460, G19): range is counted along paths, tactical spaces
/// included: Ifan's Short Bow (range 2) reaches the Hold (#3) from the
/// Galley through t1, and not from the Deck (#1), 3 steps away.
#[test]
fn r205_range_counts_tactical_spaces_along_paths() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    let id = s.enemies[0].id;
    s.enemies[0].space = ix(&s, "3");
    s.origins[0].space = ix(&s, "1");
    ok(&mut s, 0, A::StartTurn);
    let bow = || use_card(CardUse::Item("short_bow".into()), Aim::Enemy(id));
    rejected(&mut s, 0, bow(), "out_of_range");
    s.origins[0].space = ix(&s, "2");
    ok(&mut s, 0, bow());
}

/// R206 step 5 (L1483): the environment goes on the **target's** space:
/// Vali's Rain on the Lackey a space away leaves WET there, not in her space.
#[test]
fn r206_the_environment_goes_on_the_target_space() {
    let mut s = duel(&["vali"], "darkhans_lackey", 28);
    s.enemies[0].space = ix(&s, "1");
    ok(&mut s, 0, A::StartTurn);
    // Rain rolls no dice: its roll resolves at once.
    ok(&mut s, 0, use_card(CardUse::Skill("rain".into()), Aim::Space("1".into())));
    assert_eq!(s.map.tokens.get(&ix(&s, "1")), Some(&Environment::Wet));
    assert_eq!(s.map.tokens.get(&ix(&s, "2")), None);
}

/// R214 (L1543): a single-target card may target anyone in range, yourself
/// included, and its effects go to that target only: of two Fire Slugs in
/// the Red Prince's space, only the one he hits loses HP.
#[test]
fn r214_a_single_target_hits_only_its_target() {
    let mut s = duel(&["red_prince"], "fire_slug", 20);
    let first = s.enemies[0].id;
    add_minion(&mut s, 50, "fire_slug", "2", false);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, use_card(CardUse::Item("long_sword".into()), Aim::Enemy(first)));
    set_dice(&mut s, vec![die(Colour::Red, 2, false), die(Colour::Red, 2, false)]);
    ok(&mut s, 0, A::Accept);
    assert_eq!((s.enemy(first).unwrap().hp, s.enemy(50).unwrap().hp), (16, 20));
    // Yourself: Ifan aims Searing Daggers at himself.
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, use_card(CardUse::Skill("searing_daggers".into()), Aim::Origin(0)));
    set_dice(&mut s, vec![die(Colour::Red, 2, false), die(Colour::Red, 2, false)]);
    ok(&mut s, 0, A::Accept);
    assert!(s.origins[0].hp < 30);
    assert_eq!(s.enemies[0].hp, 28);
}

// ---- 1.33 Origin combat turns & AP ----

/// R217 (L1568-1570): AP left at the end of a turn is kept for the next
/// Combat round of the same combat: 4 gained, 1 spent, 3 kept, then +4 = 7.
#[test]
fn r217_leftover_ap_is_kept_for_the_next_combat_round() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.origins[0].hp = 60;
    ok(&mut s, 0, A::StartTurn);
    assert_eq!(s.origins[0].ap, 4);
    ok(&mut s, 0, A::Move { to: "1".into() });
    ok(&mut s, 0, A::EndTurn);
    assert!(s.in_combat());
    assert_eq!(s.origins[0].ap, 3, "kept through the round's end");
    ok(&mut s, 0, A::StartTurn);
    assert_eq!(s.origins[0].ap, 7);
}

// ---- 1.34 Minion turns ----

/// R219 (L1598): the enemies of a track act left to right: by the order of
/// their trays, not by when they were spawned.
#[test]
fn r219_enemies_act_left_to_right() {
    let order = |swap: bool| {
        let mut s = duel(&["ifan"], "darkhans_lackey", 28);
        s.origins[0].hp = 60;
        add_minion(&mut s, 50, "crocodile", "1", false);
        add_minion(&mut s, 51, "crocodile", "3", false);
        if swap {
            s.enemies.swap(0, 2);
        }
        ok(&mut s, 0, A::StartTurn);
        let ev = ok(&mut s, 0, A::EndTurn);
        ev.iter()
            .filter_map(|e| match e {
                Ev::TurnEnded { who: Who::Enemy(id) } => Some(*id),
                _ => None,
            })
            .collect::<Vec<u32>>()
    };
    let lackey = duel(&["ifan"], "darkhans_lackey", 28).enemies[0].id;
    assert_eq!(order(false), vec![lackey, 50, 51]);
    assert_eq!(order(true), vec![51, 50, lackey]);
}

/// R223 (L1625): "least physical armor" compares each Origin's total,
/// armor from items included: the Lackey goes for whichever Origin does not
/// wear the Thick Robes.
#[test]
fn r223_most_and_least_count_armor_from_items() {
    let c = always_special();
    for robed in [0usize, 1] {
        let mut s = duel_with(&c, &["ifan", "sebille"], "darkhans_lackey", 28);
        let lackey = s.enemies[0].id;
        for o in &mut s.origins {
            o.equipped.retain(|i| i != "leather_armor");
        }
        s.origins[robed].equipped.push("thick_robes".into());
        let base: Vec<u32> = (0..2).map(|w| cat().origins[&s.origins[w].origin].defence().physical_armor).collect();
        assert_eq!(base[0], base[1], "the same armor on the Origin cards");
        let mut ev = Vec::new();
        for seat in waiting(&s) {
            ok_with(&c, &mut s, seat, A::StartTurn);
            ev.extend(ok_with(&c, &mut s, seat, A::EndTurn));
        }
        assert_eq!(targeted(&ev, lackey), Some(Who::Origin(1 - robed as Seat)), "robed: {robed}");
    }
}

/// R229 (L1697): a minion out of range of its target attacks no one else,
/// even an Origin in its own space, and heals its level instead. The FROZEN
/// Lackey targets Sebille (least physical armor) a space away and leaves
/// Ifan, beside it in Thick Robes, alone.
#[test]
fn r229_out_of_range_attacks_no_one_else() {
    let c = always_special();
    let mut s = duel_with(&c, &["ifan", "sebille"], "darkhans_lackey", 20);
    let lackey = s.enemies[0].id;
    s.enemies[0].track.apply_status(St::Frozen, 3);
    s.origins[0].equipped.push("thick_robes".into());
    s.origins[1].space = ix(&s, "1");
    let mut ev = Vec::new();
    for seat in waiting(&s) {
        ok_with(&c, &mut s, seat, A::StartTurn);
        ev.extend(ok_with(&c, &mut s, seat, A::EndTurn));
    }
    assert_eq!(targeted(&ev, lackey), Some(Who::Origin(1)));
    assert!(!ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(_), .. })), "no attack: {ev:?}");
    assert_eq!((s.origins[0].hp, s.origins[1].hp), (30, 30));
    assert_eq!(s.enemies[0].hp, 21, "level 1: heals 1");
}

/// R230, R215 (L1699, L1546): a minion's area attack hits everyone in its
/// target's space except itself, other enemies included. (A Lackey made to
/// attack an area, a STUNNED Fire Slug beside it.)
#[test]
fn r230_a_minion_area_attack_hits_everyone_there_but_itself() {
    let mut c = cat().clone();
    c.minions.get_mut("darkhans_lackey").unwrap().standard.attack.targets = Targets::Area;
    let mut s = duel_with(&c, &["ifan"], "darkhans_lackey", 20);
    add_minion(&mut s, 50, "fire_slug", "2", false);
    s.enemies[1].track.apply_status(St::Stunned, 3);
    ok_with(&c, &mut s, 0, A::StartTurn);
    ok_with(&c, &mut s, 0, A::EndTurn);
    assert!(s.origins[0].hp < 30, "the Origin is hit");
    assert!(s.enemy(50).unwrap().hp < 20, "so is the Fire Slug (no physical armor, 2 bonus hits)");
    assert_eq!(s.enemies[0].hp, 20, "the Lackey is not");
}

/// R231 (L387): after acting a minion slides its track 1: BLINDED 2 is on
/// slot 1 after an attack; FROZEN 3 is on slot 2 after a turn out of range.
#[test]
fn r231_a_minion_slides_its_track_after_acting() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    s.enemies[0].track.apply_status(St::Blinded, 2);
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(_), .. })));
    assert_eq!(s.enemies[0].track.status_slot(St::Blinded), Some(1));

    let mut s = duel(&["ifan"], "darkhans_lackey", 20);
    s.enemies[0].space = ix(&s, "1");
    s.enemies[0].track.apply_status(St::Frozen, 3);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.enemies[0].hp, 21, "out of range: healed");
    assert_eq!(s.enemies[0].track.status_slot(St::Frozen), Some(2));
}

// ---- 1.35 Dominated minions ----

/// R233, R224 (L1737, L1627): other enemies treat a DOMINATED minion as an
/// Origin when choosing targets: with Ifan INVISIBLE, the Crocodile goes for
/// the dominated Lackey.
#[test]
fn r233_enemies_target_a_dominated_minion() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    let lackey = s.enemies[0].id;
    s.enemies[0].track.apply_status(St::Dominated, 3);
    add_minion(&mut s, 50, "crocodile", "1", false);
    s.enemies.swap(0, 1); // the Crocodile acts first
    s.origins[0].track.apply_status(St::Invisible, 5);
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    assert_eq!(targeted(&ev, 50), Some(Who::Enemy(lackey)), "{ev:?}");
    assert_eq!(s.enemy(50).unwrap().space, ix(&s, "2"), "it went for the Lackey");
}

/// R233 (L1737): a DOMINATED minion must still be defeated for the combat to
/// end, and an Origin attacking it does not change its status.
#[test]
fn r233_a_dominated_minion_must_be_defeated() {
    let mut s = duel(&["red_prince"], "darkhans_lackey", 28);
    let id = s.enemies[0].id;
    s.enemies[0].track.apply_status(St::Dominated, 3);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, use_card(CardUse::Item("long_sword".into()), Aim::Enemy(id)));
    set_dice(&mut s, vec![die(Colour::Red, 2, false), die(Colour::Red, 2, false)]);
    ok(&mut s, 0, A::Accept);
    assert_eq!(s.enemies[0].hp, 25, "4 hits - 1 armor");
    assert_eq!(s.enemies[0].track.status_slot(St::Dominated), Some(3), "still DOMINATED");
    assert!(s.in_combat() && matches!(s.phase, Phase::Combat { .. }), "the only enemy left is dominated");
    s.enemies[0].hp = 1;
    s.origins[0].ap = 2;
    ok(&mut s, 0, use_card(CardUse::Item("long_sword".into()), Aim::Enemy(id)));
    set_dice(&mut s, vec![die(Colour::Red, 2, false), die(Colour::Red, 2, false)]);
    let ev = ok(&mut s, 0, A::Accept);
    assert!(ev.contains(&Ev::CombatEnded { victory: true }));
}

// ---- 1.37 Bosses ----

/// R236 (L1775-1776): the Boss' tray goes to the **right** of the trays
/// already on its track, its standee on the booklet's space, its AP on 0,
/// its HP the max for the player count.
#[test]
fn r236_the_boss_tray_goes_to_the_right() {
    let mut s = start("temple", &["ifan", "sebille"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..2 {
        ok(&mut s, seat, A::Travel { to: Some("3".into()) });
    }
    add_minion(&mut s, 50, "shambling_skeleton", "1", false);
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "3".into() });
    let b = &cat().bosses["the_warden"];
    let boss = s.enemies.iter().position(|e| matches!(e.kind, EnemyKind::Boss { .. })).unwrap();
    let skeleton = s.enemies.iter().position(|e| e.id == 50).unwrap();
    assert!(skeleton < boss, "to the right of the tray already there");
    let e = &s.enemies[boss];
    assert_eq!((e.space, e.ap, e.hp, e.fast), (ix(&s, &b.space), 0, b.hp[1], b.fast));
}

/// R237 (L1789-1799): a Boss' turn: start-of-turn effects (BLEEDING 1),
/// +4 AP, tactics while it can pay for the top card (Strike, 2), then the
/// AP it could not spend (Smite costs 3) is saved for its next turn, and its
/// track slides.
#[test]
fn r237_the_boss_saves_the_ap_it_cannot_spend() {
    let (mut s, id) = temple_boss(&["ifan"]);
    s.origins[0].space = ix(&s, "3");
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_strike".into(), "w_smite".into(), "w_mend".into()];
        e.ap = 0;
        e.hp = 30;
        e.track.apply_status(St::Bleeding, 2);
    }
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == id)), "it struck");
    let e = s.enemy(id).unwrap();
    assert_eq!(e.hp, 29, "BLEEDING at the start of its turn");
    assert_eq!(e.ap, 2, "4 - 2 for the Strike; the Smite's 3 can't be paid");
    assert_eq!(e.tactics, vec!["w_smite".to_string(), "w_mend".to_string()]);
    assert_eq!(e.track.find(&CardRef::Tactic("w_strike".into())), Some(1), "placed on 2, slid to 1");
    assert_eq!(e.track.status_slot(St::Bleeding), Some(1));
    // Next turn, with nothing to play: the saved 2 + 4.
    s.enemy_mut(id).unwrap().tactics.clear();
    s.enemy_mut(id).unwrap().track = Track::new(5);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.enemy(id).unwrap().ap, 6);
}

/// R238 (L1803-1805): a tactic goes on cooldown face down (not ongoing),
/// and one that slides off the track goes to the bottom of the tactics deck.
#[test]
fn r238_a_tactic_sliding_off_goes_under_the_deck() {
    let (mut s, id) = temple_boss(&["ifan"]);
    s.origins[0].space = ix(&s, "3");
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_strike".into(), "w_sweep".into()];
        e.ap = 0;
        e.track.place(TrackCard { card: CardRef::Tactic("w_mend".into()), face_up: false, flip_at: None }, 1);
    }
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::EndTurn);
    let e = s.enemy(id).unwrap();
    assert_eq!(e.tactics, vec!["w_sweep".to_string(), "w_mend".to_string()], "Mend under the deck");
    let strike = e.track.slots.iter().flatten().find(|c| c.card == CardRef::Tactic("w_strike".into())).unwrap();
    assert!(!strike.face_up, "face down");
}

/// R239 (L1813): an attack tactic whose target stays out of range makes no
/// attack: the Boss regains its AP, the tactic still goes on cooldown, and
/// it does not heal. (The Strike made to move 0; Ifan a space away.)
#[test]
fn r239_an_attack_tactic_out_of_range_refunds_without_healing() {
    let mut c = cat().clone();
    let b = c.bosses.get_mut("the_warden").unwrap();
    b.tactics.iter_mut().find(|t| t.id == "w_strike").unwrap().movement = 0;
    let (mut s, id) = temple_boss_with(&c, &["ifan"]);
    s.origins[0].space = ix(&s, "2");
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_strike".into()];
        e.ap = 0;
        e.hp = 30;
    }
    ok_with(&c, &mut s, 0, A::StartTurn);
    let ev = ok_with(&c, &mut s, 0, A::EndTurn);
    assert!(!ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(_), .. })), "no attack");
    let e = s.enemy(id).unwrap();
    assert_eq!((e.ap, e.hp), (4, 30), "the 2 AP came back; no heal");
    assert_eq!(e.track.find(&CardRef::Tactic("w_strike".into())), Some(1), "on cooldown all the same");
    assert_eq!(s.origins[0].hp, 60);
}

/// R239 (L1813): an attack tactic moves like a minion but ignores DIFFICULT
/// TERRAIN: the Strike (move 2) crosses the Nave made DIFFICULT and strikes
/// Ifan two spaces away, where a minion would stop before it.
#[test]
fn r239_an_attack_tactic_ignores_difficult_terrain() {
    let (mut s, id) = temple_boss(&["ifan"]);
    s.origins[0].space = ix(&s, "1");
    let nave = ix(&s, "2");
    s.map.tokens.insert(nave, Environment::DifficultTerrain);
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_strike".into()];
        e.ap = 0;
    }
    ok(&mut s, 0, A::StartTurn);
    let ev = ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.enemy(id).unwrap().space, ix(&s, "1"), "{ev:?}");
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == id)), "it struck");
}

/// R204 (L1440): a Boss may end its turn in a tactical space with an
/// Origin: the Warden steps into the Temple's t1 and strikes Ifan there.
#[test]
fn r204_a_boss_ends_its_turn_in_a_tactical_space_with_origins() {
    let (mut s, id) = temple_boss(&["ifan"]);
    let t1 = ix(&s, "t1");
    for o in &mut s.origins {
        o.space = t1;
    }
    {
        let e = s.enemy_mut(id).unwrap();
        e.tactics = vec!["w_strike".into()];
        e.ap = 0;
    }
    let mut ev = Vec::new();
    for seat in waiting(&s) {
        ok(&mut s, seat, A::StartTurn);
        ev.extend(ok(&mut s, seat, A::EndTurn));
    }
    assert!(ev.iter().any(|e| matches!(e, Ev::Rolled { who: Who::Enemy(x), .. } if *x == id)), "it struck: {ev:?}");
    assert_eq!(s.enemy(id).unwrap().space, t1);
    assert!(ev.contains(&Ev::TurnEnded { who: Who::Enemy(id) }));
}

/// R242, R218 (L1829, L1587): a Boss is immovable: it can't be taunted.
#[test]
fn r242_a_boss_cannot_be_taunted() {
    let (mut s, id) = temple_boss(&["ifan"]);
    s.origins[0].space = ix(&s, "2");
    ok(&mut s, 0, A::StartTurn);
    rejected(&mut s, 0, A::Taunt { enemy: id }, "immovable");
}

/// R242 (L1837): the Boss' special rules are read before every encounter:
/// every seat's view of a Boss carries them; a minion's carries none.
#[test]
fn r242_the_view_shows_the_boss_special_rules() {
    let (s, id) = temple_boss(&["ifan", "sebille"]);
    let rules = &cat().bosses["the_warden"].special_rules;
    assert!(!rules.is_empty());
    for viewer in [athlas_engine::Viewer::Seat(0), athlas_engine::Viewer::Seat(1), athlas_engine::Viewer::Spectator] {
        let view = Divinity::view(&s, viewer);
        let boss = view.enemies.iter().find(|e| e.id == id).expect("the Warden is in view");
        assert_eq!(boss.special_rules.as_ref(), Some(rules));
    }
    let d = duel(&["ifan"], "darkhans_lackey", 10);
    assert!(Divinity::view(&d, athlas_engine::Viewer::Seat(0)).enemies.iter().all(|e| e.special_rules.is_none()));
}

// ---- 1.38 Game variants ----

/// Shipwreck until the level-up exit 5b is revealed and taken.
fn to_interlude(party: &[&str], opts: impl Fn(&mut DivinityOptions)) -> DivinityState {
    let mut o = options("shipwreck", party);
    opts(&mut o);
    (0..200u64)
        .find_map(|seed| {
            let mut s = Divinity::start(&o, seed).unwrap();
            ok(&mut s, 0, A::ChooseRound { explore: true });
            for seat in 0..party.len() as Seat {
                ok(&mut s, seat, A::Travel { to: Some("5".into()) });
            }
            ok(&mut s, 0, A::Reveal);
            if s.revealed[0].card != "5b" {
                return None;
            }
            s.gold = 9;
            ok(&mut s, 0, A::Resolve { card: "5b".into() });
            Some(s)
        })
        .expect("some seed reveals 5b")
}

/// R243 (L1843-1845): without Unrestricted Talents a talent above the
/// Origin's level is refused; with it, only talents are freed: the Merchant
/// still offers no equipment deck above the party's level.
#[test]
fn r243_unrestricted_talents_frees_talents_only() {
    let opportunist = || A::LevelUp { talent: Some("opportunist".into()), learn: "pin_down".into(), respec: vec![] };
    let mut s = to_interlude(&["sebille"], |_| {});
    rejected(&mut s, 0, opportunist(), "talent_level");
    let mut s = to_interlude(&["sebille"], |o| o.unrestricted_talents = true);
    ok(&mut s, 0, opportunist());
    rejected(&mut s, 0, A::VisitMerchant { level: 3, consumables: None }, "deck_level");
}

/// R245 (L1855): Solo Mode is a 2-player setup: exactly two Origins, the
/// 2-player entries (time track, spawns), each Origin with its own turn, its
/// own inventory, and trading as normal.
#[test]
fn r245_solo_mode_is_a_two_player_game() {
    let solo = |party: &[&str]| DivinityOptions { solo: true, ..options("tutorial", party) };
    refused(Divinity::start(&solo(&["ifan"]), 1), "Solo Mode is a 2-Origin setup", "a solo party of 1");
    refused(
        Divinity::start(&solo(&["ifan", "sebille", "fane"]), 1),
        "Solo Mode is a 2-Origin setup",
        "a solo party of 3",
    );
    let mut s = Divinity::start(&solo(&["ifan", "sebille"]), 1).unwrap();
    quiet(&mut s);
    let loc = &cat().locations["tutorial"];
    assert_eq!(s.time, Some(loc.time.start[1]));
    assert_eq!(s.players(), 2);
    assert_ne!(s.origins[0].equipped, s.origins[1].equipped, "each keeps its own items");
    ok(&mut s, 0, A::ChooseRound { explore: true });
    assert_eq!(waiting(&s), vec![0, 1], "each Origin travels on its own");
    for seat in 0..2 {
        ok(&mut s, seat, A::Travel { to: Some("2".into()) });
    }
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "2".into() });
    let fast = s.enemies.iter().filter(|e| e.fast).count();
    assert_eq!((s.enemies.len(), fast), (1, 1), "card 2's 2-player row: 1 FAST Lackey");
    for o in &mut s.origins {
        o.hp = 30;
        o.downed = false;
    }
    assert_eq!(waiting(&s), vec![0, 1], "each takes its own Combat turn");
    ok(&mut s, 0, A::StartTurn);
    let item = s.origins[0].equipped[0].clone();
    ok(&mut s, 0, A::Give { item: item.clone(), to: 1, equip: false });
    assert!(s.origins[1].backpack.contains(&item));
}

// ---- R210: the roller picks the dice its own roll loses ----

/// A catalogue whose Long Sword rolls 2 white and 2 red dice, and the Red
/// Prince (BLINDED: 1 die fewer) with Ifan in a duel, his turn under way.
fn blinded_mixed_sword() -> (Catalogue, DivinityState) {
    use athlas_engine::divinity::dice::Pool;
    let mut c = cat().clone();
    c.items.get_mut("long_sword").unwrap().action.as_mut().unwrap().attack.dice = Pool::new(2, 0, 2);
    let mut s = duel_with(&c, &["red_prince", "ifan"], "darkhans_lackey", 28);
    s.origins[0].track.apply_status(St::Blinded, 2);
    ok_with(&c, &mut s, 0, A::StartTurn);
    (c, s)
}

fn sword_at_the_lackey(s: &DivinityState) -> A {
    use_card(CardUse::Item("long_sword".into()), Aim::Enemy(s.enemies[0].id))
}

/// The colours of the dice the Origin of `seat` rolled.
fn rolled_colours(ev: &[Ev], seat: Seat) -> Vec<Colour> {
    ev.iter()
        .find_map(|e| match e {
            Ev::Rolled { who: Who::Origin(x), dice, .. } if *x == seat => Some(dice.iter().map(|d| d.colour).collect()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("seat {seat} rolled nothing: {ev:?}"))
}

/// R210 (L1515): an Origin whose own roll loses dice of several colours
/// picks which: the roll waits for its `ReduceDice` (shown in the view, the
/// roller the only seat waited for), then has exactly the dice left (a red
/// die lost here, where the fixed rule would take a white one).
#[test]
fn r210_the_roller_picks_the_dice_its_own_roll_loses() {
    let (c, mut s) = blinded_mixed_sword();
    let a = sword_at_the_lackey(&s);
    let ev = ok_with(&c, &mut s, 0, a);
    assert!(ev.contains(&Ev::OwnDiceToReduce { seat: 0, remove: 1 }), "{ev:?}");
    assert!(!ev.iter().any(|e| matches!(e, Ev::Rolled { .. })), "no roll before the choice: {ev:?}");
    assert!(s.pending_roll().is_none());
    assert_eq!(waiting(&s), vec![0]);
    let view = Divinity::view(&s, athlas_engine::Viewer::Seat(0));
    let r = view.roll_reduction.clone().expect("the view shows the choice");
    assert_eq!((r.seat, r.remove), (0, 1));
    assert_eq!(view.waiting, vec![0]);
    let ev = ok_with(&c, &mut s, 0, A::ReduceDice { remove: vec![Colour::Red] });
    let mut colours = rolled_colours(&ev, 0);
    colours.sort();
    assert_eq!(colours, vec![Colour::White, Colour::White, Colour::Red]);
    assert_eq!(s.pending_roll().expect("the roll waits for rerolls").roll.dice.len(), 3);
    assert!(s.roll_reduction().is_none());
    // The other pick: a white die goes.
    let (c, mut s) = blinded_mixed_sword();
    let a = sword_at_the_lackey(&s);
    ok_with(&c, &mut s, 0, a);
    let ev = ok_with(&c, &mut s, 0, A::ReduceDice { remove: vec![Colour::White] });
    let mut colours = rolled_colours(&ev, 0);
    colours.sort();
    assert_eq!(colours, vec![Colour::White, Colour::Red, Colour::Red]);
}

/// R210 (L1515): while an Origin's roll waits for its pick, a wrong count,
/// a colour the roll lacks, another seat's pick and any other action are
/// refused with the state unchanged.
#[test]
fn r210_bad_picks_of_the_roller_are_refused() {
    let (c, mut s) = blinded_mixed_sword();
    let a = sword_at_the_lackey(&s);
    ok_with(&c, &mut s, 0, a);
    for (seat, a, code) in [
        (0, A::Accept, "reduction_pending"),
        (0, A::Recover { status: None }, "reduction_pending"),
        (0, A::EndTurn, "reduction_pending"),
        (1, A::StartTurn, "reduction_pending"),
        (0, A::ReduceDice { remove: vec![] }, "reduction_count"),
        (0, A::ReduceDice { remove: vec![Colour::Red, Colour::White] }, "reduction_count"),
        (0, A::ReduceDice { remove: vec![Colour::Blue] }, "no_such_die"),
        (1, A::ReduceDice { remove: vec![Colour::Red] }, "not_your_roll"),
    ] {
        rejected_with(&c, &mut s, seat, a, code);
    }
    assert!(s.roll_reduction().is_some(), "the choice still waits");
}

/// R210 (L1515): dice of a single colour leave nothing to pick: the Long
/// Sword's 2 red dice, BLINDED, roll 1 red die at once.
#[test]
fn r210_a_single_colour_roll_needs_no_pick() {
    let mut s = duel(&["red_prince"], "darkhans_lackey", 28);
    s.origins[0].track.apply_status(St::Blinded, 2);
    ok(&mut s, 0, A::StartTurn);
    let a = sword_at_the_lackey(&s);
    let ev = ok(&mut s, 0, a);
    assert!(!ev.iter().any(|e| matches!(e, Ev::OwnDiceToReduce { .. })), "{ev:?}");
    assert!(s.roll_reduction().is_none());
    assert_eq!(rolled_colours(&ev, 0), vec![Colour::Red]);
    assert_eq!(s.pending_roll().expect("the roll waits for rerolls").roll.dice.len(), 1);
}
