//! Stable error codes. Clients switch on these; messages are for people.
//! Rule errors use the engine's own codes (for example `not_your_turn`).

/// A frame or body that is not valid JSON, or not the expected shape.
pub const BAD_JSON: &str = "bad_json";
/// A request (HTTP query, path) that is not of the expected shape.
pub const BAD_REQUEST: &str = "bad_request";
/// A `type` this protocol does not know.
pub const UNKNOWN_TYPE: &str = "unknown_type";
/// A `protocol` version the server does not speak.
pub const UNSUPPORTED_PROTOCOL: &str = "unsupported_protocol";
/// A seat token that matches no seat.
pub const BAD_TOKEN: &str = "bad_token";
/// `act` before a successful `hello`, or by a spectator.
pub const NOT_SEATED: &str = "not_seated";
/// A second `hello`/`watch` on one connection.
pub const ALREADY_JOINED: &str = "already_joined";
/// The action JSON is not an action of this game.
pub const BAD_ACTION: &str = "bad_action";
/// The acting seat is not expected to act now (the engine may also use it).
pub const NOT_YOUR_TURN: &str = "not_your_turn";
/// The match is over (every game's engine refuses with this code too).
pub const FINISHED: &str = "finished";
/// A seat the match does not have (every game's engine uses this code).
pub const NO_SUCH_SEAT: &str = "no_such_seat";
/// Every seat of the match is taken.
pub const MATCH_FULL: &str = "match_full";
/// No such match, join code or campaign.
pub const NOT_FOUND: &str = "not_found";
/// No such game on this server.
pub const UNKNOWN_GAME: &str = "unknown_game";
/// The game refused the options.
pub const BAD_OPTIONS: &str = "bad_options";
/// The options are within the rules but over what this server hosts
/// (a duel's summoning points above `--max-summoning-points`).
pub const SUMMONING_POINTS_OVER_CAP: &str = "summoning_points_over_cap";
/// A frame over [`super::MAX_FRAME_BYTES`].
pub const FRAME_TOO_LARGE: &str = "frame_too_large";
/// Too many frames too fast; the frame was dropped.
pub const RATE_LIMITED: &str = "rate_limited";
/// The connection fell too far behind; reconnect with `last_seq`.
pub const LAGGED: &str = "lagged";
/// Campaign: the game has no campaign variant.
pub const CAMPAIGN: &str = "campaign";
/// `Authorization: Bearer <token>` missing on a request that needs a seat.
pub const NO_TOKEN: &str = "no_token";
/// Campaign: the next match cannot start yet (choices missing, a match
/// still being played) or any more (the campaign is over).
pub const NOT_READY_FOR_NEXT: &str = "not_ready_for_next";
/// Campaign: a choice is not allowed from this seat now (only the
/// leader, or the host when there is none, starts the next match or
/// sets the leader).
pub const NOT_LEADER: &str = "not_leader";
/// `take_back`: this seat has no action to take back (none yet, or its
/// last one was already taken back, or the match is over).
pub const NOTHING_TO_TAKE_BACK: &str = "nothing_to_take_back";
/// `take_back`: another seat has acted since.
pub const OTHERS_ACTED: &str = "others_acted";
/// `take_back`: the action revealed something (a die was rolled, a card
/// or deck revealed) — the game's own refusal; also `no_take_back` for a
/// game without take-back.
pub const REVEALED: &str = "revealed";
/// `hand`: this seat may not hand that seat now (not its own, not the
/// host/leader, or the seat's player is connected).
pub const CANNOT_HAND: &str = "cannot_hand";
/// `act` with `seat`: that seat is not handed to this connection's seat.
pub const NOT_YOUR_SEAT: &str = "not_your_seat";
/// Something failed on the server; nothing was changed.
pub const INTERNAL: &str = "internal";
/// The database does not answer (restarting, stopped, disk full or
/// read-only); nothing was changed or acknowledged. Retry: the same
/// server carries on once the store is back.
pub const STORE_UNAVAILABLE: &str = "store_unavailable";
/// The server is shutting down; reconnect later.
pub const SHUTTING_DOWN: &str = "shutting_down";
/// `/readyz`: the store does not answer or is not migrated.
pub const NOT_READY: &str = "not_ready";
/// `/ws`: the server holds its maximum number of connections.
pub const TOO_MANY_CONNECTIONS: &str = "too_many_connections";
/// `/ws`: the request's `Origin` is not among the allowed origins.
pub const ORIGIN_NOT_ALLOWED: &str = "origin_not_allowed";
/// HTTP: a request body over the limit (1 MiB); it was not read.
pub const TOO_LARGE: &str = "too_large";
/// A connection said neither `hello` nor `watch` in time; it is closed.
pub const HELLO_TIMEOUT: &str = "hello_timeout";
/// The match was played under a rules version this server does not
/// play; it is not replayed differently, it is refused.
pub const UNSUPPORTED_RULES_VERSION: &str = "unsupported_rules_version";
/// `GET /api/matches/{id}/log`: the match has not ended; its log is
/// published once it has.
pub const NOT_FINISHED: &str = "not_finished";
/// In a cluster: another node plays this match now (or took it over
/// from this one); nothing was written. Reconnect with `last_seq`,
/// through the cluster's front (or to the node named), or retry shortly.
pub const ROOM_ELSEWHERE: &str = "room_elsewhere";
/// `propose`: the action is not one the party decides together now
/// (send it as an `act`).
pub const NOT_A_PARTY_DECISION: &str = "not_a_party_decision";
/// `propose`: the action is not among the seat's legal actions now.
pub const NOT_LEGAL: &str = "not_legal";
/// `agree`/`object`: the party has no proposal now.
pub const NO_PROPOSAL: &str = "no_proposal";
/// `chat`: empty, too long, or not plain text.
pub const BAD_CHAT: &str = "bad_chat";
/// `chat`: more lines than the table allows (5 at once, then one every 2 s).
pub const CHAT_TOO_FAST: &str = "chat_too_fast";
/// `GET /api/matches/{id}/replay`: the stored log does not replay to
/// the stored state hashes, commitments or outcome.
pub const LOG_DIVERGED: &str = "log_diverged";
/// `POST /api/matches/{id}/rematch`: this match already has its rematch.
pub const ALREADY_REMATCHED: &str = "already_rematched";
/// `POST /api/matches/{id}/rematch`: this match has none (a campaign's
/// match goes on in its campaign; only a two-seat match has one).
pub const NO_REMATCH: &str = "no_rematch";
/// `POST /api/matches/{id}/push`: not a push subscription the server
/// will push to (an endpoint that is not https, keys missing or bad).
pub const BAD_SUBSCRIPTION: &str = "bad_subscription";
/// Creating or joining: the display name is empty, longer than
/// [`super::MAX_NAME_CHARS`], or holds characters other than letters,
/// digits, spaces and common punctuation.
pub const BAD_NAME: &str = "bad_name";
/// `POST /api/transfer/{code}`: the code was already used.
pub const TRANSFER_USED: &str = "transfer_used";
/// `POST /api/transfer/{code}`: the code is older than its 10 minutes.
pub const TRANSFER_EXPIRED: &str = "transfer_expired";
/// `POST /api/matches/{id}/transfer`: a campaign's seat moves with the
/// campaign's token, not a match's.
pub const NO_TRANSFER: &str = "no_transfer";
