//! A room rebuilt from the log: the fold of stored records into a fresh
//! [`Table`] (from the latest snapshot, or the start), for a room that
//! loads and for a connection that resumes after the `seq` it last saw.
//!
//! Replay is the only way state comes back: the engine is deterministic
//! from the seed, so the log (and a snapshot, a shortcut through it) is the
//! match.

use athlas_engine::{Ruleset, SeatNames, Viewer};

use super::{
    frames::{board_changed, update, Change, Published},
    Hosted, Joining, Outbound, Room, WordLog,
};
use crate::refusal::{Code, Refusal};
use crate::{
    store::{MatchRecord, RecordKind, Store, StoreError},
    table::{ReplayError, Table},
};

impl<R> Room<R>
where
    R: Hosted,
{
    /// Gap-free resume of a connection that last saw `last`: rebuild the
    /// table at `last` from the log and replay forward, recomputing what
    /// this viewer saw (a welcome at `last`, then one update per record).
    pub(super) async fn resume(&self, viewer: Viewer, last: u64, out: &Outbound) -> Result<(), Joining> {
        let timer_ms = self.timer_ms();
        let (seq, mut table) =
            rebuild::<R>(&self.ctx.store, &self.record, &self.options, Some(last)).await.map_err(Joining::Refused)?;
        table.names = self.table.names.clone();
        let log = self.ctx.store.actions_after(self.id, seq).await.map_err(|e| Joining::Refused(store_failed(e)))?;
        out.send(&self.welcome(viewer, seq, &table, None, Vec::new()));
        let mut cache = std::collections::HashMap::new();
        // Each update leaves the board out as it did when first sent: when
        // it is the same as after the record before.
        let mut board = R::board_key(&table.state);
        for a in log.iter().take_while(|a| a.seq <= self.seq) {
            let applied = table.replay(a).map_err(|e| {
                Joining::Refused(Refusal::new(
                    Code::Internal,
                    match e {
                        ReplayError::Corrupt(m) => m,
                        ReplayError::NeedsFullLog => format!("take-back {} does not replay", a.seq),
                    },
                ))
            })?;
            // Only the update that brings the receiver to now has a
            // clock and the legal actions.
            let now = a.seq == self.seq;
            let after = R::board_key(&table.state);
            let board_changed = board_changed(&board, &after);
            board = after;
            let change = Change {
                record: a,
                published: &Published::from_applied(applied),
                timer_ms: if now { timer_ms } else { None },
                control: (table.handed() || a.kind == RecordKind::Hand).then(|| table.control.clone()),
                board_changed,
            };
            let legal = if now {
                self.legal_json_for(viewer, None, out.legal, &R::status(&self.table.state), &mut cache)
            } else {
                Vec::new()
            };
            out.send_frame(update::<R>(&table.state, viewer, &change, legal).into());
        }
        Ok(())
    }
}

/// The table after the latest snapshot at or before `at_most` (or the
/// start) and every stored record after it, up to `at_most`. Hand-overs
/// before the snapshot are read on their own; a take-back of an action from
/// before the snapshot makes it fold the whole log instead.
pub(super) async fn rebuild<R: Ruleset>(
    store: &Store,
    record: &MatchRecord,
    options: &R::Options,
    at_most: Option<u64>,
) -> Result<(u64, Table<R>), Refusal> {
    let internal = |e: String| Refusal::new(Code::Internal, e);
    let seats = record.seats as usize;
    let start = || R::start(options, record.seed).map_err(|e| internal(format!("setup: {e}")));
    let snapshot = store.latest_snapshot(record.id, at_most).await.map_err(store_failed)?;
    // A snapshot that no longer reads (an older state shape) is skipped.
    let snapshot = snapshot.and_then(|(seq, state)| match serde_json::from_value::<R::State>(state) {
        Ok(state) => Some((seq, state)),
        Err(e) => {
            tracing::warn!(match_id = %record.id, seq, error = %e, "snapshot unreadable; replaying from the start");
            None
        }
    });
    let from_snapshot = snapshot.is_some();
    let (seq, mut table) = match snapshot {
        Some((seq, state)) => {
            let mut table = Table::new(state, seats);
            for h in store.records_of_kind(record.id, RecordKind::Hand, seq).await.map_err(store_failed)? {
                table.replay(&h).map_err(|e| internal(format!("{e:?}")))?;
            }
            (seq, table)
        }
        None => (0, Table::new(start()?, seats)),
    };
    match fold(store, record, at_most, seq, &mut table).await? {
        Some(seq) => Ok((seq, table)),
        None if from_snapshot => {
            let mut table = Table::new(start()?, seats);
            let seq = fold(store, record, at_most, 0, &mut table)
                .await?
                .ok_or_else(|| internal("a take-back does not replay from the start".into()))?;
            Ok((seq, table))
        }
        None => Err(internal("a take-back does not replay from the start".into())),
    }
}

/// The table folded from the start of the log, with the log in words of
/// its latest records ([`WordLog`]): for a game with [`Ruleset::WORDS`],
/// whose newcomers are told what happened before. It replays every record
/// once per room load (a Divinity location is a few hundred, a long duel
/// some 600), describing each.
pub(super) async fn rebuild_with_log<R: Ruleset>(
    store: &Store,
    record: &MatchRecord,
    options: &R::Options,
) -> Result<(u64, Table<R>, WordLog), Refusal> {
    let internal = |e: String| Refusal::new(Code::Internal, e);
    let state = R::start(options, record.seed).map_err(|e| internal(format!("setup: {e}")))?;
    let mut table = Table::new(state, record.seats as usize);
    // The lines name the players as they are named now.
    table.names = SeatNames::new(store.seat_names(record.id, record.seats).await.map_err(store_failed)?);
    let mut log = WordLog::default();
    let mut seq = 0;
    for a in store.actions_after(record.id, 0).await.map_err(store_failed)? {
        let applied = table.replay(&a).map_err(|e| match e {
            ReplayError::Corrupt(m) => internal(m),
            ReplayError::NeedsFullLog => internal(format!("take-back {} does not replay from the start", a.seq)),
        })?;
        log.record::<R>(a.seq, &Published::from_applied(applied));
        seq = a.seq;
    }
    Ok((seq, table, log))
}

/// A store failure as the protocol's code and the store's words:
/// `store_unavailable` while the database is away (the client retries),
/// else `internal`.
pub(super) fn store_failed(e: StoreError) -> Refusal {
    Refusal::new(e.code(), e.to_string())
}

/// Fold the records after `from` (up to `at_most`) into `table`: the seq
/// reached, or `None` when a take-back needs the whole log.
async fn fold<R: Ruleset>(
    store: &Store,
    record: &MatchRecord,
    at_most: Option<u64>,
    from: u64,
    table: &mut Table<R>,
) -> Result<Option<u64>, Refusal> {
    let internal = |e: String| Refusal::new(Code::Internal, e);
    let mut seq = from;
    if at_most.is_some_and(|m| m <= seq) {
        return Ok(Some(seq));
    }
    for a in store.actions_after(record.id, seq).await.map_err(store_failed)? {
        if at_most.is_some_and(|m| a.seq > m) {
            break;
        }
        match table.replay(&a) {
            Ok(_) => seq = a.seq,
            Err(ReplayError::NeedsFullLog) => return Ok(None),
            Err(ReplayError::Corrupt(m)) => return Err(internal(m)),
        }
    }
    Ok(Some(seq))
}
