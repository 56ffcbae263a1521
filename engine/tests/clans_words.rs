//! The clan battle in words (`clans::words`): every legal action and every
//! event of played games has its line, tiles are named as the board labels
//! them, players by their names, and no line tells a reader another seat's
//! unplayed card.

use crate::clans_support::*;
use athlas_engine::clans::bot::{seat_to_act, GreedyBot, RandomBot};
use athlas_engine::clans::grid::Pos;
use athlas_engine::clans::words::{tile, Group};
use athlas_engine::clans::{Clans, ClansAction, ClansEvent, ClansOptions, ClansState};
use athlas_engine::{Ruleset, Seat, SeatNames, Viewer, Visible};

#[test]
fn tiles_are_named_by_column_letter_and_row_number() {
    assert_eq!(tile(Pos(0, 0)), "a1");
    assert_eq!(tile(Pos(2, 11)), "c12");
    assert_eq!(tile(Pos(23, 15)), "x16");
}

fn names() -> SeatNames {
    SeatNames::new(vec![Some("Ann".into()), Some("Bob".into()), Some("Cy".into()), Some("Di".into())])
}

/// Card names of `p`'s cards still unplayed after the event that no other seat's clan shares and
/// that are not on the field: no line another seat reads may hold them.
fn secret_names(s: &ClansState, p: Seat) -> Vec<String> {
    let pl = &s.players[p as usize];
    pl.allies
        .iter()
        .chain(&pl.tactics)
        .filter(|_| s.players.iter().filter(|o| o.seat != p).all(|o| o.clan != pl.clan))
        .filter(|c| !s.figures.iter().any(|f| &f.card == *c || f.equipment.as_ref() == Some(*c)))
        .map(|c| cat().card(c).unwrap().name.clone())
        .collect()
}

fn play_and_check(options: ClansOptions, seed: u64, greedy: bool) -> usize {
    let names = names();
    let mut s = Clans::start(&options, seed).unwrap();
    let (mut rb, mut gb) = (RandomBot::new(seed), GreedyBot::new(seed));
    let n = s.players.len() as Seat;
    let mut lines = 0;
    for _ in 0..500 {
        let Some(seat) = seat_to_act(&s) else { break };
        let legal = Clans::legal(&s, seat);
        let said = Clans::named_action_words(&s, seat, &legal, &names);
        assert_eq!(said.len(), legal.len());
        for (a, w) in legal.iter().zip(&said) {
            let text = w["text"].as_str().expect("a text");
            assert!(!text.is_empty() && !text.contains("figure ") && !text.contains('['), "{a:?}: {text}");
            assert!(w["group"].is_string());
        }
        let a = if greedy { gb.pick(&s, cat(), seat) } else { rb.pick(&s, cat(), seat) }.unwrap();
        let before = s.clone();
        let events = Clans::apply(&mut s, seat, a).unwrap();
        let words = Clans::named_event_words(&before, &s, &events, &names);
        assert_eq!(words.len(), events.len());
        for (e, line) in events.iter().zip(&words) {
            assert!(!line.is_empty() && !line.contains("figure ") && !line.contains("Seat "), "{e:?}: {line}");
            lines += 1;
            for v in (0..n).map(Viewer::Seat).chain([Viewer::Spectator]) {
                if !e.visible_to(v) {
                    continue;
                }
                for p in (0..n).filter(|p| Viewer::Seat(*p) != v) {
                    for name in &secret_names(&s, p) {
                        assert!(!line.contains(name.as_str()), "{v:?} reads seat {p}'s unplayed {name}: {line}");
                    }
                }
            }
        }
    }
    lines
}

#[test]
fn every_action_and_event_of_played_games_is_said_without_secrets() {
    let s = |v: &[&str]| v.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    let mut lines = 0;
    for seed in 0..4u64 {
        let two = ClansOptions {
            clans: s(&["sacred_cross", "crimson_nobles"]),
            max_turns: Some(30),
            ..ClansOptions::default()
        };
        lines += play_and_check(two, seed, seed % 2 == 0);
        let four = ClansOptions {
            clans: s(&["sacred_cross", "crimson_nobles", "crimson_nobles", "sacred_cross"]),
            battlefield: "highland_pass".into(),
            max_turns: Some(30),
            ..ClansOptions::default()
        };
        lines += play_and_check(four, seed, seed % 2 == 1);
    }
    assert!(lines > 500, "the games said enough to mean something ({lines} lines)");
}

#[test]
fn a_placement_is_told_in_full_to_its_seat_alone_then_revealed_to_all() {
    let mut s = Clans::start(&ClansOptions { first_player: Some(0), ..ClansOptions::default() }, 7).unwrap();
    let (hb, god) = default_place(&s, 0);
    let before = s.clone();
    let events = ok(&mut s, 0, ClansAction::Place { homebase: hb, god });
    let words = Clans::event_words(&before, &s, &events);
    let placed = format!(
        "Seat 0 places the homebase on {} and the God on {} (hidden until all have placed)",
        tile(hb),
        tile(god)
    );
    assert_eq!(words, vec![placed, "Seat 0 has placed the homebase and God".to_string()]);
    assert!(events[0].visible_to(Viewer::Seat(0)) && !events[0].visible_to(Viewer::Seat(1)));
    assert!(!events[0].visible_to(Viewer::Spectator) && events[1].visible_to(Viewer::Spectator));
    let (hb1, god1) = default_place(&s, 1);
    let before = s.clone();
    let events = ok(&mut s, 1, ClansAction::Place { homebase: hb1, god: god1 });
    let words = Clans::event_words(&before, &s, &events);
    let revealed = words.iter().find(|w| w.starts_with("The placements are revealed")).expect("a reveal line");
    assert_eq!(
        revealed,
        &format!(
            "The placements are revealed. Seat 0: homebase on {}, Seraph King Aurel {} on {}; Seat 1: homebase on {}, {} {} on {}. Seat 0 goes first",
            tile(hb),
            s.players[0].god,
            tile(god),
            tile(hb1),
            cat().card(&s.figure(s.players[1].god).unwrap().card).unwrap().name,
            s.players[1].god,
            tile(god1)
        )
    );
    assert!(words.iter().any(|w| w == "Turn 1: Seat 0's turn begins (4 SP, 0 EXP)"), "{words:?}");
}

#[test]
fn an_attack_and_its_counter_in_words() {
    let mut s = game();
    clear_middle(&mut s);
    // Cross Squire and Blood Page: 6 HP, 2 ATK, Range 1 each.
    let a = put(&mut s, 0, "sc_squire", Pos(5, 8));
    let b = put(&mut s, 1, "cn_squire", Pos(6, 7));
    let attack = ClansAction::Attack { figure: a, target: b };
    let said = Clans::named_action_words(&s, 0, std::slice::from_ref(&attack), &names());
    assert_eq!(said[0]["text"], format!("Attack Bob's Blood Page {b} with Cross Squire {a}"));
    assert_eq!(said[0]["group"], "attack");
    assert_eq!(Group::of(&attack), Group::Attack);
    let before = s.clone();
    let events = ok(&mut s, 0, attack);
    let words = Clans::named_event_words(&before, &s, &events, &names());
    assert_eq!(
        &words[..2],
        &[
            format!("Cross Squire {a} hits Bob's Blood Page {b} for 2 (4 HP left)"),
            format!("Blood Page {b} hits Ann's Cross Squire {a} for 2 (4 HP left)"),
        ]
    );
    // A kill: the Blood Page at 2 HP.
    fig_mut(&mut s, b).hp = 2;
    pass_all(&mut s);
    ok(&mut s, 0, ClansAction::EndTurn);
    turn_to(&mut s, 0);
    let before = s.clone();
    let events = ok(&mut s, 0, ClansAction::Attack { figure: a, target: b });
    let words = Clans::named_event_words(&before, &s, &events, &names());
    let exp = cat().card("cn_squire").unwrap().ally().unwrap().exp;
    assert_eq!(
        words,
        vec![
            format!("Cross Squire {a} hits Bob's Blood Page {b} for 2 (0 HP left)"),
            format!("Bob's Blood Page {b} is destroyed; Ann gains {exp} EXP"),
        ]
    );
}

#[test]
fn the_end_of_a_two_against_two_names_the_winning_team() {
    let four = ClansOptions {
        clans: ["sacred_cross", "crimson_nobles", "crimson_nobles", "sacred_cross"].map(String::from).to_vec(),
        first_player: Some(0),
        ..ClansOptions::default()
    };
    let mut s = game_with(four);
    ok(&mut s, 1, ClansAction::Resign);
    let before = s.clone();
    let events = ok(&mut s, 3, ClansAction::Resign);
    let words = Clans::named_event_words(&before, &s, &events, &names());
    assert_eq!(words, vec!["Di resigns and is out".to_string(), "Game over: Ann and Cy win".to_string()]);
    let _: Vec<ClansEvent> = events;
}
