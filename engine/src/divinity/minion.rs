//! Minions: their cards (standard and Veteran sides) and their AI exactly as
//! written (L1614-1699): the targeting die, the special targeting table,
//! moving to maximum range by the shortest route, preferring the route that
//! ends furthest from the other Origins, and DIFFICULT TERRAIN.

use crate::divinity::DivinityRefusal;

use super::action::Aim;
use super::content::Catalogue;

use super::dice::TargetingFace;
use super::enemy_roll::EnemyStrike;
use super::err;
use super::event::DivinityEvent as Ev;
use super::map::{Graph, SpaceIx};
use super::state::*;
use crate::RuleError;

pub use super::content::{MinionCard, MinionStats, TargetRule};

/// Someone a minion may target: a standing, visible Origin or a DOMINATED minion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub space: SpaceIx,
    pub hp: u32,
    pub physical_armor: u32,
    pub magical_armor: u32,
    pub source: u32,
}

/// Pick a target (index into `cands`). Ties go to the first candidate in
/// party order (ASSUMPTIONS.md, "Party choices"); [`tied_targets`] lists
/// them all when the party is to choose (L1623).
pub fn choose_target(
    graph: &Graph,
    me: SpaceIx,
    face: TargetingFace,
    rule: TargetRule,
    cands: &[Candidate],
) -> Option<usize> {
    tied_targets(graph, me, face, rule, cands).first().copied()
}

/// Every candidate that qualifies equally (indices into `cands`, in order).
pub fn tied_targets(
    graph: &Graph,
    me: SpaceIx,
    face: TargetingFace,
    rule: TargetRule,
    cands: &[Candidate],
) -> Vec<usize> {
    if cands.is_empty() {
        return Vec::new();
    }
    let rule = match face {
        TargetingFace::Closest => TargetRule::Closest,
        TargetingFace::Special => rule,
    };
    let dist = graph.distances(me);
    let far = u32::MAX;
    let key = |c: &Candidate| -> i64 {
        match rule {
            TargetRule::Closest => -(dist[c.space].unwrap_or(far) as i64),
            TargetRule::MostHp => c.hp as i64,
            TargetRule::LeastHp => -(c.hp as i64),
            TargetRule::MostPhysicalArmor => c.physical_armor as i64,
            TargetRule::LeastPhysicalArmor => -(c.physical_armor as i64),
            TargetRule::MostMagicalArmor => c.magical_armor as i64,
            TargetRule::LeastMagicalArmor => -(c.magical_armor as i64),
            TargetRule::MostSource => c.source as i64,
            TargetRule::LeastSource => -(c.source as i64),
            TargetRule::MostOriginsSpace => cands.iter().filter(|o| o.space == c.space).count() as i64,
            TargetRule::FewestOriginsSpace => -(cands.iter().filter(|o| o.space == c.space).count() as i64),
        }
    };
    let best = cands.iter().map(key).max().expect("candidates");
    (0..cands.len()).filter(|&i| key(&cands[i]) == best).collect()
}

/// Where a minion (or Boss) moves: the spaces it enters, in order, on the
/// route [`plan_moves`] lists first (the fixed choice when the party does
/// not choose).
pub fn plan_move(
    graph: &Graph,
    from: SpaceIx,
    target: SpaceIx,
    range: u32,
    movement: u32,
    ignore_difficult: bool,
    others: &[SpaceIx],
) -> Vec<SpaceIx> {
    plan_moves(graph, from, target, range, movement, ignore_difficult, others).into_iter().next().unwrap_or_default()
}

/// Every route a minion (or Boss) may take, each the spaces it enters in
/// order: to a space at exactly `range` from the target by a least-cost
/// route, stopping when its movement runs out or it can't pay for a
/// DIFFICULT TERRAIN space (L1681-1691); only the routes that end furthest
/// from the other Origins (`others`) are kept. More than one left: the
/// party chooses (L1689). Listed lowest end space first.
pub fn plan_moves(
    graph: &Graph,
    from: SpaceIx,
    target: SpaceIx,
    range: u32,
    movement: u32,
    ignore_difficult: bool,
    others: &[SpaceIx],
) -> Vec<Vec<SpaceIx>> {
    let to_target = graph.distances(target);
    let Some(d0) = to_target[from] else {
        return vec![Vec::new()];
    };
    if d0 == range || movement == 0 {
        return vec![Vec::new()];
    }
    let costs = graph.costs(from, ignore_difficult);
    let reachable: Vec<SpaceIx> = (0..graph.len()).filter(|&s| costs[s].is_some() && to_target[s].is_some()).collect();
    // Spaces at max range; if none exists, the ones closest to it (ASSUMPTIONS.md).
    let miss = |s: SpaceIx| to_target[s].unwrap().abs_diff(range);
    let best_miss = reachable.iter().map(|&s| miss(s)).min().unwrap_or(0);
    if best_miss >= d0.abs_diff(range) {
        return vec![Vec::new()];
    }
    let goals: Vec<SpaceIx> = reachable.iter().copied().filter(|&s| miss(s) == best_miss).collect();
    let best_cost = goals.iter().map(|&s| costs[s].unwrap()).min().unwrap();
    let mut options: Vec<Vec<SpaceIx>> = Vec::new();
    for &g in goals.iter().filter(|&&s| costs[s] == Some(best_cost)) {
        for route in graph.cheapest_routes(from, g, ignore_difficult) {
            let mut left = movement;
            let mut walked = Vec::new();
            for s in route {
                let c = graph.enter_cost(s, ignore_difficult);
                if c > left {
                    break;
                }
                left -= c;
                walked.push(s);
            }
            if !options.contains(&walked) {
                options.push(walked);
            }
        }
    }
    let score = |walked: &Vec<SpaceIx>| {
        let end = walked.last().copied().unwrap_or(from);
        let d = graph.distances(end);
        let ds: Vec<u32> = others.iter().map(|&o| d[o].unwrap_or(1000)).collect();
        let min = ds.iter().copied().min().unwrap_or(1000);
        let sum: u32 = ds.iter().sum();
        (min, sum)
    };
    let Some(best) = options.iter().map(score).max() else { return vec![Vec::new()] };
    let mut tied: Vec<Vec<SpaceIx>> = options.into_iter().filter(|w| score(w) == best).collect();
    // Among routes to the same space, the one found last first (the former fixed choice).
    tied.reverse();
    tied.sort_by_key(|w| w.last().copied().unwrap_or(from));
    tied
}

impl DivinityState {
    /// A minion's turn (L381-387, L1614-1699).
    pub(super) fn minion_turn(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) {
        if self.ask_turn_start_order(cat, id, ev) {
            return;
        }
        self.start_of_turn(cat, Who::Enemy(id), ev);
        self.minion_turn_on(cat, id, ev);
    }

    /// A minion's turn after its start-of-turn effects.
    pub(super) fn minion_turn_on(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let Some(e) = self.enemy(id) else { return };
        let EnemyKind::Minion { card, veteran } = e.kind.clone() else { return };
        let stats = cat.minions[&card].side(veteran).clone();
        if self.has_status(cat, me, |r| r.skips_turn) {
            self.slide_enemy(id, ev);
            return;
        }
        let from = e.space;
        // A DOMINATED minion rolls no targeting die: the party picks its target (L1735).
        if self.has_status(cat, me, |r| r.dominated) {
            self.wait_for(Choice::Command { enemy: id });
            return;
        }
        let (n, face) = cat.dice.roll_targeting(&mut self.rng);
        let (who, cands) = self.candidates(cat, id);
        let tied = self.with_graph(cat, |g| tied_targets(g, from, face, stats.targeting, &cands));
        if tied.len() > 1 && self.options.party_breaks_ties {
            let options: Vec<Who> = tied.iter().map(|i| who[*i]).collect();
            ev.push(Ev::TieToBreak { enemy: id, options: options.clone() });
            self.wait_for(Choice::Tie(TieChoice { enemy: id, options, tactic: None, face: n }));
            return;
        }
        let target = tied.first().map(|i| who[*i]);
        if let Some(t) = target {
            ev.push(Ev::Targeted { enemy: id, target: t, face: n });
        }
        let others = target.map(|t| self.route_others(t)).unwrap_or_default();
        self.minion_act(cat, id, target, &others, ev);
    }

    /// The rest of a minion's turn once it has a target (L385-387): move to
    /// max range, attack if in range or heal its level, slide.
    pub(super) fn minion_act(
        &mut self,
        cat: &Catalogue,
        id: u32,
        target: Option<Who>,
        others: &[SpaceIx],
        ev: &mut Vec<Ev>,
    ) {
        let me = Who::Enemy(id);
        let Some(EnemyKind::Minion { card, veteran }) = self.enemy(id).map(|e| e.kind.clone()) else { return };
        let stats = cat.minions[&card].side(veteran).clone();
        let from = self.enemy(id).unwrap().space;
        let level = stats.level;
        let Some(target) = target else {
            // No one to target: no move, no attack, heal its level (G22).
            self.heal(cat, me, level, ev);
            self.slide_enemy(id, ev);
            return;
        };
        let tspace = self.space_of(target).unwrap();
        // An immovable minion can't be prevented from moving (L708).
        let pinned = self.has_status(cat, me, |r| r.blocks_moving) && !self.immovable(cat, me);
        let movement = if pinned { 0 } else { stats.movement };
        let walks = self.with_graph(cat, |g| plan_moves(g, from, tspace, stats.attack.range, movement, false, others));
        if walks.len() > 1 && self.options.party_breaks_ties {
            let routes: Vec<Vec<String>> =
                walks.iter().map(|w| w.iter().map(|&s| self.space_id(cat, s)).collect()).collect();
            ev.push(Ev::RouteToChoose { enemy: id, routes: routes.clone() });
            self.wait_for(Choice::Route(RouteChoice { enemy: id, target, routes, tactic: None }));
            return;
        }
        let walk = walks.into_iter().next().unwrap_or_default();
        self.minion_move_and_attack(cat, id, target, &walk, ev);
    }

    /// A minion on its chosen route, then its attack if in range or a heal
    /// of its level (L385-387), then its slide.
    pub(super) fn minion_move_and_attack(
        &mut self,
        cat: &Catalogue,
        id: u32,
        target: Who,
        walk: &[SpaceIx],
        ev: &mut Vec<Ev>,
    ) {
        if self.space_of(target).is_none() {
            return;
        }
        self.walk(cat, id, walk, ev);
        if !walk.is_empty() && self.react(cat, id, 0, target, None, ev) {
            return; // the turn goes on once the reaction's roll is accepted
        }
        self.minion_after_move(cat, id, target, ev);
    }

    /// The rest of a minion's turn after its move: attack if in range or
    /// heal its level (L385-387), then slide.
    pub(super) fn minion_after_move(&mut self, cat: &Catalogue, id: u32, target: Who, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let Some(EnemyKind::Minion { card, veteran }) = self.enemy(id).map(|e| e.kind.clone()) else { return };
        let stats = cat.minions[&card].side(veteran).clone();
        let level = stats.level;
        let Some(tspace) = self.space_of(target) else {
            self.slide_enemy(id, ev);
            return;
        };
        let Some(now) = self.enemy(id).map(|e| e.space) else { return };
        let in_range = self.with_graph(cat, |g| g.distance(now, tspace)).is_some_and(|d| d <= stats.attack.range);
        let blocked = self.has_status(cat, me, |r| r.blocks_attacks);
        if in_range && !blocked {
            if self.enemy_attack(cat, EnemyStrike { enemy: id, attack: &stats.attack, target, boss: false }, ev) {
                return; // the turn ends once the roll has landed
            }
        } else {
            // Out of range: heal HP equal to its level (L386, L1697).
            self.heal(cat, me, level, ev);
        }
        self.slide_enemy(id, ev);
    }

    /// The party (its leader) picks a DOMINATED minion's target: another
    /// enemy or an Origin; it moves toward it and attacks if it can (L1735).
    pub(super) fn command(&mut self, cat: &Catalogue, target: &Aim, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let (id, t) = self.check_command(target)?;
        self.choice = None;
        ev.push(Ev::Targeted { enemy: id, target: t, face: 0 });
        self.minion_act(cat, id, Some(t), &[], ev);
        self.check_combat_end(cat, ev);
        self.run_queue(cat, ev);
        Ok(())
    }

    /// The DOMINATED minion and its target, or why the rules refuse the
    /// order, judged from the state without changing it (every refusal of
    /// [`Self::command`] comes from here; the leader's say is the caller's).
    pub(super) fn check_command(&self, target: &Aim) -> Result<(u32, Who), RuleError> {
        let id = self
            .dominated_turn()
            .ok_or_else(|| err(DivinityRefusal::NoDominatedTurn, "no DOMINATED minion is waiting for orders"))?;
        let t = match target {
            Aim::Enemy(e) if *e != id && self.enemy(*e).is_some() => Who::Enemy(*e),
            Aim::Origin(s) if self.origins.get(*s as usize).is_some_and(|o| !o.downed) => Who::Origin(*s),
            _ => return Err(err(DivinityRefusal::BadTarget, "choose another enemy on the map or a standing Origin")),
        };
        Ok((id, t))
    }
}
