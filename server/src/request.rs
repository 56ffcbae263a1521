//! What every lobby route reads from a request the same way: a JSON body,
//! an id in the path, and the server's own options beside a game's.

use axum::{extract::rejection::JsonRejection, http::StatusCode, Json};
use serde_json::Value;
use uuid::Uuid;

use crate::{
    games::HostedGame,
    hub::Hub,
    refusal::{Code, Refusal},
};

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

/// What this server hosts beyond the rules: the option a game names as
/// capped ([`HostedGame::capped`]; the duel's summoning points) up to
/// `--max-summoning-points` (the duel's book allows any amount the players
/// agree on, L259-271, so this is the server's refusal, not the game's).
pub(crate) fn check_hosted(hub: &Hub, game: &dyn HostedGame, options: &Value) -> Result<(), Refusal> {
    let cap = hub.config.max_summoning_points;
    let Some(capped) = game.capped() else { return Ok(()) };
    match options.get(capped).and_then(Value::as_u64) {
        Some(points) if points > u64::from(cap) => Err(Refusal::new(
            Code::SummoningPointsOverCap,
            format!(
                "this server hosts {} matches of at most {cap} {} a player ({points} asked); \
                 the rules allow more when both players agree",
                game.name(),
                capped.replace('_', " "),
            ),
        )),
        _ => Ok(()),
    }
}
