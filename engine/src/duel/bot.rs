//! A random legal player, for property tests, benchmarks and load tests.
//! Deterministic from its own seed; no global RNG.

use super::action::DuelAction;
use super::alpha::AlphaDesign;
use super::card::{CardId, CardKind, Catalogue};
use super::legal::legal_actions;
use super::state::{DuelState, Phase};
use super::Duel;
use crate::rng::GameRng;
use crate::Seat;

/// Picks random legal actions, preferring the ones that move the game on.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: GameRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: GameRng::from_seed(seed) }
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.rng.below(n as u32) as usize
    }

    /// A random valid Alpha made of cards not in `used`.
    pub fn random_alpha(&mut self, cat: &Catalogue, used: &mut Vec<CardId>) -> AlphaDesign {
        let genus: Vec<&CardId> =
            cat.ac.values().filter(|c| c.kind == CardKind::Genus && !used.contains(&c.id)).map(|c| &c.id).collect();
        let g = genus[self.below(genus.len())].clone();
        let mut design = AlphaDesign { cards: vec![g.clone()] };
        used.push(g);
        let others: Vec<&CardId> = cat.ac.values().filter(|c| c.kind != CardKind::Genus).map(|c| &c.id).collect();
        for _ in 0..self.below(4) {
            let c = others[self.below(others.len())].clone();
            if used.contains(&c) {
                continue;
            }
            design.cards.push(c.clone());
            if design.is_valid(cat) {
                used.push(c);
            } else {
                design.cards.pop();
            }
        }
        design
    }

    /// A creation action: a preset or random valid Alphas and DI stack.
    pub fn creation(&mut self, cat: &Catalogue, alphas: usize) -> DuelAction {
        if alphas == 3 && self.below(3) == 0 {
            let p = &cat.presets[self.below(cat.presets.len())];
            return DuelAction::UsePreset { preset: p.id.clone() };
        }
        let mut used = Vec::new();
        let designs = (0..alphas).map(|_| self.random_alpha(cat, &mut used)).collect();
        let mut di = Vec::new();
        let mut points = 0;
        let ids: Vec<&CardId> = cat.di.keys().collect();
        for _ in 0..4 {
            let id = ids[self.below(ids.len())];
            let dp = cat.di[id].divine_points;
            if !di.contains(id) && points + dp <= 8 {
                points += dp;
                di.push(id.clone());
            }
        }
        DuelAction::Create { alphas: designs, di_stack: di }
    }

    /// A random legal action for `seat`, or `None` if it has none.
    pub fn pick(&mut self, state: &DuelState, cat: &Catalogue, seat: Seat) -> Option<DuelAction> {
        if state.game.phase == Phase::Creation {
            if state.game.players[seat as usize].locked {
                return None;
            }
            let n = if state.options.campaign.is_some() { 4 } else { 3 };
            return Some(self.creation(cat, n));
        }
        let legal = legal_actions(state, cat, seat);
        if legal.is_empty() {
            return None;
        }
        // Draws and discards are rare; ending things is less likely than doing things.
        let weight = |a: &DuelAction| match a {
            DuelAction::OfferDraw | DuelAction::AcceptDraw => 1,
            DuelAction::DiscardDi { .. } | DuelAction::DeclineDraw => 2,
            DuelAction::EndTurn | DuelAction::EndActivations => 4,
            DuelAction::EndActivation | DuelAction::Pass => 10,
            DuelAction::UsePower { .. } | DuelAction::CastDi { .. } => 20,
            _ => 12,
        };
        let total: u32 = legal.iter().map(weight).sum();
        let mut x = self.rng.below(total);
        for a in &legal {
            let w = weight(a);
            if x < w {
                return Some(self.chosen(a));
            }
            x -= w;
        }
        legal.last().map(|a| self.chosen(a))
    }

    /// The action to send for a listed entry: for one that offers a choice
    /// of hexes (Flood, Tsunami), a random choice it allows, of a random
    /// size.
    pub fn chosen(&mut self, a: &DuelAction) -> DuelAction {
        <Duel as crate::Ruleset>::as_sent(a, &mut |n| self.below(n))
    }

    /// Who should act next: a seat the game waits for.
    pub fn seat_to_act(&mut self, state: &DuelState) -> Option<Seat> {
        match Duel::status_of(state) {
            crate::Status::Waiting { seats } if !seats.is_empty() => Some(seats[self.below(seats.len())]),
            _ => None,
        }
    }
}
