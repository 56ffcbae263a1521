//! The help screen (`?`): how to win, the turn, the icons and the keys, so
//! a player needs nothing outside the client to play. docs/HOW_TO_PLAY.md
//! says the same at more length.

use ratatui::{
    style::{Modifier, Style},
    text::Line,
};

/// The help text, one entry per line (at most 78 columns).
pub const HELP: &[&str] = &[
    "# How to win",
    "A unit of yours that holds two relics (*) wins at once. A non-flying unit on",
    "a relic's hex holds it; flying units never hold relics. Or: your opponent",
    "resigns; or you both agree to a draw.",
    "# A game",
    "Creation: in secret, build 3 Alphas (one genus card each, other cards added;",
    "red hands <= green hands; spell costs <= spell points) and a DI stack (up to",
    "4 cards, 8 divine points). Or press p for a preset. L locks it in.",
    "Command Phase: turns alternate; a random player goes first.",
    "Your first turn: summon only - one unit of any cost, or up to 3 costing 60.",
    "Every later turn: 1 upkeep (your markers end, lasting DIs lose a turn),",
    "2 activate each of your units once, one after another: it gets one m",
    "(move) and one a (action) to spend on its powers and the basic powers,",
    "3 summon at most one unit on one of your summoning hexes (s0/s1), paying",
    "its Alpha's cost from your summoning points. Then end the turn.",
    "# Alphas and units",
    "Units of one Alpha share its cards and its life pool. When a unit's Alpha",
    "reaches 0 life, that unit dies and the pool refills. A1 on the side panel",
    "is Alpha 1; u4 is unit 4; * after a unit: a relic it holds; ^: flying.",
    "# Moving and terrain",
    "m: to an adjacent hex of the same level. m + a: one level up or down.",
    "Levels: hill H high, plains . and water W middle, crater C low. A crater",
    "next to a hill is a cliff: no walking over it, range-1 powers stop there.",
    "Entering water, or starting and ending an activation in it: lose 5 life.",
    "Flying: m moves up to 2 hexes over anything (not after spending its a).",
    "Attacking down a level: +2. A relic moves at most one hex per turn.",
    "# Attacks",
    "Damage = attack value + modifiers - armor; the Alpha loses that much.",
    "Physical armor counts against all attacks, magical armor only against",
    "magical ones; each armor point works once per turn.",
    "# Divine Interventions (DI)",
    "Once per turn, even in your opponent's turn, cast the top card of your",
    "stack. After an enemy activation you get a response window: cast a DI",
    "(timed at any moment of that activation) or pass. A DI cast at you can be",
    "answered by one of yours, which resolves first. Discard top cards anytime.",
    "# Keys",
    "Up/Down or j/k select, digits pick a number, Enter send, ? this help,",
    "c the card catalogue, Tab the creation screen, e the end screen, q quit.",
    "A question (y/n) comes before resigning, a draw, and moves that hurt you.",
    "Board: [q,r] = row r (right edge) and diagonal q (labels top, left, bottom).",
];

pub fn help_lines() -> Vec<Line<'static>> {
    HELP.iter()
        .map(|l| match l.strip_prefix("# ") {
            Some(h) => Line::styled(h.to_owned(), Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)),
            None => Line::from(*l),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_covers_winning_the_turn_and_fits_the_width() {
        let all = HELP.join("\n");
        for needle in ["two relics", "first turn", "upkeep", "summon", "response window", "Divine", "resign", "draw"] {
            assert!(all.contains(needle), "help mentions {needle}");
        }
        assert!(HELP.iter().all(|l| l.chars().count() <= 78), "fits an 80-column screen");
    }
}
