//! Seat tokens, join codes, salts and commitments.
//!
//! Tokens are 256 random bits from the OS; the store keeps only their SHA-256.
//! A commitment is SHA-256(salt ‖ canonical JSON of the secret), so a player
//! can check, once the salt is revealed, that the opponent's hidden stacks
//! were not changed after they were locked in.

use rand::{rngs::OsRng, Rng, RngCore};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// A fresh seat token: 64 hex characters.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What the store keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A short code to share with an opponent. No 0/O, 1/I/L to misread.
pub fn new_join_code() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    (0..8).map(|_| ALPHABET[OsRng.gen_range(0..ALPHABET.len())] as char).collect()
}

/// A match seed, never shown to a client before the end.
pub fn new_seed() -> u64 {
    OsRng.next_u64()
}

/// A fresh 32-byte salt.
pub fn new_salt() -> [u8; 32] {
    let mut salt = [0u8; 32];
    OsRng.fill_bytes(&mut salt);
    salt
}

/// JSON with object keys sorted and no whitespace: the bytes that are hashed.
pub fn canonical_json(value: &Value) -> String {
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push(':');
                    write(&map[k], out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(value, &mut out);
    out
}

/// hex SHA-256(salt ‖ canonical JSON of `secret`).
pub fn commitment(salt: &[u8], secret: &Value) -> String {
    let mut h = Sha256::new();
    h.update(salt);
    h.update(canonical_json(secret).as_bytes());
    hex::encode(h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let v = json!({"b": [ {"z": 1, "a": 2} ], "a": "x"});
        assert_eq!(canonical_json(&v), r#"{"a":"x","b":[{"a":2,"z":1}]}"#);
    }

    #[test]
    fn a_commitment_checks_against_its_salt_and_secret_only() {
        let salt = new_salt();
        let secret = json!({"di_stack": [3, 1, 2]});
        let hash = commitment(&salt, &secret);
        assert_eq!(hash, commitment(&salt, &secret));
        assert_ne!(hash, commitment(&salt, &json!({"di_stack": [1, 2, 3]})));
        assert_ne!(hash, commitment(&new_salt(), &secret));
    }

    #[test]
    fn tokens_and_codes_have_their_shapes() {
        assert_eq!(new_token().len(), 64);
        assert_ne!(new_token(), new_token());
        assert_eq!(token_hash("t").len(), 64);
        assert_eq!(new_join_code().len(), 8);
    }
}
