//! Everything a clans match holds, secrets included: options, the field, the
//! players (their unplayed stacks are secret, C7), the figures on the field,
//! whose turn it is and the response window.

use serde::{Deserialize, Serialize};

use super::content::{CardId, Lasts, Stat, StatusKind, TerrainEffect};
use super::grid::{Field, Pos};
use crate::rng::GameRng;
use crate::{Outcome, Seat};

/// A figure's id on the field, never reused in a match.
pub type FigureId = u32;

/// Agreed before play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClansOptions {
    /// One clan id per seat: 2 seats (1v1) or 4 (2v2, teams 0+2 and 1+3, L81).
    pub clans: Vec<String>,
    pub battlefield: String,
    /// SP gained at the start of each of a player's turns: 4 in an official
    /// game (L89); the FAQ lets casual games change it (L127).
    pub sp_per_turn: i32,
    /// EXP gained at the start of each turn: 0 officially, 1 in the FAQ's
    /// fast-paced variant (L127).
    pub exp_per_turn: i32,
    /// Player turns after which the game ends on God HP (C12); none by default.
    pub max_turns: Option<u32>,
    /// Who goes first; chosen by the seeded coin flip when absent (L89).
    pub first_player: Option<Seat>,
}

impl Default for ClansOptions {
    fn default() -> Self {
        ClansOptions {
            clans: vec!["sacred_cross".into(), "crimson_nobles".into()],
            battlefield: "river_valley".into(),
            sp_per_turn: 4,
            exp_per_turn: 0,
            max_turns: None,
            first_player: None,
        }
    }
}

/// A temporary boost from an item (L37-39).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Boost {
    pub stat: Stat,
    pub amount: i32,
    pub lasts: Lasts,
}

/// An ally (or God) on the field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub id: FigureId,
    pub owner: Seat,
    pub card: CardId,
    pub pos: Pos,
    pub hp: i32,
    pub equipment: Option<CardId>,
    /// Each status with the seat whose card applied it (EXP for a kill by
    /// status damage goes to that seat, C11). One of each at most.
    pub statuses: Vec<(StatusKind, Seat)>,
    pub boosts: Vec<Boost>,
    /// The turn it was summoned: it may not move or act in it (L93).
    pub summoned_turn: u32,
    /// Steps spent in this turn's activation (L69, L130).
    pub steps_used: i32,
    /// Took its action this turn: an attack, an ability or a runic art (L11).
    pub acted: bool,
    /// Its activation is over for this turn (L139, C8).
    pub done: bool,
    /// Used an (OT) ability in the current opponent turn (C10).
    pub ot_used: bool,
}

impl Figure {
    pub fn status(&self, s: StatusKind) -> bool {
        self.statuses.iter().any(|(k, _)| *k == s)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub seat: Seat,
    pub clan: String,
    /// The face-down Allies stack (L87): unplayed ally cards, God aside.
    pub allies: Vec<CardId>,
    /// The face-down tactics stack (L87): unplayed equipment, items, arts, terrain.
    pub tactics: Vec<CardId>,
    /// Running totals (C5).
    pub sp: i32,
    pub exp: i32,
    /// Where the homebase stands; secret until every seat has placed (C4).
    pub homebase: Option<Pos>,
    /// The God's chosen tile while placement is secret.
    pub god_at: Option<Pos>,
    /// The player is out: their God fell, or they resigned (L7, L81, C12).
    pub out: bool,
    /// Terrain effects cast: permanent (L53, L59).
    pub terrain: Vec<TerrainEffect>,
    /// Equipment assimilated this turn (one per turn, L29).
    pub assimilated: bool,
    /// The God's figure.
    pub god: FigureId,
}

/// Where the match stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// Every seat places its homebase and God in secret (C4).
    Placement,
    Playing,
    Finished {
        outcome: Outcome,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClansState {
    pub options: ClansOptions,
    pub rng: GameRng,
    pub field: Field,
    pub players: Vec<Player>,
    pub figures: Vec<Figure>,
    pub next_figure: FigureId,
    /// Player turns begun so far (1 in the first player's first turn).
    pub turn: u32,
    pub active: Seat,
    pub phase: Phase,
    /// The ally whose activation is open (C8).
    pub current: Option<FigureId>,
    /// The response window: the seats still to be asked, the one asked
    /// first (C10). Empty when no window is open.
    pub window: Vec<Seat>,
    /// The winning team (0 or 1) once finished by a win.
    pub winner_team: Option<u8>,
}

impl ClansState {
    pub fn team(seat: Seat) -> u8 {
        seat % 2
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        0..self.players.len() as Seat
    }

    pub fn figure(&self, id: FigureId) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    pub fn figure_mut(&mut self, id: FigureId) -> Option<&mut Figure> {
        self.figures.iter_mut().find(|f| f.id == id)
    }

    pub fn figure_at(&self, p: Pos) -> Option<&Figure> {
        self.figures.iter().find(|f| f.pos == p)
    }

    pub fn enemies(&self, a: Seat, b: Seat) -> bool {
        Self::team(a) != Self::team(b)
    }

    /// Whether a homebase stands on `p`: its gates block everyone (L19, C4).
    pub fn is_homebase(&self, p: Pos) -> bool {
        self.phase != Phase::Placement && self.players.iter().any(|pl| pl.homebase == Some(p))
    }

    pub fn finished(&self) -> bool {
        matches!(self.phase, Phase::Finished { .. })
    }
}
