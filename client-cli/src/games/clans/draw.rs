//! The clan battle screen: a top bar, a line saying whose turn it is, the
//! field (columns lettered a.. along the top and bottom, rows numbered 1..
//! down the sides, as the words name tiles), beside it the seats, a panel
//! (figures, this seat's hand with card texts, or the whole log: Tab), the
//! selected action's card text and the menu of legal actions in the
//! server's words; the last log lines and the keys at the bottom. Best at
//! 100×34 or more (a 2v2 field is 24 tiles wide).

use athlas_engine::clans::content::Catalogue;
use athlas_engine::Seat;
use ratatui::{
    layout::{Constraint, Direction, Layout, Rect},
    style::{Color, Modifier, Style},
    text::{Line, Span},
    widgets::{Block, Borders, Clear, Paragraph, Wrap},
    Frame,
};
use serde_json::Value;

use super::cards;
use super::screen::{Panel, Play, ViewV};
use crate::screen::Bar;

/// A seat's colour: the teams are cyan/blue (0+2) and red/magenta (1+3).
pub fn seat_colour(seat: Seat) -> Color {
    match seat {
        0 => Color::Cyan,
        1 => Color::LightRed,
        2 => Color::LightBlue,
        _ => Color::LightMagenta,
    }
}

/// A terrain letter's look when the tile is empty: its mark and colour.
pub fn terrain(letter: char) -> (&'static str, Style) {
    match letter {
        'F' => ("f ", Style::default().fg(Color::Black).bg(Color::Green)),
        'W' => ("~ ", Style::default().fg(Color::White).bg(Color::Blue)),
        'M' => ("^ ", Style::default().fg(Color::White).bg(Color::DarkGray)),
        _ => (". ", Style::default().fg(Color::DarkGray)),
    }
}

fn terrain_bg(letter: char) -> Color {
    match letter {
        'F' => Color::Green,
        'W' => Color::Blue,
        'M' => Color::DarkGray,
        _ => Color::Reset,
    }
}

/// The tiles and figures the action names, to light on the field.
fn marked(action: Option<&Value>, v: &ViewV) -> (Vec<[i32; 2]>, Vec<u64>) {
    let Some(a) = action else { return (Vec::new(), Vec::new()) };
    let tile = |k: &str| a.get(k).and_then(|t| serde_json::from_value::<[i32; 2]>(t.clone()).ok());
    let tiles = ["to", "at", "homebase", "god"].iter().filter_map(|k| tile(k)).collect();
    let mut figs: Vec<u64> =
        ["figure", "target", "caster", "partner"].iter().filter_map(|k| a.get(*k).and_then(Value::as_u64)).collect();
    figs.retain(|id| v.figure(*id).is_some());
    (tiles, figs)
}

/// The field as lines, labelled like the words name tiles.
pub fn field_lines(v: &ViewV, action: Option<&Value>) -> Vec<Line<'static>> {
    let (tiles, figs) = marked(action, v);
    let cols: String = (0..v.width).map(|x| format!("{} ", char::from(b'a' + x as u8))).collect();
    let edge = Line::styled(format!("   {cols}"), Style::default().fg(Color::Gray));
    let mut out = vec![edge.clone()];
    for y in 0..v.height {
        let row: Vec<char> = v.rows.get(y as usize).map(|r| r.chars().collect()).unwrap_or_default();
        let mut spans = vec![Span::styled(format!("{:>2} ", y + 1), Style::default().fg(Color::Gray))];
        for x in 0..v.width {
            let letter = row.get(x as usize).copied().unwrap_or('G');
            let here = [x, y];
            let home = v.players.iter().find(|p| p.homebase == Some(here));
            let fig = v.figures.iter().find(|f| f.pos == here);
            let (text, mut style) = match (fig, home) {
                (Some(f), _) => {
                    let god = v.players.iter().any(|p| p.seat == f.owner && p.god_at == Some(here))
                        || f.card.ends_with("_god");
                    let mut st = Style::default().fg(seat_colour(f.owner)).bg(terrain_bg(letter));
                    if god {
                        st = st.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
                    }
                    (format!("{:>2}", f.id % 100), st)
                }
                (None, Some(p)) => (
                    format!("H{}", p.seat),
                    Style::default().fg(Color::Black).bg(seat_colour(p.seat)).add_modifier(Modifier::BOLD),
                ),
                (None, None) => {
                    let (t, st) = terrain(letter);
                    (t.to_owned(), st)
                }
            };
            if tiles.contains(&here) || fig.is_some_and(|f| figs.contains(&u64::from(f.id))) {
                style = style.bg(Color::Yellow).fg(Color::Black);
            }
            spans.push(Span::styled(text, style));
        }
        spans.push(Span::styled(format!(" {}", y + 1), Style::default().fg(Color::Gray)));
        out.push(Line::from(spans));
    }
    out.push(edge);
    out
}

fn clan_name(cat: &Catalogue, id: &str) -> String {
    cat.clan(id).map_or_else(|| id.to_owned(), |c| c.name.clone())
}

/// Whose turn it is and what the game waits for, in words.
pub fn turn_line(p: &Play) -> Line<'static> {
    let Some(v) = &p.view else { return Line::from("waiting for the match…") };
    let you = |s: Seat| if p.seat == Some(s) { format!("Seat {s} (you)") } else { format!("Seat {s}") };
    let bold = Style::default().add_modifier(Modifier::BOLD);
    if let Some((result, seat)) = &p.result {
        let text = match (result.as_str(), seat) {
            ("win", Some(s)) => {
                let team: Vec<String> = v.players.iter().filter(|x| x.team == (s % 2)).map(|x| you(x.seat)).collect();
                format!("Game over: {} win{}", team.join(" and "), if team.len() == 1 { "s" } else { "" })
            }
            ("draw", _) => "Game over: a draw".to_owned(),
            (r, _) => format!("Game over ({r})"),
        };
        return Line::styled(text, bold.fg(Color::Yellow));
    }
    let text = match v.phase() {
        "placement" => {
            let waiting: Vec<String> = p.waiting.iter().map(|s| you(*s)).collect();
            format!("Placement: homebase and God, in secret · waiting for {}", waiting.join(", "))
        }
        _ => {
            let mut t = format!("Turn {}: {}'s turn", v.turn, you(v.active));
            if let Some(w) = v.window {
                t.push_str(&format!(" · response window: {} may answer or pass", you(w)));
            }
            t
        }
    };
    let mine = p.my_move();
    Line::from(vec![
        Span::styled(text, bold),
        Span::styled(
            if mine { "  ▶ your move" } else { "" }.to_owned(),
            Style::default().fg(Color::Black).bg(Color::Yellow).add_modifier(Modifier::BOLD),
        ),
    ])
}

fn seat_lines(p: &Play, cat: &Catalogue) -> Vec<Line<'static>> {
    let Some(v) = &p.view else { return Vec::new() };
    v.players
        .iter()
        .map(|s| {
            let god = v.figures.iter().find(|f| f.owner == s.seat && f.card.ends_with("_god"));
            let hp = god.map_or_else(|| "—".to_owned(), |g| format!("{}/{}", g.hp, g.max_hp));
            let mut text = format!(
                "Seat {}{} team {} {:<14} SP {:>2} EXP {:>2} God HP {:<5} stacks {}+{}",
                s.seat,
                if p.seat == Some(s.seat) { "*" } else { " " },
                s.team,
                clan_name(cat, &s.clan),
                s.sp,
                s.exp,
                hp,
                s.allies_left,
                s.tactics_left
            );
            if s.out {
                text.push_str(" OUT");
            } else if v.phase() == "placement" {
                text.push_str(if s.placed { " placed" } else { " placing" });
            }
            if !s.terrain.is_empty() {
                text.push_str(&format!(" [{}]", s.terrain.join(", ").replace('_', " ")));
            }
            Line::styled(text, Style::default().fg(seat_colour(s.seat)))
        })
        .collect()
}

fn figure_lines(v: &ViewV, cat: &Catalogue) -> Vec<Line<'static>> {
    v.figures
        .iter()
        .map(|f| {
            let mut text = format!(
                "{:>3} {:<18} S{} HP {:>2}/{:<2} ATK {} SPD {} R {}",
                f.id,
                cards::name(cat, &f.card),
                f.owner,
                f.hp,
                f.max_hp,
                f.atk,
                f.spd,
                f.range
            );
            if let Some(e) = &f.equipment {
                text.push_str(&format!(" +{}", cards::name(cat, e)));
            }
            for s in &f.statuses {
                text.push_str(&format!(" {}", s.to_uppercase()));
            }
            if f.just_summoned {
                text.push_str(" (new)");
            } else if f.done {
                text.push_str(" (done)");
            } else if f.acted {
                text.push_str(" (acted)");
            }
            if v.current == Some(f.id) {
                text.push_str(" ◀");
            }
            Line::styled(text, Style::default().fg(seat_colour(f.owner)))
        })
        .collect()
}

fn hand_lines(p: &Play, cat: &Catalogue) -> Vec<Line<'static>> {
    let Some(h) = p.view.as_ref().and_then(|v| v.hand.as_ref()) else {
        return vec![Line::from("a spectator holds no cards")];
    };
    let mut out =
        vec![Line::styled(format!("Allies ({})", h.allies.len()), Style::default().add_modifier(Modifier::BOLD))];
    for id in h.allies.iter().chain(std::iter::once(&"--".to_owned())).chain(&h.tactics) {
        if id == "--" {
            out.push(Line::styled(
                format!("Tactics ({})", h.tactics.len()),
                Style::default().add_modifier(Modifier::BOLD),
            ));
            continue;
        }
        let text = cards::text(cat, id);
        out.push(Line::styled(format!("{} · {}", text[0], cards::cost(cat, id)), Style::default().fg(Color::White)));
        out.extend(text[1..].iter().map(|l| Line::styled(format!("  {l}"), Style::default().fg(Color::Gray))));
    }
    out
}

/// The card the selected action is about (a card played, or the acting
/// figure's), as text.
fn selected_card(p: &Play, cat: &Catalogue) -> Vec<String> {
    let Some(a) = p.chosen().map(|e| &e.action) else { return Vec::new() };
    let id = a.get("card").and_then(Value::as_str).map(str::to_owned).or_else(|| {
        let fig = ["figure", "caster"].iter().find_map(|k| a.get(*k).and_then(Value::as_u64))?;
        p.view.as_ref()?.figure(fig).map(|f| f.card.clone())
    });
    id.map(|id| cards::text(cat, &id)).unwrap_or_default()
}

fn end_lines(p: &Play) -> Vec<Line<'static>> {
    let mut out = vec![Line::styled("The decks revealed", Style::default().add_modifier(Modifier::BOLD))];
    if p.reveals.is_empty() {
        out.push(Line::from("(waiting for the reveal)"));
    }
    for r in &p.reveals {
        let n = |k: &str| r.secret.get(k).and_then(Value::as_array).map_or(0, Vec::len);
        let (mark, colour) = if r.ok() { ("✓", Color::Green) } else { ("✗", Color::Red) };
        out.push(Line::styled(
            format!(
                "{mark} Seat {}: {} allies, {} tactics; seal {}, commitment {}, plays {}",
                r.seat,
                n("allies"),
                n("tactics"),
                if r.hash_ok { "opens" } else { "does NOT open" },
                match r.matches_commitment {
                    Some(true) => "as announced",
                    Some(false) => "NOT as announced",
                    None => "not heard",
                },
                if r.plays_ok { "all from the deck" } else { "NOT all from the deck" }
            ),
            Style::default().fg(colour),
        ));
    }
    if let Some(seed) = &p.seed {
        out.push(Line::from(format!("seed {seed} (athlas verify replays the game)")));
    }
    out
}

fn menu_lines(p: &Play, height: usize) -> Vec<Line<'static>> {
    if p.menu.is_empty() {
        let why = if p.result.is_some() {
            "the game is over"
        } else if p.seat.is_none() {
            "watching"
        } else {
            "nothing to do now: the game waits for another seat"
        };
        return vec![Line::styled(why.to_owned(), Style::default().fg(Color::Gray))];
    }
    let start = p.selected.saturating_sub(height.saturating_sub(1) / 2).min(p.menu.len().saturating_sub(height));
    let mut last_group = p.menu.get(start.wrapping_sub(1)).map(|e| e.group.clone());
    let mut out = Vec::new();
    for (i, e) in p.menu.iter().enumerate().skip(start) {
        if out.len() >= height {
            break;
        }
        let sel = i == p.selected;
        let style = if sel {
            Style::default().fg(Color::Black).bg(Color::Yellow).add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        let group = if last_group.as_deref() == Some(e.group.as_str()) { "" } else { e.group.as_str() };
        last_group = Some(e.group.clone());
        out.push(Line::from(vec![
            Span::styled(format!("{:>8} ", group), Style::default().fg(Color::DarkGray)),
            Span::styled(format!("{:>3}. {}", i + 1, e.text), style),
        ]));
    }
    out
}

pub fn draw(f: &mut Frame<'_>, p: &Play, bar: &Bar<'_>) {
    let cat = Catalogue::standard();
    let area = f.area();
    // The log under the panels takes what a tall terminal has beyond the
    // field's 20 rows and a 10-row menu.
    let log_rows = area.height.saturating_sub(2 + 30).max(5);
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(10),
            Constraint::Length(log_rows),
            Constraint::Length(1),
        ])
        .split(area);
    let mut top = format!("Clans · match {}", bar.match_id);
    if let Some(code) = bar.join_code {
        top.push_str(&format!(" · join code {code}"));
    }
    top.push_str(&format!(" · {}", bar.connection));
    if let Some(t) = bar.timer_left {
        top.push_str(&format!(" · {t}s left"));
    }
    f.render_widget(Paragraph::new(Line::styled(top, Style::default().add_modifier(Modifier::REVERSED))), rows[0]);
    f.render_widget(Paragraph::new(turn_line(p)), rows[1]);
    // 3 for the row numbers on each side, 2 for the border.
    let board_w = p.view.as_ref().map_or(30, |v| v.width as u16 * 2 + 9);
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Length(board_w), Constraint::Min(30)])
        .split(rows[2]);
    match &p.view {
        Some(v) => {
            let chosen = p.chosen().map(|e| &e.action);
            f.render_widget(
                Paragraph::new(field_lines(v, chosen)).block(Block::default().borders(Borders::ALL).title("Field")),
                cols[0],
            );
        }
        None => f.render_widget(Paragraph::new("no view yet"), cols[0]),
    }
    let seats = seat_lines(p, cat);
    let card = selected_card(p, cat);
    let right = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(seats.len() as u16),
            Constraint::Min(4),
            Constraint::Length(if card.is_empty() { 0 } else { card.len().min(5) as u16 + 1 }),
            Constraint::Length(if p.result.is_some() { p.reveals.len() as u16 + 4 } else { 11 }),
        ])
        .split(cols[1]);
    f.render_widget(Paragraph::new(seats), right[0]);
    let (title, lines) = match p.panel {
        Panel::Field => ("Figures (Tab: hand)", p.view.as_ref().map(|v| figure_lines(v, cat)).unwrap_or_default()),
        Panel::Hand => ("Your unplayed cards (Tab: log)", hand_lines(p, cat)),
        Panel::Log => ("Log (Tab: figures; [ ] scroll)", {
            let h = right[1].height.saturating_sub(2) as usize;
            let skip = (p.log.len().saturating_sub(h)).saturating_sub(p.scroll as usize);
            p.log.iter().skip(skip).take(h).map(|l| Line::from(l.clone())).collect()
        }),
    };
    let scroll = if p.panel == Panel::Log { 0 } else { p.scroll };
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::TOP).title(title)).scroll((scroll, 0)),
        right[1],
    );
    if !card.is_empty() {
        let lines: Vec<Line<'static>> = card.into_iter().map(Line::from).collect();
        f.render_widget(
            Paragraph::new(lines)
                .block(Block::default().borders(Borders::TOP).title("Card"))
                .wrap(Wrap { trim: false }),
            right[2],
        );
    }
    if p.result.is_some() {
        f.render_widget(
            Paragraph::new(end_lines(p)).block(Block::default().borders(Borders::TOP).title("The end")),
            right[3],
        );
    } else {
        let h = right[3].height.saturating_sub(1) as usize;
        let title = if p.view.as_ref().is_some_and(|v| v.window.is_some() && p.my_move()) {
            "Response window: answer with an (OT) ability, or pass"
        } else {
            "Actions (Enter sends)"
        };
        f.render_widget(
            Paragraph::new(menu_lines(p, h)).block(Block::default().borders(Borders::TOP).title(title)),
            right[3],
        );
    }
    let h = rows[3].height as usize;
    let last: Vec<Line<'static>> =
        p.log.iter().skip(p.log.len().saturating_sub(h)).map(|l| Line::from(l.clone())).collect();
    f.render_widget(Paragraph::new(last).block(Block::default()), rows[3]);
    let keys = match &p.notice {
        Some(n) => Line::styled(n.clone(), Style::default().fg(Color::Yellow)),
        None => Line::styled(
            "↑↓/number select · Enter send · Tab figures/hand/log · r resign · ? help · q quit",
            Style::default().fg(Color::DarkGray),
        ),
    };
    f.render_widget(Paragraph::new(keys), rows[4]);
    if p.help {
        let r = centered(area, 70, 16);
        f.render_widget(Clear, r);
        f.render_widget(
            Paragraph::new(HELP.iter().map(|l| Line::from(*l)).collect::<Vec<_>>())
                .block(Block::default().borders(Borders::ALL).title("Help (any key: back)"))
                .wrap(Wrap { trim: false }),
            r,
        );
    }
}

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

const HELP: &[&str] = &[
    "The field: a..x columns, 1..16 rows, as the log names tiles.",
    ". ground  f forest (slow)  ~ water  ^ mountain (closed without a terrain card)",
    "Numbers are figures (the id the log uses), coloured by seat; a God is bold",
    "and underlined; H0..H3 are homebases. Yellow: what the selected action names.",
    "",
    "The menu lists every action the server accepts from you now, in its words;",
    "↑↓ or a number selects, Enter sends. In an opponent's response window you",
    "answer with an (OT) ability or pass. r resigns (asks first).",
    "Tab: figures, your unplayed cards with their texts, the whole log.",
    "At the end every deck is revealed and checked against its seal.",
];
