//! The standard catalogue's words by id, hashed once: an action's words
//! name its cards, Origins and spaces by id, and the catalogue's
//! `BTreeMap<String, _>` compares whole ids at every level (several times
//! a word, a thousand words a frame). What a card's words need (name,
//! cost, harm) and every space's words are worked out here once, as the
//! namers work them out, so the words read the same.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::actions::{cost, harm, LevelUpWords};
use super::{space_words, CardUse, Catalogue, LocationDef};

/// A table keyed by id. Its hasher is a multiply-rotate over 8 bytes at a
/// time: ids are short and the table static, so no flooding to fear, and
/// SipHash would cost more than the lookup it replaces.
type Table<V> = HashMap<&'static str, V, BuildHasherDefault<IdHasher>>;

#[derive(Default)]
pub(super) struct IdHasher(u64);

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let half = |i: usize| u64::from(u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes")));
        if n >= 8 {
            let mut i = 0;
            while i + 8 < n {
                self.add(word(i));
                i += 8;
            }
            // The last 8 bytes, overlapping the word before: no copy of
            // a short tail.
            self.add(word(n - 8));
        } else if n >= 4 {
            self.add(half(0) | half(n - 4) << 32);
        } else if n > 0 {
            self.add(u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16);
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn finish(&self) -> u64 {
        // The table picks buckets by the low bits, which the multiply
        // mixes least.
        self.0.rotate_left(26)
    }
}

/// A usable card in words: its name, what it costs (" (1 AP)", or empty)
/// and what it does to whoever it lands on when that is bad for them.
pub(super) struct Card {
    pub name: &'static str,
    pub cost: String,
    pub harm: Option<String>,
}

/// A location's spaces in words, by id ("the Galley", "the tactical
/// space between the Galley and the Hold").
pub(super) struct Place {
    pub def: &'static LocationDef,
    pub spaces: Table<String>,
}

/// The catalogue's words by id, one table a kind of thing.
pub(super) struct Lexicon {
    pub origins: Table<&'static str>,
    pub skills: Table<Card>,
    /// Items only, as a card used: its cost and harm are an item's.
    pub items: Table<Card>,
    /// The names of items, runes and summons by id, as
    /// [`super::Names::item`] finds them (an item first, then a rune, then
    /// a summon).
    pub things: Table<&'static str>,
    pub talents: Table<&'static str>,
    pub minions: Table<&'static str>,
    pub bosses: Table<&'static str>,
    pub places: Table<Place>,
    /// A level-up's words of each skill and talent.
    pub level_ups: LevelUpWords,
}

impl Lexicon {
    /// The lexicon of `cat` when it is the standard catalogue (every
    /// catalogue a match uses); none for another, whose words are then
    /// looked up in it directly.
    pub fn of(cat: &'static Catalogue) -> Option<&'static Lexicon> {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        let standard = Catalogue::standard();
        std::ptr::eq(cat, standard).then(|| LEXICON.get_or_init(|| Lexicon::new(standard)))
    }

    fn new(cat: &'static Catalogue) -> Lexicon {
        fn names<'c, V>(
            map: &'c std::collections::BTreeMap<String, V>,
            name: impl Fn(&'c V) -> &'c str,
        ) -> impl Iterator<Item = (&'c str, &'c str)> {
            map.iter().map(move |(k, v)| (k.as_str(), name(v)))
        }
        let card = |c: CardUse, name: &'static str| Card { name, cost: cost(cat, &c), harm: harm(cat, &c) };
        // Later entries win: summons, then runes, then items.
        let things = names(&cat.summons, |d| &d.name)
            .chain(names(&cat.runes, |d| &d.name))
            .chain(names(&cat.items, |d| &d.name))
            .collect();
        Lexicon {
            origins: names(&cat.origins, |d| &d.name).collect(),
            skills: cat.skills.iter().map(|(k, d)| (k.as_str(), card(CardUse::Skill(k.clone()), &d.name))).collect(),
            items: cat.items.iter().map(|(k, d)| (k.as_str(), card(CardUse::Item(k.clone()), &d.name))).collect(),
            things,
            talents: names(&cat.talents, |d| &d.name).collect(),
            minions: names(&cat.minions, |d| &d.name).collect(),
            bosses: names(&cat.bosses, |d| &d.name).collect(),
            places: cat
                .locations
                .iter()
                .map(|(k, def)| {
                    // The first space of an id is the one it names.
                    let mut spaces = Table::default();
                    for s in &def.map.spaces {
                        spaces.entry(s.id.as_str()).or_insert_with(|| space_words(def, &s.id));
                    }
                    (k.as_str(), Place { def, spaces })
                })
                .collect(),
            level_ups: LevelUpWords::new(cat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{action, event, write_json, Names};
    use super::*;
    use crate::divinity::{bot, legal, Divinity, DivinityOptions, DivinityState};
    use crate::{Ruleset, Status, Viewer};

    /// The standard catalogue loaded again: not the standard one, so its
    /// words are looked up in it directly, as before the lexicon.
    fn unhashed() -> &'static Catalogue {
        static CAT: OnceLock<&'static Catalogue> = OnceLock::new();
        CAT.get_or_init(|| Box::leak(Box::new(Catalogue::load().expect("the content loads"))))
    }

    fn waiting(s: &DivinityState) -> Vec<crate::Seat> {
        match Divinity::status(s) {
            Status::Waiting { seats } => seats,
            Status::Finished(_) => Vec::new(),
        }
    }

    /// Over party-bot games at five locations, through interludes: the
    /// words of every listed action of every waiting seat, of every event
    /// and of every space, named through the lexicon and looked up in the
    /// catalogue, are the same.
    #[test]
    fn hashed_words_are_the_catalogues_words() {
        let cat = Catalogue::standard();
        assert!(Lexicon::of(unhashed()).is_none() && Lexicon::of(cat).is_some());
        let party = ["ifan", "sebille", "red_prince", "fane"];
        let mut listed = 0;
        let mut games = vec![("tutorial", 2, 3)];
        for seed in 0..3 {
            games.extend([
                ("shipwreck", 3, seed),
                ("fort_joy", 3, seed),
                ("hollow_marshes", 4, seed),
                ("temple", 4, seed),
            ]);
        }
        for (location, size, seed) in games {
            let options = DivinityOptions {
                party: party[..size].iter().map(|p| p.to_string()).collect(),
                location: Some(location.into()),
                ..DivinityOptions::default()
            };
            let mut s = Divinity::start(&options, seed).expect("setup");
            for i in 0..1_500 {
                let seats = waiting(&s);
                let view = Divinity::view(&s, Viewer::Spectator);
                let (hashed, plain) = (Names::new(Some(&view)), Names { cat: unhashed(), ..Names::new(Some(&view)) });
                if let Some(l) = hashed.location() {
                    for d in &l.map.spaces {
                        assert_eq!(hashed.space(&d.id), plain.space(&d.id));
                        let (mut a, mut b) = (String::new(), String::new());
                        hashed.push_space(&mut a, &d.id);
                        plain.push_space(&mut b, &d.id);
                        assert_eq!(a, b);
                    }
                }
                let mut pick = None;
                for (k, &seat) in seats.iter().enumerate() {
                    let list = legal::legal(cat, &s, seat);
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    write_json(hashed, seat, &list, &mut a);
                    write_json(plain, seat, &list, &mut b);
                    assert_eq!(String::from_utf8(a), String::from_utf8(b), "at {location} step {i}, seat {seat}");
                    for x in &list {
                        assert_eq!(action(hashed, seat, x), action(plain, seat, x));
                    }
                    listed += list.len();
                    if k == i % seats.len() || pick.is_none() {
                        let own = Divinity::view(&s, Viewer::Seat(seat));
                        if let Some(a) = bot::choose(cat, &own, seat, &list) {
                            pick = Some((seat, a));
                        }
                    }
                }
                let Some((seat, a)) = pick else { break };
                let before = view;
                let events = Divinity::apply_with(cat, &mut s, seat, a).expect("a listed action is accepted");
                let after = Divinity::view(&s, Viewer::Spectator);
                let hashed = Names { before: Some(&before), ..Names::new(Some(&after)) };
                let plain = Names { cat: unhashed(), ..hashed };
                for e in &events {
                    assert_eq!(event(hashed, e), event(plain, e));
                }
            }
        }
        assert!(listed > 50_000, "{listed} listed actions");
    }
}
