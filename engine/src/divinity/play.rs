//! Playing a card (L470-560, L1500-1560): skills, item actions, consumables
//! and summons: its cost, aim, limits and what it leaves on the track.

use super::action::{Aim, CardUse};
use super::attack::{Attack, Outcome, Targets};
use super::content::{Catalogue, ItemKind, Mover, SkillMove};
use super::cooldown::{CardRef, TrackCard};
use super::damage::DamageType;
use super::err;
use super::event::DivinityEvent as Ev;
use super::map::SpaceIx;
use super::state::*;
use super::used::Used;
use crate::divinity::DivinityRefusal;
use crate::{RuleError, Seat};

/// Where a card is aimed, with the picks the rules leave to its user.
#[derive(Debug, Clone, Copy)]
pub(super) struct Aiming<'a> {
    pub aim: &'a Aim,
    /// With several auras on a physical attack, the one that resolves first (L883).
    pub first_aura: Option<&'a str>,
    /// An area card on the user's own space includes the user (L1546);
    /// None: the card's default.
    pub include_self: Option<bool>,
}

/// What using a card costs and leaves behind.
struct Play {
    attack: Option<Attack>,
    /// Rolls of the attack: more than one for a weapon skill.
    rolls: u32,
    /// A weapon skill also spends the weapon's once-per-round use.
    weapon: Option<String>,
    ap: u32,
    source: u32,
    label: String,
    revives: Option<u32>,
}

/// What [`DivinityState::check_card`] finds a card's use takes, nothing
/// cloned yet: the legal list reads it without making a [`Play`].
struct Terms<'a> {
    attack: Option<AttackFrom<'a>>,
    rolls: u32,
    weapon: Option<&'a str>,
    ap: u32,
    source: u32,
    label: &'a str,
    revives: Option<u32>,
}

/// Where a card's attack is printed.
#[derive(Clone, Copy)]
enum AttackFrom<'a> {
    /// On the card itself.
    Printed(&'a Attack),
    /// An equipped item's (its rune may change the damage type); a weapon
    /// skill's roll adds the level bonus.
    Item { id: &'a str, weapon_skill: bool },
}

/// What the checks of an aim read of an attack: whom it targets, how far.
#[derive(Clone, Copy)]
struct Reach {
    targets: Targets,
    range: u32,
}

impl Reach {
    fn of(a: &Attack) -> Reach {
        Reach { targets: a.targets, range: a.range }
    }
}

/// A card judged for the legal list at every aim
/// ([`DivinityState::use_judge`]).
pub(super) struct UseJudge {
    attack: Option<Reach>,
    revives: bool,
    movement: Option<SkillMove>,
    rest: bool,
}

/// An aim with its space looked up, as the checks of an aim read it: the
/// legal list makes these from the map's indices, so that no space id is
/// cloned into an aim, nor compared, before a use is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Spot {
    Origin(Seat),
    Enemy(u32),
    /// An aimed space; None: no space of the map has that id.
    Space(Option<SpaceIx>),
}

impl Spot {
    fn who(self) -> Option<Who> {
        match self {
            Spot::Origin(s) => Some(Who::Origin(s)),
            Spot::Enemy(e) => Some(Who::Enemy(e)),
            Spot::Space(_) => None,
        }
    }
}

/// A use of a card the rules accept, as [`DivinityState::check_use`] judged
/// it: everything [`DivinityState::use_card`] needs to carry it out.
struct Checked {
    play: Play,
    /// Who a movement skill moves, where, and how many spaces its path is.
    moving: Option<(Who, SpaceIx, u32)>,
    targets: (Vec<Who>, SpaceIx),
    rest: bool,
}

impl DivinityState {
    /// Use a skill, item, consumable or summon (L1584): pay, roll, and wait
    /// for rerolls. In a Rest round one card is free (L360).
    pub(super) fn use_card(
        &mut self,
        cat: &Catalogue,
        seat: Seat,
        card: &CardUse,
        aiming: Aiming<'_>,
        ev: &mut Vec<Ev>,
    ) -> Result<(), RuleError> {
        let Checked { play, moving, targets, rest } = self.check_use(cat, seat, card, aiming)?;
        // Pay (judged affordable above).
        if play.source > 0 {
            self.origins[seat as usize].source -= play.source;
        } else if rest {
            self.rest_step(seat, RestStep::UseCard)?;
        } else {
            self.spend_ap(seat, play.ap)?;
        }
        self.used.insert(Used::card(seat, &play.label), self.round);
        if let Some(w) = &play.weapon {
            self.used.insert(Used::card(seat, w), self.round);
        }
        self.after_use(cat, seat, card, ev);
        if let Some((who, to, spaces)) = moving {
            match who {
                Who::Origin(s) => self.origins[s as usize].space = to,
                Who::Enemy(e) => self.enemy_mut(e).expect("checked enemy").space = to,
            }
            ev.push(Ev::Moved { who, to: self.space_id(cat, to) });
            // A skill's move is moving along a path, only its AP waived
            // (L907): BLEEDING hurts once per space, as on a walk (L674).
            for _ in 0..spaces {
                if self.space_of(who).is_none() || matches!(who, Who::Origin(s) if self.origins[s as usize].downed) {
                    break;
                }
                self.bleed_on_move(cat, who, ev);
            }
        }
        if let Some(n) = play.revives {
            if let Some(Who::Origin(t)) = targets.0.first() {
                let max = self.max_hp(cat, Who::Origin(*t));
                let o = &mut self.origins[*t as usize];
                o.downed = false;
                o.hp = n.min(max);
                ev.push(Ev::Revived { seat: *t, hp: self.origins[*t as usize].hp });
            }
            return Ok(());
        }
        if let Some(mut a) = play.attack {
            // After the move and the card's own placing: an aura is where
            // the user stands now, and may be the card just played.
            if let Some(ty) = self.aura_for(cat, seat, &a, aiming.first_aura)? {
                a.outcome = Outcome::Damage { damage_type: ty };
            }
            let shot =
                Shot { attack: a, targets: targets.0, space: targets.1, label: play.label, repeat: play.rolls - 1 };
            self.roll_attack(cat, seat, shot, ev);
        }
        Ok(())
    }

    /// The checks of a card's use, in the order the rules give their
    /// refusals: whose turn, the card, its aim, then whether it is paid for.
    fn check_use(&self, cat: &Catalogue, seat: Seat, card: &CardUse, aiming: Aiming<'_>) -> Result<Checked, RuleError> {
        let Aiming { aim, include_self, .. } = aiming;
        let (play, rest) = self.check_card(cat, seat, card)?;
        let movement = match card {
            CardUse::Skill(id) => cat.skills[id].movement,
            _ => None,
        };
        let moving = match movement {
            Some(m) => Some(self.skill_move(cat, seat, m, aim, rest, None)?),
            None => None,
        };
        let targets = match &play.attack {
            Some(a) => self.aim(cat, seat, a, aim, play.revives.is_some(), include_self)?,
            None => (Vec::new(), self.origins[seat as usize].space),
        };
        self.check_paid(seat, &play, rest)?;
        Ok(Checked { play, moving, targets, rest })
    }

    /// The checks of [`Self::check_use`] before the aim: whose turn, the
    /// card, and its limits; what playing it takes, and whether this is a
    /// Rest turn.
    fn check_card(&self, cat: &Catalogue, seat: Seat, card: &CardUse) -> Result<(Play, bool), RuleError> {
        let (t, rest) = self.card_terms(cat, seat, card)?;
        let attack = t.attack.map(|from| match from {
            AttackFrom::Printed(a) => a.clone(),
            AttackFrom::Item { id, weapon_skill } => {
                let mut attack = self.item_attack(cat, seat, id);
                if weapon_skill {
                    attack.level_bonus = true;
                }
                attack
            }
        });
        let play = Play {
            attack,
            rolls: t.rolls,
            weapon: t.weapon.map(str::to_string),
            ap: t.ap,
            source: t.source,
            label: t.label.to_string(),
            revives: t.revives,
        };
        Ok((play, rest))
    }

    /// [`Self::check_card`]'s checks, and what the use takes, borrowed.
    fn card_terms<'a>(
        &'a self,
        cat: &'a Catalogue,
        seat: Seat,
        card: &'a CardUse,
    ) -> Result<(Terms<'a>, bool), RuleError> {
        let rest = matches!(self.phase, Phase::Rest { .. });
        if rest {
            self.rest_turn_of(seat)?;
        } else {
            self.ensure_turn(seat)?;
        }
        if self.has_status(cat, Who::Origin(seat), |r| r.blocks_attacks) {
            return Err(err(DivinityRefusal::CannotAct, "a status stops this Origin using cards"));
        }
        // Asked only for a card that needs one, without building the set
        // (the legal list checks every card at every aim).
        let has_keyword = |k: &str| self.has_keyword(cat, seat, k);
        let o = &self.origins[seat as usize];
        let play = match card {
            CardUse::Skill(id) => {
                if !o.hand.contains(id) {
                    return Err(err(DivinityRefusal::NotInHand, format!("{id} is not in hand")));
                }
                let s = &cat.skills[id];
                if let Some(k) = &s.requires {
                    if !has_keyword(k) {
                        return Err(err(DivinityRefusal::NeedsKeyword, format!("{id} needs an equipped {k} (L790)")));
                    }
                }
                if s.source > 0 && !o.collar_broken {
                    return Err(err(DivinityRefusal::CollarIntact, "Source skills need a broken collar (L518)"));
                }
                match s.weapon {
                    None => Terms {
                        attack: s.attack.as_ref().map(AttackFrom::Printed),
                        rolls: 1,
                        weapon: None,
                        ap: s.ap,
                        source: s.source,
                        label: id,
                        revives: None,
                    },
                    Some(w) => {
                        let weapon = o
                            .equipped
                            .iter()
                            .find(|i| {
                                let d = &cat.items[*i];
                                d.kind == ItemKind::Equipment(w.slot)
                                    && d.action.as_ref().is_some_and(|a| !w.melee || a.attack.range == 0)
                            })
                            .ok_or_else(|| {
                                err(
                                    DivinityRefusal::NeedsWeapon,
                                    format!("{id} needs an equipped {:?} weapon (L864)", w.slot),
                                )
                            })?;
                        let a = cat.items[weapon].action.as_ref().expect("weapon action");
                        self.check_action_limits(seat, weapon, a.per_round, a.requires.as_deref(), has_keyword)?;
                        let rolls = if a.per_round.is_some() { 1 } else { w.attacks };
                        Terms {
                            attack: Some(AttackFrom::Item { id: weapon, weapon_skill: true }),
                            rolls,
                            weapon: Some(weapon),
                            ap: s.ap,
                            source: s.source,
                            label: id,
                            revives: None,
                        }
                    }
                }
            }
            CardUse::Item(id) => {
                if !o.equipped.contains(id) {
                    return Err(err(DivinityRefusal::NotEquipped, format!("{id} is not equipped")));
                }
                let a = cat.items[id]
                    .action
                    .as_ref()
                    .ok_or_else(|| err(DivinityRefusal::NoAction, "this item has no action"))?;
                self.check_action_limits(seat, id, a.per_round, a.requires.as_deref(), has_keyword)?;
                Terms {
                    attack: Some(AttackFrom::Item { id, weapon_skill: false }),
                    rolls: 1,
                    weapon: None,
                    ap: a.ap,
                    source: 0,
                    label: id,
                    revives: None,
                }
            }
            CardUse::Consumable(id) => {
                if !o.backpack.contains(id) {
                    return Err(err(DivinityRefusal::NotCarried, format!("{id} is not in the backpack")));
                }
                let d = cat
                    .items
                    .get(id)
                    .filter(|d| matches!(d.kind, ItemKind::Consumable(_)))
                    .ok_or_else(|| err(DivinityRefusal::NotConsumable, format!("{id} is not a consumable")))?;
                let a =
                    d.action.as_ref().ok_or_else(|| err(DivinityRefusal::NoAction, "this consumable has no action"))?;
                self.check_action_limits(seat, id, a.per_round, a.requires.as_deref(), has_keyword)?;
                Terms {
                    attack: Some(AttackFrom::Printed(&a.attack)),
                    rolls: 1,
                    weapon: None,
                    ap: a.ap,
                    source: 0,
                    label: id,
                    revives: d.revives,
                }
            }
            CardUse::Summon => {
                let s = o.summon.as_deref().ok_or_else(|| err(DivinityRefusal::NoSummon, "no active summon"))?;
                let a = &cat.summons[s].action;
                self.check_action_limits(seat, s, a.per_round, a.requires.as_deref(), has_keyword)?;
                Terms {
                    attack: Some(AttackFrom::Printed(&a.attack)),
                    rolls: 1,
                    weapon: None,
                    ap: a.ap,
                    source: 0,
                    label: s,
                    revives: None,
                }
            }
        };
        Ok((play, rest))
    }

    /// The last check of [`Self::check_use`]: is the play paid for?
    fn check_paid(&self, seat: Seat, play: &Play, rest: bool) -> Result<(), RuleError> {
        if play.source > 0 {
            if self.origins[seat as usize].source < play.source {
                return Err(err(DivinityRefusal::NotEnoughSource, "not enough Source"));
            }
        } else if rest {
            self.rest_step_allowed(seat, RestStep::UseCard)?;
        } else {
            self.ap_allowed(seat, play.ap)?;
        }
        Ok(())
    }

    /// Whether the rules accept uses of one card at many aims with the
    /// default aura (no `first_aura`) and the default `include_self`,
    /// judged from the state without changing it: every refusal of such a
    /// use comes from [`Self::check_use`] (only a named aura is checked
    /// later, where the card has been played), so the legal list asks this
    /// instead of trying each card at each aim on a copy. The checks that
    /// do not depend on the aim (whose turn, the card, its limits, whether
    /// it is paid for) are made here, once; None when they refuse the card
    /// at any aim. Each aim then is [`Self::judge_use_at`]'s: the checks of
    /// `check_use`, in another order, which changes no answer.
    pub(super) fn use_judge(&self, cat: &Catalogue, seat: Seat, card: &CardUse) -> Option<UseJudge> {
        let (play, rest) = self.card_terms(cat, seat, card).ok()?;
        // `check_paid`'s answer, with no refusal written.
        let o = &self.origins[seat as usize];
        let paid = if play.source > 0 {
            o.source >= play.source
        } else if rest {
            self.rest_step_allowed(seat, RestStep::UseCard).is_ok()
        } else {
            o.ap >= play.ap
        };
        if !paid {
            return None;
        }
        let movement = match card {
            CardUse::Skill(id) => cat.skills[id].movement,
            _ => None,
        };
        // A rune changes an item's damage type, not whom it reaches.
        let attack = play.attack.map(|from| match from {
            AttackFrom::Printed(a) => Reach::of(a),
            AttackFrom::Item { id, .. } => Reach::of(&cat.items[id].action.as_ref().expect("item action").attack),
        });
        Some(UseJudge { revives: play.revives.is_some(), attack, movement, rest })
    }

    /// Whether the card `judge` judged is accepted at `aim` (the default
    /// aura and whom an area includes); `near`: the distances from the
    /// user's space, as `Graph::distances` gives them (the same for every
    /// card and aim of a list).
    pub(super) fn judge_use_at(
        &self,
        cat: &Catalogue,
        seat: Seat,
        judge: &UseJudge,
        aim: Spot,
        near: &[Option<u32>],
    ) -> bool {
        if let Some(m) = judge.movement {
            if self.skill_path(cat, seat, m, aim, judge.rest, Some(near)).is_err() {
                return false;
            }
        }
        match judge.attack {
            Some(a) => self.aim_space(cat, seat, a, aim, judge.revives, Some(near)).is_ok(),
            None => true,
        }
    }

    /// `aim` with its space looked up.
    fn spot(&self, cat: &Catalogue, aim: &Aim) -> Spot {
        match aim {
            Aim::Origin(s) => Spot::Origin(*s),
            Aim::Enemy(e) => Spot::Enemy(*e),
            Aim::Space(id) => Spot::Space(self.space_ix(cat, id)),
        }
    }

    /// Who a movement skill moves and where (L905-907): the user to an aimed
    /// space within range, or an aimed ally or enemy within range into the
    /// user's space. Spaces cost no AP and DIFFICULT TERRAIN is ignored
    /// (L907); locked paths and spaces can't be crossed (L1092, L1100);
    /// immovable targets can't be moved (L708, L1829); a status that stops
    /// moving stops the user (G32); a downed Origin can't be moved by a skill.
    /// `near`: the distances from the user's space when they are at hand.
    fn skill_move(
        &self,
        cat: &Catalogue,
        seat: Seat,
        m: SkillMove,
        aim: &Aim,
        rest: bool,
        near: Option<&[Option<u32>]>,
    ) -> Result<(Who, SpaceIx, u32), RuleError> {
        self.skill_path(cat, seat, m, self.spot(cat, aim), rest, near).map_err(|miss| miss.error(aim))
    }

    /// [`Self::skill_move`]'s checks, a refusal's message left unwritten
    /// (the legal list asks many aims that are refused).
    fn skill_path(
        &self,
        cat: &Catalogue,
        seat: Seat,
        m: SkillMove,
        aim: Spot,
        rest: bool,
        near: Option<&[Option<u32>]>,
    ) -> Result<(Who, SpaceIx, u32), Miss> {
        let here = self.origins[seat as usize].space;
        let (who, from, to) = match (m.mover, aim) {
            (Mover::User, Spot::Space(to)) => {
                let to = to.ok_or(Miss::NoSpace)?;
                if self.has_status(cat, Who::Origin(seat), |r| r.blocks_moving) {
                    return Err(Miss::Says(DivinityRefusal::CannotMove, "a status stops this Origin moving (G32)"));
                }
                (Who::Origin(seat), here, to)
            }
            (Mover::User, _) => {
                return Err(Miss::Says(DivinityRefusal::AimASpace, "this skill moves you: aim at a space"))
            }
            (Mover::Target, Spot::Space(_)) => {
                return Err(Miss::Says(DivinityRefusal::AimAFigure, "this skill moves an ally or an enemy: aim at one"))
            }
            (Mover::Target, a) => {
                let who = a.who().expect("a figure");
                let from = self.space_of(who).ok_or(Miss::Says(DivinityRefusal::NoSuchTarget, "no such figure"))?;
                if let Who::Origin(s) = who {
                    if s == seat || self.origins[s as usize].downed {
                        return Err(Miss::Says(
                            DivinityRefusal::BadTarget,
                            "the skill moves another Origin who is not downed (L747)",
                        ));
                    }
                }
                if self.immovable(cat, who) {
                    return Err(Miss::Says(
                        DivinityRefusal::Immovable,
                        "an immovable target can't be moved (L708, L1829)",
                    ));
                }
                (who, from, here)
            }
        };
        if from == to {
            return Err(Miss::Says(DivinityRefusal::NoMove, "the figure is already there"));
        }
        if rest && self.loc(cat).map.spaces[to].tactical() {
            return Err(Miss::Says(
                DivinityRefusal::TacticalSpace,
                "only combat lets a figure stop in a tactical space (L1116)",
            ));
        }
        // From the user's space, or back to it: a path is walked the same
        // both ways when both ends may be entered (only entering a locked
        // space is barred).
        let d = match near {
            Some(near) if from == here => near[to],
            Some(near) if to == here && self.space_open(cat, from) && self.space_open(cat, here) => near[from],
            _ => self.with_graph(cat, |g| g.distance(from, to)),
        };
        match d {
            Some(d) if d <= m.range => Ok((who, to, d)),
            Some(_) => Err(Miss::MovesUpTo(m.range)),
            None => Err(Miss::Says(DivinityRefusal::Unreachable, "no unlocked path leads there (L1092, L1100)")),
        }
    }

    /// An equipped item's attack, with the damage type its rune gives (L1070).
    pub(super) fn item_attack(&self, cat: &Catalogue, seat: Seat, id: &str) -> Attack {
        let o = &self.origins[seat as usize];
        let mut attack = cat.items[id].action.as_ref().expect("item action").attack.clone();
        for r in o.runes.iter().filter(|r| r.item == id) {
            if let (Some(ty), Outcome::Damage { .. }) = (cat.runes[&r.rune].sides[r.side].damage_type, attack.outcome) {
                attack.outcome = Outcome::Damage { damage_type: ty };
            }
        }
        attack
    }

    /// Auras of Origins in the attacker's space turn a physical attack into
    /// their type. With several, the attacker picks the one that resolves
    /// first, and the attack is then no longer physical (L883-887); by
    /// default its own aura, then the lowest seat's.
    pub(super) fn aura_for(
        &self,
        cat: &Catalogue,
        seat: Seat,
        a: &Attack,
        first: Option<&str>,
    ) -> Result<Option<DamageType>, RuleError> {
        if a.damage_type() != Some(DamageType::Physical) {
            return Ok(None);
        }
        let here = self.origins[seat as usize].space;
        let mut auras: Vec<(Seat, String, DamageType)> = Vec::new();
        // A downed Origin's face-up cards stay active (L743, L416).
        for (s, o) in self.origins.iter().enumerate() {
            if o.space != here {
                continue;
            }
            for c in o.track.active() {
                if let CardRef::Skill(id) = c {
                    if let Some(ty) = cat.skills[id].aura {
                        auras.push((s as Seat, id.clone(), ty));
                    }
                }
            }
        }
        auras.sort_by_key(|(s, _, _)| (*s != seat, *s));
        match first {
            Some(f) => auras
                .iter()
                .find(|(_, id, _)| id == f)
                .map(|(_, _, ty)| Some(*ty))
                .ok_or_else(|| err(DivinityRefusal::NoSuchAura, format!("no active {f} in your space"))),
            None => Ok(auras.first().map(|(_, _, ty)| *ty)),
        }
    }

    pub(super) fn check_action_limits(
        &self,
        seat: Seat,
        id: &str,
        per_round: Option<u32>,
        requires: Option<&str>,
        has_keyword: impl Fn(&str) -> bool,
    ) -> Result<(), RuleError> {
        if per_round.is_some() && self.used.get(&Used::card(seat, id)) == Some(&self.round) {
            return Err(err(DivinityRefusal::OncePerRound, "this can be used once per round (L968)"));
        }
        if let Some(k) = requires {
            if !has_keyword(k) {
                return Err(err(DivinityRefusal::NeedsKeyword, format!("this needs {k}")));
            }
        }
        Ok(())
    }

    /// Who a card's roll lands on (L1543-1548): a single target in range, or
    /// everyone in a space in range except the user unless the user opts in
    /// (a healing area includes the user by default, as the Healing Grenade
    /// example does).
    pub(super) fn aim(
        &self,
        cat: &Catalogue,
        seat: Seat,
        a: &Attack,
        aim: &Aim,
        revive: bool,
        include_self: Option<bool>,
    ) -> Result<(Vec<Who>, SpaceIx), RuleError> {
        let (space, single) = self.aim_within(cat, seat, a, aim, revive, None)?;
        let targets = match single {
            Some(w) => vec![w],
            None => {
                let me_too = include_self.unwrap_or(matches!(a.outcome, Outcome::Heal { .. }));
                let mut v: Vec<Who> = (0..self.origins.len() as Seat)
                    .filter(|s| self.origins[*s as usize].space == space && (*s != seat || me_too))
                    .map(Who::Origin)
                    .collect();
                v.extend(self.enemies.iter().filter(|e| e.space == space).map(|e| Who::Enemy(e.id)));
                v
            }
        };
        Ok((targets, space))
    }

    /// The checks of [`Self::aim`], with the distances from the user's
    /// space when they are at hand (`Graph::distances`): the space aimed
    /// at and the single target, if the card has one (the legal list asks
    /// only whether the aim is accepted, not whom it lands on).
    fn aim_within(
        &self,
        cat: &Catalogue,
        seat: Seat,
        a: &Attack,
        aim: &Aim,
        revive: bool,
        distances: Option<&[Option<u32>]>,
    ) -> Result<(SpaceIx, Option<Who>), RuleError> {
        self.aim_space(cat, seat, Reach::of(a), self.spot(cat, aim), revive, distances).map_err(|miss| miss.error(aim))
    }

    /// [`Self::aim_within`]'s checks, a refusal's message left unwritten.
    fn aim_space(
        &self,
        cat: &Catalogue,
        seat: Seat,
        a: Reach,
        aim: Spot,
        revive: bool,
        distances: Option<&[Option<u32>]>,
    ) -> Result<(SpaceIx, Option<Who>), Miss> {
        let here = self.origins[seat as usize].space;
        let (space, single) = match (a.targets, aim) {
            (Targets::Single, Spot::Origin(s)) => {
                let o =
                    self.origins.get(s as usize).ok_or(Miss::Says(DivinityRefusal::NoSuchOrigin, "no such Origin"))?;
                if revive && !o.downed {
                    return Err(Miss::Says(DivinityRefusal::NotDowned, "this revives a downed Origin"));
                }
                (o.space, Some(Who::Origin(s)))
            }
            (Targets::Single, Spot::Enemy(e)) if !revive => {
                let e = self.enemy(e).ok_or(Miss::Says(DivinityRefusal::NoSuchEnemy, "no such enemy"))?;
                (e.space, Some(Who::Enemy(e.id)))
            }
            (Targets::Area, Spot::Space(ix)) => (ix.ok_or(Miss::NoSpace)?, None),
            _ => {
                return Err(Miss::Says(
                    DivinityRefusal::BadAim,
                    "aim a single-target card at someone and an area card at a space",
                ))
            }
        };
        let further: u32 = match a.targets {
            Targets::Area => self.origins[seat as usize]
                .talents
                .iter()
                .filter_map(|t| cat.talents.get(t))
                .map(|t| t.area_range)
                .sum(),
            Targets::Single => 0,
        };
        let range = a.range + further;
        let d = match distances {
            Some(d) => d[space],
            None => self.with_graph(cat, |g| g.distance(here, space)),
        };
        if d.is_none_or(|d| d > range) {
            return Err(Miss::Beyond(range));
        }
        Ok((space, single))
    }

    /// After paying: skills go on cooldown (face up if ongoing), a summon
    /// takes the slot, consumables are spent or go on the track (L784, L992).
    fn after_use(&mut self, cat: &Catalogue, seat: Seat, card: &CardUse, ev: &mut Vec<Ev>) {
        let o = &mut self.origins[seat as usize];
        match card {
            CardUse::Skill(id) => {
                let s = &cat.skills[id];
                o.hand.retain(|x| x != id);
                let ongoing = s.flip_at.is_some() || s.ongoing != Default::default() || s.summon.is_some();
                let tc = TrackCard { card: CardRef::Skill(id.clone()), face_up: ongoing, flip_at: s.flip_at };
                if let Some(back) = o.track.place(tc, s.cooldown) {
                    if let CardRef::Skill(id) = back.card {
                        o.hand.push(id);
                    }
                }
                if let Some(m) = &s.summon {
                    o.summon = Some(m.clone());
                }
            }
            CardUse::Consumable(id) => {
                let i = o.backpack.iter().position(|x| x == id).expect("checked");
                o.backpack.remove(i);
                match cat.items[id].ongoing_slot {
                    Some(slot) => {
                        o.track.place(
                            TrackCard { card: CardRef::Consumable(id.clone()), face_up: true, flip_at: None },
                            slot,
                        );
                    }
                    None => self.discard_item(cat, seat, id, ev),
                }
            }
            CardUse::Item(_) | CardUse::Summon => {}
        }
    }
}

/// A refusal of an aim or of a skill's move, as [`DivinityState::aim_space`]
/// and [`DivinityState::skill_path`] find it: the message is written only
/// when the refusal is returned ([`Miss::error`]), not for each of the
/// legal list's refused aims.
enum Miss {
    Says(DivinityRefusal, &'static str),
    /// The aimed space does not exist.
    NoSpace,
    /// The target is beyond this range.
    Beyond(u32),
    /// A skill moves up to this many spaces.
    MovesUpTo(u32),
}

impl Miss {
    /// The refusal, its message as the checks wrote it.
    fn error(self, aim: &Aim) -> RuleError {
        match self {
            Miss::Says(code, m) => err(code, m),
            Miss::NoSpace => {
                let id = match aim {
                    Aim::Space(id) => id.as_str(),
                    _ => "",
                };
                err(DivinityRefusal::NoSuchSpace, format!("no space {id}"))
            }
            Miss::Beyond(range) => err(DivinityRefusal::OutOfRange, format!("the target is beyond range {range}")),
            Miss::MovesUpTo(range) => err(DivinityRefusal::OutOfRange, format!("the skill moves up to {range} spaces")),
        }
    }
}
