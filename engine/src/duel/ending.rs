//! How a finished duel ended, for the end screen: two relics held (by which
//! unit, where), a resignation (whose), or a draw both players agreed.
//!
//! It is read from the finished state, not stored in it: a stored match's
//! state, and so every state hash already in a log, stays what it was. The
//! state says enough: a win is by relics exactly when a unit of the winner,
//! controlled by it, holds two relics where it stands (the check runs after
//! every action of the Command Phase, so a game that went on never had such
//! a unit); any other win is the loser's resignation; and the only draw the
//! duel has is one offered and accepted. The duel has no loss on time: a
//! live timer that runs out passes a response window, it never ends a game.

use serde::{Deserialize, Serialize};

use super::card::Catalogue;
use super::state::{DuelState, Phase, UnitId};
use crate::hex::Hex;
use crate::{Outcome, Seat};

/// How a finished duel ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "how")]
pub enum Ending {
    /// `seat`'s unit `unit` holds two relics at `hex` (the book's win).
    Relics { seat: Seat, unit: UnitId, hex: Hex },
    /// `seat` resigned; the other seat won.
    Resigned { seat: Seat },
    /// A draw offered by one player and accepted by the other.
    DrawAgreed,
}

/// How `state` ended; `None` while the duel goes on.
pub fn ending(state: &DuelState, cat: &Catalogue) -> Option<Ending> {
    let g = &state.game;
    let Phase::Finished { outcome } = &g.phase else { return None };
    Some(match outcome {
        Outcome::Win { seat } => g
            .units
            .iter()
            .find(|u| u.owner == *seat && u.controller == *seat && g.relics_at(u.hex) >= 2 && g.holds_relics(cat, u))
            .map_or(Ending::Resigned { seat: 1 - *seat }, |u| Ending::Relics { seat: *seat, unit: u.id, hex: u.hex }),
        Outcome::Draw => Ending::DrawAgreed,
        // Co-operative outcomes are not a duel's: nothing to say.
        Outcome::PartyWon | Outcome::PartyLost => return None,
    })
}
