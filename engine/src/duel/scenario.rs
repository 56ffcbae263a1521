//! A position set up directly in the Command Phase, as data: rulebook
//! examples, puzzles and tests start from one instead of playing up to it.
//! A scenario is checked the way a game would be: valid Alphas, units on
//! empty hexes of the board, pools within their maximum.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::alpha::AlphaDesign;
use super::card::{CardId, Catalogue};
use super::state::*;
use super::Duel;
use crate::hex::Hex;
use crate::{Ruleset, Seat, SetupError};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    pub options: DuelOptions,
    /// The turn number the scenario starts in (after its upkeep).
    pub turn: u32,
    pub active: Seat,
    pub players: [ScenarioPlayer; 2],
    pub units: Vec<ScenarioUnit>,
    /// Where the relics are; the board's start positions when absent.
    pub relics: Option<Vec<Hex>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct ScenarioPlayer {
    pub alphas: Vec<ScenarioAlpha>,
    pub di_stack: Vec<CardId>,
    pub spent: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioAlpha {
    pub cards: Vec<CardId>,
    #[serde(default = "yes")]
    pub revealed: bool,
    /// Current life; full when absent.
    #[serde(default)]
    pub life: Option<u32>,
    #[serde(default)]
    pub cubes: BTreeMap<CardId, u32>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioUnit {
    pub owner: Seat,
    pub alpha: usize,
    pub hex: Hex,
}

impl Scenario {
    /// The state this scenario describes, on the standard catalogue.
    ///
    /// # Errors
    /// An invalid Alpha, a unit off the board or on an occupied hex, a pool
    /// above its maximum, a bad seat.
    pub fn build(&self, seed: u64) -> Result<DuelState, SetupError> {
        self.build_with(Catalogue::standard(), seed)
    }

    /// # Errors
    /// See [`Scenario::build`].
    pub fn build_with(&self, cat: &Catalogue, seed: u64) -> Result<DuelState, SetupError> {
        let mut s = Duel::start(&self.options, seed)?;
        if self.active > 1 {
            return Err(SetupError::new("active is seat 0 or 1"));
        }
        let g = &mut s.game;
        for (seat, sp) in self.players.iter().enumerate() {
            let p = std::sync::Arc::make_mut(&mut g.players[seat]);
            for (i, a) in sp.alphas.iter().enumerate() {
                let design = AlphaDesign { cards: a.cards.clone() };
                if let Some(v) = design.violations(cat).first() {
                    return Err(SetupError::new(format!("seat {seat} Alpha {i}: {v}")));
                }
                let max = design.life_pool(cat);
                let life = a.life.unwrap_or(max);
                if life == 0 || life > max {
                    return Err(SetupError::new(format!("seat {seat} Alpha {i}: life {life} outside 1..={max}")));
                }
                let figure = a.revealed.then(|| Figure::ALL[i % 4]);
                p.alphas.push(Alpha {
                    cost: design.summoning_cost(cat),
                    design: std::sync::Arc::new(design),
                    revealed: a.revealed,
                    figure,
                    max_life: max,
                    life,
                    cubes: a.cubes.clone(),
                    passives: Default::default(),
                    armor: Default::default(),
                });
            }
            p.di_stack = sp.di_stack.clone();
            p.locked_stack = sp.di_stack.clone();
            p.spent = sp.spent;
            p.locked = true;
            p.had_first_turn = true;
        }
        if let Some(r) = &self.relics {
            g.relics = r.iter().map(|h| Relic { hex: *h, moved_turn: None }).collect();
        }
        for su in &self.units {
            if su.owner > 1 || su.alpha >= g.players[su.owner as usize].alphas.len() {
                return Err(SetupError::new(format!("unit at {}: no such seat or Alpha", su.hex)));
            }
            if !g.grid.contains(su.hex) || g.unit_at(su.hex).is_some() {
                return Err(SetupError::new(format!("unit at {}: off the board or occupied", su.hex)));
            }
            let id = g.next_unit;
            g.next_unit += 1;
            g.units.push(Unit {
                id,
                owner: su.owner,
                controller: su.owner,
                alpha: su.alpha,
                hex: su.hex,
                summoned_turn: 0,
                activated_turn: None,
                used_physical: 0,
                used_magical: 0,
                exposed: false,
                markers: Vec::new(),
                extra_m: 0,
                hit_by_non_lore: false,
                lore_bonus_taken: false,
            });
        }
        g.phase = Phase::Command;
        g.turn = self.turn.max(3);
        g.active = self.active;
        g.first_player = self.active;
        g.step = Step::Activation;
        Ok(s)
    }
}
