//! Figures on the map, Origins and enemies alike: what protects them, what
//! they are called, and what damage, healing and statuses do to them
//! (L587-770).

use crate::divinity::DivinityRefusal;
use std::collections::BTreeSet;

use super::attack::{StatusGrant, Target};
use super::content::{Catalogue, ItemKind};
use super::cooldown::{Applied, CardRef};
use super::damage::{harm, DamageType, Defence, Environment, Harm};
use super::event::DivinityEvent as Ev;
use super::map::{Graph, SpaceIx};
use super::state::{DivinityState, EnemyKind, Who, MAX_AP};
use super::status::{Status, StatusRule};
use crate::{RuleError, Seat};

impl DivinityState {
    pub fn space_id(&self, cat: &Catalogue, s: SpaceIx) -> String {
        self.loc(cat).map.spaces[s].id.clone()
    }

    pub fn space_ix(&self, cat: &Catalogue, id: &str) -> Option<SpaceIx> {
        self.loc(cat).map_index().ix(id)
    }

    /// Whether a space may be entered, as [`Graph::open`] judges it.
    pub fn space_open(&self, cat: &Catalogue, s: SpaceIx) -> bool {
        !self.loc(cat).map.spaces[s].locked || self.map.placed.contains_key(&s)
    }

    /// The map as it stands, for distances and routes.
    pub fn with_graph<T>(&self, cat: &Catalogue, f: impl FnOnce(&Graph) -> T) -> T {
        let loc = self.loc(cat);
        f(&Graph::new(&loc.map, &self.map, &loc.map_index().paths))
    }

    pub fn environment(&self, cat: &Catalogue, s: SpaceIx) -> Option<Environment> {
        self.with_graph(cat, |g| g.environment(s))
    }

    pub fn space_of(&self, who: Who) -> Option<SpaceIx> {
        match who {
            Who::Origin(s) => self.origins.get(s as usize).map(|o| o.space),
            Who::Enemy(e) => self.enemy(e).map(|e| e.space),
        }
    }

    fn statuses_of(&self, who: Who) -> Vec<Status> {
        match who {
            Who::Origin(s) => self.origins[s as usize].track.statuses(),
            Who::Enemy(e) => self.enemy(e).map(|e| e.track.statuses()).unwrap_or_default(),
        }
    }

    /// The rules of every status the figure bears.
    pub fn rules_of<'c>(&self, cat: &'c Catalogue, who: Who) -> Vec<&'c StatusRule> {
        self.statuses_of(who).into_iter().map(|s| cat.statuses.get(s)).collect()
    }

    /// [`Self::rules_of`] without a list: checks ask it of every card.
    fn each_rule<'a>(&'a self, cat: &'a Catalogue, who: Who) -> impl Iterator<Item = &'a StatusRule> + 'a {
        let track = match who {
            Who::Origin(s) => Some(&self.origins[s as usize].track),
            Who::Enemy(e) => self.enemy(e).map(|e| &e.track),
        };
        track.into_iter().flat_map(|t| t.slots.iter().flatten()).filter_map(move |c| match c.card {
            CardRef::Status(s) => Some(cat.statuses.get(s)),
            _ => None,
        })
    }

    pub fn has_status(&self, cat: &Catalogue, who: Who, f: impl Fn(&StatusRule) -> bool) -> bool {
        self.each_rule(cat, who).any(f)
    }

    /// Combined armor, reductions and immunities from every source (L638):
    /// the Origin card, equipped items, face-up skills and consumables on the
    /// track, the summon, and statuses (never below 0).
    pub fn defence(&self, cat: &Catalogue, who: Who) -> Defence {
        let mut d = match who {
            Who::Origin(s) => {
                let o = &self.origins[s as usize];
                let mut d = cat.origins[&o.origin].defence();
                for i in &o.equipped {
                    cat.items[i].bonus.add_to(&mut d);
                }
                for r in &o.runes {
                    cat.runes[&r.rune].sides[r.side].bonus.add_to(&mut d);
                }
                for t in &o.talents {
                    cat.talents[t].bonus.add_to(&mut d);
                }
                for c in o.track.active() {
                    match c {
                        CardRef::Skill(id) => cat.skills[id].ongoing.add_to(&mut d),
                        CardRef::Consumable(id) => cat.items[id].ongoing.add_to(&mut d),
                        _ => {}
                    }
                }
                d
            }
            Who::Enemy(id) => match self.enemy(id).map(|e| &e.kind) {
                Some(EnemyKind::Minion { card, veteran }) => cat.minions[card].side(*veteran).defence(),
                Some(EnemyKind::Boss { boss }) => {
                    let b = &cat.bosses[boss];
                    let mut d = Defence {
                        physical_armor: b.physical_armor,
                        magical_armor: b.magical_armor,
                        immune: b.immune.clone(),
                        ..Defence::default()
                    };
                    // Face-up ongoing tactics (L1823).
                    for c in self.enemy(id).map(|e| e.track.active().cloned().collect::<Vec<_>>()).unwrap_or_default() {
                        if let CardRef::Tactic(t) = c {
                            if let Some(bonus) = b.tactics.iter().find(|x| x.id == t).and_then(|x| x.ongoing.as_ref()) {
                                bonus.add_to(&mut d);
                            }
                        }
                    }
                    d
                }
                None => Defence::default(),
            },
        };
        let (mut pa, mut ma) = (d.physical_armor as i64, d.magical_armor as i64);
        for r in self.each_rule(cat, who) {
            pa += r.physical_armor as i64;
            ma += r.magical_armor as i64;
        }
        d.physical_armor = pa.max(0) as u32;
        d.magical_armor = ma.max(0) as u32;
        d
    }

    pub fn immune_statuses(&self, cat: &Catalogue, who: Who) -> BTreeSet<Status> {
        match who {
            Who::Origin(s) => cat.origins[&self.origins[s as usize].origin].immune_statuses.clone(),
            Who::Enemy(id) => match self.enemy(id).map(|e| &e.kind) {
                Some(EnemyKind::Minion { card, veteran }) => cat.minions[card].side(*veteran).immune_statuses.clone(),
                Some(EnemyKind::Boss { boss }) => cat.bosses[boss].immune_statuses.clone(),
                None => BTreeSet::new(),
            },
        }
    }

    /// Bosses are immovable (L1829); so are minions whose card says so.
    pub fn immovable(&self, cat: &Catalogue, who: Who) -> bool {
        match self.enemy_kind(who) {
            Some(EnemyKind::Minion { card, veteran }) => cat.minions[card].side(*veteran).immovable,
            Some(EnemyKind::Boss { .. }) => true,
            None => false,
        }
    }

    fn enemy_kind(&self, who: Who) -> Option<&EnemyKind> {
        match who {
            Who::Enemy(id) => self.enemy(id).map(|e| &e.kind),
            Who::Origin(_) => None,
        }
    }

    /// The figure as an attack sees it.
    pub fn target(&self, cat: &Catalogue, who: Who) -> Target {
        let space = self.space_of(who).unwrap_or(0);
        Target {
            defence: self.defence(cat, who),
            environment: self.environment(cat, space),
            immune_statuses: self.immune_statuses(cat, who),
            immovable: self.immovable(cat, who),
            downed: matches!(who, Who::Origin(s) if self.origins[s as usize].downed),
            healing_blocked: self.has_status(cat, who, |r| r.blocks_healing),
        }
    }

    /// Keywords an Origin has for good: its card, talents, equipped items
    /// and its summon (L497, L986).
    pub fn keywords(&self, cat: &Catalogue, seat: Seat) -> BTreeSet<String> {
        let o = &self.origins[seat as usize];
        let mut k: BTreeSet<String> = cat.origins[&o.origin].keywords.iter().cloned().collect();
        for t in &o.talents {
            k.extend(cat.talents[t].keywords.iter().cloned());
        }
        for i in &o.equipped {
            k.extend(cat.items[i].bonus.keywords.iter().cloned());
        }
        for r in &o.runes {
            k.extend(cat.runes[&r.rune].sides[r.side].bonus.keywords.iter().cloned());
        }
        if let Some(s) = &o.summon {
            k.extend(cat.summons[s].keywords.iter().cloned());
        }
        k
    }

    /// Whether [`Self::keywords`] holds `k`, without building the set.
    pub fn has_keyword(&self, cat: &Catalogue, seat: Seat, k: &str) -> bool {
        let o = &self.origins[seat as usize];
        let has = |ks: &[String]| ks.iter().any(|x| x == k);
        has(&cat.origins[&o.origin].keywords)
            || o.talents.iter().any(|t| has(&cat.talents[t].keywords))
            || o.equipped.iter().any(|i| has(&cat.items[i].bonus.keywords))
            || o.runes.iter().any(|r| has(&cat.runes[&r.rune].sides[r.side].bonus.keywords))
            || o.summon.as_ref().is_some_and(|s| has(&cat.summons[s].keywords))
    }

    pub fn max_hp(&self, cat: &Catalogue, who: Who) -> u32 {
        match who {
            Who::Origin(s) => {
                let o = &self.origins[s as usize];
                let bonus: u32 = o.talents.iter().filter_map(|t| cat.talents.get(t)).map(|t| t.hp_bonus).sum();
                cat.origins[&o.origin].at(o.level).map_or(1, |l| l.hp) + bonus
            }
            Who::Enemy(id) => self.enemy(id).map_or(0, |e| e.max_hp),
        }
    }

    /// 8, or what HASTE raises it to (L1564, L1574).
    pub fn max_ap(&self, cat: &Catalogue, seat: Seat) -> u32 {
        self.each_rule(cat, Who::Origin(seat)).filter_map(|r| r.max_ap).max().unwrap_or(MAX_AP).max(MAX_AP)
    }

    pub fn hp(&self, who: Who) -> u32 {
        match who {
            Who::Origin(s) => self.origins[s as usize].hp,
            Who::Enemy(id) => self.enemy(id).map_or(0, |e| e.hp),
        }
    }

    /// Apply what one instance of damage or healing does (L591-592): HP
    /// never below 0 or above max; an Origin at 0 is downed at once, an
    /// enemy defeated and removed (L739, L743).
    pub fn apply_harm(&mut self, cat: &Catalogue, who: Who, h: Harm, ev: &mut Vec<Ev>) {
        match h {
            Harm::Nothing => {}
            Harm::Heal(n) => self.heal(cat, who, n, ev),
            Harm::Damage(n) => {
                if matches!(who, Who::Origin(s) if self.origins[s as usize].downed) {
                    return;
                }
                let hp = self.hp(who).saturating_sub(n);
                match who {
                    Who::Origin(s) => {
                        // A once-per-location talent may keep the Origin standing on 1 HP.
                        let o = &self.origins[s as usize];
                        let saver = o
                            .talents
                            .iter()
                            .find(|t| {
                                cat.talents.get(*t).is_some_and(|d| d.survive_downing) && !o.talents_used.contains(t)
                            })
                            .cloned();
                        let (hp, n) = match saver {
                            Some(t) if hp == 0 => {
                                let o = &mut self.origins[s as usize];
                                o.talents_used.push(t.clone());
                                ev.push(Ev::TalentUsed { seat: s, talent: t });
                                (1, o.hp - 1)
                            }
                            _ => (hp, n),
                        };
                        let o = &mut self.origins[s as usize];
                        o.hp = hp;
                        ev.push(Ev::Damaged { who, amount: n, hp });
                        if hp == 0 {
                            o.downed = true;
                            ev.push(Ev::Downed { seat: s });
                            // An Unstable Origin explodes (talent data).
                            let blast: u32 =
                                o.talents.iter().filter_map(|t| cat.talents.get(t)).map(|t| t.explode_on_downed).sum();
                            let here = o.space;
                            if blast > 0 {
                                let near: Vec<u32> =
                                    self.enemies.iter().filter(|e| e.space == here).map(|e| e.id).collect();
                                for id in near {
                                    self.damage(cat, Who::Enemy(id), blast, DamageType::Fire, ev);
                                }
                            }
                        }
                    }
                    Who::Enemy(id) => {
                        let Some(e) = self.enemy_mut(id) else { return };
                        e.hp = hp;
                        ev.push(Ev::Damaged { who, amount: n, hp });
                        if hp == 0 {
                            self.enemies.retain(|e| e.id != id);
                            ev.push(Ev::Defeated { enemy: id });
                        }
                    }
                }
            }
        }
    }

    /// Heal, capped at max HP; nothing for a downed Origin or a bearer of a
    /// status that blocks healing (L761, L770). A rune may add to every heal (L1070).
    pub fn heal(&mut self, cat: &Catalogue, who: Who, n: u32, ev: &mut Vec<Ev>) {
        if n == 0 || self.target(cat, who).downed || self.has_status(cat, who, |r| r.blocks_healing) {
            return;
        }
        let n = match who {
            Who::Origin(s) => {
                n + self.origins[s as usize]
                    .runes
                    .iter()
                    .map(|r| cat.runes[&r.rune].sides[r.side].heal_bonus)
                    .sum::<u32>()
            }
            Who::Enemy(_) => n,
        };
        // Healing never lowers HP: a figure can stand above its max when a
        // max-HP bonus (an item, a talent) went away after it was gained.
        let now = self.hp(who);
        let hp = (now + n).min(self.max_hp(cat, who).max(now));
        let gained = hp - now;
        match who {
            Who::Origin(s) => self.origins[s as usize].hp = hp,
            Who::Enemy(id) => {
                if let Some(e) = self.enemy_mut(id) {
                    e.hp = hp;
                }
            }
        }
        if gained > 0 {
            ev.push(Ev::Healed { who, amount: gained, hp });
        }
    }

    /// Damage from a card or status: through the damage pipeline of the
    /// figure's space (L1163: the +2 applies to any damage of its type).
    pub fn damage(&mut self, cat: &Catalogue, who: Who, amount: u32, ty: DamageType, ev: &mut Vec<Ev>) {
        let t = self.target(cat, who);
        let h = harm(amount, ty, &t.defence, t.environment);
        let h = match h {
            Harm::Heal(_) if t.healing_blocked || t.downed => Harm::Nothing,
            other => other,
        };
        self.apply_harm(cat, who, h, ev);
    }

    /// Put a status on the figure's track (L662, L688-692), unless immune.
    pub fn give_status(&mut self, cat: &Catalogue, who: Who, g: StatusGrant, ev: &mut Vec<Ev>) {
        if self.immune_statuses(cat, who).contains(&g.status)
            || (g.status == Status::KnockedDown && self.immovable(cat, who))
        {
            return;
        }
        let track = match who {
            Who::Origin(s) => &mut self.origins[s as usize].track,
            Who::Enemy(id) => match self.enemy_mut(id) {
                Some(e) => &mut e.track,
                None => return,
            },
        };
        let slot = match track.apply_status(g.status, g.cooldown) {
            Applied::New { slot } | Applied::Unchanged { slot } => slot,
            Applied::Extended { to, .. } => to,
        };
        ev.push(Ev::StatusGained { who, status: g.status, slot });
    }

    pub fn remove_status(&mut self, who: Who, s: Status, ev: &mut Vec<Ev>) {
        let track = match who {
            Who::Origin(seat) => &mut self.origins[seat as usize].track,
            Who::Enemy(id) => match self.enemy_mut(id) {
                Some(e) => &mut e.track,
                None => return,
            },
        };
        if track.take(&CardRef::Status(s)).is_some() {
            ev.push(Ev::StatusCleared { who, status: s });
        }
    }

    /// The statuses with a start-of-turn effect on the figure, in track order.
    pub fn turn_start_effects(&self, cat: &Catalogue, who: Who) -> Vec<Status> {
        self.statuses_of(who).into_iter().filter(|s| cat.statuses.get(*s).start_of_turn.is_some()).collect()
    }

    /// Start-of-turn effects, before anything else (L682), in track order.
    pub fn start_of_turn(&mut self, cat: &Catalogue, who: Who, ev: &mut Vec<Ev>) {
        let order = self.turn_start_effects(cat, who);
        self.start_of_turn_in(cat, who, &order, ev);
    }

    /// Start-of-turn effects in a chosen order (L684): each status' damage;
    /// the rest are lost once an enemy is defeated.
    pub fn start_of_turn_in(&mut self, cat: &Catalogue, who: Who, order: &[Status], ev: &mut Vec<Ev>) {
        for &s in order {
            if let Some(d) = cat.statuses.get(s).start_of_turn {
                if self.space_of(who).is_none() {
                    return;
                }
                self.damage(cat, who, d.amount, d.ty, ev);
            }
        }
    }

    /// `order` names each of the figure's start-of-turn effects once (L684).
    pub fn check_turn_start_order(&self, cat: &Catalogue, who: Who, order: &[Status]) -> Result<(), RuleError> {
        let mut want = self.turn_start_effects(cat, who);
        let mut got = order.to_vec();
        want.sort_unstable();
        got.sort_unstable();
        if want != got {
            return Err(RuleError::of(
                DivinityRefusal::BadTurnStartOrder,
                format!("name each start-of-turn effect once, in the order to resolve them: {want:?} (L684)"),
            ));
        }
        Ok(())
    }

    /// The figure has several start-of-turn effects and their order changes
    /// the outcome: each order is tried on a copy of the table.
    pub fn turn_start_order_matters(&self, cat: &Catalogue, who: Who) -> bool {
        let effects = self.turn_start_effects(cat, who);
        if effects.len() < 2 {
            return false;
        }
        let outcome = |order: &[Status]| {
            let mut s = self.clone();
            s.start_of_turn_in(cat, who, order, &mut Vec::new());
            s
        };
        let first = outcome(&effects);
        permutations(&effects).iter().skip(1).any(|p| outcome(p) != first)
    }

    /// A discarded item or rune goes to the bottom of its deck (L1056).
    pub fn discard_item(&mut self, cat: &Catalogue, seat: Seat, item: &str, ev: &mut Vec<Ev>) {
        self.to_deck_bottom(cat, item);
        ev.push(Ev::ItemDiscarded { seat, item: item.to_string() });
    }

    /// Put a card back at the bottom of its deck (L1056, L1358).
    pub fn to_deck_bottom(&mut self, cat: &Catalogue, item: &str) {
        if let Some(d) = super::state::item_deck(cat, item) {
            self.item_decks.entry(d).or_default().push(item.to_string());
        }
    }

    /// A new item (L1039, L1056): the finder takes it if it has room, else
    /// another Origin who may take it and has room; it is equipped when it
    /// fits, else stored. When none of them has room the party must choose
    /// (`PlaceItem`): the item waits in [`DivinityState::overflow`].
    pub fn gain_item(&mut self, cat: &Catalogue, group: &[Seat], item: &str, ev: &mut Vec<Ev>) {
        let takers = self.takers(group);
        match takers.iter().copied().find(|&s| self.has_room(cat, s, item)) {
            Some(s) => {
                ev.push(Ev::ItemGained { seat: Some(s), item: item.to_string() });
                self.place_item(cat, s, item);
            }
            None => {
                ev.push(Ev::NoRoom { item: item.to_string(), takers: takers.clone() });
                self.overflow.push(super::state::Overflow { item: item.to_string(), takers });
            }
        }
    }

    /// Who may take an item the group found: the group and every Origin in
    /// its space (the whole party after a combat), finder first, never a
    /// downed Origin (L747, L1039).
    fn takers(&self, group: &[Seat]) -> Vec<Seat> {
        let spaces: Vec<_> = group.iter().map(|&s| self.origins[s as usize].space).collect();
        let mut v: Vec<Seat> = group.iter().copied().filter(|&s| !self.origins[s as usize].downed).collect();
        for s in self.standing() {
            if !v.contains(&s) && spaces.contains(&self.origins[s as usize].space) {
                v.push(s);
            }
        }
        v
    }

    /// The Origin can equip or store the item (L1056).
    pub(super) fn has_room(&self, cat: &Catalogue, s: Seat, item: &str) -> bool {
        let o = &self.origins[s as usize];
        if o.backpack.len() < super::state::BACKPACK {
            return true;
        }
        let kind = cat.items.get(item).map(|i| i.kind);
        matches!(kind, Some(ItemKind::Equipment(_))) && super::state::Slots::of(cat, &o.equipped).with(kind).fit()
    }

    /// Equip the item if it fits, else store it; the caller checked the room.
    pub(super) fn place_item(&mut self, cat: &Catalogue, s: Seat, item: &str) {
        let o = &mut self.origins[s as usize];
        let mut with = o.equipped.clone();
        with.push(item.to_string());
        let equip = cat.items.get(item).is_some_and(|i| matches!(i.kind, ItemKind::Equipment(_)));
        if equip && super::state::fits(cat, &with) {
            o.equipped.push(item.to_string());
        } else {
            o.backpack.push(item.to_string());
        }
    }
}

/// Every order of `items`, the given one first.
fn permutations(items: &[Status]) -> Vec<Vec<Status>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let head = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, head);
            out.push(p);
        }
    }
    out
}
