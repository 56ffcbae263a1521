//! The games this server hosts, type-erased so the lobby and the socket layer
//! work with JSON while each room stays generic over its [`athlas_engine::Ruleset`].
//! A game with a campaign variant ([`athlas_engine::campaign::Campaign`])
//! also offers its [`CampaignRules`], erased the same way.

use std::{collections::BTreeMap, marker::PhantomData, sync::Arc};

use athlas_engine::{
    campaign::{Campaign, Step},
    RuleError, Seat,
};
use serde_json::Value;
use uuid::Uuid;

use crate::{
    audit::AuditFuture,
    fold::FoldFuture,
    refusal::{Code, Refusal},
    room::{self, RoomCtx, RoomHandle},
    store::{MatchRecord, Store},
};

/// A game as the server sees it.
pub trait HostedGame: Send + Sync + 'static {
    /// The name on the wire and in the store.
    fn name(&self) -> &'static str;
    fn rules_version(&self) -> u32;
    /// The game's public reference content, `(name, JSON text)`
    /// ([`athlas_engine::Ruleset::CATALOGUE`]).
    fn catalogue(&self) -> &'static [(&'static str, &'static str)];
    /// Check options (the server's own keys removed) by starting a game with
    /// them; returns the number of seats and where the new match stands.
    ///
    /// # Errors
    /// Why the game refuses the options, in words.
    fn check_options(&self, options: &Value, seed: u64) -> Result<Started, String>;
    /// Spawn the task of room `match_id` (it loads itself from the store).
    fn spawn_room(&self, match_id: Uuid, generation: u64, ctx: RoomCtx) -> RoomHandle;
    /// The option of this game that the server caps beyond its rules
    /// (`--max-summoning-points`); `None`: none.
    fn capped(&self) -> Option<&'static str> {
        None
    }
    /// The game's campaign variant; `None`: it has none.
    fn campaign(&self) -> Option<&dyn CampaignRules> {
        None
    }
    /// Replay a stored match's whole log and check its state hashes
    /// ([`crate::audit`]).
    fn audit<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> AuditFuture<'a>;
    /// Fold a finished match's whole log for the replay viewer, checking
    /// it as `athlas verify` does ([`crate::replay`]).
    fn replay<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> FoldFuture<'a>;
}

/// A match the game agreed to start: its seats, and its standing before
/// any action (`Ruleset::standing`), stored with it so that a campaign's
/// status says where a new location stands from the start.
#[derive(Debug, Clone)]
pub struct Started {
    pub seats: usize,
    pub standing: Value,
}

/// Why a campaign operation failed.
#[derive(Debug)]
pub enum CampaignError {
    /// The game refused (options, a choice), with its stable code.
    Refused(RuleError),
    /// The request's JSON is not a value of the game's type.
    Bad(String),
    /// The stored campaign state does not read as the game's.
    Corrupt(String),
}

/// A game's [`Campaign`], with its saved state, options and choices as JSON.
/// Each method reads the stored state afresh; nothing is kept in between.
pub trait CampaignRules: Send + Sync {
    /// The number of seats when the host names none.
    fn default_seats(&self, options: &Value) -> usize;
    /// A new campaign's saved state.
    ///
    /// # Errors
    /// Options the game cannot read or refuses, for this many seats.
    fn new_campaign(&self, options: &Value, seats: usize) -> Result<Value, CampaignError>;
    /// The saved state after `seat` made `choice`.
    ///
    /// # Errors
    /// The game's refusal, or a choice it cannot read.
    fn choose(&self, saved: &Value, seat: Seat, choice: &Value) -> Result<Value, CampaignError>;
    /// What the campaign needs next; `Ready` holds the next match's options.
    ///
    /// # Errors
    /// A stored state that does not read.
    fn next(&self, saved: &Value) -> Result<Step<Value>, CampaignError>;
    /// A seat's public label (Divinity: its Origin).
    fn label(&self, saved: &Value, seat: Seat) -> Option<String>;
    /// Who starts the next match; `None`: any seat.
    fn leader(&self, saved: &Value) -> Option<Seat>;
}

/// Any [`athlas_engine::Ruleset`] as a [`HostedGame`].
pub struct RulesetGame<R>(PhantomData<fn() -> R>);

impl<R> Default for RulesetGame<R> {
    fn default() -> Self {
        RulesetGame(PhantomData)
    }
}

impl<R> HostedGame for RulesetGame<R>
where
    R: crate::hosted::Hosted,
{
    fn name(&self) -> &'static str {
        R::GAME
    }

    fn rules_version(&self) -> u32 {
        R::RULES_VERSION
    }

    fn catalogue(&self) -> &'static [(&'static str, &'static str)] {
        R::CATALOGUE
    }

    fn check_options(&self, options: &Value, seed: u64) -> Result<Started, String> {
        let options: R::Options = serde_json::from_value(options.clone()).map_err(|e| e.to_string())?;
        let state = R::start(&options, seed).map_err(|e| e.to_string())?;
        Ok(Started { seats: R::seats(&options), standing: R::standing(&state) })
    }

    fn spawn_room(&self, match_id: Uuid, generation: u64, ctx: RoomCtx) -> RoomHandle {
        room::spawn::<R>(match_id, generation, ctx, None)
    }

    fn audit<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> AuditFuture<'a> {
        Box::pin(crate::audit::audit_match::<R>(store, record))
    }

    fn replay<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> FoldFuture<'a> {
        Box::pin(crate::fold::fold::<R>(store, record))
    }
}

/// A [`Campaign`] ruleset as a [`HostedGame`] with its campaign variant.
pub struct CampaignGame<R> {
    matches: RulesetGame<R>,
    /// The option the server caps ([`HostedGame::capped`]).
    capped: Option<&'static str>,
    /// Campaign options the host may leave out, where the game's own
    /// defaults are a single match's (Divinity: no Origins named up front,
    /// they are chosen).
    defaults: Value,
}

impl<R> CampaignGame<R> {
    /// The server caps option `name` of this game at
    /// `--max-summoning-points` (the duel's `summoning_points`).
    #[must_use]
    pub fn capped(mut self, name: &'static str) -> CampaignGame<R> {
        self.capped = Some(name);
        self
    }

    pub fn new(defaults: Value) -> CampaignGame<R> {
        CampaignGame { matches: RulesetGame::default(), capped: None, defaults }
    }
}

impl<R> CampaignGame<R>
where
    R: crate::hosted::Hosted + Campaign,
{
    fn options(&self, options: &Value) -> Result<R::Options, CampaignError> {
        let mut options = options.clone();
        if let (Value::Object(o), Value::Object(d)) = (&mut options, &self.defaults) {
            for (k, v) in d {
                o.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        serde_json::from_value(options).map_err(|e| CampaignError::Bad(e.to_string()))
    }
}

fn saved<R: Campaign>(saved: &Value) -> Result<R::Saved, CampaignError> {
    serde_json::from_value(saved.clone()).map_err(|e| CampaignError::Corrupt(format!("stored campaign state: {e}")))
}

fn to_json(v: &impl serde::Serialize) -> Value {
    serde_json::to_value(v).expect("campaign values serialize")
}

/// The campaign after a match of it finished in `state`: the room's
/// finish path calls it, typed on the state, erased on the saved value.
pub fn after<R: Campaign>(saved_value: &Value, state: &R::State) -> Result<Value, String> {
    let s = saved::<R>(saved_value).map_err(|e| format!("{e:?}"))?;
    Ok(to_json(&R::after(&s, state)))
}

impl<R> HostedGame for CampaignGame<R>
where
    R: crate::hosted::Hosted + Campaign,
{
    fn name(&self) -> &'static str {
        self.matches.name()
    }
    fn rules_version(&self) -> u32 {
        self.matches.rules_version()
    }
    fn catalogue(&self) -> &'static [(&'static str, &'static str)] {
        self.matches.catalogue()
    }
    fn check_options(&self, options: &Value, seed: u64) -> Result<Started, String> {
        self.matches.check_options(options, seed)
    }
    fn spawn_room(&self, match_id: Uuid, generation: u64, ctx: RoomCtx) -> RoomHandle {
        room::spawn::<R>(match_id, generation, ctx, Some(after::<R>))
    }
    fn campaign(&self) -> Option<&dyn CampaignRules> {
        Some(self)
    }
    fn capped(&self) -> Option<&'static str> {
        self.capped
    }
    fn audit<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> AuditFuture<'a> {
        self.matches.audit(store, record)
    }
    fn replay<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> FoldFuture<'a> {
        self.matches.replay(store, record)
    }
}

impl<R> CampaignRules for CampaignGame<R>
where
    R: crate::hosted::Hosted + Campaign,
{
    fn default_seats(&self, options: &Value) -> usize {
        // A game whose options name no seats (a party chosen later) is
        // played by two.
        self.options(options).map(|o| R::seats(&o)).ok().filter(|n| *n > 0).unwrap_or(2)
    }

    fn new_campaign(&self, options: &Value, seats: usize) -> Result<Value, CampaignError> {
        let options = self.options(options)?;
        R::new_campaign(&options, seats)
            .map(|s| to_json(&s))
            .map_err(|e| CampaignError::Refused(RuleError::new("bad_options", e.to_string())))
    }

    fn choose(&self, saved_value: &Value, seat: Seat, choice: &Value) -> Result<Value, CampaignError> {
        let mut s = saved::<R>(saved_value)?;
        let choice: R::Choice = serde_json::from_value(choice.clone())
            .map_err(|e| CampaignError::Bad(format!("not a {} choice: {e}", R::GAME)))?;
        R::choose(&mut s, seat, choice).map_err(CampaignError::Refused)?;
        Ok(to_json(&s))
    }

    fn next(&self, saved_value: &Value) -> Result<Step<Value>, CampaignError> {
        Ok(match R::next(&saved::<R>(saved_value)?) {
            Step::Choosing { seats } => Step::Choosing { seats },
            Step::Ready(options) => Step::Ready(to_json(&options)),
            Step::Over => Step::Over,
        })
    }

    fn label(&self, saved_value: &Value, seat: Seat) -> Option<String> {
        R::label(&saved::<R>(saved_value).ok()?, seat)
    }

    fn leader(&self, saved_value: &Value) -> Option<Seat> {
        R::leader(&saved::<R>(saved_value).ok()?)
    }
}

/// The games of a server, by name.
#[derive(Clone, Default)]
pub struct Registry {
    games: BTreeMap<&'static str, Arc<dyn HostedGame>>,
}

impl Registry {
    /// No games.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Every game this build ships: the duel and Divinity, each with its
    /// campaign variant.
    pub fn standard() -> Registry {
        Registry::new()
            .with(
                CampaignGame::<athlas_engine::duel::Duel>::new(Value::Object(Default::default()))
                    .capped("summoning_points"),
            )
            .with(CampaignGame::<athlas_engine::divinity::Divinity>::new(serde_json::json!({ "party": [] })))
            .with(RulesetGame::<athlas_engine::clans::Clans>::default())
            .with(RulesetGame::<athlas_engine::nim::Nim>::default())
    }

    /// Add a game (replacing one of the same name).
    #[must_use]
    pub fn with(mut self, game: impl HostedGame) -> Registry {
        self.games.insert(game.name(), Arc::new(game));
        self
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn HostedGame>> {
        self.games.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.games.keys().copied()
    }
}

impl crate::audit::Auditors for Registry {
    fn audit_of<'a>(&'a self, store: &'a Store, record: &'a MatchRecord) -> Option<AuditFuture<'a>> {
        Some(self.get(&record.game)?.audit(store, record))
    }
}

/// What this server hosts beyond the rules: the option a game names as
/// capped ([`HostedGame::capped`]; the duel's summoning points) up to
/// `--max-summoning-points` (the duel's book allows any amount the players
/// agree on, L259-271, so this is the server's refusal, not the game's).
pub(crate) fn check_hosted(cap: u32, game: &dyn HostedGame, options: &Value) -> Result<(), Refusal> {
    let Some(capped) = game.capped() else { return Ok(()) };
    match options.get(capped).and_then(Value::as_u64) {
        Some(points) if points > u64::from(cap) => Err(Refusal::new(
            Code::SummoningPointsOverCap,
            format!(
                "this server hosts {} matches of at most {cap} {} a player ({points} asked); \
                 the rules allow more when both players agree",
                game.name(),
                capped.replace('_', " "),
            ),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Divinity's campaign through the erased seam: Origins left out are
    /// chosen (not the single match's default party), choices and refusals
    /// travel as JSON, and a full party is ready with its Origins.
    #[test]
    fn a_divinity_campaign_goes_through_json() {
        let registry = Registry::standard();
        let c = registry.get("divinity").unwrap().campaign().expect("divinity has campaigns");
        assert_eq!(c.default_seats(&json!({})), 2);
        assert_eq!(c.default_seats(&json!({"party": ["ifan", "lohse", "sebille"]})), 3);
        let saved = c.new_campaign(&json!({}), 2).unwrap();
        assert!(matches!(c.next(&saved).unwrap(), Step::Choosing { seats } if seats == [0, 1]));
        let saved = c.choose(&saved, 0, &json!({"origin": "ifan"})).unwrap();
        let Err(CampaignError::Refused(e)) = c.choose(&saved, 1, &json!({"origin": "ifan"})) else { panic!("taken") };
        assert_eq!(e.code, "origin_taken");
        assert!(matches!(c.choose(&saved, 1, &json!({"nope": 1})), Err(CampaignError::Bad(_))));
        let saved = c.choose(&saved, 1, &json!({"origin": "lohse"})).unwrap();
        let Step::Ready(options) = c.next(&saved).unwrap() else { panic!("ready") };
        assert_eq!(options["party"], json!(["ifan", "lohse"]));
        assert_eq!(c.label(&saved, 1).as_deref(), Some("lohse"));
        assert!(matches!(c.next(&json!({"not": "a campaign"})), Err(CampaignError::Corrupt(_))));
        assert!(matches!(c.new_campaign(&json!({}), 5), Err(CampaignError::Refused(_))));
        assert!(registry.get("duel").unwrap().campaign().is_some());
    }
}
