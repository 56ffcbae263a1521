//! Actions the server takes for a seat that asked for them in the game's
//! own settings ([`Ruleset::auto_action`]): the duel's pass in a response
//! window where the seat can cast nothing. The room waits a moment first,
//! a random one, so the pass comes about when a quick player's would: an
//! instant pass would tell the opponent that the seat's secret stack holds
//! nothing it could cast (protocol/DUEL.md, "Passing automatically").

use std::time::Duration;

use rand::Rng;
use tokio::time::Instant;

use super::{action_type, to_value, Hosted, Room};
use crate::store::ActionRecord;

/// The shortest and longest wait before the server passes for a seat.
pub(super) const AUTO_DELAY: (Duration, Duration) = (Duration::from_millis(800), Duration::from_millis(2500));

impl<R> Room<R>
where
    R: Hosted,
{
    /// After each record (and on load): if the game now waits for a seat's
    /// automatic action, take it after a random moment; a wait already
    /// running keeps its moment (an action taken meanwhile re-checks).
    pub(super) fn arm_auto(&mut self) {
        let due = !self.is_finished() && R::auto_action(&self.table.state).is_some();
        self.auto_at = match (due, self.auto_at) {
            (false, _) => None,
            (true, Some(at)) => Some(at),
            (true, None) => Some(Instant::now() + rand::thread_rng().gen_range(AUTO_DELAY.0..=AUTO_DELAY.1)),
        };
    }

    /// The moment came: take the action if the game still calls for it,
    /// recorded as the seat's own. `false` when the store failed (the room
    /// unloads, as after any failed commit).
    pub(super) async fn take_auto(&mut self) -> bool {
        self.auto_at = None;
        let Some((seat, action)) = R::auto_action(&self.table.state) else { return true };
        let value = to_value(&action);
        tracing::debug!(seat, action = action_type(&value), "automatic action");
        match self.table.act(self.seq + 1, seat, action) {
            Ok(acted) => {
                let record = ActionRecord::action(self.seq + 1, seat, value);
                self.commit(record, super::Published::Events(acted), None).await
            }
            Err(e) => {
                tracing::error!(match_id = %self.id, code = e.code, "automatic action rejected");
                true
            }
        }
    }
}
