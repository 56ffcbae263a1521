//! Wire types shared by the Athlas server and its clients.
//!
//! The WebSocket envelopes ([`ClientMsg`], [`ServerMsg`]), the HTTP lobby
//! bodies and the stable error codes ([`code`]) are plain serde data.
//! Game-specific payloads (actions, views, events) travel as JSON values
//! inside the envelopes; each game documents its own (`DUEL.md`,
//! `DIVINITY.md`). Two more parts of the contract live here because both
//! sides compute them: [`hash`], the state hash a stored record carries and
//! a client checks when it verifies a published log (`athlas verify`), which
//! is why this crate depends on `sha2`, `blake3` and `hex` besides serde; and
//! [`process`], the names under which `/metrics` exposes a process's cost,
//! read back by the load generator.
//!
//! **Architecture Invariant:** this crate knows no game, no runtime and no I/O;
//! a client depends on it alone.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the envelope format. A client may state the version it speaks
/// in `hello`/`watch`; the server refuses other versions with
/// [`code::UNSUPPORTED_PROTOCOL`] and always states its own in `welcome`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Largest text frame the server accepts, in bytes. Larger frames are refused
/// with [`code::FRAME_TOO_LARGE`] (the connection stays open).
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// A seat at the table, counted from 0.
pub type Seat = u8;

/// What a client sends on `/ws`, one JSON text frame each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Take a seat with the token the lobby gave. `last_seq` (the `seq` of
    /// the last message seen) asks for every update missed since.
    ///
    /// `legal: false` declines the legal actions in `welcome`/`update`
    /// (listing them costs the server far more than applying an action; a
    /// client that knows the rules, or a load generator, may do without).
    Hello {
        token: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_seq: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        protocol: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        legal: Option<bool>,
    },
    /// Watch a match as a spectator (public view only).
    Watch {
        match_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_seq: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        protocol: Option<u32>,
    },
    /// Ask for an action. `id` is the client's own number, echoed in the
    /// `ack` or `error` that answers it.
    ///
    /// `seat` acts for another seat of a campaign whose control was handed
    /// to this connection's seat (see `hand`); absent: the connection's own.
    Act {
        id: u64,
        action: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Take back this seat's own last action (answered by `ack` with the
    /// take-back's own `seq`, or by an `error`). Allowed while no other seat
    /// has acted since and the game says the action revealed nothing (no
    /// die rolled, no card or deck revealed).
    TakeBack { id: u64 },
    /// Hand control of `seat` to seat `to` (`to` null: back to its owner).
    /// A seat may hand itself; the campaign's host (seat 0) or the party's
    /// leader may hand a seat whose player is not connected; the owner takes
    /// it back on return with `to: null`.
    Hand {
        id: u64,
        seat: Seat,
        #[serde(default)]
        to: Option<Seat>,
    },
    /// Propose a party decision to the party (a game's `party_decision`,
    /// Divinity's round choice, card order, tie breaks… when the party has
    /// no leader): every seat connected must `agree` before it is taken,
    /// and any may `object`. Answered by a `proposal` to everyone, or by
    /// the action's `ack` when the proposer is the only seat at the table.
    Propose {
        id: u64,
        action: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
    },
    /// Agree to the party's current proposal; the last agreement takes it
    /// (answered by the action's `ack`).
    Agree { id: u64 },
    /// Object to the party's current proposal: it is withdrawn.
    Object { id: u64 },
    /// Say something at the table: seats speak to the party, spectators to
    /// the spectators. Text only, at most [`MAX_CHAT_CHARS`] characters.
    Chat { id: u64, text: String },
    /// Keep-alive; answered by `pong`.
    Ping,
}

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;

/// Who reads a chat line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The seats of the match.
    Party,
    /// Its spectators.
    Spectators,
}

/// What the server sends on `/ws`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`/`watch`: where the match is now and what this
    /// receiver may see. `seat` is null for spectators.
    Welcome {
        protocol: u32,
        match_id: String,
        game: String,
        seat: Option<Seat>,
        seq: u64,
        /// The engine's status: `{"status":"waiting","seats":[..]}` or
        /// `{"status":"finished","result":"win","seat":S}` / `{"status":"finished","result":"draw"}`.
        status: Value,
        view: Value,
        /// Milliseconds until the server acts for the waiting seat (a live
        /// match's response window), counted when the frame was sent;
        /// absent when nothing is timed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timer_ms: Option<u64>,
        /// The actions this receiver may send now: for its own seat and for
        /// every seat handed to it, each only while the game waits for it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        legal: Vec<LegalFor>,
        /// Who controls each seat: `control[s]` is the seat whose player acts
        /// for seat `s`, or null when its owner does. Absent when nobody has
        /// handed a seat.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        control: Option<Vec<Option<Seat>>>,
        /// The campaign this match is a location/game of.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        campaign_id: Option<String>,
        /// For a game that describes itself in words (the duel,
        /// Divinity): the match's past events this receiver may see, in
        /// words, oldest first, up to `seq`: the whole match (its latest
        /// [`LOG_RECORDS`] records). Absent for other games.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        log: Vec<LogLine>,
        /// The players' display names by seat (null where a seat has none
        /// yet): public, read by spectators too. Absent when no seat has one.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        names: Vec<Option<String>>,
        /// A resume's welcome (`hello` with `last_seq`) is at that old seq,
        /// and the updates it missed follow, up to this seq: until then its
        /// view (and a view's own legal list) is history, not the game now.
        /// Absent on a welcome that is now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resumes_to: Option<u64>,
    },
    /// A player took a seat with a name after this receiver's welcome: the
    /// players' names by seat now, as in `Welcome`.
    Names { names: Vec<Option<String>> },
    /// An accepted action of the match, as this receiver may see it.
    Update {
        seq: u64,
        /// The seat that acted (or for whom a timer acted).
        seat: Seat,
        /// Only the events this receiver may see.
        events: Vec<Value>,
        /// For a game that describes itself in words: `events` in words,
        /// one line each, in order. Absent for other games.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        log: Vec<String>,
        status: Value,
        /// This receiver's own view after the change.
        view: Value,
        /// As in `Welcome`: the time left of a timed window now open.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timer_ms: Option<u64>,
        /// The player who sent it, when another seat's player acted for
        /// `seat` (a handed seat).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sender: Option<Seat>,
        /// This record took back the action of sequence number
        /// `taken_back` (by `seat`); `events` is then empty and `view` is
        /// the view as it was before that action.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        taken_back: Option<u64>,
        /// As in `Welcome`, after this record.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        legal: Vec<LegalFor>,
        /// As in `Welcome`; sent with every update while any seat is handed,
        /// and once as all-null when the last one is returned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        control: Option<Vec<Option<Seat>>>,
    },
    /// The action `id` was accepted, stored, and is sequence number `seq`.
    Ack { id: u64, seq: u64 },
    /// Something was refused. `id` is set when it answers an `act`.
    /// Nothing changed; the connection stays open.
    Error {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        code: String,
        message: String,
        /// `room_elsewhere` in a cluster: the WebSocket URL of the node
        /// that plays the match now; say `hello` there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<String>,
    },
    /// A seat locked in its hidden secret: `hash` = hex SHA-256(salt ‖
    /// canonical JSON of the secret). The salt comes with `reveal`.
    Commitment { seat: Seat, hash: String, seq: u64 },
    /// The match is over: the salt and secret behind a seat's commitment, so
    /// anyone can check `sha256(hex_decode(salt) ‖ canonical_json(secret)) == hash`.
    Reveal { seat: Seat, salt: String, secret: Value, hash: String },
    /// The match is over: the seed the engine used, for audits and replays.
    Seed { seed: String },
    /// The party's current proposal (`propose`), as it stands: who made it
    /// for which seat, the action and its words, who agreed and who (of the
    /// seats connected) may still object. `withdrawn` is the seat that
    /// objected; the proposal is then gone. Any update also ends it.
    Proposal {
        by: Seat,
        seat: Seat,
        action: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        words: Option<Value>,
        agreed: Vec<Seat>,
        waiting: Vec<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        withdrawn: Option<Seat>,
        /// The seq it was made at.
        seq: u64,
    },
    /// A chat line (`chat`): the party's to seats, the spectators' to
    /// spectators. `n` counts the match's lines; `seat` is null for a
    /// spectator; `at` is milliseconds since the Unix epoch. `id` answers
    /// the sender's own `chat`. After a welcome come the latest lines of
    /// the receiver's channel.
    Chat {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        n: u64,
        channel: Channel,
        seat: Option<Seat>,
        text: String,
        at: u64,
    },
    /// Answer to `ping`.
    Pong,
}

/// The legal actions of one seat, as the game lists them (each a valid
/// `action` of `act`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegalFor {
    pub seat: Seat,
    /// Left out for a game whose view lists the legal actions itself (the
    /// duel's `view.legal`): `words` then says those.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Value>,
    /// For a game that describes itself in words: `actions` (or the view's
    /// list) in words, one each, in order (Divinity: `{"text", "group",
    /// "warn"?}`; the duel: `{"text", "group"}`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<Value>,
}

/// One line of a match's log in words, with the record it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    pub seq: u64,
    pub text: String,
}

/// How many of the latest records a welcome's `log` covers: far more than
/// a whole game takes (a long duel is some 600 records, a Divinity
/// location a few hundred), so a welcome tells the whole game from its
/// start; the bound only keeps an endless match from growing its room
/// without end.
pub const LOG_RECORDS: usize = 10_000;

impl ServerMsg {
    /// An error frame.
    pub fn error(id: Option<u64>, code: &str, message: impl Into<String>) -> Self {
        ServerMsg::Error { id, code: code.to_owned(), message: message.into(), at: None }
    }

    /// An error that names where to go instead (`room_elsewhere`).
    pub fn error_at(code: &str, message: impl Into<String>, at: String) -> Self {
        ServerMsg::Error { id: None, code: code.to_owned(), message: message.into(), at: Some(at) }
    }
}

/// `POST /api/matches` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreateMatch {
    pub game: String,
    /// The creator's display name ([`MAX_NAME_CHARS`], see `bad_name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game's options plus the server's own: `"live": true` for a live
    /// match (timed response windows); absent or false = correspondence.
    /// `"private": true`: never listed by `GET /api/matches`; the opponent
    /// joins with the join code, spectators watch by match id.
    #[serde(default)]
    pub options: Value,
}

/// `201` answer to `POST /api/matches`: the creator holds seat 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Created {
    pub match_id: String,
    pub seat: Seat,
    /// The seat token: keep it secret, it is the only proof of the seat.
    pub token: String,
    /// Give this to the opponent: `POST /api/join/{join_code}`.
    pub join_code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign_id: Option<String>,
}

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// `POST /api/join/{join_code}` body (optional: no body, no name).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinMatch {
    /// The joining player's display name, as in [`CreateMatch`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Answer to `POST /api/matches/{id}/transfer`: a one-time code that
/// brings the seat to another browser or device.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransferOffer {
    /// Eight characters of an alphabet without look-alikes; single use.
    pub code: String,
    /// The path to open on the other device: `/transfer/{code}`.
    pub path: String,
    /// Milliseconds since the Unix epoch after which it is refused.
    pub expires_at: u64,
}

/// Answer to `POST /api/transfer/{code}`: a new seat token of the same seat
/// (the first device keeps its own).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transferred {
    pub match_id: String,
    pub game: String,
    pub seat: Seat,
    pub token: String,
}

/// Answer to `POST /api/join/{join_code}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Joined {
    pub match_id: String,
    pub seat: Seat,
    pub token: String,
}

/// A finished match's whole record, for anyone to replay and check:
/// `GET /api/matches/{id}/log` (`athlas verify`). Published only once the
/// match has ended, when nothing in it is secret any more.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchLog {
    pub match_id: String,
    pub game: String,
    pub rules_version: u32,
    /// The game's options as stored (the server's own keys included).
    pub options: Value,
    pub seed: u64,
    pub seats: u32,
    /// The engine's outcome, as stored when the match ended.
    pub outcome: Option<Value>,
    /// Every log record, in order.
    pub records: Vec<LogRecord>,
    /// Each seat's commitment to its locked secret, with its salt.
    pub commitments: Vec<LogCommitment>,
}

/// One record of a [`MatchLog`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogRecord {
    pub seq: u64,
    pub seat: Seat,
    /// `action`, `take_back` (`action` is `{"seq": N}`) or `hand`
    /// (`{"seat": S, "to": T|null}`).
    pub kind: String,
    pub action: Value,
    /// The seat whose player sent it, when not `seat`'s own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender: Option<Seat>,
    /// Hex SHA-256 of the JSON of the engine state after this record
    /// (absent for records stored before hashes were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_hash: Option<String>,
}

/// A commitment of a [`MatchLog`]: hex SHA-256(salt ‖ canonical JSON of
/// the secret the seat had locked after record `seq`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogCommitment {
    pub seat: Seat,
    pub hash: String,
    pub salt: String,
    pub seq: u64,
}

/// Answer to `POST /api/matches/{id}/rematch`: the seat in the rematch
/// and its token, for the offering seat (`offered`: the match is made
/// when the other seat accepts) and for the accepting one (`accepted`,
/// with the rematch's id).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RematchSeat {
    /// `offered` or `accepted`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_id: Option<String>,
    /// This player's seat in the rematch: the seats are swapped.
    pub seat: Seat,
    /// This player's seat token in the rematch: keep it secret.
    pub token: String,
}

/// `GET /api/matches/{id}/rematch`: whether a rematch was offered, by
/// which seat, and the rematch once accepted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RematchStatus {
    pub offered_by: Option<Seat>,
    pub match_id: Option<String>,
}

/// Public summary of a match: `GET /api/matches/{id}` and lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    pub match_id: String,
    pub game: String,
    /// `open` (seats free), `active`, or `finished`.
    pub status: String,
    pub seats: u32,
    pub seats_taken: Vec<Seat>,
    pub seq: u64,
    pub live: bool,
    /// Created with `"private": true`: never listed, and no `join_code`
    /// here (the id is what spectators get).
    #[serde(default)]
    pub private: bool,
    /// Only for open matches that are not private, so they can be joined
    /// from a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join_code: Option<String>,
    /// The engine's outcome once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign_id: Option<String>,
}

/// `GET /api/matches?status=open`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchList {
    pub matches: Vec<MatchSummary>,
}

/// `POST /api/campaigns` body: a campaign of `game` for `seats` players.
/// The creator holds seat 0 (the host); friends join with the join code.
/// Seat tokens of a campaign are valid for every match of it: `hello`
/// with one joins the campaign's current match.
///
/// Campaign requests that act for a seat carry its token in the
/// `Authorization: Bearer <token>` header, never in the URL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CreateCampaign {
    pub game: String,
    /// Number of seats; absent: the game's default (the duel: 2; Divinity:
    /// the length of `options.party` if given, else 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<u32>,
    /// The game's campaign options plus the server's own (`live`,
    /// `private`, as for matches, and `turn_timer_ms`, 100 to 86 400 000:
    /// a turn timer kept by every match of the campaign).
    #[serde(default)]
    pub options: Value,
}

/// `201` answer to `POST /api/campaigns` and `POST /api/campaigns/join/{code}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignSeat {
    pub campaign_id: String,
    pub seat: Seat,
    /// The seat token for every match of the campaign: keep it secret.
    pub token: String,
    /// Give this to friends: `POST /api/campaigns/join/{join_code}`.
    /// Absent in the answer to a join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join_code: Option<String>,
}

/// `POST /api/campaigns/{id}/choose` body (bearer token): a seat's choice
/// before a match of the campaign starts. Divinity:
/// `{"choice":{"origin":"ifan"}}` (before the first location, no two the
/// same) or `{"choice":{"leader":1}}` / `{"choice":{"leader":null}}`
/// (the host or the current leader, between locations).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignChoice {
    pub choice: Value,
}

/// `POST /api/campaigns/mine` body: the seat tokens a player keeps; the
/// answer lists the campaign of each valid one (in the same order,
/// unknown tokens left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MyCampaigns {
    pub tokens: Vec<String>,
}

/// `GET /api/campaigns/{id}` (and each entry of `POST /api/campaigns/mine`):
/// where the party stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignStatus {
    pub campaign_id: String,
    pub game: String,
    pub rules_version: u32,
    /// `choosing` (seats still to choose or to join), `playing` (a match is
    /// on), `between` (the last match ended; the next may be started with
    /// `POST /api/campaigns/{id}/next`), `over`.
    pub stage: String,
    pub seats: Vec<CampaignSeatStatus>,
    /// The seat of the caller's token (from `mine`, or a bearer header on
    /// `GET`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Seat>,
    /// Seats still to make a choice before the next match can start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choosing: Vec<Seat>,
    /// The match being played, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<CampaignMatch>,
    /// Every match of the campaign, in order (the current one last).
    pub matches: Vec<CampaignMatch>,
    /// The campaign state between matches, as the game keeps it (public: it
    /// holds no hidden thing). Divinity: next location, level, gold,
    /// journal, each Origin's saved sheet.
    pub saved: Value,
    /// Milliseconds a seat has for a timed decision (Divinity: an Origin's
    /// combat turn, an enemy roll's reroll window): the campaign's own
    /// `turn_timer_ms`, else the server's response timer for a `live`
    /// campaign; absent: nothing is timed (correspondence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_timer_ms: Option<u64>,
}

/// One seat of a campaign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignSeatStatus {
    pub seat: Seat,
    /// A player holds this seat (the join code was used for it).
    pub taken: bool,
    /// A connection of this seat is open to the current match now (false
    /// for every seat between matches).
    pub connected: bool,
    /// The game's label of the seat (Divinity: its Origin once chosen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The seat whose player acts for it now in the current match, if
    /// handed (from the match's log: it survives a restart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controlled_by: Option<Seat>,
}

/// A match of a campaign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CampaignMatch {
    pub match_id: String,
    /// `open`, `active` or `finished`.
    pub status: String,
    /// Actions so far.
    pub seq: u64,
    /// The game's public summary of where the match stands after its
    /// latest action (null before the first). Divinity: `location`,
    /// `level`, `round`, `round_kind`, `phase`, `active`, `waiting`,
    /// `outcome`; other games: the engine's status.
    #[serde(default)]
    pub standing: Value,
    /// The engine's outcome once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
}

/// `201` answer to `POST /api/campaigns/{id}/next`: the new match (every
/// seat's campaign token already holds its seat there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NextMatch {
    pub campaign_id: String,
    pub match_id: String,
}

/// Every HTTP error body, and the `code`/`message` of error frames.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub code: String,
    pub message: String,
}

pub mod hash;
pub mod process;

pub use hash::state_hash;

pub mod code;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn client_messages_parse_from_the_documented_json() {
        let hello: ClientMsg = serde_json::from_value(json!({"type":"hello","token":"t","last_seq":3})).unwrap();
        assert_eq!(hello, ClientMsg::Hello { token: "t".into(), last_seq: Some(3), protocol: None, legal: None });
        let act: ClientMsg = serde_json::from_value(json!({"type":"act","id":7,"action":{"type":"pass"}})).unwrap();
        assert_eq!(act, ClientMsg::Act { id: 7, action: json!({"type":"pass"}), seat: None });
        let watch: ClientMsg = serde_json::from_value(json!({"type":"watch","match_id":"m"})).unwrap();
        assert!(matches!(watch, ClientMsg::Watch { last_seq: None, .. }));
    }

    #[test]
    fn server_messages_serialize_with_a_type_tag() {
        let ack = serde_json::to_value(ServerMsg::Ack { id: 1, seq: 2 }).unwrap();
        assert_eq!(ack, json!({"type":"ack","id":1,"seq":2}));
        let err = serde_json::to_value(ServerMsg::error(None, code::BAD_JSON, "x")).unwrap();
        assert_eq!(err, json!({"type":"error","code":"bad_json","message":"x"}));
    }
}
