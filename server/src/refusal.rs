//! The server's one refusal type. Everything the server refuses, on HTTP
//! and on the WebSocket, is a [`Refusal`]: one of the server's own codes
//! ([`Code`], declared once with the engine's `refusals!`, each with its
//! meaning) with words for people, or a game's rule refusal
//! ([`RuleError`], whose code is the game's own) carried whole. The HTTP
//! status is chosen from the code in one place ([`Code::status`]), and the
//! server's decisions (retry, reload, which status) match on variants.
//!
//! A store failure becomes a refusal in [`crate::store`] (`store_unavailable`
//! or `internal`), which this module does not import.
//!
//! `protocol/PROTOCOL.md`'s table lists every [`Code`] and nothing else
//! (`server/tests/refusal_doc.rs`); the clients' constants
//! (`athlas_protocol::code`) are checked against it there too.

use athlas_engine::{refusal::Refusal as _, RuleError};
use athlas_protocol::{ErrorBody, ServerMsg};
use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};

athlas_engine::refusals! {
    /// The server's own refusal codes (protocol/PROTOCOL.md, Errors).
    pub enum Code {
        /// Not JSON, or not the expected shape.
        BadJson = "bad_json",
        /// A query or path that is not of the expected shape.
        BadRequest = "bad_request",
        /// A frame `type` this protocol does not know.
        UnknownType = "unknown_type",
        /// `hello`/`watch` named another protocol version.
        UnsupportedProtocol = "unsupported_protocol",
        /// A seat token that holds no seat.
        BadToken = "bad_token",
        /// `act` before a successful `hello`, or from a spectator.
        NotSeated = "not_seated",
        /// A second `hello`/`watch` on one connection.
        AlreadyJoined = "already_joined",
        /// The `action` is not an action of this game.
        BadAction = "bad_action",
        /// The game does not wait for this seat (also every engine's code).
        NotYourTurn = "not_your_turn",
        /// The match is over (also every engine's code).
        Finished = "finished",
        /// A seat the match does not have (every engine's code).
        NoSuchSeat = "no_such_seat",
        /// Every seat is taken.
        MatchFull = "match_full",
        /// No such match, join code or campaign.
        NotFound = "not_found",
        /// This server does not host that game.
        UnknownGame = "unknown_game",
        /// The game refused the options.
        BadOptions = "bad_options",
        /// Options within the rules but over what this server hosts.
        SummoningPointsOverCap = "summoning_points_over_cap",
        /// The game has no campaign variant.
        Campaign = "campaign",
        /// A request that acts for a seat has no bearer token.
        NoToken = "no_token",
        /// A campaign's next match cannot start now.
        NotReadyForNext = "not_ready_for_next",
        /// Only the party's leader decides this (also the games' code).
        NotLeader = "not_leader",
        /// A frame over 64 KiB.
        FrameTooLarge = "frame_too_large",
        /// Too many frames or requests too fast.
        RateLimited = "rate_limited",
        /// The connection fell too far behind and is closed.
        Lagged = "lagged",
        /// The server is stopping.
        ShuttingDown = "shutting_down",
        /// `act` with a seat that is not handed to this player.
        NotYourSeat = "not_your_seat",
        /// `take_back`: no action left to take back.
        NothingToTakeBack = "nothing_to_take_back",
        /// `take_back`: another seat acted since.
        OthersActed = "others_acted",
        /// `take_back`: the action revealed something (the game's refusal).
        Revealed = "revealed",
        /// `take_back`: this game has none.
        NoTakeBack = "no_take_back",
        /// `hand`: not this player's to hand.
        CannotHand = "cannot_hand",
        /// A server failure; nothing was changed.
        Internal = "internal",
        /// The database does not answer; nothing was changed.
        StoreUnavailable = "store_unavailable",
        /// In a cluster, another node plays this match now.
        RoomElsewhere = "room_elsewhere",
        /// The match has not ended.
        NotFinished = "not_finished",
        /// The stored log does not replay to what was stored.
        LogDiverged = "log_diverged",
        /// The match already has its rematch.
        AlreadyRematched = "already_rematched",
        /// A match that has no rematch.
        NoRematch = "no_rematch",
        /// `propose`: not an action the party decides together now.
        NotAPartyDecision = "not_a_party_decision",
        /// `propose`: not among the seat's legal actions now.
        NotLegal = "not_legal",
        /// `agree`/`object`: the party has no proposal now.
        NoProposal = "no_proposal",
        /// A player's name the server does not take.
        BadName = "bad_name",
        /// A transfer code already redeemed.
        TransferUsed = "transfer_used",
        /// A transfer code older than its 10 minutes.
        TransferExpired = "transfer_expired",
        /// A campaign's seat moves with its campaign's link.
        NoTransfer = "no_transfer",
        /// `chat`: not a line the table takes.
        BadChat = "bad_chat",
        /// Not a push subscription the server pushes to.
        BadSubscription = "bad_subscription",
        /// `chat`: too many lines too fast.
        ChatTooFast = "chat_too_fast",
        /// Played under rules this server does not play.
        UnsupportedRulesVersion = "unsupported_rules_version",
        /// `/readyz`: the store is not ready.
        NotReady = "not_ready",
        /// `/ws`: the server or this address holds its maximum of connections.
        TooManyConnections = "too_many_connections",
        /// A request body over 1 MiB.
        TooLarge = "too_large",
        /// Neither `hello` nor `watch` in time.
        HelloTimeout = "hello_timeout",
        /// `/ws`: a browser's `Origin` that is not allowed.
        OriginNotAllowed = "origin_not_allowed",
    }
}

impl Code {
    /// The code spelled `code`, if the server has it.
    pub fn parse(code: &str) -> Option<Code> {
        Code::all().iter().copied().find(|c| c.code() == code)
    }

    /// The HTTP status a refusal of this code is answered with: the one
    /// place it is chosen. Codes only the WebSocket sends say 422.
    pub fn status(self) -> StatusCode {
        use Code::*;
        match self {
            BadJson
            | BadRequest
            | UnknownGame
            | BadOptions
            | SummoningPointsOverCap
            | Campaign
            | BadName
            | BadSubscription => StatusCode::BAD_REQUEST,
            NoToken => StatusCode::UNAUTHORIZED,
            BadToken | NotLeader | OriginNotAllowed => StatusCode::FORBIDDEN,
            NotFound => StatusCode::NOT_FOUND,
            MatchFull | NotReadyForNext | NotFinished | LogDiverged | AlreadyRematched | NoRematch | TransferUsed
            | TransferExpired | NoTransfer => StatusCode::CONFLICT,
            TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            RateLimited => StatusCode::TOO_MANY_REQUESTS,
            // A fenced write (another node took the match over) answered on
            // HTTP is the server's failure, as before it had a code.
            Internal | RoomElsewhere => StatusCode::INTERNAL_SERVER_ERROR,
            StoreUnavailable | ShuttingDown | NotReady | TooManyConnections => StatusCode::SERVICE_UNAVAILABLE,
            UnknownType
            | UnsupportedProtocol
            | NotSeated
            | AlreadyJoined
            | BadAction
            | NotYourTurn
            | Finished
            | NoSuchSeat
            | FrameTooLarge
            | Lagged
            | NotYourSeat
            | NothingToTakeBack
            | OthersActed
            | Revealed
            | NoTakeBack
            | CannotHand
            | NotAPartyDecision
            | NotLegal
            | NoProposal
            | BadChat
            | ChatTooFast
            | UnsupportedRulesVersion
            | HelloTimeout => StatusCode::UNPROCESSABLE_ENTITY,
        }
    }
}

/// A code compares with its spelling, as clients see it.
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.code() == *other
    }
}

/// Why the server refused something, as a client is told it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The server's own refusal, with words for people.
    #[error("{1}")]
    Server(Code, String),
    /// A game's rules refuse (its own code).
    #[error("{0}")]
    Rule(RuleError),
}

impl Refusal {
    /// The server refuses with `code`.
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal::Server(code, message.into())
    }

    /// The stable code clients switch on.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Server(c, _) => c.code(),
            Refusal::Rule(e) => e.code,
        }
    }

    /// The server's code, when it is one of the server's (a game's code
    /// that the server shares, such as `not_leader`, counts).
    pub fn server_code(&self) -> Option<Code> {
        match self {
            Refusal::Server(c, _) => Some(*c),
            Refusal::Rule(e) => Code::parse(e.code),
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Refusal::Server(_, m) => m,
            Refusal::Rule(e) => &e.message,
        }
    }

    /// The HTTP status: the code's ([`Code::status`]); a game's own rule
    /// refusal is 422, unless its code is one the server shares.
    pub fn status(&self) -> StatusCode {
        self.server_code().map_or(StatusCode::UNPROCESSABLE_ENTITY, Code::status)
    }

    /// The WebSocket `error` frame of this refusal (`id`: the request's).
    pub fn frame(&self, id: Option<u64>) -> ServerMsg {
        ServerMsg::error(id, self.code(), self.message())
    }

    /// The body of an HTTP answer or of an `error` frame.
    pub fn body(&self) -> ErrorBody {
        ErrorBody { code: self.code().to_owned(), message: self.message().to_owned() }
    }
}

impl From<RuleError> for Refusal {
    fn from(e: RuleError) -> Refusal {
        Refusal::Rule(e)
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status(), Json(self.body())).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_found_by_its_spelling_and_a_rule_refusal_keeps_the_games_code() {
        assert_eq!(Code::parse("match_full"), Some(Code::MatchFull));
        assert_eq!(Code::parse("origin_taken"), None);
        let rule = Refusal::from(RuleError::new("origin_taken", "Ifan is taken"));
        assert_eq!((rule.code(), rule.status()), ("origin_taken", StatusCode::UNPROCESSABLE_ENTITY));
        let leader = Refusal::from(RuleError::new("not_leader", "the leader decides"));
        assert_eq!(leader.status(), StatusCode::FORBIDDEN);
    }
}
