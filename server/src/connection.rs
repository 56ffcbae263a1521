//! One WebSocket connection: parse frames, enforce the frame limit and the
//! rate limit, subscribe to a room, and write the room's messages out.
//!
//! Every bad frame gets an `error` frame with a stable code; the connection
//! stays open. Its outbound queue is shared with the room, so an `ack`
//! always precedes the `update` it caused.

use std::{sync::Arc, time::Duration};

use athlas_engine::{refusal::Refusal as _, Seat, Viewer};
use athlas_protocol::{ClientMsg, ServerMsg, PROTOCOL_VERSION};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{mpsc, Notify};
use uuid::Uuid;

use crate::{
    hub::Hub,
    limits::{Bucket, PeerIp},
    refusal::{Code, Refusal},
    room::{Frame, Joining, Outbound, RoomCmd, RoomHandle},
    secret,
    store::StoreError,
    table::Hand,
    upgrade::{write_frames, Socket, MAX_BATCH},
};
use tokio_tungstenite::tungstenite::{self, Message};

/// Room messages a connection may have queued before it counts as lagging.
const OUTBOUND_QUEUE: usize = 1024;

/// Write `frames` on `socket`, after anything tungstenite itself has
/// queued (a pong): a frame of ours never splits one of its own.
async fn write_batch(socket: &mut Socket, frames: &[Frame]) -> Result<(), tungstenite::Error> {
    socket.flush().await?;
    let texts: Vec<&str> = frames.iter().map(|f| f.as_str()).collect();
    write_frames(socket.get_mut(), &texts).await?;
    Ok(())
}

/// Where a connection sits once it said hello or watch.
struct Session {
    room: RoomHandle,
    sub: u64,
    /// Established by `hello` (a seat token) or `watch` (a spectator).
    viewer: Viewer,
}

struct Connection {
    hub: Arc<Hub>,
    peer: PeerIp,
    out: Outbound,
    session: Option<Session>,
    bucket: Bucket,
}

/// Serve one connection until it closes, the server shuts down, it falls
/// too far behind, stops reading, or never says `hello`/`watch`. Generic
/// over the socket so it can be driven by channels in tests.
pub async fn run(mut socket: Socket, hub: Arc<Hub>, peer: PeerIp) {
    let (tx, mut rx) = mpsc::channel::<crate::room::Frame>(OUTBOUND_QUEUE);
    let kick = Arc::new(Notify::new());
    let mut shutdown = hub.shutdown_signal();
    let write_timeout = Duration::from_secs(hub.config.write_timeout_secs);
    // An idle socket that never joins costs a file descriptor and a task:
    // it gets a deadline (a `hello` with a wrong token does not lift it).
    let hello_deadline = tokio::time::sleep(Duration::from_secs(hub.config.hello_timeout_secs));
    tokio::pin!(hello_deadline);
    let mut joined = false;
    let mut conn = Connection {
        bucket: Bucket::new(hub.config.rate_per_sec, hub.config.rate_burst),
        peer,
        hub,
        out: Outbound { tx, kick: kick.clone(), legal: true },
        session: None,
    };
    tracing::debug!("connection opened");
    let closing = loop {
        tokio::select! {
            biased;
            Some(text) = rx.recv() => {
                // A client that stops reading blocks this send once the
                // socket's buffers are full; its room never waits for it
                // (it drops a queue that fills), and this bound frees the
                // connection too.
                // Frames queued together (an ack and its update, several
                // updates) go out in one write: one flush per wake-up, not
                // one per frame.
                let mut batch = vec![text];
                while batch.len() < MAX_BATCH {
                    let Ok(more) = rx.try_recv() else { break };
                    batch.push(more);
                }
                let write = write_batch(&mut socket, &batch);
                match tokio::time::timeout(write_timeout, write).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => break None,
                    Err(_) => {
                        tracing::info!("the client stopped reading; closing");
                        conn.hub.metrics.connection_dropped("write_timeout");
                        break None;
                    }
                }
            }
            Ok(()) = shutdown.changed() => {
                if !*shutdown.borrow() {
                    continue;
                }
                break Some(Refusal::new(Code::ShuttingDown, "the server is shutting down; reconnect later").frame(None));
            }
            () = kick.notified() => {
                break Some(Refusal::new(Code::Lagged, "this connection fell behind; reconnect with last_seq").frame(None));
            }
            () = &mut hello_deadline, if !joined => {
                conn.hub.metrics.connection_dropped("hello_timeout");
                break Some(Refusal::new(Code::HelloTimeout, "no hello or watch in time; closing").frame(None));
            }
            frame = socket.next() => match frame {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break None,
                Some(Ok(Message::Text(text))) => {
                    // Boxed: the connection's task would otherwise hold the
                    // largest state of any request (a hello's join) all its
                    // life, some 7 KiB a connection (heaptrack).
                    Box::pin(conn.on_text(text.as_str())).await;
                    joined |= conn.session.is_some();
                }
                Some(Ok(Message::Binary(_))) => conn.reply(Refusal::new(Code::BadJson, "send JSON text frames").frame(None)),
                Some(Ok(_)) => {} // ping/pong: answered by the WebSocket layer
            },
        }
    };
    if let Some(msg) = closing {
        // Flush what is queued, then say why, then close; all of it within
        // the write timeout, as a client that stopped reading takes nothing.
        let text = serde_json::to_string(&msg).expect("serializes");
        let _ = tokio::time::timeout(write_timeout, async {
            let mut queued = Vec::new();
            while let Ok(frame) = rx.try_recv() {
                queued.push(frame);
            }
            queued.push(text.into());
            for batch in queued.chunks(MAX_BATCH) {
                if write_batch(&mut socket, batch).await.is_err() {
                    return;
                }
            }
            let _ = socket.close(None).await;
        })
        .await;
    }
    if let Some(s) = conn.session {
        let _ = s.room.tx.send(RoomCmd::Leave { sub: s.sub }).await;
    }
    tracing::info!("connection closed");
}

impl Connection {
    fn reply(&self, msg: ServerMsg) {
        let _ = self.out.tx.try_send(crate::room::encode(&msg));
    }

    async fn on_text(&mut self, text: &str) {
        if !self.bucket.take() {
            // An `act` dropped here is answered by its own id, so the client
            // knows which one to send again (the id alone is read).
            #[derive(serde::Deserialize)]
            struct IdOnly {
                id: Option<u64>,
            }
            let id = if text.len() <= self.hub.config.max_frame_bytes {
                serde_json::from_str::<IdOnly>(text).ok().and_then(|f| f.id)
            } else {
                None
            };
            return self.reply(Refusal::new(Code::RateLimited, "too many frames; slow down").frame(id));
        }
        if text.len() > self.hub.config.max_frame_bytes {
            return self.reply(
                Refusal::new(
                    Code::FrameTooLarge,
                    format!("frames are limited to {} bytes", self.hub.config.max_frame_bytes),
                )
                .frame(None),
            );
        }
        let msg = match parse(text) {
            Ok(m) => m,
            Err(refusal) => return self.reply(*refusal),
        };
        match msg {
            ClientMsg::Ping => self.reply(ServerMsg::Pong),
            ClientMsg::Hello { token, last_seq, protocol, legal } => {
                self.out.legal = legal.unwrap_or(true);
                self.hello(&token, last_seq, protocol).await
            }
            ClientMsg::Watch { match_id, last_seq, protocol } => self.watch(&match_id, last_seq, protocol).await,
            ClientMsg::Act { id, action, seat } => {
                self.send_to_room(id, |sub, player| RoomCmd::Act {
                    sub,
                    player,
                    seat: seat.unwrap_or(player),
                    id,
                    action,
                })
                .await
            }
            ClientMsg::TakeBack { id } => {
                self.send_to_room(id, |sub, player| RoomCmd::TakeBack { sub, player, id }).await
            }
            ClientMsg::Hand { id, seat, to } => {
                self.send_to_room(id, |sub, player| RoomCmd::Hand { sub, player, id, hand: Hand { seat, to } }).await
            }
            ClientMsg::Propose { id, action, seat } => {
                self.send_to_room(id, |sub, player| RoomCmd::Propose {
                    sub,
                    player,
                    seat: seat.unwrap_or(player),
                    id,
                    action,
                })
                .await
            }
            ClientMsg::Agree { id } => self.send_to_room(id, |sub, player| RoomCmd::Agree { sub, player, id }).await,
            ClientMsg::Object { id } => self.send_to_room(id, |sub, player| RoomCmd::Object { sub, player, id }).await,
            // Spectators speak too (to the spectators): the one request a
            // watching connection may send its room.
            ClientMsg::Chat { id, text } => match &self.session {
                None => self.refuse_act(id, Code::NotSeated, "send hello or watch first"),
                Some(session) => {
                    if session.room.tx.send(RoomCmd::Chat { sub: session.sub, id, text }).await.is_err() {
                        self.session = None;
                        self.refuse_act(id, Code::Internal, "the match was reloaded; send hello again");
                    }
                }
            },
        }
    }

    fn check_join(&self, protocol: Option<u32>) -> bool {
        if self.session.is_some() {
            self.reply(Refusal::new(Code::AlreadyJoined, "this connection already joined a match").frame(None));
            return false;
        }
        if protocol.is_some_and(|p| p != PROTOCOL_VERSION) {
            self.reply(
                Refusal::new(Code::UnsupportedProtocol, format!("this server speaks protocol {PROTOCOL_VERSION}"))
                    .frame(None),
            );
            return false;
        }
        true
    }

    async fn hello(&mut self, token: &str, last_seq: Option<u64>, protocol: Option<u32>) {
        if !self.check_join(protocol) {
            return;
        }
        // Tokens are 256 random bits and looked up by their SHA-256 (no
        // comparison whose time depends on the token); wrong ones still
        // count against the address, so guessing costs time.
        if let Some(ip) = self.peer.0 {
            if !self.hub.peers.may_guess(ip) {
                return self.reply(
                    Refusal::new(Code::RateLimited, "too many wrong tokens from your address; try again in a minute")
                        .frame(None),
                );
            }
        }
        let found = match self.hub.store.seat_by_token(&secret::token_hash(token)).await {
            Ok(found) => found,
            Err(StoreError::NotStarted) => {
                return self.reply(
                    Refusal::new(
                        Code::NotReadyForNext,
                        "this campaign has no match yet: every seat must be taken and every choice made",
                    )
                    .frame(None),
                )
            }
            Err(e) => return self.store_failed(e),
        };
        let Some((match_id, seat)) = found else {
            if let Some(ip) = self.peer.0 {
                self.hub.peers.guessed_wrong(ip);
            }
            return self.reply(Refusal::new(Code::BadToken, "this token holds no seat").frame(None));
        };
        self.join(match_id, Viewer::Seat(seat), last_seq).await;
    }

    async fn watch(&mut self, match_id: &str, last_seq: Option<u64>, protocol: Option<u32>) {
        if !self.check_join(protocol) {
            return;
        }
        let Ok(id) = Uuid::parse_str(match_id) else {
            return self.reply(Refusal::new(Code::NotFound, format!("no match {match_id}")).frame(None));
        };
        self.join(id, Viewer::Spectator, last_seq).await;
    }

    async fn join(&mut self, match_id: Uuid, viewer: Viewer, last_seq: Option<u64>) {
        let game = match self.hub.store.get_match(match_id).await {
            Ok(Some(m)) => m.game,
            Ok(None) => return self.reply(Refusal::new(Code::NotFound, format!("no match {match_id}")).frame(None)),
            Err(e) => return self.store_failed(e),
        };
        match self.hub.subscribe(match_id, &game, viewer, last_seq, self.out.clone()).await {
            Ok((room, sub)) => {
                let span = tracing::Span::current();
                span.record("match_id", tracing::field::display(match_id));
                if let Some(seat) = viewer.seat() {
                    span.record("seat", seat);
                }
                if viewer.seat().is_some() && last_seq.is_some() {
                    self.hub.metrics.reconnected();
                }
                tracing::info!(spectator = viewer.seat().is_none(), "joined");
                self.session = Some(Session { room, sub, viewer });
            }
            Err(Joining::Refused(refusal @ Refusal::Server(Code::RoomElsewhere, _))) => {
                // A cluster node that does not play this match: say where it is played.
                self.hub.metrics.redirected();
                tracing::debug!(%match_id, "room_elsewhere");
                match self.hub.store.lease(match_id).await {
                    Ok(Some(lease)) if lease.expires_in_ms > 0 => {
                        self.reply(ServerMsg::error_at(refusal.code(), refusal.message(), lease.url))
                    }
                    _ => self.reply(refusal.frame(None)),
                }
            }
            Err(Joining::Refused(refusal)) => self.reply(refusal.frame(None)),
            Err(Joining::Retry) => self.reply(Refusal::new(Code::Internal, "try again").frame(None)),
        }
    }

    /// The one place that decides whether this connection may act: it has
    /// joined, and by a seat token. The room trusts the seat it is given.
    /// Send a seated player's request (`act`, `take_back`, `hand`) to its
    /// room, built from the subscriber id and the player's seat.
    async fn send_to_room(&mut self, id: u64, cmd: impl FnOnce(u64, Seat) -> RoomCmd) {
        let Some(session) = &self.session else {
            return self.refuse_act(id, Code::NotSeated, "send hello with your seat token first");
        };
        let Viewer::Seat(player) = session.viewer else {
            return self.refuse_act(id, Code::NotSeated, "spectators cannot act");
        };
        if session.room.tx.send(cmd(session.sub, player)).await.is_err() {
            self.session = None;
            self.refuse_act(id, Code::Internal, "the match was reloaded; send hello again");
        }
    }

    /// An `act` refused before it reached a room (the room counts its own).
    fn refuse_act(&self, id: u64, code: Code, message: &str) {
        self.hub.metrics.action_rejected(code.code());
        self.reply(Refusal::new(code, message).frame(Some(id)));
    }

    fn store_failed(&self, e: StoreError) {
        self.reply(Refusal::from(e).frame(None));
    }
}

/// A frame as a client message, parsed once on the way in. A frame that
/// does not parse straight away is looked at again to say why: not JSON, no
/// `type`, an unknown `type`, or a known one with bad fields (the error
/// names the `id` if any). A repeated key is no error: the last one counts.
fn parse(text: &str) -> Result<ClientMsg, Box<ServerMsg>> {
    if let Ok(msg) = serde_json::from_str(text) {
        return Ok(msg);
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Box::new(Refusal::new(Code::BadJson, format!("not JSON: {e}")).frame(None)))?;
    let id = value.get("id").and_then(Value::as_u64);
    let refused = match value.get("type").and_then(Value::as_str) {
        Some("hello" | "watch" | "act" | "ping") => match serde_json::from_value(value) {
            Ok(msg) => return Ok(msg),
            Err(e) => Refusal::new(Code::BadJson, e.to_string()).frame(id),
        },
        Some(other) => Refusal::new(Code::UnknownType, format!("unknown message type {other:?}")).frame(id),
        None => Refusal::new(Code::BadJson, "a message is an object with a \"type\"").frame(id),
    };
    Err(Box::new(refused))
}
