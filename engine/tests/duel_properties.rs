//! Property tests over whole random games: the engine never panics, a
//! rejected action leaves the state byte-for-byte equal, no view, event or
//! line of words (the event's, or the legal actions') shown to one seat
//! names a card the rules still hide from it, the action log replays
//! to the same state, and `apply_after_copy` (the server's path) answers
//! and changes the state as `apply` does.

use std::collections::BTreeSet;

use athlas_engine::duel::action::Target;
use athlas_engine::duel::bot::RandomBot;
use athlas_engine::duel::card::Catalogue;
use athlas_engine::duel::{Duel, DuelAction, DuelOptions, DuelState};
use athlas_engine::hex::Hex;
use athlas_engine::{replay, Ruleset, Seat, Viewer, Visible};
use proptest::prelude::*;

/// Card ids `viewer` must not see: the other seats' unrevealed Alphas and
/// uncast DI cards, minus every id that is public or the viewer's own.
fn secrets(s: &DuelState, viewer: Viewer, cast: &BTreeSet<String>) -> BTreeSet<String> {
    let g = &s.game;
    // Both seats play the same card set: a card cast by one is public even
    // while the other still holds its own copy.
    let mut public: BTreeSet<String> = cast.clone();
    let mut hidden: BTreeSet<String> = BTreeSet::new();
    for (seat, p) in g.players.iter().enumerate() {
        let mine = viewer == Viewer::Seat(seat as Seat);
        for a in &p.alphas {
            if mine || a.revealed {
                public.extend(a.design.cards.iter().map(|c| c.to_string()));
            } else {
                hidden.extend(a.design.cards.iter().map(|c| c.to_string()));
            }
        }
        if mine {
            public.extend(p.locked_stack.iter().map(|c| c.to_string()));
        } else {
            hidden.extend(p.di_stack.iter().map(|c| c.to_string()));
            // Discarded cards are out of the game but stay secret.
            hidden.extend(p.discarded.iter().map(|c| c.to_string()));
        }
    }
    public.extend(g.active_dis.iter().map(|d| d.card.to_string()));
    if let Some(p) = &s.pending {
        public.insert(p.card.to_string());
    }
    hidden.difference(&public).cloned().collect()
}

/// Every string in a JSON value, except figure types (which share names
/// with genus cards: a "shadow_ranger" figure is not the Shadow Ranger card).
fn strings(v: &serde_json::Value, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::String(s) => {
            out.insert(s.clone());
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.iter().filter(|(k, _)| *k != "figure").for_each(|(_, x)| strings(x, out)),
        _ => {}
    }
}

fn assert_no_leak(s: &DuelState, viewer: Viewer, cast: &BTreeSet<String>, json: &serde_json::Value, what: &str) {
    let mut seen = BTreeSet::new();
    strings(json, &mut seen);
    for id in secrets(s, viewer, cast) {
        assert!(!seen.contains(&id), "{what} for {viewer:?} leaks hidden card {id}");
    }
}

/// Words may not name a hidden card either: by its printed name. (A
/// figure shares its name with a genus card: "Shadow Ranger figures" is
/// the figure.)
fn assert_no_leak_in_words(s: &DuelState, viewer: Viewer, cast: &BTreeSet<String>, lines: &[&str], what: &str) {
    let cat = Catalogue::standard();
    for id in secrets(s, viewer, cast) {
        let name = cat.card(&id).map(|c| c.name.clone()).or_else(|| cat.di_card(&id).map(|c| c.name.clone()));
        let Some(name) = name else { continue };
        for line in lines {
            let told = line.replace(&format!("{name} figures"), "");
            assert!(!told.contains(&name), "{what} for {viewer:?} names hidden card {name}: {line:?}");
        }
    }
}

/// An action that is usually illegal: random ids, hexes and timings.
fn junk(bot: &mut RandomBot) -> DuelAction {
    let hex = Hex::new(bot.below(13) as i32 - 6, bot.below(13) as i32 - 6);
    let id = bot.below(12) as u32;
    let unit = Some(id);
    match bot.below(11) {
        0 => DuelAction::Move { to: hex, carry_relic: None },
        1 => DuelAction::Activate { unit: id },
        2 => DuelAction::Summon { alpha: bot.below(5), hex, figure: None },
        3 => DuelAction::UsePower {
            card: "karoos_blade".into(),
            power: 0,
            target: Target { unit, ..Default::default() },
        },
        4 => DuelAction::CastDi {
            target: Target {
                unit,
                hex: Some(hex),
                direction: Some(bot.below(8) as u8),
                distance: Some(bot.below(4) as u32),
                carry_relic: Some(bot.below(2) == 0),
                ..Default::default()
            },
            at: Some(bot.below(4)),
        },
        5 => DuelAction::PassRelic { to: id },
        6 => DuelAction::EndTurn,
        7 => DuelAction::ChooseCasualty { unit: id },
        8 => DuelAction::DiscardDi { count: bot.below(6) },
        9 => DuelAction::CarryRelic { carry: bot.below(2) == 0 },
        _ => DuelAction::AcceptDraw,
    }
}

fn play(seed: u64, campaign: bool, steps: usize) {
    let cat = Catalogue::standard();
    let options = DuelOptions { campaign: campaign.then(Default::default), ..Default::default() };
    let mut s = Duel::start(&options, seed).unwrap();
    let mut bot = RandomBot::new(seed ^ 0x9E37);
    let mut log: Vec<(Seat, DuelAction)> = Vec::new();
    let mut cast: BTreeSet<String> = BTreeSet::new();
    for _ in 0..steps {
        if Duel::status(&s).is_finished() {
            break;
        }
        // A junk action from a random seat: rejected ⇒ unchanged.
        let seat = bot.below(2) as Seat;
        let j = junk(&mut bot);
        let before = serde_json::to_string(&s).unwrap();
        // Through the server's path (`apply_after_copy`, given the copy
        // its table keeps) as through `apply`: the same answer and state.
        let kept = s.clone();
        let mut by_apply = s.clone();
        let applied = Duel::apply(&mut by_apply, seat, j.clone());
        let answer = Duel::apply_after_copy(&mut s, &kept, seat, j.clone());
        assert_eq!(format!("{applied:?}"), format!("{answer:?}"), "{j:?}");
        assert_eq!(serde_json::to_string(&by_apply).unwrap(), serde_json::to_string(&s).unwrap(), "{j:?}");
        match answer {
            Ok(events) => {
                for e in &events {
                    if let athlas_engine::duel::event::EventKind::DiCast { card, .. } = &e.kind {
                        cast.insert(card.to_string());
                    }
                }
                log.push((seat, j));
            }
            Err(e) => {
                assert!(!e.message.is_empty());
                assert_eq!(before, serde_json::to_string(&s).unwrap(), "rejected {j:?} changed the state");
            }
        }
        if Duel::status(&s).is_finished() {
            break;
        }
        let Some(seat) = bot.seat_to_act(&s) else { break };
        let Some(a) = bot.pick(&s, cat, seat) else { break };
        let before = s.clone();
        // The log replayed below by `apply` must reach the state this
        // reached by `apply_after_copy`.
        let events = Duel::apply_after_copy(&mut s, &before, seat, a.clone())
            .unwrap_or_else(|e| panic!("legal {a:?} rejected: {e}"));
        let words = Duel::event_words(&before, &s, &events);
        log.push((seat, a));
        for e in &events {
            if let athlas_engine::duel::event::EventKind::DiCast { card, .. } = &e.kind {
                cast.insert(card.to_string());
            }
        }
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            let view = serde_json::to_value(Duel::view(&s, viewer)).unwrap();
            assert_no_leak(&s, viewer, &cast, &view, "view");
            let seen: Vec<_> = events.iter().filter(|e| e.visible_to(viewer)).collect();
            assert_no_leak(&s, viewer, &cast, &serde_json::to_value(&seen).unwrap(), "events");
            // Each line goes where its event goes (the server's rule).
            let told: Vec<&str> =
                events.iter().zip(&words).filter(|(e, _)| e.visible_to(viewer)).map(|(_, w)| w.as_str()).collect();
            assert_no_leak_in_words(&s, viewer, &cast, &told, "event words");
            if let Viewer::Seat(me) = viewer {
                let legal = Duel::legal(&s, me);
                let said = Duel::action_words(&s, me, &legal);
                let texts: Vec<&str> = said.iter().filter_map(|w| w["text"].as_str()).collect();
                assert_no_leak_in_words(&s, viewer, &cast, &texts, "action words");
            }
        }
    }
    let rebuilt = replay::<Duel>(&options, seed, log).expect("the log replays");
    assert_eq!(serde_json::to_string(&rebuilt).unwrap(), serde_json::to_string(&s).unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_invariants(seed in any::<u64>()) {
        play(seed, false, 160);
    }

    #[test]
    fn random_campaign_games_keep_the_invariants(seed in any::<u64>()) {
        play(seed, true, 60);
    }
}
