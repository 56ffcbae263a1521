//! The clan-of-gods card battle ("Cards and Terrain",
//! `../shared/rules/clans-of-gods-cards-and-terrain.txt`): two players, or two
//! teams of two, each with a pre-built clan deck, fight on a square-tiled
//! battlefield until a God falls. No cards are drawn: every unplayed card can
//! be played when its SP and EXP are paid (L87).
//!
//! Modules by domain noun: [`content`] (cards, effect vocabulary, deck rules,
//! battlemaps), [`grid`] (tiles, steps, terrain, sides), [`state`],
//! [`action`], [`event`], `play` (every rule, with its line), [`view`],
//! [`legal`], [`bot`], [`refusal`] (every refusal code), [`words`]. Decisions where the page is silent:
//! `content/clans/ASSUMPTIONS.md`.

pub mod action;
pub mod bot;
mod cards;
mod combat;
pub mod content;
pub mod event;
pub mod grid;
pub mod legal;
mod play;
pub mod refusal;
pub mod state;
pub mod view;
pub mod words;

pub use action::ClansAction;
pub use event::ClansEvent;
pub use refusal::ClansRefusal;
pub use state::{ClansOptions, ClansState};
pub use view::ClansView;

use crate::{RuleError, Ruleset, Seat, SeatNames, SetupError, Status, Viewer};
use content::{Catalogue, Kind};
use state::{Phase, Player};

/// The clans ruleset, on the shipped content.
pub struct Clans;

impl Clans {
    /// Apply with an explicit catalogue (tests with their own cards).
    ///
    /// # Errors
    /// The rule the action breaks; the state is then unchanged.
    pub fn apply_with(
        cat: &Catalogue,
        state: &mut ClansState,
        seat: Seat,
        action: ClansAction,
    ) -> Result<Vec<ClansEvent>, RuleError> {
        let mut next = state.clone();
        let events = next.act(cat, seat, action)?;
        *state = next;
        Ok(events)
    }

    /// Start on an explicit catalogue.
    ///
    /// # Errors
    /// Unknown clans or battlefield, a seat count other than 2 or 4 (L81).
    pub fn start_with(cat: &Catalogue, options: &ClansOptions, seed: u64) -> Result<ClansState, SetupError> {
        let n = options.clans.len();
        if n != 2 && n != 4 {
            return Err(SetupError::new("a game is 2 players, or 2 against 2 (L81)"));
        }
        if options.first_player.is_some_and(|f| usize::from(f) >= n) {
            return Err(SetupError::new("first_player names no seat"));
        }
        if options.sp_per_turn < 0 || options.exp_per_turn < 0 {
            return Err(SetupError::new("SP and EXP per turn are 0 or more (L127)"));
        }
        let bf = cat
            .battlefield(&options.battlefield)
            .ok_or_else(|| SetupError::new(format!("no battlefield {}", options.battlefield)))?;
        let field = cat.field(bf, n == 4).map_err(SetupError::new)?;
        let mut players = Vec::new();
        for (seat, id) in options.clans.iter().enumerate() {
            let clan = cat.clan(id).ok_or_else(|| SetupError::new(format!("no clan {id}")))?;
            content::validate_deck(clan).map_err(SetupError::new)?;
            let (allies, tactics) = stacks(clan);
            players.push(Player {
                seat: seat as Seat,
                clan: id.clone(),
                allies,
                tactics,
                sp: 0,
                exp: 0,
                homebase: None,
                god_at: None,
                out: false,
                terrain: Vec::new(),
                assimilated: false,
                god: 0,
            });
        }
        Ok(ClansState {
            options: options.clone(),
            rng: crate::rng::GameRng::from_seed(seed),
            field,
            players,
            figures: Vec::new(),
            next_figure: 1,
            turn: 0,
            active: 0,
            phase: Phase::Placement,
            current: None,
            window: Vec::new(),
            winner_team: None,
        })
    }

    /// Who must act now: the seats still placing, else the seat asked in the
    /// response window, else the active player.
    pub fn status_of(state: &ClansState) -> Status {
        let seats = match &state.phase {
            Phase::Finished { outcome } => return Status::Finished(outcome.clone()),
            Phase::Placement => {
                state.players.iter().filter(|p| !p.out && p.homebase.is_none()).map(|p| p.seat).collect()
            }
            Phase::Playing => vec![state.window.first().copied().unwrap_or(state.active)],
        };
        Status::Waiting { seats }
    }
}

impl Ruleset for Clans {
    const GAME: &'static str = "clans";
    const RULES_VERSION: u32 = 1;
    const CATALOGUE: &'static [(&'static str, &'static str)] =
        &[("cards", content::CARDS_JSON), ("battlemaps", content::MAPS_JSON)];
    const LEGAL_IN_VIEW: bool = true;
    type Options = ClansOptions;
    type State = ClansState;
    type Action = ClansAction;
    type Event = ClansEvent;
    type View = ClansView;
    type Hashed<'a> = &'a ClansState;

    fn seats(options: &ClansOptions) -> usize {
        options.clans.len()
    }

    fn start(options: &ClansOptions, seed: u64) -> Result<ClansState, SetupError> {
        Clans::start_with(Catalogue::standard(), options, seed)
    }

    fn apply(state: &mut ClansState, seat: Seat, action: ClansAction) -> Result<Vec<ClansEvent>, RuleError> {
        Clans::apply_with(Catalogue::standard(), state, seat, action)
    }

    /// The rules run on the state itself, and the caller's copy is put
    /// back on a refusal: no copy of the engine's own per action.
    fn apply_after_copy(
        state: &mut ClansState,
        before: &ClansState,
        seat: Seat,
        action: ClansAction,
    ) -> Result<Vec<ClansEvent>, RuleError> {
        debug_assert!(state == before, "apply_after_copy is given a copy of the state");
        state.act(Catalogue::standard(), seat, action).inspect_err(|_| state.clone_from(before))
    }

    fn view(state: &ClansState, viewer: Viewer) -> ClansView {
        view::view(state, Catalogue::standard(), viewer)
    }

    fn status(state: &ClansState) -> Status {
        Clans::status_of(state)
    }

    fn hashed(state: &ClansState) -> &ClansState {
        state
    }

    /// The seat's secret once it has placed: its deck (the two face-down
    /// stacks as they were at the start, L87) and its homebase and God
    /// tiles, chosen in secret (C4). Nothing of it changes afterwards (no
    /// card is drawn or reordered, the placement is kept), so the server's
    /// commitment, made at the seat's placement, opens at the end to exactly
    /// this. `None` before the seat has placed (nothing is locked yet).
    fn locked_secret(state: &ClansState, seat: Seat) -> Option<serde_json::Value> {
        let p = state.players.get(seat as usize)?;
        let (homebase, god) = (p.homebase?, p.god_at?);
        let clan = Catalogue::standard().clan(&p.clan)?;
        let (allies, tactics) = stacks(clan);
        Some(serde_json::json!({
            "clan": p.clan,
            "allies": allies,
            "tactics": tactics,
            "homebase": homebase,
            "god": god,
        }))
    }

    fn legal_in(view: &ClansView) -> Option<&[ClansAction]> {
        Some(&view.legal)
    }

    const WORDS: bool = true;

    fn action_words(state: &ClansState, seat: Seat, actions: &[ClansAction]) -> Vec<serde_json::Value> {
        Self::named_action_words(state, seat, actions, SeatNames::none())
    }

    fn event_words(before: &ClansState, after: &ClansState, events: &[ClansEvent]) -> Vec<String> {
        Self::named_event_words(before, after, events, SeatNames::none())
    }

    /// For `seat` alone: may name its own unplayed cards.
    fn named_action_words(
        state: &ClansState,
        seat: Seat,
        actions: &[ClansAction],
        names: &SeatNames,
    ) -> Vec<serde_json::Value> {
        let n = words::Names::new(state, names);
        actions.iter().map(|a| serde_json::to_value(words::action(n, seat, a)).expect("words serialize")).collect()
    }

    /// One line per event, holding only what the event and the public
    /// field hold (see [`words`]).
    fn named_event_words(
        before: &ClansState,
        after: &ClansState,
        events: &[ClansEvent],
        names: &SeatNames,
    ) -> Vec<String> {
        let n = words::Names { before: Some(before), ..words::Names::new(after, names) };
        events.iter().map(|e| words::event(n, e)).collect()
    }

    fn legal(state: &ClansState, seat: Seat) -> Vec<ClansAction> {
        legal::legal_actions(state, Catalogue::standard(), seat)
    }
}

/// A clan's two face-down stacks as a game starts (L87): its allies (the
/// God aside, on the field) and its other tactic cards (the homebase
/// aside), each in the deck list's order.
pub fn stacks(clan: &content::Clan) -> (Vec<content::CardId>, Vec<content::CardId>) {
    let allies = clan.cards.iter().filter(|c| c.ally().is_some_and(|a| !a.god)).map(|c| c.id.clone()).collect();
    let tactics =
        clan.cards.iter().filter(|c| !matches!(c.kind, Kind::Ally(_) | Kind::Homebase)).map(|c| c.id.clone()).collect();
    (allies, tactics)
}
