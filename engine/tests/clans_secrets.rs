//! What each seat keeps to itself: its unplayed cards (a teammate too sees
//! only the counts, ASSUMPTIONS "Secrets") and its placement until every
//! seat has placed; and the secret the server commits to
//! (`Ruleset::locked_secret`): locked at the seat's placement, unchanged to
//! the end, so the commitment opens to it.

use crate::clans_support::*;
use athlas_engine::clans::bot::{seat_to_act, GreedyBot};
use athlas_engine::clans::{stacks, Clans, ClansAction, ClansOptions};
use athlas_engine::{Ruleset, Seat, Viewer};
use serde_json::json;

fn four() -> ClansOptions {
    ClansOptions {
        clans: ["sacred_cross", "crimson_nobles", "crimson_nobles", "sacred_cross"].map(String::from).to_vec(),
        first_player: Some(0),
        max_turns: Some(40),
        ..ClansOptions::default()
    }
}

#[test]
fn the_secret_is_locked_at_placement_and_never_changes() {
    for options in [ClansOptions { max_turns: Some(40), ..ClansOptions::default() }, four()] {
        let mut s = Clans::start(&options, 11).unwrap();
        let n = s.players.len() as Seat;
        for seat in 0..n {
            assert_eq!(Clans::locked_secret(&s, seat), None, "nothing is locked before placing");
        }
        let mut locked: Vec<Option<serde_json::Value>> = vec![None; n as usize];
        let mut bot = GreedyBot::new(11);
        for _ in 0..2000 {
            let Some(seat) = seat_to_act(&s) else { break };
            let a = bot.pick(&s, cat(), seat).unwrap();
            Clans::apply(&mut s, seat, a.clone()).unwrap();
            if let ClansAction::Place { homebase, god } = a {
                let clan = cat().clan(&s.players[seat as usize].clan).unwrap();
                let (allies, tactics) = stacks(clan);
                let want = json!({
                    "clan": clan.id, "allies": allies, "tactics": tactics,
                    "homebase": homebase, "god": god,
                });
                assert_eq!(Clans::locked_secret(&s, seat), Some(want.clone()));
                locked[seat as usize] = Some(want);
            }
            for q in 0..n {
                assert_eq!(Clans::locked_secret(&s, q), locked[q as usize], "seat {q}'s secret changed");
            }
        }
        assert!(s.finished(), "the game ends (the turn limit at the latest)");
        assert!(locked.iter().all(Option::is_some));
    }
}

#[test]
fn a_teammate_a_foe_and_a_spectator_see_only_the_counts_of_a_seats_stacks() {
    let mut s = game_with(four());
    // Seat 0 plays a card: the counts change, the rest stays secret.
    let (card, at) = Clans::legal(&s, 0)
        .into_iter()
        .find_map(|a| match a {
            ClansAction::Summon { card, at } => Some((card, at)),
            _ => None,
        })
        .expect("an ally can be summoned");
    ok(&mut s, 0, ClansAction::Summon { card: card.clone(), at });
    let own = Clans::view(&s, Viewer::Seat(0));
    let hand = own.hand.as_ref().expect("a seat sees its own hand");
    assert_eq!(hand.allies, s.players[0].allies);
    assert_eq!(hand.tactics, s.players[0].tactics);
    for v in [Viewer::Seat(2), Viewer::Seat(1), Viewer::Seat(3), Viewer::Spectator] {
        let view = Clans::view(&s, v);
        let p0 = &view.players[0];
        assert_eq!((p0.allies_left, p0.tactics_left), (s.players[0].allies.len(), s.players[0].tactics.len()));
        let text = serde_json::to_string(&view).unwrap();
        // Seat 0's unplayed cards (Sacred Cross; seat 3 holds the same list,
        // so its own view is checked only for seat 0's tactics order).
        if v != Viewer::Seat(3) {
            for c in s.players[0].allies.iter().chain(&s.players[0].tactics) {
                assert!(!text.contains(&format!("\"{c}\"")), "{v:?} sees seat 0's unplayed {c}");
            }
        }
        // The played card is public.
        assert!(text.contains(&format!("\"{card}\"")), "{v:?} sees the summoned {card}");
        match v {
            Viewer::Seat(q) => assert_eq!(view.hand.unwrap().allies, s.players[q as usize].allies),
            _ => assert!(view.hand.is_none()),
        }
    }
}

#[test]
fn a_placement_is_hidden_from_teammates_until_all_have_placed() {
    let mut s = Clans::start(&four(), 5).unwrap();
    let (hb, god) = default_place(&s, 0);
    ok(&mut s, 0, ClansAction::Place { homebase: hb, god });
    assert_eq!(Clans::view(&s, Viewer::Seat(0)).players[0].homebase, Some(hb));
    for v in [Viewer::Seat(2), Viewer::Seat(1), Viewer::Spectator] {
        let p0 = &Clans::view(&s, v).players[0];
        assert!(p0.placed && p0.homebase.is_none() && p0.god_at.is_none(), "{v:?} sees seat 0's placement");
    }
    for seat in 1..4 {
        let (hb, god) = default_place(&s, seat);
        ok(&mut s, seat, ClansAction::Place { homebase: hb, god });
    }
    assert_eq!(Clans::view(&s, Viewer::Spectator).players[0].homebase, Some(hb));
}
