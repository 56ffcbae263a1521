//! Every action a seat may take now: candidates are generated from the
//! position and each one is tried on a copy of the state. Used for views (so
//! a client offers only legal choices), bots and the property tests.

use super::action::{DuelAction, HexChoice, Target};
use super::awaiting::Awaiting;
use super::card::{Catalogue, Effect, Targeting, Terrain};
use super::mechanics::Cx;
use super::power::Source;
use super::state::*;
use crate::hex::Hex;
use crate::Seat;

fn targets_for(
    g: &Battle,
    cat: &Catalogue,
    seat: Seat,
    targeting: &Targeting,
    effects: &[Effect],
    center: Option<Hex>,
    reach: u32,
) -> Vec<Target> {
    let hexes = || -> Vec<Hex> {
        match center {
            Some(c) => g.grid.hexes_within(c, reach).collect(),
            None => g.grid.hexes().collect(),
        }
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
            hexes().into_iter().map(|h| Target { hex: Some(h), ..Default::default() }).collect()
        }
        // "Up to N hexes" is one entry to choose from, not one per hex
        // (Flood: 1 to N distinct hexes, L1469-1471).
        Targeting::Hexes { count } => vec![Target {
            choose: Some(HexChoice { from: hexes(), up_to: *count, at_least: 1, next_to_distinct: vec![] }),
            ..Default::default()
        }],
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
                        from.into_iter()
                            .flat_map(|f| g.grid.hexes_within(f, d))
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
                // Tsunami: one entry per named water hex; each water hex of
                // its body may add one hex next to it (L1729-1734, facts
                // rule 156), none at all included ("may").
                for t in &mut base {
                    t.choose = t.hex.map(|h| growth(g, h));
                }
            }
            _ => {}
        }
    }
    base
}

/// Tsunami's choice on `g` for the body named by `hex`: the hexes next to
/// the body that are not water, each next to a different water hex of it.
fn growth(g: &Battle, hex: Hex) -> HexChoice {
    let body = water_body(g, hex);
    let mut from: Vec<Hex> = body
        .iter()
        .flat_map(|b| b.neighbors())
        .filter(|n| g.grid.contains(*n) && g.grid.terrain(*n) != Some(Terrain::Water))
        .collect();
    from.sort();
    from.dedup();
    HexChoice { from, up_to: body.len() as u32, at_least: 0, next_to_distinct: body }
}

/// The connected water hexes around `seed` (none if it is not water).
fn water_body(g: &Battle, seed: Hex) -> Vec<Hex> {
    if g.grid.terrain(seed) != Some(Terrain::Water) {
        return Vec::new();
    }
    let mut body = vec![seed];
    let mut todo = vec![seed];
    while let Some(h) = todo.pop() {
        for n in h.neighbors() {
            if g.grid.terrain(n) == Some(Terrain::Water) && !body.contains(&n) {
                body.push(n);
                todo.push(n);
            }
        }
    }
    body.sort();
    body
}

/// A candidate as listed, given which sent actions are `accepted`: an
/// ordinary one if accepted; a choice entry (`target.choose`) with its
/// `from` cut to the hexes accepted one at a time and `up_to` to their
/// number, listed if a choice of its least count is then possible (for a
/// least count of 0, if casting with no hex is accepted). Which choices of
/// several hexes are accepted follows from the entry's rule
/// ([`HexChoice::allows`]); the oracle test tries them.
fn settle(a: &mut DuelAction, accept: impl Fn(&DuelAction) -> bool) -> bool {
    let Some(c) = a.hex_choice() else { return accept(a) };
    let from: Vec<Hex> =
        c.from.iter().copied().filter(|h| a.with_hexes(vec![*h]).is_some_and(|x| accept(&x))).collect();
    let up_to = c.up_to.min(from.len() as u32);
    let listed = match c.at_least {
        0 => a.with_hexes(vec![]).is_some_and(|x| accept(&x)),
        n => n <= up_to,
    };
    let choice = HexChoice { from, up_to, ..c.clone() };
    if let DuelAction::CastDi { target, .. } | DuelAction::UsePower { target, .. } = a {
        target.choose = Some(choice);
    }
    listed
}

/// Which candidates to generate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Candidates {
    /// Every one: the oracle's list.
    All,
    /// Without the powers the unit cannot pay for (no target could pass),
    /// the Alphas the player cannot pay for and the hexes that hold a unit
    /// (no summon or move there could pass: each refusal would also word a
    /// message), and the turn's actions the judge refuses from the state
    /// alone (see `candidates`).
    Payable,
}

/// Candidate actions for `seat`, before checking them.
fn candidates(state: &DuelState, cat: &Catalogue, seat: Seat, which: Candidates) -> Vec<DuelAction> {
    let g = &state.game;
    // Room for a turn's usual list (grown a few times otherwise).
    let mut v = Vec::with_capacity(64);
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
        let grows = top.effects.iter().any(|e| matches!(e, Effect::GrowWater));
        for t in targets_for(g, cat, seat, &top.target, &top.effects, None, 0) {
            for at in &ats {
                let mut t = t.clone();
                // A timed DI resolves on the game at that checkpoint: the
                // body a Tsunami grows is that game's.
                if let (Some(then), Some(h), true) = (at.and_then(|k| state.checkpoints.get(k)), t.hex, grows) {
                    t.choose = Some(growth(then, h));
                }
                v.push(DuelAction::CastDi { target: t, at: *at });
            }
        }
    }
    // What the judge refuses before any check of its own (`Judge::verdict`):
    // every turn action while the game waits for another answer, a summon
    // while an activation runs or after the turn's summon, an activation
    // outside the activation step, while one runs, or of a unit activated
    // or summoned this turn, and a move to a hex that holds a unit.
    let all = which == Candidates::All;
    let turn = all || matches!(Awaiting::of(state), Awaiting::Turn(_));
    let summons = all || (g.activation.is_none() && g.step != Step::Summoning { summoned: true });
    let activations = all || (g.activation.is_none() && g.step == Step::Activation);
    if seat == g.active && turn {
        v.push(DuelAction::EndActivation);
        v.push(DuelAction::EndActivations);
        v.push(DuelAction::EndTurn);
        for (i, a) in g.players[seat as usize].alphas.iter().enumerate().filter(|_| summons) {
            let payable = which == Candidates::All || g.can_pay(seat, a.cost, g.max_points);
            if !payable {
                continue;
            }
            let hexes: Vec<Hex> = if g.deploys_anywhere(cat, seat, i) {
                g.grid.hexes().collect()
            } else {
                g.summoning_hexes[seat as usize].clone()
            };
            let free = |h: &Hex| which == Candidates::All || g.unit_at(*h).is_none();
            v.extend(hexes.into_iter().filter(free).map(|hex| DuelAction::Summon { alpha: i, hex, figure: None }));
        }
        let may_activate =
            |u: &&Unit| all || (activations && u.activated_turn != Some(g.turn) && u.summoned_turn != g.turn);
        v.extend(
            g.units
                .iter()
                .filter(|u| u.controller == seat)
                .filter(may_activate)
                .map(|u| DuelAction::Activate { unit: u.id }),
        );
        if let Some(act) = g.activation.as_ref().filter(|a| !a.ended) {
            if let Some(u) = g.unit(act.unit) {
                // Leaving a relic behind is a choice only for a one-hex move
                // (a relic never goes two hexes).
                let holds = g.holds_relics(cat, u);
                for h in g.grid.hexes_within(u.hex, 2).filter(|h| all || g.unit_at(*h).is_none()) {
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
                        if which == Candidates::Payable && state.check_power_cost(cat, seat, id, pi).is_err() {
                            continue;
                        }
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
/// `cast_di` timed at checkpoints after the first (`at` 1 and on). An effect
/// on "up to N hexes" (Flood, Tsunami) is one entry whose `target.choose`
/// says which hexes may be chosen (see [`settle`]); the client sends it with
/// the chosen `hexes` ([`DuelAction::with_hexes`]).
///
/// Each candidate is first judged from the state by the same checks `apply`
/// makes (which seat the game waits for, the activation's check and plan
/// functions, the target check); only those whose outcome still depends on
/// their effects are tried on a copy. [`legal_by_trial`] tries every one and
/// is the oracle the property tests hold this list equal to.
pub fn legal_actions(state: &DuelState, cat: &Catalogue, seat: Seat) -> Vec<DuelAction> {
    if state.game.phase != Phase::Command || seat > 1 {
        return legal_by_trial(state, cat, seat);
    }
    let judge = Judge { state, cx: Cx::trial(cat), seat };
    // One copy for every trial, copied over from the state each time.
    let copy: std::cell::RefCell<Option<DuelState>> = std::cell::RefCell::new(None);
    let accept = |a: &DuelAction| match judge.verdict(a) {
        Verdict::Accepted => true,
        Verdict::Refused => false,
        Verdict::Try => {
            let mut copy = copy.borrow_mut();
            let copy = match &mut *copy {
                Some(c) => {
                    c.clone_from(state);
                    c
                }
                None => copy.insert(state.clone()),
            };
            copy.try_act(cat, seat, a.clone()).is_ok()
        }
    };
    let mut listed = candidates(state, cat, seat, Candidates::Payable);
    listed.retain_mut(|a| settle(a, accept));
    listed
}

/// The same list, each candidate tried on a copy of the state: slow, and
/// right by construction.
pub fn legal_by_trial(state: &DuelState, cat: &Catalogue, seat: Seat) -> Vec<DuelAction> {
    let mut listed = candidates(state, cat, seat, Candidates::All);
    listed.retain_mut(|a| settle(a, |x| accepted(state, cat, seat, x)));
    listed
}

/// The oracle's trial: the whole of `act`, nothing skipped (the fast list's
/// trials use `try_act`, which the oracle test holds to this).
fn accepted(state: &DuelState, cat: &Catalogue, seat: Seat, a: &DuelAction) -> bool {
    let mut copy = state.clone();
    copy.act(cat, seat, a.clone()).is_ok()
}

/// What the state alone says about a candidate.
enum Verdict {
    Accepted,
    Refused,
    /// The checks pass; the effects may still refuse it.
    Try,
}

fn known(ok: bool) -> Verdict {
    if ok {
        Verdict::Accepted
    } else {
        Verdict::Refused
    }
}

fn worth_trying(ok: bool) -> Verdict {
    if ok {
        Verdict::Try
    } else {
        Verdict::Refused
    }
}

/// Judges candidates in the Command Phase in the order `apply` does
/// (`turn.rs`, `command`): the actions open at any time, then whatever the
/// game waits for (a casualty, a relic choice, an answer to a DI, a response
/// window), then the active seat's turn.
struct Judge<'a> {
    state: &'a DuelState,
    cx: Cx<'a>,
    seat: Seat,
}

impl Judge<'_> {
    fn verdict(&self, a: &DuelAction) -> Verdict {
        let (s, seat) = (self.state, self.seat);
        let g = &s.game;
        match a {
            DuelAction::OfferDraw => return known(s.draw_offer.is_none()),
            DuelAction::AcceptDraw | DuelAction::DeclineDraw => return known(s.draw_offer == Some(1 - seat)),
            DuelAction::DiscardDi { count } => {
                return known(*count >= 1 && *count <= g.players[seat as usize].di_stack.len())
            }
            _ => {}
        }
        match Awaiting::of(s) {
            Awaiting::Casualty(chooser) => {
                return match a {
                    DuelAction::ChooseCasualty { unit } => {
                        known(chooser == seat && g.casualties[0].candidates.contains(unit))
                    }
                    _ => Verdict::Refused,
                };
            }
            Awaiting::RelicChoice(chooser) => {
                return match a {
                    DuelAction::CarryRelic { .. } => worth_trying(chooser == seat),
                    _ => Verdict::Refused,
                };
            }
            Awaiting::DiAnswer(responder) => {
                return match a {
                    _ if seat != responder => Verdict::Refused,
                    DuelAction::CastDi { target, at: None } => self.di(target, None),
                    DuelAction::Pass => Verdict::Accepted,
                    _ => Verdict::Refused,
                };
            }
            Awaiting::Window(w) => {
                return match a {
                    _ if seat != w => Verdict::Refused,
                    DuelAction::CastDi { target, at } => self.di(target, *at),
                    DuelAction::Pass => Verdict::Accepted,
                    _ => Verdict::Refused,
                };
            }
            Awaiting::Turn(_) | Awaiting::Creation(_) | Awaiting::Finished(_) => {}
        }
        if let DuelAction::CastDi { target, at } = a {
            return self.di(target, *at);
        }
        if seat != g.active {
            return Verdict::Refused;
        }
        match a {
            // What most candidates fail on, told without the refusal's
            // words (`check_activate` and `plan_move` word theirs).
            DuelAction::Activate { .. } if g.activation.is_some() || g.step != Step::Activation => Verdict::Refused,
            DuelAction::Activate { unit }
                if g.unit(*unit).is_some_and(|u| u.activated_turn == Some(g.turn) || u.summoned_turn == g.turn) =>
            {
                Verdict::Refused
            }
            DuelAction::Activate { unit } => known(s.check_activate(seat, *unit).is_ok()),
            DuelAction::Move { to, .. } if g.unit_at(*to).is_some() => Verdict::Refused,
            DuelAction::Move { to, .. } => known(s.plan_move(self.cx.cat, seat, *to).is_ok()),
            DuelAction::UsePower { card, power, target } => {
                worth_trying(s.check_power(&self.cx, seat, card, *power, target).is_ok())
            }
            DuelAction::Summon { alpha, hex, figure } => {
                known(s.check_summon(self.cx.cat, seat, *alpha, *hex, *figure).is_ok())
            }
            DuelAction::EndTurn => known(g.activation.is_none()),
            DuelAction::EndActivations => known(g.activation.is_none() && g.step == Step::Activation),
            DuelAction::EndActivation => known(
                g.activation
                    .as_ref()
                    .is_some_and(|act| !act.ended && g.unit(act.unit).is_none_or(|u| u.controller == seat)),
            ),
            DuelAction::Pass | DuelAction::ChooseCasualty { .. } | DuelAction::CarryRelic { .. } => Verdict::Refused,
            _ => Verdict::Try,
        }
    }

    /// A Divine Intervention cast now (`at` none) or timed back to a
    /// checkpoint of the activation: the stack, the one-per-turn limit, the
    /// timing, and the top card's target on the game it would resolve in.
    fn di(&self, target: &Target, at: Option<usize>) -> Verdict {
        let (s, seat) = (self.state, self.seat);
        let g = &s.game;
        let now = &g.players[seat as usize];
        if now.di_stack.is_empty() || now.di_cast_turn == Some(g.turn) {
            return Verdict::Refused;
        }
        let (game, top) = match at {
            None => (g, now.di_stack.first()),
            Some(k) => {
                if seat == g.active || g.activation.is_none() || k >= s.checkpoints.len() {
                    return Verdict::Refused;
                }
                // The rewind puts back what was cast since, never a discard.
                let then = &*s.checkpoints[k];
                (then, then.players[seat as usize].di_stack.iter().find(|c| !now.discarded.contains(c)))
            }
        };
        let Some(card) = top.and_then(|id| self.cx.cat.di_card(id)) else { return Verdict::Try };
        let src = Source { seat, actor: None, range: None, di: None };
        worth_trying(game.resolve_target(&self.cx, src, &card.target, None, target).is_ok())
    }
}
