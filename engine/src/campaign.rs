//! Campaigns: a run of matches of one game, each started from what the last
//! one left. The server stores a campaign's [`Campaign::Saved`] value between
//! matches (typed and versioned by its game) and writes the new one in the
//! same transaction as the action that ended a match.

use serde::{de::DeserializeOwned, Serialize};

use crate::{RuleError, Ruleset, Seat, SetupError};

/// What a campaign needs next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step<O> {
    /// These seats still have a choice to make before a match can start.
    Choosing { seats: Vec<Seat> },
    /// The next match can start with these options.
    Ready(O),
    /// The campaign is over.
    Over,
}

/// A [`Ruleset`] that can be played as a campaign.
pub trait Campaign: Ruleset {
    /// What the campaign keeps between matches.
    type Saved: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// A choice a seat makes between matches (an Origin, a leader).
    type Choice: Clone + Serialize + DeserializeOwned;

    /// A new campaign of `seats` seats from the options the host gave.
    ///
    /// # Errors
    /// Unusable options or seat count.
    fn new_campaign(options: &Self::Options, seats: usize) -> Result<Self::Saved, SetupError>;

    /// Seat `seat` makes a choice; refused choices leave `saved` unchanged.
    ///
    /// # Errors
    /// Why the choice is refused, with a stable code.
    fn choose(saved: &mut Self::Saved, seat: Seat, choice: Self::Choice) -> Result<(), RuleError>;

    /// What the campaign needs next.
    fn next(saved: &Self::Saved) -> Step<Self::Options>;

    /// The campaign after a match started from `saved` finished in `state`.
    fn after(saved: &Self::Saved, state: &Self::State) -> Self::Saved;

    /// A short public label for a seat (Divinity: its Origin).
    fn label(_saved: &Self::Saved, _seat: Seat) -> Option<String> {
        None
    }

    /// Who may start the next match or take the party's decisions between
    /// matches: `None` means any seat.
    fn leader(_saved: &Self::Saved) -> Option<Seat> {
        None
    }
}
