//! The views of one record share their table (`Divinity::views`: one
//! `TableView` behind every viewer's `you`), take the front of the record
//! before's while its location and ending stay, and read back from their
//! JSON as written; a view changed afterwards is its own.

use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::state::Phase;
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityView};
use athlas_engine::{Ruleset, Viewer};

use crate::divinity_support::{bot_step, same, waiting};

fn options(location: &str, size: usize) -> DivinityOptions {
    let party = ["ifan", "sebille", "red_prince", "fane"];
    DivinityOptions {
        party: party[..size].iter().map(|p| p.to_string()).collect(),
        location: Some(location.into()),
        ..DivinityOptions::default()
    }
}

/// Whether `view`'s front is made from an ending of the location (its
/// outcome), which the record before's may not share.
fn ending(view: &DivinityView) -> bool {
    matches!(view.phase, Phase::Finished { .. } | Phase::Interlude(_))
}

/// Over party-bot games from a location's start through its end: every
/// record's views are one table, each equal to the view built alone (its
/// JSON too); the front is the record before's whenever location and
/// ending are, in play and through the interlude alike.
#[test]
fn a_records_views_share_one_table_and_keep_the_front() {
    let cat = Catalogue::standard();
    let (mut kept_in_play, mut kept_in_interlude, mut told) = (0, 0, 0);
    for (location, size, seed) in [("shipwreck", 3, 1), ("tutorial", 2, 3), ("fort_joy", 3, 0)] {
        let mut s = Divinity::start(&options(location, size), seed).expect("setup");
        let mut viewers: Vec<Viewer> = (0..size as u8).map(Viewer::Seat).collect();
        viewers.push(Viewer::Spectator);
        let mut before: Option<DivinityView> = None;
        for i in 0..1_500 {
            let record = Divinity::views(&s, &viewers, true, before.as_ref());
            for (view, viewer) in record.iter().zip(&viewers) {
                assert!(view.shares_table(&record[0]), "{viewer:?}");
                assert_eq!(view.you, viewer.seat());
                let alone = Divinity::view(&s, *viewer);
                assert_eq!(view, &alone, "{viewer:?}");
                assert_eq!(serde_json::to_string(view).unwrap(), serde_json::to_string(&alone).unwrap());
            }
            let first = &record[0];
            match &before {
                Some(b) if b.location == first.location && !ending(b) && !ending(first) => {
                    assert!(same(&first.front, &b.front), "a front told again in play ({:?})", first.phase);
                    kept_in_play += 1;
                }
                Some(b) if same(&first.front, &b.front) => {
                    assert_eq!(b.front, Divinity::view(&s, Viewer::Spectator).front);
                    kept_in_interlude += usize::from(matches!(first.phase, Phase::Interlude(_)));
                }
                _ => told += 1,
            }
            before = record.into_iter().next().map(Divinity::keep_as_before);
            if waiting(&s).is_empty() || !bot_step(cat, &mut s, i) {
                break;
            }
        }
    }
    assert!(
        kept_in_play > 300 && kept_in_interlude > 5,
        "{kept_in_play} kept in play, {kept_in_interlude} in the interlude"
    );
    assert!(told >= 3, "the first record's front and the endings' are told: {told}");
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
