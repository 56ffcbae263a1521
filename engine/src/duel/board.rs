//! The battleground as data: which hexes exist, their terrain, the two rows
//! of summoning hexes and where the relics start. The book's set-up diagram is
//! missing; `content/duel/boards/default.json` is our symmetric default.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::card::{ContentError, Terrain};
use crate::hex::Hex;

/// A board layout as stored in a content file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardLayout {
    pub id: String,
    /// A regular hexagon of this radius around [0,0] (5 = 91 hexes, 6 per edge).
    pub radius: i32,
    /// Terrain of the hexes that are not plains.
    #[serde(default)]
    pub terrain: Vec<(Hex, Terrain)>,
    /// Seat 0's and seat 1's summoning hexes (6 each).
    pub summoning: [Vec<Hex>; 2],
    /// Where the relics start (3).
    pub relics: Vec<Hex>,
}

pub const DEFAULT_BOARD_JSON: &str = include_str!("../../../content/duel/boards/default.json");

impl BoardLayout {
    /// The shipped default layout.
    pub fn standard() -> BoardLayout {
        BoardLayout::from_json(DEFAULT_BOARD_JSON).expect("shipped board is valid")
    }

    /// # Errors
    /// Malformed JSON, hexes off the board, rows that are not 6 hexes, or a
    /// crater next to water (it would flood at once).
    pub fn from_json(json: &str) -> Result<BoardLayout, ContentError> {
        let b: BoardLayout =
            serde_json::from_str(json).map_err(|e| ContentError(format!("board: {e}")))?;
        b.validate()?;
        Ok(b)
    }

    /// # Errors
    /// See [`BoardLayout::from_json`].
    pub fn validate(&self) -> Result<(), ContentError> {
        let on = |h: &Hex| h.distance(Hex::new(0, 0)) as i32 <= self.radius;
        let err = |m: String| Err(ContentError(format!("board {}: {m}", self.id)));
        for (h, _) in &self.terrain {
            if !on(h) {
                return err(format!("terrain hex {h} is off the board"));
            }
        }
        for (seat, row) in self.summoning.iter().enumerate() {
            if row.len() != 6 {
                return err(format!("seat {seat} needs 6 summoning hexes, has {}", row.len()));
            }
            if let Some(h) = row.iter().find(|h| !on(h)) {
                return err(format!("summoning hex {h} is off the board"));
            }
        }
        if self.relics.len() != 3 || self.relics.iter().any(|h| !on(h)) {
            return err("three relics on the board are needed".into());
        }
        let grid = self.grid();
        for (h, t) in &grid.cells {
            if *t == Terrain::Crater && h.neighbors().any(|n| grid.terrain(n) == Some(Terrain::Water)) {
                return err(format!("crater {h} is next to water and would flood at once"));
            }
        }
        Ok(())
    }

    /// The terrain grid this layout starts with.
    pub fn grid(&self) -> Grid {
        let mut cells: BTreeMap<Hex, Terrain> =
            Hex::hexagon(self.radius).into_iter().map(|h| (h, Terrain::Plains)).collect();
        for (h, t) in &self.terrain {
            cells.insert(*h, *t);
        }
        Grid { cells }
    }
}

/// The terrain of every hex on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grid {
    #[serde(with = "cells_as_list")]
    pub cells: BTreeMap<Hex, Terrain>,
}

impl Grid {
    /// A board of the given hexes, all plains (for tests and custom boards).
    pub fn plains(hexes: impl IntoIterator<Item = Hex>) -> Grid {
        Grid { cells: hexes.into_iter().map(|h| (h, Terrain::Plains)).collect() }
    }

    /// `None` when the hex is off the board.
    pub fn terrain(&self, h: Hex) -> Option<Terrain> {
        self.cells.get(&h).copied()
    }

    pub fn contains(&self, h: Hex) -> bool {
        self.cells.contains_key(&h)
    }

    /// A cliff: a crater and a hill side by side.
    pub fn cliff_between(&self, a: Hex, b: Hex) -> bool {
        matches!(
            (self.terrain(a), self.terrain(b)),
            (Some(Terrain::Crater), Some(Terrain::Hill)) | (Some(Terrain::Hill), Some(Terrain::Crater))
        ) && a.is_adjacent(b)
    }
}

mod cells_as_list {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(m: &BTreeMap<Hex, Terrain>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(m.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<Hex, Terrain>, D::Error> {
        let v: Vec<(Hex, Terrain)> = Vec::deserialize(d)?;
        Ok(v.into_iter().collect())
    }
}
