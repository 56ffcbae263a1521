//! What happened, each event knowing who may see it.

use serde::{Deserialize, Serialize};

use super::content::{CardId, StatusKind, TerrainEffect};
use super::grid::Pos;
use super::state::FigureId;
use crate::{Outcome, Seat, Viewer, Visible};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum ClansEvent {
    /// The seat's own placement: seen by that seat alone until all have placed.
    Placed {
        seat: Seat,
        homebase: Pos,
        god: Pos,
    },
    /// Public: a seat has placed (where stays secret).
    Ready {
        seat: Seat,
    },
    /// Every placement revealed; the Gods stand on the field (C4).
    Revealed {
        homebases: Vec<Pos>,
        gods: Vec<(FigureId, Pos)>,
        first: Seat,
    },
    TurnStarted {
        seat: Seat,
        turn: u32,
        sp: i32,
        exp: i32,
    },
    Summoned {
        seat: Seat,
        card: CardId,
        figure: FigureId,
        at: Pos,
        sp: i32,
    },
    Moved {
        figure: FigureId,
        from: Pos,
        to: Pos,
    },
    /// One hit: a standard attack's or counter's strike, an ability, item,
    /// art or status tick.
    Damaged {
        figure: FigureId,
        by: Option<FigureId>,
        amount: i32,
        hp: i32,
    },
    Healed {
        figure: FigureId,
        amount: i32,
        hp: i32,
    },
    StatusApplied {
        figure: FigureId,
        status: StatusKind,
    },
    Cured {
        figure: FigureId,
    },
    Destroyed {
        figure: FigureId,
        exp_to: Option<Seat>,
        exp: i32,
    },
    AbilityUsed {
        figure: FigureId,
        ability: u8,
        name: String,
        target: FigureId,
        sp: i32,
    },
    Equipped {
        seat: Seat,
        card: CardId,
        figure: FigureId,
    },
    Assimilated {
        seat: Seat,
        card: CardId,
        sp: i32,
    },
    ItemUsed {
        seat: Seat,
        card: CardId,
        target: FigureId,
    },
    ArtCast {
        seat: Seat,
        card: CardId,
        caster: FigureId,
        partner: FigureId,
        target: FigureId,
    },
    TerrainCast {
        seat: Seat,
        card: CardId,
        effect: TerrainEffect,
    },
    /// A response window opens for `seat` (C10).
    WindowOpened {
        seat: Seat,
    },
    Passed {
        seat: Seat,
    },
    TurnEnded {
        seat: Seat,
    },
    /// The seat is out: its God fell or it resigned (L7, L81).
    PlayerOut {
        seat: Seat,
        resigned: bool,
    },
    GameOver {
        outcome: Outcome,
    },
}

impl Visible for ClansEvent {
    fn visible_to(&self, viewer: Viewer) -> bool {
        match self {
            ClansEvent::Placed { seat, .. } => viewer == Viewer::Seat(*seat),
            _ => true,
        }
    }
}
