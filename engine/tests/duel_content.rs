//! The shipped card set (`content/duel/cards.json`, `presets.json`) against
//! every number the book states. Line numbers refer to
//! ../shared/rules/duel-for-divinity.txt; test ids to
//! ../shared/facts/duel-facts.md §2. What is stated, derived or designed is
//! listed card by card in `content/duel/CARDS.md`.

use std::collections::BTreeSet;

use athlas_engine::duel::alpha::{AlphaDesign, Violation};
use athlas_engine::duel::card::{Armor, CardKind, Catalogue, Effect, Targeting, Until};

fn cat() -> &'static Catalogue {
    Catalogue::standard()
}

fn design(ids: &[&str]) -> AlphaDesign {
    AlphaDesign::new(ids.iter().copied())
}

fn with(base: &[&str], extra: &[&str]) -> AlphaDesign {
    design(&[base, extra].concat())
}

const BRIAN: [&str; 5] = ["shadow_ranger", "marksmanship", "etynian_crossbow", "full_plate_armor", "drain_life"];

/// T-DECK-1 / T-DECK-2 (L77-84, L110-111): 9 genus, 30 equipment, 14 ability,
/// 12 spell = 65 AC cards; with the 19 DIs that is the book's "84"; with the
/// Basic Powers card, 85 cards per set.
#[test]
fn one_players_set_has_the_books_composition() {
    let c = cat();
    assert_eq!(c.count(CardKind::Genus), 9);
    assert_eq!(c.count(CardKind::Equipment), 30);
    assert_eq!(c.count(CardKind::Ability), 14);
    assert_eq!(c.count(CardKind::Spell), 12);
    assert_eq!(c.ac.len(), 65);
    assert_eq!(c.di.len(), 19);
    assert_eq!(c.ac.len() + c.di.len(), 84, "the book's \"84 AC cards\" (L110)");
    assert_eq!(c.basic_powers.len(), 4);
    assert_eq!(c.ac.len() + c.di.len() + 1, 85, "with the Basic Powers card");
}

#[test]
fn ids_and_names_are_unique_and_ids_are_snake_case_names() {
    let c = cat();
    let cards: Vec<(&str, &str, &str)> =
        c.ac.values()
            .map(|x| (&*x.id, x.name.as_str(), x.text.as_str()))
            .chain(c.di.values().map(|x| (&*x.id, x.name.as_str(), x.text.as_str())))
            .collect();
    let ids: BTreeSet<&str> = cards.iter().map(|x| x.0).collect();
    let names: BTreeSet<&str> = cards.iter().map(|x| x.1).collect();
    assert_eq!(ids.len(), cards.len(), "an id is used twice (AC and DI ids share one space)");
    assert_eq!(names.len(), cards.len(), "a name is used twice");
    for (id, name, text) in &cards {
        let snake: String = name
            .to_lowercase()
            .split(|ch: char| !ch.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_");
        assert_eq!(*id, snake, "the id of {name:?}");
        assert!(!text.trim().is_empty(), "{id} has no text");
    }
    for (id, card) in &c.ac {
        assert_eq!(id, &card.id);
    }
    for (id, card) in &c.di {
        assert_eq!(id, &card.id);
    }
    assert!(c.basic_powers.iter().all(|t| !t.trim().is_empty()));
}

/// The data conventions CARDS.md promises for every card.
#[test]
fn every_card_keeps_the_conventions() {
    for card in cat().ac.values() {
        assert!((1..=12).contains(&card.cost), "{}: creation cost {}", card.id, card.cost);
        let uses_c = card.powers.iter().any(|p| p.cost.c);
        assert_eq!(uses_c, card.cubes_per_summon > 0, "{}: cubes only for a card whose power costs c", card.id);
        for p in &card.powers {
            if !matches!(p.target, Targeting::Itself) {
                assert!(card.range.is_some(), "{}: {} targets but has no range", card.id, p.name);
            }
            let attacks = p.effects.iter().any(|e| matches!(e, Effect::Attack { .. }));
            if attacks && card.kind == CardKind::Equipment && !p.cost.c {
                // A weapon used again and again is held in hand(s) unless thrown.
                assert!(card.needs_hands > 0, "{}: a weapon needs hands", card.id);
            }
        }
        if card.kind == CardKind::Genus {
            assert!(card.life > 0 && card.hands > 0, "{}: a genus gives life and hands", card.id);
        }
    }
}

// ------------------------------------------------------------ Brian's Alpha

/// T-BRIAN-1, T-COST-1, T-LIFE-1 (L408-455, L613-661).
#[test]
fn brians_alpha_is_valid_costs_32_and_has_10_life() {
    let c = cat();
    let a = design(&BRIAN);
    assert_eq!(a.violations(c), vec![]);
    assert_eq!(a.summoning_cost(c), 32, "10+4+8+5+5");
    assert_eq!(a.life_pool(c), 10, "Drain Life's +life is ignored");
    let costs: Vec<u32> = BRIAN.iter().map(|id| c.card(id).unwrap().cost).collect();
    assert_eq!(costs, vec![10, 4, 8, 5, 5]);
    let red: u32 = BRIAN.iter().map(|id| c.card(id).unwrap().needs_hands).sum();
    let green: u32 = BRIAN.iter().map(|id| c.card(id).unwrap().hands).sum();
    assert_eq!((red, green), (2, 2));
    let spells: u32 =
        BRIAN.iter().map(|id| c.card(id).unwrap()).filter(|x| x.kind == CardKind::Spell).map(|x| x.cost).sum();
    let points: u32 = BRIAN.iter().map(|id| c.card(id).unwrap().spell_points).sum();
    assert_eq!((spells, points), (5, 5));
    let dl = c.card("drain_life").unwrap();
    assert!(dl.life_plus > 0 && dl.life == 0, "Drain Life shows a \"+\" life value");
    assert_eq!(dl.cubes_per_summon, 1, "one cube on Drain Life per summon (L660-661)");
}

#[test]
fn brians_alpha_breaks_with_a_hand_card_a_spell_or_a_second_genus() {
    let c = cat();
    let v = with(&BRIAN, &["obsidian_shield"]).violations(c);
    assert_eq!(v, vec![Violation::Hands { red: 3, green: 2 }]);
    let v = with(&BRIAN, &["magic_bolt"]).violations(c);
    assert_eq!(v, vec![Violation::SpellPoints { spells: 9, spell_points: 5 }]);
    let v = with(&BRIAN, &["savage_warrior"]).violations(c);
    assert_eq!(v, vec![Violation::GenusCount { genus: 2 }]);
    // ...unless a card gives what is missing (L449-455).
    assert!(with(&BRIAN, &["extra_hand", "obsidian_shield"]).is_valid(c));
    assert!(with(&BRIAN, &["magic_staff", "magic_bolt"]).is_valid(c));
}

/// T-GENUS-1 (L310-313).
#[test]
fn an_alpha_needs_exactly_one_genus() {
    let c = cat();
    assert_eq!(design(&["marksmanship"]).violations(c), vec![Violation::GenusCount { genus: 0 }]);
    assert!(design(&["shadow_ranger"]).is_valid(c));
}

/// T-HANDS-1 (L315-321): 2 hands cannot hold an Axe of Lorios and an Obsidian Shield.
#[test]
fn two_hands_hold_the_axe_or_the_shield_not_both() {
    let c = cat();
    for genus in ["shadow_ranger", "savage_warrior"] {
        assert_eq!(c.card(genus).unwrap().hands, 2);
        assert!(design(&[genus, "axe_of_lorios"]).is_valid(c));
        assert!(design(&[genus, "obsidian_shield"]).is_valid(c));
        let v = design(&[genus, "axe_of_lorios", "obsidian_shield"]).violations(c);
        assert_eq!(v, vec![Violation::Hands { red: 3, green: 2 }]);
    }
    assert_eq!(c.card("axe_of_lorios").unwrap().needs_hands, 2);
    assert_eq!(c.card("obsidian_shield").unwrap().needs_hands, 1);
}

/// T-SPELL-1 (L323-329).
#[test]
fn a_shadow_ranger_casts_fire_strike_or_magic_bolt_not_both() {
    let c = cat();
    assert!(design(&["shadow_ranger", "fire_strike"]).is_valid(c));
    assert!(design(&["shadow_ranger", "magic_bolt"]).is_valid(c));
    let v = design(&["shadow_ranger", "fire_strike", "magic_bolt"]).violations(c);
    assert_eq!(v, vec![Violation::SpellPoints { spells: 9, spell_points: 5 }]);
    assert_eq!((c.card("fire_strike").unwrap().cost, c.card("magic_bolt").unwrap().cost), (5, 4));
}

// ------------------------------------------------------------ presets

/// T-PRESET-1 (L1465-1535): every preset Alpha is valid, at the printed cost.
#[test]
fn presets_are_valid_at_the_printed_costs() {
    let c = cat();
    let mut costs = Vec::new();
    for id in ["aquatic", "rush"] {
        let p = c.preset(id).unwrap_or_else(|| panic!("preset {id}"));
        assert_eq!(p.alphas.len(), 3);
        assert_eq!(p.book_costs.len(), 3);
        let mut used = BTreeSet::new();
        for (alpha, book) in p.alphas.iter().zip(&p.book_costs) {
            let a = AlphaDesign::new(alpha.iter().cloned());
            assert_eq!(a.violations(c), vec![], "{id}: {alpha:?}");
            if let Some(book) = book {
                assert_eq!(a.summoning_cost(c), *book, "{id}: {alpha:?}");
            }
            costs.push(a.summoning_cost(c));
            for card in alpha {
                assert!(used.insert(card.clone()), "{id}: {card} in two Alphas");
            }
        }
    }
    assert_eq!([costs[0], costs[1], costs[3], costs[4], costs[5]], [23, 30, 29, 20, 17]);
    assert_eq!(c.preset("aquatic").unwrap().book_costs, vec![Some(23), Some(30), None]);
    assert_eq!(c.preset("rush").unwrap().book_costs, vec![Some(29), Some(20), Some(17)]);
    assert!(c.preset("brian_ranged").is_none());
    // Aquatic #3: a flying Dark Mentalist (L1497-1500).
    let dm = design(&["dark_mentalist", "forsaken_wings"]);
    assert!(dm.is_valid(c));
    assert_eq!(
        c.preset("aquatic").unwrap().alphas[2].iter().map(|x| &**x).collect::<Vec<_>>(),
        ["dark_mentalist", "forsaken_wings"]
    );
    assert!(dm.has_passive(c, |p| matches!(p, athlas_engine::duel::card::Passive::Flying)));
}

/// T-DI-1 (L466-469): each preset stack holds at most 4 cards and 8 Divine Points.
#[test]
fn preset_di_stacks_fit_four_cards_and_eight_points() {
    let c = cat();
    let want = [
        ("aquatic", ["flood", "tsunami", "unnatural_force", "lightning_bolt"]),
        ("rush", ["time_warp", "temporary_gate", "shift_relic", "unnatural_force"]),
    ];
    for (id, stack) in want {
        let p = c.preset(id).unwrap();
        assert_eq!(p.di_stack.iter().map(|x| &**x).collect::<Vec<_>>(), stack.to_vec());
        let points: u32 = p.di_stack.iter().map(|d| c.di_card(d).unwrap().divine_points).sum();
        assert!(p.di_stack.len() <= 4 && points <= 8, "{id}: {} cards, {points} points", p.di_stack.len());
        assert_eq!(points, 8, "{id}: the book's stack uses the whole allowance");
    }
}

// ------------------------------------------------------------ the play-by-play Alphas

/// L1250-1257, L1269-1270: max life 12, 2 physical armor each.
#[test]
fn savage_warriors_have_12_life_and_2_armor() {
    let c = cat();
    let a = design(&["savage_warrior", "karoos_blade", "obsidian_shield", "obsidian_breast_plate", "throwing_axe"]);
    assert_eq!(a.violations(c), vec![]);
    assert_eq!(a.life_pool(c), 12);
    assert_eq!(a.armor(c), Armor { physical: 2, magical: 0 });
    // +1 on both the Throwing Axe (2+1 = 3) and the Karoos Blade (5+1 = 6), L1322-1341.
    use athlas_engine::duel::card::AttackKind;
    assert_eq!(a.modifier(c, AttackKind::Ranged), 1);
    assert_eq!(a.modifier(c, AttackKind::Melee), 1);
    assert_eq!(c.card("throwing_axe").unwrap().cubes_per_summon, 1);
}

/// L1259-1266, L1271-1272: max life 8, 3 physical armor, flying.
#[test]
fn forsaken_drakes_have_8_life_and_3_armor() {
    let c = cat();
    let a = design(&["forsaken_drake", "mining_tools", "rakios_battle_suit", "elixir_of_healing"]);
    assert_eq!(a.violations(c), vec![]);
    assert_eq!(a.life_pool(c), 8);
    assert_eq!(a.armor(c), Armor { physical: 3, magical: 0 });
    assert!(a.has_passive(c, |p| matches!(p, athlas_engine::duel::card::Passive::Flying)));
    let elixir = c.card("elixir_of_healing").unwrap();
    assert_eq!(elixir.powers[0].effects, vec![Effect::Heal { amount: 5, target: false }]);
    let mining = c.card("mining_tools").unwrap();
    assert!(!mining.powers[0].cost.c, "no cube is counted on Mining Tools (L1272-1273)");
}

/// Attack, Armor and Damage Example (L921-949): armor 5 (3+1+1), magical 1, pool 11.
#[test]
fn pauls_armored_alpha_has_armor_5_and_1() {
    let c = cat();
    let a = design(&["raider_of_the_deep", "rakios_battle_suit", "celestial_shield"]);
    assert_eq!(a.violations(c), vec![]);
    assert_eq!(a.life_pool(c), 11);
    assert_eq!(a.armor(c), Armor { physical: 5, magical: 1 });
}

// ------------------------------------------------------------ divine interventions

/// A DI that marks a unit for its duration must have duration cubes (L695-708).
#[test]
fn lasting_dis_have_a_duration() {
    let c = cat();
    for d in c.di.values() {
        let lasting = d.effects.iter().any(|e| matches!(e, Effect::Mark { until: Until::DiDuration, .. }));
        assert_eq!(lasting, d.duration > 0, "{}: duration {}", d.id, d.duration);
        assert!((1..=8).contains(&d.divine_points), "{}", d.id);
    }
    assert_eq!(c.di_card("athilian_strength").unwrap().duration, 6, "6 cubes (L1410-1414)");
}

/// The DIs the book names, with the effect it describes.
#[test]
fn named_dis_do_what_the_book_says() {
    let c = cat();
    let named = [
        "unnatural_force",
        "athilian_strength",
        "stasis_field",
        "dispel_magic",
        "raise_earth",
        "flood",
        "tsunami",
        "lightning_bolt",
        "time_warp",
        "temporary_gate",
        "shift_relic",
        "polymorph_self",
        "paralysis",
        "teleport",
    ];
    for id in named {
        assert!(c.di_card(id).is_some(), "{id}");
    }
    assert_eq!(c.di_card("flood").unwrap().target, Targeting::Hexes { count: 4 }, "4 water hexes (L1470-1471)");
    assert_eq!(
        c.di_card("polymorph_self").unwrap().target,
        Targeting::Unit { side: athlas_engine::duel::card::Side::Friendly, owned: true }
    );
    assert!(matches!(c.di_card("lightning_bolt").unwrap().effects[0], Effect::LoseLife { .. }));
}
