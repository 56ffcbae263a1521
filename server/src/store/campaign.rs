//! Campaigns and their seats: a campaign's saved value and current match,
//! written only by one versioned compare-and-set (`write_campaign!`), and
//! its seat tokens, valid for every match of the campaign. Starting the
//! next match and making it current is one transaction.

use serde_json::Value;
use sqlx::Row;
use uuid::Uuid;

use super::{
    is_unique_violation, parse_json, parse_uuid, Backend, MatchRecord, MatchStatus, NewMatch, Result, SeatTables,
    Selection, Store, StoreError,
};

/// The one writer of a campaign row's state (`saved`, `current_match`):
/// inside a `with_write_tx!` body, in transaction `$tx`, a compare-and-set on
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
    /// Milliseconds a seat has for a timed decision in each of its matches.
    pub turn_timer_ms: Option<u64>,
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
    /// As [`NewCampaign::turn_timer_ms`].
    pub turn_timer_ms: Option<u64>,
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

impl Store {
    /// Store a new campaign and its host's seat (seat 0).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the id or join code already exists.
    pub async fn create_campaign(&self, c: &NewCampaign) -> Result<()> {
        let q1 = self.sql(
            "INSERT INTO campaigns (id, game, rules_version, seats, join_code, saved, live, private, turn_timer_ms) \
             VALUES ($1::uuid, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)",
        );
        let q2 = self.sql("INSERT INTO campaign_seats (campaign_id, seat, token_hash) VALUES ($1::uuid, 0, $2)");
        let r: std::result::Result<(), sqlx::Error> = with_write_tx!(self, tx => async {
            sqlx::query(&q1).bind(c.id.to_string()).bind(&c.game).bind(c.rules_version as i32).bind(c.seats as i32)
                .bind(&c.join_code).bind(c.saved.to_string()).bind(c.live).bind(c.private).bind(c.turn_timer_ms.map(|t| t as i64)).execute(&mut *tx).await?;
            sqlx::query(&q2).bind(c.id.to_string()).bind(&c.host).execute(&mut *tx).await?;
            tx.commit().await
        });
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
        self.claim_seat(&CAMPAIGN_SEATS, join_code, token_hash).await
    }

    /// One campaign.
    ///
    /// # Errors
    /// Database errors only; an unknown id is `Ok(None)`.
    pub async fn campaign(&self, id: Uuid) -> Result<Option<CampaignRecord>> {
        let q = self
            .sql(
                "SELECT c.game, c.rules_version, c.seats, c.join_code, c.saved::text AS saved, c.version, \
             c.current_match::text AS current_match, c.live, c.private, c.turn_timer_ms, \
             (SELECT string_agg(s.seat::text, ',') FROM campaign_seats s WHERE s.campaign_id = c.id) AS taken \
             FROM campaigns c WHERE c.id = $1::uuid",
            )
            .into_owned();
        let q =
            if matches!(self.backend, Backend::Sqlite { .. }) { q.replace("string_agg(", "group_concat(") } else { q };
        let row = with_pool!(self, p => match sqlx::query(&q).bind(id.to_string()).fetch_optional(p).await? {
            Some(r) => Some((
                r.try_get::<String, _>("game")?,
                (r.try_get::<i32, _>("rules_version")?, r.try_get::<i32, _>("seats")?),
                r.try_get::<String, _>("join_code")?,
                (r.try_get::<String, _>("saved")?, r.try_get::<i64, _>("version")?),
                r.try_get::<Option<String>, _>("current_match")?,
                (r.try_get::<bool, _>("live")?, r.try_get::<bool, _>("private")?),
                (r.try_get::<Option<String>, _>("taken")?, r.try_get::<Option<i64>, _>("turn_timer_ms")?),
            )),
            None => None,
        });
        let Some((game, (rules_version, seats), join_code, (saved, version), current, (live, private), (taken, timer))) =
            row
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
            turn_timer_ms: timer.map(|t| t as u64),
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
             campaign_id, private, ordinal, turn_timer_ms, standing) \
             VALUES ($1::uuid, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10::uuid, $11, $12, $13, $14::jsonb)",
        );
        let r: std::result::Result<bool, sqlx::Error> = with_write_tx!(self, tx => async {
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
                    .bind(m.turn_timer_ms.map(|t| t as i64))
                    .bind(m.standing.as_ref().map(Value::to_string))
                    .execute(&mut *tx)
                    .await?;
            }
            if !write_campaign!(self, tx, u.id, u.version, u.saved.as_ref(), u.start.as_ref().map(|m| m.id)) {
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        });
        match r {
            Ok(true) => Ok(()),
            Ok(false) => Err(StoreError::Stale),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(e.to_string())),
            Err(e) => Err(e.into()),
        }
    }
}

/// A campaign's seats, valid for every match of the campaign.
const CAMPAIGN_SEATS: SeatTables = SeatTables {
    owner: "SELECT id::text AS id, seats FROM campaigns WHERE join_code = $1",
    seats: "SELECT seat FROM campaign_seats WHERE campaign_id = $1::uuid",
    insert: "INSERT INTO campaign_seats (campaign_id, seat, token_hash) VALUES ($1::uuid, $2, $3)",
    when_full: None,
};
