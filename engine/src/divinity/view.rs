//! What a seat (or a spectator) sees. The party plays in the open, so every
//! seat sees the same table; what stays hidden is what is hidden at the real
//! table: the location deck (only its size shows), the item decks (only
//! their sizes show) and the order of a Boss' tactics deck (only its size
//! shows). The view also deserializes, so a client or a bot in Rust reads
//! it as the engine wrote it.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use super::content::Catalogue;
use super::damage::Environment;
use super::map::{MapDef, MapState, PathDef};
use super::state::*;
use super::view_json;
use crate::shared::Shared;
use crate::{Seat, Viewer};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardView {
    pub id: String,
    pub text: String,
}

/// A figure's armor now (L638): its card, equipped items, runes, talents,
/// face-up cards on its track and its statuses together, as an attack
/// meets it. Derived: what the table shows by adding up the cards.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmorView {
    pub physical: u32,
    pub magical: u32,
}

impl ArmorView {
    fn of(state: &DivinityState, cat: &Catalogue, who: Who) -> ArmorView {
        let d = state.defence(cat, who);
        ArmorView { physical: d.physical_armor, magical: d.magical_armor }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnemyView {
    pub id: u32,
    /// Its printed name (the minion's or Boss' card), without the letter.
    #[serde(default)]
    pub name: String,
    pub letter: Option<char>,
    pub kind: EnemyKind,
    pub hp: u32,
    pub max_hp: u32,
    #[serde(default)]
    pub armor: ArmorView,
    pub space: String,
    pub fast: bool,
    pub track: super::cooldown::Track,
    pub ap: u32,
    /// Tactics left in the Boss' draw deck (their order is secret).
    pub tactics_left: usize,
    /// A Boss' special rules, read before every encounter (L1837).
    pub special_rules: Option<String>,
}

/// A location as the book presents it: its printed name, its intro, and
/// its goal with what happens when the time track runs out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Front {
    pub name: String,
    pub intro: String,
    pub goal: String,
    /// Once the location is over: why, and what comes next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// The printed name of the location the party sets out for, once it
    /// found the way (the interlude, an exit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// A viewer's view: `you`, and the table every viewer of a record sees
/// alike ([`TableView`]), read through the view as its own fields
/// (`view.phase`). The table is shared: [`Divinity::views`] builds it once
/// for all the viewers of a record, and a viewer's copy is two counts
/// raised, not the table copied (copied, it was a quarter of `views`' work).
/// Changing a field (`DerefMut`) makes the table the view's own.
///
/// Serialized through [`Written`] when [`Divinity::views`] built it (the
/// fields' writing, serde's derive, otherwise).
///
/// [`Divinity::views`]: crate::Ruleset::views
#[derive(Clone, PartialEq)]
pub struct DivinityView {
    /// First in the JSON, so that the views of one record differ only in
    /// their JSON's first field ([`Written`]).
    pub you: Option<Seat>,
    table: Arc<TableView>,
    /// The JSON after `you`, shared by the views of one record.
    written: Written,
}

/// What every viewer of a record sees alike: all of a view but `you`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableView {
    /// A view's `you` as read from JSON (the view's own, then cleared):
    /// serde's derive reads the view's fields here in one pass, none
    /// flattened (a flattened table would not read `cards_left`'s integer
    /// keys). Never written: the view writes its own.
    #[serde(rename = "you", default, skip_serializing)]
    pub(super) read_you: Option<Seat>,
    pub location: String,
    /// The location as the book presents it, in words: its printed name,
    /// intro and goal, and once over why it ended and what comes next.
    ///
    /// This, `origins`, `enemies` and `board` are most of a view's JSON
    /// and the same for every viewer: [`Shared`], written once for all
    /// the views of one record, and kept from the record before while
    /// unchanged (`Divinity::views`).
    ///
    /// Left out (`None`), with `board`, of an update whose location and
    /// ending are as they were after the record before ([`board_key`]):
    /// the client keeps the one it has. A view without words has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub front: Option<Shared<Front>>,
    pub level: u32,
    pub round: u32,
    pub round_kind: RoundKind,
    pub phase: Phase,
    /// Seats expected to act now.
    pub waiting: Vec<Seat>,
    pub time: Option<u32>,
    pub time_length: u32,
    pub time_paused: bool,
    pub origins: Shared<Vec<Arc<OriginState>>>,
    /// Each Origin's armor now, by seat.
    #[serde(default)]
    pub armor: Vec<ArmorView>,
    pub enemies: Shared<Vec<EnemyView>>,
    pub map: MapState,
    /// The location's printed map: its spaces (indexed as `space` fields
    /// and `map` count them) and the paths between them. Public: it is the
    /// board on the table; what is discovered is in `map`. Left out
    /// (`None`) with `front` ([`board_key`]): it changes only with the
    /// location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Shared<BoardView>>,
    pub deck_size: usize,
    /// Cards left in the location deck for each numbered space, by its
    /// number: the cards' backs show it, so the party can see which spaces
    /// are fully explored (L297-301); their order stays secret.
    pub cards_left: std::collections::BTreeMap<u32, usize>,
    /// Cards left in each item deck (their order is secret).
    pub item_deck_sizes: std::collections::BTreeMap<String, usize>,
    pub holding: Vec<CardView>,
    pub revealed: Vec<CardView>,
    pub combat_stack: Vec<String>,
    pub discard: Vec<String>,
    pub gold: u32,
    pub journal: Vec<u32>,
    pub pending: Option<PendingRoll>,
    pub enemy_roll: Option<EnemyRoll>,
    /// A DOMINATED minion waiting for the party's orders.
    pub dominated_turn: Option<u32>,
    /// An enemy waiting for the party to pick its target among equals.
    pub tie: Option<TieChoice>,
    pub route: Option<super::state::RouteChoice>,
    pub reduction: Option<super::state::ReductionChoice>,
    /// An enemy waiting for the party to order its start-of-turn effects (L684).
    pub turn_start: Option<super::state::TurnStartChoice>,
    /// An Origin's roll waiting for that Origin to pick the dice it loses (L1515).
    pub roll_reduction: Option<super::state::RollReduction>,
    /// An enemy's turn on hold while a reaction's roll waits (L864).
    pub reaction: Option<super::state::ReactionWait>,
    pub challenge: Option<ChallengeState>,
    /// The back of a challenge card an automatic success flipped (L1198):
    /// its result rows in words, while the Origin chooses one. Absent
    /// otherwise: an unflipped back shows nothing, not even its size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge_rows: Option<Vec<ChallengeRow>>,
    /// Items waiting for the party to find room (L1056).
    pub overflow: Vec<super::state::Overflow>,
    /// The campaign to carry on with, once the location is over.
    pub campaign: Option<CampaignState>,
    /// During the interlude, the Merchant's prices; null otherwise.
    #[serde(default)]
    pub merchant: Option<MerchantPrices>,
}

impl std::ops::Deref for DivinityView {
    type Target = TableView;

    fn deref(&self) -> &TableView {
        &self.table
    }
}

impl std::ops::DerefMut for DivinityView {
    /// The table made this view's own (copied if other views share it),
    /// and its text to be written anew.
    fn deref_mut(&mut self) -> &mut TableView {
        self.written = Written::default();
        Arc::make_mut(&mut self.table)
    }
}

impl std::fmt::Debug for DivinityView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DivinityView").field("you", &self.you).field("table", &*self.table).finish()
    }
}

/// The JSON of the views of one record after their `you` (`,"location":…}`),
/// written the first time one of them is written and copied by the others:
/// they differ in nothing else, and writing a view's own fields (all but
/// the [`Shared`] ones) field by field was a tenth of the server's work
/// per Divinity action. Only [`Divinity::views`] sets it, on views that are
/// written as built; a view changed afterwards (`DerefMut`) forgets it
/// (debug builds check every copy against the fields' own writing). That
/// text is written by hand (`view_json`): serde's derive, even once per
/// record, was most of a view's cost.
///
/// [`Divinity::views`]: crate::Ruleset::views
#[derive(Clone, Default)]
pub(super) struct Written(Option<Arc<OnceLock<Box<str>>>>);

impl PartialEq for Written {
    /// A copy of what the fields say, not part of the view.
    fn eq(&self, _: &Written) -> bool {
        true
    }
}

impl std::fmt::Debug for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Written" } else { "-" })
    }
}

/// A view written by its fields (serde's derive): `you`, then the
/// table's.
#[derive(Serialize)]
struct ByFields<'a> {
    you: Option<Seat>,
    #[serde(flatten)]
    table: &'a TableView,
}

impl<'a> ByFields<'a> {
    fn of(view: &'a DivinityView) -> ByFields<'a> {
        ByFields { you: view.you, table: &view.table }
    }
}

impl DivinityView {
    /// This view's JSON appended to `out`, as serde's derive writes it
    /// (`Divinity::write_view`: straight into a frame): `you`, then the
    /// text after it, written once for every view of a record that shares
    /// it. A view built alone, with nothing to share, goes through serde.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let Some(shared) = &self.written.0 else {
            serde_json::to_writer(out, &ByFields::of(self)).expect("a view serializes");
            return;
        };
        let rest = shared.get_or_init(|| {
            // A view is 3 to 6.5 KiB (party-bot games): one allocation.
            let mut rest = Vec::with_capacity(8 << 10);
            super::view_json::rest(&self.table, &mut rest, false);
            // SAFETY: UTF-8: ASCII, the view's strings (escaped as serde
            // escapes, which keeps them UTF-8) and serde_json's text.
            unsafe { String::from_utf8_unchecked(rest) }.into_boxed_str()
        });
        let mut seat = itoa::Buffer::new();
        let you = self.you.map_or("null", |s| seat.format(s));
        let start = out.len();
        out.reserve(7 + you.len() + rest.len());
        out.extend_from_slice(b"{\"you\":");
        out.extend_from_slice(you.as_bytes());
        out.extend_from_slice(rest.as_bytes());
        debug_assert_eq!(
            out[start..],
            *serde_json::to_vec(&ByFields::of(self)).unwrap(),
            "a view changed after it was written"
        );
    }
}

impl Serialize for DivinityView {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.written.0.is_none() {
            return ByFields::of(self).serialize(serializer);
        }
        // Exactly its length: the text becomes a boxed str, shrunk to fit.
        let mut text = Vec::new();
        self.write_json(&mut text);
        // SAFETY: UTF-8: ASCII and the shared text, a `str`.
        let text = unsafe { String::from_utf8_unchecked(text) };
        // SAFETY: a view's JSON as serde_json writes it (tests hold the
        // two equal; debug builds check each), its `you` written as
        // serde_json writes an integer or null: one JSON object.
        let raw = unsafe { RawValue::from_string_unchecked(text) };
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for DivinityView {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<DivinityView, D::Error> {
        let mut table = TableView::deserialize(deserializer)?;
        Ok(DivinityView::new(table.read_you.take(), table))
    }
}

/// What the Merchant asks and pays (L1356-1363): the printed cost of each
/// ware on show, and what each item the Origins carry sells for (half its
/// cost, rounded up; runes and items without a cost are not bought).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MerchantPrices {
    pub buy: std::collections::BTreeMap<String, u32>,
    pub sell: std::collections::BTreeMap<String, u32>,
}

impl MerchantPrices {
    fn of(state: &DivinityState, cat: &Catalogue) -> Option<MerchantPrices> {
        let Phase::Interlude(i) = &state.phase else { return None };
        let cost = |item: &String| cat.items.get(item).and_then(|d| d.cost);
        let buy = i.offer.iter().filter_map(|item| Some((item.clone(), cost(item)?))).collect();
        let carried = state.origins.iter().flat_map(|o| o.equipped.iter().chain(&o.backpack));
        let sell = carried.filter_map(|item| Some((item.clone(), cost(item)?.div_ceil(2)))).collect();
        Some(MerchantPrices { buy, sell })
    }
}

/// `viewer`'s view without its words: the location's front and the
/// challenge rows are [`super::words::tell`]'s.
pub fn view(state: &DivinityState, cat: &Catalogue, viewer: Viewer) -> DivinityView {
    view_after(state, cat, viewer, None, Board::Shown)
}

/// Whether a view carries the board and the front, the parts that change
/// only with the location and its ending ([`board_key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Board {
    Shown,
    /// Left out: the receiver has them from the record before.
    Left,
}

impl Board {
    pub(super) fn shown_if(shown: bool) -> Board {
        if shown {
            Board::Shown
        } else {
            Board::Left
        }
    }
}

/// Everything a view's `board` and `front` are made of, as bytes: the
/// location, and how it ended once over (what the front's outcome and
/// next read). Equal keys, equal boards and fronts, in every viewer's
/// view (both are public). A room keeps one between records: a few dozen
/// bytes.
pub(super) fn board_key(state: &DivinityState, cat: &Catalogue) -> Vec<u8> {
    let mut key = Vec::with_capacity(state.location.len() + 24);
    // The board is the location's printed map: the front's key names it.
    super::words::front_key(state, cat, &mut key);
    key
}

/// The Origins of `state` for a view: each one equal to the same seat's
/// in the record before's view (`before`) is shared with it (a reference
/// count), the others copied. Most actions change one Origin of three or
/// four.
fn origins_after(state: &DivinityState, before: &[Arc<OriginState>]) -> Vec<Arc<OriginState>> {
    state
        .origins
        .iter()
        .enumerate()
        .map(|(seat, o)| match before.get(seat) {
            Some(b) if **b == *o => Arc::clone(b),
            _ => Arc::new(o.clone()),
        })
        .collect()
}

/// [`view`], the Origins taken from `before` (a view of the record
/// before) when they did not change: compared, not copied first. The
/// board left out when `board` says so (the front is the words').
pub(super) fn view_after(
    state: &DivinityState,
    cat: &Catalogue,
    viewer: Viewer,
    before: Option<&DivinityView>,
    board: Board,
) -> DivinityView {
    let loc = state.loc(cat);
    let card =
        |id: &String| CardView { id: id.clone(), text: loc.card(id).map(|c| c.text.clone()).unwrap_or_default() };
    let table = TableView {
        read_you: None,
        location: state.location.clone(),
        front: None,
        level: state.level,
        round: state.round,
        round_kind: state.round_kind,
        phase: state.phase.clone(),
        waiting: match super::Divinity::status_of(state, cat) {
            crate::Status::Waiting { seats } => seats,
            crate::Status::Finished(_) => Vec::new(),
        },
        time: state.time,
        time_length: loc.time.length,
        time_paused: state.time_paused,
        origins: match before {
            Some(b) if b.origins.iter().map(|o| &**o).eq(state.origins.iter()) => b.origins.clone(),
            // SAFETY: `view_json::origin` writes one JSON object, as serde
            // does (`tests/divinity_view_json.rs`); the text of the
            // Origins that did not change is copied from the record before's.
            Some(b) => unsafe {
                Shared::list_with_json(origins_after(state, &b.origins), view_json::origin, Some(&b.origins))
            },
            // SAFETY: `view_json::origins_json` writes one JSON array, as serde does.
            None => unsafe {
                Shared::with_json(state.origins.iter().cloned().map(Arc::new).collect(), |o, out| {
                    view_json::origins_json(o, out)
                })
            },
        },
        armor: (0..state.origins.len()).map(|s| ArmorView::of(state, cat, Who::Origin(s as Seat))).collect(),
        enemies: enemies_after(
            state
                .enemies
                .iter()
                .map(|e| EnemyView {
                    id: e.id,
                    name: match &e.kind {
                        EnemyKind::Minion { card, .. } => {
                            cat.minions.get(card).map_or_else(String::new, |m| m.name.clone())
                        }
                        EnemyKind::Boss { boss } => cat.bosses.get(boss).map_or_else(String::new, |b| b.name.clone()),
                    },
                    letter: e.letter,
                    kind: e.kind.clone(),
                    hp: e.hp,
                    max_hp: e.max_hp,
                    armor: ArmorView::of(state, cat, Who::Enemy(e.id)),
                    space: state.space_id(cat, e.space),
                    fast: e.fast,
                    track: e.track.clone(),
                    ap: e.ap,
                    tactics_left: e.tactics.len(),
                    special_rules: match &e.kind {
                        EnemyKind::Boss { boss } => cat.bosses.get(boss).map(|b| b.special_rules.clone()),
                        EnemyKind::Minion { .. } => None,
                    },
                })
                .collect(),
            before,
        ),
        map: state.map.clone(),
        board: match board {
            Board::Shown => Some(board_of(cat, state)),
            Board::Left => None,
        },
        deck_size: state.deck.len(),
        cards_left: state.deck.iter().filter_map(|c| loc.card(c).and_then(|c| c.space)).fold(
            std::collections::BTreeMap::new(),
            |mut m, n| {
                *m.entry(n).or_insert(0) += 1;
                m
            },
        ),
        item_deck_sizes: state.item_decks.iter().map(|(k, v)| (k.clone(), v.len())).collect(),
        holding: state.holding.iter().map(card).collect(),
        revealed: state.revealed.iter().map(|r| card(&r.card)).collect(),
        combat_stack: state.combat_stack.clone(),
        discard: state.discard.clone(),
        gold: state.gold,
        journal: state.journal.clone(),
        pending: state.pending_roll().cloned(),
        enemy_roll: state.enemy_roll().cloned(),
        dominated_turn: state.dominated_turn(),
        tie: state.tie().cloned(),
        route: state.route().cloned(),
        reduction: state.reduction().cloned(),
        turn_start: state.turn_start().cloned(),
        roll_reduction: state.roll_reduction().cloned(),
        reaction: state.reaction.clone(),
        challenge: state.challenge.clone(),
        challenge_rows: None,
        overflow: state.overflow.clone(),
        campaign: super::Divinity::campaign(state, cat),
        merchant: MerchantPrices::of(state, cat),
    };
    DivinityView::new(viewer.seat(), table)
}

/// The enemies as views show them: `before`'s (a view of the record
/// before) when equal, else written now by hand, copying the text of the
/// enemies that did not change.
fn enemies_after(enemies: Vec<EnemyView>, before: Option<&DivinityView>) -> Shared<Vec<EnemyView>> {
    match before {
        Some(b) if *b.enemies == enemies => b.enemies.clone(),
        // SAFETY: `view_json::enemy` writes one JSON object, as serde does
        // (`tests/divinity_view_json.rs`).
        Some(b) => unsafe { Shared::list_with_json(enemies, view_json::enemy, Some(&b.enemies)) },
        // SAFETY: `view_json::enemies_json` writes one JSON array, as serde does.
        None => unsafe { Shared::with_json(enemies, |e, out| view_json::enemies_json(e, out)) },
    }
}

/// The spectator's view as far as the words of actions and events read it
/// (`words::Names`: the location, the Origins, each enemy's id, kind and
/// letter, the cards shown, the rolls, routes and reductions waiting),
/// everything else left empty: what the server names things from, a
/// fraction of a whole view's cost. Tests hold the words named from it
/// those named from the whole view.
pub(super) fn names_only(state: &DivinityState, cat: &Catalogue) -> DivinityView {
    let loc = state.loc(cat);
    let card =
        |id: &String| CardView { id: id.clone(), text: loc.card(id).map(|c| c.text.clone()).unwrap_or_default() };
    let table = TableView {
        read_you: None,
        location: state.location.clone(),
        front: None,
        level: state.level,
        round: state.round,
        round_kind: state.round_kind,
        phase: Phase::Resolve,
        waiting: Vec::new(),
        time: None,
        time_length: 0,
        time_paused: false,
        // Of an Origin, words read which it is, where it stands and
        // whether it is downed.
        origins: Shared::new(
            state
                .origins
                .iter()
                .map(|o| {
                    Arc::new(OriginState {
                        origin: o.origin.clone(),
                        level: 0,
                        hp: 0,
                        ap: 0,
                        source: 0,
                        space: o.space,
                        downed: o.downed,
                        track: super::cooldown::Track { slots: Vec::new() },
                        hand: Vec::new(),
                        skills: Vec::new(),
                        talents: Vec::new(),
                        talents_used: Vec::new(),
                        equipped: Vec::new(),
                        backpack: Vec::new(),
                        summon: None,
                        collar_broken: false,
                        runes: Vec::new(),
                    })
                })
                .collect(),
        ),
        armor: Vec::new(),
        enemies: Shared::new(
            state
                .enemies
                .iter()
                .map(|e| EnemyView {
                    id: e.id,
                    name: String::new(),
                    letter: e.letter,
                    kind: e.kind.clone(),
                    hp: 0,
                    max_hp: 0,
                    armor: ArmorView::default(),
                    space: String::new(),
                    fast: false,
                    track: super::cooldown::Track { slots: Vec::new() },
                    ap: 0,
                    tactics_left: 0,
                    special_rules: None,
                })
                .collect(),
        ),
        map: MapState::default(),
        board: None,
        deck_size: 0,
        cards_left: std::collections::BTreeMap::new(),
        item_deck_sizes: std::collections::BTreeMap::new(),
        holding: state.holding.iter().map(card).collect(),
        revealed: state.revealed.iter().map(|r| card(&r.card)).collect(),
        combat_stack: Vec::new(),
        discard: Vec::new(),
        gold: 0,
        journal: Vec::new(),
        pending: state.pending_roll().cloned(),
        enemy_roll: state.enemy_roll().cloned(),
        dominated_turn: None,
        tie: None,
        route: state.route().cloned(),
        reduction: None,
        turn_start: None,
        roll_reduction: state.roll_reduction().cloned(),
        reaction: None,
        challenge: None,
        challenge_rows: None,
        overflow: Vec::new(),
        campaign: None,
        merchant: None,
    };
    DivinityView::new(None, table)
}

/// One result row on the back of a flipped challenge card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRow {
    /// The hits a roll needs for this row.
    pub min_hits: u32,
    /// What it does, in words.
    pub text: String,
}

/// A location's printed map as a view shows it (`board`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    pub spaces: Vec<BoardSpace>,
    /// Paths between two spaces (by `space`), locked until a key is on them.
    pub paths: Vec<PathDef>,
}

/// One printed space. Its id is under `space`, as in every other place a
/// view names a space: location cards share that spelling ("1") without
/// being named by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSpace {
    /// The id actions name it by (`move`, `travel`, a card's aim).
    pub space: String,
    /// None for a tactical space.
    pub number: Option<u32>,
    pub name: String,
    /// Undiscovered until a location card is placed on it (L1100).
    pub locked: bool,
    pub multicard: bool,
    /// The printed environment, if any.
    pub environment: Option<Environment>,
}

/// The location's printed map as views show it. The standard catalogue's
/// are built once a process, each with its JSON once written: every view
/// of every match at that location then shares it (the board is a quarter
/// of a view's JSON and never changes).
fn board_of(cat: &Catalogue, state: &DivinityState) -> Shared<BoardView> {
    static BOARDS: std::sync::OnceLock<std::collections::BTreeMap<String, Shared<BoardView>>> =
        std::sync::OnceLock::new();
    if std::ptr::eq(cat, Catalogue::standard()) {
        let boards = BOARDS.get_or_init(|| {
            // SAFETY: `view_json::board_json` writes one JSON object, as
            // serde does (`tests/divinity_view_json.rs`).
            cat.locations
                .iter()
                .map(|(id, l)| (id.clone(), unsafe { Shared::with_json(BoardView::of(&l.map), view_json::board_json) }))
                .collect()
        });
        if let Some(b) = boards.get(&state.location) {
            return b.clone();
        }
    }
    Shared::new(BoardView::of(&state.loc(cat).map))
}

impl BoardView {
    fn of(def: &MapDef) -> BoardView {
        BoardView {
            spaces: def
                .spaces
                .iter()
                .map(|sp| BoardSpace {
                    space: sp.id.clone(),
                    number: sp.number,
                    name: sp.name.clone(),
                    locked: sp.locked,
                    multicard: sp.multicard,
                    environment: sp.environment,
                })
                .collect(),
            paths: def.paths.clone(),
        }
    }
}

impl DivinityView {
    pub(super) fn new(you: Option<Seat>, table: TableView) -> DivinityView {
        DivinityView { you, table: Arc::new(table), written: Written::default() }
    }

    /// Marks the view as one of the views of a record, each written as
    /// built: the first written writes the JSON after `you` for all the
    /// copies of this one ([`Written`]).
    pub(super) fn write_once(&mut self) {
        self.written = Written(Some(Arc::default()));
    }

    /// Whether `self` and `other` are views of one table (built once for
    /// a record's viewers, not equal tables built twice): for tests.
    #[doc(hidden)]
    pub fn shares_table(&self, other: &DivinityView) -> bool {
        Arc::ptr_eq(&self.table, &other.table)
    }

    /// The view's JSON as serde's derive writes it, the shared parts
    /// included (none of the hand writing): what tests hold
    /// [`DivinityView::json_by_hand`] and the views' own writing equal to.
    #[doc(hidden)]
    pub fn json_by_serde(&self) -> String {
        // Changed, the copy forgets the text written once (`DerefMut`).
        let mut plain = self.clone();
        plain.front = self.front.as_ref().map(|f| Shared::new((**f).clone()));
        plain.origins = Shared::new((*self.origins).clone());
        plain.enemies = Shared::new((*self.enemies).clone());
        plain.board = self.board.as_ref().map(|b| Shared::new((**b).clone()));
        serde_json::to_string(&ByFields::of(&plain)).expect("a view serializes")
    }

    /// The view's JSON written by hand whole, the shared parts written anew
    /// (not copied from their text once written): for tests.
    #[doc(hidden)]
    pub fn json_by_hand(&self) -> String {
        let mut out = Vec::new();
        view_json::whole(self, &mut out);
        String::from_utf8(out).expect("UTF-8")
    }

    /// Takes from `before` (a view of the record before) each shared part
    /// that did not change, with its JSON already written: the board never
    /// changes within a location, the front and the enemies seldom.
    pub(super) fn share_unchanged(&mut self, before: &DivinityView) {
        fn take<T: PartialEq>(now: &mut Option<Shared<T>>, before: &Option<Shared<T>>) {
            if let (Some(n), Some(b)) = (now.as_ref(), before) {
                if !n.same(b) && n == b {
                    *now = Some(b.clone());
                }
            }
        }
        take(&mut self.board, &before.board);
        take(&mut self.front, &before.front);
        if !self.origins.same(&before.origins) && self.origins == before.origins {
            self.origins = before.origins.clone();
        }
        if !self.enemies.same(&before.enemies) && self.enemies == before.enemies {
            self.enemies = before.enemies.clone();
        }
    }
}
