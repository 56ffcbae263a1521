//! Divinity as a [`Campaign`]: before the first location each seat chooses
//! its Origin (no two the same) and the party may set a leader; each
//! location is one match started from the [`CampaignState`] the last one
//! left (L1326-1398), until the finale is reached.

use crate::divinity::DivinityRefusal;
use serde::{Deserialize, Serialize};

use super::content::{Catalogue, School};
use super::err;
use super::state::{CampaignState, DivinityOptions, DivinityState, Finish, OriginSave, Phase};
use super::Divinity;
use crate::campaign::{Campaign, Step};
use crate::{RuleError, Ruleset, Seat, SetupError};

/// Version of [`DivinityCampaign`]'s stored shape: bump it (and read the old
/// shape) when a field changes meaning.
pub const CAMPAIGN_VERSION: u32 = 1;

/// A Divinity campaign between locations, as the server stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DivinityCampaign {
    pub version: u32,
    /// The variants every location is played with (`party`, `location` and
    /// `campaign` are left empty: they come from the fields below).
    pub options: DivinityOptions,
    /// Each seat's Origin, once chosen (before the first location).
    pub origins: Vec<Option<String>>,
    /// The campaign as the last location left it; `None` before the first.
    pub saved: Option<CampaignState>,
}

/// A seat's choice between locations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DivinityChoice {
    /// The seat's Origin (before the first location only).
    Origin(String),
    /// The party's leader (`null`: none, any seat decides). Set by the host
    /// (seat 0) while there is no leader, else by the leader.
    Leader(Option<Seat>),
}

impl Campaign for Divinity {
    type Saved = DivinityCampaign;
    type Choice = DivinityChoice;

    fn new_campaign(options: &DivinityOptions, seats: usize) -> Result<DivinityCampaign, SetupError> {
        if !(1..=4).contains(&seats) {
            return Err(SetupError::new("a Divinity party is 1 to 4 seats"));
        }
        if options.solo && seats != 2 {
            return Err(SetupError::new("Solo Mode is one person playing two Origins: 2 seats"));
        }
        if options.leader.is_some_and(|l| l as usize >= seats) {
            return Err(SetupError::new("the leader must be one of the party's seats"));
        }
        if options.campaign.is_some() || options.location.is_some() {
            return Err(SetupError::new("a new campaign starts at the campaign's first location"));
        }
        let cat = Catalogue::standard();
        let mut campaign = DivinityCampaign {
            version: CAMPAIGN_VERSION,
            options: base(options),
            origins: vec![None; seats],
            saved: None,
        };
        // Origins given up front (`party`) are checked like chosen ones.
        if !options.party.is_empty() {
            if options.party.len() != seats {
                return Err(SetupError::new(format!("party names {} Origins for {seats} seats", options.party.len())));
            }
            for (seat, origin) in options.party.iter().enumerate() {
                choose_origin(cat, &mut campaign, seat as Seat, origin).map_err(|e| SetupError::new(e.message))?;
            }
        }
        Ok(campaign)
    }

    fn choose(c: &mut DivinityCampaign, seat: Seat, choice: DivinityChoice) -> Result<(), RuleError> {
        if seat as usize >= c.origins.len() {
            return Err(err(DivinityRefusal::NoSuchSeat, "no such seat"));
        }
        match choice {
            DivinityChoice::Origin(origin) => choose_origin(Catalogue::standard(), c, seat, &origin),
            DivinityChoice::Leader(leader) => {
                let may = match c.options.leader {
                    Some(l) => l == seat,
                    None => seat == 0,
                };
                if !may {
                    return Err(err(
                        DivinityRefusal::NotLeader,
                        "only the leader (or the host while there is none) sets the leader",
                    ));
                }
                if leader.is_some_and(|l| l as usize >= c.origins.len()) {
                    return Err(err(DivinityRefusal::NoSuchSeat, "the leader must be one of the party's seats"));
                }
                c.options.leader = leader;
                Ok(())
            }
        }
    }

    fn next(c: &DivinityCampaign) -> Step<DivinityOptions> {
        match &c.saved {
            Some(s) if s.finished => Step::Over,
            Some(s) => Step::Ready(DivinityOptions { campaign: Some(s.clone()), ..c.options.clone() }),
            None => {
                let seats: Vec<Seat> =
                    (0..c.origins.len() as Seat).filter(|s| c.origins[*s as usize].is_none()).collect();
                if seats.is_empty() {
                    Step::Ready(DivinityOptions {
                        party: c.origins.iter().flatten().cloned().collect(),
                        ..c.options.clone()
                    })
                } else {
                    Step::Choosing { seats }
                }
            }
        }
    }

    fn after(c: &DivinityCampaign, state: &DivinityState) -> DivinityCampaign {
        let saved = Divinity::campaign(state, Catalogue::standard());
        // An unfinished state (never passed by the server) keeps the campaign.
        DivinityCampaign { saved: saved.or_else(|| c.saved.clone()), ..c.clone() }
    }

    fn label(c: &DivinityCampaign, seat: Seat) -> Option<String> {
        c.origins.get(seat as usize).cloned().flatten()
    }

    fn leader(c: &DivinityCampaign) -> Option<Seat> {
        c.options.leader
    }
}

/// The host's options with what each location sets left out.
fn base(options: &DivinityOptions) -> DivinityOptions {
    DivinityOptions { party: Vec::new(), location: None, campaign: None, ..options.clone() }
}

fn choose_origin(cat: &Catalogue, c: &mut DivinityCampaign, seat: Seat, origin: &str) -> Result<(), RuleError> {
    if c.saved.is_some() {
        return Err(err(DivinityRefusal::OriginsLocked, "Origins are chosen before the first location"));
    }
    if !cat.origins.contains_key(origin) {
        let known: Vec<&str> = cat.origins.keys().map(String::as_str).collect();
        return Err(err(
            DivinityRefusal::UnknownOrigin,
            format!("no Origin {origin:?}; choose one of {}", known.join(", ")),
        ));
    }
    if let Some(other) = c.origins.iter().position(|o| o.as_deref() == Some(origin)).filter(|o| *o != seat as usize) {
        return Err(err(DivinityRefusal::OriginTaken, format!("seat {other} already plays {origin}")));
    }
    c.origins[seat as usize] = Some(origin.to_owned());
    Ok(())
}

/// Take-back (see [`Ruleset::take_back`]): refused when the action drew on
/// the RNG (a die, a shuffle) or showed anything hidden or new.
pub(super) fn take_back(
    before: &DivinityState,
    after: &DivinityState,
    events: &[super::event::DivinityEvent],
) -> Result<(), RuleError> {
    use super::event::DivinityEvent as E;
    if before.rng != after.rng {
        return Err(err(DivinityRefusal::Revealed, "that action rolled dice or shuffled a deck"));
    }
    let revealing = events.iter().find(|e| {
        matches!(
            e,
            E::Rolled { .. }
                | E::Rerolled { .. }
                | E::CardRevealed { .. }
                | E::Spawned { .. }
                | E::Targeted { .. }
                | E::TieToBreak { .. }
                | E::JournalRevealed { .. }
                | E::ItemGained { .. }
                | E::RewardDiscarded { .. }
                | E::DeckEmpty { .. }
                | E::MerchantShows { .. }
                | E::CardPlaced { .. }
                | E::KeyPlaced { .. }
                | E::LocationExited { .. }
                | E::LocationFinished { .. }
                | E::CombatEnded { .. }
        )
    });
    match revealing {
        Some(e) => Err(err(DivinityRefusal::Revealed, format!("that action revealed something: {}", event_name(e)))),
        None => Ok(()),
    }
}

fn event_name(e: &super::event::DivinityEvent) -> String {
    serde_json::to_value(e)
        .ok()
        .and_then(|v| v.get("event").and_then(|t| t.as_str()).map(str::to_owned))
        .unwrap_or_else(|| "an event".into())
}

impl Divinity {
    /// The campaign after the location, once it is over (L1326-1398): the
    /// next location and level, gold (lost on a restart, L1334), journal,
    /// and what each Origin keeps. HP and Source are not kept.
    pub fn campaign(state: &DivinityState, cat: &Catalogue) -> Option<CampaignState> {
        let Phase::Finished { result } = &state.phase else { return None };
        if *result == Finish::Restart && state.options.honor_mode {
            return Some(Divinity::campaign_from_scratch(state, cat));
        }
        // The level went up when the interlude opened.
        let (location, level, gold) = match result {
            Finish::Exit { to, .. } => (to.clone(), state.level, state.gold),
            Finish::Restart => (state.location.clone(), state.level, 0),
        };
        let finished = location == cat.campaign.finale;
        let origins = state
            .origins
            .iter()
            .map(|o| OriginSave {
                origin: o.origin.clone(),
                talents: o.talents.clone(),
                skills: o.skills.iter().filter(|s| cat.skills[*s].school != School::Source).cloned().collect(),
                items: o.equipped.iter().chain(&o.backpack).cloned().collect(),
                collar_broken: o.collar_broken,
                runes: o.runes.clone(),
            })
            .collect();
        Some(CampaignState {
            rules_version: Divinity::RULES_VERSION,
            location,
            level,
            gold,
            journal: state.journal.clone(),
            origins,
            found: state.found.clone(),
            finished,
            unrestricted_talents: state.options.unrestricted_talents,
            honor_mode: state.options.honor_mode,
        })
    }

    /// Honor Mode's forced restart (L1851): the whole campaign again, with
    /// newly created Origins of the same names.
    fn campaign_from_scratch(state: &DivinityState, cat: &Catalogue) -> CampaignState {
        let first = &cat.locations[&cat.campaign.first];
        CampaignState {
            rules_version: Divinity::RULES_VERSION,
            location: first.id.clone(),
            level: first.level,
            gold: 0,
            journal: Vec::new(),
            origins: state
                .origins
                .iter()
                .map(|o| {
                    let d = &cat.origins[&o.origin];
                    OriginSave {
                        origin: d.id.clone(),
                        talents: d.talents.clone(),
                        skills: d.skills.clone(),
                        items: d.items.clone(),
                        collar_broken: false,
                        runes: Vec::new(),
                    }
                })
                .collect(),
            found: Vec::new(),
            finished: false,
            unrestricted_talents: state.options.unrestricted_talents,
            honor_mode: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;

    /// The default variants, no Origins named.
    fn variants() -> DivinityOptions {
        DivinityOptions { party: Vec::new(), ..DivinityOptions::default() }
    }

    fn three() -> DivinityCampaign {
        Divinity::new_campaign(&variants(), 3).unwrap()
    }

    #[test]
    fn origins_are_chosen_once_each_before_the_first_location() {
        let mut c = three();
        assert_eq!(Divinity::next(&c), Step::Choosing { seats: vec![0, 1, 2] });
        Divinity::choose(&mut c, 0, DivinityChoice::Origin("ifan".into())).unwrap();
        let taken = Divinity::choose(&mut c, 1, DivinityChoice::Origin("ifan".into())).unwrap_err();
        assert_eq!(taken.code, "origin_taken");
        assert_eq!(
            Divinity::choose(&mut c, 1, DivinityChoice::Origin("nobody".into())).unwrap_err().code,
            "unknown_origin"
        );
        assert_eq!(
            Divinity::choose(&mut c, 3, DivinityChoice::Origin("lohse".into())).unwrap_err().code,
            "no_such_seat"
        );
        // A seat may change its mind before the first location.
        Divinity::choose(&mut c, 0, DivinityChoice::Origin("sebille".into())).unwrap();
        Divinity::choose(&mut c, 1, DivinityChoice::Origin("ifan".into())).unwrap();
        assert_eq!(Divinity::next(&c), Step::Choosing { seats: vec![2] });
        Divinity::choose(&mut c, 2, DivinityChoice::Origin("lohse".into())).unwrap();
        let Step::Ready(options) = Divinity::next(&c) else { panic!("ready") };
        assert_eq!(options.party, ["sebille", "ifan", "lohse"]);
        assert_eq!(Divinity::label(&c, 1).as_deref(), Some("ifan"));
        assert!(Divinity::start(&options, 1).is_ok());
    }

    #[test]
    fn the_host_sets_a_leader_then_only_the_leader_changes_it() {
        let mut c = three();
        assert_eq!(Divinity::choose(&mut c, 1, DivinityChoice::Leader(Some(1))).unwrap_err().code, "not_leader");
        Divinity::choose(&mut c, 0, DivinityChoice::Leader(Some(2))).unwrap();
        assert_eq!(Divinity::leader(&c), Some(2));
        assert_eq!(Divinity::choose(&mut c, 0, DivinityChoice::Leader(None)).unwrap_err().code, "not_leader");
        assert_eq!(Divinity::choose(&mut c, 2, DivinityChoice::Leader(Some(5))).unwrap_err().code, "no_such_seat");
        Divinity::choose(&mut c, 2, DivinityChoice::Leader(None)).unwrap();
        assert_eq!(Divinity::leader(&c), None);
    }

    #[test]
    fn bad_campaign_options_are_refused() {
        let o = variants();
        assert!(Divinity::new_campaign(&o, 0).is_err());
        assert!(Divinity::new_campaign(&o, 5).is_err());
        assert!(Divinity::new_campaign(&DivinityOptions { solo: true, ..o.clone() }, 3).is_err());
        assert!(Divinity::new_campaign(&DivinityOptions { party: vec!["ifan".into(), "ifan".into()], ..o }, 2).is_err());
    }

    /// A location's end carries the campaign on; the next location starts
    /// from it; origins are locked from then on.
    #[test]
    fn a_finished_location_becomes_the_next_ones_options() {
        let mut c =
            Divinity::new_campaign(&DivinityOptions { party: vec!["ifan".into(), "sebille".into()], ..variants() }, 2)
                .unwrap();
        let Step::Ready(options) = Divinity::next(&c) else { panic!("ready") };
        let mut state = Divinity::start(&options, 3).unwrap();
        // Play only legal actions, always the first, until the location ends.
        for _ in 0..5000 {
            let crate::Status::Waiting { seats } = Divinity::status(&state) else { break };
            let seat = seats[0];
            let action = Divinity::legal(&state, seat).into_iter().next().expect("a waiting seat has a legal action");
            Divinity::apply(&mut state, seat, action).unwrap();
        }
        assert!(Divinity::status(&state).is_finished(), "the location ended");
        c = Divinity::after(&c, &state);
        let saved = c.saved.clone().expect("saved after a location");
        let Step::Ready(next) = Divinity::next(&c) else { panic!("ready") };
        assert_eq!(next.campaign.as_ref(), Some(&saved));
        assert!(Divinity::start(&next, 4).is_ok());
        assert_eq!(
            Divinity::choose(&mut c, 0, DivinityChoice::Origin("lohse".into())).unwrap_err().code,
            "origins_locked"
        );
    }

    #[test]
    fn choices_are_plain_json() {
        let c: DivinityChoice = serde_json::from_str(r#"{"origin":"ifan"}"#).unwrap();
        assert_eq!(c, DivinityChoice::Origin("ifan".into()));
        let c: DivinityChoice = serde_json::from_str(r#"{"leader":null}"#).unwrap();
        assert_eq!(c, DivinityChoice::Leader(None));
    }
}
