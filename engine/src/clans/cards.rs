//! Playing cards from the stacks: paying SP and EXP, summoning, equipping,
//! assimilating, items, runic arts and terrain.

use super::content::{Card, Catalogue, ItemEffect, Kind, Lasts, Stat};
use super::event::ClansEvent as E;
use super::grid::{Pos, Terrain};
use super::play::{err, R};
use super::refusal::ClansRefusal;
use super::state::{Boost, ClansState, Figure, FigureId};
use crate::Seat;

impl ClansState {
    /// Take a card from one of `seat`'s stacks.
    pub(super) fn take(&mut self, seat: Seat, card: &str, allies: bool) -> R {
        let p = &mut self.players[seat as usize];
        let stack = if allies { &mut p.allies } else { &mut p.tactics };
        let i = stack
            .iter()
            .position(|c| c == card)
            .ok_or_else(|| err(ClansRefusal::NotInStack, "you hold no such unplayed card"))?;
        stack.remove(i);
        Ok(())
    }

    pub(super) fn pay(&mut self, seat: Seat, sp: i32, exp: i32) -> R {
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

    pub(super) fn tactic<'c>(&self, cat: &'c Catalogue, seat: Seat, card: &str) -> R<&'c Card> {
        if !self.players[seat as usize].tactics.iter().any(|c| c == card) {
            return Err(err(ClansRefusal::NotInStack, "you hold no such unplayed card"));
        }
        Ok(cat.card(card).expect("deck card"))
    }

    pub(super) fn summon(&mut self, cat: &Catalogue, seat: Seat, card: String, at: Pos, ev: &mut Vec<E>) -> R {
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

    pub(super) fn equip(&mut self, cat: &Catalogue, seat: Seat, card: String, figure: FigureId, ev: &mut Vec<E>) -> R {
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

    pub(super) fn assimilate(&mut self, cat: &Catalogue, seat: Seat, card: String, ev: &mut Vec<E>) -> R {
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

    pub(super) fn item(&mut self, cat: &Catalogue, seat: Seat, card: String, target: FigureId, ev: &mut Vec<E>) -> R {
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
    pub(super) fn runic_art(
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

    pub(super) fn terrain(&mut self, cat: &Catalogue, seat: Seat, card: String, ev: &mut Vec<E>) -> R {
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
