//! A seat on another device: a player asks for a one-time transfer code
//! with its seat token (`POST /api/matches/{id}/transfer`), opens
//! `/transfer/{code}` on the other browser, which redeems it
//! (`POST /api/transfer/{code}`) for a seat token of its own, of the same
//! seat. The code is 8 characters of the join codes' alphabet, valid
//! [`TRANSFER_TTL`], single use, and kept only as its hash; the link holds
//! the code, never a seat token, so a link seen in a history or a log
//! after it was used or expired gives nothing.
//!
//! The seat is copied, not moved: the first browser keeps playing too (as
//! two tabs of one browser do), and the new token is stored beside the
//! seat's own ([`crate::store::Store::seat_by_token`] knows both).
//! A campaign's seat is held by the campaign's token and is not
//! transferred here (`no_transfer`).

use std::{
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use athlas_protocol::{TransferOffer, Transferred};
use axum::{
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::post,
    Json, Router,
};

use crate::{
    campaign::bearer,
    hub::Hub,
    limits::PeerIp,
    refusal::{Code, Refusal},
    request::parse_id,
    secret,
    store::{StoreError, TransferRefused},
};

/// How long a transfer code may be redeemed.
pub const TRANSFER_TTL: Duration = Duration::from_secs(10 * 60);

pub fn router() -> Router<Arc<Hub>> {
    Router::new().route("/api/matches/{match_id}/transfer", post(offer)).route("/api/transfer/{code}", post(redeem))
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// `POST /api/matches/{id}/transfer` with the seat token as bearer: a new
/// transfer code of that seat.
async fn offer(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    headers: HeaderMap,
    Path(match_id): Path<String>,
) -> Result<(StatusCode, Json<TransferOffer>), Refusal> {
    let id = parse_id(&match_id, "match")?;
    let token = bearer(&headers)
        .ok_or_else(|| Refusal::new(Code::NoToken, "send your seat token as Authorization: Bearer <token>"))?;
    hub.peers.check_guess(peer)?;
    let refused = || Refusal::new(Code::BadToken, format!("not a seat token of match {id}"));
    let seat = match hub.store.seat_by_token(&secret::token_hash(token)).await {
        Ok(Some((m, seat))) if m == id => seat,
        Ok(None) => {
            hub.peers.wrong(peer);
            return Err(refused());
        }
        Ok(Some(_)) | Err(StoreError::NotStarted) => return Err(refused()),
        Err(e) => return Err(e.into()),
    };
    let m = hub.store.get_match(id).await?.ok_or_else(|| Refusal::new(Code::NotFound, format!("no match {id}")))?;
    if m.campaign_id.is_some() {
        return Err(Refusal::new(
            Code::NoTransfer,
            "a campaign's seat goes with the campaign's link: open it on the other device",
        ));
    }
    let expires_at = now_ms() + TRANSFER_TTL.as_millis() as u64;
    for _ in 0..5 {
        let code = secret::new_join_code();
        match hub.store.add_transfer(&secret::token_hash(&code), id, seat, expires_at).await {
            Ok(()) => {
                tracing::info!(match_id = %id, seat, "transfer code made");
                let path = format!("/transfer/{code}");
                return Ok((StatusCode::CREATED, Json(TransferOffer { code, path, expires_at })));
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(StoreError::Conflict("no free transfer code".into()).into())
}

/// `POST /api/transfer/{code}`: the seat behind a transfer code, with a
/// new token of it; `transfer_used` the second time, `transfer_expired`
/// after [`TRANSFER_TTL`]. An unknown code counts as a wrong guess.
async fn redeem(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(code): Path<String>,
) -> Result<Json<Transferred>, Refusal> {
    hub.peers.check_lobby(peer)?;
    hub.peers.check_guess(peer)?;
    let token = secret::new_token();
    let code_hash = secret::token_hash(&code.trim().to_uppercase());
    match hub.store.redeem_transfer(&code_hash, &secret::token_hash(&token), now_ms()).await {
        Ok(Ok(t)) => {
            let m =
                hub.store.get_match(t.match_id).await?.ok_or_else(|| Refusal::new(Code::NotFound, "no such match"))?;
            tracing::info!(match_id = %t.match_id, seat = t.seat, "seat transferred");
            Ok(Json(Transferred { match_id: t.match_id.to_string(), game: m.game, seat: t.seat, token }))
        }
        Ok(Err(TransferRefused::Used)) => Err(Refusal::new(
            Code::TransferUsed,
            "this transfer code was already used: ask for a new one on the device that holds the seat",
        )),
        Ok(Err(TransferRefused::Expired)) => Err(Refusal::new(
            Code::TransferExpired,
            "this transfer code is older than 10 minutes: ask for a new one on the device that holds the seat",
        )),
        Err(StoreError::NotFound) => {
            hub.peers.wrong(peer);
            Err(Refusal::new(Code::NotFound, format!("no transfer code {code}")))
        }
        Err(e) => Err(e.into()),
    }
}
