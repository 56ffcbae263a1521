//! Drafting the Creation Phase: Alphas built card by card from the
//! catalogue, with their live price, life pool and the rules they break in
//! words, and a DI stack with its divine points. Pure: the TUI draws it.

use athlas_engine::duel::{
    alpha::AlphaDesign,
    card::{CardId, CardKind, Catalogue},
    state::{DI_STACK_MAX_CARDS, DI_STACK_MAX_POINTS},
    DuelAction,
};

/// One row of the catalogue list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A heading (`Genus`, `Ability`, …, `Divine Interventions`).
    Heading(String),
    Ac(CardId),
    Di(CardId),
}

/// The catalogue as a list: AC cards by kind, then DI cards, each by name.
pub fn entries(cat: &Catalogue) -> Vec<Entry> {
    let mut out = Vec::new();
    for (kind, title) in [
        (CardKind::Genus, "Genus"),
        (CardKind::Ability, "Abilities"),
        (CardKind::Equipment, "Equipment"),
        (CardKind::Spell, "Spells"),
    ] {
        let mut cards: Vec<_> = cat.ac.values().filter(|c| c.kind == kind).collect();
        if cards.is_empty() {
            continue;
        }
        cards.sort_by(|a, b| a.name.cmp(&b.name));
        out.push(Entry::Heading(title.into()));
        out.extend(cards.into_iter().map(|c| Entry::Ac(c.id.clone())));
    }
    if !cat.di.is_empty() {
        let mut cards: Vec<_> = cat.di.values().collect();
        cards.sort_by(|a, b| a.name.cmp(&b.name));
        out.push(Entry::Heading("Divine Interventions".into()));
        out.extend(cards.into_iter().map(|c| Entry::Di(c.id.clone())));
    }
    out
}

/// A one-line description of a catalogue row.
pub fn entry_label(cat: &Catalogue, e: &Entry) -> String {
    match e {
        Entry::Heading(t) => format!("— {t} —"),
        Entry::Ac(id) => match cat.card(id) {
            Some(c) => {
                let mut s = format!("{} ({}cp", c.name, c.cost);
                if c.life > 0 {
                    s += &format!(", {} life", c.life);
                }
                if c.hands > 0 {
                    s += &format!(", +{} hands", c.hands);
                }
                if c.needs_hands > 0 {
                    s += &format!(", needs {} hands", c.needs_hands);
                }
                if c.spell_points > 0 {
                    s += &format!(", {} spell pts", c.spell_points);
                }
                s + ")"
            }
            None => id.to_string(),
        },
        Entry::Di(id) => match cat.di_card(id) {
            Some(c) => format!("{} ({} dp)", c.name, c.divine_points),
            None => id.to_string(),
        },
    }
}

/// A catalogue row in a narrow list: the name and its price (the card's
/// text shows beside the list).
pub fn entry_short(cat: &Catalogue, e: &Entry) -> String {
    match e {
        Entry::Heading(t) => format!("— {t} —"),
        Entry::Ac(id) => cat.card(id).map_or(id.to_string(), |c| format!("{} · {}cp", c.name, c.cost)),
        Entry::Di(id) => cat.di_card(id).map_or(id.to_string(), |c| format!("{} · {}dp", c.name, c.divine_points)),
    }
}

/// The first row that is a card, where the cursor starts.
pub fn first_card(entries: &[Entry]) -> usize {
    entries.iter().position(|e| !matches!(e, Entry::Heading(_))).unwrap_or(0)
}

/// The figures of one drafted Alpha.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlphaSummary {
    pub cost: u32,
    pub life: u32,
    /// The creation rules it breaks, in words (empty when valid).
    pub problems: Vec<String>,
}

/// A Creation Phase in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub alphas: Vec<AlphaDesign>,
    /// Top first.
    pub di_stack: Vec<CardId>,
    /// The Alpha cards are added to.
    pub current: usize,
}

impl Draft {
    /// An empty draft of `n` Alphas (3, or 4 in a campaign).
    pub fn new(n: usize) -> Draft {
        Draft { alphas: vec![AlphaDesign { cards: Vec::new() }; n.max(1)], di_stack: Vec::new(), current: 0 }
    }

    /// A draft filled from a preset.
    pub fn from_preset(cat: &Catalogue, id: &str) -> Option<Draft> {
        let p = cat.preset(id)?;
        Some(Draft {
            alphas: p.alphas.iter().map(|a| AlphaDesign::new(a.iter().cloned())).collect(),
            di_stack: p.di_stack.clone(),
            current: 0,
        })
    }

    /// Which Alpha (if any) already holds this card: a set has one of each.
    pub fn holder(&self, id: &str) -> Option<usize> {
        self.alphas.iter().position(|a| a.cards.iter().any(|c| **c == *id))
    }

    /// Add an AC card to the current Alpha, or a DI card to the stack; a
    /// card already in the draft is taken out instead (a toggle).
    ///
    /// # Errors
    /// A card not in the catalogue, or a DI that does not fit the stack.
    pub fn toggle(&mut self, cat: &Catalogue, e: &Entry) -> Result<(), String> {
        match e {
            Entry::Heading(_) => Ok(()),
            Entry::Ac(id) => {
                if cat.card(id).is_none() {
                    return Err(format!("no card {id:?}"));
                }
                if let Some(i) = self.holder(id) {
                    self.alphas[i].cards.retain(|c| c != id);
                    return Ok(());
                }
                self.alphas[self.current].cards.push(id.clone());
                Ok(())
            }
            Entry::Di(id) => {
                let Some(card) = cat.di_card(id) else {
                    return Err(format!("no DI {id:?}"));
                };
                if let Some(pos) = self.di_stack.iter().position(|c| c == id) {
                    self.di_stack.remove(pos);
                    return Ok(());
                }
                if self.di_stack.len() >= DI_STACK_MAX_CARDS {
                    return Err(format!("a DI stack holds at most {DI_STACK_MAX_CARDS} cards"));
                }
                let points = self.di_points(cat) + card.divine_points;
                if points > DI_STACK_MAX_POINTS {
                    return Err(format!("that would make {points} divine points; at most {DI_STACK_MAX_POINTS}"));
                }
                self.di_stack.push(id.clone());
                Ok(())
            }
        }
    }

    /// Take the last card off the current Alpha.
    pub fn pop(&mut self) {
        self.alphas[self.current].cards.pop();
    }

    pub fn di_points(&self, cat: &Catalogue) -> u32 {
        self.di_stack.iter().filter_map(|id| cat.di_card(id)).map(|c| c.divine_points).sum()
    }

    pub fn summary(&self, cat: &Catalogue, i: usize) -> AlphaSummary {
        let a = &self.alphas[i];
        let mut problems: Vec<String> = if a.cards.is_empty() {
            vec!["an Alpha must have exactly one genus card (it has 0)".into()]
        } else {
            a.violations(cat).iter().map(ToString::to_string).collect()
        };
        problems.dedup();
        AlphaSummary { cost: a.summoning_cost(cat), life: a.life_pool(cat), problems }
    }

    /// Everything that keeps the draft from being locked in, in words.
    pub fn problems(&self, cat: &Catalogue) -> Vec<String> {
        let mut out = Vec::new();
        for i in 0..self.alphas.len() {
            for p in self.summary(cat, i).problems {
                out.push(format!("Alpha {}: {p}", i + 1));
            }
        }
        let points = self.di_points(cat);
        if points > DI_STACK_MAX_POINTS {
            out.push(format!("the DI stack totals {points} divine points; at most {DI_STACK_MAX_POINTS}"));
        }
        out
    }

    /// The action that locks the draft in.
    pub fn to_action(&self) -> DuelAction {
        DuelAction::Create { alphas: self.alphas.clone(), di_stack: self.di_stack.clone() }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn strs(ids: &[athlas_engine::duel::card::CardId]) -> Vec<&str> {
        ids.iter().map(|c| &**c).collect()
    }

    /// A small catalogue for tests: the shipped one may be empty.
    pub fn small_catalogue() -> Catalogue {
        let cards = r#"{
          "ac_cards": [
            {"id":"knight","name":"Knight","kind":"genus","cost":20,"life":10,"hands":2,"text":"A knight."},
            {"id":"wolf","name":"Wolf","kind":"genus","cost":15,"life":8,"text":"A wolf."},
            {"id":"sword","name":"Sword","kind":"equipment","cost":10,"needs_hands":1,"text":"A sword."},
            {"id":"spear","name":"Spear","kind":"equipment","cost":12,"needs_hands":2,"text":"A spear."},
            {"id":"fire","name":"Fire","kind":"spell","cost":5,"text":"Fire."},
            {"id":"tough","name":"Tough","kind":"ability","cost":7,"life":3,"text":"Tough."}
          ],
          "divine_interventions": [
            {"id":"bolt","name":"Bolt","divine_points":5,"target":{"type":"itself"},"effects":[{"type":"extra_action"}],"text":"x"},
            {"id":"calm","name":"Calm","divine_points":3,"target":{"type":"itself"},"effects":[{"type":"extra_action"}],"text":"x"},
            {"id":"gust","name":"Gust","divine_points":2,"target":{"type":"itself"},"effects":[{"type":"extra_action"}],"text":"x"}
          ],
          "basic_powers": ["a","b","c","d"]
        }"#;
        let presets = r#"{"presets":[{"id":"p1","name":"First","alphas":[["knight","sword"],["wolf"],["tough"]],"di_stack":["bolt"]}]}"#;
        Catalogue::from_json(cards, presets).unwrap()
    }

    #[test]
    fn the_list_groups_cards_by_kind() {
        let cat = small_catalogue();
        let labels: Vec<String> = entries(&cat).iter().map(|e| entry_label(&cat, e)).collect();
        assert_eq!(labels[0], "— Genus —");
        assert_eq!(labels[1], "Knight (20cp, 10 life, +2 hands)");
        assert!(labels.contains(&"Spear (12cp, needs 2 hands)".to_owned()));
        assert_eq!(labels.last().unwrap(), "Gust (2 dp)");
        let short: Vec<String> = entries(&cat).iter().map(|e| entry_short(&cat, e)).collect();
        assert_eq!(short[1], "Knight · 20cp");
        assert_eq!(short.last().unwrap(), "Gust · 2dp");
        assert_eq!(first_card(&entries(&cat)), 1, "the cursor starts on a card, not a heading");
    }

    #[test]
    fn price_life_and_broken_rules_follow_each_card() {
        let cat = small_catalogue();
        let mut d = Draft::new(3);
        assert_eq!(d.summary(&cat, 0).problems, ["an Alpha must have exactly one genus card (it has 0)"]);
        d.toggle(&cat, &Entry::Ac("wolf".into())).unwrap();
        d.toggle(&cat, &Entry::Ac("sword".into())).unwrap();
        let s = d.summary(&cat, 0);
        assert_eq!((s.cost, s.life), (25, 8));
        assert_eq!(s.problems, ["an Alpha can't have more red hands than green hands (1 red, 0 green)"]);
        d.toggle(&cat, &Entry::Ac("sword".into())).unwrap(); // off again
        assert!(d.summary(&cat, 0).problems.is_empty());
        d.current = 1;
        d.toggle(&cat, &Entry::Ac("wolf".into())).unwrap(); // taken out of Alpha 1, not doubled
        assert!(d.holder("wolf").is_none());
        assert_eq!(d.problems(&cat).len(), 3);
    }

    #[test]
    fn the_di_stack_keeps_to_four_cards_and_eight_points() {
        let cat = small_catalogue();
        let mut d = Draft::new(3);
        d.toggle(&cat, &Entry::Di("bolt".into())).unwrap();
        d.toggle(&cat, &Entry::Di("calm".into())).unwrap();
        assert_eq!(d.di_points(&cat), 8);
        let e = d.toggle(&cat, &Entry::Di("gust".into())).unwrap_err();
        assert!(e.contains("10 divine points"), "{e}");
        d.toggle(&cat, &Entry::Di("bolt".into())).unwrap();
        assert_eq!(strs(&d.di_stack), ["calm"]);
    }

    #[test]
    fn a_preset_fills_the_draft_and_locks_in_as_create() {
        let cat = small_catalogue();
        let d = Draft::from_preset(&cat, "p1").unwrap();
        assert_eq!(strs(&d.alphas[0].cards), ["knight", "sword"]);
        assert_eq!(d.summary(&cat, 0).cost, 30);
        match d.to_action() {
            DuelAction::Create { alphas, di_stack } => {
                assert_eq!(alphas.len(), 3);
                assert_eq!(strs(&di_stack), ["bolt"]);
            }
            other => panic!("{other:?}"),
        }
    }
}
