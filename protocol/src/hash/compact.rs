//! Forms 3 and 4 of the record hash: the part of a state a ruleset hashes
//! ([`athlas_engine::Ruleset::hashed`] in the engine's words), written in
//! the compact encoding below and hashed with SHA-256 (form 3) or BLAKE3
//! (form 4, what records are stored with now). It holds the same
//! values as the JSON of form 2 in a fraction of the bytes and of the time:
//! no field names, no number formatting, no escaping (a duel's units alone
//! were 13 KB of JSON).
//!
//! The encoding of serde's data model, every case prefix-free so that two
//! different values never write the same bytes:
//!
//! | value | bytes |
//! |---|---|
//! | `bool` | `0` or `1` |
//! | unsigned integer (`u8`…`u64`) | LEB128: 7 bits a byte, low first, the top bit set on all but the last |
//! | signed integer (`i8`…`i64`) | zigzag (`0, -1, 1, -2, …` as `0, 1, 2, 3, …`), then LEB128 |
//! | `i128` / `u128` | 16 bytes little-endian |
//! | `f32` / `f64` | the bits of the `f64`, 8 bytes little-endian |
//! | `char` | as `u32`, LEB128 |
//! | string, bytes | the length, LEB128, then the bytes |
//! | `None` / `Some(v)` | `0` / `1` then `v` |
//! | unit, unit struct | nothing |
//! | sequence, map | each element (a map's key, then its value) after a `1`; a `0` ends it |
//! | tuple, tuple struct | the elements, one after the other |
//! | struct | each field in declaration order: `1` then its value, or `0` when skipped |
//! | newtype struct | its value |
//! | enum variant | the variant's name as a string, then its content as above |
//!
//! Serde's own attributes apply as they do for JSON: an internally tagged
//! enum is a struct whose first field is the tag, a flattened struct a map.
//!
//! A value may write its own encoding, in whole or in pieces, where serde's
//! generic calls cost more than the bytes (the duel's state, hashed at
//! every action): a newtype struct named [`PREWRITTEN`] is serialized to a
//! serializer that says it is not human-readable (every call otherwise the
//! compact writer's), and a newtype struct named [`RAW`] around bytes
//! (`serialize_bytes`) appends them as they are, with no length before
//! them. A value writes through them exactly the bytes its generic
//! encoding would be (its own test holds the two equal); to any other
//! serializer (JSON) both newtypes are their content, as any newtype.

use serde::ser::{self, Serialize};

/// Append `value` to `out` in the compact encoding.
pub fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    value.serialize(&mut Compact { out, raw: false }).expect("engine states serialize");
}

/// The name of a newtype struct whose content is asked to write itself
/// (it is serialized to a serializer whose `is_human_readable` is false),
/// and may then do so in pieces of [`RAW`] bytes and other values.
pub const PREWRITTEN: &str = "$athlas::compact::prewritten";

/// The name of a newtype struct around bytes written as they are: a piece
/// of a value's encoding written by its own hand ([`PREWRITTEN`]).
pub const RAW: &str = "$athlas::compact::raw";

/// The compact encoding's serializer.
struct Compact<'a> {
    out: &'a mut Vec<u8>,
    /// Inside a [`RAW`] newtype: its bytes go out as they are.
    raw: bool,
}

/// Only a value's own `Serialize` may fail, never this writer.
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

const MORE: u8 = 1;
const END: u8 = 0;

// Every method below is marked `#[inline]`: they are a few instructions
// each and called from the rulesets' serde code in other crates, where a
// call to a non-generic function is otherwise never inlined (the record
// hash is written at every action).
impl Compact<'_> {
    #[inline]
    fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }

    #[inline]
    fn uint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    #[inline]
    fn bytes(&mut self, v: &[u8]) {
        self.uint(v.len() as u64);
        self.out.extend_from_slice(v);
    }
}

/// The integer methods of the serializer: each widens its value to the
/// `i64` or `u64` the encoding writes.
macro_rules! integers {
    (int: $($si:ident($st:ty)),*; uint: $($ui:ident($ut:ty)),*;) => {
        $(#[inline]
        fn $si(self, v: $st) -> Result<(), Error> {
            self.int(v.into());
            Ok(())
        })*
        $(#[inline]
        fn $ui(self, v: $ut) -> Result<(), Error> {
            self.uint(v.into());
            Ok(())
        })*
    };
}

impl<'a, 'b> ser::Serializer for &'a mut Compact<'b> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.push(u8::from(v));
        Ok(())
    }
    integers! {
        int: serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64);
        uint: serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64);
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(v.into())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.uint(u32::from(v).into());
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.bytes(v.as_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        if std::mem::take(&mut self.raw) {
            self.out.extend_from_slice(v);
        } else {
            self.bytes(v);
        }
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.out.push(0);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        self.out.push(1);
        v.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, v: &T) -> Result<(), Error> {
        if name == PREWRITTEN {
            v.serialize(Asked(self))
        } else if name == RAW {
            self.raw = true;
            let written = v.serialize(&mut *self);
            self.raw = false;
            written
        } else {
            v.serialize(self)
        }
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.bytes(variant.as_bytes());
        v.serialize(self)
    }
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Self, Error> {
        self.bytes(variant.as_bytes());
        Ok(self)
    }
    #[inline]
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }
    #[inline]
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Self, Error> {
        self.bytes(variant.as_bytes());
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Compact<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.out.push(MORE);
        v.serialize(&mut **self)
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.push(END);
        Ok(())
    }
}

impl ser::SerializeMap for &mut Compact<'_> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Error> {
        self.out.push(MORE);
        k.serialize(&mut **self)
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        v.serialize(&mut **self)
    }
    #[inline]
    fn end(self) -> Result<(), Error> {
        self.out.push(END);
        Ok(())
    }
}

macro_rules! in_order {
    ($trait:ident, $method:ident) => {
        impl ser::$trait for &mut Compact<'_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                v.serialize(&mut **self)
            }
            #[inline]
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    };
}

in_order!(SerializeTuple, serialize_element);
in_order!(SerializeTupleStruct, serialize_field);
in_order!(SerializeTupleVariant, serialize_field);

macro_rules! fields {
    ($trait:ident) => {
        impl ser::$trait for &mut Compact<'_> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, v: &T) -> Result<(), Error> {
                self.out.push(MORE);
                v.serialize(&mut **self)
            }
            #[inline]
            fn skip_field(&mut self, _: &'static str) -> Result<(), Error> {
                self.out.push(END);
                Ok(())
            }
            #[inline]
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    };
}

fields!(SerializeStruct);
fields!(SerializeStructVariant);

/// The compact writer as a [`PREWRITTEN`] value sees it: not
/// human-readable, so the value may write its own pieces; every call is
/// the compact writer's own.
struct Asked<'a, 'b>(&'a mut Compact<'b>);

/// Methods of [`Asked`] handed to the compact writer as they are.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(#[inline]
        fn $method(self, $($arg: $ty),*) -> Result<$ret, Error> {
            ser::Serializer::$method(self.0, $($arg),*)
        })*
    };
}

impl<'a, 'b> ser::Serializer for Asked<'a, 'b> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = &'a mut Compact<'b>;
    type SerializeTuple = &'a mut Compact<'b>;
    type SerializeTupleStruct = &'a mut Compact<'b>;
    type SerializeTupleVariant = &'a mut Compact<'b>;
    type SerializeMap = &'a mut Compact<'b>;
    type SerializeStruct = &'a mut Compact<'b>;
    type SerializeStructVariant = &'a mut Compact<'b>;

    fn is_human_readable(&self) -> bool {
        false
    }

    forward! {
        serialize_bool(v: bool) -> ();
        serialize_i8(v: i8) -> ();
        serialize_i16(v: i16) -> ();
        serialize_i32(v: i32) -> ();
        serialize_i64(v: i64) -> ();
        serialize_i128(v: i128) -> ();
        serialize_u8(v: u8) -> ();
        serialize_u16(v: u16) -> ();
        serialize_u32(v: u32) -> ();
        serialize_u64(v: u64) -> ();
        serialize_u128(v: u128) -> ();
        serialize_f32(v: f32) -> ();
        serialize_f64(v: f64) -> ();
        serialize_char(v: char) -> ();
        serialize_str(v: &str) -> ();
        serialize_bytes(v: &[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(name: &'static str) -> ();
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str) -> ();
        serialize_seq(len: Option<usize>) -> &'a mut Compact<'b>;
        serialize_tuple(len: usize) -> &'a mut Compact<'b>;
        serialize_tuple_struct(name: &'static str, len: usize) -> &'a mut Compact<'b>;
        serialize_tuple_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> &'a mut Compact<'b>;
        serialize_map(len: Option<usize>) -> &'a mut Compact<'b>;
        serialize_struct(name: &'static str, len: usize) -> &'a mut Compact<'b>;
        serialize_struct_variant(name: &'static str, index: u32, variant: &'static str, len: usize) -> &'a mut Compact<'b>;
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Error> {
        self.0.serialize_some(v)
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, v: &T) -> Result<(), Error> {
        self.0.serialize_newtype_struct(name, v)
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.0.serialize_newtype_variant(name, index, variant, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    fn compact<T: Serialize>(v: &T) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, v);
        out
    }

    #[derive(Serialize)]
    struct Unit {
        id: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        kind: Kind,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Warrior,
        Flier { height: i8 },
    }

    #[test]
    fn each_value_is_written_as_the_table_says() {
        let unit = Unit { id: 300, note: None, kind: Kind::Warrior };
        // id: 300 = 0b10_0101100 in two LEB128 bytes; `note` skipped; the
        // variant's name, 7 bytes long.
        let want = [&[1, 0b1010_1100, 0b10, 0, 1, 7][..], b"warrior"].concat();
        assert_eq!(compact(&unit), want);
        assert_eq!(compact(&vec![Some(false), None, Some(true)]), [1, 1, 0, 1, 0, 1, 1, 1, 0]);
        // Zigzag: -1 is 1, 1 is 2, i64::MIN is u64::MAX (ten bytes).
        assert_eq!(compact(&(true, -1i32, 1i8)), [1, 1, 2]);
        assert_eq!(compact(&i64::MIN), [&[0xff; 9][..], &[1]].concat());
        let map = BTreeMap::from([("a", 1u8)]);
        assert_eq!(compact(&map), [1, 1, b'a', 1, 0]);
    }

    /// A piece written by hand: bytes as they are.
    struct Raw<'a>(&'a [u8]);

    impl Serialize for Raw<'_> {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            struct Bytes<'a>(&'a [u8]);
            impl Serialize for Bytes<'_> {
                fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_bytes(self.0)
                }
            }
            s.serialize_newtype_struct(RAW, &Bytes(self.0))
        }
    }

    /// A unit that writes its id and note by hand, its kind by serde.
    struct ByHand<'a>(&'a Unit);

    impl Serialize for ByHand<'_> {
        fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            struct Pieces<'a>(&'a Unit);
            impl Serialize for Pieces<'_> {
                fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    use ser::SerializeTuple;
                    let u = self.0;
                    if s.is_human_readable() || u.note.is_some() {
                        return u.serialize(s);
                    }
                    let mut head = vec![MORE];
                    let mut id = u.id;
                    while id >= 0x80 {
                        head.push((id as u8) | 0x80);
                        id >>= 7;
                    }
                    head.extend([id as u8, END, MORE]);
                    let mut t = s.serialize_tuple(2)?;
                    t.serialize_element(&Raw(&head))?;
                    t.serialize_element(&u.kind)?;
                    t.end()
                }
            }
            s.serialize_newtype_struct(PREWRITTEN, &Pieces(self.0))
        }
    }

    #[test]
    fn a_value_written_in_pieces_by_hand_is_its_own_encoding() {
        for unit in [
            Unit { id: 300, note: None, kind: Kind::Warrior },
            Unit { id: 5, note: None, kind: Kind::Flier { height: -3 } },
            Unit { id: 1, note: Some("x".into()), kind: Kind::Warrior },
        ] {
            assert_eq!(compact(&ByHand(&unit)), compact(&unit));
            // To JSON, the newtypes are their content.
            assert_eq!(serde_json::to_string(&ByHand(&unit)).unwrap(), serde_json::to_string(&unit).unwrap());
        }
        // Raw bytes go out as they are, here as elsewhere; the next bytes
        // have their length again.
        assert_eq!(compact(&(Raw(b"ab"), "c")), [b'a', b'b', 1, b'c']);
    }

    #[test]
    fn different_values_write_different_bytes() {
        let values = [
            compact(&Unit { id: 1, note: None, kind: Kind::Warrior }),
            compact(&Unit { id: 1, note: Some(String::new()), kind: Kind::Warrior }),
            compact(&Unit { id: 1, note: None, kind: Kind::Flier { height: 0 } }),
            compact(&Unit { id: 2, note: None, kind: Kind::Warrior }),
            compact(&vec![vec![1u8], vec![]]),
            compact(&vec![vec![], vec![1u8]]),
            compact(&vec!["ab", ""]),
            compact(&vec!["a", "b"]),
        ];
        for (i, a) in values.iter().enumerate() {
            for b in &values[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
