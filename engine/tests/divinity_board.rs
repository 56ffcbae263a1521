//! An update leaves out a view's `board` and `front` when they are as they
//! were after the record before (`Ruleset::board_key`), and the client
//! keeps the ones it has: the key must change whenever either changes in
//! any viewer's view, and a view without them must be the whole view less
//! those two fields, as the server writes it and as a client reads it.

use std::collections::HashMap;

use athlas_engine::divinity::action::DivinityAction as A;
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::state::{Finish, Interlude, Phase};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState, DivinityView};
use athlas_engine::{Ruleset, Seat, Viewer};
use serde_json::Value;

use crate::divinity_support::{bot_step, waiting};

/// The states of a game, one after each accepted action.
type Game = Vec<DivinityState>;

/// The recorded games of `divinity_golden/games.json`, replayed.
fn golden_games() -> Vec<Game> {
    #[derive(serde::Deserialize)]
    struct Recorded {
        options: DivinityOptions,
        seed: u64,
        log: Vec<(Seat, A)>,
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/divinity_golden/games.json");
    let games: Vec<Recorded> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    games
        .into_iter()
        .map(|g| {
            let mut s = Divinity::start(&g.options, g.seed).expect("setup");
            let mut states = vec![s.clone()];
            for (seat, a) in g.log {
                Divinity::apply(&mut s, seat, a).expect("a recorded action");
                states.push(s.clone());
            }
            states
        })
        .collect()
}

/// Party-bot games from a location's start to its end (the interlude and
/// a finish included).
fn bot_games() -> Vec<Game> {
    let cat = Catalogue::standard();
    let party = ["ifan", "sebille", "red_prince", "fane"];
    [("shipwreck", 3, 1), ("tutorial", 2, 3), ("fort_joy", 3, 0), ("hollow_marshes", 4, 2)]
        .into_iter()
        .map(|(location, size, seed)| {
            let options = DivinityOptions {
                party: party[..size].iter().map(|p| p.to_string()).collect(),
                location: Some(location.into()),
                ..DivinityOptions::default()
            };
            let mut s = Divinity::start(&options, seed).expect("setup");
            let mut states = vec![s.clone()];
            for i in 0..1_500 {
                if waiting(&s).is_empty() || !bot_step(cat, &mut s, i) {
                    break;
                }
                states.push(s.clone());
            }
            states
        })
        .collect()
}

fn viewers(s: &DivinityState) -> Vec<Viewer> {
    (0..s.origins.len() as Seat).map(Viewer::Seat).chain([Viewer::Spectator]).collect()
}

fn key(s: &DivinityState) -> Vec<u8> {
    Divinity::board_key(s).expect("Divinity keeps a board key")
}

/// Each viewer's `board` and `front` as JSON, by viewer.
type Parts = Vec<(String, String)>;

fn board_and_front(s: &DivinityState) -> Parts {
    viewers(s)
        .into_iter()
        .map(|v| {
            let view = Divinity::view(s, v);
            (serde_json::to_string(&view.board).unwrap(), serde_json::to_string(&view.front).unwrap())
        })
        .collect()
}

/// A view's JSON as a value, without the two fields the key covers.
fn less_board_and_front(view: &DivinityView) -> Value {
    let mut v = serde_json::to_value(view).unwrap();
    let m = v.as_object_mut().unwrap();
    m.remove("board");
    m.remove("front");
    v
}

/// Over the golden and party-bot games: any two states (of any games)
/// with one key show every viewer one board and one front, so a client
/// that keeps them shows what a whole view would. The key does change
/// with the front (at each ending), and stays over most records.
#[test]
fn an_unchanged_board_key_means_an_unchanged_board_and_front() {
    // By key and number of seats (so of viewers).
    let mut seen: HashMap<(Vec<u8>, usize), Parts> = HashMap::new();
    let (mut kept, mut changed, mut records) = (0, 0, 0);
    for game in golden_games().into_iter().chain(bot_games()) {
        let mut last: Option<Vec<u8>> = None;
        for s in &game {
            let (k, parts) = (key(s), board_and_front(s));
            assert!(parts.iter().all(|p| p.0 != "null" && p.1 != "null"), "a whole view has both");
            let seen = seen.entry((k.clone(), s.origins.len())).or_insert_with(|| parts.clone());
            assert_eq!(&parts, seen, "one key, two boards or fronts");
            match &last {
                Some(l) if *l == k => kept += 1,
                Some(_) => changed += 1,
                None => {}
            }
            last = Some(k);
            records += 1;
        }
    }
    assert!(kept * 10 > records * 9, "the key stayed over {kept} of {records} records");
    assert!(changed >= 4, "the key changed {changed} times: the endings");
    assert!(seen.len() >= 10, "{} keys", seen.len());
}

/// The key follows the location and how it ended, each a part of the
/// front's words (its outcome and next), and nothing else.
#[test]
fn the_board_key_follows_the_location_and_its_ending() {
    let at = |location: &str| {
        let options = DivinityOptions { location: Some(location.into()), ..DivinityOptions::default() };
        Divinity::start(&options, 1).expect("setup")
    };
    let s = at("shipwreck");
    let seats = s.origins.len();
    let mut other = s.clone();
    other.round += 3;
    other.gold += 5;
    other.time = Some(2);
    assert_eq!(key(&other), key(&s), "the round, gold and time are not on the board or the front");

    let with = |f: &dyn Fn(&mut DivinityState)| {
        let mut t = s.clone();
        f(&mut t);
        t
    };
    let exit = |to: &str, level_up| Phase::Finished { result: Finish::Exit { to: to.into(), level_up } };
    let interlude = |to: &str, level_up| {
        Phase::Interlude(Interlude {
            to: to.into(),
            level_up,
            leveled: vec![false; seats],
            merchant_open: false,
            offer: vec![],
        })
    };
    let states = [
        s.clone(),
        at("fort_joy"),
        with(&|t| t.phase = exit("fort_joy", false)),
        with(&|t| t.phase = exit("fort_joy", true)),
        with(&|t| t.phase = exit("temple", false)),
        with(&|t| t.phase = interlude("fort_joy", false)),
        with(&|t| t.phase = interlude("fort_joy", true)),
        with(&|t| t.phase = Phase::Finished { result: Finish::Restart }),
        with(&|t| {
            t.phase = Phase::Finished { result: Finish::Restart };
            t.origins.iter_mut().for_each(|o| o.downed = true);
        }),
    ];
    for (i, a) in states.iter().enumerate() {
        for b in &states[i + 1..] {
            let front = |s: &DivinityState| Divinity::view(s, Viewer::Spectator).front.as_deref().cloned();
            assert_ne!(front(a), front(b), "the fronts differ");
            assert_ne!(key(a), key(b), "{:?} and {:?}", a.phase, b.phase);
        }
    }
    // An interlude going on tells the same front.
    let mut going_on = with(&|t| t.phase = interlude("fort_joy", true));
    let mut more = going_on.clone();
    if let Phase::Interlude(i) = &mut more.phase {
        i.merchant_open = true;
        i.leveled = vec![true; seats];
    }
    assert_eq!(key(&more), key(&going_on));
    going_on.gold += 1;
    assert_eq!(key(&more), key(&going_on));
}

/// Over the golden and party-bot games, as a server sends them (the
/// board only when its key changed, each record's views built together
/// from the record before's): every view without the board is the whole
/// view less `board` and `front`, written by hand as serde writes it,
/// read back as written; a client that keeps the last ones it was sent
/// has the whole view at every record.
#[test]
fn a_view_without_the_board_is_the_whole_view_less_board_and_front() {
    let (mut without, mut whole) = (0, 0);
    for game in golden_games().into_iter().chain(bot_games()) {
        let viewers = viewers(&game[0]);
        let (mut last_key, mut before): (Option<Vec<u8>>, Option<DivinityView>) = (None, None);
        let mut kept: Vec<Option<(Value, Value)>> = vec![None; viewers.len()];
        for s in &game {
            let k = key(s);
            let board = last_key.as_ref() != Some(&k);
            last_key = Some(k);
            let record = Divinity::views(s, &viewers, board, before.as_ref());
            for ((view, viewer), kept) in record.iter().zip(&viewers).zip(&mut kept) {
                let alone = Divinity::view(s, *viewer);
                let sent: Value = serde_json::to_value(view).unwrap();
                assert_eq!(view.json_by_hand(), view.json_by_serde(), "written by hand");
                assert_eq!(serde_json::to_string(view).unwrap(), view.json_by_serde(), "its own writing");
                let read: DivinityView = serde_json::from_value(sent.clone()).unwrap();
                assert_eq!(&read, view, "read back");
                if board {
                    assert_eq!(view, &alone);
                    *kept = Some((sent["board"].clone(), sent["front"].clone()));
                    whole += 1;
                    continue;
                }
                assert!(view.board.is_none() && view.front.is_none());
                assert!(sent.get("board").is_none() && sent.get("front").is_none(), "{sent}");
                assert_eq!(sent, less_board_and_front(&alone));
                let lone = Divinity::view_without_board(s, *viewer);
                assert_eq!(serde_json::to_string(&lone).unwrap(), serde_json::to_string(view).unwrap());
                // The client's: the view sent, the board and front kept.
                let (b, f) = kept.clone().expect("a whole view came first");
                let mut shown = sent;
                shown["board"] = b;
                shown["front"] = f;
                assert_eq!(shown, serde_json::to_value(&alone).unwrap(), "the client's view is the whole view");
                without += 1;
            }
            before = record.into_iter().next().map(Divinity::keep_as_before);
        }
    }
    assert!(without > 10 * whole, "{without} views without the board, {whole} whole");
}
