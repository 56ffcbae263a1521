//! The location as the book presents it, and the words a view carries.

use super::*;

/// The location as the book presents it, with what happened at its end
/// once over.
pub fn front(cat: &Catalogue, view: &DivinityView) -> Front {
    let Some(loc) = cat.locations.get(&view.location) else {
        return Front { name: plain(&view.location), ..Front::default() };
    };
    let n = Names::new(Some(view));
    let (outcome, next) = match &view.phase {
        Phase::Finished { result: Finish::Exit { to, level_up } } => (
            Some(format!(
                "The party found the way out of {} and sets out for {}{}. The next location starts from here.",
                loc.name,
                n.location_name(to),
                if *level_up { ", a level higher" } else { "" }
            )),
            Some(n.location_name(to)),
        ),
        Phase::Finished { result: Finish::Restart } => {
            let why = if view.origins.iter().all(|o| o.downed) {
                "every Origin was downed"
            } else if view.time.is_some_and(|t| t >= view.time_length) {
                "time ran out"
            } else {
                "the location forced a restart"
            };
            (
                Some(format!(
                    "The party failed: {why}. By the book (Restarting a Location) {} starts again; the party keeps its items and discoveries but loses its gold.",
                    loc.name
                )),
                None,
            )
        }
        Phase::Interlude(i) => (
            Some(format!(
                "The party found the way out of {}. {}then set out for {}.",
                loc.name,
                if i.level_up { "Level up and visit the Merchant, " } else { "Visit the Merchant, " },
                n.location_name(&i.to)
            )),
            Some(n.location_name(&i.to)),
        ),
        _ => (None, None),
    };
    Front { name: loc.name.clone(), intro: printed(&loc.intro), goal: printed(&loc.goal), outcome, next }
}

/// Fill in `view`'s words: the location's front (name, intro, goal,
/// outcome) and the texts of a flipped challenge card's rows.
pub fn tell(view: &mut DivinityView, state: &DivinityState, cat: &Catalogue) {
    view.front = crate::shared::Shared::new(front(cat, view));
    tell_rows(view, state, cat);
}

/// Only the rows of a flipped challenge card: all an action's words read
/// of a view's words (`Divinity::action_words` names from a view without
/// its front).
pub fn tell_rows(view: &mut DivinityView, state: &DivinityState, cat: &Catalogue) {
    let loc = state.loc(cat);
    let rows = state.challenge.as_ref().filter(|c| c.flipped.is_some()).map(|c| {
        let names = Names::new(Some(&*view));
        let rows = loc.card(&c.card).and_then(|card| card.challenge.as_ref()).map_or(&[][..], |ch| &ch.results[..]);
        rows.iter().map(|r| ChallengeRow { min_hits: r.min_hits, text: effects(names, &r.effects) }).collect()
    });
    view.challenge_rows = rows;
}
