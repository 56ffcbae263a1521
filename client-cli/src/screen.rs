//! What a game's terminal screen is to the UI around it: [`GameScreen`]
//! (frames and keys in, frames to send out, drawing under the [`Bar`]), and
//! the menu keys every game's screen shares. The UI (`tui`) holds one; each
//! game's folder (`games/<game>/`) implements it; neither imports the other
//! for it.

use athlas_protocol::ServerMsg;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// What the UI tells above any game's screen.
pub struct Bar<'a> {
    pub match_id: &'a str,
    pub join_code: Option<&'a str>,
    pub connection: &'a str,
    /// Whole seconds left of a timed window (a live match's enemy roll).
    pub timer_left: Option<u64>,
}

/// A game's own screen in the terminal UI ([`crate::games::ClientGame::screen`]):
/// once a welcome names its game, it takes the match's frames and the
/// keys, and draws the whole terminal under [`Bar`]'s facts.
pub trait GameScreen: AsAnyMut {
    /// A frame of the match (the App has kept its match id, seat, seq and
    /// timer).
    fn on_msg(&mut self, msg: ServerMsg);
    /// A key: the frame to send, if any.
    fn on_key(&mut self, key: KeyEvent) -> Option<String>;
    /// The player asked to leave.
    fn quit(&self) -> bool;
    /// The link dropped: an act in flight is settled by what the resume
    /// replays.
    fn disconnected(&mut self);
    /// A line for the game's log from the UI around it (a reconnection);
    /// a screen without a log lets it go.
    fn note(&mut self, _line: String) {}
    fn draw(&self, f: &mut ratatui::Frame<'_>, bar: &Bar<'_>);
    /// For tests that look inside a game's screen.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A screen's state, to be changed in place by tests that set it up; every
/// screen has it without writing it.
pub trait AsAnyMut {
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

impl<T: std::any::Any> AsAnyMut for T {
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// The keys that move through a numbered menu of `n` entries, shared by
/// every game's screen: arrows and j/k, pages, ends, a typed number
/// (Backspace and Esc edit it). False for any other key.
pub fn menu_key(code: KeyCode, n: usize, selected: &mut usize, number: &mut String, stale: &mut bool) -> bool {
    match code {
        KeyCode::Up | KeyCode::Char('k') => *selected = selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => *selected = (*selected + 1).min(n.saturating_sub(1)),
        KeyCode::PageUp => *selected = selected.saturating_sub(10),
        KeyCode::PageDown => *selected = (*selected + 10).min(n.saturating_sub(1)),
        KeyCode::Home => *selected = 0,
        KeyCode::End => *selected = n.saturating_sub(1),
        KeyCode::Char(c) if c.is_ascii_digit() => {
            *stale = false;
            number.push(c);
            if let Ok(k) = number.parse::<usize>() {
                if (1..=n).contains(&k) {
                    *selected = k - 1;
                }
            }
        }
        KeyCode::Backspace => {
            number.pop();
        }
        KeyCode::Esc => number.clear(),
        _ => return false,
    }
    true
}
