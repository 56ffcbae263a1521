//! Finishing a location (L1324-1375): the interlude after an exit, with
//! levelling up (L520-583) and the Merchant (L1350-1375). Reviving,
//! healing, clearing tracks, refilling Source and flipping talents up
//! (interlude steps 2-4) happen as the interlude opens, before its equipping
//! and trading (step 5): a party member who left downed trades like the
//! rest. The next location's setup starts the party the same way.

use crate::divinity::DivinityRefusal;
use std::collections::BTreeSet;

use super::action::DivinityAction as A;
use super::content::{Catalogue, ConsumableDeck, ItemKind, School};
use super::cooldown::CardRef;
use super::err;
use super::event::DivinityEvent as Ev;
use super::state::*;
use crate::{RuleError, Seat};

pub use super::state::{Interlude, MerchantDeck};

/// The skills an Origin may hold at a level (L529, G6): 3 + level skills,
/// no two alike, no Source skill; at most `level - k + 1` of level k or
/// more for every k ≥ 2; an advanced skill (level ≥ 3) needs its school's
/// training talent.
///
/// # Errors
/// Which of those the set breaks.
pub fn valid_skills(cat: &Catalogue, level: u32, skills: &[String], talents: &[String]) -> Result<(), String> {
    if skills.len() != 3 + level as usize {
        return Err(format!("a level-{level} Origin holds {} skills, not {}", 3 + level, skills.len()));
    }
    valid_skills_up_to(cat, level, skills, talents)
}

/// [`valid_skills`] for the set after a level-up, which may be short of
/// `3 + level`: an Origin that started at a later location without a
/// campaign (a single location's match) holds its level-1 skills at the
/// location's level, and a level-up learns one skill whatever it held
/// before; more than `3 + level` is still refused (ASSUMPTIONS.md,
/// "Levelling up").
///
/// # Errors
/// Which rule of [`valid_skills`] but the count the set breaks, or more
/// than `3 + level` skills.
pub fn valid_skills_up_to(cat: &Catalogue, level: u32, skills: &[String], talents: &[String]) -> Result<(), String> {
    if skills.len() > 3 + level as usize {
        return Err(format!("a level-{level} Origin holds {} skills, not {}", 3 + level, skills.len()));
    }
    let distinct: BTreeSet<&String> = skills.iter().collect();
    if distinct.len() != skills.len() {
        return Err("never two copies of a skill (L567)".into());
    }
    let trained: BTreeSet<School> =
        talents.iter().filter_map(|t| cat.talents.get(t).and_then(|t| t.training)).collect();
    let mut levels = Vec::new();
    for s in skills {
        let d = cat.skills.get(s).ok_or(format!("unknown skill {s}"))?;
        if d.school == School::Source {
            return Err("Source skills are not learned by levelling up (L569)".into());
        }
        if d.level > level {
            return Err(format!("{s} is level {}, above level {level}", d.level));
        }
        if d.level >= 3 && !trained.contains(&d.school) {
            return Err(format!("{s} is advanced: it needs the {:?} training talent (L575)", d.school));
        }
        levels.push(d.level);
    }
    for k in 2..=level {
        let n = levels.iter().filter(|&&l| l >= k).count() as u32;
        if n > level - k + 1 {
            return Err(format!("{n} skills of level {k} or more: more than the level-ups allowed"));
        }
    }
    Ok(())
}

/// A seat's level-ups with no respec, judged pair by pair from what
/// [`DivinityState::check_level_up`] would work out for every pair alike
/// (see [`DivinityState::level_up_judge`]). [`LevelUpJudge::accepts`]
/// answers as that check does: `tests/divinity_legal.rs` holds the two
/// equal over every pair of many interludes.
pub struct LevelUpJudge<'s> {
    cat: &'s Catalogue,
    level: u32,
    /// The new card shows one more talent than the Origin has: one must be
    /// chosen, else none may.
    needs_talent: bool,
    /// The Origin's own talents and kept skills pass the checks whatever
    /// the pair (known, of its level, one tile each; no more skills than
    /// the level allows once one joins, none twice, none above the level, and
    /// at most one school of advanced skills left for the new talent to
    /// train).
    possible: bool,
    unrestricted: bool,
    own: &'s [String],
    /// Talents the other Origins hold (one tile each, L561).
    others: BTreeSet<&'s str>,
    /// Schools the Origin's own talents train.
    trained: BTreeSet<School>,
    /// The school of a kept advanced skill no own talent trains: only the
    /// new talent can make the set valid, by training it.
    untrained: Option<School>,
    base: Vec<&'s str>,
    /// The highest level the new skill may have (the skills of level k or
    /// more stay at most `level - k + 1` with it).
    learn_max: u32,
}

impl LevelUpJudge<'_> {
    /// Whether levelling up with `talent` and learning `learn`, with no
    /// respec, is accepted.
    pub fn accepts(&self, talent: Option<&str>, learn: &str) -> bool {
        match (self.talent(talent), self.learn(learn)) {
            (Some(training), Some(needs)) => needs.is_none_or(|s| training == Some(s)),
            _ => false,
        }
    }

    /// Whether `talent` may come with this level-up (whatever the skill),
    /// and the school it trains: `None` when it may not.
    pub fn talent(&self, talent: Option<&str>) -> Option<Option<School>> {
        if !self.possible || talent.is_some() != self.needs_talent {
            return None;
        }
        let mut training = None;
        if let Some(t) = talent {
            let d = self.cat.talents.get(t)?;
            if (!self.unrestricted && d.level > self.level)
                || self.others.contains(t)
                || self.own.iter().any(|o| o == t)
            {
                return None;
            }
            training = d.training;
        }
        // A kept advanced skill no own talent trains: only this talent can.
        if self.untrained.is_some_and(|s| training != Some(s)) {
            return None;
        }
        Some(training)
    }

    /// Whether `learn` may be learnt with this level-up, and the school a
    /// new talent must train for it (an advanced skill of a school no own
    /// talent trains): `None` when it may not, whatever the talent.
    pub fn learn(&self, learn: &str) -> Option<Option<School>> {
        let d = self.cat.skills.get(learn)?;
        if !self.possible
            || d.school == School::Source
            || d.level > self.level
            || d.level > self.learn_max
            || self.base.contains(&learn)
        {
            return None;
        }
        Some((d.level >= 3 && !self.trained.contains(&d.school)).then_some(d.school))
    }
}

impl DivinityState {
    /// An exit opens the interlude; with a level-up every Origin takes the
    /// next level's card at once (L522, L1342).
    pub(super) fn open_interlude(&mut self, cat: &Catalogue, to: String, level_up: bool, ev: &mut Vec<Ev>) {
        let n = self.origins.len();
        let can = level_up && self.origins.iter().all(|o| cat.origins[&o.origin].at(o.level + 1).is_some());
        if can {
            self.level += 1;
            for o in &mut self.origins {
                o.level += 1;
            }
        }
        // A roll under way is dropped; an enemy's decisions ended with its combat.
        if self.pending_roll().is_some() {
            self.choice = None;
        }
        self.challenge = None;
        self.restore_party(cat, ev);
        self.phase = Phase::Interlude(Interlude {
            to,
            level_up: can,
            leveled: vec![!can; n],
            merchant_open: false,
            offer: Vec::new(),
        });
    }

    /// Interlude steps 2-4 (L1341-1343): each downed Origin is revived,
    /// then every Origin heals to its max HP, clears its cooldown track,
    /// refills its Source and flips its once-per-location talents face up.
    /// A cleared card goes where a slide would take it: a skill to the
    /// hand, a status to the supply, a used consumable under its deck, and
    /// a summon leaves with its card.
    fn restore_party(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        for seat in 0..self.origins.len() as Seat {
            let max = self.max_hp(cat, Who::Origin(seat));
            let o = &mut self.origins[seat as usize];
            if o.downed {
                o.downed = false;
                ev.push(Ev::Revived { seat, hp: max });
            }
            o.hp = max;
            o.source = cat.origins[&o.origin].at(o.level).map_or(o.source, |l| l.source);
            o.talents_used.clear();
            o.summon = None;
            let mut used_up = Vec::new();
            for c in o.track.clear() {
                match c.card {
                    CardRef::Skill(id) => {
                        if o.skills.contains(&id) && !o.hand.contains(&id) {
                            o.hand.push(id);
                        }
                    }
                    CardRef::Status(status) => ev.push(Ev::StatusCleared { who: Who::Origin(seat), status }),
                    CardRef::Consumable(id) => used_up.push(id),
                    CardRef::Tactic(_) => {}
                }
            }
            for id in used_up {
                ev.push(Ev::ItemDiscarded { seat, item: id.clone() });
                self.to_deck_bottom(cat, &id);
            }
        }
    }

    fn interlude(&mut self) -> Result<&mut Interlude, RuleError> {
        match &mut self.phase {
            Phase::Interlude(i) => Ok(i),
            _ => Err(err(DivinityRefusal::NotInterlude, "only during the interlude")),
        }
    }

    fn interlude_ref(&self) -> Result<&Interlude, RuleError> {
        match &self.phase {
            Phase::Interlude(i) => Ok(i),
            _ => Err(err(DivinityRefusal::NotInterlude, "only during the interlude")),
        }
    }

    /// Whether the rules accept a Merchant action or the interlude's end
    /// (visit, restock, buy, sell, finish), judged from the state without
    /// changing it: every refusal of those comes from the `check_*`
    /// functions below (the leader's say is checked before, by the caller,
    /// as `apply` does). `None` for any other action.
    pub(super) fn accepts_merchant_action(&self, cat: &Catalogue, seat: Seat, a: &A) -> Option<bool> {
        Some(match a {
            A::VisitMerchant { level, .. } => self.check_visit_merchant(*level).is_ok(),
            A::Restock { deck } => self.check_restock(*deck).is_ok(),
            A::Buy { item, to } => self.interlude_ref().is_ok_and(|i| self.buy_price(i, cat, item, *to).is_ok()),
            A::Sell { item } => self.check_sell(cat, seat, item).is_ok(),
            A::FinishInterlude => self.check_finish_interlude().is_ok(),
            _ => return None,
        })
    }

    /// Steps 2-4 of levelling up for one Origin: a talent if the new card
    /// shows more, one skill, and any respec (L527-529).
    pub(super) fn level_up(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        talent: Option<String>,
        learn: String,
        respec: Vec<(String, String)>,
    ) -> Result<(), RuleError> {
        let (talents, skills) = self.check_level_up(cat, seat, talent, learn, respec)?;
        let o = &mut self.origins[seat as usize];
        o.talents = talents;
        o.skills = skills;
        o.hand = o.skills.clone();
        self.interlude()?.leveled[seat as usize] = true;
        Ok(())
    }

    /// What every level-up of `seat` without a respec is judged by, worked
    /// out once: `None` when the seat has no level-up to make now. The legal
    /// list asks it for each of the thousand-odd (talent, skill) pairs of a
    /// level that unlocks a talent, where [`Self::check_level_up`] built the
    /// Origin's talents and skills anew for each pair.
    pub(super) fn level_up_judge<'s>(&'s self, cat: &'s Catalogue, seat: Seat) -> Option<LevelUpJudge<'s>> {
        let Phase::Interlude(i) = &self.phase else { return None };
        if !i.level_up || i.leveled.get(seat as usize).is_none_or(|l| *l) {
            return None;
        }
        let o = &self.origins[seat as usize];
        let level = o.level;
        let card = cat.origins.get(&o.origin)?.at(level)?;
        let unrestricted = self.options.unrestricted_talents;
        let others: BTreeSet<&str> = self
            .origins
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != seat as usize)
            .flat_map(|(_, o)| o.talents.iter().map(String::as_str))
            .collect();
        let mut own = BTreeSet::new();
        let mut trained = BTreeSet::new();
        let mut own_talents_ok = true;
        for t in &o.talents {
            match cat.talents.get(t) {
                Some(d) => {
                    own_talents_ok &= unrestricted || d.level <= level;
                    own_talents_ok &= !others.contains(t.as_str()) && own.insert(t.as_str());
                    trained.extend(d.training);
                }
                None => own_talents_ok = false,
            }
        }
        // The skills kept (every one but the Source skills), as valid_skills
        // sees them before the new one joins.
        let base: Vec<&str> = o
            .skills
            .iter()
            .filter(|s| cat.skills.get(*s).is_none_or(|d| d.school != School::Source))
            .map(String::as_str)
            .collect();
        let mut base_ok = base.len() < 3 + level as usize;
        let mut untrained = BTreeSet::new();
        let mut at_least = vec![0u32; level as usize + 2];
        for (n, s) in base.iter().enumerate() {
            let Some(d) = cat.skills.get(*s) else {
                base_ok = false;
                continue;
            };
            base_ok &= d.level <= level && !base[..n].contains(s);
            if d.level >= 3 && !trained.contains(&d.school) {
                untrained.insert(d.school);
            }
            for k in 2..=d.level.min(level) {
                at_least[k as usize] += 1;
            }
        }
        // At most `level - k + 1` skills of level k or more, for every k ≥ 2:
        // the set kept, and the highest level the new skill may have.
        base_ok &= (2..=level).all(|k| at_least[k as usize] <= level - k + 1);
        let mut learn_max = 1;
        for k in 2..=level {
            if at_least[k as usize] + 1 > level - k + 1 {
                break;
            }
            learn_max = k;
        }
        Some(LevelUpJudge {
            cat,
            level,
            needs_talent: card.talents as usize > o.talents.len(),
            possible: own_talents_ok && base_ok && untrained.len() <= 1,
            unrestricted,
            own: &o.talents,
            others,
            trained,
            untrained: untrained.into_iter().next(),
            base,
            learn_max,
        })
    }

    /// The Origin's talents and skills after the level-up, or why not.
    fn check_level_up(
        &self,
        cat: &Catalogue,
        seat: Seat,
        talent: Option<String>,
        learn: String,
        respec: Vec<(String, String)>,
    ) -> Result<(Vec<String>, Vec<String>), RuleError> {
        let unrestricted = self.options.unrestricted_talents;
        let Phase::Interlude(i) = &self.phase else {
            return Err(err(DivinityRefusal::NotInterlude, "only during the interlude"));
        };
        if !i.level_up || i.leveled[seat as usize] {
            return Err(err(DivinityRefusal::NoLevelUp, "this Origin has no level-up to make"));
        }
        let o = &self.origins[seat as usize];
        let card = cat.origins[&o.origin].at(o.level).expect("card checked when the interlude opened");
        let mut talents = o.talents.clone();
        match (talent, (card.talents as usize) > talents.len()) {
            (Some(t), true) => talents.push(t),
            (None, false) => {}
            (Some(_), false) => return Err(err(DivinityRefusal::NoNewTalent, "the new card shows no more talents")),
            (None, true) => {
                return Err(err(DivinityRefusal::TalentNeeded, "the new card unlocks a talent: choose one"))
            }
        }
        let mut skills: Vec<String> =
            o.skills.iter().filter(|s| cat.skills[*s].school != School::Source).cloned().collect();
        if skills.contains(&learn) {
            return Err(err(DivinityRefusal::KnownSkill, "never two copies of a skill (L567)"));
        }
        skills.push(learn);
        for (old, new) in respec {
            if let Some(p) = skills.iter().position(|s| *s == old) {
                skills[p] = new;
            } else if let Some(p) = talents.iter().position(|t| *t == old) {
                talents[p] = new;
            } else {
                return Err(err(DivinityRefusal::Respec, format!("{old} is not yours to replace")));
            }
        }
        // Talents: of your level or lower (unless Unrestricted Talents), one tile each (L561, L1845).
        let others: BTreeSet<&String> = self
            .origins
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != seat as usize)
            .flat_map(|(_, o)| &o.talents)
            .collect();
        let mut mine = BTreeSet::new();
        for t in &talents {
            let d =
                cat.talents.get(t).ok_or_else(|| err(DivinityRefusal::UnknownTalent, format!("unknown talent {t}")))?;
            if !unrestricted && d.level > o.level {
                return Err(err(DivinityRefusal::TalentLevel, format!("{t} is above level {}", o.level)));
            }
            if others.contains(t) || !mine.insert(t) {
                return Err(err(DivinityRefusal::TalentTaken, format!("there is one tile of {t} (L561)")));
            }
        }
        valid_skills_up_to(cat, o.level, &skills, &talents).map_err(|m| err(DivinityRefusal::SkillSet, m))?;
        let source = o.skills.iter().filter(|s| cat.skills[*s].school == School::Source).cloned();
        Ok((talents, skills.into_iter().chain(source).collect()))
    }

    fn reveal_from(&mut self, deck: MerchantDeck) -> Vec<String> {
        // Shuffle the deck and reveal one card per player plus one from its
        // top (L1355); the Merchant never shows the unique, rune or summon
        // decks (L1363), which are not merchant decks.
        let name = match deck {
            MerchantDeck::Equipment(l) => format!("equipment_{l}"),
            MerchantDeck::Consumables(c) => consumable_deck(c).to_string(),
        };
        let n = self.origins.len() + 1;
        let Some(cards) = self.item_decks.get_mut(&name) else { return Vec::new() };
        self.rng.shuffle(cards);
        cards.drain(..n.min(cards.len())).collect()
    }

    /// Merchant steps 1-2 (L1354-1355): pay an equipment deck's level, see
    /// one item per player plus one, and as many from a consumable deck.
    pub(super) fn visit_merchant(
        &mut self,
        level: u32,
        consumables: Option<ConsumableDeck>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_visit_merchant(level)?;
        self.gold -= level;
        let mut shown = self.reveal_from(MerchantDeck::Equipment(level));
        if let Some(c) = consumables {
            shown.extend(self.reveal_from(MerchantDeck::Consumables(c)));
        }
        let i = self.interlude()?;
        i.merchant_open = true;
        i.offer.extend(shown.iter().cloned());
        ev.push(Ev::MerchantShows { items: shown, gold: self.gold });
        Ok(())
    }

    fn check_visit_merchant(&self, level: u32) -> Result<(), RuleError> {
        if self.interlude_ref()?.merchant_open {
            return Err(err(DivinityRefusal::MerchantOpen, "the entry fee is paid once; restock to see more"));
        }
        self.check_pay(level)
    }

    /// Whether the stash can pay for an equipment deck of `level`.
    fn check_pay(&self, level: u32) -> Result<(), RuleError> {
        if level == 0 || level > self.level {
            return Err(err(
                DivinityRefusal::DeckLevel,
                format!("an equipment deck of level 1 to {} (L1354)", self.level),
            ));
        }
        if self.gold < level {
            return Err(err(DivinityRefusal::NotEnoughGold, "the stash can't pay that"));
        }
        Ok(())
    }

    /// Merchant step 5 (L1361): another deck's level, or 1 gold for a consumable deck.
    pub(super) fn restock(&mut self, deck: MerchantDeck, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.gold -= self.check_restock(deck)?;
        let shown = self.reveal_from(deck);
        self.interlude()?.offer.extend(shown.iter().cloned());
        ev.push(Ev::MerchantShows { items: shown, gold: self.gold });
        Ok(())
    }

    /// What restocking `deck` costs, or why not.
    fn check_restock(&self, deck: MerchantDeck) -> Result<u32, RuleError> {
        if !self.interlude_ref()?.merchant_open {
            return Err(err(DivinityRefusal::MerchantClosed, "pay the entry fee first"));
        }
        match deck {
            MerchantDeck::Equipment(l) => self.check_pay(l).map(|()| l),
            MerchantDeck::Consumables(_) if self.gold < 1 => {
                Err(err(DivinityRefusal::NotEnoughGold, "restocking consumables costs 1 gold"))
            }
            MerchantDeck::Consumables(_) => Ok(1),
        }
    }

    /// Merchant step 3 (L1356): buy a revealed item for its printed cost; an
    /// Origin equips it if it fits, or stores it; with no room the party
    /// chooses what to drop for it (L1056, `PlaceItem`).
    pub(super) fn buy(&mut self, cat: &Catalogue, item: &str, to: Seat, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let (at, cost) = self.check_buy(cat, item, to)?;
        let o = &self.origins[to as usize];
        let mut with = o.equipped.clone();
        with.push(item.to_string());
        let equip = matches!(cat.items[item].kind, ItemKind::Equipment(_)) && fits(cat, &with);
        let no_room = !equip && o.backpack.len() >= BACKPACK;
        self.gold -= cost;
        self.interlude()?.offer.remove(at);
        if no_room {
            // No room (L1056): the buyer drops another item for it, or the
            // party discards the new one (`PlaceItem`), as for a found item.
            ev.push(Ev::GoldSpent { amount: cost, total: self.gold });
            ev.push(Ev::NoRoom { item: item.to_string(), takers: vec![to] });
            self.overflow.push(super::state::Overflow { item: item.to_string(), takers: vec![to] });
            return Ok(());
        }
        let o = &mut self.origins[to as usize];
        if equip {
            o.equipped.push(item.to_string());
        } else {
            o.backpack.push(item.to_string());
        }
        ev.push(Ev::ItemGained { seat: Some(to), item: item.to_string() });
        ev.push(Ev::GoldGained { amount: 0, total: self.gold });
        Ok(())
    }

    /// Where the item lies in the offer and what it costs, or why it can't
    /// be bought for `to`.
    fn check_buy(&self, cat: &Catalogue, item: &str, to: Seat) -> Result<(usize, u32), RuleError> {
        let i = self.interlude_ref()?;
        self.buy_price(i, cat, item, to).map_err(|miss| match miss {
            BuyMiss::Says(code, m) => err(code, m),
            BuyMiss::Costs(cost) => {
                err(DivinityRefusal::NotEnoughGold, format!("{item} costs {cost} and the stash holds {}", self.gold))
            }
        })
    }

    /// [`Self::check_buy`]'s checks in the interlude `i`, a refusal's
    /// message left unwritten (the legal list asks them of every ware for
    /// every Origin): where the ware lies and what it costs.
    fn buy_price(&self, i: &Interlude, cat: &Catalogue, item: &str, to: Seat) -> Result<(usize, u32), BuyMiss> {
        let at = i
            .offer
            .iter()
            .position(|x| x == item)
            .ok_or(BuyMiss::Says(DivinityRefusal::NotOffered, "the Merchant shows no such item"))?;
        let cost = cat.items[item].cost.unwrap_or(0);
        if to as usize >= self.origins.len() {
            return Err(BuyMiss::Says(DivinityRefusal::NoSuchOrigin, "no such Origin"));
        }
        if self.gold < cost {
            return Err(BuyMiss::Costs(cost));
        }
        Ok((at, cost))
    }

    /// Merchant step 4 (L1357, L1363): sell for half the cost, rounded up;
    /// never a rune, never an item without a cost.
    pub(super) fn sell(&mut self, cat: &Catalogue, seat: Seat, item: &str, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let cost = self.check_sell(cat, seat, item)?;
        let o = &mut self.origins[seat as usize];
        if let Some(p) = o.backpack.iter().position(|x| x == item) {
            o.backpack.remove(p);
        } else {
            let p = o.equipped.iter().position(|x| x == item).expect("carried, as checked");
            o.equipped.remove(p);
            // The Merchant buys no rune (L1062): it comes off as when the
            // item is unequipped (L1063), stored, or discarded to the bottom
            // of the rune deck (L1053), never sold with the item.
            self.unrune(seat, item, ev);
        }
        // A sold item goes to the bottom of its deck (L1358).
        self.to_deck_bottom(cat, item);
        let price = cost.div_ceil(2);
        self.gold += price;
        ev.push(Ev::GoldGained { amount: price, total: self.gold });
        Ok(())
    }

    /// The item's printed cost (it sells for half),
    /// or why the Merchant won't buy it from this Origin.
    fn check_sell(&self, cat: &Catalogue, seat: Seat, item: &str) -> Result<u32, RuleError> {
        if !self.interlude_ref()?.merchant_open {
            return Err(err(DivinityRefusal::MerchantClosed, "selling opens once the entry fee is paid (L1357)"));
        }
        let cost = cat.items.get(item).and_then(|d| d.cost).ok_or_else(|| {
            err(DivinityRefusal::Unsellable, "the Merchant never buys runes or items without a cost (L1363)")
        })?;
        let o = &self.origins[seat as usize];
        if !o.backpack.iter().chain(&o.equipped).any(|x| x == item) {
            return Err(err(DivinityRefusal::NotCarried, "you don't carry that item"));
        }
        Ok(cost)
    }

    fn check_finish_interlude(&self) -> Result<(), RuleError> {
        if self.interlude_ref()?.leveled.iter().any(|l| !l) {
            return Err(err(DivinityRefusal::LevelUpPending, "every Origin levels up first"));
        }
        Ok(())
    }

    /// End the interlude once every Origin has levelled up.
    pub(super) fn finish_interlude(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        self.check_finish_interlude()?;
        let i = self.interlude()?.clone();
        // What nobody bought goes back under its deck.
        for item in &i.offer {
            self.to_deck_bottom(cat, item);
        }
        self.finish(Finish::Exit { to: i.to, level_up: i.level_up }, ev);
        Ok(())
    }
}

/// Why the Merchant won't sell a ware, as [`DivinityState::buy_price`]
/// finds it.
enum BuyMiss {
    Says(DivinityRefusal, &'static str),
    /// The ware costs this much, more than the stash holds.
    Costs(u32),
}
