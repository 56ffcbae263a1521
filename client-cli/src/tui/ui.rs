//! Laying the pieces out on the terminal.

use ratatui::{
    layout::{Constraint, Direction, Layout, Rect},
    style::{Color, Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Borders, Paragraph, Wrap},
    Frame,
};

use super::{
    board::{board_lines, table_lines},
    labels::{hexes, Group},
    App, Screen,
};
use crate::creation::{entry_label, Entry};

pub fn draw(f: &mut Frame<'_>, app: &App) {
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(1), Constraint::Min(12), Constraint::Length(14), Constraint::Length(1)])
        .split(f.area());
    f.render_widget(Paragraph::new(top_bar(app)), rows[0]);
    match app.screen {
        Screen::Play => draw_play(f, app, rows[1], rows[2]),
        Screen::Create => draw_create(f, app, rows[1], rows[2]),
    }
    let help = match app.screen {
        Screen::Play => "↑↓/jk select · digits pick a number · Enter send · Tab creation · q quit",
        Screen::Create => {
            "↑↓ card · Enter toggle · ←→/1-4 Alpha · Backspace remove · p preset · L lock in · Tab actions · q quit"
        }
    };
    let footer = match &app.notice {
        Some(n) => Line::styled(n.clone(), Style::default().fg(Color::LightRed)),
        None => Line::styled(help, Style::default().fg(Color::DarkGray)),
    };
    f.render_widget(Paragraph::new(footer), rows[3]);
}

fn top_bar(app: &App) -> Line<'static> {
    let mut spans = vec![Span::styled("athlas ", Style::default().add_modifier(Modifier::BOLD))];
    spans.push(Span::raw(format!("match {}", app.match_id)));
    if let Some(c) = &app.join_code {
        spans.push(Span::raw(format!(" · join code {c}")));
    }
    spans.push(Span::raw(match app.seat {
        Some(s) => format!(" · seat {s}"),
        None => " · watching".into(),
    }));
    if let Some(s) = app.seq {
        spans.push(Span::raw(format!(" · seq {s}")));
    }
    let color = if app.connection == "connected" { Color::Green } else { Color::Yellow };
    spans.push(Span::styled(format!(" · {}", app.connection), Style::default().fg(color)));
    if app.pending.is_some() {
        spans.push(Span::styled(" · sending…", Style::default().fg(Color::Yellow)));
    }
    Line::from(spans)
}

fn draw_play(f: &mut Frame<'_>, app: &App, main: Rect, bottom: Rect) {
    let Some(view) = &app.view else {
        let text = match &app.other_game {
            Some(g) => format!("This client draws duels; this match is {g:?}. Its frames are logged below."),
            None => "Waiting for the server…".into(),
        };
        f.render_widget(Paragraph::new(text).block(Block::default().borders(Borders::ALL)), main);
        draw_log(f, app, bottom);
        return;
    };
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(62), Constraint::Min(30)])
        .split(main);
    let highlight = app.menu.get(app.selected).map(|i| hexes(view, &i.action)).unwrap_or_default();
    let board =
        Paragraph::new(board_lines(view, &highlight)).block(Block::default().borders(Borders::ALL).title(" board "));
    f.render_widget(board, cols[0]);
    let table = Paragraph::new(table_lines(app.cat, view))
        .wrap(Wrap { trim: false })
        .block(Block::default().borders(Borders::ALL).title(" table "));
    f.render_widget(table, cols[1]);
    let halves = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(55), Constraint::Percentage(45)])
        .split(bottom);
    draw_menu(f, app, halves[0]);
    draw_log(f, app, halves[1]);
}

fn draw_menu(f: &mut Frame<'_>, app: &App, area: Rect) {
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
        lines.push(Line::styled(format!("{:>3}. {}", i + 1, item.label), style));
    }
    if lines.is_empty() {
        lines.push(Line::from(if app.seat.is_some() { "nothing to do: waiting for the opponent" } else { "watching" }));
    }
    let height = area.height.saturating_sub(2) as usize;
    let scroll = selected_line.saturating_sub(height.saturating_sub(2));
    let title = if app.number.is_empty() { " actions ".to_owned() } else { format!(" actions · #{} ", app.number) };
    let p = Paragraph::new(lines).scroll((scroll as u16, 0)).block(Block::default().borders(Borders::ALL).title(title));
    f.render_widget(p, area);
}

fn draw_log(f: &mut Frame<'_>, app: &App, area: Rect) {
    let height = area.height.saturating_sub(2) as usize;
    let lines: Vec<Line<'static>> = app
        .log
        .iter()
        .skip(app.log.len().saturating_sub(height))
        .map(|l| {
            let style = if l.starts_with('✗') || l.starts_with('!') {
                Style::default().fg(Color::LightRed)
            } else if l.contains('✓') {
                Style::default().fg(Color::Green)
            } else {
                Style::default()
            };
            Line::styled(l.clone(), style)
        })
        .collect();
    f.render_widget(Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" log ")), area);
}

fn draw_create(f: &mut Frame<'_>, app: &App, main: Rect, bottom: Rect) {
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
        .split(main);
    let Some(draft) = &app.draft else { return };
    // The catalogue, cards in the draft marked with the Alpha (or DI) holding them.
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (i, e) in app.entries.iter().enumerate() {
        let mark = match e {
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
        let style = match (e, i == app.cursor) {
            (Entry::Heading(_), _) => Style::default().fg(Color::DarkGray),
            (_, true) => Style::default().add_modifier(Modifier::REVERSED),
            _ => Style::default(),
        };
        lines.push(Line::styled(format!("{mark}{}", entry_label(app.cat, e)), style));
    }
    if lines.is_empty() {
        lines.push(Line::from("The catalogue has no cards: pick a preset from the action menu (Tab)."));
    }
    let height = cols[0].height.saturating_sub(2) as usize;
    let scroll = app.cursor.saturating_sub(height.saturating_sub(3));
    f.render_widget(
        Paragraph::new(lines)
            .scroll((scroll as u16, 0))
            .block(Block::default().borders(Borders::ALL).title(" catalogue ")),
        cols[0],
    );
    // The draft: each Alpha with price, life pool and broken rules in words.
    let mut out: Vec<Line<'static>> = Vec::new();
    for (i, a) in draft.alphas.iter().enumerate() {
        let s = draft.summary(app.cat, i);
        let head = format!("Alpha {} · price {} · life pool {}", i + 1, s.cost, s.life);
        let style = if i == draft.current {
            Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        };
        out.push(Line::styled(head, style));
        let names: Vec<String> =
            a.cards.iter().map(|id| app.cat.card(id).map_or(id.to_string(), |c| c.name.clone())).collect();
        out.push(Line::from(format!("  {}", if names.is_empty() { "(no cards)".into() } else { names.join(", ") })));
        if s.problems.is_empty() {
            out.push(Line::styled("  valid", Style::default().fg(Color::Green)));
        }
        for p in s.problems {
            out.push(Line::styled(format!("  ✗ {p}"), Style::default().fg(Color::LightRed)));
        }
    }
    let points = draft.di_points(app.cat);
    out.push(Line::from(""));
    out.push(Line::styled(
        format!("DI stack · {}/4 cards · {points}/8 divine points (top first)", draft.di_stack.len()),
        Style::default().add_modifier(Modifier::BOLD),
    ));
    let di: Vec<String> =
        draft.di_stack.iter().map(|id| app.cat.di_card(id).map_or(id.to_string(), |c| c.name.clone())).collect();
    out.push(Line::from(format!("  {}", if di.is_empty() { "(empty)".into() } else { di.join(", ") })));
    if let Some(v) = &app.view {
        out.push(Line::from(""));
        out.push(Line::from(format!("Summoning points per player: {}", v.max_points)));
    }
    f.render_widget(
        Paragraph::new(out)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL).title(" your creations ")),
        cols[1],
    );
    draw_log(f, app, bottom);
}
