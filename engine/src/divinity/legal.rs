//! Every action a seat may take now, for clients and bots that do not know
//! the rules: candidates are generated from the state and judged by the
//! checks the rules run before they change anything (each rule's
//! `check_*`, which its action runs first); only the answers to an item
//! nobody has room for (`place_item`, whose own check tries the drop on a
//! copy) are still tried on a copy. Only the accepted ones are kept. So every listed action is accepted if sent as it is
//! (`legal_by_trial`, every candidate through [`Divinity::apply_with`], is
//! the oracle the tests hold this equal to). The list is empty
//! for a seat that [`Divinity::status_of`] does not list as waiting, and
//! after the end.
//!
//! What is listed, each distinct choice once, in its shortest form (an
//! optional field at its default is left out):
//! - while the match waits for a decision ([`Pending`]) only its answers:
//!   `place_item` (discard; each taker with no drop, or dropping each item
//!   or attached rune it carries, kept or passed to each other seat),
//!   `command` and `break_tie` at every Origin and enemy, `reduce_dice`
//!   with every multiset of colours of the required count, `choose_route`
//!   at each route, `order_turn_start` in every order of the statuses (at
//!   most 24 orders), `accept` and `reroll` (see below), `challenge`;
//! - `challenge` rolling (`auto: null`), and succeeding automatically with
//!   each keyword the card accepts from each source the roller has (its
//!   permanent keywords, each skill in hand, each consumable in the
//!   backpack that gives it) at each result row;
//! - `reroll` of every non-empty subset of the roll's dice, with and
//!   without Source, for a roll of up to 6 dice; a bigger roll lists each
//!   die alone, its misses, and all its dice;
//! - `choose_round` both ways; `travel` to every other space and `null`
//!   (staying);
//!   `reveal`, `pass`, `take_holding` of each held card; `resolve` and
//!   `hold` of each revealed card;
//! - in a Combat or Rest turn: `start_turn`, `order_turn_start` in every
//!   order of the seat's start-of-turn statuses (at most 24), `move` to
//!   each adjacent space, `use` of every skill in hand, equipped item,
//!   backpack consumable and the summon at every Origin, enemy and space,
//!   `taunt` of each enemy, `recover` with no status and with each status
//!   the Origin bears, `use_talent` of each talent, `use_ability` with no
//!   aim and at every Origin and enemy, `revive` of each downed Origin
//!   with 1, 2, 3, half, all but one and all of the reviver's HP, `end_turn`;
//! - at any moment: `equip`, `store`, `discard` of each carried item (and
//!   attached rune), `attach_rune` of each rune carried or attached onto
//!   each equipped item, `give` and `take` of each item to or from each
//!   other Origin, with `equip` false and true;
//! - in the interlude: `level_up` with each talent the new card lets it
//!   take (or none) and each non-Source skill it does not know,
//!   `visit_merchant` at each level with no consumable deck and with each,
//!   `restock` of each deck, `buy` of each revealed ware for each Origin,
//!   `sell` of each item, `finish_interlude`.
//!
//! Accepted but deliberately **not** listed: `level_up` with `respec`
//! pairs (any valid exchange is accepted; there are too many to list);
//! `travel` to the Origin's own space (the same as `null`);
//! `use` with a `first_aura` or an `include_self` other than the default;
//! `challenge` with bonus-die `keywords` played; rerolls of other subsets
//! of a roll of more than 6 dice; `revive` with other HP amounts; orders
//! beyond the 24th of five or more start-of-turn statuses.

use super::action::{Aim, CardUse, DivinityAction as A, KeywordFrom};
use super::apply::leader;
use super::content::{Catalogue, ConsumableDeck, ItemKind, School};
use super::dice::Colour;
use super::inventory::{Handover, ItemAct, ItemJudge};
use super::location::GroupChoice;
use super::map::SpaceIx;
use super::pending::Pending;
use super::play::{Spot, UseJudge};
use super::state::MerchantDeck;
use super::state::{DivinityState, Phase, RestStep, Who};
use super::status::Status as St;
use super::Divinity;
use crate::{Seat, Status};

/// Orders listed at most, of statuses resolved at the start of a turn.
const MAX_ORDERS: usize = 24;
/// Rolls of up to this many dice list every subset to reroll.
const MAX_SUBSET_DICE: usize = 6;

/// The actions `seat` may take now on the standard catalogue.
pub fn legal_standard(state: &DivinityState, seat: Seat) -> Vec<A> {
    legal(Catalogue::standard(), state, seat)
}

/// The actions `seat` may take now, each accepted by
/// [`Divinity::apply_with`] (see the module comment for what is listed).
pub fn legal(cat: &Catalogue, state: &DivinityState, seat: Seat) -> Vec<A> {
    match Divinity::status_of(state, cat) {
        Status::Waiting { seats } if seats.contains(&seat) => {}
        _ => return Vec::new(),
    }
    // Almost every candidate is judged from the state itself, with no copy
    // at all, by the checks its action runs before it changes anything.
    // The few still tried (`place_item`) are tried directly on one scratch
    // copy, not on a copy of their own: it is made when the first of them
    // comes up, and again only after a try changed it (an acceptance, or a
    // refusal after a change), which comparing finds more cheaply than
    // cloning. `legal_by_trial` is the plain way,
    // and the tests hold the two equal.
    let mut scratch: Option<DivinityState> = None;
    let mut out = Vec::new();
    // The interlude's level-ups first, as `candidates` orders them: each
    // pair judged by what the seat's level-up allows, worked out once, and
    // only the accepted ones made into actions (a level that unlocks a
    // talent has some 3,000 pairs, a third of them accepted).
    if state.pending_choice().is_none() {
        if let Some(judge) = state.level_up_judge(cat, seat) {
            // Each talent and each skill judged once; a pair is accepted
            // when both are and the talent trains what the skill needs.
            let (talents, learnable) = level_up_pairs(cat, state, seat);
            let skills: Vec<(&String, Option<School>)> =
                learnable.iter().filter_map(|l| Some((*l, judge.learn(l)?))).collect();
            for talent in &talents {
                let Some(training) = judge.talent(talent.map(String::as_str)) else { continue };
                for (learn, needs) in &skills {
                    if needs.is_none_or(|s| training == Some(s)) {
                        out.push(A::LevelUp { talent: talent.cloned(), learn: (*learn).clone(), respec: Vec::new() });
                    }
                }
            }
        }
    }
    let rest = matches!(state.phase, Phase::Rest { .. });
    let mut sieve = Judged { cat, state, seat, card: None, near: None, items: ItemJudge::default(), turn: None };
    let mut candidates = candidates(cat, state, seat, false, &mut sieve);
    let mut ability = None;
    // Kept in place: the candidates' vector becomes the list (no second
    // vector grown action by action, no refused action moved).
    candidates.retain(|a| {
        // What the action's own checks say, where they can be asked
        // without carrying it out; the gate (seat, end, a pending decision)
        // comes on top.
        let judged = match a {
            // Judged as generated (`Judged`): uses, moves, Taunts, talents
            // and items (the gate never refuses them: they are listed with
            // no decision pending).
            A::Use { first_aura: None, include_self: None, .. }
            | A::Equip { .. }
            | A::Store { .. }
            | A::Discard { .. }
            | A::AttachRune { .. }
            | A::Give { .. }
            | A::Take { .. }
            | A::Move { .. }
            | A::Taunt { .. }
            | A::UseTalent { .. } => Some(true),
            // Recover in a Combat turn (a Rest turn's is judged below).
            A::Recover { status } if !rest => Some(state.check_combat_recover(seat, *status).is_ok()),
            // Starting and ending a turn, Rest turns' steps, reviving.
            A::StartTurn => Some(state.check_start_turn(cat, seat, None).is_ok()),
            A::OrderTurnStart { order } if state.turn_start().is_none() => {
                Some(state.check_start_turn(cat, seat, Some(order)).is_ok())
            }
            A::EndTurn if rest => Some(state.rest_turn_of(seat).is_ok()),
            A::EndTurn => Some(state.check_end_turn(cat, seat).is_ok()),
            A::Recover { .. } if rest => Some(state.rest_step_allowed(seat, RestStep::Recover).is_ok()),
            A::Revive { to, hp } => Some(state.check_revive(cat, seat, *to, *hp).is_ok()),
            // Between rounds and exploring.
            A::ChooseRound { .. } => Some(leader(state, seat).is_ok() && state.check_choose_round().is_ok()),
            A::Travel { to } => Some(state.check_travel(cat, seat, to.as_deref()).is_ok()),
            // An enemy's target among equals, the party's decision.
            A::BreakTie { target } => Some(leader(state, seat).is_ok() && state.check_break_tie(target).is_ok()),
            // Exploring: a group's choice, then the party's for each card.
            A::Reveal => Some(state.check_group_choice(cat, seat, &GroupChoice::Reveal).is_ok()),
            A::Pass => Some(state.check_group_choice(cat, seat, &GroupChoice::Pass).is_ok()),
            A::TakeHolding { card } => {
                Some(state.check_group_choice(cat, seat, &GroupChoice::Holding(card.clone())).is_ok())
            }
            A::Resolve { card } => Some(leader(state, seat).is_ok() && state.check_resolve(card).is_ok()),
            A::Hold { card } => Some(leader(state, seat).is_ok() && state.check_hold(cat, card).is_ok()),
            // The party's decisions for an enemy: a route, an order, dice.
            A::ChooseRoute { route } => Some(leader(state, seat).is_ok() && state.check_choose_route(*route).is_ok()),
            A::Command { target } => Some(leader(state, seat).is_ok() && state.check_command(target).is_ok()),
            A::OrderTurnStart { order } => {
                Some(leader(state, seat).is_ok() && state.check_order_enemy_turn_start(cat, order).is_ok())
            }
            A::ReduceDice { remove } if state.roll_reduction().is_some() => {
                Some(state.check_reduce_own_dice(seat, remove).is_ok())
            }
            A::ReduceDice { remove } => {
                Some(leader(state, seat).is_ok() && state.check_reduce_enemy_dice(remove).is_ok())
            }
            // A challenge: rolling or an automatic success, then its row.
            A::Challenge { auto, keywords } => state.accepts_challenge_roll(cat, seat, auto.as_ref(), keywords),
            A::ChooseResult { row } => Some(state.check_choose_result(cat, seat, *row).is_ok()),
            // The special ability, on the Origin's Combat turn.
            A::UseAbility { aim } => {
                // The checks before the aim once, for every aim.
                let ab = *ability.get_or_insert_with(|| state.check_ability_now(cat, seat).ok());
                Some(ab.is_some_and(|ab| state.ability_targets(seat, ab, aim.as_ref()).is_ok()))
            }
            // A pending roll, an Origin's or an enemy's: keep it or reroll.
            A::Accept => Some(state.check_accept(seat).is_ok()),
            // A pending roll's rerolls are judged as generated (`Judged`).
            A::Reroll { .. } => Some(true),
            // The Merchant and the interlude's end; all but a sale are the
            // party's decisions, as `apply` checks first.
            A::VisitMerchant { .. } | A::Restock { .. } | A::Buy { .. } | A::FinishInterlude => {
                Some(leader(state, seat).is_ok() && state.accepts_merchant_action(cat, seat, a) == Some(true))
            }
            A::Sell { .. } => state.accepts_merchant_action(cat, seat, a),
            _ => None,
        };
        if let Some(ok) = judged {
            return ok && Divinity::gate(state, seat, a).is_ok();
        }
        let copy = scratch.get_or_insert_with(|| state.clone());
        let ok = Divinity::accepts_on(cat, copy, seat, a.clone());
        if ok || copy != state {
            scratch = None;
        }
        ok
    });
    if out.is_empty() {
        return candidates;
    }
    out.append(&mut candidates);
    out
}

/// The same list, each candidate applied with [`Divinity::apply_with`] (a
/// refusal leaves the state unchanged): slow, and right by construction;
/// the oracle the tests hold [`legal`] equal to.
pub fn legal_by_trial(cat: &Catalogue, state: &DivinityState, seat: Seat) -> Vec<A> {
    match Divinity::status_of(state, cat) {
        Status::Waiting { seats } if seats.contains(&seat) => {}
        _ => return Vec::new(),
    }
    let mut copy = state.clone();
    let mut out = Vec::new();
    for a in candidates(cat, state, seat, true, &mut All) {
        if Divinity::apply_with(cat, &mut copy, seat, a.clone()).is_ok() {
            out.push(a);
            copy = state.clone();
        }
    }
    out
}

/// What [`candidates`] asks before it makes a card's use or an item action
/// into an action: the legal list judges them there, from borrowed names,
/// so that the refused ones (most of them) are never made; the oracle
/// keeps them all.
trait Sieve {
    /// Called before `card`'s aims are asked, one card after another.
    fn card(&mut self, card: &CardUse);
    fn card_use(&mut self, card: &CardUse, aim: Spot) -> bool;
    /// A move into the adjacent space `to`.
    fn step(&mut self, to: SpaceIx) -> bool;
    /// A reroll of the pending roll's `dice`.
    fn reroll(&mut self, dice: &[usize], source: bool) -> bool;
    /// A Taunt of `enemy`.
    fn taunt(&mut self, enemy: u32) -> bool;
    /// Flipping `talent`.
    fn talent(&mut self, talent: &str) -> bool;
    fn item(&mut self, a: ItemAct<'_>) -> bool;
}

/// The oracle's: every candidate.
struct All;

impl Sieve for All {
    fn card(&mut self, _: &CardUse) {}
    fn card_use(&mut self, _: &CardUse, _: Spot) -> bool {
        true
    }
    fn step(&mut self, _: SpaceIx) -> bool {
        true
    }
    fn reroll(&mut self, _: &[usize], _: bool) -> bool {
        true
    }
    fn taunt(&mut self, _: u32) -> bool {
        true
    }
    fn talent(&mut self, _: &str) -> bool {
        true
    }
    fn item(&mut self, _: ItemAct<'_>) -> bool {
        true
    }
}

/// The legal list's: each candidate judged by its action's own checks.
/// What does not depend on the aim is judged once a card (`use_judge`),
/// and the distances from the seat's space once a list (the state does
/// not change).
struct Judged<'a> {
    cat: &'a Catalogue,
    state: &'a DivinityState,
    seat: Seat,
    card: Option<UseJudge>,
    near: Option<Vec<Option<u32>>>,
    items: ItemJudge,
    /// Whether the seat's Combat turn is under way (`ensure_turn`).
    turn: Option<bool>,
}

impl Judged<'_> {
    /// Whether the seat's Combat turn is under way (`ensure_turn`), the
    /// first check of moves, Taunts and talents.
    fn in_turn(&mut self) -> bool {
        let (state, seat) = (self.state, self.seat);
        *self.turn.get_or_insert_with(|| state.ensure_turn(seat).is_ok())
    }
}

impl Sieve for Judged<'_> {
    fn card(&mut self, card: &CardUse) {
        self.card = self.state.use_judge(self.cat, self.seat, card);
    }
    fn card_use(&mut self, _: &CardUse, aim: Spot) -> bool {
        let Some(judge) = &self.card else { return false };
        let (state, cat, seat) = (self.state, self.cat, self.seat);
        let near = self.near.get_or_insert_with(|| {
            let here = state.origins[seat as usize].space;
            state.with_graph(cat, |g| g.distances(here))
        });
        state.judge_use_at(cat, seat, judge, aim, near)
    }
    fn item(&mut self, a: ItemAct<'_>) -> bool {
        self.state.judge_item(self.cat, self.seat, a, &mut self.items)
    }
    fn step(&mut self, to: SpaceIx) -> bool {
        self.in_turn() && self.state.step_cost(self.cat, self.seat, to).is_ok()
    }
    fn taunt(&mut self, enemy: u32) -> bool {
        self.in_turn() && self.state.taunt_ok(self.cat, self.seat, enemy).is_ok()
    }
    fn talent(&mut self, talent: &str) -> bool {
        self.in_turn() && self.state.talent_ok(self.cat, self.seat, talent).is_ok()
    }
    fn reroll(&mut self, dice: &[usize], source: bool) -> bool {
        match self.state.enemy_roll() {
            Some(r) => self.state.reroll_enemy_ok(r, self.seat, dice, source).is_ok(),
            None => self.state.reroll_paid(self.cat, self.seat, dice, source).is_ok(),
        }
    }
}

/// Candidate actions for `seat`, before checking them; no duplicates. The
/// interlude's level-ups only with `level_ups` (the legal list judges
/// those pairs without making them into actions first); a card's use at
/// an aim and an item action only if `sieve` keeps it (the legal list
/// judges them there).
fn candidates(cat: &Catalogue, s: &DivinityState, seat: Seat, level_ups: bool, sieve: &mut dyn Sieve) -> Vec<A> {
    // Room for a typical list, instead of growing from nothing.
    let mut v = Vec::with_capacity(64);
    // A decision waiting admits only its answers: nothing else is tried.
    if let Some(p) = s.pending_choice() {
        pending_answers(cat, s, seat, p, sieve, &mut v);
        return v;
    }
    match &s.phase {
        Phase::Finished { .. } => return v,
        Phase::ChooseRound => v.extend([true, false].map(|explore| A::ChooseRound { explore })),
        Phase::Travel { .. } => {
            // Staying is `null`; the Origin's own space would be the same choice twice.
            let here = s.origins.get(seat as usize).map(|o| o.space);
            v.push(A::Travel { to: None });
            v.extend(
                s.loc(cat)
                    .map
                    .spaces
                    .iter()
                    .enumerate()
                    .filter(|(ix, _)| Some(*ix) != here)
                    .map(|(_, sp)| A::Travel { to: Some(sp.id.clone()) }),
            );
        }
        Phase::Groups { .. } => {
            v.push(A::Reveal);
            v.push(A::Pass);
            v.extend(s.holding.iter().map(|c| A::TakeHolding { card: c.clone() }));
        }
        Phase::Resolve => {
            for r in &s.revealed {
                v.push(A::Resolve { card: r.card.clone() });
                v.push(A::Hold { card: r.card.clone() });
            }
        }
        Phase::Rest { .. } => turn(cat, s, seat, sieve, &mut v),
        Phase::Combat { active, .. } => match active {
            Some(a) if *a == seat => turn(cat, s, seat, sieve, &mut v),
            Some(_) => {}
            None => {
                v.push(A::StartTurn);
                orders(&s.turn_start_effects(cat, Who::Origin(seat)), &mut v);
            }
        },
        Phase::Interlude(i) => {
            interlude(cat, s, seat, level_ups, &mut v);
            v.extend(i.offer.iter().flat_map(|item| seats(s).map(move |to| A::Buy { item: item.clone(), to })));
        }
    }
    items(cat, s, seat, sieve, &mut v);
    v
}

fn seats(s: &DivinityState) -> impl Iterator<Item = Seat> {
    0..s.origins.len() as Seat
}

/// Every Origin and every enemy.
fn figures(s: &DivinityState) -> Vec<Aim> {
    seats(s).map(Aim::Origin).chain(s.enemies.iter().map(|e| Aim::Enemy(e.id))).collect()
}

fn aim_of(w: Who) -> Aim {
    match w {
        Who::Origin(o) => Aim::Origin(o),
        Who::Enemy(e) => Aim::Enemy(e),
    }
}

fn pending_answers(cat: &Catalogue, s: &DivinityState, seat: Seat, p: Pending, sieve: &mut dyn Sieve, v: &mut Vec<A>) {
    match p {
        Pending::PlaceItem => {
            v.push(A::PlaceItem { to: None, drop: None, pass_to: None });
            for &to in &s.overflow[0].takers {
                v.push(A::PlaceItem { to: Some(to), drop: None, pass_to: None });
                let o = &s.origins[to as usize];
                let carried = uniq(o.equipped.iter().chain(&o.backpack).chain(o.runes.iter().map(|r| &r.rune)));
                for d in carried {
                    v.push(A::PlaceItem { to: Some(to), drop: Some(d.clone()), pass_to: None });
                    for p in seats(s).filter(|p| *p != to) {
                        v.push(A::PlaceItem { to: Some(to), drop: Some(d.clone()), pass_to: Some(p) });
                    }
                }
            }
        }
        Pending::Command => v.extend(figures(s).into_iter().map(|target| A::Command { target })),
        Pending::Tie => {
            let mut aims = figures(s);
            // The options first, so a client showing the list in order
            // shows them; every other figure is tried too.
            if let Some(t) = s.tie() {
                let first: Vec<Aim> = t.options.iter().map(|w| aim_of(*w)).collect();
                aims.retain(|a| !first.contains(a));
                aims.splice(0..0, first);
            }
            v.extend(aims.into_iter().map(|target| A::BreakTie { target }));
        }
        Pending::EnemyDice | Pending::OwnDice(_) => {
            let n = match p {
                Pending::EnemyDice => s.reduction().map_or(0, |r| r.remove),
                _ => s.roll_reduction().map_or(0, |r| r.remove),
            };
            for remove in colour_multisets(n as usize) {
                v.push(A::ReduceDice { remove });
            }
        }
        Pending::Route => {
            let n = s.route().map_or(0, |r| r.routes.len());
            v.extend((0..n).map(|route| A::ChooseRoute { route }));
        }
        Pending::TurnStartOrder => {
            if let Some(t) = s.turn_start() {
                orders(&t.statuses, v);
            }
        }
        Pending::EnemyRoll => {
            v.push(A::Accept);
            if let Some(r) = s.enemy_roll() {
                rerolls(r.roll.dice.len(), &r.roll.misses(&cat.dice), sieve, v);
            }
        }
        Pending::Roll(_) => {
            v.push(A::Accept);
            if let Some(r) = s.pending_roll() {
                rerolls(r.roll.dice.len(), &r.roll.misses(&cat.dice), sieve, v);
            }
        }
        Pending::Challenge => challenge(cat, s, seat, v),
    }
}

/// Every multiset of `n` colours, colours in the order White, Blue, Red.
fn colour_multisets(n: usize) -> Vec<Vec<Colour>> {
    const ALL: [Colour; 3] = [Colour::White, Colour::Blue, Colour::Red];
    fn go(n: usize, from: usize, cur: &mut Vec<Colour>, out: &mut Vec<Vec<Colour>>) {
        if cur.len() == n {
            out.push(cur.clone());
            return;
        }
        for (i, c) in ALL.iter().enumerate().skip(from) {
            cur.push(*c);
            go(n, i, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    if n > 0 {
        go(n, 0, &mut Vec::new(), &mut out);
    }
    out
}

/// `reroll` of dice subsets, with and without Source, each kept by
/// `sieve` (judged on one buffer: a subset's list is made only when kept).
fn rerolls(n: usize, misses: &[usize], sieve: &mut dyn Sieve, v: &mut Vec<A>) {
    let mut each = |dice: &[usize]| {
        for source in [true, false] {
            if sieve.reroll(dice, source) {
                v.push(A::Reroll { dice: dice.to_vec(), source });
            }
        }
    };
    if n <= MAX_SUBSET_DICE {
        let mut dice = Vec::with_capacity(n);
        for mask in 1u32..(1 << n) {
            dice.clear();
            dice.extend((0..n).filter(|i| mask & (1 << i) != 0));
            each(&dice);
        }
    } else {
        let mut sets: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        for extra in [misses.to_vec(), (0..n).collect()] {
            if !extra.is_empty() && !sets.contains(&extra) {
                sets.push(extra);
            }
        }
        for dice in &sets {
            each(dice);
        }
    }
}

/// Every order of `statuses` (at most [`MAX_ORDERS`]), as `order_turn_start`.
fn orders(statuses: &[St], v: &mut Vec<A>) {
    if statuses.is_empty() {
        return;
    }
    let mut perm: Vec<usize> = (0..statuses.len()).collect();
    for _ in 0..MAX_ORDERS {
        v.push(A::OrderTurnStart { order: perm.iter().map(|i| statuses[*i]).collect() });
        if !next_permutation(&mut perm) {
            break;
        }
    }
}

/// The next permutation in lexicographic order; false after the last.
fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = (1..p.len()).rev().find(|&i| p[i - 1] < p[i]) else { return false };
    let j = (i..p.len()).rev().find(|&j| p[j] > p[i - 1]).expect("p[i] is larger");
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

fn challenge(cat: &Catalogue, s: &DivinityState, seat: Seat, v: &mut Vec<A>) {
    let Some(ch) = &s.challenge else { return };
    let Some(card) = s.loc(cat).card(&ch.card).and_then(|c| c.challenge.as_ref()) else { return };
    // A flipped card: its rows, now showing, and nothing else.
    if ch.flipped.is_some() {
        v.extend((0..card.results.len()).map(|row| A::ChooseResult { row }));
        return;
    }
    v.push(A::Challenge { auto: None, keywords: Vec::new() });
    let o = &s.origins[seat as usize];
    let permanent = s.keywords(cat, seat);
    for kw in &card.auto {
        let mut froms = Vec::new();
        if permanent.contains(kw) {
            froms.push(KeywordFrom::Permanent);
        }
        for k in &o.hand {
            if cat.skills.get(k).and_then(|d| d.keyword.as_ref()) == Some(kw) {
                froms.push(KeywordFrom::Skill(k.clone()));
            }
        }
        for i in &o.backpack {
            if cat.items.get(i).is_some_and(|d| d.bonus.keywords.contains(kw))
                && !froms.contains(&KeywordFrom::Consumable(i.clone()))
            {
                froms.push(KeywordFrom::Consumable(i.clone()));
            }
        }
        // One action a source: the rows of the back are chosen once it is
        // flipped, and until then not even their number shows.
        for from in froms {
            v.push(A::Challenge { auto: Some((kw.clone(), from.clone())), keywords: Vec::new() });
        }
    }
}

/// The actions of a seat's own Combat or Rest turn (the uses `uses` keeps).
fn turn(cat: &Catalogue, s: &DivinityState, seat: Seat, sieve: &mut dyn Sieve, v: &mut Vec<A>) {
    let o = &s.origins[seat as usize];
    v.push(A::EndTurn);
    let here = o.space;
    for n in s.with_graph(cat, |g| g.neighbours(here)) {
        if sieve.step(n) {
            v.push(A::Move { to: s.space_id(cat, n) });
        }
    }
    let mut cards: Vec<CardUse> = o.hand.iter().map(|k| CardUse::Skill(k.clone())).collect();
    cards.extend(uniq(o.equipped.iter()).map(|i| CardUse::Item(i.clone())));
    let consumables = uniq(o.backpack.iter().filter(|i| consumable(cat, i)));
    cards.extend(consumables.map(|i| CardUse::Consumable(i.clone())));
    if o.summon.is_some() {
        cards.push(CardUse::Summon);
    }
    // Aims by index: a space's id is cloned only into a use that is kept.
    let spaces = &s.loc(cat).map.spaces;
    let mut aims: Vec<Spot> = seats(s).map(Spot::Origin).chain(s.enemies.iter().map(|e| Spot::Enemy(e.id))).collect();
    aims.extend((0..spaces.len()).map(|ix| Spot::Space(Some(ix))));
    for card in &cards {
        sieve.card(card);
        for &aim in &aims {
            if sieve.card_use(card, aim) {
                let aim = match aim {
                    Spot::Origin(o) => Aim::Origin(o),
                    Spot::Enemy(e) => Aim::Enemy(e),
                    Spot::Space(ix) => Aim::Space(spaces[ix.expect("a space of the map")].id.clone()),
                };
                v.push(A::Use { card: card.clone(), aim, first_aura: None, include_self: None });
            }
        }
    }
    v.extend(s.enemies.iter().filter(|e| sieve.taunt(e.id)).map(|e| A::Taunt { enemy: e.id }));
    v.push(A::Recover { status: None });
    v.extend(o.track.statuses().into_iter().map(|st| A::Recover { status: Some(st) }));
    v.extend(o.talents.iter().filter(|t| sieve.talent(t)).map(|t| A::UseTalent { talent: t.clone() }));
    v.push(A::UseAbility { aim: None });
    v.extend(figures(s).into_iter().map(|a| A::UseAbility { aim: Some(a) }));
    for (to, d) in s.origins.iter().enumerate() {
        if d.downed {
            for hp in revive_amounts(o.hp) {
                v.push(A::Revive { to: to as Seat, hp });
            }
        }
    }
}

/// Each card once, in first-seen order (an Origin may carry two copies);
/// borrowed, as most become no action, and with no list made: a card is
/// compared with those before it (a handful).
fn uniq<'a, I>(cards: I) -> impl Iterator<Item = &'a String> + Clone
where
    I: Iterator<Item = &'a String> + Clone,
{
    cards.clone().enumerate().filter(move |&(i, c)| !cards.clone().take(i).any(|x| x == c)).map(|(_, c)| c)
}

fn consumable(cat: &Catalogue, item: &str) -> bool {
    cat.items.get(item).is_some_and(|d| matches!(d.kind, ItemKind::Consumable(_)))
}

/// 1, 2, 3, half, all but one and all of `hp`, each once.
fn revive_amounts(hp: u32) -> Vec<u32> {
    let mut v: Vec<u32> =
        [1, 2, 3, hp / 2, hp.saturating_sub(1), hp].into_iter().filter(|n| (1..=hp).contains(n)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Equipping, storing, discarding, runes and trading: each kept by `sieve`.
fn items(cat: &Catalogue, s: &DivinityState, seat: Seat, sieve: &mut dyn Sieve, v: &mut Vec<A>) {
    let o = &s.origins[seat as usize];
    // Each walk over the Origin's own lists (the firsts of a concatenation
    // are the firsts of its parts' firsts).
    let equipped = || uniq(o.equipped.iter());
    for i in uniq(o.backpack.iter()) {
        if sieve.item(ItemAct::Equip(i)) {
            v.push(A::Equip { item: i.clone() });
        }
    }
    for i in equipped() {
        if sieve.item(ItemAct::Store(i)) {
            v.push(A::Store { item: i.clone() });
        }
    }
    let carried = uniq(o.equipped.iter().chain(&o.backpack).chain(o.runes.iter().map(|r| &r.rune)));
    for i in carried {
        if sieve.item(ItemAct::Discard(i)) {
            v.push(A::Discard { item: i.clone() });
        }
    }
    let runes = uniq(o.backpack.iter().filter(|r| cat.runes.contains_key(*r)).chain(o.runes.iter().map(|r| &r.rune)));
    for rune in runes {
        for item in equipped() {
            if sieve.item(ItemAct::AttachRune { rune, item }) {
                v.push(A::AttachRune { rune: rune.clone(), item: item.clone() });
            }
        }
    }
    let mine = uniq(o.equipped.iter().chain(&o.backpack));
    for other in seats(s).filter(|t| *t != seat) {
        for item in mine.clone() {
            for equip in [false, true] {
                if sieve.item(ItemAct::Trade(Handover { from: seat, to: other, item, equip })) {
                    v.push(A::Give { item: item.clone(), to: other, equip });
                }
            }
        }
        let theirs = &s.origins[other as usize];
        for item in uniq(theirs.equipped.iter().chain(&theirs.backpack)) {
            for equip in [false, true] {
                if sieve.item(ItemAct::Trade(Handover { from: other, to: seat, item, equip })) {
                    v.push(A::Take { item: item.clone(), from: other, equip });
                }
            }
        }
    }
}

/// The level-ups tried: each talent the new card lets the Origin take (or
/// none, when it shows no more), with each non-Source skill it does not know.
fn level_up_pairs<'c>(cat: &'c Catalogue, s: &DivinityState, seat: Seat) -> (Vec<Option<&'c String>>, Vec<&'c String>) {
    let o = &s.origins[seat as usize];
    let shows = cat.origins.get(&o.origin).and_then(|d| d.at(o.level)).map_or(0, |c| c.talents as usize);
    let talents: Vec<Option<&String>> = if shows > o.talents.len() {
        cat.talents.keys().filter(|t| !o.talents.contains(t)).map(Some).collect()
    } else {
        vec![None]
    };
    let learnable: Vec<&String> = cat
        .skills
        .iter()
        .filter(|(id, d)| d.school != School::Source && !o.skills.contains(id))
        .map(|(id, _)| id)
        .collect();
    (talents, learnable)
}

/// Levelling up (with `level_ups`) and the Merchant.
fn interlude(cat: &Catalogue, s: &DivinityState, seat: Seat, level_ups: bool, v: &mut Vec<A>) {
    let o = &s.origins[seat as usize];
    if level_ups {
        let (talents, learnable) = level_up_pairs(cat, s, seat);
        for talent in &talents {
            for learn in &learnable {
                v.push(A::LevelUp { talent: talent.cloned(), learn: (*learn).clone(), respec: Vec::new() });
            }
        }
    }
    const DECKS: [ConsumableDeck; 4] =
        [ConsumableDeck::Scrolls, ConsumableDeck::Potions, ConsumableDeck::Grenades, ConsumableDeck::Arrows];
    for level in 1..=s.level {
        v.push(A::VisitMerchant { level, consumables: None });
        v.extend(DECKS.map(|c| A::VisitMerchant { level, consumables: Some(c) }));
        v.push(A::Restock { deck: MerchantDeck::Equipment(level) });
    }
    v.extend(DECKS.map(|c| A::Restock { deck: MerchantDeck::Consumables(c) }));
    v.extend(uniq(o.equipped.iter().chain(&o.backpack)).map(|item| A::Sell { item: item.clone() }));
    v.push(A::FinishInterlude);
}
