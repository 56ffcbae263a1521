//! Room leases (a cluster's room ownership): one row per room a node
//! plays, `(match_id, node_id, epoch, expires_at)`, claimed when the room
//! loads, renewed while it lives, released when it unloads. Taking over a
//! room bumps its epoch; [`Store::append`] checks a fenced room's epoch in
//! the same transaction as its write, holding the lease row (`FOR SHARE`)
//! so a claim cannot slip in between: a node that lost its lease (paused,
//! partitioned, slow) can never write again. Times are the database's
//! clock, so nodes' clocks need not agree. Postgres only.

use std::{sync::Arc, time::Duration};

use sqlx::Row;
use uuid::Uuid;

use super::{Backend, Result, Store, StoreError};

/// What a room holds while it owns its lease: every append carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub node: Arc<str>,
    pub epoch: u64,
}

/// Who holds a room now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub node: String,
    /// The node's WebSocket URL, where players reach it.
    pub url: String,
    /// Where the other nodes reach it, to relay a socket (`--peer-url`;
    /// the players' URL when the node has no other).
    pub peer_url: String,
    pub epoch: u64,
    /// Milliseconds until it expires (negative: expired).
    pub expires_in_ms: i64,
}

impl Store {
    fn leases(&self) -> Result<&sqlx::PgPool> {
        match &self.backend {
            Backend::Postgres(p) => Ok(p),
            Backend::Sqlite { .. } => Err(StoreError::NoLeases),
        }
    }

    /// Claim room `match_id` for `node` (reached by players at `url`, by
    /// the other nodes at `peer_url`) for `lease`: granted (with a new
    /// epoch) when nobody holds it, its lease expired, or `node` itself
    /// held it (a restarted node fences its former self too); `None` while
    /// another node holds it.
    ///
    /// # Errors
    /// Database errors; [`StoreError::NoLeases`] on SQLite.
    pub async fn claim_lease(
        &self,
        match_id: Uuid,
        node: &str,
        url: &str,
        peer_url: &str,
        lease: Duration,
    ) -> Result<Option<Fence>> {
        let p = self.leases()?;
        let epoch: Option<i64> = sqlx::query_scalar(
            "INSERT INTO leases (match_id, node_id, node_url, peer_url, epoch, expires_at) \
             VALUES ($1::uuid, $2, $4, $5, 1, clock_timestamp() + make_interval(secs => $3)) \
             ON CONFLICT (match_id) DO UPDATE \
             SET node_id = EXCLUDED.node_id, node_url = EXCLUDED.node_url, peer_url = EXCLUDED.peer_url, \
                 epoch = leases.epoch + 1, expires_at = EXCLUDED.expires_at \
             WHERE leases.expires_at < clock_timestamp() OR leases.node_id = EXCLUDED.node_id \
             RETURNING epoch",
        )
        .bind(match_id.to_string())
        .bind(node)
        .bind(lease.as_secs_f64())
        .bind(url)
        .bind(peer_url)
        .fetch_optional(p)
        .await?;
        Ok(epoch.map(|e| Fence { node: node.into(), epoch: e as u64 }))
    }

    /// Extend a held lease; `false` when it is held no more (taken over).
    ///
    /// # Errors
    /// Database errors.
    pub async fn renew_lease(&self, match_id: Uuid, fence: &Fence, lease: Duration) -> Result<bool> {
        let p = self.leases()?;
        let n = sqlx::query(
            "UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => $4) \
             WHERE match_id = $1::uuid AND node_id = $2 AND epoch = $3",
        )
        .bind(match_id.to_string())
        .bind(&*fence.node)
        .bind(fence.epoch as i64)
        .bind(lease.as_secs_f64())
        .execute(p)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Let the room go at once (a room that unloads, a node that stops):
    /// the next node to ask claims it without waiting for the expiry.
    ///
    /// # Errors
    /// Database errors.
    pub async fn release_lease(&self, match_id: Uuid, fence: &Fence) -> Result<()> {
        let p = self.leases()?;
        sqlx::query(
            "UPDATE leases SET expires_at = clock_timestamp() - interval '1 millisecond' \
             WHERE match_id = $1::uuid AND node_id = $2 AND epoch = $3",
        )
        .bind(match_id.to_string())
        .bind(&*fence.node)
        .bind(fence.epoch as i64)
        .execute(p)
        .await?;
        Ok(())
    }

    /// Who holds room `match_id`, if anyone ever did.
    ///
    /// # Errors
    /// Database errors.
    pub async fn lease(&self, match_id: Uuid) -> Result<Option<Lease>> {
        let p = self.leases()?;
        let row = sqlx::query(
            "SELECT node_id, node_url, COALESCE(peer_url, node_url) AS peer_url, epoch, \
             CAST(EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) * 1000 AS BIGINT) AS left_ms \
             FROM leases WHERE match_id = $1::uuid",
        )
        .bind(match_id.to_string())
        .fetch_optional(p)
        .await?;
        row.map(|r| {
            Ok(Lease {
                node: r.try_get("node_id")?,
                url: r.try_get("node_url")?,
                peer_url: r.try_get("peer_url")?,
                epoch: r.try_get::<i64, _>("epoch")? as u64,
                expires_in_ms: r.try_get("left_ms")?,
            })
        })
        .transpose()
        .map_err(|e: sqlx::Error| e.into())
    }
}
