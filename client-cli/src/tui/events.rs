//! Events in words for the log: every duel event as a sentence, Alphas
//! numbered from 1 as everywhere else, figures and causes as words, never
//! raw JSON.

use athlas_engine::duel::{
    card::{Catalogue, Terrain},
    event::{DuelEvent, EventKind, LifeCause},
    view::DuelView,
};
use athlas_engine::{Outcome, Seat};
use serde_json::Value;

use super::labels::{alpha_name, card_name, figure_name};

/// `you` for the viewer's own seat, `seat N` otherwise.
fn who(view: Option<&DuelView>, s: Seat) -> String {
    if view.and_then(|v| v.viewer.seat()) == Some(s) {
        "you".into()
    } else {
        format!("seat {s}")
    }
}

/// `your` for the viewer's own seat, `seat N's` otherwise.
fn whose(view: Option<&DuelView>, s: Seat) -> String {
    if view.and_then(|v| v.viewer.seat()) == Some(s) {
        "your".into()
    } else {
        format!("seat {s}'s")
    }
}

/// `Alpha 2 (Forsaken Drake) of seat 1`, or `your Alpha 2 (…)`.
fn alpha_of(cat: &Catalogue, view: Option<&DuelView>, s: Seat, index: usize) -> String {
    let name = match view {
        Some(v) => alpha_name(cat, v, s, index),
        None => format!("Alpha {}", index + 1),
    };
    if view.and_then(|v| v.viewer.seat()) == Some(s) {
        format!("your {name}")
    } else {
        format!("{name} of seat {s}")
    }
}

fn terrain_word(t: Terrain) -> &'static str {
    match t {
        Terrain::Plains => "plains",
        Terrain::Hill => "a hill",
        Terrain::Water => "water",
        Terrain::Crater => "a crater",
    }
}

fn cause_word(c: LifeCause) -> &'static str {
    match c {
        LifeCause::Attack => "attack",
        LifeCause::Power => "power",
        LifeCause::Drowning => "drowning",
        LifeCause::Falling => "fall",
        LifeCause::Crushed => "crushed",
        LifeCause::Sacrifice => "sacrifice",
        LifeCause::Explosion => "explosion",
    }
}

fn s(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// One event as a sentence. `view` (the receiver's view after the update)
/// names Alphas where the receiver can see them.
pub fn event_words(cat: &Catalogue, view: Option<&DuelView>, ev: &Value) -> String {
    let Ok(e) = serde_json::from_value::<DuelEvent>(ev.clone()) else {
        // A newer server's event: its name, never its raw fields.
        let name = ev.get("event").and_then(Value::as_str).unwrap_or("something");
        return format!("{} (an event this client does not know)", name.replace('_', " "));
    };
    let w = |s: Seat| who(view, s);
    let ws = |s: Seat| whose(view, s);
    let alpha = |s: Seat, i: usize| alpha_of(cat, view, s, i);
    match e.kind {
        EventKind::CreationLocked { seat } => format!("{} locked in Alphas and DI stack", w(seat)),
        EventKind::CommandPhaseBegins { first_player } => {
            format!(
                "the Command Phase begins; {} play{} first",
                w(first_player),
                if view.and_then(|v| v.viewer.seat()) == Some(first_player) { "" } else { "s" }
            )
        }
        EventKind::TurnBegins { seat, turn } => format!(
            "── turn {turn}: {} ──",
            if w(seat) == "you" { "your turn".to_owned() } else { format!("{}'s turn", w(seat)) }
        ),
        EventKind::MarkerExpired { unit } => format!("a condition marker on unit {unit} ended"),
        EventKind::DiCubeRemoved { seat, card, cubes_left } => {
            format!("{} {}: {cubes_left} turn{} left", ws(seat), card_name(cat, &card), s(cubes_left))
        }
        EventKind::DiExpired { seat, card } => format!("{} {} ended", ws(seat), card_name(cat, &card)),
        EventKind::Regenerated { seat, alpha: a, amount, life } => {
            format!("{} regenerated {amount} (life {life})", alpha(seat, a))
        }
        EventKind::AlphaRevealed { seat, alpha: a, design, cost, life, figure } => {
            let cards: Vec<String> = design.cards.iter().map(|c| card_name(cat, c)).collect();
            format!(
                "{} revealed Alpha {}: {} (cost {cost}, life {life}, {} figures)",
                w(seat),
                a + 1,
                cards.join(", "),
                figure_name(figure)
            )
        }
        EventKind::Summoned { seat, alpha: a, unit, hex, spent } => {
            format!("{} summoned unit {unit} of Alpha {} at {hex} ({spent} points used)", w(seat), a + 1)
        }
        EventKind::Activated { unit } => format!("unit {unit} activated"),
        EventKind::Moved { unit, from, to, relics } => {
            let carry =
                if relics > 0 { format!(" carrying {relics} relic{}", s(relics as u64)) } else { String::new() };
            format!("unit {unit} moved {from} → {to}{carry}")
        }
        EventKind::RelicMoved { from, to } => format!("a relic moved {from} → {to}"),
        EventKind::PowerUsed { unit, card, power } => {
            format!("unit {unit} used {power} ({})", card_name(cat, &card))
        }
        EventKind::Attacked { attacker, target, value, armor, damage } => {
            let by = attacker.map_or("an attack".to_owned(), |a| format!("unit {a}"));
            format!("{by} hit unit {target}: attack {value} − armor {armor} = {damage} damage")
        }
        EventKind::LifeLost { seat, alpha: a, unit, amount, cause, life } => {
            format!("{} lost {amount} life (unit {unit}, {}); {life} left", alpha(seat, a), cause_word(cause))
        }
        EventKind::Healed { seat, alpha: a, amount, life } => {
            format!("{} healed {amount}; life {life}", alpha(seat, a))
        }
        EventKind::Died { unit, seat, alpha: a, life } => {
            format!("unit {unit} died; {} is back to {life} life", alpha(seat, a))
        }
        EventKind::TerrainChanged { hex, terrain } => format!("{hex} became {}", terrain_word(terrain)),
        EventKind::Marked { unit } => format!("unit {unit} got a condition marker"),
        EventKind::Controlled { unit, by } => format!("{} took control of unit {unit} for this turn", w(by)),
        EventKind::ActivationEnded { unit } => format!("unit {unit} ended its activation"),
        EventKind::WindowOpened { seat } => format!("{} may answer with a DI (or pass)", w(seat)),
        EventKind::DiCast { seat, card } => format!("{} cast {}", w(seat), card_name(cat, &card)),
        EventKind::DiResolved { seat, card } => format!("{} {} took effect", ws(seat), card_name(cat, &card)),
        EventKind::DiFizzled { seat, card, reason } => {
            format!("{} {} had no effect: {reason}", ws(seat), card_name(cat, &card))
        }
        EventKind::Rewound { checkpoint } => match checkpoint {
            0 => "the activation went back to its start for the DI".into(),
            k => format!("the activation went back to just after power {k} for the DI"),
        },
        EventKind::DiDiscarded { seat, count } => {
            format!("{} discarded {count} DI card{} unseen", w(seat), s(count as u64))
        }
        EventKind::DiDiscardedCards { cards, .. } => {
            let names: Vec<String> = cards.iter().map(|c| card_name(cat, c)).collect();
            format!("(you discarded {})", names.join(", "))
        }
        EventKind::Passed { seat } => format!("{} passed", w(seat)),
        EventKind::CasualtyChosen { seat, unit } => format!("{} chose unit {unit} to die", w(seat)),
        EventKind::RelicChoiceAwaited { seat, unit } => {
            format!(
                "unit {unit} is pushed: {} decide{} whether it carries its relic",
                w(seat),
                if w(seat) == "you" { "" } else { "s" }
            )
        }
        EventKind::RelicCarryChosen { seat, unit, carry } => format!(
            "{} chose: unit {unit} {}",
            w(seat),
            if carry { "carries its relic along" } else { "leaves its relic behind" }
        ),
        EventKind::DrawOffered { seat } => format!("{} offered a draw", w(seat)),
        EventKind::DrawDeclined { seat } => format!("{} declined the draw", w(seat)),
        EventKind::GameOver { outcome } => match outcome {
            Outcome::Win { seat } if w(seat) == "you" => "GAME OVER: you won".into(),
            Outcome::Win { seat } => format!("GAME OVER: {} won", w(seat)),
            Outcome::Draw => "GAME OVER: a draw".into(),
            other => format!("GAME OVER: {other:?}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::board::tests::small_view;
    use serde_json::json;

    fn words(ev: Value) -> String {
        event_words(Catalogue::standard(), Some(&small_view()), &ev)
    }

    #[test]
    fn events_read_as_sentences() {
        assert_eq!(
            words(json!({"event":"moved","unit":3,"from":[0,1],"to":[1,1],"relics":1})),
            "unit 3 moved [0,1] → [1,1] carrying 1 relic"
        );
        assert_eq!(words(json!({"event":"turn_begins","seat":1,"turn":4})), "── turn 4: seat 1's turn ──");
        assert_eq!(
            words(json!({"event":"command_phase_begins","first_player":0})),
            "the Command Phase begins; you play first"
        );
        assert_eq!(
            words(json!({"event":"life_lost","seat":1,"alpha":0,"unit":2,"amount":5,"cause":"drowning","life":7})),
            "Alpha 1 (wolf) of seat 1 lost 5 life (unit 2, drowning); 7 left"
        );
        assert_eq!(words(json!({"event":"di_cast","seat":1,"card":"lightning_bolt"})), "seat 1 cast Lightning Bolt");
        assert_eq!(words(json!({"event":"di_resolved","seat":0,"card":"flood"})), "your Flood took effect");
        assert_eq!(words(json!({"event":"di_resolved","seat":1,"card":"flood"})), "seat 1's Flood took effect");
        assert_eq!(words(json!({"event":"game_over","outcome":{"result":"win","seat":0}})), "GAME OVER: you won");
    }

    #[test]
    fn revealed_alphas_name_cards_and_figures_and_count_from_one() {
        let t = words(json!({"event":"alpha_revealed","seat":1,"alpha":1,
            "design":{"cards":["forsaken_drake","rakios_battle_suit"]},"cost":16,"life":8,"figure":"forsaken_drake"}));
        assert_eq!(
            t,
            "seat 1 revealed Alpha 2: Forsaken Drake, Rakios Battle Suit (cost 16, life 8, Forsaken Drake figures)"
        );
        assert!(!t.contains('{') && !t.contains('"'), "no raw JSON: {t}");
    }

    #[test]
    fn every_event_kind_is_words_without_json() {
        let hex = json!([0, 1]);
        let all = [
            json!({"event":"creation_locked","seat":1}),
            json!({"event":"marker_expired","unit":1}),
            json!({"event":"di_cube_removed","seat":0,"card":"paralysis","cubes_left":1}),
            json!({"event":"di_expired","seat":0,"card":"paralysis"}),
            json!({"event":"regenerated","seat":0,"alpha":0,"amount":2,"life":9}),
            json!({"event":"summoned","seat":0,"alpha":2,"unit":5,"hex":hex,"spent":60}),
            json!({"event":"activated","unit":1}),
            json!({"event":"relic_moved","from":hex,"to":[1,1]}),
            json!({"event":"power_used","unit":1,"card":"forsaken_drake","power":"Claws"}),
            json!({"event":"attacked","attacker":1,"target":2,"value":5,"armor":1,"damage":4}),
            json!({"event":"healed","seat":0,"alpha":0,"amount":3,"life":10}),
            json!({"event":"died","unit":2,"seat":1,"alpha":0,"life":12}),
            json!({"event":"terrain_changed","hex":hex,"terrain":"crater"}),
            json!({"event":"marked","unit":2}),
            json!({"event":"controlled","unit":2,"by":0}),
            json!({"event":"activation_ended","unit":1}),
            json!({"event":"window_opened","seat":1}),
            json!({"event":"di_resolved","seat":1,"card":"flood"}),
            json!({"event":"di_fizzled","seat":1,"card":"flood","reason":"no target"}),
            json!({"event":"rewound","checkpoint":1}),
            json!({"event":"di_discarded","seat":1,"count":2}),
            json!({"event":"di_discarded_cards","seat":0,"cards":["flood"]}),
            json!({"event":"passed","seat":1}),
            json!({"event":"casualty_chosen","seat":1,"unit":2}),
            json!({"event":"draw_offered","seat":1}),
            json!({"event":"draw_declined","seat":0}),
            json!({"event":"game_over","outcome":{"result":"draw"}}),
        ];
        for ev in all {
            let t = words(ev.clone());
            assert!(!t.contains("does not know"), "{ev} parses: {t}");
            assert!(!t.contains(['{', '"', '_']), "{ev} → {t}");
        }
        assert_eq!(words(json!({"event":"new_thing","x":{"y":1}})), "new thing (an event this client does not know)");
    }
}
