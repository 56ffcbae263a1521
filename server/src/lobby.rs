//! The HTTP lobby: create, join, look up and list matches (campaigns are
//! in [`crate::campaign`]).

use std::sync::Arc;

use athlas_protocol::{
    CreateMatch, Created, JoinMatch, Joined, LogCommitment, LogRecord, MatchList, MatchLog, MatchSummary,
};
use axum::{
    extract::{rejection::JsonRejection, Path, Query, State},
    http::StatusCode,
    response::IntoResponse,
    routing::{get, post},
    Json, Router,
};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::{
    games::check_hosted,
    hub::Hub,
    limits::PeerIp,
    refusal::{Code, Refusal},
    request::{body, parse_id, split_options, Hosting},
    secret,
    store::{MatchRecord, MatchStatus, NewMatch, StoreError},
};

pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/matches", post(create_match).get(list_matches))
        .route("/api/matches/{match_id}", get(get_match))
        .route("/api/matches/{match_id}/log", get(match_log))
        .route("/api/join/{join_code}", post(join))
        .route("/api/games", get(list_games))
        .route("/api/games/{game}/catalogue/{name}", get(catalogue))
}

/// `GET /api/games`: the games this server hosts, with their rules
/// version, whether they have campaigns, and their catalogue's files.
async fn list_games(State(hub): State<Arc<Hub>>) -> Json<Value> {
    let games: Vec<Value> = hub
        .games
        .names()
        .filter_map(|name| hub.games.get(name))
        .map(|g| {
            json!({
                "game": g.name(),
                "rules_version": g.rules_version(),
                "campaign": g.campaign().is_some(),
                "catalogue": g.catalogue().iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            })
        })
        .collect();
    Json(json!({ "games": games }))
}

/// `GET /api/games/{game}/catalogue/{name}`: one of a game's reference
/// files (the duel's `cards`, `presets`, `board`), as the engine reads it.
async fn catalogue(
    State(hub): State<Arc<Hub>>,
    Path((game, name)): Path<(String, String)>,
) -> Result<impl IntoResponse, Refusal> {
    let g = hub
        .games
        .get(&game)
        .ok_or_else(|| Refusal::new(Code::NotFound, format!("this server does not host {game:?}")))?;
    let (_, text) = g
        .catalogue()
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| Refusal::new(Code::NotFound, format!("{game} has no catalogue file {name:?}")))?;
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "application/json"),
            // Content changes only with a new release.
            (axum::http::header::CACHE_CONTROL, "public, max-age=300"),
        ],
        *text,
    ))
}

/// Store a new match with its creator in seat 0; what the creator is told.
async fn new_match(hub: &Hub, game_name: &str, options: Value, hosting: Hosting) -> Result<Created, Refusal> {
    let game = hub
        .games
        .get(game_name)
        .ok_or_else(|| Refusal::new(Code::UnknownGame, format!("this server does not host {game_name:?}")))?;
    check_hosted(hub.config.max_summoning_points, game.as_ref(), &options)?;
    let seed = secret::new_seed();
    let started = game.check_options(&options, seed).map_err(|e| Refusal::new(Code::BadOptions, e))?;
    let seats = started.seats;
    let id = Uuid::new_v4();
    let token = secret::new_token();
    for _ in 0..5 {
        let join_code = secret::new_join_code();
        let m = NewMatch {
            id,
            game: game.name().to_owned(),
            options: options.clone(),
            seed,
            rules_version: game.rules_version(),
            join_code: join_code.clone(),
            live: hosting.live,
            private: hosting.private,
            seats: seats as u32,
            campaign_id: None,
            creator: Some((0, secret::token_hash(&token))),
            turn_timer_ms: hosting.turn_timer_ms,
            standing: Some(started.standing.clone()),
        };
        match hub.store.create_match(&m).await {
            Ok(()) => {
                tracing::info!(match_id = %id, game = game.name(), live = hosting.live, private = hosting.private, "match created");
                return Ok(Created { match_id: id.to_string(), seat: 0, token, join_code, campaign_id: None });
            }
            Err(StoreError::Conflict(_)) => continue, // join code taken: draw another
            Err(e) => return Err(e.into()),
        }
    }
    Err(StoreError::Conflict("no free join code".into()).into())
}

async fn create_match(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    req: Result<Json<CreateMatch>, JsonRejection>,
) -> Result<(StatusCode, Json<Created>), Refusal> {
    hub.peers.check_lobby(peer)?;
    let req = body(req)?;
    let name = crate::name::optional(req.name.as_deref())?;
    let (options, hosting) = split_options(req.options)?;
    let created = new_match(&hub, &req.game, options, hosting).await?;
    if let Some(name) = name {
        hub.store.name_seat(Uuid::parse_str(&created.match_id).expect("made here"), created.seat, &name).await?;
    }
    Ok((StatusCode::CREATED, Json(created)))
}

async fn join(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(join_code): Path<String>,
    req: axum::body::Bytes,
) -> Result<Json<Joined>, Refusal> {
    hub.peers.check_lobby(peer)?;
    hub.peers.check_guess(peer)?;
    // The body is optional: a join without one takes a seat with no name.
    let req: JoinMatch = if req.iter().all(u8::is_ascii_whitespace) {
        JoinMatch::default()
    } else {
        serde_json::from_slice(&req).map_err(|e| Refusal::new(Code::BadJson, e.to_string()))?
    };
    let name = crate::name::optional(req.name.as_deref())?;
    let token = secret::new_token();
    match hub.store.join(&join_code.to_uppercase(), &secret::token_hash(&token)).await {
        Ok((match_id, seat)) => {
            tracing::info!(%match_id, seat, "seat taken");
            if let Some(name) = name {
                hub.store.name_seat(match_id, seat, &name).await?;
            }
            Ok(Json(Joined { match_id: match_id.to_string(), seat, token }))
        }
        Err(StoreError::NotFound) => {
            hub.peers.wrong(peer);
            Err(Refusal::new(Code::NotFound, format!("no match with join code {join_code}")))
        }
        Err(StoreError::Full) => Err(Refusal::new(Code::MatchFull, "every seat of this match is taken")),
        Err(e) => Err(e.into()),
    }
}

fn summary(m: MatchRecord) -> MatchSummary {
    MatchSummary {
        match_id: m.id.to_string(),
        game: m.game,
        // A private match's id is given to spectators: it must not let them
        // take the free seat.
        join_code: (m.status == MatchStatus::Open && !m.private).then_some(m.join_code),
        status: m.status.to_string(),
        seats: m.seats,
        seats_taken: m.seats_taken,
        seq: m.seq,
        live: m.live,
        private: m.private,
        outcome: m.outcome,
        campaign_id: m.campaign_id.map(|c| c.to_string()),
    }
}

async fn get_match(State(hub): State<Arc<Hub>>, Path(match_id): Path<String>) -> Result<Json<MatchSummary>, Refusal> {
    let id = parse_id(&match_id, "match")?;
    let m = hub.store.get_match(id).await?.ok_or_else(|| Refusal::new(Code::NotFound, format!("no match {id}")))?;
    Ok(Json(summary(m)))
}

/// `GET /api/matches/{id}/log`: a finished match's options, seed, records
/// (with their state hashes) and commitments (with their salts), for
/// anyone to replay (`athlas verify`). Refused with `not_finished` before
/// the end: the seed and the creation actions are secrets until then.
async fn match_log(State(hub): State<Arc<Hub>>, Path(match_id): Path<String>) -> Result<Json<MatchLog>, Refusal> {
    let id = parse_id(&match_id, "match")?;
    let m = hub.store.get_match(id).await?.ok_or_else(|| Refusal::new(Code::NotFound, format!("no match {id}")))?;
    if m.status != MatchStatus::Finished {
        return Err(Refusal::new(
            Code::NotFinished,
            format!("match {id} is {}: its log is published once it has ended", m.status.as_str()),
        ));
    }
    let records = hub.store.actions_after(id, 0).await?;
    let hashes = hub.store.state_hashes(id).await?;
    let commitments = hub.store.commitments(id).await?;
    Ok(Json(MatchLog {
        match_id: id.to_string(),
        game: m.game,
        rules_version: m.rules_version,
        options: m.options,
        seed: m.seed,
        seats: m.seats,
        outcome: m.outcome,
        records: records
            .into_iter()
            .zip(hashes)
            .map(|(r, (_, state_hash))| LogRecord {
                seq: r.seq,
                seat: r.seat,
                kind: r.kind.as_str().to_owned(),
                action: r.action,
                sender: r.sender,
                state_hash,
            })
            .collect(),
        commitments: commitments
            .into_iter()
            .map(|c| LogCommitment { seat: c.seat, hash: c.hash, salt: c.salt, seq: c.seq })
            .collect(),
    }))
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list_matches(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<MatchList>, Refusal> {
    let Query(q) = query.map_err(|e| Refusal::new(Code::BadRequest, e.body_text()))?;
    let status = match q.status.as_deref() {
        None => MatchStatus::Open,
        Some(s) => s.parse().map_err(|_| Refusal::new(Code::BadRequest, "status is open, active or finished"))?,
    };
    let matches = hub.store.list_matches(status, 100).await?;
    Ok(Json(MatchList { matches: matches.into_iter().map(summary).collect() }))
}
