//! The state hash every stored record carries: hex SHA-256 of the JSON of
//! the engine state after it. The server computes it as it stores a record
//! and `athlas-server audit` checks it; `athlas verify` checks a published
//! log against it: one definition for all of them, so they cannot drift.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Hex SHA-256 of the JSON of `state`. The engine's states serialize
/// deterministically (ordered maps, fixed field order). The JSON is written
/// into a buffer kept per thread and hashed in one call: feeding the
/// hasher serde's many small writes costs more than the copy.
pub fn state_hash<S: Serialize>(state: &S) -> String {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|buf| {
        let mut buf = buf.borrow_mut();
        buf.clear();
        serde_json::to_writer(&mut *buf, state).expect("engine states serialize");
        let digest = Sha256::digest(&buf[..]);
        // A buffer grown by one huge state is not kept forever.
        if buf.capacity() > 1 << 20 {
            *buf = Vec::new();
        }
        hex::encode(digest)
    })
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
}
