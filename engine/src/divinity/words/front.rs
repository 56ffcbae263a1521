//! The location as the book presents it, and the words a view carries.

use super::*;

/// The location as the book presents it, with what happened at its end
/// once over.
pub fn front(cat: &Catalogue, view: &DivinityView) -> Front {
    front_of(cat, &view.location, Ending::of(view))
}

/// What [`front`] reads of a view besides its location: how the location
/// ended, if it did. Views equal in location and in this have equal fronts.
#[derive(PartialEq)]
enum Ending<'a> {
    Playing,
    Exit { to: &'a str, level_up: bool },
    Restart { why: &'static str },
    Interlude { to: &'a str, level_up: bool },
}

impl<'a> Ending<'a> {
    fn of(view: &'a DivinityView) -> Ending<'a> {
        Ending::at(&view.phase, view.origins.iter().all(|o| o.downed), view.time, view.time_length)
    }

    /// Read from what a view shows of these (a state holds them too:
    /// [`front_key`]).
    fn at(phase: &'a Phase, all_downed: bool, time: Option<u32>, time_length: u32) -> Ending<'a> {
        match phase {
            Phase::Finished { result: Finish::Exit { to, level_up } } => Ending::Exit { to, level_up: *level_up },
            Phase::Finished { result: Finish::Restart } => Ending::Restart {
                why: if all_downed {
                    "every Origin was downed"
                } else if time.is_some_and(|t| t >= time_length) {
                    "time ran out"
                } else {
                    "the location forced a restart"
                },
            },
            Phase::Interlude(i) => Ending::Interlude { to: &i.to, level_up: i.level_up },
            _ => Ending::Playing,
        }
    }
}

/// What a state's [`front`] is made of, as bytes appended to `key`: its
/// location and how it ended. Equal keys, equal fronts (in every view:
/// the front is public).
pub(crate) fn front_key(state: &DivinityState, cat: &Catalogue, key: &mut Vec<u8>) {
    let time_length = cat.locations.get(&state.location).map_or(0, |l| l.time.length);
    // Ids hold no NUL: the location ends where the NUL is, and the
    // ending's variable part comes last.
    key.extend_from_slice(state.location.as_bytes());
    key.push(0);
    let (tag, level_up, text) =
        match Ending::at(&state.phase, state.origins.iter().all(|o| o.downed), state.time, time_length) {
            Ending::Playing => (0, false, ""),
            Ending::Exit { to, level_up } => (1, level_up, to),
            Ending::Restart { why } => (2, false, why),
            Ending::Interlude { to, level_up } => (3, level_up, to),
        };
    key.extend_from_slice(&[tag, u8::from(level_up)]);
    key.extend_from_slice(text.as_bytes());
}

fn front_of(cat: &Catalogue, location: &str, ending: Ending) -> Front {
    let Some(loc) = cat.locations.get(location) else {
        return Front { name: plain(location), ..Front::default() };
    };
    let n = Names::new(None);
    let (outcome, next) = match ending {
        Ending::Exit { to, level_up } => (
            Some(format!(
                "The party found the way out of {} and sets out for {}{}. The next location starts from here.",
                loc.name,
                n.location_name(to),
                if level_up { ", a level higher" } else { "" }
            )),
            Some(n.location_name(to)),
        ),
        Ending::Restart { why } => (
            Some(format!(
                "The party failed: {why}. By the book (Restarting a Location) {} starts again; the party keeps its items and discoveries but loses its gold.",
                loc.name
            )),
            None,
        ),
        Ending::Interlude { to, level_up } => (
            Some(format!(
                "The party found the way out of {}. {}then set out for {}.",
                loc.name,
                if level_up { "Level up and visit the Merchant, " } else { "Visit the Merchant, " },
                n.location_name(to)
            )),
            Some(n.location_name(to)),
        ),
        Ending::Playing => (None, None),
    };
    Front { name: loc.name.clone(), intro: printed(&loc.intro), goal: printed(&loc.goal), outcome, next }
}

/// Fill in `view`'s words: the location's front (name, intro, goal,
/// outcome) and the texts of a flipped challenge card's rows. The front
/// is `before`'s (a view of the record before) when made from the same
/// location and ending and `before` carries it (`before` as
/// `Divinity::views` built it): told again each record, it was a tenth
/// of `views`' work.
pub fn tell(view: &mut DivinityView, state: &DivinityState, cat: &Catalogue, before: Option<&DivinityView>) {
    let kept = before
        .filter(|b| b.location == view.location && Ending::of(b) == Ending::of(view))
        .and_then(|b| b.front.clone());
    view.front = Some(kept.unwrap_or_else(|| crate::shared::Shared::new(front(cat, view))));
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
