//! R105 (L682-684): start-of-turn effects come first, and when a figure has
//! several whose order changes the outcome, the order is chosen: by the
//! Origin's player for an Origin (`OrderTurnStart` starts its Combat turn),
//! by the party (its leader) for an enemy, whose turn waits for the answer.

use athlas_engine::divinity::action::{Aim, DivinityAction as A};
use athlas_engine::divinity::content::Catalogue;
use athlas_engine::divinity::cooldown::{Track, MINION_TRACK};
use athlas_engine::divinity::damage::DamageType;
use athlas_engine::divinity::event::DivinityEvent as Ev;
use athlas_engine::divinity::state::{EnemyKind, Who};
use athlas_engine::divinity::status::{Status as St, StatusDamage};
use athlas_engine::divinity::{Divinity, DivinityOptions, DivinityState};
use athlas_engine::{Ruleset, Seat, Viewer};

use crate::divinity_support;
use divinity_support::*;

fn std_cat() -> &'static Catalogue {
    Catalogue::standard()
}

#[track_caller]
fn ok(c: &Catalogue, s: &mut DivinityState, seat: Seat, a: A) -> Vec<Ev> {
    match Divinity::apply_with(c, s, seat, a.clone()) {
        Ok(ev) => ev,
        Err(e) => panic!("{a:?} by seat {seat} was rejected: {}", e.message),
    }
}

/// The tutorial's Galley fight on catalogue `c`: the party in the Galley
/// with 20 HP, one SLOW Lackey, no environment, enemy rolls landing at once.
fn galley_combat(c: &Catalogue, party: &[&str], party_breaks_ties: bool) -> DivinityState {
    let opts = DivinityOptions {
        party: party.iter().map(|p| p.to_string()).collect(),
        location: Some("tutorial".into()),
        party_breaks_ties,
        ..DivinityOptions::default()
    };
    let mut s = Divinity::start_with(c, &opts, 7).unwrap();
    ok(c, &mut s, 0, A::ChooseRound { explore: true });
    for seat in 0..party.len() as Seat {
        ok(c, &mut s, seat, A::Travel { to: Some("2".into()) });
    }
    ok(c, &mut s, 0, A::Reveal);
    ok(c, &mut s, 0, A::Resolve { card: "2".into() });
    // A FAST Lackey may have acted: its target among equals, its roll.
    loop {
        if let Some(t) = s.tie().cloned() {
            let Who::Origin(o) = t.options[0] else { unreachable!("ties are between Origins here") };
            ok(c, &mut s, 0, A::BreakTie { target: Aim::Origin(o) });
        } else if s.enemy_roll().is_some() {
            let seat = waiting(&s)[0];
            ok(c, &mut s, seat, A::Accept);
        } else {
            break;
        }
    }
    assert_eq!(s.enemies.len(), 1, "the Lackey");
    s.options.reroll_enemy_rolls = false;
    let galley = c.locations["tutorial"].map.ix("2").unwrap();
    s.map.tokens.remove(&galley);
    for o in &mut s.origins {
        o.hp = 20;
        o.space = galley;
    }
    s.enemies[0].fast = false;
    s
}

/// Ifan on 2 HP, unarmoured, with Comeback Kid (survive a blow that would
/// down him on 1 HP, once) and BURNING (2 fire) above BLEEDING (1 direct) on
/// his track; Sebille keeps the combat going if he is downed.
fn burning_bleeding_ifan() -> DivinityState {
    let mut s = galley_combat(std_cat(), &["ifan", "sebille"], true);
    let o = &mut s.origins[0];
    o.hp = 2;
    o.equipped.clear();
    o.runes.clear();
    o.talents.push("comeback_kid".into());
    o.track.apply_status(St::Burning, 1);
    o.track.apply_status(St::Bleeding, 2);
    assert_eq!(s.turn_start_effects(std_cat(), Who::Origin(0)), vec![St::Burning, St::Bleeding], "track order");
    assert!(s.turn_start_order_matters(std_cat(), Who::Origin(0)));
    s
}

/// R105 (L682-684): an Origin with several start-of-turn effects picks their
/// order as its turn starts. BLEEDING first leaves Ifan on 1 HP, then
/// BURNING's blow is the one Comeback Kid survives: he stands and gains his
/// AP. BURNING first (the track order, what `StartTurn` does) spends Comeback
/// Kid and BLEEDING downs him.
#[test]
fn r105_an_origin_picks_the_order_of_its_start_of_turn_effects() {
    let c = std_cat();
    let mut s = burning_bleeding_ifan();
    let ev = ok(c, &mut s, 0, A::OrderTurnStart { order: vec![St::Bleeding, St::Burning] });
    let hits: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Ev::Damaged { who: Who::Origin(0), amount, .. } => Some(*amount),
            _ => None,
        })
        .collect();
    assert_eq!(hits, vec![1, 0], "BLEEDING's 1, then BURNING's blow stopped on 1 HP: {ev:?}");
    let o = &s.origins[0];
    assert!(!o.downed, "Ifan stands");
    assert_eq!(o.hp, 1);
    assert_eq!(o.talents_used, vec!["comeback_kid".to_string()]);
    assert!(o.ap > 0 && ev.iter().any(|e| matches!(e, Ev::TurnStarted { seat: 0, .. })), "his turn goes on");

    // The other order, named or left to the track, downs him.
    for a in [A::OrderTurnStart { order: vec![St::Burning, St::Bleeding] }, A::StartTurn] {
        let mut s = burning_bleeding_ifan();
        let ev = ok(c, &mut s, 0, a.clone());
        assert!(ev.contains(&Ev::Downed { seat: 0 }), "{a:?}: {ev:?}");
        assert!(s.origins[0].downed);
        assert_eq!(s.origins[0].talents_used, vec!["comeback_kid".to_string()]);
        assert!(!ev.iter().any(|e| matches!(e, Ev::TurnStarted { seat: 0, .. })), "his turn ends at once");
    }
}

/// R105 (L684): the order must name each of the Origin's start-of-turn
/// effects exactly once; anything else is refused and changes nothing, and
/// the turn can still start afterwards.
#[test]
fn r105_a_bad_order_is_refused_and_changes_nothing() {
    let c = std_cat();
    let mut s = burning_bleeding_ifan();
    for order in [
        vec![],
        vec![St::Burning],
        vec![St::Bleeding, St::Bleeding],
        vec![St::Burning, St::Bleeding, St::Bleeding],
        vec![St::Burning, St::Poisoned],
        vec![St::Burning, St::Bleeding, St::Haste],
    ] {
        rejected_with(c, &mut s, 0, A::OrderTurnStart { order }, "bad_turn_start_order");
    }
    // Another Origin's effects are its own: Sebille has none to order.
    rejected_with(c, &mut s, 1, A::OrderTurnStart { order: vec![St::Burning] }, "bad_turn_start_order");
    // Out of combat there is no turn to start.
    let mut calm = Divinity::start_with(
        c,
        &DivinityOptions {
            party: vec!["ifan".into()],
            location: Some("tutorial".into()),
            ..DivinityOptions::default()
        },
        7,
    )
    .unwrap();
    rejected_with(c, &mut calm, 0, A::OrderTurnStart { order: vec![] }, "not_combat");
    ok(c, &mut s, 0, A::OrderTurnStart { order: vec![St::Bleeding, St::Burning] });
    assert!(!s.origins[0].downed);
}

/// A catalogue where BLEEDING's start-of-turn effect is 2 poison (which
/// heals the UNDEAD) and BURNING's 3 direct: their order matters to an
/// UNDEAD enemy.
fn healing_bleed() -> Catalogue {
    let mut c = std_cat().clone();
    c.statuses.0.get_mut(&St::Bleeding).unwrap().start_of_turn =
        Some(StatusDamage { amount: 2, ty: DamageType::Poison });
    c.statuses.0.get_mut(&St::Burning).unwrap().start_of_turn =
        Some(StatusDamage { amount: 3, ty: DamageType::Direct });
    c
}

/// An Undead Ranger on 3 HP with BURNING above BLEEDING, Ifan's turn under way.
fn burning_bleeding_ranger(c: &Catalogue, party_breaks_ties: bool) -> (DivinityState, u32) {
    let mut s = galley_combat(c, &["ifan"], party_breaks_ties);
    let e = &mut s.enemies[0];
    e.kind = EnemyKind::Minion { card: "undead_ranger".into(), veteran: false };
    e.hp = 3;
    e.max_hp = 24;
    e.track = Track::new(MINION_TRACK);
    e.track.apply_status(St::Burning, 1);
    e.track.apply_status(St::Bleeding, 2);
    let id = e.id;
    ok(c, &mut s, 0, A::StartTurn);
    (s, id)
}

/// R105 (L684): an enemy with several start-of-turn effects whose order
/// matters waits for the party's order (its leader answers; the view shows
/// the choice). BLEEDING first heals the UNDEAD Ranger to 5 and BURNING
/// leaves it on 2; the track order (BURNING first) would defeat it.
#[test]
fn r105_the_party_orders_an_enemys_start_of_turn_effects() {
    let c = &healing_bleed();
    let (mut s, id) = burning_bleeding_ranger(c, true);
    let ev = ok(c, &mut s, 0, A::EndTurn);
    assert!(ev.contains(&Ev::TurnStartToOrder { enemy: id, statuses: vec![St::Burning, St::Bleeding] }), "{ev:?}");
    assert!(!ev.iter().any(|e| matches!(e, Ev::Damaged { who: Who::Enemy(_), .. })), "nothing before the order");
    assert_eq!(s.enemy(id).unwrap().hp, 3);
    assert_eq!(waiting(&s), vec![0], "the leader answers");
    let view = Divinity::view(&s, Viewer::Seat(0));
    let choice = view.turn_start.clone().expect("the view shows the choice");
    assert_eq!((choice.enemy, choice.statuses), (id, vec![St::Burning, St::Bleeding]));
    rejected_with(c, &mut s, 0, A::Recover { status: None }, "turn_start_pending");
    rejected_with(c, &mut s, 0, A::OrderTurnStart { order: vec![St::Bleeding] }, "bad_turn_start_order");
    let ev = ok(c, &mut s, 0, A::OrderTurnStart { order: vec![St::Bleeding, St::Burning] });
    assert!(s.turn_start().is_none());
    let heal = ev.iter().position(|e| matches!(e, Ev::Healed { who: Who::Enemy(e), amount: 2, hp: 5 } if *e == id));
    let burn = ev.iter().position(|e| matches!(e, Ev::Damaged { who: Who::Enemy(e), amount: 3, hp: 2 } if *e == id));
    assert!(heal.is_some() && heal < burn, "{ev:?}");
    assert!(s.enemy(id).is_some(), "the Ranger survives");
    assert!(ev.iter().any(|e| matches!(e, Ev::Targeted { enemy, .. } if *enemy == id)), "and its turn goes on");

    // The party may also pick the track order: the Ranger is defeated.
    let (mut s, id) = burning_bleeding_ranger(c, true);
    ok(c, &mut s, 0, A::EndTurn);
    let ev = ok(c, &mut s, 0, A::OrderTurnStart { order: vec![St::Burning, St::Bleeding] });
    assert!(ev.contains(&Ev::Defeated { enemy: id }), "{ev:?}");
    assert!(ev.contains(&Ev::CombatEnded { victory: true }));
}

/// R105 (L682-684): without the party's say the track order holds at once;
/// with it, the party is asked only when the order changes the outcome.
#[test]
fn r105_without_the_partys_say_the_track_order_holds() {
    let c = &healing_bleed();
    let (mut s, id) = burning_bleeding_ranger(c, false);
    let ev = ok(c, &mut s, 0, A::EndTurn);
    assert!(!ev.iter().any(|e| matches!(e, Ev::TurnStartToOrder { .. })));
    assert!(s.turn_start().is_none());
    assert!(ev.contains(&Ev::Defeated { enemy: id }), "BURNING first: {ev:?}");

    // Standard BURNING and BLEEDING only hurt: any order ends the same, so
    // the party is not asked even though it breaks ties.
    let c = std_cat();
    let (mut s, id) = burning_bleeding_ranger(c, true);
    s.enemies[0].hp = 10;
    assert!(!s.turn_start_order_matters(c, Who::Enemy(id)));
    let ev = ok(c, &mut s, 0, A::EndTurn);
    assert!(s.turn_start().is_none());
    assert!(!ev.iter().any(|e| matches!(e, Ev::TurnStartToOrder { .. })));
    let hp: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e {
            Ev::Damaged { who: Who::Enemy(e), hp, .. } if *e == id => Some(*hp),
            _ => None,
        })
        .collect();
    assert_eq!(hp[..2], [9, 8], "BURNING (2 fire - 1 magical armor), then BLEEDING (1 direct)");
}
