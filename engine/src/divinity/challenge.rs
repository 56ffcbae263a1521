//! Challenges (L1178-1206): who rolls, bonus dice and the keywords that
//! earn them (L796), automatic successes, and the result rows.

use super::action::KeywordFrom;
use super::content::{Catalogue, Rollers};
use super::cooldown::{CardRef, TrackCard, KEYWORD_SLOT};
use super::dice::{Colour, Pool};
use super::err;
use super::event::DivinityEvent as Ev;
use super::location::{Disposition, Resolution};
use super::state::*;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

impl DivinityState {
    /// Who still has to roll (or succeed automatically).
    pub fn challenge_waiting(&self, cat: &Catalogue) -> Vec<Seat> {
        let Some(ch) = &self.challenge else { return Vec::new() };
        if let Some(p) = self.pending_roll() {
            return vec![p.seat];
        }
        if let Some(s) = ch.flipped {
            return vec![s];
        }
        let card = self.loc(cat).card(&ch.card).and_then(|c| c.challenge.as_ref());
        let one = card.is_some_and(|c| c.rollers == Rollers::One);
        if one && !ch.results.is_empty() {
            return Vec::new();
        }
        ch.group.iter().copied().filter(|s| !ch.results.contains_key(s) && !self.origins[*s as usize].downed).collect()
    }

    /// Whether `seat` has a challenge roll to make now (the first checks
    /// of [`Self::challenge_roll`]).
    fn check_challenge_turn(&self, cat: &Catalogue, seat: Seat) -> Result<(), RuleError> {
        if self.challenge.as_ref().is_some_and(|c| c.flipped.is_some()) {
            return Err(err(DivinityRefusal::ResultPending, "the flipped card's result is chosen first"));
        }
        if !self.challenge_waiting(cat).contains(&seat) || self.pending_roll().is_some() {
            return Err(err(DivinityRefusal::NotYourRoll, "this Origin has no challenge roll to make"));
        }
        Ok(())
    }

    /// Whether the rules accept [`Self::challenge_roll`] with no bonus
    /// keyword played (rolling, or an automatic success with `auto`),
    /// judged from the state without changing it: every refusal of such a
    /// roll comes from the checks here. Playing bonus keywords, each of which
    /// changes what the next may use, is not judged (`None`).
    pub(super) fn accepts_challenge_roll(
        &self,
        cat: &Catalogue,
        seat: Seat,
        auto: Option<&(String, KeywordFrom)>,
        played: &[(String, KeywordFrom)],
    ) -> Option<bool> {
        if !played.is_empty() {
            return None;
        }
        if self.check_challenge_turn(cat, seat).is_err() {
            return Some(false);
        }
        let Some((kw, from)) = auto else { return Some(true) };
        let ch = self.challenge.as_ref().expect("challenge");
        let card = self.loc(cat).card(&ch.card).and_then(|c| c.challenge.as_ref()).expect("challenge card");
        Some(card.auto.contains(kw) && self.check_keyword(cat, seat, kw, from).is_ok())
    }

    pub(super) fn challenge_roll(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        auto: Option<(String, KeywordFrom)>,
        played: &[(String, KeywordFrom)],
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_challenge_turn(cat, seat)?;
        let ch = self.challenge.clone().expect("challenge");
        let card = self.loc(cat).card(&ch.card).and_then(|c| c.challenge.clone()).expect("challenge card");
        if auto.is_some() && !played.is_empty() {
            return Err(err(
                DivinityRefusal::BadKeyword,
                "an automatic success rolls no dice: no bonus keyword to play",
            ));
        }
        // Skills and consumables played for bonus-die conditions (L796,
        // L1206): each meets one condition the roller does not meet already.
        let permanent = self.keywords(cat, seat);
        let mut temporary = Vec::new();
        for (kw, from) in played {
            if matches!(from, KeywordFrom::Permanent) {
                return Err(err(DivinityRefusal::BadKeyword, "permanent keywords count by themselves"));
            }
            if !card.bonus.iter().any(|b| b.keyword.as_ref() == Some(kw)) {
                return Err(err(DivinityRefusal::NoCondition, format!("no bonus die of this challenge asks for {kw}")));
            }
            if permanent.contains(kw) || temporary.contains(kw) {
                return Err(err(DivinityRefusal::ConditionMet, format!("{kw} is already met for this roll")));
            }
            self.use_keyword(cat, seat, kw, from, ev)?;
            temporary.push(kw.clone());
        }
        match auto {
            Some((kw, from)) => {
                if !card.auto.contains(&kw) {
                    return Err(err(DivinityRefusal::NoAuto, format!("{kw} gives no automatic success here")));
                }
                // The book's order (L1198): the card is flipped, then its
                // result chosen from the rows now showing.
                self.use_keyword(cat, seat, &kw, &from, ev)?;
                self.challenge.as_mut().unwrap().flipped = Some(seat);
                ev.push(Ev::ChallengeFlipped { seat, card: ch.card.clone() });
                return Ok(());
            }
            None => {
                let mut pool = Pool::of(Colour::White, 3);
                let here = self.origins[seat as usize].space;
                let present = self.standing().filter(|s| self.origins[*s as usize].space == here).count() as u32;
                for b in &card.bonus {
                    let ok = b.keyword.as_ref().is_some_and(|k| permanent.contains(k) || temporary.contains(k))
                        || b.origins_present.is_some_and(|n| present >= n);
                    if ok {
                        pool.add(b.colour, 1);
                    }
                }
                let roll = self.roll_pool(cat, Who::Origin(seat), pool, ev);
                self.wait_for(Choice::Roll(PendingRoll { seat, roll, purpose: Purpose::Challenge, card_rerolls: 0 }));
            }
        }
        self.finish_challenge(cat, ev);
        Ok(())
    }

    /// The Origin whose automatic success flipped the card takes result
    /// row `row` (L1198).
    pub(super) fn choose_result(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        row: usize,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_choose_result(cat, seat, row)?;
        let ch = self.challenge.as_mut().unwrap();
        ch.flipped = None;
        ch.results.insert(seat, ChallengeResultKind::Row(row));
        self.finish_challenge(cat, ev);
        Ok(())
    }

    /// Whether the rules accept [`Self::choose_result`], judged from the
    /// state without changing it (every refusal of it comes from here).
    pub(super) fn check_choose_result(&self, cat: &Catalogue, seat: Seat, row: usize) -> Result<(), RuleError> {
        let Some(ch) = self.challenge.as_ref().filter(|c| c.flipped.is_some()) else {
            return Err(err(DivinityRefusal::NothingToChoose, "no flipped challenge card waits for a result"));
        };
        if ch.flipped != Some(seat) {
            return Err(err(DivinityRefusal::NotYourRoll, "another Origin's automatic success chooses this result"));
        }
        let rows = self.loc(cat).card(&ch.card).and_then(|c| c.challenge.as_ref()).map_or(0, |c| c.results.len());
        if row >= rows {
            return Err(err(DivinityRefusal::NoSuchResult, "no such result row"));
        }
        Ok(())
    }

    /// Whether the Origin has the keyword from that source now (every
    /// refusal of [`Self::use_keyword`] comes from here).
    fn check_keyword(&self, cat: &Catalogue, seat: Seat, kw: &str, from: &KeywordFrom) -> Result<(), RuleError> {
        let o = &self.origins[seat as usize];
        match from {
            KeywordFrom::Permanent => {
                if !self.keywords(cat, seat).contains(kw) {
                    return Err(err(DivinityRefusal::NoKeyword, format!("this Origin lacks {kw}")));
                }
            }
            KeywordFrom::Skill(id) => {
                if !o.hand.contains(id) || cat.skills.get(id).and_then(|s| s.keyword.as_deref()) != Some(kw) {
                    return Err(err(DivinityRefusal::NoKeyword, format!("no skill in hand gives {kw}")));
                }
            }
            KeywordFrom::Consumable(id) => {
                let gives = cat.items.get(id).is_some_and(|i| i.bonus.keywords.iter().any(|k| k == kw));
                if !o.backpack.contains(id) || !gives {
                    return Err(err(DivinityRefusal::NoKeyword, format!("no consumable in the backpack gives {kw}")));
                }
            }
        }
        Ok(())
    }

    /// Use a keyword for a condition (L796, L1009): permanent ones cost
    /// nothing; a skill goes face down on slot 3; a consumable is discarded.
    fn use_keyword(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        kw: &str,
        from: &KeywordFrom,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_keyword(cat, seat, kw, from)?;
        match from {
            KeywordFrom::Permanent => {}
            KeywordFrom::Skill(id) => {
                let o = &mut self.origins[seat as usize];
                o.hand.retain(|s| s != id);
                o.track
                    .place(TrackCard { card: CardRef::Skill(id.clone()), face_up: false, flip_at: None }, KEYWORD_SLOT);
            }
            KeywordFrom::Consumable(id) => {
                let o = &mut self.origins[seat as usize];
                let i = o.backpack.iter().position(|x| x == id).unwrap();
                o.backpack.remove(i);
                self.discard_item(cat, seat, id, ev);
            }
        }
        Ok(())
    }

    /// Once every roller has a result, flip the card and resolve each
    /// roller's row (L1184).
    pub(super) fn finish_challenge(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if self.challenge.is_none() || self.pending_roll().is_some() || !self.challenge_waiting(cat).is_empty() {
            return;
        }
        let ch = self.challenge.take().unwrap();
        let card = self.loc(cat).card(&ch.card).cloned().expect("card");
        let table = card.challenge.as_ref().expect("challenge");
        let mut disp = Disposition::Discard;
        for (seat, res) in &ch.results {
            let row = match res {
                ChallengeResultKind::Row(r) => *r,
                ChallengeResultKind::Hits(h) => table.results.iter().rposition(|r| r.min_hits <= *h).unwrap_or(0),
            };
            let effects = table.results[row].effects.clone();
            let res = Resolution { card: &card.id, group: &[*seat], space: ch.space };
            self.apply_effects(cat, res, &effects, &mut disp, ev);
            if self.over() {
                return;
            }
        }
        ev.push(Ev::CardResolved { card: card.id.clone() });
        self.dispose(cat, &card.id, disp);
        self.after_resolution(cat, ev);
    }
}
