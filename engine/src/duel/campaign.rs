//! The duel's campaign variant as a [`Campaign`]: every game after the first
//! carries each player's four Alphas of the game before (revealed once that
//! game ended). Nothing is chosen between games and a campaign does not end:
//! the players stop when they like.

use serde::{Deserialize, Serialize};

use super::alpha::AlphaDesign;
use super::state::{CampaignGame, DuelOptions, DuelState};
use super::Duel;
use crate::campaign::{Campaign, Step};
use crate::{RuleError, Ruleset, Seat, SetupError};

/// A duel campaign between games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelCampaign {
    pub version: u32,
    /// The options every game starts from (without `campaign`).
    pub options: DuelOptions,
    /// Games played to their end so far.
    pub games: u32,
    /// Each seat's Alphas of the last finished game (empty before the first).
    pub previous: [Vec<AlphaDesign>; 2],
}

/// The duel has no choices between games.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum NoChoice {}

impl Campaign for Duel {
    type Saved = DuelCampaign;
    type Choice = NoChoice;

    fn new_campaign(options: &DuelOptions, seats: usize) -> Result<DuelCampaign, SetupError> {
        if seats != 2 {
            return Err(SetupError::new("a duel is 2 seats"));
        }
        let options = DuelOptions { campaign: None, ..options.clone() };
        // Check the options as the first game will use them.
        Duel::start(&DuelOptions { campaign: Some(CampaignGame::default()), ..options.clone() }, 0)?;
        Ok(DuelCampaign { version: 1, options, games: 0, previous: Default::default() })
    }

    fn choose(_: &mut DuelCampaign, _: Seat, choice: NoChoice) -> Result<(), RuleError> {
        match choice {}
    }

    fn next(c: &DuelCampaign) -> Step<DuelOptions> {
        Step::Ready(DuelOptions { campaign: Some(CampaignGame { previous: c.previous.clone() }), ..c.options.clone() })
    }

    /// A seat that locked nothing carries no Alphas.
    fn after(c: &DuelCampaign, state: &DuelState) -> DuelCampaign {
        let alphas = |seat: Seat| {
            let p = &state.game.players[seat as usize];
            if p.locked {
                p.alphas.iter().map(|a| (*a.design).clone()).collect()
            } else {
                Vec::new()
            }
        };
        DuelCampaign { games: c.games + 1, previous: [alphas(0), alphas(1)], ..c.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::DuelAction;

    /// The next game carries each seat's locked Alphas (none for a seat that
    /// locked none) and keeps the campaign's base options.
    #[test]
    fn a_duel_campaign_carries_each_seats_locked_alphas() {
        let base = DuelOptions { summoning_points: 300, ..DuelOptions::default() };
        let c = Duel::new_campaign(&base, 2).unwrap();
        let Step::Ready(first) = Duel::next(&c) else { panic!("ready") };
        assert_eq!(first.campaign.as_ref().unwrap().previous, [vec![], vec![]]);
        // A preset is three Alphas, which only a game outside the campaign
        // variant takes; `after` reads whatever a seat locked.
        let mut state = Duel::start(&c.options, 7).unwrap();
        Duel::apply(&mut state, 0, DuelAction::UsePreset { preset: "aquatic".into() }).unwrap();
        let c = Duel::after(&c, &state);
        assert_eq!(c.games, 1);
        let locked = Duel::locked_secret(&state, 0).unwrap();
        assert_eq!(serde_json::to_value(&c.previous[0]).unwrap(), locked["alphas"]);
        assert_eq!(c.previous[0].len(), 3);
        assert!(c.previous[1].is_empty(), "seat 1 locked nothing");
        let Step::Ready(next) = Duel::next(&c) else { panic!("ready") };
        assert_eq!(next.summoning_points, 300);
        assert!(Duel::new_campaign(&base, 3).is_err());
        assert!(Duel::new_campaign(&DuelOptions { summoning_points: 0, ..base }, 2).is_err());
    }
}
