//! The Divinity view as the client reads it from a `welcome`/`update`
//! frame (`protocol/DIVINITY.md`, "View"): the engine's `DivinityView`
//! itself, so a change of shape there fails the tests here (they read real
//! engine views); and the names of the things it holds by id.

use std::collections::BTreeMap;

use athlas_engine::divinity::{
    content::Catalogue,
    cooldown::{CardRef, Track},
    state::{EnemyKind, OriginState},
    status::Status,
};
use athlas_engine::Seat;

/// The view is the engine's own type, read as the engine wrote it (a
/// location card with its front text, an enemy on the map, the table).
pub use athlas_engine::divinity::view::{CardView as CardText, DivinityView as Table, EnemyView as Enemy};

/// Names for ids, statuses and dice in words: the engine's describer's.
pub use athlas_engine::divinity::words::{dice, die, status, Names};

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
    for e in t.enemies.iter() {
        out.entry(e.space.clone()).or_default().push(format!("☠{}", names.enemy_name(e)));
    }
    out
}
