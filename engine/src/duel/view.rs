//! What one seat, or a spectator, may see. Hidden Alphas and DI stacks of the
//! other seat appear as counts; the order of a DI stack is secret until each
//! card is cast; the seed and the activation checkpoints are never shown.

use crate::json::string;
use serde::{Deserialize, Serialize};

use super::action::{DuelAction, Target};
use super::alpha::AlphaDesign;
use super::card::{Armor, AttackKind, CardId, Catalogue, Condition, Passive, Terrain};
use super::state::*;
use crate::hex::Hex;
use crate::shared::Shared;
use crate::{Seat, Viewer};

/// Written to JSON by hand ([`write_view`]), as serde's derive would
/// write it (a test holds the two equal).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct DuelView {
    pub viewer: Viewer,
    pub phase: Phase,
    pub turn: u32,
    pub active: Seat,
    pub first_player: Seat,
    pub step: Step,
    pub activation: Option<Activation>,
    /// Moments of the current activation a DI may be timed at (0..checkpoints).
    pub checkpoints: usize,
    pub max_points: u32,
    /// The board. Left out (empty) of an update whose board is the same as
    /// the previous record's: the client keeps the one it has. The same
    /// for every viewer, like the units.
    #[serde(default, skip_serializing_if = "no_hexes")]
    pub hexes: Shared<Vec<HexView>>,
    /// The same for every viewer: shared by the views of one record.
    pub units: Shared<Vec<UnitView>>,
    /// Left out (empty) with the board, when the players are as they were
    /// after the previous record (their Alphas, stacks and points change
    /// less often than the units): the client keeps the ones it has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<PlayerView>,
    pub active_dis: Vec<ActiveDi>,
    /// A cast DI waiting for an answer: who cast which card.
    pub pending_di: Option<(Seat, CardId)>,
    /// What the pending DI was cast at: public once cast, so the player
    /// answering can see what it will do and to what.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_target: Option<Target>,
    pub window: Option<Seat>,
    pub casualty: Option<Casualty>,
    /// A push waiting for the pushed relic holder's controller to say
    /// whether the relic goes along (`carry_relic`).
    #[serde(default)]
    pub relic_choice: Option<RelicChoice>,
    pub draw_offer: Option<Seat>,
    /// Seats expected to act now.
    pub waiting_for: Vec<Seat>,
    /// For a seat: every action it may take now (creation: the presets it may pick).
    pub legal: Vec<DuelAction>,
    /// How the duel ended, once it has (the end screen's words): left out
    /// while it goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<super::Ending>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexView {
    pub hex: Hex,
    pub terrain: Terrain,
    pub relics: usize,
    /// Whose summoning hex this is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summoning: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitView {
    pub id: UnitId,
    pub owner: Seat,
    pub controller: Seat,
    pub alpha: usize,
    pub hex: Hex,
    // A unit's flags are mostly false and its conditions mostly none: left
    // out when so (a third of every view's bytes; DUEL.md says so).
    #[serde(default, skip_serializing_if = "is_false")]
    pub flying: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub holds_relics: bool,
    /// Physical and magical armor left this turn.
    pub armor_left: (u32, u32),
    #[serde(default, skip_serializing_if = "is_false")]
    pub activated: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub exposed: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn no_hexes(hexes: &Shared<Vec<HexView>>) -> bool {
    hexes.is_empty()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub locked: bool,
    pub spent: u32,
    pub di_count: usize,
    /// Your own stack, top first; `None` for the other seat's.
    pub di_stack: Option<Vec<CardId>>,
    pub di_cast_this_turn: bool,
    pub auto_pass: bool,
    /// `Some(false)` in your own view once you said `set_pass_when_unable`
    /// false; absent while it is on (the default), and always for the other
    /// seat (whether a pass was the server's is the seat's secret).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_when_unable: Option<bool>,
    pub alphas: Vec<AlphaView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlphaView {
    pub index: usize,
    pub revealed: bool,
    /// Shown to its owner always, to others once revealed.
    pub design: Option<AlphaDesign>,
    pub cost: Option<u32>,
    pub life: Option<u32>,
    pub max_life: Option<u32>,
    pub figure: Option<Figure>,
    pub cubes: Vec<(CardId, u32)>,
}

/// The armor and the passives a view shows that an Alpha's cards give
/// each of its units.
struct AlphaGives {
    armor: Armor,
    flying: bool,
    rooted: bool,
}

/// Whether a view carries the board: its hexes and its players, the parts
/// that seldom change ([`board_key`]).
#[derive(Debug, Clone)]
pub(crate) enum Board {
    /// Shown, with the hexes every viewer shares.
    Shown(Shared<Vec<HexView>>),
    /// Left out: the receiver has them from the previous record.
    Left,
}

impl Board {
    /// The board of `g`, shown: its hexes built once, and written to JSON
    /// by hand ([`write_hexes`]) once for all viewers.
    pub(crate) fn shown(g: &Battle) -> Board {
        // SAFETY: `write_hexes` writes one JSON array (of objects of
        // numbers and terrain names), equal to serde's for every game
        // `the_units_and_hexes_json_is_serdes` plays.
        Board::Shown(unsafe { Shared::with_json(hex_views(g).collect(), |hexes, out| write_hexes(hexes, out)) })
    }
}

fn hex_views(g: &Battle) -> impl Iterator<Item = HexView> + '_ {
    g.grid.iter().map(|(h, t)| HexView {
        hex: h,
        terrain: t,
        relics: g.relics_at(h),
        summoning: (0..2u8).find(|s| g.summoning_hexes[*s as usize].contains(&h)),
    })
}

/// Everything the board of a view shows, its hexes and its players (what
/// any viewer may see of them, secrets included: equal keys, every
/// viewer's equal parts), as bytes: equal keys, equal boards. Every room
/// keeps one between records, so it is small: a byte a square of the
/// grid's box, each number as LEB128 (coordinates zigzagged), card names
/// as they are.
pub(crate) fn board_key(g: &Battle) -> Vec<u8> {
    fn number(key: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            key.push((v as u8) | 0x80);
            v >>= 7;
        }
        key.push(v as u8);
    }
    fn names<'a>(key: &mut Vec<u8>, cards: impl ExactSizeIterator<Item = &'a CardId>) {
        number(key, cards.len() as u64);
        for c in cards {
            number(key, c.len() as u64);
            key.extend_from_slice(c.as_bytes());
        }
    }
    let zigzag = |v: i32| u64::from(((v << 1) ^ (v >> 31)) as u32);
    let hex = |key: &mut Vec<u8>, h: Hex| {
        number(key, zigzag(h.q));
        number(key, zigzag(h.r));
    };
    let mut key = Vec::with_capacity(1024);
    // What the hexes are made of (see `hex_views`), not the hex views
    // themselves: the grid's terrain, where the relics are and the
    // summoning hexes, each list in its own order (a mere reordering makes
    // a new key: the board is sent again, never wrongly left out).
    g.grid.write_key(&mut key);
    number(&mut key, g.relics.len() as u64);
    g.relics.iter().for_each(|r| hex(&mut key, r.hex));
    for side in &g.summoning_hexes {
        number(&mut key, side.len() as u64);
        side.iter().for_each(|h| hex(&mut key, *h));
    }
    // Everything a `PlayerView` is made of (see `view`).
    for p in &g.players {
        key.push(
            u8::from(p.locked)
                | u8::from(p.auto_pass) << 1
                | u8::from(p.di_cast_turn == Some(g.turn)) << 2
                | u8::from(p.hold_windows) << 3,
        );
        number(&mut key, u64::from(p.spent));
        names(&mut key, p.di_stack.iter());
        number(&mut key, p.alphas.len() as u64);
        for a in &p.alphas {
            key.push(u8::from(a.revealed) | a.figure.map_or(0, |f| f as u8 + 1) << 1);
            for n in [a.cost, a.max_life, a.life] {
                number(&mut key, u64::from(n));
            }
            names(&mut key, a.design.cards.iter());
            names(&mut key, a.cubes.keys());
            a.cubes.values().for_each(|n| number(&mut key, u64::from(*n)));
        }
    }
    key.shrink_to_fit();
    key
}

/// The units as every viewer sees them.
pub(crate) fn unit_views(g: &Battle, cat: &Catalogue) -> Vec<UnitView> {
    // What each Alpha's cards give its units, looked up once per Alpha
    // rather than once per unit and question.
    let given: [Vec<AlphaGives>; 2] = std::array::from_fn(|s| {
        let gives = |a: &Alpha| AlphaGives {
            armor: a.armor(cat),
            flying: a.has_passive(cat, |p| matches!(p, Passive::Flying)),
            rooted: a.has_passive(cat, |p| matches!(p, Passive::Rooted)),
        };
        g.players[s].alphas.iter().map(gives).collect()
    });
    g.units
        .iter()
        .map(|u| {
            let t = &given[u.owner as usize][u.alpha];
            let (p, _) = Battle::armor_left_given(t.armor, u, AttackKind::Melee);
            let (mp, m) = Battle::armor_left_given(t.armor, u, AttackKind::Magical);
            debug_assert_eq!(p, mp);
            let flying = Battle::flying_given(u, || t.flying);
            UnitView {
                id: u.id,
                owner: u.owner,
                controller: u.controller,
                alpha: u.alpha,
                hex: u.hex,
                flying,
                holds_relics: g.holds_relics_given(u, || flying, || t.rooted),
                armor_left: (p, m),
                activated: u.activated_turn == Some(g.turn),
                exposed: u.exposed,
                conditions: u.markers.iter().map(|m| m.condition).collect(),
            }
        })
        .collect()
}

/// The units as every viewer sees them, shared by the views of one state
/// and written to JSON by [`write_units`].
pub(crate) fn shared_units(g: &Battle, cat: &Catalogue) -> Shared<Vec<UnitView>> {
    // SAFETY: `write_units` writes one JSON array (of objects of numbers,
    // `true`s and serde's own JSON), equal to serde's for every game
    // `the_units_and_hexes_json_is_serdes` plays.
    unsafe { Shared::with_json(unit_views(g, cat), |units, out| write_units(units, out)) }
}

/// The units' JSON exactly as serde's derive writes it (a test holds the
/// two equal over random games), at a fraction of its cost: the units go
/// out with nearly every update, and serde escapes each field name anew.
fn write_units(units: &[UnitView], out: &mut Vec<u8>) {
    write_array(units, 96, out, write_unit);
}

/// The units as every viewer sees them, their JSON written now, copying
/// the text of each unit as it was in `before` (the units of the record
/// before, written the same way) and writing only the units that changed.
pub(crate) fn shared_units_after(
    g: &Battle,
    cat: &Catalogue,
    before: Option<&Shared<Vec<UnitView>>>,
) -> Shared<Vec<UnitView>> {
    // SAFETY: `write_unit` writes one JSON object (as `shared_units`), and
    // `before` was written by it or offers nothing to copy.
    unsafe { Shared::list_with_json(unit_views(g, cat), write_unit, before) }
}

/// One unit's JSON, as serde's derive writes it.
fn write_unit(u: &UnitView, out: &mut Vec<u8>) {
    // Every field named: one added to the view does not compile here
    // until it is written.
    let UnitView {
        id,
        owner,
        controller,
        alpha,
        hex,
        flying,
        holds_relics,
        armor_left,
        activated,
        exposed,
        conditions,
    } = u;
    for (name, v) in [
        ("{\"id\":", i64::from(*id)),
        (",\"owner\":", i64::from(*owner)),
        (",\"controller\":", i64::from(*controller)),
        (",\"alpha\":", *alpha as i64),
        (",\"hex\":[", i64::from(hex.q)),
        (",", i64::from(hex.r)),
    ] {
        out.extend_from_slice(name.as_bytes());
        int(out, v);
    }
    out.push(b']');
    for (set, name) in [(*flying, ",\"flying\":true"), (*holds_relics, ",\"holds_relics\":true")] {
        if set {
            out.extend_from_slice(name.as_bytes());
        }
    }
    out.extend_from_slice(b",\"armor_left\":[");
    int(out, i64::from(armor_left.0));
    out.push(b',');
    int(out, i64::from(armor_left.1));
    out.push(b']');
    for (set, name) in [(*activated, ",\"activated\":true"), (*exposed, ",\"exposed\":true")] {
        if set {
            out.extend_from_slice(name.as_bytes());
        }
    }
    if !conditions.is_empty() {
        // Rare, and of many shapes: serde's own.
        out.extend_from_slice(b",\"conditions\":");
        serde_json::to_writer(&mut *out, conditions).expect("conditions serialize");
    }
    out.push(b'}');
}

/// The hexes' JSON exactly as serde's derive writes it, as
/// [`write_units`] does the units'.
fn write_hexes(hexes: &[HexView], out: &mut Vec<u8>) {
    write_array(hexes, 48, out, |h, out| {
        let HexView { hex, terrain, relics, summoning } = h;
        out.extend_from_slice(b"{\"hex\":[");
        int(out, i64::from(hex.q));
        out.push(b',');
        int(out, i64::from(hex.r));
        out.extend_from_slice(match terrain {
            Terrain::Plains => b"],\"terrain\":\"plains\",\"relics\":",
            Terrain::Hill => b"],\"terrain\":\"hill\",\"relics\":",
            Terrain::Water => b"],\"terrain\":\"water\",\"relics\":",
            Terrain::Crater => b"],\"terrain\":\"crater\",\"relics\":",
        });
        int(out, *relics as i64);
        if let Some(seat) = summoning {
            out.extend_from_slice(b",\"summoning\":");
            int(out, i64::from(*seat));
        }
        out.push(b'}');
    });
}

/// A JSON array of `items`, each written by `each` (about `size` bytes).
fn write_array<T>(items: &[T], size: usize, out: &mut Vec<u8>, each: impl Fn(&T, &mut Vec<u8>)) {
    out.reserve(size * items.len() + 2);
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        each(item, out);
    }
    out.push(b']');
}

impl Serialize for DuelView {
    /// The view's JSON, written by hand ([`write_view`]) once per frame.
    /// (To a serializer other than JSON's this is serde_json's raw-value
    /// form, as [`Shared`]'s: views have no other encoding.)
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // About a view's size: its fields, units and legal list (and the
        // board, when shown), so the text seldom grows.
        let board = if no_hexes(&self.hexes) { 0 } else { 48 * self.hexes.len() };
        let mut text = Vec::with_capacity(768 + 80 * self.units.len() + 48 * self.legal.len() + board);
        write_view(self, &mut text).map_err(serde::ser::Error::custom)?;
        // SAFETY: UTF-8: `write_view` writes ASCII, `str`s and serde_json's
        // own text, nothing else.
        let text = unsafe { String::from_utf8_unchecked(text) };
        // SAFETY: `write_view` writes one JSON object, equal to serde's
        // derive for every view `views_json_is_serdes` builds (checked in
        // debug builds as well).
        let json = unsafe { serde_json::value::RawValue::from_string_unchecked(text) };
        json.serialize(s)
    }
}

/// A view's JSON exactly as serde's derive wrote it (the test
/// `views_json_is_serdes` holds the two equal over random games), at a
/// fraction of its cost: a seat's view goes out with every record, and
/// serde escaped every field name of the view and of every action its
/// legal list holds anew. The common shapes are written here; the rare
/// ones (the players, lasting DIs, a casualty, a relic choice, the
/// ending, a finished phase) by serde_json, as the derive did.
pub(crate) fn write_view(v: &DuelView, out: &mut Vec<u8>) -> serde_json::Result<()> {
    // Every field named: one added to the view does not compile here
    // until it is written.
    let DuelView {
        viewer,
        phase,
        turn,
        active,
        first_player,
        step,
        activation,
        checkpoints,
        max_points,
        hexes,
        units,
        players,
        active_dis,
        pending_di,
        pending_target,
        window,
        casualty,
        relic_choice,
        draw_offer,
        waiting_for,
        legal,
        ending,
    } = v;
    let seat = |out: &mut Vec<u8>, s: &Option<Seat>| match s {
        Some(s) => int(out, i64::from(*s)),
        None => out.extend_from_slice(b"null"),
    };
    out.extend_from_slice(b"{\"viewer\":");
    match viewer {
        Viewer::Seat(s) => {
            out.extend_from_slice(b"{\"kind\":\"seat\",\"seat\":");
            int(out, i64::from(*s));
            out.push(b'}');
        }
        Viewer::Spectator => out.extend_from_slice(b"{\"kind\":\"spectator\"}"),
    }
    out.extend_from_slice(b",\"phase\":");
    match phase {
        Phase::Creation => out.extend_from_slice(b"{\"phase\":\"creation\"}"),
        Phase::Command => out.extend_from_slice(b"{\"phase\":\"command\"}"),
        Phase::Finished { .. } => serde_json::to_writer(&mut *out, phase)?,
    }
    for (name, n) in [
        (&b",\"turn\":"[..], *turn),
        (b",\"active\":", u32::from(*active)),
        (b",\"first_player\":", u32::from(*first_player)),
    ] {
        out.extend_from_slice(name);
        int(out, i64::from(n));
    }
    out.extend_from_slice(b",\"step\":");
    match step {
        Step::FirstTurn { .. } => serde_json::to_writer(&mut *out, step)?,
        Step::Activation => out.extend_from_slice(b"{\"step\":\"activation\"}"),
        Step::Summoning { summoned: true } => out.extend_from_slice(b"{\"step\":\"summoning\",\"summoned\":true}"),
        Step::Summoning { summoned: false } => out.extend_from_slice(b"{\"step\":\"summoning\",\"summoned\":false}"),
    }
    out.extend_from_slice(b",\"activation\":");
    match activation {
        Some(Activation { unit, m, a, spent_a, started_in_water, ended }) => {
            out.extend_from_slice(b"{\"unit\":");
            int(out, i64::from(*unit));
            out.extend_from_slice(b",\"m\":");
            int(out, i64::from(*m));
            out.extend_from_slice(b",\"a\":");
            int(out, i64::from(*a));
            for (name, set) in [
                (&b",\"spent_a\":"[..], spent_a),
                (b",\"started_in_water\":", started_in_water),
                (b",\"ended\":", ended),
            ] {
                out.extend_from_slice(name);
                out.extend_from_slice(if *set { b"true" } else { b"false" });
            }
            out.push(b'}');
        }
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"checkpoints\":");
    int(out, *checkpoints as i64);
    out.extend_from_slice(b",\"max_points\":");
    int(out, i64::from(*max_points));
    // The shared parts copy the JSON they keep.
    if !no_hexes(hexes) {
        out.extend_from_slice(b",\"hexes\":");
        serde_json::to_writer(&mut *out, hexes)?;
    }
    out.extend_from_slice(b",\"units\":");
    serde_json::to_writer(&mut *out, units)?;
    if !players.is_empty() {
        out.extend_from_slice(b",\"players\":");
        write_array(players, 512, out, write_player);
    }
    out.extend_from_slice(b",\"active_dis\":");
    serde_json::to_writer(&mut *out, active_dis)?;
    out.extend_from_slice(b",\"pending_di\":");
    match pending_di {
        Some((s, card)) => {
            out.push(b'[');
            int(out, i64::from(*s));
            out.push(b',');
            string(out, card);
            out.push(b']');
        }
        None => out.extend_from_slice(b"null"),
    }
    if let Some(t) = pending_target {
        out.extend_from_slice(b",\"pending_target\":");
        write_target(t, out);
    }
    out.extend_from_slice(b",\"window\":");
    seat(out, window);
    out.extend_from_slice(b",\"casualty\":");
    serde_json::to_writer(&mut *out, casualty)?;
    out.extend_from_slice(b",\"relic_choice\":");
    serde_json::to_writer(&mut *out, relic_choice)?;
    out.extend_from_slice(b",\"draw_offer\":");
    seat(out, draw_offer);
    out.extend_from_slice(b",\"waiting_for\":");
    write_array(waiting_for, 2, out, |s, out| int(out, i64::from(*s)));
    out.extend_from_slice(b",\"legal\":");
    write_array(legal, 40, out, write_action);
    if let Some(e) = ending {
        out.extend_from_slice(b",\"ending\":");
        serde_json::to_writer(&mut *out, e)?;
    }
    out.push(b'}');
    Ok(())
}

/// A player as serde's derive writes it (`views_json_is_serdes` holds
/// the two equal).
fn write_player(p: &PlayerView, out: &mut Vec<u8>) {
    // Every field named: one added to the view does not compile here
    // until it is written.
    let PlayerView { seat, locked, spent, di_count, di_stack, di_cast_this_turn, auto_pass, pass_when_unable, alphas } =
        p;
    let boolean = |out: &mut Vec<u8>, b: bool| out.extend_from_slice(if b { b"true" } else { b"false" });
    let cards = |out: &mut Vec<u8>, cards: &[CardId]| write_array(cards, 16, out, |c, out| string(out, c));
    out.extend_from_slice(b"{\"seat\":");
    int(out, i64::from(*seat));
    out.extend_from_slice(b",\"locked\":");
    boolean(out, *locked);
    out.extend_from_slice(b",\"spent\":");
    int(out, i64::from(*spent));
    out.extend_from_slice(b",\"di_count\":");
    int(out, *di_count as i64);
    out.extend_from_slice(b",\"di_stack\":");
    match di_stack {
        Some(stack) => cards(out, stack),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"di_cast_this_turn\":");
    boolean(out, *di_cast_this_turn);
    out.extend_from_slice(b",\"auto_pass\":");
    boolean(out, *auto_pass);
    if let Some(b) = pass_when_unable {
        out.extend_from_slice(b",\"pass_when_unable\":");
        boolean(out, *b);
    }
    out.extend_from_slice(b",\"alphas\":");
    write_array(alphas, 160, out, |a, out| {
        let AlphaView { index, revealed, design, cost, life, max_life, figure, cubes } = a;
        let number = |out: &mut Vec<u8>, n: &Option<u32>| match n {
            Some(n) => int(out, i64::from(*n)),
            None => out.extend_from_slice(b"null"),
        };
        out.extend_from_slice(b"{\"index\":");
        int(out, *index as i64);
        out.extend_from_slice(b",\"revealed\":");
        boolean(out, *revealed);
        out.extend_from_slice(b",\"design\":");
        match design {
            Some(AlphaDesign { cards: list }) => {
                out.extend_from_slice(b"{\"cards\":");
                cards(out, list);
                out.push(b'}');
            }
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"cost\":");
        number(out, cost);
        out.extend_from_slice(b",\"life\":");
        number(out, life);
        out.extend_from_slice(b",\"max_life\":");
        number(out, max_life);
        out.extend_from_slice(b",\"figure\":");
        out.extend_from_slice(match figure {
            Some(Figure::CelestialKnight) => b"\"celestial_knight\"",
            Some(Figure::ShadowRanger) => b"\"shadow_ranger\"",
            Some(Figure::SpellBinder) => b"\"spell_binder\"",
            Some(Figure::ForsakenDrake) => b"\"forsaken_drake\"",
            None => b"null",
        });
        out.extend_from_slice(b",\"cubes\":");
        write_array(cubes, 24, out, |(card, n), out| {
            out.push(b'[');
            string(out, card);
            out.push(b',');
            int(out, i64::from(*n));
            out.push(b']');
        });
        out.push(b'}');
    });
    out.push(b'}');
}

/// One action's JSON, exactly as serde's derive writes it (the test
/// `legal_lists_json_is_serdes` holds the two equal over random games);
/// the creation phase's actions, seldom listed, by serde itself.
pub(crate) fn write_action(a: &DuelAction, out: &mut Vec<u8>) {
    use DuelAction as A;
    let (tag, rest): (&[u8], _) = match a {
        A::Create { .. } | A::UsePreset { .. } => {
            serde_json::to_writer(&mut *out, a).expect("actions serialize");
            return;
        }
        A::Summon { alpha, hex, figure } => {
            out.extend_from_slice(b"{\"type\":\"summon\",\"alpha\":");
            int(out, *alpha as i64);
            out.extend_from_slice(b",\"hex\":");
            write_hex(*hex, out);
            if let Some(f) = figure {
                out.extend_from_slice(match f {
                    Figure::CelestialKnight => b",\"figure\":\"celestial_knight\"",
                    Figure::ShadowRanger => b",\"figure\":\"shadow_ranger\"",
                    Figure::SpellBinder => b",\"figure\":\"spell_binder\"",
                    Figure::ForsakenDrake => b",\"figure\":\"forsaken_drake\"",
                });
            }
            out.push(b'}');
            return;
        }
        A::Activate { unit } => (&b"activate\",\"unit\":"[..], Some(i64::from(*unit))),
        A::Move { to, carry_relic } => {
            out.extend_from_slice(b"{\"type\":\"move\",\"to\":");
            write_hex(*to, out);
            if let Some(c) = carry_relic {
                out.extend_from_slice(if *c { b",\"carry_relic\":true" } else { b",\"carry_relic\":false" });
            }
            out.push(b'}');
            return;
        }
        A::PassRelic { to } => (&b"pass_relic\",\"to\":"[..], Some(i64::from(*to))),
        A::UsePower { card, power, target } => {
            out.extend_from_slice(b"{\"type\":\"use_power\",\"card\":");
            string(out, card);
            out.extend_from_slice(b",\"power\":");
            int(out, *power as i64);
            out.extend_from_slice(b",\"target\":");
            write_target(target, out);
            out.push(b'}');
            return;
        }
        A::EndActivation => (&b"end_activation\""[..], None),
        A::EndActivations => (&b"end_activations\""[..], None),
        A::EndTurn => (&b"end_turn\""[..], None),
        A::CastDi { target, at } => {
            out.extend_from_slice(b"{\"type\":\"cast_di\",\"target\":");
            write_target(target, out);
            if let Some(k) = at {
                out.extend_from_slice(b",\"at\":");
                int(out, *k as i64);
            }
            out.push(b'}');
            return;
        }
        A::DiscardDi { count } => (&b"discard_di\",\"count\":"[..], Some(*count as i64)),
        A::Pass => (&b"pass\""[..], None),
        A::TimedOut => (&b"timed_out\""[..], None),
        A::SetAutoPass { on: true } => (&b"set_auto_pass\",\"on\":true"[..], None),
        A::SetAutoPass { on: false } => (&b"set_auto_pass\",\"on\":false"[..], None),
        A::SetPassWhenUnable { on: true } => (&b"set_pass_when_unable\",\"on\":true"[..], None),
        A::SetPassWhenUnable { on: false } => (&b"set_pass_when_unable\",\"on\":false"[..], None),
        A::ChooseCasualty { unit } => (&b"choose_casualty\",\"unit\":"[..], Some(i64::from(*unit))),
        A::CarryRelic { carry: true } => (&b"carry_relic\",\"carry\":true"[..], None),
        A::CarryRelic { carry: false } => (&b"carry_relic\",\"carry\":false"[..], None),
        A::OfferDraw => (&b"offer_draw\""[..], None),
        A::AcceptDraw => (&b"accept_draw\""[..], None),
        A::DeclineDraw => (&b"decline_draw\""[..], None),
        A::Resign => (&b"resign\""[..], None),
    };
    out.extend_from_slice(b"{\"type\":\"");
    out.extend_from_slice(tag);
    if let Some(v) = rest {
        int(out, v);
    }
    out.push(b'}');
}

/// A target's JSON, as serde's derive writes it: its fields in their
/// order, those at their defaults left out.
fn write_target(t: &Target, out: &mut Vec<u8>) {
    // Every field named: one added to the target does not compile here
    // until it is written.
    let Target { unit, hex, hexes, direction, distance, carry_relic, terrain, dest, choose } = t;
    let mut sep = b'{';
    let mut field = |out: &mut Vec<u8>, name: &[u8]| {
        out.push(sep);
        sep = b',';
        out.push(b'"');
        out.extend_from_slice(name);
        out.extend_from_slice(b"\":");
    };
    if let Some(u) = unit {
        field(out, b"unit");
        int(out, i64::from(*u));
    }
    if let Some(h) = hex {
        field(out, b"hex");
        write_hex(*h, out);
    }
    if !hexes.is_empty() {
        field(out, b"hexes");
        write_array(hexes, 8, out, |h, out| write_hex(*h, out));
    }
    if let Some(d) = direction {
        field(out, b"direction");
        int(out, i64::from(*d));
    }
    if let Some(d) = distance {
        field(out, b"distance");
        int(out, i64::from(*d));
    }
    if let Some(c) = carry_relic {
        field(out, b"carry_relic");
        out.extend_from_slice(if *c { b"true" } else { b"false" });
    }
    if let Some(x) = terrain {
        field(out, b"terrain");
        out.extend_from_slice(match x {
            Terrain::Plains => b"\"plains\"",
            Terrain::Hill => b"\"hill\"",
            Terrain::Water => b"\"water\"",
            Terrain::Crater => b"\"crater\"",
        });
    }
    if let Some(h) = dest {
        field(out, b"dest");
        write_hex(*h, out);
    }
    if let Some(c) = choose {
        // Rare (Flood, Tsunami): serde's own.
        field(out, b"choose");
        serde_json::to_writer(&mut *out, c).expect("choices serialize");
    }
    if sep == b'{' {
        out.push(b'{');
    }
    out.push(b'}');
}

/// A hex as serde writes it: `[q,r]`.
fn write_hex(h: Hex, out: &mut Vec<u8>) {
    out.push(b'[');
    int(out, i64::from(h.q));
    out.push(b',');
    int(out, i64::from(h.r));
    out.push(b']');
}

/// `v` in decimal, as JSON writes an integer (with serde_json's own
/// formatter).
fn int(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// `viewer`'s view, with the units all viewers share.
pub(crate) fn view(
    state: &DuelState,
    cat: &Catalogue,
    viewer: Viewer,
    board: Board,
    units: Shared<Vec<UnitView>>,
) -> DuelView {
    let legal = match viewer {
        Viewer::Seat(s) => super::legal::legal_actions(state, cat, s),
        Viewer::Spectator => Vec::new(),
    };
    view_listing(state, cat, viewer, board, units, legal)
}

/// What the duel's words were named from before they were read from the
/// state ([`super::words`]'s `StateNames`), and what the test holding the
/// two equal names them from: `viewer`'s view without its legal actions,
/// without its units' JSON and, unless `hexes`, without the board's hexes
/// (only a finished game's last line reads them, for the relics its
/// winner holds).
#[cfg(test)]
pub(crate) fn view_for_words(state: &DuelState, viewer: Viewer, hexes: bool) -> DuelView {
    let (cat, g) = (Catalogue::standard(), &state.game);
    let mut view = view_listing(state, cat, viewer, Board::Left, Shared::new(unit_views(g, cat)), Vec::new());
    view.players = player_views(g, viewer);
    if hexes {
        view.hexes = Shared::new(hex_views(g).collect());
    }
    view
}

/// [`view`] with `legal` as the view's legal actions.
fn view_listing(
    state: &DuelState,
    cat: &Catalogue,
    viewer: Viewer,
    board: Board,
    units: Shared<Vec<UnitView>>,
    legal: Vec<DuelAction>,
) -> DuelView {
    let g = &state.game;
    let (hexes, players) = match board {
        Board::Shown(hexes) => (hexes, player_views(g, viewer)),
        Board::Left => (Shared::default(), Vec::new()),
    };
    DuelView {
        viewer,
        phase: g.phase.clone(),
        turn: g.turn,
        active: g.active,
        first_player: g.first_player,
        step: g.step.clone(),
        activation: g.activation.clone(),
        checkpoints: state.checkpoints.len(),
        max_points: g.max_points,
        hexes,
        units,
        players,
        active_dis: g.active_dis.clone(),
        pending_di: state.pending.as_ref().map(|p| (p.caster, p.card.clone())),
        pending_target: state.pending.as_ref().map(|p| p.target.clone()),
        window: state.window,
        casualty: g.casualties.first().cloned(),
        relic_choice: g.relic_choice.clone(),
        draw_offer: state.draw_offer,
        waiting_for: match super::Duel::status_of(state) {
            crate::Status::Waiting { seats } => seats,
            crate::Status::Finished(_) => Vec::new(),
        },
        legal,
        ending: super::ending::ending(state, cat),
    }
}

/// Both players as `viewer` may see them. What they are made of is what
/// [`board_key`] covers.
fn player_views(g: &Battle, viewer: Viewer) -> Vec<PlayerView> {
    (0..2u8)
        .map(|s| {
            let p = &g.players[s as usize];
            let mine = viewer == Viewer::Seat(s);
            PlayerView {
                seat: s,
                locked: p.locked,
                spent: p.spent,
                di_count: p.di_stack.len(),
                di_stack: mine.then(|| p.di_stack.clone()),
                di_cast_this_turn: p.di_cast_turn == Some(g.turn),
                auto_pass: p.auto_pass,
                pass_when_unable: (mine && p.hold_windows).then_some(false),
                alphas: p
                    .alphas
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let show = mine || a.revealed;
                        AlphaView {
                            index: i,
                            revealed: a.revealed,
                            design: show.then(|| (*a.design).clone()),
                            cost: show.then_some(a.cost),
                            life: show.then_some(a.life),
                            max_life: show.then_some(a.max_life),
                            figure: a.figure,
                            cubes: if show {
                                a.cubes.iter().map(|(k, v)| (k.clone(), *v)).collect()
                            } else {
                                Vec::new()
                            },
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::{Duel, DuelOptions};
    use crate::Ruleset;

    /// The board key changes with everything the board shows, and only
    /// with that; a view without the board is the whole view less its hexes.
    #[test]
    fn the_board_key_follows_what_the_board_shows() {
        let s = Duel::start(&DuelOptions::default(), 3).unwrap();
        let key = |s: &DuelState| Duel::board_key(s).unwrap();
        let mut same = s.clone();
        same.game.turn += 5;
        assert_eq!(key(&same), key(&s), "the turn is not on the board");
        let mut relic = s.clone();
        let from = relic.game.relics[0].hex;
        relic.game.relics[0].hex = Hex::new(from.q + 1, from.r);
        assert_ne!(key(&relic), key(&s), "a relic moved");
        let mut terrain = s.clone();
        let (h, t) = terrain.game.grid.iter().next().unwrap();
        terrain.game.grid.set(h, if t == Terrain::Water { Terrain::Hill } else { Terrain::Water });
        assert_ne!(key(&terrain), key(&s), "a hex's terrain changed");
        let mut row = s.clone();
        row.game.summoning_hexes[0].pop();
        assert_ne!(key(&row), key(&s), "a summoning row changed");

        let mut spent = s.clone();
        std::sync::Arc::make_mut(&mut spent.game.players[1]).spent += 7;
        assert_ne!(key(&spent), key(&s), "points spent");
        let mut cast = s.clone();
        let turn = cast.game.turn;
        std::sync::Arc::make_mut(&mut cast.game.players[0]).di_cast_turn = Some(turn);
        assert_ne!(key(&cast), key(&s), "a DI cast this turn");
        let mut stack = s.clone();
        std::sync::Arc::make_mut(&mut stack.game.players[1]).di_stack.push("gale".into());
        assert_ne!(key(&stack), key(&s), "a stack, secret to the other seat, changed");

        let whole = Duel::view(&s, Viewer::Seat(0));
        let mut without = Duel::view_without_board(&s, Viewer::Seat(0));
        assert!(without.hexes.is_empty() && !whole.hexes.is_empty());
        assert!(without.players.is_empty() && !whole.players.is_empty());
        without.hexes = whole.hexes.clone();
        without.players = whole.players.clone();
        assert_eq!(without, whole);
    }

    /// Over random games: wherever the board key stayed as it was, every
    /// viewer's hexes and players are as they were (so a client that keeps
    /// them shows what a whole view would), and the key changed at least
    /// once with the players alone.
    #[test]
    fn an_unchanged_board_key_means_unchanged_hexes_and_players() {
        let cat = Catalogue::standard();
        let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];
        let parts = |s: &DuelState| -> Vec<(Vec<HexView>, Vec<PlayerView>)> {
            viewers.iter().map(|v| Duel::view(s, *v)).map(|v| (v.hexes.to_vec(), v.players)).collect()
        };
        let (mut kept, mut players_alone) = (0, 0);
        for seed in 0..6 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = crate::duel::bot::RandomBot::new(seed);
            let (mut key, mut before) = (Duel::board_key(&s), parts(&s));
            for _ in 0..300 {
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                if Duel::apply(&mut s, seat, a).is_err() {
                    continue;
                }
                let (k, now) = (Duel::board_key(&s), parts(&s));
                if k == key {
                    assert_eq!(now, before, "seed {seed}: the key stayed, the parts did not");
                    kept += 1;
                } else if now.iter().zip(&before).all(|(n, b)| n.0 == b.0) {
                    players_alone += 1;
                }
                (key, before) = (k, now);
            }
        }
        assert!(kept > 100 && players_alone > 10, "{kept} kept, {players_alone} changed with the players alone");
    }

    /// Over random games, the units' and the hexes' hand-written JSON is
    /// serde's, byte for byte, with the flags, conditions, terrains and
    /// relics met along the way.
    #[test]
    fn the_units_and_hexes_json_is_serdes() {
        let cat = Catalogue::standard();
        let (mut met, mut terrains, mut relics) = ([0usize; 4], [0usize; 4], 0);
        for seed in 0..8 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = crate::duel::bot::RandomBot::new(seed);
            for _ in 0..400 {
                let units = unit_views(&s.game, cat);
                let mut text = Vec::new();
                write_units(&units, &mut text);
                assert_eq!(String::from_utf8(text).unwrap(), serde_json::to_string(&units).unwrap(), "seed {seed}");
                let hexes: Vec<HexView> = hex_views(&s.game).collect();
                let mut text = Vec::new();
                write_hexes(&hexes, &mut text);
                assert_eq!(String::from_utf8(text).unwrap(), serde_json::to_string(&hexes).unwrap(), "seed {seed}");
                for h in &hexes {
                    terrains[h.terrain as usize] += 1;
                    relics += usize::from(h.relics > 0);
                }
                for u in &units {
                    let flags = [u.flying, u.activated, u.exposed, !u.conditions.is_empty()];
                    met.iter_mut().zip(flags).for_each(|(n, f)| *n += usize::from(f));
                }
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let _ = Duel::apply(&mut s, seat, a);
            }
        }
        // Random bots seldom carry a relic: that flag, and numbers far
        // from a game's, on units made for it.
        assert!(met.iter().all(|n| *n > 0), "flying, activated, exposed, conditions met {met:?}");
        assert!(terrains.iter().all(|n| *n > 0) && relics > 0, "terrains {terrains:?}, hexes with relics {relics}");
        let unit = |id, holds_relics| UnitView {
            id,
            owner: 1,
            controller: 0,
            alpha: 2,
            hex: Hex::new(-3, 12),
            flying: false,
            holds_relics,
            armor_left: (0, 17),
            activated: false,
            exposed: true,
            conditions: Vec::new(),
        };
        for units in [vec![], vec![unit(4_000_000_000, true)], vec![unit(0, false), unit(7, true)]] {
            let mut text = Vec::new();
            write_units(&units, &mut text);
            assert_eq!(String::from_utf8(text).unwrap(), serde_json::to_string(&units).unwrap());
        }
    }

    /// Over random games, every action of both seats' legal lists is
    /// written by hand exactly as serde writes it, and so is every kind of
    /// action and target field, including those no list holds (timed out,
    /// a figure, a card id to escape); a view read back is the view.
    #[test]
    fn legal_lists_json_is_serdes() {
        use crate::duel::action::HexChoice;
        let cat = Catalogue::standard();
        let json = |a: &DuelAction| {
            let mut text = Vec::new();
            write_action(a, &mut text);
            String::from_utf8(text).unwrap()
        };
        let mut kinds = std::collections::BTreeSet::new();
        let mut fields = std::collections::BTreeSet::new();
        for seed in 0..10 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = crate::duel::bot::RandomBot::new(seed);
            for _ in 0..400 {
                for seat in 0..2 {
                    for a in Duel::legal(&s, seat) {
                        let serde = serde_json::to_string(&a).unwrap();
                        assert_eq!(json(&a), serde, "seed {seed}");
                        let v: serde_json::Value = serde_json::from_str(&serde).unwrap();
                        kinds.insert(v["type"].as_str().unwrap().to_owned());
                        if let Some(t) = v["target"].as_object() {
                            fields.extend(t.keys().cloned());
                        }
                    }
                }
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let _ = Duel::apply(&mut s, seat, a);
            }
            for v in [Viewer::Seat(0), Viewer::Seat(1)] {
                let view = Duel::view(&s, v);
                let back: DuelView = serde_json::from_str(&serde_json::to_string(&view).unwrap()).unwrap();
                assert_eq!(back, view);
                assert_eq!(serde_json::to_value(&view).unwrap()["legal"], serde_json::to_value(&view.legal).unwrap());
            }
        }
        for k in ["use_preset", "summon", "activate", "move", "use_power", "cast_di", "pass", "end_turn", "offer_draw"]
        {
            assert!(kinds.contains(k), "random games never listed {k}: {kinds:?}");
        }
        for f in ["unit", "hex", "direction", "distance", "terrain", "dest", "choose"] {
            assert!(fields.contains(f), "random games never aimed with {f}: {fields:?}");
        }
        let all = Target {
            unit: Some(4_000_000_000),
            hex: Some(Hex::new(-3, 12)),
            hexes: vec![Hex::new(0, 0), Hex::new(1, -1)],
            direction: Some(5),
            distance: Some(2),
            carry_relic: Some(true),
            terrain: Some(Terrain::Crater),
            dest: Some(Hex::new(-1, 0)),
            choose: Some(HexChoice { from: vec![Hex::new(2, 2)], up_to: 1, at_least: 0, next_to_distinct: vec![] }),
        };
        let mut odd = vec![
            DuelAction::TimedOut,
            DuelAction::Resign,
            DuelAction::AcceptDraw,
            DuelAction::DeclineDraw,
            DuelAction::EndActivation,
            DuelAction::EndActivations,
            DuelAction::SetAutoPass { on: true },
            DuelAction::SetAutoPass { on: false },
            DuelAction::SetPassWhenUnable { on: true },
            DuelAction::SetPassWhenUnable { on: false },
            DuelAction::CarryRelic { carry: true },
            DuelAction::CarryRelic { carry: false },
            DuelAction::ChooseCasualty { unit: 7 },
            DuelAction::PassRelic { to: 3 },
            DuelAction::DiscardDi { count: 2 },
            DuelAction::Move { to: Hex::new(1, 2), carry_relic: Some(true) },
            DuelAction::Move { to: Hex::new(1, 2), carry_relic: Some(false) },
            DuelAction::CastDi { target: all.clone(), at: Some(3) },
            DuelAction::CastDi { target: Target::default(), at: None },
            DuelAction::UsePower { card: "odd \"card\"\\\n".into(), power: 1, target: all },
            DuelAction::Create { alphas: vec![AlphaDesign::new(["a", "b"])], di_stack: vec!["gale".into()] },
        ];
        odd.extend(Figure::ALL.map(|f| DuelAction::Summon { alpha: 2, hex: Hex::new(0, -4), figure: Some(f) }));
        for a in &odd {
            assert_eq!(json(a), serde_json::to_string(a).unwrap());
        }
    }

    /// The view as serde's derive wrote it before [`write_view`] did: the
    /// same fields, in the same order, with the same attributes.
    #[derive(Serialize)]
    struct Derived {
        viewer: Viewer,
        phase: Phase,
        turn: u32,
        active: Seat,
        first_player: Seat,
        step: Step,
        activation: Option<Activation>,
        checkpoints: usize,
        max_points: u32,
        #[serde(default, skip_serializing_if = "no_hexes")]
        hexes: Shared<Vec<HexView>>,
        units: Shared<Vec<UnitView>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        players: Vec<PlayerView>,
        active_dis: Vec<ActiveDi>,
        pending_di: Option<(Seat, CardId)>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pending_target: Option<Target>,
        window: Option<Seat>,
        casualty: Option<Casualty>,
        #[serde(default)]
        relic_choice: Option<RelicChoice>,
        draw_offer: Option<Seat>,
        waiting_for: Vec<Seat>,
        legal: Vec<DuelAction>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ending: Option<crate::duel::Ending>,
    }

    fn derived(v: &DuelView) -> String {
        let v = v.clone();
        serde_json::to_string(&Derived {
            viewer: v.viewer,
            phase: v.phase,
            turn: v.turn,
            active: v.active,
            first_player: v.first_player,
            step: v.step,
            activation: v.activation,
            checkpoints: v.checkpoints,
            max_points: v.max_points,
            // Fresh, so their JSON is serde's too.
            hexes: Shared::new(v.hexes.to_vec()),
            units: Shared::new(v.units.to_vec()),
            players: v.players,
            active_dis: v.active_dis,
            pending_di: v.pending_di,
            pending_target: v.pending_target,
            window: v.window,
            casualty: v.casualty,
            relic_choice: v.relic_choice,
            draw_offer: v.draw_offer,
            waiting_for: v.waiting_for,
            legal: v.legal,
            ending: v.ending,
        })
        .unwrap()
    }

    /// Over random games (each ended by a resignation), every viewer's view
    /// with and without the board, and views with the parts random games
    /// seldom show set by hand, are written by hand exactly as serde's
    /// derive wrote them, and read back as themselves.
    #[test]
    fn views_json_is_serdes() {
        let cat = Catalogue::standard();
        let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];
        let mut met = [0usize; 8];
        let check = |v: &DuelView, met: &mut [usize; 8]| {
            let text = serde_json::to_string(v).unwrap();
            assert_eq!(text, derived(v));
            assert_eq!(&serde_json::from_str::<DuelView>(&text).unwrap(), v);
            let seen = [
                v.activation.is_some(),
                v.pending_target.is_some(),
                v.ending.is_some(),
                !v.players.is_empty(),
                !v.hexes.is_empty(),
                matches!(v.step, Step::FirstTurn { .. }),
                matches!(v.step, Step::Summoning { .. }),
                !v.active_dis.is_empty(),
            ];
            met.iter_mut().zip(seen).for_each(|(n, s)| *n += usize::from(s));
        };
        let mut last = None;
        for seed in 0..8 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = crate::duel::bot::RandomBot::new(seed);
            for i in 0..400 {
                for v in Duel::views(&s, &viewers, i % 3 == 0, None) {
                    check(&v, &mut met);
                    last = Some(v);
                }
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let _ = Duel::apply(&mut s, seat, a);
            }
            let _ = Duel::apply(&mut s, (seed % 2) as Seat, DuelAction::Resign);
            viewers.iter().for_each(|v| check(&Duel::view(&s, *v), &mut met));
        }
        assert!(met.iter().all(|n| *n > 0), "activation, pending target, ending, players, hexes, steps, DIs: {met:?}");
        let mut v = last.unwrap();
        v.casualty = Some(Casualty { seat: 1, candidates: vec![3, 4] });
        v.relic_choice = Some(RelicChoice { seat: 0, unit: 9, direction: 2, distance: 1, by_power: true });
        v.pending_di = Some((1, "odd \"di\"".into()));
        v.window = Some(0);
        v.draw_offer = Some(1);
        v.waiting_for = vec![0, 1];
        v.phase = Phase::Finished { outcome: crate::Outcome::Draw };
        v.ending = Some(crate::duel::Ending::DrawAgreed);
        check(&v, &mut met);
        for step in [Step::Activation, Step::Summoning { summoned: true }, Step::Summoning { summoned: false }] {
            v.step = step;
            check(&v, &mut met);
        }
        v.phase = Phase::Creation;
        check(&v, &mut met);
        // Players' parts random games seldom show: a seat that holds its
        // windows, odd card names, a stack shown empty.
        let mut v = Duel::view(&Duel::start(&DuelOptions::default(), 1).unwrap(), Viewer::Seat(0));
        v.players[0].pass_when_unable = Some(false);
        v.players[0].di_stack = Some(vec![]);
        v.players[1].di_stack = Some(vec!["odd \"di\"\\".into(), "gale".into()]);
        v.players[1].alphas.push(AlphaView {
            index: 7,
            revealed: true,
            design: Some(AlphaDesign::new(["odd \"card\"", "b"])),
            cost: Some(300),
            life: Some(0),
            max_life: None,
            figure: Some(Figure::ForsakenDrake),
            cubes: vec![("odd\n".into(), 2), ("b".into(), 0)],
        });
        for f in Figure::ALL {
            v.players[0].alphas.push(AlphaView {
                index: 1,
                revealed: false,
                design: None,
                cost: None,
                life: None,
                max_life: Some(4),
                figure: Some(f),
                cubes: vec![],
            });
        }
        check(&v, &mut met);
    }

    /// The views of several viewers built together are each what it would
    /// be alone, JSON included, and share one list of units.
    #[test]
    fn views_built_together_share_their_units() {
        let mut s = Duel::start(&DuelOptions::default(), 5).unwrap();
        let mut bot = crate::duel::bot::RandomBot::new(5);
        let cat = Catalogue::standard();
        let mut applied = 0;
        while applied < 60 {
            let Some(seat) = bot.seat_to_act(&s) else { break };
            let Some(a) = bot.pick(&s, cat, seat) else { break };
            if Duel::apply(&mut s, seat, a).is_ok() {
                applied += 1;
            }
        }
        assert!(!s.game.units.is_empty(), "units on the board after 60 actions");
        let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];
        for board in [true, false] {
            let together = Duel::views(&s, &viewers, board, None);
            for (v, view) in viewers.iter().zip(&together) {
                let alone = if board { Duel::view(&s, *v) } else { Duel::view_without_board(&s, *v) };
                assert_eq!(view, &alone);
                assert_eq!(serde_json::to_string(view).unwrap(), serde_json::to_string(&alone).unwrap());
            }
            assert!(together[0].units.same(&together[1].units) && together[1].units.same(&together[2].units));
        }
    }

    /// Views built from the record before's copy the text of the units
    /// that did not change, and are exactly the views built afresh, JSON
    /// included: over random games, each record's views are built from the
    /// last record's (as a room does) and compared with fresh ones.
    #[test]
    fn views_built_from_the_record_before_are_the_same_views() {
        let cat = Catalogue::standard();
        let viewers = [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator];
        let (mut records, mut copied) = (0, 0);
        for seed in 0..8 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = crate::duel::bot::RandomBot::new(seed);
            let mut before: Option<DuelView> = None;
            for _ in 0..300 {
                let board = seed % 2 == 0;
                let views = Duel::views(&s, &viewers, board, before.as_ref());
                let fresh = Duel::views(&s, &viewers, board, None);
                for (view, fresh) in views.iter().zip(&fresh) {
                    assert_eq!(view, fresh);
                    assert_eq!(serde_json::to_string(view).unwrap(), serde_json::to_string(fresh).unwrap());
                }
                if let Some(b) = &before {
                    copied += views[0].units.iter().filter(|u| b.units.contains(u)).count();
                }
                records += 1;
                before = views.into_iter().next();
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                Duel::apply(&mut s, seat, a).unwrap();
            }
        }
        assert!(records > 1000 && copied > 5000, "{records} records, {copied} units copied");
    }

    /// A unit's false flags and empty conditions are left out of its JSON
    /// and read back as such; set ones are written.
    #[test]
    fn a_units_defaults_are_left_out_and_read_back() {
        let plain = UnitView {
            id: 1,
            owner: 0,
            controller: 0,
            alpha: 0,
            hex: Hex::new(0, -5),
            flying: false,
            holds_relics: false,
            armor_left: (1, 0),
            activated: false,
            exposed: false,
            conditions: Vec::new(),
        };
        let json = serde_json::to_value(&plain).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"id": 1, "owner": 0, "controller": 0, "alpha": 0, "hex": [0, -5], "armor_left": [1, 0]})
        );
        assert_eq!(serde_json::from_value::<UnitView>(json).unwrap(), plain);
        let set = UnitView {
            flying: true,
            holds_relics: true,
            activated: true,
            exposed: true,
            conditions: vec![Condition::Stasis],
            ..plain
        };
        let json = serde_json::to_value(&set).unwrap();
        for field in ["flying", "holds_relics", "activated", "exposed"] {
            assert_eq!(json[field], true, "{field}");
        }
        assert_eq!(json["conditions"], serde_json::json!([{"type": "stasis"}]));
        assert_eq!(serde_json::from_value::<UnitView>(json).unwrap(), set);
    }
}
