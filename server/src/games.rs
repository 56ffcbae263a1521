//! The games this server hosts, type-erased so the lobby and the socket layer
//! work with JSON while each room stays generic over its [`athlas_engine::Ruleset`].

use std::{collections::BTreeMap, marker::PhantomData, sync::Arc};

use athlas_engine::duel::{alpha::AlphaDesign, state::CampaignGame};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use crate::room::{self, RoomCtx, RoomHandle};

/// A game as the server sees it.
pub trait Game: Send + Sync + 'static {
    /// The name on the wire and in the store.
    fn name(&self) -> &'static str;
    fn rules_version(&self) -> u32;
    /// Check options (the server's own keys removed) by starting a game with
    /// them; returns the number of seats.
    ///
    /// # Errors
    /// Why the game refuses the options, in words.
    fn check_options(&self, options: &Value, seed: u64) -> Result<usize, String>;
    /// Spawn the task of room `match_id` (it loads itself from the store).
    fn spawn_room(&self, match_id: Uuid, generation: u64, ctx: RoomCtx) -> RoomHandle;
    /// Campaign variant: the options of a campaign's next game, from the
    /// campaign's base options and each seat's locked secret of the previous
    /// game (none for the first game). `None`: this game has no campaigns.
    fn campaign_options(&self, _base: &Value, _previous: Option<&[Value]>) -> Option<Value> {
        None
    }
}

/// Any [`athlas_engine::Ruleset`] as a [`Game`].
pub struct RulesetGame<R>(PhantomData<fn() -> R>);

impl<R> Default for RulesetGame<R> {
    fn default() -> Self {
        RulesetGame(PhantomData)
    }
}

impl<R> Game for RulesetGame<R>
where
    R: crate::room::Hosted,
{
    fn name(&self) -> &'static str {
        R::GAME
    }

    fn rules_version(&self) -> u32 {
        R::RULES_VERSION
    }

    fn check_options(&self, options: &Value, seed: u64) -> Result<usize, String> {
        let options: R::Options = serde_json::from_value(options.clone()).map_err(|e| e.to_string())?;
        R::start(&options, seed).map_err(|e| e.to_string())?;
        Ok(R::seats(&options))
    }

    fn spawn_room(&self, match_id: Uuid, generation: u64, ctx: RoomCtx) -> RoomHandle {
        room::spawn::<R>(match_id, generation, ctx)
    }
}

/// The duel, with its campaign variant: each game of a campaign carries both
/// players' Alphas of the previous game.
pub struct DuelGame(RulesetGame<athlas_engine::duel::Duel>);

impl Game for DuelGame {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn rules_version(&self) -> u32 {
        self.0.rules_version()
    }
    fn check_options(&self, options: &Value, seed: u64) -> Result<usize, String> {
        self.0.check_options(options, seed)
    }
    fn spawn_room(&self, match_id: Uuid, generation: u64, ctx: RoomCtx) -> RoomHandle {
        self.0.spawn_room(match_id, generation, ctx)
    }
    fn campaign_options(&self, base: &Value, previous: Option<&[Value]>) -> Option<Value> {
        let mut options = if base.is_object() { base.clone() } else { Value::Object(Default::default()) };
        // A seat that locked nothing (or a secret that is not a duel's)
        // carries no Alphas.
        let alphas = |seat: usize| {
            previous
                .and_then(|secrets| secrets.get(seat))
                .and_then(|s| DuelSecret::deserialize(s).ok())
                .map(|s| s.alphas)
                .unwrap_or_default()
        };
        let campaign = CampaignGame { previous: [alphas(0), alphas(1)] };
        options["campaign"] = serde_json::to_value(campaign).expect("campaign options serialize");
        Some(options)
    }
}

/// What a duel seat locks in (the engine's `Duel::locked_secret`), as far as
/// a campaign reads it: the Alphas carried into the next game.
#[derive(Deserialize)]
struct DuelSecret {
    #[serde(default)]
    alphas: Vec<AlphaDesign>,
}

/// The games of a server, by name.
#[derive(Clone, Default)]
pub struct Registry {
    games: BTreeMap<&'static str, Arc<dyn Game>>,
}

impl Registry {
    /// No games.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Every game this build ships: the duel, and Divinity (one location a
    /// match; its campaigns as records of their own are still to come).
    pub fn standard() -> Registry {
        Registry::new()
            .with(DuelGame(RulesetGame::default()))
            .with(RulesetGame::<athlas_engine::divinity::Divinity>::default())
    }

    /// Add a game (replacing one of the same name).
    #[must_use]
    pub fn with(mut self, game: impl Game) -> Registry {
        self.games.insert(game.name(), Arc::new(game));
        self
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn Game>> {
        self.games.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.games.keys().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_engine::{
        duel::{Duel, DuelAction, DuelOptions},
        Ruleset,
    };

    /// The next game of a duel campaign carries each seat's locked Alphas
    /// (none for the first game, or for a seat that locked none) and keeps
    /// the campaign's base options.
    #[test]
    fn a_duel_campaign_carries_each_seats_locked_alphas() {
        let game = DuelGame(RulesetGame::default());
        let mut state = Duel::start(&DuelOptions::default(), 7).unwrap();
        Duel::apply(&mut state, 0, DuelAction::UsePreset { preset: "aquatic".into() }).unwrap();
        Duel::apply(&mut state, 1, DuelAction::UsePreset { preset: "rush".into() }).unwrap();
        let secrets: Vec<Value> = (0..2).map(|s| Duel::locked_secret(&state, s).unwrap()).collect();
        let base = serde_json::json!({ "summoning_points": 300 });

        let next: DuelOptions = serde_json::from_value(game.campaign_options(&base, Some(&secrets)).unwrap()).unwrap();
        assert_eq!(next.summoning_points, 300);
        let carried = next.campaign.unwrap().previous;
        for seat in 0..2 {
            assert_eq!(serde_json::to_value(&carried[seat]).unwrap(), secrets[seat]["alphas"], "seat {seat}");
            assert_eq!(carried[seat].len(), 3);
        }

        let first: DuelOptions = serde_json::from_value(game.campaign_options(&base, None).unwrap()).unwrap();
        assert_eq!(first.campaign.unwrap().previous, [vec![], vec![]]);
        let unlocked = [secrets[0].clone(), Value::Null];
        let next: DuelOptions = serde_json::from_value(game.campaign_options(&base, Some(&unlocked)).unwrap()).unwrap();
        assert_eq!(next.campaign.unwrap().previous[1], vec![]);
    }
}
