//! The Divinity view as the client reads it from a `welcome`/`update`
//! frame (`protocol/DIVINITY.md`, "View"): the engine's `DivinityView`
//! itself, so a change of shape there fails the tests here (they read real
//! engine views); and the names of the things it holds by id.

use std::collections::BTreeMap;

use athlas_engine::divinity::{
    content::{Catalogue, LocationDef},
    cooldown::{CardRef, Track},
    dice::Die,
    map::{SpaceDef, SpaceIx},
    state::{EnemyKind, OriginState, Who},
    status::Status,
};
use athlas_engine::Seat;

/// The view is the engine's own type, read as the engine wrote it (a
/// location card with its front text, an enemy on the map, the table).
pub use athlas_engine::divinity::view::{CardView as CardText, DivinityView as Table, EnemyView as Enemy};

/// Names for ids: the catalogue the engine ships, and the table for what
/// only the match knows (which enemy has which letter, where it stands).
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub cat: &'static Catalogue,
    pub table: Option<&'a Table>,
    /// The table before the change being told, for enemies already gone
    /// from `table` (a defeated enemy keeps its name in the log).
    pub before: Option<&'a Table>,
}

impl<'a> Names<'a> {
    pub fn new(table: Option<&'a Table>) -> Names<'a> {
        Names { cat: Catalogue::standard(), table, before: None }
    }

    pub fn location(&self) -> Option<&'static LocationDef> {
        self.cat.locations.get(&self.table?.location)
    }

    pub fn origin_of_seat(&self, seat: Seat) -> String {
        let id = self.table.and_then(|t| t.origins.get(seat as usize)).map(|o| o.origin.as_str());
        match id {
            Some(id) => self.cat.origins.get(id).map_or_else(|| id.to_owned(), |d| d.name.clone()),
            None => format!("seat {seat}"),
        }
    }

    pub fn enemy(&self, id: u32) -> String {
        let find = |t: Option<&'a Table>| t.and_then(|t| t.enemies.iter().find(|e| e.id == id));
        match find(self.table).or_else(|| find(self.before)) {
            Some(e) => self.enemy_name(e),
            None => format!("enemy {id}"),
        }
    }

    pub fn enemy_name(&self, e: &Enemy) -> String {
        match &e.kind {
            EnemyKind::Minion { card, veteran } => {
                let name = self.cat.minions.get(card).map_or(card.as_str(), |m| m.name.as_str());
                let vet = if *veteran { " (veteran)" } else { "" };
                match e.letter {
                    Some(l) => format!("{name} {l}{vet}"),
                    None => format!("{name}{vet}"),
                }
            }
            EnemyKind::Boss { boss } => self.cat.bosses.get(boss).map_or_else(|| boss.clone(), |b| b.name.clone()),
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

    /// A space by id, as people say it: "Galley (2)", "tactical space t1".
    pub fn space(&self, id: &str) -> String {
        match self.space_def(id) {
            Some(s) if s.tactical() => format!("tactical {id}"),
            Some(s) if !s.name.is_empty() => format!("{} ({id})", s.name),
            _ => format!("space {id}"),
        }
    }

    /// A space by its index into the location's map.
    pub fn space_at(&self, ix: SpaceIx) -> String {
        match self.location().and_then(|l| l.map.spaces.get(ix)) {
            Some(s) => self.space(&s.id),
            None => format!("space #{ix}"),
        }
    }

    pub fn space_id_at(&self, ix: SpaceIx) -> Option<&'static str> {
        self.location().and_then(|l| l.map.spaces.get(ix)).map(|s| s.id.as_str())
    }

    pub fn skill(&self, id: &str) -> String {
        self.cat.skills.get(id).map_or_else(|| id.to_owned(), |s| s.name.clone())
    }

    /// An item, rune or summon by id.
    pub fn item(&self, id: &str) -> String {
        if let Some(i) = self.cat.items.get(id) {
            return i.name.clone();
        }
        if let Some(r) = self.cat.runes.get(id) {
            return r.name.clone();
        }
        self.cat.summons.get(id).map_or_else(|| id.to_owned(), |s| s.name.clone())
    }

    pub fn talent(&self, id: &str) -> String {
        self.cat.talents.get(id).map_or_else(|| id.to_owned(), |t| t.name.clone())
    }

    pub fn location_name(&self, id: &str) -> String {
        self.cat.locations.get(id).map_or_else(|| id.to_owned(), |l| l.name.clone())
    }

    /// Whatever a track card is.
    pub fn track_card(&self, c: &CardRef) -> String {
        match c {
            CardRef::Status(s) => status(*s).to_owned(),
            CardRef::Skill(id) => self.skill(id),
            CardRef::Consumable(id) => self.item(id),
            CardRef::Tactic(id) => format!("tactic {id}"),
        }
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

/// One die as a short token: colour letter, hits, `*` for a special
/// (`R2`, `W1*`, `B0`).
pub fn die(cat: &Catalogue, d: Die) -> String {
    use athlas_engine::divinity::dice::Colour;
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

/// The statuses on a track, in slot order, with the slot they lie on
/// ("burning 3" leaves in 3 slides).
pub fn statuses(track: &Track) -> Vec<(Status, usize)> {
    let mut out = Vec::new();
    for (i, slot) in track.slots.iter().enumerate() {
        for c in slot {
            if let CardRef::Status(s) = c.card {
                out.push((s, i + 1));
            }
        }
    }
    out
}

/// Physical and magical armor of an Origin from what the view shows:
/// equipped items, attached runes, talents, face-up skills and consumables
/// on its track, and its statuses (never below 0), as the engine counts
/// them (`DivinityState::defence`).
pub fn origin_armor(cat: &Catalogue, o: &OriginState) -> (u32, u32) {
    let (mut pa, mut ma) = (0i64, 0i64);
    let mut add = |b: &athlas_engine::divinity::content::Bonus| {
        pa += b.physical_armor as i64;
        ma += b.magical_armor as i64;
    };
    for i in &o.equipped {
        if let Some(d) = cat.items.get(i) {
            add(&d.bonus);
        }
    }
    for r in &o.runes {
        if let Some(side) = cat.runes.get(&r.rune).and_then(|d| d.sides.get(r.side)) {
            add(&side.bonus);
        }
    }
    for t in &o.talents {
        if let Some(d) = cat.talents.get(t) {
            add(&d.bonus);
        }
    }
    for c in o.track.active() {
        match c {
            CardRef::Skill(id) => {
                if let Some(d) = cat.skills.get(id) {
                    add(&d.ongoing);
                }
            }
            CardRef::Consumable(id) => {
                if let Some(d) = cat.items.get(id) {
                    add(&d.ongoing);
                }
            }
            _ => {}
        }
    }
    for (s, _) in statuses(&o.track) {
        let r = cat.statuses.get(s);
        pa += r.physical_armor as i64;
        ma += r.magical_armor as i64;
    }
    (pa.max(0) as u32, ma.max(0) as u32)
}

/// Printed armor of an enemy (a minion's side, a Boss card), with its
/// statuses.
pub fn enemy_armor(cat: &Catalogue, e: &Enemy) -> (u32, u32) {
    let (pa, ma) = match &e.kind {
        EnemyKind::Minion { card, veteran } => {
            cat.minions.get(card).map(|m| m.side(*veteran)).map_or((0, 0), |s| (s.physical_armor, s.magical_armor))
        }
        EnemyKind::Boss { boss } => cat.bosses.get(boss).map_or((0, 0), |b| (b.physical_armor, b.magical_armor)),
    };
    let (mut pa, mut ma) = (pa as i64, ma as i64);
    for (s, _) in statuses(&e.track) {
        let r = cat.statuses.get(s);
        pa += r.physical_armor as i64;
        ma += r.magical_armor as i64;
    }
    (pa.max(0) as u32, ma.max(0) as u32)
}

/// An Origin's maximum HP at its level (the printed card).
pub fn max_hp(cat: &Catalogue, o: &OriginState) -> Option<u32> {
    cat.origins.get(&o.origin)?.at(o.level).map(|l| l.hp)
}

/// Who stands on each space: index → names (Origins, then enemies).
pub fn occupants(names: Names<'_>, t: &Table) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (s, o) in t.origins.iter().enumerate() {
        if let Some(id) = names.space_id_at(o.space) {
            let down = if o.downed { " (downed)" } else { "" };
            out.entry(id.to_owned()).or_default().push(format!("{}{down}", names.origin_of_seat(s as Seat)));
        }
    }
    for e in &t.enemies {
        out.entry(e.space.clone()).or_default().push(format!("☠{}", names.enemy_name(e)));
    }
    out
}
