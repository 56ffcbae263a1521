//! A finished match's public log folded with the engine and checked as
//! `athlas verify` checks it: the states the replay viewer
//! ([`crate::replay`]) serves its steps from. Each game folds through
//! [`crate::games::HostedGame::replay`].

use std::{future::Future, pin::Pin, sync::Arc};

use athlas_engine::{Ruleset, SeatNames, Status, Viewer, Visible};
use athlas_protocol::hash::hash_like;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{
    secret,
    store::{ActionRecord, Commitment, MatchRecord, RecordKind, Store, StoreError},
    table::{ReplayError, Table, TakeBack},
};

/// A state is kept after every this many records.
pub const EVERY: u64 = 32;
/// What the fold checked, as `athlas verify` does: every record replayed,
/// every stored state hash equal, every commitment opened to the secret
/// its seat had locked, and the end the stored outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verified {
    pub records: u64,
    /// Records that carried a state hash (all but those stored before
    /// hashes were kept), each equal to the replayed state's.
    pub hashes: u64,
    pub commitments: u64,
    pub outcome: Value,
}

/// One step of a replay: the record of `seq` (none at 0, the start) and
/// the spectator's view after it.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    pub seq: u64,
    /// `action`, `take_back` or `hand`; absent at seq 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// The record's events a spectator sees, and their words (a game that
    /// describes itself), as its `update` carried them.
    pub events: Vec<Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<String>,
    pub view: Value,
}

/// Why a log does not replay to what was stored: the seq of the first
/// record that does not, and what differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diverged {
    pub seq: u64,
    pub why: String,
}

/// A folded match, its game erased.
pub trait Replayed: Send + Sync {
    /// The last seq of the log.
    fn last(&self) -> u64;
    fn verified(&self) -> &Verified;
    /// The step of `seq` (`0..=last`).
    fn step(&self, seq: u64) -> Step;
}

/// A boxed future of a type-erased game's fold.
pub type FoldFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Result<Arc<dyn Replayed>, Diverged>, StoreError>> + Send + 'a>>;

/// A record as the fold keeps it: its engine action read once.
struct Kept {
    seat: u8,
    kind: RecordKind,
    /// An action record's action (read again when a step applies it: an
    /// engine action need not be `Sync`); a take-back's seq in `back`.
    action: Value,
    back: u64,
}

/// Whether the fold keeps the state after record `seq`.
#[allow(clippy::manual_is_multiple_of)] // is_multiple_of is newer than our rust-version
fn kept_after(seq: u64) -> bool {
    seq % EVERY == 0
}

/// The state after a record and, for an action record, the state before
/// it and the action's events.
struct At<R: Ruleset> {
    state: R::State,
    acted: Option<(R::State, Vec<R::Event>)>,
}

struct Folded<R: Ruleset> {
    records: Vec<Kept>,
    /// The state after record `k * EVERY`, for k = 0, 1, …
    states: Vec<R::State>,
    verified: Verified,
    /// The players' names, for the words.
    names: SeatNames,
}

/// Fold `record`'s whole log under `R` and check it.
///
/// # Errors
/// The store failing; a log that does not replay is `Ok(Err(Diverged))`.
pub async fn fold<R: crate::hosted::Hosted>(
    store: &Store,
    record: &MatchRecord,
) -> Result<Result<Arc<dyn Replayed>, Diverged>, StoreError> {
    let log = store.actions_after(record.id, 0).await?;
    let hashes = store.state_hashes(record.id).await?;
    let commitments = store.commitments(record.id).await?;
    let names = SeatNames::new(store.seat_names(record.id, record.seats).await?);
    let record = record.clone();
    // Hundreds of engine actions and state hashes: off the async workers.
    let folded = tokio::task::spawn_blocking(move || fold_log::<R>(&record, log, &hashes, &commitments, names))
        .await
        .map_err(|e| StoreError::Corrupt(format!("the replay's fold failed: {e}")))?;
    Ok(folded.map(|f| Arc::new(f) as Arc<dyn Replayed>))
}

fn fold_log<R: crate::hosted::Hosted>(
    record: &MatchRecord,
    log: Vec<ActionRecord>,
    hashes: &[(u64, Option<String>)],
    commitments: &[Commitment],
    names: SeatNames,
) -> Result<Folded<R>, Diverged> {
    let diverged = |seq, why: String| Diverged { seq, why };
    if record.rules_version != R::RULES_VERSION {
        return Err(diverged(
            0,
            format!(
                "played under {} rules version {}; this server plays {}",
                R::GAME,
                record.rules_version,
                R::RULES_VERSION
            ),
        ));
    }
    let options: R::Options =
        serde_json::from_value(record.options.clone()).map_err(|e| diverged(0, format!("stored options: {e}")))?;
    let start = R::start(&options, record.seed).map_err(|e| diverged(0, format!("the game does not start: {e}")))?;
    let mut table = Table::<R>::new(start.clone(), record.seats as usize);
    let mut states = vec![start];
    let mut records = Vec::with_capacity(log.len());
    let mut hashed = 0;
    let mut opened = 0;
    for (i, a) in log.iter().enumerate() {
        if a.seq != i as u64 + 1 {
            return Err(diverged(i as u64 + 1, format!("record {} is numbered {}: the log has a gap", i + 1, a.seq)));
        }
        match table.replay(a) {
            Ok(_) => {}
            Err(ReplayError::Corrupt(m)) => return Err(diverged(a.seq, m)),
            Err(ReplayError::NeedsFullLog) => {
                return Err(diverged(a.seq, "a take-back of no action of its seat".into()))
            }
        }
        if let Some((_, Some(stored))) = hashes.iter().find(|(seq, _)| *seq == a.seq) {
            let here = hash_like(stored, &table.state, &R::hashed(&table.state));
            if &here != stored {
                return Err(diverged(a.seq, format!("the state hashes to {here}, the server stored {stored}")));
            }
            hashed += 1;
        }
        for c in commitments.iter().filter(|c| c.seq == a.seq) {
            let secret = R::locked_secret(&table.state, c.seat).ok_or_else(|| {
                diverged(a.seq, format!("seat {} has no locked secret to open its commitment", c.seat))
            })?;
            let salt =
                hex::decode(&c.salt).map_err(|_| diverged(a.seq, format!("seat {}'s salt is not hex", c.seat)))?;
            if secret::commitment(&salt, &secret) != c.hash {
                return Err(diverged(a.seq, format!("seat {}'s commitment does not open to what it locked", c.seat)));
            }
            opened += 1;
        }
        records.push(Kept {
            seat: a.seat,
            kind: a.kind,
            action: a.action.clone(),
            back: match a.kind {
                RecordKind::TakeBack => serde_json::from_value::<TakeBack>(a.action.clone()).expect("it replayed").seq,
                _ => 0,
            },
        });
        if kept_after(a.seq) {
            states.push(table.state.clone());
        }
    }
    if let Some(c) = commitments.iter().find(|c| c.seq == 0 || c.seq > log.len() as u64) {
        return Err(diverged(c.seq, format!("seat {}'s commitment is outside the log", c.seat)));
    }
    if log.len() as u64 != record.seq {
        return Err(diverged(
            log.len() as u64 + 1,
            format!("the match is at seq {} but its log ends before", record.seq),
        ));
    }
    let outcome = match R::status(&table.state) {
        Status::Finished(o) => serde_json::to_value(&o).expect("outcomes serialize"),
        Status::Waiting { .. } => return Err(diverged(record.seq, "the replayed match has not ended".into())),
    };
    if record.outcome.as_ref() != Some(&outcome) {
        return Err(diverged(record.seq, format!("the replay ends in {outcome}, the server stored another outcome")));
    }
    let verified = Verified { records: log.len() as u64, hashes: hashed, commitments: opened, outcome };
    Ok(Folded { records, states, verified, names })
}

impl<R: crate::hosted::Hosted> Folded<R> {
    /// The state after record `seq`.
    fn at(&self, seq: u64) -> At<R> {
        // Walk back to a kept state: an action needs the state before it;
        // a hand-over changes nothing in the game; a take-back of N leaves
        // the state as it was after N - 1.
        let mut actions = Vec::new();
        let mut n = seq;
        let mut state = loop {
            if kept_after(n) {
                break self.states[(n / EVERY) as usize].clone();
            }
            let r = &self.records[(n - 1) as usize];
            match r.kind {
                RecordKind::Action => {
                    actions.push(n);
                    n -= 1;
                }
                RecordKind::Hand => n -= 1,
                RecordKind::TakeBack => n = r.back - 1,
            }
        };
        let mut last = None;
        for n in actions.into_iter().rev() {
            let r = &self.records[(n - 1) as usize];
            let action: R::Action = serde_json::from_value(r.action.clone()).expect("the fold read it");
            let before = (n == seq).then(|| state.clone());
            let events = R::apply(&mut state, r.seat, action).expect("the fold replayed it");
            if let Some(before) = before {
                last = Some((before, events));
            }
        }
        At { state, acted: last }
    }
}

impl<R: crate::hosted::Hosted> Replayed for Folded<R> {
    fn last(&self) -> u64 {
        self.records.len() as u64
    }

    fn verified(&self) -> &Verified {
        &self.verified
    }

    fn step(&self, seq: u64) -> Step {
        let At { state, acted } = self.at(seq);
        let (events, log) = match &acted {
            Some((before, events)) => {
                let words =
                    if R::WORDS { R::named_event_words(before, &state, events, &self.names) } else { Vec::new() };
                let visible = |e: &R::Event| e.visible_to(Viewer::Spectator);
                (
                    events.iter().filter(|e| visible(e)).map(to_value).collect(),
                    events.iter().zip(words).filter(|(e, _)| visible(e)).map(|(_, w)| w).collect(),
                )
            }
            None => (Vec::new(), Vec::new()),
        };
        let r = seq.checked_sub(1).map(|i| &self.records[i as usize]);
        Step {
            seq,
            kind: r.map(|r| r.kind.as_str()),
            seat: r.map(|r| r.seat),
            events,
            log,
            view: to_value(&R::view(&state, Viewer::Spectator)),
        }
    }
}

pub(crate) fn to_value(v: &impl Serialize) -> Value {
    serde_json::to_value(v).expect("engine values serialize")
}
