//! The views of one record share their table (`Divinity::views`: one
//! `TableView` behind every viewer's `you`) and read back from their JSON
//! as written; a view changed afterwards is its own.

use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityView};
use athlas_engine::{Ruleset, Viewer};

use crate::divinity_support::{bot_step, waiting};

fn options(location: &str, size: usize) -> DivinityOptions {
    let party = ["ifan", "sebille", "red_prince", "fane"];
    DivinityOptions {
        party: party[..size].iter().map(|p| p.to_string()).collect(),
        location: Some(location.into()),
        ..DivinityOptions::default()
    }
}

/// A view changed after its record's text was written is its own: it is
/// written anew, as its fields say, and the other views of the record
/// keep theirs.
#[test]
fn a_view_changed_after_it_was_written_is_written_anew() {
    let s = Divinity::start(&options("shipwreck", 3), 1).expect("setup");
    let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];
    let record = Divinity::views(&s, &viewers, true, None);
    let written: Vec<String> = record.iter().map(|v| serde_json::to_string(v).unwrap()).collect();
    let mut changed = record[1].clone();
    changed.gold += 5;
    changed.discard.push("2".into());
    assert!(!changed.shares_table(&record[1]));
    let json = serde_json::to_string(&changed).unwrap();
    assert_eq!(json, changed.json_by_serde());
    assert_ne!(json, written[1]);
    assert!(json.contains(&format!("\"gold\":{}", s.gold + 5)), "{json}");
    for (view, json) in record.iter().zip(&written) {
        assert_eq!(&serde_json::to_string(view).unwrap(), json, "the others keep theirs");
    }
}

/// Every viewer's view reads back from its JSON as the view it was, its
/// `you` included, and is written again to the same text.
#[test]
fn a_view_reads_back_as_written() {
    let cat = Catalogue::standard();
    let mut s = Divinity::start(&options("hollow_marshes", 4), 0).expect("setup");
    let mut viewers: Vec<Viewer> = (0..4).map(Viewer::Seat).collect();
    viewers.push(Viewer::Spectator);
    let mut before: Option<DivinityView> = None;
    for i in 0..300 {
        let record = Divinity::views(&s, &viewers, true, before.as_ref());
        if i % 10 == 0 {
            for view in &record {
                let json = serde_json::to_string(view).unwrap();
                let back: DivinityView = serde_json::from_str(&json).expect("a view reads back");
                assert_eq!(&back, view);
                assert_eq!(back.you, view.you);
                assert_eq!(serde_json::to_string(&back).unwrap(), json);
            }
        }
        before = record.into_iter().next();
        if waiting(&s).is_empty() || !bot_step(cat, &mut s, i) {
            break;
        }
    }
}

