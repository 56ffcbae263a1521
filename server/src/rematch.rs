//! Rematch: either player of a finished two-seat match offers, the other
//! accepts, and a new match starts with the same options and the seats
//! swapped (whoever sat in seat 1 now sits in seat 0, and the other way
//! round; with the first player fixed by the options, the other player now
//! moves first).
//!
//! Over HTTP with the seat token as `Authorization: Bearer`, not as a
//! frame to the room: a finished match's room may be unloaded or held by
//! another node of a cluster, and the store decides the race between two
//! answers in one transaction. The offering player is given its token in
//! the rematch with the answer to its offer (only its hash is stored), and
//! learns the rematch's id from `GET /api/matches/{id}/rematch`, which its
//! page asks every few seconds while the offer is open.

use std::sync::Arc;

use athlas_engine::Seat;
use athlas_protocol::{RematchSeat, RematchStatus};
use axum::{
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::post,
    Json, Router,
};
use uuid::Uuid;

use crate::{
    campaign::bearer,
    hub::Hub,
    limits::PeerIp,
    refusal::{Code, Refusal},
    request::parse_id,
    secret,
    store::{MatchRecord, MatchStatus, NewMatch, StoreError},
};

pub fn router() -> Router<Arc<Hub>> {
    Router::new().route("/api/matches/{match_id}/rematch", post(offer_or_accept).get(status))
}

/// The seat of match `id` the request's bearer token holds.
async fn seat_of(hub: &Hub, peer: PeerIp, headers: &HeaderMap, id: Uuid) -> Result<Seat, Refusal> {
    let token = bearer(headers)
        .ok_or_else(|| Refusal::new(Code::NoToken, "send your seat token as Authorization: Bearer <token>"))?;
    hub.peers.check_guess(peer)?;
    match hub.store.seat_by_token(&secret::token_hash(token)).await {
        Ok(Some((m, seat))) if m == id => Ok(seat),
        Ok(found) => {
            if found.is_none() {
                hub.peers.wrong(peer);
            }
            Err(Refusal::new(Code::BadToken, format!("not a seat token of match {id}: only its players rematch")))
        }
        // A campaign's token whose campaign has no match: not this one's.
        Err(StoreError::NotStarted) => {
            Err(Refusal::new(Code::BadToken, format!("not a seat token of match {id}: only its players rematch")))
        }
        Err(e) => Err(e.into()),
    }
}

/// The finished two-seat match `id`, which may have a rematch.
async fn rematchable(hub: &Hub, id: Uuid) -> Result<MatchRecord, Refusal> {
    let m = hub.store.get_match(id).await?.ok_or_else(|| Refusal::new(Code::NotFound, format!("no match {id}")))?;
    if m.status != MatchStatus::Finished {
        return Err(Refusal::new(
            Code::NotFinished,
            format!("match {id} is {}: a rematch is offered once it has ended", m.status.as_str()),
        ));
    }
    if m.campaign_id.is_some() || m.seats != 2 {
        return Err(Refusal::new(
            Code::NoRematch,
            if m.campaign_id.is_some() {
                "a campaign's match has no rematch: the campaign goes on with its next match".into()
            } else {
                format!("only a two-seat match has a rematch; this one has {} seats", m.seats)
            },
        ));
    }
    Ok(m)
}

fn already(id: Uuid, new_match: Uuid) -> Refusal {
    Refusal::new(Code::AlreadyRematched, format!("match {id} already has its rematch, {new_match}"))
}

/// `POST /api/matches/{id}/rematch` (bearer): offer a rematch, or accept
/// the other seat's offer. `202` with the offering seat's token in the
/// rematch; `201` with the rematch's id and the accepting seat's token.
async fn offer_or_accept(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    headers: HeaderMap,
    Path(match_id): Path<String>,
) -> Result<(StatusCode, Json<RematchSeat>), Refusal> {
    hub.peers.check_lobby(peer)?;
    let id = parse_id(&match_id, "match")?;
    let seat = seat_of(&hub, peer, &headers, id).await?;
    let m = rematchable(&hub, id).await?;
    let swapped = 1 - seat;
    let token = secret::new_token();
    let hash = secret::token_hash(&token);
    // Twice at most: an offer of the other seat that arrived while this
    // one was being stored turns this offer into an acceptance.
    for _ in 0..2 {
        match hub.store.rematch(id).await? {
            Some(r) if r.new_match.is_some() => return Err(already(id, r.new_match.expect("checked"))),
            Some(r) if r.offered_by != seat => {
                let new_id = accept(&hub, &m, r.offered_by, (swapped, &hash)).await?;
                tracing::info!(match_id = %id, rematch = %new_id, "rematch accepted");
                let seat =
                    RematchSeat { status: "accepted".into(), match_id: Some(new_id.to_string()), seat: swapped, token };
                return Ok((StatusCode::CREATED, Json(seat)));
            }
            _ => {
                if hub.store.offer_rematch(id, seat, &hash).await? {
                    tracing::info!(match_id = %id, seat, "rematch offered");
                    let seat = RematchSeat { status: "offered".into(), match_id: None, seat: swapped, token };
                    return Ok((StatusCode::ACCEPTED, Json(seat)));
                }
            }
        }
    }
    Err(Refusal::new(Code::AlreadyRematched, format!("match {id}'s rematch changed meanwhile: ask again")))
}

/// Store the rematch of `m` that seat `offered_by` offered, with the
/// accepting seat's new seat and token hash; its id.
async fn accept(hub: &Hub, m: &MatchRecord, offered_by: Seat, accepter: (Seat, &str)) -> Result<Uuid, Refusal> {
    let game = hub
        .games
        .get(&m.game)
        .ok_or_else(|| Refusal::new(Code::UnknownGame, format!("this server does not host {:?}", m.game)))?;
    let seed = secret::new_seed();
    // The options were accepted once; a new build may refuse them.
    let started = game.check_options(&m.options, seed).map_err(|e| Refusal::new(Code::BadOptions, e))?;
    let id = Uuid::new_v4();
    for _ in 0..5 {
        let new = NewMatch {
            id,
            game: m.game.clone(),
            options: m.options.clone(),
            seed,
            rules_version: game.rules_version(),
            join_code: secret::new_join_code(),
            live: m.live,
            private: m.private,
            seats: m.seats,
            campaign_id: None,
            creator: None,
            turn_timer_ms: m.turn_timer_ms,
            standing: Some(started.standing.clone()),
        };
        match hub.store.accept_rematch(m.id, offered_by, &new, 1 - offered_by, accepter).await {
            Ok(true) => return Ok(id),
            Ok(false) => {
                let now = hub.store.rematch(m.id).await?;
                return Err(match now.and_then(|r| r.new_match) {
                    Some(n) => already(m.id, n),
                    None => Refusal::new(Code::AlreadyRematched, "the offer changed meanwhile: ask again"),
                });
            }
            Err(StoreError::Conflict(_)) => continue, // join code taken: draw another
            Err(e) => return Err(e.into()),
        }
    }
    Err(StoreError::Conflict("no free join code".into()).into())
}

/// `GET /api/matches/{id}/rematch`: whether a rematch was offered, and
/// which match it became. Public, like the match's summary.
async fn status(State(hub): State<Arc<Hub>>, Path(match_id): Path<String>) -> Result<Json<RematchStatus>, Refusal> {
    let id = parse_id(&match_id, "match")?;
    hub.store.get_match(id).await?.ok_or_else(|| Refusal::new(Code::NotFound, format!("no match {id}")))?;
    let r = hub.store.rematch(id).await?;
    Ok(Json(RematchStatus {
        offered_by: r.as_ref().map(|r| r.offered_by),
        match_id: r.and_then(|r| r.new_match).map(|n| n.to_string()),
    }))
}
