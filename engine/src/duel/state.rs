//! Everything a duel is, secrets included. Views (see `view.rs`) decide what
//! of it each seat may see.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::alpha::AlphaDesign;
use super::board::{BoardLayout, Grid};
use super::card::{Armor, CardId, Catalogue, Condition, Passive, Until};
use crate::hex::Hex;
use crate::rng::GameRng;
use crate::{Outcome, Seat};

pub use super::figure::{Figure, UnitId};

/// Agreed before the Creation Phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DuelOptions {
    /// Each player's summoning points (the book recommends 250, at most 500).
    pub summoning_points: u32,
    /// The board; the shipped default when absent.
    pub board: Option<BoardLayout>,
    /// Campaign variant: four Alphas prepared, at most three revealed.
    pub campaign: Option<CampaignGame>,
    /// Who plays first; drawn from the seed when absent (the book's rule).
    /// Fixing it is for scenarios and tests.
    pub first_player: Option<Seat>,
}

impl Default for DuelOptions {
    fn default() -> Self {
        DuelOptions { summoning_points: 250, board: None, campaign: None, first_player: None }
    }
}

/// One game of a campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct CampaignGame {
    /// Each seat's four Alphas of the previous game; empty for the first game.
    pub previous: [Vec<AlphaDesign>; 2],
}

/// The summoning limit the book recommends never to pass.
pub const MAX_SUMMONING_POINTS: u32 = 500;
/// The first turn: up to 3 units of total cost at most 60 (or one of any cost).
pub const FIRST_TURN_MAX_UNITS: usize = 3;
pub const FIRST_TURN_MAX_COST: u32 = 60;
/// A DI stack: up to 4 cards, at most 8 divine points.
pub const DI_STACK_MAX_CARDS: usize = 4;
pub const DI_STACK_MAX_POINTS: u32 = 8;
/// Life lost when drowning, when crushed, when falling.
pub const DROWN_LOSS: u32 = 5;
pub const CRUSH_LOSS: u32 = 3;
pub const FALL_LOSS: u32 = 3;
/// Attack bonus from higher ground.
pub const HEIGHT_BONUS: i32 = 2;

/// One of a player's Alphas.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Alpha {
    /// Shared: fixed once locked in, and copied with every action otherwise.
    pub design: std::sync::Arc<AlphaDesign>,
    /// Face up since its first summon.
    pub revealed: bool,
    pub figure: Option<Figure>,
    pub cost: u32,
    pub max_life: u32,
    pub life: u32,
    /// Single-use cubes left on each card, shared by all units of this Alpha.
    pub cubes: BTreeMap<CardId, u32>,
    /// The passives of its cards in the standard catalogue, worked out the
    /// first time the rules ask ([`Alpha::has_passive`]): they ask many
    /// times an action, and each card is looked up by its name. Not part
    /// of the state: never serialized (nor hashed), never compared.
    /// (Shared: a player's side is copied whenever it changes.)
    #[serde(skip)]
    pub passives: Memo<std::sync::Arc<[Passive]>>,
    /// The armor of its cards in the standard catalogue, worked out the
    /// first time it is asked ([`Alpha::armor`]), as `passives`: every
    /// view of every record asks it of every Alpha on the board.
    #[serde(skip)]
    pub armor: Memo<Armor>,
}

impl Alpha {
    /// Whether any card of the Alpha has a passive matching `pred`
    /// ([`AlphaDesign::has_passive`], remembered for the standard
    /// catalogue: the design never changes once the Alpha exists).
    pub fn has_passive(&self, cat: &Catalogue, pred: impl Fn(&Passive) -> bool) -> bool {
        if !std::ptr::eq(cat, Catalogue::standard()) {
            return self.design.has_passive(cat, pred);
        }
        self.passives.get_or_init(|| self.design.passives(cat).into()).iter().any(pred)
    }

    /// The armor of one of its units before conditions
    /// ([`AlphaDesign::armor`], remembered for the standard catalogue).
    pub fn armor(&self, cat: &Catalogue) -> Armor {
        if !std::ptr::eq(cat, Catalogue::standard()) {
            return self.design.armor(cat);
        }
        *self.armor.get_or_init(|| self.design.armor(cat))
    }
}

/// A value worked out from the rest of its struct on first use and kept:
/// copied with it, but never compared (two equal structs hold the same
/// one, or one not yet worked out) and left out of its serialization.
#[derive(Default)]
pub struct Memo<T>(std::sync::OnceLock<T>);

impl<T> Memo<T> {
    pub fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(f)
    }
}

impl<T: Clone> Clone for Memo<T> {
    fn clone(&self) -> Memo<T> {
        Memo(self.0.clone())
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Memo<T>) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}

impl<T> std::fmt::Debug for Memo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

/// A player's side of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Set when the player locks in their creations.
    pub alphas: Vec<Alpha>,
    /// Top first.
    pub di_stack: Vec<CardId>,
    /// The stack as it was locked in (what the commitment hash covers).
    pub locked_stack: Vec<CardId>,
    pub locked: bool,
    /// The summoning points tracker: points spent so far.
    pub spent: u32,
    /// The turn in which this player last cast a DI (one per turn).
    pub di_cast_turn: Option<u32>,
    /// Has this player had their first turn?
    pub had_first_turn: bool,
    /// Skip response windows automatically.
    pub auto_pass: bool,
    /// The seat asked to be asked even when it can cast nothing: the
    /// server then leaves such a window open for it instead of passing for
    /// it (`Duel::auto_action`). A setting, secret to its seat; left out
    /// of the JSON while false, so earlier states hash as they did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hold_windows: bool,
    /// Cards discarded from the top of the stack: removed from the game
    /// (L818-823), so no rewind brings them back. Secret to the owner.
    #[serde(default)]
    pub discarded: Vec<CardId>,
}

/// A condition marker on a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub condition: Condition,
    pub until: Until,
    /// Who put it there (whose upkeep ends `your_next_upkeep`).
    pub by: Seat,
    /// The lasting DI it belongs to, if any.
    pub di: Option<u32>,
}

/// A unit on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub owner: Seat,
    /// Who acts for it now (the owner unless a Dark Mentalist took it).
    pub controller: Seat,
    pub alpha: usize,
    pub hex: Hex,
    pub summoned_turn: u32,
    pub activated_turn: Option<u32>,
    /// Armor points already used this turn.
    pub used_physical: u32,
    pub used_magical: u32,
    /// Flying exception 3: during its last activation it used a power that
    /// targeted a hex or a non-flying unit.
    pub exposed: bool,
    pub markers: Vec<Marker>,
    /// Extra m granted for this turn (Time Warp) and not yet used.
    pub extra_m: u32,
    /// Weapon Lore bookkeeping for this turn.
    pub hit_by_non_lore: bool,
    pub lore_bonus_taken: bool,
}

/// A relic token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relic {
    pub hex: Hex,
    /// The turn it last moved in (golden rule 2).
    pub moved_turn: Option<u32>,
}

/// A lasting Divine Intervention with its duration cubes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveDi {
    pub id: u32,
    pub owner: Seat,
    pub card: CardId,
    pub cubes: u32,
    pub unit: Option<UnitId>,
}

/// The part of the turn the active player is in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// A player's first turn: summoning only. Costs of the units summoned so far.
    FirstTurn { summoned: Vec<u32> },
    /// Units activate one after the other.
    Activation,
    /// After all activations: at most one summon, then the turn ends.
    Summoning { summoned: bool },
}

/// The unit now activating and what it has left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub unit: UnitId,
    pub m: u32,
    pub a: u32,
    /// Whether it has spent an a (flying units cannot move afterwards).
    pub spent_a: bool,
    pub started_in_water: bool,
    /// Set once the player ended it; the opponent's response window is open.
    pub ended: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    Creation,
    Command,
    Finished { outcome: Outcome },
}

/// The battle on the board: everything a rewind restores, the match at one
/// moment (the DI machinery around it is [`DuelState`]'s).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub phase: Phase,
    /// Each player's summoning points (agreed in the options).
    pub max_points: u32,
    pub grid: Grid,
    pub summoning_hexes: [Vec<Hex>; 2],
    pub relics: Vec<Relic>,
    /// Shared between copies of the state: see [`Battle::player_mut`].
    pub players: [std::sync::Arc<Player>; 2],
    pub units: Vec<Unit>,
    pub next_unit: UnitId,
    pub active_dis: Vec<ActiveDi>,
    pub next_di: u32,
    /// Turns since the Command Phase began, from 1.
    pub turn: u32,
    pub active: Seat,
    pub first_player: Seat,
    pub step: Step,
    pub activation: Option<Activation>,
    /// Casualty choices the defender owes after a multi-target attack.
    pub casualties: Vec<Casualty>,
    /// A forced relic holder's controller, not the pusher, decides whether
    /// the relic goes along (L1195-1197): the push waits for that answer.
    #[serde(default)]
    pub relic_choice: Option<RelicChoice>,
}

/// The defender chooses which of several hit units of one Alpha dies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Casualty {
    pub seat: Seat,
    pub candidates: Vec<UnitId>,
}

/// A push halted before its first hex until the pushed relic holder's
/// controller (the other seat than the pusher) says whether the relic goes
/// along. The push's other choices were made by the pusher and are kept here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelicChoice {
    /// Who decides: the pushed unit's controller.
    pub seat: Seat,
    pub unit: UnitId,
    pub direction: u8,
    pub distance: u32,
    /// Pushed by a unit's power: the power's checkpoint is taken once the
    /// push is done, so no rewind lands inside a power.
    pub by_power: bool,
}

/// A DI waiting for the other player's answer; a response resolves first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingDi {
    pub caster: Seat,
    pub card: CardId,
    pub target: super::action::Target,
}

/// The whole duel.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelState {
    pub options: DuelOptions,
    pub rng: GameRng,
    pub game: Battle,
    /// Snapshots of the current activation: at its start and after each power.
    /// The opponent may time a DI at any of them (DESIGN.md, DI timing).
    /// Shared, so copying the state for an action does not copy them.
    pub checkpoints: Vec<std::sync::Arc<Battle>>,
    pub pending: Option<PendingDi>,
    /// The seat whose response window is open after an activation ended.
    pub window: Option<Seat>,
    pub draw_offer: Option<Seat>,
}

/// Field by field, as derived; `clone_from` keeps the copy's own
/// allocations (the legal list tries actions on one copy, overwritten from
/// the state again and again).
impl Clone for Battle {
    fn clone(&self) -> Battle {
        let Battle {
            phase,
            max_points,
            grid,
            summoning_hexes,
            relics,
            players,
            units,
            next_unit,
            active_dis,
            next_di,
            turn,
            active,
            first_player,
            step,
            activation,
            casualties,
            relic_choice,
        } = self;
        Battle {
            phase: phase.clone(),
            max_points: *max_points,
            grid: grid.clone(),
            summoning_hexes: summoning_hexes.clone(),
            relics: relics.clone(),
            players: players.clone(),
            units: units.clone(),
            next_unit: *next_unit,
            active_dis: active_dis.clone(),
            next_di: *next_di,
            turn: *turn,
            active: *active,
            first_player: *first_player,
            step: step.clone(),
            activation: activation.clone(),
            casualties: casualties.clone(),
            relic_choice: relic_choice.clone(),
        }
    }

    fn clone_from(&mut self, source: &Battle) {
        // Every field named: one added does not compile here until copied.
        let Battle {
            phase,
            max_points,
            grid,
            summoning_hexes,
            relics,
            players,
            units,
            next_unit,
            active_dis,
            next_di,
            turn,
            active,
            first_player,
            step,
            activation,
            casualties,
            relic_choice,
        } = self;
        phase.clone_from(&source.phase);
        *max_points = source.max_points;
        grid.clone_from(&source.grid);
        for (side, from) in summoning_hexes.iter_mut().zip(&source.summoning_hexes) {
            side.clone_from(from);
        }
        relics.clone_from(&source.relics);
        players.clone_from(&source.players);
        units.clone_from(&source.units);
        *next_unit = source.next_unit;
        active_dis.clone_from(&source.active_dis);
        *next_di = source.next_di;
        *turn = source.turn;
        *active = source.active;
        *first_player = source.first_player;
        step.clone_from(&source.step);
        activation.clone_from(&source.activation);
        casualties.clone_from(&source.casualties);
        relic_choice.clone_from(&source.relic_choice);
    }
}

/// As [`Battle`]'s: `clone_from` keeps the copy's allocations.
impl Clone for DuelState {
    fn clone(&self) -> DuelState {
        let DuelState { options, rng, game, checkpoints, pending, window, draw_offer } = self;
        DuelState {
            options: options.clone(),
            rng: rng.clone(),
            game: game.clone(),
            checkpoints: checkpoints.clone(),
            pending: pending.clone(),
            window: *window,
            draw_offer: *draw_offer,
        }
    }

    fn clone_from(&mut self, source: &DuelState) {
        let DuelState { options, rng, game, checkpoints, pending, window, draw_offer } = self;
        options.clone_from(&source.options);
        rng.clone_from(&source.rng);
        game.clone_from(&source.game);
        checkpoints.clone_from(&source.checkpoints);
        pending.clone_from(&source.pending);
        *window = source.window;
        *draw_offer = source.draw_offer;
    }
}

impl Battle {
    /// A player's side, for changing it. Sides are shared between copies
    /// of the state (most actions leave both unchanged), so the first change
    /// after a copy copies that side only.
    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        std::sync::Arc::make_mut(&mut self.players[seat as usize])
    }

    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    pub fn unit_mut(&mut self, id: UnitId) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.id == id)
    }

    pub fn unit_at(&self, h: Hex) -> Option<&Unit> {
        self.units.iter().find(|u| u.hex == h)
    }

    pub fn alpha_of(&self, u: &Unit) -> &Alpha {
        &self.players[u.owner as usize].alphas[u.alpha]
    }

    pub fn relics_at(&self, h: Hex) -> usize {
        self.relics.iter().filter(|r| r.hex == h).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::{Duel, DuelOptions};
    use crate::Ruleset;

    /// A copy overwritten with `clone_from` is the state, whatever it held
    /// before: over random games, each state over the one of another game.
    #[test]
    fn a_copy_overwritten_is_the_state() {
        let cat = Catalogue::standard();
        let mut states = Vec::new();
        for seed in 0..4 {
            let mut s = Duel::start(&DuelOptions::default(), seed).unwrap();
            let mut bot = crate::duel::bot::RandomBot::new(seed);
            for _ in 0..300 {
                states.push(s.clone());
                let Some(seat) = bot.seat_to_act(&s) else { break };
                let Some(a) = bot.pick(&s, cat, seat) else { break };
                let _ = Duel::apply(&mut s, seat, a);
            }
        }
        let mut copy = states[states.len() / 2].clone();
        for (i, s) in states.iter().enumerate() {
            copy.clone_from(s);
            assert_eq!(&copy, s, "state {i}");
            assert_eq!(serde_json::to_string(&copy).unwrap(), serde_json::to_string(s).unwrap());
            let other = &states[(i * 7919) % states.len()];
            copy.clone_from(other);
            assert_eq!(&copy, other);
            assert_eq!(&s.game.clone(), &s.game);
        }
    }

    /// What an Alpha remembers of its passives is what its cards say,
    /// and it is not part of the state: not serialized, not compared.
    #[test]
    fn an_alphas_remembered_passives_are_its_cards_and_not_the_state() {
        let cat = Catalogue::standard();
        let mut s = Duel::start(&DuelOptions::default(), 4).unwrap();
        for (seat, preset) in [(0, "aquatic"), (1, "rush")] {
            Duel::apply(&mut s, seat, super::super::DuelAction::UsePreset { preset: preset.into() }).unwrap();
        }
        // Read back from its JSON: a copy that has worked nothing out (a
        // clone would share the players, and with them what they remember).
        let fresh: DuelState = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        let kinds: [fn(&Passive) -> bool; 4] = [
            |p| matches!(p, Passive::Flying),
            |p| matches!(p, Passive::WaterWalker),
            |p| matches!(p, Passive::Rooted),
            |p| matches!(p, Passive::Regeneration { .. }),
        ];
        let mut found = 0;
        for p in &s.game.players {
            for a in &p.alphas {
                for k in kinds {
                    let has = a.has_passive(cat, k);
                    assert_eq!(has, a.design.has_passive(cat, k));
                    found += usize::from(has);
                }
            }
        }
        assert!(found > 0, "the presets have passives to find");
        assert_eq!(s, fresh, "remembered or not, the same state");
        assert_eq!(serde_json::to_string(&s).unwrap(), serde_json::to_string(&fresh).unwrap());
        assert!(!serde_json::to_string(&s.game.players[0].alphas[0]).unwrap().contains("passives"));
    }
}
