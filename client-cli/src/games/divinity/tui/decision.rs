//! What the match waits for, and from whom, in one line of words. The
//! order follows the engine's gate (`protocol/DIVINITY.md`, "Decisions
//! first"): an owed party decision comes before the round's own step.

use athlas_engine::divinity::state::{ChallengeResultKind, Finish, Phase, Purpose};
use athlas_engine::Seat;

use super::table::{dice, status, Names, Table};

/// What the game waits for now, without who.
pub fn what(n: Names<'_>, t: &Table) -> String {
    let cat = n.cat;
    if let Some(o) = t.overflow.first() {
        return format!("No room for {}: the party places or discards it", n.item(&o.item));
    }
    if let Some(e) = t.dominated_turn {
        return format!("The party orders dominated {} to attack", n.enemy(e));
    }
    if let Some(r) = &t.reduction {
        return format!("{}'s roll loses {} dice: the party picks which colours", n.enemy(r.enemy), r.remove);
    }
    if let Some(r) = &t.roll_reduction {
        return format!("{}'s roll loses {} dice: they pick which colours", n.origin_of_seat(r.seat), r.remove);
    }
    if let Some(r) = &t.route {
        return format!("{} heads for {}: the party picks its route", n.enemy(r.enemy), n.who(r.target));
    }
    if let Some(ts) = &t.turn_start {
        let s: Vec<&str> = ts.statuses.iter().map(|s| status(*s)).collect();
        return format!("{} starts its turn: the party orders {}", n.enemy(ts.enemy), s.join(", "));
    }
    if let Some(tie) = &t.tie {
        let o: Vec<String> = tie.options.iter().map(|w| n.who(*w)).collect();
        return format!("{} targets one of {}: the party picks", n.enemy(tie.enemy), o.join(", "));
    }
    if let Some(p) = &t.pending {
        let what = match &p.purpose {
            Purpose::Attack { label, targets, .. } => {
                let on: Vec<String> = targets.iter().map(|w| n.who(*w)).collect();
                let by = if n.cat.skills.contains_key(label) { n.skill(label) } else { n.item(label) };
                format!("{by} on {}", on.join(", "))
            }
            Purpose::Challenge => "the challenge".into(),
        };
        return format!(
            "{} rolled {} for {what}: reroll or keep",
            n.origin_of_seat(p.seat),
            dice(cat, &p.roll.dice, true)
        );
    }
    if let Some(r) = &t.enemy_roll {
        let on: Vec<String> = r.targets.iter().map(|w| n.who(*w)).collect();
        return format!(
            "{} rolled {} against {}: Source may reroll it",
            n.enemy(r.enemy),
            dice(cat, &r.roll.dice, true),
            on.join(", ")
        );
    }
    if let Some(c) = &t.challenge {
        let done: Vec<String> = c
            .results
            .iter()
            .map(|(s, r)| match r {
                ChallengeResultKind::Hits(h) => format!("{} {h} hits", n.origin_of_seat(*s)),
                ChallengeResultKind::Row(r) => format!("{} result {}", n.origin_of_seat(*s), r + 1),
            })
            .collect();
        let sofar = if done.is_empty() { String::new() } else { format!(" (so far: {})", done.join(", ")) };
        return format!("Challenge of card {}: roll or use a keyword{sofar}", c.card);
    }
    match &t.phase {
        Phase::ChooseRound => "Between rounds: the party picks Explore or Rest".into(),
        Phase::Travel { .. } => "Explore 1/3: each Origin travels or stays".into(),
        Phase::Groups { .. } => "Explore 2/3: each group reveals a card, takes a held one, or passes".into(),
        Phase::Resolve => "Explore 3/3: the party resolves the revealed cards".into(),
        Phase::Rest { .. } => "Rest round: each Origin takes its Rest turn".into(),
        Phase::Combat { active: Some(s), .. } => {
            let ap = t.origins.get(*s as usize).map_or(0, |o| o.ap);
            format!("Combat: {}'s turn ({ap} AP left)", n.origin_of_seat(*s))
        }
        Phase::Combat { .. } => "Combat: an Origin that has not acted starts its turn".into(),
        Phase::Interlude(i) => {
            let lvl = if i.level_up { "level up, " } else { "" };
            format!("Interlude before {}: {lvl}the Merchant, then finish", n.location_name(&i.to))
        }
        Phase::Finished { result: Finish::Exit { to, .. } } => {
            format!("The location is done: the party goes on to {}", n.location_name(to))
        }
        Phase::Finished { result: Finish::Restart } => "The location is lost: the party must restart it".into(),
    }
}

/// Who the game waits for, from the status's `seats`: "you", names, and
/// seats handed to you.
pub fn who(n: Names<'_>, waiting: &[Seat], you: Option<Seat>, mine: &[Seat]) -> String {
    if waiting.is_empty() {
        return "nobody".into();
    }
    let names: Vec<String> = waiting
        .iter()
        .map(|s| {
            let name = n.origin_of_seat(*s);
            if Some(*s) == you {
                format!("YOU ({name})")
            } else if mine.contains(s) {
                format!("{name} (handed to you)")
            } else {
                name
            }
        })
        .collect();
    names.join(", ")
}
