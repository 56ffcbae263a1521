//! The rules: one function per action, each refusal with a stable code and
//! the page's line. `act` mutates a copy; the caller keeps the copy only on
//! success, so a refused action leaves the state untouched.

use super::action::ClansAction as A;
use super::content::{Card, Catalogue, Lasts, StatusKind, Timing};
use super::event::ClansEvent as E;
use super::grid::{Pos, Terrain};
use super::refusal::ClansRefusal;
use super::state::{ClansState, Figure, FigureId, Phase};
use crate::{Outcome, RuleError, Seat};

pub(super) type R<T = ()> = Result<T, RuleError>;

pub(super) fn err(code: ClansRefusal, msg: impl Into<String>) -> RuleError {
    RuleError::of(code, msg)
}

impl ClansState {
    /// Apply `action` of `seat`, pushing what happened.
    ///
    /// # Errors
    /// The rule broken; the caller discards the changed copy.
    pub(crate) fn act(&mut self, cat: &Catalogue, seat: Seat, action: A) -> R<Vec<E>> {
        let mut ev = Vec::new();
        if self.finished() {
            return Err(err(ClansRefusal::GameOver, "the game is over"));
        }
        let Some(player) = self.players.get(seat as usize) else {
            return Err(err(ClansRefusal::NoSuchSeat, "there is no such seat"));
        };
        if player.out {
            return Err(err(ClansRefusal::PlayerOut, "your God has fallen: you are out of the game (L7, L81)"));
        }
        match action {
            A::Resign => {
                self.player_out(seat, true, &mut ev);
                self.settle(cat, &mut ev);
            }
            A::Place { homebase, god } => self.place(cat, seat, homebase, god, &mut ev)?,
            _ if self.phase == Phase::Placement => {
                return Err(err(ClansRefusal::PlacementPhase, "every player first places a homebase and God (L87)"))
            }
            A::Respond { figure, ability, target } => self.respond(cat, seat, figure, ability, target, &mut ev)?,
            A::Pass => {
                if self.window.first() != Some(&seat) {
                    return Err(err(ClansRefusal::NoWindow, "no response window is open for you (C10)"));
                }
                self.window.remove(0);
                ev.push(E::Passed { seat });
                self.advance_window(cat, &mut ev);
            }
            other => {
                if seat != self.active {
                    return Err(err(ClansRefusal::NotYourTurn, "only the player whose turn it is may do this (L91)"));
                }
                if !self.window.is_empty() {
                    return Err(err(
                        ClansRefusal::WindowOpen,
                        "an opponent may first answer in their response window (C10)",
                    ));
                }
                let opens_window = !matches!(other, A::Move { .. } | A::EndTurn);
                self.turn_action(cat, seat, other, &mut ev)?;
                self.settle(cat, &mut ev);
                if opens_window && self.phase == Phase::Playing && self.active == seat {
                    self.open_window(cat, &mut ev);
                }
            }
        }
        Ok(ev)
    }

    pub(super) fn turn_action(&mut self, cat: &Catalogue, seat: Seat, action: A, ev: &mut Vec<E>) -> R {
        match action {
            A::Summon { card, at } => self.summon(cat, seat, card, at, ev),
            A::Move { figure, to } => self.move_figure(cat, figure, to, ev),
            A::Attack { figure, target } => self.attack(cat, figure, target, ev),
            A::Ability { figure, ability, target } => {
                self.open(cat, seat, figure)?;
                self.use_ability(cat, seat, figure, ability, target, Timing::Pt, ev)?;
                self.finish_action(cat, figure);
                Ok(())
            }
            A::Equip { card, figure } => self.equip(cat, seat, card, figure, ev),
            A::Assimilate { card } => self.assimilate(cat, seat, card, ev),
            A::Item { card, target } => self.item(cat, seat, card, target, ev),
            A::RunicArt { card, caster, partner, target } => {
                self.runic_art(cat, seat, card, caster, partner, target, ev)
            }
            A::Terrain { card } => self.terrain(cat, seat, card, ev),
            A::EndTurn => {
                self.end_turn(cat, ev);
                Ok(())
            }
            A::Place { .. } | A::Respond { .. } | A::Pass | A::Resign => unreachable!("dispatched in act"),
        }
    }

    // ----- setup -------------------------------------------------------

    pub(super) fn place(&mut self, cat: &Catalogue, seat: Seat, homebase: Pos, god: Pos, ev: &mut Vec<E>) -> R {
        if self.phase != Phase::Placement {
            return Err(err(ClansRefusal::NotPlacement, "homebases are placed only at the start (L87)"));
        }
        if self.players[seat as usize].homebase.is_some() {
            return Err(err(ClansRefusal::AlreadyPlaced, "you have placed your homebase"));
        }
        let passable = |p: Pos| self.field.at(p).is_some_and(Terrain::passable);
        if !self.field.on_side(seat, homebase) || !passable(homebase) {
            return Err(err(ClansRefusal::BadHomebase, "the homebase goes on a passable tile of your side (L15, L87)"));
        }
        if god.dist(homebase) != 1 || !self.field.on_side(seat, god) || !passable(god) {
            return Err(err(
                ClansRefusal::BadGodTile,
                "the God starts 1 step next to the homebase, on a passable tile of your side (L15, L87, C4)",
            ));
        }
        if !self.field.connected(&[homebase]) {
            return Err(err(ClansRefusal::CutsOff, "the homebase may not cut off part of the battlefield (L61, C3)"));
        }
        let p = &mut self.players[seat as usize];
        p.homebase = Some(homebase);
        p.god_at = Some(god);
        ev.push(E::Placed { seat, homebase, god });
        ev.push(E::Ready { seat });
        self.maybe_begin(cat, ev);
        Ok(())
    }

    /// Once every seat still in has placed: reveal, put the Gods on the
    /// field, flip the coin (L89) and start the first turn.
    pub(super) fn maybe_begin(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        if self.phase != Phase::Placement || self.players.iter().any(|p| !p.out && p.homebase.is_none()) {
            return;
        }
        let mut gods = Vec::new();
        for s in 0..self.players.len() {
            let p = &self.players[s];
            if p.out {
                continue;
            }
            let clan = cat.clan(&p.clan).expect("clan checked at start");
            let god = clan.cards.iter().find(|c| c.ally().is_some_and(|a| a.god)).expect("validated deck");
            let id = self.new_figure(s as Seat, god, p.god_at.expect("placed"), 0);
            self.players[s].god = id;
            gods.push((id, self.players[s].god_at.unwrap()));
        }
        let n = self.players.len() as Seat;
        let mut first = match self.options.first_player {
            Some(f) => f,
            None => self.rng.below(u32::from(n)) as Seat,
        };
        while self.players[first as usize].out {
            first = (first + 1) % n;
        }
        self.phase = Phase::Playing;
        ev.push(E::Revealed { homebases: self.players.iter().filter_map(|p| p.homebase).collect(), gods, first });
        self.start_turn(cat, first, ev);
    }

    pub(super) fn new_figure(&mut self, owner: Seat, card: &Card, pos: Pos, turn: u32) -> FigureId {
        let ally = card.ally().expect("an ally card");
        let id = self.next_figure;
        self.next_figure += 1;
        self.figures.push(Figure {
            id,
            owner,
            card: card.id.clone(),
            pos,
            hp: ally.hp,
            equipment: None,
            statuses: Vec::new(),
            boosts: Vec::new(),
            summoned_turn: turn,
            steps_used: 0,
            acted: false,
            done: false,
            ot_used: false,
        });
        id
    }

    // ----- the turn -----------------------------------------------------

    /// The beginning of a player's turn: +SP (+EXP) (L89, L127, C5), then
    /// status damage on every figure (L107, C11), then a response window.
    pub(super) fn start_turn(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<E>) {
        self.turn += 1;
        self.active = seat;
        self.current = None;
        for f in &mut self.figures {
            // (OT) abilities: one per ally per opponent turn (C10).
            f.ot_used = false;
            if f.owner == seat {
                f.steps_used = 0;
                f.acted = false;
                f.done = false;
            }
        }
        let (sp, exp) = (self.options.sp_per_turn, self.options.exp_per_turn);
        let p = &mut self.players[seat as usize];
        p.assimilated = false;
        p.sp += sp;
        p.exp += exp;
        ev.push(E::TurnStarted { seat, turn: self.turn, sp: p.sp, exp: p.exp });
        // "at the beginning of each players turn" (L107): every figure with a
        // status, whoever's turn it is (C11).
        let ticks: Vec<(FigureId, StatusKind, Seat)> =
            self.figures.iter().flat_map(|f| f.statuses.iter().map(move |(k, s)| (f.id, *k, *s))).collect();
        for (id, kind, by) in ticks {
            if self.figure(id).is_some() {
                self.hurt(cat, id, kind.damage(), None, by, ev);
            }
        }
        self.settle(cat, ev);
        if self.phase == Phase::Playing && self.active == seat {
            self.open_window(cat, ev);
        }
    }

    pub(super) fn end_turn(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        let seat = self.active;
        if let Some(c) = self.current {
            self.close(c);
        }
        for f in self.figures.iter_mut().filter(|f| f.owner == seat) {
            f.boosts.clear();
        }
        ev.push(E::TurnEnded { seat });
        if self.options.max_turns.is_some_and(|m| self.turn >= m) {
            self.finish_on_hp(ev);
            return;
        }
        self.next_turn(cat, ev);
    }

    pub(super) fn next_turn(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        let n = self.players.len() as Seat;
        let mut next = (self.active + 1) % n;
        while self.players[next as usize].out {
            next = (next + 1) % n;
        }
        self.start_turn(cat, next, ev);
    }

    /// The optional turn limit (C12): the team whose Gods have more HP left wins.
    pub(super) fn finish_on_hp(&mut self, ev: &mut Vec<E>) {
        let mut hp = [0, 0];
        for p in self.players.iter().filter(|p| !p.out) {
            hp[ClansState::team(p.seat) as usize] += self.figure(p.god).map_or(0, |f| f.hp);
        }
        let outcome = match hp[0].cmp(&hp[1]) {
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Greater => self.team_wins(0),
            std::cmp::Ordering::Less => self.team_wins(1),
        };
        self.finish(outcome, ev);
    }

    pub(super) fn team_wins(&mut self, team: u8) -> Outcome {
        self.winner_team = Some(team);
        // `Outcome` names one seat: the winning team's first seat still in.
        let seat = self.seats().find(|s| ClansState::team(*s) == team && !self.players[*s as usize].out);
        Outcome::Win { seat: seat.unwrap_or(team) }
    }

    pub(super) fn finish(&mut self, outcome: Outcome, ev: &mut Vec<E>) {
        self.window.clear();
        self.current = None;
        self.phase = Phase::Finished { outcome: outcome.clone() };
        ev.push(E::GameOver { outcome });
    }

    /// After every change: the end of the game (L7, L81, C12), and the turn
    /// passing on if its player is out.
    pub(super) fn settle(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        if self.finished() {
            return;
        }
        let alive = |t: u8| self.players.iter().any(|p| !p.out && ClansState::team(p.seat) == t);
        match (alive(0), alive(1)) {
            (true, true) => {}
            // Both Gods falling by one effect is a draw (C12).
            (false, false) => return self.finish(Outcome::Draw, ev),
            (true, false) => {
                let o = self.team_wins(0);
                return self.finish(o, ev);
            }
            (false, true) => {
                let o = self.team_wins(1);
                return self.finish(o, ev);
            }
        }
        if self.phase == Phase::Placement {
            self.maybe_begin(cat, ev);
            return;
        }
        if self.players[self.active as usize].out {
            self.window.clear();
            self.current = None;
            self.next_turn(cat, ev);
            return;
        }
        if let Some(&front) = self.window.first() {
            let players = &self.players;
            self.window.retain(|s| !players[*s as usize].out);
            if players[front as usize].out {
                self.advance_window(cat, ev);
            }
        }
    }

    // ----- response windows (C10) -------------------------------------------

    /// After a completed step of the active player: each opponent in turn
    /// order may answer, asked only if they can pay an (OT) ability of an ally
    /// on the field: all public, so opening a window tells nothing hidden.
    pub(super) fn open_window(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        let n = self.players.len() as Seat;
        let a = self.active;
        self.window =
            (1..n).map(|i| (a + i) % n).filter(|s| self.enemies(a, *s) && !self.players[*s as usize].out).collect();
        self.advance_window(cat, ev);
    }

    /// The front seat is done: ask the next one that can still pay.
    pub(super) fn advance_window(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        while let Some(&s) = self.window.first() {
            if self.can_respond(cat, s) {
                ev.push(E::WindowOpened { seat: s });
                return;
            }
            self.window.remove(0);
        }
    }

    /// Whether `seat` has an ally with an unused (OT) ability it can pay and aim.
    pub fn can_respond(&self, cat: &Catalogue, seat: Seat) -> bool {
        let sp = self.players[seat as usize].sp;
        self.figures.iter().filter(|f| f.owner == seat && !f.ot_used).any(|f| {
            let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
            ally.abilities.iter().any(|ab| {
                ab.timing == Timing::Ot && ab.sp <= sp && !self.ability_targets(cat, f, &ab.effect).is_empty()
            })
        })
    }

    pub(super) fn respond(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        figure: FigureId,
        ability: u8,
        target: FigureId,
        ev: &mut Vec<E>,
    ) -> R {
        if self.window.first() != Some(&seat) {
            return Err(err(
                ClansRefusal::NoWindow,
                "(OT) abilities are used in your response window, in an opponent's turn (L91, C10)",
            ));
        }
        let f = self.own_figure(seat, figure)?;
        if f.ot_used {
            return Err(err(ClansRefusal::OtUsed, "this ally has used its (OT) action this turn (C10)"));
        }
        self.use_ability(cat, seat, figure, ability, target, Timing::Ot, ev)?;
        if let Some(f) = self.figure_mut(figure) {
            f.ot_used = true;
        }
        self.settle(cat, ev);
        // Answers are one at a time; the window stays with the responder
        // until they pass or can answer no more.
        if self.window.first() == Some(&seat) && !self.can_respond(cat, seat) {
            self.window.remove(0);
            self.advance_window(cat, ev);
        }
        Ok(())
    }

    // ----- activations (C8) ----------------------------------------------

    pub(super) fn own_figure(&self, seat: Seat, id: FigureId) -> R<&Figure> {
        let f = self.figure(id).ok_or_else(|| err(ClansRefusal::NoSuchFigure, "no such figure on the field"))?;
        if f.owner != seat {
            return Err(err(ClansRefusal::NotYourFigure, "that figure is not one of your allies"));
        }
        Ok(f)
    }

    /// Open `id`'s activation, closing the one before (L139, C8).
    pub(super) fn open(&mut self, _cat: &Catalogue, seat: Seat, id: FigureId) -> R {
        let f = self.own_figure(seat, id)?;
        if f.summoned_turn == self.turn {
            return Err(err(ClansRefusal::JustSummoned, "a newly summoned ally cannot move or act this turn (L93)"));
        }
        if f.done {
            return Err(err(
                ClansRefusal::AllyDone,
                "this ally's turn is over: it cannot come back to act (L11, L139)",
            ));
        }
        if let Some(c) = self.current.filter(|c| *c != id) {
            self.close(c);
        }
        self.current = Some(id);
        Ok(())
    }

    /// End an ally's turn: activation boosts lapse (L39).
    pub(super) fn close(&mut self, id: FigureId) {
        if let Some(f) = self.figure_mut(id) {
            f.done = true;
            f.boosts.retain(|b| b.lasts == Lasts::Turn);
        }
        if self.current == Some(id) {
            self.current = None;
        }
    }

    /// The action is made: no moving afterwards (L97), its turn is over.
    pub(super) fn finish_action(&mut self, _cat: &Catalogue, id: FigureId) {
        if let Some(f) = self.figure_mut(id) {
            f.acted = true;
        }
        self.close(id);
    }

    // ----- stats ------------------------------------------------------------
}
