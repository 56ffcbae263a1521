//! What happened. A Divinity party plays in the open: every event is seen by
//! every seat. Secrets (the location deck's order, the Boss' tactics deck)
//! never appear in an event before they are revealed.

use serde::{Deserialize, Serialize};

use super::damage::Environment;
use super::dice::Die;
use super::state::{Finish, RoundKind, Who};
use super::status::Status;
use crate::{Seat, Viewer, Visible};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DivinityEvent {
    RoundStarted {
        round: u32,
        kind: RoundKind,
    },
    TurnStarted {
        seat: Seat,
        ap: u32,
    },
    TurnEnded {
        who: Who,
    },
    Travelled {
        seat: Seat,
        to: String,
    },
    Moved {
        who: Who,
        to: String,
    },
    CardRevealed {
        card: String,
        text: String,
    },
    /// An automatic success flipped a challenge card: its back's rows show
    /// (`challenge_rows` in the view) until its result is chosen (L1198).
    ChallengeFlipped {
        seat: Seat,
        card: String,
    },
    CardResolved {
        card: String,
    },
    CardHeld {
        card: String,
    },
    Rolled {
        who: Who,
        dice: Vec<Die>,
        hits: u32,
        specials: u32,
    },
    Rerolled {
        seat: Seat,
        dice: Vec<Die>,
        source: bool,
    },
    Damaged {
        who: Who,
        amount: u32,
        hp: u32,
    },
    Healed {
        who: Who,
        amount: u32,
        hp: u32,
    },
    StatusGained {
        who: Who,
        status: Status,
        slot: u8,
    },
    StatusCleared {
        who: Who,
        status: Status,
    },
    Downed {
        seat: Seat,
    },
    Revived {
        seat: Seat,
        hp: u32,
    },
    Spawned {
        enemy: u32,
        name: String,
        space: String,
        fast: bool,
    },
    Targeted {
        enemy: u32,
        target: Who,
        face: u8,
    },
    TieToBreak {
        enemy: u32,
        options: Vec<Who>,
    },
    Defeated {
        enemy: u32,
    },
    EnvironmentPlaced {
        space: String,
        environment: Environment,
    },
    GoldGained {
        amount: u32,
        total: u32,
    },
    GoldSpent {
        amount: u32,
        total: u32,
    },
    AbilityUsed {
        seat: Seat,
    },
    ItemGained {
        seat: Option<Seat>,
        item: String,
    },
    ItemDiscarded {
        seat: Seat,
        item: String,
    },
    NoRoom {
        item: String,
        takers: Vec<Seat>,
    },
    RewardDiscarded {
        item: String,
    },
    ItemTraded {
        from: Seat,
        to: Seat,
        item: String,
    },
    DeckEmpty {
        deck: String,
    },
    RouteToChoose {
        enemy: u32,
        routes: Vec<Vec<String>>,
    },
    DiceToReduce {
        enemy: u32,
        remove: u32,
    },
    TurnStartToOrder {
        enemy: u32,
        statuses: Vec<Status>,
    },
    OwnDiceToReduce {
        seat: Seat,
        remove: u32,
    },
    // An ongoing skill's reaction attacks an enemy outside the Origin's turn (L864).
    Reacted {
        seat: Seat,
        skill: String,
        enemy: u32,
    },
    TalentUsed {
        seat: Seat,
        talent: String,
    },
    KeyPlaced {
        a: String,
        b: String,
    },
    CardPlaced {
        card: String,
        space: String,
    },
    JournalRevealed {
        card: u32,
        text: String,
    },
    CollarBroken {
        seat: Seat,
    },
    TimeAdvanced {
        space: u32,
    },
    TimeSet {
        space: u32,
    },
    TimePaused {
        paused: bool,
    },
    CombatEnded {
        victory: bool,
    },
    LocationExited {
        to: String,
        level_up: bool,
    },
    MerchantShows {
        items: Vec<String>,
        gold: u32,
    },
    LocationFinished {
        result: Finish,
    },
}

impl Visible for DivinityEvent {
    fn visible_to(&self, _viewer: Viewer) -> bool {
        true
    }
}
