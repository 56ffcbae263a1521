//! Pure rules engines for Athlas.
//!
//! A game is a [`Ruleset`]: it starts a state from options and a seed, applies
//! one seat's action at a time, and shows each viewer only what that viewer may
//! see. Nothing here does I/O, reads a clock or touches a global RNG: the same
//! options, seed and action log always rebuild the same state, which is what
//! persistence, crash recovery, replays and audits stand on.
//!
//! **Architecture Invariant:** this crate depends on no async runtime and no I/O.
//! Content files are compiled in with `include_str!` and parsed at start.

pub mod campaign;
pub mod clans;
pub mod divinity;
pub mod duel;
pub mod hex;
mod json;
pub mod nim;
pub mod refusal;
pub mod rng;
pub mod shared;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// A player's seat at the table, counted from 0.
pub type Seat = u8;

/// Who is looking at a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "seat")]
pub enum Viewer {
    /// A player: sees the public state plus that seat's own secrets.
    Seat(Seat),
    /// Anyone else: sees only what is public.
    Spectator,
}

impl Viewer {
    /// The seat of this viewer, if it is a player.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

/// The players' display names by seat, for a game's words: chosen by the
/// players and kept by the server beside the match (never in its state, so
/// a name changes no hash and no replay). A seat without one is "Seat N".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatNames(Vec<Option<String>>);

/// No names at all: every seat is "Seat N".
static NO_NAMES: SeatNames = SeatNames(Vec::new());

impl SeatNames {
    pub fn new(names: Vec<Option<String>>) -> Self {
        SeatNames(names)
    }

    /// Every seat by its number.
    pub fn none() -> &'static SeatNames {
        &NO_NAMES
    }

    /// The name `seat`'s player chose, if any.
    pub fn get(&self, seat: Seat) -> Option<&str> {
        self.0.get(seat as usize).and_then(|n| n.as_deref())
    }

    /// What the game's words call `seat`: its player's name, else "Seat N".
    pub fn seat(&self, seat: Seat) -> String {
        self.get(seat).map_or_else(|| format!("Seat {seat}"), str::to_owned)
    }

    /// By seat, `None` where a seat has no name.
    pub fn as_slice(&self) -> &[Option<String>] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum Outcome {
    Win {
        seat: Seat,
    },
    Draw,
    /// A co-operative game: every seat won together (a party took an exit).
    PartyWon,
    /// A co-operative game: every seat lost together (a party must restart).
    PartyLost,
}

/// Whose move it is, or how the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Status {
    /// The game goes on; these seats are expected to act (several during a
    /// simultaneous phase).
    Waiting {
        seats: Vec<Seat>,
    },
    Finished(Outcome),
}

impl Status {
    pub fn is_finished(&self) -> bool {
        matches!(self, Status::Finished(_))
    }
}

/// Why a game could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message}")]
pub struct SetupError {
    pub message: String,
}

impl SetupError {
    pub fn new(message: impl Into<String>) -> Self {
        SetupError { message: message.into() }
    }
}

/// Why an action was rejected. `code` is stable (clients switch on it);
/// `message` says in words which rule the action breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message}")]
pub struct RuleError {
    pub code: &'static str,
    pub message: String,
}

impl RuleError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        RuleError { code, message: message.into() }
    }

    /// A refusal of a game's (or the server's) vocabulary, with the rule
    /// it breaks in words.
    pub fn of(refusal: impl refusal::Refusal, message: impl Into<String>) -> Self {
        RuleError { code: refusal.code(), message: message.into() }
    }
}

/// An event together with who may see it. Events are filtered per viewer
/// before they leave the engine's caller, exactly like views.
pub trait Visible {
    fn visible_to(&self, viewer: Viewer) -> bool;
}

/// A game's rules.
///
/// **Architecture Invariant:** `apply` either returns `Ok` with the events of
/// the change, or returns `Err` and leaves the state exactly as it was.
pub trait Ruleset {
    /// Short stable name used on the wire and in the store (`"duel"`).
    const GAME: &'static str;
    /// Bumped whenever a change could make an old action log replay differently.
    const RULES_VERSION: u32;
    /// Agreed before play.
    type Options: Clone + Serialize + DeserializeOwned + Default;
    /// Everything, secrets included.
    type State: Clone + Serialize + DeserializeOwned;
    /// What a seat may ask for.
    type Action: Clone + Serialize + DeserializeOwned;
    /// What happened, each knowing who may see it.
    type Event: Clone + Serialize + Visible;
    /// What one seat, or a spectator, may see.
    type View: Serialize;
    /// See [`Ruleset::hashed`]: `&'a Self::State` for most games.
    type Hashed<'a>: Serialize
    where
        Self: 'a;
    /// Whether [`Ruleset::take_back`] can ever allow one: the server keeps
    /// the state before each action only for games that can.
    const TAKE_BACK: bool = false;
    /// The game's own view already lists each seat's legal actions (the
    /// duel's `legal`): the server then sends no second list beside it.
    const LEGAL_IN_VIEW: bool = false;
    /// The legal actions `view` lists (a game with [`Ruleset::LEGAL_IN_VIEW`]):
    /// the server words those rather than work the list out again for the
    /// view's own seat. Default: none.
    fn legal_in(_view: &Self::View) -> Option<&[Self::Action]> {
        None
    }
    /// The game's public reference content as `(name, JSON text)`: what a
    /// player may read on the cards in the box (no deck order, nothing
    /// dealt), for a client to show (the duel's card catalogue). Default: none.
    const CATALOGUE: &'static [(&'static str, &'static str)] = &[];

    /// Number of seats a game of these options needs.
    fn seats(options: &Self::Options) -> usize;
    /// # Errors
    /// When the options are unusable (say, summoning points over the maximum).
    fn start(options: &Self::Options, seed: u64) -> Result<Self::State, SetupError>;
    /// # Errors
    /// When the action breaks a rule; the state is then unchanged.
    fn apply(state: &mut Self::State, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, RuleError>;
    /// [`Ruleset::apply`] for a caller that has just copied the state into
    /// `before` and keeps that copy (the server's table, for take-back and
    /// for the words of what an action removed): a game that keeps the
    /// state before an action to put back on a refusal may use `before`
    /// rather than copy the state a second time. Same result, same state
    /// after, as `apply`. Default: `apply`.
    ///
    /// # Errors
    /// As [`Ruleset::apply`]; the state is then unchanged.
    fn apply_after_copy(
        state: &mut Self::State,
        before: &Self::State,
        seat: Seat,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, RuleError> {
        let _ = before;
        Self::apply(state, seat, action)
    }
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;
    fn status(state: &Self::State) -> Status;

    /// The board: the parts of every view that seldom change (the duel's
    /// hexes and players), as bytes compared from one record to the next;
    /// equal keys mean those parts are equal in every viewer's view (so a
    /// key covers what any viewer may see of them, secrets included). When
    /// they did not change, an `update` leaves the board out of its view
    /// ([`Ruleset::view_without_board`]) and the client keeps the one it
    /// has: most of a duel's update is its board. Default: `None`, every
    /// view is whole.
    fn board_key(_state: &Self::State) -> Option<Vec<u8>> {
        None
    }

    /// `view` without the board [`Ruleset::board_key`] covers. Default:
    /// the whole view.
    fn view_without_board(state: &Self::State, viewer: Viewer) -> Self::View {
        Self::view(state, viewer)
    }

    /// The views of several viewers of one state, in their order: whole
    /// when `board`, else as [`Ruleset::view_without_board`]. A game
    /// builds what they all see alike once and shares it
    /// ([`shared::Shared`]: its JSON is then written once for all of them).
    /// `before` is a view built this way for the record before, if any: a
    /// game may copy from it what did not change (the duel, its units'
    /// text); the views are the same with it or without.
    /// Default: each view on its own.
    fn views(state: &Self::State, viewers: &[Viewer], board: bool, _before: Option<&Self::View>) -> Vec<Self::View> {
        viewers
            .iter()
            .map(|v| if board { Self::view(state, *v) } else { Self::view_without_board(state, *v) })
            .collect()
    }

    /// `view` made ready to be kept as the next [`Ruleset::views`]'
    /// `before`: a room keeps one for as long as it is loaded, so a game
    /// drops here what `views` never copies from it (the duel: its legal
    /// list, some 19 KiB a match). Default: kept whole.
    fn keep_as_before(view: Self::View) -> Self::View {
        view
    }

    /// `view`'s JSON appended to `out`, as `serde_json` writes it: the
    /// server writes each frame's view straight into the frame. A game
    /// whose `Serialize` hands serde a text it wrote by hand (the duel's,
    /// Divinity's) writes it here without that copy. Default: serde_json.
    fn write_view(view: &Self::View, out: &mut Vec<u8>) {
        serde_json::to_writer(out, view).expect("engine values serialize");
    }

    /// What the stored state hash of each record covers (the replay
    /// audit): the state itself, or, for a game whose state holds copies
    /// of its own earlier states (the duel's rewind checkpoints), the state
    /// without them: each was the state after an earlier record, hashed
    /// then, and a rewind to one makes it current and hashed again. How it
    /// is written and hashed is the protocol's (`athlas_protocol::hash`).
    fn hashed(state: &Self::State) -> Self::Hashed<'_>;

    /// The secret a seat has locked in (hidden stacks), once it is locked.
    /// The server commits to it with a salted hash when it first appears and
    /// reveals the salt when the game ends. Default: no secrets.
    fn locked_secret(_state: &Self::State, _seat: Seat) -> Option<serde_json::Value> {
        None
    }

    /// The action the game takes for a seat that lets a timed window run out
    /// (a Divine Intervention response window in a live duel). The server arms
    /// a timer whenever this is `Some`. Default: nothing is timed.
    fn timeout_action(_state: &Self::State) -> Option<(Seat, Self::Action)> {
        None
    }

    /// An action the server takes for a seat on its own, a moment after
    /// the game starts waiting for it, because the seat asked for it in
    /// the game's own settings (the duel: a pass in a response window where
    /// the seat can cast nothing, unless it said `set_pass_when_unable`
    /// false). Taken as the seat's own action, told as it would be. Default:
    /// never.
    fn auto_action(_state: &Self::State) -> Option<(Seat, Self::Action)> {
        None
    }

    /// Whether `action` is the timer's alone (the duel's `timed_out`, a
    /// pass told as the time running out): the server refuses it from a
    /// player, so the log never says a clock ran out that did not.
    /// Default: none is.
    fn timer_only(_action: &Self::Action) -> bool {
        false
    }

    /// Every action `seat` may take now, each one `apply` accepts as sent
    /// ([`Ruleset::as_sent`]); empty when the game does not wait for the
    /// seat. A client can offer these without knowing the rules (each game
    /// documents what it leaves out, such as free-form designs).
    fn legal(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// A listed action as a client sends it. Most are sent as listed; an
    /// entry that leaves a choice to the client (the duel's "choose up to N
    /// hexes") becomes one of the choices it allows, drawn with `pick(n)`
    /// (in `0..n`). Default: as listed.
    fn as_sent(action: &Self::Action, _pick: &mut dyn FnMut(usize) -> usize) -> Self::Action {
        action.clone()
    }

    /// Whether the action that turned `before` into `after`, with `events`,
    /// may be taken back by its seat: only when it revealed nothing (no die
    /// rolled, no card or deck order shown, no random draw). The server
    /// checks the rest (the seat's own last action, nobody acted since).
    /// Default: this game has no take-back.
    ///
    /// # Errors
    /// Why not, with a stable code.
    fn take_back(_before: &Self::State, _after: &Self::State, _events: &[Self::Event]) -> Result<(), RuleError> {
        Err(RuleError::of(refusal::CommonRefusal::NoTakeBack, "this game has no take-back"))
    }

    /// The seat a co-operative party set as its leader, if any: it may, like
    /// the host (seat 0), hand an absent player's seat to a present one.
    fn party_leader(_state: &Self::State) -> Option<Seat> {
        None
    }

    /// A short public summary of where the match stands, for a lobby or a
    /// campaign's history read without loading the match: nothing any seat
    /// may not see. Default: the status (whose move it is, or the outcome).
    fn standing(state: &Self::State) -> serde_json::Value {
        serde_json::to_value(Self::status(state)).expect("a status serializes")
    }

    /// Whether `action` is one the party decides together now (a
    /// co-operative game's round choice, order or tie break, while it has
    /// no leader): the server then lets a seat propose it to the others
    /// (`propose`) rather than decide it alone. Default: never.
    fn party_decision(_state: &Self::State, _action: &Self::Action) -> bool {
        false
    }

    /// The game describes its own actions and events in words
    /// ([`Ruleset::action_words`], [`Ruleset::event_words`]): the server
    /// then sends them beside the actions and events, and keeps a log of
    /// them for newcomers, so every screen of the game says the same
    /// thing. Default: no words (the game's clients describe).
    const WORDS: bool = false;

    /// `actions` of `seat` in words, one JSON value per action in order
    /// (Divinity: `{"text", "group", "warn"?}`). Called only when
    /// [`Ruleset::WORDS`].
    fn action_words(_state: &Self::State, _seat: Seat, _actions: &[Self::Action]) -> Vec<serde_json::Value> {
        Vec::new()
    }

    /// `events`, the change from `before` to `after`, in words: one line
    /// per event in order, named as the table names things (the state
    /// before still knows a figure the change removed). Only words any
    /// viewer of the event may read. Called only when [`Ruleset::WORDS`].
    fn event_words(_before: &Self::State, _after: &Self::State, _events: &[Self::Event]) -> Vec<String> {
        Vec::new()
    }

    /// [`Ruleset::action_words`] with the players' names (the server
    /// knows them; the state does not). Default: the words without names
    /// (Divinity names its seats by their Origins).
    fn named_action_words(
        state: &Self::State,
        seat: Seat,
        actions: &[Self::Action],
        _names: &SeatNames,
    ) -> Vec<serde_json::Value> {
        Self::action_words(state, seat, actions)
    }

    /// `actions` as the JSON array an update lists them in, appended to
    /// `out`: byte for byte serde_json's writing of the slice (keys in
    /// declared order). A game with long lists may write it by hand.
    fn write_actions(actions: &[Self::Action], out: &mut Vec<u8>) {
        serde_json::to_writer(out, actions).expect("actions serialize");
    }

    /// [`Ruleset::named_action_words`] as the JSON array an update sends,
    /// appended to `out`: byte for byte what serde_json writes of that
    /// `Vec<Value>`. A game whose lists are long (a Divinity level-up lists
    /// a thousand pairs) writes it by hand, without a JSON value per
    /// action. Called only when [`Ruleset::WORDS`].
    fn write_named_action_words(
        state: &Self::State,
        seat: Seat,
        actions: &[Self::Action],
        names: &SeatNames,
        out: &mut Vec<u8>,
    ) {
        serde_json::to_writer(out, &Self::named_action_words(state, seat, actions, names)).expect("words serialize");
    }

    /// [`Ruleset::event_words`] with the players' names.
    fn named_event_words(
        before: &Self::State,
        after: &Self::State,
        events: &[Self::Event],
        _names: &SeatNames,
    ) -> Vec<String> {
        Self::event_words(before, after, events)
    }
}

/// Rebuild a state from its options, seed and action log: replay is a fold.
///
/// # Errors
/// If the log does not replay (a corrupted log or a rules change).
pub fn replay<R: Ruleset>(
    options: &R::Options,
    seed: u64,
    log: impl IntoIterator<Item = (Seat, R::Action)>,
) -> Result<R::State, ReplayError> {
    let mut state = R::start(options, seed).map_err(ReplayError::Setup)?;
    for (index, (seat, action)) in log.into_iter().enumerate() {
        R::apply(&mut state, seat, action).map_err(|error| ReplayError::Action { index, error })?;
    }
    Ok(state)
}

/// Why a log did not replay.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ReplayError {
    #[error("setup failed: {0}")]
    Setup(SetupError),
    #[error("action {index} was rejected on replay: {error}")]
    Action { index: usize, error: RuleError },
}
