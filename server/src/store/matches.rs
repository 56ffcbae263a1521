//! Matches and their seats: a match as the lobby creates it, where it
//! stands, a seat taken by join code or found by token.

use std::str::FromStr;

use serde_json::Value;
use sqlx::{encode::IsNull, error::BoxDynError, Database, Row};
use uuid::Uuid;

use super::{is_unique_violation, parse_json, parse_uuid, Backend, Result, Store, StoreError};

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
pub(super) enum Selection {
    /// One match, by id.
    Id(Uuid),
    /// The listed (not private) matches with this status.
    Listed(MatchStatus),
    /// The matches of a campaign, in order.
    Campaign(Uuid),
    /// Every match, private and campaign ones included (the audit).
    All,
}

impl Store {
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

    pub(super) async fn matches(&self, selection: Selection, limit: u32) -> Result<Vec<MatchRecord>> {
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
pub(super) const MATCH_SEATS: SeatTables = SeatTables {
    owner: "SELECT id::text AS id, seats FROM matches WHERE join_code = $1 AND campaign_id IS NULL",
    seats: "SELECT seat FROM seats WHERE match_id = $1::uuid ORDER BY seat",
    insert: "INSERT INTO seats (match_id, seat, token_hash) VALUES ($1::uuid, $2, $3)",
    when_full: Some("UPDATE matches SET status = $2 WHERE id = $1::uuid AND status = $3"),
};
