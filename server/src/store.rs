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
    migrate::{Migration, MigrationSource, MigrationType, Migrator},
    postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions},
    sqlite::{
        SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
    },
    Connection as _,
};
use uuid::Uuid;

type Result<T> = std::result::Result<T, StoreError>;

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
            self.conn = Some(connect_writer(&self.options).await?);
        }
        Ok(self.conn.as_mut().expect("opened above"))
    }
}

/// Open the writing connection, with the one-row table its batches check
/// their seq moves in (`records::append_at_once`): a temporary table, in
/// memory and this connection's own, so the database file never sees it.
async fn connect_writer(options: &SqliteConnectOptions) -> std::result::Result<SqliteConnection, sqlx::Error> {
    let mut conn = sqlx::ConnectOptions::connect(options).await?;
    sqlx::query(
        "CREATE TEMP TABLE IF NOT EXISTS seq_check \
         (id INTEGER PRIMARY KEY, every_seq_follows INTEGER NOT NULL CHECK (every_seq_follows))",
    )
    .execute(&mut conn)
    .await?;
    Ok(conn)
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
mod error;
mod lease;
mod matches;
mod names;
mod push;
mod records;
mod rematch;

pub use campaign::{CampaignRecord, CampaignUpdate, NewCampaign};
pub use chat::ChatLine;
use error::is_unique_violation;
pub use error::StoreError;
pub use lease::{Fence, Lease};
pub(crate) use matches::SeatTables;
use matches::Selection;
pub use matches::{MatchRecord, MatchStatus, NewMatch};
pub use names::{Transfer, TransferRefused};
pub use push::PushSubscription;
pub use records::{ActionRecord, Append, Commitment, RecordKind};
pub use rematch::Rematch;

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
        let writer = WriteConnection { conn: Some(connect_writer(&options).await?), options, closed: false };
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
