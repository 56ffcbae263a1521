//! What a duel record's state hash covers ([`Hashed`]), and its compact
//! encoding written by hand: the protocol hashes it at every action
//! (`athlas_protocol::hash::compact`), and serde's generic calls, a few
//! for every byte, cost more than twice the hash itself. The bytes are
//! exactly the generic writer's (the test below holds the two equal over
//! random games); to any other serializer (the JSON of the older record
//! hashes) a `Hashed` is the derived struct it always was.
//!
//! The compact writer asks a value named [`PREWRITTEN`] to write itself
//! (the serializer it then gets is not human-readable), and takes pieces
//! of it as bytes (newtypes named [`RAW`]) or as values to encode
//! itself: the rare or foreign shapes (the random generator, a finished
//! phase, condition markers, a pending DI) are left to it.

use serde::ser::{Serialize, SerializeTuple, Serializer};

use super::card::Terrain;
use super::figure::Figure;
use super::state::*;
use crate::rng::GameRng;
use crate::Seat;

/// The compact writer's names (`athlas_protocol::hash::compact`'s
/// `PREWRITTEN` and `RAW`: the engine does not depend on the protocol; a
/// test holds them equal).
pub(crate) const PREWRITTEN: &str = "$athlas::compact::prewritten";
pub(crate) const RAW: &str = "$athlas::compact::raw";

/// What a duel record's state hash covers: the state with the number of
/// its rewind checkpoints in their place ([`crate::Ruleset::hashed`]).
pub struct Hashed<'a>(pub(crate) Fields<'a>);

/// [`Hashed`]'s fields, serialized as serde derives it.
#[derive(serde::Serialize)]
#[serde(rename = "Hashed")]
pub(crate) struct Fields<'a> {
    pub(crate) options: &'a DuelOptions,
    pub(crate) rng: &'a GameRng,
    pub(crate) game: &'a Battle,
    pub(crate) checkpoints: usize,
    pub(crate) pending: &'a Option<PendingDi>,
    pub(crate) window: &'a Option<Seat>,
    pub(crate) draw_offer: &'a Option<Seat>,
}

impl Serialize for Hashed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(PREWRITTEN, &Pieces(&self.0))
    }
}

/// The fields as the compact writer asks for them.
struct Pieces<'a>(&'a Fields<'a>);

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
        let written = write_fields(self.0, &mut out);
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
/// `1`; a `0` ends a sequence or stands for a skipped field or `None`.
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
    fn int(&mut self, v: i64);
    fn str(&mut self, s: &str);
    fn hex(&mut self, h: crate::hex::Hex);
    fn field_strs<'s>(&mut self, items: impl IntoIterator<Item = &'s std::sync::Arc<str>>);
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

    /// A field's `1` and an unsigned number.
    #[inline(always)]
    fn field(&mut self, v: u64) {
        self.push(MORE);
        self.uint(v);
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

    /// A signed number: zigzag, then LEB128.
    #[inline(always)]
    fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }

    #[inline(always)]
    fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.extend_from_slice(s.as_bytes());
    }

    /// A hex: `[q, r]`, a tuple of two `i32`.
    #[inline(always)]
    fn hex(&mut self, h: crate::hex::Hex) {
        self.int(i64::from(h.q));
        self.int(i64::from(h.r));
    }

    /// A field's `1` and a sequence of strings.
    #[inline]
    fn field_strs<'s>(&mut self, items: impl IntoIterator<Item = &'s std::sync::Arc<str>>) {
        self.byte(MORE);
        for s in items {
            self.byte(MORE);
            self.str(s);
        }
        self.byte(END);
    }
}

/// The fields in their order, each as the derive writes it.
fn write_fields<T: SerializeTuple>(f: &Fields, out: &mut Out<T>) -> Result<(), T::Error> {
    // Every field named: one added does not compile here until written.
    let Fields { options, rng, game, checkpoints, pending, window, draw_offer } = f;
    out.buf.byte(MORE);
    match options {
        DuelOptions { summoning_points, board: None, campaign: None, first_player } => {
            out.buf.field(u64::from(*summoning_points));
            out.buf.extend_from_slice(&[MORE, 0, MORE, 0]);
            out.buf.field_opt(first_player.map(u64::from));
        }
        _ => out.value(options)?,
    }
    out.buf.byte(MORE);
    out.value(rng)?;
    out.buf.byte(MORE);
    write_battle(game, out)?;
    out.buf.field(*checkpoints as u64);
    out.buf.byte(MORE);
    match pending {
        None => out.buf.byte(0),
        Some(_) => out.value(pending)?,
    }
    out.buf.field_opt(window.map(u64::from));
    out.buf.field_opt(draw_offer.map(u64::from));
    out.flush()
}

/// The battle, field by field as the derive writes it.
fn write_battle<T: SerializeTuple>(g: &Battle, out: &mut Out<T>) -> Result<(), T::Error> {
    let Battle {
        phase,
        max_points,
        grid,
        summoning_hexes,
        relics,
        players,
        units,
        next_unit,
        active_dis,
        next_di,
        turn,
        active,
        first_player,
        step,
        activation,
        casualties,
        relic_choice,
    } = g;
    // An internally tagged enum: a struct whose first field is the tag.
    out.buf.byte(MORE);
    match phase {
        Phase::Creation => out.buf.extend_from_slice(b"\x01\x08creation"),
        Phase::Command => out.buf.extend_from_slice(b"\x01\x07command"),
        Phase::Finished { .. } => out.value(phase)?,
    }
    out.buf.field(u64::from(*max_points));
    // The grid: a sequence of (hex, terrain) tuples, terrain by its name.
    out.buf.byte(MORE);
    let radius = i64::from(grid.radius());
    CACHE.with_borrow_mut(|c| c.grids.write(grid.cells(), radius, &mut out.buf, |_, bytes| write_grid(grid, bytes)));
    // An array: a tuple.
    out.buf.byte(MORE);
    for side in summoning_hexes {
        for h in side {
            out.buf.byte(MORE);
            out.buf.hex(*h);
        }
        out.buf.byte(END);
    }
    out.buf.byte(MORE);
    for Relic { hex, moved_turn } in relics {
        out.buf.byte(MORE);
        out.buf.byte(MORE);
        out.buf.hex(*hex);
        out.buf.field_opt(moved_turn.map(u64::from));
    }
    out.buf.byte(END);
    out.buf.byte(MORE);
    CACHE.with_borrow_mut(|c| {
        for p in players {
            c.players.write(p, 0, &mut out.buf, write_player);
        }
    });
    out.buf.byte(MORE);
    for u in units {
        out.buf.byte(MORE);
        write_unit(u, out)?;
    }
    out.buf.byte(END);
    out.buf.field(u64::from(*next_unit));
    out.buf.byte(MORE);
    for ActiveDi { id, owner, card, cubes, unit } in active_dis {
        out.buf.byte(MORE);
        out.buf.field(u64::from(*id));
        out.buf.field(u64::from(*owner));
        out.buf.byte(MORE);
        out.buf.str(card);
        out.buf.field(u64::from(*cubes));
        out.buf.field_opt(unit.map(u64::from));
    }
    out.buf.byte(END);
    for n in [*next_di, *turn, u32::from(*active), u32::from(*first_player)] {
        out.buf.field(u64::from(n));
    }
    out.buf.byte(MORE);
    match step {
        Step::FirstTurn { summoned } => {
            out.buf.extend_from_slice(b"\x01\x0afirst_turn\x01");
            for c in summoned {
                out.buf.field(u64::from(*c));
            }
            out.buf.byte(END);
        }
        Step::Activation => out.buf.extend_from_slice(b"\x01\x0aactivation"),
        Step::Summoning { summoned } => {
            out.buf.extend_from_slice(b"\x01\x09summoning");
            out.buf.field_bool(*summoned);
        }
    }
    out.buf.byte(MORE);
    match activation {
        Some(Activation { unit, m, a, spent_a, started_in_water, ended }) => {
            out.buf.byte(1);
            for n in [*unit, *m, *a] {
                out.buf.field(u64::from(n));
            }
            for b in [*spent_a, *started_in_water, *ended] {
                out.buf.field_bool(b);
            }
        }
        None => out.buf.byte(0),
    }
    out.buf.byte(MORE);
    for Casualty { seat, candidates } in casualties {
        out.buf.byte(MORE);
        out.buf.field(u64::from(*seat));
        out.buf.byte(MORE);
        for c in candidates {
            out.buf.field(u64::from(*c));
        }
        out.buf.byte(END);
    }
    out.buf.byte(END);
    out.buf.byte(MORE);
    match relic_choice {
        Some(RelicChoice { seat, unit, direction, distance, by_power }) => {
            out.buf.byte(1);
            for n in [u32::from(*seat), *unit, u32::from(*direction), *distance] {
                out.buf.field(u64::from(n));
            }
            out.buf.field_bool(*by_power);
        }
        None => out.buf.byte(0),
    }
    Ok(())
}

/// The grid's hexes and their terrain, as the derive writes them (after
/// the field's `1`).
fn write_grid(grid: &super::board::Grid, out: &mut Vec<u8>) {
    for (h, t) in grid.iter() {
        out.byte(MORE);
        out.hex(h);
        out.extend_from_slice(match t {
            Terrain::Plains => b"\x06plains",
            Terrain::Hill => b"\x04hill",
            Terrain::Water => b"\x05water",
            Terrain::Crater => b"\x06crater",
        });
    }
    out.byte(END);
}

/// The encodings of the parts of states that are shared between states
/// behind an `Arc` and seldom change (a player's side, the grid's
/// terrain), kept per thread with the `Arc` each was written from: while
/// the cache holds it, the value cannot change (`Arc::make_mut` copies a
/// shared value, and what is serialized of it has no inner mutability), so
/// the same `Arc` is the same bytes. A few dozen a thread, one per slot
/// of the pointer's hash.
struct Written<T> {
    slots: Vec<Option<Kept<T>>>,
}

/// A value's `Arc`, its tag and its bytes.
type Kept<T> = (std::sync::Arc<T>, i64, Vec<u8>);

impl<T> Written<T> {
    const SLOTS: usize = 64;

    const fn new() -> Written<T> {
        Written { slots: Vec::new() }
    }

    /// Append `value`'s bytes (with `tag`, whatever else they depend on)
    /// to `out`: those kept, or those `write` writes now (then kept).
    fn write(&mut self, value: &std::sync::Arc<T>, tag: i64, out: &mut Vec<u8>, write: impl FnOnce(&T, &mut Vec<u8>)) {
        if self.slots.is_empty() {
            self.slots.resize_with(Self::SLOTS, || None);
        }
        let at = std::sync::Arc::as_ptr(value) as usize as u64;
        let slot = &mut self.slots[(at.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) as usize % Self::SLOTS];
        match slot {
            Some((kept, t, bytes)) if std::sync::Arc::ptr_eq(kept, value) && *t == tag => {
                out.extend_from_slice(bytes);
            }
            _ => {
                let mut bytes = slot.take().map(|(_, _, b)| b).unwrap_or_default();
                bytes.clear();
                write(value, &mut bytes);
                out.extend_from_slice(&bytes);
                *slot = Some((std::sync::Arc::clone(value), tag, bytes));
            }
        }
    }
}

struct Cache {
    grids: Written<Vec<Option<Terrain>>>,
    players: Written<Player>,
}

thread_local! {
    static CACHE: std::cell::RefCell<Cache> =
        const { std::cell::RefCell::new(Cache { grids: Written::new(), players: Written::new() }) };
}

/// A player's side, as the derive writes it.
fn write_player(p: &Player, out: &mut Vec<u8>) {
    let Player {
        alphas,
        di_stack,
        locked_stack,
        locked,
        spent,
        di_cast_turn,
        had_first_turn,
        auto_pass,
        hold_windows,
        discarded,
    } = p;
    out.byte(MORE);
    for a in alphas {
        // The remembered passives and armor are not serialized.
        let Alpha { design, revealed, figure, cost, max_life, life, cubes, passives: _, armor: _ } = a;
        out.byte(MORE);
        out.byte(MORE);
        out.field_strs(&design.cards);
        out.field_bool(*revealed);
        out.byte(MORE);
        match figure {
            Some(f) => out.extend_from_slice(match f {
                Figure::CelestialKnight => b"\x01\x10celestial_knight",
                Figure::ShadowRanger => b"\x01\x0dshadow_ranger",
                Figure::SpellBinder => b"\x01\x0cspell_binder",
                Figure::ForsakenDrake => b"\x01\x0eforsaken_drake",
            }),
            None => out.byte(0),
        }
        for n in [*cost, *max_life, *life] {
            out.field(u64::from(n));
        }
        out.byte(MORE);
        for (card, n) in cubes {
            out.byte(MORE);
            out.str(card);
            out.uint(u64::from(*n));
        }
        out.byte(END);
    }
    out.byte(END);
    out.field_strs(di_stack);
    out.field_strs(locked_stack);
    out.field_bool(*locked);
    out.field(u64::from(*spent));
    out.field_opt(di_cast_turn.map(u64::from));
    out.field_bool(*had_first_turn);
    out.field_bool(*auto_pass);
    // Skipped while false.
    if *hold_windows {
        out.field_bool(true);
    } else {
        out.byte(END);
    }
    out.field_strs(discarded);
}

/// A unit, as the derive writes it; its condition markers (few, and of
/// many shapes) by the compact writer.
fn write_unit<T: SerializeTuple>(u: &Unit, out: &mut Out<T>) -> Result<(), T::Error> {
    let Unit {
        id,
        owner,
        controller,
        alpha,
        hex,
        summoned_turn,
        activated_turn,
        used_physical,
        used_magical,
        exposed,
        markers,
        extra_m,
        hit_by_non_lore,
        lore_bonus_taken,
    } = u;
    out.buf.field(u64::from(*id));
    out.buf.field(u64::from(*owner));
    out.buf.field(u64::from(*controller));
    out.buf.field(*alpha as u64);
    out.buf.byte(MORE);
    out.buf.hex(*hex);
    out.buf.field(u64::from(*summoned_turn));
    out.buf.field_opt(activated_turn.map(u64::from));
    out.buf.field(u64::from(*used_physical));
    out.buf.field(u64::from(*used_magical));
    out.buf.field_bool(*exposed);
    out.buf.byte(MORE);
    if markers.is_empty() {
        out.buf.byte(END);
    } else {
        out.value(markers)?;
    }
    out.buf.field(u64::from(*extra_m));
    out.buf.field_bool(*hit_by_non_lore);
    out.buf.field_bool(*lore_bonus_taken);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::{Duel, DuelOptions};
    use crate::Ruleset;
    use athlas_protocol::hash::compact;

    fn generic(f: &Fields) -> Vec<u8> {
        let mut out = Vec::new();
        compact::write(&mut out, f);
        out
    }

    fn by_hand(h: &Hashed) -> Vec<u8> {
        let mut out = Vec::new();
        compact::write(&mut out, h);
        out
    }

    #[test]
    fn the_names_are_the_compact_writers() {
        assert_eq!(PREWRITTEN, compact::PREWRITTEN);
        assert_eq!(RAW, compact::RAW);
    }

    /// Over random games, the encoding written by hand is the generic
    /// writer's byte for byte, and the JSON the derive's.
    #[test]
    fn the_hashed_state_written_by_hand_is_the_generic_encoding() {
        let cat = crate::duel::card::Catalogue::standard();
        let mut met = [0usize; 7];
        for seed in 0..24 {
            let options =
                DuelOptions { first_player: (seed % 3 == 1).then_some((seed % 2) as u8), ..Default::default() };
            let mut s = Duel::start(&options, seed).unwrap();
            let mut bot = crate::duel::bot::RandomBot::new(seed);
            for _ in 0..500 {
                let h = Duel::hashed(&s);
                assert_eq!(by_hand(&h), generic(&h.0), "seed {seed}");
                assert_eq!(serde_json::to_string(&h).unwrap(), serde_json::to_string(&h.0).unwrap());
                let g = &s.game;
                let seen = [
                    g.units.iter().any(|u| !u.markers.is_empty()),
                    s.pending.is_some(),
                    g.activation.is_some(),
                    !g.casualties.is_empty(),
                    !g.active_dis.is_empty(),
                    g.players.iter().any(|p| p.alphas.iter().any(|a| a.figure.is_some() && !a.cubes.is_empty())),
                    matches!(g.step, Step::Summoning { .. }),
                ];
                met.iter_mut().zip(seen).for_each(|(n, s)| *n += usize::from(s));
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let _ = Duel::apply(&mut s, seat, a);
            }
            // Shapes random bots seldom reach, set by hand on the last state.
            let mut odd = s.clone();
            std::sync::Arc::make_mut(&mut odd.game.players[0]).hold_windows = true;
            odd.window = Some(1);
            odd.draw_offer = Some(0);
            odd.game.relic_choice = Some(RelicChoice { seat: 1, unit: 3, direction: 5, distance: 200, by_power: true });
            odd.game.casualties.push(Casualty { seat: 0, candidates: vec![1, 300] });
            // A grid and a side changed after their bytes were kept.
            let (h, t) = odd.game.grid.iter().nth(seed as usize).unwrap();
            odd.game.grid.set(h, if t == Terrain::Water { Terrain::Crater } else { Terrain::Water });
            std::sync::Arc::make_mut(&mut odd.game.players[1]).spent += 1;
            let h = Duel::hashed(&odd);
            assert_eq!(by_hand(&h), generic(&h.0), "seed {seed}, changed");
            odd.options.board = Some(super::super::board::BoardLayout::standard());
            let outcome = if seed % 2 == 0 { crate::Outcome::Draw } else { crate::Outcome::Win { seat: 1 } };
            odd.game.phase = Phase::Finished { outcome };
            let h = Duel::hashed(&odd);
            assert_eq!(by_hand(&h), generic(&h.0), "seed {seed}, by hand");
        }
        assert!(
            met.iter().all(|n| *n > 0),
            "markers, pending, activation, casualty, lasting DI, figure with cubes, summoning met {met:?}"
        );
    }
}
