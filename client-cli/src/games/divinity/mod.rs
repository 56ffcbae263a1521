//! Divinity (a party of Origins through a campaign's locations): what this
//! client knows of it: its [`ClientGame`], and its terminal screen
//! ([`tui`]).

pub mod tui;

use athlas_engine::divinity::DivinityAction;
use athlas_protocol::MatchLog;
use serde_json::Value;

use super::ClientGame;
use crate::{bot::Bot, screen::GameScreen, verify::Verified};

/// Divinity, as [`ClientGame`].
pub struct Divinity;

impl ClientGame for Divinity {
    const NAME: &'static str = "divinity";
    const CAMPAIGN: bool = true;

    fn check_action(action: &Value) -> Result<(), String> {
        serde_json::from_value::<DivinityAction>(action.clone())
            .map(|_| ())
            .map_err(|e| format!("not a divinity action: {e}"))
    }

    fn bot(seed: u64) -> Bot {
        Bot::divinity(seed)
    }

    fn verify(log: &MatchLog) -> Result<Verified, String> {
        crate::verify::replay::<athlas_engine::divinity::Divinity>(log)
    }

    fn screen() -> Box<dyn GameScreen> {
        Box::new(tui::Play::new())
    }
}
