//! Campaigns over HTTP: create, join, choose, start the next match, look up
//! and list. A campaign is a stored record of its own (store: `campaigns`,
//! `campaign_seats`); its matches are ordinary matches with an ordinal. The
//! game decides everything between matches through its
//! [`CampaignRules`]; this module reads the stored state, asks the game and
//! writes the result in one transaction that fails if anyone wrote the
//! campaign in between.
//!
//! A campaign seat token is valid for every match of the campaign (a WS
//! `hello` with it lands in the current match) and travels only in
//! `Authorization: Bearer`, never in a URL, which gets logged and shared.

use std::sync::Arc;

use athlas_engine::{campaign::Step, Seat};
use athlas_protocol::{
    CampaignChoice, CampaignMatch, CampaignSeat, CampaignSeatStatus, CampaignStatus, CreateCampaign, MyCampaigns,
    NextMatch,
};
use axum::{
    extract::{rejection::JsonRejection, Path, State},
    http::{header::AUTHORIZATION, HeaderMap, StatusCode},
    routing::{get, post},
    Json, Router,
};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::{
    games::{CampaignError, CampaignRules, HostedGame},
    hub::Hub,
    limits::PeerIp,
    refusal::{Code, Refusal},
    request::{body, parse_id, split_options},
    secret,
    store::{CampaignRecord, CampaignUpdate, MatchRecord, MatchStatus, NewCampaign, NewMatch, RecordKind, StoreError},
    table::Hand,
};

/// At most this many tokens in one `POST /api/campaigns/mine`.
const MAX_TOKENS: usize = 100;

pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/campaigns", post(create))
        .route("/api/campaigns/mine", post(mine))
        .route("/api/campaigns/join/{join_code}", post(join))
        .route("/api/campaigns/{campaign_id}", get(status))
        .route("/api/campaigns/{campaign_id}/choose", post(choose))
        .route("/api/campaigns/{campaign_id}/next", post(next))
}

/// The bearer token of a request, if it has one.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(str::trim).filter(|t| !t.is_empty())
}

/// The seat of campaign `id` the request's bearer token holds.
/// A token that holds no seat at all counts as a wrong guess of `peer`.
async fn seat_of(hub: &Hub, peer: PeerIp, headers: &HeaderMap, id: Uuid) -> Result<Seat, Refusal> {
    let token = bearer(headers)
        .ok_or_else(|| Refusal::new(Code::NoToken, "send the seat token as Authorization: Bearer <token>"))?;
    hub.peers.check_guess(peer)?;
    match hub.store.campaign_seat(&secret::token_hash(token)).await? {
        Some((campaign, seat)) if campaign == id => Ok(seat),
        found => {
            if found.is_none() {
                hub.peers.wrong(peer);
            }
            Err(Refusal::new(Code::BadToken, "not a seat token of this campaign"))
        }
    }
}

/// A campaign with its game and matches.
struct Loaded {
    record: CampaignRecord,
    game: Arc<dyn HostedGame>,
    matches: Vec<MatchRecord>,
}

impl Loaded {
    fn rules(&self) -> &dyn CampaignRules {
        self.game.campaign().expect("a stored campaign's game has campaigns (checked on load)")
    }

    /// The current match while it is being played.
    fn playing(&self) -> Option<&MatchRecord> {
        let current = self.record.current_match?;
        self.matches.iter().find(|m| m.id == current && m.status != MatchStatus::Finished)
    }

    fn refuse_while_playing(&self) -> Result<(), Refusal> {
        match self.playing() {
            Some(m) => {
                Err(Refusal::new(Code::NotReadyForNext, format!("match {} of the campaign is being played", m.id)))
            }
            None => Ok(()),
        }
    }

    /// A new match of this campaign with the game's options for it.
    fn new_match(&self, options: Value) -> Result<NewMatch, Refusal> {
        let corrupt = |e: String| Refusal::from(StoreError::Corrupt(format!("campaign {}: {e}", self.record.id)));
        let seed = secret::new_seed();
        let started = self.game.check_options(&options, seed).map_err(corrupt)?;
        let seats = started.seats;
        if seats != self.record.seats as usize {
            return Err(corrupt(format!(
                "the next match is for {seats} seats, the campaign has {}",
                self.record.seats
            )));
        }
        let id = Uuid::new_v4();
        Ok(NewMatch {
            id,
            game: self.record.game.clone(),
            options,
            seed,
            rules_version: self.game.rules_version(),
            // Never shown nor usable: a campaign's match is joined through
            // its campaign. Unique because the id is.
            join_code: format!("C{}", id.simple()),
            live: self.record.live,
            private: self.record.private,
            seats: self.record.seats,
            campaign_id: Some(self.record.id),
            creator: None,
            // Each match keeps the campaign's timer: a restart times it the same.
            turn_timer_ms: self.record.turn_timer_ms,
            standing: Some(started.standing),
        })
    }
}

async fn load(hub: &Hub, id: Uuid) -> Result<Loaded, Refusal> {
    let record =
        hub.store.campaign(id).await?.ok_or_else(|| Refusal::new(Code::NotFound, format!("no campaign {id}")))?;
    let game = hub.games.get(&record.game).filter(|g| g.campaign().is_some()).cloned().ok_or_else(|| {
        Refusal::new(Code::NotFound, format!("this server does not host {}'s campaigns", record.game))
    })?;
    let matches = hub.store.campaign_matches(id).await?;
    Ok(Loaded { record, game, matches })
}

fn game_error(e: CampaignError) -> Refusal {
    match e {
        // A game's refusal keeps its code; its status is the server's
        // for a code they share (`not_leader`: 403), 422 otherwise.
        CampaignError::Refused(e) => Refusal::Rule(e),
        CampaignError::Bad(m) => Refusal::new(Code::BadRequest, m),
        CampaignError::Corrupt(m) => Refusal::from(StoreError::Corrupt(m)),
    }
}

/// A write that lost the race with another: nothing was written.
fn stale(e: StoreError) -> Refusal {
    match e {
        StoreError::Stale => {
            Refusal::new(Code::NotReadyForNext, "the campaign changed meanwhile; look again and retry")
        }
        e => e.into(),
    }
}

async fn create(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    req: Result<Json<CreateCampaign>, JsonRejection>,
) -> Result<(StatusCode, Json<CampaignSeat>), Refusal> {
    hub.peers.check_lobby(peer)?;
    let req = body(req)?;
    let (options, hosting) = split_options(req.options)?;
    let game = hub
        .games
        .get(&req.game)
        .cloned()
        .ok_or_else(|| Refusal::new(Code::UnknownGame, format!("this server does not host {:?}", req.game)))?;
    let rules =
        game.campaign().ok_or_else(|| Refusal::new(Code::Campaign, format!("{} has no campaign variant", req.game)))?;
    crate::games::check_hosted(hub.config.max_summoning_points, game.as_ref(), &options)?;
    let seats = req.seats.map_or_else(|| rules.default_seats(&options), |s| s as usize);
    if seats > usize::from(Seat::MAX) {
        return Err(Refusal::new(Code::BadOptions, format!("{seats} seats is too many")));
    }
    let saved = rules.new_campaign(&options, seats).map_err(|e| match e {
        CampaignError::Refused(e) => Refusal::new(Code::BadOptions, e.message),
        CampaignError::Bad(m) | CampaignError::Corrupt(m) => Refusal::new(Code::BadOptions, m),
    })?;
    let id = Uuid::new_v4();
    let token = secret::new_token();
    let mut join_code = None;
    for _ in 0..5 {
        let code = secret::new_join_code();
        let c = NewCampaign {
            id,
            game: game.name().to_owned(),
            rules_version: game.rules_version(),
            seats: seats as u32,
            join_code: code.clone(),
            saved: saved.clone(),
            live: hosting.live,
            private: hosting.private,
            host: secret::token_hash(&token),
            turn_timer_ms: hosting.turn_timer_ms,
        };
        match hub.store.create_campaign(&c).await {
            Ok(()) => {
                join_code = Some(code);
                break;
            }
            Err(StoreError::Conflict(_)) => continue, // join code taken: draw another
            Err(e) => return Err(e.into()),
        }
    }
    let join_code = join_code.ok_or_else(|| StoreError::Conflict("no free join code".into()))?;
    tracing::info!(campaign_id = %id, game = game.name(), seats, "campaign created");
    // Nothing to choose (the duel; Origins named up front): the first match
    // at once, which seats join as they come.
    let c = load(&hub, id).await?;
    if let Step::Ready(options) = c.rules().next(&c.record.saved).map_err(game_error)? {
        let start = c.new_match(options)?;
        hub.store
            .update_campaign(&CampaignUpdate { id, version: c.record.version, saved: None, start: Some(start) })
            .await
            .map_err(stale)?;
    }
    let seat = CampaignSeat { campaign_id: id.to_string(), seat: 0, token, join_code: Some(join_code) };
    Ok((StatusCode::CREATED, Json(seat)))
}

async fn join(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(join_code): Path<String>,
) -> Result<Json<CampaignSeat>, Refusal> {
    hub.peers.check_lobby(peer)?;
    hub.peers.check_guess(peer)?;
    let token = secret::new_token();
    match hub.store.join_campaign(&join_code.to_uppercase(), &secret::token_hash(&token)).await {
        Ok((campaign_id, seat)) => {
            tracing::info!(%campaign_id, seat, "campaign seat taken");
            Ok(Json(CampaignSeat { campaign_id: campaign_id.to_string(), seat, token, join_code: None }))
        }
        Err(StoreError::NotFound) => {
            hub.peers.wrong(peer);
            Err(Refusal::new(Code::NotFound, format!("no campaign with join code {join_code}")))
        }
        Err(StoreError::Full) => Err(Refusal::new(Code::MatchFull, "every seat of this campaign is taken")),
        Err(e) => Err(e.into()),
    }
}

async fn choose(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(campaign_id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<CampaignChoice>, JsonRejection>,
) -> Result<Json<CampaignStatus>, Refusal> {
    let id = parse_id(&campaign_id, "campaign")?;
    let seat = seat_of(&hub, peer, &headers, id).await?;
    let req = body(req)?;
    let c = load(&hub, id).await?;
    c.refuse_while_playing()?;
    let saved = c.rules().choose(&c.record.saved, seat, &req.choice).map_err(game_error)?;
    // The last missing choice of a full party starts the first match, in
    // the same transaction as the choice.
    let full = c.record.seats_taken.len() == c.record.seats as usize;
    let start = match c.rules().next(&saved).map_err(game_error)? {
        Step::Ready(options) if full && c.record.current_match.is_none() => Some(c.new_match(options)?),
        _ => None,
    };
    let started = start.as_ref().map(|m| m.id);
    hub.store
        .update_campaign(&CampaignUpdate { id, version: c.record.version, saved: Some(saved), start })
        .await
        .map_err(stale)?;
    tracing::info!(campaign_id = %id, seat, "campaign choice made");
    if let Some(match_id) = started {
        tracing::info!(campaign_id = %id, %match_id, "campaign's first match started");
    }
    Ok(Json(status_of(&hub, &load(&hub, id).await?, Some(seat)).await?))
}

async fn next(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(campaign_id): Path<String>,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<NextMatch>), Refusal> {
    let id = parse_id(&campaign_id, "campaign")?;
    let seat = seat_of(&hub, peer, &headers, id).await?;
    let c = load(&hub, id).await?;
    c.refuse_while_playing()?;
    let options = match c.rules().next(&c.record.saved).map_err(game_error)? {
        Step::Ready(options) => options,
        Step::Choosing { seats } => {
            return Err(Refusal::new(Code::NotReadyForNext, format!("seats {seats:?} still have to choose")))
        }
        Step::Over => return Err(Refusal::new(Code::NotReadyForNext, "the campaign is over")),
    };
    if let Some(leader) = c.rules().leader(&c.record.saved).filter(|l| *l != seat) {
        return Err(Refusal::new(Code::NotLeader, format!("the party's leader (seat {leader}) starts the next match")));
    }
    let start = c.new_match(options)?;
    let match_id = start.id;
    hub.store
        .update_campaign(&CampaignUpdate { id, version: c.record.version, saved: None, start: Some(start) })
        .await
        .map_err(stale)?;
    tracing::info!(campaign_id = %id, %match_id, seat, "campaign's next match started");
    Ok((StatusCode::CREATED, Json(NextMatch { campaign_id: id.to_string(), match_id: match_id.to_string() })))
}

async fn status(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    Path(campaign_id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<CampaignStatus>, Refusal> {
    let id = parse_id(&campaign_id, "campaign")?;
    let you = match bearer(&headers) {
        Some(_) => Some(seat_of(&hub, peer, &headers, id).await?),
        None => None,
    };
    Ok(Json(status_of(&hub, &load(&hub, id).await?, you).await?))
}

/// Each token that holds no seat at all (of a campaign or a match) is a
/// wrong guess: 100 tokens a request must not be 100 free guesses.
async fn mine(
    State(hub): State<Arc<Hub>>,
    peer: PeerIp,
    req: Result<Json<MyCampaigns>, JsonRejection>,
) -> Result<Json<Value>, Refusal> {
    let req = body(req)?;
    if req.tokens.len() > MAX_TOKENS {
        return Err(Refusal::new(Code::BadRequest, format!("at most {MAX_TOKENS} tokens")));
    }
    hub.peers.check_guess(peer)?;
    let mut campaigns = Vec::new();
    for token in &req.tokens {
        let hash = secret::token_hash(token);
        if let Some((id, seat)) = hub.store.campaign_seat(&hash).await? {
            campaigns.push(status_of(&hub, &load(&hub, id).await?, Some(seat)).await?);
        } else if matches!(hub.store.seat_by_token(&hash).await, Ok(None)) {
            hub.peers.wrong(peer);
        }
    }
    Ok(Json(json!({ "campaigns": campaigns })))
}

/// Who controls each seat of match `m`, folded from its log's hand-overs:
/// the same whether its room is in memory or not, before a restart or after.
async fn control_of(hub: &Hub, m: &MatchRecord) -> Result<Vec<Option<Seat>>, Refusal> {
    let mut control = vec![None; m.seats as usize];
    for r in hub.store.records_of_kind(m.id, RecordKind::Hand, i64::MAX as u64).await? {
        let hand: Hand = serde_json::from_value(r.action)
            .map_err(|e| StoreError::Corrupt(format!("match {} hand record {}: {e}", m.id, r.seq)))?;
        hand.apply(&mut control);
    }
    Ok(control)
}

/// Where the party stands: the stage, each seat (connected to the current
/// match now, who acts for it), each match's standing and outcome.
async fn status_of(hub: &Hub, c: &Loaded, you: Option<Seat>) -> Result<CampaignStatus, Refusal> {
    let playing = c.playing();
    // Only the match being played has connections and hand-overs that matter.
    let (connected, control) = match playing {
        Some(m) => (hub.rooms.connected(m.id), control_of(hub, m).await?),
        None => (Vec::new(), Vec::new()),
    };
    let rules = c.rules();
    let saved = &c.record.saved;
    let mut choosing = Vec::new();
    let stage = if c.playing().is_some() {
        "playing"
    } else {
        match rules.next(saved) {
            Ok(Step::Choosing { seats }) => {
                choosing = seats;
                "choosing"
            }
            Ok(Step::Over) => "over",
            Ok(Step::Ready(_)) if c.record.current_match.is_some() => "between",
            // Ready, and no match yet: waiting for seats to join.
            Ok(Step::Ready(_)) => "choosing",
            Err(e) => {
                tracing::error!(campaign_id = %c.record.id, error = ?e, "campaign state does not read");
                "over"
            }
        }
    };
    let summary = |m: &MatchRecord| CampaignMatch {
        match_id: m.id.to_string(),
        status: m.status.to_string(),
        seq: m.seq,
        standing: m.standing.clone().unwrap_or(Value::Null),
        outcome: m.outcome.clone(),
    };
    Ok(CampaignStatus {
        campaign_id: c.record.id.to_string(),
        game: c.record.game.clone(),
        rules_version: c.record.rules_version,
        stage: stage.into(),
        seats: (0..c.record.seats as Seat)
            .map(|seat| CampaignSeatStatus {
                seat,
                taken: c.record.seats_taken.contains(&seat),
                connected: connected.contains(&seat),
                label: rules.label(saved, seat),
                controlled_by: control.get(seat as usize).copied().flatten(),
            })
            .collect(),
        you,
        choosing,
        current: playing.map(summary),
        matches: c.matches.iter().map(summary).collect(),
        saved: saved.clone(),
        // As a room times its matches (`Room::load`).
        turn_timer_ms: c
            .record
            .turn_timer_ms
            .or(c.record.live.then(|| hub.config.room().response_timer.as_millis() as u64)),
    })
}
