//! Why a store operation failed, and which failures mean "the database is
//! away" (retry) rather than "this request is wrong".

use crate::refusal::{Code, Refusal};

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
    pub fn code(&self) -> Code {
        if matches!(self, StoreError::Fenced(_)) {
            return Code::RoomElsewhere;
        }
        if self.is_unavailable() {
            Code::StoreUnavailable
        } else {
            Code::Internal
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

pub(super) fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// A store failure as clients are told it: `store_unavailable` when the
/// database is away (retry), `internal` otherwise. Its details are logged
/// here, never sent.
impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        tracing::error!(error = %e, "store error");
        let message = if e.is_unavailable() {
            "the database is unavailable; nothing was changed; retry shortly"
        } else {
            "internal error; nothing was changed"
        };
        Refusal::new(e.code(), message)
    }
}
