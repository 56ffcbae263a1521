//! The worked examples of §3 of `../shared/facts/clans-facts.md`, E1–E23,
//! each reproduced with its numbers (the cards are ours, ASSUMPTIONS.md:
//! each test names the stats it relies on).

use crate::clans_support::*;
use athlas_engine::clans::content::{StatusKind, TerrainEffect};
use athlas_engine::clans::grid::{Pos, Terrain};
use athlas_engine::clans::state::Phase;
use athlas_engine::clans::ClansRefusal;
use athlas_engine::clans::{ClansAction as A, ClansOptions};
use athlas_engine::{Outcome, Ruleset};

/// Seat 0 to play, the field flat and empty but for the far Gods.
fn scene() -> athlas_engine::clans::ClansState {
    let mut s = game();
    clear_middle(&mut s);
    s.players[1].sp = 0; // no (OT) window in these scenes unless wanted
    s
}

/// E1 (L97): Cross Squire (Range 1, ATK 2) attacks Blood Page (Range 1, ATK 2, HP 6).
#[test]
fn e1_attack_then_counter_then_the_turn_is_over() {
    let mut s = scene();
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_squire", Pos(5, 7));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!((hp(&s, b), hp(&s, a)), (4, 4));
    assert!(fig(&s, a).done && fig(&s, a).acted);
    refused(&mut s, 0, A::Move { figure: a, to: Pos(5, 9) }, ClansRefusal::AllyDone);
}

/// E2 (L97): the target dies: no counter, the attacker's player gains its EXP.
#[test]
fn e2_a_destroyed_target_does_not_counter_and_gives_exp() {
    let mut s = scene();
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_squire", Pos(5, 7));
    fig_mut(&mut s, b).hp = 2;
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert!(s.figure(b).is_none());
    assert_eq!(hp(&s, a), 6);
    assert_eq!(s.players[0].exp, 2, "Blood Page's EXP value is 2");
}

/// E3 (L97): Chapel Archer (Range 3) hits a Range-1 enemy 2 steps away: no counter.
#[test]
fn e3_out_of_the_enemys_range_no_counter() {
    let mut s = scene();
    let a = put(&mut s, 0, "sc_archer", Pos(5, 9));
    let b = put(&mut s, 1, "cn_squire", Pos(5, 7));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!((hp(&s, b), hp(&s, a)), (4, 5));
}

/// E4 (L101): the target (Shade Assassin, Initiative, ATK 3) strikes first.
#[test]
fn e4_initiative_of_the_target_strikes_first() {
    let mut s = scene();
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_stealth", Pos(5, 7));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!((hp(&s, a), hp(&s, b)), (3, 3));
    // A attacker at 3 HP dies first and never strikes.
    let mut s = scene();
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_stealth", Pos(5, 7));
    fig_mut(&mut s, a).hp = 3;
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert!(s.figure(a).is_none());
    assert_eq!(hp(&s, b), 5);
    assert_eq!(s.players[1].exp, 2, "the defender's player earns the EXP (Q6)");
}

/// E5 (L101): both have Initiative: the starter strikes first.
#[test]
fn e5_both_with_initiative_the_starter_strikes_first() {
    let mut s = scene();
    let a = put(&mut s, 0, "sc_stealth", Pos(5, 8));
    let b = put(&mut s, 1, "cn_stealth", Pos(5, 7));
    fig_mut(&mut s, a).hp = 3;
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    // A hits first (B 5 → 2), B answers (A 3 → 0).
    assert_eq!(hp(&s, b), 2);
    assert!(s.figure(a).is_none());
}

/// E6 (L103): Chapel Archer (Range 3) attacks Night Warden (any-range counter, ATK 2) 3 steps away.
#[test]
fn e6_any_range_counter_hits_back_from_three_steps() {
    let mut s = scene();
    let a = put(&mut s, 0, "sc_archer", Pos(5, 10));
    let b = put(&mut s, 1, "cn_guard", Pos(5, 7));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!((hp(&s, b), hp(&s, a)), (8, 3));
}

/// E7 (L103): the any-range counter does nothing when its bearer attacks:
/// Temple Guard (Range 1) still reaches only 1 step, and its target answers
/// by the ordinary rules.
#[test]
fn e7_any_range_counter_is_no_help_in_attack() {
    let mut s = scene();
    let g = put(&mut s, 0, "sc_guard", Pos(5, 9));
    let b = put(&mut s, 1, "cn_squire", Pos(5, 7));
    refused(&mut s, 0, A::Attack { figure: g, target: b }, ClansRefusal::OutOfRange);
    fig_mut(&mut s, b).pos = Pos(5, 8);
    ok(&mut s, 0, A::Attack { figure: g, target: b });
    assert_eq!((hp(&s, b), hp(&s, g)), (4, 8));
}

/// E8 (L107): Veiled Sister's Shatter (ATK 3, BREAK) on Night Warden (HP 10, SPD 1→1) and a Blood Page (SPD 2).
#[test]
fn e8_break_adds_one_caps_speed_and_ticks_every_turn() {
    let mut s = scene();
    let a = put(&mut s, 0, "sc_stealth", Pos(5, 8));
    let b = put(&mut s, 1, "cn_squire", Pos(5, 7));
    fig_mut(&mut s, b).hp = 6;
    ok(&mut s, 0, A::Ability { figure: a, ability: 1, target: b });
    assert_eq!(hp(&s, b), 2, "3 + 1 = 4 damage");
    assert!(fig(&s, b).status(StatusKind::Break));
    assert_eq!(hp(&s, a), 5, "an ability draws no counter (C9)");
    assert_eq!(s.players[0].sp, 2, "Shatter costs 2 SP");
    fig_mut(&mut s, b).hp = 6;
    turn_to(&mut s, 1);
    assert_eq!(hp(&s, b), 5, "1 at the start of the opponent's turn");
    let v = athlas_engine::clans::Clans::view(&s, athlas_engine::Viewer::Spectator);
    assert_eq!(v.figures.iter().find(|f| f.id == b).unwrap().spd, 1, "max SPD 1");
    ok(&mut s, 1, A::EndTurn);
    pass_all(&mut s);
    assert_eq!(hp(&s, b), 4, "and at the start of every player's turn (C11)");
}

/// E9 (L107): Shade Assassin's Venom Strike (ATK 3, POISON) on Temple Guard (HP 10).
#[test]
fn e9_poison_adds_two_and_ticks_two() {
    let mut s = scene();
    turn_to(&mut s, 1);
    s.players[0].sp = 0;
    s.players[1].sp = 4;
    let a = put(&mut s, 1, "cn_stealth", Pos(5, 7));
    let b = put(&mut s, 0, "sc_guard", Pos(5, 8));
    ok(&mut s, 1, A::Ability { figure: a, ability: 1, target: b });
    assert_eq!(hp(&s, b), 5, "3 + 2 = 5 damage");
    ok(&mut s, 1, A::EndTurn);
    pass_all(&mut s);
    assert_eq!(hp(&s, b), 3, "2 at the start of the next turn");
}

/// E10 (L83): a POISON strike on the enemy God: ATK only, no status.
#[test]
fn e10_gods_are_immune_to_status() {
    let mut s = scene();
    turn_to(&mut s, 1);
    s.players[0].sp = 0;
    s.players[1].sp = 4;
    let a = put(&mut s, 1, "cn_stealth", Pos(5, 7));
    let god = s.players[0].god;
    fig_mut(&mut s, god).pos = Pos(5, 8);
    ok(&mut s, 1, A::Ability { figure: a, ability: 1, target: god });
    assert_eq!(hp(&s, god), 27);
    assert!(fig(&s, god).statuses.is_empty());
}

fn destinations(s: &athlas_engine::clans::ClansState, id: u32) -> Vec<Pos> {
    athlas_engine::clans::Clans::legal(s, s.active)
        .into_iter()
        .filter_map(|a| match a {
            A::Move { figure, to } if figure == id => Some(to),
            _ => None,
        })
        .collect()
}

/// E11 (L130): SPD 2 on ground, forest ahead: entering it uses both steps.
#[test]
fn e11_entering_a_forest_costs_the_second_step() {
    let mut s = scene();
    for x in 3..=7 {
        set_tile(&mut s, Pos(x, 8), Terrain::Forest);
    }
    let a = put(&mut s, 0, "sc_squire", Pos(5, 9));
    assert!(!destinations(&s, a).contains(&Pos(5, 7)), "through a forest is 3 steps");
    ok(&mut s, 0, A::Move { figure: a, to: Pos(5, 8) });
    assert!(destinations(&s, a).is_empty(), "no step left after landing on the forest");
}

/// E12 (L130): SPD 1 may still step onto a forest.
#[test]
fn e12_one_spd_still_enters_a_forest() {
    let mut s = scene();
    set_tile(&mut s, Pos(5, 8), Terrain::Forest);
    let g = put(&mut s, 0, "sc_guard", Pos(5, 9));
    ok(&mut s, 0, A::Move { figure: g, to: Pos(5, 8) });
}

/// E13 (L53): with the mountains effect, SPD 3 stops on a mountain, may
/// leave next turn, and has +1 ATK there.
#[test]
fn e13_a_mountain_ends_the_move_and_gives_one_attack() {
    let mut s = scene();
    set_tile(&mut s, Pos(5, 8), Terrain::Mountain);
    let a = put(&mut s, 0, "sc_stealth", Pos(5, 9));
    assert!(!destinations(&s, a).contains(&Pos(5, 8)), "impassable without the effect (L67)");
    s.players[0].terrain.push(TerrainEffect::ClimbMountains);
    ok(&mut s, 0, A::Move { figure: a, to: Pos(5, 8) });
    assert!(destinations(&s, a).is_empty());
    turn_to(&mut s, 1);
    turn_to(&mut s, 0);
    assert!(destinations(&s, a).contains(&Pos(5, 6)), "it may leave on the next turn");
    let b = put(&mut s, 1, "cn_guard", Pos(5, 7));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!(hp(&s, b), 6, "ATK 3 + 1 on the mountain");
}

/// E14 (L69, L145): water on two sides, a diagonal gap: move and attack through it.
#[test]
fn e14_diagonal_gaps_are_paths() {
    let mut s = scene();
    set_tile(&mut s, Pos(6, 9), Terrain::Water);
    set_tile(&mut s, Pos(5, 8), Terrain::Water);
    let a = put(&mut s, 0, "sc_squire", Pos(5, 9));
    assert!(destinations(&s, a).contains(&Pos(6, 8)));
    let b = put(&mut s, 1, "cn_squire", Pos(6, 8));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!(hp(&s, b), 4);
}

/// E15 (L69): through a friend to the empty tile beyond, never through an enemy.
#[test]
fn e15_through_allies_not_through_enemies() {
    let mut s = scene();
    set_tile(&mut s, Pos(4, 8), Terrain::Water);
    set_tile(&mut s, Pos(6, 8), Terrain::Water);
    let a = put(&mut s, 0, "sc_squire", Pos(5, 9));
    let f = put(&mut s, 0, "sc_guard", Pos(5, 8));
    assert!(destinations(&s, a).contains(&Pos(5, 7)));
    assert!(!destinations(&s, a).contains(&Pos(5, 8)), "a move ends on an empty tile");
    s.figures.retain(|x| x.id != f);
    put(&mut s, 1, "cn_guard", Pos(5, 8));
    assert!(!destinations(&s, a).contains(&Pos(5, 7)));
    refused(&mut s, 0, A::Move { figure: a, to: Pos(5, 7) }, ClansRefusal::Unreachable);
}

/// E16 (L29, L142): one assimilation per turn; an equipped piece never.
#[test]
fn e16_one_assimilation_per_turn_never_an_equipped_piece() {
    let mut s = scene();
    let god = s.players[0].god;
    fig_mut(&mut s, god).hp = 20;
    ok(&mut s, 0, A::Equip { card: "sc_shield".into(), figure: god });
    refused(&mut s, 0, A::Assimilate { card: "sc_shield".into() }, ClansRefusal::NotInStack);
    let sp = s.players[0].sp;
    ok(&mut s, 0, A::Assimilate { card: "sc_sword".into() });
    assert_eq!(s.players[0].sp, sp + 2);
    refused(&mut s, 0, A::Assimilate { card: "sc_boots".into() }, ClansRefusal::OneAssimilation);
    turn_to(&mut s, 1);
    turn_to(&mut s, 0);
    ok(&mut s, 0, A::Assimilate { card: "sc_boots".into() });
}

/// E17 (L23): 5/8 HP equips +4 HP: 8/8, max stays 8, no later healing.
#[test]
fn e17_equipment_heals_once_up_to_the_max() {
    let mut s = scene();
    let l = put(&mut s, 0, "sc_lancer", Pos(5, 9));
    fig_mut(&mut s, l).hp = 5;
    ok(&mut s, 0, A::Equip { card: "sc_shield".into(), figure: l });
    assert_eq!(hp(&s, l), 8);
    fig_mut(&mut s, l).hp = 5;
    turn_to(&mut s, 1);
    turn_to(&mut s, 0);
    assert_eq!(hp(&s, l), 5, "no further healing");
    let v = athlas_engine::clans::Clans::view(&s, athlas_engine::Viewer::Spectator);
    assert_eq!(v.figures.iter().find(|f| f.id == l).unwrap().max_hp, 8);
}

/// E18 (L93): a summoned ally waits for its player's next turn; its (OT)
/// ability is usable in the opponent's next turn.
#[test]
fn e18_summoning_sickness_but_ot_next_opponent_turn() {
    let mut s = scene();
    let home = s.players[0].homebase.unwrap();
    let at = Pos(home.0 + 1, home.1 - 1);
    ok(&mut s, 0, A::Summon { card: "sc_archer".into(), at });
    let id = s.figures.iter().find(|f| f.card == "sc_archer").unwrap().id;
    assert_eq!(s.players[0].sp, 0, "Chapel Archer costs 4 SP");
    refused(&mut s, 0, A::Move { figure: id, to: Pos(at.0 + 1, at.1) }, ClansRefusal::JustSummoned);
    let enemy = put(&mut s, 1, "cn_squire", Pos(at.0 + 3, at.1));
    s.players[0].sp = 2;
    ok(&mut s, 0, A::EndTurn);
    assert_eq!(s.window.first(), Some(&0), "Covering Fire (OT, 2 SP) opens a window");
    ok(&mut s, 0, A::Respond { figure: id, ability: 1, target: enemy });
    assert_eq!(hp(&s, enemy), 4);
    pass_all(&mut s);
    turn_to(&mut s, 0);
    ok(&mut s, 0, A::Move { figure: id, to: Pos(at.0 + 1, at.1) });
}

fn art_scene() -> (athlas_engine::clans::ClansState, u32, u32, u32) {
    let mut s = scene();
    s.players[0].exp = 2;
    let st = put(&mut s, 0, "sc_stealth", Pos(4, 9));
    let d = put(&mut s, 0, "sc_guard", Pos(6, 8));
    let e = put(&mut s, 1, "cn_guard", Pos(5, 7));
    (s, st, d, e)
}

/// E19 (L43, L49): stealth S moved, defense D did not; either casts; both turns end.
#[test]
fn e19_a_runic_art_with_a_moved_and_an_unmoved_ally() {
    let (mut s, st, d, e) = art_scene();
    ok(&mut s, 0, A::Move { figure: st, to: Pos(4, 8) });
    ok(&mut s, 0, A::RunicArt { card: "sc_art1".into(), caster: d, partner: st, target: e });
    assert_eq!(hp(&s, e), 2, "7 + BREAK 1 on HP 10");
    assert!(fig(&s, st).done && fig(&s, d).done);
    assert_eq!((s.players[0].sp, s.players[0].exp), (0, 0), "4 SP and 2 EXP");
    refused(&mut s, 0, A::Attack { figure: d, target: e }, ClansRefusal::AllyDone);
}

/// E20 (L43): D already attacked: not castable.
#[test]
fn e20_no_runic_art_after_an_attack() {
    let (mut s, st, d, e) = art_scene();
    ok(&mut s, 0, A::Move { figure: st, to: Pos(4, 8) });
    ok(&mut s, 0, A::Attack { figure: d, target: e });
    refused(
        &mut s,
        0,
        A::RunicArt { card: "sc_art1".into(), caster: st, partner: d, target: e },
        ClansRefusal::AlreadyActed,
    );
}

/// E21 (L138-139): moved, then another ally activated: no action any more,
/// except in a runic art.
#[test]
fn e21_an_ally_left_cannot_come_back_except_for_an_art() {
    let (mut s, st, d, e) = art_scene();
    ok(&mut s, 0, A::Move { figure: st, to: Pos(4, 8) });
    ok(&mut s, 0, A::Move { figure: d, to: Pos(6, 7) });
    refused(&mut s, 0, A::Attack { figure: st, target: e }, ClansRefusal::AllyDone);
    ok(&mut s, 0, A::RunicArt { card: "sc_art1".into(), caster: st, partner: d, target: e });
}

/// E22 (L109): a melee ally with +1 Range equipment counts as Ranged for arts.
#[test]
fn e22_enhanced_range_makes_a_ranged_class() {
    let mut s = scene();
    s.players[0].exp = 2;
    s.players[0].sp = 10;
    let k = put(&mut s, 0, "sc_knight", Pos(4, 8));
    let g = put(&mut s, 0, "sc_guard", Pos(6, 8));
    let e = put(&mut s, 1, "cn_guard", Pos(5, 7));
    let art = A::RunicArt { card: "sc_art2".into(), caster: k, partner: g, target: e };
    refused(&mut s, 0, art.clone(), ClansRefusal::ArtClasses);
    s.players[0].exp = 3;
    ok(&mut s, 0, A::Equip { card: "sc_bow".into(), figure: g });
    ok(&mut s, 0, art);
    assert_eq!(hp(&s, e), 4, "Twin Lances deals 6");
}

/// E23 (L81): 2v2: one God of team 1 falls: not lost; both: lost.
#[test]
fn e23_a_team_loses_when_both_gods_fall() {
    let clans = ["sacred_cross", "crimson_nobles", "sacred_cross", "crimson_nobles"];
    let mut s = game_with(ClansOptions {
        clans: clans.map(String::from).to_vec(),
        first_player: Some(0),
        ..Default::default()
    });
    flatten(&mut s);
    for p in &mut s.players {
        p.sp = 0;
    }
    let a = put(&mut s, 0, "sc_knight", Pos(5, 8));
    let (g1, g3) = (s.players[1].god, s.players[3].god);
    let minion = put(&mut s, 1, "cn_squire", Pos(20, 3));
    fig_mut(&mut s, g1).pos = Pos(5, 7);
    fig_mut(&mut s, g1).hp = 1;
    ok(&mut s, 0, A::Attack { figure: a, target: g1 });
    assert!(s.players[1].out && s.figure(minion).is_none(), "a fallen God's player is out, allies leave");
    assert_eq!(s.phase, Phase::Playing);
    let b = put(&mut s, 0, "sc_squire", Pos(9, 8));
    fig_mut(&mut s, g3).pos = Pos(9, 7);
    fig_mut(&mut s, g3).hp = 1;
    ok(&mut s, 0, A::Attack { figure: b, target: g3 });
    assert_eq!(athlas_engine::clans::Clans::status(&s), athlas_engine::Status::Finished(Outcome::Win { seat: 0 }));
    assert_eq!(s.winner_team, Some(0));
}
