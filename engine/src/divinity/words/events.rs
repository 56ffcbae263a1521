//! An event in words, for the log, and what a card's effects do.

use super::*;

pub(super) fn round_kind(k: RoundKind) -> &'static str {
    match k {
        RoundKind::Explore => "an Explore",
        RoundKind::Rest => "a Rest",
        RoundKind::Combat => "a Combat",
    }
}

/// An event in words, for the log.
pub fn event(n: Names<'_>, e: &E) -> String {
    let cat = n.cat;
    match e {
        E::RoundStarted { round, kind } => format!("Round {round} begins: {} round", round_kind(*kind)),
        E::TurnStarted { seat, ap } => format!("{}'s turn starts ({ap} AP)", n.origin_of_seat(*seat)),
        E::TurnEnded { who } => format!("{}'s turn ends", n.who(*who)),
        E::Travelled { seat, to } => format!("{} travels to {}", n.origin_of_seat(*seat), n.space(to)),
        E::Moved { who, to } => format!("{} moves to {}", n.who(*who), n.space(to)),
        E::CardRevealed { text, .. } => format!("A location card is revealed: {}", printed(text)),
        E::ChallengeFlipped { seat, .. } => {
            format!("{} succeeds at once: the card is flipped and its result is chosen", n.origin_of_seat(*seat))
        }
        E::CardResolved { card } => format!("{} is resolved", cap(&n.resolved_card(card))),
        E::CardHeld { card } => format!("{} goes to the holding area", cap(&n.location_card(card))),
        E::Rolled { who, dice: d, hits, specials } => {
            let sp = match specials {
                0 => String::new(),
                1 => " and a special".into(),
                s => format!(" and {s} specials"),
            };
            let h = if *hits == 1 { "hit" } else { "hits" };
            format!("{} rolls {}: {hits} {h}{sp}", n.who(*who), dice_words(cat, d))
        }
        E::Rerolled { seat, dice: d, source } => {
            let how = if *source { " with Source" } else { "" };
            format!("{} rerolls{how}: now {}", n.origin_of_seat(*seat), dice_words(cat, d))
        }
        E::Damaged { who, amount, hp } => format!("{} takes {amount} damage ({hp} HP left)", n.who(*who)),
        E::Healed { who, amount, hp } => format!("{} heals {amount} ({hp} HP)", n.who(*who)),
        E::StatusGained { who, status: s, .. } => format!("{} is {}", n.who(*who), status(*s)),
        E::StatusCleared { who, status: s } => format!("{} is no longer {}", n.who(*who), status(*s)),
        E::Downed { seat } => format!("{} is downed!", n.origin_of_seat(*seat)),
        E::Revived { seat, hp } => format!("{} is revived with {hp} HP", n.origin_of_seat(*seat)),
        E::Spawned { enemy, name, space, fast } => {
            let letter = n.table.and_then(|t| t.enemies.iter().find(|x| x.id == *enemy)).and_then(|x| x.letter);
            let l = letter.map(|l| format!(" {l}")).unwrap_or_default();
            let speed = if *fast { " (fast)" } else { "" };
            format!("{name}{l}{speed} appears in {}", n.space(space))
        }
        E::Targeted { enemy, target, .. } => format!("{} goes for {}", n.enemy(*enemy), n.who(*target)),
        E::TieToBreak { enemy, .. } => format!("{} could go for several: the party picks", n.enemy(*enemy)),
        E::Defeated { enemy } => format!("{} is defeated", n.enemy(*enemy)),
        E::EnvironmentPlaced { space, environment: env } => {
            format!("{} becomes {}", cap(&n.space(space)), environment(*env))
        }
        E::GoldGained { amount, total } => format!("The party gains {amount} gold ({total} in all)"),
        E::GoldSpent { amount, total } => format!("The party spends {amount} gold ({total} left)"),
        E::AbilityUsed { seat } => format!("{} uses their special ability", n.origin_of_seat(*seat)),
        E::ItemGained { seat: Some(s), item } => format!("{} gains {}", n.origin_of_seat(*s), n.item(item)),
        E::ItemGained { seat: None, item } => format!("The party gains {}", n.item(item)),
        E::ItemDiscarded { seat, item } => format!("{} discards {}", n.origin_of_seat(*seat), n.item(item)),
        E::NoRoom { item, .. } => format!("Nobody has room for {}: the party decides", n.item(item)),
        E::RewardDiscarded { item } => format!("{} is discarded", n.item(item)),
        E::ItemTraded { from, to, item } => {
            format!("{} gives {} to {}", n.origin_of_seat(*from), n.item(item), n.origin_of_seat(*to))
        }
        E::DeckEmpty { deck } => format!("The {} deck is empty", plain(deck)),
        E::RouteToChoose { enemy, .. } => format!("{} has several ways to go: the party picks", n.enemy(*enemy)),
        E::DiceToReduce { enemy, remove } => {
            format!(
                "{}'s roll loses {remove} {}: the party picks",
                n.enemy(*enemy),
                if *remove == 1 { "die" } else { "dice" }
            )
        }
        E::TurnStartToOrder { enemy, .. } => format!("{}: the party orders its start of turn", n.enemy(*enemy)),
        E::OwnDiceToReduce { seat, remove } => format!(
            "{}'s roll loses {remove} {}: they pick",
            n.origin_of_seat(*seat),
            if *remove == 1 { "die" } else { "dice" }
        ),
        E::Reacted { seat, skill, enemy } => {
            format!("{} reacts with {} against {}", n.origin_of_seat(*seat), n.skill(skill), n.enemy(*enemy))
        }
        E::TalentUsed { seat, talent } => format!("{} uses {}", n.origin_of_seat(*seat), n.talent(talent)),
        E::KeyPlaced { a, b } => format!("The way between {} and {} opens", n.space(a), n.space(b)),
        E::CardPlaced { card, space } => format!("{} is placed on {}", cap(&n.location_card(card)), n.space(space)),
        E::JournalRevealed { text, .. } => format!("A journal entry: {}", printed(text)),
        E::CollarBroken { seat } => format!("{}'s Source collar breaks", n.origin_of_seat(*seat)),
        E::TimeAdvanced { space } => time_words(n, *space, "Time advances"),
        E::TimeSet { space } => time_words(n, *space, "The time track is set"),
        E::TimePaused { paused: true } => "Time stops".into(),
        E::TimePaused { paused: false } => "Time runs again".into(),
        E::CombatEnded { victory: true } => "The combat is won".into(),
        E::CombatEnded { victory: false } => "The combat is over".into(),
        E::LocationExited { to, level_up } => {
            let l = if *level_up { " (and levels up)" } else { "" };
            format!("The party leaves for {}{l}", n.location_name(to))
        }
        E::MerchantShows { items, gold } => {
            let i: Vec<String> = items.iter().map(|i| n.item(i)).collect();
            format!("The Merchant shows {} (the party has {gold} gold)", and_list(&i))
        }
        E::LocationFinished { result: Finish::Exit { to, .. } } => {
            format!("The location is done: on to {}", n.location_name(to))
        }
        E::LocationFinished { result: Finish::Restart } => "The party must restart the location".into(),
    }
}

pub(super) fn time_words(n: Names<'_>, space: u32, what: &str) -> String {
    match n.location().map(|l| l.time.length) {
        Some(len) => format!("{what}: {space} of {len}"),
        None => format!("{what}: {space}"),
    }
}

pub(super) fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

pub(super) fn damage_type(t: DamageType) -> &'static str {
    match t {
        DamageType::Physical => "physical",
        DamageType::Air => "air",
        DamageType::Water => "water",
        DamageType::Fire => "fire",
        DamageType::Earth => "earth",
        DamageType::Poison => "poison",
        DamageType::Direct => "direct",
    }
}

pub(super) fn whom(w: CardWho) -> &'static str {
    match w {
        CardWho::Group => "you",
        CardWho::Party => "the whole party",
    }
}

/// What a card's effects do, as its text would say it ("2 direct damage to
/// you; the party gains 1 gold"): a challenge's result rows once its card
/// is flipped.
pub fn effects(n: Names<'_>, effects: &[CardEffect]) -> String {
    if effects.is_empty() {
        return "nothing happens".into();
    }
    let said: Vec<String> = effects.iter().map(|e| effect(n, e)).collect();
    said.join("; ")
}

pub(super) fn effect(n: Names<'_>, e: &CardEffect) -> String {
    match e {
        CardEffect::Spawn { .. } => "enemies appear".into(),
        CardEffect::SpawnBoss { boss } => {
            format!("{} appears", n.cat.bosses.get(boss).map_or_else(|| plain(boss), |b| b.name.clone()))
        }
        CardEffect::Gold { amount } => format!("the party gains {amount} gold"),
        CardEffect::Item { item } => format!("you find {}", n.item(item)),
        CardEffect::Rune { rune } => format!("you find {}", n.item(rune)),
        CardEffect::RandomItem { level } => format!("you find a level {level} item"),
        CardEffect::RandomConsumable { deck: d } => format!("you find one of the {}", deck(*d)),
        CardEffect::Key { a, b } => format!("the way between {} and {} opens", n.space(a), n.space(b)),
        CardEffect::PlaceCard { space, .. } => format!("a card is placed on {}", n.space(space)),
        CardEffect::PlaceSelf { space } => format!("this card stays on {}", n.space(space)),
        CardEffect::Resolve { .. } => "another card is resolved".into(),
        CardEffect::Journal { .. } => "a journal entry".into(),
        CardEffect::Exit { to, .. } => format!("the way to {} opens", n.location_name(to)),
        CardEffect::Damage { amount, ty, who } => format!("{amount} {} damage to {}", damage_type(*ty), whom(*who)),
        CardEffect::Heal { amount, who } => format!("{} heal {amount}", whom(*who)),
        CardEffect::Status { status: s, who, .. } => format!("{} become {}", whom(*who), status(*s)),
        CardEffect::Environment { space, environment: env } => {
            format!("{} becomes {}", n.space(space), environment(*env))
        }
        CardEffect::SetTime { space } => format!("the time track is set to {space}"),
        CardEffect::PauseTime => "time stops".into(),
        CardEffect::ResumeTime => "time runs again".into(),
        CardEffect::ReturnToDeck => "the card goes back into the deck".into(),
        CardEffect::BreakCollar { .. } => "Source collars break".into(),
        CardEffect::Restart => "the party must restart the location".into(),
        CardEffect::If { .. } => "it depends on what the party has done".into(),
        CardEffect::Move { space, who } => format!("{} move to {}", whom(*who), n.space(space)),
    }
}
