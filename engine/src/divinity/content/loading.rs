//! Reading the content files once and checking them: every id known, every
//! card effect one the engine can carry out.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::Deserialize;

use super::MinionCard;
use super::*;
use crate::divinity::dice::DiceTable;
use crate::divinity::status::StatusRules;

macro_rules! content {
    ($f:literal) => {
        include_str!(concat!("../../../../content/divinity/", $f))
    };
}

/// The player-facing reference files ([`crate::Ruleset::CATALOGUE`]): the
/// Origins, their skills, talents, items, runes, statuses and dice. Not the
/// locations, journal or enemies, which the game reveals as play finds them.
pub const CATALOGUE: &[(&str, &str)] = &[
    ("origins", content!("origins.json")),
    ("skills", content!("skills.json")),
    ("talents", content!("talents.json")),
    ("items", content!("items.json")),
    ("runes", content!("runes.json")),
    ("statuses", content!("statuses.json")),
    ("dice", content!("dice.json")),
];

const LOCATIONS: [&str; 5] = [
    content!("locations/tutorial.json"),
    content!("locations/shipwreck.json"),
    content!("locations/fort_joy.json"),
    content!("locations/hollow_marshes.json"),
    content!("locations/temple.json"),
];

fn parse<T: for<'de> Deserialize<'de>>(name: &str, text: &str) -> Result<T, ContentError> {
    serde_json::from_str(text).map_err(|e| ContentError(format!("{name}: {e}")))
}

fn by_id<T>(items: Vec<T>, id: impl Fn(&T) -> &str, what: &str) -> Result<BTreeMap<String, T>, ContentError> {
    let mut out = BTreeMap::new();
    for it in items {
        let k = id(&it).to_string();
        if out.insert(k.clone(), it).is_some() {
            return Err(ContentError(format!("duplicate {what} {k}")));
        }
    }
    Ok(out)
}

/// A combat card's special end condition must be one the card can meet:
/// rounds to survive, an enemy the card itself always spawns (at every
/// player count), a space of the map.
fn check_combat_end(l: &LocationDef, c: &LocationCard, end: &CombatEnd) -> Result<(), String> {
    match end {
        CombatEnd::Rounds { rounds: 0 } => Err("survive 0 rounds".into()),
        CombatEnd::Rounds { .. } => Ok(()),
        CombatEnd::Defeated { enemy } => {
            let spawned = c.effects.iter().chain(&c.when_explored).any(|e| match e {
                CardEffect::Spawn { rows } => {
                    rows.iter().any(|r| &r.minion == enemy && r.counts.iter().all(|n| n.fast + n.slow > 0))
                }
                CardEffect::SpawnBoss { boss } => boss == enemy,
                _ => false,
            });
            if spawned {
                Ok(())
            } else {
                Err(format!("the card does not spawn {enemy} at every player count"))
            }
        }
        CombatEnd::Reach { space } => l.map.ix(space).map(|_| ()).ok_or(format!("unknown space {space}")),
    }
}

impl Catalogue {
    /// The shipped content, parsed once.
    pub fn standard() -> &'static Catalogue {
        static CAT: OnceLock<Catalogue> = OnceLock::new();
        CAT.get_or_init(|| Catalogue::load().expect("shipped divinity content is valid"))
    }

    /// # Errors
    /// Any malformed file, duplicate id or dangling reference.
    pub fn load() -> Result<Catalogue, ContentError> {
        let dice: DiceTable = parse("dice.json", content!("dice.json"))?;
        dice.validate().map_err(ContentError)?;
        let statuses: StatusRules = parse("statuses.json", content!("statuses.json"))?;
        statuses.validate().map_err(ContentError)?;
        let cat = Catalogue {
            dice,
            statuses,
            minions: by_id(parse::<Vec<MinionCard>>("minions.json", content!("minions.json"))?, |m| &m.id, "minion")?,
            origins: by_id(parse::<Vec<OriginDef>>("origins.json", content!("origins.json"))?, |m| &m.id, "origin")?,
            talents: by_id(parse::<Vec<TalentDef>>("talents.json", content!("talents.json"))?, |m| &m.id, "talent")?,
            skills: by_id(parse::<Vec<SkillDef>>("skills.json", content!("skills.json"))?, |m| &m.id, "skill")?,
            items: by_id(parse::<Vec<ItemDef>>("items.json", content!("items.json"))?, |m| &m.id, "item")?,
            runes: by_id(parse::<Vec<RuneDef>>("runes.json", content!("runes.json"))?, |m| &m.id, "rune")?,
            summons: by_id(parse::<Vec<SummonDef>>("summons.json", content!("summons.json"))?, |m| &m.id, "summon")?,
            bosses: by_id(parse::<Vec<BossDef>>("bosses.json", content!("bosses.json"))?, |m| &m.id, "boss")?,
            locations: by_id(
                LOCATIONS.iter().map(|t| parse::<LocationDef>("location", t)).collect::<Result<Vec<_>, _>>()?,
                |m| &m.id,
                "location",
            )?,
            journal: by_id(
                parse::<Vec<JournalCard>>("journal.json", content!("journal.json"))?
                    .into_iter()
                    .map(|j| (j.id.to_string(), j))
                    .collect(),
                |(k, _)| k,
                "journal card",
            )?
            .into_values()
            .map(|(_, j)| (j.id, j))
            .collect(),
            campaign: parse("campaign.json", content!("campaign.json"))?,
        };
        cat.validate()?;
        // Valid maps: each location's index built now rather than mid-game.
        for l in cat.locations.values() {
            l.map_index();
        }
        Ok(cat)
    }

    /// Every cross-reference and every constraint the book puts on content.
    ///
    /// # Errors
    /// The first dangling reference or broken constraint, in words.
    pub fn validate(&self) -> Result<(), ContentError> {
        self.validate_people().map_err(ContentError)?;
        self.validate_locations().map_err(ContentError)?;
        self.validate_campaign().map_err(ContentError)
    }

    fn validate_people(&self) -> Result<(), String> {
        let mut starting_talents = BTreeSet::new();
        for o in self.origins.values() {
            let first = o.levels.first().ok_or(format!("origin {} has no levels", o.id))?;
            for s in &o.skills {
                let sk = self.skills.get(s).ok_or(format!("origin {}: unknown skill {s}", o.id))?;
                if sk.level != 1 || sk.school == School::Source {
                    return Err(format!("origin {}: starting skill {s} is not a level-1 school skill", o.id));
                }
                if let Some(k) = &sk.requires {
                    let has = o.items.iter().any(|i| self.items.get(i).is_some_and(|it| it.bonus.keywords.contains(k)));
                    if !has {
                        return Err(format!(
                            "origin {}: starting skill {s} needs {k} and no starting item gives it",
                            o.id
                        ));
                    }
                }
            }
            for s in &o.source_skills {
                let sk = self.skills.get(s).ok_or(format!("origin {}: unknown Source skill {s}", o.id))?;
                if sk.school != School::Source || sk.source == 0 {
                    return Err(format!("origin {}: {s} is not a Source skill", o.id));
                }
            }
            for s in &o.items {
                if !self.items.contains_key(s) {
                    return Err(format!("origin {}: unknown item {s}", o.id));
                }
            }
            if o.talents.len() != first.talents as usize {
                return Err(format!(
                    "origin {}: starts with {} talents, its card shows {}",
                    o.id,
                    o.talents.len(),
                    first.talents
                ));
            }
            for s in &o.talents {
                let t = self.talents.get(s).ok_or(format!("origin {}: unknown talent {s}", o.id))?;
                if t.level > 1 {
                    return Err(format!("origin {}: starting talent {s} is above level 1", o.id));
                }
                // One tile of each talent (L561): starting kits never collide.
                if !starting_talents.insert(s.clone()) {
                    return Err(format!("talent {s} starts with two Origins"));
                }
            }
        }
        for o in self.origins.values() {
            if let Some(a) = &o.ability {
                if a.effects.is_empty() {
                    return Err(format!("origin {}: a special ability with no effect", o.id));
                }
                for e in &a.effects {
                    let bad = match e {
                        AbilityEffect::Damage { amount, .. }
                        | AbilityEffect::Heal { amount }
                        | AbilityEffect::GainAp { amount } => *amount == 0,
                        AbilityEffect::Status { cooldown, .. } => *cooldown == 0,
                        _ => false,
                    };
                    if bad {
                        return Err(format!("origin {}: a special ability effect of 0", o.id));
                    }
                }
            }
        }
        let trained: BTreeSet<School> = self.talents.values().filter_map(|t| t.training).collect();
        for s in self.skills.values() {
            if let Some(m) = &s.summon {
                if !self.summons.contains_key(m) {
                    return Err(format!("skill {}: unknown summon {m}", s.id));
                }
            }
            if s.weapon.is_some() && s.attack.is_some() {
                return Err(format!("skill {}: attacks with a weapon or with its own stats, not both", s.id));
            }
            if let Some(r) = &s.reaction {
                let other = s.attack.is_some() || s.weapon.is_some() || s.movement.is_some() || s.summon.is_some();
                if s.flip_at.is_none() || other || r.weapon.attacks == 0 {
                    return Err(format!("skill {}: a reaction is an ongoing skill of 1+ weapon attacks only", s.id));
                }
            }
            if s.aura.is_some() && s.flip_at.is_none() {
                return Err(format!("skill {}: an aura is an ongoing skill", s.id));
            }
            if s.flip_at.is_some_and(|f| f >= s.cooldown) {
                return Err(format!("skill {}: flips at or above its cooldown slot", s.id));
            }
            if let Some(m) = &s.movement {
                if m.range == 0 || s.attack.is_some() || s.weapon.is_some() || s.summon.is_some() {
                    return Err(format!("skill {}: a movement skill moves 1+ spaces and does nothing else", s.id));
                }
            }
            if (s.school == School::Source) != (s.source > 0) {
                return Err(format!("skill {}: Source skills, and only they, cost Source", s.id));
            }
            if s.level >= 3 && s.school != School::Source && !trained.contains(&s.school) {
                return Err(format!("skill {}: advanced, but its school has no training talent", s.id));
            }
        }
        for t in self.talents.values() {
            let flipped = t.gain_ap > 0
                || t.ap_on_kill > 0
                || t.survive_downing
                || t.recover_from.is_some()
                || !t.clears.is_empty();
            if flipped && !t.once_per_location {
                return Err(format!("talent {}: an effect used by flipping needs once_per_location", t.id));
            }
        }
        for i in self.items.values() {
            match i.kind {
                ItemKind::Equipment(_) if i.ongoing_slot.is_some() => {
                    return Err(format!("item {}: only consumables go on the track", i.id))
                }
                ItemKind::Consumable(_) if i.unique => return Err(format!("item {}: unique consumable", i.id)),
                _ => {}
            }
        }
        for m in self.minions.values() {
            if m.veteran.hp < m.standard.hp || m.veteran.level != m.standard.level {
                return Err(format!("minion {}: the Veteran side must be the harder side of the same minion", m.id));
            }
        }
        for b in self.bosses.values() {
            if b.tactics.is_empty() {
                return Err(format!("boss {} has no tactics", b.id));
            }
            if b.hp.windows(2).any(|w| w[0] > w[1]) {
                return Err(format!("boss {}: HP must not fall with more players", b.id));
            }
            let ids: BTreeSet<&str> = b.tactics.iter().map(|t| t.id.as_str()).collect();
            if ids.len() != b.tactics.len() {
                return Err(format!("boss {}: duplicate tactic id", b.id));
            }
            for t in &b.tactics {
                if t.targeting.is_some() != t.attack.is_some() {
                    return Err(format!(
                        "boss {} tactic {}: an attack tactic has a targeting rule and an attack",
                        b.id, t.id
                    ));
                }
                let special = t.heal > 0 || t.removes_statuses || !t.spawn.is_empty() || t.ongoing.is_some();
                if t.attack.is_none() && !special {
                    return Err(format!("boss {} tactic {}: does nothing", b.id, t.id));
                }
                if t.flip_at.is_some() != t.ongoing.is_some() || t.flip_at.is_some_and(|f| f >= t.cooldown) {
                    return Err(format!("boss {} tactic {}: an ongoing tactic flips below its slot", b.id, t.id));
                }
                for r in &t.spawn {
                    if !self.minions.contains_key(&r.minion) {
                        return Err(format!("boss {} tactic {}: unknown minion {}", b.id, t.id, r.minion));
                    }
                }
            }
        }
        Ok(())
    }

    fn validate_locations(&self) -> Result<(), String> {
        for l in self.locations.values() {
            let at = |m: String| format!("location {}: {m}", l.id);
            l.map.validate().map_err(at)?;
            if l.map.ix(&l.start).is_none() {
                return Err(at("unknown start space".into()));
            }
            let t = &l.time;
            if t.length == 0 || t.start.iter().any(|&s| s == 0 || s >= t.length) {
                return Err(at("time track starts outside it".into()));
            }
            if t.events.keys().any(|&s| s == 0 || s >= t.length) {
                return Err(at("timed event outside the track (the last space holds the end event)".into()));
            }
            let ids: BTreeSet<&str> = l.cards.iter().map(|c| c.id.as_str()).collect();
            if ids.len() != l.cards.len() {
                return Err(at("duplicate card id".into()));
            }
            for id in t.events.values().chain(std::iter::once(&t.end)) {
                let card = l.card(id).ok_or(at(format!("event card {id} missing")))?;
                // Events resolve at the end of a round, for the whole party:
                // they carry no challenge (ASSUMPTIONS.md, "Locations").
                if card.challenge.is_some() || card.space.is_some() {
                    return Err(at(format!("event card {id} has a challenge or a space")));
                }
            }
            for c in &l.cards {
                if let Some(n) = c.space {
                    let ix = l.map.by_number(n).ok_or(at(format!("card {}: no space #{n}", c.id)))?;
                    if l.map.spaces[ix].locked {
                        return Err(at(format!("card {}: locked space #{n} is found by placing a card", c.id)));
                    }
                }
                let mut all: Vec<&CardEffect> =
                    c.effects.iter().chain(&c.when_explored).chain(&c.victory).chain(&c.defeat).collect();
                if let Some(ch) = &c.challenge {
                    if ch.results.first().map(|r| r.min_hits) != Some(0) {
                        return Err(at(format!("card {}: the challenge has no result for 0 hits", c.id)));
                    }
                    if ch.results.windows(2).any(|w| w[0].min_hits >= w[1].min_hits) {
                        return Err(at(format!("card {}: challenge results out of order", c.id)));
                    }
                    all.extend(ch.results.iter().flat_map(|r| &r.effects));
                }
                let all: Vec<&CardEffect> = all.into_iter().flat_map(|e| e.walk()).collect();
                let spawns = all.iter().any(|e| matches!(e, CardEffect::Spawn { .. } | CardEffect::SpawnBoss { .. }));
                if !spawns && (!c.victory.is_empty() || !c.defeat.is_empty() || !c.ends_when.is_empty()) {
                    return Err(at(format!("card {}: victory/defeat/ends_when on a card that spawns no enemy", c.id)));
                }
                for end in &c.ends_when {
                    check_combat_end(l, c, end).map_err(|m| at(format!("card {}: ends_when: {m}", c.id)))?;
                }
                for eff in all {
                    self.check_effect(l, &ids, eff).map_err(|m| at(format!("card {}: {m}", c.id)))?;
                }
            }
        }
        Ok(())
    }

    fn validate_campaign(&self) -> Result<(), String> {
        let c = &self.campaign;
        if self.locations.contains_key(&c.finale) {
            return Err("the finale is not a location".into());
        }
        for l in c.locations.iter().chain(std::iter::once(&c.first)) {
            if !self.locations.contains_key(l) {
                return Err(format!("campaign: unknown location {l}"));
            }
        }
        let max_level = self.locations.values().map(|l| l.level).max().unwrap_or(1);
        for o in self.origins.values() {
            if (o.levels.len() as u32) < max_level {
                return Err(format!("origin {} has no card for level {max_level}", o.id));
            }
        }
        // A location's level is the party's level there (L531): exits that
        // level up lead one level higher, the others to the same level.
        for l in self.locations.values() {
            for (to, level_up) in l.exits() {
                if let Some(next) = self.locations.get(to) {
                    if next.level != l.level + u32::from(level_up) {
                        return Err(format!("exit {} -> {to}: level {} does not follow", l.id, next.level));
                    }
                }
            }
        }
        Ok(())
    }

    /// A keyword some Origin, talent, item, rune or summon can give.
    fn known_keyword(&self, k: &str) -> bool {
        let k = k.to_string();
        self.origins.values().any(|o| o.keywords.contains(&k))
            || self.talents.values().any(|t| t.keywords.contains(&k))
            || self.items.values().any(|i| i.bonus.keywords.contains(&k))
            || self.runes.values().any(|r| r.sides.iter().any(|s| s.bonus.keywords.contains(&k)))
            || self.summons.values().any(|s| s.keywords.contains(&k))
    }

    /// A keyword a skill or consumable gives for one condition (L796).
    fn temporary_keyword(&self, k: &str) -> bool {
        self.skills.values().any(|s| s.keyword.as_deref() == Some(k))
            || self
                .items
                .values()
                .any(|i| matches!(i.kind, ItemKind::Consumable(_)) && i.bonus.keywords.iter().any(|x| x == k))
    }

    fn check_effect(&self, l: &LocationDef, ids: &BTreeSet<&str>, eff: &CardEffect) -> Result<(), String> {
        let space = |s: &str| l.map.ix(s).map(|_| ()).ok_or(format!("unknown space {s}"));
        match eff {
            CardEffect::Spawn { rows } => {
                for r in rows {
                    space(&r.space)?;
                    if !self.minions.contains_key(&r.minion) {
                        return Err(format!("unknown minion {}", r.minion));
                    }
                }
            }
            CardEffect::SpawnBoss { boss } => {
                let b = self.bosses.get(boss).ok_or(format!("unknown boss {boss}"))?;
                space(&b.space)?;
                for r in b.tactics.iter().flat_map(|t| &t.spawn) {
                    space(&r.space)?;
                }
            }
            CardEffect::Item { item } if !self.items.contains_key(item) => return Err(format!("unknown item {item}")),
            CardEffect::Rune { rune } if !self.runes.contains_key(rune) => return Err(format!("unknown rune {rune}")),
            CardEffect::Key { a, b } => {
                let found =
                    l.map.paths.iter().any(|p| p.locked && ((&p.a == a && &p.b == b) || (&p.a == b && &p.b == a)));
                if !found {
                    return Err(format!("no locked path {a}-{b}"));
                }
            }
            CardEffect::PlaceCard { card, space: s } => {
                space(s)?;
                if !ids.contains(card.as_str()) {
                    return Err(format!("unknown card {card}"));
                }
            }
            CardEffect::PlaceSelf { space: s } | CardEffect::Environment { space: s, .. } => space(s)?,
            CardEffect::Resolve { card } if !ids.contains(card.as_str()) => return Err(format!("unknown card {card}")),
            CardEffect::Exit { to, .. } if !self.locations.contains_key(to) && to != &self.campaign.finale => {
                return Err(format!("unknown exit {to}"))
            }
            CardEffect::Journal { card } if !self.journal.contains_key(card) => {
                return Err(format!("unknown journal card {card}"))
            }
            CardEffect::RandomItem { level } => {
                let any = self
                    .items
                    .values()
                    .any(|i| i.level == *level && !i.unique && matches!(i.kind, ItemKind::Equipment(_)));
                if !any {
                    return Err(format!("no level-{level} equipment deck"));
                }
            }
            CardEffect::RandomConsumable { deck }
                if !self.items.values().any(|i| i.kind == ItemKind::Consumable(*deck)) =>
            {
                return Err(format!("empty {deck:?} deck"));
            }
            CardEffect::SetTime { space: n } if *n == 0 || *n >= l.time.length => {
                return Err(format!("time space {n} is off the track"))
            }
            CardEffect::Status { cooldown: 0, .. } => return Err("a status on slot 0".into()),
            CardEffect::Move { space: s, .. } => {
                let ix = l.map.ix(s).ok_or(format!("unknown space {s}"))?;
                if l.map.spaces[ix].tactical() {
                    return Err(format!("forced move into tactical space {s}"));
                }
            }
            CardEffect::If { condition, then, otherwise } => {
                if then.is_empty() && otherwise.is_empty() {
                    return Err("a condition with no effect".into());
                }
                match condition {
                    Condition::Journal { card } if !self.journal.contains_key(card) => {
                        return Err(format!("condition on unknown journal card {card}"))
                    }
                    Condition::Symbol { symbol, count } => {
                        let held = self.journal.values().filter(|j| &j.symbol == symbol).count() as u32;
                        if *count == 0 || held < *count {
                            return Err(format!("condition on {count} {symbol} journal cards (the deck has {held})"));
                        }
                    }
                    Condition::Keyword { keyword, .. } if !self.known_keyword(keyword) => {
                        return Err(format!("condition on unknown keyword {keyword}"))
                    }
                    // L796 would let a skill or consumable with the keyword
                    // be played here; card conditions are checked with no
                    // pause for that choice, so none may name such a keyword.
                    Condition::Keyword { keyword, .. } if self.temporary_keyword(keyword) => {
                        return Err(format!("condition on {keyword}, which a skill or consumable gives (L796)"))
                    }
                    Condition::Gold { amount: 0 } | Condition::Pay { amount: 0 } => {
                        return Err("a gold condition of 0".into())
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        Ok(())
    }
}
