//! [`Shared`]: a part of a view that every viewer of a state sees alike
//! (the duel's units and hexes), built once for all the views of one record and
//! written to JSON once, however many views carry it.
//!
//! Views are sent as JSON (the protocol's only encoding), so the part is
//! kept as JSON text beside its value once first written: the second
//! viewer's frame copies those bytes instead of encoding the part again.

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// A value shared by several views, and its JSON once written. Reads as
/// the value (`Deref`); changing it (`DerefMut`) makes it the caller's own
/// and forgets the JSON.
pub struct Shared<T>(Arc<Inner<T>>);

struct Inner<T> {
    value: T,
    json: OnceLock<Box<RawValue>>,
    /// Writes the value's JSON by hand, where serde's derive costs more
    /// than it must (the duel's units and hexes: serde escapes every
    /// field name anew).
    write: Option<fn(&T, &mut Vec<u8>)>,
    /// For a list written by [`Shared::list_with_json`]: where each item's
    /// text starts in `json`, so the next record's list can copy it.
    parts: OnceLock<Vec<u32>>,
}

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Arc::new(Inner { value, json: OnceLock::new(), write: None, parts: OnceLock::new() }))
    }

    /// A shared value whose JSON `write` writes, exactly as its `Serialize`
    /// would (the caller's test holds the two equal). It is kept as
    /// written, not parsed again to check it: checking cost as much as
    /// serde's own writing saved.
    ///
    /// # Safety
    /// `write` writes exactly one well-formed JSON value, without leading
    /// or trailing whitespace, for every value it is given (what serde_json's
    /// `RawValue` may rely on). Debug builds, and so the tests, check it.
    pub(crate) unsafe fn with_json(value: T, write: fn(&T, &mut Vec<u8>)) -> Shared<T> {
        Shared(Arc::new(Inner { value, json: OnceLock::new(), write: Some(write), parts: OnceLock::new() }))
    }

    /// Whether `self` and `other` are the one value (not only equal ones).
    pub fn same(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T: PartialEq> Shared<Vec<T>> {
    /// A shared list whose JSON (an array) is written now, each item by
    /// `write_one`, except the items equal to one of `before` (a list
    /// written the same way, for the record before): their text is copied
    /// from it. Most of a duel's units do not change from one record to
    /// the next; writing them was a tenth of the server's work per action.
    ///
    /// # Safety
    /// `write_one` writes exactly one well-formed JSON value, in UTF-8,
    /// without leading or trailing whitespace, for every item (as for
    /// [`Shared::with_json`]), and `before`'s items were written by it.
    pub(crate) unsafe fn list_with_json(
        items: Vec<T>,
        write_one: fn(&T, &mut Vec<u8>),
        before: Option<&Shared<Vec<T>>>,
    ) -> Shared<Vec<T>> {
        let before = before.and_then(|b| Some((&b.0.value, b.0.json.get()?, b.0.parts.get()?)));
        let mut text = Vec::with_capacity(before.map_or(64 * items.len(), |(_, json, _)| json.get().len()) + 2);
        let mut parts = Vec::with_capacity(items.len() + 1);
        text.push(b'[');
        // Items keep their order from one record to the next (some gone,
        // some added): look where the last match left off first.
        let mut at = 0;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                text.push(b',');
            }
            parts.push(text.len() as u32);
            let same = before.and_then(|(old, json, old_parts)| {
                let k = (at..old.len()).chain(0..at).find(|k| old[*k] == *item)?;
                at = k + 1;
                let start = old_parts[k] as usize;
                // Each item's text ends where the next one's comma is.
                let end = old_parts.get(k + 1).map_or(json.get().len() - 1, |next| *next as usize - 1);
                Some(&json.get().as_bytes()[start..end])
            });
            match same {
                Some(bytes) => text.extend_from_slice(bytes),
                None => write_one(item, &mut text),
            }
        }
        text.push(b']');
        // SAFETY: UTF-8: what `before` wrote (a `str`) and what
        // `write_one` writes, which the caller promised one JSON value each
        // (text as serde_json writes it), and ASCII brackets and commas.
        // Checking it cost a fifth of writing the list.
        let text = unsafe { String::from_utf8_unchecked(text) };
        // SAFETY: an array of values the caller promised well-formed
        // (checked in debug builds).
        let json = unsafe { RawValue::from_string_unchecked(text) };
        Shared(Arc::new(Inner { value: items, json: OnceLock::from(json), write: None, parts: OnceLock::from(parts) }))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0.value
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        let inner = Arc::make_mut(&mut self.0);
        // Its text, and where its items start in it, no longer hold.
        inner.json = OnceLock::new();
        inner.parts = OnceLock::new();
        &mut inner.value
    }
}

impl<T: Clone> Clone for Inner<T> {
    fn clone(&self) -> Inner<T> {
        Inner { value: self.value.clone(), json: OnceLock::new(), write: self.write, parts: OnceLock::new() }
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Arc::clone(&self.0))
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        self.0.value == other.0.value
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.value.fmt(f)
    }
}

impl<T: Default> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared::new(T::default())
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    /// The value's JSON, written the first time and copied after. (To a
    /// serializer other than JSON's this is serde_json's raw-value form:
    /// views have no other encoding.)
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let json = match self.0.json.get() {
            Some(json) => json,
            None => {
                let json = match self.0.write {
                    Some(write) => {
                        let mut text = Vec::new();
                        write(&self.0.value, &mut text);
                        let text = String::from_utf8(text).map_err(serde::ser::Error::custom)?;
                        // SAFETY: `with_json`'s caller promised one
                        // well-formed JSON value (checked in debug builds).
                        Ok(unsafe { RawValue::from_string_unchecked(text) })
                    }
                    None => serde_json::value::to_raw_value(&self.0.value),
                }
                .map_err(serde::ser::Error::custom)?;
                self.0.json.get_or_init(|| json)
            }
        };
        json.serialize(serializer)
    }
}

impl<T: Serialize> Shared<T> {
    /// The value's JSON appended to `out`, as [`Serialize`] writes it
    /// (written the first time, copied after): for a view written by hand
    /// around it (Divinity's).
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        // Once written, copied as it is (serde_json's raw-value passage
        // cost 250 instructions a part).
        if let Some(json) = self.0.json.get() {
            out.extend_from_slice(json.get().as_bytes());
            return Ok(());
        }
        self.serialize(&mut serde_json::Serializer::new(out))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shared<T>, D::Error> {
        T::deserialize(deserializer).map(Shared::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_once_read_as_its_value_and_changed_as_ones_own() {
        let a = Shared::new(vec![1, 2, 3]);
        let b = a.clone();
        assert!(a.same(&b));
        assert_eq!(serde_json::to_string(&a).unwrap(), "[1,2,3]");
        // The second write copies the first's text.
        assert_eq!(serde_json::to_string(&b).unwrap(), "[1,2,3]");
        assert_eq!(serde_json::to_value(&b).unwrap(), serde_json::json!([1, 2, 3]));
        assert_eq!(serde_json::to_string(&serde_json::json!({"x": &a})).unwrap(), r#"{"x":[1,2,3]}"#);
        let mut c = b.clone();
        c[0] = 9;
        assert!(!c.same(&a));
        assert_eq!(serde_json::to_string(&c).unwrap(), "[9,2,3]", "a change is written anew");
        assert_eq!(serde_json::to_string(&a).unwrap(), "[1,2,3]", "the others keep theirs");
        let back: Shared<Vec<i32>> = serde_json::from_str("[9,2,3]").unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn a_hand_writer_is_used_and_kept_through_a_change() {
        let count = |v: &Vec<i32>, out: &mut Vec<u8>| out.extend(format!("{{\"n\":{}}}", v.len()).bytes());
        // SAFETY: `count` writes one JSON object.
        let a = unsafe { Shared::with_json(vec![1, 2, 3], count) };
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"n":3}"#);
        let mut b = a.clone();
        b.push(4);
        assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"n":4}"#, "a change is written anew, by the same writer");
    }

    /// A list written with the record before's copies what did not
    /// change, and reads exactly as one written whole.
    #[test]
    fn a_list_copies_the_unchanged_items_of_the_one_before() {
        fn one(n: &u32, out: &mut Vec<u8>) {
            out.extend(format!("{{\"n\":{n}}}").bytes());
        }
        fn written(items: &[u32]) -> String {
            serde_json::to_string(&items.iter().map(|n| serde_json::json!({"n": n})).collect::<Vec<_>>()).unwrap()
        }
        // SAFETY: `one` writes one JSON object.
        let list = |items: &[u32], before: Option<&Shared<Vec<u32>>>| unsafe {
            Shared::list_with_json(items.to_vec(), one, before)
        };
        let first = list(&[1, 2, 3, 4], None);
        assert_eq!(serde_json::to_string(&first).unwrap(), written(&[1, 2, 3, 4]));
        for next in [&[1, 2, 3, 4][..], &[2, 3, 4], &[1, 3, 9, 4, 5], &[], &[4, 3, 2, 1], &[7]] {
            let again = list(next, Some(&first));
            assert_eq!(serde_json::to_string(&again).unwrap(), written(next), "{next:?}");
            // And a list written from that one, in turn.
            let third = list(&[3, 4, 8], Some(&again));
            assert_eq!(serde_json::to_string(&third).unwrap(), written(&[3, 4, 8]));
        }
        // A list changed in place forgets where its items started: written
        // again (by serde, not `one`), it offers nothing to copy.
        let mut changed = list(&[1, 2, 3], None);
        changed[0] = 9;
        assert_eq!(serde_json::to_string(&changed).unwrap(), "[9,2,3]");
        assert_eq!(serde_json::to_string(&list(&[9, 2], Some(&changed))).unwrap(), written(&[9, 2]));
        // A list whose JSON was not written this way offers nothing to copy.
        let plain = Shared::new(vec![1, 2]);
        assert_eq!(serde_json::to_string(&list(&[1, 2], Some(&plain))).unwrap(), written(&[1, 2]));
    }

    /// A writer that breaks its promise is caught in debug builds (the
    /// tests), before any frame carries what it wrote.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "not a single well-formed JSON value")]
    fn a_broken_writer_is_caught_in_tests() {
        // SAFETY: not kept (the point of the test), and caught before use.
        let broken = unsafe { Shared::with_json(1, |_: &i32, out: &mut Vec<u8>| out.extend(b"{\"n\":")) };
        let _ = serde_json::to_string(&broken);
    }
}
