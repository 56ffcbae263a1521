//! The book's Play-by-Play Example (L1244-1451), turn by turn, with every
//! life total it prints, ending in a draw offer that is accepted.
//! Brian (Forsaken Drakes) is seat 0, Paul (Savage Warriors) seat 1.
//! The book's map is missing; positions are chosen to fit every sentence.

use crate::common;
use athlas_engine::duel::card::Terrain;
use athlas_engine::duel::state::Phase;
use athlas_engine::duel::{DuelAction, Target};
use athlas_engine::Outcome;
use common::*;

const BRIAN: u8 = 0;
const PAUL: u8 = 1;

#[test]
fn play_by_play_example() {
    let ridge = h(1, -1);
    let hill_next_to_ridge = h(1, 0);
    let relic_a = h(0, 0); // warrior 3 stands on it
    let relic_b = h(2, 1); // next to warrior 1
    let b = board(&[(ridge, Terrain::Hill), (hill_next_to_ridge, Terrain::Hill)], [relic_a, relic_b, h(-3, 0)]);
    let mut warriors =
        alpha(&["savage_warrior", "karoos_blade", "obsidian_shield", "obsidian_breast_plate", "throwing_axe"]);
    warriors.life = Some(2);
    warriors.cubes.insert("throwing_axe".into(), 1);
    let mut drakes = alpha(&["forsaken_drake", "mining_tools", "rakios_battle_suit", "elixir_of_healing"]);
    drakes.cubes.insert("elixir_of_healing".into(), 1);
    let mut brian = player(vec![drakes], &["raise_earth"]);
    brian.spent = 250;
    let mut paul = player(vec![warriors], &["dispel_magic", "athilian_strength"]);
    paul.spent = 250;
    let (w1, w2, w3) = (h(3, 1), ridge, relic_a);
    let (d1, d2) = (h(3, 0), h(3, -2));
    let mut s = scenario(
        b,
        BRIAN,
        [brian, paul],
        vec![unit(PAUL, 0, w1), unit(PAUL, 0, w2), unit(PAUL, 0, w3), unit(BRIAN, 0, d1), unit(BRIAN, 0, d2)],
    );
    // Both players have spent all their summoning points.
    assert_eq!(s.game.players[0].spent, 250);
    // Paul already holds one relic.
    assert!(s.game.holds_relics(athlas_engine::duel::card::Catalogue::standard(), s.game.unit_at(w3).unwrap()));
    assert_eq!((life(&s, PAUL, 0), life(&s, BRIAN, 0)), (2, 8));
    assert_eq!((s.game.players[1].di_stack.len(), s.game.players[0].di_stack.len()), (2, 1));
    let (id_w1, id_w2, id_w3) = (unit_at(&s, w1), unit_at(&s, w2), unit_at(&s, w3));
    let (id_d1, id_d2) = (unit_at(&s, d1), unit_at(&s, d2));

    // Turn 1 - Brian. Drake 1 flies two hexes, bombs a crater under warrior 3.
    activate(&mut s, BRIAN, d1);
    mv(&mut s, BRIAN, hill_next_to_ridge);
    ok(&mut s, BRIAN, power_on_hex("mining_tools", relic_a));
    assert!(s.game.unit(id_w3).is_none(), "warrior 3 fell (3) with 2 life left and died");
    assert_eq!(life(&s, PAUL, 0), 12, "the warriors' pool is reset to a full 12");
    assert_eq!(s.game.grid.terrain(relic_a), Some(Terrain::Crater));
    assert_eq!(s.game.relics_at(relic_a), 1, "the relic stays in the new crater");
    assert!(s.game.grid.cliff_between(ridge, relic_a), "hill to crater: a cliff");
    end(&mut s, BRIAN);
    // Drake 2 advances and attacks warrior 2 on the ridge: 5 vs armor 2.
    activate(&mut s, BRIAN, d2);
    mv(&mut s, BRIAN, h(2, -1));
    ok(&mut s, BRIAN, power_on_unit("forsaken_drake", id_w2));
    assert_eq!(life(&s, PAUL, 0), 9, "no height bonus for a flying attacker: 5-2=3");
    end(&mut s, BRIAN);
    end_turn(&mut s, BRIAN);

    // Turn 2 - Paul. Warrior 1 takes the adjacent relic and throws the last axe at drake 1.
    activate(&mut s, PAUL, w1);
    mv(&mut s, PAUL, relic_b);
    assert!(s.game.holds_relics(athlas_engine::duel::card::Catalogue::standard(), s.game.unit(id_w1).unwrap()));
    ok(&mut s, PAUL, power_on_unit("throwing_axe", id_d1));
    assert_eq!(life(&s, BRIAN, 0), 8, "3 against armor 3: no damage");
    assert_eq!(s.game.players[1].alphas[0].cubes["throwing_axe"], 0);
    end(&mut s, PAUL);
    // Warrior 2 hits the drake whose armor is spent: Karoos Blade 5+1 = 6.
    activate(&mut s, PAUL, w2);
    ok(&mut s, PAUL, power_on_unit("karoos_blade", id_d1));
    assert_eq!(life(&s, BRIAN, 0), 2);
    // It cannot move to the adjacent hill (drake 1 is there) nor climb down (a spent).
    rejected(&mut s, PAUL, DuelAction::Move { to: hill_next_to_ridge, carry_relic: None }, "occupied");
    rejected(&mut s, PAUL, DuelAction::Move { to: h(0, -1), carry_relic: None }, "no_a");
    end(&mut s, PAUL);
    end_turn(&mut s, PAUL);

    // Turn 3 - Brian. Drake 1 stays and drinks the last Elixir of Healing.
    activate(&mut s, BRIAN, hill_next_to_ridge);
    ok(&mut s, BRIAN, power_self("elixir_of_healing"));
    assert_eq!(life(&s, BRIAN, 0), 7);
    assert_eq!(s.game.players[0].alphas[0].cubes["elixir_of_healing"], 0);
    end(&mut s, BRIAN);
    activate(&mut s, BRIAN, h(2, -1));
    ok(&mut s, BRIAN, power_on_unit("forsaken_drake", id_w2));
    assert_eq!(life(&s, PAUL, 0), 6);
    rejected(&mut s, BRIAN, DuelAction::Move { to: h(3, -2), carry_relic: None }, "flew_after_a");
    end(&mut s, BRIAN);
    end_turn(&mut s, BRIAN);

    // Turn 4 - Paul. Drake 1 acted on nothing but itself: warrior 1 cannot reach it.
    activate(&mut s, PAUL, relic_b);
    mv(&mut s, PAUL, h(1, 1));
    rejected(&mut s, PAUL, power_on_unit("karoos_blade", id_d1), "flying_target");
    rejected(&mut s, PAUL, power_on_unit("throwing_axe", id_d1), "no_cube");
    assert_eq!(s.game.relics_at(h(1, 1)), 1, "warrior 1 carried its relic");
    end(&mut s, PAUL);
    activate(&mut s, PAUL, w2);
    ok(&mut s, PAUL, power_on_unit("karoos_blade", id_d2));
    assert_eq!(life(&s, BRIAN, 0), 4, "6-3=3");
    end(&mut s, PAUL);
    end_turn(&mut s, PAUL);

    // Turn 5 - Brian. Both drakes attack warrior 2: 3 then 5, and it dies.
    activate(&mut s, BRIAN, hill_next_to_ridge);
    ok(&mut s, BRIAN, power_on_unit("forsaken_drake", id_w2));
    assert_eq!(life(&s, PAUL, 0), 3);
    end(&mut s, BRIAN);
    activate(&mut s, BRIAN, h(2, -1));
    ok(&mut s, BRIAN, power_on_unit("forsaken_drake", id_w2));
    assert!(s.game.unit(id_w2).is_none());
    assert_eq!(life(&s, PAUL, 0), 12);
    end(&mut s, BRIAN);
    end_turn(&mut s, BRIAN);

    // Turn 6 - Paul discards Dispel Magic and casts Athilian Strength on warrior 1.
    ok(&mut s, PAUL, DuelAction::DiscardDi { count: 1 });
    ok(&mut s, PAUL, DuelAction::CastDi { target: Target { unit: Some(id_w1), ..Default::default() }, at: None });
    // Brian may answer with his own DI; he passes.
    assert_eq!(athlas_engine::duel::Duel::status_of(&s), athlas_engine::Status::Waiting { seats: vec![BRIAN] });
    ok(&mut s, BRIAN, DuelAction::Pass);
    assert_eq!(s.game.active_dis.len(), 1);
    assert_eq!(s.game.active_dis[0].cubes, 6);
    // Without the DI the drake would take 6-3=3 and survive at 1:
    let mut without = s.clone();
    without.game.active_dis.clear();
    without.game.unit_mut(id_w1).unwrap().markers.clear();
    activate(&mut without, PAUL, h(1, 1));
    ok(&mut without, PAUL, power_on_unit("karoos_blade", id_d1));
    assert_eq!(life(&without, BRIAN, 0), 1);
    // With it: 5+1+3 = 9 against 3: drake 1 dies and the pool resets to 8.
    activate(&mut s, PAUL, h(1, 1));
    ok(&mut s, PAUL, power_on_unit("karoos_blade", id_d1));
    assert!(s.game.unit(id_d1).is_none());
    assert_eq!(life(&s, BRIAN, 0), 8);
    end(&mut s, PAUL);
    end_turn(&mut s, PAUL);

    // Turn 7 - Brian. Upkeep: Athilian Strength loses a cube.
    assert_eq!(s.game.active_dis[0].cubes, 5);
    activate(&mut s, BRIAN, h(2, -1));
    mv(&mut s, BRIAN, h(2, 0));
    ok(&mut s, BRIAN, power_on_hex("mining_tools", h(1, 1)));
    assert_eq!(life(&s, PAUL, 0), 9, "the warrior falls and loses 3");
    assert_eq!(s.game.relics_at(h(1, 1)), 1, "it keeps its relic in the crater");
    end(&mut s, BRIAN);
    // Raise Earth: every hex around the pit becomes a hill.
    ok(&mut s, BRIAN, DuelAction::CastDi { target: Target { hex: Some(h(1, 1)), ..Default::default() }, at: None });
    for n in h(1, 1).neighbors() {
        assert_eq!(s.game.grid.terrain(n), Some(Terrain::Hill));
    }
    assert!(s.game.players.iter().all(|p| p.di_stack.is_empty()), "both DI stacks are empty");
    end_turn(&mut s, BRIAN);

    // The warrior is trapped: no passage from a crater to a hill...
    activate(&mut s, PAUL, h(1, 1));
    for n in h(1, 1).neighbors().filter(|n| *n != h(2, 0)) {
        rejected(&mut s, PAUL, DuelAction::Move { to: n, carry_relic: None }, "cliff");
    }
    // ...but it may attack the drake: fliers ignore terrain, and the drake acted on terrain.
    let mut probe = s.clone();
    ok(&mut probe, PAUL, power_on_unit("karoos_blade", id_d2));
    end(&mut s, PAUL);
    // Neither Athilian can win now: Brian offers a draw and Paul accepts.
    ok(&mut s, BRIAN, DuelAction::OfferDraw);
    ok(&mut s, PAUL, DuelAction::AcceptDraw);
    assert_eq!(s.game.phase, Phase::Finished { outcome: Outcome::Draw });
    rejected(&mut s, PAUL, DuelAction::EndTurn, "finished");
}
