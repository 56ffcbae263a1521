//! Actions and events in words, with names from the catalogue and the
//! table ("Move to Galley (2)", "Use Fireball on Darkhan's Lackey A",
//! "Ifan rolled R2 R0: 2 hits").

use athlas_engine::divinity::{
    action::{Aim, CardUse, KeywordFrom},
    content::ConsumableDeck,
    dice::Colour,
    interlude::MerchantDeck,
    state::{Finish, RoundKind},
    DivinityAction as A, DivinityEvent as E,
};

use super::table::{dice, status, Names};

fn aim(n: Names<'_>, a: &Aim) -> String {
    match a {
        Aim::Origin(s) => n.origin_of_seat(*s),
        Aim::Enemy(e) => n.enemy(*e),
        Aim::Space(id) => n.space(id),
    }
}

fn card(n: Names<'_>, c: &CardUse) -> String {
    match c {
        CardUse::Skill(id) => n.skill(id),
        CardUse::Item(id) => n.item(id),
        CardUse::Consumable(id) => n.item(id),
        CardUse::Summon => "your summon".into(),
    }
}

fn from(n: Names<'_>, f: &KeywordFrom) -> String {
    match f {
        KeywordFrom::Permanent => "own keyword".into(),
        KeywordFrom::Skill(id) => format!("skill {}", n.skill(id)),
        KeywordFrom::Consumable(id) => n.item(id),
    }
}

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Blue => "blue",
        Colour::Red => "red",
    }
}

fn deck(d: ConsumableDeck) -> &'static str {
    match d {
        ConsumableDeck::Scrolls => "scrolls",
        ConsumableDeck::Potions => "potions",
        ConsumableDeck::Grenades => "grenades",
        ConsumableDeck::Arrows => "arrows",
    }
}

/// A legal action in words, for the menu.
pub fn action(n: Names<'_>, a: &A) -> String {
    match a {
        A::ChooseRound { explore: true } => "Explore round".into(),
        A::ChooseRound { explore: false } => "Rest round".into(),
        A::Travel { to: Some(to) } => format!("Travel to {}", n.space(to)),
        A::Travel { to: None } => "Stay where you are".into(),
        A::Reveal => "Reveal the top card of your space".into(),
        A::TakeHolding { card } => format!("Take held card {card} instead"),
        A::Pass => "Explore nothing this round".into(),
        A::Resolve { card } => format!("Resolve card {card} next"),
        A::Hold { card } => format!("Put card {card} in the holding area"),
        A::Challenge { auto: None, keywords } if keywords.is_empty() => "Roll for the challenge".into(),
        A::Challenge { auto: None, keywords } => {
            let k: Vec<String> = keywords.iter().map(|(k, f)| format!("{k} from {}", from(n, f))).collect();
            format!("Roll for the challenge with {}", k.join(", "))
        }
        A::Challenge { auto: Some((k, f, row)), .. } => {
            format!("Succeed with {k} ({}), result {}", from(n, f), row + 1)
        }
        A::Reroll { dice, source } => {
            let which: Vec<String> = dice.iter().map(|d| (d + 1).to_string()).collect();
            let how = if *source { "1 Source" } else { "the card's reroll" };
            let word = if dice.len() == 1 { "die" } else { "dice" };
            format!("Reroll {word} {} ({how})", which.join(","))
        }
        A::Accept => "Keep the roll".into(),
        A::StartTurn => "Start this Origin's turn".into(),
        A::Move { to } => format!("Move to {}", n.space(to)),
        A::Use { card: c, aim: a, first_aura, include_self } => {
            let mut s = match a {
                Aim::Space(_) => format!("Use {} at {}", card(n, c), aim(n, a)),
                _ => format!("Use {} on {}", card(n, c), aim(n, a)),
            };
            if let Some(f) = first_aura {
                s.push_str(&format!(", {} first", n.skill(f)));
            }
            match include_self {
                Some(true) => s.push_str(", you too"),
                Some(false) => s.push_str(", not you"),
                None => {}
            }
            s
        }
        A::Taunt { enemy } => format!("Taunt {} into your space", n.enemy(*enemy)),
        A::Equip { item } => format!("Equip {}", n.item(item)),
        A::AttachRune { rune, item } => format!("Attach {} to {}", n.item(rune), n.item(item)),
        A::Store { item } => format!("Store {} in the backpack", n.item(item)),
        A::Give { item, to, equip } => {
            let e = if *equip { ", equipped" } else { "" };
            format!("Give {} to {}{e}", n.item(item), n.origin_of_seat(*to))
        }
        A::Take { item, from, equip } => {
            let e = if *equip { ", equip it" } else { "" };
            format!("Take {} from {}{e}", n.item(item), n.origin_of_seat(*from))
        }
        A::PlaceItem { to: None, .. } => "Discard the item nobody has room for".into(),
        A::PlaceItem { to: Some(to), drop, pass_to } => {
            let mut s = format!("{} takes the item", n.origin_of_seat(*to));
            if let Some(d) = drop {
                s.push_str(&format!(", dropping {}", n.item(d)));
                if let Some(p) = pass_to {
                    s.push_str(&format!(" to {}", n.origin_of_seat(*p)));
                }
            }
            s
        }
        A::Discard { item } => format!("Discard {}", n.item(item)),
        A::Recover { status: None } => "Recover: heal 2".into(),
        A::Recover { status: Some(s) } => format!("Recover: slide {}", status(*s)),
        A::UseTalent { talent } => format!("Use talent {}", n.talent(talent)),
        A::UseAbility { aim: None } => "Use your special ability".into(),
        A::UseAbility { aim: Some(a) } => format!("Use your special ability on {}", aim(n, a)),
        A::Revive { to, hp } => format!("Revive {} with {hp} of your HP", n.origin_of_seat(*to)),
        A::EndTurn => "End the turn".into(),
        A::BreakTie { target } => format!("The enemy targets {}", aim(n, target)),
        A::ChooseRoute { route } => {
            let path = n
                .table
                .and_then(|t| t.route.as_ref())
                .and_then(|r| r.routes.get(*route))
                .map(|r| r.iter().map(|s| n.space(s)).collect::<Vec<_>>().join(" → "));
            match path {
                Some(p) => format!("Route {}: {p}", route + 1),
                None => format!("Route {}", route + 1),
            }
        }
        A::ReduceDice { remove } => {
            let c: Vec<&str> = remove.iter().map(|c| colour(*c)).collect();
            format!("Remove {} from the roll", c.join(" + "))
        }
        A::OrderTurnStart { order } => {
            let o: Vec<&str> = order.iter().map(|s| status(*s)).collect();
            format!("Start the turn: {} in this order", o.join(", then "))
        }
        A::Command { target } => format!("Order the dominated minion at {}", aim(n, target)),
        A::LevelUp { talent, learn, respec } => {
            let mut s = format!("Level up: learn {}", n.skill(learn));
            if let Some(t) = talent {
                s.push_str(&format!(", talent {}", n.talent(t)));
            }
            if !respec.is_empty() {
                s.push_str(&format!(", {} respec", respec.len()));
            }
            s
        }
        A::VisitMerchant { level, consumables } => match consumables {
            Some(d) => format!("Visit the Merchant: level {level} wares and {}", deck(*d)),
            None => format!("Visit the Merchant: level {level} wares"),
        },
        A::Restock { deck: MerchantDeck::Equipment(l) } => format!("Restock: level {l} equipment"),
        A::Restock { deck: MerchantDeck::Consumables(d) } => format!("Restock: {}", deck(*d)),
        A::Buy { item, to } => format!("Buy {} for {}", n.item(item), n.origin_of_seat(*to)),
        A::Sell { item } => format!("Sell {}", n.item(item)),
        A::FinishInterlude => "Finish the interlude and leave".into(),
    }
}

fn round_kind(k: RoundKind) -> &'static str {
    match k {
        RoundKind::Explore => "Explore",
        RoundKind::Rest => "Rest",
        RoundKind::Combat => "Combat",
    }
}

/// An event in words, for the log.
pub fn event(n: Names<'_>, e: &E) -> String {
    let cat = n.cat;
    match e {
        E::RoundStarted { round, kind } => format!("── round {round}: {} ──", round_kind(*kind)),
        E::TurnStarted { seat, ap } => format!("{}'s turn starts ({ap} AP)", n.origin_of_seat(*seat)),
        E::TurnEnded { who } => format!("{}'s turn ends", n.who(*who)),
        E::Travelled { seat, to } => format!("{} travels to {}", n.origin_of_seat(*seat), n.space(to)),
        E::Moved { who, to } => format!("{} moves to {}", n.who(*who), n.space(to)),
        E::CardRevealed { card, text } => format!("card {card} revealed: {text}"),
        E::CardResolved { card } => format!("card {card} resolved"),
        E::CardHeld { card } => format!("card {card} put in the holding area"),
        E::Rolled { who, dice: d, hits, specials } => {
            let sp = if *specials > 0 { format!(", {specials} special") } else { String::new() };
            let h = if *hits == 1 { "hit" } else { "hits" };
            format!("{} rolled {}: {hits} {h}{sp}", n.who(*who), dice(cat, d, false))
        }
        E::Rerolled { seat, dice: d, source } => {
            let how = if *source { " with Source" } else { "" };
            format!("{} rerolled{how}: now {}", n.origin_of_seat(*seat), dice(cat, d, false))
        }
        E::Damaged { who, amount, hp } => format!("{} takes {amount} damage ({hp} HP left)", n.who(*who)),
        E::Healed { who, amount, hp } => format!("{} heals {amount} ({hp} HP)", n.who(*who)),
        E::StatusGained { who, status: s, slot } => format!("{} is {} (slot {slot})", n.who(*who), status(*s)),
        E::StatusCleared { who, status: s } => format!("{} is no longer {}", n.who(*who), status(*s)),
        E::Downed { seat } => format!("{} is downed!", n.origin_of_seat(*seat)),
        E::Revived { seat, hp } => format!("{} is revived with {hp} HP", n.origin_of_seat(*seat)),
        E::Spawned { enemy, name, space, fast } => {
            let letter = n.table.and_then(|t| t.enemies.iter().find(|x| x.id == *enemy)).and_then(|x| x.letter);
            let l = letter.map(|l| format!(" {l}")).unwrap_or_default();
            let speed = if *fast { " (fast)" } else { "" };
            format!("{name}{l}{speed} appears at {}", n.space(space))
        }
        E::Targeted { enemy, target, face } => {
            let f = if *face > 0 { format!(" (die {face})") } else { String::new() };
            format!("{} targets {}{f}", n.enemy(*enemy), n.who(*target))
        }
        E::TieToBreak { enemy, .. } => format!("{}: the party picks its target", n.enemy(*enemy)),
        E::Defeated { enemy } => format!("{} is defeated", n.enemy(*enemy)),
        E::EnvironmentPlaced { space, environment } => {
            let env = serde_json::to_value(environment).ok().and_then(|v| v.as_str().map(str::to_owned));
            format!("{} becomes {}", n.space(space), env.unwrap_or_default().replace('_', " "))
        }
        E::GoldGained { amount, total } => format!("+{amount} gold ({total})"),
        E::GoldSpent { amount, total } => format!("-{amount} gold ({total})"),
        E::AbilityUsed { seat } => format!("{} uses their special ability", n.origin_of_seat(*seat)),
        E::ItemGained { seat: Some(s), item } => format!("{} gains {}", n.origin_of_seat(*s), n.item(item)),
        E::ItemGained { seat: None, item } => format!("the party gains {}", n.item(item)),
        E::ItemDiscarded { seat, item } => format!("{} discards {}", n.origin_of_seat(*seat), n.item(item)),
        E::NoRoom { item, .. } => format!("no room for {}: the party decides", n.item(item)),
        E::RewardDiscarded { item } => format!("{} is discarded", n.item(item)),
        E::ItemTraded { from, to, item } => {
            format!("{} gives {} to {}", n.origin_of_seat(*from), n.item(item), n.origin_of_seat(*to))
        }
        E::DeckEmpty { deck } => format!("the {} deck is empty", deck.replace('_', " ")),
        E::RouteToChoose { enemy, .. } => format!("{}: the party picks its route", n.enemy(*enemy)),
        E::DiceToReduce { enemy, remove } => format!("{}'s roll loses {remove} dice: the party picks", n.enemy(*enemy)),
        E::TurnStartToOrder { enemy, .. } => format!("{}: the party orders its start of turn", n.enemy(*enemy)),
        E::OwnDiceToReduce { seat, remove } => {
            format!("{}'s roll loses {remove} dice: they pick", n.origin_of_seat(*seat))
        }
        E::Reacted { seat, skill, enemy } => {
            format!("{} reacts with {} against {}", n.origin_of_seat(*seat), n.skill(skill), n.enemy(*enemy))
        }
        E::TalentUsed { seat, talent } => format!("{} uses {}", n.origin_of_seat(*seat), n.talent(talent)),
        E::KeyPlaced { a, b } => format!("the path {} – {} opens", n.space(a), n.space(b)),
        E::CardPlaced { card, space } => format!("card {card} is placed on {}", n.space(space)),
        E::JournalRevealed { card, text } => format!("journal {card}: {text}"),
        E::CollarBroken { seat } => format!("{}'s Source collar breaks", n.origin_of_seat(*seat)),
        E::TimeAdvanced { space } => format!("time advances to {space}"),
        E::TimeSet { space } => format!("time set to {space}"),
        E::TimePaused { paused: true } => "time stops".into(),
        E::TimePaused { paused: false } => "time runs again".into(),
        E::CombatEnded { victory: true } => "the combat is won".into(),
        E::CombatEnded { victory: false } => "the combat is over".into(),
        E::LocationExited { to, level_up } => {
            let l = if *level_up { " (level up!)" } else { "" };
            format!("the party leaves for {}{l}", n.location_name(to))
        }
        E::MerchantShows { items, gold } => {
            let i: Vec<String> = items.iter().map(|i| n.item(i)).collect();
            format!("the Merchant shows {} ({gold} gold)", i.join(", "))
        }
        E::LocationFinished { result: Finish::Exit { to, .. } } => {
            format!("location done: on to {}", n.location_name(to))
        }
        E::LocationFinished { result: Finish::Restart } => "the party must restart the location".into(),
    }
}
