//! JSON written by hand where serde's writing is too slow for what the
//! server sends with every record: a waiting seat's legal actions (a
//! Combat turn lists a hundred, an interlude's level-ups a thousand) and
//! their words. Byte for byte what serde_json writes of the same values
//! (tests hold the two equal).

use super::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use super::state::MerchantDeck;
#[cfg(doc)]
use super::words::Said;

pub(crate) use crate::json::{string, string_contents};

pub(super) fn uint(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

pub(super) fn bool(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"true" } else { b"false" });
}

/// A small value serde writes in a line (a status, a colour, a deck):
/// rare enough in a list to go through serde_json.
pub(super) fn serde<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    serde_json::to_writer(&mut *out, v).expect("a plain value serializes");
}

/// Whether no byte of `bytes` needs a JSON escape (a control byte, a quote
/// or a backslash), tested 8 bytes at a time: a byte below 0x20 or a
/// quote (below 0x21 once xored with 0x02: the quote becomes 0x20, the
/// control bytes stay below it, 0x20 and 0x21 go above) and a backslash
/// (zero after an xor) show as a high bit of the word (exact for "any").
/// Ids and words are short: one of 4 to 8 bytes is tested as one word of
/// its two overlapping halves, a longer one a word at a time, the last
/// overlapping the one before (no byte loop over a short tail).
#[inline]
pub(super) fn plain(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    let below = |w: u64, n: u64| w.wrapping_sub(ONES * n) & !w & HIGH;
    let bad = |w: u64| below(w ^ (ONES * 0x02), 0x21) | below(w ^ (ONES * u64::from(b'\\')), 1);
    let n = bytes.len();
    let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let half = |i: usize| u64::from(u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes")));
    if n >= 8 {
        let mut any = bad(word(n - 8));
        let mut i = 0;
        while i + 8 < n {
            any |= bad(word(i));
            i += 8;
        }
        return any == 0;
    }
    if n >= 4 {
        return bad(half(0) | half(n - 4) << 32) == 0;
    }
    bytes.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\')
}

/// An id (of a card, an item, a space, a talent) as a JSON string, as
/// [`string`] writes it: copied whole when [`plain`] (ids always are).
fn quoted(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !plain(bytes) {
        return string(out, s);
    }
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    out.extend_from_slice(bytes);
    out.push(b'"');
}

fn opt_string(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => quoted(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

fn opt_uint(out: &mut Vec<u8>, n: Option<u64>) {
    match n {
        Some(n) => uint(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

/// `{"kind":"…","id":…}`: an adjacently tagged enum's variant.
fn tagged(out: &mut Vec<u8>, kind: &[u8], id: impl FnOnce(&mut Vec<u8>)) {
    out.extend_from_slice(b"{\"kind\":\"");
    out.extend_from_slice(kind);
    out.extend_from_slice(b"\",\"id\":");
    id(out);
    out.push(b'}');
}

fn aim(out: &mut Vec<u8>, a: &Aim) {
    match a {
        Aim::Origin(s) => tagged(out, b"origin", |o| uint(o, u64::from(*s))),
        Aim::Enemy(e) => tagged(out, b"enemy", |o| uint(o, u64::from(*e))),
        Aim::Space(id) => tagged(out, b"space", |o| quoted(o, id)),
    }
}

fn card(out: &mut Vec<u8>, c: &CardUse) {
    match c {
        CardUse::Skill(id) => tagged(out, b"skill", |o| quoted(o, id)),
        CardUse::Item(id) => tagged(out, b"item", |o| quoted(o, id)),
        CardUse::Consumable(id) => tagged(out, b"consumable", |o| quoted(o, id)),
        CardUse::Summon => out.extend_from_slice(b"{\"kind\":\"summon\"}"),
    }
}

fn from(out: &mut Vec<u8>, f: &KeywordFrom) {
    match f {
        KeywordFrom::Permanent => out.extend_from_slice(b"{\"kind\":\"permanent\"}"),
        KeywordFrom::Skill(id) => tagged(out, b"skill", |o| quoted(o, id)),
        KeywordFrom::Consumable(id) => tagged(out, b"consumable", |o| quoted(o, id)),
    }
}

/// `["keyword",{"kind":…}]`
fn keyword(out: &mut Vec<u8>, (k, f): &(String, KeywordFrom)) {
    out.push(b'[');
    quoted(out, k);
    out.push(b',');
    from(out, f);
    out.push(b']');
}

pub(super) fn list<T>(out: &mut Vec<u8>, items: &[T], mut each: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        each(out, x);
    }
    out.push(b']');
}

/// `{"type":"…"` and the first key of the rest, as `,"key":`.
fn open(out: &mut Vec<u8>, ty: &[u8]) {
    out.extend_from_slice(b"{\"type\":\"");
    out.extend_from_slice(ty);
    out.push(b'"');
}

fn key(out: &mut Vec<u8>, k: &[u8]) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(k);
    out.extend_from_slice(b"\":");
}

/// One action as serde_json writes it: `{"type":"…", its fields in order}`.
pub fn action(out: &mut Vec<u8>, a: &A) {
    match a {
        A::ChooseRound { explore } => {
            open(out, b"choose_round");
            key(out, b"explore");
            bool(out, *explore);
        }
        A::Travel { to } => {
            open(out, b"travel");
            key(out, b"to");
            opt_string(out, to.as_deref());
        }
        A::Reveal => open(out, b"reveal"),
        A::TakeHolding { card } => {
            open(out, b"take_holding");
            key(out, b"card");
            quoted(out, card);
        }
        A::Pass => open(out, b"pass"),
        A::Resolve { card } => {
            open(out, b"resolve");
            key(out, b"card");
            quoted(out, card);
        }
        A::Hold { card } => {
            open(out, b"hold");
            key(out, b"card");
            quoted(out, card);
        }
        A::Challenge { auto, keywords } => {
            open(out, b"challenge");
            key(out, b"auto");
            match auto {
                Some(k) => keyword(out, k),
                None => out.extend_from_slice(b"null"),
            }
            key(out, b"keywords");
            list(out, keywords, keyword);
        }
        A::ChooseResult { row } => {
            open(out, b"choose_result");
            key(out, b"row");
            uint(out, *row as u64);
        }
        A::Reroll { dice, source } => {
            open(out, b"reroll");
            key(out, b"dice");
            list(out, dice, |o, d| uint(o, *d as u64));
            key(out, b"source");
            bool(out, *source);
        }
        A::Accept => open(out, b"accept"),
        A::StartTurn => open(out, b"start_turn"),
        A::Move { to } => {
            open(out, b"move");
            key(out, b"to");
            quoted(out, to);
        }
        A::Use { card: c, aim: target, first_aura, include_self } => {
            open(out, b"use");
            key(out, b"card");
            card(out, c);
            key(out, b"aim");
            aim(out, target);
            key(out, b"first_aura");
            opt_string(out, first_aura.as_deref());
            key(out, b"include_self");
            match include_self {
                Some(b) => bool(out, *b),
                None => out.extend_from_slice(b"null"),
            }
        }
        A::Taunt { enemy } => {
            open(out, b"taunt");
            key(out, b"enemy");
            uint(out, u64::from(*enemy));
        }
        A::Equip { item } => {
            open(out, b"equip");
            key(out, b"item");
            quoted(out, item);
        }
        A::AttachRune { rune, item } => {
            open(out, b"attach_rune");
            key(out, b"rune");
            quoted(out, rune);
            key(out, b"item");
            quoted(out, item);
        }
        A::Store { item } => {
            open(out, b"store");
            key(out, b"item");
            quoted(out, item);
        }
        A::Give { item, to, equip } => {
            open(out, b"give");
            key(out, b"item");
            quoted(out, item);
            key(out, b"to");
            uint(out, u64::from(*to));
            key(out, b"equip");
            bool(out, *equip);
        }
        A::Take { item, from, equip } => {
            open(out, b"take");
            key(out, b"item");
            quoted(out, item);
            key(out, b"from");
            uint(out, u64::from(*from));
            key(out, b"equip");
            bool(out, *equip);
        }
        A::PlaceItem { to, drop, pass_to } => {
            open(out, b"place_item");
            key(out, b"to");
            opt_uint(out, to.map(u64::from));
            key(out, b"drop");
            opt_string(out, drop.as_deref());
            key(out, b"pass_to");
            opt_uint(out, pass_to.map(u64::from));
        }
        A::Discard { item } => {
            open(out, b"discard");
            key(out, b"item");
            quoted(out, item);
        }
        A::Recover { status } => {
            open(out, b"recover");
            key(out, b"status");
            serde(out, status);
        }
        A::UseTalent { talent } => {
            open(out, b"use_talent");
            key(out, b"talent");
            quoted(out, talent);
        }
        A::UseAbility { aim: target } => {
            open(out, b"use_ability");
            key(out, b"aim");
            match target {
                Some(t) => aim(out, t),
                None => out.extend_from_slice(b"null"),
            }
        }
        A::Revive { to, hp } => {
            open(out, b"revive");
            key(out, b"to");
            uint(out, u64::from(*to));
            key(out, b"hp");
            uint(out, u64::from(*hp));
        }
        A::EndTurn => open(out, b"end_turn"),
        A::BreakTie { target } => {
            open(out, b"break_tie");
            key(out, b"target");
            aim(out, target);
        }
        A::ChooseRoute { route } => {
            open(out, b"choose_route");
            key(out, b"route");
            uint(out, *route as u64);
        }
        A::ReduceDice { remove } => {
            open(out, b"reduce_dice");
            key(out, b"remove");
            serde(out, remove);
        }
        A::OrderTurnStart { order } => {
            open(out, b"order_turn_start");
            key(out, b"order");
            serde(out, order);
        }
        A::Command { target } => {
            open(out, b"command");
            key(out, b"target");
            aim(out, target);
        }
        A::LevelUp { talent, learn, respec } => {
            open(out, b"level_up");
            key(out, b"talent");
            opt_string(out, talent.as_deref());
            key(out, b"learn");
            quoted(out, learn);
            key(out, b"respec");
            list(out, respec, |o, (a, b)| {
                o.push(b'[');
                quoted(o, a);
                o.push(b',');
                quoted(o, b);
                o.push(b']');
            });
        }
        A::VisitMerchant { level, consumables } => {
            open(out, b"visit_merchant");
            key(out, b"level");
            uint(out, u64::from(*level));
            key(out, b"consumables");
            serde(out, consumables);
        }
        A::Restock { deck } => {
            open(out, b"restock");
            key(out, b"deck");
            match deck {
                MerchantDeck::Equipment(l) => {
                    out.extend_from_slice(b"{\"kind\":\"equipment\",\"value\":");
                    uint(out, u64::from(*l));
                    out.push(b'}');
                }
                MerchantDeck::Consumables(_) => serde(out, deck),
            }
        }
        A::Buy { item, to } => {
            open(out, b"buy");
            key(out, b"item");
            quoted(out, item);
            key(out, b"to");
            uint(out, u64::from(*to));
        }
        A::Sell { item } => {
            open(out, b"sell");
            key(out, b"item");
            quoted(out, item);
        }
        A::FinishInterlude => open(out, b"finish_interlude"),
    }
    out.push(b'}');
}

/// `actions` as serde_json writes the slice.
pub fn actions(out: &mut Vec<u8>, actions: &[A]) {
    list(out, actions, action);
}

/// One action's words as serde_json writes the JSON object
/// [`Said::into_json`] makes of them (keys sorted: `group`, `text`, `warn`).
pub fn said_parts(out: &mut Vec<u8>, group: &str, text: &str, warn: Option<&str>) {
    out.extend_from_slice(b"{\"group\":");
    string(out, group);
    out.extend_from_slice(b",\"text\":");
    string(out, text);
    if let Some(w) = warn {
        out.extend_from_slice(b",\"warn\":");
        string(out, w);
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte escapes as serde_json escapes it, in words and out.
    #[test]
    fn strings_escape_as_serde_escapes_them() {
        let mut all: String = (0u8..=0x7f).map(char::from).collect();
        all.push_str("é“”…\u{2028}\u{10ffff}");
        for s in [all.as_str(), "", "plain words", "\"", "\\\\", "end\u{1}"] {
            let mut out = Vec::new();
            string(&mut out, s);
            assert_eq!(out, serde_json::to_vec(s).unwrap());
            let mut out = Vec::new();
            said_parts(&mut out, "items", s, Some(s));
            let value = serde_json::json!({ "text": s, "group": "items", "warn": s });
            assert_eq!(out, serde_json::to_vec(&value).unwrap());
        }
    }
}
