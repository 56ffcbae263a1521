//! JSON strings written by hand, byte for byte as serde_json writes them:
//! the one escaper of the views, legal lists and words the engine writes
//! itself (the duel's, Divinity's).

/// serde_json's escape of a byte: 0 for none, `u` for `\u00XX`, else the
/// letter after the backslash.
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0A] = b'n';
    t[0x0C] = b'f';
    t[0x0D] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `s` as a JSON string, quotes and all, escaped as serde_json escapes:
/// the runs that need no escape (nearly all text) copied whole.
pub(crate) fn string(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    string_contents(out, s);
    out.push(b'"');
}

/// Whether any byte of `bytes` needs an escape: a test of 16 bytes at a
/// time the compiler turns into a few vector instructions.
fn needs_escape(bytes: &[u8]) -> bool {
    let chunks = bytes.chunks_exact(16);
    let tail = chunks.remainder();
    let bad = |b: u8| (b < 0x20) | (b == b'"') | (b == b'\\');
    for c in chunks {
        if c.iter().fold(false, |any, &b| any | bad(b)) {
            return true;
        }
    }
    tail.iter().any(|&b| bad(b))
}

/// [`string`] without its quotes.
pub(crate) fn string_contents(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !needs_escape(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let e = ESCAPE[b as usize];
        if e == 0 {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        match e {
            b'u' => out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xF) as usize]]),
            e => out.extend_from_slice(&[b'\\', e]),
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte escapes as serde_json escapes it.
    #[test]
    fn strings_escape_as_serde_escapes_them() {
        let mut all: String = (0u8..=0x7f).map(char::from).collect();
        all.push_str("é“”…\u{2028}\u{10ffff}");
        for s in [
            all.as_str(),
            "",
            "plain words",
            "\"",
            "\\\\",
            "end\u{1}",
            "a run of more than sixteen plain bytes then \"",
        ] {
            let mut out = Vec::new();
            string(&mut out, s);
            assert_eq!(out, serde_json::to_vec(s).unwrap());
        }
    }
}
