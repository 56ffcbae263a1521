//! protocol/DIVINITY.md stays true to the engine: every `json options` block
//! parses as `DivinityOptions` and starts a match, every `json action` block
//! parses as a `DivinityAction`, every `json event` block as a
//! `DivinityEvent`; every action and event has an example; the `json view`
//! example has the shape of a real view; every field of a real view is
//! named; and the refusal table lists exactly the codes the engine uses.

use std::collections::BTreeSet;

use athlas_engine::divinity::action::{Aim, CardUse, DivinityAction as A};
use athlas_engine::divinity::event::DivinityEvent;
use athlas_engine::divinity::{Divinity, DivinityOptions};
use athlas_engine::{Ruleset, Viewer};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::divinity_support;
use divinity_support::*;

pub(crate) const DOC: &str = include_str!("../../protocol/DIVINITY.md");

/// The bodies of every ```json KIND block.
pub(crate) fn blocks(doc: &str, kind: &str) -> Vec<String> {
    let open = format!("```json {kind}\n");
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let end = body.find("```").expect("closed block");
        out.push(body[..end].trim().to_string());
        rest = &body[end..];
    }
    out
}

fn parse<T: DeserializeOwned>(json: &str) -> T {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// Every variant name of an internally tagged enum, as serde knows them:
/// an unknown tag is refused with the list of the expected ones, so a
/// variant added to the engine is required here without editing this test.
pub(crate) fn variants<T: DeserializeOwned + std::fmt::Debug>(tag: &str) -> BTreeSet<String> {
    let json = format!(r#"{{"{tag}": "no_such_variant"}}"#);
    let e = serde_json::from_str::<T>(&json).expect_err("an unknown tag is refused").to_string();
    let list = e.split("expected one of").nth(1).unwrap_or_else(|| panic!("no variant list in: {e}"));
    list.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

pub(crate) fn tag_of(v: &impl serde::Serialize, tag: &str) -> String {
    serde_json::to_value(v).unwrap()[tag].as_str().expect("tagged").to_string()
}

#[test]
fn documented_options_parse_and_start_a_match() {
    let examples = blocks(DOC, "options");
    assert!(examples.len() >= 3, "the options examples are missing");
    for json in &examples {
        let o: DivinityOptions = parse(json);
        if let Err(e) = Divinity::start(&o, 1) {
            panic!("{json}: refused at start: {}", e.message);
        }
    }
    // Every option and every field of the campaign state is described.
    let campaign = examples.iter().find_map(|j| parse::<DivinityOptions>(j).campaign).expect("a campaign example");
    let mut keys = keys_of(&serde_json::to_value(DivinityOptions::default()).unwrap());
    keys.extend(keys_of(&serde_json::to_value(&campaign).unwrap()));
    for k in keys {
        assert!(DOC.contains(&format!("`{k}`")), "protocol/DIVINITY.md does not describe the option field {k}");
    }
}

#[test]
fn documented_actions_parse_and_every_action_has_an_example() {
    let mut seen = BTreeSet::new();
    for json in blocks(DOC, "action") {
        let a: A = parse(&json);
        seen.insert(tag_of(&a, "type"));
    }
    let all = variants::<A>("type");
    assert!(all.len() >= 30 && all.contains("choose_round") && all.contains("finish_interlude"), "{all:?}");
    for k in &all {
        assert!(seen.contains(k), "protocol/DIVINITY.md has no example of the action {k}");
    }
}

#[test]
fn documented_events_parse_and_every_event_has_an_example() {
    let mut seen = BTreeSet::new();
    for json in blocks(DOC, "event") {
        let e: DivinityEvent = parse(&json);
        seen.insert(tag_of(&e, "event"));
    }
    let all = variants::<DivinityEvent>("event");
    assert!(all.len() >= 30 && all.contains("round_started") && all.contains("location_finished"), "{all:?}");
    for k in &all {
        assert!(seen.contains(k), "protocol/DIVINITY.md has no example of the event {k}");
    }
}

/// A value with every leaf replaced by null and every array by the shape of
/// its first element: what must match between the example and a real view.
fn shape(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), shape(x))).collect()),
        Value::Array(a) => Value::Array(a.first().map(shape).into_iter().collect()),
        _ => Value::Null,
    }
}

/// Every object key anywhere in a value, map keys that are numbers aside.
fn keys_of(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(o) => {
                for (k, x) in o {
                    if k.parse::<u64>().is_err() {
                        out.insert(k.clone());
                    }
                    walk(x, out);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(v, &mut out);
    out
}

#[test]
fn the_view_example_is_a_real_view_and_every_view_field_is_named() {
    let examples = blocks(DOC, "view");
    assert_eq!(examples.len(), 1, "one full view example");
    let doc_view: Value = parse(&examples[0]);
    let options =
        DivinityOptions { party: vec!["ifan".into(), "sebille".into()], leader: Some(0), ..Default::default() };
    let s = Divinity::start(&options, 7).expect("setup");
    let real = serde_json::to_value(Divinity::view(&s, Viewer::Seat(1))).unwrap();
    assert_eq!(shape(&doc_view), shape(&real), "the view example's fields differ from a real view's");

    // A combat with an enemy and a roll waiting shows the nested fields too.
    let mut c = tutorial_combat_with(cat(), &["ifan", "sebille"]);
    ok(&mut c, 0, A::StartTurn);
    let enemy = c.enemies[0].id;
    ok(&mut c, 0, use_card(CardUse::Item("short_bow".into()), Aim::Enemy(enemy)));
    let combat = serde_json::to_value(Divinity::view(&c, Viewer::Spectator)).unwrap();
    assert!(combat["pending"].is_object() && combat["enemies"][0].is_object(), "{combat}");
    for k in keys_of(&real).union(&keys_of(&combat)) {
        let named =
            DOC.contains(&format!("\"{k}\"")) || DOC.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == k);
        assert!(named, "protocol/DIVINITY.md does not name the view field {k}");
    }
}

/// Codes in the first column of the refusal table.
fn documented_codes() -> BTreeSet<String> {
    let section = DOC.split("## Refusals").nth(1).expect("a Refusals section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

/// Every refusal code of the engine: its enum, from which alone a
/// `RuleError` is made.
fn engine_codes() -> BTreeSet<String> {
    use athlas_engine::refusal::Refusal;
    athlas_engine::divinity::DivinityRefusal::all().iter().map(|r| r.code().to_string()).collect()
}

#[test]
fn the_refusal_table_lists_exactly_the_engines_codes() {
    let engine = engine_codes();
    assert!(engine.len() >= 100 && engine.contains("not_leader"), "{engine:?}");
    let doc = documented_codes();
    let missing: Vec<_> = engine.difference(&doc).collect();
    let stale: Vec<_> = doc.difference(&engine).collect();
    assert!(missing.is_empty(), "refusal codes missing from protocol/DIVINITY.md: {missing:?}");
    assert!(stale.is_empty(), "protocol/DIVINITY.md lists codes the engine no longer uses: {stale:?}");
}

/// The view's `armor` adds up the cards as an attack meets them (L638):
/// Leather Armor "+1 physical armor", Wooden Shield "+1 magical armor"
/// (items.json), SUNDERED −2 physical (statuses.json), never below 0.
#[test]
fn the_view_adds_up_each_figures_armor() {
    use athlas_engine::divinity::status::Status;
    let mut s = start("tutorial", &["ifan", "red_prince"]);
    let armor = |s: &athlas_engine::divinity::DivinityState| {
        let v = serde_json::to_value(Divinity::view(s, Viewer::Spectator)).unwrap();
        v["armor"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["physical"].as_u64().unwrap(), a["magical"].as_u64().unwrap()))
            .collect::<Vec<_>>()
    };
    // Ifan: short bow and leather armor; the Red Prince: long sword, wooden shield, leather armor.
    assert_eq!(armor(&s), vec![(1, 0), (1, 1)]);
    s.origins[1].track.apply_status(Status::Sundered, 2);
    assert_eq!(armor(&s), vec![(1, 0), (0, 1)], "sundered: 1 − 2 stays at 0");
    // Enemies carry theirs too.
    let c = tutorial_combat_with(cat(), &["ifan", "sebille"]);
    let v = serde_json::to_value(Divinity::view(&c, Viewer::Spectator)).unwrap();
    let e = &v["enemies"][0]["armor"];
    assert!(e["physical"].is_u64() && e["magical"].is_u64(), "{e}");
}
