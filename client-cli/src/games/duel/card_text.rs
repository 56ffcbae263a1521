//! Cards in words, derived from the card data and the engine's effect
//! vocabulary (`engine/src/duel/card.rs`), so what the client says a card
//! does is what the engine plays: a number changed in `cards.json` changes
//! the words with it.

use athlas_engine::duel::card::{
    AcCard, AttackKind, CardKind, Condition, Cost, DiCard, Effect, Passive, Power, Range, Side, SpecialRule, Targeting,
    TerrainTo, Until,
};

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn kind_word(k: CardKind) -> &'static str {
    match k {
        CardKind::Genus => "Genus",
        CardKind::Ability => "Ability",
        CardKind::Equipment => "Equipment",
        CardKind::Spell => "Spell",
    }
}

fn attack_word(k: AttackKind) -> &'static str {
    match k {
        AttackKind::Melee => "melee",
        AttackKind::Ranged => "ranged",
        AttackKind::Magical => "magical",
    }
}

/// A power's cost in the card icons: `a`, `m + a`, `a + c, sacrifice 2 life`.
pub fn cost_words(c: &Cost) -> String {
    let mut parts: Vec<String> = Vec::new();
    if c.m {
        parts.push("m".into());
    }
    if c.a {
        parts.push("a".into());
    }
    if c.c {
        parts.push("c".into());
    }
    let mut s = if parts.is_empty() { "free".to_owned() } else { parts.join(" + ") };
    if c.life > 0 {
        s += &format!(", sacrifice {} of this Alpha", plural(c.life, "life", "life"));
    }
    s
}

fn range_words(r: Range) -> String {
    match (r.min, r.max) {
        (1, 1) => "adjacent (1 hex away)".into(),
        (a, b) if a == b => format!("exactly {a} hexes away"),
        (a, b) => format!("{a}-{b} hexes away"),
    }
}

fn side_word(s: Side) -> &'static str {
    match s {
        Side::Any => "any",
        Side::Enemy => "an enemy",
        Side::Friendly => "a friendly",
    }
}

/// What a power or DI is aimed at; `range` for AC powers.
fn target_words(t: &Targeting, range: Option<Range>) -> String {
    let at = range.map(|r| format!(" {}", range_words(r))).unwrap_or_default();
    match t {
        Targeting::Itself => "this unit".into(),
        Targeting::Unit { owned: true, .. } => format!("a unit you own (never an enemy one){at}"),
        Targeting::Unit { side, .. } => format!("{} unit{at}", side_word(*side)),
        Targeting::Hex { empty: true } => format!("an empty hex{at}"),
        Targeting::Hex { empty: false } => format!("a hex{at}"),
        Targeting::Hexes { count } => format!("up to {} anywhere", plural(*count, "hex", "hexes")),
        Targeting::WaterBody => "a body of water".into(),
        Targeting::Relic => "a relic".into(),
    }
}

fn terrain_to(t: TerrainTo) -> &'static str {
    match t {
        TerrainTo::Plains => "plains",
        TerrainTo::Hill => "a hill",
        TerrainTo::Water => "water",
        TerrainTo::Crater => "a crater",
        TerrainTo::Choose => "plains, hill, water or crater (you choose)",
    }
}

fn condition_words(c: &Condition) -> String {
    match c {
        Condition::Flying => "is a flying unit".into(),
        Condition::Grounded => "is not flying and cannot carry a relic".into(),
        Condition::Immobile => "may not spend its m".into(),
        Condition::Paralyzed => "may spend neither m nor a".into(),
        Condition::Stasis => "loses no life from any cause".into(),
        Condition::AttackBonus { kind, amount } => match kind {
            Some(k) => format!("gets +{amount} to its {} attacks", attack_word(*k)),
            None => format!("gets +{amount} to all its attacks"),
        },
        Condition::ArmorBonus { physical, magical } => match (*physical, *magical) {
            (p, 0) => format!("gets {p} more physical armor"),
            (0, m) => format!("gets {m} more magical armor"),
            (p, m) => format!("gets {p} more physical and {m} more magical armor"),
        },
    }
}

fn until_words(u: Until) -> &'static str {
    match u {
        Until::YourNextUpkeep => "until your next upkeep",
        Until::DiDuration => "while this lasts",
        Until::EndOfTurn => "until the end of the turn",
    }
}

/// One effect, said of "the target" (a unit or a hex).
pub fn effect_words(e: &Effect) -> String {
    match e {
        Effect::Attack { kind, value, radius, no_height } => {
            let mut s = format!("{} attack {value}", attack_word(*kind));
            if *radius > 0 {
                s += &format!(" on it and on every other unit within {}", plural(*radius, "hex", "hexes"));
            }
            if *no_height {
                s += ", no height bonus";
            }
            s
        }
        Effect::LoseLife { amount } => format!("it loses {} whatever its armor", plural(*amount, "life", "life")),
        Effect::Heal { amount, target: true } => format!("its Alpha heals {amount} life"),
        Effect::Heal { amount, target: false } => format!("this Alpha heals {amount} life"),
        Effect::SetTerrain { to, occupant_loses } => {
            let mut s = format!("the hex becomes {}", terrain_to(*to));
            if *occupant_loses > 0 {
                s += &format!("; a non-flying unit there falls and loses {occupant_loses} life");
            } else {
                s += "; a unit there is affected only by the new terrain";
            }
            s
        }
        Effect::SetTerrainAround { to } => format!("every hex around it becomes {}", terrain_to(*to)),
        Effect::Flood => "each becomes water (a unit there drowns: 5 life)".into(),
        Effect::GrowWater => "it grows: each of its water hexes may turn one hex next to it into water".into(),
        Effect::ForceMove { distance } => format!(
            "it is forced up to {} in a direction you choose (crushed 3, falls 3, drowns 5)",
            plural(*distance, "hex", "hexes")
        ),
        Effect::Teleport { distance } => format!(
            "it moves to an empty hex up to {} away, passing any terrain, spending nothing, losing no life",
            plural(*distance, "hex", "hexes")
        ),
        Effect::Mark { condition, until, radius, side } => {
            let who = match radius {
                Some(r) => format!(
                    "this unit and every {} unit within {}",
                    match side {
                        Side::Any => "other",
                        Side::Enemy => "enemy",
                        Side::Friendly => "friendly",
                    },
                    plural(*r, "hex", "hexes")
                ),
                None => "it".into(),
            };
            format!("{who} {} {}", condition_words(condition), until_words(*until))
        }
        Effect::Control => "it comes under your control until the end of the turn (you may activate it)".into(),
        Effect::ExtraAction => "this unit gets one more a this activation".into(),
        Effect::ExtraMove => "it gets one more m this turn".into(),
        Effect::SummonCopy => {
            "summon another unit of this Alpha on an empty hex next to this one (you pay its cost)".into()
        }
        Effect::ShiftRelic => "it moves to an adjacent hex (a relic moves at most once a turn)".into(),
        Effect::Dispel => "it loses every condition marker and every lasting DI on it ends".into(),
    }
}

fn special_words(s: SpecialRule) -> &'static str {
    match s {
        SpecialRule::Earthquake => {
            "only on a unit on a non-plains hex joined to a hex next to this unit by a path of that terrain, in line of sight"
        }
    }
}

/// A power: `Claws (a) → an enemy unit adjacent (1 hex away): melee attack 5.`
pub fn power_words(card: &AcCard, p: &Power) -> String {
    let range = if matches!(p.target, Targeting::Itself) { None } else { card.range };
    let effects: Vec<String> = p.effects.iter().map(effect_words).collect();
    let mut s =
        format!("{} ({}) → {}: {}", p.name, cost_words(&p.cost), target_words(&p.target, range), effects.join("; "));
    if let Some(sp) = p.special {
        s += &format!(" ({})", special_words(sp));
    }
    s + "."
}

pub fn passive_words(p: &Passive) -> String {
    match p {
        Passive::Flying => "Flying: moves up to 2 hexes over terrain and units, never drowns.".into(),
        Passive::WaterWalker => "Moves into and through water as if it were plains and never drowns.".into(),
        Passive::Swift => "Moving on the same level, one m takes it up to 2 hexes.".into(),
        Passive::Climber => "One m may also take it one level up or down.".into(),
        Passive::Rooted => "Never moves (not even forced or teleported) and never holds a relic.".into(),
        Passive::DeployAnywhere => "May be summoned on any empty hex.".into(),
        Passive::Regeneration { amount } => {
            format!("At your upkeep this Alpha heals {amount} life, however many of its units are on the board.")
        }
        Passive::ExplosiveGenes { amount } => {
            format!("When a unit of this Alpha dies, every unit next to it loses {amount} life.")
        }
        Passive::WeaponLore => {
            "A unit attacked during a turn only by units with Weapon Lore suffers 1 more damage.".into()
        }
    }
}

/// An Alpha Creation card in words: kind and price, then what it adds to
/// its Alpha, then its always-on powers, then its triggered powers.
pub fn ac_text(c: &AcCard) -> String {
    let mut parts: Vec<String> = vec![format!("{}, {} creation points.", kind_word(c.kind), c.cost)];
    let mut stats: Vec<String> = Vec::new();
    if c.life > 0 {
        stats.push(format!("{} life", c.life));
    }
    if c.life_plus > 0 {
        stats.push(format!("+{} life shown (not counted in the pool)", c.life_plus));
    }
    if c.hands > 0 {
        stats.push(format!("gives {}", plural(c.hands, "hand", "hands")));
    }
    if c.needs_hands > 0 {
        stats.push(format!("needs {}", plural(c.needs_hands, "hand", "hands")));
    }
    if c.spell_points > 0 {
        stats.push(format!("{} spell points", c.spell_points));
    }
    match (c.armor.physical, c.armor.magical) {
        (0, 0) => {}
        (p, 0) => stats.push(format!("{p} physical armor")),
        (0, m) => stats.push(format!("{m} magical armor")),
        (p, m) => stats.push(format!("{p} physical and {m} magical armor")),
    }
    for (k, v) in [
        (AttackKind::Melee, c.modifiers.melee),
        (AttackKind::Ranged, c.modifiers.ranged),
        (AttackKind::Magical, c.modifiers.magical),
    ] {
        if v != 0 {
            stats.push(format!("{v:+} to {} attacks", attack_word(k)));
        }
    }
    if !stats.is_empty() {
        let mut s = stats.join(", ");
        s[..1].make_ascii_uppercase();
        parts.push(s + ".");
    }
    if c.kind == CardKind::Spell {
        parts.push(format!("Uses {} of its Alpha's spell points.", c.cost));
    }
    parts.extend(c.passives.iter().map(passive_words));
    parts.extend(c.powers.iter().map(|p| power_words(c, p)));
    if c.cubes_per_summon > 0 {
        parts.push(format!("{} per summon.", plural(c.cubes_per_summon, "cube (c)", "cubes (c)")));
    }
    parts.join(" ")
}

/// A Divine Intervention in words.
pub fn di_text(c: &DiCard) -> String {
    let mut s = format!("Divine Intervention, {} divine points.", c.divine_points);
    if c.duration > 0 {
        s += &format!(" Lasts {}.", plural(c.duration, "turn", "turns"));
    }
    let effects: Vec<String> = c.effects.iter().map(effect_words).collect();
    s += &format!(" On {}: {}.", target_words(&c.target, None), effects.join("; "));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use athlas_engine::duel::card::Catalogue;

    /// Every number a card carries, as the words must show it.
    fn numbers_ac(c: &AcCard) -> Vec<u32> {
        let mut n = vec![c.cost];
        n.extend([c.life, c.life_plus, c.hands, c.needs_hands, c.spell_points, c.armor.physical, c.armor.magical]);
        n.extend([c.modifiers.melee, c.modifiers.ranged, c.modifiers.magical].map(i32::unsigned_abs));
        n.push(c.cubes_per_summon);
        if let Some(r) = c.range {
            if c.powers.iter().any(|p| !matches!(p.target, Targeting::Itself)) {
                n.extend([r.min, r.max]);
            }
        }
        for p in &c.powers {
            n.push(p.cost.life);
            p.effects.iter().for_each(|e| n.extend(numbers_effect(e)));
        }
        for p in &c.passives {
            if let Passive::Regeneration { amount } | Passive::ExplosiveGenes { amount } = p {
                n.push(*amount);
            }
        }
        n.retain(|x| *x > 0);
        n
    }

    fn numbers_effect(e: &Effect) -> Vec<u32> {
        match e {
            Effect::Attack { value, radius, .. } => vec![value.unsigned_abs(), *radius],
            Effect::LoseLife { amount } | Effect::Heal { amount, .. } => vec![*amount],
            Effect::SetTerrain { occupant_loses, .. } => vec![*occupant_loses],
            Effect::ForceMove { distance } | Effect::Teleport { distance } => vec![*distance],
            Effect::Mark { condition, radius, .. } => {
                let mut v = vec![radius.unwrap_or(0)];
                match condition {
                    Condition::AttackBonus { amount, .. } => v.push(amount.unsigned_abs()),
                    Condition::ArmorBonus { physical, magical } => v.extend([*physical, *magical]),
                    _ => {}
                }
                v
            }
            _ => Vec::new(),
        }
    }

    fn mentions(text: &str, n: u32) -> bool {
        text.split(|c: char| !c.is_ascii_digit()).any(|w| w == n.to_string())
    }

    #[test]
    fn every_card_of_the_catalogue_says_what_it_does_with_its_numbers() {
        let cat = Catalogue::standard();
        assert!(cat.ac.len() >= 65 && cat.di.len() >= 19, "the shipped set");
        for c in cat.ac.values() {
            let t = ac_text(c);
            assert!(t.len() > 20, "{}: {t}", c.id);
            for n in numbers_ac(c) {
                assert!(mentions(&t, n), "{} does not mention {n}: {t}", c.id);
            }
            for p in &c.powers {
                assert!(t.contains(&p.name), "{} names its power {}: {t}", c.id, p.name);
            }
        }
        for c in cat.di.values() {
            let t = di_text(c);
            let mut nums = vec![c.divine_points, c.duration];
            c.effects.iter().for_each(|e| nums.extend(numbers_effect(e)));
            if let Targeting::Hexes { count } = c.target {
                nums.push(count);
            }
            for n in nums.into_iter().filter(|n| *n > 0) {
                assert!(mentions(&t, n), "{} does not mention {n}: {t}", c.id);
            }
        }
    }

    #[test]
    fn cards_read_as_sentences() {
        let cat = Catalogue::standard();
        assert_eq!(
            ac_text(cat.card("forsaken_drake").unwrap()),
            "Genus, 10 creation points. 8 life, gives 2 hands. \
             Flying: moves up to 2 hexes over terrain and units, never drowns. \
             Claws (a) → an enemy unit adjacent (1 hex away): melee attack 5."
        );
        assert_eq!(ac_text(cat.card("battle_fury").unwrap()), "Ability, 4 creation points. +2 to melee attacks.");
        assert_eq!(
            ac_text(cat.card("necromantic_gauntlets").unwrap()),
            "Equipment, 5 creation points. Needs 2 hands, +1 to melee attacks. \
             Death Grip (a, sacrifice 2 life of this Alpha) → an enemy unit adjacent (1 hex away): melee attack 6."
        );
        assert_eq!(
            di_text(cat.di_card("athilian_strength").unwrap()),
            "Divine Intervention, 3 divine points. Lasts 6 turns. \
             On a friendly unit: it gets +3 to its melee attacks while this lasts."
        );
        assert_eq!(
            di_text(cat.di_card("unnatural_force").unwrap()),
            "Divine Intervention, 2 divine points. On any unit: it is forced up to 2 hexes in a direction you \
             choose (crushed 3, falls 3, drowns 5)."
        );
    }
}
