//! The interactive terminal UI: the board, the table, the legal actions as a
//! numbered menu, the event log, and a creation screen for the Creation
//! Phase. [`App`] holds the state and reacts to frames and keys without any
//! I/O (so it is tested directly); [`run`] wires it to a terminal and a
//! [`Link`].

mod ui;

// The duel's screens and the Divinity screen live in their games' folders.
use crate::games::duel::{board, card_text, confirm, ending, help, labels};

use std::{collections::VecDeque, time::Duration};

use athlas_engine::duel::{card::Catalogue, state::Phase, view::DuelView, DuelAction};
use athlas_engine::Seat;
use athlas_protocol::ServerMsg;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::{
    games::duel::creation::{entries, first_card, Draft, Entry},
    games::GameKind,
    net::{Link, LinkEvent},
    session::SeatFile,
};
use ending::Revealed;
use labels::{menu, MenuItem};

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

/// Everything the UI shows, updated by frames and keys.
pub struct App {
    pub cat: &'static Catalogue,
    pub match_id: String,
    pub join_code: Option<String>,
    pub seat: Option<Seat>,
    pub seq: Option<u64>,
    pub view: Option<DuelView>,
    /// The game is not a duel: only its frames are logged.
    pub other_game: Option<String>,
    /// A game with a screen of its own (Divinity's; the duel's is this
    /// App): it takes the frames and the keys.
    pub game_screen: Option<Box<dyn GameScreen>>,
    /// The game of the last welcome.
    pub game: Option<GameKind>,
    pub menu: Vec<MenuItem>,
    pub selected: usize,
    /// Digits typed to pick a menu entry by number.
    pub number: String,
    pub log: VecDeque<String>,
    /// The last refusal or problem, shown under the menu until the next key.
    pub notice: Option<String>,
    /// Connection state in words.
    pub connection: String,
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
    /// When the server acts for the waiting seat (a live match's response
    /// window), from the `timer_ms` of the last welcome or update.
    pub timer_until: Option<std::time::Instant>,
}

impl App {
    pub fn new(cat: &'static Catalogue, match_id: String, join_code: Option<String>) -> App {
        App {
            cat,
            match_id,
            join_code,
            seat: None,
            seq: None,
            view: None,
            other_game: None,
            game_screen: None,
            game: None,
            menu: Vec::new(),
            selected: 0,
            number: String::new(),
            log: VecDeque::new(),
            notice: None,
            connection: "connecting…".into(),
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
            timer_until: None,
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

    fn set_timer(&mut self, timer_ms: Option<u64>) {
        self.timer_until = timer_ms.map(|ms| std::time::Instant::now() + Duration::from_millis(ms));
    }

    /// Whole seconds left of a timed window, rounded up; `None` when nothing
    /// is timed (or it ran out and the server's update is on its way).
    pub fn timer_left(&self) -> Option<u64> {
        let left = self.timer_until?.checked_duration_since(std::time::Instant::now())?;
        Some(left.as_millis().div_ceil(1000) as u64)
    }

    /// React to one server frame.
    pub fn on_frame(&mut self, text: &str) {
        let msg: ServerMsg = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => return self.push_log(format!("! unreadable frame: {e}")),
        };
        if let ServerMsg::Welcome { game, .. } = &msg {
            let kind = GameKind::from_name(game);
            if kind != self.game || self.game_screen.is_none() {
                self.game_screen = kind.and_then(GameKind::screen);
                self.game = kind;
            }
        }
        if self.game_screen.is_some() {
            match &msg {
                ServerMsg::Welcome { match_id, seat, seq, timer_ms, .. } => {
                    self.match_id.clone_from(match_id);
                    self.seat = *seat;
                    self.seq = Some(*seq);
                    self.set_timer(*timer_ms);
                }
                ServerMsg::Update { seq, timer_ms, .. } => {
                    self.seq = Some(*seq);
                    self.set_timer(*timer_ms);
                }
                _ => {}
            }
            if let Some(d) = &mut self.game_screen {
                d.on_msg(msg);
            }
            return;
        }
        match msg {
            ServerMsg::Welcome { match_id, game, seat, seq, view, timer_ms, log, .. } => {
                self.set_timer(timer_ms);
                self.match_id = match_id;
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
                if GameKind::from_name(&game) == Some(GameKind::Duel) {
                    self.set_view(view, true);
                } else {
                    self.other_game = Some(game);
                }
            }
            ServerMsg::Update { seq, seat, events, log, mut view, timer_ms, .. } => {
                self.set_timer(timer_ms);
                self.seq = Some(seq);
                if self.other_game.is_some() {
                    self.push_log(format!("move {seq} by seat {seat}"));
                    return;
                }
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

    /// React to a key; returns a frame to send, if the key sends one.
    pub fn on_key(&mut self, key: KeyEvent) -> Option<String> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return None;
        }
        if let Some(d) = &mut self.game_screen {
            let frame = d.on_key(key);
            self.quit = d.quit();
            return frame;
        }
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

    /// React to a link event.
    pub fn on_link(&mut self, ev: LinkEvent) {
        match ev {
            LinkEvent::Frame(t) => self.on_frame(&t),
            LinkEvent::Connected { attempt } => {
                self.connection = "connected".into();
                if attempt > 1 {
                    self.push_log("reconnected".into());
                }
            }
            LinkEvent::Disconnected { reason, retry_in } => {
                self.connection = format!("disconnected ({reason}); retrying in {:.1}s", retry_in.as_secs_f32());
                // An act in flight is settled by what the resume replays.
                self.pending = None;
                if let Some(d) = &mut self.game_screen {
                    d.disconnected();
                }
            }
            LinkEvent::GaveUp { reason } => {
                self.connection = format!("gave up: {reason}");
            }
        }
    }
}

/// Draw whichever screen the match's game has.
pub fn draw(f: &mut ratatui::Frame<'_>, app: &App) {
    match &app.game_screen {
        Some(d) => {
            let bar = Bar {
                match_id: &app.match_id,
                join_code: app.join_code.as_deref(),
                connection: &app.connection,
                timer_left: app.timer_left(),
            };
            d.draw(f, &bar)
        }
        None => ui::draw(f, app),
    }
}

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
pub trait GameScreen {
    /// A frame of the match (the App has kept its seat, seq and timer).
    fn on_msg(&mut self, msg: ServerMsg);
    /// A key: the frame to send, if any.
    fn on_key(&mut self, key: KeyEvent) -> Option<String>;
    /// The player asked to leave.
    fn quit(&self) -> bool;
    /// The link dropped: an act in flight is settled by what the resume
    /// replays.
    fn disconnected(&mut self);
    fn draw(&self, f: &mut ratatui::Frame<'_>, bar: &Bar<'_>);
    /// For tests that look inside a game's screen.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// The terminal, restored however the UI ends.
struct Term {
    terminal: ratatui::Terminal<ratatui::backend::CrosstermBackend<std::io::Stdout>>,
}

impl Term {
    fn open() -> std::io::Result<Term> {
        ratatui::crossterm::terminal::enable_raw_mode()?;
        ratatui::crossterm::execute!(std::io::stdout(), ratatui::crossterm::terminal::EnterAlternateScreen)?;
        let default_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            default_hook(info);
        }));
        let terminal = ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(std::io::stdout()))?;
        Ok(Term { terminal })
    }
}

fn restore() {
    let _ = ratatui::crossterm::terminal::disable_raw_mode();
    let _ = ratatui::crossterm::execute!(std::io::stdout(), ratatui::crossterm::terminal::LeaveAlternateScreen);
}

impl Drop for Term {
    fn drop(&mut self) {
        restore();
    }
}

/// The keys that move through a numbered menu of `n` entries, shared by
/// every game's screen: arrows and j/k, pages, ends, a typed number
/// (Backspace and Esc edit it). False for any other key.
pub(crate) fn menu_key(code: KeyCode, n: usize, selected: &mut usize, number: &mut String, stale: &mut bool) -> bool {
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

/// Run the UI until the user quits. `saved` (for a seat) is updated with the
/// last `seq` so `athlas resume` picks up where this left off.
///
/// # Errors
/// The terminal cannot be put in raw mode (not a terminal?).
pub async fn run(mut link: Link, mut app: App, mut saved: Option<&mut dyn SeatFile>) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    anyhow::ensure!(
        std::io::stdout().is_terminal(),
        "the interactive UI needs a terminal (use --script or --bot otherwise)"
    );
    let (key_tx, mut keys) = tokio::sync::mpsc::unbounded_channel();
    // crossterm's reads block: they get a thread of their own.
    std::thread::spawn(move || loop {
        match event::poll(Duration::from_millis(200)) {
            Ok(true) => match event::read() {
                Ok(ev) => {
                    if key_tx.send(ev).is_err() {
                        return;
                    }
                }
                Err(_) => return,
            },
            Ok(false) => {
                if key_tx.is_closed() {
                    return;
                }
            }
            Err(_) => return,
        }
    });
    let mut term = Term::open()?;
    let mut last_saved = None;
    // Redraws a running countdown once a second.
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    while !app.quit {
        term.terminal.draw(|f| draw(f, &app))?;
        tokio::select! {
            _ = tick.tick(), if app.timer_until.is_some() => {}
            ev = keys.recv() => match ev {
                Some(Event::Key(k)) => {
                    if let Some(frame) = app.on_key(k) {
                        link.send(frame);
                    }
                }
                Some(_) => {}
                None => break,
            },
            ev = link.next() => match ev {
                Some(ev) => app.on_link(ev),
                None => break,
            },
        }
        if let Some(s) = saved.as_mut() {
            if link.last_seq() != last_saved {
                last_saved = link.last_seq();
                // A failed write only costs a longer catch-up on resume.
                let _ = s.save_last_seq(last_saved);
            }
        }
    }
    drop(term);
    if let Some(s) = &saved {
        println!("left match {}; to come back: {}", app.match_id, s.resume_command());
    }
    Ok(())
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
