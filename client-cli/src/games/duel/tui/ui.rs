//! Laying the pieces out on the terminal. Everything fits 80×24: a top bar,
//! the board (50 columns, 13 lines) beside the table, a two-line legend,
//! the action menu beside the log, and a footer for keys and refusals.

use ratatui::{
    layout::{Constraint, Direction, Layout, Rect},
    style::{Color, Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Borders, Clear, Paragraph, Wrap},
    Frame,
};

use super::{Bar, Play, Screen};
use crate::games::duel::{
    board::{board_lines, legend_lines, table_lines},
    card_text::{ac_text, di_text},
    creation::{entry_short, Entry},
    ending::ending_lines,
    help::help_lines,
    labels::{hexes, Group},
};

/// Board width in columns (radius 5: 11 cells of 4, labels both sides).
const BOARD_WIDTH: u16 = 50;

pub fn draw(f: &mut Frame<'_>, app: &Play, bar: &Bar<'_>) {
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(1), Constraint::Min(10), Constraint::Length(1)])
        .split(f.area());
    f.render_widget(Paragraph::new(top_bar(app, bar)), rows[0]);
    match app.screen {
        Screen::Play | Screen::End => draw_play(f, app, bar, rows[1]),
        Screen::Create => draw_create(f, app, rows[1]),
        Screen::Help => draw_help(f, app, rows[1]),
        Screen::Cards => draw_cards(f, app, rows[1]),
    }
    let keys = match app.screen {
        Screen::Play if app.creating() => "Tab creation · ? help · c cards · q quit",
        Screen::Play => "↑↓ select · 1-9 number · Enter send · ? help · c cards · q quit",
        Screen::End => "e board · ? help · c cards · q quit",
        Screen::Create => "↑↓ card · Enter add/remove · ←→ Alpha · p preset · L lock in · ? help · Tab",
        Screen::Help => "↑↓ scroll · any other key: back",
        Screen::Cards => "↑↓ card · Esc back · ? help",
    };
    let footer = match &app.notice {
        Some(n) => Line::styled(n.clone(), Style::default().fg(Color::LightRed)),
        None => Line::styled(keys, Style::default().fg(Color::DarkGray)),
    };
    f.render_widget(Paragraph::new(footer), rows[2]);
    if let Some((q, _)) = &app.confirm {
        draw_confirm(f, q);
    }
}

fn top_bar(app: &Play, bar: &Bar<'_>) -> Line<'static> {
    let mut spans = vec![Span::styled("athlas ", Style::default().add_modifier(Modifier::BOLD))];
    let short: String = bar.match_id.chars().take(8).collect();
    spans.push(Span::raw(format!("match {short}")));
    if let Some(c) = bar.join_code {
        spans.push(Span::raw(format!(" · code {c}")));
    }
    spans.push(Span::raw(match app.seat {
        Some(s) => format!(" · seat {s}"),
        None => " · watching".into(),
    }));
    let color = if bar.connection == "connected" { Color::Green } else { Color::Yellow };
    spans.push(Span::styled(format!(" · {}", bar.connection), Style::default().fg(color)));
    if app.pending.is_some() {
        spans.push(Span::styled(" · sending…", Style::default().fg(Color::Yellow)));
    }
    if let Some(v) = &app.view {
        if app.seat.is_some_and(|s| v.waiting_for.contains(&s)) {
            spans.push(Span::styled(" · YOUR MOVE", Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD)));
        }
    }
    spans.push(Span::styled(" · ? help", Style::default().fg(Color::DarkGray)));
    Line::from(spans)
}

fn draw_play(f: &mut Frame<'_>, app: &Play, bar: &Bar<'_>, area: Rect) {
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(13), Constraint::Length(2), Constraint::Min(4)])
        .split(area);
    let Some(view) = &app.view else {
        f.render_widget(Paragraph::new("Waiting for the server…").wrap(Wrap { trim: true }), rows[0]);
        draw_log(f, app, rows[2]);
        return;
    };
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(BOARD_WIDTH), Constraint::Min(20)])
        .split(rows[0]);
    if app.screen == Screen::End {
        // Nothing is left to do: the verdict and the reveals take the room
        // of the board and the menu, with the log's last lines below.
        let parts = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Min(8), Constraint::Length(4)])
            .split(area);
        let lines = ending_lines(app.cat, view, app.end_reason.as_deref(), &app.reveals, app.seed.as_deref());
        f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), parts[0]);
        draw_log(f, app, parts[1]);
        return;
    } else {
        let highlight = app.menu.get(app.selected).map(|i| hexes(view, &i.action)).unwrap_or_default();
        f.render_widget(Paragraph::new(board_lines(view, &highlight)), cols[0]);
        let mut lines = table_lines(app.cat, view);
        if let Some(left) = bar.timer_left {
            // A live match's response window: the server acts when it runs out.
            let style = Style::default().fg(Color::Red);
            lines.insert(1.min(lines.len()), Line::styled(format!("⏱ {left} s left to answer"), style));
        }
        let table = Paragraph::new(lines).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::LEFT));
        f.render_widget(table, cols[1]);
        f.render_widget(Paragraph::new(legend_lines()), rows[1]);
    }
    let halves = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(58), Constraint::Percentage(42)])
        .split(rows[2]);
    draw_menu(f, app, halves[0]);
    draw_log(f, app, halves[1]);
}

fn draw_menu(f: &mut Frame<'_>, app: &Play, area: Rect) {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut selected_line = 0;
    let mut group: Option<Group> = None;
    for (i, item) in app.menu.iter().enumerate() {
        if group != Some(item.group) {
            group = Some(item.group);
            lines.push(Line::styled(format!("── {} ──", item.group.title()), Style::default().fg(Color::DarkGray)));
        }
        let style = if i == app.selected {
            selected_line = lines.len();
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::styled(format!("{:>2}. {}", i + 1, item.label), style));
    }
    if lines.is_empty() {
        let idle = match (&app.view, app.seat) {
            (Some(v), _) if matches!(v.phase, athlas_engine::duel::state::Phase::Finished { .. }) => "the game is over",
            (_, Some(_)) => "nothing to do: waiting for the opponent",
            (_, None) => "watching",
        };
        lines.push(Line::from(idle));
    }
    let height = area.height.saturating_sub(1) as usize;
    let scroll = selected_line.saturating_sub(height.saturating_sub(2));
    let title = if app.number.is_empty() {
        format!(" actions ({}) ", app.menu.len())
    } else {
        format!(" actions · #{} ", app.number)
    };
    let p = Paragraph::new(lines).scroll((scroll as u16, 0)).block(Block::default().borders(Borders::TOP).title(title));
    f.render_widget(p, area);
}

/// Words wrapped to `width` columns (a long word is cut).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push(line);
    out
}

fn draw_log(f: &mut Frame<'_>, app: &Play, area: Rect) {
    let height = area.height.saturating_sub(1) as usize;
    // One column for the border, one for the indent of a wrapped line.
    let width = area.width.saturating_sub(2).max(10) as usize;
    let mut lines: Vec<Line<'static>> = Vec::new();
    for l in app.log.iter().rev() {
        let style = if l.starts_with('✗') || l.starts_with('!') {
            Style::default().fg(Color::LightRed)
        } else if l.contains('✓') {
            Style::default().fg(Color::Green)
        } else if l.starts_with("──") || l.starts_with("GAME OVER") {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        for (i, w) in wrap(l, width).into_iter().enumerate().rev() {
            let w = if i > 0 { format!(" {w}") } else { w };
            lines.push(Line::styled(w, style));
        }
        if lines.len() >= height {
            break;
        }
    }
    lines.truncate(height);
    lines.reverse();
    let block = Block::default().borders(Borders::TOP | Borders::LEFT).title(" log ");
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// A card's name and text, for the detail pane.
fn card_detail(app: &Play, e: &Entry) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    match e {
        Entry::Ac(id) => match app.cat.card(id) {
            Some(c) => vec![Line::styled(c.name.clone(), bold), Line::from(ac_text(c))],
            None => vec![Line::from(id.to_string())],
        },
        Entry::Di(id) => match app.cat.di_card(id) {
            Some(c) => vec![Line::styled(c.name.clone(), bold), Line::from(di_text(c))],
            None => vec![Line::from(id.to_string())],
        },
        Entry::Heading(t) => vec![Line::styled(t.clone(), bold)],
    }
}

/// The catalogue list, cards marked by `mark`, the cursor's entry reversed.
fn catalogue_list(app: &Play, area: Rect, mark: impl Fn(&Entry) -> String) -> Paragraph<'static> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (i, e) in app.entries.iter().enumerate() {
        let style = match (e, i == app.cursor) {
            (Entry::Heading(_), _) => Style::default().fg(Color::DarkGray),
            (_, true) => Style::default().add_modifier(Modifier::REVERSED),
            _ => Style::default(),
        };
        lines.push(Line::styled(format!("{}{}", mark(e), entry_short(app.cat, e)), style));
    }
    if lines.is_empty() {
        lines.push(Line::from("The catalogue has no cards: pick a preset from the action menu (Tab)."));
    }
    let height = area.height.saturating_sub(2) as usize;
    let scroll = app.cursor.saturating_sub(height.saturating_sub(3));
    Paragraph::new(lines).scroll((scroll as u16, 0)).block(Block::default().borders(Borders::ALL).title(" catalogue "))
}

fn draw_cards(f: &mut Frame<'_>, app: &Play, area: Rect) {
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(34), Constraint::Min(20)])
        .split(area);
    f.render_widget(catalogue_list(app, cols[0], |_| String::new()), cols[0]);
    let detail = app.entries.get(app.cursor).map(|e| card_detail(app, e)).unwrap_or_default();
    f.render_widget(
        Paragraph::new(detail).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::ALL).title(" card ")),
        cols[1],
    );
}

fn draw_help(f: &mut Frame<'_>, app: &Play, area: Rect) {
    let p = Paragraph::new(help_lines())
        .scroll((app.help_scroll, 0))
        .block(Block::default().borders(Borders::TOP).title(" how to play (↑↓ scroll, any key back) "));
    f.render_widget(p, area);
}

fn draw_confirm(f: &mut Frame<'_>, question: &str) {
    let area = f.area();
    let width = area.width.min(60);
    let text = wrap(question, width.saturating_sub(4) as usize);
    let height = (text.len() as u16 + 4).min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width,
        height,
    };
    let mut lines: Vec<Line<'static>> = text.into_iter().map(Line::from).collect();
    lines.push(Line::from(""));
    lines.push(Line::styled("y = yes, send it · n = no", Style::default().add_modifier(Modifier::BOLD)));
    f.render_widget(Clear, rect);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" are you sure? ")
                .border_style(Style::default().fg(Color::Yellow)),
        ),
        rect,
    );
}

fn draw_create(f: &mut Frame<'_>, app: &Play, area: Rect) {
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(34), Constraint::Min(20)])
        .split(area);
    let Some(draft) = &app.draft else { return };
    // The catalogue, cards in the draft marked with the Alpha (or D for the DI stack) holding them.
    let mark = |e: &Entry| match e {
        Entry::Ac(id) => draft.holder(id).map_or("  ".to_owned(), |a| format!("{} ", a + 1)),
        Entry::Di(id) => {
            if draft.di_stack.contains(id) {
                "D ".to_owned()
            } else {
                "  ".to_owned()
            }
        }
        Entry::Heading(_) => String::new(),
    };
    f.render_widget(catalogue_list(app, cols[0], mark), cols[0]);
    let right = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(9), Constraint::Min(6)])
        .split(cols[1]);
    let detail = app.entries.get(app.cursor).map(|e| card_detail(app, e)).unwrap_or_default();
    f.render_widget(
        Paragraph::new(detail).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::ALL).title(" card ")),
        right[0],
    );
    // The draft: each Alpha with price, life pool and broken rules in words.
    let mut out: Vec<Line<'static>> = Vec::new();
    for (i, a) in draft.alphas.iter().enumerate() {
        let s = draft.summary(app.cat, i);
        let head = format!("Alpha {} · cost {} · life {}", i + 1, s.cost, s.life);
        let style = if i == draft.current {
            Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        };
        let mut line = vec![Span::styled(head, style)];
        if s.problems.is_empty() {
            line.push(Span::styled(" ✓", Style::default().fg(Color::Green)));
        }
        out.push(Line::from(line));
        let names: Vec<String> =
            a.cards.iter().map(|id| app.cat.card(id).map_or(id.to_string(), |c| c.name.clone())).collect();
        out.push(Line::from(format!(" {}", if names.is_empty() { "(no cards)".into() } else { names.join(", ") })));
        for p in s.problems {
            out.push(Line::styled(format!(" ✗ {p}"), Style::default().fg(Color::LightRed)));
        }
    }
    let points = draft.di_points(app.cat);
    out.push(Line::styled(
        format!("DI stack {}/4 cards · {points}/8 points (top first)", draft.di_stack.len()),
        Style::default().add_modifier(Modifier::BOLD),
    ));
    let di: Vec<String> =
        draft.di_stack.iter().map(|id| app.cat.di_card(id).map_or(id.to_string(), |c| c.name.clone())).collect();
    out.push(Line::from(format!(" {}", if di.is_empty() { "(empty)".into() } else { di.join(", ") })));
    if let Some(v) = &app.view {
        out.push(Line::from(format!("Summoning points per player: {}", v.max_points)));
    }
    f.render_widget(
        Paragraph::new(out)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(" your creations ")),
        right[1],
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duel::board::tests::small_view;
    use crate::games::duel::tui::tests::Harness;
    use athlas_engine::duel::{card::Catalogue, view::DuelView};
    use ratatui::{backend::TestBackend, Terminal};

    /// A full-size default board in the Command Phase, seen by seat 0.
    pub fn full_view() -> DuelView {
        let mut v = small_view();
        let board = athlas_engine::duel::board::BoardLayout::standard();
        v.hexes = athlas_engine::shared::Shared::new(
            athlas_engine::hex::Hex::hexagon(board.radius)
                .into_iter()
                .map(|h| athlas_engine::duel::view::HexView {
                    hex: h,
                    terrain: board.terrain.iter().find(|(x, _)| *x == h).map_or(Default::default(), |(_, t)| *t),
                    relics: board.relics.iter().filter(|r| **r == h).count(),
                    summoning: (0..2u8).find(|s| board.summoning[*s as usize].contains(&h)),
                })
                .collect(),
        );
        v.units[0].hex = athlas_engine::hex::Hex::new(0, 0);
        v.units[1].hex = athlas_engine::hex::Hex::new(1, 0);
        v
    }

    fn render(app: &Harness, w: u16, h: u16) -> Vec<String> {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| crate::tui::draw(f, &app.app)).unwrap();
        let buf = t.backend().buffer().clone();
        (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_owned()).collect::<String>()).collect()
    }

    fn app_with(view: DuelView) -> Harness {
        let mut app = Harness::new("4b0c2f0e-4a57", Some("K7QW2MZP"));
        let frame = serde_json::json!({"type":"welcome","protocol":1,"match_id":"4b0c2f0e-4a57","game":"duel",
            "seat":0,"seq":5,"status":{"status":"waiting","seats":[0]},"view":view});
        app.on_frame(&frame.to_string());
        app
    }

    #[test]
    fn the_whole_board_legend_menu_and_log_fit_80_by_24() {
        let app = app_with(full_view());
        let screen = render(&app, 80, 24);
        let all = screen.join("\n");
        // Every row of the radius-5 board, with its r label, and q labels.
        for r in -5..=5 {
            assert!(all.contains(&format!("r{r:+}")), "row r{r:+} shown:\n{all}");
        }
        for q in -5..=5 {
            assert!(all.contains(&format!("q{q}")), "diagonal q{q} labelled:\n{all}");
        }
        assert!(all.contains("plains") && all.contains("hill") && all.contains("summoning hex"), "legend:\n{all}");
        assert!(all.contains("flying") && all.contains("relic") && all.contains("unit of seat"), "legend:\n{all}");
        assert!(all.contains("End the turn"), "menu:\n{all}");
        assert!(all.contains(" log "), "log:\n{all}");
        assert!(all.contains("Turn 3"), "table:\n{all}");
    }

    #[test]
    fn the_board_cells_line_up_with_their_coordinates() {
        let app = app_with(full_view());
        let screen = render(&app, 80, 24);
        // Line 1 is the q ruler; the board's row r is line r + 7. Unit 1 is
        // on [0,0] and unit 2 on [1,0]: one cell (4 columns) apart.
        let row0 = &screen[7];
        let c1 = row0.find(" 1").unwrap();
        assert_eq!(row0[c1 + 4..].find(" 2"), Some(0), "{row0}");
        // Diagonal q0 runs down-right from its label half a cell per row.
        let label = screen[1].find("q0").unwrap();
        assert_eq!(&screen[2][label + 2..label + 3], "."); // [0,-5]
    }

    #[test]
    fn help_cards_and_end_screens_fit_80_by_24() {
        let mut app = app_with(full_view());
        app.on_key(ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Char('?')));
        assert_eq!(app.screen, Screen::Help);
        let s = render(&app, 80, 24).join("\n");
        assert!(s.contains("How to win") && s.contains("two relics"), "{s}");
        app.on_key(ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Esc));
        app.on_key(ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Char('c')));
        assert_eq!(app.screen, Screen::Cards);
        app.on_key(ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Down));
        let s = render(&app, 80, 24).join("\n");
        assert!(s.contains("creation points"), "a card's text is shown:\n{s}");
    }

    #[test]
    fn a_confirmation_is_drawn_over_the_screen() {
        let mut app = app_with(full_view());
        app.selected = app.menu.iter().position(|i| i.action == athlas_engine::duel::DuelAction::Resign).unwrap();
        assert!(app
            .on_key(ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Enter))
            .is_none());
        let s = render(&app, 80, 24).join("\n");
        assert!(s.contains("Resign?") && s.contains("y = yes"), "{s}");
    }

    #[test]
    fn the_end_screen_with_both_presets_revealed_fits_80_by_24() {
        use crate::games::duel::ending::{Revealed, Secret};
        let cat = Catalogue::standard();
        let mut v = full_view();
        v.phase = athlas_engine::duel::state::Phase::Finished { outcome: athlas_engine::Outcome::Win { seat: 1 } };
        v.legal.clear();
        let mut app = app_with(full_view());
        let over = serde_json::json!({"type":"update","seq":9,"seat":0,
            "events":[{"event":"game_over","outcome":{"result":"win","seat":1}}],
            "status":{"status":"finished","result":"win","seat":1},"view":v});
        app.on_frame(&over.to_string());
        assert_eq!(app.screen, Screen::End);
        for (seat, preset) in [(0, "aquatic"), (1, "rush")] {
            let p = cat.preset(preset).unwrap();
            let secret = Secret {
                alphas: p
                    .alphas
                    .iter()
                    .map(|a| athlas_engine::duel::alpha::AlphaDesign::new(a.iter().cloned()))
                    .collect(),
                di_stack: p.di_stack.clone(),
            };
            app.reveals.push(Revealed { seat, secret: Some(secret), hash_ok: true, matches_commitment: Some(true) });
        }
        app.seed = Some("1234".into());
        let s = render(&app, 80, 24).join("\n");
        assert!(s.contains("GAME OVER: seat 1 won") && s.contains("Why: you (seat 0) resigned."), "{s}");
        assert_eq!(s.matches("✓ matches its commitment").count(), 2, "{s}");
        assert_eq!(s.matches("DI stack:").count(), 2, "both stacks shown:\n{s}");
        assert!(s.contains("Seed 1234"), "{s}");
    }

    #[test]
    fn words_wrap_at_the_width() {
        assert_eq!(wrap("unit 4 moved [0,1] → [1,1]", 13), ["unit 4 moved", "[0,1] → [1,1]"]);
        assert_eq!(wrap("unit 4 moved [0,1] → [1,1]", 12), ["unit 4 moved", "[0,1] →", "[1,1]"]);
    }
}
