//! The games this server hosts, type-erased so the lobby and the socket layer
//! work with JSON while each room stays generic over its [`athlas_engine::Ruleset`].

use std::{collections::BTreeMap, marker::PhantomData, sync::Arc};

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
        let previous: Vec<Value> = match previous {
            None => vec![Value::Array(vec![]), Value::Array(vec![])],
            Some(secrets) => secrets.iter().map(|s| s.get("alphas").cloned().unwrap_or(Value::Array(vec![]))).collect(),
        };
        options["campaign"] = serde_json::json!({ "previous": previous });
        Some(options)
    }
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

    /// Every game this build ships: the duel.
    pub fn standard() -> Registry {
        Registry::new().with(DuelGame(RulesetGame::default()))
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
