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

mod actions;
mod events;
mod front;
mod lexicon;

use lexicon::{Lexicon, Place};

pub use actions::{action, action_into, write_json};
pub use events::{effects, event};
pub(crate) use front::front_key;
pub use front::{front, tell, tell_rows};

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

impl Said {
    /// The JSON object serde makes of it, built directly: the server sends
    /// the words of every listed action, a thousand and more a frame in an
    /// interlude's level-ups, and going through serde's serializer cost
    /// more than the words themselves (a test holds the two equal).
    pub fn into_json(self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("text".into(), serde_json::Value::String(self.text));
        map.insert("group".into(), serde_json::Value::String(self.group.as_str().into()));
        if let Some(w) = self.warn {
            map.insert("warn".into(), serde_json::Value::String(w));
        }
        serde_json::Value::Object(map)
    }
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

impl Group {
    /// Its name in JSON, as serde writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Party => "party",
            Group::Travel => "travel",
            Group::Explore => "explore",
            Group::Dice => "dice",
            Group::Turn => "turn",
            Group::Skills => "skills",
            Group::Items => "items",
            Group::Interlude => "interlude",
        }
    }
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
        match self.lexicon() {
            Some(l) => l.places.get(t.location.as_str()).map(|p| p.def),
            None => self.cat.locations.get(&t.location),
        }
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
        match self.location() {
            Some(loc) => space_words(loc, id),
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

/// The namers above appending their words to a text (the same words,
/// without a String of their own): an action's words are written piece by
/// piece, and a list holds hundreds.
impl<'a> Names<'a> {
    /// The hashed words of the catalogue, when it is the standard one.
    fn lexicon(&self) -> Option<&'static Lexicon> {
        Lexicon::of(self.cat)
    }

    pub(super) fn push_origin_of_seat(&self, s: &mut String, seat: Seat) {
        let id = self.table.or(self.before).and_then(|t| t.origins.get(seat as usize)).map(|o| o.origin.as_str());
        let Some(id) = id else {
            s.push_str(&self.origin_of_seat(seat));
            return;
        };
        let name = match self.lexicon() {
            Some(l) => l.origins.get(id).copied(),
            None => self.cat.origins.get(id).map(|d| d.name.as_str()),
        };
        match name {
            Some(name) => s.push_str(name),
            None => push_plain(s, id),
        }
    }

    pub(super) fn push_enemy(&self, s: &mut String, id: u32) {
        let find = |t: Option<&'a DivinityView>| t.and_then(|t| t.enemies.iter().find(|e| e.id == id));
        let Some(e) = find(self.table).or_else(|| find(self.before)) else {
            s.push_str("an enemy");
            return;
        };
        let lexicon = self.lexicon();
        match &e.kind {
            EnemyKind::Minion { card, veteran } => {
                let name = match lexicon {
                    Some(l) => l.minions.get(card.as_str()).copied(),
                    None => self.cat.minions.get(card).map(|m| m.name.as_str()),
                };
                match name {
                    Some(name) => s.push_str(name),
                    None => push_plain(s, card),
                }
                if let Some(l) = e.letter {
                    s.push(' ');
                    s.push(l);
                }
                if *veteran {
                    s.push_str(" (veteran)");
                }
            }
            EnemyKind::Boss { boss } => {
                let name = match lexicon {
                    Some(l) => l.bosses.get(boss.as_str()).copied(),
                    None => self.cat.bosses.get(boss).map(|b| b.name.as_str()),
                };
                match name {
                    Some(name) => s.push_str(name),
                    None => push_plain(s, boss),
                }
            }
        }
    }

    /// [`Names::space`], appended: from the lexicon's words of the
    /// location's spaces when it has them.
    pub(super) fn push_space(&self, s: &mut String, id: &str) {
        if let (Some(l), Some(t)) = (self.lexicon(), self.table.or(self.before)) {
            match l.places.get(t.location.as_str()) {
                Some(p) => s.push_str(p.spaces.get(id).map_or("a space", String::as_str)),
                None => s.push_str("a space"),
            }
            return;
        }
        match self.location().map(|_| self.space_def(id)) {
            Some(Some(d)) if d.number.is_some() && !d.name.is_empty() => push_the(s, &d.name),
            _ => s.push_str(&self.space(id)),
        }
    }

    pub(super) fn push_skill(&self, s: &mut String, id: &str) {
        let name = match self.lexicon() {
            Some(l) => l.skills.get(id).map(|c| c.name),
            None => self.cat.skills.get(id).map(|d| d.name.as_str()),
        };
        match name {
            Some(name) => s.push_str(name),
            None => push_plain(s, id),
        }
    }

    pub(super) fn push_item(&self, s: &mut String, id: &str) {
        let name = match self.lexicon() {
            Some(l) => l.things.get(id).copied(),
            None => self.cat.items.get(id).map(|i| i.name.as_str()).or_else(|| {
                self.cat
                    .runes
                    .get(id)
                    .map(|r| r.name.as_str())
                    .or_else(|| self.cat.summons.get(id).map(|d| d.name.as_str()))
            }),
        };
        match name {
            Some(name) => s.push_str(name),
            None => push_plain(s, id),
        }
    }

    pub(super) fn push_talent(&self, s: &mut String, id: &str) {
        let name = match self.lexicon() {
            Some(l) => l.talents.get(id).copied(),
            None => self.cat.talents.get(id).map(|d| d.name.as_str()),
        };
        match name {
            Some(name) => s.push_str(name),
            None => push_plain(s, id),
        }
    }
}

/// [`Names::space`] at `loc`.
fn space_words(loc: &LocationDef, id: &str) -> String {
    let space_def = |id: &str| loc.map.spaces.iter().find(|s| s.id == id);
    match space_def(id) {
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
                    let o = space_def(other)?;
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

/// [`plain`], appended.
fn push_plain(s: &mut String, id: &str) {
    s.extend(id.chars().map(|c| if c == '_' { ' ' } else { c }));
}

/// [`the`], appended.
pub(super) fn push_the(s: &mut String, name: &str) {
    if !(name.starts_with("The ") || name.starts_with("the ")) {
        s.push_str("the ");
    }
    s.push_str(name);
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
pub(super) fn the(name: &str) -> String {
    if name.starts_with("The ") || name.starts_with("the ") {
        name.to_owned()
    } else {
        format!("the {name}")
    }
}

/// An id for when the catalogue does not know it: words, not snake_case.
pub(super) fn plain(id: &str) -> String {
    id.replace('_', " ")
}

/// "a", "a and b", "a, b and c".
pub(super) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A printed text as it reads on the card: its quotation marks typeset
/// (“…”), as the card prints them.
pub(super) fn printed(text: &str) -> String {
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
pub(super) fn opening(text: &str) -> String {
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
pub(super) fn helps(s: Status) -> bool {
    matches!(s, Status::Blessed | Status::Haste | Status::Invisible)
}

pub fn colour(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Blue => "blue",
        Colour::Red => "red",
    }
}

pub(super) fn environment(e: Environment) -> &'static str {
    match e {
        Environment::Charged => "charged",
        Environment::Wet => "wet",
        Environment::Warm => "warm",
        Environment::Oily => "oily",
        Environment::DifficultTerrain => "difficult terrain",
    }
}

pub(super) fn deck(d: ConsumableDeck) -> &'static str {
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

/// [`die_words`], appended.
pub(super) fn push_die_words(cat: &Catalogue, s: &mut String, d: Die) {
    let c = colour(d.colour);
    let mut hits = itoa::Buffer::new();
    match cat.dice.faces(d.colour).get(d.face as usize).copied() {
        Some(f) => {
            s.push_str("the ");
            s.push_str(c);
            match (f.hits, f.special) {
                (0, false) => s.push_str(" blank"),
                (0, true) => s.push_str(" special"),
                (h, special) => {
                    s.push(' ');
                    s.push_str(hits.format(h));
                    if special {
                        s.push_str(" with a special");
                    }
                }
            }
        }
        None => {
            s.push_str("a ");
            s.push_str(c);
            s.push_str(" die");
        }
    }
}

/// Dice in words, as a list: "the red 2, the white blank and the blue 1".
pub fn dice_words(cat: &Catalogue, dice: &[Die]) -> String {
    let words: Vec<String> = dice.iter().map(|d| die_words(cat, *d)).collect();
    and_list(&words)
}

/// "first", "second", … for a 0-based position.
pub(super) fn ordinal(i: usize) -> String {
    const WORDS: [&str; 8] = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
    WORDS.get(i).map_or_else(|| format!("number {}", i + 1), |w| (*w).to_owned())
}
