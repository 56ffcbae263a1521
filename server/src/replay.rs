//! The replay viewer's data: a finished match's public log folded with the
//! engine, checked as `athlas verify` checks it, and served one step at a
//! time as the spectator saw it (`GET /api/matches/{id}/replay?seq=N`).
//!
//! A browser cannot run the engine, so the server replays for it; the page
//! says what the server checked, and anyone may check it again with
//! `athlas verify`. The fold keeps the state after every [`EVERY`]th record
//! (a duel of 550 actions: 18 states, not 550 views of 10 KB), and a step
//! is that state brought forward by at most `EVERY - 1` records. Folds are
//! kept for the [`KEPT`] matches asked for last.
//!
//! **Architecture Invariant:** nothing is replayed for a match that has
//! not ended (`not_finished`): its seed and hidden stacks are secrets until
//! then, and a spectator view of a past step could be joined with them.

use std::sync::{Arc, Mutex};

use axum::{
    extract::{Path, Query, State},
    routing::get,
    Json, Router,
};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use crate::{
    fold::{to_value, Replayed},
    hub::Hub,
    refusal::{Code, Refusal},
    request::parse_id,
    store::{MatchRecord, MatchStatus, StoreError},
};

/// How many matches' folds are kept.
pub const KEPT: usize = 8;

pub fn router() -> Router<Arc<Hub>> {
    Router::new().route("/api/matches/{match_id}/replay", get(step))
}

/// The folds kept, the latest asked for last.
#[derive(Default)]
pub struct Replays {
    kept: Mutex<Vec<(Uuid, Arc<dyn Replayed>)>>,
}

impl Replays {
    fn get(&self, id: Uuid) -> Option<Arc<dyn Replayed>> {
        let mut kept = self.kept.lock().expect("not poisoned");
        let i = kept.iter().position(|(k, _)| *k == id)?;
        let entry = kept.remove(i);
        let found = entry.1.clone();
        kept.push(entry);
        Some(found)
    }

    fn keep(&self, id: Uuid, folded: Arc<dyn Replayed>) {
        let mut kept = self.kept.lock().expect("not poisoned");
        kept.retain(|(k, _)| *k != id);
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((id, folded));
    }

    /// Match `record`'s fold, kept or made now.
    ///
    /// # Errors
    /// `not_finished` before the end; `log_diverged` when the log does not
    /// replay to what was stored; the store failing.
    pub async fn of(&self, hub: &Hub, record: &MatchRecord) -> Result<Arc<dyn Replayed>, Refusal> {
        if record.status != MatchStatus::Finished {
            return Err(Refusal::new(
                Code::NotFinished,
                format!("match {} is {}: its replay is shown once it has ended", record.id, record.status.as_str()),
            ));
        }
        if let Some(f) = self.get(record.id) {
            return Ok(f);
        }
        let game = hub
            .games
            .get(&record.game)
            .ok_or_else(|| Refusal::new(Code::UnknownGame, format!("this server does not host {}", record.game)))?;
        match game.replay(&hub.store, record).await? {
            Ok(f) => {
                self.keep(record.id, f.clone());
                Ok(f)
            }
            Err(d) => {
                tracing::warn!(match_id = %record.id, seq = d.seq, why = %d.why, "a finished match's log does not replay");
                Err(Refusal::new(
                    Code::LogDiverged,
                    format!("the log does not replay to what was stored, from seq {}: {}", d.seq, d.why),
                ))
            }
        }
    }
}

#[derive(Deserialize)]
struct StepQuery {
    seq: Option<u64>,
}

/// `GET /api/matches/{id}/replay?seq=N`: the spectator's view after record
/// N of a finished match (the last when N is left out), with the record's
/// events and what the fold verified.
async fn step(
    State(hub): State<Arc<Hub>>,
    Path(match_id): Path<String>,
    query: Result<Query<StepQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, Refusal> {
    let Query(q) = query.map_err(|e| Refusal::new(Code::BadRequest, e.body_text()))?;
    let id = parse_id(&match_id, "match")?;
    let record =
        hub.store.get_match(id).await?.ok_or_else(|| Refusal::new(Code::NotFound, format!("no match {id}")))?;
    let folded = hub.replays.of(&hub, &record).await?;
    let last = folded.last();
    let seq = q.seq.unwrap_or(last);
    if seq > last {
        return Err(Refusal::new(Code::BadRequest, format!("seq {seq} is past the log's last, {last}")));
    }
    let verified = to_value(folded.verified());
    // A step is at most EVERY - 1 engine actions: cheap, but not nothing.
    let step = tokio::task::spawn_blocking(move || folded.step(seq))
        .await
        .map_err(|e| Refusal::from(StoreError::Corrupt(format!("the replay's step failed: {e}"))))?;
    let mut body = to_value(&step);
    body["match_id"] = Value::String(id.to_string());
    body["game"] = Value::String(record.game);
    body["last"] = last.into();
    body["verified"] = verified;
    Ok(Json(body))
}
