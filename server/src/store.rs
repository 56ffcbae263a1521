//! The event-sourced store: matches (options, seed), seats (token hashes), the
//! append-only action log, snapshots, commitments and campaigns. This file
//! opens and migrates the database and keeps matches and their seats; the
//! log's records (written by `append`, read back for a rebuild) are in
//! [`records`], campaigns and their seats in [`campaign`].
//!
//! Two backends through sqlx, one contract: SQLite (the default, a file under
//! the data directory) and Postgres (`DATABASE_URL=postgres://...`). The SQL is
//! written once in the Postgres dialect with `::uuid`/`::jsonb`/`::text` casts;
//! for SQLite (where ids and JSON are TEXT) the casts are stripped.
//!
//! **Architecture Invariant:** `actions` rows are only ever inserted. A room is
//! rebuilt from the latest snapshot (or the start) plus the actions after it.

use std::{borrow::Cow, path::Path, str::FromStr, sync::Arc, time::Duration};

use futures_util::future::BoxFuture;
use serde_json::Value;
use sqlx::{
    encode::IsNull,
    error::BoxDynError,
    migrate::{Migration, MigrationSource, MigrationType, Migrator},
    postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions},
    sqlite::{
        SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
    },
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
    Unreachable {
        at: String,
        reason: String,
        /// Refused, no answer, or starting up: it may yet come (start-up
        /// waits for it); not wrong credentials or a missing database.
        transient: bool,
    },
    /// An append of a room whose lease this node no longer holds (another
    /// node took the room over): nothing was written.
    #[error("fenced: {0}")]
    Fenced(String),
    /// The SQLite file or its directory cannot be created or opened (a
    /// directory the server's user may not write, a bind mount owned by
    /// another user): named with the path and the user, so the operator
    /// knows what to `chown`.
    #[error("cannot open the SQLite store {path} as {user}: {reason}; the directory must be writable by that user (docs/OPERATIONS.md, \"Run the image alone\")")]
    CannotOpen { path: String, user: String, reason: String },
    /// Leases need Postgres (a cluster's shared store).
    #[error("room leases need a Postgres store")]
    NoLeases,
    /// The SQLite file cannot take writes: its disk is full or it is not
    /// writable (readiness only: the reads still work).
    #[error("{0}")]
    Unwritable(String),
}

type Result<T> = std::result::Result<T, StoreError>;

impl StoreError {
    /// The database is away (connection lost, restarting, stopped, disk
    /// full, read-only), as opposed to a bad record or a bug: the request
    /// may succeed when retried, so clients get `store_unavailable`.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Unreachable { .. } => true,
            StoreError::Db(e) => match e {
                sqlx::Error::Io(_)
                | sqlx::Error::PoolTimedOut
                | sqlx::Error::PoolClosed
                | sqlx::Error::Tls(_)
                | sqlx::Error::WorkerCrashed => true,
                sqlx::Error::Database(d) => d.code().is_some_and(|c| unavailable_code(&c)),
                _ => false,
            },
            _ => false,
        }
    }

    /// The protocol's code for this failure.
    pub fn code(&self) -> &'static str {
        if matches!(self, StoreError::Fenced(_)) {
            return athlas_protocol::code::ROOM_ELSEWHERE;
        }
        if self.is_unavailable() {
            athlas_protocol::code::STORE_UNAVAILABLE
        } else {
            athlas_protocol::code::INTERNAL
        }
    }
}

/// A database error code that means "the database is away", not "this
/// request is wrong". Postgres gives five-character SQLSTATEs: classes 08
/// (connection), 53 (insufficient resources: disk full, too many
/// connections), 57 (shut down by the operator, starting up), 58 (I/O).
/// SQLite gives (extended) result codes whose low byte is the primary one:
/// BUSY 5, LOCKED 6, READONLY 8, IOERR 10, FULL 13, CANTOPEN 14.
fn unavailable_code(code: &str) -> bool {
    if code.len() == 5 {
        return ["08", "53", "57", "58"].iter().any(|class| code.starts_with(class));
    }
    code.parse::<u32>().is_ok_and(|c| matches!(c & 0xff, 5 | 6 | 8 | 10 | 13 | 14))
}

/// The store: cheap to clone (a pool inside).
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
}

#[derive(Clone, Debug)]
enum Backend {
    Sqlite {
        pool: SqlitePool,
        /// The one writing connection: group commits and every other
        /// write (new matches, seats, campaigns, migrations); the pool
        /// only reads. SQLite drops a connection's whole page cache
        /// whenever another connection wrote, and a commit begun cold reads
        /// back every page it changes (docs/PERFORMANCE.md). Held, not
        /// pooled: a pool's acquire waits with a timeout for a connection
        /// still on its way back from the last commit, and a paused test
        /// clock runs such timeouts out at once.
        writer: Arc<tokio::sync::Mutex<WriteConnection>>,
    },
    Postgres(PgPool),
}

/// SQLite's writing connection: opened at start, opened afresh after a
/// failed write, never again once the store is closed.
#[derive(Debug)]
struct WriteConnection {
    conn: Option<SqliteConnection>,
    options: SqliteConnectOptions,
    closed: bool,
}

impl WriteConnection {
    async fn get(&mut self) -> std::result::Result<&mut SqliteConnection, sqlx::Error> {
        if self.closed {
            return Err(sqlx::Error::PoolClosed);
        }
        if self.conn.is_none() {
            self.conn = Some(sqlx::ConnectOptions::connect(&self.options).await?);
        }
        Ok(self.conn.as_mut().expect("opened above"))
    }
}

/// Close every connection of SQLite's read-only pool. `Pool::close` alone
/// may return with one still open (sqlx 0.8; sqlx issue 3217): a
/// connection whose return to the pool began before the close (sqlx checks
/// for a closed pool, then pings the connection) goes back to the idle
/// queue after the close's last look at it; and the close's wait for every
/// permit can be met while a connection is still out. An open reader keeps
/// the writing connection from being the last, and the last alone copies
/// the log into the database and removes it. So close again until none is
/// left: each round closes what came back in between.
async fn close_every_pooled_connection(pool: &SqlitePool) {
    pool.close().await;
    while pool.size() > 0 {
        tokio::task::yield_now().await;
        pool.close().await;
    }
}

/// Run `$body` with `$pool` bound to the backend's pool (reads only; writes
/// go through `with_write_tx!`); the body is type checked once per backend,
/// so one piece of sqlx code serves both.
macro_rules! with_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.backend {
            Backend::Sqlite { pool: $pool, .. } => $body,
            Backend::Postgres($pool) => $body,
        }
    };
}

/// Run the future `$body` with `$tx` bound to a write transaction, begun
/// as [`Store::begin_write`] says, that the body commits (the group commit
/// and every other write): on SQLite on the one writing connection, on
/// Postgres on one of the pool's.
/// After a failed write (SQLite's disk full at COMMIT, say) the connection
/// may still be inside its transaction, and every later write on it would
/// fail: it is closed and the next write opens a fresh one.
macro_rules! with_write_tx {
    ($store:expr, $tx:ident => $body:expr) => {
        match &$store.backend {
            Backend::Sqlite { writer, .. } => {
                async {
                    let mut held = writer.lock().await;
                    let conn = held.get().await?;
                    let r = async {
                        let mut $tx = sqlx::Connection::begin_with(conn, $store.begin_write()).await?;
                        $body.await
                    }
                    .await;
                    if r.is_err() {
                        held.conn = None;
                    }
                    r
                }
                .await
            }
            Backend::Postgres(p) => {
                async {
                    let mut pooled = p.acquire().await?;
                    let r = async {
                        let mut $tx = sqlx::Connection::begin_with(&mut *pooled, $store.begin_write()).await?;
                        $body.await
                    }
                    .await;
                    if r.is_err() {
                        pooled.close_on_drop();
                    }
                    r
                }
                .await
            }
        }
    };
}

// After `with_pool!` and `with_write_tx!`, which they use; `campaign`
// first: `records` writes a campaign's state with its `write_campaign!`.
#[macro_use]
mod campaign;
mod chat;
mod lease;
mod names;
mod push;
mod records;
mod rematch;

pub use campaign::{CampaignRecord, CampaignUpdate, NewCampaign};
pub use chat::ChatLine;
pub use lease::{Fence, Lease};
pub use names::{Transfer, TransferRefused};
pub use push::PushSubscription;
pub use records::{ActionRecord, Append, Commitment, RecordKind};
pub use rematch::Rematch;

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
    /// Milliseconds a seat has for a timed decision (a campaign's turn
    /// timer); `None`: the server's response timer if `live`, else untimed.
    pub turn_timer_ms: Option<u64>,
    /// Where it stands before any action (`Ruleset::standing`).
    pub standing: Option<Value>,
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
    /// The game's summary of where the match stands after the latest
    /// action (`Ruleset::standing`); `None` before the first.
    pub standing: Option<Value>,
    /// The seats taken: by a match's own tokens, or for a match of a
    /// campaign by the campaign's (its players hold those).
    pub seats_taken: Vec<u8>,
    /// As [`NewMatch::turn_timer_ms`].
    pub turn_timer_ms: Option<u64>,
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
    /// Every match, private and campaign ones included (the audit).
    All,
}

const MIGRATIONS_SQLITE: &[(i64, &str, &str)] = &[
    (1, "matches", include_str!("../../migrations/sqlite/0001_matches.sql")),
    (2, "private", include_str!("../../migrations/sqlite/0002_private.sql")),
    (3, "records", include_str!("../../migrations/sqlite/0003_records.sql")),
    (4, "campaigns", include_str!("../../migrations/sqlite/0004_campaigns.sql")),
    (5, "turn_timers", include_str!("../../migrations/sqlite/0005_turn_timers.sql")),
    (6, "state_hash", include_str!("../../migrations/sqlite/0006_state_hash.sql")),
    (7, "leases", include_str!("../../migrations/sqlite/0007_leases.sql")),
    (8, "chat", include_str!("../../migrations/sqlite/0008_chat.sql")),
    (9, "lease_peer", include_str!("../../migrations/sqlite/0009_lease_peer.sql")),
    (10, "push", include_str!("../../migrations/sqlite/0010_push.sql")),
    (11, "rematch", include_str!("../../migrations/sqlite/0011_rematch.sql")),
    (12, "names", include_str!("../../migrations/sqlite/0012_names.sql")),
];
const MIGRATIONS_POSTGRES: &[(i64, &str, &str)] = &[
    (1, "matches", include_str!("../../migrations/postgres/0001_matches.sql")),
    (2, "private", include_str!("../../migrations/postgres/0002_private.sql")),
    (3, "records", include_str!("../../migrations/postgres/0003_records.sql")),
    (4, "campaigns", include_str!("../../migrations/postgres/0004_campaigns.sql")),
    (5, "turn_timers", include_str!("../../migrations/postgres/0005_turn_timers.sql")),
    (6, "state_hash", include_str!("../../migrations/postgres/0006_state_hash.sql")),
    (7, "leases", include_str!("../../migrations/postgres/0007_leases.sql")),
    (8, "actions_unreferenced", include_str!("../../migrations/postgres/0008_actions_unreferenced.sql")),
    (9, "snapshots_text", include_str!("../../migrations/postgres/0009_snapshots_text.sql")),
    (10, "chat", include_str!("../../migrations/postgres/0010_chat.sql")),
    (11, "lease_peer", include_str!("../../migrations/postgres/0011_lease_peer.sql")),
    (12, "push", include_str!("../../migrations/postgres/0012_push.sql")),
    (13, "rematch", include_str!("../../migrations/postgres/0013_rematch.sql")),
    (14, "names", include_str!("../../migrations/postgres/0014_names.sql")),
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

/// [`StoreError::CannotOpen`] for `path`, naming the user this process runs as.
fn cannot_open(path: &Path, reason: &str) -> StoreError {
    StoreError::CannotOpen { path: path.display().to_string(), user: process_user(), reason: reason.to_owned() }
}

/// `name (uid U, gid G)`, or `uid U, gid G` when /etc/passwd does not name
/// it (an image run with `--user` of a number it does not know).
fn process_user() -> String {
    // SAFETY: getuid and getgid cannot fail and touch no memory.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let name = std::fs::read_to_string("/etc/passwd").ok().and_then(|passwd| {
        passwd.lines().find_map(|line| {
            let mut fields = line.split(':');
            let name = fields.next()?;
            (fields.nth(1)?.parse::<u32>().ok()? == uid).then(|| name.to_owned())
        })
    });
    match name {
        Some(name) => format!("user {name} (uid {uid}, gid {gid})"),
        None => format!("uid {uid}, gid {gid}"),
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
                // A stopped database fails a request after 5 s rather than
                // sqlx's default 30: the player gets `store_unavailable` to
                // retry while a human still waits for an answer.
                let pool = PgPoolOptions::new()
                    .max_connections(16)
                    .acquire_timeout(Duration::from_secs(5))
                    .connect_with(options)
                    .await?;
                Store { backend: Backend::Postgres(pool) }
            }
            Some(url) => {
                let options = SqliteConnectOptions::from_str(url)?;
                let path = options.get_filename().to_owned();
                Store::sqlite(options).await.map_err(|e| cannot_open(&path, &e.to_string()))?
            }
            None => {
                let path = data_dir.join("athlas.db");
                std::fs::create_dir_all(data_dir).map_err(|e| cannot_open(data_dir, &e.to_string()))?;
                Store::sqlite(SqliteConnectOptions::new().filename(&path))
                    .await
                    .map_err(|e| cannot_open(&path, &e.to_string()))?
            }
        };
        store.migrate().await?;
        Ok(store)
    }

    /// [`Store::open`], retried while the database is not there yet (refused,
    /// no answer, starting up) for at most `wait`: attempts 250 ms apart at
    /// first, doubling up to 5 s. `waiting` hears of each failed attempt:
    /// its number, the error, and the pause before the next. A database
    /// that answers with a refusal that waiting cannot mend (credentials, a
    /// missing database) fails at once, as does the last attempt.
    ///
    /// # Errors
    /// As [`Store::open`]: the last attempt's error.
    pub async fn open_waiting(
        url: Option<&str>,
        data_dir: &Path,
        wait: Duration,
        mut waiting: impl FnMut(u32, &StoreError, Duration),
    ) -> Result<Store> {
        let deadline = tokio::time::Instant::now() + wait;
        let mut pause = Duration::from_millis(250);
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            match Store::open(url, data_dir).await {
                Err(e @ StoreError::Unreachable { transient: true, .. }) => {
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    if left.is_zero() {
                        return Err(e);
                    }
                    let next = pause.min(left);
                    waiting(attempt, &e, next);
                    tokio::time::sleep(next).await;
                    pause = (pause * 2).min(Duration::from_secs(5));
                }
                done => return done,
            }
        }
    }

    /// One connection, at most [`POSTGRES_CONNECT_TIMEOUT`]: a database that
    /// refuses, does not exist or does not answer fails start-up at once with
    /// its host and port.
    async fn probe_postgres(options: &PgConnectOptions) -> Result<()> {
        let at = match options.get_socket() {
            Some(socket) => socket.display().to_string(),
            None => format!("{}:{}", options.get_host(), options.get_port()),
        };
        let unreachable =
            |reason: String, transient: bool| StoreError::Unreachable { at: at.clone(), reason, transient };
        match tokio::time::timeout(POSTGRES_CONNECT_TIMEOUT, PgConnection::connect_with(options)).await {
            Ok(Ok(conn)) => {
                conn.close().await?;
                Ok(())
            }
            Ok(Err(e)) => {
                // Refused or reset, or Postgres saying it is starting up
                // (57P03) or cannot take connections yet (class 08).
                let transient = match &e {
                    sqlx::Error::Io(_) | sqlx::Error::Tls(_) | sqlx::Error::PoolTimedOut => true,
                    sqlx::Error::Database(d) => d.code().is_some_and(|c| c == "57P03" || c.starts_with("08")),
                    _ => false,
                };
                Err(unreachable(e.to_string(), transient))
            }
            Err(_) => Err(unreachable(format!("no answer in {} s", POSTGRES_CONNECT_TIMEOUT.as_secs()), true)),
        }
    }

    async fn sqlite(options: SqliteConnectOptions) -> Result<Store> {
        let options = options
            .create_if_missing(true)
            // 1 KiB pages, not 4: a group commit logs every page it changes
            // whole, and it changes one index leaf and one `matches` row per
            // match in it, a few hundred bytes each. A database made before
            // keeps its page size (a WAL file cannot change it).
            .page_size(1024)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: an acknowledged action survives a power cut, not only a crash.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            // A multi-row statement inside a transaction keeps the pages it
            // changes in a statement journal: in memory, not in a temporary
            // file written and read back through the kernel.
            .pragma("temp_store", "memory")
            .busy_timeout(Duration::from_secs(10));
        // One connection first creates the file and switches it to WAL alone:
        // several connections doing that at once find the database locked.
        sqlx::ConnectOptions::connect(&options).await?.close().await?;
        // A local file: open every connection at start and keep them; there
        // is nothing to recycle or to test before use. (It also means no
        // connection is ever opened later, which paused-clock tests rely on.)
        // Read-only: a write on one of them would make the next commit
        // begin cold (see `Backend::Sqlite`), and now fails instead.
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .min_connections(4)
            .idle_timeout(None)
            .max_lifetime(None)
            .test_before_acquire(false)
            .connect_with(options.clone().read_only(true))
            .await?;
        // The writing connection keeps the pages a commit changes (the
        // matches, the action log's index leaves): 4,096 pages of cache
        // (4 MiB of 1 KiB pages, 16 MiB of an older database's 4 KiB), not
        // SQLite's 2 MiB. Counted in pages, not bytes: SQLite scans the
        // cache's hash table at the end of every write transaction, so
        // its cost follows the number of pages kept.
        // Its commits copy the log back into the database every 10,000
        // pages (about 10 MB of log) rather than SQLite's 1,000: a commit
        // rewrites the same hot pages (the matches' rows, each match's
        // index leaf), and a checkpoint copies each page once however often
        // it was logged, so rarer checkpoints write fewer bytes per action
        // (docs/PERFORMANCE.md). Durability is the log's fsync at each
        // commit, unchanged.
        let options = options.pragma("cache_size", "4096").pragma("wal_autocheckpoint", "10000");
        let writer =
            WriteConnection { conn: Some(sqlx::ConnectOptions::connect(&options).await?), options, closed: false };
        Ok(Store { backend: Backend::Sqlite { pool, writer: Arc::new(tokio::sync::Mutex::new(writer)) } })
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite { .. } => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    async fn migrate(&self) -> Result<()> {
        match &self.backend {
            // On the writing connection: the pool only reads.
            Backend::Sqlite { writer, .. } => {
                let mut held = writer.lock().await;
                Migrator::new(Embedded(MIGRATIONS_SQLITE)).await?.run(held.get().await?).await?
            }
            Backend::Postgres(p) => Migrator::new(Embedded(MIGRATIONS_POSTGRES)).await?.run(p).await?,
        }
        Ok(())
    }

    /// Close the store, waiting for its connections to finish; on SQLite
    /// the writing connection closes last (see below).
    pub async fn close(&self) {
        match &self.backend {
            Backend::Sqlite { writer, pool } => {
                let mut held = writer.lock().await;
                held.closed = true;
                // The writing connection last: the last to close copies the
                // log into the database and removes it, which the read-only
                // pool cannot.
                close_every_pooled_connection(pool).await;
                if let Some(conn) = held.conn.take() {
                    let _ = sqlx::Connection::close(conn).await;
                }
            }
            Backend::Postgres(p) => p.close().await,
        }
    }

    /// How a transaction that writes begins. SQLite: IMMEDIATE, taking the
    /// write lock up front; a deferred transaction that reads first and then
    /// writes fails at once with "database is locked" (SQLITE_BUSY_SNAPSHOT)
    /// when another connection committed in between, busy timeout or not.
    fn begin_write(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite { .. } => "BEGIN IMMEDIATE",
            Backend::Postgres(_) => "BEGIN",
        }
    }

    /// SQL in the Postgres dialect, adapted to this backend.
    fn sql<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        match self.backend {
            Backend::Postgres(_) => Cow::Borrowed(sql),
            Backend::Sqlite { .. } => {
                Cow::Owned(sql.replace("::uuid", "").replace("::jsonb", "").replace("::text", ""))
            }
        }
    }

    /// [`Store::sql`] of a statement whose parameters are `$1`, `$2`, …
    /// each once and in that order (the multi-row writes): on SQLite they
    /// become anonymous `?`. SQLite looks a numbered parameter's name up by
    /// scanning all of them, and sqlx asks for every parameter's name: with
    /// hundreds of parameters a statement, that scan cost more than the
    /// insert.
    fn sql_in_order<'a>(&self, sql: &'a str) -> Cow<'a, str> {
        match self.backend {
            Backend::Postgres(_) => Cow::Borrowed(sql),
            Backend::Sqlite { .. } => Cow::Owned(anonymous_params(&self.sql(sql))),
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
            Backend::Sqlite { .. } => MIGRATIONS_SQLITE,
            Backend::Postgres(_) => MIGRATIONS_POSTGRES,
        };
        let latest = known.iter().map(|m| m.0).max().unwrap_or(0);
        if applied < latest {
            return Err(StoreError::NotMigrated { applied, latest });
        }
        // SQLite still reads when its disk is full or its file read-only,
        // so answering is not enough: the file must be able to take writes.
        if let Backend::Sqlite { pool: p, .. } = &self.backend {
            sqlite_writable(p.connect_options().get_filename()).map_err(StoreError::Unwritable)?;
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
             private, turn_timer_ms, standing) \
             VALUES ($1::uuid, $2, $3::jsonb, $4, $5, $11, $6, $7, $8, $9::uuid, $10, $12, $13::jsonb)",
        );
        let q2 = self.sql("INSERT INTO seats (match_id, seat, token_hash) VALUES ($1::uuid, $2, $3)");
        let r: std::result::Result<(), sqlx::Error> = with_write_tx!(self, tx => async {
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
                .bind(m.turn_timer_ms.map(|t| t as i64))
                .bind(m.standing.as_ref().map(Value::to_string))
                .execute(&mut *tx)
                .await?;
            if let Some((seat, hash)) = &m.creator {
                sqlx::query(&q2).bind(m.id.to_string()).bind(*seat as i32).bind(hash).execute(&mut *tx).await?;
            }
            tx.commit().await
        });
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
        self.claim_seat(&MATCH_SEATS, join_code, token_hash).await
    }

    /// Claim the lowest free seat behind a join code in one transaction
    /// (a match's or a campaign's: `t` says which tables), running
    /// `t.when_full` when it was the last. Two players racing for the last
    /// seat: one gets it, the other [`StoreError::Full`] (the seat tables'
    /// primary key decides).
    pub(crate) async fn claim_seat(&self, t: &SeatTables, join_code: &str, token_hash: &str) -> Result<(Uuid, u8)> {
        let q_owner = self.sql(t.owner);
        let q_seats = self.sql(t.seats);
        let q_insert = self.sql(t.insert);
        let q_full = t.when_full.map(|q| self.sql(q));
        let r: std::result::Result<Option<(String, Option<u8>)>, sqlx::Error> = with_write_tx!(self, tx => async {
            let Some(row) = sqlx::query(&q_owner).bind(join_code).fetch_optional(&mut *tx).await? else {
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
            if let Some(q) = q_full.as_ref().filter(|_| taken.len() + 1 == seats as usize) {
                sqlx::query(q).bind(&id).bind(MatchStatus::Active).bind(MatchStatus::Open).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(Some((id, Some(free as u8))))
        });
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
        // A seat brought to another browser by a transfer code.
        let q_copy = self.sql("SELECT match_id::text AS match_id, seat FROM seat_tokens WHERE token_hash = $1");
        let q_campaign = self.sql(
            "SELECT c.current_match::text AS match_id, s.seat FROM campaign_seats s \
             JOIN campaigns c ON c.id = s.campaign_id WHERE s.token_hash = $1",
        );
        let row = with_pool!(self, p => {
            let mut row = None;
            for q in [&q, &q_copy, &q_campaign] {
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

    /// Every match, oldest first, up to `limit` (the audit reads them all).
    ///
    /// # Errors
    /// Database errors.
    pub async fn all_matches(&self, limit: u32) -> Result<Vec<MatchRecord>> {
        self.matches(Selection::All, limit).await
    }

    async fn matches(&self, selection: Selection, limit: u32) -> Result<Vec<MatchRecord>> {
        let where_ = match selection {
            Selection::Id(_) => "WHERE m.id = $1::uuid ORDER BY m.created_at, m.id",
            Selection::Listed(_) => "WHERE m.status = $1 AND NOT m.private ORDER BY m.created_at, m.id",
            Selection::Campaign(_) => "WHERE m.campaign_id = $1::uuid ORDER BY m.ordinal",
            Selection::All => "ORDER BY m.created_at, m.id",
        };
        let q = self
            .sql(&format!(
                "SELECT m.id::text AS id, m.game, m.options::text AS options, m.seed, m.rules_version, m.status, \
             m.join_code, m.live, m.private, m.seats, m.seq, m.outcome::text AS outcome, m.campaign_id::text AS campaign_id, \
             m.ordinal, m.standing::text AS standing, m.turn_timer_ms, \
             COALESCE((SELECT string_agg(s.seat::text, ',') FROM seats s WHERE s.match_id = m.id), \
                      (SELECT string_agg(cs.seat::text, ',') FROM campaign_seats cs WHERE cs.campaign_id = m.campaign_id)) AS taken \
             FROM matches m {where_} LIMIT {limit}"
            ))
            .into_owned();
        // SQLite spells string_agg group_concat.
        let q =
            if matches!(self.backend, Backend::Sqlite { .. }) { q.replace("string_agg(", "group_concat(") } else { q };
        let rows = with_pool!(self, p => {
            let query = sqlx::query(&q);
            let query = match selection {
                Selection::Id(id) | Selection::Campaign(id) => query.bind(id.to_string()),
                Selection::Listed(status) => query.bind(status),
                Selection::All => query,
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
                    (r.try_get::<Option<String>, _>("standing")?, r.try_get::<Option<i64>, _>("turn_timer_ms")?),
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
                    (standing, turn_timer_ms),
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
                        turn_timer_ms: turn_timer_ms.map(|t| t as u64),
                    })
                },
            )
            .collect()
    }
}

/// Free space below which a SQLite store is not ready: a group commit and
/// its WAL need room to grow.
const SQLITE_MIN_FREE: u64 = 1 << 20;

/// Whether the SQLite file `file` can take writes: it opens for writing,
/// and its file system has [`SQLITE_MIN_FREE`] bytes free.
fn sqlite_writable(file: &Path) -> std::result::Result<(), String> {
    if let Err(e) = std::fs::OpenOptions::new().append(true).open(file) {
        return Err(format!("the store's file {} cannot be written: {e}", file.display()));
    }
    match free_bytes(file.parent().unwrap_or(Path::new("."))) {
        Some(free) if free < SQLITE_MIN_FREE => {
            Err(format!("the disk holding {} is full ({free} bytes free)", file.display()))
        }
        _ => Ok(()),
    }
}

/// Bytes an unprivileged writer may still use on the file system of `dir`
/// (`statvfs`); `None` where it cannot be read.
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a NUL-terminated string and `st` a valid out-pointer
    // that statvfs fills when it returns 0.
    let ok = unsafe { libc::statvfs(path.as_ptr(), st.as_mut_ptr()) } == 0;
    // SAFETY: initialised by the successful call above.
    // The field types differ between platforms (u32 on some 32-bit ones).
    #[allow(clippy::useless_conversion)]
    ok.then(|| {
        let st = unsafe { st.assume_init() };
        u64::from(st.f_bavail).saturating_mul(u64::from(st.f_frsize))
    })
}

fn parse_uuid(s: &str) -> Result<Uuid> {
    Uuid::parse_str(s).map_err(|e| StoreError::Corrupt(format!("uuid {s}: {e}")))
}

fn parse_json(s: &str) -> Result<Value> {
    serde_json::from_str(s).map_err(|e| StoreError::Corrupt(format!("json: {e}")))
}

/// The tables behind a join code's seats, for [`Store::claim_seat`]: the
/// owner row (`id`, `seats`) by join code, its taken seats, the insert of
/// a seat, and what to run (with the id, `active`, `open`) once the last
/// seat is taken.
pub(crate) struct SeatTables {
    pub owner: &'static str,
    pub seats: &'static str,
    pub insert: &'static str,
    pub when_full: Option<&'static str>,
}

/// A plain match's seats (a campaign's match is joined through its campaign).
const MATCH_SEATS: SeatTables = SeatTables {
    owner: "SELECT id::text AS id, seats FROM matches WHERE join_code = $1 AND campaign_id IS NULL",
    seats: "SELECT seat FROM seats WHERE match_id = $1::uuid ORDER BY seat",
    insert: "INSERT INTO seats (match_id, seat, token_hash) VALUES ($1::uuid, $2, $3)",
    when_full: Some("UPDATE matches SET status = $2 WHERE id = $1::uuid AND status = $3"),
};

/// `sql` with each `$N` made an anonymous `?`: for parameters numbered
/// 1, 2, … in order of appearance, the same statement.
fn anonymous_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    let mut expected = 1u32;
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            let mut n = 0u32;
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n * 10 + d;
                chars.next();
            }
            debug_assert_eq!(n, expected, "parameters in order: {sql}");
            expected += 1;
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_parameters_in_order_become_anonymous() {
        assert_eq!(
            anonymous_params("VALUES ($1, CAST($2 AS BIGINT), $3), ($4, $5, $6)"),
            "VALUES (?, CAST(? AS BIGINT), ?), (?, ?, ?)"
        );
    }

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

    /// SQLite: every write goes through the one writing connection, so its
    /// page cache survives from commit to commit; the pool only reads, and
    /// a write slipped onto it fails instead of silently costing the next
    /// commit a cold cache.
    #[tokio::test]
    async fn sqlite_writes_go_through_one_connection_and_the_pool_only_reads() {
        let dir = std::env::temp_dir().join(format!("athlas-store-{}", Uuid::new_v4()));
        let store = Store::open(None, &dir).await.unwrap();
        let m = NewMatch {
            id: Uuid::new_v4(),
            game: "duel".into(),
            options: serde_json::json!({}),
            seed: 7,
            rules_version: 1,
            join_code: "READONLY".into(),
            live: false,
            private: false,
            seats: 2,
            campaign_id: None,
            creator: Some((0, "a".repeat(64))),
            turn_timer_ms: None,
            standing: None,
        };
        store.create_match(&m).await.unwrap();
        assert_eq!(store.join("READONLY", &"b".repeat(64)).await.unwrap(), (m.id, 1));
        assert_eq!(store.get_match(m.id).await.unwrap().unwrap().status, MatchStatus::Active);
        let Backend::Sqlite { pool, .. } = &store.backend else { unreachable!() };
        let write = sqlx::query("UPDATE matches SET status = 'finished'").execute(pool).await;
        assert!(write.unwrap_err().to_string().contains("readonly"), "the pool wrote");
        store.close().await;
        assert!(!dir.join("athlas.db-wal").exists(), "the writing connection closes last and removes the log");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A reader on its way back to the pool when the store closes is closed
    /// too, so the writing connection is still the last and removes the log.
    /// The way back is held up on purpose: the connection's worker is busy
    /// with a long query whose caller gave up, so sqlx's ping on return waits
    /// behind it while the close runs.
    #[tokio::test]
    async fn sqlite_close_waits_for_a_reader_on_its_way_back() {
        let dir = std::env::temp_dir().join(format!("athlas-store-{}", Uuid::new_v4()));
        let store = Store::open(None, &dir).await.unwrap();
        let Backend::Sqlite { pool, .. } = &store.backend else { unreachable!() };
        let mut conn = pool.acquire().await.unwrap();
        let long = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) \
                    SELECT count(*) FROM c";
        // Sent on the first poll, then abandoned: the worker runs it to the end.
        let gave_up = tokio::time::timeout(Duration::from_millis(1), sqlx::query(long).execute(&mut *conn)).await;
        assert!(gave_up.is_err(), "the long query finished at once");
        drop(conn);
        // The return starts (the pool is still open) and waits on its ping.
        tokio::task::yield_now().await;
        store.close().await;
        assert_eq!(pool.size(), 0, "a pooled connection is still open");
        assert!(!dir.join("athlas.db-wal").exists(), "the writing connection closes last and removes the log");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
