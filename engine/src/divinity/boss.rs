//! A Boss' turn (L1700-1745): its tactics deck, strikes and moves.

use super::content::{BossTactic, Catalogue};
use super::cooldown::{CardRef, TrackCard};
use super::dice::TargetingFace;
use super::enemy_roll::EnemyStrike;
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::minion::{plan_moves, tied_targets};
use super::state::*;

impl DivinityState {
    /// A Boss' turn (L1785-1825): start-of-turn effects, AP, then tactics.
    pub(super) fn boss_turn(&mut self, cat: &Catalogue, id: u32, boss: &str, ev: &mut Vec<Ev>) {
        if self.ask_turn_start_order(cat, id, ev) {
            return;
        }
        self.start_of_turn(cat, Who::Enemy(id), ev);
        self.boss_turn_on(cat, id, boss, ev);
    }

    /// A Boss' turn after its start-of-turn effects: AP, then tactics.
    pub(super) fn boss_turn_on(&mut self, cat: &Catalogue, id: u32, boss: &str, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let b = &cat.bosses[boss];
        let Some(e) = self.enemy_mut(id) else { return };
        e.ap = (e.ap + b.ap).min(MAX_AP);
        if self.has_status(cat, me, |r| r.skips_turn) {
            self.slide_enemy(id, ev);
            return;
        }
        self.boss_tactics(cat, id, ev);
    }

    /// An attack tactic on its target (L1811-1813): move to max range ignoring
    /// DIFFICULT TERRAIN, attack if in range and the space holds an Origin,
    /// else take the AP back. True when the roll waits for rerolls.
    pub(super) fn boss_strike(
        &mut self,
        cat: &Catalogue,
        id: u32,
        t: &BossTactic,
        target: Who,
        ev: &mut Vec<Ev>,
    ) -> bool {
        let Some(a) = &t.attack else { return false };
        let Some(from) = self.enemy(id).map(|e| e.space) else { return false };
        let Some(tspace) = self.space_of(target) else { return false };
        let others = self.route_others(target);
        let walks = self.with_graph(cat, |g| plan_moves(g, from, tspace, a.range, t.movement, true, &others));
        if walks.len() > 1 && self.options.party_breaks_ties {
            // The party picks the route among equals (L1689); the Boss waits.
            let routes: Vec<Vec<String>> =
                walks.iter().map(|w| w.iter().map(|&s| self.space_id(cat, s)).collect()).collect();
            ev.push(Ev::RouteToChoose { enemy: id, routes: routes.clone() });
            self.wait_for(Choice::Route(RouteChoice { enemy: id, target, routes, tactic: Some(t.id.clone()) }));
            return true;
        }
        let walk = walks.into_iter().next().unwrap_or_default();
        self.boss_strike_along(cat, id, t, target, &walk, ev)
    }

    /// An attack tactic along its route: attack if in range and the space
    /// holds an Origin, else take the AP back (L1811-1813). True when the
    /// roll waits.
    pub(super) fn boss_strike_along(
        &mut self,
        cat: &Catalogue,
        id: u32,
        t: &BossTactic,
        target: Who,
        walk: &[SpaceIx],
        ev: &mut Vec<Ev>,
    ) -> bool {
        if t.attack.is_none() || self.space_of(target).is_none() {
            return false;
        }
        self.walk(cat, id, walk, ev);
        if !walk.is_empty() && self.react(cat, id, 0, target, Some(t.id.clone()), ev) {
            return true; // the Boss plays on once the reaction's roll is accepted
        }
        self.boss_after_move(cat, id, t, target, ev)
    }

    /// An attack tactic after the Boss' move: attack if in range and the
    /// space holds an Origin, else take the AP back (L1811-1813). True when
    /// the roll waits.
    pub(super) fn boss_after_move(
        &mut self,
        cat: &Catalogue,
        id: u32,
        t: &BossTactic,
        target: Who,
        ev: &mut Vec<Ev>,
    ) -> bool {
        let Some(a) = &t.attack else { return false };
        let Some(tspace) = self.space_of(target) else { return false };
        let Some(now) = self.enemy(id).map(|e| e.space) else { return false };
        let in_range = self.with_graph(cat, |g| g.distance(now, tspace)).is_some_and(|d| d <= a.range);
        let origins_there = self.origins.iter().any(|o| o.space == tspace && !o.downed);
        if in_range && origins_there {
            ev.push(Ev::Targeted { enemy: id, target, face: 0 });
            return self.enemy_attack(cat, EnemyStrike { enemy: id, attack: a, target, boss: true }, ev);
        }
        if let Some(e) = self.enemy_mut(id) {
            // No attack: the AP comes back, no heal (L1813).
            e.ap += t.ap;
        }
        false
    }

    /// The tactic `tactic` of the Boss `id`, whose turn waited on the party
    /// (None when `id` is no Boss).
    pub(super) fn tactic_of(&self, cat: &Catalogue, id: u32, tactic: &str) -> Option<BossTactic> {
        let Some(EnemyKind::Boss { boss }) = self.enemy(id).map(|e| &e.kind) else { return None };
        Some(cat.bosses[boss].tactics.iter().find(|x| x.id == tactic).expect("tactic").clone())
    }

    /// After a tactic that waited on the party: unless its strike is on hold
    /// again (`held`), the Boss plays its next tactics.
    pub(super) fn boss_plays_on(&mut self, cat: &Catalogue, id: u32, held: bool, ev: &mut Vec<Ev>) {
        if !held {
            self.check_combat_end(cat, ev);
            self.boss_tactics(cat, id, ev);
        }
    }

    /// Play tactics while the Boss can pay for the top card (L1795-1799).
    /// Each goes on cooldown as it is played (L1803).
    pub(super) fn boss_tactics(&mut self, cat: &Catalogue, id: u32, ev: &mut Vec<Ev>) {
        let me = Who::Enemy(id);
        let Some(EnemyKind::Boss { boss }) = self.enemy(id).map(|e| e.kind.clone()) else { return };
        let b = &cat.bosses[&boss];
        while matches!(self.phase, Phase::Combat { .. }) {
            let Some(e) = self.enemy(id) else { return };
            let Some(top) = e.tactics.first().cloned() else { break };
            let t = b.tactics.iter().find(|t| t.id == top).expect("tactic of this boss").clone();
            if e.ap < t.ap {
                break; // the rest is saved (L1799)
            }
            {
                let e = self.enemy_mut(id).unwrap();
                e.ap -= t.ap;
                e.tactics.remove(0);
                let ongoing = t.ongoing.is_some();
                let card = TrackCard { card: CardRef::Tactic(t.id.clone()), face_up: ongoing, flip_at: t.flip_at };
                if let Some(back) = e.track.place(card, t.cooldown) {
                    if let CardRef::Tactic(tid) = back.card {
                        e.tactics.push(tid);
                    }
                }
            }
            if let (Some(rule), Some(_)) = (t.targeting, &t.attack) {
                let (who, cands) = self.candidates(cat, id);
                let from = self.enemy(id).unwrap().space;
                let tied = self.with_graph(cat, |g| tied_targets(g, from, TargetingFace::Special, rule, &cands));
                if tied.is_empty() {
                    // No Origin can be targeted: refund, cooldown, end the turn (L1815).
                    self.enemy_mut(id).unwrap().ap += t.ap;
                    break;
                }
                if tied.len() > 1 && self.options.party_breaks_ties {
                    let options: Vec<Who> = tied.iter().map(|i| who[*i]).collect();
                    ev.push(Ev::TieToBreak { enemy: id, options: options.clone() });
                    self.wait_for(Choice::Tie(TieChoice { enemy: id, options, tactic: Some(t.id.clone()), face: 0 }));
                    return;
                }
                if self.boss_strike(cat, id, &t, who[tied[0]], ev) {
                    return; // the Boss plays on once the roll has landed
                }
            } else {
                // Special tactics do exactly what they say (L1825).
                if t.removes_statuses {
                    let cleared = self.enemy_mut(id).map(|e| e.track.clear_statuses()).unwrap_or_default();
                    for s in cleared {
                        ev.push(Ev::StatusCleared { who: me, status: s });
                    }
                }
                if t.heal > 0 {
                    self.heal(cat, me, t.heal, ev);
                }
                for row in &t.spawn {
                    let c = row.counts[self.players() - 1];
                    let sp = self.space_ix(cat, &row.space).expect("validated space");
                    let sides =
                        std::iter::repeat_n(true, c.fast as usize).chain(std::iter::repeat_n(false, c.slow as usize));
                    for fast in sides {
                        self.spawn_minion(cat, &row.minion, row.veteran, sp, fast, ev);
                    }
                }
            }
            self.check_combat_end(cat, ev);
        }
        if matches!(self.phase, Phase::Combat { .. }) && self.enemy(id).is_some() {
            self.slide_enemy(id, ev);
        }
    }
}
