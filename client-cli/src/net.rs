//! Talking to a server: the HTTP lobby ([`Lobby`]: matches and campaigns)
//! and a WebSocket [`Link`] that says `hello` (or `watch`) and, when the
//! connection drops, reconnects by itself with exponential backoff, resuming
//! from the last `seq` it saw.
//!
//! A campaign request that acts for a seat carries its token in the
//! `Authorization: Bearer` header only: a URL gets logged and shared.

use std::{
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::Duration,
};

use athlas_protocol::{
    code, CampaignChoice, CampaignSeat, CampaignStatus, ClientMsg, CreateCampaign, Created, ErrorBody, Joined,
    MatchList, MatchSummary, MyCampaigns, NextMatch, PROTOCOL_VERSION,
};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// The socket settings of every client connection: a read buffer sized
/// for our frames (tungstenite zeroes up to the whole buffer before each
/// read, also the one that finds nothing: its 128 KiB default cost a fifth
/// of a bot's CPU, 16 KiB still 6 %; an update is about 3 KB, and a larger
/// frame takes a few reads), and no Nagle delay
/// (`connect_async_with_config`'s `true`).
pub fn ws_config() -> tokio_tungstenite::tungstenite::protocol::WebSocketConfig {
    tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(4 * 1024)
}

/// A client WebSocket, over TLS or not.
pub type WsStream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Open a WebSocket to `url` with [`ws_config`] and no Nagle delay; from
/// the local address `source` when given (port chosen by the kernel). A
/// load generator holding more sockets than one address has ephemeral
/// ports (about 28,000 with Linux's default `ip_local_port_range`) spreads
/// them over several loopback addresses (127.0.0.2, 127.0.0.3, ...: all of
/// 127/8 is loopback on Linux).
///
/// # Errors
/// A bad URL, no connection, a failed TLS or WebSocket handshake.
pub async fn connect(
    url: &str,
    source: Option<std::net::IpAddr>,
) -> Result<WsStream, tokio_tungstenite::tungstenite::Error> {
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest, error::UrlError, Error};
    let Some(source) = source else {
        return Ok(tokio_tungstenite::connect_async_with_config(url, Some(ws_config()), true).await?.0);
    };
    let request = url.into_client_request()?;
    let host = request.uri().host().ok_or(Error::Url(UrlError::NoHostName))?.trim_matches(['[', ']']).to_owned();
    let port = request.uri().port_u16().unwrap_or(if request.uri().scheme_str() == Some("wss") { 443 } else { 80 });
    let target = tokio::net::lookup_host((host.as_str(), port))
        .await?
        .find(|a| a.is_ipv4() == source.is_ipv4())
        .ok_or(Error::Url(UrlError::UnableToConnect(format!("{host}:{port} has no address like {source}"))))?;
    let socket = if source.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.bind(std::net::SocketAddr::new(source, 0))?;
    let stream = socket.connect(target).await?;
    stream.set_nodelay(true)?;
    Ok(tokio_tungstenite::client_async_tls_with_config(request, stream, Some(ws_config()), None).await?.0)
}

/// Why talking to the server failed.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The server address is not usable.
    #[error("bad server address {0:?}: use http://HOST:PORT or https://HOST")]
    BadAddress(String),
    /// The HTTP request did not get an answer.
    #[error("HTTP request failed: {0}")]
    Http(#[from] reqwest::Error),
    /// A campaign id or join code that cannot be part of a URL path.
    #[error("{0:?} is not a campaign id or join code")]
    BadName(String),
    /// The server answered with an error body.
    #[error("server refused ({status}): {code}: {message}")]
    Refused { status: u16, code: String, message: String },
}

impl NetError {
    /// The stable error code of a refusal, if the server sent one.
    pub fn code(&self) -> Option<&str> {
        match self {
            NetError::Refused { code, .. } => Some(code),
            _ => None,
        }
    }
}

/// A server's address in both forms: `http://HOST:PORT` for the lobby and
/// `ws://HOST:PORT/ws` for play, or `https://` and `wss://` for a server
/// behind TLS (docs/OPERATIONS.md has operators put TLS in front of Athlas).
/// Accepts `HOST:PORT`, `http://..`, `ws://..`, `https://..`, `wss://..`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerAddr {
    /// `HOST:PORT` (or `HOST`), with no scheme and no trailing slash.
    pub authority: String,
    /// Whether the server is reached over TLS (`https`/`wss`).
    pub tls: bool,
}

impl ServerAddr {
    /// # Errors
    /// An empty address, a path after the host, or a scheme other than
    /// http, https, ws and wss.
    pub fn parse(s: &str) -> Result<ServerAddr, NetError> {
        let s = s.trim().trim_end_matches('/');
        let (rest, tls) = if let Some(r) = s.strip_prefix("http://").or_else(|| s.strip_prefix("ws://")) {
            (r, false)
        } else if let Some(r) = s.strip_prefix("https://").or_else(|| s.strip_prefix("wss://")) {
            (r, true)
        } else if s.contains("://") {
            return Err(NetError::BadAddress(s.to_owned()));
        } else {
            (s, false)
        };
        let authority = rest.trim_end_matches("/ws").trim_end_matches('/');
        if authority.is_empty() || authority.contains('/') {
            return Err(NetError::BadAddress(s.to_owned()));
        }
        Ok(ServerAddr { authority: authority.to_owned(), tls })
    }

    /// The lobby's base URL (also how a saved seat remembers its server).
    pub fn http(&self) -> String {
        format!("{}://{}", if self.tls { "https" } else { "http" }, self.authority)
    }

    pub fn ws(&self) -> String {
        format!("{}://{}/ws", if self.tls { "wss" } else { "ws" }, self.authority)
    }

    /// The socket URL for one match: it names the match (`?match=ID`), so a
    /// front before several nodes can send it to the node playing it
    /// (docs/CLUSTER.md); a single server ignores it. Without an id, [`Self::ws`].
    pub fn ws_for(&self, match_id: &str) -> String {
        if match_id.is_empty() {
            return self.ws();
        }
        format!("{}?match={match_id}", self.ws())
    }

    /// The host part, without the port (brackets kept off IPv6 literals).
    pub fn host(&self) -> &str {
        let a = self.authority.as_str();
        if let Some(rest) = a.strip_prefix('[') {
            return rest.split(']').next().unwrap_or(rest);
        }
        a.rsplit_once(':').map_or(a, |(h, _)| h)
    }

    /// Whether the server is on this machine (the load generator only runs there).
    pub fn is_loopback(&self) -> bool {
        let h = self.host();
        h == "localhost" || h.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }
}

/// The HTTP lobby: create, join and look up matches.
#[derive(Debug, Clone)]
pub struct Lobby {
    pub addr: ServerAddr,
    http: reqwest::Client,
}

impl Lobby {
    pub fn new(addr: ServerAddr) -> Lobby {
        let http =
            reqwest::Client::builder().timeout(Duration::from_secs(30)).build().expect("a plain HTTP client builds");
        Lobby { addr, http }
    }

    async fn answer<T: serde::de::DeserializeOwned>(resp: reqwest::Response) -> Result<T, NetError> {
        let status = resp.status();
        if status.is_success() {
            return Ok(resp.json::<T>().await?);
        }
        let text = resp.text().await.unwrap_or_default();
        let body: ErrorBody =
            serde_json::from_str(&text).unwrap_or(ErrorBody { code: "http".into(), message: text.trim().to_owned() });
        Err(NetError::Refused { status: status.as_u16(), code: body.code, message: body.message })
    }

    /// `POST /api/matches`. `options` are the game's options; `live` goes
    /// with them (the server takes it out).
    ///
    /// # Errors
    /// No answer, or the server refused (unknown game, bad options).
    pub async fn create(&self, game: &str, options: Value, live: bool) -> Result<Created, NetError> {
        self.create_named(game, options, live, None).await
    }

    /// [`Lobby::create`] with the creator's display name.
    ///
    /// # Errors
    /// As [`Lobby::create`]; a name the server refuses (`bad_name`).
    pub async fn create_named(
        &self,
        game: &str,
        mut options: Value,
        live: bool,
        name: Option<&str>,
    ) -> Result<Created, NetError> {
        if let Value::Object(m) = &mut options {
            m.insert("live".into(), Value::Bool(live));
        }
        let mut body = serde_json::json!({ "game": game, "options": options });
        if let Some(name) = name {
            body["name"] = name.into();
        }
        let resp = self.http.post(format!("{}/api/matches", self.addr.http())).json(&body).send().await?;
        Self::answer(resp).await
    }

    /// `POST /api/join/{code}`.
    ///
    /// # Errors
    /// No answer, no such code (`not_found`), or every seat taken (`match_full`).
    pub async fn join(&self, code: &str) -> Result<Joined, NetError> {
        self.join_named(code, None).await
    }

    /// [`Lobby::join`] with the joining player's display name.
    ///
    /// # Errors
    /// As [`Lobby::join`]; a name the server refuses (`bad_name`).
    pub async fn join_named(&self, code: &str, name: Option<&str>) -> Result<Joined, NetError> {
        let body = serde_json::json!({ "name": name });
        let resp = self.http.post(format!("{}/api/join/{code}", self.addr.http())).json(&body).send().await?;
        Self::answer(resp).await
    }

    /// `GET /api/matches/{id}`.
    ///
    /// # Errors
    /// No answer or no such match.
    pub async fn get_match(&self, id: &str) -> Result<MatchSummary, NetError> {
        let resp = self.http.get(format!("{}/api/matches/{id}", self.addr.http())).send().await?;
        Self::answer(resp).await
    }

    /// `GET /api/matches/{id}/log`: a finished match's whole record.
    ///
    /// # Errors
    /// No answer, no such match, or not finished (`not_finished`).
    pub async fn match_log(&self, id: &str) -> Result<athlas_protocol::MatchLog, NetError> {
        let resp = self.http.get(format!("{}/api/matches/{id}/log", self.addr.http())).send().await?;
        Self::answer(resp).await
    }

    /// `POST /api/campaigns`: a new campaign; the answer holds seat 0's
    /// token and the join code.
    ///
    /// # Errors
    /// No answer, or the server refused (unknown game, bad options).
    pub async fn create_campaign(&self, body: &CreateCampaign) -> Result<CampaignSeat, NetError> {
        let resp = self.http.post(format!("{}/api/campaigns", self.addr.http())).json(body).send().await?;
        Self::answer(resp).await
    }

    /// `POST /api/campaigns/join/{code}`: the next free seat.
    ///
    /// # Errors
    /// No answer, no such code (`not_found`), every seat taken (`match_full`).
    pub async fn join_campaign(&self, code: &str) -> Result<CampaignSeat, NetError> {
        let code = path_segment(code)?;
        let resp = self.http.post(format!("{}/api/campaigns/join/{code}", self.addr.http())).send().await?;
        Self::answer(resp).await
    }

    /// `POST /api/campaigns/{id}/choose` as the seat of `token`.
    ///
    /// # Errors
    /// No answer, or the campaign or the game refused the choice (its code).
    pub async fn choose(&self, campaign: &str, token: &str, choice: Value) -> Result<CampaignStatus, NetError> {
        let url = format!("{}/api/campaigns/{}/choose", self.addr.http(), path_segment(campaign)?);
        let resp = self.http.post(url).bearer_auth(token).json(&CampaignChoice { choice }).send().await?;
        Self::answer(resp).await
    }

    /// `POST /api/campaigns/{id}/next` as the seat of `token`: start the
    /// campaign's next match.
    ///
    /// # Errors
    /// No answer, `not_leader`, or `not_ready_for_next` (a match is on,
    /// choices are missing, or the campaign is over).
    pub async fn next_match(&self, campaign: &str, token: &str) -> Result<NextMatch, NetError> {
        let url = format!("{}/api/campaigns/{}/next", self.addr.http(), path_segment(campaign)?);
        let resp = self.http.post(url).bearer_auth(token).send().await?;
        Self::answer(resp).await
    }

    /// `GET /api/campaigns/{id}`; with a token, `you` says its seat.
    ///
    /// # Errors
    /// No answer or no such campaign.
    pub async fn campaign(&self, campaign: &str, token: Option<&str>) -> Result<CampaignStatus, NetError> {
        let mut req = self.http.get(format!("{}/api/campaigns/{}", self.addr.http(), path_segment(campaign)?));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        Self::answer(req.send().await?).await
    }

    /// `POST /api/campaigns/mine`: the campaigns of these seat tokens (in
    /// the body, never the URL); unknown tokens are left out.
    ///
    /// # Errors
    /// No answer.
    pub async fn my_campaigns(&self, tokens: Vec<String>) -> Result<Vec<CampaignStatus>, NetError> {
        #[derive(Deserialize)]
        struct Mine {
            campaigns: Vec<CampaignStatus>,
        }
        let resp = self
            .http
            .post(format!("{}/api/campaigns/mine", self.addr.http()))
            .json(&MyCampaigns { tokens })
            .send()
            .await?;
        Self::answer::<Mine>(resp).await.map(|m| m.campaigns)
    }

    /// `GET /api/matches?status=open`.
    ///
    /// # Errors
    /// No answer.
    pub async fn open_matches(&self) -> Result<MatchList, NetError> {
        let resp = self.http.get(format!("{}/api/matches?status=open", self.addr.http())).send().await?;
        Self::answer(resp).await
    }

    /// `GET /metrics`: the server's Prometheus text (the load generator
    /// reads the server's own CPU time and memory from it).
    ///
    /// # Errors
    /// No answer, or not a success.
    pub async fn metrics(&self) -> Result<String, NetError> {
        let resp = self.http.get(format!("{}/metrics", self.addr.http())).send().await?;
        Ok(resp.error_for_status()?.text().await?)
    }
}

/// A campaign id or join code as one URL path segment: ids are UUIDs and
/// codes letters and digits, so anything else is refused rather than escaped.
fn path_segment(s: &str) -> Result<&str, NetError> {
    let s = s.trim();
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(NetError::BadName(s.to_owned()));
    }
    Ok(s)
}

/// Who a link speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// A seat, proven by its token.
    Seat { token: String },
    /// A spectator of a match.
    Spectator { match_id: String },
}

impl Identity {
    /// The first frame of a connection: `hello` or `watch`, resuming after `last_seq`.
    pub fn greeting(&self, last_seq: Option<u64>) -> String {
        let msg = match self {
            Identity::Seat { token } => {
                ClientMsg::Hello { token: token.clone(), last_seq, protocol: Some(PROTOCOL_VERSION), legal: None }
            }
            Identity::Spectator { match_id } => {
                ClientMsg::Watch { match_id: match_id.clone(), last_seq, protocol: Some(PROTOCOL_VERSION) }
            }
        };
        serde_json::to_string(&msg).expect("client messages serialize")
    }
}

/// How a link retries.
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    pub first: Duration,
    pub max: Duration,
    /// Give up after this many failed attempts in a row (`None`: never).
    pub attempts: Option<u32>,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { first: Duration::from_millis(250), max: Duration::from_secs(10), attempts: None }
    }
}

impl Backoff {
    /// The wait before attempt `n` (counted from 1 after a failure): doubling, capped.
    pub fn delay(&self, n: u32) -> Duration {
        let factor = 1u32 << n.saturating_sub(1).min(16);
        self.first.saturating_mul(factor).min(self.max)
    }
}

/// What a link reports to its owner.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkEvent {
    /// Connected and the greeting sent (the `welcome` follows as a frame).
    Connected { attempt: u32 },
    /// One text frame from the server, as received.
    Frame(String),
    /// The connection is gone; the link tries again after `retry_in`.
    Disconnected { reason: String, retry_in: Duration },
    /// The link stopped trying.
    GaveUp { reason: String },
}

/// The few fields of a server frame the link and the players look at; the
/// rest of the frame is skipped without building it.
#[derive(Debug, Clone, Deserialize)]
pub struct FrameHead {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub seq: Option<u64>,
    /// An error's code.
    #[serde(default)]
    pub code: Option<String>,
    /// `room_elsewhere`: the node to say hello to instead.
    #[serde(default)]
    pub at: Option<String>,
}

impl FrameHead {
    /// The head of a server frame. An update, the frame sent for every
    /// action and the one that carries a whole view, is read off its front:
    /// the server writes `type` first and an update's `seq` second
    /// (`athlas_protocol::ServerMsg`), so the view is not scanned; an ack,
    /// also one per action, is read off its text. Anything else (other
    /// frames, or fields in another order) is parsed whole.
    /// `None`: not a frame (not JSON, or no type).
    pub fn read(text: &str) -> Option<FrameHead> {
        let head = |kind: &str, seq| FrameHead { kind: kind.to_owned(), seq: Some(seq), code: None, at: None };
        if let Some((_, seq)) = crate::player::plain_ack(text) {
            return Some(head("ack", seq));
        }
        let front = (|| {
            let (seq, rest) = crate::player::plain_u64(text.strip_prefix(r#"{"type":"update","seq":"#)?)?;
            // The whole number, and nothing odd after it.
            matches!(rest.as_bytes().first(), Some(b',' | b'}')).then(|| head("update", seq))
        })();
        front.or_else(|| serde_json::from_str(text).ok())
    }
}

/// Error codes that, answering a greeting, mean "not here, not now": the
/// link drops the connection and tries again (the database is away, the
/// server is stopping, another node of a cluster plays the match).
const RETRY_GREETING: [&str; 3] = [code::STORE_UNAVAILABLE, code::SHUTTING_DOWN, code::ROOM_ELSEWHERE];

/// Whether a [`Link`] answered `code` to its greeting tries again by itself.
pub fn greeting_retried(code: &str) -> bool {
    RETRY_GREETING.contains(&code)
}

/// A WebSocket connection that keeps itself up. Dropping it ends its task.
pub struct Link {
    out: mpsc::UnboundedSender<String>,
    pub events: mpsc::UnboundedReceiver<LinkEvent>,
    last_seq: Arc<AtomicU64>,
}

/// `u64::MAX` in `last_seq` means "nothing seen yet".
const NOTHING: u64 = u64::MAX;

impl Link {
    /// Start connecting to `ws_url` as `identity`, resuming after `last_seq`.
    pub fn spawn(ws_url: String, identity: Identity, last_seq: Option<u64>, backoff: Backoff) -> Link {
        Link::spawn_after(Duration::ZERO, ws_url, identity, last_seq, backoff)
    }

    /// Like [`Link::spawn`], first connecting after `delay` (a player who
    /// closed the tab and comes back).
    pub fn spawn_after(
        delay: Duration,
        ws_url: String,
        identity: Identity,
        last_seq: Option<u64>,
        backoff: Backoff,
    ) -> Link {
        Link::spawn_from(None, delay, ws_url, identity, last_seq, backoff)
    }

    /// Like [`Link::spawn_after`], each connection opened from the local
    /// address `source` (see [`connect`]).
    pub fn spawn_from(
        source: Option<std::net::IpAddr>,
        delay: Duration,
        ws_url: String,
        identity: Identity,
        last_seq: Option<u64>,
        backoff: Backoff,
    ) -> Link {
        let (out, out_rx) = mpsc::unbounded_channel();
        let (ev_tx, events) = mpsc::unbounded_channel();
        let last = Arc::new(AtomicU64::new(last_seq.unwrap_or(NOTHING)));
        let task = run(ws_url, source, identity, backoff, last.clone(), out_rx, ev_tx);
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            task.await;
        });
        Link { out, events, last_seq: last }
    }

    /// Queue a text frame. Frames queued while the connection is down are
    /// dropped at reconnect (they were meant for a view that is gone).
    pub fn send(&self, text: String) {
        let _ = self.out.send(text);
    }

    /// The `seq` of the last `welcome`/`update` received.
    pub fn last_seq(&self) -> Option<u64> {
        match self.last_seq.load(Ordering::Relaxed) {
            NOTHING => None,
            s => Some(s),
        }
    }

    /// The next event; `None` once the link's task ended.
    pub async fn next(&mut self) -> Option<LinkEvent> {
        self.events.recv().await
    }
}

async fn run(
    mut url: String,
    source: Option<std::net::IpAddr>,
    identity: Identity,
    backoff: Backoff,
    last: Arc<AtomicU64>,
    mut out: mpsc::UnboundedReceiver<String>,
    events: mpsc::UnboundedSender<LinkEvent>,
) {
    let mut failures = 0u32;
    let mut attempt = 0u32;
    // Where the link was pointed first (a node, or a front before several):
    // a node it was sent to that cannot be reached (it died, which is why
    // its lease will pass to another) is left for this address again.
    let home = url.clone();
    loop {
        attempt += 1;
        let reason = match connect(url.as_str(), source).await {
            Err(e) if url != home => {
                let reason = format!("connect to {url}: {e}; back to {home}");
                url = home.clone();
                reason
            }
            Err(e) => format!("connect: {e}"),
            Ok(ws) => {
                let (mut sink, mut stream) = ws.split();
                // Whatever was queued while down belongs to a stale view.
                while out.try_recv().is_ok() {}
                let seq = match last.load(Ordering::Relaxed) {
                    NOTHING => None,
                    s => Some(s),
                };
                if let Err(e) = sink.send(Message::text(identity.greeting(seq))).await {
                    format!("send: {e}")
                } else {
                    if events.send(LinkEvent::Connected { attempt }).is_err() {
                        return;
                    }
                    let mut welcomed = false;
                    loop {
                        tokio::select! {
                            text = out.recv() => match text {
                                None => {
                                    let _ = sink.send(Message::Close(None)).await;
                                    return;
                                }
                                Some(text) => {
                                    if let Err(e) = sink.send(Message::text(text)).await {
                                        break format!("send: {e}");
                                    }
                                }
                            },
                            frame = stream.next() => match frame {
                                None => break "the server closed the connection".to_owned(),
                                Some(Err(e)) => break format!("receive: {e}"),
                                Some(Ok(Message::Text(t))) => {
                                    let mut retry = None;
                                    if let Some(head) = FrameHead::read(t.as_str()) {
                                        if !welcomed && head.kind == "error" {
                                            retry = head.code.filter(|c| RETRY_GREETING.contains(&c.as_str()));
                                            // Another node of a cluster plays the match: go there.
                                            if let Some(at) = head.at.filter(|a| a.starts_with("ws://") || a.starts_with("wss://")) {
                                                url = at;
                                                failures = 0;
                                            }
                                        }
                                        if matches!(head.kind.as_str(), "welcome" | "update") {
                                            if let Some(s) = head.seq {
                                                last.store(s, Ordering::Relaxed);
                                            }
                                            if head.kind == "welcome" && !welcomed {
                                                welcomed = true;
                                                failures = 0;
                                            }
                                        }
                                    }
                                    if events.send(LinkEvent::Frame(t.as_str().to_owned())).is_err() {
                                        return;
                                    }
                                    if let Some(code) = retry {
                                        break format!("the server answered {code}");
                                    }
                                }
                                Some(Ok(Message::Close(_))) => break "the server closed the connection".to_owned(),
                                Some(Ok(_)) => {}
                            },
                        }
                    }
                }
            }
        };
        failures += 1;
        if backoff.attempts.is_some_and(|n| failures >= n) {
            let _ = events.send(LinkEvent::GaveUp { reason });
            return;
        }
        let retry_in = backoff.delay(failures);
        if events.send(LinkEvent::Disconnected { reason, retry_in }).is_err() {
            return;
        }
        tokio::time::sleep(retry_in).await;
        if events.is_closed() {
            return;
        }
    }
}

#[cfg(test)]
mod tests;
