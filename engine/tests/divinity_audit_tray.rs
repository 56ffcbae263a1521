//! Audit of the facts checklist R78–R148 (skills, health and damage,
//! statuses, immunities, UNDEAD, defeated enemies, downed Origins, items):
//! a test for each rule that no other test file checked, played through the
//! public API. Each test cites its rule and the rulebook line.

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{CardRef, Track, TrackCard};
use athlas_engine::divinity::damage::DamageType;
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{EnemyKind, Who};
use athlas_engine::divinity::status::Status as St;
use athlas_engine::divinity::{Divinity, DivinityState, Position};
use athlas_engine::{Ruleset, Seat};

use crate::divinity_support;
use divinity_support::*;

#[track_caller]
fn act(c: &Catalogue, s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    match Divinity::apply_with(c, s, seat, a.clone()) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} by seat {seat} was rejected: {}", e.message),
    }
}

#[track_caller]
fn ok(s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    act(cat(), s, seat, a)
}

/// Every die of the pending roll shows `hits` hits and no special.
fn set_all(s: &mut DivinityState, hits: u8) {
    let dice = s.pending_roll().expect("a roll is pending").roll.dice.clone();
    set_dice(s, dice.iter().map(|d| die(d.colour, hits, false)).collect());
}

/// Let every enemy roll stand and break ties and routes for the lowest choice.
fn pass(c: &Catalogue, s: &mut DivinityState) -> Vec<Ev> {
    let mut ev = Vec::new();
    loop {
        if let Some(t) = s.tie().cloned() {
            let Who::Origin(o) = t.options[0] else { unreachable!("ties are between Origins here") };
            ev.extend(act(c, s, 0, A::BreakTie { target: Aim::Origin(o) }));
        } else if s.route().is_some() {
            ev.extend(act(c, s, 0, A::ChooseRoute { route: 0 }));
        } else if s.enemy_roll().is_some() {
            let seat = waiting(s)[0];
            ev.extend(act(c, s, seat, A::Accept));
        } else {
            return ev;
        }
    }
}

#[track_caller]
fn end_turn(s: &mut DivinityState, seat: Seat) -> Vec<Ev> {
    let mut ev = ok(s, seat, A::EndTurn);
    ev.extend(pass(cat(), s));
    ev
}

fn use_card(card: CardUse, aim: Aim) -> A {
    A::Use { card, aim, first_aura: None, include_self: None }
}

fn skill(id: &str, aim: Aim) -> A {
    use_card(CardUse::Skill(id.into()), aim)
}

/// Tutorial: the party travels to the Galley (#2) and reveals card 2 (a
/// Darkhan's Lackey) on the table's options; then one minion of our choosing
/// stands in the Galley with every Origin, none of them downed, 20 HP each.
fn duel_at(party: &[&str], minion: &str, hp: u32) -> Position {
    Position::combat("tutorial", party)
        .reveal("2")
        .table_options()
        .each_origin(|o| o.hp(20).space("2").standing())
        .minion(minion, |e| e.hp(hp).space("2"))
}

/// [`duel_at`] on catalogue `c`.
fn duel_in(c: &Catalogue, party: &[&str], minion: &str, hp: u32) -> DivinityState {
    duel_at(party, minion, hp).build_with(c, 7).expect("position")
}

fn duel(party: &[&str], minion: &str, hp: u32) -> DivinityState {
    duel_in(cat(), party, minion, hp)
}

/// A second enemy like the first, `hp` HP, in the same space.
fn add_enemy(s: &mut DivinityState, hp: u32) -> u32 {
    let mut other = s.enemies[0].clone();
    other.id = s.next_enemy;
    other.letter = Some('B');
    other.hp = hp;
    s.next_enemy += 1;
    let id = other.id;
    s.enemies.push(other);
    id
}

fn skill_card(id: &str) -> CardRef {
    CardRef::Skill(id.into())
}

// ---- 1.14 Skills ----

/// R81 (L784, L873): a played skill with the ongoing icon goes face up on the
/// slot its card shows, and is active there; one without it goes face down.
#[test]
fn r81_played_ongoing_skill_is_face_up() {
    let mut s = duel(&["vali"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 8;
    let aura = &cat().skills["frost_aura"];
    ok(&mut s, 0, skill("frost_aura", Aim::Origin(0)));
    let t = &s.origins[0].track;
    assert_eq!(t.find(&skill_card("frost_aura")), Some(aura.cooldown));
    assert!(t.active().any(|c| c == &skill_card("frost_aura")), "face up and active");
    assert!(!s.origins[0].hand.contains(&"frost_aura".to_string()));
    // A skill without the ongoing icon: face down on its slot.
    let id = s.enemies[0].id;
    ok(&mut s, 0, skill("ice_fan", Aim::Enemy(id)));
    set_all(&mut s, 0);
    ok(&mut s, 0, A::Accept);
    let t = &s.origins[0].track;
    assert_eq!(t.find(&skill_card("ice_fan")), Some(cat().skills["ice_fan"].cooldown));
    assert!(!t.active().any(|c| c == &skill_card("ice_fan")), "face down");
}

/// R82 (L786): a skill with no cooldown comes back to hand at once and may be
/// played again in the same turn with the AP for it.
#[test]
fn r82_no_cooldown_skill_is_played_twice_in_a_turn() {
    let mut c = cat().clone();
    c.skills.get_mut("searing_daggers").unwrap().cooldown = 0;
    let mut s = duel_in(&c, &["ifan"], "darkhans_lackey", 28);
    act(&c, &mut s, 0, A::StartTurn);
    assert_eq!(s.origins[0].ap, 4);
    let id = s.enemies[0].id;
    for _ in 0..2 {
        act(&c, &mut s, 0, skill("searing_daggers", Aim::Enemy(id)));
        set_all(&mut s, 0);
        act(&c, &mut s, 0, A::Accept);
        assert!(s.origins[0].hand.contains(&"searing_daggers".to_string()), "back in hand at once");
        assert_eq!(s.origins[0].track.find(&skill_card("searing_daggers")), None);
    }
    assert_eq!(s.origins[0].ap, 0, "2 AP each time");
    rejected_with(&c, &mut s, 0, skill("searing_daggers", Aim::Enemy(id)), "not_enough_ap");
}

/// R83 (L790), R137 (L986): Ricochet needs the BOW keyword, which Ifan has
/// while his Short Bow is equipped; stored in the backpack it gives nothing.
#[test]
fn r83_r137_skill_needs_an_equipped_keyword() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    assert!(s.keywords(cat(), 0).contains("BOW"), "the equipped bow's keyword counts");
    let mut stored = s.clone();
    stored.origins[0].equipped.retain(|i| i != "short_bow");
    stored.origins[0].backpack.push("short_bow".into());
    assert!(!stored.keywords(cat(), 0).contains("BOW"));
    let id = s.enemies[0].id;
    ok(&mut stored, 0, A::StartTurn);
    rejected(&mut stored, 0, skill("ricochet", Aim::Enemy(id)), "needs_keyword");
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, skill("ricochet", Aim::Enemy(id)));
    assert!(s.origins[0].equipped.contains(&"short_bow".to_string()), "the bow is not spent for its keyword");
}

/// R84 (L796): a skill played for its keyword meets the condition and nothing
/// else: Phoenix Dive does not move Ifan; it goes face down on slot 3 (L798).
#[test]
fn r84_keyword_play_resolves_no_other_effect() {
    let mut s = start("tutorial", &["ifan"]);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    let here = s.origins[0].space;
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    let auto = ("TELEPORTATION".to_string(), KeywordFrom::Skill("phoenix_dive".into()));
    ok(&mut s, 0, A::Challenge { auto: Some(auto), keywords: vec![] });
    ok(&mut s, 0, A::ChooseResult { row: 2 });
    assert_eq!(s.origins[0].space, here, "the skill's move did not happen");
    assert_eq!(s.origins[0].track.find(&skill_card("phoenix_dive")), Some(3));
    assert!(!s.keywords(cat(), 0).contains("TELEPORTATION"), "the keyword was only for that challenge (L1206)");
}

/// R85 (L864), R135 (L968): a skill attacking with a weapon still obeys the
/// weapon's per-round limit: Flurry (2 attacks) makes 1 with a once-per-round
/// dagger, and the dagger can't then attack again this round.
#[test]
fn r85_r135_weapon_limits_hold_for_skills() {
    let mut c = cat().clone();
    c.items.get_mut("rusty_dagger").unwrap().action.as_mut().unwrap().per_round = Some(1);
    let mut s = duel_in(&c, &["sebille"], "fire_slug", 20);
    act(&c, &mut s, 0, A::StartTurn);
    s.origins[0].ap = 8;
    let id = s.enemies[0].id;
    act(&c, &mut s, 0, skill("flurry", Aim::Enemy(id)));
    set_all(&mut s, 0);
    act(&c, &mut s, 0, A::Accept);
    assert!(s.pending_roll().is_none(), "one roll, not two");
    assert_eq!(s.origins[0].ap, 6, "the skill's AP only");
    let dagger = use_card(CardUse::Item("rusty_dagger".into()), Aim::Enemy(id));
    rejected_with(&c, &mut s, 0, dagger, "once_per_round");
}

// ---- 1.15 Health and damage ----

/// R91 (L591, L739, L743): damage takes HP down to 0 and no further; at 0 an
/// Origin is downed at once and an enemy defeated at once.
#[test]
fn r91_zero_hp_downs_or_defeats_at_once() {
    let mut s = built(duel_at(&["ifan"], "darkhans_lackey", 28).origin(0, |o| o.hp(5)));
    let mut ev = Vec::new();
    s.damage(cat(), Who::Origin(0), 3, DamageType::Direct, &mut ev);
    assert_eq!((s.origins[0].hp, s.origins[0].downed), (2, false));
    s.damage(cat(), Who::Origin(0), 99, DamageType::Direct, &mut ev);
    assert_eq!((s.origins[0].hp, s.origins[0].downed), (0, true));
    assert!(ev.contains(&Ev::Downed { seat: 0 }));
    let id = s.enemies[0].id;
    s.damage(cat(), Who::Enemy(id), 99, DamageType::Direct, &mut ev);
    assert!(ev.contains(&Ev::Defeated { enemy: id }));
    assert!(s.enemy(id).is_none());
}

// ---- 1.16 Statuses ----

/// R100 (L664, L1482): statuses land after damage: Infect's EXPOSED (−2
/// magical armor) does not lower the armor its own hit meets.
#[test]
fn r100_statuses_after_damage() {
    let mut s = duel(&["ifan"], "bandit_hydrosophist", 16);
    s.origins[0].hand.push("infect".into());
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, skill("infect", Aim::Enemy(id)));
    set_all(&mut s, 1);
    let ev = ok(&mut s, 0, A::Accept);
    assert_eq!(s.enemy(id).unwrap().hp, 15, "3 poison − 2 magical armor, EXPOSED not yet on");
    assert!(s.enemy(id).unwrap().track.has(St::Exposed));
    let hurt = ev.iter().position(|e| matches!(e, Ev::Damaged { who: Who::Enemy(_), .. })).unwrap();
    let status = ev.iter().position(|e| matches!(e, Ev::StatusGained { status: St::Exposed, .. })).unwrap();
    assert!(hurt < status, "{ev:?}");
}

/// R103 (L664): statuses work on Explore turns too: POISONED hurts at the
/// start of Ifan's Explore turn and slides at its end.
#[test]
fn r103_statuses_work_on_explore_turns() {
    let mut s = built(table("tutorial", &["ifan"]).origin(0, |o| o.hp(20).status(St::Poisoned, 3)));
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    assert_eq!(s.origins[0].hp, 18, "2 poison at the start of the turn");
    assert_eq!(s.origins[0].track.status_slot(St::Poisoned), Some(2));
}

/// R105 (L682): start-of-turn effects come first: BURNING burns Ifan before
/// his AP, and burns a minion before it targets anyone.
#[test]
fn r105_start_of_turn_effects_come_first() {
    let p = duel_at(&["ifan"], "darkhans_lackey", 28).rerolls(false);
    let mut s = built(p.origin(0, |o| o.status(St::Burning, 2)));
    let ev = ok(&mut s, 0, A::StartTurn);
    let burn = ev.iter().position(|e| matches!(e, Ev::Damaged { who: Who::Origin(0), amount: 2, .. }));
    let started = ev.iter().position(|e| matches!(e, Ev::TurnStarted { .. }));
    assert!(burn.is_some() && burn < started, "{ev:?}");
    assert_eq!(s.origins[0].hp, 18);
    let id = s.enemies[0].id;
    s.enemies[0].track.apply_status(St::Burning, 2);
    let ev = end_turn(&mut s, 0);
    let burn = ev.iter().position(|e| matches!(e, Ev::Damaged { who: Who::Enemy(e), amount: 2, .. } if *e == id));
    let targeted = ev.iter().position(|e| matches!(e, Ev::Targeted { .. }));
    assert!(burn.is_some() && burn < targeted, "{ev:?}");
    assert_eq!(s.enemy(id).unwrap().hp, 26);
}

/// R107 (L668): a status gained in combat carries on after the combat ends.
#[test]
fn r107_statuses_outlast_the_combat() {
    let mut s = built(duel_at(&["ifan"], "darkhans_lackey", 1).origin(0, |o| o.status(St::Poisoned, 5)));
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(id)));
    set_all(&mut s, 2);
    let ev = ok(&mut s, 0, A::Accept);
    assert!(ev.contains(&Ev::CombatEnded { victory: true }));
    assert!(s.origins[0].track.has(St::Poisoned), "still POISONED after the combat");
}

// ---- 1.17 Immunities and immovable ----

/// R110 (L708): an immovable minion can't be prevented from moving: a FROZEN
/// Marsh Troll still walks to Ifan, where a FROZEN Lackey stays put (D05).
#[test]
fn r110_immovable_minion_moves_while_frozen() {
    let walk = |minion: &str| {
        let p = duel_at(&["ifan"], minion, 20).rerolls(false);
        let mut s = built(p.enemy_at(0, |e| e.space("1").status(St::Frozen, 2)));
        ok(&mut s, 0, A::StartTurn);
        end_turn(&mut s, 0);
        s.enemies[0].space == ix(&s, "2")
    };
    assert!(walk("marsh_troll"), "immovable: FROZEN does not stop it");
    assert!(!walk("darkhans_lackey"), "FROZEN stops an ordinary minion");
}

/// R111 (L1829): every Boss is immovable (no Taunt, no Teleportation) and
/// takes no damage of a type its booklet page makes it immune to.
#[test]
fn r111_bosses_are_immovable_and_immune() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Boss { boss: "the_warden".into() };
    e.hp = 40;
    e.max_hp = 40;
    e.tactics = vec!["w_strike".into()];
    e.track = Track::new(5);
    let id = e.id;
    s.enemies[0].space = ix(&s, "1");
    assert!(s.immovable(cat(), Who::Enemy(id)));
    s.origins[0].hand.push("teleportation".into());
    ok(&mut s, 0, A::StartTurn);
    rejected(&mut s, 0, A::Taunt { enemy: id }, "immovable");
    rejected(&mut s, 0, skill("teleportation", Aim::Enemy(id)), "immovable");
    assert!(cat().bosses["the_warden"].immune.contains(&DamageType::Poison));
    s.damage(cat(), Who::Enemy(id), 6, DamageType::Poison, &mut Vec::new());
    assert_eq!(s.enemy(id).unwrap().hp, 40, "immune to poison");
    s.damage(cat(), Who::Enemy(id), 6, DamageType::Direct, &mut Vec::new());
    assert_eq!(s.enemy(id).unwrap().hp, 34);
}

// ---- 1.18 UNDEAD ----

/// R113, R114 (L721-723): Fane (UNDEAD) heals the full amount of poison aimed
/// at him, armor ignored: his own single-target poison attack on himself, and
/// an ally's poison attack.
#[test]
fn r114_undead_origin_healed_by_poison_attacks() {
    let mut s = built(duel_at(&["fane", "sebille"], "darkhans_lackey", 28).origin(0, |o| o.hp(10)));
    assert!(cat().origins["fane"].defence().undead);
    let mut ally = s.clone();
    ok(&mut s, 0, A::StartTurn);
    let star = |id: &str| u32::from(cat().skills[id].attack.as_ref().unwrap().level_bonus);
    ok(&mut s, 0, skill("decaying_touch", Aim::Origin(0)));
    set_all(&mut s, 1);
    ok(&mut s, 0, A::Accept);
    assert_eq!(s.origins[0].hp, 10 + 3 + star("decaying_touch"), "3 poison (+★) heals, his magical armor ignored");
    ok(&mut ally, 1, A::StartTurn);
    ok(&mut ally, 1, skill("poison_dart", Aim::Origin(0)));
    set_all(&mut ally, 1);
    ok(&mut ally, 1, A::Accept);
    assert_eq!(ally.origins[0].hp, 10 + 4 + star("poison_dart"), "Sebille's 4 poison (+★) heals him");
}

/// R115 (L725): an UNDEAD Origin is revived normally and heals normally from
/// Rest's Recover.
#[test]
fn r115_undead_origin_revives_and_rests_normally() {
    let mut s = built(table("tutorial", &["fane", "ifan"]).origin(0, |o| o.downed()));
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 1, A::Revive { to: 0, hp: 3 });
    assert_eq!((s.origins[0].hp, s.origins[0].downed), (3, false));
    ok(&mut s, 1, A::EndTurn);
    // Revived before his Rest turn, Fane takes a normal one (L757).
    ok(&mut s, 0, A::Recover { status: None });
    assert_eq!(s.origins[0].hp, 5, "Recover heals an UNDEAD Origin 2");
}

// ---- 1.19 Defeated enemies ----

/// R116 (L739): a defeated minion leaves the map and the initiative track;
/// the combat goes on while another enemy stands.
#[test]
fn r116_defeated_minion_leaves_map_and_initiative() {
    let mut s = duel(&["ifan"], "darkhans_lackey", 28);
    let weak = add_enemy(&mut s, 1);
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(weak)));
    set_all(&mut s, 2);
    let ev = ok(&mut s, 0, A::Accept);
    assert!(ev.contains(&Ev::Defeated { enemy: weak }));
    assert!(s.enemy(weak).is_none());
    assert_eq!(s.enemies.len(), 1);
    assert!(s.in_combat() && !ev.iter().any(|e| matches!(e, Ev::CombatEnded { .. })));
    let ev = end_turn(&mut s, 0);
    assert!(!ev.iter().any(|e| matches!(e, Ev::Targeted { enemy, .. } if *enemy == weak)), "it takes no turn");
}

// ---- 1.20 Downed Origins and reviving ----

/// R118 (L743): a downed Origin keeps its items, summon and every card on its
/// track.
#[test]
fn r118_downed_origin_keeps_everything() {
    let mut s = duel(&["farzanah"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 8;
    s.origins[0].backpack.push("healing_potion".into());
    ok(&mut s, 0, skill("conjure_incarnate", Aim::Origin(0)));
    s.origins[0].track.apply_status(St::Bleeding, 2);
    let before = s.origins[0].clone();
    s.damage(cat(), Who::Origin(0), 99, DamageType::Direct, &mut Vec::new());
    let o = &s.origins[0];
    assert!(o.downed);
    assert_eq!(o.summon.as_deref(), Some("incarnate"));
    assert_eq!((&o.equipped, &o.backpack), (&before.equipped, &before.backpack));
    assert_eq!(o.track, before.track, "statuses and skills stay on the track");
}

/// R119 (L747-750), R144 (L747): a downed Origin takes no turn, trades
/// nothing, can't be healed and takes no damage.
#[test]
fn r119_downed_origin_does_nothing_and_takes_nothing() {
    let mut s = built(duel_at(&["ifan", "sebille"], "darkhans_lackey", 28).origin(1, |o| o.downed()));
    rejected(&mut s, 1, A::StartTurn, "downed");
    ok(&mut s, 0, A::StartTurn);
    let item = s.origins[0].equipped[0].clone();
    rejected(&mut s, 0, A::Give { item, to: 1, equip: false }, "bad_partner");
    let dagger = s.origins[1].equipped[0].clone();
    rejected(&mut s, 0, A::Take { item: dagger, from: 1, equip: false }, "bad_partner");
    s.heal(cat(), Who::Origin(1), 5, &mut Vec::new());
    s.damage(cat(), Who::Origin(1), 5, DamageType::Direct, &mut Vec::new());
    assert_eq!((s.origins[1].hp, s.origins[1].downed), (0, true));
}

/// R120 (L751-752), R123 (5): another Origin's items still reach a downed
/// Origin: a Resurrection Scroll revives it; a Curative Elixir removes its
/// POISONED (and heals nothing).
#[test]
fn r120_downed_origin_targeted_by_allies_items() {
    let p = duel_at(&["ifan", "sebille"], "darkhans_lackey", 28)
        .origin(1, |o| o.downed().status(St::Poisoned, 3))
        .origin(0, |o| o.backpack(&["resurrection_scroll", "curative_elixir"]));
    let mut s = built(p);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 8;
    let mut scroll = s.clone();
    ok(&mut s, 0, use_card(CardUse::Consumable("curative_elixir".into()), Aim::Origin(1)));
    if s.pending_roll().is_some() {
        set_all(&mut s, 1);
        ok(&mut s, 0, A::Accept);
    }
    assert!(!s.origins[1].track.has(St::Poisoned), "the status is removed");
    assert_eq!((s.origins[1].hp, s.origins[1].downed), (0, true), "healing does nothing (L761)");
    let ev = ok(&mut scroll, 0, use_card(CardUse::Consumable("resurrection_scroll".into()), Aim::Origin(1)));
    assert!(ev.contains(&Ev::Revived { seat: 1, hp: 5 }));
    assert_eq!((scroll.origins[1].hp, scroll.origins[1].downed), (5, false));
}

/// R121 (L753), R123 (1): Revive reaches a downed Origin in your space or an
/// adjacent one, not one 2 spaces away.
#[test]
fn r121_revive_from_an_adjacent_space() {
    let mut s = built(duel_at(&["ifan", "sebille"], "darkhans_lackey", 28).origin(1, |o| o.downed()));
    ok(&mut s, 0, A::StartTurn);
    s.origins[1].space = ix(&s, "3");
    rejected(&mut s, 0, A::Revive { to: 1, hp: 2 }, "too_far");
    s.origins[1].space = ix(&s, "1");
    ok(&mut s, 0, A::Revive { to: 1, hp: 2 });
    assert_eq!((s.origins[1].hp, s.origins[1].downed), (2, false));
}

/// R122 (L757): a downed Origin's Combat turn only gains AP and slides its
/// track; its Explore turn only slides.
#[test]
fn r122_downed_turns_gain_ap_and_slide() {
    let down = |s: &mut DivinityState| {
        let o = &mut s.origins[1];
        o.downed = true;
        o.hp = 0;
        o.ap = 0;
        o.hand.retain(|x| x != "tentacle_lash");
        o.track.place(TrackCard { card: skill_card("tentacle_lash"), face_up: false, flip_at: None }, 2);
    };
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    s.options.reroll_enemy_rolls = false;
    down(&mut s);
    ok(&mut s, 0, A::StartTurn);
    end_turn(&mut s, 0);
    assert_eq!(s.origins[1].ap, 4, "AP gained");
    assert_eq!(s.origins[1].track.find(&skill_card("tentacle_lash")), Some(1), "slid");
    assert!(s.origins[1].downed);

    let mut s = start("tutorial", &["ifan", "sebille"]);
    down(&mut s);
    ok(&mut s, 0, A::ChooseRound { explore: true });
    assert_eq!(s.origins[1].track.find(&skill_card("tentacle_lash")), Some(1), "slid");
    assert_eq!(s.origins[1].ap, 0, "no AP outside combat");
    assert_eq!(waiting(&s), vec![0], "no Explore turn to take");
}

/// R123 (2) (L766, L1754): after a victory every downed Origin is revived
/// with 1 HP.
#[test]
fn r123_victory_revives_with_1_hp() {
    let mut s = built(duel_at(&["ifan", "sebille"], "darkhans_lackey", 1).origin(1, |o| o.downed()));
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(id)));
    set_all(&mut s, 2);
    let ev = ok(&mut s, 0, A::Accept);
    assert!(ev.contains(&Ev::CombatEnded { victory: true }));
    assert!(ev.contains(&Ev::Revived { seat: 1, hp: 1 }));
    assert_eq!((s.origins[1].hp, s.origins[1].downed), (1, false));
}

/// R124 (L770): POISONED blocks healing, not reviving.
#[test]
fn r124_poisoned_does_not_block_reviving() {
    let p = duel_at(&["ifan", "sebille"], "darkhans_lackey", 28);
    let mut s = built(p.origin(1, |o| o.downed().status(St::Poisoned, 3)));
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, A::Revive { to: 1, hp: 4 });
    assert_eq!((s.origins[1].hp, s.origins[1].downed), (4, false));
    s.heal(cat(), Who::Origin(1), 3, &mut Vec::new());
    assert_eq!(s.origins[1].hp, 4, "still no healing while POISONED");
}

// ---- 1.21 Items ----

/// R126 (L919, L923), R148 (L1076): the backpack holds 3 items, a rune
/// counted; an equipment slot holds 1 item: a second helmet displaces the first.
#[test]
fn r126_backpack_of_three_and_one_item_per_slot() {
    let mut s =
        built(table("tutorial", &["ifan"]).origin(0, |o| o.backpack(&["iron_helmet", "mage_hood", "flame_rune"])));
    ok(&mut s, 0, A::ChooseRound { explore: false });
    rejected(&mut s, 0, A::Store { item: "leather_armor".into() }, "backpack_full");
    ok(&mut s, 0, A::Equip { item: "iron_helmet".into() });
    ok(&mut s, 0, A::Equip { item: "mage_hood".into() });
    let o = &s.origins[0];
    assert!(o.equipped.contains(&"mage_hood".to_string()) && !o.equipped.contains(&"iron_helmet".to_string()));
    assert!(o.backpack.contains(&"iron_helmet".to_string()));
}

/// R127 (L925-927): an equipped item gives its armor; stored, nothing.
#[test]
fn r127_stored_equipment_has_no_effect() {
    let mut s = start("tutorial", &["ifan"]);
    let worn = s.defence(cat(), Who::Origin(0)).physical_armor;
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Store { item: "leather_armor".into() });
    assert!(s.origins[0].backpack.contains(&"leather_armor".to_string()));
    assert_eq!(s.defence(cat(), Who::Origin(0)).physical_armor + 1, worn);
}

/// R128 (L948-950): two one-hand items, or one two-hands item that blocks the
/// other hand.
#[test]
fn r128_two_hands() {
    let mut s = built(table("tutorial", &["sebille"]).origin(0, |o| o.backpack(&["fire_staff"])));
    let daggers = |s: &DivinityState| s.origins[0].equipped.iter().filter(|i| *i == "rusty_dagger").count();
    assert_eq!(daggers(&s), 2, "two one-hand items");
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Equip { item: "fire_staff".into() });
    assert_eq!(daggers(&s), 0, "the two-hands staff takes both hands");
    assert_eq!(s.origins[0].backpack.len(), 2);
    ok(&mut s, 0, A::Equip { item: "rusty_dagger".into() });
    assert!(!s.origins[0].equipped.contains(&"fire_staff".to_string()), "a dagger displaces the staff");
    ok(&mut s, 0, A::Equip { item: "rusty_dagger".into() });
    assert_eq!(daggers(&s), 2);
}

/// R130 (L891), R134 (L895): one summon at a time; a new one discards the
/// old, whose skill stays on cooldown and no longer takes the new summon with
/// it when it flips.
#[test]
fn r130_r134_one_summon_at_a_time() {
    let mut s = built(duel_at(&["farzanah"], "darkhans_lackey", 28).rerolls(false));
    let turn = |s: &mut DivinityState| {
        s.enemies[0].hp = 28;
        s.origins[0].hp = 20;
        s.origins[0].downed = false;
        ok(s, 0, A::StartTurn);
        s.origins[0].ap = 8;
    };
    turn(&mut s);
    ok(&mut s, 0, skill("elemental_totem", Aim::Origin(0)));
    assert_eq!(s.origins[0].summon.as_deref(), Some("elemental_totem"));
    end_turn(&mut s, 0);
    turn(&mut s);
    ok(&mut s, 0, skill("conjure_incarnate", Aim::Origin(0)));
    assert_eq!(s.origins[0].summon.as_deref(), Some("incarnate"), "the totem is discarded");
    assert_eq!(s.origins[0].track.find(&skill_card("elemental_totem")), Some(3), "its skill stays on cooldown");
    end_turn(&mut s, 0);
    turn(&mut s);
    end_turn(&mut s, 0);
    assert_eq!(s.origins[0].track.find(&skill_card("elemental_totem")), Some(1), "flipped");
    assert_eq!(s.origins[0].summon.as_deref(), Some("incarnate"), "the Incarnate stays");
}

/// R131 (L893): a summon has no figure, HP or space of its own: it goes where
/// its Origin goes and an area attack on their space does not touch it.
#[test]
fn r131_summon_is_never_hit() {
    let mut s = duel(&["farzanah", "red_prince"], "darkhans_lackey", 28);
    ok(&mut s, 0, A::StartTurn);
    s.origins[0].ap = 8;
    ok(&mut s, 0, skill("conjure_incarnate", Aim::Origin(0)));
    ok(&mut s, 0, A::Move { to: "1".into() });
    assert_eq!(s.origins[0].summon.as_deref(), Some("incarnate"));
    ok(&mut s, 0, A::Move { to: "2".into() });
    end_turn(&mut s, 0);
    ok(&mut s, 1, A::StartTurn);
    ok(&mut s, 1, skill("battle_stomp", Aim::Space("2".into())));
    set_all(&mut s, 1);
    let ev = ok(&mut s, 1, A::Accept);
    let hit: Vec<Who> = ev
        .iter()
        .filter_map(|e| match e {
            Ev::Damaged { who, .. } => Some(*who),
            _ => None,
        })
        .collect();
    assert!(hit.contains(&Who::Origin(0)), "{ev:?}");
    assert!(hit.iter().all(|w| matches!(w, Who::Origin(_) | Who::Enemy(_))));
    assert_eq!(s.origins[0].summon.as_deref(), Some("incarnate"), "the summon is untouched");
}

/// R138 (L990-992): a consumable is used from the backpack for its AP and
/// then goes to the bottom of its deck; it can't be equipped.
#[test]
fn r138_consumable_used_from_backpack_to_deck_bottom() {
    let mut s = built(duel_at(&["ifan"], "darkhans_lackey", 28).origin(0, |o| o.backpack(&["healing_potion"]).hp(10)));
    ok(&mut s, 0, A::StartTurn);
    let deck = s.item_decks["potions"].len();
    rejected(&mut s, 0, A::Equip { item: "healing_potion".into() }, "not_equipment");
    ok(&mut s, 0, use_card(CardUse::Consumable("healing_potion".into()), Aim::Origin(0)));
    assert_eq!(s.origins[0].ap, 3);
    if s.pending_roll().is_some() {
        ok(&mut s, 0, A::Accept);
    }
    assert!(s.origins[0].backpack.is_empty());
    assert_eq!(s.item_decks["potions"].len(), deck + 1);
    assert_eq!(s.item_decks["potions"].last().map(String::as_str), Some("healing_potion"));
}

/// R139 (L999-1001): an ongoing consumable works while on the track and goes
/// to the bottom of its deck when it slides off.
#[test]
fn r139_ongoing_consumable_slides_off_to_its_deck() {
    let p = duel_at(&["ifan"], "darkhans_lackey", 28).rerolls(false);
    let mut s = built(p.origin(0, |o| o.backpack(&["physical_armor_potion"])));
    let bare = s.defence(cat(), Who::Origin(0)).physical_armor;
    ok(&mut s, 0, A::StartTurn);
    ok(&mut s, 0, use_card(CardUse::Consumable("physical_armor_potion".into()), Aim::Origin(0)));
    if s.pending_roll().is_some() {
        ok(&mut s, 0, A::Accept);
    }
    let card = CardRef::Consumable("physical_armor_potion".into());
    let deck = s.item_decks["potions"].len();
    for _ in 0..3 {
        assert_eq!(s.defence(cat(), Who::Origin(0)).physical_armor, bare + 2);
        assert_eq!(s.item_decks["potions"].len(), deck, "not in the deck while on the track");
        end_turn(&mut s, 0);
        s.origins[0].hp = 20;
        s.enemies[0].hp = 28;
        if s.origins[0].track.find(&card).is_some() {
            ok(&mut s, 0, A::StartTurn);
        }
    }
    assert_eq!(s.origins[0].track.find(&card), None);
    assert_eq!(s.defence(cat(), Who::Origin(0)).physical_armor, bare);
    assert_eq!(s.item_decks["potions"].len(), deck + 1);
    assert_eq!(s.item_decks["potions"].last().map(String::as_str), Some("physical_armor_potion"));
}

/// R140 (L1009-1013, G50.3): a consumable played for its keyword is discarded
/// at once, to the bottom of its deck, and never goes on the track.
#[test]
fn r140_consumable_keyword_discards_it_to_its_deck() {
    let mut s = built(table("tutorial", &["sebille"]).origin(0, |o| o.backpack(&["teleport_scroll"])));
    ok(&mut s, 0, A::ChooseRound { explore: true });
    ok(&mut s, 0, A::Travel { to: None });
    ok(&mut s, 0, A::Reveal);
    ok(&mut s, 0, A::Resolve { card: "1".into() });
    let deck = s.item_decks["scrolls"].len();
    let auto = ("TELEPORTATION".to_string(), KeywordFrom::Consumable("teleport_scroll".into()));
    ok(&mut s, 0, A::Challenge { auto: Some(auto), keywords: vec![] });
    ok(&mut s, 0, A::ChooseResult { row: 1 });
    assert!(s.origins[0].backpack.is_empty() && s.origins[0].track.is_empty());
    assert_eq!(s.item_decks["scrolls"].len(), deck + 1);
    assert_eq!(s.item_decks["scrolls"].last().map(String::as_str), Some("teleport_scroll"));
}

/// R143 (L1039): a combat reward may go to an Origin in any space.
#[test]
fn r143_combat_reward_reaches_any_space() {
    let mut s = built(
        duel_at(&["ifan", "sebille"], "darkhans_lackey", 1)
            .origin(0, |o| o.backpack(&["iron_helmet", "fire_grenade", "blessed_arrows"]))
            .origin(1, |o| o.space("3")),
    );
    ok(&mut s, 0, A::StartTurn);
    let id = s.enemies[0].id;
    ok(&mut s, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(id)));
    set_all(&mut s, 2);
    let ev = ok(&mut s, 0, A::Accept);
    assert!(ev.contains(&Ev::ItemGained { seat: Some(1), item: "healing_potion".into() }), "{ev:?}");
    assert!(s.origins[1].backpack.contains(&"healing_potion".to_string()));
}

/// R147 (L1060): a unique item can be traded and discarded like any other.
#[test]
fn r147_unique_items_trade_and_discard() {
    let mut s = built(table("tutorial", &["ifan", "sebille"]).origin(0, |o| o.backpack(&["windego_blade"])));
    ok(&mut s, 0, A::ChooseRound { explore: false });
    ok(&mut s, 0, A::Give { item: "windego_blade".into(), to: 1, equip: false });
    assert!(s.origins[1].backpack.contains(&"windego_blade".to_string()));
    let deck = s.item_decks["unique"].len();
    ok(&mut s, 1, A::Discard { item: "windego_blade".into() });
    assert_eq!(s.item_decks["unique"].len(), deck + 1);
    assert_eq!(s.item_decks["unique"].last().map(String::as_str), Some("windego_blade"));
}

/// R148 (L1066-1074): a rune goes only on an item in one of its two slots;
/// attaching it is done instead of an equip (1 AP in combat).
#[test]
fn r148_attaching_a_rune_costs_an_equip() {
    let mut s = built(duel_at(&["red_prince"], "darkhans_lackey", 28).origin(0, |o| o.backpack(&["flame_rune"])));
    ok(&mut s, 0, A::StartTurn);
    let ap = s.origins[0].ap;
    let chest = A::AttachRune { rune: "flame_rune".into(), item: "leather_armor".into() };
    rejected(&mut s, 0, chest, "rune_does_not_fit");
    ok(&mut s, 0, A::AttachRune { rune: "flame_rune".into(), item: "long_sword".into() });
    assert_eq!(s.origins[0].ap, ap - 1);
    assert!(s.origins[0].backpack.is_empty(), "out of the backpack");
    assert_eq!(s.origins[0].runes[0].item, "long_sword");
}

/// R147 (L1060, L1363): a unique item is sold for half its gold cost,
/// rounded up, and the Merchant never offers one.
#[test]
fn r147_unique_items_sell_for_half() {
    use athlas_engine::divinity::content::ConsumableDeck;
    use athlas_engine::divinity::state::Phase;
    let o = options("shipwreck", &["ifan"]);
    let mut s = (0..200u64)
        .find_map(|seed| {
            let mut s = Divinity::start(&o, seed).unwrap();
            ok(&mut s, 0, A::ChooseRound { explore: true });
            ok(&mut s, 0, A::Travel { to: Some("5".into()) });
            ok(&mut s, 0, A::Reveal);
            (s.revealed[0].card == "5b").then_some(s)
        })
        .expect("some seed reveals the optional exit 5b");
    s.gold = 5;
    ok(&mut s, 0, A::Resolve { card: "5b".into() });
    assert!(matches!(s.phase, Phase::Interlude(_)));
    ok(&mut s, 0, A::VisitMerchant { level: 1, consumables: Some(ConsumableDeck::Potions) });
    let Phase::Interlude(i) = &s.phase else { unreachable!() };
    assert!(i.offer.iter().all(|x| !cat().items[x].unique), "never sold by the Merchant");
    let gold = s.gold;
    s.origins[0].backpack.push("braccus_crown".into());
    let cost = cat().items["braccus_crown"].cost.expect("a gold cost");
    ok(&mut s, 0, A::Sell { item: "braccus_crown".into() });
    assert_eq!(s.gold, gold + cost.div_ceil(2));
    assert!(!s.origins[0].backpack.contains(&"braccus_crown".to_string()));
}

/// R117 (L739): the last enemy falling on its own turn (to its BURNING) ends
/// the combat at once in victory.
#[test]
fn r117_last_enemy_burning_to_death_ends_the_combat() {
    let mut s = built(duel_at(&["ifan"], "darkhans_lackey", 1).enemy_at(0, |e| e.status(St::Burning, 2)));
    ok(&mut s, 0, A::StartTurn);
    let hp = s.origins[0].hp;
    let ev = end_turn(&mut s, 0);
    assert!(ev.contains(&Ev::CombatEnded { victory: true }), "{ev:?}");
    assert!(s.enemies.is_empty() && !s.in_combat());
    assert_eq!(s.origins[0].hp, hp, "it never attacked");
}

/// R91, R92 (L592): healing is capped at max HP, and never lowers HP, not even
/// for a figure standing above its max (a max-HP bonus that went away).
#[test]
fn r92_healing_above_max_changes_nothing() {
    let mut s = start("shipwreck", &["ifan", "sebille"]);
    let max = s.origins[0].hp;
    s.origins[0].hp = max + 3;
    let mut ev = Vec::new();
    s.heal(cat(), Who::Origin(0), 2, &mut ev);
    assert_eq!(s.origins[0].hp, max + 3, "healing leaves HP above max as it was");
    assert!(ev.is_empty(), "no Healed event when nothing was healed: {ev:?}");
    s.origins[0].hp = max - 1;
    s.heal(cat(), Who::Origin(0), 5, &mut ev);
    assert_eq!(s.origins[0].hp, max, "capped at max");
}

/// R144 (L1052): an item given or taken in combat may be equipped at once at
/// no AP beyond the trade's 1; what it displaces is stored. Without `equip`
/// it is stored, and equipping it later costs another AP (L941).
#[test]
fn r144_a_received_item_is_equipped_at_once_for_free() {
    let mut s = duel(&["ifan", "sebille"], "darkhans_lackey", 28);
    let seat = waiting(&s)[0];
    let other = 1 - seat;
    ok(&mut s, seat, A::StartTurn);
    s.origins[seat as usize].ap = 5;
    s.origins[seat as usize].backpack = vec!["iron_helmet".into(), "leather_cap".into(), "healing_potion".into()];
    s.origins[other as usize].equipped.retain(|i| i != "iron_helmet" && i != "leather_cap");
    s.origins[other as usize].backpack.clear();

    // Give and equip: 1 AP in all, the helmet on the receiver's head.
    ok(&mut s, seat, A::Give { item: "iron_helmet".into(), to: other, equip: true });
    assert_eq!(s.origins[seat as usize].ap, 4);
    assert!(s.origins[other as usize].equipped.contains(&"iron_helmet".to_string()));
    assert!(s.origins[other as usize].backpack.is_empty());

    // A second helmet equipped at once displaces the first into the backpack.
    ok(&mut s, seat, A::Give { item: "leather_cap".into(), to: other, equip: true });
    assert_eq!(s.origins[seat as usize].ap, 3);
    assert!(s.origins[other as usize].equipped.contains(&"leather_cap".to_string()));
    assert_eq!(s.origins[other as usize].backpack, vec!["iron_helmet".to_string()]);

    // A consumable can't be equipped: refused, nothing moved, no AP spent.
    rejected(&mut s, seat, A::Give { item: "healing_potion".into(), to: other, equip: true }, "not_equipment");

    // Take and equip: the taker wears it for the trade's 1 AP.
    ok(&mut s, seat, A::Take { item: "iron_helmet".into(), from: other, equip: true });
    assert_eq!(s.origins[seat as usize].ap, 2);
    assert!(s.origins[seat as usize].equipped.contains(&"iron_helmet".to_string()));

    // Without `equip` the item is stored and equipping it costs 1 AP more.
    ok(&mut s, seat, A::Give { item: "iron_helmet".into(), to: other, equip: false });
    assert!(s.origins[other as usize].backpack.contains(&"iron_helmet".to_string()));
    assert_eq!(s.origins[seat as usize].ap, 1);
}
