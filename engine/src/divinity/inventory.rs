//! An Origin's items (L937-1060): equipping, storing, runes, trading,
//! discarding, and placing an item nobody had room for.

use super::content::{Catalogue, ItemKind, Slot};
use super::err;
use super::event::DivinityEvent as Ev;
use super::state::*;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

/// An item changing hands in a trade: `seat`, who acts, is the giver or
/// the taker.
#[derive(Debug, Clone, Copy)]
pub(super) struct Handover<'a> {
    pub from: Seat,
    pub to: Seat,
    pub item: &'a str,
    /// The receiver equips it at once (L1052).
    pub equip: bool,
}

/// An item action the legal list judges before making it into an action
/// (`give` and `take` are both a trade), its names borrowed.
#[derive(Debug, Clone, Copy)]
pub(super) enum ItemAct<'a> {
    Equip(&'a str),
    Store(&'a str),
    Discard(&'a str),
    AttachRune { rune: &'a str, item: &'a str },
    Trade(Handover<'a>),
}

/// An Origin's equipped items and backpack, as an equip leaves them.
type Gear = (Vec<String>, Vec<String>);

/// A trade the rules accept, as [`DivinityState::check_trade`] judged it:
/// where the item leaves from, and what the receiver's equipping it
/// displaces if it equips it.
struct TradePlan {
    from_pack: Option<usize>,
    from_eq: Option<usize>,
    wear: Option<EquipPlan>,
}

impl DivinityState {
    /// Whether the rules accept an item action (equip, store, discard,
    /// attach a rune, give, take), judged from the state without changing
    /// it: every refusal of those actions comes from the `check_*`
    /// functions below, so the legal list asks this instead of trying each
    /// on a copy; `judge` keeps what one seat's list asks again and again.
    pub(super) fn judge_item(&self, cat: &Catalogue, seat: Seat, a: ItemAct<'_>, judge: &mut ItemJudge) -> bool {
        // `check_equip`, `check_store` and `check_discard` with the item
        // cost and the AP asked once a list, and no refusal written: the
        // same conjunction of the same checks.
        match a {
            ItemAct::Equip(item) => {
                let o = &self.origins[seat as usize];
                judge.cost(self, seat).is_some() && equip_ok(cat, &o.equipped, &o.backpack, item)
            }
            ItemAct::Store(item) => {
                let o = &self.origins[seat as usize];
                judge.cost(self, seat).is_some() && o.equipped.iter().any(|x| x == item) && o.backpack.len() < BACKPACK
            }
            ItemAct::Discard(item) => {
                let o = &self.origins[seat as usize];
                *judge.free.get_or_insert_with(|| self.item_cost(seat).is_ok())
                    && (o.backpack.iter().chain(&o.equipped).any(|x| x == item)
                        || o.runes.iter().any(|a| a.rune == item))
            }
            ItemAct::AttachRune { rune, item } => {
                judge.cost(self, seat).is_some() && self.rune_place(cat, seat, rune, item).is_ok()
            }
            ItemAct::Trade(handover) => self.judge_trade(cat, seat, handover, judge),
        }
    }

    /// `trade_plan`'s checks of the partner (the other Origin exists, is
    /// not the seat's own, is not downed, and stands in the seat's space
    /// when the trade costs AP), with no refusal written.
    fn trade_partner_ok(&self, seat: Seat, from: Seat, to: Seat, cost: u32) -> bool {
        let other = if from == seat { to } else { from };
        let Some(r) = self.origins.get(other as usize) else { return false };
        other != seat && !r.downed && !(cost > 0 && r.space != self.origins[seat as usize].space)
    }

    /// [`DivinityState::check_trade`]'s answer, with the seat's cost, the
    /// receivers' equipment and the items' kinds worked out once a list.
    /// A trade with `equip` is the same trade without it, then the
    /// receiver's equip plan (`trade_plan`'s last step): the list asks
    /// both one after the other, so the first's answer is kept.
    fn judge_trade(&self, cat: &Catalogue, seat: Seat, handover: Handover<'_>, judge: &mut ItemJudge) -> bool {
        let Some(cost) = judge.cost(self, seat) else { return false };
        let Handover { from, to, item, equip } = handover;
        // The partner first: in combat most are in another space.
        if !self.trade_partner_ok(seat, from, to, cost) {
            return false;
        }
        let key = (from, to, item.as_ptr(), item.len());
        let plain = match judge.last {
            Some((k, ok)) if k == key => ok,
            _ => {
                let kind = judge.kind(cat, item);
                let plain = Handover { equip: false, ..handover };
                let ok = self.trade_plan(cat, seat, plain, cost, kind, |to| judge.worn(cat, self, to).0).is_ok();
                judge.last = Some((key, ok));
                ok
            }
        };
        if !plain || !equip {
            return plain;
        }
        // As `trade_plan` plans it: into the backpack, then equipped from it
        // (`equip_fit` refuses anything but equipment first).
        let kind = judge.kind(cat, item);
        if !matches!(kind, Some(ItemKind::Equipment(_))) {
            return false;
        }
        let r = &self.origins[to as usize];
        let (slots, kinds) = judge.worn(cat, self, to);
        equip_fit(&r.equipped, |i| kinds[i], slots, r.backpack.len() + 1, item, kind, |_| ()).is_ok()
    }
    /// Take the item step of the turn (a Rest turn's step d) and pay `cost`
    /// AP: both judged possible by a `check_*` first.
    fn pay_item(&mut self, seat: Seat, cost: u32) -> Result<(), RuleError> {
        if matches!(self.phase, Phase::Rest { .. }) {
            self.rest_step(seat, RestStep::EquipAndTrade)?;
        }
        self.spend_ap(seat, cost)
    }

    /// Whether item management is allowed now and what it costs: 1 AP in
    /// combat, free in a Rest round (L941-944).
    fn item_cost(&self, seat: Seat) -> Result<u32, RuleError> {
        if matches!(self.phase, Phase::Interlude(_)) {
            // Interlude step 5: equip, store and trade freely (L1347).
            Ok(0)
        } else if self.phase == Phase::ChooseRound && self.round == 1 {
            // At the start of a session or location, before the first
            // round, the same freedom (L939, L1045).
            Ok(0)
        } else if matches!(self.phase, Phase::Rest { .. }) {
            self.rest_step_allowed(seat, RestStep::EquipAndTrade)?;
            Ok(0)
        } else {
            self.ensure_turn(seat)?;
            Ok(1)
        }
    }

    /// Equip from the backpack; items it displaces go to the backpack (L943).
    pub(super) fn equip(&mut self, cat: &Catalogue, seat: Seat, item: &str, ev: &mut Vec<Ev>) -> Result<(), RuleError> {
        let (cost, (equipped, backpack)) = self.check_equip(cat, seat, item)?;
        self.pay_item(seat, cost)?;
        self.wear(cat, seat, item, equipped, backpack, ev);
        Ok(())
    }

    /// The AP cost and the equipment and backpack after equipping.
    fn check_equip(&self, cat: &Catalogue, seat: Seat, item: &str) -> Result<(u32, Gear), RuleError> {
        let cost = self.item_cost(seat)?;
        let o = &self.origins[seat as usize];
        let plan = equip_plan(cat, &o.equipped, &o.backpack, item)?;
        self.ap_allowed(seat, cost)?;
        Ok((cost, plan.gear(&o.equipped, &o.backpack, item)))
    }

    /// Put on what [`equip_plan`] worked out; a replaced item's rune moves
    /// onto the new item when a side fits, for free (L1078).
    fn wear(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        item: &str,
        equipped: Vec<String>,
        backpack: Vec<String>,
        ev: &mut Vec<Ev>,
    ) {
        let Some(ItemKind::Equipment(slot)) = cat.items.get(item).map(|d| d.kind) else { return };
        let o = &mut self.origins[seat as usize];
        o.equipped = equipped;
        o.backpack = backpack;
        let gone: Vec<String> =
            o.runes.iter().filter(|a| !o.equipped.contains(&a.item)).map(|a| a.item.clone()).collect();
        for old in gone {
            let o = &mut self.origins[seat as usize];
            let p = o.runes.iter().position(|a| a.item == old).unwrap();
            let side = cat.runes[&o.runes[p].rune].sides.iter().position(|s| s.slot == slot);
            match side {
                Some(side) if !o.runes.iter().any(|a| a.item == item) => {
                    o.runes[p].item = item.to_string();
                    o.runes[p].side = side;
                }
                _ => self.unrune(seat, &old, ev),
            }
        }
    }

    /// Attach a rune from the backpack (or move one) to an equipped item, the
    /// side that fits the item's slot up; done instead of an equip (L1066-1074).
    pub(super) fn attach_rune(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        rune: &str,
        item: &str,
        _ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let (cost, side, in_pack, attached) = self.check_attach_rune(cat, seat, rune, item)?;
        self.pay_item(seat, cost)?;
        let o = &mut self.origins[seat as usize];
        match attached {
            Some(p) => {
                o.runes.remove(p);
            }
            None => {
                o.backpack.remove(in_pack.expect("checked: carried"));
            }
        }
        o.runes.push(AttachedRune { rune: rune.to_string(), item: item.to_string(), side });
        Ok(())
    }

    fn check_attach_rune(
        &self,
        cat: &Catalogue,
        seat: Seat,
        rune: &str,
        item: &str,
    ) -> Result<(u32, usize, Option<usize>, Option<usize>), RuleError> {
        // The AP cost, the rune side that fits, and where the rune is now.
        let cost = self.item_cost(seat)?;
        let (side, in_pack, attached) = self.rune_place(cat, seat, rune, item).map_err(|miss| miss.error(rune))?;
        self.ap_allowed(seat, cost)?;
        Ok((cost, side, in_pack, attached))
    }

    /// [`Self::check_attach_rune`]'s checks between the cost's and the
    /// AP's, a refusal's message left unwritten (the legal list asks them
    /// of every rune and equipped item): the side that fits, and where
    /// the rune is now (in the backpack, or attached).
    fn rune_place(
        &self,
        cat: &Catalogue,
        seat: Seat,
        rune: &str,
        item: &str,
    ) -> Result<(usize, Option<usize>, Option<usize>), RuneMiss> {
        let r = cat.runes.get(rune).ok_or(RuneMiss::NotARune)?;
        let o = &self.origins[seat as usize];
        if !o.equipped.iter().any(|x| x == item) {
            return Err(RuneMiss::Says(DivinityRefusal::NotEquipped, "a rune goes on an equipped item"));
        }
        let Some(ItemKind::Equipment(slot)) = cat.items.get(item).map(|d| d.kind) else {
            return Err(RuneMiss::Says(DivinityRefusal::NotEquipment, "a rune goes on equipment"));
        };
        let side = r.sides.iter().position(|s| s.slot == slot).ok_or(RuneMiss::DoesNotFit(slot))?;
        if o.runes.iter().any(|a| a.item == item) {
            return Err(RuneMiss::Says(DivinityRefusal::ItemHasRune, "one rune per item"));
        }
        let in_pack = o.backpack.iter().position(|x| x == rune);
        let attached = o.runes.iter().position(|a| a.rune == rune);
        if in_pack.is_none() && attached.is_none() {
            return Err(RuneMiss::Says(DivinityRefusal::NotCarried, "you don't carry that rune"));
        }
        Ok((side, in_pack, attached))
    }

    /// An item leaving the equipment slots takes its rune off: into the
    /// backpack if there is room, otherwise discarded (L1078).
    pub(super) fn unrune(&mut self, seat: Seat, item: &str, ev: &mut Vec<Ev>) {
        let o = &mut self.origins[seat as usize];
        if let Some(p) = o.runes.iter().position(|a| a.item == item) {
            let r = o.runes.remove(p);
            if o.backpack.len() < BACKPACK {
                o.backpack.push(r.rune);
            } else {
                // To the bottom of the rune deck (L1056).
                self.item_decks.entry("runes".into()).or_default().push(r.rune.clone());
                ev.push(Ev::ItemDiscarded { seat, item: r.rune });
            }
        }
    }

    pub(super) fn store(
        &mut self,
        _cat: &Catalogue,
        seat: Seat,
        item: &str,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let (cost, i) = self.check_store(seat, item)?;
        self.pay_item(seat, cost)?;
        let o = &mut self.origins[seat as usize];
        let it = o.equipped.remove(i);
        o.backpack.push(it);
        self.unrune(seat, item, ev);
        Ok(())
    }

    /// The AP cost and where the item sits among the equipped ones.
    fn check_store(&self, seat: Seat, item: &str) -> Result<(u32, usize), RuleError> {
        let cost = self.item_cost(seat)?;
        let o = &self.origins[seat as usize];
        let at = o
            .equipped
            .iter()
            .position(|x| x == item)
            .ok_or_else(|| err(DivinityRefusal::NotEquipped, "the item is not equipped"))?;
        if o.backpack.len() >= BACKPACK {
            return Err(err(DivinityRefusal::BackpackFull, "the backpack holds 3 items (L919)"));
        }
        self.ap_allowed(seat, cost)?;
        Ok((cost, at))
    }

    /// Trade an item (L1043-1052): give one of yours to, or take one from,
    /// another Origin. In combat 1 AP per item and only in your space
    /// (L1049, L1590); free with anyone anywhere in a Rest round (L1050) and
    /// in the interlude (L1347); never in an Explore round (L1047). The
    /// receiver stores it, or equips it when its backpack is full and it
    /// fits (L1052); with neither it cannot receive it (L1056).
    pub(super) fn trade(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        handover: Handover<'_>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let (cost, TradePlan { from_pack, from_eq, wear }) = self.check_trade(cat, seat, handover)?;
        let Handover { from, to, item, .. } = handover;
        self.pay_item(seat, cost)?;
        let o = &mut self.origins[from as usize];
        match from_pack {
            Some(i) => o.backpack.remove(i),
            None => o.equipped.remove(from_eq.expect("checked: carried")),
        };
        self.unrune(from, item, ev);
        let r = &mut self.origins[to as usize];
        if let Some(plan) = wear {
            // The receiver's backpack with the item in it, as planned.
            let mut pack = r.backpack.clone();
            pack.push(item.to_string());
            let (equipped, backpack) = plan.gear(&r.equipped, &pack, item);
            self.wear(cat, to, item, equipped, backpack, ev);
        } else if r.backpack.len() < BACKPACK {
            r.backpack.push(item.to_string());
        } else {
            r.equipped.push(item.to_string());
        }
        ev.push(Ev::ItemTraded { from, to, item: item.to_string() });
        Ok(())
    }

    fn check_trade(&self, cat: &Catalogue, seat: Seat, handover: Handover<'_>) -> Result<(u32, TradePlan), RuleError> {
        let cost = self.item_cost(seat)?;
        let kind = cat.items.get(handover.item).map(|d| d.kind);
        let plan = self
            .trade_plan(cat, seat, handover, cost, kind, |to| Slots::of(cat, &self.origins[to as usize].equipped))
            .map_err(|miss| miss.error(handover))?;
        self.ap_allowed(seat, cost)?;
        Ok((cost, plan))
    }

    /// The checks of a trade between the cost's and the AP's: `kind` is
    /// the item's, `slots_of(receiver)` counts the receiver's equipped
    /// slots (asked once the receiver is known to exist).
    fn trade_plan(
        &self,
        cat: &Catalogue,
        seat: Seat,
        handover: Handover<'_>,
        cost: u32,
        kind: Option<ItemKind>,
        mut slots_of: impl FnMut(Seat) -> Slots,
    ) -> Result<TradePlan, TradeMiss> {
        let Handover { from, to, item, equip } = handover;
        let other = if from == seat { to } else { from };
        let r =
            self.origins.get(other as usize).ok_or(TradeMiss::Says(DivinityRefusal::NoSuchOrigin, "no such Origin"))?;
        if other == seat || r.downed {
            return Err(TradeMiss::Says(
                DivinityRefusal::BadPartner,
                "trade with another Origin that is not downed (L747)",
            ));
        }
        if cost > 0 && r.space != self.origins[seat as usize].space {
            return Err(TradeMiss::Says(
                DivinityRefusal::TooFar,
                "in combat you trade only with an Origin in your space (L1049)",
            ));
        }
        let o = &self.origins[from as usize];
        let from_pack = o.backpack.iter().position(|x| x == item);
        let from_eq = o.equipped.iter().position(|x| x == item);
        if from_pack.is_none() && from_eq.is_none() {
            return Err(TradeMiss::NotCarried);
        }
        // The receiver's room (L1056), as `has_room` judges it.
        let r = &self.origins[to as usize];
        let slots = slots_of(to);
        let fits = matches!(kind, Some(ItemKind::Equipment(_))) && slots.with(kind).fit();
        if r.backpack.len() >= BACKPACK && !fits {
            return Err(TradeMiss::Says(
                DivinityRefusal::NoRoom,
                "the receiver can neither store nor equip it (L1056)",
            ));
        }
        // Equipping at once is part of the trade (L1052): planned before
        // anything moves, so a refusal leaves the state as it was. Into
        // the backpack, then equipped from it.
        let wear = if equip {
            Some(equip_plan_on(cat, &r.equipped, slots, r.backpack.len() + 1, item, kind).map_err(TradeMiss::Misfit)?)
        } else {
            None
        };
        Ok(TradePlan { from_pack, from_eq, wear })
    }

    /// The party's answer to an item nobody had room for (L1056): `to`
    /// takes it, dropping `drop` first if it has no room; the dropped item
    /// is discarded to its deck, or given to `pass_to` where trading is free
    /// (a Rest round, the interlude: L1050, L1347). `to: None` discards the
    /// new item.
    pub(super) fn place_overflow(
        &mut self,
        cat: &Catalogue,
        to: Option<Seat>,
        drop: Option<&str>,
        pass_to: Option<Seat>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let Some(o) = self.overflow.first().cloned() else {
            return Err(err(DivinityRefusal::NoItemWaiting, "no item is waiting for room"));
        };
        let Some(to) = to else {
            if drop.is_some() || pass_to.is_some() {
                return Err(err(DivinityRefusal::BadChoice, "discarding the new item drops nothing else"));
            }
            self.overflow.remove(0);
            self.to_deck_bottom(cat, &o.item);
            ev.push(Ev::RewardDiscarded { item: o.item });
            return Ok(());
        };
        if !o.takers.contains(&to) {
            return Err(err(DivinityRefusal::NotATaker, format!("Origin {to} may not take {} (L1039)", o.item)));
        }
        match drop {
            None if !self.has_room(cat, to, &o.item) => {
                return Err(err(DivinityRefusal::NoRoom, "drop another item to make room (L1056)"));
            }
            None if pass_to.is_some() => return Err(err(DivinityRefusal::BadChoice, "nothing dropped to pass on")),
            None => {}
            Some(d) => {
                let c = &self.origins[to as usize];
                let in_pack = c.backpack.iter().position(|x| x == d);
                let in_eq = c.equipped.iter().position(|x| x == d);
                let rune = c.runes.iter().position(|a| a.rune == d);
                if in_pack.is_none() && in_eq.is_none() && rune.is_none() {
                    return Err(err(DivinityRefusal::NotCarried, format!("Origin {to} does not carry {d}")));
                }
                let mut next = self.clone();
                let c = &mut next.origins[to as usize];
                if let Some(i) = in_pack {
                    c.backpack.remove(i);
                } else if let Some(i) = in_eq {
                    c.equipped.remove(i);
                } else {
                    c.runes.remove(rune.unwrap());
                }
                next.unrune(to, d, ev);
                if !next.has_room(cat, to, &o.item) {
                    return Err(err(
                        DivinityRefusal::StillNoRoom,
                        format!("dropping {d} makes no room for {}", o.item),
                    ));
                }
                match pass_to {
                    None => next.discard_item(cat, to, d, ev),
                    Some(p) => {
                        if !matches!(self.phase, Phase::Rest { .. } | Phase::Interlude(_)) {
                            return Err(err(
                                DivinityRefusal::NoTradingNow,
                                "only a Rest round or the interlude lets the party trade freely (L1047-1050)",
                            ));
                        }
                        let r = next
                            .origins
                            .get(p as usize)
                            .ok_or_else(|| err(DivinityRefusal::NoSuchOrigin, "no such Origin"))?;
                        if p == to || r.downed || !next.has_room(cat, p, d) {
                            return Err(err(
                                DivinityRefusal::BadReceiver,
                                format!("Origin {p} cannot receive {d} (L747, L1056)"),
                            ));
                        }
                        next.place_item(cat, p, d);
                        ev.push(Ev::ItemTraded { from: to, to: p, item: d.to_string() });
                    }
                }
                *self = next;
            }
        }
        self.overflow.remove(0);
        self.place_item(cat, to, &o.item);
        ev.push(Ev::ItemGained { seat: Some(to), item: o.item });
        Ok(())
    }

    pub(super) fn discard_carried(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        item: &str,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        self.check_discard(seat, item)?;
        // Free: no AP, but in a Rest turn it is the item step.
        self.pay_item(seat, 0)?;
        let o = &mut self.origins[seat as usize];
        if let Some(i) = o.backpack.iter().position(|x| x == item) {
            o.backpack.remove(i);
        } else if let Some(i) = o.equipped.iter().position(|x| x == item) {
            o.equipped.remove(i);
        } else if let Some(i) = o.runes.iter().position(|a| a.rune == item) {
            o.runes.remove(i);
        }
        self.unrune(seat, item, ev);
        self.discard_item(cat, seat, item, ev);
        Ok(())
    }
}

impl DivinityState {
    fn check_discard(&self, seat: Seat, item: &str) -> Result<(), RuleError> {
        self.item_cost(seat)?;
        let o = &self.origins[seat as usize];
        let carried = o.backpack.iter().chain(&o.equipped).any(|x| x == item) || o.runes.iter().any(|a| a.rune == item);
        if !carried {
            return Err(err(DivinityRefusal::NotCarried, "you don't carry that item"));
        }
        Ok(())
    }
}

/// What equipping `item` (in `backpack`) does, planned without changing
/// anything: the items it displaces to the backpack (L943).
fn equip_plan(cat: &Catalogue, equipped: &[String], backpack: &[String], item: &str) -> Result<EquipPlan, RuleError> {
    if !backpack.iter().any(|x| x == item) {
        return Err(err(DivinityRefusal::NotCarried, "the item is not in the backpack"));
    }
    let kind = cat.items.get(item).map(|d| d.kind);
    equip_plan_on(cat, equipped, Slots::of(cat, equipped), backpack.len(), item, kind).map_err(Misfit::error)
}

/// The equipped items (by index, oldest first) equipping `item` displaces
/// to the backpack: those competing for its slot, until the rest fits
/// (L943). Judged on the slots' counts, looking each item up once: the
/// legal list asks it of every trade with `equip`.
struct EquipPlan {
    displaced: Vec<usize>,
}

/// [`equip_plan`] once the item is known to be in a backpack of `pack`
/// items, with `equipped`'s slots counted and `item`'s `kind` looked up
/// already; a refusal's message left unwritten.
fn equip_plan_on(
    cat: &Catalogue,
    equipped: &[String],
    slots: Slots,
    pack: usize,
    item: &str,
    kind: Option<ItemKind>,
) -> Result<EquipPlan, Misfit> {
    let mut displaced = Vec::new();
    equip_fit(equipped, worn_kind(cat, equipped), slots, pack, item, kind, |i| displaced.push(i))?;
    Ok(EquipPlan { displaced })
}

/// The kind of the `i`th of `equipped`, as [`equip_fit`] asks it.
fn worn_kind<'a>(cat: &'a Catalogue, equipped: &'a [String]) -> impl Fn(usize) -> Option<ItemKind> + 'a {
    |i| cat.items.get(equipped[i].as_str()).map(|d| d.kind)
}

/// Whether [`equip_plan`] plans equipping `item`, nothing allocated.
fn equip_ok(cat: &Catalogue, equipped: &[String], backpack: &[String], item: &str) -> bool {
    let kind = cat.items.get(item).map(|d| d.kind);
    backpack.iter().any(|x| x == item)
        && equip_fit(equipped, worn_kind(cat, equipped), Slots::of(cat, equipped), backpack.len(), item, kind, |_| ())
            .is_ok()
}

/// Why an item can't be equipped, as [`equip_fit`] finds it: the message
/// is written only when [`equip_plan`] or a trade returns the refusal, not for
/// each trade the legal list judges.
enum Misfit {
    NotEquipment,
    DoesNotFit,
    BackpackFull,
}

impl Misfit {
    fn error(self) -> RuleError {
        match self {
            Misfit::NotEquipment => err(DivinityRefusal::NotEquipment, "only equipment can be equipped (L239)"),
            Misfit::DoesNotFit => err(DivinityRefusal::DoesNotFit, "the item does not fit"),
            Misfit::BackpackFull => {
                err(DivinityRefusal::BackpackFull, "no room for the displaced item: discard something first (L1056)")
            }
        }
    }
}

/// [`equip_plan_on`]'s plan, a refusal's message left unwritten: each
/// displaced item's index is given to `displace` (the legal list, which
/// asks only whether it fits, keeps none).
fn equip_fit(
    equipped: &[String],
    kind_at: impl Fn(usize) -> Option<ItemKind>,
    slots: Slots,
    pack: usize,
    item: &str,
    kind: Option<ItemKind>,
    mut displace: impl FnMut(usize),
) -> Result<(), Misfit> {
    let Some(ItemKind::Equipment(slot)) = kind else {
        return Err(Misfit::NotEquipment);
    };
    let mut slots = slots.with(kind);
    let mut displaced = 0;
    // Displace what blocks the new item, oldest first; another copy of the
    // item itself stays.
    let mut from = 0;
    while !slots.fit() {
        let next = equipped.iter().enumerate().skip(from).find_map(|(i, x)| {
            let Some(ItemKind::Equipment(k)) = kind_at(i) else { return None };
            let competes = match slot {
                Slot::OneHand | Slot::TwoHands => matches!(k, Slot::OneHand | Slot::TwoHands),
                s => k == s,
            };
            (competes && x != item).then_some((i, k))
        });
        let Some((i, k)) = next else { return Err(Misfit::DoesNotFit) };
        slots = slots.without(k);
        displace(i);
        displaced += 1;
        from = i + 1;
    }
    if pack - 1 + displaced > BACKPACK {
        return Err(Misfit::BackpackFull);
    }
    Ok(())
}

/// Why a trade is refused, as [`DivinityState::trade_plan`] finds it:
/// the message is written only when the refusal is returned.
enum TradeMiss {
    Says(DivinityRefusal, &'static str),
    /// The giver does not carry the item.
    NotCarried,
    /// The receiver can't equip it at once.
    Misfit(Misfit),
}

impl TradeMiss {
    fn error(self, handover: Handover<'_>) -> RuleError {
        match self {
            TradeMiss::Says(code, m) => err(code, m),
            TradeMiss::NotCarried => {
                err(DivinityRefusal::NotCarried, format!("Origin {} does not carry {}", handover.from, handover.item))
            }
            TradeMiss::Misfit(m) => m.error(),
        }
    }
}

/// Why a rune can't be attached, as [`DivinityState::rune_place`] finds it.
enum RuneMiss {
    Says(DivinityRefusal, &'static str),
    NotARune,
    /// Neither side fits an item of this slot.
    DoesNotFit(Slot),
}

impl RuneMiss {
    fn error(self, rune: &str) -> RuleError {
        match self {
            RuneMiss::Says(code, m) => err(code, m),
            RuneMiss::NotARune => err(DivinityRefusal::NotARune, format!("{rune} is not a rune")),
            RuneMiss::DoesNotFit(slot) => {
                err(DivinityRefusal::RuneDoesNotFit, format!("neither side of {rune} fits a {slot:?} item (L1066)"))
            }
        }
    }
}

/// What one seat's legal list asks of every item action again and again,
/// worked out the first time: the item step's AP cost if it is allowed
/// and affordable (`None` inside: it is not), each Origin's equipped
/// slots and items' kinds, the kinds of the items traded, and the last
/// trade without `equip` judged, with its answer. Names are known by
/// their address: they are the state's, which does not change while a
/// list is made (a name seen at two addresses is merely looked up twice).
#[derive(Default)]
pub(super) struct ItemJudge {
    /// The item cost, when the rules allow item management now and the
    /// seat has the AP for it (`item_cost`, then `ap_allowed`).
    cost: Option<Option<u32>>,
    /// Whether the rules allow item management now (`item_cost`).
    free: Option<bool>,
    /// Each Origin's equipped slots and where its items' kinds lie in
    /// `worn_kinds` (one list for all: a few allocations a list, not one
    /// an Origin).
    worn: Vec<Option<(Slots, std::ops::Range<usize>)>>,
    worn_kinds: Vec<Option<ItemKind>>,
    kinds: Vec<((*const u8, usize), Option<ItemKind>)>,
    last: Option<(TradeKey, bool)>,
}

/// A trade's giver, receiver and item (its name's address and length).
type TradeKey = (Seat, Seat, *const u8, usize);

impl ItemJudge {
    /// [`ItemJudge::cost`], worked out at its first use.
    fn cost(&mut self, s: &DivinityState, seat: Seat) -> Option<u32> {
        *self.cost.get_or_insert_with(|| {
            let cost = s.item_cost(seat).ok()?;
            s.ap_allowed(seat, cost).is_ok().then_some(cost)
        })
    }

    /// The catalogue's kind of `item`.
    fn kind(&mut self, cat: &Catalogue, item: &str) -> Option<ItemKind> {
        let key = (item.as_ptr(), item.len());
        if let Some((_, kind)) = self.kinds.iter().find(|(k, _)| *k == key) {
            return *kind;
        }
        let kind = cat.items.get(item).map(|d| d.kind);
        if self.kinds.capacity() == 0 {
            // Room for the items of a party, instead of growing from one.
            self.kinds.reserve(16);
        }
        self.kinds.push((key, kind));
        kind
    }

    /// Origin `to`'s equipped slots, as [`Slots::of`] counts them, and
    /// the kind of each equipped item.
    fn worn(&mut self, cat: &Catalogue, s: &DivinityState, to: Seat) -> (Slots, &[Option<ItemKind>]) {
        if self.worn.len() < s.origins.len() {
            self.worn = vec![None; s.origins.len()];
        }
        let kinds = &mut self.worn_kinds;
        let (slots, at) = self.worn[to as usize].get_or_insert_with(|| {
            if kinds.capacity() == 0 {
                kinds.reserve(16);
            }
            let start = kinds.len();
            kinds.extend(s.origins[to as usize].equipped.iter().map(|x| cat.items.get(x.as_str()).map(|d| d.kind)));
            (kinds[start..].iter().fold(Slots::default(), |sl, k| sl.with(*k)), start..kinds.len())
        });
        (*slots, &self.worn_kinds[at.clone()])
    }
}

impl EquipPlan {
    /// The equipment and backpack it leaves: the new item last among the
    /// equipped, the backpack without it (its first copy) and with the
    /// displaced items after the rest.
    fn gear(&self, equipped: &[String], backpack: &[String], item: &str) -> Gear {
        let mut worn: Vec<String> =
            equipped.iter().enumerate().filter(|(i, _)| !self.displaced.contains(i)).map(|(_, x)| x.clone()).collect();
        worn.push(item.to_string());
        let mut pack = backpack.to_vec();
        if let Some(i) = pack.iter().position(|x| x == item) {
            pack.remove(i);
        }
        pack.extend(self.displaced.iter().map(|i| equipped[*i].clone()));
        (worn, pack)
    }
}
