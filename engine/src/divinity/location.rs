//! A location: exploring it (L285-336), and the
//! location cards' vocabulary (L1144-1160, L1208-1292): challenges, spawns,
//! rewards, keys, placed cards, journal, time, exits and restarts, and
//! conditional effects (journal, symbols, keywords, gold) and forced moves.

use crate::divinity::DivinityRefusal;
use std::collections::BTreeSet;

use super::content::{CardEffect, Catalogue, Condition, Who as CardWho};
use super::cooldown::{Track, MINION_TRACK, ORIGIN_TRACK};
use super::err;
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::state::*;
use crate::{RuleError, Seat};

/// What happens to a card once resolved (L1160, L1216, L1260, L1263).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Disposition {
    Discard,
    CombatStack,
    Placed,
    ReturnToDeck,
}

/// A card being resolved: which, for whom and where; what its effects
/// need beside the effect itself.
#[derive(Debug, Clone, Copy)]
pub(super) struct Resolution<'a> {
    pub card: &'a str,
    /// The group resolving it (the whole party for a combat card's back).
    pub group: &'a [Seat],
    pub space: SpaceIx,
}

impl DivinityState {
    /// The groups of standing Origins sharing a space, lowest seat first (L293).
    pub fn groups(&self) -> Vec<Vec<Seat>> {
        let mut out: Vec<Vec<Seat>> = Vec::new();
        for s in self.standing() {
            let sp = self.origins[s as usize].space;
            match out.iter_mut().find(|g| self.origins[g[0] as usize].space == sp) {
                Some(g) => g.push(s),
                None => out.push(vec![s]),
            }
        }
        out
    }

    /// Explore step 1 for one Origin (L316-320): start-of-turn effects,
    /// travel along unlocked paths to a numbered space, slide.
    pub(super) fn travel(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        to: Option<&str>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let dest = self.check_travel(cat, seat, to)?;
        let here = self.origins[seat as usize].space;
        self.start_of_turn(cat, Who::Origin(seat), ev);
        if let Some((ix, steps)) = dest {
            if !self.origins[seat as usize].downed && ix != here {
                self.origins[seat as usize].space = ix;
                ev.push(Ev::Travelled { seat, to: self.space_id(cat, ix) });
                for _ in 0..steps {
                    self.bleed_on_move(cat, Who::Origin(seat), ev);
                }
            }
        }
        self.slide_origin(cat, seat, ev);
        if let Phase::Travel { done } = &mut self.phase {
            done[seat as usize] = true;
        }
        self.after_travel(cat, ev);
        Ok(())
    }

    /// Where and how far [`Self::travel`] takes the Origin (`None`: it
    /// stays), or why the rules refuse it, judged from the state without
    /// changing it (every refusal of it comes from here).
    pub(super) fn check_travel(
        &self,
        cat: &Catalogue,
        seat: Seat,
        to: Option<&str>,
    ) -> Result<Option<(SpaceIx, u32)>, RuleError> {
        let Phase::Travel { done } = &self.phase else {
            return Err(err(DivinityRefusal::NotTravelling, "Origins travel only in step 1 of an Explore round"));
        };
        if done[seat as usize] {
            return Err(err(DivinityRefusal::TurnTaken, "this Origin has already taken its Explore turn"));
        }
        let here = self.origins[seat as usize].space;
        let dest = match to {
            None => None,
            Some(id) => {
                let ix = self
                    .space_ix(cat, id)
                    .ok_or_else(|| err(DivinityRefusal::NoSuchSpace, format!("no space {id}")))?;
                let def = &self.loc(cat).map.spaces[ix];
                if def.tactical() {
                    return Err(err(
                        DivinityRefusal::TacticalSpace,
                        "you may pass through a tactical space but not end there (L1116)",
                    ));
                }
                let steps = self.with_graph(cat, |g| g.distance(here, ix)).ok_or_else(|| {
                    err(DivinityRefusal::Unreachable, format!("space {id} can't be reached along unlocked paths"))
                })?;
                if steps > 0 && self.has_status(cat, Who::Origin(seat), |r| r.blocks_moving || r.skips_turn) {
                    return Err(err(DivinityRefusal::CannotMove, "a status stops this Origin moving (G32)"));
                }
                Some((ix, steps))
            }
        };
        Ok(dest)
    }

    /// Moving into a space costs a BLEEDING bearer its per-move damage (L674).
    pub(super) fn bleed_on_move(&mut self, cat: &Catalogue, who: Who, ev: &mut Vec<Ev>) {
        let hurts: Vec<_> = self.rules_of(cat, who).iter().filter_map(|r| r.per_move).collect();
        for d in hurts {
            self.damage(cat, who, d.amount, d.ty, ev);
        }
    }

    pub(super) fn after_travel(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if let Phase::Travel { done } = &self.phase {
            if done.iter().all(|d| *d) {
                let groups = self.groups();
                if groups.is_empty() {
                    self.end_of_round(cat, ev);
                } else {
                    let n = groups.len();
                    self.phase = Phase::Groups { groups, chosen: vec![false; n] };
                }
            }
        }
    }

    fn group_of(&self, seat: Seat) -> Result<usize, RuleError> {
        let Phase::Groups { groups, chosen } = &self.phase else {
            return Err(err(
                DivinityRefusal::NotExploring,
                "groups choose what to explore in step 2 of an Explore round",
            ));
        };
        let g = groups
            .iter()
            .position(|g| g.contains(&seat))
            .ok_or_else(|| err(DivinityRefusal::NotInGroup, "a downed Origin explores nothing (L750)"))?;
        if chosen[g] {
            return Err(err(DivinityRefusal::GroupChose, "this group has already chosen this round"));
        }
        Ok(g)
    }

    /// Explore step 2 (L293-309): reveal the space's card, take a holding
    /// card, or pass.
    pub(super) fn group_choice(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        choice: GroupChoice,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let g = self.check_group_choice(cat, seat, &choice)?;
        let Phase::Groups { groups, .. } = &self.phase else { unreachable!() };
        let seats = groups[g].clone();
        let space = self.origins[seat as usize].space;
        match choice {
            GroupChoice::Pass => {}
            GroupChoice::Holding(card) => {
                let i = self.holding.iter().position(|c| *c == card).expect("checked");
                self.holding.remove(i);
                self.revealed.push(Revealed { card, seats, space, placed: false });
            }
            GroupChoice::Reveal => {
                let r = self.reveal_at(cat, space)?;
                let text = self.loc(cat).card(&r).map(|c| c.text.clone()).unwrap_or_default();
                let placed = self.map.placed.get(&space) == Some(&r);
                ev.push(Ev::CardRevealed { card: r.clone(), text });
                self.revealed.push(Revealed { card: r, seats, space, placed });
            }
        }
        if let Phase::Groups { chosen, .. } = &mut self.phase {
            chosen[g] = true;
            if chosen.iter().all(|c| *c) {
                self.phase = Phase::Resolve;
                self.after_resolution(cat, ev);
            }
        }
        Ok(())
    }

    /// The seat's group, or why the rules refuse its choice, judged from
    /// the state without changing it (every refusal of
    /// [`Self::group_choice`] comes from here).
    pub(super) fn check_group_choice(
        &self,
        cat: &Catalogue,
        seat: Seat,
        choice: &GroupChoice,
    ) -> Result<usize, RuleError> {
        let g = self.group_of(seat)?;
        match choice {
            GroupChoice::Pass => {}
            GroupChoice::Holding(card) => {
                if !self.holding.contains(card) {
                    return Err(err(DivinityRefusal::NotHeld, format!("card {card} is not in the holding area")));
                }
            }
            GroupChoice::Reveal => self.check_reveal_at(cat, self.origins[seat as usize].space)?,
        }
        Ok(g)
    }

    /// The card a space gives (L297, L1102, L1124-1128).
    fn reveal_at(&mut self, cat: &Catalogue, space: SpaceIx) -> Result<String, RuleError> {
        self.check_reveal_at(cat, space)?;
        let loc = self.loc(cat);
        if let Some(card) = self.map.placed.get(&space) {
            return Ok(card.clone());
        }
        let def = &loc.map.spaces[space];
        let number = def.number.expect("checked");
        let matching: Vec<usize> = (0..self.deck.len())
            .filter(|&i| loc.card(&self.deck[i]).is_some_and(|c| c.space == Some(number)))
            .collect();
        let pick = if def.multicard { matching[self.rng.below(matching.len() as u32) as usize] } else { matching[0] };
        self.explored.insert(space);
        Ok(self.deck.remove(pick))
    }

    /// Whether a space gives a card now, judged without taking it (every
    /// refusal of [`Self::reveal_at`] comes from here).
    fn check_reveal_at(&self, cat: &Catalogue, space: SpaceIx) -> Result<(), RuleError> {
        let loc = self.loc(cat);
        if let Some(card) = self.map.placed.get(&space) {
            let has_text = loc.card(card).is_some_and(|c| !c.when_explored.is_empty());
            return if has_text {
                Ok(())
            } else {
                Err(err(DivinityRefusal::FullyExplored, "this space is fully explored (G60)"))
            };
        }
        let def = &loc.map.spaces[space];
        let number = def.number.ok_or_else(|| err(DivinityRefusal::TacticalSpace, "a tactical space has no card"))?;
        if self.explored.contains(&space) {
            return Err(err(DivinityRefusal::ExploredThisRound, "only one card a round comes from a space (L1128)"));
        }
        if !self.deck.iter().any(|c| loc.card(c).is_some_and(|c| c.space == Some(number))) {
            return Err(err(DivinityRefusal::FullyExplored, "no card of this space is left in the deck (L301)"));
        }
        Ok(())
    }

    /// Explore step 3: the party resolves one revealed card (L299).
    pub(super) fn resolve_revealed(&mut self, cat: &Catalogue, card: &str, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let i = self.check_resolve(card)?;
        let r = self.revealed.remove(i);
        self.resolve_card(cat, r, ev);
        self.after_resolution(cat, ev);
        Ok(())
    }

    /// Where the revealed card lies, or why the party can't resolve it now,
    /// judged from the state without changing it (every refusal of
    /// [`Self::resolve_revealed`] comes from here; the leader's say is the caller's).
    pub(super) fn check_resolve(&self, card: &str) -> Result<usize, RuleError> {
        if self.phase != Phase::Resolve {
            return Err(err(DivinityRefusal::NotResolving, "revealed cards resolve in step 3 of an Explore round"));
        }
        if self.challenge.is_some() || self.pending_roll().is_some() {
            return Err(err(DivinityRefusal::ChallengeUnderWay, "finish the current challenge first"));
        }
        self.revealed
            .iter()
            .position(|r| r.card == card)
            .ok_or_else(|| err(DivinityRefusal::NotRevealed, format!("card {card} is not waiting to be resolved")))
    }

    /// Put a revealed card that allows it in the holding area (L307).
    pub(super) fn hold(&mut self, cat: &Catalogue, card: &str, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let i = self.check_hold(cat, card)?;
        self.revealed.remove(i);
        self.holding.push(card.to_string());
        ev.push(Ev::CardHeld { card: card.to_string() });
        self.after_resolution(cat, ev);
        Ok(())
    }

    /// Where the revealed card lies, or why it can't be held, judged from
    /// the state without changing it (every refusal of [`Self::hold`] comes
    /// from here; the leader's say is the caller's).
    pub(super) fn check_hold(&self, cat: &Catalogue, card: &str) -> Result<usize, RuleError> {
        if self.phase != Phase::Resolve || self.challenge.is_some() {
            return Err(err(DivinityRefusal::NotResolving, "cards are held in step 3 of an Explore round"));
        }
        let i =
            self.revealed.iter().position(|r| r.card == card && !r.placed).ok_or_else(|| {
                err(DivinityRefusal::NotRevealed, format!("card {card} is not waiting to be resolved"))
            })?;
        if !self.loc(cat).card(card).is_some_and(|c| c.holdable) {
            return Err(err(DivinityRefusal::NotHoldable, "this card can't go to the holding area"));
        }
        Ok(i)
    }

    /// After a card or challenge: a downed party restarts (L1272); when every
    /// revealed card is done, the round ends.
    pub(super) fn after_resolution(&mut self, cat: &Catalogue, ev: &mut Vec<Ev>) {
        if self.over() || self.challenge.is_some() {
            return;
        }
        if self.round_kind != RoundKind::Combat && self.standing().next().is_none() {
            self.finish(Finish::Restart, ev);
            return;
        }
        if self.phase == Phase::Resolve && self.revealed.is_empty() {
            self.end_of_round(cat, ev);
        }
    }

    /// Resolve a card's front (or its "when explored" text) for a group.
    pub(super) fn resolve_card(&mut self, cat: &Catalogue, r: Revealed, ev: &mut Vec<Ev>) {
        let loc = self.loc(cat);
        let Some(card) = loc.card(&r.card).cloned() else { return };
        let effects = if r.placed { card.when_explored.clone() } else { card.effects.clone() };
        let group: Vec<Seat> = r.seats.iter().copied().filter(|&s| !self.origins[s as usize].downed).collect();
        let mut disp = if r.placed { Disposition::Placed } else { Disposition::Discard };
        self.apply_effects(cat, Resolution { card: &card.id, group: &group, space: r.space }, &effects, &mut disp, ev);
        if self.over() {
            return;
        }
        if let (Some(_), false) = (&card.challenge, r.placed) {
            if !group.is_empty() && disp == Disposition::Discard {
                self.challenge = Some(ChallengeState {
                    card: card.id.clone(),
                    group,
                    space: r.space,
                    results: Default::default(),
                    flipped: None,
                });
                return;
            }
        }
        ev.push(Ev::CardResolved { card: card.id.clone() });
        self.dispose(cat, &card.id, disp);
    }

    pub(super) fn dispose(&mut self, cat: &Catalogue, card: &str, d: Disposition) {
        match d {
            Disposition::Discard => self.discard.push(card.to_string()),
            Disposition::CombatStack => self.combat_stack.push(card.to_string()),
            Disposition::Placed => {}
            Disposition::ReturnToDeck => {
                // Back in numerical (deck) order (L1263).
                let order: Vec<&str> = self.loc(cat).cards.iter().map(|c| c.id.as_str()).collect();
                let pos = |id: &str| order.iter().position(|c| *c == id).unwrap_or(usize::MAX);
                let at = self.deck.iter().position(|c| pos(c) > pos(card)).unwrap_or(self.deck.len());
                self.deck.insert(at, card.to_string());
            }
        }
    }

    fn targets_of(&self, who: CardWho, group: &[Seat]) -> Vec<Seat> {
        match who {
            CardWho::Group => group.to_vec(),
            CardWho::Party => (0..self.origins.len() as Seat).collect(),
        }
    }

    pub(super) fn apply_effects(
        &mut self,
        cat: &Catalogue,
        res: Resolution<'_>,
        effects: &[CardEffect],
        disp: &mut Disposition,
        ev: &mut Vec<Ev>,
    ) {
        for e in effects {
            if self.over() {
                return;
            }
            self.apply_effect(cat, res, e, disp, ev);
        }
    }

    fn apply_effect(
        &mut self,
        cat: &Catalogue,
        res: Resolution<'_>,
        e: &CardEffect,
        disp: &mut Disposition,
        ev: &mut Vec<Ev>,
    ) {
        let Resolution { card, group, space } = res;
        match e {
            CardEffect::Spawn { rows } => {
                for row in rows {
                    let c = row.counts[self.players() - 1];
                    let sp = self.space_ix(cat, &row.space).expect("validated space");
                    for fast in
                        std::iter::repeat_n(true, c.fast as usize).chain(std::iter::repeat_n(false, c.slow as usize))
                    {
                        self.spawn_minion(cat, &row.minion, row.veteran, sp, fast, ev);
                    }
                }
                *disp = Disposition::CombatStack;
            }
            CardEffect::SpawnBoss { boss } => {
                self.spawn_boss(cat, boss, ev);
                *disp = Disposition::CombatStack;
            }
            CardEffect::Gold { amount } => {
                self.gold += amount;
                ev.push(Ev::GoldGained { amount: *amount, total: self.gold });
            }
            CardEffect::Item { item } | CardEffect::Rune { rune: item } => {
                let unique = cat.items.get(item).is_none_or(|i| i.unique) || cat.runes.contains_key(item);
                // A specific reward already found is not found again after a restart (L1336).
                let specific = format!("{}:{card}:{item}", self.location);
                if self.found.contains(&specific) || (unique && self.owned(item)) {
                    return;
                }
                self.found.push(specific);
                // Searched for in its deck (L1030).
                self.take_from_deck(cat, item);
                self.gain_item(cat, group, item, ev);
            }
            CardEffect::RandomItem { level } => self.draw_item(cat, &format!("equipment_{level}"), group, ev),
            CardEffect::RandomConsumable { deck } => self.draw_item(cat, consumable_deck(*deck), group, ev),
            CardEffect::Key { a, b } => {
                let paths = &self.loc(cat).map.paths;
                if let Some(i) = paths.iter().position(|p| (&p.a == a && &p.b == b) || (&p.a == b && &p.b == a)) {
                    self.map.keys.insert(i);
                    ev.push(Ev::KeyPlaced { a: a.clone(), b: b.clone() });
                }
            }
            CardEffect::PlaceCard { card: other, space: at } => {
                if let Some(i) = self.deck.iter().position(|c| c == other) {
                    self.deck.remove(i);
                }
                let ix = self.space_ix(cat, at).expect("validated space");
                self.map.placed.insert(ix, other.clone());
                ev.push(Ev::CardPlaced { card: other.clone(), space: at.clone() });
            }
            CardEffect::PlaceSelf { space: at } => {
                let ix = self.space_ix(cat, at).expect("validated space");
                self.map.placed.insert(ix, card.to_string());
                ev.push(Ev::CardPlaced { card: card.to_string(), space: at.clone() });
                *disp = Disposition::Placed;
            }
            CardEffect::Resolve { card: other } => {
                // Only if it is still in the deck (L1259).
                if let Some(i) = self.deck.iter().position(|c| c == other) {
                    let id = self.deck.remove(i);
                    if self.challenge.is_none() {
                        let r = Revealed { card: id, seats: group.to_vec(), space, placed: false };
                        self.resolve_card(cat, r, ev);
                    }
                }
            }
            CardEffect::Journal { card: n } => {
                if !self.journal.contains(n) {
                    self.journal.push(*n);
                }
                ev.push(Ev::JournalRevealed { card: *n, text: cat.journal[n].text.clone() });
            }
            CardEffect::Exit { to, level_up, .. } => {
                ev.push(Ev::LocationExited { to: to.clone(), level_up: *level_up });
                self.open_interlude(cat, to.clone(), *level_up, ev);
            }
            CardEffect::Damage { amount, ty, who } => {
                for s in self.targets_of(*who, group) {
                    self.damage(cat, Who::Origin(s), *amount, *ty, ev);
                }
            }
            CardEffect::Heal { amount, who } => {
                for s in self.targets_of(*who, group) {
                    self.heal(cat, Who::Origin(s), *amount, ev);
                }
            }
            CardEffect::Status { status, cooldown, who } => {
                for s in self.targets_of(*who, group) {
                    let g = super::attack::StatusGrant { status: *status, cooldown: *cooldown };
                    self.give_status(cat, Who::Origin(s), g, ev);
                }
            }
            CardEffect::Environment { space: at, environment } => {
                let ix = self.space_ix(cat, at).expect("validated space");
                self.map.tokens.insert(ix, *environment);
                ev.push(Ev::EnvironmentPlaced { space: at.clone(), environment: *environment });
            }
            CardEffect::SetTime { space: t } => {
                self.time = Some(*t);
                ev.push(Ev::TimeSet { space: *t });
            }
            CardEffect::PauseTime => {
                self.time_paused = true;
                ev.push(Ev::TimePaused { paused: true });
            }
            CardEffect::ResumeTime => {
                self.time_paused = false;
                ev.push(Ev::TimePaused { paused: false });
            }
            CardEffect::ReturnToDeck => *disp = Disposition::ReturnToDeck,
            CardEffect::BreakCollar { who } => {
                for s in self.targets_of(*who, group) {
                    let o = &mut self.origins[s as usize];
                    if o.collar_broken {
                        continue;
                    }
                    o.collar_broken = true;
                    for sk in &cat.origins[&o.origin].source_skills {
                        if !o.skills.contains(sk) {
                            o.skills.push(sk.clone());
                            o.hand.push(sk.clone());
                        }
                    }
                    ev.push(Ev::CollarBroken { seat: s });
                }
            }
            CardEffect::Restart => self.finish(Finish::Restart, ev),
            CardEffect::If { condition, then, otherwise } => {
                let holds = self.condition_holds(cat, condition, group, ev);
                let branch = if holds { then } else { otherwise };
                self.apply_effects(cat, res, branch, disp, ev);
            }
            CardEffect::Move { space: at, who } => {
                let ix = self.space_ix(cat, at).expect("validated space");
                let seats = match who {
                    CardWho::Party => self.targets_of(*who, group),
                    // The whole group moves, downed Origins too (L750).
                    CardWho::Group => {
                        let mut g: Vec<Seat> = group.to_vec();
                        for (s, o) in self.origins.iter().enumerate() {
                            if o.downed && o.space == space && !g.contains(&(s as Seat)) {
                                g.push(s as Seat);
                            }
                        }
                        g.sort_unstable();
                        g
                    }
                };
                for s in seats {
                    if self.origins[s as usize].space != ix {
                        self.origins[s as usize].space = ix;
                        ev.push(Ev::Travelled { seat: s, to: at.clone() });
                    }
                }
            }
        }
    }

    /// Checks a card's condition; a `pay` condition spends the gold when it holds.
    fn condition_holds(&mut self, cat: &Catalogue, c: &Condition, group: &[Seat], ev: &mut Vec<Ev>) -> bool {
        match c {
            Condition::Journal { card } => self.journal.contains(card),
            Condition::Symbol { symbol, count } => {
                let held = self.journal.iter().filter(|n| cat.journal.get(n).is_some_and(|j| &j.symbol == symbol));
                held.count() as u32 >= *count
            }
            // A downed Origin does not interact with location cards (L750).
            Condition::Keyword { keyword, who } => self
                .targets_of(*who, group)
                .into_iter()
                .any(|s| !self.origins[s as usize].downed && self.keywords(cat, s).contains(keyword)),
            Condition::Gold { amount } => self.gold >= *amount,
            Condition::Pay { amount } => {
                if self.gold < *amount {
                    return false;
                }
                self.gold -= amount;
                ev.push(Ev::GoldSpent { amount: *amount, total: self.gold });
                true
            }
        }
    }

    /// Effects with no card to dispose of (the back of a combat card).
    pub(super) fn apply_card_effects(
        &mut self,
        cat: &Catalogue,
        card: &str,
        effects: &[CardEffect],
        group: &[Seat],
        space: SpaceIx,
        ev: &mut Vec<Ev>,
    ) {
        let mut disp = Disposition::Discard;
        self.apply_effects(cat, Resolution { card, group, space }, effects, &mut disp, ev);
    }

    /// A generic reward (L1031): the top card of the deck, if any is left.
    fn draw_item(&mut self, cat: &Catalogue, deck: &str, group: &[Seat], ev: &mut Vec<Ev>) {
        let card = self.item_decks.get_mut(deck).filter(|d| !d.is_empty()).map(|d| d.remove(0));
        match card {
            Some(c) => self.gain_item(cat, group, &c, ev),
            None => ev.push(Ev::DeckEmpty { deck: deck.to_string() }),
        }
    }

    /// Take a named card out of its deck (a specific reward, L1030).
    fn take_from_deck(&mut self, cat: &Catalogue, card: &str) {
        if let Some(d) = item_deck(cat, card).and_then(|d| self.item_decks.get_mut(&d)) {
            if let Some(i) = d.iter().position(|c| c == card) {
                d.remove(i);
            }
        }
    }

    fn owned(&self, item: &str) -> bool {
        self.origins.iter().any(|o| o.equipped.iter().chain(&o.backpack).any(|i| i == item))
    }

    /// Spawn one minion (L1216-1219): the lowest free tray, at the right end
    /// of its track; never a seventh (L1245).
    pub(super) fn spawn_minion(
        &mut self,
        cat: &Catalogue,
        minion: &str,
        veteran: bool,
        space: SpaceIx,
        fast: bool,
        ev: &mut Vec<Ev>,
    ) {
        let used: BTreeSet<char> = self.enemies.iter().filter_map(|e| e.letter).collect();
        if used.len() >= MAX_MINIONS {
            return;
        }
        let letter = ('A'..='F').find(|l| !used.contains(l)).expect("a free tray");
        let card = &cat.minions[minion];
        let hp = card.side(veteran).hp;
        let id = self.next_enemy;
        self.next_enemy += 1;
        self.enemies.push(Enemy {
            id,
            letter: Some(letter),
            kind: EnemyKind::Minion { card: minion.to_string(), veteran },
            hp,
            max_hp: hp,
            space,
            fast,
            track: Track::new(MINION_TRACK),
            ap: 0,
            tactics: Vec::new(),
        });
        ev.push(Ev::Spawned { enemy: id, name: card.name.clone(), space: self.space_id(cat, space), fast });
    }

    /// Boss setup (L1772-1777): HP for the party size, a shuffled tactics deck.
    pub(super) fn spawn_boss(&mut self, cat: &Catalogue, boss: &str, ev: &mut Vec<Ev>) {
        let b = &cat.bosses[boss];
        let mut tactics: Vec<String> = b.tactics.iter().map(|t| t.id.clone()).collect();
        self.rng.shuffle(&mut tactics);
        let hp = b.hp[self.players() - 1];
        let space = self.space_ix(cat, &b.space).expect("validated boss space");
        let id = self.next_enemy;
        self.next_enemy += 1;
        self.enemies.push(Enemy {
            id,
            letter: None,
            kind: EnemyKind::Boss { boss: boss.to_string() },
            hp,
            max_hp: hp,
            space,
            fast: b.fast,
            track: Track::new(ORIGIN_TRACK),
            ap: 0,
            tactics,
        });
        ev.push(Ev::Spawned { enemy: id, name: b.name.clone(), space: b.space.clone(), fast: b.fast });
    }

    /// The location ends (L1278, L1332).
    pub(super) fn finish(&mut self, result: Finish, ev: &mut Vec<Ev>) {
        ev.push(Ev::LocationFinished { result: result.clone() });
        self.phase = Phase::Finished { result };
        // A roll under way is dropped; an enemy's decisions ended with its combat.
        if self.pending_roll().is_some() {
            self.choice = None;
        }
        self.challenge = None;
    }

    // ----- Challenges (L1178-1206) -----
}

/// What a group does in Explore step 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum GroupChoice {
    Reveal,
    Holding(String),
    Pass,
}
