//! How connections reach a room: its handle, the commands it receives,
//! and each connection's outbound queue as the room sees it.

use std::sync::Arc;

use athlas_engine::{Seat, Viewer};
use athlas_protocol::ServerMsg;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch, Notify};

use crate::{refusal::Refusal, table::Hand};

/// A connection's outbound queue, as a room sees it.
#[derive(Clone, Debug)]
pub struct Outbound {
    pub tx: mpsc::Sender<Frame>,
    /// Notified when the room drops the connection for falling behind.
    pub kick: Arc<Notify>,
    /// The player asked for its legal actions in every frame (`hello`'s
    /// `legal`, on by default): listing them costs far more than applying
    /// an action, so clients that know the rules may decline.
    pub legal: bool,
}

/// An encoded frame. Cloning shares the bytes: one update goes to every
/// connection that sees the same thing without being encoded again.
pub type Frame = axum::extract::ws::Utf8Bytes;

/// `msg` as a frame.
pub fn encode(msg: &ServerMsg) -> Frame {
    serde_json::to_string(msg).expect("server messages serialize").into()
}

impl Outbound {
    pub(super) fn send(&self, msg: &ServerMsg) -> bool {
        self.send_frame(encode(msg))
    }

    pub(super) fn send_frame(&self, frame: Frame) -> bool {
        self.tx.try_send(frame).is_ok()
    }
}

/// Why a room did not take a join.
#[derive(Debug, Clone)]
pub enum Joining {
    /// The room was unloading: try again (a fresh room will load).
    Retry,
    /// Refused, and the client is told why.
    Refused(Refusal),
}

/// Commands a room receives.
#[derive(Debug)]
pub enum RoomCmd {
    /// Subscribe a connection. The room sends the welcome (and what was
    /// missed after `last_seq`) into `out`, then answers with a subscriber id.
    Join {
        viewer: Viewer,
        last_seq: Option<u64>,
        out: Outbound,
        reply: oneshot::Sender<Result<u64, Joining>>,
    },
    /// An action from subscriber `sub`, whose player holds seat `player`,
    /// for `seat` (its own, or one handed to it); answered in its outbound
    /// queue. The connection established `player` (by its token) and
    /// refused spectators: the room trusts it, and checks `seat`.
    Act {
        sub: u64,
        player: Seat,
        seat: Seat,
        id: u64,
        action: Value,
    },
    /// Take back seat `player`'s own last action.
    TakeBack {
        sub: u64,
        player: Seat,
        id: u64,
    },
    /// Hand control of seat `hand.seat` to `hand.to`, asked by `player`.
    Hand {
        sub: u64,
        player: Seat,
        id: u64,
        hand: Hand,
    },
    /// Propose a party decision (`propose`), for `seat`.
    Propose {
        sub: u64,
        player: Seat,
        seat: Seat,
        id: u64,
        action: Value,
    },
    /// Agree to the party's proposal.
    Agree {
        sub: u64,
        player: Seat,
        id: u64,
    },
    /// Object to the party's proposal.
    Object {
        sub: u64,
        player: Seat,
        id: u64,
    },
    /// A chat line from subscriber `sub` (a seat or a spectator).
    Chat {
        sub: u64,
        id: u64,
        text: String,
    },
    Leave {
        sub: u64,
    },
}

/// A handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<RoomCmd>,
    /// The seats with a connection open to the room now, which the room
    /// updates as they come and go: a campaign's status reads it without a
    /// round trip to the room (and without loading one).
    pub connected: watch::Receiver<Vec<Seat>>,
}
