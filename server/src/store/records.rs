//! The log's records: an accepted action, a take-back or a hand-over
//! ([`ActionRecord`], [`RecordKind`]), the commitments to locked secrets,
//! and the one transaction that writes them ([`Append`], the group commit's
//! unit) and the readers a room rebuilds from (records after a seq, records
//! of a kind, the latest snapshot).
//!
//! **Architecture Invariant:** `actions` rows are only ever inserted.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use sqlx::Row;
use uuid::Uuid;

use super::{is_unique_violation, parse_json, Backend, CampaignUpdate, Fence, MatchStatus, Result, Store, StoreError};

/// One entry of the action log.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionRecord {
    pub seq: u64,
    /// The seat the record is for.
    pub seat: u8,
    /// The engine's action, or the record's own body (see [`RecordKind`]).
    pub action: Value,
    pub kind: RecordKind,
    /// The seat whose player sent it, when not `seat`'s own (a handed seat).
    pub sender: Option<u8>,
}

impl ActionRecord {
    /// An engine action `seat` sent itself.
    pub fn action(seq: u64, seat: u8, action: Value) -> ActionRecord {
        ActionRecord { seq, seat, action, kind: RecordKind::Action, sender: None }
    }
}

/// What a log record is. Stored as `action`, `take_back`, `hand`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    /// An engine action.
    Action,
    /// `{"seq": N}`: `seat` took back its own action N.
    TakeBack,
    /// `{"seat": S, "to": T|null}`: control of seat S handed to seat T.
    Hand,
}

impl RecordKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Action => "action",
            RecordKind::TakeBack => "take_back",
            RecordKind::Hand => "hand",
        }
    }

    fn parse(s: &str) -> Result<RecordKind> {
        [RecordKind::Action, RecordKind::TakeBack, RecordKind::Hand]
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown log record kind {s:?}")))
    }
}

/// A seat's commitment to its locked secret.
#[derive(Debug, Clone, PartialEq)]
pub struct Commitment {
    pub seat: u8,
    /// hex SHA-256(salt ‖ canonical JSON of the secret)
    pub hash: String,
    /// hex; given to clients only when the match is finished
    pub salt: String,
    /// The sequence number of the action that locked the secret.
    pub seq: u64,
}

/// Everything one accepted action writes, in one transaction.
#[derive(Debug, Clone)]
pub struct Append {
    pub match_id: Uuid,
    pub action: ActionRecord,
    pub commitments: Vec<Commitment>,
    /// Set when this action finished the match (the engine's outcome).
    pub outcome: Option<Value>,
    /// The engine's status after this action (whose move it is), kept on
    /// the match row for the lobby.
    pub standing: Option<Value>,
    /// A snapshot of the state after this action, now and then: its JSON
    /// text (written straight from the state; a `Value` tree of a whole
    /// duel state cost more than the rest of the action).
    pub snapshot: Option<String>,
    /// Set when this action finished a match of a campaign: the campaign's
    /// new state, written in the same transaction (both or neither).
    pub campaign: Option<CampaignUpdate>,
    /// The hash of the engine state after this record
    /// ([`crate::audit::state_hash`]), for the replay audit.
    pub state_hash: Option<String>,
    /// In a cluster: the lease the room holds. The write happens only if
    /// the lease is still this node's at this epoch ([`super::lease`]).
    pub fence: Option<Fence>,
}

impl Append {
    /// `action` of `match_id` alone: no commitments, outcome, standing,
    /// snapshot, campaign, state hash or fence (fill those in with
    /// `..Append::new(…)`).
    pub fn new(match_id: Uuid, action: ActionRecord) -> Append {
        Append {
            match_id,
            action,
            commitments: Vec::new(),
            outcome: None,
            standing: None,
            snapshot: None,
            campaign: None,
            state_hash: None,
            fence: None,
        }
    }
}

/// Bind the seq moves of `chunk` onto `$q` ([`seq_moves_sql`]'s
/// parameters), then NULL up to `$room` rows. A macro, not a function:
/// one binding serves both backends' query types.
macro_rules! bind_moves {
    ($q:expr, $chunk:expr, $room:expr) => {{
        let mut q = $q;
        for a in $chunk {
            q = q.bind(a.match_id.to_string()).bind(a.action.seq as i64).bind(a.standing.as_ref().map(json_text));
        }
        for _ in $chunk.len()..$room {
            q = q.bind(None::<String>).bind(None::<i64>).bind(None::<String>);
        }
        q
    }};
}

/// Bind the action rows of `chunk` onto `$q` ([`action_rows_sql`]'s
/// parameters), then NULL up to `$room` rows.
macro_rules! bind_rows {
    ($q:expr, $chunk:expr, $room:expr) => {{
        let mut q = $q;
        for a in $chunk {
            q = q
                .bind(a.match_id.to_string())
                .bind(a.action.seq as i64)
                .bind(a.action.seat as i32)
                .bind(json_text(&a.action.action))
                .bind(a.action.kind.as_str())
                .bind(a.action.sender.map(i32::from))
                .bind(a.state_hash.as_deref());
        }
        for _ in $chunk.len()..$room {
            q = q
                .bind(None::<String>)
                .bind(None::<i64>)
                .bind(None::<i32>)
                .bind(None::<String>)
                .bind(None::<&str>)
                .bind(None::<i32>)
                .bind(None::<&str>);
        }
        q
    }};
}

/// What a refused or failed group commit tells its caller: a seq that does
/// not follow (the seq check) or is taken is [`StoreError::Conflict`].
fn write_error(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(d) if d.is_check_violation() => {
            StoreError::Conflict("an action seq does not follow the stored seq".into())
        }
        _ if is_unique_violation(&e) => StoreError::Conflict(e.to_string()),
        _ => e.into(),
    }
}

impl Store {
    /// Write accepted actions (of any rooms) in one transaction: the group
    /// commit. Each action's seq must follow its match's stored seq.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when a seq is already taken (another writer
    /// owns the room); nothing of the batch is then written.
    pub async fn append(&self, batch: &[Append]) -> Result<()> {
        if let Some(done) = self.append_at_once(batch).await {
            return done;
        }
        let q_commit =
            self.sql("INSERT INTO commitments (match_id, seat, hash, salt, seq) VALUES ($1::uuid, $2, $3, $4, $5)");
        let q_finish = self.sql("UPDATE matches SET status = $3, outcome = $2::jsonb WHERE id = $1::uuid");
        let q_snap = self.sql("INSERT INTO snapshots (match_id, seq, state) VALUES ($1::uuid, $2, $3)");
        // `Some(why)`: refused whole, nothing written.
        let r: std::result::Result<Option<StoreError>, sqlx::Error> = with_write_tx!(self, tx => async {
            // A room that lost its lease writes nothing. The lease row is
            // held until the commit (`FOR SHARE`): a takeover waits for this
            // write, or this write sees the takeover. (Fences exist only on
            // Postgres: a cluster's store.)
            let mut fenced: Vec<(Uuid, &Fence)> =
                batch.iter().filter_map(|a| a.fence.as_ref().map(|f| (a.match_id, f))).collect();
            fenced.sort_by_key(|(id, _)| *id);
            fenced.dedup_by_key(|(id, _)| *id);
            if !fenced.is_empty() {
                // A node paused inside this transaction would hold the
                // lease rows and stall the takeover it is fenced by:
                // Postgres ends such a transaction after a while.
                sqlx::query("SET LOCAL idle_in_transaction_session_timeout = '5s'").execute(&mut *tx).await?;
            }
            if let Some((_, first)) = fenced.first() {
                // One round trip for the whole batch: a writer serves one
                // node, so every fence names it. (UUIDs are hex and dashes:
                // safe to write into the statement.)
                let ids: Vec<String> = fenced.iter().map(|(id, _)| format!("'{id}'")).collect();
                let q = format!(
                    "SELECT CAST(match_id AS TEXT) AS id, epoch FROM leases \
                     WHERE node_id = $1 AND match_id IN ({}) FOR SHARE",
                    ids.join(", ")
                );
                // Its text varies with the batch: not kept as a prepared statement.
                let rows = sqlx::query(&q).persistent(false).bind(&*first.node).fetch_all(&mut *tx).await?;
                let mut held = std::collections::HashMap::new();
                for r in &rows {
                    held.insert(r.try_get::<String, _>("id")?, r.try_get::<i64, _>("epoch")?);
                }
                for (match_id, fence) in &fenced {
                    if fence.node != first.node || held.get(&match_id.to_string()) != Some(&(fence.epoch as i64)) {
                        return Ok(Some(StoreError::Fenced(format!(
                            "node {} no longer holds match {match_id} at epoch {}: another node took it over",
                            fence.node, fence.epoch
                        ))));
                    }
                }
            }
            // Every seq move of a chunk in one statement and every action
            // row in another: two round trips to the database per chunk,
            // not two per action (on SQLite each is a hand-over to its
            // worker thread, and each hand-over waits for a busy runtime
            // to run this task again). A statement has room for a power
            // of two of rows, so few distinct statements are prepared and
            // cached; the rows a chunk leaves empty are NULL and write
            // nothing.
            let mut rest = batch;
            while !rest.is_empty() {
                // A match's next action waits for the next chunk: within a
                // chunk every move starts from the stored seq.
                let mut seen = std::collections::HashSet::new();
                let n = rest.iter().take_while(|a| seen.insert(a.match_id)).count();
                let (chunk, tail) = rest.split_at(n);
                rest = tail;
                let room = n.next_power_of_two();
                let statements = self.chunk_statements(room);
                let moves = bind_moves!(sqlx::query(&statements.0), chunk, room);
                let rows = bind_rows!(sqlx::query(&statements.1), chunk, room);
                if moves.execute(&mut *tx).await?.rows_affected() != n as u64 {
                    return Ok(Some(StoreError::Conflict("an action seq does not follow the stored seq".into())));
                }
                rows.execute(&mut *tx).await?;
            }
            for a in batch {
                let id = a.match_id.to_string();
                let seq = a.action.seq as i64;
                for c in &a.commitments {
                    sqlx::query(&q_commit).bind(&id).bind(c.seat as i32).bind(&c.hash).bind(&c.salt)
                        .bind(c.seq as i64).execute(&mut *tx).await?;
                }
                if let Some(outcome) = &a.outcome {
                    sqlx::query(&q_finish)
                        .bind(&id)
                        .bind(outcome.to_string())
                        .bind(MatchStatus::Finished)
                        .execute(&mut *tx)
                        .await?;
                }
                if let Some(state) = &a.snapshot {
                    sqlx::query(&q_snap).bind(&id).bind(seq).bind(state.as_str()).execute(&mut *tx).await?;
                }
                // A campaign's new state goes with the action that ended its
                // match; a new match is started by the lobby, never here.
                if let Some(c) = &a.campaign {
                    if !write_campaign!(self, tx, c.id, c.version, c.saved.as_ref(), None) {
                        return Ok(Some(StoreError::Stale));
                    }
                }
            }
            tx.commit().await?;
            Ok(None)
        });
        match r {
            Ok(None) => Ok(()),
            Ok(Some(e)) => Err(e),
            Err(e) => Err(write_error(e)),
        }
    }

    /// SQLite's usual group commit in one hand-over to its worker thread:
    /// the transaction's begin, the seq moves, their check, the action
    /// rows, the snapshots and the commit as one list of statements. The
    /// general path in [`Store::append`] hands each statement over on its
    /// own, four at least a commit, each waking sqlx's SQLite thread and
    /// then this task: at human pace, where a commit carries a few
    /// actions, those wake-ups were most of an action's context switches.
    /// For a batch of one action per match with nothing but a snapshot
    /// besides (no commitments, outcome or campaign: those come with a
    /// match's first and last actions); `None` for any other batch, and on
    /// Postgres, whose prepared statements are one statement each (there
    /// each is a round trip to the database, with no thread between).
    async fn append_at_once(&self, batch: &[Append]) -> Option<Result<()>> {
        let Backend::Sqlite { writer, .. } = &self.backend else { return None };
        let plain =
            |a: &Append| a.commitments.is_empty() && a.outcome.is_none() && a.campaign.is_none() && a.fence.is_none();
        let mut seen = std::collections::HashSet::with_capacity(batch.len());
        if batch.is_empty() || !batch.iter().all(|a| plain(a) && seen.insert(a.match_id)) {
            return None;
        }
        let n = batch.len();
        let snapshots = batch.iter().filter(|a| a.snapshot.is_some()).count();
        let (room, snapshot_room) =
            (n.next_power_of_two(), if snapshots == 0 { 0 } else { snapshots.next_power_of_two() });
        let sql = at_once_statements(self, room, snapshot_room);
        // The parameters in the statements' order: the seq moves, the count
        // they must reach, the action rows, the snapshots; unused rows NULL.
        let mut q = bind_rows!(bind_moves!(sqlx::query(&sql), batch, room).bind(n as i64), batch, room);
        for a in batch {
            if let Some(state) = &a.snapshot {
                q = q.bind(a.match_id.to_string()).bind(a.action.seq as i64).bind(state.as_str());
            }
        }
        for _ in snapshots..snapshot_room {
            q = q.bind(None::<String>).bind(None::<i64>).bind(None::<&str>);
        }
        let mut held = writer.lock().await;
        let r = match held.get().await {
            Ok(conn) => q.execute(conn).await.map(|_| ()),
            Err(e) => Err(e),
        };
        Some(r.map_err(|e| {
            // A statement failed inside the transaction: closing the
            // connection rolls it back, and the next write opens another.
            held.conn = None;
            write_error(e)
        }))
    }

    /// The actions of a match after `after_seq`, in order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn actions_after(&self, match_id: Uuid, after_seq: u64) -> Result<Vec<ActionRecord>> {
        let q = self.sql(
            "SELECT seq, seat, action::text AS action, kind, sender FROM actions \
             WHERE match_id = $1::uuid AND seq > $2 ORDER BY seq",
        );
        let rows = with_pool!(self, p => {
            let rows = sqlx::query(&q).bind(match_id.to_string()).bind(after_seq as i64).fetch_all(p).await?;
            rows.iter().map(raw_record).collect::<std::result::Result<Vec<_>, _>>()?
        });
        rows.into_iter().map(to_record).collect()
    }

    /// The stored state hash of each record of a match, by seq (`None`:
    /// written before hashes were kept).
    ///
    /// # Errors
    /// Database errors.
    pub async fn state_hashes(&self, match_id: Uuid) -> Result<Vec<(u64, Option<String>)>> {
        let q = self.sql("SELECT seq, state_hash FROM actions WHERE match_id = $1::uuid ORDER BY seq");
        let rows = with_pool!(self, p => {
            let rows = sqlx::query(&q).bind(match_id.to_string()).fetch_all(p).await?;
            rows.iter().map(|r| Ok::<_, sqlx::Error>((
                r.try_get::<i64, _>("seq")? as u64,
                r.try_get::<Option<String>, _>("state_hash")?,
            ))).collect::<std::result::Result<Vec<_>, _>>()?
        });
        Ok(rows)
    }

    /// The records of one kind of a match up to `up_to`, in order (a
    /// room rebuilt from a snapshot reads the hand-overs before it).
    ///
    /// # Errors
    /// Database errors.
    pub async fn records_of_kind(&self, match_id: Uuid, kind: RecordKind, up_to: u64) -> Result<Vec<ActionRecord>> {
        let q = self.sql(
            "SELECT seq, seat, action::text AS action, kind, sender FROM actions \
             WHERE match_id = $1::uuid AND kind = $2 AND seq <= $3 ORDER BY seq",
        );
        let rows = with_pool!(self, p => {
            let rows = sqlx::query(&q).bind(match_id.to_string()).bind(kind.as_str()).bind(up_to as i64)
                .fetch_all(p).await?;
            rows.iter().map(raw_record).collect::<std::result::Result<Vec<_>, _>>()?
        });
        rows.into_iter().map(to_record).collect()
    }

    /// The latest snapshot at or before `at_most` (any when `None`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn latest_snapshot(&self, match_id: Uuid, at_most: Option<u64>) -> Result<Option<(u64, Value)>> {
        let q = self.sql(
            "SELECT seq, state FROM snapshots WHERE match_id = $1::uuid AND seq <= $2 \
             ORDER BY seq DESC LIMIT 1",
        );
        let row = with_pool!(self, p => {
            match sqlx::query(&q).bind(match_id.to_string()).bind(at_most.map_or(i64::MAX, |s| s as i64)).fetch_optional(p).await? {
                Some(r) => Some((r.try_get::<i64, _>("seq")?, r.try_get::<String, _>("state")?)),
                None => None,
            }
        });
        row.map(|(seq, s)| Ok((seq as u64, parse_json(&s)?))).transpose()
    }

    /// The commitments of a match, by seat.
    ///
    /// # Errors
    /// Database errors.
    pub async fn commitments(&self, match_id: Uuid) -> Result<Vec<Commitment>> {
        let q = self.sql("SELECT seat, hash, salt, seq FROM commitments WHERE match_id = $1::uuid ORDER BY seat");
        let rows = with_pool!(self, p => {
            let rows = sqlx::query(&q).bind(match_id.to_string()).fetch_all(p).await?;
            rows.iter().map(|r| Ok::<_, sqlx::Error>(Commitment {
                seat: r.try_get::<i32, _>("seat")? as u8,
                hash: r.try_get("hash")?,
                salt: r.try_get("salt")?,
                seq: r.try_get::<i64, _>("seq")? as u64,
            })).collect::<std::result::Result<Vec<_>, _>>()?
        });
        Ok(rows)
    }
}

/// A log row as read (`seq, seat, action, kind, sender`), either backend.
type RawRecord = (i64, i32, String, String, Option<i32>);

fn raw_record<R: Row>(r: &R) -> std::result::Result<RawRecord, sqlx::Error>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    i64: sqlx::Type<R::Database> + for<'r> sqlx::Decode<'r, R::Database>,
    i32: sqlx::Type<R::Database> + for<'r> sqlx::Decode<'r, R::Database>,
    String: sqlx::Type<R::Database> + for<'r> sqlx::Decode<'r, R::Database>,
{
    Ok((r.try_get("seq")?, r.try_get("seat")?, r.try_get("action")?, r.try_get("kind")?, r.try_get("sender")?))
}

fn to_record((seq, seat, action, kind, sender): RawRecord) -> Result<ActionRecord> {
    Ok(ActionRecord {
        seq: seq as u64,
        seat: seat as u8,
        action: parse_json(&action)?,
        kind: RecordKind::parse(&kind)?,
        sender: sender.map(|s| s as u8),
    })
}

impl Store {
    /// The seq moves and the action rows of a chunk of `n` actions, as
    /// this store's backend takes them: written once per size and backend
    /// (sizes are powers of two up to the writer's batch, a few of them),
    /// not for every commit.
    fn chunk_statements(&self, n: usize) -> Arc<(String, String)> {
        type Cache = BTreeMap<(bool, usize), Arc<(String, String)>>;
        static CACHE: Mutex<Cache> = Mutex::new(BTreeMap::new());
        let key = (matches!(self.backend, Backend::Sqlite { .. }), n);
        // A panic elsewhere while the lock was held leaves the map whole.
        let mut cache = CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(cache.entry(key).or_insert_with(|| {
            Arc::new((
                self.sql_in_order(&seq_moves_sql(n)).into_owned(),
                self.sql_in_order(&action_rows_sql(n)).into_owned(),
            ))
        }))
    }
}

/// [`Store::append_at_once`]'s statements for `room` actions and
/// `snapshots` snapshots (powers of two, or no snapshots), SQLite's:
/// written once per shape, and kept prepared by sqlx like any statement.
/// The check after the seq moves fails the list (a `CHECK` constraint, see
/// `connect_writer`) unless every move followed its stored seq, before
/// anything is committed.
fn at_once_statements(store: &Store, room: usize, snapshots: usize) -> Arc<String> {
    static CACHE: Mutex<BTreeMap<(usize, usize), Arc<String>>> = Mutex::new(BTreeMap::new());
    let mut cache = CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(cache.entry((room, snapshots)).or_insert_with(|| {
        let mut sql = format!(
            "BEGIN IMMEDIATE; {}; \
             INSERT OR REPLACE INTO temp.seq_check (id, every_seq_follows) VALUES (1, changes() = ?); {};",
            store.sql_in_order(&seq_moves_sql(room)),
            store.sql_in_order(&action_rows_sql(room)),
        );
        if snapshots > 0 {
            sql.push_str(&store.sql_in_order(&snapshot_rows_sql(snapshots)));
            sql.push(';');
        }
        sql.push_str(" COMMIT");
        Arc::new(sql)
    }))
}

/// `INSERT` of up to `n` snapshots: a row whose match is NULL is left out.
fn snapshot_rows_sql(n: usize) -> String {
    let values: Vec<String> =
        (0..n).map(|i| format!("(${}::uuid, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3)).collect();
    format!(
        "INSERT INTO snapshots (match_id, seq, state) SELECT * FROM (VALUES {}) AS v WHERE v.column1 IS NOT NULL",
        values.join(", ")
    )
}

/// A JSON value's text as a column holds it: serde_json writing into a
/// buffer, not `Display` (which goes through `fmt`'s writer a fragment at
/// a time, twice the instructions for an action's few fields).
fn json_text(value: &Value) -> String {
    serde_json::to_string(value).expect("a JSON value writes")
}

/// `UPDATE` moving the seq (and standing) of up to `n` matches, each only
/// from the seq just before: its row count says whether every move
/// followed. A row whose id is NULL moves nothing.
fn seq_moves_sql(n: usize) -> String {
    let values: Vec<String> = (0..n)
        .map(|i| format!("(${}::uuid, CAST(${} AS BIGINT), ${}::text)", 3 * i + 1, 3 * i + 2, 3 * i + 3))
        .collect();
    format!(
        "WITH v (id, seq, standing) AS (VALUES {}) \
         UPDATE matches SET seq = v.seq, standing = COALESCE(v.standing::jsonb, matches.standing) \
         FROM v WHERE matches.id = v.id AND matches.seq = v.seq - 1",
        values.join(", ")
    )
}

/// `INSERT` of up to `n` action rows: a row whose match is NULL is left out.
fn action_rows_sql(n: usize) -> String {
    let values: Vec<String> = (0..n)
        .map(|i| {
            let b = 7 * i;
            format!("(${}::uuid, ${}, ${}, ${}::jsonb, ${}, ${}, ${})", b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7)
        })
        .collect();
    // Both databases name the columns of a VALUES list column1, column2, …
    format!(
        "INSERT INTO actions (match_id, seq, seat, action, kind, sender, state_hash) \
         SELECT * FROM (VALUES {}) AS v WHERE v.column1 IS NOT NULL",
        values.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::store::NewMatch;

    fn action(m: Uuid, seq: u64) -> Append {
        Append::new(m, ActionRecord::action(seq, 0, json!({"type": "take", "n": seq})))
    }

    async fn new_match(store: &Store, code: &str) -> Uuid {
        let id = Uuid::new_v4();
        store
            .create_match(&NewMatch {
                id,
                game: "nim".into(),
                options: json!({"pile": 7}),
                seed: 1,
                rules_version: 1,
                join_code: code.into(),
                live: false,
                private: false,
                seats: 2,
                campaign_id: None,
                creator: None,
                turn_timer_ms: None,
                standing: None,
            })
            .await
            .unwrap();
        id
    }

    /// The usual batch takes the one hand-over; what it cannot carry goes
    /// the general way; a seq that does not follow refuses the whole list
    /// and the next batch finds the writer whole again.
    #[tokio::test]
    async fn sqlite_writes_a_plain_batch_at_once() {
        let dir = std::env::temp_dir().join(format!("athlas-at-once-{}", Uuid::new_v4()));
        let store = Store::open(None, &dir).await.unwrap();
        let (a, b, c) = (
            new_match(&store, "ONCE0001").await,
            new_match(&store, "ONCE0002").await,
            new_match(&store, "ONCE0003").await,
        );

        let with_snapshot = Append { snapshot: Some(json!({"pile": 6}).to_string()), ..action(b, 1) };
        assert!(matches!(store.append_at_once(&[action(a, 1), with_snapshot, action(c, 1)]).await, Some(Ok(()))));
        assert_eq!(store.latest_snapshot(b, None).await.unwrap(), Some((1, json!({"pile": 6}))));
        for m in [a, b, c] {
            assert_eq!(store.get_match(m).await.unwrap().unwrap().seq, 1);
            assert_eq!(store.actions_after(m, 0).await.unwrap().len(), 1);
        }

        let committing = Append {
            commitments: vec![Commitment { seat: 0, hash: "ab".into(), salt: "cd".into(), seq: 2 }],
            ..action(a, 2)
        };
        assert!(store.append_at_once(&[committing]).await.is_none(), "commitments go the general way");
        assert!(store.append_at_once(&[action(a, 2), action(a, 3)]).await.is_none(), "one match twice: in two chunks");
        assert!(store.append_at_once(&[]).await.is_none());

        let gap = [action(a, 2), action(b, 3), action(c, 2)];
        assert!(matches!(store.append_at_once(&gap).await, Some(Err(StoreError::Conflict(_)))));
        let repeat = [action(a, 2), action(b, 1)];
        assert!(matches!(store.append_at_once(&repeat).await, Some(Err(StoreError::Conflict(_)))));
        for m in [a, b, c] {
            assert_eq!(store.get_match(m).await.unwrap().unwrap().seq, 1, "nothing of a refused list is written");
            assert_eq!(store.actions_after(m, 0).await.unwrap().len(), 1);
        }
        assert!(matches!(store.append_at_once(&[action(a, 2), action(c, 2)]).await, Some(Ok(()))));
        assert_eq!(store.actions_after(a, 0).await.unwrap().len(), 2);
        store.close().await;
        std::fs::remove_dir_all(&dir).ok();
    }
}
