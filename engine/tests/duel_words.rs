//! The duel's one describer (`athlas_engine::duel::words`), as the server
//! calls it through `Ruleset::action_words` / `event_words`: every action
//! random duels list and every event they make reads as words (never
//! protocol data, never "you": a line is read by both players and the
//! spectators), a scripted opening reads exactly as written below, and a
//! window the timer closed says so.

use athlas_engine::duel::bot::RandomBot;
use athlas_engine::duel::card::Catalogue;
use athlas_engine::duel::state::Phase;
use athlas_engine::duel::{Duel, DuelAction, DuelEvent, DuelOptions, DuelState};
use athlas_engine::{Ruleset, Seat, Status};
use std::collections::BTreeSet;

/// Words that are not for people: JSON, snake_case ids, debug output.
fn protocol_data(t: &str) -> bool {
    ["{", "}", "\"", "null", "true", "false", "Some(", "None"].iter().any(|b| t.contains(b))
        || t.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w.contains('_'))
}

/// Apply `a` and return its lines, as the server makes them.
fn lines(s: &mut DuelState, seat: Seat, a: DuelAction) -> Vec<String> {
    let before = s.clone();
    let events = Duel::apply(s, seat, a.clone()).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    let words = Duel::event_words(&before, s, &events);
    assert_eq!(words.len(), events.len(), "one line per event");
    words
}

fn text(s: &DuelState, seat: Seat, a: &DuelAction) -> String {
    let w = Duel::action_words(s, seat, std::slice::from_ref(a));
    w[0]["text"].as_str().expect("a text").to_owned()
}

/// Every legal action of every seat and every event of twelve random
/// duels in words; the common action kinds and event kinds all met (the
/// describer's matches are exhaustive: a kind added to the engine has no
/// words until they are written).
#[test]
fn every_listed_action_and_every_event_of_random_duels_reads_as_words() {
    let cat = Catalogue::standard();
    let (mut actions, mut events) = (BTreeSet::new(), BTreeSet::new());
    for seed in 0..12u64 {
        let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
        let mut bot = RandomBot::new(seed);
        for _ in 0..600 {
            let Status::Waiting { .. } = Duel::status(&s) else { break };
            for seat in 0..2 {
                let legal = Duel::legal(&s, seat);
                let words = Duel::action_words(&s, seat, &legal);
                assert_eq!(words.len(), legal.len(), "one set of words per action");
                for (a, w) in legal.iter().zip(&words) {
                    let t = w["text"].as_str().unwrap();
                    assert!(!t.is_empty() && !protocol_data(t), "{a:?} reads {t:?}");
                    assert!(w["group"].is_string(), "{a:?} has a group: {w}");
                    actions.insert(serde_json::to_value(a).unwrap()["type"].as_str().unwrap().to_owned());
                }
            }
            let Some(seat) = bot.seat_to_act(&s) else { break };
            let Some(a) = bot.pick(&s, cat, seat) else { break };
            let before = s.clone();
            let Ok(evs) = Duel::apply(&mut s, seat, a) else { continue };
            for (e, line) in evs.iter().zip(Duel::event_words(&before, &s, &evs)) {
                assert!(!line.is_empty() && !protocol_data(&line), "{e:?} reads {line:?}");
                assert!(
                    !line.split(|c: char| !c.is_alphanumeric()).any(|w| w.eq_ignore_ascii_case("you")),
                    "{e:?}: a line for every reader says you: {line:?}"
                );
                assert!(line.starts_with(|c: char| c.is_uppercase()), "{line:?} starts a sentence");
                events.insert(serde_json::to_value(e).unwrap()["event"].as_str().unwrap().to_owned());
            }
        }
    }
    for k in ["summon", "activate", "move", "use_power", "end_activation", "end_turn", "pass", "cast_di"] {
        assert!(actions.contains(k), "random duels never listed {k}: {actions:?}");
    }
    for k in [
        "creation_locked",
        "turn_begins",
        "alpha_revealed",
        "summoned",
        "activated",
        "moved",
        "power_used",
        "attacked",
        "life_lost",
        "window_opened",
        "passed",
        "di_cast",
    ] {
        assert!(events.contains(k), "random duels never made {k}: {events:?}");
    }
}

/// The first action of `seat` matching `pick`.
fn first(s: &DuelState, seat: Seat, pick: impl Fn(&DuelAction) -> bool) -> DuelAction {
    Duel::legal(s, seat).into_iter().find(pick).expect("such an action is legal")
}

/// An opening played the same way every time, and its log and buttons in
/// words exactly: seats by their names, units by genus and id, the second
/// seat's first turn said as such, a DI told by whose it is.
#[test]
fn a_scripted_opening_reads_as_written() {
    let options = DuelOptions { first_player: Some(0), ..DuelOptions::default() };
    let mut s = Duel::start(&options, 7).unwrap();
    let mut log = Vec::new();
    log.extend(lines(&mut s, 0, DuelAction::UsePreset { preset: "aquatic".into() }));
    log.extend(lines(&mut s, 1, DuelAction::UsePreset { preset: "rush".into() }));
    let summon = first(&s, 0, |a| matches!(a, DuelAction::Summon { .. }));
    let said = text(&s, 0, &summon);
    log.extend(lines(&mut s, 0, summon));
    log.extend(lines(&mut s, 0, DuelAction::EndTurn));
    let summon = first(&s, 1, |a| matches!(a, DuelAction::Summon { .. }));
    log.extend(lines(&mut s, 1, summon));
    log.extend(lines(&mut s, 1, DuelAction::EndTurn));
    let activate = first(&s, 0, |a| matches!(a, DuelAction::Activate { .. }));
    let activate_said = text(&s, 0, &activate);
    log.extend(lines(&mut s, 0, activate));
    let step = first(&s, 0, |a| matches!(a, DuelAction::Move { .. }));
    log.extend(lines(&mut s, 0, step));
    log.extend(lines(&mut s, 0, DuelAction::EndActivation));
    let pass_said = text(&s, 1, &DuelAction::Pass);
    log.extend(lines(&mut s, 1, DuelAction::Pass));
    let expected = [
        "Seat 0 locked in its Alphas and Divine Interventions, sealed until the end",
        "Seat 1 locked in its Alphas and Divine Interventions, sealed until the end",
        "The Command Phase begins: Seat 0 plays first",
        "Turn 1: Seat 0's first turn (summoning only)",
        "Seat 0 revealed Alpha 1: Raider of the Deep, Banner of Summoning, Obsidian Sword, Full Plate Armor (cost 23, life 9, Celestial Knight figures)",
        "Seat 0 summoned Raider of the Deep 1 (Alpha 1) at [-5,5]: 23 points spent in all",
        "Turn 2: Seat 1's first turn (summoning only)",
        "Seat 1 revealed Alpha 1: Spell Binder, Pathfinding, Earthquake, Magic Bolt, Heroic Inspiration, Terraforming, Mountaineering (cost 29, life 7, Celestial Knight figures)",
        "Seat 1 summoned Spell Binder 2 (Alpha 1) at [0,-5]: 29 points spent in all",
        "Turn 3: Seat 0's turn",
        "Seat 0 activated Raider of the Deep 1 at [-5,5]",
        "Raider of the Deep 1 moved [-5,5] → [-5,4]",
        "Raider of the Deep 1 ended its activation",
        "Seat 1 may answer with a Divine Intervention",
        "Seat 1 passed",
    ];
    assert_eq!(log, expected, "{log:#?}");
    assert_eq!(said, "Summon Alpha 1 (Raider of the Deep) for 23 points at [-5,5]");
    assert_eq!(activate_said, "Activate your Raider of the Deep 1 at [-5,5]");
    assert_eq!(pass_said, "Pass: cast nothing in this response window");
}

/// A response window the server's timer closed is told as the time
/// running out, not as a pass; a player cannot send the timer's action
/// (the server refuses it: `Ruleset::timer_only`).
#[test]
fn a_window_the_timer_closed_says_the_time_ran_out() {
    let options = DuelOptions { first_player: Some(0), ..DuelOptions::default() };
    let mut s = Duel::start(&options, 7).unwrap();
    let mut bot = RandomBot::new(7);
    let cat = Catalogue::standard();
    // Play until a response window waits for a seat.
    let (seat, action) = loop {
        if let Some(t) = Duel::timeout_action(&s) {
            break t;
        }
        let seat = bot.seat_to_act(&s).expect("the game goes on");
        let a = bot.pick(&s, cat, seat).expect("an action");
        Duel::apply(&mut s, seat, a).unwrap();
    };
    assert_eq!(action, DuelAction::TimedOut);
    assert!(Duel::timer_only(&action) && !Duel::timer_only(&DuelAction::Pass));
    assert!(!Duel::legal(&s, seat).contains(&DuelAction::TimedOut), "never offered to a player");
    let mut passed = s.clone();
    let said = lines(&mut s, seat, action);
    assert_eq!(said[0], format!("Seat {seat}'s time to answer ran out: nothing cast"));
    // The same change as a pass.
    let events: Vec<DuelEvent> = Duel::apply(&mut passed, seat, DuelAction::Pass).unwrap();
    assert_eq!(serde_json::to_value(&passed.game).unwrap(), serde_json::to_value(&s.game).unwrap());
    assert!(matches!(events[0].kind, athlas_engine::duel::event::EventKind::Passed { .. }));
}

/// How a game ended is in its last line: two relics held, or a
/// resignation, or an agreed draw.
#[test]
fn the_last_line_says_how_the_game_ended() {
    let options = DuelOptions { first_player: Some(0), ..DuelOptions::default() };
    let mut s = Duel::start(&options, 3).unwrap();
    lines(&mut s, 0, DuelAction::UsePreset { preset: "aquatic".into() });
    lines(&mut s, 1, DuelAction::UsePreset { preset: "rush".into() });
    let mut resigned = s.clone();
    assert_eq!(lines(&mut resigned, 0, DuelAction::Resign), ["Seat 0 resigned: Seat 1 won"]);
    assert!(matches!(resigned.game.phase, Phase::Finished { .. }));
    lines(&mut s, 1, DuelAction::OfferDraw);
    assert_eq!(lines(&mut s, 0, DuelAction::AcceptDraw), ["The players agreed to a draw"]);
}

/// The players' names, given by the server (`named_action_words`,
/// `named_event_words`), replace "Seat N" in every button and line of a
/// random duel; a seat without a name stays "Seat N".
#[test]
fn named_seats_in_words() {
    use athlas_engine::SeatNames;
    let cat = Catalogue::standard();
    let names = SeatNames::new(vec![Some("Ada".into()), Some("Brünhild".into())]);
    let only_first = SeatNames::new(vec![Some("Ada".into()), None]);
    let (mut buttons, mut lines) = (0, 0);
    let mut s = Duel::start(&DuelOptions::default(), 5).unwrap();
    let mut bot = RandomBot::new(5);
    for _ in 0..400 {
        let Status::Waiting { .. } = Duel::status(&s) else { break };
        for seat in 0..2 {
            let legal = Duel::legal(&s, seat);
            let plain = Duel::action_words(&s, seat, &legal);
            let named = Duel::named_action_words(&s, seat, &legal, &names);
            for (p, n) in plain.iter().zip(&named) {
                let (p, n) = (p["text"].as_str().unwrap(), n["text"].as_str().unwrap());
                assert!(!n.contains("Seat 0") && !n.contains("Seat 1"), "{n:?}");
                if p.contains("Seat 1") {
                    assert_eq!(p.replace("Seat 1", "Brünhild").replace("Seat 0", "Ada"), n);
                    buttons += 1;
                }
            }
        }
        let Some(seat) = bot.seat_to_act(&s) else { break };
        let Some(a) = bot.pick(&s, cat, seat) else { break };
        let before = s.clone();
        let Ok(evs) = Duel::apply(&mut s, seat, a) else { continue };
        let plain = Duel::event_words(&before, &s, &evs);
        let named = Duel::named_event_words(&before, &s, &evs, &names);
        let half = Duel::named_event_words(&before, &s, &evs, &only_first);
        for ((p, n), h) in plain.iter().zip(&named).zip(&half) {
            assert_eq!(&p.replace("Seat 1", "Brünhild").replace("Seat 0", "Ada"), n);
            assert_eq!(&p.replace("Seat 0", "Ada"), h);
            lines += usize::from(p.contains("Seat "));
        }
    }
    assert!(buttons > 0 && lines > 10, "{buttons} buttons and {lines} lines named a seat");
}
