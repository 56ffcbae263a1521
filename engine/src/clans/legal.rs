//! Every action a seat may take now, judged from the state
//! ([`legal_actions`]), and the oracle that tries every candidate on a copy
//! ([`legal_by_trial`]); a property test holds the two equal. `Resign` is
//! always possible for a seat still in and is left out of both lists.

use super::action::ClansAction as A;
use super::content::{Card, Catalogue, ItemEffect, Kind, Lasts, Timing};
use super::grid::{Pos, Terrain};
use super::state::{ClansState, Figure, Phase};
use crate::Seat;

/// The legal list, sorted.
pub fn legal_actions(s: &ClansState, cat: &Catalogue, seat: Seat) -> Vec<A> {
    let mut out = Vec::new();
    let Some(p) = s.players.get(seat as usize) else { return out };
    if p.out || s.finished() {
        return out;
    }
    if s.phase == Phase::Placement {
        if p.homebase.is_none() {
            for hb in
                s.field.all().filter(|h| s.field.on_side(seat, *h) && s.field.at(*h).is_some_and(Terrain::passable))
            {
                if !s.field.connected(&[hb]) {
                    continue;
                }
                for g in hb.neighbours() {
                    if s.field.on_side(seat, g) && s.field.at(g).is_some_and(Terrain::passable) {
                        out.push(A::Place { homebase: hb, god: g });
                    }
                }
            }
        }
        out.sort();
        return out;
    }
    if let Some(&w) = s.window.first() {
        if w == seat {
            out.push(A::Pass);
            for f in s.figures.iter().filter(|f| f.owner == seat && !f.ot_used) {
                abilities(s, cat, f, Timing::Ot, &mut out);
            }
        }
        out.sort();
        return out;
    }
    if seat != s.active {
        return out;
    }
    out.push(A::EndTurn);
    let home = p.homebase.expect("placed");
    for card in &p.allies {
        let ally = cat.card(card).and_then(Card::ally).expect("ally");
        if ally.sp > p.sp {
            continue;
        }
        for at in home.neighbours() {
            if s.field.at(at).is_some_and(Terrain::passable) && !s.is_homebase(at) && s.figure_at(at).is_none() {
                out.push(A::Summon { card: card.clone(), at });
            }
        }
    }
    let mine: Vec<&Figure> = s.figures.iter().filter(|f| f.owner == seat).collect();
    let ready = |f: &Figure| f.summoned_turn != s.turn && !f.done;
    for f in mine.iter().filter(|f| ready(f)) {
        for (to, _) in s.reach(cat, f) {
            out.push(A::Move { figure: f.id, to });
        }
        let range = s.stat(cat, f, super::content::Stat::Range);
        for e in s.figures.iter().filter(|e| s.enemies(seat, e.owner) && e.pos.dist(f.pos) <= range) {
            out.push(A::Attack { figure: f.id, target: e.id });
        }
        abilities(s, cat, f, Timing::Pt, &mut out);
    }
    let affordable = |sp: i32, exp: i32| p.sp >= sp && p.exp >= exp;
    for card in &p.tactics {
        let c = cat.card(card).expect("deck card");
        match &c.kind {
            Kind::Equipment(e) => {
                if !p.assimilated {
                    out.push(A::Assimilate { card: card.clone() });
                }
                if affordable(e.sp, e.exp) {
                    for f in mine.iter().filter(|f| f.equipment.is_none()) {
                        out.push(A::Equip { card: card.clone(), figure: f.id });
                    }
                }
            }
            Kind::Item(it) if affordable(it.sp, it.exp) => {
                for t in &s.figures {
                    let ok = match &it.effect {
                        ItemEffect::Damage { .. } => s.enemies(seat, t.owner),
                        ItemEffect::Heal { .. } => t.owner == seat && t.hp < ClansState::max_hp(cat, t),
                        ItemEffect::Boost { lasts, .. } => t.owner == seat && (*lasts == Lasts::Turn || !t.done),
                        ItemEffect::Cure => t.owner == seat && !t.statuses.is_empty(),
                    };
                    if ok {
                        out.push(A::Item { card: card.clone(), target: t.id });
                    }
                }
            }
            Kind::RunicArt(art) if affordable(art.sp, art.exp) => {
                let able: Vec<&&Figure> = mine.iter().filter(|f| f.summoned_turn != s.turn && !f.acted).collect();
                for t in s.figures.iter().filter(|t| s.enemies(seat, t.owner)) {
                    let near = |f: &Figure| f.pos.dist(t.pos) <= s.stat(cat, f, super::content::Stat::Range);
                    for c1 in able.iter().filter(|f| near(f)) {
                        for c2 in able.iter().filter(|f| near(f) && f.id != c1.id) {
                            let [k1, k2] = art.classes;
                            let fits = (s.has_class(cat, c1, k1) && s.has_class(cat, c2, k2))
                                || (s.has_class(cat, c1, k2) && s.has_class(cat, c2, k1));
                            if fits {
                                out.push(A::RunicArt {
                                    card: card.clone(),
                                    caster: c1.id,
                                    partner: c2.id,
                                    target: t.id,
                                });
                            }
                        }
                    }
                }
            }
            Kind::Terrain(t) if affordable(t.sp, t.exp) && !p.terrain.contains(&t.effect) => {
                out.push(A::Terrain { card: card.clone() });
            }
            _ => {}
        }
    }
    out.sort();
    out
}

fn abilities(s: &ClansState, cat: &Catalogue, f: &Figure, timing: Timing, out: &mut Vec<A>) {
    let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
    let sp = s.players[f.owner as usize].sp;
    for (i, ab) in ally.abilities.iter().enumerate() {
        if ab.timing != timing || ab.sp > sp {
            continue;
        }
        for target in s.ability_targets(cat, f, &ab.effect) {
            out.push(if timing == Timing::Ot {
                A::Respond { figure: f.id, ability: i as u8, target }
            } else {
                A::Ability { figure: f.id, ability: i as u8, target }
            });
        }
    }
}

/// The oracle: every [`candidates`] action tried on a copy; the accepted
/// ones, sorted.
pub fn legal_by_trial(s: &ClansState, cat: &Catalogue, seat: Seat) -> Vec<A> {
    let mut out: Vec<A> = candidates(s, cat, seat)
        .into_iter()
        .filter(|a| {
            let mut copy = s.clone();
            copy.act(cat, seat, a.clone()).is_ok()
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Every action of every kind but `Resign` that could name something of
/// this game: all tiles (and one off the field), all figures (and the next,
/// unused id), all of the seat's clan's cards, abilities 0 to 2. A superset
/// of the legal list: what the oracle tries.
pub fn candidates(s: &ClansState, cat: &Catalogue, seat: Seat) -> Vec<A> {
    let mut cands = vec![A::EndTurn, A::Pass];
    let tiles: Vec<Pos> = s.field.all().chain([Pos(-1, 0)]).collect();
    let mut ids: Vec<u32> = s.figures.iter().map(|f| f.id).collect();
    ids.push(s.next_figure);
    let cards: Vec<&Card> = s
        .players
        .get(seat as usize)
        .and_then(|p| cat.clan(&p.clan))
        .map(|c| c.cards.iter().collect())
        .unwrap_or_default();
    if s.phase == Phase::Placement {
        for &h in &tiles {
            for g in h.neighbours().chain([h]) {
                cands.push(A::Place { homebase: h, god: g });
            }
        }
    }
    for c in &cards {
        for &at in &tiles {
            cands.push(A::Summon { card: c.id.clone(), at });
        }
        cands.push(A::Assimilate { card: c.id.clone() });
        cands.push(A::Terrain { card: c.id.clone() });
        for &f in &ids {
            cands.push(A::Equip { card: c.id.clone(), figure: f });
            cands.push(A::Item { card: c.id.clone(), target: f });
            if matches!(c.kind, Kind::RunicArt(_)) {
                for &g in &ids {
                    for &t in &ids {
                        cands.push(A::RunicArt { card: c.id.clone(), caster: f, partner: g, target: t });
                    }
                }
            }
        }
    }
    for &f in &ids {
        for &to in &tiles {
            cands.push(A::Move { figure: f, to });
        }
        for &t in &ids {
            cands.push(A::Attack { figure: f, target: t });
            for i in 0..3 {
                cands.push(A::Ability { figure: f, ability: i, target: t });
                cands.push(A::Respond { figure: f, ability: i, target: t });
            }
        }
    }
    cands
}
