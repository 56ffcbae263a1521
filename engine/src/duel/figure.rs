//! The names both the actions and the state use for what stands on the
//! board: a unit's id and the four figure types.

use serde::{Deserialize, Serialize};

/// A unit's id, counted from 0 in the order units are summoned.
pub type UnitId = u32;

/// The four figure types; each of a player's revealed Alphas uses a different one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    CelestialKnight,
    ShadowRanger,
    SpellBinder,
    ForsakenDrake,
}

impl Figure {
    pub const ALL: [Figure; 4] =
        [Figure::CelestialKnight, Figure::ShadowRanger, Figure::SpellBinder, Figure::ForsakenDrake];
}
