//! The event-sourced store: matches (options, seed), seats (token hashes), the
//! append-only action log, snapshots, commitments and campaigns.
//!
//! Two backends through sqlx, one contract: SQLite (the default, a file under
//! the data directory) and Postgres (`DATABASE_URL=postgres://...`). The SQL is
//! written once in the Postgres dialect with `::uuid`/`::jsonb`/`::text` casts;
//! for SQLite (where ids and JSON are TEXT) the casts are stripped.
//!
//! **Architecture Invariant:** `actions` rows are only ever inserted. A room is
//! rebuilt from the latest snapshot (or the start) plus the actions after it.

use std::{borrow::Cow, path::Path, str::FromStr, time::Duration};

use futures_util::future::BoxFuture;
use serde_json::Value;
use sqlx::{
    encode::IsNull,
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType, Migrator},
    postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions},
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous},
    Connection as _, Database, Row,
};
use uuid::Uuid;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("not found")]
    NotFound,
    #[error("migrations applied up to {applied}, this binary needs {latest}")]
    NotMigrated { applied: i64, latest: i64 },
    #[error("every seat is taken")]
    Full,
    /// A unique key was already there (join code, seat, action seq).
    #[error("conflict: {0}")]
    Conflict(String),
    #[error("corrupt record: {0}")]
    Corrupt(String),
    /// A campaign was written by someone else since it was read.
    #[error("the campaign changed since it was read")]
    Stale,
    /// A campaign seat token, but the campaign has no match yet.
    #[error("the campaign has no match yet")]
    NotStarted,
    /// The database server could not be reached at start: named by host and
    /// port (never the password), so the operator sees at once what is wrong.
    #[error("cannot connect to Postgres at {at}: {reason}")]
    Unreachable { at: String, reason: String },
}

type Result<T> = std::result::Result<T, StoreError>;

/// The store: cheap to clone (a pool inside).
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
}

#[derive(Clone, Debug)]
enum Backend {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The one writer of a campaign row's state (`saved`, `current_match`):
/// inside a `with_pool!` body, in transaction `$tx`, a compare-and-set on
/// `version`, which it bumps. Evaluates to whether the campaign was still
/// at `$version`.
macro_rules! write_campaign {
    ($store:expr, $tx:ident, $id:expr, $version:expr, $saved:expr, $current:expr) => {{
        let q = $store.sql(
            "UPDATE campaigns SET version = version + 1, saved = COALESCE($3::jsonb, saved), \
             current_match = COALESCE($4::uuid, current_match) WHERE id = $1::uuid AND version = $2",
        );
        let saved: Option<&Value> = $saved;
        let current: Option<Uuid> = $current;
        sqlx::query(&q)
            .bind($id.to_string())
            .bind($version as i64)
            .bind(saved.map(Value::to_string))
            .bind(current.map(|c| c.to_string()))
            .execute(&mut *$tx)
            .await?
            .rows_affected()
            == 1
    }};
}

/// Run `$body` with `$pool` bound to the backend's pool; the body is type
/// checked once per backend, so one piece of sqlx code serves both.
macro_rules! with_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.backend {
            Backend::Sqlite($pool) => $body,
            Backend::Postgres($pool) => $body,
        }
    };
}

/// A match as created by the lobby.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMatch {
    pub id: Uuid,
    pub game: String,
    /// The game's options, without the server's own (`live`).
    pub options: Value,
    pub seed: u64,
    pub rules_version: u32,
    pub join_code: String,
    pub live: bool,
    /// Never listed; joined by its code and watched by id only.
    pub private: bool,
    pub seats: u32,
    pub campaign_id: Option<Uuid>,
    /// The creator's seat and the SHA-256 of its token; `None` for a
    /// campaign's match, whose seats are the campaign's.
    pub creator: Option<(u8, String)>,
}

/// Where a match stands in the lobby. Stored, listed and shown as the
/// strings `open`, `active`, `finished` (serde and sqlx both map to them, so
/// stored rows need no migration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchStatus {
    /// Seats are free.
    Open,
    /// Every seat is taken.
    Active,
    /// The engine reported an outcome.
    Finished,
}

impl MatchStatus {
    pub const ALL: [MatchStatus; 3] = [MatchStatus::Open, MatchStatus::Active, MatchStatus::Finished];

    /// The stored and wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchStatus::Open => "open",
            MatchStatus::Active => "active",
            MatchStatus::Finished => "finished",
        }
    }
}

impl std::fmt::Display for MatchStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for MatchStatus {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        MatchStatus::ALL.into_iter().find(|m| m.as_str() == s).ok_or_else(|| format!("no match status {s:?}"))
    }
}

// sqlx: a TEXT column holding `as_str()`, on either backend.
impl<DB: Database> sqlx::Type<DB> for MatchStatus
where
    String: sqlx::Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <String as sqlx::Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <String as sqlx::Type<DB>>::compatible(ty)
    }
}

impl<'q, DB: Database> sqlx::Encode<'q, DB> for MatchStatus
where
    String: sqlx::Encode<'q, DB>,
{
    fn encode_by_ref(&self, buf: &mut DB::ArgumentBuffer<'q>) -> std::result::Result<IsNull, BoxDynError> {
        <String as sqlx::Encode<'q, DB>>::encode(self.as_str().to_owned(), buf)
    }
}

impl<'r, DB: Database> sqlx::Decode<'r, DB> for MatchStatus
where
    String: sqlx::Decode<'r, DB>,
{
    fn decode(value: DB::ValueRef<'r>) -> std::result::Result<Self, BoxDynError> {
        Ok(<String as sqlx::Decode<'r, DB>>::decode(value)?.parse()?)
    }
}

/// A stored match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRecord {
    pub id: Uuid,
    pub game: String,
    pub options: Value,
    pub seed: u64,
    pub rules_version: u32,
    pub status: MatchStatus,
    pub join_code: String,
    pub live: bool,
    pub private: bool,
    pub seats: u32,
    pub seq: u64,
    pub outcome: Option<Value>,
    pub campaign_id: Option<Uuid>,
    /// Its place in its campaign (1, 2, ...).
    pub ordinal: Option<u32>,
    /// The engine's status after the latest action; `None` before the first.
    pub standing: Option<Value>,
    pub seats_taken: Vec<u8>,
}

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

/// Which matches a query reads.
#[derive(Debug, Clone, Copy)]
enum Selection {
    /// One match, by id.
    Id(Uuid),
    /// The listed (not private) matches with this status.
    Listed(MatchStatus),
    /// The matches of a campaign, in order.
    Campaign(Uuid),
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
    /// A snapshot of the state after this action, now and then.
    pub snapshot: Option<Value>,
    /// Set when this action finished a match of a campaign: the campaign's
    /// new state, written in the same transaction (both or neither).
    pub campaign: Option<CampaignUpdate>,
}

/// A campaign as the lobby creates it, with its host in seat 0.
#[derive(Debug, Clone)]
pub struct NewCampaign {
    pub id: Uuid,
    pub game: String,
    pub rules_version: u32,
    pub seats: u32,
    pub join_code: String,
    /// The game's campaign state (`Campaign::Saved`) before any match.
    pub saved: Value,
    /// The server's own options of every match of the campaign.
    pub live: bool,
    pub private: bool,
    /// The SHA-256 of the host's seat token.
    pub host: String,
}

/// A stored campaign.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignRecord {
    pub id: Uuid,
    pub game: String,
    pub rules_version: u32,
    pub seats: u32,
    pub join_code: String,
    /// The game's campaign state between matches.
    pub saved: Value,
    /// Bumped by every write; a [`CampaignUpdate`] names the one it read.
    pub version: u64,
    /// The latest match (being played, or finished); `None` before the first.
    pub current_match: Option<Uuid>,
    pub live: bool,
    pub private: bool,
    /// Seats a player holds (the host's, and each join).
    pub seats_taken: Vec<u8>,
}

/// A change of a campaign, written in one transaction only if the campaign
/// is still at `version` (nobody wrote it since it was read).
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignUpdate {
    pub id: Uuid,
    pub version: u64,
    /// The campaign's new state, if it changes.
    pub saved: Option<Value>,
    /// A new match of the campaign, which becomes its current match; it
    /// gets the next ordinal and its seats are the campaign's.
    pub start: Option<NewMatch>,
}

const MIGRATIONS_SQLITE: &[(i64, &str, &str)] = &[
    (1, "matches", include_str!("../../migrations/sqlite/0001_matches.sql")),
    (2, "private", include_str!("../../migrations/sqlite/0002_private.sql")),
    (3, "records", include_str!("../../migrations/sqlite/0003_records.sql")),
    (4, "campaigns", include_str!("../../migrations/sqlite/0004_campaigns.sql")),
];
const MIGRATIONS_POSTGRES: &[(i64, &str, &str)] = &[
    (1, "matches", include_str!("../../migrations/postgres/0001_matches.sql")),
    (2, "private", include_str!("../../migrations/postgres/0002_private.sql")),
    (3, "records", include_str!("../../migrations/postgres/0003_records.sql")),
    (4, "campaigns", include_str!("../../migrations/postgres/0004_campaigns.sql")),
];

/// How long start-up waits for the first Postgres connection. The pool
/// itself would retry for its whole acquire time-out (30 s) in silence.
const POSTGRES_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The migrations, compiled in so the binary needs no files beside it.
#[derive(Debug)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(self) -> BoxFuture<'s, std::result::Result<Vec<Migration>, sqlx::error::BoxDynError>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|(v, d, sql)| {
                    Migration::new(*v, Cow::Borrowed(d), MigrationType::Simple, Cow::Borrowed(sql), false)
                })
                .collect())
        })
    }
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Store {
    /// Open the store `url` points at, or the SQLite file `athlas.db` under
    /// `data_dir` when there is no url, and run the migrations.
    ///
    /// # Errors
    /// When the database cannot be reached, created or migrated.
    pub async fn open(url: Option<&str>, data_dir: &Path) -> Result<Store> {
        let store = match url {
            Some(url) if url.starts_with("postgres:") || url.starts_with("postgresql:") => {
                let options = PgConnectOptions::from_str(url)?;
                Store::probe_postgres(&options).await?;
                let pool = PgPoolOptions::new().max_connections(16).connect_with(options).await?;
                Store { backend: Backend::Postgres(pool) }
            }
            Some(url) => Store::sqlite(SqliteConnectOptions::from_str(url)?).await?,
            None => {
                std::fs::create_dir_all(data_dir).map_err(|e| StoreError::Db(sqlx::Error::Io(e)))?;
                Store::sqlite(SqliteConnectOptions::new().filename(data_dir.join("athlas.db"))).await?
            }
        };
        store.migrate().await?;
        Ok(store)
    }

    /// One connection, at most [`POSTGRES_CONNECT_TIMEOUT`]: a database that
    /// refuses, does not exist or does not answer fails start-up at once with
    /// its host and port.
    async fn probe_postgres(options: &PgConnectOptions) -> Result<()> {
        let at = match options.get_socket() {
            Some(socket) => socket.display().to_string(),
            None => format!("{}:{}", options.get_host(), options.get_port()),
        };
        let unreachable = |reason: String| StoreError::Unreachable { at: at.clone(), reason };
        match tokio::time::timeout(POSTGRES_CONNECT_TIMEOUT, PgConnection::connect_with(options)).await {
            Ok(Ok(conn)) => {
                conn.close().await?;
                Ok(())
            }
            Ok(Err(e)) => Err(unreachable(e.to_string())),
            Err(_) => Err(unreachable(format!("no answer in {} s", POSTGRES_CONNECT_TIMEOUT.as_secs()))),
        }
    }

    async fn sqlite(options: SqliteConnectOptions) -> Result<Store> {
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: an acknowledged action survives a power cut, not only a crash.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        // One connection first creates the file and switches it to WAL alone:
        // several connections doing that at once find the database locked.
        sqlx::ConnectOptions::connect(&options).await?.close().await?;
        // A local file: open every connection at start and keep them; there
        // is nothing to recycle or to test before use. (It also means no
        // connection is ever opened later, which paused-clock tests rely on.)
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .min_connections(4)
            .idle_timeout(None)
            .max_lifetime(None)
            .test_before_acquire(false)
            .connect_with(options)
            .await?;
        Ok(Store { backend: Backend::Sqlite(pool) })
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    async fn migrate(&self) -> Result<()> {
        match &self.backend {
            Backend::Sqlite(p) => Migrator::new(Embedded(MIGRATIONS_SQLITE)).await?.run(p).await?,
            Backend::Postgres(p) => Migrator::new(Embedded(MIGRATIONS_POSTGRES)).await?.run(p).await?,
        }
        Ok(())
    }

    /// Close the pool, waiting for connections to finish.
    pub async fn close(&self) {
        with_pool!(self, p => p.close().await)
    }

    /// How a transaction that writes begins. SQLite: IMMEDIATE, taking the
    /// write lock up front; a deferred transaction that reads first and then
    /// writes fails at once with "database is locked" (SQLITE_BUSY_SNAPSHOT)
    /// when another connection committed in between, busy timeout or not.
    fn begin_write(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite(_) => "BEGIN IMMEDIATE",
            Backend::Postgres(_) => "BEGIN",
        }
    }

    /// SQL in the Postgres dialect, adapted to this backend.
    fn sql<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        match self.backend {
            Backend::Postgres(_) => Cow::Borrowed(sql),
            Backend::Sqlite(_) => Cow::Owned(sql.replace("::uuid", "").replace("::jsonb", "").replace("::text", "")),
        }
    }

    /// Is the database answering?
    ///
    /// # Errors
    /// When it is not.
    pub async fn ping(&self) -> Result<()> {
        with_pool!(self, p => sqlx::query("SELECT 1").execute(p).await.map(|_| ()))?;
        Ok(())
    }

    /// Ready to serve: the database answers and every migration this
    /// binary knows is applied.
    ///
    /// # Errors
    /// When the database does not answer, or [`StoreError::NotMigrated`].
    pub async fn ready(&self) -> Result<()> {
        let q = "SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success";
        let applied: i64 = with_pool!(self, p => sqlx::query_scalar(q).fetch_one(p).await)?;
        let known = match self.backend {
            Backend::Sqlite(_) => MIGRATIONS_SQLITE,
            Backend::Postgres(_) => MIGRATIONS_POSTGRES,
        };
        let latest = known.iter().map(|m| m.0).max().unwrap_or(0);
        if applied < latest {
            return Err(StoreError::NotMigrated { applied, latest });
        }
        Ok(())
    }

    /// How many matches there are, by game and status.
    ///
    /// # Errors
    /// When the database does not answer.
    pub async fn count_matches(&self) -> Result<Vec<(String, MatchStatus, u64)>> {
        let q = "SELECT game, status, COUNT(*) FROM matches GROUP BY game, status ORDER BY game, status";
        let rows: Vec<(String, MatchStatus, i64)> = with_pool!(self, p => sqlx::query_as(q).fetch_all(p).await)?;
        Ok(rows.into_iter().map(|(g, s, n)| (g, s, u64::try_from(n).unwrap_or(0))).collect())
    }

    /// Store a new match and its creator's seat.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the id or join code already exists.
    pub async fn create_match(&self, m: &NewMatch) -> Result<()> {
        let q1 = self.sql(
            "INSERT INTO matches (id, game, options, seed, rules_version, status, join_code, live, seats, campaign_id, \
             private) VALUES ($1::uuid, $2, $3::jsonb, $4, $5, $11, $6, $7, $8, $9::uuid, $10)",
        );
        let q2 = self.sql("INSERT INTO seats (match_id, seat, token_hash) VALUES ($1::uuid, $2, $3)");
        let r: std::result::Result<(), sqlx::Error> = with_pool!(self, p => async {
            let mut tx = p.begin_with(self.begin_write()).await?;
            sqlx::query(&q1)
                .bind(m.id.to_string())
                .bind(&m.game)
                .bind(m.options.to_string())
                .bind(m.seed as i64)
                .bind(m.rules_version as i32)
                .bind(&m.join_code)
                .bind(m.live)
                .bind(m.seats as i32)
                .bind(m.campaign_id.map(|c| c.to_string()))
                .bind(m.private)
                .bind(MatchStatus::Open)
                .execute(&mut *tx)
                .await?;
            if let Some((seat, hash)) = &m.creator {
                sqlx::query(&q2).bind(m.id.to_string()).bind(*seat as i32).bind(hash).execute(&mut *tx).await?;
            }
            tx.commit().await
        }.await);
        match r {
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(e.to_string())),
            r => Ok(r?),
        }
    }

    /// Take the lowest free seat of the open match with this join code.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown code, [`StoreError::Full`]
    /// when every seat is taken.
    pub async fn join(&self, join_code: &str, token_hash: &str) -> Result<(Uuid, u8)> {
        // A campaign's match is joined through its campaign.
        let q_match =
            self.sql("SELECT id::text AS id, seats FROM matches WHERE join_code = $1 AND campaign_id IS NULL");
        let q_seats = self.sql("SELECT seat FROM seats WHERE match_id = $1::uuid ORDER BY seat");
        let q_insert = self.sql("INSERT INTO seats (match_id, seat, token_hash) VALUES ($1::uuid, $2, $3)");
        let q_status = self.sql("UPDATE matches SET status = $2 WHERE id = $1::uuid AND status = $3");
        let r: std::result::Result<Option<(String, Option<u8>)>, sqlx::Error> = with_pool!(self, p => async {
            let mut tx = p.begin_with(self.begin_write()).await?;
            let Some(row) = sqlx::query(&q_match).bind(join_code).fetch_optional(&mut *tx).await? else {
                return Ok(None);
            };
            let id: String = row.try_get("id")?;
            let seats: i32 = row.try_get("seats")?;
            let taken: Vec<i32> = sqlx::query(&q_seats).bind(&id).fetch_all(&mut *tx).await?
                .iter().map(|r| r.try_get::<i32, _>("seat")).collect::<std::result::Result<_, _>>()?;
            let Some(free) = (0..seats).find(|s| !taken.contains(s)) else {
                return Ok(Some((id, None)));
            };
            sqlx::query(&q_insert).bind(&id).bind(free).bind(token_hash).execute(&mut *tx).await?;
            if taken.len() + 1 == seats as usize {
                sqlx::query(&q_status)
                    .bind(&id)
                    .bind(MatchStatus::Active)
                    .bind(MatchStatus::Open)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(Some((id, Some(free as u8))))
        }.await);
        match r {
            Err(e) if is_unique_violation(&e) => Err(StoreError::Full),
            Err(e) => Err(e.into()),
            Ok(None) => Err(StoreError::NotFound),
            Ok(Some((_, None))) => Err(StoreError::Full),
            Ok(Some((id, Some(seat)))) => Ok((parse_uuid(&id)?, seat)),
        }
    }

    /// The match and seat a token hash belongs to: a match's own seat, or
    /// a campaign seat, which holds that seat in the campaign's current match.
    ///
    /// # Errors
    /// [`StoreError::NotStarted`] for a campaign seat of a campaign with no
    /// match yet; database errors. An unknown token is `Ok(None)`.
    pub async fn seat_by_token(&self, token_hash: &str) -> Result<Option<(Uuid, u8)>> {
        let q = self.sql("SELECT match_id::text AS match_id, seat FROM seats WHERE token_hash = $1");
        let q_campaign = self.sql(
            "SELECT c.current_match::text AS match_id, s.seat FROM campaign_seats s \
             JOIN campaigns c ON c.id = s.campaign_id WHERE s.token_hash = $1",
        );
        let row = with_pool!(self, p => {
            let mut row = None;
            for q in [&q, &q_campaign] {
                if let Some(r) = sqlx::query(q).bind(token_hash).fetch_optional(p).await? {
                    row = Some((r.try_get::<Option<String>, _>("match_id")?, r.try_get::<i32, _>("seat")?));
                    break;
                }
            }
            row
        });
        match row {
            None => Ok(None),
            Some((None, _)) => Err(StoreError::NotStarted),
            Some((Some(id), seat)) => Ok(Some((parse_uuid(&id)?, seat as u8))),
        }
    }

    /// One match.
    ///
    /// # Errors
    /// Database errors only; an unknown id is `Ok(None)`.
    pub async fn get_match(&self, id: Uuid) -> Result<Option<MatchRecord>> {
        Ok(self.matches(Selection::Id(id), 1).await?.into_iter().next())
    }

    /// Matches with this status, oldest first; never private ones.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_matches(&self, status: MatchStatus, limit: u32) -> Result<Vec<MatchRecord>> {
        self.matches(Selection::Listed(status), limit).await
    }

    async fn matches(&self, selection: Selection, limit: u32) -> Result<Vec<MatchRecord>> {
        let where_ = match selection {
            Selection::Id(_) => "WHERE m.id = $1::uuid ORDER BY m.created_at, m.id",
            Selection::Listed(_) => "WHERE m.status = $1 AND NOT m.private ORDER BY m.created_at, m.id",
            Selection::Campaign(_) => "WHERE m.campaign_id = $1::uuid ORDER BY m.ordinal",
        };
        let q = self
            .sql(&format!(
                "SELECT m.id::text AS id, m.game, m.options::text AS options, m.seed, m.rules_version, m.status, \
             m.join_code, m.live, m.private, m.seats, m.seq, m.outcome::text AS outcome, m.campaign_id::text AS campaign_id, \
             m.ordinal, m.standing::text AS standing, \
             (SELECT string_agg(s.seat::text, ',') FROM seats s WHERE s.match_id = m.id) AS taken \
             FROM matches m {where_} LIMIT {limit}"
            ))
            .into_owned();
        // SQLite spells string_agg group_concat.
        let q = if matches!(self.backend, Backend::Sqlite(_)) { q.replace("string_agg(", "group_concat(") } else { q };
        let rows = with_pool!(self, p => {
            let query = sqlx::query(&q);
            let query = match selection {
                Selection::Id(id) | Selection::Campaign(id) => query.bind(id.to_string()),
                Selection::Listed(status) => query.bind(status),
            };
            let rows = query.fetch_all(p).await?;
            rows.iter().map(|r| -> std::result::Result<_, sqlx::Error> {
                Ok((
                    r.try_get::<String, _>("id")?,
                    r.try_get::<String, _>("game")?,
                    r.try_get::<String, _>("options")?,
                    r.try_get::<i64, _>("seed")?,
                    r.try_get::<i32, _>("rules_version")?,
                    r.try_get::<MatchStatus, _>("status")?,
                    r.try_get::<String, _>("join_code")?,
                    (r.try_get::<bool, _>("live")?, r.try_get::<bool, _>("private")?),
                    (r.try_get::<i32, _>("seats")?, r.try_get::<i64, _>("seq")?),
                    r.try_get::<Option<String>, _>("outcome")?,
                    (r.try_get::<Option<String>, _>("campaign_id")?, r.try_get::<Option<i32>, _>("ordinal")?),
                    r.try_get::<Option<String>, _>("standing")?,
                    r.try_get::<Option<String>, _>("taken")?,
                ))
            }).collect::<std::result::Result<Vec<_>, _>>()?
        });
        rows.into_iter()
            .map(
                |(
                    id,
                    game,
                    options,
                    seed,
                    rv,
                    status,
                    join_code,
                    (live, private),
                    (seats, seq),
                    outcome,
                    (campaign, ordinal),
                    standing,
                    taken,
                )| {
                    let mut seats_taken: Vec<u8> = taken
                        .unwrap_or_default()
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(|s| s.parse().map_err(|_| StoreError::Corrupt(format!("seat {s}"))))
                        .collect::<Result<_>>()?;
                    seats_taken.sort_unstable();
                    Ok(MatchRecord {
                        id: parse_uuid(&id)?,
                        game,
                        options: parse_json(&options)?,
                        seed: seed as u64,
                        rules_version: rv as u32,
                        status,
                        join_code,
                        live,
                        private,
                        seats: seats as u32,
                        seq: seq as u64,
                        outcome: outcome.as_deref().map(parse_json).transpose()?,
                        campaign_id: campaign.as_deref().map(parse_uuid).transpose()?,
                        ordinal: ordinal.map(|o| o as u32),
                        standing: standing.as_deref().map(parse_json).transpose()?,
                        seats_taken,
                    })
                },
            )
            .collect()
    }

    /// Write accepted actions (of any rooms) in one transaction: the group
    /// commit. Each action's seq must follow its match's stored seq.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when a seq is already taken (another writer
    /// owns the room); nothing of the batch is then written.
    pub async fn append(&self, batch: &[Append]) -> Result<()> {
        let q_action =
            self.sql("INSERT INTO actions (match_id, seq, seat, action, kind, sender) VALUES ($1::uuid, $2, $3, $4::jsonb, $5, $6)");
        let q_seq = self.sql(
            "UPDATE matches SET seq = $2, standing = COALESCE($3::jsonb, standing) WHERE id = $1::uuid AND seq = $2 - 1",
        );
        let q_commit =
            self.sql("INSERT INTO commitments (match_id, seat, hash, salt, seq) VALUES ($1::uuid, $2, $3, $4, $5)");
        let q_finish = self.sql("UPDATE matches SET status = $3, outcome = $2::jsonb WHERE id = $1::uuid");
        let q_snap = self.sql("INSERT INTO snapshots (match_id, seq, state) VALUES ($1::uuid, $2, $3::jsonb)");
        // `Some(why)`: refused whole, nothing written.
        let r: std::result::Result<Option<StoreError>, sqlx::Error> = with_pool!(self, p => async {
            let mut tx = p.begin_with(self.begin_write()).await?;
            for a in batch {
                let id = a.match_id.to_string();
                let seq = a.action.seq as i64;
                let moved = sqlx::query(&q_seq).bind(&id).bind(seq).bind(a.standing.as_ref().map(Value::to_string))
                    .execute(&mut *tx).await?.rows_affected();
                if moved != 1 {
                    return Ok(Some(StoreError::Conflict("an action seq does not follow the stored seq".into())));
                }
                sqlx::query(&q_action).bind(&id).bind(seq).bind(a.action.seat as i32)
                    .bind(a.action.action.to_string()).bind(a.action.kind.as_str())
                    .bind(a.action.sender.map(i32::from)).execute(&mut *tx).await?;
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
                    sqlx::query(&q_snap).bind(&id).bind(seq).bind(state.to_string()).execute(&mut *tx).await?;
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
        }.await);
        match r {
            Ok(None) => Ok(()),
            Ok(Some(e)) => Err(e),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(e.to_string())),
            Err(e) => Err(e.into()),
        }
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
            "SELECT seq, state::text AS state FROM snapshots WHERE match_id = $1::uuid AND seq <= $2 \
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

    /// Store a new campaign and its host's seat (seat 0).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the id or join code already exists.
    pub async fn create_campaign(&self, c: &NewCampaign) -> Result<()> {
        let q1 = self.sql(
            "INSERT INTO campaigns (id, game, rules_version, seats, join_code, saved, live, private) \
             VALUES ($1::uuid, $2, $3, $4, $5, $6::jsonb, $7, $8)",
        );
        let q2 = self.sql("INSERT INTO campaign_seats (campaign_id, seat, token_hash) VALUES ($1::uuid, 0, $2)");
        let r: std::result::Result<(), sqlx::Error> = with_pool!(self, p => async {
            let mut tx = p.begin_with(self.begin_write()).await?;
            sqlx::query(&q1).bind(c.id.to_string()).bind(&c.game).bind(c.rules_version as i32).bind(c.seats as i32)
                .bind(&c.join_code).bind(c.saved.to_string()).bind(c.live).bind(c.private).execute(&mut *tx).await?;
            sqlx::query(&q2).bind(c.id.to_string()).bind(&c.host).execute(&mut *tx).await?;
            tx.commit().await
        }.await);
        match r {
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(e.to_string())),
            r => Ok(r?),
        }
    }

    /// Take the lowest free seat of the campaign with this join code.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown code, [`StoreError::Full`]
    /// when every seat is taken.
    pub async fn join_campaign(&self, join_code: &str, token_hash: &str) -> Result<(Uuid, u8)> {
        let q_campaign = self.sql("SELECT id::text AS id, seats FROM campaigns WHERE join_code = $1");
        let q_seats = self.sql("SELECT seat FROM campaign_seats WHERE campaign_id = $1::uuid");
        let q_insert = self.sql("INSERT INTO campaign_seats (campaign_id, seat, token_hash) VALUES ($1::uuid, $2, $3)");
        let r: std::result::Result<Option<(String, Option<i32>)>, sqlx::Error> = with_pool!(self, p => async {
            let mut tx = p.begin_with(self.begin_write()).await?;
            let Some(row) = sqlx::query(&q_campaign).bind(join_code).fetch_optional(&mut *tx).await? else {
                return Ok(None);
            };
            let id: String = row.try_get("id")?;
            let seats: i32 = row.try_get("seats")?;
            let taken: Vec<i32> = sqlx::query(&q_seats).bind(&id).fetch_all(&mut *tx).await?
                .iter().map(|r| r.try_get::<i32, _>("seat")).collect::<std::result::Result<_, _>>()?;
            let Some(free) = (0..seats).find(|s| !taken.contains(s)) else {
                return Ok(Some((id, None)));
            };
            sqlx::query(&q_insert).bind(&id).bind(free).bind(token_hash).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(Some((id, Some(free))))
        }.await);
        match r {
            Err(e) if is_unique_violation(&e) => Err(StoreError::Full),
            Err(e) => Err(e.into()),
            Ok(None) => Err(StoreError::NotFound),
            Ok(Some((_, None))) => Err(StoreError::Full),
            Ok(Some((id, Some(seat)))) => Ok((parse_uuid(&id)?, seat as u8)),
        }
    }

    /// One campaign.
    ///
    /// # Errors
    /// Database errors only; an unknown id is `Ok(None)`.
    pub async fn campaign(&self, id: Uuid) -> Result<Option<CampaignRecord>> {
        let q = self
            .sql(
                "SELECT c.game, c.rules_version, c.seats, c.join_code, c.saved::text AS saved, c.version, \
             c.current_match::text AS current_match, c.live, c.private, \
             (SELECT string_agg(s.seat::text, ',') FROM campaign_seats s WHERE s.campaign_id = c.id) AS taken \
             FROM campaigns c WHERE c.id = $1::uuid",
            )
            .into_owned();
        let q = if matches!(self.backend, Backend::Sqlite(_)) { q.replace("string_agg(", "group_concat(") } else { q };
        let row = with_pool!(self, p => match sqlx::query(&q).bind(id.to_string()).fetch_optional(p).await? {
            Some(r) => Some((
                r.try_get::<String, _>("game")?,
                (r.try_get::<i32, _>("rules_version")?, r.try_get::<i32, _>("seats")?),
                r.try_get::<String, _>("join_code")?,
                (r.try_get::<String, _>("saved")?, r.try_get::<i64, _>("version")?),
                r.try_get::<Option<String>, _>("current_match")?,
                (r.try_get::<bool, _>("live")?, r.try_get::<bool, _>("private")?),
                r.try_get::<Option<String>, _>("taken")?,
            )),
            None => None,
        });
        let Some((game, (rules_version, seats), join_code, (saved, version), current, (live, private), taken)) = row
        else {
            return Ok(None);
        };
        let mut seats_taken: Vec<u8> = taken
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().map_err(|_| StoreError::Corrupt(format!("seat {s}"))))
            .collect::<Result<_>>()?;
        seats_taken.sort_unstable();
        Ok(Some(CampaignRecord {
            id,
            game,
            rules_version: rules_version as u32,
            seats: seats as u32,
            join_code,
            saved: parse_json(&saved)?,
            version: version as u64,
            current_match: current.as_deref().map(parse_uuid).transpose()?,
            live,
            private,
            seats_taken,
        }))
    }

    /// The campaign and seat a campaign seat token's hash belongs to.
    ///
    /// # Errors
    /// Database errors only; an unknown token is `Ok(None)`.
    pub async fn campaign_seat(&self, token_hash: &str) -> Result<Option<(Uuid, u8)>> {
        let q = self.sql("SELECT campaign_id::text AS id, seat FROM campaign_seats WHERE token_hash = $1");
        let row = with_pool!(self, p => match sqlx::query(&q).bind(token_hash).fetch_optional(p).await? {
            Some(r) => Some((r.try_get::<String, _>("id")?, r.try_get::<i32, _>("seat")?)),
            None => None,
        });
        row.map(|(id, seat)| Ok((parse_uuid(&id)?, seat as u8))).transpose()
    }

    /// The matches of a campaign, in order.
    ///
    /// # Errors
    /// Database errors.
    pub async fn campaign_matches(&self, id: Uuid) -> Result<Vec<MatchRecord>> {
        self.matches(Selection::Campaign(id), 10_000).await
    }

    /// Change a campaign in one transaction: its state, and/or a new match
    /// (the next ordinal, status `active`, no seats of its own) that becomes
    /// its current match.
    ///
    /// # Errors
    /// [`StoreError::Stale`] when the campaign is no longer at
    /// `u.version`: nothing is written.
    pub async fn update_campaign(&self, u: &CampaignUpdate) -> Result<()> {
        let q_ordinal =
            self.sql("SELECT CAST(COALESCE(MAX(ordinal), 0) AS BIGINT) FROM matches WHERE campaign_id = $1::uuid");
        let q_match = self.sql(
            "INSERT INTO matches (id, game, options, seed, rules_version, status, join_code, live, seats, \
             campaign_id, private, ordinal) VALUES ($1::uuid, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10::uuid, $11, $12)",
        );
        let r: std::result::Result<bool, sqlx::Error> = with_pool!(self, p => async {
            let mut tx = p.begin_with(self.begin_write()).await?;
            if let Some(m) = &u.start {
                let last: i64 = sqlx::query_scalar(&q_ordinal).bind(u.id.to_string()).fetch_one(&mut *tx).await?;
                sqlx::query(&q_match)
                    .bind(m.id.to_string())
                    .bind(&m.game)
                    .bind(m.options.to_string())
                    .bind(m.seed as i64)
                    .bind(m.rules_version as i32)
                    .bind(MatchStatus::Active)
                    .bind(&m.join_code)
                    .bind(m.live)
                    .bind(m.seats as i32)
                    .bind(u.id.to_string())
                    .bind(m.private)
                    .bind((last + 1) as i32)
                    .execute(&mut *tx)
                    .await?;
            }
            if !write_campaign!(self, tx, u.id, u.version, u.saved.as_ref(), u.start.as_ref().map(|m| m.id)) {
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        }.await);
        match r {
            Ok(true) => Ok(()),
            Ok(false) => Err(StoreError::Stale),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(e.to_string())),
            Err(e) => Err(e.into()),
        }
    }
}

fn parse_uuid(s: &str) -> Result<Uuid> {
    Uuid::parse_str(s).map_err(|e| StoreError::Corrupt(format!("uuid {s}: {e}")))
}

fn parse_json(s: &str) -> Result<Value> {
    serde_json::from_str(s).map_err(|e| StoreError::Corrupt(format!("json: {e}")))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// serde, `Display` and `FromStr` spell a status as the stored strings.
    #[test]
    fn match_status_is_stored_and_shown_as_its_old_strings() {
        let spelled: Vec<_> = MatchStatus::ALL.iter().map(|s| s.to_string()).collect();
        assert_eq!(spelled, ["open", "active", "finished"]);
        for s in MatchStatus::ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), Value::String(s.as_str().into()));
            assert_eq!(serde_json::from_value::<MatchStatus>(Value::String(s.as_str().into())).unwrap(), s);
            assert_eq!(s.as_str().parse::<MatchStatus>(), Ok(s));
        }
        assert!("Open".parse::<MatchStatus>().is_err());
    }
}
