//! A – a Duel for Divinity: two players create secret Alphas and Divine
//! Intervention stacks, then fight for the relics on a hex board.
//!
//! Modules by domain noun: [`card`] (the catalogue and effect vocabulary),
//! [`alpha`] (creation rules), [`board`] (layouts), [`state`], [`action`],
//! [`event`], `mechanics` (life, terrain, movement, attacks), `power`
//! (targeting and effects), `turn` (the flow of play), `intervention`
//! (casting and resolving Divine Interventions), [`view`], [`legal`],
//! [`words`] (actions and events in words, for every screen).

pub mod action;
mod activation;
pub mod alpha;
pub mod awaiting;
pub mod board;
pub mod bot;
pub mod campaign;
pub mod card;
pub mod ending;
pub mod event;
pub mod figure;
mod hashed;
mod intervention;
pub mod legal;
mod mechanics;
mod power;
pub mod refusal;
pub mod scenario;
pub mod state;
mod turn;
pub mod view;
pub mod words;

pub use action::{DuelAction, HexChoice, Target};
pub use awaiting::Awaiting;
pub use ending::Ending;
pub use event::DuelEvent;
pub use hashed::Hashed;
pub use refusal::DuelRefusal;
pub use state::{DuelOptions, DuelState};
pub use view::DuelView;

use crate::{RuleError, Ruleset, Seat, SeatNames, SetupError, Status, Viewer};
use board::BoardLayout;
use card::Catalogue;
use state::*;

/// The duel ruleset, on the standard catalogue.
pub struct Duel;

impl Duel {
    /// `viewer`'s view with its legal actions, with or without the board.
    fn view_with(state: &DuelState, viewer: Viewer, board: view::Board) -> DuelView {
        let cat = Catalogue::standard();
        view::view(state, cat, viewer, board, view::shared_units(&state.game, cat))
    }

    /// Who must act now.
    pub fn status_of(state: &DuelState) -> Status {
        match Awaiting::of(state) {
            Awaiting::Finished(outcome) => Status::Finished(outcome),
            waiting => Status::Waiting { seats: waiting.seats() },
        }
    }

    /// Apply with an explicit catalogue (custom card sets, tests).
    ///
    /// # Errors
    /// The rule the action breaks; the state is then unchanged.
    pub fn apply_with(
        cat: &Catalogue,
        state: &mut DuelState,
        seat: Seat,
        action: DuelAction,
    ) -> Result<Vec<DuelEvent>, RuleError> {
        let mut next = state.clone();
        let events = next.act(cat, seat, action)?;
        *state = next;
        Ok(events)
    }
}

impl Ruleset for Duel {
    const GAME: &'static str = "duel";
    const RULES_VERSION: u32 = 2;
    const CATALOGUE: &'static [(&'static str, &'static str)] =
        &[("cards", card::CARDS_JSON), ("presets", card::PRESETS_JSON), ("board", board::DEFAULT_BOARD_JSON)];
    type Options = DuelOptions;
    type State = DuelState;
    type Action = DuelAction;
    type Event = DuelEvent;
    type View = DuelView;
    type Hashed<'a> = Hashed<'a>;
    const LEGAL_IN_VIEW: bool = true;

    fn legal_in(view: &DuelView) -> Option<&[DuelAction]> {
        Some(&view.legal)
    }

    fn seats(_: &DuelOptions) -> usize {
        2
    }

    /// The state without its rewind checkpoints (half its JSON): each is
    /// the game as an earlier record left it, hashed with that record.
    /// Their number is kept, so a rewind point won or lost still shows.
    fn hashed(state: &DuelState) -> Hashed<'_> {
        // Destructured, so a field added to the state is added here too.
        let DuelState { options, rng, game, checkpoints, pending, window, draw_offer } = state;
        Hashed(hashed::Fields { options, rng, game, checkpoints: checkpoints.len(), pending, window, draw_offer })
    }

    fn start(options: &DuelOptions, seed: u64) -> Result<DuelState, SetupError> {
        // The players agree on any amount (L259-271): 250 recommended, at
        // most 500 "highly recommended", more allowed. A server caps what it
        // hosts by its own option, not by this rule.
        if options.summoning_points == 0 {
            return Err(SetupError::new(format!(
                "summoning points must be at least 1 (the book recommends 250, at most {MAX_SUMMONING_POINTS})"
            )));
        }
        if options.first_player.is_some_and(|s| s > 1) {
            return Err(SetupError::new("first_player is 0 or 1"));
        }
        let layout = match &options.board {
            Some(b) => {
                b.validate().map_err(|e| SetupError::new(e.to_string()))?;
                b.clone()
            }
            None => BoardLayout::standard(),
        };
        if let Some(c) = &options.campaign {
            for prev in &c.previous {
                if !prev.is_empty() && prev.len() != 4 {
                    return Err(SetupError::new("a campaign carries four Alphas per player"));
                }
            }
        }
        let player = || Player {
            alphas: Vec::new(),
            di_stack: Vec::new(),
            locked_stack: Vec::new(),
            locked: false,
            spent: 0,
            di_cast_turn: None,
            had_first_turn: false,
            auto_pass: false,
            hold_windows: false,
            discarded: Vec::new(),
        };
        let game = Battle {
            phase: Phase::Creation,
            max_points: options.summoning_points,
            grid: layout.grid(),
            summoning_hexes: layout.summoning.clone(),
            relics: layout.relics.iter().map(|h| Relic { hex: *h, moved_turn: None }).collect(),
            players: [player().into(), player().into()],
            units: Vec::new(),
            next_unit: 1,
            active_dis: Vec::new(),
            next_di: 0,
            turn: 0,
            active: 0,
            first_player: 0,
            step: Step::FirstTurn { summoned: Vec::new() },
            activation: None,
            casualties: Vec::new(),
            relic_choice: None,
        };
        Ok(DuelState {
            options: options.clone(),
            rng: crate::rng::GameRng::from_seed(seed),
            game,
            checkpoints: Vec::new(),
            pending: None,
            window: None,
            draw_offer: None,
        })
    }

    fn apply(state: &mut DuelState, seat: Seat, action: DuelAction) -> Result<Vec<DuelEvent>, RuleError> {
        Duel::apply_with(Catalogue::standard(), state, seat, action)
    }

    /// The rules run on the state itself, and the caller's copy is put
    /// back on a refusal: no copy of the engine's own per action.
    fn apply_after_copy(
        state: &mut DuelState,
        before: &DuelState,
        seat: Seat,
        action: DuelAction,
    ) -> Result<Vec<DuelEvent>, RuleError> {
        debug_assert!(state == before, "apply_after_copy is given a copy of the state");
        state.act(Catalogue::standard(), seat, action).inspect_err(|_| state.clone_from(before))
    }

    fn view(state: &DuelState, viewer: Viewer) -> DuelView {
        Duel::view_with(state, viewer, view::Board::shown(&state.game))
    }

    /// The hexes: their terrain, relics and summoning rows.
    fn board_key(state: &DuelState) -> Option<Vec<u8>> {
        Some(view::board_key(&state.game))
    }

    fn view_without_board(state: &DuelState, viewer: Viewer) -> DuelView {
        Duel::view_with(state, viewer, view::Board::Left)
    }

    /// The units are built once and their JSON written once for all,
    /// copying from `before` the text of the units that did not change.
    fn views(state: &DuelState, viewers: &[Viewer], board: bool, before: Option<&DuelView>) -> Vec<DuelView> {
        let cat = Catalogue::standard();
        let units = view::shared_units_after(&state.game, cat, before.map(|v| &v.units));
        let board = if board { view::Board::shown(&state.game) } else { view::Board::Left };
        viewers.iter().map(|v| view::view(state, cat, *v, board.clone(), units.clone())).collect()
    }

    /// `views` copies only the units from `before`.
    fn keep_as_before(mut view: DuelView) -> DuelView {
        view.legal = Vec::new();
        view
    }

    /// Written by hand ([`view::write_view`]) straight into the frame.
    fn write_view(view: &DuelView, out: &mut Vec<u8>) {
        view::write_view(view, out).expect("a duel view writes");
    }

    fn status(state: &DuelState) -> Status {
        Duel::status_of(state)
    }

    fn locked_secret(state: &DuelState, seat: Seat) -> Option<serde_json::Value> {
        let p = &state.game.players[seat as usize];
        if !p.locked {
            return None;
        }
        // Exactly what was locked in at creation, so the hash stays stable.
        Some(serde_json::json!({
            "alphas": p.alphas.iter().map(|a| &*a.design).collect::<Vec<_>>(),
            "di_stack": p.locked_stack,
        }))
    }

    fn legal(state: &DuelState, seat: Seat) -> Vec<DuelAction> {
        legal::legal_actions(state, Catalogue::standard(), seat)
    }

    fn as_sent(action: &DuelAction, pick: &mut dyn FnMut(usize) -> usize) -> DuelAction {
        match action.hex_choice() {
            Some(c) => action.with_hexes(c.pick(pick)).expect("a choice the entry allows"),
            None => action.clone(),
        }
    }

    fn timeout_action(state: &DuelState) -> Option<(Seat, DuelAction)> {
        // Only an answer is timed: a relic or casualty choice waits for its
        // seat, even with a DI answer halted under it.
        Awaiting::of(state).answering().map(|seat| (seat, DuelAction::TimedOut))
    }

    fn auto_action(state: &DuelState) -> Option<(Seat, DuelAction)> {
        state.auto_pass_seat(Catalogue::standard()).map(|seat| (seat, DuelAction::Pass))
    }

    fn timer_only(action: &DuelAction) -> bool {
        matches!(action, DuelAction::TimedOut)
    }

    const WORDS: bool = true;

    fn action_words(state: &DuelState, seat: Seat, actions: &[DuelAction]) -> Vec<serde_json::Value> {
        Self::named_action_words(state, seat, actions, SeatNames::none())
    }

    fn event_words(before: &DuelState, after: &DuelState, events: &[DuelEvent]) -> Vec<String> {
        Self::named_event_words(before, after, events, SeatNames::none())
    }

    /// Named from `seat`'s own view: its words go to that seat alone, and
    /// may name its own DI stack and Alphas.
    fn named_action_words(
        state: &DuelState,
        seat: Seat,
        actions: &[DuelAction],
        seats: &SeatNames,
    ) -> Vec<serde_json::Value> {
        // Read from the state as `seat`'s view shows it, without building
        // that view (a test holds the words those of the view).
        let names =
            words::StateNames { cat: Catalogue::standard(), state, before: None, viewer: Viewer::Seat(seat), seats };
        actions.iter().map(|a| words::action_json(names, seat, a)).collect()
    }

    /// [`Duel::named_action_words`] written straight to JSON
    /// (`words_json_is_serdes` holds the bytes equal to serde's).
    fn write_named_action_words(
        state: &DuelState,
        seat: Seat,
        actions: &[DuelAction],
        seats: &SeatNames,
        out: &mut Vec<u8>,
    ) {
        let names =
            words::StateNames { cat: Catalogue::standard(), state, before: None, viewer: Viewer::Seat(seat), seats };
        words::write_actions_json(names, seat, actions, out);
    }

    /// Named from the spectator's views before and after: a line is read
    /// by every reader of its event, and the spectator's view holds
    /// nothing secret (a hidden Alpha, a DI stack), so neither does a line.
    fn named_event_words(
        before: &DuelState,
        after: &DuelState,
        events: &[DuelEvent],
        seats: &SeatNames,
    ) -> Vec<String> {
        if events.is_empty() {
            return Vec::new();
        }
        let names = words::StateNames {
            cat: Catalogue::standard(),
            state: after,
            before: Some(before),
            viewer: Viewer::Spectator,
            seats,
        };
        events.iter().map(|e| words::event_from_state(names, e)).collect()
    }
}
