//! The duel's screen in the terminal UI: the board, the table, the legal
//! actions as a numbered menu, the event log, the creation of Alphas and a
//! DI stack, help, the card catalogue and the ending. [`Play`] holds the
//! state and reacts to frames and keys without any I/O (tested directly);
//! [`ui::draw`] lays it out in 80×24. The TUI hands it a duel's frames and
//! keys ([`crate::screen::GameScreen`]).

pub mod ui;

use std::collections::VecDeque;

use athlas_engine::duel::{card::Catalogue, state::Phase, view::DuelView, DuelAction};
use athlas_engine::Seat;
use athlas_protocol::ServerMsg;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{
    confirm,
    creation::{entries, first_card, Draft, Entry},
    ending::{self, Revealed},
    labels::{menu, MenuItem},
};
use crate::screen::{menu_key, Bar, GameScreen};

/// Log lines kept.
const LOG_LINES: usize = 300;

/// Which screen has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The board and the action menu.
    Play,
    /// Drafting Alphas and a DI stack.
    Create,
    /// How to play, the icons and the keys.
    Help,
    /// The card catalogue with every card's text.
    Cards,
    /// Who won and why, the revealed Alphas and the checked commitments.
    End,
}

/// Everything the duel's screen shows, updated by frames and keys.
pub struct Play {
    pub cat: &'static Catalogue,
    pub seat: Option<Seat>,
    pub seq: Option<u64>,
    pub view: Option<DuelView>,
    pub menu: Vec<MenuItem>,
    pub selected: usize,
    /// Digits typed to pick a menu entry by number.
    pub number: String,
    pub log: VecDeque<String>,
    /// The last refusal or problem, shown under the menu until the next key.
    pub notice: Option<String>,
    /// The id of the `act` waiting for its answer.
    pub pending: Option<u64>,
    next_id: u64,
    pub screen: Screen,
    pub draft: Option<Draft>,
    pub entries: Vec<Entry>,
    pub cursor: usize,
    pub quit: bool,
    /// The screen Help or Cards returns to.
    pub back: Screen,
    pub help_scroll: u16,
    /// An action waiting for the player's yes or no, with the question.
    pub confirm: Option<(String, DuelAction)>,
    /// The menu changed under the selection (the picked action is gone, or a
    /// number was half typed): Enter first asks the player to look again.
    pub stale: bool,
    /// Each seat's commitment hash, as announced when it locked in.
    pub commitments: std::collections::BTreeMap<Seat, String>,
    pub reveals: Vec<Revealed>,
    pub seed: Option<String>,
    /// Why the game ended, worked out from the last update.
    pub end_reason: Option<String>,
}

/// The TUI hands a duel's frames and keys to [`Play`].
impl GameScreen for Play {
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

    fn draw(&self, f: &mut ratatui::Frame<'_>, bar: &Bar<'_>) {
        ui::draw(f, self, bar);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

impl Play {
    pub fn new(cat: &'static Catalogue) -> Play {
        Play {
            cat,
            seat: None,
            seq: None,
            view: None,
            menu: Vec::new(),
            selected: 0,
            number: String::new(),
            log: VecDeque::new(),
            notice: None,
            pending: None,
            next_id: 1,
            screen: Screen::Play,
            draft: None,
            entries: entries(cat),
            cursor: first_card(&entries(cat)),
            quit: false,
            back: Screen::Play,
            help_scroll: 0,
            confirm: None,
            stale: false,
            commitments: Default::default(),
            reveals: Vec::new(),
            seed: None,
            end_reason: None,
        }
    }

    pub fn push_log(&mut self, line: String) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Whether this seat still has to create its Alphas.
    pub fn creating(&self) -> bool {
        let (Some(v), Some(s)) = (&self.view, self.seat) else {
            return false;
        };
        matches!(v.phase, Phase::Creation) && v.players.iter().any(|p| p.seat == s && !p.locked)
    }

    /// Take a new view. `own`: it follows this seat's own action (or a
    /// welcome), so a changed menu is expected and not a surprise.
    fn set_view(&mut self, view: serde_json::Value, own: bool) {
        match serde_json::from_value::<DuelView>(view) {
            Ok(v) => {
                let new = menu(self.cat, &v);
                if new != self.menu {
                    // Keep the selection on the same action, so a key pressed
                    // just after the change does what the player saw.
                    let keep = self.menu.get(self.selected).map(|i| i.action.clone());
                    let turn_changed = self.view.as_ref().is_some_and(|old| old.turn != v.turn);
                    // A new turn starts at the top of its menu (flagged below
                    // like any move under the player's fingers).
                    let found =
                        keep.as_ref().filter(|_| !turn_changed).and_then(|a| new.iter().position(|i| i.action == *a));
                    self.stale =
                        !own && (!self.number.is_empty() || (keep.is_some() && found.is_none() && !new.is_empty()));
                    self.selected = found.unwrap_or(0);
                    self.number.clear();
                    self.menu = new;
                }
                if let Some((_, a)) = &self.confirm {
                    if !self.menu.iter().any(|i| i.action == *a) {
                        self.confirm = None;
                        self.notice = Some("that action is no longer possible".into());
                    }
                }
                let was_over = matches!(self.view.as_ref().map(|v| &v.phase), Some(Phase::Finished { .. }));
                let over = matches!(v.phase, Phase::Finished { .. });
                self.view = Some(v);
                if over && !was_over {
                    self.end_reason = self.view.as_ref().and_then(ending::reason);
                    self.confirm = None;
                    if matches!(self.screen, Screen::Play | Screen::Create) {
                        self.screen = Screen::End;
                    }
                }
                if self.creating() {
                    if self.draft.is_none() {
                        self.draft = Some(Draft::new(3));
                        self.screen = Screen::Create;
                    }
                } else if self.screen == Screen::Create {
                    self.screen = Screen::Play;
                }
            }
            Err(e) => self.push_log(format!("! a view this client cannot read: {e}")),
        }
    }

    /// React to one server frame (the App has taken its timer).
    pub fn on_msg(&mut self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { seat, seq, view, log, .. } => {
                self.seat = seat;
                self.seq = Some(seq);
                self.pending = None;
                // The match so far in the server's words: a welcome tells
                // it whole, so the lines of an earlier welcome go.
                if !log.is_empty() {
                    self.log.clear();
                }
                for line in log {
                    self.push_log(line.text);
                }
                self.push_log(match seat {
                    Some(s) => format!("joined as seat {s} (move {seq})"),
                    None => format!("watching (move {seq})"),
                });
                self.set_view(view, true);
            }
            ServerMsg::Update { seq, seat, events, log, mut view, .. } => {
                self.seq = Some(seq);
                // An update leaves the board (hexes, players) out when it
                // did not change: the one we have still holds.
                if let (Some(fields), Some(old)) = (view.as_object_mut(), &self.view) {
                    if !fields.contains_key("hexes") {
                        fields.insert("hexes".into(), serde_json::to_value(&old.hexes).expect("hexes serialize"));
                    }
                    if !fields.contains_key("players") {
                        fields.insert("players".into(), serde_json::to_value(&old.players).expect("players serialize"));
                    }
                }
                let parsed = serde_json::from_value::<DuelView>(view.clone()).ok();
                if events.is_empty() && self.seat != Some(seat) {
                    self.push_log(format!("seat {seat} acted"));
                }
                if log.len() == events.len() {
                    // The server's words: the same lines the web page shows.
                    log.into_iter().for_each(|line| self.push_log(line));
                } else {
                    // A server that sends no words: the engine's describer,
                    // which made them.
                    let lines = describe(self.cat, parsed.as_ref(), self.view.as_ref(), &events);
                    lines.into_iter().for_each(|line| self.push_log(line));
                }
                let own = self.seat == Some(seat);
                self.set_view(view, own);
            }
            ServerMsg::Ack { id, .. } => {
                if self.pending == Some(id) {
                    self.pending = None;
                }
                self.push_log("✓ accepted".into());
            }
            ServerMsg::Error { id, code, message, .. } => {
                if id.is_some() && id == self.pending {
                    self.pending = None;
                }
                if code == "alpha_count" {
                    if let Some(d) = &mut self.draft {
                        let n = if d.alphas.len() == 3 { 4 } else { 3 };
                        d.alphas.resize(n, athlas_engine::duel::alpha::AlphaDesign { cards: Vec::new() });
                        d.current = d.current.min(n - 1);
                    }
                }
                self.push_log(format!("✗ {code}: {message}"));
                self.notice = Some(format!("{code}: {message}"));
            }
            ServerMsg::Commitment { seat, hash, .. } => {
                self.push_log(format!("seat {seat} sealed its hidden cards (hash {}…)", &hash[..hash.len().min(8)]));
                self.commitments.insert(seat, hash);
            }
            ServerMsg::Reveal { seat, salt, secret, hash } => {
                let hash_ok = ending::verify(&salt, &secret, &hash);
                let matches_commitment = self.commitments.get(&seat).map(|c| c.eq_ignore_ascii_case(&hash));
                let ok = hash_ok && matches_commitment != Some(false);
                self.push_log(format!(
                    "seat {seat}'s hidden cards revealed: {}",
                    if ok { "✓ they match its seal" } else { "✗ they do NOT match its seal" }
                ));
                let secret = serde_json::from_value(secret).ok();
                self.reveals.retain(|r| r.seat != seat);
                self.reveals.push(Revealed { seat, secret, hash_ok, matches_commitment });
                self.reveals.sort_by_key(|r| r.seat);
            }
            ServerMsg::Seed { seed } => self.seed = Some(seed),
            // Table talk is a campaign party's (Divinity); the duel has none.
            ServerMsg::Pong | ServerMsg::Proposal { .. } | ServerMsg::Chat { .. } | ServerMsg::Names { .. } => {}
        }
    }

    /// An `act` frame for `action`, if nothing else is waiting for an answer.
    pub fn act(&mut self, action: &DuelAction) -> Option<String> {
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
        let action = serde_json::to_value(action).expect("actions serialize");
        Some(serde_json::json!({"type": "act", "id": id, "action": action}).to_string())
    }

    /// React to a key (the App has kept releases and Ctrl-C); returns a
    /// frame to send, if the key sends one.
    pub fn on_key(&mut self, key: KeyEvent) -> Option<String> {
        self.notice = None;
        if self.confirm.is_some() {
            return self.confirm_key(key);
        }
        match (self.screen, key.code) {
            (Screen::Help, _) => {
                self.help_key(key);
                return None;
            }
            (Screen::Cards, _) => {
                self.cards_key(key);
                return None;
            }
            (_, KeyCode::Char('?')) => {
                self.back = self.screen;
                self.help_scroll = 0;
                self.screen = Screen::Help;
                return None;
            }
            _ => {}
        }
        match self.screen {
            Screen::Play | Screen::End => self.play_key(key),
            Screen::Create => self.create_key(key),
            Screen::Help | Screen::Cards => None,
        }
    }

    fn confirm_key(&mut self, key: KeyEvent) -> Option<String> {
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => {
                let (_, action) = self.confirm.take()?;
                self.act(&action)
            }
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                self.confirm = None;
                self.notice = Some("not sent".into());
                None
            }
            _ => {
                self.notice = Some("answer y (send it) or n (don't)".into());
                None
            }
        }
    }

    fn help_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Down | KeyCode::Char('j') => self.help_scroll = self.help_scroll.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => self.help_scroll = self.help_scroll.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => self.help_scroll = self.help_scroll.saturating_add(10),
            KeyCode::PageUp => self.help_scroll = self.help_scroll.saturating_sub(10),
            KeyCode::Char('q') => self.quit = true,
            _ => self.screen = self.back,
        }
    }

    fn cards_key(&mut self, key: KeyEvent) {
        if !self.selectable(self.cursor) {
            self.move_cursor(true);
        }
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(false),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(true),
            KeyCode::PageDown => (0..10).for_each(|_| self.move_cursor(true)),
            KeyCode::PageUp => (0..10).for_each(|_| self.move_cursor(false)),
            KeyCode::Char('?') => {
                self.help_scroll = 0;
                self.screen = Screen::Help;
            }
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Esc | KeyCode::Char('c') | KeyCode::Enter => self.screen = self.back,
            _ => {}
        }
    }

    /// Send the selected action, or ask first when it needs a yes.
    fn choose(&mut self) -> Option<String> {
        self.number.clear();
        if self.stale {
            self.stale = false;
            self.notice = Some("the actions just changed: check the selection, then press Enter again".into());
            return None;
        }
        let action = self.menu.get(self.selected)?.action.clone();
        if let Some(q) = self.view.as_ref().and_then(|v| confirm::question(self.cat, v, &action)) {
            self.confirm = Some((q, action));
            return None;
        }
        self.act(&action)
    }

    fn play_key(&mut self, key: KeyEvent) -> Option<String> {
        let n = self.menu.len();
        if !matches!(key.code, KeyCode::Enter | KeyCode::Char('0'..='9') | KeyCode::Backspace) {
            self.stale = false;
        }
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            code if menu_key(code, n, &mut self.selected, &mut self.number, &mut self.stale) => {}
            KeyCode::Tab if self.creating() => self.screen = Screen::Create,
            KeyCode::Char('c') => {
                self.back = self.screen;
                self.screen = Screen::Cards;
            }
            KeyCode::Char('e') if self.screen == Screen::End => self.screen = Screen::Play,
            KeyCode::Char('e') if matches!(self.view.as_ref().map(|v| &v.phase), Some(Phase::Finished { .. })) => {
                self.screen = Screen::End
            }
            KeyCode::Enter => return self.choose(),
            _ => {}
        }
        None
    }

    fn selectable(&self, i: usize) -> bool {
        !matches!(self.entries.get(i), Some(Entry::Heading(_)) | None)
    }

    fn move_cursor(&mut self, down: bool) {
        let mut i = self.cursor;
        loop {
            let next = if down { i + 1 } else { i.wrapping_sub(1) };
            if next >= self.entries.len() {
                return;
            }
            i = next;
            if self.selectable(i) {
                self.cursor = i;
                return;
            }
        }
    }

    fn create_key(&mut self, key: KeyEvent) -> Option<String> {
        if !self.selectable(self.cursor) {
            self.move_cursor(true);
        }
        let cat = self.cat;
        let draft = self.draft.get_or_insert_with(|| Draft::new(3));
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Tab => self.screen = Screen::Play,
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(false),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(true),
            KeyCode::Left => draft.current = draft.current.saturating_sub(1),
            KeyCode::Right => draft.current = (draft.current + 1).min(draft.alphas.len() - 1),
            KeyCode::Char(c @ '1'..='4') => {
                let i = c as usize - '1' as usize;
                if i < draft.alphas.len() {
                    draft.current = i;
                }
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                if let Some(e) = self.entries.get(self.cursor).cloned() {
                    if let Err(m) = draft.toggle(cat, &e) {
                        self.notice = Some(m);
                    }
                }
            }
            KeyCode::Backspace => draft.pop(),
            KeyCode::Char('p') => {
                if cat.presets.is_empty() {
                    self.notice = Some("this catalogue has no presets".into());
                } else {
                    let now = cat.presets.iter().position(|p| Draft::from_preset(cat, &p.id).as_ref() == Some(draft));
                    let next = now.map_or(0, |i| (i + 1) % cat.presets.len());
                    if let Some(d) = Draft::from_preset(cat, &cat.presets[next].id) {
                        *draft = d;
                    }
                }
            }
            KeyCode::Char('L') => {
                let problems = draft.problems(cat);
                if let Some(p) = problems.first() {
                    self.notice = Some(format!("not yet: {p}"));
                    return None;
                }
                let action = draft.to_action();
                return self.act(&action);
            }
            _ => {}
        }
        None
    }
}

/// `events` in the engine's words, named from the views after (`view`)
/// and before them; an event this client cannot read, by its name.
fn describe(
    cat: &Catalogue,
    view: Option<&DuelView>,
    before: Option<&DuelView>,
    events: &[serde_json::Value],
) -> Vec<String> {
    use athlas_engine::duel::{words, DuelEvent};
    events
        .iter()
        .map(|e| match (serde_json::from_value::<DuelEvent>(e.clone()), view.or(before)) {
            (Ok(e), Some(table)) => {
                words::event(words::Names { cat, table, before, seats: athlas_engine::SeatNames::none() }, &e)
            }
            _ => format!(
                "{} (an event this client does not know)",
                e["event"].as_str().unwrap_or("something").replace('_', " ")
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests;
