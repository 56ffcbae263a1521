//! Helpers shared by the duel tests.
#![allow(dead_code)]

use athlas_engine::duel::scenario::{Scenario, ScenarioAlpha, ScenarioPlayer, ScenarioUnit};
use athlas_engine::duel::state::{DuelOptions, DuelState, UnitId};
use athlas_engine::duel::{board::BoardLayout, card::Terrain, Duel, DuelAction, DuelEvent, Target};
use athlas_engine::hex::Hex;
use athlas_engine::{RuleError, Ruleset, Seat};

pub fn h(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

/// A radius-5 board, plains except the given terrain, relics where given.
pub fn board(terrain: &[(Hex, Terrain)], relics: [Hex; 3]) -> BoardLayout {
    BoardLayout {
        id: "test".into(),
        radius: 5,
        terrain: terrain.to_vec(),
        summoning: [(-5..=0).map(|q| h(q, 5)).collect(), (0..=5).map(|q| h(q, -5)).collect()],
        relics: relics.to_vec(),
    }
}

pub fn alpha(cards: &[&str]) -> ScenarioAlpha {
    ScenarioAlpha {
        cards: cards.iter().map(|s| (*s).into()).collect(),
        revealed: true,
        life: None,
        cubes: Default::default(),
    }
}

pub fn player(alphas: Vec<ScenarioAlpha>, di: &[&str]) -> ScenarioPlayer {
    ScenarioPlayer { alphas, di_stack: di.iter().map(|s| (*s).into()).collect(), spent: 0 }
}

pub fn unit(owner: Seat, alpha: usize, hex: Hex) -> ScenarioUnit {
    ScenarioUnit { owner, alpha, hex }
}

pub fn scenario(board: BoardLayout, active: Seat, players: [ScenarioPlayer; 2], units: Vec<ScenarioUnit>) -> DuelState {
    Scenario {
        options: DuelOptions { board: Some(board), ..DuelOptions::default() },
        turn: 10,
        active,
        players,
        units,
        relics: None,
    }
    .build(1)
    .expect("scenario builds")
}

#[track_caller]
pub fn ok(s: &mut DuelState, seat: Seat, a: DuelAction) -> Vec<DuelEvent> {
    match Duel::apply(s, seat, a.clone()) {
        Ok(e) => e,
        Err(e) => panic!("{a:?} by seat {seat} rejected: {e} ({})", e.code),
    }
}

/// The action is rejected with `code`, and the state is byte-for-byte unchanged.
#[track_caller]
pub fn rejected(s: &mut DuelState, seat: Seat, a: DuelAction, code: &str) -> RuleError {
    let before = serde_json::to_string(s).unwrap();
    let e = Duel::apply(s, seat, a.clone()).expect_err(&format!("{a:?} should be rejected"));
    assert_eq!(e.code, code, "{a:?}: {e}");
    assert_eq!(before, serde_json::to_string(s).unwrap(), "a rejected action changed the state");
    e
}

pub fn unit_at(s: &DuelState, hex: Hex) -> UnitId {
    s.game.unit_at(hex).unwrap_or_else(|| panic!("no unit at {hex}")).id
}

pub fn life(s: &DuelState, seat: Seat, alpha: usize) -> u32 {
    s.game.players[seat as usize].alphas[alpha].life
}

pub fn activate(s: &mut DuelState, seat: Seat, hex: Hex) {
    let id = unit_at(s, hex);
    ok(s, seat, DuelAction::Activate { unit: id });
}

pub fn mv(s: &mut DuelState, seat: Seat, to: Hex) {
    ok(s, seat, DuelAction::Move { to, carry_relic: None });
}

pub fn power_on_unit(card: &str, unit: UnitId) -> DuelAction {
    DuelAction::UsePower { card: card.into(), power: 0, target: Target { unit: Some(unit), ..Default::default() } }
}

pub fn power_on_hex(card: &str, hex: Hex) -> DuelAction {
    DuelAction::UsePower { card: card.into(), power: 0, target: Target { hex: Some(hex), ..Default::default() } }
}

pub fn power_self(card: &str) -> DuelAction {
    DuelAction::UsePower { card: card.into(), power: 0, target: Target::default() }
}

/// End the activation; the opponent's response window (if any) is passed.
pub fn end(s: &mut DuelState, seat: Seat) {
    ok(s, seat, DuelAction::EndActivation);
    if let Some(w) = s.window {
        ok(s, w, DuelAction::Pass);
    }
}

pub fn end_turn(s: &mut DuelState, seat: Seat) {
    ok(s, seat, DuelAction::EndTurn);
}
