//! The Divinity screen in 80×24: a top bar (location, round, time, gold,
//! level, seat), two lines for the pending decision and the last roll, the
//! left panel (table, sheet or log) beside the actions menu, the last log
//! lines, and a status line for refusals and keys.

use ratatui::{
    layout::{Constraint, Direction, Layout, Rect},
    style::{Color, Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Borders, Clear, Paragraph, Wrap},
    Frame,
};

use super::{decision, help::HELP, sheet, Panel, Play};

/// What the screen shows of the connection, from the TUI around it.
pub use crate::screen::Bar;

/// Width of the left panel; the menu takes the rest.
const LEFT: u16 = 44;
/// Log lines under the panels.
const LOG_ROWS: u16 = 4;

pub fn draw(f: &mut Frame<'_>, p: &Play, bar: &Bar<'_>) {
    let decision = decision_lines(p, bar);
    // The decision wraps; the panels give up the rows it needs (3 at most).
    let width = f.area().width.max(1) as usize;
    let tall: usize = decision.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Length(tall.clamp(2, 3) as u16),
            Constraint::Min(6),
            Constraint::Length(LOG_ROWS),
            Constraint::Length(1),
        ])
        .split(f.area());
    f.render_widget(Paragraph::new(top_bar(p, bar)), rows[0]);
    if p.help {
        let body = rows[1].union(rows[3]);
        let lines: Vec<Line<'static>> = HELP
            .iter()
            .map(|l| match l.strip_prefix("# ") {
                Some(h) => Line::styled(h.to_owned(), Style::default().add_modifier(Modifier::BOLD)),
                None => Line::from(*l),
            })
            .collect();
        f.render_widget(Paragraph::new(lines).scroll((p.help_scroll, 0)), body);
        footer(f, p, rows[4], "↑↓ scroll · any other key: back");
        return;
    }
    f.render_widget(Paragraph::new(decision).wrap(Wrap { trim: false }), rows[1]);
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(LEFT), Constraint::Min(20)])
        .split(rows[2]);
    draw_panel(f, p, cols[0]);
    draw_menu(f, p, cols[1]);
    draw_log(f, p, rows[3], LOG_ROWS as usize, true);
    footer(f, p, rows[4], "↑↓ select · Enter send · t take back · h hand · Tab panel · ? help · q quit");
    if p.confirm_take_back {
        draw_confirm(f, "Take back your last action? y / n");
    }
    if let Some(q) = p.hand_prompt() {
        draw_confirm(f, &q);
    }
}

fn top_bar(p: &Play, bar: &Bar<'_>) -> Line<'static> {
    let n = p.names();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut spans = Vec::new();
    match &p.table {
        Some(t) => {
            let loc = n.location().map_or_else(|| t.location.clone(), |l| l.name.clone());
            let kind = match t.round_kind {
                athlas_engine::divinity::state::RoundKind::Explore => "explore",
                athlas_engine::divinity::state::RoundKind::Rest => "rest",
                athlas_engine::divinity::state::RoundKind::Combat => "combat",
            };
            spans.push(Span::styled(loc, bold));
            let time = match t.time {
                Some(now) => format!("time {now}/{}{}", t.time_length, if t.time_paused { " paused" } else { "" }),
                None => "no time limit".into(),
            };
            spans
                .push(Span::raw(format!(" · round {} {kind} · {time} · gold {} · level {}", t.round, t.gold, t.level)));
        }
        None => spans
            .push(Span::styled(format!("athlas · match {}", bar.match_id.chars().take(8).collect::<String>()), bold)),
    }
    if let Some(c) = bar.join_code {
        spans.push(Span::raw(format!(" · code {c}")));
    }
    spans.push(Span::raw(match p.seat {
        Some(s) => format!(" · seat {s}"),
        None => " · watching".into(),
    }));
    let color = if bar.connection == "connected" { Color::Green } else { Color::Yellow };
    let conn = if bar.connection == "connected" { "●".to_owned() } else { format!(" {}", bar.connection) };
    spans.push(Span::styled(format!(" {conn}"), Style::default().fg(color)));
    Line::from(spans)
}

fn decision_lines(p: &Play, bar: &Bar<'_>) -> Vec<Line<'static>> {
    let n = p.names();
    let Some(t) = &p.table else { return vec![Line::from("Waiting for the server…")] };
    let mine: Vec<_> = p.handed();
    let yours = p.seat.is_some_and(|s| p.waiting.contains(&s)) || p.waiting.iter().any(|s| mine.contains(s));
    let style = if yours {
        Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD)
    } else {
        Style::default().fg(Color::Cyan)
    };
    let what = match &p.result {
        Some(r) => format!("{} ({})", decision::what(n, t), r.replace('_', " ")),
        None => decision::what(n, t),
    };
    let mut second = vec![Span::styled(
        format!("waiting for: {}", decision::who(n, &p.waiting, p.seat, &mine)),
        if yours { style } else { Style::default() },
    )];
    if let Some(away) = p.handed_away() {
        second.push(Span::styled(
            format!(" · your seat is handed to {}", n.origin_of_seat(away)),
            Style::default().fg(Color::Yellow),
        ));
    }
    if let Some(left) = bar.timer_left {
        second.push(Span::styled(format!(" · ⏱ {left}s"), Style::default().fg(Color::Red)));
    }
    // A roll waiting for rerolls is the decision itself, dice and all.
    let rolling = t.pending.is_some() || t.enemy_roll.is_some();
    if let Some(r) = p.last_roll.as_ref().filter(|_| !rolling) {
        second.push(Span::styled(format!(" · last: {r}"), Style::default().fg(Color::DarkGray)));
    }
    vec![Line::styled(format!("▶ {what}"), style), Line::from(second)]
}

fn draw_panel(f: &mut Frame<'_>, p: &Play, area: Rect) {
    let n = p.names();
    let block = Block::default().borders(Borders::TOP | Borders::RIGHT);
    let Some(t) = &p.table else {
        f.render_widget(Paragraph::new("").block(block), area);
        return;
    };
    let (title, lines) = match p.panel {
        Panel::Table => {
            let mut l = sheet::figures(n, t);
            l.extend(sheet::spaces(n, t));
            l.push(Line::from(format!("{} · deck {} cards", sheet::time(t), t.deck_size)));
            l.extend(sheet::cards(t));
            (" table · Tab: sheet ", l)
        }
        Panel::Sheet => (" sheet · ←→ Origin · Tab: log ", sheet::sheet(n, t, p.sheet_seat)),
        Panel::Log => {
            let inner = Rect { height: area.height.saturating_sub(1), width: area.width.saturating_sub(1), ..area };
            f.render_widget(Block::default().borders(Borders::TOP | Borders::RIGHT).title(" log · Tab: table "), area);
            draw_log(f, p, Rect { y: inner.y + 1, ..inner }, inner.height as usize, false);
            return;
        }
    };
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block.title(title)), area);
}

fn draw_menu(f: &mut Frame<'_>, p: &Play, area: Rect) {
    let n = p.names();
    let width = area.width.saturating_sub(1).max(10) as usize;
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut selected_line = 0;
    let mut seat = None;
    let several = p.legal.len() > 1 || p.legal.first().is_some_and(|l| Some(l.seat) != p.seat);
    for (i, e) in p.menu.iter().enumerate() {
        if several && seat != Some(e.seat) {
            seat = Some(e.seat);
            let whose = if Some(e.seat) == p.seat { "yours" } else { "handed to you" };
            lines.push(Line::styled(
                format!("── {} ({whose}) ──", n.origin_of_seat(e.seat)),
                Style::default().fg(Color::DarkGray),
            ));
        }
        let style = if i == p.selected {
            selected_line = lines.len();
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        let text = format!("{:>2}. {}", i + 1, e.label);
        for (k, w) in wrap(&text, width, 4).into_iter().enumerate() {
            if k > 0 && i != p.selected {
                lines.push(Line::styled(w, Style::default().fg(Color::Gray)));
            } else {
                lines.push(Line::styled(w, style));
            }
        }
    }
    if lines.is_empty() {
        let idle = match (&p.result, p.seat) {
            (Some(_), _) => "the location is over".to_owned(),
            (None, Some(_)) => {
                let who: Vec<String> = p.waiting.iter().map(|s| n.origin_of_seat(*s)).collect();
                format!("nothing for you now: {} decides", who.join(", "))
            }
            (None, None) => "watching".to_owned(),
        };
        for w in wrap(&idle, width, 0) {
            lines.push(Line::styled(w, Style::default().fg(Color::DarkGray)));
        }
    }
    let height = area.height.saturating_sub(1) as usize;
    let scroll = selected_line.saturating_sub(height.saturating_sub(3));
    let title = match (p.number.is_empty(), p.pending.is_some()) {
        (_, true) => " actions · sending… ".to_owned(),
        (true, false) => format!(" actions ({}) ", p.menu.len()),
        (false, false) => format!(" actions · #{} ", p.number),
    };
    let para =
        Paragraph::new(lines).scroll((scroll as u16, 0)).block(Block::default().borders(Borders::TOP).title(title));
    f.render_widget(para, area);
}

/// Words wrapped to `width` columns, later lines indented by `indent`.
fn wrap(text: &str, width: usize, indent: usize) -> Vec<String> {
    let mut out = Vec::new();
    // Leading spaces (a right-aligned number) stay on the first line.
    let body = text.trim_start_matches(' ');
    let mut line = " ".repeat(text.len() - body.len());
    for word in body.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
            line = " ".repeat(indent);
        }
        if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push(line);
    out
}

fn draw_log(f: &mut Frame<'_>, p: &Play, area: Rect, rows: usize, border: bool) {
    let width = area.width.saturating_sub(1).max(10) as usize;
    let rows = if border { rows.saturating_sub(1) } else { rows };
    let mut lines: Vec<Line<'static>> = Vec::new();
    for l in p.log.iter().rev() {
        let style = if l.starts_with('✗') || l.starts_with('!') {
            Style::default().fg(Color::LightRed)
        } else if l.starts_with("──") {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        for w in wrap(l, width, 2).into_iter().rev() {
            lines.push(Line::styled(w, style));
        }
        if lines.len() >= rows {
            break;
        }
    }
    lines.truncate(rows);
    lines.reverse();
    let mut para = Paragraph::new(lines);
    if border {
        para = para.block(Block::default().borders(Borders::TOP).title(" log "));
    }
    f.render_widget(para, area);
}

fn footer(f: &mut Frame<'_>, p: &Play, area: Rect, keys: &str) {
    let line = match &p.notice {
        Some(n) => Line::styled(n.clone(), Style::default().fg(Color::LightRed)),
        None if p.stale => Line::styled(
            "the actions changed: check the selection before Enter".to_owned(),
            Style::default().fg(Color::Yellow),
        ),
        None => Line::styled(keys.to_owned(), Style::default().fg(Color::DarkGray)),
    };
    f.render_widget(Paragraph::new(line), area);
}

fn draw_confirm(f: &mut Frame<'_>, q: &str) {
    let area = f.area();
    let w = (q.chars().count() as u16 + 4).min(area.width);
    let rect = Rect { x: area.width.saturating_sub(w) / 2, y: area.height / 2 - 1, width: w, height: 3 };
    f.render_widget(Clear, rect);
    f.render_widget(
        Paragraph::new(q.to_owned())
            .block(Block::default().borders(Borders::ALL))
            .style(Style::default().fg(Color::Yellow)),
        rect,
    );
}
