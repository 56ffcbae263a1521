//! Hexagonal grid geometry in axial coordinates (q, r), with the third cube
//! coordinate s = -q - r implied. Shared by every hex-board ruleset.

use serde::{Deserialize, Serialize};

/// A hex in axial coordinates. Serialized as `[q, r]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl From<[i32; 2]> for Hex {
    fn from([q, r]: [i32; 2]) -> Self {
        Hex { q, r }
    }
}

impl From<Hex> for [i32; 2] {
    fn from(h: Hex) -> Self {
        [h.q, h.r]
    }
}

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{},{}]", self.q, self.r)
    }
}

/// The six directions, in order around the hex (east first, counter-clockwise).
pub const DIRECTIONS: [Hex; 6] = [
    Hex { q: 1, r: 0 },
    Hex { q: 1, r: -1 },
    Hex { q: 0, r: -1 },
    Hex { q: -1, r: 0 },
    Hex { q: -1, r: 1 },
    Hex { q: 0, r: 1 },
];

impl Hex {
    pub const fn new(q: i32, r: i32) -> Self {
        Hex { q, r }
    }

    pub fn s(self) -> i32 {
        -self.q - self.r
    }

    /// Steps between hex centres, ignoring anything on the board.
    pub fn distance(self, o: Hex) -> u32 {
        let dq = (self.q - o.q).abs();
        let dr = (self.r - o.r).abs();
        let ds = (self.s() - o.s()).abs();
        dq.max(dr).max(ds) as u32
    }

    pub fn neighbor(self, direction: usize) -> Hex {
        self + DIRECTIONS[direction % 6]
    }

    pub fn neighbors(self) -> impl Iterator<Item = Hex> {
        DIRECTIONS.into_iter().map(move |d| self + d)
    }

    pub fn is_adjacent(self, o: Hex) -> bool {
        self.distance(o) == 1
    }

    /// The hexes strictly between `self` and `to` along the straight line of
    /// centres, as pairs: the line is traced twice, nudged to either side, so
    /// where it runs exactly along an edge the two hexes of that edge differ.
    /// Where it crosses a hex's interior both elements of the pair are that hex.
    pub fn between(self, to: Hex) -> Vec<(Hex, Hex)> {
        let n = self.distance(to);
        let mut out = Vec::new();
        for i in 1..n {
            let t = f64::from(i) / f64::from(n);
            let a = cube_round(lerp_cube(self, to, t, 1e-6));
            let b = cube_round(lerp_cube(self, to, t, -1e-6));
            out.push((a, b));
        }
        out
    }

    /// All hexes of a regular hexagon of the given radius around the origin.
    pub fn hexagon(radius: i32) -> Vec<Hex> {
        let mut v = Vec::new();
        for q in -radius..=radius {
            for r in (-radius).max(-q - radius)..=radius.min(-q + radius) {
                v.push(Hex::new(q, r));
            }
        }
        v
    }
}

fn lerp_cube(a: Hex, b: Hex, t: f64, nudge: f64) -> (f64, f64, f64) {
    let (aq, ar, as_) = (f64::from(a.q) + nudge, f64::from(a.r) + nudge, f64::from(a.s()) - 2.0 * nudge);
    let (bq, br, bs) = (f64::from(b.q) + nudge, f64::from(b.r) + nudge, f64::from(b.s()) - 2.0 * nudge);
    (aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t)
}

fn cube_round((q, r, s): (f64, f64, f64)) -> Hex {
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}

impl std::ops::Add for Hex {
    type Output = Hex;

    fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        let o = Hex::new(0, 0);
        assert_eq!(o.distance(Hex::new(2, 0)), 2);
        assert_eq!(o.distance(Hex::new(1, 1)), 2);
        assert_eq!(o.distance(Hex::new(2, -1)), 2);
        assert_eq!(o.distance(Hex::new(-3, 3)), 3);
        assert!(o.neighbors().all(|n| n.distance(o) == 1));
    }

    #[test]
    fn hexagon_of_radius_five_has_91_hexes_and_six_per_edge() {
        let h = Hex::hexagon(5);
        assert_eq!(h.len(), 91);
        assert_eq!(h.iter().filter(|x| x.r == 5).count(), 6);
    }

    #[test]
    fn straight_line_crosses_interiors() {
        let b = Hex::new(0, 0).between(Hex::new(3, 0));
        assert_eq!(b, vec![(Hex::new(1, 0), Hex::new(1, 0)), (Hex::new(2, 0), Hex::new(2, 0))]);
    }

    #[test]
    fn edge_line_gives_both_hexes() {
        // (0,0) -> (1,1) runs along the edge between (1,0) and (0,1).
        let b = Hex::new(0, 0).between(Hex::new(1, 1));
        assert_eq!(b.len(), 1);
        let (x, y) = b[0];
        assert_ne!(x, y);
        let mut pair = [x, y];
        pair.sort();
        assert_eq!(pair, [Hex::new(0, 1), Hex::new(1, 0)]);
        assert!(Hex::new(0, 0).between(Hex::new(1, 0)).is_empty());
    }
}
