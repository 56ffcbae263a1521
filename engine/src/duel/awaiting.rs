//! What the duel waits for before anything else may happen: one decision,
//! made here, in one order of precedence. Who must act
//! ([`super::Duel::status_of`]), the apply gate (`turn.rs`), the legal
//! list's judge (`legal.rs`), the response timer and the automatic pass all
//! read it, so they cannot disagree.

use super::state::{DuelState, Phase};
use crate::{Outcome, Seat};

/// The one thing the match waits for, first come first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Awaiting {
    /// The Creation Phase: the seats that have not locked their creations
    /// in, both at once.
    Creation(Vec<Seat>),
    /// A hit seat chooses which of its units dies (the first casualty
    /// waiting; the rest follow in turn).
    Casualty(Seat),
    /// A pushed unit's controller says whether it carries its relic
    /// (L1195-1197); a DI answer may be halted under it.
    RelicChoice(Seat),
    /// A Divine Intervention cast at this seat waits for its answer: a
    /// response or a pass.
    DiAnswer(Seat),
    /// This seat's response window after an activation: a DI or a pass.
    Window(Seat),
    /// The active seat's turn.
    Turn(Seat),
    /// The match is over.
    Finished(Outcome),
}

impl Awaiting {
    pub fn of(state: &DuelState) -> Awaiting {
        let g = &state.game;
        match &g.phase {
            Phase::Finished { outcome } => Awaiting::Finished(outcome.clone()),
            Phase::Creation => Awaiting::Creation((0..2u8).filter(|s| !g.players[*s as usize].locked).collect()),
            Phase::Command => {
                if let Some(c) = g.casualties.first() {
                    Awaiting::Casualty(c.seat)
                } else if let Some(c) = &g.relic_choice {
                    Awaiting::RelicChoice(c.seat)
                } else if let Some(p) = &state.pending {
                    Awaiting::DiAnswer(1 - p.caster)
                } else if let Some(w) = state.window {
                    Awaiting::Window(w)
                } else {
                    Awaiting::Turn(g.active)
                }
            }
        }
    }

    /// The seats expected to act.
    pub fn seats(&self) -> Vec<Seat> {
        match self {
            Awaiting::Creation(seats) => seats.clone(),
            Awaiting::Casualty(s)
            | Awaiting::RelicChoice(s)
            | Awaiting::DiAnswer(s)
            | Awaiting::Window(s)
            | Awaiting::Turn(s) => vec![*s],
            Awaiting::Finished(_) => Vec::new(),
        }
    }

    /// The seat that answers with a DI or a pass (a DI cast at it, or its
    /// response window): the one a response timer runs for and the server
    /// may pass for. Choices (a casualty, a relic) are not timed.
    pub fn answering(&self) -> Option<Seat> {
        match self {
            Awaiting::DiAnswer(s) | Awaiting::Window(s) => Some(*s),
            _ => None,
        }
    }
}
