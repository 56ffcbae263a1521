//! The interactive terminal UI, the same for every game: [`App`] holds the
//! connection and what the bar above the screen tells (match, join code,
//! seat, the timer), and hands a match's frames and keys to its game's
//! [`GameScreen`], taken from the registry ([`GameKind::screen`]) once a
//! welcome names the game. It reacts without any I/O (so it is tested
//! directly); [`run`] wires it to a terminal and a [`Link`].

use std::time::Duration;

use athlas_engine::Seat;
use athlas_protocol::ServerMsg;
use ratatui::{
    crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers},
    widgets::{Paragraph, Wrap},
};

pub use crate::screen::{AsAnyMut, Bar, GameScreen};
use crate::{
    games::GameKind,
    net::{Link, LinkEvent},
    session::SeatFile,
};

/// The UI around a game's screen.
pub struct App {
    pub match_id: String,
    pub join_code: Option<String>,
    pub seat: Option<Seat>,
    pub seq: Option<u64>,
    /// The game of the last welcome, if this client plays it.
    pub game: Option<GameKind>,
    /// That game's screen: it takes the frames and the keys. None until a
    /// welcome names a game this client plays.
    pub screen: Option<Box<dyn GameScreen>>,
    /// What the screen shows while no game's screen is up.
    pub waiting: String,
    /// Connection state in words.
    pub connection: String,
    pub quit: bool,
    /// When the server acts for the waiting seat (a live match's response
    /// window), from the `timer_ms` of the last welcome or update.
    pub timer_until: Option<std::time::Instant>,
}

impl App {
    pub fn new(match_id: String, join_code: Option<String>) -> App {
        App {
            match_id,
            join_code,
            seat: None,
            seq: None,
            game: None,
            screen: None,
            waiting: "Waiting for the server…".into(),
            connection: "connecting…".into(),
            quit: false,
            timer_until: None,
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
            Err(e) => return self.note(format!("! unreadable frame: {e}")),
        };
        match &msg {
            ServerMsg::Welcome { match_id, game, seat, seq, timer_ms, .. } => {
                let kind = GameKind::from_name(game);
                if kind != self.game || self.screen.is_none() {
                    self.screen = kind.map(GameKind::screen);
                    self.game = kind;
                }
                if kind.is_none() {
                    self.waiting = format!("This client does not play {game:?}: update it to join this match.");
                }
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
        if let Some(s) = &mut self.screen {
            s.on_msg(msg);
        }
    }

    /// A line for the screen's log; before a game's screen is up there is
    /// no log to keep it in.
    fn note(&mut self, line: String) {
        if let Some(s) = &mut self.screen {
            s.note(line);
        }
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
        let Some(s) = &mut self.screen else {
            self.quit = key.code == KeyCode::Char('q');
            return None;
        };
        let frame = s.on_key(key);
        self.quit = s.quit();
        frame
    }

    /// React to a link event.
    pub fn on_link(&mut self, ev: LinkEvent) {
        match ev {
            LinkEvent::Frame(t) => self.on_frame(&t),
            LinkEvent::Connected { attempt } => {
                self.connection = "connected".into();
                if attempt > 1 {
                    self.note("reconnected".into());
                }
            }
            LinkEvent::Disconnected { reason, retry_in } => {
                self.connection = format!("disconnected ({reason}); retrying in {:.1}s", retry_in.as_secs_f32());
                if let Some(s) = &mut self.screen {
                    s.disconnected();
                }
            }
            LinkEvent::GaveUp { reason } => {
                self.connection = format!("gave up: {reason}");
            }
        }
    }
}

/// Draw the match's game's screen under the bar's facts, or what the UI
/// waits for.
pub fn draw(f: &mut ratatui::Frame<'_>, app: &App) {
    let bar = Bar {
        match_id: &app.match_id,
        join_code: app.join_code.as_deref(),
        connection: &app.connection,
        timer_left: app.timer_left(),
    };
    match &app.screen {
        Some(s) => s.draw(f, &bar),
        None => {
            let short: String = app.match_id.chars().take(8).collect();
            let text = format!("athlas · match {short} · {}\n\n{}\n\nq quits.", app.connection, app.waiting);
            f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), f.area());
        }
    }
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
