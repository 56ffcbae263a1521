//! A card's text from the public catalogue (`content/clans/cards.json`),
//! the lines the terminal shows beside the field.

use athlas_engine::clans::content::TerrainEffect;
use athlas_engine::clans::content::{
    Ability, Catalogue, Class, Effect, ItemEffect, Kind, Lasts, Stat, StatusKind, Timing,
};

fn status(s: Option<StatusKind>) -> &'static str {
    match s {
        Some(StatusKind::Break) => " + BREAK",
        Some(StatusKind::Poison) => " + POISON",
        None => "",
    }
}

fn stat(s: Stat) -> &'static str {
    match s {
        Stat::Atk => "ATK",
        Stat::Spd => "SPD",
        Stat::Range => "Range",
    }
}

pub fn class(c: Class) -> &'static str {
    match c {
        Class::Stealth => "stealth",
        Class::Defense => "defense",
        Class::Ranged => "ranged",
        Class::Warrior => "warrior",
        Class::Mystic => "mystic",
    }
}

fn ability(a: &Ability) -> String {
    let timing = match a.timing {
        Timing::Pt => format!("(PT, {} SP)", a.sp),
        Timing::Ot => format!("(OT, {} SP)", a.sp),
        Timing::Permanent => "(permanent)".to_owned(),
    };
    let what = match &a.effect {
        Effect::Initiative => "strikes first in combat".to_owned(),
        Effect::CounterAnyRange => "counter-attacks from any range".to_owned(),
        Effect::Strike { bonus, status: s } => format!("attack at ATK+{bonus}{}, no counter", status(*s)),
        Effect::Bolt { damage, range, status: s } => format!("{damage} damage within {range}{}", status(*s)),
        Effect::Heal { amount, range } => format!("heal {amount} within {range}"),
        Effect::Cure { range } => format!("cure BREAK/POISON within {range}"),
    };
    format!("{} {timing}: {what}", a.name)
}

/// The card's name and text, a line each; the id alone if unknown.
pub fn text(cat: &Catalogue, id: &str) -> Vec<String> {
    let Some(card) = cat.card(id) else { return vec![id.to_owned()] };
    let mut out = Vec::new();
    match &card.kind {
        Kind::Ally(a) => {
            let what = if a.god {
                "God"
            } else if a.spirit {
                "Divine Spirit"
            } else {
                "ally"
            };
            out.push(format!("{} — {what} {}★ {}", card.name, a.rank, class(a.class)));
            out.push(format!(
                "HP {} ATK {} SPD {} Range {} · {} SP to summon · {} EXP",
                a.hp, a.atk, a.spd, a.range, a.sp, a.exp
            ));
            out.extend(a.abilities.iter().map(|ab| format!("  {}", ability(ab))));
            if let Some(aura) = &a.aura {
                out.push(format!("  Aura: allies within {} get +{} {}", aura.radius, aura.amount, stat(aura.stat)));
            }
        }
        Kind::Homebase => out.push(format!("{} — homebase", card.name)),
        Kind::Equipment(e) => {
            out.push(format!(
                "{} — equipment, {} SP · {} EXP · assimilate for {} SP",
                card.name, e.sp, e.exp, e.assimilate
            ));
            let bonus: Vec<String> = [(e.hp, "HP"), (e.atk, "ATK"), (e.spd, "SPD"), (e.range, "Range")]
                .iter()
                .filter(|(v, _)| *v != 0)
                .map(|(v, n)| format!("{v:+} {n}"))
                .collect();
            out.push(format!("  {}", bonus.join(", ")));
        }
        Kind::Item(i) => {
            out.push(format!("{} — item, {} SP · {} EXP", card.name, i.sp, i.exp));
            out.push(format!(
                "  {}",
                match &i.effect {
                    ItemEffect::Heal { amount } => format!("heal one of yours by {amount}"),
                    ItemEffect::Boost { stat: s, amount, lasts } => format!(
                        "+{amount} {} to one of yours {}",
                        stat(*s),
                        if *lasts == Lasts::Turn { "for the turn" } else { "until it has acted" }
                    ),
                    ItemEffect::Damage { amount, status: s } => format!("{amount} damage to an enemy{}", status(*s)),
                    ItemEffect::Cure => "cure one of yours of BREAK/POISON".to_owned(),
                }
            ));
        }
        Kind::RunicArt(r) => {
            out.push(format!("{} — runic art, {} SP · {} EXP", card.name, r.sp, r.exp));
            out.push(format!(
                "  a {} and a {} ally, both in Range: {} damage{}",
                class(r.classes[0]),
                class(r.classes[1]),
                r.damage,
                status(r.status)
            ));
        }
        Kind::Terrain(t) => {
            out.push(format!("{} — terrain effect, {} SP · {} EXP", card.name, t.sp, t.exp));
            out.push(format!(
                "  {}",
                match t.effect {
                    TerrainEffect::ClimbMountains => "your allies may climb mountains (+1 ATK on one)",
                    TerrainEffect::WalkOnWater => "your allies may walk on water",
                    TerrainEffect::ForestStride => "your allies cross forests without slowing",
                }
            ));
        }
    }
    out
}

/// A card's name (its id if unknown).
pub fn name(cat: &Catalogue, id: &str) -> String {
    athlas_engine::clans::words::card_name(cat, id)
}

/// SP (and EXP, when any) a card costs to play, for a hand list.
pub fn cost(cat: &Catalogue, id: &str) -> String {
    let (sp, exp) = match cat.card(id).map(|c| &c.kind) {
        Some(Kind::Ally(a)) => (a.sp, 0),
        Some(Kind::Equipment(e)) => (e.sp, e.exp),
        Some(Kind::Item(i)) => (i.sp, i.exp),
        Some(Kind::RunicArt(r)) => (r.sp, r.exp),
        Some(Kind::Terrain(t)) => (t.sp, t.exp),
        _ => return String::new(),
    };
    if exp > 0 {
        format!("{sp} SP {exp} EXP")
    } else {
        format!("{sp} SP")
    }
}
