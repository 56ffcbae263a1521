//! Bots for tests, goldens and the balance measurement: [`RandomBot`] picks
//! among the legal actions; [`GreedyBot`] plays a simple plan (kill or hurt
//! the best target, summon, equip, close in on the enemy God). Both are
//! deterministic from their own seed.

use super::action::ClansAction as A;
use super::content::{Card, Catalogue, Kind};
use super::legal::legal_actions;
use super::state::{ClansState, Phase};
use super::Clans;
use crate::rng::GameRng;
use crate::{Seat, Status};

/// The seat the game waits for, if any.
pub fn seat_to_act(s: &ClansState) -> Option<Seat> {
    match Clans::status_of(s) {
        Status::Waiting { seats } => seats.first().copied(),
        Status::Finished(_) => None,
    }
}

/// Random legal actions, ending the turn or passing only now and then.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: GameRng::from_seed(seed) }
    }

    pub fn pick(&mut self, s: &ClansState, cat: &Catalogue, seat: Seat) -> Option<A> {
        let legal = legal_actions(s, cat, seat);
        if legal.is_empty() {
            return None;
        }
        let busy: Vec<&A> = legal.iter().filter(|a| !matches!(a, A::EndTurn | A::Pass)).collect();
        if busy.is_empty() || self.rng.below(8) == 0 {
            let quiet: Vec<&A> = legal.iter().filter(|a| matches!(a, A::EndTurn | A::Pass)).collect();
            if let Some(a) = quiet.first() {
                return Some((*a).clone());
            }
        }
        Some(busy[self.rng.below(busy.len() as u32) as usize].clone())
    }
}

/// A plan-following bot: good enough to make the clans' strengths show.
#[derive(Debug, Clone)]
pub struct GreedyBot {
    rng: GameRng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot { rng: GameRng::from_seed(seed) }
    }

    /// The value of a position for `seat`'s team: HP of the figures, Gods
    /// counted thrice, a win above all.
    fn score(s: &ClansState, seat: Seat) -> i32 {
        if let Some(t) = s.winner_team {
            return if t == ClansState::team(seat) { 100_000 } else { -100_000 };
        }
        let cat = Catalogue::standard();
        s.figures
            .iter()
            .map(|f| {
                let w = if ClansState::is_god(cat, f) { 3 } else { 1 };
                let v = w * f.hp + 4 + f.statuses.len() as i32 * -3;
                if s.enemies(seat, f.owner) {
                    -v
                } else {
                    v
                }
            })
            .sum::<i32>()
            + s.players.iter().filter(|p| !s.enemies(seat, p.seat)).map(|p| p.exp).sum::<i32>()
    }

    pub fn pick(&mut self, s: &ClansState, cat: &Catalogue, seat: Seat) -> Option<A> {
        let legal = legal_actions(s, cat, seat);
        if legal.is_empty() {
            return None;
        }
        if s.phase == Phase::Placement {
            // Homebase in the back half of the side, not on the edge.
            let back: Vec<&A> = legal
                .iter()
                .filter(|a| match a {
                    A::Place { homebase, .. } => {
                        let mid = s.field.height / 2;
                        let depth = (homebase.1 - mid).abs();
                        (3..=5).contains(&depth) && homebase.0 > 1 && homebase.0 < s.field.width - 2
                    }
                    _ => false,
                })
                .collect();
            let pool: Vec<&A> = if back.is_empty() { legal.iter().collect() } else { back };
            return Some(pool[self.rng.below(pool.len() as u32) as usize].clone());
        }
        let base = Self::score(s, seat);
        let try_score = |a: &A| {
            let mut c = s.clone();
            c.act(cat, seat, a.clone()).ok().map(|_| Self::score(&c, seat) - base)
        };
        // Hitting: attacks, abilities, arts, damage items, (OT) answers.
        let mut best: Option<(i32, &A)> = None;
        for a in &legal {
            let hits = match a {
                A::Attack { .. } | A::Ability { .. } | A::RunicArt { .. } | A::Respond { .. } => true,
                A::Item { card, .. } => matches!(cat.card(card).map(|c| &c.kind), Some(Kind::Item(_))),
                _ => false,
            };
            if !hits {
                continue;
            }
            if let Some(v) = try_score(a) {
                if v > 0 && best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, a));
                }
            }
        }
        if let Some((_, a)) = best {
            return Some(a.clone());
        }
        if legal.contains(&A::Pass) {
            return Some(A::Pass);
        }
        let p = &s.players[seat as usize];
        // Summon the dearest affordable ally.
        let summon = legal
            .iter()
            .filter_map(|a| match a {
                A::Summon { card, .. } => cat.card(card).and_then(Card::ally).map(|al| (al.sp, a)),
                _ => None,
            })
            .max_by_key(|(sp, _)| *sp);
        if let Some((_, a)) = summon {
            return Some(a.clone());
        }
        // Equip on the God or the strongest ally; terrain when affordable.
        for a in &legal {
            if matches!(a, A::Equip { .. } | A::Terrain { .. }) && p.sp >= 3 {
                return Some(a.clone());
            }
        }
        // Assimilate when nothing can be bought.
        if p.allies.iter().all(|c| cat.card(c).and_then(Card::ally).is_none_or(|al| al.sp > p.sp)) {
            if let Some(a) = legal.iter().find(|a| matches!(a, A::Assimilate { .. })) {
                if self.rng.below(3) == 0 {
                    return Some(a.clone());
                }
            }
        }
        // Advance: each unmoved figure toward the nearest enemy (the God
        // counts double), stopping at its Range.
        let mut best_move: Option<(i32, &A)> = None;
        for a in &legal {
            let A::Move { figure, to } = a else { continue };
            let f = s.figure(*figure).expect("legal");
            if f.steps_used > 0 {
                continue;
            }
            let range = s.stat(cat, f, super::content::Stat::Range);
            let target_d = |from: super::grid::Pos| {
                s.figures
                    .iter()
                    .filter(|e| s.enemies(seat, e.owner))
                    .map(|e| {
                        let d = (e.pos.dist(from) - range).max(0);
                        if ClansState::is_god(cat, e) {
                            d * 2 / 3
                        } else {
                            d
                        }
                    })
                    .min()
                    .unwrap_or(0)
            };
            let gain = target_d(f.pos) - target_d(*to);
            // The God keeps back until the field thins.
            let god_penalty = if ClansState::is_god(cat, f) && s.figures.iter().filter(|x| x.owner == seat).count() > 3
            {
                2
            } else {
                0
            };
            let v = gain * 10 - god_penalty * 10 + self.rng.below(3) as i32;
            if gain > 0 && v > 0 && best_move.is_none_or(|(b, _)| v > b) {
                best_move = Some((v, a));
            }
        }
        if let Some((_, a)) = best_move {
            return Some(a.clone());
        }
        Some(A::EndTurn)
    }
}
