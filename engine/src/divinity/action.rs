//! What a seat may ask for. Each action is one JSON object tagged by `type`.
//! Collective party decisions (round type, the order cards resolve in) are
//! taken by the party leader, the lowest seat (ASSUMPTIONS.md).

use serde::{Deserialize, Serialize};

use super::content::ConsumableDeck;
use super::state::MerchantDeck;
use super::state::Who;
use super::status::Status;
use crate::Seat;

/// What a card's action is aimed at: someone (single target) or a space (area).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum Aim {
    Origin(Seat),
    Enemy(u32),
    /// A space id, for area attacks.
    Space(String),
}

impl Aim {
    pub fn who(&self) -> Option<Who> {
        match self {
            Aim::Origin(s) => Some(Who::Origin(*s)),
            Aim::Enemy(e) => Some(Who::Enemy(*e)),
            Aim::Space(_) => None,
        }
    }
}

/// Which card an action uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum CardUse {
    /// A skill in hand (Source skills cost Source instead of AP).
    Skill(String),
    /// An equipped item's action.
    Item(String),
    /// A consumable from the backpack.
    Consumable(String),
    /// The active summon's action.
    Summon,
}

/// Where an automatic success's keyword comes from (L1198, L796, L1009).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum KeywordFrom {
    /// The Origin card, a talent, an equipped item or the summon.
    Permanent,
    /// A skill in hand, played at 0 AP face down on slot 3.
    Skill(String),
    /// A consumable in the backpack, discarded at once.
    Consumable(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum DivinityAction {
    // ----- Between rounds -----
    /// The party leader picks the round when no enemy is on the map.
    ChooseRound {
        explore: bool,
    },

    // ----- Explore round -----
    /// Travel any distance to a numbered space along unlocked paths (or stay: `to` = None).
    Travel {
        to: Option<String>,
    },
    /// A group reveals the card of its space.
    Reveal,
    /// A group resolves a card from the holding area instead (L309).
    TakeHolding {
        card: String,
    },
    /// A group explores nothing this round.
    Pass,
    /// The leader resolves one revealed card next.
    Resolve {
        card: String,
    },
    /// The leader puts a revealed card that allows it in the holding area.
    Hold {
        card: String,
    },

    // ----- Challenges -----
    /// Roll for the current challenge, or succeed automatically with a
    /// keyword (before any die is rolled): the card is flipped, and the
    /// Origin then chooses its result from the rows now showing
    /// (`choose_result`, L1198). `keywords`: skills or consumables played
    /// for the keyword conditions of the challenge's bonus dice (L796,
    /// L1206); they serve this roll only.
    Challenge {
        #[serde(default)]
        auto: Option<(String, KeywordFrom)>,
        #[serde(default)]
        keywords: Vec<(String, KeywordFrom)>,
    },
    /// After an automatic success flipped the card: take result row `row`
    /// (0-based, as the card's back lists them) (L1198).
    ChooseResult {
        row: usize,
    },

    // ----- Rolls -----
    /// Reroll dice of the pending roll: with 1 Source, or with the card's own reroll.
    Reroll {
        dice: Vec<usize>,
        source: bool,
    },
    /// Keep the pending roll and resolve it.
    Accept,

    // ----- Combat and Rest turns -----
    /// Start this Origin's Combat turn (start-of-turn effects, then AP).
    StartTurn,
    /// Move into an adjacent space.
    Move {
        to: String,
    },
    Use {
        card: CardUse,
        aim: Aim,
        /// With several auras on a physical attack, the one that resolves first (L883).
        #[serde(default)]
        first_aura: Option<String>,
        /// For an area card on your own space: include yourself (L1546). By
        /// default a healing area does and a damaging one doesn't.
        #[serde(default)]
        include_self: Option<bool>,
    },
    /// Pull an enemy from an adjacent space into yours (1 AP).
    Taunt {
        enemy: u32,
    },
    /// Equip an item from the backpack (the displaced item goes to the backpack).
    Equip {
        item: String,
    },
    /// Attach a rune (from the backpack, or moved from another item) to an equipped item.
    AttachRune {
        rune: String,
        item: String,
    },
    /// Store an equipped item in the backpack.
    Store {
        item: String,
    },
    /// Give an item to an Origin in your space (anywhere in a Rest round).
    /// `equip`: the receiver equips it at once, at no further AP (L1052).
    Give {
        item: String,
        to: Seat,
        #[serde(default)]
        equip: bool,
    },
    /// Take an item from an Origin in your space (anywhere in a Rest round,
    /// L1049-1050). `equip`: equip it at once, at no further AP (L1052).
    Take {
        item: String,
        from: Seat,
        #[serde(default)]
        equip: bool,
    },
    /// The leader places an item nobody had room for (L1056): Origin `to`
    /// takes it, dropping `drop` (discarded, or passed to `pass_to` where
    /// trading is free); `to: None` discards the new item.
    PlaceItem {
        #[serde(default)]
        to: Option<Seat>,
        #[serde(default)]
        drop: Option<String>,
        #[serde(default)]
        pass_to: Option<Seat>,
    },
    /// Discard an item to the bottom of its deck.
    Discard {
        item: String,
    },
    /// Heal 2 HP, or slide one status one slot (Combat, 2 AP); in a Rest
    /// round heal 2 and clear every status (`status` ignored).
    Recover {
        #[serde(default)]
        status: Option<Status>,
    },
    /// Flip a once-per-location talent face down for its effect (0 AP, L559).
    UseTalent {
        talent: String,
    },
    /// The Origin's 0-AP special ability (L501-503) on its Combat turn;
    /// `aim` names the ally or enemy when the ability targets one.
    UseAbility {
        #[serde(default)]
        aim: Option<Aim>,
    },
    /// Give `hp` of your HP to a downed Origin.
    Revive {
        to: Seat,
        hp: u32,
    },
    EndTurn,

    /// The leader picks an enemy's target among equals (L1623).
    BreakTie {
        target: Aim,
    },
    /// The leader picks a minion's route among equals (L1689): an index
    /// into the routes offered.
    ChooseRoute {
        route: usize,
    },
    /// The leader picks the dice an enemy's roll loses (L1515), and an
    /// Origin those its own roll loses: one colour per die.
    ReduceDice {
        remove: Vec<super::dice::Colour>,
    },
    /// Resolve start-of-turn effects in this order (L682-684): the statuses
    /// that have one, each once. While an enemy waits for the party's order
    /// the leader answers for it; otherwise an Origin starts its Combat turn
    /// as with `StartTurn` (which keeps the track order).
    OrderTurnStart {
        order: Vec<Status>,
    },
    /// The leader picks a DOMINATED minion's target (L1735).
    Command {
        target: Aim,
    },

    // ----- Interlude (L1340-1375) -----
    /// Level up: a talent if the new card shows more, one skill, and any
    /// respec as (old, new) skill or talent pairs.
    LevelUp {
        #[serde(default)]
        talent: Option<String>,
        learn: String,
        #[serde(default)]
        respec: Vec<(String, String)>,
    },
    /// The leader pays an equipment deck's level to see the Merchant's wares.
    VisitMerchant {
        level: u32,
        #[serde(default)]
        consumables: Option<ConsumableDeck>,
    },
    Restock {
        deck: MerchantDeck,
    },
    /// The leader buys a revealed item for an Origin.
    Buy {
        item: String,
        to: Seat,
    },
    /// Sell one of your items for half its cost, rounded up.
    Sell {
        item: String,
    },
    /// The leader closes the interlude: the location is done.
    FinishInterlude,
}
