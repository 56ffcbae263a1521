//! Nim, the toy game (protocol/NIM.md): what this client knows of it, its
//! [`ClientGame`] and a small screen. The whole of Nim in the terminal
//! client is this folder and one line in the registry.

use athlas_engine::nim::{NimAction, NimView};
use athlas_protocol::{LegalFor, MatchLog, ServerMsg};
use ratatui::{
    crossterm::event::{KeyCode, KeyEvent},
    layout::{Constraint, Layout},
    widgets::{Block, Borders, List, Paragraph, Wrap},
};
use serde_json::{json, Value};

use super::ClientGame;
use crate::{
    bot::Bot,
    screen::{Bar, GameScreen},
    verify::Verified,
};

/// Nim, as [`ClientGame`].
pub struct Nim;

impl ClientGame for Nim {
    const NAME: &'static str = "nim";
    const CAMPAIGN: bool = false;

    fn check_action(action: &Value) -> Result<(), String> {
        serde_json::from_value::<NimAction>(action.clone()).map(|_| ()).map_err(|e| format!("not a nim action: {e}"))
    }

    fn bot(seed: u64) -> Bot {
        Bot::from_legal(seed)
    }

    fn verify(log: &MatchLog) -> Result<Verified, String> {
        crate::verify::replay::<athlas_engine::nim::Nim>(log)
    }

    fn screen() -> Box<dyn GameScreen> {
        Box::new(Screen::default())
    }
}

/// The screen: the pile, whose turn, the takes the server lists in its
/// words (a number key sends one), the log.
#[derive(Default)]
pub struct Screen {
    seat: Option<u8>,
    view: Option<NimView>,
    status: Value,
    legal: Vec<LegalFor>,
    log: Vec<String>,
    next_id: u64,
    quit: bool,
}

impl Screen {
    /// The takes offered now, with their words.
    fn offered(&self) -> Vec<(Value, String)> {
        self.legal
            .iter()
            .filter(|l| Some(l.seat) == self.seat)
            .flat_map(|l| {
                l.actions.iter().enumerate().map(|(i, a)| {
                    let words = l.words.get(i).and_then(|w| w["text"].as_str()).unwrap_or("a take").to_owned();
                    (a.clone(), words)
                })
            })
            .collect()
    }

    fn headline(&self) -> String {
        let Some(v) = &self.view else { return "waiting for the server".into() };
        if self.status["status"] == "finished" {
            return match self.status["seat"].as_u64() {
                Some(s) if Some(s as u8) == self.seat => "You took the last counter: you won".into(),
                Some(s) => format!("Seat {s} took the last counter and won"),
                None => "The game is over".into(),
            };
        }
        let whose = if Some(v.turn) == self.seat { "your turn".to_owned() } else { format!("seat {}'s turn", v.turn) };
        format!("{} on the pile · {whose}", v.pile)
    }
}

impl GameScreen for Screen {
    fn on_msg(&mut self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { seat, status, view, legal, log, .. } => {
                self.seat = seat;
                self.status = status;
                self.view = serde_json::from_value(view).ok();
                self.legal = legal;
                self.log = log.into_iter().map(|l| l.text).collect();
            }
            ServerMsg::Update { status, view, legal, log, .. } => {
                self.status = status;
                self.view = serde_json::from_value(view).ok().or(self.view.take());
                self.legal = legal;
                self.log.extend(log);
            }
            ServerMsg::Error { code, message, .. } => self.log.push(format!("refused ({code}): {message}")),
            _ => {}
        }
    }

    fn on_key(&mut self, key: KeyEvent) -> Option<String> {
        match key.code {
            KeyCode::Char('q') => {
                self.quit = true;
                None
            }
            KeyCode::Char(c @ '1'..='9') => {
                let (action, _) = self.offered().into_iter().nth(c as usize - '1' as usize)?;
                self.next_id += 1;
                Some(json!({"type": "act", "id": self.next_id, "action": action}).to_string())
            }
            _ => None,
        }
    }

    fn quit(&self) -> bool {
        self.quit
    }

    fn disconnected(&mut self) {}

    fn note(&mut self, line: String) {
        self.log.push(line);
    }

    fn draw(&self, f: &mut ratatui::Frame<'_>, bar: &Bar<'_>) {
        // What a player needs first (the pile, whose turn) on a line of its
        // own: a narrow terminal cuts the match line, never the game.
        let [game, top, body, help] =
            Layout::vertical([Constraint::Length(1), Constraint::Length(1), Constraint::Min(3), Constraint::Length(1)])
                .areas(f.area());
        f.render_widget(Paragraph::new(format!("Nim · {}", self.headline())), game);
        let code = bar.join_code.map(|c| format!(" · invite code {c}")).unwrap_or_default();
        f.render_widget(Paragraph::new(format!("{}{code} · match {}", bar.connection, bar.match_id)), top);
        let [takes, log] = Layout::horizontal([Constraint::Length(28), Constraint::Min(20)]).areas(body);
        let items: Vec<String> =
            self.offered().iter().enumerate().map(|(i, (_, w))| format!("{}. {w}", i + 1)).collect();
        f.render_widget(List::new(items).block(Block::default().borders(Borders::ALL).title("takes")), takes);
        let lines = self.log.iter().rev().take(body.height as usize).rev().cloned().collect::<Vec<_>>().join("\n");
        f.render_widget(
            Paragraph::new(lines).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::ALL).title("log")),
            log,
        );
        f.render_widget(Paragraph::new("1-3 take · q quit"), help);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn welcome(seat: u8, turn: u8) -> ServerMsg {
        serde_json::from_value(json!({
            "type": "welcome", "protocol": 1, "match_id": "m", "game": "nim", "seat": seat, "seq": 1,
            "status": {"status": "waiting", "seats": [turn]},
            "view": {"you": seat, "pile": 5, "turn": turn, "winner": null},
            "legal": if seat == turn { json!([{"seat": seat, "actions": [{"type": "take", "n": 1}, {"type": "take", "n": 2}],
                       "words": [{"text": "Take 1", "group": "take"}, {"text": "Take 2", "group": "take"}]}]) } else { json!([]) },
            "log": [{"seq": 1, "text": "Seat 1 took 2 counters; 5 left"}]
        }))
        .unwrap()
    }

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    /// The takes the server lists are offered in its words, a number key
    /// sends the one it names, and a seat not to move is offered nothing.
    #[test]
    fn a_number_key_sends_the_listed_take_it_names() {
        let mut s = Screen::default();
        s.on_msg(welcome(0, 0));
        assert_eq!(s.offered().iter().map(|(_, w)| w.as_str()).collect::<Vec<_>>(), ["Take 1", "Take 2"]);
        assert_eq!(s.headline(), "5 on the pile · your turn");
        let frame: Value = serde_json::from_str(&s.on_key(key('2')).expect("an act")).unwrap();
        assert_eq!(frame["type"], "act");
        assert_eq!(frame["action"], json!({"type": "take", "n": 2}));
        assert!(s.on_key(key('3')).is_none(), "no third take is listed");
        let mut other = Screen::default();
        other.on_msg(welcome(1, 0));
        assert!(other.offered().is_empty() && other.on_key(key('1')).is_none());
        assert_eq!(other.headline(), "5 on the pile · seat 0's turn");
        assert_eq!(other.log, ["Seat 1 took 2 counters; 5 left"]);
    }
}
