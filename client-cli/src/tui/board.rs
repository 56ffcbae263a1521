//! The duel as text: the hex board and the table around it, as pure
//! functions from a [`DuelView`] to styled lines.
//!
//! The board is drawn in offset rows: row `r` of the axial grid is one line,
//! shifted right by half a cell per step away from the middle row, so that
//! each hex touches its six neighbours. A cell is four characters:
//! the terrain letter (`.` plains, `H` hill, `W` water, `C` crater), then
//! either a unit id (coloured by owner) and a marker (`*` relic, `^` flying),
//! or ` *N` for relics lying there, or ` sN` for seat N's summoning hex.

use athlas_engine::duel::{
    card::{Catalogue, Terrain},
    state::{Phase, Step},
    view::{DuelView, UnitView},
};
use athlas_engine::hex::Hex;
use athlas_engine::{Outcome, Seat};
use ratatui::{
    style::{Color, Modifier, Style},
    text::{Line, Span},
};

use super::labels::alpha_name;

/// Width of one hex cell in characters (even, so rows shift by half a cell).
pub const CELL: usize = 4;

pub fn seat_color(seat: Seat) -> Color {
    if seat == 0 {
        Color::Cyan
    } else {
        Color::LightRed
    }
}

pub fn terrain_letter(t: Terrain) -> char {
    match t {
        Terrain::Plains => '.',
        Terrain::Hill => 'H',
        Terrain::Water => 'W',
        Terrain::Crater => 'C',
    }
}

fn terrain_style(t: Terrain) -> Style {
    match t {
        Terrain::Plains => Style::default().fg(Color::Gray),
        Terrain::Hill => Style::default().fg(Color::Black).bg(Color::Yellow),
        Terrain::Water => Style::default().fg(Color::White).bg(Color::Blue),
        Terrain::Crater => Style::default().fg(Color::White).bg(Color::DarkGray),
    }
}

fn unit_style(u: &UnitView) -> Style {
    let mut s = Style::default().fg(seat_color(u.owner)).add_modifier(Modifier::BOLD);
    if u.controller != u.owner {
        s = s.add_modifier(Modifier::UNDERLINED); // taken over this turn
    }
    if u.activated {
        s = s.add_modifier(Modifier::DIM);
    }
    s
}

/// The board, one line per row, hexes in `highlight` shown reversed.
pub fn board_lines(view: &DuelView, highlight: &[Hex]) -> Vec<Line<'static>> {
    let Some(radius) = view.hexes.iter().map(|h| h.hex.distance(Hex::new(0, 0))).max() else {
        return vec![Line::from("(no board)")];
    };
    let radius = radius as i32;
    let mut lines = Vec::new();
    for r in -radius..=radius {
        let mut row: Vec<_> = view.hexes.iter().filter(|h| h.hex.r == r).collect();
        row.sort_by_key(|h| h.hex.q);
        let Some(first) = row.first() else { continue };
        // Where the row starts: x = q + r/2 in cells, shifted so the widest row starts at 0.
        let offset = (2 * first.hex.q + r + 2 * radius) as usize * CELL / 2;
        let mut spans = vec![
            Span::styled(format!("r{r:<+3}"), Style::default().fg(Color::DarkGray)),
            Span::raw(" ".repeat(offset)),
        ];
        for h in row {
            let lit = highlight.contains(&h.hex);
            let base = terrain_style(h.terrain);
            let mut cell: Vec<Span<'static>> = vec![Span::styled(terrain_letter(h.terrain).to_string(), base)];
            match view.units.iter().find(|u| u.hex == h.hex) {
                Some(u) => {
                    let style = base.patch(unit_style(u));
                    cell.push(Span::styled(format!("{:>2}", u.id % 100), style));
                    let marker = if h.relics > 0 {
                        '*'
                    } else if u.flying {
                        '^'
                    } else {
                        ' '
                    };
                    cell.push(Span::styled(marker.to_string(), style));
                }
                None if h.relics > 0 => {
                    let n =
                        if h.relics > 1 { char::from_digit(h.relics.min(9) as u32, 10).unwrap_or('+') } else { ' ' };
                    cell.push(Span::styled(
                        format!(" *{n}"),
                        base.patch(Style::default().fg(Color::LightYellow).add_modifier(Modifier::BOLD)),
                    ));
                }
                None => match h.summoning {
                    Some(s) => {
                        cell.push(Span::styled(format!(" s{s}"), base.patch(Style::default().fg(seat_color(s)))))
                    }
                    None => cell.push(Span::styled("   ", base)),
                },
            }
            if lit {
                for s in &mut cell {
                    s.style = s.style.add_modifier(Modifier::REVERSED);
                }
            }
            spans.extend(cell);
        }
        lines.push(Line::from(spans));
    }
    lines
}

fn step_text(step: &Step) -> String {
    match step {
        Step::FirstTurn { summoned } => format!("first turn (summoned {})", summoned.len()),
        Step::Activation => "activation".into(),
        Step::Summoning { summoned } => {
            format!("summoning{}", if *summoned { " (done)" } else { "" })
        }
    }
}

fn seat_name(view: &DuelView, s: Seat) -> String {
    if view.viewer.seat() == Some(s) {
        format!("seat {s} (you)")
    } else {
        format!("seat {s}")
    }
}

/// Everything around the board: turn, step, activation, pending DI, response
/// window, draw offer, then each player's points, DI stack and Alphas.
pub fn table_lines(cat: &Catalogue, view: &DuelView) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut out: Vec<Line<'static>> = Vec::new();
    match &view.phase {
        Phase::Creation => out.push(Line::styled("Creation Phase: both players create in secret", bold)),
        Phase::Finished { outcome } => {
            let t = match outcome {
                Outcome::Win { seat } => format!("Game over: {} wins", seat_name(view, *seat)),
                Outcome::Draw => "Game over: a draw".into(),
                Outcome::PartyWon => "Game over: the party won".into(),
                Outcome::PartyLost => "Game over: the party lost".into(),
            };
            out.push(Line::styled(t, bold.fg(Color::Yellow)));
        }
        Phase::Command => {
            out.push(Line::from(vec![
                Span::styled(format!("Turn {} · ", view.turn), bold),
                Span::styled(format!("{} plays", seat_name(view, view.active)), bold.fg(seat_color(view.active))),
                Span::raw(format!(" · step: {}", step_text(&view.step))),
            ]));
            if let Some(a) = &view.activation {
                let ended = if a.ended { " (ended)" } else { "" };
                out.push(Line::from(format!("Activating unit {}: m {} · a {} left{ended}", a.unit, a.m, a.a)));
            }
        }
    }
    if let Some((s, card)) = &view.pending_di {
        let name = cat.di_card(card).map_or(card.to_string(), |c| c.name.clone());
        out.push(Line::styled(
            format!("Pending DI: {name} cast by {}", seat_name(view, *s)),
            Style::default().fg(Color::Magenta),
        ));
    }
    if let Some(w) = view.window {
        out.push(Line::styled(
            format!("Response window open for {}", seat_name(view, w)),
            Style::default().fg(Color::Magenta),
        ));
    }
    if let Some(c) = &view.casualty {
        let ids: Vec<String> = c.candidates.iter().map(ToString::to_string).collect();
        out.push(Line::from(format!(
            "Casualty: {} chooses which dies among units {}",
            seat_name(view, c.seat),
            ids.join(", ")
        )));
    }
    if let Some(s) = view.draw_offer {
        out.push(Line::styled(format!("Draw offered by {}", seat_name(view, s)), Style::default().fg(Color::Yellow)));
    }
    if !view.waiting_for.is_empty() {
        let w: Vec<String> = view.waiting_for.iter().map(|s| seat_name(view, *s)).collect();
        out.push(Line::from(format!("Waiting for: {}", w.join(", "))));
    }
    for p in &view.players {
        out.push(Line::from(""));
        let mut head = vec![
            Span::styled(seat_name(view, p.seat), bold.fg(seat_color(p.seat))),
            Span::raw(format!(
                ": summoning points {}/{} · DI {} card{}",
                p.spent,
                view.max_points,
                p.di_count,
                if p.di_count == 1 { "" } else { "s" }
            )),
        ];
        if p.di_cast_this_turn {
            head.push(Span::raw(" · cast a DI this turn"));
        }
        if p.auto_pass {
            head.push(Span::raw(" · auto-pass"));
        }
        if !p.locked && matches!(view.phase, Phase::Creation) {
            head.push(Span::raw(" · creating…"));
        }
        out.push(Line::from(head));
        if let Some(stack) = &p.di_stack {
            if !stack.is_empty() {
                let names: Vec<String> =
                    stack.iter().map(|id| cat.di_card(id).map_or(id.to_string(), |c| c.name.clone())).collect();
                out.push(Line::from(format!("  DI stack (top first): {}", names.join(", "))));
            }
        }
        for a in &p.alphas {
            let name = alpha_name(cat, view, p.seat, a.index);
            let life = match (a.life, a.max_life) {
                (Some(l), Some(m)) => format!("life {l}/{m}"),
                _ => "hidden".into(),
            };
            let units = view.units.iter().filter(|u| u.owner == p.seat && u.alpha == a.index).count();
            let mut text = format!("  {name}: {life}");
            if let Some(c) = a.cost {
                text += &format!(" · cost {c}");
            }
            if units > 0 {
                text += &format!(" · {units} unit{}", if units == 1 { "" } else { "s" });
            }
            if let Some(f) = a.figure {
                text += &format!(" · {f:?}");
            }
            if !a.revealed && a.design.is_some() {
                text += " · not revealed";
            }
            out.push(Line::from(text));
        }
    }
    if !view.active_dis.is_empty() {
        out.push(Line::from(""));
        for d in &view.active_dis {
            let name = cat.di_card(&d.card).map_or(d.card.to_string(), |c| c.name.clone());
            let on = d.unit.map(|u| format!(" on unit {u}")).unwrap_or_default();
            out.push(Line::from(format!("Lasting DI {name} of seat {}{on}: {} turns left", d.owner, d.cubes)));
        }
    }
    out
}

/// A line's text without its styles (for tests and logs).
pub fn plain(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    /// A radius-1 board in the Command Phase, seen by seat 0.
    pub fn small_view() -> DuelView {
        let alpha = |i: usize, card: &str, life: u32| {
            json!({"index":i,"revealed":true,"design":{"cards":[card]},
            "cost":20,"life":life,"max_life":12,"figure":"celestial_knight","cubes":[]})
        };
        serde_json::from_value(json!({
            "viewer": {"kind":"seat","seat":0},
            "phase": {"phase":"command"}, "turn": 3, "active": 0, "first_player": 0,
            "step": {"step":"activation"},
            "activation": {"unit":1,"m":1,"a":1,"spent_a":false,"started_in_water":false,"ended":false},
            "checkpoints": 1, "max_points": 250,
            "hexes": [
                {"hex":[0,-1],"terrain":"hill","relics":0},
                {"hex":[1,-1],"terrain":"plains","relics":1},
                {"hex":[-1,0],"terrain":"water","relics":0},
                {"hex":[0,0],"terrain":"plains","relics":0},
                {"hex":[1,0],"terrain":"crater","relics":0},
                {"hex":[-1,1],"terrain":"plains","relics":0,"summoning":0},
                {"hex":[0,1],"terrain":"plains","relics":0,"summoning":0}
            ],
            "units": [
                {"id":1,"owner":0,"controller":0,"alpha":0,"hex":[0,0],"flying":false,"holds_relics":true,
                 "armor_left":[0,0],"activated":true,"exposed":false,"conditions":[]},
                {"id":2,"owner":1,"controller":1,"alpha":0,"hex":[1,0],"flying":true,"holds_relics":false,
                 "armor_left":[1,0],"activated":false,"exposed":false,"conditions":[]}
            ],
            "players": [
                {"seat":0,"locked":true,"spent":20,"di_count":1,"di_stack":["bolt"],"di_cast_this_turn":false,
                 "auto_pass":false,"alphas":[alpha(0,"knight",10)]},
                {"seat":1,"locked":true,"spent":20,"di_count":2,"di_stack":null,"di_cast_this_turn":true,
                 "auto_pass":false,"alphas":[alpha(0,"wolf",12),
                    {"index":1,"revealed":false,"design":null,"cost":null,"life":null,"max_life":null,"figure":null,"cubes":[]}]}
            ],
            "active_dis": [], "pending_di": [1,"bolt"], "window": null, "casualty": null, "draw_offer": 1,
            "waiting_for": [0], "legal": [{"type":"end_turn"}]
        }))
        .expect("the test view parses")
    }

    fn text(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(plain).collect()
    }

    #[test]
    fn rows_are_offset_so_neighbours_touch() {
        let v = small_view();
        let t = text(&board_lines(&v, &[]));
        assert_eq!(t, ["r-1   H   . * ", "r+0 W   . 1 C 2^", "r+1   . s0. s0",]);
    }

    #[test]
    fn terrain_units_and_highlights_carry_styles() {
        let v = small_view();
        let lines = board_lines(&v, &[Hex::new(1, 0)]);
        let hill = lines[0].spans.iter().find(|s| s.content == "H").unwrap();
        assert_eq!(hill.style.bg, Some(Color::Yellow));
        let enemy = lines[1].spans.iter().find(|s| s.content == " 2").unwrap();
        assert_eq!(enemy.style.fg, Some(Color::LightRed));
        assert!(enemy.style.add_modifier.contains(Modifier::REVERSED), "highlighted");
        let mine = lines[1].spans.iter().find(|s| s.content == " 1").unwrap();
        assert_eq!(mine.style.fg, Some(Color::Cyan));
        assert!(mine.style.add_modifier.contains(Modifier::DIM), "already activated");
    }

    #[test]
    fn the_table_says_who_plays_and_what_is_pending() {
        let cat = Catalogue::standard();
        let t = text(&table_lines(cat, &small_view()));
        assert_eq!(t[0], "Turn 3 · seat 0 (you) plays · step: activation");
        assert_eq!(t[1], "Activating unit 1: m 1 · a 1 left");
        assert_eq!(t[2], "Pending DI: bolt cast by seat 1");
        assert_eq!(t[3], "Draw offered by seat 1");
        assert_eq!(t[4], "Waiting for: seat 0 (you)");
        assert!(t.contains(&"seat 0 (you): summoning points 20/250 · DI 1 card".to_owned()));
        assert!(t.contains(&"  DI stack (top first): bolt".to_owned()));
        assert!(t.contains(&"  Alpha 1 (knight): life 10/12 · cost 20 · 1 unit · CelestialKnight".to_owned()));
        assert!(t.contains(&"seat 1: summoning points 20/250 · DI 2 cards · cast a DI this turn".to_owned()));
        assert!(t.contains(&"  Alpha 2: hidden".to_owned()));
    }

    #[test]
    fn an_empty_view_draws_without_panicking() {
        let mut v = small_view();
        v.hexes.clear();
        assert_eq!(text(&board_lines(&v, &[])), ["(no board)"]);
    }
}
