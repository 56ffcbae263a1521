//! The end of a match: who won and why, each seat's Alphas and DI stack as
//! the server reveals them, and whether each reveal matches the commitment
//! the seat made when it locked its creations in (so neither player, nor
//! the server, changed a hidden card after the fact).

use athlas_engine::duel::{
    alpha::AlphaDesign,
    card::{CardId, Catalogue},
    state::Phase,
    view::DuelView,
};
use athlas_engine::{Outcome, Seat};
use ratatui::{
    style::{Color, Modifier, Style},
    text::Line,
};
use serde::Deserialize;

use super::board::seat_name;
use athlas_engine::duel::words::card_name;

pub use crate::verify::{canonical_json, sealed as verify};

/// What a duel seat committed to.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Secret {
    pub alphas: Vec<AlphaDesign>,
    pub di_stack: Vec<CardId>,
}

/// One seat's reveal, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Revealed {
    pub seat: Seat,
    pub secret: Option<Secret>,
    /// The hash matches the salt and secret.
    pub hash_ok: bool,
    /// The hash is the one committed to before play (None: this client
    /// did not see the commitment, e.g. it joined later).
    pub matches_commitment: Option<bool>,
}

/// Why the game ended, read from a finished view. The engine ends a duel
/// three ways: a unit holds two relics, a seat resigns, or a draw is
/// agreed; so a win with no unit of the winner on two relics is the other
/// seat's resignation.
pub fn reason(view: &DuelView) -> Option<String> {
    let Phase::Finished { outcome } = &view.phase else { return None };
    Some(match outcome {
        Outcome::Draw => "both players agreed to a draw".into(),
        Outcome::Win { seat } => {
            let holder = view.units.iter().find(|u| {
                u.owner == *seat
                    && u.controller == *seat
                    && u.holds_relics
                    && view.hexes.iter().any(|h| h.hex == u.hex && h.relics >= 2)
            });
            match holder {
                Some(u) => format!("unit {} holds two relics at {}", u.id, u.hex),
                None => format!("{} resigned", seat_name(view, 1 - *seat)),
            }
        }
        other => format!("{other:?}"),
    })
}

/// The end screen's lines.
pub fn ending_lines(
    cat: &Catalogue,
    view: &DuelView,
    why: Option<&str>,
    reveals: &[Revealed],
    seed: Option<&str>,
) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut out = Vec::new();
    let verdict = match &view.phase {
        Phase::Finished { outcome: Outcome::Win { seat } } => {
            if view.viewer.seat() == Some(*seat) {
                "GAME OVER: you won".to_owned()
            } else {
                format!("GAME OVER: {} won", seat_name(view, *seat))
            }
        }
        Phase::Finished { outcome: Outcome::Draw } => "GAME OVER: a draw".into(),
        _ => "GAME OVER".into(),
    };
    out.push(Line::styled(verdict, bold.fg(Color::Yellow)));
    out.push(Line::from(format!("Why: {}.", why.unwrap_or("(ended before this client connected)"))));
    if reveals.is_empty() {
        out.push(Line::from("Waiting for the server to reveal both seats' hidden cards…"));
    }
    for (i, r) in reveals.iter().enumerate() {
        if i > 0 {
            out.push(Line::from(""));
        }
        let check = match (r.hash_ok, r.matches_commitment) {
            (true, Some(true)) => ("✓ matches its commitment", Color::Green),
            (true, None) => ("✓ hash checks (commitment not seen)", Color::Green),
            (true, Some(false)) => ("✗ differs from its commitment!", Color::LightRed),
            (false, _) => ("✗ hash does not check!", Color::LightRed),
        };
        out.push(Line::from(vec![
            ratatui::text::Span::styled(format!("{}: ", seat_name(view, r.seat)), bold),
            ratatui::text::Span::styled(check.0, Style::default().fg(check.1)),
        ]));
        let Some(s) = &r.secret else {
            out.push(Line::from("  (a secret this client cannot read)"));
            continue;
        };
        for (i, a) in s.alphas.iter().enumerate() {
            let names: Vec<String> = a.cards.iter().map(|c| card_name(cat, c)).collect();
            out.push(Line::from(format!(" Alpha {}: {}", i + 1, names.join(", "))));
        }
        let di: Vec<String> = s.di_stack.iter().map(|c| card_name(cat, c)).collect();
        out.push(Line::from(format!(" DI stack: {}", if di.is_empty() { "(none)".to_owned() } else { di.join(", ") })));
    }
    if let Some(seed) = seed {
        out.push(Line::from(format!("Seed {seed}: the match replays exactly from it.")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duel::board::tests::small_view;
    use serde_json::json;
    use sha2::{Digest, Sha256};

    #[test]
    fn a_commitment_verifies_against_its_salt_and_canonical_secret() {
        let secret = json!({"di_stack": ["flood"], "alphas": [{"cards": ["raider_of_the_deep"]}]});
        assert_eq!(canonical_json(&secret), r#"{"alphas":[{"cards":["raider_of_the_deep"]}],"di_stack":["flood"]}"#);
        let salt = "00ff";
        let mut h = Sha256::new();
        h.update([0u8, 255]);
        h.update(canonical_json(&secret).as_bytes());
        let hash = hex::encode(h.finalize());
        assert!(verify(salt, &secret, &hash));
        assert!(!verify("00fe", &secret, &hash));
        assert!(!verify(salt, &json!({"di_stack": [], "alphas": []}), &hash));
    }

    #[test]
    fn the_reason_is_a_resignation_or_two_relics_or_a_draw() {
        let mut v = small_view();
        assert!(reason(&v).is_none(), "not over");
        v.phase = Phase::Finished { outcome: Outcome::Win { seat: 1 } };
        assert_eq!(reason(&v).unwrap(), "you (seat 0) resigned");
        // Unit 2 of seat 1 stands on two relics.
        v.units[1].holds_relics = true;
        v.hexes.iter_mut().find(|h| h.hex == v.units[1].hex).unwrap().relics = 2;
        assert_eq!(reason(&v).unwrap(), "unit 2 holds two relics at [1,0]");
        v.phase = Phase::Finished { outcome: Outcome::Draw };
        assert_eq!(reason(&v).unwrap(), "both players agreed to a draw");
    }

    #[test]
    fn the_end_screen_says_who_won_why_and_shows_the_revealed_cards() {
        let cat = Catalogue::standard();
        let mut v = small_view();
        v.phase = Phase::Finished { outcome: Outcome::Win { seat: 0 } };
        let r = Revealed {
            seat: 1,
            secret: Some(Secret {
                alphas: vec![AlphaDesign::new(["forsaken_drake", "rakios_battle_suit"])],
                di_stack: vec!["flood".into()],
            }),
            hash_ok: true,
            matches_commitment: Some(true),
        };
        let lines: Vec<String> = ending_lines(cat, &v, Some("seat 1 resigned"), &[r], Some("42"))
            .iter()
            .map(super::super::board::plain)
            .collect();
        assert_eq!(lines[0], "GAME OVER: you won");
        assert_eq!(lines[1], "Why: seat 1 resigned.");
        assert!(lines.contains(&"seat 1: ✓ matches its commitment".to_owned()), "{lines:?}");
        assert!(lines.contains(&" Alpha 1: Forsaken Drake, Rakios Battle Suit".to_owned()), "{lines:?}");
        assert!(lines.contains(&" DI stack: Flood".to_owned()), "{lines:?}");
    }
}
