//! A Divinity view's JSON written by hand, byte for byte as serde's derive
//! writes it: the derive escaped every field name anew and went through
//! `SerializeMap` for each map entry, 8.5 % of the server's instructions
//! per Divinity action. Every struct is taken apart field by field, so a
//! field added to the view does not compile here until it is written;
//! what is seldom there (the campaign, the interlude: once a location)
//! still goes through serde. Tests (`tests/divinity_view_json.rs`) hold
//! the two writings equal.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use super::attack::{Attack, OnSpecial, Outcome, StatusGrant, Targets};
use super::cooldown::{CardRef, Track, TrackCard};
use super::damage::{DamageType, Environment};
use super::dice::{Colour, Die, Pool, Roll};
use super::json::{bool, list, serde, string, uint};
use super::map::{MapState, PathDef};
use super::state::{
    AttachedRune, ChallengeResultKind, ChallengeState, EnemyKind, EnemyRoll, OriginState, Overflow, PendingRoll, Phase,
    Purpose, ReactionWait, ReductionChoice, RestStep, RollReduction, RoundKind, RouteChoice, Shot, TieChoice,
    TurnStartChoice, Who,
};
use super::status::Status;
use super::view::{
    ArmorView, BoardSpace, BoardView, CardView, ChallengeRow, DivinityView, EnemyView, Front, MerchantPrices, TableView,
};
use crate::shared::Shared;

fn null(out: &mut Vec<u8>) {
    out.extend_from_slice(b"null");
}

fn opt<T>(out: &mut Vec<u8>, v: Option<&T>, each: impl FnOnce(&mut Vec<u8>, &T)) {
    match v {
        Some(v) => each(out, v),
        None => null(out),
    }
}

fn opt_serde<T: Serialize>(out: &mut Vec<u8>, v: &Option<T>) {
    opt(out, v.as_ref(), |out, v| serde(out, v));
}

fn opt_string(out: &mut Vec<u8>, s: &Option<String>) {
    opt(out, s.as_ref(), |out, s| string(out, s));
}

fn strings(out: &mut Vec<u8>, items: &[String]) {
    list(out, items, |out, s| string(out, s));
}

fn uints<T: itoa::Integer + Copy>(out: &mut Vec<u8>, items: &[T]) {
    list(out, items, |out, n| uint(out, *n));
}

fn bools(out: &mut Vec<u8>, items: &[bool]) {
    list(out, items, |out, b| bool(out, *b));
}

/// A map as serde_json writes it: an object, integer keys quoted.
fn map<K, V>(out: &mut Vec<u8>, m: &BTreeMap<K, V>, key: impl Fn(&mut Vec<u8>, &K), value: impl Fn(&mut Vec<u8>, &V)) {
    out.push(b'{');
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        key(out, k);
        out.push(b':');
        value(out, v);
    }
    out.push(b'}');
}

fn int_key<K: itoa::Integer + Copy>(out: &mut Vec<u8>, k: &K) {
    out.push(b'"');
    uint(out, *k);
    out.push(b'"');
}

/// The text of a whole view, every part written here (none copied).
pub(super) fn whole(v: &DivinityView, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"you\":");
    opt(out, v.you.as_ref(), |out, s| uint(out, *s));
    rest(v, out, true);
}

/// A part every viewer shares: written here when `fresh`, else copied
/// from its text once written (its own writer's or serde's, `Shared`).
fn shared<T: Serialize>(out: &mut Vec<u8>, part: &Shared<T>, fresh: bool, write: fn(&T, &mut Vec<u8>)) {
    if fresh {
        write(part, out);
    } else {
        part.write_json(out).expect("a view's part serializes");
    }
}

/// The view's text after its `you`: `,"location":…}`; the shared parts
/// written anew when `fresh`.
pub(super) fn rest(v: &TableView, out: &mut Vec<u8>, fresh: bool) {
    let TableView {
        read_you: _,
        location,
        front,
        level,
        round,
        round_kind,
        phase,
        waiting,
        time,
        time_length,
        time_paused,
        origins,
        armor,
        enemies,
        map: map_state,
        board,
        deck_size,
        cards_left,
        item_deck_sizes,
        holding,
        revealed,
        combat_stack,
        discard,
        gold,
        journal,
        pending,
        enemy_roll,
        dominated_turn,
        tie,
        route,
        reduction,
        turn_start,
        roll_reduction,
        reaction,
        challenge,
        challenge_rows,
        overflow,
        campaign,
        merchant,
    } = v;
    out.reserve(1024);
    out.extend_from_slice(b",\"location\":");
    string(out, location);
    // Left out with the board when unchanged (`view::board_key`).
    if let Some(front) = front {
        out.extend_from_slice(b",\"front\":");
        shared(out, front, fresh, front_json);
    }
    out.extend_from_slice(b",\"level\":");
    uint(out, *level);
    out.extend_from_slice(b",\"round\":");
    uint(out, *round);
    out.extend_from_slice(b",\"round_kind\":");
    out.extend_from_slice(match round_kind {
        RoundKind::Explore => b"\"explore\"",
        RoundKind::Rest => b"\"rest\"",
        RoundKind::Combat => b"\"combat\"",
    });
    out.extend_from_slice(b",\"phase\":");
    write_phase(out, phase);
    out.extend_from_slice(b",\"waiting\":");
    uints(out, waiting);
    out.extend_from_slice(b",\"time\":");
    opt(out, time.as_ref(), |out, t| uint(out, *t));
    out.extend_from_slice(b",\"time_length\":");
    uint(out, *time_length);
    out.extend_from_slice(b",\"time_paused\":");
    bool(out, *time_paused);
    out.extend_from_slice(b",\"origins\":");
    shared(out, origins, fresh, |o, out| origins_json(o, out));
    out.extend_from_slice(b",\"armor\":");
    list(out, armor, armor_view);
    out.extend_from_slice(b",\"enemies\":");
    shared(out, enemies, fresh, |e, out| enemies_json(e, out));
    out.extend_from_slice(b",\"map\":");
    write_map(out, map_state);
    if let Some(board) = board {
        out.extend_from_slice(b",\"board\":");
        shared(out, board, fresh, board_json);
    }
    out.extend_from_slice(b",\"deck_size\":");
    uint(out, *deck_size);
    out.extend_from_slice(b",\"cards_left\":");
    map(out, cards_left, int_key, |out, n| uint(out, *n));
    out.extend_from_slice(b",\"item_deck_sizes\":");
    map(out, item_deck_sizes, |out, k| string(out, k), |out, n| uint(out, *n));
    out.extend_from_slice(b",\"holding\":");
    list(out, holding, card_view);
    out.extend_from_slice(b",\"revealed\":");
    list(out, revealed, card_view);
    out.extend_from_slice(b",\"combat_stack\":");
    strings(out, combat_stack);
    out.extend_from_slice(b",\"discard\":");
    strings(out, discard);
    out.extend_from_slice(b",\"gold\":");
    uint(out, *gold);
    out.extend_from_slice(b",\"journal\":");
    uints(out, journal);
    out.extend_from_slice(b",\"pending\":");
    opt(out, pending.as_ref(), write_pending);
    out.extend_from_slice(b",\"enemy_roll\":");
    opt(out, enemy_roll.as_ref(), write_enemy_roll);
    out.extend_from_slice(b",\"dominated_turn\":");
    opt(out, dominated_turn.as_ref(), |out, e| uint(out, *e));
    out.extend_from_slice(b",\"tie\":");
    opt(out, tie.as_ref(), write_tie);
    out.extend_from_slice(b",\"route\":");
    opt(out, route.as_ref(), write_route);
    out.extend_from_slice(b",\"reduction\":");
    opt(out, reduction.as_ref(), write_reduction);
    out.extend_from_slice(b",\"turn_start\":");
    opt(out, turn_start.as_ref(), write_turn_start);
    out.extend_from_slice(b",\"roll_reduction\":");
    opt(out, roll_reduction.as_ref(), write_roll_reduction);
    out.extend_from_slice(b",\"reaction\":");
    opt(out, reaction.as_ref(), write_reaction);
    out.extend_from_slice(b",\"challenge\":");
    opt(out, challenge.as_ref(), write_challenge);
    if let Some(rows) = challenge_rows {
        out.extend_from_slice(b",\"challenge_rows\":");
        list(out, rows, challenge_row);
    }
    out.extend_from_slice(b",\"overflow\":");
    list(out, overflow, write_overflow);
    out.extend_from_slice(b",\"campaign\":");
    opt_serde(out, campaign);
    out.extend_from_slice(b",\"merchant\":");
    opt(out, merchant.as_ref(), merchant_prices);
    out.push(b'}');
}

fn write_phase(out: &mut Vec<u8>, phase: &Phase) {
    match phase {
        Phase::ChooseRound => out.extend_from_slice(b"{\"phase\":\"choose_round\"}"),
        Phase::Travel { done } => {
            out.extend_from_slice(b"{\"phase\":\"travel\",\"done\":");
            bools(out, done);
            out.push(b'}');
        }
        Phase::Groups { groups, chosen } => {
            out.extend_from_slice(b"{\"phase\":\"groups\",\"groups\":");
            list(out, groups, |out, g| uints(out, g));
            out.extend_from_slice(b",\"chosen\":");
            bools(out, chosen);
            out.push(b'}');
        }
        Phase::Resolve => out.extend_from_slice(b"{\"phase\":\"resolve\"}"),
        Phase::Rest { done, steps } => {
            out.extend_from_slice(b"{\"phase\":\"rest\",\"done\":");
            bools(out, done);
            out.extend_from_slice(b",\"steps\":");
            list(out, steps, |out, s| {
                out.extend_from_slice(match s {
                    RestStep::NotBegun => b"\"not_begun\"",
                    RestStep::StartOfTurn => b"\"start_of_turn\"",
                    RestStep::Recover => b"\"recover\"",
                    RestStep::Revive => b"\"revive\"",
                    RestStep::EquipAndTrade => b"\"equip_and_trade\"",
                    RestStep::UseCard => b"\"use_card\"",
                })
            });
            out.push(b'}');
        }
        Phase::Combat { done, active } => {
            out.extend_from_slice(b"{\"phase\":\"combat\",\"done\":");
            bools(out, done);
            out.extend_from_slice(b",\"active\":");
            opt(out, active.as_ref(), |out, s| uint(out, *s));
            out.push(b'}');
        }
        // Once a location: the interlude's levels and wares, the way on.
        Phase::Interlude(_) | Phase::Finished { .. } => serde(out, phase),
    }
}

fn armor_view(out: &mut Vec<u8>, a: &ArmorView) {
    let ArmorView { physical, magical } = a;
    out.extend_from_slice(b"{\"physical\":");
    uint(out, *physical);
    out.extend_from_slice(b",\"magical\":");
    uint(out, *magical);
    out.push(b'}');
}

fn card_view(out: &mut Vec<u8>, c: &CardView) {
    let CardView { id, text } = c;
    out.extend_from_slice(b"{\"id\":");
    string(out, id);
    out.extend_from_slice(b",\"text\":");
    string(out, text);
    out.push(b'}');
}

fn challenge_row(out: &mut Vec<u8>, r: &ChallengeRow) {
    let ChallengeRow { min_hits, text } = r;
    out.extend_from_slice(b"{\"min_hits\":");
    uint(out, *min_hits);
    out.extend_from_slice(b",\"text\":");
    string(out, text);
    out.push(b'}');
}

fn write_overflow(out: &mut Vec<u8>, o: &Overflow) {
    let Overflow { item, takers } = o;
    out.extend_from_slice(b"{\"item\":");
    string(out, item);
    out.extend_from_slice(b",\"takers\":");
    uints(out, takers);
    out.push(b'}');
}

fn merchant_prices(out: &mut Vec<u8>, m: &MerchantPrices) {
    let MerchantPrices { buy, sell } = m;
    out.extend_from_slice(b"{\"buy\":");
    map(out, buy, |out, k| string(out, k), |out, n| uint(out, *n));
    out.extend_from_slice(b",\"sell\":");
    map(out, sell, |out, k| string(out, k), |out, n| uint(out, *n));
    out.push(b'}');
}

fn write_map(out: &mut Vec<u8>, m: &MapState) {
    let MapState { keys, placed, tokens } = m;
    out.extend_from_slice(b"{\"keys\":");
    set(out, keys);
    out.extend_from_slice(b",\"placed\":");
    map(out, placed, int_key, |out, card| string(out, card));
    out.extend_from_slice(b",\"tokens\":");
    map(out, tokens, int_key, |out, e| environment(out, *e));
    out.push(b'}');
}

fn set(out: &mut Vec<u8>, s: &BTreeSet<usize>) {
    out.push(b'[');
    for (i, n) in s.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        uint(out, *n);
    }
    out.push(b']');
}

fn environment(out: &mut Vec<u8>, e: Environment) {
    out.extend_from_slice(match e {
        Environment::Charged => b"\"charged\"",
        Environment::Wet => b"\"wet\"",
        Environment::Warm => b"\"warm\"",
        Environment::Oily => b"\"oily\"",
        Environment::DifficultTerrain => b"\"difficult_terrain\"",
    });
}

/// What waits for the party: a roll open to rerolls (an Origin's, an
/// enemy's), a choice among equals, an order, dice to lose, a reaction, a
/// challenge. Any of them at a quarter of the records, and serde's
/// writing of an attack alone cost more than the rest of a view.
fn write_pending(out: &mut Vec<u8>, p: &PendingRoll) {
    let PendingRoll { seat, roll, purpose, card_rerolls } = p;
    out.extend_from_slice(b"{\"seat\":");
    uint(out, *seat);
    out.extend_from_slice(b",\"roll\":");
    write_roll(out, roll);
    out.extend_from_slice(b",\"purpose\":");
    match purpose {
        Purpose::Attack { attack: a, targets, space, level_bonus, extra, label, repeat } => {
            out.extend_from_slice(b"{\"kind\":\"attack\",\"attack\":");
            attack(out, a);
            out.extend_from_slice(b",\"targets\":");
            list(out, targets, who);
            out.extend_from_slice(b",\"space\":");
            uint(out, *space);
            out.extend_from_slice(b",\"level_bonus\":");
            uint(out, *level_bonus);
            out.extend_from_slice(b",\"extra\":");
            uint(out, *extra);
            out.extend_from_slice(b",\"label\":");
            string(out, label);
            out.extend_from_slice(b",\"repeat\":");
            uint(out, *repeat);
            out.push(b'}');
        }
        Purpose::Challenge => out.extend_from_slice(b"{\"kind\":\"challenge\"}"),
    }
    out.extend_from_slice(b",\"card_rerolls\":");
    uint(out, *card_rerolls);
    out.push(b'}');
}

fn write_enemy_roll(out: &mut Vec<u8>, r: &EnemyRoll) {
    let EnemyRoll { enemy, attack: a, targets, space, roll, passed, boss } = r;
    out.extend_from_slice(b"{\"enemy\":");
    uint(out, *enemy);
    out.extend_from_slice(b",\"attack\":");
    attack(out, a);
    out.extend_from_slice(b",\"targets\":");
    list(out, targets, who);
    out.extend_from_slice(b",\"space\":");
    uint(out, *space);
    out.extend_from_slice(b",\"roll\":");
    write_roll(out, roll);
    out.extend_from_slice(b",\"passed\":");
    bools(out, passed);
    out.extend_from_slice(b",\"boss\":");
    bool(out, *boss);
    out.push(b'}');
}

fn write_tie(out: &mut Vec<u8>, t: &TieChoice) {
    let TieChoice { enemy, options, tactic, face } = t;
    out.extend_from_slice(b"{\"enemy\":");
    uint(out, *enemy);
    out.extend_from_slice(b",\"options\":");
    list(out, options, who);
    out.extend_from_slice(b",\"tactic\":");
    opt_string(out, tactic);
    out.extend_from_slice(b",\"face\":");
    uint(out, *face);
    out.push(b'}');
}

fn write_route(out: &mut Vec<u8>, r: &RouteChoice) {
    let RouteChoice { enemy, target, routes, tactic } = r;
    out.extend_from_slice(b"{\"enemy\":");
    uint(out, *enemy);
    out.extend_from_slice(b",\"target\":");
    who(out, target);
    out.extend_from_slice(b",\"routes\":");
    list(out, routes, |out, r| strings(out, r));
    out.extend_from_slice(b",\"tactic\":");
    opt_string(out, tactic);
    out.push(b'}');
}

fn write_reduction(out: &mut Vec<u8>, r: &ReductionChoice) {
    let ReductionChoice { enemy, attack: a, target, remove, boss } = r;
    out.extend_from_slice(b"{\"enemy\":");
    uint(out, *enemy);
    out.extend_from_slice(b",\"attack\":");
    attack(out, a);
    out.extend_from_slice(b",\"target\":");
    who(out, target);
    out.extend_from_slice(b",\"remove\":");
    uint(out, *remove);
    out.extend_from_slice(b",\"boss\":");
    bool(out, *boss);
    out.push(b'}');
}

fn write_turn_start(out: &mut Vec<u8>, t: &TurnStartChoice) {
    let TurnStartChoice { enemy, statuses } = t;
    out.extend_from_slice(b"{\"enemy\":");
    uint(out, *enemy);
    out.extend_from_slice(b",\"statuses\":");
    list(out, statuses, |out, s| status(out, *s));
    out.push(b'}');
}

/// Its shot flattened (`#[serde(flatten)]`): serde writes it as a map,
/// the same text as a struct's.
fn write_roll_reduction(out: &mut Vec<u8>, r: &RollReduction) {
    let RollReduction { seat, remove, shot } = r;
    let Shot { attack: a, targets, space, label, repeat } = shot;
    out.extend_from_slice(b"{\"seat\":");
    uint(out, *seat);
    out.extend_from_slice(b",\"remove\":");
    uint(out, *remove);
    out.extend_from_slice(b",\"attack\":");
    attack(out, a);
    out.extend_from_slice(b",\"targets\":");
    list(out, targets, who);
    out.extend_from_slice(b",\"space\":");
    uint(out, *space);
    out.extend_from_slice(b",\"label\":");
    string(out, label);
    out.extend_from_slice(b",\"repeat\":");
    uint(out, *repeat);
    out.push(b'}');
}

fn write_reaction(out: &mut Vec<u8>, r: &ReactionWait) {
    let ReactionWait { enemy, next, target, tactic } = r;
    out.extend_from_slice(b"{\"enemy\":");
    uint(out, *enemy);
    out.extend_from_slice(b",\"next\":");
    uint(out, *next);
    out.extend_from_slice(b",\"target\":");
    who(out, target);
    out.extend_from_slice(b",\"tactic\":");
    opt_string(out, tactic);
    out.push(b'}');
}

fn write_challenge(out: &mut Vec<u8>, c: &ChallengeState) {
    let ChallengeState { card, group, space, results, flipped } = c;
    out.extend_from_slice(b"{\"card\":");
    string(out, card);
    out.extend_from_slice(b",\"group\":");
    uints(out, group);
    out.extend_from_slice(b",\"space\":");
    uint(out, *space);
    out.extend_from_slice(b",\"results\":");
    map(out, results, int_key, |out, r| {
        let (kind, value): (&[u8], u64) = match r {
            ChallengeResultKind::Hits(n) => (b"{\"kind\":\"hits\",\"value\":", u64::from(*n)),
            ChallengeResultKind::Row(n) => (b"{\"kind\":\"row\",\"value\":", *n as u64),
        };
        out.extend_from_slice(kind);
        uint(out, value);
        out.push(b'}');
    });
    if let Some(seat) = flipped {
        out.extend_from_slice(b",\"flipped\":");
        uint(out, *seat);
    }
    out.push(b'}');
}

/// `{"kind":"origin","id":0}`: adjacently tagged.
fn who(out: &mut Vec<u8>, w: &Who) {
    match w {
        Who::Origin(seat) => {
            out.extend_from_slice(b"{\"kind\":\"origin\",\"id\":");
            uint(out, *seat);
        }
        Who::Enemy(id) => {
            out.extend_from_slice(b"{\"kind\":\"enemy\",\"id\":");
            uint(out, *id);
        }
    }
    out.push(b'}');
}

fn write_roll(out: &mut Vec<u8>, r: &Roll) {
    let Roll { dice } = r;
    out.extend_from_slice(b"{\"dice\":");
    list(out, dice, |out, d| {
        let Die { colour, face } = d;
        out.extend_from_slice(match colour {
            Colour::White => b"{\"colour\":\"white\",\"face\":",
            Colour::Blue => b"{\"colour\":\"blue\",\"face\":",
            Colour::Red => b"{\"colour\":\"red\",\"face\":",
        });
        uint(out, *face);
        out.push(b'}');
    });
    out.push(b'}');
}

fn attack(out: &mut Vec<u8>, a: &Attack) {
    let Attack {
        range,
        targets,
        dice,
        bonus,
        level_bonus,
        outcome,
        statuses,
        removes,
        environment: env,
        on_special,
        reroll_in_space,
    } = a;
    out.extend_from_slice(b"{\"range\":");
    uint(out, *range);
    out.extend_from_slice(match targets {
        Targets::Single => b",\"targets\":\"single\",\"dice\":",
        Targets::Area => b",\"targets\":\"area\",\"dice\":",
    });
    let Pool { white, blue, red } = dice;
    out.extend_from_slice(b"{\"white\":");
    uint(out, *white);
    out.extend_from_slice(b",\"blue\":");
    uint(out, *blue);
    out.extend_from_slice(b",\"red\":");
    uint(out, *red);
    out.extend_from_slice(b"},\"bonus\":");
    uint(out, *bonus);
    out.extend_from_slice(b",\"level_bonus\":");
    bool(out, *level_bonus);
    out.extend_from_slice(b",\"outcome\":");
    match outcome {
        Outcome::Damage { damage_type } => {
            out.extend_from_slice(b"{\"kind\":\"damage\",\"damage_type\":");
            out.extend_from_slice(match damage_type {
                DamageType::Physical => b"\"physical\"",
                DamageType::Air => b"\"air\"",
                DamageType::Water => b"\"water\"",
                DamageType::Fire => b"\"fire\"",
                DamageType::Earth => b"\"earth\"",
                DamageType::Poison => b"\"poison\"",
                DamageType::Direct => b"\"direct\"",
            });
        }
        Outcome::Heal { damages_undead } => {
            out.extend_from_slice(b"{\"kind\":\"heal\",\"damages_undead\":");
            bool(out, *damages_undead);
        }
    }
    out.extend_from_slice(b"},\"statuses\":");
    list(out, statuses, status_grant);
    out.extend_from_slice(b",\"removes\":");
    list(out, removes, |out, s| status(out, *s));
    out.extend_from_slice(b",\"environment\":");
    opt(out, env.as_ref(), |out, e| environment(out, *e));
    out.extend_from_slice(b",\"on_special\":");
    opt(out, on_special.as_ref(), |out, s| {
        let OnSpecial { extra_hits, per_special, statuses, environment: env } = s;
        out.extend_from_slice(b"{\"extra_hits\":");
        uint(out, *extra_hits);
        out.extend_from_slice(b",\"per_special\":");
        bool(out, *per_special);
        out.extend_from_slice(b",\"statuses\":");
        list(out, statuses, status_grant);
        out.extend_from_slice(b",\"environment\":");
        opt(out, env.as_ref(), |out, e| environment(out, *e));
        out.push(b'}');
    });
    out.extend_from_slice(b",\"reroll_in_space\":");
    uint(out, *reroll_in_space);
    out.push(b'}');
}

fn status_grant(out: &mut Vec<u8>, g: &StatusGrant) {
    let StatusGrant { status: s, cooldown } = g;
    out.extend_from_slice(b"{\"status\":");
    status(out, *s);
    out.extend_from_slice(b",\"cooldown\":");
    uint(out, *cooldown);
    out.push(b'}');
}

fn status(out: &mut Vec<u8>, s: Status) {
    out.extend_from_slice(match s {
        Status::Bleeding => b"\"bleeding\"",
        Status::Blessed => b"\"blessed\"",
        Status::Blinded => b"\"blinded\"",
        Status::Burning => b"\"burning\"",
        Status::Chicken => b"\"chicken\"",
        Status::Dominated => b"\"dominated\"",
        Status::Exposed => b"\"exposed\"",
        Status::Frozen => b"\"frozen\"",
        Status::Haste => b"\"haste\"",
        Status::Invisible => b"\"invisible\"",
        Status::KnockedDown => b"\"knocked_down\"",
        Status::Poisoned => b"\"poisoned\"",
        Status::Shocked => b"\"shocked\"",
        Status::Stunned => b"\"stunned\"",
        Status::Sundered => b"\"sundered\"",
    });
}

/// The front: the location's words.
pub(super) fn front_json(f: &Front, out: &mut Vec<u8>) {
    let Front { name: printed, intro, goal, outcome, next } = f;
    out.extend_from_slice(b"{\"name\":");
    string(out, printed);
    out.extend_from_slice(b",\"intro\":");
    string(out, intro);
    out.extend_from_slice(b",\"goal\":");
    string(out, goal);
    if let Some(outcome) = outcome {
        out.extend_from_slice(b",\"outcome\":");
        string(out, outcome);
    }
    if let Some(next) = next {
        out.extend_from_slice(b",\"next\":");
        string(out, next);
    }
    out.push(b'}');
}

fn track(out: &mut Vec<u8>, t: &Track) {
    let Track { slots } = t;
    out.extend_from_slice(b"{\"slots\":");
    list(out, slots, |out, slot| list(out, slot, track_card));
    out.push(b'}');
}

fn track_card(out: &mut Vec<u8>, c: &TrackCard) {
    let TrackCard { card, face_up, flip_at } = c;
    out.extend_from_slice(b"{\"card\":{\"kind\":\"");
    match card {
        CardRef::Status(s) => {
            out.extend_from_slice(b"status\",\"id\":");
            status(out, *s);
        }
        CardRef::Skill(k) => {
            out.extend_from_slice(b"skill\",\"id\":");
            string(out, k);
        }
        CardRef::Consumable(k) => {
            out.extend_from_slice(b"consumable\",\"id\":");
            string(out, k);
        }
        CardRef::Tactic(k) => {
            out.extend_from_slice(b"tactic\",\"id\":");
            string(out, k);
        }
    }
    out.extend_from_slice(b"},\"face_up\":");
    bool(out, *face_up);
    out.extend_from_slice(b",\"flip_at\":");
    opt(out, flip_at.as_ref(), |out, n| uint(out, *n));
    out.push(b'}');
}

/// The Origins, a JSON array.
pub(super) fn origins_json(list_of: &[Arc<OriginState>], out: &mut Vec<u8>) {
    out.reserve(512 * list_of.len());
    list(out, list_of, |out, o| origin(o, out));
}

/// One Origin.
pub(super) fn origin(o: &Arc<OriginState>, out: &mut Vec<u8>) {
    let o: &OriginState = o;
    let OriginState {
        origin,
        level,
        hp,
        ap,
        source,
        space,
        downed,
        track: t,
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
    out.extend_from_slice(b"{\"origin\":");
    string(out, origin);
    out.extend_from_slice(b",\"level\":");
    uint(out, *level);
    out.extend_from_slice(b",\"hp\":");
    uint(out, *hp);
    out.extend_from_slice(b",\"ap\":");
    uint(out, *ap);
    out.extend_from_slice(b",\"source\":");
    uint(out, *source);
    out.extend_from_slice(b",\"space\":");
    uint(out, *space);
    out.extend_from_slice(b",\"downed\":");
    bool(out, *downed);
    out.extend_from_slice(b",\"track\":");
    track(out, t);
    out.extend_from_slice(b",\"hand\":");
    strings(out, hand);
    out.extend_from_slice(b",\"skills\":");
    strings(out, skills);
    out.extend_from_slice(b",\"talents\":");
    strings(out, talents);
    out.extend_from_slice(b",\"talents_used\":");
    strings(out, talents_used);
    out.extend_from_slice(b",\"equipped\":");
    strings(out, equipped);
    out.extend_from_slice(b",\"backpack\":");
    strings(out, backpack);
    out.extend_from_slice(b",\"summon\":");
    opt(out, summon.as_ref(), |out, s| string(out, s));
    out.extend_from_slice(b",\"collar_broken\":");
    bool(out, *collar_broken);
    out.extend_from_slice(b",\"runes\":");
    list(out, runes, |out, r| {
        let AttachedRune { rune, item, side } = r;
        out.extend_from_slice(b"{\"rune\":");
        string(out, rune);
        out.extend_from_slice(b",\"item\":");
        string(out, item);
        out.extend_from_slice(b",\"side\":");
        uint(out, *side);
        out.push(b'}');
    });
    out.push(b'}');
}

/// The enemies, a JSON array.
pub(super) fn enemies_json(list_of: &[EnemyView], out: &mut Vec<u8>) {
    out.reserve(256 * list_of.len());
    list(out, list_of, |out, e| enemy(e, out));
}

/// One enemy.
pub(super) fn enemy(e: &EnemyView, out: &mut Vec<u8>) {
    let EnemyView {
        id,
        name: printed,
        letter,
        kind,
        hp,
        max_hp,
        armor,
        space,
        fast,
        track: t,
        ap,
        tactics_left,
        special_rules,
    } = e;
    out.extend_from_slice(b"{\"id\":");
    uint(out, *id);
    out.extend_from_slice(b",\"name\":");
    string(out, printed);
    out.extend_from_slice(b",\"letter\":");
    opt(out, letter.as_ref(), |out, c| string(out, c.encode_utf8(&mut [0; 4])));
    out.extend_from_slice(b",\"kind\":");
    match kind {
        EnemyKind::Minion { card, veteran } => {
            out.extend_from_slice(b"{\"kind\":\"minion\",\"card\":");
            string(out, card);
            out.extend_from_slice(b",\"veteran\":");
            bool(out, *veteran);
        }
        EnemyKind::Boss { boss } => {
            out.extend_from_slice(b"{\"kind\":\"boss\",\"boss\":");
            string(out, boss);
        }
    }
    out.extend_from_slice(b"},\"hp\":");
    uint(out, *hp);
    out.extend_from_slice(b",\"max_hp\":");
    uint(out, *max_hp);
    out.extend_from_slice(b",\"armor\":");
    armor_view(out, armor);
    out.extend_from_slice(b",\"space\":");
    string(out, space);
    out.extend_from_slice(b",\"fast\":");
    bool(out, *fast);
    out.extend_from_slice(b",\"track\":");
    track(out, t);
    out.extend_from_slice(b",\"ap\":");
    uint(out, *ap);
    out.extend_from_slice(b",\"tactics_left\":");
    uint(out, *tactics_left);
    out.extend_from_slice(b",\"special_rules\":");
    opt(out, special_rules.as_ref(), |out, s| string(out, s));
    out.push(b'}');
}

/// The location's printed map.
pub(super) fn board_json(b: &BoardView, out: &mut Vec<u8>) {
    let BoardView { spaces, paths } = b;
    out.extend_from_slice(b"{\"spaces\":");
    list(out, spaces, |out, s| {
        let BoardSpace { space, number, name: printed, locked, multicard, environment: env } = s;
        out.extend_from_slice(b"{\"space\":");
        string(out, space);
        out.extend_from_slice(b",\"number\":");
        opt(out, number.as_ref(), |out, n| uint(out, *n));
        out.extend_from_slice(b",\"name\":");
        string(out, printed);
        out.extend_from_slice(b",\"locked\":");
        bool(out, *locked);
        out.extend_from_slice(b",\"multicard\":");
        bool(out, *multicard);
        out.extend_from_slice(b",\"environment\":");
        opt(out, env.as_ref(), |out, e| environment(out, *e));
        out.push(b'}');
    });
    out.extend_from_slice(b",\"paths\":");
    list(out, paths, |out, p| {
        let PathDef { a, b, locked } = p;
        out.extend_from_slice(b"{\"a\":");
        string(out, a);
        out.extend_from_slice(b",\"b\":");
        string(out, b);
        out.extend_from_slice(b",\"locked\":");
        bool(out, *locked);
        out.push(b'}');
    });
    out.push(b'}');
}
