//! The describer (`athlas_engine::divinity::words`) over everything the
//! engine can list or tell: random parties play every location, picking only
//! from the legal lists, and every listed action and every event is put in
//! words; no line may carry protocol data (braces, brackets, quotes, `null`,
//! `true`, `false`, snake_case ids, bare numbers standing for spaces), and
//! every action kind and event kind the engine has must be met and worded
//! (a kind added to the engine fails here until it is met and said).

use std::collections::BTreeSet;

use crate::divinity_protocol_doc::{blocks, tag_of, variants, DOC};
use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::event::DivinityEvent;
use athlas_engine::divinity::legal::legal;
use athlas_engine::divinity::words::{self, Group, Names};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::rng::GameRng;
use athlas_engine::{Ruleset, Seat, Status, Viewer};

const PARTY: [&str; 4] = ["ifan", "sebille", "red_prince", "fane"];
const LOCATIONS: [&str; 5] = ["tutorial", "shipwreck", "fort_joy", "hollow_marshes", "temple"];

/// Why `line` would show protocol data to a player, if it would.
fn protocol_data(line: &str, cat: &Catalogue) -> Option<String> {
    for bad in ["{", "}", "[", "]", "\"", "null", "true", "false"] {
        if line.contains(bad) {
            return Some(format!("contains {bad}"));
        }
    }
    if line.trim().is_empty() {
        return Some("is empty".into());
    }
    for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if word.contains('_') {
            return Some(format!("has the id {word}"));
        }
        // A space's id ("t1") never shows: spaces are named.
        if word.len() >= 2 && word.starts_with('t') && word[1..].chars().all(|c| c.is_ascii_digit()) {
            return Some(format!("names a space by its id {word}"));
        }
    }
    // An item, skill or Origin shows by its printed name, never its id.
    for id in cat.items.keys().chain(cat.skills.keys()).chain(cat.origins.keys()).chain(cat.talents.keys()) {
        if id.contains('_') && line.contains(id.as_str()) {
            return Some(format!("shows the id {id}"));
        }
    }
    None
}

fn group(g: Group) -> String {
    serde_json::to_value(g).unwrap().as_str().expect("a group is a word").to_string()
}

fn waiting(s: &DivinityState) -> Option<Vec<Seat>> {
    match Divinity::status(s) {
        Status::Waiting { seats } => Some(seats),
        Status::Finished(_) => None,
    }
}

#[derive(Default)]
struct Seen {
    actions: BTreeSet<String>,
    events: BTreeSet<String>,
    lines: usize,
    groups: BTreeSet<String>,
}

/// One random game: every listed action of every waiting seat and every
/// event described and checked.
fn play(opts: &DivinityOptions, seed: u64, seen: &mut Seen) {
    let cat = Catalogue::standard();
    let mut s = Divinity::start(opts, seed).expect("setup");
    let mut rng = GameRng::from_seed(seed ^ 0x3045);
    let mut steps = 0;
    while let Some(seats) = waiting(&s) {
        assert!(steps < 5000, "not finished");
        steps += 1;
        let view = Divinity::view(&s, Viewer::Spectator);
        let names = Names::new(Some(&view));
        for seat in &seats {
            for a in legal(cat, &s, *seat) {
                let said = words::action(names, *seat, &a);
                if let Some(why) = protocol_data(&said.text, cat) {
                    panic!("{a:?} in words {:?} {why}", said.text);
                }
                if let Some(w) = &said.warn {
                    assert!(protocol_data(w, cat).is_none(), "{w}");
                }
                seen.actions.insert(tag_of(&a, "type"));
                seen.groups.insert(group(said.group));
                seen.lines += 1;
            }
        }
        let seat = seats[rng.below(seats.len() as u32) as usize];
        let list = legal(cat, &s, seat);
        let a = list[rng.below(list.len() as u32) as usize].clone();
        let before = s.clone();
        let events = Divinity::apply(&mut s, seat, a).expect("listed actions are accepted");
        let lines = Divinity::event_words(&before, &s, &events);
        assert_eq!(lines.len(), events.len(), "a line per event");
        for (e, line) in events.iter().zip(&lines) {
            if let Some(why) = protocol_data(line, cat) {
                panic!("{e:?} in words {line:?} {why}");
            }
            seen.events.insert(tag_of(e, "event"));
        }
    }
    // The location's front, once over, says how it ended.
    let view = Divinity::view(&s, Viewer::Spectator);
    let front = view.front.as_ref().expect("a whole view's front");
    assert!(front.outcome.is_some(), "a finished location says why");
    for line in [&front.name, &front.intro, &front.goal, front.outcome.as_ref().unwrap()] {
        assert!(protocol_data(line, cat).is_none(), "{line}");
    }
}

#[test]
fn every_listed_action_and_every_event_reads_as_words() {
    let mut seen = Seen::default();
    for (i, location) in LOCATIONS.iter().enumerate() {
        for size in [1, 2, 4] {
            for seed in 0..3u64 {
                let opts = DivinityOptions {
                    party: PARTY[..size].iter().map(|p| p.to_string()).collect(),
                    location: Some(location.to_string()),
                    ..DivinityOptions::default()
                };
                play(&opts, seed * 31 + i as u64 * 7 + size as u64, &mut seen);
            }
        }
    }
    assert!(seen.lines > 1000, "only {} actions described", seen.lines);
    // The kinds random play does not reach are described from the
    // protocol's own examples (DIVINITY.md has one of every kind), on a
    // table of the tutorial in play.
    let mut s = Divinity::start(&DivinityOptions::default(), 5).unwrap();
    Divinity::apply(&mut s, 0, A::ChooseRound { explore: true }).unwrap();
    let view = Divinity::view(&s, Viewer::Spectator);
    let names = Names::new(Some(&view));
    let cat = Catalogue::standard();
    for json in blocks(DOC, "action") {
        let a: A = serde_json::from_str(&json).unwrap();
        let said = words::action(names, 0, &a);
        assert!(protocol_data(&said.text, cat).is_none(), "{json}: {:?}", said.text);
        seen.actions.insert(tag_of(&a, "type"));
        seen.groups.insert(group(said.group));
    }
    for json in blocks(DOC, "event") {
        let e: DivinityEvent = serde_json::from_str(&json).unwrap();
        let line = words::event(names, &e);
        assert!(protocol_data(&line, cat).is_none(), "{json}: {line:?}");
        seen.events.insert(tag_of(&e, "event"));
    }
    // Every kind the engine has was described.
    let actions: BTreeSet<String> = variants::<A>("type");
    assert_eq!(seen.actions, actions, "action kinds never described");
    let events: BTreeSet<String> = variants::<DivinityEvent>("event");
    assert_eq!(seen.events, events, "event kinds never described");
    assert_eq!(seen.groups.len(), 8, "every group is used: {:?}", seen.groups);
}

/// The words of actions and events as the book would say them: spaces by
/// name, dice by colour and value, a card's cost, a tactical space by the
/// spaces around it.
#[test]
fn words_name_things_as_the_table_does() {
    let mut s = Divinity::start(&DivinityOptions::default(), 5).unwrap();
    Divinity::apply(&mut s, 0, A::ChooseRound { explore: true }).unwrap();
    let view = Divinity::view(&s, Viewer::Spectator);
    let n = Names::new(Some(&view));
    let say = |a: &str| words::action(n, 0, &serde_json::from_str(a).unwrap()).text;
    assert_eq!(say(r#"{"type": "travel", "to": "2"}"#), "Travel to the Galley");
    assert_eq!(
        say(r#"{"type": "move", "to": "t1"}"#),
        "Move to the tactical space between the Galley and the Hold (1 AP)"
    );
    assert_eq!(say(r#"{"type": "give", "item": "short_bow", "to": 1}"#), "Give Short Bow to Sebille");
    assert_eq!(n.space("5"), "the Captain's Cabin");
    let round = |kind: &str| {
        let e: DivinityEvent =
            serde_json::from_value(serde_json::json!({"event": "round_started", "round": 1, "kind": kind})).unwrap();
        words::event(n, &e)
    };
    assert_eq!(round("explore"), "Round 1 begins: an Explore round");
    assert_eq!(round("rest"), "Round 1 begins: a Rest round");
    let front = view.front.as_ref().expect("a whole view's front");
    assert_eq!(front.name, "The Merryweather");
    assert!(front.goal.contains("time track"), "{}", front.goal);
    assert!(front.outcome.is_none());
}

/// Aiming an attack at an ally, or at a space where one stands, warns;
/// the same at an enemy does not.
#[test]
fn an_attack_on_an_ally_warns() {
    use athlas_engine::divinity::action::{Aim, CardUse};
    let s = Divinity::start(&DivinityOptions::default(), 5).unwrap();
    let view = Divinity::view(&s, Viewer::Spectator);
    let n = Names::new(Some(&view));
    let attack = CardUse::Skill("searing_daggers".into());
    let on =
        |aim: Aim| words::action(n, 0, &A::Use { card: attack.clone(), aim, first_aura: None, include_self: None });
    let ally = on(Aim::Origin(1));
    assert_eq!(ally.warn.as_deref(), Some("This attacks Sebille, your ally."), "{ally:?}");
    assert!(on(Aim::Enemy(1)).warn.is_none());
    let start = view.board.as_ref().expect("a whole view's board").spaces[view.origins[1].space].space.clone();
    assert!(on(Aim::Space(start)).warn.is_some(), "a space where Sebille stands");
}

/// The server's action words (`Divinity::action_words`: named from the
/// spectator's view without its front, each `Said` built as JSON directly)
/// are serde's JSON of the words named from the whole view, and its event
/// words (named from the views before and after without their fronts)
/// those of the whole views: over a party-bot game from the Shipwreck's
/// start through its interlude, for every listed action of every waiting
/// seat and every event.
#[test]
fn the_servers_words_are_the_words_of_the_whole_views() {
    use athlas_engine::divinity::bot;
    let cat = Catalogue::standard();
    let options = DivinityOptions {
        party: ["ifan", "sebille", "red_prince"].iter().map(|p| p.to_string()).collect(),
        location: Some("shipwreck".into()),
        ..DivinityOptions::default()
    };
    let mut s = Divinity::start(&options, 1).expect("setup");
    let (mut said, mut told) = (0, 0);
    for i in 0..400 {
        let Status::Waiting { seats } = Divinity::status(&s) else { break };
        let whole = Divinity::view(&s, Viewer::Spectator);
        let lists: Vec<_> = seats.iter().map(|&seat| legal(cat, &s, seat)).collect();
        for (&seat, list) in seats.iter().zip(&lists) {
            let expected: Vec<serde_json::Value> = list
                .iter()
                .map(|a| serde_json::to_value(words::action(Names::new(Some(&whole)), seat, a)).unwrap())
                .collect();
            assert_eq!(Divinity::action_words(&s, seat, list), expected, "{:?}", s.phase);
            said += list.len();
        }
        let Some((seat, a)) = (0..seats.len()).map(|k| seats[(i + k) % seats.len()]).find_map(|seat| {
            let list = &lists[seats.iter().position(|x| *x == seat).expect("waiting")];
            bot::choose(cat, &Divinity::view(&s, Viewer::Seat(seat)), seat, list).map(|a| (seat, a))
        }) else {
            break;
        };
        let after_state = {
            let mut t = s.clone();
            let events = Divinity::apply(&mut t, seat, a).expect("a listed action is accepted");
            let after = Divinity::view(&t, Viewer::Spectator);
            let names = Names { before: Some(&whole), ..Names::new(Some(&after)) };
            let expected: Vec<String> = events.iter().map(|e| words::event(names, e)).collect();
            assert_eq!(Divinity::event_words(&s, &t, &events), expected);
            told += events.len();
            t
        };
        s = after_state;
    }
    assert!(said > 5_000 && told > 150, "only {said} actions said, {told} events told");
}
