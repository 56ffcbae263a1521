//! Table talk: a match's chat lines by channel (the party's, the
//! spectators'), kept with the match and numbered within it. A room is the
//! only writer of its match's lines, so the next number is read in the
//! same transaction as the insert.

use sqlx::Row;
use uuid::Uuid;

use super::{Backend, Result, Store};

/// One stored chat line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    pub n: u64,
    /// `party` or `spectators`.
    pub channel: String,
    pub seat: Option<u8>,
    pub text: String,
    pub at_ms: u64,
}

impl Store {
    /// Store a line of `match_id`'s chat; the line as stored, numbered.
    ///
    /// # Errors
    /// Database errors.
    pub async fn add_chat(
        &self,
        match_id: Uuid,
        channel: &str,
        seat: Option<u8>,
        text: &str,
        at_ms: u64,
    ) -> Result<ChatLine> {
        let next = self.sql("SELECT COALESCE(MAX(n), 0) + 1 FROM chat WHERE match_id = $1::uuid");
        let insert = self
            .sql("INSERT INTO chat (match_id, n, channel, seat, text, at_ms) VALUES ($1::uuid, $2, $3, $4, $5, $6)");
        let n: i64 = with_write_tx!(self, tx => async {
            let n: i64 = sqlx::query_scalar(&next).bind(match_id.to_string()).fetch_one(&mut *tx).await?;
            sqlx::query(&insert)
                .bind(match_id.to_string())
                .bind(n)
                .bind(channel)
                .bind(seat.map(i32::from))
                .bind(text)
                .bind(at_ms as i64)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok::<i64, sqlx::Error>(n)
        })?;
        Ok(ChatLine { n: n as u64, channel: channel.to_owned(), seat, text: text.to_owned(), at_ms })
    }

    /// The latest `limit` lines of `match_id`'s `channel`, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn chat(&self, match_id: Uuid, channel: &str, limit: u32) -> Result<Vec<ChatLine>> {
        let q = self.sql(
            "SELECT n, seat, text, at_ms FROM chat WHERE match_id = $1::uuid AND channel = $2 ORDER BY n DESC LIMIT $3",
        );
        let mut lines: Vec<ChatLine> = with_pool!(self, p => {
            let rows = sqlx::query(&q)
                .bind(match_id.to_string())
                .bind(channel)
                .bind(i64::from(limit))
                .fetch_all(p)
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(ChatLine {
                        n: r.try_get::<i64, _>("n")? as u64,
                        channel: channel.to_owned(),
                        seat: r.try_get::<Option<i32>, _>("seat")?.map(|s| s as u8),
                        text: r.try_get("text")?,
                        at_ms: r.try_get::<i64, _>("at_ms")? as u64,
                    })
                })
                .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?
        });
        lines.reverse();
        Ok(lines)
    }
}
