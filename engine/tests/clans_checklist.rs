//! One test per checklist rule of `clans-facts.md` §2 that the worked
//! examples leave uncovered (the map: `clans_coverage/r001-r104.md`). Each
//! fails if its rule breaks.

use crate::clans_support::*;
use athlas_engine::clans::content::{Effect, Kind, StatusKind, TerrainEffect, Timing};
use athlas_engine::clans::grid::{Pos, Terrain};
use athlas_engine::clans::state::Phase;
use athlas_engine::clans::{Clans, ClansAction as A, ClansEvent as E, ClansOptions, ClansRefusal};
use athlas_engine::{Ruleset, Viewer};

fn kinds_of(clan: &str) -> Vec<&'static str> {
    let mut k: Vec<&'static str> = cat()
        .clan(clan)
        .unwrap()
        .cards
        .iter()
        .map(|c| match c.kind {
            Kind::Ally(_) => "ally",
            Kind::Homebase => "homebase",
            Kind::Equipment(_) => "equipment",
            Kind::Item(_) => "item",
            Kind::RunicArt(_) => "runic_art",
            Kind::Terrain(_) => "terrain",
        })
        .collect();
    k.sort_unstable();
    k.dedup();
    k
}

/// R1, R70: the two pre-built decks, each with cards of all 6 types.
#[test]
fn r1_two_decks_with_all_six_card_types() {
    for clan in ["sacred_cross", "crimson_nobles"] {
        assert_eq!(kinds_of(clan), ["ally", "equipment", "homebase", "item", "runic_art", "terrain"]);
    }
}

/// R5, R6, R15, R16, R92: every ally has HP, ATK, SPD, Range and exactly 2
/// abilities; permanent ones cost 0; the God has far more HP than any other
/// ally; one Divine Spirit with an aura per deck.
#[test]
fn r5_allies_have_four_stats_two_abilities_and_a_strong_god() {
    for clan in ["sacred_cross", "crimson_nobles"] {
        let allies: Vec<_> = cat().clan(clan).unwrap().cards.iter().filter_map(|c| c.ally()).collect();
        let god = allies.iter().find(|a| a.god).unwrap();
        for a in &allies {
            assert!(a.hp > 0 && a.atk > 0 && a.spd > 0 && a.range > 0);
            assert_eq!(a.abilities.len(), 2);
            for ab in &a.abilities {
                if ab.timing == Timing::Permanent {
                    assert_eq!(ab.sp, 0, "a permanent ability costs 0 SP (L105)");
                }
            }
            if !a.god {
                assert!(god.hp >= 2 * a.hp, "the God has much more HP (L119)");
            }
        }
        let spirits: Vec<_> = allies.iter().filter(|a| a.spirit).collect();
        assert_eq!(spirits.len(), 1);
        assert!(spirits[0].aura.is_some());
    }
}

/// R2, R18: after placement each God stands on the field, its player's
/// ally, 1 step from the homebase.
#[test]
fn r2_the_god_starts_on_the_field_next_to_the_homebase() {
    let s = game();
    for p in &s.players {
        let g = s.figure(p.god).expect("the God on the field");
        assert_eq!(g.owner, p.seat);
        assert!(athlas_engine::clans::ClansState::is_god(cat(), g));
        assert_eq!(g.pos.dist(p.homebase.unwrap()), 1);
    }
}

/// R3, R80, R84: summoning costs the card's SP; several summons in one turn;
/// never in the opponent's turn; refused without the SP.
#[test]
fn r3_summons_cost_sp_several_a_turn_only_in_your_turn() {
    let mut s = game();
    clear_middle(&mut s);
    s.players[0].sp = 7;
    let at = |s: &athlas_engine::clans::ClansState, n: usize| {
        Clans::legal(s, 0)
            .into_iter()
            .filter_map(|a| match a {
                A::Summon { at, .. } => Some(at),
                _ => None,
            })
            .nth(n)
            .unwrap()
    };
    let p = at(&s, 0);
    ok(&mut s, 0, A::Summon { card: "sc_squire".into(), at: p });
    assert_eq!(s.players[0].sp, 4);
    let p2 = Clans::legal(&s, 0)
        .into_iter()
        .find_map(|a| match a {
            A::Summon { at, .. } if at != p => Some(at),
            _ => None,
        })
        .unwrap();
    refused(&mut s, 0, A::Summon { card: "sc_spirit".into(), at: p2 }, ClansRefusal::NoSp);
    ok(&mut s, 0, A::Summon { card: "sc_guard".into(), at: p2 });
    assert_eq!(s.players[0].sp, 0);
    refused(&mut s, 1, A::Summon { card: "cn_squire".into(), at: Pos(9, 0) }, ClansRefusal::NotYourTurn);
}

/// R6, R81, R88: an ability costs its SP and is the ally's one action.
#[test]
fn r6_one_ability_is_the_allys_action() {
    let mut s = game();
    clear_middle(&mut s);
    s.players[0].sp = 10;
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_guard", Pos(6, 7));
    let sp = cat().card("sc_squire").unwrap().ally().unwrap().abilities[0].sp;
    ok(&mut s, 0, A::Ability { figure: a, ability: 0, target: b });
    assert_eq!(s.players[0].sp, 10 - sp);
    refused(&mut s, 0, A::Ability { figure: a, ability: 1, target: b }, ClansRefusal::AllyDone);
}

/// R12, R21, R28: equipment goes on the God as on any ally, in your turn only.
#[test]
fn r12_the_god_is_an_ally_for_equipment() {
    let mut s = game();
    clear_middle(&mut s);
    s.players[0].sp = 10;
    let god = s.players[0].god;
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let legal = Clans::legal(&s, 0);
    assert!(legal.contains(&A::Equip { card: "sc_sword".into(), figure: god }));
    assert!(legal.contains(&A::Equip { card: "sc_sword".into(), figure: a }));
    let atk = s.combat_atk(cat(), fig(&s, god));
    ok(&mut s, 0, A::Equip { card: "sc_sword".into(), figure: god });
    assert_eq!(s.combat_atk(cat(), fig(&s, god)), atk + 1);
    ok(&mut s, 0, A::EndTurn);
    pass_all(&mut s);
    refused(&mut s, 0, A::Equip { card: "sc_boots".into(), figure: a }, ClansRefusal::NotYourTurn);
}

/// R16: the Divine Spirit's aura raises the stat of the owner's other allies
/// within its radius, only while on the field.
#[test]
fn r16_the_divine_spirits_aura() {
    let mut s = game();
    clear_middle(&mut s);
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let base = s.combat_atk(cat(), fig(&s, a));
    let sp = put(&mut s, 0, "sc_spirit", Pos(6, 8));
    assert_eq!(s.combat_atk(cat(), fig(&s, a)), base + 1);
    let e = put(&mut s, 1, "cn_squire", Pos(7, 8));
    assert_eq!(s.combat_atk(cat(), fig(&s, e)), 2, "an enemy gains nothing");
    fig_mut(&mut s, sp).pos = Pos(9, 12);
    assert_eq!(s.combat_atk(cat(), fig(&s, a)), base, "out of its radius");
}

/// R27: assimilation at any moment of the turn, after an ally's action too.
#[test]
fn r27_assimilate_at_any_moment_of_the_turn() {
    let mut s = game();
    clear_middle(&mut s);
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_guard", Pos(6, 7));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    pass_all(&mut s);
    let sp = s.players[0].sp;
    ok(&mut s, 0, A::Assimilate { card: "sc_bow".into() });
    assert_eq!(s.players[0].sp, sp + 3);
}

/// R29, R30, R34, R78: an item needs SP and EXP, both paid; used once; in
/// your turn only.
#[test]
fn r30_items_cost_sp_and_exp() {
    let mut s = game();
    clear_middle(&mut s);
    let b = put(&mut s, 1, "cn_guard", Pos(6, 7));
    s.players[0].sp = 5;
    refused(&mut s, 0, A::Item { card: "sc_bomb".into(), target: b }, ClansRefusal::NoExp);
    s.players[0].exp = 1;
    ok(&mut s, 0, A::Item { card: "sc_bomb".into(), target: b });
    assert_eq!((s.players[0].sp, s.players[0].exp), (2, 0));
    assert_eq!(hp(&s, b), 10 - 3 - 1, "3 damage + BREAK's 1");
    refused(&mut s, 0, A::Item { card: "sc_bomb".into(), target: b }, ClansRefusal::NotInStack);
}

/// R31: a healing item heals by its value, never above the maximum.
#[test]
fn r31_a_healing_item_never_raises_the_maximum() {
    let mut s = game();
    clear_middle(&mut s);
    let a = put(&mut s, 0, "sc_guard", Pos(5, 8));
    fig_mut(&mut s, a).hp = 7;
    ok(&mut s, 0, A::Item { card: "sc_potion".into(), target: a });
    assert_eq!(hp(&s, a), 10);
    assert_eq!(Clans::view(&s, Viewer::Spectator).figures.iter().find(|f| f.id == a).unwrap().max_hp, 10);
}

/// R32, R33: boosts add without limit (on top of equipment), and an item's
/// boost ends when the ally's turn ends.
#[test]
fn r33_a_boost_stacks_without_limit_and_ends_with_the_allys_turn() {
    let mut s = game();
    clear_middle(&mut s);
    s.players[0].sp = 10;
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_guard", Pos(6, 7));
    ok(&mut s, 0, A::Equip { card: "sc_sword".into(), figure: a });
    ok(&mut s, 0, A::Item { card: "sc_hymn".into(), target: a });
    assert_eq!(s.combat_atk(cat(), fig(&s, a)), 2 + 1 + 2);
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!(hp(&s, b), 10 - 5);
    assert_eq!(s.combat_atk(cat(), fig(&s, a)), 2 + 1, "the hymn ended with the ally's turn");
}

/// R43, R44, R46-R48, R78: a terrain effect costs SP and a high EXP, is
/// permanent for every ally of the clan, summoned later too, and cannot be
/// cast twice.
#[test]
fn r44_a_terrain_effect_is_permanent_for_every_ally() {
    for clan in ["sacred_cross", "crimson_nobles"] {
        let cards = &cat().clan(clan).unwrap().cards;
        let max_other = cards
            .iter()
            .filter_map(|c| match &c.kind {
                Kind::Equipment(e) => Some(e.exp),
                Kind::Item(i) => Some(i.exp),
                _ => None,
            })
            .max()
            .unwrap();
        for c in cards {
            if let Kind::Terrain(t) = &c.kind {
                assert!(t.exp > max_other, "terrain effects have a high EXP cost (L55)");
            }
        }
    }
    let mut s = game();
    clear_middle(&mut s);
    s.players[0].sp = 10;
    s.players[0].exp = 4;
    ok(&mut s, 0, A::Terrain { card: "sc_mountains".into() });
    assert_eq!((s.players[0].sp, s.players[0].exp), (8, 0));
    assert_eq!(s.players[0].terrain, vec![TerrainEffect::ClimbMountains]);
    s.players[0].exp = 10;
    refused(&mut s, 0, A::Terrain { card: "sc_mountains".into() }, ClansRefusal::NotInStack);
    // Turns later, an ally summoned after the cast climbs.
    for _ in 0..2 {
        ok(&mut s, 0, A::EndTurn);
        turn_to(&mut s, 0);
    }
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    set_tile(&mut s, Pos(5, 7), Terrain::Mountain);
    assert_eq!(s.players[0].terrain, vec![TerrainEffect::ClimbMountains]);
    ok(&mut s, 0, A::Move { figure: a, to: Pos(5, 7) });
    // The enemy clan did not cast it.
    let e = put(&mut s, 1, "cn_squire", Pos(8, 3));
    set_tile(&mut s, Pos(8, 4), Terrain::Mountain);
    ok(&mut s, 0, A::EndTurn);
    turn_to(&mut s, 1);
    refused(&mut s, 1, A::Move { figure: e, to: Pos(8, 4) }, ClansRefusal::Unreachable);
}

/// R49-R51, R72: a battlefield of 6 battlemaps (4×4) a side, 12×16, the
/// other side the point reflection of the first, the 4 terrains.
#[test]
fn r50_six_battlemaps_a_side_mirrored() {
    for bf in ["river_valley", "highland_pass"] {
        let s = Clans::start(&ClansOptions { battlefield: bf.into(), ..ClansOptions::default() }, 1).unwrap();
        let f = &s.field;
        assert_eq!((f.width, f.height), (12, 16));
        for p in f.all() {
            let q = Pos(f.width - 1 - p.0, f.height - 1 - p.1);
            assert_eq!(f.at(p), f.at(q), "{bf}: the sides mirror each other");
            assert_eq!(f.on_side(0, p), !f.on_side(1, p));
        }
        assert_eq!(f.all().filter(|p| f.on_side(0, *p)).count(), 6 * 16);
        let letters: std::collections::BTreeSet<char> = f.all().map(|p| f.at(p).unwrap().letter()).collect();
        assert!(letters.iter().all(|c| "GFWM".contains(*c)));
    }
}

/// R62: the direction may change, and fewer steps than SPD may be used.
#[test]
fn r62_free_movement_and_fewer_steps() {
    let mut s = game();
    clear_middle(&mut s);
    let a = put(&mut s, 0, "sc_stealth", Pos(5, 8)); // SPD 3
    ok(&mut s, 0, A::Move { figure: a, to: Pos(6, 7) });
    ok(&mut s, 0, A::Move { figure: a, to: Pos(5, 6) });
    assert_eq!(fig(&s, a).steps_used, 2);
    ok(&mut s, 0, A::Move { figure: a, to: Pos(4, 6) });
    refused(&mut s, 0, A::Move { figure: a, to: Pos(3, 6) }, ClansRefusal::Unreachable);
}

/// R63: a forest-stride effect makes a forest cost 1 step, not 0.
#[test]
fn r63_forest_stride_costs_one_step_a_tile() {
    let mut s = game();
    clear_middle(&mut s);
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8)); // SPD 2
    for x in 2..9 {
        set_tile(&mut s, Pos(x, 7), Terrain::Forest);
        set_tile(&mut s, Pos(x, 6), Terrain::Forest);
        set_tile(&mut s, Pos(x, 5), Terrain::Forest);
    }
    let mut without = s.clone();
    refused(&mut without, 0, A::Move { figure: a, to: Pos(5, 6) }, ClansRefusal::Unreachable);
    s.players[0].terrain.push(TerrainEffect::ForestStride);
    refused(&mut s.clone(), 0, A::Move { figure: a, to: Pos(5, 5) }, ClansRefusal::Unreachable);
    ok(&mut s, 0, A::Move { figure: a, to: Pos(5, 6) });
}

/// R73, R74: two stacks (allies without the God, tactics without the
/// homebase); no drawing: any card can be played from the first turn.
#[test]
fn r74_two_stacks_and_no_drawing() {
    let mut s = game();
    let p = &s.players[0];
    let clan = cat().clan(&p.clan).unwrap();
    assert_eq!(p.allies.len() + p.tactics.len() + 2, clan.cards.len());
    assert!(p.allies.iter().all(|c| cat().card(c).unwrap().ally().is_some_and(|a| !a.god)));
    assert!(p.tactics.iter().all(|c| !matches!(cat().card(c).unwrap().kind, Kind::Ally(_) | Kind::Homebase)));
    s.players[0].sp = 50;
    let legal = Clans::legal(&s, 0);
    let last = s.players[0].allies.last().unwrap().clone();
    assert!(legal.iter().any(|a| matches!(a, A::Summon { card, .. } if *card == last)), "the last card too");
}

/// R76: the first player by option, else a seeded coin flip that falls
/// both ways.
#[test]
fn r76_who_goes_first() {
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let mut s = Clans::start(&ClansOptions::default(), seed).unwrap();
        for seat in 0..2 {
            let (hb, god) = default_place(&s, seat);
            for e in ok(&mut s, seat, A::Place { homebase: hb, god }) {
                if let E::Revealed { first, .. } = e {
                    firsts.insert(first);
                }
            }
        }
    }
    assert_eq!(firsts.len(), 2, "the coin falls both ways");
    let s = game_with(ClansOptions { first_player: Some(1), ..ClansOptions::default() });
    assert_eq!(s.active, 1);
}

/// R79, R82, R104: EXP only from defeats (the FAQ's variant adds it per
/// turn), SP per turn as set, the turn passes to the opponent.
#[test]
fn r104_sp_and_exp_per_turn_and_the_turn_passes() {
    let mut s = game();
    for _ in 0..3 {
        let active = s.active;
        let events = ok(&mut s, active, A::EndTurn);
        assert!(events.iter().any(|e| matches!(e, E::TurnStarted { .. })));
        pass_all(&mut s);
    }
    assert_eq!((s.players[0].exp, s.players[1].exp), (0, 0), "no EXP without a defeat");
    assert_eq!(s.players[0].sp, 8);
    let mut v =
        game_with(ClansOptions { first_player: Some(0), sp_per_turn: 6, exp_per_turn: 1, ..ClansOptions::default() });
    assert_eq!((v.players[0].sp, v.players[0].exp), (6, 1));
    let events = ok(&mut v, 0, A::EndTurn);
    assert!(events.iter().any(|e| matches!(e, E::TurnStarted { seat: 1, sp: 6, exp: 1, .. })));
}

/// R91, R92: a permanent ability is always on and never used as an action.
#[test]
fn r91_permanent_abilities_are_not_used() {
    let mut s = game();
    clear_middle(&mut s);
    let g = put(&mut s, 0, "sc_guard", Pos(5, 8));
    let b = put(&mut s, 1, "cn_squire", Pos(6, 7));
    let ab = &cat().card("sc_guard").unwrap().ally().unwrap().abilities[0];
    assert_eq!((ab.timing, &ab.effect), (Timing::Permanent, &Effect::CounterAnyRange));
    refused(&mut s, 0, A::Ability { figure: g, ability: 0, target: b }, ClansRefusal::WrongTiming);
}

/// R93, R96: each clan brings its status; a status lasts turn after turn
/// until cured.
#[test]
fn r96_each_clans_status_lasts_until_cured() {
    assert_eq!(cat().clan("sacred_cross").unwrap().status, StatusKind::Break);
    assert_eq!(cat().clan("crimson_nobles").unwrap().status, StatusKind::Poison);
    let mut s = game();
    clear_middle(&mut s);
    let a = put(&mut s, 0, "sc_guard", Pos(5, 8));
    fig_mut(&mut s, a).statuses.push((StatusKind::Poison, 1));
    for _ in 0..2 {
        ok(&mut s, 0, A::EndTurn);
        turn_to(&mut s, 0);
    }
    assert_eq!(hp(&s, a), 10 - 4 * 2, "2 at the start of each of 4 turns");
    assert!(fig(&s, a).status(StatusKind::Poison));
    ok(&mut s, 0, A::Item { card: "sc_antidote".into(), target: a });
    assert!(fig(&s, a).statuses.is_empty());
    ok(&mut s, 0, A::EndTurn);
    turn_to(&mut s, 0);
    assert_eq!(hp(&s, a), 2, "no more damage once cured");
}

/// R99: a Range-2+ ally may attack an adjacent enemy.
#[test]
fn r99_a_ranged_ally_attacks_at_close_range() {
    let mut s = game();
    clear_middle(&mut s);
    let a = put(&mut s, 0, "sc_archer", Pos(5, 8));
    let b = put(&mut s, 1, "cn_guard", Pos(6, 7));
    ok(&mut s, 0, A::Attack { figure: a, target: b });
    assert_eq!(hp(&s, b), 8);
    assert!(s.phase == Phase::Playing);
}
