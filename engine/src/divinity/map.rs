//! Location maps as graphs (L1082-1142): numbered, tactical, locked and
//! multicard spaces joined by paths, some locked until a key token is placed.
//! Distances are counted in path steps along passable paths; movement costs
//! add DIFFICULT TERRAIN in combat.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::damage::Environment;

/// Index of a space in its map's `spaces`.
pub type SpaceIx = usize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpaceDef {
    /// Stable id used by location cards (`"1"`, `"t1"`).
    pub id: String,
    /// Numbered spaces match location cards; tactical spaces have none.
    #[serde(default)]
    pub number: Option<u32>,
    #[serde(default)]
    pub name: String,
    /// Undiscovered until a location card is placed on it (L1100).
    #[serde(default)]
    pub locked: bool,
    #[serde(default)]
    pub multicard: bool,
    /// The printed environment, if any.
    #[serde(default)]
    pub environment: Option<Environment>,
}

impl SpaceDef {
    pub fn tactical(&self) -> bool {
        self.number.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathDef {
    pub a: String,
    pub b: String,
    /// Locked until a key token is placed on it (L1092).
    #[serde(default)]
    pub locked: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapDef {
    pub spaces: Vec<SpaceDef>,
    pub paths: Vec<PathDef>,
}

impl MapDef {
    pub fn ix(&self, id: &str) -> Option<SpaceIx> {
        self.spaces.iter().position(|s| s.id == id)
    }

    pub fn by_number(&self, n: u32) -> Option<SpaceIx> {
        self.spaces.iter().position(|s| s.number == Some(n))
    }

    /// # Errors
    /// Duplicate ids or numbers, paths to unknown spaces.
    pub fn validate(&self) -> Result<(), String> {
        let mut ids = BTreeSet::new();
        let mut nums = BTreeSet::new();
        for s in &self.spaces {
            if !ids.insert(&s.id) {
                return Err(format!("duplicate space id {}", s.id));
            }
            if let Some(n) = s.number {
                if !nums.insert(n) {
                    return Err(format!("duplicate space number {n}"));
                }
            }
            if s.tactical() && (s.multicard || s.locked) {
                return Err(format!("tactical space {} can't be multicard or locked", s.id));
            }
        }
        for p in &self.paths {
            if self.ix(&p.a).is_none() || self.ix(&p.b).is_none() || p.a == p.b {
                return Err(format!("bad path {}-{}", p.a, p.b));
            }
        }
        Ok(())
    }
}

/// What changes on a map during play: key tokens, cards placed on spaces
/// and environment tokens.
#[derive(Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MapState {
    /// Indices of paths holding a key token.
    pub keys: BTreeSet<usize>,
    /// Location cards placed on spaces (L1102, L1260).
    pub placed: BTreeMap<SpaceIx, String>,
    /// Environment tokens covering the printed effect (L1138).
    pub tokens: BTreeMap<SpaceIx, Environment>,
}

// Copied into a kept state by `clone_from` (`state.rs`, "Copies").
super::state::clone_by_field!(MapState { keys } maps { placed, tokens });

/// A map with its current state: what is passable and how far apart.
#[derive(Debug, Clone, Copy)]
pub struct Graph<'a> {
    pub def: &'a MapDef,
    pub state: &'a MapState,
    ixs: &'a [(SpaceIx, SpaceIx)],
}

/// Path endpoints as indices, computed once per map.
pub fn path_ixs(def: &MapDef) -> Vec<(SpaceIx, SpaceIx)> {
    def.paths.iter().map(|p| (def.ix(&p.a).unwrap(), def.ix(&p.b).unwrap())).collect()
}

/// A map's ids and paths as indices, worked out once per map (the rules
/// otherwise compared space-id strings on every move, taunt and distance).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapIndex {
    /// Each path's two space indices, in path order ([`path_ixs`]).
    pub paths: Vec<(SpaceIx, SpaceIx)>,
    /// Each space id with its index, sorted by id for a binary search.
    ids: Vec<(String, SpaceIx)>,
}

impl MapIndex {
    /// # Panics
    /// A path to an unknown space (a map that fails [`MapDef::validate`]).
    pub fn new(def: &MapDef) -> Self {
        let mut ids: Vec<(String, SpaceIx)> = def.spaces.iter().enumerate().map(|(i, s)| (s.id.clone(), i)).collect();
        // Stable: with duplicate ids (never in valid content) the first
        // space wins, as `MapDef::ix` finds it.
        ids.sort_by(|a, b| a.0.cmp(&b.0));
        MapIndex { paths: path_ixs(def), ids }
    }

    /// [`MapDef::ix`] by the index.
    pub fn ix(&self, id: &str) -> Option<SpaceIx> {
        let i = self.ids.partition_point(|(k, _)| k.as_str() < id);
        self.ids.get(i).filter(|(k, _)| k == id).map(|&(_, ix)| ix)
    }

    /// Whether this is still the index of `def` (a map changed after its
    /// index was built would otherwise be read wrong).
    pub fn matches(&self, def: &MapDef) -> bool {
        *self == MapIndex::new(def)
    }
}

impl<'a> Graph<'a> {
    pub fn new(def: &'a MapDef, state: &'a MapState, ixs: &'a [(SpaceIx, SpaceIx)]) -> Self {
        Graph { def, state, ixs }
    }

    pub fn len(&self) -> usize {
        self.def.spaces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.def.spaces.is_empty()
    }

    /// A locked space without a placed card can't be entered or crossed.
    pub fn open(&self, s: SpaceIx) -> bool {
        !self.def.spaces[s].locked || self.state.placed.contains_key(&s)
    }

    pub fn environment(&self, s: SpaceIx) -> Option<Environment> {
        self.state.tokens.get(&s).copied().or(self.def.spaces[s].environment)
    }

    /// Spaces joined to `s` by an unlocked path into an open space.
    pub fn neighbours(&self, s: SpaceIx) -> Vec<SpaceIx> {
        let mut out = Vec::new();
        self.each_neighbour(s, |other| {
            if !out.contains(&other) {
                out.push(other);
            }
        });
        out.sort_unstable();
        out
    }

    /// [`Self::neighbours`] in path order, a space once a path to it:
    /// what a search needs, without a list.
    fn each_neighbour(&self, s: SpaceIx, mut f: impl FnMut(SpaceIx)) {
        for (i, &(a, b)) in self.ixs.iter().enumerate() {
            let other = if a == s {
                b
            } else if b == s {
                a
            } else {
                continue;
            };
            if self.def.paths[i].locked && !self.state.keys.contains(&i) {
                continue;
            }
            if self.open(other) {
                f(other);
            }
        }
    }

    pub fn adjacent(&self, a: SpaceIx, b: SpaceIx) -> bool {
        // As `neighbours(a).contains(&b)`, without the list.
        let mut found = false;
        self.each_neighbour(a, |n| found |= n == b);
        found
    }

    /// Path steps from `from` to every space (None if unreachable).
    pub fn distances(&self, from: SpaceIx) -> Vec<Option<u32>> {
        let mut d = vec![None; self.len()];
        d[from] = Some(0);
        // Breadth first: a space's distance does not depend on the order
        // its neighbours are seen in. Each space is queued once.
        let mut queue = Vec::with_capacity(self.len());
        queue.push(from);
        let mut next = 0;
        while let Some(&s) = queue.get(next) {
            next += 1;
            let ds = d[s].unwrap();
            self.each_neighbour(s, |n| {
                if d[n].is_none() {
                    d[n] = Some(ds + 1);
                    queue.push(n);
                }
            });
        }
        d
    }

    pub fn distance(&self, a: SpaceIx, b: SpaceIx) -> Option<u32> {
        self.distances(a)[b]
    }

    /// Cost to enter a space: 1, +1 for DIFFICULT TERRAIN unless ignored.
    pub fn enter_cost(&self, s: SpaceIx, ignore_difficult: bool) -> u32 {
        if !ignore_difficult && self.environment(s) == Some(Environment::DifficultTerrain) {
            2
        } else {
            1
        }
    }

    /// Least movement cost from `from` to every space (Dijkstra; the graphs are small).
    pub fn costs(&self, from: SpaceIx, ignore_difficult: bool) -> Vec<Option<u32>> {
        let mut d: Vec<Option<u32>> = vec![None; self.len()];
        let mut done = vec![false; self.len()];
        d[from] = Some(0);
        loop {
            let next = (0..self.len()).filter(|&i| !done[i] && d[i].is_some()).min_by_key(|&i| (d[i].unwrap(), i));
            let Some(s) = next else { break };
            done[s] = true;
            for n in self.neighbours(s) {
                let c = d[s].unwrap() + self.enter_cost(n, ignore_difficult);
                if d[n].is_none_or(|old| c < old) {
                    d[n] = Some(c);
                }
            }
        }
        d
    }

    /// Every least-cost route from `from` to `to` (spaces after `from`).
    pub fn cheapest_routes(&self, from: SpaceIx, to: SpaceIx, ignore_difficult: bool) -> Vec<Vec<SpaceIx>> {
        let costs = self.costs(from, ignore_difficult);
        let Some(total) = costs[to] else {
            return Vec::new();
        };
        // Walk backwards along edges that are tight in the cost function.
        fn back(
            g: &Graph,
            costs: &[Option<u32>],
            at: SpaceIx,
            from: SpaceIx,
            ign: bool,
            suffix: &mut Vec<SpaceIx>,
            out: &mut Vec<Vec<SpaceIx>>,
        ) {
            if at == from {
                let mut r = suffix.clone();
                r.reverse();
                out.push(r);
                return;
            }
            let ca = costs[at].unwrap();
            for p in g.neighbours(at) {
                if let Some(cp) = costs[p] {
                    if cp + g.enter_cost(at, ign) == ca {
                        suffix.push(at);
                        back(g, costs, p, from, ign, suffix, out);
                        suffix.pop();
                    }
                }
            }
        }
        let _ = total;
        let mut out = Vec::new();
        back(self, &costs, to, from, ignore_difficult, &mut Vec::new(), &mut out);
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::divinity::content::Catalogue;

    // The index answers as the map's own lookups do, for every shipped map.
    #[test]
    fn map_index_agrees_with_the_map() {
        for l in Catalogue::standard().locations.values() {
            let idx = l.map_index();
            assert_eq!(idx.paths, path_ixs(&l.map));
            for s in &l.map.spaces {
                assert_eq!(idx.ix(&s.id), l.map.ix(&s.id), "{} {}", l.id, s.id);
            }
            for id in ["", "0", "zz", "t", "1 "] {
                assert_eq!(idx.ix(id), l.map.ix(id), "{} {id:?}", l.id);
            }
        }
    }
}
