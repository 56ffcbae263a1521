//! What a Divinity record's state hash covers ([`Hashed`]: the whole
//! state), and its compact encoding written by hand: the protocol hashes
//! it at every action (`athlas_protocol::hash::compact`), and serde's
//! generic calls cost twice the hash itself (the uses' keys alone were
//! formatted into a fresh string each). The bytes are exactly the generic
//! writer's (`tests/divinity_hashed.rs` holds the two equal over whole
//! party-bot games); to any other serializer (the JSON of the older record
//! hashes) a `Hashed` is the state's own serialization.
//!
//! The compact writer asks a value named [`PREWRITTEN`] to write itself
//! (the serializer it then gets is not human-readable), and takes pieces
//! of it as bytes (newtypes named [`RAW`]) or as values to encode itself:
//! the random generator, a waiting decision, a reaction's hold and a
//! challenge under way (foreign, rare or of many shapes) are left to it.
//!
//! Every type written here is written as its derive writes it (the table
//! in `compact.rs`): a struct's fields each after a `1`, a sequence's and
//! a map's entries each after a `1` and a `0` after them, an internally
//! tagged enum a struct whose first field is the tag, an adjacently
//! tagged one a struct of the tag and the content, a unit variant its
//! name. None of them has a field skipped or renamed in serialization
//! (their `#[serde(default)]`s only read; the challenge's `flipped`,
//! skipped while `None`, goes with the challenge to serde).

use serde::ser::{Serialize, SerializeTuple, Serializer};

use super::cooldown::{CardRef, Track, TrackCard};
use super::damage::Environment;
use super::map::MapState;
use super::state::*;
use super::status::Status;
use super::used::Used;

/// The compact writer's names (`athlas_protocol::hash::compact`'s
/// `PREWRITTEN` and `RAW`: the engine does not depend on the protocol; a
/// test holds them equal).
pub(crate) const PREWRITTEN: &str = "$athlas::compact::prewritten";
pub(crate) const RAW: &str = "$athlas::compact::raw";

/// What a Divinity record's state hash covers: the whole state
/// ([`crate::Ruleset::hashed`]), serialized as the state is.
pub struct Hashed<'a>(pub(super) &'a DivinityState);

impl Serialize for Hashed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(PREWRITTEN, &Pieces(self.0))
    }
}

/// The state as the compact writer asks for it.
struct Pieces<'a>(&'a DivinityState);

impl Serialize for Pieces<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return self.0.serialize(s);
        }
        thread_local! {
            static BUF: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
        }
        let mut out = Out { t: s.serialize_tuple(8)?, buf: BUF.take() };
        out.buf.clear();
        let written = write_state(self.0, &mut out);
        let Out { t, mut buf } = out;
        if buf.capacity() <= 1 << 20 {
            buf.clear();
            BUF.set(buf);
        }
        written?;
        t.end()
    }
}

/// Bytes written by hand, as the compact writer takes them.
struct Raw<'a>(&'a [u8]);

impl Serialize for Raw<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Bytes<'a>(&'a [u8]);
        impl Serialize for Bytes<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        s.serialize_newtype_struct(RAW, &Bytes(self.0))
    }
}

/// The compact encoding's struct fields, elements and entries follow a
/// `1`; a `0` ends a sequence or a map, or stands for `None`.
const MORE: u8 = 1;
const END: u8 = 0;

/// Where the pieces go: bytes gathered in `buf`, handed on before each
/// value the compact writer encodes itself.
struct Out<T> {
    t: T,
    buf: Vec<u8>,
}

impl<T: SerializeTuple> Out<T> {
    /// A value of a shape written by serde (after the bytes so far).
    fn value(&mut self, v: &impl Serialize) -> Result<(), T::Error> {
        self.flush()?;
        self.t.serialize_element(v)
    }

    fn flush(&mut self) -> Result<(), T::Error> {
        if !self.buf.is_empty() {
            self.t.serialize_element(&Raw(&self.buf))?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// The compact encoding's pieces, appended to bytes.
trait Put {
    fn byte(&mut self, b: u8);
    fn uint(&mut self, v: u64);
    fn field(&mut self, v: u64);
    fn field_bool(&mut self, v: bool);
    fn field_opt(&mut self, v: Option<u64>);
    fn text(&mut self, s: &[u8]);
    fn str(&mut self, s: &str);
    fn field_str(&mut self, s: &str);
    fn field_opt_str(&mut self, s: Option<&str>);
    fn field_strs(&mut self, items: &[String]);
    fn field_uints<N: Copy + Into<u64>>(&mut self, items: &[N]);
    fn field_bools(&mut self, items: &[bool]);
}

impl Put for Vec<u8> {
    #[inline(always)]
    fn byte(&mut self, b: u8) {
        self.push(b);
    }

    /// LEB128: 7 bits a byte, low first.
    #[inline(always)]
    fn uint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.push(v as u8);
    }

    /// A field's `1` and an unsigned number (most below 128: one byte).
    #[inline(always)]
    fn field(&mut self, v: u64) {
        if v < 0x80 {
            self.extend_from_slice(&[MORE, v as u8]);
        } else {
            self.push(MORE);
            self.uint(v);
        }
    }

    #[inline(always)]
    fn field_bool(&mut self, v: bool) {
        self.extend_from_slice(&[MORE, u8::from(v)]);
    }

    /// A field's `1` and an optional unsigned number.
    #[inline(always)]
    fn field_opt(&mut self, v: Option<u64>) {
        match v {
            Some(v) => {
                self.extend_from_slice(&[MORE, 1]);
                self.uint(v);
            }
            None => self.extend_from_slice(&[MORE, 0]),
        }
    }

    #[inline(always)]
    fn text(&mut self, s: &[u8]) {
        self.extend_from_slice(s);
    }

    #[inline(always)]
    fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.text(s.as_bytes());
    }

    #[inline(always)]
    fn field_str(&mut self, s: &str) {
        if s.len() < 0x80 {
            self.extend_from_slice(&[MORE, s.len() as u8]);
            self.text(s.as_bytes());
        } else {
            self.push(MORE);
            self.str(s);
        }
    }

    #[inline(always)]
    fn field_opt_str(&mut self, s: Option<&str>) {
        match s {
            // `Some`'s `1`, then the string as a field writes it.
            Some(s) => {
                self.push(MORE);
                self.field_str(s);
            }
            None => self.extend_from_slice(&[MORE, 0]),
        }
    }

    /// A field's `1` and a sequence of strings (each after a `1`).
    #[inline]
    fn field_strs(&mut self, items: &[String]) {
        self.push(MORE);
        for s in items {
            self.field_str(s);
        }
        self.push(END);
    }

    /// A field's `1` and a sequence of unsigned numbers.
    #[inline]
    fn field_uints<N: Copy + Into<u64>>(&mut self, items: &[N]) {
        self.push(MORE);
        for n in items {
            self.field((*n).into());
        }
        self.push(END);
    }

    /// A field's `1` and a sequence of booleans.
    #[inline]
    fn field_bools(&mut self, items: &[bool]) {
        self.push(MORE);
        for b in items {
            self.field_bool(*b);
        }
        self.push(END);
    }
}

/// The state's fields in their order, each as the derive writes it.
fn write_state<T: SerializeTuple>(s: &DivinityState, out: &mut Out<T>) -> Result<(), T::Error> {
    // Every field named: one added does not compile here until written.
    let DivinityState {
        options,
        rng,
        location,
        level,
        origins,
        enemies,
        next_enemy,
        map,
        deck,
        holding,
        discard,
        combat_stack,
        stack_rounds,
        revealed,
        time,
        time_paused,
        round,
        round_kind,
        explored,
        phase,
        choice,
        enemy_queue,
        queue_fast,
        reaction,
        challenge,
        overflow,
        gold,
        item_decks,
        journal,
        found,
        used,
    } = s;
    write_options(options, &mut out.buf);
    out.buf.byte(MORE);
    out.value(rng)?;
    let b = &mut out.buf;
    b.field_str(location);
    b.field(u64::from(*level));
    b.byte(MORE);
    for o in origins {
        b.byte(MORE);
        write_origin(o, b);
    }
    b.byte(END);
    b.byte(MORE);
    for e in enemies {
        b.byte(MORE);
        write_enemy(e, b);
    }
    b.byte(END);
    b.field(u64::from(*next_enemy));
    write_map(map, b);
    for cards in [deck, holding, discard, combat_stack] {
        b.field_strs(cards);
    }
    b.byte(MORE);
    for (card, n) in stack_rounds {
        b.byte(MORE);
        b.str(card);
        b.uint(u64::from(*n));
    }
    b.byte(END);
    b.byte(MORE);
    for Revealed { card, seats, space, placed } in revealed {
        b.byte(MORE);
        b.field_str(card);
        b.field_uints(seats);
        b.field(*space as u64);
        b.field_bool(*placed);
    }
    b.byte(END);
    b.field_opt(time.map(u64::from));
    b.field_bool(*time_paused);
    b.field(u64::from(*round));
    b.byte(MORE);
    b.str(match round_kind {
        RoundKind::Explore => "explore",
        RoundKind::Rest => "rest",
        RoundKind::Combat => "combat",
    });
    b.byte(MORE);
    for ix in explored {
        b.byte(MORE);
        b.uint(*ix as u64);
    }
    b.byte(END);
    write_phase(phase, b);
    out.buf.byte(MORE);
    match choice {
        None => out.buf.byte(0),
        Some(_) => out.value(choice)?,
    }
    let b = &mut out.buf;
    b.field_uints(enemy_queue);
    b.field_bool(*queue_fast);
    b.byte(MORE);
    match reaction {
        None => b.byte(0),
        Some(_) => out.value(reaction)?,
    }
    out.buf.byte(MORE);
    match challenge {
        None => out.buf.byte(0),
        Some(_) => out.value(challenge)?,
    }
    let b = &mut out.buf;
    b.byte(MORE);
    for Overflow { item, takers } in overflow {
        b.byte(MORE);
        b.field_str(item);
        b.field_uints(takers);
    }
    b.byte(END);
    b.field(u64::from(*gold));
    b.byte(MORE);
    for (deck, cards) in item_decks {
        b.byte(MORE);
        b.str(deck);
        // A map's value: the sequence, no field's `1` before it.
        for c in cards {
            b.field_str(c);
        }
        b.byte(END);
    }
    b.byte(END);
    b.field_uints(journal);
    b.field_strs(found);
    b.byte(MORE);
    for (key, round) in used {
        b.byte(MORE);
        write_used(key, b);
        b.uint(u64::from(*round));
    }
    b.byte(END);
    out.flush()
}

/// The options, as the `options` field (its `1` included).
fn write_options(o: &DivinityOptions, b: &mut Vec<u8>) {
    let DivinityOptions {
        party,
        location,
        campaign,
        solo,
        unrestricted_talents,
        honor_mode,
        reroll_enemy_rolls,
        party_breaks_ties,
        leader,
    } = o;
    b.byte(MORE);
    b.field_strs(party);
    b.field_opt_str(location.as_deref());
    b.byte(MORE);
    match campaign {
        Some(c) => {
            b.byte(1);
            write_campaign(c, b);
        }
        None => b.byte(0),
    }
    for v in [*solo, *unrestricted_talents, *honor_mode, *reroll_enemy_rolls, *party_breaks_ties] {
        b.field_bool(v);
    }
    b.field_opt(leader.map(u64::from));
}

/// A campaign carried over, in the options of every match after the first.
fn write_campaign(c: &CampaignState, b: &mut Vec<u8>) {
    let CampaignState {
        rules_version,
        location,
        level,
        gold,
        journal,
        origins,
        found,
        finished,
        unrestricted_talents,
        honor_mode,
    } = c;
    b.field(u64::from(*rules_version));
    b.field_str(location);
    b.field(u64::from(*level));
    b.field(u64::from(*gold));
    b.field_uints(journal);
    b.byte(MORE);
    for OriginSave { origin, talents, skills, items, collar_broken, runes } in origins {
        b.byte(MORE);
        b.field_str(origin);
        for list in [talents, skills, items] {
            b.field_strs(list);
        }
        b.field_bool(*collar_broken);
        write_runes(runes, b);
    }
    b.byte(END);
    b.field_strs(found);
    for v in [*finished, *unrestricted_talents, *honor_mode] {
        b.field_bool(v);
    }
}

/// Runes on items, as a field.
fn write_runes(runes: &[AttachedRune], b: &mut Vec<u8>) {
    b.byte(MORE);
    for AttachedRune { rune, item, side } in runes {
        b.byte(MORE);
        b.field_str(rune);
        b.field_str(item);
        b.field(*side as u64);
    }
    b.byte(END);
}

fn write_origin(o: &OriginState, b: &mut Vec<u8>) {
    let OriginState {
        origin,
        level,
        hp,
        ap,
        source,
        space,
        downed,
        track,
        hand,
        skills,
        talents,
        talents_used,
        equipped,
        backpack,
        summon,
        collar_broken,
        runes,
    } = o;
    b.field_str(origin);
    for n in [*level, *hp, *ap, *source] {
        b.field(u64::from(n));
    }
    b.field(*space as u64);
    b.field_bool(*downed);
    write_track(track, b);
    for list in [hand, skills, talents, talents_used, equipped, backpack] {
        b.field_strs(list);
    }
    b.field_opt_str(summon.as_deref());
    b.field_bool(*collar_broken);
    write_runes(runes, b);
}

fn write_enemy(e: &Enemy, b: &mut Vec<u8>) {
    let Enemy { id, letter, kind, hp, max_hp, space, fast, track, ap, tactics } = e;
    b.field(u64::from(*id));
    b.field_opt(letter.map(|c| u64::from(u32::from(c))));
    // Internally tagged by `kind`.
    b.byte(MORE);
    match kind {
        EnemyKind::Minion { card, veteran } => {
            b.field_str("minion");
            b.field_str(card);
            b.field_bool(*veteran);
        }
        EnemyKind::Boss { boss } => {
            b.field_str("boss");
            b.field_str(boss);
        }
    }
    b.field(u64::from(*hp));
    b.field(u64::from(*max_hp));
    b.field(*space as u64);
    b.field_bool(*fast);
    write_track(track, b);
    b.field(u64::from(*ap));
    b.field_strs(tactics);
}

/// A cooldown track, as a field: its slots, each a sequence of cards.
fn write_track(t: &Track, b: &mut Vec<u8>) {
    let Track { slots } = t;
    b.byte(MORE);
    b.byte(MORE);
    for slot in slots {
        b.byte(MORE);
        for TrackCard { card, face_up, flip_at } in slot {
            b.byte(MORE);
            // Adjacently tagged: the tag `kind`, then the content `id`.
            b.byte(MORE);
            match card {
                CardRef::Status(s) => {
                    b.field_str("status");
                    b.field_str(status_name(*s));
                }
                CardRef::Skill(k) => {
                    b.field_str("skill");
                    b.field_str(k);
                }
                CardRef::Consumable(k) => {
                    b.field_str("consumable");
                    b.field_str(k);
                }
                CardRef::Tactic(k) => {
                    b.field_str("tactic");
                    b.field_str(k);
                }
            }
            b.field_bool(*face_up);
            b.field_opt(flip_at.map(u64::from));
        }
        b.byte(END);
    }
    b.byte(END);
}

/// The map's changes, as a field.
fn write_map(m: &MapState, b: &mut Vec<u8>) {
    let MapState { keys, placed, tokens } = m;
    b.byte(MORE);
    b.byte(MORE);
    for k in keys {
        b.byte(MORE);
        b.uint(*k as u64);
    }
    b.byte(END);
    b.byte(MORE);
    for (ix, card) in placed {
        b.byte(MORE);
        b.uint(*ix as u64);
        b.str(card);
    }
    b.byte(END);
    b.byte(MORE);
    for (ix, env) in tokens {
        b.byte(MORE);
        b.uint(*ix as u64);
        b.str(environment_name(*env));
    }
    b.byte(END);
}

/// The phase, as a field: internally tagged by `phase`.
fn write_phase(p: &Phase, b: &mut Vec<u8>) {
    b.byte(MORE);
    match p {
        Phase::ChooseRound => b.field_str("choose_round"),
        Phase::Travel { done } => {
            b.field_str("travel");
            b.field_bools(done);
        }
        Phase::Groups { groups, chosen } => {
            b.field_str("groups");
            b.byte(MORE);
            for g in groups {
                b.byte(MORE);
                for seat in g {
                    b.byte(MORE);
                    b.uint(u64::from(*seat));
                }
                b.byte(END);
            }
            b.byte(END);
            b.field_bools(chosen);
        }
        Phase::Resolve => b.field_str("resolve"),
        Phase::Rest { done, steps } => {
            b.field_str("rest");
            b.field_bools(done);
            b.byte(MORE);
            for step in steps {
                b.byte(MORE);
                b.str(match step {
                    RestStep::NotBegun => "not_begun",
                    RestStep::StartOfTurn => "start_of_turn",
                    RestStep::Recover => "recover",
                    RestStep::Revive => "revive",
                    RestStep::EquipAndTrade => "equip_and_trade",
                    RestStep::UseCard => "use_card",
                });
            }
            b.byte(END);
        }
        Phase::Combat { done, active } => {
            b.field_str("combat");
            b.field_bools(done);
            b.field_opt(active.map(u64::from));
        }
        // A newtype variant around a struct: the tag, then its fields.
        Phase::Interlude(Interlude { to, level_up, leveled, merchant_open, offer }) => {
            b.field_str("interlude");
            b.field_str(to);
            b.field_bool(*level_up);
            b.field_bools(leveled);
            b.field_bool(*merchant_open);
            b.field_strs(offer);
        }
        Phase::Finished { result } => {
            b.field_str("finished");
            // Internally tagged by `how`.
            b.byte(MORE);
            match result {
                Finish::Exit { to, level_up } => {
                    b.field_str("exit");
                    b.field_str(to);
                    b.field_bool(*level_up);
                }
                Finish::Restart => b.field_str("restart"),
            }
        }
    }
}

/// A use's key: the string `{seat}:{card}`, `{seat}:{item}:reroll` or
/// `{seat}:ability` ([`Used`]'s `Display`), without formatting it into a
/// string first.
fn write_used(key: &Used, b: &mut Vec<u8>) {
    match key {
        Used::Card { seat, card } => {
            used_prefix(*seat, card.len(), b);
            b.text(card.as_bytes());
        }
        Used::Reroll { seat, item } => {
            used_prefix(*seat, item.len() + 7, b);
            b.text(item.as_bytes());
            b.extend_from_slice(b":reroll");
        }
        Used::Ability { seat } => {
            used_prefix(*seat, 7, b);
            b.extend_from_slice(b"ability");
        }
    }
}

/// A use key's length and `{seat}:`, before `rest` bytes.
#[inline(always)]
fn used_prefix(seat: crate::Seat, rest: usize, b: &mut Vec<u8>) {
    if seat < 10 && rest < 0x80 - 2 {
        // One digit, and a length of one byte: the usual key.
        b.extend_from_slice(&[(rest + 2) as u8, b'0' + seat, b':']);
    } else {
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(seat).as_bytes();
        b.uint((digits.len() + 1 + rest) as u64);
        b.extend_from_slice(digits);
        b.push(b':');
    }
}

/// A status' serde name (`snake_case`).
fn status_name(s: Status) -> &'static str {
    match s {
        Status::Bleeding => "bleeding",
        Status::Blessed => "blessed",
        Status::Blinded => "blinded",
        Status::Burning => "burning",
        Status::Chicken => "chicken",
        Status::Dominated => "dominated",
        Status::Exposed => "exposed",
        Status::Frozen => "frozen",
        Status::Haste => "haste",
        Status::Invisible => "invisible",
        Status::KnockedDown => "knocked_down",
        Status::Poisoned => "poisoned",
        Status::Shocked => "shocked",
        Status::Stunned => "stunned",
        Status::Sundered => "sundered",
    }
}

/// An environment's serde name (`snake_case`).
fn environment_name(e: Environment) -> &'static str {
    match e {
        Environment::Charged => "charged",
        Environment::Wet => "wet",
        Environment::Warm => "warm",
        Environment::Oily => "oily",
        Environment::DifficultTerrain => "difficult_terrain",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_protocol::hash::compact;

    fn generic<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
        let mut out = Vec::new();
        compact::write(&mut out, v);
        out
    }

    #[test]
    fn the_names_are_the_compact_writers() {
        assert_eq!(PREWRITTEN, compact::PREWRITTEN);
        assert_eq!(RAW, compact::RAW);
    }

    /// Each name written by hand is serde's, those no game may meet too.
    #[test]
    fn unit_variants_are_named_as_serde_names_them() {
        let named = |name: &str| {
            let mut b = Vec::new();
            b.str(name);
            b
        };
        for s in Status::ALL {
            assert_eq!(named(status_name(s)), generic(&s));
        }
        use Environment as E;
        for e in [E::Charged, E::Wet, E::Warm, E::Oily, E::DifficultTerrain] {
            assert_eq!(named(environment_name(e)), generic(&e));
        }
        for key in [
            Used::card(0, "short_bow"),
            Used::card(12, ""),
            Used::Reroll { seat: 3, item: "copper_band".into() },
            Used::Ability { seat: 255 },
            Used::card(1, &"x".repeat(125)),
            Used::card(1, &"x".repeat(126)),
            Used::Reroll { seat: 9, item: "x".repeat(119) },
            Used::card(1, &"x".repeat(200)),
        ] {
            let mut b = Vec::new();
            write_used(&key, &mut b);
            assert_eq!(b, generic(&key), "{key}");
        }
    }
}
