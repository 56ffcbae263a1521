//! Alpha Creations: a stack of AC cards, checked against the three creation
//! restrictions, priced, and given a life pool.

use serde::{Deserialize, Serialize};

use super::card::{Armor, AttackKind, CardId, CardKind, Catalogue, Passive};

/// An Alpha as its owner designed it: an ordered list of card ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlphaDesign {
    pub cards: Vec<CardId>,
}

/// One creation restriction an Alpha breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Violation {
    /// Restriction 1: exactly one genus card.
    GenusCount { genus: usize },
    /// Restriction 2: red hands ≤ green hands.
    Hands { red: u32, green: u32 },
    /// Restriction 3: spell creation points ≤ spell points.
    SpellPoints { spells: u32, spell_points: u32 },
    /// A card id not in the catalogue.
    UnknownCard { id: CardId },
    /// The same card twice (a player's set holds one of each card).
    DuplicateCard { id: CardId },
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::GenusCount { genus } => {
                write!(f, "an Alpha must have exactly one genus card (it has {genus})")
            }
            Violation::Hands { red, green } => {
                write!(f, "an Alpha can't have more red hands than green hands ({red} red, {green} green)")
            }
            Violation::SpellPoints { spells, spell_points } => write!(
                f,
                "spell cards cost {spells} creation points but the Alpha has only {spell_points} spell points"
            ),
            Violation::UnknownCard { id } => write!(f, "no card {id:?} in the catalogue"),
            Violation::DuplicateCard { id } => write!(f, "card {id:?} is used twice"),
        }
    }
}

impl AlphaDesign {
    pub fn new<S: Into<CardId>>(cards: impl IntoIterator<Item = S>) -> Self {
        AlphaDesign { cards: cards.into_iter().map(Into::into).collect() }
    }

    /// Every restriction this Alpha breaks (empty when valid).
    pub fn violations(&self, cat: &Catalogue) -> Vec<Violation> {
        let mut v = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for id in &self.cards {
            if cat.card(id).is_none() {
                v.push(Violation::UnknownCard { id: id.clone() });
            }
            if !seen.insert(id) {
                v.push(Violation::DuplicateCard { id: id.clone() });
            }
        }
        if !v.is_empty() {
            return v;
        }
        let cards: Vec<_> = self.cards.iter().filter_map(|id| cat.card(id)).collect();
        let genus = cards.iter().filter(|c| c.kind == CardKind::Genus).count();
        if genus != 1 {
            v.push(Violation::GenusCount { genus });
        }
        let red: u32 = cards.iter().map(|c| c.needs_hands).sum();
        let green: u32 = cards.iter().map(|c| c.hands).sum();
        if red > green {
            v.push(Violation::Hands { red, green });
        }
        let spells: u32 = cards.iter().filter(|c| c.kind == CardKind::Spell).map(|c| c.cost).sum();
        let spell_points: u32 = cards.iter().map(|c| c.spell_points).sum();
        if spells > spell_points {
            v.push(Violation::SpellPoints { spells, spell_points });
        }
        v
    }

    pub fn is_valid(&self, cat: &Catalogue) -> bool {
        self.violations(cat).is_empty()
    }

    /// Summoning step 1: the opponent removes cards that break the rules until
    /// the Alpha is valid. The engine does it deterministically: duplicate and
    /// unknown cards first, then extra genus cards (last first), then the
    /// latest hand-needing cards, then the latest spells. An Alpha with no
    /// genus cannot be fixed by removing cards: `None`.
    pub fn repaired(&self, cat: &Catalogue) -> Option<AlphaDesign> {
        let mut seen = std::collections::BTreeSet::new();
        let mut cards: Vec<CardId> =
            self.cards.iter().filter(|id| cat.card(id).is_some() && seen.insert((*id).clone())).cloned().collect();
        let kind = |id: &CardId| cat.card(id).map(|c| c.kind);
        while cards.iter().filter(|id| kind(id) == Some(CardKind::Genus)).count() > 1 {
            let pos = cards.iter().rposition(|id| kind(id) == Some(CardKind::Genus))?;
            cards.remove(pos);
        }
        if !cards.iter().any(|id| kind(id) == Some(CardKind::Genus)) {
            return None;
        }
        loop {
            let design = AlphaDesign { cards: cards.clone() };
            let viol = design.violations(cat);
            if viol.is_empty() {
                return Some(design);
            }
            let pos = match viol[0] {
                Violation::Hands { .. } => {
                    cards.iter().rposition(|id| cat.card(id).is_some_and(|c| c.needs_hands > 0))?
                }
                Violation::SpellPoints { .. } => cards.iter().rposition(|id| kind(id) == Some(CardKind::Spell))?,
                _ => return None,
            };
            cards.remove(pos);
        }
    }

    /// Sum of the creation points of all its cards.
    pub fn summoning_cost(&self, cat: &Catalogue) -> u32 {
        self.cards.iter().filter_map(|id| cat.card(id)).map(|c| c.cost).sum()
    }

    /// Sum of the life values of all its cards, ignoring "+" values.
    pub fn life_pool(&self, cat: &Catalogue) -> u32 {
        self.cards.iter().filter_map(|id| cat.card(id)).map(|c| c.life).sum()
    }

    /// Armor of one unit of this Alpha, before conditions.
    pub fn armor(&self, cat: &Catalogue) -> Armor {
        let mut a = Armor::default();
        for c in self.cards.iter().filter_map(|id| cat.card(id)) {
            a.physical += c.armor.physical;
            a.magical += c.armor.magical;
        }
        a
    }

    /// Sum of the modifiers of `kind` on all its cards.
    pub fn modifier(&self, cat: &Catalogue, kind: AttackKind) -> i32 {
        self.cards.iter().filter_map(|id| cat.card(id)).map(|c| c.modifiers.get(kind)).sum()
    }

    /// Whether any card of the Alpha has a passive matching `pred`.
    pub fn has_passive(&self, cat: &Catalogue, pred: impl Fn(&Passive) -> bool) -> bool {
        self.cards.iter().filter_map(|id| cat.card(id)).any(|c| c.passives.iter().any(&pred))
    }

    /// Every passive of its cards, in card order.
    pub fn passives(&self, cat: &Catalogue) -> Vec<Passive> {
        self.cards.iter().filter_map(|id| cat.card(id)).flat_map(|c| c.passives.iter().cloned()).collect()
    }
}
