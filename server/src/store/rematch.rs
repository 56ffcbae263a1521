//! Rematches: one seat of a finished match offers, the other accepts, and
//! the rematch is stored with both its seats taken in the transaction that
//! marks the offer accepted, so a finished match has at most one rematch
//! however many answers race.

use serde_json::Value;
use sqlx::Row;
use uuid::Uuid;

use super::{is_unique_violation, parse_uuid, Backend, MatchStatus, NewMatch, Result, Store, StoreError};

/// A finished match's rematch as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rematch {
    pub offered_by: u8,
    /// The rematch, once the other seat accepted.
    pub new_match: Option<Uuid>,
}

impl Store {
    /// The rematch offered of `match_id`, if any.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rematch(&self, match_id: Uuid) -> Result<Option<Rematch>> {
        let q = self.sql("SELECT offered_by, new_match::text AS new_match FROM rematches WHERE match_id = $1::uuid");
        let row = with_pool!(self, p => {
            match sqlx::query(&q).bind(match_id.to_string()).fetch_optional(p).await? {
                Some(r) => Some((r.try_get::<i32, _>("offered_by")?, r.try_get::<Option<String>, _>("new_match")?)),
                None => None,
            }
        });
        row.map(|(seat, new_match)| {
            Ok(Rematch { offered_by: seat as u8, new_match: new_match.as_deref().map(parse_uuid).transpose()? })
        })
        .transpose()
    }

    /// Store `seat`'s offer of a rematch of `match_id`, whose seat token in
    /// the rematch hashes to `token_hash`. The same seat offering again
    /// replaces its token (a page that lost it asks again).
    ///
    /// # Errors
    /// Database errors. `Ok(false)`: the other seat's offer, or the
    /// rematch itself, is already there; nothing was changed.
    pub async fn offer_rematch(&self, match_id: Uuid, seat: u8, token_hash: &str) -> Result<bool> {
        let q = self.sql(
            "INSERT INTO rematches (match_id, offered_by, token_hash) VALUES ($1::uuid, $2, $3) \
             ON CONFLICT (match_id) DO UPDATE SET token_hash = excluded.token_hash \
             WHERE rematches.offered_by = excluded.offered_by AND rematches.new_match IS NULL",
        );
        let r: std::result::Result<u64, sqlx::Error> = with_write_tx!(self, tx => async {
            let n = sqlx::query(&q)
                .bind(match_id.to_string())
                .bind(i32::from(seat))
                .bind(token_hash)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            tx.commit().await?;
            Ok(n)
        });
        Ok(r? == 1)
    }

    /// Accept seat `offered_by`'s offer of a rematch of `of`: store `m`,
    /// active, with the offering player in seat `offerer_seat` (by the
    /// token it was given when it offered) and the accepting one in
    /// `accepter.0` (its token's hash `accepter.1`), and mark the offer
    /// accepted, all in one transaction.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when `m`'s join code is taken (draw another);
    /// database errors. `Ok(false)`: no such offer is open any more (it
    /// was accepted meanwhile); nothing was stored.
    pub async fn accept_rematch(
        &self,
        of: Uuid,
        offered_by: u8,
        m: &NewMatch,
        offerer_seat: u8,
        accepter: (u8, &str),
    ) -> Result<bool> {
        let q_offer = self.sql(
            "SELECT token_hash FROM rematches WHERE match_id = $1::uuid AND offered_by = $2 AND new_match IS NULL",
        );
        let q_match = self.sql(
            "INSERT INTO matches (id, game, options, seed, rules_version, status, join_code, live, seats, campaign_id, \
             private, turn_timer_ms, standing) \
             VALUES ($1::uuid, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, NULL, $10, $11, $12::jsonb)",
        );
        let q_seat = self.sql("INSERT INTO seats (match_id, seat, token_hash) VALUES ($1::uuid, $2, $3)");
        // `new_match IS NULL` again: on Postgres a rival that committed
        // since the read above leaves this update nothing to change.
        let q_accept = self.sql(
            "UPDATE rematches SET new_match = $2::uuid WHERE match_id = $1::uuid AND offered_by = $3 \
             AND new_match IS NULL",
        );
        let r: std::result::Result<bool, sqlx::Error> = with_write_tx!(self, tx => async {
            let Some(row) = sqlx::query(&q_offer)
                .bind(of.to_string())
                .bind(i32::from(offered_by))
                .fetch_optional(&mut *tx)
                .await?
            else {
                return Ok(false);
            };
            let offerer_hash: String = row.try_get("token_hash")?;
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
                .bind(m.private)
                .bind(m.turn_timer_ms.map(|t| t as i64))
                .bind(m.standing.as_ref().map(Value::to_string))
                .execute(&mut *tx)
                .await?;
            for (seat, hash) in [(offerer_seat, offerer_hash.as_str()), accepter] {
                sqlx::query(&q_seat).bind(m.id.to_string()).bind(i32::from(seat)).bind(hash).execute(&mut *tx).await?;
            }
            let accepted = sqlx::query(&q_accept)
                .bind(of.to_string())
                .bind(m.id.to_string())
                .bind(i32::from(offered_by))
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if accepted != 1 {
                // Dropped unfinished: rolled back.
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        });
        match r {
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(e.to_string())),
            r => Ok(r?),
        }
    }
}
