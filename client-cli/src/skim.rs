//! Skimming a server frame before it is parsed: a frame is rewritten with
//! only the members its reader uses, found by a scan that follows only
//! strings and brackets, so serde parses a few hundred bytes instead of
//! skipping kilobytes token by token. On two shared cores every
//! microsecond the load generator spends is one the server does not get.
//!
//! The members of the object under `"view"` are read from both ends: from
//! its start up to the first unread value longer than [`SHORT`] bytes,
//! and back from the frame's end until every wanted member not yet
//! found is. A duel update's view ends with its `waiting_for` and `legal`
//! and has its `phase` near the start, so its units (most of its bytes)
//! are never scanned. Reading from the end relies on the view being the
//! last member of the frame whose value is an object (as every
//! `athlas_protocol::ServerMsg` is written); should the two walks not
//! meet where that says they must, the frame is left whole.
//!
//! The scan does not check what it skips; serde still parses everything
//! that is kept. Anything unexpected (not an object, an escaped key)
//! leaves the frame as it is, to be parsed whole.

use std::borrow::Cow;

/// Unread values of the view shorter than this are scanned through going
/// forward (a duel view's `viewer`, `step` come before its `phase`); the
/// first longer one is left to the walk back from the end. Finding a value
/// long scans this many bytes of it for nothing: a duel update's units
/// come after a few short values.
const SHORT: usize = 64;

/// The members a reader keeps of a frame.
#[derive(Debug, Clone, Copy)]
pub struct Keep<'a> {
    /// Of the frame.
    pub top: &'a [&'a str],
    /// Of the object under `"view"`.
    pub view: &'a [&'a str],
    /// Of each object in the array under `"legal"` (the frame's, not the
    /// view's): a duel's or Divinity's entry has `words` nobody here reads.
    pub entry: &'a [&'a str],
}

/// `text` (a JSON object) with only the members in `keep` (and those of
/// its view and of its `legal` entries that `keep` names). Borrowed as it
/// is when nothing was left out or it does not scan as expected.
pub fn skim<'a>(text: &'a str, keep: &Keep) -> Cow<'a, str> {
    match Skim::new(text, keep).frame() {
        Some(out) if out.len() < text.len() => Cow::Owned(out),
        _ => Cow::Borrowed(text),
    }
}

/// The text of a frame's view (the object under `"view"`), found as
/// [`skim`] finds it: its start going forward, its end going back from the
/// frame's end over the members after it (the view being the last member
/// whose value is an object). `None` when it is not found so. Whatever is
/// returned begins with the view's `{` and ends with a `}`: it parses as
/// JSON only if it is the view.
pub fn view_text(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    let mut i = ws(b, 0);
    if *b.get(i)? != b'{' {
        return None;
    }
    i = ws(b, i + 1);
    let start = loop {
        let m = member(b, i)?;
        if m.key == b"view" && b[m.value.0] == b'{' {
            break m.value.0;
        }
        i = ws(b, value(b, m.value.0)?);
        match *b.get(i)? {
            b',' => i = ws(b, i + 1),
            _ => return None,
        }
    };
    let end = ws_back(b, b.len());
    if before(b, end)? != b'}' {
        return None;
    }
    let mut i = ws_back(b, end - 1);
    while before(b, i)? != b'}' {
        let m = member_back(b, i)?;
        let p = ws_back(b, m.at);
        if before(b, p)? != b',' || p - 1 <= start {
            return None;
        }
        i = ws_back(b, p - 1);
    }
    (i > start).then(|| &text[start..i])
}

struct Skim<'a, 'k> {
    text: &'a str,
    b: &'a [u8],
    keep: &'k Keep<'k>,
    out: String,
}

/// A member of an object: the key (its bytes, unescaped only if it had no
/// escape) and where its value lies.
#[derive(Clone, Copy)]
struct Member<'a> {
    key: &'a [u8],
    /// Where its key's opening quote is.
    at: usize,
    value: (usize, usize),
}

impl<'a> Skim<'a, '_> {
    fn new<'k>(text: &'a str, keep: &'k Keep<'k>) -> Skim<'a, 'k> {
        Skim { text, b: text.as_bytes(), keep, out: String::with_capacity(512) }
    }

    fn text(&self, (s, e): (usize, usize)) -> &'a str {
        // Every range starts and ends at an ASCII byte: char boundaries.
        &self.text[s..e]
    }

    /// The skimmed frame; `None` when it does not scan as expected.
    fn frame(mut self) -> Option<String> {
        let b = self.b;
        self.out.push('{');
        let mut i = ws(b, 0);
        if *b.get(i)? != b'{' {
            return None;
        }
        i = ws(b, i + 1);
        if *b.get(i)? == b'}' {
            return None;
        }
        loop {
            let m = member(b, i)?;
            if m.key == b"view" && b[m.value.0] == b'{' {
                return self.view_then_rest(m);
            }
            let end = value(b, m.value.0)?;
            self.top(Member { value: (m.value.0, end), ..m });
            i = ws(b, end);
            match *b.get(i)? {
                b',' => i = ws(b, i + 1),
                b'}' if ws(b, i + 1) == b.len() => break,
                _ => return None,
            }
        }
        self.close();
        Some(self.out)
    }

    /// A top-level member: written when kept (a `legal` list without its
    /// entries' unread members).
    fn top(&mut self, m: Member) {
        if !kept(self.keep.top, m.key) {
            return;
        }
        if m.key == b"legal" && self.b[m.value.0] == b'[' {
            if let Some(()) = self.entries(m) {
                return;
            }
        }
        self.push(m);
    }

    fn push(&mut self, m: Member) {
        self.out.push_str(self.text((m.at, m.value.1)));
        self.out.push(',');
    }

    fn close(&mut self) {
        if self.out.ends_with(',') {
            self.out.pop();
        }
        self.out.push('}');
    }

    /// `"legal":[...]` with each object entry's kept members only.
    fn entries(&mut self, m: Member) -> Option<()> {
        let b = self.b;
        let mark = self.out.len();
        let undo = |s: &mut Self| {
            s.out.truncate(mark);
            None
        };
        self.out.push_str(self.text((m.at, m.value.0)));
        self.out.push('[');
        let mut i = ws(b, m.value.0 + 1);
        if b[i] != b']' {
            loop {
                if b[i] == b'{' {
                    let Some(end) = self.object_kept(i, self.keep.entry) else { return undo(self) };
                    i = end;
                } else {
                    let Some(end) = value(b, i) else { return undo(self) };
                    self.out.push_str(self.text((i, end)));
                    i = end;
                }
                i = ws(b, i);
                match b.get(i) {
                    Some(b',') => {
                        self.out.push(',');
                        i = ws(b, i + 1);
                    }
                    Some(b']') => break,
                    _ => return undo(self),
                }
            }
        }
        self.out.push_str("],");
        Some(())
    }

    /// The object at `i` written with only the members in `keep`: the
    /// index just after it.
    fn object_kept(&mut self, i: usize, keep: &[&str]) -> Option<usize> {
        let b = self.b;
        self.out.push('{');
        let mut i = ws(b, i + 1);
        if *b.get(i)? != b'}' {
            loop {
                let m = member(b, i)?;
                let end = value(b, m.value.0)?;
                if kept(keep, m.key) {
                    self.push(Member { value: (m.value.0, end), ..m });
                }
                i = ws(b, end);
                match *b.get(i)? {
                    b',' => i = ws(b, i + 1),
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        self.close();
        Some(i + 1)
    }

    /// The view (member `view`, its value not yet scanned) and the members
    /// after it: the latter read back from the frame's end, down to the
    /// last member whose value is an object, which must be the view.
    fn view_then_rest(mut self, view: Member) -> Option<String> {
        let b = self.b;
        let mut after = Vec::new();
        let end = ws_back(b, b.len());
        if end < 2 || b[end - 1] != b'}' {
            return None;
        }
        let mut i = ws_back(b, end - 1);
        let view_end = loop {
            if b[i - 1] == b'}' {
                break i;
            }
            // An array is read back as a `legal` list would be kept, so its
            // entries' words are scanned once, not again going forward.
            let (m, cut) = match b[i - 1] {
                b']' => match self.entries_back(i) {
                    Some((v, cut)) => (key_before(b, v, i)?, Some(cut)),
                    None => (member_back(b, i)?, None),
                },
                _ => (member_back(b, i)?, None),
            };
            after.push((m, cut));
            let p = ws_back(b, m.at);
            if b[p - 1] != b',' || p - 1 <= view.value.0 {
                return None;
            }
            i = ws_back(b, p - 1);
        };
        self.view(view.at, view.value.0, view_end)?;
        for (m, cut) in after.into_iter().rev() {
            match cut {
                Some(cut) if m.key == b"legal" && kept(self.keep.top, m.key) => {
                    self.out.push_str(self.text((m.at, m.value.0)));
                    self.out.push_str(&cut);
                    self.out.push(',');
                }
                _ => self.top(m),
            }
        }
        self.close();
        Some(self.out)
    }

    /// The array ending just before `end` (at its `]`), read backwards:
    /// where it starts, and its text as [`Skim::entries`] writes it (each
    /// object entry with only the members `keep.entry` names). `None` when
    /// it does not read so.
    fn entries_back(&self, end: usize) -> Option<(usize, String)> {
        enum Entry<'a> {
            Whole(usize, usize),
            /// Its kept members, last first.
            Object(Vec<Member<'a>>),
        }
        let b = self.b;
        // The entries, last first.
        let mut entries = Vec::new();
        let mut j = ws_back(b, end - 1);
        let start = loop {
            if before(b, j)? == b'[' && entries.is_empty() {
                break j - 1; // `[]`
            }
            let at = if before(b, j)? == b'}' {
                let mut members = Vec::new();
                let mut k = ws_back(b, j - 1);
                let mut last = true;
                let open = loop {
                    if last && before(b, k)? == b'{' {
                        break k - 1; // `{}`
                    }
                    last = false;
                    let m = member_back(b, k)?;
                    let p = ws_back(b, m.at);
                    if kept(self.keep.entry, m.key) {
                        members.push(m);
                    }
                    match before(b, p)? {
                        b',' => k = ws_back(b, p - 1),
                        b'{' => break p - 1,
                        _ => return None,
                    }
                };
                entries.push(Entry::Object(members));
                open
            } else {
                let v = value_back(b, j)?;
                entries.push(Entry::Whole(v, j));
                v
            };
            let p = ws_back(b, at);
            match before(b, p)? {
                b',' => j = ws_back(b, p - 1),
                b'[' => break p - 1,
                _ => return None,
            }
        };
        let mut out = String::with_capacity(64);
        out.push('[');
        for (n, e) in entries.iter().rev().enumerate() {
            if n > 0 {
                out.push(',');
            }
            match e {
                Entry::Whole(s, e) => out.push_str(self.text((*s, *e))),
                Entry::Object(members) => {
                    out.push('{');
                    for (n, m) in members.iter().rev().enumerate() {
                        if n > 0 {
                            out.push(',');
                        }
                        out.push_str(self.text((m.at, m.value.1)));
                    }
                    out.push('}');
                }
            }
        }
        out.push(']');
        Some((start, out))
    }

    /// The view object `[start, end)` (its member's key at `at`), its kept
    /// members read from both ends (see the module's doc).
    fn view(&mut self, at: usize, start: usize, end: usize) -> Option<()> {
        let b = self.b;
        let keep = self.keep.view;
        let mut found = vec![false; keep.len()];
        let mut front = Vec::new();
        // Forward, up to the first long unread value.
        let mut i = ws(b, start + 1);
        let mut paused = None;
        if b[i] != b'}' {
            loop {
                let m = member(b, i)?;
                let v = m.value.0;
                let short = || value(&b[..(v + SHORT).min(end)], v);
                let e = match kept(keep, m.key) {
                    true => value(b, v)?,
                    // A short unread value is scanned through, a long one left.
                    false => match short() {
                        Some(e) => e,
                        None => {
                            paused = Some(m.at);
                            break;
                        }
                    },
                };
                if let Some(k) = keep.iter().position(|k| k.as_bytes() == m.key) {
                    found[k] = true;
                    front.push(Member { value: (v, e), ..m });
                }
                i = ws(b, e);
                match *b.get(i)? {
                    b',' => i = ws(b, i + 1),
                    b'}' if i + 1 == end => break,
                    _ => return None,
                }
            }
        }
        // Back from the end, until every kept member is found or the walk
        // reaches the member the forward one paused at.
        let mut back = Vec::new();
        if let Some(p) = paused {
            let mut i = ws_back(b, end - 1);
            while found.contains(&false) {
                let m = member_back(b, i)?;
                if m.at < p {
                    return None; // not the view the forward walk is in
                }
                if let Some(k) = keep.iter().position(|k| k.as_bytes() == m.key) {
                    found[k] = true;
                    back.push(m);
                }
                if m.at == p {
                    break;
                }
                let q = ws_back(b, m.at);
                if b[q - 1] != b',' {
                    return None;
                }
                i = ws_back(b, q - 1);
            }
        }
        self.out.push_str(self.text((at, start)));
        self.out.push('{');
        for m in front.into_iter().chain(back.into_iter().rev()) {
            self.push(m);
        }
        self.close();
        self.out.push(',');
        Some(())
    }
}

/// The value of the first member `key` of the JSON object `text` when it
/// is a string with no escape, read without a parser, and only as far as
/// that member: `Some(None)` when the object has no such member. `None`
/// when unsure (not an object, an escaped key before it, a value that is
/// no string or has an escape): the caller parses `text` then. (A parser
/// refuses an object with the key twice; this reads the first. JSON that
/// serde writes has each key once.)
pub fn plain_str_member<'a>(text: &'a str, key: &str) -> Option<Option<&'a str>> {
    let b = text.as_bytes();
    let mut i = ws(b, 0);
    if *b.get(i)? != b'{' {
        return None;
    }
    i = ws(b, i + 1);
    if *b.get(i)? == b'}' {
        return (ws(b, i + 1) == b.len()).then_some(None);
    }
    loop {
        let m = member(b, i)?;
        let v = m.value.0;
        let end = value(b, v)?;
        if m.key == key.as_bytes() {
            if b[v] != b'"' || b[v..end].contains(&b'\\') {
                return None;
            }
            // From one quote to the next: char boundaries.
            return Some(Some(&text[v + 1..end - 1]));
        }
        i = ws(b, end);
        match *b.get(i)? {
            b',' => i = ws(b, i + 1),
            b'}' if ws(b, i + 1) == b.len() => return Some(None),
            _ => return None,
        }
    }
}

fn kept(keep: &[&str], key: &[u8]) -> bool {
    keep.iter().any(|k| k.as_bytes() == key)
}

/// The member whose key's opening quote is at `i`, its value's end not yet
/// known (`value.1` is its start too).
fn member(b: &[u8], i: usize) -> Option<Member<'_>> {
    if *b.get(i)? != b'"' {
        return None;
    }
    let key_end = string(b, i)?;
    let key = &b[i + 1..key_end - 1];
    if key.contains(&b'\\') {
        return None;
    }
    let colon = ws(b, key_end);
    if *b.get(colon)? != b':' {
        return None;
    }
    let v = ws(b, colon + 1);
    b.get(v)?;
    Some(Member { key, at: i, value: (v, v) })
}

/// The member whose value ends just before `end` (whitespace skipped), read
/// backwards.
fn member_back(b: &[u8], end: usize) -> Option<Member<'_>> {
    key_before(b, value_back(b, end)?, end)
}

/// The member whose value is `[v, end)`: its key read back from `v`.
fn key_before(b: &[u8], v: usize, end: usize) -> Option<Member<'_>> {
    let colon = ws_back(b, v);
    if colon == 0 || b[colon - 1] != b':' {
        return None;
    }
    let key_end = ws_back(b, colon - 1);
    if key_end == 0 || b[key_end - 1] != b'"' {
        return None;
    }
    let at = string_back(b, key_end)?;
    let key = &b[at + 1..key_end - 1];
    if key.contains(&b'\\') {
        return None;
    }
    Some(Member { key, at, value: (v, end) })
}

/// The value starting at `i`: the index just after it.
fn value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                j = next_bracket_or_quote(b, j)?;
                match b[j] {
                    b'"' => j = string(b, j)?,
                    b'{' | b'[' => {
                        depth += 1;
                        j += 1;
                    }
                    _ => {
                        depth -= 1;
                        j += 1;
                        if depth == 0 {
                            return Some(j);
                        }
                    }
                }
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

/// The value ending just before `end` (whitespace skipped): where it starts.
fn value_back(b: &[u8], end: usize) -> Option<usize> {
    let end = ws_back(b, end);
    match *b.get(end.checked_sub(1)?)? {
        b'"' => string_back(b, end),
        b'}' | b']' => {
            let mut depth = 0usize;
            let mut j = end;
            loop {
                j = prev_bracket_or_quote(b, j)?;
                match b[j] {
                    // Outside strings, a quote closes one.
                    b'"' => j = string_back(b, j + 1)?,
                    b'}' | b']' => depth += 1,
                    _ => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j);
                        }
                    }
                }
            }
        }
        _ => {
            // A number, `true`, `false` or `null`.
            let n = b[..end]
                .iter()
                .rev()
                .take_while(|c| !matches!(c, b',' | b':' | b'{' | b'[' | b' ' | b'\t' | b'\n' | b'\r'))
                .count();
            (n > 0).then_some(end - n)
        }
    }
}

/// The string starting at `i` (its opening quote): the index just after
/// its closing quote.
fn string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        j = next_of(b, j, |w| eq_bytes(w, b'"') | eq_bytes(w, b'\\'), |c| matches!(c, b'"' | b'\\'))?;
        match b[j] {
            b'"' => return Some(j + 1),
            _ => j += 2,
        }
    }
}

/// The string ending just before `end` (its closing quote at `end - 1`):
/// where its opening quote is. A quote is a string's opening one when an
/// even number of backslashes stands before it (inside a string, every
/// quote is escaped).
fn string_back(b: &[u8], end: usize) -> Option<usize> {
    let mut j = end.checked_sub(1)?;
    loop {
        j = prev_of(b, j, |w| eq_bytes(w, b'"'), |c| c == b'"')?;
        let slashes = b[..j].iter().rev().take_while(|c| **c == b'\\').count();
        if slashes % 2 == 0 {
            return Some(j);
        }
    }
}

// Scans eight bytes at a time: the text between brackets and quotes (the
// words of a legal list, a log line, most of a key) is skipped a word at a
// time instead of byte by byte.

/// The bytes of `word` equal to `c`, each as its high bit. Exact: no carry
/// crosses from one byte to the next, so the first and the last set bit
/// are both true matches.
fn eq_bytes(word: u64, c: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ (u64::from(c) * 0x0101_0101_0101_0101);
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// The brackets and quotes of `word` (`x | 0x20` folds `[` onto `{` and
/// `]` onto `}`, and no other byte onto either).
fn brackets_and_quotes(word: u64) -> u64 {
    let folded = word | 0x2020_2020_2020_2020;
    eq_bytes(word, b'"') | eq_bytes(folded, b'{') | eq_bytes(folded, b'}')
}

fn is_bracket_or_quote(c: u8) -> bool {
    matches!(c, b'"' | b'{' | b'}' | b'[' | b']')
}

fn next_bracket_or_quote(b: &[u8], i: usize) -> Option<usize> {
    next_of(b, i, brackets_and_quotes, is_bracket_or_quote)
}

fn prev_bracket_or_quote(b: &[u8], end: usize) -> Option<usize> {
    prev_of(b, end, brackets_and_quotes, is_bracket_or_quote)
}

/// The first index from `i` whose byte is one of a set: `hits` marks them
/// in a word read little-endian (as [`eq_bytes`] does), `is` tells one byte.
fn next_of(b: &[u8], mut i: usize, hits: impl Fn(u64) -> u64, is: impl Fn(u8) -> bool) -> Option<usize> {
    while let Some(chunk) = b.get(i..i + 8) {
        let h = hits(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if h != 0 {
            return Some(i + h.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    b.get(i..)?.iter().position(|c| is(*c)).map(|k| i + k)
}

/// The last index before `end` whose byte is one of a set (see [`next_of`]).
fn prev_of(b: &[u8], mut end: usize, hits: impl Fn(u64) -> u64, is: impl Fn(u8) -> bool) -> Option<usize> {
    while end >= 8 {
        let h = hits(u64::from_le_bytes(b[end - 8..end].try_into().expect("eight bytes")));
        if h != 0 {
            return Some(end - 8 + (63 - h.leading_zeros() as usize) / 8);
        }
        end -= 8;
    }
    b[..end].iter().rposition(|c| is(*c))
}

/// The byte just before `i`.
fn before(b: &[u8], i: usize) -> Option<u8> {
    b.get(i.checked_sub(1)?).copied()
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

fn ws_back(b: &[u8], mut i: usize) -> usize {
    while i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    const KEEP: Keep = Keep { top: &["type", "seq", "view", "legal"], view: &["phase", "legal"], entry: &["seat"] };

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).expect("skimmed text is JSON")
    }

    /// Every member of `v` that `keep` names, recursively as skimming keeps them.
    fn kept_of(v: &Value) -> Value {
        let mut out = serde_json::Map::new();
        for (k, x) in v.as_object().unwrap() {
            if !KEEP.top.contains(&k.as_str()) {
                continue;
            }
            let x = match k.as_str() {
                "view" => Value::Object(
                    x.as_object()
                        .unwrap()
                        .iter()
                        .filter(|(k, _)| KEEP.view.contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                ),
                "legal" => Value::Array(
                    x.as_array()
                        .unwrap()
                        .iter()
                        .map(|e| match e.as_object() {
                            Some(o) => Value::Object(
                                o.iter()
                                    .filter(|(k, _)| KEEP.entry.contains(&k.as_str()))
                                    .map(|(k, v)| (k.clone(), v.clone()))
                                    .collect(),
                            ),
                            None => e.clone(),
                        })
                        .collect(),
                ),
                _ => x.clone(),
            };
            out.insert(k.clone(), x);
        }
        Value::Object(out)
    }

    /// Frames written in the protocol's order, with awkward strings: what
    /// is kept reads as in the whole frame, whichever way the view's
    /// members were found.
    #[test]
    fn what_is_kept_reads_as_in_the_whole_frame() {
        // Long enough to be left to the walk back.
        let unit = r#"{"id":1,"note":"a \"quoted\" ]} string\\","hex":[0,-1],"c":[{"n":"x]}{[\\\\"}]}"#;
        let units = format!("[{}]", [unit; 8].join(","));
        assert!(units.len() > SHORT);
        for view in [
            // Forward to the units, back to the legal list.
            format!(
                r#"{{"turn":3,"phase":{{"phase":"command"}},"units":{units},"empty":[],"legal":[{{"type":"move","to":[1,0]}}],"waiting_for":[0]}}"#
            ),
            // The legal list before the units: found going back through them.
            format!(r#"{{"legal":[{{"type":"pass"}}],"units":{units},"phase":{{"phase":"x\"}}"}},"turn":3}}"#),
            // Nothing unread in the way: read forward only.
            r#"{"phase":{"phase":"command"},"turn":3,"legal":[]}"#.to_owned(),
            r#"{}"#.to_owned(),
            // Short unread values before the phase are scanned through.
            format!(
                r#"{{"viewer":{{"kind":"seat","seat":0}},"step":[1,2],"phase":{{"phase":"command"}},"units":{units},"waiting_for":[],"legal":[]}}"#
            ),
            format!(r#"{{ "units" : {units} , "legal" : [ 1 , "\\" ] }}"#),
        ] {
            let frame = format!(
                r#"{{"type":"update","seq":7,"events":[{{"event":"moved","note":"a \"quoted\" ]}} string"}}],"view":{view},"timer_ms":900,"legal":[{{"seat":0,"actions":[{{"type":"pass"}}],"words":[{{"text":"Pass \"now\""}}]}},3],"control":null}}"#
            );
            let whole = parsed(&frame);
            let skimmed = skim(&frame, &KEEP);
            assert!(matches!(skimmed, Cow::Owned(_)), "{frame}");
            assert_eq!(parsed(&skimmed), kept_of(&whole), "{frame}\n{skimmed}");
        }
    }

    /// A list read back is cut as one read forward is.
    #[test]
    fn entries_read_back_are_the_entries_read_forward() {
        for list in [
            r#"[]"#,
            r#"[ ]"#,
            r#"[{}]"#,
            r#"[ { } , 3 , "x]" ]"#,
            r#"[{"seat":0,"words":[{"text":"Pass \"now\" [1,2]}"}]},3,{"actions":[{"type":"pass"}],"seat":1}]"#,
            r#"[{"words":[],"seat":2,"actions":[]},[1,{"seat":3}],null]"#,
            r#"[ { "seat" : 0 , "words" : "\\" } ]"#,
        ] {
            let text = format!(r#"{{"legal" : {list}}}"#);
            let b = text.as_bytes();
            let m = member(b, 1).unwrap();
            let end = value(b, m.value.0).unwrap();
            let mut forward = Skim::new(&text, &KEEP);
            forward.entries(Member { value: (m.value.0, end), ..m }).expect(list);
            let back = Skim::new(&text, &KEEP);
            let (start, cut) = back.entries_back(end).unwrap();
            assert_eq!(start, m.value.0, "{list}");
            assert_eq!(forward.out, format!(r#""legal" : {cut},"#), "{list}");
        }
        // Neither way reads an escaped key (the list is kept whole then).
        let text = r#"{"legal":[{"seat":0,"w\"ords":1}]}"#;
        let m = member(text.as_bytes(), 1).unwrap();
        let end = text.len() - 1;
        assert!(Skim::new(text, &KEEP).entries(Member { value: (m.value.0, end), ..m }).is_none());
        assert!(Skim::new(text, &KEEP).entries_back(end).is_none());
        for bad in [r#"{"legal":,]}"#, r#"{"legal":[,{"seat":1}]}"#, r#"{"legal":[{,"seat":1}]}"#] {
            let back = Skim::new(bad, &KEEP);
            assert!(back.entries_back(bad.len() - 1).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_views_text_is_the_view() {
        let view = r#"{"phase":{"phase":"travel"},"note":"}, \"x\": {","legal":[{"type":"pass"}]}"#;
        for frame in [
            format!(
                r#"{{"type":"update","seq":1,"events":[{{"a":"]"}}],"view":{view},"legal":[{{"seat":0,"actions":[]}}],"control":null}}"#
            ),
            format!(r#"{{ "view" : {view} }}"#),
        ] {
            let whole: Value = serde_json::from_str(&frame).unwrap();
            let text = view_text(&frame).expect("found");
            assert_eq!(text, view, "{frame}");
            assert_eq!(parsed(text), whole["view"]);
        }
        assert_eq!(view_text(r#"{"type":"ack","id":1,"seq":2}"#), None);
        assert_eq!(view_text(r#"{"view":[1]}"#), None);
        // An object after the view: what is found is no JSON value.
        let odd = r#"{"view":{"a":1},"extra":{"b":2}}"#;
        assert!(view_text(odd).is_none_or(|t| serde_json::from_str::<Value>(t).is_err()));
    }

    #[test]
    fn frames_without_a_view_keep_their_members() {
        let frame = r#"{"type":"error","id":4,"code":"not_your_turn","message":"no \"way\""}"#;
        let v = parsed(&skim(frame, &KEEP));
        assert_eq!(v, json!({"type": "error"}));
        let frame = r#"{ "type" : "update" ,
 "events" : [ 1, 2, 3, 4, 5, 6, 7, 8 ] ,"view":{ "units" : [ {"id":1} , {"id":2} ] , "legal": [] } }"#;
        assert_eq!(parsed(&skim(frame, &KEEP)), json!({"type": "update", "view": {"legal": []}}));
    }

    #[test]
    fn anything_unexpected_is_left_whole() {
        for text in [
            "[1,2,3]",
            r#"{"type":"update","view":{"units":[1,2,"#,
            r#"{"ty\u0070e":"update","events":[1,2,3,4,5,6,7,8,9,10]}"#,
            r#"{"type":"pong"}"#,
            r#"{"type":"update","events":[1,2,3,4,5,6,7,8,9,10]} trailing"#,
            // An object after the view: the walk back does not meet the forward one.
            r#"{"type":"update","view":{"units":[1,2,3],"legal":[]},"extra":{"legal":[]}}"#,
        ] {
            assert!(matches!(skim(text, &KEEP), Cow::Borrowed(t) if t == text), "{text}");
        }
    }

    /// Eight bytes at a time finds what one at a time finds, at either end
    /// and between, with bytes a carry could confuse (0x00, 0x01, 0x7f,
    /// 0x80, 0xff, the folded brackets' neighbours `;`, `=`, `Z`, `\`).
    #[test]
    fn word_scans_find_what_byte_scans_find() {
        let alphabet = b"\"{}[]\\ az;=Z^{}\x00\x01\x7f\x80\xff\xfb\xdb";
        let mut seed = 12345u64;
        for len in 0..40 {
            for _ in 0..50 {
                let b: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        alphabet[(seed >> 33) as usize % alphabet.len()]
                    })
                    .collect();
                for i in 0..=len {
                    let next = b[i..].iter().position(|c| is_bracket_or_quote(*c)).map(|k| i + k);
                    assert_eq!(next_bracket_or_quote(&b, i), next, "{b:?} from {i}");
                    let prev = b[..i].iter().rposition(|c| is_bracket_or_quote(*c));
                    assert_eq!(prev_bracket_or_quote(&b, i), prev, "{b:?} before {i}");
                    let quote = b[i..].iter().position(|c| matches!(c, b'"' | b'\\')).map(|k| i + k);
                    let found =
                        next_of(&b, i, |w| eq_bytes(w, b'"') | eq_bytes(w, b'\\'), |c| matches!(c, b'"' | b'\\'));
                    assert_eq!(found, quote, "{b:?} from {i}");
                }
            }
        }
    }

    #[test]
    fn strings_are_found_back_past_their_escapes() {
        for s in [r#""""#, r#""a""#, r#""\"""#, r#""\\""#, r#""a\\\"b\\""#, r#""]}\"{[""#] {
            let text = format!("[1,{s}]");
            let end = text.len() - 1;
            assert_eq!(value_back(text.as_bytes(), end), Some(3), "{s}");
            assert_eq!(value(text.as_bytes(), 3), Some(end), "{s}");
        }
        let text = r#"[{"a":[1,"]"],"b":{}},-2.5e3,null]"#;
        assert_eq!(value_back(text.as_bytes(), text.len()), Some(0));
        assert_eq!(value_back(text.as_bytes(), text.len() - 1), Some(text.len() - 5));
    }
}
