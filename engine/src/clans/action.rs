//! What a seat may ask for. Tagged JSON like the other games' actions:
//! `{"type": "attack", "figure": 3, "target": 7}` (`protocol/CLANS.md`).

use serde::{Deserialize, Serialize};

use super::content::CardId;
use super::grid::Pos;
use super::state::FigureId;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type", deny_unknown_fields)]
pub enum ClansAction {
    /// Setup, in secret: the homebase on a passable tile of your side, the
    /// God 1 step next to it (L15, L87, C4).
    Place { homebase: Pos, god: Pos },
    /// Summon an ally from your Allies stack 1 step next to your homebase (L17, L93).
    Summon { card: CardId, at: Pos },
    /// Move an ally (opening its activation) to a tile it can reach with its
    /// remaining steps (L69); the engine finds the path.
    Move { figure: FigureId, to: Pos },
    /// A standard attack (L97): the ally's action.
    Attack { figure: FigureId, target: FigureId },
    /// A (PT) special ability, index 0 or 1 on the card (L99): the ally's action.
    Ability { figure: FigureId, ability: u8, target: FigureId },
    /// Equip equipment from your tactics stack on one of your figures (L21-25).
    Equip { card: CardId, figure: FigureId },
    /// Assimilate unused equipment for SP, once per turn (L27-29).
    Assimilate { card: CardId },
    /// Use an inventory item (L31-39).
    Item { card: CardId, target: FigureId },
    /// Cast a runic art with two of your allies against an enemy (L41-49).
    RunicArt { card: CardId, caster: FigureId, partner: FigureId, target: FigureId },
    /// Cast a terrain effect (L51-59).
    Terrain { card: CardId },
    /// End your turn (L91).
    EndTurn,
    /// In a response window: an (OT) ability of one of your allies (L91, C10).
    Respond { figure: FigureId, ability: u8, target: FigureId },
    /// Close your response window.
    Pass,
    /// Give up: your God leaves the game as if it fell (C12).
    Resign,
}
