//! The book's worked examples other than the play-by-play, through the
//! public API, with the book's exact numbers.

use crate::common;
use athlas_engine::duel::alpha::AlphaDesign;
use athlas_engine::duel::card::{Catalogue, Terrain};
use athlas_engine::duel::event::EventKind;
use athlas_engine::duel::{Duel, DuelAction, DuelOptions};
use athlas_engine::{Ruleset, Viewer};
use common::*;

const BRIAN_ALPHA: [&str; 5] = ["shadow_ranger", "marksmanship", "etynian_crossbow", "full_plate_armor", "drain_life"];
const PAUL_ARMORED: [&str; 3] = ["raider_of_the_deep", "rakios_battle_suit", "celestial_shield"];

/// Attack, Armor and Damage Example (L915-971): 4+1+1+2 = 8 against armor 5
/// is 3 damage; the same unit again that turn takes 8; another unit takes 3.
#[test]
fn attack_armor_and_damage_example() {
    let b = board(&[(h(0, 0), Terrain::Hill), (h(1, 0), Terrain::Hill)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let setup = || {
        scenario(
            b.clone(),
            0,
            [player(vec![alpha(&BRIAN_ALPHA)], &[]), player(vec![alpha(&PAUL_ARMORED)], &[])],
            // Brian's units 1 and 2 on hills; Paul's units 3 and 4 on plains two hexes away.
            vec![unit(0, 0, h(0, 0)), unit(0, 0, h(1, 0)), unit(1, 0, h(2, -2)), unit(1, 0, h(3, -2))],
        )
    };
    let mut s = setup();
    let (u3, u4) = (unit_at(&s, h(2, -2)), unit_at(&s, h(3, -2)));
    assert_eq!(life(&s, 1, 0), 11, "Raider of the Deep 9 + Celestial Shield 2");
    activate(&mut s, 0, h(0, 0));
    let ev = ok(&mut s, 0, power_on_unit("etynian_crossbow", u3));
    let attacked = ev.iter().find_map(|e| match &e.kind {
        EventKind::Attacked { value, armor, damage, .. } => Some((*value, *armor, *damage)),
        _ => None,
    });
    assert_eq!(attacked, Some((8, 5, 3)), "4+1+1+2 = 8 against 3+1+1 = 5");
    assert_eq!(life(&s, 1, 0), 8);
    end(&mut s, 0);
    // Unit 2 attacking unit 4 would deal 3 as well...
    let mut other = s.clone();
    activate(&mut other, 0, h(1, 0));
    ok(&mut other, 0, power_on_unit("etynian_crossbow", u4));
    assert_eq!(life(&other, 1, 0), 5);
    // ...but unit 3 has used its armor this turn: 8-0 = 8 empties the pool.
    activate(&mut s, 0, h(1, 0));
    ok(&mut s, 0, power_on_unit("etynian_crossbow", u3));
    assert!(s.game.unit(u3).is_none(), "unit 3 is removed");
    assert_eq!(life(&s, 1, 0), 11, "the pool is refilled to its maximum");
    // Had unit 3 survived, its armor is back next turn.
    end(&mut other, 0);
    end_turn(&mut other, 0);
    let a = other.game.armor_left(
        Catalogue::standard(),
        other.game.unit(u3).unwrap(),
        athlas_engine::duel::card::AttackKind::Ranged,
    );
    assert_eq!(a, (5, 0));
}

/// Magical variant (L945-949): against a spell the same unit has armor 6.
#[test]
fn magical_attack_counts_magical_armor() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["shadow_ranger", "magic_bolt"])], &[]), player(vec![alpha(&PAUL_ARMORED)], &[])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("magic_bolt".into(), 1);
    let t = unit_at(&s, h(2, 0));
    let cat = Catalogue::standard();
    let g = &s.game;
    assert_eq!(g.armor_left(cat, g.unit(t).unwrap(), athlas_engine::duel::card::AttackKind::Magical), (5, 1));
    assert_eq!(g.armor_left(cat, g.unit(t).unwrap(), athlas_engine::duel::card::AttackKind::Ranged), (5, 0));
    activate(&mut s, 0, h(0, 0));
    let ev = ok(&mut s, 0, power_on_unit("magic_bolt", t));
    // Magic Bolt 3 is absorbed by 1 magical + 2 physical armor.
    assert!(ev.iter().any(|e| matches!(e.kind, EventKind::Attacked { value: 3, armor: 3, damage: 0, .. })));
    let (p, m) = s.game.armor_left(cat, s.game.unit(t).unwrap(), athlas_engine::duel::card::AttackKind::Magical);
    assert_eq!((p, m), (3, 0), "magical armor is spent first");
}

/// Alpha Creation Example and Summoning Example (L408-455, L613-661):
/// Brian's Alpha costs 32 and has a pool of 10; the first summon reveals it,
/// pays 32 and puts one cube on Drain Life.
#[test]
fn brians_alpha_is_created_and_summoned() {
    let cat = Catalogue::standard();
    let a = AlphaDesign::new(BRIAN_ALPHA);
    assert!(a.is_valid(cat));
    assert_eq!(a.summoning_cost(cat), 32);
    assert_eq!(a.life_pool(cat), 10);
    let mut s = Duel::start(&DuelOptions { first_player: Some(0), ..Default::default() }, 9).unwrap();
    let others = [
        AlphaDesign::new(["savage_warrior", "karoos_blade"]),
        AlphaDesign::new(["forsaken_drake", "rakios_battle_suit"]),
    ];
    let create = |al: Vec<AlphaDesign>| DuelAction::Create { alphas: al, di_stack: vec![] };
    ok(&mut s, 0, create(vec![a.clone(), others[0].clone(), others[1].clone()]));
    // Paul cannot see Brian's Alphas before the reveal.
    let v = Duel::view(&s, Viewer::Seat(1));
    assert!(v.players[0].alphas.iter().all(|x| x.design.is_none()));
    ok(
        &mut s,
        1,
        create(vec![
            AlphaDesign::new(["shadow_ranger"]),
            AlphaDesign::new(["savage_warrior"]),
            AlphaDesign::new(["forsaken_drake"]),
        ]),
    );
    let hex = s.game.summoning_hexes[0][0];
    let ev = ok(&mut s, 0, DuelAction::Summon { alpha: 0, hex, figure: None });
    assert!(ev.iter().any(|e| matches!(&e.kind, EventKind::AlphaRevealed { cost: 32, life: 10, .. })));
    assert_eq!(s.game.players[0].spent, 32);
    assert_eq!(s.game.players[0].alphas[0].cubes.get("drain_life"), Some(&1));
    let v = Duel::view(&s, Viewer::Seat(1));
    assert_eq!(v.players[0].alphas[0].design.as_ref(), Some(&a));
    assert!(v.players[0].alphas[1].design.is_none());
}

/// T-PAY-1 / T-PAY-2 (L591-597, L264-271): paying may reach the maximum but
/// never exceed it; 250 points buy at most 7 units of a 32-point Alpha.
#[test]
fn summoning_points_never_exceed_the_maximum() {
    let b = board(&[], [h(0, 0), h(1, 0), h(2, 0)]);
    let mut pl = player(vec![alpha(&BRIAN_ALPHA)], &[]);
    pl.spent = 218;
    let mut s = scenario(b.clone(), 0, [pl, player(vec![alpha(&["shadow_ranger"])], &[])], vec![]);
    ok(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(-5, 5), figure: None });
    assert_eq!(s.game.players[0].spent, 250);
    let mut pl = player(vec![alpha(&BRIAN_ALPHA)], &[]);
    pl.spent = 219;
    let mut s = scenario(b, 0, [pl, player(vec![alpha(&["shadow_ranger"])], &[])], vec![]);
    rejected(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(-5, 5), figure: None }, "no_points");
    assert_eq!(250 / 32, 7);
}
