//! Web Push's records: the server's VAPID key (one row, made by the first
//! node that needs it, so every node of a cluster signs with the same key)
//! and the push subscriptions of each seat of a match. A subscription is
//! one browser's push endpoint with its keys; a seat may have several (a
//! phone and a laptop), up to [`MAX_PER_SEAT`].

use sqlx::Row;
use uuid::Uuid;

use super::{Backend, Result, Store};

/// At most this many subscriptions a seat: a new one past it replaces the
/// oldest (a browser whose endpoint changed leaves its old one behind).
pub const MAX_PER_SEAT: i64 = 5;

/// One browser's push subscription (the `PushSubscription` a page gets
/// from `pushManager.subscribe`), as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscription {
    /// The push service's URL for this browser (RFC 8030).
    pub endpoint: String,
    /// The browser's P-256 public key, base64url (RFC 8291 `ua_public`).
    pub p256dh: String,
    /// The browser's 16-byte auth secret, base64url.
    pub auth: String,
}

impl Store {
    /// The VAPID private key in use, storing `candidate` as that key when
    /// there is none yet: whichever node stores first, every node then
    /// reads the same one.
    ///
    /// # Errors
    /// Database errors.
    pub async fn vapid_key(&self, candidate: &str, at_ms: u64) -> Result<String> {
        let insert =
            "INSERT INTO push_keys (id, private_key, created_ms) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING";
        let select = "SELECT private_key FROM push_keys WHERE id = 1";
        let existing: Option<String> = with_pool!(self, p => sqlx::query_scalar(select).fetch_optional(p).await)?;
        if let Some(key) = existing {
            return Ok(key);
        }
        let key: String = with_write_tx!(self, tx => async {
            sqlx::query(insert).bind(candidate).bind(at_ms as i64).execute(&mut *tx).await?;
            let key: String = sqlx::query_scalar(select).fetch_one(&mut *tx).await?;
            tx.commit().await?;
            Ok::<String, sqlx::Error>(key)
        })?;
        Ok(key)
    }

    /// Keep `sub` for seat `seat` of `match_id` (again: its keys are
    /// replaced); past [`MAX_PER_SEAT`] the seat's oldest go.
    ///
    /// # Errors
    /// Database errors (an unknown match breaks the foreign key).
    pub async fn add_push_subscription(
        &self,
        match_id: Uuid,
        seat: u8,
        sub: &PushSubscription,
        at_ms: u64,
    ) -> Result<()> {
        let upsert = self.sql(
            "INSERT INTO push_subscriptions (match_id, seat, endpoint, p256dh, auth, created_ms) \
             VALUES ($1::uuid, $2, $3, $4, $5, $6) \
             ON CONFLICT (match_id, seat, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth",
        );
        let trim = self.sql(
            "DELETE FROM push_subscriptions WHERE match_id = $1::uuid AND seat = $2 AND endpoint NOT IN \
             (SELECT endpoint FROM push_subscriptions WHERE match_id = $1::uuid AND seat = $2 \
              ORDER BY created_ms DESC, endpoint LIMIT $3)",
        );
        with_write_tx!(self, tx => async {
            sqlx::query(&upsert)
                .bind(match_id.to_string())
                .bind(i32::from(seat))
                .bind(&sub.endpoint)
                .bind(&sub.p256dh)
                .bind(&sub.auth)
                .bind(at_ms as i64)
                .execute(&mut *tx)
                .await?;
            sqlx::query(&trim).bind(match_id.to_string()).bind(i32::from(seat)).bind(MAX_PER_SEAT).execute(&mut *tx).await?;
            tx.commit().await
        })?;
        Ok(())
    }

    /// Forget the subscription at `endpoint` of seat `seat` of `match_id`;
    /// whether there was one.
    ///
    /// # Errors
    /// Database errors.
    pub async fn remove_push_subscription(&self, match_id: Uuid, seat: u8, endpoint: &str) -> Result<bool> {
        let q = self.sql("DELETE FROM push_subscriptions WHERE match_id = $1::uuid AND seat = $2 AND endpoint = $3");
        let n = with_write_tx!(self, tx => async {
            let n = sqlx::query(&q).bind(match_id.to_string()).bind(i32::from(seat)).bind(endpoint).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<u64, sqlx::Error>(n.rows_affected())
        })?;
        Ok(n > 0)
    }

    /// Forget `endpoint` for every match: its push service said it is gone.
    ///
    /// # Errors
    /// Database errors.
    pub async fn drop_push_endpoint(&self, endpoint: &str) -> Result<u64> {
        let n = with_write_tx!(self, tx => async {
            let n = sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1").bind(endpoint).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<u64, sqlx::Error>(n.rows_affected())
        })?;
        Ok(n)
    }

    /// The subscriptions of seat `seat` of `match_id`, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn push_subscriptions(&self, match_id: Uuid, seat: u8) -> Result<Vec<PushSubscription>> {
        let q = self.sql(
            "SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE match_id = $1::uuid AND seat = $2 \
             ORDER BY created_ms, endpoint",
        );
        let subs = with_pool!(self, p => {
            let rows = sqlx::query(&q).bind(match_id.to_string()).bind(i32::from(seat)).fetch_all(p).await?;
            rows.iter()
                .map(|r| {
                    Ok(PushSubscription {
                        endpoint: r.try_get("endpoint")?,
                        p256dh: r.try_get("p256dh")?,
                        auth: r.try_get("auth")?,
                    })
                })
                .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?
        });
        Ok(subs)
    }
}
