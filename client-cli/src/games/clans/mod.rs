//! The clan-of-gods card battle (one against one or two against two, Gods
//! and allies on a square field with terrain): what this client knows of
//! it: its [`ClientGame`], and its terminal screen ([`screen`], drawn by
//! [`draw`], card texts from [`cards`]). Everything a seat may do comes
//! from the server's `view.legal` and its words (`protocol/CLANS.md`): the
//! client never judges legality.

pub mod cards;
pub mod draw;
pub mod screen;
#[cfg(test)]
mod tests;

use athlas_engine::clans::action::ClansAction;
use athlas_protocol::MatchLog;
use serde_json::Value;

use super::ClientGame;
use crate::{bot::Bot, screen::GameScreen, verify::Verified};

/// The clan battle, as [`ClientGame`].
pub struct Clans;

impl ClientGame for Clans {
    const NAME: &'static str = "clans";
    const CAMPAIGN: bool = false;

    fn check_action(action: &Value) -> Result<(), String> {
        serde_json::from_value::<ClansAction>(action.clone())
            .map(|_| ())
            .map_err(|e| format!("not a clan battle action: {e}"))
    }

    fn bot(seed: u64) -> Bot {
        Bot::clans(seed)
    }

    fn verify(log: &MatchLog) -> Result<Verified, String> {
        crate::verify::replay::<athlas_engine::clans::Clans>(log)
    }

    fn screen() -> Box<dyn GameScreen> {
        Box::new(screen::Play::new())
    }
}
