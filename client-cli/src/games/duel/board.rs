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

use athlas_engine::duel::words::{self, Names};

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

/// The board, one line per row, hexes in `highlight` shown reversed, with
/// the coordinates the actions use: each row ends with its `r`, and each
/// diagonal of constant `q` (running down and to the right) starts and ends
/// with a `qN` label just outside the board.
pub fn board_lines(view: &DuelView, highlight: &[Hex]) -> Vec<Line<'static>> {
    let Some(radius) = view.hexes.iter().map(|h| h.hex.distance(Hex::new(0, 0))).max() else {
        return vec![Line::from("(no board)")];
    };
    let radius = radius as i32;
    // Column of hex (q, r): a cell per q, half a cell per r; +2 leaves room
    // for the label of the leftmost diagonal.
    let x = |q: i32, r: i32| (CELL as i32 * (q + radius) + (CELL as i32 / 2) * r + 2) as usize;
    let label = Style::default().fg(Color::DarkGray);
    let mut lines = Vec::new();
    // A line of q labels at row `r` (above or below the board).
    let ruler = |r: i32, qs: std::ops::RangeInclusive<i32>| {
        let mut spans = Vec::new();
        let mut at = 0;
        for q in qs {
            let col = x(q, r);
            spans.push(Span::raw(" ".repeat(col - at)));
            let t = format!("q{q}");
            at = col + t.len();
            spans.push(Span::styled(t, label));
        }
        Line::from(spans)
    };
    lines.push(ruler(-radius - 1, 0..=radius));
    for r in -radius..=radius {
        let mut row: Vec<_> = view.hexes.iter().filter(|h| h.hex.r == r).collect();
        row.sort_by_key(|h| h.hex.q);
        let Some(first) = row.first() else { continue };
        let start = x(first.hex.q, r);
        let mut spans = Vec::new();
        if r < 0 && start >= CELL {
            // The diagonal q = first - 1 starts on this line, left of the row.
            spans.push(Span::raw(" ".repeat(start - CELL)));
            spans.push(Span::styled(format!("{:<4}", format!("q{}", first.hex.q - 1)), label));
        } else {
            spans.push(Span::raw(" ".repeat(start)));
        }
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
        spans.push(Span::styled(format!(" r{r:+}"), label));
        lines.push(Line::from(spans));
    }
    lines.push(ruler(radius + 1, -radius..=0));
    lines
}

/// What every symbol on the board means, two lines of at most 80 columns.
pub fn legend_lines() -> Vec<Line<'static>> {
    let dim = Style::default().fg(Color::DarkGray);
    let key = |t: &str, style: Style| Span::styled(t.to_owned(), style);
    vec![
        Line::from(vec![
            key(".", terrain_style(Terrain::Plains)),
            Span::styled(" plains ", dim),
            key("H", terrain_style(Terrain::Hill)),
            Span::styled(" hill ", dim),
            key("W", terrain_style(Terrain::Water)),
            Span::styled(" water ", dim),
            key("C", terrain_style(Terrain::Crater)),
            Span::styled(" crater  ", dim),
            key("s0", Style::default().fg(seat_color(0))),
            Span::styled("/", dim),
            key("s1", Style::default().fg(seat_color(1))),
            Span::styled(" summoning hex  ", dim),
            key("*", Style::default().fg(Color::LightYellow)),
            Span::styled(" relic (*2: two)", dim),
        ]),
        Line::from(vec![
            key("12", Style::default().fg(seat_color(0)).add_modifier(Modifier::BOLD)),
            Span::styled("/", dim),
            key("12", Style::default().fg(seat_color(1)).add_modifier(Modifier::BOLD)),
            Span::styled(" unit of seat 0/1 (dim: activated)  ", dim),
            key("^", Style::default()),
            Span::styled(" flying  [q,r]: r row, q diagonal ↘", dim),
        ]),
    ]
}

fn step_text(step: &Step) -> String {
    match step {
        Step::FirstTurn { summoned } => format!("first turn: summon only ({} so far)", summoned.len()),
        Step::Activation => "activate units".into(),
        Step::Summoning { summoned } => {
            format!("summoning{}", if *summoned { " (done)" } else { "" })
        }
    }
}

pub fn seat_name(view: &DuelView, s: Seat) -> String {
    if view.viewer.seat() == Some(s) {
        format!("you (seat {s})")
    } else {
        format!("seat {s}")
    }
}

/// The short name of an Alpha on the side panel: `A2 Forsaken Drake`, or
/// `A2 hidden` while the viewer may not see it. `A2` is Alpha 2 everywhere.
fn alpha_short(cat: &Catalogue, view: &DuelView, seat: Seat, index: usize) -> String {
    let full = Names { cat, table: view, before: None, seats: athlas_engine::SeatNames::none() }.alpha(seat, index);
    match full.split_once(" (") {
        Some((_, rest)) => format!("A{} {}", index + 1, rest.trim_end_matches(')')),
        None => format!("A{} hidden", index + 1),
    }
}

/// A unit on the side panel: `u4` and a `*` per relic it holds, `^` flying.
fn unit_tag(view: &DuelView, u: &UnitView) -> String {
    let relics = view.hexes.iter().find(|h| h.hex == u.hex).map_or(0, |h| h.relics);
    let mut t = format!("u{}", u.id);
    if u.holds_relics {
        t += &"*".repeat(relics);
    }
    if u.flying {
        t.push('^');
    }
    if u.controller != u.owner {
        t += &format!("(seat {})", u.controller);
    }
    t
}

/// The pending DI in words: who cast what at what, and what it does.
pub fn pending_lines(cat: &Catalogue, view: &DuelView) -> Vec<String> {
    let Some((s, card)) = &view.pending_di else { return Vec::new() };
    let name = cat.di_card(card).map_or(card.to_string(), |c| c.name.clone());
    let names = Names { cat, table: view, before: None, seats: athlas_engine::SeatNames::none() };
    let reader = view.viewer.seat().unwrap_or(Seat::MAX);
    let mut at = view.pending_target.as_ref().map(|t| words::target(names, reader, t)).unwrap_or_default();
    // Hex targets: name the units standing there, the ones it will hit.
    if let Some(t) = &view.pending_target {
        let there: Vec<String> = view
            .units
            .iter()
            .filter(|u| t.hex == Some(u.hex) || t.hexes.contains(&u.hex))
            .map(|u| {
                if view.viewer.seat() == Some(u.owner) {
                    format!("your unit {}", u.id)
                } else {
                    format!("unit {}", u.id)
                }
            })
            .collect();
        if !there.is_empty() {
            at += &format!(" ({} there)", there.join(", "));
        }
    }
    let mut out = vec![format!("{} cast {name}{at}", seat_name(view, *s))];
    if let Some(c) = cat.di_card(card) {
        out.push(super::card_text::di_text(c));
    }
    out
}

/// The panel beside the board: whose turn and what step, what waits for an
/// answer, then each player's points, DI stack and Alphas with their units.
pub fn table_lines(cat: &Catalogue, view: &DuelView) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let alert = Style::default().fg(Color::Magenta).add_modifier(Modifier::BOLD);
    let mut out: Vec<Line<'static>> = Vec::new();
    match &view.phase {
        Phase::Creation => out.push(Line::styled("Creation: both create in secret", bold)),
        Phase::Finished { outcome } => {
            let t = match outcome {
                Outcome::Win { seat } => format!("Game over: {} won", seat_name(view, *seat)),
                Outcome::Draw => "Game over: a draw".into(),
                Outcome::PartyWon => "Game over: the party won".into(),
                Outcome::PartyLost => "Game over: the party lost".into(),
            };
            out.push(Line::styled(t, bold.fg(Color::Yellow)));
        }
        Phase::Command => {
            out.push(Line::from(vec![
                Span::styled(format!("Turn {} · ", view.turn), bold),
                Span::styled(
                    if view.viewer.seat() == Some(view.active) {
                        format!("your turn (seat {})", view.active)
                    } else {
                        format!("seat {}'s turn", view.active)
                    },
                    bold.fg(seat_color(view.active)),
                ),
            ]));
            out.push(Line::from(format!("step: {}", step_text(&view.step))));
            if let Some(a) = &view.activation {
                let ended = if a.ended { " (ended)" } else { "" };
                out.push(Line::from(format!("unit {} activated: {} m, {} a left{ended}", a.unit, a.m, a.a)));
            }
        }
    }
    for (i, l) in pending_lines(cat, view).into_iter().enumerate() {
        out.push(Line::styled(l, if i == 0 { alert } else { Style::default().fg(Color::Magenta) }));
    }
    if let (Some(w), None) = (view.window, &view.pending_di) {
        out.push(Line::styled(format!("{} may answer with a DI or pass", seat_name(view, w)), alert));
    }
    if let Some(c) = &view.casualty {
        let ids: Vec<String> = c.candidates.iter().map(|u| format!("u{u}")).collect();
        out.push(Line::styled(format!("{} picks which dies: {}", seat_name(view, c.seat), ids.join(" ")), alert));
    }
    if let Some(s) = view.draw_offer {
        out.push(Line::styled(format!("{} offers a draw", seat_name(view, s)), Style::default().fg(Color::Yellow)));
    }
    for p in &view.players {
        let mut head = vec![
            Span::styled(seat_name(view, p.seat), bold.fg(seat_color(p.seat))),
            Span::raw(format!(" pts {}/{} DI {}", p.spent, view.max_points, p.di_count)),
        ];
        if p.di_cast_this_turn {
            head.push(Span::raw(" (cast)"));
        }
        if !p.locked && matches!(view.phase, Phase::Creation) {
            head.push(Span::raw(" · creating…"));
        }
        out.push(Line::from(head));
        if let Some(stack) = &p.di_stack {
            if !stack.is_empty() {
                let names: Vec<String> =
                    stack.iter().map(|id| cat.di_card(id).map_or(id.to_string(), |c| c.name.clone())).collect();
                out.push(Line::from(format!(" DI top first: {}", names.join(", "))));
            }
        }
        for a in &p.alphas {
            let mut text = format!(" {}", alpha_short(cat, view, p.seat, a.index));
            if let (Some(l), Some(m)) = (a.life, a.max_life) {
                text += &format!(" {l}/{m}");
            }
            let units: Vec<String> = view
                .units
                .iter()
                .filter(|u| u.owner == p.seat && u.alpha == a.index)
                .map(|u| unit_tag(view, u))
                .collect();
            if !units.is_empty() {
                text += &format!(" {}", units.join(" "));
            }
            out.push(Line::from(text));
        }
    }
    for d in &view.active_dis {
        let name = cat.di_card(&d.card).map_or(d.card.to_string(), |c| c.name.clone());
        let on = d.unit.map(|u| format!(" on u{u}")).unwrap_or_default();
        out.push(Line::from(format!("{name} (seat {}){on}: {} turns left", d.owner, d.cubes)));
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
    fn rows_are_offset_so_neighbours_touch_and_carry_their_coordinates() {
        let v = small_view();
        let t = text(&board_lines(&v, &[]));
        assert_eq!(t, ["  q0  q1", "q-1 H   . *  r-1", "  W   . 1 C 2^ r+0", "    . s0. s0 r+1", "      q-1 q0",]);
    }

    #[test]
    fn the_legend_names_every_symbol_in_80_columns() {
        let l = text(&legend_lines());
        let all = l.join(" ");
        for sym in [
            ". plains",
            "H hill",
            "W water",
            "C crater",
            "s0/s1 summoning hex",
            "* relic",
            "^ flying",
            "unit of seat 0/1",
            "[q,r]",
        ] {
            assert!(all.contains(sym), "legend explains {sym:?}: {all}");
        }
        assert!(l.iter().all(|x| x.chars().count() <= 80), "{l:?}");
    }

    #[test]
    fn terrain_units_and_highlights_carry_styles() {
        let v = small_view();
        let lines = board_lines(&v, &[Hex::new(1, 0)]);
        let hill = lines[1].spans.iter().find(|s| s.content == "H").unwrap();
        assert_eq!(hill.style.bg, Some(Color::Yellow));
        let enemy = lines[2].spans.iter().find(|s| s.content == " 2").unwrap();
        assert_eq!(enemy.style.fg, Some(Color::LightRed));
        assert!(enemy.style.add_modifier.contains(Modifier::REVERSED), "highlighted");
        let mine = lines[2].spans.iter().find(|s| s.content == " 1").unwrap();
        assert_eq!(mine.style.fg, Some(Color::Cyan));
        assert!(mine.style.add_modifier.contains(Modifier::DIM), "already activated");
    }

    #[test]
    fn the_table_says_who_plays_and_what_is_pending() {
        let cat = Catalogue::standard();
        let mut v = small_view();
        v.pending_di = Some((1, "lightning_bolt".into()));
        v.hexes.iter_mut().find(|h| h.hex == Hex::new(0, 0)).unwrap().relics = 1;
        v.pending_target = Some(athlas_engine::duel::Target { unit: Some(1), ..Default::default() });
        let t = text(&table_lines(cat, &v));
        assert_eq!(t[0], "Turn 3 · your turn (seat 0)");
        assert_eq!(t[1], "step: activate units");
        assert_eq!(t[2], "unit 1 activated: 1 m, 1 a left");
        assert_eq!(t[3], "seat 1 cast Lightning Bolt on your knight 1 at [0,0]");
        assert!(t[4].contains("loses 3 life"), "what the DI does: {}", t[4]);
        assert_eq!(t[5], "seat 1 offers a draw");
        assert!(t.contains(&"you (seat 0) pts 20/250 DI 1".to_owned()), "{t:?}");
        assert!(t.contains(&" A1 knight 10/12 u1*".to_owned()), "unit 1 holds the relic: {t:?}");
        assert!(t.contains(&" A1 wolf 12/12 u2^".to_owned()), "{t:?}");
        assert!(t.contains(&" A2 hidden".to_owned()), "{t:?}");
        // A DI aimed at hexes names the units standing there.
        v.pending_di = Some((1, "flood".into()));
        v.pending_target = Some(athlas_engine::duel::Target { hexes: vec![Hex::new(0, 0)], ..Default::default() });
        let t = text(&table_lines(cat, &v));
        assert_eq!(t[3], "seat 1 cast Flood on hex [0,0] (your unit 1 there)");
    }

    #[test]
    fn an_empty_view_draws_without_panicking() {
        let mut v = small_view();
        v.hexes.clear();
        assert_eq!(text(&board_lines(&v, &[])), ["(no board)"]);
    }
}
