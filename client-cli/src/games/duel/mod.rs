//! The duel (two seats, Alphas and DIs on a hex board): what this client
//! knows of it: its [`ClientGame`], and its terminal screen ([`tui`]) with
//! the parts it draws (the board, card texts, menu labels, confirmations,
//! help, the ending, and the creation of Alphas and a DI stack).

pub mod board;
pub mod card_text;
pub mod confirm;
pub mod creation;
pub mod ending;
pub mod help;
pub mod labels;
pub mod tui;

use athlas_engine::duel::{card::Catalogue, DuelAction};
use athlas_protocol::MatchLog;
use serde_json::Value;

use super::ClientGame;
use crate::{bot::Bot, screen::GameScreen, verify::Verified};

/// The duel, as [`ClientGame`].
pub struct Duel;

impl ClientGame for Duel {
    const NAME: &'static str = "duel";
    const CAMPAIGN: bool = false;

    fn check_action(action: &Value) -> Result<(), String> {
        serde_json::from_value::<DuelAction>(action.clone()).map(|_| ()).map_err(|e| format!("not a duel action: {e}"))
    }

    fn match_options(points: u32) -> Value {
        serde_json::json!({ "summoning_points": points })
    }

    fn bot(seed: u64) -> Bot {
        Bot::new(seed, Catalogue::standard())
    }

    fn verify(log: &MatchLog) -> Result<Verified, String> {
        crate::verify::replay::<athlas_engine::duel::Duel>(log)
    }

    fn screen() -> Box<dyn GameScreen> {
        Box::new(tui::Play::new(Catalogue::standard()))
    }
}
