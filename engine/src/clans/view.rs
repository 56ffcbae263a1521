//! What one seat, or a spectator, may see. Public: the field, the figures,
//! every player's SP, EXP, terrain effects and the *number* of cards in each
//! stack (C7). Secret: the unplayed cards themselves, seen by their owner
//! alone (a teammate too sees only the counts: ASSUMPTIONS "Secrets"), and
//! homebase placements until every seat has placed (C4).

use serde::Serialize;

use super::action::ClansAction;
use super::content::{CardId, Catalogue, Stat, StatusKind, TerrainEffect};
use super::grid::Pos;
use super::legal::legal_actions;
use super::state::{ClansState, FigureId, Phase};
use crate::{Seat, Viewer};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub team: u8,
    pub clan: String,
    pub sp: i32,
    pub exp: i32,
    pub allies_left: usize,
    pub tactics_left: usize,
    pub placed: bool,
    /// Shown to its owner at once, to everyone once all have placed.
    pub homebase: Option<Pos>,
    pub god_at: Option<Pos>,
    pub out: bool,
    pub terrain: Vec<TerrainEffect>,
    pub assimilated: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FigureView {
    pub id: FigureId,
    pub owner: Seat,
    pub card: CardId,
    pub pos: Pos,
    pub hp: i32,
    pub max_hp: i32,
    pub atk: i32,
    pub spd: i32,
    pub range: i32,
    pub equipment: Option<CardId>,
    pub statuses: Vec<StatusKind>,
    pub just_summoned: bool,
    pub acted: bool,
    pub done: bool,
    pub ot_used: bool,
    pub steps_used: i32,
}

/// The viewer's own unplayed cards.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hand {
    pub allies: Vec<CardId>,
    pub tactics: Vec<CardId>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClansView {
    pub viewer: Viewer,
    pub phase: Phase,
    pub turn: u32,
    pub active: Seat,
    pub width: i32,
    pub height: i32,
    /// One string per row, a letter per tile (G, F, W, M).
    pub rows: Vec<String>,
    pub players: Vec<PlayerView>,
    pub figures: Vec<FigureView>,
    pub current: Option<FigureId>,
    /// The seat asked in the response window, if one is open.
    pub window: Option<Seat>,
    pub hand: Option<Hand>,
    /// The viewer's legal actions (empty for a spectator or a seat not asked).
    pub legal: Vec<ClansAction>,
}

pub fn view(s: &ClansState, cat: &Catalogue, viewer: Viewer) -> ClansView {
    let me = viewer.seat();
    let revealed = s.phase != Phase::Placement;
    let rows = (0..s.field.height)
        .map(|y| (0..s.field.width).map(|x| s.field.at(Pos(x, y)).expect("on field").letter()).collect())
        .collect();
    let players = s
        .players
        .iter()
        .map(|p| {
            let shown = revealed || me == Some(p.seat);
            PlayerView {
                seat: p.seat,
                team: ClansState::team(p.seat),
                clan: p.clan.clone(),
                sp: p.sp,
                exp: p.exp,
                allies_left: p.allies.len(),
                tactics_left: p.tactics.len(),
                placed: p.homebase.is_some(),
                homebase: p.homebase.filter(|_| shown),
                god_at: p.god_at.filter(|_| shown),
                out: p.out,
                terrain: p.terrain.clone(),
                assimilated: p.assimilated,
            }
        })
        .collect();
    let figures = s
        .figures
        .iter()
        .map(|f| FigureView {
            id: f.id,
            owner: f.owner,
            card: f.card.clone(),
            pos: f.pos,
            hp: f.hp,
            max_hp: ClansState::max_hp(cat, f),
            atk: s.combat_atk(cat, f),
            spd: s.stat(cat, f, Stat::Spd),
            range: s.stat(cat, f, Stat::Range),
            equipment: f.equipment.clone(),
            statuses: f.statuses.iter().map(|(k, _)| *k).collect(),
            just_summoned: f.summoned_turn == s.turn,
            acted: f.acted,
            done: f.done,
            ot_used: f.ot_used,
            steps_used: f.steps_used,
        })
        .collect();
    let hand = me
        .and_then(|m| s.players.get(m as usize))
        .map(|p| Hand { allies: p.allies.clone(), tactics: p.tactics.clone() });
    ClansView {
        viewer,
        phase: s.phase.clone(),
        turn: s.turn,
        active: s.active,
        width: s.field.width,
        height: s.field.height,
        rows,
        players,
        figures,
        current: s.current,
        window: s.window.first().copied(),
        hand,
        legal: me.map(|m| legal_actions(s, cat, m)).unwrap_or_default(),
    }
}
