//! Once-per-round and once-per-location uses: the keys of
//! [`super::state::DivinityState::used`].

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Seat;

/// Something an Origin used that has a limit: keyed by who and what.
///
/// Stored as the string it always was (`{seat}:{card}`,
/// `{seat}:{item}:reroll`, `{seat}:ability`) so stored states read the same;
/// [`fmt::Display`] and [`FromStr`] are the one place that spells it, and
/// keys order as those strings do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Used {
    /// A card's action: a skill, an item, or the weapon a skill or a
    /// reaction attacked with (once per round, L968).
    Card { seat: Seat, card: String },
    /// An item's own reroll, the Copper Band's (once per Combat round).
    Reroll { seat: Seat, item: String },
    /// The Origin's special ability (once per round or per location).
    Ability { seat: Seat },
}

const ABILITY: &str = "ability";
const REROLL: &str = ":reroll";

impl Used {
    pub fn card(seat: Seat, card: &str) -> Used {
        Used::Card { seat, card: card.to_string() }
    }
}

impl fmt::Display for Used {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Used::Card { seat, card } => write!(f, "{seat}:{card}"),
            Used::Reroll { seat, item } => write!(f, "{seat}:{item}{REROLL}"),
            Used::Ability { seat } => write!(f, "{seat}:{ABILITY}"),
        }
    }
}

impl FromStr for Used {
    type Err = String;

    fn from_str(s: &str) -> Result<Used, String> {
        let (seat, what) = s.split_once(':').ok_or_else(|| format!("no seat in use key {s:?}"))?;
        let seat: Seat = seat.parse().map_err(|_| format!("bad seat in use key {s:?}"))?;
        Ok(if what == ABILITY {
            Used::Ability { seat }
        } else if let Some(item) = what.strip_suffix(REROLL) {
            Used::Reroll { seat, item: item.to_string() }
        } else {
            Used::Card { seat, card: what.to_string() }
        })
    }
}

impl Used {
    /// Its key's parts: `{seat}:{what}{suffix}`.
    fn parts(&self) -> (Seat, &str, &str) {
        match self {
            Used::Card { seat, card } => (*seat, card, ""),
            Used::Reroll { seat, item } => (*seat, item, REROLL),
            Used::Ability { seat } => (*seat, ABILITY, ""),
        }
    }
}

// Ordered as the strings were, so a map of uses serializes in the same
// order: the strings' bytes compared without writing them out (every
// lookup in the map compares keys).
impl Ord for Used {
    fn cmp(&self, other: &Used) -> Ordering {
        let ((s1, w1, x1), (s2, w2, x2)) = (self.parts(), other.parts());
        if s1 == s2 && x1.is_empty() && x2.is_empty() {
            // The same prefix, nothing after: the rest decides.
            return w1.cmp(w2);
        }
        let (mut b1, mut b2) = (itoa::Buffer::new(), itoa::Buffer::new());
        let one = b1.format(s1).bytes().chain([b':']).chain(w1.bytes()).chain(x1.bytes());
        let two = b2.format(s2).bytes().chain([b':']).chain(w2.bytes()).chain(x2.bytes());
        one.cmp(two)
    }
}

impl PartialOrd for Used {
    fn partial_cmp(&self, other: &Used) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Serialize for Used {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Used {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Used, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::divinity::content::Catalogue;
    use std::collections::BTreeMap;

    #[test]
    fn keys_keep_their_stored_strings_and_order() {
        let keys = [
            (Used::card(0, "short_bow"), "0:short_bow"),
            (Used::Reroll { seat: 1, item: "copper_band".into() }, "1:copper_band:reroll"),
            (Used::Ability { seat: 2 }, "2:ability"),
        ];
        for (key, text) in &keys {
            assert_eq!(key.to_string(), *text);
            assert_eq!(text.parse::<Used>().unwrap(), *key);
        }
        let map: BTreeMap<Used, u32> = [
            (Used::card(0, "zap"), 1),
            (Used::Ability { seat: 0 }, 2),
            (Used::Reroll { seat: 0, item: "band".into() }, 3),
        ]
        .into();
        let json = serde_json::to_string(&map).unwrap();
        assert_eq!(json, r#"{"0:ability":2,"0:band:reroll":3,"0:zap":1}"#);
        assert_eq!(serde_json::from_str::<BTreeMap<Used, u32>>(&json).unwrap(), map);
        assert!("ability".parse::<Used>().is_err() && "x:bow".parse::<Used>().is_err());
    }

    /// Keys order as their strings do, whatever their kinds and seats.
    #[test]
    fn keys_order_as_their_strings() {
        let mut keys = Vec::new();
        for seat in [0, 1, 3, 10, 12, 100, 255] {
            keys.push(Used::Ability { seat });
            for id in ["", "a", "ab", "ability", "abilityz", "b:reroll", "band", "zap", ":", "1"] {
                keys.push(Used::card(seat, id));
                keys.push(Used::Reroll { seat, item: id.into() });
            }
        }
        for a in &keys {
            for b in &keys {
                assert_eq!(a.cmp(b), a.to_string().cmp(&b.to_string()), "{a} against {b}");
            }
        }
    }

    /// A card id that read as another kind of key would make two uses one.
    #[test]
    fn no_card_id_reads_as_another_kind_of_key() {
        let cat = Catalogue::standard();
        for id in cat.skills.keys().chain(cat.items.keys()) {
            assert_eq!(Used::card(0, id).to_string().parse::<Used>().unwrap(), Used::card(0, id), "{id}");
        }
    }
}
