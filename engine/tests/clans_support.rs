//! Scenario helpers for the clans tests: a game past placement, figures put
//! on chosen tiles, terrain set by hand, and checked apply helpers.
#![allow(dead_code)]

use athlas_engine::clans::content::Catalogue;
use athlas_engine::clans::grid::{Pos, Terrain};
use athlas_engine::clans::state::{Figure, FigureId};
use athlas_engine::clans::ClansRefusal;
use athlas_engine::clans::{Clans, ClansAction, ClansEvent, ClansOptions, ClansState};
use athlas_engine::refusal::Refusal;
use athlas_engine::{RuleError, Ruleset, Seat};

pub fn cat() -> &'static Catalogue {
    Catalogue::standard()
}

/// A 1v1 game (Sacred Cross seat 0, Crimson Nobles seat 1) after placement,
/// seat 0 to play its first turn, the field all ground, no figure but the Gods
/// (seat 0's God at (0,15), seat 1's at (11,0), far from everything).
pub fn game() -> ClansState {
    game_with(ClansOptions { first_player: Some(0), ..ClansOptions::default() })
}

pub fn game_with(options: ClansOptions) -> ClansState {
    let mut s = Clans::start(&options, 7).expect("start");
    let n = s.players.len() as Seat;
    for seat in 0..n {
        let (hb, god) = default_place(&s, seat);
        ok(&mut s, seat, ClansAction::Place { homebase: hb, god });
    }
    // Answer any window the first turn opened.
    while let Some(&w) = s.window.first() {
        ok(&mut s, w, ClansAction::Pass);
    }
    s
}

pub fn default_place(s: &ClansState, seat: Seat) -> (Pos, Pos) {
    let a: Vec<ClansAction> = Clans::legal(s, seat);
    match a.into_iter().next().expect("a placement") {
        ClansAction::Place { homebase, god } => (homebase, god),
        _ => unreachable!(),
    }
}

/// Every tile ground.
pub fn flatten(s: &mut ClansState) {
    for t in &mut s.field.tiles {
        *t = Terrain::Ground;
    }
}

pub fn set_tile(s: &mut ClansState, p: Pos, t: Terrain) {
    let w = s.field.width;
    s.field.tiles[(p.1 * w + p.0) as usize] = t;
}

/// Put a new figure of `card` for `owner` at `p`, ready to act this turn.
pub fn put(s: &mut ClansState, owner: Seat, card: &str, p: Pos) -> FigureId {
    let ally = cat().card(card).and_then(|c| c.ally()).expect("an ally card").clone();
    let id = s.next_figure;
    s.next_figure += 1;
    s.figures.push(Figure {
        id,
        owner,
        card: card.into(),
        pos: p,
        hp: ally.hp,
        equipment: None,
        statuses: Vec::new(),
        boosts: Vec::new(),
        summoned_turn: 0,
        steps_used: 0,
        acted: false,
        done: false,
        ot_used: false,
    });
    id
}

/// Move both Gods to far corners and set the homebases beside them, so a
/// scenario has the middle of the field to itself.
pub fn clear_middle(s: &mut ClansState) {
    flatten(s);
    let (w, h) = (s.field.width, s.field.height);
    let g0 = s.players[0].god;
    let g1 = s.players[1].god;
    s.figures.retain(|f| f.id == g0 || f.id == g1);
    fig_mut(s, g0).pos = Pos(0, h - 1);
    s.players[0].homebase = Some(Pos(1, h - 1));
    fig_mut(s, g1).pos = Pos(w - 1, 0);
    s.players[1].homebase = Some(Pos(w - 2, 0));
}

pub fn fig(s: &ClansState, id: FigureId) -> &Figure {
    s.figure(id).expect("figure on the field")
}

pub fn fig_mut(s: &mut ClansState, id: FigureId) -> &mut Figure {
    s.figure_mut(id).expect("figure on the field")
}

pub fn hp(s: &ClansState, id: FigureId) -> i32 {
    fig(s, id).hp
}

#[track_caller]
pub fn ok(s: &mut ClansState, seat: Seat, a: ClansAction) -> Vec<ClansEvent> {
    Clans::apply(s, seat, a.clone()).unwrap_or_else(|e| panic!("{a:?} by {seat} refused: {} {}", e.code, e.message))
}

/// Refused with `code`, the state unchanged.
#[track_caller]
pub fn refused(s: &mut ClansState, seat: Seat, a: ClansAction, code: ClansRefusal) -> RuleError {
    let before = serde_json::to_string(&*s).unwrap();
    let e = Clans::apply(s, seat, a.clone()).expect_err(&format!("{a:?} should be refused"));
    assert_eq!(e.code, code.code(), "{a:?}: {}", e.message);
    assert_eq!(serde_json::to_string(&*s).unwrap(), before, "a refusal changed the state");
    e
}

/// Close every response window by passing.
pub fn pass_all(s: &mut ClansState) {
    while let Some(&w) = s.window.first() {
        ok(s, w, ClansAction::Pass);
    }
}

/// End the active turn and every window, until `seat` is active.
pub fn turn_to(s: &mut ClansState, seat: Seat) {
    loop {
        pass_all(s);
        if s.active == seat {
            return;
        }
        let a = s.active;
        ok(s, a, ClansAction::EndTurn);
    }
}
