//! The clan battle in words: the one describer of its actions and events,
//! shared by every screen (the server sends these words beside the legal
//! actions and the events, and keeps the match's log in them).
//!
//! Named as the table names things: seats by [`SeatNames::seat`], figures
//! by their card's printed name and their id ("Seraph King Aurel 1": the id
//! tells two figures of one card apart in a mirror match, and is what the
//! board's tokens show), cards by their printed names, tiles by [`tile`]
//! (column letter, row number, as the board labels its edges).
//!
//! Event lines never say "you": a line is read by every reader of its event.
//! Each line holds only what its event holds, or what the public field
//! shows (figures and played cards), so it tells no reader anything the
//! event does not: the one secret an event carries, a seat's own placement
//! (`placed`), is read by that seat alone. Action words go only to the seat
//! that may take the action, so they may name its own unplayed cards.

use serde::Serialize;

use super::action::ClansAction as A;
use super::content::{Card, Catalogue, StatusKind, TerrainEffect};
use super::event::ClansEvent as E;
use super::grid::Pos;
use super::state::{ClansState, FigureId};
use crate::{Outcome, Seat, SeatNames};

/// A legal action as its seat reads it: what it does, and the kind of
/// thing it is (how screens group it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Said {
    pub text: String,
    pub group: Group,
}

/// What kind of thing an action is, in the order a menu lists the groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// Placing the homebase and God.
    Place,
    /// Answering in a response window: an (OT) ability, or a pass.
    Respond,
    Summon,
    Move,
    /// Standard attacks.
    Attack,
    /// (PT) abilities.
    Ability,
    /// Equipment, items, runic arts, terrain effects, assimilation.
    Card,
    /// Ending the turn.
    End,
    /// Resigning.
    Other,
}

impl Group {
    pub fn of(a: &A) -> Group {
        match a {
            A::Place { .. } => Group::Place,
            A::Respond { .. } | A::Pass => Group::Respond,
            A::Summon { .. } => Group::Summon,
            A::Move { .. } => Group::Move,
            A::Attack { .. } => Group::Attack,
            A::Ability { .. } => Group::Ability,
            A::Equip { .. } | A::Assimilate { .. } | A::Item { .. } | A::RunicArt { .. } | A::Terrain { .. } => {
                Group::Card
            }
            A::EndTurn => Group::End,
            A::Resign => Group::Other,
        }
    }
}

/// A tile as the board labels it: the column's letter (`a` is x 0, the
/// left edge) and the row's number (1 is y 0, the top row of the view's
/// `rows`). `Pos(2, 11)` is "c12".
pub fn tile(p: Pos) -> String {
    let col = u8::try_from(p.0)
        .ok()
        .filter(|x| *x < 26)
        .map_or_else(|| format!("[{}]", p.0), |x| char::from(b'a' + x).to_string());
    format!("{col}{}", p.1 + 1)
}

/// A card's printed name (its id if unknown).
pub fn card_name(cat: &Catalogue, id: &str) -> String {
    cat.card(id).map_or_else(|| id.to_owned(), |c| c.name.clone())
}

fn status_name(s: StatusKind) -> &'static str {
    match s {
        StatusKind::Break => "BREAK",
        StatusKind::Poison => "POISON",
    }
}

fn terrain_name(t: TerrainEffect) -> &'static str {
    match t {
        TerrainEffect::ClimbMountains => "its allies may climb mountains",
        TerrainEffect::WalkOnWater => "its allies may walk on water",
        TerrainEffect::ForestStride => "its allies cross forests without slowing",
    }
}

/// Names for ids: the catalogue, the state (after the change, and before
/// it for figures the change removed) and the players' names.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub cat: &'a Catalogue,
    pub state: &'a ClansState,
    pub before: Option<&'a ClansState>,
    pub seats: &'a SeatNames,
}

impl<'a> Names<'a> {
    pub fn new(state: &'a ClansState, seats: &'a SeatNames) -> Names<'a> {
        Names { cat: Catalogue::standard(), state, before: None, seats }
    }

    pub fn seat(&self, s: Seat) -> String {
        self.seats.seat(s)
    }

    pub fn card(&self, id: &str) -> String {
        card_name(self.cat, id)
    }

    /// A figure by its card's name and id ("Blood Countess 7").
    pub fn figure(&self, id: FigureId) -> String {
        let f = self.state.figure(id).or_else(|| self.before.and_then(|b| b.figure(id)));
        match f {
            Some(f) => format!("{} {id}", self.card(&f.card)),
            None => format!("figure {id}"),
        }
    }

    /// A figure with its owner ("Seat 1's Blood Countess 7").
    pub fn owned(&self, id: FigureId) -> String {
        let f = self.state.figure(id).or_else(|| self.before.and_then(|b| b.figure(id)));
        match f {
            Some(f) => format!("{}'s {}", self.seat(f.owner), self.figure(id)),
            None => self.figure(id),
        }
    }

    fn ability(&self, figure: FigureId, index: u8) -> String {
        let f = self.state.figure(figure).or_else(|| self.before.and_then(|b| b.figure(figure)));
        f.and_then(|f| self.cat.card(&f.card))
            .and_then(Card::ally)
            .and_then(|a| a.abilities.get(index as usize))
            .map_or_else(|| format!("ability {index}"), |ab| format!("{} ({} SP)", ab.name, ab.sp))
    }

    fn team(&self, team: u8) -> String {
        let seats: Vec<String> =
            self.state.seats().filter(|s| ClansState::team(*s) == team).map(|s| self.seat(s)).collect();
        seats.join(" and ")
    }
}

/// One legal action of `seat`, for that seat alone.
pub fn action(n: Names<'_>, _seat: Seat, a: &A) -> Said {
    let text = match a {
        A::Place { homebase, god } => {
            format!("Place your homebase on {} and your God on {}", tile(*homebase), tile(*god))
        }
        A::Summon { card, at } => {
            let sp = n.cat.card(card).and_then(Card::ally).map_or(0, |x| x.sp);
            format!("Summon {} on {} ({sp} SP)", n.card(card), tile(*at))
        }
        A::Move { figure, to } => format!("Move {} to {}", n.figure(*figure), tile(*to)),
        A::Attack { figure, target } => format!("Attack {} with {}", n.owned(*target), n.figure(*figure)),
        A::Ability { figure, ability, target } | A::Respond { figure, ability, target } => {
            format!("{}: {} on {}", n.figure(*figure), n.ability(*figure, *ability), n.owned(*target))
        }
        A::Equip { card, figure } => format!("Equip {} on {}{}", n.card(card), n.figure(*figure), cost(n.cat, card)),
        A::Assimilate { card } => {
            let sp = match n.cat.card(card).map(|c| &c.kind) {
                Some(super::content::Kind::Equipment(e)) => e.assimilate,
                _ => 0,
            };
            format!("Assimilate {} for {sp} SP", n.card(card))
        }
        A::Item { card, target } => format!("Use {} on {}{}", n.card(card), n.owned(*target), cost(n.cat, card)),
        A::RunicArt { card, caster, partner, target } => format!(
            "Cast {} with {} and {} at {}{}",
            n.card(card),
            n.figure(*caster),
            n.figure(*partner),
            n.owned(*target),
            cost(n.cat, card)
        ),
        A::Terrain { card } => format!("Cast {}{}", n.card(card), cost(n.cat, card)),
        A::EndTurn => "End your turn".to_owned(),
        A::Pass => "Pass: let the turn go on".to_owned(),
        A::Resign => "Resign".to_owned(),
    };
    Said { text, group: Group::of(a) }
}

/// " (2 SP, 1 EXP)": what a tactic card costs.
fn cost(cat: &Catalogue, card: &str) -> String {
    use super::content::Kind;
    let (sp, exp) = match cat.card(card).map(|c| &c.kind) {
        Some(Kind::Equipment(e)) => (e.sp, e.exp),
        Some(Kind::Item(i)) => (i.sp, i.exp),
        Some(Kind::RunicArt(r)) => (r.sp, r.exp),
        Some(Kind::Terrain(t)) => (t.sp, t.exp),
        _ => return String::new(),
    };
    if exp > 0 {
        format!(" ({sp} SP, {exp} EXP)")
    } else {
        format!(" ({sp} SP)")
    }
}

/// One event, for every reader of it.
pub fn event(n: Names<'_>, e: &E) -> String {
    match e {
        E::Placed { seat, homebase, god } => format!(
            "{} places the homebase on {} and the God on {} (hidden until all have placed)",
            n.seat(*seat),
            tile(*homebase),
            tile(*god)
        ),
        E::Ready { seat } => format!("{} has placed the homebase and God", n.seat(*seat)),
        E::Revealed { homebases, gods, first } => {
            let each: Vec<String> = n
                .state
                .players
                .iter()
                .filter_map(|p| {
                    let hb = p.homebase.filter(|h| homebases.contains(h))?;
                    let god = gods.iter().find(|(id, _)| *id == p.god).map(|(id, at)| (*id, *at))?;
                    Some(format!(
                        "{}: homebase on {}, {} on {}",
                        n.seat(p.seat),
                        tile(hb),
                        n.figure(god.0),
                        tile(god.1)
                    ))
                })
                .collect();
            format!("The placements are revealed. {}. {} goes first", each.join("; "), n.seat(*first))
        }
        E::TurnStarted { seat, turn, sp, exp } => {
            format!("Turn {turn}: {}'s turn begins ({sp} SP, {exp} EXP)", n.seat(*seat))
        }
        E::Summoned { seat, card, figure, at, sp } => {
            format!("{} summons {} {figure} on {} for {sp} SP", n.seat(*seat), n.card(card), tile(*at))
        }
        E::Moved { figure, from, to } => format!("{} moves from {} to {}", n.owned(*figure), tile(*from), tile(*to)),
        E::Damaged { figure, by: Some(by), amount, hp } => {
            format!("{} hits {} for {amount} ({} HP left)", n.figure(*by), n.owned(*figure), (*hp).max(0))
        }
        E::Damaged { figure, by: None, amount, hp } => {
            format!("{} takes {amount} damage ({} HP left)", n.owned(*figure), (*hp).max(0))
        }
        E::Healed { figure, amount, hp } => format!("{} heals {amount} ({hp} HP)", n.owned(*figure)),
        E::StatusApplied { figure, status } => format!("{} suffers {}", n.owned(*figure), status_name(*status)),
        E::Cured { figure } => format!("{} is cured of its statuses", n.owned(*figure)),
        E::Destroyed { figure, exp_to, exp } => match exp_to {
            Some(s) => format!("{} is destroyed; {} gains {exp} EXP", n.owned(*figure), n.seat(*s)),
            None => format!("{} is destroyed", n.owned(*figure)),
        },
        E::AbilityUsed { figure, name, target, sp, .. } => {
            format!("{} uses {name} ({sp} SP) on {}", n.owned(*figure), n.owned(*target))
        }
        E::Equipped { seat, card, figure } => {
            format!("{} equips {} on {}", n.seat(*seat), n.card(card), n.owned(*figure))
        }
        E::Assimilated { seat, card, sp } => format!("{} assimilates {} for {sp} SP", n.seat(*seat), n.card(card)),
        E::ItemUsed { seat, card, target } => {
            format!("{} uses {} on {}", n.seat(*seat), n.card(card), n.owned(*target))
        }
        E::ArtCast { seat, card, caster, partner, target } => format!(
            "{} casts the runic art {} with {} and {} at {}",
            n.seat(*seat),
            n.card(card),
            n.figure(*caster),
            n.figure(*partner),
            n.owned(*target)
        ),
        E::TerrainCast { seat, card, effect } => {
            format!("{} casts {}: {}", n.seat(*seat), n.card(card), terrain_name(*effect))
        }
        E::WindowOpened { seat } => format!("{} may answer with an (OT) ability", n.seat(*seat)),
        E::Passed { seat } => format!("{} passes", n.seat(*seat)),
        E::TurnEnded { seat } => format!("{} ends the turn", n.seat(*seat)),
        E::PlayerOut { seat, resigned: true } => format!("{} resigns and is out", n.seat(*seat)),
        E::PlayerOut { seat, resigned: false } => {
            format!("{}'s God has fallen: {} is out", n.seat(*seat), n.seat(*seat))
        }
        E::GameOver { outcome } => match outcome {
            Outcome::Win { seat } if n.state.players.len() == 4 => {
                format!("Game over: {} win", n.team(ClansState::team(*seat)))
            }
            Outcome::Win { seat } => format!("Game over: {} wins", n.seat(*seat)),
            _ => "Game over: a draw".to_owned(),
        },
    }
}
