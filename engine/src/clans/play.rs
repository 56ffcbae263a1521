//! The rules: one function per action, each refusal with a stable code and
//! the page's line. `act` mutates a copy; the caller keeps the copy only on
//! success, so a refused action leaves the state untouched.

use super::action::ClansAction as A;
use super::content::{Card, Catalogue, Effect, ItemEffect, Kind, Lasts, Stat, StatusKind, TerrainEffect, Timing};
use super::event::ClansEvent as E;
use super::grid::{Pos, Terrain};
use super::refusal::ClansRefusal;
use super::state::{Boost, ClansState, Figure, FigureId, Phase};
use crate::{Outcome, RuleError, Seat};

type R<T = ()> = Result<T, RuleError>;

fn err(code: ClansRefusal, msg: impl Into<String>) -> RuleError {
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

    fn turn_action(&mut self, cat: &Catalogue, seat: Seat, action: A, ev: &mut Vec<E>) -> R {
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

    fn place(&mut self, cat: &Catalogue, seat: Seat, homebase: Pos, god: Pos, ev: &mut Vec<E>) -> R {
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
    fn maybe_begin(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
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

    fn new_figure(&mut self, owner: Seat, card: &Card, pos: Pos, turn: u32) -> FigureId {
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
    fn start_turn(&mut self, cat: &Catalogue, seat: Seat, ev: &mut Vec<E>) {
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

    fn end_turn(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
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

    fn next_turn(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        let n = self.players.len() as Seat;
        let mut next = (self.active + 1) % n;
        while self.players[next as usize].out {
            next = (next + 1) % n;
        }
        self.start_turn(cat, next, ev);
    }

    /// The optional turn limit (C12): the team whose Gods have more HP left wins.
    fn finish_on_hp(&mut self, ev: &mut Vec<E>) {
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

    fn team_wins(&mut self, team: u8) -> Outcome {
        self.winner_team = Some(team);
        // `Outcome` names one seat: the winning team's first seat still in.
        let seat = self.seats().find(|s| ClansState::team(*s) == team && !self.players[*s as usize].out);
        Outcome::Win { seat: seat.unwrap_or(team) }
    }

    fn finish(&mut self, outcome: Outcome, ev: &mut Vec<E>) {
        self.window.clear();
        self.current = None;
        self.phase = Phase::Finished { outcome: outcome.clone() };
        ev.push(E::GameOver { outcome });
    }

    /// After every change: the end of the game (L7, L81, C12), and the turn
    /// passing on if its player is out.
    fn settle(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
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
    fn open_window(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
        let n = self.players.len() as Seat;
        let a = self.active;
        self.window =
            (1..n).map(|i| (a + i) % n).filter(|s| self.enemies(a, *s) && !self.players[*s as usize].out).collect();
        self.advance_window(cat, ev);
    }

    /// The front seat is done: ask the next one that can still pay.
    fn advance_window(&mut self, cat: &Catalogue, ev: &mut Vec<E>) {
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

    fn respond(
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

    fn own_figure(&self, seat: Seat, id: FigureId) -> R<&Figure> {
        let f = self.figure(id).ok_or_else(|| err(ClansRefusal::NoSuchFigure, "no such figure on the field"))?;
        if f.owner != seat {
            return Err(err(ClansRefusal::NotYourFigure, "that figure is not one of your allies"));
        }
        Ok(f)
    }

    /// Open `id`'s activation, closing the one before (L139, C8).
    fn open(&mut self, _cat: &Catalogue, seat: Seat, id: FigureId) -> R {
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
    fn close(&mut self, id: FigureId) {
        if let Some(f) = self.figure_mut(id) {
            f.done = true;
            f.boosts.retain(|b| b.lasts == Lasts::Turn);
        }
        if self.current == Some(id) {
            self.current = None;
        }
    }

    /// The action is made: no moving afterwards (L97), its turn is over.
    fn finish_action(&mut self, _cat: &Catalogue, id: FigureId) {
        if let Some(f) = self.figure_mut(id) {
            f.acted = true;
        }
        self.close(id);
    }

    // ----- stats ------------------------------------------------------------

    /// A figure's stat with equipment, boosts and Divine Spirit auras
    /// (L25, L37, L105); BREAK caps SPD at 1 (L107).
    pub fn stat(&self, cat: &Catalogue, f: &Figure, stat: Stat) -> i32 {
        let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
        let mut v = match stat {
            Stat::Atk => ally.atk,
            Stat::Spd => ally.spd,
            Stat::Range => ally.range,
        };
        if let Some(Kind::Equipment(e)) = f.equipment.as_deref().and_then(|c| cat.card(c)).map(|c| &c.kind) {
            v += match stat {
                Stat::Atk => e.atk,
                Stat::Spd => e.spd,
                Stat::Range => e.range,
            };
        }
        v += f.boosts.iter().filter(|b| b.stat == stat).map(|b| b.amount).sum::<i32>();
        for s in self.figures.iter().filter(|s| s.owner == f.owner && s.id != f.id) {
            let a = cat.card(&s.card).and_then(Card::ally).expect("figure card");
            if let Some(aura) = a.aura.as_ref().filter(|au| au.stat == stat && s.pos.dist(f.pos) <= au.radius) {
                v += aura.amount;
            }
        }
        if stat == Stat::Spd && f.status(StatusKind::Break) {
            v = v.min(1);
        }
        v.max(0)
    }

    /// ATK in combat: +1 standing on a mountain with the climbing effect (L53).
    pub fn combat_atk(&self, cat: &Catalogue, f: &Figure) -> i32 {
        let climb = self.players[f.owner as usize].terrain.contains(&TerrainEffect::ClimbMountains);
        self.stat(cat, f, Stat::Atk) + i32::from(climb && self.field.at(f.pos) == Some(Terrain::Mountain))
    }

    pub fn max_hp(cat: &Catalogue, f: &Figure) -> i32 {
        cat.card(&f.card).and_then(Card::ally).expect("figure card").hp
    }

    pub fn is_god(cat: &Catalogue, f: &Figure) -> bool {
        cat.card(&f.card).and_then(Card::ally).is_some_and(|a| a.god)
    }

    fn has_permanent(cat: &Catalogue, f: &Figure, which: fn(&Effect) -> bool) -> bool {
        cat.card(&f.card).and_then(Card::ally).is_some_and(|a| a.has(which))
    }

    // ----- movement (L69-71, L129-136) --------------------------------------

    /// Every tile `f` may end a move on, with the steps left on arrival.
    pub fn reach(&self, cat: &Catalogue, f: &Figure) -> Vec<(Pos, i32)> {
        let budget = self.stat(cat, f, Stat::Spd) - f.steps_used;
        if budget <= 0 {
            return Vec::new();
        }
        let effects = &self.players[f.owner as usize].terrain;
        let w = self.field.width;
        let mut best = vec![-1i32; self.field.tiles.len()];
        let idx = |p: Pos| (p.1 * w + p.0) as usize;
        best[idx(f.pos)] = budget;
        let mut queue = vec![f.pos];
        while let Some(p) = queue.pop() {
            let left = best[idx(p)];
            if left <= 0 {
                continue;
            }
            for q in p.neighbours() {
                let Some(t) = self.field.at(q) else { continue };
                // The gates: nobody moves through a homebase (L19, C4).
                if self.is_homebase(q) {
                    continue;
                }
                // Never through an enemy; through allies, yes (L69).
                if self.figure_at(q).is_some_and(|o| self.enemies(o.owner, f.owner)) {
                    continue;
                }
                let after = match t {
                    Terrain::Ground => left - 1,
                    // -1 SPD "after landing" (L65, L130): 2 steps, or the last one.
                    Terrain::Forest if effects.contains(&TerrainEffect::ForestStride) => left - 1,
                    Terrain::Forest => (left - 2).max(0),
                    Terrain::Water if effects.contains(&TerrainEffect::WalkOnWater) => (left - 2).max(0),
                    // Stepping onto a mountain reduces movement to 0 (L53).
                    Terrain::Mountain if effects.contains(&TerrainEffect::ClimbMountains) => 0,
                    Terrain::Water | Terrain::Mountain => continue,
                };
                if after > best[idx(q)] {
                    best[idx(q)] = after;
                    queue.push(q);
                }
            }
        }
        // A move ends on an empty tile (L69).
        self.field
            .all()
            .filter(|p| *p != f.pos && best[idx(*p)] >= 0 && self.figure_at(*p).is_none())
            .map(|p| (p, best[idx(p)]))
            .collect()
    }

    fn move_figure(&mut self, cat: &Catalogue, id: FigureId, to: Pos, ev: &mut Vec<E>) -> R {
        let seat = self.active;
        self.open(cat, seat, id)?;
        let f = self.figure(id).expect("opened");
        // An action ends the ally's turn, so it never moves after one (L97).
        let Some((_, left)) = self.reach(cat, f).into_iter().find(|(p, _)| *p == to) else {
            return Err(err(
                ClansRefusal::Unreachable,
                "the ally cannot reach that tile with its remaining steps (L69)",
            ));
        };
        let spd = self.stat(cat, f, Stat::Spd);
        let from = f.pos;
        let f = self.figure_mut(id).expect("opened");
        f.steps_used = spd - left;
        f.pos = to;
        ev.push(E::Moved { figure: id, from, to });
        Ok(())
    }

    // ----- combat (L97-109) ---------------------------------------------------

    /// Damage a figure; at 0 HP it is destroyed and `credit` earns its EXP (L7).
    fn hurt(
        &mut self,
        cat: &Catalogue,
        id: FigureId,
        amount: i32,
        by: Option<FigureId>,
        credit: Seat,
        ev: &mut Vec<E>,
    ) {
        let Some(f) = self.figure_mut(id) else { return };
        f.hp -= amount;
        let hp = f.hp;
        ev.push(E::Damaged { figure: id, by, amount, hp });
        if hp <= 0 {
            self.destroy(cat, id, Some(credit), ev);
        }
    }

    fn destroy(&mut self, cat: &Catalogue, id: FigureId, credit: Option<Seat>, ev: &mut Vec<E>) {
        let Some(i) = self.figures.iter().position(|f| f.id == id) else { return };
        let f = self.figures.remove(i);
        let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
        let credit = credit.filter(|c| self.enemies(*c, f.owner));
        if let Some(c) = credit {
            self.players[c as usize].exp += ally.exp;
        }
        ev.push(E::Destroyed { figure: id, exp_to: credit, exp: if credit.is_some() { ally.exp } else { 0 } });
        if self.current == Some(id) {
            self.current = None;
        }
        if ally.god {
            // "If your God is destroyed, you will lose the game" (L7, L83).
            self.player_out(f.owner, false, ev);
        }
    }

    /// A player is out (L7, L81): in 2v2 their allies leave the field (C12).
    fn player_out(&mut self, seat: Seat, resigned: bool, ev: &mut Vec<E>) {
        self.players[seat as usize].out = true;
        self.figures.retain(|f| f.owner != seat);
        if self.current.is_some_and(|c| self.figure(c).is_none()) {
            self.current = None;
        }
        ev.push(E::PlayerOut { seat, resigned });
    }

    fn heal(&mut self, cat: &Catalogue, id: FigureId, amount: i32, ev: &mut Vec<E>) {
        let Some(f) = self.figure(id) else { return };
        // HP never exceeds the max Health (L23, L35).
        let max = ClansState::max_hp(cat, f);
        let healed = amount.min(max - f.hp).max(0);
        let f = self.figure_mut(id).expect("present");
        f.hp += healed;
        ev.push(E::Healed { figure: id, amount: healed, hp: f.hp });
    }

    /// Damage that carries a status: + the status' damage and the status,
    /// unless the target is a God, immune to statuses (L83, L107, C11).
    #[allow(clippy::too_many_arguments)]
    fn hit_with_status(
        &mut self,
        cat: &Catalogue,
        target: FigureId,
        base: i32,
        status: Option<StatusKind>,
        by: Option<FigureId>,
        credit: Seat,
        ev: &mut Vec<E>,
    ) {
        let Some(t) = self.figure(target) else { return };
        let status = status.filter(|_| !ClansState::is_god(cat, t));
        self.hurt(cat, target, base + status.map_or(0, StatusKind::damage), by, credit, ev);
        if let (Some(s), Some(t)) = (status, self.figure_mut(target)) {
            // The same status does not stack (C11).
            if !t.status(s) {
                t.statuses.push((s, credit));
                ev.push(E::StatusApplied { figure: target, status: s });
            }
        }
    }

    /// Whether `f` strikes back at a figure `d` steps away (L97, L103).
    fn can_counter(&self, cat: &Catalogue, f: &Figure, d: i32) -> bool {
        d <= self.stat(cat, f, Stat::Range) || ClansState::has_permanent(cat, f, |e| *e == Effect::CounterAnyRange)
    }

    fn attack(&mut self, cat: &Catalogue, id: FigureId, target: FigureId, ev: &mut Vec<E>) -> R {
        let seat = self.active;
        self.open(cat, seat, id)?;
        let a = self.figure(id).expect("opened");
        let t = self.figure(target).ok_or_else(|| err(ClansRefusal::NoSuchFigure, "no such target on the field"))?;
        if !self.enemies(a.owner, t.owner) {
            return Err(err(ClansRefusal::NotAnEnemy, "a standard attack targets an enemy (L97)"));
        }
        let d = a.pos.dist(t.pos);
        if d > self.stat(cat, a, Stat::Range) {
            return Err(err(ClansRefusal::OutOfRange, "the target is beyond the ally's Range (L13, L109)"));
        }
        // C9: the attacker strikes first, unless the target has initiative,
        // the attacker has not, and the target can reach it (L101).
        let init = |f: &Figure| ClansState::has_permanent(cat, f, |e| *e == Effect::Initiative);
        let target_first = init(t) && !init(a) && self.can_counter(cat, t, d);
        let order = if target_first { [target, id] } else { [id, target] };
        for (i, striker) in order.into_iter().enumerate() {
            let other = order[1 - i];
            let (Some(s), Some(_)) = (self.figure(striker), self.figure(other)) else { break };
            // The attacker always reaches; the defender only within its Range
            // or with an any-range counter (L97, L103).
            if striker == target && !self.can_counter(cat, s, d) {
                continue;
            }
            let dmg = self.combat_atk(cat, s);
            let owner = s.owner;
            self.hurt(cat, other, dmg, Some(striker), owner, ev);
        }
        self.finish_action(cat, id);
        Ok(())
    }

    /// The figures an ability can aim at now.
    pub fn ability_targets(&self, cat: &Catalogue, f: &Figure, effect: &Effect) -> Vec<FigureId> {
        let within = |r: i32, enemy: bool, pred: &dyn Fn(&Figure) -> bool| -> Vec<FigureId> {
            self.figures
                .iter()
                .filter(|o| self.enemies(o.owner, f.owner) == enemy && o.pos.dist(f.pos) <= r && pred(o))
                .map(|o| o.id)
                .collect()
        };
        match effect {
            Effect::Initiative | Effect::CounterAnyRange => Vec::new(),
            Effect::Strike { .. } => within(self.stat(cat, f, Stat::Range), true, &|_| true),
            Effect::Bolt { range, .. } => within(*range, true, &|_| true),
            Effect::Heal { range, .. } => within(*range, false, &|o| o.hp < ClansState::max_hp(cat, o)),
            Effect::Cure { range } => within(*range, false, &|o| !o.statuses.is_empty()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn use_ability(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        id: FigureId,
        index: u8,
        target: FigureId,
        timing: Timing,
        ev: &mut Vec<E>,
    ) -> R {
        let f = self.own_figure(seat, id)?;
        let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
        let ab = ally
            .abilities
            .get(index as usize)
            .ok_or_else(|| err(ClansRefusal::NoSuchAbility, "an ally has 2 abilities (L5)"))?;
        if ab.timing != timing {
            return Err(err(
                ClansRefusal::WrongTiming,
                match ab.timing {
                    Timing::Pt => "a (PT) ability is used only in its player's turn (L91)",
                    Timing::Ot => "an (OT) ability is used only in an opponent's turn (L91)",
                    Timing::Permanent => "a permanent ability is always in effect, never used (L105)",
                },
            ));
        }
        if self.players[seat as usize].sp < ab.sp {
            return Err(err(ClansRefusal::NoSp, "not enough SP for this ability (L5, L99)"));
        }
        if !self.ability_targets(cat, f, &ab.effect).contains(&target) {
            return Err(err(ClansRefusal::BadTarget, "not a target this ability can reach"));
        }
        let atk = self.combat_atk(cat, f);
        self.players[seat as usize].sp -= ab.sp;
        ev.push(E::AbilityUsed { figure: id, ability: index, name: ab.name.clone(), target, sp: ab.sp });
        match ab.effect {
            // Ability damage draws no counter-attack (C9).
            Effect::Strike { bonus, status } => {
                self.hit_with_status(cat, target, atk + bonus, status, Some(id), seat, ev)
            }
            Effect::Bolt { damage, status, .. } => {
                self.hit_with_status(cat, target, damage, status, Some(id), seat, ev)
            }
            Effect::Heal { amount, .. } => self.heal(cat, target, amount, ev),
            Effect::Cure { .. } => self.cure(target, ev),
            Effect::Initiative | Effect::CounterAnyRange => unreachable!("permanent, refused above"),
        }
        Ok(())
    }

    fn cure(&mut self, target: FigureId, ev: &mut Vec<E>) {
        if let Some(t) = self.figure_mut(target) {
            t.statuses.clear();
            ev.push(E::Cured { figure: target });
        }
    }

    // ----- cards --------------------------------------------------------------

    /// Take a card from one of `seat`'s stacks.
    fn take(&mut self, seat: Seat, card: &str, allies: bool) -> R {
        let p = &mut self.players[seat as usize];
        let stack = if allies { &mut p.allies } else { &mut p.tactics };
        let i = stack
            .iter()
            .position(|c| c == card)
            .ok_or_else(|| err(ClansRefusal::NotInStack, "you hold no such unplayed card"))?;
        stack.remove(i);
        Ok(())
    }

    fn pay(&mut self, seat: Seat, sp: i32, exp: i32) -> R {
        let p = &mut self.players[seat as usize];
        if p.sp < sp {
            return Err(err(ClansRefusal::NoSp, "not enough SP (L89)"));
        }
        if p.exp < exp {
            return Err(err(ClansRefusal::NoExp, "not enough EXP (L89)"));
        }
        p.sp -= sp;
        p.exp -= exp;
        Ok(())
    }

    fn tactic<'c>(&self, cat: &'c Catalogue, seat: Seat, card: &str) -> R<&'c Card> {
        if !self.players[seat as usize].tactics.iter().any(|c| c == card) {
            return Err(err(ClansRefusal::NotInStack, "you hold no such unplayed card"));
        }
        Ok(cat.card(card).expect("deck card"))
    }

    fn summon(&mut self, cat: &Catalogue, seat: Seat, card: String, at: Pos, ev: &mut Vec<E>) -> R {
        if !self.players[seat as usize].allies.contains(&card) {
            return Err(err(ClansRefusal::NotInStack, "you hold no such unplayed ally"));
        }
        let c = cat.card(&card).expect("deck card");
        let ally = c.ally().expect("allies stack");
        let home = self.players[seat as usize].homebase.expect("placed");
        if at.dist(home) != 1 {
            return Err(err(
                ClansRefusal::NotNextToHomebase,
                "a summoned ally is placed 1 step next to your homebase (L17, L93)",
            ));
        }
        if !self.field.at(at).is_some_and(Terrain::passable) || self.is_homebase(at) {
            return Err(err(ClansRefusal::Impassable, "a summoned ally stands on a passable tile (L63-67)"));
        }
        if self.figure_at(at).is_some() {
            return Err(err(ClansRefusal::Occupied, "one figure per tile (C1)"));
        }
        self.pay(seat, ally.sp, 0)?;
        self.take(seat, &card, true)?;
        let turn = self.turn;
        let id = self.new_figure(seat, c, at, turn);
        ev.push(E::Summoned { seat, card, figure: id, at, sp: ally.sp });
        Ok(())
    }

    fn equip(&mut self, cat: &Catalogue, seat: Seat, card: String, figure: FigureId, ev: &mut Vec<E>) -> R {
        let Kind::Equipment(e) = &self.tactic(cat, seat, &card)?.kind else {
            return Err(err(ClansRefusal::NotEquipment, "that card is not equipment"));
        };
        // v1 has no card that equips an enemy (L21, Q8).
        let f = self.own_figure(seat, figure)?;
        if f.equipment.is_some() {
            return Err(err(ClansRefusal::AlreadyEquipped, "only 1 piece of equipment per ally (L25)"));
        }
        self.pay(seat, e.sp, e.exp)?;
        self.take(seat, &card, false)?;
        self.figure_mut(figure).expect("present").equipment = Some(card.clone());
        ev.push(E::Equipped { seat, card, figure });
        if e.hp > 0 {
            // Heals once, when first equipped (L23).
            self.heal(cat, figure, e.hp, ev);
        }
        Ok(())
    }

    fn assimilate(&mut self, cat: &Catalogue, seat: Seat, card: String, ev: &mut Vec<E>) -> R {
        let Kind::Equipment(e) = &self.tactic(cat, seat, &card)?.kind else {
            // Equipped equipment has left the stack: it cannot be assimilated (L142).
            return Err(err(ClansRefusal::NotEquipment, "only unused equipment can be assimilated (L27, L142)"));
        };
        if self.players[seat as usize].assimilated {
            return Err(err(
                ClansRefusal::OneAssimilation,
                "a player can only assimilate a single piece of equipment on their turn (L29)",
            ));
        }
        self.take(seat, &card, false)?;
        let p = &mut self.players[seat as usize];
        p.assimilated = true;
        p.sp += e.assimilate;
        ev.push(E::Assimilated { seat, card, sp: e.assimilate });
        Ok(())
    }

    fn item(&mut self, cat: &Catalogue, seat: Seat, card: String, target: FigureId, ev: &mut Vec<E>) -> R {
        let Kind::Item(it) = &self.tactic(cat, seat, &card)?.kind else {
            return Err(err(ClansRefusal::NotAnItem, "that card is not an inventory item"));
        };
        let t = self.figure(target).ok_or_else(|| err(ClansRefusal::NoSuchFigure, "no such figure on the field"))?;
        let enemy = self.enemies(seat, t.owner);
        let ok = match &it.effect {
            ItemEffect::Damage { .. } => enemy,
            ItemEffect::Heal { .. } => t.owner == seat && t.hp < ClansState::max_hp(cat, t),
            // A boost for the ally's turn needs an ally whose turn is not over (Q5).
            ItemEffect::Boost { lasts, .. } => t.owner == seat && (*lasts == Lasts::Turn || !t.done),
            ItemEffect::Cure => t.owner == seat && !t.statuses.is_empty(),
        };
        if !ok {
            return Err(err(ClansRefusal::BadTarget, "not a target this item can be used on"));
        }
        self.pay(seat, it.sp, it.exp)?;
        self.take(seat, &card, false)?;
        ev.push(E::ItemUsed { seat, card, target });
        match it.effect {
            ItemEffect::Damage { amount, status } => self.hit_with_status(cat, target, amount, status, None, seat, ev),
            ItemEffect::Heal { amount } => self.heal(cat, target, amount, ev),
            ItemEffect::Boost { stat, amount, lasts } => {
                self.figure_mut(target).expect("present").boosts.push(Boost { stat, amount, lasts })
            }
            ItemEffect::Cure => self.cure(target, ev),
        }
        Ok(())
    }

    /// Whether `f` counts as `class` for a runic art: its printed class, or
    /// Ranged when its Range is 2 or more (L109).
    pub fn has_class(&self, cat: &Catalogue, f: &Figure, class: super::content::Class) -> bool {
        let ally = cat.card(&f.card).and_then(Card::ally).expect("figure card");
        ally.class == class || (class == super::content::Class::Ranged && self.stat(cat, f, Stat::Range) >= 2)
    }

    #[allow(clippy::too_many_arguments)]
    fn runic_art(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        card: String,
        caster: FigureId,
        partner: FigureId,
        target: FigureId,
        ev: &mut Vec<E>,
    ) -> R {
        let Kind::RunicArt(art) = &self.tactic(cat, seat, &card)?.kind else {
            return Err(err(ClansRefusal::NotARunicArt, "that card is not a runic art"));
        };
        if caster == partner {
            return Err(err(ClansRefusal::Participants, "a runic art takes two allies (L41-43)"));
        }
        let t = self.figure(target).ok_or_else(|| err(ClansRefusal::NoSuchFigure, "no such target"))?;
        if !self.enemies(seat, t.owner) {
            return Err(err(ClansRefusal::NotAnEnemy, "a runic art strikes an enemy (L41)"));
        }
        let (c, p) = (self.own_figure(seat, caster)?, self.own_figure(seat, partner)?);
        for f in [c, p] {
            if f.summoned_turn == self.turn {
                return Err(err(ClansRefusal::JustSummoned, "a newly summoned ally cannot act this turn (L93)"));
            }
            // Moving is allowed; any action is not (L43, L49, L115, L139).
            if f.acted {
                return Err(err(
                    ClansRefusal::AlreadyActed,
                    "allies that attacked or used an ability cannot use a runic art (L49)",
                ));
            }
            if f.pos.dist(t.pos) > self.stat(cat, f, Stat::Range) {
                return Err(err(
                    ClansRefusal::ArtPosition,
                    "each participant stands within its Range of the enemy (L43, L115)",
                ));
            }
        }
        let [k1, k2] = art.classes;
        let fits = (self.has_class(cat, c, k1) && self.has_class(cat, p, k2))
            || (self.has_class(cat, c, k2) && self.has_class(cat, p, k1));
        if !fits {
            return Err(err(ClansRefusal::ArtClasses, "the art needs allies of the classes it states (L43)"));
        }
        self.pay(seat, art.sp, art.exp)?;
        self.take(seat, &card, false)?;
        ev.push(E::ArtCast { seat, card, caster, partner, target });
        self.hit_with_status(cat, target, art.damage, art.status, Some(caster), seat, ev);
        // The art is the action of every participant (L49).
        self.finish_action(cat, caster);
        self.finish_action(cat, partner);
        Ok(())
    }

    fn terrain(&mut self, cat: &Catalogue, seat: Seat, card: String, ev: &mut Vec<E>) -> R {
        let Kind::Terrain(t) = &self.tactic(cat, seat, &card)?.kind else {
            return Err(err(ClansRefusal::NotTerrain, "that card is not a terrain effect"));
        };
        if self.players[seat as usize].terrain.contains(&t.effect) {
            return Err(err(ClansRefusal::AlreadyCast, "this terrain effect is already permanent for your clan (L53)"));
        }
        self.pay(seat, t.sp, t.exp)?;
        self.take(seat, &card, false)?;
        self.players[seat as usize].terrain.push(t.effect);
        ev.push(E::TerrainCast { seat, card, effect: t.effect });
        Ok(())
    }
}
