//! Divinity in words: the one describer of the game's actions, events and
//! locations, shared by every screen (the server sends its words with each
//! frame for the web page; the terminal client calls it directly).
//!
//! Everything is named as the table names it: Origins and enemies by their
//! printed names ("Darkhan's Lackey A"), spaces by theirs ("the Galley",
//! "the tactical space between the Galley and the Hold"), cards, items,
//! statuses and dice in plain words. No id, index or number standing for a
//! space reaches a player. Pure: names come from the catalogue and a view.

use serde::Serialize;

use super::action::{Aim, CardUse, KeywordFrom};
use super::attack::{Attack, Outcome};
use super::content::{CardEffect, Catalogue, ConsumableDeck, LocationDef, Who as CardWho};
use super::cooldown::CardRef;
use super::damage::{DamageType, Environment};
use super::dice::{Colour, Die};
use super::event::DivinityEvent as E;
use super::map::{SpaceDef, SpaceIx};
use super::state::MerchantDeck;
use super::state::{DivinityState, EnemyKind, Finish, Phase, RoundKind, Who};
use super::status::Status;
pub use super::view::Front;
use super::view::{ChallengeRow, DivinityView, EnemyView};
use super::DivinityAction as A;
use crate::Seat;

/// A legal action as a player reads it: what it does, the kind of thing it
/// is (how screens group it), and a warning when it hurts or burdens an
/// ally (screens ask before sending it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Said {
    pub text: String,
    pub group: Group,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warn: Option<String>,
}

/// What kind of thing an action is, for grouping on a screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// What the party decides together (round, order, ties, routes).
    Party,
    /// Travel and movement on the map.
    Travel,
    /// Exploring: revealing, holding, challenges.
    Explore,
    /// Answering a roll.
    Dice,
    /// Starting, resting, ending a turn.
    Turn,
    /// Skills, special abilities, talents.
    Skills,
    /// Items: using, equipping, trading.
    Items,
    /// Level-ups and the Merchant.
    Interlude,
}

/// Names for ids: the catalogue the engine ships, and a view for what only
/// the match knows (which enemy has which letter, where it stands).
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub cat: &'static Catalogue,
    pub table: Option<&'a DivinityView>,
    /// The view before the change being told, for enemies already gone
    /// from `table` (a defeated enemy keeps its name in the log).
    pub before: Option<&'a DivinityView>,
}

impl<'a> Names<'a> {
    pub fn new(table: Option<&'a DivinityView>) -> Names<'a> {
        Names { cat: Catalogue::standard(), table, before: None }
    }

    pub fn location(&self) -> Option<&'static LocationDef> {
        let t = self.table.or(self.before)?;
        self.cat.locations.get(&t.location)
    }

    pub fn origin_of_seat(&self, seat: Seat) -> String {
        let id = self.table.or(self.before).and_then(|t| t.origins.get(seat as usize)).map(|o| o.origin.as_str());
        match id {
            Some(id) => self.origin(id),
            None => format!("the Origin of seat {}", seat + 1),
        }
    }

    /// An Origin by its id ("red_prince" → "The Red Prince").
    pub fn origin(&self, id: &str) -> String {
        self.cat.origins.get(id).map_or_else(|| plain(id), |d| d.name.clone())
    }

    pub fn enemy(&self, id: u32) -> String {
        let find = |t: Option<&'a DivinityView>| t.and_then(|t| t.enemies.iter().find(|e| e.id == id));
        match find(self.table).or_else(|| find(self.before)) {
            Some(e) => self.enemy_name(e),
            None => "an enemy".into(),
        }
    }

    pub fn enemy_name(&self, e: &EnemyView) -> String {
        match &e.kind {
            EnemyKind::Minion { card, veteran } => {
                let name = self.cat.minions.get(card).map_or_else(|| plain(card), |m| m.name.clone());
                let vet = if *veteran { " (veteran)" } else { "" };
                match e.letter {
                    Some(l) => format!("{name} {l}{vet}"),
                    None => format!("{name}{vet}"),
                }
            }
            EnemyKind::Boss { boss } => self.cat.bosses.get(boss).map_or_else(|| plain(boss), |b| b.name.clone()),
        }
    }

    pub fn who(&self, w: Who) -> String {
        match w {
            Who::Origin(s) => self.origin_of_seat(s),
            Who::Enemy(e) => self.enemy(e),
        }
    }

    fn space_def(&self, id: &str) -> Option<&'static SpaceDef> {
        self.location()?.map.spaces.iter().find(|s| s.id == id)
    }

    /// A space by id, as people say it: "the Galley", "the tactical space
    /// between the Galley and the Hold".
    pub fn space(&self, id: &str) -> String {
        let Some(loc) = self.location() else { return "a space".into() };
        match self.space_def(id) {
            Some(s) if s.number.is_none() || s.name.is_empty() => {
                let around: Vec<String> = loc
                    .map
                    .paths
                    .iter()
                    .filter_map(|p| {
                        let other = if p.a == id {
                            &p.b
                        } else if p.b == id {
                            &p.a
                        } else {
                            return None;
                        };
                        let o = self.space_def(other)?;
                        (!o.name.is_empty() && o.number.is_some()).then(|| the(&o.name))
                    })
                    .collect();
                match around.len() {
                    0 => "a tactical space".into(),
                    1 => format!("the tactical space by {}", around[0]),
                    _ => format!("the tactical space between {}", and_list(&around)),
                }
            }
            Some(s) => the(&s.name),
            None => "a space".into(),
        }
    }

    /// A space by its index into the location's map.
    pub fn space_at(&self, ix: SpaceIx) -> String {
        match self.location().and_then(|l| l.map.spaces.get(ix)) {
            Some(s) => self.space(&s.id),
            None => "a space".into(),
        }
    }

    pub fn space_id_at(&self, ix: SpaceIx) -> Option<&'static str> {
        self.location().and_then(|l| l.map.spaces.get(ix)).map(|s| s.id.as_str())
    }

    pub fn skill(&self, id: &str) -> String {
        self.cat.skills.get(id).map_or_else(|| plain(id), |s| s.name.clone())
    }

    /// An item, rune or summon by id.
    pub fn item(&self, id: &str) -> String {
        if let Some(i) = self.cat.items.get(id) {
            return i.name.clone();
        }
        if let Some(r) = self.cat.runes.get(id) {
            return r.name.clone();
        }
        self.cat.summons.get(id).map_or_else(|| plain(id), |s| s.name.clone())
    }

    pub fn talent(&self, id: &str) -> String {
        self.cat.talents.get(id).map_or_else(|| plain(id), |t| t.name.clone())
    }

    pub fn location_name(&self, id: &str) -> String {
        self.cat.locations.get(id).map_or_else(|| plain(id), |l| l.name.clone())
    }

    /// Whatever a track card is.
    pub fn track_card(&self, c: &CardRef) -> String {
        match c {
            CardRef::Status(s) => status(*s).to_owned(),
            CardRef::Skill(id) => self.skill(id),
            CardRef::Consumable(id) => self.item(id),
            CardRef::Tactic(_) => "a Boss tactic".into(),
        }
    }

    /// A location card by id: its opening words as printed when a view
    /// shows its text, else where it comes from ("the Hold's card", "timed
    /// event A").
    pub fn location_card(&self, id: &str) -> String {
        let shown = [self.table, self.before]
            .into_iter()
            .flatten()
            .flat_map(|t| t.revealed.iter().chain(&t.holding))
            .find(|c| c.id == id);
        if let Some(c) = shown {
            return format!("“{}”", opening(&printed(&c.text)).replace(['“', '”'], ""));
        }
        let def = self.location().and_then(|l| l.cards.iter().find(|c| c.id == id));
        match def.and_then(|d| d.space) {
            Some(n) => {
                let space = self.location().and_then(|l| l.map.spaces.iter().find(|s| s.number == Some(n)));
                match space {
                    Some(s) if !s.name.is_empty() => format!("the card of {}", the(&s.name)),
                    _ => "a location card".into(),
                }
            }
            None if id.chars().all(|c| c.is_ascii_uppercase()) => format!("timed event {id}"),
            None => "a location card".into(),
        }
    }
}

impl Names<'_> {
    /// A card just resolved: it was revealed first, so its opening words
    /// are public even when the change took it off the table at once.
    fn resolved_card(&self, id: &str) -> String {
        match self.location().and_then(|l| l.cards.iter().find(|c| c.id == id)) {
            Some(c) => format!("“{}”", opening(&printed(&c.text)).replace(['“', '”'], "")),
            None => self.location_card(id),
        }
    }
}

/// "Galley" → "the Galley"; a name that has its own article keeps it.
fn the(name: &str) -> String {
    if name.starts_with("The ") || name.starts_with("the ") {
        name.to_owned()
    } else {
        format!("the {name}")
    }
}

/// An id for when the catalogue does not know it: words, not snake_case.
fn plain(id: &str) -> String {
    id.replace('_', " ")
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A printed text as it reads on the card: its quotation marks typeset
/// (“…”), as the card prints them.
fn printed(text: &str) -> String {
    let mut open = true;
    text.chars()
        .map(|c| match c {
            '"' => {
                let q = if open { '“' } else { '”' };
                open = !open;
                q
            }
            c => c,
        })
        .collect()
}

/// The first words of a card's text, enough to tell it from the others.
fn opening(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= 7 {
        words.join(" ")
    } else {
        format!("{}…", words[..6].join(" "))
    }
}

/// A status as printed, lower case ("knocked down").
pub fn status(s: Status) -> &'static str {
    match s {
        Status::Bleeding => "bleeding",
        Status::Blessed => "blessed",
        Status::Blinded => "blinded",
        Status::Burning => "burning",
        Status::Chicken => "chicken",
        Status::Dominated => "dominated",
        Status::Exposed => "exposed",
        Status::Frozen => "frozen",
        Status::Haste => "haste",
        Status::Invisible => "invisible",
        Status::KnockedDown => "knocked down",
        Status::Poisoned => "poisoned",
        Status::Shocked => "shocked",
        Status::Stunned => "stunned",
        Status::Sundered => "sundered",
    }
}

/// A status that helps whoever has it (the rest hurt or hinder).
fn helps(s: Status) -> bool {
    matches!(s, Status::Blessed | Status::Haste | Status::Invisible)
}

pub fn colour(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Blue => "blue",
        Colour::Red => "red",
    }
}

fn environment(e: Environment) -> &'static str {
    match e {
        Environment::Charged => "charged",
        Environment::Wet => "wet",
        Environment::Warm => "warm",
        Environment::Oily => "oily",
        Environment::DifficultTerrain => "difficult terrain",
    }
}

fn deck(d: ConsumableDeck) -> &'static str {
    match d {
        ConsumableDeck::Scrolls => "scrolls",
        ConsumableDeck::Potions => "potions",
        ConsumableDeck::Grenades => "grenades",
        ConsumableDeck::Arrows => "arrows",
    }
}

/// One die as a short token: colour letter, hits, `*` for a special
/// (`R2`, `W1*`, `B0`), for the terminal's narrow panes.
pub fn die(cat: &Catalogue, d: Die) -> String {
    let c = match d.colour {
        Colour::White => 'W',
        Colour::Blue => 'B',
        Colour::Red => 'R',
    };
    let f = cat.dice.faces(d.colour).get(d.face as usize).copied();
    match f {
        Some(f) => format!("{c}{}{}", f.hits, if f.special { "*" } else { "" }),
        None => format!("{c}?"),
    }
}

/// Dice as tokens, numbered from 1 when `numbered` (rerolls name dice by number).
pub fn dice(cat: &Catalogue, dice: &[Die], numbered: bool) -> String {
    dice.iter()
        .enumerate()
        .map(|(i, d)| if numbered { format!("{}:{}", i + 1, die(cat, *d)) } else { die(cat, *d) })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One die in words: "the red 2", "the white blank", "the blue 1 with a special".
pub fn die_words(cat: &Catalogue, d: Die) -> String {
    let c = colour(d.colour);
    match cat.dice.faces(d.colour).get(d.face as usize).copied() {
        Some(f) if f.hits == 0 && !f.special => format!("the {c} blank"),
        Some(f) if f.hits == 0 => format!("the {c} special"),
        Some(f) if f.special => format!("the {c} {} with a special", f.hits),
        Some(f) => format!("the {c} {}", f.hits),
        None => format!("a {c} die"),
    }
}

/// Dice in words, as a list: "the red 2, the white blank and the blue 1".
pub fn dice_words(cat: &Catalogue, dice: &[Die]) -> String {
    let words: Vec<String> = dice.iter().map(|d| die_words(cat, *d)).collect();
    and_list(&words)
}

fn aim(n: Names<'_>, a: &Aim) -> String {
    match a {
        Aim::Origin(s) => n.origin_of_seat(*s),
        Aim::Enemy(e) => n.enemy(*e),
        Aim::Space(id) => n.space(id),
    }
}

fn card(n: Names<'_>, c: &CardUse) -> String {
    match c {
        CardUse::Skill(id) => n.skill(id),
        CardUse::Item(id) => n.item(id),
        CardUse::Consumable(id) => n.item(id),
        CardUse::Summon => "your summon".into(),
    }
}

fn from(n: Names<'_>, f: &KeywordFrom) -> String {
    match f {
        KeywordFrom::Permanent => "your own".into(),
        KeywordFrom::Skill(id) => format!("the skill {}", n.skill(id)),
        KeywordFrom::Consumable(id) => n.item(id),
    }
}

/// What a card costs to use: "(1 AP)", "(2 AP, 1 Source)".
fn cost(n: Names<'_>, c: &CardUse) -> String {
    let (ap, source) = match c {
        CardUse::Skill(id) => n.cat.skills.get(id).map_or((None, 0), |s| (Some(s.ap), s.source)),
        CardUse::Item(id) | CardUse::Consumable(id) => {
            (n.cat.items.get(id).and_then(|i| i.action.as_ref()).map(|a| a.ap), 0)
        }
        CardUse::Summon => (None, 0),
    };
    match (ap, source) {
        (Some(ap), 0) => format!(" ({ap} AP)"),
        (Some(ap), s) => format!(" ({ap} AP, {s} Source)"),
        (None, 0) => String::new(),
        (None, s) => format!(" ({s} Source)"),
    }
}

/// The attack a card makes, if it makes one.
fn attack_of<'c>(cat: &'c Catalogue, c: &CardUse) -> Option<&'c Attack> {
    match c {
        CardUse::Skill(id) => cat.skills.get(id)?.attack.as_ref(),
        CardUse::Item(id) | CardUse::Consumable(id) => Some(&cat.items.get(id)?.action.as_ref()?.attack),
        CardUse::Summon => None,
    }
}

/// What an attack does to whoever it lands on, when that is bad for them.
fn harm(cat: &Catalogue, c: &CardUse) -> Option<String> {
    if let CardUse::Skill(id) = c {
        if cat.skills.get(id).is_some_and(|s| s.weapon.is_some()) {
            return Some("attacks".into());
        }
    }
    let a = attack_of(cat, c)?;
    if matches!(a.outcome, Outcome::Damage { .. }) {
        return Some("attacks".into());
    }
    let bad: Vec<&str> = a.statuses.iter().filter(|g| !helps(g.status)).map(|g| status(g.status)).collect();
    (!bad.is_empty()).then(|| format!("makes {}", bad.join(" and ")))
}

/// The warning for using `c` on `target` when `target` holds the party's
/// own: an attack or a hindering status on an ally (or on oneself).
fn warn(n: Names<'_>, seat: Seat, c: &CardUse, target: &Aim, include_self: Option<bool>) -> Option<String> {
    let harm = harm(n.cat, c)?;
    let allies: Vec<String> = match target {
        Aim::Origin(s) if *s == seat => vec!["yourself".into()],
        Aim::Origin(s) => vec![format!("{}, your ally", n.origin_of_seat(*s))],
        Aim::Enemy(_) => return None,
        Aim::Space(id) => {
            let t = n.table?;
            let ix = n.location()?.map.ix(id)?;
            t.origins
                .iter()
                .enumerate()
                .filter(|(s, o)| o.space == ix && !o.downed && (*s as Seat != seat || include_self == Some(true)))
                .map(|(s, _)| if s as Seat == seat { "you".into() } else { n.origin_of_seat(s as Seat) })
                .collect()
        }
    };
    (!allies.is_empty()).then(|| format!("This {harm} {}.", and_list(&allies)))
}

/// A legal action of `seat` in words, for a button or a menu.
pub fn action(n: Names<'_>, seat: Seat, a: &A) -> Said {
    let said = |text: String, group: Group| Said { text, group, warn: None };
    match a {
        A::ChooseRound { explore: true } => said("Explore this round".into(), Group::Party),
        A::ChooseRound { explore: false } => said("Rest this round".into(), Group::Party),
        A::Travel { to: Some(to) } => said(format!("Travel to {}", n.space(to)), Group::Travel),
        A::Travel { to: None } => said("Stay where you are".into(), Group::Travel),
        A::Reveal => said("Reveal the top card of your space".into(), Group::Explore),
        A::TakeHolding { card } => {
            said(format!("Take {} from the holding area instead", n.location_card(card)), Group::Explore)
        }
        A::Pass => said("Explore nothing this round".into(), Group::Explore),
        A::Resolve { card } => said(format!("Resolve {} next", n.location_card(card)), Group::Party),
        A::Hold { card } => said(format!("Put {} in the holding area", n.location_card(card)), Group::Party),
        A::Challenge { auto: None, keywords } if keywords.is_empty() => {
            said("Roll for the challenge".into(), Group::Explore)
        }
        A::Challenge { auto: None, keywords } => {
            let k: Vec<String> = keywords.iter().map(|(k, f)| format!("{k} from {}", from(n, f))).collect();
            said(format!("Roll for the challenge with {}", and_list(&k)), Group::Explore)
        }
        A::Challenge { auto: Some((k, f)), .. } => said(
            format!("Succeed at once with {k} ({}): flip the card, then choose its result", from(n, f)),
            Group::Explore,
        ),
        A::ChooseResult { row } => {
            let shown = n.table.and_then(|t| t.challenge_rows.as_ref()).and_then(|rows| rows.get(*row));
            match shown {
                Some(r) => said(format!("Take the result: {}", r.text), Group::Explore),
                None => said(format!("Take the {} result", ordinal(*row)), Group::Explore),
            }
        }
        A::Reroll { dice, source } => {
            let shown = n.table.and_then(|t| {
                let roll = t.pending.as_ref().map(|p| &p.roll).or(t.enemy_roll.as_ref().map(|r| &r.roll))?;
                dice.iter().map(|i| roll.dice.get(*i).copied()).collect::<Option<Vec<Die>>>()
            });
            let which = match shown {
                Some(d) => dice_words(n.cat, &d),
                None => format!("{} dice", dice.len()),
            };
            let how = if *source { "with 1 Source" } else { "with the card's reroll" };
            said(format!("Reroll {which} ({how})"), Group::Dice)
        }
        A::Accept => said("Let the roll stand".into(), Group::Dice),
        A::StartTurn => said(format!("Start {}'s turn", n.origin_of_seat(seat)), Group::Turn),
        A::Move { to } => said(format!("Move to {} (1 AP)", n.space(to)), Group::Travel),
        A::Use { card: c, aim: target, first_aura, include_self } => {
            let mut text = match target {
                Aim::Space(_) => format!("{} at {}", card(n, c), aim(n, target)),
                Aim::Origin(s) if *s == seat => format!("{} on yourself", card(n, c)),
                _ => format!("{} on {}", card(n, c), aim(n, target)),
            };
            if let Some(f) = first_aura {
                text.push_str(&format!(", {} first", n.skill(f)));
            }
            match include_self {
                Some(true) => text.push_str(", you too"),
                Some(false) => text.push_str(", not you"),
                None => {}
            }
            text.push_str(&cost(n, c));
            let group = if matches!(c, CardUse::Skill(_) | CardUse::Summon) { Group::Skills } else { Group::Items };
            Said { text, group, warn: warn(n, seat, c, target, *include_self) }
        }
        A::Taunt { enemy } => said(format!("Taunt {} into your space", n.enemy(*enemy)), Group::Skills),
        A::Equip { item } => said(format!("Equip {}", n.item(item)), Group::Items),
        A::AttachRune { rune, item } => said(format!("Attach {} to {}", n.item(rune), n.item(item)), Group::Items),
        A::Store { item } => said(format!("Put {} in the backpack", n.item(item)), Group::Items),
        A::Give { item, to, equip } => {
            let e = if *equip { " to equip" } else { "" };
            said(format!("Give {} to {}{e}", n.item(item), n.origin_of_seat(*to)), Group::Items)
        }
        A::Take { item, from, equip } => {
            let e = if *equip { " and equip it" } else { "" };
            said(format!("Take {} from {}{e}", n.item(item), n.origin_of_seat(*from)), Group::Items)
        }
        A::PlaceItem { to: None, .. } => said("Discard the item nobody has room for".into(), Group::Party),
        A::PlaceItem { to: Some(to), drop, pass_to } => {
            let mut s = format!("{} takes the item", n.origin_of_seat(*to));
            if let Some(d) = drop {
                s.push_str(&format!(", dropping {}", n.item(d)));
                if let Some(p) = pass_to {
                    s.push_str(&format!(" for {}", n.origin_of_seat(*p)));
                }
            }
            said(s, Group::Party)
        }
        A::Discard { item } => said(format!("Discard {}", n.item(item)), Group::Items),
        A::Recover { status: None } => said("Recover: heal 2".into(), Group::Turn),
        A::Recover { status: Some(s) } => said(format!("Recover: slide {} off sooner", status(*s)), Group::Turn),
        A::UseTalent { talent } => said(format!("Use the talent {}", n.talent(talent)), Group::Skills),
        A::UseAbility { aim: None } => said("Use your special ability".into(), Group::Skills),
        A::UseAbility { aim: Some(a) } => said(format!("Use your special ability on {}", aim(n, a)), Group::Skills),
        A::Revive { to, hp } => said(format!("Revive {} with {hp} of your HP", n.origin_of_seat(*to)), Group::Skills),
        A::EndTurn => said("End the turn".into(), Group::Turn),
        A::BreakTie { target } => said(format!("The enemy goes for {}", aim(n, target)), Group::Party),
        A::ChooseRoute { route } => {
            let path = n
                .table
                .and_then(|t| t.route.as_ref())
                .and_then(|r| r.routes.get(*route))
                .map(|r| r.iter().map(|s| n.space(s)).collect::<Vec<_>>().join(", then "));
            match path {
                Some(p) => said(format!("The enemy goes by {p}"), Group::Party),
                None => said(format!("The enemy takes the {} route", ordinal(*route)), Group::Party),
            }
        }
        A::ReduceDice { remove } => {
            let c: Vec<String> = remove.iter().map(|c| format!("a {} die", colour(*c))).collect();
            // The dice an enemy's roll loses are the party's to pick; an
            // Origin's own roll, its own.
            let own = n.table.is_some_and(|t| t.roll_reduction.is_some());
            said(format!("Take {} off the roll", and_list(&c)), if own { Group::Dice } else { Group::Party })
        }
        A::OrderTurnStart { order } => {
            let o: Vec<&str> = order.iter().map(|s| status(*s)).collect();
            said(format!("Its turn starts with {}", o.join(", then ")), Group::Party)
        }
        A::Command { target } => said(format!("Send the dominated minion at {}", aim(n, target)), Group::Party),
        A::LevelUp { talent, learn, respec } => {
            let mut s = format!("Level up: learn {}", n.skill(learn));
            if let Some(t) = talent {
                s.push_str(&format!(" and the talent {}", n.talent(t)));
            }
            if !respec.is_empty() {
                let r: Vec<String> =
                    respec.iter().map(|(out, into)| format!("{} for {}", n.skill(out), n.skill(into))).collect();
                s.push_str(&format!(", trading {}", and_list(&r)));
            }
            said(s, Group::Interlude)
        }
        A::VisitMerchant { level, consumables } => match consumables {
            Some(d) => said(
                format!("Visit the Merchant: level {level} wares and {} ({level} gold)", deck(*d)),
                Group::Interlude,
            ),
            None => said(format!("Visit the Merchant: level {level} wares ({level} gold)"), Group::Interlude),
        },
        A::Restock { deck: MerchantDeck::Equipment(l) } => {
            said(format!("Restock the Merchant: level {l} equipment"), Group::Interlude)
        }
        A::Restock { deck: MerchantDeck::Consumables(d) } => {
            said(format!("Restock the Merchant: {}", deck(*d)), Group::Interlude)
        }
        A::Buy { item, to } => said(format!("Buy {} for {}", n.item(item), n.origin_of_seat(*to)), Group::Interlude),
        A::Sell { item } => said(format!("Sell {}", n.item(item)), Group::Interlude),
        A::FinishInterlude => said("Set out for the next location".into(), Group::Interlude),
    }
}

/// "first", "second", … for a 0-based position.
fn ordinal(i: usize) -> String {
    const WORDS: [&str; 8] = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
    WORDS.get(i).map_or_else(|| format!("number {}", i + 1), |w| (*w).to_owned())
}

fn round_kind(k: RoundKind) -> &'static str {
    match k {
        RoundKind::Explore => "an Explore",
        RoundKind::Rest => "a Rest",
        RoundKind::Combat => "a Combat",
    }
}

/// An event in words, for the log.
pub fn event(n: Names<'_>, e: &E) -> String {
    let cat = n.cat;
    match e {
        E::RoundStarted { round, kind } => format!("Round {round} begins: {} round", round_kind(*kind)),
        E::TurnStarted { seat, ap } => format!("{}'s turn starts ({ap} AP)", n.origin_of_seat(*seat)),
        E::TurnEnded { who } => format!("{}'s turn ends", n.who(*who)),
        E::Travelled { seat, to } => format!("{} travels to {}", n.origin_of_seat(*seat), n.space(to)),
        E::Moved { who, to } => format!("{} moves to {}", n.who(*who), n.space(to)),
        E::CardRevealed { text, .. } => format!("A location card is revealed: {}", printed(text)),
        E::ChallengeFlipped { seat, .. } => {
            format!("{} succeeds at once: the card is flipped and its result is chosen", n.origin_of_seat(*seat))
        }
        E::CardResolved { card } => format!("{} is resolved", cap(&n.resolved_card(card))),
        E::CardHeld { card } => format!("{} goes to the holding area", cap(&n.location_card(card))),
        E::Rolled { who, dice: d, hits, specials } => {
            let sp = match specials {
                0 => String::new(),
                1 => " and a special".into(),
                s => format!(" and {s} specials"),
            };
            let h = if *hits == 1 { "hit" } else { "hits" };
            format!("{} rolls {}: {hits} {h}{sp}", n.who(*who), dice_words(cat, d))
        }
        E::Rerolled { seat, dice: d, source } => {
            let how = if *source { " with Source" } else { "" };
            format!("{} rerolls{how}: now {}", n.origin_of_seat(*seat), dice_words(cat, d))
        }
        E::Damaged { who, amount, hp } => format!("{} takes {amount} damage ({hp} HP left)", n.who(*who)),
        E::Healed { who, amount, hp } => format!("{} heals {amount} ({hp} HP)", n.who(*who)),
        E::StatusGained { who, status: s, .. } => format!("{} is {}", n.who(*who), status(*s)),
        E::StatusCleared { who, status: s } => format!("{} is no longer {}", n.who(*who), status(*s)),
        E::Downed { seat } => format!("{} is downed!", n.origin_of_seat(*seat)),
        E::Revived { seat, hp } => format!("{} is revived with {hp} HP", n.origin_of_seat(*seat)),
        E::Spawned { enemy, name, space, fast } => {
            let letter = n.table.and_then(|t| t.enemies.iter().find(|x| x.id == *enemy)).and_then(|x| x.letter);
            let l = letter.map(|l| format!(" {l}")).unwrap_or_default();
            let speed = if *fast { " (fast)" } else { "" };
            format!("{name}{l}{speed} appears in {}", n.space(space))
        }
        E::Targeted { enemy, target, .. } => format!("{} goes for {}", n.enemy(*enemy), n.who(*target)),
        E::TieToBreak { enemy, .. } => format!("{} could go for several: the party picks", n.enemy(*enemy)),
        E::Defeated { enemy } => format!("{} is defeated", n.enemy(*enemy)),
        E::EnvironmentPlaced { space, environment: env } => {
            format!("{} becomes {}", cap(&n.space(space)), environment(*env))
        }
        E::GoldGained { amount, total } => format!("The party gains {amount} gold ({total} in all)"),
        E::GoldSpent { amount, total } => format!("The party spends {amount} gold ({total} left)"),
        E::AbilityUsed { seat } => format!("{} uses their special ability", n.origin_of_seat(*seat)),
        E::ItemGained { seat: Some(s), item } => format!("{} gains {}", n.origin_of_seat(*s), n.item(item)),
        E::ItemGained { seat: None, item } => format!("The party gains {}", n.item(item)),
        E::ItemDiscarded { seat, item } => format!("{} discards {}", n.origin_of_seat(*seat), n.item(item)),
        E::NoRoom { item, .. } => format!("Nobody has room for {}: the party decides", n.item(item)),
        E::RewardDiscarded { item } => format!("{} is discarded", n.item(item)),
        E::ItemTraded { from, to, item } => {
            format!("{} gives {} to {}", n.origin_of_seat(*from), n.item(item), n.origin_of_seat(*to))
        }
        E::DeckEmpty { deck } => format!("The {} deck is empty", plain(deck)),
        E::RouteToChoose { enemy, .. } => format!("{} has several ways to go: the party picks", n.enemy(*enemy)),
        E::DiceToReduce { enemy, remove } => {
            format!(
                "{}'s roll loses {remove} {}: the party picks",
                n.enemy(*enemy),
                if *remove == 1 { "die" } else { "dice" }
            )
        }
        E::TurnStartToOrder { enemy, .. } => format!("{}: the party orders its start of turn", n.enemy(*enemy)),
        E::OwnDiceToReduce { seat, remove } => format!(
            "{}'s roll loses {remove} {}: they pick",
            n.origin_of_seat(*seat),
            if *remove == 1 { "die" } else { "dice" }
        ),
        E::Reacted { seat, skill, enemy } => {
            format!("{} reacts with {} against {}", n.origin_of_seat(*seat), n.skill(skill), n.enemy(*enemy))
        }
        E::TalentUsed { seat, talent } => format!("{} uses {}", n.origin_of_seat(*seat), n.talent(talent)),
        E::KeyPlaced { a, b } => format!("The way between {} and {} opens", n.space(a), n.space(b)),
        E::CardPlaced { card, space } => format!("{} is placed on {}", cap(&n.location_card(card)), n.space(space)),
        E::JournalRevealed { text, .. } => format!("A journal entry: {}", printed(text)),
        E::CollarBroken { seat } => format!("{}'s Source collar breaks", n.origin_of_seat(*seat)),
        E::TimeAdvanced { space } => time_words(n, *space, "Time advances"),
        E::TimeSet { space } => time_words(n, *space, "The time track is set"),
        E::TimePaused { paused: true } => "Time stops".into(),
        E::TimePaused { paused: false } => "Time runs again".into(),
        E::CombatEnded { victory: true } => "The combat is won".into(),
        E::CombatEnded { victory: false } => "The combat is over".into(),
        E::LocationExited { to, level_up } => {
            let l = if *level_up { " (and levels up)" } else { "" };
            format!("The party leaves for {}{l}", n.location_name(to))
        }
        E::MerchantShows { items, gold } => {
            let i: Vec<String> = items.iter().map(|i| n.item(i)).collect();
            format!("The Merchant shows {} (the party has {gold} gold)", and_list(&i))
        }
        E::LocationFinished { result: Finish::Exit { to, .. } } => {
            format!("The location is done: on to {}", n.location_name(to))
        }
        E::LocationFinished { result: Finish::Restart } => "The party must restart the location".into(),
    }
}

fn time_words(n: Names<'_>, space: u32, what: &str) -> String {
    match n.location().map(|l| l.time.length) {
        Some(len) => format!("{what}: {space} of {len}"),
        None => format!("{what}: {space}"),
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn damage_type(t: DamageType) -> &'static str {
    match t {
        DamageType::Physical => "physical",
        DamageType::Air => "air",
        DamageType::Water => "water",
        DamageType::Fire => "fire",
        DamageType::Earth => "earth",
        DamageType::Poison => "poison",
        DamageType::Direct => "direct",
    }
}

fn whom(w: CardWho) -> &'static str {
    match w {
        CardWho::Group => "you",
        CardWho::Party => "the whole party",
    }
}

/// What a card's effects do, as its text would say it ("2 direct damage to
/// you; the party gains 1 gold"): a challenge's result rows once its card
/// is flipped.
pub fn effects(n: Names<'_>, effects: &[CardEffect]) -> String {
    if effects.is_empty() {
        return "nothing happens".into();
    }
    let said: Vec<String> = effects.iter().map(|e| effect(n, e)).collect();
    said.join("; ")
}

fn effect(n: Names<'_>, e: &CardEffect) -> String {
    match e {
        CardEffect::Spawn { .. } => "enemies appear".into(),
        CardEffect::SpawnBoss { boss } => {
            format!("{} appears", n.cat.bosses.get(boss).map_or_else(|| plain(boss), |b| b.name.clone()))
        }
        CardEffect::Gold { amount } => format!("the party gains {amount} gold"),
        CardEffect::Item { item } => format!("you find {}", n.item(item)),
        CardEffect::Rune { rune } => format!("you find {}", n.item(rune)),
        CardEffect::RandomItem { level } => format!("you find a level {level} item"),
        CardEffect::RandomConsumable { deck: d } => format!("you find one of the {}", deck(*d)),
        CardEffect::Key { a, b } => format!("the way between {} and {} opens", n.space(a), n.space(b)),
        CardEffect::PlaceCard { space, .. } => format!("a card is placed on {}", n.space(space)),
        CardEffect::PlaceSelf { space } => format!("this card stays on {}", n.space(space)),
        CardEffect::Resolve { .. } => "another card is resolved".into(),
        CardEffect::Journal { .. } => "a journal entry".into(),
        CardEffect::Exit { to, .. } => format!("the way to {} opens", n.location_name(to)),
        CardEffect::Damage { amount, ty, who } => format!("{amount} {} damage to {}", damage_type(*ty), whom(*who)),
        CardEffect::Heal { amount, who } => format!("{} heal {amount}", whom(*who)),
        CardEffect::Status { status: s, who, .. } => format!("{} become {}", whom(*who), status(*s)),
        CardEffect::Environment { space, environment: env } => {
            format!("{} becomes {}", n.space(space), environment(*env))
        }
        CardEffect::SetTime { space } => format!("the time track is set to {space}"),
        CardEffect::PauseTime => "time stops".into(),
        CardEffect::ResumeTime => "time runs again".into(),
        CardEffect::ReturnToDeck => "the card goes back into the deck".into(),
        CardEffect::BreakCollar { .. } => "Source collars break".into(),
        CardEffect::Restart => "the party must restart the location".into(),
        CardEffect::If { .. } => "it depends on what the party has done".into(),
        CardEffect::Move { space, who } => format!("{} move to {}", whom(*who), n.space(space)),
    }
}

/// The location as the book presents it, with what happened at its end
/// once over.
pub fn front(cat: &Catalogue, view: &DivinityView) -> Front {
    let Some(loc) = cat.locations.get(&view.location) else {
        return Front { name: plain(&view.location), ..Front::default() };
    };
    let n = Names::new(Some(view));
    let (outcome, next) = match &view.phase {
        Phase::Finished { result: Finish::Exit { to, level_up } } => (
            Some(format!(
                "The party found the way out of {} and sets out for {}{}. The next location starts from here.",
                loc.name,
                n.location_name(to),
                if *level_up { ", a level higher" } else { "" }
            )),
            Some(n.location_name(to)),
        ),
        Phase::Finished { result: Finish::Restart } => {
            let why = if view.origins.iter().all(|o| o.downed) {
                "every Origin was downed"
            } else if view.time.is_some_and(|t| t >= view.time_length) {
                "time ran out"
            } else {
                "the location forced a restart"
            };
            (
                Some(format!(
                    "The party failed: {why}. By the book (Restarting a Location) {} starts again; the party keeps its items and discoveries but loses its gold.",
                    loc.name
                )),
                None,
            )
        }
        Phase::Interlude(i) => (
            Some(format!(
                "The party found the way out of {}. {}then set out for {}.",
                loc.name,
                if i.level_up { "Level up and visit the Merchant, " } else { "Visit the Merchant, " },
                n.location_name(&i.to)
            )),
            Some(n.location_name(&i.to)),
        ),
        _ => (None, None),
    };
    Front { name: loc.name.clone(), intro: printed(&loc.intro), goal: printed(&loc.goal), outcome, next }
}

/// Fill in `view`'s words: the location's front (name, intro, goal,
/// outcome) and the texts of a flipped challenge card's rows.
pub fn tell(view: &mut DivinityView, state: &DivinityState, cat: &Catalogue) {
    let loc = state.loc(cat);
    view.front = front(cat, view);
    let rows = state.challenge.as_ref().filter(|c| c.flipped.is_some()).map(|c| {
        let names = Names::new(Some(&*view));
        let rows = loc.card(&c.card).and_then(|card| card.challenge.as_ref()).map_or(&[][..], |ch| &ch.results[..]);
        rows.iter().map(|r| ChallengeRow { min_hits: r.min_hits, text: effects(names, &r.effects) }).collect()
    });
    view.challenge_rows = rows;
}
