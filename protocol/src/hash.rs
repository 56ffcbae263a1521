//! The state hash every stored record carries: hex SHA-256 of the JSON of
//! the engine state after it. The server computes it as it stores a record
//! and `athlas-server audit` checks it; `athlas verify` checks a published
//! log against it: one definition for all of them, so they cannot drift.
//!
//! Two forms, told apart by their text:
//! - `2:` + hex: over what the ruleset's `write_hashed` writes (the state
//!   less the copies of earlier states it may hold; what records are
//!   stored with now);
//! - bare hex: over the whole state (records stored before form 2).

use serde::Serialize;
use sha2::{Digest, Sha256};

/// The prefix of form 2.
pub const PART_FORM: &str = "2:";

/// Hex SHA-256 of what `write` writes. It writes into a buffer kept per
/// thread, hashed in one call: feeding the hasher serde's many small
/// writes costs more than the copy.
pub fn hash_written(write: impl FnOnce(&mut Vec<u8>)) -> String {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.clear();
        write(&mut buf);
        let digest = Sha256::digest(&buf[..]);
        // A buffer grown by one huge state is not kept forever.
        if buf.capacity() > 1 << 20 {
            *buf = Vec::new();
        }
        hex::encode(digest)
    })
}

/// Hex SHA-256 of the JSON of `state`, the whole of it (the bare form).
/// The engine's states serialize deterministically (ordered maps, fixed
/// field order).
pub fn state_hash<S: Serialize>(state: &S) -> String {
    hash_written(|buf| serde_json::to_writer(buf, state).expect("engine states serialize"))
}

/// Form 2: over what `write_hashed` writes (the ruleset's `write_hashed`
/// for the state).
pub fn part_hash(write_hashed: impl FnOnce(&mut Vec<u8>)) -> String {
    format!("{PART_FORM}{}", hash_written(write_hashed))
}

/// What `state` hashes to in the form `stored` is written in, to compare
/// with it: a log keeps the hashes it was stored with, whichever form.
pub fn hash_like<S: Serialize>(stored: &str, state: &S, write_hashed: impl FnOnce(&mut Vec<u8>)) -> String {
    if stored.starts_with(PART_FORM) {
        part_hash(write_hashed)
    } else {
        state_hash(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_sha256_of_the_json() {
        // sha256("{\"a\":1}")
        assert_eq!(
            state_hash(&serde_json::json!({"a": 1})),
            "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"
        );
        assert_ne!(state_hash(&serde_json::json!({"a": 2})), state_hash(&serde_json::json!({"a": 1})));
    }

    #[test]
    fn a_stored_hash_is_recomputed_in_its_own_form() {
        let state = serde_json::json!({"a": 1, "copies": [{"a": 0}]});
        let part = |buf: &mut Vec<u8>| buf.extend_from_slice(br#"{"a":1}"#);
        // Form 2 hashes the part only: here the same bytes as {"a":1}.
        let stored = part_hash(part);
        assert_eq!(stored, "2:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
        assert_eq!(hash_like(&stored, &state, part), stored);
        // A bare hash stored before form 2 is the whole state's.
        let old = state_hash(&state);
        assert_eq!(hash_like(&old, &state, part), old);
        assert_ne!(hash_like(&old, &state, part), hash_like(&stored, &state, part));
    }
}
