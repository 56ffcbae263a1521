//! One test (or more) per rule of the book; each fails if its rule breaks.
//! Line numbers refer to ../shared/rules/duel-for-divinity.txt.

use crate::common;
use athlas_engine::duel::alpha::AlphaDesign;
use athlas_engine::duel::card::{AttackKind, Catalogue, Terrain};
use athlas_engine::duel::event::EventKind;
use athlas_engine::duel::state::{CampaignGame, Phase, Step};
use athlas_engine::duel::{Duel, DuelAction, DuelOptions, Target};
use athlas_engine::{Outcome, Ruleset, Status, Viewer};
use common::*;

fn a3() -> Vec<AlphaDesign> {
    vec![
        AlphaDesign::new(["shadow_ranger", "etynian_crossbow"]),
        AlphaDesign::new(["savage_warrior", "karoos_blade"]),
        AlphaDesign::new(["forsaken_drake", "rakios_battle_suit"]),
    ]
}

fn create(alphas: Vec<AlphaDesign>, di: &[&str]) -> DuelAction {
    DuelAction::Create { alphas, di_stack: di.iter().map(|s| (*s).into()).collect() }
}

fn started(first: u8) -> athlas_engine::duel::DuelState {
    let mut s = Duel::start(&DuelOptions { first_player: Some(first), ..Default::default() }, 3).unwrap();
    ok(&mut s, 0, create(a3(), &[]));
    ok(&mut s, 1, create(a3(), &[]));
    s
}

fn dp(id: &str) -> u32 {
    Catalogue::standard().di_card(id).unwrap().divine_points
}

// ------------------------------------------------------------ creation

#[test]
fn creation_is_simultaneous_and_secret_then_a_random_first_player() {
    let mut s = Duel::start(&DuelOptions::default(), 42).unwrap();
    assert_eq!(Duel::status(&s), Status::Waiting { seats: vec![0, 1] });
    ok(&mut s, 1, create(a3(), &[]));
    let v = Duel::view(&s, Viewer::Seat(0));
    assert!(v.players[1].locked && v.players[1].alphas.iter().all(|a| a.design.is_none()));
    rejected(&mut s, 1, create(a3(), &[]), "already_created");
    rejected(&mut s, 0, DuelAction::EndTurn, "creation_phase");
    ok(&mut s, 0, create(a3(), &[]));
    assert_eq!(s.game.phase, Phase::Command);
    // The first player comes from the seed: deterministic, and both occur.
    let first = |seed| {
        let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
        ok(&mut s, 0, create(a3(), &[]));
        ok(&mut s, 1, create(a3(), &[]));
        s.game.active
    };
    assert_eq!(first(42), s.game.active);
    let firsts: std::collections::BTreeSet<u8> = (0..20).map(first).collect();
    assert_eq!(firsts.len(), 2);
    // No card may be changed once the Command Phase begins (L337-339).
    rejected(&mut s, 0, create(a3(), &[]), "not_creation_phase");
}

#[test]
fn three_alphas_each_valid_each_card_once() {
    let mut s = Duel::start(&DuelOptions::default(), 1).unwrap();
    rejected(&mut s, 0, create(a3()[..2].to_vec(), &[]), "alpha_count");
    let mut bad = a3();
    bad[0] = AlphaDesign::new(["shadow_ranger", "savage_warrior"]);
    let e = rejected(&mut s, 0, create(bad, &[]), "invalid_alpha");
    assert!(e.message.contains("exactly one genus"), "{e}");
    let mut bad = a3();
    bad[1] = AlphaDesign::new(["savage_warrior", "rakios_battle_suit"]);
    rejected(&mut s, 0, create(bad, &[]), "card_reused");
}

#[test]
fn di_stack_up_to_four_cards_and_eight_points() {
    let cat = Catalogue::standard();
    let mut s = Duel::start(&DuelOptions::default(), 1).unwrap();
    let ids: Vec<&str> = cat.di.keys().map(|k| &**k).collect();
    rejected(&mut s, 0, create(a3(), &ids[..5]), "di_stack");
    // Three cards over 8 points.
    let mut heavy: Vec<&str> = ids.clone();
    heavy.sort_by_key(|id| std::cmp::Reverse(dp(id)));
    if dp(heavy[0]) + dp(heavy[1]) + dp(heavy[2]) > 8 {
        rejected(&mut s, 0, create(a3(), &heavy[..3]), "di_stack");
    }
    rejected(&mut s, 0, create(a3(), &[ids[0], ids[0]]), "card_reused");
    // A preset stack of 4 cards totalling 8 is fine, so is an empty one.
    let aquatic = cat.preset("aquatic").unwrap();
    let total: u32 = aquatic.di_stack.iter().map(|d| dp(d)).sum();
    assert_eq!((aquatic.di_stack.len(), total), (4, 8));
    ok(&mut s, 0, DuelAction::UsePreset { preset: "aquatic".into() });
    ok(&mut s, 1, create(a3(), &[]));
    // The order is kept: the top card is the first one.
    assert_eq!(s.game.players[0].di_stack, aquatic.di_stack);
}

#[test]
fn campaign_prepares_four_alphas_reveals_three_and_redesigns_one() {
    let mut four = a3();
    four.push(AlphaDesign::new(["raider_of_the_deep", "full_plate_armor"]));
    let opts = DuelOptions { campaign: Some(CampaignGame::default()), first_player: Some(0), ..Default::default() };
    let mut s = Duel::start(&opts, 1).unwrap();
    rejected(&mut s, 0, create(a3(), &[]), "alpha_count");
    ok(&mut s, 0, create(four.clone(), &[]));
    ok(&mut s, 1, create(four.clone(), &[]));
    // Reveal three Alphas (first turn then regular turns), the fourth is refused.
    s.game.max_points = 500;
    for (i, hex) in [(0usize, h(-5, 5)), (1, h(-4, 5)), (2, h(-3, 5))] {
        if i > 0 {
            end_turn(&mut s, 0);
            end_turn(&mut s, 1);
        }
        ok(&mut s, 0, DuelAction::Summon { alpha: i, hex, figure: None });
    }
    end_turn(&mut s, 0);
    end_turn(&mut s, 1);
    rejected(&mut s, 0, DuelAction::Summon { alpha: 3, hex: h(-2, 5), figure: None }, "reveal_limit");
    // Next game: exactly one Alpha may change.
    let next =
        DuelOptions { campaign: Some(CampaignGame { previous: [four.clone(), four.clone()] }), ..Default::default() };
    let mut s = Duel::start(&next, 2).unwrap();
    let mut one = four.clone();
    one[3] = AlphaDesign::new(["raider_of_the_deep", "obsidian_breast_plate"]);
    let mut two = one.clone();
    two[2] = AlphaDesign::new(["forsaken_drake", "full_plate_armor"]);
    rejected(&mut s, 0, create(two, &[]), "campaign_redesign");
    ok(&mut s, 0, create(one, &[]));
}

/// L259-271 "both players must agree upon the amount of summoning points
/// [...] It is recommended to use 250 [...] if the players wish to try
/// higher values [...] they can do so, but a maximum limit of 500 summoning
/// points is highly recommended." 500 is advice, not a rule: players who
/// agree on 600 play with 600 (a server may still cap what it hosts: its
/// own option, `--max-summoning-points`). None at all is no game.
#[test]
fn summoning_points_above_the_recommended_500_are_the_players_choice() {
    for points in [250, 500, 600, 1000] {
        let s = Duel::start(&DuelOptions { summoning_points: points, ..Default::default() }, 1)
            .unwrap_or_else(|e| panic!("{points} points refused: {e}"));
        assert_eq!(s.game.max_points, points);
    }
    assert!(Duel::start(&DuelOptions { summoning_points: 0, ..Default::default() }, 1).is_err());
}

/// L1232-1238 "A campaign is a series of normal games [...] Each player
/// prepares 4 Alphas to the first game [...] The creation phase of each
/// game after the first allows the redesign of exactly one Alpha." The book
/// counts Alpha designs (a face-down stack of cards, L331-335), not places
/// in a list: the same four Alphas in another order, or an Alpha whose cards
/// are listed in another order, redesign nothing (issue 45).
#[test]
fn a_campaign_redesign_counts_designs_not_list_positions() {
    let mut four = a3();
    four.push(AlphaDesign::new(["raider_of_the_deep", "full_plate_armor"]));
    let next =
        DuelOptions { campaign: Some(CampaignGame { previous: [four.clone(), four.clone()] }), ..Default::default() };
    // The same four, two swapped and one's cards listed the other way round.
    let mut shuffled = four.clone();
    shuffled.swap(0, 3);
    shuffled[1].cards.reverse();
    let mut s = Duel::start(&next, 2).unwrap();
    ok(&mut s, 0, create(shuffled.clone(), &[]));
    // Reordered and one redesigned: still one redesign.
    let mut one = shuffled.clone();
    one[2] = AlphaDesign::new(["forsaken_drake", "obsidian_breast_plate"]);
    one.swap(1, 2);
    ok(&mut s, 1, create(one.clone(), &[]));
    // Two redesigned, whatever the order, is refused.
    let mut two = one.clone();
    two[0] = AlphaDesign::new(["raider_of_the_deep"]);
    let mut s = Duel::start(&next, 2).unwrap();
    let e = rejected(&mut s, 0, create(two, &[]), "campaign_redesign");
    assert!(e.message.contains("2 redesigned"), "{}", e.message);
}

// ------------------------------------------------------------ first turn

#[test]
fn first_turn_one_unit_of_any_cost_or_three_costing_sixty() {
    let cat = Catalogue::standard();
    let cost = |a: &AlphaDesign| a.summoning_cost(cat);
    let rush = cat.preset("rush").unwrap();
    let rush: Vec<AlphaDesign> = rush.alphas.iter().map(|a| AlphaDesign::new(a.iter().cloned())).collect();
    assert_eq!(rush.iter().map(cost).collect::<Vec<_>>(), vec![29, 20, 17]);
    let mut s = Duel::start(&DuelOptions { first_player: Some(0), ..Default::default() }, 1).unwrap();
    ok(&mut s, 0, DuelAction::UsePreset { preset: "rush".into() });
    ok(&mut s, 1, create(a3(), &[]));
    // 29 + 20 = 49, then +17 = 66 > 60: refused as a third unit.
    ok(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(-5, 5), figure: None });
    ok(&mut s, 0, DuelAction::Summon { alpha: 1, hex: h(-4, 5), figure: None });
    rejected(&mut s, 0, DuelAction::Summon { alpha: 2, hex: h(-3, 5), figure: None }, "first_turn_limit");
    // No activation in a first turn (L539-542).
    let u = s.game.units[0].id;
    rejected(&mut s, 0, DuelAction::Activate { unit: u }, "wrong_step");
    end_turn(&mut s, 0);
    // One unit of any cost is fine, but then no second one.
    s.game.player_mut(1).alphas[0].cost = 80;
    ok(&mut s, 1, DuelAction::Summon { alpha: 0, hex: h(0, -5), figure: None });
    rejected(&mut s, 1, DuelAction::Summon { alpha: 1, hex: h(1, -5), figure: None }, "first_turn_limit");
    end_turn(&mut s, 1);
    // Turn 3 is a regular turn: units may activate, and one summon after the activations.
    assert_eq!(s.game.step, Step::Activation);
    ok(&mut s, 0, DuelAction::Summon { alpha: 2, hex: h(-3, 5), figure: None });
    rejected(&mut s, 0, DuelAction::Summon { alpha: 2, hex: h(-2, 5), figure: None }, "one_summon");
    rejected(&mut s, 0, DuelAction::Activate { unit: u }, "wrong_step");
}

#[test]
fn four_units_are_refused_even_under_sixty() {
    let mut s = started(0);
    for a in &mut s.game.player_mut(0).alphas {
        a.cost = 10;
    }
    ok(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(-5, 5), figure: None });
    ok(&mut s, 0, DuelAction::Summon { alpha: 1, hex: h(-4, 5), figure: None });
    ok(&mut s, 0, DuelAction::Summon { alpha: 2, hex: h(-3, 5), figure: None });
    rejected(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(-2, 5), figure: None }, "first_turn_limit");
}

#[test]
fn summoning_hexes_figures_and_occupancy() {
    let mut s = started(0);
    rejected(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(0, 0), figure: None }, "not_summoning_hex");
    rejected(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(0, -5), figure: None }, "not_summoning_hex");
    ok(
        &mut s,
        0,
        DuelAction::Summon { alpha: 0, hex: h(-5, 5), figure: Some(athlas_engine::duel::state::Figure::ShadowRanger) },
    );
    rejected(
        &mut s,
        0,
        DuelAction::Summon { alpha: 1, hex: h(-4, 5), figure: Some(athlas_engine::duel::state::Figure::ShadowRanger) },
        "figure_taken",
    );
    rejected(&mut s, 0, DuelAction::Summon { alpha: 1, hex: h(-5, 5), figure: None }, "occupied");
}

// ------------------------------------------------------------ activation

fn duel_board() -> athlas_engine::duel::board::BoardLayout {
    board(
        &[
            (h(0, 0), Terrain::Hill),
            (h(1, 0), Terrain::Hill),
            (h(0, 1), Terrain::Crater),
            (h(-2, 0), Terrain::Water),
            (h(2, -2), Terrain::Crater),
        ],
        [h(-4, 0), h(-4, 1), h(4, -4)],
    )
}

#[test]
fn units_activate_once_one_after_another() {
    let mut s = scenario(
        duel_board(),
        0,
        [player(vec![alpha(&["savage_warrior", "karoos_blade"])], &[]), player(vec![alpha(&["shadow_ranger"])], &[])],
        vec![unit(0, 0, h(-1, 0)), unit(0, 0, h(-1, -1)), unit(1, 0, h(3, -3))],
    );
    let (a, b, e) = (unit_at(&s, h(-1, 0)), unit_at(&s, h(-1, -1)), unit_at(&s, h(3, -3)));
    rejected(&mut s, 0, DuelAction::Activate { unit: e }, "not_your_unit");
    rejected(&mut s, 1, DuelAction::Activate { unit: e }, "not_your_turn");
    ok(&mut s, 0, DuelAction::Activate { unit: a });
    rejected(&mut s, 0, DuelAction::Activate { unit: b }, "activation_running");
    end(&mut s, 0);
    rejected(&mut s, 0, DuelAction::Activate { unit: a }, "already_activated");
    ok(&mut s, 0, DuelAction::Activate { unit: b });
    end(&mut s, 0);
}

#[test]
fn movement_by_level_m_and_m_plus_a() {
    let pl = || player(vec![alpha(&["savage_warrior", "karoos_blade"])], &[]);
    let s0 = scenario(duel_board(), 0, [pl(), pl()], vec![unit(0, 0, h(-1, 1)), unit(1, 0, h(4, 0))]);
    let u = |s: &athlas_engine::duel::DuelState| s.game.units[0].id;
    // plains -> plains: m only; the a stays.
    let mut s = s0.clone();
    let act = DuelAction::Activate { unit: u(&s) };
    ok(&mut s, 0, act);
    mv(&mut s, 0, h(-1, 2));
    assert_eq!(s.game.activation.as_ref().unwrap().a, 1);
    rejected(&mut s, 0, DuelAction::Move { to: h(-1, 3), carry_relic: None }, "no_m");
    // plains -> hill: m + a.
    let mut s = s0.clone();
    let act = DuelAction::Activate { unit: u(&s) };
    ok(&mut s, 0, act);
    mv(&mut s, 0, h(0, 0));
    assert_eq!(s.game.activation.as_ref().unwrap().a, 0);
    // plains -> crater: m + a; crater -> hill: a cliff.
    let mut s = s0.clone();
    let act = DuelAction::Activate { unit: u(&s) };
    ok(&mut s, 0, act);
    mv(&mut s, 0, h(0, 1));
    end(&mut s, 0);
    end_turn(&mut s, 0);
    end_turn(&mut s, 1);
    let act = DuelAction::Activate { unit: u(&s) };
    ok(&mut s, 0, act);
    rejected(&mut s, 0, DuelAction::Move { to: h(1, 0), carry_relic: None }, "cliff");
    rejected(&mut s, 0, DuelAction::Move { to: h(0, 0), carry_relic: None }, "cliff");
    rejected(&mut s, 0, DuelAction::Move { to: h(2, 1), carry_relic: None }, "too_far");
    rejected(&mut s, 0, DuelAction::Move { to: h(9, 9), carry_relic: None }, "off_board");
}

#[test]
fn flying_moves_two_hexes_over_anything_but_not_after_its_a() {
    let mut s = scenario(
        duel_board(),
        0,
        [player(vec![alpha(&["forsaken_drake"])], &[]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(-1, 1)), unit(1, 0, h(-1, 0)), unit(1, 0, h(1, 1))],
    );
    let d = unit_at(&s, h(-1, 1));
    let mut t = s.clone();
    ok(&mut t, 0, DuelAction::Activate { unit: d });
    rejected(&mut t, 0, DuelAction::Move { to: h(1, 1), carry_relic: None }, "occupied");
    rejected(&mut t, 0, DuelAction::Move { to: h(2, 1), carry_relic: None }, "too_far");
    // Over a unit, from plains onto a hill two hexes away, for only an m.
    mv(&mut t, 0, h(0, 0).neighbor(1));
    assert_eq!(t.game.activation.as_ref().unwrap().a, 1);
    ok(&mut s, 0, DuelAction::Activate { unit: d });
    let act = power_on_unit("forsaken_drake", unit_at(&s, h(-1, 0)));
    ok(&mut s, 0, act);
    rejected(&mut s, 0, DuelAction::Move { to: h(-1, 2), carry_relic: None }, "flew_after_a");
}

#[test]
fn the_attacker_may_attack_first_then_move_on_the_same_level() {
    let mut s = scenario(
        duel_board(),
        0,
        [player(vec![alpha(&["savage_warrior", "karoos_blade"])], &[]), player(vec![alpha(&["shadow_ranger"])], &[])],
        vec![unit(0, 0, h(-1, 1)), unit(1, 0, h(-1, 2))],
    );
    activate(&mut s, 0, h(-1, 1));
    let act = power_on_unit("karoos_blade", unit_at(&s, h(-1, 2)));
    ok(&mut s, 0, act);
    rejected(&mut s, 0, DuelAction::Move { to: h(0, 0), carry_relic: None }, "no_a");
    mv(&mut s, 0, h(-2, 1));
}

// ------------------------------------------------------------ range, cliffs, cover, height

#[test]
fn range_exactly_two_and_one_to_two() {
    let mut s = scenario(
        board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]),
        0,
        [
            player(
                vec![alpha(&["shadow_ranger", "etynian_crossbow"]), alpha(&["savage_warrior", "throwing_axe"])],
                &[],
            ),
            player(vec![alpha(&["raider_of_the_deep"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(0, 1, h(1, -1)), unit(1, 0, h(1, 0)), unit(1, 0, h(2, 0)), unit(1, 0, h(3, 0))],
    );
    s.game.player_mut(0).alphas[1].cubes.insert("throwing_axe".into(), 3);
    let (d1, d2, d3) = (unit_at(&s, h(1, 0)), unit_at(&s, h(2, 0)), unit_at(&s, h(3, 0)));
    activate(&mut s, 0, h(0, 0));
    rejected(&mut s, 0, power_on_unit("etynian_crossbow", d1), "out_of_range");
    rejected(&mut s, 0, power_on_unit("etynian_crossbow", d3), "out_of_range");
    let mut t = s.clone();
    ok(&mut t, 0, power_on_unit("etynian_crossbow", d2));
    end(&mut s, 0);
    // Throwing Axe, 1-2: adjacent and two away, not three.
    activate(&mut s, 0, h(1, -1));
    rejected(&mut s, 0, power_on_unit("throwing_axe", d3), "out_of_range");
    let mut t = s.clone();
    ok(&mut t, 0, power_on_unit("throwing_axe", d1));
    ok(&mut s, 0, power_on_unit("throwing_axe", d2));
}

#[test]
fn range_one_powers_never_cross_a_cliff_longer_ones_do() {
    // Attacker in a crater next to a hill holding the target.
    let b = board(&[(h(0, 0), Terrain::Crater), (h(1, 0), Terrain::Hill)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["spell_binder", "karoos_blade", "magic_bolt"])], &[]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("magic_bolt".into(), 1);
    let t = unit_at(&s, h(1, 0));
    activate(&mut s, 0, h(0, 0));
    rejected(&mut s, 0, power_on_unit("karoos_blade", t), "cliff");
    ok(&mut s, 0, power_on_unit("magic_bolt", t));
}

#[test]
fn cover_behind_a_higher_hex() {
    // Archer on plains, a hill between, target on plains two hexes away.
    let b = board(&[(h(1, 0), Terrain::Hill), (h(0, -2), Terrain::Hill)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["shadow_ranger", "etynian_crossbow"])], &[]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0)), unit(1, 0, h(-2, 0)), unit(0, 0, h(0, -2))],
    );
    let behind_hill = unit_at(&s, h(2, 0));
    let open = unit_at(&s, h(-2, 0));
    activate(&mut s, 0, h(0, 0));
    rejected(&mut s, 0, power_on_unit("etynian_crossbow", behind_hill), "cover");
    let mut t = s.clone();
    ok(&mut t, 0, power_on_unit("etynian_crossbow", open));
}

#[test]
fn higher_ground_adds_two_unless_someone_flies() {
    let cat = Catalogue::standard();
    let b = board(&[(h(0, 0), Terrain::Hill), (h(2, 0), Terrain::Crater)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior"]), alpha(&["forsaken_drake"])], &[]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0)), unit(1, 0, h(2, 0)), unit(0, 1, h(-1, 0)), unit(0, 0, h(3, 0))],
    );
    let g = &s.game;
    let hill = g.unit_at(h(0, 0)).unwrap();
    let plains = g.unit_at(h(1, 0)).unwrap();
    let crater = g.unit_at(h(2, 0)).unwrap();
    let flier = g.unit_at(h(-1, 0)).unwrap();
    let v = |a, t| g.attack_value(cat, Some(a), AttackKind::Melee, 5, t, false);
    // Savage Warrior gives +1 melee.
    assert_eq!(v(hill, plains), 8, "hill over plains: 5+1+2");
    assert_eq!(v(plains, crater), 8, "plains over crater");
    assert_eq!(v(plains, hill), 6, "lower attacker: no bonus");
    assert_eq!(v(plains, plains), 6);
    assert_eq!(g.attack_value(cat, Some(flier), AttackKind::Melee, 5, crater, false), 5, "flying attacker: no bonus");
    assert_eq!(v(hill, flier), 6, "flying target: no bonus");
    assert_eq!(
        g.attack_value(cat, Some(hill), AttackKind::Melee, 5, plains, true),
        6,
        "Earthquake: no height modifiers"
    );
    // A modifier of another type does not count (T-MOD-1).
    let ranger = AlphaDesign::new(["shadow_ranger"]);
    assert_eq!(ranger.modifier(cat, AttackKind::Melee), 0);
    assert_eq!(ranger.modifier(cat, AttackKind::Ranged), 1);
}

// ------------------------------------------------------------ life

#[test]
fn armor_points_once_per_turn_excess_kept() {
    // T-ARM-1: armor 5, attack 2: nothing, 3 left; then 4: 1 damage.
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["spell_binder", "magic_bolt"]), alpha(&["savage_warrior", "karoos_blade"])], &[]),
            player(vec![alpha(&["raider_of_the_deep", "rakios_battle_suit", "celestial_shield"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(0, 1, h(2, -1)), unit(1, 0, h(1, 0))],
    );
    let t = unit_at(&s, h(1, 0));
    let cat = Catalogue::standard();
    let axe_value =
        |s: &athlas_engine::duel::DuelState| s.game.armor_left(cat, s.game.unit(t).unwrap(), AttackKind::Melee);
    assert_eq!(axe_value(&s), (5, 0));
    activate(&mut s, 0, h(2, -1));
    ok(&mut s, 0, power_on_unit("karoos_blade", t)); // 5+1 = 6 vs 5
    assert_eq!(life(&s, 1, 0), 10);
    assert_eq!(axe_value(&s), (0, 0));
    end(&mut s, 0);
    end_turn(&mut s, 0);
    assert_eq!(axe_value(&s), (5, 0), "armor is back the next turn");
}

#[test]
fn losing_life_ignores_armor_and_overkill_is_lost() {
    let b = board(&[(h(1, 0), Terrain::Water)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut sw = alpha(&["savage_warrior", "rakios_battle_suit"]);
    sw.life = Some(6);
    let mut s = scenario(
        b,
        0,
        [player(vec![sw], &[]), player(vec![alpha(&["shadow_ranger"])], &[])],
        vec![unit(0, 0, h(0, 0)), unit(0, 0, h(-1, 0))],
    );
    activate(&mut s, 0, h(0, 0));
    mv(&mut s, 0, h(1, 0));
    assert_eq!(life(&s, 0, 0), 1, "drowning: exactly 5, armor 3 does not count");
    end(&mut s, 0);
    // Starts and ends the activation in water: 5 more, the unit dies; pool refills.
    end_turn(&mut s, 0);
    end_turn(&mut s, 1);
    activate(&mut s, 0, h(1, 0));
    ok(&mut s, 0, DuelAction::EndActivation);
    assert!(s.game.unit_at(h(1, 0)).is_none());
    assert_eq!(life(&s, 0, 0), 12);
}

#[test]
fn raiders_of_the_deep_move_through_water() {
    let b = board(&[(h(1, 0), Terrain::Water)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["raider_of_the_deep"])], &[]), player(vec![alpha(&["shadow_ranger"])], &[])],
        vec![unit(0, 0, h(0, 0))],
    );
    activate(&mut s, 0, h(0, 0));
    mv(&mut s, 0, h(1, 0));
    end(&mut s, 0);
    assert_eq!(life(&s, 0, 0), 9);
}

#[test]
fn multi_target_attack_defender_chooses_the_casualty() {
    // T-MULTI-1: pool 5/12, Fire Strike hits two units of that Alpha.
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut w = alpha(&["savage_warrior"]);
    w.life = Some(2);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["shadow_ranger", "fire_strike"])], &[]), player(vec![w], &[])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0)), unit(1, 0, h(2, -1))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("fire_strike".into(), 1);
    let (a, b2) = (unit_at(&s, h(2, 0)), unit_at(&s, h(2, -1)));
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_on_unit("fire_strike", a));
    assert_eq!(life(&s, 1, 0), 12, "the pool refills; the rest of the attack is ignored");
    assert_eq!(Duel::status(&s), Status::Waiting { seats: vec![1] });
    rejected(&mut s, 0, DuelAction::EndActivation, "casualty_pending");
    rejected(&mut s, 1, DuelAction::ChooseCasualty { unit: 999 }, "not_a_candidate");
    ok(&mut s, 1, DuelAction::ChooseCasualty { unit: b2 });
    assert!(s.game.unit(b2).is_none() && s.game.unit(a).is_some());
    assert_eq!(life(&s, 1, 0), 12);
}

// ------------------------------------------------------------ relics and winning

#[test]
fn relics_are_carried_one_hex_per_turn_and_two_win() {
    let b = board(&[], [h(0, 0), h(2, 0), h(-4, 4)]);
    let w = || alpha(&["savage_warrior", "karoos_blade"]);
    let mut s = scenario(
        b,
        0,
        [player(vec![w()], &[]), player(vec![w()], &[])],
        vec![unit(0, 0, h(0, 0)), unit(0, 0, h(1, 1)), unit(1, 0, h(-3, -1))],
    );
    activate(&mut s, 0, h(0, 0));
    mv(&mut s, 0, h(1, 0));
    assert_eq!(s.game.relics_at(h(1, 0)), 1);
    // Golden rule 2: the relic moved once this turn; it can't be passed on.
    let act = DuelAction::PassRelic { to: unit_at(&s, h(1, 1)) };
    rejected(&mut s, 0, act, "relic_moved");
    end(&mut s, 0);
    end_turn(&mut s, 0);
    end_turn(&mut s, 1);
    // Next turn: moving onto the second relic holds two: an immediate win.
    activate(&mut s, 0, h(1, 0));
    mv(&mut s, 0, h(2, 0));
    assert_eq!(s.game.phase, Phase::Finished { outcome: Outcome::Win { seat: 0 } });
}

#[test]
fn a_relic_may_be_left_behind_or_passed_to_a_friend() {
    let b = board(&[], [h(0, 0), h(2, 2), h(-4, 4)]);
    let w = || alpha(&["savage_warrior"]);
    let mut s = scenario(
        b,
        0,
        [player(vec![w(), alpha(&["forsaken_drake"])], &[]), player(vec![w()], &[])],
        vec![unit(0, 0, h(0, 0)), unit(0, 0, h(1, 0)), unit(0, 1, h(0, 1)), unit(1, 0, h(-3, -1))],
    );
    let mut t = s.clone();
    activate(&mut t, 0, h(0, 0));
    ok(&mut t, 0, DuelAction::Move { to: h(-1, 0), carry_relic: Some(false) });
    assert_eq!(t.game.relics_at(h(0, 0)), 1);
    activate(&mut s, 0, h(0, 0));
    let act = DuelAction::PassRelic { to: unit_at(&s, h(0, 1)) };
    rejected(&mut s, 0, act, "bad_receiver");
    let act = DuelAction::PassRelic { to: unit_at(&s, h(1, 0)) };
    ok(&mut s, 0, act);
    assert_eq!(s.game.relics_at(h(1, 0)), 1);
    assert_eq!(s.game.activation.as_ref().unwrap().a, 0);
}

#[test]
fn a_flying_unit_over_two_relics_does_not_win() {
    let b = board(&[], [h(0, 0), h(0, 0), h(-4, 4)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["forsaken_drake"])], &[]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(1, 0)), unit(1, 0, h(-3, -1))],
    );
    activate(&mut s, 0, h(1, 0));
    mv(&mut s, 0, h(0, 0));
    assert_eq!(s.game.phase, Phase::Command);
}

// ------------------------------------------------------------ flying targets

#[test]
fn flying_targets_three_exceptions() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior", "karoos_blade", "throwing_axe"]), alpha(&["forsaken_drake"])], &[]),
            player(vec![alpha(&["forsaken_drake", "mining_tools"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(0, 1, h(1, -1)), unit(1, 0, h(1, 0))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("throwing_axe".into(), 1);
    let d = unit_at(&s, h(1, 0));
    let mut t = s.clone();
    activate(&mut t, 0, h(0, 0));
    rejected(&mut t, 0, power_on_unit("karoos_blade", d), "flying_target");
    // 1. range more than 1.
    ok(&mut t, 0, power_on_unit("throwing_axe", d));
    // 2. the activated unit flies too.
    let mut t = s.clone();
    activate(&mut t, 0, h(1, -1));
    ok(&mut t, 0, power_on_unit("forsaken_drake", d));
    // 3. the flier used a power on a hex or a non-flying unit in its last activation.
    let mut t = s.clone();
    end_turn(&mut t, 0);
    activate(&mut t, 1, h(1, 0));
    ok(&mut t, 1, power_on_hex("mining_tools", h(2, 0)));
    end(&mut t, 1);
    end_turn(&mut t, 1);
    activate(&mut t, 0, h(0, 0));
    ok(&mut t, 0, power_on_unit("karoos_blade", d));
}

// ------------------------------------------------------------ forced movement and terrain

#[test]
fn forced_movement_crush_fall_and_drown() {
    let b = board(
        &[(h(1, 0), Terrain::Hill), (h(2, 0), Terrain::Water), (h(0, 2), Terrain::Hill)],
        [h(-4, 0), h(-4, 1), h(-4, 2)],
    );
    let uf = |unit, dir| DuelAction::CastDi {
        target: Target { unit: Some(unit), direction: Some(dir), ..Default::default() },
        at: None,
    };
    let mk = || {
        scenario(
            b.clone(),
            0,
            [
                player(vec![alpha(&["savage_warrior"])], &["unnatural_force"]),
                player(vec![alpha(&["savage_warrior"])], &[]),
            ],
            vec![unit(1, 0, h(1, 0)), unit(1, 0, h(0, 1)), unit(0, 0, h(-5, 0))],
        )
    };
    // Hill into water: falls (3) and drowns (5): 8 in all.
    let mut s = mk();
    let on_hill = unit_at(&s, h(1, 0));
    ok(&mut s, 0, uf(on_hill, 0));
    assert_eq!(s.game.unit(on_hill).unwrap().hex, h(3, 0), "pushed two hexes, through the water");
    assert_eq!(life(&s, 1, 0), 12 - 8);
    // Into a higher level: stays and is crushed (3).
    let mut s = mk();
    let low = unit_at(&s, h(0, 1));
    ok(&mut s, 0, uf(low, 5)); // (0,1) -> (0,2) hill
    assert_eq!(s.game.unit(low).unwrap().hex, h(0, 1));
    assert_eq!(life(&s, 1, 0), 9);
    // Into another unit: crushed.
    let mut s = mk();
    let low = unit_at(&s, h(0, 1));
    ok(&mut s, 0, uf(low, 1)); // (0,1) -> (1,0) occupied
    assert_eq!(life(&s, 1, 0), 9);
    // Off the board: crushed.
    let mut s = mk();
    let edge = unit_at(&s, h(-5, 0));
    ok(&mut s, 0, uf(edge, 3));
    assert_eq!(life(&s, 0, 0), 9);
}

#[test]
fn craters_next_to_water_flood_and_occupants_drown() {
    let b = board(&[(h(1, 0), Terrain::Water)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["forsaken_drake", "mining_tools"])], &[]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(-1, 0)), unit(1, 0, h(0, 0))],
    );
    activate(&mut s, 0, h(-1, 0));
    ok(&mut s, 0, power_on_hex("mining_tools", h(0, 0)));
    assert_eq!(s.game.grid.terrain(h(0, 0)), Some(Terrain::Water), "the crater floods at once");
    assert_eq!(life(&s, 1, 0), 12 - 3 - 5, "falls into the crater, then drowns as it floods");
}

#[test]
fn terrain_powers_leave_the_occupant_otherwise_alone() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["spell_binder", "terraforming"])], &[]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    activate(&mut s, 0, h(0, 0));
    ok(
        &mut s,
        0,
        DuelAction::UsePower {
            card: "terraforming".into(),
            power: 0,
            target: Target { hex: Some(h(1, 0)), terrain: Some(Terrain::Crater), ..Default::default() },
        },
    );
    assert_eq!(s.game.grid.terrain(h(1, 0)), Some(Terrain::Crater));
    assert_eq!(life(&s, 1, 0), 12, "no fall damage from Terraforming");
}

// ------------------------------------------------------------ divine interventions

#[test]
fn only_the_top_di_one_per_turn_discards_are_free() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior"])], &["dispel_magic", "lightning_bolt", "athilian_strength"]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0))],
    );
    let (mine, theirs) = (unit_at(&s, h(0, 0)), unit_at(&s, h(2, 0)));
    ok(&mut s, 0, DuelAction::DiscardDi { count: 1 });
    let lb = athlas_engine::duel::card::Catalogue::standard().di_card("lightning_bolt").unwrap().clone();
    ok(&mut s, 0, DuelAction::CastDi { target: Target { unit: Some(theirs), ..Default::default() }, at: None });
    let lost = match lb.effects[0] {
        athlas_engine::duel::card::Effect::LoseLife { amount } => amount,
        _ => panic!("lightning bolt loses life"),
    };
    assert_eq!(life(&s, 1, 0), 12 - lost);
    rejected(
        &mut s,
        0,
        DuelAction::CastDi { target: Target { unit: Some(mine), ..Default::default() }, at: None },
        "one_di_per_turn",
    );
    // The opponent sees the count, never the cards.
    let v = Duel::view(&s, Viewer::Seat(1));
    assert_eq!((v.players[0].di_count, v.players[0].di_stack.clone()), (1, None));
    let v = Duel::view(&s, Viewer::Seat(0));
    assert_eq!(v.players[0].di_stack, Some(vec!["athilian_strength".into()]));
}

#[test]
fn a_response_di_resolves_first() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior"])], &["lightning_bolt"]),
            player(vec![alpha(&["savage_warrior"])], &["teleport"]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0))],
    );
    let theirs = unit_at(&s, h(2, 0));
    ok(&mut s, 0, DuelAction::CastDi { target: Target { unit: Some(theirs), ..Default::default() }, at: None });
    assert_eq!(s.pending.as_ref().map(|p| p.caster), Some(0));
    rejected(&mut s, 0, DuelAction::EndTurn, "di_pending");
    // Paul answers with Teleport: his unit moves first, the bolt still hits it (a unit target).
    let ev = ok(
        &mut s,
        1,
        DuelAction::CastDi {
            target: Target { unit: Some(theirs), dest: Some(h(3, 0)), ..Default::default() },
            at: None,
        },
    );
    let order: Vec<&str> = ev
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::DiResolved { card, .. } => Some(&**card),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec!["teleport", "lightning_bolt"]);
    assert!(s.pending.is_none());
}

#[test]
fn duration_cubes_leave_at_every_upkeep() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        1,
        [
            player(vec![alpha(&["savage_warrior"])], &[]),
            player(vec![alpha(&["savage_warrior", "karoos_blade"])], &["athilian_strength"]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    let w = unit_at(&s, h(1, 0));
    ok(&mut s, 1, DuelAction::CastDi { target: Target { unit: Some(w), ..Default::default() }, at: None });
    let cat = Catalogue::standard();
    let bonus = |s: &athlas_engine::duel::DuelState| {
        s.game
            .unit(w)
            .map(|u| s.game.attack_value(cat, Some(u), AttackKind::Melee, 5, s.game.unit_at(h(0, 0)).unwrap(), false))
    };
    assert_eq!(bonus(&s), Some(5 + 1 + 3));
    // Cast in turn T with 6 cubes: active through T..T+5, gone at the upkeep of T+6.
    let mut left = vec![];
    for _ in 0..6 {
        let seat = s.game.active;
        end_turn(&mut s, seat);
        left.push(s.game.active_dis.first().map_or(0, |d| d.cubes));
    }
    assert_eq!(left, vec![5, 4, 3, 2, 1, 0]);
    assert_eq!(bonus(&s), Some(6), "the marker left with the card");
}

#[test]
fn levitate_lasts_until_the_casters_next_upkeep() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["spell_binder", "levitate"])], &[]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(0, 0)), unit(0, 0, h(1, 0)), unit(1, 0, h(-3, 0))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("levitate".into(), 2);
    let cat = Catalogue::standard();
    let target = unit_at(&s, h(1, 0));
    let range = cat.card("levitate").unwrap().range;
    activate(&mut s, 0, h(0, 0));
    let t = if range.is_some() { power_on_unit("levitate", target) } else { power_self("levitate") };
    ok(&mut s, 0, t);
    let who = if range.is_some() { target } else { unit_at(&s, h(0, 0)) };
    let flies = |s: &athlas_engine::duel::DuelState| s.game.is_flying(cat, s.game.unit(who).unwrap());
    assert!(flies(&s));
    end(&mut s, 0);
    end_turn(&mut s, 0);
    assert!(flies(&s), "still flying in the opponent's turn");
    end_turn(&mut s, 1);
    assert!(!flies(&s), "lost at the caster's next upkeep");
}

/// DI Timing Example (L894-914): the opponent may time a DI before the move,
/// between the move and the attack, or after the attack.
#[test]
fn di_timed_into_the_activation_rewinds_to_that_moment() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mk = || {
        scenario(
            b.clone(),
            1,
            [
                player(vec![alpha(&["shadow_ranger"])], &["unnatural_force"]),
                player(vec![alpha(&["savage_warrior", "karoos_blade"])], &[]),
            ],
            vec![unit(1, 0, h(0, 0)), unit(0, 0, h(2, 0))],
        )
    };
    let base = mk();
    let paul = unit_at(&base, h(0, 0));
    let brians = unit_at(&base, h(2, 0));
    let play = |s: &mut athlas_engine::duel::DuelState| {
        activate(s, 1, h(0, 0));
        mv(s, 1, h(1, 0));
        ok(s, 1, power_on_unit("karoos_blade", brians));
        ok(s, 1, DuelAction::EndActivation);
    };
    let push_back = |at| DuelAction::CastDi {
        target: Target { unit: Some(paul), direction: Some(3), ..Default::default() },
        at: Some(at),
    };
    // (a) before the move: Paul's unit has its whole activation again.
    let mut s = mk();
    play(&mut s);
    assert_eq!(life(&s, 0, 0), 10 - 6);
    assert_eq!(s.window, Some(0));
    ok(&mut s, 0, push_back(0));
    assert_eq!(life(&s, 0, 0), 10, "the attack never happened");
    assert_eq!(s.game.unit(paul).unwrap().hex, h(-2, 0));
    let act = s.game.activation.clone().unwrap();
    assert_eq!((act.m, act.a, act.ended), (1, 1, false));
    // (b) after the move, before the attack: the m is spent, the a is free.
    let mut s = mk();
    play(&mut s);
    ok(&mut s, 0, push_back(1));
    let act = s.game.activation.clone().unwrap();
    assert_eq!((act.m, act.a), (0, 1));
    assert_eq!(s.game.unit(paul).unwrap().hex, h(-1, 0));
    // (c) after the attack: the attack stands.
    let mut s = mk();
    play(&mut s);
    ok(&mut s, 0, push_back(2));
    assert_eq!(life(&s, 0, 0), 4);
    // Once the next unit activates, the previous activation is out of reach.
    let mut s = mk();
    play(&mut s);
    ok(&mut s, 0, DuelAction::Pass);
    assert!(s.game.activation.is_none());
    rejected(&mut s, 0, push_back(0), "bad_checkpoint");
    // The active player cannot rewind its own activation.
    let mut s = mk();
    s.game.player_mut(1).di_stack = vec!["unnatural_force".into()];
    activate(&mut s, 1, h(0, 0));
    rejected(&mut s, 1, push_back(0), "bad_timing");
}

#[test]
fn stasis_stops_all_damage() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior", "karoos_blade"])], &["stasis_field"]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    let t = unit_at(&s, h(1, 0));
    ok(&mut s, 0, DuelAction::CastDi { target: Target { unit: Some(t), ..Default::default() }, at: None });
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_on_unit("karoos_blade", t));
    assert_eq!(life(&s, 1, 0), 12);
}

// ------------------------------------------------------------ card clarifications

#[test]
fn regeneration_heals_two_per_turn_however_many_units() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut a = alpha(&["savage_warrior", "regeneration"]);
    a.life = Some(5);
    let mut s = scenario(
        b,
        1,
        [player(vec![a], &[]), player(vec![alpha(&["shadow_ranger"])], &[])],
        vec![unit(0, 0, h(0, 0)), unit(0, 0, h(1, 0)), unit(0, 0, h(2, 0))],
    );
    end_turn(&mut s, 1);
    assert_eq!(life(&s, 0, 0), 7);
}

#[test]
fn weapon_lore_adds_one_when_only_lore_units_attack() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mk = |lore: bool| {
        let cards: Vec<&str> = if lore {
            vec!["savage_warrior", "karoos_blade", "weapon_lore"]
        } else {
            vec!["savage_warrior", "karoos_blade"]
        };
        scenario(
            b.clone(),
            0,
            [player(vec![alpha(&cards)], &[]), player(vec![alpha(&["savage_warrior", "rakios_battle_suit"])], &[])],
            vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
        )
    };
    for (lore, expected) in [(false, 12 - 3), (true, 12 - 4)] {
        let mut s = mk(lore);
        let t = unit_at(&s, h(1, 0));
        activate(&mut s, 0, h(0, 0));
        ok(&mut s, 0, power_on_unit("karoos_blade", t));
        assert_eq!(life(&s, 1, 0), expected, "weapon lore {lore}");
    }
}

#[test]
fn watch_towers_never_move_nor_hold_relics_and_deploy_anywhere() {
    let b = board(&[], [h(0, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["watch_tower"])], &["teleport"]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(1, 0, h(-3, 0))],
    );
    ok(&mut s, 0, DuelAction::Summon { alpha: 0, hex: h(0, 0), figure: None });
    let t = unit_at(&s, h(0, 0));
    assert!(!s.game.holds_relics(Catalogue::standard(), s.game.unit(t).unwrap()));
    rejected(
        &mut s,
        0,
        DuelAction::CastDi { target: Target { unit: Some(t), dest: Some(h(1, 0)), ..Default::default() }, at: None },
        "rooted",
    );
}

#[test]
fn paralyzing_venom_takes_the_m_not_the_a() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["forsaken_drake", "paralyzing_venom"])], &[]),
            player(vec![alpha(&["savage_warrior", "karoos_blade"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    let t = unit_at(&s, h(1, 0));
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_on_unit("paralyzing_venom", t));
    end(&mut s, 0);
    end_turn(&mut s, 0);
    activate(&mut s, 1, h(1, 0));
    rejected(&mut s, 1, DuelAction::Move { to: h(2, 0), carry_relic: None }, "cannot_move");
    let act = power_on_unit("karoos_blade", unit_at(&s, h(0, 0)));
    ok(&mut s, 1, act);
}

#[test]
fn item_needs_no_a_and_gives_another() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["spell_binder", "karoos_blade", "item"])], &[]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("item".into(), 1);
    let t = unit_at(&s, h(1, 0));
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_on_unit("karoos_blade", t));
    ok(&mut s, 0, power_self("item"));
    ok(&mut s, 0, power_on_unit("karoos_blade", t));
}

#[test]
fn controlled_units_act_for_the_controller_and_never_win_for_it() {
    let b = board(&[], [h(1, 0), h(2, 0), h(-4, 4)]);
    let cat = Catalogue::standard();
    let dm = cat.card("dark_mentalist").unwrap();
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["dark_mentalist"])], &[]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(-1, 0)), unit(1, 0, h(1, 0))],
    );
    if dm.cubes_per_summon > 0 {
        s.game.player_mut(0).alphas[0].cubes.insert("dark_mentalist".into(), 1);
    }
    let enemy = unit_at(&s, h(1, 0));
    let power = dm.powers.iter().position(|p| p.effects.contains(&athlas_engine::duel::card::Effect::Control)).unwrap();
    activate(&mut s, 0, h(-1, 0));
    ok(
        &mut s,
        0,
        DuelAction::UsePower {
            card: "dark_mentalist".into(),
            power,
            target: Target { unit: Some(enemy), ..Default::default() },
        },
    );
    end(&mut s, 0);
    // Seat 0 now activates the enemy unit and walks it onto the second relic: no win.
    ok(&mut s, 0, DuelAction::Activate { unit: enemy });
    mv(&mut s, 0, h(2, 0));
    assert_eq!(s.game.phase, Phase::Command);
    end(&mut s, 0);
    // At the end of the turn control returns, and the owner holds two relics? No:
    // the relic it held moved with it, so it now stands on both: its owner wins.
    end_turn(&mut s, 0);
    assert_eq!(s.game.units.iter().find(|u| u.id == enemy).unwrap().controller, 1);
    assert_eq!(s.game.phase, Phase::Finished { outcome: Outcome::Win { seat: 1 } });
}

#[test]
fn earthquake_needs_a_path_of_the_targets_terrain() {
    let b = board(
        &[(h(1, 0), Terrain::Hill), (h(2, 0), Terrain::Hill), (h(0, 2), Terrain::Hill)],
        [h(-4, 0), h(-4, 1), h(-4, 2)],
    );
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["spell_binder", "earthquake"])], &[]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0)), unit(1, 0, h(1, 1))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("earthquake".into(), 2);
    let range = Catalogue::standard().card("earthquake").unwrap().range.unwrap();
    let on_hill = unit_at(&s, h(2, 0));
    let on_plains = unit_at(&s, h(1, 1));
    activate(&mut s, 0, h(0, 0));
    assert!(range.contains(2), "the test board puts targets two hexes away");
    rejected(&mut s, 0, power_on_unit("earthquake", on_plains), "earthquake");
    ok(&mut s, 0, power_on_unit("earthquake", on_hill));
}

#[test]
fn necromantic_gauntlets_cost_life_that_cannot_be_avoided() {
    let cat = Catalogue::standard();
    let g = cat.card("necromantic_gauntlets").unwrap();
    let (pi, p) = g.powers.iter().enumerate().find(|(_, p)| p.cost.life > 0).unwrap();
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior", "necromantic_gauntlets"])], &["stasis_field"]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    let me = unit_at(&s, h(0, 0));
    ok(&mut s, 0, DuelAction::CastDi { target: Target { unit: Some(me), ..Default::default() }, at: None });
    activate(&mut s, 0, h(0, 0));
    let act = DuelAction::UsePower {
        card: g.id.clone(),
        power: pi,
        target: Target { unit: Some(unit_at(&s, h(1, 0))), ..Default::default() },
    };
    ok(&mut s, 0, act);
    assert_eq!(life(&s, 0, 0), 12 - p.cost.life, "even Stasis does not stop the sacrifice");
}

#[test]
fn summoned_copies_are_paid_by_the_controller() {
    let cat = Catalogue::standard();
    let banner = cat.card("banner_of_summoning").unwrap();
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["raider_of_the_deep", "banner_of_summoning"])], &[]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("banner_of_summoning".into(), 1);
    let cost = s.game.players[0].alphas[0].cost;
    activate(&mut s, 0, h(0, 0));
    ok(
        &mut s,
        0,
        DuelAction::UsePower {
            card: banner.id.clone(),
            power: 0,
            target: Target { dest: Some(h(1, 0)), ..Default::default() },
        },
    );
    assert_eq!(s.game.players[0].spent, cost);
    let copy = unit_at(&s, h(1, 0));
    end(&mut s, 0);
    rejected(&mut s, 0, DuelAction::Activate { unit: copy }, "just_summoned");
}

#[test]
fn draws_are_only_by_agreement_and_resigning_ends_the_game() {
    let mut s = started(0);
    rejected(&mut s, 1, DuelAction::AcceptDraw, "no_draw_offer");
    ok(&mut s, 1, DuelAction::OfferDraw);
    rejected(&mut s, 1, DuelAction::AcceptDraw, "no_draw_offer");
    ok(&mut s, 0, DuelAction::DeclineDraw);
    assert_eq!(s.game.phase, Phase::Command);
    ok(&mut s, 1, DuelAction::Resign);
    assert_eq!(s.game.phase, Phase::Finished { outcome: Outcome::Win { seat: 0 } });
}

#[test]
fn the_opponents_response_window_after_each_activation() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["savage_warrior"])], &[]), player(vec![alpha(&["savage_warrior"])], &["lightning_bolt"])],
        vec![unit(0, 0, h(0, 0)), unit(0, 0, h(2, 0)), unit(1, 0, h(-3, 0))],
    );
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, DuelAction::EndActivation);
    assert_eq!(Duel::status(&s), Status::Waiting { seats: vec![1] });
    assert_eq!(Duel::timeout_action(&s), Some((1, DuelAction::TimedOut)), "the timer passes, told as such");
    let act = DuelAction::Activate { unit: unit_at(&s, h(2, 0)) };
    rejected(&mut s, 0, act, "response_window");
    ok(&mut s, 1, DuelAction::Pass);
    // With auto-pass the window is skipped.
    ok(&mut s, 1, DuelAction::SetAutoPass { on: true });
    activate(&mut s, 0, h(2, 0));
    ok(&mut s, 0, DuelAction::EndActivation);
    assert_eq!(s.window, None);
}

// ------------------------------------------------------------ more DIs and clarifications

fn di_on(unit: u32) -> DuelAction {
    DuelAction::CastDi { target: Target { unit: Some(unit), ..Default::default() }, at: None }
}

#[test]
fn a_forced_carrier_leaves_a_relic_that_already_moved() {
    let b = board(&[], [h(0, 0), h(3, -3), h(-4, 4)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["savage_warrior"])], &[]), player(vec![alpha(&["savage_warrior"])], &["unnatural_force"])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-4, 0))],
    );
    let carrier = unit_at(&s, h(0, 0));
    activate(&mut s, 0, h(0, 0));
    mv(&mut s, 0, h(1, 0));
    assert_eq!(s.game.relics_at(h(1, 0)), 1, "carried one hex");
    // Paul pushes the carrier on: the relic already moved this turn, so it stays.
    let act = DuelAction::CastDi {
        target: Target { unit: Some(carrier), direction: Some(0), ..Default::default() },
        at: None,
    };
    ok(&mut s, 1, act);
    assert_eq!(s.game.unit(carrier).unwrap().hex, h(3, 0));
    assert_eq!(s.game.relics_at(h(1, 0)), 1, "the relic was left behind");
}

#[test]
fn tsunami_grows_a_body_by_one_hex_per_water_hex() {
    // A body of two water hexes: it may add at most two hexes, each next to a
    // different hex of the body; inner hexes don't multiply.
    let b = board(&[(h(0, 0), Terrain::Water), (h(1, 0), Terrain::Water)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mk = || {
        scenario(
            b.clone(),
            0,
            [player(vec![alpha(&["savage_warrior"])], &["tsunami"]), player(vec![alpha(&["savage_warrior"])], &[])],
            vec![unit(1, 0, h(-1, 0))],
        )
    };
    let grow = |hexes: Vec<athlas_engine::hex::Hex>| DuelAction::CastDi {
        target: Target { hex: Some(h(0, 0)), hexes, ..Default::default() },
        at: None,
    };
    let mut s = mk();
    rejected(&mut s, 0, grow(vec![h(2, 0), h(3, 0)]), "bad_growth");
    rejected(&mut s, 0, grow(vec![h(-1, 1), h(0, 1), h(-1, 0)]), "bad_growth");
    ok(&mut s, 0, grow(vec![h(-1, 0), h(2, 0)]));
    assert_eq!(s.game.grid.terrain(h(2, 0)), Some(Terrain::Water));
    assert_eq!(life(&s, 1, 0), 7, "the unit whose hex became water drowns");
}

#[test]
fn flood_makes_up_to_four_hexes_water() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["savage_warrior"])], &["flood"]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![],
    );
    let f = |hexes: Vec<athlas_engine::hex::Hex>| DuelAction::CastDi {
        target: Target { hexes, ..Default::default() },
        at: None,
    };
    rejected(&mut s, 0, f(vec![h(0, 0), h(1, 0), h(2, 0), h(3, 0), h(4, 0)]), "bad_hexes");
    ok(&mut s, 0, f(vec![h(0, 0), h(3, 0), h(-2, 2), h(1, -4)]));
    assert_eq!(s.game.grid.iter().filter(|(_, t)| *t == Terrain::Water).count(), 4);
}

/// Every subset of `from` with at most `k` hexes, the empty one first.
fn subsets(from: &[athlas_engine::hex::Hex], k: usize) -> Vec<Vec<athlas_engine::hex::Hex>> {
    let mut out = vec![vec![]];
    for h in from {
        let more: Vec<_> = out.iter().filter(|s| s.len() < k).map(|s| [s.clone(), vec![*h]].concat()).collect();
        out.extend(more);
    }
    out
}

#[test]
fn flood_is_listed_once_as_a_choice_of_up_to_four_hexes_and_every_such_choice_applies() {
    // "Up to 4 hexes anywhere" (L1469-1471): one legal entry to choose from,
    // not one entry per hex.
    let b = board(&[(h(2, 2), Terrain::Crater)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mk = || {
        scenario(
            b.clone(),
            0,
            [player(vec![alpha(&["savage_warrior"])], &["flood"]), player(vec![alpha(&["savage_warrior"])], &[])],
            vec![unit(1, 0, h(1, 0))],
        )
    };
    let s = mk();
    let floods: Vec<DuelAction> =
        Duel::legal(&s, 0).into_iter().filter(|a| matches!(a, DuelAction::CastDi { .. })).collect();
    assert_eq!(floods.len(), 1, "one Flood entry: {floods:?}");
    let entry = &floods[0];
    let c = entry.hex_choice().expect("the entry offers a choice of hexes");
    assert_eq!((c.at_least, c.up_to), (1, 4));
    assert_eq!(c.from.len(), s.game.grid.hexes().count(), "any hex of the board");
    rejected(&mut mk(), 0, entry.clone(), "listed_choice");
    let words = Duel::action_words(&s, 0, std::slice::from_ref(entry));
    assert_eq!(words[0]["text"], "Cast Flood: choose up to 4 hexes");
    // Every choice of 1 to 4 of these hexes (a crater, an occupied hex and
    // plains among them) applies and floods exactly those hexes.
    let some = [h(0, 0), h(1, 0), h(2, 2), h(-3, 3), h(4, -4), h(0, -2), h(-1, 1)];
    let mut tried = 0;
    for hexes in subsets(&some, 4).into_iter().filter(|s| !s.is_empty()) {
        let send = entry.with_hexes(hexes.clone()).expect("a choice the entry offers");
        let mut s = mk();
        ok(&mut s, 0, send);
        for x in &hexes {
            assert_eq!(s.game.grid.terrain(*x), Some(Terrain::Water), "{x} of {hexes:?}");
        }
        tried += 1;
    }
    assert_eq!(tried, 7 + 21 + 35 + 35);
    assert!(entry.with_hexes(some[..5].to_vec()).is_none() && entry.with_hexes(vec![]).is_none());
    assert!(entry.with_hexes(vec![h(0, 0), h(0, 0)]).is_none(), "each hex once");
}

#[test]
fn tsunami_is_listed_per_water_hex_as_a_choice_each_next_to_a_different_water_hex() {
    // L1729-1734 (facts rule 156): each water hex of the body may add one
    // hex next to it. The entry's rule (`allows`) is exactly what applies.
    let b = board(&[(h(0, 0), Terrain::Water), (h(1, 0), Terrain::Water)], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mk = || {
        scenario(
            b.clone(),
            0,
            [player(vec![alpha(&["savage_warrior"])], &["tsunami"]), player(vec![alpha(&["savage_warrior"])], &[])],
            vec![unit(1, 0, h(-1, 0))],
        )
    };
    let legal: Vec<DuelAction> =
        Duel::legal(&mk(), 0).into_iter().filter(|a| matches!(a, DuelAction::CastDi { .. })).collect();
    let named: Vec<_> = legal
        .iter()
        .map(|a| match a {
            DuelAction::CastDi { target, .. } => target.hex.unwrap(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(named, vec![h(0, 0), h(1, 0)], "one entry per water hex: {legal:?}");
    let entry = &legal[0];
    let c = entry.hex_choice().unwrap();
    assert_eq!(c.next_to_distinct, vec![h(0, 0), h(1, 0)]);
    assert_eq!((c.at_least, c.up_to, c.from.len()), (0, 2, 8), "{c:?}");
    let mut refused = 0;
    for hexes in subsets(&c.from, 3) {
        let mut s = mk();
        let mut send = entry.clone();
        if let DuelAction::CastDi { target, .. } = &mut send {
            target.choose = None;
            target.hexes = hexes.clone();
        }
        let accepted = Duel::apply(&mut s, 0, send).is_ok();
        assert_eq!(accepted, c.allows(&hexes), "{hexes:?}");
        assert_eq!(accepted, entry.with_hexes(hexes.clone()).is_some());
        refused += usize::from(!accepted);
    }
    assert!(refused > 56, "every three, and two next to the same water hex only, are refused ({refused})");
}

#[test]
fn polymorph_self_only_on_a_unit_you_own() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["savage_warrior"])], &["polymorph_self"]), player(vec![alpha(&["savage_warrior"])], &[])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(2, 0))],
    );
    let (mine, theirs) = (unit_at(&s, h(0, 0)), unit_at(&s, h(2, 0)));
    // Even a controlled enemy unit is not yours to polymorph.
    s.game.unit_mut(theirs).unwrap().controller = 0;
    rejected(&mut s, 0, di_on(theirs), "not_owned");
    ok(&mut s, 0, di_on(mine));
    assert!(s.game.is_flying(Catalogue::standard(), s.game.unit(mine).unwrap()));
}

#[test]
fn paralysis_stops_m_and_a_but_the_unit_can_still_be_attacked() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior", "karoos_blade"])], &["paralysis"]),
            player(vec![alpha(&["savage_warrior", "karoos_blade"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    let (mine, theirs) = (unit_at(&s, h(0, 0)), unit_at(&s, h(1, 0)));
    ok(&mut s, 0, di_on(theirs));
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_on_unit("karoos_blade", theirs));
    assert_eq!(life(&s, 1, 0), 6);
    end(&mut s, 0);
    end_turn(&mut s, 0);
    activate(&mut s, 1, h(1, 0));
    rejected(&mut s, 1, DuelAction::Move { to: h(2, 0), carry_relic: None }, "cannot_move");
    rejected(&mut s, 1, power_on_unit("karoos_blade", mine), "paralyzed");
}

#[test]
fn time_warp_gives_an_extra_move_and_shift_relic_one_hex() {
    let b = board(&[], [h(0, 0), h(3, -3), h(-4, 4)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior"])], &["time_warp", "shift_relic"]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(1, 1)), unit(1, 0, h(-4, 0))],
    );
    let u = unit_at(&s, h(1, 1));
    ok(&mut s, 0, di_on(u));
    activate(&mut s, 0, h(1, 1));
    mv(&mut s, 0, h(1, 2));
    mv(&mut s, 0, h(1, 3));
    end(&mut s, 0);
    end_turn(&mut s, 0);
    end_turn(&mut s, 1);
    let shift = |dest| DuelAction::CastDi {
        target: Target { hex: Some(h(0, 0)), dest: Some(dest), ..Default::default() },
        at: None,
    };
    rejected(&mut s, 0, shift(h(2, 0)), "bad_dest");
    ok(&mut s, 0, shift(h(1, 0)));
    assert_eq!(s.game.relics_at(h(1, 0)), 1);
}

#[test]
fn dispel_magic_ends_markers_and_lasting_dis() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior"])], &["athilian_strength"]),
            player(vec![alpha(&["savage_warrior"])], &["dispel_magic"]),
        ],
        vec![unit(0, 0, h(0, 0))],
    );
    let u = unit_at(&s, h(0, 0));
    ok(&mut s, 0, di_on(u));
    ok(&mut s, 1, DuelAction::Pass);
    assert_eq!(s.game.active_dis.len(), 1);
    end_turn(&mut s, 0);
    ok(&mut s, 1, di_on(u));
    assert!(s.game.active_dis.is_empty() && s.game.unit(u).unwrap().markers.is_empty());
}

#[test]
fn heroic_inspiration_lifts_friendly_units_around_the_caster() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["spell_binder", "heroic_inspiration"]), alpha(&["savage_warrior"])], &[]),
            player(vec![alpha(&["savage_warrior"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(0, 1, h(1, 0)), unit(0, 1, h(3, 0)), unit(1, 0, h(-1, 0))],
    );
    let cat = Catalogue::standard();
    s.game.player_mut(0).alphas[0].cubes.insert("heroic_inspiration".into(), 1);
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_self("heroic_inspiration"));
    let g = &s.game;
    let target = g.unit_at(h(-1, 0)).unwrap();
    let v = |hex| g.attack_value(cat, Some(g.unit_at(hex).unwrap()), AttackKind::Melee, 5, target, false);
    assert!(v(h(1, 0)) > 6, "next to the caster: inspired");
    assert_eq!(v(h(3, 0)), 6, "too far: not inspired");
    assert!(g.unit_at(h(-1, 0)).unwrap().markers.is_empty(), "enemies are not inspired");
}

#[test]
fn explosive_genes_hurt_the_neighbours_of_a_dying_unit() {
    let cat = Catalogue::standard();
    let amount = cat.card("explosive_genes").unwrap().passives.iter().find_map(|p| match p {
        athlas_engine::duel::card::Passive::ExplosiveGenes { amount } => Some(*amount),
        _ => None,
    });
    let amount = amount.expect("Explosive Genes is a passive of ExplosiveGenes");
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut bomb = alpha(&["savage_warrior", "explosive_genes"]);
    bomb.life = Some(1);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior", "karoos_blade"])], &[]),
            player(vec![bomb, alpha(&["shadow_ranger"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0)), unit(1, 1, h(2, 0))],
    );
    activate(&mut s, 0, h(0, 0));
    let act = power_on_unit("karoos_blade", unit_at(&s, h(1, 0)));
    ok(&mut s, 0, act);
    assert_eq!(life(&s, 0, 0), 12 - amount, "the attacker next to it");
    assert_eq!(life(&s, 1, 1), 10 - amount, "and any other neighbour");
}

#[test]
fn rain_burst_brings_a_flier_down_and_drowns_it_over_water() {
    let cat = Catalogue::standard();
    let rb = cat.card("rain_burst").unwrap();
    let b = board(&[(h(1, 0), Terrain::Water)], [h(1, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["spell_binder", "rain_burst"])], &[]), player(vec![alpha(&["forsaken_drake"])], &[])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    s.game.player_mut(0).alphas[0].cubes.insert("rain_burst".into(), 1);
    let d = unit_at(&s, h(1, 0));
    assert!(rb.range.is_some_and(|r| r.max > 1), "Rain Burst reaches fliers by its range");
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_on_unit("rain_burst", d));
    let u = s.game.unit(d).unwrap();
    assert!(!s.game.is_flying(cat, u), "golden rule 4: grounded wins over flying");
    assert_eq!(life(&s, 1, 0), 8 - 5, "drowned");
    assert!(!s.game.holds_relics(cat, u), "a flier brought down does not take the relic");
}
