//! A legal action in words, with its cost and the warning a screen asks
//! about before sending it.

use super::*;

pub(super) fn aim(n: Names<'_>, a: &Aim) -> String {
    match a {
        Aim::Origin(s) => n.origin_of_seat(*s),
        Aim::Enemy(e) => n.enemy(*e),
        Aim::Space(id) => n.space(id),
    }
}

pub(super) fn card(n: Names<'_>, c: &CardUse) -> String {
    match c {
        CardUse::Skill(id) => n.skill(id),
        CardUse::Item(id) => n.item(id),
        CardUse::Consumable(id) => n.item(id),
        CardUse::Summon => "your summon".into(),
    }
}

pub(super) fn from(n: Names<'_>, f: &KeywordFrom) -> String {
    match f {
        KeywordFrom::Permanent => "your own".into(),
        KeywordFrom::Skill(id) => format!("the skill {}", n.skill(id)),
        KeywordFrom::Consumable(id) => n.item(id),
    }
}

/// What a card costs to use: "(1 AP)", "(2 AP, 1 Source)".
pub(super) fn cost(n: Names<'_>, c: &CardUse) -> String {
    let (ap, source) = match c {
        CardUse::Skill(id) => n.cat.skills.get(id).map_or((None, 0), |s| (Some(s.ap), s.source)),
        CardUse::Item(id) | CardUse::Consumable(id) => {
            (n.cat.items.get(id).and_then(|i| i.action.as_ref()).map(|a| a.ap), 0)
        }
        CardUse::Summon => (None, 0),
    };
    match (ap, source) {
        (Some(ap), 0) => format!(" ({ap} AP)"),
        (Some(ap), s) => format!(" ({ap} AP, {s} Source)"),
        (None, 0) => String::new(),
        (None, s) => format!(" ({s} Source)"),
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

/// The warning for using `c` on `target` when `target` holds the party's
/// own: an attack or a hindering status on an ally (or on oneself).
pub(super) fn warn(n: Names<'_>, seat: Seat, c: &CardUse, target: &Aim, include_self: Option<bool>) -> Option<String> {
    let harm = harm(n.cat, c)?;
    let allies: Vec<String> = match target {
        Aim::Origin(s) if *s == seat => vec!["yourself".into()],
        Aim::Origin(s) => vec![format!("{}, your ally", n.origin_of_seat(*s))],
        Aim::Enemy(_) => return None,
        Aim::Space(id) => {
            let t = n.table?;
            let ix = n.location()?.map.ix(id)?;
            t.origins
                .iter()
                .enumerate()
                .filter(|(s, o)| o.space == ix && !o.downed && (*s as Seat != seat || include_self == Some(true)))
                .map(|(s, _)| if s as Seat == seat { "you".into() } else { n.origin_of_seat(s as Seat) })
                .collect()
        }
    };
    (!allies.is_empty()).then(|| format!("This {harm} {}.", and_list(&allies)))
}

/// A legal action of `seat` in words, for a button or a menu.
pub fn action(n: Names<'_>, seat: Seat, a: &A) -> Said {
    let said = |text: String, group: Group| Said { text, group, warn: None };
    match a {
        A::ChooseRound { explore: true } => said("Explore this round".into(), Group::Party),
        A::ChooseRound { explore: false } => said("Rest this round".into(), Group::Party),
        A::Travel { to: Some(to) } => said(format!("Travel to {}", n.space(to)), Group::Travel),
        A::Travel { to: None } => said("Stay where you are".into(), Group::Travel),
        A::Reveal => said("Reveal the top card of your space".into(), Group::Explore),
        A::TakeHolding { card } => {
            said(format!("Take {} from the holding area instead", n.location_card(card)), Group::Explore)
        }
        A::Pass => said("Explore nothing this round".into(), Group::Explore),
        A::Resolve { card } => said(format!("Resolve {} next", n.location_card(card)), Group::Party),
        A::Hold { card } => said(format!("Put {} in the holding area", n.location_card(card)), Group::Party),
        A::Challenge { auto: None, keywords } if keywords.is_empty() => {
            said("Roll for the challenge".into(), Group::Explore)
        }
        A::Challenge { auto: None, keywords } => {
            let k: Vec<String> = keywords.iter().map(|(k, f)| format!("{k} from {}", from(n, f))).collect();
            said(format!("Roll for the challenge with {}", and_list(&k)), Group::Explore)
        }
        A::Challenge { auto: Some((k, f)), .. } => said(
            format!("Succeed at once with {k} ({}): flip the card, then choose its result", from(n, f)),
            Group::Explore,
        ),
        A::ChooseResult { row } => {
            let shown = n.table.and_then(|t| t.challenge_rows.as_ref()).and_then(|rows| rows.get(*row));
            match shown {
                Some(r) => said(format!("Take the result: {}", r.text), Group::Explore),
                None => said(format!("Take the {} result", ordinal(*row)), Group::Explore),
            }
        }
        A::Reroll { dice, source } => {
            let shown = n.table.and_then(|t| {
                let roll = t.pending.as_ref().map(|p| &p.roll).or(t.enemy_roll.as_ref().map(|r| &r.roll))?;
                dice.iter().map(|i| roll.dice.get(*i).copied()).collect::<Option<Vec<Die>>>()
            });
            let which = match shown {
                Some(d) => dice_words(n.cat, &d),
                None => format!("{} dice", dice.len()),
            };
            let how = if *source { "with 1 Source" } else { "with the card's reroll" };
            said(format!("Reroll {which} ({how})"), Group::Dice)
        }
        A::Accept => said("Let the roll stand".into(), Group::Dice),
        A::StartTurn => said(format!("Start {}'s turn", n.origin_of_seat(seat)), Group::Turn),
        A::Move { to } => said(format!("Move to {} (1 AP)", n.space(to)), Group::Travel),
        A::Use { card: c, aim: target, first_aura, include_self } => {
            let mut text = match target {
                Aim::Space(_) => format!("{} at {}", card(n, c), aim(n, target)),
                Aim::Origin(s) if *s == seat => format!("{} on yourself", card(n, c)),
                _ => format!("{} on {}", card(n, c), aim(n, target)),
            };
            if let Some(f) = first_aura {
                text.push_str(&format!(", {} first", n.skill(f)));
            }
            match include_self {
                Some(true) => text.push_str(", you too"),
                Some(false) => text.push_str(", not you"),
                None => {}
            }
            text.push_str(&cost(n, c));
            let group = if matches!(c, CardUse::Skill(_) | CardUse::Summon) { Group::Skills } else { Group::Items };
            Said { text, group, warn: warn(n, seat, c, target, *include_self) }
        }
        A::Taunt { enemy } => said(format!("Taunt {} into your space", n.enemy(*enemy)), Group::Skills),
        A::Equip { item } => said(format!("Equip {}", n.item(item)), Group::Items),
        A::AttachRune { rune, item } => said(format!("Attach {} to {}", n.item(rune), n.item(item)), Group::Items),
        A::Store { item } => said(format!("Put {} in the backpack", n.item(item)), Group::Items),
        A::Give { item, to, equip } => {
            let e = if *equip { " to equip" } else { "" };
            said(format!("Give {} to {}{e}", n.item(item), n.origin_of_seat(*to)), Group::Items)
        }
        A::Take { item, from, equip } => {
            let e = if *equip { " and equip it" } else { "" };
            said(format!("Take {} from {}{e}", n.item(item), n.origin_of_seat(*from)), Group::Items)
        }
        A::PlaceItem { to: None, .. } => said("Discard the item nobody has room for".into(), Group::Party),
        A::PlaceItem { to: Some(to), drop, pass_to } => {
            let mut s = format!("{} takes the item", n.origin_of_seat(*to));
            if let Some(d) = drop {
                s.push_str(&format!(", dropping {}", n.item(d)));
                if let Some(p) = pass_to {
                    s.push_str(&format!(" for {}", n.origin_of_seat(*p)));
                }
            }
            said(s, Group::Party)
        }
        A::Discard { item } => said(format!("Discard {}", n.item(item)), Group::Items),
        A::Recover { status: None } => said("Recover: heal 2".into(), Group::Turn),
        A::Recover { status: Some(s) } => said(format!("Recover: slide {} off sooner", status(*s)), Group::Turn),
        A::UseTalent { talent } => said(format!("Use the talent {}", n.talent(talent)), Group::Skills),
        A::UseAbility { aim: None } => said("Use your special ability".into(), Group::Skills),
        A::UseAbility { aim: Some(a) } => said(format!("Use your special ability on {}", aim(n, a)), Group::Skills),
        A::Revive { to, hp } => said(format!("Revive {} with {hp} of your HP", n.origin_of_seat(*to)), Group::Skills),
        A::EndTurn => said("End the turn".into(), Group::Turn),
        A::BreakTie { target } => said(format!("The enemy goes for {}", aim(n, target)), Group::Party),
        A::ChooseRoute { route } => {
            let path = n
                .table
                .and_then(|t| t.route.as_ref())
                .and_then(|r| r.routes.get(*route))
                .map(|r| r.iter().map(|s| n.space(s)).collect::<Vec<_>>().join(", then "));
            match path {
                Some(p) => said(format!("The enemy goes by {p}"), Group::Party),
                None => said(format!("The enemy takes the {} route", ordinal(*route)), Group::Party),
            }
        }
        A::ReduceDice { remove } => {
            let c: Vec<String> = remove.iter().map(|c| format!("a {} die", colour(*c))).collect();
            // The dice an enemy's roll loses are the party's to pick; an
            // Origin's own roll, its own.
            let own = n.table.is_some_and(|t| t.roll_reduction.is_some());
            said(format!("Take {} off the roll", and_list(&c)), if own { Group::Dice } else { Group::Party })
        }
        A::OrderTurnStart { order } => {
            let o: Vec<&str> = order.iter().map(|s| status(*s)).collect();
            said(format!("Its turn starts with {}", o.join(", then ")), Group::Party)
        }
        A::Command { target } => said(format!("Send the dominated minion at {}", aim(n, target)), Group::Party),
        A::LevelUp { talent, learn, respec } => {
            // Written piece by piece: an interlude lists a thousand of these.
            let mut s = String::with_capacity(80);
            s.push_str("Level up: learn ");
            s.push_str(&n.skill(learn));
            if let Some(t) = talent {
                s.push_str(" and the talent ");
                s.push_str(&n.talent(t));
            }
            if !respec.is_empty() {
                let r: Vec<String> =
                    respec.iter().map(|(out, into)| format!("{} for {}", n.skill(out), n.skill(into))).collect();
                s.push_str(&format!(", trading {}", and_list(&r)));
            }
            said(s, Group::Interlude)
        }
        A::VisitMerchant { level, consumables } => match consumables {
            Some(d) => said(
                format!("Visit the Merchant: level {level} wares and {} ({level} gold)", deck(*d)),
                Group::Interlude,
            ),
            None => said(format!("Visit the Merchant: level {level} wares ({level} gold)"), Group::Interlude),
        },
        A::Restock { deck: MerchantDeck::Equipment(l) } => {
            said(format!("Restock the Merchant: level {l} equipment"), Group::Interlude)
        }
        A::Restock { deck: MerchantDeck::Consumables(d) } => {
            said(format!("Restock the Merchant: {}", deck(*d)), Group::Interlude)
        }
        A::Buy { item, to } => said(format!("Buy {} for {}", n.item(item), n.origin_of_seat(*to)), Group::Interlude),
        A::Sell { item } => said(format!("Sell {}", n.item(item)), Group::Interlude),
        A::FinishInterlude => said("Set out for the next location".into(), Group::Interlude),
    }
}
