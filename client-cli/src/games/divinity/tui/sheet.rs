//! The table in lines: every figure with HP, armor, statuses and place;
//! the location's spaces with their neighbours and who stands there; one
//! Origin's sheet (hand, skills, talents, equipment, backpack, track); the
//! time track.

use athlas_engine::divinity::{cooldown::Track, map::SpaceIx};
use athlas_engine::Seat;
use ratatui::{
    style::{Color, Modifier, Style},
    text::{Line, Span},
};

use super::table::{enemy_armor, max_hp, occupants, origin_armor, statuses, Names, Table};

fn dim() -> Style {
    Style::default().fg(Color::DarkGray)
}

fn heading(s: &str) -> Line<'static> {
    Line::styled(s.to_owned(), Style::default().add_modifier(Modifier::BOLD))
}

fn status_text(track: &Track) -> String {
    statuses(track)
        .iter()
        .map(|(s, slot)| format!("{} {slot}", super::table::status(*s)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn short_space(n: Names<'_>, ix: SpaceIx) -> String {
    match n.location().and_then(|l| l.map.spaces.get(ix)) {
        Some(s) if !s.name.is_empty() => s.name.clone(),
        Some(s) => s.id.clone(),
        None => format!("#{ix}"),
    }
}

/// One line per figure: the Origins by seat, then the enemies.
/// `arm` is physical/magical armor; a status is followed by its slot.
pub fn figures(n: Names<'_>, t: &Table) -> Vec<Line<'static>> {
    let cat = n.cat;
    let mut out = vec![heading("Figures: HP · Armor phys/mag · AP · Source")];
    for (s, o) in t.origins.iter().enumerate() {
        let seat = s as Seat;
        let mut style = Style::default();
        if t.you == Some(seat) {
            style = style.add_modifier(Modifier::BOLD);
        }
        if o.downed {
            style = style.fg(Color::Red);
        }
        let max = max_hp(cat, o).map(|m| format!("/{m}")).unwrap_or_default();
        let (pa, ma) = origin_armor(cat, o);
        let mark = if t.you == Some(seat) { "»" } else { " " };
        let down = if o.downed { " DOWNED" } else { "" };
        let mut spans = vec![Span::styled(
            format!(
                "{mark}{:<9} HP{:>2}{max:<3} A{pa}/{ma} AP{} S{} {}{down}",
                n.origin_of_seat(seat),
                o.hp,
                o.ap,
                o.source,
                short_space(n, o.space)
            ),
            style,
        )];
        let st = status_text(&o.track);
        if !st.is_empty() {
            spans.push(Span::styled(format!(" {st}"), Style::default().fg(Color::Yellow)));
        }
        out.push(Line::from(spans));
    }
    for e in t.enemies.iter() {
        let (pa, ma) = enemy_armor(cat, e);
        let speed = if e.fast { " fast" } else { "" };
        let ix = n.location().and_then(|l| l.map.ix(&e.space));
        let at = ix.map_or_else(|| e.space.clone(), |ix| short_space(n, ix));
        let mut spans = vec![Span::styled(
            format!("☠{} HP{}/{} A{pa}/{ma} {at}{speed}", n.enemy_name(e), e.hp, e.max_hp),
            Style::default().fg(Color::LightRed),
        )];
        let st = status_text(&e.track);
        if !st.is_empty() {
            spans.push(Span::styled(format!(" {st}"), Style::default().fg(Color::Yellow)));
        }
        out.push(Line::from(spans));
    }
    out
}

/// One line per space: id and name, who stands there, the neighbours it
/// leads to (`×` a path still locked), environment and placed card.
pub fn spaces(n: Names<'_>, t: &Table) -> Vec<Line<'static>> {
    let Some(loc) = n.location() else { return vec![Line::from(format!("unknown location {}", t.location))] };
    let mut out = vec![heading("Spaces  (who is there → where paths lead)")];
    let who = occupants(n, t);
    for (ix, s) in loc.map.spaces.iter().enumerate() {
        let mut next: Vec<String> = Vec::new();
        for (p_ix, p) in loc.map.paths.iter().enumerate() {
            let other = if p.a == s.id {
                &p.b
            } else if p.b == s.id {
                &p.a
            } else {
                continue;
            };
            let locked = p.locked && !t.map.keys.contains(&p_ix);
            next.push(if locked { format!("×{other}") } else { other.clone() });
        }
        let hidden = s.locked && !t.map.placed.contains_key(&ix);
        let name = if s.tactical() {
            "tactical".to_owned()
        } else if hidden {
            "undiscovered".to_owned()
        } else {
            s.name.clone()
        };
        let mut spans = vec![Span::styled(format!("{:>2} {name}", s.id), Style::default().fg(Color::Cyan))];
        if let Some(people) = who.get(&s.id) {
            spans.push(Span::raw(format!(": {}", people.join(", "))));
        }
        spans.push(Span::styled(format!(" → {}", next.join(" ")), dim()));
        let env = t.map.tokens.get(&ix).copied().or(s.environment);
        if let Some(env) = env {
            let word = serde_json::to_value(env).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            spans.push(Span::styled(format!(" [{}]", word.replace('_', " ")), Style::default().fg(Color::Blue)));
        }
        if let Some(card) = t.map.placed.get(&ix) {
            spans.push(Span::styled(format!(" card {card}"), dim()));
        }
        out.push(Line::from(spans));
    }
    out
}

/// The cards waiting on the table: revealed (to resolve) and held.
pub fn cards(t: &Table) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for c in &t.revealed {
        out.push(Line::from(format!("revealed {}: {}", c.id, c.text)));
    }
    for c in &t.holding {
        out.push(Line::styled(format!("held {}: {}", c.id, c.text), dim()));
    }
    out
}

/// One Origin's sheet: what it can play and what it carries.
pub fn sheet(n: Names<'_>, t: &Table, seat: Seat) -> Vec<Line<'static>> {
    let Some(o) = t.origins.get(seat as usize) else { return vec![Line::from("no such Origin")] };
    let cat = n.cat;
    let list = |ids: &[String], f: &dyn Fn(&str) -> String| -> String {
        if ids.is_empty() {
            "—".into()
        } else {
            ids.iter().map(|i| f(i)).collect::<Vec<_>>().join(", ")
        }
    };
    let skill_line = |id: &str| -> String {
        match cat.skills.get(id) {
            Some(s) if s.source > 0 => format!("{} ({} AP, {} Src)", s.name, s.ap, s.source),
            Some(s) => format!("{} ({} AP)", s.name, s.ap),
            None => id.to_owned(),
        }
    };
    let (pa, ma) = origin_armor(cat, o);
    let max = max_hp(cat, o).map(|m| format!("/{m}")).unwrap_or_default();
    let collar = if o.collar_broken { "broken" } else { "intact" };
    let mut out = vec![
        heading(&format!(
            "{} (seat {seat}) · level {} · HP {}{max} · armor {pa}/{ma}",
            n.origin_of_seat(seat),
            o.level,
            o.hp
        )),
        Line::from(format!("AP {} · Source {} · collar {collar} · at {}", o.ap, o.source, n.space_at(o.space))),
        Line::from(format!("Hand: {}", list(&o.hand, &skill_line))),
    ];
    let resting: Vec<String> = o.skills.iter().filter(|s| !o.hand.contains(s)).cloned().collect();
    if !resting.is_empty() {
        out.push(Line::styled(format!("Cooling down: {}", list(&resting, &|i| n.skill(i))), dim()));
    }
    let talents: Vec<String> = o
        .talents
        .iter()
        .map(|t| if o.talents_used.contains(t) { format!("{} (used)", n.talent(t)) } else { n.talent(t) })
        .collect();
    out.push(Line::from(format!("Talents: {}", if talents.is_empty() { "—".into() } else { talents.join(", ") })));
    out.push(Line::from(format!("Equipped: {}", list(&o.equipped, &|i| n.item(i)))));
    out.push(Line::from(format!("Backpack ({}/3): {}", o.backpack.len(), list(&o.backpack, &|i| n.item(i)))));
    for r in &o.runes {
        out.push(Line::from(format!("Rune: {} on {}", n.item(&r.rune), n.item(&r.item))));
    }
    if let Some(s) = &o.summon {
        out.push(Line::from(format!("Summon: {}", n.item(s))));
    }
    let track: Vec<String> = o
        .track
        .slots
        .iter()
        .enumerate()
        .filter(|(_, cards)| !cards.is_empty())
        .map(|(i, cards)| {
            let c: Vec<String> = cards.iter().map(|c| n.track_card(&c.card)).collect();
            format!("{}:{}", i + 1, c.join("+"))
        })
        .collect();
    out.push(Line::from(format!(
        "Track (slot 1 leaves next): {}",
        if track.is_empty() { "—".into() } else { track.join(" ") }
    )));
    if let Some(d) = cat.origins.get(&o.origin) {
        out.push(Line::styled(format!("Ability: {}", d.special_ability), dim()));
    }
    out
}

/// The time track: `time 3/12 ▮▮▮▯▯▯▯▯▯▯▯▯`, or why there is none.
pub fn time(t: &Table) -> String {
    match t.time {
        None => "no time limit".into(),
        Some(now) => {
            let len = t.time_length.max(now);
            let bar: String = (1..=len).map(|i| if i <= now { '▮' } else { '▯' }).collect();
            let paused = if t.time_paused { " paused" } else { "" };
            format!("time {now}/{} {bar}{paused}", t.time_length)
        }
    }
}
