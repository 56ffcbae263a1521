//! The menu: the view's legal actions grouped and numbered, each in the
//! engine's words (`athlas_engine::duel::words`, the one describer every
//! screen of the duel shares; the web page reads the same words from the
//! server), with the hexes each is about.

use athlas_engine::duel::{
    card::Catalogue,
    view::DuelView,
    words::{self, Names},
    DuelAction, Target,
};
use athlas_engine::hex::Hex;

pub use athlas_engine::duel::words::Group;

/// One action in the engine's words, as the viewer's seat reads it.
pub fn label(cat: &Catalogue, view: &DuelView, a: &DuelAction) -> String {
    // A spectator has no menu; its seat is never named as "your".
    let seat = view.viewer.seat().unwrap_or(u8::MAX);
    words::action(Names { cat, table: view, before: None, seats: athlas_engine::SeatNames::none() }, seat, a).text
}

/// The hexes an action is about, to highlight on the board.
pub fn hexes(view: &DuelView, a: &DuelAction) -> Vec<Hex> {
    let unit_hex = |id: u32| view.units.iter().find(|u| u.id == id).map(|u| u.hex);
    let target = |t: &Target| {
        let mut v: Vec<Hex> = t.unit.and_then(unit_hex).into_iter().collect();
        v.extend(t.hex);
        v.extend(t.hexes.iter().copied());
        v.extend(t.dest);
        v
    };
    match a {
        DuelAction::Summon { hex, .. } => vec![*hex],
        DuelAction::Move { to, .. } => vec![*to],
        DuelAction::Activate { unit } | DuelAction::PassRelic { to: unit } | DuelAction::ChooseCasualty { unit } => {
            unit_hex(*unit).into_iter().collect()
        }
        DuelAction::CarryRelic { .. } => {
            view.relic_choice.as_ref().and_then(|c| unit_hex(c.unit)).into_iter().collect()
        }
        DuelAction::UsePower { target: t, .. } | DuelAction::CastDi { target: t, .. } => target(t),
        _ => Vec::new(),
    }
}

/// One entry of the action menu.
#[derive(Debug, Clone, PartialEq)]
pub struct MenuItem {
    pub group: Group,
    pub label: String,
    pub action: DuelAction,
}

/// `view.legal` as a menu, grouped; for a seat in the Command Phase,
/// resigning and the auto-pass switch are added (always allowed, so the
/// engine leaves them out of `legal`). An entry that offers a choice of
/// several hexes (Flood, Tsunami: `target.choose`) is offered here one hex
/// at a time, each sent as that one-hex choice.
pub fn menu(cat: &Catalogue, view: &DuelView) -> Vec<MenuItem> {
    let mut actions: Vec<DuelAction> = view
        .legal
        .iter()
        .flat_map(|a| match a.hex_choice() {
            Some(c) => c.from.iter().filter_map(|h| a.with_hexes(vec![*h])).collect(),
            None => vec![a.clone()],
        })
        .collect();
    let in_command = matches!(view.phase, athlas_engine::duel::state::Phase::Command);
    if let (Some(s), true) = (view.viewer.seat(), in_command) {
        let auto = view.players.iter().find(|p| p.seat == s).is_some_and(|p| p.auto_pass);
        actions.push(DuelAction::SetAutoPass { on: !auto });
        actions.push(DuelAction::Resign);
    }
    let mut items: Vec<MenuItem> = actions
        .into_iter()
        .map(|a| MenuItem { group: Group::of(&a), label: label(cat, view, &a), action: a })
        .collect();
    items.sort_by_key(|i| i.group); // stable: the server's order within a group
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duel::board::tests::small_view;

    /// The menu over everything random duels list: every legal action of
    /// every seat, and the resign and auto-pass entries added, in the
    /// engine's words, never protocol data (braces, quotes,
    /// null/true/false, snake_case ids), grouped in order; the kinds the
    /// legal lists produce all met.
    #[test]
    fn every_listed_duel_action_reads_as_words() {
        use athlas_engine::duel::{bot::RandomBot, Duel, DuelOptions};
        use athlas_engine::{Ruleset, Status, Viewer};
        let cat = Catalogue::standard();
        let mut kinds = std::collections::BTreeSet::new();
        let bad = |t: &str| {
            ["{", "}", "\"", "null", "true", "false"].iter().any(|b| t.contains(b))
                || t.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w.contains('_'))
        };
        for seed in 0..12u64 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = RandomBot::new(seed);
            for _ in 0..600 {
                let Status::Waiting { .. } = Duel::status(&s) else { break };
                for seat in 0..2 {
                    let v = Duel::view(&s, Viewer::Seat(seat));
                    let m = menu(cat, &v);
                    assert!(m.windows(2).all(|w| w[0].group <= w[1].group), "grouped in order");
                    for i in &m {
                        assert!(!bad(&i.label), "{:?} reads {:?}", i.action, i.label);
                        kinds.insert(serde_json::to_value(&i.action).unwrap()["type"].as_str().unwrap().to_owned());
                    }
                }
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let _ = Duel::apply(&mut s, seat, a);
            }
        }
        for k in [
            "summon",
            "activate",
            "move",
            "use_power",
            "end_activation",
            "end_activations",
            "end_turn",
            "pass",
            "cast_di",
        ] {
            assert!(kinds.contains(k), "random duels never listed {k}: {kinds:?}");
        }
    }

    #[test]
    fn actions_read_as_words() {
        let cat = Catalogue::standard();
        let v = small_view();
        let l = |a: DuelAction| label(cat, &v, &a);
        assert_eq!(l(DuelAction::Move { to: Hex::new(1, -1), carry_relic: None }), "Move to [1,-1]");
        assert_eq!(l(DuelAction::Activate { unit: 1 }), "Activate your knight 1 at [0,0]");
        assert_eq!(
            l(DuelAction::Summon { alpha: 0, hex: Hex::new(0, 1), figure: None }),
            "Summon Alpha 1 (knight) for 20 points at [0,1]"
        );
        assert_eq!(
            l(DuelAction::CastDi { target: Target { unit: Some(2), ..Target::default() }, at: Some(0) }),
            "Cast bolt on Seat 1's wolf 2 at [1,0], timed at the start of this activation (what followed is undone)"
        );
        assert_eq!(
            l(DuelAction::DiscardDi { count: 2 }),
            "Discard 2 Divine Intervention cards from the top of your stack"
        );
        assert_eq!(
            l(DuelAction::UsePower {
                card: "fire".into(),
                power: 0,
                target: Target { hex: Some(Hex::new(0, 1)), direction: Some(3), ..Target::default() }
            }),
            "fire on hex [0,1], pushed west"
        );
        // Waiting on seat 1's bolt: the pass says what it lets happen.
        assert_eq!(l(DuelAction::Pass), "Pass: let Seat 1's bolt take effect");
    }

    #[test]
    fn the_menu_groups_legal_actions_and_adds_resign() {
        let cat = Catalogue::standard();
        let mut v = small_view();
        v.legal = vec![
            DuelAction::EndTurn,
            DuelAction::Move { to: Hex::new(0, 1), carry_relic: None },
            DuelAction::Activate { unit: 1 },
        ];
        let m = menu(cat, &v);
        let groups: Vec<Group> = m.iter().map(|i| i.group).collect();
        assert_eq!(groups, [Group::Activate, Group::Move, Group::Di, Group::End, Group::Other]);
        assert_eq!(m.last().unwrap().action, DuelAction::Resign);
        assert_eq!(m[2].label, "Pass every response window automatically");
    }

    #[test]
    fn highlighted_hexes_follow_the_action() {
        let v = small_view();
        assert_eq!(hexes(&v, &DuelAction::Activate { unit: 2 }), [Hex::new(1, 0)]);
        let t = Target { unit: Some(1), dest: Some(Hex::new(-1, 1)), ..Target::default() };
        assert_eq!(
            hexes(&v, &DuelAction::UsePower { card: "x".into(), power: 0, target: t }),
            [Hex::new(0, 0), Hex::new(-1, 1)]
        );
        assert!(hexes(&v, &DuelAction::EndTurn).is_empty());
    }
}
