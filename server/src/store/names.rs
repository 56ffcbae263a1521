//! Players' names and seats carried to another device: a seat's display
//! name (fixed once set), the one-time transfer codes that bring a seat to
//! another browser, and the extra seat tokens they mint. All kept apart
//! from the match's record and log, so no state hash or replay sees them.

use sqlx::Row;
use uuid::Uuid;

use super::{Backend, Result, Store, StoreError};

/// A redeemed transfer code: the seat it brings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    pub match_id: Uuid,
    pub seat: u8,
}

impl Store {
    /// Name `seat` of `match_id` `name`, unless it has a name already: a
    /// name is fixed once set (the log's lines say it). `Ok(false)`: it had
    /// one; nothing changed.
    ///
    /// # Errors
    /// Database errors.
    pub async fn name_seat(&self, match_id: Uuid, seat: u8, name: &str) -> Result<bool> {
        let q = self.sql(
            "INSERT INTO seat_names (match_id, seat, name) VALUES ($1::uuid, $2, $3) \
             ON CONFLICT (match_id, seat) DO NOTHING",
        );
        let n = with_write_tx!(self, tx => async {
            let n = sqlx::query(&q)
                .bind(match_id.to_string())
                .bind(i32::from(seat))
                .bind(name)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            Ok::<u64, sqlx::Error>(n)
        })?;
        Ok(n == 1)
    }

    /// The names of `match_id`'s `seats` seats, `None` where a seat has none.
    ///
    /// # Errors
    /// Database errors.
    pub async fn seat_names(&self, match_id: Uuid, seats: u32) -> Result<Vec<Option<String>>> {
        let q = self.sql("SELECT seat, name FROM seat_names WHERE match_id = $1::uuid");
        let rows: Vec<(i32, String)> = with_pool!(self, p => {
            sqlx::query(&q)
                .bind(match_id.to_string())
                .fetch_all(p)
                .await?
                .iter()
                .map(|r| Ok((r.try_get("seat")?, r.try_get("name")?)))
                .collect::<std::result::Result<_, sqlx::Error>>()?
        });
        let mut names = vec![None; seats as usize];
        for (seat, name) in rows {
            if let Some(n) = names.get_mut(seat as usize) {
                *n = Some(name);
            }
        }
        Ok(names)
    }

    /// Keep a transfer code of `seat` of `match_id` by its hash, valid
    /// until `expires_ms`.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the code's hash is taken (draw
    /// another); database errors.
    pub async fn add_transfer(&self, code_hash: &str, match_id: Uuid, seat: u8, expires_ms: u64) -> Result<()> {
        let q = self
            .sql("INSERT INTO seat_transfers (code_hash, match_id, seat, expires_ms) VALUES ($1, $2::uuid, $3, $4)");
        let r: std::result::Result<(), sqlx::Error> = with_write_tx!(self, tx => async {
            sqlx::query(&q)
                .bind(code_hash)
                .bind(match_id.to_string())
                .bind(i32::from(seat))
                .bind(expires_ms as i64)
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        });
        match r {
            Err(e) if super::is_unique_violation(&e) => Err(StoreError::Conflict(e.to_string())),
            r => Ok(r?),
        }
    }

    /// Redeem the transfer code hashing to `code_hash` at `now_ms`: mark it
    /// used and give its seat the token hashing to `token_hash`, in one
    /// transaction, so two browsers racing for one code get one seat.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown code, [`TransferRefused`]
    /// (as `Ok(Err(_))`) for a used or expired one; database errors.
    pub async fn redeem_transfer(
        &self,
        code_hash: &str,
        token_hash: &str,
        now_ms: u64,
    ) -> Result<std::result::Result<Transfer, TransferRefused>> {
        let find = self
            .sql("SELECT match_id::text AS match_id, seat, expires_ms, used FROM seat_transfers WHERE code_hash = $1");
        let take = self.sql("UPDATE seat_transfers SET used = TRUE WHERE code_hash = $1 AND used = FALSE");
        let add = self.sql("INSERT INTO seat_tokens (token_hash, match_id, seat) VALUES ($1, $2::uuid, $3)");
        let r: Option<std::result::Result<(String, i32), TransferRefused>> = with_write_tx!(self, tx => async {
            let Some(row) = sqlx::query(&find).bind(code_hash).fetch_optional(&mut *tx).await? else {
                return Ok(None);
            };
            let (id, seat): (String, i32) = (row.try_get("match_id")?, row.try_get("seat")?);
            if row.try_get::<bool, _>("used")? {
                return Ok(Some(Err(TransferRefused::Used)));
            }
            if row.try_get::<i64, _>("expires_ms")? as u64 <= now_ms {
                return Ok(Some(Err(TransferRefused::Expired)));
            }
            if sqlx::query(&take).bind(code_hash).execute(&mut *tx).await?.rows_affected() != 1 {
                return Ok(Some(Err(TransferRefused::Used)));
            }
            sqlx::query(&add).bind(token_hash).bind(&id).bind(seat).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(Ok((id, seat))))
        })?;
        match r {
            None => Err(StoreError::NotFound),
            Some(Err(refused)) => Ok(Err(refused)),
            Some(Ok((id, seat))) => Ok(Ok(Transfer { match_id: super::parse_uuid(&id)?, seat: seat as u8 })),
        }
    }
}

/// Why a known transfer code is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferRefused {
    Used,
    Expired,
}
