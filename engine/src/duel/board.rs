//! The battleground as data: which hexes exist, their terrain, the two rows
//! of summoning hexes and where the relics start. The book's set-up diagram is
//! missing; `content/duel/boards/default.json` is our symmetric default.

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
        let b: BoardLayout = serde_json::from_str(json).map_err(|e| ContentError(format!("board: {e}")))?;
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
        for (h, t) in grid.iter() {
            if t == Terrain::Crater && h.neighbors().any(|n| grid.terrain(n) == Some(Terrain::Water)) {
                return err(format!("crater {h} is next to water and would flood at once"));
            }
        }
        Ok(())
    }

    /// The terrain grid this layout starts with.
    pub fn grid(&self) -> Grid {
        let mut g = Grid::plains(Hex::hexagon(self.radius));
        for (h, t) in &self.terrain {
            g.set(*h, *t);
        }
        g
    }
}

/// The terrain of every hex on the board: a dense square of the hexagon's
/// bounding box (cheap to copy, which every action and checkpoint does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    radius: i32,
    /// `None` for squares of the box that are not hexes of the board.
    /// Shared between copies (the legal list tries actions on copies of
    /// the state, and few actions change a terrain): a change copies it.
    cells: std::sync::Arc<Vec<Option<Terrain>>>,
}

impl Grid {
    fn empty(radius: i32) -> Grid {
        let side = (2 * radius + 1) as usize;
        Grid { radius, cells: std::sync::Arc::new(vec![None; side * side]) }
    }

    fn index(&self, h: Hex) -> Option<usize> {
        let r = self.radius;
        if h.q < -r || h.q > r || h.r < -r || h.r > r {
            return None;
        }
        Some(((h.q + r) * (2 * r + 1) + (h.r + r)) as usize)
    }

    fn hex_at(&self, i: usize) -> Hex {
        let side = 2 * self.radius + 1;
        Hex::new(i as i32 / side - self.radius, i as i32 % side - self.radius)
    }

    /// A board of the given hexes, all plains (for tests and custom boards).
    pub fn plains(hexes: impl IntoIterator<Item = Hex>) -> Grid {
        let hexes: Vec<Hex> = hexes.into_iter().collect();
        let radius = hexes.iter().map(|h| h.q.abs().max(h.r.abs())).max().unwrap_or(0);
        let mut g = Grid::empty(radius);
        for h in hexes {
            g.set(h, Terrain::Plains);
        }
        g
    }

    /// The radius of the hexagon's bounding box.
    pub(crate) fn radius(&self) -> i32 {
        self.radius
    }

    /// The squares of the box, shared between copies (a record hash keeps
    /// their encoding by it).
    pub(crate) fn cells(&self) -> &std::sync::Arc<Vec<Option<Terrain>>> {
        &self.cells
    }

    /// `None` when the hex is off the board.
    pub fn terrain(&self, h: Hex) -> Option<Terrain> {
        self.index(h).and_then(|i| self.cells[i])
    }

    pub fn contains(&self, h: Hex) -> bool {
        self.terrain(h).is_some()
    }

    /// Set the terrain of a hex (or add it to the board).
    pub fn set(&mut self, h: Hex, t: Terrain) {
        if let Some(i) = self.index(h) {
            std::sync::Arc::make_mut(&mut self.cells)[i] = Some(t);
        }
    }

    /// The board's shape and terrain as bytes, for a key: equal bytes,
    /// equal grids (a byte a square of its box, `u8::MAX` off the board).
    pub(crate) fn write_key(&self, key: &mut Vec<u8>) {
        key.extend_from_slice(&self.radius.to_le_bytes());
        key.extend(self.cells.iter().map(|t| t.map_or(u8::MAX, |t| t as u8)));
    }

    /// Every hex of the board with its terrain, in a fixed order.
    pub fn iter(&self) -> impl Iterator<Item = (Hex, Terrain)> + '_ {
        self.cells.iter().enumerate().filter_map(|(i, t)| t.map(|t| (self.hex_at(i), t)))
    }

    /// Every hex of the board.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.iter().map(|(h, _)| h)
    }

    /// The hexes of the board at most `reach` from `center`, in the order
    /// of [`Grid::hexes`]: only the square around `center` is looked at.
    pub fn hexes_within(&self, center: Hex, reach: u32) -> impl Iterator<Item = Hex> + '_ {
        // Past the board's width every hex is within reach.
        let d = reach.min(4 * self.radius.unsigned_abs() + 2) as i32;
        let r = self.radius;
        let (q0, q1) = ((center.q - d).max(-r), (center.q + d).min(r));
        let (r0, r1) = ((center.r - d).max(-r), (center.r + d).min(r));
        (q0..=q1)
            .flat_map(move |q| (r0..=r1).map(move |s| Hex::new(q, s)))
            .filter(move |h| h.distance(center) <= reach && self.contains(*h))
    }

    /// A cliff: a crater and a hill side by side.
    pub fn cliff_between(&self, a: Hex, b: Hex) -> bool {
        matches!(
            (self.terrain(a), self.terrain(b)),
            (Some(Terrain::Crater), Some(Terrain::Hill)) | (Some(Terrain::Hill), Some(Terrain::Crater))
        ) && a.is_adjacent(b)
    }
}

impl Serialize for Grid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Grid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Grid, D::Error> {
        let v: Vec<(Hex, Terrain)> = Vec::deserialize(d)?;
        let radius = v.iter().map(|(h, _)| h.q.abs().max(h.r.abs())).max().unwrap_or(0);
        let mut g = Grid::empty(radius);
        for (h, t) in v {
            g.set(h, t);
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hexes within reach are those of the whole board's list that
    /// are, in its order, from every centre on the board and around it.
    #[test]
    fn the_hexes_within_reach_are_the_boards_in_its_order() {
        for grid in [BoardLayout::standard().grid(), Grid::plains(Hex::hexagon(2))] {
            for q in -8..=8 {
                for r in -8..=8 {
                    let c = Hex::new(q, r);
                    for reach in [0, 1, 2, 3, 5, 9, 30, u32::MAX] {
                        let all: Vec<Hex> = grid.hexes().filter(|h| h.distance(c) <= reach).collect();
                        assert_eq!(grid.hexes_within(c, reach).collect::<Vec<_>>(), all, "{c} {reach}");
                    }
                }
            }
        }
    }
}
