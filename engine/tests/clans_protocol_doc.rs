//! protocol/CLANS.md against the code: every `json options`, `action` and
//! `event` block parses as the engine's type and every kind has an
//! example; every `json frame` block parses as PROTOCOL.md's envelopes
//! with its actions and events as the engine's; the `json view` block has
//! exactly a real view's fields; the refusal table is `ClansRefusal::all()`
//! (and the platform's `no_take_back`), meanings included.

use crate::clans_support::*;
use athlas_engine::clans::{Clans, ClansAction, ClansEvent, ClansOptions, ClansRefusal};
use athlas_engine::refusal::{CommonRefusal, Refusal};
use athlas_engine::{Ruleset, Viewer};
use athlas_protocol::{ClientMsg, ServerMsg};
use serde_json::Value;
use std::collections::BTreeSet;

const DOC: &str = include_str!("../../protocol/CLANS.md");

/// The blocks marked ```` ```json <mark> ````.
fn blocks(mark: &str) -> Vec<&'static str> {
    let fence = format!("```json {mark}\n");
    let mut out = Vec::new();
    let mut rest = DOC;
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("```").expect("a closed block");
        out.push(body[..end].trim());
        rest = &body[end..];
    }
    out
}

fn tag(v: &impl serde::Serialize, key: &str) -> String {
    serde_json::to_value(v).unwrap()[key].as_str().unwrap().to_owned()
}

#[test]
fn every_action_and_event_kind_has_a_parsing_example() {
    let actions: BTreeSet<String> = blocks("action")
        .into_iter()
        .map(|j| tag(&serde_json::from_str::<ClansAction>(j).unwrap_or_else(|e| panic!("{j}: {e}")), "type"))
        .collect();
    let all_actions = [
        "place",
        "summon",
        "move",
        "attack",
        "ability",
        "equip",
        "assimilate",
        "item",
        "runic_art",
        "terrain",
        "end_turn",
        "respond",
        "pass",
        "resign",
    ];
    assert_eq!(actions, all_actions.iter().map(|s| s.to_string()).collect(), "one example of each action");
    let events: BTreeSet<String> = blocks("event")
        .into_iter()
        .map(|j| tag(&serde_json::from_str::<ClansEvent>(j).unwrap_or_else(|e| panic!("{j}: {e}")), "event"))
        .collect();
    assert_eq!(events.len(), 22, "one example of each event: {events:?}");
    let opts = blocks("options");
    assert!(!opts.is_empty());
    for j in opts {
        let o: ClansOptions = serde_json::from_str(j).unwrap_or_else(|e| panic!("{j}: {e}"));
        Clans::start(&o, 1).unwrap_or_else(|e| panic!("{j}: {e}"));
    }
}

/// Every event a played game makes (bots, 1v1 and 2v2, to the end) is of
/// a documented kind.
#[test]
fn the_documented_events_are_the_engines() {
    use athlas_engine::clans::bot::{seat_to_act, GreedyBot};
    let documented: BTreeSet<String> =
        blocks("event").into_iter().map(|j| tag(&serde_json::from_str::<ClansEvent>(j).unwrap(), "event")).collect();
    let mut seen = BTreeSet::new();
    for clans in
        [&["sacred_cross", "crimson_nobles"][..], &["crimson_nobles", "sacred_cross", "sacred_cross", "crimson_nobles"]]
    {
        let options = ClansOptions {
            clans: clans.iter().map(|c| c.to_string()).collect(),
            battlefield: "highland_pass".into(),
            exp_per_turn: 1,
            ..ClansOptions::default()
        };
        let mut s = Clans::start(&options, 7).unwrap();
        let mut bot = GreedyBot::new(7 ^ 0xd0e1);
        for _ in 0..3000 {
            let Some(seat) = seat_to_act(&s) else { break };
            let a = bot.pick(&s, cat(), seat).unwrap();
            for e in Clans::apply(&mut s, seat, a).unwrap() {
                seen.insert(tag(&e, "event"));
            }
        }
    }
    let undocumented: Vec<_> = seen.difference(&documented).collect();
    assert!(undocumented.is_empty(), "events not in protocol/CLANS.md: {undocumented:?}");
    assert!(seen.len() >= 15, "the games made most kinds of event: {seen:?}");
}

#[test]
fn every_frame_example_parses_with_clans_payloads() {
    let frames = blocks("frame");
    assert!(frames.len() >= 9);
    let mut kinds = BTreeSet::new();
    for j in frames {
        let v: Value = serde_json::from_str(j).unwrap_or_else(|e| panic!("{j}: {e}"));
        let ty = v["type"].as_str().unwrap().to_owned();
        if ["hello", "act"].contains(&ty.as_str()) {
            let m: ClientMsg = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{j}: {e}"));
            if let ClientMsg::Act { action, .. } = m {
                serde_json::from_value::<ClansAction>(action).unwrap_or_else(|e| panic!("{j}: {e}"));
            }
        } else {
            let m: ServerMsg = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{j}: {e}"));
            match m {
                ServerMsg::Update { events, log, .. } => {
                    assert_eq!(events.len(), log.len(), "a line per event");
                    for e in events {
                        serde_json::from_value::<ClansEvent>(e).unwrap_or_else(|e| panic!("{j}: {e}"));
                    }
                }
                ServerMsg::Welcome { game, .. } => assert_eq!(game, "clans"),
                ServerMsg::Error { code, .. } => {
                    assert!(ClansRefusal::all().iter().any(|r| r.code() == code), "{code}")
                }
                ServerMsg::Reveal { secret, salt, hash, .. } => {
                    // The example opens: sha256(salt ‖ canonical JSON), the
                    // canonical form being serde_json's (keys sorted, no
                    // whitespace), as the server's `secret::canonical_json`.
                    use sha2::{Digest, Sha256};
                    let salt: Vec<u8> =
                        (0..salt.len()).step_by(2).map(|i| u8::from_str_radix(&salt[i..i + 2], 16).unwrap()).collect();
                    let mut h = Sha256::new();
                    h.update(&salt);
                    h.update(serde_json::to_string(&secret).unwrap().as_bytes());
                    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
                    assert_eq!(hex, hash, "the reveal example opens its hash");
                    assert!(DOC.contains(&format!("\"type\": \"commitment\", \"seat\": 0, \"hash\": \"{hash}\"")));
                    // Exactly what the engine locks for that placement.
                    let mut s =
                        Clans::start(&ClansOptions { first_player: Some(0), ..ClansOptions::default() }, 7).unwrap();
                    let place: ClansAction = serde_json::from_value(serde_json::json!({
                        "type": "place", "homebase": secret["homebase"], "god": secret["god"],
                    }))
                    .unwrap();
                    ok(&mut s, 0, place);
                    assert_eq!(Clans::locked_secret(&s, 0), Some(secret));
                }
                _ => {}
            }
        }
        kinds.insert(ty);
    }
    for k in ["hello", "welcome", "act", "ack", "update", "error", "commitment", "reveal"] {
        assert!(kinds.contains(k), "protocol/CLANS.md has no {k} frame");
    }
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn the_view_example_has_a_real_views_fields() {
    let doc: Value = serde_json::from_str(blocks("view")[0]).unwrap();
    let mut s = game();
    let at = Clans::legal(&s, 0)
        .into_iter()
        .find_map(|a| match a {
            ClansAction::Summon { at, .. } => Some(at),
            _ => None,
        })
        .unwrap();
    let card = s.players[0].allies[1].clone();
    let _ = Clans::apply(&mut s, 0, ClansAction::Summon { card, at });
    let real = serde_json::to_value(Clans::view(&s, Viewer::Seat(0))).unwrap();
    assert_eq!(keys(&doc), keys(&real));
    assert_eq!(keys(&doc["players"][0]), keys(&real["players"][0]));
    assert_eq!(keys(&doc["figures"][0]), keys(&real["figures"][0]));
    assert_eq!(keys(&doc["hand"]), keys(&real["hand"]));
    for a in doc["legal"].as_array().unwrap() {
        serde_json::from_value::<ClansAction>(a.clone()).unwrap();
    }
    // The text table names every field too.
    let table = &DOC[DOC.find("viewer     ").unwrap()..];
    for k in keys(&real).iter().chain(&keys(&real["players"][0])).chain(&keys(&real["figures"][0])) {
        assert!(table.contains(&format!("\"{k}\"")) || table.contains(k.as_str()), "the view table lacks {k}");
    }
}

#[test]
fn the_refusal_table_is_the_engines() {
    let start = DOC.find("Every refusal code").expect("the refusal table");
    let rows: Vec<(&str, &str)> = DOC[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| {
            let code = l.strip_prefix("| `")?.split('`').next()?;
            let meaning = l.splitn(3, '|').nth(2)?.trim().trim_end_matches('|').trim();
            Some((code, meaning))
        })
        .collect();
    let engine: Vec<(&str, &str)> = ClansRefusal::all()
        .iter()
        .map(|r| (r.code(), r.meaning()))
        .chain(CommonRefusal::all().iter().map(|r| (r.code(), r.meaning())))
        .collect();
    assert_eq!(rows, engine, "protocol/CLANS.md's refusal table, in the enum's order, with its meanings");
}
