//! How a duel ended, as every view tells it (`ending`): which unit took
//! two relics and where, who resigned, a draw agreed; nothing while the
//! game goes on. The end screen says it in words.

use crate::common::*;
use athlas_engine::duel::{Duel, DuelAction, DuelState, Ending};
use athlas_engine::{Outcome, Ruleset, Status, Viewer};

fn views(s: &DuelState) -> Vec<Option<Ending>> {
    [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator].into_iter().map(|v| Duel::view(s, v).ending).collect()
}

/// A unit of seat 0 next to the relics at (1,0) and (2,0), one of seat 1 far away.
fn relic_race() -> DuelState {
    let b = board(&[], [h(1, 0), h(2, 0), h(-4, 4)]);
    let w = || alpha(&["savage_warrior", "karoos_blade"]);
    scenario(b, 0, [player(vec![w()], &[]), player(vec![w()], &[])], vec![unit(0, 0, h(0, 0)), unit(1, 0, h(-3, -1))])
}

#[test]
fn a_relic_win_names_the_unit_and_its_hex() {
    let mut s = relic_race();
    assert_eq!(views(&s), vec![None, None, None], "no ending while the game goes on");
    let walker = unit_at(&s, h(0, 0));
    activate(&mut s, 0, h(0, 0));
    mv(&mut s, 0, h(1, 0));
    end(&mut s, 0);
    end_turn(&mut s, 0);
    end_turn(&mut s, 1);
    activate(&mut s, 0, h(1, 0));
    mv(&mut s, 0, h(2, 0));
    assert_eq!(Duel::status(&s), Status::Finished(Outcome::Win { seat: 0 }));
    let won = Some(Ending::Relics { seat: 0, unit: walker, hex: h(2, 0) });
    assert_eq!(views(&s), vec![won.clone(), won.clone(), won]);
    let json = serde_json::to_value(Duel::view(&s, Viewer::Spectator)).unwrap();
    assert_eq!(json["ending"], serde_json::json!({"how": "relics", "seat": 0, "unit": walker, "hex": [2, 0]}));
}

#[test]
fn a_resignation_names_who_resigned_even_beside_a_relic() {
    // Seat 0's unit stands on one relic: a win needs two, so this is no relic win.
    let mut s = relic_race();
    activate(&mut s, 0, h(0, 0));
    mv(&mut s, 0, h(1, 0));
    ok(&mut s, 0, DuelAction::Resign);
    assert_eq!(Duel::status(&s), Status::Finished(Outcome::Win { seat: 1 }));
    assert_eq!(views(&s), vec![Some(Ending::Resigned { seat: 0 }); 3]);
    // In the Creation Phase, before any unit: the same.
    let mut s = Duel::start(&Default::default(), 9).unwrap();
    ok(&mut s, 1, DuelAction::Resign);
    assert_eq!(views(&s), vec![Some(Ending::Resigned { seat: 1 }); 3]);
}

#[test]
fn an_accepted_draw_is_a_draw_agreed() {
    let mut s = relic_race();
    ok(&mut s, 1, DuelAction::OfferDraw);
    assert_eq!(views(&s), vec![None, None, None]);
    ok(&mut s, 0, DuelAction::AcceptDraw);
    assert_eq!(Duel::status(&s), Status::Finished(Outcome::Draw));
    assert_eq!(views(&s), vec![Some(Ending::DrawAgreed); 3]);
    let json = serde_json::to_value(Duel::view(&s, Viewer::Seat(0))).unwrap();
    assert_eq!(json["ending"], serde_json::json!({"how": "draw_agreed"}));
}
