//! Divine Interventions in play: casting one on your own initiative, in
//! answer to the opponent's, or timed into an activation (a rewind to its
//! checkpoint); discarding from the stack; and resolving.

use super::action::DuelAction;
use super::action::Target;
use super::card::{CardId, Catalogue};
use super::event::{DuelEvent, EventKind};
use super::mechanics::{err, other, Cx};
use super::power::Source;
use super::state::*;
use crate::duel::{Awaiting, DuelRefusal};
use crate::{RuleError, Seat};

/// A Divine Intervention cast on a player's own initiative, or in answer
/// to the opponent's: a response cannot itself be answered, and the DI it
/// answers resolves after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cast {
    Own,
    Response,
}

impl DuelState {
    /// May `seat` answer now (a response to a DI, or an activation window)?
    pub(crate) fn can_respond(&self, seat: Seat) -> bool {
        let p = &self.game.players[seat as usize];
        !p.auto_pass && !p.di_stack.is_empty() && p.di_cast_turn != Some(self.game.turn)
    }

    /// The seat the server passes for now, if any: the game waits for its
    /// answer (a response window, or a DI cast at it, with no relic choice
    /// or casualty before it), it has not said `set_pass_when_unable`
    /// false, and nothing it may do there casts a DI (its top card has no
    /// target now). Discarding to reach a card below is left out: a seat
    /// that digs for an answer turns this off.
    pub(crate) fn auto_pass_seat(&self, cat: &Catalogue) -> Option<Seat> {
        let seat = Awaiting::of(self).answering()?;
        if self.game.players[seat as usize].hold_windows {
            return None;
        }
        let legal = super::legal::legal_actions(self, cat, seat);
        let castable = legal.iter().any(|a| matches!(a, DuelAction::CastDi { .. }));
        (legal.contains(&DuelAction::Pass) && !castable).then_some(seat)
    }

    pub(super) fn discard_di(&mut self, cx: &mut Cx, seat: Seat, count: usize) -> Result<(), RuleError> {
        let p = self.game.player_mut(seat);
        if count == 0 || count > p.di_stack.len() {
            return Err(err(
                DuelRefusal::BadCount,
                format!("you can discard 1 to {} cards from the top", p.di_stack.len()),
            ));
        }
        let cards: Vec<CardId> = p.di_stack.drain(..count).collect();
        p.discarded.extend(cards.iter().cloned());
        cx.emit(EventKind::DiDiscarded { seat, count });
        cx.events.push(DuelEvent::private(seat, EventKind::DiDiscardedCards { seat, cards }));
        Ok(())
    }

    pub(super) fn cast_di(
        &mut self,
        cx: &mut Cx,
        seat: Seat,
        target: Target,
        at: Option<usize>,
        cast: Cast,
    ) -> Result<(), RuleError> {
        let p = &self.game.players[seat as usize];
        if p.di_stack.is_empty() {
            return Err(err(DuelRefusal::NoDi, "your Divine Intervention stack is empty"));
        }
        if p.di_cast_turn == Some(self.game.turn) {
            return Err(err(DuelRefusal::OneDiPerTurn, "each player may cast one Divine Intervention per turn"));
        }
        if let Some(k) = at {
            if seat == self.game.active {
                return Err(err(
                    DuelRefusal::BadTiming,
                    "you cast your own DIs at the current moment; only the opponent times a DI into an activation",
                ));
            }
            if self.game.activation.is_none() || k >= self.checkpoints.len() {
                return Err(err(
                    DuelRefusal::BadCheckpoint,
                    format!(
                        "checkpoint {k} is not a moment of the current activation ({} available)",
                        self.checkpoints.len()
                    ),
                ));
            }
            let mut restored = (*self.checkpoints[k]).clone();
            for s in 0..2u8 {
                // Discarded cards are removed from the game without any effect
                // (L818-823): a rewind undoes what happened, never a discard,
                // whoever made it. A DI cast since then goes back on top.
                let now = &self.game.players[s as usize];
                let p = restored.player_mut(s);
                p.di_stack.retain(|c| !now.discarded.contains(c));
                p.discarded.clone_from(&now.discarded);
                // A setting, not a move of the game.
                p.auto_pass = now.auto_pass;
                p.hold_windows = now.hold_windows;
            }
            self.game = restored;
            self.checkpoints.truncate(k + 1);
            self.window = None;
            cx.emit(EventKind::Rewound { checkpoint: k });
        }
        let turn = self.game.turn;
        let p = self.game.player_mut(seat);
        let card = p.di_stack.remove(0);
        p.di_cast_turn = Some(turn);
        let di = cx.cat.di_card(&card).ok_or_else(|| err(DuelRefusal::UnknownCard, format!("no DI {card:?}")))?;
        let src = Source { seat, actor: None, range: None, di: None };
        let r = self.game.resolve_target(cx, src, &di.target, None, &target)?;
        let opp = other(seat);
        let answerable = cast == Cast::Own && self.can_respond(opp);
        if answerable {
            // The choices its effects need (a direction, a distance, ...) are
            // checked now, so a badly aimed DI is refused, not lost later.
            if cx.trial {
                // Nothing after this can refuse the cast, and a trial's
                // state is thrown away: its effects need no copy.
                return self.game.apply_effects(cx, src, &di.effects, r, &target);
            }
            self.game.clone().apply_effects(&mut Cx::trial(cx.cat), src, &di.effects, r, &target)?;
        }
        cx.emit(EventKind::DiCast { seat, card: card.clone() });
        if answerable {
            self.pending = Some(PendingDi { caster: seat, card, target });
            return Ok(());
        }
        self.resolve_di(cx, seat, &card, &target)?;
        if cast == Cast::Own {
            self.after_di();
        }
        Ok(())
    }

    /// After a DI: if it was cast in an open response window, the activation
    /// is over; if it was timed into the activation, the activation goes on.
    pub(super) fn after_di(&mut self) {
        if self.window.is_some() || self.game.activation.as_ref().is_some_and(|a| a.ended) {
            self.finish_activation();
        }
    }

    /// The answered DI resolves now. If the answer changed things so that it
    /// no longer can, it fizzles.
    pub(super) fn finish_pending(&mut self, cx: &mut Cx) {
        let Some(p) = self.pending.take() else { return };
        let before = self.game.clone();
        let mark = cx.events.len();
        if let Err(e) = self.resolve_di(cx, p.caster, &p.card, &p.target) {
            self.game = before;
            cx.events.truncate(mark);
            cx.emit(EventKind::DiFizzled { seat: p.caster, card: p.card, reason: e.message });
        }
        self.after_di();
    }

    pub(super) fn resolve_di(
        &mut self,
        cx: &mut Cx,
        seat: Seat,
        card: &CardId,
        target: &Target,
    ) -> Result<(), RuleError> {
        let di = cx.cat.di_card(card).expect("cast cards exist").clone();
        let g = &mut self.game;
        let id = (di.duration > 0).then(|| {
            g.next_di += 1;
            g.next_di
        });
        let src = Source { seat, actor: None, range: None, di: id };
        let r = g.resolve_target(cx, src, &di.target, None, target)?;
        g.apply_effects(cx, src, &di.effects, r, target)?;
        if let Some(id) = id {
            g.active_dis.push(ActiveDi { id, owner: seat, card: card.clone(), cubes: di.duration, unit: r.unit });
        }
        cx.emit(EventKind::DiResolved { seat, card: card.clone() });
        Ok(())
    }
}
