//! The rulebook's text held against the engine, on cases the play-testing
//! review found (issue 10). Line numbers refer to
//! ../shared/rules/duel-for-divinity.txt; each test quotes what it checks.

mod common;
use athlas_engine::duel::card::Terrain;
use athlas_engine::duel::event::EventKind;
use athlas_engine::duel::state::Phase;
use athlas_engine::duel::{Duel, DuelAction, Target};
use athlas_engine::{Outcome, Ruleset, Viewer};
use common::*;

fn push(unit: u32, direction: u8, distance: Option<u32>, carry_relic: Option<bool>) -> Target {
    Target { unit: Some(unit), direction: Some(direction), distance, carry_relic, ..Default::default() }
}

fn cast(target: Target) -> DuelAction {
    DuelAction::CastDi { target, at: None }
}

// ------------------------------------------------------------ forced movement and relics

/// L174-176 "If one of your units holds two relic tokens, you win
/// immediately." L1117-1118 "When a non-flying unit is in a hex with a relic,
/// the unit has that relic." L1195-1197 "If a unit is holding a relic and is
/// forced to move, it can carry the relic with it". So a holder pushed two
/// hexes through the hex of the second relic holds both on the way: the win
/// comes there, before the second hex.
#[test]
fn a_relic_holder_pushed_through_the_second_relic_wins_on_the_way() {
    let b = board(&[], [h(0, 0), h(1, 0), h(-4, 4)]);
    let mk = |pusher_di: [&[&str]; 2]| {
        scenario(
            b.clone(),
            0,
            [
                player(vec![alpha(&["savage_warrior"])], pusher_di[0]),
                player(vec![alpha(&["savage_warrior"])], pusher_di[1]),
            ],
            vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))],
        )
    };
    // Seat 0 pushes its own holder two hexes along +q, through [1,0].
    let mut s = mk([&["unnatural_force"], &[]]);
    let holder = unit_at(&s, h(0, 0));
    ok(&mut s, 0, cast(push(holder, 0, None, None)));
    assert_eq!(s.game.phase, Phase::Finished { outcome: Outcome::Win { seat: 0 } });
    assert_eq!(s.game.unit(holder).unwrap().hex, h(1, 0), "the game ended on the hex of the second relic");
    // The opponent's push does the same: the holder's owner wins.
    let mut s = mk([&[], &["unnatural_force"]]);
    ok(&mut s, 1, cast(push(holder, 0, None, None)));
    assert_eq!(s.game.phase, Phase::Finished { outcome: Outcome::Win { seat: 0 } });
}

/// L1195-1197 "it can carry the relic with it, as decided by its controller";
/// Unnatural Force and the Telekinetic Sphere force a unit "up to 2 hexes"
/// (cards.json), so the pushing player chooses 1 or 2.
#[test]
fn the_pusher_chooses_the_distance_and_the_controller_the_relic() {
    let b = board(&[], [h(0, 0), h(4, -4), h(-4, 4)]);
    let mk = |di: [&[&str]; 2]| {
        scenario(
            b.clone(),
            0,
            [player(vec![alpha(&["savage_warrior"])], di[0]), player(vec![alpha(&["savage_warrior"])], di[1])],
            vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))],
        )
    };
    let mut s = mk([&["unnatural_force"], &[]]);
    let holder = unit_at(&s, h(0, 0));
    for bad in [0, 3] {
        rejected(&mut s, 0, cast(push(holder, 0, Some(bad), None)), "bad_distance");
    }
    // One hex, leaving the relic behind: the controller's choice.
    let mut one = s.clone();
    ok(&mut one, 0, cast(push(holder, 0, Some(1), Some(false))));
    assert_eq!(one.game.unit(holder).unwrap().hex, h(1, 0));
    assert_eq!(one.game.relics_at(h(0, 0)), 1, "left behind as its controller decided");
    // One hex, carrying it (the default).
    ok(&mut s, 0, cast(push(holder, 0, Some(1), None)));
    assert_eq!(s.game.unit(holder).unwrap().hex, h(1, 0));
    assert_eq!(s.game.relics_at(h(1, 0)), 1);
    // The opponent pushes but does not control the holder: it may not decide
    // for it; the relic goes along.
    let mut s = mk([&[], &["unnatural_force"]]);
    rejected(&mut s, 1, cast(push(holder, 0, None, Some(false))), "not_your_relic");
    ok(&mut s, 1, cast(push(holder, 0, None, None)));
    assert_eq!(s.game.unit(holder).unwrap().hex, h(2, 0));
    assert_eq!(s.game.relics_at(h(1, 0)), 1, "carried on the first hex only (golden rule 2, L739-740)");
    // Every choice is listed in `legal`: both distances, and for the pusher's
    // own holder both relic decisions.
    let s = mk([&["unnatural_force"], &[]]);
    let legal = Duel::view(&s, Viewer::Seat(0)).legal;
    for t in [push(holder, 0, None, None), push(holder, 0, Some(1), None), push(holder, 0, Some(1), Some(false))] {
        assert!(legal.contains(&cast(t.clone())), "{t:?} is not listed");
    }
}

/// A DI the opponent may answer is checked whole when cast: a bad distance is
/// refused then, not lost when it resolves after the answer.
#[test]
fn an_answerable_di_with_a_bad_choice_is_refused_at_once() {
    let b = board(&[], [h(0, 0), h(4, -4), h(-4, 4)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior"])], &["unnatural_force"]),
            player(vec![alpha(&["savage_warrior"])], &["lightning_bolt"]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))],
    );
    let enemy = unit_at(&s, h(-3, -1));
    rejected(&mut s, 0, cast(push(enemy, 0, Some(5), None)), "bad_distance");
    rejected(&mut s, 0, cast(Target { unit: Some(enemy), ..Default::default() }), "missing_direction");
}

// ------------------------------------------------------------ discards stand

/// L818-823 "If a player wishes, he can discard any number of cards from the
/// top of the stack at any time ... Discarded cards are removed from the game
/// without any effect." A DI the opponent times into the activation rewinds
/// the game, but never brings back a card the active player discarded; a DI
/// the active player cast since then is undone and goes back on top.
#[test]
fn a_rewind_never_brings_back_a_discarded_card() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut s = scenario(
        b,
        1,
        [
            player(vec![alpha(&["savage_warrior"])], &["unnatural_force"]),
            player(vec![alpha(&["savage_warrior"])], &["dispel_magic", "lightning_bolt", "athilian_strength"]),
        ],
        vec![unit(1, 0, h(0, 0)), unit(0, 0, h(3, 0))],
    );
    let pauls = unit_at(&s, h(0, 0));
    let brians = unit_at(&s, h(3, 0));
    activate(&mut s, 1, h(0, 0));
    mv(&mut s, 1, h(1, 0));
    ok(&mut s, 1, DuelAction::DiscardDi { count: 1 });
    ok(&mut s, 1, cast(Target { unit: Some(brians), ..Default::default() }));
    ok(&mut s, 0, DuelAction::Pass);
    assert_eq!(s.game.players[1].di_stack, vec!["athilian_strength".into()]);
    ok(&mut s, 1, DuelAction::EndActivation);
    // Brian times Unnatural Force at the activation's start.
    ok(&mut s, 0, DuelAction::CastDi { target: push(pauls, 3, None, None), at: Some(0) });
    assert_eq!(
        s.game.players[1].di_stack,
        vec!["lightning_bolt".into(), "athilian_strength".into()],
        "the discarded Dispel Magic stays out of the game; the undone Lightning Bolt is back"
    );
    let v = Duel::view(&s, Viewer::Seat(0));
    assert_eq!(v.players[1].di_count, 2);
}

// ------------------------------------------------------------ weapon lore

/// L1593-1597 "Weapon Lore: This ability is meaningful when a unit is
/// attacked only by units with Weapon Lore during a given turn. In such a case
/// the total damage suffered by the unit will be increased by 1." A later
/// attack by a unit without it, in the same turn, takes the point away.
#[test]
fn weapon_lore_is_taken_back_by_a_later_attack_without_it() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    // Savage warriors, 12 life, Rakios Battle Suit: 3 physical armor.
    let mk = |lore: bool| {
        let lore_alpha = if lore {
            alpha(&["savage_warrior", "karoos_blade", "weapon_lore"])
        } else {
            alpha(&["savage_warrior", "karoos_blade"])
        };
        scenario(
            b.clone(),
            0,
            [
                player(vec![lore_alpha, alpha(&["shadow_ranger", "etynian_crossbow"])], &[]),
                player(vec![alpha(&["savage_warrior", "rakios_battle_suit"])], &[]),
            ],
            vec![unit(0, 0, h(0, 0)), unit(0, 1, h(-1, 0)), unit(1, 0, h(1, 0))],
        )
    };
    for (lore, after_first, after_both) in [(true, 12 - 4, 12 - 8), (false, 12 - 3, 12 - 8)] {
        let mut s = mk(lore);
        let t = unit_at(&s, h(1, 0));
        // Karoos Blade 5 + 1 (genus) - 3 armor = 3, and 1 more for Weapon Lore.
        activate(&mut s, 0, h(0, 0));
        ok(&mut s, 0, power_on_unit("karoos_blade", t));
        assert_eq!(life(&s, 1, 0), after_first, "weapon lore {lore}, first attack");
        end(&mut s, 0);
        // Crossbow 4 + 1 (genus), no armor left: 5. The unit was not attacked
        // only by Weapon Lore units this turn: 3 + 5 = 8 in all, not 9.
        activate(&mut s, 0, h(-1, 0));
        ok(&mut s, 0, power_on_unit("etynian_crossbow", t));
        assert_eq!(life(&s, 1, 0), after_both, "weapon lore {lore}, both attacks");
    }
}

/// The point is given back even when the later attack does no damage.
#[test]
fn weapon_lore_point_is_given_back_when_the_later_attack_is_absorbed() {
    let b = board(&[], [h(-4, 0), h(-4, 1), h(-4, 2)]);
    let mut binder = alpha(&["spell_binder", "magic_bolt"]);
    binder.cubes.insert("magic_bolt".into(), 1);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior", "karoos_blade", "weapon_lore"]), binder], &[]),
            // 5 physical and 4 magical armor.
            player(vec![alpha(&["savage_warrior", "rakios_battle_suit", "warding_amulet", "tower_shield"])], &[]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(0, 1, h(1, 1)), unit(1, 0, h(1, 0))],
    );
    let t = unit_at(&s, h(1, 0));
    activate(&mut s, 0, h(0, 0));
    ok(&mut s, 0, power_on_unit("karoos_blade", t));
    assert_eq!(life(&s, 1, 0), 12 - 2, "6 - 5 armor = 1, and 1 for Weapon Lore");
    end(&mut s, 0);
    activate(&mut s, 0, h(1, 1));
    let events = ok(&mut s, 0, power_on_unit("magic_bolt", t));
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Attacked { damage: 0, .. })));
    assert_eq!(life(&s, 1, 0), 12 - 1, "only the blade's 1 damage stands");
}

// ------------------------------------------------------------ the terrain the pushed unit meets

/// The win on the way is checked after the hex's own losses: a holder that
/// drowns on the relic hex holds nothing there (L1091 "Immediately upon
/// entering a water hex").
#[test]
fn a_holder_that_dies_entering_the_relic_hex_does_not_win() {
    let b = board(&[(h(1, 0), Terrain::Water)], [h(0, 0), h(1, 0), h(-4, 4)]);
    let mut weak = alpha(&["savage_warrior"]);
    weak.life = Some(5);
    let mut s = scenario(
        b,
        0,
        [player(vec![weak], &[]), player(vec![alpha(&["savage_warrior"])], &["unnatural_force"])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))],
    );
    let holder = unit_at(&s, h(0, 0));
    ok(&mut s, 1, cast(push(holder, 0, None, None)));
    assert_eq!(s.game.phase, Phase::Command);
    assert!(s.game.unit(holder).is_none(), "drowned");
    assert_eq!(s.game.relics_at(h(1, 0)), 2);
}
