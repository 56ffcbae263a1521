//! The duel in words: the one describer of its actions and events, shared
//! by every screen (the server sends these words beside the legal actions
//! and the events, and keeps the match's log in them; the terminal client
//! calls it directly).
//!
//! Named as the table names things: seats by [`Names::seat`] (the one
//! place a seat gets its name), units by their Alpha's genus and their id
//! ("Savage Warrior 7": the id is what tells two units of one Alpha apart,
//! and what the board's tokens show), Alphas by their number and genus,
//! cards by their printed names. Pure: names come from the catalogue and
//! views.
//!
//! Event lines never say "you": one line is read by both players and the
//! spectators. They are named from the spectator's views (see
//! [`super::Duel`]'s `event_words`), so a line can hold nothing its event's
//! readers may not see. Action words go only to the seat that may take the
//! action, so they may name its own secrets (the top of its DI stack).

use serde::Serialize;

use super::action::{DuelAction as A, HexChoice, Target};
use super::card::{CardKind, Catalogue, Terrain};
use super::event::{DuelEvent, EventKind as E, LifeCause};
use super::state::{Figure, Phase, UnitId};
use super::view::{DuelView, UnitView};
use crate::{Outcome, Seat, SeatNames};

/// A legal action as its seat reads it: what it does, and the kind of
/// thing it is (how screens group it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Said {
    pub text: String,
    pub group: Group,
}

/// What kind of thing an action is, for grouping on a screen, in the order
/// a menu lists the groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    Creation,
    /// Answering: a pass, a casualty, a relic choice.
    Respond,
    Summon,
    Activate,
    /// Moving and passing a relic.
    Move,
    Power,
    /// Divine Interventions: casting, discarding, auto-pass.
    Di,
    /// Ending an activation, the activations, the turn.
    End,
    /// Draws and resigning.
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

    pub fn of(a: &A) -> Group {
        match a {
            A::Create { .. } | A::UsePreset { .. } => Group::Creation,
            A::ChooseCasualty { .. } | A::CarryRelic { .. } | A::Pass | A::TimedOut => Group::Respond,
            A::Summon { .. } => Group::Summon,
            A::Activate { .. } => Group::Activate,
            A::Move { .. } | A::PassRelic { .. } => Group::Move,
            A::UsePower { .. } => Group::Power,
            A::CastDi { .. } | A::DiscardDi { .. } | A::SetAutoPass { .. } | A::SetPassWhenUnable { .. } => Group::Di,
            A::EndActivation | A::EndActivations | A::EndTurn => Group::End,
            A::OfferDraw | A::AcceptDraw | A::DeclineDraw | A::Resign => Group::Other,
        }
    }
}

/// Names for ids: the catalogue, and a view for what only the match knows
/// (which Alpha a unit is of, where it stands, what a seat holds).
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub cat: &'a Catalogue,
    pub table: &'a DuelView,
    /// The view before the change being told, for units the change
    /// removed (a unit that died keeps its name in the log).
    pub before: Option<&'a DuelView>,
    /// The players' names (the server's; none in the engine's own tests).
    pub seats: &'a SeatNames,
}

impl<'a> Names<'a> {
    pub fn new(table: &'a DuelView) -> Names<'a> {
        Names { cat: Catalogue::standard(), table, before: None, seats: SeatNames::none() }
    }

    /// A seat's name: what every line calls a player, the name its player
    /// chose, else "Seat N".
    pub fn seat(&self, s: Seat) -> String {
        self.seats.seat(s)
    }

    /// A seat's name with 's.
    fn seats(&self, s: Seat) -> String {
        format!("{}'s", self.seat(s))
    }

    /// A card (Alpha Creation or Divine Intervention) by its printed name.
    pub fn card(&self, id: &str) -> String {
        card_name(self.cat, id)
    }

    /// The genus card's name of `seat`'s Alpha `index`, where the views
    /// show its design.
    pub fn genus(&self, seat: Seat, index: usize) -> Option<String> {
        let of = |v: &DuelView| {
            let design = v.players.iter().find(|p| p.seat == seat)?.alphas.get(index)?.design.as_ref()?;
            let genus = design
                .cards
                .iter()
                .find(|id| self.cat.card(id).is_some_and(|c| c.kind == CardKind::Genus))
                .or(design.cards.first())?;
            Some(self.card(genus))
        };
        of(self.table).or_else(|| self.before.and_then(of))
    }

    /// "Alpha 2 (Savage Warrior)", or "Alpha 2" while its design is hidden.
    pub fn alpha(&self, seat: Seat, index: usize) -> String {
        match self.genus(seat, index) {
            Some(g) => format!("Alpha {} ({g})", index + 1),
            None => format!("Alpha {}", index + 1),
        }
    }

    fn unit_view(&self, id: UnitId) -> Option<&'a UnitView> {
        let find = |v: &'a DuelView| v.units.iter().find(|u| u.id == id);
        find(self.table).or_else(|| self.before.and_then(find))
    }

    /// "Savage Warrior 7": its Alpha's genus and its id.
    pub fn unit(&self, id: UnitId) -> String {
        match self.unit_view(id).and_then(|u| self.genus(u.owner, u.alpha)) {
            Some(g) => format!("{g} {id}"),
            None => format!("unit {id}"),
        }
    }

    /// "Savage Warrior 7 at [0,1]".
    fn unit_at(&self, id: UnitId) -> String {
        match self.unit_view(id) {
            Some(u) => format!("{} at {}", self.unit(id), u.hex),
            None => self.unit(id),
        }
    }

    /// A unit as `seat` reads it on a button: "your Savage Warrior 7 at
    /// [0,1]", "Seat 1's Raider 4 at [2,0]".
    fn unit_for(&self, seat: Seat, id: UnitId) -> String {
        match self.unit_view(id) {
            Some(u) if u.owner == seat => format!("your {}", self.unit_at(id)),
            Some(u) => format!("{} {}", self.seats(u.owner), self.unit_at(id)),
            None => self.unit(id),
        }
    }

    /// The top card of `seat`'s DI stack, where the view shows it (only to
    /// its own seat).
    fn top_di(&self, seat: Seat) -> Option<String> {
        let p = self.table.players.iter().find(|p| p.seat == seat)?;
        p.di_stack.as_ref()?.first().map(|id| self.card(id))
    }
}

/// A card (Alpha Creation or Divine Intervention) by its printed name;
/// an id the catalogue does not know, in plain words.
pub fn card_name(cat: &Catalogue, id: &str) -> String {
    cat.card(id)
        .map(|c| c.name.clone())
        .or_else(|| cat.di_card(id).map(|c| c.name.clone()))
        .unwrap_or_else(|| id.replace('_', " "))
}

/// A figure type in words.
pub fn figure(f: Figure) -> &'static str {
    match f {
        Figure::CelestialKnight => "Celestial Knight",
        Figure::ShadowRanger => "Shadow Ranger",
        Figure::SpellBinder => "Spell Binder",
        Figure::ForsakenDrake => "Forsaken Drake",
    }
}

fn terrain(t: Terrain) -> &'static str {
    match t {
        Terrain::Plains => "plains",
        Terrain::Hill => "a hill",
        Terrain::Water => "water",
        Terrain::Crater => "a crater",
    }
}

fn cause(c: LifeCause) -> &'static str {
    match c {
        LifeCause::Attack => "an attack",
        LifeCause::Power => "a power",
        LifeCause::Drowning => "drowning",
        LifeCause::Falling => "a fall",
        LifeCause::Crushed => "crushed",
        LifeCause::Sacrifice => "a sacrifice",
        LifeCause::Explosion => "an explosion",
    }
}

/// The six directions, in the order of `Target::direction` (east first,
/// counter-clockwise).
const DIRECTIONS: [&str; 6] = ["east", "north-east", "north-west", "west", "south-west", "south-east"];

fn plural(n: impl Into<u64>) -> &'static str {
    if n.into() == 1 {
        ""
    } else {
        "s"
    }
}

/// What an action is aimed at, as `seat` reads it: " on Seat 1's Raider 4
/// at [2,0], pushed east". Empty without a target.
pub fn target(n: Names<'_>, seat: Seat, t: &Target) -> String {
    aim(t, |u| n.unit_for(seat, u))
}

/// `t` in words, its unit named by `unit`.
fn aim(t: &Target, unit: impl Fn(UnitId) -> String) -> String {
    let mut parts = Vec::new();
    if let Some(u) = t.unit {
        parts.push(unit(u));
    }
    if let Some(h) = t.hex {
        parts.push(format!("hex {h}"));
    }
    if !t.hexes.is_empty() {
        let hs: Vec<String> = t.hexes.iter().map(ToString::to_string).collect();
        parts.push(format!("hex{} {}", if hs.len() == 1 { "" } else { "es" }, hs.join(" ")));
    }
    if let Some(x) = t.terrain {
        parts.push(format!("into {}", terrain(x)));
    }
    if let Some(d) = t.direction {
        parts.push(format!("pushed {}", DIRECTIONS.get(d as usize).copied().unwrap_or("somewhere")));
    }
    if let Some(d) = t.distance {
        parts.push(format!("{d} hex{}", if d == 1 { "" } else { "es" }));
    }
    if let Some(d) = t.dest {
        parts.push(format!("to {d}"));
    }
    if t.carry_relic == Some(false) {
        parts.push("leaving the relic".into());
    }
    let aimed = if parts.is_empty() { String::new() } else { format!(" on {}", parts.join(", ")) };
    match &t.choose {
        Some(c) => format!("{aimed}: {}", choice(c)),
        None => aimed,
    }
}

/// A legal entry's choice of hexes: "choose up to 4 hexes", "choose up to 3
/// hexes, each next to a different water hex of the body".
fn choice(c: &HexChoice) -> String {
    if c.up_to == 0 {
        return "no hex can be chosen".into();
    }
    let count = match (c.at_least, c.up_to) {
        (a, b) if a == b => format!("{b}"),
        (0 | 1, b) => format!("up to {b}"),
        (a, b) => format!("{a} to {b}"),
    };
    let each = if c.next_to_distinct.is_empty() { "" } else { ", each next to a different water hex of the body" };
    format!("choose {count} hex{}{each}", if c.up_to == 1 { "" } else { "es" })
}

/// `seat`'s action in words. `n.table` is the view of `seat` (its own DI
/// stack and Alphas named).
pub fn action(n: Names<'_>, seat: Seat, a: &A) -> Said {
    Said { text: action_text(n, seat, a), group: Group::of(a) }
}

fn action_text(n: Names<'_>, seat: Seat, a: &A) -> String {
    let v = n.table;
    match a {
        A::Create { alphas, di_stack } => format!(
            "Lock in {} Alpha{} and {} Divine Intervention{}",
            alphas.len(),
            plural(alphas.len() as u64),
            di_stack.len(),
            plural(di_stack.len() as u64)
        ),
        A::UsePreset { preset } => {
            let name = n.cat.preset(preset).map_or_else(|| preset.replace('_', " "), |p| p.name.clone());
            format!("Use the preset “{name}” as it is")
        }
        A::Summon { alpha, hex, figure: fig } => {
            let cost = v
                .players
                .iter()
                .find(|p| p.seat == seat)
                .and_then(|p| p.alphas.get(*alpha))
                .and_then(|a| a.cost)
                .map(|c| format!(" for {c} points"))
                .unwrap_or_default();
            let fig = fig.map(|f| format!(" as {} figures", figure(f))).unwrap_or_default();
            format!("Summon {}{cost} at {hex}{fig}", n.alpha(seat, *alpha))
        }
        A::Activate { unit } => format!("Activate {}", n.unit_for(seat, *unit)),
        A::Move { to, carry_relic } => match carry_relic {
            Some(false) => format!("Move to {to} without the relic"),
            _ => format!("Move to {to}"),
        },
        A::PassRelic { to } => format!("Pass the relic to {}", n.unit_for(seat, *to)),
        A::UsePower { card, power, target: t } => {
            let name = n.cat.card(card).and_then(|c| c.powers.get(*power)).map(|p| p.name.clone());
            let what = match name {
                Some(p) => format!("{p} ({})", n.card(card)),
                None => n.card(card),
            };
            format!("{what}{}", target(n, seat, t))
        }
        A::EndActivation => "End this activation".into(),
        A::EndActivations => "Done activating: go to summoning".into(),
        A::EndTurn => "End the turn".into(),
        A::CastDi { target: t, at } => {
            let top = n.top_di(seat).unwrap_or_else(|| "your top Divine Intervention".into());
            let when = match at {
                None => String::new(),
                Some(0) => ", timed at the start of this activation (what followed is undone)".into(),
                Some(k) => format!(", timed just after power {k} of this activation (what followed is undone)"),
            };
            format!("Cast {top}{}{when}", target(n, seat, t))
        }
        A::DiscardDi { count } => {
            format!("Discard {count} Divine Intervention card{} from the top of your stack", plural(*count as u64))
        }
        A::Pass => match &v.pending_di {
            Some((caster, card)) => format!("Pass: let {} {} take effect", n.seats(*caster), n.card(card)),
            None if v.window.is_some() => "Pass: cast nothing in this response window".into(),
            None => "Pass".into(),
        },
        A::TimedOut => "Let the time run out".into(),
        A::SetAutoPass { on: true } => "Pass every response window automatically".into(),
        A::SetAutoPass { on: false } => "Stop passing response windows automatically".into(),
        A::SetPassWhenUnable { on: true } => "Pass automatically when I can cast nothing".into(),
        A::SetPassWhenUnable { on: false } => "Wait for my pass even when I can cast nothing".into(),
        A::ChooseCasualty { unit } => format!("{} is the casualty", n.unit_for(seat, *unit)),
        A::CarryRelic { carry } => {
            let who = v.relic_choice.as_ref().map_or_else(|| "Your pushed unit".into(), |c| n.unit_for(seat, c.unit));
            let who = capitalized(&who);
            if *carry {
                format!("{who} takes its relic along")
            } else {
                format!("{who} leaves its relic behind")
            }
        }
        A::OfferDraw => "Offer a draw".into(),
        A::AcceptDraw => "Accept the draw".into(),
        A::DeclineDraw => "Decline the draw".into(),
        A::Resign => "Resign".into(),
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// One event in words, the same for every reader the event goes to.
/// `n.table` is the view after the change, `n.before` the one before it.
pub fn event(n: Names<'_>, e: &DuelEvent) -> String {
    capitalized(&event_text(n, &e.kind))
}

fn event_text(n: Names<'_>, e: &E) -> String {
    let after = n.table;
    match e {
        E::CreationLocked { seat } => {
            format!("{} locked in its Alphas and Divine Interventions, sealed until the end", n.seat(*seat))
        }
        E::CommandPhaseBegins { first_player } => {
            format!("the Command Phase begins: {} plays first", n.seat(*first_player))
        }
        // Seats take turns from turn 1, so turns 1 and 2 are each seat's first.
        E::TurnBegins { seat, turn } if *turn <= 2 => {
            format!("turn {turn}: {} first turn (summoning only)", n.seats(*seat))
        }
        E::TurnBegins { seat, turn } => format!("turn {turn}: {} turn", n.seats(*seat)),
        E::MarkerExpired { unit } => format!("a condition marker on {} ran out", n.unit(*unit)),
        E::DiCubeRemoved { seat, card, cubes_left } => {
            format!("{} {} lost a cube: {cubes_left} turn{} left", n.seats(*seat), n.card(card), plural(*cubes_left))
        }
        E::DiExpired { seat, card } => format!("{} {} ended", n.seats(*seat), n.card(card)),
        E::Regenerated { seat, alpha, amount, life } => {
            format!("{} {} regenerated {amount} life ({life} now)", n.seats(*seat), n.alpha(*seat, *alpha))
        }
        E::AlphaRevealed { seat, alpha, design, cost, life, figure: f } => {
            let cards: Vec<String> = design.cards.iter().map(|c| n.card(c)).collect();
            format!(
                "{} revealed Alpha {}: {} (cost {cost}, life {life}, {} figures)",
                n.seat(*seat),
                alpha + 1,
                cards.join(", "),
                figure(*f)
            )
        }
        E::Summoned { seat, alpha, unit, hex, spent } => format!(
            "{} summoned {} (Alpha {}) at {hex}: {spent} points spent in all",
            n.seat(*seat),
            n.unit(*unit),
            alpha + 1
        ),
        E::Activated { unit } => match n.unit_view(*unit) {
            Some(u) => format!("{} activated {} at {}", n.seat(u.controller), n.unit(*unit), u.hex),
            None => format!("{} activated", n.unit(*unit)),
        },
        E::Moved { unit, from, to, relics } => {
            let carry = match relics {
                0 => String::new(),
                1 => ", carrying a relic".into(),
                k => format!(", carrying {k} relics"),
            };
            format!("{} moved {from} → {to}{carry}", n.unit(*unit))
        }
        E::RelicMoved { from, to } => format!("a relic moved {from} → {to}"),
        E::PowerUsed { unit, card, power } => format!("{} used {power} ({})", n.unit(*unit), n.card(card)),
        E::Attacked { attacker, target, value, armor, damage } => {
            let by = attacker.map_or_else(|| "an attack".to_owned(), |a| n.unit(a));
            format!("{by} hit {}: attack {value} against armor {armor}, {damage} damage", n.unit(*target))
        }
        E::LifeLost { seat, alpha, unit, amount, cause: c, life } => format!(
            "{} {} lost {amount} life ({}, {}): {life} left",
            n.seats(*seat),
            n.alpha(*seat, *alpha),
            n.unit(*unit),
            cause(*c)
        ),
        E::Healed { seat, alpha, amount, life } => {
            format!("{} {} healed {amount} life ({life} now)", n.seats(*seat), n.alpha(*seat, *alpha))
        }
        E::Died { unit, seat, alpha, life } => {
            format!("{} {} died; {} is back to {life} life", n.seats(*seat), n.unit(*unit), n.alpha(*seat, *alpha))
        }
        E::TerrainChanged { hex, terrain: t } => format!("hex {hex} became {}", terrain(*t)),
        E::Marked { unit } => format!("{} got a condition marker", n.unit(*unit)),
        E::Controlled { unit, by } => format!("{} took control of {} for this turn", n.seat(*by), n.unit(*unit)),
        E::ActivationEnded { unit } => format!("{} ended its activation", n.unit(*unit)),
        E::WindowOpened { seat } => format!("{} may answer with a Divine Intervention", n.seat(*seat)),
        E::DiCast { seat, card } => {
            // The pending DI's target is public once cast (the view shows it).
            let aim = match (&after.pending_di, &after.pending_target) {
                (Some((s, c)), Some(t)) if s == seat && c == card => aim(t, |u| n.unit_at(u)),
                _ => String::new(),
            };
            format!("{} cast {}{aim}", n.seat(*seat), n.card(card))
        }
        E::DiResolved { seat, card } => format!("{} {} took effect", n.seats(*seat), n.card(card)),
        E::DiFizzled { seat, card, reason } => {
            format!("{} {} had no effect: {reason}", n.seats(*seat), n.card(card))
        }
        E::Rewound { checkpoint: 0 } => "the activation went back to its start for the Divine Intervention".into(),
        E::Rewound { checkpoint } => {
            format!("the activation went back to just after power {checkpoint} for the Divine Intervention")
        }
        E::DiDiscarded { seat, count } => {
            format!("{} discarded {count} Divine Intervention card{} unseen", n.seat(*seat), plural(*count as u64))
        }
        // Only its seat reads this one.
        E::DiDiscardedCards { seat, cards } => {
            let names: Vec<String> = cards.iter().map(|c| n.card(c)).collect();
            format!("{} discarded {} (only {} sees which)", n.seat(*seat), names.join(", "), n.seat(*seat))
        }
        E::Passed { seat } => format!("{} passed", n.seat(*seat)),
        E::TimedOut { seat } => format!("{} time to answer ran out: nothing cast", n.seats(*seat)),
        E::CasualtyChosen { seat, unit } => format!("{} chose {} as the casualty", n.seat(*seat), n.unit(*unit)),
        E::RelicChoiceAwaited { seat, unit } => {
            format!("{} is pushed: {} decides whether it takes its relic along", n.unit(*unit), n.seat(*seat))
        }
        E::RelicCarryChosen { seat, unit, carry } => format!(
            "{} chose: {} {}",
            n.seat(*seat),
            n.unit(*unit),
            if *carry { "takes its relic along" } else { "leaves its relic behind" }
        ),
        E::DrawOffered { seat } => format!("{} offered a draw", n.seat(*seat)),
        E::DrawDeclined { seat } => format!("{} declined the draw", n.seat(*seat)),
        E::GameOver { outcome } => game_over(n, outcome),
    }
}

/// How the game ended, from the view after it: a win is by relics when a
/// unit of the winner that it controls holds two relics where it stands
/// (the rules check that after every action), any other win is the
/// loser's resignation; the only draw is an agreed one.
fn game_over(n: Names<'_>, outcome: &Outcome) -> String {
    let v = n.table;
    match outcome {
        Outcome::Win { seat } => {
            let relics_at = |u: &UnitView| v.hexes.iter().find(|h| h.hex == u.hex).map_or(0, |h| h.relics);
            let holder = v
                .units
                .iter()
                .find(|u| u.owner == *seat && u.controller == *seat && u.holds_relics && relics_at(u) >= 2);
            match holder {
                Some(u) => format!("{} won: {} holds two relics at {}", n.seat(*seat), n.unit(u.id), u.hex),
                None if matches!(v.phase, Phase::Finished { .. }) => {
                    format!("{} resigned: {} won", n.seat(1 - *seat), n.seat(*seat))
                }
                None => format!("{} won", n.seat(*seat)),
            }
        }
        Outcome::Draw => "the players agreed to a draw".into(),
        other => format!("the game is over: {other:?}"),
    }
}
