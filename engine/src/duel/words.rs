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
//! views ([`Names`], the screens'), or from the state as one viewer's view
//! would show it (the server's: building a view for the words of every
//! record cost more than the words).
//!
//! Event lines never say "you": one line is read by both players and the
//! spectators. They are named as the spectator sees the match (see
//! [`super::Duel`]'s `event_words`), so a line can hold nothing its event's
//! readers may not see. Action words go only to the seat that may take the
//! action, so they may name its own secrets (the top of its DI stack).

use serde::Serialize;

use super::action::{DuelAction as A, HexChoice, Target};
use super::card::{CardId, CardKind, Catalogue, Terrain};
use super::event::{DuelEvent, EventKind as E, LifeCause};
use super::state::{Alpha, DuelState, Figure, Phase, UnitId};
use super::view::{DuelView, UnitView};
use crate::hex::Hex;
use crate::{Outcome, Seat, SeatNames, Viewer};

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

    /// Its name in JSON (serde's).
    pub fn name(self) -> &'static str {
        match self {
            Group::Creation => "creation",
            Group::Respond => "respond",
            Group::Summon => "summon",
            Group::Activate => "activate",
            Group::Move => "move",
            Group::Power => "power",
            Group::Di => "di",
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

    /// A card (Alpha Creation or Divine Intervention) by its printed name.
    pub fn card(&self, id: &str) -> String {
        card_name(self.cat, id)
    }

    /// The genus card's name of `seat`'s Alpha `index`, where the views
    /// show its design.
    pub fn genus(&self, seat: Seat, index: usize) -> Option<String> {
        self.genus_card(seat, index).map(|g| self.card(g))
    }

    /// "Alpha 2 (Savage Warrior)", or "Alpha 2" while its design is hidden.
    pub fn alpha(&self, seat: Seat, index: usize) -> String {
        said(|out| push_alpha(*self, out, seat, index))
    }

    /// "Savage Warrior 7": its Alpha's genus and its id.
    pub fn unit(&self, id: UnitId) -> String {
        said(|out| push_unit(*self, out, id))
    }
}

/// A unit as the words name it: whose it is, which Alpha's, where.
#[derive(Clone, Copy)]
struct Seen {
    owner: Seat,
    controller: Seat,
    alpha: usize,
    hex: Hex,
}

/// What the describer reads of a match: a view ([`Names`], the screens')
/// or the state as one viewer may see it ([`StateNames`], the server's).
/// Both read the same things, so both say the same words (a test holds
/// them equal over random games).
trait Source: Copy {
    fn cat(&self) -> &Catalogue;
    fn seat_names(&self) -> &SeatNames;
    /// The genus card of `seat`'s Alpha `index` (else its first card),
    /// where its design is shown now, else before the change.
    fn genus_card(&self, seat: Seat, index: usize) -> Option<&str>;
    /// A unit now, else before the change.
    fn unit_seen(&self, id: UnitId) -> Option<Seen>;
    /// The cost of `seat`'s Alpha `index`, where shown.
    fn cost(&self, seat: Seat, index: usize) -> Option<u32>;
    /// The top card of `seat`'s DI stack, where shown (only to its seat).
    fn top_di(&self, seat: Seat) -> Option<&str>;
    /// A cast DI waiting for an answer: who cast which card, at what.
    fn pending_di(&self) -> Option<(Seat, &str)>;
    fn pending_target(&self) -> Option<&Target>;
    fn window_open(&self) -> bool;
    /// The pushed unit whose relic waits for a choice.
    fn relic_choice(&self) -> Option<UnitId>;
    /// A unit of `seat`, controlled by it, holding two relics where it
    /// stands, as a finished game's view shows it (its hexes).
    fn relic_holder(&self, seat: Seat) -> Option<(UnitId, Hex)>;
    fn finished(&self) -> bool;
}

/// The genus card of a design, else its first card.
fn genus_of<'d>(cat: &Catalogue, cards: &'d [CardId]) -> Option<&'d str> {
    cards.iter().find(|id| cat.card(id).is_some_and(|c| c.kind == CardKind::Genus)).or(cards.first()).map(|c| &**c)
}

impl<'a> Source for Names<'a> {
    fn cat(&self) -> &Catalogue {
        self.cat
    }

    fn seat_names(&self) -> &SeatNames {
        self.seats
    }

    fn genus_card(&self, seat: Seat, index: usize) -> Option<&str> {
        let of = |v: &'a DuelView| {
            let design = v.players.iter().find(|p| p.seat == seat)?.alphas.get(index)?.design.as_ref()?;
            genus_of(self.cat, &design.cards)
        };
        of(self.table).or_else(|| self.before.and_then(of))
    }

    fn unit_seen(&self, id: UnitId) -> Option<Seen> {
        let find = |v: &'a DuelView| v.units.iter().find(|u| u.id == id);
        let u = find(self.table).or_else(|| self.before.and_then(find))?;
        Some(Seen { owner: u.owner, controller: u.controller, alpha: u.alpha, hex: u.hex })
    }

    fn cost(&self, seat: Seat, index: usize) -> Option<u32> {
        self.table.players.iter().find(|p| p.seat == seat)?.alphas.get(index)?.cost
    }

    fn top_di(&self, seat: Seat) -> Option<&str> {
        let p = self.table.players.iter().find(|p| p.seat == seat)?;
        p.di_stack.as_ref()?.first().map(|c| &**c)
    }

    fn pending_di(&self) -> Option<(Seat, &str)> {
        self.table.pending_di.as_ref().map(|(s, c)| (*s, &**c))
    }

    fn pending_target(&self) -> Option<&Target> {
        self.table.pending_target.as_ref()
    }

    fn window_open(&self) -> bool {
        self.table.window.is_some()
    }

    fn relic_choice(&self) -> Option<UnitId> {
        self.table.relic_choice.as_ref().map(|c| c.unit)
    }

    fn relic_holder(&self, seat: Seat) -> Option<(UnitId, Hex)> {
        let v = self.table;
        let relics_at = |u: &UnitView| v.hexes.iter().find(|h| h.hex == u.hex).map_or(0, |h| h.relics);
        let holder =
            v.units.iter().find(|u| u.owner == seat && u.controller == seat && u.holds_relics && relics_at(u) >= 2)?;
        Some((holder.id, holder.hex))
    }

    fn finished(&self) -> bool {
        matches!(self.table.phase, Phase::Finished { .. })
    }
}

/// Names read straight from the state, as `viewer`'s view would show it
/// ([`Names`] over that view says the same words): what the server's
/// words are made from, without building a view for them. `before` is
/// the state before the change being told.
#[derive(Clone, Copy)]
pub(crate) struct StateNames<'a> {
    pub cat: &'a Catalogue,
    pub state: &'a DuelState,
    pub before: Option<&'a DuelState>,
    pub viewer: Viewer,
    pub seats: &'a SeatNames,
}

impl StateNames<'_> {
    /// `seat`'s Alpha `index` in `s`, where `viewer` sees its design (its
    /// own, or revealed: what `view::player_views` shows).
    fn shown(self, s: &DuelState, seat: Seat, index: usize) -> Option<&Alpha> {
        let a = s.game.players.get(seat as usize)?.alphas.get(index)?;
        (self.viewer == Viewer::Seat(seat) || a.revealed).then_some(a)
    }
}

impl<'a> Source for StateNames<'a> {
    fn cat(&self) -> &Catalogue {
        self.cat
    }

    fn seat_names(&self) -> &SeatNames {
        self.seats
    }

    fn genus_card(&self, seat: Seat, index: usize) -> Option<&str> {
        let of = |s: &'a DuelState| genus_of(self.cat, &self.shown(s, seat, index)?.design.cards);
        of(self.state).or_else(|| self.before.and_then(of))
    }

    fn unit_seen(&self, id: UnitId) -> Option<Seen> {
        let u = self.state.game.unit(id).or_else(|| self.before.and_then(|b| b.game.unit(id)))?;
        Some(Seen { owner: u.owner, controller: u.controller, alpha: u.alpha, hex: u.hex })
    }

    fn cost(&self, seat: Seat, index: usize) -> Option<u32> {
        self.shown(self.state, seat, index).map(|a| a.cost)
    }

    fn top_di(&self, seat: Seat) -> Option<&str> {
        if self.viewer != Viewer::Seat(seat) {
            return None;
        }
        self.state.game.players.get(seat as usize)?.di_stack.first().map(|c| &**c)
    }

    fn pending_di(&self) -> Option<(Seat, &str)> {
        self.state.pending.as_ref().map(|p| (p.caster, &*p.card))
    }

    fn pending_target(&self) -> Option<&Target> {
        self.state.pending.as_ref().map(|p| &p.target)
    }

    fn window_open(&self) -> bool {
        self.state.window.is_some()
    }

    fn relic_choice(&self) -> Option<UnitId> {
        self.state.game.relic_choice.as_ref().map(|c| c.unit)
    }

    /// As the view of a finished game shows it; a view of a game going on
    /// leaves its hexes out for words, and shows no relic anywhere.
    fn relic_holder(&self, seat: Seat) -> Option<(UnitId, Hex)> {
        let g = &self.state.game;
        if !self.finished() {
            return None;
        }
        let holder = g.units.iter().find(|u| {
            u.owner == seat && u.controller == seat && g.holds_relics(self.cat, u) && g.relics_at(u.hex) >= 2
        })?;
        Some((holder.id, holder.hex))
    }

    fn finished(&self) -> bool {
        matches!(self.state.game.phase, Phase::Finished { .. })
    }
}

/// The text `write` writes.
fn said(write: impl FnOnce(&mut String)) -> String {
    let mut out = String::new();
    write(&mut out);
    out
}

fn push_int(out: &mut String, v: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(v));
}

/// A hex as its `Display` writes it: "[q,r]".
fn push_hex(out: &mut String, h: Hex) {
    // Small numbers, the board's: their digits by hand (itoa's otherwise).
    fn coordinate(out: &mut String, v: i32) {
        match v {
            0..=9 => out.push(char::from(b'0' + v as u8)),
            -9..=-1 => {
                out.push('-');
                out.push(char::from(b'0' + (-v) as u8));
            }
            _ => push_int(out, v),
        }
    }
    out.reserve(8);
    out.push('[');
    coordinate(out, h.q);
    out.push(',');
    coordinate(out, h.r);
    out.push(']');
}

/// A seat's name: what every line calls a player, the name its player
/// chose, else "Seat N" ([`SeatNames::seat`]).
fn push_seat(n: impl Source, out: &mut String, s: Seat) {
    match n.seat_names().get(s) {
        Some(name) => out.push_str(name),
        None => {
            out.push_str("Seat ");
            push_int(out, s);
        }
    }
}

/// A seat's name with 's.
fn push_seats(n: impl Source, out: &mut String, s: Seat) {
    push_seat(n, out, s);
    out.push_str("'s");
}

/// [`card_name`].
fn push_card(cat: &Catalogue, out: &mut String, id: &str) {
    match cat.card(id).map(|c| &c.name).or_else(|| cat.di_card(id).map(|c| &c.name)) {
        Some(name) => out.push_str(name),
        None => out.extend(id.chars().map(|c| if c == '_' { ' ' } else { c })),
    }
}

/// "Alpha 2 (Savage Warrior)", or "Alpha 2" while its design is hidden.
fn push_alpha(n: impl Source, out: &mut String, seat: Seat, index: usize) {
    out.push_str("Alpha ");
    push_int(out, index + 1);
    if let Some(g) = n.genus_card(seat, index) {
        out.push_str(" (");
        push_card(n.cat(), out, g);
        out.push(')');
    }
}

/// "Savage Warrior 7": its Alpha's genus and its id.
fn push_unit(n: impl Source, out: &mut String, id: UnitId) {
    match n.unit_seen(id).and_then(|u| n.genus_card(u.owner, u.alpha)) {
        Some(g) => {
            push_card(n.cat(), out, g);
            out.push(' ');
        }
        None => out.push_str("unit "),
    }
    push_int(out, id);
}

/// "Savage Warrior 7 at [0,1]".
fn push_unit_at(n: impl Source, out: &mut String, id: UnitId) {
    push_unit(n, out, id);
    if let Some(u) = n.unit_seen(id) {
        out.push_str(" at ");
        push_hex(out, u.hex);
    }
}

/// A unit as `seat` reads it on a button: "your Savage Warrior 7 at
/// [0,1]", "Seat 1's Raider 4 at [2,0]".
fn push_unit_for(n: impl Source, out: &mut String, seat: Seat, id: UnitId) {
    match n.unit_seen(id) {
        Some(u) if u.owner == seat => out.push_str("your "),
        Some(u) => {
            push_seats(n, out, u.owner);
            out.push(' ');
        }
        None => return push_unit(n, out, id),
    }
    push_unit_at(n, out, id);
}

/// A card (Alpha Creation or Divine Intervention) by its printed name;
/// an id the catalogue does not know, in plain words.
pub fn card_name(cat: &Catalogue, id: &str) -> String {
    said(|out| push_card(cat, out, id))
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
    said(|out| push_aim(out, t, |out, u| push_unit_for(n, out, seat, u)))
}

/// `t` in words, its unit named by `unit`.
fn push_aim(out: &mut String, t: &Target, unit: impl Fn(&mut String, UnitId)) {
    let mut first = true;
    let mut part = |out: &mut String| {
        out.push_str(if first { " on " } else { ", " });
        first = false;
    };
    if let Some(u) = t.unit {
        part(out);
        unit(out, u);
    }
    if let Some(h) = t.hex {
        part(out);
        out.push_str("hex ");
        push_hex(out, h);
    }
    if !t.hexes.is_empty() {
        part(out);
        out.push_str(if t.hexes.len() == 1 { "hex " } else { "hexes " });
        for (i, h) in t.hexes.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            push_hex(out, *h);
        }
    }
    if let Some(x) = t.terrain {
        part(out);
        out.push_str("into ");
        out.push_str(terrain(x));
    }
    if let Some(d) = t.direction {
        part(out);
        out.push_str("pushed ");
        out.push_str(DIRECTIONS.get(d as usize).copied().unwrap_or("somewhere"));
    }
    if let Some(d) = t.distance {
        part(out);
        push_int(out, d);
        out.push_str(if d == 1 { " hex" } else { " hexes" });
    }
    if let Some(d) = t.dest {
        part(out);
        out.push_str("to ");
        push_hex(out, d);
    }
    if t.carry_relic == Some(false) {
        part(out);
        out.push_str("leaving the relic");
    }
    if let Some(c) = &t.choose {
        out.push_str(": ");
        out.push_str(&choice(c));
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
    Said { text: said(|out| action_text(n, out, seat, a)), group: Group::of(a) }
}

/// `seat`'s action in words, as [`action`] says it, in the JSON the
/// server sends beside it (`{"text": …, "group": …}`), `n` the state as
/// `seat` sees it.
pub(crate) fn action_json(n: StateNames<'_>, seat: Seat, a: &A) -> serde_json::Value {
    let mut text = String::with_capacity(64);
    action_text(n, &mut text, seat, a);
    let mut map = serde_json::Map::new();
    map.insert("text".into(), serde_json::Value::String(text));
    map.insert("group".into(), serde_json::Value::String(Group::of(a).name().into()));
    serde_json::Value::Object(map)
}

/// [`action_json`] of each of `actions`, as the JSON array serde_json
/// writes of those values (a map's keys in order: `group`, then `text`),
/// appended to `out`, without a JSON value per action.
pub(crate) fn write_actions_json(n: StateNames<'_>, seat: Seat, actions: &[A], out: &mut Vec<u8>) {
    out.reserve(2 + 64 * actions.len());
    out.push(b'[');
    let mut text = String::with_capacity(64);
    for (i, a) in actions.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        text.clear();
        action_text(n, &mut text, seat, a);
        out.extend_from_slice(b"{\"group\":\"");
        // Group names are plain words.
        out.extend_from_slice(Group::of(a).name().as_bytes());
        out.extend_from_slice(b"\",\"text\":");
        crate::json::string(out, &text);
        out.push(b'}');
    }
    out.push(b']');
}

fn action_text(n: impl Source, out: &mut String, seat: Seat, a: &A) {
    use std::fmt::Write;
    let cat = n.cat();
    match a {
        A::Create { alphas, di_stack } => {
            let _ = write!(
                out,
                "Lock in {} Alpha{} and {} Divine Intervention{}",
                alphas.len(),
                plural(alphas.len() as u64),
                di_stack.len(),
                plural(di_stack.len() as u64)
            );
        }
        A::UsePreset { preset } => {
            let name = cat.preset(preset).map_or_else(|| preset.replace('_', " "), |p| p.name.clone());
            let _ = write!(out, "Use the preset “{name}” as it is");
        }
        A::Summon { alpha, hex, figure: fig } => {
            out.push_str("Summon ");
            push_alpha(n, out, seat, *alpha);
            if let Some(c) = n.cost(seat, *alpha) {
                out.push_str(" for ");
                push_int(out, c);
                out.push_str(" points");
            }
            out.push_str(" at ");
            push_hex(out, *hex);
            if let Some(f) = fig {
                out.push_str(" as ");
                out.push_str(figure(*f));
                out.push_str(" figures");
            }
        }
        A::Activate { unit } => {
            out.push_str("Activate ");
            push_unit_for(n, out, seat, *unit);
        }
        A::Move { to, carry_relic } => {
            out.push_str("Move to ");
            push_hex(out, *to);
            if *carry_relic == Some(false) {
                out.push_str(" without the relic");
            }
        }
        A::PassRelic { to } => {
            out.push_str("Pass the relic to ");
            push_unit_for(n, out, seat, *to);
        }
        A::UsePower { card, power, target: t } => {
            match cat.card(card).and_then(|c| c.powers.get(*power)) {
                Some(p) => {
                    out.push_str(&p.name);
                    out.push_str(" (");
                    push_card(cat, out, card);
                    out.push(')');
                }
                None => push_card(cat, out, card),
            }
            push_aim(out, t, |out, u| push_unit_for(n, out, seat, u));
        }
        A::EndActivation => out.push_str("End this activation"),
        A::EndActivations => out.push_str("Done activating: go to summoning"),
        A::EndTurn => out.push_str("End the turn"),
        A::CastDi { target: t, at } => {
            out.push_str("Cast ");
            match n.top_di(seat) {
                Some(top) => push_card(cat, out, top),
                None => out.push_str("your top Divine Intervention"),
            }
            push_aim(out, t, |out, u| push_unit_for(n, out, seat, u));
            match at {
                None => {}
                Some(0) => out.push_str(", timed at the start of this activation (what followed is undone)"),
                Some(k) => {
                    let _ = write!(out, ", timed just after power {k} of this activation (what followed is undone)");
                }
            }
        }
        A::DiscardDi { count } => {
            let _ = write!(
                out,
                "Discard {count} Divine Intervention card{} from the top of your stack",
                plural(*count as u64)
            );
        }
        A::Pass => match n.pending_di() {
            Some((caster, card)) => {
                out.push_str("Pass: let ");
                push_seats(n, out, caster);
                out.push(' ');
                push_card(cat, out, card);
                out.push_str(" take effect");
            }
            None if n.window_open() => out.push_str("Pass: cast nothing in this response window"),
            None => out.push_str("Pass"),
        },
        A::TimedOut => out.push_str("Let the time run out"),
        A::SetAutoPass { on: true } => out.push_str("Pass every response window automatically"),
        A::SetAutoPass { on: false } => out.push_str("Stop passing response windows automatically"),
        A::SetPassWhenUnable { on: true } => out.push_str("Pass automatically when I can cast nothing"),
        A::SetPassWhenUnable { on: false } => out.push_str("Wait for my pass even when I can cast nothing"),
        A::ChooseCasualty { unit } => {
            push_unit_for(n, out, seat, *unit);
            out.push_str(" is the casualty");
        }
        A::CarryRelic { carry } => {
            let who = match n.relic_choice() {
                Some(u) => said(|w| push_unit_for(n, w, seat, u)),
                None => "Your pushed unit".into(),
            };
            out.push_str(&capitalized(&who));
            out.push_str(if *carry { " takes its relic along" } else { " leaves its relic behind" });
        }
        A::OfferDraw => out.push_str("Offer a draw"),
        A::AcceptDraw => out.push_str("Accept the draw"),
        A::DeclineDraw => out.push_str("Decline the draw"),
        A::Resign => out.push_str("Resign"),
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

/// [`event`], `n` the state after the change (and before it) as a
/// spectator sees it.
pub(crate) fn event_from_state(n: StateNames<'_>, e: &DuelEvent) -> String {
    capitalized(&event_text(n, &e.kind))
}

fn event_text(n: impl Source, e: &E) -> String {
    match e {
        E::CreationLocked { seat } => {
            format!("{} locked in its Alphas and Divine Interventions, sealed until the end", say_seat(n, *seat))
        }
        E::CommandPhaseBegins { first_player } => {
            format!("the Command Phase begins: {} plays first", say_seat(n, *first_player))
        }
        // Seats take turns from turn 1, so turns 1 and 2 are each seat's first.
        E::TurnBegins { seat, turn } if *turn <= 2 => {
            format!("turn {turn}: {} first turn (summoning only)", say_seats(n, *seat))
        }
        E::TurnBegins { seat, turn } => format!("turn {turn}: {} turn", say_seats(n, *seat)),
        E::MarkerExpired { unit } => format!("a condition marker on {} ran out", say_unit(n, *unit)),
        E::DiCubeRemoved { seat, card, cubes_left } => {
            format!(
                "{} {} lost a cube: {cubes_left} turn{} left",
                say_seats(n, *seat),
                say_card(n, card),
                plural(*cubes_left)
            )
        }
        E::DiExpired { seat, card } => format!("{} {} ended", say_seats(n, *seat), say_card(n, card)),
        E::Regenerated { seat, alpha, amount, life } => {
            format!("{} {} regenerated {amount} life ({life} now)", say_seats(n, *seat), say_alpha(n, *seat, *alpha))
        }
        E::AlphaRevealed { seat, alpha, design, cost, life, figure: f } => {
            let cards: Vec<String> = design.cards.iter().map(|c| say_card(n, c)).collect();
            format!(
                "{} revealed Alpha {}: {} (cost {cost}, life {life}, {} figures)",
                say_seat(n, *seat),
                alpha + 1,
                cards.join(", "),
                figure(*f)
            )
        }
        E::Summoned { seat, alpha, unit, hex, spent } => format!(
            "{} summoned {} (Alpha {}) at {hex}: {spent} points spent in all",
            say_seat(n, *seat),
            say_unit(n, *unit),
            alpha + 1
        ),
        E::Activated { unit } => match n.unit_seen(*unit) {
            Some(u) => format!("{} activated {} at {}", say_seat(n, u.controller), say_unit(n, *unit), u.hex),
            None => format!("{} activated", say_unit(n, *unit)),
        },
        E::Moved { unit, from, to, relics } => {
            let carry = match relics {
                0 => String::new(),
                1 => ", carrying a relic".into(),
                k => format!(", carrying {k} relics"),
            };
            format!("{} moved {from} → {to}{carry}", say_unit(n, *unit))
        }
        E::RelicMoved { from, to } => format!("a relic moved {from} → {to}"),
        E::PowerUsed { unit, card, power } => format!("{} used {power} ({})", say_unit(n, *unit), say_card(n, card)),
        E::Attacked { attacker, target, value, armor, damage } => {
            let by = attacker.map_or_else(|| "an attack".to_owned(), |a| say_unit(n, a));
            format!("{by} hit {}: attack {value} against armor {armor}, {damage} damage", say_unit(n, *target))
        }
        E::LifeLost { seat, alpha, unit, amount, cause: c, life } => format!(
            "{} {} lost {amount} life ({}, {}): {life} left",
            say_seats(n, *seat),
            say_alpha(n, *seat, *alpha),
            say_unit(n, *unit),
            cause(*c)
        ),
        E::Healed { seat, alpha, amount, life } => {
            format!("{} {} healed {amount} life ({life} now)", say_seats(n, *seat), say_alpha(n, *seat, *alpha))
        }
        E::Died { unit, seat, alpha, life } => {
            format!(
                "{} {} died; {} is back to {life} life",
                say_seats(n, *seat),
                say_unit(n, *unit),
                say_alpha(n, *seat, *alpha)
            )
        }
        E::TerrainChanged { hex, terrain: t } => format!("hex {hex} became {}", terrain(*t)),
        E::Marked { unit } => format!("{} got a condition marker", say_unit(n, *unit)),
        E::Controlled { unit, by } => {
            format!("{} took control of {} for this turn", say_seat(n, *by), say_unit(n, *unit))
        }
        E::ActivationEnded { unit } => format!("{} ended its activation", say_unit(n, *unit)),
        E::WindowOpened { seat } => format!("{} may answer with a Divine Intervention", say_seat(n, *seat)),
        E::DiCast { seat, card } => {
            // The pending DI's target is public once cast (the view shows it).
            let aim = match (n.pending_di(), n.pending_target()) {
                (Some((s, c)), Some(t)) if s == *seat && c == &**card => {
                    said(|out| push_aim(out, t, |out, u| push_unit_at(n, out, u)))
                }
                _ => String::new(),
            };
            format!("{} cast {}{aim}", say_seat(n, *seat), say_card(n, card))
        }
        E::DiResolved { seat, card } => format!("{} {} took effect", say_seats(n, *seat), say_card(n, card)),
        E::DiFizzled { seat, card, reason } => {
            format!("{} {} had no effect: {reason}", say_seats(n, *seat), say_card(n, card))
        }
        E::Rewound { checkpoint: 0 } => "the activation went back to its start for the Divine Intervention".into(),
        E::Rewound { checkpoint } => {
            format!("the activation went back to just after power {checkpoint} for the Divine Intervention")
        }
        E::DiDiscarded { seat, count } => {
            format!("{} discarded {count} Divine Intervention card{} unseen", say_seat(n, *seat), plural(*count as u64))
        }
        // Only its seat reads this one.
        E::DiDiscardedCards { seat, cards } => {
            let names: Vec<String> = cards.iter().map(|c| say_card(n, c)).collect();
            format!("{} discarded {} (only {} sees which)", say_seat(n, *seat), names.join(", "), say_seat(n, *seat))
        }
        E::Passed { seat } => format!("{} passed", say_seat(n, *seat)),
        E::TimedOut { seat } => format!("{} time to answer ran out: nothing cast", say_seats(n, *seat)),
        E::CasualtyChosen { seat, unit } => {
            format!("{} chose {} as the casualty", say_seat(n, *seat), say_unit(n, *unit))
        }
        E::RelicChoiceAwaited { seat, unit } => {
            format!("{} is pushed: {} decides whether it takes its relic along", say_unit(n, *unit), say_seat(n, *seat))
        }
        E::RelicCarryChosen { seat, unit, carry } => format!(
            "{} chose: {} {}",
            say_seat(n, *seat),
            say_unit(n, *unit),
            if *carry { "takes its relic along" } else { "leaves its relic behind" }
        ),
        E::DrawOffered { seat } => format!("{} offered a draw", say_seat(n, *seat)),
        E::DrawDeclined { seat } => format!("{} declined the draw", say_seat(n, *seat)),
        E::GameOver { outcome } => game_over(n, outcome),
    }
}

/// How the game ended, from the view after it: a win is by relics when a
/// unit of the winner that it controls holds two relics where it stands
/// (the rules check that after every action), any other win is the
/// loser's resignation; the only draw is an agreed one.
fn game_over(n: impl Source, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { seat } => match n.relic_holder(*seat) {
            Some((u, hex)) => format!("{} won: {} holds two relics at {hex}", say_seat(n, *seat), say_unit(n, u)),
            None if n.finished() => format!("{} resigned: {} won", say_seat(n, 1 - *seat), say_seat(n, *seat)),
            None => format!("{} won", say_seat(n, *seat)),
        },
        Outcome::Draw => "the players agreed to a draw".into(),
        other => format!("the game is over: {other:?}"),
    }
}

fn say_seat(n: impl Source, s: Seat) -> String {
    said(|out| push_seat(n, out, s))
}

fn say_seats(n: impl Source, s: Seat) -> String {
    said(|out| push_seats(n, out, s))
}

fn say_card(n: impl Source, id: &str) -> String {
    card_name(n.cat(), id)
}

fn say_alpha(n: impl Source, seat: Seat, index: usize) -> String {
    said(|out| push_alpha(n, out, seat, index))
}

fn say_unit(n: impl Source, id: UnitId) -> String {
    said(|out| push_unit(n, out, id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::bot::RandomBot;
    use crate::duel::view::view_for_words;
    use crate::duel::{Duel, DuelOptions};
    use crate::{Ruleset, Status};

    /// The words of `seat`'s actions as named from its view (the screens'
    /// way, and the server's before it named them from the state).
    fn from_view(s: &DuelState, seat: Seat, actions: &[A], seats: &SeatNames) -> Vec<serde_json::Value> {
        let view = view_for_words(s, Viewer::Seat(seat), false);
        let names = Names { seats, ..Names::new(&view) };
        actions.iter().map(|a| serde_json::to_value(action(names, seat, a)).unwrap()).collect()
    }

    /// Event lines as named from the spectator's views before and after.
    fn events_from_views(
        before: &DuelState,
        after: &DuelState,
        events: &[DuelEvent],
        seats: &SeatNames,
    ) -> Vec<String> {
        let finished = matches!(after.game.phase, Phase::Finished { .. });
        let (b, a) =
            (view_for_words(before, Viewer::Spectator, false), view_for_words(after, Viewer::Spectator, finished));
        let names = Names { before: Some(&b), seats, ..Names::new(&a) };
        events.iter().map(|e| event(names, e)).collect()
    }

    /// The legal lists' words written straight to JSON are serde_json's
    /// writing of the words as values, byte for byte, over random duels
    /// (seat names that need escaping among them).
    #[test]
    fn words_json_is_serdes() {
        let cat = Catalogue::standard();
        let named = SeatNames::new(vec![Some("Ann \"the\" \\ Bold\n".into()), Some("Bö".into())]);
        let mut listed = 0;
        for seed in 0..12u64 {
            let seats = if seed % 2 == 0 { SeatNames::none() } else { &named };
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = RandomBot::new(seed);
            for _ in 0..400 {
                for seat in 0..2 {
                    let legal = Duel::legal(&s, seat);
                    let words = Duel::named_action_words(&s, seat, &legal, seats);
                    let mut written = b"x".to_vec();
                    Duel::write_named_action_words(&s, seat, &legal, seats, &mut written);
                    let want = format!("x{}", serde_json::to_string(&words).unwrap());
                    assert_eq!(String::from_utf8(written).unwrap(), want, "seed {seed} seat {seat}");
                    listed += legal.len();
                }
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let _ = Duel::apply(&mut s, seat, a);
            }
        }
        assert!(listed > 10_000, "{listed} actions worded");
    }

    /// Named from the state or from the view it shows, every action of
    /// either seat and every event of random duels (a seat named, the
    /// other not; each ended by a resignation) read the same, byte for
    /// byte; so does a finished game's last line with two relics under a
    /// unit.
    #[test]
    fn words_from_the_state_are_the_views_words() {
        let cat = Catalogue::standard();
        let named = SeatNames::new(vec![Some("Ann".into()), None]);
        let (mut actions, mut lines, mut holders) = (0, 0, 0);
        for seed in 0..16u64 {
            let seats = if seed % 2 == 0 { SeatNames::none() } else { &named };
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = RandomBot::new(seed);
            for step in 0..500 {
                let Status::Waiting { .. } = Duel::status(&s) else { break };
                for seat in 0..2 {
                    let legal = Duel::legal(&s, seat);
                    let words = Duel::named_action_words(&s, seat, &legal, seats);
                    assert_eq!(words, from_view(&s, seat, &legal, seats), "seed {seed} seat {seat}");
                    actions += legal.len();
                }
                // A finished game's last line, with every relic under a unit.
                if step % 25 == 0 && !s.game.units.is_empty() {
                    let mut end = s.clone();
                    let u = end.game.units[step % end.game.units.len()].clone();
                    end.game.relics.iter_mut().for_each(|r| r.hex = u.hex);
                    end.game.phase = Phase::Finished { outcome: Outcome::Win { seat: u.owner } };
                    let over =
                        [DuelEvent { only: None, kind: E::GameOver { outcome: Outcome::Win { seat: u.owner } } }];
                    let line = Duel::named_event_words(&s, &end, &over, seats);
                    assert_eq!(line, events_from_views(&s, &end, &over, seats), "seed {seed}");
                    holders += usize::from(line[0].contains("holds two relics"));
                }
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let before = s.clone();
                let Ok(events) = Duel::apply(&mut s, seat, a) else { continue };
                let words = Duel::named_event_words(&before, &s, &events, seats);
                assert_eq!(words, events_from_views(&before, &s, &events, seats), "seed {seed}");
                lines += words.len();
            }
            let before = s.clone();
            if let Ok(events) = Duel::apply(&mut s, (seed % 2) as Seat, A::Resign) {
                let words = Duel::named_event_words(&before, &s, &events, seats);
                assert_eq!(words, events_from_views(&before, &s, &events, seats), "seed {seed}");
            }
        }
        assert!(
            actions > 10_000 && lines > 2_000 && holders > 5,
            "{actions} actions, {lines} lines, {holders} holders"
        );
    }

    /// A hex reads as its `Display` writes it, near the board and far off.
    #[test]
    fn a_hex_reads_as_displayed() {
        for q in -25..=25 {
            for r in [-1_000_000, -12, -10, -9, -1, 0, 1, 9, 10, 11, 99, i32::MAX, i32::MIN] {
                let h = Hex::new(q, r);
                assert_eq!(said(|out| push_hex(out, h)), h.to_string());
                assert_eq!(said(|out| push_hex(out, Hex::new(r, q))), Hex::new(r, q).to_string());
            }
        }
    }

    /// A group's name is its JSON's.
    #[test]
    fn a_groups_name_is_its_json() {
        use Group::*;
        for g in [Creation, Respond, Summon, Activate, Move, Power, Di, End, Other] {
            assert_eq!(serde_json::to_value(g).unwrap(), g.name());
        }
    }
}
