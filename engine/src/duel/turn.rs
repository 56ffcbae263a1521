//! The flow of a duel: creation, turns and steps, summoning, activations,
//! basic powers, Alpha powers, the windows in which Divine Interventions
//! answer (`intervention` casts and resolves them), draws.

use crate::duel::{Awaiting, DuelRefusal};
use std::collections::BTreeSet;

use super::action::DuelAction;
use super::alpha::AlphaDesign;
use super::card::{CardId, Catalogue, Passive, Until};
use super::event::{DuelEvent, EventKind};
use super::intervention::Cast;
use super::mechanics::{err, other, Cx, Relics};
use super::state::*;
use crate::hex::Hex;
use crate::{Outcome, RuleError, Seat};

impl DuelState {
    /// Apply one action in place. The caller works on a copy and throws it
    /// away on error, so a rejected action changes nothing.
    pub(crate) fn act(&mut self, cat: &Catalogue, seat: Seat, action: DuelAction) -> Result<Vec<DuelEvent>, RuleError> {
        let mut cx = Cx::new(cat);
        self.act_in(&mut cx, seat, action)?;
        Ok(cx.events)
    }

    /// Whether `act` would accept the action, found by applying it to this
    /// state, which is then only fit to be thrown away: the work that cannot
    /// change the answer is skipped ([`Cx::trial`]).
    pub(crate) fn try_act(&mut self, cat: &Catalogue, seat: Seat, action: DuelAction) -> Result<(), RuleError> {
        self.act_in(&mut Cx::trial(cat), seat, action)
    }

    fn act_in(&mut self, cx: &mut Cx, seat: Seat, action: DuelAction) -> Result<(), RuleError> {
        if seat > 1 {
            return Err(err(DuelRefusal::NoSuchSeat, "a duel has seats 0 and 1"));
        }
        if let Phase::Finished { .. } = self.game.phase {
            return Err(err(DuelRefusal::Finished, "the game is over"));
        }
        if let DuelAction::Resign = action {
            let outcome = Outcome::Win { seat: other(seat) };
            self.game.phase = Phase::Finished { outcome: outcome.clone() };
            cx.emit(EventKind::GameOver { outcome });
            return Ok(());
        }
        if self.game.phase == Phase::Creation {
            match action {
                DuelAction::Create { alphas, di_stack } => self.create(cx, seat, alphas, di_stack)?,
                DuelAction::UsePreset { preset } => {
                    let p = cx
                        .cat
                        .preset(&preset)
                        .ok_or_else(|| err(DuelRefusal::NoSuchPreset, format!("no preset {preset:?}")))?;
                    let alphas = p.alphas.iter().map(|a| AlphaDesign::new(a.iter().cloned())).collect();
                    self.create(cx, seat, alphas, p.di_stack.clone())?;
                }
                _ => {
                    return Err(err(
                        DuelRefusal::CreationPhase,
                        "the Creation Phase is on: create your Alphas and DI stack first",
                    ))
                }
            }
            return Ok(());
        }
        self.command(cx, seat, action)?;
        // The last thing an action does: it cannot refuse it.
        if !cx.trial {
            self.game.check_win(cx);
        }
        Ok(())
    }

    fn command(&mut self, cx: &mut Cx, seat: Seat, action: DuelAction) -> Result<(), RuleError> {
        // Actions open to either seat at any time.
        match action {
            DuelAction::OfferDraw => {
                if self.draw_offer.is_some() {
                    return Err(err(DuelRefusal::DrawPending, "a draw offer is already on the table"));
                }
                self.draw_offer = Some(seat);
                cx.emit(EventKind::DrawOffered { seat });
                return Ok(());
            }
            DuelAction::AcceptDraw | DuelAction::DeclineDraw => {
                if self.draw_offer != Some(other(seat)) {
                    return Err(err(DuelRefusal::NoDrawOffer, "your opponent has not offered a draw"));
                }
                self.draw_offer = None;
                if action == DuelAction::AcceptDraw {
                    self.game.phase = Phase::Finished { outcome: Outcome::Draw };
                    cx.emit(EventKind::GameOver { outcome: Outcome::Draw });
                } else {
                    cx.emit(EventKind::DrawDeclined { seat });
                }
                return Ok(());
            }
            DuelAction::SetAutoPass { on } => {
                self.game.player_mut(seat).auto_pass = on;
                return Ok(());
            }
            DuelAction::SetPassWhenUnable { on } => {
                self.game.player_mut(seat).hold_windows = !on;
                return Ok(());
            }
            DuelAction::DiscardDi { count } => return self.discard_di(cx, seat, count),
            DuelAction::Create { .. } | DuelAction::UsePreset { .. } => {
                return Err(err(
                    DuelRefusal::NotCreationPhase,
                    "the Creation Phase is over: no card may be added, removed or replaced",
                ));
            }
            _ => {}
        }
        match Awaiting::of(self) {
            Awaiting::Casualty(chooser) => {
                let DuelAction::ChooseCasualty { unit } = action else {
                    return Err(err(
                        DuelRefusal::CasualtyPending,
                        format!("seat {chooser} must first choose which hit unit dies"),
                    ));
                };
                if chooser != seat {
                    return Err(err(DuelRefusal::NotYourChoice, "the defender chooses which unit dies"));
                }
                let c = &self.game.casualties[0];
                if !c.candidates.contains(&unit) {
                    return Err(err(DuelRefusal::NotACandidate, format!("unit {unit} is not one of the hit units")));
                }
                self.game.casualties.remove(0);
                cx.emit(EventKind::CasualtyChosen { seat, unit });
                self.game.kill(cx, unit);
                return Ok(());
            }
            Awaiting::RelicChoice(chooser) => {
                let DuelAction::CarryRelic { carry } = action else {
                    return Err(err(
                        DuelRefusal::RelicChoicePending,
                        format!("seat {chooser} must first say whether its pushed unit carries its relic"),
                    ));
                };
                if chooser != seat {
                    return Err(err(
                        DuelRefusal::NotYourChoice,
                        "a forced unit's controller decides whether it carries its relic (L1195-1197)",
                    ));
                }
                let c = self.game.relic_choice.take().expect("awaited");
                cx.emit(EventKind::RelicCarryChosen { seat, unit: c.unit, carry });
                self.game.force_move(cx, c.unit, c.direction as usize, c.distance, Relics::carried_if(carry));
                if c.by_power {
                    // The power is resolved only now: this is its checkpoint.
                    self.checkpoint(cx);
                } else if self.pending.is_some() && matches!(self.game.phase, Phase::Command) {
                    // The push was a response: the DI it answered resolves now.
                    self.finish_pending(cx);
                }
                return Ok(());
            }
            _ if matches!(action, DuelAction::CarryRelic { .. }) => {
                return Err(err(DuelRefusal::NoRelicChoice, "no pushed unit is waiting for your relic choice"));
            }
            Awaiting::DiAnswer(responder) => {
                if seat != responder {
                    return Err(err(
                        DuelRefusal::DiPending,
                        "waiting for the opponent's answer to your Divine Intervention",
                    ));
                }
                return match action {
                    DuelAction::CastDi { target, at: None } => {
                        self.cast_di(cx, seat, target, None, Cast::Response)?;
                        // A response that halted on a relic choice finishes
                        // first; the answered DI waits for it.
                        if self.game.relic_choice.is_none() {
                            self.finish_pending(cx);
                        }
                        Ok(())
                    }
                    DuelAction::CastDi { at: Some(_), .. } => Err(err(
                        DuelRefusal::BadTiming,
                        "a response resolves at once, before the DI it answers; it cannot be timed",
                    )),
                    DuelAction::Pass | DuelAction::TimedOut => {
                        cx.emit(passed(seat, &action));
                        self.finish_pending(cx);
                        Ok(())
                    }
                    _ => Err(err(
                        DuelRefusal::DiPending,
                        "answer the Divine Intervention first: respond with yours or pass",
                    )),
                };
            }
            Awaiting::Window(w) => {
                if seat != w {
                    return Err(err(
                        DuelRefusal::ResponseWindow,
                        "waiting for the opponent's response to the activation",
                    ));
                }
                return match action {
                    DuelAction::CastDi { target, at } => self.cast_di(cx, seat, target, at, Cast::Own),
                    DuelAction::Pass | DuelAction::TimedOut => {
                        cx.emit(passed(seat, &action));
                        self.finish_activation();
                        Ok(())
                    }
                    _ => Err(err(DuelRefusal::ResponseWindow, "cast a Divine Intervention or pass")),
                };
            }
            Awaiting::Turn(_) => {}
            Awaiting::Creation(_) | Awaiting::Finished(_) => unreachable!("handled in act_in"),
        }
        if let DuelAction::CastDi { target, at } = action {
            return self.cast_di(cx, seat, target, at, Cast::Own);
        }
        if seat != self.game.active {
            return Err(err(DuelRefusal::NotYourTurn, "it is not your turn"));
        }
        match action {
            DuelAction::Summon { alpha, hex, figure } => self.summon(cx, seat, alpha, hex, figure),
            DuelAction::Activate { unit } => self.activate(cx, seat, unit),
            DuelAction::Move { to, carry_relic } => {
                self.basic_move(cx, seat, to, Relics::carried_if(carry_relic.unwrap_or(true)))?;
                self.checkpoint(cx);
                Ok(())
            }
            DuelAction::PassRelic { to } => {
                self.pass_relic(cx, seat, to)?;
                self.checkpoint(cx);
                Ok(())
            }
            DuelAction::UsePower { card, power, target } => {
                self.use_power(cx, seat, card, power, target)?;
                // A push halted on the other seat's relic choice takes its
                // checkpoint when it is done.
                if self.game.relic_choice.is_none() {
                    self.checkpoint(cx);
                }
                Ok(())
            }
            DuelAction::EndActivation => self.end_activation(cx, seat),
            DuelAction::EndActivations => {
                self.no_activation_running()?;
                match self.game.step {
                    Step::Activation => {
                        self.game.step = Step::Summoning { summoned: false };
                        Ok(())
                    }
                    _ => Err(err(DuelRefusal::WrongStep, "the activation step is not on")),
                }
            }
            DuelAction::EndTurn => self.end_turn(cx),
            DuelAction::Pass | DuelAction::TimedOut => {
                Err(err(DuelRefusal::NothingToPass, "there is no Divine Intervention or response window to pass"))
            }
            DuelAction::ChooseCasualty { .. } => Err(err(DuelRefusal::NoCasualty, "there is no casualty to choose")),
            _ => unreachable!("handled above"),
        }
    }

    // ------------------------------------------------------------ creation

    fn create(&mut self, cx: &mut Cx, seat: Seat, alphas: Vec<AlphaDesign>, di: Vec<CardId>) -> Result<(), RuleError> {
        let cat = cx.cat;
        let p = &self.game.players[seat as usize];
        if p.locked {
            return Err(err(DuelRefusal::AlreadyCreated, "your creations are locked in"));
        }
        let want = if self.options.campaign.is_some() { 4 } else { 3 };
        if alphas.len() != want {
            return Err(err(
                DuelRefusal::AlphaCount,
                format!("create exactly {want} Alphas (you gave {})", alphas.len()),
            ));
        }
        let mut used = BTreeSet::new();
        for (i, a) in alphas.iter().enumerate() {
            if let Some(v) = a.violations(cat).first() {
                return Err(err(DuelRefusal::InvalidAlpha, format!("Alpha {}: {v}", i + 1)));
            }
            for c in &a.cards {
                if !used.insert(c.clone()) {
                    return Err(err(
                        DuelRefusal::CardReused,
                        format!("card {c:?} is in two Alphas; your set has one of each card"),
                    ));
                }
            }
        }
        if di.len() > DI_STACK_MAX_CARDS {
            return Err(err(DuelRefusal::DiStack, format!("a DI stack has at most {DI_STACK_MAX_CARDS} cards")));
        }
        let mut points = 0;
        let mut seen = BTreeSet::new();
        for id in &di {
            let c = cat
                .di_card(id)
                .ok_or_else(|| err(DuelRefusal::UnknownCard, format!("no Divine Intervention {id:?}")))?;
            if !seen.insert(id) {
                return Err(err(DuelRefusal::CardReused, format!("DI {id:?} twice; your set has one of each card")));
            }
            points += c.divine_points;
        }
        if points > DI_STACK_MAX_POINTS {
            return Err(err(
                DuelRefusal::DiStack,
                format!("the DI stack totals {points} divine points; at most {DI_STACK_MAX_POINTS}"),
            ));
        }
        if let Some(camp) = &self.options.campaign {
            let prev = &camp.previous[seat as usize];
            if !prev.is_empty() {
                // A design is its stack of cards (L331-335), in no order, and
                // the Alphas are four stacks, not a list (L1237-1238): count
                // the new designs that are none of the previous ones.
                let stack = |a: &AlphaDesign| a.cards.iter().cloned().collect::<BTreeSet<_>>();
                let before: Vec<_> = prev.iter().map(stack).collect();
                let redesigned = alphas.iter().filter(|a| !before.contains(&stack(a))).count();
                if prev.len() != alphas.len() || redesigned > 1 {
                    return Err(err(
                        DuelRefusal::CampaignRedesign,
                        format!("between campaign games exactly one Alpha may be redesigned ({redesigned} redesigned)"),
                    ));
                }
            }
        }
        let p = self.game.player_mut(seat);
        p.alphas = alphas
            .into_iter()
            .map(|design| {
                let cost = design.summoning_cost(cat);
                let life = design.life_pool(cat);
                Alpha {
                    design: std::sync::Arc::new(design),
                    revealed: false,
                    figure: None,
                    cost,
                    max_life: life,
                    life,
                    cubes: Default::default(),
                    passives: Default::default(),
                    armor: Default::default(),
                }
            })
            .collect();
        p.locked_stack = di.clone();
        p.di_stack = di;
        p.locked = true;
        cx.emit(EventKind::CreationLocked { seat });
        if self.game.players.iter().all(|p| p.locked) {
            let first = match self.options.first_player {
                Some(s) => s,
                None => self.rng.below(2) as Seat,
            };
            let g = &mut self.game;
            g.phase = Phase::Command;
            g.first_player = first;
            g.active = first;
            g.turn = 1;
            g.step = Step::FirstTurn { summoned: Vec::new() };
            g.player_mut(first).had_first_turn = true;
            cx.emit(EventKind::CommandPhaseBegins { first_player: first });
            cx.emit(EventKind::TurnBegins { seat: first, turn: 1 });
        }
        Ok(())
    }

    // ----------------------------------------------------------- summoning

    fn summon(
        &mut self,
        cx: &mut Cx,
        seat: Seat,
        alpha: usize,
        hex: Hex,
        figure: Option<Figure>,
    ) -> Result<(), RuleError> {
        let reveal = self.check_summon(cx.cat, seat, alpha, hex, figure)?;
        let g = &mut self.game;
        let cost = g.players[seat as usize].alphas[alpha].cost;
        match &mut g.step {
            Step::FirstTurn { summoned } => summoned.push(cost),
            Step::Activation | Step::Summoning { .. } => g.step = Step::Summoning { summoned: true },
        }
        if let Some(fig) = reveal {
            let a = &mut g.player_mut(seat).alphas[alpha];
            a.revealed = true;
            a.figure = Some(fig);
            cx.emit(EventKind::AlphaRevealed {
                seat,
                alpha,
                design: (*a.design).clone(),
                cost: a.cost,
                life: a.max_life,
                figure: fig,
            });
        }
        g.place_unit(cx, seat, seat, alpha, hex)?;
        Ok(())
    }

    /// Whether `seat` may summon this Alpha on `hex` now, and the figure it
    /// is revealed as if this is its first summon; changes nothing.
    pub(super) fn check_summon(
        &self,
        cat: &Catalogue,
        seat: Seat,
        alpha: usize,
        hex: Hex,
        figure: Option<Figure>,
    ) -> Result<Option<Figure>, RuleError> {
        self.no_activation_running()?;
        let g = &self.game;
        let p = &g.players[seat as usize];
        let n = p.alphas.len();
        if alpha >= n {
            return Err(err(DuelRefusal::NoSuchAlpha, format!("you have Alphas 0 to {}", n - 1)));
        }
        let cost = p.alphas[alpha].cost;
        match &g.step {
            Step::FirstTurn { summoned } => {
                let count = summoned.len() + 1;
                let total: u32 = summoned.iter().sum::<u32>() + cost;
                if count > 1 && (count > FIRST_TURN_MAX_UNITS || total > FIRST_TURN_MAX_COST) {
                    return Err(err(DuelRefusal::FirstTurnLimit,
                        format!("in your first turn summon one unit of any cost, or up to 3 units costing 60 or less in all (this would be {count} units costing {total})"),
                    ));
                }
            }
            Step::Activation | Step::Summoning { summoned: false } => {}
            Step::Summoning { summoned: true } => {
                return Err(err(DuelRefusal::OneSummon, "after the activations you may summon one unit per turn"));
            }
        }
        let anywhere = g.deploys_anywhere(cat, seat, alpha);
        let ok_hex = if anywhere { g.grid.contains(hex) } else { g.summoning_hexes[seat as usize].contains(&hex) };
        if !ok_hex {
            return Err(err(DuelRefusal::NotSummoningHex, format!("{hex} is not one of your summoning hexes")));
        }
        if g.unit_at(hex).is_some() {
            return Err(err(DuelRefusal::Occupied, format!("{hex} already holds a unit")));
        }
        let mut reveal = None;
        if !p.alphas[alpha].revealed {
            if p.alphas.iter().filter(|a| a.revealed).count() >= 3 {
                return Err(err(DuelRefusal::RevealLimit, "at most three Alphas may be revealed in a game"));
            }
            let taken: Vec<Figure> = p.alphas.iter().filter_map(|a| a.figure).collect();
            reveal = Some(match figure {
                Some(f) if taken.contains(&f) => {
                    return Err(err(DuelRefusal::FigureTaken, "each of your Alphas must have a different figure type"))
                }
                Some(f) => f,
                None => *Figure::ALL.iter().find(|f| !taken.contains(f)).expect("4 figures for at most 4 Alphas"),
            });
        }
        // Summoning step 6 (`place_unit` says it again, for a power's summon).
        if !g.can_pay(seat, cost, g.max_points) {
            let max = g.max_points;
            let why = if reveal.is_some() {
                format!("paying {cost} would exceed your {max} summoning points (spent {})", p.spent)
            } else {
                format!("paying {cost} would exceed the maximum of {max} summoning points (spent {})", p.spent)
            };
            return Err(err(DuelRefusal::NoPoints, why));
        }
        Ok(reveal)
    }

    fn end_turn(&mut self, cx: &mut Cx) -> Result<(), RuleError> {
        self.no_activation_running()?;
        let g = &mut self.game;
        let turn = g.turn;
        // End of turn: short effects end, control returns to the owner.
        for u in &mut g.units {
            u.markers.retain(|m| m.until != Until::EndOfTurn);
            u.controller = u.owner;
            u.extra_m = 0;
        }
        g.turn = turn + 1;
        g.active = other(g.active);
        let seat = g.active;
        self.draw_offer = None;
        for u in &mut g.units {
            u.used_physical = 0;
            u.used_magical = 0;
            u.hit_by_non_lore = false;
            u.lore_bonus_taken = false;
        }
        cx.emit(EventKind::TurnBegins { seat, turn: g.turn });
        if g.players[seat as usize].had_first_turn {
            self.upkeep(cx);
            self.game.step = Step::Activation;
        } else {
            g.player_mut(seat).had_first_turn = true;
            g.step = Step::FirstTurn { summoned: Vec::new() };
        }
        Ok(())
    }

    /// Upkeep: the active player's "until your next upkeep" effects end; every
    /// lasting DI of either player loses a cube and ends at zero; regeneration.
    fn upkeep(&mut self, cx: &mut Cx) {
        let g = &mut self.game;
        let seat = g.active;
        for u in &mut g.units {
            let before = u.markers.len();
            u.markers.retain(|m| !(m.until == Until::YourNextUpkeep && m.by == seat));
            if u.markers.len() != before {
                cx.events.push(DuelEvent::public(EventKind::MarkerExpired { unit: u.id }));
            }
        }
        let mut expired = Vec::new();
        for d in &mut g.active_dis {
            d.cubes = d.cubes.saturating_sub(1);
            cx.events.push(DuelEvent::public(EventKind::DiCubeRemoved {
                seat: d.owner,
                card: d.card.clone(),
                cubes_left: d.cubes,
            }));
            if d.cubes == 0 {
                expired.push(d.clone());
            }
        }
        g.active_dis.retain(|d| d.cubes > 0);
        for d in expired {
            for u in &mut g.units {
                u.markers.retain(|m| m.di != Some(d.id));
            }
            cx.emit(EventKind::DiExpired { seat: d.owner, card: d.card });
        }
        let heals: Vec<(usize, u32)> = g.players[seat as usize]
            .alphas
            .iter()
            .enumerate()
            .filter(|(_, a)| a.revealed && a.life < a.max_life)
            .filter_map(|(i, a)| {
                let amount: u32 = a
                    .design
                    .cards
                    .iter()
                    .filter_map(|c| cx.cat.card(c))
                    .flat_map(|c| &c.passives)
                    .map(|p| if let Passive::Regeneration { amount } = p { *amount } else { 0 })
                    .sum();
                (amount > 0).then_some((i, amount))
            })
            .collect();
        for (i, amount) in heals {
            g.heal(cx, seat, i, amount);
            let life = g.players[seat as usize].alphas[i].life;
            cx.emit(EventKind::Regenerated { seat, alpha: i, amount, life });
        }
    }
}

/// The event of a pass: the seat's own, or the one the server made for it
/// when its timed window ran out (told apart in the log).
fn passed(seat: Seat, action: &DuelAction) -> EventKind {
    match action {
        DuelAction::TimedOut => EventKind::TimedOut { seat },
        _ => EventKind::Passed { seat },
    }
}
