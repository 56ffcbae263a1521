//! What every lobby route reads from a request the same way: a JSON body,
//! an id in the path, and the server's own options beside a game's.

use axum::{extract::rejection::JsonRejection, http::StatusCode, Json};
use serde_json::Value;
use uuid::Uuid;

use crate::refusal::{Code, Refusal};

pub(crate) fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, Refusal> {
    body.map(|Json(t)| t).map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Refusal::new(Code::TooLarge, format!("request bodies are limited to {} bytes", crate::MAX_BODY_BYTES))
        } else {
            Refusal::new(Code::BadJson, e.body_text())
        }
    })
}

pub(crate) fn parse_id(id: &str, what: &str) -> Result<Uuid, Refusal> {
    Uuid::parse_str(id).map_err(|_| Refusal::new(Code::NotFound, format!("no {what} {id}")))
}

/// The server's own options, next to the game's.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Hosting {
    /// Timed response windows.
    pub live: bool,
    /// Not listed by `GET /api/matches`; joined by code, watched by id.
    pub private: bool,
    /// `turn_timer_ms`: milliseconds a seat has for a timed decision, live
    /// or not (a campaign's turn timer; a match may set one too).
    pub turn_timer_ms: Option<u64>,
}

/// The shortest and longest turn timer accepted: under 100 ms no client can
/// answer; over a day it is a correspondence game, which has none.
const TURN_TIMER_MS: std::ops::RangeInclusive<u64> = 100..=86_400_000;

/// Split the server's own options (`live`, `private`) from the game's.
pub(crate) fn split_options(options: Value) -> Result<(Value, Hosting), Refusal> {
    let mut options = match options {
        Value::Null => serde_json::Map::new(),
        Value::Object(m) => m,
        _ => return Err(Refusal::new(Code::BadOptions, "options must be a JSON object")),
    };
    let mut flag = |name: &str| match options.remove(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(b),
        Some(_) => Err(Refusal::new(Code::BadOptions, format!("{name} must be true or false"))),
    };
    let (live, private) = (flag("live")?, flag("private")?);
    let turn_timer_ms = match options.remove("turn_timer_ms") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().filter(|ms| TURN_TIMER_MS.contains(ms)).ok_or_else(|| {
            Refusal::new(
                Code::BadOptions,
                format!("turn_timer_ms must be {} to {} milliseconds", TURN_TIMER_MS.start(), TURN_TIMER_MS.end()),
            )
        })?),
    };
    let hosting = Hosting { live, private, turn_timer_ms };
    Ok((Value::Object(options), hosting))
}
