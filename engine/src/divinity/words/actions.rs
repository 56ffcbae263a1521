//! A legal action in words, with its cost and the warning a screen asks
//! about before sending it.

use super::*;

pub(super) fn from(n: Names<'_>, f: &KeywordFrom) -> String {
    match f {
        KeywordFrom::Permanent => "your own".into(),
        KeywordFrom::Skill(id) => format!("the skill {}", n.skill(id)),
        KeywordFrom::Consumable(id) => n.item(id),
    }
}

/// The attack a card makes, if it makes one.
pub(super) fn attack_of<'c>(cat: &'c Catalogue, c: &CardUse) -> Option<&'c Attack> {
    match c {
        CardUse::Skill(id) => cat.skills.get(id)?.attack.as_ref(),
        CardUse::Item(id) | CardUse::Consumable(id) => Some(&cat.items.get(id)?.action.as_ref()?.attack),
        CardUse::Summon => None,
    }
}

/// What an attack does to whoever it lands on, when that is bad for them.
pub(super) fn harm(cat: &Catalogue, c: &CardUse) -> Option<String> {
    if let CardUse::Skill(id) = c {
        if cat.skills.get(id).is_some_and(|s| s.weapon.is_some()) {
            return Some("attacks".into());
        }
    }
    let a = attack_of(cat, c)?;
    if matches!(a.outcome, Outcome::Damage { .. }) {
        return Some("attacks".into());
    }
    let bad: Vec<&str> = a.statuses.iter().filter(|g| !helps(g.status)).map(|g| status(g.status)).collect();
    (!bad.is_empty()).then(|| format!("makes {}", bad.join(" and ")))
}

/// The warning for using a card that `harm`s on `target` when `target`
/// holds the party's own: an attack or a hindering status on an ally (or
/// on oneself). Written into `w`, left empty when there is none.
fn push_warn(v: &Voice<'_>, seat: Seat, harm: &str, target: &Aim, include_self: Option<bool>, w: &mut String) {
    let n = v.n;
    match target {
        Aim::Origin(s) if *s == seat => {
            w.push_str("This ");
            w.push_str(harm);
            w.push_str(" yourself.");
        }
        Aim::Origin(s) => {
            w.push_str("This ");
            w.push_str(harm);
            w.push(' ');
            v.push_origin_of_seat(w, *s);
            w.push_str(", your ally.");
        }
        Aim::Enemy(_) => {}
        Aim::Space(id) => {
            let (Some(t), Some(ix)) = (n.table, v.location().and_then(|l| l.map.ix(id))) else { return };
            let allies = || {
                t.origins
                    .iter()
                    .enumerate()
                    .filter(move |(s, o)| {
                        o.space == ix && !o.downed && (*s as Seat != seat || include_self == Some(true))
                    })
                    .map(|(s, _)| s as Seat)
            };
            // Listed as `and_list` lists: "a", "a and b", "a, b and c".
            let count = allies().count();
            if count == 0 {
                return;
            }
            w.push_str("This ");
            w.push_str(harm);
            w.push(' ');
            for (k, s) in allies().enumerate() {
                if k > 0 {
                    w.push_str(if k + 1 == count { " and " } else { ", " });
                }
                if s == seat {
                    w.push_str("you");
                } else {
                    v.push_origin_of_seat(w, s);
                }
            }
            w.push('.');
        }
    }
}

/// A legal action of `seat` in words, for a button or a menu.
pub fn action(n: Names<'_>, seat: Seat, a: &A) -> Said {
    let mut text = String::new();
    let (group, warn) = action_into(n, seat, a, &mut text);
    Said { text, group, warn }
}

/// [`action`]'s text appended to `s`, its group and warning returned: a
/// list's words are written into one text, piece by piece (an interlude
/// lists a thousand level-ups, a Combat turn a hundred uses).
pub fn action_into(n: Names<'_>, seat: Seat, a: &A, s: &mut String) -> (Group, Option<String>) {
    let mut w = String::new();
    let group = say(&Voice::new(n), seat, a, s, &mut w);
    (group, (!w.is_empty()).then_some(w))
}

/// [`action_into`] with its warning written into `w` (left empty when
/// there is none), so that a list's warnings share one text too.
fn say(v: &Voice<'_>, seat: Seat, a: &A, s: &mut String, w: &mut String) -> Group {
    let n = v.n;
    let mut said = |text: &str, group: Group| {
        s.push_str(text);
        group
    };
    match a {
        A::ChooseRound { explore: true } => said("Explore this round", Group::Party),
        A::ChooseRound { explore: false } => said("Rest this round", Group::Party),
        A::Travel { to: Some(to) } => {
            s.push_str("Travel to ");
            v.push_space(s, to);
            Group::Travel
        }
        A::Travel { to: None } => said("Stay where you are", Group::Travel),
        A::Reveal => said("Reveal the top card of your space", Group::Explore),
        A::TakeHolding { card } => {
            said(&format!("Take {} from the holding area instead", n.location_card(card)), Group::Explore)
        }
        A::Pass => said("Explore nothing this round", Group::Explore),
        A::Resolve { card } => said(&format!("Resolve {} next", n.location_card(card)), Group::Party),
        A::Hold { card } => said(&format!("Put {} in the holding area", n.location_card(card)), Group::Party),
        A::Challenge { auto: None, keywords } if keywords.is_empty() => said("Roll for the challenge", Group::Explore),
        A::Challenge { auto: None, keywords } => {
            let k: Vec<String> = keywords.iter().map(|(k, f)| format!("{k} from {}", from(n, f))).collect();
            said(&format!("Roll for the challenge with {}", and_list(&k)), Group::Explore)
        }
        A::Challenge { auto: Some((k, f)), .. } => said(
            &format!("Succeed at once with {k} ({}): flip the card, then choose its result", from(n, f)),
            Group::Explore,
        ),
        A::ChooseResult { row } => {
            let shown = n.table.and_then(|t| t.challenge_rows.as_ref()).and_then(|rows| rows.get(*row));
            match shown {
                Some(r) => said(&format!("Take the result: {}", r.text), Group::Explore),
                None => said(&format!("Take the {} result", ordinal(*row)), Group::Explore),
            }
        }
        A::Reroll { dice, source } => {
            let roll =
                n.table.and_then(|t| t.pending.as_ref().map(|p| &p.roll).or(t.enemy_roll.as_ref().map(|r| &r.roll)));
            s.push_str("Reroll ");
            match roll.filter(|r| dice.iter().all(|i| *i < r.dice.len())) {
                Some(r) => {
                    // The dice in words, as `dice_words` lists them.
                    for (k, i) in dice.iter().enumerate() {
                        if k > 0 {
                            s.push_str(if k + 1 == dice.len() { " and " } else { ", " });
                        }
                        push_die_words(n.cat, s, r.dice[*i]);
                    }
                }
                None => {
                    s.push_str(itoa::Buffer::new().format(dice.len()));
                    s.push_str(" dice");
                }
            }
            s.push_str(if *source { " (with 1 Source)" } else { " (with the card's reroll)" });
            Group::Dice
        }
        A::Accept => said("Let the roll stand", Group::Dice),
        A::StartTurn => said(&format!("Start {}'s turn", n.origin_of_seat(seat)), Group::Turn),
        A::Move { to } => {
            s.push_str("Move to ");
            v.push_space(s, to);
            s.push_str(" (1 AP)");
            Group::Travel
        }
        A::Use { card: c, aim: target, first_aura, include_self } => {
            // The lexicon's card names it, costs it and says its harm with
            // one lookup (else the catalogue is asked for each).
            let known = n.lexicon().and_then(|l| match c {
                CardUse::Skill(id) => l.skills.get(id.as_str()),
                CardUse::Item(id) | CardUse::Consumable(id) => l.items.get(id.as_str()),
                CardUse::Summon => None,
            });
            match known {
                Some(k) => s.push_str(k.name),
                None => push_card(n, s, c),
            }
            match target {
                Aim::Space(_) => s.push_str(" at "),
                Aim::Origin(o) if *o == seat => s.push_str(" on yourself"),
                _ => s.push_str(" on "),
            }
            match target {
                Aim::Origin(o) if *o == seat => {}
                _ => push_aim(v, s, target),
            }
            if let Some(f) = first_aura {
                s.push_str(", ");
                n.push_skill(s, f);
                s.push_str(" first");
            }
            match include_self {
                Some(true) => s.push_str(", you too"),
                Some(false) => s.push_str(", not you"),
                None => {}
            }
            match known {
                Some(k) => s.push_str(&k.cost),
                None => push_cost(n.cat, s, c),
            }
            match known {
                Some(k) => {
                    if let Some(h) = &k.harm {
                        push_warn(v, seat, h, target, *include_self, w);
                    }
                }
                None => {
                    if let Some(h) = harm(n.cat, c) {
                        push_warn(v, seat, &h, target, *include_self, w);
                    }
                }
            }
            if matches!(c, CardUse::Skill(_) | CardUse::Summon) {
                Group::Skills
            } else {
                Group::Items
            }
        }
        A::Taunt { enemy } => {
            s.push_str("Taunt ");
            n.push_enemy(s, *enemy);
            s.push_str(" into your space");
            Group::Skills
        }
        A::Equip { item } => {
            s.push_str("Equip ");
            n.push_item(s, item);
            Group::Items
        }
        A::AttachRune { rune, item } => {
            s.push_str("Attach ");
            n.push_item(s, rune);
            s.push_str(" to ");
            n.push_item(s, item);
            Group::Items
        }
        A::Store { item } => {
            s.push_str("Put ");
            n.push_item(s, item);
            s.push_str(" in the backpack");
            Group::Items
        }
        A::Give { item, to, equip } => {
            s.push_str("Give ");
            n.push_item(s, item);
            s.push_str(" to ");
            v.push_origin_of_seat(s, *to);
            if *equip {
                s.push_str(" to equip");
            }
            Group::Items
        }
        A::Take { item, from, equip } => {
            s.push_str("Take ");
            n.push_item(s, item);
            s.push_str(" from ");
            v.push_origin_of_seat(s, *from);
            if *equip {
                s.push_str(" and equip it");
            }
            Group::Items
        }
        A::PlaceItem { to: None, .. } => said("Discard the item nobody has room for", Group::Party),
        A::PlaceItem { to: Some(to), drop, pass_to } => {
            v.push_origin_of_seat(s, *to);
            s.push_str(" takes the item");
            if let Some(d) = drop {
                s.push_str(", dropping ");
                n.push_item(s, d);
                if let Some(p) = pass_to {
                    s.push_str(" for ");
                    v.push_origin_of_seat(s, *p);
                }
            }
            Group::Party
        }
        A::Discard { item } => {
            s.push_str("Discard ");
            n.push_item(s, item);
            Group::Items
        }
        A::Recover { status: None } => said("Recover: heal 2", Group::Turn),
        A::Recover { status: Some(st) } => {
            s.push_str("Recover: slide ");
            s.push_str(status(*st));
            s.push_str(" off sooner");
            Group::Turn
        }
        A::UseTalent { talent } => {
            s.push_str("Use the talent ");
            n.push_talent(s, talent);
            Group::Skills
        }
        A::UseAbility { aim: None } => said("Use your special ability", Group::Skills),
        A::UseAbility { aim: Some(a) } => {
            s.push_str("Use your special ability on ");
            push_aim(v, s, a);
            Group::Skills
        }
        A::Revive { to, hp } => {
            s.push_str("Revive ");
            v.push_origin_of_seat(s, *to);
            s.push_str(" with ");
            s.push_str(itoa::Buffer::new().format(*hp));
            s.push_str(" of your HP");
            Group::Skills
        }
        A::EndTurn => said("End the turn", Group::Turn),
        A::BreakTie { target } => {
            s.push_str("The enemy goes for ");
            push_aim(v, s, target);
            Group::Party
        }
        A::ChooseRoute { route } => {
            let path = n
                .table
                .and_then(|t| t.route.as_ref())
                .and_then(|r| r.routes.get(*route))
                .map(|r| r.iter().map(|s| n.space(s)).collect::<Vec<_>>().join(", then "));
            match path {
                Some(p) => said(&format!("The enemy goes by {p}"), Group::Party),
                None => said(&format!("The enemy takes the {} route", ordinal(*route)), Group::Party),
            }
        }
        A::ReduceDice { remove } => {
            let c: Vec<String> = remove.iter().map(|c| format!("a {} die", colour(*c))).collect();
            // The dice an enemy's roll loses are the party's to pick; an
            // Origin's own roll, its own.
            let own = n.table.is_some_and(|t| t.roll_reduction.is_some());
            said(&format!("Take {} off the roll", and_list(&c)), if own { Group::Dice } else { Group::Party })
        }
        A::OrderTurnStart { order } => {
            s.push_str("Its turn starts with ");
            for (k, st) in order.iter().enumerate() {
                if k > 0 {
                    s.push_str(", then ");
                }
                s.push_str(status(*st));
            }
            Group::Party
        }
        A::Command { target } => {
            s.push_str("Send the dominated minion at ");
            push_aim(v, s, target);
            Group::Party
        }
        A::LevelUp { talent, learn, respec } => {
            s.push_str("Level up: learn ");
            n.push_skill(s, learn);
            if let Some(t) = talent {
                s.push_str(" and the talent ");
                n.push_talent(s, t);
            }
            if !respec.is_empty() {
                let r: Vec<String> =
                    respec.iter().map(|(out, into)| format!("{} for {}", n.skill(out), n.skill(into))).collect();
                s.push_str(", trading ");
                s.push_str(&and_list(&r));
            }
            Group::Interlude
        }
        A::VisitMerchant { level, consumables } => {
            let mut l = itoa::Buffer::new();
            let level = l.format(*level);
            s.push_str("Visit the Merchant: level ");
            s.push_str(level);
            s.push_str(" wares");
            if let Some(d) = consumables {
                s.push_str(" and ");
                s.push_str(deck(*d));
            }
            s.push_str(" (");
            s.push_str(level);
            s.push_str(" gold)");
            Group::Interlude
        }
        A::Restock { deck: MerchantDeck::Equipment(l) } => {
            s.push_str("Restock the Merchant: level ");
            s.push_str(itoa::Buffer::new().format(*l));
            s.push_str(" equipment");
            Group::Interlude
        }
        A::Restock { deck: MerchantDeck::Consumables(d) } => {
            s.push_str("Restock the Merchant: ");
            s.push_str(deck(*d));
            Group::Interlude
        }
        A::Buy { item, to } => {
            s.push_str("Buy ");
            n.push_item(s, item);
            s.push_str(" for ");
            v.push_origin_of_seat(s, *to);
            Group::Interlude
        }
        A::Sell { item } => {
            s.push_str("Sell ");
            n.push_item(s, item);
            Group::Interlude
        }
        A::FinishInterlude => said("Set out for the next location", Group::Interlude),
    }
}

/// An aim named: an Origin, an enemy, a space.
fn push_aim(v: &Voice<'_>, s: &mut String, a: &Aim) {
    match a {
        Aim::Origin(o) => v.push_origin_of_seat(s, *o),
        Aim::Enemy(e) => v.n.push_enemy(s, *e),
        Aim::Space(id) => v.push_space(s, id),
    }
}

/// The card used: "your summon", or its name.
fn push_card(n: Names<'_>, s: &mut String, c: &CardUse) {
    match c {
        CardUse::Skill(id) => n.push_skill(s, id),
        CardUse::Item(id) | CardUse::Consumable(id) => n.push_item(s, id),
        CardUse::Summon => s.push_str("your summon"),
    }
}

/// What a card costs to use, as its words end: " (1 AP)", " (2 AP, 1
/// Source)", or nothing.
pub(super) fn cost(cat: &Catalogue, c: &CardUse) -> String {
    let mut s = String::new();
    push_cost(cat, &mut s, c);
    s
}

/// [`cost`], appended.
fn push_cost(cat: &Catalogue, s: &mut String, c: &CardUse) {
    let (ap, source) = match c {
        CardUse::Skill(id) => cat.skills.get(id).map_or((None, 0), |s| (Some(s.ap), s.source)),
        CardUse::Item(id) | CardUse::Consumable(id) => {
            (cat.items.get(id).and_then(|i| i.action.as_ref()).map(|a| a.ap), 0)
        }
        CardUse::Summon => (None, 0),
    };
    let mut num = itoa::Buffer::new();
    match (ap, source) {
        (Some(ap), 0) => {
            s.push_str(" (");
            s.push_str(num.format(ap));
            s.push_str(" AP)");
        }
        (Some(ap), src) => {
            s.push_str(" (");
            s.push_str(num.format(ap));
            s.push_str(" AP, ");
            s.push_str(num.format(src));
            s.push_str(" Source)");
        }
        (None, 0) => {}
        (None, src) => {
            s.push_str(" (");
            s.push_str(num.format(src));
            s.push_str(" Source)");
        }
    }
}

/// Names for the words of one list: its seats' Origins named once (a
/// list names them in most of its actions: gifts, trades, purchases,
/// aims) and its location's spaces found once, else as [`Names`] names
/// them.
struct Voice<'a> {
    n: Names<'a>,
    /// Each seat's Origin by name, when the lexicon knows every one.
    seats: Vec<&'static str>,
    /// The lexicon's words of the location, when it has them.
    place: Option<&'static Place>,
}

impl<'a> Voice<'a> {
    fn new(n: Names<'a>) -> Voice<'a> {
        Voice { n, seats: Vec::new(), place: None }
    }

    fn listing(n: Names<'a>) -> Voice<'a> {
        let (lexicon, table) = (n.lexicon(), n.table.or(n.before));
        let seats = lexicon.zip(table).and_then(|(l, t)| {
            t.origins.iter().map(|o| l.origins.get(o.origin.as_str()).copied()).collect::<Option<Vec<_>>>()
        });
        let place = lexicon.zip(table).and_then(|(l, t)| l.places.get(t.location.as_str()));
        Voice { n, seats: seats.unwrap_or_default(), place }
    }

    fn push_origin_of_seat(&self, s: &mut String, seat: Seat) {
        match self.seats.get(seat as usize) {
            Some(name) => s.push_str(name),
            None => self.n.push_origin_of_seat(s, seat),
        }
    }

    fn push_space(&self, s: &mut String, id: &str) {
        match self.place {
            Some(p) => s.push_str(p.spaces.get(id).map_or("a space", String::as_str)),
            None => self.n.push_space(s, id),
        }
    }

    fn location(&self) -> Option<&'static LocationDef> {
        self.place.map(|p| p.def).or_else(|| self.n.location())
    }
}

/// The words of `actions` as the JSON array the server sends (each
/// [`Said::into_json`] as serde_json writes it), written straight into
/// `out`. A level-up's words (an interlude lists a thousand) are written
/// from the skill's and the talent's words made once
/// ([`LevelUpWords`]), found by cursors that follow the list through the
/// catalogue's order.
pub fn write_json(n: Names<'_>, seat: Seat, actions: &[A], out: &mut Vec<u8>) {
    let v = Voice::listing(n);
    let mut text = String::with_capacity(128);
    let mut warn = String::new();
    let built;
    let level_ups: &LevelUpWords = match n.lexicon() {
        Some(l) => &l.level_ups,
        None if actions.iter().any(|a| matches!(a, A::LevelUp { .. })) => {
            built = LevelUpWords::new(n.cat);
            &built
        }
        None => &LevelUpWords::EMPTY,
    };
    let (mut skills, mut talents) = (Cursor::new(&level_ups.skills), Cursor::new(&level_ups.talents));
    out.push(b'[');
    for (i, a) in actions.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if let A::LevelUp { talent, learn, respec } = a {
            let skill = skills.get(learn);
            let tail = match talent {
                Some(t) => talents.get(t),
                None => Some(&b"\"}"[..]),
            };
            if let (Some(skill), Some(tail), true) = (skill, tail, respec.is_empty()) {
                out.extend_from_slice(b"{\"group\":\"interlude\",\"text\":\"Level up: learn ");
                out.extend_from_slice(skill);
                out.extend_from_slice(tail);
                continue;
            }
        }
        text.clear();
        warn.clear();
        let group = say(&v, seat, a, &mut text, &mut warn);
        let warned = (!warn.is_empty()).then_some(warn.as_str());
        if !(plain_json(text.as_bytes()) && warned.is_none_or(|w| plain_json(w.as_bytes()))) {
            super::super::json::said_parts(out, group.as_str(), &text, warned);
            continue;
        }
        // As `json::said_parts` writes it (keys sorted: group, text,
        // warn), nothing in it to escape.
        out.extend_from_slice(b"{\"group\":\"");
        out.extend_from_slice(group.as_str().as_bytes());
        out.extend_from_slice(b"\",\"text\":\"");
        out.extend_from_slice(text.as_bytes());
        if let Some(w) = warned {
            out.extend_from_slice(b"\",\"warn\":\"");
            out.extend_from_slice(w.as_bytes());
        }
        out.extend_from_slice(b"\"}");
    }
    out.push(b']');
}

/// Whether no byte of `bytes` needs a JSON escape ([`json::plain`]).
///
/// [`json::plain`]: super::super::json::plain
fn plain_json(bytes: &[u8]) -> bool {
    super::super::json::plain(bytes)
}

/// A level-up's words, made once for each skill and talent: a skill's
/// name and, for a talent, " and the talent " and its name and the end of
/// the words' JSON (`"}`), each as it goes inside a JSON string
/// (escaped as serde_json escapes). By id, in the catalogue's order.
pub(super) struct LevelUpWords {
    skills: Vec<(&'static str, Box<[u8]>)>,
    talents: Vec<(&'static str, Box<[u8]>)>,
}

impl LevelUpWords {
    const EMPTY: LevelUpWords = LevelUpWords { skills: Vec::new(), talents: Vec::new() };

    pub(super) fn new(cat: &'static Catalogue) -> LevelUpWords {
        let escaped = |pieces: &[&str]| -> Box<[u8]> {
            let mut out = Vec::new();
            for p in pieces {
                super::super::json::string_contents(&mut out, p);
            }
            out.into_boxed_slice()
        };
        LevelUpWords {
            skills: cat.skills.iter().map(|(k, d)| (k.as_str(), escaped(&[&d.name]))).collect(),
            talents: cat
                .talents
                .iter()
                .map(|(k, d)| {
                    let mut words = escaped(&[" and the talent ", &d.name]).into_vec();
                    words.extend_from_slice(b"\"}");
                    (k.as_str(), words.into_boxed_slice())
                })
                .collect(),
        }
    }
}

/// Ids looked up in the order a list names them: mostly the catalogue's
/// own, so the next id is most often the last one or one of the few after
/// it (then no search at all).
struct Cursor<'c> {
    entries: &'c [(&'static str, Box<[u8]>)],
    at: usize,
}

impl<'c> Cursor<'c> {
    fn new(entries: &'c [(&'static str, Box<[u8]>)]) -> Self {
        Cursor { entries, at: 0 }
    }

    fn get(&mut self, id: &str) -> Option<&'c [u8]> {
        for k in self.at..(self.at + 4).min(self.entries.len()) {
            if same(self.entries[k].0.as_bytes(), id.as_bytes()) {
                self.at = k;
                return Some(&self.entries[k].1);
            }
        }
        let k = self.entries.binary_search_by(|(key, _)| (*key).cmp(id)).ok()?;
        self.at = k;
        Some(&self.entries[k].1)
    }
}

/// Whether two ids are equal, without a call for the usual lengths (4 to
/// 16 bytes: their two overlapping ends compared as words).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    let half = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().expect("4 bytes"));
    match n {
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text is copied whole exactly when serde_json would not escape
    /// it: every ASCII byte, and a few others, at every place of texts
    /// of 0 to 39 bytes (one block of 16, two, three overlapping).
    #[test]
    fn plain_json_is_what_needs_no_escape() {
        let mut bytes: Vec<char> = (0u8..0x80).map(char::from).collect();
        bytes.extend(['é', '“', '”', '…', '\u{2028}']);
        for len in 0..40 {
            for at in 0..len {
                for &c in &bytes {
                    let mut s: String = "plain words, then more words and more still".chars().take(len).collect();
                    s.replace_range(
                        s.char_indices().nth(at).map(|(i, ch)| i..i + ch.len_utf8()).expect("in range"),
                        c.encode_utf8(&mut [0; 4]),
                    );
                    let escaped = serde_json::to_string(&s).expect("a string");
                    assert_eq!(plain_json(s.as_bytes()), escaped[1..escaped.len() - 1] == s, "{s:?}");
                }
            }
        }
    }

    /// Ids are the same exactly when equal: every length to 20, a byte
    /// changed at each place.
    #[test]
    fn same_is_equal() {
        let base = "skill_of_some_length_";
        for len in 0..20 {
            let a = &base.as_bytes()[..len];
            assert!(same(a, a));
            assert!(!same(a, &base.as_bytes()[..len + 1]));
            for at in 0..len {
                let mut b = a.to_vec();
                b[at] ^= 1;
                assert!(!same(a, &b), "{len} {at}");
            }
        }
    }
}
