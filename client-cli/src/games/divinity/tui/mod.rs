//! The Divinity screen of the terminal UI: the location's spaces, every
//! figure, one Origin's sheet, the time track, the party's pending decision,
//! a log of events in words, and the legal actions the server sent for this
//! seat and the seats handed to it as a menu. [`Play`] holds the state and
//! reacts to frames and keys without I/O (tested directly); [`ui::draw`]
//! lays it out in 80×24. The TUI switches to it when a welcome says
//! `"game": "divinity"`.

pub mod actions;
pub mod decision;
pub mod help;
pub mod sheet;
pub mod table;
pub mod ui;
pub mod words;

#[cfg(test)]
pub(crate) mod fixtures;

use std::collections::VecDeque;

use athlas_engine::divinity::DivinityEvent;
use athlas_engine::Seat;
use athlas_protocol::{LegalFor, ServerMsg};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use serde_json::{json, Value};

use actions::Entry;
use athlas_engine::divinity::words::Front;
use table::{Names, Table};

use crate::screen::menu_key;

/// The TUI hands a Divinity match's frames and keys to [`Play`].
impl crate::screen::GameScreen for Play {
    fn on_msg(&mut self, msg: ServerMsg) {
        Play::on_msg(self, msg);
    }

    fn on_key(&mut self, key: KeyEvent) -> Option<String> {
        Play::on_key(self, key)
    }

    fn quit(&self) -> bool {
        self.quit
    }

    fn disconnected(&mut self) {
        self.pending = None;
    }

    fn note(&mut self, line: String) {
        self.push_log(line);
    }

    fn draw(&self, f: &mut ratatui::Frame<'_>, bar: &crate::screen::Bar<'_>) {
        ui::draw(f, self, bar);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Log lines kept.
const LOG_LINES: usize = 300;

/// What the left panel shows (Tab switches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    /// Figures, spaces and the cards on the table.
    Table,
    /// One Origin's sheet (←→ for another Origin).
    Sheet,
    /// The whole log.
    Log,
}

/// A hand-over being typed (`h`): first which seat, then to whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandStep {
    /// Which seat to hand: its number (Enter: this player's own).
    Seat,
    /// To whom `seat` goes: a seat's number, or `o` back to its owner.
    To(Seat),
}

/// Everything the Divinity screen shows, updated by frames and keys.
pub struct Play {
    pub seat: Option<Seat>,
    pub seq: Option<u64>,
    pub table: Option<Table>,
    /// The status's `seats`: whom the game waits for.
    pub waiting: Vec<Seat>,
    /// The status's result once the location is over (`party_won`, …).
    pub result: Option<String>,
    pub legal: Vec<LegalFor>,
    /// `control[s]`: the seat whose player acts for seat `s`, if handed.
    pub control: Option<Vec<Option<Seat>>>,
    pub menu: Vec<Entry>,
    pub selected: usize,
    /// Digits typed to pick a menu entry by number.
    pub number: String,
    /// The menu changed under the selection without this player acting:
    /// the next Enter only asks to look again.
    pub stale: bool,
    pub log: VecDeque<String>,
    /// The last dice rolled, in words.
    pub last_roll: Option<String>,
    /// The last refusal or problem, shown on the status line.
    pub notice: Option<String>,
    /// The id of the frame waiting for its answer.
    pub pending: Option<u64>,
    next_id: u64,
    /// A take-back waiting for the player's y or n.
    pub confirm_take_back: bool,
    /// A hand-over being typed.
    pub hand: Option<HandStep>,
    pub panel: Panel,
    /// The Origin the sheet shows (the receiver's own at first).
    pub sheet_seat: Seat,
    pub help: bool,
    pub help_scroll: u16,
    pub quit: bool,
}

impl Default for Play {
    fn default() -> Self {
        Play::new()
    }
}

impl Play {
    pub fn new() -> Play {
        Play {
            seat: None,
            seq: None,
            table: None,
            waiting: Vec::new(),
            result: None,
            legal: Vec::new(),
            control: None,
            menu: Vec::new(),
            selected: 0,
            number: String::new(),
            stale: false,
            log: VecDeque::new(),
            last_roll: None,
            notice: None,
            pending: None,
            next_id: 1,
            confirm_take_back: false,
            hand: None,
            panel: Panel::Table,
            sheet_seat: 0,
            help: false,
            help_scroll: 0,
            quit: false,
        }
    }

    pub fn names(&self) -> Names<'_> {
        Names::new(self.table.as_ref())
    }

    pub fn push_log(&mut self, line: String) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Seats whose control was handed to this receiver.
    pub fn handed(&self) -> Vec<Seat> {
        let Some(me) = self.seat else { return Vec::new() };
        let from_control = self
            .control
            .iter()
            .flatten()
            .enumerate()
            .filter(|(s, c)| **c == Some(me) && *s != me as usize)
            .map(|(s, _)| s as Seat);
        let from_legal = self.legal.iter().map(|l| l.seat).filter(|s| *s != me);
        let mut out: Vec<Seat> = from_control.chain(from_legal).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether this receiver's own seat is handed to another player.
    pub fn handed_away(&self) -> Option<Seat> {
        let me = self.seat? as usize;
        self.control.as_ref()?.get(me).copied().flatten()
    }

    fn set_status(&mut self, status: &Value) {
        self.waiting =
            status.get("seats").and_then(|s| serde_json::from_value::<Vec<Seat>>(s.clone()).ok()).unwrap_or_default();
        self.result = match status.get("status").and_then(Value::as_str) {
            Some("finished") => Some(status.get("result").and_then(Value::as_str).unwrap_or("over").to_owned()),
            _ => None,
        };
    }

    /// Take a new view and legal list. `own`: it follows this player's own
    /// action (or a welcome), so a changed menu is no surprise.
    fn set_table(&mut self, table: Result<Table, serde_json::Error>, legal: Vec<LegalFor>, own: bool) {
        match table {
            Ok(t) => self.table = Some(t),
            Err(e) => self.push_log(format!("! a view this client cannot read: {e}")),
        }
        self.legal = legal;
        let new = actions::menu(self.names(), &self.legal, self.seat);
        if new != self.menu {
            // Keep the selection on the same action, so a key pressed just
            // after the change does what the player saw.
            let keep = self.menu.get(self.selected).map(|e| (e.seat, e.action.clone()));
            let found = keep.as_ref().and_then(|(s, a)| new.iter().position(|e| e.seat == *s && e.action == *a));
            self.stale = !own && (!self.number.is_empty() || (keep.is_some() && found.is_none() && !new.is_empty()));
            self.selected = found.unwrap_or(0);
            self.number.clear();
            self.menu = new;
        }
    }

    /// `table` with the board and the front of the table it follows where
    /// it leaves them out: an update does when they did not change since
    /// the frame before (`Ruleset::board_key`).
    fn with_kept_board(&self, mut table: Table) -> Table {
        let Some(last) = &self.table else { return table };
        if table.board.is_none() {
            table.board = last.board.clone();
        }
        if table.front.is_none() {
            table.front = last.front.clone();
        }
        table
    }

    /// React to one server frame.
    pub fn on_msg(&mut self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { seat, seq, status, view, legal, control, log, .. } => {
                self.seat = seat;
                self.sheet_seat = seat.unwrap_or(0);
                self.seq = Some(seq);
                self.pending = None;
                self.control = control;
                self.set_status(&status);
                // The location as the book presents it, then what happened
                // so far, in the server's words (the engine's describer).
                self.log.clear();
                if let Some(front) = view.get("front").and_then(|f| serde_json::from_value::<Front>(f.clone()).ok()) {
                    self.push_log(format!("{}: {}", front.name, front.intro));
                    self.push_log(format!("Goal: {}", front.goal));
                }
                for line in log {
                    self.push_log(line.text);
                }
                self.push_log(match seat {
                    Some(s) => format!("joined as seat {s} (move {seq})"),
                    None => format!("watching (move {seq})"),
                });
                self.set_table(serde_json::from_value(view), legal, true);
            }
            ServerMsg::Update { seq, seat, events, status, view, sender, taken_back, legal, control, .. } => {
                self.seq = Some(seq);
                let parsed = serde_json::from_value::<Table>(view).map(|t| self.with_kept_board(t));
                let mut names = Names::new(parsed.as_ref().ok().or(self.table.as_ref()));
                names.before = self.table.as_ref();
                let mut lines = Vec::new();
                if let Some(s) = sender.filter(|s| *s != seat) {
                    lines.push(format!("({} acts for {})", names.origin_of_seat(s), names.origin_of_seat(seat)));
                }
                if let Some(n) = taken_back {
                    lines.push(format!("↶ {} took back move {n}", names.origin_of_seat(seat)));
                }
                let mut roll = None;
                for e in &events {
                    match serde_json::from_value::<DivinityEvent>(e.clone()) {
                        Ok(ev) => {
                            let line = words::event(names, &ev);
                            if matches!(ev, DivinityEvent::Rolled { .. } | DivinityEvent::Rerolled { .. }) {
                                roll = Some(line.clone());
                            }
                            lines.push(line);
                        }
                        Err(_) => lines.push(format!("? {e}")),
                    }
                }
                if roll.is_some() {
                    self.last_roll = roll;
                }
                if let Some(new) = control {
                    for (s, to) in new.iter().enumerate() {
                        let was = self.control.as_ref().and_then(|c| c.get(s).copied().flatten());
                        if *to != was {
                            let origin = names.origin_of_seat(s as Seat);
                            lines.push(match to {
                                Some(t) => format!("⇄ {origin} is played by {}'s player", names.origin_of_seat(*t)),
                                None => format!("⇄ {origin} is back with its own player"),
                            });
                        }
                    }
                    self.control = Some(new);
                }
                for l in lines {
                    self.push_log(l);
                }
                self.set_status(&status);
                let own = self.seat.is_some() && (sender.or(Some(seat)) == self.seat);
                self.set_table(parsed, legal, own);
                if self.confirm_take_back && own {
                    // Something happened since the question: ask again.
                    self.confirm_take_back = false;
                }
            }
            ServerMsg::Ack { id, .. } => {
                if self.pending == Some(id) {
                    self.pending = None;
                }
            }
            ServerMsg::Error { id, code, message, .. } => {
                if id.is_some() && id == self.pending {
                    self.pending = None;
                }
                self.push_log(format!("✗ {code}: {message}"));
                self.notice = Some(format!("✗ {code}: {message}"));
            }
            // The table's talk in the log: what the party proposes and says.
            ServerMsg::Proposal { by, words, withdrawn, agreed, waiting, .. } => {
                let names = self.names();
                let what = words.as_ref().and_then(|w| w["text"].as_str()).unwrap_or("a decision").to_owned();
                let line = match withdrawn {
                    Some(s) => format!("✗ {} objects: {what} is off", names.origin_of_seat(s)),
                    None => {
                        let left: Vec<String> = waiting.iter().map(|s| names.origin_of_seat(*s)).collect();
                        format!(
                            "? {} proposes: {what} ({} agreed; waiting for {})",
                            names.origin_of_seat(by),
                            agreed.len(),
                            if left.is_empty() { "nobody".into() } else { left.join(", ") }
                        )
                    }
                };
                self.push_log(line);
            }
            ServerMsg::Chat { seat, text, .. } => {
                let who = seat.map_or_else(|| "a spectator".to_owned(), |s| self.names().origin_of_seat(s));
                self.push_log(format!("💬 {who}: {text}"));
            }
            ServerMsg::Seed { .. }
            | ServerMsg::Names { .. }
            | ServerMsg::Pong
            | ServerMsg::Commitment { .. }
            | ServerMsg::Reveal { .. } => {}
        }
    }

    fn frame_id(&mut self) -> Option<u64> {
        if self.pending.is_some() {
            self.notice = Some("waiting for the server's answer to your last action".into());
            return None;
        }
        if self.seat.is_none() {
            self.notice = Some("spectators cannot act".into());
            return None;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.pending = Some(id);
        Some(id)
    }

    /// The `act` frame of menu entry `i` (with `seat` for a handed seat).
    fn act(&mut self, i: usize) -> Option<String> {
        let e = self.menu.get(i)?.clone();
        let id = self.frame_id()?;
        let mut frame = json!({"type": "act", "id": id, "action": e.action});
        if Some(e.seat) != self.seat {
            frame["seat"] = json!(e.seat);
        }
        Some(frame.to_string())
    }

    fn choose(&mut self) -> Option<String> {
        self.number.clear();
        if self.stale {
            self.stale = false;
            self.notice = Some("the actions just changed: check the selection, then press Enter again".into());
            return None;
        }
        if self.menu.is_empty() {
            self.notice = Some("nothing to do now".into());
            return None;
        }
        self.act(self.selected)
    }

    /// How many seats the party has (the view's Origins).
    fn seat_count(&self) -> usize {
        self.table.as_ref().map_or(0, |t| t.origins.len())
    }

    /// The question a hand-over being typed asks, for the prompt.
    pub fn hand_prompt(&self) -> Option<String> {
        let last = self.seat_count().saturating_sub(1);
        Some(match self.hand? {
            HandStep::Seat => format!("Hand which seat? 0-{last} (Enter: yours) · Esc: cancel"),
            HandStep::To(s) => {
                format!("Hand {} to seat? 0-{last} · o: back to its owner · Esc", self.names().origin_of_seat(s))
            }
        })
    }

    /// A key while a hand-over is typed: the `hand` frame once complete.
    /// The server decides who may hand what (`cannot_hand`).
    fn hand_key(&mut self, step: HandStep, code: KeyCode) -> Option<String> {
        let count = self.seat_count();
        let digit = match code {
            KeyCode::Char(c) => c.to_digit(10).map(|d| d as usize).filter(|d| *d < count),
            _ => None,
        };
        match (step, code) {
            (_, KeyCode::Esc) => {
                self.hand = None;
                self.notice = Some("no hand-over".into());
                None
            }
            (HandStep::Seat, KeyCode::Enter) => {
                self.hand = self.seat.map(HandStep::To);
                None
            }
            (HandStep::Seat, _) if digit.is_some() => {
                self.hand = digit.map(|d| HandStep::To(d as Seat));
                None
            }
            (HandStep::To(seat), _) if digit.is_some() || code == KeyCode::Char('o') => {
                self.hand = None;
                // Handing a seat to itself is giving it back to its owner.
                let to = digit.map(|d| d as Seat).filter(|d| *d != seat);
                let id = self.frame_id()?;
                Some(json!({"type": "hand", "id": id, "seat": seat, "to": to}).to_string())
            }
            _ => {
                self.notice = Some(format!("type a seat number 0-{}, or Esc", count.saturating_sub(1)));
                None
            }
        }
    }

    /// React to a key; returns a frame to send, if the key sends one.
    pub fn on_key(&mut self, key: KeyEvent) -> Option<String> {
        self.notice = None;
        if self.confirm_take_back {
            return match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => {
                    self.confirm_take_back = false;
                    let id = self.frame_id()?;
                    Some(json!({"type": "take_back", "id": id}).to_string())
                }
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                    self.confirm_take_back = false;
                    self.notice = Some("not taken back".into());
                    None
                }
                _ => {
                    self.notice = Some("answer y (take it back) or n (don't)".into());
                    None
                }
            };
        }
        if let Some(step) = self.hand {
            return self.hand_key(step, key.code);
        }
        if self.help {
            match key.code {
                KeyCode::Down | KeyCode::Char('j') => self.help_scroll = self.help_scroll.saturating_add(1),
                KeyCode::Up | KeyCode::Char('k') => self.help_scroll = self.help_scroll.saturating_sub(1),
                KeyCode::PageDown | KeyCode::Char(' ') => self.help_scroll = self.help_scroll.saturating_add(10),
                KeyCode::PageUp => self.help_scroll = self.help_scroll.saturating_sub(10),
                KeyCode::Char('q') => self.quit = true,
                _ => self.help = false,
            }
            return None;
        }
        let n = self.menu.len();
        if !matches!(key.code, KeyCode::Enter | KeyCode::Char('0'..='9') | KeyCode::Backspace) {
            self.stale = false;
        }
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('?') => {
                self.help = true;
                self.help_scroll = 0;
            }
            KeyCode::Char('t') => {
                if self.seat.is_none() {
                    self.notice = Some("spectators cannot take back".into());
                } else {
                    self.confirm_take_back = true;
                }
            }
            KeyCode::Char('h') => {
                if self.seat.is_none() {
                    self.notice = Some("spectators cannot hand seats".into());
                } else {
                    self.hand = Some(HandStep::Seat);
                }
            }
            KeyCode::Tab => {
                self.panel = match self.panel {
                    Panel::Table => Panel::Sheet,
                    Panel::Sheet => Panel::Log,
                    Panel::Log => Panel::Table,
                }
            }
            KeyCode::Left | KeyCode::Right if self.panel == Panel::Sheet => {
                let count = self.table.as_ref().map_or(1, |t| t.origins.len().max(1)) as Seat;
                self.sheet_seat = if key.code == KeyCode::Right {
                    (self.sheet_seat + 1) % count
                } else {
                    (self.sheet_seat + count - 1) % count
                };
            }
            code if menu_key(code, n, &mut self.selected, &mut self.number, &mut self.stale) => {}
            KeyCode::Enter => return self.choose(),
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests;
