//! The state of one match: one party playing one location. Everything is
//! here, secrets included (the location deck's order and the Boss' tactics);
//! [`super::view`] decides what a seat sees.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::attack::Attack;
use super::content::{Catalogue, ConsumableDeck, ItemKind, LocationDef, Slot};
use super::cooldown::Track;
use super::dice::Roll;
use super::map::{MapState, SpaceIx};
use super::used::Used;
use crate::rng::GameRng;
use crate::Seat;

/// The maximum AP an Origin (or a Boss) may hold without HASTE (L1564).
pub const MAX_AP: u32 = 8;
/// Items a backpack holds, runes included (L919).
pub const BACKPACK: usize = 3;
/// Minions on the map at most: one per tray (L1245).
pub const MAX_MINIONS: usize = 6;

/// Agreed before play.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DivinityOptions {
    /// One Origin per seat, for a new campaign (1-4 seats). Ignored when a
    /// campaign is carried over: its Origins sit in the same seats.
    pub party: Vec<String>,
    /// The location to play; by default the campaign's next location, or
    /// the campaign's first.
    pub location: Option<String>,
    /// The campaign as the last match left it.
    pub campaign: Option<CampaignState>,
    /// Variant "Solo Mode" (L1855): player-count values use the 2-player
    /// entries. Set it when one person plays two Origins.
    pub solo: bool,
    /// Variant "Unrestricted Talents" (L1843): talents ignore level limits.
    /// A carried-over campaign keeps its own setting.
    pub unrestricted_talents: bool,
    /// Variant "Honor Mode" (L1849): a forced restart restarts the campaign.
    pub honor_mode: bool,
    /// Every enemy roll waits until each Origin with Source lets it stand
    /// or rerolls it (L511). Off, enemy rolls resolve at once.
    pub reroll_enemy_rolls: bool,
    /// The party picks among equally qualified targets (L1623). Off, the
    /// lowest seat is taken.
    pub party_breaks_ties: bool,
    /// The seat the party set as its leader: only it takes the party's
    /// decisions. `None`: any seat may answer, and the first answer stands.
    #[serde(default)]
    pub leader: Option<Seat>,
}

impl Default for DivinityOptions {
    fn default() -> Self {
        DivinityOptions {
            party: vec!["ifan".into(), "sebille".into()],
            location: None,
            campaign: None,
            solo: false,
            unrestricted_talents: false,
            honor_mode: false,
            reroll_enemy_rolls: true,
            party_breaks_ties: true,
            leader: None,
        }
    }
}

/// What one Origin keeps between locations and sessions (L1387-1398): its
/// card's level, talents, skills, items and runes, and its collar's side.
/// HP and Source are not kept: both refill at a new location.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OriginSave {
    pub origin: String,
    pub talents: Vec<String>,
    pub skills: Vec<String>,
    /// Equipped and stored items and stored runes.
    pub items: Vec<String>,
    pub collar_broken: bool,
    /// Runes attached to items.
    #[serde(default)]
    pub runes: Vec<AttachedRune>,
}

/// The campaign between matches: produced when a match ends, accepted in
/// the options of the next.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignState {
    /// The rules version that wrote it, so old saves can be migrated.
    pub rules_version: u32,
    /// The location to play next (after a restart: the same one).
    pub location: String,
    /// The party's level (L531, L1342).
    pub level: u32,
    pub gold: u32,
    pub journal: Vec<u32>,
    pub origins: Vec<OriginSave>,
    /// Unique items, runes and specific rewards already found: a restarted
    /// location does not give them again (L1336).
    pub found: Vec<String>,
    /// The campaign is over (the finale was reached).
    pub finished: bool,
    #[serde(default)]
    pub unrestricted_talents: bool,
    #[serde(default)]
    pub honor_mode: bool,
}

/// One Origin on the table.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OriginState {
    pub origin: String,
    pub level: u32,
    pub hp: u32,
    pub ap: u32,
    pub source: u32,
    pub space: SpaceIx,
    pub downed: bool,
    pub track: Track,
    /// Skills in hand, ready to play.
    pub hand: Vec<String>,
    /// Every skill learned, Source skills included once unlocked.
    pub skills: Vec<String>,
    pub talents: Vec<String>,
    /// Once-per-location talents already used (face down, L559).
    pub talents_used: Vec<String>,
    pub equipped: Vec<String>,
    pub backpack: Vec<String>,
    /// The active summon and the track card that keeps it (None: permanent).
    pub summon: Option<String>,
    pub collar_broken: bool,
    /// Runes attached to equipped items: (rune, item, side index) (L1066).
    #[serde(default)]
    pub runes: Vec<AttachedRune>,
}

/// A rune on an equipped item, one side up.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachedRune {
    pub rune: String,
    pub item: String,
    pub side: usize,
}

/// Where an enemy came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum EnemyKind {
    Minion { card: String, veteran: bool },
    Boss { boss: String },
}

/// A minion in a tray, or a Boss.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enemy {
    pub id: u32,
    /// Tray and standee letter A-F (L222); Bosses have none.
    pub letter: Option<char>,
    pub kind: EnemyKind,
    pub hp: u32,
    pub max_hp: u32,
    pub space: SpaceIx,
    pub fast: bool,
    pub track: Track,
    /// A Boss' saved AP (L1799).
    pub ap: u32,
    /// A Boss' tactics draw deck, top first (secret).
    pub tactics: Vec<String>,
}

/// The three kinds of round (L272-279).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundKind {
    Explore,
    Rest,
    Combat,
}

/// A card revealed (or taken from the holding area) and waiting to be
/// resolved in the order the party picks (L299).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revealed {
    pub card: String,
    /// The group resolving it.
    pub seats: Vec<Seat>,
    pub space: SpaceIx,
    /// The card lies on the map and this is its "when explored" text.
    pub placed: bool,
}

/// Where a match stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// No enemies: the party picks Explore or Rest (L276).
    ChooseRound,
    /// Explore step 1: each Origin travels (or stays), in any order.
    Travel { done: Vec<bool> },
    /// Explore step 2: each group reveals a card, takes one from the holding area, or passes.
    Groups { groups: Vec<Vec<Seat>>, chosen: Vec<bool> },
    /// Explore step 3: the party resolves the revealed cards in its chosen order.
    Resolve,
    /// Each Origin takes its Rest turn, simultaneously; `steps`: the step
    /// each has reached (L353-361).
    Rest { done: Vec<bool>, steps: Vec<RestStep> },
    /// The Origins' step of a Combat round; `active` is the Origin whose turn is under way.
    Combat { done: Vec<bool>, active: Option<Seat> },
    /// After an exit: level up, visit the Merchant (L1340-1375).
    Interlude(Interlude),
    /// The location is over.
    Finished { result: Finish },
}

/// The steps of a Rest turn in the book's order (L353-361), after (a) its
/// start-of-turn effects and before (f) its slide: a step once passed can't
/// be gone back to. Recover and the one skill or item action happen once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestStep {
    /// A downed Origin's turn, not begun: revived before it, the Origin
    /// takes a normal turn (L757); left downed, its turn only slides.
    NotBegun,
    /// (a) Start of turn: nothing taken yet.
    #[default]
    StartOfTurn,
    /// (b) Recover (L355).
    Recover,
    /// (c) Revive, any number (L357).
    Revive,
    /// (d) Equip & Trade, any number (L359).
    EquipAndTrade,
    /// (e) Use 1 skill or item (L360).
    UseCard,
}

/// How a location ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "how")]
pub enum Finish {
    /// An exit was resolved (L1278).
    Exit { to: String, level_up: bool },
    /// A forced restart (L1332).
    Restart,
}

/// What a roll waiting for rerolls is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Purpose {
    Attack {
        attack: Attack,
        targets: Vec<Who>,
        /// The space the environment effect lands on.
        space: SpaceIx,
        level_bonus: u32,
        extra: u32,
        /// What made the attack.
        label: String,
        /// Further rolls of the same attack on the same targets (L867).
        #[serde(default)]
        repeat: u32,
    },
    Challenge,
}

/// A roll an Origin made, open to rerolls until accepted (L511, L1529).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingRoll {
    pub seat: Seat,
    pub roll: Roll,
    pub purpose: Purpose,
    /// Dice the card itself lets the roller reroll once (Poison Dart).
    pub card_rerolls: u8,
}

/// Several Origins qualify equally as an enemy's target: the party picks (L1623).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieChoice {
    pub enemy: u32,
    pub options: Vec<Who>,
    /// The Boss tactic under way, for a Boss.
    pub tactic: Option<String>,
    /// The targeting die's face, for a minion (0: no die).
    #[serde(default)]
    pub face: u8,
}

/// An item nobody who may take it has room for (L1056): the party must at
/// once discard it or make room for it by dropping another item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overflow {
    pub item: String,
    /// The Origins who may take it: those in the finder's space for an item
    /// found exploring, anyone after a combat (L1039); never a downed one (L747).
    pub takers: Vec<Seat>,
}

/// Several routes serve a minion (or a Boss' attack tactic) equally: the
/// party picks one (L1689).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteChoice {
    pub enemy: u32,
    pub target: Who,
    /// Each route: the space ids the minion enters, in order.
    pub routes: Vec<Vec<String>>,
    /// The Boss tactic under way, for a Boss.
    #[serde(default)]
    pub tactic: Option<String>,
}

/// An enemy must roll fewer dice of several colours: the party picks which
/// go (L1515). The attack waits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReductionChoice {
    pub enemy: u32,
    pub attack: Attack,
    pub target: Who,
    /// How many dice go.
    pub remove: u32,
    /// A Boss goes on with its tactics afterwards; a minion ends its turn.
    pub boss: bool,
}

/// An Origin's own roll must lose some but not all of its dice, of several
/// colours: the roller picks which go (L1515). The roll waits; it goes on as
/// the card used would have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollReduction {
    /// The rolling Origin, the only one who answers.
    pub seat: Seat,
    /// How many dice go.
    pub remove: u32,
    /// Flattened: the view keeps its fields in the same place.
    #[serde(flatten)]
    pub shot: Shot,
}

/// An Origin's attack on its way to a roll: what it rolls, on whom, the
/// space its environment effect lands on, what made it, and how many rolls
/// of it are still to come (a multi-attack skill, L867).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shot {
    pub attack: Attack,
    pub targets: Vec<Who>,
    pub space: SpaceIx,
    pub label: String,
    /// Rolls still to come after this one (a multi-attack skill).
    pub repeat: u32,
}

/// A reaction roll (L864) waits for its Origin's rerolls (or dice pick):
/// the enemy's turn that set it off is on hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReactionWait {
    /// The enemy that moved; its turn goes on afterwards if it still stands.
    pub enemy: u32,
    /// Seats from this one on may still react to the same move.
    pub next: Seat,
    /// The enemy's target.
    pub target: Who,
    /// The Boss tactic under way, for a Boss.
    pub tactic: Option<String>,
}

/// An enemy with several start-of-turn effects whose order changes the
/// outcome: the party picks the order (L682-684). Its turn waits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnStartChoice {
    pub enemy: u32,
    /// The statuses with a start-of-turn effect, in track order.
    pub statuses: Vec<super::status::Status>,
}

/// An enemy's roll waiting for the Origins' Source rerolls (L511).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnemyRoll {
    pub enemy: u32,
    pub attack: Attack,
    pub targets: Vec<Who>,
    pub space: SpaceIx,
    pub roll: Roll,
    /// Seats that let the roll stand since it last changed.
    pub passed: Vec<bool>,
    /// A Boss goes on with its tactics afterwards; a minion ends its turn.
    pub boss: bool,
}

/// The decision the match waits for from a player, stored once in
/// [`DivinityState::choice`]. Each variant holds what the decision needs
/// and what happens after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// An Origin's roll, open to rerolls until its roller accepts it (L511, L1529).
    Roll(PendingRoll),
    /// The rolling Origin picks the dice its own roll loses (L1515).
    OwnDice(RollReduction),
    /// An enemy's roll, open to the Origins' Source rerolls (L511).
    EnemyRoll(EnemyRoll),
    /// A DOMINATED minion waits for the party to pick its target (L1735).
    Command { enemy: u32 },
    /// The party picks an enemy's target among equals (L1623).
    Tie(TieChoice),
    /// The party picks a minion's (or a Boss') route among equals (L1689).
    Route(RouteChoice),
    /// The party picks the dice an enemy's roll loses (L1515).
    EnemyDice(ReductionChoice),
    /// The party orders an enemy's start-of-turn effects (L684).
    TurnStartOrder(TurnStartChoice),
}

impl Choice {
    /// A decision the party makes for an enemy, whose turn is on hold.
    pub fn for_enemy(&self) -> bool {
        matches!(
            self,
            Choice::Command { .. }
                | Choice::Tie(_)
                | Choice::Route(_)
                | Choice::EnemyDice(_)
                | Choice::TurnStartOrder(_)
        )
    }
}

/// A challenge under way (L1178-1206).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeState {
    pub card: String,
    pub group: Vec<Seat>,
    pub space: SpaceIx,
    /// Each roller's result once made: hits, or the result row chosen by an automatic success.
    pub results: BTreeMap<Seat, ChallengeResultKind>,
    /// The Origin whose automatic success flipped the card and who now
    /// chooses its result row (L1198); the card's back shows meanwhile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flipped: Option<Seat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum ChallengeResultKind {
    Hits(u32),
    Row(usize),
}

/// Someone an effect lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum Who {
    Origin(Seat),
    Enemy(u32),
}

/// Everything about one match.
///
/// Unknown fields are refused so that a snapshot of an older shape (the
/// sibling `pending`, `tie`, ... fields before `choice`) fails to load and
/// is rebuilt by replay, rather than loading with its decision lost.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DivinityState {
    pub options: DivinityOptions,
    pub rng: GameRng,
    pub location: String,
    /// The party's level.
    pub level: u32,
    pub origins: Vec<OriginState>,
    pub enemies: Vec<Enemy>,
    pub next_enemy: u32,
    pub map: MapState,
    /// The location deck, in order (secret).
    pub deck: Vec<String>,
    pub holding: Vec<String>,
    pub discard: Vec<String>,
    pub combat_stack: Vec<String>,
    /// Combat rounds survived by each card of the active combat stack, for
    /// the special end conditions (L1745).
    #[serde(default)]
    pub stack_rounds: BTreeMap<String, u32>,
    pub revealed: Vec<Revealed>,
    /// The time tracker's space; None: not set, no time limit (L1308).
    pub time: Option<u32>,
    pub time_paused: bool,
    pub round: u32,
    pub round_kind: RoundKind,
    /// Multicard spaces already explored this round (L1126).
    pub explored: BTreeSet<SpaceIx>,
    pub phase: Phase,
    /// The one decision the match waits for from a player, if any: a roll
    /// open to rerolls or a choice the party makes for an enemy. One field,
    /// so two can never wait at once; [`DivinityState::pending_choice`]
    /// reads it with the overflow and the challenge.
    pub choice: Option<Choice>,
    /// Enemies still to act in the current initiative step, left to right.
    #[serde(default)]
    pub enemy_queue: Vec<u32>,
    /// The step under way is the FAST one.
    #[serde(default)]
    pub queue_fast: bool,
    /// An enemy's turn stopped by a reaction's roll (L864): it goes on once
    /// that roll is accepted. Context, not a choice: it is set while the
    /// reaction's own roll waits in `choice`.
    #[serde(default)]
    pub reaction: Option<ReactionWait>,
    /// A challenge under way. Context, not a choice: each roller's roll
    /// waits in `choice` inside it.
    pub challenge: Option<ChallengeState>,
    /// Items acquired when no one who may take them had room (L1056),
    /// oldest first: the party places or discards each before anything else.
    /// A queue beside `choice`, not in it: an item may arrive while a
    /// decision waits, and is placed first.
    #[serde(default)]
    pub overflow: Vec<Overflow>,
    pub gold: u32,
    /// The item decks in the supply, top first (secret order): each holds
    /// one copy of every card of the deck that no Origin carries, shuffled
    /// at setup; draws come from the top, discards go to the bottom (L1031,
    /// L1056, L1358). Keyed by [`item_deck`].
    #[serde(default)]
    pub item_decks: BTreeMap<String, Vec<String>>,
    pub journal: Vec<u32>,
    pub found: Vec<String>,
    /// What an Origin used → the round it was last used: once-per-round
    /// (and per-location) limits.
    pub used: BTreeMap<Used, u32>,
}

impl DivinityState {
    /// Wait for `c`. Nothing else may be waiting: flows stop at each
    /// decision, so a second one would be a bug that loses the first.
    pub(super) fn wait_for(&mut self, c: Choice) {
        debug_assert!(self.choice.is_none(), "{:?} set over {:?}", c, self.choice);
        self.choice = Some(c);
    }

    /// The Origin's roll waiting for rerolls.
    pub fn pending_roll(&self) -> Option<&PendingRoll> {
        match &self.choice {
            Some(Choice::Roll(p)) => Some(p),
            _ => None,
        }
    }

    pub fn pending_roll_mut(&mut self) -> Option<&mut PendingRoll> {
        match &mut self.choice {
            Some(Choice::Roll(p)) => Some(p),
            _ => None,
        }
    }

    /// The Origin's roll waiting for its roller to pick the dice it loses.
    pub fn roll_reduction(&self) -> Option<&RollReduction> {
        match &self.choice {
            Some(Choice::OwnDice(r)) => Some(r),
            _ => None,
        }
    }

    /// The enemy's roll waiting for Source rerolls.
    pub fn enemy_roll(&self) -> Option<&EnemyRoll> {
        match &self.choice {
            Some(Choice::EnemyRoll(r)) => Some(r),
            _ => None,
        }
    }

    pub fn enemy_roll_mut(&mut self) -> Option<&mut EnemyRoll> {
        match &mut self.choice {
            Some(Choice::EnemyRoll(r)) => Some(r),
            _ => None,
        }
    }

    /// The DOMINATED minion waiting for the party's orders.
    pub fn dominated_turn(&self) -> Option<u32> {
        match &self.choice {
            Some(Choice::Command { enemy }) => Some(*enemy),
            _ => None,
        }
    }

    /// The enemy waiting for the party to pick its target among equals.
    pub fn tie(&self) -> Option<&TieChoice> {
        match &self.choice {
            Some(Choice::Tie(t)) => Some(t),
            _ => None,
        }
    }

    /// The enemy waiting for the party to pick its route among equals.
    pub fn route(&self) -> Option<&RouteChoice> {
        match &self.choice {
            Some(Choice::Route(r)) => Some(r),
            _ => None,
        }
    }

    /// The enemy's roll waiting for the party to pick the dice it loses.
    pub fn reduction(&self) -> Option<&ReductionChoice> {
        match &self.choice {
            Some(Choice::EnemyDice(r)) => Some(r),
            _ => None,
        }
    }

    /// The enemy waiting for the party to order its start-of-turn effects.
    pub fn turn_start(&self) -> Option<&TurnStartChoice> {
        match &self.choice {
            Some(Choice::TurnStartOrder(t)) => Some(t),
            _ => None,
        }
    }

    pub fn loc<'c>(&self, cat: &'c Catalogue) -> &'c LocationDef {
        &cat.locations[&self.location]
    }

    /// Player count for card values: Solo uses the 2-player entries (L1855).
    pub fn players(&self) -> usize {
        if self.options.solo {
            2
        } else {
            self.origins.len()
        }
    }

    pub fn enemy(&self, id: u32) -> Option<&Enemy> {
        self.enemies.iter().find(|e| e.id == id)
    }

    pub fn enemy_mut(&mut self, id: u32) -> Option<&mut Enemy> {
        self.enemies.iter_mut().find(|e| e.id == id)
    }

    /// The location is over, or only its interlude is left.
    pub fn over(&self) -> bool {
        matches!(self.phase, Phase::Finished { .. } | Phase::Interlude(_))
    }

    pub fn in_combat(&self) -> bool {
        !self.enemies.is_empty()
    }

    pub fn standing(&self) -> impl Iterator<Item = Seat> + '_ {
        self.origins.iter().enumerate().filter(|(_, o)| !o.downed).map(|(s, _)| s as Seat)
    }
}

/// The deck an item or rune card belongs to: `equipment_<level>`, one of
/// the four consumable decks, `unique` or `runes` (G19-G22). None for an
/// unknown card.
pub fn item_deck(cat: &Catalogue, card: &str) -> Option<String> {
    if cat.runes.contains_key(card) {
        return Some("runes".into());
    }
    let d = cat.items.get(card)?;
    Some(match d.kind {
        _ if d.unique => "unique".into(),
        ItemKind::Equipment(_) => format!("equipment_{}", d.level),
        ItemKind::Consumable(c) => consumable_deck(c).into(),
    })
}

/// The name of a consumable deck in [`DivinityState::item_decks`].
pub fn consumable_deck(c: super::content::ConsumableDeck) -> &'static str {
    use super::content::ConsumableDeck as C;
    match c {
        C::Scrolls => "scrolls",
        C::Potions => "potions",
        C::Grenades => "grenades",
        C::Arrows => "arrows",
    }
}

/// The item decks at a location's setup (L1031): every item and rune card
/// of the catalogue that no Origin carries, one copy each, shuffled.
pub fn item_decks(cat: &Catalogue, carried: &[&String], rng: &mut GameRng) -> BTreeMap<String, Vec<String>> {
    let mut decks: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for card in cat.items.keys().chain(cat.runes.keys()) {
        if carried.contains(&card) {
            continue;
        }
        if let Some(d) = item_deck(cat, card) {
            decks.entry(d).or_default().push(card.clone());
        }
    }
    for cards in decks.values_mut() {
        rng.shuffle(cards);
    }
    decks
}

/// Which equipment slot kinds an item list fills: two hands, one head,
/// one chest, one trinket (R126-R128, G8).
pub fn fits<S: AsRef<str>>(cat: &Catalogue, equipped: &[S]) -> bool {
    Slots::of(cat, equipped).fit()
}

/// The equipment slots a list of items takes, counted once (a look-up per
/// item), so that adding or removing an item and asking again costs no
/// look-up: the legal list asks it of every trade and equip.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Slots {
    hands: u32,
    head: u32,
    chest: u32,
    trinket: u32,
    /// A consumable or an unknown card among them: nothing fits.
    other: bool,
}

impl Slots {
    pub fn of<S: AsRef<str>>(cat: &Catalogue, items: &[S]) -> Slots {
        items.iter().fold(Slots::default(), |s, id| s.with(cat.items.get(id.as_ref()).map(|d| d.kind)))
    }

    /// With one more item of `kind` (`None`: an unknown card).
    pub fn with(mut self, kind: Option<ItemKind>) -> Slots {
        match kind {
            Some(ItemKind::Equipment(slot)) => {
                let (n, by) = self.slot(slot);
                *n += by;
            }
            _ => self.other = true,
        }
        self
    }

    /// Without one piece of equipment in `slot`.
    pub fn without(mut self, slot: Slot) -> Slots {
        let (n, by) = self.slot(slot);
        *n = n.saturating_sub(by);
        self
    }

    /// The count an item of `slot` adds to, and by how much.
    fn slot(&mut self, slot: Slot) -> (&mut u32, u32) {
        match slot {
            Slot::OneHand => (&mut self.hands, 1),
            Slot::TwoHands => (&mut self.hands, 2),
            Slot::Head => (&mut self.head, 1),
            Slot::Chest => (&mut self.chest, 1),
            Slot::Trinket => (&mut self.trinket, 1),
        }
    }

    /// Two hands (a two-handed item takes both), one head, one chest, one
    /// trinket, and nothing that is not equipment.
    pub fn fit(self) -> bool {
        !self.other && self.hands <= 2 && self.head <= 1 && self.chest <= 1 && self.trinket <= 1
    }
}

/// The interlude under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interlude {
    pub to: String,
    pub level_up: bool,
    /// Origins that have finished levelling up.
    pub leveled: Vec<bool>,
    /// The entry fee is paid: selling and restocking are open (L1357, L1361).
    pub merchant_open: bool,
    /// Items the Merchant has revealed and nobody bought yet.
    pub offer: Vec<String>,
}

/// A deck the Merchant may show: an equipment deck of a level, or a consumable deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum MerchantDeck {
    Equipment(u32),
    Consumables(ConsumableDeck),
}

// Copies. The server keeps the state before each action (for a take-back
// and the events' words) and `apply_with` keeps one to restore on a
// refusal: both copy into a state kept from the last time (`clone_from`),
// which this `Clone` makes reuse the allocations already there, field by
// field (a list's buffer and its items', a text's bytes), instead of
// allocating the whole state anew and freeing the old one.

/// `Clone` field by field with a `clone_from` that hands each field its own
/// `clone_from`, and each map (`maps { .. }`) [`clone_map_from`]. The
/// patterns name every field without `..`: a field added to the type and
/// not here does not compile.
macro_rules! clone_by_field {
    ($t:ident { $($f:ident),* $(,)? } $(maps { $($m:ident),* $(,)? })?) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                let $t { $($f,)* $($($m,)*)? } = self;
                $t { $($f: $f.clone(),)* $($($m: $m.clone(),)*)? }
            }

            fn clone_from(&mut self, source: &Self) {
                let $t { $($f,)* $($($m,)*)? } = source;
                $(self.$f.clone_from($f);)*
                $($($crate::divinity::state::clone_map_from(&mut self.$m, $m);)*)?
            }
        }
    };
}
pub(super) use clone_by_field;

/// `dst` made equal to `src`. std's maps copy every node and key anew even
/// in `clone_from`; most of a state's maps keep their keys from one action
/// to the next (the item decks' names, the uses of a round), so when the
/// keys are the same only the values are copied, each into its own.
pub(super) fn clone_map_from<K: Clone + Eq, V: Clone>(dst: &mut BTreeMap<K, V>, src: &BTreeMap<K, V>) {
    if dst.len() == src.len() && dst.keys().eq(src.keys()) {
        for (d, s) in dst.values_mut().zip(src.values()) {
            d.clone_from(s);
        }
    } else {
        dst.clone_from(src);
    }
}

clone_by_field!(DivinityState {
    options,
    rng,
    location,
    level,
    origins,
    enemies,
    next_enemy,
    map,
    deck,
    holding,
    discard,
    combat_stack,
    revealed,
    time,
    time_paused,
    round,
    round_kind,
    explored,
    phase,
    choice,
    enemy_queue,
    queue_fast,
    reaction,
    challenge,
    overflow,
    gold,
    journal,
    found,
} maps { stack_rounds, item_decks, used });

clone_by_field!(DivinityOptions {
    party,
    location,
    campaign,
    solo,
    unrestricted_talents,
    honor_mode,
    reroll_enemy_rolls,
    party_breaks_ties,
    leader,
});

clone_by_field!(CampaignState {
    rules_version,
    location,
    level,
    gold,
    journal,
    origins,
    found,
    finished,
    unrestricted_talents,
    honor_mode,
});

clone_by_field!(OriginSave { origin, talents, skills, items, collar_broken, runes });

clone_by_field!(OriginState {
    origin,
    level,
    hp,
    ap,
    source,
    space,
    downed,
    track,
    hand,
    skills,
    talents,
    talents_used,
    equipped,
    backpack,
    summon,
    collar_broken,
    runes,
});

clone_by_field!(AttachedRune { rune, item, side });

clone_by_field!(Enemy { id, letter, kind, hp, max_hp, space, fast, track, ap, tactics });
