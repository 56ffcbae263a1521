//! Skimming a server frame before it is parsed: the values its reader does
//! not use (a duel view's units, hexes and players are most of an
//! update's bytes) are found by a scan that follows only strings and
//! brackets, and replaced by `0`, so serde parses a few hundred bytes
//! instead of skipping kilobytes token by token. Skipping them was a
//! quarter of the load generator's CPU, and on two shared cores every
//! microsecond the generator spends is one the server does not get.
//!
//! The scan does not check what it skips; serde still parses everything
//! that is kept. Anything unexpected (not an object, an escaped key)
//! leaves the frame as it is, to be parsed whole.

use std::borrow::Cow;

/// Values shorter than this are left in place: cutting them saves less
/// than the copy costs.
const WORTH_CUTTING: usize = 16;

/// `text` (a JSON object) with the value of every top-level key not in
/// `keep` replaced by `0`, and inside the object under `"view"` the value
/// of every key not in `view_keep`. Borrowed as it is when nothing was cut
/// or it does not scan as an object.
pub fn skim<'a>(text: &'a str, keep: &[&str], view_keep: &[&str]) -> Cow<'a, str> {
    skim_from(text, keep, view_keep, WORTH_CUTTING)
}

/// [`skim`], cutting values of `shortest` bytes and more (tests cut every
/// one: a reader's field missing from `keep` then shows, however short).
pub(crate) fn skim_from<'a>(text: &'a str, keep: &[&str], view_keep: &[&str], shortest: usize) -> Cow<'a, str> {
    let b = text.as_bytes();
    let mut cuts = Vec::new();
    let walk = Walk { keep, shortest };
    let Some(end) = walk.object(b, ws(b, 0), Some(view_keep), &mut cuts) else {
        return Cow::Borrowed(text);
    };
    if cuts.is_empty() || ws(b, end) != b.len() {
        return Cow::Borrowed(text);
    }
    let cut: usize = cuts.iter().map(|(s, e)| e - s).sum();
    let mut out = String::with_capacity(text.len() - cut + cuts.len());
    let mut at = 0;
    for (s, e) in cuts {
        // Every cut starts and ends at an ASCII byte: char boundaries.
        out.push_str(&text[at..s]);
        out.push('0');
        at = e;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

struct Walk<'k> {
    keep: &'k [&'k str],
    shortest: usize,
}

impl Walk<'_> {
    /// The object starting at `i`: the index just after it. Records in
    /// `cuts` the value ranges of the keys not kept (in order); the value of
    /// `"view"` is walked as an object of its own, keeping `inner`, when given.
    fn object(&self, b: &[u8], i: usize, inner: Option<&[&str]>, cuts: &mut Vec<(usize, usize)>) -> Option<usize> {
        if *b.get(i)? != b'{' {
            return None;
        }
        let mut i = ws(b, i + 1);
        if *b.get(i)? == b'}' {
            return Some(i + 1);
        }
        loop {
            if *b.get(i)? != b'"' {
                return None;
            }
            let key_end = string(b, i)?;
            let key = &b[i + 1..key_end - 1];
            if key.contains(&b'\\') {
                return None;
            }
            i = ws(b, key_end);
            if *b.get(i)? != b':' {
                return None;
            }
            let start = ws(b, i + 1);
            let end = match inner {
                Some(view_keep) if key == b"view" && b.get(start) == Some(&b'{') => {
                    Walk { keep: view_keep, shortest: self.shortest }.object(b, start, None, cuts)?
                }
                _ => {
                    let end = value(b, start)?;
                    if end - start >= self.shortest && !self.keep.iter().any(|k| k.as_bytes() == key) {
                        cuts.push((start, end));
                    }
                    end
                }
            };
            i = ws(b, end);
            match *b.get(i)? {
                b',' => i = ws(b, i + 1),
                b'}' => return Some(i + 1),
                _ => return None,
            }
        }
    }
}

/// The bytes a scan stops at: a string's start and brackets.
const STOP: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t[b'[' as usize] = true;
    t[b']' as usize] = true;
    t
};

/// The value starting at `i`: the index just after it.
fn value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                // Straight to the next quote or bracket: the digits, names
                // and punctuation between them are what most bytes are.
                j += b.get(j..)?.iter().position(|c| STOP[usize::from(*c)])?;
                match b[j] {
                    b'"' => {
                        j = string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    _ => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                }
                j += 1;
            }
        }
        _ => {
            // A number, `true`, `false` or `null`.
            let n =
                b[i..].iter().take_while(|c| !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')).count();
            (n > 0).then_some(i + n)
        }
    }
}

/// The string starting at `i` (its opening quote): the index just after
/// its closing quote.
fn string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        j += b.get(j..)?.iter().position(|c| matches!(c, b'"' | b'\\'))?;
        if b[j] == b'"' {
            return Some(j + 1);
        }
        j += 2;
    }
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    const KEEP: [&str; 3] = ["type", "seq", "view"];
    const VIEW_KEEP: [&str; 2] = ["phase", "legal"];

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).expect("skimmed text is JSON")
    }

    #[test]
    fn unread_values_become_zero_and_the_rest_is_untouched() {
        let frame = json!({
            "type": "update", "seq": 7,
            "events": [{"event": "moved", "unit": 3, "note": "a \"quoted\" ]} string"}],
            "view": {
                "phase": {"phase": "command"},
                "units": [{"id": 1, "hex": [0, -1], "conditions": [{"name": "x]}{["}]}],
                "turn": 3,
                "legal": [{"type": "move", "to": [1, 0]}],
                "players": [{"seat": 0, "di_stack": ["gale", "ember"]}]
            },
            "status": {"status": "waiting", "seats": [0]}
        })
        .to_string();
        let skimmed = skim(&frame, &KEEP, &VIEW_KEEP);
        assert!(matches!(skimmed, Cow::Owned(_)));
        let v = parsed(&skimmed);
        let whole = parsed(&frame);
        for kept in ["type", "seq"] {
            assert_eq!(v[kept], whole[kept]);
        }
        assert_eq!(v["view"]["phase"], whole["view"]["phase"]);
        assert_eq!(v["view"]["legal"], whole["view"]["legal"]);
        // Cut: the long unread values; left: the short one.
        for cut in [&v["events"], &v["status"], &v["view"]["units"], &v["view"]["players"]] {
            assert_eq!(*cut, json!(0));
        }
        assert_eq!(v["view"]["turn"], json!(3));
    }

    #[test]
    fn anything_unexpected_is_left_whole() {
        for text in [
            "[1,2,3]",
            r#"{"type":"update","view":{"units":[1,2,"#,
            r#"{"ty\u0070e":"update","events":[1,2,3,4,5,6,7,8,9,10]}"#,
            r#"{"type":"pong"}"#,
            r#"{"type":"update","events":[1,2,3,4,5,6,7,8,9,10]} trailing"#,
        ] {
            assert!(matches!(skim(text, &KEEP, &VIEW_KEEP), Cow::Borrowed(t) if t == text), "{text}");
        }
    }

    #[test]
    fn whitespace_between_tokens_is_followed() {
        let text = "{ \"type\" : \"update\" ,\n \"events\" : [ 1, 2, 3, 4, 5, 6, 7, 8 ] ,\"view\":{ \"units\" : [ {\"id\":1} , {\"id\":2} ] , \"legal\": [] } }";
        let v = parsed(&skim(text, &KEEP, &VIEW_KEEP));
        assert_eq!(v, json!({"type": "update", "events": 0, "view": {"units": 0, "legal": []}}));
    }
}
