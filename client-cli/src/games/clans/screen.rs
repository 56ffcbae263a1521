//! The clan battle's screen state: [`Play`] takes the match's frames and
//! the keys without I/O (tested directly) and [`super::draw`] shows it.
//! The menu is the view's `legal` list said in the server's words (the
//! frame's `legal[].words`, in the same order); the client sends an entry
//! as listed and never judges legality itself.

use std::collections::{BTreeMap, VecDeque};

use athlas_engine::Seat;
use athlas_protocol::ServerMsg;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::games::duel::ending::verify as seal_matches;
use crate::screen::menu_key;

/// The TUI hands a clan battle's frames and keys to [`Play`].
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
        super::draw::draw(f, self, bar);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Log lines kept.
const LOG_LINES: usize = 300;

/// One seat as the view shows it (CLANS.md, View).
#[derive(Debug, Clone, Deserialize)]
pub struct PlayerV {
    pub seat: Seat,
    pub team: u8,
    pub clan: String,
    pub sp: i32,
    pub exp: i32,
    pub allies_left: usize,
    pub tactics_left: usize,
    pub placed: bool,
    pub homebase: Option<[i32; 2]>,
    pub god_at: Option<[i32; 2]>,
    pub out: bool,
    #[serde(default)]
    pub terrain: Vec<String>,
}

/// A figure on the field.
#[derive(Debug, Clone, Deserialize)]
pub struct FigureV {
    pub id: u32,
    pub owner: Seat,
    pub card: String,
    pub pos: [i32; 2],
    pub hp: i32,
    pub max_hp: i32,
    pub atk: i32,
    pub spd: i32,
    pub range: i32,
    pub equipment: Option<String>,
    #[serde(default)]
    pub statuses: Vec<String>,
    #[serde(default)]
    pub just_summoned: bool,
    #[serde(default)]
    pub acted: bool,
    #[serde(default)]
    pub done: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct HandV {
    pub allies: Vec<String>,
    pub tactics: Vec<String>,
}

/// The parts of a view the screen reads.
#[derive(Debug, Clone, Deserialize)]
pub struct ViewV {
    pub phase: Value,
    pub turn: u32,
    pub active: Seat,
    pub width: i32,
    pub height: i32,
    pub rows: Vec<String>,
    pub players: Vec<PlayerV>,
    pub figures: Vec<FigureV>,
    pub current: Option<u32>,
    pub window: Option<Seat>,
    pub hand: Option<HandV>,
    #[serde(default)]
    pub legal: Vec<Value>,
}

impl ViewV {
    pub fn phase(&self) -> &str {
        self.phase.get("phase").and_then(Value::as_str).unwrap_or("?")
    }

    pub fn figure(&self, id: u64) -> Option<&FigureV> {
        self.figures.iter().find(|f| u64::from(f.id) == id)
    }
}

/// One entry of the menu: the action as listed and the server's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub action: Value,
    pub text: String,
    pub group: String,
}

/// A seat's reveal, checked against its commitment.
#[derive(Debug, Clone)]
pub struct Revealed {
    pub seat: Seat,
    /// `sha256(salt ‖ secret)` is the revealed hash.
    pub hash_ok: bool,
    /// The hash is the one announced when the seat placed (`None`: this
    /// client did not hear that commitment).
    pub matches_commitment: Option<bool>,
    /// Every card this seat played is in its revealed deck.
    pub plays_ok: bool,
    pub secret: Value,
}

impl Revealed {
    pub fn ok(&self) -> bool {
        self.hash_ok && self.matches_commitment != Some(false) && self.plays_ok
    }
}

/// What the right-hand panel shows (Tab switches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    /// Seats, figures and the selected action's card.
    Field,
    /// This seat's unplayed cards with their texts.
    Hand,
    /// The whole log.
    Log,
}

/// Everything the clan battle screen shows.
pub struct Play {
    pub seat: Option<Seat>,
    pub view: Option<ViewV>,
    /// The last view as sent, whose fields fill an update's left-out ones.
    raw_view: Option<serde_json::Map<String, Value>>,
    /// The status's waiting seats.
    pub waiting: Vec<Seat>,
    /// The status once finished: `win`/`draw` and the seat named.
    pub result: Option<(String, Option<Seat>)>,
    pub menu: Vec<Entry>,
    pub selected: usize,
    pub number: String,
    pub stale: bool,
    pub log: VecDeque<String>,
    pub notice: Option<String>,
    pub pending: Option<u64>,
    next_id: u64,
    pub panel: Panel,
    pub scroll: u16,
    /// `r` pressed: resign on `y`.
    pub confirm_resign: bool,
    pub help: bool,
    pub quit: bool,
    pub commitments: BTreeMap<Seat, String>,
    pub reveals: Vec<Revealed>,
    pub seed: Option<String>,
    /// Cards each seat played, from the events (checked against its reveal).
    pub played: BTreeMap<Seat, Vec<String>>,
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
            view: None,
            raw_view: None,
            waiting: Vec::new(),
            result: None,
            menu: Vec::new(),
            selected: 0,
            number: String::new(),
            stale: false,
            log: VecDeque::new(),
            notice: None,
            pending: None,
            next_id: 1,
            panel: Panel::Field,
            scroll: 0,
            confirm_resign: false,
            help: false,
            quit: false,
            commitments: BTreeMap::new(),
            reveals: Vec::new(),
            seed: None,
            played: BTreeMap::new(),
        }
    }

    pub fn push_log(&mut self, line: String) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// The game waits for this seat.
    pub fn my_move(&self) -> bool {
        self.seat.is_some_and(|s| self.waiting.contains(&s)) && self.result.is_none()
    }

    /// The selected entry, if any.
    pub fn chosen(&self) -> Option<&Entry> {
        self.menu.get(self.selected)
    }

    fn set_status(&mut self, status: &Value) {
        self.waiting =
            status.get("seats").and_then(|s| serde_json::from_value::<Vec<Seat>>(s.clone()).ok()).unwrap_or_default();
        self.result = match status.get("status").and_then(Value::as_str) {
            Some("finished") => Some((
                status.get("result").and_then(Value::as_str).unwrap_or("over").to_owned(),
                status.get("seat").and_then(Value::as_u64).map(|s| s as Seat),
            )),
            _ => None,
        };
        if self.result.is_some() {
            self.waiting.clear();
        }
    }

    /// Take a view (an update's may leave out what did not change: the
    /// last one's fields stand in) and the words of its legal list.
    fn set_view(&mut self, mut view: Value, words: Vec<Value>, own: bool) {
        if let (Some(fields), Some(old)) = (view.as_object_mut(), &self.raw_view) {
            for (k, v) in old {
                fields.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        match serde_json::from_value::<ViewV>(view.clone()) {
            Ok(v) => {
                let menu: Vec<Entry> = v
                    .legal
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let w = words.get(i);
                        Entry {
                            action: a.clone(),
                            text: w
                                .and_then(|w| w.get("text"))
                                .and_then(Value::as_str)
                                .map_or_else(|| a.to_string(), str::to_owned),
                            group: w.and_then(|w| w.get("group")).and_then(Value::as_str).unwrap_or("other").to_owned(),
                        }
                    })
                    .collect();
                if menu != self.menu {
                    let keep = self.menu.get(self.selected).map(|e| e.action.clone());
                    let found = keep.as_ref().and_then(|a| menu.iter().position(|e| e.action == *a));
                    self.stale =
                        !own && (!self.number.is_empty() || (keep.is_some() && found.is_none() && !menu.is_empty()));
                    self.selected = found.unwrap_or(0);
                    self.number.clear();
                    self.menu = menu;
                }
                self.view = Some(v);
                self.raw_view = view.as_object().cloned();
            }
            Err(e) => self.push_log(format!("! a view this client cannot read: {e}")),
        }
    }

    /// The cards an event shows a seat playing.
    fn note_plays(&mut self, events: &[Value]) {
        for e in events {
            let seat = e.get("seat").and_then(Value::as_u64).map(|s| s as Seat);
            let card = e.get("card").and_then(Value::as_str);
            let kind = e.get("event").and_then(Value::as_str).unwrap_or("");
            if let (Some(seat), Some(card), true) = (
                seat,
                card,
                matches!(kind, "summoned" | "equipped" | "assimilated" | "item_used" | "art_cast" | "terrain_cast"),
            ) {
                self.played.entry(seat).or_default().push(card.to_owned());
            }
        }
    }

    pub fn on_msg(&mut self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { seat, status, view, legal, log, seq, .. } => {
                self.seat = seat;
                self.pending = None;
                self.log.clear();
                self.raw_view = None;
                for line in log {
                    self.push_log(line.text);
                }
                self.push_log(match seat {
                    Some(s) => format!("joined as Seat {s} (move {seq})"),
                    None => format!("watching (move {seq})"),
                });
                self.set_status(&status);
                let words = legal.into_iter().find(|l| Some(l.seat) == seat).map(|l| l.words).unwrap_or_default();
                self.set_view(view, words, true);
            }
            ServerMsg::Update { seat, events, log, status, view, legal, .. } => {
                self.note_plays(&events);
                if log.is_empty() && !events.is_empty() {
                    // A server without words: the events by name.
                    for e in &events {
                        let name = e.get("event").and_then(Value::as_str).unwrap_or("something");
                        self.push_log(name.replace('_', " "));
                    }
                }
                log.into_iter().for_each(|l| self.push_log(l));
                self.set_status(&status);
                let words = legal.into_iter().find(|l| Some(l.seat) == self.seat).map(|l| l.words).unwrap_or_default();
                let own = self.seat == Some(seat);
                self.set_view(view, words, own);
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
                self.notice = Some(format!("{code}: {message}"));
            }
            ServerMsg::Commitment { seat, hash, .. } => {
                self.push_log(format!(
                    "Seat {seat} sealed its deck and placement (hash {}…)",
                    &hash[..hash.len().min(8)]
                ));
                self.commitments.insert(seat, hash);
            }
            ServerMsg::Reveal { seat, salt, secret, hash } => {
                let hash_ok = seal_matches(&salt, &secret, &hash);
                let matches_commitment = self.commitments.get(&seat).map(|c| c.eq_ignore_ascii_case(&hash));
                let deck: Vec<&str> = ["allies", "tactics"]
                    .iter()
                    .flat_map(|k| secret.get(*k).and_then(Value::as_array).into_iter().flatten())
                    .filter_map(Value::as_str)
                    .collect();
                let plays_ok = self.played.get(&seat).is_none_or(|p| {
                    // Each play is a card of the deck, at most as often as it holds it.
                    p.iter().all(|c| p.iter().filter(|x| *x == c).count() <= deck.iter().filter(|x| **x == c).count())
                });
                let r = Revealed { seat, hash_ok, matches_commitment, plays_ok, secret };
                self.push_log(format!(
                    "Seat {seat}'s deck revealed: {}",
                    if r.ok() { "✓ it matches its seal and its plays" } else { "✗ it does NOT match" }
                ));
                self.reveals.retain(|x| x.seat != seat);
                self.reveals.push(r);
                self.reveals.sort_by_key(|r| r.seat);
            }
            ServerMsg::Seed { seed } => self.seed = Some(seed),
            ServerMsg::Pong | ServerMsg::Proposal { .. } | ServerMsg::Chat { .. } | ServerMsg::Names { .. } => {}
        }
    }

    fn frame(&mut self, action: &Value) -> Option<String> {
        if self.pending.is_some() {
            self.notice = Some("waiting for the server's answer".into());
            return None;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.pending = Some(id);
        Some(json!({"type": "act", "id": id, "action": action}).to_string())
    }

    pub fn on_key(&mut self, key: KeyEvent) -> Option<String> {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return None;
        }
        self.notice = None;
        if self.help {
            self.help = false;
            return None;
        }
        if self.confirm_resign {
            self.confirm_resign = false;
            return match key.code {
                KeyCode::Char('y') => self.frame(&json!({"type": "resign"})),
                _ => None,
            };
        }
        match key.code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Char('?') => self.help = true,
            KeyCode::Tab => {
                self.panel = match self.panel {
                    Panel::Field => Panel::Hand,
                    Panel::Hand => Panel::Log,
                    Panel::Log => Panel::Field,
                };
                self.scroll = 0;
            }
            KeyCode::Char('[') => self.scroll = self.scroll.saturating_add(5),
            KeyCode::Char(']') => self.scroll = self.scroll.saturating_sub(5),
            KeyCode::Char('r') if self.seat.is_some() && self.result.is_none() => {
                self.confirm_resign = true;
                self.notice = Some("resign and leave the battle? y / n".into());
            }
            KeyCode::Enter => {
                if self.stale {
                    self.stale = false;
                    self.notice = Some("the list changed: look again, then Enter".into());
                    return None;
                }
                let action = self.chosen()?.action.clone();
                self.number.clear();
                return self.frame(&action);
            }
            code => {
                let n = self.menu.len();
                menu_key(code, n, &mut self.selected, &mut self.number, &mut self.stale);
            }
        }
        None
    }
}
