//! Every action a seat may take now: candidates are generated from the
//! position and each one is tried on a copy of the state. Used for views (so
//! a client offers only legal choices), bots and the property tests.

use super::action::{DuelAction, Target};
use super::card::{Catalogue, Effect, Targeting, Terrain};
use super::state::*;
use crate::hex::Hex;
use crate::Seat;

fn targets_for(
    g: &Game,
    cat: &Catalogue,
    seat: Seat,
    targeting: &Targeting,
    effects: &[Effect],
    center: Option<Hex>,
    reach: u32,
) -> Vec<Target> {
    let hexes: Vec<Hex> = match center {
        Some(c) => g.grid.hexes().filter(|h| h.distance(c) <= reach).collect(),
        None => g.grid.hexes().collect(),
    };
    let mut base: Vec<Target> = match targeting {
        Targeting::Itself => vec![Target::default()],
        Targeting::Unit { side, owned } => g
            .units
            .iter()
            .filter(|u| center.is_none_or(|c| u.hex.distance(c) <= reach))
            .filter(|u| match side {
                super::card::Side::Any => true,
                super::card::Side::Enemy => u.controller != seat,
                super::card::Side::Friendly => u.controller == seat,
            })
            .filter(|u| !owned || u.owner == seat)
            .map(|u| Target { unit: Some(u.id), ..Default::default() })
            .collect(),
        Targeting::Hex { .. } | Targeting::WaterBody | Targeting::Relic => {
            hexes.iter().map(|h| Target { hex: Some(*h), ..Default::default() }).collect()
        }
        Targeting::Hexes { .. } => hexes.iter().map(|h| Target { hexes: vec![*h], ..Default::default() }).collect(),
    };
    for e in effects {
        match e {
            Effect::ForceMove { distance } => {
                // Every direction and distance; leaving the relic behind only
                // where it is a choice (the pusher controls a relic holder).
                let n = *distance;
                base = base
                    .into_iter()
                    .flat_map(|t| {
                        let mine = t.unit.and_then(|id| g.unit(id)).filter(|u| u.controller == seat);
                        let carry = if mine.is_some_and(|u| g.holds_relics(cat, u)) {
                            vec![None, Some(false)]
                        } else {
                            vec![None]
                        };
                        let mut out = Vec::new();
                        for d in 0..6u8 {
                            for k in 1..=n {
                                for c in &carry {
                                    out.push(Target {
                                        direction: Some(d),
                                        distance: (k < n).then_some(k),
                                        carry_relic: *c,
                                        ..t.clone()
                                    });
                                }
                            }
                        }
                        out
                    })
                    .collect();
            }
            Effect::SetTerrain { to: super::card::TerrainTo::Choose, .. }
            | Effect::SetTerrainAround { to: super::card::TerrainTo::Choose } => {
                let all = [Terrain::Plains, Terrain::Hill, Terrain::Water, Terrain::Crater];
                base = base
                    .into_iter()
                    .flat_map(|t| all.into_iter().map(move |x| Target { terrain: Some(x), ..t.clone() }))
                    .collect();
            }
            Effect::Teleport { distance } => {
                let d = *distance;
                base = base
                    .into_iter()
                    .flat_map(|t| {
                        let from = t.unit.and_then(|id| g.unit(id)).map(|u| u.hex);
                        g.grid
                            .hexes()
                            .filter(move |h| from.is_some_and(|f| h.distance(f) <= d))
                            .map(move |h| Target { dest: Some(h), ..t.clone() })
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            Effect::SummonCopy | Effect::ShiftRelic => {
                base = base
                    .into_iter()
                    .flat_map(|t| {
                        let from = t.hex.or(center);
                        from.into_iter()
                            .flat_map(|f| f.neighbors())
                            .map(move |h| Target { dest: Some(h), ..t.clone() })
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            Effect::GrowWater => {
                base = base
                    .into_iter()
                    .flat_map(|t| {
                        let from = t.hex;
                        from.into_iter()
                            .flat_map(|f| f.neighbors())
                            .map(move |h| Target { hexes: vec![h], ..t.clone() })
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            _ => {}
        }
    }
    base
}

/// Candidate actions for `seat`, before checking them.
fn candidates(state: &DuelState, cat: &Catalogue, seat: Seat) -> Vec<DuelAction> {
    let g = &state.game;
    let mut v = Vec::new();
    match g.phase {
        Phase::Finished { .. } => return v,
        Phase::Creation => {
            v.extend(cat.presets.iter().map(|p| DuelAction::UsePreset { preset: p.id.clone() }));
            return v;
        }
        Phase::Command => {}
    }
    v.push(DuelAction::Pass);
    v.push(DuelAction::OfferDraw);
    v.push(DuelAction::AcceptDraw);
    v.push(DuelAction::DeclineDraw);
    v.push(DuelAction::DiscardDi { count: 1 });
    if let Some(c) = g.casualties.first() {
        v.extend(c.candidates.iter().map(|u| DuelAction::ChooseCasualty { unit: *u }));
    }
    if g.relic_choice.is_some() {
        v.extend([true, false].map(|carry| DuelAction::CarryRelic { carry }));
    }
    if let Some(top) = g.players[seat as usize].di_stack.first().and_then(|id| cat.di_card(id)) {
        // Timing hints: now, or at the start of the current activation (the
        // view's `checkpoints` tells a client about the moments in between).
        let ats: Vec<Option<usize>> =
            if seat != g.active && g.activation.is_some() { vec![None, Some(0)] } else { vec![None] };
        for t in targets_for(g, cat, seat, &top.target, &top.effects, None, 0) {
            for at in &ats {
                v.push(DuelAction::CastDi { target: t.clone(), at: *at });
            }
        }
    }
    if seat == g.active {
        v.push(DuelAction::EndActivation);
        v.push(DuelAction::EndActivations);
        v.push(DuelAction::EndTurn);
        for (i, a) in g.players[seat as usize].alphas.iter().enumerate() {
            let hexes: Vec<Hex> = if g.deploys_anywhere(cat, seat, i) {
                g.grid.hexes().collect()
            } else {
                g.summoning_hexes[seat as usize].clone()
            };
            let _ = a;
            v.extend(hexes.into_iter().map(|hex| DuelAction::Summon { alpha: i, hex, figure: None }));
        }
        v.extend(g.units.iter().filter(|u| u.controller == seat).map(|u| DuelAction::Activate { unit: u.id }));
        if let Some(act) = g.activation.as_ref().filter(|a| !a.ended) {
            if let Some(u) = g.unit(act.unit) {
                // Leaving a relic behind is a choice only for a one-hex move
                // (a relic never goes two hexes).
                let holds = g.holds_relics(cat, u);
                for h in g.grid.hexes().filter(|h| h.distance(u.hex) <= 2) {
                    v.push(DuelAction::Move { to: h, carry_relic: None });
                    if holds && h.is_adjacent(u.hex) {
                        v.push(DuelAction::Move { to: h, carry_relic: Some(false) });
                    }
                }
                for o in g.units.iter().filter(|o| o.hex.is_adjacent(u.hex)) {
                    v.push(DuelAction::PassRelic { to: o.id });
                }
                for id in &g.alpha_of(u).design.cards {
                    let Some(card) = cat.card(id) else { continue };
                    let reach = card.range.map_or(0, |r| r.max);
                    for (pi, p) in card.powers.iter().enumerate() {
                        for t in targets_for(g, cat, seat, &p.target, &p.effects, Some(u.hex), reach) {
                            v.push(DuelAction::UsePower { card: id.clone(), power: pi, target: t });
                        }
                    }
                }
            }
        }
    }
    v
}

/// The actions `seat` may take now, each checked against the rules: every
/// distinct choice once, in its shortest form (a field at its default is left
/// out). Left out on purpose (protocol/DUEL.md, "What `legal` lists"): `resign`
/// and `set_auto_pass` (always accepted), `create` (any valid design),
/// `discard_di` of more than one card, a `figure` named at a first summon, and
/// `cast_di` timed at checkpoints after the first (`at` 1 and on).
pub fn legal_actions(state: &DuelState, cat: &Catalogue, seat: Seat) -> Vec<DuelAction> {
    candidates(state, cat, seat)
        .into_iter()
        .filter(|a| {
            let mut copy = state.clone();
            copy.act(cat, seat, a.clone()).is_ok()
        })
        .collect()
}
