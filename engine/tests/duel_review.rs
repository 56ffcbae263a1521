//! The rulebook's text held against the engine, on cases the play-testing
//! review found (issue 10). Line numbers refer to
//! ../shared/rules/duel-for-divinity.txt; each test quotes what it checks.

use crate::common;
use athlas_engine::duel::card::Terrain;
use athlas_engine::duel::event::EventKind;
use athlas_engine::duel::state::Phase;
use athlas_engine::duel::{Duel, DuelAction, Target};
use athlas_engine::{Outcome, Ruleset, Status, Viewer};
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
    // The opponent's push: the holder's controller decides (L1195-1197).
    // Carrying the relic, its owner wins on the way; leaving it, the unit
    // holds one relic there and goes on.
    let mut s = mk([&[], &["unnatural_force"]]);
    ok(&mut s, 1, cast(push(holder, 0, None, None)));
    let mut leave = s.clone();
    ok(&mut s, 0, DuelAction::CarryRelic { carry: true });
    assert_eq!(s.game.phase, Phase::Finished { outcome: Outcome::Win { seat: 0 } });
    ok(&mut leave, 0, DuelAction::CarryRelic { carry: false });
    assert_eq!(leave.game.phase, Phase::Command);
    assert_eq!(leave.game.unit(holder).unwrap().hex, h(2, 0));
    assert_eq!((leave.game.relics_at(h(0, 0)), leave.game.relics_at(h(1, 0))), (1, 1));
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
    // for it in its action (its controller answers, see the next test).
    let mut s = mk([&[], &["unnatural_force"]]);
    rejected(&mut s, 1, cast(push(holder, 0, None, Some(false))), "not_your_relic");
    // Every choice is listed in `legal`: both distances, and for the pusher's
    // own holder both relic decisions.
    let s = mk([&["unnatural_force"], &[]]);
    let legal = Duel::view(&s, Viewer::Seat(0)).legal;
    for t in [push(holder, 0, None, None), push(holder, 0, Some(1), None), push(holder, 0, Some(1), Some(false))] {
        assert!(legal.contains(&cast(t.clone())), "{t:?} is not listed");
    }
}

fn carry(carry: bool) -> DuelAction {
    DuelAction::CarryRelic { carry }
}

/// L1195-1197 "If a unit is holding a relic and is forced to move, it can
/// carry the relic with it, as decided by its controller". When the other
/// seat pushes it, the push waits for the controller's answer.
#[test]
fn an_enemy_relic_holder_pushed_waits_for_its_controller() {
    let b = board(&[], [h(0, 0), h(4, -4), h(-4, 4)]);
    let mut s = scenario(
        b,
        0,
        [player(vec![alpha(&["savage_warrior"])], &[]), player(vec![alpha(&["savage_warrior"])], &["unnatural_force"])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))],
    );
    let holder = unit_at(&s, h(0, 0));
    let events = ok(&mut s, 1, cast(push(holder, 0, None, None)));
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::RelicChoiceAwaited { seat: 0, unit } if unit == holder)));
    assert_eq!(s.game.unit(holder).unwrap().hex, h(0, 0), "the push waits for the answer");
    assert_eq!(Duel::status(&s), Status::Waiting { seats: vec![0] });
    assert_eq!(Duel::timeout_action(&s), None, "no timer answers for the controller");
    let v = Duel::view(&s, Viewer::Seat(0));
    assert_eq!(v.waiting_for, vec![0]);
    assert_eq!(v.relic_choice.as_ref().map(|c| (c.seat, c.unit)), Some((0, holder)));
    // Both answers, and otherwise only what a seat may do at any time.
    assert!(v.legal.contains(&carry(true)) && v.legal.contains(&carry(false)), "{:?}", v.legal);
    assert!(
        v.legal.iter().all(|a| matches!(a, DuelAction::CarryRelic { .. } | DuelAction::OfferDraw)),
        "{:?}",
        v.legal
    );
    let v1 = Duel::view(&s, Viewer::Seat(1));
    assert_eq!(v1.legal, vec![DuelAction::OfferDraw]);
    // The pusher may not answer for it, and the game does not go on meanwhile.
    rejected(&mut s, 1, carry(false), "not_your_choice");
    rejected(&mut s, 0, DuelAction::Activate { unit: holder }, "relic_choice_pending");
    rejected(&mut s, 0, DuelAction::EndTurn, "relic_choice_pending");
    // Each answer: the relic goes along on the first hex (golden rule 2,
    // L739-740), or stays.
    let mut leave = s.clone();
    let events = ok(&mut s, 0, carry(true));
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::RelicCarryChosen { seat: 0, carry: true, .. })));
    assert_eq!(s.game.unit(holder).unwrap().hex, h(2, 0));
    assert_eq!((s.game.relics_at(h(0, 0)), s.game.relics_at(h(1, 0))), (0, 1));
    ok(&mut leave, 0, carry(false));
    assert_eq!(leave.game.unit(holder).unwrap().hex, h(2, 0));
    assert_eq!((leave.game.relics_at(h(0, 0)), leave.game.relics_at(h(1, 0))), (1, 0));
    for st in [&s, &leave] {
        assert_eq!(Duel::status(st), Status::Waiting { seats: vec![0] });
        assert!(st.game.relic_choice.is_none());
    }
    rejected(&mut s, 0, carry(true), "no_relic_choice");
}

/// The controller is asked only when its answer could matter: a holder
/// crushed where it stands, or whose relic already moved this turn (L1197-1200
/// "unless the relic has already moved that turn"), is pushed at once.
#[test]
fn no_relic_choice_when_the_relic_cannot_go_along() {
    let b = board(&[], [h(0, 0), h(4, -4), h(-4, 4)]);
    let mk = || {
        scenario(
            b.clone(),
            0,
            [
                player(vec![alpha(&["savage_warrior"])], &[]),
                player(vec![alpha(&["savage_warrior"])], &["unnatural_force"]),
            ],
            vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
        )
    };
    // Crushed against the enemy at [1,0]: it does not move.
    let mut s = mk();
    let holder = unit_at(&s, h(0, 0));
    ok(&mut s, 1, cast(push(holder, 0, None, None)));
    assert!(s.game.relic_choice.is_none());
    assert_eq!(life(&s, 0, 0), 12 - 3);
    // The relic moved with it this turn: it stays behind.
    let mut s = mk();
    activate(&mut s, 0, h(0, 0));
    mv(&mut s, 0, h(0, 1));
    ok(&mut s, 1, cast(push(holder, 0, Some(1), None)));
    assert!(s.game.relic_choice.is_none());
    assert_eq!(s.game.unit(holder).unwrap().hex, h(1, 1));
    assert_eq!(s.game.relics_at(h(0, 1)), 1);
}

/// A push by a unit's power (the Telekinetic Sphere) is resolved only when
/// the controller has answered: the power's checkpoint, which the opponent
/// may time a DI at, is the position after the push; no DI comes in between.
#[test]
fn a_power_push_waiting_for_the_relic_choice_is_one_checkpoint() {
    let b = board(&[], [h(1, 0), h(4, -4), h(-4, 4)]);
    let mut sphere = alpha(&["savage_warrior", "telekinetic_sphere"]);
    sphere.cubes.insert("telekinetic_sphere".into(), 2);
    let mut s = scenario(
        b,
        0,
        [player(vec![sphere], &[]), player(vec![alpha(&["savage_warrior"])], &["lightning_bolt"])],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(1, 0))],
    );
    let (pusher, holder) = (unit_at(&s, h(0, 0)), unit_at(&s, h(1, 0)));
    activate(&mut s, 0, h(0, 0));
    let use_sphere =
        DuelAction::UsePower { card: "telekinetic_sphere".into(), power: 0, target: push(holder, 0, None, None) };
    ok(&mut s, 0, use_sphere);
    assert_eq!(Duel::status(&s), Status::Waiting { seats: vec![1] });
    assert_eq!(s.checkpoints.len(), 1, "the power is not resolved yet");
    let bolt = |at| DuelAction::CastDi { target: Target { unit: Some(pusher), ..Default::default() }, at };
    rejected(&mut s, 1, bolt(Some(0)), "relic_choice_pending");
    ok(&mut s, 1, carry(false));
    assert_eq!(s.checkpoints.len(), 2);
    assert_eq!(s.checkpoints[1].unit(holder).unwrap().hex, h(3, 0));
    assert_eq!(s.checkpoints[1].relics_at(h(1, 0)), 1);
    // Timed after the power, the DI finds the push done.
    ok(&mut s, 0, DuelAction::EndActivation);
    ok(&mut s, 1, bolt(Some(1)));
    assert_eq!(s.game.unit(holder).unwrap().hex, h(3, 0));
    assert_eq!(s.game.relics_at(h(1, 0)), 1);
}

/// A response that pushes an enemy holder waits for its controller too; the
/// DI it answered resolves after that ("a response resolves first").
#[test]
fn a_response_push_waits_and_the_answered_di_resolves_after() {
    let b = board(&[], [h(0, 0), h(4, -4), h(-4, 4)]);
    let mut s = scenario(
        b,
        0,
        [
            player(vec![alpha(&["savage_warrior"])], &["lightning_bolt"]),
            player(vec![alpha(&["savage_warrior"])], &["unnatural_force"]),
        ],
        vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))],
    );
    let (holder, enemy) = (unit_at(&s, h(0, 0)), unit_at(&s, h(-3, -1)));
    ok(&mut s, 0, cast(Target { unit: Some(enemy), ..Default::default() }));
    ok(&mut s, 1, cast(push(holder, 0, Some(1), None)));
    assert_eq!(Duel::status(&s), Status::Waiting { seats: vec![0] });
    assert!(s.pending.is_some(), "the Lightning Bolt still waits");
    assert_eq!(Duel::timeout_action(&s), None);
    rejected(&mut s, 0, DuelAction::Pass, "relic_choice_pending");
    let events = ok(&mut s, 0, carry(true));
    let moved = events.iter().position(|e| matches!(e.kind, EventKind::Moved { .. })).expect("moved");
    let resolved = events.iter().position(|e| matches!(e.kind, EventKind::DiResolved { .. })).expect("resolved");
    assert!(moved < resolved, "the response first");
    assert!(s.pending.is_none());
    assert_eq!(life(&s, 1, 0), 12 - 3);
    assert_eq!(s.game.relics_at(h(1, 0)), 1);
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
    ok(&mut s, 0, carry(true));
    assert_eq!(s.game.phase, Phase::Command);
    assert!(s.game.unit(holder).is_none(), "drowned");
    assert_eq!(s.game.relics_at(h(1, 0)), 2);
}
