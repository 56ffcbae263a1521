//! The state hash every stored record carries: a hash of the engine state
//! after it. The server computes it as it stores a record and
//! `athlas-server audit` checks it; `athlas verify` checks a published log
//! against it: one definition for all of them, so they cannot drift.
//!
//! Four forms, told apart by their text:
//! - `4:` + hex: BLAKE3 over what the ruleset hashes (`Ruleset::hashed`:
//!   the state less the copies of earlier states it may hold) in the
//!   compact encoding of [`compact`]; what records are stored with now;
//! - `3:` + hex: SHA-256 over the same bytes (records stored before form 4;
//!   SHA-256 in software, on CPUs without SHA instructions, was the largest
//!   single cost of a stored action);
//! - `2:` + hex: SHA-256 over the JSON of the same (records stored before
//!   form 3);
//! - bare hex: SHA-256 over the JSON of the whole state (records stored
//!   before form 2).

use serde::Serialize;
use sha2::{Digest, Sha256};

mod buffer;
pub mod compact;

/// The prefix of form 2.
pub const PART_FORM: &str = "2:";

/// The prefix of form 3.
pub const COMPACT_FORM: &str = "3:";

/// The prefix of form 4.
pub const BLAKE3_FORM: &str = "4:";

/// Hex SHA-256 of what `write` writes, into this thread's buffer
/// ([`buffer`]), hashed in one call: feeding the hasher serde's many
/// small writes costs more than the copy.
pub fn hash_written(write: impl FnOnce(&mut Vec<u8>)) -> String {
    buffer::with_buffer(|buf| {
        write(buf);
        hex::encode(Sha256::digest(&buf[..]))
    })
}

/// Hex SHA-256 of the JSON of `state`, the whole of it (the bare form).
/// The engine's states serialize deterministically (ordered maps, fixed
/// field order).
pub fn state_hash<S: Serialize>(state: &S) -> String {
    hash_written(|buf| serde_json::to_writer(buf, state).expect("engine states serialize"))
}

/// Form 2: over the JSON of `hashed` (what the ruleset hashes of a state).
pub fn part_hash<H: Serialize + ?Sized>(hashed: &H) -> String {
    let json = |buf: &mut Vec<u8>| serde_json::to_writer(buf, hashed).expect("engine states serialize");
    format!("{PART_FORM}{}", hash_written(json))
}

/// Form 3: SHA-256 over `hashed` in the compact encoding.
pub fn compact_hash<H: Serialize + ?Sized>(hashed: &H) -> String {
    format!("{COMPACT_FORM}{}", hash_written(|buf| compact::write(buf, hashed)))
}

/// Form 4: BLAKE3 over `hashed` in the compact encoding.
pub fn blake3_hash<H: Serialize + ?Sized>(hashed: &H) -> String {
    buffer::with_buffer(|buf| {
        compact::write(buf, hashed);
        format!("{BLAKE3_FORM}{}", blake3::hash(&buf[..]).to_hex())
    })
}

/// What `state` (of which the ruleset hashes `hashed`) hashes to in the
/// form `stored` is written in, to compare with it: a log keeps the hashes
/// it was stored with, whichever form.
pub fn hash_like<S: Serialize, H: Serialize + ?Sized>(stored: &str, state: &S, hashed: &H) -> String {
    if stored.starts_with(BLAKE3_FORM) {
        blake3_hash(hashed)
    } else if stored.starts_with(COMPACT_FORM) {
        compact_hash(hashed)
    } else if stored.starts_with(PART_FORM) {
        part_hash(hashed)
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
    fn form_4_is_blake3() {
        // BLAKE3 of no bytes, from the specification's test vectors.
        assert_eq!(
            blake3::hash(b"").to_hex().as_str(),
            "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"
        );
    }

    #[test]
    fn a_stored_hash_is_recomputed_in_its_own_form() {
        let state = serde_json::json!({"a": 1, "copies": [{"a": 0}]});
        let part = serde_json::json!({"a": 1});
        // Form 2 hashes the part's JSON only: here the same bytes as {"a":1}.
        let stored = part_hash(&part);
        assert_eq!(stored, "2:015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
        assert_eq!(hash_like(&stored, &state, &part), stored);
        // Form 3 hashes the part in the compact encoding: a map of one
        // entry, "a" (length 1) to the unsigned 1, then the end.
        let compact = compact_hash(&part);
        assert_eq!(compact, format!("3:{}", hex::encode(Sha256::digest([1, 1, b'a', 1, 0]))));
        assert_eq!(hash_like(&compact, &state, &part), compact);
        // Form 4: BLAKE3 over the same bytes.
        let fast = blake3_hash(&part);
        assert_eq!(fast, format!("4:{}", blake3::hash(&[1, 1, b'a', 1, 0]).to_hex()));
        assert_eq!(hash_like(&fast, &state, &part), fast);
        assert_ne!(fast[2..], compact[2..]);
        // A bare hash stored before form 2 is the whole state's.
        let old = state_hash(&state);
        assert_eq!(hash_like(&old, &state, &part), old);
        assert_ne!(hash_like(&old, &state, &part), hash_like(&stored, &state, &part));
        assert_ne!(compact[2..], stored[2..]);
    }
}
