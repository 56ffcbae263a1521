//! The battlefield: square tiles, king-move steps and distance (C1), the four
//! terrains (L61-67) and each seat's side (L61, C2).

use serde::{Deserialize, Serialize};

use crate::Seat;

/// A tile, `[x, y]`, `y = 0` the top row (seat 1's back row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos(pub i32, pub i32);

impl Pos {
    /// Steps between two tiles: a step goes to any of the 8 neighbours,
    /// diagonals included, at the same cost (L69, L71, L133), so distance is
    /// max(|dx|, |dy|) (C1). Range uses it too, ignoring terrain (L109).
    pub fn dist(self, o: Pos) -> i32 {
        (self.0 - o.0).abs().max((self.1 - o.1).abs())
    }

    pub fn neighbours(self) -> impl Iterator<Item = Pos> {
        (-1..=1).flat_map(move |dx| (-1..=1).map(move |dy| Pos(self.0 + dx, self.1 + dy))).filter(move |p| *p != self)
    }
}

/// The 4 primary terrains (L61).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Passable, no effect (L63).
    Ground,
    /// Passable, -1 SPD after landing (L65).
    Forest,
    /// Not passable without an effect (L67).
    Water,
    /// Not passable without an effect (L67).
    Mountain,
}

impl Terrain {
    pub fn from_letter(c: char) -> Option<Terrain> {
        Some(match c {
            'G' => Terrain::Ground,
            'F' => Terrain::Forest,
            'W' => Terrain::Water,
            'M' => Terrain::Mountain,
            _ => return None,
        })
    }

    pub fn letter(self) -> char {
        match self {
            Terrain::Ground => 'G',
            Terrain::Forest => 'F',
            Terrain::Water => 'W',
            Terrain::Mountain => 'M',
        }
    }

    /// Passable for everyone, with no terrain effect (L63-67).
    pub fn passable(self) -> bool {
        matches!(self, Terrain::Ground | Terrain::Forest)
    }
}

/// The whole battlefield's terrain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    pub width: i32,
    pub height: i32,
    /// Row-major, `width * height`.
    pub tiles: Vec<Terrain>,
    /// Whether this is the four-player field (two 2-player fields side by side).
    pub four: bool,
}

impl Field {
    pub fn contains(&self, p: Pos) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.0 < self.width && p.1 < self.height
    }

    pub fn at(&self, p: Pos) -> Option<Terrain> {
        self.contains(p).then(|| self.tiles[(p.1 * self.width + p.0) as usize])
    }

    pub fn all(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos(x, y)))
    }

    /// Whether `p` is on `seat`'s side (L61, L87). Seats 0 and 2 (team 0)
    /// hold the bottom half, 1 and 3 the top; on the four-player field
    /// seats 0 and 1 play the left half, 2 and 3 the right.
    pub fn on_side(&self, seat: Seat, p: Pos) -> bool {
        if !self.contains(p) {
            return false;
        }
        let bottom = p.1 >= self.height / 2;
        let rows = if seat & 1 == 0 { bottom } else { !bottom };
        let cols = if self.four { (p.0 >= self.width / 2) == (seat >= 2) } else { true };
        rows && cols
    }

    /// Whether every passable tile, `blocked` aside, reaches every other by
    /// steps (diagonal gaps included, L71): "nothing is blocked off" (L61).
    pub fn connected(&self, blocked: &[Pos]) -> bool {
        let open = |p: Pos| self.at(p).is_some_and(Terrain::passable) && !blocked.contains(&p);
        let all: Vec<Pos> = self.all().filter(|p| open(*p)).collect();
        let Some(first) = all.first() else { return true };
        let mut seen = vec![false; self.tiles.len()];
        let mut stack = vec![*first];
        seen[(first.1 * self.width + first.0) as usize] = true;
        let mut count = 0;
        while let Some(p) = stack.pop() {
            count += 1;
            for q in p.neighbours() {
                if open(q) && !seen[(q.1 * self.width + q.0) as usize] {
                    seen[(q.1 * self.width + q.0) as usize] = true;
                    stack.push(q);
                }
            }
        }
        count == all.len()
    }
}
