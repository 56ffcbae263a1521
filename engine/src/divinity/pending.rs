//! What the match waits for before anything else may happen: one decision,
//! made here, in one order of precedence. The apply gate
//! ([`super::ruleset`]), who must act ([`super::Divinity::status_of`]) and
//! whether an enemy's turn is on hold all read it.

use super::action::DivinityAction as A;
use super::state::{Choice, DivinityState};
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

/// The choice or roll the match waits for, first come first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending {
    /// An item no one had room for: the party places or discards it (L1056).
    PlaceItem,
    /// A DOMINATED minion waits for the party to pick its target (L1735).
    Command,
    /// The party picks the dice an enemy's roll loses (L1515).
    EnemyDice,
    /// The party picks a minion's (or a Boss') route among equals (L1689).
    Route,
    /// The party orders an enemy's start-of-turn effects (L684).
    TurnStartOrder,
    /// The party picks an enemy's target among equals (L1623).
    Tie,
    /// The rolling Origin picks the dice its own roll loses (L1515).
    OwnDice(Seat),
    /// An enemy's roll open to the Origins' Source rerolls (L511).
    EnemyRoll,
    /// An Origin's roll open to rerolls until its roller accepts it.
    Roll(Seat),
    /// A challenge under way: its rollers roll or succeed (L1178-1206).
    Challenge,
}

impl Pending {
    /// Refuse an action that does not answer what the match waits for.
    ///
    /// # Errors
    /// `item_waiting`, `orders_pending`, `reduction_pending`,
    /// `route_pending`, `turn_start_pending`, `tie_pending`,
    /// `roll_pending` or `challenge_under_way`.
    pub fn admits(self, action: &A) -> Result<(), RuleError> {
        let refusal = match self {
            Pending::PlaceItem if !matches!(action, A::PlaceItem { .. }) => RuleError::of(
                DivinityRefusal::ItemWaiting,
                "the party first finds room for the new item or discards it (L1056)",
            ),
            Pending::Command if !matches!(action, A::Command { .. }) => {
                RuleError::of(DivinityRefusal::OrdersPending, "the party first picks the DOMINATED minion's target")
            }
            Pending::EnemyDice if !matches!(action, A::ReduceDice { .. }) => RuleError::of(
                DivinityRefusal::ReductionPending,
                "the party first picks the dice the enemy loses (L1515)",
            ),
            Pending::OwnDice(_) if !matches!(action, A::ReduceDice { .. }) => RuleError::of(
                DivinityRefusal::ReductionPending,
                "the rolling Origin first picks the dice its roll loses (L1515)",
            ),
            Pending::Route if !matches!(action, A::ChooseRoute { .. }) => RuleError::of(
                DivinityRefusal::RoutePending,
                "the party first picks the minion's route among equals (L1689)",
            ),
            Pending::TurnStartOrder if !matches!(action, A::OrderTurnStart { .. }) => RuleError::of(
                DivinityRefusal::TurnStartPending,
                "the party first picks the order of the enemy's start-of-turn effects (L684)",
            ),
            Pending::Tie if !matches!(action, A::BreakTie { .. }) => {
                RuleError::of(DivinityRefusal::TiePending, "the party first picks the enemy's target among equals")
            }
            Pending::EnemyRoll | Pending::Roll(_) if !matches!(action, A::Reroll { .. } | A::Accept) => {
                RuleError::of(DivinityRefusal::RollPending, "accept or reroll the pending roll first")
            }
            Pending::Challenge
                if !matches!(action, A::Challenge { .. } | A::ChooseResult { .. } | A::Reroll { .. } | A::Accept) =>
            {
                RuleError::of(DivinityRefusal::ChallengeUnderWay, "finish the challenge first")
            }
            _ => return Ok(()),
        };
        Err(refusal)
    }
}

impl Choice {
    /// What the match waits for while this decision is stored.
    pub fn pending(&self) -> Pending {
        match self {
            Choice::Roll(p) => Pending::Roll(p.seat),
            Choice::OwnDice(r) => Pending::OwnDice(r.seat),
            Choice::EnemyRoll(_) => Pending::EnemyRoll,
            Choice::Command { .. } => Pending::Command,
            Choice::Tie(_) => Pending::Tie,
            Choice::Route(_) => Pending::Route,
            Choice::EnemyDice(_) => Pending::EnemyDice,
            Choice::TurnStartOrder(_) => Pending::TurnStartOrder,
        }
    }
}

impl DivinityState {
    /// What the match waits for, if anything: the one place that decides.
    /// An item to place comes before all else (L1056); then the stored
    /// decision; then a challenge, whose rolls are themselves stored
    /// decisions.
    pub fn pending_choice(&self) -> Option<Pending> {
        if !self.overflow.is_empty() {
            return Some(Pending::PlaceItem);
        }
        match &self.choice {
            Some(c) => Some(c.pending()),
            None if self.challenge.is_some() => Some(Pending::Challenge),
            None => None,
        }
    }

    /// An enemy's turn waits for a decision the party makes for it.
    pub(super) fn enemy_choice_pending(&self) -> bool {
        self.choice.as_ref().is_some_and(Choice::for_enemy)
    }
}
