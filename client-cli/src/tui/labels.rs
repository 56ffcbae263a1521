//! Words for what the server sends: legal actions as a grouped, numbered
//! menu, with the hexes each is about. Pure functions of the view.

use athlas_engine::duel::{
    card::{CardKind, Catalogue},
    state::Figure,
    view::DuelView,
    DuelAction, Target,
};
use athlas_engine::hex::Hex;
use athlas_engine::Seat;

/// Menu groups, in the order they are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Creation,
    Respond,
    Summon,
    Activate,
    Move,
    Power,
    Di,
    End,
    Other,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::Creation => "creation",
            Group::Respond => "respond",
            Group::Summon => "summon",
            Group::Activate => "activate",
            Group::Move => "move",
            Group::Power => "powers",
            Group::Di => "divine interventions",
            Group::End => "end",
            Group::Other => "other",
        }
    }
}

pub fn group(a: &DuelAction) -> Group {
    match a {
        DuelAction::Create { .. } | DuelAction::UsePreset { .. } => Group::Creation,
        DuelAction::ChooseCasualty { .. } | DuelAction::CarryRelic { .. } | DuelAction::Pass => Group::Respond,
        DuelAction::Summon { .. } => Group::Summon,
        DuelAction::Activate { .. } => Group::Activate,
        DuelAction::Move { .. } | DuelAction::PassRelic { .. } => Group::Move,
        DuelAction::UsePower { .. } => Group::Power,
        DuelAction::CastDi { .. } | DuelAction::DiscardDi { .. } | DuelAction::SetAutoPass { .. } => Group::Di,
        DuelAction::EndActivation | DuelAction::EndActivations | DuelAction::EndTurn => Group::End,
        DuelAction::OfferDraw | DuelAction::AcceptDraw | DuelAction::DeclineDraw | DuelAction::Resign => Group::Other,
    }
}

pub fn card_name(cat: &Catalogue, id: &str) -> String {
    cat.card(id)
        .map(|c| c.name.clone())
        .or_else(|| cat.di_card(id).map(|c| c.name.clone()))
        .unwrap_or_else(|| id.to_owned())
}

/// An Alpha's name: its genus card's name where the viewer can see it.
pub fn alpha_name(cat: &Catalogue, view: &DuelView, seat: Seat, index: usize) -> String {
    let design =
        view.players.iter().find(|p| p.seat == seat).and_then(|p| p.alphas.get(index)).and_then(|a| a.design.as_ref());
    let genus = design.and_then(|d| {
        d.cards.iter().find(|id| cat.card(id).is_some_and(|c| c.kind == CardKind::Genus)).or(d.cards.first())
    });
    match genus {
        Some(id) => format!("Alpha {} ({})", index + 1, card_name(cat, id)),
        None => format!("Alpha {}", index + 1),
    }
}

pub fn unit_text(view: &DuelView, id: u32) -> String {
    match view.units.iter().find(|u| u.id == id) {
        Some(u) if me(view) == Some(u.owner) => format!("your unit {id} at {}", u.hex),
        Some(u) => format!("unit {id} of seat {} at {}", u.owner, u.hex),
        None => format!("unit {id}"),
    }
}

/// A figure type in words.
pub fn figure_name(f: Figure) -> &'static str {
    match f {
        Figure::CelestialKnight => "Celestial Knight",
        Figure::ShadowRanger => "Shadow Ranger",
        Figure::SpellBinder => "Spell Binder",
        Figure::ForsakenDrake => "Forsaken Drake",
    }
}

pub fn target_text(view: &DuelView, t: &Target) -> String {
    let mut parts = Vec::new();
    if let Some(u) = t.unit {
        parts.push(unit_text(view, u));
    }
    if let Some(h) = t.hex {
        parts.push(format!("hex {h}"));
    }
    if !t.hexes.is_empty() {
        let hs: Vec<String> = t.hexes.iter().map(ToString::to_string).collect();
        parts.push(format!("hexes {}", hs.join(" ")));
    }
    if let Some(d) = t.direction {
        parts.push(format!("direction {d}"));
    }
    if let Some(n) = t.distance {
        parts.push(format!("{n} hex{}", if n == 1 { "" } else { "es" }));
    }
    if t.carry_relic == Some(false) {
        parts.push("leaving its relic behind".to_owned());
    }
    if let Some(x) = t.terrain {
        parts.push(format!("to {}", format!("{x:?}").to_lowercase()));
    }
    if let Some(d) = t.dest {
        parts.push(format!("onto {d}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" → {}", parts.join(", "))
    }
}

/// The viewer's seat, if a player.
fn me(view: &DuelView) -> Option<Seat> {
    view.viewer.seat()
}

/// One action in words.
pub fn label(cat: &Catalogue, view: &DuelView, a: &DuelAction) -> String {
    match a {
        DuelAction::Create { alphas, di_stack } => {
            format!("lock in {} Alphas and {} DI cards", alphas.len(), di_stack.len())
        }
        DuelAction::UsePreset { preset } => match cat.preset(preset) {
            Some(p) => format!("use preset {}", p.name),
            None => format!("use preset {preset}"),
        },
        DuelAction::Summon { alpha, hex, figure } => {
            let who = me(view).map_or(format!("Alpha {}", alpha + 1), |s| alpha_name(cat, view, s, *alpha));
            let fig = figure.map(|f| format!(" as {} figures", figure_name(f))).unwrap_or_default();
            format!("summon at {hex}: {who}{fig}")
        }
        DuelAction::Activate { unit } => {
            let alpha = view
                .units
                .iter()
                .find(|u| u.id == *unit)
                .map(|u| format!(" — {}", alpha_name(cat, view, u.owner, u.alpha)))
                .unwrap_or_default();
            format!("activate {}{alpha}", unit_text(view, *unit))
        }
        DuelAction::Move { to, carry_relic } => match carry_relic {
            Some(false) => format!("move to {to}, leaving the relic"),
            _ => format!("move to {to}"),
        },
        DuelAction::PassRelic { to } => format!("pass the relic to {}", unit_text(view, *to)),
        DuelAction::UsePower { card, power, target } => {
            let pname = cat
                .card(card)
                .and_then(|c| c.powers.get(*power))
                .map_or_else(|| format!("power {power}"), |p| p.name.clone());
            format!("{}: {pname}{}", card_name(cat, card), target_text(view, target))
        }
        DuelAction::EndActivation => "end this activation".into(),
        DuelAction::EndActivations => "end activations (go to summoning)".into(),
        DuelAction::EndTurn => "end the turn".into(),
        DuelAction::CastDi { target, at } => {
            let top = me(view)
                .and_then(|s| view.players.iter().find(|p| p.seat == s))
                .and_then(|p| p.di_stack.as_ref())
                .and_then(|st| st.first())
                .map_or_else(|| "the top DI".to_owned(), |id| card_name(cat, id));
            let when = match at {
                Some(0) => " (timed at the start of the activation)".to_owned(),
                Some(k) => format!(" (timed after power {k})"),
                None => String::new(),
            };
            format!("cast {top}{}{when}", target_text(view, target))
        }
        DuelAction::DiscardDi { count } => {
            format!("discard {count} DI card{} from the top", if *count == 1 { "" } else { "s" })
        }
        DuelAction::Pass => match (&view.pending_di, view.window) {
            (Some((_, card)), _) => format!("pass: let {} resolve", card_name(cat, card)),
            (None, Some(_)) => "pass: close the response window".into(),
            _ => "pass".into(),
        },
        DuelAction::SetAutoPass { on } => format!("auto-pass response windows: {}", if *on { "on" } else { "off" }),
        DuelAction::ChooseCasualty { unit } => {
            format!("{} dies (your choice)", unit_text(view, *unit))
        }
        DuelAction::CarryRelic { carry } => {
            let who =
                view.relic_choice.as_ref().map_or_else(|| "your pushed unit".to_owned(), |c| unit_text(view, c.unit));
            if *carry {
                format!("{who} is pushed carrying its relic (your choice)")
            } else {
                format!("{who} is pushed and leaves its relic behind (your choice)")
            }
        }
        DuelAction::OfferDraw => "offer a draw".into(),
        DuelAction::AcceptDraw => "accept the draw".into(),
        DuelAction::DeclineDraw => "decline the draw".into(),
        DuelAction::Resign => "resign".into(),
    }
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
/// engine leaves them out of `legal`).
pub fn menu(cat: &Catalogue, view: &DuelView) -> Vec<MenuItem> {
    let mut actions = view.legal.clone();
    let in_command = matches!(view.phase, athlas_engine::duel::state::Phase::Command);
    if let (Some(s), true) = (me(view), in_command) {
        let auto = view.players.iter().find(|p| p.seat == s).is_some_and(|p| p.auto_pass);
        actions.push(DuelAction::SetAutoPass { on: !auto });
        actions.push(DuelAction::Resign);
    }
    let mut items: Vec<MenuItem> =
        actions.into_iter().map(|a| MenuItem { group: group(&a), label: label(cat, view, &a), action: a }).collect();
    items.sort_by_key(|i| i.group); // stable: the server's order within a group
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::board::tests::small_view;

    /// The duel's describer over everything random duels list: every
    /// legal action of every seat in words, never protocol data (braces,
    /// quotes, null/true/false, snake_case ids), and the kinds the legal
    /// lists produce all met (the match above is exhaustive, so a kind
    /// added to the engine has no label until one is written).
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
                    for a in &v.legal {
                        let l = label(cat, &v, a);
                        assert!(!bad(&l), "{a:?} reads {l:?}");
                        kinds.insert(serde_json::to_value(a).unwrap()["type"].as_str().unwrap().to_owned());
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
        assert_eq!(l(DuelAction::Move { to: Hex::new(1, -1), carry_relic: None }), "move to [1,-1]");
        assert_eq!(l(DuelAction::Activate { unit: 1 }), "activate your unit 1 at [0,0] — Alpha 1 (knight)");
        assert_eq!(
            l(DuelAction::Summon { alpha: 0, hex: Hex::new(0, 1), figure: None }),
            "summon at [0,1]: Alpha 1 (knight)"
        );
        assert_eq!(
            l(DuelAction::CastDi { target: Target { unit: Some(2), ..Target::default() }, at: Some(0) }),
            "cast bolt → unit 2 of seat 1 at [1,0] (timed at the start of the activation)"
        );
        assert_eq!(l(DuelAction::DiscardDi { count: 2 }), "discard 2 DI cards from the top");
        assert_eq!(
            l(DuelAction::UsePower {
                card: "fire".into(),
                power: 0,
                target: Target { hex: Some(Hex::new(0, 1)), direction: Some(3), ..Target::default() }
            }),
            "fire: power 0 → hex [0,1], direction 3"
        );
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
        assert_eq!(m[2].label, "auto-pass response windows: on");
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
