//! The games this client plays, one folder each (`games/<game>/`), and the
//! registry that names them. A game's folder holds everything of it the
//! client knows: its [`ClientGame`] (the name it goes by, whether its seats
//! come from campaigns, how a script line is checked, its bot, how a
//! published log is replayed, its screen in the terminal UI) and the
//! modules behind them.
//!
//! A new game's folder holds `mod.rs` with a unit struct implementing
//! [`ClientGame`], and a type implementing [`GameScreen`] (its screen in
//! the terminal UI); its registration is one line in the `registry!` call
//! below.
//!
//! The rest of the client speaks of a game only as a [`GameKind`], parsed
//! once at the edge (the command line, a frame's `game`); registering a
//! game is one line in [`registry!`]'s call below.

pub mod clans;
pub mod divinity;
pub mod duel;
pub mod nim;

use serde_json::Value;

use crate::{bot::Bot, screen::GameScreen, verify::Verified};
use athlas_protocol::MatchLog;

/// What the terminal client knows of one game.
pub trait ClientGame {
    /// The game's name in the protocol: a frame's `game`, the lobby's
    /// `POST /api/matches` and `/api/campaigns`, the command line.
    const NAME: &'static str;
    /// Its seats come from a campaign (`athlas campaign new/join`), not
    /// from a match of its own (`athlas create/join`).
    const CAMPAIGN: bool;
    /// Whether `action` reads as one of the game's actions (a script line
    /// is checked before it is sent; the server checks it again).
    ///
    /// # Errors
    /// Why it does not, in words.
    fn check_action(action: &Value) -> Result<(), String>;
    /// A random legal player for one seat of the game.
    fn bot(seed: u64) -> Bot;
    /// Replay a finished match's published log with this build's engine
    /// and check it (`athlas verify`).
    ///
    /// # Errors
    /// The first check that failed, in words.
    fn verify(log: &MatchLog) -> Result<Verified, String>;
    /// A new match's options from the command line's `--points` (the
    /// duel's summoning points; games without them ignore it). Default: the
    /// game's own defaults (`{}`).
    fn match_options(_points: u32) -> Value {
        Value::Object(Default::default())
    }
    /// The game's screen in the terminal UI, which takes its matches'
    /// frames and keys once a welcome names the game.
    fn screen() -> Box<dyn GameScreen>;
}

/// Declares [`GameKind`], one variant per registered game, dispatching to
/// each game's [`ClientGame`].
macro_rules! registry {
    ($($kind:ident => $game:ty),+ $(,)?) => {
        /// A game this client plays: parsed once from its name, then
        /// passed around typed.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($kind),+
        }

        impl GameKind {
            /// Every registered game.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$kind),+];

            /// The game's name in the protocol.
            pub fn name(self) -> &'static str {
                match self { $(GameKind::$kind => <$game as ClientGame>::NAME),+ }
            }

            /// Its seats come from campaigns.
            pub fn campaign(self) -> bool {
                match self { $(GameKind::$kind => <$game as ClientGame>::CAMPAIGN),+ }
            }

            /// See [`ClientGame::check_action`].
            ///
            /// # Errors
            /// Why `action` is not one of the game's.
            pub fn check_action(self, action: &Value) -> Result<(), String> {
                match self { $(GameKind::$kind => <$game as ClientGame>::check_action(action)),+ }
            }

            /// See [`ClientGame::match_options`].
            pub fn match_options(self, points: u32) -> Value {
                match self { $(GameKind::$kind => <$game as ClientGame>::match_options(points)),+ }
            }

            /// See [`ClientGame::bot`].
            pub fn bot(self, seed: u64) -> Bot {
                match self { $(GameKind::$kind => <$game as ClientGame>::bot(seed)),+ }
            }

            /// See [`ClientGame::screen`].
            pub fn screen(self) -> Box<dyn GameScreen> {
                match self { $(GameKind::$kind => <$game as ClientGame>::screen()),+ }
            }

            /// See [`ClientGame::verify`].
            ///
            /// # Errors
            /// The first check that failed.
            pub fn verify(self, log: &MatchLog) -> Result<Verified, String> {
                match self { $(GameKind::$kind => <$game as ClientGame>::verify(log)),+ }
            }
        }
    };
}

registry! {
    Duel => duel::Duel,
    Divinity => divinity::Divinity,
    Nim => nim::Nim,
    Clans => clans::Clans,
}

impl GameKind {
    /// The game of this name, if this client plays it.
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// The names of the games `keep` keeps, for an error message.
    fn names(keep: impl Fn(GameKind) -> bool) -> String {
        GameKind::ALL.iter().filter(|k| keep(**k)).map(|k| k.name()).collect::<Vec<_>>().join(", ")
    }

    /// The game of `name`, for the command line (`--game`).
    ///
    /// # Errors
    /// A game this client does not play, with those it does.
    pub fn parse(name: &str) -> Result<GameKind, String> {
        GameKind::from_name(name).ok_or_else(|| format!("{name:?}: this client plays {}", GameKind::names(|_| true)))
    }

    /// A game whose matches are created on their own (`athlas create`).
    ///
    /// # Errors
    /// Another game, or a game played in campaigns.
    pub fn parse_match(name: &str) -> Result<GameKind, String> {
        match GameKind::parse(name)? {
            k if !k.campaign() => Ok(k),
            _ => Err(format!("{name:?} is played in campaigns (`athlas campaign new`); matches: {}", {
                GameKind::names(|k| !k.campaign())
            })),
        }
    }

    /// A game played in campaigns (`athlas campaign new`).
    ///
    /// # Errors
    /// Another game, or one whose matches stand alone.
    pub fn parse_campaign(name: &str) -> Result<GameKind, String> {
        match GameKind::parse(name)? {
            k if k.campaign() => Ok(k),
            _ => Err(format!("{name:?} has no campaigns; campaigns: {}", GameKind::names(GameKind::campaign))),
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind compares equal to its name (`--game divinity` is `"divinity"`).
impl PartialEq<&str> for GameKind {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

/// Replay `log` and check it.
///
/// # Errors
/// The first check that failed, in words (a record refused, a state hash,
/// a commitment, the outcome), or a game or rules version this build does
/// not play.
pub fn verify(log: &MatchLog) -> Result<Verified, String> {
    match GameKind::from_name(&log.game) {
        Some(game) => game.verify(log),
        None => Err(format!("this build does not play {:?}", log.game)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_own_name_and_of_one_kind_of_seat() {
        for k in GameKind::ALL {
            assert_eq!(GameKind::from_name(k.name()), Some(*k));
            assert_eq!(GameKind::parse_match(k.name()).is_ok(), !k.campaign(), "{k}");
            assert_eq!(GameKind::parse_campaign(k.name()).is_ok(), k.campaign(), "{k}");
        }
        assert!(GameKind::parse("chess").unwrap_err().contains("chess"));
    }
}
