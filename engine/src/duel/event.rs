//! What happened, each event knowing who may see it.

use serde::{Deserialize, Serialize};

use super::alpha::AlphaDesign;
use super::card::{CardId, Terrain};
use super::state::{Figure, UnitId};
use crate::hex::Hex;
use crate::{Outcome, Seat, Viewer, Visible};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelEvent {
    /// Only this seat may see the event; everyone when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only: Option<Seat>,
    #[serde(flatten)]
    pub kind: EventKind,
}

impl Visible for DuelEvent {
    fn visible_to(&self, viewer: Viewer) -> bool {
        match self.only {
            None => true,
            Some(s) => viewer == Viewer::Seat(s),
        }
    }
}

/// Why a unit lost life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LifeCause {
    Attack,
    Power,
    Drowning,
    Falling,
    Crushed,
    Sacrifice,
    Explosion,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// A seat locked in its creations (content stays secret).
    CreationLocked {
        seat: Seat,
    },
    CommandPhaseBegins {
        first_player: Seat,
    },
    TurnBegins {
        seat: Seat,
        turn: u32,
    },
    MarkerExpired {
        unit: UnitId,
    },
    DiCubeRemoved {
        seat: Seat,
        card: CardId,
        cubes_left: u32,
    },
    DiExpired {
        seat: Seat,
        card: CardId,
    },
    Regenerated {
        seat: Seat,
        alpha: usize,
        amount: u32,
        life: u32,
    },
    /// An Alpha is revealed at its first summon: its cards become public.
    AlphaRevealed {
        seat: Seat,
        alpha: usize,
        design: AlphaDesign,
        cost: u32,
        life: u32,
        figure: Figure,
    },
    Summoned {
        seat: Seat,
        alpha: usize,
        unit: UnitId,
        hex: Hex,
        spent: u32,
    },
    Activated {
        unit: UnitId,
    },
    Moved {
        unit: UnitId,
        from: Hex,
        to: Hex,
        relics: usize,
    },
    RelicMoved {
        from: Hex,
        to: Hex,
    },
    PowerUsed {
        unit: UnitId,
        card: CardId,
        power: String,
    },
    Attacked {
        attacker: Option<UnitId>,
        target: UnitId,
        value: i32,
        armor: u32,
        damage: u32,
    },
    LifeLost {
        seat: Seat,
        alpha: usize,
        unit: UnitId,
        amount: u32,
        cause: LifeCause,
        life: u32,
    },
    Healed {
        seat: Seat,
        alpha: usize,
        amount: u32,
        life: u32,
    },
    Died {
        unit: UnitId,
        seat: Seat,
        alpha: usize,
        life: u32,
    },
    TerrainChanged {
        hex: Hex,
        terrain: Terrain,
    },
    Marked {
        unit: UnitId,
    },
    Controlled {
        unit: UnitId,
        by: Seat,
    },
    ActivationEnded {
        unit: UnitId,
    },
    WindowOpened {
        seat: Seat,
    },
    /// A DI is cast: the card becomes public.
    DiCast {
        seat: Seat,
        card: CardId,
    },
    DiResolved {
        seat: Seat,
        card: CardId,
    },
    DiFizzled {
        seat: Seat,
        card: CardId,
        reason: String,
    },
    /// The game went back to a checkpoint of the activation to time a DI.
    Rewound {
        checkpoint: usize,
    },
    DiDiscarded {
        seat: Seat,
        count: usize,
    },
    /// The discarded cards, for their owner only.
    DiDiscardedCards {
        seat: Seat,
        cards: Vec<CardId>,
    },
    Passed {
        seat: Seat,
    },
    /// The seat's timed response window ran out: the server passed for it.
    TimedOut {
        seat: Seat,
    },
    CasualtyChosen {
        seat: Seat,
        unit: UnitId,
    },
    /// A push halted: the pushed relic holder's controller must say whether
    /// the relic goes along.
    RelicChoiceAwaited {
        seat: Seat,
        unit: UnitId,
    },
    RelicCarryChosen {
        seat: Seat,
        unit: UnitId,
        carry: bool,
    },
    DrawOffered {
        seat: Seat,
    },
    DrawDeclined {
        seat: Seat,
    },
    GameOver {
        outcome: Outcome,
    },
}

impl DuelEvent {
    pub fn public(kind: EventKind) -> Self {
        DuelEvent { only: None, kind }
    }

    pub fn private(seat: Seat, kind: EventKind) -> Self {
        DuelEvent { only: Some(seat), kind }
    }
}
